/* Private state of the connect stage shared by its files (terrain and borders, skeleton carving,
 * object placement inside zones, connection realization, mirror links). */
#ifndef RMG_CONNECT_STATE_H
#define RMG_CONNECT_STATE_H

#include "connect_internal.h"
#include "grid/grid.h"

/* b.mark bits during the connect stage. */
#define RMG__MK_NEAR_PASSAGE 1u  /* within reach of a passage: no new passage or object here */
#define RMG__MK_NEAR_OBJECT 2u   /* next to an object the stage placed: no new object here */
#define RMG__MK_REACHABLE 4u     /* open interior its zone's skeleton reaches (during one placement) */

typedef RMG__VEC(uint32_t) rmg__u32vec;

typedef struct rmg__connect_state {
    rmg__grid b;
    rmg__u32vec *zfree;     /* per map zone index: the zone's FREE (skeleton) tiles */
    uint32_t *start;        /* per map zone index: skeleton root tile, UINT32_MAX none */
    uint8_t *color_used;    /* per teleport colour (rmg__teleport_colors) */
    size_t n_colors;
    uint32_t key_used;      /* keymaster colours taken by border-guard connections */
    const uint8_t *bg_colored; /* per template connection: a border_guard link that gets its colours */
    rmg__u32vec scratch;    /* candidate lists */
    rmg__u32vec repel;      /* repeller positions (x | y << 16) of the current placement */
    rmg__u32vec path;       /* a found path kept while the other side is searched */
    rmg_rng rng;            /* stream of the item being built */
    rmg__grid_zone_index zi; /* tiles by zone (tile_zone does not change during the stage) */
    int *sea_of;            /* per zone id: the sea (water zones touching each other) + 1 of a water zone, 0 land */
    int n_seas;
    rmg__u32vec *moved;     /* while bodies widen: every tile moved (NULL: not kept) */
    bool moved_lost;        /* a tile could not be logged: the widening judges whole maps again */
} rmg__connect_state;

#define RMG__NO_TILE UINT32_MAX

/* Teleport colours the ruleset has no object of (the SoD ruleset lacks HotA's) are never handed
 * out (connect_links.c). */
void rmg__connect_drop_absent_colors(rmg__connect_state *s);

/* ---- terrain, borders, skeleton (connect_stage.c) ---------------------------------------- */

/* Searches a path from zone's skeleton to goal through the zone's open interior avoiding the
 * tiles in excl; true when found (the path stays in b.prev until the next search). */
bool rmg__connect_reach(rmg__connect_state *s, int zone, uint32_t goal, const uint32_t *excl, size_t n_excl);
/* Marks the path found by the last successful rmg__connect_reach FREE (part of the skeleton). */
rmg_status rmg__connect_commit(rmg__connect_state *s, int zone, uint32_t goal);
/* Searches both sides of a crossing (za to ga, zb to gb) and commits both paths only when both
 * exist, so a failed candidate leaves no FREE tile behind. */
rmg_status rmg__connect_reach_both(rmg__connect_state *s, int za, uint32_t ga, int zb, uint32_t gb, bool *ok);
/* Adds a tile to the zone's skeleton. */
rmg_status rmg__connect_add_free(rmg__connect_state *s, int zone, uint32_t t);
/* Marks tiles within Chebyshev distance r of t (same level) with mark bits. */
void rmg__connect_mark_around(rmg__connect_state *s, uint32_t t, int r, uint8_t bits);

/* ---- objects inside zones (connect_place.c) --------------------------------------------------- */

typedef enum rmg__connect_score {
    RMG__SCORE_NORMAL = 0,   /* a ring around the zone centre, random along it */
    RMG__SCORE_REPEL = 1     /* as far as possible from towns, passages, gates, monoliths (CON-21) */
} rmg__connect_score;

typedef struct rmg__connect_request {
    int zone;
    const char *key;
    rmg_map_object_kind kind;
    int color;               /* subclass / colour, -1 none */
    rmg__connect_score score;
    int water_zone;          /* shipyards: the water zone the object must touch, 0 none */
    bool seal;               /* block every neighbour but the approach tile (border guard use) */
    bool crowded;            /* second try: spacing from other objects and passages waived */
} rmg__connect_request;

/* Places an object of the request in its zone, connected to the skeleton by a FREE path that
 * ends at the tile below its entry (the approach, returned in *approach). Returns the object id,
 * 0 when no room was found, or sets *st on allocation failure. */
uint32_t rmg__connect_place(rmg__connect_state *s, const rmg__connect_request *rq, uint32_t *approach, rmg_status *st);
/* Places the surface and underground teleports of a mirror link at the same (x, y) (ZON-31). */
uint32_t rmg__connect_place_mirror(rmg__connect_state *s, const rmg__connect_request *top, const rmg__connect_request *bottom,
                              uint32_t approach[2], uint32_t ids[2], rmg_status *st);
/* Where a hero boards the boat a shipyard with entry `visit` builds at `spot`: the entry itself
 * when they touch, else an open land tile of the zone beside both; RMG__NO_TILE when none. */
uint32_t rmg__connect_boarding(const rmg__grid *b, uint32_t visit, uint32_t spot, int zone);
/* Removes the last object added (a half-built pair) and clears its footprint from the tiles. */
void rmg__connect_undo_last_object(rmg__connect_state *s);

/* ---- connections (connect_links.c) ---------------------------------------------------------- */

rmg_status rmg__connect_links(rmg__connect_state *s);
/* Mirror packs (WAT-03, WAT-05..07): reserves the mirror links' colours and counts the links. */
rmg_status rmg__connect_mirror_reserve(rmg__connect_state *s, size_t *links);
/* Places every mirror link's teleports (ZON-29..36). */
rmg_status rmg__connect_mirror_links(rmg__connect_state *s);
/* The seas: water zones touching one another form one (s->sea_of, connect_water.c). */
rmg_status rmg__connect_seas(rmg__connect_state *s);
/* Shipyards where the players need them to cross the seas (connect_water.c). */
rmg_status rmg__connect_water_travel(rmg__connect_state *s);
/* Warns about the land zones no start zone is joined to (a template's prize for flying heroes,
 * or one that water alone reaches). */
rmg_status rmg__connect_warn_apart(rmg__connect_state *s);
/* Copies the built surface onto the underground copy tile for tile: terrain, borders,
 * skeleton, objects and connections (WAT-03). */
rmg_status rmg__connect_mirror_copy(rmg__connect_state *s);

#endif
