/*
 * The place stage (spec §5 PLC, ZON-02..05/07, CON-08..13, TPL-04/05, WAT-03): where each zone
 * lies (a hexagonal lattice of candidate cells per level) and which tiles it owns.
 *
 * Two steps, both deterministic for a given root seed:
 *   1. layout (place_layout.c): zones take lattice cells one at a time in zone-number order
 *      (PLC-01), by link score (PLC-02), sparseness square (PLC-03), repulsion (PLC-05) and a
 *      random choice among the rest (PLC-04); then a shuffle keeps only improving moves (PLC-09).
 *   2. tiles (place_tiles.c): cells are mapped onto the map, zones grow from their centres as
 *      noisy discs up to a size-weighted capacity (PLC-11), linked neighbours are joined by a
 *      corridor, and the rest goes to rock/water filler zones (PLC-13..17) or, without filler,
 *      to the zones themselves; on such a level, and on both levels of a two-level map, the
 *      centres are first relaxed so that the areas follow the weights (place_balance.c). On two
 *      levels a surface without filler keeps the underground's share of its level when both
 *      levels hold zones (issue 30). Mirror packs copy the surface to the underground (WAT-03).
 *
 * Design notes (the spec leaves these to the implementer, §14):
 *   - Lattice: "odd-r" offset hexagons; in doubled coordinates X = 2*col + (row & 1), Y = row a
 *     cell's centre is (X/2, Y*sqrt(3)/2) in cell units. Adjacent = hex neighbours on one level,
 *     stacked = the same cell on the other level. Hexagons give every neighbour pair a real
 *     shared edge, so "adjacent" on the lattice becomes a shared border on the map.
 *   - Link weights: ground and underground_gate 1000, default 1, monolith and random 0.
 *   - Sparseness square: S0 = zone_sparseness * sqrt(n * sqrt(3)/2) cell units, n = the zones
 *     expected on the level (forced there + a share of the free ones). sqrt(n * sqrt(3)/2) is
 *     the side of a square holding n hexagons' area, so at sparseness 1 the square is one cell
 *     larger than a tight pack (free placement early on); once S0 < 1 cell it binds from the
 *     second zone (first two zones diagonal, PLC-07: a diagonal pair's square has side 0.87).
 *   - Rock radius r: game zones of the level together receive a capacity of f(r) = r/(r+0.35)
 *     of the level's area, the rest is left to rock zones (r = 1: 74%, r = 4: 92%). r below
 *     RMG__PLACE_MIN_ROCK_RADIUS switches rock masses off (PLC-15): the surface then has none,
 *     and the underground (whose dummy zones always run, PLC-16) takes the radius it has without
 *     rock masses, so its zones still get their share of the map.
 *   - Water (surface, water level normal / islands): capacity 70% / 55%; on islands every zone
 *     keeps a two-tile channel of water to every other zone.
 *   - Candidates touch the placed layout (it stays one piece), but on a water surface a
 *     repulsion zone linked to no placed zone, the first of its group, may take any free cell,
 *     three steps from every placed zone when it can (its ring stays free for its group), in
 *     the square of a tight pack of the level's zones less its group's own; where several
 *     groups stand apart, in the square they fill with a channel of sea around each, the
 *     farthest from the placed zones, so the groups spread over it (place_layout.c).
 */
#ifndef RMG_PLACE_INTERNAL_H
#define RMG_PLACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "map/map_internal.h"
#include "rmg/place.h"

#define RMG__PLACE_W_STRONG 1000   /* ground, underground_gate (PLC-02) */
#define RMG__PLACE_W_DEFAULT 1     /* default */
#define RMG__PLACE_MIN_ROCK_RADIUS 0.2
#define RMG__PLACE_UNDERGROUND_RADIUS 4.0  /* PLC-16 when rock masses are off */
#define RMG__PLACE_PI 3.14159265358979323846 /* a disc of `target` tiles has radius sqrt(target / pi) */

/* The stage entry (stage table): fills map->zones, map->tile_zone, g->zone_map_id and the
 * placement report (map->place_report). */
rmg_status rmg__stage_place(rmg__gen *g);

/* ---- layout (lattice) ------------------------------------------------------------------- */

typedef struct rmg__lzone {
    int tpl;              /* template zone index */
    int id;               /* template zone number */
    double weight;        /* relative size */
    uint8_t levels;       /* bit per allowed level (PLC-10) */
    bool repulsion;
    int cell;             /* placed cell: level*G*G + row*G + col; -1 unplaced */
} rmg__lzone;

typedef struct rmg__llink {
    int tpl;              /* template connection index */
    int a, b;             /* lzone indexes */
    rmg_connection_placement placement; /* effective (CON-11 applied) */
    int weight;           /* PLC-02 weight */
} rmg__llink;

typedef struct rmg__layout {
    rmg_context *ctx;
    int grid;             /* G: cells per row and rows per level */
    int levels;
    rmg__lzone *zones;    size_t n_zones;   /* in template order */
    rmg__llink *links;    size_t n_links;
    int *order;           /* lzone indexes in zone-number order (PLC-01) */
    int *cell_zone;       /* levels*G*G: lzone index or -1 */
    size_t *link_start;   /* CSR: links touching lzone i are link_idx[link_start[i]..[i+1]) */
    int *link_idx;
    double square[2];     /* S0 per level, cell units */
    double pack[2];       /* side of a tight pack of the zones expected on the level, cell units */
    bool sea[2];          /* per level: the sea joins zones apart (water maps' surface) */
    double sea_spread;    /* > 1: groups spread over a sea level, each with a channel around it (place_layout.c) */
    int *cand;            /* scratch: candidate cells */
    int *queue;           /* scratch: a zone's group (n_zones) */
    uint8_t *seen;        /* scratch: zones met in a group (n_zones) */
} rmg__layout;

/* Doubled lattice coordinates of a cell (see the header comment). */
void rmg__layout_cell_xy(const rmg__layout *l, int cell, int *level, int *dx, int *dy);
/* Lattice relation of two cells: 1 adjacent (same level), 2 stacked, 0 neither. */
int rmg__layout_relation(const rmg__layout *l, int cell_a, int cell_b);
/* Weight earned by link k in the current layout (0 when unmet or not both placed). */
int rmg__layout_link_score(const rmg__layout *l, size_t k);
/* Places every zone one at a time (PLC-01..08, PLC-10); l->zones, links, levels, square set. */
rmg_status rmg__layout_place_all(rmg__layout *l, rmg_rng *rng);
/* PLC-09: random moves and swaps, each kept only if it raises the link score. */
void rmg__layout_shuffle(rmg__layout *l, rmg_rng *rng);
/* PLC-09's moves and swaps for `rounds` rounds, keeping those that do not lower the link score:
 * the layout wanders over plateaus the shuffle cannot leave. */
void rmg__layout_wander(rmg__layout *l, rmg_rng *rng, size_t rounds);
/* Issue 30: PLC-09's moves and swaps of the zones free to stand on either level, for `rounds`
 * rounds, each kept only if it keeps the link score and does not raise the heavier level's load,
 * max over the levels of their zones' weight / fill (fill: the share of the level its zones may
 * take): the free zones wander over those plateaus towards a lighter load; placed zones stay.
 * Cost: O(zones) per round. */
void rmg__layout_balance_levels(rmg__layout *l, rmg_rng *rng, const double fill[2], size_t rounds);
/* Sum of the link weights met. */
int rmg__layout_score(const rmg__layout *l);
/* place_all then shuffle. */
rmg_status rmg__layout_run(rmg__layout *l, rmg_rng *rng);
void rmg__layout_free(rmg__layout *l);

/* ---- tile ownership (growth) -------------------------------------------------------------- */

/* PLC-11 on levels without filler zones: the share of its weight's area a zone's first-phase
 * disc takes (the second phase hands out the rest by distance from the discs, so zones on the
 * map's edges and corners grow and a surrounded zone keeps about its disc). Calibrated on the
 * game's own Jebus Cross maps: the surrounded centre (weight 40 of 160, a 25% share) gets a
 * median 15% of the map there, 0.6 of its share. */
#define RMG__PLACE_DISC_SHARE 0.5

typedef struct rmg__grow_zone {
    int map_id;           /* owner written to map->tile_zone */
    int level;
    double cx, cy;        /* centre in tiles */
    size_t target;        /* capacity of the PLC-11 first phase (the disc) */
    size_t count;         /* tiles owned so far */
    double inv_radius;    /* 1 / radius of a disc of `target` tiles */
    double noise_c, noise_s; /* mix of the two noise fields: each zone sees its own border noise */
    int seed_tile_x, seed_tile_y;
} rmg__grow_zone;

/* Coarse zone ownership of a balanced level (place_balance.c): cell (x / step, y / step) of a
 * gw-wide grid holds the grow-zone index + 1 the balancing gave it. */
typedef struct rmg__coarse_owner {
    uint32_t *owner;      /* NULL: the level was not balanced */
    int step, gw;
} rmg__coarse_owner;

/* Two linked lattice neighbours joined by a line of tiles before the growth (PLC-02). A strong
 * link (ground, underground_gate weight) keeps its line even where a balanced level gave the
 * tiles to a third zone; a default one stops there. Two linked zones stacked on the lattice (one
 * on each level) are joined after the growth, through the filler, when they do not overlap. */
typedef struct rmg__corridor {
    int a, b;             /* grow-zone indexes */
    bool strong;
} rmg__corridor;

typedef struct rmg__grow {
    rmg_context *ctx;
    struct rmg_map *map;
    rmg__grow_zone *zones;  size_t n_zones;   /* zones[i].map_id == i + 1 */
    const rmg__corridor *corridors; size_t n_corridors;
    bool capped[2];       /* per level: zones stop at their target (filler takes the rest) */
    bool islands[2];      /* per level: keep a water channel between zones */
    uint64_t seed;        /* noise and tie-break hashing */
    const rmg__coarse_owner *coarse; /* per level, or NULL: corridors stay inside their two zones */
} rmg__grow;

/* Grows every zone from its centre; tiles left unowned stay 0 in map->tile_zone. */
rmg_status rmg__grow_run(rmg__grow *g);

/* Levels without filler (PLC-11) and two-level maps: relaxes the centres and radii of the zones on `level` over a
 * coarse copy of the w x h map so that the areas the growth gives follow the targets and
 * linked pairs stay neighbours (place_balance.c). Changes cx, cy, inv_radius and
 * seed_tile_x/y; *out receives the final
 * coarse ownership (free out->owner with rmg__free; NULL when nothing was balanced). */
typedef struct rmg__balance_in {
    int w, h, level;
    rmg__grow_zone *zones;  size_t n_zones;
    const rmg__corridor *pairs; size_t n_pairs; /* zone pairs that should stay neighbours (links) */
} rmg__balance_in;

rmg_status rmg__place_balance(rmg_context *ctx, const rmg__balance_in *in, rmg__coarse_owner *out);

/* ---- report (kept in the map arena; read through include/rmg/place.h) -------------------- */

typedef struct rmg__place_zone_report {
    int map_id;
    int cell_col, cell_row;       /* lattice cell, -1 for filler zones */
    double land_share;            /* tiles / game-zone tiles of its level */
    double weight_share;          /* size weight / weights of its level's game zones */
    int mirror_of;                /* map id of the surface original (mirror copies), else 0 */
    int links, links_met;         /* active links with a placement recommendation / met */
} rmg__place_zone_report;

typedef struct rmg__place_link_report {
    int tpl_index;                /* template connection index */
    int zone_a, zone_b;           /* map zone ids */
    rmg_connection_placement placement; /* effective recommendation */
    int lattice;                  /* 1 adjacent, 2 stacked, 0 apart (placement result) */
    bool border;                  /* the zones share a border on one level (tiles) */
    bool stacked;                 /* the zones overlap on different levels (tiles) */
    bool met;                     /* the recommendation is realized */
} rmg__place_link_report;

struct rmg__place_report {
    rmg__place_zone_report *zones;  size_t n_zones;  /* per map zone, index id-1 */
    rmg__place_link_report *links;  size_t n_links;  /* per active connection */
    int filler[2];                /* per level: RMG_ZONE_ROCK, RMG_ZONE_WATER or -1 (none) */
    double fill[2];               /* per level: capacity share of the game zones */
    bool rock_disabled;           /* PLC-15 switched rock masses off */
    int layout_score;             /* sum of link weights met on the lattice */
};


#endif
