/* The generation driver and the stage entry points it calls. */
#ifndef RMG_DRIVER_INTERNAL_H
#define RMG_DRIVER_INTERNAL_H

#include "map/map_internal.h"
#include "rmg/template.h"

/* Largest map side accepted. */
#define RMG__MAX_SIDE 1024

/* Stage entry points (each in its module). */
rmg_status rmg__stage_solve(rmg__gen *g);     /* lib/solve */
rmg_status rmg__stage_place(rmg__gen *g);     /* lib/place */
rmg_status rmg__stage_build(rmg__gen *g);     /* lib/build */
rmg_status rmg__stage_objects(rmg__gen *g);   /* lib/objects */
rmg_status rmg__stage_guard(rmg__gen *g);     /* lib/guard */
rmg_status rmg__finish_roads(rmg__gen *g);    /* lib/build */
rmg_status rmg__finish_obstacles(rmg__gen *g);/* lib/build */

/* Map validation run before a map is handed out (lib/map/validate.c). */
rmg_status rmg__map_validate_internal(const struct rmg_map *m, rmg_context *ctx);

/* Option resolution and template filtering (generate.c). */
void rmg__resolve_options(const rmg__template *t, rmg_generate_options *o);
/* The setup rmg_generate makes of `asked` for template t of the pack (*o, open options
 * resolved, mirror packs included) and whether t accepts it; if not, why (why may be NULL). */
bool rmg__driver_setup(const struct rmg_pack *pack, const rmg__template *t, const rmg_generate_options *asked,
                       rmg_generate_options *o, char *why, size_t whylen);
const char *rmg__stage_name(rmg_stage_id id);
/* Runs a stage's built-in implementation (generate.c) or its registered plugin (stage.c). */
rmg_status rmg__run_builtin_stage(rmg__gen *g, rmg_stage_id id);
rmg_status rmg__run_stage_with_plugins(rmg__gen *g, rmg_stage_id id);

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
