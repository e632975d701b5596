/* rmg stats --balance: the balance report of every map and the distribution of its measures. */
#ifndef RMG_TOOL_STATS_BALANCE_H
#define RMG_TOOL_STATS_BALANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rmg/rmg.h"

#define STATS_MEASURES 32
#define STATS_PLAYERS 8

/* One map's report, kept small: the score, each measure's spread and each player's value. */
typedef struct balance_result {
    bool ok;
    double score;
    int n_measures, n_players;
    const char *name[STATS_MEASURES];   /* the library's measure names */
    float spread[STATS_MEASURES];
    float value[STATS_PLAYERS][STATS_MEASURES];
    uint32_t has[STATS_PLAYERS];   /* bit per measure: the player has a value */
} balance_result;

/* Reports on map (ok false when the report fails). */
void stats_balance_collect(const rmg_map *map, balance_result *out);
/* The distributions over the maps (results[i] is seed first_seed + i; `stride` bytes apart). */
void stats_balance_text(FILE *out, const void *results, size_t stride, int runs, uint64_t first_seed);
/* One result as a JSON member ("balance":{...}), nothing when it has none. */
void stats_balance_json(FILE *out, const balance_result *r);

#endif
