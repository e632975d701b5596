/*
 * Connect stage (spec CON-01..21, ZON-06, ZON-29..36, WAT-01..07, MIS-10..12; called "build"
 * until 0.3).
 *
 *   rmg__stage_connect    after place: terrain painting (ZON-14), sealed zone borders, every
 *                         template connection realized (passages, wide openings, gates,
 *                         monoliths, border guards, shipyards), mirror links, and a connected
 *                         skeleton of FREE tiles per zone from its centre to every entrance.
 * The roads and obstacles that follow are the finish stage's (lib/finish).
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
#ifndef RMG_CONNECT_INTERNAL_H
#define RMG_CONNECT_INTERNAL_H

#include "map/map_internal.h"

rmg_status rmg__stage_connect(rmg__gen *g);

#endif
