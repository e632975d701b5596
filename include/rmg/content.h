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

/* ---- the ruleset ---------------------------------------------------------------------------
 *
 * A context owns one ruleset (rmg_content). It is created on first use from the built-in
 * HotA ruleset (YAML embedded in the library). Hosts may switch to the built-in SoD ruleset,
 * replace the ruleset entirely with their own YAML (starting from an empty ruleset), or merge
 * YAML into it (add, change or remove entities). A failed load or merge leaves the previous
 * ruleset in place. A `const rmg_content *` stays valid until the next call that changes the
 * context's ruleset (load, merge, set_content_variant) or the context's destruction.
 *
 * YAML format (docs/content-format.md; the built-in ruleset is written in it): a mapping
 * whose keys are entity kinds (terrains, factions, creatures, objects, map_objects,
 * artifacts, spells, skills, heroes) or `ruleset`; each kind maps entity keys to field
 * mappings. In a merge, fields of
 * an existing entity change only where given; `remove: true` removes the entity; an unknown
 * key adds an entity (its required fields must be given). `hota: true` entities are skipped
 * by the SoD variant and `sod: {...}` holds field overrides for it. Errors name file:line:col.
 * A ruleset is read-only once built: several threads may read one; changing it (load, merge,
 * set_content_variant) needs the context to itself.
 */

typedef struct rmg_content rmg_content;

typedef enum rmg_content_kind {
    RMG_CONTENT_TERRAIN = 0,
    RMG_CONTENT_FACTION = 1,
    RMG_CONTENT_CREATURE = 2,
    RMG_CONTENT_OBJECT = 3,      /* zone content objects (the object-defaults table) */
    RMG_CONTENT_MAP_OBJECT = 4,  /* towns, monsters, gates, dwellings, obstacles, ... */
    RMG_CONTENT_ARTIFACT = 5,
    RMG_CONTENT_SPELL = 6,
    RMG_CONTENT_SKILL = 7,
    RMG_CONTENT_HERO = 8,
    RMG_CONTENT_KIND_COUNT = 9
} rmg_content_kind;

/* Limits of a YAML content input: bigger inputs are refused with RMG_ERR_LIMIT. */
#define RMG_CONTENT_MAX_BYTES (16u * 1024u * 1024u)
#define RMG_CONTENT_MAX_NODES 1000000u   /* YAML nodes after alias expansion */
#define RMG_CONTENT_MAX_DEPTH 32u

/* Special values of object value / frequency / max_map / max_zone. */
#define RMG_CONTENT_FORMULA (-1)      /* computed from creature data */
#define RMG_CONTENT_NA (-2)           /* not applicable */
#define RMG_CONTENT_UNLIMITED (-3)    /* no cap */
#define RMG_CONTENT_RULE (-4)         /* capped by a rule (prisons, keymaster tents) */

/* Replaces the context's ruleset with a built-in one (RMG_CONTENT_EMPTY: no entities). */
RMG_API rmg_status rmg_context_set_content_variant(rmg_context *ctx, rmg_content_variant variant);
/* The context's ruleset, loading the built-in HotA ruleset on first use. */
RMG_API rmg_status rmg_context_content(rmg_context *ctx, const rmg_content **out);

/* Replace the ruleset entirely by the YAML file / string (an empty ruleset plus this input),
 * read with the given variant's `hota`/`sod` rules. `name` labels error messages (may be NULL). */
RMG_API rmg_status rmg_content_load(rmg_context *ctx, const char *path, rmg_content_variant variant);
RMG_API rmg_status rmg_content_load_string(rmg_context *ctx, const char *yaml, size_t len, const char *name,
                                           rmg_content_variant variant);
/* Merge the YAML file / string into the current ruleset (add, change, remove entities). */
RMG_API rmg_status rmg_content_merge(rmg_context *ctx, const char *path);
RMG_API rmg_status rmg_content_merge_string(rmg_context *ctx, const char *yaml, size_t len, const char *name);

/* RMG_CONTENT_HOTA / RMG_CONTENT_SOD: which `hota`/`sod` rules the ruleset was read with. */
RMG_API rmg_content_variant rmg_content_get_variant(const rmg_content *content);
/* Ruleset name and version ("" when the YAML gave none). */
RMG_API const char *rmg_content_name(const rmg_content *content);
RMG_API const char *rmg_content_version(const rmg_content *content);
/* Number of entities of a kind (0 for an unknown kind). */
RMG_API size_t rmg_content_count(const rmg_content *content, rmg_content_kind kind);
/* Index of the entity with this key / map id (h3m id; objects: none), or -1. */
RMG_API long rmg_content_find(const rmg_content *content, rmg_content_kind kind, const char *key);
RMG_API long rmg_content_find_id(const rmg_content *content, rmg_content_kind kind, int id);
/* Key and display name of an entity (NULL if the index is out of range). */
RMG_API const char *rmg_content_key(const rmg_content *content, rmg_content_kind kind, size_t index);
RMG_API const char *rmg_content_entity_name(const rmg_content *content, rmg_content_kind kind, size_t index);

/* Per-index getters fill a versioned info struct: set struct_size to sizeof(the struct) as
 * the caller knows it; fields beyond it are not written. Strings belong to the content.
 * Ids are h3m ids; references are indices into the matching kind, or -1. */
typedef struct rmg_terrain_info {
    size_t struct_size;
    const char *key, *name, *code;
    int id;
    int land, allowed_surface, allowed_underground;
    int move_cost;           /* percent; 0 unknown */
    uint32_t color_rgb;      /* preview colour 0xRRGGBB */
    int is_hota;
} rmg_terrain_info;
RMG_API void rmg_terrain_info_init(rmg_terrain_info *info);

typedef struct rmg_faction_info {
    size_t struct_size;
    const char *key, *name;
    int id;                  /* h3m town id; RMG_FACTION_NEUTRAL for neutral */
    int native_terrain;      /* terrain id, -1 none */
    int alignment;           /* rmg_alignment */
    int prefer_underground, is_town, is_hota;
} rmg_faction_info;
RMG_API void rmg_faction_info_init(rmg_faction_info *info);

typedef struct rmg_creature_info {
    size_t struct_size;
    const char *key, *name, *plural;
    int id, faction, level;  /* faction: faction id */
    int upgrade_of;          /* creature index or -1 */
    int ai_value, fight_value, growth, horde_growth, map_min, map_max;
    int special, is_hota;
} rmg_creature_info;
RMG_API void rmg_creature_info_init(rmg_creature_info *info);

typedef struct rmg_object_def_info {
    size_t struct_size;
    const char *key, *name, *name_ru, *family, *notes, *def;
    int64_t value, frequency, max_map, max_zone; /* or RMG_CONTENT_* specials */
    int max_map_fixed, max_zone_fixed;
    uint32_t terrains;       /* bit n = terrain id n */
    int terrains_na, banned_by_default, never_grouped, is_hota;
    int map_class, map_subclass;
    uint64_t block, visit;   /* footprint: bit row*8+col of 8x6, anchor = row 5 col 7 */
    uint32_t footprint_terrains;
    int64_t amount;
    int spell_level, spell_level_max, school_mask, resource;
    int creatures[4];        /* creature indices */
    int n_creatures;
} rmg_object_def_info;
RMG_API void rmg_object_def_info_init(rmg_object_def_info *info);

typedef struct rmg_artifact_info {
    size_t struct_size;
    const char *key, *name;
    int id, cls;             /* rmg_artifact_class */
    int combination, part_of, is_hota;
} rmg_artifact_info;
RMG_API void rmg_artifact_info_init(rmg_artifact_info *info);

typedef struct rmg_spell_info {
    size_t struct_size;
    const char *key, *name;
    int id, level, schools;  /* schools: 1 air, 2 fire, 4 water, 8 earth */
    int adventure, learnable;
} rmg_spell_info;
RMG_API void rmg_spell_info_init(rmg_spell_info *info);

typedef struct rmg_skill_info {
    size_t struct_size;
    const char *key, *name;
    int id;
    int is_hota;
} rmg_skill_info;
RMG_API void rmg_skill_info_init(rmg_skill_info *info);

typedef struct rmg_hero_info {
    size_t struct_size;
    const char *key, *name, *hero_class;
    int id, faction;         /* faction id */
    int campaign_only, is_hota;
    int water_rule;          /* 0 none, 1 only on water maps, 2 only on maps without water */
} rmg_hero_info;
RMG_API void rmg_hero_info_init(rmg_hero_info *info);

/* RMG_ERR_NOT_FOUND when index is out of range, RMG_ERR_INVALID_ARG for NULL / small struct. */
RMG_API rmg_status rmg_content_terrain_get(const rmg_content *content, size_t index, rmg_terrain_info *out);
RMG_API rmg_status rmg_content_faction_get(const rmg_content *content, size_t index, rmg_faction_info *out);
RMG_API rmg_status rmg_content_creature_get(const rmg_content *content, size_t index, rmg_creature_info *out);
/* kind: RMG_CONTENT_OBJECT or RMG_CONTENT_MAP_OBJECT. */
RMG_API rmg_status rmg_content_object_get(const rmg_content *content, rmg_content_kind kind, size_t index,
                                      rmg_object_def_info *out);
RMG_API rmg_status rmg_content_artifact_get(const rmg_content *content, size_t index, rmg_artifact_info *out);
RMG_API rmg_status rmg_content_spell_get(const rmg_content *content, size_t index, rmg_spell_info *out);
RMG_API rmg_status rmg_content_skill_get(const rmg_content *content, size_t index, rmg_skill_info *out);
RMG_API rmg_status rmg_content_hero_get(const rmg_content *content, size_t index, rmg_hero_info *out);

/* CRE formulas (spec §8) on creature data: count for creature Pandora's boxes / Seer's Hut
 * rewards (CRE-06; the object holds min(count, 150)), dwelling value (CRE-02), creature
 * Pandora's box value (CRE-04), creature Seer's Hut artifact value (CRE-05). n = zones whose
 * main town is the creature's faction, N = zones with a town (N = 0: n/N counts as 0). */
RMG_API int rmg_creature_count(int level, int ai_value);
RMG_API double rmg_dwelling_value(int ai_value, int growth, int n, int N);
RMG_API double rmg_pandora_creature_value(int level, int ai_value, int n, int N);
RMG_API double rmg_seer_creature_value(int level, int ai_value, int n, int N);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_content_terrain_get")
rmg_status rmg_content_terrain(const rmg_content *content, size_t index, rmg_terrain_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_faction_get")
rmg_status rmg_content_faction(const rmg_content *content, size_t index, rmg_faction_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_creature_get")
rmg_status rmg_content_creature(const rmg_content *content, size_t index, rmg_creature_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_object_get")
rmg_status rmg_content_object(const rmg_content *content, rmg_content_kind kind, size_t index,
                              rmg_object_def_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_artifact_get")
rmg_status rmg_content_artifact(const rmg_content *content, size_t index, rmg_artifact_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_spell_get")
rmg_status rmg_content_spell(const rmg_content *content, size_t index, rmg_spell_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_skill_get")
rmg_status rmg_content_skill(const rmg_content *content, size_t index, rmg_skill_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_content_hero_get")
rmg_status rmg_content_hero(const rmg_content *content, size_t index, rmg_hero_info *out);

#ifdef __cplusplus
}
#endif

#endif
