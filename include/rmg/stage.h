/*
 * librmg stage plugins: replace one generation stage with host code, or wrap the built-in one.
 *
 * A plugin is a table whose first field is its size; it only ever grows at the end. It is
 * registered per context. During generation its `run` receives a stage view: the only way it
 * can read and write the map, so what a stage may change is enforced by the API (a write a
 * stage may not make returns RMG_ERR_INVALID_ARG). A plugin gets its own RNG stream and the
 * context's allocator, like the built-in stages.
 *
 * Stability: plugin API. The table and view functions are stable; new view functions may be
 * added.
 */
#ifndef RMG_STAGE_H
#define RMG_STAGE_H

#include "rmg/core.h"
#include "rmg/map.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when the plugin table or the view changes incompatibly (never within a SONAME). */
#define RMG_STAGE_API_VERSION 1
RMG_API unsigned rmg_stage_api_version(void);

typedef struct rmg_stage_view rmg_stage_view;

typedef rmg_status (*rmg_stage_run_fn)(void *user, rmg_stage_view *view);
typedef void (*rmg_stage_destroy_fn)(void *user);

typedef struct rmg_stage_plugin {
    size_t struct_size;
    unsigned api_version;          /* RMG_STAGE_API_VERSION the plugin was written against */
    void *user;
    rmg_stage_run_fn run;          /* required */
    rmg_stage_destroy_fn destroy;  /* optional: called when replaced or the context dies */
} rmg_stage_plugin;

/* What happens when a plugin's run returns an error. */
typedef enum rmg_plugin_policy {
    RMG_PLUGIN_FAIL = 0,      /* the generation attempt fails with RMG_ERR_PLUGIN */
    RMG_PLUGIN_FALLBACK = 1   /* the built-in stage runs instead (a map warning says so) */
} rmg_plugin_policy;

RMG_API void rmg_stage_plugin_init(rmg_stage_plugin *plugin);

/* Registers a plugin for a stage (solve, place, connect, objects, guard, finish; select cannot
 * be replaced: RMG_ERR_INVALID_ARG naming it). plugin NULL restores the built-in stage. The previous plugin's destroy is
 * called. */
RMG_API rmg_status rmg_context_set_stage(rmg_context *ctx, rmg_stage_id stage, const rmg_stage_plugin *plugin,
                                         rmg_plugin_policy policy);

/* ---- the view: reading ---------------------------------------------------------------------- */

RMG_API rmg_stage_id rmg_stage_view_stage(const rmg_stage_view *view);
RMG_API rmg_context *rmg_stage_view_context(rmg_stage_view *view);
/* The plugin's own stream (label "plugin:<stage>"), independent of every built-in stream. */
RMG_API rmg_rng *rmg_stage_view_rng(rmg_stage_view *view);
/* The map as built so far; every rmg_map_* read accessor works on it. */
RMG_API const rmg_map *rmg_stage_view_map(const rmg_stage_view *view);
/* The pack and the index of the template being generated (template.h accessors). */
RMG_API const rmg_pack *rmg_stage_view_pack(const rmg_stage_view *view);
RMG_API size_t rmg_stage_view_template_index(const rmg_stage_view *view);

/* Runs the built-in implementation of this stage (wrap rather than rewrite). */
RMG_API rmg_status rmg_stage_run_builtin(rmg_stage_view *view);

/* ---- the view: writing (each allowed in the stages named) ------------------------------------ */

/* place: a zone's level and centre (index = map zone index, zones are created before the
 * plugin runs, one per template zone in play). */
RMG_API rmg_status rmg_stage_place_zone(rmg_stage_view *view, size_t zone_index, int level, int cx, int cy);
/* place: tile ownership (zone id = index + 1). Tiles left at 0 become rock. */
RMG_API rmg_status rmg_stage_set_tile_zone(rmg_stage_view *view, int x, int y, int z, int zone_id);
/* connect, objects (before the built-in objects run): make a land tile an obstacle (1) or
 * open it again (0); a reserved path tile cannot be blocked. */
RMG_API rmg_status rmg_stage_set_blocked(rmg_stage_view *view, int x, int y, int z, int blocked);
/* connect, objects: reserve a tile as a free path that later stages keep passable. */
RMG_API rmg_status rmg_stage_reserve_path(rmg_stage_view *view, int x, int y, int z);
/* any stage: add a warning to the map. */
RMG_API rmg_status rmg_stage_warn(rmg_stage_view *view, const char *message);

#ifdef __cplusplus
}
#endif

#endif
