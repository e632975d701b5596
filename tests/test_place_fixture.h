/* Hand-built templates and generation state for the place stage tests (test_place*.c). */
#ifndef PLACE_FIXTURE_H
#define PLACE_FIXTURE_H

#include <math.h>
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
    int players;                  /* > 0: zones and links filtered for this count (1 human) */
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
        fx->zone_active[i] = fx->players <= 0 || rmg__zone_active(&t->zones[i], fx->players, 1);
    for (size_t i = 0; i < t->n_connections && i < FX_MAX_LINKS; i++) {
        const rmg__connection *c = &t->connections[i];
        long a = rmg__template_find_zone(t, c->zone_a), b = rmg__template_find_zone(t, c->zone_b);
        fx->conn_active[i] = fx->players <= 0 || (a >= 0 && b >= 0 && fx->zone_active[a] && fx->zone_active[b] &&
                                                  rmg__connection_active(c, fx->players, 1));
    }
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

/* Places the template twice with `seed` (same tiles expected) and once with seed + 1 (other
 * tiles expected). */
static inline void fx_assert_deterministic(fixture *fx, int w, int h, int levels, uint64_t seed)
{
    size_t n = (size_t)w * (size_t)h * (size_t)levels;
    uint16_t *first = malloc(n * sizeof *first);
    assert_non_null(first);
    assert_int_equal(fx_place(fx, w, h, levels, RMG_WATER_NONE, seed), RMG_OK);
    memcpy(first, fx->g.map->tile_zone, n * sizeof *first);
    assert_int_equal(fx_place(fx, w, h, levels, RMG_WATER_NONE, seed), RMG_OK);
    assert_memory_equal(first, fx->g.map->tile_zone, n * sizeof *first);
    assert_int_equal(fx_place(fx, w, h, levels, RMG_WATER_NONE, seed + 1), RMG_OK);
    assert_true(memcmp(first, fx->g.map->tile_zone, n * sizeof *first) != 0);
    free(first);
}

/* ---- quality tallies (issue 6 targets) ---------------------------------------------------- */

typedef struct fx_tally {
    double *errors;               /* |land share / weight share - 1| per game zone */
    size_t n_errors, cap;
    size_t ground, ground_met;    /* ground links / realized as a shared border */
    size_t links, links_met;      /* every recommendation (ground, gate, default) / met */
    size_t templates, maps, failures;
} fx_tally;

static inline void fx_tally_error(fx_tally *q, double e)
{
    if (q->n_errors == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 4096;
        q->errors = realloc(q->errors, q->cap * sizeof *q->errors);
        assert_non_null(q->errors);
    }
    q->errors[q->n_errors++] = e;
}

/* Adds one placed map to the tallies. */
static inline void fx_tally_map(fx_tally *q, const struct rmg_map *m)
{
    const struct rmg__place_report *r = m->place_report;
    for (size_t i = 0; i < r->n_zones; i++)
        if (r->zones[i].weight_share > 0 && r->zones[i].mirror_of == 0)
            fx_tally_error(q, fabs(r->zones[i].land_share / r->zones[i].weight_share - 1.0));
    for (size_t k = 0; k < r->n_links; k++) {
        const rmg__place_link_report *l = &r->links[k];
        if (l->placement == RMG_LINK_MONOLITH || l->placement == RMG_LINK_RANDOM || l->zone_a == l->zone_b)
            continue;
        q->links++;
        q->links_met += l->met;
        if (l->placement == RMG_LINK_GROUND) {
            q->ground++;
            q->ground_met += l->border;
        }
    }
    q->maps++;
}

static inline int fx_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double fx_tally_median(fx_tally *q)
{
    if (!q->n_errors)
        return 0;
    qsort(q->errors, q->n_errors, sizeof *q->errors, fx_cmp_double);
    return q->errors[q->n_errors / 2];
}

static inline double fx_ratio(size_t a, size_t b)
{
    return b ? (double)a / (double)b : 1.0;
}

static inline void fx_tally_print(const char *label, fx_tally *q)
{
    print_message("%s: %zu maps (%zu failed): median |share error| %.3f over %zu zones; ground links met %zu/%zu "
                  "(%.1f%%); all recommendations met %zu/%zu (%.1f%%)\n",
                  label, q->maps, q->failures, fx_tally_median(q), q->n_errors, q->ground_met, q->ground,
                  100 * fx_ratio(q->ground_met, q->ground), q->links_met, q->links, 100 * fx_ratio(q->links_met, q->links));
}

#endif
