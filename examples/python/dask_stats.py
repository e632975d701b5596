#!/usr/bin/env python3
"""rmg stats --balance beyond one machine: the seeds spread over a Dask cluster's workers.

Each worker generates its share of the seeds through the ctypes bindings (rmg.stats's
run_seeds); the results come back in seed order, with the same fingerprints, balance scores and
summaries as `rmg stats --balance` over the same seeds (maps depend only on template, options
and seed). On this machine, with a local cluster of two worker processes:

    PYTHONPATH=bindings/python RMG_LIBRARY=build/release/librmg.so \
        python3 examples/python/dask_stats.py --runs 200 --size M --local-workers 2

On a real cluster (`dask scheduler` on one host, `dask worker tcp://HOST:8786` on each of the
others, every one with the bindings importable and librmg found, e.g. PYTHONPATH and
RMG_LIBRARY set as above):

    python3 examples/python/dask_stats.py Jebus.h3t --runs 100000 --size XL --scheduler tcp://HOST:8786

The template file is read here and sent to the workers, which need no shared folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

import rmg


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("template", nargs="?", help="template pack file (default: the built-in pack)")
    parser.add_argument("--runs", type=int, default=20, help="maps to generate (default 20)")
    parser.add_argument("--first-seed", type=int, default=1, help="seed of the first map (default 1)")
    parser.add_argument("--size", help="S, M, L, XL, H, XH, G or WxH (default: the template's choice)")
    parser.add_argument("--water", help="none, normal or islands (default: the template's choice)")
    parser.add_argument("--game", default="hota", help="hota (default) or sod")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://HOST:8786)")
    where.add_argument("--local-workers", type=int, default=2,
                       help="without --scheduler: a local cluster of this many worker processes (default 2)")
    parser.add_argument("--batch", type=int, default=0, help="seeds per task (default: about four tasks per worker)")
    parser.add_argument("--json", action="store_true", help="print rmg stats --balance --json's document")
    parser.add_argument("--fingerprints", action="store_true", help="also print each map's fingerprint")
    return parser.parse_args(argv)


def size_option(text: Optional[str]) -> object:
    if text is None:
        return None
    if "x" in text.lower():
        width, height = text.lower().split("x", 1)
        return int(width), int(height)
    return text


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask_stats: the 'distributed' package is missing (Debian: apt-get install python3-distributed)",
              file=sys.stderr)
        return 2
    options = {k: v for k, v in (("size", size_option(args.size)), ("water", args.water)) if v is not None}
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        # Processes, one thread each: a map is CPU work in C, and the library's contexts are
        # per thread anyway.
        cluster = LocalCluster(n_workers=args.local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        report = rmg.stats(args.template, args.runs, args.first_seed, client=client, game=args.game,
                           batch=args.batch, **options)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(f"{report.runs - report.failed}/{report.runs} maps generated on {report.workers} workers "
              f"in {report.seconds:.1f} s")
        for r in report.results:
            if not r["ok"]:
                print(f"seed {r['seed']} failed: {r['error']}")
        sys.stdout.write(report.balance_text())
        if args.fingerprints:
            for r in report.results:
                print(f"seed {r['seed']} {r['fingerprint']}")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
