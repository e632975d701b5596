/*
 * The bucket queue of lib/grid (grid.c) and the weighted search built on it: entries
 * must come out exactly as from a heap of (level, tile) keys, and the search must take tiles in
 * (distance, tile) order with the same predecessors as a plain Dijkstra that scans for the
 * smallest (distance, tile) every step. The obstacle and road code rely on that order for
 * byte-identical maps (CON-17, ZON-06 roads; obstacle joining).
 */
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "grid/grid.h"

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Sizes on both sides of the insertion-sort limit, values of one to four bytes. */
static void test_sort_desc_matches_qsort(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    const size_t sizes[] = {0, 1, 2, 47, 48, 49, 50, 300, 5000};
    const uint32_t ranges[] = {200, 70000, 1u << 22, UINT32_MAX};
    uint32_t *a = malloc(5000 * sizeof *a), *ref = malloc(5000 * sizeof *ref), *scratch = malloc(5000 * sizeof *a);
    assert_non_null(a);
    assert_non_null(ref);
    assert_non_null(scratch);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
            for (size_t i = 0; i < sizes[s]; i++)
                a[i] = ref[i] = (uint32_t)(next_random(&x) % ranges[r]);
            rmg__grid_sort_desc(a, sizes[s], scratch);
            qsort(ref, sizes[s], sizeof *ref, cmp_desc);
            assert_memory_equal(a, ref, sizes[s] * sizeof *a);
        }
    free(a);
    free(ref);
    free(scratch);
}

/* The outstanding (level, tile) keys of the reference: the smallest is what pop must give. */
typedef struct ref_keys {
    uint64_t *keys;
    size_t n;
} ref_keys;

static uint64_t ref_take_min(ref_keys *r)
{
    size_t best = 0;
    for (size_t i = 1; i < r->n; i++)
        if (r->keys[i] < r->keys[best])
            best = i;
    uint64_t k = r->keys[best];
    r->keys[best] = r->keys[--r->n];
    return k;
}

static bool ref_has(const ref_keys *r, uint64_t key)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->keys[i] == key)
            return true;
    return false;
}

/* Random pushes and pops. Linear queues get levels below the lowest queued one too (as the
 * obstacle search pushes distance 0 when a part joins); rings only within their span. */
static void run_queue(rmg_context *ctx, rmg__grid_levels *q, bool ring, uint64_t seed)
{
    uint64_t x = seed;
    ref_keys r = {malloc(4000 * sizeof *r.keys), 0};
    uint32_t *scratch = malloc(4000 * sizeof *scratch);
    assert_non_null(r.keys);
    assert_non_null(scratch);
    size_t floor_level = 0; /* the last level popped (rings push within 31 above it) */
    for (int step = 0; step < 3000; step++) {
        if (next_random(&x) % 3 != 0 && r.n < 4000) {
            size_t level = ring ? floor_level + next_random(&x) % 31 : next_random(&x) % 40;
            uint32_t t = (uint32_t)(next_random(&x) % 300);
            uint64_t key = (uint64_t)level << 32 | t;
            if (ref_has(&r, key))
                continue; /* the searches never queue one key twice */
            assert_true(rmg__grid_levels_push(ctx, q, level, t));
            r.keys[r.n++] = key;
            continue;
        }
        size_t level;
        uint32_t t;
        bool got = rmg__grid_levels_pop(q, scratch, &level, &t);
        assert_int_equal(got, r.n > 0);
        if (!got)
            continue;
        uint64_t want = ref_take_min(&r);
        assert_int_equal(level, want >> 32);
        assert_int_equal(t, (uint32_t)want);
        floor_level = level;
    }
    rmg__grid_levels_clear(q);
    size_t level;
    uint32_t t;
    assert_false(rmg__grid_levels_pop(q, scratch, &level, &t));
    free(r.keys);
    free(scratch);
}

static void test_levels_pop_in_key_order(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        rmg__grid_levels linear, ring;
        memset(&linear, 0, sizeof linear);
        memset(&ring, 0, sizeof ring);
        /* Twice per queue: the first run ends with entries left and a clear (as a search that
         * stops at its goal), the second must not see anything of them. */
        run_queue(ctx, &linear, false, seed * 0x9E3779B97F4A7C15ull);
        run_queue(ctx, &linear, false, seed * 0xD6E8FEB86659FD93ull);
        assert_true(rmg__grid_levels_ring(ctx, &ring, 5));
        run_queue(ctx, &ring, true, seed * 0xC2B2AE3D27D4EB4Full);
        run_queue(ctx, &ring, true, seed * 0x94D049BB133111EBull);
        rmg__grid_levels_free(ctx, &linear);
        rmg__grid_levels_free(ctx, &ring);
    }
    rmg_context_destroy(ctx);
}

/* ---- the weighted search against a plain Dijkstra ------------------------------------------ */

typedef struct grid {
    const uint8_t *cost; /* per tile, 0 = impassable */
    uint32_t goal;
} grid;

static uint32_t grid_cost(const rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    return ((const grid *)user)->cost[t];
}

static bool grid_goal(const rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    return t == ((const grid *)user)->goal;
}

/* Scans every step for the smallest (distance, tile) not taken; relaxes on a strictly smaller
 * distance only. Fills dist / prev (prev: tile + 1, 0 for the source); returns goal + 1 or 0. */
static uint32_t plain_dijkstra(int w, int h, const uint8_t *cost, uint32_t src, uint32_t goal, uint32_t *dist,
                               uint32_t *prev)
{
    uint32_t n = (uint32_t)(w * h);
    bool *taken = calloc(n, sizeof *taken);
    assert_non_null(taken);
    for (uint32_t t = 0; t < n; t++)
        dist[t] = UINT32_MAX;
    dist[src] = 0;
    prev[src] = 0;
    uint32_t found = 0;
    for (;;) {
        uint32_t t = UINT32_MAX;
        for (uint32_t u = 0; u < n; u++)
            if (!taken[u] && dist[u] != UINT32_MAX && (t == UINT32_MAX || dist[u] < dist[t]))
                t = u;
        if (t == UINT32_MAX)
            break;
        taken[t] = true;
        if (t == goal) {
            found = t + 1;
            break;
        }
        int x = (int)(t % (uint32_t)w), y = (int)(t / (uint32_t)w);
        for (int d = 0; d < 8; d++) {
            int nx = x + rmg__grid_dx(d), ny = y + rmg__grid_dy(d);
            if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            uint32_t u = (uint32_t)(ny * w + nx);
            if (taken[u] || !cost[u])
                continue;
            uint32_t du = dist[t] + cost[u] * (d < 4 ? 2u : 5u);
            if (du < dist[u]) {
                dist[u] = du;
                prev[u] = t + 1;
            }
        }
    }
    free(taken);
    return found;
}

static void test_weighted_search_matches_plain_dijkstra(void **state)
{
    (void)state;
    const int w = 23, h = 17;
    const uint32_t n = (uint32_t)(w * h);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__grid b;
    memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.w = w;
    b.h = h;
    b.levels = 1;
    b.n = n;
    b.queue = rmg__malloc(ctx, n * sizeof *b.queue);
    b.prev = rmg__malloc(ctx, n * sizeof *b.prev);
    b.seen = rmg__calloc(ctx, n, sizeof *b.seen);
    b.dist = rmg__malloc(ctx, n * sizeof *b.dist);
    b.mark = rmg__calloc(ctx, n, 1);
    uint8_t *cost = malloc(n);
    uint32_t *dist = malloc(n * sizeof *dist), *prev = malloc(n * sizeof *prev);
    assert_true(b.queue && b.prev && b.seen && b.dist && b.mark && cost && dist && prev);
    uint64_t x = 0x853C49E6748FEA9Bull;
    for (int run = 0; run < 60; run++) {
        /* Costs as the roads use them (1, 2, 4, 6), many ties, some walls. */
        static const uint8_t costs[] = {0, 1, 2, 2, 4, 4, 6, 1};
        for (uint32_t t = 0; t < n; t++)
            cost[t] = costs[next_random(&x) % (run % 2 ? 8 : 4)];
        uint32_t src = (uint32_t)(next_random(&x) % n);
        grid g = {cost, (uint32_t)(next_random(&x) % n)};
        cost[g.goal] = cost[g.goal] ? cost[g.goal] : 1;
        uint32_t want = plain_dijkstra(w, h, cost, src, g.goal, dist, prev);
        uint32_t got = rmg__grid_dijkstra(&b, &src, 1, grid_cost, grid_goal, &g);
        assert_false(b.nomem);
        assert_int_equal(got, want);
        if (!want)
            continue;
        /* The same path, tile by tile, at the same distances. */
        for (uint32_t t = want - 1;; t = prev[t] - 1) {
            assert_int_equal(b.dist[t], dist[t]);
            assert_int_equal(b.prev[t], prev[t]);
            if (!prev[t])
                break;
        }
    }
    free(cost);
    free(dist);
    free(prev);
    rmg__grid_free(&b);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_desc_matches_qsort),
        cmocka_unit_test(test_levels_pop_in_key_order),
        cmocka_unit_test(test_weighted_search_matches_plain_dijkstra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
