/*
 * Internal content model: the game facts every stage reads. The content module owns this file;
 * other modules read the structs directly (fields may be appended, never reordered).
 *
 * Ids: terrains use their h3m ids (enum rmg_terrain_id), factions their h3m town ids
 * (RMG_FACTION_NEUTRAL for neutral), creatures/artifacts/spells/skills/heroes their h3m ids.
 * Arrays are indexed by position (index), not by id; use the lookups for id/key -> index.
 */
#ifndef RMG_CONTENT_INTERNAL_H
#define RMG_CONTENT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "rmg/content.h"

/* Special values of object_def.value / frequency / max_map / max_zone. */
#define RMG__VALUE_FORMULA (-1)   /* computed from creature data (CRE) */
#define RMG__NA (-2)              /* not applicable (mines, airship yard) */
#define RMG__UNLIMITED (-3)       /* no cap */
#define RMG__RULE (-4)            /* capped by a rule (prisons MIS-16, keymaster tents MIS-11) */

typedef struct rmg__terrain {
    char *key, *name, *code;
    int id;                      /* h3m id */
    bool land;                   /* every terrain but water (and rock) */
    bool allowed_surface, allowed_underground;
    int move_cost;
    bool is_hota;
    uint32_t color_rgb;          /* preview colour 0xRRGGBB */
} rmg__terrain;

typedef struct rmg__faction {
    char *key, *name;
    int id;                      /* h3m town id; RMG_FACTION_NEUTRAL for neutral */
    int native_terrain;          /* terrain id of the active variant */
    int alignment;               /* RMG_ALIGN_* */
    bool prefer_underground;
    bool is_hota;
    bool is_town;                /* false for neutral */
} rmg__faction;

typedef struct rmg__creature {
    char *key, *name, *plural;
    int id;                      /* h3m id */
    int faction;                 /* faction id (RMG_FACTION_NEUTRAL for neutrals) */
    int level;                   /* 1..7 */
    int upgrade_of;              /* creature index or -1 */
    int ai_value;                /* of the active variant (HotA or SoD) */
    int fight_value;
    int growth;
    int horde_growth;
    int map_min, map_max;        /* random-map stack bounds */
    bool special;                /* war machines, arrow tower: never generated */
    bool is_hota;
} rmg__creature;

typedef struct rmg__footprint {
    /* 8 columns x 6 rows, bit (row*8 + col), row 5 / col 7 = the object's anchor tile (its
     * bottom-right corner), as in H3M object templates. 1 in block = impassable,
     * 1 in visit = an entry (visitable) tile. */
    uint64_t block, visit;
    uint32_t terrains;           /* terrain-id mask the graphic exists for (0 = any) */
} rmg__footprint;

/* Objects: the rows of object-defaults.tsv in table order (content/objects.yaml). class/subclass
 * and the footprint come from ONE H3M template per object, chosen by scripts/gen-content.py:
 * SoD-edition templates first for SoD objects, the one whose terrain mask covers most of the
 * object's terrains (a land template for land objects); see docs/content-format.md. */
typedef struct rmg__object_def {
    char *key, *name, *name_ru, *family;
    int64_t value;               /* or RMG__VALUE_FORMULA / RMG__NA */
    int64_t frequency;           /* or RMG__NA */
    int64_t max_map, max_zone;   /* or RMG__UNLIMITED / RMG__RULE / RMG__NA */
    bool max_map_fixed, max_zone_fixed;
    uint32_t terrains;           /* terrain-id mask; 0 = never generated */
    bool terrains_na;            /* placed by separate rules (mines, airship yard) */
    bool banned_by_default;
    char *notes;
    int map_class, map_subclass; /* H3M class/subclass (-1 unknown) */
    rmg__footprint footprint;
    /* Family parameters, where they apply (-1 otherwise). */
    int64_t amount;              /* gold / experience / prison experience / tent value */
    int spell_level;             /* spell scrolls: 1..5, 6 = special; pandora spells: min level */
    int spell_level_max;         /* pandora spells */
    int school_mask;             /* pandora spells: 1 air, 2 fire, 4 water, 8 earth */
    int resource;                /* resources, warehouses, mines: 0 wood .. 6 gold */
    bool never_grouped;          /* OBJ-10: multi-entrance or no entrance; never guarded */
    /* Appended by the content module. */
    char *def;                   /* H3M template (.def) the footprint comes from, or NULL */
    bool is_hota;                /* not part of the SoD ruleset */
    int creatures[4];            /* creature indices: dwellings (1), composite dwellings (4) */
    int n_creatures;
} rmg__object_def;

typedef struct rmg__artifact {
    char *key, *name;
    int id;
    int cls;                     /* RMG_ARTIFACT_* */
    bool combination;            /* a combination artifact */
    int part_of;                 /* artifact index of the combination it belongs to, or -1 */
    bool is_hota;
} rmg__artifact;

typedef struct rmg__spell {
    char *key, *name;
    int id;
    int level;                   /* 1..5; 0 for special/creature spells */
    int schools;                 /* 1 air, 2 fire, 4 water, 8 earth */
    bool adventure, learnable;
    bool is_hota;                /* appended by the content module */
} rmg__spell;

typedef struct rmg__skill {
    char *key, *name;
    int id;                      /* also the game's skill-list order (MIS-29) */
    bool is_hota;                /* appended by the content module */
} rmg__skill;

typedef struct rmg__hero {
    char *key, *name;
    int id;
    int faction;
    char *hero_class;
    bool campaign_only;
    bool is_hota;
    int water_rule;              /* 0 none, 1 only on water maps, 2 only on maps without water */
} rmg__hero;

struct rmg_content {
    rmg_context *ctx;            /* allocator owner */
    rmg__arena arena;            /* every string and array of the content lives here */
    int variant;                 /* RMG_CONTENT_HOTA or RMG_CONTENT_SOD */
    rmg__terrain *terrains;      size_t n_terrains;
    rmg__faction *factions;      size_t n_factions;
    rmg__creature *creatures;    size_t n_creatures;
    rmg__object_def *objects;    size_t n_objects;
    rmg__artifact *artifacts;    size_t n_artifacts;
    rmg__spell *spells;          size_t n_spells;
    rmg__skill *skills;          size_t n_skills;
    rmg__hero *heroes;           size_t n_heroes;
    void *index;                 /* lookup tables (content module private) */
    /* Appended by the content module. */
    /* Non-content map objects other stages place (towns, monsters, monoliths, gates, guards,
     * huts, shipyards, resources, mines, one entry per creature dwelling variant with
     * family "creature_dwelling" and creatures[0] = the creature, decorative obstacles with
     * family "obstacle" and `terrains` = the terrains they decorate). Same struct as objects;
     * value/frequency/limits are RMG__NA there. */
    rmg__object_def *map_objects; size_t n_map_objects;
    char *name, *version;        /* ruleset name and version (may be NULL for host content) */
    /* References (core.h "Lifetimes"): the context's while it is the context's ruleset, and
     * one for each object list and solve result read through it, so replacing the context's
     * ruleset (rmg_content_load, rmg_context_set_content_variant) frees it only after them. */
    atomic_int refs;
    /* Issue 30: the keys the variant left out (HotA entities of a SoD ruleset, `hota: true`) per
     * kind, and the families of the left-out objects. A template rule naming one changes nothing
     * on this game's maps: template validation drops it with a warning instead of refusing the
     * template. */
    const char **left_out[RMG_CONTENT_KIND_COUNT];
    size_t n_left_out[RMG_CONTENT_KIND_COUNT];
    const char **left_out_families;
    size_t n_left_out_families;
};

/* Whether the variant left out entity `key` of `kind` (a HotA entity of a SoD ruleset). */
bool rmg__content_left_out(const struct rmg_content *c, int kind, const char *key);
/* Whether `family` is the family of a left-out object (a family no object of the ruleset has is
 * then the left-out objects' only). */
bool rmg__content_family_left_out(const struct rmg_content *c, const char *family);

/* The context's content, loading the built-in HotA ruleset on first use. NULL on failure
 * (error set on ctx). */
const struct rmg_content *rmg__content_get(rmg_context *ctx);
/* The context's content as it is, NULL before any was loaded (loads nothing). */
const struct rmg_content *rmg__content_peek(const rmg_context *ctx);
/* A reference to c for an object that reads it after the call that made it (NULL stays NULL);
 * the object gives it back with rmg__content_release, which frees c after the last one (each
 * holder also holds a reference to the context whose allocator c uses). */
const struct rmg_content *rmg__content_retain(const struct rmg_content *c);
void rmg__content_release(const struct rmg_content *c);
/* Makes c the context's content without handing it over (the context will not free it; the
 * caller keeps it alive while the context uses it, holding a reference of its own: refs >= 1,
 * since the objects made meanwhile retain and release it); NULL takes it back. The content the context
 * had is not freed either, so lend only to a context that has none or had one lent. */
rmg_status rmg__content_lend(rmg_context *ctx, const struct rmg_content *c);

/* Lookups: index into the matching array, or -1. */
long rmg__content_find_object(const struct rmg_content *c, const char *key);
long rmg__content_find_creature(const struct rmg_content *c, const char *key);
long rmg__content_find_creature_id(const struct rmg_content *c, int h3m_id);
long rmg__content_find_faction(const struct rmg_content *c, const char *key);
long rmg__content_find_faction_id(const struct rmg_content *c, int id);
long rmg__content_find_terrain(const struct rmg_content *c, const char *key);
long rmg__content_find_terrain_id(const struct rmg_content *c, int id);
long rmg__content_find_artifact(const struct rmg_content *c, const char *key);
long rmg__content_find_artifact_id(const struct rmg_content *c, int id);
long rmg__content_find_spell(const struct rmg_content *c, const char *key);
long rmg__content_find_spell_id(const struct rmg_content *c, int id);
long rmg__content_find_skill(const struct rmg_content *c, const char *key);
long rmg__content_find_skill_id(const struct rmg_content *c, int id);
long rmg__content_find_hero(const struct rmg_content *c, const char *key);
long rmg__content_find_hero_id(const struct rmg_content *c, int id);
/* Object whose H3M class/subclass is (cls, sub); sub -1 = first of the class. */
long rmg__content_find_object_class(const struct rmg_content *c, int cls, int sub);

/* ---- appended by the content module ---------------------------------------------------- */

/* Map objects by key (see map_objects above): "town", "castle", "monster",
 * "monolith_two_way", "monolith_one_way_entrance", "monolith_one_way_exit",
 * "subterranean_gate", "border_guard", "border_gate", "keymaster_tent", "seer_hut",
 * "shipyard", "airship_yard", "resource_<wood|mercury|ore|sulfur|crystal|gems|gold>",
 * "mine_<sawmill|alchemists_lab|ore_pit|sulfur_dune|crystal_cavern|gem_pond|gold_mine>",
 * "dwelling_<creature>" (+ "_2", "_3" for further variants), "obstacle_<def>", and one entry
 * per colour (key = prefix + "_" + subclass): "monolith_two_way_<n>",
 * "monolith_one_way_entrance_<n>", "monolith_one_way_exit_<n>", "border_guard_<n>",
 * "border_gate_<n>", "keymaster_tent_<n>" (which colours exist depends on the variant; portals
 * are two tiles wide, sea portals stand on water). -1 if absent. */
long rmg__content_find_map_object(const struct rmg_content *c, const char *key);

/* CRE-06: creature count for creature Pandora's boxes and Seer's Hut rewards from the level
 * (1..7) and AI value (> 0), with the rounding rules; the value formulas use it as is, the
 * object holds min(c, 150) (CRE-07). Returns 0 for an invalid level or AI value. */
int rmg__creature_count(int level, int ai_value);
/* CRE-02: AI x (g x (1 + n/N) + n/2); N = 0 treats n/N as 0. */
double rmg__dwelling_value(int ai, int growth, int n, int N);
/* CRE-04: AI x count x (1 + n/N), count = rmg__creature_count(level, ai). */
double rmg__pandora_creature_value(int level, int ai, int n, int N);
/* CRE-05: (2 x AI x count x (1 + n/N) - 4000) / 3. */
double rmg__seer_creature_value(int level, int ai, int n, int N);

#endif
