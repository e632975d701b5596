/* Solve stage: type-selection rules (ZON-10..21), zone factions (FAC-02..05), the public API. */
#include "test_solve_fixture.h"
#include "template/h3t/h3t.h"

#define SEEDS 40

static uint32_t land_mask(const sfx *f)
{
    uint32_t m = 0;
    for (size_t i = 0; i < f->content->n_terrains; i++)
        if (f->content->terrains[i].land)
            m |= 1u << f->content->terrains[i].id;
    return m;
}

/* ---- ZON-10 town rules ------------------------------------------------------------------------- */

static void check_town_same(bool negate)
{
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_player_zone(&f, 2, 2);
    sfx_zone(&f, 2)->neutral_towns = 1;
    sfx_zone(&f, 1)->allowed_towns = (1u << RMG_FACTION_CASTLE) | (1u << RMG_FACTION_TOWER);
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_SAME, negate, 1, -1, 2, 0);   /* player towns of 1 vs neutral #1 of 2 */
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        int a = sfx_zs(&f, &r, 1)->player_town_type, b = sfx_zs(&f, &r, 2)->neutral_town_types[0];
        assert_true(a == RMG_FACTION_CASTLE || a == RMG_FACTION_TOWER);
        assert_true(negate ? a != b : a == b);
        assert_int_equal(r.x.warnings.count, 0);
        sfx_run_free(&r);
    }
    sfx_free(&f);
}

static void test_zon10_town_same(void **state)
{
    (void)state;
    check_town_same(false);
}

static void test_zon10_town_different(void **state)
{
    (void)state;
    check_town_same(true);
}

static void check_town_native(bool negate)
{
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_NATIVE, negate, 1, -1, 2, 0);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        int type = sfx_zs(&f, &r, 1)->player_town_type, terrain = sfx_zs(&f, &r, 2)->terrain;
        assert_true(negate ? sfx_native(&f, type) != terrain : sfx_native(&f, type) == terrain);
        sfx_run_free(&r);
    }
    sfx_free(&f);
}

static void test_zon10_town_native_to_terrain(void **state)
{
    (void)state;
    check_town_native(false);
    check_town_native(true);
}

/* The h3t hints can name every town of a zone or every neutral town: "every town of zone 1
 * differs from each other" and "every neutral town of zone 2 is the same as zone 1's player
 * towns"; a reference to a zone without minimum towns binds nothing (ZON-18) and is no error. */
static void test_zon10_multi_town_references(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 3);
    sfx_player_zone(&f, 1, 1);
    sfx_zone(&f, 1)->neutral_towns = 2;
    sfx_zone(&f, 2)->neutral_towns = 3;
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_SAME, true, 1, RMG__TOWN_REF_ALL, 1, RMG__TOWN_REF_ALL);
    sfx_rule(&f, 2, RMG_TYPE_RULE_TOWN_SAME, false, 2, RMG__TOWN_REF_NEUTRAL_ALL, 1, -1);
    sfx_rule(&f, 3, RMG_TYPE_RULE_TOWN_SAME, false, 3, RMG__TOWN_REF_ALL, 1, -1);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        const rmg__zone_solution *z1 = sfx_zs(&f, &r, 1), *z2 = sfx_zs(&f, &r, 2);
        int p = z1->player_town_type, a = z1->neutral_town_types[0], b = z1->neutral_town_types[1];
        assert_true(p != a && p != b && a != b);
        for (int k = 0; k < 3; k++)
            assert_int_equal(z2->neutral_town_types[k], p);
        assert_int_equal(r.x.warnings.count, 0);
        assert_int_equal(r.x.stats.rules_violated, 0);
        sfx_run_free(&r);
    }
    sfx_free(&f);
}

/* Town counts near INT_MAX (a fuzzed template) are summed in 64 bits and refused with the zone
 * named before the solver makes one variable per town. */
static void test_solve_refuses_absurd_town_counts(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_zone(&f, 1)->player_towns = 2147483647;
    sfx_zone(&f, 1)->player_castles = 2147483647;
    sfx_zone(&f, 2)->neutral_towns = 2147483647;
    sfx_zone(&f, 2)->neutral_castles = 2147483647;
    sfx_run r;
    assert_int_equal(sfx_solve_with(f.ctx, &f, 1, NULL, &r), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(f.ctx), "neutral towns"));
    rmg_error_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    rmg_context_error(f.ctx, &info);
    assert_int_equal(info.zone, 2);
    assert_string_equal(info.stage, "solve");
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- ZON-11 terrain rules ---------------------------------------------------------------------- */

static void test_zon11_terrain_same_and_different(void **state)
{
    (void)state;
    for (int negate = 0; negate < 2; negate++) {
        sfx f;
        sfx_init(&f);
        sfx_zones(&f, 3);
        sfx_zone(&f, 1)->allowed_terrains = (1u << RMG_TERRAIN_SNOW) | (1u << RMG_TERRAIN_LAVA);
        sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, negate, 1, 0, 2, 0);
        sfx_rule(&f, 3, RMG_TYPE_RULE_TERRAIN_SAME, negate, 2, 0, 3, 0);
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            sfx_run r;
            sfx_solve(&f, seed, NULL, &r);
            int t1 = sfx_zs(&f, &r, 1)->terrain, t2 = sfx_zs(&f, &r, 2)->terrain, t3 = sfx_zs(&f, &r, 3)->terrain;
            assert_true(t1 == RMG_TERRAIN_SNOW || t1 == RMG_TERRAIN_LAVA);
            if (negate) {
                assert_int_not_equal(t1, t2);
                assert_int_not_equal(t2, t3);
            } else {
                assert_int_equal(t1, t2);
                assert_int_equal(t2, t3);
            }
            assert_true(land_mask(&f) & (1u << t3));
            sfx_run_free(&r);
        }
        sfx_free(&f);
    }
}

static void test_zon11_terrain_native_to_town(void **state)
{
    (void)state;
    for (int negate = 0; negate < 2; negate++) {
        sfx f;
        sfx_init(&f);
        sfx_zones(&f, 2);
        sfx_zone(&f, 2)->neutral_towns = 2;
        sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_NATIVE, negate, 1, 0, 2, 1); /* terrain(1) native to neutral #2 of 2 */
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            sfx_run r;
            sfx_solve(&f, seed, NULL, &r);
            int terrain = sfx_zs(&f, &r, 1)->terrain, type = sfx_zs(&f, &r, 2)->neutral_town_types[1];
            assert_true(negate ? sfx_native(&f, type) != terrain : sfx_native(&f, type) == terrain);
            sfx_run_free(&r);
        }
        sfx_free(&f);
    }
}

/* ---- ZON-12 faction rules, ZON-16 ---------------------------------------------------------------- */

static void test_zon12_faction_rules(void **state)
{
    (void)state;
    for (int negate = 0; negate < 2; negate++) {
        sfx f;
        sfx_init(&f);
        sfx_zones(&f, 4);
        sfx_player_zone(&f, 3, 1);
        sfx_zone(&f, 1)->allowed_factions_set = true;
        sfx_zone(&f, 1)->allowed_factions = (1u << RMG_FACTION_INFERNO) | (1u << RMG_FACTION_DUNGEON) | (1u << 31);
        sfx_rule(&f, 1, RMG_TYPE_RULE_FACTION_SAME, negate, 1, 0, 2, 0);
        sfx_rule(&f, 2, RMG_TYPE_RULE_FACTION_TOWN, negate, 2, 0, 3, -1);
        sfx_rule(&f, 4, RMG_TYPE_RULE_FACTION_TERRAIN, negate, 4, 0, 1, 0);
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            sfx_run r;
            sfx_solve(&f, seed, NULL, &r);
            int f1 = sfx_zs(&f, &r, 1)->faction, f2 = sfx_zs(&f, &r, 2)->faction, f4 = sfx_zs(&f, &r, 4)->faction;
            int town3 = sfx_zs(&f, &r, 3)->player_town_type, terrain1 = sfx_zs(&f, &r, 1)->terrain;
            assert_true(f1 == RMG_FACTION_INFERNO || f1 == RMG_FACTION_DUNGEON); /* ZON-09: never neutral */
            assert_true(negate ? f1 != f2 : f1 == f2);
            assert_true(negate ? f2 != town3 : f2 == town3);
            assert_true(negate ? sfx_native(&f, f4) != terrain1 : sfx_native(&f, f4) == terrain1);
            /* ZON-16: no towns, no default method, never neutral */
            assert_int_not_equal(f2, RMG_FACTION_NEUTRAL);
            assert_int_not_equal(f4, RMG_FACTION_NEUTRAL);
            assert_int_equal(r.x.stats.rules_violated, 0);
            sfx_run_free(&r);
        }
        sfx_free(&f);
    }
}

static void test_zon16_rule_zone_never_neutral_even_if_towns_banned(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_zone(&f, 1)->allowed_towns = 1u << 30; /* no valid town: FAC-03 would allow neutral */
    sfx_rule(&f, 1, RMG_TYPE_RULE_FACTION_SAME, true, 1, 0, 2, 0);
    for (uint64_t seed = 1; seed <= 100; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        assert_int_not_equal(sfx_zs(&f, &r, 1)->faction, RMG_FACTION_NEUTRAL);
        assert_int_not_equal(sfx_zs(&f, &r, 1)->faction, sfx_zs(&f, &r, 2)->faction);
        sfx_run_free(&r);
    }
    sfx_free(&f);
}

/* ZON-17: a faction rule naming a neutral-only zone is an error, reported, not a crash. */
static void test_zon17_neutral_only_in_faction_rule(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_zone(&f, 2)->neutral_only = true;
    sfx_rule(&f, 1, RMG_TYPE_RULE_FACTION_SAME, false, 1, 0, 2, 0);
    sfx_run r;
    sfx_solve(&f, 7, NULL, &r);
    assert_int_equal(r.x.stats.rule_errors, 1);
    assert_true(sfx_warned(&r, "ZON-17"));
    assert_int_equal(sfx_zs(&f, &r, 2)->faction, RMG_FACTION_NEUTRAL);
    sfx_run_free(&r);
    /* The validation call reports it without generating. */
    rmg__content_lend(f.ctx, f.content);
    assert_int_equal(rmg_solve_validate(f.ctx, f.pack, 0, NULL), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(f.ctx), "ZON-17"));
    rmg__content_lend(f.ctx, NULL);
    sfx_free(&f);
}

/* ZON-18: rules bind only minimum towns; a reference to a further town is reported. */
static void test_zon18_rule_on_frequency_town_is_reported(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_zone(&f, 1)->neutral_towns = 1;
    sfx_zone(&f, 1)->neutral_town_density = 5;
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_SAME, false, 1, 1, 2, 0); /* neutral #2 of zone 1 is not a minimum town */
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_SAME, false, 1, 0, 9, 0); /* zone 9 does not exist */
    sfx_run r;
    sfx_solve(&f, 3, NULL, &r);
    assert_int_equal(r.x.stats.rule_errors, 2);
    assert_true(sfx_warned(&r, "ZON-18"));
    assert_true(sfx_warned(&r, "zone 9 does not exist"));
    assert_int_equal(sfx_zs(&f, &r, 1)->n_neutral_towns, 1);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ZON-13 domains and ZON-15's vector: the rule is checked on the chosen terrains (grass and swamp),
 * whatever they are painted as later; no warning. */
static void test_zon15_conversion_vector(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_zone(&f, 1)->placement = RMG_PLACEMENT_UNDERGROUND;
    sfx_zone(&f, 2)->placement = RMG_PLACEMENT_UNDERGROUND;
    sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, true, 1, 0, 2, 0);
    int seen_surface_only = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        int t1 = sfx_zs(&f, &r, 1)->terrain, t2 = sfx_zs(&f, &r, 2)->terrain;
        assert_int_not_equal(t1, t2);
        assert_int_equal(r.x.warnings.count, 0);
        /* surface-only terrains are valid choices for underground zones (converted later) */
        seen_surface_only += t1 != RMG_TERRAIN_SUBTERRANEAN && t1 != RMG_TERRAIN_LAVA && t2 != RMG_TERRAIN_SUBTERRANEAN &&
                             t2 != RMG_TERRAIN_LAVA;
        sfx_run_free(&r);
    }
    assert_true(seen_surface_only > 0);
    /* The exact vector: grass and swamp chosen. */
    sfx_zone(&f, 1)->allowed_terrains = 1u << RMG_TERRAIN_GRASS;
    sfx_zone(&f, 2)->allowed_terrains = 1u << RMG_TERRAIN_SWAMP;
    sfx_run r;
    sfx_solve(&f, 1, NULL, &r);
    assert_int_equal(sfx_zs(&f, &r, 1)->terrain, RMG_TERRAIN_GRASS);
    assert_int_equal(sfx_zs(&f, &r, 2)->terrain, RMG_TERRAIN_SWAMP);
    assert_int_equal(r.x.warnings.count, 0);
    assert_int_equal(r.x.stats.rules_violated, 0);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ZON-21: a conflict is reported with a minimal conflicting set; only one rule is given up. */
static void test_zon21_conflict_reports_minimal_set(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 4);
    sfx_rule(&f, 4, RMG_TYPE_RULE_TERRAIN_SAME, true, 4, 0, 1, 0);   /* unrelated to the conflict */
    sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, false, 1, 0, 2, 0);
    sfx_rule(&f, 2, RMG_TYPE_RULE_TERRAIN_SAME, false, 2, 0, 3, 0);
    sfx_rule(&f, 3, RMG_TYPE_RULE_TERRAIN_SAME, true, 3, 0, 1, 0);
    sfx_run r;
    sfx_solve(&f, 5, NULL, &r);
    sfx_print_warnings(&r);
    assert_int_equal(r.x.stats.rules_violated, 1);
    assert_true(sfx_warned(&r, "minimal conflicting set"));
    assert_true(sfx_warned(&r, "zone 1 rule 1"));
    assert_true(sfx_warned(&r, "zone 2 rule 1"));
    assert_true(sfx_warned(&r, "zone 3 rule 1"));
    assert_false(sfx_warned(&r, "zone 4 rule 1"));
    assert_int_not_equal(sfx_zs(&f, &r, 4)->terrain, sfx_zs(&f, &r, 1)->terrain);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ZON-20: an unsolvable problem that propagation cannot refute (11 zones, 10 terrains, all
 * different) stops at the budget, warns and still produces an assignment. */
static void test_zon20_budget_exhausted_terminates(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 11);
    for (int a = 1; a <= 11; a++)
        for (int b = a + 1; b <= 11; b++)
            sfx_rule(&f, a, RMG_TYPE_RULE_TERRAIN_SAME, true, a, 0, b, 0);
    rmg__solve_input in = {0};
    in.node_budget = 5000;
    sfx_run r;
    sfx_solve(&f, 11, &in, &r);
    assert_true(r.x.stats.budget_exhausted);
    assert_true(r.x.stats.nodes_used <= 5000);
    assert_true(r.x.stats.rules_violated >= 1 && r.x.stats.rules_violated <= 3);
    assert_true(sfx_warned(&r, "budget"));
    printf("  pigeonhole 11/10: %zu rules broken after %llu nodes\n", r.x.stats.rules_violated,
           (unsigned long long)r.x.stats.nodes_used);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- structural settings ----------------------------------------------------------------------- */

static void test_mis07_same_type_and_terrain_matches_town(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    sfx_player_zone(&f, 1, 1);
    rmg__zone *z = sfx_zone(&f, 1);
    z->neutral_towns = 2;
    z->towns_same_type = true;
    z->terrain_match_town = true;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        const rmg__zone_solution *s = sfx_zs(&f, &r, 1);
        assert_int_equal(s->neutral_town_types[0], s->player_town_type);
        assert_int_equal(s->neutral_town_types[1], s->player_town_type);
        assert_int_equal(s->terrain, sfx_native(&f, s->player_town_type));
        assert_int_equal(s->faction, s->player_town_type); /* FAC-03: main town */
        assert_int_equal(s->owner, 1);
        assert_true(s->human);
        sfx_run_free(&r);
    }
    sfx_free(&f);
}

static void test_player_town_choice(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_player_zone(&f, 2, 2);
    sfx_zone(&f, 2)->kind = RMG_ZONE_COMPUTER_START;
    sfx_zone(&f, 2)->allowed_towns = 1u << RMG_FACTION_FORTRESS;
    int choices[8] = {RMG_FACTION_CONFLUX, RMG_FACTION_CASTLE, -1, -1, -1, -1, -1, -1};
    rmg__solve_input in = {0};
    in.player_towns = choices;
    sfx_run r;
    sfx_solve(&f, 9, &in, &r);
    assert_int_equal(sfx_zs(&f, &r, 1)->player_town_type, RMG_FACTION_CONFLUX);
    assert_int_equal(sfx_zs(&f, &r, 2)->player_town_type, RMG_FACTION_FORTRESS);
    assert_false(sfx_zs(&f, &r, 2)->human);
    assert_true(sfx_warned(&r, "player 2"));
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- FAC-02..05 --------------------------------------------------------------------------------- */

static void test_fac02_neutral_only_and_allowed_factions(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_zone(&f, 1)->neutral_only = true;
    sfx_zone(&f, 2)->allowed_factions_set = true;
    sfx_zone(&f, 2)->allowed_factions = (1u << RMG_FACTION_COVE) | (1u << RMG_FACTION_NEUTRAL);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        assert_int_equal(sfx_zs(&f, &r, 1)->faction, RMG_FACTION_NEUTRAL);
        assert_int_equal(sfx_zs(&f, &r, 2)->faction, RMG_FACTION_COVE); /* ZON-09: neutral not selectable */
        sfx_run_free(&r);
    }
    /* allowed_factions naming only neutral: reported, the default method (FAC-03) decides */
    sfx_zone(&f, 2)->allowed_factions = 1u << RMG_FACTION_NEUTRAL;
    sfx_zone(&f, 2)->allowed_towns = 1u << RMG_FACTION_STRONGHOLD;
    sfx_run r;
    sfx_solve(&f, 2, NULL, &r);
    assert_true(sfx_warned(&r, "zone 2: allowed_factions holds no town faction"));
    assert_int_equal(sfx_zs(&f, &r, 2)->faction, RMG_FACTION_STRONGHOLD);
    sfx_run_free(&r);
    sfx_free(&f);
}

static void test_fac03_defaults(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 3);
    sfx_zone(&f, 1)->neutral_towns = 1;                                  /* main town drives the faction */
    sfx_zone(&f, 2)->allowed_towns = (1u << RMG_FACTION_TOWER) | (1u << RMG_FACTION_DUNGEON); /* no towns */
    sfx_zone(&f, 3)->allowed_towns = 1u << 30;                          /* every town banned */
    int neutral = 0, runs = 800;
    for (uint64_t seed = 1; seed <= (uint64_t)runs; seed++) {
        sfx_run r;
        sfx_solve(&f, seed, NULL, &r);
        assert_int_equal(sfx_zs(&f, &r, 1)->faction, sfx_zs(&f, &r, 1)->neutral_town_types[0]);
        int f2 = sfx_zs(&f, &r, 2)->faction;
        assert_true(f2 == RMG_FACTION_TOWER || f2 == RMG_FACTION_DUNGEON);
        int f3 = sfx_zs(&f, &r, 3)->faction, t3 = sfx_zs(&f, &r, 3)->terrain;
        if (f3 == RMG_FACTION_NEUTRAL) {
            neutral++;
        } else { /* FAC-04 table on the chosen terrain */
            static const uint32_t table[12] = {0x13, 0x240, 0x3, 0x4, 0x290, 0x40, 0x38, 0x8, 0, 0, 0x100, 0x400};
            assert_true(table[t3] & (1u << f3));
        }
        sfx_run_free(&r);
    }
    printf("  FAC-03: neutral in %d of %d all-banned zones (expected 25%%)\n", neutral, runs);
    assert_true(neutral > runs * 20 / 100 && neutral < runs * 30 / 100);
    sfx_free(&f);
}

/* Bad input: allowed sets that name nothing valid fall back to everything, with a warning. */
static void test_zon13_empty_allowed_sets_fall_back(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_zone(&f, 1)->allowed_terrains = 1u << RMG_TERRAIN_WATER; /* no land terrain */
    sfx_zone(&f, 2)->neutral_towns = 1;
    sfx_zone(&f, 2)->allowed_towns = 1u << 30;                 /* no town type */
    sfx_run r;
    sfx_solve(&f, 4, NULL, &r);
    assert_true(sfx_warned(&r, "zone 1: no valid allowed terrain"));
    assert_true(sfx_warned(&r, "zone 2: no valid allowed town type"));
    assert_true(land_mask(&f) & (1u << sfx_zs(&f, &r, 1)->terrain));
    int town = sfx_zs(&f, &r, 2)->neutral_town_types[0];
    assert_true(town >= RMG_FACTION_CASTLE && town <= RMG_FACTION_FACTORY);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* Content without towns cannot type a town: a clear error, not a crash. */
static void test_content_without_towns_is_an_error(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    size_t n = f.content->n_factions;
    f.content->n_factions = 0;
    sfx_run r;
    sfx_solve(&f, 1, NULL, &r); /* no towns asked for: fine, factions are neutral */
    assert_int_equal(sfx_zs(&f, &r, 1)->faction, RMG_FACTION_NEUTRAL);
    sfx_run_free(&r);
    sfx_zone(&f, 2)->neutral_towns = 1;
    assert_int_equal(sfx_solve_with(f.ctx, &f, 1, NULL, &r), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(f.ctx), "no allowed town type"));
    sfx_run_free(&r);
    f.content->n_factions = n;
    sfx_free(&f);
}

/* The stage writes g->sol, keeps the rest for later stages and copies warnings to the map. */
static void test_stage_fills_generation_state(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 2);
    sfx_player_zone(&f, 1, 1);
    sfx_rule(&f, 1, RMG_TYPE_RULE_TOWN_SAME, false, 1, -1, 5, 0); /* zone 5 is missing */
    rmg__connection *c = rmg__template_add_connection(f.pack, f.tpl);
    c->zone_a = 1;
    c->zone_b = 2;
    rmg__gen g;
    memset(&g, 0, sizeof g);
    g.ctx = f.ctx;
    g.content = f.content;
    g.pack = f.pack;
    g.tpl = f.tpl;
    g.opt.players = 1;
    g.root_seed = 1234;
    assert_int_equal(rmg__map_new(f.ctx, 36, 36, 1, &g.map), RMG_OK);
    assert_int_equal(rmg__stage_solve(&g), RMG_OK);
    assert_non_null(g.sol.zones);
    assert_int_equal(g.sol.zones[0].owner, 1);
    assert_true(g.sol.zones[0].player_town_type >= 0);
    assert_non_null(g.sol.road);
    assert_non_null(rmg__solve_extra_of(&g));
    assert_int_equal(rmg__solve_extra_of(&g)->road_choice[0], RMG_ROAD_RANDOM);
    assert_int_equal(g.map->warnings.count, 1);
    assert_non_null(strstr(g.map->warnings.items[0], "zone 5 does not exist"));
    int first = g.sol.zones[0].player_town_type;
    assert_int_equal(rmg__stage_solve(&g), RMG_OK); /* a retry replaces the solution */
    assert_int_equal(g.sol.zones[0].player_town_type, first);
    rmg__solution_free(&g);
    assert_null(g.sol.zones);
    assert_null(rmg__solve_extra_of(&g));
    rmg__map_free(g.map);
    sfx_free(&f);
}

/* ---- determinism and the public API ----------------------------------------------------------- */

static void test_same_seed_same_solution(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 6);
    for (int a = 1; a < 6; a++)
        sfx_rule(&f, a, RMG_TYPE_RULE_TERRAIN_SAME, true, a, 0, a + 1, 0);
    sfx_run a, b;
    sfx_solve(&f, 42, NULL, &a);
    sfx_solve(&f, 42, NULL, &b);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(a.sol.zones[i].terrain, b.sol.zones[i].terrain);
        assert_int_equal(a.sol.zones[i].faction, b.sol.zones[i].faction);
    }
    sfx_run_free(&a);
    sfx_run_free(&b);
    sfx_free(&f);
}

static void test_public_api(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 3);
    sfx_player_zone(&f, 1, 1);
    sfx_player_zone(&f, 2, 2);
    sfx_zone(&f, 2)->players.min_total = 3; /* only with 3+ players */
    sfx_rule(&f, 1, RMG_TYPE_RULE_TERRAIN_SAME, true, 1, 0, 3, 0);
    rmg__connection *c = rmg__template_add_connection(f.pack, f.tpl);
    c->zone_a = 1;
    c->zone_b = 3;
    rmg__content_lend(f.ctx, f.content);
    rmg_solve_options o;
    rmg_solve_options_init(&o);
    o.players = 2;
    o.water = RMG_WATER_NORMAL;
    o.player_towns[0] = RMG_FACTION_RAMPART;
    rmg_solve_result *r = NULL;
    assert_int_equal(rmg_solve(f.ctx, f.pack, 0, &o, &r), RMG_OK);
    assert_int_equal(rmg_solve_zone_count(r), 3);
    rmg_solve_zone z;
    memset(&z, 0, sizeof z);
    z.struct_size = sizeof z;
    assert_int_equal(rmg_solve_get_zone(r, 0, &z), RMG_OK);
    assert_int_equal(z.id, 1);
    assert_int_equal(z.player_town_type, RMG_FACTION_RAMPART);
    assert_int_equal(z.faction, RMG_FACTION_RAMPART);
    assert_int_equal(z.owner, 1);
    rmg_solve_zone z3;
    memset(&z3, 0, sizeof z3);
    z3.struct_size = sizeof z3;
    assert_int_equal(rmg_solve_get_zone(r, 2, &z3), RMG_OK);
    assert_int_not_equal(z.terrain, z3.terrain);
    assert_int_equal(rmg_solve_get_zone(r, 1, &z), RMG_OK);
    assert_int_equal(z.active, 0);
    assert_int_equal(rmg_solve_road(r, 0), RMG_ROAD_RANDOM);
    assert_int_equal(rmg_solve_road(r, 1), -1);
    assert_int_equal(rmg_solve_artifact_allowed(r, 129), 0);  /* Angelic Alliance: combination */
    assert_int_equal(rmg_solve_artifact_allowed(r, 8), 1);
    assert_int_equal(rmg_solve_spell_allowed(r, 0), 1);       /* Summon Boat on a water map */
    assert_int_equal(rmg_solve_skill_allowed(r, 26), 0);      /* Resistance */
    assert_int_equal(rmg_solve_hero_allowed(r, 175), 0);      /* Beatrice on a water map */
    assert_int_equal(rmg_solve_hero_allowed(r, 9999), -1);
    assert_int_equal(rmg_solve_object_banned(r, "spell_scroll_level_1"), 0);
    assert_int_equal(rmg_solve_object_banned(r, "nope"), -1);
    assert_int_equal(rmg_solve_gem_spell(r), 0);               /* MIS-34: Summon Boat with water */
    assert_int_equal(rmg_solve_allowed_towns(r), 0x7ffu);
    assert_true(rmg_solve_prisons_max(r) >= 0);
    assert_int_equal(rmg_solve_warning_count(r), 0);
    assert_null(rmg_solve_warning(r, 0));
    rmg_solve_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    assert_int_equal(rmg_solve_get_stats(r, &st), RMG_OK);
    assert_true(st.nodes_used > 0);
    assert_int_equal(st.node_budget, RMG__CSP_DEFAULT_BUDGET);
    rmg_solve_result_destroy(r);
    rmg_solve_result_destroy(NULL);
    assert_int_equal(rmg_solve_validate(f.ctx, f.pack, 0, &o), RMG_OK);
    assert_int_equal(rmg_solve(f.ctx, f.pack, 5, &o, &r), RMG_ERR_INVALID_ARG);
    assert_null(r);
    o.players = 12;
    assert_int_equal(rmg_solve(f.ctx, f.pack, 0, &o, &r), RMG_ERR_INVALID_ARG);
    rmg__content_lend(f.ctx, NULL);
    sfx_free(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zon10_town_same),
        cmocka_unit_test(test_zon10_town_different),
        cmocka_unit_test(test_zon10_town_native_to_terrain),
        cmocka_unit_test(test_zon10_multi_town_references),
        cmocka_unit_test(test_solve_refuses_absurd_town_counts),
        cmocka_unit_test(test_zon11_terrain_same_and_different),
        cmocka_unit_test(test_zon11_terrain_native_to_town),
        cmocka_unit_test(test_zon12_faction_rules),
        cmocka_unit_test(test_zon16_rule_zone_never_neutral_even_if_towns_banned),
        cmocka_unit_test(test_zon17_neutral_only_in_faction_rule),
        cmocka_unit_test(test_zon18_rule_on_frequency_town_is_reported),
        cmocka_unit_test(test_zon15_conversion_vector),
        cmocka_unit_test(test_zon21_conflict_reports_minimal_set),
        cmocka_unit_test(test_zon20_budget_exhausted_terminates),
        cmocka_unit_test(test_mis07_same_type_and_terrain_matches_town),
        cmocka_unit_test(test_player_town_choice),
        cmocka_unit_test(test_fac02_neutral_only_and_allowed_factions),
        cmocka_unit_test(test_fac03_defaults),
        cmocka_unit_test(test_zon13_empty_allowed_sets_fall_back),
        cmocka_unit_test(test_content_without_towns_is_an_error),
        cmocka_unit_test(test_stage_fills_generation_state),
        cmocka_unit_test(test_same_seed_same_solution),
        cmocka_unit_test(test_public_api),
    };
    return RMG_TEST_MAIN_SHARED(tests, "data");
}
