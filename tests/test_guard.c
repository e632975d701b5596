/* Guard computation (spec §11 GRD-01..11, ZON-24..27): strength, exact totals, eligibility,
 * monster choice and fallback, counts, moods, on a hand-built creature table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "guard/guard_internal.h"

/* ---- a small hand-built content (numbers from data/creatures.tsv) -------------------------------- */

typedef struct test_creature {
    const char *key;
    int faction, level, ai, map_min, map_max;
    bool special;
} test_creature;

static const test_creature sample_creatures[] = {
    {"pikeman", RMG_FACTION_CASTLE, 1, 80, 20, 50, false},
    {"zealot", RMG_FACTION_CASTLE, 5, 750, 8, 12, false},
    {"stone_gargoyle", RMG_FACTION_TOWER, 2, 165, 16, 30, false},
    {"wight", RMG_FACTION_NECROPOLIS, 3, 252, 12, 25, false},
    {"harpy", RMG_FACTION_DUNGEON, 2, 154, 16, 30, false},
    {"gold_golem", RMG_FACTION_NEUTRAL, 5, 600, 10, 16, false},
    {"azure_dragon", RMG_FACTION_NEUTRAL, 7, 78845, 1, 3, false},
    {"peasant", RMG_FACTION_NEUTRAL, 1, 15, 20, 50, false},
    {"ballista", RMG_FACTION_NEUTRAL, 0, 600, 0, 0, true},
};

typedef struct test_content {
    struct rmg_content content;
    rmg__creature creatures[16];
    char keys[16][32];
} test_content;

/* Fills t with `n` creatures of `list`. */
static void content_from(test_content *t, const test_creature *list, size_t n)
{
    memset(t, 0, sizeof *t);
    assert_true(n <= RMG__ARRAY_LEN(t->creatures));
    for (size_t i = 0; i < n; i++) {
        rmg__creature *c = &t->creatures[i];
        snprintf(t->keys[i], sizeof t->keys[i], "%s", list[i].key);
        c->key = c->name = c->plural = t->keys[i];
        c->id = (int)i;
        c->faction = list[i].faction;
        c->level = list[i].level;
        c->upgrade_of = -1;
        c->ai_value = list[i].ai;
        c->map_min = list[i].map_min;
        c->map_max = list[i].map_max;
        c->special = list[i].special;
    }
    t->content.creatures = t->creatures;
    t->content.n_creatures = n;
}

static void sample_content(test_content *t)
{
    content_from(t, sample_creatures, RMG__ARRAY_LEN(sample_creatures));
}

/* Sample content, a context and a default request for the tests that use them. */
typedef struct fixture {
    test_content t;
    rmg_context *ctx;
    rmg_guard_request req;
} fixture;

static int fixture_setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    sample_content(&f->t);
    f->ctx = rmg_test_context(NULL, 1);
    rmg_guard_request_init(&f->req);
    *state = f;
    return 0;
}

static int fixture_teardown(void **state)
{
    fixture *f = *state;
    rmg_context_destroy(f->ctx);
    free(f);
    return 0;
}

static long creature_index(const test_content *t, const char *key)
{
    for (size_t i = 0; i < t->content.n_creatures; i++)
        if (strcmp(t->keys[i], key) == 0)
            return (long)i;
    return -1;
}

static rmg_guard compute(rmg_context *ctx, const test_content *t, const rmg_guard_request *req, uint64_t seed)
{
    rmg_rng rng;
    rmg_rng_seed(&rng, seed);
    rmg_guard g;
    assert_int_equal(rmg__guard_compute(ctx, &t->content, req, &rng, &g), RMG_OK);
    return g;
}

/* ---- GRD-01 ------------------------------------------------------------------------------------ */

static void test_grd01_strength_index(void **state)
{
    (void)state;
    static const rmg_monster_strength zones[] = {RMG_MONSTERS_WEAK, RMG_MONSTERS_MEDIUM, RMG_MONSTERS_STRONG};
    static const rmg_map_monsters maps[] = {RMG_MAP_MONSTERS_WEAK, RMG_MAP_MONSTERS_NORMAL, RMG_MAP_MONSTERS_STRONG};
    for (int zi = 0; zi < 3; zi++)
        for (int mi = 0; mi < 3; mi++) {
            int zone_term = zi - 1, global_term = mi + 2;
            assert_int_equal(rmg_guard_strength_index(zones[zi], maps[mi], 0), zone_term + global_term);
            /* connections: zone term 0 whatever the zone says (ZON-23) */
            assert_int_equal(rmg_guard_strength_index(zones[zi], maps[mi], 1), global_term);
            assert_int_equal(rmg_guard_strength_index(RMG_MONSTERS_NONE, maps[mi], 1), global_term);
            /* TRS-08: zone strength none leaves content unguarded */
            assert_int_equal(rmg_guard_strength_index(RMG_MONSTERS_NONE, maps[mi], 0), 0);
        }
    assert_int_equal(rmg_guard_strength_index((rmg_monster_strength)7, RMG_MAP_MONSTERS_NORMAL, 0), -1);
    assert_int_equal(rmg_guard_strength_index(RMG_MONSTERS_WEAK, (rmg_map_monsters)3, 0), -1);
    assert_int_equal(rmg_guard_strength_index(RMG_MONSTERS_WEAK, (rmg_map_monsters)-1, 1), -1);
}

/* ---- GRD-10: the source's worked examples --------------------------------------------------------- */

typedef struct grd10_vector {
    rmg_map_monsters global;
    rmg_monster_strength zone;
    int connection;
    int64_t value;
    int index;
    double total;
    int guarded;
    const char *monster; /* the source's example draw, NULL when unguarded */
    int mean, lo, hi;
} grd10_vector;

static grd10_vector grd10[] = { /* not const: cmocka passes it as the initial state */
    {RMG_MAP_MONSTERS_STRONG, RMG_MONSTERS_STRONG, 0, 9000, 5, 19500, 1, "zealot", 26, 20, 32},
    {RMG_MAP_MONSTERS_WEAK, RMG_MONSTERS_WEAK, 0, 9000, 1, 4000, 1, "harpy", 26, 20, 32},
    {RMG_MAP_MONSTERS_NORMAL, RMG_MONSTERS_MEDIUM, 0, 7000, 3, 6000, 1, "wight", 24, 18, 30},
    {RMG_MAP_MONSTERS_WEAK, RMG_MONSTERS_WEAK, 0, 5000, 1, 1250, 0, NULL, 0, 0, 0},
    {RMG_MAP_MONSTERS_STRONG, RMG_MONSTERS_WEAK, 1, 6000, 4, 9250, 1, "stone_gargoyle", 56, 42, 70},
};

static void test_grd10_vector(void **state)
{
    const grd10_vector *v = *state;
    int idx = rmg_guard_strength_index(v->zone, v->global, v->connection);
    assert_int_equal(idx, v->index);
    assert_true(rmg_guard_total(v->value, idx) == v->total);
    assert_int_equal(rmg_guard_needed(v->value, idx), v->guarded);

    /* The example monster: a content holding only it, so the draw must pick it. */
    test_content t;
    long pick = -1;
    for (size_t i = 0; i < RMG__ARRAY_LEN(sample_creatures); i++)
        if (v->monster && strcmp(sample_creatures[i].key, v->monster) == 0)
            pick = (long)i;
    content_from(&t, pick >= 0 ? &sample_creatures[pick] : sample_creatures, 1);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_guard_request req;
    rmg_guard_request_init(&req);
    req.value = v->value;
    req.map_strength = v->global;
    req.zone_strength = v->zone;
    req.connection = v->connection;
    bool seen_lo = false, seen_hi = false;
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        rmg_guard g = compute(ctx, &t, &req, seed);
        assert_int_equal(g.guarded, v->guarded);
        assert_int_equal(g.strength_index, v->index);
        assert_true(g.total == v->total);
        if (!v->guarded) {
            assert_int_equal(g.creature, -1);
            assert_null(g.creature_key);
            continue;
        }
        assert_string_equal(g.creature_key, v->monster);
        assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
        assert_int_equal(g.mean, v->mean);
        assert_in_range(g.count, v->lo, v->hi);
        seen_lo |= g.count == v->lo;
        seen_hi |= g.count == v->hi;
    }
    if (v->guarded)
        assert_true(seen_lo && seen_hi);
    rmg_context_destroy(ctx);
}

/* ---- GRD-11 ------------------------------------------------------------------------------------- */

static void test_grd11_boundary_vectors(void **state)
{
    (void)state;
    static const struct {
        int index;
        int64_t value;
        double total;
        int guarded;
    } v[] = {
        {3, 3000, 2000, 1},   {3, 1000, 0, 0},         {4, 1834, 2001, 1},    {4, 1833, 1999.5, 0},
        {5, 1333, 1999.5, 0}, {2, 7500, 4500, 1},      {1, 20000, 15000, 1},
        {3, RMG_GUARD_AIRSHIP_YARD_VALUE, 15500, 1},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(v); i++) {
        assert_true(rmg_guard_total(v[i].value, v[i].index) == v[i].total);
        assert_int_equal(rmg__guard_total_quarters(v[i].value, v[i].index), (int64_t)(v[i].total * 4));
        assert_int_equal(rmg_guard_needed(v[i].value, v[i].index), v[i].guarded);
    }
}

static void test_grd03_terms_and_limits(void **state)
{
    (void)state;
    /* min_i = v: the term is 0; v below every min: 0; negative values: 0 */
    assert_true(rmg_guard_total(7500, 1) == 2500.0);
    assert_true(rmg_guard_total(5000, 5) == 7500.0);
    assert_true(rmg_guard_total(0, 5) == 0.0);
    assert_true(rmg_guard_total(-100, 5) == 0.0);
    assert_true(rmg_guard_total(2500, 1) == 0.0);
    /* a quarter: (1501 - 1500) * 0.75 */
    assert_true(rmg_guard_total(1501, 2) == 0.75);
    assert_true(rmg_guard_total(1, 1) == 0.0);
    /* largest value is exact */
    assert_true(rmg_guard_total(RMG_GUARD_VALUE_MAX, 5) ==
                (double)RMG_GUARD_VALUE_MAX * 1.5 + (double)(RMG_GUARD_VALUE_MAX - 5000) * 1.5);
    assert_true(rmg_guard_total(RMG_GUARD_VALUE_MAX + 1, 3) == -1.0);
    assert_true(rmg_guard_total(1000, 0) == -1.0);
    assert_true(rmg_guard_total(1000, 6) == -1.0);
    assert_int_equal(rmg_guard_needed(1000, 6), -1);
    assert_int_equal(rmg_guard_needed(1000000, 0), 0); /* zone strength none */
    /* GRD-05: exactly 2000 is guarded, 2000 - 0.25 is not (index 2: v = 1500 + total / 0.75) */
    assert_int_equal(rmg_guard_needed(4167, 2), 1);     /* 2000.25 */
    assert_true(rmg_guard_total(4166, 2) == 1999.5);
    assert_int_equal(rmg_guard_needed(4166, 2), 0);
}

/* ---- GRD-06 eligibility ---------------------------------------------------------------------------- */

static void test_grd06_eligibility_boundaries(void **state)
{
    (void)state;
    /* harpy: AI 154, window floor((16 + 30) / 2) = 23 .. 100 */
    assert_int_equal(rmg_guard_eligible(23 * 154, 154, 16, 30), 1);
    assert_int_equal(rmg_guard_eligible(23 * 154 - 0.25, 154, 16, 30), 0);
    assert_int_equal(rmg_guard_eligible(100 * 154 - 0.25, 154, 16, 30), 1);
    assert_int_equal(rmg_guard_eligible(100 * 154, 154, 16, 30), 0);
    /* the lower bound rounds down: (12 + 25) / 2 = 18.5 -> 18 */
    assert_int_equal(rmg_guard_eligible(18 * 252, 252, 12, 25), 1);
    assert_int_equal(rmg_guard_eligible(18 * 252 - 0.5, 252, 12, 25), 0);
    /* the quotient is not rounded before the comparison: 22.9 with window 23 is out */
    assert_int_equal(rmg_guard_eligible(22.75 * 154, 154, 16, 30), 0);
    /* invalid arguments */
    assert_int_equal(rmg_guard_eligible(2000.1, 154, 16, 30), -1);
    assert_int_equal(rmg_guard_eligible(-1, 154, 16, 30), -1);
    assert_int_equal(rmg_guard_eligible(2000, 0, 16, 30), -1);
    assert_int_equal(rmg_guard_eligible(2000, 154, 30, 16), -1);
    assert_int_equal(rmg_guard_eligible(2000, 154, -1, 16), -1);
}

static void test_grd06_eligible_draw_uses_only_eligible_types(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    req->value = 7000; /* index 3: total 6000 */
    int hits[16] = {0};
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        rmg_guard g = compute(ctx, t, req, seed);
        assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
        const rmg__creature *c = &t->creatures[g.creature];
        assert_int_equal(rmg_guard_eligible(g.total, c->ai_value, c->map_min, c->map_max), 1);
        assert_false(c->special);
        hits[g.creature]++;
    }
    /* 6000: pikeman 75 (>= 35), zealot 8 (< 10, out), gargoyle 36.4, wight 23.8, harpy 39,
     * gold golem 10 (>= 13? no: out), dragon 0.08 (out), peasant 400 (out), ballista special */
    const char *eligible[] = {"pikeman", "stone_gargoyle", "wight", "harpy"};
    int total_hits = 0;
    for (size_t i = 0; i < RMG__ARRAY_LEN(eligible); i++) {
        int h = hits[creature_index(t, eligible[i])];
        assert_in_range(h, 600, 900); /* uniform: 750 expected each */
        total_hits += h;
    }
    assert_int_equal(total_hits, 3000);
}

/* GRD-06 with more eligible creatures than the draw keeps indexes of (the rest is found by a
 * scan): the drawn index k picks the k-th eligible creature in content order, for k on both
 * sides of the kept ones. */
static void test_grd06_draw_among_many_eligible(void **state)
{
    fixture *f = *state;
    enum { N = 200 };
    static rmg__creature many[N];
    static char key[] = "c";
    memset(many, 0, sizeof many);
    for (size_t i = 0; i < N; i++) {
        /* Every third one out of the window (a peasant's), the rest pikemen-like. */
        bool out = i % 3 == 1;
        many[i].key = many[i].name = many[i].plural = key;
        many[i].id = (int)i;
        many[i].faction = RMG_FACTION_NEUTRAL;
        many[i].upgrade_of = -1;
        many[i].ai_value = out ? 15 : 80;
        many[i].map_min = 20;
        many[i].map_max = 50;
    }
    struct rmg_content content;
    memset(&content, 0, sizeof content);
    content.creatures = many;
    content.n_creatures = N;
    f->req.value = 7000; /* index 3: total 6000, pikemen 75 (eligible), peasants 400 (not) */
    long eligible[N];
    size_t n = 0;
    for (size_t i = 0; i < N; i++)
        if (rmg_guard_eligible(6000.0, many[i].ai_value, many[i].map_min, many[i].map_max) == 1)
            eligible[n++] = (long)i;
    assert_true(n > 100);
    bool above_kept = false;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        rmg_rng rng;
        rmg_rng_seed(&rng, seed);
        uint64_t k = rmg_rng_below(&rng, n);
        above_kept |= k >= 64;
        rmg_rng_seed(&rng, seed);
        rmg_guard g;
        assert_int_equal(rmg__guard_compute(f->ctx, &content, &f->req, &rng, &g), RMG_OK);
        assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
        assert_int_equal(g.creature, eligible[k]);
    }
    assert_true(above_kept);
}

/* ---- ZON-27 factions --------------------------------------------------------------------------- */

static void test_zon27_faction_mask(void **state)
{
    (void)state;
    uint32_t neutral = UINT32_C(1) << RMG_FACTION_NEUTRAL;
    assert_int_equal(rmg__guard_faction_mask(0, false, RMG_FACTION_CASTLE), 0);
    assert_int_equal(rmg__guard_faction_mask(0, true, RMG_FACTION_TOWER), UINT32_C(1) << RMG_FACTION_TOWER);
    assert_int_equal(rmg__guard_faction_mask(neutral, true, RMG_FACTION_TOWER),
                     neutral | (UINT32_C(1) << RMG_FACTION_TOWER));
    assert_int_equal(rmg__guard_faction_mask(neutral, true, RMG_FACTION_NONE), neutral);
    assert_int_equal(rmg__guard_faction_mask(neutral, true, RMG_FACTION_NEUTRAL), neutral);
    assert_true(rmg__guard_faction_allowed(0, RMG_FACTION_NEUTRAL));
    assert_true(rmg__guard_faction_allowed(neutral, RMG_FACTION_NEUTRAL));
    assert_false(rmg__guard_faction_allowed(neutral, RMG_FACTION_CASTLE));
    assert_false(rmg__guard_faction_allowed(neutral, RMG_FACTION_NONE));
}

static void test_zon27_monster_factions_restrict_the_draw(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    req->value = 7000;                                          /* total 6000 */
    req->monster_factions = UINT32_C(1) << RMG_FACTION_DUNGEON; /* harpy only */
    for (uint64_t seed = 1; seed <= 200; seed++)
        assert_string_equal(compute(ctx, t, req, seed).creature_key, "harpy");
    /* the town binding adds the town's faction */
    req->match_town = 1;
    req->town_faction = RMG_FACTION_NECROPOLIS;
    bool harpy = false, wight = false;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        rmg_guard g = compute(ctx, t, req, seed);
        harpy |= strcmp(g.creature_key, "harpy") == 0;
        wight |= strcmp(g.creature_key, "wight") == 0;
        assert_true(strcmp(g.creature_key, "harpy") == 0 || strcmp(g.creature_key, "wight") == 0);
    }
    assert_true(harpy && wight);
    /* the neutral bit: total 12000 -> gold golem 20 (window 13) is the only eligible neutral */
    rmg_guard_request_init(req);
    req->value = 10250;
    req->monster_factions = UINT32_C(1) << RMG_FACTION_NEUTRAL;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        rmg_guard g = compute(ctx, t, req, seed);
        assert_true(g.total == 12000.0);
        assert_string_equal(g.creature_key, "gold_golem");
        assert_int_equal(g.mean, 20);
    }
}

/* ---- fallback ------------------------------------------------------------------------------------ */

static void test_grd06_fallback_nearest_in_allowed_factions(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    /* total 2000, castle only: pikeman 25 (window 35: ratio 1.4), zealot 2.67 (window 10:
     * ratio 3.75) -> the pikeman is closest */
    req->value = 3000;
    req->monster_factions = UINT32_C(1) << RMG_FACTION_CASTLE;
    rmg_guard g = compute(ctx, t, req, 5);
    assert_int_equal(g.guarded, 1);
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST);
    assert_string_equal(g.creature_key, "pikeman");
    assert_int_equal(g.mean, 25);
    assert_in_range(g.count, 19, 31);
    /* neutrals only, total 5000: golem 8.33 (window 13: ratio 1.56), dragon 0.063 (window 2:
     * ratio 31.5, though only 1.94 creatures short), peasant 333 (ratio 3.33) -> the golem */
    req->value = 6000;
    req->monster_factions = UINT32_C(1) << RMG_FACTION_NEUTRAL;
    g = compute(ctx, t, req, 5);
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST);
    assert_string_equal(g.creature_key, "gold_golem");
    assert_int_equal(g.mean, 8);
    /* a fallback far above its window keeps at least one creature: azure dragons only */
    static const test_creature dragon_only[] = {{"azure_dragon", RMG_FACTION_NEUTRAL, 7, 78845, 1, 3, false}};
    content_from(t, dragon_only, 1);
    g = compute(ctx, t, req, 5);
    assert_string_equal(g.creature_key, "azure_dragon");
    assert_int_equal(g.mean, 1);
    assert_int_equal(g.count, 1);
    sample_content(t);
    /* a huge total, neutrals only: dragon 2739500 / 78845 = 34.7 (window 2) is eligible */
    req->value = 1374000; /* idx 3: (v-1000) + (v-7500) = 2739500 */
    req->monster_factions = UINT32_C(1) << RMG_FACTION_NEUTRAL;
    g = compute(ctx, t, req, 5);
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
    assert_string_equal(g.creature_key, "azure_dragon");
    /* castle only and far too much: every castle creature is above 100; the zealot (3652.7,
     * ratio 36.5) is nearer than the pikeman (34243.75, ratio 342) */
    req->monster_factions = UINT32_C(1) << RMG_FACTION_CASTLE;
    g = compute(ctx, t, req, 5);
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST);
    assert_string_equal(g.creature_key, "zealot");
}

static void test_grd06_fallback_any_faction_and_ties(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    req->value = 7000; /* total 6000 */
    req->monster_factions = UINT32_C(1) << RMG_FACTION_COVE; /* no cove creature in this content */
    rmg_guard g = compute(ctx, t, req, 9);
    /* every faction, eligible ones not considered: the nearest to its window is one of the
     * eligible types at distance 0, the lowest index first: the pikeman */
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST_ANY);
    assert_string_equal(g.creature_key, "pikeman");

    /* ties: two creatures at the same distance -> the lower index, whatever the seed */
    static const test_creature twins[] = {
        {"first", RMG_FACTION_TOWER, 1, 100, 60, 60, false},
        {"second", RMG_FACTION_TOWER, 1, 100, 60, 60, false},
    };
    content_from(t, twins, 2);
    req->monster_factions = 0;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        g = compute(ctx, t, req, seed); /* 60 creatures needed, 60 available */
        assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
    }
    req->value = 5000; /* total 4000 -> 40 < 60 */
    for (uint64_t seed = 1; seed <= 50; seed++) {
        g = compute(ctx, t, req, seed);
        assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST);
        assert_string_equal(g.creature_key, "first");
    }

    /* distances whose cross products pass 2^64: the second creature's window is a hair nearer */
    static const test_creature giants[] = {
        {"giant_a", RMG_FACTION_TOWER, 7, 1000000, 10000, 10000, false},
        {"giant_b", RMG_FACTION_TOWER, 7, 999999, 10000, 10000, false},
    };
    content_from(t, giants, 2);
    req->value = RMG_GUARD_VALUE_MAX;
    req->zone_strength = RMG_MONSTERS_STRONG;
    req->map_strength = RMG_MAP_MONSTERS_STRONG;
    g = compute(ctx, t, req, 1);
    assert_int_equal(g.choice, RMG_GUARD_CHOICE_NEAREST);
    assert_string_equal(g.creature_key, "giant_b");
    assert_int_equal(g.mean, 6442);
}

static void test_grd06_no_usable_creature_is_an_error(void **state)
{
    (void)state;
    test_content t;
    static const test_creature only_special[] = {{"ballista", RMG_FACTION_NEUTRAL, 0, 600, 0, 0, true}};
    content_from(&t, only_special, 1);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_guard_request req;
    rmg_guard_request_init(&req);
    req.value = 7000;
    rmg_rng rng;
    rmg_rng_seed(&rng, 1);
    rmg_guard g;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "no creature"));
    /* but an unguarded request needs no creature */
    req.value = 1000;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_OK);
    assert_int_equal(g.guarded, 0);
    rmg_context_destroy(ctx);
}

/* ---- GRD-07 counts ------------------------------------------------------------------------------ */

static void test_grd07_mean_rounds_half_up(void **state)
{
    (void)state;
    assert_int_equal(rmg_guard_mean_count(5, 2), 3);      /* 2.5 -> 3 */
    assert_int_equal(rmg_guard_mean_count(4.75, 2), 2);   /* 2.375 -> 2 */
    assert_int_equal(rmg_guard_mean_count(5.25, 2), 3);   /* 2.625 -> 3 */
    assert_int_equal(rmg_guard_mean_count(19500, 750), 26);
    assert_int_equal(rmg_guard_mean_count(4000, 154), 26); /* 25.97 */
    assert_int_equal(rmg_guard_mean_count(9250, 165), 56); /* 56.06 */
    assert_int_equal(rmg_guard_mean_count(1999.5, 3999), 1); /* exactly 0.5 -> 1 */
    assert_int_equal(rmg_guard_mean_count(1999.25, 3999), 0);
    assert_int_equal(rmg_guard_mean_count(6442450941.0, 1), RMG_GUARD_COUNT_MAX);
    assert_int_equal(rmg_guard_mean_count(100, 0), -1);
    assert_int_equal(rmg_guard_mean_count(100.1, 3), -1);
}

static void test_grd07_count_distribution(void **state)
{
    (void)state;
    static const int means[] = {4, 7, 26, 56, 99};
    for (size_t m = 0; m < RMG__ARRAY_LEN(means); m++) {
        int a = means[m], spread = a / 4;
        int hist[140] = {0};
        for (uint64_t seed = 1; seed <= 40000; seed++) {
            rmg_rng rng;
            rmg_rng_seed(&rng, rmg_rng_derive(7, "count", seed));
            int c = rmg_guard_draw_count(&rng, a);
            assert_in_range(c, a - spread, a + spread);
            hist[c]++;
        }
        /* every value reachable; a triangle peaking at a: the most frequent value is a (or a
         * neighbour, whose probability differs by 1/(spread+1)^2 only), a beats everything
         * two or more away, and the ends are rare */
        int mode = a - spread;
        for (int c = a - spread; c <= a + spread; c++) {
            assert_true(hist[c] > 0);
            if (hist[c] > hist[mode])
                mode = c;
            if (c < a - 1 || c > a + 1)
                assert_true(hist[a] > hist[c]);
        }
        assert_in_range(mode, a - 1, a + 1);
        if (spread > 1)
            assert_true(hist[a - spread] < hist[a] / 2 && hist[a + spread] < hist[a] / 2);
    }
    /* below 4: exact, no draw */
    rmg_rng rng;
    rmg_rng_seed(&rng, 3);
    rmg_rng before = rng;
    for (int a = 0; a < 4; a++)
        assert_int_equal(rmg_guard_draw_count(&rng, a), a);
    assert_memory_equal(&rng, &before, sizeof rng);
    assert_int_equal(rmg_guard_draw_count(NULL, 10), -1);
    assert_int_equal(rmg_guard_draw_count(&rng, -1), -1);
}

/* ---- ZON-24 moods, ZON-25/26 joining ---------------------------------------------------------- */

static void check_mood_range(rmg_mood mood, int lo, int hi)
{
    rmg_rng rng;
    rmg_rng_seed(&rng, 11 + (uint64_t)mood);
    int seen[11] = {0};
    for (int i = 0; i < 2000; i++) {
        int d = rmg_guard_draw_disposition(&rng, mood, 0);
        assert_in_range(d, lo, hi);
        seen[d]++;
    }
    for (int d = lo; d <= hi; d++)
        assert_true(seen[d] > 2000 / (hi - lo + 1) / 2); /* each value drawn, roughly uniformly */
}

static void test_zon24_moods(void **state)
{
    (void)state;
    rmg_rng rng;
    rmg_rng_seed(&rng, 1);
    assert_int_equal(rmg_guard_draw_disposition(&rng, RMG_MOOD_COMPLIANT, 5), 0);
    assert_int_equal(rmg_guard_draw_disposition(&rng, RMG_MOOD_SAVAGE, 5), 10);
    for (int k = 0; k <= 10; k++)
        assert_int_equal(rmg_guard_draw_disposition(&rng, RMG_MOOD_EXACT, k), k);
    assert_int_equal(rmg_guard_draw_disposition(&rng, RMG_MOOD_EXACT, 11), -1);
    assert_int_equal(rmg_guard_draw_disposition(&rng, RMG_MOOD_EXACT, -1), -1);
    assert_int_equal(rmg_guard_draw_disposition(NULL, RMG_MOOD_HOSTILE, 0), -1);
    assert_int_equal(rmg_guard_draw_disposition(&rng, (rmg_mood)9, 0), -1);
    check_mood_range(RMG_MOOD_FRIENDLY, 1, 7);
    check_mood_range(RMG_MOOD_AGGRESSIVE, 1, 10);
    check_mood_range(RMG_MOOD_HOSTILE, 4, 10);
}

static void test_zon24_mood_drawn_per_stack_and_joining_copied(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    req->value = 7000;
    req->mood = RMG_MOOD_FRIENDLY;
    req->join_percent = 75;
    req->join_only_for_money = 0;
    rmg_rng rng;
    rmg_rng_seed(&rng, 4);
    bool differ = false;
    int first = -1;
    for (int i = 0; i < 50; i++) {
        rmg_guard g;
        assert_int_equal(rmg__guard_compute(ctx, &t->content, req, &rng, &g), RMG_OK);
        assert_in_range(g.disposition, 1, 7);
        assert_int_equal(g.join_percent, 75);
        assert_int_equal(g.join_for_money, 0);
        differ |= first >= 0 && g.disposition != first;
        first = g.disposition;
    }
    assert_true(differ); /* each stack draws its own mood */
    req->mood = RMG_MOOD_EXACT;
    req->mood_value = 7;
    req->join_only_for_money = 1;
    rmg_guard g = compute(ctx, t, req, 3);
    assert_int_equal(g.disposition, 7);
    assert_int_equal(g.join_for_money, 1);
}

/* ---- requests ----------------------------------------------------------------------------------- */

static void test_request_validation(void **state)
{
    (void)state;
    test_content t;
    sample_content(&t);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_rng rng;
    rmg_rng_seed(&rng, 1);
    rmg_guard g;
    rmg_guard_request req;

    rmg_guard_request_init(&req);
    req.value = RMG_GUARD_VALUE_MAX + 1;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_ERR_INVALID_ARG);
    rmg_guard_request_init(&req);
    req.zone_strength = (rmg_monster_strength)9;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_ERR_INVALID_ARG);
    rmg_guard_request_init(&req);
    req.mood = RMG_MOOD_EXACT;
    req.mood_value = 12;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_ERR_INVALID_ARG);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "mood"));
    rmg_guard_request_init(&req);
    req.join_percent = 101;
    assert_int_equal(rmg__guard_compute(ctx, &t.content, &req, &rng, &g), RMG_ERR_INVALID_ARG);

    /* defaults: the editor's */
    rmg_guard_request_init(&req);
    assert_int_equal(req.struct_size, sizeof req);
    assert_int_equal(req.map_strength, RMG_MAP_MONSTERS_NORMAL);
    assert_int_equal(req.zone_strength, RMG_MONSTERS_MEDIUM);
    assert_int_equal(req.mood, RMG_MOOD_HOSTILE);
    assert_int_equal(req.join_percent, 50);
    assert_int_equal(req.join_only_for_money, 1);
    assert_int_equal(req.town_faction, RMG_FACTION_NONE);
    rmg_guard_request_init(NULL); /* no-op */

    /* zone strength none: unguarded content, guarded connection */
    req.value = 20000;
    req.zone_strength = RMG_MONSTERS_NONE;
    g = compute(ctx, &t, &req, 1);
    assert_int_equal(g.guarded, 0);
    assert_int_equal(g.strength_index, 0);
    req.connection = 1;
    g = compute(ctx, &t, &req, 1);
    assert_int_equal(g.guarded, 1);
    assert_int_equal(g.strength_index, 3);
    assert_true(g.total == 31500.0);
    rmg_context_destroy(ctx);
}

static void test_same_stream_same_guard(void **state)
{
    fixture *f = *state;
    rmg_context *ctx = f->ctx;
    test_content *t = &f->t;
    rmg_guard_request *req = &f->req;
    req->value = 15000;
    req->mood = RMG_MOOD_AGGRESSIVE;
    bool varied = false;
    rmg_guard prev = compute(ctx, t, req, 100);
    for (uint64_t seed = 100; seed < 140; seed++) {
        rmg_guard a = compute(ctx, t, req, seed), b = compute(ctx, t, req, seed);
        assert_memory_equal(&a, &b, sizeof a);
        varied |= a.creature != prev.creature || a.count != prev.count;
        prev = a;
    }
    assert_true(varied);
}

/* ---- allocator failures ---------------------------------------------------------------------------- */

static rmg_status oom_compute(rmg_context *ctx, void *user)
{
    const test_content *t = user;
    rmg_guard_request req;
    rmg_guard_request_init(&req);
    req.value = 9000;
    rmg_rng rng;
    rmg_rng_seed(&rng, 2);
    rmg_guard g;
    return rmg__guard_compute(ctx, &t->content, &req, &rng, &g);
}

static void test_oom_compute_needs_no_allocation(void **state)
{
    (void)state;
    test_content t;
    sample_content(&t);
    /* The computation never allocates: it counts and walks the creature table instead. */
    assert_int_equal(rmg_test_oom_sweep(oom_compute, &t, 0, 1), 0);
}

#define GRD10_TEST(name, i) {name, test_grd10_vector, NULL, NULL, &grd10[i]}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grd01_strength_index),
        GRD10_TEST("test_grd10_vector_1_hive_strong_strong", 0),
        GRD10_TEST("test_grd10_vector_2_hive_weak_weak", 1),
        GRD10_TEST("test_grd10_vector_3_gold_mine_normal_medium", 2),
        GRD10_TEST("test_grd10_vector_4_prison_unguarded", 3),
        GRD10_TEST("test_grd10_vector_5_passage_strong", 4),
        cmocka_unit_test(test_grd11_boundary_vectors),
        cmocka_unit_test(test_grd03_terms_and_limits),
        cmocka_unit_test(test_grd06_eligibility_boundaries),
        cmocka_unit_test_setup_teardown(test_grd06_eligible_draw_uses_only_eligible_types, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_grd06_draw_among_many_eligible, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_zon27_faction_mask),
        cmocka_unit_test_setup_teardown(test_zon27_monster_factions_restrict_the_draw, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_grd06_fallback_nearest_in_allowed_factions, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_grd06_fallback_any_faction_and_ties, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_grd06_no_usable_creature_is_an_error),
        cmocka_unit_test(test_grd07_mean_rounds_half_up),
        cmocka_unit_test(test_grd07_count_distribution),
        cmocka_unit_test(test_zon24_moods),
        cmocka_unit_test_setup_teardown(test_zon24_mood_drawn_per_stack_and_joining_copied, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_request_validation),
        cmocka_unit_test_setup_teardown(test_same_stream_same_guard, fixture_setup, fixture_teardown),
        cmocka_unit_test(test_oom_compute_needs_no_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
