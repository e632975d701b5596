/*
 * Views of .h3m tiles (spec h3m-format.md §13): the frame of its terrain's sprite set each tile
 * shows, the frame of its road or river, the mirror flags and the coast bit, and the terrain
 * smoothing that leaves no tile in a shape the sprite sets cannot draw. The game draws the stored
 * frames as they are and nobody recomputes them, so the writer's choice is what players see.
 *
 * Every array is indexed z*w*h + y*w + x (level, row, column), as the .h3m tile block is.
 * Terrain ids are RMG_TERRAIN_* (0 dirt ... 9 rock, 10 highlands, 11 wasteland).
 */
#ifndef RMG_MAP_VIEWS_H
#define RMG_MAP_VIEWS_H

#include "core_internal.h"

/* Tile flag bits (byte 6 of a tile). */
#define RMG__VIEW_FLAG_TERRAIN_FLIP 0x03u
#define RMG__VIEW_FLAG_RIVER_FLIP 0x0Cu
#define RMG__VIEW_FLAG_ROAD_FLIP 0x30u
#define RMG__VIEW_FLAG_COAST 0x40u

/* Chooses every tile's terrain view and writes it to view[], and the terrain mirror bits (0-1)
 * and the coast bit (6) into flags[], leaving flags' other bits as they were. hota: the map is a
 * HotA map (dirt's frame 45 is legal there, not in SoD). The frame inside a pattern's range comes
 * from (seed, tile index), so the same inputs give the same bytes everywhere. Tiles no pattern
 * fits (rmg__map_unfit_tiles) get an interior frame. */
void rmg__map_terrain_views(const uint8_t *terrain, int w, int h, int levels, bool hota, uint64_t seed, uint8_t *view,
                            uint8_t *flags);

/* What rmg__map_terrain_views picks from, for every tile (for comparing with stored maps): the
 * frames lo..hi of the pattern that fits and the terrain mirror bits that go with them; fits is
 * false for a tile no pattern fits (it gets the interior range then). */
typedef struct rmg__map_view_range {
    uint8_t lo, hi;
    uint8_t flip;
    bool fits;
} rmg__map_view_range;
void rmg__map_terrain_view_ranges(const uint8_t *terrain, int w, int h, int levels, bool hota,
                                  rmg__map_view_range *out);

/* Road views from the road types (0 none, 1 dirt, 2 gravel, 3 cobblestone) by the 4-neighbour rule
 * of §13.2; the mirror goes into flag bits 4-5, the other flag bits stay. Tiles without a road get
 * view 0 and no mirror. */
void rmg__map_road_views(const uint8_t *road, int w, int h, int levels, uint64_t seed, uint8_t *view,
                         uint8_t *flags);
/* The same for rivers (types 0 none, 1 clear, 2 icy, 3 muddy, 4 lava), mirror in flag bits 2-3. */
void rmg__map_river_views(const uint8_t *river, int w, int h, int levels, uint64_t seed, uint8_t *view,
                          uint8_t *flags);

/* The frames and mirror (unshifted) the road (river: true) of tile `tile` takes; false when the tile
 * has none (for comparing with stored maps). */
bool rmg__map_line_view_range(const uint8_t *type, int w, int h, bool river, size_t tile, rmg__map_view_range *out);

/* The tiles no terrain pattern fits (one-tile peninsulas, single tiles, terrains touching only at
 * a corner ...), judged by the SoD pattern set so that a smoothed map fits in both formats.
 * Returns how many there are and copies the first `cap` tile indexes into out (out may be NULL
 * when cap is 0). */
size_t rmg__map_unfit_tiles(const uint8_t *terrain, int w, int h, int levels, uint32_t *out, size_t cap);
/* The same among the tiles of one terrain only (only = a terrain id). */
size_t rmg__map_unfit_tiles_of(const uint8_t *terrain, int w, int h, int levels, int only, uint32_t *out, size_t cap);
/* The pattern tables built once, for a caller that judges the terrain many times (the tables
 * take longer to build than a scan of a small map); NULL when memory ran out. */
typedef struct rmg__map_fit rmg__map_fit;
/* How far a change of terrain reaches into the fit of other tiles: a tile's frame reads its
 * neighbours and, through the patterns' references, their neighbours. */
#define RMG__MAP_FIT_REACH 2
rmg__map_fit *rmg__map_fit_new(rmg_context *ctx);
void rmg__map_fit_free(rmg_context *ctx, rmg__map_fit *f);
/* rmg__map_unfit_tiles_of with the tables of f. */
size_t rmg__map_fit_unfit_of(const rmg__map_fit *f, const uint8_t *terrain, int w, int h, int levels, int only,
                             uint32_t *out, size_t cap);
/* The same among the listed tiles only (out may be tiles: each is read before it is written). */
size_t rmg__map_fit_unfit_among(const rmg__map_fit *f, const uint8_t *terrain, int w, int h, const uint32_t *tiles,
                                size_t n, uint32_t *out, size_t cap);

/* Changes the terrain of unlocked tiles (keep[t] == 0; keep NULL locks nothing) until every
 * unlocked tile fits a pattern (judged as rmg__map_unfit_tiles does). An unfit tile takes the
 * terrain most of its 8 neighbours have (ties: lower id), preferring one with which it fits; what
 * a few such passes leave unfit becomes sand, which fits anywhere. A tile enters or leaves water
 * or rock only when no locked neighbour belongs to the water or rock it leaves or joins, so a
 * caller that locks its water and rock keeps every shore and rock face; an unlocked water or rock
 * tile held that way may stay unfit. Deterministic (fixed order), bounded, allocates nothing.
 * Returns the number of changes made (a tile changed twice counts twice). */
size_t rmg__map_smooth_terrain(uint8_t *terrain, const uint8_t *keep, int w, int h, int levels);

#endif
