/*
 * Checkpoints: what the stages have written into the map and the generation state before a
 * stage runs, so that the driver can retry that stage alone (issue 12, generate.c): the map's
 * tile layers, its zones, connections, objects, groups and warnings (deep copies), the objects
 * stage's zone statistics, and the per-generation fields stages set (g->zone_map_id, the
 * mirror snapshot, stage_data). Strings and reports the stages put in the map arena are shared:
 * the arena only grows, so they stay valid after a restore.
 *
 * A field appended to struct rmg_map or rmg__gen that a stage writes must be saved here too,
 * or a retried stage would see what the failed run left.
 */
#include <string.h>

#include "driver_internal.h"

/* Replaces *items with a copy of n elements of src (the old pointer is not freed: the caller
 * passes a vector whose items it does not own or are NULL). */
static bool dup_items(rmg_context *ctx, void **items, size_t *count, size_t *cap, const void *src, size_t n,
                      size_t elem)
{
    *items = NULL;
    *count = *cap = 0;
    if (!n)
        return true;
    if (!rmg__vec_grow(ctx, items, cap, n, elem))
        return false;
    memcpy(*items, src, n * elem);
    *count = n;
    return true;
}

#define DUP_VEC(ctx, dst, src)                                                                                    \
    dup_items((ctx), (void **)&(dst)->items, &(dst)->count, &(dst)->cap, (src)->items, (src)->count,           \
              sizeof *(src)->items)
#define FORGET_VEC(v) ((v)->items = NULL, (v)->count = (v)->cap = 0)

/* The element arrays are copied first and every inner vector of the copy emptied before it is
 * filled, so a copy that fails halfway can be freed with rmg__map_free_parts. */
static bool copy_zones(rmg_context *ctx, struct rmg_map *dst, const struct rmg_map *src)
{
    if (!DUP_VEC(ctx, &dst->zones, &src->zones))
        return false;
    for (size_t i = 0; i < dst->zones.count; i++)
        FORGET_VEC(&dst->zones.items[i].towns);
    for (size_t i = 0; i < dst->zones.count; i++)
        if (!DUP_VEC(ctx, &dst->zones.items[i].towns, &src->zones.items[i].towns))
            return false;
    return true;
}

static bool copy_connections(rmg_context *ctx, struct rmg_map *dst, const struct rmg_map *src)
{
    if (!DUP_VEC(ctx, &dst->conns, &src->conns))
        return false;
    for (size_t i = 0; i < dst->conns.count; i++) {
        rmg__map_connection *c = &dst->conns.items[i];
        FORGET_VEC(&c->tiles);
        FORGET_VEC(&c->guard_slots);
        FORGET_VEC(&c->guards);
        FORGET_VEC(&c->objects);
    }
    for (size_t i = 0; i < dst->conns.count; i++) {
        rmg__map_connection *c = &dst->conns.items[i];
        const rmg__map_connection *s = &src->conns.items[i];
        if (!DUP_VEC(ctx, &c->tiles, &s->tiles) || !DUP_VEC(ctx, &c->guard_slots, &s->guard_slots) ||
            !DUP_VEC(ctx, &c->guards, &s->guards) || !DUP_VEC(ctx, &c->objects, &s->objects))
            return false;
    }
    return true;
}

static bool copy_groups(rmg_context *ctx, struct rmg_map *dst, const struct rmg_map *src)
{
    if (!DUP_VEC(ctx, &dst->groups, &src->groups))
        return false;
    for (size_t i = 0; i < dst->groups.count; i++)
        FORGET_VEC(&dst->groups.items[i].objects);
    for (size_t i = 0; i < dst->groups.count; i++)
        if (!DUP_VEC(ctx, &dst->groups.items[i].objects, &src->groups.items[i].objects))
            return false;
    return true;
}

static bool copy_warnings(rmg_context *ctx, struct rmg_map *dst, const struct rmg_map *src)
{
    FORGET_VEC(&dst->warnings);
    if (src->warnings.count && !rmg__vec_grow(ctx, (void **)&dst->warnings.items, &dst->warnings.cap,
                                              src->warnings.count, sizeof *dst->warnings.items))
        return false;
    for (size_t i = 0; i < src->warnings.count; i++) {
        char *s = rmg__strdup(ctx, src->warnings.items[i]);
        if (!s)
            return false;
        dst->warnings.items[dst->warnings.count++] = s;
    }
    return true;
}

/* Deep-copies src's vectors into dst, whose vectors must be empty (not owned). */
static rmg_status copy_parts(rmg_context *ctx, struct rmg_map *dst, const struct rmg_map *src)
{
    FORGET_VEC(&dst->zones);
    FORGET_VEC(&dst->conns);
    FORGET_VEC(&dst->objects);
    FORGET_VEC(&dst->groups);
    FORGET_VEC(&dst->warnings);
    if (copy_zones(ctx, dst, src) && copy_connections(ctx, dst, src) && DUP_VEC(ctx, &dst->objects, &src->objects) &&
        copy_groups(ctx, dst, src) && copy_warnings(ctx, dst, src))
        return RMG_OK;
    rmg__map_free_parts(dst, ctx);
    return rmg__error_nomem(ctx);
}

/* Bytes per tile of the layers, in the order they are packed. */
static size_t layer_bytes(const struct rmg_map *m)
{
    return sizeof *m->terrain + sizeof *m->tile_zone + sizeof *m->flags + sizeof *m->road + sizeof *m->tile_object +
           sizeof *m->river;
}

static void pack_layers(uint8_t *dst, const struct rmg_map *m)
{
    size_t n = m->n_tiles;
    memcpy(dst, m->terrain, n * sizeof *m->terrain);
    dst += n * sizeof *m->terrain;
    memcpy(dst, m->tile_zone, n * sizeof *m->tile_zone);
    dst += n * sizeof *m->tile_zone;
    memcpy(dst, m->flags, n * sizeof *m->flags);
    dst += n * sizeof *m->flags;
    memcpy(dst, m->road, n * sizeof *m->road);
    dst += n * sizeof *m->road;
    memcpy(dst, m->tile_object, n * sizeof *m->tile_object);
    dst += n * sizeof *m->tile_object;
    memcpy(dst, m->river, n * sizeof *m->river);
}

static void unpack_layers(struct rmg_map *m, const uint8_t *src)
{
    size_t n = m->n_tiles;
    memcpy(m->terrain, src, n * sizeof *m->terrain);
    src += n * sizeof *m->terrain;
    memcpy(m->tile_zone, src, n * sizeof *m->tile_zone);
    src += n * sizeof *m->tile_zone;
    memcpy(m->flags, src, n * sizeof *m->flags);
    src += n * sizeof *m->flags;
    memcpy(m->road, src, n * sizeof *m->road);
    src += n * sizeof *m->road;
    memcpy(m->tile_object, src, n * sizeof *m->tile_object);
    src += n * sizeof *m->tile_object;
    memcpy(m->river, src, n * sizeof *m->river);
}

void rmg__checkpoint_free(rmg_context *ctx, rmg__checkpoint *cp)
{
    if (!cp->taken)
        return;
    rmg__map_free_parts(&cp->parts, ctx);
    rmg__free(ctx, cp->layers);
    rmg__free(ctx, cp->zone_stats);
    rmg__free(ctx, cp->zone_map_id);
    memset(cp, 0, sizeof *cp);
}

/* The zone statistics the objects stage keeps in the map arena: one per map zone. */
static size_t zone_stats_count(const struct rmg_map *m)
{
    return m->zone_stats ? m->zones.count : 0;
}

rmg_status rmg__checkpoint_take(rmg__gen *g, rmg__checkpoint *cp)
{
    rmg_context *ctx = g->ctx;
    const struct rmg_map *m = g->map;
    rmg__checkpoint_free(ctx, cp);
    cp->taken = true;
    size_t n_stats = zone_stats_count(m), n_zones = g->tpl->n_zones + 1;
    cp->layers = rmg__malloc(ctx, m->n_tiles * layer_bytes(m));
    cp->zone_map_id = rmg__malloc(ctx, n_zones * sizeof *cp->zone_map_id);
    cp->zone_stats = n_stats ? rmg__malloc(ctx, n_stats * sizeof *cp->zone_stats) : NULL;
    rmg_status st = copy_parts(ctx, &cp->parts, m);
    if (st == RMG_OK && (!cp->layers || !cp->zone_map_id || (n_stats && !cp->zone_stats)))
        st = rmg__error_nomem(ctx);
    if (st != RMG_OK) {
        rmg__checkpoint_free(ctx, cp);
        return st;
    }
    pack_layers(cp->layers, m);
    memcpy(cp->zone_map_id, g->zone_map_id, n_zones * sizeof *cp->zone_map_id);
    if (n_stats)
        memcpy(cp->zone_stats, m->zone_stats, n_stats * sizeof *cp->zone_stats);
    cp->parts.zone_stats = m->zone_stats;
    cp->parts.place_report = m->place_report;
    memcpy(cp->stage_data, g->stage_data, sizeof cp->stage_data);
    cp->mirror_flags = g->mirror_flags;
    cp->mirror_first_object = g->mirror_first_object;
    cp->mirror_first_group = g->mirror_first_group;
    return RMG_OK;
}

rmg_status rmg__checkpoint_restore(rmg__gen *g, const rmg__checkpoint *cp)
{
    rmg_context *ctx = g->ctx;
    struct rmg_map *m = g->map;
    rmg__map_free_parts(m, ctx);
    rmg_status st = copy_parts(ctx, m, &cp->parts);
    if (st != RMG_OK)
        return st;
    unpack_layers(m, cp->layers);
    memcpy(g->zone_map_id, cp->zone_map_id, (g->tpl->n_zones + 1) * sizeof *cp->zone_map_id);
    m->zone_stats = cp->parts.zone_stats;
    if (m->zone_stats)
        memcpy(m->zone_stats, cp->zone_stats, zone_stats_count(m) * sizeof *m->zone_stats);
    m->place_report = cp->parts.place_report;
    memcpy(g->stage_data, cp->stage_data, sizeof g->stage_data);
    g->mirror_flags = cp->mirror_flags;
    g->mirror_first_object = cp->mirror_first_object;
    g->mirror_first_group = cp->mirror_first_group;
    return RMG_OK;
}
