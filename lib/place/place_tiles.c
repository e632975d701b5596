/*
 * Tile ownership (PLC-11): zones grow from their centres as noisy discs. A zone takes tiles
 * from its own 4-connected frontier only, so it is one connected region by construction; the
 * frontier is ordered by the distance to the centre relative to the zone's disc radius,
 * perturbed by smooth noise that differs per zone, so borders between neighbours bend
 * (weighted, noisy, not Voronoi-straight). Capped levels stop each zone at its target; on
 * uncapped levels a second phase hands the remaining tiles to whichever zone reaches them.
 */
#include <math.h>
#include <string.h>

#include "place_internal.h"

#define NOISE_CELL 9          /* tiles between value-noise lattice points */
#define NOISE_AMPLITUDE 0.28  /* relative radius change at the noise extremes */
#define KEY_FRACTION 1048576.0 /* fixed-point scale of the priority */
#define TIE_BITS 20

typedef struct heap_entry {
    uint64_t key;
    uint32_t tile;
    uint32_t zone;
} heap_entry;

typedef struct heap {
    heap_entry *items;
    size_t count, cap;
} heap;

typedef struct grower {
    rmg__grow *g;
    int w, h;
    size_t plane;
    float *noise;              /* two fields of w*h values in [-1, 1] */
    heap open;
    RMG__VEC(heap_entry) deferred;
    bool failed;
} grower;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b)
{
    return mix64(seed ^ mix64(a * 0x9E3779B97F4A7C15ull + b * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull));
}

/* ---- heap ------------------------------------------------------------------------------------ */

static bool heap_push(grower *gr, heap_entry e)
{
    heap *hp = &gr->open;
    if (!rmg__vec_grow(gr->g->ctx, (void **)&hp->items, &hp->cap, hp->count + 1, sizeof *hp->items)) {
        gr->failed = true;
        return false;
    }
    size_t i = hp->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (hp->items[parent].key <= e.key)
            break;
        hp->items[i] = hp->items[parent];
        i = parent;
    }
    hp->items[i] = e;
    return true;
}

static heap_entry heap_pop(heap *hp)
{
    heap_entry top = hp->items[0], last = hp->items[--hp->count];
    size_t i = 0, n = hp->count;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && hp->items[c + 1].key < hp->items[c].key)
            c++;
        if (last.key <= hp->items[c].key)
            break;
        hp->items[i] = hp->items[c];
        i = c;
    }
    if (n)
        hp->items[i] = last;
    return top;
}

/* ---- noise ----------------------------------------------------------------------------------- */

static double lattice_value(uint64_t seed, int field, int gx, int gy)
{
    uint64_t h = hash3(seed + (uint64_t)field, (uint64_t)(uint32_t)gx, (uint64_t)(uint32_t)gy);
    return (double)(h >> 11) / 4503599627370496.0 - 1.0; /* [-1, 1) */
}

static double smooth(double t)
{
    return t * t * (3.0 - 2.0 * t);
}

static double value_noise(uint64_t seed, int field, int x, int y)
{
    int gx = x / NOISE_CELL, gy = y / NOISE_CELL;
    double fx = smooth((double)(x % NOISE_CELL) / NOISE_CELL), fy = smooth((double)(y % NOISE_CELL) / NOISE_CELL);
    double a = lattice_value(seed, field, gx, gy), b = lattice_value(seed, field, gx + 1, gy);
    double c = lattice_value(seed, field, gx, gy + 1), d = lattice_value(seed, field, gx + 1, gy + 1);
    double top = a + (b - a) * fx, bottom = c + (d - c) * fx;
    return top + (bottom - top) * fy;
}

static bool make_noise(grower *gr)
{
    gr->noise = rmg__malloc(gr->g->ctx, 2 * gr->plane * sizeof *gr->noise);
    if (!gr->noise)
        return false;
    for (int f = 0; f < 2; f++)
        for (int y = 0; y < gr->h; y++)
            for (int x = 0; x < gr->w; x++)
                gr->noise[(size_t)f * gr->plane + (size_t)y * (size_t)gr->w + (size_t)x] =
                    (float)value_noise(gr->g->seed, f, x, y);
    return true;
}

/* ---- growth ---------------------------------------------------------------------------------- */

static uint64_t priority_key(const grower *gr, const rmg__grow_zone *z, uint32_t zone, size_t tile)
{
    size_t in_plane = tile % gr->plane;
    int x = (int)(in_plane % (size_t)gr->w), y = (int)(in_plane / (size_t)gr->w);
    double dx = x - z->cx, dy = y - z->cy;
    double n = z->noise_c * gr->noise[in_plane] + z->noise_s * gr->noise[gr->plane + in_plane];
    double p = sqrt(dx * dx + dy * dy) * z->inv_radius * (1.0 + NOISE_AMPLITUDE * n);
    p = p < 0 ? 0 : p;
    double scaled = p * KEY_FRACTION;
    uint64_t fixed = scaled >= 17592186044416.0 ? 17592186044415ull : (uint64_t)scaled; /* 2^44 */
    uint64_t tie = hash3(gr->g->seed, tile, zone) & ((1u << TIE_BITS) - 1);
    return (fixed << TIE_BITS) | tie;
}

static void push_neighbours(grower *gr, uint32_t zone, size_t tile)
{
    uint16_t *owner = gr->g->map->tile_zone;
    size_t in_plane = tile % gr->plane;
    int x = (int)(in_plane % (size_t)gr->w), y = (int)(in_plane / (size_t)gr->w);
    static const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int i = 0; i < 4; i++) {
        int nx = x + d4[i][0], ny = y + d4[i][1];
        if (nx < 0 || ny < 0 || nx >= gr->w || ny >= gr->h)
            continue;
        size_t t = tile - in_plane + (size_t)ny * (size_t)gr->w + (size_t)nx;
        if (owner[t] == 0) {
            heap_entry e = {priority_key(gr, &gr->g->zones[zone], zone, t), (uint32_t)t, zone};
            heap_push(gr, e);
        }
    }
}

static void claim(grower *gr, uint32_t zone, size_t tile)
{
    gr->g->map->tile_zone[tile] = (uint16_t)gr->g->zones[zone].map_id;
    gr->g->zones[zone].count++;
    push_neighbours(gr, zone, tile);
}

/* Islands (water level "islands"): a zone keeps two tiles of water to every other zone. */
static bool near_other_zone(const grower *gr, uint32_t zone, size_t tile)
{
    const uint16_t *owner = gr->g->map->tile_zone;
    size_t in_plane = tile % gr->plane;
    int x = (int)(in_plane % (size_t)gr->w), y = (int)(in_plane / (size_t)gr->w);
    uint16_t self = (uint16_t)gr->g->zones[zone].map_id;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= gr->w || ny >= gr->h)
                continue;
            uint16_t o = owner[tile - in_plane + (size_t)ny * (size_t)gr->w + (size_t)nx];
            if (o && o != self)
                return true;
        }
    return false;
}

static void grow_until_empty(grower *gr, bool capped_phase)
{
    const uint16_t *owner = gr->g->map->tile_zone;
    while (gr->open.count && !gr->failed) {
        heap_entry e = heap_pop(&gr->open);
        if (owner[e.tile])
            continue;
        rmg__grow_zone *z = &gr->g->zones[e.zone];
        if (capped_phase && gr->g->capped[z->level] && z->count >= z->target) {
            if (!RMG__VEC_PUSH(gr->g->ctx, &gr->deferred, e))
                gr->failed = true;
            continue;
        }
        if (gr->g->islands[z->level] && near_other_zone(gr, e.zone, e.tile))
            continue;
        claim(gr, e.zone, e.tile);
    }
}

/* Second phase on uncapped levels: the deferred frontier of full zones resumes. */
static void grow_uncapped(grower *gr)
{
    for (size_t i = 0; i < gr->deferred.count && !gr->failed; i++) {
        heap_entry e = gr->deferred.items[i];
        if (!gr->g->capped[gr->g->zones[e.zone].level] && !gr->g->map->tile_zone[e.tile])
            heap_push(gr, e);
    }
    grow_until_empty(gr, false);
}

/* ---- seeds and corridors ------------------------------------------------------------------------ */

/* The free tile nearest to (x, y) on the level (square rings), or SIZE_MAX. */
static size_t nearest_free(const grower *gr, int level, int x, int y)
{
    const uint16_t *owner = gr->g->map->tile_zone;
    size_t base = (size_t)level * gr->plane;
    int limit = RMG__MAX(gr->w, gr->h);
    for (int r = 0; r <= limit; r++)
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                if (RMG__MAX(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy) != r)
                    continue;
                int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= gr->w || ny >= gr->h)
                    continue;
                size_t t = base + (size_t)ny * (size_t)gr->w + (size_t)nx;
                if (!owner[t])
                    return t;
            }
    return SIZE_MAX;
}

static rmg_status plant_seeds(grower *gr)
{
    for (size_t i = 0; i < gr->g->n_zones; i++) {
        rmg__grow_zone *z = &gr->g->zones[i];
        size_t t = nearest_free(gr, z->level, z->seed_tile_x, z->seed_tile_y);
        if (t == SIZE_MAX)
            return rmg__error_gen(gr->g->ctx, RMG_ERR_IMPOSSIBLE, "place", -1, -1,
                                  "map zone %d: no free tile left on level %d for its centre", z->map_id, z->level);
        size_t in_plane = t % gr->plane;
        z->seed_tile_x = (int)(in_plane % (size_t)gr->w);
        z->seed_tile_y = (int)(in_plane / (size_t)gr->w);
        claim(gr, (uint32_t)i, t);
    }
    return gr->failed ? rmg__error_nomem(gr->g->ctx) : RMG_OK;
}

/* Claims tiles of one side of a corridor from its own centre until it meets another zone. */
static void claim_run(grower *gr, uint32_t zone, const uint32_t *path, size_t from, size_t to, int step)
{
    const uint16_t *owner = gr->g->map->tile_zone;
    uint16_t self = (uint16_t)gr->g->zones[zone].map_id;
    for (size_t i = from;; i = (size_t)((long)i + step)) {
        if (owner[path[i]] == 0)
            claim(gr, zone, path[i]);
        else if (owner[path[i]] != self)
            return;
        if (i == to)
            return;
    }
}

/* Joins two lattice neighbours by a 4-connected line between their centres, half to each, so
 * the zones share a border whatever the growth does (ground links, PLC-02). */
static void corridor(grower *gr, uint32_t a, uint32_t b, uint32_t *path)
{
    const rmg__grow_zone *za = &gr->g->zones[a], *zb = &gr->g->zones[b];
    if (za->level != zb->level || gr->g->islands[za->level])
        return;
    int x = za->seed_tile_x, y = za->seed_tile_y;
    int dx = zb->seed_tile_x - x, dy = zb->seed_tile_y - y;
    int sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    long ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    size_t base = (size_t)za->level * gr->plane, n = 0;
    long mx = 0, my = 0;
    path[n++] = (uint32_t)(base + (size_t)y * (size_t)gr->w + (size_t)x);
    while (mx < ax || my < ay) {
        /* Step along the axis that lags behind the ideal line. */
        if (my >= ay || (mx < ax && (2 * mx + 1) * ay <= (2 * my + 1) * ax)) {
            x += sx;
            mx++;
        } else {
            y += sy;
            my++;
        }
        path[n++] = (uint32_t)(base + (size_t)y * (size_t)gr->w + (size_t)x);
    }
    if (n < 2)
        return;
    size_t mid = (n - 1) / 2;
    claim_run(gr, a, path, 0, mid, 1);
    claim_run(gr, b, path, n - 1, mid + 1, -1);
}

static rmg_status join_corridors(grower *gr)
{
    if (!gr->g->n_corridors)
        return RMG_OK;
    uint32_t *path = rmg__malloc(gr->g->ctx, ((size_t)gr->w + (size_t)gr->h + 2) * sizeof *path);
    if (!path)
        return rmg__error_nomem(gr->g->ctx);
    for (size_t i = 0; i < gr->g->n_corridors && !gr->failed; i++)
        corridor(gr, (uint32_t)gr->g->corridors[i][0], (uint32_t)gr->g->corridors[i][1], path);
    rmg__free(gr->g->ctx, path);
    return gr->failed ? rmg__error_nomem(gr->g->ctx) : RMG_OK;
}

rmg_status rmg__grow_run(rmg__grow *g)
{
    grower gr;
    memset(&gr, 0, sizeof gr);
    gr.g = g;
    gr.w = g->map->width;
    gr.h = g->map->height;
    gr.plane = (size_t)gr.w * (size_t)gr.h;
    rmg_status st = make_noise(&gr) ? RMG_OK : rmg__error_nomem(g->ctx);
    if (st == RMG_OK)
        st = plant_seeds(&gr);
    if (st == RMG_OK)
        st = join_corridors(&gr);
    if (st == RMG_OK) {
        grow_until_empty(&gr, true);
        grow_uncapped(&gr);
        if (gr.failed)
            st = rmg__error_nomem(g->ctx);
    }
    rmg__free(g->ctx, gr.noise);
    rmg__free(g->ctx, gr.open.items);
    RMG__VEC_FREE(g->ctx, &gr.deferred);
    return st;
}
