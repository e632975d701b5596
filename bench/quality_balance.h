/* rmg_quality's balance section (issue 23): a balance report per corpus map, checked from the
 * map itself: every player has one, and no path is shorter than a walk that bounds the game's
 * from below; the report's time against the generation's; the templates by median score. */
#ifndef RMG_QUALITY_BALANCE_H
#define RMG_QUALITY_BALANCE_H

#include <stdio.h>

#include "rmg/rmg.h"

typedef struct qb_values {
    double *v;
    size_t n, cap;
} qb_values;

typedef struct qb_tally {
    long maps, reports;                 /* maps measured, reports made */
    long players_expected, players_reported, maps_complete;
    long pairs, pairs_walkable;         /* ordered pairs of players; with a walk between them */
    long pairs_equal, pairs_longer, pairs_shorter, pairs_unreached; /* the report against the bound */
    qb_values scores;                   /* per map */
    qb_values ratios;                   /* per map: report CPU time / generation CPU time */
    char name[200];                     /* "file: template" (per-template tallies) */
} qb_tally;

/* Reports on map (generated in gen_cpu_ms of thread CPU time) and checks the report; failures
 * are logged on log when it is not NULL, prefixed with `where`. */
void qb_measure(const rmg_map *map, double gen_cpu_ms, FILE *log, const char *where, qb_tally *q);
void qb_add(qb_tally *to, const qb_tally *from);
void qb_free(qb_tally *q);
double qb_median(const qb_values *v);
/* The `count` fairest and least fair templates by median score (ties by name). */
void qb_print_ranking(FILE *out, const qb_tally *const *templates, size_t n, size_t count);

#endif
