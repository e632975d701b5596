"""Exceptions: every failing C call becomes an :class:`Error` carrying the library's message."""

from __future__ import annotations

from ctypes import c_char_p
from typing import Any, Dict, Optional, Sequence, Type

from .enums import Status, maybe


class Error(Exception):
    """A librmg call failed.

    ``status`` is the C status (:class:`rmg.Status`); ``message`` the library's text
    (``rmg_context_errmsg``); ``file``/``line``/``column`` locate input errors (0 when unknown),
    ``zone``/``connection`` name the template part (-1 when not about one) and ``stage`` the
    generation stage (None when not about one).
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        file: Optional[str] = None,
        line: int = 0,
        column: int = 0,
        zone: int = -1,
        connection: int = -1,
        stage: Optional[str] = None,
    ) -> None:
        self.status = maybe(Status, status)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.zone = zone
        self.connection = connection
        self.stage = stage
        super().__init__(message)

    def __str__(self) -> str:
        name = self.status.name if isinstance(self.status, Status) else str(self.status)
        return f"{self.message} [RMG_{name}]" if self.message else f"RMG_{name}"


class FileError(Error, OSError):
    """A file could not be read or written (RMG_ERR_IO); also an :class:`OSError`, whose
    ``filename`` is the file when the library names it."""

    def __init__(self, status: int, message: str, **where: Any) -> None:
        super().__init__(status, message, **where)
        self.filename = self.file


class InvalidArgumentError(Error, ValueError):
    """A bad argument (RMG_ERR_INVALID_ARG): an option out of range, a missing value; also a
    :class:`ValueError`."""


class NotFoundError(Error, KeyError):
    """Something named does not exist (RMG_ERR_NOT_FOUND): a template of a pack, a content key;
    also a :class:`KeyError`."""


class ParseError(Error, ValueError):
    """Malformed input (YAML, JSON, h3t); ``line`` and ``column`` say where. Also a
    :class:`ValueError`."""


class InvalidDataError(Error, ValueError):
    """Well-formed input that breaks the template model's rules; also a :class:`ValueError`."""


class UnsupportedError(Error):
    """What was asked is not supported (RMG_ERR_UNSUPPORTED), e.g. a map the chosen .h3m
    edition cannot hold; the message says why."""


class ImpossibleError(Error):
    """The template cannot produce a map for this setup (after the bounded retries)."""


class PluginError(Error):
    """A stage plugin failed and its policy was "fail"."""


class CancelledError(Error):
    """The operation was cancelled (by the host, a progress callback, or a raising callback)."""


class OutOfMemoryError(Error, MemoryError):
    """The allocator returned NULL."""


_BY_STATUS: Dict[int, Type[Error]] = {
    Status.ERR_IO: FileError,
    Status.ERR_INVALID_ARG: InvalidArgumentError,
    Status.ERR_NOT_FOUND: NotFoundError,
    Status.ERR_UNSUPPORTED: UnsupportedError,
    Status.ERR_PARSE: ParseError,
    Status.ERR_INVALID_DATA: InvalidDataError,
    Status.ERR_IMPOSSIBLE: ImpossibleError,
    Status.ERR_PLUGIN: PluginError,
    Status.ERR_CANCELLED: CancelledError,
    Status.ERR_NOMEM: OutOfMemoryError,
}


def did_you_mean(word: object, names: Sequence[str]) -> str:
    """"; did you mean 'x'?" when one of ``names`` is near ``word`` (the library's own
    rmg_name_suggest, the same as its messages and the rmg command use), else ""."""
    if not isinstance(word, str) or not names:
        return ""
    from . import _lib  # _lib imports this module

    arr = (c_char_p * len(names))(*[n.encode("utf-8") for n in names])
    k = int(_lib.lib().rmg_name_suggest(word.encode("utf-8", "replace"), arr, len(names)))
    return f"; did you mean {names[k]!r}?" if 0 <= k < len(names) else ""


def invalid_argument(message: str) -> InvalidArgumentError:
    """The exception of a bad argument found by the bindings themselves, before any C call: an
    :class:`InvalidArgumentError` (a ValueError), as the library's own RMG_ERR_INVALID_ARG."""
    return InvalidArgumentError(Status.ERR_INVALID_ARG, message)


def bad_name(what: str, value: object, names: Sequence[str]) -> InvalidArgumentError:
    """"unknown WHAT 'v'; did you mean 'x'? (one of 'a', 'b')" as an InvalidArgumentError."""
    listed = ", ".join(repr(n) for n in names)
    return invalid_argument(f"unknown {what} {value!r}{did_you_mean(value, list(names))} (one of {listed})")


def as_int(value: Any, what: str) -> int:
    """int(value) for an option that takes a whole number; anything else (a bool, "many", 2.5)
    raises InvalidArgumentError naming the option."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) and not hasattr(value, "__index__"):
        raise invalid_argument(f"{what}: expected a whole number, got {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise invalid_argument(f"{what}: expected a whole number, got {value!r}") from None


def error_class(status: int) -> Type[Error]:
    """The most specific Error subclass for a status."""
    return _BY_STATUS.get(status, Error)


class LibraryNotFoundError(ImportError):
    """librmg could not be found or loaded, or its version does not match the bindings."""
