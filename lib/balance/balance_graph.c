/*
 * The movement graph of a finished map, as the game moves a hero (docs/balance.md). Where a hero
 * may step, visit, teleport, board and sail is the library's one movement model
 * (lib/map/map_reach.h, the validator's): this file turns its steps into moves with costs.
 * Nodes are tiles (a hero on a water tile is in a boat) plus one arrival node per teleport entry;
 * every fight is won and every Border Guard opens (the report does not track keys), and the boat
 * of every shipyard waits where the game builds it.
 */
#include <string.h>

#include "balance_internal.h"

/* Movement points of a straight step between two road tiles, by road type (the game's manual:
 * dirt 75%, gravel 65%, cobblestone 50% of a step on grass). */
static const uint16_t ROAD_COST[4] = {0, 75, 65, 50};
/* Terrain costs when the ruleset lacks a terrain (terrains.tsv move_cost, by terrain id). */
static const uint16_t TERRAIN_COST[RMG_TERRAIN_COUNT] = {100, 150, 100, 150, 175, 125, 100, 100, 100, 100, 100, 125};

/* Neighbour offsets by direction: the 4 straight ones, then the 4 diagonals; OPPOSITE[d] is the
 * direction back. */
static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const uint8_t OPPOSITE[8] = {1, 0, 3, 2, 7, 6, 5, 4};

/* ---- tiles ----------------------------------------------------------------------------------- */

static uint16_t terrain_cost(const struct rmg_content *c, int terrain)
{
    long i = c ? rmg__content_find_terrain_id(c, terrain) : -1;
    if (i >= 0 && c->terrains[i].move_cost > 0)
        return (uint16_t)c->terrains[i].move_cost;
    return terrain >= 0 && terrain < RMG_TERRAIN_COUNT ? TERRAIN_COST[terrain] : 100;
}

/* Each tile's cost and what the model lets a hero do there: stand on open land, sail open water,
 * stand on the entry of an object he visits (in a boat on a water entry or a Boat), jump from
 * the entry of a teleport that leads somewhere; and where a shipyard's boat waits. */
static void classify_tiles(rmg__balance_graph *g, const uint32_t *dests)
{
    const struct rmg_map *m = g->map;
    const rmg__reach *r = &g->reach;
    uint16_t costs[256];
    for (int i = 0; i < 256; i++)
        costs[i] = terrain_cost(g->content, i);
    for (size_t t = 0; t < g->n_tiles; t++) {
        g->cost[t] = costs[m->terrain[t]];
        uint8_t c = r->cell[t];
        g->kind[t] = c & RMG__CELL_ENTRY ? 0 : c & RMG__CELL_SEA ? RMG__BAL_WATER : c & RMG__CELL_LAND ? RMG__BAL_LAND : 0;
    }
    /* An entry is the visit of the object the map records on it, as the flood steps onto it. */
    for (size_t t = 0; t < g->n_tiles; t++) {
        uint32_t id = m->tile_object[t];
        if (!(r->cell[t] & RMG__CELL_ENTRY) || !id || id > r->n_objects)
            continue;
        uint32_t o = id - 1;
        bool sea = (r->cell[t] & RMG__CELL_WATER) != 0;
        switch (rmg__reach_stands(r, o, sea)) {
        case RMG__STEP_FOOT: g->kind[t] |= RMG__BAL_LAND; break;
        case RMG__STEP_BOAT: g->kind[t] |= RMG__BAL_WATER; break;
        case RMG__STEP_VISIT:
            if (dests[o])
                g->kind[t] |= (sea ? RMG__BAL_WATER : RMG__BAL_LAND) | RMG__BAL_PORTAL;
            break;
        case RMG__STEP_NONE: break;
        }
        if (r->beh[o] == RMG__BEH_BOAT)
            g->kind[t] |= RMG__BAL_BOAT;
        if (r->beh[o] == RMG__BEH_SHIPYARD) {
            uint32_t spot = rmg__map_boat_spot(m, (uint32_t)t);
            if (spot != UINT32_MAX)
                g->kind[spot] |= RMG__BAL_BOAT;
        }
    }
}

/* ---- teleports ------------------------------------------------------------------------------ */

/* The node a hero arriving on tile t stands on. */
static uint32_t arrival_node(const rmg__balance_graph *g, uint32_t t)
{
    return g->portal_of[t] ? (uint32_t)g->n_tiles + g->portal_of[t] - 1 : t;
}

/* Whether the jump from portal p to node v has a jump back. */
static bool jumps_back(const rmg__balance_graph *g, uint32_t p, uint32_t v)
{
    uint32_t t = rmg__balance_node_tile(g, v), back = g->portal_of[t];
    if (!back)
        return false;
    uint32_t home = (uint32_t)g->n_tiles + p;
    for (uint32_t i = g->dest_start[back - 1]; i < g->dest_start[back]; i++)
        if (g->dest[i] == home)
            return true;
    return false;
}

/* Entries of teleport o that are portals (it leads somewhere and the entry is its own). */
static size_t portal_entries(const rmg__balance_graph *g, uint32_t o, const uint32_t *dests, uint32_t *out)
{
    const rmg__reach *r = &g->reach;
    size_t n = 0;
    if (!dests[o] || rmg__reach_stands(r, o, false) != RMG__STEP_VISIT)
        return 0;
    for (uint32_t k = 0; k < r->n_entries[o]; k++) {
        uint32_t e = r->entries[r->first_entry[o] + k];
        if (g->map->tile_object[e] == o + 1)
            out[n++] = e;
    }
    return n;
}

/* Portals: the entries of every teleport that leads somewhere, numbered in object order; each
 * jumps to every entry of every destination (the game draws one; the report takes the best). */
static rmg_status build_teleports(rmg__balance_graph *g, rmg_context *ctx, uint32_t *dests, uint32_t *scratch)
{
    const rmg__reach *r = &g->reach;
    size_t n_dests = 0;
    uint32_t tiles[RMG__FOOTPRINT_CELLS];
    for (uint32_t o = 0; o < r->n_objects; o++) {
        size_t k = portal_entries(g, o, dests, tiles), to_entries = 0;
        if (!k)
            continue;
        size_t nd = rmg__reach_destinations(r, o, scratch);
        for (size_t i = 0; i < nd; i++)
            to_entries += r->n_entries[scratch[i]];
        for (size_t j = 0; j < k; j++)
            if (!g->portal_of[tiles[j]]) {
                g->portal_of[tiles[j]] = (uint32_t)++g->n_portals;
                n_dests += to_entries;
            }
    }
    g->portal_tile = rmg__malloc(ctx, (g->n_portals + 1) * sizeof *g->portal_tile);
    g->dest_start = rmg__calloc(ctx, g->n_portals + 1, sizeof *g->dest_start);
    g->dest = rmg__calloc(ctx, n_dests + 1, sizeof *g->dest);
    if (!g->portal_tile || !g->dest_start || !g->dest)
        return rmg__error_nomem(ctx);
    size_t fill = 0;
    for (uint32_t o = 0; o < r->n_objects; o++) {
        size_t k = portal_entries(g, o, dests, tiles);
        size_t nd = k ? rmg__reach_destinations(r, o, scratch) : 0;
        for (size_t j = 0; j < k; j++) {
            uint32_t p = g->portal_of[tiles[j]] - 1;
            g->portal_tile[p] = tiles[j];
            g->dest_start[p] = (uint32_t)fill;
            for (size_t i = 0; i < nd; i++)
                for (uint32_t e = 0; e < r->n_entries[scratch[i]]; e++)
                    g->dest[fill++] = arrival_node(g, r->entries[r->first_entry[scratch[i]] + e]);
            if (fill - g->dest_start[p] > g->max_dests)
                g->max_dests = fill - g->dest_start[p];
        }
    }
    g->dest_start[g->n_portals] = (uint32_t)fill;
    g->n_nodes = g->n_tiles + g->n_portals;
    return RMG_OK;
}

/* ---- guards ---------------------------------------------------------------------------------- */

/* The mean AI value and stack size of creatures of a level (0: every level), for guards a file
 * leaves random. */
static void level_means(const struct rmg_content *c, int level, int64_t *ai, int64_t *count)
{
    int64_t sum_ai = 0, sum_count = 0, n = 0;
    for (size_t i = 0; c && i < c->n_creatures; i++) {
        const rmg__creature *cr = &c->creatures[i];
        if (cr->special || (level && cr->level != level))
            continue;
        sum_ai += cr->ai_value;
        sum_count += (cr->map_min + cr->map_max) / 2;
        n++;
    }
    *ai = n ? sum_ai / n : 0;
    *count = n ? sum_count / n : 0;
}

/* AI value of a monster stack: the creature's AI value times the count. A random monster of a
 * file (class 71..75, 162..164) counts with its level's means. */
static int64_t guard_value(const rmg__balance_graph *g, const rmg__map_object *o)
{
    const struct rmg_content *c = g->content;
    if (c && o->creature >= 0 && (size_t)o->creature < c->n_creatures)
        return (int64_t)c->creatures[o->creature].ai_value * (o->count > 0 ? o->count : 1);
    int cls = -1, sub = -1, level = 0;
    rmg__map_file_class(o->key, &cls, &sub);
    if (cls >= 71 && cls <= 75)
        level = cls - 71; /* 71: any level */
    else if (cls >= 162 && cls <= 164)
        level = cls - 157;
    int64_t ai, count;
    level_means(c, level, &ai, &count);
    return ai * (o->count > 0 ? o->count : count);
}

/* Tiles of guard k's zone of control: its tile and the 8 around it on its level. */
static size_t zoc_tiles(const rmg__balance_graph *g, uint32_t tile, uint32_t out[9])
{
    size_t plane = (size_t)g->w * (size_t)g->h, n = 0;
    int x = (int)(tile % plane % (size_t)g->w), y = (int)(tile % plane / (size_t)g->w);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (x + dx >= 0 && y + dy >= 0 && x + dx < g->w && y + dy < g->h)
                out[n++] = (uint32_t)((int64_t)tile + dy * g->w + dx);
    return n;
}

static rmg_status build_guards(rmg__balance_graph *g, rmg_context *ctx)
{
    const struct rmg_map *m = g->map;
    const rmg__reach *r = &g->reach;
    size_t n = 0;
    for (size_t i = 0; i < m->objects.count; i++)
        n += r->beh[i] == RMG__BEH_MONSTER;
    g->guard_tile = rmg__malloc(ctx, (n + 1) * sizeof *g->guard_tile);
    g->guard_value = rmg__malloc(ctx, (n + 1) * sizeof *g->guard_value);
    g->zoc_start = rmg__calloc(ctx, g->n_tiles + 1, sizeof *g->zoc_start);
    g->zoc_guard = rmg__malloc(ctx, (9 * n + 1) * sizeof *g->zoc_guard);
    if (!g->guard_tile || !g->guard_value || !g->zoc_start || !g->zoc_guard)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (r->beh[i] != RMG__BEH_MONSTER || o->x < 0 || o->y < 0 || o->x >= g->w || o->y >= g->h)
            continue;
        g->guard_tile[g->n_guards] = (uint32_t)rmg__tile(g->w, g->h, o->x, o->y, o->z);
        g->guard_value[g->n_guards++] = guard_value(g, o);
    }
    /* Zones of control as lists per tile: count, then place. */
    uint32_t tiles[9];
    for (size_t k = 0; k < g->n_guards; k++)
        for (size_t j = 0, c = zoc_tiles(g, g->guard_tile[k], tiles); j < c; j++)
            g->zoc_start[tiles[j] + 1]++;
    for (size_t t = 0; t < g->n_tiles; t++) {
        g->zoc_start[t + 1] += g->zoc_start[t];
        if (g->zoc_start[t + 1] != g->zoc_start[t])
            g->kind[t] |= RMG__BAL_GUARDED;
    }
    uint32_t *fill = rmg__malloc(ctx, (g->n_tiles + 1) * sizeof *fill);
    if (!fill)
        return rmg__error_nomem(ctx);
    memcpy(fill, g->zoc_start, (g->n_tiles + 1) * sizeof *fill);
    for (size_t k = 0; k < g->n_guards; k++)
        for (size_t j = 0, c = zoc_tiles(g, g->guard_tile[k], tiles); j < c; j++)
            g->zoc_guard[fill[tiles[j]]++] = (uint32_t)k;
    rmg__free(ctx, fill);
    return RMG_OK;
}

size_t rmg__balance_zoc_tiles(const rmg__balance_graph *g, size_t guard, uint32_t out[9])
{
    return zoc_tiles(g, g->guard_tile[guard], out);
}

/* ---- moves ----------------------------------------------------------------------------------- */

uint16_t rmg__balance_step(const rmg__balance_graph *g, uint32_t from, uint32_t to)
{
    size_t plane = (size_t)g->w * (size_t)g->h;
    bool diagonal = from % plane % (size_t)g->w != to % plane % (size_t)g->w &&
                    from % plane / (size_t)g->w != to % plane / (size_t)g->w;
    return rmg__balance_step_dir(g, from, to, diagonal);
}

/* The move from tile t (in a boat when `boat`) to its neighbour u by the model's rules: 1 a walk
 * (or a sail, or a step into a portal), 2 boarding or leaving a boat, 0 none. */
static unsigned move_to(const rmg__balance_graph *g, uint32_t u, int dy, bool boat)
{
    uint32_t o = 0;
    rmg__reach_step_kind k = rmg__reach_step(&g->reach, u, dy, boat, (g->kind[u] & RMG__BAL_BOAT) != 0, false, &o);
    if (k == RMG__STEP_VISIT) {
        k = rmg__reach_stands(&g->reach, o, boat);
        if (k == RMG__STEP_VISIT)
            return g->kind[u] & RMG__BAL_PORTAL ? 1 : 0;
    }
    if (k == RMG__STEP_NONE)
        return 0;
    return (k == RMG__STEP_BOAT) == boat ? 1 : 2;
}

/* Per tile, the directions of its moves: walking (or sailing) in the low byte, boarding or
 * leaving a boat in the high byte. Computed once the kinds are final. */
static void compute_directions(rmg__balance_graph *g)
{
    for (int d = 0; d < 8; d++)
        g->offset[d] = DY[d] * g->w + DX[d];
    for (int z = 0; z < g->levels; z++)
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++) {
                size_t t = rmg__tile(g->w, g->h, x, y, z);
                uint8_t here = g->kind[t];
                g->dirs[t] = 0;
                if (!(here & (RMG__BAL_LAND | RMG__BAL_WATER)))
                    continue;
                bool boat = (here & RMG__BAL_WATER) != 0;
                bool inside = x > 0 && y > 0 && x + 1 < g->w && y + 1 < g->h;
                uint16_t mask = 0;
                for (int d = 0; d < 8; d++) {
                    if (!inside && (x + DX[d] < 0 || y + DY[d] < 0 || x + DX[d] >= g->w || y + DY[d] >= g->h))
                        continue;
                    unsigned how = move_to(g, (uint32_t)((int64_t)t + g->offset[d]), DY[d], boat);
                    if (how)
                        mask |= (uint16_t)((how == 1 ? 1u : 0x100u) << d);
                }
                g->dirs[t] = mask;
            }
}

/* Every move can be made back: each step has the step back of the same kind (an object entered
 * from the sides only, a boat boarded at its place only, make it one way), each jump a jump back. */
static bool moves_symmetric(const rmg__balance_graph *g)
{
    for (size_t t = 0; t < g->n_tiles; t++) {
        unsigned mask = g->dirs[t];
        for (unsigned d = 0; d < 8; d++) {
            unsigned bits = mask >> d & 0x101u;
            if (bits && (g->dirs[(int64_t)t + g->offset[d]] >> OPPOSITE[d] & 0x101u) != bits)
                return false;
        }
    }
    for (uint32_t p = 0; p < g->n_portals; p++)
        for (uint32_t i = g->dest_start[p]; i < g->dest_start[p + 1]; i++)
            if (!jumps_back(g, p, g->dest[i]))
                return false;
    return true;
}

/* ---- the graph ------------------------------------------------------------------------------- */

rmg_status rmg__balance_graph_build(rmg__balance_graph *g, const struct rmg_map *m, rmg_context *ctx)
{
    memset(g, 0, sizeof *g);
    g->map = m;
    g->content = rmg__content_get(ctx);
    g->w = m->width;
    g->h = m->height;
    g->levels = m->levels;
    g->n_tiles = m->n_tiles;
    g->n_nodes = m->n_tiles;
    memcpy(g->road_cost, ROAD_COST, sizeof ROAD_COST);
    rmg_status st = rmg__reach_init(&g->reach, m, g->content, ctx);
    if (st != RMG_OK)
        return st;
    g->has_reach = true;
    size_t n_obj = g->reach.n_objects + 1;
    g->kind = rmg__calloc(ctx, g->n_tiles, 1);
    g->cost = rmg__calloc(ctx, g->n_tiles, sizeof *g->cost);
    g->portal_of = rmg__calloc(ctx, g->n_tiles, sizeof *g->portal_of);
    g->dirs = rmg__calloc(ctx, g->n_tiles, sizeof *g->dirs);
    uint32_t *dests = rmg__calloc(ctx, n_obj, sizeof *dests), *scratch = rmg__malloc(ctx, n_obj * sizeof *scratch);
    if (!g->kind || !g->cost || !g->portal_of || !g->dirs || !dests || !scratch)
        st = rmg__error_nomem(ctx);
    /* How many objects each teleport leads to: a teleport that leads nowhere is not entered. */
    for (uint32_t o = 0; st == RMG_OK && o < g->reach.n_objects; o++)
        if (rmg__reach_stands(&g->reach, o, false) == RMG__STEP_VISIT)
            dests[o] = (uint32_t)rmg__reach_destinations(&g->reach, o, scratch);
    if (st == RMG_OK) {
        classify_tiles(g, dests);
        st = build_teleports(g, ctx, dests, scratch);
    }
    rmg__free(ctx, dests);
    rmg__free(ctx, scratch);
    if (st == RMG_OK) {
        compute_directions(g);
        g->steps_symmetric = moves_symmetric(g);
        st = build_guards(g, ctx);
    }
    if (st == RMG_OK)
        st = rmg__balance_valued_build(g, ctx);
    return st;
}

void rmg__balance_graph_free(rmg__balance_graph *g, rmg_context *ctx)
{
    void *blocks[] = {g->kind,        g->cost,        g->dirs,        g->portal_of, g->portal_tile, g->dest_start, g->dest,
                      g->guard_tile,  g->guard_value, g->zoc_start, g->zoc_guard,   g->valued,
                      g->valued_entry, g->mine_near};
    for (size_t i = 0; i < RMG__ARRAY_LEN(blocks); i++)
        rmg__free(ctx, blocks[i]);
    if (g->has_reach)
        rmg__reach_free(&g->reach);
    memset(g, 0, sizeof *g);
}
