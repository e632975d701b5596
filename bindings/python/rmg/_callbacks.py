"""Trampolines: C callbacks that call Python and never let an exception cross into C.

A raising Python callback is caught in the trampoline, stored on the context's
:class:`CallbackState`, and answered with an error value C understands (NULL from the
allocator, an error status from a stage, a cancellation from the RNG/progress hooks). The
context re-raises the stored exception once the C call that triggered it has returned.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, List, Optional

from . import _structs as S
from .enums import LogLevel, maybe

MASK64 = (1 << 64) - 1

Allocator = Callable[[Optional[int], int, int], Optional[int]]
RngSource = Callable[[], int]
LogHandler = Callable[[LogLevel, str], None]
ProgressHandler = Callable[[str, float], Any]


class CallbackState:
    """Exceptions raised by callbacks while C runs, and the CFUNCTYPE objects C may call.

    C keeps raw function pointers, so every CFUNCTYPE object lives here until the context is
    destroyed (``keepalive``). It holds no reference to the Python Context (no cycle).
    """

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        self.ctx: Optional[int] = None  # rmg_context*, set once created
        self.pending: List[BaseException] = []
        self.keepalive: List[Any] = []

    def store(self, exc: BaseException, cancel: bool = False) -> None:
        """Remember exc; with cancel, ask the running C operation to stop."""
        self.pending.append(exc)
        if cancel and self.ctx:
            self.lib.rmg_context_cancel(self.ctx)  # the next generation starts uncancelled

    def take(self) -> Optional[BaseException]:
        """The first stored exception (later ones are chained to it as context), clearing all."""
        if not self.pending:
            return None
        first, rest = self.pending[0], self.pending[1:]
        self.pending = []
        for later in rest:
            if later is not first and first.__context__ is None:
                first.__context__ = later
        return first

    def keep(self, obj: Any) -> Any:
        self.keepalive.append(obj)
        return obj


def allocator_trampoline(state: CallbackState, allocator: Allocator) -> Any:
    """rmg_alloc_fn calling allocator(ptr or None, osize, nsize) -> address or None."""

    def alloc(_user: Optional[int], ptr: Optional[int], osize: int, nsize: int) -> Optional[int]:
        try:
            result = allocator(ptr or None, osize, nsize)
            return int(result) if result else None
        except BaseException as exc:  # noqa: BLE001 - nothing may cross into C
            state.store(exc)
            return None

    return state.keep(S.ALLOC_FN(alloc))


def rng_trampoline(state: CallbackState, source: RngSource) -> Any:
    """rmg_rng_fn returning source() masked to 64 bits; a raising source cancels the operation."""

    def rng(_user: Optional[int]) -> int:
        try:
            return int(source()) & MASK64
        except BaseException as exc:  # noqa: BLE001
            state.store(exc, cancel=True)
            return 0

    return state.keep(S.RNG_FN(rng))


def log_trampoline(state: CallbackState, handler: LogHandler) -> Any:
    """rmg_log_fn calling handler(level, message)."""

    def log(_user: Optional[int], level: int, message: Optional[bytes]) -> None:
        try:
            handler(maybe(LogLevel, level), S.decode(message) or "")
        except BaseException as exc:  # noqa: BLE001
            state.store(exc)

    return state.keep(S.LOG_FN(log))


def progress_trampoline(state: CallbackState, handler: ProgressHandler) -> Any:
    """rmg_progress_fn: handler(stage, fraction) returning true cancels; raising cancels too."""

    def progress(_user: Optional[int], stage: Optional[bytes], fraction: float) -> int:
        try:
            return 1 if handler(S.decode(stage) or "", fraction) else 0
        except BaseException as exc:  # noqa: BLE001
            state.store(exc)
            return 1

    return state.keep(S.PROGRESS_FN(progress))
