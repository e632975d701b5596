"""Memory stays flat over many generations of a small map (issue 11 acceptance).

Three measures over the same loop, after a warm-up cycle:
- the C side: a counting allocator sees every byte librmg allocates; what is live once each
  map is closed must not grow (exactly: the context's caches are built during the warm-up);
- the Python side: tracemalloc's current size (ctypes objects, dataclasses, keepalives);
- the process: resident set size from /proc/self/statm. Skipped under AddressSanitizer, whose
  quarantine keeps freed blocks resident on purpose (the two measures above still run).

Iterations: 1000; under ASan 300, since an instrumented generation is about twice as slow and
the whole test must stay well under a minute there.
"""

from __future__ import annotations

import gc
import os
import time
import tracemalloc

import rmg
from conftest import under_asan

CYCLE = 20  # seeds repeat with this period, so every measured cycle does the same work


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def python_heap() -> int:
    """Bytes Python has allocated and not freed; the full collection also empties the free
    lists (tuples, floats...), which tracemalloc would otherwise count as live."""
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def one_generation(ctx: rmg.Context, pack: rmg.Template, i: int) -> None:
    m = ctx.generate(pack, size="S", seed=i % CYCLE)
    assert m.width == 36
    m.zones, m.layer("zone"), m.warnings  # touch the accessors that build Python objects
    m.close()


def test_memory_is_flat_over_many_generations() -> None:
    iterations = 300 if under_asan() else 1000
    alloc = rmg.CountingAllocator()
    ctx = rmg.Context(allocator=alloc)
    pack = ctx.builtin_template()
    for i in range(CYCLE):
        one_generation(ctx, pack, i)
    c_live, c_peak = alloc.live, alloc.peak
    tracemalloc.start()
    py_start = python_heap()
    rss_start = rss_bytes()
    started = time.monotonic()
    for i in range(CYCLE, CYCLE + iterations):
        one_generation(ctx, pack, i)
        assert alloc.live == c_live, f"generation {i}: {alloc.live - c_live} bytes of librmg memory not freed"
    elapsed = time.monotonic() - started
    py_growth = python_heap() - py_start
    tracemalloc.stop()
    rss_growth = rss_bytes() - rss_start
    print(
        f"\n{iterations} generations in {elapsed:.1f} s: librmg live {c_live} B (peak {alloc.peak} B), "
        f"Python heap {py_growth:+d} B, RSS {rss_growth / 1024:+.0f} KiB"
    )
    assert alloc.peak == c_peak  # the same seeds again need no more memory at their peak
    assert py_growth < 64 * 1024, f"Python heap grew by {py_growth} bytes"
    if not under_asan():
        assert rss_growth < 8 * 1024 * 1024, f"RSS grew by {rss_growth} bytes"
    pack.close()
    ctx.close()
    assert alloc.live == 0
