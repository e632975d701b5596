#!/usr/bin/env python3
"""Statistics over many seeds: how often generation succeeds, how long it takes, and what the
maps hold (zones, objects by kind, guards, treasure value, warnings).

    PYTHONPATH=bindings/python RMG_LIBRARY=build/release/librmg.so \
        python3 examples/python/batch_stats.py --runs 50 --size S
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from typing import Dict, List, Optional

import rmg


def parse_args(argv: Optional[list] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("template", nargs="?", help="template pack file (default: the built-in pack)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--size", default="S")
    parser.add_argument("--underground", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser.parse_args(argv)


def measure(m: rmg.Map) -> Dict[str, float]:
    """The numbers of one map."""
    kinds = Counter(o.kind for o in m.objects)
    return {
        "zones": len(m.zones),
        "objects": len(m.objects),
        "towns": kinds[rmg.ObjectKind.TOWN],
        "mines": kinds[rmg.ObjectKind.MINE],
        "monsters": kinds[rmg.ObjectKind.MONSTER],
        "treasure_value": sum(o.value for o in m.objects if o.kind == rmg.ObjectKind.TREASURE),
        "guarded_value": sum(o.guarded_value for o in m.objects if o.kind == rmg.ObjectKind.MONSTER),
        "warnings": len(m.warnings),
        "attempts": m.attempts,
    }


def summarize(values: List[float]) -> Dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 2),
        "min": round(min(values), 2),
        "max": round(max(values), 2),
        "stdev": round(statistics.pstdev(values), 2),
    }


def run(args: argparse.Namespace) -> Dict[str, object]:
    rows: List[Dict[str, float]] = []
    failures: Counter = Counter()
    fingerprints = set()
    times: List[float] = []
    with rmg.Context() as ctx:
        template = ctx.load_template(args.template) if args.template else ctx.builtin_template()
        for seed in range(args.first_seed, args.first_seed + args.runs):
            started = time.perf_counter()
            try:
                m = ctx.generate(template, size=args.size, underground=args.underground, seed=seed)
            except rmg.Error as err:
                failures[err.status.name if isinstance(err.status, rmg.Status) else str(err.status)] += 1
                continue
            finally:
                times.append((time.perf_counter() - started) * 1000)
            rows.append(measure(m))
            fingerprints.add(m.fingerprint)
            m.close()
        # Determinism: the first seed again gives the same map.
        again = ctx.generate(template, size=args.size, underground=args.underground, seed=args.first_seed)
        deterministic = again.fingerprint in fingerprints
    summary: Dict[str, object] = {
        "runs": args.runs,
        "succeeded": len(rows),
        "failures": dict(failures),
        "distinct_maps": len(fingerprints),
        "deterministic": deterministic,
        "ms_per_map": summarize(times),
    }
    if rows:
        summary["per_map"] = {key: summarize([r[key] for r in rows]) for key in rows[0]}
    return summary


def main(argv: Optional[list] = None) -> int:
    args = parse_args(argv)
    summary = run(args)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['succeeded']}/{summary['runs']} maps generated, {summary['distinct_maps']} distinct, "
              f"deterministic: {summary['deterministic']}, failures: {summary['failures'] or 'none'}")
        ms = summary["ms_per_map"]
        print(f"time per map: mean {ms['mean']} ms (min {ms['min']:.1f}, max {ms['max']:.1f})")
        print(f"{'':16}{'mean':>10}{'min':>10}{'max':>10}{'stdev':>10}")
        for key, s in summary.get("per_map", {}).items():
            print(f"{key:16}{s['mean']:>10}{s['min']:>10}{s['max']:>10}{s['stdev']:>10}")
    return 0 if summary["succeeded"] and summary["deterministic"] else 1


if __name__ == "__main__":
    sys.exit(main())
