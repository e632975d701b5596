"""ctypes mirrors of the public C structs and callback types.

Each Structure lists the fields of its C struct in declaration order with the same names, so
the layout matches the header exactly (tests/python/test_layout.py compares every offset with
the C compiler's when one is available). Enums are C ``int``. Every struct starts with
``struct_size``; :func:`sized` fills it in.
"""

from __future__ import annotations

import ctypes
import dataclasses
import struct
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_double,
    c_int,
    c_int64,
    c_size_t,
    c_uint,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any, Dict, Optional, Type, TypeVar

c_enum = c_int

# ---- callbacks (rmg/core.h, rmg/stage.h) ------------------------------------------------------

#: void *(*rmg_alloc_fn)(void *user, void *ptr, size_t osize, size_t nsize)
ALLOC_FN = CFUNCTYPE(c_void_p, c_void_p, c_void_p, c_size_t, c_size_t)
#: uint64_t (*rmg_rng_fn)(void *user)
RNG_FN = CFUNCTYPE(c_uint64, c_void_p)
#: void (*rmg_log_fn)(void *user, rmg_log_level level, const char *message)
LOG_FN = CFUNCTYPE(None, c_void_p, c_enum, c_char_p)
#: int (*rmg_progress_fn)(void *user, const char *stage, double fraction)
PROGRESS_FN = CFUNCTYPE(c_int, c_void_p, c_char_p, c_double)
#: rmg_status (*rmg_stage_run_fn)(void *user, rmg_stage_view *view)
STAGE_RUN_FN = CFUNCTYPE(c_enum, c_void_p, c_void_p)
#: void (*rmg_h3t_warn_fn)(void *user, const char *message)
H3T_WARN_FN = CFUNCTYPE(None, c_void_p, c_char_p)
#: void (*rmg_stage_destroy_fn)(void *user)
STAGE_DESTROY_FN = CFUNCTYPE(None, c_void_p)


# ---- core.h ---------------------------------------------------------------------------------


class ContextOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("alloc", ALLOC_FN),
        ("alloc_user", c_void_p),
        ("rng", RNG_FN),
        ("rng_user", c_void_p),
        ("seed", c_uint64),
        ("log", LOG_FN),
        ("log_user", c_void_p),
        ("log_level", c_enum),
        ("progress", PROGRESS_FN),
        ("progress_user", c_void_p),
    ]


class ErrorInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("status", c_enum),
        ("message", c_char_p),
        ("file", c_char_p),
        ("line", c_int),
        ("column", c_int),
        ("zone", c_int),
        ("connection", c_int),
        ("stage", c_char_p),
    ]


class Rng(Structure):
    _fields_ = [("s", c_uint64 * 4)]


# ---- template.h -------------------------------------------------------------------------------


class PackInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("name", c_char_p),
        ("description", c_char_p),
        ("tags", c_char_p),
        ("file", c_char_p),
        ("format", c_enum),
        ("mirror", c_int),
        ("max_battle_rounds", c_int),
        ("forbid_hiring_heroes", c_int),
        ("allowed_towns", c_uint32),
        ("template_count", c_size_t),
    ]


class TemplateInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("name", c_char_p),
        ("min_size", c_int),
        ("max_size", c_int),
        ("min_humans", c_int),
        ("max_humans", c_int),
        ("min_players", c_int),
        ("max_players", c_int),
        ("special_weeks", c_int),
        ("spell_research", c_int),
        ("anarchy", c_int),
        ("rock_masses", c_int),
        ("rock_radius", c_double),
        ("zone_sparseness", c_double),
        ("water_allowed", c_uint32),
        ("zone_count", c_size_t),
        ("connection_count", c_size_t),
        ("rule_count", c_size_t),
        ("line", c_int),
        ("column", c_int),
    ]


class Message(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("severity", c_enum),
        ("code", c_char_p),
        ("text", c_char_p),
        ("file", c_char_p),
        ("line", c_int),
        ("column", c_int),
        ("template_index", ctypes.c_long),
        ("zone", c_int),
        ("connection", c_int),
    ]


class H3tWriteOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("version", c_enum),
        ("warn", H3T_WARN_FN),
        ("warn_user", c_void_p),
    ]


# ---- map.h ------------------------------------------------------------------------------------


class GenerateOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("width", c_int),
        ("height", c_int),
        ("levels", c_int),
        ("players", c_int),
        ("humans", c_int),
        ("water", c_enum),
        ("monsters", c_enum),
        ("template_name", c_char_p),
        ("max_attempts", c_int),
        ("time_budget_ms", c_uint),
        ("towns_chosen", c_uint32),
        ("towns", c_int * 8),
    ]


class MapZoneInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("id", c_int),
        ("template_zone", c_int),
        ("kind", c_enum),
        ("level", c_int),
        ("owner", c_int),
        ("terrain", c_int),
        ("chosen_terrain", c_int),
        ("faction", c_int),
        ("monster_strength", c_enum),
        ("size_weight", c_double),
        ("tiles", c_size_t),
        ("center_x", c_int),
        ("center_y", c_int),
        ("town_count", c_size_t),
        ("main_town", c_uint32),
        ("treasure_requested", c_int * 3),
        ("treasure_placed", c_int * 3),
        ("treasure_exhausted", c_int * 3),
    ]


class MapSetupInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("max_battle_rounds", c_int),
        ("forbid_hiring_heroes", c_int),
        ("special_weeks", c_int),
        ("spell_research", c_int),
        ("gem_spell", c_char_p),
        ("interference_to_resistance", c_int),
        ("allowed_towns", c_uint32),
    ]


class MapConnectionInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("id", c_int),
        ("template_index", c_int),
        ("zone_a", c_int),
        ("zone_b", c_int),
        ("kind", c_enum),
        ("realized", c_enum),
        ("value", c_int64),
        ("road", c_int),
        ("tile_count", c_size_t),
        ("guard_count", c_size_t),
        ("why", c_char_p),
    ]


class MapObjectInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("id", c_uint32),
        ("key", c_char_p),
        ("kind", c_enum),
        ("x", c_int),
        ("y", c_int),
        ("z", c_int),
        ("zone", c_int),
        ("value", c_int64),
        ("group", c_uint32),
        ("guard", c_uint32),
        ("color", c_int),
        ("color_name", c_char_p),
        ("faction", c_int),
        ("owner", c_int),
        ("main", c_int),
        ("castle", c_int),
        ("creature", c_char_p),
        ("count", c_int),
        ("amount", c_int64),
        ("strength_total", c_double),
        ("guarded_value", c_int64),
        ("strength_index", c_int),
        ("guards_kind", c_enum),
        ("guards_id", c_uint32),
        ("disposition", c_int),
        ("join_percent", c_int),
        ("join_for_money", c_int),
        ("artifact", c_char_p),
        ("spell", c_char_p),
        ("hero", c_char_p),
        ("reward", c_char_p),
        ("spell_count", c_size_t),
        ("link", c_uint32),
    ]


class MapGroupInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("id", c_uint32),
        ("zone", c_int),
        ("range", c_int),
        ("target", c_int64),
        ("value", c_int64),
        ("object_count", c_size_t),
        ("guard", c_uint32),
    ]


# ---- stage.h ----------------------------------------------------------------------------------


class StagePlugin(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("api_version", c_uint),
        ("user", c_void_p),
        ("run", STAGE_RUN_FN),
        ("destroy", STAGE_DESTROY_FN),
    ]


# ---- guard.h ----------------------------------------------------------------------------------


class GuardRequest(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("value", c_int64),
        ("map_strength", c_enum),
        ("zone_strength", c_enum),
        ("connection", c_int),
        ("monster_factions", c_uint32),
        ("match_town", c_int),
        ("town_faction", c_int),
        ("mood", c_enum),
        ("mood_value", c_int),
        ("join_percent", c_int),
        ("join_only_for_money", c_int),
        ("stream", c_uint64),
    ]


class Guard(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("guarded", c_int),
        ("strength_index", c_int),
        ("total", c_double),
        ("value", c_int64),
        ("creature", c_int),
        ("creature_key", c_char_p),
        ("ai_value", c_int),
        ("mean", c_int),
        ("count", c_int),
        ("disposition", c_int),
        ("join_percent", c_int),
        ("join_for_money", c_int),
        ("choice", c_enum),
    ]


class BalanceOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("day_points", c_int),
    ]


class BestOfOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("candidates", c_int),
        ("threads", c_int),
        ("day_points", c_int),
    ]


class BestOfInfo(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("candidate", c_int),
        ("seed", c_uint64),
        ("score", c_double),
        ("candidates", c_int),
        ("failed", c_int),
    ]


#: C struct name of every Structure above that has one (the layout test compiles these).
C_NAMES = {
    ContextOptions: "rmg_context_options",
    ErrorInfo: "rmg_error_info",
    Rng: "rmg_rng",
    PackInfo: "rmg_pack_info",
    TemplateInfo: "rmg_template_info",
    Message: "rmg_message",
    H3tWriteOptions: "rmg_h3t_write_options",
    GenerateOptions: "rmg_generate_options",
    MapZoneInfo: "rmg_map_zone_info",
    MapSetupInfo: "rmg_map_setup_info",
    MapConnectionInfo: "rmg_map_connection_info",
    MapObjectInfo: "rmg_map_object_info",
    MapGroupInfo: "rmg_map_group_info",
    StagePlugin: "rmg_stage_plugin",
    GuardRequest: "rmg_guard_request",
    Guard: "rmg_guard",
    BalanceOptions: "rmg_balance_options",
    BestOfOptions: "rmg_best_of_options",
    BestOfInfo: "rmg_best_of_info",
}

S = TypeVar("S", bound=Structure)


def sized(cls: Type[S]) -> S:
    """A zeroed instance of a versioned struct with ``struct_size`` set."""
    value = cls()
    value.struct_size = ctypes.sizeof(cls)
    return value


def decode(raw: Optional[bytes]) -> Optional[str]:
    """A C string (bytes or NULL) as str; invalid UTF-8 is replaced rather than raised."""
    return None if raw is None else raw.decode("utf-8", "replace")


D = TypeVar("D")


def to_dataclass(cls: Type[D], info: Structure, enums: Optional[Dict[str, Any]] = None, **extra: Any) -> D:
    """A dataclass from a struct whose fields carry the same names: C strings decoded, fields
    named in ``enums`` turned into that enum type (bare int for values this version does not
    know), and ``extra`` values taking precedence."""
    values: Dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in extra:
            values[f.name] = extra[f.name]
            continue
        raw = getattr(info, f.name)
        enum_type = (enums or {}).get(f.name)
        if isinstance(raw, bytes):
            values[f.name] = decode(raw)
        elif enum_type is not None:
            try:
                values[f.name] = enum_type(raw)
            except ValueError:
                values[f.name] = raw
        else:
            values[f.name] = raw
    return cls(**values)


def _value_code(ctype: Any) -> str:
    """struct-module code of one C value of a ctypes simple type (pointers as integers)."""
    size = ctypes.sizeof(ctype)
    kind = getattr(ctype, "_type_", "P")
    if kind in ("d", "f"):
        return kind
    if kind in ("z", "Z", "P") or not isinstance(kind, str):  # char *, void *, function pointers
        return "Q" if size == 8 else "I"
    code = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
    return code if kind.islower() else code.upper()


def record_format(cls: Type[Structure]) -> struct.Struct:
    """A struct.Struct that reads instances of ``cls`` from raw memory: one value per field in
    declaration order (arrays give one value per element, C strings their address), padding
    skipped. Reading many structs this way (iter_unpack) is far faster than getattr on each."""
    parts, pos = ["="], 0
    for name, ctype in cls._fields_:  # type: ignore[attr-defined]
        field = getattr(cls, name)
        if field.offset > pos:
            parts.append(f"{field.offset - pos}x")
        length = getattr(ctype, "_length_", None)
        parts.append(f"{length}{_value_code(ctype._type_)}" if length else _value_code(ctype))
        pos = field.offset + field.size
    if ctypes.sizeof(cls) > pos:
        parts.append(f"{ctypes.sizeof(cls) - pos}x")
    fmt = struct.Struct("".join(parts))
    assert fmt.size == ctypes.sizeof(cls), (cls, fmt.format)
    return fmt


VOIDP = c_void_p
CHARPP = POINTER(c_char_p)
