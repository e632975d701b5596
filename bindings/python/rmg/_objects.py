"""Map objects read in bulk: a large map has tens of thousands of objects, so their info structs
are fetched into one buffer and unpacked at C speed (struct.iter_unpack); a MapObject is a small
view of its unpacked record. Strings are decoded once per distinct address when the objects are
read, so no object reads the map's memory afterwards; only footprint, entries and spells are
fetched on first access (from the map, which must still be open)."""

from __future__ import annotations

import ctypes
from ctypes import c_size_t, c_uint32, c_void_p
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from . import _lib
from . import _structs as S
from .enums import Faction, GuardTarget, ObjectKind

if TYPE_CHECKING:
    from .map import Map

_RECORD = S.record_format(S.MapObjectInfo)
#: Position of each field of rmg_map_object_info in an unpacked record.
_AT: Dict[str, int] = {name: i for i, (name, _type) in enumerate(S.MapObjectInfo._fields_)}
_NUMBERS = ("id", "x", "y", "z", "zone", "value", "group", "guard", "color", "owner", "main", "castle", "count",
            "amount", "strength_total", "guarded_value", "strength_index", "guards_id", "disposition",
            "join_percent", "join_for_money", "link")
_STRINGS = ("key", "color_name", "creature", "artifact", "spell", "hero", "reward")
_ENUMS = {"kind": ObjectKind, "guards_kind": GuardTarget, "faction": Faction}
#: Every attribute of a MapObject, in the order of the C struct, then the fetched-on-access ones.
FIELDS: Tuple[str, ...] = tuple(n for n, _ in S.MapObjectInfo._fields_ if n not in ("struct_size", "spell_count")) + (
    "footprint", "entries", "spells")


class ObjectTable:
    """What the objects of one map share: the map (for footprints, entries and spells), the
    decoded strings by address, and each enum's members by value."""

    def __init__(self, owner: "Map", records: List[Tuple[Any, ...]]) -> None:
        self.map = owner
        self.strings: Dict[int, Optional[str]] = {0: None}
        for name in _STRINGS:
            at = _AT[name]
            for address in {r[at] for r in records}:
                if address not in self.strings:
                    self.strings[address] = S.decode(ctypes.string_at(address))
        self.members: Dict[str, Dict[int, Any]] = {name: {m.value: m for m in enum} for name, enum in _ENUMS.items()}

    def tiles(self, fn: Callable[..., int], index: int) -> Tuple[int, ...]:
        """Footprint or entry tiles of object `index` through fn (rmg_map_object_footprint/_entries)."""
        handle = self.map.handle  # raises once the map is closed
        count = int(fn(handle, index, None, 0))
        if count <= 0:
            return ()
        buf = (c_uint32 * count)()
        got = int(fn(handle, index, buf, count))
        return tuple(buf[: min(got, count)])

    def spells(self, index: int, count: int) -> Tuple[str, ...]:
        """Spell keys of a spell Pandora's box (rmg_map_object_spells)."""
        if count <= 0:
            return ()
        buf = (ctypes.c_char_p * count)()
        got = int(self.map._lib.rmg_map_object_spells(self.map.handle, index, buf, count))
        return tuple(S.decode(buf[k]) or "" for k in range(min(got, count)))


class MapObject:
    """A placed object (rmg_map_object_info), read-only. Attributes:

    ``id`` (object id, index + 1), ``key`` (object-defaults.tsv key or a map-object key such as
    "town" or "monster"), ``kind`` (:class:`rmg.ObjectKind`), ``x``, ``y``, ``z`` (the anchor: the
    bottom-right tile of the footprint), ``zone`` (map zone id), ``value``, ``group`` and
    ``guard`` (ids, 0 none), ``color`` (colour index, -1 none) and ``color_name``; towns:
    ``faction`` (:class:`rmg.Faction`, NONE for other objects), ``owner`` (player 1..8, 0 none),
    ``main`` and ``castle`` (1 or 0); creature objects and rewards: ``creature`` (key or None),
    ``count``, ``amount``; monsters: ``strength_total``, ``guarded_value``, ``strength_index``,
    ``guards_kind`` (:class:`rmg.GuardTarget`), ``guards_id``, ``disposition`` (0..10),
    ``join_percent``, ``join_for_money``; content: ``artifact``, ``spell``, ``hero``, ``reward``
    (keys or None), ``link`` (the paired object's id, 0 none). ``footprint`` and ``entries``
    (blocked and visitable tile indexes) and ``spells`` (a spell Pandora's box's spell keys) are
    read from the map on first access, so they need the map still open.
    """

    __slots__ = ("_record", "_table", "_lazy")

    def __init__(self, record: Tuple[Any, ...], table: ObjectTable) -> None:
        self._record = record
        self._table = table
        self._lazy: Optional[Dict[str, Tuple[Any, ...]]] = None

    def _fetched(self, name: str, fetch: Callable[[], Tuple[Any, ...]]) -> Tuple[Any, ...]:
        if self._lazy is None:
            self._lazy = {}
        if name not in self._lazy:
            self._lazy[name] = fetch()
        return self._lazy[name]

    @property
    def footprint(self) -> Tuple[int, ...]:
        """The blocked tiles (tile indexes z*W*H + y*W + x)."""
        lib = self._table.map._lib
        return self._fetched("footprint", lambda: self._table.tiles(lib.rmg_map_object_footprint, self.id - 1))

    @property
    def entries(self) -> Tuple[int, ...]:
        """The visitable tiles (tile indexes)."""
        lib = self._table.map._lib
        return self._fetched("entries", lambda: self._table.tiles(lib.rmg_map_object_entries, self.id - 1))

    @property
    def spells(self) -> Tuple[str, ...]:
        """Spell keys a spell Pandora's box holds (every allowed spell of its levels and schools)."""
        count = self._record[_AT["spell_count"]]
        return self._fetched("spells", lambda: self._table.spells(self.id - 1, count))

    def as_dict(self) -> Dict[str, Any]:
        """Every attribute (FIELDS) as a dict."""
        return {name: getattr(self, name) for name in FIELDS}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MapObject):
            return NotImplemented
        return self._table is other._table and self._record == other._record

    def __hash__(self) -> int:
        return hash(self._record)

    def __repr__(self) -> str:
        return (f"MapObject(id={self.id}, key={self.key!r}, kind={self.kind!r}, x={self.x}, y={self.y}, z={self.z}, "
                f"zone={self.zone}, value={self.value})")


#: One line per attribute read from the record (help() and the documentation test show them).
_DOCS: Dict[str, str] = {
    "id": "Object id (index in Map.objects + 1).",
    "key": "Object key: an object-defaults.tsv key, or a map-object key such as 'town' or 'monster'.",
    "kind": "What the object is (rmg.ObjectKind).",
    "x": "Anchor x: the bottom-right tile of the footprint.",
    "y": "Anchor y.",
    "z": "Level: 0 surface, 1 underground.",
    "zone": "Map zone id.",
    "value": "The object's value (for guards see guarded_value).",
    "group": "Treasure group id, 0 none.",
    "guard": "The guarding monster's object id, 0 none.",
    "color": "Colour index of monoliths, border guards and tents, -1 none.",
    "color_name": "Lowercase colour name, or None.",
    "faction": "A town's faction (rmg.Faction); Faction.NONE for other objects.",
    "owner": "A town's owner: player 1..8, 0 none.",
    "main": "1 for the zone's main town.",
    "castle": "1 for a town with a fort (castle).",
    "creature": "Creature key of creature objects (dwellings, creature boxes, monsters), or None.",
    "count": "Number of creatures.",
    "amount": "Gold, experience or resource amount where it applies.",
    "strength_total": "A monster's guard total (GRD-03, fractions kept).",
    "guarded_value": "The value a monster guards.",
    "strength_index": "A monster's strength index 1..5.",
    "guards_kind": "What a monster guards (rmg.GuardTarget).",
    "guards_id": "Id of what a monster guards (group, object or connection).",
    "disposition": "A monster's disposition 0..10.",
    "join_percent": "Chance a monster joins: 25, 50, 75 or 100.",
    "join_for_money": "1 when a monster joins only for money.",
    "artifact": "Quest artifact key (the artifact and its Seer's Hut), or None.",
    "spell": "A Spell Scroll's spell key, or None.",
    "hero": "A Prison's hero key, or None.",
    "reward": "A Seer's Hut's reward: 'creatures', 'experience' or 'gold', or None.",
    "link": "Id of the paired object (monolith pair, tent and Border Guard, artifact and hut), 0 none.",
}


def _number(at: int, doc: str) -> property:
    return property(lambda self: self._record[at], doc=doc)


def _string(at: int, doc: str) -> property:
    return property(lambda self: self._table.strings[self._record[at]], doc=doc)


def _enum(name: str, at: int, doc: str) -> property:
    def get(self: MapObject) -> Any:
        value = self._record[at]
        return self._table.members[name].get(value, value)  # a value this version does not know stays an int

    return property(get, doc=doc)


for _name in _NUMBERS:
    setattr(MapObject, _name, _number(_AT[_name], _DOCS[_name]))
for _name in _STRINGS:
    setattr(MapObject, _name, _string(_AT[_name], _DOCS[_name]))
for _name in _ENUMS:
    setattr(MapObject, _name, _enum(_name, _AT[_name], _DOCS[_name]))


_FETCH: List[Any] = []


def _fetch_function() -> Any:
    """rmg_map_object_get taking the struct's address as an integer (no ctypes object per call)."""
    if not _FETCH:
        _FETCH.append(_lib.raw_function("rmg_map_object_get", [c_void_p, c_size_t, c_void_p], ctypes.c_int))
    return _FETCH[0]


def read_objects(owner: "Map") -> Tuple[MapObject, ...]:
    """Every object of the map, read with one C call each into one buffer."""
    handle, count = owner.handle, int(owner._lib.rmg_map_object_count(owner.handle))
    if count == 0:
        return ()
    size = ctypes.sizeof(S.MapObjectInfo)
    blank = S.sized(S.MapObjectInfo)
    buf = ctypes.create_string_buffer(ctypes.string_at(ctypes.addressof(blank), size) * count, size * count)
    fetch = _fetch_function()
    base = ctypes.addressof(buf)
    failed = next((i for i in range(count) if fetch(handle, i, base + i * size)), None)
    if failed is not None:
        owner._ctx.check(fetch(handle, failed, base + failed * size))
    records: List[Tuple[Any, ...]] = list(_RECORD.iter_unpack(memoryview(buf)[: size * count]))
    table = ObjectTable(owner, records)
    return tuple(MapObject(r, table) for r in records)

