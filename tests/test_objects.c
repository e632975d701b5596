/* Objects: effective lists (RUL, OBJ), the group algorithm (TRS), creature formulas (CRE). */
#include "test_objects_fixture.h"

#include "objects/objects_internal.h"
#include "template/model.h"

typedef struct fixture {
    rmg_context *ctx;
    struct rmg_content *content;
    struct rmg_pack *pack;
    rmg__template *tpl;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ctx = rmg_test_context(NULL, 1);
    f->content = fx_content(f->ctx);
    assert_int_equal(rmg__pack_new(f->ctx, &f->pack), RMG_OK);
    f->tpl = rmg__pack_add_template(f->pack);
    assert_non_null(f->tpl);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rmg__pack_free(f->pack);
    fx_free(f->content);
    rmg_context_destroy(f->ctx);
    free(f);
    return 0;
}

static rmg__rule *add_rule(fixture *f, rmg__rule_list *list, rmg_rule_op op, rmg_rule_target target, const char *what)
{
    return fx_rule(f->pack, list, op, target, what);
}

static rmg__zone *add_zone(fixture *f, int id)
{
    rmg__zone *z = rmg__template_add_zone(f->pack, f->tpl);
    assert_non_null(z);
    z->id = id;
    return z;
}

static const rmg__eff_entry *entry(const rmg__eff_list *l, const char *key)
{
    long i = rmg__eff_find(l, key, NULL);
    assert_true(i >= 0);
    return &l->items.items[i];
}

static size_t present_count(const rmg__eff_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->items.count; i++)
        n += l->items.items[i].present;
    return n;
}

/* OBJ-04: L0 = rows not banned by default, without mines and the airship yard. */
static void test_obj04_initial_list(void **state)
{
    fixture *f = *state;
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, NULL, -1, NULL, &l), RMG_OK);
    assert_true(rmg__eff_find(&l, "mine_gold_mine", NULL) < 0);
    assert_true(rmg__eff_find(&l, "airship_yard", NULL) < 0);
    assert_true(entry(&l, "arena")->present);
    assert_false(entry(&l, "cover_of_darkness")->present);     /* banned by default */
    assert_false(entry(&l, "keymaster_tent_5000")->present);
    assert_int_equal(entry(&l, "arena")->value, 3000);
    assert_int_equal(entry(&l, "arena")->frequency, 50);
    /* Creature objects expand per base creature of levels 1..7 (not upgrades, not special). */
    assert_true(rmg__eff_find(&l, "creature_dwelling", "pikeman") >= 0);
    assert_true(rmg__eff_find(&l, "creature_dwelling", "halberdier") < 0);
    assert_true(rmg__eff_find(&l, "creature_dwelling", "ballista") < 0);
    assert_true(rmg__eff_find(&l, "creature_dwelling", "vampire") < 0);
    assert_true(rmg__eff_find(&l, "creature_dwelling_estate", "vampire") >= 0);
    assert_true(rmg__eff_find(&l, "creature_dwelling_hovel", "peasant") >= 0);
    assert_true(rmg__eff_find(&l, "pandora_creatures", "angel") >= 0);
    rmg__eff_free(&l);
}

/* RUL-05 vector 1: [forbid(all), allow_edit(arena, default...)] -> L_map = {arena}. */
static void test_rul05_forbid_all_then_allow(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_ALL, NULL);
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_int_equal(present_count(&l), 1);
    assert_true(entry(&l, "arena")->present);
    assert_int_equal(entry(&l, "arena")->value, 3000);
    rmg__eff_free(&l);
}

/* RUL-05 vector 2: [allow_edit(arena, ...), forbid(all)] -> L_map = {}. */
static void test_rul05_allow_then_forbid_all(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->value = 4000;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_ALL, NULL);
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_int_equal(present_count(&l), 0);
    rmg__eff_free(&l);
}

/* RUL-07 vector 1: template allow_edit(arena, value=5000); zone [forbid(arena), allow_edit(arena,
 * default...)] -> value 5000, frequency 50 in that zone. */
static void test_rul07_zone_default_from_lmap(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->value = 5000;
    rmg__zone *z = add_zone(f, 1);
    add_rule(f, &z->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "arena");
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 0, NULL, &l), RMG_OK);
    assert_true(entry(&l, "arena")->present);
    assert_int_equal(entry(&l, "arena")->value, 5000);
    assert_int_equal(entry(&l, "arena")->frequency, 50);
    rmg__eff_free(&l);
}

/* RUL-07 vector 2: template forbid(all) + zone allow_edit(arena, default...) -> 3000, 50, 32. */
static void test_rul07_zone_default_from_tsv(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_ALL, NULL);
    rmg__zone *z = add_zone(f, 1);
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 0, NULL, &l), RMG_OK);
    assert_int_equal(present_count(&l), 1);
    assert_int_equal(entry(&l, "arena")->value, 3000);
    assert_int_equal(entry(&l, "arena")->frequency, 50);
    assert_int_equal(entry(&l, "arena")->max_map, 32);
    rmg__eff_free(&l);
    /* The template-level list itself stays empty. */
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_int_equal(present_count(&l), 0);
    rmg__eff_free(&l);
}

/* RUL-07 at template level: defaults come from the TSV even for banned-by-default rows. */
static void test_rul07_template_allows_banned(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "cover_of_darkness")->frequency = 7;
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_true(entry(&l, "cover_of_darkness")->present);
    assert_int_equal(entry(&l, "cover_of_darkness")->value, 500);
    assert_int_equal(entry(&l, "cover_of_darkness")->frequency, 7);
    rmg__eff_free(&l);
}

/* RUL-06: editing keeps `default` parameters; RUL-12: forbidding an absent object is a no-op. */
static void test_rul06_rul12(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->frequency = 9;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->value = 100;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "sanctuary");
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_int_equal(entry(&l, "arena")->value, 100);
    assert_int_equal(entry(&l, "arena")->frequency, 9);
    assert_false(entry(&l, "sanctuary")->present);
    rmg__eff_free(&l);
}

/* RUL-10 read with RUL-07, as the guide does: tents and quest artifacts forbidden by template
 * rules leave L_map, so zones without rules of their own have none (nor their huts and rewards);
 * a zone that allows them again has them, as it may any object (no rule locks an object). */
static void test_rul10_template_forbid_leaves_zone_allows(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "seer_artifact");
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "keymaster_tent_5000");
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "arena");
    rmg__zone *z = add_zone(f, 1);
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "seer_artifact_gold_5000");
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_FAMILY, "keymaster_tent");
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    add_zone(f, 2);
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 0, NULL, &l), RMG_OK);
    assert_true(entry(&l, "seer_artifact_gold_5000")->present);
    assert_false(entry(&l, "seer_artifact_gold_10000")->present);
    assert_true(entry(&l, "keymaster_tent_5000")->present);
    assert_true(entry(&l, "keymaster_tent_7500")->present);
    assert_true(entry(&l, "arena")->present);
    rmg__eff_free(&l);
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 1, NULL, &l), RMG_OK);
    assert_false(entry(&l, "seer_artifact_gold_5000")->present);
    assert_false(entry(&l, "keymaster_tent_5000")->present);
    rmg__eff_free(&l);
}

/* RUL-04/05: an allow that a later forbid undoes has no effect, and the trace says which rule
 * undid it; a forbid a later allow undoes (the guide's "forbid all, then allow a few") and a rule
 * naming a mine are told apart. */
static void test_rul05_rule_effects(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->value = 5000;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_ALL, NULL);
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "sanctuary");
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "mine_gold_mine");
    rmg__eff_list l0;
    assert_int_equal(rmg__eff_init(f->ctx, f->content, &l0), RMG_OK);
    rmg__rule_effect fx[4];
    assert_int_equal(rmg__eff_rule_effects(&l0, &f->tpl->rules, NULL, false, fx), RMG_OK);
    assert_true(fx[0].changed);
    assert_false(fx[0].effective);
    assert_int_equal(fx[0].undone_by, 1);
    assert_true(fx[1].effective);
    assert_true(fx[2].effective);
    assert_false(fx[3].matched);
    assert_false(fx[3].effective);
    rmg__eff_free(&l0);
}

/* OBJ-07 vectors: arena max_map 50 -> 32; obelisk max_zone 3 -> 1; shrine of magic incantation
 * max_map 50 -> 50. A configured unlimited on a fixed cap becomes the default cap. */
static void test_obj07_caps(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->max_map = 50;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "obelisk")->max_zone = 3;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "shrine_of_magic_incantation")->max_map = 50;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "library_of_enlightenment")->max_map =
        RMG__PARAM_UNLIMITED;
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "witch_hut")->max_zone = 2;
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_int_equal(entry(&l, "arena")->max_map, 32);
    assert_int_equal(entry(&l, "obelisk")->max_zone, 1);
    assert_int_equal(entry(&l, "shrine_of_magic_incantation")->max_map, 50);
    assert_int_equal(entry(&l, "library_of_enlightenment")->max_map, 32);
    assert_int_equal(entry(&l, "witch_hut")->max_zone, 2);
    rmg__eff_free(&l);
    assert_int_equal(rmg__eff_cap(50, 32, true), 32);
    assert_int_equal(rmg__eff_cap(RMG__UNLIMITED, 32, true), 32);
    assert_int_equal(rmg__eff_cap(50, 32, false), 50);
    assert_int_equal(rmg__eff_cap(RMG__UNLIMITED, 32, false), RMG__UNLIMITED);
}

/* RUL-02: a zone-level allow_edit has no max_map; zone rules only affect their zone (OBJ-05). */
static void test_rul02_zone_rules_local(void **state)
{
    fixture *f = *state;
    rmg__zone *z1 = add_zone(f, 1);
    add_zone(f, 2);
    z1 = &f->tpl->zones[0];
    rmg__rule *r = add_rule(f, &z1->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "school_of_magic");
    r->max_map = 3;
    r->max_zone = 2;
    r->frequency = 1;
    rmg__eff_list l1, l2;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 0, NULL, &l1), RMG_OK);
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, 1, NULL, &l2), RMG_OK);
    assert_int_equal(entry(&l1, "school_of_magic")->max_map, 32);
    assert_int_equal(entry(&l1, "school_of_magic")->max_zone, 2);
    assert_int_equal(entry(&l1, "school_of_magic")->frequency, 1);
    assert_int_equal(entry(&l2, "school_of_magic")->frequency, 50);
    rmg__eff_free(&l1);
    rmg__eff_free(&l2);
}

/* RUL-03 groups and RUL-09 creature-level rules. */
static void test_rul03_groups_rul09_levels(void **state)
{
    fixture *f = *state;
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "pandora");
    add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "creature_bank");
    rmg__rule *r = add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_CREATURE_LEVEL, "creature_dwelling");
    r->level = 1;
    r->frequency = 5;
    r->value = 99; /* OBJ-06: not editable */
    r = add_rule(f, &f->tpl->rules, RMG_RULE_FORBID, RMG_TARGET_CREATURE, "creature_dwelling");
    r->creature = rmg__arena_strdup(&f->pack->arena, "griffin");
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    assert_false(entry(&l, "pandora_gold_5000")->present);
    assert_false(entry(&l, "pandora_spells_all")->present);
    assert_false(entry(&l, "dragon_utopia")->present);
    assert_true(entry(&l, "arena")->present);
    const rmg__eff_entry *pike = &l.items.items[rmg__eff_find(&l, "creature_dwelling", "pikeman")];
    const rmg__eff_entry *skel = &l.items.items[rmg__eff_find(&l, "creature_dwelling", "skeleton")];
    const rmg__eff_entry *peas = &l.items.items[rmg__eff_find(&l, "creature_dwelling_hovel", "peasant")];
    const rmg__eff_entry *angel = &l.items.items[rmg__eff_find(&l, "creature_dwelling", "angel")];
    const rmg__eff_entry *grif = &l.items.items[rmg__eff_find(&l, "creature_dwelling", "griffin")];
    assert_int_equal(pike->frequency, 5);
    assert_int_equal(skel->frequency, 5);
    assert_int_equal(peas->frequency, 5);
    assert_int_equal(angel->frequency, 40);
    assert_int_equal(pike->value, RMG__VALUE_FORMULA);
    assert_false(grif->present);
    assert_true(angel->present);
    rmg__eff_free(&l);
}

/* OBJ-15: custom variants need explicit parameters; then they are added once and editable. */
static void test_obj15_custom(void **state)
{
    fixture *f = *state;
    rmg__rule *r = add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "pandora_gold");
    r->amount = 7777;
    r->value = 8000;
    r->frequency = 3;
    r->max_map = 5;
    r->max_zone = RMG__PARAM_UNLIMITED;
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, NULL, &l), RMG_OK);
    const rmg__eff_entry *last = &l.items.items[l.items.count - 1];
    assert_true(last->custom && last->present);
    assert_int_equal(last->amount, 7777);
    assert_int_equal(last->value, 8000);
    assert_int_equal(last->max_map, 5);
    rmg__eff_free(&l);
    r = add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "prison");
    r->amount = 1;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, f->tpl, -1, "t.h3t", &l), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(f->ctx), "OBJ-15"));
}

/* TRS-09 vector 1: {X 8000, Y 2000}, T 10000 -> {X, Y}. */
typedef struct trs_case {
    int64_t value[4];
    uint64_t weight[4];
    bool single[4];
    int64_t max_zone[4];  /* -1 unlimited */
    int64_t used[4];
} trs_case;

static bool trs_available(void *user, size_t i)
{
    trs_case *c = user;
    return c->max_zone[i] < 0 || c->used[i] < c->max_zone[i];
}

static void trs_taken(void *user, size_t i)
{
    trs_case *c = user;
    c->used[i]++;
}

static size_t run_trs(trs_case *c, size_t n, int64_t T, size_t *out, uint64_t seed)
{
    rmg__trs_source src = {n, c->value, c->weight, c->single, trs_available, trs_taken, c, NULL, NULL};
    uint64_t scratch[4];
    rmg_rng rng;
    rmg_rng_seed(&rng, seed);
    return rmg__trs_group(&src, T, &rng, scratch, out);
}

static void test_trs09_vectors(void **state)
{
    (void)state;
    size_t out[RMG__TRS_MAX_OBJECTS];
    for (uint64_t seed = 1; seed <= 20; seed++) {
        trs_case v1 = {{8000, 2000}, {10, 10}, {false, false}, {-1, -1}, {0}};
        assert_int_equal(run_trs(&v1, 2, 10000, out, seed), 2);
        assert_int_equal(out[0], 0);
        assert_int_equal(out[1], 1);
        /* Vector 2: {P 1000}, T 4000 -> {P, P, P}; with max_zone 1 -> {P}. */
        trs_case v2 = {{1000}, {1}, {false}, {-1}, {0}};
        assert_int_equal(run_trs(&v2, 1, 4000, out, seed), 3);
        trs_case v2b = {{1000}, {1}, {false}, {1}, {0}};
        assert_int_equal(run_trs(&v2b, 1, 4000, out, seed), 1);
        /* Vector 3: {R 600}, T 2000 -> {R, R}. */
        trs_case v3 = {{600}, {1}, {false}, {-1}, {0}};
        assert_int_equal(run_trs(&v3, 1, 2000, out, seed), 2);
        /* Vector 4: {S 400}, T 2000 -> the attempt fails. */
        trs_case v4 = {{400}, {1}, {false}, {-1}, {0}};
        assert_int_equal(run_trs(&v4, 1, 2000, out, seed), 0);
    }
}

/* TRS-04 inclusive bounds; TRS-07: a single closes its group and is never a follow-up. */
static void test_trs04_bounds_trs07_singles(void **state)
{
    (void)state;
    size_t out[RMG__TRS_MAX_OBJECTS];
    trs_case b = {{2500}, {1}, {false}, {-1}, {0}};
    assert_int_equal(run_trs(&b, 1, 10000, out, 3), 4); /* 2500 = T/4 first, then [1875, 9375] ... */
    trs_case s = {{3000, 500}, {1, 1000}, {true, true}, {-1, -1}, {0}};
    assert_int_equal(run_trs(&s, 2, 4000, out, 5), 1);
    assert_int_equal(out[0], 0);
    trs_case m = {{3000, 1000}, {1, 1}, {false, true}, {-1, -1}, {0}};
    assert_int_equal(run_trs(&m, 2, 5000, out, 5), 1); /* 3000, then only the single fits: stop */
    assert_int_equal(out[0], 0);
}

typedef struct big_case {
    int64_t value[64];
    uint64_t weight[64];
    bool single[64];
    int64_t used[64];
    int64_t cap;
} big_case;

static bool big_available(void *user, size_t i)
{
    big_case *c = user;
    return c->used[i] < c->cap;
}

static void big_taken(void *user, size_t i)
{
    big_case *c = user;
    c->used[i]++;
}

/* TRS-04 picks through the value-sorted slices draw exactly what a scan of every candidate
 * draws (same groups, same random draws) on random lists with ties, singles and caps. */
static void test_trs04_sorted_picks_equal_the_scan(void **state)
{
    (void)state;
    rmg_rng gen;
    rmg_rng_seed(&gen, 99);
    for (int round = 0; round < 400; round++) {
        big_case a, b;
        memset(&a, 0, sizeof a);
        size_t n = 1 + rmg_rng_below(&gen, 64);
        for (size_t i = 0; i < n; i++) {
            a.value[i] = 100 * (int64_t)(1 + rmg_rng_below(&gen, 60)); /* many equal values */
            a.weight[i] = rmg_rng_below(&gen, 4) ? 1 + rmg_rng_below(&gen, 100) : 0;
            a.single[i] = rmg_rng_below(&gen, 8) == 0;
        }
        a.cap = 1 + (int64_t)rmg_rng_below(&gen, 3);
        b = a;
        uint32_t by_value[64];
        uint8_t mark[64] = {0};
        for (size_t k = 0; k < n; k++) { /* stable order by value */
            size_t j = k;
            for (; j > 0 && a.value[by_value[j - 1]] > a.value[k]; j--)
                by_value[j] = by_value[j - 1];
            by_value[j] = (uint32_t)k;
        }
        rmg__trs_source scan = {n, a.value, a.weight, a.single, big_available, big_taken, &a, NULL, NULL};
        rmg__trs_source sorted = {n, b.value, b.weight, b.single, big_available, big_taken, &b, by_value, mark};
        uint64_t w1[64], w2[64];
        size_t out1[RMG__TRS_MAX_OBJECTS], out2[RMG__TRS_MAX_OBJECTS];
        rmg_rng r1, r2;
        rmg_rng_seed(&r1, (uint64_t)round);
        rmg_rng_seed(&r2, (uint64_t)round);
        int64_t T = 500 * (int64_t)(1 + rmg_rng_below(&gen, 40));
        size_t n1 = rmg__trs_group(&scan, T, &r1, w1, out1), n2 = rmg__trs_group(&sorted, T, &r2, w2, out2);
        assert_int_equal(n1, n2);
        for (size_t k = 0; k < n1; k++)
            assert_int_equal(out1[k], out2[k]);
        assert_true(rmg_rng_next(&r1) == rmg_rng_next(&r2));
        for (size_t i = 0; i < n; i++)
            assert_int_equal(mark[i], 0); /* left zeroed */
    }
}

/* TRS-06/TRS-10: a range is exhausted when no total in [min, max] has a first object in [T/4, T]. */
static void test_trs06_range_exhausted(void **state)
{
    (void)state;
    trs_case v4 = {{400}, {1}, {false}, {-1}, {0}};
    rmg__trs_source src = {1, v4.value, v4.weight, v4.single, trs_available, trs_taken, &v4, NULL, NULL};
    assert_false(rmg__trs_can_start(&src, 2000, 2000)); /* vector 4: [500, 2000] holds nothing */
    assert_true(rmg__trs_can_start(&src, 1600, 2000));  /* T = 1600: 400 = T/4, inclusive */
    assert_false(rmg__trs_can_start(&src, 1601, 3000));
    assert_false(rmg__trs_can_start(&src, 100, 399));   /* worth more than the range's max */
    assert_true(rmg__trs_can_start(&src, 100, 400));
    v4.max_zone[0] = 1;
    v4.used[0] = 1; /* its limit is reached: nothing can start a group any more */
    assert_false(rmg__trs_can_start(&src, 1600, 2000));
    v4.weight[0] = 0;
    v4.used[0] = 0; /* frequency 0 is never picked */
    assert_false(rmg__trs_can_start(&src, 1600, 2000));
}

/* CRE-06 / CRE-09 count vectors through the content's count, and CRE-07's cap as placed. */
static void test_cre06_counts(void **state)
{
    (void)state;
    static const struct { int level; int ai, c; } v[] = {
        {1, 80, 60}, {1, 15, 330}, {2, 500, 15}, {2, 560, 12}, {3, 1000, 10},
        {4, 220, 50}, {5, 290, 60}, {7, 5000, 5}, {7, 30000, 1}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        assert_int_equal(rmg__creature_count(v[i].level, v[i].ai), v[i].c);
    rmg__creature peasant = {0};
    peasant.level = 1;
    peasant.ai_value = 15;
    assert_int_equal(rmg__cre_placed_count(&peasant), 150); /* c = 330: 150 placed */
    peasant.ai_value = 80;
    assert_int_equal(rmg__cre_placed_count(&peasant), 60);
}

static const rmg__eff_entry *creature_entry(const rmg__eff_list *l, const char *key, const char *creature)
{
    long i = rmg__eff_find(l, key, creature);
    assert_true(i >= 0);
    return &l->items.items[i];
}

/* CRE-02/03/04/05/09 values as the effective entries resolve them (n from main towns, N zones
 * with towns): the spec's examples with its synthetic AI values. */
static void test_cre09_entry_values(void **state)
{
    fixture *f = *state;
    rmg__eff_list l;
    assert_int_equal(rmg__eff_build(f->ctx, f->content, NULL, -1, NULL, &l), RMG_OK);
    int n[32] = {0};
    /* Level 1, AI 50: c = 100; Pandora's box n = 0, N = 4: 5000; Seer's Hut (10000-4000)/3. */
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "pandora_creatures", "syn_l1_ai50"), n, 4), 5000);
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "seer_artifact_creatures", "syn_l1_ai50"), n, 4),
                     2000);
    /* Level 2, AI 100: c = 70; n = 1, N = 4: 8750 and 4500. */
    n[RMG_FACTION_CASTLE] = 1;
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "pandora_creatures", "syn_l2_ai100"), n, 4), 8750);
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "seer_artifact_creatures", "syn_l2_ai100"), n, 4),
                     4500);
    /* Dwelling AI 100, g 14, n 1, N 2: 2150. */
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "creature_dwelling", "syn_l2_ai100"), n, 2), 2150);
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "creature_dwelling", "pikeman"), n, 2),
                     80 * 14 * 3 / 2 + 40); /* 80 x (14 x 1.5 + 0.5) */
    /* The Hovel is tripled (peasants are neutral: n = 0 whatever the towns). */
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "creature_dwelling_hovel", "peasant"), n, 2),
                     3 * 15 * 25);
    /* Composite: half the sum of its creatures' dwelling values (CRE-03). */
    const rmg__eff_entry *gf = creature_entry(&l, "golem_factory", NULL);
    int64_t sum = 250 * 6 + 412 * 6 + 600 * 3 + 775 * 2;
    assert_int_equal(rmg__eff_value(f->content, gf, n, 2), (sum + 1) / 2);
    /* N = 0 (no towns, so n = 0 too): n/N counts as 0. */
    n[RMG_FACTION_CASTLE] = 0;
    assert_int_equal(rmg__eff_value(f->content, creature_entry(&l, "creature_dwelling", "syn_l2_ai100"), n, 0), 1400);
    rmg__eff_free(&l);
}

/* The public API on the built-in content: L0's keys are exactly the TSV rows not banned by
 * default, without mines and the airship yard (OBJ-04); template and zone rules apply. */
static void test_api_effective(void **state)
{
    fixture *f = *state;
    rmg_object_list *list = NULL;
    assert_int_equal(rmg_objects_effective(f->ctx, NULL, 0, -1, &list), RMG_OK);
    size_t n = rmg_object_list_count(list), distinct = 0, expected = 0;
    for (size_t i = 0; i < f->content->n_objects; i++) {
        const rmg__object_def *d = &f->content->objects[i];
        expected += !d->banned_by_default && strcmp(d->family, "mine") != 0 && strcmp(d->family, "airship_yard") != 0;
    }
    const char *last = "";
    bool arena = false;
    for (size_t i = 0; i < n; i++) {
        rmg_object_info o;
        rmg_object_info_init(&o);
        assert_int_equal(rmg_object_list_get(list, i, &o), RMG_OK);
        distinct += strcmp(o.key, last) != 0;
        last = o.key;
        assert_false(o.banned_by_default);
        if (strcmp(o.key, "arena") == 0) {
            arena = true;
            assert_true(o.value == 3000 && o.frequency == 50 && o.max_map == 32 && o.max_map_fixed == 1);
            assert_int_equal(o.max_zone, RMG_OBJECT_UNLIMITED);
        }
        if (strcmp(o.key, "prison_level_1") == 0)
            assert_true(o.max_map == RMG_OBJECT_RULE && o.max_map_fixed == -1);
        if (strcmp(o.key, "creature_dwelling") == 0)
            assert_true(o.creature != NULL && o.value == RMG_OBJECT_FORMULA);
    }
    assert_true(arena);
    assert_int_equal(distinct, expected);
    assert_int_equal(expected, 162);
    /* A caller's older, smaller struct is filled up to its size. */
    struct { size_t struct_size; const char *key; } small = {sizeof small, NULL};
    assert_int_equal(rmg_object_list_get(list, 0, (rmg_object_info *)&small), RMG_OK);
    assert_non_null(small.key);
    assert_int_equal(rmg_object_list_get(list, n, (rmg_object_info *)&small), RMG_ERR_INVALID_ARG);
    rmg_object_list_destroy(list);
    rmg_object_list_destroy(NULL);

    /* Template rule + zone rule through the API (RUL-07 vector 1). */
    add_rule(f, &f->tpl->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena")->value = 5000;
    rmg__zone *z = add_zone(f, 7);
    add_rule(f, &z->rules, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "arena");
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    assert_int_equal(rmg_objects_effective(f->ctx, f->pack, 0, 7, &list), RMG_OK);
    bool found = false;
    for (size_t i = 0; i < rmg_object_list_count(list); i++) {
        rmg_object_info o;
        rmg_object_info_init(&o);
        rmg_object_list_get(list, i, &o);
        if (strcmp(o.key, "arena") == 0)
            found = o.value == 5000 && o.frequency == 50;
    }
    assert_true(found);
    rmg_object_list_destroy(list);
    assert_int_equal(rmg_objects_effective(f->ctx, f->pack, 0, 99, &list), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_objects_effective(f->ctx, f->pack, 3, -1, &list), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_objects_effective(f->ctx, NULL, 0, 1, &list), RMG_ERR_INVALID_ARG);
    assert_null(list);
}

static rmg_status oom_api(rmg_context *ctx, void *user)
{
    (void)user;
    rmg_object_list *list = NULL;
    rmg_status st = rmg_objects_effective(ctx, NULL, 0, -1, &list);
    rmg_object_list_destroy(list);
    return st;
}

static void test_api_oom(void **state)
{
    (void)state;
    assert_true(rmg_test_oom_sweep(oom_api, NULL, 0, 1) > 0);
}

typedef struct oom_user {
    struct rmg_content *content;
    rmg__template *tpl;
} oom_user;

static rmg_status oom_build(rmg_context *ctx, void *user)
{
    oom_user *u = user;
    rmg__eff_list l;
    rmg_status st = rmg__eff_build(ctx, u->content, u->tpl, 0, NULL, &l);
    if (st == RMG_OK)
        rmg__eff_free(&l);
    return st;
}

static void test_eff_oom(void **state)
{
    fixture *f = *state;
    rmg__zone *z = add_zone(f, 1);
    add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "arena");
    rmg__rule *r = add_rule(f, &z->rules, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "pandora_gold");
    r->amount = 1;
    r->value = r->frequency = r->max_zone = 1;
    oom_user u = {f->content, f->tpl};
    assert_true(rmg_test_oom_sweep(oom_build, &u, 0, 1) > 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_trs09_vectors),
        cmocka_unit_test(test_trs04_bounds_trs07_singles),
        cmocka_unit_test(test_trs06_range_exhausted),
        cmocka_unit_test(test_trs04_sorted_picks_equal_the_scan),
        cmocka_unit_test(test_cre06_counts),
        cmocka_unit_test(test_api_oom),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test_setup_teardown(test_obj04_initial_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul05_forbid_all_then_allow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul05_allow_then_forbid_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul07_zone_default_from_lmap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul07_zone_default_from_tsv, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul07_template_allows_banned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul06_rul12, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul10_template_forbid_leaves_zone_allows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul05_rule_effects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_obj07_caps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul02_zone_rules_local, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul03_groups_rul09_levels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_obj15_custom, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cre09_entry_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eff_oom, setup, teardown),
        cmocka_unit_test_setup_teardown(test_api_effective, setup, teardown),
    };
    return RMG_TEST_MAIN(plain, shared, "data");
}
