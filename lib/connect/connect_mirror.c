/* Mirror packs (WAT-03): the underground is the surface's copy, tile for tile. The place stage
 * copied the zones; here the built surface (terrain, sealed borders, passages, skeleton, the
 * stage's objects and the connections) is copied onto it before the mirror links are placed. */
#include <string.h>

#include "connect_state.h"

static rmg_status copy_objects(rmg__connect_state *s, const uint16_t *copy_of, uint32_t *new_id, size_t n_obj)
{
    struct rmg_map *m = s->b.m;
    for (size_t i = 0; i < n_obj; i++) {
        rmg__map_object o = m->objects.items[i]; /* by value: the array may move */
        new_id[i] = 0;
        if (o.z != 0)
            continue;
        rmg__map_object *c = rmg__map_add_object(m, o.key, o.kind, o.x, o.y, 1);
        if (!c)
            return RMG_ERR_NOMEM;
        c->block = o.block;
        c->visit = o.visit;
        c->color = o.color;
        c->value = o.value;
        c->zone = copy_of[o.zone];
        c->link = o.link; /* remapped below */
        new_id[i] = c->id;
        rmg__map_stamp_object(m, c);
    }
    for (size_t i = 0; i < n_obj; i++) {
        if (!new_id[i])
            continue;
        rmg__map_object *c = &m->objects.items[new_id[i] - 1];
        c->link = c->link && c->link <= n_obj ? new_id[c->link - 1] : 0;
    }
    return RMG_OK;
}

/* Appends src's tiles moved by `by` to dst (vectors of the connection struct). */
#define SHIFT_TILES(ctx, dst, src, by, st)                                                         \
    for (size_t k_ = 0; k_ < (src)->count && (st) == RMG_OK; k_++)                              \
        if (!RMG__VEC_PUSH((ctx), (dst), (src)->items[k_] + (by)))                               \
            (st) = rmg__error_nomem(ctx);

static rmg_status copy_connection(rmg__connect_state *s, size_t i, const uint16_t *copy_of, const uint32_t *new_id,
                                  uint32_t plane)
{
    struct rmg_map *m = s->b.m;
    rmg_context *ctx = s->b.ctx;
    const rmg__map_connection *o = &m->conns.items[i];
    rmg__map_connection c;
    memset(&c, 0, sizeof c);
    c.id = (int)m->conns.count + 1;
    c.tpl_index = o->tpl_index;
    c.zone_a = copy_of[o->zone_a];
    c.zone_b = copy_of[o->zone_b];
    c.kind = o->kind;
    c.realized = o->realized;
    c.value = o->value;
    c.border_guard_fallback = o->border_guard_fallback;
    c.why = o->why;
    rmg_status st = RMG_OK;
    SHIFT_TILES(ctx, &c.tiles, &o->tiles, plane, st)
    SHIFT_TILES(ctx, &c.guard_slots, &o->guard_slots, plane, st)
    for (size_t k = 0; k < o->objects.count && st == RMG_OK; k++)
        if (!RMG__VEC_PUSH(ctx, &c.objects, new_id[o->objects.items[k] - 1]))
            st = rmg__error_nomem(ctx);
    if (st == RMG_OK && !RMG__VEC_PUSH(ctx, &m->conns, c))
        st = rmg__error_nomem(ctx);
    if (st != RMG_OK) {
        RMG__VEC_FREE(ctx, &c.tiles);
        RMG__VEC_FREE(ctx, &c.guard_slots);
        RMG__VEC_FREE(ctx, &c.objects);
    }
    return st;
}

static rmg_status copy_skeletons(rmg__connect_state *s, const uint16_t *copy_of, uint32_t plane)
{
    struct rmg_map *m = s->b.m;
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].level == 1) {
            s->zfree[i].count = 0;
            s->start[i] = RMG__NO_TILE;
        }
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        int c = copy_of[z->id];
        if (z->level != 0 || !c)
            continue;
        m->zones.items[c - 1].terrain = z->terrain;
        m->zones.items[c - 1].chosen_terrain = z->chosen_terrain;
        if (s->start[i] != RMG__NO_TILE)
            s->start[c - 1] = s->start[i] + plane;
    }
    for (uint32_t t = 0; t < plane; t++) {
        int c = copy_of[m->tile_zone[t]];
        if ((m->flags[t] & RMG__T_FREE) && c && !RMG__VEC_PUSH(s->b.ctx, &s->zfree[c - 1], t + plane))
            return rmg__error_nomem(s->b.ctx);
    }
    return RMG_OK;
}

rmg_status rmg__connect_mirror_copy(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    rmg_context *ctx = s->b.ctx;
    uint32_t plane = (uint32_t)m->width * (uint32_t)m->height;
    size_t n_obj = m->objects.count, n_conn = m->conns.count;
    uint16_t *copy_of = rmg__calloc(ctx, m->zones.count + 1, sizeof *copy_of);
    uint32_t *new_id = rmg__calloc(ctx, n_obj ? n_obj : 1, sizeof *new_id);
    if (!copy_of || !new_id) {
        rmg__free(ctx, copy_of);
        rmg__free(ctx, new_id);
        return rmg__error_nomem(ctx);
    }
    for (uint32_t t = 0; t < plane; t++) {
        if (!copy_of[m->tile_zone[t]])
            copy_of[m->tile_zone[t]] = m->tile_zone[t + plane];
        m->terrain[t + plane] = m->terrain[t];
        m->flags[t + plane] = (uint16_t)(m->flags[t] & ~(RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_USED));
        if (m->flags[t] & RMG__T_OBJECT)
            m->flags[t + plane] &= (uint16_t)~RMG__T_BLOCKED;
        m->tile_object[t + plane] = 0;
    }
    copy_of[0] = 0;
    rmg_status st = copy_skeletons(s, copy_of, plane);
    if (st == RMG_OK)
        st = copy_objects(s, copy_of, new_id, n_obj);
    for (size_t i = 0; i < n_conn && st == RMG_OK; i++)
        st = copy_connection(s, i, copy_of, new_id, plane);
    rmg__free(ctx, copy_of);
    rmg__free(ctx, new_id);
    return st;
}
