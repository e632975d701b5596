/*
 * Internal template model (spec sections PCK, TPL, ZON, CON, RUL, MIS, WAT). One model for every
 * input format (native YAML, HotA h3t, SoD rmg.txt, VCMI JSON). The template module owns this
 * file; importers fill it, later stages read it. Fields may be appended, never reordered.
 *
 * Memory: a pack owns an arena; every string and array of its templates lives in it.
 * Enums shared with the public API are in include/rmg/template.h.
 */
#ifndef RMG_TEMPLATE_MODEL_H
#define RMG_TEMPLATE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "rmg/template.h"

/* Where a setting came from, for messages ("file:line:col" or "row R, column C"). */
typedef struct rmg__srcloc {
    int line;    /* 1-based line (YAML/JSON) or row (h3t); 0 unknown */
    int column;  /* 1-based */
} rmg__srcloc;

/* A value that may be "default" (RUL-06/07) or "unlimited". */
#define RMG__PARAM_DEFAULT INT64_MIN
#define RMG__PARAM_UNLIMITED (-1)

/* Per-item allow/ban overrides (heroes, artifacts, spells, skills, towns). Applied in order. */
typedef struct rmg__override {
    int id;          /* h3m id of the item */
    bool allow;      /* true: allow ("+"), false: ban ("-") */
} rmg__override;

typedef struct rmg__override_list {
    rmg__override *items;
    size_t count;
} rmg__override_list;

/* Object rule (RUL-02/03). The target is kept in content terms (object keys, families,
 * creature keys) so any format maps onto it; h3t class ids are resolved by the importer. */
typedef struct rmg__rule {
    rmg_rule_op op;                 /* forbid / allow_edit */
    rmg_rule_target target;         /* what the rule addresses */
    char *object;                   /* RMG_TARGET_OBJECT: object key (object-defaults.tsv) */
    char *family;                   /* FAMILY / CREATURE / CREATURE_LEVEL / CUSTOM: family key */
    char *creature;                 /* RMG_TARGET_CREATURE: creature key */
    int level;                      /* RMG_TARGET_CREATURE_LEVEL: creature level 1..7 */
    /* RMG_TARGET_CUSTOM (OBJ-15): a variant with explicit parameters. */
    int64_t amount;                 /* gold / experience / prison experience / tent value */
    int spell_min, spell_max, schools; /* custom spell Pandora */
    /* allow_edit parameters; RMG__PARAM_DEFAULT = "d", RMG__PARAM_UNLIMITED = "n". */
    int64_t value, frequency, max_map, max_zone;
    int64_t extra;                  /* 1.8 extra field (meaning unknown), RMG__PARAM_DEFAULT if absent */
    char *raw;                      /* the rule as written (for messages and round trips), may be NULL */
    rmg__srcloc loc;
} rmg__rule;

typedef struct rmg__rule_list {
    rmg__rule *items;
    size_t count;
} rmg__rule_list;

/* Type-selection rule (ZON-10..12). A town reference is (zone, town) with town = -1 for
 * "all player towns of the zone", k >= 0 for neutral town #k, RMG__TOWN_REF_ALL for every town
 * of the zone and RMG__TOWN_REF_NEUTRAL_ALL for every neutral town of it (h3t hints, VCMI's
 * townsAreSameType). */
#define RMG__TOWN_REF_ALL (-2)
#define RMG__TOWN_REF_NEUTRAL_ALL (-3)
typedef struct rmg__type_rule {
    rmg_type_rule_kind kind;
    bool negate;                    /* "!=" / "not native" / "does not match" */
    int zone_a, town_a;             /* subject */
    int zone_b, town_b;             /* object (town_b unused for terrain/faction-of-zone refs) */
    char *raw;
    rmg__srcloc loc;
} rmg__type_rule;

typedef struct rmg__player_filter {   /* zone / connection restrictions (PCK-02) */
    int min_human, max_human, min_total, max_total; /* 0 = unrestricted bound */
} rmg__player_filter;

typedef struct rmg__mirror_link {    /* ZON-29..36 */
    rmg_teleport_kind surface_kind, underground_kind;
    int surface_color, underground_color;  /* monolith colour / subtype index; -1 for gates */
    int64_t value;
    bool roads;
    bool monolith_repulsion;
    char *raw;
    rmg__srcloc loc;
    /* The link's place among the template's connection rows of an h3t file (0-based; links share
     * those rows with the connections) and the player restrictions written on it: kept for the
     * h3t writer, not acted on. */
    int h3t_row;
    rmg__player_filter players;
} rmg__mirror_link;

typedef struct rmg__treasure {        /* TRS-01 */
    int64_t min, max;
    int64_t density;
} rmg__treasure;

typedef struct rmg__zone {
    int id;                          /* the zone number (PLC-01) */
    rmg_zone_kind kind;
    int owner;                       /* player 1..8 for start zones, 0 none */
    double size;                     /* relative size (ZON-01) */
    rmg__player_filter players;
    rmg_zone_placement placement;
    bool allow_noncoherent_roads, repulsion, neutral_only;
    /* Towns (MIS-06..09). */
    int player_towns, player_castles, player_town_density, player_castle_density;
    int neutral_towns, neutral_castles, neutral_town_density, neutral_castle_density;
    bool towns_same_type;
    uint32_t allowed_towns;          /* faction-id mask; 0 = unrestricted */
    bool allowed_factions_set;
    uint32_t allowed_factions;       /* ZON-09 */
    /* Mines per resource (wood, mercury, ore, sulfur, crystal, gems, gold). */
    int mines_min[7], mines_density[7];
    /* Terrain. */
    bool terrain_match_town;
    uint32_t allowed_terrains;       /* terrain-id mask; 0 = unrestricted */
    /* Monsters (ZON-23..28). */
    rmg_monster_strength monster_strength;
    bool monsters_match_town;
    uint32_t monster_factions;       /* faction-id mask incl. RMG_FACTION_NEUTRAL bit; 0 = all */
    rmg_mood mood;
    int mood_value;                  /* RMG_MOOD_EXACT */
    int join_percent;                /* 25, 50, 75, 100 */
    bool join_only_for_money;
    rmg__treasure treasure[3];
    rmg__rule_list rules;            /* zone-level object rules, in order */
    int airship_min, airship_density;
    rmg__type_rule *type_rules;  size_t n_type_rules;
    rmg__mirror_link *mirror_links; size_t n_mirror_links;
    int64_t max_block_value;         /* h3t 1.7.2 "Max block value"; 0 = unset (not acted on) */
    char *min_objects_raw, *image_raw, *allowed_factions_raw; /* kept verbatim, not acted on */
    rmg__srcloc loc;
    /* Every town type banned (FAC-03's third branch: a zone without towns then has a neutral
     * faction with 25% and one of its terrain's towns with 75%); meaningful when allowed_towns
     * is 0. The h3t reader sets it for a zone with no town flag. */
    bool all_towns_banned;
} rmg__zone;

typedef struct rmg__connection {
    int zone_a, zone_b;              /* zone ids */
    rmg_connection_type type;
    int64_t value;
    rmg_connection_placement placement;
    rmg_road_setting roads;
    bool monolith_repulsion;
    rmg__player_filter players;
    rmg__srcloc loc;
} rmg__connection;

typedef struct rmg__template {
    char *name;
    /* Filters (PCK-02): map size codes (side/36)^2 x (2 if underground), players. */
    int min_size, max_size;
    rmg__player_filter players;      /* derived from zones when the format has none */
    /* TPL settings. */
    bool special_weeks, spell_research, anarchy;
    bool rock_masses;
    double rock_radius;
    double zone_sparseness;
    rmg__override_list artifacts, spells, skills, combo_artifacts;
    rmg__rule_list rules;            /* template-level object rules, in order */
    rmg__zone *zones;               size_t n_zones;
    rmg__connection *connections;   size_t n_connections;
    uint32_t water_allowed;          /* bit per rmg_water_level the template accepts; 0 = any */
    rmg__srcloc loc;
    /* Set by a reader when the file was damaged inside this template (a truncated last row):
     * what happened and where; `rmg check` reports it as an error. NULL when whole. */
    char *damage;
    rmg__srcloc damage_loc;
} rmg__template;

/* The seven field counts of row 4 of an h3t file, its column layout (spec §2): towns, terrains,
 * zone types, pack columns, new map, zone and connection columns. */
typedef struct rmg__h3t_counts {
    int towns, terrains, zone_types, pack, map, zone, connection;
} rmg__h3t_counts;

/* A message of the load with the place it is about (0 when unknown) and its text without that
 * place; a load error also keeps its status. */
typedef struct rmg__load_note {
    rmg__srcloc loc;
    rmg_status status;               /* RMG_OK for a warning */
    char *text;
} rmg__load_note;

struct rmg_pack {
    rmg_context *ctx;
    rmg__arena arena;
    char *name;
    char *description;
    char *file;                      /* source file name, for messages (may be NULL) */
    rmg_template_format format;      /* what it was read from */
    bool mirror;
    int max_battle_rounds;           /* 0 = no limit */
    bool forbid_hiring_heroes;
    char *tags;
    rmg__override_list heroes;
    uint32_t allowed_towns;          /* faction-id mask; 0 = all (PCK-10) */
    rmg__template *templates;       size_t n_templates;
    /* Warnings collected while loading (settings kept but not acted on, etc.). */
    char **warnings;                size_t n_warnings;
    /* The layout of the h3t file the pack was read from, which the h3t writer keeps by default;
     * all 0 for other sources and for the writer's default layout (HotA 1.8). */
    rmg__h3t_counts h3t_columns;
    /* Every warning again with its place (warning_notes[i] is warnings[i]), and, for a pack read
     * to be checked (rmg__pack_load_checked), the defects the reader went on after. */
    rmg__load_note *warning_notes;
    rmg__load_note *load_errors;    size_t n_load_errors;
};

/* Appends a formatted warning to the pack (allocation failure is reported as RMG_ERR_NOMEM). */
rmg_status rmg__pack_warn(struct rmg_pack *pack, const char *fmt, ...) RMG__PRINTF(2, 3);
/* The same about a place, named in the warning's text as "<unit> LINE, column COLUMN" (unit "row"
 * for the tab-separated formats, "line" else) and also kept apart for rmg check. */
rmg_status rmg__pack_warn_at(struct rmg_pack *pack, const char *unit, int line, int column, const char *fmt, ...)
    RMG__PRINTF(5, 6);
/* Records the context's current error (a defect of the input) as a load error of the pack, so a
 * reader checking the file can go on after it. */
rmg_status rmg__pack_keep_error(struct rmg_pack *pack);

/* Creates an empty pack with defaults (owned arena). */
rmg_status rmg__pack_new(rmg_context *ctx, struct rmg_pack **out);
/* Frees the pack and everything in its arena; NULL is a no-op. */
void rmg__pack_free(struct rmg_pack *pack);
/* Appends a template / zone / connection / rule with spec defaults filled in. Pointers into
 * the arrays are invalidated by later appends of the same kind. */
rmg__template *rmg__pack_add_template(struct rmg_pack *pack);
rmg__zone *rmg__template_add_zone(struct rmg_pack *pack, rmg__template *t);
rmg__connection *rmg__template_add_connection(struct rmg_pack *pack, rmg__template *t);
rmg__rule *rmg__rules_add(struct rmg_pack *pack, rmg__rule_list *list);
/* All of these return NULL when the arena cannot grow (the caller reports RMG_ERR_NOMEM).
 * Arrays live in the pack's arena and grow geometrically; other arrays of the model (type
 * rules, mirror links, override lists) may use rmg__arena_grow below. */
void *rmg__arena_grow(rmg__arena *arena, void **items, size_t *count, size_t elem);

/* Spec defaults for a fresh zone (used by every importer). */
void rmg__zone_defaults(rmg__zone *z);
void rmg__template_defaults(rmg__template *t);

/* The zone's allowed town types among `universe` (a faction-id mask): its list, every type when
 * it has none, no type when it bans them all (rmg__zone.all_towns_banned). */
uint32_t rmg__zone_allowed_towns(const rmg__zone *z, uint32_t universe);

/* Index of the zone with number `id` in t->zones, or -1. */
long rmg__template_find_zone(const rmg__template *t, int id);

/* ---- appended by the template module ------------------------------------------------------ */

/* Spec defaults of a fresh connection / object rule (what the add functions above fill in). */
void rmg__connection_defaults(rmg__connection *c);
void rmg__rule_defaults(rmg__rule *r);

/* Whether a zone / connection takes part for a setup with `players` players of which `humans`
 * are human (the restriction filters; a 0 bound is open). */
bool rmg__filter_accepts(const rmg__player_filter *f, int players, int humans);
bool rmg__zone_active(const rmg__zone *z, int players, int humans);
bool rmg__connection_active(const rmg__connection *c, int players, int humans);

/* A zone (a start zone with an owner, with starts_only) that no chain of connections existing
 * for the setup (active, not fictive) joins to the first start zone (its id in *home_id, may be
 * NULL), 0 when every such zone is joined; it is reachable by boat or flying at best. parent:
 * scratch of t->n_zones entries. */
int rmg__template_unjoined_zone(const rmg__template *t, int players, int humans, bool starts_only, size_t *parent,
                                int *home_id);

struct rmg_generate_options;
/* PCK-02: picks the template for a setup at random (rng) among those that fit, or the one named
 * in options->template_name. RMG_ERR_NOT_FOUND with an explanation when none fits. */
rmg_status rmg__pack_select(const struct rmg_pack *pack, const struct rmg_generate_options *options, rmg_rng *rng,
                            const rmg__template **out);
/* The errors `rmg check` reports for template t of the pack, the pack's own included, without
 * its warnings (the generator refuses such a template): *out holds them (release with
 * rmg_validation_destroy; it may hold none). */
struct rmg_validation;
rmg_status rmg__template_errors(const struct rmg_pack *pack, size_t t, struct rmg_validation **out);

/* Whether template t accepts the setup; when not, `why` (may be NULL) says what failed. */
/* The water level `asked` stands for with template t: itself, or for RMG_WATER_TEMPLATE the
 * first level t's water filter accepts (none, normal, islands); a template without a filter
 * (any level) chooses by its name: islands when it says "island", normal when it says "water"
 * (case ignored), else none. */
rmg_water_level rmg__template_water(const rmg__template *t, rmg_water_level asked);
bool rmg__template_fits(const rmg__template *t, const struct rmg_generate_options *options, char *why,
                        size_t whylen);

/* Native YAML (lib/template/yaml_*.c). `name` is used in messages. */
rmg_status rmg__yaml_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out);
/* For rmg check: a bad key or value is kept in the pack's load_errors and left out; reading goes
 * on (a YAML syntax error still ends it). */
rmg_status rmg__yaml_read_checked(rmg_context *ctx, const char *data, size_t len, const char *name,
                                  struct rmg_pack **out);
/* Writes the pack as YAML into a NUL-terminated string allocated through the context. */
rmg_status rmg__yaml_write(const struct rmg_pack *pack, char **out, size_t *len);

/* Deep comparison of every template setting (locations, warnings, the source file name and
 * format are not settings and are ignored). On a difference, `why` gets its path. */
bool rmg__pack_equal(const struct rmg_pack *a, const struct rmg_pack *b, char *why, size_t whylen);

/* Size code of a setup (PCK-02). */
int rmg__size_code(int width, int height, int levels);
/* The user's name of a size code: "M", "XL+U", or "size code 12" for one no standard size has. */
const char *rmg__size_name(int code, char *buf, size_t len);
/* The standard sizes of the codes lo..hi: "sizes L, XL (size codes 9..16)". */
const char *rmg__size_range_name(int lo, int hi, char *buf, size_t len);
/* Tiles per unit of size code (a 36x36 level). */
#define RMG__SIZE_CODE_TILES (36 * 36)
/* A town covers at least this many tiles (its 5x3 footprint and entry): a map of n tiles holds
 * fewer than n / RMG__TOWN_TILES towns. The driver and `rmg check` refuse minimum counts above it. */
#define RMG__TOWN_TILES 16

/* A zone number and the zone's index in t->zones. The importers and the validator sort these
 * once per template so that id lookups stay O(log n) even for templates with very many zones. */
typedef struct rmg__zone_key {
    int id;
    size_t index;
} rmg__zone_key;

/* Fills keys[0 .. t->n_zones) with the template's zones sorted by (id, index): zones sharing an
 * id stay adjacent, the first defined first. */
void rmg__zone_keys_sort(const rmg__template *t, rmg__zone_key *keys);
/* The first-defined zone numbered `id` among n sorted keys, or NULL. */
const rmg__zone_key *rmg__zone_keys_find(const rmg__zone_key *keys, size_t n, int id);

#endif
