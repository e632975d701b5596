/*
 * Road choices per connection (CON-14..18).
 *
 * Parallel connections between the same two zones are merged for roads, taking the maximum
 * setting (CON-18); the first connection with that setting represents the group. Fictive and
 * water (shipyard) links never carry a road (CON-16). A mandatory link must carry a road iff
 * it lies on a simple path of mandatory links between two different zones with towns
 * (CON-15); otherwise it is treated as random. The solve stage knows the minimum towns only;
 * the finish stage decides again with the towns the map holds (rmg__solve_road_choices).
 *
 * The simple-path test: edge (u, v) lies on such a path iff, with the edge removed, there are
 * two vertex-disjoint paths from {u, v} to two different town zones (one from u, one from v).
 * That is a unit-capacity max flow of 2 with split vertices, tiny for template graphs.
 */
#include <string.h>

#include "solve/solve_internal.h"

typedef struct flow_net {
    size_t n;                 /* nodes: 2 per zone + source + sink */
    int *cap;                 /* n * n residual capacities */
    int *prev;                /* BFS parents */
    size_t *queue;
} flow_net;

static bool conn_usable(const rmg__solve_input *in, size_t i, long *a, long *b)
{
    const rmg__connection *c = &in->tpl->connections[i];
    if ((in->conn_active && !in->conn_active[i]) || c->type == RMG_CONNECTION_FICTIVE)
        return false;
    *a = rmg__template_find_zone(in->tpl, c->zone_a);
    *b = rmg__template_find_zone(in->tpl, c->zone_b);
    if (*a < 0 || *b < 0 || *a == *b)
        return false;
    return !in->zone_active || (in->zone_active[*a] && in->zone_active[*b]);
}

static rmg_road_setting conn_setting(const rmg__template *tpl, size_t i, long a, long b)
{
    if (tpl->zones[a].kind == RMG_ZONE_WATER || tpl->zones[b].kind == RMG_ZONE_WATER)
        return RMG_ROAD_SETTING_FORBIDDEN; /* CON-16 */
    rmg_road_setting s = tpl->connections[i].roads;
    return s > RMG_ROAD_SETTING_MANDATORY ? RMG_ROAD_SETTING_RANDOM : s;
}

static bool augment(flow_net *f, size_t src, size_t sink)
{
    for (size_t i = 0; i < f->n; i++)
        f->prev[i] = -1;
    size_t head = 0, tail = 0;
    f->queue[tail++] = src;
    f->prev[src] = (int)src;
    while (head < tail && f->prev[sink] < 0) {
        size_t u = f->queue[head++];
        for (size_t v = 0; v < f->n; v++) {
            if (f->prev[v] >= 0 || f->cap[u * f->n + v] <= 0)
                continue;
            f->prev[v] = (int)u;
            f->queue[tail++] = v;
        }
    }
    if (f->prev[sink] < 0)
        return false;
    for (size_t v = sink; v != src; v = (size_t)f->prev[v]) {
        size_t u = (size_t)f->prev[v];
        f->cap[u * f->n + v]--;
        f->cap[v * f->n + u]++;
    }
    return true;
}

/* Is mandatory edge `skip` (zones u, v) on a simple path between two town zones? */
static bool on_town_path(flow_net *f, size_t nz, const long (*edges)[2], size_t n_edges, size_t skip,
                         const bool *town)
{
    size_t src = 2 * nz, sink = 2 * nz + 1;
    memset(f->cap, 0, f->n * f->n * sizeof *f->cap);
    for (size_t z = 0; z < nz; z++) {
        f->cap[(2 * z) * f->n + 2 * z + 1] = 1; /* vertex capacity */
        if (town[z])
            f->cap[(2 * z + 1) * f->n + sink] = 1;
    }
    for (size_t e = 0; e < n_edges; e++) {
        if (e == skip)
            continue;
        size_t a = (size_t)edges[e][0], b = (size_t)edges[e][1];
        f->cap[(2 * a + 1) * f->n + 2 * b] = 1;
        f->cap[(2 * b + 1) * f->n + 2 * a] = 1;
    }
    f->cap[src * f->n + 2 * (size_t)edges[skip][0]] = 1;
    f->cap[src * f->n + 2 * (size_t)edges[skip][1]] = 1;
    return augment(f, src, sink) && augment(f, src, sink);
}

/* Merges parallel links: group[i] = representative connection index, -1 when no road can go. */
static void merge_parallel(const rmg__solve_input *in, int *group, rmg_road_setting *merged, long (*ends)[2])
{
    const rmg__template *tpl = in->tpl;
    for (size_t i = 0; i < tpl->n_connections; i++) {
        group[i] = -1;
        long a, b;
        if (!conn_usable(in, i, &a, &b))
            continue;
        ends[i][0] = a < b ? a : b;
        ends[i][1] = a < b ? b : a;
        rmg_road_setting s = conn_setting(tpl, i, a, b);
        group[i] = (int)i;
        for (size_t j = 0; j < i; j++) {
            if (group[j] != (int)j || ends[j][0] != ends[i][0] || ends[j][1] != ends[i][1])
                continue;
            if (s > merged[j]) { /* i becomes the representative of the group */
                merged[i] = s;
                for (size_t k = 0; k < i; k++)
                    if (group[k] == (int)j)
                        group[k] = (int)i;
            } else {
                group[i] = (int)j;
            }
            break;
        }
        if (group[i] == (int)i && merged[i] < s)
            merged[i] = s;
    }
}

rmg_status rmg__solve_road_choices(rmg_context *ctx, const rmg__solve_input *in, const bool *town, uint8_t *road_choice,
                                   int *road_group)
{
    const rmg__template *tpl = in->tpl;
    size_t nc = tpl->n_connections, nz = tpl->n_zones;
    rmg__arena work;
    rmg__arena_init(&work, ctx, 4096);
    rmg_road_setting *merged = rmg__arena_alloc(&work, (nc ? nc : 1) * sizeof *merged);
    long (*ends)[2] = rmg__arena_alloc(&work, (nc ? nc : 1) * sizeof *ends);
    long (*edges)[2] = rmg__arena_alloc(&work, (nc ? nc : 1) * sizeof *edges);
    size_t *edge_conn = rmg__arena_alloc(&work, (nc ? nc : 1) * sizeof *edge_conn);
    flow_net f = {2 * nz + 2, NULL, NULL, NULL};
    f.cap = rmg__arena_alloc(&work, f.n * f.n * sizeof *f.cap);
    f.prev = rmg__arena_alloc(&work, f.n * sizeof *f.prev);
    f.queue = rmg__arena_alloc(&work, f.n * sizeof *f.queue);
    if (!merged || !ends || !edges || !edge_conn || !f.cap || !f.prev || !f.queue) {
        rmg__arena_free(&work);
        return rmg__error_nomem(ctx);
    }
    merge_parallel(in, road_group, merged, ends);
    size_t n_edges = 0;
    for (size_t i = 0; i < nc; i++) {
        if (road_group[i] != (int)i || merged[i] != RMG_ROAD_SETTING_MANDATORY)
            continue;
        edges[n_edges][0] = ends[i][0];
        edges[n_edges][1] = ends[i][1];
        edge_conn[n_edges++] = i;
    }
    for (size_t i = 0; i < nc; i++) /* group choice before CON-15 */
        road_choice[i] = road_group[i] < 0                                ? RMG_ROAD_SETTING_FORBIDDEN
                         : merged[road_group[i]] == RMG_ROAD_SETTING_FORBIDDEN ? RMG_ROAD_SETTING_FORBIDDEN
                                                                         : RMG_ROAD_SETTING_RANDOM;
    for (size_t e = 0; e < n_edges; e++)
        if (on_town_path(&f, nz, (const long (*)[2])edges, n_edges, e, town))
            road_choice[edge_conn[e]] = RMG_ROAD_SETTING_MANDATORY;
    for (size_t i = 0; i < nc; i++)
        if (road_group[i] >= 0)
            road_choice[i] = road_choice[road_group[i]];
    rmg__arena_free(&work);
    return RMG_OK;
}

rmg_status rmg__solve_roads(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    rmg__solve_extra *x = out->x;
    const rmg__template *tpl = in->tpl;
    size_t nc = tpl->n_connections, nz = tpl->n_zones;
    sol->road = rmg__arena_alloc(out->arena, (nc ? nc : 1) * sizeof *sol->road);
    x->road_choice = rmg__arena_alloc(out->arena, nc ? nc : 1);
    x->road_group = rmg__arena_alloc(out->arena, (nc ? nc : 1) * sizeof *x->road_group);
    bool *town = rmg__malloc(ctx, (nz ? nz : 1) * sizeof *town);
    if (!sol->road || !x->road_choice || !x->road_group || !town) {
        rmg__free(ctx, town);
        return rmg__error_nomem(ctx);
    }
    /* Before placement only the minimum towns are sure; the finish stage decides again with the
     * towns the frequencies added (rmg__solve_road_choices there). */
    for (size_t z = 0; z < nz; z++)
        town[z] = (!in->zone_active || in->zone_active[z]) && rmg__zone_has_min_towns(&tpl->zones[z]);
    rmg_status st = rmg__solve_road_choices(ctx, in, town, x->road_choice, x->road_group);
    for (size_t i = 0; i < nc && st == RMG_OK; i++)
        sol->road[i] = x->road_group[i] == (int)i && x->road_choice[i] == RMG_ROAD_SETTING_MANDATORY;
    rmg__free(ctx, town);
    return st;
}
