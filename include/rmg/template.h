/*
 * librmg templates: the template model (packs of templates, zones, connections, rules), the
 * native YAML format, importers for HotA h3t, SoD rmg.txt and VCMI JSON, validation, and
 * template selection (spec PCK, TPL, ZON, CON, RUL).
 */
#ifndef RMG_TEMPLATE_H
#define RMG_TEMPLATE_H

#include "rmg/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rmg_pack rmg_pack;

typedef enum rmg_template_format {
    RMG_FORMAT_AUTO = 0,
    RMG_FORMAT_YAML = 1,
    RMG_FORMAT_H3T = 2,        /* HotA template editor (also named rmg.txt) */
    RMG_FORMAT_SOD = 3,        /* original Shadow of Death / HD-mod rmg.txt */
    RMG_FORMAT_VCMI = 4,       /* VCMI JSON */
    RMG_FORMAT_BUILTIN = 5     /* built into the library */
} rmg_template_format;

typedef enum rmg_zone_kind {
    RMG_ZONE_HUMAN_START = 0,
    RMG_ZONE_COMPUTER_START = 1,
    RMG_ZONE_TREASURE = 2,
    RMG_ZONE_JUNCTION = 3,
    RMG_ZONE_WATER = 4,        /* added by the generator */
    RMG_ZONE_ROCK = 5          /* added by the generator (rock masses) */
} rmg_zone_kind;

typedef enum rmg_zone_placement {
    RMG_PLACEMENT_ANY = 0,
    RMG_PLACEMENT_SURFACE = 1,
    RMG_PLACEMENT_UNDERGROUND = 2
} rmg_zone_placement;

typedef enum rmg_monster_strength {
    RMG_MONSTERS_NONE = 0,
    RMG_MONSTERS_WEAK = 1,
    RMG_MONSTERS_MEDIUM = 2,
    RMG_MONSTERS_STRONG = 3
} rmg_monster_strength;

/* Global (map) monster strength. */
typedef enum rmg_map_monsters {
    RMG_MAP_MONSTERS_WEAK = 0,
    RMG_MAP_MONSTERS_NORMAL = 1,
    RMG_MAP_MONSTERS_STRONG = 2
} rmg_map_monsters;

typedef enum rmg_water_level {
    RMG_WATER_NONE = 0,
    RMG_WATER_NORMAL = 1,
    RMG_WATER_ISLANDS = 2
} rmg_water_level;

typedef enum rmg_mood {
    RMG_MOOD_COMPLIANT = 0,
    RMG_MOOD_FRIENDLY = 1,
    RMG_MOOD_AGGRESSIVE = 2,
    RMG_MOOD_HOSTILE = 3,
    RMG_MOOD_SAVAGE = 4,
    RMG_MOOD_EXACT = 5
} rmg_mood;

typedef enum rmg_connection_type {
    RMG_CONNECTION_STANDARD = 0,
    RMG_CONNECTION_WIDE = 1,
    RMG_CONNECTION_BORDER_GUARD = 2,
    RMG_CONNECTION_FICTIVE = 3
} rmg_connection_type;

typedef enum rmg_connection_placement {
    RMG_LINK_DEFAULT = 0,
    RMG_LINK_GROUND = 1,
    RMG_LINK_UNDERGROUND_GATE = 2,
    RMG_LINK_MONOLITH = 3,
    RMG_LINK_RANDOM = 4
} rmg_connection_placement;

typedef enum rmg_road_setting {
    RMG_ROAD_FORBIDDEN = 0,
    RMG_ROAD_RANDOM = 1,
    RMG_ROAD_MANDATORY = 2   /* order matters: CON-18 merges by maximum */
} rmg_road_setting;

typedef enum rmg_rule_op { RMG_RULE_FORBID = 0, RMG_RULE_ALLOW = 1 } rmg_rule_op;

typedef enum rmg_rule_target {
    RMG_TARGET_ALL = 0,             /* every object (RUL-03) */
    RMG_TARGET_OBJECT = 1,          /* one object key */
    RMG_TARGET_FAMILY = 2,          /* a family/group (creature_bank, pandora_spells, ...) */
    RMG_TARGET_CREATURE = 3,        /* a creature object family for one creature */
    RMG_TARGET_CREATURE_LEVEL = 4,  /* a creature object family for one creature level */
    RMG_TARGET_CUSTOM = 5           /* a custom variant with explicit parameters (OBJ-15) */
} rmg_rule_target;

typedef enum rmg_type_rule_kind {
    RMG_TYPE_RULE_TOWN_SAME = 0,          /* type(Ta) == type(Tb)  (negate: !=) */
    RMG_TYPE_RULE_TOWN_NATIVE = 1,        /* type(Ta) native to terrain(Zb) */
    RMG_TYPE_RULE_TERRAIN_SAME = 2,       /* terrain(Za) == terrain(Zb) */
    RMG_TYPE_RULE_TERRAIN_NATIVE = 3,     /* terrain(Za) is native terrain of type(Tb) */
    RMG_TYPE_RULE_FACTION_SAME = 4,       /* faction(Za) == faction(Zb) */
    RMG_TYPE_RULE_FACTION_TOWN = 5,       /* faction(Za) matches type(Tb) */
    RMG_TYPE_RULE_FACTION_TERRAIN = 6     /* faction(Za) matches terrain(Zb) */
} rmg_type_rule_kind;

typedef enum rmg_teleport_kind {
    RMG_TELEPORT_NONE = 0,
    RMG_TELEPORT_ONE_WAY_ENTRANCE = 1,
    RMG_TELEPORT_ONE_WAY_EXIT = 2,
    RMG_TELEPORT_TWO_WAY = 3,
    RMG_TELEPORT_GATE = 4
} rmg_teleport_kind;

#ifdef __cplusplus
}
#endif

#endif
