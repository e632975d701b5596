"""The C enums as IntEnums (values fixed by the ABI: rmg/core.h, template.h, map.h, guard.h)."""

from __future__ import annotations

import enum
from typing import Dict, Type, TypeVar, Union


class Status(enum.IntEnum):
    """Status codes of every C call (rmg_status); :class:`rmg.Error` carries one."""

    OK = 0
    ERR_NOMEM = 1
    ERR_INVALID_ARG = 2
    ERR_IO = 3
    ERR_PARSE = 4
    ERR_INVALID_DATA = 5
    ERR_UNSUPPORTED = 6
    ERR_NOT_FOUND = 7
    ERR_IMPOSSIBLE = 8
    ERR_CANCELLED = 9
    ERR_LIMIT = 10
    ERR_PLUGIN = 11
    ERR_VERSION = 12
    ERR_INTERNAL = 13
    ERR_BUFFER_TOO_SMALL = 14


class LogLevel(enum.IntEnum):
    """Levels of the ``log`` callback of :class:`rmg.Context` (rmg_log_level)."""

    ERROR = 0
    WARNING = 1
    INFO = 2
    DEBUG = 3


class Stage(enum.IntEnum):
    """The generation stages, in order (rmg_stage_id); BUILD is the deprecated name of CONNECT."""

    SELECT = 0
    SOLVE = 1
    PLACE = 2
    CONNECT = 3
    BUILD = 3  # the connect stage's name until 0.3 (deprecated alias)
    OBJECTS = 4
    GUARD = 5
    FINISH = 6


class Terrain(enum.IntEnum):
    """Terrain ids (rmg_terrain_id, the H3M terrain numbers): ``Map.terrain_at``, the terrain
    layer, ``Zone.terrain``, and the index of a terrain in the JSON's ``terrain_keys``."""

    DIRT = 0
    SAND = 1
    GRASS = 2
    SNOW = 3
    SWAMP = 4
    ROUGH = 5
    SUBTERRANEAN = 6
    LAVA = 7
    WATER = 8
    ROCK = 9
    HIGHLANDS = 10
    WASTELAND = 11


class Faction(enum.IntEnum):
    """Faction ids (rmg_faction_id, the H3M town numbers): ``Zone.faction`` and a town's
    ``MapObject.faction``. NEUTRAL is the neutral monsters' own id (never a town type); NONE
    stands for "no faction" (objects that are no towns, zones of rock or water)."""

    NONE = -1
    CASTLE = 0
    RAMPART = 1
    TOWER = 2
    INFERNO = 3
    NECROPOLIS = 4
    DUNGEON = 5
    STRONGHOLD = 6
    FORTRESS = 7
    CONFLUX = 8
    COVE = 9
    FACTORY = 10
    NEUTRAL = 31


class Road(enum.IntEnum):
    """Road types of the road layer (rmg_road_type): ``Map.road_at``."""

    NONE = 0
    DIRT = 1
    GRAVEL = 2
    COBBLESTONE = 3


class River(enum.IntEnum):
    """River types of the river layer (rmg_river_type): ``Map.river_at``."""

    NONE = 0
    CLEAR = 1
    ICY = 2
    MUDDY = 3
    LAVA = 4


class ContentKind(enum.IntEnum):
    """Kinds of game content entities (rmg_content_kind)."""

    TERRAIN = 0
    FACTION = 1
    CREATURE = 2
    OBJECT = 3
    MAP_OBJECT = 4
    ARTIFACT = 5
    SPELL = 6
    SKILL = 7
    HERO = 8


class PluginPolicy(enum.IntEnum):
    """What happens when a Python stage fails (rmg_plugin_policy): FAIL raises, FALLBACK runs the
    built-in stage and records a map warning."""

    FAIL = 0
    FALLBACK = 1


class TemplateFormat(enum.IntEnum):
    """Template file formats (rmg_template_format); AUTO detects the format from the content."""

    AUTO = 0
    YAML = 1
    H3T = 2
    SOD = 3
    VCMI = 4
    BUILTIN = 5


class H3tVersion(enum.IntEnum):
    """Column layouts of HotA .h3t files the writer offers (rmg_h3t_version): AUTO keeps the layout
    of the h3t file a pack was read from (else 1.8); V1_7 has 11 towns, V1_8 12 (Bulwark)."""

    AUTO = 0
    V1_7 = 1
    V1_8 = 2


class ZoneKind(enum.IntEnum):
    """Zone types (rmg_zone_kind)."""

    HUMAN_START = 0
    COMPUTER_START = 1
    TREASURE = 2
    JUNCTION = 3
    WATER = 4
    ROCK = 5


class MonsterStrength(enum.IntEnum):
    """A zone's monster strength."""

    NONE = 0
    WEAK = 1
    MEDIUM = 2
    STRONG = 3


class MapMonsters(enum.IntEnum):
    """The map's (global) monster strength."""

    WEAK = 0
    NORMAL = 1
    STRONG = 2


class Water(enum.IntEnum):
    """The map's water level (rmg_water_level)."""

    NONE = 0
    NORMAL = 1
    ISLANDS = 2
    #: Since 0.5.0, the default of generate options: the template's own choice (a map's options
    #: always hold the level that was used).
    TEMPLATE = 3


class ConnectionType(enum.IntEnum):
    """A template connection's type (rmg_connection_type)."""

    STANDARD = 0
    WIDE = 1
    BORDER_GUARD = 2
    FICTIVE = 3


class Realization(enum.IntEnum):
    """How a connection was built on the map (rmg_map_realization)."""

    PASSAGE = 0
    WIDE = 1
    GATE = 2
    MONOLITH = 3
    ONE_WAY_MONOLITH = 4
    BORDER_GUARD = 5
    WATER = 6
    FICTIVE = 7
    UNREALIZED = 8


class ObjectKind(enum.IntEnum):
    """Kinds of map objects (rmg_map_object_kind)."""

    TREASURE = 0
    TOWN = 1
    MINE = 2
    RESOURCE = 3
    MONSTER = 4
    MONOLITH = 5
    GATE = 6
    BORDER_GUARD = 7
    KEYMASTER_TENT = 8
    SEER_HUT = 9
    SHIPYARD = 10
    AIRSHIP_YARD = 11
    OBSTACLE = 12
    BOAT = 13


class GuardTarget(enum.IntEnum):
    """What a monster guards (rmg_map_guard_target): a treasure group, an object or a connection."""

    NONE = 0
    GROUP = 1
    OBJECT = 2
    CONNECTION = 3


class GuardChoice(enum.IntEnum):
    """How a guard's creature was chosen (rmg_guard_choice)."""

    NONE = 0
    ELIGIBLE = 1
    NEAREST = 2
    NEAREST_ANY = 3


class Mood(enum.IntEnum):
    """Monster moods of a zone (rmg_mood, ZON-24); EXACT uses an exact disposition value."""

    COMPLIANT = 0
    FRIENDLY = 1
    AGGRESSIVE = 2
    HOSTILE = 3
    SAVAGE = 4
    EXACT = 5


class Layer(enum.IntEnum):
    """Tile layers; the element type of each is in LAYER_TYPECODES."""

    TERRAIN = 0
    ZONE = 1
    PASSABLE = 2
    ROAD = 3
    OBJECT = 4
    RIVER = 5


E = TypeVar("E", bound=enum.IntEnum)


def coerce(enum_type: Type[E], value: Union[str, int, E], what: str) -> E:
    """An enum member from a member, its value, or its name in any case ("fallback", "Place")."""
    from .errors import bad_name  # errors imports this module

    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        key = value.strip().upper().replace("-", "_").replace(" ", "_")
        if key in enum_type.__members__:
            return enum_type[key]
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return enum_type(value)
        except ValueError:
            pass
    raise bad_name(what, value, [n.lower() for n in enum_type.__members__])


def maybe(enum_type: Type[E], value: int) -> Union[E, int]:
    """value as a member of enum_type, or the bare int when this version does not know it."""
    try:
        return enum_type(value)
    except ValueError:
        return value


#: Standard map sizes (side length in tiles) by the names the `rmg` command uses.
MAP_SIZES: Dict[str, int] = {"S": 36, "M": 72, "L": 108, "XL": 144, "H": 180, "XH": 216, "G": 252}
