/* Where a hero can go as the game decides it: walking, fights, teleports, keys and boats
 * (map_reach.c). The validator asks it whether every player reaches every town and object. */
#ifndef RMG_MAP_REACH_H
#define RMG_MAP_REACH_H

#include "map_internal.h"

#define RMG__REACH_FOOT 1u /* tile bits: a hero stands there on foot */
#define RMG__REACH_BOAT 2u /* ... or in a boat */
#define RMG__REACH_BOAT_WAITS 4u /* a shipyard's boat waits there */
#define RMG__REACH_NO_FIGHT 1u /* flag: the hero fights nothing (monsters' zones of control stop him) */

typedef struct rmg__reach {
    const struct rmg_map *m;
    rmg_context *ctx;
    uint8_t *tile;          /* per tile: RMG__REACH_* bits of the last flood */
    uint8_t *object;        /* per object (id - 1): visited or arrived at in the last flood */
    uint32_t n_objects;
    /* What the flood knows of the objects, built once. */
    uint8_t *beh, *top_ok, *gate_done, *cell; /* cell: per tile, what a step needs (CELL_* in map_reach.c) */
    uint32_t *channel;      /* teleports: class * 256 + colour (entrances under their exits'
                             * class); locks and tents: the colour */
    uint32_t *partner;      /* gates: the gate the game pairs it with, UINT32_MAX none */
    uint32_t *first_entry, *n_entries, *entries;
    uint32_t *teleports, n_teleports; /* objects that are monoliths (entrances, exits, two-way) */
    uint32_t *gates, n_gates;
    uint64_t *shores;       /* (water zone << 32 | zone) pairs whose tiles touch, sorted */
    size_t n_shores;
    size_t n_entry_tiles;
    uint32_t *queue;
} rmg__reach;

/* Prepares the model of map m (c: the content naming the objects' classes, may be NULL). */
rmg_status rmg__reach_init(rmg__reach *r, const struct rmg_map *m, const struct rmg_content *c, rmg_context *ctx);
void rmg__reach_free(rmg__reach *r);
/* Floods from a tile (a town's entry): r->tile and r->object say what a hero starting there
 * reaches. flags: RMG__REACH_NO_FIGHT. With `until` a tile (UINT32_MAX: none) the flood stops
 * once the hero reaches it (it then reaches at least what a hero starting there reaches) and
 * returns true. */
bool rmg__reach_from(rmg__reach *r, uint32_t start, unsigned flags, uint32_t until);
/* The zones the map means a hero from start_zone to reach (zones: per zone id, 1 when joined):
 * along the template connections it built (ground, gates, monoliths, border guards, water), the
 * teleports' colours (mirror links) and, by_sea, the seas (a water zone joins the zones on its
 * shores, which boats must make true). A zone the template joins by fictive connections only is left
 * out: flying heroes reach it at best. queue: n_zone_ids entries of scratch. */
void rmg__reach_zones(const rmg__reach *r, int start_zone, bool by_sea, uint8_t *zones, size_t n_zone_ids,
                      uint32_t *queue);
/* The entry tile of player's main town, UINT32_MAX when the player has none. */
uint32_t rmg__reach_start(const struct rmg_map *m, int player);

#endif
