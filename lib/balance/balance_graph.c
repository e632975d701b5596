/*
 * The movement graph of a finished map, as the game moves a hero (docs/balance.md):
 * 8 neighbours on one level; land where the game lets a hero stand (guards, Border Guards, town
 * gates, teleport entrances and the entries of pickups too: the report passes guards and counts
 * them, a pickup leaves the map when taken); water by boat only, boarded beside a shipyard, a
 * coastal town or at a boat; teleports to every exit of their colour.
 */
#include <string.h>

#include "balance_internal.h"

/* Movement points of a straight step between two road tiles, by road type (the game's manual:
 * dirt 75%, gravel 65%, cobblestone 50% of a step on grass). */
static const uint16_t ROAD_COST[4] = {0, 75, 65, 50};
/* Terrain costs when the ruleset lacks a terrain (terrains.tsv move_cost, by terrain id). */
static const uint16_t TERRAIN_COST[RMG_TERRAIN_COUNT] = {100, 150, 100, 150, 175, 125, 100, 100, 100, 100, 100, 125};

/* ---- teleports ------------------------------------------------------------------------------ */

typedef enum teleport_kind { TP_NONE, TP_TWO_WAY, TP_ENTRANCE, TP_EXIT, TP_GATE } teleport_kind;

static bool key_starts(const char *key, const char *prefix)
{
    return key && strncmp(key, prefix, strlen(prefix)) == 0;
}

/* The H3M class of an object read from a file whose class the ruleset does not know
 * ("h3m_<class>_<subclass>"), -1 otherwise. */
static int unknown_class(const char *key)
{
    int cls = 0;
    if (!key_starts(key, "h3m_"))
        return -1;
    for (const char *p = key + 4; *p >= '0' && *p <= '9'; p++)
        cls = cls * 10 + (*p - '0');
    return cls;
}

static teleport_kind teleport_of(const rmg__map_object *o)
{
    int cls = unknown_class(o->key);
    if (key_starts(o->key, "monolith_two_way") || cls == 45)
        return TP_TWO_WAY;
    if (key_starts(o->key, "monolith_one_way_entrance") || cls == 43)
        return TP_ENTRANCE;
    if (key_starts(o->key, "monolith_one_way_exit") || cls == 44)
        return TP_EXIT;
    if (key_starts(o->key, "subterranean_gate") || cls == 103)
        return TP_GATE;
    return TP_NONE;
}

typedef struct teleport {
    uint32_t object;               /* index */
    teleport_kind kind;
    int color;
    size_t dests;                  /* entry tiles it leads to */
} teleport;

typedef struct teleports {
    teleport *items;
    size_t count;
} teleports;

static bool has_kind(const teleports *tp, teleport_kind kind, int color, uint32_t except)
{
    for (size_t i = 0; i < tp->count; i++)
        if (tp->items[i].kind == kind && tp->items[i].color == color && tp->items[i].object != except)
            return true;
    return false;
}

/* The gate on another level nearest to gate a (its own link first, as generated maps pair them). */
static long paired_gate(const struct rmg_map *m, const teleports *tp, const teleport *a)
{
    const rmg__map_object *o = &m->objects.items[a->object];
    if (o->link && o->link <= m->objects.count && teleport_of(&m->objects.items[o->link - 1]) == TP_GATE)
        return (long)o->link - 1;
    long best = -1;
    long best_d = 0;
    for (size_t i = 0; i < tp->count; i++) {
        const rmg__map_object *q = &m->objects.items[tp->items[i].object];
        if (tp->items[i].kind != TP_GATE || q->z == o->z)
            continue;
        long dx = q->x - o->x, dy = q->y - o->y, d = dx * dx + dy * dy;
        if (best < 0 || d < best_d) {
            best = (long)tp->items[i].object;
            best_d = d;
        }
    }
    return best;
}

/* Whether a hero entering teleport a comes out of teleport b (the game's rules: a two-way
 * monolith leads to the others of its colour, a one-way entrance to the exits of its colour, or,
 * when the colour has none, to its other entrances; a gate to its pair). */
static bool leads_to(const struct rmg_map *m, const teleports *tp, const teleport *a, const teleport *b)
{
    if (a->object == b->object)
        return false;
    switch (a->kind) {
    case TP_TWO_WAY:
        return b->kind == TP_TWO_WAY && b->color == a->color;
    case TP_ENTRANCE:
        if (b->color != a->color)
            return false;
        return b->kind == TP_EXIT || (b->kind == TP_ENTRANCE && !has_kind(tp, TP_EXIT, a->color, UINT32_MAX));
    case TP_GATE:
        return b->kind == TP_GATE && paired_gate(m, tp, a) == (long)b->object;
    default:
        return false;
    }
}

static rmg_status collect_teleports(const struct rmg_map *m, rmg_context *ctx, teleports *tp)
{
    tp->count = 0;
    tp->items = rmg__calloc(ctx, m->objects.count + 1, sizeof *tp->items);
    if (!tp->items)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        teleport_kind k = o->kind == RMG_OBJECT_OBSTACLE ? TP_NONE : teleport_of(o);
        if (k != TP_NONE)
            tp->items[tp->count++] = (teleport){(uint32_t)i, k, o->color, 0};
    }
    return RMG_OK;
}

/* Entry tiles of object index i. */
static size_t entries_of(const struct rmg_map *m, size_t i, uint32_t *buf, size_t cap)
{
    return rmg__object_tiles(m, &m->objects.items[i], m->objects.items[i].visit, buf, cap);
}

/* Entry tiles of the teleports a hero entering teleport a may come out of. */
static size_t destination_tiles(const struct rmg_map *m, const teleports *tp, const teleport *a)
{
    size_t n = 0;
    for (size_t b = 0; b < tp->count; b++)
        if (leads_to(m, tp, a, &tp->items[b]))
            n += entries_of(m, tp->items[b].object, NULL, 0);
    return n;
}

/* Numbers the entry tiles of every teleport that leads somewhere as portals, in the order of the
 * teleports, and counts their destinations. */
static size_t number_portals(rmg__balance_graph *g, teleports *tp, size_t *n_dests)
{
    const struct rmg_map *m = g->map;
    size_t n = 0;
    *n_dests = 0;
    for (size_t a = 0; a < tp->count; a++) {
        teleport *ta = &tp->items[a];
        ta->dests = destination_tiles(m, tp, ta);
        uint32_t tiles[48];
        size_t k = ta->dests ? entries_of(m, ta->object, tiles, 48) : 0;
        for (size_t j = 0; j < k && j < 48; j++)
            if (!g->portal_of[tiles[j]]) {
                g->portal_of[tiles[j]] = (uint32_t)++n;
                *n_dests += ta->dests;
            }
    }
    return n;
}

/* The node a hero arriving on tile t stands on. */
static uint32_t arrival_node(const rmg__balance_graph *g, uint32_t t)
{
    return g->portal_of[t] ? (uint32_t)g->n_tiles + g->portal_of[t] - 1 : t;
}

/* Fills the destinations of portal p (entry tile t of teleport a). */
static size_t fill_portal(rmg__balance_graph *g, const teleports *tp, const teleport *a, uint32_t p, uint32_t t,
                          size_t fill)
{
    g->portal_tile[p] = t;
    g->dest_start[p] = (uint32_t)fill;
    size_t first = fill;
    for (size_t b = 0; b < tp->count; b++) {
        if (!leads_to(g->map, tp, a, &tp->items[b]))
            continue;
        uint32_t out[48];
        size_t n = entries_of(g->map, tp->items[b].object, out, 48);
        for (size_t e = 0; e < n && e < 48; e++)
            g->dest[fill++] = arrival_node(g, out[e]);
    }
    if (fill - first > g->max_dests)
        g->max_dests = fill - first;
    return fill;
}

static void fill_destinations(rmg__balance_graph *g, const teleports *tp)
{
    size_t fill = 0;
    /* The order number_portals gave the portals. */
    for (size_t a = 0; a < tp->count; a++) {
        const teleport *ta = &tp->items[a];
        uint32_t tiles[48];
        size_t k = ta->dests ? entries_of(g->map, ta->object, tiles, 48) : 0;
        for (size_t j = 0; j < k && j < 48; j++) {
            uint32_t p = g->portal_of[tiles[j]];
            if (p && g->portal_tile[p - 1] == UINT32_MAX)
                fill = fill_portal(g, tp, ta, p - 1, tiles[j], fill);
        }
    }
    g->dest_start[g->n_portals] = (uint32_t)fill;
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

/* Walks are the same both ways unless a jump has no way back or a boat waits somewhere (boats are
 * boarded at their places only, and left anywhere). */
static bool moves_symmetric(const rmg__balance_graph *g)
{
    for (size_t t = 0; t < g->n_tiles; t++)
        if (g->kind[t] & RMG__BAL_BOAT)
            return false;
    for (uint32_t p = 0; p < g->n_portals; p++)
        for (uint32_t i = g->dest_start[p]; i < g->dest_start[p + 1]; i++)
            if (!jumps_back(g, p, g->dest[i]))
                return false;
    return true;
}

static rmg_status build_teleports(rmg__balance_graph *g, rmg_context *ctx)
{
    teleports tp = {0};
    rmg_status st = collect_teleports(g->map, ctx, &tp);
    size_t n_dests = 0;
    if (st == RMG_OK) {
        g->n_portals = number_portals(g, &tp, &n_dests);
        g->portal_tile = rmg__malloc(ctx, (g->n_portals + 1) * sizeof *g->portal_tile);
        g->dest_start = rmg__calloc(ctx, g->n_portals + 1, sizeof *g->dest_start);
        g->dest = rmg__calloc(ctx, n_dests + 1, sizeof *g->dest);
        if (!g->portal_tile || !g->dest_start || !g->dest)
            st = rmg__error_nomem(ctx);
    }
    if (st == RMG_OK) {
        memset(g->portal_tile, 0xFF, (g->n_portals + 1) * sizeof *g->portal_tile);
        fill_destinations(g, &tp);
        for (size_t p = 0; p < g->n_portals; p++)
            g->kind[g->portal_tile[p]] |= RMG__BAL_LAND | RMG__BAL_PORTAL;
        g->n_nodes = g->n_tiles + g->n_portals;
    }
    rmg__free(ctx, tp.items);
    return st;
}

/* ---- tiles ----------------------------------------------------------------------------------- */

static uint16_t terrain_cost(const struct rmg_content *c, int terrain)
{
    long i = c ? rmg__content_find_terrain_id(c, terrain) : -1;
    if (i >= 0 && c->terrains[i].move_cost > 0)
        return (uint16_t)c->terrains[i].move_cost;
    return terrain >= 0 && terrain < RMG_TERRAIN_COUNT ? TERRAIN_COST[terrain] : 100;
}

static void classify_tiles(rmg__balance_graph *g)
{
    const struct rmg_map *m = g->map;
    uint16_t costs[256];
    for (int i = 0; i < 256; i++)
        costs[i] = terrain_cost(g->content, i);
    for (size_t t = 0; t < g->n_tiles; t++) {
        g->cost[t] = costs[m->terrain[t]];
        uint16_t f = m->flags[t];
        g->kind[t] = f & RMG__T_WATER ? RMG__BAL_WATER : f & RMG__T_ROCK ? 0 : RMG__BAL_LAND;
    }
    /* The game's passability (rmg__map_tile_passable): the object recorded on a tile closes it
     * when its blocked mask covers it. Object by object, so the objects are read in order. */
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        for (uint64_t bits = o->block; bits; bits &= bits - 1) {
            int bit = __builtin_ctzll(bits), x = o->x - (7 - bit % 8), y = o->y - (5 - bit / 8);
            if (x < 0 || y < 0 || x >= g->w || y >= g->h)
                continue;
            size_t t = rmg__tile(g->w, g->h, x, y, o->z);
            if (m->tile_object[t] == o->id)
                g->kind[t] = 0;
        }
    }
}

typedef struct mark_ctx {
    rmg__balance_graph *g;
    int z;
    uint8_t bits;
    bool around;                   /* mark the water around each tile instead of the tile */
} mark_ctx;

static void mark_tile(void *user, int x, int y)
{
    mark_ctx *mc = user;
    rmg__balance_graph *g = mc->g;
    for (int dy = mc->around ? -1 : 0; dy <= (mc->around ? 1 : 0); dy++)
        for (int dx = mc->around ? -1 : 0; dx <= (mc->around ? 1 : 0); dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
                continue;
            size_t t = rmg__tile(g->w, g->h, nx, ny, mc->z);
            if (!mc->around || (g->kind[t] & RMG__BAL_WATER))
                g->kind[t] |= mc->bits;
        }
}

static bool is_boat(const rmg__map_object *o)
{
    return key_starts(o->key, "boat") || unknown_class(o->key) == 8;
}

/* The H3M class of an object: the ruleset's row for its key, else the class a file's key names. */
static int class_of(const rmg__balance_graph *g, const rmg__map_object *o)
{
    const struct rmg_content *c = g->content;
    long i = c && o->key ? rmg__content_find_object(c, o->key) : -1;
    if (i >= 0)
        return c->objects[i].map_class;
    i = c && o->key ? rmg__content_find_map_object(c, o->key) : -1;
    return i >= 0 ? c->map_objects[i].map_class : unknown_class(o->key);
}

/* Objects a visit takes off the map (pickups: artifacts, resources, chests, campfires, scrolls,
 * Pandora's boxes, prisons, scholars, flotsam...): a hero walks on over their entry tile. */
static bool taken_when_visited(int cls)
{
    static const int classes[] = {5, 6, 12, 29, 62, 65, 66, 67, 68, 69, 76, 79, 81, 82, 86, 93, 101};
    for (size_t i = 0; i < RMG__ARRAY_LEN(classes); i++)
        if (classes[i] == cls)
            return true;
    return false;
}

/* Entries a hero walks onto whatever the template's passability says (the report passes guards
 * and gates), and the water where boats wait (beside shipyards and towns, and under boats). */
static void mark_objects(rmg__balance_graph *g)
{
    const struct rmg_map *m = g->map;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        mark_ctx mc = {g, o->z, RMG__BAL_LAND, false};
        switch (o->kind) {
        case RMG_OBJECT_MONSTER:
        case RMG_OBJECT_BORDER_GUARD:
            rmg__footprint_tiles(o->visit, o->x, o->y, mark_tile, &mc);
            break;
        case RMG_OBJECT_TOWN:
            /* A town by the sea may build a shipyard: its boats wait beside it. */
            rmg__footprint_tiles(o->visit, o->x, o->y, mark_tile, &mc);
            mc.bits = RMG__BAL_BOAT;
            mc.around = true;
            rmg__footprint_tiles(o->block | o->visit, o->x, o->y, mark_tile, &mc);
            break;
        case RMG_OBJECT_SHIPYARD:
            mc.bits = RMG__BAL_BOAT;
            mc.around = true;
            rmg__footprint_tiles(o->block | o->visit, o->x, o->y, mark_tile, &mc);
            break;
        case RMG_OBJECT_OBSTACLE:
            break;
        default:
            if (teleport_of(o) != TP_NONE || taken_when_visited(class_of(g, o))) {
                rmg__footprint_tiles(o->visit, o->x, o->y, mark_tile, &mc);
            } else if (is_boat(o)) {
                mc.bits = RMG__BAL_WATER | RMG__BAL_BOAT;
                rmg__footprint_tiles(o->visit, o->x, o->y, mark_tile, &mc);
            }
            break;
        }
    }
    /* Land marks never turn water or rock into land: a guard on water stays a sea guard. */
    for (size_t t = 0; t < g->n_tiles; t++)
        if ((g->kind[t] & RMG__BAL_LAND) && (m->flags[t] & (RMG__T_WATER | RMG__T_ROCK)))
            g->kind[t] &= (uint8_t)~RMG__BAL_LAND;
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
    int cls = unknown_class(o->key), level = 0;
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
    size_t n = 0;
    for (size_t i = 0; i < m->objects.count; i++)
        n += m->objects.items[i].kind == RMG_OBJECT_MONSTER;
    g->guard_tile = rmg__malloc(ctx, (n + 1) * sizeof *g->guard_tile);
    g->guard_value = rmg__malloc(ctx, (n + 1) * sizeof *g->guard_value);
    g->zoc_start = rmg__calloc(ctx, g->n_tiles + 1, sizeof *g->zoc_start);
    g->zoc_guard = rmg__malloc(ctx, (9 * n + 1) * sizeof *g->zoc_guard);
    if (!g->guard_tile || !g->guard_value || !g->zoc_start || !g->zoc_guard)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind != RMG_OBJECT_MONSTER || o->x < 0 || o->y < 0 || o->x >= g->w || o->y >= g->h)
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

/* Neighbour offsets by direction: the 4 straight ones, then the 4 diagonals. */
static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

uint16_t rmg__balance_step(const rmg__balance_graph *g, uint32_t from, uint32_t to)
{
    size_t plane = (size_t)g->w * (size_t)g->h;
    bool diagonal = from % plane % (size_t)g->w != to % plane % (size_t)g->w &&
                    from % plane / (size_t)g->w != to % plane / (size_t)g->w;
    return rmg__balance_step_dir(g, from, to, diagonal);
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
                if (!here) {
                    g->dirs[t] = 0;
                    continue;
                }
                /* Walks stay on land or at sea; a boat is boarded from land, left onto land. */
                uint8_t walk = here & RMG__BAL_WATER ? RMG__BAL_WATER : RMG__BAL_LAND;
                uint8_t shift = here & RMG__BAL_WATER ? RMG__BAL_LAND : RMG__BAL_BOAT;
                bool inside = x > 0 && y > 0 && x + 1 < g->w && y + 1 < g->h;
                uint16_t mask = 0;
                for (int d = 0; d < 8; d++) {
                    if (!inside && (x + DX[d] < 0 || y + DY[d] < 0 || x + DX[d] >= g->w || y + DY[d] >= g->h))
                        continue;
                    uint8_t k = g->kind[(int64_t)t + g->offset[d]];
                    if (k & walk)
                        mask |= (uint16_t)(1u << d);
                    else if (k & shift)
                        mask |= (uint16_t)(0x100u << d);
                }
                g->dirs[t] = mask;
            }
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
    g->kind = rmg__calloc(ctx, g->n_tiles, 1);
    g->cost = rmg__calloc(ctx, g->n_tiles, sizeof *g->cost);
    g->portal_of = rmg__calloc(ctx, g->n_tiles, sizeof *g->portal_of);
    g->dirs = rmg__calloc(ctx, g->n_tiles, sizeof *g->dirs);
    if (!g->kind || !g->cost || !g->portal_of || !g->dirs)
        return rmg__error_nomem(ctx);
    classify_tiles(g);
    mark_objects(g);
    rmg_status st = build_teleports(g, ctx);
    if (st == RMG_OK) {
        compute_directions(g);
        g->steps_symmetric = moves_symmetric(g);
    }
    if (st == RMG_OK)
        st = build_guards(g, ctx);
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
    memset(g, 0, sizeof *g);
}
