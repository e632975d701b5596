/*
 * One movement model (issue 28): the validator's flood (lib/map/map_reach.c) and the balance
 * report's graph (lib/balance/balance_graph.c) take their rules from the same module. Properties
 * on generated maps, from each player's town:
 *  - validation and the report agree on reachability: a tile the flood reaches has a finite
 *    distance in the report, and the report reaches no tile the flood does not (generated maps
 *    are validated, so keys and shipyards, which the report takes as given, change nothing);
 *  - every object the flood visits has a finite visit cost from that player;
 *  - no path of the report is shorter than a relaxed walk: 8 neighbours over every tile of a
 *    level whatever stands there, plus the report's own jumps for free. In steps, and in
 *    movement points at 50 a step (a straight step on cobblestone, the cheapest there is).
 */
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "balance/balance_internal.h"
#include "map/map_reach.h"

/* Relaxed steps from `source` to every tile (UINT32_MAX unreached): a 0-1 breadth-first search. */
static uint32_t *relaxed_walk(const rmg__balance_graph *g, uint32_t source)
{
    size_t n = g->n_tiles, cap = 2 * n + 2;
    uint32_t *dist = malloc(n * sizeof *dist), *q = malloc(cap * sizeof *q);
    assert_non_null(dist);
    assert_non_null(q);
    memset(dist, 0xFF, n * sizeof *dist);
    size_t head = n + 1, tail = head, plane = (size_t)g->w * (size_t)g->h;
    dist[source] = 0;
    q[tail++] = source;
    while (head != tail) {
        uint32_t t = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        uint32_t d = dist[t];
        if (g->portal_of[t]) { /* the report's jumps, free */
            uint32_t p = g->portal_of[t] - 1;
            for (uint32_t i = g->dest_start[p]; i < g->dest_start[p + 1]; i++) {
                uint32_t v = rmg__balance_node_tile(g, g->dest[i]);
                if (d < dist[v]) {
                    dist[v] = d;
                    head = head ? head - 1 : cap - 1;
                    q[head] = v;
                }
            }
        }
        int x = (int)(t % plane % (size_t)g->w), y = (int)(t % plane / (size_t)g->w);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if ((!dx && !dy) || x + dx < 0 || y + dy < 0 || x + dx >= g->w || y + dy >= g->h)
                    continue;
                uint32_t v = (uint32_t)((int64_t)t + dy * g->w + dx);
                if (d + 1 < dist[v]) {
                    dist[v] = d + 1;
                    q[tail] = v;
                    tail = tail + 1 == cap ? 0 : tail + 1;
                }
            }
    }
    free(q);
    return dist;
}

/* The report's distance to stand on tile t (walked onto, or arrived at through a teleport). */
static uint32_t stand_dist(const rmg__balance_graph *g, const uint32_t *dist, uint32_t t)
{
    uint32_t c = (g->kind[t] & RMG__BAL_PORTAL) ? RMG__BALANCE_FAR : dist[t];
    if (g->portal_of[t] && dist[g->n_tiles + g->portal_of[t] - 1] < c)
        c = dist[g->n_tiles + g->portal_of[t] - 1];
    return c;
}

typedef struct tally {
    size_t maps, players, tiles, objects, portals, boats;
} tally;

static void check_map(const struct rmg_map *m, rmg_context *ctx, tally *n)
{
    rmg__balance_graph g;
    assert_int_equal(rmg__balance_graph_build(&g, m, ctx), RMG_OK);
    rmg__balance_search s;
    assert_int_equal(rmg__balance_search_init(&s, &g, ctx, 1500), RMG_OK);
    uint32_t *points = malloc(g.n_nodes * sizeof *points);
    assert_non_null(points);
    n->maps++;
    n->portals += g.n_portals;
    for (size_t t = 0; t < g.n_tiles; t++)
        n->boats += (g.kind[t] & RMG__BAL_BOAT) != 0;
    for (int player = 1; player <= 8; player++) {
        uint32_t start = rmg__reach_start(m, player);
        if (start == UINT32_MAX)
            continue;
        n->players++;
        rmg__reach *r = &g.reach;
        rmg__reach_from(r, start, 0, UINT32_MAX);
        assert_int_equal(rmg__balance_search_run(&s, &g, start, RMG__BAL_BY_POINTS, NULL, 0, UINT32_MAX), RMG_OK);
        assert_true(s.settled_below == UINT32_MAX);
        memcpy(points, s.dist, g.n_nodes * sizeof *points);
        assert_int_equal(rmg__balance_search_run(&s, &g, start, RMG__BAL_BY_STEPS, NULL, 0, 0), RMG_OK);
        uint32_t *relaxed = relaxed_walk(&g, start);
        for (uint32_t t = 0; t < g.n_tiles; t++) {
            bool flood = (r->tile[t] & (RMG__REACH_FOOT | RMG__REACH_BOAT)) != 0;
            uint32_t c = stand_dist(&g, points, t), steps = stand_dist(&g, s.dist, t);
            if (g.kind[t] & RMG__BAL_PORTAL) {
                /* A teleport's entry: the flood stands on it when it arrives there (the report's
                 * arrival node, just compared), and marks the teleport reached when it steps
                 * into it too (the report's tile node). */
                if (flood != (c != RMG__BALANCE_FAR))
                    fail_msg("teleport entry %u of player %d: the flood %s on it, the report %s", t, player,
                             flood ? "stands" : "does not stand", c != RMG__BALANCE_FAR ? "does" : "does not");
                flood = r->object[m->tile_object[t] - 1] != 0;
                c = points[t] < c ? points[t] : c;
                steps = s.dist[t] < steps ? s.dist[t] : steps;
            }
            if (flood != (c != RMG__BALANCE_FAR))
                fail_msg("tile %u (%d, %d, %d) of player %d: the flood %s it, the report %s (cell %u, kind %u, object %s)", t,
                         (int)(t % ((size_t)m->width * m->height) % (size_t)m->width),
                         (int)(t % ((size_t)m->width * m->height) / (size_t)m->width),
                         (int)(t / ((size_t)m->width * m->height)), player, flood ? "reaches" : "does not reach",
                         c != RMG__BALANCE_FAR ? "does" : "does not", r->cell[t], g.kind[t],
                         m->tile_object[t] && m->objects.items[m->tile_object[t] - 1].key ? m->objects.items[m->tile_object[t] - 1].key : "-");
            assert_true((steps != RMG__BALANCE_FAR) == (c != RMG__BALANCE_FAR));
            if (c == RMG__BALANCE_FAR)
                continue;
            n->tiles++;
            assert_true(steps >= relaxed[t]);
            assert_true((uint64_t)c >= 50ull * relaxed[t]);
        }
        /* Every object the flood visits has a finite visit cost (an entry stood on or jumped from). */
        for (uint32_t o = 0; o < r->n_objects; o++) {
            if (!r->object[o] || !r->n_entries[o] || r->beh[o] == RMG__BEH_NONE)
                continue;
            uint32_t best = RMG__BALANCE_FAR;
            for (uint32_t k = 0; k < r->n_entries[o]; k++) {
                uint32_t e = r->entries[r->first_entry[o] + k];
                uint32_t c = points[e] < stand_dist(&g, points, e) ? points[e] : stand_dist(&g, points, e);
                best = c < best ? c : best;
            }
            if (best == RMG__BALANCE_FAR)
                fail_msg("object %u (%s) of player %d: visited by the flood, no cost in the report", o + 1,
                         m->objects.items[o].key ? m->objects.items[o].key : "?", player);
            n->objects++;
        }
        free(relaxed);
    }
    free(points);
    rmg__balance_search_free(&s);
    rmg__balance_graph_free(&g, ctx);
}

static void generate_and_check(rmg_context *ctx, rmg_pack *pack, int side, int levels, rmg_water_level water,
                               uint64_t seed, tally *n)
{
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = side;
    o.levels = levels;
    o.water = water;
    rmg_context_set_seed(ctx, seed);
    rmg_map *m = NULL;
    rmg_status st = rmg_generate(ctx, pack, &o, &m);
    if (st != RMG_OK) /* a size or water level the template refuses: nothing to check */
        return;
    check_map(m, ctx, n);
    rmg_map_destroy(m);
}

/* The built-in pack: land, water, islands, one and two levels. */
static void test_builtin_maps_agree(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    tally n = {0};
    const rmg_water_level waters[3] = {RMG_WATER_NONE, RMG_WATER_NORMAL, RMG_WATER_ISLANDS};
    for (int w = 0; w < 3; w++)
        for (int levels = 1; levels <= 2; levels++)
            for (uint64_t seed = 1; seed <= 2; seed++)
                generate_and_check(ctx, NULL, 72, levels, waters[w], seed, &n);
    print_message("built-in pack: %zu maps, %zu players, %zu tiles, %zu objects, %zu portals, %zu boat tiles\n",
                  n.maps, n.players, n.tiles, n.objects, n.portals, n.boats);
    assert_true(n.maps >= 10);
    assert_true(n.portals > 0); /* gates on two levels */
    assert_true(n.boats > 0);   /* shipyards on water maps */
    rmg_context_destroy(ctx);
}

/* Templates of the corpus that crashed on water (issue 28: mirror maps, seas on both levels,
 * monoliths of a colour) and Jebus Cross, at every water level. */
static void test_corpus_maps_agree(void **state)
{
    (void)state;
    static const char *const files[] = {
        "corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__mt_Jebus.h3t",
        "corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__mt_Antares.h3t",
    };
    rmg_context *ctx = rmg_test_context(NULL, 1);
    tally n = {0};
    for (size_t f = 0; f < RMG_TEST_COUNT(files); f++) {
        const char *path = rmg_test_shared_present(files[f]);
        if (!path)
            continue;
        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_load(ctx, path, RMG_FORMAT_AUTO, &pack), RMG_OK);
        for (int w = 0; w < 3; w++)
            generate_and_check(ctx, pack, 0, 0, (rmg_water_level)w, 1, &n);
        rmg_pack_destroy(pack);
    }
    print_message("corpus: %zu maps, %zu players, %zu tiles, %zu objects, %zu portals, %zu boat tiles\n", n.maps,
                  n.players, n.tiles, n.objects, n.portals, n.boats);
    assert_true(n.maps >= 3);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_builtin_maps_agree),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_maps_agree),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
