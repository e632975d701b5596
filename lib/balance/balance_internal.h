/*
 * The balance report (docs/balance.md): a movement graph built once per map from its tiles and
 * objects (balance_graph.c), searches over it from each player's town (balance_search.c), the
 * measures and the score (balance_measure.c), the public accessors (balance_api.c) and the JSON
 * document (balance_json.c). The report reads a finished map and never changes it.
 */
#ifndef RMG_BALANCE_INTERNAL_H
#define RMG_BALANCE_INTERNAL_H

#include "map/map_internal.h"
#include "map/map_reach.h"
#include "rmg/balance.h"

#define RMG__BALANCE_MAX_PLAYERS 8
/* An unreached node. */
#define RMG__BALANCE_FAR UINT32_MAX

/* ---- the movement graph -------------------------------------------------------------------- */

/* What a tile is to a moving hero (bits of graph.kind). */
#define RMG__BAL_LAND   0x01u  /* a hero stands or walks here (guards and Border Guards included) */
#define RMG__BAL_WATER  0x02u  /* a boat sails here */
#define RMG__BAL_BOAT   0x04u  /* a boat waits here (a Boat, or where a shipyard builds one) */
#define RMG__BAL_PORTAL 0x08u  /* a teleport entrance with somewhere to go: stepping here jumps */
#define RMG__BAL_GUARDED 0x10u /* in a guard's zone of control */

/* How a move is made. */
typedef enum rmg__balance_how {
    RMG__BAL_WALK = 0,             /* one step on land, or one on water in a boat */
    RMG__BAL_JUMP = 1,             /* through a teleport: no step, no movement points */
    RMG__BAL_EMBARK = 2,           /* onto a boat: the game ends the hero's day there */
    RMG__BAL_DISEMBARK = 3         /* off a boat: likewise */
} rmg__balance_how;

typedef struct rmg__balance_move {
    uint32_t to;                   /* node */
    uint16_t step;                 /* movement points of the step (0 for a jump) */
    uint8_t how;                   /* rmg__balance_how */
    uint8_t guarded;               /* 1: it ends in a guard's zone of control */
} rmg__balance_move;

/* Nodes: tile t is node t (for a portal tile: the hero stepping in, who jumps at once); a hero who
 * arrives through a teleport stands on its exit tile as node n_tiles + p when that exit is portal
 * p (so that arriving does not jump again), else on the exit's tile node. */
typedef struct rmg__balance_graph {
    const struct rmg_map *map;
    rmg__reach reach;              /* the movement model (lib/map/map_reach.h) the moves come from */
    bool has_reach;
    const struct rmg_content *content;
    int w, h, levels;
    size_t n_tiles, n_nodes;
    uint8_t *kind;                 /* per tile: RMG__BAL_* */
    uint16_t *cost;                /* per tile: movement points of a straight step leaving it */
    uint16_t *dirs;                /* per tile: directions of its walks (low byte) and boat moves (high) */
    int offset[8];                 /* tile index offset of each direction (the last 4 diagonal) */
    uint16_t road_cost[4];         /* per road type: a straight step from road to road */
    /* Teleports. */
    uint32_t *portal_of;           /* per tile: portal index + 1, 0 none */
    uint32_t *portal_tile;         /* per portal: its tile */
    uint32_t *dest_start;          /* per portal + 1: CSR into dest */
    uint32_t *dest;                /* arrival nodes */
    size_t n_portals, max_dests;
    bool steps_symmetric;          /* every move can be made back (no one-way jump, no boat) */
    /* Guards: monsters, each with its zone of control (its tile and the 8 around it). */
    size_t n_guards;
    uint32_t *guard_tile;          /* per guard: its tile */
    int64_t *guard_value;          /* per guard: AI value of the stack */
    uint32_t *zoc_start;           /* per tile + 1: CSR into zoc_guard */
    uint32_t *zoc_guard;           /* guards whose zone of control covers the tile */
    /* What a player's reach is measured against (balance_measure.c). */
    struct rmg__balance_valued *valued;
    size_t n_valued;
    uint32_t *valued_entry;
    uint8_t *mine_near;            /* per tile: resources (bit r) of the mines it is an entry of */
    uint8_t mines_present;         /* resources that have a mine on the map */
} rmg__balance_graph;

/* An object with a value, a town or a mine, and its entry tiles. */
typedef enum rmg__balance_class {
    RMG__BAL_TREASURE = 0,
    RMG__BAL_RESOURCES = 1,        /* resource piles, warehouses and mines */
    RMG__BAL_DWELLING = 2,
    RMG__BAL_TOWN = 3
} rmg__balance_class;

typedef struct rmg__balance_valued {
    uint32_t object;               /* object id */
    uint8_t cls;                   /* rmg__balance_class */
    int8_t mine;                   /* resource of a mine, 0..6; -1 not a mine */
    int64_t value;
    uint32_t entry_start, entry_count; /* its entry tiles in graph.valued_entry */
} rmg__balance_valued;

rmg_status rmg__balance_graph_build(rmg__balance_graph *g, const struct rmg_map *m, rmg_context *ctx);
void rmg__balance_graph_free(rmg__balance_graph *g, rmg_context *ctx);
/* The tile a node stands on. */
static inline uint32_t rmg__balance_node_tile(const rmg__balance_graph *g, uint32_t node)
{
    return node < g->n_tiles ? node : g->portal_tile[node - g->n_tiles];
}

/* Movement points of a step from tile `from` to its neighbour `to`: the road's cost when both
 * tiles have a road, else the terrain's of the tile left; a diagonal step 1.414 times a straight
 * one, rounded down (the game's rule). */
static inline uint16_t rmg__balance_diagonal(uint16_t straight)
{
    return (uint16_t)(straight * 1414u / 1000u);
}

static inline uint16_t rmg__balance_step_dir(const rmg__balance_graph *g, uint32_t from, uint32_t to, bool diagonal)
{
    const uint8_t *road = g->map->road;
    uint16_t base = road[from] && road[to] && road[from] < 4 ? g->road_cost[road[from]] : g->cost[from];
    return diagonal ? rmg__balance_diagonal(base) : base;
}

/* The first direction from d on with a move in a tile's direction mask (graph.dirs), 8 for none. */
static inline unsigned rmg__balance_next_dir(unsigned mask, unsigned d)
{
    while (d < 8 && !(mask >> d & 0x101u))
        d++;
    return d;
}

/* The moves out of a node; out holds at least 8 + g->max_dests moves. */
static inline size_t rmg__balance_moves(const rmg__balance_graph *g, uint32_t node, rmg__balance_move *out)
{
    size_t n = 0;
    if (node < g->n_tiles && (g->kind[node] & RMG__BAL_PORTAL)) {
        uint32_t p = g->portal_of[node] - 1;
        for (uint32_t i = g->dest_start[p]; i < g->dest_start[p + 1]; i++) {
            uint32_t v = g->dest[i];
            out[n++] = (rmg__balance_move){v, 0, RMG__BAL_JUMP,
                                           (uint8_t)(g->kind[rmg__balance_node_tile(g, v)] & RMG__BAL_GUARDED ? 1 : 0)};
        }
        return n;
    }
    uint32_t t = rmg__balance_node_tile(g, node);
    uint8_t shift = g->kind[t] & RMG__BAL_WATER ? RMG__BAL_DISEMBARK : RMG__BAL_EMBARK;
    unsigned mask = g->dirs[t];
    for (unsigned d = rmg__balance_next_dir(mask, 0); d < 8; d = rmg__balance_next_dir(mask, d + 1)) {
        uint32_t u = (uint32_t)((int64_t)t + g->offset[d]);
        out[n++] = (rmg__balance_move){u, rmg__balance_step_dir(g, t, u, d >= 4),
                                       (uint8_t)(mask >> d & 1u ? RMG__BAL_WALK : shift),
                                       (uint8_t)(g->kind[u] & RMG__BAL_GUARDED ? 1 : 0)};
    }
    return n;
}
/* Movement points of a step leaving tile `from` for its neighbour `to`. */
uint16_t rmg__balance_step(const rmg__balance_graph *g, uint32_t from, uint32_t to);
/* The tiles of guard k's zone of control (its tile and the 8 around it on its level). */
size_t rmg__balance_zoc_tiles(const rmg__balance_graph *g, size_t guard, uint32_t out[9]);
/* The objects a player's reach is measured against (balance_measure.c, part of the graph). */
rmg_status rmg__balance_valued_build(rmg__balance_graph *g, rmg_context *ctx);

/* ---- searches ------------------------------------------------------------------------------ */

typedef enum rmg__balance_metric {
    RMG__BAL_BY_POINTS = 0,        /* movement points (guards passable at no price); among equally
                                    * cheap paths the one with the fewest guarded tiles */
    RMG__BAL_BY_STEPS = 1          /* steps (tiles walked or sailed) */
} rmg__balance_metric;

/* A bucket of the queue: node ids in arrival order (read from head). */
typedef struct rmg__balance_bucket {
    RMG__VEC(uint32_t) items;
    size_t head;
} rmg__balance_bucket;

typedef struct rmg__balance_search {
    rmg_context *ctx;
    size_t n_nodes;
    uint32_t *dist;                /* per node: points or steps, RMG__BALANCE_FAR unreached */
    uint32_t *guarded;             /* per node: guarded tiles on the best path (BY_POINTS) */
    uint32_t *pred;                /* per node: the node before it on the best path */
    uint8_t *done;                 /* per node: entered (exit flood) */
    uint8_t *tried;                /* per node: the exit flood found it covered by a guard */
    uint8_t *cover;                /* per tile: guards still covering it (exit flood) */
    uint32_t *heap;                /* guards met by the exit flood, weakest first */
    size_t heap_len;
    uint8_t *touched;              /* per guard: met by the exit flood */
    rmg__balance_move *moves;
    uint32_t *deque;               /* the breadth-first search's (BY_STEPS) */
    rmg__balance_bucket *buckets;  /* circular: longer than any move (BY_POINTS) */
    size_t n_buckets;
    uint32_t day_points;
    /* BY_POINTS: the cost below which every node is settled (UINT32_MAX: the whole graph was
     * searched; nodes still unreached are unreachable). */
    uint32_t settled_below;
} rmg__balance_search;

rmg_status rmg__balance_search_init(rmg__balance_search *s, const rmg__balance_graph *g, rmg_context *ctx,
                                    uint32_t day_points);
void rmg__balance_search_free(rmg__balance_search *s);
/* Shortest paths from `source` by the metric. BY_STEPS stops once every node of `targets` is
 * settled (n_targets 0: the whole graph). BY_POINTS goes on until the targets are settled, every
 * node within `horizon` points too, and for each resource with a mine the nearest mine is known
 * (one of its entries settled); s->settled_below says how far. */
rmg_status rmg__balance_search_run(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source,
                                   rmg__balance_metric metric, const uint32_t *targets, size_t n_targets,
                                   uint32_t horizon);
/* The weakest guard to beat from `source` to a node for which goal(user, tile) holds: 0 when one
 * is reached unguarded, -1 when none can be. Uses dist/done/tried/cover. */
rmg_status rmg__balance_exit_guard(rmg__balance_search *s, const rmg__balance_graph *g, uint32_t source,
                                   bool (*goal)(const void *user, uint32_t tile), const void *user,
                                   int64_t *out);

/* ---- the report ---------------------------------------------------------------------------- */

typedef struct rmg__balance_path {
    int player;
    bool reachable;
    int64_t tiles, cost;
    int guards;
    int64_t strongest, guard_sum;
    uint32_t *path;                /* tiles of the cheapest path (report-owned) */
    size_t path_len;
} rmg__balance_path;

typedef struct rmg__balance_player {
    int player;
    uint32_t town;
    uint32_t source;               /* the town's entry tile */
    int zone;
    int64_t weakest_exit_guard;
    int64_t by_class[4][RMG_BALANCE_DAYS]; /* rmg__balance_class: values (towns: counts) */
    int64_t nearest_mine[RMG_BALANCE_RESOURCES];
    rmg__balance_path to[RMG__BALANCE_MAX_PLAYERS];
    size_t n_to;
    uint8_t *reach_days;           /* per tile */
} rmg__balance_player;

/* The measures compared between players (balance_measure.c, docs/balance.md). */
typedef enum rmg__balance_measure_id {
    RMG__BAL_M_PATH_COST = 0,
    RMG__BAL_M_PATH_TILES,
    RMG__BAL_M_STRONGEST_GUARD,
    RMG__BAL_M_GUARD_SUM,
    RMG__BAL_M_EXIT_GUARD,
    RMG__BAL_M_VALUE_1,
    RMG__BAL_M_VALUE_2,
    RMG__BAL_M_VALUE_3,
    RMG__BAL_M_VALUE_7,
    RMG__BAL_M_MINE_FIRST,         /* then one per resource */
    RMG__BAL_M_COUNT = RMG__BAL_M_MINE_FIRST + RMG_BALANCE_RESOURCES
} rmg__balance_measure_id;

struct rmg_balance {
    rmg_context *ctx;
    int width, height, levels;
    size_t n_tiles;
    uint32_t day_points;
    rmg__balance_player players[RMG__BALANCE_MAX_PLAYERS];
    size_t n_players;
    double spread[RMG__BAL_M_COUNT];
    double score;
};

/* The days value_by_day reports (RMG_BALANCE_DAYS of them). */
extern const int rmg__balance_days[RMG_BALANCE_DAYS];
/* Resource keys in nearest_mine order. */
extern const char *const rmg__balance_resources[RMG_BALANCE_RESOURCES];

/* Finds the players and measures each of them (balance_measure.c). */
rmg_status rmg__balance_measure(struct rmg_balance *b, const rmg__balance_graph *g, rmg__balance_search *s);
/* Spreads and the score from the players' measures. */
void rmg__balance_summarize(struct rmg_balance *b);
const char *rmg__balance_measure_name(size_t index);
/* A player's value of measure `index`; false when the player has none (no path, no mine). */
bool rmg__balance_player_measure(const rmg__balance_player *p, size_t index, double *out);

#endif
