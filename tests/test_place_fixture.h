/* Hand-built templates and generation state for the place stage tests (test_place*.c). */
#ifndef PLACE_FIXTURE_H
#define PLACE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "place/place_internal.h"

#define FX_MAX_ZONES 64
#define FX_MAX_LINKS 160

typedef struct fixture {
    rmg_context *ctx;
    struct rmg_pack *pack;
    rmg__gen g;
    bool zone_active[FX_MAX_ZONES];
    bool conn_active[FX_MAX_LINKS];
    int zone_map_id[FX_MAX_ZONES];
    rmg__zone_solution sol[FX_MAX_ZONES];
} fixture;

static inline rmg__template *fx_tpl(fixture *fx)
{
    return &fx->pack->templates[0];
}

/* A pack with one empty template; ctx may be shared (NULL: a fresh test context). */
static inline rmg_status fx_init(fixture *fx, rmg_context *ctx)
{
    memset(fx, 0, sizeof *fx);
    fx->ctx = ctx ? ctx : rmg_test_context(NULL, 1);
    for (int i = 0; i < FX_MAX_ZONES; i++)
        fx->sol[i].player_town_type = -1;
    rmg_status st = rmg__pack_new(fx->ctx, &fx->pack);
    if (st != RMG_OK)
        return st;
    return rmg__pack_add_template(fx->pack) ? RMG_OK : rmg__error_nomem(fx->ctx);
}

/* Appends zone `id` of relative size `size`; returns its template index or -1. */
static inline int fx_zone(fixture *fx, int id, double size)
{
    rmg__zone *z = rmg__template_add_zone(fx->pack, fx_tpl(fx));
    if (!z)
        return -1;
    z->id = id;
    z->size = size;
    return (int)(fx_tpl(fx)->n_zones - 1);
}

static inline rmg__zone *fx_zone_by_id(fixture *fx, int id)
{
    long i = rmg__template_find_zone(fx_tpl(fx), id);
    return i < 0 ? NULL : &fx_tpl(fx)->zones[i];
}

static inline int fx_link(fixture *fx, int a, int b, rmg_connection_placement p, rmg_connection_type type)
{
    rmg__connection *c = rmg__template_add_connection(fx->pack, fx_tpl(fx));
    if (!c)
        return -1;
    c->zone_a = a;
    c->zone_b = b;
    c->placement = p;
    c->type = type;
    return (int)(fx_tpl(fx)->n_connections - 1);
}

/* Runs the place stage on a fresh map. */
static inline rmg_status fx_place(fixture *fx, int w, int h, int levels, rmg_water_level water, uint64_t seed)
{
    rmg__map_free(fx->g.map);
    const rmg__template *t = fx_tpl(fx);
    rmg__gen *g = &fx->g;
    const struct rmg_content *content = g->content;
    memset(g, 0, sizeof *g);
    g->content = content;
    g->ctx = fx->ctx;
    g->pack = fx->pack;
    g->tpl = t;
    rmg_generate_options_init(&g->opt);
    g->opt.width = w;
    g->opt.height = h;
    g->opt.levels = levels;
    g->opt.water = water;
    g->root_seed = seed;
    for (size_t i = 0; i < t->n_zones && i < FX_MAX_ZONES; i++)
        fx->zone_active[i] = true;
    for (size_t i = 0; i < t->n_connections && i < FX_MAX_LINKS; i++)
        fx->conn_active[i] = true;
    g->zone_active = fx->zone_active;
    g->conn_active = fx->conn_active;
    g->zone_map_id = fx->zone_map_id;
    g->sol.zones = fx->sol;
    rmg_status st = rmg__map_new(fx->ctx, w, h, levels, &g->map);
    if (st != RMG_OK)
        return st;
    return rmg__stage_place(g);
}

static inline void fx_free(fixture *fx, bool destroy_ctx)
{
    rmg__map_free(fx->g.map);
    fx->g.map = NULL;
    rmg__pack_free(fx->pack);
    fx->pack = NULL;
    if (destroy_ctx)
        rmg_context_destroy(fx->ctx);
}

/* Map zone (0-based index) of template zone `id`. */
static inline const rmg__map_zone *fx_map_zone(fixture *fx, int id)
{
    long i = rmg__template_find_zone(fx_tpl(fx), id);
    if (i < 0 || !fx->zone_map_id[i])
        return NULL;
    return &fx->g.map->zones.items[fx->zone_map_id[i] - 1];
}

static inline const rmg__place_zone_report *fx_zone_report(fixture *fx, int id)
{
    const rmg__map_zone *z = fx_map_zone(fx, id);
    return z ? &fx->g.map->place_report->zones[z->id - 1] : NULL;
}

/* 4 * squared lattice distance between two template zones (doubled coordinates). */
static inline int fx_cell_d2(fixture *fx, int a, int b)
{
    const rmg__place_zone_report *ra = fx_zone_report(fx, a), *rb = fx_zone_report(fx, b);
    int xa = 2 * ra->cell_col + (ra->cell_row & 1), xb = 2 * rb->cell_col + (rb->cell_row & 1);
    int dx = xa - xb, dy = ra->cell_row - rb->cell_row;
    return dx * dx + 3 * dy * dy;
}

static inline bool fx_same_level(fixture *fx, int a, int b)
{
    return fx_map_zone(fx, a)->level == fx_map_zone(fx, b)->level;
}

/* Lattice neighbours on one level (4 * d^2 == 4). */
static inline bool fx_adjacent(fixture *fx, int a, int b)
{
    return fx_same_level(fx, a, b) && fx_cell_d2(fx, a, b) == 4;
}

/* Checks PLC-11's invariants: every tile owned by an existing zone, tile counts right, every
 * zone non-empty and one 4-connected region. Returns a description of the first failure. */
static inline const char *fx_check_partition(const struct rmg_map *m)
{
    static char why[256];
    size_t nz = m->zones.count, plane = (size_t)m->width * (size_t)m->height;
    size_t *count = calloc(nz + 1, sizeof *count), *seen = calloc(nz + 1, sizeof *seen);
    uint32_t *stack = malloc(m->n_tiles * sizeof *stack);
    uint8_t *visited = calloc(m->n_tiles, 1);
    const char *fail = NULL;
    for (size_t t = 0; t < m->n_tiles && !fail; t++) {
        if (m->tile_zone[t] == 0 || m->tile_zone[t] > nz) {
            snprintf(why, sizeof why, "tile %zu has zone %u", t, m->tile_zone[t]);
            fail = why;
        } else {
            count[m->tile_zone[t]]++;
        }
    }
    for (size_t i = 0; i < nz && !fail; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->id != (int)i + 1 || z->n_tiles == 0 || z->n_tiles != count[i + 1]) {
            snprintf(why, sizeof why, "zone %zu: id %d, %zu tiles, counted %zu", i + 1, z->id, z->n_tiles, count[i + 1]);
            fail = why;
        }
    }
    /* One flood per zone from its first tile must reach all its tiles. */
    for (size_t t = 0; t < m->n_tiles && !fail; t++) {
        uint16_t id = m->tile_zone[t];
        if (seen[id]++)
            continue;
        size_t sp = 0, reached = 0;
        stack[sp++] = (uint32_t)t;
        visited[t] = 1;
        while (sp) {
            size_t u = stack[--sp], in = u % plane;
            int x = (int)(in % (size_t)m->width), y = (int)(in / (size_t)m->width);
            reached++;
            const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int k = 0; k < 4; k++) {
                int nx = x + d[k][0], ny = y + d[k][1];
                if (nx < 0 || ny < 0 || nx >= m->width || ny >= m->height)
                    continue;
                size_t v = u - in + (size_t)ny * (size_t)m->width + (size_t)nx;
                if (!visited[v] && m->tile_zone[v] == id) {
                    visited[v] = 1;
                    stack[sp++] = (uint32_t)v;
                }
            }
        }
        if (reached != count[id]) {
            snprintf(why, sizeof why, "zone %u is not connected: %zu of %zu tiles reached", id, reached, count[id]);
            fail = why;
        }
    }
    free(count);
    free(seen);
    free(stack);
    free(visited);
    return fail;
}

#endif
