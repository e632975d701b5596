/* The connect stage: terrain painting (ZON-14), sealed borders, zone skeletons, and the driver
 * that realizes connections and mirror links (connect_links.c). */
#include <stdlib.h>
#include <string.h>

#include "connect_state.h"
#include "map/map_views.h"

/* ---- terrain ------------------------------------------------------------------------------- */

/* ZON-14: subterranean becomes dirt on the surface; underground keeps only subterranean and
 * lava. */
static int convert_terrain(int terrain, int level)
{
    if (terrain < 0 || terrain >= RMG_TERRAIN_COUNT || terrain == RMG_TERRAIN_WATER || terrain == RMG_TERRAIN_ROCK)
        terrain = level ? RMG_TERRAIN_SUBTERRANEAN : RMG_TERRAIN_DIRT;
    if (level == 0)
        return terrain == RMG_TERRAIN_SUBTERRANEAN ? RMG_TERRAIN_DIRT : terrain;
    return terrain == RMG_TERRAIN_LAVA ? RMG_TERRAIN_LAVA : RMG_TERRAIN_SUBTERRANEAN;
}

/* PLC-13: a surface rock mass is a dummy zone "filled with obstacles": land under obstacle
 * objects (the finish stage covers it), of the terrain of the land zone it borders along the
 * most tiles (ties: the lower id; dirt when it borders none). Underground the rock masses
 * stay rock, the game's own filler there. `counts`: a zeroed scratch of zones + 1 entries. */
static bool rock_mass_on_land(const rmg__map_zone *z)
{
    return z->kind == RMG_ZONE_ROCK && z->level == 0;
}

static int rock_mass_terrain(const rmg__connect_state *s, const rmg__map_zone *rock, uint32_t *counts)
{
    const struct rmg_map *m = s->b.m;
    for (uint32_t i = s->zi.start[rock->id]; i < s->zi.start[rock->id + 1]; i++) {
        uint32_t t = s->zi.tiles[i], nb[8];
        int n = rmg__grid_nbrs(&s->b, t, nb);
        for (int k = 0; k < n; k++)
            if (rmg__grid_land_zone(&s->b, m->tile_zone[nb[k]]))
                counts[m->tile_zone[nb[k]]]++;
    }
    int best = 0;
    for (size_t id = 1; id <= m->zones.count; id++) {
        if (counts[id] > (best ? counts[best] : 0))
            best = (int)id;
        counts[id] = 0;
    }
    return best ? m->zones.items[best - 1].terrain : RMG_TERRAIN_DIRT;
}

static void paint_zone_terrains(rmg__connect_state *s)
{
    const rmg__gen *g = s->b.g;
    struct rmg_map *m = s->b.m;
    for (size_t i = 0; i < m->zones.count; i++) {
        rmg__map_zone *z = &m->zones.items[i];
        if (z->kind == RMG_ZONE_ROCK) {
            z->chosen_terrain = z->terrain = RMG_TERRAIN_ROCK;
        } else if (z->kind == RMG_ZONE_WATER) {
            z->chosen_terrain = z->terrain = RMG_TERRAIN_WATER;
        } else {
            if (z->tpl_index >= 0 && g->sol.zones)
                z->chosen_terrain = g->sol.zones[z->tpl_index].terrain;
            z->terrain = convert_terrain(z->chosen_terrain, z->level);
        }
    }
    uint32_t *counts = (uint32_t *)s->b.queue; /* scratch of b.n >= zones + 1 entries, zeroed here */
    memset(counts, 0, (m->zones.count + 1) * sizeof *counts);
    for (size_t i = 0; i < m->zones.count; i++) /* after the land zones: their terrains are known */
        if (rock_mass_on_land(&m->zones.items[i]))
            m->zones.items[i].chosen_terrain = m->zones.items[i].terrain = rock_mass_terrain(s, &m->zones.items[i], counts);
    for (uint32_t t = 0; t < s->b.n; t++) {
        const rmg__map_zone *z = rmg__grid_zone(&s->b, m->tile_zone[t]);
        if (z && rock_mass_on_land(z)) {
            m->terrain[t] = (uint8_t)z->terrain;
            m->flags[t] |= RMG__T_OBSTACLE | RMG__T_BLOCKED;
        } else if (!z || z->kind == RMG_ZONE_ROCK) {
            m->terrain[t] = RMG_TERRAIN_ROCK;
            m->flags[t] |= RMG__T_ROCK | RMG__T_BLOCKED;
        } else if (z->kind == RMG_ZONE_WATER) {
            m->terrain[t] = RMG_TERRAIN_WATER;
            m->flags[t] |= RMG__T_WATER | RMG__T_BLOCKED;
        } else {
            m->terrain[t] = (uint8_t)z->terrain;
        }
    }
}

/* The game draws a tile with a frame of its terrain's sprite set chosen from its neighbours, and
 * some shapes (a one-tile peninsula, a lone tile, terrains touching at a corner) have no frame:
 * such land tiles take a neighbour's terrain (lib/map/map_views.c). Water and rock keep theirs,
 * since they decide where a hero walks; a mirror pack's copy is made afterwards, so both levels
 * agree. */
static void smooth_land(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    uint8_t *keep = s->b.mark; /* free scratch at the stage's start */
    for (uint32_t t = 0; t < s->b.n; t++)
        keep[t] = (m->flags[t] & (RMG__T_WATER | RMG__T_ROCK)) != 0;
    rmg__map_smooth_terrain(m->terrain, keep, m->width, m->height, m->levels);
    memset(keep, 0, s->b.n);
}

/* The land zone most of t's neighbours belong to (ties: the lower id), 0 when none. */
static int land_neighbour_zone(const rmg__connect_state *s, uint32_t t)
{
    uint32_t nb[8];
    int n = rmg__grid_nbrs(&s->b, t, nb), best = 0, best_count = 0;
    for (int i = 0; i < n; i++) {
        int z = s->b.m->tile_zone[nb[i]], count = 0;
        if (!rmg__grid_land_zone(&s->b, z))
            continue;
        for (int k = 0; k < n; k++)
            count += s->b.m->tile_zone[nb[k]] == z;
        if (count > best_count || (count == best_count && z < best)) {
            best = z;
            best_count = count;
        }
    }
    return best;
}

/* Moves tile t to zone `zone`, taking its terrain and what that terrain means for passage. */
static void move_tile(rmg__connect_state *s, uint32_t t, int zone)
{
    struct rmg_map *m = s->b.m;
    rmg__map_zone *from = rmg__grid_zone(&s->b, m->tile_zone[t]), *to = &m->zones.items[zone - 1];
    if (from && from->n_tiles)
        from->n_tiles--;
    to->n_tiles++;
    m->tile_zone[t] = (uint16_t)zone;
    if (s->moved && !RMG__VEC_PUSH(s->b.ctx, s->moved, t))
        s->moved_lost = true;
    m->terrain[t] = (uint8_t)to->terrain;
    m->flags[t] &= (uint16_t)~(RMG__T_ROCK | RMG__T_WATER | RMG__T_BLOCKED);
    if (to->terrain == RMG_TERRAIN_ROCK)
        m->flags[t] |= RMG__T_ROCK | RMG__T_BLOCKED;
    else if (to->terrain == RMG_TERRAIN_WATER)
        m->flags[t] |= RMG__T_WATER | RMG__T_BLOCKED;
}

/* A rock tile thinner than the rock sprites can draw joins the land zone beside it (the border
 * sealing that follows keeps zones apart as everywhere). Returns how many tiles moved. */
static size_t thin_rock(rmg__connect_state *s, const uint32_t *unfit, size_t n)
{
    size_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        int zone = land_neighbour_zone(s, unfit[i]);
        if (zone) {
            move_tile(s, unfit[i], zone);
            moved++;
        }
    }
    return moved;
}

/* A body tile that lies in a 2 x 2 square of its terrain yet fits no pattern has land on two
 * opposite corners (a shore running diagonally in steps of one): the first corner in reading
 * order that is land joins the body. Returns 1 when one did. */
static size_t take_corner(rmg__connect_state *s, uint32_t t, int zone, int terrain)
{
    struct rmg_map *m = s->b.m;
    int x = rmg__grid_x(&s->b, t), y = rmg__grid_y(&s->b, t), z = rmg__grid_z(&s->b, t);
    for (int k = 0; k < 4; k++) {
        int cx = x + (k % 2 ? 1 : -1), cy = y + (k / 2 ? 1 : -1);
        if (cx < 0 || cy < 0 || cx >= s->b.w || cy >= s->b.h)
            continue;
        uint32_t u = (uint32_t)rmg__tile(s->b.w, s->b.h, cx, cy, z);
        if (m->terrain[u] != terrain && rmg__grid_land_zone(&s->b, m->tile_zone[u])) {
            move_tile(s, u, zone);
            return 1;
        }
    }
    return 0;
}

/* How a body grows by 2 x 2 squares: which tiles are its own, which it may take. */
typedef struct grow_rule {
    int terrain; /* water or rock: tiles of this terrain are the body's; -1: land of `zone` */
    int zone;
} grow_rule;

static bool grow_own(const rmg__connect_state *s, const grow_rule *r, uint32_t u)
{
    const struct rmg_map *m = s->b.m;
    if (r->terrain >= 0)
        return m->terrain[u] == r->terrain;
    return m->tile_zone[u] == r->zone && !(m->flags[u] & (RMG__T_ROCK | RMG__T_WATER));
}

/* Water and rock take land of a zone; land takes rock of no land zone (not another zone's land,
 * not water, not a rock mass that belongs to a land zone). */
static bool grow_may_take(const rmg__connect_state *s, const grow_rule *r, uint32_t u)
{
    bool land_zone = rmg__grid_land_zone(&s->b, s->b.m->tile_zone[u]);
    if (r->terrain >= 0)
        return land_zone;
    return (s->b.m->flags[u] & RMG__T_ROCK) && !land_zone;
}

/* The 2 x 2 square around t with the most of the body's own tiles whose other tiles it may take
 * (ties: up-left, up-right, down-left, down-right), squares all its own only when `full` is
 * allowed; -1 when none. *own: the own tiles of the square chosen. */
static int best_square(const rmg__connect_state *s, uint32_t t, const grow_rule *r, bool full, int *own_out)
{
    int x = rmg__grid_x(&s->b, t), y = rmg__grid_y(&s->b, t), z = rmg__grid_z(&s->b, t);
    int best = -1, best_own = -1;
    for (int q = 0; q < 4; q++) {
        int x0 = x - 1 + q % 2, y0 = y - 1 + q / 2, own = 0;
        if (x0 < 0 || y0 < 0 || x0 + 1 >= s->b.w || y0 + 1 >= s->b.h)
            continue;
        bool takeable = true;
        for (int k = 0; k < 4; k++) {
            uint32_t u = (uint32_t)rmg__tile(s->b.w, s->b.h, x0 + k % 2, y0 + k / 2, z);
            if (grow_own(s, r, u))
                own++;
            else if (!grow_may_take(s, r, u))
                takeable = false;
        }
        if (takeable && (full || own < 4) && own > best_own) {
            best = q;
            best_own = own;
        }
    }
    *own_out = best_own;
    return best;
}

/* The body takes the square q (best_square's numbering) around t into `zone`. */
static size_t take_square(rmg__connect_state *s, uint32_t t, int q, const grow_rule *r, int zone)
{
    int x = rmg__grid_x(&s->b, t), y = rmg__grid_y(&s->b, t), z = rmg__grid_z(&s->b, t);
    size_t moved = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t u = (uint32_t)rmg__tile(s->b.w, s->b.h, x - 1 + q % 2 + k % 2, y - 1 + q / 2 + k / 2, z);
        if (!grow_own(s, r, u)) {
            move_tile(s, u, zone);
            moved++;
        }
    }
    return moved;
}

/* Water (and rock no land zone touches) thinner than its sprites draw grows instead: the best
 * 2 x 2 square around the tile (best_square) takes the tile's terrain and zone where it is land,
 * so the body is two tiles thick there. Growing, not shrinking, keeps every sea in one piece (a
 * one-tile channel becomes two wide). Returns how many tiles moved. */
static size_t thicken(rmg__connect_state *s, const uint32_t *unfit, size_t n, int terrain)
{
    struct rmg_map *m = s->b.m;
    grow_rule r = {terrain, 0};
    size_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = unfit[i];
        int zone = m->tile_zone[t], own;
        if (m->terrain[t] != terrain || !zone)
            continue; /* moved by an earlier square of this round */
        int best = best_square(s, t, &r, true, &own);
        if (own == 4) /* already two thick: an alien corner (a diagonal shore) joins */
            moved += take_corner(s, t, zone, terrain);
        else if (best >= 0)
            moved += take_square(s, t, best, &r, zone);
    }
    return moved;
}

/* An underground land tile that fits no pattern lies in a strip or point of land one tile thin
 * between rock (every other shape the land smoothing settles by majority). Smoothing would make
 * it sand, which the underground never has (ZON-14; the game's underground is subterranean,
 * lava and rock): the land grows instead by the best square of its zone's land not yet all
 * land, taking rock of no land zone. Returns how many tiles moved. */
static size_t thicken_underground_land(rmg__connect_state *s, const uint32_t *unfit, size_t n)
{
    struct rmg_map *m = s->b.m;
    size_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = unfit[i];
        int zone = m->tile_zone[t], own; /* underground land by rock (underground_land_by_rock) */
        if (!rmg__grid_land_zone(&s->b, zone))
            continue;
        grow_rule r = {-1, zone};
        int best = best_square(s, t, &r, false, &own);
        if (best >= 0)
            moved += take_square(s, t, best, &r, zone);
    }
    return moved;
}

/* The underground land tiles with rock among their 8 neighbours, into out (at most cap): the
 * only underground land the land smoothing may leave unfit. Returns how many. */
static size_t underground_land_by_rock(const rmg__connect_state *s, uint32_t *out, size_t cap)
{
    const struct rmg_map *m = s->b.m;
    uint32_t plane = (uint32_t)m->width * (uint32_t)m->height;
    size_t n = 0;
    for (uint32_t t = plane; t < s->b.n && n < cap; t++) {
        if (m->flags[t] & (RMG__T_ROCK | RMG__T_WATER))
            continue;
        uint32_t nb[8];
        int k = rmg__grid_nbrs(&s->b, t, nb);
        for (int i = 0; i < k; i++)
            if (m->flags[nb[i]] & RMG__T_ROCK) {
                out[n++] = t;
                break;
            }
    }
    return n;
}

#define BODY_ROUNDS 16

/* One kind of tile the widening judges again and again (rock, water, underground land by rock).
 * After the first look at the whole map only the tiles a move can have changed are judged: those
 * within the fit's reach (RMG__MAP_FIT_REACH) of a tile moved since the last look, and the ones
 * unfit then. The list comes out in tile order, the same as the whole map's, so the rounds make
 * the same moves. */
typedef struct body_scan {
    int only;            /* RMG_TERRAIN_ROCK, RMG_TERRAIN_WATER, or -1: underground land by rock */
    bool looked;         /* the whole map was judged once */
    size_t log_seen;     /* moves already taken into account */
    rmg__u32vec unfit;   /* the last look's result */
} body_scan;

static bool scan_takes(const rmg__connect_state *s, const body_scan *sc, uint32_t t)
{
    const struct rmg_map *m = s->b.m;
    if (sc->only >= 0)
        return m->terrain[t] == sc->only;
    if (t < (uint32_t)m->width * (uint32_t)m->height || (m->flags[t] & (RMG__T_ROCK | RMG__T_WATER)))
        return false;
    uint32_t nb[8];
    int k = rmg__grid_nbrs(&s->b, t, nb);
    for (int i = 0; i < k; i++)
        if (m->flags[nb[i]] & RMG__T_ROCK)
            return true;
    return false;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The tiles a scan must judge again, in tile order, into out (at most b.n). */
static size_t scan_candidates(rmg__connect_state *s, body_scan *sc, uint32_t *out)
{
    rmg__grid *b = &s->b;
    uint32_t stamp = rmg__grid_stamp(b);
    size_t n = 0;
    for (size_t i = 0; i < sc->unfit.count; i++)
        if (b->seen[sc->unfit.items[i]] != stamp && scan_takes(s, sc, sc->unfit.items[i])) {
            b->seen[sc->unfit.items[i]] = stamp;
            out[n++] = sc->unfit.items[i];
        }
    for (size_t i = sc->log_seen; i < s->moved->count; i++) {
        size_t from = n, kept = n;
        n = rmg__grid_add_square(b, s->moved->items[i], RMG__MAP_FIT_REACH, stamp, out, n);
        for (size_t j = from; j < n; j++)
            if (scan_takes(s, sc, out[j]))
                out[kept++] = out[j];
        n = kept;
    }
    qsort(out, n, sizeof *out, cmp_u32);
    return n;
}

/* The scan's unfit tiles now, in tile order, into out (at most cap); returns how many. */
static size_t scan_unfit(rmg__connect_state *s, const rmg__map_fit *fit, body_scan *sc, uint32_t *out, size_t cap)
{
    struct rmg_map *m = s->b.m;
    int w = m->width, h = m->height;
    size_t n;
    if (sc->looked && !s->moved_lost) {
        n = scan_candidates(s, sc, out);
        n = rmg__map_fit_unfit_among(fit, m->terrain, w, h, out, n, out, cap);
    } else if (sc->only >= 0) {
        n = rmg__map_fit_unfit_of(fit, m->terrain, w, h, m->levels, sc->only, out, cap);
    } else {
        n = underground_land_by_rock(s, out, cap);
        n = rmg__map_fit_unfit_among(fit, m->terrain, w, h, out, n, out, cap);
    }
    sc->looked = true;
    sc->log_seen = s->moved->count;
    sc->unfit.count = 0;
    for (size_t i = 0; i < RMG__MIN(n, cap); i++)
        if (!RMG__VEC_PUSH(s->b.ctx, &sc->unfit, out[i]))
            s->moved_lost = true;
    return n;
}

/* Water and rock not thinner than two tiles (h3m-format.md §13.1: the game has no sprite for
 * thinner): thin rock first joins the land beside it (once), then water, the rock left and
 * thin underground land grow, round after round until every water and rock tile fits a pattern
 * (at most BODY_ROUNDS; growing only, the rounds cannot undo one another). Not on mirror maps,
 * whose underground zones are the surface's copies tile for tile. Returns how many tiles moved. */
static size_t widen_thin_bodies(rmg__connect_state *s, const rmg__map_fit *fit, uint32_t *unfit, size_t cap)
{
    struct rmg_map *m = s->b.m;
    rmg__u32vec moved = {NULL, 0, 0};
    body_scan rock = {RMG_TERRAIN_ROCK, false, 0, {NULL, 0, 0}};
    body_scan water = {RMG_TERRAIN_WATER, false, 0, {NULL, 0, 0}};
    body_scan land = {-1, false, 0, {NULL, 0, 0}};
    s->moved = &moved;
    s->moved_lost = false;
    size_t n = scan_unfit(s, fit, &rock, unfit, cap);
    size_t total = thin_rock(s, unfit, RMG__MIN(n, cap));
    size_t land_grew = 0;
    for (int round = 0; round < BODY_ROUNDS; round++) {
        size_t now = 0;
        n = scan_unfit(s, fit, &rock, unfit, cap);
        /* Rock the land took from may be thin now: it joins the land too, until the rock left fits
         * (rock only shrinks here and land only grows, so the two never take turns). */
        for (size_t k = land_grew; k; n = scan_unfit(s, fit, &rock, unfit, cap))
            now += k = thin_rock(s, unfit, RMG__MIN(n, cap));
        now += thicken(s, unfit, RMG__MIN(n, cap), RMG_TERRAIN_ROCK);
        n = scan_unfit(s, fit, &water, unfit, cap);
        now += thicken(s, unfit, RMG__MIN(n, cap), RMG_TERRAIN_WATER);
        land_grew = 0;
        if (m->levels > 1) {
            n = scan_unfit(s, fit, &land, unfit, cap);
            now += land_grew = thicken_underground_land(s, unfit, RMG__MIN(n, cap));
        }
        total += now;
        if (!now)
            break;
    }
    s->moved = NULL;
    RMG__VEC_FREE(s->b.ctx, &moved);
    RMG__VEC_FREE(s->b.ctx, &rock.unfit);
    RMG__VEC_FREE(s->b.ctx, &water.unfit);
    RMG__VEC_FREE(s->b.ctx, &land.unfit);
    return total;
}

/* The game draws a tile with a frame of its terrain's sprite set chosen from its neighbours, and
 * some shapes (a one-tile peninsula, a lone tile, terrains touching at a corner, water or rock one
 * tile wide) have no frame (lib/map/map_views.c): thin rock joins the land beside it, thin water
 * grows, then land tiles take a neighbour's terrain. */
static rmg_status smooth_terrain(rmg__connect_state *s, bool mirror)
{
    /* Water and rock first: their frames do not depend on which land terrain surrounds them, so
     * the land smoothing after them settles everything. */
    size_t moved = 0;
    if (!mirror) {
        rmg__map_fit *fit = rmg__map_fit_new(s->b.ctx);
        if (!fit)
            return rmg__error_nomem(s->b.ctx);
        moved = widen_thin_bodies(s, fit, s->b.queue /* scratch of b.n tiles */, s->b.n);
        rmg__map_fit_free(s->b.ctx, fit);
    }
    smooth_land(s);
    if (!moved)
        return RMG_OK;
    rmg__grid_zone_index_free(&s->b, &s->zi); /* tiles changed zones */
    return rmg__grid_index_zones(&s->b, &s->zi);
}

/* ---- borders ------------------------------------------------------------------------------- */

/* Two-thick borders: a land tile with an 8-neighbour in another land zone is sealed, so no
 * step between zones exists until a passage opens both of its tiles. */
static void seal_borders(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    for (uint32_t t = 0; t < s->b.n; t++) {
        int zone = m->tile_zone[t];
        if (!rmg__grid_land_zone(&s->b, zone))
            continue;
        uint32_t nb[8];
        int n_nb = rmg__grid_nbrs(&s->b, t, nb);
        for (int d = 0; d < n_nb; d++) {
            uint32_t u = nb[d];
            if (m->tile_zone[u] != zone && rmg__grid_land_zone(&s->b, m->tile_zone[u])) {
                m->flags[t] |= RMG__T_BORDER | RMG__T_BLOCKED;
                break;
            }
        }
    }
}

/* ---- skeleton -------------------------------------------------------------------------------- */

typedef struct reach_user {
    int zone;
    uint32_t goal;
    const uint32_t *excl;
    size_t n_excl;
} reach_user;

static bool open_interior(const rmg__grid *b, uint32_t t, void *user)
{
    const reach_user *r = user;
    if (b->m->tile_zone[t] != r->zone || (b->m->flags[t] & (RMG__T_BLOCKED | RMG__T_BORDER | RMG__T_ENTRY)))
        return false;
    for (size_t i = 0; i < r->n_excl; i++)
        if (r->excl[i] == t)
            return false;
    return true;
}

static bool is_goal_tile(const rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    return t == ((const reach_user *)user)->goal;
}

bool rmg__connect_reach(rmg__connect_state *s, int zone, uint32_t goal, const uint32_t *excl, size_t n_excl)
{
    const rmg__u32vec *free_tiles = &s->zfree[zone - 1];
    if (!free_tiles->count)
        return false;
    reach_user r = {zone, goal, excl, n_excl};
    return rmg__grid_bfs(&s->b, free_tiles->items, free_tiles->count, open_interior, is_goal_tile, &r) != 0;
}

rmg_status rmg__connect_add_free(rmg__connect_state *s, int zone, uint32_t t)
{
    if (s->b.m->flags[t] & RMG__T_FREE)
        return RMG_OK;
    s->b.m->flags[t] |= RMG__T_FREE;
    if (!RMG__VEC_PUSH(s->b.ctx, &s->zfree[zone - 1], t))
        return rmg__error_nomem(s->b.ctx);
    return RMG_OK;
}

typedef struct commit_user {
    rmg__connect_state *s;
    int zone;
    rmg_status st;
} commit_user;

static void commit_tile(rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    commit_user *c = user;
    if (c->st == RMG_OK)
        c->st = rmg__connect_add_free(c->s, c->zone, t);
}

rmg_status rmg__connect_commit(rmg__connect_state *s, int zone, uint32_t goal)
{
    commit_user c = {s, zone, RMG_OK};
    rmg__grid_trace(&s->b, goal, commit_tile, &c);
    return c.st;
}

static void keep_tile(rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    commit_user *c = user;
    if (c->st == RMG_OK && !RMG__VEC_PUSH(c->s->b.ctx, &c->s->path, t))
        c->st = rmg__error_nomem(c->s->b.ctx);
}

rmg_status rmg__connect_reach_both(rmg__connect_state *s, int za, uint32_t ga, int zb, uint32_t gb, bool *ok)
{
    *ok = false;
    if (!rmg__connect_reach(s, za, ga, NULL, 0))
        return RMG_OK;
    commit_user c = {s, za, RMG_OK};
    s->path.count = 0;
    rmg__grid_trace(&s->b, ga, keep_tile, &c);
    if (c.st != RMG_OK || !rmg__connect_reach(s, zb, gb, NULL, 0))
        return c.st;
    rmg_status st = rmg__connect_commit(s, zb, gb);
    for (size_t i = 0; i < s->path.count && st == RMG_OK; i++)
        st = rmg__connect_add_free(s, za, s->path.items[i]);
    *ok = st == RMG_OK;
    return st;
}

void rmg__connect_mark_around(rmg__connect_state *s, uint32_t t, int r, uint8_t bits)
{
    int x0 = rmg__grid_x(&s->b, t), y0 = rmg__grid_y(&s->b, t), z = rmg__grid_z(&s->b, t);
    for (int y = RMG__MAX(0, y0 - r); y <= RMG__MIN(s->b.h - 1, y0 + r); y++)
        for (int x = RMG__MAX(0, x0 - r); x <= RMG__MIN(s->b.w - 1, x0 + r); x++)
            s->b.mark[rmg__tile(s->b.w, s->b.h, x, y, z)] |= bits;
}

typedef struct start_user {
    int zone;
} start_user;

static bool any_tile(const rmg__grid *b, uint32_t t, void *user)
{
    (void)b;
    (void)t;
    (void)user;
    return true;
}

static bool zone_interior(const rmg__grid *b, uint32_t t, void *user)
{
    const start_user *u = user;
    return b->m->tile_zone[t] == u->zone && !(b->m->flags[t] & (RMG__T_BLOCKED | RMG__T_BORDER));
}

/* The skeleton root: the zone's open tile nearest to its centre. */
static rmg_status root_skeletons(rmg__connect_state *s)
{
    struct rmg_map *m = s->b.m;
    for (size_t i = 0; i < m->zones.count; i++) {
        int zone = (int)i + 1;
        s->start[i] = RMG__NO_TILE;
        if (!rmg__grid_land_zone(&s->b, zone))
            continue;
        uint32_t centre = rmg__grid_zone_centre(&s->b, zone);
        start_user u = {zone};
        uint32_t found = rmg__grid_bfs(&s->b, &centre, 1, any_tile, zone_interior, &u);
        if (!found) {
            rmg_status st = rmg__map_warn(m, "zone %d (template zone %d) has no open interior tile", zone,
                                          m->zones.items[i].tpl_id);
            if (st != RMG_OK)
                return st;
            continue;
        }
        s->start[i] = found - 1;
        rmg_status st = rmg__connect_add_free(s, zone, found - 1);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- driver ---------------------------------------------------------------------------------- */

static void state_free(rmg__connect_state *s)
{
    rmg_context *ctx = s->b.ctx;
    if (s->zfree)
        for (size_t i = 0; i < s->b.m->zones.count; i++)
            RMG__VEC_FREE(ctx, &s->zfree[i]);
    rmg__free(ctx, s->zfree);
    rmg__free(ctx, s->start);
    rmg__free(ctx, s->color_used);
    rmg__free(ctx, s->sea_of);
    RMG__VEC_FREE(ctx, &s->scratch);
    RMG__VEC_FREE(ctx, &s->repel);
    RMG__VEC_FREE(ctx, &s->path);
    rmg__grid_zone_index_free(&s->b, &s->zi);
    rmg__grid_free(&s->b);
}

static rmg_status state_init(rmg__connect_state *s, rmg__gen *g)
{
    memset(s, 0, sizeof *s);
    rmg_status st = rmg__grid_init(&s->b, g);
    if (st != RMG_OK)
        return st;
    size_t nz = g->map->zones.count ? g->map->zones.count : 1;
    rmg__teleport_colors(&s->n_colors);
    s->zfree = rmg__calloc(g->ctx, nz, sizeof *s->zfree);
    s->start = rmg__calloc(g->ctx, nz, sizeof *s->start);
    s->color_used = rmg__calloc(g->ctx, s->n_colors, 1);
    if (!s->zfree || !s->start || !s->color_used) {
        state_free(s);
        return rmg__error_nomem(g->ctx);
    }
    rmg__connect_drop_absent_colors(s);
    if ((st = rmg__grid_index_zones(&s->b, &s->zi)) != RMG_OK)
        state_free(s);
    return st;
}

rmg_status rmg__stage_connect(rmg__gen *g)
{
    if (!g || !g->map || !g->tpl)
        return rmg__error_set(g ? g->ctx : NULL, RMG_ERR_INVALID_ARG, "connect: no map or template");
    rmg__connect_state s;
    rmg_status st = state_init(&s, g);
    if (st != RMG_OK)
        return st;
    bool mirror = g->pack && g->pack->mirror && g->map->levels > 1;
    paint_zone_terrains(&s);
    st = smooth_terrain(&s, mirror);
    if (st != RMG_OK) {
        state_free(&s);
        return st;
    }
    seal_borders(&s);
    st = rmg__connect_seas(&s);
    if (st == RMG_OK)
        st = root_skeletons(&s);
    size_t mirror_links = 0;
    if (st == RMG_OK)
        st = rmg__connect_mirror_reserve(&s, &mirror_links);
    if (st == RMG_OK)
        st = rmg__connect_links(&s);
    if (st == RMG_OK)
        st = rmg__connect_water_travel(&s);
    if (st == RMG_OK && mirror)
        st = rmg__connect_mirror_copy(&s);
    if (st == RMG_OK && mirror && mirror_links)
        st = rmg__connect_mirror_links(&s);
    if (st == RMG_OK)
        st = rmg__connect_warn_apart(&s);
    state_free(&s);
    return st;
}
