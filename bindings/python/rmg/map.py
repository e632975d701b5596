"""Generated maps: whole-map facts, tile layers, zones, connections, objects, groups, exports."""

from __future__ import annotations

import array
import ctypes
import json
import os
from ctypes import byref, c_size_t, c_uint32, c_void_p
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _structs as S
from ._handle import ContextObject
from .context import PathLike
from .enums import (
    ConnectionType,
    ContentKind,
    GuardTarget,
    Layer,
    MapMonsters,
    MonsterStrength,
    ObjectKind,
    Realization,
    Stage,
    Water,
    ZoneKind,
    coerce,
    maybe,
)

#: array typecode of each layer's element (uint8, uint16, uint32).
LAYER_TYPECODES: Dict[Layer, str] = {
    Layer.TERRAIN: "B",
    Layer.ZONE: "H",
    Layer.PASSABLE: "B",
    Layer.ROAD: "B",
    Layer.OBJECT: "I" if array.array("I").itemsize == 4 else "L",
}


@dataclass(frozen=True)
class Zone:
    """A map zone (rmg_map_zone_info); ``towns`` are object ids."""

    id: int
    template_zone: int
    kind: Union[ZoneKind, int]
    level: int
    owner: int
    terrain: int
    chosen_terrain: int
    faction: int
    monster_strength: Union[MonsterStrength, int]
    size_weight: float
    tiles: int
    center_x: int
    center_y: int
    town_count: int
    main_town: int
    towns: Tuple[int, ...] = ()
    #: treasure groups per range (TRS-03): asked for, placed, and whether the range ran out of
    #: objects that could start a group (TRS-06)
    treasure_requested: Tuple[int, int, int] = (0, 0, 0)
    treasure_placed: Tuple[int, int, int] = (0, 0, 0)
    treasure_exhausted: Tuple[bool, bool, bool] = (False, False, False)


@dataclass(frozen=True)
class Connection:
    """A template connection as realized on the map (rmg_map_connection_info)."""

    id: int
    template_index: int
    zone_a: int
    zone_b: int
    kind: Union[ConnectionType, int]
    realized: Union[Realization, int]
    value: int
    road: int
    tile_count: int
    guard_count: int
    why: Optional[str]
    tiles: Tuple[int, ...] = ()
    guards: Tuple[int, ...] = ()


@dataclass(frozen=True)
class MapObject:
    """A placed object (rmg_map_object_info); ``footprint``/``entries`` are tile indexes."""

    id: int
    key: Optional[str]
    kind: Union[ObjectKind, int]
    x: int
    y: int
    z: int
    zone: int
    value: int
    group: int
    guard: int
    color: int
    color_name: Optional[str]
    faction: int
    owner: int
    main: int
    castle: int
    creature: Optional[str]
    count: int
    amount: int
    strength_total: float
    guarded_value: int
    strength_index: int
    guards_kind: Union[GuardTarget, int]
    guards_id: int
    disposition: int
    join_percent: int
    join_for_money: int
    artifact: Optional[str] = None
    spell: Optional[str] = None
    hero: Optional[str] = None
    reward: Optional[str] = None
    link: int = 0
    footprint: Tuple[int, ...] = ()
    entries: Tuple[int, ...] = ()
    spells: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    """A treasure group (rmg_map_group_info); ``objects`` are object ids."""

    id: int
    zone: int
    range: int
    target: int
    value: int
    object_count: int
    guard: int
    objects: Tuple[int, ...] = ()


#: Enum type of the enum-valued fields of the info structs ("kind" depends on the struct).
_ENUM_FIELDS: Dict[str, Any] = {
    "monster_strength": MonsterStrength,
    "realized": Realization,
    "guards_kind": GuardTarget,
}
_KIND_ENUM: Dict[Any, Any] = {Zone: ZoneKind, Connection: ConnectionType, MapObject: ObjectKind}


def _from_info(cls: Any, info: ctypes.Structure, **extra: Any) -> Any:
    enums = dict(_ENUM_FIELDS, kind=_KIND_ENUM[cls]) if cls in _KIND_ENUM else _ENUM_FIELDS
    return S.to_dataclass(cls, info, enums, **extra)


class Map(ContextObject):
    """A generated map (rmg_map). Tile index of (x, y, z) is ``z*W*H + y*W + x``.

    Owned maps come from :meth:`Context.generate`; a stage plugin's ``view.map`` is a borrowed
    view of the map being built, valid only while the stage runs.
    """

    _what = "map (a stage's map is valid only while the stage runs)"

    def _init(self) -> None:
        self._cache: Dict[str, Any] = {}
        self._best_of: Optional[Dict[str, Any]] = None

    def _destroy(self, handle: int) -> None:
        self._ctx._lib.rmg_map_destroy(handle)

    def close(self) -> None:
        self._cache.clear()
        super().close()

    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        """Memoizes for owned (finished, immutable) maps; a borrowed map is still changing."""
        if not self._owned:
            return make()
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    # ---- whole-map facts -----------------------------------------------------------------

    @property
    def _lib(self) -> ctypes.CDLL:
        return self._ctx._lib

    @property
    def width(self) -> int:
        return int(self._lib.rmg_map_width(self.handle))

    @property
    def height(self) -> int:
        return int(self._lib.rmg_map_height(self.handle))

    @property
    def levels(self) -> int:
        return int(self._lib.rmg_map_levels(self.handle))

    @property
    def seed(self) -> int:
        return int(self._lib.rmg_map_seed(self.handle))

    @property
    def fingerprint(self) -> int:
        """XXH3-64 of the canonical serialization: equal maps have equal fingerprints."""
        return int(self._lib.rmg_map_fingerprint(self.handle))

    @property
    def pack_name(self) -> Optional[str]:
        return S.decode(self._lib.rmg_map_pack_name(self.handle))

    @property
    def template_name(self) -> Optional[str]:
        return S.decode(self._lib.rmg_map_template_name(self.handle))

    @property
    def description(self) -> Optional[str]:
        return S.decode(self._lib.rmg_map_description(self.handle))

    @property
    def attempts(self) -> int:
        """Generation attempts used (bounded retries)."""
        return int(self._lib.rmg_map_attempts(self.handle))

    @property
    def stage_ms(self) -> Dict[str, float]:
        """Wall time of each stage in milliseconds."""
        return {s.name.lower(): float(self._lib.rmg_map_stage_ms(self.handle, s)) for s in Stage}

    @property
    def options(self) -> Dict[str, Any]:
        """The generation options as resolved for this map."""
        opts = S.sized(S.GenerateOptions)
        self._ctx.check(self._lib.rmg_map_options(self.handle, byref(opts)))
        return {
            "width": opts.width,
            "height": opts.height,
            "levels": opts.levels,
            "players": opts.players,
            "humans": opts.humans,
            "water": maybe(Water, opts.water),
            "monsters": maybe(MapMonsters, opts.monsters),
        }

    @property
    def setup(self) -> Dict[str, Any]:
        """The game setup the map carries (rmg_map_setup, spec §0): ``max_battle_rounds`` (None =
        no limit), ``forbid_hiring_heroes``, ``special_weeks``, ``spell_research``, ``gem_spell``
        (spell key or None), ``interference_to_resistance``, ``allowed_towns`` (faction keys) and
        ``banned`` (``{"artifacts"|"spells"|"skills"|"heroes": [keys]}`` after every ban and
        fallback), as in the JSON's ``setup``."""
        return self._cached("setup", self._read_setup)

    def _read_setup(self) -> Dict[str, Any]:
        lib, h = self._lib, self.handle
        info = S.sized(S.MapSetupInfo)
        self._ctx.check(lib.rmg_map_setup(h, byref(info)))
        content = c_void_p()
        self._ctx.check(lib.rmg_context_content(self._ctx.handle, byref(content)))

        def keys(kind: ContentKind, allowed: Callable[[int], bool]) -> List[str]:
            n = lib.rmg_content_count(content, kind)
            return [S.decode(lib.rmg_content_key(content, kind, i)) or "" for i in range(n) if allowed(i)]

        def banned(kind: ContentKind) -> List[str]:
            return keys(kind, lambda i: lib.rmg_map_allowed(h, kind, i) == 0)

        towns = []
        for fid in range(31):  # bit = faction id (h3m town id)
            index = lib.rmg_content_find_id(content, ContentKind.FACTION, fid) if info.allowed_towns >> fid & 1 else -1
            if index >= 0:
                towns.append(S.decode(lib.rmg_content_key(content, ContentKind.FACTION, index)) or "")
        return {
            "max_battle_rounds": info.max_battle_rounds or None,
            "forbid_hiring_heroes": bool(info.forbid_hiring_heroes),
            "special_weeks": bool(info.special_weeks),
            "spell_research": bool(info.spell_research),
            "gem_spell": S.decode(info.gem_spell),
            "interference_to_resistance": bool(info.interference_to_resistance),
            "allowed_towns": towns,
            "banned": {name: banned(kind) for name, kind in (("artifacts", ContentKind.ARTIFACT),
                                                             ("spells", ContentKind.SPELL),
                                                             ("skills", ContentKind.SKILL),
                                                             ("heroes", ContentKind.HERO))},
        }

    @property
    def warnings(self) -> List[str]:
        lib, h = self._lib, self.handle
        return [S.decode(lib.rmg_map_warning(h, i)) or "" for i in range(lib.rmg_map_warning_count(h))]

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<rmg.Map closed>"
        return f"<rmg.Map {self.template_name!r} {self.width}x{self.height}x{self.levels} fingerprint={self.fingerprint:016x}>"

    # ---- tiles ---------------------------------------------------------------------------

    def layer_bytes(self, layer: Union[str, int, Layer]) -> bytes:
        """A whole layer's raw bytes in native byte order (rmg_map_copy_layer)."""
        lay = coerce(Layer, layer, "layer")
        size = int(self._lib.rmg_map_layer_size(self.handle, lay))
        buf = ctypes.create_string_buffer(size)
        self._ctx.check(self._lib.rmg_map_copy_layer(self.handle, lay, buf, size))
        return buf.raw

    def layer(self, layer: Union[str, int, Layer]) -> "array.array[int]":
        """A whole layer as an array (uint8 terrain/passable/road, uint16 zone, uint32 object)."""
        lay = coerce(Layer, layer, "layer")
        out = array.array(LAYER_TYPECODES[lay])
        out.frombytes(self.layer_bytes(lay))
        return out

    def layer_numpy(self, layer: Union[str, int, Layer]) -> Any:
        """A whole layer as a numpy array of shape (levels, height, width). Needs numpy."""
        import numpy  # optional dependency: only this method needs it

        lay = coerce(Layer, layer, "layer")
        dtype = {"B": numpy.uint8, "H": numpy.uint16, "I": numpy.uint32, "L": numpy.uint32}[LAYER_TYPECODES[lay]]
        flat = numpy.frombuffer(self.layer_bytes(lay), dtype=dtype)
        return flat.reshape(self.levels, self.height, self.width)

    def tile_index(self, x: int, y: int, z: int = 0) -> int:
        return (z * self.height + y) * self.width + x

    def tile_xyz(self, index: int) -> Tuple[int, int, int]:
        plane = self.width * self.height
        return index % self.width, index % plane // self.width, index // plane

    def terrain_at(self, x: int, y: int, z: int = 0) -> int:
        """Terrain id of a tile, -1 outside the map."""
        return int(self._lib.rmg_map_terrain(self.handle, x, y, z))

    def zone_at(self, x: int, y: int, z: int = 0) -> int:
        """Map zone id owning a tile (0 none), -1 outside the map."""
        return int(self._lib.rmg_map_tile_zone(self.handle, x, y, z))

    def passable_at(self, x: int, y: int, z: int = 0) -> int:
        return int(self._lib.rmg_map_passable(self.handle, x, y, z))

    def road_at(self, x: int, y: int, z: int = 0) -> int:
        return int(self._lib.rmg_map_road(self.handle, x, y, z))

    def object_at(self, x: int, y: int, z: int = 0) -> int:
        """Id of the object covering a tile (0 none), -1 outside the map."""
        return int(self._lib.rmg_map_tile_object(self.handle, x, y, z))

    # ---- zones, connections, objects, groups -----------------------------------------------

    def _ids(self, fn: Callable[..., int], index: int, count: int) -> Tuple[int, ...]:
        if count <= 0:
            return ()
        buf = (c_uint32 * count)()
        got = int(fn(self.handle, index, buf, count))
        return tuple(buf[: min(got, count)])

    def _records(self, count_fn: Callable[..., int], get_fn: Callable[..., int], info_cls: Any,
                 make: Callable[[int, Any], Any]) -> Tuple[Any, ...]:
        out = []
        for i in range(int(count_fn(self.handle))):
            info = S.sized(info_cls)
            self._ctx.check(get_fn(self.handle, i, byref(info)))
            out.append(make(i, info))
        return tuple(out)

    @property
    def zones(self) -> Tuple[Zone, ...]:
        lib = self._lib

        def make(i: int, info: S.MapZoneInfo) -> Zone:
            towns = tuple(int(lib.rmg_map_zone_town(self.handle, i, k)) for k in range(info.town_count))
            return _from_info(
                Zone,
                info,
                towns=towns,
                treasure_requested=tuple(info.treasure_requested),
                treasure_placed=tuple(info.treasure_placed),
                treasure_exhausted=tuple(bool(e) for e in info.treasure_exhausted),
            )

        return self._cached("zones", lambda: self._records(lib.rmg_map_zone_count, lib.rmg_map_zone, S.MapZoneInfo, make))

    @property
    def connections(self) -> Tuple[Connection, ...]:
        lib = self._lib

        def make(i: int, info: S.MapConnectionInfo) -> Connection:
            tiles = self._ids(lib.rmg_map_connection_tiles, i, info.tile_count)
            guards = self._ids(lib.rmg_map_connection_guards, i, info.guard_count)
            return _from_info(Connection, info, tiles=tiles, guards=guards)

        return self._cached(
            "connections", lambda: self._records(lib.rmg_map_connection_count, lib.rmg_map_connection, S.MapConnectionInfo, make)
        )

    def _object(self, i: int, info: S.MapObjectInfo) -> MapObject:
        lib = self._lib
        n_foot = int(lib.rmg_map_object_footprint(self.handle, i, None, 0))
        n_entry = int(lib.rmg_map_object_entries(self.handle, i, None, 0))
        return _from_info(
            MapObject,
            info,
            footprint=self._ids(lib.rmg_map_object_footprint, i, n_foot),
            entries=self._ids(lib.rmg_map_object_entries, i, n_entry),
            spells=self._spells(i, int(info.spell_count)),
        )

    def _spells(self, i: int, n: int) -> Tuple[str, ...]:
        """Spell keys of a spell Pandora's box (rmg_map_object_spells)."""
        if n <= 0:
            return ()
        buf = (ctypes.c_char_p * n)()
        got = int(self._lib.rmg_map_object_spells(self.handle, i, buf, n))
        return tuple(S.decode(buf[k]) or "" for k in range(min(got, n)))

    @property
    def objects(self) -> Tuple[MapObject, ...]:
        lib = self._lib
        return self._cached(
            "objects", lambda: self._records(lib.rmg_map_object_count, lib.rmg_map_object, S.MapObjectInfo, self._object)
        )

    @property
    def groups(self) -> Tuple[Group, ...]:
        lib = self._lib

        def make(i: int, info: S.MapGroupInfo) -> Group:
            return _from_info(Group, info, objects=self._ids(lib.rmg_map_group_objects, i, info.object_count))

        return self._cached("groups", lambda: self._records(lib.rmg_map_group_count, lib.rmg_map_group, S.MapGroupInfo, make))

    # ---- validation and exports ------------------------------------------------------------

    def validate(self) -> List[str]:
        """Checks the map (connected free areas, reachable entries, no overlaps, connections
        realized or reported); returns one line per violation, [] for a valid map."""
        report, count = c_void_p(), c_size_t()
        status = self._lib.rmg_map_validate(self.handle, byref(report), byref(count))
        try:
            self._ctx.check(status)
            text = ctypes.string_at(report.value).decode("utf-8", "replace") if report.value and count.value else ""
        finally:
            self._ctx.free(report.value)
        lines = [line for line in text.splitlines() if line.strip()]
        return lines if lines or count.value == 0 else [f"{count.value} violation(s)"]

    def to_json(self) -> str:
        """The JSON document of docs/map-json.md (validates against docs/map.schema.json)."""
        return self._ctx.take_string(self._lib.rmg_map_to_json, self.handle)

    def to_dict(self) -> Dict[str, Any]:
        """to_json() parsed."""
        return json.loads(self.to_json())

    def to_text(self) -> str:
        """ASCII preview with a legend."""
        return self._ctx.take_string(self._lib.rmg_map_to_text, self.handle)

    def balance(self, day_points: int = 0) -> Dict[str, Any]:
        """The balance report (rmg_map_balance) as the JSON contract of docs/balance.md: per
        player the paths to the others (``path_tiles``, ``path_cost``, ``guards``,
        ``strongest_guard``, ``guard_sum``; None where there is no path), ``weakest_exit_guard``,
        ``value_by_day``, ``value_by_kind``, ``towns_by_day``, ``nearest_mine``; then ``spread``
        per measure and the fairness ``score`` (0..100). ``day_points``: a day's movement points
        (0: 1500)."""
        opts = S.BalanceOptions()
        self._lib.rmg_balance_options_init(byref(opts))
        if day_points:
            opts.day_points = int(day_points)
        out = c_void_p()
        self._ctx.check(self._lib.rmg_map_balance(self.handle, byref(opts), byref(out)))
        try:
            return json.loads(self._ctx.take_string(self._lib.rmg_balance_to_json, out))
        finally:
            self._lib.rmg_balance_destroy(out)

    @property
    def best_of(self) -> Optional[Dict[str, Any]]:
        """For a map made with ``generate(best_of=N)``: ``candidate`` (0-based), its ``seed``, its
        fairness ``score``, ``candidates`` and how many ``failed``; else None."""
        return self._best_of

    def save(self, path: PathLike) -> None:
        """Writes a file chosen by extension: .json, .png, .txt or .h3m (the game's map file, for
        the game of the context's ruleset: HotA, or SoD for ``Context(game="sod")``)."""
        self._ctx.check(self._lib.rmg_map_save(self.handle, os.fsencode(path)))

    def save_png(self, path: PathLike) -> None:
        """Writes a PNG preview."""
        self._ctx.check(self._lib.rmg_map_save_png(self.handle, os.fsencode(path)))
