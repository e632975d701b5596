/*
 * Placement on tiles (design, §14 "object footprints and placement inside a zone", "group
 * layout"). Movement is 8-directional on one level.
 *
 * Open land: a tile of the zone with none of BLOCKED, OBJECT, ENTRY, FREE, BORDER, PASSAGE,
 * GUARD, WATER, ROCK, USED. Objects only ever cover open land (their blocked, non-entry tiles
 * may also cover blocked plain land such as another cluster's seal, which stays blocked), so
 * FREE tiles (the reserved skeleton from the zone centre to every passage, plus every path
 * carved here) stay free and no object can close the only path to another.
 *
 * A single (town, resource, Seer's Hut, never-grouped object) is put where its footprint
 * covers open land; its entry then connects to the FREE network: directly when it touches a
 * FREE tile, else through a path carved over open land and marked FREE. A town that finds no
 * such spot may cover free paths (over_free; never passages or guard slots): the paths it cuts
 * are re-joined around it.
 *
 * A cluster (a group, a mine, an airship yard) is laid out around a hub tile H, the guard
 * slot: H touches the FREE network (or first gets a carved path). Each object's entry touches H or a
 * pocket tile (open land next to H kept passable when the entries need more room); entries and
 * pockets touch no passable tile outside the cluster. Every open tile touching an entry or
 * pocket is then sealed (BLOCKED), so H is the only way in. In anarchy mode (MIS-44) the seal
 * tiles that touch nothing passable outside are left passable instead (USED): free tiles
 * around the objects that a flying hero can land on without fighting the guard. A cluster
 * never holds as many walkable tiles (entries, pockets) as the zone's FREE network, so the
 * network stays the zone's largest region once the open land is filled (the map validator
 * takes that region as the zone's main one). Hubs are tried snuggest first (most non-open tiles
 * around), so clusters pack against each other and the zone's edges.
 *
 * Cost: each zone's open land is kept as a set (updated on every tile change and undo), so
 * candidates are sampled from it or searched ring by ring around a point instead of rescanning
 * the zone; cluster layouts mark footprints and create their objects only when they fit.
 *
 * Every tile change is journalled, so a failed attempt (or a failed reward in another zone)
 * is undone exactly, objects and groups included.
 */
#include <stdlib.h>
#include <string.h>

#include "objects_internal.h"

#define NOT_OPEN                                                                                            \
    (RMG__T_BLOCKED | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_FREE | RMG__T_BORDER | RMG__T_PASSAGE |            \
     RMG__T_GUARD | RMG__T_WATER | RMG__T_ROCK | RMG__T_USED)
#define OCCUPIED_PASSABLE (RMG__T_FREE | RMG__T_ENTRY | RMG__T_PASSAGE | RMG__T_GUARD | RMG__T_USED)
#define ANCHOR_BIT ((uint64_t)1 << 47)
#define MAX_POCKETS 6
#define CARVE_MAX 48

static const int dx8[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int dy8[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

static void tile_xyz(const struct rmg_map *m, size_t t, int *x, int *y, int *z);

/* ---- the open-land sets ------------------------------------------------------------------------ */

static void open_swap(rmg__placer *p, uint32_t i, uint32_t j)
{
    uint32_t a = p->zone_tiles[i], b = p->zone_tiles[j];
    p->zone_tiles[i] = b;
    p->zone_tiles[j] = a;
    p->pos[a] = j;
    p->pos[b] = i;
}

/* Set membership of t (a tile of a zone): in, by a swap with the first tile after the set,
 * or out, by a swap with its last tile. */
static void open_enter(rmg__placer *p, size_t t, unsigned z)
{
    open_swap(p, p->pos[t], p->zone_start[z] + p->open_n[z]);
    p->open_n[z]++;
}

static void open_leave(rmg__placer *p, size_t t, unsigned z)
{
    open_swap(p, p->pos[t], p->zone_start[z] + p->open_n[z] - 1);
    p->open_n[z]--;
}

static bool open_member(const rmg__placer *p, size_t t, unsigned z)
{
    return p->pos[t] < p->zone_start[z] + p->open_n[z];
}

/* Puts t into or out of its zone's open set after its flags changed: O(1). */
static void track(rmg__placer *p, size_t t)
{
    unsigned z = p->m->tile_zone[t];
    if (!z || z > p->m->zones.count)
        return;
    bool open = !(p->m->flags[t] & NOT_OPEN), in = open_member(p, t, z);
    p->open_here[t] = open;
    if (open && !in)
        open_enter(p, t, z);
    else if (!open && in)
        open_leave(p, t, z);
}

static bool public_free(uint16_t f)
{
    return (f & RMG__T_FREE) && !(f & RMG__T_BLOCKED);
}

/* Passable and occupied: what a cluster's entries and pockets may not touch outside it. */
static bool busy(uint16_t f)
{
    return !(f & RMG__T_BLOCKED) && (f & OCCUPIED_PASSABLE);
}

static int neighbours(const rmg__placer *p, size_t t, size_t out[8]);

/* Keeps free_n of t's zone and the near_free / near_busy counts of t's neighbours after t's
 * flags went from `before` to their current value. */
static void track_near(rmg__placer *p, size_t t, uint16_t before)
{
    uint16_t now = p->m->flags[t];
    int d_free = (int)public_free(now) - (int)public_free(before), d_busy = (int)busy(now) - (int)busy(before);
    if (d_free) {
        unsigned z = p->m->tile_zone[t];
        if (z && z <= p->m->zones.count)
            p->free_n[z] += (uint32_t)d_free;
    }
    if (!d_free && !d_busy)
        return;
    size_t nbs[8];
    int n = neighbours(p, t, nbs);
    /* The counts in locals: a byte store may alias anything, p's fields included, so the
     * compiler would read p->near_* again for every neighbour. */
    uint8_t *near_free = p->near_free, *near_busy = p->near_busy;
    if (d_free)
        for (int k = 0; k < n; k++)
            near_free[nbs[k]] = (uint8_t)(near_free[nbs[k]] + d_free);
    if (d_busy)
        for (int k = 0; k < n; k++)
            near_busy[nbs[k]] = (uint8_t)(near_busy[nbs[k]] + d_busy);
}

/* Bounding box and level of every zone (for the searches around a point). */
static void zone_boxes(rmg__placer *p)
{
    const struct rmg_map *m = p->m;
    for (size_t z = 0; z < m->zones.count + 2; z++) {
        struct rmg__pl_box *b = &p->box[z];
        b->x0 = b->y0 = INT32_MAX;
        b->x1 = b->y1 = -1;
        b->level = -2; /* no tile yet */
        if (z == 0 || z > m->zones.count)
            continue;
        for (uint32_t i = p->zone_start[z]; i < p->zone_start[z + 1]; i++) {
            int x, y, l;
            tile_xyz(m, p->zone_tiles[i], &x, &y, &l);
            b->x0 = RMG__MIN(b->x0, x);
            b->y0 = RMG__MIN(b->y0, y);
            b->x1 = RMG__MAX(b->x1, x);
            b->y1 = RMG__MAX(b->y1, y);
            b->level = b->level == -2 || b->level == l ? l : -1;
        }
    }
}

/* zone_edge: the tiles next to another zone or the map's edge (b), widened by one step along
 * rows, then along columns. A tile u of another zone within 2 steps of t puts the middle tile
 * between them (next to both) or t itself next to a zone change, so this is exactly "another
 * zone or off the map within 2 steps". The per-tile scratch p->queue holds b and the row pass. */
static void mark_zone_edges(rmg__placer *p)
{
    const struct rmg_map *m = p->m;
    size_t w = (size_t)m->width, h = (size_t)m->height;
    uint32_t *b = p->queue;
    for (size_t t = 0; t < m->n_tiles; t++) {
        size_t nbs[8];
        int n = neighbours(p, t, nbs);
        b[t] = n < 8; /* the map's edge counts as another zone */
        for (int k = 0; k < n && !b[t]; k++)
            b[t] = m->tile_zone[nbs[k]] != m->tile_zone[t];
    }
    for (size_t row = 0; row < m->n_tiles / w; row++) {
        const uint32_t *r = &b[row * w];
        uint8_t *out = &p->zone_edge[row * w];
        for (size_t x = 0; x < w; x++)
            out[x] = (uint8_t)(r[x] || (x > 0 && r[x - 1]) || (x + 1 < w && r[x + 1]));
    }
    for (size_t t = 0; t < m->n_tiles; t++)
        b[t] = p->zone_edge[t];
    for (size_t row = 0; row < m->n_tiles / w; row++) {
        size_t y = row % h;
        const uint32_t *r = &b[row * w];
        const uint32_t *above = y > 0 ? &b[(row - 1) * w] : r, *below = y + 1 < h ? &b[(row + 1) * w] : r;
        uint8_t *out = &p->zone_edge[row * w];
        for (size_t x = 0; x < w; x++)
            out[x] = (uint8_t)(r[x] || above[x] || below[x]);
    }
}

rmg_status rmg__pl_init(rmg__placer *p, rmg_context *ctx, struct rmg_map *m)
{
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->m = m;
    size_t n = m->n_tiles, nz = m->zones.count + 2;
    p->seen = rmg__calloc(ctx, n, sizeof *p->seen);
    p->prev = rmg__malloc(ctx, n * sizeof *p->prev);
    p->queue = rmg__malloc(ctx, n * sizeof *p->queue);
    p->cand = rmg__malloc(ctx, n * sizeof *p->cand);
    p->dist = rmg__malloc(ctx, n * sizeof *p->dist);
    p->zone_tiles = rmg__malloc(ctx, n * sizeof *p->zone_tiles);
    p->zone_start = rmg__calloc(ctx, nz, sizeof *p->zone_start);
    p->pos = rmg__malloc(ctx, n * sizeof *p->pos);
    p->in_cluster = rmg__calloc(ctx, n, sizeof *p->in_cluster);
    p->rim = rmg__malloc(ctx, n);
    p->open_n = rmg__calloc(ctx, nz, sizeof *p->open_n);
    p->free_n = rmg__calloc(ctx, nz, sizeof *p->free_n);
    p->near_free = rmg__calloc(ctx, n, 1);
    p->near_busy = rmg__calloc(ctx, n, 1);
    p->near_cluster = rmg__calloc(ctx, n, 1);
    p->near_cluster_epoch = rmg__calloc(ctx, n, sizeof *p->near_cluster_epoch);
    p->open_here = rmg__calloc(ctx, n, 1);
    p->no_path = rmg__calloc(ctx, n, sizeof *p->no_path);
    p->zone_edge = rmg__calloc(ctx, n, 1);
    p->box = rmg__malloc(ctx, nz * sizeof *p->box);
    if (!p->seen || !p->prev || !p->queue || !p->cand || !p->dist || !p->zone_tiles || !p->zone_start || !p->pos ||
        !p->in_cluster || !p->rim || !p->open_n || !p->free_n || !p->box || !p->near_free || !p->near_busy ||
        !p->near_cluster || !p->near_cluster_epoch || !p->open_here || !p->zone_edge || !p->no_path) {
        rmg__pl_free(p);
        return rmg__error_nomem(ctx);
    }
    /* Tiles grouped by zone (counting sort): zone z owns zone_tiles[zone_start[z-1]..zone_start[z]). */
    for (size_t t = 0; t < n; t++)
        if (m->tile_zone[t] && m->tile_zone[t] <= m->zones.count)
            p->zone_start[m->tile_zone[t]]++;
    for (size_t z = 1; z < nz; z++)
        p->zone_start[z] += p->zone_start[z - 1];
    for (size_t t = n; t-- > 0;) {
        unsigned z = m->tile_zone[t];
        if (z && z <= m->zones.count)
            p->zone_tiles[--p->zone_start[z]] = (uint32_t)t;
    }
    /* zone_start[z] is now the first tile of zone z; the end is zone_start[z + 1]. */
    zone_boxes(p);
    for (size_t z = 1; z + 1 < nz; z++)
        for (uint32_t i = p->zone_start[z]; i < p->zone_start[z + 1]; i++)
            p->pos[p->zone_tiles[i]] = i;
    for (size_t t = 0; t < n; t++) {
        int x, y, l;
        tile_xyz(m, t, &x, &y, &l);
        p->rim[t] = x == 0 || y == 0 || x + 1 == m->width || y + 1 == m->height;
        track(p, t);
        track_near(p, t, 0);
    }
    mark_zone_edges(p);
    return RMG_OK;
}

void rmg__pl_free(rmg__placer *p)
{
    rmg_context *ctx = p->ctx;
    rmg__free(ctx, p->seen);
    rmg__free(ctx, p->prev);
    rmg__free(ctx, p->queue);
    rmg__free(ctx, p->cand);
    rmg__free(ctx, p->dist);
    rmg__free(ctx, p->zone_tiles);
    rmg__free(ctx, p->zone_start);
    rmg__free(ctx, p->pos);
    rmg__free(ctx, p->in_cluster);
    rmg__free(ctx, p->rim);
    rmg__free(ctx, p->open_n);
    rmg__free(ctx, p->free_n);
    rmg__free(ctx, p->near_free);
    rmg__free(ctx, p->near_busy);
    rmg__free(ctx, p->near_cluster);
    rmg__free(ctx, p->near_cluster_epoch);
    rmg__free(ctx, p->open_here);
    rmg__free(ctx, p->no_path);
    rmg__free(ctx, p->zone_edge);
    rmg__free(ctx, p->box);
    RMG__VEC_FREE(ctx, &p->undo);
    memset(p, 0, sizeof *p);
}

rmg__pl_mark rmg__pl_save(const rmg__placer *p)
{
    rmg__pl_mark mk = {p->undo.count, p->m->objects.count, p->m->groups.count};
    return mk;
}

void rmg__pl_rollback(rmg__placer *p, rmg__pl_mark mk)
{
    struct rmg_map *m = p->m;
    while (p->undo.count > mk.undo) {
        const rmg__pl_undo *u = &p->undo.items[--p->undo.count];
        uint16_t before = m->flags[u->tile];
        m->flags[u->tile] = u->flags;
        m->tile_object[u->tile] = u->object;
        track(p, u->tile);
        track_near(p, u->tile, before);
    }
    while (m->groups.count > mk.groups) {
        m->groups.count--;
        RMG__VEC_FREE(p->ctx, &m->groups.items[m->groups.count].objects);
    }
    if (m->objects.count > mk.objects)
        m->objects.count = mk.objects;
}

void rmg__pl_commit(rmg__placer *p)
{
    p->undo.count = 0;
}

/* ---- tiles -------------------------------------------------------------------------------------- */

/* One 32-bit division (maps have at most 1024 x 1024 x 2 tiles); levels are few, so the level
 * is removed by subtraction. The placement searches and the nearest-candidate sort call this
 * for every tile they look at. */
static void tile_xyz(const struct rmg_map *m, size_t t, int *x, int *y, int *z)
{
    uint32_t w = (uint32_t)m->width, plane = w * (uint32_t)m->height, rest = (uint32_t)t, level = 0;
    while (rest >= plane) {
        rest -= plane;
        level++;
    }
    uint32_t row = rest / w;
    *z = (int)level;
    *y = (int)row;
    *x = (int)(rest - row * w);
}

bool rmg__pl_neighbour(const struct rmg_map *m, size_t t, int k, size_t *out)
{
    int x, y, z;
    tile_xyz(m, t, &x, &y, &z);
    x += dx8[k];
    y += dy8[k];
    if (x < 0 || y < 0 || x >= m->width || y >= m->height)
        return false;
    *out = rmg__tile(m->width, m->height, x, y, z);
    return true;
}

/* The on-map neighbours of a tile on the map's outer rows or columns (see neighbours). */
static int rim_neighbours(const rmg__placer *p, size_t t, size_t out[8])
{
    const struct rmg_map *m = p->m;
    ptrdiff_t w = m->width;
    int x, y, z, n = 0;
    tile_xyz(m, t, &x, &y, &z);
    for (int k = 0; k < 8; k++) {
        int nx = x + dx8[k], ny = y + dy8[k];
        if (nx >= 0 && ny >= 0 && nx < m->width && ny < m->height)
            out[n++] = (size_t)((ptrdiff_t)t + (ptrdiff_t)dy8[k] * w + dx8[k]);
    }
    return n;
}

/* The on-map neighbours of t in the order k = 0..7 (as rmg__pl_neighbour() gives them): the placement
 * searches call this for every tile they touch, so the common case (inside the map: all eight,
 * no bounds to check) is small enough to inline and the rim is a separate call. */
static inline int neighbours(const rmg__placer *p, size_t t, size_t out[8])
{
    if (p->rim[t])
        return rim_neighbours(p, t, out);
    size_t w = (size_t)p->m->width;
    out[0] = t - w - 1;
    out[1] = t - w;
    out[2] = t - w + 1;
    out[3] = t - 1;
    out[4] = t + 1;
    out[5] = t + w - 1;
    out[6] = t + w;
    out[7] = t + w + 1;
    return 8;
}

static bool is_open(const rmg__placer *p, size_t t, int zone)
{
    return p->m->tile_zone[t] == zone && !(p->m->flags[t] & NOT_OPEN);
}

/* Blocked plain land of the zone (a seal or other land the connect stage left blocked): an object's
 * blocked (non-entry) tiles may cover it, which keeps it blocked. */
static bool is_wall(const rmg__placer *p, size_t t, int zone)
{
    uint16_t f = p->m->flags[t];
    return p->m->tile_zone[t] == zone && (f & RMG__T_BLOCKED) && !p->m->tile_object[t] &&
           !(f & (RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_FREE | RMG__T_BORDER | RMG__T_PASSAGE | RMG__T_GUARD |
                  RMG__T_WATER | RMG__T_ROCK | RMG__T_OBSTACLE));
}

static bool set_flags(rmg__placer *p, size_t t, uint16_t add)
{
    rmg__pl_undo u = {(uint32_t)t, p->m->flags[t], p->m->tile_object[t]};
    if (!RMG__VEC_PUSH(p->ctx, &p->undo, u))
        return false;
    p->m->flags[t] |= add;
    track(p, t);
    track_near(p, t, u.flags);
    return true;
}

/* Starts an empty cluster: no tile is in it. */
static void new_cluster(rmg__placer *p)
{
    if (++p->cluster_epoch == 0) {
        memset(p->in_cluster, 0, p->m->n_tiles * sizeof *p->in_cluster);
        memset(p->near_cluster_epoch, 0, p->m->n_tiles * sizeof *p->near_cluster_epoch);
        p->cluster_epoch = 1;
    }
}

static bool in_cluster(const rmg__placer *p, size_t t)
{
    return p->in_cluster[t] == p->cluster_epoch;
}

/* True if t touches a passable, occupied tile that is not part of the current cluster: every
 * cluster tile is passable and occupied (the hub and pockets USED, entries ENTRY) from the
 * moment cluster_add takes it, so this is the busy neighbours less the cluster's. */
static bool touches_outside(const rmg__placer *p, size_t t)
{
    int mine = p->near_cluster_epoch[t] == p->cluster_epoch ? p->near_cluster[t] : 0;
    return p->near_busy[t] > mine;
}

static bool touches_free(const rmg__placer *p, size_t t)
{
    return p->near_free[t] > 0;
}

/* Whether a hero on tile `from`, one of the 8 neighbours of e (every caller's), may step onto
 * the entry e of an item: the game refuses entries approached from the row above unless the
 * object opens that side (rmg__map_visitable_from_top). On a map wider than 2 tiles exactly the
 * neighbours of the row above lie at or before e - w + 1, which spares the two divisions by the
 * width in the placement's hottest loops. */
static bool approach_ok(const rmg__placer *p, const rmg__pl_item *it, size_t from, size_t e)
{
    size_t w = (size_t)p->m->width;
    if (it->from_top)
        return true;
    return w > 2 ? from + w > e + 1 : from / w != e / w - 1;
}

/* touches_free for an entry: a free tile beside or below it. */
static bool entry_touches_free(const rmg__placer *p, const rmg__pl_item *it, size_t e)
{
    if (!touches_free(p, e))
        return false;
    if (it->from_top)
        return true;
    size_t nbs[8];
    int n = neighbours(p, e, nbs);
    for (int k = 0; k < n; k++)
        if (public_free(p->m->flags[nbs[k]]) && approach_ok(p, it, nbs[k], e))
            return true;
    return false;
}

/* ---- footprints ---------------------------------------------------------------------------------- */

static void normalize(uint64_t *block, uint64_t *visit)
{
    if (!*block && !*visit)
        *block = *visit = ANCHOR_BIT;
}

static bool holds_tile(const uint32_t *tiles, size_t n, size_t t)
{
    for (size_t i = 0; i < n; i++)
        if (tiles[i] == t)
            return true;
    return false;
}

/* A tile a later stage counts on: a connection's tile or guard slot, an object's guard slot. */
static bool reserved(const rmg__placer *p, size_t t)
{
    const struct rmg_map *m = p->m;
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (holds_tile(c->tiles.items, c->tiles.count, t) || holds_tile(c->guard_slots.items, c->guard_slots.count, t))
            return true;
    }
    for (size_t i = 0; i < m->objects.count; i++)
        if (m->objects.items[i].guard_slot == t + 1)
            return true;
    return false;
}

/* A FREE path tile of the zone that a town may cover (over_free): not a passage, nothing on it
 * and no later stage's slot (only the town fallback asks, so the scan of `reserved` is rare). */
static bool is_path(const rmg__placer *p, size_t t, int zone)
{
    uint16_t f = p->m->flags[t];
    return p->m->tile_zone[t] == zone && (f & RMG__T_FREE) && !(f & (NOT_OPEN & ~RMG__T_FREE)) &&
           !p->m->tile_object[t] && !reserved(p, t);
}

/* The shape of footprint (block, visit), normalized, from the cache (computed on a miss). */
static inline const struct rmg__pl_shape *shape_of(rmg__placer *p, uint64_t block, uint64_t visit)
{
    struct rmg__pl_shape *sh = &p->shapes[((block * UINT64_C(0x9E3779B97F4A7C15)) ^ visit) >> 60];
    if (sh->block == block && sh->visit == visit && (block || visit))
        return sh;
    int bit = visit ? rmg__high_bit64(visit) : 47, ex = bit % 8, ey = bit / 8;
    uint64_t all = block | visit;
    sh->block = block;
    sh->visit = visit;
    sh->adx = 7 - ex;
    sh->ady = 5 - ey;
    sh->n = 0;
    for (int b = 0; b < 48; b++)
        if ((all >> b) & 1u) {
            sh->dx[sh->n] = (int8_t)(b % 8 - ex);
            sh->dy[sh->n] = (int8_t)(b / 8 - ey);
            sh->visitable[sh->n++] = (visit >> b) & 1u;
        }
    return sh;
}

/* Anchor for item `it` whose entry (its lowest visitable tile) is at tile e; false if the
 * footprint leaves the map or covers anything but open land of the zone (its blocked tiles:
 * or blocked plain land, see is_wall; over_free: or free paths). dry: tiles stamped
 * seen == epoch are taken by earlier items of a layout tried without changing the map (see
 * dead_end). */
static bool fits_at_ex(rmg__placer *p, const rmg__pl_item *it, size_t e, int zone, bool over_free, bool dry, int *ax,
                       int *ay, int *az)
{
    const struct rmg_map *m = p->m;
    uint64_t block = it->block, visit = it->visit;
    normalize(&block, &visit);
    const struct rmg__pl_shape *sh = shape_of(p, block, visit);
    int ex, ey, ez;
    tile_xyz(m, e, &ex, &ey, &ez);
    *ax = ex + sh->adx;
    *ay = ey + sh->ady;
    *az = ez;
    ptrdiff_t w = m->width;
    for (int i = 0; i < sh->n; i++) {
        int tx = ex + sh->dx[i], ty = ey + sh->dy[i];
        if (tx < 0 || ty < 0 || tx >= m->width || ty >= m->height)
            return false;
        size_t t = (size_t)((ptrdiff_t)e + (ptrdiff_t)sh->dy[i] * w + sh->dx[i]);
        if (dry && p->seen[t] == p->epoch)
            return false; /* covered by an earlier item: neither open nor a wall any more */
        if (is_open(p, t, zone) || (over_free && is_path(p, t, zone)))
            continue;
        if (sh->visitable[i] || !is_wall(p, t, zone))
            return false;
    }
    return true;
}

static bool fits_at(rmg__placer *p, const rmg__pl_item *it, size_t e, int zone, int *ax, int *ay, int *az)
{
    return fits_at_ex(p, it, e, zone, false, false, ax, ay, az);
}

/* fits_at in a layout tried without changing the map (see dead_end). */
static bool fits_dry(rmg__placer *p, const rmg__pl_item *it, size_t e, int zone, int *ax, int *ay, int *az)
{
    return fits_at_ex(p, it, e, zone, false, true, ax, ay, az);
}

typedef struct journal_ctx {
    rmg__placer *p;
    int z;
} journal_ctx;

static void unfree_tile(void *user, int tx, int ty)
{
    journal_ctx *j = user;
    const struct rmg_map *m = j->p->m;
    if (tx < 0 || ty < 0 || tx >= m->width || ty >= m->height)
        return;
    size_t t = rmg__tile(m->width, m->height, tx, ty, j->z);
    uint16_t before = m->flags[t];
    j->p->m->flags[t] = (uint16_t)(before & ~RMG__T_FREE);
    track_near(j->p, t, before);
}

/* Marks the footprint of the object that will get id `id` as rmg__map_stamp_object does
 * (blocked tiles OBJECT, entries ENTRY), journalled. Cluster layouts mark their objects this
 * way and only create them once the whole cluster fits: most layouts tried are undone.
 * False on allocation failure. */
/* The tiles of footprint `all` anchored at (ax, ay, az) that lie on the map, in bit order
 * (row by row), with their bit numbers; returns their count. */
static int footprint_on_map(const struct rmg_map *m, uint64_t all, int ax, int ay, int az, uint32_t tiles[48],
                            int bit[48])
{
    int n = 0;
    for (int row = 0; row < 6; row++) {
        int ty = ay - (5 - row);
        unsigned bits = (unsigned)(all >> (8 * row)) & 0xffu;
        for (int col = 0; bits; col++, bits >>= 1) {
            int tx = ax - (7 - col);
            if (!(bits & 1u) || tx < 0 || ty < 0 || tx >= m->width || ty >= m->height)
                continue;
            tiles[n] = (uint32_t)rmg__tile(m->width, m->height, tx, ty, az);
            bit[n++] = 8 * row + col;
        }
    }
    return n;
}

static bool mark_footprint(rmg__placer *p, uint64_t block, uint64_t visit, int ax, int ay, int az, uint32_t id)
{
    struct rmg_map *m = p->m;
    uint32_t tiles[48];
    int bit[48], n = footprint_on_map(m, block | visit, ax, ay, az, tiles, bit);
    for (int i = 0; i < n; i++) {
        size_t t = tiles[i];
        rmg__pl_undo u = {(uint32_t)t, m->flags[t], m->tile_object[t]};
        if (!RMG__VEC_PUSH(p->ctx, &p->undo, u))
            return false;
        if ((visit >> bit[i]) & 1u) {
            m->flags[t] |= RMG__T_ENTRY | RMG__T_USED;
            if (!m->tile_object[t])
                m->tile_object[t] = id;
        } else {
            m->flags[t] |= RMG__T_OBJECT | RMG__T_BLOCKED | RMG__T_USED;
            m->tile_object[t] = id;
        }
        track(p, t);
        track_near(p, t, u.flags);
    }
    return true;
}

/* Creates the map object whose footprint mark_footprint marked; 0 on allocation failure. */
static uint32_t add_marked(rmg__placer *p, const rmg__pl_item *it, int zone, int ax, int ay, int az)
{
    uint64_t block = it->block, visit = it->visit;
    normalize(&block, &visit);
    rmg__map_object *o = rmg__map_add_object(p->m, it->key, it->kind, ax, ay, az);
    if (!o)
        return 0;
    o->block = block;
    o->visit = visit;
    o->zone = zone;
    return o->id;
}

/* Marks the footprint and adds the map object; 0 on allocation failure (error set). */
static uint32_t stamp(rmg__placer *p, const rmg__pl_item *it, int zone, int ax, int ay, int az)
{
    uint64_t block = it->block, visit = it->visit;
    normalize(&block, &visit);
    if (!mark_footprint(p, block, visit, ax, ay, az, (uint32_t)p->m->objects.count + 1)) {
        rmg__error_nomem(p->ctx);
        return 0;
    }
    return add_marked(p, it, zone, ax, ay, az);
}

/* ---- free paths ------------------------------------------------------------------------------ */

static void next_epoch(rmg__placer *p)
{
    if (++p->epoch == 0) {
        memset(p->seen, 0, p->m->n_tiles * sizeof *p->seen);
        p->epoch = 1;
    }
}

/* Connects `from` to the FREE network by a shortest path over open land of the zone; the
 * path is marked FREE. When `from` is the entry of entry_of (else NULL), the path leaves it
 * where the game lets a hero come in. Status: RMG_OK with *ok set, or RMG_ERR_NOMEM. */
static rmg_status connect(rmg__placer *p, size_t from, const rmg__pl_item *entry_of, int zone, bool *ok)
{
    *ok = false;
    if (entry_of ? entry_touches_free(p, entry_of, from) : touches_free(p, from)) {
        *ok = true;
        return RMG_OK;
    }
    next_epoch(p);
    /* The search's arrays and epoch in locals: its stores could alias p's fields as far as the
     * compiler knows (set_flags, which changes p, is only called on the way out). */
    uint32_t *seen = p->seen, *prev = p->prev, *dist = p->dist, *queue = p->queue, epoch = p->epoch;
    size_t head = 0, tail = 0;
    queue[tail++] = (uint32_t)from;
    seen[from] = epoch;
    dist[from] = 0;
    p->search_cut = false;
    while (head < tail) {
        size_t t = queue[head++];
        if (dist[t] >= CARVE_MAX) {
            p->search_cut = true;
            continue;
        }
        size_t nbs[8];
        int n_nb = neighbours(p, t, nbs);
        for (int k = 0; k < n_nb; k++) {
            size_t nb = nbs[k];
            if (seen[nb] == epoch || !is_open(p, nb, zone) || (t == from && entry_of && !approach_ok(p, entry_of, nb, from)))
                continue;
            seen[nb] = epoch;
            prev[nb] = (uint32_t)t;
            dist[nb] = dist[t] + 1;
            if (touches_free(p, nb)) {
                for (size_t c = nb; c != from; c = prev[c])
                    if (!set_flags(p, c, RMG__T_FREE))
                        return rmg__error_nomem(p->ctx);
                *ok = true;
                return RMG_OK;
            }
            queue[tail++] = (uint32_t)nb;
        }
    }
    p->searched = tail;
    return RMG_OK;
}

/* Breadth-first distances over open land of the zone from the queued tiles queue[0..tail)
 * (their dist set): a tile is (re)queued when the new distance is shorter, so the same call
 * first computes all distances and later lowers them from newly carved paths. Returns the
 * new tail; tiles are queued at most once per call. */
static size_t lower_distances(rmg__placer *p, int zone, size_t tail)
{
    /* The arrays and the epoch in locals: the compiler cannot tell that the stores below leave p
     * alone, and would read them again for every neighbour (this search is the spread's cost). */
    uint32_t *seen = p->seen, *dist = p->dist, *prev = p->prev, *queue = p->queue, epoch = p->epoch;
    const uint8_t *open_here = p->open_here, *zone_edge = p->zone_edge;
    for (size_t head = 0; head < tail; head++) {
        size_t t = queue[head];
        size_t nbs[8];
        int n_nb = neighbours(p, t, nbs);
        bool plain = !zone_edge[t]; /* the neighbours are of t's zone */
        uint32_t d = dist[t] + 1;
        for (int k = 0; k < n_nb; k++) {
            size_t nb = nbs[k];
            if (!(plain ? open_here[nb] : is_open(p, nb, zone)) || (seen[nb] == epoch && dist[nb] <= d))
                continue;
            seen[nb] = epoch;
            dist[nb] = d;
            prev[nb] = (uint32_t)t;
            queue[tail++] = (uint32_t)nb;
        }
    }
    return tail;
}

/* Extends the FREE network of a zone until every open tile is within `reach` steps of it and the
 * network holds RMG__SPREAD_MIN_FREE tiles (when the zone has the room): the
 * open tiles are visited from the farthest (by their first distance) down, and each one still
 * farther than `reach` gets a carved path to the network, after which the distances are lowered
 * from that path only (distances never grow: carving turns open land into sources). Clusters
 * then find hubs all over the zone instead of only along the skeleton (which they would wall
 * in). Cost: one pass over the zone plus the tiles each path brings closer. */
rmg_status rmg__pl_spread(rmg__placer *p, int zone, int reach)
{
    struct rmg_map *m = p->m;
    next_epoch(p);
    size_t tail = 0;
    for (uint32_t i = p->zone_start[zone]; i < p->zone_start[zone + 1]; i++) {
        uint32_t t = p->zone_tiles[i];
        if ((m->flags[t] & RMG__T_FREE) && !(m->flags[t] & RMG__T_BLOCKED)) {
            p->seen[t] = p->epoch;
            p->dist[t] = 0;
            p->prev[t] = t;
            p->queue[tail++] = t;
        }
    }
    size_t n = lower_distances(p, zone, tail);
    /* The queue held the tiles in non-decreasing distance: keep the far ones, farthest first
     * (all of them while the network is below its minimum size). */
    size_t n_far = 0;
    for (size_t i = n; i-- > 0;) {
        if ((int)p->dist[p->queue[i]] <= reach && p->free_n[zone] >= RMG__SPREAD_MIN_FREE)
            break;
        p->cand[n_far++] = p->queue[i];
    }
    for (size_t i = 0; i < n_far; i++) {
        uint32_t far = p->cand[i];
        bool small = p->free_n[zone] < RMG__SPREAD_MIN_FREE && p->dist[far] >= 2;
        if (((int)p->dist[far] <= reach && !small) || !is_open(p, far, zone))
            continue;
        tail = 0;
        for (size_t c = far; !(m->flags[c] & RMG__T_FREE); c = p->prev[c]) {
            p->queue[tail++] = (uint32_t)c;
            if (!set_flags(p, c, RMG__T_FREE))
                return rmg__error_nomem(p->ctx);
        }
        for (size_t k = 0; k < tail; k++)
            p->dist[p->queue[k]] = 0;
        lower_distances(p, zone, tail);
    }
    return RMG_OK;
}

/* ---- candidates ---------------------------------------------------------------------------- */

static int64_t distance2(const struct rmg_map *m, const rmg__pl_request *req, size_t t)
{
    int x, y, z;
    tile_xyz(m, t, &x, &y, &z);
    int64_t dx = x - req->near_x, dy = y - req->near_y;
    return dx * dx + dy * dy + (z != req->near_z ? (int64_t)1 << 40 : 0);
}

/* True if all 8 neighbours of t are open land of the zone. */
static bool interior(const rmg__placer *p, size_t t, int zone)
{
    size_t nbs[8];
    if (neighbours(p, t, nbs) < 8)
        return false;
    for (int k = 0; k < 8; k++)
        if (!is_open(p, nbs[k], zone))
            return false;
    return true;
}

/* Candidate tiles: entries for singles; for clusters, hubs touching the FREE network (pass 0),
 * then hubs inside open land (pass 1), which get a carved path. */
static bool candidate(const rmg__placer *p, const rmg__pl_request *req, size_t t, int pass)
{
    if (!is_open(p, t, req->zone))
        return req->over_free && !req->hub && is_path(p, t, req->zone);
    if (req->hub && pass == 0)
        return touches_free(p, t);
    if (req->hub && pass == 1)
        return interior(p, t, req->zone);
    return true;
}

#define NEAR_MAX 256

/* Inserts t into the `kept` closest candidates cand[] (ordered by distance, then tile index;
 * d[] holds their distances), by binary search. */
static size_t keep_nearer(rmg__placer *p, const rmg__pl_request *req, int64_t *d, uint32_t t, size_t kept,
                          size_t keep)
{
    int64_t dt = distance2(p->m, req, t);
    if (req->max_dist2 > 0 && dt > req->max_dist2)
        return kept;
    size_t lo = 0, hi = kept;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d[mid] < dt || (d[mid] == dt && p->cand[mid] < t))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= keep)
        return kept;
    size_t last = kept < keep ? kept : keep - 1;
    memmove(&p->cand[lo + 1], &p->cand[lo], (last - lo) * sizeof *p->cand);
    memmove(&d[lo + 1], &d[lo], (last - lo) * sizeof *d);
    p->cand[lo] = t;
    d[lo] = dt;
    return kept < keep ? kept + 1 : kept;
}

/* The `keep` candidates nearest to the request's point, found ring by ring (Chebyshev radius
 * r) around it: a ring can only hold tiles at squared distance >= r^2, so the search stops as
 * soon as that exceeds the farthest kept one (or max_dist2). Zones on several levels (none
 * today) fall back to a pass over the open set. */
static size_t nearest_candidates(rmg__placer *p, const rmg__pl_request *req, int pass, size_t keep)
{
    int64_t d[NEAR_MAX];
    keep = RMG__MIN(keep, NEAR_MAX);
    const struct rmg_map *m = p->m;
    const struct rmg__pl_box *b = &p->box[req->zone];
    size_t kept = 0;
    if (b->level < 0) {
        uint32_t first = p->zone_start[req->zone];
        for (uint32_t i = first; i < first + p->open_n[req->zone]; i++)
            if (candidate(p, req, p->zone_tiles[i], pass))
                kept = keep_nearer(p, req, d, p->zone_tiles[i], kept, keep);
        return kept;
    }
    int cx = req->near_x, cy = req->near_y;
    int reach = RMG__MAX(RMG__MAX(cx - b->x0, b->x1 - cx), RMG__MAX(cy - b->y0, b->y1 - cy));
    for (int r = 0; r <= reach; r++) {
        int64_t ring_d2 = (int64_t)r * r + (b->level != req->near_z ? (int64_t)1 << 40 : 0);
        if (req->max_dist2 > 0 && ring_d2 > req->max_dist2)
            break;
        if (kept == keep && ring_d2 > d[kept - 1])
            break;
        for (int y = cy - r; y <= cy + r; y++) {
            if (y < b->y0 || y > b->y1)
                continue;
            /* Whole rows at the top and bottom of the ring, the two end tiles elsewhere. */
            int step = (y == cy - r || y == cy + r) ? 1 : RMG__MAX(2 * r, 1);
            for (int x = cx - r; x <= cx + r; x += step) {
                if (x < b->x0 || x > b->x1)
                    continue;
                size_t t = rmg__tile(m->width, m->height, x, y, b->level);
                if (candidate(p, req, t, pass))
                    kept = keep_nearer(p, req, d, (uint32_t)t, kept, keep);
            }
        }
    }
    return kept;
}

/* A uniform random sample of `keep` candidates in random order: the first steps of a
 * Fisher-Yates shuffle of the zone's open set, skipping the tiles that are not candidates. */
static size_t sampled_candidates(rmg__placer *p, const rmg__pl_request *req, rmg_rng *rng, int pass, size_t keep)
{
    uint32_t first = p->zone_start[req->zone], n = p->open_n[req->zone];
    size_t taken = 0;
    for (uint32_t i = 0; i < n && taken < keep; i++) {
        uint32_t j = i + (uint32_t)rmg_rng_below(rng, n - i);
        open_swap(p, first + i, first + j);
        uint32_t t = p->zone_tiles[first + i];
        /* candidate() for a tile of the open set: it is open land of the zone. */
        if (!req->hub || (pass == 0 ? touches_free(p, t) : interior(p, t, req->zone)))
            p->cand[taken++] = t;
    }
    return taken;
}

/* Early rejection: a hub none of whose neighbours could take an entry or a pocket (open land
 * touching nothing passable outside) fails in try_cluster whatever the items; the hub's own
 * path only adds outside tiles. */
static bool hub_has_room(const rmg__placer *p, size_t hub, int zone)
{
    size_t nbs[8];
    int n = neighbours(p, hub, nbs);
    for (int k = 0; k < n; k++)
        if (is_open(p, nbs[k], zone) && !touches_outside(p, nbs[k]))
            return true;
    return false;
}

/* Tiles that are not open land within 2 steps of t (map edge counted): how snugly a cluster
 * around hub t would sit against what is already there. Away from the map's edge (most hubs)
 * the 5 x 5 square is read row by row without bounds checks. */
static int snugness(const rmg__placer *p, size_t t, int zone)
{
    const struct rmg_map *m = p->m;
    int x, y, z, n = 0;
    ptrdiff_t w = m->width;
    if (!p->zone_edge[t]) {
        /* Every tile of the square is on the map and of t's zone (t is open land of `zone`).
         * open_here bytes are 0 or 1: four of a row are summed in one multiply (the top byte
         * of v * 0x01010101 is the sum of v's bytes, whatever their order). */
        const uint8_t *row = &p->open_here[(size_t)((ptrdiff_t)t - 2 * w - 2)];
        for (int dy = -2; dy <= 2; dy++, row += w) {
            uint32_t v;
            memcpy(&v, row, sizeof v);
            n += 5 - (int)((v * 0x01010101u) >> 24) - row[4];
        }
        return n;
    }
    tile_xyz(m, t, &x, &y, &z);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int nx = x + dx, ny = y + dy;
            n += nx < 0 || ny < 0 || nx >= m->width || ny >= m->height ||
                 !is_open(p, (size_t)((ptrdiff_t)t + dy * w + dx), zone);
        }
    return n;
}

/* Hubs in order of snugness (stable: ties keep the random order), so that groups pack
 * against each other and the zone's edges instead of leaving slivers between them. A counting
 * sort: scores are 0..25. */
static void snug_first(rmg__placer *p, const rmg__pl_request *req, size_t n)
{
    uint8_t score[128];
    uint32_t sorted[128];
    size_t start[27] = {0};
    for (size_t i = 0; i < n; i++) {
        score[i] = (uint8_t)(25 - snugness(p, p->cand[i], req->zone)); /* 0 = snuggest */
        start[score[i] + 1]++;
    }
    for (int k = 1; k < 27; k++)
        start[k] += start[k - 1];
    for (size_t i = 0; i < n; i++)
        sorted[start[score[i]]++] = p->cand[i];
    memcpy(p->cand, sorted, n * sizeof *sorted);
}

static size_t candidates(rmg__placer *p, const rmg__pl_request *req, rmg_rng *rng, int pass)
{
    size_t keep = req->tries ? (size_t)req->tries : 96;
    size_t n = req->near ? nearest_candidates(p, req, pass, keep)
                         : sampled_candidates(p, req, rng, pass, RMG__MIN(keep, 128));
    if (req->hub && !req->near)
        snug_first(p, req, n);
    return n;
}

/* ---- singles and clusters -------------------------------------------------------------------- */

/* Part of the zone's walking network: a passable FREE path, passage or object entry. */
static bool network_tile(const rmg__placer *p, size_t t, int zone)
{
    uint16_t f = p->m->flags[t];
    return p->m->tile_zone[t] == zone && !(f & RMG__T_BLOCKED) && (f & (RMG__T_FREE | RMG__T_PASSAGE | RMG__T_ENTRY));
}

/* Marks (in_cluster = cluster_epoch) the network tiles reachable from the marked tiles queued
 * in queue[0..tail) (queue[0]: the town's entry). */
static void mark_network(rmg__placer *p, int zone, size_t tail)
{
    for (size_t head = 0; head < tail; head++) {
        size_t nbs[8];
        if (head > 0 && (p->m->flags[p->queue[head]] & RMG__T_ENTRY))
            continue; /* objects are visited, not walked through */
        int n_nb = neighbours(p, p->queue[head], nbs);
        for (int k = 0; k < n_nb; k++)
            if (p->in_cluster[nbs[k]] != p->cluster_epoch && network_tile(p, nbs[k], zone)) {
                p->in_cluster[nbs[k]] = p->cluster_epoch;
                p->queue[tail++] = (uint32_t)nbs[k];
            }
    }
}

/* Carves a FREE path over open land from network tile `from` to a tile next to the marked
 * network; *ok false when none within CARVE_MAX. */
static rmg_status carve_to_marked(rmg__placer *p, size_t from, int zone, bool *ok)
{
    *ok = false;
    next_epoch(p);
    size_t head = 0, tail = 0;
    p->queue[tail++] = (uint32_t)from;
    p->seen[from] = p->epoch;
    p->dist[from] = 0;
    while (head < tail && !*ok) {
        size_t t = p->queue[head++], nbs[8];
        int n_nb = neighbours(p, t, nbs);
        for (int k = 0; k < n_nb && !*ok; k++) {
            size_t nb = nbs[k];
            if (p->in_cluster[nb] == p->cluster_epoch && t != from) {
                for (size_t c = t; c != from; c = p->prev[c])
                    if (!set_flags(p, c, RMG__T_FREE))
                        return rmg__error_nomem(p->ctx);
                *ok = true;
            } else if (p->seen[nb] != p->epoch && is_open(p, nb, zone) && p->dist[t] < CARVE_MAX) {
                p->seen[nb] = p->epoch;
                p->prev[nb] = (uint32_t)t;
                p->dist[nb] = p->dist[t] + 1;
                p->queue[tail++] = (uint32_t)nb;
            }
        }
    }
    return RMG_OK;
}

/* After a town covered free paths (over_free): every part of the zone's network the town cut
 * off gets a FREE path around it to the part its entry e stands on. */
static rmg_status rejoin_network(rmg__placer *p, size_t e, int zone, bool *ok)
{
    for (;;) {
        new_cluster(p);
        p->in_cluster[e] = p->cluster_epoch;
        p->queue[0] = (uint32_t)e;
        mark_network(p, zone, 1);
        size_t cut = SIZE_MAX;
        for (uint32_t i = p->zone_start[zone]; i < p->zone_start[zone + 1] && cut == SIZE_MAX; i++) {
            uint32_t t = p->zone_tiles[i];
            if (network_tile(p, t, zone) && p->in_cluster[t] != p->cluster_epoch)
                cut = t;
        }
        *ok = cut == SIZE_MAX;
        if (*ok)
            return RMG_OK;
        rmg_status st = carve_to_marked(p, cut, zone, ok);
        if (st != RMG_OK || !*ok)
            return st;
    }
}

static rmg_status try_single(rmg__placer *p, const rmg__pl_request *req, size_t e, uint32_t *id)
{
    int ax, ay, az;
    *id = 0;
    if (!fits_at_ex(p, &req->items[0], e, req->zone, req->over_free, false, &ax, &ay, &az))
        return RMG_OK;
    uint32_t oid = stamp(p, &req->items[0], req->zone, ax, ay, az);
    if (!oid)
        return RMG_ERR_NOMEM;
    bool ok = true;
    if (req->over_free) {
        /* The footprint is no path any more (later stages read FREE as "keep clear"); the
         * stamp journalled these tiles, so a rollback restores the flag. */
        journal_ctx j = {p, az};
        uint64_t block = req->items[0].block, visit = req->items[0].visit;
        normalize(&block, &visit);
        rmg__footprint_tiles(block | visit, ax, ay, unfree_tile, &j);
        rmg_status st = rejoin_network(p, e, req->zone, &ok);
        if (st != RMG_OK || !ok)
            return st;
    }
    if (req->items[0].visit || !req->items[0].block) {
        rmg_status st = connect(p, e, &req->items[0], req->zone, &ok);
        if (st != RMG_OK)
            return st;
    }
    *id = ok ? oid : 0;
    return RMG_OK;
}

static bool cluster_add(rmg__placer *p, size_t t, bool pocket)
{
    if (p->n_cluster >= RMG__PL_MAX_CLUSTER)
        return false;
    p->cluster[p->n_cluster].tile = (uint32_t)t;
    p->in_cluster[t] = p->cluster_epoch;
    p->cluster[p->n_cluster].walk = pocket;
    p->n_cluster++;
    size_t nbs[8];
    int n = neighbours(p, t, nbs);
    /* In locals: the stores below could alias p's fields as far as the compiler knows. */
    uint32_t *near_epoch = p->near_cluster_epoch, epoch = p->cluster_epoch;
    uint8_t *near = p->near_cluster;
    for (int k = 0; k < n; k++) {
        size_t nb = nbs[k];
        if (near_epoch[nb] != epoch) {
            near_epoch[nb] = epoch;
            near[nb] = 0;
        }
        near[nb]++;
    }
    return true;
}

/* Puts item `it` with its entry next to a walkable cluster tile from cluster[from] on. 1 placed,
 * 0 no room, -1 nomem. After a failure, a new pocket only takes room (it was open land), so the
 * entries next to older cluster tiles still fail: the caller then passes the pocket's index. */
static int cluster_put(rmg__placer *p, const rmg__pl_request *req, const rmg__pl_item *it, size_t from, uint32_t id,
                       int anchor[3])
{
    size_t n = p->n_cluster;
    for (size_t i = from; i < n; i++) {
        if (!p->cluster[i].walk)
            continue;
        size_t nbs[8];
        int n_nb = neighbours(p, p->cluster[i].tile, nbs);
        for (int k = 0; k < n_nb; k++) {
            size_t e = nbs[k];
            int ax, ay, az;
            if (!approach_ok(p, it, p->cluster[i].tile, e) || !is_open(p, e, req->zone) || touches_outside(p, e) ||
                !fits_at(p, it, e, req->zone, &ax, &ay, &az))
                continue;
            uint64_t block = it->block, visit = it->visit;
            normalize(&block, &visit);
            if (!mark_footprint(p, block, visit, ax, ay, az, id))
                return -1;
            anchor[0] = ax;
            anchor[1] = ay;
            anchor[2] = az;
            return cluster_add(p, e, false) ? 1 : 0;
        }
    }
    return 0;
}

/* Adds a pocket tile (open, touching nothing outside) next to a walkable cluster tile. */
static int cluster_grow(rmg__placer *p, const rmg__pl_request *req)
{
    size_t n = p->n_cluster;
    for (size_t i = 0; i < n; i++) {
        if (!p->cluster[i].walk)
            continue;
        size_t nbs[8];
        int n_nb = neighbours(p, p->cluster[i].tile, nbs);
        for (int k = 0; k < n_nb; k++) {
            size_t t = nbs[k];
            if (!is_open(p, t, req->zone) || touches_outside(p, t))
                continue;
            if (!set_flags(p, t, RMG__T_USED))
                return -1;
            return cluster_add(p, t, true) ? 1 : 0;
        }
    }
    return 0;
}

/* Seals the open land around entries and pockets (see the file comment). In anarchy mode the
 * tiles that touch nothing outside stay passable (fly tiles) and the land around them is
 * sealed instead, so they are reachable by air only. */
static bool seal(rmg__placer *p, const rmg__pl_request *req)
{
    uint32_t fly[8 * RMG__PL_MAX_CLUSTER];
    size_t n_fly = 0;
    for (size_t i = 1; i < p->n_cluster; i++) {
        for (int k = 0; k < 8; k++) {
            size_t t;
            if (!rmg__pl_neighbour(p->m, p->cluster[i].tile, k, &t) || in_cluster(p, t) || (p->m->flags[t] & NOT_OPEN) ||
                p->m->tile_zone[t] == 0)
                continue;
            bool fly_tile = req->anarchy && !touches_outside(p, t);
            if (!set_flags(p, t, fly_tile ? RMG__T_USED : RMG__T_BLOCKED))
                return false;
            if (fly_tile)
                fly[n_fly++] = (uint32_t)t;
        }
    }
    for (size_t i = 0; i < n_fly; i++) {
        for (int k = 0; k < 8; k++) {
            size_t t;
            if (rmg__pl_neighbour(p->m, fly[i], k, &t) && !(p->m->flags[t] & NOT_OPEN) && p->m->tile_zone[t] != 0 &&
                !set_flags(p, t, RMG__T_BLOCKED))
                return false;
        }
    }
    return true;
}

/* A tile a dry layout takes (the hub, the tiles of its items in mark_footprint's order):
 * stamped taken; open land also leaves the open set as set_flags / mark_footprint would have
 * it leave (queue[]: the tiles, prev[]: their places). */
static void take_tile(rmg__placer *p, size_t t)
{
    unsigned z = p->m->tile_zone[t];
    p->seen[t] = p->epoch;
    if (!z || z > p->m->zones.count || !open_member(p, t, z))
        return;
    p->queue[p->dry_n] = (uint32_t)t;
    p->prev[p->dry_n++] = p->pos[t];
    open_leave(p, t, z);
}

/* The tiles of item `it` with its entry at e, which fits there (all on the map). */
static void take_tiles(rmg__placer *p, const rmg__pl_item *it, size_t e)
{
    uint64_t block = it->block, visit = it->visit;
    normalize(&block, &visit);
    const struct rmg__pl_shape *sh = shape_of(p, block, visit);
    ptrdiff_t w = p->m->width;
    for (int i = 0; i < sh->n; i++)
        take_tile(p, (size_t)((ptrdiff_t)e + (ptrdiff_t)sh->dy[i] * w + sh->dx[i]));
}

/* Ends a dry layout: the tiles it took re-enter the open set in reverse order. When the
 * layout would have been marked and undone (`as_undone`), they re-enter as the journal's
 * rollback puts them back, so the open set ends in the order the real try leaves; else each
 * goes back to its place and the order is as before the dry layout. */
static void dry_end(rmg__placer *p, bool as_undone)
{
    while (p->dry_n > 0) {
        p->dry_n--;
        size_t t = p->queue[p->dry_n];
        open_enter(p, t, p->m->tile_zone[t]);
        if (!as_undone)
            open_swap(p, p->pos[t], p->prev[p->dry_n]);
    }
}

/* Exact early rejection, called once the hub is taken and joined to the network. Until a
 * pocket grows, the layout puts each item with its entry on the first of the hub's "room"
 * neighbours (open land touching nothing passable outside) where it fits, in neighbour order;
 * a pocket only grows when an item fits on none of them while one is left. So with fewer room
 * neighbours than items, the layout surely fails when the items, laid out that way, take them
 * all before the last item: the next item then finds no spot and no pocket can grow (room
 * only shrinks). Most hubs tried in a filling zone fail exactly so; this finds out with fits
 * checks alone (the items' tiles stamped in `seen`) instead of marking every item on the map
 * and undoing it, and leaves the open set in the order the marking and undoing would (the
 * candidate samples that follow read that order), so the maps are the same. An item with a
 * second visitable tile would make its neighbours touch outside the cluster: the check then
 * gives up (false) and the layout is tried for real. */
static bool dead_end(rmg__placer *p, const rmg__pl_request *req, size_t hub, bool hub_open)
{
    size_t nbs[8], room[8];
    int n_nb = neighbours(p, hub, nbs), n_room = 0;
    for (int k = 0; k < n_nb; k++)
        if (is_open(p, nbs[k], req->zone) && !touches_outside(p, nbs[k]))
            room[n_room++] = nbs[k];
    /* At most n_room items are laid out (each takes a room tile), 48 tiles each: queue[] and
     * prev[] (per-tile scratch) hold what they take. */
    if ((size_t)n_room >= req->n_items || p->m->n_tiles < (size_t)48 * 8)
        return false;
    next_epoch(p);
    p->dry_n = 0;
    if (hub_open)
        take_tile(p, hub); /* as set_flags(hub, USED) would */
    for (size_t k = 0; k < req->n_items; k++) {
        const rmg__pl_item *it = &req->items[k];
        uint64_t block = it->block, visit = it->visit;
        normalize(&block, &visit);
        int i = 0, ax, ay, az;
        if (visit & (visit - 1))
            break;
        while (i < n_room && (p->seen[room[i]] == p->epoch || !approach_ok(p, it, hub, room[i]) ||
                              !fits_dry(p, it, room[i], req->zone, &ax, &ay, &az)))
            i++;
        if (i == n_room) {
            bool left = false;
            for (i = 0; i < n_room; i++)
                left = left || p->seen[room[i]] != p->epoch;
            dry_end(p, !left); /* with room left a pocket may grow there: try for real */
            return !left;
        }
        take_tiles(p, it, room[i]);
    }
    dry_end(p, false);
    return false;
}

/* After a hub's path search failed without stopping at CARVE_MAX: it explored the hub's
 * whole region of open land and no tile of it touches a free path, so a path search from any
 * other hub of the region fails too while the map stays as it is (the rest of this
 * rmg__pl_place call: every try starts from the same map). */
static void no_path_region(rmg__placer *p)
{
    for (size_t i = 0; i < p->searched; i++)
        p->no_path[p->queue[i]] = p->place_id;
}

static rmg_status try_cluster(rmg__placer *p, const rmg__pl_request *req, size_t hub, rmg__pl_result *res)
{
    p->n_cluster = 0;
    new_cluster(p);
    if (!hub_has_room(p, hub, req->zone))
        return RMG_OK;
    /* A hub on the network keeps it as it is (connect() has nothing to carve), so the dry
     * check can run before the hub is even taken; other hubs get their path first. */
    bool joined = touches_free(p, hub);
    if (joined && dead_end(p, req, hub, true))
        return RMG_OK;
    if (!joined && p->no_path[hub] == p->place_id) {
        /* No path, as found from another hub of the same region in this call (the map is
         * the same at every try): the open set takes the hub out and back as the real try
         * would (set_flags, then the rollback). */
        unsigned z = p->m->tile_zone[hub];
        open_leave(p, hub, z);
        open_enter(p, hub, z);
        return RMG_OK;
    }
    if (!set_flags(p, hub, RMG__T_USED) || !cluster_add(p, hub, true))
        return rmg__error_nomem(p->ctx);
    /* The hub's path first: entries then keep clear of it like of any other free path. */
    bool ok;
    rmg_status st = connect(p, hub, NULL, req->zone, &ok);
    if (st == RMG_OK && !ok && !p->search_cut)
        no_path_region(p);
    if (st != RMG_OK || !ok || (!joined && dead_end(p, req, hub, false)))
        return st;
    int pockets = 0;
    int anchors[RMG__TRS_MAX_OBJECTS][3];
    uint32_t first_id = (uint32_t)p->m->objects.count + 1;
    if (req->n_items > RMG__TRS_MAX_OBJECTS)
        return RMG_OK;
    for (size_t k = 0; k < req->n_items; k++) {
        int r;
        size_t from = 0;
        while ((r = cluster_put(p, req, &req->items[k], from, first_id + (uint32_t)k, anchors[k])) == 0) {
            from = p->n_cluster;
            if (pockets >= MAX_POCKETS)
                return RMG_OK;
            int g = cluster_grow(p, req);
            if (g < 0)
                return rmg__error_nomem(p->ctx);
            if (g == 0)
                return RMG_OK;
            pockets++;
        }
        if (r < 0)
            return rmg__error_nomem(p->ctx);
    }
    /* The walkable tiles behind the hub (entries, pockets) must stay fewer than the zone's
     * free network: a guarded cluster is never the zone's largest region (see the header). */
    if (p->n_cluster - 1 >= p->free_n[req->zone])
        return RMG_OK;
    if (!seal(p, req))
        return rmg__error_nomem(p->ctx);
    for (size_t k = 0; k < req->n_items; k++)
        if (!add_marked(p, &req->items[k], req->zone, anchors[k][0], anchors[k][1], anchors[k][2]))
            return RMG_ERR_NOMEM;
    res->first_object = first_id;
    res->placed = true;
    res->hub = (uint32_t)hub + 1;
    return RMG_OK;
}

rmg_status rmg__pl_place(rmg__placer *p, const rmg__pl_request *req, rmg_rng *rng, rmg__pl_result *res)
{
    memset(res, 0, sizeof *res);
    if (req->zone < 1 || (size_t)req->zone > p->m->zones.count || req->n_items == 0)
        return RMG_OK;
    if (++p->place_id == 0) {
        memset(p->no_path, 0, p->m->n_tiles * sizeof *p->no_path);
        p->place_id = 1;
    }
    bool hub = req->hub;
    for (int pass = 0; pass < (hub ? 2 : 1) && !res->placed; pass++) {
        size_t n = candidates(p, req, rng, pass);
        for (size_t i = 0; i < n && !res->placed; i++) {
            rmg__pl_mark mk = rmg__pl_save(p);
            rmg_status st;
            if (hub) {
                st = try_cluster(p, req, p->cand[i], res);
            } else {
                uint32_t id = 0;
                st = try_single(p, req, p->cand[i], &id);
                res->placed = id != 0;
                res->first_object = id;
            }
            if (st != RMG_OK) {
                rmg__pl_rollback(p, mk);
                return st;
            }
            if (!res->placed)
                rmg__pl_rollback(p, mk);
        }
    }
    return RMG_OK;
}
