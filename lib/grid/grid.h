/* The tile-grid toolkit the connect and finish stages share: scratch arrays reused by every
 * search, tile geometry, searches over the grid (breadth-first and weighted) and the footprints
 * of the map objects those stages create. Names: rmg__grid_*. */
#ifndef RMG_GRID_H
#define RMG_GRID_H

#include "map/map_internal.h"

/* Scratch state of one connect / finish run: every search reuses these arrays (no per-tile or
 * per-search allocation). */
typedef struct rmg__grid_bucket rmg__grid_bucket;

/* A priority queue of (level, tile) entries (below). */
typedef struct rmg__grid_levels {
    rmg__grid_bucket *bucket;   /* per level (or per level & mask) */
    size_t n_levels;           /* buckets allocated */
    size_t mask;               /* 0: a bucket per level; else a ring of mask + 1 buckets */
    size_t cur;                /* every level below holds no entry */
    size_t top;                /* every level from here up holds no entry */
} rmg__grid_levels;

typedef struct rmg__grid {
    rmg__gen *g;
    struct rmg_map *m;
    rmg_context *ctx;
    int w, h, levels;
    uint32_t n;
    uint32_t *queue;      /* n: BFS queue, or scratch of the weighted search */
    uint32_t *prev;       /* n: predecessor tile + 1 (0 = a source) where seen */
    uint32_t *seen;       /* n: == stamp when visited by the current search */
    uint32_t *dist;       /* n: weighted search distances */
    uint8_t *mark;        /* n: per-run marks (meaning chosen by the user) */
    uint64_t *rim;        /* n bits: tiles in the first or last row or column of their level */
    uint32_t stamp;
    rmg__grid_levels ring; /* the weighted search's queue */
    bool nomem;           /* a weighted search ran out of memory (it then found nothing) */
} rmg__grid;

rmg_status rmg__grid_init(rmg__grid *b, rmg__gen *g);
void rmg__grid_free(rmg__grid *b);
/* Allocates and fills b->rim from b->w, b->h, b->levels (rmg__grid_init does it); false when out
 * of memory. */
bool rmg__grid_init_rim(rmg__grid *b);
/* A fresh visit stamp: tiles with seen[t] == the result count as visited. */
uint32_t rmg__grid_stamp(rmg__grid *b);
/* Appends to out at k every tile of t's level within `reach` steps of t (a square) not yet
 * visited under `stamp`, marking it visited; returns the new count. */
size_t rmg__grid_add_square(rmg__grid *b, uint32_t t, int reach, uint32_t stamp, uint32_t *out, size_t k);

/* Coordinates of tile t: one division for all three (a map has one or two levels, so the level
 * is counted off rather than divided out). The searches and scans call this for every tile. */
static inline void rmg__grid_xyz(const rmg__grid *b, uint32_t t, int *x, int *y, int *z)
{
    uint32_t row = t / (uint32_t)b->w;
    int level = 0;
    *x = (int)(t - row * (uint32_t)b->w);
    while (row >= (uint32_t)b->h) {
        row -= (uint32_t)b->h;
        level++;
    }
    *y = (int)row;
    *z = level;
}

static inline int rmg__grid_x(const rmg__grid *b, uint32_t t) { return (int)(t % (uint32_t)b->w); }
static inline int rmg__grid_y(const rmg__grid *b, uint32_t t)
{
    int x, y, z;
    rmg__grid_xyz(b, t, &x, &y, &z);
    return y;
}
static inline int rmg__grid_z(const rmg__grid *b, uint32_t t) { return (int)(t / ((uint32_t)b->w * (uint32_t)b->h)); }

/* The step of direction d: 0..3 orthogonal (N E S W), 4..7 diagonal (NE SE SW NW). */
static inline int rmg__grid_dx(int d)
{
    static const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    return dx[d];
}

static inline int rmg__grid_dy(int d)
{
    static const int dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    return dy[d];
}

/* Neighbour `dir` (0..3 orthogonal, 4..7 diagonal) of t on the same level; false off the map. */
bool rmg__grid_nbr(const rmg__grid *b, uint32_t t, int dir, uint32_t *out);
/* The on-map neighbours of t in direction order 0..7 (as rmg__grid_nbr gives them), with one
 * division for the whole tile; returns how many. Inline: the searches call it for every tile
 * they take. */
/* Whether t lies off every edge of its level, from one bit (no division). */
static inline bool rmg__grid_inner(const rmg__grid *b, uint32_t t)
{
    if (b->rim)
        return !((b->rim[t >> 6] >> (t & 63)) & 1);
    int x, y, z;
    rmg__grid_xyz(b, t, &x, &y, &z);
    return x > 0 && y > 0 && x < b->w - 1 && y < b->h - 1;
}

static inline int rmg__grid_nbrs(const rmg__grid *b, uint32_t t, uint32_t out[8])
{
    if (b->rim && !((b->rim[t >> 6] >> (t & 63)) & 1)) {
        /* Off every edge (most tiles), known from one bit: all eight, no division. */
        for (int d = 0; d < 8; d++)
            out[d] = (uint32_t)((int64_t)t + (int64_t)rmg__grid_dy(d) * b->w + rmg__grid_dx(d));
        return 8;
    }
    uint32_t row = t / (uint32_t)b->w;
    int x = (int)(t - row * (uint32_t)b->w), n = 0;
    while (row >= (uint32_t)b->h)
        row -= (uint32_t)b->h;
    int y = (int)row;
    if (x > 0 && y > 0 && x < b->w - 1 && y < b->h - 1) {
        /* Off every edge (most tiles): all eight, without a bounds check each. */
        for (int d = 0; d < 8; d++)
            out[d] = (uint32_t)((int64_t)t + (int64_t)rmg__grid_dy(d) * b->w + rmg__grid_dx(d));
        return 8;
    }
    for (int d = 0; d < 8; d++) {
        int nx = x + rmg__grid_dx(d), ny = y + rmg__grid_dy(d);
        if (nx >= 0 && ny >= 0 && nx < b->w && ny < b->h)
            out[n++] = (uint32_t)((int64_t)t + (int64_t)rmg__grid_dy(d) * b->w + rmg__grid_dx(d));
    }
    return n;
}

/* Index of the lowest set bit of mask (mask != 0); inline: footprint scans call it per tile. */
static inline int rmg__grid_low_bit(uint64_t mask)
{
    return rmg__ctz64(mask);
}

/* The 48 bits of a footprint mask (6 rows of 8). */
#define RMG__GRID_FOOT_BITS ((UINT64_C(1) << 48) - 1)
/* Chebyshev distance between two tiles of the same level. */
int rmg__grid_cheb(const rmg__grid *b, uint32_t a, uint32_t c);
/* Squared Euclidean distance between two tiles (levels ignored). */
int64_t rmg__grid_dist2(const rmg__grid *b, uint32_t a, uint32_t c);

/* Zone helpers. */
rmg__map_zone *rmg__grid_zone(const rmg__grid *b, int zone_id);
bool rmg__grid_land_zone(const rmg__grid *b, int zone_id);
uint32_t rmg__grid_zone_centre(const rmg__grid *b, int zone_id);
/* The position of the zone's centre tile (rmg__grid_zone_centre) on its level. */
void rmg__grid_zone_centre_xy(const rmg__grid *b, int zone_id, int *x, int *y);

/* Tiles grouped by zone, ascending within a zone (counting sort), so a per-zone pass costs the
 * zone's size rather than the whole map's: zone z owns tiles[start[z]..start[z + 1]). */
typedef struct rmg__grid_zone_index {
    uint32_t *tiles, *start;
} rmg__grid_zone_index;

rmg_status rmg__grid_index_zones(rmg__grid *b, rmg__grid_zone_index *zi);
void rmg__grid_zone_index_free(rmg__grid *b, rmg__grid_zone_index *zi);

/* Predicates for the searches. */
typedef bool (*rmg__grid_pred)(const rmg__grid *b, uint32_t t, void *user);

/* One neighbour u of t in rmg__grid_bfs: taken (and queued unless it is the goal) when unseen
 * and passable or the goal; returns true for the goal. */
static inline bool rmg__grid_bfs_step(rmg__grid *b, uint32_t t, uint32_t u, uint32_t stamp, rmg__grid_pred pass,
                                      rmg__grid_pred goal, void *user, size_t *tail)
{
    if (b->seen[u] == stamp)
        return false;
    bool is_goal = goal(b, u, user);
    if (!is_goal && !pass(b, u, user))
        return false;
    b->seen[u] = stamp;
    b->prev[u] = t + 1;
    if (!is_goal)
        b->queue[(*tail)++] = u;
    return is_goal;
}

/* Breadth-first search (8 directions) from `sources` over tiles where `pass` holds, stopping
 * at the first tile where `goal` holds (which needs not be passable itself). Returns the goal
 * tile + 1, or 0 when none is reachable. prev[] then describes the path. */
static inline uint32_t rmg__grid_bfs(rmg__grid *b, const uint32_t *sources, size_t n_sources, rmg__grid_pred pass,
                                    rmg__grid_pred goal, void *user)
{
    /* Inline so the compiler can call the predicates directly: this search dominates the
     * finish stage. */
    uint32_t stamp = rmg__grid_stamp(b);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n_sources; i++) {
        uint32_t s = sources[i];
        if (b->seen[s] == stamp)
            continue;
        b->seen[s] = stamp;
        b->prev[s] = 0;
        if (goal(b, s, user))
            return s + 1;
        b->queue[tail++] = s;
    }
    int64_t step[8]; /* index offset of each direction, as rmg__grid_nbrs orders them */
    for (int d = 0; d < 8; d++)
        step[d] = (int64_t)rmg__grid_dy(d) * b->w + rmg__grid_dx(d);
    while (head < tail) {
        uint32_t t = b->queue[head++], nb[8];
        if (b->rim && !((b->rim[t >> 6] >> (t & 63)) & 1)) { /* off every edge: all eight */
            for (int d = 0; d < 8; d++) {
                uint32_t u = (uint32_t)((int64_t)t + step[d]);
                if (rmg__grid_bfs_step(b, t, u, stamp, pass, goal, user, &tail))
                    return u + 1;
            }
            continue;
        }
        int n_nb = rmg__grid_nbrs(b, t, nb);
        for (int d = 0; d < n_nb; d++)
            if (rmg__grid_bfs_step(b, t, nb[d], stamp, pass, goal, user, &tail))
                return nb[d] + 1;
    }
    return 0;
}
/* ---- bucket queue of (level, tile) keys ------------------------------------------------------

 * A priority queue for small integer levels (search distances): one bucket per level, each
 * popped in ascending tile order, so entries come out exactly as from a heap of (level << 32 |
 * tile) keys, without the heap's log-depth sifting on every pop. A bucket is kept descending
 * (popped from the back); entries added out of order are sorted and merged in only when its
 * level is reached. */
struct rmg__grid_bucket {
    uint32_t *items;
    size_t count, cap;
    size_t sorted;             /* items[0..sorted) descending (the smallest tile last) */
};

void rmg__grid_levels_free(rmg_context *ctx, rmg__grid_levels *q);
/* Empties the queue (keeps the memory). */
void rmg__grid_levels_clear(rmg__grid_levels *q);
/* Grows a queue of a bucket per level to hold level `level`; false when out of memory. */
bool rmg__grid_levels_reserve(rmg_context *ctx, rmg__grid_levels *q, size_t level);
/* Makes q a ring of 2^bits buckets: every level queued must then lie within 2^bits - 1 of
 * the lowest level queued or last popped (a search whose steps cost less than that). False
 * when out of memory. */
bool rmg__grid_levels_ring(rmg_context *ctx, rmg__grid_levels *q, int bits);

static inline rmg__grid_bucket *rmg__grid_levels_slot(const rmg__grid_levels *q, size_t level)
{
    return &q->bucket[q->mask ? level & q->mask : level];
}
/* Sorts a bucket descending; scratch has room for its entries. */
void rmg__grid_bucket_sort(rmg__grid_bucket *k, uint32_t *scratch);
/* Sorts tiles descending; scratch has room for n. */
void rmg__grid_sort_desc(uint32_t *a, size_t n, uint32_t *scratch);

/* Adds (level, t); false when out of memory. */
static inline bool rmg__grid_levels_push(rmg_context *ctx, rmg__grid_levels *q, size_t level, uint32_t t)
{
    if (!q->mask && level >= q->n_levels && !rmg__grid_levels_reserve(ctx, q, level))
        return false;
    rmg__grid_bucket *k = rmg__grid_levels_slot(q, level);
    if (k->count == k->cap && !rmg__vec_grow(ctx, (void **)&k->items, &k->cap, k->count + 1, sizeof *k->items))
        return false;
    /* Still descending when the new tile is below the last one (or the bucket was empty). */
    if (k->sorted == k->count && (k->count == 0 || t < k->items[k->count - 1]))
        k->sorted++;
    k->items[k->count++] = t;
    if (q->cur >= q->top) { /* was empty: the range starts here */
        q->cur = level;
        q->top = level + 1;
    } else if (level < q->cur) {
        q->cur = level;
    } else if (level >= q->top) {
        q->top = level + 1;
    }
    return true;
}

/* Takes the smallest (level, tile) entry; false when empty. scratch: room for any bucket. */
static inline bool rmg__grid_levels_pop(rmg__grid_levels *q, uint32_t *scratch, size_t *level, uint32_t *t)
{
    while (q->cur < q->top && rmg__grid_levels_slot(q, q->cur)->count == 0)
        q->cur++;
    if (q->cur >= q->top) {
        q->cur = q->top = 0;
        return false;
    }
    rmg__grid_bucket *k = rmg__grid_levels_slot(q, q->cur);
    if (k->sorted < k->count)
        rmg__grid_bucket_sort(k, scratch);
    *level = q->cur;
    *t = k->items[--k->count];
    k->sorted = k->count;
    return true;
}

/* Weighted search: `cost` returns the cost of entering a tile (0 = impassable, at most
 * RMG__GRID_MAX_COST). An orthogonal step costs 2 * cost, a diagonal one 5 * cost: more than
 * the two orthogonal steps around the corner, so a road takes a diagonal step only where both
 * of those are closed (the game's roads run in orthogonal steps: 97% of the road tiles of its
 * Jebus Cross maps have two orthogonal road neighbours or are ends). Tiles are taken in order
 * of (distance, tile index), so the result does not depend on how the queue is kept. Returns the goal tile + 1, or 0 when no goal is reachable (or
 * memory ran out: b->nomem, which the caller turns into RMG_ERR_NOMEM). prev[] then describes
 * the path. Inline so the compiler can call the cost and goal functions directly. */
typedef uint32_t (*rmg__grid_cost)(const rmg__grid *b, uint32_t t, void *user);
#define RMG__GRID_MAX_COST 10u
#define RMG__GRID_RING_BITS 6 /* 2^6 > 5 * RMG__GRID_MAX_COST: the largest step stays in the ring */

/* Queues the sources of a weighted search; open / done: its two visit stamps. False when out
 * of memory (b->nomem set). */
bool rmg__grid_dijkstra_start(rmg__grid *b, const uint32_t *sources, size_t n_sources, uint32_t *open,
                             uint32_t *done);

static inline uint32_t rmg__grid_dijkstra(rmg__grid *b, const uint32_t *sources, size_t n_sources, rmg__grid_cost cost,
                                         rmg__grid_pred goal, void *user)
{
    /* seen[t] == open: queued with distance dist[t]; == done: taken (its distance final). */
    uint32_t open = 0, done = 0, t;
    if (!rmg__grid_dijkstra_start(b, sources, n_sources, &open, &done))
        return 0;
    int64_t step[8]; /* index offset of each direction */
    for (int d = 0; d < 8; d++)
        step[d] = (int64_t)rmg__grid_dy(d) * b->w + rmg__grid_dx(d);
    size_t level;
    while (rmg__grid_levels_pop(&b->ring, b->queue, &level, &t)) {
        if (b->seen[t] != open || b->dist[t] != level)
            continue; /* taken already, or queued again nearer */
        b->seen[t] = done;
        if (goal(b, t, user))
            return t + 1;
        int x = 0, y = 0, z;
        bool inner = rmg__grid_inner(b, t);
        if (!inner)
            rmg__grid_xyz(b, t, &x, &y, &z); /* on the rim: each step is checked */
        for (int d = 0; d < 8; d++) {
            int nx = x + rmg__grid_dx(d), ny = y + rmg__grid_dy(d);
            if (!inner && (nx < 0 || ny < 0 || nx >= b->w || ny >= b->h))
                continue;
            uint32_t u = (uint32_t)((int64_t)t + step[d]);
            if (b->seen[u] == done)
                continue;
            uint32_t c = cost(b, u, user);
            if (c == 0)
                continue;
            uint32_t du = b->dist[t] + c * (d < 4 ? 2u : 5u);
            if (b->seen[u] == open && du >= b->dist[u])
                continue;
            b->seen[u] = open;
            b->dist[u] = du;
            b->prev[u] = t + 1;
            if (!rmg__grid_levels_push(b->ctx, &b->ring, du, u)) {
                b->nomem = true;
                return 0;
            }
        }
    }
    return 0;
}
/* Calls fn on every tile of the path ending at `end` (from the end back to its source). */
void rmg__grid_trace(rmg__grid *b, uint32_t end, void (*fn)(rmg__grid *b, uint32_t t, void *user), void *user);

/* ---- footprints of the stage's objects -------------------------------------------------------- */

typedef struct rmg__grid_shape {
    uint64_t block, visit;  /* content layout: bit (row*8 + col), anchor row 5 col 7 */
    int width;              /* columns used (for ZON-32 width checks) */
} rmg__grid_shape;

/* Footprint for an object key created by the connect stage and colour/subclass (-1 none). */
rmg__grid_shape rmg__grid_shape_of(const rmg__grid *b, const char *key, int color);
/* The tile of the first visit bit of shape anchored at anchor tile a (bottom-right). */
uint32_t rmg__grid_visit_tile(const rmg__grid *b, const rmg__grid_shape *s, uint32_t anchor);

#endif
