/*
 * librmg content: the game facts (terrains, factions, creatures, objects, artifacts, spells,
 * skills, heroes). Built-in HotA and SoD rulesets; hosts may load or merge their own YAML.
 */
#ifndef RMG_CONTENT_H
#define RMG_CONTENT_H

#include "rmg/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Terrain ids: the H3M terrain numbers. */
typedef enum rmg_terrain_id {
    RMG_TERRAIN_DIRT = 0,
    RMG_TERRAIN_SAND = 1,
    RMG_TERRAIN_GRASS = 2,
    RMG_TERRAIN_SNOW = 3,
    RMG_TERRAIN_SWAMP = 4,
    RMG_TERRAIN_ROUGH = 5,
    RMG_TERRAIN_SUBTERRANEAN = 6,
    RMG_TERRAIN_LAVA = 7,
    RMG_TERRAIN_WATER = 8,
    RMG_TERRAIN_ROCK = 9,
    RMG_TERRAIN_HIGHLANDS = 10,
    RMG_TERRAIN_WASTELAND = 11,
    RMG_TERRAIN_COUNT = 12
} rmg_terrain_id;

/* Faction ids: the H3M town numbers; neutral has its own id (never a town type). */
typedef enum rmg_faction_id {
    RMG_FACTION_CASTLE = 0,
    RMG_FACTION_RAMPART = 1,
    RMG_FACTION_TOWER = 2,
    RMG_FACTION_INFERNO = 3,
    RMG_FACTION_NECROPOLIS = 4,
    RMG_FACTION_DUNGEON = 5,
    RMG_FACTION_STRONGHOLD = 6,
    RMG_FACTION_FORTRESS = 7,
    RMG_FACTION_CONFLUX = 8,
    RMG_FACTION_COVE = 9,
    RMG_FACTION_FACTORY = 10,
    RMG_FACTION_NEUTRAL = 31, /* bit 31 in faction masks */
    RMG_FACTION_NONE = -1
} rmg_faction_id;

typedef enum rmg_alignment { RMG_ALIGN_GOOD = 0, RMG_ALIGN_EVIL = 1, RMG_ALIGN_NEUTRAL = 2 } rmg_alignment;

typedef enum rmg_artifact_class {
    RMG_ARTIFACT_TREASURE = 0,
    RMG_ARTIFACT_MINOR = 1,
    RMG_ARTIFACT_MAJOR = 2,
    RMG_ARTIFACT_RELIC = 3,
    RMG_ARTIFACT_SPECIAL = 4
} rmg_artifact_class;

/* The built-in rulesets. */
typedef enum rmg_content_variant { RMG_CONTENT_HOTA = 0, RMG_CONTENT_SOD = 1, RMG_CONTENT_EMPTY = 2 } rmg_content_variant;

#ifdef __cplusplus
}
#endif

#endif
