"""Common lifetime of the objects a context owns (packs, maps): a C handle freed exactly once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Type, TypeVar

from .errors import invalid_argument

if TYPE_CHECKING:
    from .context import Context

H = TypeVar("H", bound="ContextObject")


class ContextObject:
    """A C object made through a Context; keeps the context alive and is closed with it.

    Subclasses set ``_what`` (for messages) and implement ``_destroy(handle)``. Instances are
    made with :meth:`_wrap`, never by calling the class.
    """

    _what = "object"
    _ctx: "Context"
    _ptr: Optional[int]

    def __init__(self) -> None:
        raise TypeError(f"a {self._what} is made through rmg.Context, not by calling the class")

    @classmethod
    def _wrap(cls: Type[H], context: "Context", handle: Optional[int], owned: bool = True) -> H:
        self = object.__new__(cls)
        self._ctx = context
        self._ptr = handle
        self._owned = owned
        self._init()
        if owned:
            context._adopt(self)
        return self

    def _init(self) -> None:
        """Per-class state set up by _wrap."""

    def _destroy(self, handle: int) -> None:
        raise NotImplementedError

    @property
    def handle(self) -> int:
        """The C pointer (raises once closed)."""
        if self._ptr is None:
            raise invalid_argument(f"the {self._what} is closed")
        return self._ptr

    @property
    def context(self) -> "Context":
        """The context it was made with."""
        return self._ctx

    def close(self) -> None:
        """Releases the C object (idempotent; also done by garbage collection and by closing
        the context)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None and self._owned:
            self._destroy(ptr)

    def __del__(self) -> None:
        # Safe in any order: the C object keeps its context's allocator and ruleset alive
        # (core.h, "Lifetimes"), and self._ctx keeps the allocator's trampoline alive. A child
        # the garbage collector finalizes after its Context (both in one cycle: the Context's
        # weak set of children is emptied first) is then freed rather than leaked.
        if getattr(self, "_ptr", None) is not None:
            self.close()

    def __enter__(self: H) -> H:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
