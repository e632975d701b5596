/*
 * The measures of the balance report (docs/balance.md): per player, from the main town, the paths
 * to the other players' towns with the guards on them, the weakest exit guard, the value within
 * 1, 2, 3 and 7 days, the nearest mine of each resource; then the spread of each measure between
 * players and the fairness score.
 */
#include <string.h>

#include "balance_internal.h"

const int rmg__balance_days[RMG_BALANCE_DAYS] = {1, 2, 3, 7};
const char *const rmg__balance_resources[RMG_BALANCE_RESOURCES] = {"wood",    "mercury", "ore", "sulfur",
                                                                    "crystal", "gems",    "gold"};

/* ---- what a player's reach is measured against --------------------------------------------- */

static bool has_prefix(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool family_is(const rmg__object_def *d, const char *family)
{
    return d && d->family && strcmp(d->family, family) == 0;
}

/* The ruleset's row of an object: the zone-content table first, then the map objects. */
static const rmg__object_def *content_def(const struct rmg_content *c, const char *key)
{
    if (!c || !key)
        return NULL;
    long i = rmg__content_find_object(c, key);
    if (i >= 0)
        return &c->objects[i];
    i = rmg__content_find_map_object(c, key);
    return i >= 0 ? &c->map_objects[i] : NULL;
}

static rmg__balance_class class_of(const rmg__map_object *o, const rmg__object_def *d)
{
    if (o->kind == RMG_OBJECT_TOWN)
        return RMG__BAL_TOWN;
    if (o->kind == RMG_OBJECT_MINE || o->kind == RMG_OBJECT_RESOURCE || family_is(d, "resource") ||
        family_is(d, "resource_warehouse") || family_is(d, "mine") || has_prefix(o->key, "resource_") ||
        strcmp(o->key, "random_resource") == 0)
        return RMG__BAL_RESOURCES;
    if (family_is(d, "creature_dwelling") || family_is(d, "composite_dwelling"))
        return RMG__BAL_DWELLING;
    return RMG__BAL_TREASURE;
}

/* What object o counts as, or false when it counts for nothing (guards, obstacles, teleports...). */
static bool classify(const rmg__balance_graph *g, const rmg__map_object *o, rmg__balance_valued *v)
{
    switch (o->kind) {
    case RMG_OBJECT_TREASURE:
    case RMG_OBJECT_TOWN:
    case RMG_OBJECT_MINE:
    case RMG_OBJECT_RESOURCE:
    case RMG_OBJECT_SEER_HUT:
        break;
    default:
        return false;
    }
    const rmg__object_def *d = content_def(g->content, o->key);
    v->object = o->id;
    v->cls = (uint8_t)class_of(o, d);
    v->mine = (int8_t)(family_is(d, "mine") && d->resource >= 0 && d->resource < RMG_BALANCE_RESOURCES ? d->resource
                                                                                                      : -1);
    /* Objects of a file carry no value: the ruleset's table gives it (resource piles beside mines
     * too, whose generated value is left to the mine). */
    v->value = v->cls == RMG__BAL_TOWN ? 1 : o->value > 0 ? o->value : d && d->value > 0 ? d->value : 0;
    return v->value > 0 || v->mine >= 0;
}

/* The entries of a mine know its resource: the search knows the nearest mine of a resource once
 * one of them is settled. */
static void mark_mine(rmg__balance_graph *g, const rmg__balance_valued *v)
{
    g->mines_present |= (uint8_t)(1u << v->mine);
    for (uint32_t i = 0; i < v->entry_count; i++)
        g->mine_near[g->valued_entry[v->entry_start + i]] |= (uint8_t)(1u << v->mine);
}

rmg_status rmg__balance_valued_build(rmg__balance_graph *g, rmg_context *ctx)
{
    const struct rmg_map *m = g->map;
    size_t n_entries = 0;
    for (size_t i = 0; i < m->objects.count; i++)
        if (m->objects.items[i].kind != RMG_OBJECT_OBSTACLE)
            n_entries += rmg__object_tiles(m, &m->objects.items[i], m->objects.items[i].visit, NULL, 0) + 1;
    g->valued = rmg__calloc(ctx, m->objects.count + 1, sizeof *g->valued);
    g->valued_entry = rmg__malloc(ctx, (n_entries + 1) * sizeof *g->valued_entry);
    g->mine_near = rmg__calloc(ctx, g->n_tiles, 1);
    if (!g->valued || !g->valued_entry || !g->mine_near)
        return rmg__error_nomem(ctx);
    size_t fill = 0;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        rmg__balance_valued *v = &g->valued[g->n_valued];
        if (o->kind == RMG_OBJECT_OBSTACLE || !classify(g, o, v))
            continue;
        v->entry_start = (uint32_t)fill;
        size_t k = rmg__object_tiles(m, o, o->visit, g->valued_entry + fill, n_entries - fill);
        if (!k && o->x >= 0 && o->y >= 0 && o->x < m->width && o->y < m->height) {
            g->valued_entry[fill] = (uint32_t)rmg__tile(m->width, m->height, o->x, o->y, o->z);
            k = 1;
        }
        v->entry_count = (uint32_t)k;
        fill += k;
        g->n_valued++;
        if (v->mine >= 0)
            mark_mine(g, v);
    }
    return RMG_OK;
}

/* ---- players ----------------------------------------------------------------------------------- */

/* The main town of each owner (a town flagged main, else the owner's first), in player order. */
static void find_players(struct rmg_balance *b, const struct rmg_map *m)
{
    for (int p = 1; p <= RMG__BALANCE_MAX_PLAYERS; p++) {
        const rmg__map_object *town = NULL;
        for (size_t i = 0; i < m->objects.count; i++) {
            const rmg__map_object *o = &m->objects.items[i];
            if (o->kind == RMG_OBJECT_TOWN && o->owner == p && (!town || (o->main && !town->main)))
                town = o;
        }
        if (!town)
            continue;
        uint32_t entry;
        if (!rmg__object_tiles(m, town, town->visit, &entry, 1))
            entry = (uint32_t)rmg__tile(m->width, m->height, town->x, town->y, town->z);
        rmg__balance_player *pl = &b->players[b->n_players++];
        memset(pl, 0, sizeof *pl);
        pl->player = p;
        pl->town = town->id;
        pl->source = entry;
        pl->zone = m->tile_zone[entry];
    }
}

/* ---- reach ------------------------------------------------------------------------------------- */

/* The cheapest way to stand on tile t: walking onto it, or arriving there through a teleport. */
static uint32_t tile_cost(const rmg__balance_graph *g, const rmg__balance_search *s, uint32_t t)
{
    uint32_t c = s->dist[t];
    if (g->portal_of[t]) {
        uint32_t a = s->dist[g->n_tiles + g->portal_of[t] - 1];
        c = a < c ? a : c;
    }
    /* Costs the search had not settled when it stopped are not known. */
    return c < s->settled_below ? c : RMG__BALANCE_FAR;
}

/* Movement points to visit an object: to step onto one of its entry tiles (the movement model
 * says from where: lib/map/map_reach.h). */
static uint32_t visit_cost(const rmg__balance_graph *g, const rmg__balance_search *s, const rmg__balance_valued *v)
{
    uint32_t best = RMG__BALANCE_FAR;
    for (uint32_t i = 0; i < v->entry_count; i++) {
        uint32_t c = tile_cost(g, s, g->valued_entry[v->entry_start + i]);
        best = c < best ? c : best;
    }
    return best;
}

static void measure_values(rmg__balance_player *p, const rmg__balance_graph *g, const rmg__balance_search *s)
{
    for (int r = 0; r < RMG_BALANCE_RESOURCES; r++)
        p->nearest_mine[r] = -1;
    for (size_t i = 0; i < g->n_valued; i++) {
        const rmg__balance_valued *v = &g->valued[i];
        if (v->object == p->town)
            continue;
        uint32_t c = visit_cost(g, s, v);
        if (c == RMG__BALANCE_FAR)
            continue;
        for (int d = 0; d < RMG_BALANCE_DAYS; d++)
            if (c <= (uint32_t)rmg__balance_days[d] * s->day_points)
                p->by_class[v->cls][d] += v->value;
        if (v->mine >= 0 && (p->nearest_mine[v->mine] < 0 || c < p->nearest_mine[v->mine]))
            p->nearest_mine[v->mine] = c;
    }
}

static rmg_status fill_reach_days(rmg__balance_player *p, const rmg__balance_graph *g, const rmg__balance_search *s,
                                  rmg_context *ctx)
{
    p->reach_days = rmg__malloc(ctx, g->n_tiles);
    if (!p->reach_days)
        return rmg__error_nomem(ctx);
    for (uint32_t t = 0; t < g->n_tiles; t++) {
        uint32_t c = tile_cost(g, s, t), day;
        if (c >= s->settled_below) /* beyond the search: later, or never */
            day = s->settled_below == UINT32_MAX ? 0 : 255;
        else
            day = c == 0 ? 1 : (c + s->day_points - 1) / s->day_points;
        p->reach_days[t] = (uint8_t)(day > 255 ? 255 : day);
    }
    return RMG_OK;
}

/* ---- paths ------------------------------------------------------------------------------------- */

/* The tiles of the best path to node `to`, from the source, as the search left it. */
static rmg_status trace_path(rmg__balance_path *path, const rmg__balance_graph *g, const rmg__balance_search *s,
                             uint32_t to, rmg_context *ctx)
{
    size_t n = 1;
    for (uint32_t v = to; s->pred[v] != RMG__BALANCE_FAR; v = s->pred[v])
        n++;
    path->path = rmg__malloc(ctx, n * sizeof *path->path);
    if (!path->path)
        return rmg__error_nomem(ctx);
    path->path_len = n;
    for (uint32_t v = to; n; v = s->pred[v])
        path->path[--n] = rmg__balance_node_tile(g, v);
    return RMG_OK;
}

/* The guards whose zone of control the path enters (each counted once; not at the start). */
static void count_guards(rmg__balance_path *path, const rmg__balance_graph *g, rmg__balance_search *s)
{
    memset(s->touched, 0, g->n_guards + 1);
    for (size_t i = 1; i < path->path_len; i++) {
        uint32_t t = path->path[i];
        for (uint32_t j = g->zoc_start[t]; j < g->zoc_start[t + 1]; j++) {
            uint32_t k = g->zoc_guard[j];
            if (s->touched[k])
                continue;
            s->touched[k] = 1;
            path->guards++;
            path->guard_sum += g->guard_value[k];
            if (g->guard_value[k] > path->strongest)
                path->strongest = g->guard_value[k];
        }
    }
}

/* The source of every other player, in the order of p->to. */
static size_t other_towns(const struct rmg_balance *b, const rmg__balance_player *p, uint32_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n_players; i++)
        if (&b->players[i] != p)
            out[n++] = b->players[i].source;
    return n;
}

/* From the search by points (still in s): the cost to every other player's town and the guards on
 * the cheapest path there. */
static rmg_status measure_paths(struct rmg_balance *b, rmg__balance_player *p, const rmg__balance_graph *g,
                                rmg__balance_search *s)
{
    for (size_t i = 0; i < b->n_players; i++) {
        const rmg__balance_player *q = &b->players[i];
        if (q == p)
            continue;
        rmg__balance_path *path = &p->to[p->n_to++];
        memset(path, 0, sizeof *path);
        path->player = q->player;
        path->tiles = path->cost = path->strongest = path->guard_sum = -1;
        if (s->dist[q->source] == RMG__BALANCE_FAR)
            continue;
        path->reachable = true;
        path->cost = s->dist[q->source];
        path->strongest = path->guard_sum = 0;
        rmg_status st = trace_path(path, g, s, q->source, b->ctx);
        if (st != RMG_OK)
            return st;
        count_guards(path, g, s);
    }
    return RMG_OK;
}

/* Player p's path to player `player`, NULL for itself. */
static rmg__balance_path *path_to(rmg__balance_player *p, int player)
{
    for (size_t i = 0; i < p->n_to; i++)
        if (p->to[i].player == player)
            return &p->to[i];
    return NULL;
}

/* The shortest walks in steps from player a to the others (a search that stops at their towns).
 * When walks are the same both ways (no one-way teleport, no boat) only the players after a are
 * searched, and each walk is also the way back. */
static rmg_status measure_steps(struct rmg_balance *b, size_t a, const rmg__balance_graph *g, rmg__balance_search *s)
{
    rmg__balance_player *p = &b->players[a];
    uint32_t targets[RMG__BALANCE_MAX_PLAYERS];
    rmg__balance_player *towards[RMG__BALANCE_MAX_PLAYERS];
    size_t k = 0;
    for (size_t i = g->steps_symmetric ? a + 1 : 0; i < b->n_players; i++) {
        rmg__balance_path *there = path_to(p, b->players[i].player);
        if (there && there->reachable) {
            targets[k] = b->players[i].source;
            towards[k++] = &b->players[i];
        }
    }
    rmg_status st = k ? rmg__balance_search_run(s, g, p->source, RMG__BAL_BY_STEPS, targets, k, 0) : RMG_OK;
    for (size_t i = 0; st == RMG_OK && i < k; i++) {
        path_to(p, towards[i]->player)->tiles = s->dist[targets[i]];
        rmg__balance_path *back = g->steps_symmetric ? path_to(towards[i], p->player) : NULL;
        if (back && back->reachable)
            back->tiles = s->dist[targets[i]];
    }
    return st;
}

/* ---- the exit guard ---------------------------------------------------------------------------- */

typedef struct exit_goal {
    const struct rmg_map *map;
    int zone;                      /* leave this zone; 0: reach one of the towns */
    uint32_t towns[RMG__BALANCE_MAX_PLAYERS];
    size_t n_towns;
} exit_goal;

static bool outside(const void *user, uint32_t tile)
{
    const exit_goal *e = user;
    if (e->zone)
        return e->map->tile_zone[tile] && e->map->tile_zone[tile] != e->zone;
    for (size_t i = 0; i < e->n_towns; i++)
        if (e->towns[i] == tile)
            return true;
    return false;
}

static rmg_status measure_exit(const struct rmg_balance *b, rmg__balance_player *p, const rmg__balance_graph *g,
                               rmg__balance_search *s)
{
    exit_goal e = {g->map, p->zone, {0}, 0};
    e.n_towns = other_towns(b, p, e.towns);
    return rmg__balance_exit_guard(s, g, p->source, outside, &e, &p->weakest_exit_guard);
}

rmg_status rmg__balance_measure(struct rmg_balance *b, const rmg__balance_graph *g, rmg__balance_search *s)
{
    find_players(b, g->map);
    rmg_status st = RMG_OK;
    for (size_t i = 0; st == RMG_OK && i < b->n_players; i++) {
        rmg__balance_player *p = &b->players[i];
        /* Far enough for the other towns, the seventh day's objects and the nearest mines. */
        uint32_t towns[RMG__BALANCE_MAX_PLAYERS];
        size_t n_towns = other_towns(b, p, towns);
        uint32_t horizon = (uint32_t)rmg__balance_days[RMG_BALANCE_DAYS - 1] * s->day_points;
        st = rmg__balance_search_run(s, g, p->source, RMG__BAL_BY_POINTS, towns, n_towns, horizon);
        if (st == RMG_OK) {
            st = measure_paths(b, p, g, s);
            measure_values(p, g, s);
        }
        if (st == RMG_OK)
            st = fill_reach_days(p, g, s, b->ctx);
        if (st == RMG_OK)
            st = measure_exit(b, p, g, s);
    }
    /* Steps once every player's paths are known (a walk may serve both ways). */
    for (size_t i = 0; st == RMG_OK && i < b->n_players; i++)
        st = measure_steps(b, i, g, s);
    return st;
}

/* ---- spreads and the score --------------------------------------------------------------------- */

static const char *const MEASURE_NAMES[RMG__BAL_M_COUNT] = {
    "path_cost", "path_tiles", "strongest_guard", "guard_sum",   "weakest_exit_guard", "value_1",  "value_2",
    "value_3",   "value_7",    "mine_wood",       "mine_mercury", "mine_ore",          "mine_sulfur", "mine_crystal",
    "mine_gems", "mine_gold"};

const char *rmg__balance_measure_name(size_t index)
{
    return index < RMG__BAL_M_COUNT ? MEASURE_NAMES[index] : NULL;
}

/* The path to the nearest other player (fewest movement points, the first among equals). */
static const rmg__balance_path *nearest_path(const rmg__balance_player *p)
{
    const rmg__balance_path *best = NULL;
    for (size_t i = 0; i < p->n_to; i++)
        if (p->to[i].reachable && (!best || p->to[i].cost < best->cost))
            best = &p->to[i];
    return best;
}

static int64_t value_by_day(const rmg__balance_player *p, int day)
{
    return p->by_class[RMG__BAL_TREASURE][day] + p->by_class[RMG__BAL_RESOURCES][day] +
           p->by_class[RMG__BAL_DWELLING][day];
}

bool rmg__balance_player_measure(const rmg__balance_player *p, size_t index, double *out)
{
    const rmg__balance_path *near = nearest_path(p);
    int64_t v = -1;
    switch (index) {
    case RMG__BAL_M_PATH_COST: v = near ? near->cost : -1; break;
    case RMG__BAL_M_PATH_TILES: {
        for (size_t i = 0; i < p->n_to; i++)
            if (p->to[i].reachable && (v < 0 || p->to[i].tiles < v))
                v = p->to[i].tiles;
        break;
    }
    case RMG__BAL_M_STRONGEST_GUARD: v = near ? near->strongest : -1; break;
    case RMG__BAL_M_GUARD_SUM: v = near ? near->guard_sum : -1; break;
    case RMG__BAL_M_EXIT_GUARD: v = p->weakest_exit_guard; break;
    case RMG__BAL_M_VALUE_1: case RMG__BAL_M_VALUE_2: case RMG__BAL_M_VALUE_3: case RMG__BAL_M_VALUE_7:
        v = value_by_day(p, (int)(index - RMG__BAL_M_VALUE_1));
        break;
    default:
        if (index >= RMG__BAL_M_MINE_FIRST && index < RMG__BAL_M_COUNT)
            v = p->nearest_mine[index - RMG__BAL_M_MINE_FIRST];
        break;
    }
    *out = (double)v;
    return v >= 0;
}

/* (max - min) / max over the players that have the measure; 1 when only some have it, 0 when
 * none has it or all are 0. */
static double spread_of(const struct rmg_balance *b, size_t index)
{
    double lo = 0, hi = 0;
    size_t have = 0;
    for (size_t i = 0; i < b->n_players; i++) {
        double v;
        if (!rmg__balance_player_measure(&b->players[i], index, &v))
            continue;
        lo = have ? (v < lo ? v : lo) : v;
        hi = have ? (v > hi ? v : hi) : v;
        have++;
    }
    if (have && have < b->n_players)
        return 1.0;
    return have && hi > 0 ? (hi - lo) / hi : 0.0;
}

void rmg__balance_summarize(struct rmg_balance *b)
{
    for (size_t m = 0; m < RMG__BAL_M_COUNT; m++)
        b->spread[m] = spread_of(b, m);
    /* Nine measures count once each, the seven mines once together (their mean). */
    double sum = 0, mines = 0;
    for (size_t m = 0; m < RMG__BAL_M_MINE_FIRST; m++)
        sum += b->spread[m];
    for (size_t m = RMG__BAL_M_MINE_FIRST; m < RMG__BAL_M_COUNT; m++)
        mines += b->spread[m];
    sum += mines / RMG_BALANCE_RESOURCES;
    b->score = 100.0 * (1.0 - sum / (RMG__BAL_M_MINE_FIRST + 1));
}
