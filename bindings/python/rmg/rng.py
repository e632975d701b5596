"""rmg_rng streams: the library's xoshiro256** generator, seedable and derivable by name."""

from __future__ import annotations

import ctypes
from typing import Any, Tuple

from . import _lib
from . import _structs as S
from .errors import invalid_argument

MASK64 = (1 << 64) - 1


class Rng:
    """An rmg_rng stream. ``Rng(seed)`` owns its state; a stage's ``view.rng`` borrows the
    plugin's stream (valid while the stage runs) so draws advance the library's state."""

    def __init__(self, seed: int = 0) -> None:
        self._lib = _lib.lib()
        self._owned = S.Rng()
        self._ptr: Any = ctypes.pointer(self._owned)
        self._lib.rmg_rng_seed(self._ptr, int(seed) & MASK64)

    @classmethod
    def _borrow(cls, pointer: Any) -> "Rng":
        self = object.__new__(cls)
        self._lib = _lib.lib()
        self._owned = None
        self._ptr = pointer
        return self

    def _invalidate(self) -> None:
        self._ptr = None

    @property
    def pointer(self) -> Any:
        """The rmg_rng* (raises once a borrowed stream's stage has returned)."""
        if self._ptr is None:
            raise invalid_argument("this stream belonged to a stage that has returned")
        return self._ptr

    @property
    def state(self) -> Tuple[int, ...]:
        """The four 64-bit words of the state."""
        return tuple(self.pointer.contents.s)

    def next(self) -> int:
        """A uniformly random 64-bit word."""
        return int(self._lib.rmg_rng_next(self.pointer))

    def range(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi] (inclusive) without modulo bias."""
        if lo > hi:
            raise invalid_argument(f"empty range [{lo}, {hi}]")
        return int(self._lib.rmg_rng_range(self.pointer, lo, hi))

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (0 when n == 0)."""
        return int(self._lib.rmg_rng_below(self.pointer, n))

    def __call__(self) -> int:
        """Same as next(): an Rng can serve as a Context's ``rng`` source."""
        return self.next()


def derive(parent: int, label: str, index: int = 0) -> int:
    """rmg_rng_derive: seed of the sub-stream (parent, label, index)."""
    return int(_lib.lib().rmg_rng_derive(int(parent) & MASK64, label.encode("utf-8"), int(index) & MASK64))


