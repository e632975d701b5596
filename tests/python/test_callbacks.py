"""Host callbacks written in Python: RNG, allocator, log, progress; raising ones never crash."""

from __future__ import annotations

import gc
from typing import List, Optional, Tuple

import pytest

import rmg
from conftest import SMALL_YAML


def xorshift(state: int):
    """A host RNG (xorshift64*), the Python twin of examples/custom_rng.c."""
    s = [state]

    def draw() -> int:
        x = s[0]
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        s[0] = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    return draw


def test_host_rng_words_decide_the_map() -> None:
    a = rmg.Context(rng=xorshift(0x1234)).generate(size="S")
    b = rmg.Context(rng=xorshift(0x1234)).generate(size="S")
    c = rmg.Context(rng=xorshift(0x9876)).generate(size="S")
    assert a.fingerprint == b.fingerprint != c.fingerprint


def test_host_rng_values_are_taken_modulo_2_64() -> None:
    words = iter([2**64 + 5, 5])
    first = rmg.Context(rng=lambda: next(words)).generate(size="S").fingerprint
    assert rmg.Context(rng=lambda: 5).generate(size="S").fingerprint == first


def test_a_host_rng_map_records_the_seed_that_remakes_it() -> None:
    # Issue 29: the map's seed is the word drawn from the host RNG (it was 0), and that seed
    # alone makes the same map.
    m = rmg.Context(rng=lambda: 0xDEADBEEF12345).generate(size="S")
    assert m.seed == 0xDEADBEEF12345
    assert rmg.Context(seed=0xDEADBEEF12345).generate(size="S").fingerprint == m.fingerprint


def test_rng_that_raises_propagates_and_the_context_recovers() -> None:
    calls = []

    def flaky() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("entropy pool empty")
        return 42

    ctx = rmg.Context(rng=flaky)
    with pytest.raises(OSError, match="entropy pool empty") as info:
        ctx.generate(size="S")
    assert isinstance(info.value.__cause__, rmg.CancelledError)
    m = ctx.generate(size="S")  # the cancellation the trampoline requested was cleared
    assert m.width == 36


def test_rmg_rng_as_a_host_source_and_derive() -> None:
    r = rmg.Rng(7)
    assert r.next() != r.next()
    assert 3 <= r.range(3, 9) <= 9 and r.below(1) == 0
    assert rmg.Rng(7).state == rmg.Rng(7).state != rmg.Rng(8).state
    assert rmg.derive(1, "place", 0) != rmg.derive(1, "place", 1)
    assert rmg.Context(seed=4).stream("mine", 2).state == rmg.Context(seed=4).stream("mine", 2).state
    assert rmg.Context(seed=4).stream("mine", 2).state != rmg.Context(seed=4).stream("mine", 3).state
    m1 = rmg.Context(rng=rmg.Rng(5)).generate(size="S")
    m2 = rmg.Context(rng=rmg.Rng(5)).generate(size="S")
    assert m1.fingerprint == m2.fingerprint
    with pytest.raises(ValueError):
        r.range(5, 1)


def test_counting_allocator_sees_every_byte() -> None:
    alloc = rmg.CountingAllocator()
    ctx = rmg.Context(seed=7, allocator=alloc)
    m = ctx.generate(size="S")
    assert alloc.allocations > 0 and alloc.peak >= alloc.live > 0
    assert m.fingerprint == rmg.Context(seed=7).generate(size="S").fingerprint
    m.to_json()
    m.close()
    ctx.close()
    assert alloc.live == 0, alloc


class Recorder:
    """An allocator that logs (ptr, osize, nsize) calls and delegates to a counting one."""

    def __init__(self) -> None:
        self.inner = rmg.CountingAllocator()
        self.calls: List[Tuple[Optional[int], int, int]] = []

    def __call__(self, ptr: Optional[int], osize: int, nsize: int) -> Optional[int]:
        self.calls.append((ptr, osize, nsize))
        return self.inner(ptr, osize, nsize)


def test_allocator_receives_the_lua_alloc_shape() -> None:
    rec = Recorder()
    ctx = rmg.Context(allocator=rec)
    ctx.generate(size="S").close()
    ctx.close()
    assert any(p is None and o == 0 and n > 0 for p, o, n in rec.calls)  # allocate
    assert any(p is not None and n == 0 for p, o, n in rec.calls)  # free with its size
    assert rec.inner.live == 0


def test_allocator_failure_is_out_of_memory() -> None:
    alloc = rmg.CountingAllocator()
    ctx = rmg.Context(allocator=alloc)
    alloc.limit = alloc.live + 64 * 1024  # far below what a generation needs
    with pytest.raises(rmg.OutOfMemoryError) as info:
        ctx.generate(size="S")
    assert info.value.status == rmg.Status.ERR_NOMEM and alloc.failures > 0
    alloc.limit = None
    assert ctx.generate(size="S").width == 36
    ctx.close()
    assert alloc.live == 0


def test_allocator_that_raises_propagates_without_a_crash() -> None:
    alloc = rmg.CountingAllocator()
    state = {"armed": False}

    def allocator(ptr: Optional[int], osize: int, nsize: int) -> Optional[int]:
        if state["armed"] and nsize > 100_000:
            raise RuntimeError("host refuses big blocks")
        return alloc(ptr, osize, nsize)

    ctx = rmg.Context(allocator=allocator)
    state["armed"] = True
    with pytest.raises(RuntimeError, match="host refuses big blocks") as info:
        ctx.generate(size="M")
    assert isinstance(info.value.__cause__, rmg.OutOfMemoryError)
    state["armed"] = False
    ctx.generate(size="S").close()
    ctx.close()
    assert alloc.live == 0


def test_log_callback_receives_messages() -> None:
    messages: List[Tuple[rmg.LogLevel, str]] = []
    ctx = rmg.Context(log=lambda level, text: messages.append((level, text)), log_level="debug")
    pack = ctx.template_from_string(
        "version: 1\nname: tiny\ntemplates:\n  - name: T\n    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1}\n"
    )
    try:
        ctx.generate(pack, size="S", players=2, max_attempts=2)
    except rmg.Error:
        pass
    assert messages and all(isinstance(level, rmg.LogLevel) for level, _ in messages)
    assert all(isinstance(text, str) and text for _, text in messages)


def test_progress_can_cancel_and_a_raising_one_propagates() -> None:
    stages: List[str] = []

    def stop_at_connect(stage: str, fraction: float) -> bool:
        stages.append(stage)
        return stage == "connect"

    ctx = rmg.Context(progress=stop_at_connect)
    with pytest.raises(rmg.CancelledError):
        ctx.generate(size="S")
    in_order = [s for i, s in enumerate(stages) if i == 0 or stages[i - 1] != s]  # stages report inside too
    assert in_order[:3] == ["solve", "place", "connect"]

    def boom(stage: str, fraction: float) -> bool:
        raise LookupError("progress bar gone")

    with pytest.raises(LookupError, match="progress bar gone"):
        rmg.Context(progress=boom).generate(size="S")


def test_callbacks_stay_alive_with_their_context() -> None:
    ctx = rmg.Context(rng=xorshift(3), allocator=rmg.CountingAllocator())
    ctx.set_stage("finish", lambda view: view.run_builtin())
    gc.collect()  # nothing but the context holds the callables and their trampolines
    assert ctx.generate(size="S").width == 36


def test_log_callback_that_raises_during_a_successful_generation_leaks_nothing() -> None:
    alloc = rmg.CountingAllocator()

    def log(level: rmg.LogLevel, text: str) -> None:
        raise UnicodeError(f"terminal cannot show: {text}")

    ctx = rmg.Context(allocator=alloc, log=log, log_level="warning")
    # The middle zone asks for far more groups than it holds: the map always warns (TRS-06, no
    # room), the C call succeeds, the callback fails.
    crowded = rmg.Template.from_yaml(SMALL_YAML.replace("{min: 3000, max: 6000, density: 6}",
                                                        "{min: 3000, max: 6000, density: 400}"), context=ctx)
    with pytest.raises(UnicodeError, match="terminal cannot show"):
        ctx.generate(crowded, size="S")
    gc.collect()
    live_after_first = alloc.live
    with pytest.raises(UnicodeError):
        ctx.generate(crowded, size="S")
    gc.collect()
    assert alloc.live == live_after_first  # the map made by the successful call was destroyed
    crowded.close()
    ctx.close()
    assert alloc.live == 0


def test_a_cancel_stops_only_the_generation_under_way() -> None:
    # core.h "Cancel": each generation starts uncancelled, in C and here alike.
    stop = [True]

    def progress(stage: str, fraction: float) -> bool:
        return stop[0] and stage == "objects"

    ctx = rmg.Context(seed=4, progress=progress)
    with pytest.raises(rmg.CancelledError):
        ctx.generate(size="S")
    assert ctx.cancelled  # what stopped it stays readable until the next generation
    stop[0] = False
    m = ctx.generate(size="S")  # no reset needed, and none done by the bindings
    assert not ctx.cancelled
    ctx.cancel()  # between generations: cleared by the next one, which makes the same map
    assert ctx.cancelled
    assert ctx.generate(size="S").fingerprint == m.fingerprint
    stop[0] = True
    with pytest.raises(rmg.CancelledError):
        ctx.generate(size="S", best_of=3)  # every later candidate stops too
    stop[0] = False
    assert ctx.generate(size="S", best_of=3).width == 36


def test_a_map_finalized_after_its_context_is_freed_through_the_host_allocator() -> None:
    # What the garbage collector does with a map and its context in one cycle: the context's
    # weak set of children is emptied, the context closed, then the map finalized. The C map
    # keeps the context's allocator alive (core.h "Lifetimes"), so it is freed, not leaked.
    alloc = rmg.CountingAllocator()
    ctx = rmg.Context(allocator=alloc)
    m = ctx.generate(size="S")
    fingerprint = m.fingerprint
    ctx._children.discard(m)
    ctx.close()
    assert alloc.live > 0  # the map, and the context's block it keeps
    assert m.fingerprint == fingerprint
    del m
    gc.collect()
    assert alloc.live == 0
    assert alloc.allocations >= alloc.frees > 0
