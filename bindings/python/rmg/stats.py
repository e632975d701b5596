"""Many maps: the statistics and balance summaries of ``rmg stats --balance``, on this machine or
spread over the workers of a Dask cluster (``stats(..., client=)``).

Each seed's map depends on nothing but the template, the options and the seed (the library is
deterministic across processes and machines), so the seeds can be generated anywhere and
gathered: the fingerprints, balance scores and summaries equal those of ``rmg stats`` for the
same seeds. Workers need the bindings and the library (``import rmg`` must work there); the
template travels as bytes, so the workers need no shared folder.
"""

from __future__ import annotations

import math
import os
import struct
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from .errors import Error, as_int, invalid_argument

TemplateSpec = Union[None, str, "os.PathLike[str]", bytes]


def _f32(x: float) -> float:
    """x rounded to a C float: ``rmg stats`` keeps each value and spread as one."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def run_seeds(source: Optional[bytes], name: str, seeds: Sequence[int], options: Dict[str, Any],
              balance: bool = True, game: str = "hota") -> List[Dict[str, Any]]:
    """Generates the map of each seed (one context, the pack read once) and returns a plain,
    picklable record per seed: ``seed``, ``ok``, ``fingerprint`` (16 hex digits), ``warnings``
    (their count), ``ms``, ``error`` (the library's message when ``ok`` is false) and, with
    ``balance``, the map's :meth:`rmg.Map.balance_measures`. ``source`` is the template pack's
    bytes (None: the built-in pack), ``name`` its file name (as ``rmg stats`` was given it).
    This is what a Dask worker runs."""
    from .context import Context

    out: List[Dict[str, Any]] = []
    with Context(game=game) as ctx:
        pack = ctx.builtin_template() if source is None else ctx.template_from_string(source, name=name,
                                                                                     format="auto")
        for seed in seeds:
            row: Dict[str, Any] = {"seed": int(seed), "ok": False, "fingerprint": "0" * 16, "warnings": 0,
                                   "ms": 0.0, "error": None, "balance": None}
            started = time.perf_counter()
            try:
                m = ctx.generate(pack, seed=int(seed), **options)
            except Error as err:
                row["ms"] = (time.perf_counter() - started) * 1000
                row["error"] = err.message
                out.append(row)
                continue
            row["ms"] = (time.perf_counter() - started) * 1000
            row.update(ok=True, fingerprint=m.fingerprint, warnings=len(m.warnings))
            if balance:
                try:
                    row["balance"] = m.balance_measures()
                except Error:
                    row["balance"] = None
            m.close()
            out.append(row)
    return out


def _quantile(values: List[float], q: float) -> float:
    """The q-quantile by nearest rank, as ``rmg stats`` computes it."""
    v = sorted(values)
    k = int(q * (len(v) - 1) + 0.5)
    return v[min(k, len(v) - 1)]


def _distribution(values: List[float], width: int, decimals: int) -> str:
    if not values:
        return "".join(f" {'-':>{width}}" for _ in range(3))
    return "".join(f" {_quantile(values, q):{width}.{decimals}f}" for q in (0.1, 0.5, 0.9))


@dataclass
class StatsReport:
    """What :func:`stats` gathered: ``results``, one record per seed in seed order (see
    :func:`run_seeds`), ``first_seed``, the ``workers`` that ran them (1 without a cluster) and
    the wall-clock ``seconds`` it took."""

    results: List[Dict[str, Any]]
    first_seed: int
    workers: int = 1
    seconds: float = 0.0

    @property
    def runs(self) -> int:
        """How many seeds were run."""
        return len(self.results)

    @property
    def failed(self) -> int:
        """How many of them gave no map."""
        return sum(1 for r in self.results if not r["ok"])

    @property
    def fingerprints(self) -> Dict[int, str]:
        """Seed to fingerprint of every map made."""
        return {r["seed"]: r["fingerprint"] for r in self.results if r["ok"]}

    def to_json(self) -> Dict[str, Any]:
        """The document of ``rmg stats --json [--balance]``: ``runs`` and per seed ``seed`` (a
        string), ``ok``, ``fingerprint``, ``ms``, ``warnings`` and ``balance`` (``score`` and each
        measure's ``spread``, rounded as the command prints them)."""
        rows = []
        for r in self.results:
            row: Dict[str, Any] = {"seed": str(r["seed"]), "ok": r["ok"], "fingerprint": r["fingerprint"],
                                   "ms": round(r["ms"], 3), "warnings": r["warnings"]}
            b = r.get("balance")
            if r["ok"] and b is not None:
                row["balance"] = {"score": round(b["score"], 2),
                                  "spread": {m["name"]: round(_f32(m["spread"]), 4) for m in b["measures"]}}
            rows.append(row)
        return {"runs": self.runs, "results": rows}

    def balance_text(self) -> str:
        """The balance part of ``rmg stats --balance``'s text, to the character: the p10,
        median and p90 of the score, of each measure's values over every player of every map
        and of its spread, then the five fairest and least fair seeds."""
        done = [r for r in self.results if r["ok"] and r.get("balance") is not None]
        if not done:
            return "balance: no report\n"
        first = done[0]["balance"]["measures"]
        lines = [f"balance over {len(done)} maps (docs/balance.md): p10, median, p90"]
        lines.append(f"  {'score':<18}" + _distribution([r["balance"]["score"] for r in done], 10, 1))
        values_head, spread_head = "players' values", "spread between players"
        lines.append(f"  {'measure':<18} {values_head:>32}   {spread_head:>26}")
        for k, m in enumerate(first):
            values = [_f32(v) for r in done for v in r["balance"]["measures"][k]["values"][:8] if v is not None]
            spreads = [_f32(r["balance"]["measures"][k]["spread"]) for r in done]
            lines.append(f"  {m['name']:<18}" + _distribution(values, 10, 0) + "  " + _distribution(spreads, 8, 3))
        lines.append(self._seeds(done, True))
        lines.append(self._seeds(done, False))
        return "\n".join(lines) + "\n"

    def _seeds(self, done: List[Dict[str, Any]], fairest: bool) -> str:
        # The command's selection of the five (a selection sort: among equal scores the order its
        # swaps leave), so the lines match it to the character.
        count = min(self.runs, 5)
        order = list(done)
        for k in range(min(count, len(order))):
            best = k
            for j in range(k + 1, len(order)):
                a, b = order[j]["balance"]["score"], order[best]["balance"]["score"]
                if (a > b) if fairest else (a < b):
                    best = j
            order[k], order[best] = order[best], order[k]
        picked = "".join(f" {r['seed']} ({r['balance']['score']:.1f})" for r in order[:count])
        return f"{'fairest' if fairest else 'least fair'} seeds:{picked}"


def _template_bytes(template: TemplateSpec) -> "tuple[Optional[bytes], str]":
    if template is None:
        return None, "builtin"
    if isinstance(template, bytes):
        return template, "template"
    path = os.fspath(template)
    with open(path, "rb") as f:
        return f.read(), path


def stats(template: TemplateSpec = None, runs: int = 20, first_seed: int = 1, *, client: Any = None,
          balance: bool = True, game: str = "hota", batch: int = 0, **options: Any) -> StatsReport:
    """Generates the maps of seeds ``first_seed`` .. ``first_seed + runs - 1`` and gathers, per
    seed, what ``rmg stats --balance`` does (:class:`StatsReport`; ``balance_text()`` prints the
    command's balance summary, ``to_json()`` its JSON).

    ``template`` is a pack file's path, its bytes, or None for the built-in pack; ``options``
    are :meth:`rmg.Context.generate`'s (``size="S"``, ``water=``, ``towns=``, ...); ``game``
    "hota" or "sod". With ``client`` (a ``distributed.Client``) the seeds go in batches of
    ``batch`` (0: about four batches per worker) to the cluster's workers, each of which runs
    :func:`run_seeds`; without, they run here, one after the other.
    """
    runs = as_int(runs, "runs")
    first_seed = as_int(first_seed, "first_seed")
    if runs < 1:
        raise invalid_argument(f"runs: expected at least 1, got {runs}")
    source, name = _template_bytes(template)
    seeds = list(range(first_seed, first_seed + runs))
    started = time.perf_counter()
    if client is None:
        results = run_seeds(source, name, seeds, options, balance, game)
        workers = 1
    else:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = as_int(batch, "batch") or max(1, math.ceil(runs / (4 * workers)))
        chunks = [seeds[i:i + size] for i in range(0, runs, size)]
        # The pack's bytes go to the cluster once; every batch refers to them.
        shipped = client.scatter(source, broadcast=True) if source is not None else None
        futures = client.map(run_seeds, [shipped] * len(chunks), [name] * len(chunks), chunks,
                             [options] * len(chunks), [balance] * len(chunks), [game] * len(chunks), pure=False)
        results = [row for part in client.gather(futures) for row in part]
    results.sort(key=lambda r: r["seed"])
    return StatsReport(results, first_seed, workers, time.perf_counter() - started)
