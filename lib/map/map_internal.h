/*
 * Internal generation state and the map being built. This is the contract between stages:
 *
 *   select -> solve -> place -> build -> objects -> guard -> finish
 *
 * Each stage reads what earlier stages wrote and writes only its own part:
 *   select : g->tpl, g->active_zone / g->active_conn, g->opt resolved (size, players...)
 *   solve  : g->sol (terrains, factions, town types, bans, road choices, owners)
 *   place  : map->zones (centres, levels), map->tile_zone, rock/water zones, g->layout
 *   build  : map->terrain, tile flags BLOCKED/BORDER/PASSAGE/FREE, map->conns (tiles, guard
 *            slots), teleport and border-guard objects
 *   objects: towns, mines, treasure groups, rewards; OBJECT/ENTRY flags; groups; guard slots
 *   guard  : monster objects for every guard slot (groups, objects, connections)
 *   finish : roads, obstacles for unused land, rivers, validation (the fingerprint is computed on
 *            first request, rmg__map_fingerprint_of)
 *
 * Tiles are flat arrays indexed z*W*H + y*W + x. Map object ids are 1-based (0 = none).
 * Fields may be appended, never reordered. A field a stage writes must also be saved by the
 * driver's checkpoints (lib/driver/checkpoint.c), which let a failed stage be retried alone.
 */
#ifndef RMG_MAP_INTERNAL_H
#define RMG_MAP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "content/content_internal.h"
#include "template/model.h"
#include "rmg/map.h"

/* ---- tiles -------------------------------------------------------------------------------- */

#define RMG__T_BLOCKED  0x0001u  /* not passable (obstacle, rock, object footprint, water) */
#define RMG__T_OBJECT   0x0002u  /* covered by an object's footprint */
#define RMG__T_ENTRY    0x0004u  /* an object's entry (visitable) tile */
#define RMG__T_PASSAGE  0x0008u  /* part of a realized connection between zones */
#define RMG__T_FREE     0x0010u  /* reserved free path: must stay passable */
#define RMG__T_BORDER   0x0020u  /* zone border (sealed unless PASSAGE) */
#define RMG__T_GUARD    0x0040u  /* a guard stands here */
#define RMG__T_OBSTACLE 0x0080u  /* decorative obstacle (blocked) */
#define RMG__T_WATER    0x0100u  /* water tile */
#define RMG__T_ROCK     0x0200u  /* rock / rock-mass tile */
#define RMG__T_USED     0x0400u  /* taken by something (objects stage bookkeeping) */

static inline size_t rmg__tile(int w, int h, int x, int y, int z)
{
    return (size_t)z * (size_t)w * (size_t)h + (size_t)y * (size_t)w + (size_t)x;
}

/* ---- map parts ---------------------------------------------------------------------------- */

typedef struct rmg__map_zone {
    int id;                       /* map zone id = index + 1 */
    int tpl_index;                /* index into tpl->zones, -1 for rock/water zones */
    int tpl_id;                   /* template zone number, 0 for rock/water zones */
    rmg_zone_kind kind;
    int level;                    /* 0 surface, 1 underground */
    int owner;                    /* player 1..8 or 0 */
    bool human;
    int chosen_terrain;           /* solver's terrain (rules are checked on it, ZON-15) */
    int terrain;                  /* painted terrain after level conversion (ZON-14) */
    int faction;                  /* zone faction id (RMG_FACTION_NEUTRAL possible) */
    rmg_monster_strength monster_strength;
    double size_weight;
    int cx, cy;                   /* centre chosen by placement */
    size_t n_tiles;               /* tiles owned */
    RMG__VEC(uint32_t) towns;     /* object ids of the zone's towns */
    uint32_t main_town;           /* object id or 0 */
    int mirror_of;                /* mirror packs: map id of the surface zone this one copies, 0 none */
} rmg__map_zone;

typedef struct rmg__map_connection {
    int id;                       /* 1-based */
    int tpl_index;                /* index into tpl->connections */
    int zone_a, zone_b;           /* map zone ids */
    rmg_connection_type kind;     /* template type */
    rmg_map_realization realized;
    int64_t value;
    bool road;                    /* carries a road (solve + finish) */
    bool border_guard_fallback;   /* border guard built as standard (CON-05) */
    RMG__VEC(uint32_t) tiles;     /* passage tiles (tile index) or teleport entrance tiles */
    RMG__VEC(uint32_t) guard_slots; /* tiles where the guard stage puts a guard */
    RMG__VEC(uint32_t) guards;    /* monster object ids (guard stage) */
    RMG__VEC(uint32_t) objects;   /* teleports / border guards / tents created for it */
    char *why;                    /* reason when unrealized */
} rmg__map_connection;

typedef struct rmg__map_object {
    uint32_t id;                  /* 1-based */
    const char *key;              /* object key (TSV key or map-object key), map arena */
    rmg_map_object_kind kind;
    int x, y, z;                  /* anchor: the footprint's bottom-right tile */
    uint64_t block, visit;        /* footprint masks relative to the anchor (content layout) */
    int zone;                     /* map zone id */
    int64_t value;
    uint32_t group;               /* group id or 0 */
    uint32_t guard;               /* guarding monster object id or 0 */
    uint32_t guard_slot;          /* tile index + 1 where its guard goes, 0 none */
    int color;                    /* monoliths, border guards, tents: colour index; -1 none */
    /* towns */
    int faction;
    int owner;                    /* player or 0 */
    bool main, castle;
    /* creature objects, rewards */
    int creature;                 /* creature index or -1 */
    int count;
    int64_t amount;               /* gold / experience / resource amount */
    int artifact, spell;          /* indexes or -1 */
    /* monsters */
    double strength_total;        /* GRD-03 total, fractions kept */
    int64_t guarded_value;
    int strength_index;           /* 1..5 */
    rmg_map_guard_target guards_kind;
    uint32_t guards_id;           /* group / object / connection id */
    int disposition;              /* 0..10 */
    int join_percent;             /* 25, 50, 75, 100 */
    bool join_for_money;
    uint32_t link;                /* teleports: the paired object id; tents: the border guard */
    /* Concrete content (lib/objects/details.c). */
    int spell_min, spell_max;     /* spell Pandora's boxes: level range of the list entry drawn (the
                                   * details pass resolves defaults: 1..5) */
    int schools;                  /* spell Pandora's boxes: school mask (1 air, 2 fire, 4 water, 8 earth) */
    int hero;                     /* prisons: content hero index, -1 none */
    uint16_t *spells;             /* spell Pandora's boxes: content spell indexes (map arena) */
    size_t n_spells;
} rmg__map_object;

typedef struct rmg__map_group {
    uint32_t id;                  /* 1-based */
    int zone;
    int range;                    /* 0..2 treasure range, -1 for rewards placed from another zone */
    int64_t target;               /* T drawn for the group (TRS-04) */
    int64_t value;                /* sum of object values */
    RMG__VEC(uint32_t) objects;   /* in generation order */
    uint32_t guard;               /* monster object id or 0 */
    uint32_t guard_slot;          /* tile index + 1, 0 none */
} rmg__map_group;

/* Per-zone content statistics (objects stage), reported by `rmg stats`. */
typedef struct rmg__zone_stats {
    int groups_requested[3], groups_placed[3];
    /* The range stopped because no object of the zone's list could start a group for any T in
     * [min, max] any more (TRS-06 with every value starved, TRS-10): the rest was not placeable. */
    bool range_exhausted[3];
} rmg__zone_stats;

/* The game setup the map carries (spec §0, PCK-07/08, TPL-02/03, MIS-20..43), as the solve stage
 * and the template decided it; the driver records it when the stages are done. Flags per content
 * index, in the map arena; NULL before they are recorded (every entity then counts as allowed). */
typedef struct rmg__map_setup {
    int max_battle_rounds;        /* 0 none (MIS-40) */
    bool forbid_hiring_heroes;    /* MIS-41 */
    bool special_weeks;           /* MIS-42 */
    bool spell_research;          /* MIS-43 */
    int gem_spell;                /* MIS-34: content spell index of Gem's starting spell, -1 none */
    bool interference_to_resistance; /* MIS-35 */
    uint32_t allowed_towns;       /* MIS-37/38: bit = faction id */
    uint8_t *artifact_allowed, *spell_allowed, *skill_allowed, *hero_allowed;
    size_t n_artifacts, n_spells, n_skills, n_heroes;
} rmg__map_setup;

/* What a finished map computes only when asked (the map is read-only to the host, so it lives
 * behind a pointer). Atomic because threads reading one map may ask at the same time; they
 * compute and store the same value. */
typedef struct rmg__map_lazy {
    _Atomic uint64_t fingerprint;
    atomic_bool fingerprint_known;
} rmg__map_lazy;

struct rmg_map {
    rmg_context *ctx;
    rmg__arena arena;             /* strings and fixed-size arrays */
    int width, height, levels;
    size_t n_tiles;
    uint8_t *terrain;             /* terrain id */
    uint16_t *tile_zone;          /* map zone id, 0 none */
    uint16_t *flags;              /* RMG__T_* */
    uint8_t *road;                /* 0 none, else road type (1 dirt, 2 gravel, 3 cobblestone) */
    uint32_t *tile_object;        /* object id covering the tile, 0 none */
    RMG__VEC(rmg__map_zone) zones;
    RMG__VEC(rmg__map_connection) conns;
    RMG__VEC(rmg__map_object) objects;
    RMG__VEC(rmg__map_group) groups;
    RMG__VEC(char *) warnings;    /* each string allocated with rmg__malloc */
    rmg__zone_stats *zone_stats;  /* per map zone (index id-1), may be NULL */
    /* Metadata. */
    uint64_t seed;
    rmg_generate_options options; /* as resolved */
    char *pack_name, *template_name, *description;
    rmg__map_lazy *lazy;          /* map arena; the fingerprint on first request */
    double stage_ms[8];           /* per-stage wall time (RMG_STAGE_*) */
    int attempts;
    struct rmg__place_report *place_report; /* place stage report (map arena), NULL before place */
    rmg__map_setup setup;
    /* Object keys repeat (a G map holds tens of thousands of obstacles of a few hundred kinds):
     * rmg__map_add_object keeps one arena copy per key, found by a hash of the key's text. */
    const char *key_copies[1024];
    uint8_t *river;               /* 0 none, else river type (1 clear, 2 icy, 3 muddy, 4 lava; finish) */
};

/* ---- generation state ---------------------------------------------------------------------- */

typedef struct rmg__zone_solution {
    int terrain;                  /* chosen terrain id (pre-conversion) */
    int faction;                  /* zone faction */
    int player_town_type;         /* faction id of the zone's player towns, -1 if none */
    int *neutral_town_types;      /* per neutral town k (min towns first), -1 unconstrained */
    int n_neutral_towns;
    int owner;                    /* player 1..8 or 0 */
    bool human;
    bool faction_of_main_town;    /* FAC-03 applies: the zone takes its main town's faction once the
                                   * objects stage has placed its towns (frequency towns included) */
} rmg__zone_solution;

typedef struct rmg__solution {
    rmg__zone_solution *zones;    /* parallel to g->active zones (tpl index order) */
    bool *road;                   /* per template connection: carries a road */
    uint8_t *artifact_allowed;    /* per content artifact index */
    uint8_t *spell_allowed;
    uint8_t *skill_allowed;
    uint8_t *hero_allowed;
    uint8_t *object_banned;       /* per content object index: banned by solve (OBJ-14) */
    int prisons_max;              /* MIS-16 */
    uint32_t allowed_towns;       /* pack town choice after MIS-38 */
    int gem_spell;                /* MIS-34 spell index or -1 */
} rmg__solution;

typedef struct rmg__gen {
    rmg_context *ctx;
    const struct rmg_content *content;
    const struct rmg_pack *pack;
    const rmg__template *tpl;
    rmg_generate_options opt;     /* resolved: width/height/levels/players/... */
    uint64_t root_seed;
    rmg__arena scratch;           /* per-generation scratch, freed after finish */
    int level_players, level_humans; /* the counts the template's filters and the solver see
                                   * (rmg__level_counts: half of a mirror map's) */
    bool *zone_active;            /* per template zone: exists for these player counts */
    bool *conn_active;            /* per template connection */
    int *zone_map_id;             /* per template zone: map zone id (place), 0 inactive */
    rmg__solution sol;
    struct rmg_map *map;
    void *stage_data[8];          /* private per-stage state kept across stages (in g->scratch) */
    uint64_t base_seed;           /* root of every attempt's seed (context seed or host RNG word) */
    /* Mirror packs (lib/driver/mirror.c): tile flags after build, and the first object and
     * group ids the objects and guard stages made. */
    uint16_t *mirror_flags;
    uint32_t mirror_first_object, mirror_first_group;
    /* What the select stage has to say on every map of this generation (templates left out for
     * their errors, the one of several of a name that was taken), in g->scratch. */
    char **select_notes;
    size_t n_select_notes;
    /* Issue 30: the caller left the water level to the template (RMG_WATER_TEMPLATE). */
    bool water_from_template;
} rmg__gen;

/* The RNG for (stage, purpose index): independent of every other stream (per stage, per zone). */
void rmg__gen_stream(const rmg__gen *g, const char *stage, uint64_t index, rmg_rng *out);

/* Map building helpers (lib/map). */
rmg_status rmg__map_new(rmg_context *ctx, int width, int height, int levels, struct rmg_map **out);
void rmg__map_free(struct rmg_map *m);
/* Frees the zones, connections, objects, groups and warnings (and what they own) and leaves
 * them empty; the layers and the arena stay. `m` may be a copy of a map's parts (lib/driver/
 * checkpoint.c), hence the explicit context. */
void rmg__map_free_parts(struct rmg_map *m, rmg_context *ctx);
/* Appends an object (zeroed, id assigned, colour/creature/artifact -1); NULL on allocation
 * failure (error set). The pointer is valid until the next append. */
rmg__map_object *rmg__map_add_object(struct rmg_map *m, const char *key, rmg_map_object_kind kind, int x, int y,
                                     int z);
rmg__map_group *rmg__map_add_group(struct rmg_map *m, int zone, int range, int64_t target);
rmg_status rmg__map_warn(struct rmg_map *m, const char *fmt, ...) RMG__PRINTF(2, 3);
/* Marks an object's footprint on the tile layers (OBJECT|BLOCKED on blocked tiles, ENTRY on
 * visit tiles, tile_object). Returns false if a tile is outside the map. */
bool rmg__map_stamp_object(struct rmg_map *m, const rmg__map_object *o);
/* Iterates the footprint tiles of masks anchored at (x, y): calls fn for each set bit. */
void rmg__footprint_tiles(uint64_t mask, int x, int y, void (*fn)(void *user, int tx, int ty), void *user);
/* Cells of a footprint: 6 rows of 8 (bit row*8 + col; row 5, col 7 is the anchor). */
#define RMG__FOOTPRINT_CELLS 48
/* The tiles of mask's cells anchored at (x, y) on level z that lie on m, in the order
 * rmg__footprint_tiles visits them, into out; returns how many. *outside (may be NULL): whether
 * a cell lies off the map. A plain loop for the checks that read every object's tiles. */
size_t rmg__footprint_indices(const struct rmg_map *m, uint64_t mask, int x, int y, int z,
                              uint32_t out[RMG__FOOTPRINT_CELLS], bool *outside);
/* ---- the canonical serialization (map_json.c): the JSON document and the fingerprint ------- */

/* The JSON document (docs/map-json.md); with_fingerprint false gives the canonical form that is
 * hashed. */
rmg_status rmg__map_json(const struct rmg_map *m, bool with_fingerprint, char **out, size_t *len);
/* A map document read back (map_json_read.c): tiles, zones and objects, what the tools that
 * analyse finished maps need; RMG_ERR_PARSE / RMG_ERR_INVALID_DATA with the place. */
rmg_status rmg__map_from_json(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_map **out);
rmg_status rmg__map_load_json(rmg_context *ctx, const char *path, struct rmg_map **out);
/* XXH3-64 of the canonical serialization; RMG_ERR_NOMEM possible. */
rmg_status rmg__map_fingerprint(const struct rmg_map *m, uint64_t *out);
/* The map's fingerprint, computed on the first call and kept. */
uint64_t rmg__map_fingerprint_of(const struct rmg_map *m);
/* Key of a terrain id in the JSON contract's terrain_keys ("unknown" if out of range). */
const char *rmg__terrain_key(int terrain_id);
/* Faction key ("neutral" for RMG_FACTION_NEUTRAL), NULL when unknown. */
const char *rmg__faction_key(const struct rmg_content *c, int faction);
/* Appends a JSON string literal. */
void rmg__json_string(rmg__buf *b, const char *s);
/* Map validation run before a map is handed out (validate.c): the error names the stage
 * responsible for the first broken rule, so the driver can retry it. */
rmg_status rmg__map_validate_internal(const struct rmg_map *m, rmg_context *ctx);
/* True where a hero can stand or walk on land as the game decides it: the terrain is walkable
 * (not water, not rock) and no object's blocked mask covers the tile (an object's entry is
 * blocked unless its template leaves it passable). The passable layer of every export. */
bool rmg__map_tile_passable(const struct rmg_map *m, size_t t);
/* Whether object o's blocked mask covers tile t. */
bool rmg__map_object_blocks(const struct rmg_map *m, const rmg__map_object *o, size_t t);
/* Water no object blocks: a boat may stand there. */
bool rmg__map_free_water(const struct rmg_map *m, size_t t);
/* The tile where the game puts the boat a shipyard with this entry builds: the first free water
 * tile of twelve around the entry in the game's order (the two columns beside the three-tile
 * object, then the row below, then the row above); UINT32_MAX when none is. */
uint32_t rmg__map_boat_spot(const struct rmg_map *m, uint32_t entry);
/* Whether object o's visit mask covers tile t (one of its entries). */
bool rmg__map_object_visits(const struct rmg_map *m, const rmg__map_object *o, size_t t);
/* The stages' and the validator's notion: land a hero walks on or visits (not flagged blocked,
 * or an object's entry). */
bool rmg__map_tile_walkable(const struct rmg_map *m, size_t t);
/* Whether entity `index` of an artifact, spell, skill or hero kind is allowed on the map
 * (map_setup.c); -1 for another kind or an index the map has no flag for. */
int rmg__map_allowed(const struct rmg_map *m, rmg_content_kind kind, size_t index);

/* The object's class and subclass as the game knows them (map_class.c); false when the content
 * does not name them (a key of no content row, a placement without its creature or colour). */
bool rmg__map_object_class(const struct rmg_content *c, const rmg__map_object *o, int *cls, int *subclass);
/* The class and subclass an object read from a file names in its key when the ruleset does not
 * know it ("h3m_<class>_<subclass>", lib/export/h3m); false for any other key. */
bool rmg__map_file_class(const char *key, int *cls, int *subclass);
/* Whether the game lets a hero enter an object of class cls from the three tiles above its entry:
 * monsters, heroes, artifacts, resources and treasure (its editor groups 2-5) and the classes of
 * sea and pass-through objects (boats, buoys, flotsam, garrisons, border guards and gates,
 * campfires, scholars...); every other object only from its sides and below. */
bool rmg__map_visitable_from_top(int cls);
/* The content row of a map object key (object table first, then the map objects), NULL if none. */
const rmg__object_def *rmg__map_object_def(const struct rmg_content *c, const char *key);

/* ---- colours (map_colors.c) --------------------------------------------------------------- */

typedef struct rmg__teleport_color {
    const char *key;         /* map object key of the teleport */
    const char *name;
    int h3_class, subclass;  /* the colour: object class and subclass */
    int width;               /* tiles: 1 or 2 */
    const char *color;       /* lowercase colour word for exports ("green", "blue", ...) */
} rmg__teleport_color;

/* Land teleport colours in the order connections take them (mirror links should use the end
 * of the list, ZON-36): the two-way colours, then the one-way ones, whose two entrances make a
 * link when the map has no exit of the colour (they then lead to each other, ZON-36). One
 * colour, one link. */
const rmg__teleport_color *rmg__teleport_colors(size_t *count);
/* Whether the ruleset has the teleport of colour entry i (SoD lacks HotA's added colours). */
bool rmg__teleport_color_present(const struct rmg_content *c, size_t i);
/* The land teleport colours the ruleset has: the links monoliths can make on one map. */
size_t rmg__teleport_colors_present(const struct rmg_content *c);
/* The colour entry of a monolith object (class 45 for two-way keys, 43/44 one-way), NULL if
 * none. */
const rmg__teleport_color *rmg__teleport_color_of(const rmg__map_object *o);
/* Number of Border Guard / Keymaster's Tent colours (class 9/10 subclasses 0..7). */
#define RMG__KEY_COLORS 8
/* Keymaster colours used by border-guard connections (bit per colour), read from the map's
 * border-guard objects (CON-05, MIS-12: connections first). */
uint32_t rmg__map_key_colors_used(const struct rmg_map *m);
/* Lowercase colour name of a coloured object (monolith, border guard, tent), NULL if none. */
const char *rmg__color_name(const rmg__map_object *o);

/* ---- limits the stages and the validator share -------------------------------------------- */

/* Largest map side accepted. */
#define RMG__MAX_SIDE 1024

/* Objects a treasure group may hold (TRS-04/06; the objects stage fills groups up to it, the
 * validator checks it). */
#define RMG__TRS_MAX_OBJECTS 64

/* The stage's name as progress reports, errors and the CLI spell it ("select", "solve", ...;
 * map_stages.c), the label its retry and plugin seed streams derive from (frozen: "build" for
 * the connect stage), and the stage of a name (old name "build" too), -1 for none. */
const char *rmg__stage_name(rmg_stage_id id);
const char *rmg__stage_seed_label(rmg_stage_id id);
int rmg__stage_by_name(const char *name);
/* The map zone a mirror zone copies (WAT-03), 0 when it copies none (place stage's choice). */
int rmg__map_mirror_of(const struct rmg_map *m, int map_id);
/* Tiles (indexes) of a footprint mask of an object; returns the count, copies at most cap. */
size_t rmg__object_tiles(const struct rmg_map *m, const rmg__map_object *o, uint64_t mask, uint32_t *buf, size_t cap);
/* Keys of an object's concrete content (lib/objects/details.c), NULL where none: the spell of
 * content spell index `spell`, a scroll's spell, the quest artifact, the prison's hero, and a
 * Seer's Hut's reward kind ("creatures", "experience", "gold"). */
const char *rmg__spell_key(const struct rmg_map *m, long spell);
const char *rmg__object_spell_key(const struct rmg_map *m, const rmg__map_object *o);
const char *rmg__object_artifact_key(const struct rmg_map *m, const rmg__map_object *o);
const char *rmg__object_hero_key(const struct rmg_map *m, const rmg__map_object *o);
const char *rmg__object_reward_name(const struct rmg_map *m, const rmg__map_object *o);

#endif
