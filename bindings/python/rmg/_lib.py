"""Finding and loading librmg, checking its version, and declaring its functions.

Search order (the first that exists is used):

1. ``$RMG_LIBRARY``: a path to ``librmg.so`` (or to the directory holding it). When set, it is
   the only candidate, so a wrong path fails loudly instead of picking up another library.
2. The installed library (``ctypes.util.find_library("rmg")``).
3. A build tree around the package: ``build/*/librmg.so*`` in the source checkout that holds
   ``bindings/python/rmg`` (``build/release`` first, then the most recently built).

A library whose MAJOR.MINOR differs from the bindings' is refused with a message naming both.
Libraries built with AddressSanitizer can only be loaded when the ASan runtime is already in
the process (``LD_PRELOAD``); such a candidate is skipped (or, for ``$RMG_LIBRARY``, refused
with the exact command to use) instead of letting the runtime abort the interpreter.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from ctypes import POINTER, c_char_p, c_double, c_int, c_int64, c_long, c_size_t, c_uint, c_uint32, c_uint64, c_void_p
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

from . import _structs as S
from ._version import EXPECTED_ABI
from .errors import LibraryNotFoundError

_p = c_void_p  # opaque handles: rmg_context*, rmg_pack*, rmg_map*, rmg_stage_view*
_pp = POINTER(c_void_p)
_status = c_int
_xyz = [_p, c_int, c_int, c_int]

#: Every C function the bindings call: (name, argtypes, restype). Registered at load time; a
#: library missing one of them is refused.
FUNCTIONS: Sequence[Tuple[str, List[Any], Any]] = (
    # core.h
    ("rmg_version", [], c_uint),
    ("rmg_version_string", [], c_char_p),
    ("rmg_status_name", [c_int], c_char_p),
    ("rmg_name_suggest", [c_char_p, POINTER(c_char_p), c_size_t], c_int),
    ("rmg_context_options_init", [POINTER(S.ContextOptions)], None),
    ("rmg_context_create", [_pp, POINTER(S.ContextOptions)], _status),
    ("rmg_context_destroy", [_p], None),
    ("rmg_context_set_seed", [_p, c_uint64], _status),
    ("rmg_context_seed", [_p], c_uint64),
    ("rmg_context_cancel", [_p], None),
    ("rmg_context_reset_cancel", [_p], None),
    ("rmg_context_cancelled", [_p], c_int),
    ("rmg_context_errmsg", [_p], c_char_p),
    ("rmg_context_errcode", [_p], _status),
    ("rmg_context_error_get", [_p, POINTER(S.ErrorInfo)], _status),
    ("rmg_context_clear_error", [_p], None),
    ("rmg_rng_seed", [POINTER(S.Rng), c_uint64], None),
    ("rmg_rng_next", [POINTER(S.Rng)], c_uint64),
    ("rmg_rng_range", [POINTER(S.Rng), c_int64, c_int64], c_int64),
    ("rmg_rng_below", [POINTER(S.Rng), c_uint64], c_uint64),
    ("rmg_rng_derive", [c_uint64, c_char_p, c_uint64], c_uint64),
    ("rmg_context_stream", [_p, c_char_p, c_uint64, POINTER(S.Rng)], _status),
    ("rmg_malloc", [_p, c_size_t], c_void_p),
    ("rmg_free", [_p, c_void_p], None),
    # template.h
    ("rmg_pack_load", [_p, c_char_p, c_int, _pp], _status),
    ("rmg_pack_load_string", [_p, c_char_p, c_size_t, c_char_p, c_int, _pp], _status),
    ("rmg_pack_builtin", [_p, _pp], _status),
    ("rmg_pack_destroy", [_p], None),
    ("rmg_pack_to_yaml", [_p, _pp, POINTER(c_size_t)], _status),
    ("rmg_pack_save_yaml", [_p, c_char_p], _status),
    ("rmg_h3t_write_options_init", [POINTER(S.H3tWriteOptions)], None),
    ("rmg_pack_to_h3t", [_p, POINTER(S.H3tWriteOptions), _pp, POINTER(c_size_t)], _status),
    ("rmg_pack_save_h3t", [_p, POINTER(S.H3tWriteOptions), c_char_p], _status),
    ("rmg_pack_warning_count", [_p], c_size_t),
    ("rmg_pack_warning", [_p, c_size_t], c_char_p),
    ("rmg_pack_get", [_p, POINTER(S.PackInfo)], _status),
    ("rmg_pack_template_count", [_p], c_size_t),
    ("rmg_pack_find_template", [_p, c_char_p, POINTER(c_size_t)], _status),
    ("rmg_template_get", [_p, c_size_t, POINTER(S.TemplateInfo)], _status),
    ("rmg_pack_validate", [_p, _pp], _status),
    ("rmg_validation_count", [_p], c_size_t),
    ("rmg_validation_get", [_p, c_size_t, POINTER(S.Message)], _status),
    ("rmg_validation_destroy", [_p], None),
    # map.h
    ("rmg_generate_options_init", [POINTER(S.GenerateOptions)], None),
    ("rmg_generate", [_p, _p, POINTER(S.GenerateOptions), _pp], _status),
    ("rmg_map_destroy", [_p], None),
    ("rmg_map_width", [_p], c_int),
    ("rmg_map_height", [_p], c_int),
    ("rmg_map_levels", [_p], c_int),
    ("rmg_map_seed", [_p], c_uint64),
    ("rmg_map_fingerprint", [_p], c_uint64),
    ("rmg_map_pack_name", [_p], c_char_p),
    ("rmg_map_template_name", [_p], c_char_p),
    ("rmg_map_description", [_p], c_char_p),
    ("rmg_map_options_get", [_p, POINTER(S.GenerateOptions)], _status),
    ("rmg_map_warning_count", [_p], c_size_t),
    ("rmg_map_warning", [_p, c_size_t], c_char_p),
    ("rmg_map_attempts", [_p], c_int),
    ("rmg_map_stage_ms", [_p, c_int], c_double),
    ("rmg_map_layer_size", [_p, c_int], c_size_t),
    ("rmg_map_copy_layer", [_p, c_int, c_void_p, c_size_t], _status),
    ("rmg_map_terrain", _xyz, c_int),
    ("rmg_map_tile_zone", _xyz, c_int),
    ("rmg_map_passable", _xyz, c_int),
    ("rmg_map_road", _xyz, c_int),
    ("rmg_map_river", _xyz, c_int),
    ("rmg_map_tile_object", _xyz, c_long),
    ("rmg_map_zone_count", [_p], c_size_t),
    ("rmg_map_zone_get", [_p, c_size_t, POINTER(S.MapZoneInfo)], _status),
    ("rmg_map_zone_town", [_p, c_size_t, c_size_t], c_uint32),
    ("rmg_map_connection_count", [_p], c_size_t),
    ("rmg_map_connection_get", [_p, c_size_t, POINTER(S.MapConnectionInfo)], _status),
    ("rmg_map_connection_tiles", [_p, c_size_t, POINTER(c_uint32), c_size_t], c_size_t),
    ("rmg_map_connection_guards", [_p, c_size_t, POINTER(c_uint32), c_size_t], c_size_t),
    ("rmg_map_object_count", [_p], c_size_t),
    ("rmg_map_object_get", [_p, c_size_t, POINTER(S.MapObjectInfo)], _status),
    ("rmg_map_object_footprint", [_p, c_size_t, POINTER(c_uint32), c_size_t], c_size_t),
    ("rmg_map_object_entries", [_p, c_size_t, POINTER(c_uint32), c_size_t], c_size_t),
    ("rmg_map_object_spells", [_p, c_size_t, POINTER(c_char_p), c_size_t], c_size_t),
    ("rmg_map_group_count", [_p], c_size_t),
    ("rmg_map_group_get", [_p, c_size_t, POINTER(S.MapGroupInfo)], _status),
    ("rmg_map_group_objects", [_p, c_size_t, POINTER(c_uint32), c_size_t], c_size_t),
    ("rmg_map_setup_get", [_p, POINTER(S.MapSetupInfo)], _status),
    ("rmg_map_allowed", [_p, c_int, c_size_t], c_int),
    ("rmg_context_content", [_p, _pp], _status),
    ("rmg_context_set_content_variant", [_p, c_int], _status),
    ("rmg_content_count", [_p, c_int], c_size_t),
    ("rmg_content_key", [_p, c_int, c_size_t], c_char_p),
    ("rmg_content_find_id", [_p, c_int, c_int], c_long),
    ("rmg_map_validate", [_p, _pp, POINTER(c_size_t)], _status),
    ("rmg_map_to_json", [_p, _pp, POINTER(c_size_t)], _status),
    ("rmg_map_to_text", [_p, _pp, POINTER(c_size_t)], _status),
    ("rmg_map_save", [_p, c_char_p], _status),
    ("rmg_map_save_png", [_p, c_char_p], _status),
    # h3m.h
    ("rmg_map_load_h3m", [_p, c_char_p, _pp], _status),
    # balance.h
    ("rmg_balance_options_init", [POINTER(S.BalanceOptions)], None),
    ("rmg_map_balance", [_p, POINTER(S.BalanceOptions), _pp], _status),
    ("rmg_balance_destroy", [_p], None),
    ("rmg_balance_score", [_p], c_double),
    ("rmg_balance_player_count", [_p], c_size_t),
    ("rmg_balance_measure", [_p, c_size_t, POINTER(c_double)], c_char_p),
    ("rmg_balance_value", [_p, c_size_t, c_size_t, POINTER(c_double)], c_int),
    ("rmg_balance_to_json", [_p, _pp, POINTER(c_size_t)], _status),
    ("rmg_best_of_options_init", [POINTER(S.BestOfOptions)], None),
    ("rmg_generate_best_of", [_p, _p, POINTER(S.GenerateOptions), POINTER(S.BestOfOptions), _pp,
                              POINTER(S.BestOfInfo)], _status),
    # stage.h
    ("rmg_stage_api_version", [], c_uint),
    ("rmg_stage_plugin_init", [POINTER(S.StagePlugin)], None),
    ("rmg_context_set_stage", [_p, c_int, POINTER(S.StagePlugin), c_int], _status),
    ("rmg_stage_view_stage", [_p], c_int),
    ("rmg_stage_view_context", [_p], c_void_p),
    ("rmg_stage_view_rng", [_p], POINTER(S.Rng)),
    ("rmg_stage_view_map", [_p], c_void_p),
    ("rmg_stage_view_pack", [_p], c_void_p),
    ("rmg_stage_view_template_index", [_p], c_size_t),
    ("rmg_stage_run_builtin", [_p], _status),
    ("rmg_stage_place_zone", [_p, c_size_t, c_int, c_int, c_int], _status),
    ("rmg_stage_set_tile_zone", [_p, c_int, c_int, c_int, c_int], _status),
    ("rmg_stage_set_blocked", [_p, c_int, c_int, c_int, c_int], _status),
    ("rmg_stage_reserve_path", _xyz, _status),
    ("rmg_stage_warn", [_p, c_char_p], _status),
    # guard.h
    ("rmg_guard_strength_index", [c_int, c_int, c_int], c_int),
    ("rmg_guard_total", [c_int64, c_int], c_double),
    ("rmg_guard_needed", [c_int64, c_int], c_int),
    ("rmg_guard_request_init", [POINTER(S.GuardRequest)], None),
    ("rmg_guard_compute", [_p, POINTER(S.GuardRequest), POINTER(S.Rng), POINTER(S.Guard)], _status),
)

_ELF_MAGIC = b"\x7fELF"
_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NULL, _DT_NEEDED, _DT_STRTAB = 0, 1, 5


def needed_libraries(path: str) -> List[str]:
    """DT_NEEDED entries of a 64-bit little-endian ELF file ([] when it cannot tell)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    if data[:4] != _ELF_MAGIC or data[4] != 2 or data[5] != 1:
        return []
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads, dynamic = [], None
    for i in range(phnum):
        p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if p_type == _PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == _PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        return []
    entries, strtab = [], None
    for off in range(dynamic[0], dynamic[0] + dynamic[1], 16):
        tag, val = struct.unpack_from("<qQ", data, off)
        if tag == _DT_NULL:
            break
        if tag == _DT_NEEDED:
            entries.append(val)
        elif tag == _DT_STRTAB:
            strtab = next((off_ + val - va for va, off_, sz in loads if va <= val < va + sz), None)
    if strtab is None:
        return []
    return [data[strtab + e : data.index(b"\0", strtab + e)].decode("utf-8", "replace") for e in entries]


def _asan_loaded() -> bool:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return any("libasan" in line for line in maps)
    except OSError:
        return False


def _needs_asan(path: str) -> bool:
    return any(name.startswith("libasan") for name in needed_libraries(path))


ASAN_HINT = (
    "it was built with AddressSanitizer: run Python with "
    "LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0, "
    "or point RMG_LIBRARY at a build without RMG_SANITIZE"
)


def _source_root() -> Path:
    # bindings/python/rmg/_lib.py -> the checkout's root
    return Path(__file__).resolve().parents[3]


def _build_tree_candidates() -> List[str]:
    build = _source_root() / "build"
    if not build.is_dir():
        return []
    found = [p for p in build.glob("*/librmg.so") if p.is_file()]
    found += [p for p in build.glob("librmg.so") if p.is_file()]
    found.sort(key=lambda p: (p.parent.name != "release", -p.stat().st_mtime))
    return [str(p) for p in found]


def _explicit_path(value: str) -> str:
    path = Path(value)
    if path.is_dir():
        path = path / "librmg.so"
    if not path.exists():
        raise LibraryNotFoundError(f"RMG_LIBRARY={value!r}: no such file")
    return os.path.abspath(path)


def _check_version(lib: ctypes.CDLL, where: str) -> None:
    try:
        version = lib.rmg_version
    except AttributeError:
        raise LibraryNotFoundError(f"{where} is not librmg (it has no rmg_version)") from None
    version.argtypes, version.restype = [], c_uint
    number = int(version())
    have = (number // 10000, number // 100 % 100, number % 100)
    if have[:2] != EXPECTED_ABI:
        raise LibraryNotFoundError(
            f"{where} is librmg {have[0]}.{have[1]}.{have[2]}, but these Python bindings need "
            f"librmg {EXPECTED_ABI[0]}.{EXPECTED_ABI[1]}.x; install bindings that match the library "
            "or point RMG_LIBRARY at a matching build"
        )


def raw_function(name: str, argtypes: List[Any], restype: Any) -> Any:
    """A second prototype of a C function of the loaded library, independent of the one in
    FUNCTIONS: e.g. taking struct addresses as plain integers for bulk reads into one buffer."""
    fn = lib()[name]  # a new function object each time, unlike attribute access
    fn.argtypes = argtypes
    fn.restype = restype
    return fn


def register(lib: ctypes.CDLL, where: str) -> None:
    """Declares argtypes and restype of every function in FUNCTIONS on lib."""
    for name, argtypes, restype in FUNCTIONS:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise LibraryNotFoundError(f"{where} lacks the symbol {name}; it is older than these bindings") from None
        fn.argtypes = argtypes
        fn.restype = restype


def _open(path: str, where: str, local_file: bool) -> ctypes.CDLL:
    if local_file and _needs_asan(path) and not _asan_loaded():
        raise LibraryNotFoundError(f"{where}: {ASAN_HINT}")
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise LibraryNotFoundError(f"{where} could not be loaded: {exc}") from None
    _check_version(lib, where)
    register(lib, where)
    return lib


def load() -> Tuple[ctypes.CDLL, str]:
    """Finds and loads librmg (see the module docstring); returns the library and its path."""
    explicit = os.environ.get("RMG_LIBRARY")
    if explicit:
        path = _explicit_path(explicit)
        return _open(path, f"RMG_LIBRARY={path}", True), path
    reasons = []
    installed = ctypes.util.find_library("rmg")
    candidates = ([(installed, False)] if installed else []) + [(p, True) for p in _build_tree_candidates()]
    for path, local_file in candidates:
        try:
            return _open(path, path, local_file), path
        except LibraryNotFoundError as exc:
            reasons.append(str(exc))
    detail = "; ".join(reasons) if reasons else "no installed librmg and no build/*/librmg.so next to the bindings"
    raise LibraryNotFoundError(f"librmg not found ({detail}); set RMG_LIBRARY to the path of librmg.so")


_LIB: Optional[ctypes.CDLL] = None
_PATH: Optional[str] = None


def lib() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _LIB, _PATH
    if _LIB is None:
        _LIB, _PATH = load()
    return _LIB


def path() -> str:
    """Path (or soname) of the loaded library."""
    lib()
    assert _PATH is not None
    return _PATH
