/*
 * Map validation (issue 12): checks that a map is playable as the template intends.
 *  - every land zone's free area (passable tiles, guards counted passable) is one region;
 *  - every object's entry tiles lie in (or next to) its zone's free area;
 *  - no two objects' blocked footprints overlap;
 *  - every real connection is realized, or unrealized with a reason.
 * Violations are collected as text lines.
 */
#include <stdio.h>
#include <string.h>

#include "driver/driver_internal.h"

typedef struct validator {
    const struct rmg_map *m;
    rmg_context *ctx;
    rmg__buf report;
    size_t count;
    uint32_t *label;   /* per tile: component label + 1 of its zone's free area, 0 none */
    uint32_t *queue;
} validator;

static void violation(validator *v, const char *fmt, ...) RMG__PRINTF(2, 3);

static void violation(validator *v, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (v->count < 1000) {
        rmg__buf_puts(&v->report, line);
        rmg__buf_putc(&v->report, '\n');
    }
    v->count++;
}

static bool walkable(const struct rmg_map *m, size_t t)
{
    return rmg__map_tile_passable(m, t) || (m->flags[t] & RMG__T_GUARD);
}

/* Labels the connected components of walkable tiles, per zone (4-neighbourhood + diagonals,
 * as heroes move in eight directions). Returns the number of components of each zone in
 * comps[zone id]. */
static void label_components(validator *v, uint32_t *comps)
{
    const struct rmg_map *m = v->m;
    int w = m->width, h = m->height;
    uint32_t next = 0;
    for (size_t start = 0; start < m->n_tiles; start++) {
        if (v->label[start] || !walkable(m, start))
            continue;
        uint16_t zone = m->tile_zone[start];
        comps[zone]++;
        v->label[start] = ++next;
        size_t head = 0, tail = 0;
        v->queue[tail++] = (uint32_t)start;
        while (head < tail) {
            size_t t = v->queue[head++];
            size_t plane = (size_t)w * (size_t)h;
            int z = (int)(t / plane), y = (int)((t % plane) / (size_t)w), x = (int)(t % (size_t)w);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= w || ny >= h)
                        continue;
                    size_t n = rmg__tile(w, h, nx, ny, z);
                    if (!v->label[n] && m->tile_zone[n] == zone && walkable(m, n)) {
                        v->label[n] = next;
                        v->queue[tail++] = (uint32_t)n;
                    }
                }
        }
    }
}

static void check_zone_areas(validator *v, const uint32_t *comps)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->kind == RMG_ZONE_ROCK || z->kind == RMG_ZONE_WATER)
            continue;
        if (comps[z->id] == 0)
            violation(v, "zone %d (template zone %d): no free tile", z->id, z->tpl_id);
        else if (comps[z->id] > 1)
            violation(v, "zone %d (template zone %d): free area split into %u parts", z->id, z->tpl_id, comps[z->id]);
    }
}

typedef struct entry_check {
    validator *v;
    const rmg__map_object *o;
    bool outside;
    int ok;
} entry_check;

static void check_entry_tile(void *user, int x, int y)
{
    entry_check *e = user;
    const struct rmg_map *m = e->v->m;
    if (x < 0 || y < 0 || x >= m->width || y >= m->height) {
        e->outside = true;
        return;
    }
    size_t t = rmg__tile(m->width, m->height, x, y, e->o->z);
    if (e->v->label[t])
        e->ok++;
}

static void check_objects(validator *v)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind == RMG_OBJECT_OBSTACLE || o->kind == RMG_OBJECT_MONSTER || !o->visit)
            continue;
        entry_check e = {v, o, false, 0};
        rmg__footprint_tiles(o->visit, o->x, o->y, check_entry_tile, &e);
        if (e.outside)
            violation(v, "object %u (%s) at %d,%d,%d: footprint leaves the map", o->id, o->key ? o->key : "?", o->x,
                      o->y, o->z);
        else if (!e.ok)
            violation(v, "object %u (%s) at %d,%d,%d: entry not reachable", o->id, o->key ? o->key : "?", o->x, o->y,
                      o->z);
    }
}

typedef struct overlap_check {
    validator *v;
    const rmg__map_object *o;
    uint32_t *owner;
} overlap_check;

static void claim_tile(void *user, int x, int y)
{
    overlap_check *c = user;
    const struct rmg_map *m = c->v->m;
    if (x < 0 || y < 0 || x >= m->width || y >= m->height)
        return;
    size_t t = rmg__tile(m->width, m->height, x, y, c->o->z);
    if (c->owner[t] && c->owner[t] != c->o->id)
        violation(c->v, "objects %u and %u overlap at %d,%d,%d", c->owner[t], c->o->id, x, y, c->o->z);
    c->owner[t] = c->o->id;
}

static void check_overlaps(validator *v, uint32_t *owner)
{
    const struct rmg_map *m = v->m;
    memset(owner, 0, m->n_tiles * sizeof *owner);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        overlap_check c = {v, o, owner};
        rmg__footprint_tiles(o->block | o->visit, o->x, o->y, claim_tile, &c);
    }
}

static void check_connections(validator *v)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (c->realized == RMG_REALIZED_UNREALIZED && !c->why)
            violation(v, "connection %d (zones %d-%d) is not realized and no reason is given", c->id, c->zone_a,
                      c->zone_b);
    }
}

static rmg_status validate(const struct rmg_map *m, rmg_context *ctx, char **report, size_t *count)
{
    validator v;
    memset(&v, 0, sizeof v);
    v.m = m;
    v.ctx = ctx;
    rmg__buf_init(&v.report, ctx);
    v.label = rmg__calloc(ctx, m->n_tiles, sizeof *v.label);
    v.queue = rmg__malloc(ctx, m->n_tiles * sizeof *v.queue);
    uint32_t *comps = rmg__calloc(ctx, 65536, sizeof *comps);
    rmg_status st = RMG_OK;
    if (!v.label || !v.queue || !comps) {
        st = rmg__error_nomem(ctx);
    } else {
        label_components(&v, comps);
        check_zone_areas(&v, comps);
        check_objects(&v);
        check_overlaps(&v, v.queue);
        check_connections(&v);
    }
    rmg__free(ctx, comps);
    rmg__free(ctx, v.label);
    rmg__free(ctx, v.queue);
    if (st == RMG_OK && v.report.failed)
        st = rmg__error_nomem(ctx);
    if (st != RMG_OK) {
        rmg__buf_free(&v.report);
        return st;
    }
    *count = v.count;
    if (report) {
        *report = rmg__buf_take(&v.report);
        if (!*report)
            return rmg__error_nomem(ctx);
    } else {
        rmg__buf_free(&v.report);
    }
    return RMG_OK;
}

rmg_status rmg_map_validate(const rmg_map *map, char **report, size_t *count)
{
    if (!map || !count)
        return RMG_ERR_INVALID_ARG;
    if (report)
        *report = NULL;
    return validate(map, map->ctx, report, count);
}

rmg_status rmg__map_validate_internal(const struct rmg_map *m, rmg_context *ctx)
{
    char *report = NULL;
    size_t count = 0;
    rmg_status st = validate(m, ctx, &report, &count);
    if (st != RMG_OK)
        return st;
    if (count) {
        char *nl = strchr(report, '\n');
        if (nl)
            *nl = '\0';
        st = rmg__error_gen(ctx, RMG_ERR_IMPOSSIBLE, "validate", -1, -1, "%zu violation(s); first: %s", count, report);
    }
    rmg__free(ctx, report);
    return st;
}
