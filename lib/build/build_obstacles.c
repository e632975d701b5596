/* Obstacles (finish stage): the land a zone does not need becomes obstacle masses.
 *
 * Per land zone:
 *   1. Kept tiles: skeleton (FREE), passages, object entries, guards, roads.
 *   2. Every kept tile is joined to the zone's main area (the main town's entry, else the
 *      skeleton root) through walkable land, adding the shortest linking path to the kept set,
 *      so nothing a hero needs is cut off when guards count as passable.
 *   3. Open space around the kept network: one tile on each side always (paths three wide), and
 *      up to OPEN_REACH tiles more in clearings chosen per 4x4 block, so the zone shows open
 *      paths and clearings between obstacle masses rather than a maze.
 *   4. Every other walkable land tile of the zone becomes OBSTACLE|BLOCKED (including pockets no
 *      hero could reach, which would split the zone's free area).
 *   5. With game content loaded, the obstacle and sealed border tiles are covered with
 *      decorative obstacle objects of the zone's terrain (content map objects of family
 *      "obstacle"), biggest first at random spots, each lying wholly on such tiles. Tiles no
 *      object fits keep the OBSTACLE flag alone.
 */
#include <stdlib.h>
#include <string.h>

#include "build_common.h"

#define MK_KEEP 1u
#define MK_MAIN 2u      /* joined to the zone's main area */
#define MK_OPEN 4u      /* stays open after obstacle filling */
#define MK_DROP 8u      /* an optional tile (wide-opening or road fragment) cut off: filled */
#define OPEN_REACH 3    /* clearing depth beyond the one-tile margin */
#define BLOCK_SIDE 4    /* clearing blocks */
#define CLEARING_PERCENT 45

static bool walkable(const rmg__bld *b, uint32_t t)
{
    uint16_t f = b->m->flags[t];
    if (f & (RMG__T_WATER | RMG__T_ROCK))
        return false;
    return !(f & RMG__T_BLOCKED) || (f & (RMG__T_ENTRY | RMG__T_GUARD));
}

static bool needed(const rmg__bld *b, uint32_t t)
{
    return (b->m->flags[t] & (RMG__T_FREE | RMG__T_PASSAGE | RMG__T_ENTRY | RMG__T_GUARD)) || b->m->road[t];
}

typedef struct zone_user {
    int zone;
} zone_user;

static bool walk_in_zone(const rmg__bld *b, uint32_t t, void *user)
{
    return b->m->tile_zone[t] == ((const zone_user *)user)->zone && walkable(b, t);
}

static bool kept_walk_in_zone(const rmg__bld *b, uint32_t t, void *user)
{
    return (b->mark[t] & MK_KEEP) && walk_in_zone(b, t, user);
}

static bool kept_outside_main(const rmg__bld *b, uint32_t t, void *user)
{
    return kept_walk_in_zone(b, t, user) && !(b->mark[t] & MK_MAIN);
}

/* Floods MK_MAIN over kept walkable tiles from `from`. The main area is always closed (every
 * kept walkable neighbour of a main tile is main), so the flood only needs to cross tiles not
 * yet main: the result is the same as flooding the whole network again, at the cost of the
 * newly joined part only. */
static void flood_main(rmg__bld *b, uint32_t from, zone_user *zu)
{
    uint32_t stamp = rmg__bld_stamp(b);
    size_t head = 0, tail = 0;
    b->seen[from] = stamp;
    b->mark[from] |= MK_MAIN;
    b->queue[tail++] = from;
    while (head < tail) {
        uint32_t t = b->queue[head++], nb[8];
        int n_nb = rmg__bld_nbrs(b, t, nb);
        for (int d = 0; d < n_nb; d++) {
            uint32_t u = nb[d];
            if (b->seen[u] == stamp || (b->mark[u] & MK_MAIN) || !kept_walk_in_zone(b, u, zu))
                continue;
            b->seen[u] = stamp;
            b->mark[u] |= MK_MAIN;
            b->queue[tail++] = u;
        }
    }
}

static void keep_path_tile(rmg__bld *b, uint32_t t, void *user)
{
    (void)user;
    b->mark[t] |= MK_KEEP;
}

/* The zone's main area: its main town's entry, else its first town's, else the free tile
 * nearest to its centre. */
static uint32_t zone_root(const rmg__bld *b, const rmg__map_zone *z, zone_user *zu)
{
    uint32_t town = z->main_town ? z->main_town : (z->towns.count ? z->towns.items[0] : 0);
    if (town && town <= b->m->objects.count) {
        const rmg__map_object *o = &b->m->objects.items[town - 1];
        rmg__bld_shape sh = {o->block, o->visit, 1};
        uint32_t v = rmg__bld_visit_tile(b, &sh, (uint32_t)rmg__tile(b->w, b->h, o->x, o->y, o->z));
        if (walk_in_zone(b, v, zu))
            return v;
    }
    uint32_t centre = rmg__bld_zone_centre(b, z->id);
    for (int r = 0; r < RMG__MAX(b->w, b->h); r++) {
        int cx = rmg__bld_x(b, centre), cy = rmg__bld_y(b, centre);
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++) {
                if (x < 0 || y < 0 || x >= b->w || y >= b->h || (RMG__MAX(abs(x - cx), abs(y - cy)) != r))
                    continue;
                uint32_t t = (uint32_t)rmg__tile(b->w, b->h, x, y, z->level);
                if (kept_walk_in_zone(b, t, zu))
                    return t;
            }
    }
    return UINT32_MAX;
}

/* Tiles kept only for looks: parts of a wide opening off its crossing, road tiles. They may be
 * filled when walled off; entries, guards, skeleton and crossing tiles may not. */
static bool optional(const rmg__bld *b, uint32_t t)
{
    return !(b->m->flags[t] & (RMG__T_ENTRY | RMG__T_GUARD | RMG__T_FREE));
}

/* Step 2: joins every kept tile to the main area. Returns how many could not be joined. */
static size_t join_kept(rmg__bld *b, const uint32_t *tiles, size_t n, uint32_t root, zone_user *zu, uint32_t *sources,
                        uint32_t *first_lost)
{
    flood_main(b, root, zu);
    size_t unjoined = 0;
    for (;;) {
        size_t ns = 0;
        bool pending = false;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = tiles[i];
            if (b->mark[t] & MK_MAIN)
                sources[ns++] = t;
            else if (kept_walk_in_zone(b, t, zu))
                pending = true;
        }
        if (!pending)
            break;
        uint32_t found = rmg__bld_bfs(b, sources, ns, walk_in_zone, kept_outside_main, zu);
        if (!found) {
            for (size_t i = 0; i < n; i++)
                if (kept_walk_in_zone(b, tiles[i], zu) && !(b->mark[tiles[i]] & MK_MAIN)) {
                    b->mark[tiles[i]] = (uint8_t)((b->mark[tiles[i]] & ~MK_KEEP) | MK_DROP);
                    if (optional(b, tiles[i])) {
                        b->m->road[tiles[i]] = 0;
                        continue;
                    }
                    if (!unjoined++)
                        *first_lost = tiles[i];
                }
            break;
        }
        rmg__bld_trace(b, found - 1, keep_path_tile, NULL);
        flood_main(b, found - 1, zu);
    }
    return unjoined;
}

/* Step 3: open margins and clearings, grown outwards from the main area in BFS order so every
 * open tile touches one nearer to the network. */
static void open_space(rmg__bld *b, const uint32_t *tiles, size_t n, zone_user *zu, const uint8_t *clear_blocks, int bw)
{
    uint32_t stamp = rmg__bld_stamp(b);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (b->mark[tiles[i]] & MK_MAIN) {
            b->mark[tiles[i]] |= MK_OPEN;
            b->seen[tiles[i]] = stamp;
            b->dist[tiles[i]] = 0;
            b->queue[tail++] = tiles[i];
        }
    while (head < tail) {
        uint32_t t = b->queue[head++], nb[8];
        int n_nb = rmg__bld_nbrs(b, t, nb);
        for (int d = 0; d < n_nb; d++) {
            uint32_t u = nb[d];
            if (b->seen[u] == stamp || !walk_in_zone(b, u, zu))
                continue;
            b->seen[u] = stamp;
            uint32_t du = b->dist[t] + 1;
            int block = (rmg__bld_y(b, u) / BLOCK_SIDE) * bw + rmg__bld_x(b, u) / BLOCK_SIDE;
            bool open = du <= 1 || (du <= 1 + OPEN_REACH && clear_blocks[block]);
            if (!open)
                continue;
            b->dist[u] = du;
            b->mark[u] |= MK_OPEN;
            b->queue[tail++] = u;
        }
    }
}

/* ---- step 5: obstacle objects -------------------------------------------------------------- */

typedef struct obstacle_defs {
    const rmg__object_def **defs;  /* content obstacles, biggest footprint first */
    size_t n;
} obstacle_defs;

static int popcount48(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static rmg_status collect_obstacle_defs(rmg__bld *b, obstacle_defs *od)
{
    const struct rmg_content *c = b->g->content;
    od->defs = NULL;
    od->n = 0;
    if (!c || !c->map_objects)
        return RMG_OK;
    od->defs = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->defs);
    if (!od->defs)
        return rmg__error_nomem(b->ctx);
    for (size_t i = 0; i < c->n_map_objects; i++) {
        const rmg__object_def *d = &c->map_objects[i];
        if (d->family && !strcmp(d->family, "obstacle") && d->footprint.block && !d->footprint.visit)
            od->defs[od->n++] = d;
    }
    /* Insertion sort by footprint size, biggest first (stable: content order breaks ties). */
    for (size_t i = 1; i < od->n; i++) {
        const rmg__object_def *d = od->defs[i];
        size_t j = i;
        while (j > 0 && popcount48(od->defs[j - 1]->footprint.block) < popcount48(d->footprint.block)) {
            od->defs[j] = od->defs[j - 1];
            j--;
        }
        od->defs[j] = d;
    }
    return RMG_OK;
}

/* A tile an obstacle object may cover: filled or sealed land of the zone, no object yet. */
static bool coverable(const rmg__bld *b, int zone, int x, int y, int z)
{
    if (x < 0 || y < 0 || x >= b->w || y >= b->h)
        return false;
    size_t t = rmg__tile(b->w, b->h, x, y, z);
    uint16_t f = b->m->flags[t];
    bool sealed = (f & RMG__T_BORDER) && (f & RMG__T_BLOCKED) && !(f & RMG__T_PASSAGE);
    return b->m->tile_zone[t] == zone && !b->m->tile_object[t] && !(f & (RMG__T_WATER | RMG__T_ROCK)) &&
           ((f & RMG__T_OBSTACLE) || sealed);
}

static bool obstacle_fits(const rmg__bld *b, uint64_t block, uint32_t anchor, int zone)
{
    int ax = rmg__bld_x(b, anchor), ay = rmg__bld_y(b, anchor), z = rmg__bld_z(b, anchor);
    for (int bit = 0; bit < 48; bit++)
        if ((block & ((uint64_t)1 << bit)) && !coverable(b, zone, ax - (7 - bit % 8), ay - (5 - bit / 8), z))
            return false;
    return true;
}

static rmg_status obstacle_objects(rmg__bld *b, const rmg__map_zone *z, uint32_t *tiles, size_t n,
                                   const obstacle_defs *od, rmg_rng *rng)
{
    if (!od->n)
        return RMG_OK;
    rmg_rng_shuffle(rng, tiles, n, sizeof *tiles);
    uint32_t terrain_bit = z->terrain >= 0 && z->terrain < 32 ? 1u << z->terrain : 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = tiles[i];
        if (!coverable(b, z->id, rmg__bld_x(b, t), rmg__bld_y(b, t), z->level))
            continue;
        for (size_t k = 0; k < od->n; k++) {
            const rmg__object_def *d = od->defs[k];
            if ((d->terrains && !(d->terrains & terrain_bit)) || !obstacle_fits(b, d->footprint.block, t, z->id))
                continue;
            rmg__map_object *o = rmg__map_add_object(b->m, d->key, RMG_OBJECT_OBSTACLE, rmg__bld_x(b, t),
                                                     rmg__bld_y(b, t), z->level);
            if (!o)
                return RMG_ERR_NOMEM;
            o->block = d->footprint.block;
            o->zone = z->id;
            rmg__map_stamp_object(b->m, o);
            break;
        }
    }
    return RMG_OK;
}

/* Tiles grouped by zone, ascending within a zone (counting sort), so each zone's pass costs its
 * own size rather than the whole map's: zone z owns tiles[start[z]..start[z + 1]). */
typedef struct zone_index {
    uint32_t *tiles, *start;
} zone_index;

static rmg_status index_zones(rmg__bld *b, zone_index *zi)
{
    size_t nz = b->m->zones.count + 2;
    zi->tiles = rmg__malloc(b->ctx, ((size_t)b->n ? b->n : 1) * sizeof *zi->tiles);
    zi->start = rmg__calloc(b->ctx, nz, sizeof *zi->start);
    if (!zi->tiles || !zi->start)
        return rmg__error_nomem(b->ctx);
    const uint16_t *tz = b->m->tile_zone;
    for (uint32_t t = 0; t < b->n; t++)
        if (tz[t] && tz[t] <= b->m->zones.count)
            zi->start[tz[t]]++;
    for (size_t z = 1; z < nz; z++)
        zi->start[z] += zi->start[z - 1];
    for (uint32_t t = b->n; t-- > 0;)
        if (tz[t] && tz[t] <= b->m->zones.count)
            zi->tiles[--zi->start[tz[t]]] = t;
    return RMG_OK;
}

static rmg_status obstacles_in_zone(rmg__bld *b, const rmg__map_zone *z, const zone_index *zi, uint32_t *tiles,
                                    uint32_t *sources, uint8_t *clear_blocks, int bw, int bh, const obstacle_defs *od)
{
    zone_user zu = {z->id};
    size_t n = 0;
    for (uint32_t i = zi->start[z->id]; i < zi->start[z->id + 1]; i++) {
        uint32_t t = zi->tiles[i];
        tiles[n++] = t;
        b->mark[t] = needed(b, t) ? MK_KEEP : 0;
    }
    uint32_t root = zone_root(b, z, &zu);
    if (root == UINT32_MAX)
        return RMG_OK;
    b->mark[root] |= MK_KEEP;
    uint32_t lost = 0;
    size_t unjoined = join_kept(b, tiles, n, root, &zu, sources, &lost);
    rmg_rng rng;
    rmg__gen_stream(b->g, "obstacles", (uint64_t)z->id, &rng);
    for (int i = 0; i < bw * bh; i++)
        clear_blocks[i] = rmg_rng_below(&rng, 100) < CLEARING_PERCENT;
    open_space(b, tiles, n, &zu, clear_blocks, bw);
    for (size_t i = 0; i < n; i++) {
        uint32_t t = tiles[i];
        bool dropped = (b->mark[t] & MK_DROP) && optional(b, t);
        if (walkable(b, t) && !(b->mark[t] & MK_OPEN) && (!needed(b, t) || dropped))
            b->m->flags[t] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
    }
    rmg_status st = obstacle_objects(b, z, tiles, n, od, &rng);
    if (st != RMG_OK)
        return st;
    if (unjoined)
        return rmg__map_warn(b->m,
                             "zone %d (template zone %d): %zu needed tile(s) cannot be reached from the main area, "
                             "first at %d,%d,%d (flags %#x)",
                             z->id, z->tpl_id, unjoined, rmg__bld_x(b, lost), rmg__bld_y(b, lost), rmg__bld_z(b, lost),
                             (unsigned)b->m->flags[lost]);
    return RMG_OK;
}

/* Wide openings lose the tiles step 2 filled (walled-off remnants): a connection's tiles are
 * the ones a hero can actually cross. */
static void prune_wide_openings(struct rmg_map *m)
{
    for (size_t i = 0; i < m->conns.count; i++) {
        rmg__map_connection *c = &m->conns.items[i];
        if (c->realized != RMG_REALIZED_WIDE)
            continue;
        size_t kept = 0;
        for (size_t k = 0; k < c->tiles.count; k++) {
            uint32_t t = c->tiles.items[k];
            if (!(m->flags[t] & RMG__T_BLOCKED) || (m->flags[t] & (RMG__T_ENTRY | RMG__T_GUARD)))
                c->tiles.items[kept++] = t;
        }
        c->tiles.count = kept;
    }
}

rmg_status rmg__finish_obstacles(rmg__gen *g)
{
    if (!g || !g->map)
        return rmg__error_set(g ? g->ctx : NULL, RMG_ERR_INVALID_ARG, "obstacles: no map");
    rmg__bld b;
    rmg_status st = rmg__bld_init(&b, g);
    if (st != RMG_OK)
        return st;
    int bw = (b.w + BLOCK_SIDE - 1) / BLOCK_SIDE, bh = (b.h + BLOCK_SIDE - 1) / BLOCK_SIDE;
    uint32_t *tiles = rmg__malloc(b.ctx, (size_t)b.n * sizeof *tiles);
    uint32_t *sources = rmg__malloc(b.ctx, (size_t)b.n * sizeof *sources);
    uint8_t *clear_blocks = rmg__malloc(b.ctx, (size_t)bw * (size_t)bh);
    obstacle_defs od = {NULL, 0};
    zone_index zi = {NULL, NULL};
    if (!tiles || !sources || !clear_blocks)
        st = rmg__error_nomem(b.ctx);
    else
        st = collect_obstacle_defs(&b, &od);
    if (st == RMG_OK)
        st = index_zones(&b, &zi);
    for (size_t i = 0; i < g->map->zones.count && st == RMG_OK; i++) {
        const rmg__map_zone *z = &g->map->zones.items[i];
        if (rmg__bld_land_zone(&b, z->id))
            st = obstacles_in_zone(&b, z, &zi, tiles, sources, clear_blocks, bw, bh, &od);
    }
    if (st == RMG_OK)
        prune_wide_openings(g->map);
    rmg__free(b.ctx, zi.tiles);
    rmg__free(b.ctx, zi.start);
    rmg__free(b.ctx, tiles);
    rmg__free(b.ctx, sources);
    rmg__free(b.ctx, clear_blocks);
    rmg__free(b.ctx, (void *)od.defs);
    rmg__bld_free(&b);
    return st;
}
