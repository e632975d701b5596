/* Where a hero can go as the game decides it: walking, fights, teleports, keys and boats
 * (map_reach.c). The one movement model of the library (issue 28): the validator floods it to
 * ask whether every player reaches every town and object; the balance report (lib/balance)
 * builds its weighted graph from the same steps (rmg__reach_step), visits
 * (rmg__reach_stands), teleports (rmg__reach_destinations) and boats (rmg__reach_boat_spot). */
#ifndef RMG_MAP_REACH_H
#define RMG_MAP_REACH_H

#include "map_internal.h"

#define RMG__REACH_FOOT 1u /* tile bits: a hero stands there on foot */
#define RMG__REACH_BOAT 2u /* ... or in a boat */
#define RMG__REACH_BOAT_WAITS 4u /* a shipyard's boat waits there */
#define RMG__REACH_NO_FIGHT 1u /* flag: the hero fights nothing (monsters' zones of control stop him) */

/* What an object does to a hero who steps onto one of its entries (rmg__reach.beh). */
typedef enum rmg__reach_behaviour {
    RMG__BEH_NONE,     /* no entry: never visited */
    RMG__BEH_PLAIN,    /* visited, then stood on */
    RMG__BEH_MONSTER,  /* fought, then stood on */
    RMG__BEH_TELEPORT, /* two-way monolith or one-way entrance: leads to its destinations */
    RMG__BEH_EXIT,     /* one-way exit: stood on */
    RMG__BEH_GATE,     /* subterranean gate: leads to its pair */
    RMG__BEH_LOCK,     /* border guard / gate: opens with its colour's tent */
    RMG__BEH_TENT,     /* keymaster's tent: stood on, gives its colour's key */
    RMG__BEH_SHIPYARD, /* stood on; the first visit builds a boat (rmg__reach_boat_spot) */
    RMG__BEH_BOAT,     /* boarded from land (or visited at sea): the hero is in a boat on it */
} rmg__reach_behaviour;

/* Per-tile facts of the model (rmg__reach.cell). */
enum {
    RMG__CELL_LAND = 1,  /* walkable land: rmg__map_tile_passable */
    RMG__CELL_SEA = 2,   /* water a boat may cross: rmg__map_free_water */
    RMG__CELL_WATER = 4, /* water terrain */
    RMG__CELL_ENTRY = 8, /* an entry of an object that is visited */
    RMG__CELL_ZOC = 16,  /* a monster's tile or one of its 8 neighbours */
    RMG__CELL_RIM = 32,  /* on the map's edge: some neighbours are off the map */
};

typedef struct rmg__reach {
    const struct rmg_map *m;
    rmg_context *ctx;
    uint8_t *tile;          /* per tile: RMG__REACH_* bits of the last flood */
    uint8_t *object;        /* per object (id - 1): nonzero when visited or arrived at in the last flood */
    uint32_t n_objects;
    /* What the flood knows of the objects, built once. */
    uint8_t *beh, *top_ok, *gate_done, *cell; /* beh: rmg__reach_behaviour; cell: per tile, RMG__CELL_* */
    uint8_t *to_exits;      /* teleports: 1 when a one-way entrance leads to exits of its colour */
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

/* What a hero on a tile meets by stepping to its neighbour u (rmg__reach_step). */
typedef enum rmg__reach_step_kind {
    RMG__STEP_NONE = 0,  /* closed */
    RMG__STEP_FOOT = 1,  /* he stands on u on foot: walks, or lands from a boat */
    RMG__STEP_BOAT = 2,  /* he is in a boat on u: sails, or boards the boat waiting there */
    RMG__STEP_VISIT = 3, /* he visits the object *object (index): rmg__reach_stands says the outcome */
} rmg__reach_step_kind;

/* One step of a hero (in a boat when `boat`) to the neighbour u, dy the row difference from where
 * he stands (1: u is the row below, so he enters it from above). waits: a boat waits on u (a
 * shipyard's, once it was visited); no_fight: monsters' zones of control stop him. The rules of
 * the game's movement, shared by the flood and the balance report's graph. */
static inline rmg__reach_step_kind rmg__reach_step(const rmg__reach *r, uint32_t u, int dy, bool boat, bool waits,
                                                   bool no_fight, uint32_t *object)
{
    uint8_t c = r->cell[u];
    if (c & RMG__CELL_ENTRY) {
        uint32_t id = r->m->tile_object[u];
        if (!id || id > r->n_objects)
            return RMG__STEP_NONE; /* an entry no object stands on (a model out of step with the map) opens nothing */
        uint32_t o = id - 1;
        /* Entered from the row above (dy = 1) only where the game opens that side. */
        if (dy == 1 && !r->top_ok[o])
            return RMG__STEP_NONE;
        if (boat != ((c & RMG__CELL_WATER) != 0) && r->beh[o] != RMG__BEH_BOAT)
            return RMG__STEP_NONE; /* a boat visits water objects only; a hero on foot boards boats only */
        if (no_fight && (c & RMG__CELL_ZOC) && r->beh[o] != RMG__BEH_MONSTER)
            return RMG__STEP_NONE;
        *object = o;
        return RMG__STEP_VISIT;
    }
    if (no_fight && (c & RMG__CELL_ZOC))
        return RMG__STEP_NONE;
    if ((boat || waits) && (c & RMG__CELL_SEA))
        return RMG__STEP_BOAT;
    return c & RMG__CELL_LAND ? RMG__STEP_FOOT : RMG__STEP_NONE; /* walking, or landing from a boat */
}

/* Where a hero stands after visiting object o from a boat (`boat`) or on foot, when every fight is
 * won and every key is held: RMG__STEP_FOOT or RMG__STEP_BOAT on the entry, RMG__STEP_VISIT for a
 * teleport or gate (he arrives at its destinations instead), RMG__STEP_NONE for nothing. */
static inline rmg__reach_step_kind rmg__reach_stands(const rmg__reach *r, uint32_t o, bool boat)
{
    switch ((rmg__reach_behaviour)r->beh[o]) {
    case RMG__BEH_NONE: return RMG__STEP_NONE;
    case RMG__BEH_TELEPORT: case RMG__BEH_GATE: return RMG__STEP_VISIT;
    case RMG__BEH_BOAT: return RMG__STEP_BOAT;
    default: return boat ? RMG__STEP_BOAT : RMG__STEP_FOOT;
    }
}

/* Whether a hero entering teleport or gate `from` (object index) comes out of object `to`. */
static inline bool rmg__reach_leads_to(const rmg__reach *r, uint32_t from, uint32_t to)
{
    if (r->beh[from] == RMG__BEH_GATE)
        return r->partner[from] == to;
    /* A one-way entrance leads to the exits of its colour; with none on the map, entrances of
     * the colour lead to each other like two-way monoliths (the guide, ZON-36). */
    return r->beh[from] == RMG__BEH_TELEPORT && to != from && r->channel[to] == r->channel[from] &&
           r->beh[to] == (r->to_exits[from] ? RMG__BEH_EXIT : RMG__BEH_TELEPORT);
}

/* The objects (indexes) a hero entering teleport or gate o comes out of, into out (room for
 * r->n_teleports + 1); their count. */
size_t rmg__reach_destinations(const rmg__reach *r, uint32_t o, uint32_t *out);

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
