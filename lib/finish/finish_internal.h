/*
 * Finish stage (after objects and guard): roads between towns, shipyards and mirror teleports
 * through the realized connections (finish_roads.c, CON-15..20, ZON-06/34), then obstacles on
 * every land tile not needed for reachability (finish_obstacles.c), then rivers on the open land
 * (finish_rivers.c). The map is validated after
 * it (lib/map/validate.c).
 */
#ifndef RMG_FINISH_INTERNAL_H
#define RMG_FINISH_INTERNAL_H

#include "map/map_internal.h"
#include "rmg/finish.h"

/* Where a hero walks on foot when the finish stage starts: land not blocked, or an object's
 * entry or a guard (a sea object's entry is water: not on foot). */
static inline bool rmg__finish_walkable(const struct rmg_map *m, uint32_t t)
{
    uint16_t f = m->flags[t];
    if (f & (RMG__T_WATER | RMG__T_ROCK))
        return false;
    return !(f & RMG__T_BLOCKED) || (f & (RMG__T_ENTRY | RMG__T_GUARD));
}

/* The stage's entry point (finish_stage.c): roads, obstacles, rivers. */
rmg_status rmg__stage_finish(rmg__gen *g);
rmg_status rmg__finish_roads(rmg__gen *g);
rmg_status rmg__finish_obstacles(rmg__gen *g);
/* Rivers on the open land left by obstacles (finish_rivers.c); the river type a zone of this
 * terrain gets (RMG_RIVER_*, 0 none). */
rmg_status rmg__finish_rivers(rmg__gen *g);
uint8_t rmg__river_type_of_terrain(int terrain);

/* Cave walls (finish_cave.c): the blocked land among `tiles` (n; tiles of the underground's land
 * zones) becomes rock where rock can be drawn and every tile keeps a terrain frame; called once
 * the zones' land was filled and before obstacle objects cover it. `bit` is a bit of b->mark the
 * caller leaves clear on every tile (cleared again on return); scratch holds
 * RMG__FINISH_CAVE_SCRATCH(n, plane) words, plane the tiles of a level. Returns how many tiles
 * became rock. */
struct rmg__grid;
struct rmg__map_fit;
#define RMG__FINISH_CAVE_SCRATCH(n, plane) (2 * (size_t)(n) + 2 * (size_t)(plane))
size_t rmg__finish_cave_rock(struct rmg__grid *b, const struct rmg__map_fit *fit, const uint32_t *tiles, size_t n,
                             uint8_t bit, uint32_t *scratch);

typedef enum rmg__road_rule { RMG__ROAD_NEVER = 0, RMG__ROAD_MAY = 1, RMG__ROAD_MUST = 2 } rmg__road_rule;

#endif
