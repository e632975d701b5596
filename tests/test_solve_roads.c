/* Solve stage: road choices (CON-14..18), including the four CON-15 vectors. */
#include "test_solve_fixture.h"

/* Zones 1..n; `towns` lists the zone ids that hold a minimum town. */
static void road_zones(sfx *f, int n, const int *towns, size_t n_towns)
{
    sfx_zones(f, n);
    for (size_t i = 0; i < n_towns; i++)
        sfx_zone(f, towns[i])->neutral_towns = 1;
}

static void link(sfx *f, int a, int b, rmg_road_setting roads)
{
    rmg__connection *c = rmg__template_add_connection(f->pack, f->tpl);
    assert_non_null(c);
    c->zone_a = a;
    c->zone_b = b;
    c->roads = roads;
}

static void solve_roads(sfx *f, sfx_run *r)
{
    sfx_solve(f, 1, NULL, r);
}

typedef struct road_link {
    int a, b;
    rmg_road_setting roads;
    rmg_road_setting expect;     /* road choice after CON-15..18 */
} road_link;

/* Builds zones 1..n with towns in `towns`, links them, solves and checks every choice. */
static void check_roads(int n, const int *towns, size_t n_towns, const road_link *links, size_t n_links)
{
    sfx f;
    sfx_init(&f);
    road_zones(&f, n, towns, n_towns);
    for (size_t i = 0; i < n_links; i++)
        link(&f, links[i].a, links[i].b, links[i].roads);
    sfx_run r;
    solve_roads(&f, &r);
    for (size_t i = 0; i < n_links; i++) {
        assert_int_equal(r.x.road_choice[i], links[i].expect);
        assert_int_equal(r.sol.road[i], links[i].expect == RMG_ROAD_MANDATORY);
    }
    sfx_run_free(&r);
    sfx_free(&f);
}

#define M RMG_ROAD_MANDATORY
#define R RMG_ROAD_RANDOM

/* Vector 1: T1 - N1 - T2, both mandatory: both get roads. */
static void test_con15_vector1_path_between_towns(void **state)
{
    (void)state;
    static const int towns[] = {1, 3};
    static const road_link links[] = {{1, 2, M, M}, {2, 3, M, M}};
    check_roads(3, towns, 2, links, 2);
}

/* Vector 2: T1 - N1 - N2 mandatory, N2 - T2 random: both mandatory links fall back to random. */
static void test_con15_vector2_random_link_breaks_the_path(void **state)
{
    (void)state;
    static const int towns[] = {1, 4};
    static const road_link links[] = {{1, 2, M, R}, {2, 3, M, R}, {3, 4, R, R}};
    check_roads(4, towns, 2, links, 3);
}

/* Vector 3: T1 - N - T2 plus N - N3 (dead end): the dead end falls back to random. */
static void test_con15_vector3_dead_end(void **state)
{
    (void)state;
    static const int towns[] = {1, 3};
    static const road_link links[] = {{1, 2, M, M}, {2, 3, M, M}, {2, 4, M, R}};
    check_roads(4, towns, 2, links, 3);
}

/* Vector 4: cycle T1 - A - B - T1 with towns only in T1: all fall back to random. */
static void test_con15_vector4_cycle_with_one_town(void **state)
{
    (void)state;
    static const int towns[] = {1};
    static const road_link links[] = {{1, 2, M, R}, {2, 3, M, R}, {3, 1, M, R}};
    check_roads(3, towns, 1, links, 3);
}

/* A cycle through two towns: every edge of it lies on a simple path between them. A pendant
 * path off the cycle ending at a town zone does too; one ending in no town does not. */
static void test_con15_cycle_and_branches(void **state)
{
    (void)state;
    static const int towns[] = {1, 3, 6};
    static const road_link links[] = {{1, 2, M, M}, {2, 3, M, M}, {3, 4, M, M}, {4, 1, M, M}, /* cycle */
                                      {4, 5, M, M}, {5, 6, M, M},                              /* to a town */
                                      {2, 7, M, R}};                                           /* dead end */
    check_roads(7, towns, 3, links, 7);
}

/* A start zone holds its player's town even when its minimum counts are zero. */
static void test_con15_start_zones_count_as_town_zones(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 3);
    for (int id = 1; id <= 3; id += 2) {
        sfx_zone(&f, id)->kind = RMG_ZONE_COMPUTER_START;
        sfx_zone(&f, id)->owner = id == 1 ? 1 : 2;
    }
    link(&f, 1, 2, M);
    link(&f, 2, 3, M);
    sfx_run r;
    solve_roads(&f, &r);
    assert_int_equal(r.x.road_choice[0], M);
    assert_int_equal(r.x.road_choice[1], M);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* CON-18: parallel links merge by maximum; CON-16: forbidden never; fictive and water links never. */
static void test_con16_con18_merge_forbidden_fictive_water(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    static const int towns[] = {1, 2, 4};
    road_zones(&f, 5, towns, 3);
    link(&f, 1, 2, RMG_ROAD_FORBIDDEN);
    link(&f, 2, 1, RMG_ROAD_MANDATORY);  /* parallel: the group is mandatory, represented by this one */
    link(&f, 1, 2, RMG_ROAD_RANDOM);
    link(&f, 2, 3, RMG_ROAD_FORBIDDEN);
    link(&f, 3, 4, RMG_ROAD_MANDATORY);
    f.tpl->connections[4].type = RMG_CONNECTION_FICTIVE;
    link(&f, 4, 5, RMG_ROAD_MANDATORY);
    sfx_zone(&f, 5)->kind = RMG_ZONE_WATER;
    sfx_run r;
    solve_roads(&f, &r);
    assert_int_equal(r.x.road_group[0], 1);
    assert_int_equal(r.x.road_group[1], 1);
    assert_int_equal(r.x.road_group[2], 1);
    for (int i = 0; i < 3; i++)
        assert_int_equal(r.x.road_choice[i], RMG_ROAD_MANDATORY);
    assert_false(r.sol.road[0]);
    assert_true(r.sol.road[1]);  /* only the representative carries it */
    assert_false(r.sol.road[2]);
    assert_int_equal(r.x.road_choice[3], RMG_ROAD_FORBIDDEN);
    assert_int_equal(r.x.road_group[4], -1);
    assert_int_equal(r.x.road_choice[4], RMG_ROAD_FORBIDDEN);
    assert_int_equal(r.x.road_choice[5], RMG_ROAD_FORBIDDEN);
    assert_false(r.sol.road[5]);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* Links of zones removed by the player filter take no part. */
static void test_con15_inactive_zone_breaks_path(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    static const int towns[] = {1, 3};
    road_zones(&f, 3, towns, 2);
    link(&f, 1, 2, RMG_ROAD_MANDATORY);
    link(&f, 2, 3, RMG_ROAD_MANDATORY);
    bool zones[3] = {true, true, false}, conns[2] = {true, true};
    rmg__solve_input in = {0};
    in.zone_active = zones;
    in.conn_active = conns;
    sfx_run r;
    sfx_solve(&f, 1, &in, &r);
    assert_int_equal(r.x.road_choice[0], RMG_ROAD_RANDOM);
    assert_int_equal(r.x.road_group[1], -1);
    assert_int_equal(r.sol.zones[2].terrain, -1);
    sfx_run_free(&r);
    sfx_free(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_con15_vector1_path_between_towns),
        cmocka_unit_test(test_con15_vector2_random_link_breaks_the_path),
        cmocka_unit_test(test_con15_vector3_dead_end),
        cmocka_unit_test(test_con15_vector4_cycle_with_one_town),
        cmocka_unit_test(test_con15_cycle_and_branches),
        cmocka_unit_test(test_con15_start_zones_count_as_town_zones),
        cmocka_unit_test(test_con16_con18_merge_forbidden_fictive_water),
        cmocka_unit_test(test_con15_inactive_zone_breaks_path),
    };
    return RMG_TEST_MAIN_SHARED(tests, "data");
}
