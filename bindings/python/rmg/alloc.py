"""Allocators for Context(allocator=...): the lua_Alloc shape, in Python."""

from __future__ import annotations

import ctypes
from ctypes import c_size_t, c_void_p
from typing import Optional


class _Libc:
    """malloc-family functions of the process (the same ones ASan intercepts, when preloaded)."""

    def __init__(self) -> None:
        libc = ctypes.CDLL(None)
        self.realloc = libc.realloc
        self.realloc.argtypes, self.realloc.restype = [c_void_p, c_size_t], c_void_p
        self.free = libc.free
        self.free.argtypes, self.free.restype = [c_void_p], None


class CountingAllocator:
    """A counting allocator over the C library's realloc/free.

    Called as ``allocator(ptr, osize, nsize)``: ptr None allocates nsize bytes, nsize 0 frees
    ptr (osize is its size), otherwise resizes. Returns the address, or None for a failure
    (librmg then reports RMG_ERR_NOMEM). Tracks ``live`` bytes, their ``peak``, and the number
    of ``allocations`` (successful allocations and resizes) and ``frees``. With ``limit``,
    any request that would make ``live`` exceed it fails, to exercise out-of-memory paths.
    """

    def __init__(self, limit: Optional[int] = None) -> None:
        self._libc = _Libc()
        self.limit = limit
        self.live = 0
        self.peak = 0
        self.allocations = 0
        self.frees = 0
        self.failures = 0

    def __call__(self, ptr: Optional[int], osize: int, nsize: int) -> Optional[int]:
        old = osize if ptr else 0
        if nsize == 0:
            if ptr:
                self._libc.free(ptr)
                self.live -= old
                self.frees += 1
            return None
        if self.limit is not None and self.live - old + nsize > self.limit:
            self.failures += 1
            return None
        address = self._libc.realloc(ptr, nsize)
        if not address:
            self.failures += 1
            return None
        self.live += nsize - old
        self.allocations += 1
        self.peak = max(self.peak, self.live)
        return int(address)

    def __repr__(self) -> str:
        return (f"<CountingAllocator live={self.live} peak={self.peak} allocations={self.allocations} "
                f"frees={self.frees} failures={self.failures}>")
