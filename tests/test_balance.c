/* The balance report (docs/balance.md) on hand-made maps with known answers (terrain, roads,
 * diagonals, teleports, a boat, guards and their zones of control, value by day, mines), on a map
 * copied tile for tile to a second level (every measure agrees), on a symmetric corpus template
 * (within the documented tolerance), read back from JSON and .h3m, under allocation failures;
 * and fairness-aware generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "balance/balance_internal.h"
#include "rmg_test.h"

/* ---- hand-made maps ---------------------------------------------------------------------------- */

#define ENTRY (1ull << 47) /* the anchor tile of a footprint mask */

/* A one-level map from rows of characters: '.' grass, 's' swamp, 'S' sand, '#' rock, '~' water,
 * '=' grass with a cobblestone road, 'd' grass with a dirt road. Every tile in zone 1. */
static struct rmg_map *grid(rmg_context *ctx, const char *const *rows, int height)
{
    int width = (int)strlen(rows[0]);
    struct rmg_map *m = NULL;
    assert_int_equal(rmg__map_new(ctx, width, height, 1, &m), RMG_OK);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            size_t t = rmg__tile(width, height, x, y, 0);
            char c = rows[y][x];
            m->terrain[t] = c == 's' ? RMG_TERRAIN_SWAMP : c == 'S' ? RMG_TERRAIN_SAND : c == '#' ? RMG_TERRAIN_ROCK
                            : c == '~' ? RMG_TERRAIN_WATER : RMG_TERRAIN_GRASS;
            m->road[t] = c == '=' ? 3 : c == 'd' ? 1 : 0;
            m->flags[t] = c == '#' ? RMG__T_ROCK | RMG__T_BLOCKED : c == '~' ? RMG__T_WATER | RMG__T_BLOCKED : 0;
            m->tile_zone[t] = 1;
        }
    return m;
}

/* A one-tile object at (x, y): walkable (entry open) unless `blocked`. */
static rmg__map_object *put(struct rmg_map *m, const char *key, rmg_map_object_kind kind, int x, int y, int z,
                            bool blocked)
{
    rmg__map_object *o = rmg__map_add_object(m, key, kind, x, y, z);
    assert_non_null(o);
    o->visit = ENTRY;
    o->block = blocked ? ENTRY : 0;
    assert_true(rmg__map_stamp_object(m, o));
    return o;
}

static void town(struct rmg_map *m, int x, int y, int z, int owner)
{
    rmg__map_object *o = put(m, "castle", RMG_OBJECT_TOWN, x, y, z, false);
    o->owner = owner;
    o->main = owner > 0;
}

static void monster(struct rmg_map *m, int x, int y, const char *creature, int count)
{
    rmg__map_object *o = put(m, "monster", RMG_OBJECT_MONSTER, x, y, 0, false);
    o->creature = (int)rmg__content_find_creature(rmg__content_get(m->ctx), creature);
    assert_true(o->creature >= 0);
    o->count = count;
}

static int64_t ai_value(rmg_context *ctx, const char *creature)
{
    const struct rmg_content *c = rmg__content_get(ctx);
    return c->creatures[rmg__content_find_creature(c, creature)].ai_value;
}

static rmg_balance *report(const struct rmg_map *m)
{
    rmg_balance *b = NULL;
    assert_int_equal(rmg_map_balance(m, NULL, &b), RMG_OK);
    return b;
}

static rmg_balance_path_info path(const rmg_balance *b, size_t player, size_t to)
{
    rmg_balance_path_info p = {.struct_size = sizeof p};
    assert_int_equal(rmg_balance_path(b, player, to, &p), RMG_OK);
    return p;
}

static rmg_balance_player_info player(const rmg_balance *b, size_t index)
{
    rmg_balance_player_info p = {.struct_size = sizeof p};
    assert_int_equal(rmg_balance_player(b, index, &p), RMG_OK);
    return p;
}

static void assert_path(const rmg_balance *b, size_t from, size_t to, int64_t tiles, int64_t cost)
{
    rmg_balance_path_info p = path(b, from, to);
    assert_true(p.reachable);
    assert_int_equal(p.tiles, tiles);
    assert_int_equal(p.cost, cost);
}

static void test_straight_and_diagonal_steps_on_grass(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const char *const rows[] = {"........", "........", "........", "........", "........"};
    struct rmg_map *m = grid(ctx, rows, 5);
    town(m, 1, 1, 0, 1);
    town(m, 6, 1, 0, 2);
    town(m, 4, 4, 0, 3);
    rmg_balance *b = report(m);
    assert_int_equal(rmg_balance_player_count(b), 3);
    assert_path(b, 0, 0, 5, 500);          /* 5 straight steps of 100 */
    /* A town is entered from its sides and below, never from the row above (the game's visiting
     * directions, lib/map/map_reach.h): from (1, 1) to (4, 4), two diagonals down to (3, 3), one
     * step down to (3, 4) and one onto the town from its left; back up, three diagonal steps of 141
     * (100 x 1.414, rounded down) enter (1, 1) from below. */
    assert_path(b, 0, 1, 4, 2 * 141 + 2 * 100);
    assert_path(b, 2, 0, 3, 3 * 141);
    assert_path(b, 1, 0, 5, 500);
    rmg_balance_player_info p = player(b, 0);
    assert_int_equal(p.player, 1);
    assert_int_equal(p.town_x, 1);
    assert_int_equal(p.town_y, 1);
    assert_int_equal(p.zone, 1);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_terrain_of_the_tile_left_sets_the_cost(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const char *const rows[] = {".sss.S"};
    struct rmg_map *m = grid(ctx, rows, 1);
    town(m, 0, 0, 0, 1);
    town(m, 5, 0, 0, 2);
    rmg_balance *b = report(m);
    assert_path(b, 0, 0, 5, 100 + 3 * 175 + 100);  /* leaves grass, three swamps, grass */
    assert_path(b, 1, 0, 5, 150 + 100 + 3 * 175);  /* leaves sand, grass, three swamps */
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_roads_and_the_cheapest_route(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    /* A cobblestone road above a swamp: the road costs 50 a step between road tiles. */
    static const char *const rows[] = {"=======", ".sssss."};
    struct rmg_map *m = grid(ctx, rows, 2);
    town(m, 0, 1, 0, 1);
    town(m, 6, 1, 0, 2);
    rmg_balance *b = report(m);
    /* diagonal onto the road (grass left, 141), three road steps (50), diagonal off the road down
     * to the swamp (its grass left, 141), and onto the town from its left side (swamp left, 175):
     * the town is never entered from the road above it. */
    assert_path(b, 0, 0, 6, 141 + 3 * 50 + 141 + 175);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    /* A dirt road under both towns: 75 a step. */
    static const char *const dirt[] = {"ddddd"};
    m = grid(ctx, dirt, 1);
    town(m, 0, 0, 0, 1);
    town(m, 4, 0, 0, 2);
    b = report(m);
    assert_path(b, 0, 0, 4, 4 * 75);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_teleports_two_way_and_one_way(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const char *const rows[] = {".....##....."};
    struct rmg_map *m = grid(ctx, rows, 1);
    town(m, 0, 0, 0, 1);
    town(m, 11, 0, 0, 2);
    put(m, "monolith_two_way", RMG_OBJECT_MONOLITH, 3, 0, 0, false)->color = 4;
    put(m, "monolith_two_way", RMG_OBJECT_MONOLITH, 8, 0, 0, false)->color = 4;
    rmg_balance *b = report(m);
    /* three steps onto the monolith, the jump (no step, no points), three steps to the town */
    assert_path(b, 0, 0, 6, 600);
    assert_path(b, 1, 0, 6, 600);
    rmg_balance_destroy(b);
    rmg__map_free(m);

    /* One way: from the entrance to the exit of its colour, not back. */
    m = grid(ctx, rows, 1);
    town(m, 0, 0, 0, 1);
    town(m, 11, 0, 0, 2);
    put(m, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 3, 0, 0, false)->color = 2;
    put(m, "monolith_one_way_exit", RMG_OBJECT_MONOLITH, 8, 0, 0, false)->color = 2;
    put(m, "monolith_one_way_exit", RMG_OBJECT_MONOLITH, 10, 0, 0, false)->color = 3; /* another colour */
    b = report(m);
    assert_path(b, 0, 0, 6, 600);
    assert_false(path(b, 1, 0).reachable);
    assert_int_equal(path(b, 1, 0).tiles, -1);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_a_boat_from_a_shipyard(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const char *const rows[] = {"...~~~~...", "...~~~~...", "...~~~~..."};
    struct rmg_map *m = grid(ctx, rows, 3);
    town(m, 0, 1, 0, 1);
    town(m, 9, 1, 0, 2);
    /* The game builds a shipyard's boat on the first free water two columns to the side of its
     * entry, then in the row below, then above (rmg__map_boat_spot): (3, 0) for this one. */
    put(m, "shipyard", RMG_OBJECT_SHIPYARD, 1, 0, 0, true);
    rmg_balance *b = report(m);
    /* 2 steps to the shore (200), boarding at (3, 0) ends the day (1500), 3 sea steps (1800),
     * landing ends the day (3000), 2 steps to the town (3200); 9 steps in all. */
    assert_path(b, 0, 0, 9, 3200);
    uint32_t tiles[10]; /* the town's tile, then one a step */
    assert_int_equal(rmg_balance_path_tiles(b, 0, 0, tiles, 10), 10);
    assert_int_equal(tiles[3], rmg__tile(10, 3, 3, 0, 0)); /* boarded where the boat is built */
    /* No boat on the other shore. */
    assert_false(path(b, 1, 0).reachable);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    /* A shipyard at (2, 0) builds its boat on (4, 0), out at sea: no hero boards it (nor does a
     * town by the sea give boats: it has no shipyard until one is built). */
    m = grid(ctx, rows, 3);
    town(m, 0, 1, 0, 1);
    town(m, 9, 1, 0, 2);
    put(m, "shipyard", RMG_OBJECT_SHIPYARD, 2, 0, 0, true);
    town(m, 2, 2, 0, 0);
    b = report(m);
    assert_false(path(b, 0, 0).reachable);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_guards_on_the_path_and_the_weakest_exit(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const char *const rows[] = {".........", "####.####"};
    struct rmg_map *m = grid(ctx, rows, 2);
    for (int x = 4; x < 9; x++) /* zone 2 from x = 4 on */
        m->tile_zone[rmg__tile(9, 2, x, 0, 0)] = m->tile_zone[rmg__tile(9, 2, x, 1, 0)] = 2;
    town(m, 0, 0, 0, 1);
    town(m, 8, 0, 0, 2);
    monster(m, 4, 1, "pikeman", 10);  /* beside the corridor: its zone of control covers x 3..5 */
    monster(m, 6, 0, "pikeman", 25);  /* on the corridor: x 5..7 */
    int64_t weak = 10 * ai_value(ctx, "pikeman"), strong = 25 * ai_value(ctx, "pikeman");
    rmg_balance *b = report(m);
    rmg_balance_path_info p = path(b, 0, 0);
    assert_int_equal(p.tiles, 8);
    assert_int_equal(p.cost, 800);
    assert_int_equal(p.guards, 2);
    assert_int_equal(p.strongest_guard, strong);
    assert_int_equal(p.guard_sum, weak + strong);
    /* Player 1 leaves zone 1 past the weak guard; player 2 must beat both to reach zone 1. */
    assert_int_equal(player(b, 0).weakest_exit_guard, weak);
    assert_int_equal(player(b, 1).weakest_exit_guard, strong);
    rmg_balance_destroy(b);
    rmg__map_free(m);

    /* No guard: an unguarded way out (0). One zone only: no way out (-1). */
    m = grid(ctx, rows, 2);
    m->tile_zone[rmg__tile(9, 2, 8, 0, 0)] = 2;
    town(m, 0, 0, 0, 1);
    b = report(m);
    assert_int_equal(player(b, 0).weakest_exit_guard, 0);
    rmg_balance_destroy(b);
    m->tile_zone[rmg__tile(9, 2, 8, 0, 0)] = 1;
    b = report(m);
    assert_int_equal(player(b, 0).weakest_exit_guard, -1);
    double spread = -1;
    assert_string_equal(rmg_balance_measure(b, 0, &spread), "path_cost");
    assert_true(spread == 0.0);
    assert_true(rmg_balance_score(b) == 100.0); /* one player: nothing to compare */
    rmg_balance_destroy(b);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

static void test_value_by_day_by_kind_and_the_nearest_mines(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    /* A corridor; the dwelling and the mine block their tiles below it, each entered from the
     * open tile on its left (the game enters neither from the row above). */
    static const char *const rows[] = {"........................................",
                                       "####..#####..###########################"};
    struct rmg_map *m = grid(ctx, rows, 2);
    town(m, 0, 0, 0, 1);
    put(m, "treasure_chest", RMG_OBJECT_TREASURE, 10, 0, 0, false)->value = 1000;  /* 1000 points: day 1 */
    put(m, "treasure_chest", RMG_OBJECT_TREASURE, 20, 0, 0, false)->value = 2000;  /* day 2 */
    put(m, "treasure_chest", RMG_OBJECT_TREASURE, 39, 0, 0, false)->value = 4000;  /* 3900: day 3 */
    put(m, "creature_dwelling", RMG_OBJECT_TREASURE, 5, 1, 0, true)->value = 961;  /* visited from (4, 1) */
    put(m, "mine_sawmill", RMG_OBJECT_MINE, 12, 1, 0, true);                       /* the ruleset's value */
    put(m, "castle", RMG_OBJECT_TOWN, 30, 0, 0, false);                            /* 3000 points: day 2 */
    const struct rmg_content *c = rmg__content_get(ctx);
    int64_t sawmill = c->objects[rmg__content_find_object(c, "mine_sawmill")].value;
    rmg_balance *b = report(m);
    rmg_balance_player_info p = player(b, 0);
    int64_t treasure[4] = {1000, 3000, 7000, 7000}, towns[4] = {0, 1, 1, 1};
    for (int d = 0; d < RMG_BALANCE_DAYS; d++) {
        assert_int_equal(p.treasure_by_day[d], treasure[d]);
        assert_int_equal(p.dwellings_by_day[d], 961);
        assert_int_equal(p.resources_by_day[d], sawmill);
        assert_int_equal(p.towns_by_day[d], towns[d]);
        assert_int_equal(p.value_by_day[d], treasure[d] + 961 + sawmill);
    }
    /* 10 steps to (10, 0), a diagonal down to (11, 1), a step onto the entry from its left */
    assert_int_equal(p.nearest_mine[0], 1000 + 141 + 100);
    for (int r = 1; r < RMG_BALANCE_RESOURCES; r++)
        assert_int_equal(p.nearest_mine[r], -1);
    rmg_balance_destroy(b);
    rmg_balance_options o;
    rmg_balance_options_init(&o);
    o.day_points = 1000;
    assert_int_equal(rmg_map_balance(m, &o, &b), RMG_OK);
    assert_int_equal(player(b, 0).treasure_by_day[0], 1000); /* exactly one day away */
    uint8_t *days = malloc(m->n_tiles);
    assert_non_null(days);
    assert_int_equal(rmg_balance_reach_days(b, 0, days, m->n_tiles - 1), RMG_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(rmg_balance_reach_days(b, 0, days, m->n_tiles), RMG_OK);
    assert_int_equal(days[0], 1);
    assert_int_equal(days[10], 1);
    assert_int_equal(days[11], 2);
    assert_int_equal(days[39], 4);
    free(days);
    rmg_balance_destroy(b);
    o.day_points = 50;
    assert_int_equal(rmg_map_balance(m, &o, &b), RMG_ERR_INVALID_ARG);
    rmg__map_free(m);
    rmg_context_destroy(ctx);
}

/* ---- generated maps ------------------------------------------------------------------------ */

/* The map m copied to two levels, tile for tile and object for object: player 1 keeps its main
 * town on the surface, player 2 gets the copy of it underground; no other town is owned. The
 * monoliths of one colour on both levels join them. */
static struct rmg_map *copied_to_two_levels(rmg_context *ctx, const struct rmg_map *m, uint32_t town_id)
{
    struct rmg_map *c = NULL;
    assert_int_equal(rmg__map_new(ctx, m->width, m->height, 2, &c), RMG_OK);
    size_t n = m->n_tiles, nz = m->zones.count;
    for (int z = 0; z < 2; z++)
        for (size_t t = 0; t < n; t++) {
            c->terrain[z * n + t] = m->terrain[t];
            c->road[z * n + t] = m->road[t];
            c->flags[z * n + t] = m->flags[t];
            c->tile_zone[z * n + t] = (uint16_t)(m->tile_zone[t] ? m->tile_zone[t] + (size_t)z * nz : 0);
        }
    for (int z = 0; z < 2; z++)
        for (size_t i = 0; i < m->objects.count; i++) {
            const rmg__map_object *o = &m->objects.items[i];
            rmg__map_object *k = rmg__map_add_object(c, o->key, o->kind, o->x, o->y, z);
            assert_non_null(k);
            uint32_t id = k->id;
            *k = *o;
            k->id = id;
            k->z = z;
            k->zone = o->zone ? o->zone + z * (int)nz : 0;
            k->spells = NULL;
            k->n_spells = 0;
            k->link = 0;
            k->owner = o->id == town_id ? z + 1 : 0;
            k->main = o->id == town_id;
            rmg__map_stamp_object(c, k);
        }
    return c;
}

static void test_a_map_copied_to_two_levels_measures_the_same(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        rmg_context_set_seed(ctx, seed);
        rmg_map *m = rmg_test_generate(ctx, 72, 1);
        uint32_t town_id = 0;
        for (size_t i = 0; i < m->objects.count && !town_id; i++)
            if (m->objects.items[i].kind == RMG_OBJECT_TOWN && m->objects.items[i].main && m->objects.items[i].owner == 1)
                town_id = m->objects.items[i].id;
        assert_true(town_id > 0);
        struct rmg_map *c = copied_to_two_levels(ctx, m, town_id);
        rmg_balance *b = report(c);
        assert_int_equal(rmg_balance_player_count(b), 2);
        rmg_balance_player_info p1 = player(b, 0), p2 = player(b, 1);
        assert_int_equal(p1.town_z, 0);
        assert_int_equal(p2.town_z, 1);
        assert_int_equal(p1.weakest_exit_guard, p2.weakest_exit_guard);
        for (int d = 0; d < RMG_BALANCE_DAYS; d++)
            assert_int_equal(p1.value_by_day[d], p2.value_by_day[d]);
        for (int r = 0; r < RMG_BALANCE_RESOURCES; r++)
            assert_int_equal(p1.nearest_mine[r], p2.nearest_mine[r]);
        rmg_balance_path_info a = path(b, 0, 0), z = path(b, 1, 0);
        assert_int_equal(a.reachable, z.reachable);
        assert_int_equal(a.tiles, z.tiles);
        assert_int_equal(a.cost, z.cost);
        /* Tolerance 0 on every measure of a copied map (docs/balance.md). */
        double spread;
        for (size_t k = 0; rmg_balance_measure(b, k, &spread); k++)
            assert_true(spread == 0.0);
        rmg_balance_destroy(b);
        rmg__map_free(c);
        rmg_map_destroy(m);
    }
    rmg_context_destroy(ctx);
}

/* The spread of measure `name` in each of `seeds` maps of a template, sorted. */
static void spreads_of(const char *file, int seeds, const char *const *names, size_t n_names, double out[][16])
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
    for (int s = 0; s < seeds; s++) {
        rmg_context_set_seed(ctx, (uint64_t)s + 1);
        rmg_map *m = NULL;
        assert_int_equal(rmg_generate(ctx, pack, NULL, &m), RMG_OK);
        rmg_balance *b = report(m);
        for (size_t k = 0; k < n_names; k++) {
            double spread = -1;
            for (size_t i = 0; rmg_balance_measure(b, i, NULL); i++)
                if (strcmp(rmg_balance_measure(b, i, NULL), names[k]) == 0)
                    rmg_balance_measure(b, i, &spread);
            out[k][s] = spread;
        }
        rmg_balance_destroy(b);
        rmg_map_destroy(m);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void test_a_symmetric_template_within_the_tolerance(void **state)
{
    (void)state;
    const char *file = rmg_test_shared_present("corpus/h3t/gkodrzycki__HoMM3-TemplateBasedMapGenerator__JebusCross.h3t");
    if (!file)
        skip();
    /* docs/balance.md: on Jebus Cross (four equal start zones around a centre) the median spread
     * over 10 seeds stays within these for the measures the template's shape decides. */
    static const char *const names[] = {"path_cost", "path_tiles", "value_7"};
    static const double tolerance[] = {0.30, 0.25, 0.25};
    double spreads[3][16];
    spreads_of(file, 10, names, 3, spreads);
    for (size_t k = 0; k < 3; k++) {
        qsort(spreads[k], 10, sizeof(double), cmp_double);
        double median = (spreads[k][4] + spreads[k][5]) / 2;
        printf("Jebus Cross, %s: median spread %.3f (tolerance %.2f)\n", names[k], median, tolerance[k]);
        assert_true(median <= tolerance[k]);
    }
}

static char *report_json(const struct rmg_map *m)
{
    rmg_balance *b = report(m);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(rmg_balance_to_json(b, &text, &len), RMG_OK);
    assert_int_equal(strlen(text), len);
    rmg_balance_destroy(b);
    return text;
}

static void test_a_map_read_back_gives_the_same_report(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 9);
    rmg_map *m = rmg_test_generate(ctx, 72, 2);
    char *want = report_json(m);
    char *doc = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_json(m, &doc, &len), RMG_OK);
    struct rmg_map *back = NULL;
    assert_int_equal(rmg__map_from_json(ctx, doc, len, "map.json", &back), RMG_OK);
    assert_int_equal(rmg_map_warning_count(back), 0); /* footprints and the passable layer agree */
    char *got = report_json(back);
    assert_string_equal(got, want);
    rmg_free(ctx, got);
    rmg__map_free(back);
    /* A document that is not a map is refused with the reason. */
    assert_int_equal(rmg__map_from_json(ctx, "{\"format\":\"rmg-pack\"}", 21, "x.json", &back), RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "rmg-map"));
    /* The .h3m file of the map: the same players start from the same towns. */
    unsigned char *h3m = NULL;
    assert_int_equal(rmg_map_to_h3m(m, NULL, &h3m, &len), RMG_OK);
    assert_int_equal(rmg_map_from_h3m(ctx, h3m, len, "map.h3m", &back), RMG_OK);
    rmg_balance *a = report(m), *b = report(back);
    assert_int_equal(rmg_balance_player_count(a), rmg_balance_player_count(b));
    for (size_t i = 0; i < rmg_balance_player_count(a); i++) {
        rmg_balance_player_info pa = player(a, i), pb = player(b, i);
        assert_int_equal(pa.player, pb.player);
        assert_int_equal(pa.town_x, pb.town_x);
        assert_int_equal(pa.town_y, pb.town_y);
        assert_int_equal(pa.town_z, pb.town_z);
        assert_int_equal(pb.zone, 0); /* a file has no zones */
    }
    rmg_balance_destroy(a);
    rmg_balance_destroy(b);
    rmg_map_destroy(back);
    rmg_free(ctx, h3m);
    rmg_free(ctx, doc);
    rmg_free(ctx, want);
    rmg_map_destroy(m);
    rmg_context_destroy(ctx);
}

static void test_api_arguments(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 2);
    rmg_map *m = rmg_test_generate(ctx, 36, 1);
    rmg_balance *b = NULL;
    assert_int_equal(rmg_map_balance(NULL, NULL, &b), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_map_balance(m, NULL, NULL), RMG_ERR_INVALID_ARG);
    rmg_balance_options small = {sizeof(size_t), 0};
    assert_int_equal(rmg_map_balance(m, &small, &b), RMG_ERR_INVALID_ARG);
    b = report(m);
    rmg_balance_player_info p = {.struct_size = sizeof p};
    assert_int_equal(rmg_balance_player(b, 99, &p), RMG_ERR_INVALID_ARG);
    rmg_balance_path_info q = {.struct_size = sizeof q};
    assert_int_equal(rmg_balance_path(b, 0, 99, &q), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_balance_path_tiles(b, 0, 99, NULL, 0), 0);
    assert_null(rmg_balance_measure(b, 16, NULL));
    assert_int_equal(rmg_balance_value(b, 0, 16, NULL), 0);
    /* A caller's older player struct is filled up to its size. */
    rmg_balance_player_info old;
    memset(&old, 0xAB, sizeof old);
    old.struct_size = offsetof(rmg_balance_player_info, value_by_day);
    assert_int_equal(rmg_balance_player(b, 0, &old), RMG_OK);
    assert_int_equal(old.player, 1);
    assert_true(old.value_by_day[0] == (int64_t)0xABABABABABABABABull);
    /* The path tiles start at the player's town and end at the other's. */
    rmg_balance_path_info first = path(b, 0, 0);
    uint32_t *tiles = malloc(first.tile_count * sizeof *tiles);
    assert_int_equal(rmg_balance_path_tiles(b, 0, 0, tiles, first.tile_count), first.tile_count);
    rmg_balance_player_info p0 = player(b, 0), p1 = player(b, 1);
    assert_int_equal(tiles[0], rmg__tile(m->width, m->height, p0.town_x, p0.town_y, p0.town_z));
    assert_int_equal(tiles[first.tile_count - 1], rmg__tile(m->width, m->height, p1.town_x, p1.town_y, p1.town_z));
    free(tiles);
    rmg_balance_destroy(b);
    rmg_balance_destroy(NULL);
    rmg_map_destroy(m);
    rmg_context_destroy(ctx);
}

/* A small map with every kind of thing the report handles, built on ctx (NULL on failure). */
static struct rmg_map *small_world(rmg_context *ctx)
{
    static const char *const rows[] = {"..=====...~~~..", ".s.....#..~~~..", "....M..#.......", "T......#......T"};
    struct rmg_map *m = NULL;
    if (rmg__map_new(ctx, 15, 4, 1, &m) != RMG_OK)
        return NULL;
    const struct rmg_content *c = rmg__content_get(ctx);
    bool ok = c != NULL;
    for (int y = 0; ok && y < 4; y++)
        for (int x = 0; x < 15; x++) {
            size_t t = rmg__tile(15, 4, x, y, 0);
            char ch = rows[y][x];
            m->terrain[t] = ch == 's' ? RMG_TERRAIN_SWAMP : ch == '#' ? RMG_TERRAIN_ROCK : ch == '~' ? RMG_TERRAIN_WATER
                                                                                                    : RMG_TERRAIN_GRASS;
            m->flags[t] = ch == '#' ? RMG__T_ROCK : ch == '~' ? RMG__T_WATER : 0;
            m->road[t] = ch == '=' ? 2 : 0;
            m->tile_zone[t] = x < 7 ? 1 : 2;
            static const struct {
                char ch;
                const char *key;
                rmg_map_object_kind kind;
            } things[] = {{'T', "castle", RMG_OBJECT_TOWN}, {'M', "monster", RMG_OBJECT_MONSTER}};
            for (size_t k = 0; ok && k < 2; k++) {
                if (ch != things[k].ch)
                    continue;
                rmg__map_object *o = rmg__map_add_object(m, things[k].key, things[k].kind, x, y, 0);
                ok = o != NULL;
                if (ok) {
                    o->visit = ENTRY;
                    o->owner = x < 7 ? 1 : 2;
                    o->main = true;
                    o->creature = 0;
                    o->count = 5;
                    rmg__map_stamp_object(m, o);
                }
            }
        }
    static const struct {
        const char *key;
        rmg_map_object_kind kind;
        int x, y;
        int64_t value;
    } more[] = {{"monolith_two_way", RMG_OBJECT_MONOLITH, 1, 3, 0}, {"monolith_two_way", RMG_OBJECT_MONOLITH, 12, 3, 0},
                {"shipyard", RMG_OBJECT_SHIPYARD, 9, 0, 0},          {"treasure_chest", RMG_OBJECT_TREASURE, 5, 1, 1500},
                {"mine_ore_pit", RMG_OBJECT_MINE, 13, 1, 0}};
    for (size_t k = 0; ok && k < RMG__ARRAY_LEN(more); k++) {
        rmg__map_object *o = rmg__map_add_object(m, more[k].key, more[k].kind, more[k].x, more[k].y, 0);
        ok = o != NULL;
        if (ok) {
            o->visit = ENTRY;
            o->color = 1;
            o->value = more[k].value;
            rmg__map_stamp_object(m, o);
        }
    }
    if (!ok) {
        rmg__map_free(m);
        return NULL;
    }
    return m;
}

static rmg_status balance_op(rmg_context *ctx, void *user)
{
    (void)user;
    struct rmg_map *m = small_world(ctx);
    if (!m)
        return RMG_ERR_NOMEM;
    rmg_balance *b = NULL;
    rmg_status st = rmg_map_balance(m, NULL, &b);
    char *text = NULL;
    if (st == RMG_OK)
        st = rmg_balance_to_json(b, &text, NULL);
    rmg_free(ctx, text);
    rmg_balance_destroy(b);
    rmg__map_free(m);
    return st;
}

static void test_allocation_failures(void **state)
{
    (void)state;
    size_t n = rmg_test_oom_sweep(balance_op, NULL, 0, 1);
    assert_true(n > 0);
}

/* ---- fairness-aware generation -------------------------------------------------------------- */

static void test_best_of_is_deterministic_and_the_fairest(void **state)
{
    (void)state;
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 36;
    rmg_best_of_options bo;
    rmg_best_of_options_init(&bo);
    assert_int_equal(bo.candidates, 8);
    bo.candidates = 4;
    uint64_t fingerprint[2];
    rmg_best_of_info info[2];
    for (int threads = 1; threads <= 2; threads++) {
        rmg_context *ctx = rmg_test_context(NULL, 21);
        rmg_pack *pack = NULL; /* one pack the worker threads share */
        assert_int_equal(rmg_pack_builtin(ctx, &pack), RMG_OK);
        bo.threads = threads;
        rmg_map *m = NULL;
        info[threads - 1].struct_size = sizeof info[0];
        assert_int_equal(rmg_generate_best_of(ctx, pack, &go, &bo, &m, &info[threads - 1]), RMG_OK);
        rmg_pack_destroy(pack);
        fingerprint[threads - 1] = rmg_map_fingerprint(m);
        assert_int_equal(rmg_map_seed(m), info[threads - 1].seed);
        assert_int_equal(rmg_context_seed(ctx), 21); /* the caller's seed is left as it was */
        rmg_map_destroy(m);
        rmg_context_destroy(ctx);
    }
    assert_true(fingerprint[0] == fingerprint[1]);
    assert_int_equal(info[0].candidate, info[1].candidate);
    assert_int_equal(info[0].candidates, 4);
    assert_int_equal(info[0].failed, 0);
    /* The winner is the best of the candidates generated one by one from their seeds. */
    double best = -1;
    int best_index = -1;
    for (int i = 0; i < 4; i++) {
        rmg_context *ctx = rmg_test_context(NULL, rmg_rng_derive(21, "best-of", (uint64_t)i));
        rmg_map *m = NULL;
        assert_int_equal(rmg_generate(ctx, NULL, &go, &m), RMG_OK);
        rmg_balance *b = report(m);
        if (rmg_balance_score(b) > best) {
            best = rmg_balance_score(b);
            best_index = i;
        }
        if (i == info[0].candidate)
            assert_true(rmg_map_fingerprint(m) == fingerprint[0]);
        rmg_balance_destroy(b);
        rmg_map_destroy(m);
        rmg_context_destroy(ctx);
    }
    assert_int_equal(best_index, info[0].candidate);
    assert_true(best == info[0].score);
    /* Bad options. */
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *m = NULL;
    bo.candidates = 0;
    assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &m, NULL), RMG_ERR_INVALID_ARG);
    assert_null(m);
    rmg_context_destroy(ctx);
}

static void test_best_of_fails_only_when_every_candidate_fails(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 3);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 36;
    go.players = 8; /* the built-in pack has no template for eight players at S */
    rmg_best_of_options bo;
    rmg_best_of_options_init(&bo);
    bo.candidates = 3;
    bo.threads = 2;
    rmg_map *m = NULL;
    rmg_status want = rmg_generate(ctx, NULL, &go, &m);
    assert_int_not_equal(want, RMG_OK);
    char message[512];
    snprintf(message, sizeof message, "%s", rmg_context_errmsg(ctx));
    assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &m, NULL), want);
    assert_null(m);
    assert_string_equal(rmg_context_errmsg(ctx), message);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_and_diagonal_steps_on_grass),
        cmocka_unit_test(test_terrain_of_the_tile_left_sets_the_cost),
        cmocka_unit_test(test_roads_and_the_cheapest_route),
        cmocka_unit_test(test_teleports_two_way_and_one_way),
        cmocka_unit_test(test_a_boat_from_a_shipyard),
        cmocka_unit_test(test_guards_on_the_path_and_the_weakest_exit),
        cmocka_unit_test(test_value_by_day_by_kind_and_the_nearest_mines),
        cmocka_unit_test(test_a_map_copied_to_two_levels_measures_the_same),
        cmocka_unit_test(test_a_symmetric_template_within_the_tolerance),
        cmocka_unit_test(test_a_map_read_back_gives_the_same_report),
        cmocka_unit_test(test_api_arguments),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_best_of_is_deterministic_and_the_fairest),
        cmocka_unit_test(test_best_of_fails_only_when_every_candidate_fails),
    };
    /* RMG_TEST_FILTER=PATTERN runs only matching tests (the ThreadSanitizer run uses it). */
    const char *filter = getenv("RMG_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
