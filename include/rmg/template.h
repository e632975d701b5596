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
    RMG_WATER_ISLANDS = 2,
    /* Since 0.5.0, and rmg_generate_options_init's default: the template's own choice, like its
     * size, levels and players: the first level its water filter accepts, in the order none,
     * normal, islands (HotA's h3t filter, VCMI's allowedWaterContent); none for a template that
     * accepts any. Resolved per template before anything reads it: a map's options
     * (rmg_map_options) hold the level used, never this value. Only options take it. */
    RMG_WATER_TEMPLATE = 3
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

/* A connection's road setting (CON-14..18). Since 0.6.0 its values are RMG_ROAD_SETTING_*:
 * RMG_ROAD_* are the road types of rmg/finish.h (rmg_road_type). */
typedef enum rmg_road_setting {
    RMG_ROAD_SETTING_FORBIDDEN = 0,
    RMG_ROAD_SETTING_RANDOM = 1,
    RMG_ROAD_SETTING_MANDATORY = 2   /* order matters: CON-18 merges by maximum */
} rmg_road_setting;
/* Deprecated since 0.6.0: the road settings' old names (same values). */
#define RMG_ROAD_FORBIDDEN RMG_ROAD_SETTING_FORBIDDEN
#define RMG_ROAD_RANDOM RMG_ROAD_SETTING_RANDOM
#define RMG_ROAD_MANDATORY RMG_ROAD_SETTING_MANDATORY

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

/* ======================================================================================
 * Public API (appended; the enums above keep their values).
 *
 * Handles: a pack owns everything in it. Templates, zones and connections are addressed by
 * index (t, z, c) rather than by pointer, so adding parts never invalidates what a host holds.
 * Strings returned by accessors stay valid until the pack is changed or destroyed.
 * Masks: faction masks use bit (1u << faction id) with the rmg_faction_id values of
 * rmg/content.h (bit 31 = neutral); terrain masks use (1u << rmg_terrain_id); water masks
 * (1u << rmg_water_level). A mask of 0 means "unrestricted" unless said otherwise.
 * ====================================================================================== */

/* "Default" and "unlimited" markers of rule parameters (RUL-06/07). */
#define RMG_RULE_PARAM_DEFAULT INT64_MIN
#define RMG_RULE_PARAM_UNLIMITED (-1)

/* ---- loading, saving, lifetime ---------------------------------------------------------- */

/* Reads a template pack. RMG_FORMAT_AUTO looks at the content: an h3t first cell "Pack" is
 * HotA, "Map" is SoD, a leading '{' is VCMI JSON, anything else is native YAML. */
RMG_API rmg_status rmg_pack_load(rmg_context *ctx, const char *path, rmg_template_format format,
                                 rmg_pack **out);
/* Same from memory; `name` is used in messages (may be NULL). data need not be NUL-terminated. */
RMG_API rmg_status rmg_pack_load_string(rmg_context *ctx, const char *data, size_t len, const char *name,
                                        rmg_template_format format, rmg_pack **out);
/* The library's built-in default pack (see docs/template-format.md). */
RMG_API rmg_status rmg_pack_builtin(rmg_context *ctx, rmg_pack **out);
/* An empty pack to fill with the builder functions below. */
RMG_API rmg_status rmg_pack_create(rmg_context *ctx, const char *name, rmg_pack **out);
/* No-op for NULL. */
RMG_API void rmg_pack_destroy(rmg_pack *pack);
/* Native YAML. rmg_pack_to_yaml hands out a NUL-terminated string allocated through the
 * pack's context: release it with rmg_free(ctx, str). */
RMG_API rmg_status rmg_pack_save_yaml(const rmg_pack *pack, const char *path);
RMG_API rmg_status rmg_pack_to_yaml(const rmg_pack *pack, char **str, size_t *len);

/* HotA .h3t (since 0.4.0): the pack as the tab-separated file HotA's template editor and game read
 * (docs/h3t-import.md, "Writing .h3t"), in a column layout of HotA 1.7 (11 towns) or 1.8 (12
 * towns, Bulwark). What the pack holds that no h3t column can (a template's player filter, water
 * and rock zone kinds, rules without an H3M class, ...) is left out, one call of `warn` each. */
typedef enum rmg_h3t_version {
    RMG_H3T_AUTO = 0,   /* the layout of the h3t file the pack was read from, else 1.8 */
    RMG_H3T_1_7 = 1,    /* 11 towns (Factory), 18 zone options: HotA 1.7.2 and later */
    RMG_H3T_1_8 = 2     /* 12 towns (Bulwark), the 1.8 extra token of object rules */
} rmg_h3t_version;

typedef void (*rmg_h3t_warn_fn)(void *user, const char *message);

typedef struct rmg_h3t_write_options {
    size_t struct_size;
    rmg_h3t_version version;
    rmg_h3t_warn_fn warn;   /* told what the file cannot hold; NULL: not told */
    void *warn_user;
} rmg_h3t_write_options;

RMG_API void rmg_h3t_write_options_init(rmg_h3t_write_options *options);
/* options may be NULL (AUTO, no warnings). rmg_pack_to_h3t hands out the bytes (NUL-terminated)
 * allocated through the pack's context: release them with rmg_free(ctx, str). */
RMG_API rmg_status rmg_pack_to_h3t(const rmg_pack *pack, const rmg_h3t_write_options *options, char **str,
                                   size_t *len);
RMG_API rmg_status rmg_pack_save_h3t(const rmg_pack *pack, const rmg_h3t_write_options *options, const char *path);

/* Warnings collected while loading (settings kept but not acted on, repaired input, ...). */
RMG_API size_t rmg_pack_warning_count(const rmg_pack *pack);
RMG_API const char *rmg_pack_warning(const rmg_pack *pack, size_t index); /* NULL if out of range */

/* ---- pack settings (PCK) ---------------------------------------------------------------- */

typedef struct rmg_pack_info {
    size_t struct_size;
    const char *name;               /* set: NULL keeps the current value */
    const char *description;        /* set: NULL keeps the current value */
    const char *tags;               /* set: NULL keeps the current value */
    const char *file;               /* source file, read-only (NULL when built in code) */
    rmg_template_format format;     /* what it was read from, read-only */
    int mirror;                     /* PCK-06 */
    int max_battle_rounds;          /* PCK-07, 0 = no limit */
    int forbid_hiring_heroes;       /* PCK-08 */
    uint32_t allowed_towns;         /* PCK-10, faction mask, 0 = all */
    size_t template_count;          /* read-only */
} rmg_pack_info;

RMG_API void rmg_pack_info_init(rmg_pack_info *info);
RMG_API rmg_status rmg_pack_get(const rmg_pack *pack, rmg_pack_info *out);
RMG_API rmg_status rmg_pack_set(rmg_pack *pack, const rmg_pack_info *info);
RMG_API size_t rmg_pack_template_count(const rmg_pack *pack);
/* Index of the template named `name` (RMG_ERR_NOT_FOUND if none). */
RMG_API rmg_status rmg_pack_find_template(const rmg_pack *pack, const char *name, size_t *index);

/* ---- per-item allow/ban overrides (PCK-09, TPL-07) -------------------------------------- */

typedef enum rmg_override_kind {
    RMG_OVERRIDE_HEROES = 0,          /* pack level: the template index is ignored */
    RMG_OVERRIDE_ARTIFACTS = 1,
    RMG_OVERRIDE_SPELLS = 2,
    RMG_OVERRIDE_SKILLS = 3,
    RMG_OVERRIDE_COMBO_ARTIFACTS = 4
} rmg_override_kind;

RMG_API size_t rmg_override_count(const rmg_pack *pack, size_t t, rmg_override_kind kind);
/* *allow: 1 allow ("+id"), 0 ban ("-id"). */
RMG_API rmg_status rmg_override_get(const rmg_pack *pack, size_t t, rmg_override_kind kind, size_t index,
                                    int *id, int *allow);
RMG_API rmg_status rmg_override_add(rmg_pack *pack, size_t t, rmg_override_kind kind, int id, int allow);

/* ---- templates (TPL) --------------------------------------------------------------------- */

typedef struct rmg_template_info {
    size_t struct_size;
    const char *name;               /* set: NULL keeps the current value */
    int min_size, max_size;         /* size codes (side/36)^2 x (2 if underground), PCK-02 */
    int min_humans, max_humans;     /* 0 = unrestricted bound */
    int min_players, max_players;   /* 0 = unrestricted bound */
    int special_weeks;              /* TPL-02 */
    int spell_research;             /* TPL-03 */
    int anarchy;                    /* TPL-06 */
    int rock_masses;                /* TPL-04 */
    double rock_radius;
    double zone_sparseness;         /* TPL-05 */
    uint32_t water_allowed;         /* water mask, 0 = any */
    size_t zone_count, connection_count, rule_count; /* read-only */
    int line, column;               /* where it was defined (0 unknown), read-only */
} rmg_template_info;

RMG_API void rmg_template_info_init(rmg_template_info *info);
RMG_API rmg_status rmg_template_get(const rmg_pack *pack, size_t t, rmg_template_info *out);
RMG_API rmg_status rmg_template_set(rmg_pack *pack, size_t t, const rmg_template_info *info);
/* Appends a template with the spec defaults; *index (may be NULL) receives its index. */
RMG_API rmg_status rmg_pack_add_template(rmg_pack *pack, const char *name, size_t *index);

/* ---- zones (ZON) ------------------------------------------------------------------------- */

/* Resource order of the mine arrays. */
typedef enum rmg_resource {
    RMG_RESOURCE_WOOD = 0, RMG_RESOURCE_MERCURY = 1, RMG_RESOURCE_ORE = 2, RMG_RESOURCE_SULFUR = 3,
    RMG_RESOURCE_CRYSTAL = 4, RMG_RESOURCE_GEMS = 5, RMG_RESOURCE_GOLD = 6, RMG_RESOURCE_COUNT = 7
} rmg_resource;

typedef struct rmg_zone_info {
    size_t struct_size;
    int id;                         /* zone number (unique in the template) */
    rmg_zone_kind kind;
    int owner;                      /* player 1..8 of a start zone, 0 none */
    double size;                    /* relative size (ZON-01), > 0 */
    int min_humans, max_humans, min_players, max_players; /* activity filter, 0 = unrestricted */
    rmg_zone_placement placement;
    int allow_noncoherent_roads, repulsion, neutral_only;
    int player_towns, player_castles, player_town_density, player_castle_density;
    int neutral_towns, neutral_castles, neutral_town_density, neutral_castle_density;
    int towns_same_type;
    uint32_t allowed_towns;         /* faction mask, 0 = unrestricted */
    int allowed_factions_set;       /* ZON-09: 0 = unset (follow towns) */
    uint32_t allowed_factions;
    int mines_min[RMG_RESOURCE_COUNT], mines_density[RMG_RESOURCE_COUNT];
    int terrain_match_town;
    uint32_t allowed_terrains;      /* terrain mask, 0 = unrestricted */
    rmg_monster_strength monster_strength;
    int monsters_match_town;
    uint32_t monster_factions;      /* faction mask incl. neutral bit, 0 = all */
    rmg_mood mood;
    int mood_value;                 /* for RMG_MOOD_EXACT */
    int join_percent;
    int join_only_for_money;
    int64_t treasure_min[3], treasure_max[3], treasure_density[3];
    int airship_min, airship_density;
    int64_t max_block_value;
    size_t rule_count, type_rule_count, mirror_link_count; /* read-only */
    int line, column;               /* read-only */
    /* Source columns kept verbatim but not acted on (NULL when absent), read-only. */
    const char *raw_min_objects, *raw_image, *raw_allowed_factions;
    /* Since 0.4.0: every town type is banned (when allowed_towns is 0): a zone without towns
     * then has a neutral faction with 25% and one of its terrain's towns with 75% (FAC-03). */
    int all_towns_banned;
} rmg_zone_info;

RMG_API void rmg_zone_info_init(rmg_zone_info *info);
RMG_API size_t rmg_template_zone_count(const rmg_pack *pack, size_t t);
/* Index of the zone whose number is `zone_id` (RMG_ERR_NOT_FOUND if none). */
RMG_API rmg_status rmg_template_find_zone(const rmg_pack *pack, size_t t, int zone_id, size_t *index);
/* Appends a zone with the spec defaults, number `zone_id` and `kind`. */
RMG_API rmg_status rmg_template_add_zone(rmg_pack *pack, size_t t, int zone_id, rmg_zone_kind kind,
                                         size_t *index);
RMG_API rmg_status rmg_zone_get(const rmg_pack *pack, size_t t, size_t z, rmg_zone_info *out);
RMG_API rmg_status rmg_zone_set(rmg_pack *pack, size_t t, size_t z, const rmg_zone_info *info);
/* Convenience setters for the most common settings. */
RMG_API rmg_status rmg_zone_set_size(rmg_pack *pack, size_t t, size_t z, double size);
RMG_API rmg_status rmg_zone_set_owner(rmg_pack *pack, size_t t, size_t z, int player);
RMG_API rmg_status rmg_zone_set_towns(rmg_pack *pack, size_t t, size_t z, int player_towns, int player_castles,
                                      int neutral_towns, int neutral_castles);
RMG_API rmg_status rmg_zone_set_mine(rmg_pack *pack, size_t t, size_t z, rmg_resource resource, int min,
                                     int density);
RMG_API rmg_status rmg_zone_set_treasure(rmg_pack *pack, size_t t, size_t z, int tier, int64_t min, int64_t max,
                                         int64_t density);
RMG_API rmg_status rmg_zone_set_monsters(rmg_pack *pack, size_t t, size_t z, rmg_monster_strength strength);

/* ---- connections (CON) ------------------------------------------------------------------- */

typedef struct rmg_connection_info {
    size_t struct_size;
    int zone_a, zone_b;             /* zone numbers */
    rmg_connection_type type;
    int64_t value;
    rmg_connection_placement placement;
    rmg_road_setting roads;
    int monolith_repulsion;
    int min_humans, max_humans, min_players, max_players; /* 0 = unrestricted */
    int line, column;               /* read-only */
} rmg_connection_info;

RMG_API void rmg_connection_info_init(rmg_connection_info *info);
RMG_API size_t rmg_template_connection_count(const rmg_pack *pack, size_t t);
/* Appends a standard connection between zone numbers a and b with guard value `value`. */
RMG_API rmg_status rmg_template_add_connection(rmg_pack *pack, size_t t, int zone_a, int zone_b, int64_t value,
                                               size_t *index);
RMG_API rmg_status rmg_connection_get(const rmg_pack *pack, size_t t, size_t c, rmg_connection_info *out);
RMG_API rmg_status rmg_connection_set(rmg_pack *pack, size_t t, size_t c, const rmg_connection_info *info);
RMG_API rmg_status rmg_connection_set_type(rmg_pack *pack, size_t t, size_t c, rmg_connection_type type);
RMG_API rmg_status rmg_connection_set_placement(rmg_pack *pack, size_t t, size_t c,
                                                rmg_connection_placement placement);
RMG_API rmg_status rmg_connection_set_roads(rmg_pack *pack, size_t t, size_t c, rmg_road_setting roads);

/* ---- object rules (RUL), type rules (ZON-10..12), mirror links (ZON-29..36) -------------- */

/* `zone` selects the list: RMG_TEMPLATE_LEVEL for the template's rules, else a zone index. */
#define RMG_TEMPLATE_LEVEL ((size_t)-1)

typedef struct rmg_rule_info {
    size_t struct_size;
    rmg_rule_op op;
    rmg_rule_target target;
    const char *object;             /* RMG_TARGET_OBJECT: object key */
    const char *family;             /* FAMILY / CREATURE / CREATURE_LEVEL / CUSTOM */
    const char *creature;           /* RMG_TARGET_CREATURE */
    int level;                      /* RMG_TARGET_CREATURE_LEVEL, 1..7 (-1 unset) */
    int64_t amount;                 /* custom variants (OBJ-15) */
    int spell_min, spell_max, schools;
    int64_t value, frequency, max_map, max_zone, extra; /* or RMG_RULE_PARAM_* */
    const char *raw;                /* the rule as written in the source, may be NULL */
    int line, column;               /* read-only */
} rmg_rule_info;

RMG_API void rmg_rule_info_init(rmg_rule_info *info);
RMG_API size_t rmg_rule_count(const rmg_pack *pack, size_t t, size_t zone);
RMG_API rmg_status rmg_rule_get(const rmg_pack *pack, size_t t, size_t zone, size_t index, rmg_rule_info *out);
RMG_API rmg_status rmg_rule_add(rmg_pack *pack, size_t t, size_t zone, const rmg_rule_info *rule);

typedef struct rmg_type_rule_info {
    size_t struct_size;
    rmg_type_rule_kind kind;
    int negate;
    int zone_a, town_a;             /* town -1 = the zone's player towns, k >= 0 neutral town k */
    int zone_b, town_b;
    const char *raw;
    int line, column;               /* read-only */
} rmg_type_rule_info;

RMG_API void rmg_type_rule_info_init(rmg_type_rule_info *info);
RMG_API size_t rmg_zone_type_rule_count(const rmg_pack *pack, size_t t, size_t z);
RMG_API rmg_status rmg_zone_type_rule_get(const rmg_pack *pack, size_t t, size_t z, size_t index,
                                          rmg_type_rule_info *out);
RMG_API rmg_status rmg_zone_type_rule_add(rmg_pack *pack, size_t t, size_t z, const rmg_type_rule_info *rule);

typedef struct rmg_mirror_link_info {
    size_t struct_size;
    rmg_teleport_kind surface_kind, underground_kind;
    int surface_color, underground_color; /* -1 for gates */
    int64_t value;
    int roads, monolith_repulsion;
    const char *raw;
    int line, column;               /* read-only */
} rmg_mirror_link_info;

RMG_API void rmg_mirror_link_info_init(rmg_mirror_link_info *info);
RMG_API size_t rmg_zone_mirror_link_count(const rmg_pack *pack, size_t t, size_t z);
RMG_API rmg_status rmg_zone_mirror_link_get(const rmg_pack *pack, size_t t, size_t z, size_t index,
                                            rmg_mirror_link_info *out);
RMG_API rmg_status rmg_zone_mirror_link_add(rmg_pack *pack, size_t t, size_t z,
                                            const rmg_mirror_link_info *link);

/* ---- validation ------------------------------------------------------------------------- */

typedef enum rmg_severity { RMG_SEVERITY_ERROR = 0, RMG_SEVERITY_WARNING = 1 } rmg_severity;

typedef struct rmg_validation rmg_validation;

typedef struct rmg_message {
    size_t struct_size;
    rmg_severity severity;
    const char *code;               /* stable short id, e.g. "dangling-zone" */
    const char *text;               /* full text with location, e.g. "a.yaml:12:5: template 'X': ..." */
    const char *file;               /* NULL when unknown */
    int line, column;               /* 0 when unknown (rows/columns for h3t) */
    long template_index;            /* -1 when not about one template */
    int zone;                       /* zone number, -1 when not about a zone */
    int connection;                 /* connection index, -1 when not about a connection */
} rmg_message;
RMG_API void rmg_message_init(rmg_message *info);

/* Checks the pack like a careful template editor. Returns RMG_OK when the check ran (even if
 * it found errors); the messages are in *out (free with rmg_validation_destroy). */
RMG_API rmg_status rmg_pack_validate(const rmg_pack *pack, rmg_validation **out);
/* The same checks for maps generated at one water level (since 0.4): on water levels also what
 * the guide warns about on water maps (WAT-01, PLC-17/18). rmg_pack_validate makes these checks
 * for the water levels a template's water list names. */
RMG_API rmg_status rmg_pack_validate_water(const rmg_pack *pack, rmg_water_level water, rmg_validation **out);
RMG_API size_t rmg_validation_count(const rmg_validation *v);
RMG_API size_t rmg_validation_error_count(const rmg_validation *v);
RMG_API rmg_status rmg_validation_get(const rmg_validation *v, size_t index, rmg_message *out);
RMG_API void rmg_validation_destroy(rmg_validation *v);

/* ---- selection (PCK-02) ----------------------------------------------------------------- */

struct rmg_generate_options; /* rmg/map.h */

/* Map-size code of a setup: (width/36) x (height/36) x (2 if levels == 2). */
RMG_API int rmg_size_code(int width, int height, int levels);
/* Picks at random (the context's "select" stream) among the templates whose filters accept the
 * setup: size, underground, players, humans and water; options->template_name picks by name.
 * RMG_ERR_NOT_FOUND with an explanation when none fits. It reads the filters only: rmg_generate
 * also resolves open options per template and leaves out templates with errors (rmg check). */
RMG_API rmg_status rmg_pack_select(rmg_context *ctx, const rmg_pack *pack,
                                   const struct rmg_generate_options *options, size_t *index);

#ifdef __cplusplus
}
#endif

#endif
