/*
 * Build stage (spec CON-01..21, ZON-06, ZON-29..36, WAT-01..07, MIS-10..12) and the road and
 * obstacle parts of the finish stage.
 *
 *   rmg__stage_build      after place: terrain painting (ZON-14), sealed zone borders, every
 *                         template connection realized (passages, wide openings, gates,
 *                         monoliths, border guards, shipyards), mirror links, and a connected
 *                         skeleton of FREE tiles per zone from its centre to every entrance.
 *   rmg__finish_roads     after objects + guard: roads between towns, shipyards and mirror
 *                         teleports through realized connections (CON-15..20, ZON-06/34).
 *   rmg__finish_obstacles after roads: every land tile not needed for reachability may become
 *                         an obstacle; entries, guards, passages and roads stay reachable.
 *
 * Design decisions the spec leaves open (§14), documented here once:
 *   - Borders are two tiles thick: every land tile with an 8-neighbour in another land zone is
 *     BORDER|BLOCKED, so no step between two zones exists except through opened tiles.
 *   - A standard ground connection gets 1 + (L - 1) / 32 passages (at most 3), L being the
 *     number of tiles of zone A touching zone B. Each passage is one tile on each side and has
 *     its own guard slot; each guard is computed from the connection's full value (the value
 *     recorded in the map connection is the per-passage value).
 *   - Guard slots are recorded for every guarded kind (standard, monolith and gate of standard
 *     or border-guard-fallback connections) whose value is positive; the guard stage drops the
 *     ones whose GRD total is below 2000 (GRD-05).
 *   - Water links: two zones that are neither adjacent nor stacked but touch a common water
 *     zone are linked by a shipyard in each when water is on; they never carry roads (CON-16).
 *   - Road types: cobblestone in player start zones, gravel in other zones with towns, dirt
 *     elsewhere; a road crossing a connection takes the better type of its two zones.
 */
#ifndef RMG_BUILD_INTERNAL_H
#define RMG_BUILD_INTERNAL_H

#include "map/map_internal.h"
#include "rmg/build.h"

rmg_status rmg__stage_build(rmg__gen *g);
rmg_status rmg__finish_roads(rmg__gen *g);
rmg_status rmg__finish_obstacles(rmg__gen *g);

/* ---- teleport and key colours (data) ------------------------------------------------------ */

typedef struct rmg__teleport_color {
    const char *key;         /* map object key of the teleport */
    const char *name;
    int h3_class, subclass;  /* the colour: object class and subclass */
    int width;               /* tiles: 1 or 2 */
    const char *color;       /* lowercase colour word for exports ("green", "blue", ...) */
} rmg__teleport_color;

/* Land teleport colours usable for an ordinary two-way connection, in the order they are
 * handed out (mirror links should use the end of the list, ZON-36). Pairs of one-way
 * entrances of one colour act as two-way when no exit of the colour exists (ZON-36 note). */
const rmg__teleport_color *rmg__teleport_colors(size_t *count);
/* Number of Border Guard / Keymaster's Tent colours (class 9/10 subclasses 0..7). */
#define RMG__KEY_COLORS 8

/* Keymaster colours used by border-guard connections (bit per colour), read from the map's
 * border-guard objects. The objects stage gives keymaster tent treasure only the other ones
 * (CON-05, MIS-12: connections first). */
uint32_t rmg__build_key_colors_used(const struct rmg_map *m);

/* ---- road rules ---------------------------------------------------------------------------- */

typedef enum rmg__road_rule { RMG__ROAD_NEVER = 0, RMG__ROAD_MAY = 1, RMG__ROAD_MUST = 2 } rmg__road_rule;

/* The road rule of template connection `i` after the solve stage: MUST when the solution says it
 * carries a road (CON-15 already evaluated there), NEVER when forbidden or fictive, else MAY. */
rmg__road_rule rmg__build_road_rule(const rmg__gen *g, size_t i);

#endif
