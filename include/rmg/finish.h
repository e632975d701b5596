/*
 * librmg finish: what the finish stage writes into a map besides obstacles (roads, rivers). The stage
 * itself runs inside rmg_generate; this header names the values a host reads back.
 * (Until 0.3 this header was rmg/build.h, which still includes it.)
 */
#ifndef RMG_FINISH_H
#define RMG_FINISH_H

#include "rmg/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Road layer values (RMG_LAYER_ROAD). Cobblestone in player start zones, gravel in other zones
 * with towns, dirt elsewhere; a crossing takes the type of the zone it lies in. */
typedef enum rmg_road_type {
    RMG_ROAD_NONE = 0,
    RMG_ROAD_DIRT = 1,
    RMG_ROAD_GRAVEL = 2,
    RMG_ROAD_COBBLESTONE = 3
} rmg_road_type;

/* River layer values (RMG_LAYER_RIVER, since 0.5.0), as the .h3m stores them. The finish stage
 * draws icy rivers on snow and clear ones on dirt, grass and swamp, as the game's generator
 * does; muddy and lava rivers come only from maps read from files. */
typedef enum rmg_river_type {
    RMG_RIVER_NONE = 0,
    RMG_RIVER_CLEAR = 1,
    RMG_RIVER_ICY = 2,
    RMG_RIVER_MUDDY = 3,
    RMG_RIVER_LAVA = 4
} rmg_river_type;

#ifdef __cplusplus
}
#endif

#endif
