"""Generated maps: whole-map facts, tile layers, zones, connections, objects, groups, exports."""

from __future__ import annotations

import array
import ctypes
import json
import os
from ctypes import byref, c_double, c_size_t, c_uint32, c_void_p
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _structs as S
from ._handle import ContextObject
from ._objects import MapObject, read_objects
from .context import PathLike
from .enums import (
    ConnectionType,
    ContentKind,
    Faction,
    Layer,
    MapMonsters,
    MonsterStrength,
    Realization,
    River,
    Road,
    Stage,
    Terrain,
    Water,
    ZoneKind,
    coerce,
    maybe,
)
from .errors import as_int

#: array typecode of each layer's element (uint8, uint16, uint32).
LAYER_TYPECODES: Dict[Layer, str] = {
    Layer.TERRAIN: "B",
    Layer.ZONE: "H",
    Layer.PASSABLE: "B",
    Layer.ROAD: "B",
    Layer.OBJECT: "I" if array.array("I").itemsize == 4 else "L",
    Layer.RIVER: "B",
}


@dataclass(frozen=True)
class Zone:
    """A map zone (rmg_map_zone_info). Attributes: ``id`` (map zone id, index + 1),
    ``template_zone`` (the zone's number in the template, 0 for zones the generator adds),
    ``kind`` (:class:`rmg.ZoneKind`), ``level`` (0 surface, 1 underground), ``owner`` (player
    1..8, 0 none), ``terrain`` (the painted :class:`rmg.Terrain`), ``chosen_terrain`` (the
    solver's, before the underground conversion), ``faction`` (:class:`rmg.Faction`, NEUTRAL for
    a neutral zone, NONE for rock and water), ``monster_strength`` (:class:`rmg.MonsterStrength`),
    ``size_weight`` (the template size), ``tiles`` (tiles owned), ``center_x``, ``center_y``,
    ``town_count``, ``main_town`` (object id, 0 none), ``towns`` (object ids), and per treasure
    range ``treasure_requested``, ``treasure_placed``, ``treasure_exhausted`` (TRS-03/06)."""

    id: int
    template_zone: int
    kind: Union[ZoneKind, int]
    level: int
    owner: int
    terrain: Union[Terrain, int]
    chosen_terrain: Union[Terrain, int]
    faction: Union[Faction, int]
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
    """A template connection as realized on the map (rmg_map_connection_info). Attributes:
    ``id``, ``template_index`` (its place in the template's list, -1 for a mirror link),
    ``zone_a``, ``zone_b`` (map zone ids), ``kind`` (:class:`rmg.ConnectionType`), ``realized``
    (:class:`rmg.Realization`), ``value`` (the guard value), ``road`` (1 if a road runs through
    it), ``tile_count``, ``guard_count``, ``why`` (the reason when unrealized, or why a wide link
    is a teleport; else None), ``tiles`` (passage or teleport tiles as tile indexes) and
    ``guards`` (monster object ids)."""

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
class Group:
    """A treasure group (rmg_map_group_info). Attributes: ``id``, ``zone`` (map zone id),
    ``range`` (the treasure range 0..2, -1 for a reward placed for another zone's object),
    ``target`` (the total drawn, TRS-04), ``value`` (its objects' values summed),
    ``object_count``, ``guard`` (the guarding monster's object id, 0 none) and ``objects``
    (object ids in generation order)."""

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
    "terrain": Terrain,
    "chosen_terrain": Terrain,
    "faction": Faction,
}
_KIND_ENUM: Dict[Any, Any] = {Zone: ZoneKind, Connection: ConnectionType}


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
        """Width in tiles."""
        return int(self._lib.rmg_map_width(self.handle))

    @property
    def height(self) -> int:
        """Height in tiles."""
        return int(self._lib.rmg_map_height(self.handle))

    @property
    def levels(self) -> int:
        """1, or 2 with an underground."""
        return int(self._lib.rmg_map_levels(self.handle))

    @property
    def seed(self) -> int:
        """The seed the map was generated with."""
        return int(self._lib.rmg_map_seed(self.handle))

    @property
    def fingerprint(self) -> str:
        """16 lowercase hex digits of XXH3-64 over the canonical serialization, as in the JSON's
        ``fingerprint`` and ``rmg generate``'s summary: equal maps have equal fingerprints."""
        return format(int(self._lib.rmg_map_fingerprint(self.handle)), "016x")

    @property
    def pack_name(self) -> Optional[str]:
        """Name of the template pack the map came from."""
        return S.decode(self._lib.rmg_map_pack_name(self.handle))

    @property
    def template_name(self) -> Optional[str]:
        """Name of the template of the pack that was chosen."""
        return S.decode(self._lib.rmg_map_template_name(self.handle))

    @property
    def description(self) -> Optional[str]:
        """The pack's description (PCK-05), "" when it has none."""
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
        self._ctx.check(self._lib.rmg_map_options_get(self.handle, byref(opts)))
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
        """The game setup the map carries (rmg_map_setup_get, spec §0): ``max_battle_rounds`` (None =
        no limit), ``forbid_hiring_heroes``, ``special_weeks``, ``spell_research``, ``gem_spell``
        (spell key or None), ``interference_to_resistance``, ``allowed_towns`` (faction keys) and
        ``banned`` (``{"artifacts"|"spells"|"skills"|"heroes": [keys]}`` after every ban and
        fallback), as in the JSON's ``setup``."""
        return self._cached("setup", self._read_setup)

    def _read_setup(self) -> Dict[str, Any]:
        lib, h = self._lib, self.handle
        info = S.sized(S.MapSetupInfo)
        self._ctx.check(lib.rmg_map_setup_get(h, byref(info)))
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
        """Everything the generator could not do as asked, one line each."""
        lib, h = self._lib, self.handle
        return [S.decode(lib.rmg_map_warning(h, i)) or "" for i in range(lib.rmg_map_warning_count(h))]

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<rmg.Map closed>"
        return f"<rmg.Map {self.template_name!r} {self.width}x{self.height}x{self.levels} fingerprint={self.fingerprint}>"

    # ---- tiles ---------------------------------------------------------------------------

    def layer_bytes(self, layer: Union[str, int, Layer]) -> bytes:
        """A whole layer's raw bytes in native byte order (rmg_map_copy_layer)."""
        lay = coerce(Layer, layer, "layer")
        size = int(self._lib.rmg_map_layer_size(self.handle, lay))
        buf = ctypes.create_string_buffer(size)
        self._ctx.check(self._lib.rmg_map_copy_layer(self.handle, lay, buf, size))
        return buf.raw

    def layer(self, layer: Union[str, int, Layer]) -> "array.array[int]":
        """A whole layer as an array (uint8 terrain/passable/road/river, uint16 zone, uint32 object)."""
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
        """Index of tile (x, y, z) in the layers and in tile lists."""
        return (z * self.height + y) * self.width + x

    def tile_xyz(self, index: int) -> Tuple[int, int, int]:
        """(x, y, z) of a tile index."""
        plane = self.width * self.height
        return index % self.width, index % plane // self.width, index // plane

    def terrain_at(self, x: int, y: int, z: int = 0) -> Union[Terrain, int]:
        """The :class:`rmg.Terrain` of a tile, -1 outside the map."""
        return maybe(Terrain, int(self._lib.rmg_map_terrain(self.handle, x, y, z)))

    def zone_at(self, x: int, y: int, z: int = 0) -> int:
        """Map zone id owning a tile (0 none), -1 outside the map."""
        return int(self._lib.rmg_map_tile_zone(self.handle, x, y, z))

    def passable_at(self, x: int, y: int, z: int = 0) -> int:
        """1 if a hero can stand on the tile (what the game computes from terrain and objects),
        0 if not, -1 outside the map."""
        return int(self._lib.rmg_map_passable(self.handle, x, y, z))

    def road_at(self, x: int, y: int, z: int = 0) -> Union[Road, int]:
        """The :class:`rmg.Road` on a tile (Road.NONE for none), -1 outside the map."""
        return maybe(Road, int(self._lib.rmg_map_road(self.handle, x, y, z)))

    def river_at(self, x: int, y: int, z: int = 0) -> Union[River, int]:
        """The :class:`rmg.River` on a tile (River.NONE for none), -1 outside the map."""
        return maybe(River, int(self._lib.rmg_map_river(self.handle, x, y, z)))

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
        """Every zone, by id (zones[i].id == i + 1)."""
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

        return self._cached("zones", lambda: self._records(lib.rmg_map_zone_count, lib.rmg_map_zone_get, S.MapZoneInfo, make))

    @property
    def connections(self) -> Tuple[Connection, ...]:
        """Every realized template connection and mirror link."""
        lib = self._lib

        def make(i: int, info: S.MapConnectionInfo) -> Connection:
            tiles = self._ids(lib.rmg_map_connection_tiles, i, info.tile_count)
            guards = self._ids(lib.rmg_map_connection_guards, i, info.guard_count)
            return _from_info(Connection, info, tiles=tiles, guards=guards)

        return self._cached(
            "connections", lambda: self._records(lib.rmg_map_connection_count, lib.rmg_map_connection_get, S.MapConnectionInfo, make)
        )

    @property
    def objects(self) -> Tuple[MapObject, ...]:
        """Every object, by id (objects[i].id == i + 1), read in bulk (see :class:`rmg.MapObject`)."""
        return self._cached("objects", lambda: read_objects(self))

    @property
    def groups(self) -> Tuple[Group, ...]:
        """Every treasure group, by id."""
        lib = self._lib

        def make(i: int, info: S.MapGroupInfo) -> Group:
            return _from_info(Group, info, objects=self._ids(lib.rmg_map_group_objects, i, info.object_count))

        return self._cached("groups", lambda: self._records(lib.rmg_map_group_count, lib.rmg_map_group_get, S.MapGroupInfo, make))

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

    def balance_measures(self, day_points: int = 0) -> Dict[str, Any]:
        """The balance report's measures, as ``rmg stats --balance`` gathers them: the fairness
        ``score`` and ``measures``, a list in the library's order of dicts with the measure's
        ``name`` ("path_cost", ..., "mine_gold"), its ``spread`` between players and each
        player's ``values`` (None where the player has none: no path, no mine of that resource).
        ``day_points`` as in :meth:`balance`."""
        opts = S.BalanceOptions()
        self._lib.rmg_balance_options_init(byref(opts))
        if day_points:
            opts.day_points = as_int(day_points, "day_points")
        out = c_void_p()
        self._ctx.check(self._lib.rmg_map_balance(self.handle, byref(opts), byref(out)))
        try:
            players = int(self._lib.rmg_balance_player_count(out))
            measures = []
            spread, value = c_double(), c_double()
            while True:
                name = self._lib.rmg_balance_measure(out, len(measures), byref(spread))
                if name is None:
                    break
                values = [value.value if self._lib.rmg_balance_value(out, p, len(measures), byref(value)) else None
                          for p in range(players)]
                measures.append({"name": name.decode("utf-8"), "spread": spread.value, "values": values})
            return {"score": float(self._lib.rmg_balance_score(out)), "measures": measures}
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
