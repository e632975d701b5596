/*
 * Tile geometry of lib/grid (grid.c): the fast paths must give what the plain
 * definitions give. rmg__grid_nbrs lists the on-map neighbours in direction order, as
 * rmg__grid_nbr finds them one by one; rmg__grid_low_bit is the index of the lowest set bit;
 * rmg__grid_xyz gives the coordinates t % w, t / w % h, t / (w h).
 */
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "grid/grid.h"

/* Every tile of small grids, edges and corners included, on both levels; with the rim bits
 * (as the stages run) and without them (division per tile). */
static void test_neighbours_match_one_by_one(void **state)
{
    (void)state;
    const int sizes[][2] = {{1, 1}, {2, 3}, {5, 4}, {7, 7}, {66, 3}};
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t s = 0; s < 2 * sizeof sizes / sizeof *sizes; s++) {
        rmg__grid b;
        memset(&b, 0, sizeof b);
        b.ctx = ctx;
        b.w = sizes[s / 2][0];
        b.h = sizes[s / 2][1];
        b.levels = 2;
        b.n = (uint32_t)(b.w * b.h * b.levels);
        if (s % 2)
            assert_true(rmg__grid_init_rim(&b));
        for (uint32_t t = 0; t < b.n; t++) {
            uint32_t fast[8], slow[8];
            int n_fast = rmg__grid_nbrs(&b, t, fast), n_slow = 0;
            for (int d = 0; d < 8; d++) {
                uint32_t u;
                if (rmg__grid_nbr(&b, t, d, &u))
                    slow[n_slow++] = u;
            }
            assert_int_equal(n_fast, n_slow);
            assert_memory_equal(fast, slow, (size_t)n_slow * sizeof *slow);
        }
        rmg__free(ctx, b.rim);
    }
    rmg_context_destroy(ctx);
}

/* rmg__grid_add_square: the tiles of the level within `reach` of t (Chebyshev), each once per
 * stamp, clipped at the map's edges; compared with the plain definition on every tile. */
static void test_add_square_matches_the_plain_square(void **state)
{
    (void)state;
    rmg__grid b;
    memset(&b, 0, sizeof b);
    b.w = 7, b.h = 5, b.levels = 2;
    b.n = (uint32_t)(b.w * b.h * b.levels);
    uint32_t seen[70] = {0}, out[70 * 2];
    b.seen = seen;
    for (int reach = 0; reach <= 2; reach++)
        for (uint32_t t = 0; t < b.n; t++) {
            uint32_t stamp = 1000 + (uint32_t)reach * 100 + t; /* fresh: no tile carries it */
            size_t k = rmg__grid_add_square(&b, t, reach, stamp, out, 0);
            size_t again = rmg__grid_add_square(&b, t, reach, stamp, out, k); /* all seen: none added */
            assert_int_equal(again, k);
            size_t want = 0;
            int x, y, z;
            rmg__grid_xyz(&b, t, &x, &y, &z);
            for (uint32_t u = 0; u < b.n; u++) {
                int ux, uy, uz;
                rmg__grid_xyz(&b, u, &ux, &uy, &uz);
                bool in = uz == z && abs(ux - x) <= reach && abs(uy - y) <= reach;
                want += in;
                assert_int_equal(seen[u] == stamp, in);
            }
            assert_int_equal(k, want);
        }
}

/* rmg__grid_xyz (one division) gives the coordinates of the plain definitions. */
static void test_coordinates_match_plain_definitions(void **state)
{
    (void)state;
    const int sizes[][3] = {{1, 1, 1}, {3, 2, 2}, {7, 5, 2}, {36, 36, 1}, {5, 4, 3}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        rmg__grid b;
        memset(&b, 0, sizeof b);
        b.w = sizes[s][0];
        b.h = sizes[s][1];
        b.levels = sizes[s][2];
        b.n = (uint32_t)(b.w * b.h * b.levels);
        for (uint32_t t = 0; t < b.n; t++) {
            int x, y, z;
            rmg__grid_xyz(&b, t, &x, &y, &z);
            assert_int_equal(x, (int)(t % (uint32_t)b.w));
            assert_int_equal(y, (int)(t / (uint32_t)b.w % (uint32_t)b.h));
            assert_int_equal(z, (int)(t / (uint32_t)(b.w * b.h)));
            assert_int_equal(rmg__grid_y(&b, t), y);
            assert_int_equal(rmg__grid_z(&b, t), z);
        }
    }
}

static int naive_low_bit(uint64_t mask)
{
    int bit = 0;
    while (!(mask & 1)) {
        mask >>= 1;
        bit++;
    }
    return bit;
}

static void test_low_bit(void **state)
{
    (void)state;
    for (int bit = 0; bit < 64; bit++) {
        uint64_t one = (uint64_t)1 << bit;
        assert_int_equal(rmg__grid_low_bit(one), bit);
        /* Higher bits do not matter. */
        assert_int_equal(rmg__grid_low_bit(one | ~(one | (one - 1))), bit);
    }
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 1000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x)
            assert_int_equal(rmg__grid_low_bit(x), naive_low_bit(x));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neighbours_match_one_by_one),
        cmocka_unit_test(test_add_square_matches_the_plain_square),
        cmocka_unit_test(test_low_bit),
        cmocka_unit_test(test_coordinates_match_plain_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
