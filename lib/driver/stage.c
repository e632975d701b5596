/* Stage plugins: per-context registration, the stage view, and running a stage (built-in or
 * plugin, with the fallback policy). */
#include <stdio.h>
#include <string.h>

#include "driver_internal.h"
#include "rmg/stage.h"

typedef struct stage_slot {
    bool set;
    rmg_stage_plugin plugin;
    rmg_plugin_policy policy;
} stage_slot;

typedef struct stage_table {
    stage_slot slots[RMG_STAGE_COUNT];
} stage_table;

struct rmg_stage_view {
    rmg__gen *g;
    rmg_stage_id stage;
    rmg_rng rng;
    bool builtin_ran;
};

unsigned rmg_stage_api_version(void)
{
    return RMG_STAGE_API_VERSION;
}

void rmg_stage_plugin_init(rmg_stage_plugin *plugin)
{
    if (!plugin)
        return;
    memset(plugin, 0, sizeof *plugin);
    plugin->struct_size = sizeof *plugin;
    plugin->api_version = RMG_STAGE_API_VERSION;
}

static void release_slot(stage_slot *s)
{
    if (s->set && s->plugin.destroy)
        s->plugin.destroy(s->plugin.user);
    memset(s, 0, sizeof *s);
}

/* The key the plugin table is attached to the context under (the context releases it). */
static const char stages_key;

static void release_stages(rmg_context *ctx, void *state)
{
    stage_table *t = state;
    for (int i = 0; i < RMG_STAGE_COUNT; i++)
        release_slot(&t->slots[i]);
    rmg__free(ctx, t);
}

bool rmg__context_has_stage_plugins(const rmg_context *ctx)
{
    const stage_table *t = rmg__context_state(ctx, &stages_key);
    for (int i = 0; t && i < RMG_STAGE_COUNT; i++)
        if (t->slots[i].set)
            return true;
    return false;
}

rmg_status rmg_context_set_stage(rmg_context *ctx, rmg_stage_id stage, const rmg_stage_plugin *plugin,
                                 rmg_plugin_policy policy)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    /* Issue 29: the message names the stage (its number said nothing to a host). */
    if ((unsigned)stage >= RMG_STAGE_COUNT)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "unknown stage %d (RMG_STAGE_SOLVE..RMG_STAGE_FINISH)",
                              (int)stage);
    if (stage == RMG_STAGE_SELECT)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG,
                              "stage select cannot be replaced (plugins replace solve, place, connect, objects, "
                              "guard or finish)");
    if (policy != RMG_PLUGIN_FAIL && policy != RMG_PLUGIN_FALLBACK)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "unknown plugin policy %d", (int)policy);
    if (plugin) {
        if (plugin->struct_size < offsetof(rmg_stage_plugin, destroy) || !plugin->run)
            return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "plugin table for stage %s has no run function",
                                  rmg__stage_name(stage));
        if (plugin->api_version != RMG_STAGE_API_VERSION)
            return rmg__error_set(ctx, RMG_ERR_VERSION, "plugin for stage %s was written for stage API %u, this is %u",
                                  rmg__stage_name(stage), plugin->api_version, RMG_STAGE_API_VERSION);
    }
    stage_table *t = rmg__context_state(ctx, &stages_key);
    if (!t) {
        if (!plugin)
            return RMG_OK;
        t = rmg__calloc(ctx, 1, sizeof *t);
        if (!t)
            return rmg__error_nomem(ctx);
        rmg_status st = rmg__context_attach(ctx, &stages_key, t, release_stages, false);
        if (st != RMG_OK) {
            rmg__free(ctx, t);
            return st;
        }
    }
    stage_slot *s = &t->slots[stage];
    release_slot(s);
    if (plugin) {
        rmg_stage_plugin_init(&s->plugin);
        rmg_status st = rmg__struct_in(&s->plugin, sizeof s->plugin, plugin, offsetof(rmg_stage_plugin, destroy));
        if (st != RMG_OK)
            return rmg__error_set(ctx, st, "plugin table for stage %s: unknown struct_size", rmg__stage_name(stage));
        s->policy = policy;
        s->set = true;
    }
    return RMG_OK;
}

/* ---- preparing and checking a plugin placement ---------------------------------------------- */

static rmg_status prepare_place(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    for (size_t i = 0; i < g->tpl->n_zones; i++) {
        if (!g->zone_active[i])
            continue;
        const rmg__zone *tz = &g->tpl->zones[i];
        rmg__map_zone z;
        memset(&z, 0, sizeof z);
        z.id = (int)m->zones.count + 1;
        z.tpl_index = (int)i;
        z.tpl_id = tz->id;
        z.kind = tz->kind;
        z.owner = tz->owner;
        z.size_weight = tz->size;
        z.cx = m->width / 2;
        z.cy = m->height / 2;
        if (!RMG__VEC_PUSH(g->ctx, &m->zones, z))
            return rmg__error_nomem(g->ctx);
        g->zone_map_id[i] = z.id;
    }
    return RMG_OK;
}

static void reset_place(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    for (size_t i = 0; i < m->zones.count; i++)
        RMG__VEC_FREE(g->ctx, &m->zones.items[i].towns);
    m->zones.count = 0;
    memset(m->tile_zone, 0, m->n_tiles * sizeof *m->tile_zone);
    memset(g->zone_map_id, 0, g->tpl->n_zones * sizeof *g->zone_map_id);
}

/* Tiles a plugin left without a zone become one rock zone per level; every template zone must
 * own tiles. */
static rmg_status finish_place(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    size_t plane = (size_t)m->width * (size_t)m->height;
    for (int z = 0; z < m->levels; z++) {
        int rock = 0;
        for (size_t t = (size_t)z * plane; t < (size_t)(z + 1) * plane; t++) {
            if (m->tile_zone[t])
                continue;
            if (!rock) {
                rmg__map_zone rz;
                memset(&rz, 0, sizeof rz);
                rz.id = (int)m->zones.count + 1;
                rz.tpl_index = -1;
                rz.kind = RMG_ZONE_ROCK;
                rz.level = z;
                rz.cx = m->width / 2;
                rz.cy = m->height / 2;
                if (!RMG__VEC_PUSH(g->ctx, &m->zones, rz))
                    return rmg__error_nomem(g->ctx);
                rock = rz.id;
            }
            m->tile_zone[t] = (uint16_t)rock;
        }
    }
    for (size_t i = 0; i < m->zones.count; i++)
        m->zones.items[i].n_tiles = 0;
    for (size_t t = 0; t < m->n_tiles; t++)
        m->zones.items[m->tile_zone[t] - 1].n_tiles++;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index >= 0 && z->n_tiles == 0)
            return rmg__error_gen(g->ctx, RMG_ERR_PLUGIN, "place", z->tpl_id, -1, "the placement plugin gave the zone no tile");
    }
    return RMG_OK;
}

/* ---- running a stage --------------------------------------------------------------------------- */

static stage_slot *plugin_for(const rmg__gen *g, rmg_stage_id id)
{
    stage_table *t = rmg__context_state(g->ctx, &stages_key);
    return t && t->slots[id].set ? &t->slots[id] : NULL;
}

bool rmg__stage_replaced(const rmg__gen *g, rmg_stage_id id)
{
    return plugin_for(g, id) != NULL;
}

static rmg_status run_plugin(rmg__gen *g, rmg_stage_id id, stage_slot *slot)
{
    rmg_stage_view view;
    memset(&view, 0, sizeof view);
    view.g = g;
    view.stage = id;
    char label[32];
    snprintf(label, sizeof label, "plugin:%s", rmg__stage_seed_label(id));
    rmg__gen_stream(g, label, 0, &view.rng);
    rmg_status st = RMG_OK;
    if (id == RMG_STAGE_PLACE)
        st = prepare_place(g);
    if (st == RMG_OK)
        st = slot->plugin.run(slot->plugin.user, &view);
    if (st == RMG_OK && id == RMG_STAGE_PLACE && !view.builtin_ran)
        st = finish_place(g);
    if (st == RMG_OK)
        return RMG_OK;
    if (st == RMG_ERR_NOMEM || st == RMG_ERR_CANCELLED)
        return st;
    char why[300];
    snprintf(why, sizeof why, "%s", rmg_context_errmsg(g->ctx));
    if (slot->policy == RMG_PLUGIN_FALLBACK) {
        rmg_status wst = rmg__map_warn(g->map, "the %s plugin failed (%s); the built-in stage ran instead",
                                       rmg__stage_name(id), why[0] ? why : rmg_status_name(st));
        if (wst != RMG_OK)
            return wst;
        if (id == RMG_STAGE_PLACE)
            reset_place(g);
        rmg_context_clear_error(g->ctx);
        return rmg__run_builtin_stage(g, id);
    }
    return rmg__error_gen(g->ctx, RMG_ERR_PLUGIN, rmg__stage_name(id), -1, -1, "plugin failed: %s",
                          why[0] ? why : rmg_status_name(st));
}

rmg_status rmg__run_stage_with_plugins(rmg__gen *g, rmg_stage_id id)
{
    stage_slot *slot = plugin_for(g, id);
    return slot ? run_plugin(g, id, slot) : rmg__run_builtin_stage(g, id);
}

/* ---- the view ------------------------------------------------------------------------------------ */

rmg_stage_id rmg_stage_view_stage(const rmg_stage_view *view)
{
    return view ? view->stage : RMG_STAGE_COUNT;
}

rmg_context *rmg_stage_view_context(rmg_stage_view *view)
{
    return view ? view->g->ctx : NULL;
}

rmg_rng *rmg_stage_view_rng(rmg_stage_view *view)
{
    return view ? &view->rng : NULL;
}

const rmg_map *rmg_stage_view_map(const rmg_stage_view *view)
{
    return view ? view->g->map : NULL;
}

const rmg_pack *rmg_stage_view_pack(const rmg_stage_view *view)
{
    return view ? view->g->pack : NULL;
}

size_t rmg_stage_view_template_index(const rmg_stage_view *view)
{
    return view ? (size_t)(view->g->tpl - view->g->pack->templates) : 0;
}

rmg_status rmg_stage_run_builtin(rmg_stage_view *view)
{
    if (!view)
        return RMG_ERR_INVALID_ARG;
    if (view->builtin_ran)
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "the built-in %s stage already ran",
                              rmg__stage_name(view->stage));
    if (view->stage == RMG_STAGE_PLACE)
        reset_place(view->g);
    view->builtin_ran = true;
    return rmg__run_builtin_stage(view->g, view->stage);
}

static rmg_status allowed(rmg_stage_view *view, unsigned stages_mask, const char *what)
{
    if (!view)
        return RMG_ERR_INVALID_ARG;
    if (!(stages_mask & (1u << view->stage)))
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "%s is not allowed in the %s stage", what,
                              rmg__stage_name(view->stage));
    return RMG_OK;
}

static long view_tile(rmg_stage_view *view, int x, int y, int z)
{
    const struct rmg_map *m = view->g->map;
    if (x < 0 || y < 0 || z < 0 || x >= m->width || y >= m->height || z >= m->levels) {
        rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "tile %d,%d,%d is outside the map", x, y, z);
        return -1;
    }
    return (long)rmg__tile(m->width, m->height, x, y, z);
}

rmg_status rmg_stage_place_zone(rmg_stage_view *view, size_t zone_index, int level, int cx, int cy)
{
    rmg_status st = allowed(view, 1u << RMG_STAGE_PLACE, "placing a zone");
    if (st != RMG_OK)
        return st;
    struct rmg_map *m = view->g->map;
    if (zone_index >= m->zones.count || view_tile(view, cx, cy, level) < 0)
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "zone index %zu or its position is out of range",
                              zone_index);
    rmg__map_zone *z = &m->zones.items[zone_index];
    z->level = level;
    z->cx = cx;
    z->cy = cy;
    return RMG_OK;
}

rmg_status rmg_stage_set_tile_zone(rmg_stage_view *view, int x, int y, int z, int zone_id)
{
    rmg_status st = allowed(view, 1u << RMG_STAGE_PLACE, "setting tile ownership");
    if (st != RMG_OK)
        return st;
    long t = view_tile(view, x, y, z);
    struct rmg_map *m = view->g->map;
    if (t < 0)
        return RMG_ERR_INVALID_ARG;
    if (zone_id < 0 || (size_t)zone_id > m->zones.count)
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "zone id %d does not exist", zone_id);
    m->tile_zone[t] = (uint16_t)zone_id;
    return RMG_OK;
}

#define TERRAIN_STAGES ((1u << RMG_STAGE_CONNECT) | (1u << RMG_STAGE_OBJECTS))

rmg_status rmg_stage_set_blocked(rmg_stage_view *view, int x, int y, int z, int blocked)
{
    rmg_status st = allowed(view, TERRAIN_STAGES, "changing obstacles");
    if (st != RMG_OK)
        return st;
    if (view->stage == RMG_STAGE_OBJECTS && view->builtin_ran)
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "obstacles can change only before the built-in objects run");
    long t = view_tile(view, x, y, z);
    if (t < 0)
        return RMG_ERR_INVALID_ARG;
    uint16_t *f = &view->g->map->flags[t];
    if (*f & (RMG__T_WATER | RMG__T_ROCK | RMG__T_OBJECT | RMG__T_PASSAGE | RMG__T_BORDER))
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "tile %d,%d,%d is not open land", x, y, z);
    if (blocked && (*f & RMG__T_FREE))
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "tile %d,%d,%d is a reserved path", x, y, z);
    if (blocked)
        *f |= RMG__T_BLOCKED | RMG__T_OBSTACLE;
    else
        *f &= (uint16_t) ~(RMG__T_BLOCKED | RMG__T_OBSTACLE);
    return RMG_OK;
}

rmg_status rmg_stage_reserve_path(rmg_stage_view *view, int x, int y, int z)
{
    rmg_status st = allowed(view, TERRAIN_STAGES, "reserving a path");
    if (st != RMG_OK)
        return st;
    long t = view_tile(view, x, y, z);
    if (t < 0)
        return RMG_ERR_INVALID_ARG;
    uint16_t *f = &view->g->map->flags[t];
    if (*f & (RMG__T_WATER | RMG__T_ROCK | RMG__T_OBJECT | RMG__T_BORDER))
        return rmg__error_set(view->g->ctx, RMG_ERR_INVALID_ARG, "tile %d,%d,%d cannot be a path", x, y, z);
    *f = (uint16_t)((*f & ~(RMG__T_BLOCKED | RMG__T_OBSTACLE)) | RMG__T_FREE);
    return RMG_OK;
}

rmg_status rmg_stage_warn(rmg_stage_view *view, const char *message)
{
    if (!view || !message)
        return RMG_ERR_INVALID_ARG;
    return rmg__map_warn(view->g->map, "%s plugin: %s", rmg__stage_name(view->stage), message);
}
