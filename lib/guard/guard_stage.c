/*
 * The guard stage: a monster on every guard slot the objects and connect stages left (§11).
 *
 * What is guarded, in this order (ids ascending inside each kind, so results are stable):
 *   1. object groups with a guard slot, valued at the group's sum (TRS-08);
 *   2. objects outside groups with a guard slot: mines, airship yards (valued 12,000, ZON-22),
 *      single objects; a teleport object with its own slot uses the connection rule;
 *   3. every guard slot of a connection: one guard per passage, monoliths and gates on both
 *      sides, border-guard connections that fell back to standard (CON-03/05), mirror links
 *      (the connect stage records them as connections without a template index, ZON-33).
 * Never guarded (GRD-09): OBJ-10 objects and groups made of one, Seer's Huts, the tents of
 * border-guard connections, resources beside mines, wide and fictive connections, totals below
 * 2000, and in a zone of strength `none` everything but connection and mirror-link guards
 * (including mines and yards: such a zone has no zone term, §14).
 *
 * Choices where §14 leaves the design open:
 *   - each passage of a multi-passage ground connection is guarded with the connection's full
 *     value (every passage alone must hold the connection);
 *   - mirror-link teleports use the connection rule (zone term 0): they link zones like
 *     connections, and ZON-33 promises a guard for every non-zero value whatever the zone's
 *     strength;
 *   - the zone term is that of the zone owning the guarded content; mood, joining and monster
 *     factions are those of the zone owning the guard's tile (ZON-28, GRD-08).
 * Randomness: one stream per map zone (rmg__gen_stream(g, "guard", zone id)), the zone that
 * owns the guard's tile, so one zone's guards never reshuffle another's.
 */
#include <stdio.h>
#include <string.h>

#include "guard_internal.h"

typedef struct guard_stage {
    rmg__gen *g;
    struct rmg_map *map;
    rmg_rng *rngs;              /* per map zone id; [0] for tiles outside every zone */
    size_t n_rngs;
} guard_stage;

/* One thing to guard. */
typedef struct guard_target {
    rmg_map_guard_target kind;
    uint32_t id;                /* group / object / connection id */
    uint32_t tile;              /* tile index of the slot */
    int64_t value;
    bool connection;            /* zone term 0 (GRD-01) */
    int owner_zone;             /* map zone whose content it is; settings fallback */
    int tpl_conn;               /* template connection index for messages, -1 */
} guard_target;

/* ---- zones ------------------------------------------------------------------------------------ */

static const rmg__map_zone *map_zone(const struct rmg_map *map, int id)
{
    return id >= 1 && (size_t)id <= map->zones.count ? &map->zones.items[id - 1] : NULL;
}

static const rmg__zone *template_zone(const rmg__gen *g, const rmg__map_zone *mz)
{
    if (!mz || !g->tpl || mz->tpl_index < 0 || (size_t)mz->tpl_index >= g->tpl->n_zones)
        return NULL;
    return &g->tpl->zones[mz->tpl_index];
}

static int template_zone_id(const rmg__map_zone *mz)
{
    return mz ? mz->tpl_id : -1;
}

/* ZON-27's "type of this zone's town": the main town, else the first town, else the zone's
 * faction when it is a town faction. */
static int zone_town_faction(const struct rmg_map *map, const rmg__map_zone *mz)
{
    uint32_t town = mz->main_town ? mz->main_town : (mz->towns.count ? mz->towns.items[0] : 0);
    if (town >= 1 && town <= map->objects.count)
        return map->objects.items[town - 1].faction;
    return mz->faction >= 0 && mz->faction < RMG_FACTION_NEUTRAL ? mz->faction : RMG_FACTION_NONE;
}

/* The zone whose mood/joining/factions apply: the tile's, or the owner's when the tile belongs
 * to no template zone (rock, water). */
static const rmg__map_zone *settings_zone(const guard_stage *gs, const guard_target *t)
{
    const rmg__map_zone *tile_zone = map_zone(gs->map, gs->map->tile_zone[t->tile]);
    if (template_zone(gs->g, tile_zone))
        return tile_zone;
    return map_zone(gs->map, t->owner_zone);
}

static void fill_zone_settings(const guard_stage *gs, const rmg__map_zone *mz, rmg_guard_request *req)
{
    const rmg__zone *tz = template_zone(gs->g, mz);
    if (!tz)
        return; /* request defaults */
    req->monster_factions = tz->monster_factions;
    req->match_town = tz->monsters_match_town;
    req->town_faction = zone_town_faction(gs->map, mz);
    req->mood = tz->mood;
    req->mood_value = tz->mood_value;
    req->join_percent = tz->join_percent;
    req->join_only_for_money = tz->join_only_for_money;
}

static void build_request(const guard_stage *gs, const guard_target *t, rmg_guard_request *req)
{
    rmg_guard_request_init(req);
    req->value = t->value;
    req->map_strength = gs->g->opt.monsters;
    req->connection = t->connection;
    const rmg__map_zone *owner = map_zone(gs->map, t->owner_zone);
    req->zone_strength = owner ? owner->monster_strength : RMG_MONSTERS_MEDIUM;
    fill_zone_settings(gs, settings_zone(gs, t), req);
}

/* ---- placing one guard ------------------------------------------------------------------------ */

static rmg_rng *tile_stream(guard_stage *gs, uint32_t tile)
{
    size_t zone = gs->map->tile_zone[tile];
    return &gs->rngs[zone < gs->n_rngs ? zone : 0];
}

static void record_guard(rmg__map_object *m, const guard_target *t, const rmg_guard *gd, int zone)
{
    /* A monster covers and is visited on its anchor tile (row 5, column 7 of the mask). */
    m->block = m->visit = UINT64_C(1) << 47;
    m->zone = zone;
    m->creature = gd->creature;
    m->count = gd->count;
    m->strength_total = gd->total;
    m->guarded_value = gd->value;
    m->strength_index = gd->strength_index;
    m->guards_kind = t->kind;
    m->guards_id = t->id;
    m->disposition = gd->disposition;
    m->join_percent = gd->join_percent;
    m->join_for_money = gd->join_for_money != 0;
}

static rmg_status add_monster(guard_stage *gs, const guard_target *t, const rmg_guard *gd, uint32_t *monster)
{
    struct rmg_map *map = gs->map;
    size_t plane = (size_t)map->width * (size_t)map->height;
    int z = (int)(t->tile / plane);
    int y = (int)(t->tile % plane / (size_t)map->width);
    int x = (int)(t->tile % (size_t)map->width);
    rmg__map_object *m = rmg__map_add_object(map, "monster", RMG_OBJECT_MONSTER, x, y, z);
    if (!m)
        return RMG_ERR_NOMEM;
    record_guard(m, t, gd, map->tile_zone[t->tile]);
    map->flags[t->tile] |= RMG__T_GUARD | RMG__T_OBJECT | RMG__T_BLOCKED;
    map->tile_object[t->tile] = m->id;
    *monster = m->id;
    return RMG_OK;
}

static rmg_status slot_problem(guard_stage *gs, const guard_target *t, const char *what)
{
    const rmg__map_zone *owner = map_zone(gs->map, t->owner_zone);
    return rmg__error_gen(gs->g->ctx, RMG_ERR_INTERNAL, "guard", template_zone_id(owner), t->tpl_conn,
                          "guard slot %u of %s %u %s", (unsigned)t->tile,
                          t->kind == RMG_GUARDS_GROUP ? "group" : t->kind == RMG_GUARDS_OBJECT ? "object" : "connection",
                          (unsigned)t->id, what);
}

/* Computes and places the guard of t; *monster is its object id, 0 when none stands guard. */
static rmg_status place_guard(guard_stage *gs, const guard_target *t, uint32_t *monster)
{
    *monster = 0;
    if (t->tile >= gs->map->n_tiles)
        return slot_problem(gs, t, "lies outside the map");
    if (gs->map->flags[t->tile] & RMG__T_GUARD)
        return rmg__map_warn(gs->map, "guard: slot (tile %u) of %s %u already holds a guard; left unguarded",
                             (unsigned)t->tile, t->kind == RMG_GUARDS_CONNECTION ? "connection" : "content",
                             (unsigned)t->id);
    rmg_guard_request req;
    build_request(gs, t, &req);
    rmg_guard gd;
    rmg_status st = rmg__guard_compute(gs->g->ctx, gs->g->content, &req, tile_stream(gs, t->tile), &gd);
    if (st != RMG_OK) {
        char why[512]; /* the context's message is overwritten by the call below */
        snprintf(why, sizeof why, "%s", rmg_context_errmsg(gs->g->ctx));
        const rmg__map_zone *owner = map_zone(gs->map, t->owner_zone);
        return rmg__error_gen(gs->g->ctx, st, "guard", template_zone_id(owner), t->tpl_conn, "%s", why);
    }
    if (!gd.guarded)
        return RMG_OK;
    return add_monster(gs, t, &gd, monster);
}

/* ---- what is guarded (GRD-09) ----------------------------------------------------------------- */

/* The content object of `key`: the content's hashed index, or a scan for a host-built content
 * that has no index. -1 if absent. */
static long content_object(const struct rmg_content *content, const char *key)
{
    if (content->index)
        return rmg__content_find_object(content, key);
    for (size_t i = 0; i < content->n_objects; i++)
        if (content->objects[i].key && strcmp(content->objects[i].key, key) == 0)
            return (long)i;
    return -1;
}

/* OBJ-10: objects with several entrances or none. */
static bool never_grouped(const struct rmg_content *content, const char *key)
{
    long i = key ? content_object(content, key) : -1;
    return i >= 0 && content->objects[i].never_grouped;
}

static bool group_guardable(const guard_stage *gs, const rmg__map_group *grp)
{
    if (!grp->guard_slot)
        return false;
    if (grp->objects.count == 1) { /* TRS-08: a lone OBJ-10 object is never guarded */
        uint32_t oid = grp->objects.items[0];
        if (oid >= 1 && oid <= gs->map->objects.count &&
            never_grouped(gs->g->content, gs->map->objects.items[oid - 1].key))
            return false;
    }
    return true;
}

static bool object_guardable(const guard_stage *gs, const rmg__map_object *o)
{
    if (!o->guard_slot || o->group != 0)
        return false; /* grouped objects share their group's guard */
    switch (o->kind) {
    case RMG_OBJECT_MONSTER:
    case RMG_OBJECT_SEER_HUT:
    case RMG_OBJECT_KEYMASTER_TENT:
    case RMG_OBJECT_RESOURCE:
    case RMG_OBJECT_OBSTACLE:
    case RMG_OBJECT_BOAT:
        return false;
    default:
        return !never_grouped(gs->g->content, o->key);
    }
}

static bool connection_guardable(const rmg__map_connection *c)
{
    if (c->kind == RMG_CONNECTION_WIDE || c->kind == RMG_CONNECTION_FICTIVE)
        return false;
    if (c->kind == RMG_CONNECTION_BORDER_GUARD && !c->border_guard_fallback)
        return false;
    switch (c->realized) {
    case RMG_REALIZED_WIDE:
    case RMG_REALIZED_FICTIVE:
    case RMG_REALIZED_UNREALIZED:
    case RMG_REALIZED_BORDER_GUARD:
        return false;
    default:
        return true;
    }
}

static bool is_teleport(rmg_map_object_kind kind)
{
    return kind == RMG_OBJECT_MONOLITH || kind == RMG_OBJECT_GATE;
}

/* ---- the three passes ------------------------------------------------------------------------- */

static rmg_status guard_groups(guard_stage *gs)
{
    for (size_t i = 0; i < gs->map->groups.count; i++) {
        const rmg__map_group *grp = &gs->map->groups.items[i];
        if (!group_guardable(gs, grp))
            continue;
        guard_target t = {RMG_GUARDS_GROUP, grp->id, grp->guard_slot - 1, grp->value, false, grp->zone, -1};
        uint32_t monster;
        rmg_status st = place_guard(gs, &t, &monster);
        if (st != RMG_OK)
            return st;
        gs->map->groups.items[i].guard = monster;
    }
    return RMG_OK;
}

static rmg_status guard_objects(guard_stage *gs)
{
    size_t n = gs->map->objects.count; /* monsters appended below are not visited */
    for (size_t i = 0; i < n; i++) {
        const rmg__map_object *o = &gs->map->objects.items[i];
        if (!object_guardable(gs, o))
            continue;
        int64_t value = o->kind == RMG_OBJECT_AIRSHIP_YARD ? RMG_GUARD_AIRSHIP_YARD_VALUE : o->value;
        guard_target t = {RMG_GUARDS_OBJECT, o->id, o->guard_slot - 1, value, is_teleport(o->kind), o->zone, -1};
        uint32_t monster;
        rmg_status st = place_guard(gs, &t, &monster);
        if (st != RMG_OK)
            return st;
        gs->map->objects.items[i].guard = monster; /* re-fetched: the array may have moved */
    }
    return RMG_OK;
}

static rmg_status guard_connection(guard_stage *gs, rmg__map_connection *c)
{
    for (size_t k = 0; k < c->guard_slots.count; k++) {
        uint32_t tile = c->guard_slots.items[k];
        int owner = tile < gs->map->n_tiles && map_zone(gs->map, gs->map->tile_zone[tile]) ? gs->map->tile_zone[tile]
                                                                                            : c->zone_a;
        guard_target t = {RMG_GUARDS_CONNECTION, (uint32_t)c->id, tile, c->value, true, owner, c->tpl_index};
        uint32_t monster;
        rmg_status st = place_guard(gs, &t, &monster);
        if (st != RMG_OK)
            return st;
        if (monster && !RMG__VEC_PUSH(gs->g->ctx, &c->guards, monster))
            return rmg__error_nomem(gs->g->ctx);
    }
    return RMG_OK;
}

static rmg_status guard_connections(guard_stage *gs)
{
    for (size_t i = 0; i < gs->map->conns.count; i++) {
        rmg__map_connection *c = &gs->map->conns.items[i];
        if (!connection_guardable(c))
            continue;
        rmg_status st = guard_connection(gs, c);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- the stage -------------------------------------------------------------------------------- */

static rmg_status open_streams(guard_stage *gs)
{
    gs->n_rngs = gs->map->zones.count + 1;
    gs->rngs = rmg__calloc(gs->g->ctx, gs->n_rngs, sizeof *gs->rngs);
    if (!gs->rngs)
        return rmg__error_nomem(gs->g->ctx);
    for (size_t z = 0; z < gs->n_rngs; z++)
        rmg__gen_stream(gs->g, "guard", z, &gs->rngs[z]);
    return RMG_OK;
}

static rmg_status run_passes(guard_stage *gs)
{
    rmg_status (*const passes[])(guard_stage *) = {guard_groups, guard_objects, guard_connections};
    for (size_t p = 0; p < RMG__ARRAY_LEN(passes); p++) {
        if (rmg__check_cancel(gs->g->ctx, "guard", (double)p / (double)RMG__ARRAY_LEN(passes)))
            return RMG_ERR_CANCELLED;
        rmg_status st = passes[p](gs);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

rmg_status rmg__stage_guard(rmg__gen *g)
{
    if (!g || !g->ctx)
        return RMG_ERR_INVALID_ARG;
    if (!g->map || !g->content)
        return rmg__error_gen(g->ctx, RMG_ERR_INTERNAL, "guard", -1, -1, "guard stage run without a map or content");
    guard_stage gs = {g, g->map, NULL, 0};
    rmg_status st = open_streams(&gs);
    if (st == RMG_OK)
        st = run_passes(&gs);
    rmg__free(g->ctx, gs.rngs);
    return st;
}
