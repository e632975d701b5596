/*
 * The YAML schema of every entity kind: one table of fields per kind, read by the builder
 * (content_build.c) for parsing, validation, defaults, deep copies and reference resolution.
 */
#include <stddef.h>
#include <string.h>

#include "content/content_private.h"

#define BIG 999999999LL
#define BIG64 99999999999LL

static const char *const alignment_names[] = {"good", "evil", "neutral", NULL};
static const char *const artifact_class_names[] = {"treasure", "minor", "major", "relic", "special", NULL};
static const char *const water_rule_names[] = {"none", "only_water_maps", "no_water_maps", NULL};
static const char *const resource_names[] = {"wood", "mercury", "ore", "sulfur", "crystal", "gems", "gold", NULL};

/* Field constructors keep the tables readable. */
#define FIELD(n, t, st, m) .name = (n), .type = (t), .offset = offsetof(st, m)
#define F_STR(n, st, m, fl) {FIELD(n, RMG__F_STR, st, m), .flags = (fl)}
#define F_INT(n, st, m, lo, hi, d) {FIELD(n, RMG__F_INT, st, m), .min = (lo), .max = (hi), .def = (d)}
#define F_INTR(n, st, m, lo, hi) {FIELD(n, RMG__F_INT, st, m), .flags = RMG__REQUIRED, .min = (lo), .max = (hi)}
#define F_I64(n, st, m, lo, hi, d, w, fl) \
    {FIELD(n, RMG__F_INT64, st, m), .flags = (fl), .min = (lo), .max = (hi), .def = (d), .words = (w)}
#define F_BOOL(n, st, m) {FIELD(n, RMG__F_BOOL, st, m), .max = 1}
#define F_BOOLD(n, st, m, d) {FIELD(n, RMG__F_BOOL, st, m), .max = 1, .def = (d)}
#define F_ENUM(n, st, m, nm, d, fl) {FIELD(n, RMG__F_ENUM, st, m), .flags = (fl), .def = (d), .names = (nm)}
#define F_COLOR(n, st, m) {FIELD(n, RMG__F_COLOR, st, m), .max = 0xFFFFFF}
#define F_SCHOOLS(n, st, m, d) {FIELD(n, RMG__F_SCHOOLS, st, m), .max = 15, .def = (d)}
#define F_FOOT(n, st, m) {FIELD(n, RMG__F_FOOTPRINT, st, m)}
#define F_REF(n, st, m, fl, k, mode, ax, sl) \
    {FIELD(n, RMG__F_REF, st, m), .flags = (fl), .def = -1, .ref_kind = (k), .ref_mode = (mode), .aux = (ax), .slot = (sl)}

#define TABLE(t) t, RMG__ARRAY_LEN(t)
#define ARRAY(member) offsetof(struct rmg_content, member), offsetof(struct rmg_content, n_##member)

static const rmg__field terrain_fields[] = {
    F_STR("name", rmg__terrain, name, RMG__REQUIRED),
    F_STR("code", rmg__terrain, code, 0),
    F_INTR("id", rmg__terrain, id, 0, 255),
    F_BOOL("land", rmg__terrain, land),
    F_BOOL("surface", rmg__terrain, allowed_surface),
    F_BOOL("underground", rmg__terrain, allowed_underground),
    F_INT("move_cost", rmg__terrain, move_cost, 0, 1000, 0),
    F_COLOR("color", rmg__terrain, color_rgb),
};

static const rmg__field faction_fields[] = {
    F_STR("name", rmg__faction, name, RMG__REQUIRED),
    F_INTR("id", rmg__faction, id, 0, 31),
    F_REF("native_terrain", rmg__faction, native_terrain, 0, RMG_CONTENT_TERRAIN, RMG__REF_ID, -1, 0),
    F_ENUM("alignment", rmg__faction, alignment, alignment_names, RMG_ALIGN_NEUTRAL, 0),
    F_BOOL("prefer_underground", rmg__faction, prefer_underground),
    F_BOOLD("town", rmg__faction, is_town, 1),
};

static const rmg__field creature_fields[] = {
    F_STR("name", rmg__creature, name, RMG__REQUIRED),
    F_STR("plural", rmg__creature, plural, 0),
    F_INTR("id", rmg__creature, id, 0, 65535),
    F_REF("faction", rmg__creature, faction, RMG__REQUIRED, RMG_CONTENT_FACTION, RMG__REF_ID, -1, 0),
    F_INT("level", rmg__creature, level, 0, 7, 0),
    F_REF("upgrade_of", rmg__creature, upgrade_of, 0, RMG_CONTENT_CREATURE, RMG__REF_INDEX, -1, 1),
    F_INT("ai_value", rmg__creature, ai_value, 0, 10000000, 0),
    F_INT("fight_value", rmg__creature, fight_value, 0, 10000000, 0),
    F_INT("growth", rmg__creature, growth, 0, 10000, 0),
    F_INT("horde_growth", rmg__creature, horde_growth, 0, 10000, 0),
    F_INT("map_min", rmg__creature, map_min, 0, 100000, 0),
    F_INT("map_max", rmg__creature, map_max, 0, 100000, 0),
    F_BOOL("special", rmg__creature, special),
};

#define OBJ_WORDS_MAX (RMG__W_UNLIMITED | RMG__W_RULE | RMG__W_NA)
static const rmg__field object_fields[] = {
    F_STR("name", rmg__object_def, name, RMG__REQUIRED),
    F_STR("name_ru", rmg__object_def, name_ru, 0),
    F_STR("family", rmg__object_def, family, RMG__REQUIRED),
    F_I64("value", rmg__object_def, value, 0, BIG64, RMG__NA, RMG__W_FORMULA | RMG__W_NA, RMG__REQUIRED_CONTENT),
    F_I64("frequency", rmg__object_def, frequency, 0, BIG, RMG__NA, RMG__W_NA, RMG__REQUIRED_CONTENT),
    F_I64("max_map", rmg__object_def, max_map, 0, BIG, RMG__NA, OBJ_WORDS_MAX, RMG__REQUIRED_CONTENT),
    F_BOOL("max_map_fixed", rmg__object_def, max_map_fixed),
    F_I64("max_zone", rmg__object_def, max_zone, 0, BIG, RMG__NA, OBJ_WORDS_MAX, RMG__REQUIRED_CONTENT),
    F_BOOL("max_zone_fixed", rmg__object_def, max_zone_fixed),
    F_REF("terrains", rmg__object_def, terrains, RMG__REQUIRED_CONTENT, RMG_CONTENT_TERRAIN, RMG__REF_MASK,
          (long)offsetof(rmg__object_def, terrains_na), 0),
    F_BOOL("banned", rmg__object_def, banned_by_default),
    F_STR("notes", rmg__object_def, notes, 0),
    F_INT("class", rmg__object_def, map_class, -1, 65535, -1),
    F_INT("subclass", rmg__object_def, map_subclass, -1, 65535, -1),
    F_STR("def", rmg__object_def, def, 0),
    F_FOOT("footprint", rmg__object_def, footprint),
    F_REF("footprint_terrains", rmg__object_def, footprint.terrains, 0, RMG_CONTENT_TERRAIN, RMG__REF_MASK, -1, 1),
    F_I64("amount", rmg__object_def, amount, 0, BIG64, -1, 0, 0),
    F_INT("spell_level", rmg__object_def, spell_level, 1, 6, -1),
    F_INT("spell_level_max", rmg__object_def, spell_level_max, 1, 5, -1),
    F_SCHOOLS("schools", rmg__object_def, school_mask, -1),
    F_ENUM("resource", rmg__object_def, resource, resource_names, -1, 0),
    F_BOOL("never_grouped", rmg__object_def, never_grouped),
    F_REF("creatures", rmg__object_def, creatures, 0, RMG_CONTENT_CREATURE, RMG__REF_LIST,
          (long)offsetof(rmg__object_def, n_creatures), 2),
};

static const rmg__field artifact_fields[] = {
    F_STR("name", rmg__artifact, name, RMG__REQUIRED),
    F_INTR("id", rmg__artifact, id, 0, 65535),
    F_ENUM("class", rmg__artifact, cls, artifact_class_names, 0, RMG__REQUIRED),
    F_BOOL("combination", rmg__artifact, combination),
    F_REF("part_of", rmg__artifact, part_of, 0, RMG_CONTENT_ARTIFACT, RMG__REF_INDEX, -1, 0),
};

static const rmg__field spell_fields[] = {
    F_STR("name", rmg__spell, name, RMG__REQUIRED),
    F_INTR("id", rmg__spell, id, 0, 65535),
    F_INT("level", rmg__spell, level, 0, 5, 0),
    F_SCHOOLS("schools", rmg__spell, schools, 0),
    F_BOOL("adventure", rmg__spell, adventure),
    F_BOOLD("learnable", rmg__spell, learnable, 1),
};

static const rmg__field skill_fields[] = {
    F_STR("name", rmg__skill, name, RMG__REQUIRED),
    F_INTR("id", rmg__skill, id, 0, 65535),
};

static const rmg__field hero_fields[] = {
    F_STR("name", rmg__hero, name, RMG__REQUIRED),
    F_INTR("id", rmg__hero, id, 0, 65535),
    F_REF("faction", rmg__hero, faction, RMG__REQUIRED, RMG_CONTENT_FACTION, RMG__REF_ID, -1, 0),
    F_STR("class", rmg__hero, hero_class, 0),
    F_BOOL("campaign_only", rmg__hero, campaign_only),
    F_ENUM("water", rmg__hero, water_rule, water_rule_names, 0, 0),
};

const rmg__kind_desc rmg__kinds[RMG_CONTENT_KIND_COUNT] = {
    [RMG_CONTENT_TERRAIN] = {"terrains", "terrain", sizeof(rmg__terrain), ARRAY(terrains),
                             (long)offsetof(rmg__terrain, id), (long)offsetof(rmg__terrain, is_hota),
                             TABLE(terrain_fields), 0, false},
    [RMG_CONTENT_FACTION] = {"factions", "faction", sizeof(rmg__faction), ARRAY(factions),
                             (long)offsetof(rmg__faction, id), (long)offsetof(rmg__faction, is_hota),
                             TABLE(faction_fields), 1, false},
    [RMG_CONTENT_CREATURE] = {"creatures", "creature", sizeof(rmg__creature), ARRAY(creatures),
                              (long)offsetof(rmg__creature, id), (long)offsetof(rmg__creature, is_hota),
                              TABLE(creature_fields), 2, false},
    [RMG_CONTENT_OBJECT] = {"objects", "object", sizeof(rmg__object_def), ARRAY(objects), -1,
                            (long)offsetof(rmg__object_def, is_hota), TABLE(object_fields), 3, true},
    [RMG_CONTENT_MAP_OBJECT] = {"map_objects", "map object", sizeof(rmg__object_def), ARRAY(map_objects), -1,
                                (long)offsetof(rmg__object_def, is_hota), TABLE(object_fields), 3, false},
    [RMG_CONTENT_ARTIFACT] = {"artifacts", "artifact", sizeof(rmg__artifact), ARRAY(artifacts),
                              (long)offsetof(rmg__artifact, id), (long)offsetof(rmg__artifact, is_hota),
                              TABLE(artifact_fields), 1, false},
    [RMG_CONTENT_SPELL] = {"spells", "spell", sizeof(rmg__spell), ARRAY(spells), (long)offsetof(rmg__spell, id),
                           (long)offsetof(rmg__spell, is_hota), TABLE(spell_fields), 0, false},
    [RMG_CONTENT_SKILL] = {"skills", "skill", sizeof(rmg__skill), ARRAY(skills), (long)offsetof(rmg__skill, id),
                           (long)offsetof(rmg__skill, is_hota), TABLE(skill_fields), 0, false},
    [RMG_CONTENT_HERO] = {"heroes", "hero", sizeof(rmg__hero), ARRAY(heroes), (long)offsetof(rmg__hero, id),
                          (long)offsetof(rmg__hero, is_hota), TABLE(hero_fields), 1, false},
};

void *rmg__content_array(const struct rmg_content *c, int kind)
{
    void *p;
    memcpy(&p, (const char *)c + rmg__kinds[kind].arr_off, sizeof p);
    return p;
}

size_t rmg__content_count_of(const struct rmg_content *c, int kind)
{
    size_t n;
    memcpy(&n, (const char *)c + rmg__kinds[kind].cnt_off, sizeof n);
    return n;
}

const char *rmg__content_key_at(const struct rmg_content *c, int kind, size_t i)
{
    const unsigned char *e = (const unsigned char *)rmg__content_array(c, kind) + i * rmg__kinds[kind].elem_size;
    char *key;
    memcpy(&key, e, sizeof key);
    return key;
}
