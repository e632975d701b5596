/*
 * librmg place stage: zone placement and tile ownership (spec §5 PLC, ZON-02..07, CON-08..13,
 * TPL-04/05, WAT-03). A host can preview a template's layout without filling it, and read the
 * placement report of any map (generated or previewed).
 *
 * The preview map holds only zones and tile ownership: read it with the map accessors of
 * rmg/map.h (rmg_map_zone_count, rmg_map_zone, rmg_map_copy_layer with RMG_LAYER_ZONE,
 * rmg_map_tile_zone) and free it with rmg_map_destroy.
 *
 * How the template's levers act here (the choices the spec leaves open, §14):
 *   - Zones take cells of a hexagonal lattice, one per zone, in zone-number order. "Adjacent"
 *     means neighbouring cells on one level, "stacked" the same cell on the other level.
 *   - Link weights: ground and underground_gate 1000, default 1, monolith and random 0;
 *     fictive connections count like real ones.
 *   - Sparseness square side S0 = zone_sparseness * sqrt(n * 0.866) cells, n = zones expected
 *     on the level; once S0 is below one cell (sparseness < 1 / sqrt(0.866 n)) the first two
 *     zones always go diagonal (PLC-07), above it their relative position is random.
 *   - Rock radius r: the game zones of a level get f(r) = r / (r + 0.35) of its area (r = 1:
 *     74%, the underground default r = 4: 92%), rock zones the rest; r < 0.2 switches rock
 *     masses off. Water maps: water zones take 30% (normal) or 45% (islands, every zone an
 *     island) of the surface instead.
 *   - Zone areas follow the size weights (one tiles-per-weight density across levels with
 *     filler); without filler the zone centres are relaxed from the lattice positions so that
 *     the zones covering the level still get areas in proportion to their weights.
 */
#ifndef RMG_PLACE_H
#define RMG_PLACE_H

#include "rmg/core.h"
#include "rmg/map.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Places the zones of pack template `template_index` on a map of options->width x height x
 * levels (0 = 72 x 72 x 1), with options->water, using the context's seed. Every template
 * zone is active, owners are the template's; the solver is not run, so the start-zone
 * alignment rule (ZON-05) is not applied. On success *out holds a map with zones and tile
 * ownership only; on failure *out is NULL and the context's error names the zone.
 */
RMG_API rmg_status rmg_place_preview(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                                     const rmg_generate_options *options, rmg_map **out);

/* Per-zone placement report. */
typedef struct rmg_place_zone_info {
    size_t struct_size;
    int id;                        /* map zone id */
    int template_zone;             /* template zone number, 0 for rock / water zones */
    rmg_zone_kind kind;
    int level;                     /* 0 surface, 1 underground */
    int center_x, center_y;
    size_t tiles;
    int cell_col, cell_row;        /* lattice cell the zone took, -1 for rock / water zones */
    double land_share;             /* tiles / tiles of the game zones on its level */
    double weight_share;           /* size weight / weights of the game zones on its level */
    int mirror_of;                 /* map id of the surface zone it copies (mirror packs), 0 */
    int links, links_met;          /* connections with a placement recommendation / realized */
} rmg_place_zone_info;
RMG_API void rmg_place_zone_info_init(rmg_place_zone_info *info);

/* How one connection's placement recommendation came out (CON-08..13). */
typedef struct rmg_place_link_info {
    size_t struct_size;
    int template_index;            /* index in the template's connection list */
    int zone_a, zone_b;            /* map zone ids */
    rmg_connection_placement placement; /* effective recommendation (gate -> default on 1 level) */
    int adjacent;                  /* 1 if the zones share a border on one level */
    int stacked;                   /* 1 if the zones overlap on different levels */
    int met;                       /* 1 if the recommendation is realized */
} rmg_place_link_info;
RMG_API void rmg_place_link_info_init(rmg_place_link_info *info);

/* Number of zones in the report (0 when the map has no placement report). */
RMG_API size_t rmg_place_zone_count(const rmg_map *map);
RMG_API rmg_status rmg_place_zone_get(const rmg_map *map, size_t index, rmg_place_zone_info *out);
/* Connections in the report: the active ones of the template, in template order. */
RMG_API size_t rmg_place_link_count(const rmg_map *map);
RMG_API rmg_status rmg_place_link_get(const rmg_map *map, size_t index, rmg_place_link_info *out);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_place_zone_get")
rmg_status rmg_place_zone(const rmg_map *map, size_t index, rmg_place_zone_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_place_link_get")
rmg_status rmg_place_link(const rmg_map *map, size_t index, rmg_place_link_info *out);

#ifdef __cplusplus
}
#endif

#endif
