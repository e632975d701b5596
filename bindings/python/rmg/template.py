"""Template packs: loading from files, YAML text or the built-in pack."""

from __future__ import annotations

import ctypes
import os
from ctypes import byref, c_size_t, c_void_p
from dataclasses import dataclass
from typing import Any, List, Optional, Union

from . import _structs as S
from ._handle import ContextObject
from .context import Context, PathLike
from .enums import H3tVersion, TemplateFormat, coerce, maybe


@dataclass(frozen=True)
class TemplateSummary:
    """One template of a pack (rmg_template_info). Attributes: ``index`` (its place in the pack),
    ``name``, ``min_size`` and ``max_size`` (the map-size codes it accepts: (side/36)^2, doubled
    with an underground; S=1, M=4, L=9, XL=16, H=25, XH=36, G=49), ``min_humans``,
    ``max_humans``, ``min_players``, ``max_players`` (0 = no bound), ``zone_count``,
    ``connection_count``, and ``line``/``column`` where it starts in the file."""

    index: int
    name: Optional[str]
    min_size: int
    max_size: int
    min_humans: int
    max_humans: int
    min_players: int
    max_players: int
    zone_count: int
    connection_count: int
    line: int
    column: int


@dataclass(frozen=True)
class TemplateMessage:
    """One finding of Template.validate() (rmg_message): ``severity`` is "error" or "warning",
    ``code`` a stable short id such as "dangling-zone", ``text`` the full located message
    ("file:line:col: error: ..."), ``file``, ``line`` and ``column`` where it is (0 when
    unknown), ``template_index`` (-1 when not about one template), ``zone`` (zone number) and
    ``connection`` (index), -1 when not about one."""

    severity: str
    code: Optional[str]
    text: Optional[str]
    file: Optional[str]
    line: int
    column: int
    template_index: int
    zone: int
    connection: int


class Template(ContextObject):
    """A template pack (rmg_pack): one or more templates a map is generated from.

    Made by :meth:`Context.load_template`, :meth:`from_yaml`, :meth:`from_file` or
    :func:`rmg.default_template`. Without an explicit context the pack gets a private one with
    default hooks; a pack can be used with any context.
    """

    _what = "template pack"

    # ---- constructors --------------------------------------------------------------------

    @classmethod
    def from_yaml(cls, text: Union[str, bytes], name: Optional[str] = None, context: Optional[Context] = None) -> "Template":
        """Parses a pack in the native YAML format. Errors raise :class:`rmg.ParseError` (or
        another :class:`rmg.Error`) whose ``line``/``column`` locate the problem; ``name`` is
        used as the file name in messages."""
        return (context or Context()).template_from_string(text, name or "<yaml>", TemplateFormat.YAML)

    @classmethod
    def from_file(
        cls, path: PathLike, format: Union[str, int, TemplateFormat] = "auto", context: Optional[Context] = None
    ) -> "Template":
        """Reads a pack file (format "auto" looks at the content)."""
        return (context or Context()).load_template(path, format)

    @classmethod
    def builtin(cls, context: Optional[Context] = None) -> "Template":
        """The built-in pack."""
        return (context or Context()).builtin_template()

    def _destroy(self, handle: int) -> None:
        self._ctx._lib.rmg_pack_destroy(handle)

    # ---- contents ------------------------------------------------------------------------

    def _info(self) -> S.PackInfo:
        info = S.sized(S.PackInfo)
        self._ctx.check(self._ctx._lib.rmg_pack_get(self.handle, byref(info)))
        return info

    @property
    def name(self) -> Optional[str]:
        """The pack's name."""
        return S.decode(self._info().name)

    @property
    def description(self) -> Optional[str]:
        """The pack's description (it becomes the map description, PCK-05)."""
        return S.decode(self._info().description)

    @property
    def format(self) -> Union[TemplateFormat, int]:
        """The format the pack was read from (rmg.TemplateFormat)."""
        return maybe(TemplateFormat, self._info().format)

    def __len__(self) -> int:
        return int(self._ctx._lib.rmg_pack_template_count(self.handle))

    @property
    def templates(self) -> List[TemplateSummary]:
        """Every template of the pack, in order."""
        result = []
        for index in range(len(self)):
            info = S.sized(S.TemplateInfo)
            self._ctx.check(self._ctx._lib.rmg_template_get(self.handle, index, byref(info)))
            result.append(S.to_dataclass(TemplateSummary, info, index=index))
        return result

    @property
    def template_names(self) -> List[Optional[str]]:
        """The name of every template of the pack, in order."""
        return [t.name for t in self.templates]

    def find(self, name: str) -> int:
        """Index of the template called name (rmg.Error NOT_FOUND if none)."""
        index = c_size_t()
        self._ctx.check(self._ctx._lib.rmg_pack_find_template(self.handle, name.encode("utf-8"), byref(index)))
        return index.value

    def validate(self) -> List[TemplateMessage]:
        """Checks the pack like a careful template editor (rmg_pack_validate): every error and
        warning found, [] for a clean pack."""
        lib = self._ctx._lib
        handle = c_void_p()
        self._ctx.check(lib.rmg_pack_validate(self.handle, byref(handle)))
        try:
            found = []
            for i in range(int(lib.rmg_validation_count(handle))):
                msg = S.sized(S.Message)
                self._ctx.check(lib.rmg_validation_get(handle, i, byref(msg)))
                severity = "error" if msg.severity == 0 else "warning"
                found.append(S.to_dataclass(TemplateMessage, msg, severity=severity))
            return found
        finally:
            lib.rmg_validation_destroy(handle)

    @property
    def warnings(self) -> List[str]:
        """Warnings collected while loading (settings kept but not acted on, repairs...)."""
        lib = self._ctx._lib
        return [S.decode(lib.rmg_pack_warning(self.handle, i)) or "" for i in range(lib.rmg_pack_warning_count(self.handle))]

    def to_yaml(self) -> str:
        """The pack in the native YAML format."""
        return self._ctx.take_string(self._ctx._lib.rmg_pack_to_yaml, self.handle)

    def _h3t_options(self, version: Union[str, int, H3tVersion], warnings: Optional[List[str]]) -> Any:
        opts = S.H3tWriteOptions()
        self._ctx._lib.rmg_h3t_write_options_init(byref(opts))
        if isinstance(version, str) and version.strip() in ("1.7", "1.8"):
            version = "V" + version.strip().replace(".", "_")
        opts.version = coerce(H3tVersion, version, "h3t version")
        if warnings is not None:
            opts.warn = S.H3T_WARN_FN(lambda _user, message: warnings.append(S.decode(message) or ""))
        return opts

    def to_h3t(self, version: Union[str, int, H3tVersion] = "auto", warnings: Optional[List[str]] = None) -> bytes:
        """The pack as a HotA .h3t file (bytes in the code page of its text): ``version`` "auto"
        (the layout of the h3t file it was read from, else 1.8), "1.7" or "1.8". What the file
        cannot hold is left out; each such message is appended to ``warnings`` when given."""
        opts = self._h3t_options(version, warnings)
        out, length = c_void_p(), c_size_t()
        status = self._ctx._lib.rmg_pack_to_h3t(self.handle, byref(opts), byref(out), byref(length))
        try:
            self._ctx.check(status)
            return ctypes.string_at(out.value, length.value) if out.value else b""
        finally:
            self._ctx.free(out.value)

    def save_h3t(self, path: PathLike, version: Union[str, int, H3tVersion] = "auto",
                 warnings: Optional[List[str]] = None) -> None:
        """Writes the pack as a HotA .h3t file (see :meth:`to_h3t`); raises rmg.FileError when it cannot."""
        opts = self._h3t_options(version, warnings)
        self._ctx.check(self._ctx._lib.rmg_pack_save_h3t(self.handle, byref(opts), os.fsencode(path)))

    def save_yaml(self, path: PathLike) -> None:
        """Writes the pack in the native YAML format (raises rmg.FileError when it cannot)."""
        self._ctx.check(self._ctx._lib.rmg_pack_save_yaml(self.handle, os.fsencode(path)))

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<rmg.Template closed>"
        return f"<rmg.Template {self.name!r}: {len(self)} template(s)>"


def default_template(context: Optional[Context] = None) -> Template:
    """The library's built-in template pack (see docs/template-format.md)."""
    return Template.builtin(context)
