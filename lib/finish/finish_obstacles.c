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
 *      Underground (a map with an underground of its own, not a mirror's copy) the zones have no
 *      clearings (CAVE_CLEARING_PERCENT), and once every zone is filled the blocked land of the
 *      whole level becomes rock wherever rock can be drawn (finish_cave.c) before step 5: the
 *      game's caves, rock about half of the level (issue 32).
 *   5. With game content loaded, every blocked land tile without an object (filled land, sealed
 *      borders, the seals of guarded clusters) is covered with decorative obstacle objects of
 *      the zone's terrain (content map objects of family "obstacle": every sprite the terrain
 *      allows), in passes from the largest shapes down, each lying wholly on such tiles
 *      (place_obstacles); one-tile obstacles take what is left, so in the game (where only
 *      terrain and objects block) the map blocks exactly where it was meant to.
 *      A terrain the content has no one-tile obstacle for may leave tiles uncovered: the map
 *      validation refuses such a map.
 * A rock mass on the surface (PLC-13: dummy zones "filled with obstacles") is land the connect
 * stage blocked whole: step 5 covers all of it with obstacles of its terrain.
 * Water zones: the seals of their treasure groups (water tiles flagged OBSTACLE) get water
 * obstacles the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "finish_internal.h"
#include "grid/grid.h"
#include "map/map_views.h"

#define MK_KEEP 1u
#define MK_MAIN 2u      /* joined to the zone's main area */
#define MK_OPEN 4u      /* stays open after obstacle filling */
#define MK_DROP 8u      /* an optional tile (wide-opening or road fragment) cut off: filled */
#define MK_WALK 16u     /* walkable land of the zone being filled (set per zone, cleared after) */
#define MK_COVER 32u    /* an obstacle object may cover it (coverable(), kept while objects land) */
#define MK_SEEN 64u     /* reached by step 3's search (walkable tiles of the zone only) */
#define OPEN_REACH 3    /* clearing depth beyond the one-tile margin */
#define BLOCK_SIDE 4    /* clearing blocks */
#define CLEARING_PERCENT 45
#define CAVE_CLEARING_PERCENT 0 /* underground: corridors between cave walls (finish_cave.c) */
#define MK_CAVE 128u     /* rock of a cave wall being drawn (finish_cave.c) */
#define ANCHOR_BIT ((uint64_t)1 << 47)

static bool walkable(const rmg__grid *b, uint32_t t)
{
    return rmg__finish_walkable(b->m, t);
}

static bool needed(const rmg__grid *b, uint32_t t)
{
    return (b->m->flags[t] & (RMG__T_FREE | RMG__T_PASSAGE | RMG__T_ENTRY | RMG__T_GUARD)) || b->m->road[t];
}

/* Walkable land of the zone: MK_WALK, set on the zone's tiles while the zone is filled (one
 * byte read where the searches would read the zone and the flags of every neighbour). */
static bool walk_in_zone(const rmg__grid *b, uint32_t t)
{
    return (b->mark[t] & MK_WALK) != 0;
}

static bool kept_walk_in_zone(const rmg__grid *b, uint32_t t)
{
    return (b->mark[t] & (MK_KEEP | MK_WALK)) == (MK_KEEP | MK_WALK);
}

/* Whether a hero may step from t to its neighbour u as far as entries go: the game lets him
 * into an object's entry from its row or the row below only (map_reach's rule for most
 * objects; held for every object here, so a way kept open never relies on the exceptions). On
 * one level a neighbour past t + 1 lies in the next row. */
static bool enters_fairly(const rmg__grid *b, uint32_t t, uint32_t u, bool fair)
{
    return !fair || u <= t + 1 || (b->m->flags[u] & (RMG__T_ENTRY | RMG__T_GUARD)) != RMG__T_ENTRY;
}

/* Floods MK_MAIN over kept walkable tiles from `from`. The main area is always closed (every
 * kept walkable neighbour of a main tile is main), so the flood only needs to cross tiles not
 * yet main: the result is the same as flooding the whole network again, at the cost of the
 * newly joined part only. The new main tiles are left in b->queue; returns how many. */
static size_t flood_main(rmg__grid *b, uint32_t from, bool fair)
{
    size_t head = 0, tail = 0;
    b->mark[from] |= MK_MAIN;
    b->queue[tail++] = from;
    while (head < tail) {
        uint32_t t = b->queue[head++], nb[8];
        int n_nb = rmg__grid_nbrs(b, t, nb);
        for (int d = 0; d < n_nb; d++) {
            uint32_t u = nb[d];
            if ((b->mark[u] & (MK_MAIN | MK_KEEP | MK_WALK)) != (MK_KEEP | MK_WALK) || !enters_fairly(b, t, u, fair))
                continue;
            b->mark[u] |= MK_MAIN;
            b->queue[tail++] = u;
        }
    }
    return tail;
}

/* user: the count of kept walkable tiles not yet main, which a newly kept path tile joins. */
static void keep_path_tile(rmg__grid *b, uint32_t t, void *user)
{
    if ((b->mark[t] & (MK_KEEP | MK_WALK | MK_MAIN)) == MK_WALK)
        ++*(size_t *)user;
    b->mark[t] |= MK_KEEP;
}

/* The zone's main area: its main town's entry, else its first town's, else the free tile
 * nearest to its centre. */
static uint32_t zone_root(const rmg__grid *b, const rmg__map_zone *z)
{
    uint32_t town = z->main_town ? z->main_town : (z->towns.count ? z->towns.items[0] : 0);
    if (town && town <= b->m->objects.count) {
        const rmg__map_object *o = &b->m->objects.items[town - 1];
        rmg__grid_shape sh = {o->block, o->visit, 1};
        uint32_t v = rmg__grid_visit_tile(b, &sh, (uint32_t)rmg__tile(b->w, b->h, o->x, o->y, o->z));
        if (walk_in_zone(b, v))
            return v;
    }
    uint32_t centre = rmg__grid_zone_centre(b, z->id);
    for (int r = 0; r < RMG__MAX(b->w, b->h); r++) {
        int cx = rmg__grid_x(b, centre), cy = rmg__grid_y(b, centre);
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++) {
                if (x < 0 || y < 0 || x >= b->w || y >= b->h || (RMG__MAX(abs(x - cx), abs(y - cy)) != r))
                    continue;
                uint32_t t = (uint32_t)rmg__tile(b->w, b->h, x, y, z->level);
                if (kept_walk_in_zone(b, t))
                    return t;
            }
    }
    return UINT32_MAX;
}

/* Tiles kept only for looks: parts of a wide opening off its crossing, road tiles. They may be
 * filled when walled off; entries, guards, skeleton and crossing tiles may not. */
static bool optional(const rmg__grid *b, uint32_t t)
{
    return !(b->m->flags[t] & (RMG__T_ENTRY | RMG__T_GUARD | RMG__T_FREE));
}

/* Step 2 keeps a distance field to the main area (b->dist, b->prev) in a queue of (distance,
 * tile) entries, popped in that order, with lazy deletion. When the search meets a kept tile
 * outside the main area, the shortest path to it is kept, its part of the network becomes main,
 * and the new main tiles enter the queue at distance 0: distances only ever decrease, so the
 * field stays exactly the distance to the current main area without restarting the search (one
 * search for the zone instead of one per joined part). */

/* Makes the part of the network around `from` main and puts its tiles in the queue as sources;
 * *apart (kept walkable tiles not main) loses them. */
static bool join_part(rmg__grid *b, uint32_t from, rmg__grid_levels *q, size_t *apart, bool fair)
{
    size_t n = flood_main(b, from, fair);
    *apart -= n;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = b->queue[i];
        b->dist[t] = 0;
        b->prev[t] = 0;
        if (!rmg__grid_levels_push(b->ctx, q, 0, t))
            return false;
    }
    return true;
}

/* Drops the kept tiles no path reached; returns how many of them were needed. */
static size_t drop_unjoined(rmg__grid *b, const uint32_t *tiles, size_t n, uint32_t *first_lost)
{
    size_t unjoined = 0;
    for (size_t i = 0; i < n; i++)
        if (kept_walk_in_zone(b, tiles[i]) && !(b->mark[tiles[i]] & MK_MAIN)) {
            b->mark[tiles[i]] = (uint8_t)((b->mark[tiles[i]] & ~MK_KEEP) | MK_DROP);
            if (optional(b, tiles[i])) {
                b->m->road[tiles[i]] = 0;
                continue;
            }
            if (!unjoined++)
                *first_lost = tiles[i];
        }
    return unjoined;
}

/* The search of step 2 from the sources queued in q: each kept part it meets joins the main
 * area by the shortest path. Steps into an object's entry from above count only when not `fair`. */
static rmg_status join_search(rmg__grid *b, rmg__grid_levels *q, size_t *apart, bool fair)
{
    uint32_t t;
    size_t level;
    /* b->queue is free between two joins (flood_main's list is queued at once): it is the
     * scratch of the bucket sort. Once every kept tile is main, the rest of the search could only
     * lower distances no one reads: it stops there. */
    while (*apart > 0 && rmg__grid_levels_pop(q, b->queue, &level, &t)) {
        uint32_t d = (uint32_t)level, nb[8];
        if (d != b->dist[t])
            continue; /* stale: a shorter distance was found after this entry */
        int n_nb = rmg__grid_nbrs(b, t, nb);
        for (int k = 0; k < n_nb; k++) {
            uint32_t u = nb[k];
            if ((b->mark[u] & (MK_MAIN | MK_WALK)) != MK_WALK || d + 1 >= b->dist[u] || !enters_fairly(b, t, u, fair))
                continue;
            b->dist[u] = d + 1;
            b->prev[u] = t + 1;
            if (b->mark[u] & MK_KEEP) {
                rmg__grid_trace(b, u, keep_path_tile, apart);
                if (!join_part(b, u, q, apart, fair))
                    return rmg__error_nomem(b->ctx);
                if (*apart == 0)
                    break;
            } else if (!rmg__grid_levels_push(b->ctx, q, d + 1, u)) {
                return rmg__error_nomem(b->ctx);
            }
        }
    }
    return RMG_OK;
}

/* Step 2: joins every kept tile to the main area, as a hero walks (entries not entered from
 * above); a part that only an entry from above reaches is then joined the way the tiles touch,
 * rather than cut off. Returns how many could not be joined in *unjoined. */
static rmg_status join_kept(rmg__grid *b, const uint32_t *tiles, size_t n, uint32_t root, rmg__grid_levels *q,
                            size_t *unjoined, uint32_t *first_lost)
{
    size_t apart = 0; /* kept walkable tiles not main yet */
    for (size_t i = 0; i < n; i++) {
        b->dist[tiles[i]] = UINT32_MAX;
        apart += kept_walk_in_zone(b, tiles[i]);
    }
    rmg__grid_levels_clear(q);
    if (!join_part(b, root, q, &apart, true))
        return rmg__error_nomem(b->ctx);
    rmg_status st = join_search(b, q, &apart, true);
    if (st == RMG_OK && apart > 0) {
        rmg__grid_levels_clear(q);
        for (size_t i = 0; i < n; i++) {
            uint32_t t = tiles[i];
            b->dist[t] = UINT32_MAX;
            if (!(b->mark[t] & MK_MAIN))
                continue;
            b->dist[t] = 0;
            b->prev[t] = 0;
            if (!rmg__grid_levels_push(b->ctx, q, 0, t))
                return rmg__error_nomem(b->ctx);
        }
        st = join_search(b, q, &apart, false);
    }
    if (st != RMG_OK)
        return st;
    *unjoined = apart ? drop_unjoined(b, tiles, n, first_lost) : 0; /* apart: what it would drop */
    return RMG_OK;
}

/* The clearing block of tile t. */
static int clearing_block(const rmg__grid *b, uint32_t t, int bw)
{
    int x, y, z;
    rmg__grid_xyz(b, t, &x, &y, &z);
    return (y / BLOCK_SIDE) * bw + x / BLOCK_SIDE;
}

/* Step 3: open margins and clearings, grown outwards from the main area in BFS order so every
 * open tile touches one nearer to the network. */
static void open_space(rmg__grid *b, const uint32_t *tiles, size_t n, const uint8_t *clear_blocks, int bw)
{
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (b->mark[tiles[i]] & MK_MAIN) {
            b->mark[tiles[i]] |= MK_OPEN | MK_SEEN;
            b->dist[tiles[i]] = 0;
            b->queue[tail++] = tiles[i];
        }
    while (head < tail) {
        uint32_t t = b->queue[head++], nb[8];
        int n_nb = rmg__grid_nbrs(b, t, nb);
        for (int d = 0; d < n_nb; d++) {
            uint32_t u = nb[d];
            if ((b->mark[u] & (MK_SEEN | MK_WALK)) != MK_WALK)
                continue; /* seen, or not walkable land of the zone */
            b->mark[u] |= MK_SEEN;
            uint32_t du = b->dist[t] + 1;
            if (du > 1 && !(du <= 1 + OPEN_REACH && clear_blocks[clearing_block(b, u, bw)]))
                continue;
            b->dist[u] = du;
            b->mark[u] |= MK_OPEN;
            b->queue[tail++] = u;
        }
    }
}

/* ---- step 5: obstacle objects -------------------------------------------------------------- */

/* An obstacle's footprint as the tiles to test: offsets back from the anchor's index (the map
 * width is fixed for the run) and how far up and left the footprint reaches. */
typedef struct obstacle_shape {
    const rmg__object_def *def;
    uint64_t block;       /* the footprint's blocked cells (its 48 bits) */
    uint32_t offset[48];
    uint8_t n, max_dx, max_dy;
    uint8_t lead_dx, lead_dy; /* the anchor from the last blocked cell in reading order */
    uint8_t lead;             /* lead_dy * 8 + lead_dx: the frame it is tested against */
} obstacle_shape;

/* The shapes of one footprint mask (many sprites share one: a terrain's few hundred obstacles
 * have a few dozen masks), tested once per tile for all of them. */
typedef struct shape_group {
    const obstacle_shape *shape; /* the first of them (all have its mask) */
    uint32_t first, count;       /* their indexes in fit[]: members[first .. first + count) */
    uint64_t weight;             /* their chance together among the groups that fit */
} shape_group;

typedef struct obstacle_defs {
    const rmg__object_def **defs;  /* content obstacles, biggest footprint first */
    size_t n;
    obstacle_shape *fit;           /* scratch (n): the shapes of one terrain's, same order */
    shape_group *groups;           /* scratch (n): fit[] by footprint mask, biggest first */
    uint32_t *members;             /* scratch (n): the fit[] indexes of each group, group by group */
    uint64_t *drawn_shape;         /* scratch (n): the index in groups[] of each group that fits a tile */
    uint64_t *drawn;               /* scratch (n): running weight sums of the shapes that fit a tile */
    uint64_t *cover;               /* scratch: a bit per tile (and a spare word), MK_COVER while
                                    * obstacle_objects runs, else clear */
} obstacle_defs;

static int popcount48(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static rmg_status collect_obstacle_defs(rmg__grid *b, obstacle_defs *od)
{
    const struct rmg_content *c = b->g->content;
    od->defs = NULL;
    od->fit = NULL;
    od->cover = od->drawn_shape = od->drawn = NULL;
    od->groups = NULL;
    od->members = NULL;
    od->n = 0;
    if (!c || !c->map_objects)
        return RMG_OK;
    od->defs = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->defs);
    od->fit = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->fit);
    od->drawn_shape = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->drawn_shape);
    od->drawn = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->drawn);
    od->groups = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->groups);
    od->members = rmg__malloc(b->ctx, (c->n_map_objects ? c->n_map_objects : 1) * sizeof *od->members);
    od->cover = rmg__calloc(b->ctx, (size_t)b->n / 64 + 2, sizeof *od->cover);
    if (!od->defs || !od->fit || !od->drawn_shape || !od->drawn || !od->groups || !od->members || !od->cover)
        return rmg__error_nomem(b->ctx);
    for (size_t i = 0; i < c->n_map_objects; i++) {
        const rmg__object_def *d = &c->map_objects[i];
        if (d->family && !strcmp(d->family, "obstacle") && d->footprint.block && !d->footprint.visit)
            od->defs[od->n++] = d;
    }
    /* Biggest footprint first, content order among equals: a counting sort by size (stable),
     * through the scratch fit[] (as wide as defs[]). */
    size_t start[49] = {0};
    const rmg__object_def **sorted = (const rmg__object_def **)(void *)od->fit;
    for (size_t i = 0; i < od->n; i++)
        start[48 - popcount48(od->defs[i]->footprint.block & RMG__GRID_FOOT_BITS)]++;
    for (size_t k = 0, sum = 0; k < 49; k++) {
        size_t count = start[k];
        start[k] = sum;
        sum += count;
    }
    for (size_t i = 0; i < od->n; i++)
        sorted[start[48 - popcount48(od->defs[i]->footprint.block & RMG__GRID_FOOT_BITS)]++] = od->defs[i];
    memcpy((void *)od->defs, sorted, od->n * sizeof *od->defs);
    return RMG_OK;
}

/* A tile an obstacle object may cover: blocked land of the zone without an object yet (filled
 * land, a sealed border, the seal around a guarded cluster). In the game only terrain and
 * objects block, so every such tile must end under an obstacle. */
static bool coverable_tile(const rmg__grid *b, int zone, size_t t)
{
    uint16_t f = b->m->flags[t];
    /* The flags first: they decide most tiles without reading the zone and object arrays. */
    return (f & (RMG__T_BLOCKED | RMG__T_WATER | RMG__T_ROCK | RMG__T_PASSAGE)) == RMG__T_BLOCKED &&
           b->m->tile_zone[t] == zone && !b->m->tile_object[t];
}

static bool coverable(const rmg__grid *b, int zone, int x, int y, int z)
{
    return x >= 0 && y >= 0 && x < b->w && y < b->h && coverable_tile(b, zone, rmg__tile(b->w, b->h, x, y, z));
}

/* Whether an obstacle with footprint `block` fits at anchor: every tile coverable. */
static bool obstacle_fits(const rmg__grid *b, uint64_t block, uint32_t anchor, int zone)
{
    int ax = rmg__grid_x(b, anchor), ay = rmg__grid_y(b, anchor), z = rmg__grid_z(b, anchor);
    for (uint64_t rest = block & RMG__GRID_FOOT_BITS; rest; rest &= rest - 1) {
        int bit = rmg__grid_low_bit(rest);
        if (!coverable(b, zone, ax - (7 - bit % 8), ay - (5 - bit / 8), z))
            return false;
    }
    return true;
}

static void shape_of(const rmg__grid *b, const rmg__object_def *d, obstacle_shape *sh)
{
    sh->def = d;
    sh->block = d->footprint.block & RMG__GRID_FOOT_BITS;
    sh->n = sh->max_dx = sh->max_dy = 0;
    int lead = 47; /* the highest blocked cell (collect_obstacle_defs keeps footprints with one) */
    while (lead > 0 && !((sh->block >> lead) & 1))
        lead--;
    sh->lead_dx = (uint8_t)(7 - lead % 8);
    sh->lead_dy = (uint8_t)(5 - lead / 8);
    sh->lead = (uint8_t)(sh->lead_dy * 8 + sh->lead_dx);
    for (uint64_t rest = d->footprint.block & RMG__GRID_FOOT_BITS; rest; rest &= rest - 1) {
        int bit = rmg__grid_low_bit(rest), dx = 7 - bit % 8, dy = 5 - bit / 8;
        sh->offset[sh->n++] = (uint32_t)dy * (uint32_t)b->w + (uint32_t)dx;
        sh->max_dx = (uint8_t)RMG__MAX(sh->max_dx, dx);
        sh->max_dy = (uint8_t)RMG__MAX(sh->max_dy, dy);
    }
}

/* The same test on the zone being filled, through MK_COVER (coverable() of its tiles, kept up
 * to date as objects land): one byte per footprint tile instead of three arrays. */
static bool obstacle_fits_zone(const rmg__grid *b, const obstacle_shape *sh, uint32_t anchor, int ax, int ay)
{
    if (ax < sh->max_dx || ay < sh->max_dy)
        return false; /* off the map (footprints extend up and left of the anchor only) */
    for (int k = 0; k < sh->n; k++)
        if (!(b->mark[anchor - sh->offset[k]] & MK_COVER))
            return false;
    return true;
}

static void uncover(rmg__grid *b, uint64_t *cover, uint64_t block, uint32_t anchor)
{
    for (uint64_t rest = block & RMG__GRID_FOOT_BITS; rest; rest &= rest - 1) {
        int bit = rmg__grid_low_bit(rest);
        uint32_t t = anchor - (uint32_t)(5 - bit / 8) * (uint32_t)b->w - (uint32_t)(7 - bit % 8);
        b->mark[t] &= (uint8_t)~MK_COVER;
        cover[t / 64] &= ~(UINT64_C(1) << (t % 64));
    }
}

/* The 8 bits of `cover` from tile t on (bit i: tile t + i). */
static uint64_t cover_byte(const uint64_t *cover, uint32_t t)
{
    uint32_t shift = t % 64;
    uint64_t v = cover[t / 64] >> shift;
    if (shift > 56)
        v |= cover[t / 64 + 1] << (64 - shift);
    return v & 0xFFu;
}

/* Which cells of a footprint anchored at t may be covered, as a footprint mask (bit row*8 + col,
 * the cell 5 - row rows up and 7 - col columns left), when the whole 8x6 frame lies on t's
 * level: an obstacle fits where its blocked cells are all in it, one test per obstacle. */
static uint64_t cover_frame(const rmg__grid *b, const uint64_t *cover, uint32_t t)
{
    uint64_t frame = 0;
    for (uint32_t row = 0; row < 6; row++)
        frame |= cover_byte(cover, t - (5 - row) * (uint32_t)b->w - 7) << (8 * row);
    return frame;
}

/* The zone's coverable tiles (MK_COVER) get their bits in `cover` (set), or lose them. */
static void mark_cover(uint64_t *cover, const rmg__grid *b, const uint32_t *tiles, size_t n, bool set)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t t = tiles[i];
        if (set && (b->mark[t] & MK_COVER))
            cover[t / 64] |= UINT64_C(1) << (t % 64);
        else if (!set)
            cover[t / 64] &= ~(UINT64_C(1) << (t % 64));
    }
}

/* Step 5's rule, read off the game's random maps: fewer, larger obstacles than a tile-by-tile
 * fill gives (on Jebus Cross XL about 3 tiles per obstacle; about as many obstacles of 10-14
 * tiles as of 6-9, one in six a single tile), drawn from every sprite the terrain allows.
 * The zone is filled in passes, the largest shapes first (PASS_MIN: a pass may use the shapes
 * of at least that many tiles). A pass takes the zone's coverable tiles in reverse reading
 * order (bottom row first, right to left), so when it reaches a tile every tile below it and
 * right of it in its row has had its turn; the tile, if still uncovered, gets an obstacle whose
 * last blocked cell in reading order lands on it, drawn among all the pass's shapes that fit
 * there. A shape's chance is its size squared, shared among the zone's shapes of that size (a
 * terrain with many one-tile sprites does not draw one-tile obstacles more often for it), so
 * larger ones win where they fit and every sprite gets its turn. The game also lets obstacles
 * overlap one another, which the map model does not (docs/deviations.md): its masses are the
 * blocked land itself, and where that is narrow smaller obstacles fill it.
 * Cost: per pass and uncovered tile, one mask test per shape of the pass (a few hundred). */
#define MAX_FOOT 48
#define WEIGHT_SCALE 65536u
static const uint8_t PASS_MIN[] = {10, 6, 3, 2, 1};

/* Groups the zone's n_fit shapes by footprint mask (in fit[]'s order: biggest first) and weighs
 * each group: size squared shared among the zone's shapes of that size, times its shapes.
 * Returns the number of groups. Cost: shapes x groups mask compares, once per zone. */
static size_t group_shapes(const obstacle_defs *od, size_t n_fit)
{
    uint32_t per_size[MAX_FOOT + 1] = {0};
    size_t n_groups = 0;
    for (size_t k = 0; k < n_fit; k++) {
        per_size[od->fit[k].n]++;
        size_t g = 0;
        while (g < n_groups && od->groups[g].shape->block != od->fit[k].block)
            g++;
        if (g == n_groups)
            od->groups[n_groups++] = (shape_group){&od->fit[k], 0, 0, 0};
        od->groups[g].count++;
        od->drawn_shape[k] = g; /* scratch: each shape's group */
    }
    for (size_t g = 0, first = 0; g < n_groups; g++) {
        shape_group *gr = &od->groups[g];
        uint64_t n = gr->shape->n;
        gr->weight = gr->count * (n * n * WEIGHT_SCALE / per_size[n]);
        gr->first = (uint32_t)first;
        first += gr->count;
        gr->count = 0;
    }
    for (size_t k = 0; k < n_fit; k++) {
        shape_group *gr = &od->groups[od->drawn_shape[k]];
        od->members[gr->first + gr->count++] = (uint32_t)k;
    }
    return n_groups;
}

/* Whether shape sh fits with its lead cell on tile t = (x, y); frames[lead] caches the coverable
 * frame of each anchor looked at for t (bit lead of *framed: computed). */
static bool lead_fits(const rmg__grid *b, const obstacle_defs *od, const obstacle_shape *sh, uint32_t t, int x, int y,
                      uint64_t frames[MAX_FOOT], uint64_t *framed)
{
    int ax = x + sh->lead_dx, ay = y + sh->lead_dy;
    if (ax >= b->w || ay >= b->h)
        return false; /* the anchor stays on the map */
    uint32_t anchor = t + (uint32_t)sh->lead_dy * (uint32_t)b->w + sh->lead_dx;
    if (ax < 7 || ay < 5) /* the frame leaves the map: cell by cell */
        return obstacle_fits_zone(b, sh, anchor, ax, ay);
    uint64_t bit = UINT64_C(1) << sh->lead;
    if (!(*framed & bit)) {
        frames[sh->lead] = cover_frame(b, od->cover, anchor);
        *framed |= bit;
    }
    return !(sh->block & ~frames[sh->lead]);
}

/* Among groups[from .. to), those whose mask fits with its lead cell on tile t: one drawn by
 * weight, then one of its shapes (all of equal weight); NULL when none fits. */
static const obstacle_shape *draw_shape(const rmg__grid *b, const obstacle_defs *od, size_t from, size_t to,
                                        uint32_t t, rmg_rng *rng)
{
    int x, y, level;
    rmg__grid_xyz(b, t, &x, &y, &level);
    uint64_t frames[MAX_FOOT], framed = 0, total = 0;
    size_t n_drawn = 0;
    for (size_t g = from; g < to; g++) {
        if (!lead_fits(b, od, od->groups[g].shape, t, x, y, frames, &framed))
            continue;
        total += od->groups[g].weight;
        od->drawn[n_drawn] = total;
        od->drawn_shape[n_drawn++] = g;
    }
    if (!n_drawn)
        return NULL;
    uint64_t r = rmg_rng_below(rng, total);
    size_t lo = 0, hi = n_drawn - 1;
    while (lo < hi) { /* the first running sum above r */
        size_t mid = lo + (hi - lo) / 2;
        if (od->drawn[mid] > r)
            hi = mid;
        else
            lo = mid + 1;
    }
    const shape_group *gr = &od->groups[od->drawn_shape[lo]];
    return &od->fit[od->members[gr->first + (gr->count > 1 ? rmg_rng_below(rng, gr->count) : 0)]];
}

static rmg_status place_obstacles(rmg__grid *b, const rmg__map_zone *z, const uint32_t *tiles, size_t n,
                                  const obstacle_defs *od, size_t n_all, rmg_rng *rng)
{
    /* groups[] is sorted biggest first. A tile a pass leaves uncovered has no room for the
     * pass's shapes, and the coverable tiles only shrink: a later pass needs to try only its
     * own smaller shapes, groups[from .. to). */
    size_t from = 0, to = 0;
    for (size_t pass = 0; pass < sizeof PASS_MIN; pass++, from = to) {
        while (to < n_all && od->groups[to].shape->n >= PASS_MIN[pass])
            to++;
        for (size_t i = n; to > from && i-- > 0;) {
            uint32_t t = tiles[i];
            if (!(b->mark[t] & MK_COVER))
                continue;
            const obstacle_shape *sh = draw_shape(b, od, from, to, t, rng);
            if (!sh)
                continue; /* no shape of the pass fits: a later pass, cover_leftovers or validation */
            uint32_t anchor = t + (uint32_t)sh->lead_dy * (uint32_t)b->w + sh->lead_dx;
            rmg__map_object *o = rmg__map_add_object(b->m, sh->def->key, RMG_OBJECT_OBSTACLE,
                                                     rmg__grid_x(b, anchor), rmg__grid_y(b, anchor), z->level);
            if (!o)
                return RMG_ERR_NOMEM;
            o->block = sh->def->footprint.block;
            o->zone = z->id;
            rmg__map_stamp_object(b->m, o);
            uncover(b, od->cover, sh->def->footprint.block, anchor);
        }
    }
    return RMG_OK;
}

static rmg_status obstacle_objects(rmg__grid *b, const rmg__map_zone *z, uint32_t *tiles, size_t n,
                                   const obstacle_defs *od, rmg_rng *rng)
{
    if (!od->n)
        return RMG_OK;
    /* The obstacles the zone's terrain allows, picked once for the zone rather than per tile. */
    uint32_t terrain_bit = z->terrain >= 0 && z->terrain < 32 ? 1u << z->terrain : 0;
    size_t n_fit = 0;
    for (size_t k = 0; k < od->n; k++)
        if (!od->defs[k]->terrains || (od->defs[k]->terrains & terrain_bit))
            shape_of(b, od->defs[k], &od->fit[n_fit++]);
    size_t n_groups = group_shapes(od, n_fit);
    mark_cover(od->cover, b, tiles, n, true);
    rmg_status st = place_obstacles(b, z, tiles, n, od, n_groups, rng);
    mark_cover(od->cover, b, tiles, n, false);
    return st;
}

/* Which blocks of the zone's bounding box hold clearings: drawn for the box only, so a zone
 * costs its own size rather than the map's. */
static void draw_clearings(const rmg__grid *b, const uint32_t *tiles, size_t n, rmg_rng *rng, uint8_t *clear_blocks,
                           int bw, int percent)
{
    int x0 = b->w, y0 = b->h, x1 = -1, y1 = -1, y = 0;
    uint32_t row_start = 1, row_end = 0; /* the row of the last tile (divided once per row) */
    for (size_t i = 0; i < n; i++) {
        uint32_t t = tiles[i];
        if (t < row_start || t >= row_end) {
            int rx, z;
            rmg__grid_xyz(b, t, &rx, &y, &z);
            row_start = t - (uint32_t)rx;
            row_end = row_start + (uint32_t)b->w;
        }
        int x = (int)(t - row_start);
        x0 = RMG__MIN(x0, x);
        x1 = RMG__MAX(x1, x);
        y0 = RMG__MIN(y0, y);
        y1 = RMG__MAX(y1, y);
    }
    for (int by = y0 / BLOCK_SIDE; by <= y1 / BLOCK_SIDE; by++)
        for (int bx = x0 / BLOCK_SIDE; bx <= x1 / BLOCK_SIDE; bx++)
            clear_blocks[by * bw + bx] = rmg_rng_below(rng, 100) < (uint64_t)percent;
}

/* PLC-13: a rock mass on the surface is land the connect stage blocked whole; obstacle objects
 * cover all of it. */
static bool rock_mass_on_land(const rmg__map_zone *z)
{
    return z->kind == RMG_ZONE_ROCK && z->terrain != RMG_TERRAIN_ROCK && z->terrain != RMG_TERRAIN_WATER;
}

/* Steps 2 and 3 for a land zone: its kept network joined from its main area, the open space
 * around it. *unjoined: kept tiles no path reaches (the first in *lost). */
static rmg_status keep_network(rmg__grid *b, uint32_t *tiles, size_t n, uint32_t root, rmg__grid_levels *q,
                               rmg_rng *rng, uint8_t *clear_blocks, int bw, int clearing_percent, size_t *unjoined,
                               uint32_t *lost)
{
    b->mark[root] |= MK_KEEP;
    rmg_status st = join_kept(b, tiles, n, root, q, unjoined, lost);
    if (st != RMG_OK)
        return st;
    draw_clearings(b, tiles, n, rng, clear_blocks, bw, clearing_percent);
    open_space(b, tiles, n, clear_blocks, bw);
    return RMG_OK;
}

/* Steps 2 to 4 for a zone: its kept network and open space, the rest blocked. *filled: whether
 * the zone was (a zone without a main area keeps its land as it is). */
static rmg_status fill_zone(rmg__grid *b, const rmg__map_zone *z, uint32_t *tiles, size_t n, rmg__grid_levels *q,
                            uint8_t *clear_blocks, int bw, int clearings, rmg_rng *rng, bool *filled)
{
    uint32_t lost = 0;
    size_t unjoined = 0;
    *filled = false;
    if (!rock_mass_on_land(z)) { /* a rock mass keeps nothing open: all of it gets obstacles */
        uint32_t root = zone_root(b, z);
        if (root == UINT32_MAX)
            return RMG_OK;
        rmg_status st = keep_network(b, tiles, n, root, q, rng, clear_blocks, bw, clearings, &unjoined, &lost);
        if (st != RMG_OK)
            return st;
    }
    *filled = true;
    for (size_t i = 0; i < n; i++) { /* step 4 */
        uint32_t t = tiles[i];
        if ((b->mark[t] & (MK_WALK | MK_OPEN)) == MK_WALK &&
            (!needed(b, t) || ((b->mark[t] & MK_DROP) && optional(b, t))))
            b->m->flags[t] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
    }
    if (unjoined)
        return rmg__map_warn(b->m,
                             "zone %d (template zone %d): %zu needed tile(s) cannot be reached from the main area, "
                             "first at %d,%d,%d (flags %#x)",
                             z->id, z->tpl_id, unjoined, rmg__grid_x(b, lost), rmg__grid_y(b, lost), rmg__grid_z(b, lost),
                             (unsigned)b->m->flags[lost]);
    return RMG_OK;
}

/* The zone's tiles into tiles[]; returns how many. */
static size_t zone_tiles(const rmg__grid_zone_index *zi, int zone, uint32_t *tiles)
{
    size_t n = 0;
    for (uint32_t i = zi->start[zone]; i < zi->start[zone + 1]; i++)
        tiles[n++] = zi->tiles[i];
    return n;
}

static rmg_status fill_land_zone(rmg__grid *b, const rmg__map_zone *z, const rmg__grid_zone_index *zi, uint32_t *tiles,
                                 rmg__grid_levels *q, uint8_t *clear_blocks, int bw, int clearings, rmg_rng *rng,
                                 bool *filled)
{
    size_t n = zone_tiles(zi, z->id, tiles);
    for (size_t i = 0; i < n; i++) {
        uint32_t t = tiles[i];
        b->mark[t] = (uint8_t)((needed(b, t) ? MK_KEEP : 0) | (walkable(b, t) ? MK_WALK : 0));
    }
    rmg_status st = fill_zone(b, z, tiles, n, q, clear_blocks, bw, clearings, rng, filled);
    /* MK_WALK and MK_SEEN stand for "of this zone": neither may stay for the next zone's
     * searches. */
    for (size_t i = 0; i < n; i++)
        b->mark[tiles[i]] &= (uint8_t)~(MK_WALK | MK_SEEN);
    return st;
}

/* Step 5 for a filled zone: obstacle objects on its blocked land, drawn with the zone's stream
 * after its clearings. */
static rmg_status cover_land_zone(rmg__grid *b, const rmg__map_zone *z, const rmg__grid_zone_index *zi, uint32_t *tiles,
                                  const obstacle_defs *od, rmg_rng *rng)
{
    size_t n = zone_tiles(zi, z->id, tiles);
    for (size_t i = 0; i < n; i++)
        if (coverable_tile(b, z->id, tiles[i]))
            b->mark[tiles[i]] |= MK_COVER;
    rmg_status st = obstacle_objects(b, z, tiles, n, od, rng);
    for (size_t i = 0; i < n; i++) /* MK_COVER stands for "of this zone" */
        b->mark[tiles[i]] &= (uint8_t)~MK_COVER;
    return st;
}

/* The seals of treasure groups at sea (lib/objects/sea.c): water tiles flagged OBSTACLE get the
 * water obstacles (rocks, reefs), since in the game only objects block a boat. */
static rmg_status obstacles_at_sea(rmg__grid *b, const rmg__map_zone *z, const rmg__grid_zone_index *zi, uint32_t *tiles,
                                   const obstacle_defs *od)
{
    size_t n = 0;
    for (uint32_t i = zi->start[z->id]; i < zi->start[z->id + 1]; i++) {
        uint32_t t = zi->tiles[i];
        if ((b->m->flags[t] & (RMG__T_WATER | RMG__T_OBSTACLE)) == (RMG__T_WATER | RMG__T_OBSTACLE) &&
            !b->m->tile_object[t]) {
            b->mark[t] |= MK_COVER;
            tiles[n++] = t;
        }
    }
    if (!n)
        return RMG_OK;
    rmg_rng rng;
    rmg__gen_stream(b->g, "obstacles", (uint64_t)z->id, &rng);
    rmg_status st = obstacle_objects(b, z, tiles, n, od, &rng);
    for (size_t i = 0; i < n; i++)
        b->mark[tiles[i]] &= (uint8_t)~MK_COVER;
    return st;
}

/* Zones whose blocked land must lie under objects: land zones and rock masses on land. */
static bool covered_zone(const rmg__grid *b, int zone)
{
    const rmg__map_zone *z = rmg__grid_zone(b, zone);
    return z && (rmg__grid_land_zone(b, zone) || rock_mass_on_land(z));
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

/* WAT-03: in a mirror pack the underground is the surface's copy tile for tile, so obstacles
 * are drawn on the surface zones only and copied below: the filled tiles, the obstacle objects
 * the obstacles stage added (from object index `first`) and the roads it dropped. */
static bool mirror_map(const rmg__grid *b)
{
    return b->g->pack && b->g->pack->mirror && b->levels == 2;
}

static rmg_status copy_obstacles_below(rmg__grid *b, size_t first)
{
    struct rmg_map *m = b->m;
    uint32_t plane = (uint32_t)b->w * (uint32_t)b->h;
    for (uint32_t t = 0; t < plane; t++) {
        uint32_t u = t + plane;
        if (!rmg__grid_land_zone(b, m->tile_zone[u]))
            continue;
        if ((m->flags[t] & RMG__T_OBSTACLE) && walkable(b, u) && !(m->flags[u] & (RMG__T_ENTRY | RMG__T_GUARD)))
            m->flags[u] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
        m->road[u] = walkable(b, u) ? m->road[t] : 0;
    }
    size_t n = m->objects.count;
    for (size_t i = first; i < n; i++) {
        rmg__map_object o = m->objects.items[i]; /* by value: the array may move */
        if (o.kind != RMG_OBJECT_OBSTACLE || o.z != 0 || o.x >= b->w || o.y >= b->h)
            continue;
        /* The zone below is the one under a blocked cell: the anchor need not be one of them. */
        int cell = rmg__grid_low_bit(o.block & RMG__GRID_FOOT_BITS), cx = o.x - (7 - cell % 8), cy = o.y - (5 - cell / 8);
        uint32_t below = (uint32_t)rmg__tile(b->w, b->h, o.x, o.y, 1);
        int zone = cx >= 0 && cy >= 0 ? m->tile_zone[rmg__tile(b->w, b->h, cx, cy, 1)] : 0;
        if (!zone || !obstacle_fits(b, o.block, below, zone))
            continue;
        rmg__map_object *c = rmg__map_add_object(m, o.key, RMG_OBJECT_OBSTACLE, o.x, o.y, 1);
        if (!c)
            return rmg__error_nomem(b->ctx);
        c->block = o.block;
        c->zone = zone;
        rmg__map_stamp_object(m, c);
    }
    return RMG_OK;
}

/* A one-tile obstacle of each terrain (its only blocked tile the anchor), the first in content
 * order; NULL where the content has none. */
static void one_tile_obstacles(const obstacle_defs *od, const rmg__object_def *out[RMG_TERRAIN_COUNT])
{
    for (int terrain = 0; terrain < RMG_TERRAIN_COUNT; terrain++) {
        out[terrain] = NULL;
        for (size_t k = od->n; k-- > 0 && !out[terrain];) /* biggest first: the last are the smallest */
            if (od->defs[k]->footprint.block == ANCHOR_BIT &&
                (!od->defs[k]->terrains || (od->defs[k]->terrains & (1u << terrain))))
                out[terrain] = od->defs[k];
    }
}

/* What the zones' filling left blocked without an object (a mirror copy where the surface's
 * obstacle did not fit below, a tile a stage plugin blocked) gets a one-tile obstacle. */
static rmg_status cover_leftovers(rmg__grid *b, const obstacle_defs *od)
{
    const rmg__object_def *single[RMG_TERRAIN_COUNT];
    one_tile_obstacles(od, single);
    struct rmg_map *m = b->m;
    for (uint32_t t = 0; t < b->n; t++) {
        int zone = m->tile_zone[t];
        if ((m->flags[t] & (RMG__T_BLOCKED | RMG__T_WATER | RMG__T_ROCK | RMG__T_PASSAGE)) != RMG__T_BLOCKED ||
            m->tile_object[t] || !zone || !covered_zone(b, zone))
            continue; /* coverable_tile, the flags first */
        const rmg__map_zone *z = &m->zones.items[zone - 1];
        const rmg__object_def *d = z->terrain >= 0 && z->terrain < RMG_TERRAIN_COUNT ? single[z->terrain] : NULL;
        if (!d)
            continue;
        int x, y, level;
        rmg__grid_xyz(b, t, &x, &y, &level);
        rmg__map_object *o = rmg__map_add_object(m, d->key, RMG_OBJECT_OBSTACLE, x, y, level);
        if (!o)
            return rmg__error_nomem(b->ctx);
        o->block = d->footprint.block;
        o->zone = zone;
        rmg__map_stamp_object(m, o);
    }
    return RMG_OK;
}

/* The underground's cave walls (finish_cave.c) over the land zones filled on it, whose tiles
 * go into tiles[]. */
static rmg_status cave_walls(rmg__grid *b, const rmg__grid_zone_index *zi, const bool *filled, uint32_t *tiles)
{
    size_t n = 0, plane = (size_t)b->w * (size_t)b->h;
    for (size_t i = 0; i < b->m->zones.count; i++) {
        const rmg__map_zone *z = &b->m->zones.items[i];
        if (filled[i] && z->level == 1 && !rock_mass_on_land(z))
            n += zone_tiles(zi, z->id, tiles + n);
    }
    rmg__map_fit *fit = rmg__map_fit_new(b->ctx);
    uint32_t *scratch = rmg__malloc(b->ctx, RMG__FINISH_CAVE_SCRATCH(n, plane) * sizeof *scratch);
    if (fit && scratch)
        rmg__finish_cave_rock(b, fit, tiles, n, MK_CAVE, scratch);
    rmg__map_fit_free(b->ctx, fit);
    rmg__free(b->ctx, scratch);
    return fit && scratch ? RMG_OK : rmg__error_nomem(b->ctx);
}

/* Steps 2 to 5 over the land zones and rock masses, and the water zones' obstacles. With caves
 * (an underground of the map's own, not a mirror's copy) every land zone is filled first, the
 * cave walls drawn over the whole underground, and then the zones covered; else each zone is
 * covered as soon as it is filled. */
static rmg_status fill_and_cover(rmg__grid *b, const rmg__grid_zone_index *zi, uint32_t *tiles, rmg__grid_levels *q,
                                 uint8_t *clear_blocks, int bw, const obstacle_defs *od, bool caves)
{
    struct rmg_map *m = b->m;
    bool mirror = mirror_map(b);
    size_t nz = m->zones.count;
    rmg_rng *rngs = rmg__malloc(b->ctx, (nz + 1) * sizeof *rngs);
    bool *filled = rmg__calloc(b->ctx, nz + 1, sizeof *filled);
    rmg_status st = rngs && filled ? RMG_OK : rmg__error_nomem(b->ctx);
    for (size_t i = 0; i < nz && st == RMG_OK; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if ((rmg__grid_land_zone(b, z->id) && !(mirror && z->level > 0)) || rock_mass_on_land(z)) {
            rmg__gen_stream(b->g, "obstacles", (uint64_t)z->id, &rngs[i]);
            int clearings = caves && z->level == 1 ? CAVE_CLEARING_PERCENT : CLEARING_PERCENT;
            st = fill_land_zone(b, z, zi, tiles, q, clear_blocks, bw, clearings, &rngs[i], &filled[i]);
            if (st == RMG_OK && filled[i] && !caves)
                st = cover_land_zone(b, z, zi, tiles, od, &rngs[i]);
        } else if (z->kind == RMG_ZONE_WATER) {
            st = obstacles_at_sea(b, z, zi, tiles, od);
        }
    }
    if (st == RMG_OK && caves)
        st = cave_walls(b, zi, filled, tiles);
    for (size_t i = 0; i < nz && st == RMG_OK && caves; i++)
        if (filled[i])
            st = cover_land_zone(b, &m->zones.items[i], zi, tiles, od, &rngs[i]);
    rmg__free(b->ctx, rngs);
    rmg__free(b->ctx, filled);
    return st;
}

rmg_status rmg__finish_obstacles(rmg__gen *g)
{
    if (!g || !g->map)
        return rmg__error_set(g ? g->ctx : NULL, RMG_ERR_INVALID_ARG, "obstacles: no map");
    rmg__grid b;
    rmg_status st = rmg__grid_init(&b, g);
    if (st != RMG_OK)
        return st;
    int bw = (b.w + BLOCK_SIDE - 1) / BLOCK_SIDE, bh = (b.h + BLOCK_SIDE - 1) / BLOCK_SIDE;
    uint32_t *tiles = rmg__malloc(b.ctx, (size_t)b.n * sizeof *tiles);
    rmg__grid_levels levels;
    memset(&levels, 0, sizeof levels);
    uint8_t *clear_blocks = rmg__malloc(b.ctx, (size_t)bw * (size_t)bh);
    obstacle_defs od = {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL};
    rmg__grid_zone_index zi = {NULL, NULL};
    if (!tiles || !clear_blocks)
        st = rmg__error_nomem(b.ctx);
    else
        st = collect_obstacle_defs(&b, &od);
    if (st == RMG_OK)
        st = rmg__grid_index_zones(&b, &zi);
    bool mirror = mirror_map(&b);
    size_t first_object = g->map->objects.count;
    if (st == RMG_OK)
        st = fill_and_cover(&b, &zi, tiles, &levels, clear_blocks, bw, &od, b.levels > 1 && !mirror);
    if (st == RMG_OK && mirror)
        st = copy_obstacles_below(&b, first_object);
    if (st == RMG_OK)
        st = cover_leftovers(&b, &od);
    if (st == RMG_OK)
        prune_wide_openings(g->map);
    rmg__grid_zone_index_free(&b, &zi);
    rmg__free(b.ctx, tiles);
    rmg__grid_levels_free(b.ctx, &levels);
    rmg__free(b.ctx, clear_blocks);
    rmg__free(b.ctx, (void *)od.defs);
    rmg__free(b.ctx, od.fit);
    rmg__free(b.ctx, od.cover);
    rmg__free(b.ctx, od.drawn_shape);
    rmg__free(b.ctx, od.drawn);
    rmg__free(b.ctx, od.groups);
    rmg__free(b.ctx, od.members);
    rmg__grid_free(&b);
    return st;
}
