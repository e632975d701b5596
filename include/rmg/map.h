/*
 * librmg map: the generated result (tiles, zones, connections, objects, groups, warnings),
 * its generation options and the enums its accessors return.
 */
#ifndef RMG_MAP_H
#define RMG_MAP_H

#include "rmg/core.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rmg_map rmg_map;

/* Generation stages, in pipeline order. */
typedef enum rmg_stage_id {
    RMG_STAGE_SELECT = 0,
    RMG_STAGE_SOLVE = 1,
    RMG_STAGE_PLACE = 2,
    RMG_STAGE_BUILD = 3,
    RMG_STAGE_OBJECTS = 4,
    RMG_STAGE_GUARD = 5,
    RMG_STAGE_FINISH = 6,
    RMG_STAGE_COUNT = 7
} rmg_stage_id;

/* How a connection was realized. */
typedef enum rmg_map_realization {
    RMG_REALIZED_PASSAGE = 0,
    RMG_REALIZED_WIDE = 1,
    RMG_REALIZED_GATE = 2,
    RMG_REALIZED_MONOLITH = 3,
    RMG_REALIZED_ONE_WAY_MONOLITH = 4,
    RMG_REALIZED_BORDER_GUARD = 5,
    RMG_REALIZED_WATER = 6,
    RMG_REALIZED_FICTIVE = 7,
    RMG_REALIZED_UNREALIZED = 8
} rmg_map_realization;

typedef enum rmg_map_object_kind {
    RMG_OBJECT_TREASURE = 0,      /* zone content from the object table */
    RMG_OBJECT_TOWN = 1,
    RMG_OBJECT_MINE = 2,
    RMG_OBJECT_RESOURCE = 3,      /* resources beside mines */
    RMG_OBJECT_MONSTER = 4,
    RMG_OBJECT_MONOLITH = 5,
    RMG_OBJECT_GATE = 6,
    RMG_OBJECT_BORDER_GUARD = 7,
    RMG_OBJECT_KEYMASTER_TENT = 8,/* unguarded tent of a border-guard connection */
    RMG_OBJECT_SEER_HUT = 9,
    RMG_OBJECT_SHIPYARD = 10,
    RMG_OBJECT_AIRSHIP_YARD = 11,
    RMG_OBJECT_OBSTACLE = 12
} rmg_map_object_kind;

typedef enum rmg_map_guard_target {
    RMG_GUARDS_NONE = 0,
    RMG_GUARDS_GROUP = 1,
    RMG_GUARDS_OBJECT = 2,
    RMG_GUARDS_CONNECTION = 3
} rmg_map_guard_target;

/* Setup inputs (spec §0). Zero fields take values the chosen template supports. */
typedef struct rmg_generate_options {
    size_t struct_size;
    int width, height;            /* 0: a size the template accepts (M when it can) */
    int levels;                   /* 1 or 2 (underground); 0: template's choice */
    int players;                  /* total players, 0: template's choice */
    int humans;                   /* human players, 0: 1 */
    rmg_water_level water;
    rmg_map_monsters monsters;    /* default RMG_MAP_MONSTERS_NORMAL */
    const char *template_name;    /* NULL: random among those that fit (PCK-02) */
    int max_attempts;             /* bounded retries, 0: default (see ABI.md) */
    unsigned time_budget_ms;      /* 0: none */
} rmg_generate_options;

RMG_API void rmg_generate_options_init(rmg_generate_options *options);

#ifdef __cplusplus
}
#endif

#endif
