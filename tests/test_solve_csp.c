/* Solve stage: the constraint search (ZON-13, ZON-20): a stress test with very few solutions,
 * measured sampling uniformity, and the allocator failure harness over the stage. */
#include <time.h>

#include "test_solve_fixture.h"

/* CPU time: the machine is shared, wall time would measure the neighbours. */
static double now_ms(void)
{
    return (double)clock() * 1000.0 / CLOCKS_PER_SEC;
}

/* 16 zones, every land terrain allowed: zone k differs from k-1 and k-2 and equals k-3, so the
 * first three terrains fix everything; three zones have small allowed sets whose combination
 * admits 14 terrain solutions; player towns and factions are tied to the terrains too. Out of
 * 10^16 terrain assignments only a handful satisfy all rules. */
static void build_stress(sfx *f)
{
    sfx_zones(f, 16);
    for (int k = 2; k <= 16; k++)
        sfx_rule(f, k, RMG_TYPE_RULE_TERRAIN_SAME, true, k, 0, k - 1, 0);
    for (int k = 3; k <= 16; k++)
        sfx_rule(f, k, RMG_TYPE_RULE_TERRAIN_SAME, true, k, 0, k - 2, 0);
    for (int k = 4; k <= 16; k++)
        sfx_rule(f, k, RMG_TYPE_RULE_TERRAIN_SAME, false, k, 0, k - 3, 0);
    sfx_zone(f, 16)->allowed_terrains = (1u << RMG_TERRAIN_GRASS) | (1u << RMG_TERRAIN_SNOW) | (1u << RMG_TERRAIN_SWAMP);
    sfx_zone(f, 14)->allowed_terrains = (1u << RMG_TERRAIN_SNOW) | (1u << RMG_TERRAIN_SWAMP) | (1u << RMG_TERRAIN_LAVA);
    sfx_zone(f, 15)->allowed_terrains = (1u << RMG_TERRAIN_GRASS) | (1u << RMG_TERRAIN_SWAMP) | (1u << RMG_TERRAIN_ROUGH);
    sfx_player_zone(f, 1, 1);
    sfx_player_zone(f, 2, 2);
    sfx_rule(f, 1, RMG_TYPE_RULE_TOWN_NATIVE, false, 1, -1, 1, 0);
    sfx_rule(f, 2, RMG_TYPE_RULE_TOWN_NATIVE, false, 2, -1, 2, 0);
    sfx_rule(f, 2, RMG_TYPE_RULE_TOWN_SAME, true, 1, -1, 2, -1);
    sfx_rule(f, 5, RMG_TYPE_RULE_FACTION_TERRAIN, false, 5, 0, 5, 0);
    sfx_rule(f, 6, RMG_TYPE_RULE_FACTION_SAME, true, 6, 0, 5, 0);
    sfx_rule(f, 6, RMG_TYPE_RULE_FACTION_TERRAIN, false, 6, 0, 6, 0);
}

static bool terrain_rules_hold(const sfx *f, const sfx_run *r)
{
    for (int k = 2; k <= 16; k++) {
        int t = sfx_zs(f, r, k)->terrain;
        if (t == sfx_zs(f, r, k - 1)->terrain || (k >= 3 && t == sfx_zs(f, r, k - 2)->terrain) ||
            (k >= 4 && t != sfx_zs(f, r, k - 3)->terrain))
            return false;
    }
    return true;
}

static void test_zon20_stress_few_solutions(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    build_stress(&f);
    double worst = 0;
    uint64_t most_nodes = 0;
    uint32_t seen[64] = {0};
    size_t distinct = 0;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        sfx_run r;
        double t0 = now_ms();
        sfx_solve(&f, seed, NULL, &r);
        double ms = now_ms() - t0;
        worst = ms > worst ? ms : worst;
        most_nodes = r.x.stats.nodes_used > most_nodes ? r.x.stats.nodes_used : most_nodes;
        assert_int_equal(r.x.stats.rules_violated, 0);
        assert_int_equal(r.x.warnings.count, 0);
        assert_true(terrain_rules_hold(&f, &r));
        int p1 = sfx_zs(&f, &r, 1)->player_town_type, p2 = sfx_zs(&f, &r, 2)->player_town_type;
        assert_int_equal(sfx_native(&f, p1), sfx_zs(&f, &r, 1)->terrain);
        assert_int_not_equal(p1, p2);
        assert_int_equal(sfx_native(&f, sfx_zs(&f, &r, 5)->faction), sfx_zs(&f, &r, 5)->terrain);
        uint32_t key = (uint32_t)(sfx_zs(&f, &r, 1)->terrain * 144 + sfx_zs(&f, &r, 2)->terrain * 12 +
                                  sfx_zs(&f, &r, 3)->terrain);
        bool known = false;
        for (size_t i = 0; i < distinct; i++)
            known |= seen[i] == key;
        if (!known && distinct < 64)
            seen[distinct++] = key;
        sfx_run_free(&r);
    }
    printf("  stress: 16 zones, %zu distinct terrain solutions seen, worst %.2f ms CPU, at most %llu of %u nodes\n",
           distinct, worst, (unsigned long long)most_nodes, RMG__CSP_DEFAULT_BUDGET);
    assert_true(worst < 1000.0);
    assert_true(distinct >= 2);
    sfx_free(&f);
}

/* The other extreme: 16 zones in a ring of "different" rules with every terrain allowed has
 * 9^16 + 9 (about 1.9 x 10^15) solutions; they are still counted exactly (the ring falls apart
 * into chains whose counts are cached) and sampled uniformly. */
static void test_zon20_stress_many_solutions(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 16);
    for (int k = 1; k <= 16; k++)
        sfx_rule(&f, k, RMG_TYPE_RULE_TERRAIN_SAME, true, k, 0, k % 16 + 1, 0);
    double t0 = now_ms();
    sfx_run r;
    sfx_solve(&f, 3, NULL, &r);
    double ms = now_ms() - t0;
    printf("  ring of 16: %.2f ms CPU, %llu nodes, %zu of %zu components exact\n", ms,
           (unsigned long long)r.x.stats.nodes_used, r.x.stats.exact_components, r.x.stats.components);
    assert_int_equal(r.x.stats.rules_violated, 0);
    assert_int_equal(r.x.stats.exact_components, 1);
    for (int k = 1; k <= 16; k++)
        assert_int_not_equal(sfx_zs(&f, &r, k)->terrain, sfx_zs(&f, &r, k % 16 + 1)->terrain);
    assert_true(ms < 1000.0);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- uniformity ------------------------------------------------------------------------------- */

/* Chi-square statistic of counts against a uniform expectation. */
static double chi_square(const unsigned *counts, size_t k, unsigned total)
{
    double e = (double)total / (double)k, chi = 0;
    for (size_t i = 0; i < k; i++)
        chi += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
    return chi;
}

/* Three zones with three allowed terrains each and terrain(1) != terrain(2) != terrain(3):
 * 3 x 2 x 2 = 12 solutions. 1200 fixed seeds; the 0.1% critical value for 11 degrees of freedom
 * is 31.26. */
static void test_zon13_sampling_is_uniform(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 3);
    uint32_t three = (1u << RMG_TERRAIN_GRASS) | (1u << RMG_TERRAIN_SNOW) | (1u << RMG_TERRAIN_LAVA);
    for (int i = 1; i <= 3; i++)
        sfx_zone(&f, i)->allowed_terrains = three;
    sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, true, 1, 0, 2, 0);
    sfx_rule(&f, 2, RMG_TYPE_RULE_TERRAIN_SAME, true, 2, 0, 3, 0);
    static const int index[12] = {[RMG_TERRAIN_GRASS] = 0, [RMG_TERRAIN_SNOW] = 1, [RMG_TERRAIN_LAVA] = 2};
    unsigned counts[27] = {0}, total = 1200;
    for (uint64_t seed = 1; seed <= total; seed++) {
        sfx_run r;
        sfx_solve(&f, seed * 7919, NULL, &r);
        int a = index[sfx_zs(&f, &r, 1)->terrain], b = index[sfx_zs(&f, &r, 2)->terrain],
            c = index[sfx_zs(&f, &r, 3)->terrain];
        assert_true(a != b && b != c);
        counts[a * 9 + b * 3 + c]++;
        sfx_run_free(&r);
    }
    unsigned sol[12];
    size_t k = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++)
                if (a != b && b != c)
                    sol[k++] = counts[a * 9 + b * 3 + c];
    assert_int_equal(k, 12);
    double chi = chi_square(sol, 12, total);
    printf("  uniformity: 12 solutions over %u seeds, chi-square %.2f (critical 31.26)\n", total, chi);
    assert_true(chi < 31.26);
    sfx_free(&f);
}

/* A ring of 5 zones, 3 terrains, neighbours different: 2^5 - 2 = 30 solutions, sampled through
 * the decomposing counter (the ring becomes a chain once a zone is fixed). 3000 fixed seeds;
 * the 0.1% critical value for 29 degrees of freedom is 58.30. */
static void test_zon13_ring_sampling_is_uniform(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 5);
    static const int terrains[3] = {RMG_TERRAIN_SAND, RMG_TERRAIN_ROUGH, RMG_TERRAIN_HIGHLANDS};
    for (int i = 1; i <= 5; i++) {
        sfx_zone(&f, i)->allowed_terrains = (1u << terrains[0]) | (1u << terrains[1]) | (1u << terrains[2]);
        sfx_rule(&f, i, RMG_TYPE_RULE_TERRAIN_SAME, true, i, 0, i % 5 + 1, 0);
    }
    unsigned counts[243] = {0}, total = 3000;
    for (uint64_t seed = 1; seed <= total; seed++) {
        sfx_run r;
        sfx_solve(&f, seed * 104729, NULL, &r);
        unsigned code = 0;
        for (int i = 1; i <= 5; i++) {
            int t = sfx_zs(&f, &r, i)->terrain, k = t == terrains[0] ? 0 : t == terrains[1] ? 1 : 2;
            code = code * 3 + (unsigned)k;
        }
        counts[code]++;
        sfx_run_free(&r);
    }
    unsigned sol[30];
    size_t k = 0;
    for (unsigned code = 0; code < 243; code++) {
        unsigned d[5], c = code;
        for (int i = 4; i >= 0; i--, c /= 3)
            d[i] = c % 3;
        bool ok = true;
        for (int i = 0; i < 5; i++)
            ok &= d[i] != d[(i + 1) % 5];
        if (ok)
            sol[k++] = counts[code];
        else
            assert_int_equal(counts[code], 0);
    }
    assert_int_equal(k, 30);
    double chi = chi_square(sol, 30, total);
    printf("  ring uniformity: 30 solutions over %u seeds, chi-square %.2f (critical 58.30)\n", total, chi);
    assert_true(chi < 58.30);
    sfx_free(&f);
}

/* x in {0,1}, y in {0..3}, x = 0 forces y = 0: solutions (0,0) (1,0) (1,1) (1,2) (1,3). Exact
 * sampling gives each 1/5; plain randomized search picks x first and gives (0,0) about 1/2;
 * Gibbs mixing after the search (the fallback for components too big to count) repairs that. */
static void solve_small(rmg_context *ctx, uint64_t seed, rmg__csp_mode mode, unsigned *counts)
{
    rmg__arena arena;
    rmg__arena_init(&arena, ctx, 4096);
    rmg__csp csp;
    assert_int_equal(rmg__csp_init(&csp, ctx, &arena, 2, 0), RMG_OK);
    csp.dom[0] = 0x3;
    csp.dom[1] = 0xf;
    rmg__csp_con *c = rmg__csp_add(ctx, &csp, 0, 1, 0);
    assert_non_null(c);
    c->sup_xy[0] = 0x1;
    c->sup_xy[1] = 0xf;
    rmg__csp_con_finish(c);
    rmg_rng rng;
    rmg_rng_seed(&rng, seed);
    uint32_t assign[2];
    rmg__csp_report rep;
    assert_int_equal(rmg__csp_solve_mode(ctx, &csp, &rng, assign, &rep, mode), RMG_OK);
    assert_true(assign[0] == 1 || assign[1] == 0);
    counts[assign[0] == 0 ? 0 : 1 + assign[1]]++;
    rmg__arena_free(&arena);
}

static void test_zon13_exact_sampling_beats_plain_search(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    unsigned exact[5] = {0}, plain[5] = {0}, mixed[5] = {0}, total = 1000;
    for (uint64_t seed = 1; seed <= total; seed++) {
        solve_small(ctx, seed, RMG__CSP_EXACT_FIRST, exact);
        solve_small(ctx, seed, RMG__CSP_SEARCH_PLAIN, plain);
        solve_small(ctx, seed, RMG__CSP_SEARCH_MIXED, mixed);
    }
    double chi_exact = chi_square(exact, 5, total), chi_plain = chi_square(plain, 5, total),
           chi_mixed = chi_square(mixed, 5, total);
    printf("  skewed problem, chi-square (critical 18.47): exact %.2f, search + mixing %.2f, plain search %.2f; "
           "(0,0) drawn %u / %u / %u of %u (expected 200)\n",
           chi_exact, chi_mixed, chi_plain, exact[0], mixed[0], plain[0], total);
    assert_true(chi_exact < 18.47);
    assert_true(chi_mixed < 18.47);
    assert_true(chi_plain > 18.47); /* the measurement can tell them apart */
    rmg_context_destroy(ctx);
}

/* ---- allocator failures -------------------------------------------------------------------------- */

typedef struct oom_case {
    sfx *f;
} oom_case;

static rmg_status run_stage_op(rmg_context *ctx, void *user)
{
    oom_case *c = user;
    rmg__gen g;
    memset(&g, 0, sizeof g);
    g.ctx = ctx;
    g.content = c->f->content;
    g.pack = c->f->pack;
    g.tpl = c->f->tpl;
    g.opt.players = 2;
    g.root_seed = 99;
    rmg_status st = rmg__stage_solve(&g);
    if (st == RMG_OK) {
        const rmg__solve_extra *x = rmg__solve_extra_of(&g);
        assert_non_null(x);
        assert_non_null(g.sol.zones);
        assert_true(x->warnings.count >= 1); /* the conflict below */
    }
    rmg__solution_free(&g);
    rmg__solution_free(&g); /* safe twice */
    return st;
}

static void test_stage_allocation_failures(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 5);
    sfx_player_zone(&f, 1, 1);
    sfx_player_zone(&f, 2, 2);
    sfx_zone(&f, 3)->neutral_towns = 2;
    sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, false, 1, 0, 2, 0);
    sfx_rule(&f, 2, RMG_TYPE_RULE_TERRAIN_SAME, true, 2, 0, 1, 0);  /* conflict: core + drop */
    sfx_rule(&f, 3, RMG_TYPE_RULE_TOWN_SAME, true, 3, 0, 3, 1);
    sfx_rule(&f, 4, RMG_TYPE_RULE_FACTION_TOWN, false, 4, 0, 1, -1);
    sfx_rule(&f, 4, RMG_TYPE_RULE_TOWN_SAME, false, 4, 0, 77, 0);   /* missing zone: warning */
    sfx_zones(&f, 16); /* zones 6..21: a ring counted with many cached residual components */
    for (int k = 6; k <= 21; k++)
        sfx_rule(&f, k, RMG_TYPE_RULE_TERRAIN_SAME, true, k, 0, k == 21 ? 6 : k + 1, 0);
    for (int i = 0; i < 3; i++) {
        rmg__connection *c = rmg__template_add_connection(f.pack, f.tpl);
        c->zone_a = 1 + i;
        c->zone_b = 2 + i;
        c->roads = RMG_ROAD_MANDATORY;
    }
    rmg__override *o = rmg__arena_grow(&f.pack->arena, (void **)&f.tpl->spells.items, &f.tpl->spells.count, sizeof *o);
    o->id = 99999; /* unknown id: warning */
    oom_case c = {&f};
    size_t needed = rmg_test_oom_sweep(run_stage_op, &c, 0, 1);
    printf("  solve stage: %zu allocations swept\n", needed);
    assert_true(needed > 5);
    sfx_free(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_zon13_exact_sampling_beats_plain_search),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_zon20_stress_few_solutions),
        cmocka_unit_test(test_zon20_stress_many_solutions),
        cmocka_unit_test(test_zon13_sampling_is_uniform),
        cmocka_unit_test(test_zon13_ring_sampling_is_uniform),
        cmocka_unit_test(test_stage_allocation_failures),
    };
    return RMG_TEST_MAIN(plain, shared, "data");
}
