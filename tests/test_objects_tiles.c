/* Placement on tiles (lib/objects/tiles.c): the incremental open-land sets, the spread of free
 * paths, nearest-candidate searches and the sealing of guarded clusters (TRS-02, TRS-08, issue 8
 * "Placement on tiles"), on a hand-built one-zone map. */
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "objects/objects_internal.h"

#define W 40
#define H 32

typedef struct world {
    rmg_context *ctx;
    struct rmg_map *m;
    rmg__placer pl;
} world;

/* Zone 1 fills the map inside a blocked border; a FREE spine runs along row 16 (spine) or the
 * zone is a 13x11 room whose FREE network is its centre tile only (a small zone without
 * passages, reached through a gate: every tile lies within RMG__SPREAD_REACH of the centre). */
static void make_world_with(world *w, bool spine)
{
    memset(w, 0, sizeof *w);
    w->ctx = rmg_test_context(NULL, 7);
    assert_int_equal(rmg__map_new(w->ctx, W, H, 1, &w->m), RMG_OK);
    rmg__map_zone z;
    memset(&z, 0, sizeof z);
    z.id = 1;
    z.cx = W / 2;
    z.cy = H / 2;
    assert_true(RMG__VEC_PUSH(w->ctx, &w->m->zones, z));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t t = rmg__tile(W, H, x, y, 0);
            w->m->tile_zone[t] = 1;
            bool inside = spine ? x > 0 && y > 0 && x < W - 1 && y < H - 1
                                : abs(x - W / 2) <= 6 && abs(y - H / 2) <= 5;
            if (!inside)
                w->m->flags[t] |= RMG__T_BORDER | RMG__T_BLOCKED;
            else if (y == H / 2 && (spine || x == W / 2))
                w->m->flags[t] |= RMG__T_FREE;
        }
    assert_int_equal(rmg__pl_init(&w->pl, w->ctx, w->m), RMG_OK);
}

static void make_world(world *w)
{
    make_world_with(w, true);
}

static void free_world(world *w)
{
    rmg__pl_free(&w->pl);
    rmg__map_free(w->m);
    rmg_context_destroy(w->ctx);
}

#define OPEN_FLAGS                                                                                          \
    (RMG__T_BLOCKED | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_FREE | RMG__T_BORDER | RMG__T_PASSAGE |            \
     RMG__T_GUARD | RMG__T_WATER | RMG__T_ROCK | RMG__T_USED)

typedef bool (*tile_test)(const world *w, size_t t, const void *arg);

/* 8-neighbour flood from queue[0..tail) (their label set, non-zero) over the tiles passing
 * `pass` whose label is 0: label[next] = label[from] + step. Returns the tiles queued. */
static size_t flood8(const world *w, uint32_t *queue, size_t tail, uint32_t *label, uint32_t step, tile_test pass,
                     const void *arg)
{
    for (size_t head = 0; head < tail; head++) {
        size_t t = queue[head];
        int x = (int)(t % W), y = (int)(t / W);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (x + dx < 0 || y + dy < 0 || x + dx >= W || y + dy >= H)
                    continue;
                size_t nt = rmg__tile(W, H, x + dx, y + dy, 0);
                if (label[nt] || !pass(w, nt, arg))
                    continue;
                label[nt] = label[t] + step;
                queue[tail++] = (uint32_t)nt;
            }
    }
    return tail;
}

/* The open set of zone 1 holds exactly the open tiles, and pos[] indexes it. */
static void check_open_set(const world *w)
{
    const rmg__placer *p = &w->pl;
    uint32_t first = p->zone_start[1], n = p->open_n[1], expect = 0;
    for (size_t t = 0; t < w->m->n_tiles; t++) {
        bool open = w->m->tile_zone[t] == 1 && !(w->m->flags[t] & OPEN_FLAGS);
        expect += open;
        assert_int_equal(p->zone_tiles[p->pos[t]], t);
        assert_int_equal(open, p->pos[t] >= first && p->pos[t] < first + n);
    }
    assert_int_equal(n, expect);
}

static const rmg__pl_item one_tile = {"resource_gold", RMG_OBJECT_RESOURCE, 0, 0, true};
/* 2x2 blocked with its entry at the bottom right (anchor bit 47 is the bottom-right tile). */
static const rmg__pl_item two_by_two = {"creature_dwelling", RMG_OBJECT_TREASURE,
                                        ((uint64_t)3 << 38) | ((uint64_t)3 << 46), (uint64_t)1 << 47, false};

/* The open set follows stamps, carved paths, seals and rollbacks exactly. */
static void test_open_set_follows_changes(void **state)
{
    (void)state;
    world w;
    make_world(&w);
    check_open_set(&w);
    rmg_rng rng;
    rmg_rng_seed(&rng, 3);
    rmg__pl_item group[3] = {two_by_two, one_tile, one_tile};
    int placed = 0;
    for (int i = 0; i < 12; i++) {
        rmg__pl_mark mk = rmg__pl_save(&w.pl);
        rmg__pl_request req = {1, group, 3, true, i % 3 == 0, false, 0, 0, 0, 0, 0, false};
        rmg__pl_result res;
        assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
        placed += res.placed;
        check_open_set(&w);
        if (i % 2) {
            rmg__pl_rollback(&w.pl, mk);
            check_open_set(&w);
        } else {
            rmg__pl_commit(&w.pl);
        }
    }
    assert_true(placed >= 6);
    assert_int_equal(rmg__pl_spread(&w.pl, 1, 3), RMG_OK);
    check_open_set(&w);
    free_world(&w);
}

static bool open_tile(const world *w, size_t t, const void *arg)
{
    (void)arg;
    return !(w->m->flags[t] & OPEN_FLAGS);
}

/* After rmg__pl_spread(reach), every open tile connected to the FREE network is within reach
 * steps of it (8 neighbours, over open land). */
static void test_spread_reach(void **state)
{
    (void)state;
    world w;
    make_world(&w);
    const int reach = 4;
    assert_int_equal(rmg__pl_spread(&w.pl, 1, reach), RMG_OK);
    check_open_set(&w);
    uint32_t *dist = calloc(w.m->n_tiles, sizeof *dist); /* steps + 1, 0 unreached */
    uint32_t *queue = malloc(w.m->n_tiles * sizeof *queue);
    size_t tail = 0;
    for (size_t t = 0; t < w.m->n_tiles; t++)
        if ((w.m->flags[t] & RMG__T_FREE) && !(w.m->flags[t] & RMG__T_BLOCKED)) {
            dist[t] = 1;
            queue[tail++] = (uint32_t)t;
        }
    flood8(&w, queue, tail, dist, 1, open_tile, NULL);
    size_t far = 0;
    for (size_t t = 0; t < w.m->n_tiles; t++)
        far += dist[t] > (uint32_t)reach + 1;
    assert_int_equal(far, 0);
    /* Paths were carved: rows 1..15 lie up to 15 steps from the spine. */
    size_t free_tiles = 0;
    for (size_t t = 0; t < w.m->n_tiles; t++)
        free_tiles += (w.m->flags[t] & RMG__T_FREE) != 0;
    assert_true(free_tiles > W - 2);
    free(dist);
    free(queue);
    free_world(&w);
}

/* Nearest-first requests take the open tile closest to the point (ties: lowest tile index),
 * and none farther than max_dist2. */
static void test_near_requests(void **state)
{
    (void)state;
    world w;
    make_world(&w);
    rmg_rng rng;
    rmg_rng_seed(&rng, 5);
    rmg__pl_request req = {1, &one_tile, 1, false, false, true, 10, 10, 0, 0, 4, false};
    rmg__pl_result res;
    assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
    assert_true(res.placed);
    const rmg__map_object *o = &w.m->objects.items[res.first_object - 1];
    assert_int_equal(o->x, 10);
    assert_int_equal(o->y, 10);
    /* (10,10) is taken and its path to the spine runs downwards: the next is (10,9), the lowest
     * tile index at squared distance 1. */
    assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
    o = &w.m->objects.items[res.first_object - 1];
    assert_int_equal(o->x, 10);
    assert_int_equal(o->y, 9);
    /* Next to the border only (30,1), (29,1), (31,1) and (30,2) lie within max_dist2 = 1. */
    rmg__pl_request edge = {1, &one_tile, 1, false, false, true, 30, 1, 0, 1, 16, false};
    int placed = 0;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(rmg__pl_place(&w.pl, &edge, &rng, &res), RMG_OK);
        if (!res.placed)
            break;
        placed++;
        o = &w.m->objects.items[res.first_object - 1];
        int64_t dx = o->x - 30, dy = o->y - 1;
        assert_true(dx * dx + dy * dy <= 1);
    }
    assert_true(placed >= 1 && placed <= 4);
    check_open_set(&w);
    free_world(&w);
}

typedef struct region_rule {
    const uint8_t *hub;
    bool filled;
} region_rule;

/* Walkable as the validator sees it: entries, and unblocked tiles but hubs (guarded); with
 * `filled`, open land counts as blocked. */
static bool region_tile(const world *w, size_t t, const void *arg)
{
    const region_rule *r = arg;
    uint16_t f = w->m->flags[t];
    bool pass = (f & RMG__T_ENTRY) || !(f & RMG__T_BLOCKED);
    return pass && !r->hub[t] && !(r->filled && !(f & OPEN_FLAGS));
}

/* Labels the 8-connected regions of passable tiles (entries passable, hubs and BLOCKED not;
 * with `filled`, open land counts as blocked, as after the finish stage's obstacles); returns
 * the label of the largest region (first in tile order on ties), as the map validator does. */
static uint32_t largest_region(const world *w, const uint8_t *hub, bool filled, uint32_t *label)
{
    const struct rmg_map *m = w->m;
    uint32_t *queue = malloc(m->n_tiles * sizeof *queue), next = 0, best = 0;
    size_t best_size = 0;
    region_rule rule = {hub, filled};
    memset(label, 0, m->n_tiles * sizeof *label);
    for (size_t s0 = 0; s0 < m->n_tiles; s0++) {
        if (label[s0] || !region_tile(w, s0, &rule))
            continue;
        label[s0] = ++next;
        queue[0] = (uint32_t)s0;
        size_t size = flood8(w, queue, 1, label, 0, region_tile, &rule);
        if (size > best_size) {
            best_size = size;
            best = next;
        }
    }
    free(queue);
    return best;
}

/* TRS-02/TRS-08 (issue 8, "a group's objects are only reachable through its guard slot"): in a
 * small zone whose free network is only its centre, the spread gives the network its minimum size,
 * and no guarded cluster's objects lie in the zone's largest region with the hubs guarded,
 * before or after the open land is filled. */
static void test_trs08_cluster_behind_guard_in_small_network(void **state)
{
    (void)state;
    world w;
    make_world_with(&w, false);
    assert_int_equal(w.pl.free_n[1], 1);
    assert_int_equal(rmg__pl_spread(&w.pl, 1, RMG__SPREAD_REACH), RMG_OK);
    assert_true(w.pl.free_n[1] >= RMG__SPREAD_MIN_FREE);
    rmg__pl_commit(&w.pl);
    rmg_rng rng;
    rmg_rng_seed(&rng, 11);
    uint8_t *hub = calloc(w.m->n_tiles, 1);
    uint32_t *label = malloc(w.m->n_tiles * sizeof *label);
    rmg__pl_item group[6] = {two_by_two, one_tile, one_tile, one_tile, one_tile, one_tile};
    int placed = 0;
    for (int i = 0; i < 40; i++) {
        rmg__pl_request req = {1, group, (size_t)(1 + i % 6), true, false, false, 0, 0, 0, 0, 0, false};
        rmg__pl_result res;
        assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
        rmg__pl_commit(&w.pl);
        if (!res.placed)
            continue;
        placed++;
        hub[res.hub - 1] = 1;
        assert_true(w.pl.n_cluster - 1 < w.pl.free_n[1]);
    }
    assert_true(placed >= 5);
    for (int filled = 0; filled < 2; filled++) {
        uint32_t main_region = largest_region(&w, hub, filled, label);
        for (size_t i = 0; i < w.m->objects.count; i++) {
            const rmg__map_object *o = &w.m->objects.items[i];
            int b = 47;
            while (b > 0 && !(o->visit & ((uint64_t)1 << b)))
                b--;
            size_t e = rmg__tile(W, H, o->x - (7 - b % 8), o->y - (5 - b / 8), 0);
            if (label[e] == main_region)
                fail_msg("object %u at %d,%d is in the zone's largest region (filled %d)", o->id, o->x, o->y, filled);
        }
    }
    free(hub);
    free(label);
    free_world(&w);
}

/* Places clusters of `n_items` objects until 8 attempts in a row find no room; returns how many
 * were placed. */
static int fill_zone(world *w, const rmg__pl_item *items, size_t n_items, uint64_t seed)
{
    rmg_rng rng;
    rmg_rng_seed(&rng, seed);
    int placed = 0, fails = 0;
    while (fails < 8) {
        rmg__pl_request req = {1, items, n_items, true, false, false, 0, 0, 0, 0, 0, false};
        rmg__pl_result res;
        assert_int_equal(rmg__pl_place(&w->pl, &req, &rng, &res), RMG_OK);
        rmg__pl_commit(&w->pl);
        placed += res.placed;
        fails = res.placed ? 0 : fails + 1;
    }
    return placed;
}

/* TRS-03 density: hubs are tried snuggest first, so clusters pack against each other and the
 * zone's edges. The 38x30 zone with a free spine takes 168 groups of a 2x2 and two 1-tile
 * objects over seeds 1..3 (58, 58, 52); hubs tried in random order took 155 (52, 52, 51). */
static void test_trs03_clusters_pack(void **state)
{
    (void)state;
    rmg__pl_item group[3] = {two_by_two, one_tile, one_tile};
    int total = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        world w;
        make_world(&w);
        assert_int_equal(rmg__pl_spread(&w.pl, 1, RMG__SPREAD_REACH), RMG_OK);
        rmg__pl_commit(&w.pl);
        total += fill_zone(&w, group, 3, seed);
        check_open_set(&w);
        free_world(&w);
    }
    assert_true(total >= 162);
}

/* The town footprint of the content (".###." / "#####" / "##V##", anchored bottom right). */
static const rmg__pl_item town = {"castle", RMG_OBJECT_TOWN,
                                  ((uint64_t)7 << 28) | ((uint64_t)31 << 35) | ((uint64_t)3 << 43) | ((uint64_t)3 << 46),
                                  (uint64_t)1 << 45, false};

static bool network_tile(const world *w, size_t t, const void *arg)
{
    (void)arg;
    uint16_t f = w->m->flags[t];
    return !(f & RMG__T_BLOCKED) && (f & (RMG__T_FREE | RMG__T_PASSAGE));
}

/* Network tiles (passable FREE or PASSAGE) reached from `from` over network tiles (seen != 0). */
static void reach_network(const world *w, size_t from, uint32_t *seen)
{
    uint32_t *queue = malloc(w->m->n_tiles * sizeof *queue);
    memset(seen, 0, w->m->n_tiles * sizeof *seen);
    seen[from] = 1;
    queue[0] = (uint32_t)from;
    flood8(w, queue, 1, seen, 0, network_tile, NULL);
    free(queue);
}

/* MIS-06 towns in small zones: a 9x9 zone crossed by free paths from its centre to four
 * passages has no open 5x3 spot; the town then goes over the paths (over_free), they are
 * re-joined around it, no footprint tile stays FREE and every path and passage is still
 * reached from the town's gate. */
static void test_mis06_town_over_free_paths(void **state)
{
    (void)state;
    world w;
    memset(&w, 0, sizeof w);
    w.ctx = rmg_test_context(NULL, 7);
    assert_int_equal(rmg__map_new(w.ctx, W, H, 1, &w.m), RMG_OK);
    rmg__map_zone z;
    memset(&z, 0, sizeof z);
    z.id = 1;
    assert_true(RMG__VEC_PUSH(w.ctx, &w.m->zones, z));
    const int cx = W / 2, cy = H / 2;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t t = rmg__tile(W, H, x, y, 0);
            int ax = abs(x - cx), ay = abs(y - cy);
            w.m->tile_zone[t] = 1;
            if (ax > 5 || ay > 5 || (ax == 5 && ay == 5))
                w.m->flags[t] = RMG__T_BORDER | RMG__T_BLOCKED;
            else if ((ax == 5 && ay == 0) || (ay == 5 && ax == 0))
                w.m->flags[t] = RMG__T_PASSAGE;
            else if (ax == 5 || ay == 5)
                w.m->flags[t] = RMG__T_BORDER | RMG__T_BLOCKED;
            else if (ax == 0 || ay == 0)
                w.m->flags[t] = RMG__T_FREE;
        }
    assert_int_equal(rmg__pl_init(&w.pl, w.ctx, w.m), RMG_OK);
    rmg_rng rng;
    rmg_rng_seed(&rng, 2);
    rmg__pl_request req = {1, &town, 1, false, false, true, cx, cy, 0, 0, 256, false};
    rmg__pl_result res;
    assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
    assert_false(res.placed);
    req.over_free = true;
    assert_int_equal(rmg__pl_place(&w.pl, &req, &rng, &res), RMG_OK);
    assert_true(res.placed);
    check_open_set(&w);
    const rmg__map_object *o = &w.m->objects.items[res.first_object - 1];
    size_t gate = rmg__tile(W, H, o->x - 2, o->y, 0), free_tiles = 0;
    for (int b = 0; b < 48; b++)
        if ((town.block | town.visit) & ((uint64_t)1 << b))
            assert_false(w.m->flags[rmg__tile(W, H, o->x - (7 - b % 8), o->y - (5 - b / 8), 0)] & RMG__T_FREE);
    uint32_t *seen = malloc(w.m->n_tiles * sizeof *seen);
    reach_network(&w, gate, seen);
    for (size_t t = 0; t < w.m->n_tiles; t++) {
        uint16_t f = w.m->flags[t];
        bool network = !(f & RMG__T_BLOCKED) && (f & (RMG__T_FREE | RMG__T_PASSAGE));
        free_tiles += network && (f & RMG__T_FREE);
        if (network && !seen[t])
            fail_msg("path tile %d,%d cut off from the town's gate", (int)(t % W), (int)(t / W));
    }
    assert_int_equal(w.pl.free_n[1], free_tiles);
    free(seen);
    free_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_set_follows_changes),
        cmocka_unit_test(test_spread_reach),
        cmocka_unit_test(test_near_requests),
        cmocka_unit_test(test_trs08_cluster_behind_guard_in_small_network),
        cmocka_unit_test(test_trs03_clusters_pack),
        cmocka_unit_test(test_mis06_town_over_free_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
