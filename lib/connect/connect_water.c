/*
 * Water travel (issue 19; the guide leaves water to the implementer, WAT-01): after the
 * connections are built, every player must be able to sail from the land he walks to every
 * sea he can see, and from it to every coast. Design:
 *  - the seas are the water zones, those that touch one another forming one sea;
 *  - from a player's start zone the land he reaches is the zones the connections and teleports
 *    join (rmg__reach_zones); every sea one of those zones touches must have a shipyard on a
 *    coast he reaches: when none stands there yet (a template connection over water brings two),
 *    one is put in the first zone of his that touches the sea: his start zone first, then the
 *    zones in the order he reaches them;
 *  - a sea with a shipyard takes him to every zone on its coast, and from there on by land;
 *  - the players are served in order, so a later player uses the shipyards already standing
 *    where he reaches them;
 *  - a coast zone that has no room for a shipyard gets none (the next coast zone of the player
 *    is tried); when none has room, a Boat is put on the sea beside a coast tile of his (one
 *    tile of water is found where three tiles of coast are not); a sea none of his zones can
 *    serve is reported in a warning.
 * A shipyard's boat appears where the game puts it (rmg__map_boat_spot); that water and the land
 * the hero boards from are kept clear.
 */
#include <string.h>

#include "connect_state.h"
#include "map/map_reach.h"

typedef struct water_ctx {
    rmg__connect_state *s;
    size_t n_ids;            /* zone ids 0..n_ids-1 */
    const int *sea_of;       /* per zone id: the sea index + 1 of a water zone, 0 for land */
    int n_seas;
    uint8_t *coast;          /* per zone id x sea: the land zone touches the sea */
    uint8_t *yard;           /* per zone id x sea: a shipyard of the zone launches on the sea */
    uint8_t *joined;         /* per zone id x zone id: the zones the first reaches by land */
    uint8_t *reached;        /* per zone id: reached by the current player */
    uint8_t *sea_open;       /* per sea: the current player sails it */
    uint32_t *order;         /* zones in the order the player reaches them */
    size_t n_order;
    bool mirror;             /* a mirror pack: the underground is copied from the surface later */
} water_ctx;

/* Whether water travel may build in zone z now. On a mirror pack the underground is still the
 * surface's future copy (rmg__connect_mirror_copy overwrites it, objects and all), so only
 * surface zones get shipyards and boats; their copies come with the copy. */
static bool builds_in(const water_ctx *w, int z)
{
    const rmg__map_zone *mz = rmg__grid_zone(&w->s->b, z);
    return mz && (!w->mirror || mz->level == 0);
}

static int zone_kind_water(const rmg__connect_state *s, int z)
{
    const rmg__map_zone *mz = rmg__grid_zone(&s->b, z);
    return mz && mz->kind == RMG_ZONE_WATER;
}

/* Union-find root over zone ids. */
static int sea_root(int *parent, int z)
{
    while (parent[z] != z)
        z = parent[z] = parent[parent[z]];
    return z;
}

rmg_status rmg__connect_seas(rmg__connect_state *s)
{
    const rmg__grid *b = &s->b;
    size_t n_ids = b->m->zones.count + 1;
    int *parent = rmg__malloc(b->ctx, n_ids * sizeof *parent);
    s->sea_of = rmg__calloc(b->ctx, n_ids, sizeof *s->sea_of);
    if (!parent || !s->sea_of) {
        rmg__free(b->ctx, parent);
        return rmg__error_nomem(b->ctx);
    }
    for (size_t z = 0; z < n_ids; z++)
        parent[z] = (int)z;
    for (uint32_t t = 0; t < b->n; t++) {
        int zt = b->m->tile_zone[t];
        if (!(b->m->flags[t] & RMG__T_WATER) || !zone_kind_water(s, zt))
            continue;
        for (int d = 0; d < 8; d++) {
            uint32_t u;
            int zu;
            if (rmg__grid_nbr(b, t, d, &u) && (zu = b->m->tile_zone[u]) != zt && zone_kind_water(s, zu))
                parent[sea_root(parent, zt)] = sea_root(parent, zu);
        }
    }
    for (size_t z = 1; z < n_ids; z++)
        if (zone_kind_water(s, (int)z)) {
            int r = sea_root(parent, (int)z);
            if (!s->sea_of[r])
                s->sea_of[r] = ++s->n_seas;
            s->sea_of[z] = s->sea_of[r];
        }
    rmg__free(b->ctx, parent);
    return RMG_OK;
}

/* Which land zones touch which seas (a land tile orthogonally beside the water). */
static void find_coasts(water_ctx *w)
{
    const rmg__grid *b = &w->s->b;
    for (uint32_t t = 0; t < b->n; t++) {
        int zt = b->m->tile_zone[t];
        if (!rmg__grid_land_zone(b, zt) || (b->m->flags[t] & (RMG__T_WATER | RMG__T_ROCK)))
            continue;
        for (int d = 0; d < 4; d++) {
            uint32_t u;
            if (rmg__grid_nbr(b, t, d, &u) && (b->m->flags[u] & RMG__T_WATER) && w->sea_of[b->m->tile_zone[u]])
                w->coast[(size_t)zt * (size_t)w->n_seas + (size_t)(w->sea_of[b->m->tile_zone[u]] - 1)] = 1;
        }
    }
}

/* The shipyards standing: which sea each launches on. */
static void find_yards(water_ctx *w)
{
    const struct rmg_map *m = w->s->b.m;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        uint32_t tiles[4];
        if (o->kind != RMG_OBJECT_SHIPYARD || !rmg__object_tiles(m, o, o->visit, tiles, 4))
            continue;
        uint32_t spot = rmg__map_boat_spot(m, tiles[0]);
        if (spot != UINT32_MAX && w->sea_of[m->tile_zone[spot]])
            w->yard[(size_t)o->zone * (size_t)w->n_seas + (size_t)(w->sea_of[m->tile_zone[spot]] - 1)] = 1;
    }
}

static rmg_status find_land(water_ctx *w)
{
    rmg__connect_state *s = w->s;
    rmg__reach r;
    uint32_t *queue = rmg__malloc(s->b.ctx, w->n_ids * sizeof *queue);
    rmg_status st = queue ? rmg__reach_init(&r, s->b.m, s->b.g->content, s->b.ctx) : rmg__error_nomem(s->b.ctx);
    if (st != RMG_OK) {
        rmg__free(s->b.ctx, queue);
        return st;
    }
    for (size_t z = 1; z < w->n_ids; z++)
        if (rmg__grid_land_zone(&s->b, (int)z))
            rmg__reach_zones(&r, (int)z, false, w->joined + z * w->n_ids, w->n_ids, queue);
    rmg__reach_free(&r);
    rmg__free(s->b.ctx, queue);
    return RMG_OK;
}

static void reach_land_from(water_ctx *w, int z)
{
    const uint8_t *row = w->joined + (size_t)z * w->n_ids;
    for (size_t k = 1; k < w->n_ids; k++)
        if (row[k] && !w->reached[k]) {
            w->reached[k] = 1;
            w->order[w->n_order++] = (uint32_t)k;
        }
}

/* Puts a shipyard for `sea` in the first of the player's coast zones that has room. */
static rmg_status add_yard(water_ctx *w, int sea, bool *placed)
{
    rmg__connect_state *s = w->s;
    *placed = false;
    for (size_t i = 0; i < w->n_order && !*placed; i++) {
        int z = (int)w->order[i];
        if (!w->coast[(size_t)z * (size_t)w->n_seas + (size_t)sea] || !builds_in(w, z))
            continue;
        for (size_t wz = 1; wz < w->n_ids && !*placed; wz++) {
            if (w->sea_of[wz] != sea + 1)
                continue;
            rmg__connect_request rq = {z, "shipyard", RMG_OBJECT_SHIPYARD, -1, RMG__SCORE_NORMAL, (int)wz, false, false};
            uint32_t approach;
            rmg_status st;
            uint32_t id = rmg__connect_place(s, &rq, &approach, &st);
            if (st != RMG_OK)
                return st;
            if (id) {
                w->yard[(size_t)z * (size_t)w->n_seas + (size_t)sea] = 1;
                *placed = true;
            }
        }
    }
    return RMG_OK;
}

/* A Boat on the sea beside a coast tile of zone z the zone's paths reach (a coast too full for
 * a shipyard still has room for one tile of water): the tile gets a free path. */
static rmg_status add_boat(water_ctx *w, int z, int sea, bool *placed)
{
    rmg__connect_state *s = w->s;
    rmg__grid *b = &s->b;
    *placed = false;
    if (!rmg__grid_land_zone(b, z) || !s->zfree[z - 1].count || !builds_in(w, z))
        return RMG_OK;
    rmg__connect_reach(s, z, RMG__NO_TILE, NULL, 0);
    rmg__grid_shape sh = rmg__grid_shape_of(b, "boat", -1);
    uint32_t found = RMG__NO_TILE, boat = RMG__NO_TILE;
    for (uint32_t i = s->zi.start[z]; i < s->zi.start[z + 1] && found == RMG__NO_TILE; i++) {
        uint32_t t = s->zi.tiles[i];
        if (b->seen[t] != b->stamp || (b->m->flags[t] & (RMG__T_BLOCKED | RMG__T_OBJECT | RMG__T_ENTRY)))
            continue;
        for (int d = 0; d < 8; d++) {
            uint32_t u;
            if (rmg__grid_nbr(b, t, d, &u) && (b->m->flags[u] & RMG__T_WATER) && !(b->m->flags[u] & RMG__T_FREE) &&
                !b->m->tile_object[u] && w->sea_of[b->m->tile_zone[u]] == sea + 1 && rmg__grid_x(b, u) + 1 < b->w) {
                found = t;
                boat = u;
                break;
            }
        }
    }
    if (found == RMG__NO_TILE || !rmg__connect_reach(s, z, found, NULL, 0))
        return RMG_OK;
    rmg_status st = rmg__connect_commit(s, z, found);
    if (st != RMG_OK)
        return st;
    /* The boat's footprint has its entry left of the anchor (the bottom-right of the shape). */
    rmg__map_object *o = rmg__map_add_object(b->m, "boat", RMG_OBJECT_BOAT, rmg__grid_x(b, boat) + 1,
                                             rmg__grid_y(b, boat), rmg__grid_z(b, boat));
    if (!o)
        return RMG_ERR_NOMEM;
    o->block = sh.block;
    o->visit = sh.visit;
    o->zone = b->m->tile_zone[boat];
    rmg__map_stamp_object(b->m, o);
    w->yard[(size_t)z * (size_t)w->n_seas + (size_t)sea] = 1;
    *placed = true;
    return RMG_OK;
}

/* Opens every sea the player's land touches, adding shipyards where none serves him. */
static rmg_status serve_player(water_ctx *w, int start_zone)
{
    memset(w->reached, 0, w->n_ids);
    memset(w->sea_open, 0, (size_t)w->n_seas);
    w->n_order = 0;
    w->reached[start_zone] = 1;
    w->order[w->n_order++] = (uint32_t)start_zone;
    reach_land_from(w, start_zone);
    bool progress = true;
    while (progress) {
        progress = false;
        for (int sea = 0; sea < w->n_seas; sea++) {
            if (w->sea_open[sea])
                continue;
            bool touches = false, served = false;
            for (size_t i = 0; i < w->n_order; i++) {
                size_t cell = (size_t)w->order[i] * (size_t)w->n_seas + (size_t)sea;
                touches |= w->coast[cell] != 0;
                served |= w->yard[cell] != 0;
            }
            if (!touches)
                continue;
            if (!served) {
                rmg_status st = add_yard(w, sea, &served);
                for (size_t i = 0; i < w->n_order && st == RMG_OK && !served; i++)
                    if (w->coast[(size_t)w->order[i] * (size_t)w->n_seas + (size_t)sea])
                        st = add_boat(w, (int)w->order[i], sea, &served);
                if (st != RMG_OK)
                    return st;
                if (!served) {
                    w->sea_open[sea] = 1; /* reported once, not retried for this player */
                    if ((st = rmg__map_warn(w->s->b.m, "player zone %d: no coast of its land has room for a shipyard "
                                            "on sea %d", start_zone, sea + 1)) != RMG_OK)
                        return st;
                    continue;
                }
            }
            w->sea_open[sea] = 1;
            progress = true;
            for (size_t z = 1; z < w->n_ids; z++)
                if (w->coast[z * (size_t)w->n_seas + (size_t)sea] && !w->reached[z]) {
                    w->reached[z] = 1;
                    w->order[w->n_order++] = (uint32_t)z;
                    reach_land_from(w, (int)z);
                }
        }
    }
    return RMG_OK;
}

static void water_free(water_ctx *w)
{
    rmg_context *ctx = w->s->b.ctx;
    rmg__free(ctx, w->coast);
    rmg__free(ctx, w->yard);
    rmg__free(ctx, w->joined);
    rmg__free(ctx, w->reached);
    rmg__free(ctx, w->sea_open);
    rmg__free(ctx, w->order);
}

rmg_status rmg__connect_water_travel(rmg__connect_state *s)
{
    if (s->b.g->opt.water == RMG_WATER_NONE)
        return RMG_OK;
    rmg_context *ctx = s->b.ctx;
    water_ctx w = {s, s->b.m->zones.count + 1, s->sea_of, s->n_seas, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                   s->b.g->pack && s->b.g->pack->mirror && s->b.m->levels > 1};
    size_t seas = w.n_seas ? (size_t)w.n_seas : 1;
    w.coast = rmg__calloc(ctx, w.n_ids * seas, 1);
    w.yard = rmg__calloc(ctx, w.n_ids * seas, 1);
    w.joined = rmg__calloc(ctx, w.n_ids * w.n_ids, 1);
    w.reached = rmg__calloc(ctx, w.n_ids, 1);
    w.sea_open = rmg__calloc(ctx, seas, 1);
    w.order = rmg__malloc(ctx, w.n_ids * sizeof *w.order);
    rmg_status st = w.coast && w.yard && w.joined && w.reached && w.sea_open && w.order ? RMG_OK : rmg__error_nomem(ctx);
    if (st == RMG_OK && w.n_seas) {
        find_coasts(&w);
        find_yards(&w);
        st = find_land(&w);
        const struct rmg_map *m = s->b.m;
        for (int p = 1; p <= 8 && st == RMG_OK; p++)
            for (size_t i = 0; i < m->zones.count; i++)
                if (m->zones.items[i].owner == p && rmg__grid_land_zone(&s->b, m->zones.items[i].id) &&
                    builds_in(&w, m->zones.items[i].id)) {
                    st = serve_player(&w, m->zones.items[i].id);
                    break;
                }
    }
    water_free(&w);
    return st;
}
