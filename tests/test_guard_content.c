/* The public guard API on the built-in content: rmg_guard_compute, the eligible-creature
 * listing, versioned structs, context streams (GRD-06/07/10, ZON-27). */
#include <stddef.h>
#include <string.h>

#include "rmg_test.h"
#include "guard/guard_internal.h"

static rmg_guard_request request(int64_t value, rmg_monster_strength zone, rmg_map_monsters map, int connection)
{
    rmg_guard_request r;
    rmg_guard_request_init(&r);
    r.value = value;
    r.zone_strength = zone;
    r.map_strength = map;
    r.connection = connection;
    return r;
}

static bool candidate_listed(rmg_context *ctx, double total, uint32_t factions, const char *key)
{
    size_t n = 0;
    assert_int_equal(rmg_guard_candidate_count(ctx, total, factions, &n), RMG_OK);
    for (size_t i = 0; i < n; i++) {
        rmg_guard_candidate c = {.struct_size = sizeof c};
        assert_int_equal(rmg_guard_candidate_at(ctx, total, factions, i, &c), RMG_OK);
        if (strcmp(c.key, key) == 0)
            return true;
    }
    return false;
}

/* GRD-10: each example monster is an eligible draw in the real content, and draws give the
 * source's mean and count range whenever they pick it. */
static void test_grd10_example_monsters_are_eligible(void **state)
{
    (void)state;
    static const struct {
        double total;
        const char *monster;
        int mean;
    } v[] = {
        {19500, "zealot", 26},
        {4000, "harpy", 26},
        {6000, "wight", 24},
        {9250, "stone_gargoyle", 56},
    };
    rmg_guard_request reqs[] = {
        request(9000, RMG_MONSTERS_STRONG, RMG_MAP_MONSTERS_STRONG, 0),
        request(9000, RMG_MONSTERS_WEAK, RMG_MAP_MONSTERS_WEAK, 0),
        request(7000, RMG_MONSTERS_MEDIUM, RMG_MAP_MONSTERS_NORMAL, 0),
        request(6000, RMG_MONSTERS_WEAK, RMG_MAP_MONSTERS_STRONG, 1),
    };
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t i = 0; i < RMG__ARRAY_LEN(v); i++) {
        assert_true(candidate_listed(ctx, v[i].total, 0, v[i].monster));
        int hits = 0;
        for (uint64_t seed = 0; seed < 3000; seed++) {
            rmg_rng rng;
            rmg_rng_seed(&rng, seed);
            rmg_guard g = {.struct_size = sizeof g};
            assert_int_equal(rmg_guard_compute(ctx, &reqs[i], &rng, &g), RMG_OK);
            assert_true(g.total == v[i].total);
            assert_int_equal(g.choice, RMG_GUARD_CHOICE_ELIGIBLE);
            if (strcmp(g.creature_key, v[i].monster) != 0)
                continue;
            hits++;
            assert_int_equal(g.mean, v[i].mean);
            assert_in_range(g.count, v[i].mean - v[i].mean / 4, v[i].mean + v[i].mean / 4);
        }
        assert_true(hits > 0);
    }
    rmg_guard g = {.struct_size = sizeof g};
    rmg_guard_request prison = request(5000, RMG_MONSTERS_WEAK, RMG_MAP_MONSTERS_WEAK, 0);
    assert_int_equal(rmg_guard_compute(ctx, &prison, NULL, &g), RMG_OK);
    assert_int_equal(g.guarded, 0);
    assert_true(g.total == 1250.0);
    rmg_context_destroy(ctx);
}

/* Every listed candidate really is eligible, never special, of the asked factions; every
 * eligible creature of the content is listed. */
static void test_grd06_candidates_match_the_content(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *content = rmg__content_get(ctx);
    assert_non_null(content);
    static const double totals[] = {2000, 4000, 9250, 19500, 100000, 1999.5};
    static const uint32_t masks[] = {0, UINT32_C(1) << RMG_FACTION_NEUTRAL,
                                     (UINT32_C(1) << RMG_FACTION_TOWER) | (UINT32_C(1) << RMG_FACTION_COVE)};
    for (size_t t = 0; t < RMG__ARRAY_LEN(totals); t++)
        for (size_t k = 0; k < RMG__ARRAY_LEN(masks); k++) {
            size_t n = 0, expected = 0;
            assert_int_equal(rmg_guard_candidate_count(ctx, totals[t], masks[k], &n), RMG_OK);
            for (size_t i = 0; i < content->n_creatures; i++) {
                const rmg__creature *c = &content->creatures[i];
                expected += !c->special && rmg__guard_faction_allowed(masks[k], c->faction) &&
                            rmg_guard_eligible(totals[t], c->ai_value, c->map_min, c->map_max) == 1;
            }
            assert_int_equal(n, expected);
            for (size_t i = 0; i < n; i++) {
                rmg_guard_candidate c = {.struct_size = sizeof c};
                assert_int_equal(rmg_guard_candidate_at(ctx, totals[t], masks[k], i, &c), RMG_OK);
                const rmg__creature *cr = &content->creatures[c.creature];
                assert_false(cr->special);
                assert_true(rmg__guard_faction_allowed(masks[k], c.faction));
                assert_int_equal(rmg_guard_eligible(totals[t], c.ai_value, cr->map_min, cr->map_max), 1);
                assert_int_equal(c.mean, rmg_guard_mean_count(totals[t], c.ai_value));
            }
            rmg_guard_candidate past = {.struct_size = sizeof past};
            assert_int_equal(rmg_guard_candidate_at(ctx, totals[t], masks[k], n, &past), RMG_ERR_NOT_FOUND);
        }
    size_t n;
    assert_int_equal(rmg_guard_candidate_count(ctx, 2000.3, 0, &n), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_guard_candidate_count(ctx, 2000, 0, NULL), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_guard_candidate_count(NULL, 2000, 0, &n), RMG_ERR_INVALID_ARG);
    rmg_context_destroy(ctx);
}

/* A draw from the built-in content stays inside the zone's factions (neutral bit included). */
static void test_zon27_real_content_respects_factions(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *content = rmg__content_get(ctx);
    rmg_guard_request req = request(15000, RMG_MONSTERS_MEDIUM, RMG_MAP_MONSTERS_NORMAL, 0);
    req.monster_factions = UINT32_C(1) << RMG_FACTION_NEUTRAL;
    req.match_town = 1;
    req.town_faction = RMG_FACTION_FACTORY;
    bool neutral = false, factory = false;
    for (uint64_t seed = 0; seed < 400; seed++) {
        rmg_rng rng;
        rmg_rng_seed(&rng, seed);
        rmg_guard g = {.struct_size = sizeof g};
        assert_int_equal(rmg_guard_compute(ctx, &req, &rng, &g), RMG_OK);
        int f = content->creatures[g.creature].faction;
        assert_true(f == RMG_FACTION_NEUTRAL || f == RMG_FACTION_FACTORY);
        neutral |= f == RMG_FACTION_NEUTRAL;
        factory |= f == RMG_FACTION_FACTORY;
    }
    assert_true(neutral && factory);
    rmg_context_destroy(ctx);
}

/* rng NULL: the context stream ("guard", request.stream); same seed and index, same guard. */
static void test_context_stream_draws(void **state)
{
    (void)state;
    rmg_context *a = rmg_test_context(NULL, 99), *b = rmg_test_context(NULL, 99);
    rmg_guard_request req = request(20000, RMG_MONSTERS_STRONG, RMG_MAP_MONSTERS_NORMAL, 0);
    req.mood = RMG_MOOD_AGGRESSIVE;
    bool varied = false;
    rmg_guard first = {.struct_size = sizeof first};
    for (uint64_t s = 0; s < 30; s++) {
        req.stream = s;
        rmg_guard ga = {.struct_size = sizeof ga}, gb = {.struct_size = sizeof gb};
        assert_int_equal(rmg_guard_compute(a, &req, NULL, &ga), RMG_OK);
        assert_int_equal(rmg_guard_compute(b, &req, NULL, &gb), RMG_OK);
        assert_int_equal(ga.creature, gb.creature);
        assert_int_equal(ga.count, gb.count);
        assert_int_equal(ga.disposition, gb.disposition);
        if (s == 0)
            first = ga;
        varied |= ga.creature != first.creature || ga.count != first.count;
    }
    assert_true(varied);
    rmg_context_destroy(a);
    rmg_context_destroy(b);
}

/* Versioned structs: an older request keeps defaults for what it lacks; a newer one with a
 * non-zero tail is refused; an older result struct gets its prefix. */
static void test_versioned_structs(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_guard g = {.struct_size = sizeof g};
    struct {
        rmg_guard_request req;
        uint64_t extra;
    } newer;
    memset(&newer, 0, sizeof newer);
    rmg_guard_request_init(&newer.req);
    newer.req.value = 9000;
    newer.req.struct_size = sizeof newer;
    assert_int_equal(rmg_guard_compute(ctx, &newer.req, NULL, &g), RMG_OK); /* zero tail: fine */
    newer.extra = 1;
    assert_int_equal(rmg_guard_compute(ctx, &newer.req, NULL, &g), RMG_ERR_UNSUPPORTED);

    rmg_guard_request old = request(9000, RMG_MONSTERS_STRONG, RMG_MAP_MONSTERS_STRONG, 0);
    old.mood = RMG_MOOD_SAVAGE;
    old.struct_size = offsetof(rmg_guard_request, connection); /* no zone settings: defaults */
    assert_int_equal(rmg_guard_compute(ctx, &old, NULL, &g), RMG_OK);
    assert_in_range(g.disposition, 4, 10);     /* the default mood (hostile), not savage */
    assert_int_equal(g.join_percent, 50);
    old.struct_size = sizeof(size_t);
    assert_int_equal(rmg_guard_compute(ctx, &old, NULL, &g), RMG_ERR_INVALID_ARG);

    rmg_guard small = {.struct_size = offsetof(rmg_guard, creature)};
    assert_int_equal(rmg_guard_compute(ctx, &newer.req, NULL, &small), RMG_ERR_UNSUPPORTED);
    newer.extra = 0;
    assert_int_equal(rmg_guard_compute(ctx, &newer.req, NULL, &small), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_guard_compute(NULL, &newer.req, NULL, &g), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_guard_compute(ctx, NULL, NULL, &g), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_guard_compute(ctx, &newer.req, NULL, NULL), RMG_ERR_INVALID_ARG);
    rmg_context_destroy(ctx);
}

static rmg_status oom_public_compute(rmg_context *ctx, void *user)
{
    (void)user;
    rmg_guard_request req = request(19000, RMG_MONSTERS_MEDIUM, RMG_MAP_MONSTERS_NORMAL, 0);
    rmg_guard g = {.struct_size = sizeof g};
    rmg_status st = rmg_guard_compute(ctx, &req, NULL, &g);
    size_t n;
    if (st == RMG_OK)
        st = rmg_guard_candidate_count(ctx, g.total, 0, &n);
    return st;
}

/* Once the content is loaded (the harness's warm-up), guards cost no allocation at all. */
static void test_oom_public_api(void **state)
{
    (void)state;
    assert_int_equal(rmg_test_oom_sweep(oom_public_compute, NULL, 0, 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grd10_example_monsters_are_eligible),
        cmocka_unit_test(test_grd06_candidates_match_the_content),
        cmocka_unit_test(test_zon27_real_content_respects_factions),
        cmocka_unit_test(test_context_stream_draws),
        cmocka_unit_test(test_versioned_structs),
        cmocka_unit_test(test_oom_public_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
