/*
 * Treasure groups at sea (issue 19). A group lies around a hub of open water, the guard's tile:
 * every object's entry touches the hub (from the side or below, unless the object opens its top,
 * as the game allows), and every other water tile touching an entry is sealed: it gets a water
 * obstacle in the finish stage (rocks and reefs), so a boat comes in only through the hub. The
 * group keeps clear of the coasts (two tiles of water between it and any land) and of the
 * tiles kept free (a shipyard's boat, the lanes), and it may not cut the sea in two: every
 * open water tile of the sea stays reachable by boat from the rest.
 */
#include <string.h>

#include "objects_internal.h"

#define SEA_TRIES 48          /* hubs tried per group */
#define SEA_COAST_GAP 2       /* Chebyshev distance from land a group's tiles keep */
#define SEA_MAX_TILES (RMG__TRS_MAX_OBJECTS * 48)

/* Open water of the sea's zone: nothing stands there, nothing is kept free. */
static bool open_water(const struct rmg_map *m, size_t t, int zone)
{
    const uint16_t busy = RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_FREE | RMG__T_GUARD | RMG__T_USED | RMG__T_OBSTACLE;
    return m->tile_zone[t] == zone && (m->flags[t] & RMG__T_WATER) && !(m->flags[t] & busy) && !m->tile_object[t];
}

typedef struct sea_layout {
    struct rmg_map *m;
    int zone;
    uint8_t *taken;            /* per tile: 1 footprint, 2 seal, 3 hub (this try) */
    uint32_t tiles[SEA_MAX_TILES];
    size_t n;                  /* tiles marked in `taken` */
    int anchor[RMG__TRS_MAX_OBJECTS][2];
} sea_layout;

/* Water a boat will cross once the finish stage is done: no object, no seal. */
static bool sailable(const struct rmg_map *m, size_t t)
{
    return rmg__map_free_water(m, t) && !(m->flags[t] & RMG__T_OBSTACLE);
}

static bool take(sea_layout *l, size_t t, uint8_t what)
{
    if (l->n == SEA_MAX_TILES)
        return false;
    l->taken[t] = what;
    l->tiles[l->n++] = (uint32_t)t;
    return true;
}

static void clear_try(sea_layout *l)
{
    for (size_t i = 0; i < l->n; i++)
        l->taken[l->tiles[i]] = 0;
    l->n = 0;
}

static void normalize(uint64_t *block, uint64_t *visit)
{
    if (!*block && !*visit)
        *block = *visit = (uint64_t)1 << 47;
}

/* Lays item it with its entry at e (the lowest visit bit there): its tiles must be open water
 * away from the coast. */
static bool lay_item(sea_layout *l, const rmg__pl_item *it, size_t e, const uint8_t *coast_dist, int k)
{
    const struct rmg_map *m = l->m;
    uint64_t block = it->block, visit = it->visit;
    normalize(&block, &visit);
    int vb = 47;
    while (vb > 0 && !(visit >> vb & 1))
        vb--;
    size_t plane = (size_t)m->width * (size_t)m->height;
    int ex = (int)(e % plane % (size_t)m->width), ey = (int)(e % plane / (size_t)m->width), z = (int)(e / plane);
    int ax = ex + (7 - vb % 8), ay = ey + (5 - vb / 8);
    size_t mark = l->n;
    for (int b = 0; b < 48; b++) {
        if (!((block | visit) >> b & 1))
            continue;
        int x = ax - (7 - b % 8), y = ay - (5 - b / 8);
        if (x < 0 || y < 0 || x >= m->width || y >= m->height)
            goto undo;
        size_t t = rmg__tile(m->width, m->height, x, y, z);
        if (l->taken[t] || !open_water(m, t, l->zone) || coast_dist[t] < SEA_COAST_GAP || !take(l, t, 1))
            goto undo;
    }
    l->anchor[k][0] = ax;
    l->anchor[k][1] = ay;
    return true;
undo:
    while (l->n > mark)
        l->taken[l->tiles[--l->n]] = 0;
    return false;
}

/* Seals the open water touching the entries (all but the hub and the group's own tiles). */
static bool seal_entries(sea_layout *l, const size_t *entries, size_t n_entries, const uint8_t *coast_dist)
{
    for (size_t i = 0; i < n_entries; i++)
        for (int k = 0; k < 8; k++) {
            size_t u;
            if (!rmg__pl_neighbour(l->m, entries[i], k, &u) || l->taken[u])
                continue;
            uint16_t f = l->m->flags[u];
            if (!(f & RMG__T_WATER) || l->m->tile_object[u] || (f & RMG__T_OBSTACLE))
                continue; /* land, or already closed */
            if (!open_water(l->m, u, l->zone) || coast_dist[u] < SEA_COAST_GAP - 1 || !take(l, u, 2))
                return false; /* a lane, a boat's tile or the coast: the group would be open there */
        }
    return true;
}

/* The hub stays open to the sea: a boat reaches the guard from some neighbour the group leaves
 * free (the sea around is one piece, sea_whole). */
static bool hub_open(const sea_layout *l, size_t h)
{
    for (int k = 0; k < 8; k++) {
        size_t u;
        if (rmg__pl_neighbour(l->m, h, k, &u) && !l->taken[u] && open_water(l->m, u, l->zone))
            return true;
    }
    return false;
}

/* Whether the zone's open water, less this try's tiles, is still one piece (breadth first from
 * one tile of it; the counts must match). */
static bool sea_whole(const rmg__sea *sea, const sea_layout *l, size_t open_count)
{
    const struct rmg_map *m = l->m;
    uint32_t *queue = sea->queue, *seen = sea->seen, stamp = sea->stamp;
    size_t start = SIZE_MAX;
    for (size_t i = 0; i < sea->n_tiles && start == SIZE_MAX; i++)
        if (sailable(m, sea->tiles[i]) && !l->taken[sea->tiles[i]])
            start = sea->tiles[i];
    if (start == SIZE_MAX)
        return false;
    size_t head = 0, tail = 0, reached = 0;
    queue[tail++] = (uint32_t)start;
    seen[start] = stamp;
    while (head < tail) {
        size_t t = queue[head++];
        reached++;
        for (int k = 0; k < 8; k++) {
            size_t u;
            if (rmg__pl_neighbour(m, t, k, &u) && seen[u] != stamp && m->tile_zone[u] == l->zone && sailable(m, u) &&
                !l->taken[u]) {
                seen[u] = stamp;
                queue[tail++] = (uint32_t)u;
            }
        }
    }
    size_t removed = 0;
    for (size_t i = 0; i < l->n; i++)
        removed += sailable(m, l->tiles[i]);
    return reached + removed == open_count;
}

/* Puts every item with its entry beside hub h. */
static bool lay_around(sea_layout *l, size_t h, const rmg__pl_item *items, size_t n, const uint8_t *coast_dist,
                       size_t *entries)
{
    if (!take(l, h, 3))
        return false;
    size_t w = (size_t)l->m->width;
    for (size_t k = 0; k < n; k++) {
        bool laid = false;
        for (int d = 0; d < 8 && !laid; d++) {
            size_t e;
            /* The hub is the hero's way in: not the row above the entry unless the object allows it. */
            if (!rmg__pl_neighbour(l->m, h, d, &e) || l->taken[e] || (!items[k].from_top && h / w == e / w - 1))
                continue;
            size_t mark = l->n;
            if (lay_item(l, &items[k], e, coast_dist, (int)k)) {
                if (l->taken[e] == 1) {
                    entries[k] = e;
                    laid = true;
                } else {
                    while (l->n > mark)
                        l->taken[l->tiles[--l->n]] = 0;
                }
            }
        }
        if (!laid)
            return false;
    }
    return true;
}

rmg_status rmg__sea_place(rmg__sea *sea, const rmg__pl_item *items, size_t n, rmg_rng *rng, rmg__pl_result *res)
{
    struct rmg_map *m = sea->m;
    memset(res, 0, sizeof *res);
    if (!n || n > RMG__TRS_MAX_OBJECTS || !sea->n_open)
        return RMG_OK;
    sea_layout *l = sea->layout;
    l->m = m;
    l->zone = sea->zone;
    l->taken = sea->taken;
    l->n = 0;
    size_t entries[RMG__TRS_MAX_OBJECTS];
    for (int tries = 0; tries < SEA_TRIES; tries++) {
        size_t h = sea->open[rmg_rng_below(rng, sea->n_open)];
        clear_try(l);
        if (!open_water(m, h, sea->zone) || sea->coast_dist[h] < SEA_COAST_GAP)
            continue;
        if (!lay_around(l, h, items, n, sea->coast_dist, entries) || !seal_entries(l, entries, n, sea->coast_dist) ||
            !hub_open(l, h))
            continue;
        if (++sea->stamp == 0) {
            memset(sea->seen, 0, m->n_tiles * sizeof *sea->seen);
            sea->stamp = 1;
        }
        size_t open_count = 0;
        for (size_t i = 0; i < sea->n_tiles; i++)
            open_count += sailable(m, sea->tiles[i]);
        if (!sea_whole(sea, l, open_count))
            continue;
        /* Commit: the objects, the seals (obstacles to come) and the hub (the guard's tile). */
        res->first_object = (uint32_t)m->objects.count + 1;
        for (size_t k = 0; k < n; k++) {
            uint64_t block = items[k].block, visit = items[k].visit;
            normalize(&block, &visit);
            rmg__map_object *o = rmg__map_add_object(m, items[k].key, items[k].kind, l->anchor[k][0], l->anchor[k][1],
                                                     (int)(h / ((size_t)m->width * (size_t)m->height)));
            if (!o) {
                clear_try(l);
                return RMG_ERR_NOMEM;
            }
            o->block = block;
            o->visit = visit;
            o->zone = sea->zone;
            rmg__map_stamp_object(m, o);
        }
        for (size_t i = 0; i < l->n; i++)
            if (l->taken[l->tiles[i]] == 2)
                m->flags[l->tiles[i]] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
        m->flags[h] |= RMG__T_USED;
        res->placed = true;
        res->hub = (uint32_t)h + 1;
        clear_try(l);
        return RMG_OK;
    }
    clear_try(l);
    return RMG_OK;
}

rmg_status rmg__sea_init(rmg__sea *sea, rmg_context *ctx, struct rmg_map *m, int zone)
{
    memset(sea, 0, sizeof *sea);
    sea->ctx = ctx;
    sea->m = m;
    sea->zone = zone;
    size_t n = m->n_tiles ? m->n_tiles : 1;
    sea->coast_dist = rmg__malloc(ctx, n);
    sea->taken = rmg__calloc(ctx, n, 1);
    sea->seen = rmg__calloc(ctx, n, sizeof *sea->seen);
    sea->queue = rmg__malloc(ctx, n * sizeof *sea->queue);
    sea->open = rmg__malloc(ctx, n * sizeof *sea->open);
    sea->tiles = rmg__malloc(ctx, n * sizeof *sea->tiles);
    sea->layout = rmg__malloc(ctx, sizeof *sea->layout);
    if (!sea->coast_dist || !sea->taken || !sea->seen || !sea->queue || !sea->open || !sea->tiles || !sea->layout) {
        rmg__sea_free(sea);
        return rmg__error_nomem(ctx);
    }
    /* Distance (8 neighbours, capped) from land, breadth first from every land tile. */
    size_t head = 0, tail = 0;
    for (size_t t = 0; t < m->n_tiles; t++) {
        bool land = !(m->flags[t] & RMG__T_WATER);
        sea->coast_dist[t] = land ? 0 : 255;
        if (land)
            sea->queue[tail++] = (uint32_t)t;
        if (m->tile_zone[t] == zone) {
            sea->tiles[sea->n_tiles++] = (uint32_t)t;
            if (!land)
                sea->open[sea->n_open++] = (uint32_t)t;
        }
    }
    while (head < tail) {
        size_t t = sea->queue[head++];
        for (int k = 0; k < 8; k++) {
            size_t u;
            if (rmg__pl_neighbour(m, t, k, &u) && sea->coast_dist[u] == 255 && sea->coast_dist[t] < SEA_COAST_GAP) {
                sea->coast_dist[u] = (uint8_t)(sea->coast_dist[t] + 1);
                sea->queue[tail++] = (uint32_t)u;
            }
        }
    }
    return RMG_OK;
}

void rmg__sea_free(rmg__sea *sea)
{
    rmg_context *ctx = sea->ctx;
    rmg__free(ctx, sea->coast_dist);
    rmg__free(ctx, sea->taken);
    rmg__free(ctx, sea->seen);
    rmg__free(ctx, sea->queue);
    rmg__free(ctx, sea->open);
    rmg__free(ctx, sea->tiles);
    rmg__free(ctx, sea->layout);
    memset(sea, 0, sizeof *sea);
}
