/* Test fixture for the objects tests: a content built by hand from the shared
 * object-defaults.tsv (read at run time) and a few creatures, independent of the content module. */
#ifndef TEST_OBJECTS_FIXTURE_H
#define TEST_OBJECTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "rmg_test_tsv.h"
#include "content/content_internal.h"
#include "template/model.h"

static const char *const fx_terrain_names[] = {"dirt", "sand", "grass", "snow", "swamp", "rough",
                                               "subterranean", "lava", "water", "rock", "highlands", "wasteland"};

static uint32_t fx_terrains(const char *list)
{
    uint32_t mask = 0;
    for (int t = 0; t < 12; t++) {
        const char *p = list;
        size_t n = strlen(fx_terrain_names[t]);
        while ((p = strstr(p, fx_terrain_names[t])) != NULL) {
            bool start = p == list || p[-1] == ',';
            bool end = p[n] == 0 || p[n] == ',';
            if (start && end)
                mask |= 1u << t;
            p += n;
        }
    }
    return mask;
}

static char *fx_field(char **cursor)
{
    char *s = *cursor, *tab = strchr(s, '\t');
    if (tab) {
        *tab = 0;
        *cursor = tab + 1;
    } else {
        *cursor = s + strlen(s);
    }
    return s;
}

/* The amount a row carries (trailing number of pandora/seer keys; prisons by level). */
static int64_t fx_amount(const char *key)
{
    static const struct { const char *key; int64_t exp; } prisons[] = {
        {"prison_level_1", 0}, {"prison_level_5", 5000}, {"prison_level_10", 15000},
        {"prison_level_20", 90000}, {"prison_level_30", 500000}};
    for (size_t i = 0; i < sizeof prisons / sizeof prisons[0]; i++)
        if (strcmp(key, prisons[i].key) == 0)
            return prisons[i].exp;
    const char *u = strrchr(key, '_');
    if (u && (strncmp(key, "pandora_", 8) == 0 || strncmp(key, "seer_artifact_", 14) == 0 ||
              strncmp(key, "keymaster_tent_", 15) == 0) && u[1] >= '0' && u[1] <= '9')
        return strtoll(u + 1, NULL, 10);
    return -1;
}

static void fx_add_object(struct rmg_content *c, char *line)
{
    rmg__object_def *d = &c->objects[c->n_objects++];
    memset(d, 0, sizeof *d);
    char *cur = line;
    d->key = rmg__arena_strdup(&c->arena, fx_field(&cur));
    d->name = rmg__arena_strdup(&c->arena, fx_field(&cur));
    d->name_ru = rmg__arena_strdup(&c->arena, fx_field(&cur));
    d->family = rmg__arena_strdup(&c->arena, fx_field(&cur));
    d->value = rmg_test_tsv_object_number(fx_field(&cur));
    d->frequency = rmg_test_tsv_object_number(fx_field(&cur));
    d->max_map = rmg_test_tsv_object_number(fx_field(&cur));
    d->max_map_fixed = strcmp(fx_field(&cur), "yes") == 0;
    d->max_zone = rmg_test_tsv_object_number(fx_field(&cur));
    d->max_zone_fixed = strcmp(fx_field(&cur), "yes") == 0;
    const char *terr = fx_field(&cur);
    d->terrains_na = strcmp(terr, "n/a") == 0;
    d->terrains = strcmp(terr, "none") == 0 ? 0 : fx_terrains(terr);
    d->banned_by_default = strcmp(fx_field(&cur), "yes") == 0;
    d->notes = rmg__arena_strdup(&c->arena, fx_field(&cur));
    d->map_class = d->map_subclass = -1;
    d->amount = fx_amount(d->key);
    d->spell_level = d->spell_level_max = d->school_mask = -1;
    d->resource = -1;
    static const char *const res[] = {"wood", "mercury", "ore", "sulfur", "crystal", "gems", "gold"};
    static const char *const mines[] = {"mine_sawmill", "mine_alchemists_lab", "mine_ore_pit", "mine_sulfur_dune",
                                        "mine_crystal_cavern", "mine_gem_pond", "mine_gold_mine"};
    for (int r = 0; r < 7; r++) {
        char k[32];
        snprintf(k, sizeof k, "resource_%s", res[r]);
        if (strcmp(d->key, k) == 0 || strcmp(d->key, mines[r]) == 0)
            d->resource = r;
    }
    d->never_grouped = strstr(d->notes, "cannot be part of an object group") != NULL;
    /* Footprints: a 2x1 block with the entry at the anchor; mines and creature banks 3x2. */
    uint64_t anchor = (uint64_t)1 << 47, left = (uint64_t)1 << 46;
    d->footprint.visit = anchor;
    d->footprint.block = anchor | left;
    if (strcmp(d->family, "mine") == 0 || strcmp(d->family, "creature_bank") == 0)
        d->footprint.block = anchor | left | ((uint64_t)1 << 45) | ((uint64_t)7 << 37);
    if (strcmp(d->key, "grave") == 0)
        d->footprint.visit = 0;
}

typedef struct fx_creature {
    const char *key;
    int faction, level, ai, growth;
    bool upgrade;
} fx_creature;

static const fx_creature fx_creatures[] = {
    {"pikeman", RMG_FACTION_CASTLE, 1, 80, 14, false},    {"halberdier", RMG_FACTION_CASTLE, 1, 115, 14, true},
    {"griffin", RMG_FACTION_CASTLE, 3, 324, 7, false},    {"angel", RMG_FACTION_CASTLE, 7, 5019, 1, false},
    {"skeleton", RMG_FACTION_NECROPOLIS, 1, 60, 12, false}, {"vampire", RMG_FACTION_NECROPOLIS, 4, 555, 4, false},
    {"peasant", RMG_FACTION_NEUTRAL, 1, 15, 25, false},   {"stone_golem", RMG_FACTION_TOWER, 3, 250, 6, false},
    {"iron_golem", RMG_FACTION_TOWER, 3, 412, 6, true},   {"gold_golem", RMG_FACTION_NEUTRAL, 5, 600, 3, false},
    {"diamond_golem", RMG_FACTION_NEUTRAL, 6, 775, 2, false}, {"ballista", RMG_FACTION_NEUTRAL, 1, 600, 0, false},
    /* Synthetic creatures of the CRE-09 value examples. */
    {"syn_l1_ai50", RMG_FACTION_CASTLE, 1, 50, 10, false}, {"syn_l2_ai100", RMG_FACTION_CASTLE, 2, 100, 14, false},
};

static void fx_add_creatures(struct rmg_content *c)
{
    size_t n = sizeof fx_creatures / sizeof fx_creatures[0];
    c->creatures = rmg__arena_alloc(&c->arena, n * sizeof *c->creatures);
    assert_non_null(c->creatures);
    for (size_t i = 0; i < n; i++) {
        rmg__creature *cr = &c->creatures[i];
        cr->key = rmg__arena_strdup(&c->arena, fx_creatures[i].key);
        cr->name = cr->plural = cr->key;
        cr->id = (int)i;
        cr->faction = fx_creatures[i].faction;
        cr->level = fx_creatures[i].level;
        cr->upgrade_of = fx_creatures[i].upgrade ? (int)i - 1 : -1;
        cr->ai_value = fx_creatures[i].ai;
        cr->fight_value = fx_creatures[i].ai;
        cr->growth = fx_creatures[i].growth;
        cr->map_min = 10;
        cr->map_max = 20;
        cr->special = strcmp(cr->key, "ballista") == 0;
    }
    c->n_creatures = n;
}

static void fx_add_artifacts(struct rmg_content *c)
{
    static const char *const keys[] = {"a_treasure_1", "a_treasure_2", "a_treasure_3", "a_minor", "a_part"};
    size_t n = sizeof keys / sizeof keys[0];
    c->artifacts = rmg__arena_alloc(&c->arena, n * sizeof *c->artifacts);
    assert_non_null(c->artifacts);
    for (size_t i = 0; i < n; i++) {
        rmg__artifact *a = &c->artifacts[i];
        a->key = a->name = rmg__arena_strdup(&c->arena, keys[i]);
        a->id = (int)i;
        a->cls = i < 3 || i == 4 ? RMG_ARTIFACT_TREASURE : RMG_ARTIFACT_MINOR;
        a->part_of = i == 4 ? 0 : -1; /* a part of a combination: never a quest artifact */
    }
    c->n_artifacts = n;
}

static void fx_name_creatures(struct rmg_content *c, const char *key, const char *const *creatures, int n)
{
    for (size_t i = 0; i < c->n_objects; i++) {
        if (strcmp(c->objects[i].key, key) != 0)
            continue;
        for (int k = 0; k < n; k++)
            for (size_t j = 0; j < c->n_creatures; j++)
                if (strcmp(c->creatures[j].key, creatures[k]) == 0)
                    c->objects[i].creatures[c->objects[i].n_creatures++] = (int)j;
    }
}

/* Map objects: towns (5 x 3, gate mid-bottom), Seer's Hut, Border Guard, one dwelling per base
 * creature (level 1..7, not special). */
static void fx_add_map_objects(struct rmg_content *c)
{
    c->map_objects = rmg__arena_alloc(&c->arena, (4 + c->n_creatures) * sizeof *c->map_objects);
    assert_non_null(c->map_objects);
    static const char *const keys[] = {"town", "castle", "seer_hut", "border_guard"};
    for (int i = 0; i < 4; i++) {
        rmg__object_def *d = &c->map_objects[c->n_map_objects++];
        d->key = rmg__arena_strdup(&c->arena, keys[i]);
        d->family = rmg__arena_strdup(&c->arena, "map");
        d->footprint.visit = i < 2 ? (uint64_t)1 << 45 : (uint64_t)1 << 47;
        d->footprint.block = i == 3 ? d->footprint.visit : d->footprint.visit | ((uint64_t)1 << 46);
        for (int row = 3; i < 2 && row <= 5; row++)
            for (int col = 3; col <= 7; col++)
                d->footprint.block |= (uint64_t)1 << (row * 8 + col);
    }
    for (size_t j = 0; j < c->n_creatures; j++) {
        const rmg__creature *cr = &c->creatures[j];
        if (cr->special || cr->upgrade_of >= 0)
            continue;
        rmg__object_def *d = &c->map_objects[c->n_map_objects++];
        char key[64];
        snprintf(key, sizeof key, "dwelling_%s", cr->key);
        d->key = rmg__arena_strdup(&c->arena, key);
        d->family = rmg__arena_strdup(&c->arena, "creature_dwelling");
        d->creatures[0] = (int)j;
        d->n_creatures = 1;
        d->footprint.visit = (uint64_t)1 << 47;
        d->footprint.block = d->footprint.visit | ((uint64_t)1 << 46) | ((uint64_t)1 << 39);
    }
}

static const char *const fx_vampire[] = {"vampire"}, *const fx_peasant[] = {"peasant"},
                  *const fx_golems[] = {"stone_golem", "iron_golem", "gold_golem", "diamond_golem"};

/* A content with every object-defaults.tsv row; owned by ctx's allocator (free with fx_free). */
static struct rmg_content *fx_content(rmg_context *ctx)
{
    size_t len = 0;
    char *text = rmg_test_read_file(rmg_test_shared("data/object-defaults.tsv"), &len);
    assert_non_null(text);
    struct rmg_content *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->ctx = ctx;
    atomic_init(&c->refs, 1); /* the fixture's: it lends c and frees it itself */
    rmg__arena_init(&c->arena, ctx, 64 * 1024);
    c->objects = rmg__arena_alloc(&c->arena, 256 * sizeof *c->objects);
    assert_non_null(c->objects);
    char *line = strchr(text, '\n') + 1; /* skip the header */
    while (line && *line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (*line)
            fx_add_object(c, line);
        line = next;
    }
    free(text);
    fx_add_creatures(c);
    fx_add_artifacts(c);
    fx_add_map_objects(c);
    fx_name_creatures(c, "creature_dwelling_estate", fx_vampire, 1);
    fx_name_creatures(c, "creature_dwelling_hovel", fx_peasant, 1);
    fx_name_creatures(c, "golem_factory", fx_golems, 4);
    return c;
}

static void fx_free(struct rmg_content *c)
{
    rmg__arena_free(&c->arena);
    free(c);
}

static inline long fx_obj(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_objects; i++)
        if (strcmp(c->objects[i].key, key) == 0)
            return (long)i;
    return -1;
}

static inline long fx_creature_index(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_creatures; i++)
        if (strcmp(c->creatures[i].key, key) == 0)
            return (long)i;
    return -1;
}

/* Appends an object rule to `list` (strings copied into the pack). */
static inline rmg__rule *fx_rule(struct rmg_pack *pack, rmg__rule_list *list, rmg_rule_op op, rmg_rule_target target,
                                 const char *what)
{
    rmg__rule *r = rmg__rules_add(pack, list);
    assert_non_null(r);
    r->op = op;
    r->target = target;
    char *copy = what ? rmg__arena_strdup(&pack->arena, what) : NULL;
    if (target == RMG_TARGET_OBJECT)
        r->object = copy;
    else if (target != RMG_TARGET_ALL)
        r->family = copy;
    return r;
}

#endif
