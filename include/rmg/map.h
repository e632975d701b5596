/*
 * librmg map: the generated result (tiles, zones, connections, objects, groups, warnings),
 * its generation options and the enums its accessors return.
 */
#ifndef RMG_MAP_H
#define RMG_MAP_H

#include "rmg/core.h"
#include "rmg/content.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rmg_map rmg_map;

/* Generation stages, in pipeline order. Names as progress reports and errors spell them:
 * "select", "solve", "place", "connect", "objects", "guard", "finish". */
typedef enum rmg_stage_id {
    RMG_STAGE_SELECT = 0,
    RMG_STAGE_SOLVE = 1,
    RMG_STAGE_PLACE = 2,
    RMG_STAGE_CONNECT = 3,        /* zone borders, passages, gates, teleports, terrain ("build" until 0.3) */
    RMG_STAGE_OBJECTS = 4,
    RMG_STAGE_GUARD = 5,
    RMG_STAGE_FINISH = 6,
    RMG_STAGE_COUNT = 7
} rmg_stage_id;
/* Deprecated since 0.4.0: the connect stage's old name (same value). */
#define RMG_STAGE_BUILD RMG_STAGE_CONNECT

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
    RMG_OBJECT_OBSTACLE = 12,
    RMG_OBJECT_BOAT = 13          /* since 0.4: a boat on water where no shipyard fits */
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
    /* Since 0.4.0: each player's town choice (spec §0, PCK-10). Bit p-1 of towns_chosen set:
     * player p plays the town type towns[p-1] (a faction id), which must be among the pack's
     * allowed towns (MIS-37; Castle when the pack bans them all, MIS-38), else rmg_generate
     * refuses the setup with RMG_ERR_INVALID_ARG. Bit clear: a random town, limited only by the
     * player's start zone (MIS-08). A start zone that bans the chosen type gets a random
     * allowed one, with a warning. */
    uint32_t towns_chosen;
    int towns[8];
} rmg_generate_options;

RMG_API void rmg_generate_options_init(rmg_generate_options *options);

/* ---- generation ------------------------------------------------------------------------- */

struct rmg_pack;

/*
 * Generates a map from a pack (NULL: the built-in pack): selects a template (PCK-02), then runs
 * solve, place, connect, objects, guard and finish, retrying a failed stage (or the stage a
 * validation failure names) from that stage with a derived sub-seed, at most 2 times per stage
 * before a new attempt, and at most options->max_attempts runs in all (default
 * RMG_DEFAULT_MAX_ATTEMPTS; ABI.md). The seed
 * is the context's (rmg_context_set_seed). The map is validated before it is returned.
 * On failure *out is NULL and the context's error names the stage, zone and rule.
 */
#define RMG_DEFAULT_MAX_ATTEMPTS 8
RMG_API rmg_status rmg_generate(rmg_context *ctx, const struct rmg_pack *pack, const rmg_generate_options *options,
                                rmg_map **out);
/* No-op for NULL. */
RMG_API void rmg_map_destroy(rmg_map *map);

/* ---- whole-map facts -------------------------------------------------------------------- */

RMG_API int rmg_map_width(const rmg_map *map);
RMG_API int rmg_map_height(const rmg_map *map);
RMG_API int rmg_map_levels(const rmg_map *map);
/* The seed that remakes this map: the context's seed, or with a host RNG (rmg_context_options.rng)
 * the word generation drew from it (since 0.6.0; 0 before). rmg_context_set_seed(ctx, seed) on a
 * context without a host RNG then gives the same map with the same pack and options. */
RMG_API uint64_t rmg_map_seed(const rmg_map *map);
/* XXH3-64 over the canonical serialization (the JSON export without the fingerprint).
 * Computed on the first call (it costs one serialization) and kept; allocates nothing. */
RMG_API uint64_t rmg_map_fingerprint(const rmg_map *map);
RMG_API const char *rmg_map_pack_name(const rmg_map *map);
RMG_API const char *rmg_map_template_name(const rmg_map *map);
RMG_API const char *rmg_map_description(const rmg_map *map);
/* Options as resolved for this map (struct_size of the caller's struct is respected). */
RMG_API rmg_status rmg_map_options_get(const rmg_map *map, rmg_generate_options *out);
RMG_API size_t rmg_map_warning_count(const rmg_map *map);
RMG_API const char *rmg_map_warning(const rmg_map *map, size_t index);
/* Generation attempts used and per-stage wall time in milliseconds (RMG_STAGE_*). */
RMG_API int rmg_map_attempts(const rmg_map *map);
RMG_API double rmg_map_stage_ms(const rmg_map *map, rmg_stage_id stage);

/* ---- tiles ------------------------------------------------------------------------------- */

typedef enum rmg_map_layer {
    RMG_LAYER_TERRAIN = 0,  /* uint8_t terrain id */
    RMG_LAYER_ZONE = 1,     /* uint16_t map zone id, 0 none */
    RMG_LAYER_PASSABLE = 2, /* uint8_t 1 where a hero can stand or walk on land, as the game
                             * decides it: not water or rock, under no object's blocked mask
                             * (an entry of a blocking object is blocked; since 0.4) */
    RMG_LAYER_ROAD = 3,     /* uint8_t 0 none, 1 dirt, 2 gravel, 3 cobblestone */
    RMG_LAYER_OBJECT = 4,   /* uint32_t object id covering the tile, 0 none */
    RMG_LAYER_RIVER = 5     /* uint8_t 0 none, 1 clear, 2 icy, 3 muddy, 4 lava (since 0.5.0) */
} rmg_map_layer;

/* Bytes a layer takes (levels x height x width x element size), 0 for an unknown layer. */
RMG_API size_t rmg_map_layer_size(const rmg_map *map, rmg_map_layer layer);
/* Copies a whole layer (index z*W*H + y*W + x) into buf; RMG_ERR_BUFFER_TOO_SMALL if size is
 * smaller than rmg_map_layer_size(). */
RMG_API rmg_status rmg_map_copy_layer(const rmg_map *map, rmg_map_layer layer, void *buf, size_t size);
/* Single-tile reads; -1 when (x, y, z) is outside the map. */
RMG_API int rmg_map_terrain(const rmg_map *map, int x, int y, int z);
RMG_API int rmg_map_tile_zone(const rmg_map *map, int x, int y, int z);
RMG_API int rmg_map_passable(const rmg_map *map, int x, int y, int z);
RMG_API int rmg_map_road(const rmg_map *map, int x, int y, int z);
/* The river type (RMG_LAYER_RIVER's values; since 0.5.0). */
RMG_API int rmg_map_river(const rmg_map *map, int x, int y, int z);
RMG_API long rmg_map_tile_object(const rmg_map *map, int x, int y, int z);

/* ---- zones ------------------------------------------------------------------------------- */

typedef struct rmg_map_zone_info {
    size_t struct_size;
    int id;                        /* map zone id */
    int template_zone;             /* zone id in the template, 0 for generator zones */
    rmg_zone_kind kind;
    int level;                     /* 0 surface, 1 underground */
    int owner;                     /* player 1..8, 0 none */
    int terrain;                   /* painted terrain id */
    int chosen_terrain;            /* the solver's terrain (before level conversion) */
    int faction;                   /* faction id, RMG_FACTION_NEUTRAL (31) for neutral */
    rmg_monster_strength monster_strength;
    double size_weight;
    size_t tiles;
    int center_x, center_y;
    size_t town_count;
    uint32_t main_town;            /* object id, 0 none */
    /* Since 0.3.0. Treasure groups per range (TRS-03): asked for and placed, and 1 when the
     * range stopped because no object could start a group any more (TRS-06, "exhausted").
     * Zeros for zones without content; a mirror copy repeats its surface zone. */
    int treasure_requested[3];
    int treasure_placed[3];
    int treasure_exhausted[3];
} rmg_map_zone_info;
RMG_API void rmg_map_zone_info_init(rmg_map_zone_info *info);

RMG_API size_t rmg_map_zone_count(const rmg_map *map);
/* index 0..count-1 (zone id = index + 1). */
RMG_API rmg_status rmg_map_zone_get(const rmg_map *map, size_t index, rmg_map_zone_info *out);
/* Object id of the zone's i-th town, 0 when out of range. */
RMG_API uint32_t rmg_map_zone_town(const rmg_map *map, size_t index, size_t i);

/* ---- connections ------------------------------------------------------------------------- */

typedef struct rmg_map_connection_info {
    size_t struct_size;
    int id;
    int template_index;            /* index in the template's connection list; -1 for a mirror link */
    int zone_a, zone_b;            /* map zone ids */
    rmg_connection_type kind;
    rmg_map_realization realized;
    int64_t value;
    int road;                      /* 1 if it carries a road */
    size_t tile_count, guard_count;
    const char *why;               /* reason when unrealized, or (since 0.6.0) why a wide link is a
                                      teleport or water travel; else NULL */
} rmg_map_connection_info;
RMG_API void rmg_map_connection_info_init(rmg_map_connection_info *info);

RMG_API size_t rmg_map_connection_count(const rmg_map *map);
RMG_API rmg_status rmg_map_connection_get(const rmg_map *map, size_t index, rmg_map_connection_info *out);
/* Tile indexes (z*W*H + y*W + x) of a connection's passage/teleport tiles; returns how many
 * exist and copies at most cap of them. */
RMG_API size_t rmg_map_connection_tiles(const rmg_map *map, size_t index, uint32_t *buf, size_t cap);
/* Monster object ids guarding a connection; same convention. */
RMG_API size_t rmg_map_connection_guards(const rmg_map *map, size_t index, uint32_t *buf, size_t cap);

/* ---- objects ------------------------------------------------------------------------------ */

typedef struct rmg_map_object_info {
    size_t struct_size;
    uint32_t id;
    const char *key;               /* object key (object-defaults.tsv key or a map-object key) */
    rmg_map_object_kind kind;
    int x, y, z;                   /* anchor: bottom-right tile of the footprint */
    int zone;
    int64_t value;
    uint32_t group, guard;         /* ids, 0 none */
    int color;                     /* colour index, -1 none */
    const char *color_name;        /* lowercase colour name or NULL */
    /* towns */
    int faction, owner, main;
    int castle;                    /* 1: the town has a fort (a castle, not the Castle faction) */
    /* creature objects and rewards */
    const char *creature;          /* creature key or NULL */
    int count;
    int64_t amount;
    /* monsters */
    double strength_total;
    int64_t guarded_value;
    int strength_index;
    rmg_map_guard_target guards_kind;
    uint32_t guards_id;
    int disposition, join_percent, join_for_money;
    /* Concrete content (appended). Keys are the content's (valid while the context
     * lives), NULL where they do not apply. */
    const char *artifact;          /* quest artifacts and their Seer's Huts (MIS-13/14) */
    const char *spell;             /* Spell Scrolls (OBJ-16) */
    const char *hero;              /* Prisons (MIS-16/31) */
    const char *reward;            /* Seer's Huts: "creatures", "experience" or "gold" (MIS-14) */
    size_t spell_count;            /* spell Pandora's boxes: spells held, see rmg_map_object_spells */
    uint32_t link;                 /* paired object id, 0 none: the other monolith of a pair, tent and
                                    * Border Guard, quest artifact and Seer's Hut */
} rmg_map_object_info;
RMG_API void rmg_map_object_info_init(rmg_map_object_info *info);

RMG_API size_t rmg_map_object_count(const rmg_map *map);
/* index 0..count-1 (object id = index + 1). */
RMG_API rmg_status rmg_map_object_get(const rmg_map *map, size_t index, rmg_map_object_info *out);
/* Footprint (blocked) and entry tiles as tile indexes; same convention as above. */
RMG_API size_t rmg_map_object_footprint(const rmg_map *map, size_t index, uint32_t *buf, size_t cap);
RMG_API size_t rmg_map_object_entries(const rmg_map *map, size_t index, uint32_t *buf, size_t cap);
/* Spell keys a spell Pandora's box holds (every allowed spell of its levels and schools, in
 * content order); returns how many and copies at most cap of them. */
RMG_API size_t rmg_map_object_spells(const rmg_map *map, size_t index, const char **buf, size_t cap);

/* ---- groups ------------------------------------------------------------------------------- */

typedef struct rmg_map_group_info {
    size_t struct_size;
    uint32_t id;
    int zone;
    int range;                     /* 0..2, -1 for rewards from another zone */
    int64_t target, value;
    size_t object_count;
    uint32_t guard;
} rmg_map_group_info;
RMG_API void rmg_map_group_info_init(rmg_map_group_info *info);

RMG_API size_t rmg_map_group_count(const rmg_map *map);
RMG_API rmg_status rmg_map_group_get(const rmg_map *map, size_t index, rmg_map_group_info *out);
RMG_API size_t rmg_map_group_objects(const rmg_map *map, size_t index, uint32_t *buf, size_t cap);

/* ---- the game setup (since 0.4.0) ------------------------------------------------------------ */

/* What the map carries for the game beyond tiles and objects (spec §0: PCK-07/08, TPL-02/03,
 * MIS-34/35/37/38), as the template and the solve stage decided it. The .h3m export writes
 * what the format holds (docs/h3m-export.md). */
typedef struct rmg_map_setup_info {
    size_t struct_size;
    int max_battle_rounds;          /* PCK-07, MIS-40: 0 = no limit */
    int forbid_hiring_heroes;       /* PCK-08, MIS-41 */
    int special_weeks;              /* TPL-02, MIS-42: weeks and months of creatures, plague */
    int spell_research;             /* TPL-03, MIS-43 */
    const char *gem_spell;          /* MIS-34: Gem's starting spell (spell key), NULL when Gem is banned */
    int interference_to_resistance; /* MIS-35: starting Interference becomes Resistance */
    uint32_t allowed_towns;         /* PCK-10, MIS-37/38: the factions players may choose (bit = faction id) */
} rmg_map_setup_info;
RMG_API void rmg_map_setup_info_init(rmg_map_setup_info *info);

RMG_API rmg_status rmg_map_setup_get(const rmg_map *map, rmg_map_setup_info *out);
/* 1 when the artifact, spell, skill or hero with this content index (RMG_CONTENT_ARTIFACT,
 * _SPELL, _SKILL, _HERO) is allowed on the map after every ban and fallback (MIS-20..33), 0 when
 * banned, -1 for another kind or an index out of range. */
RMG_API int rmg_map_allowed(const rmg_map *map, rmg_content_kind kind, size_t index);

/* ---- validation ------------------------------------------------------------------------- */

/* Checks the map (issue 12): zones' free areas connected, entries reachable, no overlapping
 * objects, connections realized or reported. *count gets the number of violations; with
 * report non-NULL, *report gets one line per violation (free with rmg_free). */
RMG_API rmg_status rmg_map_validate(const rmg_map *map, char **report, size_t *count);

/* ---- exports ------------------------------------------------------------------------------ */

/* The JSON document (docs/map-json.md); *out is allocated through the context's allocator:
 * free with rmg_free(ctx, *out). */
RMG_API rmg_status rmg_map_to_json(const rmg_map *map, char **out, size_t *len);
/* ASCII preview with a legend; same ownership. */
RMG_API rmg_status rmg_map_to_text(const rmg_map *map, char **out, size_t *len);
/* Writes a file chosen by extension: .json, .png, .txt or .h3m (the .h3m with the default
 * rmg_h3m_options; rmg/h3m.h). Another extension is RMG_ERR_INVALID_ARG. */
RMG_API rmg_status rmg_map_save(const rmg_map *map, const char *path);
RMG_API rmg_status rmg_map_save_png(const rmg_map *map, const char *path);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_map_zone_get")
rmg_status rmg_map_zone(const rmg_map *map, size_t index, rmg_map_zone_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_map_connection_get")
rmg_status rmg_map_connection(const rmg_map *map, size_t index, rmg_map_connection_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_map_object_get")
rmg_status rmg_map_object(const rmg_map *map, size_t index, rmg_map_object_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_map_group_get")
rmg_status rmg_map_group(const rmg_map *map, size_t index, rmg_map_group_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_map_setup_get")
rmg_status rmg_map_setup(const rmg_map *map, rmg_map_setup_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_map_options_get")
rmg_status rmg_map_options(const rmg_map *map, rmg_generate_options *out);

#ifdef __cplusplus
}
#endif

#endif
