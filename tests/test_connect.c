/* Build stage and the road/obstacle part of the finish stage on small hand-made maps:
 * connection kinds (CON-01..13, CON-21), terrain conversion (ZON-14), sealed borders, mirror
 * links (ZON-29..36), water links (WAT-01/02), border guards (CON-05, MIS-11), roads
 * (CON-15..20, ZON-06) and obstacles, plus the allocator failure harness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "connect/connect_internal.h"
#include "finish/finish_internal.h"
#include "content/content_internal.h"
#include "map/map_reach.h"
#include "map/map_views.h"

#define MAX_Z 40
#define MAX_C 64

typedef struct fx {
    rmg_context *ctx;
    struct rmg_pack *pack;
    rmg__template *t;
    struct rmg_map *m;
    rmg__gen g;
    bool zone_active[MAX_Z], conn_active[MAX_C];
    int zone_map_id[MAX_Z];
} fx;

static bool fx_init(fx *f, rmg_context *ctx, int w, int h, int levels, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    f->ctx = ctx;
    if (rmg__pack_new(ctx, &f->pack) != RMG_OK)
        return false;
    f->t = rmg__pack_add_template(f->pack);
    if (!f->t || rmg__map_new(ctx, w, h, levels, &f->m) != RMG_OK)
        return false;
    f->g.ctx = ctx;
    f->g.pack = f->pack;
    f->g.tpl = f->t;
    rmg_generate_options_init(&f->g.opt);
    f->g.opt.width = w;
    f->g.opt.height = h;
    f->g.opt.levels = levels;
    f->g.root_seed = seed;
    f->g.zone_active = f->zone_active;
    f->g.conn_active = f->conn_active;
    f->g.zone_map_id = f->zone_map_id;
    f->g.map = f->m;
    return true;
}

static void fx_free(fx *f)
{
    rmg__map_free(f->m);
    rmg__pack_free(f->pack);
}

/* A zone: template zone `id` (0 for rock/water generator zones). Returns the map zone id. */
static int fx_zone(fx *f, int id, rmg_zone_kind kind, int level, int terrain)
{
    rmg__map_zone z;
    memset(&z, 0, sizeof z);
    z.id = (int)f->m->zones.count + 1;
    z.tpl_index = -1;
    z.kind = kind;
    z.level = level;
    z.chosen_terrain = terrain;
    z.faction = RMG_FACTION_NEUTRAL;
    if (kind != RMG_ZONE_ROCK && kind != RMG_ZONE_WATER) {
        rmg__zone *tz = rmg__template_add_zone(f->pack, f->t);
        if (!tz)
            return 0;
        tz->id = id;
        tz->kind = kind;
        z.tpl_index = (int)(f->t->n_zones - 1);
        z.tpl_id = id;
        f->zone_active[z.tpl_index] = true;
        f->zone_map_id[z.tpl_index] = z.id;
    }
    if (!RMG__VEC_PUSH(f->ctx, &f->m->zones, z))
        return 0;
    return z.id;
}

static void fx_rect(fx *f, int zone, int x0, int y0, int x1, int y1, int level)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            f->m->tile_zone[rmg__tile(f->m->width, f->m->height, x, y, level)] = (uint16_t)zone;
}

/* Zone sizes and centres (centroids) from tile_zone. */
static void fx_layout_done(fx *f)
{
    struct rmg_map *m = f->m;
    for (size_t i = 0; i < m->zones.count; i++) {
        rmg__map_zone *z = &m->zones.items[i];
        long sx = 0, sy = 0, n = 0;
        for (size_t t = 0; t < m->n_tiles; t++)
            if (m->tile_zone[t] == z->id) {
                sx += (long)(t % (size_t)m->width);
                sy += (long)((t / (size_t)m->width) % (size_t)m->height);
                n++;
            }
        z->n_tiles = (size_t)n;
        z->cx = n ? (int)(sx / n) : 0;
        z->cy = n ? (int)(sy / n) : 0;
    }
}

/* A layout from a table: each zone is one rectangle on its level; then sizes and centres. */
typedef struct zone_spec {
    int id; /* template zone id, 0 for rock and water */
    rmg_zone_kind kind;
    int level, terrain, x0, y0, x1, y1;
} zone_spec;

static void fx_zones(fx *f, const zone_spec *spec, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const zone_spec *z = &spec[i];
        int id = fx_zone(f, z->id, z->kind, z->level, z->terrain);
        assert_true(id > 0);
        fx_rect(f, id, z->x0, z->y0, z->x1, z->y1, z->level);
    }
    fx_layout_done(f);
}

static rmg__connection *fx_conn(fx *f, int a, int b, rmg_connection_type type, rmg_connection_placement p,
                                int64_t value)
{
    rmg__connection *c = rmg__template_add_connection(f->pack, f->t);
    if (!c)
        return NULL;
    c->zone_a = a;
    c->zone_b = b;
    c->type = type;
    c->placement = p;
    c->value = value;
    f->conn_active[f->t->n_connections - 1] = true;
    return c;
}

static const rmg__map_connection *conn_of(const fx *f, int tpl_index)
{
    for (size_t i = 0; i < f->m->conns.count; i++)
        if (f->m->conns.items[i].tpl_index == tpl_index)
            return &f->m->conns.items[i];
    return NULL;
}

/* The connection whose objects hold object id, 0 none. */
static int conn_of_object(const fx *f, uint32_t id)
{
    for (size_t i = 0; i < f->m->conns.count; i++)
        for (size_t k = 0; k < f->m->conns.items[i].objects.count; k++)
            if (f->m->conns.items[i].objects.items[k] == id)
                return f->m->conns.items[i].id;
    return 0;
}

static bool walkable(const struct rmg_map *m, size_t t)
{
    uint16_t fl = m->flags[t];
    if (fl & (RMG__T_WATER | RMG__T_ROCK))
        return false;
    return !(fl & RMG__T_BLOCKED) || (fl & (RMG__T_ENTRY | RMG__T_GUARD));
}

/* The 8 neighbours of t on its level. */
static size_t nbrs(const struct rmg_map *m, size_t t, size_t out[8])
{
    int w = m->width, h = m->height;
    int x = (int)(t % (size_t)w), y = (int)((t / (size_t)w) % (size_t)h), z = (int)(t / ((size_t)w * (size_t)h));
    size_t n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if ((dx || dy) && nx >= 0 && ny >= 0 && nx < w && ny < h)
                out[n++] = rmg__tile(w, h, nx, ny, z);
        }
    return n;
}

/* Flood fill from `from` over tiles where step(m, u, user) holds; calls visit on each tile
 * reached. Returns how many. */
typedef bool (*step_fn)(const struct rmg_map *m, size_t u, const void *user);
static size_t flood(const struct rmg_map *m, size_t from, step_fn step, const void *user,
                    void (*visit)(const struct rmg_map *m, size_t t, void *acc), void *acc)
{
    uint8_t *seen = calloc(m->n_tiles, 1);
    size_t *q = malloc(m->n_tiles * sizeof *q);
    size_t head = 0, tail = 0;
    q[tail++] = from;
    seen[from] = 1;
    while (head < tail) {
        size_t t = q[head++], around[8];
        if (visit)
            visit(m, t, acc);
        for (size_t k = nbrs(m, t, around); k-- > 0;) {
            size_t u = around[k];
            if (!seen[u] && step(m, u, user)) {
                seen[u] = 1;
                q[tail++] = u;
            }
        }
    }
    free(seen);
    free(q);
    return tail;
}

/* A skeleton tile on a border is always an opened passage tile (failed candidates leave none). */
static void assert_no_stray_free(const fx *f)
{
    for (size_t t = 0; t < f->m->n_tiles; t++)
        if ((f->m->flags[t] & RMG__T_FREE) && (f->m->flags[t] & RMG__T_BORDER))
            assert_true((f->m->flags[t] & RMG__T_PASSAGE) && !(f->m->flags[t] & RMG__T_BLOCKED));
}

/* Borders sealed except at passages: no step between walkable tiles of two land zones unless
 * both tiles are passage tiles. */
static void assert_sealed(const fx *f)
{
    const struct rmg_map *m = f->m;
    for (size_t t = 0; t < m->n_tiles; t++) {
        if (!walkable(m, t) || !m->tile_zone[t])
            continue;
        size_t around[8];
        for (size_t k = nbrs(m, t, around); k-- > 0;) {
            size_t u = around[k];
            if (m->tile_zone[u] == m->tile_zone[t] || !walkable(m, u))
                continue;
            assert_true(m->flags[t] & RMG__T_PASSAGE);
            assert_true(m->flags[u] & RMG__T_PASSAGE);
        }
    }
    assert_no_stray_free(f);
}

static bool step_walk(const struct rmg_map *m, size_t u, const void *user)
{
    bool through_passages = *(const bool *)user;
    return walkable(m, u) && (through_passages || !(m->flags[u] & RMG__T_PASSAGE));
}

static void add_zone_bit(const struct rmg_map *m, size_t t, void *acc)
{
    *(uint64_t *)acc |= (uint64_t)1 << m->tile_zone[t];
}

/* Flood fill from a zone over walkable tiles: the zones it enters (bit per zone id). */
static uint64_t zones_reached(const fx *f, size_t from, bool through_passages)
{
    uint64_t zones = 0;
    flood(f->m, from, step_walk, &through_passages, add_zone_bit, &zones);
    return zones;
}

static size_t free_tile_of(const fx *f, int zone)
{
    for (size_t t = 0; t < f->m->n_tiles; t++)
        if (f->m->tile_zone[t] == zone && (f->m->flags[t] & RMG__T_FREE) && !(f->m->flags[t] & RMG__T_PASSAGE))
            return t;
    fail_msg("zone %d has no free tile", zone);
    return 0;
}

static int count_kind(const fx *f, rmg_map_object_kind kind)
{
    int n = 0;
    for (size_t i = 0; i < f->m->objects.count; i++)
        n += f->m->objects.items[i].kind == kind;
    return n;
}

/* Zones 1 | 2 | 3 in a row on the surface (start, treasure, start), map ids equal to template ids. */
static void row_of_three(fx *f, uint64_t seed, int w, int h)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), w, h, 1, seed));
    static const rmg_zone_kind kinds[3] = {RMG_ZONE_HUMAN_START, RMG_ZONE_TREASURE, RMG_ZONE_COMPUTER_START};
    static const int terrains[3] = {RMG_TERRAIN_GRASS, RMG_TERRAIN_ROUGH, RMG_TERRAIN_SNOW};
    for (int i = 0; i < 3; i++) {
        int z = fx_zone(f, i + 1, kinds[i], 0, terrains[i]);
        fx_rect(f, z, i * w / 3, 0, (i + 1) * w / 3 - 1, h - 1, 0);
    }
    fx_layout_done(f);
}

/* Two zones side by side (vertical strips) on the surface. */
static void two_strips(fx *f, int w, int h, uint64_t seed)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), w, h, 1, seed));
    int a = fx_zone(f, 1, RMG_ZONE_HUMAN_START, 0, RMG_TERRAIN_GRASS);
    int b = fx_zone(f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SNOW);
    fx_rect(f, a, 0, 0, w / 2 - 1, h - 1, 0);
    fx_rect(f, b, w / 2, 0, w - 1, h - 1, 0);
    fx_layout_done(f);
}

static void fx_done(fx *f)
{
    rmg_context *ctx = f->ctx;
    fx_free(f);
    rmg_context_destroy(ctx);
}

static bool step_zone_walk(const struct rmg_map *m, size_t u, const void *user)
{
    return m->tile_zone[u] == *(const int *)user && walkable(m, u);
}

/* Every land zone's walkable area is one 8-connected region. */
static void assert_zone_areas_connected(const fx *f)
{
    const struct rmg_map *m = f->m;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->kind == RMG_ZONE_ROCK || z->kind == RMG_ZONE_WATER)
            continue;
        size_t first = SIZE_MAX, total = 0;
        for (size_t t = 0; t < m->n_tiles; t++)
            if (m->tile_zone[t] == z->id && walkable(m, t)) {
                total++;
                if (first == SIZE_MAX)
                    first = t;
            }
        assert_true(total > 0);
        assert_int_equal(flood(m, first, step_zone_walk, &z->id, NULL, NULL), total);
    }
}

/* ---- connection kinds ---------------------------------------------------------------------- */

static void test_con03_standard_ground_passage_sealed(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 40, 24, 11);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 6000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_non_null(c);
    assert_int_equal(c->realized, RMG_REALIZED_PASSAGE);
    assert_int_equal(c->tiles.count, 2);
    assert_int_equal(c->guard_slots.count, 1);
    assert_true(f.m->flags[c->guard_slots.items[0]] & RMG__T_PASSAGE);
    assert_int_equal(c->value, 6000);
    assert_sealed(&f);
    size_t a = free_tile_of(&f, 1);
    /* Through the passage zone 2 is reachable; without it zone 1 is closed. */
    assert_int_equal(zones_reached(&f, a, true), (1u << 1) | (1u << 2));
    assert_int_equal(zones_reached(&f, a, false), 1u << 1);
    fx_done(&f);
}

static void test_con03_long_border_several_passages(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 30, 110, 12);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_GROUND, 9000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_int_equal(c->realized, RMG_REALIZED_PASSAGE);
    assert_true(c->tiles.count >= 4);          /* at least two passages */
    assert_int_equal(c->guard_slots.count * 2, c->tiles.count); /* one guard each */
    assert_sealed(&f);
    fx_done(&f);
}

static void test_con04_wide_opening_unguarded(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 40, 30, 13);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_WIDE, RMG_LINK_DEFAULT, 20000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_int_equal(c->realized, RMG_REALIZED_WIDE);
    assert_int_equal(c->guard_slots.count, 0);
    assert_true(c->tiles.count >= 40); /* nearly all of the 30-tile border, both sides */
    assert_sealed(&f);
    /* After obstacles every tile still recorded for the opening can be crossed. */
    assert_int_equal(rmg__finish_obstacles(&f.g), RMG_OK);
    c = conn_of(&f, 0);
    assert_true(c->tiles.count >= 2);
    for (size_t k = 0; k < c->tiles.count; k++)
        assert_true(walkable(f.m, c->tiles.items[k]));
    assert_zone_areas_connected(&f);
    fx_done(&f);
}

static void test_con12_monolith_even_when_adjacent(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 40, 24, 14);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 6000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_int_equal(c->realized, RMG_REALIZED_MONOLITH);
    assert_int_equal(c->objects.count, 2);
    const rmg__map_object *o1 = &f.m->objects.items[c->objects.items[0] - 1];
    const rmg__map_object *o2 = &f.m->objects.items[c->objects.items[1] - 1];
    assert_int_equal(o1->kind, RMG_OBJECT_MONOLITH);
    assert_int_equal(o1->color, o2->color);
    assert_string_equal(o1->key, o2->key);
    assert_int_equal(o1->link, o2->id);
    assert_int_equal(o2->link, o1->id);
    assert_int_equal(o1->zone, 1);
    assert_int_equal(o2->zone, 2);
    assert_int_equal(c->guard_slots.count, 2); /* CON-03: a guard on each side */
    assert_sealed(&f);
    /* Nothing opened in the border. */
    for (size_t t = 0; t < f.m->n_tiles; t++)
        assert_false(f.m->flags[t] & RMG__T_PASSAGE);
    fx_done(&f);
}

static bool has_warning(const rmg_map *m, const char *text)
{
    for (size_t i = 0; i < m->warnings.count; i++)
        if (strcmp(m->warnings.items[i], text) == 0)
            return true;
    return false;
}

static void test_con09_not_adjacent_becomes_monolith(void **state)
{
    (void)state;
    fx f;
    row_of_three(&f, 15, 60, 20);
    assert_non_null(fx_conn(&f, 1, 3, RMG_CONNECTION_WIDE, RMG_LINK_DEFAULT, 0));
    assert_non_null(fx_conn(&f, 2, 3, RMG_CONNECTION_FICTIVE, RMG_LINK_DEFAULT, 0));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_MONOLITH);
    assert_int_equal(conn_of(&f, 0)->guard_slots.count, 0); /* CON-04: wide never guarded */
    /* Issue 29: the template asked for open ground; the map says what it built instead and why. */
    assert_string_equal(conn_of(&f, 0)->why, "wide, built as a monolith pair, unguarded: the zones share no border");
    assert_true(has_warning(f.m, "connection 1 (zones 1-3) is wide, built as a monolith pair, unguarded: the zones "
                                 "share no border"));
    /* CON-06: fictive builds nothing. */
    assert_int_equal(conn_of(&f, 1)->realized, RMG_REALIZED_FICTIVE);
    assert_int_equal(conn_of(&f, 1)->tiles.count, 0);
    assert_int_equal(conn_of(&f, 1)->objects.count, 0);
    assert_sealed(&f);
    fx_done(&f);
}

static void stacked_pair(fx *f, uint64_t seed)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), 30, 30, 2, seed));
    int a = fx_zone(f, 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SUBTERRANEAN);
    int b = fx_zone(f, 2, RMG_ZONE_TREASURE, 1, RMG_TERRAIN_GRASS);
    fx_rect(f, a, 0, 0, 29, 29, 0);
    fx_rect(f, b, 0, 0, 29, 29, 1);
    fx_layout_done(f);
}

/* Issue 29: a wide link between zones on two levels is a gate pair and says why; one whose
 * template asks for a monolith is the template's choice and says nothing. */
static void test_wide_built_otherwise_warns(void **state)
{
    (void)state;
    fx f;
    stacked_pair(&f, 16);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_WIDE, RMG_LINK_DEFAULT, 0));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_GATE);
    assert_int_equal(conn_of(&f, 0)->guard_slots.count, 0);
    assert_string_equal(conn_of(&f, 0)->why,
                        "wide, built as a subterranean gate pair, unguarded: the zones lie on different levels");
    assert_true(has_warning(f.m, "connection 1 (zones 1-2) is wide, built as a subterranean gate pair, unguarded: "
                                 "the zones lie on different levels"));
    fx_done(&f);
    two_strips(&f, 40, 24, 14);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_WIDE, RMG_LINK_MONOLITH, 0));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_MONOLITH);
    assert_null(conn_of(&f, 0)->why);
    for (size_t i = 0; i < f.m->warnings.count; i++)
        assert_null(strstr(f.m->warnings.items[i], "is wide"));
    fx_done(&f);
}

static void test_con09_stacked_zones_get_gates_and_zon14_terrain(void **state)
{
    (void)state;
    fx f;
    stacked_pair(&f, 16);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_int_equal(c->realized, RMG_REALIZED_GATE);
    assert_int_equal(c->objects.count, 2);
    const rmg__map_object *o1 = &f.m->objects.items[c->objects.items[0] - 1];
    const rmg__map_object *o2 = &f.m->objects.items[c->objects.items[1] - 1];
    assert_string_equal(o1->key, "subterranean_gate");
    assert_int_equal(o1->kind, RMG_OBJECT_GATE);
    assert_int_equal(o1->z, 0);
    assert_int_equal(o2->z, 1);
    assert_int_equal(o1->link, o2->id);
    assert_int_equal(c->guard_slots.count, 2);
    /* ZON-14: subterranean on the surface becomes dirt, grass underground subterranean. */
    assert_int_equal(f.m->zones.items[0].terrain, RMG_TERRAIN_DIRT);
    assert_int_equal(f.m->zones.items[1].terrain, RMG_TERRAIN_SUBTERRANEAN);
    assert_int_equal(f.m->zones.items[1].chosen_terrain, RMG_TERRAIN_GRASS);
    assert_int_equal(f.m->terrain[rmg__tile(30, 30, 5, 5, 1)], RMG_TERRAIN_SUBTERRANEAN);
    fx_done(&f);
}

/* Zones 1 | 2 on the surface, zone 3 under both: 1-2 adjacent, 1-3 and 2-3 stacked. */
static void adjacent_and_stacked(fx *f, uint64_t seed)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), 40, 20, 2, seed));
    int a = fx_zone(f, 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_GRASS);
    int b = fx_zone(f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND);
    int c = fx_zone(f, 3, RMG_ZONE_TREASURE, 1, RMG_TERRAIN_LAVA);
    fx_rect(f, a, 0, 0, 19, 19, 0);
    fx_rect(f, b, 20, 0, 39, 19, 0);
    fx_rect(f, c, 0, 0, 39, 19, 1);
    fx_layout_done(f);
}

static void test_con10_11_13_placement_choices(void **state)
{
    (void)state;
    fx f;
    adjacent_and_stacked(&f, 24);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_UNDERGROUND_GATE, 3000)); /* not stacked */
    assert_non_null(fx_conn(&f, 1, 3, RMG_CONNECTION_STANDARD, RMG_LINK_GROUND, 3000));           /* not adjacent */
    assert_non_null(fx_conn(&f, 2, 3, RMG_CONNECTION_STANDARD, RMG_LINK_RANDOM, 3000));
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_GROUND, 3000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    /* Advisory placements fall back to what the layout allows (CON-08). */
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_PASSAGE);
    assert_int_equal(conn_of(&f, 1)->realized, RMG_REALIZED_GATE);
    assert_int_equal(conn_of(&f, 2)->realized, RMG_REALIZED_GATE); /* CON-13: gate when possible */
    assert_int_equal(conn_of(&f, 3)->realized, RMG_REALIZED_PASSAGE);
    assert_sealed(&f);
    fx_done(&f);
    /* CON-11: on a one-level map underground_gate is default: ground between adjacent zones. */
    two_strips(&f, 40, 20, 25);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_UNDERGROUND_GATE, 3000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_PASSAGE);
    fx_done(&f);
}

static void test_zon14_lava_stays_underground_and_rock_water_zones(void **state)
{
    (void)state;
    fx f;
    assert_true(fx_init(&f, rmg_test_context(NULL, 17), 30, 20, 2, 17));
    static const zone_spec layout[] = {
        {1, RMG_ZONE_TREASURE, 1, RMG_TERRAIN_LAVA, 0, 0, 19, 19},
        {0, RMG_ZONE_ROCK, 1, RMG_TERRAIN_ROCK, 20, 0, 29, 19},
        {2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SWAMP, 0, 0, 19, 19},
        {0, RMG_ZONE_WATER, 0, RMG_TERRAIN_WATER, 20, 0, 29, 19},
    };
    fx_zones(&f, layout, 4);
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(f.m->terrain[rmg__tile(30, 20, 3, 3, 1)], RMG_TERRAIN_LAVA);
    size_t rock = rmg__tile(30, 20, 25, 5, 1), water = rmg__tile(30, 20, 25, 5, 0);
    assert_int_equal(f.m->terrain[rock], RMG_TERRAIN_ROCK);
    assert_true((f.m->flags[rock] & (RMG__T_ROCK | RMG__T_BLOCKED)) == (RMG__T_ROCK | RMG__T_BLOCKED));
    assert_int_equal(f.m->terrain[water], RMG_TERRAIN_WATER);
    assert_true((f.m->flags[water] & (RMG__T_WATER | RMG__T_BLOCKED)) == (RMG__T_WATER | RMG__T_BLOCKED));
    assert_int_equal(f.m->terrain[rmg__tile(30, 20, 3, 3, 0)], RMG_TERRAIN_SWAMP);
    /* Land next to rock or water is no zone border. */
    assert_false(f.m->flags[rmg__tile(30, 20, 19, 5, 0)] & RMG__T_BORDER);
    fx_done(&f);
}

/* Water and rock never thinner than two tiles (issue 32, h3m-format.md §13.1): a water zone
 * one tile wide grows into a channel two wide (the 2 x 2 square up-left of each of its tiles,
 * the first with the most water, takes the land's tile: the column to its left), a shore running
 * diagonally in steps of one takes a land corner, and after the connect stage no tile of the map
 * lacks a view, the water still one piece from top to bottom. */
static void test_thin_water_grows_two_wide(void **state)
{
    (void)state;
    fx f;
    assert_true(fx_init(&f, rmg_test_context(NULL, 23), 30, 20, 1, 23));
    int a = fx_zone(&f, 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_GRASS);
    int w = fx_zone(&f, 0, RMG_ZONE_WATER, 0, RMG_TERRAIN_WATER);
    int b = fx_zone(&f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SNOW);
    fx_rect(&f, a, 0, 0, 14, 19, 0);
    fx_rect(&f, b, 15, 0, 29, 19, 0);
    fx_rect(&f, w, 15, 0, 15, 9, 0); /* one tile wide */
    for (int y = 10; y < 20; y++)    /* a staircase: water right of the diagonal */
        fx_rect(&f, w, 15 + (y - 10), y, 29, y, 0);
    fx_layout_done(&f);
    size_t water_before = f.m->zones.items[w - 1].n_tiles;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    for (int y = 0; y < 10; y++) {
        assert_int_equal(f.m->terrain[rmg__tile(30, 20, 14, y, 0)], RMG_TERRAIN_WATER);
        assert_int_equal(f.m->terrain[rmg__tile(30, 20, 15, y, 0)], RMG_TERRAIN_WATER);
        assert_int_equal(f.m->tile_zone[rmg__tile(30, 20, 14, y, 0)], w);
        assert_int_not_equal(f.m->terrain[rmg__tile(30, 20, 13, y, 0)], RMG_TERRAIN_WATER);
    }
    assert_true(f.m->zones.items[w - 1].n_tiles > water_before + 10);
    assert_int_equal(rmg__map_unfit_tiles(f.m->terrain, 30, 20, 1, NULL, 0), 0);
    size_t water = 0;
    for (size_t t = 0; t < f.m->n_tiles; t++)
        if (f.m->terrain[t] == RMG_TERRAIN_WATER) {
            water++;
            assert_true((f.m->flags[t] & (RMG__T_WATER | RMG__T_BLOCKED)) == (RMG__T_WATER | RMG__T_BLOCKED));
            assert_int_equal(f.m->tile_zone[t], w);
        }
    assert_int_equal(water, f.m->zones.items[w - 1].n_tiles);
    fx_done(&f);
}

static void test_con05_border_guard_colours_tents_and_fallback(void **state)
{
    (void)state;
    fx f;
    assert_true(fx_init(&f, rmg_test_context(NULL, 18), 100, 40, 1, 18));
    int ids[6];
    for (int i = 0; i < 6; i++) {
        ids[i] = fx_zone(&f, i + 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_GRASS);
        fx_rect(&f, ids[i], i * 16, 0, i * 16 + 15 + (i == 5 ? 4 : 0), 39, 0);
    }
    fx_layout_done(&f);
    for (int i = 0; i < 5; i++)
        assert_non_null(fx_conn(&f, i + 1, i + 2, RMG_CONNECTION_BORDER_GUARD, RMG_LINK_DEFAULT, 4000));
    /* Standard links beside them keep every zone reachable with the border guards closed (a
     * border-guard link opens with tents in both zones), so each may get its colours. */
    for (int i = 0; i < 5; i++)
        assert_non_null(fx_conn(&f, i + 1, i + 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 4000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    /* Eight colours, two per connection: four border-guard links, the fifth falls back. */
    for (int i = 0; i < 4; i++) {
        const rmg__map_connection *c = conn_of(&f, i);
        assert_int_equal(c->realized, RMG_REALIZED_BORDER_GUARD);
        assert_false(c->border_guard_fallback);
        int guard_colour[2] = {-1, -1}, guard_zone[2] = {0, 0}, n_guards = 0;
        for (size_t k = 0; k < c->objects.count; k++) {
            const rmg__map_object *o = &f.m->objects.items[c->objects.items[k] - 1];
            if (o->kind == RMG_OBJECT_BORDER_GUARD) {
                guard_colour[n_guards] = o->color;
                guard_zone[n_guards++] = o->zone;
            }
        }
        assert_int_equal(n_guards, 2);
        assert_int_not_equal(guard_colour[0], guard_colour[1]);
        for (size_t k = 0; k < c->objects.count; k++) {
            const rmg__map_object *o = &f.m->objects.items[c->objects.items[k] - 1];
            if (o->kind != RMG_OBJECT_KEYMASTER_TENT)
                continue;
            /* The tent of a colour stands in the zone other than its guard's, unguarded. */
            int g = o->color == guard_colour[0] ? 0 : 1;
            assert_int_equal(o->color, guard_colour[g]);
            assert_int_not_equal(o->zone, guard_zone[g]);
            assert_true(o->zone == c->zone_a || o->zone == c->zone_b);
            assert_int_equal(f.m->objects.items[o->link - 1].color, o->color);
        }
        assert_int_equal(c->guard_slots.count, 0);
    }
    const rmg__map_connection *fb = conn_of(&f, 4);
    assert_true(fb->border_guard_fallback);
    assert_int_equal(fb->realized, RMG_REALIZED_PASSAGE);
    assert_true(fb->guard_slots.count >= 1);
    assert_int_equal(count_kind(&f, RMG_OBJECT_KEYMASTER_TENT), 8);
    assert_int_equal(rmg__map_key_colors_used(f.m), 0xffu);
    assert_true(f.m->warnings.count >= 1);
    assert_sealed(&f);
    fx_done(&f);
}

/* CON-05, issue 30: border-guard links that are the only way into a zone (a chain) would shut
 * it off, since each opens with tents in both of its zones: they are built as standard. */
static void test_con05_border_guards_never_shut_a_zone_off(void **state)
{
    (void)state;
    fx f;
    assert_true(fx_init(&f, rmg_test_context(NULL, 18), 48, 40, 1, 18));
    int ids[3];
    for (int i = 0; i < 3; i++) {
        ids[i] = fx_zone(&f, i + 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_GRASS);
        fx_rect(&f, ids[i], i * 16, 0, i * 16 + 15, 39, 0);
    }
    fx_layout_done(&f);
    for (int i = 0; i < 2; i++)
        assert_non_null(fx_conn(&f, i + 1, i + 2, RMG_CONNECTION_BORDER_GUARD, RMG_LINK_DEFAULT, 4000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    for (int i = 0; i < 2; i++) {
        const rmg__map_connection *c = conn_of(&f, i);
        assert_true(c->border_guard_fallback);
        assert_int_equal(c->realized, RMG_REALIZED_PASSAGE);
    }
    assert_int_equal(count_kind(&f, RMG_OBJECT_BORDER_GUARD), 0);
    assert_int_equal(count_kind(&f, RMG_OBJECT_KEYMASTER_TENT), 0);
    fx_done(&f);
}

/* Squared distance of the monolith from zone 1's centre. */
static int64_t monolith_from_centre(int64_t castles, bool repulsion)
{
    fx f;
    two_strips(&f, 80, 40, 19);
    f.t->zones[0].player_castles = (int)castles;
    rmg__connection *c = fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 5000);
    c->monolith_repulsion = repulsion;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_object *o = &f.m->objects.items[conn_of(&f, 0)->objects.items[0] - 1];
    int64_t dx = o->x - f.m->zones.items[0].cx, dy = o->y - f.m->zones.items[0].cy;
    fx_done(&f);
    return dx * dx + dy * dy;
}

/* CON-21 / ZON-35: a repelling monolith keeps away from the zone's towns (the centre, where they
 * go) when the zone gets towns; a zone without towns has no centre to keep away from. */
static void test_con21_monolith_repulsion_moves_it_away(void **state)
{
    (void)state;
    assert_true(monolith_from_centre(1, true) > monolith_from_centre(1, false));
    assert_int_equal(monolith_from_centre(0, true), monolith_from_centre(0, false));
}

/* Squared distance from the repelling monolith of connection 1 to the nearest tile of
 * connection 0 (a passage of `type`) in zone 1. */
static int64_t monolith_from_passage(rmg_connection_type type, uint64_t seed)
{
    fx f;
    two_strips(&f, 80, 40, seed);
    fx_conn(&f, 1, 2, type, RMG_LINK_DEFAULT, 5000);
    fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 5000)->monolith_repulsion = true;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *p = conn_of(&f, 0), *mono = conn_of(&f, 1);
    assert_int_equal(mono->realized, RMG_REALIZED_MONOLITH);
    const rmg__map_object *o = NULL;
    for (size_t k = 0; k < mono->objects.count && !o; k++)
        if (f.m->objects.items[mono->objects.items[k] - 1].zone == 1)
            o = &f.m->objects.items[mono->objects.items[k] - 1];
    assert_non_null(o);
    int64_t best = INT64_MAX;
    for (size_t k = 0; k < p->tiles.count; k++) {
        uint32_t t = p->tiles.items[k];
        int64_t dx = o->x - (int64_t)(t % 80), dy = o->y - (int64_t)(t / 80 % 40);
        if (f.m->tile_zone[t] == 1 && dx * dx + dy * dy < best)
            best = dx * dx + dy * dy;
    }
    fx_done(&f);
    return best;
}

/* ZON-35/CON-21: a guarded ground passage repels the monolith; a wide (unguarded) one does not
 * count, so the monolith lands nearer to it on average. */
static void test_con21_unguarded_passages_do_not_repel(void **state)
{
    (void)state;
    int64_t guarded = 0, wide = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        guarded += monolith_from_passage(RMG_CONNECTION_STANDARD, seed);
        wide += monolith_from_passage(RMG_CONNECTION_WIDE, seed);
    }
    assert_true(guarded > wide);
}

/* The links two zones get when every one is a monolith (CON-12): `links` connections, with the
 * game content of `sod` or HotA. Returns the status of the connect stage. */
static rmg_status monolith_links(fx *f, size_t links, bool sod)
{
    two_strips(f, 120, 120, 20);
    if (sod)
        assert_int_equal(rmg_context_set_content_variant(f->ctx, RMG_CONTENT_SOD), RMG_OK);
    f->g.content = rmg__content_get(f->ctx);
    assert_non_null(f->g.content);
    for (size_t i = 0; i < links; i++)
        assert_non_null(fx_conn(f, 1, 2, RMG_CONNECTION_WIDE, RMG_LINK_MONOLITH, 0));
    return rmg__stage_connect(&f->g);
}

/* Every teleport colour serves one link only. */
static void assert_one_link_per_colour(fx *f)
{
    for (size_t i = 0; i < f->m->objects.count; i++)
        for (size_t j = i + 1; j < f->m->objects.count; j++) {
            const rmg__map_object *a = &f->m->objects.items[i], *b = &f->m->objects.items[j];
            bool same_class = !strcmp(a->key, b->key) || (strstr(a->key, "one_way") && strstr(b->key, "one_way"));
            if (a->kind == RMG_OBJECT_MONOLITH && b->kind == RMG_OBJECT_MONOLITH && a->color == b->color && same_class)
                assert_int_equal(conn_of_object(f, a->id), conn_of_object(f, b->id));
        }
}

/* One colour, one link: HotA's 20 two-way and 12 one-way colours make 32 links, the 33rd fails
 * with a message naming the colours and where they went; SoD's 8 and 8 make 16 (issue 30). */
static void test_monolith_colours_run_out_with_a_clear_error(void **state)
{
    (void)state;
    size_t n_colors;
    const rmg__teleport_color *tc = rmg__teleport_colors(&n_colors);
    assert_int_equal(n_colors, 32);
    for (size_t i = 0; i < n_colors; i++)
        assert_true(tc[i].width == 1 || tc[i].width == 2);
    static const struct {
        bool sod;
        size_t colors, two_way;
    } games[] = {{false, 32, 20}, {true, 16, 8}};
    for (size_t g = 0; g < 2; g++) {
        fx f;
        assert_int_equal(monolith_links(&f, games[g].colors, games[g].sod), RMG_OK);
        assert_int_equal(rmg__teleport_colors_present(f.g.content), games[g].colors);
        assert_one_link_per_colour(&f);
        fx_done(&f);
        assert_int_equal(monolith_links(&f, games[g].colors + 1, games[g].sod), RMG_ERR_IMPOSSIBLE);
        char want[400];
        snprintf(want, sizeof want,
                 "connection %zu: the link of zones 1-2 needs a monolith but all %zu monolith colours are taken, one "
                 "link each (%zu two-way monoliths and portals, %zu one-way colours as entrance pairs; 0 by mirror "
                 "links, %zu by connections)",
                 games[g].colors, games[g].colors, games[g].two_way, games[g].colors - games[g].two_way,
                 games[g].colors); /* the error counts connections from 0 */
        assert_non_null(strstr(rmg_context_errmsg(f.ctx), want));
        fx_done(&f);
    }
}

/* Issue 30 (ZON-36): past the two-way colours a link is two one-way entrances of one colour,
 * one in each zone; the map has no exit of the colour, so they lead to each other. */
static void test_one_way_colours_link_by_entrance_pairs(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 120, 120, 20);
    for (size_t i = 0; i < 21; i++)
        assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 5000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 20);
    assert_int_equal(c->realized, RMG_REALIZED_MONOLITH);
    assert_int_equal(c->objects.count, 2);
    const rmg__map_object *o[2];
    for (int k = 0; k < 2; k++) {
        o[k] = &f.m->objects.items[c->objects.items[k] - 1];
        assert_string_equal(o[k]->key, "monolith_one_way_entrance");
        assert_int_equal(o[k]->zone, k + 1);
    }
    assert_int_equal(o[0]->color, o[1]->color);
    assert_int_equal(o[0]->link, o[1]->id);
    assert_int_equal(o[1]->link, o[0]->id);
    for (size_t i = 0; i < f.m->objects.count; i++)
        assert_true(!f.m->objects.items[i].key || strcmp(f.m->objects.items[i].key, "monolith_one_way_exit") != 0);
    /* The movement model takes each entrance to the other. */
    rmg__reach r;
    assert_int_equal(rmg__reach_init(&r, f.m, NULL, f.ctx), RMG_OK);
    assert_true(rmg__reach_leads_to(&r, o[0]->id - 1, o[1]->id - 1));
    assert_true(rmg__reach_leads_to(&r, o[1]->id - 1, o[0]->id - 1));
    rmg__reach_free(&r);
    /* Guards before both teleports; roads lead to them. */
    assert_int_equal(c->guard_slots.count, 2);
    assert_int_equal(c->tiles.count, 2);
    assert_int_equal(f.m->tile_zone[c->tiles.items[0]], 1);
    assert_int_equal(f.m->tile_zone[c->tiles.items[1]], 2);
    assert_sealed(&f);
    fx_done(&f);
}

static void water_fixture(fx *f, rmg_water_level water, uint64_t seed)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), 60, 30, 1, seed));
    f->g.opt.water = water;
    int a = fx_zone(f, 1, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_GRASS);
    int w = fx_zone(f, 0, RMG_ZONE_WATER, 0, RMG_TERRAIN_WATER);
    int b = fx_zone(f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND);
    fx_rect(f, a, 0, 0, 24, 29, 0);
    fx_rect(f, w, 25, 0, 34, 29, 0);
    fx_rect(f, b, 35, 0, 59, 29, 0);
    fx_layout_done(f);
    assert_non_null(fx_conn(f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000));
}

static void test_wat02_shipyards_over_water_else_monolith(void **state)
{
    (void)state;
    fx f;
    water_fixture(&f, RMG_WATER_NORMAL, 21);
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *c = conn_of(&f, 0);
    assert_int_equal(c->realized, RMG_REALIZED_WATER);
    assert_int_equal(count_kind(&f, RMG_OBJECT_SHIPYARD), 2);
    for (size_t k = 0; k < c->objects.count; k++) {
        const rmg__map_object *o = &f.m->objects.items[c->objects.items[k] - 1];
        bool wet = false;
        for (int dx = -3; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++) {
                int x = o->x + dx, y = o->y + dy;
                if (x >= 0 && y >= 0 && x < 60 && y < 30 && (f.m->flags[rmg__tile(60, 30, x, y, 0)] & RMG__T_WATER))
                    wet = true;
            }
        assert_true(wet);
        /* Issue 19: the game builds the boat on the first free water of the twelve tiles around
         * the entry; here that is the water zone, and the hero can board it. */
        uint32_t entry = (uint32_t)rmg__tile(60, 30, o->x - 1, o->y, 0);
        uint32_t spot = rmg__map_boat_spot(f.m, entry);
        assert_int_not_equal(spot, UINT32_MAX);
        assert_int_equal(f.m->tile_zone[spot], 2);
        assert_true(f.m->flags[spot] & RMG__T_FREE);
        /* The crossing is guarded where it lands (CON-03 value 5000): a slot at each shipyard. */
    }
    assert_int_equal(c->guard_slots.count, 2);
    fx_done(&f);
    water_fixture(&f, RMG_WATER_NONE, 21);
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_MONOLITH);
    fx_done(&f);
}

/* A mirror layout as the place stage makes it: zones 1 | 2 on the surface and their copies
 * (same template zone, level 1) underneath. */
static void mirror_pair(fx *f, uint64_t seed)
{
    assert_true(fx_init(f, rmg_test_context(NULL, seed), 48, 24, 2, seed));
    f->pack->mirror = true;
    int a = fx_zone(f, 1, RMG_ZONE_HUMAN_START, 0, RMG_TERRAIN_GRASS);
    int b = fx_zone(f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND);
    for (int i = 0; i < 2; i++) {
        rmg__map_zone copy = f->m->zones.items[i];
        copy.id = (int)f->m->zones.count + 1;
        copy.level = 1;
        assert_true(RMG__VEC_PUSH(f->ctx, &f->m->zones, copy));
    }
    fx_rect(f, a, 0, 0, 23, 23, 0);
    fx_rect(f, b, 24, 0, 47, 23, 0);
    fx_rect(f, a + 2, 0, 0, 23, 23, 1);
    fx_rect(f, b + 2, 24, 0, 47, 23, 1);
    fx_layout_done(f);
}

static rmg__mirror_link *add_mirror_link(fx *f, int zone_index)
{
    rmg__zone *z = &f->t->zones[zone_index];
    rmg__mirror_link *ml = rmg__arena_grow(&f->pack->arena, (void **)&z->mirror_links, &z->n_mirror_links, sizeof *ml);
    assert_non_null(ml);
    memset(ml, 0, sizeof *ml);
    return ml;
}

static void test_wat03_zon31_mirror_copy_and_link_at_the_same_place(void **state)
{
    (void)state;
    fx f;
    mirror_pair(&f, 22);
    rmg__mirror_link *ml = add_mirror_link(&f, 0);
    ml->surface_kind = RMG_TELEPORT_TWO_WAY;
    ml->underground_kind = RMG_TELEPORT_TWO_WAY;
    ml->surface_color = ml->underground_color = 20;
    ml->value = 8000;
    ml->roads = true;
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000));
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 3000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    /* The ordinary links exist on both levels (originals, then the copies), then the mirror link. */
    assert_int_equal(f.m->conns.count, 5);
    const rmg__map_connection *orig = &f.m->conns.items[0], *copy = &f.m->conns.items[2];
    assert_int_equal(copy->tpl_index, orig->tpl_index);
    assert_int_equal(copy->zone_a, 3);
    assert_int_equal(copy->zone_b, 4);
    assert_int_equal(copy->realized, orig->realized);
    size_t plane = 48 * 24;
    for (size_t k = 0; k < orig->tiles.count; k++)
        assert_int_equal(copy->tiles.items[k], orig->tiles.items[k] + plane);
    const rmg__map_connection *mono = &f.m->conns.items[3];
    const rmg__map_object *m0 = &f.m->objects.items[f.m->conns.items[1].objects.items[0] - 1];
    const rmg__map_object *m1 = &f.m->objects.items[mono->objects.items[0] - 1];
    assert_int_equal(m1->z, 1);
    assert_int_equal(m1->x, m0->x);
    assert_int_equal(m1->zone, 3);
    assert_int_equal(f.m->objects.items[m1->link - 1].zone, 4); /* linked to the copied partner */
    /* Tile for tile, except the mirror link's teleports. */
    const rmg__map_connection *c = &f.m->conns.items[4];
    assert_int_equal(c->tpl_index, -1);
    assert_int_equal(c->realized, RMG_REALIZED_MONOLITH);
    const rmg__map_object *top = &f.m->objects.items[c->objects.items[0] - 1];
    const rmg__map_object *low = &f.m->objects.items[c->objects.items[1] - 1];
    assert_int_equal(top->x, low->x);
    assert_int_equal(top->y, low->y);
    assert_int_equal(top->z, 0);
    assert_int_equal(low->z, 1);
    assert_int_equal(low->zone, 3);
    assert_int_equal(top->color, 20);
    assert_int_equal(c->guard_slots.count, 2);
    assert_true(c->road);
    for (size_t t = 0; t < plane; t++) {
        assert_int_equal(f.m->terrain[t], f.m->terrain[t + plane]);
        uint16_t mask = (uint16_t)~(RMG__T_FREE | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_USED | RMG__T_BLOCKED);
        assert_int_equal(f.m->flags[t] & mask, f.m->flags[t + plane] & mask);
    }
    /* WAT-07: the ordinary monolith does not take the mirror colour. */
    assert_false(!strcmp(m0->key, "monolith_two_way") && m0->color == 20);
    assert_sealed(&f);
    fx_done(&f);
}

/* WAT-03: after roads and obstacles (with the content's obstacle objects) the underground is
 * still the surface's copy: terrain, tile flags, roads and obstacle objects. */
static void test_wat03_mirror_copy_identical_after_obstacles(void **state)
{
    (void)state;
    fx f;
    mirror_pair(&f, 24);
    f.g.content = rmg__content_get(f.ctx);
    assert_non_null(f.g.content);
    rmg__mirror_link *ml = add_mirror_link(&f, 1);
    ml->surface_kind = ml->underground_kind = RMG_TELEPORT_TWO_WAY;
    ml->surface_color = ml->underground_color = 19;
    ml->value = 6000;
    ml->roads = true;
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    assert_int_equal(rmg__finish_roads(&f.g), RMG_OK);
    assert_int_equal(rmg__finish_obstacles(&f.g), RMG_OK);
    size_t plane = 48 * 24, obstacles[2] = {0, 0}, roads = 0;
    for (size_t t = 0; t < plane; t++) {
        assert_int_equal(f.m->terrain[t], f.m->terrain[t + plane]);
        assert_int_equal(f.m->flags[t], f.m->flags[t + plane]);
        assert_int_equal(f.m->road[t], f.m->road[t + plane]);
        roads += f.m->road[t] != 0;
    }
    for (size_t i = 0; i < f.m->objects.count; i++) {
        const rmg__map_object *o = &f.m->objects.items[i];
        if (o->kind != RMG_OBJECT_OBSTACLE)
            continue;
        obstacles[o->z]++;
        /* The same obstacle stands on the same spot of the other level (looked up by its anchor:
         * an obstacle whose anchor tile is not in its footprint does not own that tile). */
        const rmg__map_object *c = NULL;
        for (size_t k = 0; k < f.m->objects.count && !c; k++) {
            const rmg__map_object *u = &f.m->objects.items[k];
            if (u->kind == RMG_OBJECT_OBSTACLE && u->z == 1 - o->z && u->x == o->x && u->y == o->y &&
                !strcmp(u->key, o->key))
                c = u;
        }
        assert_non_null(c);
        assert_int_equal(f.m->zones.items[c->zone - 1].tpl_index, f.m->zones.items[o->zone - 1].tpl_index);
    }
    assert_true(obstacles[0] > 10);
    assert_int_equal(obstacles[0], obstacles[1]);
    assert_true(roads > 0);
    assert_zone_areas_connected(&f);
    assert_sealed(&f);
    fx_done(&f);
}

static void test_zon32_mirror_widths_differ_warns(void **state)
{
    (void)state;
    fx f;
    mirror_pair(&f, 23);
    rmg__mirror_link *ml = add_mirror_link(&f, 0);
    ml->surface_kind = RMG_TELEPORT_GATE;
    ml->underground_kind = RMG_TELEPORT_TWO_WAY;
    ml->surface_color = -1;
    ml->underground_color = 0;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    bool warned = false;
    for (size_t i = 0; i < f.m->warnings.count; i++)
        warned |= strstr(f.m->warnings.items[i], "ZON-32") != NULL;
    assert_true(warned);
    const rmg__map_connection *c = conn_of(&f, -1);
    assert_int_equal(c->guard_slots.count, 0); /* GRD-09: value 0 is never guarded */
    fx_done(&f);
}

/* ---- roads and obstacles ---------------------------------------------------------------------- */

/* A 1x1 town as near to (cx, cy) as there is room, as the objects stage would place one. */
static uint32_t put_town_near(fx *f, int zone, int cx, int cy)
{
    struct rmg_map *m = f->m;
    rmg__map_zone *z = &m->zones.items[zone - 1];
    int w = m->width, h = m->height;
    for (int r = 0; r < w + h; r++)
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++) {
                if (x < 1 || y < 1 || x >= w - 1 || y >= h - 2)
                    continue;
                size_t t = rmg__tile(w, h, x, y, z->level), below = t + (size_t)w;
                if (m->tile_zone[t] != zone || m->flags[t] || m->flags[below] & (RMG__T_BLOCKED | RMG__T_ENTRY) ||
                    m->tile_zone[below] != zone)
                    continue;
                rmg__map_object *o = rmg__map_add_object(m, "town", RMG_OBJECT_TOWN, x, y, z->level);
                o->block = o->visit = (uint64_t)1 << 47;
                o->zone = zone;
                rmg__map_stamp_object(m, o);
                uint32_t id = o->id;
                assert_true(RMG__VEC_PUSH(f->ctx, &z->towns, id));
                if (!z->main_town)
                    z->main_town = id;
                return id;
            }
    fail_msg("no room for a town in zone %d", zone);
    return 0;
}

/* A town next to the zone's centre. */
static uint32_t put_town(fx *f, int zone)
{
    const rmg__map_zone *z = &f->m->zones.items[zone - 1];
    return put_town_near(f, zone, z->cx, z->cy);
}

static size_t town_road_tile(const fx *f, uint32_t id)
{
    const rmg__map_object *o = &f->m->objects.items[id - 1];
    size_t t = rmg__tile(f->m->width, f->m->height, o->x, o->y, o->z);
    return f->m->road[t + (size_t)f->m->width] ? t + (size_t)f->m->width : t;
}

static bool step_road(const struct rmg_map *m, size_t u, const void *user)
{
    (void)user;
    return m->road[u] != 0;
}

static void note_tile(const struct rmg_map *m, size_t t, void *acc)
{
    (void)m;
    size_t *want = acc;
    if (want[0] == t)
        want[1] = 1;
}

/* Road connectivity between two tiles over road tiles (8 directions, across zones). */
static bool road_connected(const fx *f, size_t from, size_t to)
{
    if (!f->m->road[from] || !f->m->road[to])
        return false;
    size_t want[2] = {to, 0};
    flood(f->m, from, step_road, NULL, note_tile, want);
    return want[1] != 0;
}

static int popcount(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static bool roads_on_passable_tiles(const fx *f)
{
    for (size_t t = 0; t < f->m->n_tiles; t++)
        if (f->m->road[t] && !walkable(f->m, t))
            return false;
    return true;
}

/* Three zones in a row T1 - N - T2 (standard links with the given road setting). */
static void chain(fx *f, rmg_road_setting roads, bool solved_must, uint64_t seed, uint32_t towns[2])
{
    row_of_three(f, seed, 72, 24);
    int a = 1, b = 3;
    rmg__connection *c1 = fx_conn(f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000);
    c1->roads = roads;
    rmg__connection *c2 = fx_conn(f, 2, 3, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000);
    c2->roads = roads;
    static bool must[2] = {true, true};
    f->g.sol.road = solved_must ? must : NULL;
    assert_int_equal(rmg__stage_connect(&f->g), RMG_OK);
    towns[0] = put_town(f, a);
    towns[1] = put_town(f, b);
    assert_int_equal(rmg__finish_roads(&f->g), RMG_OK);
}

static void test_con15_mandatory_roads_join_towns_through_passages(void **state)
{
    (void)state;
    fx f;
    uint32_t towns[2];
    chain(&f, RMG_ROAD_MANDATORY, true, 31, towns);
    assert_true(conn_of(&f, 0)->road);
    assert_true(conn_of(&f, 1)->road);
    assert_true(road_connected(&f, town_road_tile(&f, towns[0]), town_road_tile(&f, towns[1])));
    assert_true(roads_on_passable_tiles(&f));
    /* The road crosses the borders only at passages. */
    for (size_t t = 0; t < f.m->n_tiles; t++)
        if (f.m->road[t] && (f.m->flags[t] & RMG__T_BORDER))
            assert_true(f.m->flags[t] & RMG__T_PASSAGE);
    /* Every road is cobblestone, the middle zone's too: the game's maps pave every road so
     * (issue 32). */
    assert_int_equal(f.m->road[town_road_tile(&f, towns[0])], 3);
    bool middle = false;
    for (size_t t = 0; t < f.m->n_tiles; t++) {
        assert_true(f.m->road[t] == 0 || f.m->road[t] == 3);
        middle |= f.m->tile_zone[t] == 2 && f.m->road[t] == 3;
    }
    assert_true(middle);
    fx_done(&f);
}

static void test_con17_random_links_join_the_towns(void **state)
{
    (void)state;
    fx f;
    uint32_t towns[2];
    chain(&f, RMG_ROAD_RANDOM, false, 32, towns);
    assert_true(conn_of(&f, 0)->road);
    assert_true(conn_of(&f, 1)->road);
    assert_true(road_connected(&f, town_road_tile(&f, towns[0]), town_road_tile(&f, towns[1])));
    fx_done(&f);
}

static void test_con16_forbidden_links_carry_no_road(void **state)
{
    (void)state;
    fx f;
    uint32_t towns[2];
    chain(&f, RMG_ROAD_FORBIDDEN, false, 33, towns);
    assert_false(conn_of(&f, 0)->road);
    assert_false(conn_of(&f, 1)->road);
    for (size_t t = 0; t < f.m->n_tiles; t++)
        assert_false(f.m->road[t] && (f.m->flags[t] & RMG__T_PASSAGE));
    assert_false(road_connected(&f, town_road_tile(&f, towns[0]), town_road_tile(&f, towns[1])));
    fx_done(&f);
}

static void test_zon06_towns_of_a_zone_form_one_network(void **state)
{
    (void)state;
    fx f;
    two_strips(&f, 60, 40, 34);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000));
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    uint32_t t1 = put_town(&f, 1), t2 = put_town(&f, 1), t3 = put_town(&f, 2);
    assert_int_equal(rmg__finish_roads(&f.g), RMG_OK);
    assert_true(road_connected(&f, town_road_tile(&f, t1), town_road_tile(&f, t2)));
    assert_true(road_connected(&f, town_road_tile(&f, t1), town_road_tile(&f, t3)));
    fx_done(&f);
}

static void test_con20_noncoherent_zone_still_links_its_towns(void **state)
{
    (void)state;
    fx f;
    uint32_t towns[2];
    row_of_three(&f, 35, 72, 24);
    int a = 1, n = 2, b = 3;
    f.t->zones[1].allow_noncoherent_roads = true;
    fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000)->roads = RMG_ROAD_MANDATORY;
    fx_conn(&f, 2, 3, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000)->roads = RMG_ROAD_MANDATORY;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    towns[0] = put_town(&f, a);
    uint32_t mid_town = put_town(&f, n);
    towns[1] = put_town(&f, b);
    assert_int_equal(rmg__finish_roads(&f.g), RMG_OK);
    /* Each mandatory road reaches the middle zone's nearest (only) town. */
    assert_true(road_connected(&f, town_road_tile(&f, towns[0]), town_road_tile(&f, mid_town)));
    assert_true(road_connected(&f, town_road_tile(&f, towns[1]), town_road_tile(&f, mid_town)));
    fx_done(&f);
}

/* The road tile in front of a teleport's entry on the given level (where roads end, CON-19). */
static size_t teleport_road_tile(const fx *f, const rmg__map_connection *c, int level)
{
    size_t plane = (size_t)f->m->width * (size_t)f->m->height;
    for (size_t k = 0; k < c->tiles.count; k++)
        if (c->tiles.items[k] / plane == (size_t)level)
            return c->tiles.items[k] + (size_t)f->m->width;
    fail_msg("connection %d has no tile on level %d", c->id, level);
    return 0;
}

/* Zone 1 (surface, left, non-coherent roads) is long: zone 2 touches it at the top only and
 * zone 3 at the bottom only, so each link's road ends at the one of zone 1's two towns at its
 * end (CON-20), and nothing but a road inside zone 1 can join the two networks. Zone 4 lies
 * under zone 2 (a gate) with a town of its own. */
static void test_con17_con20_noncoherent_networks_joined_across_gate(void **state)
{
    (void)state;
    fx f;
    assert_true(fx_init(&f, rmg_test_context(NULL, 39), 48, 60, 2, 39));
    static const zone_spec layout[] = {
        {1, RMG_ZONE_HUMAN_START, 0, RMG_TERRAIN_GRASS, 0, 0, 23, 59},
        {2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND, 24, 0, 47, 17},
        {3, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SNOW, 24, 42, 47, 59},
        {4, RMG_ZONE_TREASURE, 1, RMG_TERRAIN_LAVA, 24, 0, 47, 17},
        {0, RMG_ZONE_ROCK, 0, RMG_TERRAIN_ROCK, 24, 18, 47, 41},
        {0, RMG_ZONE_ROCK, 1, RMG_TERRAIN_ROCK, 0, 0, 23, 59},
        {0, RMG_ZONE_ROCK, 1, RMG_TERRAIN_ROCK, 24, 18, 47, 59},
    };
    fx_zones(&f, layout, 7);
    int a = 1, c = 3, d = 4;
    f.t->zones[0].allow_noncoherent_roads = true;
    fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000)->roads = RMG_ROAD_MANDATORY;
    fx_conn(&f, 1, 3, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000)->roads = RMG_ROAD_MANDATORY;
    fx_conn(&f, 2, 4, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 3000)->roads = RMG_ROAD_MANDATORY;
    assert_int_equal(rmg__stage_connect(&f.g), RMG_OK);
    const rmg__map_connection *gate = conn_of(&f, 2);
    assert_int_equal(conn_of(&f, 0)->realized, RMG_REALIZED_PASSAGE);
    assert_int_equal(conn_of(&f, 1)->realized, RMG_REALIZED_PASSAGE);
    assert_int_equal(gate->realized, RMG_REALIZED_GATE);
    uint32_t top = put_town_near(&f, a, 10, 4), bottom = put_town_near(&f, a, 10, 55);
    uint32_t town_c = put_town(&f, c), town_d = put_town(&f, d);
    assert_int_equal(rmg__finish_roads(&f.g), RMG_OK);
    for (int i = 0; i < 3; i++)
        assert_true(conn_of(&f, i)->road);
    /* The two networks of zone 1 were joined inside it (CON-17 step 2), so the road runs from
     * zone 3's town through zone 1 and zone 2 to the gate, and on from the gate's other end to
     * zone 4's town. */
    size_t t_top = town_road_tile(&f, top), t_bottom = town_road_tile(&f, bottom);
    assert_true(road_connected(&f, t_top, t_bottom));
    assert_true(road_connected(&f, town_road_tile(&f, town_c), teleport_road_tile(&f, gate, 0)));
    assert_true(road_connected(&f, teleport_road_tile(&f, gate, 1), town_road_tile(&f, town_d)));
    assert_true(roads_on_passable_tiles(&f));
    assert_int_equal(rmg__finish_obstacles(&f.g), RMG_OK);
    assert_true(road_connected(&f, town_road_tile(&f, town_c), teleport_road_tile(&f, gate, 0)));
    assert_zone_areas_connected(&f);
    fx_done(&f);
}

static void test_obstacles_keep_everything_reachable(void **state)
{
    (void)state;
    fx f;
    uint32_t towns[2];
    chain(&f, RMG_ROAD_RANDOM, false, 36, towns);
    assert_int_equal(rmg__finish_obstacles(&f.g), RMG_OK);
    assert_zone_areas_connected(&f);
    assert_sealed(&f);
    size_t obstacles = 0, land = 0;
    for (size_t t = 0; t < f.m->n_tiles; t++) {
        obstacles += (f.m->flags[t] & RMG__T_OBSTACLE) != 0;
        land += f.m->tile_zone[t] != 0;
        if (f.m->flags[t] & (RMG__T_FREE | RMG__T_PASSAGE | RMG__T_ENTRY) || f.m->road[t])
            assert_true(walkable(f.m, t));
    }
    /* Obstacle masses, yet open land remains. */
    assert_true(obstacles > land / 10);
    assert_true(obstacles < land * 8 / 10);
    /* Town to town still possible on foot (guards passable). */
    size_t a = town_road_tile(&f, towns[0]);
    assert_true(zones_reached(&f, a, true) & (1u << 3));
    fx_done(&f);
}

/* Connect, a town in zone 1, roads and obstacles. */
static void connect_town_and_finish(fx *f)
{
    assert_int_equal(rmg__stage_connect(&f->g), RMG_OK);
    put_town(f, 1);
    assert_int_equal(rmg__finish_roads(&f->g), RMG_OK);
    assert_int_equal(rmg__finish_obstacles(&f->g), RMG_OK);
}

/* With the game content: footprints from its map objects, obstacle objects on filled tiles. */
static void test_content_footprints_and_obstacle_objects(void **state)
{
    (void)state;
    fx f;
    row_of_three(&f, 38, 72, 24);
    f.g.content = rmg__content_get(f.ctx);
    assert_non_null(f.g.content);
    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000));
    assert_non_null(fx_conn(&f, 2, 3, RMG_CONNECTION_STANDARD, RMG_LINK_MONOLITH, 5000));
    assert_non_null(fx_conn(&f, 1, 3, RMG_CONNECTION_BORDER_GUARD, RMG_LINK_DEFAULT, 5000));
    connect_town_and_finish(&f);
    /* The tent's footprint is the content's two tiles ("#V"). */
    bool tent = false;
    for (size_t i = 0; i < f.m->objects.count; i++)
        if (f.m->objects.items[i].kind == RMG_OBJECT_KEYMASTER_TENT) {
            tent = true;
            assert_int_equal(popcount(f.m->objects.items[i].block), 2);
        }
    assert_true(tent);
    /* Obstacle objects lie on filled or sealed tiles of their own zone, never overlapping. */
    size_t obstacles = 0;
    uint32_t *owner = calloc(f.m->n_tiles, sizeof *owner);
    for (size_t i = 0; i < f.m->objects.count; i++) {
        const rmg__map_object *o = &f.m->objects.items[i];
        for (int bit = 0; bit < 48; bit++) {
            if (!((o->block | o->visit) & ((uint64_t)1 << bit)))
                continue;
            size_t t = rmg__tile(72, 24, o->x - (7 - bit % 8), o->y - (5 - bit / 8), o->z);
            assert_int_equal(owner[t], 0);
            owner[t] = o->id;
            if (o->kind == RMG_OBJECT_OBSTACLE) {
                assert_int_equal(f.m->tile_zone[t], o->zone);
                assert_true(f.m->flags[t] & (RMG__T_OBSTACLE | RMG__T_BORDER));
                assert_false(f.m->flags[t] & (RMG__T_PASSAGE | RMG__T_FREE));
            }
        }
        obstacles += o->kind == RMG_OBJECT_OBSTACLE;
    }
    free(owner);
    assert_true(obstacles > 20);
    assert_zone_areas_connected(&f);
    assert_sealed(&f);
    fx_done(&f);
}

/* The content's obstacle object of `key`, NULL when there is none. */
static const rmg__object_def *obstacle_def(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_map_objects; i++)
        if (!strcmp(c->map_objects[i].key, key) && c->map_objects[i].family &&
            !strcmp(c->map_objects[i].family, "obstacle"))
            return &c->map_objects[i];
    return NULL;
}

/* Scenery (issue 32): the content lists every obstacle sprite of the editor menus each terrain
 * draws from (scripts/gen-content.py OBSTACLE_MENUS, as the game's random maps use them: dirt
 * mountains on sand, rough's on lava, never the other way round), and the finish stage fills
 * blocked land with them largest first: every obstacle allowed on its zone's terrain, a tile
 * under at most one object, on average more than two and a half tiles per obstacle where the
 * old tile-by-tile fill gave under two, and many distinct sprites. */
static void test_obstacles_every_sprite_of_the_terrain_largest_first(void **state)
{
    (void)state;
    fx f;
    row_of_three(&f, 38, 96, 32);
    f.g.content = rmg__content_get(f.ctx);
    const struct rmg_content *c = f.g.content;
    assert_non_null(c);
    size_t per_terrain[RMG_TERRAIN_COUNT] = {0};
    for (size_t i = 0; i < c->n_map_objects; i++)
        if (c->map_objects[i].family && !strcmp(c->map_objects[i].family, "obstacle"))
            for (int t = 0; t < RMG_TERRAIN_COUNT; t++)
                per_terrain[t] += (c->map_objects[i].terrains >> t) & 1u;
    /* The menus' sizes, counted over object-templates.tsv (one entry per def). */
    assert_int_equal(per_terrain[RMG_TERRAIN_DIRT], 347);
    assert_int_equal(per_terrain[RMG_TERRAIN_SAND], 289);
    assert_int_equal(per_terrain[RMG_TERRAIN_GRASS], 347);
    assert_int_equal(per_terrain[RMG_TERRAIN_SNOW], 216);
    assert_int_equal(per_terrain[RMG_TERRAIN_SWAMP], 199);
    assert_int_equal(per_terrain[RMG_TERRAIN_ROUGH], 171);
    assert_int_equal(per_terrain[RMG_TERRAIN_SUBTERRANEAN], 77);
    assert_int_equal(per_terrain[RMG_TERRAIN_LAVA], 156);
    assert_int_equal(per_terrain[RMG_TERRAIN_HIGHLANDS], 42);
    assert_int_equal(per_terrain[RMG_TERRAIN_WASTELAND], 37);
    const rmg__object_def *dirt_mountain = obstacle_def(c, "obstacle_avlmtdr1");
    const rmg__object_def *rough_mountain = obstacle_def(c, "obstacle_avlmtrf1");
    assert_non_null(dirt_mountain);
    assert_non_null(rough_mountain);
    assert_true(dirt_mountain->terrains & (1u << RMG_TERRAIN_SAND));
    assert_false(dirt_mountain->terrains & (1u << RMG_TERRAIN_LAVA));
    assert_true(rough_mountain->terrains & (1u << RMG_TERRAIN_LAVA));
    assert_false(rough_mountain->terrains & (1u << RMG_TERRAIN_SNOW));

    assert_non_null(fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000));
    assert_non_null(fx_conn(&f, 2, 3, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000));
    connect_town_and_finish(&f);
    size_t obstacles = 0, covered = 0, distinct = 0;
    uint32_t *owner = calloc(f.m->n_tiles, sizeof *owner);
    const char **seen = calloc(f.m->objects.count + 1, sizeof *seen);
    assert_non_null(owner);
    assert_non_null(seen);
    for (size_t i = 0; i < f.m->objects.count; i++) {
        const rmg__map_object *o = &f.m->objects.items[i];
        if (o->kind != RMG_OBJECT_OBSTACLE)
            continue;
        const rmg__object_def *d = obstacle_def(c, o->key);
        assert_non_null(d);
        assert_true(d->terrains & (1u << f.m->zones.items[o->zone - 1].terrain));
        assert_true(o->x < 96 && o->y < 32); /* the anchor on the map */
        for (int bit = 0; bit < 48; bit++) {
            if (!(o->block & ((uint64_t)1 << bit)))
                continue;
            size_t t = rmg__tile(96, 32, o->x - (7 - bit % 8), o->y - (5 - bit / 8), o->z);
            assert_int_equal(owner[t], 0);
            owner[t] = o->id;
            covered++;
        }
        size_t k = 0;
        while (k < distinct && strcmp(seen[k], o->key))
            k++;
        if (k == distinct)
            seen[distinct++] = o->key;
        obstacles++;
    }
    print_message("%zu obstacles, %zu tiles, %zu sprites\n", obstacles, covered, distinct);
    assert_true(obstacles > 100);
    assert_true(covered * 2 > obstacles * 5);
    assert_true(distinct * 3 > obstacles);
    free(owner);
    free(seen);
    assert_zone_areas_connected(&f);
    fx_done(&f);
}

static void test_connect_is_deterministic(void **state)
{
    (void)state;
    fx f1, f2;
    uint32_t towns[2];
    chain(&f1, RMG_ROAD_RANDOM, false, 37, towns);
    assert_int_equal(rmg__finish_obstacles(&f1.g), RMG_OK);
    chain(&f2, RMG_ROAD_RANDOM, false, 37, towns);
    assert_int_equal(rmg__finish_obstacles(&f2.g), RMG_OK);
    assert_memory_equal(f1.m->flags, f2.m->flags, f1.m->n_tiles * sizeof *f1.m->flags);
    assert_memory_equal(f1.m->road, f2.m->road, f1.m->n_tiles);
    assert_memory_equal(f1.m->terrain, f2.m->terrain, f1.m->n_tiles);
    fx_done(&f1);
    fx_done(&f2);
}

/* ---- allocator failure harness ----------------------------------------------------------------- */

static rmg_status whole_build(rmg_context *ctx, void *user)
{
    (void)user;
    fx f;
    rmg_status st = RMG_ERR_NOMEM;
    if (!fx_init(&f, ctx, 48, 24, 2, 41))
        goto done;
    int a = fx_zone(&f, 1, RMG_ZONE_HUMAN_START, 0, RMG_TERRAIN_GRASS);
    int b = fx_zone(&f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND);
    int c = fx_zone(&f, 3, RMG_ZONE_TREASURE, 1, RMG_TERRAIN_LAVA);
    if (!a || !b || !c)
        goto done;
    fx_rect(&f, a, 0, 0, 23, 23, 0);
    fx_rect(&f, b, 24, 0, 47, 23, 0);
    fx_rect(&f, c, 0, 0, 47, 23, 1);
    fx_layout_done(&f);
    if (!fx_conn(&f, 1, 2, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000) ||
        !fx_conn(&f, 1, 3, RMG_CONNECTION_STANDARD, RMG_LINK_DEFAULT, 5000) ||
        !fx_conn(&f, 2, 3, RMG_CONNECTION_BORDER_GUARD, RMG_LINK_MONOLITH, 5000) ||
        !fx_conn(&f, 1, 2, RMG_CONNECTION_WIDE, RMG_LINK_DEFAULT, 0))
        goto done;
    if ((st = rmg__stage_connect(&f.g)) != RMG_OK)
        goto done;
    rmg__map_object *o = rmg__map_add_object(f.m, "town", RMG_OBJECT_TOWN, 8, 8, 0);
    if (!o) {
        st = RMG_ERR_NOMEM;
        goto done;
    }
    o->block = o->visit = (uint64_t)1 << 47;
    o->zone = a;
    rmg__map_stamp_object(f.m, o);
    if ((st = rmg__finish_roads(&f.g)) == RMG_OK)
        st = rmg__finish_obstacles(&f.g);
done:
    if (st == RMG_ERR_NOMEM && !*rmg_context_errmsg(ctx))
        rmg__error_nomem(ctx); /* a fixture step (test code) ran out of memory */
    if (f.m || f.pack)
        fx_free(&f);
    return st;
}

static rmg_status mirror_build(rmg_context *ctx, void *user)
{
    (void)user;
    fx f;
    rmg_status st = RMG_ERR_NOMEM;
    if (!fx_init(&f, ctx, 40, 20, 2, 43))
        goto done;
    f.pack->mirror = true;
    int a = fx_zone(&f, 1, RMG_ZONE_HUMAN_START, 0, RMG_TERRAIN_GRASS);
    int b = fx_zone(&f, 2, RMG_ZONE_TREASURE, 0, RMG_TERRAIN_SAND);
    if (!a || !b)
        goto done;
    for (int i = 0; i < 2; i++) {
        rmg__map_zone copy = f.m->zones.items[i];
        copy.id = (int)f.m->zones.count + 1;
        copy.level = 1;
        if (!RMG__VEC_PUSH(ctx, &f.m->zones, copy))
            goto done;
    }
    fx_rect(&f, a, 0, 0, 19, 19, 0);
    fx_rect(&f, b, 20, 0, 39, 19, 0);
    fx_rect(&f, a + 2, 0, 0, 19, 19, 1);
    fx_rect(&f, b + 2, 20, 0, 39, 19, 1);
    fx_layout_done(&f);
    rmg__zone *z = &f.t->zones[0];
    rmg__mirror_link *ml = rmg__arena_grow(&f.pack->arena, (void **)&z->mirror_links, &z->n_mirror_links, sizeof *ml);
    if (!ml || !fx_conn(&f, 1, 2, RMG_CONNECTION_BORDER_GUARD, RMG_LINK_DEFAULT, 5000))
        goto done;
    memset(ml, 0, sizeof *ml);
    ml->surface_kind = ml->underground_kind = RMG_TELEPORT_TWO_WAY;
    ml->surface_color = ml->underground_color = 19;
    ml->value = 6000;
    ml->roads = true;
    if ((st = rmg__stage_connect(&f.g)) == RMG_OK && (st = rmg__finish_roads(&f.g)) == RMG_OK)
        st = rmg__finish_obstacles(&f.g);
done:
    if (st == RMG_ERR_NOMEM && !*rmg_context_errmsg(ctx))
        rmg__error_nomem(ctx);
    if (f.m || f.pack)
        fx_free(&f);
    return st;
}

static void test_connect_allocation_failures(void **state)
{
    (void)state;
    size_t n = rmg_test_oom_sweep(whole_build, NULL, 0, 1);
    assert_true(n > 10);
    n = rmg_test_oom_sweep(mirror_build, NULL, 0, 1);
    assert_true(n > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_con03_standard_ground_passage_sealed),
        cmocka_unit_test(test_con03_long_border_several_passages),
        cmocka_unit_test(test_con04_wide_opening_unguarded),
        cmocka_unit_test(test_con12_monolith_even_when_adjacent),
        cmocka_unit_test(test_con09_not_adjacent_becomes_monolith),
        cmocka_unit_test(test_con09_stacked_zones_get_gates_and_zon14_terrain),
        cmocka_unit_test(test_wide_built_otherwise_warns),
        cmocka_unit_test(test_con10_11_13_placement_choices),
        cmocka_unit_test(test_zon14_lava_stays_underground_and_rock_water_zones),
        cmocka_unit_test(test_thin_water_grows_two_wide),
        cmocka_unit_test(test_con05_border_guard_colours_tents_and_fallback),
        cmocka_unit_test(test_con05_border_guards_never_shut_a_zone_off),
        cmocka_unit_test(test_con21_monolith_repulsion_moves_it_away),
        cmocka_unit_test(test_con21_unguarded_passages_do_not_repel),
        cmocka_unit_test(test_monolith_colours_run_out_with_a_clear_error),
        cmocka_unit_test(test_one_way_colours_link_by_entrance_pairs),
        cmocka_unit_test(test_wat02_shipyards_over_water_else_monolith),
        cmocka_unit_test(test_wat03_zon31_mirror_copy_and_link_at_the_same_place),
        cmocka_unit_test(test_wat03_mirror_copy_identical_after_obstacles),
        cmocka_unit_test(test_zon32_mirror_widths_differ_warns),
        cmocka_unit_test(test_con15_mandatory_roads_join_towns_through_passages),
        cmocka_unit_test(test_con17_random_links_join_the_towns),
        cmocka_unit_test(test_con16_forbidden_links_carry_no_road),
        cmocka_unit_test(test_zon06_towns_of_a_zone_form_one_network),
        cmocka_unit_test(test_con20_noncoherent_zone_still_links_its_towns),
        cmocka_unit_test(test_con17_con20_noncoherent_networks_joined_across_gate),
        cmocka_unit_test(test_obstacles_keep_everything_reachable),
        cmocka_unit_test(test_content_footprints_and_obstacle_objects),
        cmocka_unit_test(test_obstacles_every_sprite_of_the_terrain_largest_first),
        cmocka_unit_test(test_connect_is_deterministic),
        cmocka_unit_test(test_connect_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
