/* Scratch arrays, tile geometry and grid searches shared by the connect and finish stages. */
#include <stdio.h>
#include <string.h>

#include "grid/grid.h"


rmg_status rmg__grid_init(rmg__grid *b, rmg__gen *g)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->m = g->map;
    b->ctx = g->ctx;
    b->w = g->map->width;
    b->h = g->map->height;
    b->levels = g->map->levels;
    b->n = (uint32_t)g->map->n_tiles;
    size_t n = b->n ? b->n : 1;
    b->queue = rmg__malloc(b->ctx, n * sizeof *b->queue);
    b->prev = rmg__malloc(b->ctx, n * sizeof *b->prev);
    b->seen = rmg__calloc(b->ctx, n, sizeof *b->seen);
    b->dist = rmg__malloc(b->ctx, n * sizeof *b->dist);
    b->mark = rmg__calloc(b->ctx, n, 1);
    if (!b->queue || !b->prev || !b->seen || !b->dist || !b->mark || !rmg__grid_init_rim(b)) {
        rmg__grid_free(b);
        return rmg__error_nomem(g->ctx);
    }
    return RMG_OK;
}

void rmg__grid_free(rmg__grid *b)
{
    rmg__free(b->ctx, b->queue);
    rmg__free(b->ctx, b->prev);
    rmg__free(b->ctx, b->seen);
    rmg__free(b->ctx, b->dist);
    rmg__free(b->ctx, b->mark);
    rmg__free(b->ctx, b->rim);
    b->rim = NULL;
    rmg__grid_levels_free(b->ctx, &b->ring);
    b->queue = b->prev = b->seen = b->dist = NULL;
    b->mark = NULL;
}

bool rmg__grid_init_rim(rmg__grid *b)
{
    size_t words = ((size_t)b->n + 63) / 64;
    b->rim = rmg__calloc(b->ctx, words ? words : 1, sizeof *b->rim);
    if (!b->rim)
        return false;
    for (int z = 0; z < b->levels; z++)
        for (int y = 0; y < b->h; y++)
            for (int x = 0; x < b->w; x += (y == 0 || y == b->h - 1 || x == b->w - 1) ? 1 : b->w - 1) {
                size_t t = rmg__tile(b->w, b->h, x, y, z);
                b->rim[t >> 6] |= (uint64_t)1 << (t & 63);
            }
    return true;
}

uint32_t rmg__grid_stamp(rmg__grid *b)
{
    if (++b->stamp == 0) {
        /* Wrapped: old stamps could collide with new ones. */
        memset(b->seen, 0, (size_t)b->n * sizeof *b->seen);
        b->stamp = 1;
    }
    return b->stamp;
}

size_t rmg__grid_add_square(rmg__grid *b, uint32_t t, int reach, uint32_t stamp, uint32_t *out, size_t k)
{
    int x, y, z;
    rmg__grid_xyz(b, t, &x, &y, &z);
    int x0 = RMG__MAX(0, x - reach), x1 = RMG__MIN(b->w - 1, x + reach);
    int y0 = RMG__MAX(0, y - reach), y1 = RMG__MIN(b->h - 1, y + reach);
    for (int yy = y0; yy <= y1; yy++)
        for (uint32_t u = (uint32_t)rmg__tile(b->w, b->h, x0, yy, z), end = u + (uint32_t)(x1 - x0); u <= end; u++)
            if (b->seen[u] != stamp) {
                b->seen[u] = stamp;
                out[k++] = u;
            }
    return k;
}

rmg_status rmg__grid_index_zones(rmg__grid *b, rmg__grid_zone_index *zi)
{
    size_t nz = b->m->zones.count + 2;
    zi->tiles = rmg__malloc(b->ctx, ((size_t)b->n ? b->n : 1) * sizeof *zi->tiles);
    zi->start = rmg__calloc(b->ctx, nz, sizeof *zi->start);
    if (!zi->tiles || !zi->start) {
        rmg__grid_zone_index_free(b, zi);
        return rmg__error_nomem(b->ctx);
    }
    /* Counting sort without a branch per tile: tiles of no (or an unknown) zone go to a block
     * of their own before zone 1's, which nothing reads. */
    const uint16_t *tz = b->m->tile_zone;
    const uint32_t count = (uint32_t)b->m->zones.count;
    uint32_t *start = zi->start;
    for (uint32_t t = 0; t < b->n; t++) {
        uint32_t id = tz[t];
        start[(id <= count ? id : 0) + 1]++;
    }
    for (size_t z = 1; z < nz; z++)
        start[z] += start[z - 1];
    for (uint32_t t = 0; t < b->n; t++) {
        uint32_t id = tz[t];
        zi->tiles[start[id <= count ? id : 0]++] = t;
    }
    /* Each start moved to its zone's end, the next zone's start: back by one zone. */
    for (size_t z = nz - 1; z > 0; z--)
        start[z] = start[z - 1];
    start[0] = 0;
    return RMG_OK;
}

void rmg__grid_zone_index_free(rmg__grid *b, rmg__grid_zone_index *zi)
{
    rmg__free(b->ctx, zi->tiles);
    rmg__free(b->ctx, zi->start);
    zi->tiles = zi->start = NULL;
}

bool rmg__grid_nbr(const rmg__grid *b, uint32_t t, int dir, uint32_t *out)
{
    int x = rmg__grid_x(b, t) + rmg__grid_dx(dir), y = rmg__grid_y(b, t) + rmg__grid_dy(dir);
    if (x < 0 || y < 0 || x >= b->w || y >= b->h)
        return false;
    *out = (uint32_t)rmg__tile(b->w, b->h, x, y, rmg__grid_z(b, t));
    return true;
}

int rmg__grid_cheb(const rmg__grid *b, uint32_t a, uint32_t c)
{
    int ax, ay, az, cx, cy, cz;
    rmg__grid_xyz(b, a, &ax, &ay, &az);
    rmg__grid_xyz(b, c, &cx, &cy, &cz);
    int dx = ax - cx, dy = ay - cy;
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    return dx > dy ? dx : dy;
}

int64_t rmg__grid_dist2(const rmg__grid *b, uint32_t a, uint32_t c)
{
    int ax, ay, az, cx, cy, cz;
    rmg__grid_xyz(b, a, &ax, &ay, &az);
    rmg__grid_xyz(b, c, &cx, &cy, &cz);
    int64_t dx = ax - cx, dy = ay - cy;
    return dx * dx + dy * dy;
}

rmg__map_zone *rmg__grid_zone(const rmg__grid *b, int zone_id)
{
    if (zone_id < 1 || (size_t)zone_id > b->m->zones.count)
        return NULL;
    return &b->m->zones.items[zone_id - 1];
}

bool rmg__grid_land_zone(const rmg__grid *b, int zone_id)
{
    const rmg__map_zone *z = rmg__grid_zone(b, zone_id);
    return z && z->kind != RMG_ZONE_ROCK && z->kind != RMG_ZONE_WATER;
}

void rmg__grid_zone_centre_xy(const rmg__grid *b, int zone_id, int *x, int *y)
{
    const rmg__map_zone *z = rmg__grid_zone(b, zone_id);
    *x = RMG__MAX(0, RMG__MIN(b->w - 1, z->cx));
    *y = RMG__MAX(0, RMG__MIN(b->h - 1, z->cy));
}

uint32_t rmg__grid_zone_centre(const rmg__grid *b, int zone_id)
{
    int x, y;
    rmg__grid_zone_centre_xy(b, zone_id, &x, &y);
    return (uint32_t)rmg__tile(b->w, b->h, x, y, rmg__grid_zone(b, zone_id)->level);
}

/* ---- bucket queue ------------------------------------------------------------------------- */

void rmg__grid_levels_free(rmg_context *ctx, rmg__grid_levels *q)
{
    for (size_t i = 0; i < q->n_levels; i++)
        rmg__free(ctx, q->bucket[i].items);
    rmg__free(ctx, q->bucket);
    memset(q, 0, sizeof *q);
}

void rmg__grid_levels_clear(rmg__grid_levels *q)
{
    for (size_t i = q->cur; i < q->top; i++) {
        rmg__grid_bucket *k = rmg__grid_levels_slot(q, i);
        k->count = k->sorted = 0; /* an empty bucket is sorted: pushes start a sorted run again */
    }
    q->cur = q->top = 0;
}

bool rmg__grid_levels_ring(rmg_context *ctx, rmg__grid_levels *q, int bits)
{
    size_t n = (size_t)1 << bits;
    if (q->mask + 1 == n)
        return true;
    if (q->n_levels || !rmg__grid_levels_reserve(ctx, q, n - 1))
        return false; /* only an unused queue becomes a ring */
    q->mask = n - 1;
    return true;
}

bool rmg__grid_levels_reserve(rmg_context *ctx, rmg__grid_levels *q, size_t level)
{
    if (level < q->n_levels)
        return true;
    size_t n = RMG__MAX(level + 1, 2 * q->n_levels);
    n = RMG__MAX(n, (size_t)16);
    rmg__grid_bucket *p = rmg__realloc(ctx, q->bucket, n * sizeof *p);
    if (!p)
        return false;
    memset(p + q->n_levels, 0, (n - q->n_levels) * sizeof *p);
    q->bucket = p;
    q->n_levels = n;
    return true;
}

/* Runs up to this size are insertion-sorted (they arrive nearly in order); larger ones
 * radix-sorted, a byte per pass. */
#define BUCKET_INSERTION_MAX 48

void rmg__grid_sort_desc(uint32_t *a, size_t n, uint32_t *scratch)
{
    if (n <= BUCKET_INSERTION_MAX) {
        for (size_t i = 1; i < n; i++) {
            uint32_t v = a[i];
            size_t j = i;
            for (; j > 0 && a[j - 1] < v; j--)
                a[j] = a[j - 1];
            a[j] = v;
        }
        return;
    }
    uint32_t all = 0;
    for (size_t i = 0; i < n; i++)
        all |= a[i];
    /* Descending: ascending order of the complemented digits. */
    uint32_t *src = a, *dst = scratch;
    for (int shift = 0; shift < 32 && (all >> shift); shift += 8) {
        uint32_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(uint8_t)~(src[i] >> shift) + 1u]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            dst[count[(uint8_t)~(src[i] >> shift)]++] = src[i];
        uint32_t *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

void rmg__grid_bucket_sort(rmg__grid_bucket *k, uint32_t *scratch)
{
    /* The entries added since the last sort are sorted on their own, then merged into the sorted
     * rest from the back (the merge writes only slots already read). */
    size_t m = k->sorted, n = k->count, nb = n - m;
    uint32_t *a = k->items;
    rmg__grid_sort_desc(a + m, nb, scratch);
    k->sorted = n;
    if (m == 0 || a[m - 1] > a[m])
        return; /* the new entries all lie below the rest: already in order */
    memcpy(scratch, a + m, nb * sizeof *a);
    size_t ia = m, ib = nb, out = n;
    while (ib > 0) {
        if (ia > 0 && a[ia - 1] < scratch[ib - 1])
            a[--out] = a[--ia];
        else
            a[--out] = scratch[--ib];
    }
}

/* ---- weighted search ------------------------------------------------------------------------ */

bool rmg__grid_dijkstra_start(rmg__grid *b, const uint32_t *sources, size_t n_sources, uint32_t *open, uint32_t *done)
{
    *open = rmg__grid_stamp(b);
    *done = rmg__grid_stamp(b); /* differs from *open even when the stamps wrap in between */
    if (!rmg__grid_levels_ring(b->ctx, &b->ring, RMG__GRID_RING_BITS)) {
        b->nomem = true;
        return false;
    }
    rmg__grid_levels_clear(&b->ring);
    for (size_t i = 0; i < n_sources; i++) {
        uint32_t s = sources[i];
        if (b->seen[s] == *open)
            continue;
        b->seen[s] = *open;
        b->dist[s] = 0;
        b->prev[s] = 0;
        if (!rmg__grid_levels_push(b->ctx, &b->ring, 0, s)) {
            b->nomem = true;
            return false;
        }
    }
    return true;
}

void rmg__grid_trace(rmg__grid *b, uint32_t end, void (*fn)(rmg__grid *b, uint32_t t, void *user), void *user)
{
    uint32_t t = end;
    for (;;) {
        uint32_t p = b->prev[t];
        fn(b, t, user);
        if (!p)
            return;
        t = p - 1;
    }
}

/* ---- footprints -------------------------------------------------------------------------- */

#define BIT(row, col) ((uint64_t)1 << ((row) * 8 + (col)))

static int mask_width(uint64_t mask)
{
    int lo = 8, hi = -1;
    for (int bit = 0; bit < 48; bit++)
        if (mask & ((uint64_t)1 << bit)) {
            lo = RMG__MIN(lo, bit % 8);
            hi = RMG__MAX(hi, bit % 8);
        }
    return hi < 0 ? 1 : hi - lo + 1;
}

/* The content's map object for key (per colour "<key>_<colour>" first), NULL if absent. */
static const rmg__object_def *content_shape(const rmg__grid *b, const char *key, int color)
{
    const struct rmg_content *c = b->g ? b->g->content : NULL;
    if (!c || !c->map_objects)
        return NULL;
    char name[96];
    long i = -1;
    if (color >= 0 && snprintf(name, sizeof name, "%s_%d", key, color) < (int)sizeof name)
        i = rmg__content_find_map_object(c, name);
    if (i < 0)
        i = rmg__content_find_map_object(c, key);
    return i >= 0 ? &c->map_objects[i] : NULL;
}

rmg__grid_shape rmg__grid_shape_of(const rmg__grid *b, const char *key, int color)
{
    const rmg__object_def *def = content_shape(b, key, color);
    if (def && def->footprint.visit) {
        rmg__grid_shape s = {def->footprint.block | def->footprint.visit, def->footprint.visit, 1};
        s.width = mask_width(s.block);
        return s;
    }
    /* Without content: the layouts of the default graphics (object-templates.tsv). */
    rmg__grid_shape s = {BIT(5, 7), BIT(5, 7), 1};
    if (!strcmp(key, "subterranean_gate")) {
        s.block = BIT(5, 5) | BIT(5, 6) | BIT(5, 7) | BIT(4, 6);
        s.visit = BIT(5, 6);
        s.width = 3;
    } else if (!strcmp(key, "shipyard")) {
        s.block = BIT(5, 5) | BIT(5, 6) | BIT(5, 7);
        s.visit = BIT(5, 6);
        s.width = 3;
    } else if (!strcmp(key, "keymaster_tent")) {
        s.block = BIT(5, 6) | BIT(5, 7);
        s.visit = BIT(5, 7);
        s.width = 2;
    } else if (!strcmp(key, "monolith_two_way") || !strcmp(key, "monolith_one_way_entrance") ||
               !strcmp(key, "monolith_one_way_exit")) {
        size_t n;
        const rmg__teleport_color *tc = rmg__teleport_colors(&n);
        int cls = !strcmp(key, "monolith_two_way") ? 45 : 43;
        for (size_t i = 0; i < n; i++)
            if (tc[i].h3_class == cls && tc[i].subclass == color && tc[i].width == 2) {
                s.block = BIT(5, 6) | BIT(5, 7);
                s.visit = BIT(5, 6);
                s.width = 2;
            }
    }
    return s;
}

uint32_t rmg__grid_visit_tile(const rmg__grid *b, const rmg__grid_shape *s, uint32_t anchor)
{
    uint64_t visit = s->visit & RMG__GRID_FOOT_BITS;
    if (!visit)
        return anchor;
    int bit = rmg__grid_low_bit(visit), ax, ay, az;
    rmg__grid_xyz(b, anchor, &ax, &ay, &az);
    return (uint32_t)rmg__tile(b->w, b->h, ax - (7 - bit % 8), ay - (5 - bit / 8), az);
}
