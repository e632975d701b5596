/* Creating and filling a map: tile layers, objects, groups, warnings, footprints. */
#include <stdio.h>
#include <string.h>

#include "map_internal.h"

static bool alloc_layers(struct rmg_map *m)
{
    size_t n = m->n_tiles;
    m->terrain = rmg__arena_alloc(&m->arena, n);
    m->tile_zone = rmg__arena_alloc(&m->arena, n * sizeof *m->tile_zone);
    m->flags = rmg__arena_alloc(&m->arena, n * sizeof *m->flags);
    m->road = rmg__arena_alloc(&m->arena, n);
    m->tile_object = rmg__arena_alloc(&m->arena, n * sizeof *m->tile_object);
    m->river = rmg__arena_alloc(&m->arena, n);
    return m->terrain && m->tile_zone && m->flags && m->road && m->tile_object && m->river;
}

rmg_status rmg__map_new(rmg_context *ctx, int width, int height, int levels, struct rmg_map **out)
{
    *out = NULL;
    if (width < 1 || height < 1 || levels < 1 || levels > 2 || width > 4096 || height > 4096)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "map size %dx%dx%d is out of range", width, height, levels);
    struct rmg_map *m = rmg__calloc(ctx, 1, sizeof *m);
    if (!m)
        return rmg__error_nomem(ctx);
    m->ctx = rmg__context_retain(ctx); /* given back by rmg__map_free */
    rmg__arena_init(&m->arena, ctx, 256 * 1024);
    m->width = width;
    m->height = height;
    m->levels = levels;
    m->n_tiles = (size_t)width * (size_t)height * (size_t)levels;
    rmg_generate_options_init(&m->options);
    m->lazy = rmg__arena_alloc(&m->arena, sizeof *m->lazy);
    if (m->lazy) {
        atomic_init(&m->lazy->fingerprint, 0);
        atomic_init(&m->lazy->fingerprint_known, false);
    }
    if (!m->lazy || !alloc_layers(m)) {
        rmg__map_free(m);
        return rmg__error_nomem(ctx);
    }
    *out = m;
    return RMG_OK;
}

static void free_zone(rmg_context *ctx, rmg__map_zone *z)
{
    RMG__VEC_FREE(ctx, &z->towns);
}

static void free_connection(rmg_context *ctx, rmg__map_connection *c)
{
    RMG__VEC_FREE(ctx, &c->tiles);
    RMG__VEC_FREE(ctx, &c->guard_slots);
    RMG__VEC_FREE(ctx, &c->guards);
    RMG__VEC_FREE(ctx, &c->objects);
}

void rmg__map_free_parts(struct rmg_map *m, rmg_context *ctx)
{
    for (size_t i = 0; i < m->zones.count; i++)
        free_zone(ctx, &m->zones.items[i]);
    for (size_t i = 0; i < m->conns.count; i++)
        free_connection(ctx, &m->conns.items[i]);
    for (size_t i = 0; i < m->groups.count; i++)
        RMG__VEC_FREE(ctx, &m->groups.items[i].objects);
    for (size_t i = 0; i < m->warnings.count; i++)
        rmg__free(ctx, m->warnings.items[i]);
    RMG__VEC_FREE(ctx, &m->zones);
    RMG__VEC_FREE(ctx, &m->conns);
    RMG__VEC_FREE(ctx, &m->objects);
    RMG__VEC_FREE(ctx, &m->groups);
    RMG__VEC_FREE(ctx, &m->warnings);
}

void rmg__map_free(struct rmg_map *m)
{
    if (!m)
        return;
    rmg_context *ctx = m->ctx;
    rmg__map_free_parts(m, ctx);
    rmg__arena_free(&m->arena);
    rmg__free(ctx, m);
    rmg__context_release(ctx);
}

/* The map's copy of an object key: one per key text (a slot taken by another key copies anew). */
static const char *intern_key(struct rmg_map *m, const char *key)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    const char **slot = &m->key_copies[h % RMG__ARRAY_LEN(m->key_copies)];
    if (*slot && strcmp(*slot, key) == 0)
        return *slot;
    const char *copy = rmg__arena_strdup(&m->arena, key);
    if (copy)
        *slot = copy;
    return copy;
}

rmg__map_object *rmg__map_add_object(struct rmg_map *m, const char *key, rmg_map_object_kind kind, int x, int y,
                                     int z)
{
    rmg__map_object o;
    memset(&o, 0, sizeof o);
    o.id = (uint32_t)m->objects.count + 1;
    o.key = key ? intern_key(m, key) : NULL;
    if (key && !o.key) {
        rmg__error_nomem(m->ctx);
        return NULL;
    }
    o.kind = kind;
    o.x = x;
    o.y = y;
    o.z = z;
    o.color = -1;
    o.creature = -1;
    o.artifact = -1;
    o.spell = -1;
    o.hero = -1;
    o.faction = RMG_FACTION_NONE;
    if (!RMG__VEC_PUSH(m->ctx, &m->objects, o)) {
        rmg__error_nomem(m->ctx);
        return NULL;
    }
    return &m->objects.items[m->objects.count - 1];
}

rmg__map_group *rmg__map_add_group(struct rmg_map *m, int zone, int range, int64_t target)
{
    rmg__map_group g;
    memset(&g, 0, sizeof g);
    g.id = (uint32_t)m->groups.count + 1;
    g.zone = zone;
    g.range = range;
    g.target = target;
    if (!RMG__VEC_PUSH(m->ctx, &m->groups, g)) {
        rmg__error_nomem(m->ctx);
        return NULL;
    }
    return &m->groups.items[m->groups.count - 1];
}

rmg_status rmg__map_warn(struct rmg_map *m, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *s = rmg__strdup(m->ctx, msg);
    if (!s || !RMG__VEC_PUSH(m->ctx, &m->warnings, s)) {
        rmg__free(m->ctx, s);
        return rmg__error_nomem(m->ctx);
    }
    rmg__log(m->ctx, RMG_LOG_WARNING, "%s", msg);
    return RMG_OK;
}

void rmg__footprint_tiles(uint64_t mask, int x, int y, void (*fn)(void *user, int tx, int ty), void *user)
{
    /* Bit (row*8 + col); row 5, col 7 is the anchor. The set bits from the lowest: row by row,
     * each row's columns left to right, as a full scan would meet them. */
    for (uint64_t bits = mask & ((UINT64_C(1) << RMG__FOOTPRINT_CELLS) - 1); bits; bits &= bits - 1) {
        int bit = rmg__ctz64(bits);
        fn(user, x - (7 - bit % 8), y - (5 - bit / 8));
    }
}

size_t rmg__footprint_indices(const struct rmg_map *m, uint64_t mask, int x, int y, int z,
                              uint32_t out[RMG__FOOTPRINT_CELLS], bool *outside)
{
    size_t n = 0;
    bool off = false;
    for (uint64_t bits = mask & ((UINT64_C(1) << RMG__FOOTPRINT_CELLS) - 1); bits; bits &= bits - 1) {
        int bit = rmg__ctz64(bits), tx = x - (7 - bit % 8), ty = y - (5 - bit / 8);
        if (tx < 0 || ty < 0 || tx >= m->width || ty >= m->height)
            off = true;
        else
            out[n++] = (uint32_t)rmg__tile(m->width, m->height, tx, ty, z);
    }
    if (outside)
        *outside = off;
    return n;
}

typedef struct stamp_ctx {
    struct rmg_map *m;
    const rmg__map_object *o;
    uint16_t flag;
    bool ok;
} stamp_ctx;

static void stamp_tile(void *user, int tx, int ty)
{
    stamp_ctx *s = user;
    struct rmg_map *m = s->m;
    if (tx < 0 || ty < 0 || tx >= m->width || ty >= m->height) {
        s->ok = false;
        return;
    }
    size_t t = rmg__tile(m->width, m->height, tx, ty, s->o->z);
    m->flags[t] |= s->flag;
    if (s->flag & RMG__T_OBJECT)
        m->tile_object[t] = s->o->id;
    else if (!m->tile_object[t])
        m->tile_object[t] = s->o->id;
}

bool rmg__map_stamp_object(struct rmg_map *m, const rmg__map_object *o)
{
    stamp_ctx s = {m, o, RMG__T_OBJECT | RMG__T_BLOCKED | RMG__T_USED, true};
    rmg__footprint_tiles(o->block & ~o->visit, o->x, o->y, stamp_tile, &s);
    s.flag = RMG__T_ENTRY | RMG__T_USED;
    rmg__footprint_tiles(o->visit, o->x, o->y, stamp_tile, &s);
    return s.ok;
}

void rmg_generate_options_init(rmg_generate_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->water = RMG_WATER_TEMPLATE; /* since 0.5.0 (issue 30): the template's choice */
    options->monsters = RMG_MAP_MONSTERS_NORMAL;
}

void rmg__gen_stream(const rmg__gen *g, const char *stage, uint64_t index, rmg_rng *out)
{
    rmg_rng_seed(out, rmg_rng_derive(g->root_seed, stage, index));
}

int rmg__map_mirror_of(const struct rmg_map *m, int map_id)
{
    if (!m || map_id < 1 || (size_t)map_id > m->zones.count)
        return 0;
    return m->zones.items[map_id - 1].mirror_of;
}
