/* Place stage quality targets (issue 6) on hand-written templates: zone tile shares follow the
 * size weights (median absolute relative error <= 15% with rock masses on), ground links are
 * realized as shared borders (>= 95%), every zone is one connected region; and speed. The
 * corpus measurement is in test_place_corpus.c. */
#include <math.h>
#include <time.h>

#include "test_place_fixture.h"

#define SEEDS 20

/* ---- templates --------------------------------------------------------------------------------- */

typedef void (*template_fn)(fixture *fx);

/* Two players: start zones, treasure zones, a junction; ground links in a chain, defaults
 * elsewhere (the shape of many 2-player templates). */
static void two_player(fixture *fx)
{
    const double sizes[] = {20, 20, 12, 12, 8, 8, 10};
    for (int i = 1; i <= 7; i++)
        fx_zone(fx, i, sizes[i - 1]);
    fx_zone_by_id(fx, 1)->kind = RMG_ZONE_HUMAN_START;
    fx_zone_by_id(fx, 2)->kind = RMG_ZONE_COMPUTER_START;
    fx_link(fx, 1, 3, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    fx_link(fx, 2, 4, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    fx_link(fx, 3, 7, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    fx_link(fx, 4, 7, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    fx_link(fx, 1, 5, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD);
    fx_link(fx, 2, 6, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD);
    fx_link(fx, 5, 6, RMG_LINK_RANDOM, RMG_CONNECTION_STANDARD);
}

/* Four players around a centre, sizes from 5 to 30. */
static void four_player(fixture *fx)
{
    fx_zone(fx, 1, 30);
    for (int p = 0; p < 4; p++) {
        int start = 2 + 2 * p, side = 3 + 2 * p;
        fx_zone(fx, start, 20);
        fx_zone(fx, side, 5 + 5 * p);
        fx_link(fx, start, side, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
        fx_link(fx, side, 1, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    }
}

/* Twelve zones, half forced underground, joined by gates (a two-level template). */
static void two_level(fixture *fx)
{
    for (int i = 1; i <= 12; i++) {
        fx_zone(fx, i, i <= 6 ? 15 : 10);
        fx_zone_by_id(fx, i)->placement = i <= 6 ? RMG_PLACEMENT_SURFACE : RMG_PLACEMENT_UNDERGROUND;
    }
    for (int i = 1; i < 6; i++) {
        fx_link(fx, i, i + 1, RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
        fx_link(fx, i + 6, i + 7, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD);
    }
    fx_link(fx, 1, 7, RMG_LINK_UNDERGROUND_GATE, RMG_CONNECTION_STANDARD);
    fx_link(fx, 6, 12, RMG_LINK_UNDERGROUND_GATE, RMG_CONNECTION_STANDARD);
}

typedef struct setup {
    const char *name;
    template_fn make;
    int side, levels;
} setup;

static const setup setups[] = {
    {"2 players 72x72", two_player, 72, 1},
    {"2 players 108x108", two_player, 108, 1},
    {"4 players 108x108", four_player, 108, 1},
    {"4 players 144x144", four_player, 144, 1},
    {"two levels 108x108x2", two_level, 108, 2},
};

static void measure_setups(bool rock, fx_tally *q)
{
    for (size_t s = 0; s < RMG__ARRAY_LEN(setups); s++) {
        fixture fx;
        assert_int_equal(fx_init(&fx, NULL), RMG_OK);
        setups[s].make(&fx);
        fx_tpl(&fx)->rock_masses = rock;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            if (fx_place(&fx, setups[s].side, setups[s].side, setups[s].levels, RMG_WATER_NONE, seed) != RMG_OK)
                fail_msg("%s seed %llu: %s", setups[s].name, (unsigned long long)seed, rmg_context_errmsg(fx.ctx));
            const char *why = fx_check_partition(fx.g.map);
            if (why)
                fail_msg("%s seed %llu: %s", setups[s].name, (unsigned long long)seed, why);
            fx_tally_map(q, fx.g.map);
        }
        fx_free(&fx, true);
    }
}

static void test_issue6_quality_hand_templates(void **state)
{
    (void)state;
    fx_tally on = {0}, off = {0};
    measure_setups(true, &on);
    measure_setups(false, &off);
    fx_tally_print("rock masses on ", &on);
    fx_tally_print("rock masses off", &off);
    assert_true(fx_tally_median(&on) <= 0.15);
    assert_true(fx_ratio(on.ground_met, on.ground) >= 0.95);
    assert_true(fx_ratio(off.ground_met, off.ground) >= 0.95);
    free(on.errors);
    free(off.errors);
}

/* 252 x 252 x 2 with 30 zones (the largest map, a large template). */
static void test_issue6_speed_largest_map(void **state)
{
    (void)state;
    fixture fx;
    assert_int_equal(fx_init(&fx, NULL), RMG_OK);
    for (int i = 1; i <= 30; i++) {
        fx_zone(&fx, i, 5 + (i * 7) % 20);
        if (i > 1)
            fx_link(&fx, (i - 1) / 2 + 1, i, i % 3 ? RMG_LINK_DEFAULT : RMG_LINK_GROUND, RMG_CONNECTION_STANDARD);
    }
    fx_tpl(&fx)->rock_masses = true;
    double best = 1e9;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct timespec a, b;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
        assert_int_equal(fx_place(&fx, 252, 252, 2, RMG_WATER_NONE, seed), RMG_OK);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
        double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        best = ms < best ? ms : best;
        assert_null(fx_check_partition(fx.g.map));
    }
    print_message("252x252x2, 30 zones: %.1f ms CPU (best of 3, this build)\n", best);
    assert_true(best < 3000.0); /* sanitizer builds are ~10x slower than release */
    fx_free(&fx, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue6_quality_hand_templates),
        cmocka_unit_test(test_issue6_speed_largest_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
