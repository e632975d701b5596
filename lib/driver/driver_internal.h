/* The generation driver and the stage entry points it calls. */
#ifndef RMG_DRIVER_INTERNAL_H
#define RMG_DRIVER_INTERNAL_H

#include "map/map_internal.h"
#include "select/select_internal.h"
#include "solve/solve_internal.h"
#include "rmg/template.h"

/* Stage entry points (each in the folder named by its stage). */
rmg_status rmg__stage_select(rmg__gen *g, const rmg_generate_options *asked); /* lib/select */
rmg_status rmg__stage_solve(rmg__gen *g);     /* lib/solve */
rmg_status rmg__stage_place(rmg__gen *g);     /* lib/place */
rmg_status rmg__stage_connect(rmg__gen *g);   /* lib/connect */
rmg_status rmg__stage_objects(rmg__gen *g);   /* lib/objects */
rmg_status rmg__stage_guard(rmg__gen *g);     /* lib/guard */
rmg_status rmg__stage_finish(rmg__gen *g);    /* lib/finish */

/* Mirror packs (WAT-03, mirror.c): the tile flags after connect, and after guard the copy of the
 * surface's objects, groups and guards onto the underground zones (the objects and guard stages
 * skip zones that are copies, rmg__map_mirror_of). */
rmg_status rmg__mirror_snapshot(rmg__gen *g);
rmg_status rmg__mirror_content(rmg__gen *g);

/* rmg_generate without clearing the cancel flag first (rmg_generate_best_of runs its candidates
 * through it, so a cancel stops every later candidate too). */
rmg_status rmg__generate(rmg_context *ctx, const struct rmg_pack *pack, const rmg_generate_options *options,
                         rmg_map **out);

/* Runs a stage's built-in implementation (generate.c) or its registered plugin (stage.c). */
rmg_status rmg__run_builtin_stage(rmg__gen *g, rmg_stage_id id);
rmg_status rmg__run_stage_with_plugins(rmg__gen *g, rmg_stage_id id);
/* Whether the host replaced this stage / any stage on this context (stage.c). */
bool rmg__stage_replaced(const rmg__gen *g, rmg_stage_id id);
bool rmg__context_has_stage_plugins(const rmg_context *ctx);

/* What the stages wrote before a stage, so the driver can retry that stage alone
 * (checkpoint.c). Zero-initialize; rmg__checkpoint_free leaves it zeroed. */
typedef struct rmg__checkpoint {
    bool taken;
    struct rmg_map parts;         /* zones, conns, objects, groups, warnings (deep), zone_stats and
                                   * place_report pointers; nothing else of it is used */
    uint8_t *layers;              /* the tile layers packed one after another */
    rmg__zone_stats *zone_stats;  /* contents of the map's zone statistics, per map zone */
    int *zone_map_id;             /* g->zone_map_id */
    void *stage_data[8];
    uint16_t *mirror_flags;
    uint32_t mirror_first_object, mirror_first_group;
} rmg__checkpoint;

rmg_status rmg__checkpoint_take(rmg__gen *g, rmg__checkpoint *cp);
/* Puts the map and generation state back as they were when cp was taken (cp is kept). */
rmg_status rmg__checkpoint_restore(rmg__gen *g, const rmg__checkpoint *cp);
void rmg__checkpoint_free(rmg_context *ctx, rmg__checkpoint *cp);

#endif
