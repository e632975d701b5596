/*
 * librmg balance: how fair a finished map is for its players (a report per player measured from
 * the player's main town with the game's movement rules, the spread of every measure between
 * players and one fairness score), and fairness-aware generation (the fairest of N candidates).
 * docs/balance.md defines every measure and the score.
 *
 * Stability: stable (since 0.4.0).
 */
#ifndef RMG_BALANCE_H
#define RMG_BALANCE_H

#include "rmg/core.h"
#include "rmg/map.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rmg_balance rmg_balance;

/* Movement points of a day of travel: a hero whose slowest creature has speed 3 or 4, without
 * Logistics, on land (the game's smallest base movement). */
#define RMG_BALANCE_DAY_POINTS 1500
/* value_by_day and the other per-day arrays hold the days 1, 2, 3 and 7, in that order. */
#define RMG_BALANCE_DAYS 4
/* nearest_mine holds wood, mercury, ore, sulfur, crystal, gems, gold, in that order. */
#define RMG_BALANCE_RESOURCES 7

typedef struct rmg_balance_options {
    size_t struct_size;
    int day_points;                /* movement points of a day; 0: RMG_BALANCE_DAY_POINTS (100..5000) */
} rmg_balance_options;

RMG_API void rmg_balance_options_init(rmg_balance_options *options);

/* The balance report of a map (generated, or read from an .h3m file): one player per owner of a
 * main town (a town flagged main, else the owner's first town), in player order. options may be
 * NULL for the defaults. The report is allocated through the map's context and does not refer to
 * the map afterwards. A map without players gives a report without players (score 100). */
RMG_API rmg_status rmg_map_balance(const rmg_map *map, const rmg_balance_options *options, rmg_balance **out);
/* No-op for NULL. */
RMG_API void rmg_balance_destroy(rmg_balance *balance);

RMG_API size_t rmg_balance_player_count(const rmg_balance *balance);

typedef struct rmg_balance_player_info {
    size_t struct_size;
    int player;                    /* 1..8 */
    uint32_t town;                 /* the main town's object id */
    int town_x, town_y, town_z;    /* its entry tile, where the hero starts */
    int zone;                      /* the start zone (the town's zone), 0 on maps without zones */
    /* The weakest guard (AI value) the hero must beat to leave the start zone: 0 when a way out is
     * unguarded, -1 when there is no way out (on maps without zones: to reach another player's
     * main town). */
    int64_t weakest_exit_guard;
    /* Value within 1, 2, 3 and 7 days of travel (RMG_BALANCE_DAYS), by kind; value_by_day is
     * the sum of treasure, resources (piles and mines) and dwellings. */
    int64_t value_by_day[RMG_BALANCE_DAYS];
    int64_t treasure_by_day[RMG_BALANCE_DAYS];
    int64_t resources_by_day[RMG_BALANCE_DAYS];
    int64_t dwellings_by_day[RMG_BALANCE_DAYS];
    int towns_by_day[RMG_BALANCE_DAYS];          /* towns other than the player's main town */
    /* Movement points to the nearest mine of each resource, -1 when none is reachable. */
    int64_t nearest_mine[RMG_BALANCE_RESOURCES];
    size_t path_count;             /* paths to the other players (rmg_balance_path) */
} rmg_balance_player_info;
RMG_API void rmg_balance_player_info_init(rmg_balance_player_info *info);

RMG_API rmg_status rmg_balance_player_get(const rmg_balance *balance, size_t index, rmg_balance_player_info *out);

typedef struct rmg_balance_path_info {
    size_t struct_size;
    int player;                    /* the other player */
    int reachable;                 /* 0: no path; the measures below are then -1 (guards 0) */
    int64_t tiles;                 /* steps of the shortest walk (a teleport jump is no step) */
    int64_t cost;                  /* movement points of the cheapest path */
    int guards;                    /* guards fought on the cheapest path */
    int64_t strongest_guard;       /* the strongest of them (AI value) */
    int64_t guard_sum;             /* their sum (AI value) */
    size_t tile_count;             /* tiles of the cheapest path, rmg_balance_path_tiles */
} rmg_balance_path_info;
RMG_API void rmg_balance_path_info_init(rmg_balance_path_info *info);

/* Path path_index (0..path_count-1) of player `index`. */
RMG_API rmg_status rmg_balance_path_get(const rmg_balance *balance, size_t index, size_t path_index,
                                    rmg_balance_path_info *out);
/* The tile indexes (z*W*H + y*W + x) of the cheapest path, from the player's town to the other's;
 * returns how many there are and copies at most cap of them. */
RMG_API size_t rmg_balance_path_tiles(const rmg_balance *balance, size_t index, size_t path_index, uint32_t *buf,
                                      size_t cap);
/* Per tile (z*W*H + y*W + x, the map's size), the day of travel on which player `index`'s hero
 * first reaches it: 1..254; 255 for later, and for the tiles beyond what the report needed to
 * search (the seventh day, the farthest other town, the nearest mines); 0 where it never does.
 * size must be at least the map's tile count (RMG_ERR_BUFFER_TOO_SMALL). */
RMG_API rmg_status rmg_balance_reach_days(const rmg_balance *balance, size_t index, uint8_t *buf, size_t size);

/* The measures compared between players, in a fixed order: name ("path_cost", "value_1", ...,
 * "mine_gold") and spread ((max - min) / max over the players, 0..1; docs/balance.md). Returns
 * NULL (and leaves *spread) for an index past the last. */
RMG_API const char *rmg_balance_measure(const rmg_balance *balance, size_t index, double *spread);
/* Player `index`'s value of measure `measure` (the order of rmg_balance_measure): 1 with *value
 * set, 0 when the player has none (no path, no mine of that resource) or an index is out of range. */
RMG_API int rmg_balance_value(const rmg_balance *balance, size_t index, size_t measure, double *value);
/* The fairness score, 0..100 (100: every measure equal for every player; docs/balance.md). */
RMG_API double rmg_balance_score(const rmg_balance *balance);
/* The report as JSON (docs/balance.md); *out is allocated through the map's context: free with
 * rmg_free(ctx, *out). */
RMG_API rmg_status rmg_balance_to_json(const rmg_balance *balance, char **out, size_t *len);

/* ---- fairness-aware generation ------------------------------------------------------------- */

typedef struct rmg_best_of_options {
    size_t struct_size;
    int candidates;                /* maps generated, 1..1000; default 8 */
    /* Candidates generated at once: 0 or 1 one after the other on ctx; more run on worker
     * contexts that share ctx's allocator (it must then be thread-safe; the default one is) and
     * ruleset. A context with stage plugins always runs one at a time. */
    int threads;
    int day_points;                /* the balance report's day (rmg_balance_options); 0 default */
} rmg_best_of_options;

RMG_API void rmg_best_of_options_init(rmg_best_of_options *options);

typedef struct rmg_best_of_info {
    size_t struct_size;
    int candidate;                 /* the winner, 0..candidates-1 */
    uint64_t seed;                 /* its seed: rmg_rng_derive(seed, "best-of", candidate) */
    double score;                  /* its fairness score */
    int candidates;                /* generated */
    int failed;                    /* of them, how many gave no map */
} rmg_best_of_info;
RMG_API void rmg_best_of_info_init(rmg_best_of_info *info);

/* Generates `candidates` maps as rmg_generate does, candidate i with the seed
 * rmg_rng_derive(S, "best-of", i) where S is the context's seed (or one word of its host RNG), and
 * returns the fairest by the balance score (the lowest index among equal scores): the same seed,
 * options and count give the same map whatever the thread count. info may be NULL. Fails only
 * when every candidate fails (with the first failure's status and message). */
RMG_API rmg_status rmg_generate_best_of(rmg_context *ctx, const struct rmg_pack *pack,
                                        const rmg_generate_options *options, const rmg_best_of_options *best,
                                        rmg_map **out, rmg_best_of_info *info);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_balance_player_get")
rmg_status rmg_balance_player(const rmg_balance *balance, size_t index, rmg_balance_player_info *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_balance_path_get")
rmg_status rmg_balance_path(const rmg_balance *balance, size_t index, size_t path_index,
                            rmg_balance_path_info *out);

#ifdef __cplusplus
}
#endif

#endif
