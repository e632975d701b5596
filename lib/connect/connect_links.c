/* Realizing template connections (CON-01..13, CON-21) and mirror links (ZON-29..36): ground
 * passages through sealed borders, wide openings, subterranean gates, monoliths, border guards
 * with their keymaster's tents, shipyard crossings. */
#include <stdio.h>
#include <string.h>

#include "connect_state.h"
#include "map/map_reach.h"

#define PASSAGE_SPACING 10   /* minimum Chebyshev distance between passages of one connection */
#define BORDER_PER_PASSAGE 32
#define MAX_PASSAGES 3

typedef enum way { WAY_GROUND, WAY_GATE, WAY_MONOLITH, WAY_WATER, WAY_COUNT } way;

typedef struct link {
    size_t index;              /* template connection index */
    const rmg__connection *tc;
    int a, b;                  /* map zone ids */
    rmg__map_connection c;     /* being filled; appended at the end */
    bool guarded;              /* standard (or fallback): guard slots */
    bool border_guard;         /* colours allocated */
    int key_color[2];          /* border guard colours on a's and b's side */
    int crowded;               /* map zone where the last teleport found no room, 0 none */
} link;

/* ---- geometry between two zones ----------------------------------------------------------- */

static int foreign_land(const rmg__grid *b, uint32_t t, int other)
{
    /* 0: no foreign land neighbour, 1: only `other`, -1: some third zone too. */
    int zone = b->m->tile_zone[t], res = 0;
    for (int d = 0; d < 8; d++) {
        uint32_t u;
        if (!rmg__grid_nbr(b, t, d, &u))
            continue;
        int zu = b->m->tile_zone[u];
        if (zu == zone || !rmg__grid_land_zone(b, zu))
            continue;
        if (zu != other)
            return -1;
        res = 1;
    }
    return res;
}

static bool has_interior_nbr(const rmg__grid *b, uint32_t t)
{
    for (int d = 0; d < 8; d++) {
        uint32_t u;
        if (rmg__grid_nbr(b, t, d, &u) && b->m->tile_zone[u] == b->m->tile_zone[t] &&
            !(b->m->flags[u] & (RMG__T_BORDER | RMG__T_BLOCKED)))
            return true;
    }
    return false;
}

/* A border tile that may open towards `other` only (no third zone touches it). */
static bool opening_tile(const rmg__grid *b, uint32_t t, int other)
{
    return (b->m->flags[t] & RMG__T_BORDER) && !(b->m->flags[t] & RMG__T_PASSAGE) &&
           !(b->mark[t] & RMG__MK_NEAR_PASSAGE) && foreign_land(b, t, other) == 1 && has_interior_nbr(b, t);
}

/* Partner of a passage tile of zone a on the other side (orthogonal neighbour in b). */
static bool passage_partner(const rmg__grid *bl, uint32_t pa, int a, int b, uint32_t *pb)
{
    for (int d = 0; d < 4; d++) {
        uint32_t u;
        if (rmg__grid_nbr(bl, pa, d, &u) && bl->m->tile_zone[u] == b && opening_tile(bl, u, a)) {
            *pb = u;
            return true;
        }
    }
    return false;
}

/* Tiles of zone a touching zone b (the shared border's length), and the passage candidates. */
static rmg_status border_candidates(rmg__connect_state *s, int a, int b, size_t *length)
{
    const rmg__grid *bl = &s->b;
    s->scratch.count = 0;
    *length = 0;
    for (uint32_t i = s->zi.start[a]; i < s->zi.start[a + 1]; i++) {
        uint32_t t = s->zi.tiles[i];
        if (!(bl->m->flags[t] & RMG__T_BORDER))
            continue;
        int f = foreign_land(bl, t, b);
        bool touches_b = f == 1;
        if (f == -1)
            for (int d = 0; d < 8 && !touches_b; d++) {
                uint32_t u;
                touches_b = rmg__grid_nbr(bl, t, d, &u) && bl->m->tile_zone[u] == b;
            }
        if (touches_b)
            (*length)++;
        uint32_t pb;
        if (opening_tile(bl, t, b) && passage_partner(bl, t, a, b, &pb) &&
            !RMG__VEC_PUSH(bl->ctx, &s->scratch, t))
            return rmg__error_nomem(bl->ctx);
    }
    return RMG_OK;
}

static bool stacked(const rmg__connect_state *s, int a, int c)
{
    const rmg__grid *b = &s->b;
    const rmg__map_zone *za = rmg__grid_zone(b, a), *zc = rmg__grid_zone(b, c);
    if (za->level == zc->level)
        return false;
    uint32_t plane = (uint32_t)b->w * (uint32_t)b->h;
    int upper = za->level == 0 ? a : c, lower = za->level == 0 ? c : a;
    for (uint32_t i = s->zi.start[upper]; i < s->zi.start[upper + 1]; i++) {
        uint32_t t = s->zi.tiles[i];
        if (t < plane && t + plane < b->n && b->m->tile_zone[t + plane] == lower)
            return true;
    }
    return false;
}

/* The water zones orthogonally next to zone z's land (at most cap). */
static size_t coast_waters(const rmg__grid *b, int z, int *out, size_t cap)
{
    size_t n = 0;
    for (uint32_t t = 0; t < b->n; t++) {
        if (b->m->tile_zone[t] != z)
            continue;
        for (int d = 0; d < 4; d++) {
            uint32_t u;
            const rmg__map_zone *w;
            if (!rmg__grid_nbr(b, t, d, &u) || !(w = rmg__grid_zone(b, b->m->tile_zone[u])) || w->kind != RMG_ZONE_WATER)
                continue;
            size_t k = 0;
            while (k < n && out[k] != w->id)
                k++;
            if (k == n && n < cap)
                out[n++] = w->id;
        }
    }
    return n;
}

/* Water zones of one sea that zones a and c touch (in *wa and *wc): true when they share a sea,
 * so shipyards on both coasts make a crossing (two linear scans). */
static bool common_sea(const rmg__connect_state *s, int a, int c, int *wa, int *wc)
{
    int za[32], zc[32];
    size_t na = coast_waters(&s->b, a, za, 32), nc = coast_waters(&s->b, c, zc, 32);
    for (size_t i = 0; i < na; i++)
        for (size_t k = 0; k < nc; k++)
            if (s->sea_of[za[i]] && s->sea_of[za[i]] == s->sea_of[zc[k]]) {
                *wa = za[i];
                *wc = zc[k];
                return true;
            }
    return false;
}

/* ---- recording ------------------------------------------------------------------------------ */

/* Appends to one of a connection's id/tile vectors: RMG_OK or RMG_ERR_NOMEM (error set). */
#define PUSH_U32(ctx, vec, v) (RMG__VEC_PUSH((ctx), (vec), (uint32_t)(v)) ? RMG_OK : rmg__error_nomem(ctx))

static void free_link_vectors(rmg_context *ctx, rmg__map_connection *c)
{
    RMG__VEC_FREE(ctx, &c->tiles);
    RMG__VEC_FREE(ctx, &c->guard_slots);
    RMG__VEC_FREE(ctx, &c->guards);
    RMG__VEC_FREE(ctx, &c->objects);
}

static void reset_link(rmg__connect_state *s, link *l)
{
    free_link_vectors(s->b.ctx, &l->c);
}

static rmg_status record(rmg__connect_state *s, link *l)
{
    if (!RMG__VEC_PUSH(s->b.ctx, &s->b.m->conns, l->c)) {
        free_link_vectors(s->b.ctx, &l->c);
        return rmg__error_nomem(s->b.ctx);
    }
    memset(&l->c, 0, sizeof l->c);
    return RMG_OK;
}

/* ---- border guards --------------------------------------------------------------------------- */

static int take_key_color(rmg__connect_state *s)
{
    for (int c = 0; c < RMG__KEY_COLORS; c++)
        if (!(s->key_used & (1u << c))) {
            s->key_used |= 1u << c;
            return c;
        }
    return -1;
}

static rmg_status add_border_guard(rmg__connect_state *s, link *l, uint32_t t, int color, uint32_t *id)
{
    const rmg__grid *b = &s->b;
    rmg__map_object *o = rmg__map_add_object(b->m, "border_guard", RMG_OBJECT_BORDER_GUARD, rmg__grid_x(b, t),
                                             rmg__grid_y(b, t), rmg__grid_z(b, t));
    if (!o)
        return RMG_ERR_NOMEM;
    rmg__grid_shape sh = rmg__grid_shape_of(b, "border_guard", color);
    o->block = sh.block;
    o->visit = sh.visit;
    o->zone = b->m->tile_zone[t];
    o->color = color;
    o->value = l->c.value;
    *id = o->id;
    rmg__map_stamp_object(b->m, o);
    return PUSH_U32(b->ctx, &l->c.objects, o->id);
}

/* CON-05: the tent of a colour goes to the zone other than the one its guard stands in. */
static rmg_status add_tents(rmg__connect_state *s, link *l, const uint32_t guard[2], bool *ok)
{
    int zones[2] = {l->b, l->a};
    *ok = true;
    for (int side = 0; side < 2; side++) {
        rmg__connect_request rq = {zones[side], "keymaster_tent", RMG_OBJECT_KEYMASTER_TENT, l->key_color[side],
                              RMG__SCORE_NORMAL, 0, false, false};
        uint32_t approach;
        rmg_status st;
        uint32_t id = rmg__connect_place(s, &rq, &approach, &st);
        if (st != RMG_OK)
            return st;
        if (!id) {
            *ok = false;
            return RMG_OK;
        }
        s->b.m->objects.items[id - 1].link = guard[side];
        if ((st = PUSH_U32(s->b.ctx, &l->c.objects, id)) != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* Border guards on the two given tiles (zone a's side first) and their tents. */
static rmg_status border_guards_and_tents(rmg__connect_state *s, link *l, const uint32_t at[2])
{
    uint32_t guard[2];
    rmg_status st;
    for (int side = 0; side < 2; side++)
        if ((st = add_border_guard(s, l, at[side], l->key_color[side], &guard[side])) != RMG_OK)
            return st;
    bool ok;
    if ((st = add_tents(s, l, guard, &ok)) != RMG_OK)
        return st;
    if (!ok)
        return rmg__map_warn(s->b.m, "connection %zu (zones %d-%d): no room for a keymaster's tent", l->index + 1,
                             l->c.zone_a, l->c.zone_b);
    return RMG_OK;
}

/* ---- ground ------------------------------------------------------------------------------------- */

static void open_tile(rmg__connect_state *s, uint32_t t)
{
    s->b.m->flags[t] = (uint16_t)((s->b.m->flags[t] & ~RMG__T_BLOCKED) | RMG__T_PASSAGE);
}

/* Candidates ordered for the first passage: those nearest the middle of the shared border
 * first (a random one of the nearest third leads). */
static void order_candidates(rmg__connect_state *s)
{
    rmg__u32vec *c = &s->scratch;
    if (!c->count)
        return;
    int64_t sx = 0, sy = 0;
    for (size_t i = 0; i < c->count; i++) {
        sx += rmg__grid_x(&s->b, c->items[i]);
        sy += rmg__grid_y(&s->b, c->items[i]);
    }
    int mx = (int)(sx / (int64_t)c->count), my = (int)(sy / (int64_t)c->count);
    uint32_t mid = (uint32_t)rmg__tile(s->b.w, s->b.h, mx, my, rmg__grid_z(&s->b, c->items[0]));
    /* Insertion sort by distance to the middle (borders are short lists). */
    for (size_t i = 1; i < c->count; i++) {
        uint32_t v = c->items[i];
        int64_t dv = rmg__grid_dist2(&s->b, v, mid);
        size_t j = i;
        while (j > 0 && rmg__grid_dist2(&s->b, c->items[j - 1], mid) > dv) {
            c->items[j] = c->items[j - 1];
            j--;
        }
        c->items[j] = v;
    }
    size_t lead = (size_t)rmg_rng_below(&s->rng, (c->count + 2) / 3);
    uint32_t first = c->items[lead];
    c->items[lead] = c->items[0];
    c->items[0] = first;
}

/* Opens passage (pa, pb) if both sides reach their skeleton; the paths become FREE. */
static rmg_status try_passage(rmg__connect_state *s, link *l, uint32_t pa, bool *done)
{
    uint32_t pb;
    *done = false;
    if (!opening_tile(&s->b, pa, l->b) || !passage_partner(&s->b, pa, l->a, l->b, &pb))
        return RMG_OK;
    bool both;
    rmg_status st = rmg__connect_reach_both(s, l->a, pa, l->b, pb, &both);
    if (st != RMG_OK || !both)
        return st;
    open_tile(s, pa);
    open_tile(s, pb);
    rmg__connect_mark_around(s, pa, 3, RMG__MK_NEAR_PASSAGE);
    rmg__connect_mark_around(s, pb, 3, RMG__MK_NEAR_PASSAGE);
    if ((st = PUSH_U32(s->b.ctx, &l->c.tiles, pa)) != RMG_OK || (st = PUSH_U32(s->b.ctx, &l->c.tiles, pb)) != RMG_OK)
        return st;
    *done = true;
    if (l->border_guard)
        return border_guards_and_tents(s, l, (const uint32_t[2]){pa, pb});
    if (l->guarded && l->c.value > 0)
        return PUSH_U32(s->b.ctx, &l->c.guard_slots, rmg_rng_below(&s->rng, 2) ? pa : pb);
    return RMG_OK;
}

static bool far_from_chosen(const rmg__connect_state *s, const link *l, uint32_t t)
{
    for (size_t i = 0; i < l->c.tiles.count; i++)
        if (rmg__grid_cheb(&s->b, t, l->c.tiles.items[i]) < PASSAGE_SPACING)
            return false;
    return true;
}

static rmg_status realize_passages(rmg__connect_state *s, link *l, size_t length, bool *ok)
{
    size_t want = l->border_guard ? 1 : RMG__MIN(MAX_PASSAGES, 1 + (length ? length - 1 : 0) / BORDER_PER_PASSAGE);
    size_t made = 0;
    *ok = false;
    order_candidates(s);
    /* Later passages: the candidate farthest from those already opened. */
    while (made < want) {
        bool done = false;
        rmg_status st = RMG_OK;
        if (made == 0) {
            for (size_t i = 0; i < s->scratch.count && !done && st == RMG_OK; i++)
                st = try_passage(s, l, s->scratch.items[i], &done);
        } else {
            size_t best = SIZE_MAX;
            int best_d = -1;
            for (size_t i = 0; i < s->scratch.count; i++) {
                uint32_t t = s->scratch.items[i];
                int d = INT32_MAX;
                for (size_t k = 0; k < l->c.tiles.count; k++)
                    d = RMG__MIN(d, rmg__grid_cheb(&s->b, t, l->c.tiles.items[k]));
                if (far_from_chosen(s, l, t) && opening_tile(&s->b, t, l->b) && d > best_d) {
                    best_d = d;
                    best = i;
                }
            }
            if (best != SIZE_MAX)
                st = try_passage(s, l, s->scratch.items[best], &done);
            if (st == RMG_OK && !done && best != SIZE_MAX) {
                /* Unusable candidate: drop it and look again. */
                s->scratch.items[best] = s->scratch.items[--s->scratch.count];
                continue;
            }
        }
        if (st != RMG_OK)
            return st;
        if (!done)
            break;
        made++;
    }
    *ok = made > 0;
    if (*ok) {
        l->c.realized = l->border_guard ? RMG_REALIZED_BORDER_GUARD : RMG_REALIZED_PASSAGE;
    }
    return RMG_OK;
}

/* CON-04: a wide connection opens every border tile that faces only the other zone. */
static rmg_status realize_wide(rmg__connect_state *s, link *l, bool *ok)
{
    *ok = false;
    order_candidates(s);
    rmg_status st = RMG_OK;
    for (size_t i = 0; i < s->scratch.count && !*ok; i++) {
        uint32_t pa = s->scratch.items[i], pb;
        if (passage_partner(&s->b, pa, l->a, l->b, &pb) &&
            (st = rmg__connect_reach_both(s, l->a, pa, l->b, pb, ok)) != RMG_OK)
            return st;
    }
    if (!*ok)
        return RMG_OK;
    /* The tiles of both zones merged in map order. */
    uint32_t ia = s->zi.start[l->a], ea = s->zi.start[l->a + 1], ib = s->zi.start[l->b], eb = s->zi.start[l->b + 1];
    while ((ia < ea || ib < eb) && st == RMG_OK) {
        bool from_a = ib == eb || (ia < ea && s->zi.tiles[ia] < s->zi.tiles[ib]);
        uint32_t t = from_a ? s->zi.tiles[ia++] : s->zi.tiles[ib++];
        if (opening_tile(&s->b, t, from_a ? l->b : l->a)) {
            open_tile(s, t);
            st = PUSH_U32(s->b.ctx, &l->c.tiles, t);
        }
    }
    l->c.realized = RMG_REALIZED_WIDE;
    return st;
}

/* ---- teleports -------------------------------------------------------------------------------- */

/* color_used values: a colour is free, taken by an ordinary connection, or reserved by a
 * mirror link (WAT-07). */
#define COLOR_FREE 0
#define COLOR_CONNECTION 1
#define COLOR_MIRROR 2
#define COLOR_ABSENT 3 /* the ruleset has no teleport of this colour */

void rmg__connect_drop_absent_colors(rmg__connect_state *s)
{
    const struct rmg_content *c = s->b.g->content;
    for (size_t i = 0; c && i < s->n_colors; i++)
        if (!rmg__teleport_color_present(c, i))
            s->color_used[i] = COLOR_ABSENT;
}

static int take_teleport_color(rmg__connect_state *s)
{
    for (size_t i = 0; i < s->n_colors; i++)
        if (s->color_used[i] == COLOR_FREE) {
            s->color_used[i] = COLOR_CONNECTION;
            return (int)i;
        }
    return -1;
}

/* Every land teleport colour of the game data is in use: the error names the connection and
 * says where the colours went, since no further colour exists (sea portals stand on water). */
static rmg_status colors_exhausted(rmg__connect_state *s, const link *l)
{
    size_t mirror = 0, one_way = 0, absent = 0;
    const rmg__teleport_color *colors = rmg__teleport_colors(&(size_t){0});
    for (size_t i = 0; i < s->n_colors; i++) {
        mirror += s->color_used[i] == COLOR_MIRROR;
        absent += s->color_used[i] == COLOR_ABSENT;
        one_way += colors[i].h3_class == 43 && s->color_used[i] != COLOR_ABSENT;
    }
    size_t n = s->n_colors - absent;
    /* Charged to the placement: only another one can bring the zones together. */
    return rmg__error_gen(s->b.ctx, RMG_ERR_IMPOSSIBLE, "place", -1, (int)l->index,
                          "the link of zones %d-%d needs a monolith but all %zu monolith colours are taken, one "
                          "link each (%zu two-way monoliths and portals, %zu one-way colours as entrance pairs; "
                          "%zu by mirror links, %zu by connections); the game has no other land teleport colours, "
                          "so this placement has too many links between zones that do not touch",
                          l->tc->zone_a, l->tc->zone_b, n, n - one_way, one_way, mirror, n - mirror);
}

static rmg_status guard_or_border_guard(rmg__connect_state *s, link *l, const uint32_t approach[2])
{
    rmg_status st;
    if (l->border_guard)
        return border_guards_and_tents(s, l, approach);
    if (l->guarded && l->c.value > 0)
        for (int side = 0; side < 2; side++)
            if ((st = PUSH_U32(s->b.ctx, &l->c.guard_slots, approach[side])) != RMG_OK)
                return st;
    return RMG_OK;
}

static rmg_status link_pair(rmg__connect_state *s, link *l, uint32_t ids[2], uint32_t approach[2])
{
    struct rmg_map *m = s->b.m;
    m->objects.items[ids[0] - 1].link = ids[1];
    m->objects.items[ids[1] - 1].link = ids[0];
    rmg_status st;
    for (int side = 0; side < 2; side++) {
        uint32_t visit = approach[side] - (uint32_t)m->width;
        if ((st = PUSH_U32(s->b.ctx, &l->c.objects, ids[side])) != RMG_OK ||
            (st = PUSH_U32(s->b.ctx, &l->c.tiles, visit)) != RMG_OK)
            return st;
    }
    return guard_or_border_guard(s, l, approach);
}

/* Places the requests in order (zone and key of each), undoing all of them when one finds no
 * room; true when all stand. ids and approaches follow the requests. */
static bool place_all(rmg__connect_state *s, link *l, rmg__connect_request *rq, size_t n, uint32_t *ids,
                      uint32_t *approach, rmg_status *st)
{
    for (size_t i = 0; i < n; i++) {
        ids[i] = rmg__connect_place(s, &rq[i], &approach[i], st);
        if (*st != RMG_OK)
            return false;
        if (!ids[i]) {
            l->crowded = rq[i].zone;
            while (i-- > 0)
                rmg__connect_undo_last_object(s);
            return false;
        }
    }
    return true;
}

/* Gate, monolith or shipyard pair. */
static rmg_status realize_pair(rmg__connect_state *s, link *l, way w, bool *ok)
{
    *ok = false;
    const rmg__teleport_color *colors = rmg__teleport_colors(&(size_t){0});
    rmg__connect_request rq = {l->a, "subterranean_gate", RMG_OBJECT_GATE, -1, RMG__SCORE_NORMAL, 0, l->border_guard, false};
    int color = -1;
    if (w == WAY_MONOLITH) {
        color = take_teleport_color(s);
        if (color < 0)
            return colors_exhausted(s, l);
        /* A one-way colour (the two-way ones are gone) is two entrances: the map has no exit
         * of the colour, so they lead to each other like a two-way pair (ZON-36). */
        rq.key = colors[color].key;
        rq.kind = RMG_OBJECT_MONOLITH;
        rq.color = colors[color].subclass;
        if (l->tc->monolith_repulsion)
            rq.score = RMG__SCORE_REPEL;
    }
    uint32_t ids[2], approach[2];
    rmg__connect_request pair[2] = {rq, rq};
    pair[1].zone = l->b;
    if (w == WAY_WATER) {
        for (int side = 0; side < 2; side++) {
            pair[side].key = "shipyard";
            pair[side].kind = RMG_OBJECT_SHIPYARD;
            pair[side].seal = false;
        }
        common_sea(s, l->a, l->b, &pair[0].water_zone, &pair[1].water_zone);
    }
    rmg_status st = RMG_OK;
    if (!place_all(s, l, pair, 2, ids, approach, &st)) {
        if (color >= 0)
            s->color_used[color] = COLOR_FREE;
        return st;
    }
    *ok = true;
    l->c.realized = w == WAY_GATE ? RMG_REALIZED_GATE : w == WAY_WATER ? RMG_REALIZED_WATER : RMG_REALIZED_MONOLITH;
    if (w == WAY_WATER) {
        /* The crossing lands at the shipyards: their approaches are guarded like a monolith's. */
        for (int side = 0; side < 2; side++)
            if ((st = PUSH_U32(s->b.ctx, &l->c.objects, ids[side])) != RMG_OK)
                return st;
        return guard_or_border_guard(s, l, approach);
    }
    return link_pair(s, l, ids, approach);
}

/* ---- choosing the way --------------------------------------------------------------------------- */

/* The ways to try in order (CON-08..13). */
static size_t plan_ways(rmg__connect_state *s, const link *l, bool adjacent, way out[WAY_COUNT])
{
    const rmg__grid *b = &s->b;
    bool stack = b->levels > 1 && stacked(s, l->a, l->b);
    int wa, wc;
    bool water = s->b.g->opt.water != RMG_WATER_NONE && !adjacent && !stack && common_sea(s, l->a, l->b, &wa, &wc);
    size_t n = 0;
    rmg_connection_placement p = l->tc->placement;
    if (p == RMG_LINK_UNDERGROUND_GATE && b->levels < 2)
        p = RMG_LINK_DEFAULT; /* CON-11 */
    if (p != RMG_LINK_MONOLITH) {
        bool gate_first = p == RMG_LINK_UNDERGROUND_GATE ||
                          (p == RMG_LINK_RANDOM && adjacent && stack && rmg_rng_below(&s->rng, 2));
        if (gate_first && stack)
            out[n++] = WAY_GATE;
        if (adjacent)
            out[n++] = WAY_GROUND;
        if (!gate_first && stack)
            out[n++] = WAY_GATE;
        if (water)
            out[n++] = WAY_WATER;
    }
    out[n++] = WAY_MONOLITH;
    return n;
}

static rmg_status unrealized(rmg__connect_state *s, link *l, const char *why)
{
    l->c.realized = RMG_REALIZED_UNREALIZED;
    l->c.why = rmg__arena_strdup(&s->b.m->arena, why);
    if (!l->c.why)
        return rmg__error_nomem(s->b.ctx);
    return rmg__map_warn(s->b.m, "connection %zu (zones %d-%d) not realized: %s", l->index + 1, l->tc->zone_a,
                         l->tc->zone_b, why);
}

/* CON-05: two keymaster colours, or the standard fallback. */
static rmg_status setup_border_guard(rmg__connect_state *s, link *l)
{
    if (l->tc->type != RMG_CONNECTION_BORDER_GUARD)
        return RMG_OK;
    if (s->bg_colored && !s->bg_colored[l->index]) {
        l->c.border_guard_fallback = true;
        return rmg__map_warn(s->b.m, "connection %zu (zones %d-%d): built as standard, since its border guards would "
                                     "leave a zone no player can enter (a guard opens with tents in both zones, CON-05)",
                             l->index + 1, l->tc->zone_a, l->tc->zone_b);
    }
    uint32_t before = s->key_used;
    l->key_color[0] = take_key_color(s);
    l->key_color[1] = take_key_color(s);
    if (l->key_color[0] >= 0 && l->key_color[1] >= 0) {
        l->border_guard = true;
        l->guarded = false;
        return RMG_OK;
    }
    s->key_used = before;
    l->c.border_guard_fallback = true;
    return rmg__map_warn(s->b.m, "connection %zu (zones %d-%d): no border guard colours left, built as standard",
                         l->index + 1, l->tc->zone_a, l->tc->zone_b);
}

/* Issue 29: a wide connection (CON-04) the map could not open on the ground, built as a gate,
 * a monolith pair or water travel instead (unguarded, as the wide link is), says so and why, in
 * the map's warnings and the connection's `why`: the template maker asked for open ground. A
 * placement that asks for a gate or a monolith, or draws one (random), is the template's
 * choice and says nothing. */
static rmg_status wide_elsewhere(rmg__connect_state *s, link *l, bool same_level, bool adjacent)
{
    static const char *const built[] = {[RMG_REALIZED_GATE] = "a subterranean gate pair",
                                        [RMG_REALIZED_MONOLITH] = "a monolith pair",
                                        [RMG_REALIZED_ONE_WAY_MONOLITH] = "one-way monoliths",
                                        [RMG_REALIZED_WATER] = "water travel"};
    const char *what = (size_t)l->c.realized < RMG__ARRAY_LEN(built) && built[l->c.realized] ? built[l->c.realized]
                                                                                              : "another way";
    const char *why = !same_level ? "the zones lie on different levels"
                      : !adjacent ? "the zones share no border"
                                  : "no stretch of their border opens onto both zones";
    char text[200];
    snprintf(text, sizeof text, "wide, built as %s, unguarded: %s", what, why);
    l->c.why = rmg__arena_strdup(&s->b.m->arena, text);
    if (!l->c.why)
        return rmg__error_nomem(s->b.ctx);
    return rmg__map_warn(s->b.m, "connection %zu (zones %d-%d) is %s", l->index + 1, l->tc->zone_a, l->tc->zone_b,
                         text);
}

static rmg_status realize_link(rmg__connect_state *s, link *l)
{
    size_t length = 0;
    const rmg__map_zone *za = rmg__grid_zone(&s->b, l->a), *zb = rmg__grid_zone(&s->b, l->b);
    rmg_status st = RMG_OK;
    if (za->level == zb->level && (st = border_candidates(s, l->a, l->b, &length)) != RMG_OK)
        return st;
    way ways[WAY_COUNT];
    bool adjacent = s->scratch.count > 0, ground_tried = false;
    size_t n = plan_ways(s, l, adjacent, ways);
    bool ok = false;
    for (size_t i = 0; i < n && !ok && st == RMG_OK; i++) {
        if (ways[i] == WAY_GROUND) {
            ground_tried = true;
            st = l->tc->type == RMG_CONNECTION_WIDE ? realize_wide(s, l, &ok) : realize_passages(s, l, length, &ok);
        } else {
            st = realize_pair(s, l, ways[i], &ok);
        }
    }
    bool asked_teleport = l->tc->placement == RMG_LINK_MONOLITH ||
                          (l->tc->placement == RMG_LINK_UNDERGROUND_GATE && s->b.levels > 1) ||
                          (l->tc->placement == RMG_LINK_RANDOM && adjacent && !ground_tried);
    if (st == RMG_OK && ok && l->tc->type == RMG_CONNECTION_WIDE && l->c.realized != RMG_REALIZED_WIDE &&
        !asked_teleport)
        st = wide_elsewhere(s, l, za->level == zb->level, adjacent);
    if (st != RMG_OK)
        return st;
    if (!ok) {
        char why[200];
        const rmg__map_zone *z = rmg__grid_zone(&s->b, l->crowded ? l->crowded : l->a);
        snprintf(why, sizeof why, "no room for a passage, a gate or a monolith: zone %d (template zone %d, %zu tiles) is full",
                 z->id, z->tpl_id, z->n_tiles);
        return unrealized(s, l, why);
    }
    return RMG_OK;
}

static rmg_status build_link(rmg__connect_state *s, size_t i)
{
    const rmg__gen *g = s->b.g;
    const rmg__connection *tc = &g->tpl->connections[i];
    long ia = rmg__template_find_zone(g->tpl, tc->zone_a), ib = rmg__template_find_zone(g->tpl, tc->zone_b);
    if (ia < 0 || ib < 0)
        return RMG_OK;
    link l;
    memset(&l, 0, sizeof l);
    l.index = i;
    l.tc = tc;
    l.a = g->zone_map_id[ia];
    l.b = g->zone_map_id[ib];
    l.c.id = (int)s->b.m->conns.count + 1;
    l.c.tpl_index = (int)i;
    l.c.zone_a = l.a;
    l.c.zone_b = l.b;
    l.c.kind = tc->type;
    l.c.value = tc->value; /* each passage's guard is computed from the full value */
    l.guarded = tc->type == RMG_CONNECTION_STANDARD || tc->type == RMG_CONNECTION_BORDER_GUARD;
    l.key_color[0] = l.key_color[1] = -1;
    rmg__gen_stream(g, "build", i, &s->rng);
    rmg_status st = RMG_OK;
    if (tc->type == RMG_CONNECTION_FICTIVE) {
        l.c.realized = RMG_REALIZED_FICTIVE; /* CON-06: nothing is built */
    } else if (!l.a || !l.b || l.a == l.b || !rmg__grid_land_zone(&s->b, l.a) || !rmg__grid_land_zone(&s->b, l.b)) {
        st = unrealized(s, &l, l.a == l.b && l.a ? "both ends are the same zone" : "a zone of the link was not placed");
    } else if ((st = setup_border_guard(s, &l)) == RMG_OK) {
        st = realize_link(s, &l);
    }
    if (st != RMG_OK) {
        reset_link(s, &l);
        return st;
    }
    return record(s, &l);
}

/* Union-find over the template's zones (indexes). */
static size_t zone_root(size_t *parent, size_t z)
{
    while (parent[z] != z)
        z = parent[z] = parent[parent[z]];
    return z;
}

/* Whether connection i is built and joins two placed zones (fictive ones join nothing). */
static bool joins_zones(const rmg__gen *g, size_t i, size_t *ia, size_t *ib)
{
    const rmg__connection *tc = &g->tpl->connections[i];
    if ((g->conn_active && !g->conn_active[i]) || tc->type == RMG_CONNECTION_FICTIVE)
        return false;
    long a = rmg__template_find_zone(g->tpl, tc->zone_a), b = rmg__template_find_zone(g->tpl, tc->zone_b);
    if (a < 0 || b < 0 || !g->zone_map_id[a] || !g->zone_map_id[b])
        return false;
    *ia = (size_t)a, *ib = (size_t)b;
    return true;
}

/* The zones the connections other than the border_guard ones in `closed` join into one piece:
 * how many pieces the placed zones make. */
static size_t zone_pieces(const rmg__gen *g, const uint8_t *closed, size_t *parent)
{
    size_t nz = g->tpl->n_zones, pieces = 0, ia, ib;
    for (size_t z = 0; z < nz; z++)
        parent[z] = z;
    for (size_t i = 0; i < g->tpl->n_connections; i++)
        if (!closed[i] && joins_zones(g, i, &ia, &ib))
            parent[zone_root(parent, ia)] = zone_root(parent, ib);
    for (size_t z = 0; z < nz; z++)
        pieces += g->zone_map_id[z] && zone_root(parent, z) == z;
    return pieces;
}

/* CON-05 makes a border_guard link a lock both of whose zones a player must reach first (the
 * guard on each side opens with the tent in the other zone), and the colours are few; which
 * links get them is the implementation's choice. In template order a link gets its colours
 * only when, closed, it leaves every zone reachable through the links built otherwise; the rest
 * are built as standard (their value guards them). */
static rmg_status choose_border_guards(rmg__connect_state *s, uint8_t **out)
{
    const rmg__gen *g = s->b.g;
    size_t nc = g->tpl->n_connections, ia, ib;
    *out = NULL;
    bool any = false;
    for (size_t i = 0; i < nc && !any; i++)
        any = g->tpl->connections[i].type == RMG_CONNECTION_BORDER_GUARD && joins_zones(g, i, &ia, &ib);
    if (!any)
        return RMG_OK;
    uint8_t *chosen = rmg__calloc(s->b.ctx, nc, 1);
    size_t *parent = rmg__calloc(s->b.ctx, g->tpl->n_zones + 1, sizeof *parent);
    if (!chosen || !parent) {
        rmg__free(s->b.ctx, chosen);
        rmg__free(s->b.ctx, parent);
        return rmg__error_nomem(s->b.ctx);
    }
    size_t pieces = zone_pieces(g, chosen, parent);
    for (size_t i = 0; i < nc; i++) {
        if (g->tpl->connections[i].type != RMG_CONNECTION_BORDER_GUARD || !joins_zones(g, i, &ia, &ib))
            continue;
        chosen[i] = 1;
        if (zone_pieces(g, chosen, parent) > pieces)
            chosen[i] = 0;
    }
    rmg__free(s->b.ctx, parent);
    *out = chosen;
    return RMG_OK;
}

/* Connections in template order, those with monolith repulsion last: a repelling monolith keeps
 * away from the zone's other connections (CON-21), so they must stand when it is placed. */
rmg_status rmg__connect_links(rmg__connect_state *s)
{
    const rmg__gen *g = s->b.g;
    uint8_t *colored;
    rmg_status st = choose_border_guards(s, &colored);
    s->bg_colored = colored;
    for (int repelling = 0; repelling < 2 && st == RMG_OK; repelling++)
        for (size_t i = 0; i < g->tpl->n_connections && st == RMG_OK; i++) {
            if ((g->conn_active && !g->conn_active[i]) || g->tpl->connections[i].monolith_repulsion != (repelling == 1))
                continue;
            st = build_link(s, i);
        }
    s->bg_colored = NULL;
    rmg__free(s->b.ctx, colored);
    return st;
}

/* ---- mirror links (ZON-29..36) ---------------------------------------------------------------- */

static const char *teleport_key(rmg_teleport_kind k)
{
    switch (k) {
    case RMG_TELEPORT_ONE_WAY_ENTRANCE:
        return "monolith_one_way_entrance";
    case RMG_TELEPORT_ONE_WAY_EXIT:
        return "monolith_one_way_exit";
    case RMG_TELEPORT_GATE:
        return "subterranean_gate";
    default:
        return "monolith_two_way";
    }
}

/* WAT-07: colours of mirror links are taken out of the ordinary connections' list. */
static void reserve_mirror_color(rmg__connect_state *s, rmg_teleport_kind k, int color)
{
    size_t n;
    const rmg__teleport_color *tc = rmg__teleport_colors(&n);
    int cls = k == RMG_TELEPORT_TWO_WAY ? 45 : 43;
    if (k == RMG_TELEPORT_GATE || k == RMG_TELEPORT_NONE)
        return;
    for (size_t i = 0; i < n; i++)
        if (tc[i].h3_class == cls && tc[i].subclass == color)
            s->color_used[i] = COLOR_MIRROR;
}

static rmg_status build_mirror_link(rmg__connect_state *s, const rmg__map_zone *z, size_t k, const rmg__mirror_link *ml)
{
    rmg__connect_request top = {z->id, teleport_key(ml->surface_kind), ml->surface_kind == RMG_TELEPORT_GATE
                                                                       ? RMG_OBJECT_GATE
                                                                       : RMG_OBJECT_MONOLITH,
                           ml->surface_kind == RMG_TELEPORT_GATE ? -1 : ml->surface_color,
                           ml->monolith_repulsion ? RMG__SCORE_REPEL : RMG__SCORE_NORMAL, 0, false, false};
    rmg__connect_request bottom = top;
    bottom.key = teleport_key(ml->underground_kind);
    bottom.kind = ml->underground_kind == RMG_TELEPORT_GATE ? RMG_OBJECT_GATE : RMG_OBJECT_MONOLITH;
    bottom.color = ml->underground_kind == RMG_TELEPORT_GATE ? -1 : ml->underground_color;
    rmg__grid_shape a = rmg__grid_shape_of(&s->b, top.key, top.color), c = rmg__grid_shape_of(&s->b, bottom.key, bottom.color);
    rmg_status st;
    if (a.width != c.width &&
        (st = rmg__map_warn(s->b.m, "zone %d mirror link %zu: teleports of widths %d and %d may overlap (ZON-32)",
                            z->tpl_id, k + 1, a.width, c.width)) != RMG_OK)
        return st;
    link l;
    memset(&l, 0, sizeof l);
    l.index = (size_t)-1;
    l.c.id = (int)s->b.m->conns.count + 1;
    l.c.tpl_index = -1; /* not a template connection: a mirror link of zone_a */
    l.c.zone_a = z->id;
    l.c.kind = RMG_CONNECTION_STANDARD;
    l.c.value = ml->value;
    uint32_t approach[2], ids[2];
    rmg__gen_stream(s->b.g, "build-mirror", (uint64_t)z->id * 64 + k, &s->rng);
    if (!rmg__connect_place_mirror(s, &top, &bottom, approach, ids, &st)) {
        if (st != RMG_OK)
            return st;
        l.c.realized = RMG_REALIZED_UNREALIZED;
        l.c.why = rmg__arena_strdup(&s->b.m->arena, "no room for the teleports at the same place on both levels");
        if (!l.c.why)
            return rmg__error_nomem(s->b.ctx);
        if ((st = rmg__map_warn(s->b.m, "zone %d mirror link %zu not realized: %s", z->tpl_id, k + 1, l.c.why)) != RMG_OK)
            return st;
        return record(s, &l);
    }
    l.c.zone_b = s->b.m->objects.items[ids[1] - 1].zone;
    bool one_way = ml->surface_kind == RMG_TELEPORT_ONE_WAY_ENTRANCE || ml->surface_kind == RMG_TELEPORT_ONE_WAY_EXIT ||
                   ml->underground_kind == RMG_TELEPORT_ONE_WAY_ENTRANCE ||
                   ml->underground_kind == RMG_TELEPORT_ONE_WAY_EXIT;
    l.c.realized = one_way ? RMG_REALIZED_ONE_WAY_MONOLITH
                   : (ml->surface_kind == RMG_TELEPORT_GATE && ml->underground_kind == RMG_TELEPORT_GATE)
                       ? RMG_REALIZED_GATE
                       : RMG_REALIZED_MONOLITH;
    l.c.road = ml->roads;
    l.guarded = ml->value > 0; /* GRD-09: value 0 is never guarded */
    if ((st = link_pair(s, &l, ids, approach)) != RMG_OK) {
        reset_link(s, &l);
        return st;
    }
    return record(s, &l);
}

/* Runs fn on every mirror link of the surface zones (ZON-29), or only counts them (fn NULL). */
static rmg_status each_mirror_link(rmg__connect_state *s, size_t *count,
                                   rmg_status (*fn)(rmg__connect_state *s, const rmg__map_zone *z, size_t k,
                                                    const rmg__mirror_link *ml))
{
    const rmg__gen *g = s->b.g;
    struct rmg_map *m = s->b.m;
    *count = 0;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index < 0 || z->level != 0)
            continue;
        const rmg__zone *tz = &g->tpl->zones[z->tpl_index];
        for (size_t k = 0; k < tz->n_mirror_links; k++, (*count)++) {
            const rmg__mirror_link *ml = &tz->mirror_links[k];
            rmg_status st = RMG_OK;
            if (fn)
                st = fn(s, z, k, ml);
            else {
                reserve_mirror_color(s, ml->surface_kind, ml->surface_color);
                reserve_mirror_color(s, ml->underground_kind, ml->underground_color);
            }
            if (st != RMG_OK)
                return st;
        }
    }
    return RMG_OK;
}

rmg_status rmg__connect_mirror_reserve(rmg__connect_state *s, size_t *links)
{
    const rmg__gen *g = s->b.g;
    struct rmg_map *m = s->b.m;
    *links = 0;
    if (!g->pack || !g->pack->mirror)
        return RMG_OK;
    each_mirror_link(s, links, NULL); /* reserves the colours first (WAT-07) */
    if (m->levels < 2)
        return *links ? rmg__map_warn(m, "mirror template without an underground level: mirror links skipped (WAT-06)")
                      : RMG_OK;
    if (!*links)
        return rmg__map_warn(m, "mirror template without mirror links: the two levels stay apart (WAT-05)");
    return RMG_OK;
}

rmg_status rmg__connect_mirror_links(rmg__connect_state *s)
{
    size_t links;
    return each_mirror_link(s, &links, build_mirror_link);
}

/* ---- zones left to flying heroes ------------------------------------------------------------ */

rmg_status rmg__connect_warn_apart(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    size_t n_ids = m->zones.count + 1;
    rmg__reach r;
    uint8_t *meant = rmg__calloc(s->b.ctx, 2 * n_ids, 1);
    uint32_t *queue = rmg__malloc(s->b.ctx, n_ids * sizeof *queue);
    rmg_status st = meant && queue ? rmg__reach_init(&r, m, s->b.g->content, s->b.ctx) : rmg__error_nomem(s->b.ctx);
    if (st != RMG_OK) {
        rmg__free(s->b.ctx, meant);
        rmg__free(s->b.ctx, queue);
        return st;
    }
    uint8_t *any = meant + n_ids;
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].owner > 0) {
            rmg__reach_zones(&r, m->zones.items[i].id, true, meant, n_ids, queue);
            for (size_t z = 1; z < n_ids; z++)
                any[z] |= meant[z];
        }
    rmg__reach_free(&r);
    /* One warning names them all by template zone (a mirror copy shares its zone's number). */
    rmg__buf list;
    rmg__buf_init(&list, s->b.ctx);
    size_t n = 0, named = 0;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index < 0 || !rmg__grid_land_zone(&s->b, z->id) || any[z->id])
            continue;
        n++;
        if (!rmg__map_mirror_of(m, z->id))
            rmg__buf_printf(&list, "%s%d", named++ ? ", " : "", z->tpl_id);
    }
    if (list.failed)
        st = rmg__error_nomem(s->b.ctx);
    else if (n)
        st = rmg__map_warn(m, "%zu zone(s) joined to no start zone by a connection or a teleport, which only heroes who "
                           "fly or cross water reach: template zone(s) %.*s", n, (int)list.len, list.data);
    rmg__buf_free(&list);
    rmg__free(s->b.ctx, meant);
    rmg__free(s->b.ctx, queue);
    return st;
}
