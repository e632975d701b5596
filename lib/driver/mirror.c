/*
 * Mirror packs (WAT-03): the underground is an exact copy of the surface. Placement copies the
 * zones and build copies terrain, borders and connections; the objects and guard stages then
 * fill only the surface zones, and this step copies what they placed onto the copy zones:
 * every object with its footprint and tile flags, the groups, and the guards of groups and
 * objects (connection guards stand on both levels already). Player colours follow the copy
 * zone's owner.
 */
#include <string.h>

#include "driver_internal.h"
#include "place/place_internal.h"
#include "objects/details.h"

typedef struct mirror_state {
    rmg__gen *g;
    uint32_t first_copy;  /* ids of copied objects start here */
    int *copy_of_zone;    /* per map zone id: the id of its underground copy, 0 none */
    uint32_t *copy_of;    /* per object id: the id of its copy, 0 none */
    uint32_t *group_copy; /* per group id: the id of its copy, 0 none */
} mirror_state;

static bool mirrored_pack(const rmg__gen *g)
{
    return g->pack && g->pack->mirror && g->map && g->map->levels == 2;
}

rmg_status rmg__mirror_snapshot(rmg__gen *g)
{
    if (!mirrored_pack(g))
        return RMG_OK;
    struct rmg_map *m = g->map;
    g->mirror_flags = rmg__arena_alloc(&g->scratch, m->n_tiles * sizeof *m->flags);
    if (!g->mirror_flags)
        return rmg__error_nomem(g->ctx);
    memcpy(g->mirror_flags, m->flags, m->n_tiles * sizeof *m->flags);
    g->mirror_first_object = (uint32_t)m->objects.count + 1;
    g->mirror_first_group = (uint32_t)m->groups.count + 1;
    return RMG_OK;
}

static bool copies_object(const mirror_state *s, const rmg__map_object *o)
{
    return o->id >= s->g->mirror_first_object && o->z == 0 && s->copy_of_zone[o->zone] &&
           !(o->kind == RMG_OBJECT_MONSTER && o->guards_kind == RMG_GUARDS_CONNECTION);
}

static rmg_status copy_objects(mirror_state *s)
{
    struct rmg_map *m = s->g->map;
    size_t n = m->objects.count;
    s->first_copy = (uint32_t)n + 1;
    for (size_t i = 0; i < n; i++) {
        rmg__map_object o = m->objects.items[i];
        if (!copies_object(s, &o))
            continue;
        rmg__map_object *c = rmg__map_add_object(m, o.key, o.kind, o.x, o.y, 1);
        if (!c)
            return RMG_ERR_NOMEM;
        uint32_t id = c->id;
        const char *key = c->key;
        *c = o;
        c->id = id;
        c->key = key;
        c->z = 1;
        c->zone = s->copy_of_zone[o.zone];
        c->hero = -1; /* a hero exists once on a map (MIS-31): the details pass draws another */
        if (o.guard_slot)
            c->guard_slot = o.guard_slot + (uint32_t)((size_t)m->width * (size_t)m->height);
        if (o.kind == RMG_OBJECT_TOWN && o.owner)
            c->owner = m->zones.items[c->zone - 1].owner;
        s->copy_of[o.id] = id;
    }
    return RMG_OK;
}

static uint32_t mapped(const mirror_state *s, uint32_t id)
{
    return id && s->copy_of[id] ? s->copy_of[id] : 0;
}

static rmg_status copy_groups(mirror_state *s)
{
    struct rmg_map *m = s->g->map;
    size_t n = m->groups.count;
    for (size_t i = s->g->mirror_first_group - 1; i < n; i++) {
        rmg__map_group src = m->groups.items[i];
        if (!s->copy_of_zone[src.zone])
            continue;
        rmg__map_group *c = rmg__map_add_group(m, s->copy_of_zone[src.zone], src.range, src.target);
        if (!c)
            return RMG_ERR_NOMEM;
        c->value = src.value;
        c->guard = mapped(s, src.guard);
        c->guard_slot = src.guard_slot ? src.guard_slot + (uint32_t)((size_t)m->width * (size_t)m->height) : 0;
        for (size_t k = 0; k < src.objects.count; k++)
            if (!RMG__VEC_PUSH(s->g->ctx, &c->objects, mapped(s, src.objects.items[k])))
                return rmg__error_nomem(s->g->ctx);
        s->group_copy[src.id] = c->id;
    }
    return RMG_OK;
}

/* Links inside the copies point at copies: guards, guarded things, groups. */
static void relink_objects(mirror_state *s)
{
    struct rmg_map *m = s->g->map;
    for (size_t i = s->first_copy - 1; i < m->objects.count; i++) {
        rmg__map_object *o = &m->objects.items[i];
        o->guard = mapped(s, o->guard);
        o->link = mapped(s, o->link);
        o->group = o->group ? s->group_copy[o->group] : 0;
        if (o->kind == RMG_OBJECT_MONSTER)
            o->guards_id = o->guards_kind == RMG_GUARDS_GROUP ? s->group_copy[o->guards_id] : mapped(s, o->guards_id);
    }
}

/* Applies what the objects and guard stages changed on each surface tile of a mirrored zone to
 * the tile below it. */
static void copy_tiles(mirror_state *s)
{
    struct rmg_map *m = s->g->map;
    size_t plane = (size_t)m->width * (size_t)m->height;
    for (size_t t = 0; t < plane; t++) {
        if (!s->copy_of_zone[m->tile_zone[t]])
            continue;
        uint16_t changed = (uint16_t)(m->flags[t] ^ s->g->mirror_flags[t]);
        size_t u = t + plane;
        if (changed)
            m->flags[u] = (uint16_t)((m->flags[u] & ~changed) | (m->flags[t] & changed));
        uint32_t c = mapped(s, m->tile_object[t]);
        if (c)
            m->tile_object[u] = c;
    }
}

static rmg_status copy_town_lists(mirror_state *s)
{
    struct rmg_map *m = s->g->map;
    for (size_t i = 0; i < m->zones.count; i++) {
        int copy = s->copy_of_zone[i + 1];
        if (!copy)
            continue;
        rmg__map_zone *src = &m->zones.items[i], *dst = &m->zones.items[copy - 1];
        for (size_t k = 0; k < src->towns.count; k++)
            if (!RMG__VEC_PUSH(s->g->ctx, &dst->towns, mapped(s, src->towns.items[k])))
                return rmg__error_nomem(s->g->ctx);
        dst->main_town = mapped(s, src->main_town);
    }
    return RMG_OK;
}

rmg_status rmg__mirror_content(rmg__gen *g)
{
    if (!mirrored_pack(g) || !g->mirror_flags)
        return RMG_OK;
    struct rmg_map *m = g->map;
    mirror_state s = {g, 0, NULL, NULL, NULL};
    s.copy_of_zone = rmg__arena_alloc(&g->scratch, (m->zones.count + 1) * sizeof *s.copy_of_zone);
    s.copy_of = rmg__arena_alloc(&g->scratch, (2 * m->objects.count + 2) * sizeof *s.copy_of);
    s.group_copy = rmg__arena_alloc(&g->scratch, (2 * m->groups.count + 2) * sizeof *s.group_copy);
    if (!s.copy_of_zone || !s.copy_of || !s.group_copy)
        return rmg__error_nomem(g->ctx);
    for (size_t i = 0; i < m->zones.count; i++) {
        int original = rmg__map_mirror_of(m, m->zones.items[i].id);
        if (original > 0 && (size_t)original <= m->zones.count)
            s.copy_of_zone[original] = m->zones.items[i].id;
    }
    rmg_status st = copy_objects(&s);
    if (st == RMG_OK)
        st = copy_groups(&s);
    if (st == RMG_OK)
        st = copy_town_lists(&s);
    if (st != RMG_OK)
        return st == RMG_ERR_NOMEM ? rmg__error_nomem(g->ctx) : st;
    relink_objects(&s);
    copy_tiles(&s);
    if (m->zone_stats)
        for (size_t i = 0; i < m->zones.count; i++)
            if (s.copy_of_zone[i + 1])
                m->zone_stats[s.copy_of_zone[i + 1] - 1] = m->zone_stats[i];
    return rmg__objects_details(g); /* copied prisons and quest artifacts get their own */
}
