/* Placing the connect stage's objects (teleports, shipyards, border guards' tents) inside a zone:
 * a footprint on open interior land, reachable from the zone's skeleton through the tile below
 * its entry, scored by distance from the centre or by repulsion (CON-21, ZON-35). */
#include <math.h>
#include <string.h>

#include "connect_state.h"
#include "solve/solve_internal.h"

#define MAX_TRIES 8     /* best-scored candidates tested for reachability */
#define MAX_FOOT 16     /* footprint tiles (the stage's objects are at most 3x2) */
#define MAX_EXCL 64     /* footprint and, for sealed objects, its ring */

typedef struct foot {
    uint32_t tiles[MAX_FOOT];
    size_t n;
    uint32_t visit, approach;
    int vx, vy;             /* the visit tile's position */
} foot;

/* Footprint tiles of shape anchored at a; false when it leaves the map. */
static bool footprint_at(const rmg__grid *b, const rmg__grid_shape *sh, uint32_t a, foot *f)
{
    int ax, ay, z;
    rmg__grid_xyz(b, a, &ax, &ay, &z);
    f->n = 0;
    for (uint64_t rest = (sh->block | sh->visit) & RMG__GRID_FOOT_BITS; rest && f->n < MAX_FOOT; rest &= rest - 1) {
        int bit = rmg__grid_low_bit(rest);
        int x = ax - (7 - bit % 8), y = ay - (5 - bit / 8);
        if (x < 0 || y < 0)
            return false;
        f->tiles[f->n++] = (uint32_t)rmg__tile(b->w, b->h, x, y, z);
    }
    /* The visit tile from the anchor's position, as rmg__grid_visit_tile finds it. */
    uint64_t visit = sh->visit & RMG__GRID_FOOT_BITS;
    int bit = visit ? rmg__grid_low_bit(visit) : 47;
    f->vx = ax - (7 - bit % 8);
    f->vy = ay - (5 - bit / 8);
    if (f->vx < 0 || f->vy < 0) { /* a visit tile past the footprint's first MAX_FOOT tiles */
        int vz;
        f->visit = rmg__grid_visit_tile(b, sh, a);
        rmg__grid_xyz(b, f->visit, &f->vx, &f->vy, &vz);
    } else {
        f->visit = (uint32_t)rmg__tile(b->w, b->h, f->vx, f->vy, z);
    }
    if (f->vy + 1 >= b->h)
        return false;
    f->approach = (uint32_t)rmg__tile(b->w, b->h, f->vx, f->vy + 1, z);
    return true;
}

static bool in_foot(const foot *f, uint32_t t)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->tiles[i] == t)
            return true;
    return false;
}

/* An object tile: open interior land of the zone, away from passages and other objects. */
static bool tile_takes_object(const rmg__grid *b, const rmg__connect_request *rq, uint32_t t)
{
    const uint16_t bad = RMG__T_BLOCKED | RMG__T_BORDER | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_FREE |
                         RMG__T_PASSAGE | RMG__T_WATER | RMG__T_GUARD;
    uint8_t near = rq->crowded ? 0 : (RMG__MK_NEAR_PASSAGE | RMG__MK_NEAR_OBJECT);
    return b->m->tile_zone[t] == rq->zone && !(b->m->flags[t] & bad) && !(b->mark[t] & near);
}

static bool approach_ok(const rmg__grid *b, const rmg__connect_request *rq, uint32_t t)
{
    const uint16_t bad = RMG__T_BLOCKED | RMG__T_BORDER | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_WATER;
    return b->m->tile_zone[t] == rq->zone && !(b->m->flags[t] & bad) &&
           (rq->crowded || !(b->mark[t] & RMG__MK_NEAR_OBJECT));
}

/* Whether two tiles of one level touch (8 neighbours). */
static bool touching(const rmg__grid *b, uint32_t a, uint32_t c)
{
    return a != c && rmg__grid_cheb(b, a, c) == 1 && rmg__grid_z(b, a) == rmg__grid_z(b, c);
}

uint32_t rmg__connect_boarding(const rmg__grid *b, uint32_t visit, uint32_t spot, int zone)
{
    if (touching(b, visit, spot))
        return visit;
    for (int d = 0; d < 8; d++) {
        uint32_t u;
        const uint16_t bad = RMG__T_BLOCKED | RMG__T_BORDER | RMG__T_OBJECT | RMG__T_ENTRY | RMG__T_WATER | RMG__T_ROCK;
        if (rmg__grid_nbr(b, visit, d, &u) && touching(b, u, spot) && b->m->tile_zone[u] == zone &&
            !(b->m->flags[u] & bad))
            return u;
    }
    return RMG__NO_TILE;
}

/* A shipyard there builds its boat on water_zone (any water with 0) where the hero can board. */
static bool boat_fits(const rmg__grid *b, const rmg__connect_request *rq, const foot *f)
{
    uint32_t spot = rmg__map_boat_spot(b->m, f->visit);
    return spot != UINT32_MAX && (!rq->water_zone || b->m->tile_zone[spot] == rq->water_zone) &&
           rmg__connect_boarding(b, f->visit, spot, rq->zone) != RMG__NO_TILE;
}

static bool touches_zone(const rmg__grid *b, const foot *f, int zone)
{
    for (size_t i = 0; i < f->n; i++)
        for (int d = 0; d < 4; d++) {
            uint32_t u;
            if (rmg__grid_nbr(b, f->tiles[i], d, &u) && b->m->tile_zone[u] == zone)
                return true;
        }
    return false;
}

/* Sealed objects (teleports behind border guards) can only be entered through the approach:
 * every other neighbour must be a tile the stage may block. */
static bool seal_possible(const rmg__grid *b, const foot *f)
{
    for (size_t i = 0; i < f->n; i++)
        for (int d = 0; d < 8; d++) {
            uint32_t u;
            if (!rmg__grid_nbr(b, f->tiles[i], d, &u) || in_foot(f, u) || u == f->approach)
                continue;
            if (b->m->flags[u] & (RMG__T_FREE | RMG__T_PASSAGE | RMG__T_ENTRY | RMG__T_OBJECT))
                return false;
        }
    return true;
}

/* set: marks RMG__MK_REACHABLE where the last search went; else clears it. A search from the
 * zone's skeleton stays in the zone, so only the zone's tiles and the skeleton (its sources) can
 * carry the mark: those are looked at, not the whole map. */
static void mark_search_area(rmg__connect_state *s, int zone, bool set)
{
    const rmg__u32vec *free_tiles = &s->zfree[zone - 1];
    size_t n_zone = s->zi.start[zone + 1] - s->zi.start[zone];
    const uint32_t *zone_tiles = s->zi.tiles + s->zi.start[zone];
    for (size_t i = 0; i < n_zone + free_tiles->count; i++) {
        uint32_t t = i < n_zone ? zone_tiles[i] : free_tiles->items[i - n_zone];
        if (!set)
            s->b.mark[t] &= (uint8_t)~RMG__MK_REACHABLE;
        else if (s->b.seen[t] == s->b.stamp)
            s->b.mark[t] |= RMG__MK_REACHABLE;
    }
}

/* Marks with RMG__MK_REACHABLE the open interior of zone that its skeleton reaches: candidates
 * in pockets cut off by borders are skipped before the costlier per-candidate search. */
static void mark_reachable(rmg__connect_state *s, int zone)
{
    if (!s->zfree[zone - 1].count)
        return;
    rmg__connect_reach(s, zone, RMG__NO_TILE, NULL, 0);
    mark_search_area(s, zone, true);
}

static void clear_reachable(rmg__connect_state *s, int zone)
{
    mark_search_area(s, zone, false);
}

static bool fits(const rmg__grid *b, const rmg__connect_request *rq, const rmg__grid_shape *sh, uint32_t a, foot *f)
{
    if (!footprint_at(b, sh, a, f))
        return false;
    if (!(b->mark[f->approach] & RMG__MK_REACHABLE))
        return false;
    for (size_t i = 0; i < f->n; i++)
        if (!tile_takes_object(b, rq, f->tiles[i]))
            return false;
    if (in_foot(f, f->approach) || !approach_ok(b, rq, f->approach))
        return false;
    if (rq->kind == RMG_OBJECT_SHIPYARD ? !boat_fits(b, rq, f) : rq->water_zone && !touches_zone(b, f, rq->water_zone))
        return false;
    return !rq->seal || seal_possible(b, f);
}

/* floor(sqrt(v)), 0 for v <= 0: the double's root corrected to the exact integer one. */
static int64_t isqrt64(int64_t v)
{
    if (v <= 0)
        return 0;
    int64_t r = (int64_t)sqrt((double)v);
    while (r > 0 && r * r > v)
        r--;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return r;
}

/* A repeller's position, packed x | y << 16 (sides are at most 1024): the scores of a
 * placement's candidates measure against them without dividing tile indexes. */
static bool push_repeller(rmg__connect_state *s, uint32_t t)
{
    int x, y, z;
    rmg__grid_xyz(&s->b, t, &x, &y, &z);
    return RMG__VEC_PUSH(s->b.ctx, &s->repel, (uint32_t)x | (uint32_t)y << 16) != 0;
}

/* Squared distance (levels ignored) from (x, y) to a packed position. */
static int64_t dist2_to(int x, int y, uint32_t packed)
{
    int64_t dx = x - (int)(packed & 0xFFFFu), dy = y - (int)(packed >> 16);
    return dx * dx + dy * dy;
}

/* Whether the objects stage will give the zone towns; they go as close to the zone centre as
 * they fit (lib/objects/stage.c), so the centre stands for them here. */
static bool zone_gets_towns(const rmg__connect_state *s, int zone)
{
    const rmg__map_zone *z = rmg__grid_zone(&s->b, zone);
    if (!z || z->tpl_index < 0)
        return false;
    const rmg__zone *tz = &s->b.g->tpl->zones[z->tpl_index];
    bool owned = z->owner > 0;
    return rmg__zone_has_min_towns(tz) || tz->neutral_town_density > 0 || tz->neutral_castle_density > 0 ||
           (owned && (tz->player_town_density > 0 || tz->player_castle_density > 0));
}

/* The ground passages a repelling teleport keeps away from: guarded ones (a guard slot) and
 * border guards; wide and unguarded passages are free ways and do not count (ZON-35). */
static bool guarded_ground(const rmg__map_connection *c)
{
    return (c->realized == RMG_REALIZED_PASSAGE && c->guard_slots.count) || c->realized == RMG_REALIZED_BORDER_GUARD;
}

/* What a repelling placement keeps away from (CON-21, ZON-35): the zone's towns (the zone
 * centre, when it gets towns), its guarded ground passages, and its gates and monoliths. */
static rmg_status collect_repellers(rmg__connect_state *s, int zone)
{
    struct rmg_map *m = s->b.m;
    s->repel.count = 0;
    if (zone_gets_towns(s, zone) && !push_repeller(s, rmg__grid_zone_centre(&s->b, zone)))
        return rmg__error_nomem(s->b.ctx);
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (!guarded_ground(c))
            continue;
        for (size_t k = 0; k < c->tiles.count; k++)
            if (m->tile_zone[c->tiles.items[k]] == zone && !push_repeller(s, c->tiles.items[k]))
                return rmg__error_nomem(s->b.ctx);
    }
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->zone == zone && (o->kind == RMG_OBJECT_GATE || o->kind == RMG_OBJECT_MONOLITH) &&
            !push_repeller(s, (uint32_t)rmg__tile(m->width, m->height, o->x, o->y, o->z)))
            return rmg__error_nomem(s->b.ctx);
    }
    return RMG_OK;
}

static int64_t score_at(rmg__connect_state *s, const rmg__connect_request *rq, const foot *f, int64_t ring)
{
    int64_t jitter = (int64_t)rmg_rng_below(&s->rng, 16);
    if (rq->score == RMG__SCORE_REPEL && s->repel.count) { /* nothing to keep away from: as usual */
        int64_t best = INT64_MAX / 32;
        for (size_t i = 0; i < s->repel.count; i++) {
            int64_t d = dist2_to(f->vx, f->vy, s->repel.items[i]);
            best = d < best ? d : best;
        }
        return best * 16 + jitter;
    }
    int cx, cy;
    rmg__grid_zone_centre_xy(&s->b, rq->zone, &cx, &cy);
    int64_t dx = f->vx - cx, dy = f->vy - cy;
    int64_t d = isqrt64(dx * dx + dy * dy);
    int64_t off = d > ring ? d - ring : ring - d;
    return -off * 16 + jitter;
}

typedef struct cand {
    int64_t score;
    uint32_t anchor;
} cand;

/* Keeps the MAX_TRIES best candidates, best first. */
static void keep_best(cand *best, size_t *n, int64_t score, uint32_t anchor)
{
    size_t pos = *n;
    while (pos > 0 && best[pos - 1].score < score)
        pos--;
    if (pos >= MAX_TRIES)
        return;
    size_t last = *n < MAX_TRIES ? *n : MAX_TRIES - 1;
    memmove(&best[pos + 1], &best[pos], (last - pos) * sizeof *best);
    best[pos].score = score;
    best[pos].anchor = anchor;
    if (*n < MAX_TRIES)
        (*n)++;
}

/* Tiles the skeleton path to the approach must avoid: the footprint and, for sealed objects,
 * every other neighbour of it (they are blocked once the object stands). */
static size_t exclusion(const rmg__grid *b, const foot *f, bool seal, uint32_t *excl)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        excl[n++] = f->tiles[i];
    for (size_t i = 0; seal && i < f->n; i++)
        for (int d = 0; d < 8 && n < MAX_EXCL; d++) {
            uint32_t u;
            if (rmg__grid_nbr(b, f->tiles[i], d, &u) && !in_foot(f, u) && u != f->approach)
                excl[n++] = u;
        }
    return n;
}

static void seal_around(rmg__connect_state *s, const foot *f)
{
    struct rmg_map *m = s->b.m;
    for (size_t i = 0; i < f->n; i++)
        for (int d = 0; d < 8; d++) {
            uint32_t u;
            if (rmg__grid_nbr(&s->b, f->tiles[i], d, &u) && !in_foot(f, u) && u != f->approach &&
                !(m->flags[u] & RMG__T_BLOCKED))
                m->flags[u] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
        }
}

static uint32_t add_object(rmg__connect_state *s, const rmg__connect_request *rq, const rmg__grid_shape *sh, uint32_t anchor,
                           rmg_status *st)
{
    rmg__map_object *o = rmg__map_add_object(s->b.m, rq->key, rq->kind, rmg__grid_x(&s->b, anchor),
                                             rmg__grid_y(&s->b, anchor), rmg__grid_z(&s->b, anchor));
    if (!o) {
        *st = RMG_ERR_NOMEM;
        return 0;
    }
    o->block = sh->block;
    o->visit = sh->visit;
    o->zone = rq->zone;
    o->color = rq->color;
    rmg__map_stamp_object(s->b.m, o);
    return o->id;
}

static void mark_object_surroundings(rmg__connect_state *s, const foot *f)
{
    for (size_t i = 0; i < f->n; i++)
        rmg__connect_mark_around(s, f->tiles[i], 1, RMG__MK_NEAR_OBJECT);
}

/* The approach tile stays walkable: later objects keep off it. */
static uint32_t commit_object(rmg__connect_state *s, const rmg__connect_request *rq, const rmg__grid_shape *sh, uint32_t anchor,
                              const foot *f, rmg_status *st)
{
    uint32_t id = add_object(s, rq, sh, anchor, st);
    if (!id)
        return 0;
    *st = rmg__connect_commit(s, rq->zone, f->approach);
    if (*st != RMG_OK)
        return 0;
    if (rq->seal)
        seal_around(s, f);
    mark_object_surroundings(s, f);
    if (rq->kind == RMG_OBJECT_SHIPYARD) {
        /* The boat's tile stays clear of the sea's content, and the land the hero boards from
         * of later objects (it joins the zone's paths). */
        uint32_t spot = rmg__map_boat_spot(s->b.m, f->visit);
        uint32_t board = spot != UINT32_MAX ? rmg__connect_boarding(&s->b, f->visit, spot, rq->zone) : RMG__NO_TILE;
        if (spot != UINT32_MAX)
            s->b.m->flags[spot] |= RMG__T_FREE;
        if (board != RMG__NO_TILE && board != f->visit && (*st = rmg__connect_add_free(s, rq->zone, board)) != RMG_OK)
            return 0;
    }
    return id;
}

static uint32_t place_once(rmg__connect_state *s, const rmg__connect_request *rq, uint32_t *approach, rmg_status *st);

uint32_t rmg__connect_place(rmg__connect_state *s, const rmg__connect_request *rq, uint32_t *approach, rmg_status *st)
{
    uint32_t id = place_once(s, rq, approach, st);
    if (id || *st != RMG_OK)
        return id;
    /* A crowded zone: allow the object next to other objects and passages. */
    rmg__connect_request relaxed = *rq;
    relaxed.crowded = true;
    return place_once(s, &relaxed, approach, st);
}

static uint32_t place_once(rmg__connect_state *s, const rmg__connect_request *rq, uint32_t *approach, rmg_status *st)
{
    *st = RMG_OK;
    const rmg__map_zone *z = rmg__grid_zone(&s->b, rq->zone);
    if (!z || s->start[rq->zone - 1] == RMG__NO_TILE)
        return 0;
    if (rq->score == RMG__SCORE_REPEL && (*st = collect_repellers(s, rq->zone)) != RMG_OK)
        return 0;
    rmg__grid_shape sh = rmg__grid_shape_of(&s->b, rq->key, rq->color);
    /* Teleports sit on a ring at about half the zone's radius: off the town spot, off the border. */
    int64_t ring = isqrt64((int64_t)(z->n_tiles * 100 / 314)) / 2;
    cand best[MAX_TRIES];
    size_t n_best = 0;
    foot f;
    mark_reachable(s, rq->zone);
    for (uint32_t i = s->zi.start[rq->zone]; i < s->zi.start[rq->zone + 1]; i++) {
        uint32_t a = s->zi.tiles[i]; /* the zone's tiles in map order */
        if (fits(&s->b, rq, &sh, a, &f))
            keep_best(best, &n_best, score_at(s, rq, &f, ring), a);
    }
    clear_reachable(s, rq->zone);
    for (size_t i = 0; i < n_best; i++) {
        footprint_at(&s->b, &sh, best[i].anchor, &f);
        uint32_t excl[MAX_EXCL];
        size_t n_excl = exclusion(&s->b, &f, rq->seal, excl);
        if (!rmg__connect_reach(s, rq->zone, f.approach, excl, n_excl))
            continue;
        uint32_t id = commit_object(s, rq, &sh, best[i].anchor, &f, st);
        if (id)
            *approach = f.approach;
        return id;
    }
    return 0;
}

static uint32_t mirror_once(rmg__connect_state *s, const rmg__connect_request *top, const rmg__connect_request *bottom,
                            uint32_t approach[2], uint32_t ids[2], rmg_status *st);

uint32_t rmg__connect_place_mirror(rmg__connect_state *s, const rmg__connect_request *top, const rmg__connect_request *bottom,
                              uint32_t approach[2], uint32_t ids[2], rmg_status *st)
{
    uint32_t id = mirror_once(s, top, bottom, approach, ids, st);
    if (id || *st != RMG_OK)
        return id;
    rmg__connect_request t2 = *top, b2 = *bottom;
    t2.crowded = b2.crowded = true;
    return mirror_once(s, &t2, &b2, approach, ids, st);
}

static uint32_t mirror_once(rmg__connect_state *s, const rmg__connect_request *top, const rmg__connect_request *bottom,
                            uint32_t approach[2], uint32_t ids[2], rmg_status *st)
{
    *st = RMG_OK;
    const rmg__map_zone *z = rmg__grid_zone(&s->b, top->zone);
    if (!z || s->start[top->zone - 1] == RMG__NO_TILE || s->b.levels < 2)
        return 0;
    if (top->score == RMG__SCORE_REPEL && (*st = collect_repellers(s, top->zone)) != RMG_OK)
        return 0;
    rmg__grid_shape sh_top = rmg__grid_shape_of(&s->b, top->key, top->color);
    rmg__grid_shape sh_bot = rmg__grid_shape_of(&s->b, bottom->key, bottom->color);
    int64_t ring = isqrt64((int64_t)(z->n_tiles * 100 / 314)) / 2;
    uint32_t plane = (uint32_t)s->b.w * (uint32_t)s->b.h;
    cand best[MAX_TRIES];
    size_t n_best = 0;
    foot f, g;
    rmg__connect_request low = *bottom;
    for (size_t i = 0; i < s->b.m->zones.count; i++)
        if (s->b.m->zones.items[i].level == 1 && rmg__grid_land_zone(&s->b, (int)i + 1))
            mark_reachable(s, (int)i + 1);
    mark_reachable(s, top->zone);
    for (uint32_t i = s->zi.start[top->zone]; i < s->zi.start[top->zone + 1]; i++) {
        uint32_t a = s->zi.tiles[i]; /* the zone's tiles in map order */
        if (a >= plane || !fits(&s->b, top, &sh_top, a, &f))
            continue;
        low.zone = s->b.m->tile_zone[a + plane];
        if (!rmg__grid_land_zone(&s->b, low.zone) || s->start[low.zone - 1] == RMG__NO_TILE ||
            !fits(&s->b, &low, &sh_bot, a + plane, &g))
            continue;
        keep_best(best, &n_best, score_at(s, top, &f, ring), a);
    }
    for (size_t i = 0; i < s->b.m->zones.count; i++)
        if (s->b.m->zones.items[i].level == 1 && rmg__grid_land_zone(&s->b, (int)i + 1))
            clear_reachable(s, (int)i + 1);
    clear_reachable(s, top->zone);
    for (size_t i = 0; i < n_best; i++) {
        uint32_t a = best[i].anchor;
        footprint_at(&s->b, &sh_top, a, &f);
        footprint_at(&s->b, &sh_bot, a + plane, &g);
        low.zone = s->b.m->tile_zone[a + plane];
        if (!rmg__connect_reach(s, top->zone, f.approach, f.tiles, f.n) ||
            !rmg__connect_reach(s, low.zone, g.approach, g.tiles, g.n))
            continue;
        /* The second search's path is the one in prev[]: commit the lower object first. */
        ids[1] = commit_object(s, &low, &sh_bot, a + plane, &g, st);
        if (!ids[1])
            return 0;
        if (!rmg__connect_reach(s, top->zone, f.approach, f.tiles, f.n)) {
            rmg__connect_undo_last_object(s);
            continue;
        }
        ids[0] = commit_object(s, top, &sh_top, a, &f, st);
        if (!ids[0])
            return 0;
        approach[0] = f.approach;
        approach[1] = g.approach;
        return ids[0];
    }
    return 0;
}

typedef struct unstamp_ctx {
    struct rmg_map *m;
    int z;
} unstamp_ctx;

static void unstamp_tile(void *user, int x, int y)
{
    unstamp_ctx *u = user;
    if (x < 0 || y < 0 || x >= u->m->width || y >= u->m->height)
        return;
    size_t t = rmg__tile(u->m->width, u->m->height, x, y, u->z);
    u->m->flags[t] &= (uint16_t) ~(RMG__T_OBJECT | RMG__T_BLOCKED | RMG__T_ENTRY | RMG__T_USED);
    u->m->tile_object[t] = 0;
}

void rmg__connect_undo_last_object(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    if (!m->objects.count)
        return;
    const rmg__map_object *o = &m->objects.items[m->objects.count - 1];
    unstamp_ctx u = {m, o->z};
    rmg__footprint_tiles(o->block | o->visit, o->x, o->y, unstamp_tile, &u);
    m->objects.count--;
}
