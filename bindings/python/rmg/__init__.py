"""Python bindings of librmg, the random map generator for Heroes-III-like games.

Pure ctypes: nothing is compiled at install time. The shared library is found through
``$RMG_LIBRARY``, the installed library, or a ``build/*/librmg.so`` of the source checkout
(see :mod:`rmg._lib`), and refused with a clear message when its version does not match.

>>> import rmg
>>> ctx = rmg.Context(seed=1)
>>> m = ctx.generate(rmg.default_template(), size="S")
>>> m.width, m.height
(36, 36)
"""

from . import _lib
from ._version import EXPECTED_ABI, __version__
from .alloc import CountingAllocator
from .context import Context
from .enums import (
    MAP_SIZES,
    ConnectionType,
    ContentKind,
    Faction,
    GuardChoice,
    GuardTarget,
    H3tVersion,
    Layer,
    LogLevel,
    MapMonsters,
    MonsterStrength,
    Mood,
    ObjectKind,
    PluginPolicy,
    Realization,
    River,
    Road,
    Stage,
    Status,
    TemplateFormat,
    Terrain,
    Water,
    ZoneKind,
)
from .errors import (
    CancelledError,
    Error,
    FileError,
    ImpossibleError,
    InvalidArgumentError,
    InvalidDataError,
    LibraryNotFoundError,
    NotFoundError,
    OutOfMemoryError,
    ParseError,
    PluginError,
    UnsupportedError,
)
from .guard import GuardResult, GuardStrength, guard_strength
from .map import Connection, Group, Map, MapObject, Zone
from .rng import Rng, derive
from .stage import StageView
from .stats import StatsReport, stats
from .template import Template, TemplateMessage, TemplateSummary, default_template

_lib.lib()  # load and version-check at import: a mismatch fails here, with the reason


def library_path() -> str:
    """Path (or soname) of the loaded librmg."""
    return _lib.path()


def library_version() -> str:
    """"MAJOR.MINOR.PATCH" of the loaded librmg."""
    return (_lib.lib().rmg_version_string() or b"").decode()


__all__ = [
    "CancelledError",
    "Connection",
    "ConnectionType",
    "ContentKind",
    "Context",
    "CountingAllocator",
    "EXPECTED_ABI",
    "Error",
    "Faction",
    "FileError",
    "Group",
    "GuardChoice",
    "GuardResult",
    "GuardStrength",
    "GuardTarget",
    "H3tVersion",
    "ImpossibleError",
    "InvalidArgumentError",
    "InvalidDataError",
    "Layer",
    "LibraryNotFoundError",
    "LogLevel",
    "MAP_SIZES",
    "Map",
    "MapMonsters",
    "MapObject",
    "MonsterStrength",
    "Mood",
    "NotFoundError",
    "ObjectKind",
    "OutOfMemoryError",
    "ParseError",
    "PluginError",
    "PluginPolicy",
    "Realization",
    "River",
    "Rng",
    "StatsReport",
    "Road",
    "Stage",
    "StageView",
    "Status",
    "Template",
    "TemplateFormat",
    "TemplateMessage",
    "TemplateSummary",
    "Terrain",
    "UnsupportedError",
    "Water",
    "Zone",
    "ZoneKind",
    "default_template",
    "derive",
    "guard_strength",
    "stats",
    "library_path",
    "library_version",
    "__version__",
]
