/*
 * Searches over the movement graph: Dijkstra with a circular bucket queue (integer costs, every
 * move shorter than the queue) by movement points or by steps, and the flood that finds the
 * weakest guard between a town and the rest of the map.
 */
#include <string.h>

#include "balance_internal.h"

rmg_status rmg__balance_search_init(rmg__balance_search *s, const rmg__balance_graph *g, rmg_context *ctx,
                                    uint32_t day_points)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->n_nodes = g->n_nodes;
    s->day_points = day_points;
    /* A move costs at most a diagonal swamp step (247) and the rest of a day (boats). */
    size_t longest = (size_t)day_points + 512;
    s->n_buckets = 1;
    while (s->n_buckets <= longest)
        s->n_buckets <<= 1;
    s->dist = rmg__malloc(ctx, s->n_nodes * sizeof *s->dist);
    s->guarded = rmg__malloc(ctx, s->n_nodes * sizeof *s->guarded);
    s->pred = rmg__malloc(ctx, s->n_nodes * sizeof *s->pred);
    s->done = rmg__malloc(ctx, s->n_nodes);
    s->tried = rmg__malloc(ctx, s->n_nodes);
    s->cover = rmg__malloc(ctx, g->n_tiles);
    s->heap = rmg__malloc(ctx, (g->n_guards + 1) * sizeof *s->heap);
    s->touched = rmg__malloc(ctx, g->n_guards + 1);
    s->moves = rmg__malloc(ctx, (8 + g->max_dests) * sizeof *s->moves);
    s->deque = rmg__malloc(ctx, (2 * s->n_nodes + 2) * sizeof *s->deque);
    s->buckets = rmg__calloc(ctx, s->n_buckets, sizeof *s->buckets);
    if (!s->dist || !s->guarded || !s->pred || !s->done || !s->tried || !s->cover || !s->heap || !s->touched ||
        !s->moves || !s->deque || !s->buckets) {
        rmg__balance_search_free(s);
        return rmg__error_nomem(ctx);
    }
    return RMG_OK;
}

void rmg__balance_search_free(rmg__balance_search *s)
{
    rmg_context *ctx = s->ctx;
    for (size_t i = 0; s->buckets && i < s->n_buckets; i++)
        RMG__VEC_FREE(ctx, &s->buckets[i].items);
    void *blocks[] = {s->dist, s->guarded, s->pred, s->done, s->tried, s->cover, s->heap, s->touched, s->moves,
                      s->deque,   s->buckets};
    for (size_t i = 0; i < RMG__ARRAY_LEN(blocks); i++)
        rmg__free(ctx, blocks[i]);
    memset(s, 0, sizeof *s);
}

static bool push(rmg__balance_search *s, uint32_t key, uint32_t node)
{
    rmg__balance_bucket *b = &s->buckets[key & (s->n_buckets - 1)];
    if (b->items.count < b->items.cap) { /* the common case, without a call */
        b->items.items[b->items.count++] = node;
        return true;
    }
    return RMG__VEC_PUSH(s->ctx, &b->items, node);
}

/* A day's points after `end`: boarding or leaving a boat takes the rest of the hero's day. */
static uint32_t end_of_day(uint32_t end, uint32_t day)
{
    return (end + day - 1) / day * day;
}

static bool is_target(uint32_t node, const uint32_t *targets, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (targets[i] == node)
            return true;
    return false;
}

/* Offers node v the cost nd and guard count ng by way of u. False when memory ran out. */
static inline bool offer(rmg__balance_search *s, uint32_t u, uint32_t v, uint32_t nd, uint32_t ng, size_t *queued)
{
    if (nd < s->dist[v]) {
        s->dist[v] = nd;
        s->guarded[v] = ng;
        s->pred[v] = u;
        ++*queued;
        return push(s, nd, v);
    }
    if (nd == s->dist[v] && ng < s->guarded[v]) {
        /* As cheap, past fewer guards: the node already waits in this bucket (only a jump
         * reaches a node at its own cost, and every node a jump leaves is queued before). */
        s->guarded[v] = ng;
        s->pred[v] = u;
    }
    return true;
}

/* Relaxes the jumps out of portal node u (settled at cost d): no step, no points. */
static bool relax_jumps(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t u, uint32_t d, size_t *queued)
{
    size_t n = rmg__balance_moves(g, u, s->moves);
    for (size_t i = 0; i < n; i++)
        if (!offer(s, u, s->moves[i].to, d, s->guarded[u] + s->moves[i].guarded, queued))
            return false;
    return true;
}

/* Relaxes the steps out of node u (settled at cost d) to its neighbours: the hot loop, so the
 * step costs of the tile are worked out once (rmg__balance_step_dir gives the same values). */
static bool relax_steps(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t u, uint32_t d, size_t *queued)
{
    uint32_t t = rmg__balance_node_tile(g, u);
    const uint8_t *road = g->map->road;
    uint8_t r = road[t] < 4 ? road[t] : 0;
    uint16_t straight = g->cost[t], diagonal = rmg__balance_diagonal(straight);
    uint16_t road_straight = g->road_cost[r], road_diagonal = rmg__balance_diagonal(road_straight);
    uint32_t gu = s->guarded[u];
    unsigned mask = g->dirs[t];
    for (unsigned k = rmg__balance_next_dir(mask, 0); k < 8; k = rmg__balance_next_dir(mask, k + 1)) {
        uint32_t v = (uint32_t)((int64_t)t + g->offset[k]);
        bool on_road = r && road[v];
        uint32_t nd = d + (k >= 4 ? (on_road ? road_diagonal : diagonal) : (on_road ? road_straight : straight));
        if (!(mask >> k & 1u))
            nd = end_of_day(nd, s->day_points);
        if (!offer(s, u, v, nd, gu + ((g->kind[v] & RMG__BAL_GUARDED) != 0), queued))
            return false;
    }
    return true;
}

/* Dijkstra by movement points over the bucket queue, as far as rmg__balance_search_run says. */
static rmg_status search_points(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source,
                                const uint32_t *targets, size_t n_targets, uint32_t horizon)
{
    memset(s->guarded, 0, s->n_nodes * sizeof *s->guarded);
    memset(s->pred, 0xFF, s->n_nodes * sizeof *s->pred);
    for (size_t i = 0; i < s->n_buckets; i++)
        s->buckets[i].items.count = s->buckets[i].head = 0;
    s->dist[source] = 0;
    if (!push(s, 0, source))
        return rmg__error_nomem(s->ctx);
    size_t queued = 1, found = 0;
    uint8_t mines = g->mines_present; /* resources whose nearest mine is not known yet */
    uint32_t until = horizon;
    s->settled_below = UINT32_MAX;
    for (uint32_t cur = 0; queued;) {
        rmg__balance_bucket *b = &s->buckets[cur & (s->n_buckets - 1)];
        if (b->head == b->items.count) {
            b->head = b->items.count = 0;
            cur++;
            continue;
        }
        if (cur > until && found == n_targets && !mines) {
            s->settled_below = cur;
            break;
        }
        uint32_t u = b->items.items[b->head++];
        queued--;
        /* A node is queued again only with a smaller cost: an entry of another cost is stale. */
        if (s->dist[u] != cur)
            continue;
        /* A mine's entry settled: no mine of its resource is nearer. */
        mines &= (uint8_t)~g->mine_near[rmg__balance_node_tile(g, u)];
        if (n_targets && is_target(u, targets, n_targets))
            found++;
        bool ok = u < g->n_tiles && (g->kind[u] & RMG__BAL_PORTAL) ? relax_jumps(s, g, u, cur, &queued)
                                                                   : relax_steps(s, g, u, cur, &queued);
        if (!ok)
            return rmg__error_nomem(s->ctx);
    }
    return RMG_OK;
}

/* Breadth first by steps: a deque in which jumps (no step) go to the front. Every node enters it
 * at most twice (once by a step, once by a jump), so it never holds more than 2 * nodes. */
static void search_steps(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source, const uint32_t *targets,
                         size_t n_targets)
{
    size_t cap = 2 * s->n_nodes + 2, head = s->n_nodes + 1, tail = head, found = 0;
    uint32_t *q = s->deque;
    s->dist[source] = 0;
    q[tail++] = source;
    while (head != tail) {
        uint32_t u = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        uint32_t d = s->dist[u];
        if (n_targets && is_target(u, targets, n_targets) && ++found == n_targets)
            return;
        size_t n = rmg__balance_moves(g, u, s->moves);
        for (size_t i = 0; i < n; i++) {
            uint32_t v = s->moves[i].to, nd = s->moves[i].how == RMG__BAL_JUMP ? d : d + 1;
            if (nd >= s->dist[v])
                continue;
            s->dist[v] = nd;
            if (nd == d) {
                head = head ? head - 1 : cap - 1;
                q[head] = v;
            } else {
                q[tail] = v;
                tail = tail + 1 == cap ? 0 : tail + 1;
            }
        }
    }
}

rmg_status rmg__balance_search_run(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source,
                                   rmg__balance_metric metric, const uint32_t *targets, size_t n_targets,
                                   uint32_t horizon)
{
    memset(s->dist, 0xFF, s->n_nodes * sizeof *s->dist);
    if (metric == RMG__BAL_BY_POINTS)
        return search_points(s, g, source, targets, n_targets, horizon);
    search_steps(s, g, source, targets, n_targets);
    return RMG_OK;
}

/* ---- the weakest exit guard -------------------------------------------------------------------- */

/* A min-heap of guard indexes by value (then index, so the order is the same on every machine). */
static bool guard_less(const rmg__balance_graph *g, uint32_t a, uint32_t b)
{
    return g->guard_value[a] < g->guard_value[b] || (g->guard_value[a] == g->guard_value[b] && a < b);
}

static void heap_push(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t guard)
{
    size_t i = s->heap_len++;
    s->heap[i] = guard;
    while (i && guard_less(g, s->heap[i], s->heap[(i - 1) / 2])) {
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[(i - 1) / 2];
        s->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static uint32_t heap_pop(rmg__balance_search *s, const rmg__balance_graph *g)
{
    uint32_t top = s->heap[0];
    s->heap[0] = s->heap[--s->heap_len];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heap_len && guard_less(g, s->heap[l], s->heap[m]))
            m = l;
        if (r < s->heap_len && guard_less(g, s->heap[r], s->heap[m]))
            m = r;
        if (m == i)
            break;
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
    return top;
}

/* The flood's queue is bucket 0, read from its head. */
static bool enter(rmg__balance_search *s, uint32_t node)
{
    s->done[node] = 1;
    return push(s, 0, node);
}

/* Node v is covered by guards still standing: remember that it was tried, and queue those guards. */
static void touch_guards(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t v, uint32_t tile)
{
    s->tried[v] = 1;
    for (uint32_t i = g->zoc_start[tile]; i < g->zoc_start[tile + 1]; i++) {
        uint32_t k = g->zoc_guard[i];
        if (!s->touched[k]) {
            s->touched[k] = 1;
            heap_push(s, g, k);
        }
    }
}

/* Guard k is beaten: the tiles it alone covered open, and those the flood tried are entered. */
static bool beat_guard(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t k)
{
    uint32_t tiles[9];
    for (size_t j = 0, n = rmg__balance_zoc_tiles(g, k, tiles); j < n; j++) {
        uint32_t t = tiles[j];
        if (s->cover[t] && --s->cover[t])
            continue;
        uint32_t nodes[2] = {t, g->portal_of[t] ? (uint32_t)g->n_tiles + g->portal_of[t] - 1 : t};
        for (int i = 0; i < 2; i++)
            if (s->tried[nodes[i]] && !s->done[nodes[i]] && !enter(s, nodes[i]))
                return false;
    }
    return true;
}

static void reset_flood(rmg__balance_search *s, const rmg__balance_graph *g)
{
    memset(s->done, 0, s->n_nodes);
    memset(s->tried, 0, s->n_nodes);
    memset(s->touched, 0, g->n_guards + 1);
    for (size_t t = 0; t < g->n_tiles; t++) {
        uint32_t c = g->zoc_start[t + 1] - g->zoc_start[t];
        s->cover[t] = (uint8_t)(c > 255 ? 255 : c);
    }
    s->heap_len = 0;
    s->buckets[0].items.count = s->buckets[0].head = 0;
}

rmg_status rmg__balance_exit_guard(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source,
                                   bool (*goal)(const void *user, uint32_t tile), const void *user,
                                   int64_t *out)
{
    reset_flood(s, g);
    rmg__balance_bucket *q = &s->buckets[0];
    int64_t needed = 0;
    if (!enter(s, source))
        return rmg__error_nomem(s->ctx);
    for (;;) {
        while (q->head < q->items.count) {
            uint32_t u = q->items.items[q->head++];
            if (goal(user, rmg__balance_node_tile(g, u))) {
                *out = needed;
                return RMG_OK;
            }
            size_t n = rmg__balance_moves(g, u, s->moves);
            for (size_t i = 0; i < n; i++) {
                uint32_t v = s->moves[i].to, tv = rmg__balance_node_tile(g, v);
                if (s->done[v])
                    continue;
                if (s->cover[tv])
                    touch_guards(s, g, v, tv);
                else if (!enter(s, v))
                    return rmg__error_nomem(s->ctx);
            }
        }
        if (!s->heap_len) {
            *out = -1;
            return RMG_OK;
        }
        /* Stuck: beat the weakest guard the flood has met. */
        uint32_t k = heap_pop(s, g);
        if (g->guard_value[k] > needed)
            needed = g->guard_value[k];
        if (!beat_guard(s, g, k))
            return rmg__error_nomem(s->ctx);
    }
}
