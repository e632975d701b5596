/* The concrete content of placed objects (lib/objects/details.c, issue 8): spells of spell
 * Pandora's boxes (OBJ-14/15, MIS-25) and Spell Scrolls (OBJ-16), Prison heroes (MIS-16/31),
 * pile sizes of resources (MIS-02), per-zone streams, the public API and allocator failures.
 * Expected spell sets come from the shared spells.tsv read at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "rmg_test_tsv.h"
#include "objects/details.h"

typedef struct world {
    rmg_context *ctx;
    const struct rmg_content *c;
    struct rmg_map *m;
    uint8_t *spell_allowed, *hero_allowed;
    rmg__gen g;
} world;

static void make_world(world *w, rmg_context *ctx, const struct rmg_content *c, int zones)
{
    memset(w, 0, sizeof *w);
    w->ctx = ctx;
    w->c = c;
    assert_int_equal(rmg__map_new(ctx, 16, 16, 1, &w->m), RMG_OK);
    for (int i = 0; i < zones; i++) {
        rmg__map_zone z;
        memset(&z, 0, sizeof z);
        z.id = i + 1;
        z.tpl_index = i;
        assert_true(RMG__VEC_PUSH(ctx, &w->m->zones, z));
    }
    w->spell_allowed = calloc(c->n_spells + 1, 1);
    w->hero_allowed = calloc(c->n_heroes + 1, 1);
    assert_non_null(w->spell_allowed);
    assert_non_null(w->hero_allowed);
    memset(w->spell_allowed, 1, c->n_spells);
    memset(w->hero_allowed, 1, c->n_heroes);
    w->g.ctx = ctx;
    w->g.content = c;
    w->g.map = w->m;
    w->g.root_seed = 77;
    w->g.sol.spell_allowed = w->spell_allowed;
    w->g.sol.hero_allowed = w->hero_allowed;
    w->g.sol.prisons_max = 8;
}

static void free_world(world *w)
{
    rmg__map_free(w->m);
    free(w->spell_allowed);
    free(w->hero_allowed);
}

static uint32_t add(world *w, const char *key, rmg_map_object_kind kind, int zone)
{
    rmg__map_object *o = rmg__map_add_object(w->m, key, kind, 1, 1, 0);
    assert_non_null(o);
    o->zone = zone;
    long row = rmg__content_find_object(w->c, key);
    if (row >= 0) {
        o->spell_min = w->c->objects[row].spell_level;
        o->spell_max = w->c->objects[row].spell_level_max;
        o->schools = w->c->objects[row].school_mask;
        o->amount = w->c->objects[row].amount;
    }
    return o->id;
}

static rmg__map_object *obj(const world *w, uint32_t id)
{
    return &w->m->objects.items[id - 1];
}

static long spell(const world *w, const char *key)
{
    long i = rmg__content_find_spell(w->c, key);
    assert_true(i >= 0);
    return i;
}

static void ban(world *w, const char *key)
{
    w->spell_allowed[spell(w, key)] = 0;
}

static long hero(const world *w, const char *key)
{
    long i = rmg__content_find_hero(w->c, key);
    assert_true(i >= 0);
    return i;
}

static const char *spell_key_at(const world *w, const rmg__map_object *o, size_t k)
{
    return w->c->spells[o->spells[k]].key;
}

static bool holds(const world *w, const rmg__map_object *o, const char *key)
{
    for (size_t k = 0; k < o->n_spells; k++)
        if (strcmp(spell_key_at(w, o, k), key) == 0)
            return true;
    return false;
}

/* spells.tsv rows a box of levels lo..hi and `school` (a school name or NULL for all) holds,
 * bans aside: learnable spells only. */
static size_t tsv_box_spells(int lo, int hi, const char *school, const char **keys, size_t cap)
{
    rmg_test_tsv t;
    rmg_test_tsv_load(&t, "data/spells.tsv");
    size_t n = 0;
    for (size_t r = 0; r < t.rows; r++) {
        int level = atoi(rmg_test_tsv_cell(&t, r, "level"));
        bool learnable = strcmp(rmg_test_tsv_cell(&t, r, "learnable"), "yes") == 0;
        bool in_school = !school || strstr(rmg_test_tsv_cell(&t, r, "schools"), school) != NULL;
        if (learnable && level >= lo && level <= hi && in_school) {
            if (n < cap)
                keys[n] = strdup(rmg_test_tsv_cell(&t, r, "key"));
            n++;
        }
    }
    rmg_test_tsv_free(&t);
    return n;
}

static void free_keys(const char **keys, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free((void *)(uintptr_t)keys[k]);
}

static size_t warnings_with(const world *w, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < w->m->warnings.count; i++)
        n += strstr(w->m->warnings.items[i], text) != NULL;
    return n;
}

static rmg_context *content_context(const struct rmg_content **c)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    *c = rmg__content_get(ctx);
    assert_non_null(*c);
    return ctx;
}

/* A world of `zones` zones in a context of its own with the built-in content. */
static const struct rmg_content *open_world(world *w, int zones)
{
    const struct rmg_content *c;
    rmg_context *ctx = content_context(&c);
    make_world(w, ctx, c, zones);
    return c;
}

static void close_world(world *w)
{
    rmg_context *ctx = w->ctx;
    free_world(w);
    rmg_context_destroy(ctx);
}

/* ---- conventions --------------------------------------------------------------------------- */

static void test_obj15_pandora_spell_range(void **state)
{
    (void)state;
    int lo, hi, mask;
    rmg__pandora_spell_range(3, 3, 15, &lo, &hi, &mask); /* h3t "3 3 15": all level-3 spells */
    assert_int_equal(lo, 3);
    assert_int_equal(hi, 3);
    assert_int_equal(mask, 15);
    rmg__pandora_spell_range(1, 5, 1, &lo, &hi, &mask);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 5);
    assert_int_equal(mask, 1);
    rmg__pandora_spell_range(-1, -1, -1, &lo, &hi, &mask); /* nothing given: every spell */
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 5);
    assert_int_equal(mask, 15);
    rmg__pandora_spell_range(4, -1, 0, &lo, &hi, &mask); /* one level given */
    assert_int_equal(lo, 4);
    assert_int_equal(hi, 4);
    assert_int_equal(mask, 15);
}

static void test_obj16_scroll_may_hold(void **state)
{
    (void)state;
    const struct rmg_content *c;
    rmg_context *ctx = content_context(&c);
    size_t special = 0, level4 = 0;
    for (size_t i = 0; i < c->n_spells; i++) {
        const rmg__spell *s = &c->spells[i];
        bool four = strcmp(s->key, "town_portal") == 0 || strcmp(s->key, "water_walk") == 0 ||
                    strcmp(s->key, "dimension_door") == 0 || strcmp(s->key, "fly") == 0;
        assert_int_equal(rmg__scroll_may_hold(s, 6), four);
        special += rmg__scroll_may_hold(s, 6);
        if (four)
            assert_false(rmg__scroll_may_hold(s, s->level));
        level4 += rmg__scroll_may_hold(s, 4);
        for (int level = 1; level <= 5; level++) /* a scroll of a level holds spells of that level */
            assert_true(!rmg__scroll_may_hold(s, level) || s->level == level);
    }
    assert_int_equal(special, 4);
    /* spells.tsv has 15 level-4 spells; Town Portal and Water Walk are left out. */
    const char *keys[32];
    size_t n4 = tsv_box_spells(4, 4, NULL, keys, 32);
    free_keys(keys, n4 < 32 ? n4 : 32);
    assert_int_equal(level4, n4 - 2);
    rmg_context_destroy(ctx);
}

static void test_mis02_pile_ranges(void **state)
{
    (void)state;
    static const int lo[7] = {5, 3, 5, 3, 3, 3, 5}, hi[7] = {10, 6, 10, 6, 6, 6, 10};
    for (int r = 0; r < 7; r++) {
        int a, b;
        rmg__pile_range(r, &a, &b);
        assert_int_equal(a, lo[r]);
        assert_int_equal(b, hi[r]);
    }
    assert_int_equal(RMG__PILE_GOLD_STEP, 100);
}

/* ---- the pass on a hand-built map ------------------------------------------------------------ */

static void test_obj14_pandora_spells(void **state)
{
    (void)state;
    world w;
    open_world(&w, 1);
    ban(&w, "fireball");
    uint32_t level3 = add(&w, "pandora_spells_level_3", RMG_OBJECT_TREASURE, 1);
    uint32_t air = add(&w, "pandora_spells_air", RMG_OBJECT_TREASURE, 1);
    /* OBJ-15 custom variant: air spells of levels 4..5 (the stage keeps the family's first row). */
    uint32_t custom = add(&w, "pandora_spells_level_1", RMG_OBJECT_TREASURE, 1);
    obj(&w, custom)->spell_min = 4;
    obj(&w, custom)->spell_max = 5;
    obj(&w, custom)->schools = 1;
    assert_int_equal(rmg__objects_details(&w.g), RMG_OK);

    const char *keys[80];
    size_t n3 = tsv_box_spells(3, 3, NULL, keys, 80);
    const rmg__map_object *o = obj(&w, level3);
    assert_int_equal(o->n_spells, n3 - 1); /* all level-3 spells but the banned Fireball */
    for (size_t k = 0; k < n3; k++)
        assert_int_equal(holds(&w, o, keys[k]), strcmp(keys[k], "fireball") != 0);
    free_keys(keys, n3);

    size_t na = tsv_box_spells(1, 5, "air", keys, 80);
    o = obj(&w, air);
    assert_int_equal(o->n_spells, na); /* Titan's Lightning Bolt is not learnable: not there */
    assert_false(holds(&w, o, "titans_lightning_bolt"));
    assert_true(holds(&w, o, "magic_arrow") && holds(&w, o, "visions")); /* all-school spells */
    free_keys(keys, na);

    static const char *const air45[] = {"fly", "dimension_door", "chain_lightning", "magic_mirror", "counterstrike",
                                        "summon_air_elemental"};
    o = obj(&w, custom);
    assert_int_equal(o->n_spells, 6);
    assert_int_equal(o->spell_min, 4); /* recorded for the export: custom boxes share a key */
    assert_int_equal(o->spell_max, 5);
    assert_int_equal(o->schools, 1);
    for (size_t k = 0; k < 6; k++)
        assert_true(holds(&w, o, air45[k]));
    assert_int_equal(tsv_box_spells(4, 5, "air", keys, 0), 6);
    for (size_t k = 1; k < o->n_spells; k++)
        assert_true(o->spells[k - 1] < o->spells[k]); /* content order, each once */
    close_world(&w);
}

static void test_obj14_custom_box_all_banned(void **state)
{
    (void)state;
    world w;
    open_world(&w, 1);
    ban(&w, "implosion");
    ban(&w, "summon_earth_elemental");
    uint32_t id = add(&w, "pandora_spells_level_1", RMG_OBJECT_TREASURE, 1);
    obj(&w, id)->spell_min = 5;
    obj(&w, id)->spell_max = 5;
    obj(&w, id)->schools = 8; /* earth: Implosion and Summon Earth Elemental only */
    assert_int_equal(rmg__objects_details(&w.g), RMG_OK);
    assert_int_equal(obj(&w, id)->n_spells, 0);
    assert_null(obj(&w, id)->spells);
    assert_int_equal(warnings_with(&w, "OBJ-14"), 1);
    close_world(&w);
}

/* OBJ-14/15 at candidate choice: a box or scroll whose every spell is banned is no candidate. */
static void test_obj14_all_banned_is_no_candidate(void **state)
{
    (void)state;
    world w;
    const struct rmg_content *c = open_world(&w, 1);
    const rmg__object_def *box = &c->objects[rmg__content_find_object(c, "pandora_spells_level_1")];
    const rmg__object_def *special = &c->objects[rmg__content_find_object(c, "spell_scroll_special")];
    const rmg__object_def *chest = &c->objects[rmg__content_find_object(c, "treasure_chest")];
    rmg__eff_entry earth5;
    memset(&earth5, 0, sizeof earth5);
    earth5.spell_min = 5;
    earth5.spell_max = 5;
    earth5.schools = 8; /* a custom variant: Implosion and Summon Earth Elemental only */
    assert_true(rmg__details_may_hold_spell(c, w.spell_allowed, box, &earth5));
    ban(&w, "implosion");
    assert_true(rmg__details_may_hold_spell(c, w.spell_allowed, box, &earth5));
    ban(&w, "summon_earth_elemental");
    assert_false(rmg__details_may_hold_spell(c, w.spell_allowed, box, &earth5));
    rmg__eff_entry any;
    memset(&any, 0, sizeof any);
    assert_true(rmg__details_may_hold_spell(c, w.spell_allowed, box, &any)); /* levels 1..5, all schools */
    for (size_t k = 0; k < 4; k++) {
        static const char *const four[] = {"town_portal", "water_walk", "dimension_door", "fly"};
        assert_true(rmg__details_may_hold_spell(c, w.spell_allowed, special, &any));
        ban(&w, four[k]);
    }
    assert_false(rmg__details_may_hold_spell(c, w.spell_allowed, special, &any)); /* OBJ-16: only those four */
    assert_true(rmg__details_may_hold_spell(c, w.spell_allowed, chest, &any));    /* holds no spell */
    close_world(&w);
}

static void test_obj16_scroll_spells(void **state)
{
    (void)state;
    world w;
    const struct rmg_content *c = open_world(&w, 1);
    ban(&w, "town_portal");
    ban(&w, "water_walk");
    ban(&w, "fly");
    static const char *const level4[] = {"chain_lightning", "meteor_shower", "armageddon", "fire_shield",
                                         "resurrection", "prayer", "sorrow", "slayer", "frenzy", "counterstrike",
                                         "berserk", "clone"};
    for (size_t k = 0; k < RMG__ARRAY_LEN(level4); k++)
        ban(&w, level4[k]); /* level 4 keeps Inferno (and the excluded Town Portal, Water Walk) */
    uint32_t special[4], four[4];
    for (int k = 0; k < 4; k++) {
        special[k] = add(&w, "spell_scroll_special", RMG_OBJECT_TREASURE, 1);
        four[k] = add(&w, "spell_scroll_level_4", RMG_OBJECT_TREASURE, 1);
    }
    uint32_t one = add(&w, "spell_scroll_level_1", RMG_OBJECT_TREASURE, 1);
    assert_int_equal(rmg__objects_details(&w.g), RMG_OK);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(obj(&w, special[k])->spell, spell(&w, "dimension_door"));
        assert_int_equal(obj(&w, four[k])->spell, spell(&w, "inferno"));
    }
    long s1 = obj(&w, one)->spell;
    assert_true(s1 >= 0);
    assert_int_equal(c->spells[s1].level, 1);
    assert_true(c->spells[s1].learnable);
    assert_int_equal(w.m->warnings.count, 0);
    close_world(&w);
}

static void test_mis31_prison_heroes(void **state)
{
    (void)state;
    world w;
    const struct rmg_content *c = open_world(&w, 2);
    memset(w.hero_allowed, 0, c->n_heroes);
    static const char *const allowed[] = {"orrin", "valeska", "edric", "sylvia"};
    for (size_t k = 0; k < 4; k++)
        w.hero_allowed[hero(&w, allowed[k])] = 1;
    uint32_t given = add(&w, "prison_level_5", RMG_OBJECT_TREASURE, 2);
    obj(&w, given)->hero = (int)hero(&w, "sylvia"); /* already on the map: never drawn again */
    w.g.sol.prisons_max = 3; /* four prisons end up with heroes: one more than MIS-16 allows here */
    uint32_t p[4] = {add(&w, "prison_level_1", RMG_OBJECT_TREASURE, 1), add(&w, "prison_level_30", RMG_OBJECT_TREASURE, 2),
                     add(&w, "prison_level_10", RMG_OBJECT_TREASURE, 1), add(&w, "prison_level_20", RMG_OBJECT_TREASURE, 2)};
    assert_int_equal(rmg__objects_details(&w.g), RMG_OK);
    int seen[4] = {0, 0, 0, 0};
    size_t without = 0;
    for (int k = 0; k < 4; k++) {
        int h = obj(&w, p[k])->hero;
        if (h < 0) {
            without++;
            continue;
        }
        for (size_t a = 0; a < 4; a++)
            seen[a] += strcmp(c->heroes[h].key, allowed[a]) == 0;
    }
    /* Three free allowed heroes for four prisons: each once, the last prison warned about. */
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 1);
    assert_int_equal(seen[2], 1);
    assert_int_equal(seen[3], 0);
    assert_int_equal(without, 1);
    assert_int_equal(warnings_with(&w, "MIS-31"), 1);
    assert_int_equal(warnings_with(&w, "exceed the free-hero limit of 3 prisons"), 1);
    assert_int_equal(obj(&w, p[1])->amount, 500000); /* MIS-17: experience kept */
    assert_int_equal(obj(&w, given)->hero, hero(&w, "sylvia"));
    close_world(&w);
}

static void test_mis02_resource_piles(void **state)
{
    (void)state;
    world w;
    open_world(&w, 3);
    static const char *const keys[7] = {"resource_wood", "resource_mercury", "resource_ore", "resource_sulfur",
                                        "resource_crystal", "resource_gems", "resource_gold"};
    for (int k = 0; k < 7 * 60; k++)
        add(&w, keys[k % 7], k % 2 ? RMG_OBJECT_RESOURCE : RMG_OBJECT_TREASURE, 1 + k % 3);
    uint32_t scroll = add(&w, "spell_scroll_level_2", RMG_OBJECT_TREASURE, 1);
    assert_int_equal(rmg__objects_details(&w.g), RMG_OK);
    uint64_t values_seen[7] = {0};
    for (size_t i = 0; i + 1 < w.m->objects.count; i++) {
        const rmg__map_object *o = &w.m->objects.items[i];
        int r = (int)(i % 7), lo, hi;
        rmg__pile_range(r, &lo, &hi);
        int64_t n = r == 6 ? o->amount / 100 : o->amount;
        if (r == 6)
            assert_int_equal(o->amount % 100, 0);
        assert_true(n >= lo && n <= hi);
        values_seen[r] |= (uint64_t)1 << n;
    }
    for (int r = 0; r < 7; r++) { /* every size of each range turns up in 60 piles */
        int lo, hi;
        rmg__pile_range(r, &lo, &hi);
        for (int v = lo; v <= hi; v++)
            assert_true(values_seen[r] & ((uint64_t)1 << v));
    }
    assert_int_equal(obj(&w, scroll)->amount, 0); /* the table's -1 "no amount" */
    close_world(&w);
}

/* Same seed, same details; a zone's details do not move when another zone gets more objects. */
static void fill_two_zones(world *w, int extra_in_zone_2)
{
    for (int k = 0; k < 6; k++) {
        add(w, "spell_scroll_level_3", RMG_OBJECT_TREASURE, 1);
        add(w, "prison_level_1", RMG_OBJECT_TREASURE, 1);
        add(w, "resource_gems", RMG_OBJECT_RESOURCE, 1);
    }
    for (int k = 0; k < extra_in_zone_2; k++)
        add(w, "spell_scroll_level_5", RMG_OBJECT_TREASURE, 2);
}

static void test_details_streams_per_zone(void **state)
{
    (void)state;
    const struct rmg_content *c;
    rmg_context *ctx = content_context(&c);
    world a, b, d;
    make_world(&a, ctx, c, 2);
    make_world(&b, ctx, c, 2);
    make_world(&d, ctx, c, 2);
    fill_two_zones(&a, 0);
    fill_two_zones(&b, 0);
    fill_two_zones(&d, 9);
    assert_int_equal(rmg__objects_details(&a.g), RMG_OK);
    assert_int_equal(rmg__objects_details(&b.g), RMG_OK);
    assert_int_equal(rmg__objects_details(&d.g), RMG_OK);
    size_t differ = 0;
    for (size_t i = 0; i < a.m->objects.count; i++) {
        const rmg__map_object *x = &a.m->objects.items[i], *y = &b.m->objects.items[i], *z = &d.m->objects.items[i];
        assert_int_equal(x->spell, y->spell);
        assert_int_equal(x->hero, y->hero);
        assert_int_equal(x->amount, y->amount);
        assert_int_equal(x->spell, z->spell);
        assert_int_equal(x->hero, z->hero);
        assert_int_equal(x->amount, z->amount);
    }
    world e; /* another seed draws other details */
    make_world(&e, ctx, c, 2);
    e.g.root_seed = 78;
    fill_two_zones(&e, 0);
    assert_int_equal(rmg__objects_details(&e.g), RMG_OK);
    for (size_t i = 0; i < a.m->objects.count; i++)
        differ += a.m->objects.items[i].spell != e.m->objects.items[i].spell ||
                  a.m->objects.items[i].hero != e.m->objects.items[i].hero ||
                  a.m->objects.items[i].amount != e.m->objects.items[i].amount;
    assert_true(differ > 0);
    /* Run again: everything filled stays as it is. */
    assert_int_equal(rmg__objects_details(&e.g), RMG_OK);
    for (size_t i = 0; i < a.m->objects.count; i++)
        differ -= a.m->objects.items[i].spell != e.m->objects.items[i].spell ||
                  a.m->objects.items[i].hero != e.m->objects.items[i].hero ||
                  a.m->objects.items[i].amount != e.m->objects.items[i].amount;
    assert_int_equal(differ, 0);
    free_world(&e);
    free_world(&a);
    free_world(&b);
    free_world(&d);
    rmg_context_destroy(ctx);
}

/* ---- generated maps through the public API ---------------------------------------------------- */

static bool key_starts(const char *key, const char *prefix)
{
    return key && strncmp(key, prefix, strlen(prefix)) == 0;
}

/* default_bans: the pack keeps MIS-30's default hero bans (campaign heroes banned). */
static void check_generated(rmg_map *map, const struct rmg_content *c, bool default_bans, size_t *found)
{
    uint8_t *heroes = calloc(c->n_heroes + 1, 1), *quest = calloc(c->n_artifacts + 1, 1);
    assert_non_null(heroes);
    assert_non_null(quest);
    for (size_t i = 0; i < rmg_map_object_count(map); i++) {
        rmg_map_object_info o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        assert_int_equal(rmg_map_object(map, i, &o), RMG_OK);
        if (key_starts(o.key, "resource_")) {
            long row = rmg__content_find_object(c, o.key);
            int lo, hi;
            rmg__pile_range(c->objects[row].resource, &lo, &hi);
            int64_t n = c->objects[row].resource == 6 ? o.amount / 100 : o.amount;
            assert_true(n >= lo && n <= hi); /* MIS-02 */
            found[0]++;
        } else if (key_starts(o.key, "prison_")) {
            assert_non_null(o.hero);
            long h = rmg__content_find_hero(c, o.hero);
            assert_false(default_bans && c->heroes[h].campaign_only); /* MIS-30/31 */
            assert_int_equal(heroes[h]++, 0);         /* never twice */
            found[1]++;
        } else if (key_starts(o.key, "spell_scroll_")) {
            long row = rmg__content_find_object(c, o.key);
            assert_non_null(o.spell);
            assert_true(rmg__scroll_may_hold(&c->spells[rmg__content_find_spell(c, o.spell)],
                                             c->objects[row].spell_level)); /* OBJ-16 */
            found[2]++;
        } else if (key_starts(o.key, "pandora_spells_")) {
            assert_true(o.spell_count > 0);
            const char *keys[80];
            assert_int_equal(rmg_map_object_spells(map, i, NULL, 0), o.spell_count);
            assert_int_equal(rmg_map_object_spells(map, i, keys, 80), o.spell_count);
            long row = rmg__content_find_object(c, o.key);
            for (size_t k = 0; k < o.spell_count && k < 80; k++) {
                const rmg__spell *s = &c->spells[rmg__content_find_spell(c, keys[k])];
                assert_true(s->learnable);
                assert_true(s->level >= c->objects[row].spell_level && s->level <= c->objects[row].spell_level_max);
                assert_true(s->schools & c->objects[row].school_mask);
            }
            found[3]++;
        } else if (o.kind == RMG_OBJECT_SEER_HUT) {
            assert_non_null(o.artifact);
            assert_non_null(o.reward); /* MIS-14 */
            assert_true(o.link > 0);
            rmg_map_object_info art;
            memset(&art, 0, sizeof art);
            art.struct_size = sizeof art;
            assert_int_equal(rmg_map_object(map, o.link - 1, &art), RMG_OK);
            assert_string_equal(art.artifact, o.artifact); /* the hut asks for its artifact */
            found[4]++;
        } else if (key_starts(o.key, "seer_artifact_")) {
            long a = rmg__content_find_artifact(c, o.artifact);
            assert_int_equal(c->artifacts[a].cls, RMG_ARTIFACT_TREASURE);
            assert_int_equal(quest[a]++, 0); /* MIS-13: once on the map */
        } else {
            assert_int_equal(o.spell_count, 0);
            assert_null(o.hero);
        }
    }
    free(heroes);
    free(quest);
}

static void test_details_generated_maps(void **state)
{
    (void)state;
    size_t found[5] = {0, 0, 0, 0, 0};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        const struct rmg_content *c = rmg__content_get(ctx);
        assert_non_null(c);
        rmg_generate_options opt;
        rmg_generate_options_init(&opt);
        rmg_map *map = NULL;
        assert_int_equal(rmg_generate(ctx, NULL, &opt, &map), RMG_OK);
        check_generated(map, c, true, found);
        rmg_map_destroy(map);
        rmg_context_destroy(ctx);
    }
    print_message("piles %zu, prisons %zu, scrolls %zu, spell boxes %zu, seer huts %zu\n", found[0], found[1],
                  found[2], found[3], found[4]);
    assert_true(found[0] > 0 && found[2] > 0); /* the built-in pack's maps have both */
}

/* WAT-03 copies the surface onto the underground, but a hero exists once (MIS-31) and a quest
 * artifact too (MIS-13): the copies' prisons and quest artifacts get their own. */
static void test_wat03_mirror_prison_heroes(void **state)
{
    (void)state;
    size_t found[5] = {0, 0, 0, 0, 0};
    for (uint64_t seed = 1; seed <= 3; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        const struct rmg_content *c = rmg__content_get(ctx);
        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_load(ctx,
                                       rmg_test_shared("corpus/h3t/Kubaryt__heroes3_templates__templates__mt_Kubaryt__"
                                                       "mt_Kubaryt.zip__mt_Kubaryt__rmg.txt"),
                                       RMG_FORMAT_AUTO, &pack),
                         RMG_OK);
        rmg_generate_options opt;
        rmg_generate_options_init(&opt);
        rmg_map *map = NULL;
        assert_int_equal(rmg_generate(ctx, pack, &opt, &map), RMG_OK);
        check_generated(map, c, false, found); /* mt_Kubaryt allows campaign heroes (TPL-08) */
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
    print_message("mirror maps: prisons %zu\n", found[1]);
    assert_true(found[1] > 0);
}

/* ---- allocator failures ----------------------------------------------------------------------- */

static rmg_status oom_details(rmg_context *ctx, void *user)
{
    const struct rmg_content *c = user;
    world w;
    memset(&w, 0, sizeof w);
    struct rmg_map *m = NULL;
    rmg_status st = rmg__map_new(ctx, 8, 8, 1, &m);
    if (st != RMG_OK)
        return st;
    rmg__map_zone z;
    memset(&z, 0, sizeof z);
    z.id = 1;
    bool ok = RMG__VEC_PUSH(ctx, &m->zones, z);
    static const char *const keys[] = {"pandora_spells_all", "prison_level_1", "spell_scroll_level_2", "resource_ore",
                                       "pandora_spells_fire"};
    for (size_t k = 0; k < RMG__ARRAY_LEN(keys) && ok; k++) {
        rmg__map_object *o = rmg__map_add_object(m, keys[k], RMG_OBJECT_TREASURE, 1, 1, 0);
        ok = o != NULL;
        if (ok) {
            long row = rmg__content_find_object(c, keys[k]);
            o->zone = 1;
            o->spell_min = c->objects[row].spell_level;
            o->spell_max = c->objects[row].spell_level_max;
            o->schools = c->objects[row].school_mask;
        }
    }
    rmg__gen g;
    memset(&g, 0, sizeof g);
    g.ctx = ctx;
    g.content = c;
    g.map = m;
    g.root_seed = 3;
    st = ok ? rmg__objects_details(&g) : rmg__error_nomem(ctx);
    if (st == RMG_OK && (m->objects.items[0].n_spells == 0 || m->objects.items[1].hero < 0))
        st = RMG_ERR_INTERNAL;
    rmg__map_free(m);
    return st;
}

static void test_details_oom(void **state)
{
    (void)state;
    const struct rmg_content *c;
    rmg_context *ctx = content_context(&c);
    size_t needed = rmg_test_oom_sweep(oom_details, (void *)(uintptr_t)c, 0, 1);
    assert_true(needed > 3);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_obj15_pandora_spell_range),
        cmocka_unit_test(test_mis02_pile_ranges),
        cmocka_unit_test(test_obj14_custom_box_all_banned),
        cmocka_unit_test(test_obj14_all_banned_is_no_candidate),
        cmocka_unit_test(test_obj16_scroll_spells),
        cmocka_unit_test(test_mis31_prison_heroes),
        cmocka_unit_test(test_mis02_resource_piles),
        cmocka_unit_test(test_details_streams_per_zone),
        cmocka_unit_test(test_details_generated_maps),
        cmocka_unit_test(test_details_oom),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_obj16_scroll_may_hold),
        cmocka_unit_test(test_obj14_pandora_spells),
        cmocka_unit_test(test_wat03_mirror_prison_heroes),
    };
    return RMG_TEST_MAIN(plain, shared, "data corpus");
}
