/* Roads (finish stage, CON-15..20, ZON-06, ZON-34, WAT-04).
 *
 * 1. Zone graph: realized connections that may carry a road (never water links, never forbidden
 *    ones), parallel links merged by the strongest rule (CON-18).
 * 2. Which links carry roads: every MUST link (CON-15 evaluated here, with the towns the map has,
 *    frequency towns included), then the road
 *    networks are joined to each other and to the zones with road targets along the fewest MAY
 *    links (CON-17, a shortest-path join on the zone graph).
 * 3. Inside each zone the targets (towns, shipyards, mirror teleports with roads) and the ends
 *    of the chosen links are joined: into one network (ZON-06), or, with non-coherent roads
 *    allowed, each link end to its nearest town or shipyard and the rest to the nearest road
 *    (CON-20). Paths prefer existing roads and skeleton tiles; they never cross other objects'
 *    entries nor blocked tiles.
 */
#include <stdlib.h>
#include <string.h>

#include "finish_internal.h"
#include "grid/grid.h"
#include "solve/solve_internal.h"

#define MK_TARGET 1u   /* road target / link end not yet joined */
#define MK_ROAD 2u     /* road laid in this zone's network */
#define MK_TOWN 4u     /* a town or shipyard end (CON-20 joins link ends to these) */

typedef struct edge {
    int a, b;                 /* map zone ids */
    rmg__road_rule rule;
    size_t conn;              /* map connection index used for the crossing */
    bool chosen;
} edge;

typedef struct roads {
    rmg__grid b;
    edge *edges;
    size_t n_edges;
    int *zdist;               /* per zone: 0-1 BFS distance */
    int *zprev;               /* per zone: edge index + 1 that reached it */
    bool *done;
    bool *reached;
    bool *has_target;
    uint32_t *ends;           /* per zone: road endpoints (tiles) */
    size_t n_ends, cap_ends;
    RMG__VEC(uint32_t) targets; /* indexes of the objects that are road targets, in object order */
    uint8_t *choice;          /* per template connection: its rmg_road_setting after CON-15..18 */
    int *group;               /* per template connection: its parallel group (CON-18) */
    uint8_t *wind;            /* per tile: the land's roughness for a road, 0..WIND_MAX (wind_field) */
} roads;

/* CON-15..18 with the towns the map holds: a zone counts as a town zone when it got a town from
 * its frequencies as well as from its minimums (the solve stage knew the minimums only). */
static rmg_status road_choices(roads *r)
{
    const rmg__gen *g = r->b.g;
    const struct rmg_map *m = r->b.m;
    size_t nz = g->tpl->n_zones, nc = g->tpl->n_connections;
    bool *town = rmg__calloc(r->b.ctx, nz + 1, sizeof *town);
    r->choice = rmg__malloc(r->b.ctx, nc + 1);
    r->group = rmg__malloc(r->b.ctx, (nc + 1) * sizeof *r->group);
    rmg_status st = town && r->choice && r->group ? RMG_OK : rmg__error_nomem(r->b.ctx);
    for (size_t i = 0; i < m->zones.count && st == RMG_OK; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index >= 0 && (size_t)z->tpl_index < nz && z->towns.count)
            town[z->tpl_index] = true;
    }
    rmg__solve_input in = {0};
    in.tpl = g->tpl;
    in.zone_active = g->zone_active;
    in.conn_active = g->conn_active;
    if (st == RMG_OK)
        st = rmg__solve_road_choices(r->b.ctx, &in, town, r->choice, r->group);
    rmg__free(r->b.ctx, town);
    return st;
}

/* A parallel group's merged setting, with mandatory links off every simple path between town
 * zones demoted to random. This connection's own "forbidden" still keeps the road off it; a
 * parallel sibling carries it instead. */
static rmg__road_rule road_rule(const roads *r, size_t i)
{
    const rmg__connection *c = &r->b.g->tpl->connections[i];
    if (c->type == RMG_CONNECTION_FICTIVE || c->roads == RMG_ROAD_SETTING_FORBIDDEN)
        return RMG__ROAD_NEVER;
    return r->choice[i] == RMG_ROAD_SETTING_MANDATORY ? RMG__ROAD_MUST
           : r->choice[i] == RMG_ROAD_SETTING_RANDOM  ? RMG__ROAD_MAY
                                               : RMG__ROAD_NEVER;
}

static bool realized_for_roads(rmg_map_realization r)
{
    return r == RMG_REALIZED_PASSAGE || r == RMG_REALIZED_WIDE || r == RMG_REALIZED_GATE ||
           r == RMG_REALIZED_MONOLITH || r == RMG_REALIZED_ONE_WAY_MONOLITH || r == RMG_REALIZED_BORDER_GUARD;
}

/* The road type ([impl]; the guide names none): the game's own random maps pave every road
 * with cobblestone (Jebus Cross: 902 road tiles of 902 in the median map, start and treasure
 * zones alike), so librmg does too. */
static int road_type(const rmg__grid *b, int zone)
{
    (void)b;
    (void)zone;
    return RMG_ROAD_COBBLESTONE;
}

/* The tile a road ends at for an object: below its entry when that is walkable. */
static uint32_t object_road_tile(const rmg__grid *b, const rmg__map_object *o)
{
    rmg__grid_shape sh = {o->block, o->visit, 1};
    uint32_t anchor = (uint32_t)rmg__tile(b->w, b->h, o->x, o->y, o->z);
    uint32_t v = rmg__grid_visit_tile(b, &sh, anchor);
    int y = rmg__grid_y(b, v) + 1;
    if (y < b->h) {
        uint32_t below = v + (uint32_t)b->w;
        if (!(b->m->flags[below] & RMG__T_BLOCKED) && b->m->tile_zone[below] == o->zone)
            return below;
    }
    return v;
}

static bool is_road_target(const struct rmg_map *m, const rmg__map_object *o)
{
    if (o->kind == RMG_OBJECT_TOWN || o->kind == RMG_OBJECT_SHIPYARD)
        return true;
    if (o->kind != RMG_OBJECT_MONOLITH && o->kind != RMG_OBJECT_GATE)
        return false;
    /* ZON-34: teleports of mirror links with roads. */
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (c->tpl_index < 0 && c->road)
            for (size_t k = 0; k < c->objects.count; k++)
                if (c->objects.items[k] == o->id)
                    return true;
    }
    return false;
}

/* ---- the zone graph ---------------------------------------------------------------------- */

static rmg_status collect_edges(roads *r)
{
    const rmg__gen *g = r->b.g;
    const struct rmg_map *m = r->b.m;
    r->edges = rmg__calloc(r->b.ctx, m->conns.count ? m->conns.count : 1, sizeof *r->edges);
    if (!r->edges)
        return rmg__error_nomem(r->b.ctx);
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (c->tpl_index < 0 || (size_t)c->tpl_index >= g->tpl->n_connections || !realized_for_roads(c->realized) ||
            c->tiles.count < 2)
            continue;
        rmg__road_rule rule = road_rule(r, (size_t)c->tpl_index);
        if (rule == RMG__ROAD_NEVER)
            continue;
        /* CON-18: one edge per zone pair, with the strongest rule. */
        size_t k = 0;
        while (k < r->n_edges && !((r->edges[k].a == c->zone_a && r->edges[k].b == c->zone_b) ||
                                   (r->edges[k].a == c->zone_b && r->edges[k].b == c->zone_a)))
            k++;
        if (k == r->n_edges) {
            r->edges[r->n_edges++] = (edge){c->zone_a, c->zone_b, rule, i, false};
        } else if (rule > r->edges[k].rule) {
            r->edges[k].rule = rule;
            r->edges[k].conn = i;
        }
    }
    for (size_t k = 0; k < r->n_edges; k++)
        r->edges[k].chosen = r->edges[k].rule == RMG__ROAD_MUST;
    return RMG_OK;
}

static int other_end(const edge *e, int zone)
{
    return e->a == zone ? e->b : e->a;
}

/* Distances over the zone graph from every reached zone: chosen links cost 0, MAY links 1
 * (Dijkstra on a small graph: quadratic in the zone count). */
static void zone_distances(roads *r)
{
    size_t nz = r->b.m->zones.count;
    for (size_t z = 0; z < nz; z++) {
        r->zdist[z] = r->reached[z] ? 0 : -1;
        r->zprev[z] = 0;
        r->done[z] = false;
    }
    for (;;) {
        int z = -1;
        for (size_t i = 0; i < nz; i++)
            if (!r->done[i] && r->zdist[i] >= 0 && (z < 0 || r->zdist[i] < r->zdist[z]))
                z = (int)i;
        if (z < 0)
            return;
        r->done[z] = true;
        for (size_t k = 0; k < r->n_edges; k++) {
            const edge *e = &r->edges[k];
            if (e->a != z + 1 && e->b != z + 1)
                continue;
            int o = other_end(e, z + 1) - 1, nd = r->zdist[z] + (e->chosen ? 0 : 1);
            if (r->zdist[o] < 0 || nd < r->zdist[o]) {
                r->zdist[o] = nd;
                r->zprev[o] = (int)k + 1;
            }
        }
    }
}

/* Marks z and every zone joined to it by chosen links as reached. */
static void reach_component(roads *r, int z)
{
    if (r->reached[z - 1])
        return;
    r->reached[z - 1] = true;
    for (size_t k = 0; k < r->n_edges; k++)
        if (r->edges[k].chosen && (r->edges[k].a == z || r->edges[k].b == z))
            reach_component(r, other_end(&r->edges[k], z));
}

/* CON-17: starting from each not yet reached zone with targets, the nearest other zone with
 * targets is joined along the fewest MAY links, until none can be reached. */
static void choose_links(roads *r)
{
    size_t nz = r->b.m->zones.count;
    for (size_t t = 0; t < nz; t++) {
        if (!r->has_target[t] || r->reached[t])
            continue;
        reach_component(r, (int)t + 1);
        for (;;) {
            zone_distances(r);
            int best = -1;
            for (size_t z = 0; z < nz; z++)
                if (r->has_target[z] && !r->reached[z] && r->zdist[z] >= 0 &&
                    (best < 0 || r->zdist[z] < r->zdist[best]))
                    best = (int)z;
            if (best < 0)
                break;
            for (int z = best + 1; r->zprev[z - 1] && !r->reached[z - 1];) {
                edge *e = &r->edges[r->zprev[z - 1] - 1];
                e->chosen = true;
                z = other_end(e, z);
            }
            /* The path's edges are chosen now: flooding from its end takes in the path. */
            reach_component(r, best + 1);
        }
    }
}

/* ---- roads inside zones ---------------------------------------------------------------------- */

typedef struct path_user {
    int zone;
    const uint8_t *wind;
} path_user;

/* Entering cost of a tile for a road (at most RMG__GRID_MAX_COST), 0 where none may go. */
static uint32_t road_cost(const rmg__grid *b, uint32_t t, void *user)
{
    const path_user *p = user;
    uint16_t f = b->m->flags[t];
    if (b->m->tile_zone[t] != p->zone)
        return 0;
    if (b->mark[t] & (MK_TARGET | MK_ROAD))
        return 1;
    if (f & RMG__T_GUARD)
        return 6; /* a road may pass a guard (it stands on the road), but prefers not to */
    if ((f & RMG__T_ENTRY) || ((f & RMG__T_BLOCKED) && !(f & RMG__T_PASSAGE)))
        return 0;
    if (f & RMG__T_BORDER && !(f & RMG__T_PASSAGE))
        return 0;
    if (b->m->road[t])
        return 1;
    return 3 + p->wind[t]; /* free paths and open land alike: the road winds with the land */
}

static bool unjoined_target(const rmg__grid *b, uint32_t t, void *user)
{
    (void)user;
    return (b->mark[t] & MK_TARGET) && !(b->mark[t] & MK_ROAD);
}

static bool town_end(const rmg__grid *b, uint32_t t, void *user)
{
    (void)user;
    return (b->mark[t] & MK_TOWN) != 0;
}

static bool on_road(const rmg__grid *b, uint32_t t, void *user)
{
    (void)user;
    return (b->mark[t] & MK_ROAD) != 0;
}

typedef struct lay_user {
    uint8_t type;
    path_user *pu;       /* the path's cost rule, for the corners of its diagonal steps */
    uint32_t last;       /* the tile laid before along the path, UINT32_MAX at its start */
} lay_user;

static void put_road(rmg__grid *b, uint32_t t, uint8_t type)
{
    b->mark[t] |= MK_ROAD;
    if (b->m->road[t] < type)
        b->m->road[t] = type;
}

static bool passable_tile(const struct rmg_map *m, uint32_t t)
{
    return !(m->flags[t] & RMG__T_BLOCKED) || (m->flags[t] & (RMG__T_ENTRY | RMG__T_GUARD));
}

/* Whether a guard stands on t or next to it: a hero stepping there is stopped. */
static bool guarded_tile(const rmg__grid *b, uint32_t t)
{
    uint32_t nb[8];
    int n = rmg__grid_nbrs(b, t, nb);
    if (b->m->flags[t] & RMG__T_GUARD)
        return true;
    for (int i = 0; i < n; i++)
        if (b->m->flags[nb[i]] & RMG__T_GUARD)
            return true;
    return false;
}

#define CORNER_REACH 5 /* how far around a corner the way between its neighbours is looked for */
#define CORNER_SIDE (2 * CORNER_REACH + 1)

/* A filler tile (blocked only so that obstacles cover it later) at the corner c of a diagonal
 * step a-t may be opened for the road when that opens no new way: every walkable tile around c
 * is a step from a or t, or reached from them within a few steps that pass no guard (a flood
 * in a small window around c, c itself closed). So no guard is bypassed and no pocket entered. */
static bool corner_opens_nothing(const rmg__grid *b, uint32_t c, uint32_t a, uint32_t t, int zone)
{
    const struct rmg_map *m = b->m;
    if (m->flags[c] != RMG__T_BLOCKED || m->tile_zone[c] != zone)
        return false;
    int cx, cy, cz;
    rmg__grid_xyz(b, c, &cx, &cy, &cz);
    uint8_t seen[CORNER_SIDE * CORNER_SIDE] = {0};
    uint32_t queue[CORNER_SIDE * CORNER_SIDE];
    size_t head = 0, tail = 0;
    seen[CORNER_REACH * CORNER_SIDE + CORNER_REACH] = 1; /* c stays closed */
    uint32_t starts[2] = {a, t};
    for (int i = 0; i < 2; i++) {
        int x = rmg__grid_x(b, starts[i]) - cx + CORNER_REACH, y = rmg__grid_y(b, starts[i]) - cy + CORNER_REACH;
        seen[y * CORNER_SIDE + x] = 1;
        queue[tail++] = starts[i];
    }
    while (head < tail) {
        uint32_t u = queue[head++], nb[8];
        int n = rmg__grid_nbrs(b, u, nb);
        for (int i = 0; i < n; i++) {
            int x = rmg__grid_x(b, nb[i]) - cx + CORNER_REACH, y = rmg__grid_y(b, nb[i]) - cy + CORNER_REACH;
            if (x < 0 || y < 0 || x >= CORNER_SIDE || y >= CORNER_SIDE || seen[y * CORNER_SIDE + x])
                continue;
            seen[y * CORNER_SIDE + x] = 1;
            if (rmg__finish_walkable(m, nb[i]) && !guarded_tile(b, nb[i]))
                queue[tail++] = nb[i];
            else
                seen[y * CORNER_SIDE + x] = 2; /* met, not entered */
        }
    }
    uint32_t nb[8];
    int n = rmg__grid_nbrs(b, c, nb);
    int ax = rmg__grid_x(b, a), ay = rmg__grid_y(b, a), tx = rmg__grid_x(b, t), ty = rmg__grid_y(b, t);
    for (int i = 0; i < n; i++) {
        int ux = rmg__grid_x(b, nb[i]), uy = rmg__grid_y(b, nb[i]);
        bool beside = (abs(ux - ax) <= 1 && abs(uy - ay) <= 1) || (abs(ux - tx) <= 1 && abs(uy - ty) <= 1);
        size_t cell = (size_t)(uy - cy + CORNER_REACH) * CORNER_SIDE + (size_t)(ux - cx + CORNER_REACH);
        if (rmg__finish_walkable(m, nb[i]) && !beside && seen[cell] != 1)
            return false;
    }
    return true;
}

/* A diagonal step from a to t is drawn by the game as two road ends touching at a corner, and
 * its roads run in orthogonal steps (97% of its road tiles): the step gets a corner tile. A
 * guard's tile comes first (the game's roads run through the monster standing on them, which
 * the path's cost avoids), then the cheaper open corner, then a filler tile that opens no new
 * way (the zone's free paths may run diagonally between fillers). Otherwise the step stays. */
static void join_diagonal(rmg__grid *b, uint32_t a, uint32_t t, const lay_user *l)
{
    int ax, ay, az, tx, ty, tz;
    rmg__grid_xyz(b, a, &ax, &ay, &az);
    rmg__grid_xyz(b, t, &tx, &ty, &tz);
    if (az != tz || abs(ax - tx) != 1 || abs(ay - ty) != 1)
        return;
    uint32_t corner[2] = {(uint32_t)rmg__tile(b->w, b->h, tx, ay, tz), (uint32_t)rmg__tile(b->w, b->h, ax, ty, tz)};
    uint32_t best = UINT32_MAX, best_cost = 0;
    for (int i = 0; i < 2; i++) {
        uint32_t c = corner[i];
        if (b->m->road[c] || (b->mark[c] & MK_ROAD))
            return; /* already joined */
        uint32_t cost = road_cost(b, c, l->pu);
        if (!cost)
            continue;
        if (b->m->flags[c] & RMG__T_GUARD)
            cost = 0; /* preferred */
        if (best == UINT32_MAX || cost < best_cost)
            best = c, best_cost = cost;
    }
    for (int i = 0; i < 2 && best == UINT32_MAX; i++)
        if (corner_opens_nothing(b, corner[i], a, t, l->pu->zone)) {
            best = corner[i];
            b->m->flags[best] &= (uint16_t)~RMG__T_BLOCKED;
        }
    if (best != UINT32_MAX)
        put_road(b, best, l->type);
}

static void lay_tile(rmg__grid *b, uint32_t t, void *user)
{
    lay_user *l = user;
    if (l->last != UINT32_MAX)
        join_diagonal(b, l->last, t, l);
    l->last = t;
    put_road(b, t, l->type);
}

/* Lays the path the last search found, ending at `end`. */
static void lay_path(rmg__grid *b, uint32_t end, lay_user *l)
{
    l->last = UINT32_MAX;
    rmg__grid_trace(b, end, lay_tile, l);
}

static rmg_status add_end(roads *r, uint32_t t)
{
    if (r->n_ends == r->cap_ends) {
        size_t cap = r->cap_ends ? r->cap_ends * 2 : 16;
        uint32_t *p = rmg__realloc(r->b.ctx, r->ends, cap * sizeof *p);
        if (!p)
            return rmg__error_nomem(r->b.ctx);
        r->ends = p;
        r->cap_ends = cap;
    }
    r->ends[r->n_ends++] = t;
    r->b.mark[t] |= MK_TARGET;
    return RMG_OK;
}

/* Where a road crosses a connection on zone's side: the passage tile (for a wide opening one
 * of a pair of touching tiles), or the tile in front of the teleport's entry. */
static uint32_t crossing_tile(const rmg__grid *b, const rmg__map_connection *c, int zone)
{
    const struct rmg_map *m = b->m;
    if (!c->tiles.count)
        return UINT32_MAX;
    if (!(m->flags[c->tiles.items[0]] & RMG__T_PASSAGE)) {
        /* Teleports: the tile in front of this zone's entry. */
        for (size_t i = 0; i < c->tiles.count; i++) {
            uint32_t t = c->tiles.items[i];
            if (m->tile_zone[t] == zone)
                return t + (uint32_t)b->w < b->n ? t + (uint32_t)b->w : t;
        }
        return UINT32_MAX;
    }
    /* Ground: the touching pair (a side, b side) nearest to the middle of the opening, the same
     * for both zones so the road runs on across the border. Pairs on the skeleton come first: the
     * connect stage joined them to both zones, while the rest of a wide opening may be walled in
     * by objects placed later. */
    int64_t sx = 0, sy = 0;
    for (size_t i = 0; i < c->tiles.count; i++) {
        sx += rmg__grid_x(b, c->tiles.items[i]);
        sy += rmg__grid_y(b, c->tiles.items[i]);
    }
    uint32_t mid = (uint32_t)rmg__tile(b->w, b->h, (int)(sx / (int64_t)c->tiles.count),
                                       (int)(sy / (int64_t)c->tiles.count), rmg__grid_z(b, c->tiles.items[0]));
    uint32_t best_a = UINT32_MAX, best_b = UINT32_MAX;
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < c->tiles.count; i++) {
        uint32_t ta = c->tiles.items[i];
        if (m->tile_zone[ta] != c->zone_a)
            continue;
        for (size_t k = 0; k < c->tiles.count; k++) {
            uint32_t tb = c->tiles.items[k];
            if (m->tile_zone[tb] != c->zone_b || rmg__grid_cheb(b, ta, tb) != 1)
                continue;
            bool skeleton = (m->flags[ta] & RMG__T_FREE) && (m->flags[tb] & RMG__T_FREE);
            int64_t score = (skeleton ? 0 : INT64_MAX / 2) + rmg__grid_dist2(b, ta, mid);
            if (score < best) {
                best = score;
                best_a = ta;
                best_b = tb;
            }
        }
    }
    return zone == c->zone_a ? best_a : best_b;
}

/* Ends of the zone's roads: its targets (towns first) and the crossings of chosen links. */
static rmg_status zone_ends(roads *r, int zone, size_t *n_targets)
{
    const struct rmg_map *m = r->b.m;
    rmg_status st = RMG_OK;
    r->n_ends = 0;
    for (int pass = 0; pass < 2 && st == RMG_OK; pass++)
        for (size_t i = 0; i < r->targets.count && st == RMG_OK; i++) {
            const rmg__map_object *o = &m->objects.items[r->targets.items[i]];
            if (o->zone == zone && (o->kind == RMG_OBJECT_TOWN) == (pass == 0))
                st = add_end(r, object_road_tile(&r->b, o));
        }
    *n_targets = r->n_ends;
    for (size_t k = 0; k < r->n_edges && st == RMG_OK; k++) {
        const edge *e = &r->edges[k];
        if (!e->chosen || (e->a != zone && e->b != zone))
            continue;
        uint32_t t = crossing_tile(&r->b, &m->conns.items[e->conn], zone);
        if (t != UINT32_MAX)
            st = add_end(r, t);
    }
    return st;
}

/* Joins the zone's ends with roads. Returns the number of ends left unconnected. */
static size_t join_zone(roads *r, int zone, size_t n_targets, bool coherent)
{
    path_user pu = {zone, r->wind};
    lay_user lu = {(uint8_t)road_type(&r->b, zone), &pu, UINT32_MAX};
    size_t missed = 0;
    if (!r->n_ends)
        return 0;
    if (coherent) {
        put_road(&r->b, r->ends[0], lu.type);
        for (size_t k = 1; k < r->n_ends; k++) {
            /* From the first end: the network's tiles are cheap, so the new branch leaves the
             * network where the remaining target is closest. */
            uint32_t found = rmg__grid_dijkstra(&r->b, r->ends, 1, road_cost, unjoined_target, &pu);
            if (!found)
                break;
            lay_path(&r->b, found - 1, &lu);
        }
        for (size_t i = 0; i < r->n_ends; i++)
            if (!(r->b.mark[r->ends[i]] & MK_ROAD))
                missed++;
        return missed;
    }
    /* CON-20: each link end to its nearest town or shipyard; other targets to the nearest road. */
    for (size_t i = 0; i < n_targets; i++)
        r->b.mark[r->ends[i]] |= MK_TOWN;
    for (size_t i = n_targets; i < r->n_ends; i++) {
        uint32_t end = r->ends[i];
        uint32_t found = n_targets ? rmg__grid_dijkstra(&r->b, &end, 1, road_cost, town_end, &pu) : 0;
        if (found)
            lay_path(&r->b, found - 1, &lu);
        else
            put_road(&r->b, end, lu.type);
        r->b.mark[end] |= MK_ROAD;
    }
    for (size_t i = 0; i < n_targets; i++) {
        uint32_t end = r->ends[i];
        if (r->b.mark[end] & MK_ROAD)
            continue;
        uint32_t found = rmg__grid_dijkstra(&r->b, &end, 1, road_cost, on_road, &pu);
        if (found)
            lay_path(&r->b, found - 1, &lu);
        else
            put_road(&r->b, end, lu.type);
    }
    return missed;
}

static void clear_marks(roads *r)
{
    memset(r->b.mark, 0, r->b.n);
}


/* ---- joining the road networks (CON-17 step 2) ------------------------------------------------ */

/* After every zone laid its roads, a zone with non-coherent roads (CON-20) may hold several
 * networks: each link end went to its nearest town, so two towns of one zone, or a zone's
 * links, can end up on networks that meet nowhere else on the map. Networks are labelled per
 * zone, merged through the crossings of the chosen links, and every zone's networks that are
 * still apart are joined inside the zone by the cheapest road between them. Networks already
 * joined elsewhere stay apart in the zone (non-coherent roads, ZON-06). */
typedef struct networks {
    uint32_t *net;      /* per tile: network label, 0 none */
    uint32_t *parent;   /* per label: union-find parent */
    uint32_t n_labels;
    rmg__grid_zone_index zi;
} networks;

static uint32_t net_find(const networks *nw, uint32_t l)
{
    while (nw->parent[l] != l)
        l = nw->parent[l];
    return l;
}

static void net_union(networks *nw, uint32_t a, uint32_t c)
{
    a = net_find(nw, a);
    c = net_find(nw, c);
    /* The smaller label wins, so the result does not depend on the order of the unions. */
    if (a < c)
        nw->parent[c] = a;
    else if (c < a)
        nw->parent[a] = c;
}

static bool road_zone(const roads *r, int zone, bool mirror)
{
    return rmg__grid_land_zone(&r->b, zone) && !(mirror && rmg__grid_zone(&r->b, zone)->level > 0);
}

/* Labels the road tiles of each zone by 8-connected network (zone by zone, in tile order). */
static void label_networks(roads *r, networks *nw, bool mirror)
{
    rmg__grid *b = &r->b;
    nw->n_labels = 0;
    for (size_t zi = 0; zi < b->m->zones.count; zi++) {
        int zone = b->m->zones.items[zi].id;
        if (!road_zone(r, zone, mirror))
            continue;
        for (uint32_t i = nw->zi.start[zone]; i < nw->zi.start[zone + 1]; i++) {
            uint32_t s = nw->zi.tiles[i];
            if (!b->m->road[s] || nw->net[s])
                continue;
            uint32_t label = ++nw->n_labels;
            size_t head = 0, tail = 0;
            nw->net[s] = label;
            b->queue[tail++] = s;
            while (head < tail) {
                uint32_t t = b->queue[head++], nb[8];
                int n_nb = rmg__grid_nbrs(b, t, nb);
                for (int d = 0; d < n_nb; d++)
                    if (b->m->road[nb[d]] && !nw->net[nb[d]] && b->m->tile_zone[nb[d]] == zone) {
                        nw->net[nb[d]] = label;
                        b->queue[tail++] = nb[d];
                    }
            }
        }
    }
}

/* Lays the crossing tiles of every chosen link, so a link whose end no road reached still
 * counts as a network of its zone (joined below). */
static void lay_crossings(roads *r, bool mirror)
{
    const struct rmg_map *m = r->b.m;
    for (size_t k = 0; k < r->n_edges; k++) {
        const edge *e = &r->edges[k];
        if (!e->chosen || !road_zone(r, e->a, mirror) || !road_zone(r, e->b, mirror))
            continue;
        for (int side = 0; side < 2; side++) {
            int zone = side ? e->b : e->a;
            uint32_t t = crossing_tile(&r->b, &m->conns.items[e->conn], zone);
            if (t != UINT32_MAX && m->tile_zone[t] == zone && passable_tile(m, t))
                put_road(&r->b, t, (uint8_t)road_type(&r->b, zone));
        }
    }
}

static void union_crossings(roads *r, networks *nw, bool mirror)
{
    const struct rmg_map *m = r->b.m;
    for (size_t k = 0; k < r->n_edges; k++) {
        const edge *e = &r->edges[k];
        if (!e->chosen || !road_zone(r, e->a, mirror) || !road_zone(r, e->b, mirror))
            continue;
        uint32_t ta = crossing_tile(&r->b, &m->conns.items[e->conn], e->a);
        uint32_t tb = crossing_tile(&r->b, &m->conns.items[e->conn], e->b);
        if (ta != UINT32_MAX && tb != UINT32_MAX && nw->net[ta] && nw->net[tb])
            net_union(nw, nw->net[ta], nw->net[tb]);
    }
}

typedef struct join_user {
    path_user pu;       /* first: road_cost reads the zone through it */
    const networks *nw;
    uint32_t root;
} join_user;

static bool other_network(const rmg__grid *b, uint32_t t, void *user)
{
    const join_user *ju = user;
    (void)b;
    return ju->nw->net[t] && net_find(ju->nw, ju->nw->net[t]) != ju->root;
}

typedef struct net_lay_user {
    lay_user lu;
    networks *nw;
    uint32_t label;
} net_lay_user;

static void lay_net_tile(rmg__grid *b, uint32_t t, void *user)
{
    net_lay_user *nl = user;
    lay_tile(b, t, &nl->lu);
    if (!nl->nw->net[t])
        nl->nw->net[t] = nl->label;
}

/* Joins the zone's networks that are still apart. Returns a road tile of a network that could
 * not be joined, UINT32_MAX when all are. */
static uint32_t join_zone_networks(roads *r, networks *nw, int zone, uint32_t *sources)
{
    const uint32_t *zt = nw->zi.tiles + nw->zi.start[zone];
    size_t nt = nw->zi.start[zone + 1] - nw->zi.start[zone], first = 0;
    while (first < nt && !nw->net[zt[first]])
        first++;
    if (first == nt)
        return UINT32_MAX;
    join_user ju = {{zone, r->wind}, nw, 0};
    net_lay_user nl = {{(uint8_t)road_type(&r->b, zone), &ju.pu, UINT32_MAX}, nw, nw->net[zt[first]]};
    for (;;) {
        ju.root = net_find(nw, nl.label);
        size_t ns = 0;
        bool apart = false;
        for (size_t i = first; i < nt; i++)
            if (nw->net[zt[i]] && net_find(nw, nw->net[zt[i]]) == ju.root)
                sources[ns++] = zt[i];
            else
                apart |= nw->net[zt[i]] != 0;
        if (!apart)
            return UINT32_MAX; /* the usual case: no search over the zone */
        uint32_t found = rmg__grid_dijkstra(&r->b, sources, ns, road_cost, other_network, &ju);
        if (!found)
            break;
        net_union(nw, ju.root, nw->net[found - 1]);
        nl.lu.last = UINT32_MAX;
        rmg__grid_trace(&r->b, found - 1, lay_net_tile, &nl);
    }
    for (size_t i = first; i < nt; i++)
        if (other_network(&r->b, zt[i], &ju))
            return zt[i];
    return UINT32_MAX;
}

static rmg_status join_networks(roads *r, bool mirror)
{
    rmg__grid *b = &r->b;
    networks nw;
    memset(&nw, 0, sizeof nw);
    lay_crossings(r, mirror);
    rmg_status st = rmg__grid_index_zones(b, &nw.zi);
    if (st != RMG_OK)
        return st;
    nw.net = rmg__calloc(b->ctx, b->n ? b->n : 1, sizeof *nw.net);
    uint32_t *sources = rmg__malloc(b->ctx, (b->n ? b->n : 1) * sizeof *sources);
    if (nw.net && sources) {
        label_networks(r, &nw, mirror);
        nw.parent = rmg__malloc(b->ctx, ((size_t)nw.n_labels + 1) * sizeof *nw.parent);
    }
    if (!nw.net || !sources || !nw.parent) {
        st = rmg__error_nomem(b->ctx);
    } else {
        for (uint32_t l = 0; l <= nw.n_labels; l++)
            nw.parent[l] = l;
        union_crossings(r, &nw, mirror);
        for (size_t i = 0; i < b->m->zones.count && st == RMG_OK; i++) {
            const rmg__map_zone *z = &b->m->zones.items[i];
            if (!road_zone(r, z->id, mirror))
                continue;
            uint32_t apart = join_zone_networks(r, &nw, z->id, sources);
            if (apart != UINT32_MAX)
                st = rmg__map_warn(b->m, "zone %d (template zone %d): the road network at %d,%d,%d could not be "
                                         "joined to the zone's other roads (CON-17)", z->id, z->tpl_id,
                                   rmg__grid_x(b, apart), rmg__grid_y(b, apart), rmg__grid_z(b, apart));
        }
    }
    clear_marks(r);
    rmg__free(b->ctx, sources);
    rmg__free(b->ctx, nw.net);
    rmg__free(b->ctx, nw.parent);
    rmg__grid_zone_index_free(b, &nw.zi);
    return st;
}

/* WAT-04 copies the surface roads underground; that only works while the underground content
 * is the surface's copy. Otherwise each level gets its own roads (with a warning). */
static rmg_status mirror_roads_copyable(roads *r, bool *copy)
{
    const struct rmg_map *m = r->b.m;
    uint32_t plane = (uint32_t)m->width * (uint32_t)m->height;
    *copy = true;
    for (uint32_t t = 0; t < plane && *copy; t++) {
        bool teleport = false;
        for (int z = 0; z < 2; z++) {
            uint32_t o = m->tile_object[t + (uint32_t)z * plane];
            rmg_map_object_kind k = o ? m->objects.items[o - 1].kind : RMG_OBJECT_TREASURE;
            teleport |= o && (k == RMG_OBJECT_MONOLITH || k == RMG_OBJECT_GATE);
        }
        *copy = teleport || passable_tile(m, t) == passable_tile(m, t + plane);
    }
    if (*copy)
        return RMG_OK;
    return rmg__map_warn(r->b.m, "mirror template: the underground content differs from the surface, so each level "
                                 "gets its own roads instead of a copy (WAT-04)");
}

static rmg_status lay_roads(roads *r)
{
    const rmg__gen *g = r->b.g;
    struct rmg_map *m = r->b.m;
    bool mirror = g->pack && g->pack->mirror && m->levels > 1;
    rmg_status st0;
    if (mirror && (st0 = mirror_roads_copyable(r, &mirror)) != RMG_OK)
        return st0;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (!rmg__grid_land_zone(&r->b, z->id) || (mirror && z->level > 0))
            continue;
        size_t n_targets;
        rmg_status st = zone_ends(r, z->id, &n_targets);
        if (st != RMG_OK)
            return st;
        bool coherent = z->tpl_index < 0 || !g->tpl->zones[z->tpl_index].allow_noncoherent_roads;
        size_t missed = join_zone(r, z->id, n_targets, coherent);
        uint32_t lost = 0;
        for (size_t k = 0; k < r->n_ends && missed; k++)
            if (!(r->b.mark[r->ends[k]] & MK_ROAD)) {
                lost = r->ends[k];
                break;
            }
        clear_marks(r);
        if (missed && (st = rmg__map_warn(m, "zone %d (template zone %d): %zu road end(s) could not be joined, first at "
                                          "%d,%d,%d", z->id, z->tpl_id, missed, rmg__grid_x(&r->b, lost),
                                          rmg__grid_y(&r->b, lost), rmg__grid_z(&r->b, lost))) != RMG_OK)
            return st;
    }
    rmg_status st = join_networks(r, mirror);
    if (st != RMG_OK)
        return st;
    for (size_t k = 0; k < r->n_edges; k++)
        if (r->edges[k].chosen)
            m->conns.items[r->edges[k].conn].road = true;
    if (mirror) {
        /* WAT-04: the surface roads copied onto the underground copy. */
        uint32_t plane = (uint32_t)m->width * (uint32_t)m->height;
        for (uint32_t t = 0; t < plane; t++)
            if (m->road[t] && passable_tile(m, t + plane))
                m->road[t + plane] = m->road[t];
    }
    return RMG_OK;
}

static void roads_free(roads *r)
{
    rmg_context *ctx = r->b.ctx;
    rmg__free(ctx, r->edges);
    rmg__free(ctx, r->zdist);
    rmg__free(ctx, r->zprev);
    rmg__free(ctx, r->reached);
    rmg__free(ctx, r->has_target);
    rmg__free(ctx, r->done);
    rmg__free(ctx, r->ends);
    RMG__VEC_FREE(ctx, &r->targets);
    rmg__free(ctx, r->choice);
    rmg__free(ctx, r->group);
    rmg__free(ctx, r->wind);
    rmg__grid_free(&r->b);
}

/* Why roads wind ([impl], issue 32): the game's roads meander across the land (a median 902 road
 * tiles on Jebus Cross XL, where straight joins of the same towns take about 570). A road's
 * cost to enter a tile carries a smooth random roughness: value noise on a lattice of
 * WIND_CELL tiles, 0..WIND_MAX, from the stream "roads-wind", so the cheapest path bends
 * around the rough patches. */
#define WIND_CELL 7
#define WIND_MAX 7
static rmg_status wind_field(roads *r)
{
    const struct rmg_map *m = r->b.m;
    int gw = m->width / WIND_CELL + 2, gh = m->height / WIND_CELL + 2;
    size_t plane = (size_t)m->width * (size_t)m->height;
    r->wind = rmg__malloc(r->b.ctx, m->n_tiles ? m->n_tiles : 1);
    uint8_t *lattice = rmg__malloc(r->b.ctx, (size_t)gw * (size_t)gh * (size_t)m->levels);
    if (!r->wind || !lattice) {
        rmg__free(r->b.ctx, lattice);
        return rmg__error_nomem(r->b.ctx);
    }
    rmg_rng rng;
    rmg__gen_stream(r->b.g, "roads-wind", 0, &rng);
    for (size_t i = 0; i < (size_t)gw * (size_t)gh * (size_t)m->levels; i++)
        lattice[i] = (uint8_t)rmg_rng_below(&rng, 2 * WIND_MAX + 1); /* twice the range: halves round */
    for (size_t t = 0; t < m->n_tiles; t++) {
        size_t z = t / plane, in = t % plane;
        int x = (int)(in % (size_t)m->width), y = (int)(in / (size_t)m->width);
        int gx = x / WIND_CELL, gy = y / WIND_CELL, fx = x % WIND_CELL, fy = y % WIND_CELL;
        const uint8_t *l = lattice + z * (size_t)gw * (size_t)gh;
        int a = l[gy * gw + gx], b = l[gy * gw + gx + 1], c = l[(gy + 1) * gw + gx], d = l[(gy + 1) * gw + gx + 1];
        int top = a * (WIND_CELL - fx) + b * fx, bottom = c * (WIND_CELL - fx) + d * fx;
        int v = top * (WIND_CELL - fy) + bottom * fy; /* 0..2 * WIND_MAX * WIND_CELL^2 */
        r->wind[t] = (uint8_t)((v + WIND_CELL * WIND_CELL) / (2 * WIND_CELL * WIND_CELL));
    }
    rmg__free(r->b.ctx, lattice);
    return RMG_OK;
}

static rmg_status mark_target_zones(roads *r)
{
    const struct rmg_map *m = r->b.m;
    size_t nz = m->zones.count ? m->zones.count : 1;
    r->zdist = rmg__calloc(r->b.ctx, nz, sizeof *r->zdist);
    r->zprev = rmg__calloc(r->b.ctx, nz, sizeof *r->zprev);
    r->reached = rmg__calloc(r->b.ctx, nz, sizeof *r->reached);
    r->has_target = rmg__calloc(r->b.ctx, nz, sizeof *r->has_target);
    r->done = rmg__calloc(r->b.ctx, nz, sizeof *r->done);
    if (!r->zdist || !r->zprev || !r->reached || !r->has_target || !r->done)
        return rmg__error_nomem(r->b.ctx);
    /* Road targets are found once here (the objects do not change while roads are laid), not
     * per zone over every object of the map. */
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (!is_road_target(m, o))
            continue;
        if (!RMG__VEC_PUSH(r->b.ctx, &r->targets, (uint32_t)i))
            return rmg__error_nomem(r->b.ctx);
        if (o->zone >= 1 && (size_t)o->zone <= m->zones.count)
            r->has_target[o->zone - 1] = true;
    }
    return RMG_OK;
}

rmg_status rmg__finish_roads(rmg__gen *g)
{
    if (!g || !g->map || !g->tpl)
        return rmg__error_set(g ? g->ctx : NULL, RMG_ERR_INVALID_ARG, "roads: no map or template");
    roads r;
    memset(&r, 0, sizeof r);
    rmg_status st = rmg__grid_init(&r.b, g);
    if (st != RMG_OK)
        return st;
    if ((st = road_choices(&r)) == RMG_OK && (st = wind_field(&r)) == RMG_OK && (st = collect_edges(&r)) == RMG_OK &&
        (st = mark_target_zones(&r)) == RMG_OK) {
        choose_links(&r);
        st = lay_roads(&r);
        if (st == RMG_OK && r.b.nomem)
            st = rmg__error_nomem(r.b.ctx); /* a search ran out of memory: its road is missing */
    }
    roads_free(&r);
    return st;
}
