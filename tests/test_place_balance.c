/* Zone areas on levels without filler zones (PLC-11 second phase, PLC-06, issue 13): with many
 * zones the lattice layout is ragged, and without rock masses the holes used to go to the rim
 * zones (a 196-zone template at 1008x1008 gave one zone 14x the mean). The place stage now
 * relaxes the centres first (lib/place/place_balance.c); these tests pin the evenness, that
 * weights are still followed, that links stay met, and the usual invariants. */
#include "test_place_fixture.h"

/* A cols x rows grid of equal zones joined by a spanning tree of grid neighbours (each row a
 * chain, the first column a chain): the benchmark's scaled template. */
static void grid_template(fixture *fx, int cols, int rows)
{
    int n = cols * rows;
    for (int id = 1; id <= n; id++)
        assert_true(fx_zone(fx, id, 1.0) >= 0);
    for (int id = 1; id <= n; id++) {
        int col = (id - 1) % cols;
        if (col + 1 < cols)
            assert_true(fx_link(fx, id, id + 1, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD) >= 0);
        if (col == 0 && id + cols <= n)
            assert_true(fx_link(fx, id, id + cols, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD) >= 0);
    }
}

typedef struct area_stats {
    size_t min, max, sum, n;
} area_stats;

static area_stats game_zone_areas(fixture *fx)
{
    const struct rmg_map *m = fx->g.map;
    area_stats a = {SIZE_MAX, 0, 0, 0};
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index < 0)
            continue;
        a.min = RMG__MIN(a.min, z->n_tiles);
        a.max = RMG__MAX(a.max, z->n_tiles);
        a.sum += z->n_tiles;
        a.n++;
    }
    return a;
}

/* PLC-11, PLC-06: 36 equal zones (one per 72x72 tiles) on 432x432 without rock masses: every
 * zone within [0.5, 1.5] x the mean area. Before the balancing the largest zone was ~3x the
 * mean at this size (13.8x with 196 zones at 1008x1008). */
static void test_plc11_plc06_equal_weights_give_even_zones(void **state)
{
    (void)state;
    fixture fx;
    assert_int_equal(fx_init(&fx, NULL), RMG_OK);
    grid_template(&fx, 6, 6);
    fx_tally links = {0};
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_int_equal(fx_place(&fx, 432, 432, 1, RMG_WATER_NONE, seed), RMG_OK);
        assert_null(fx_check_partition(fx.g.map));
        area_stats a = game_zone_areas(&fx);
        double mean = (double)a.sum / (double)a.n;
        print_message("seed %llu: 36 zones, mean %.0f, largest %zu (%.2fx), smallest %zu (%.2fx)\n",
                      (unsigned long long)seed, mean, a.max, (double)a.max / mean, a.min, (double)a.min / mean);
        assert_int_equal(a.n, 36);
        assert_int_equal(a.sum, 432 * 432); /* no filler: the zones cover the level */
        assert_true((double)a.max <= 1.5 * mean);
        assert_true((double)a.min >= 0.5 * mean);
        fx_tally_map(&links, fx.g.map);
    }
    /* PLC-02: the balancing moves centres, it must not give up the layout's links. */
    print_message("default links met %zu/%zu\n", links.links_met, links.links);
    assert_true(fx_ratio(links.links_met, links.links) >= 0.85);
    free(links.errors);
    fx_free(&fx, true);
}

/* PLC-11: unequal weights (1, 2, 3) without rock masses: median share error <= 15% (the target
 * issue 6 sets with rock masses), every zone within 40% of its share. */
static void test_plc11_weights_followed_without_rock(void **state)
{
    (void)state;
    fixture fx;
    assert_int_equal(fx_init(&fx, NULL), RMG_OK);
    for (int id = 1; id <= 16; id++)
        assert_true(fx_zone(&fx, id, 1.0 + (id % 3)) >= 0);
    for (int id = 2; id <= 16; id++)
        assert_true(fx_link(&fx, id / 2, id, id % 2 ? RMG_LINK_GROUND : RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD) >=
                    0);
    fx_tally q = {0};
    double worst = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        assert_int_equal(fx_place(&fx, 216, 216, 1, RMG_WATER_NONE, seed), RMG_OK);
        assert_null(fx_check_partition(fx.g.map));
        size_t first = q.n_errors;
        fx_tally_map(&q, fx.g.map);
        for (size_t i = first; i < q.n_errors; i++)
            worst = RMG__MAX(worst, q.errors[i]);
    }
    fx_tally_print("weights 1..3, rock off", &q);
    print_message("largest share error %.3f\n", worst);
    assert_true(fx_tally_median(&q) <= 0.15);
    assert_true(worst <= 0.4);
    assert_true(fx_ratio(q.ground_met, q.ground) >= 0.95);
    free(q.errors);
    fx_free(&fx, true);
}

/* Determinism on the balanced path: same seed, same tiles; another seed, other tiles. */
static void test_plc11_balanced_level_is_deterministic(void **state)
{
    (void)state;
    fixture fx;
    assert_int_equal(fx_init(&fx, NULL), RMG_OK);
    grid_template(&fx, 4, 3);
    fx_assert_deterministic(&fx, 200, 150, 1, 7);
    fx_free(&fx, true);
}

/* Every allocation of the balancing (one level without rock masses: the balanced case). */
static rmg_status oom_op(rmg_context *ctx, void *user)
{
    (void)user;
    fixture fx;
    rmg_status st = fx_init(&fx, ctx);
    for (int i = 1; st == RMG_OK && i <= 8; i++)
        if (fx_zone(&fx, i, 1 + i % 2) < 0)
            st = rmg__error_nomem(ctx);
    for (int i = 2; st == RMG_OK && i <= 8; i++)
        if (fx_link(&fx, i / 2, i, RMG_LINK_DEFAULT, RMG_CONNECTION_STANDARD) < 0)
            st = rmg__error_nomem(ctx);
    if (st == RMG_OK)
        st = fx_place(&fx, 48, 48, 1, RMG_WATER_NONE, 5);
    fx_free(&fx, false);
    return st;
}

static void test_plc11_balancing_allocation_failures(void **state)
{
    (void)state;
    assert_true(rmg_test_oom_sweep(oom_op, NULL, 0, 1) > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plc11_plc06_equal_weights_give_even_zones),
        cmocka_unit_test(test_plc11_weights_followed_without_rock),
        cmocka_unit_test(test_plc11_balanced_level_is_deterministic),
        cmocka_unit_test(test_plc11_balancing_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
