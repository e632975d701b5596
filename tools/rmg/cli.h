/* Shared helpers of the rmg subcommands: generation options, loading a pack. */
#ifndef RMG_TOOL_CLI_H
#define RMG_TOOL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rmg/rmg.h"
#include "map/map_internal.h" /* rmg__stage_name */

typedef struct cli_gen {
    rmg_generate_options opt;
    const char *template_file;  /* NULL: built-in pack */
    uint64_t seed;
    bool seed_given;
    rmg_content_variant game;   /* --game: RMG_CONTENT_HOTA (default) or RMG_CONTENT_SOD */
} cli_gen;

void cli_gen_init(cli_gen *g);
/* Consumes the generation option at argv[*i] (and its value); returns 1 if it was one, 0 if
 * not, -1 on a bad value (message printed). */
int cli_gen_option(cli_gen *g, int argc, char **argv, int *i, const char *cmd);
/* Gives ctx the ruleset of the game g asks for (--game). Prints errors; returns the exit code
 * (0 ok, 2 failure). */
int cli_set_game(rmg_context *ctx, const cli_gen *g, const char *cmd);
/* Loads the pack named by g->template_file (NULL: built-in). Prints errors; returns the exit
 * code (0 ok, 2 unreadable). */
int cli_load_pack(rmg_context *ctx, const char *file, rmg_pack **out, const char *cmd);
/* Text shared by the --help of commands that generate. */
extern const char cli_gen_help[];
/* Monotonic wall clock in milliseconds. */
double cli_now_ms(void);
bool cli_parse_u64(const char *s, uint64_t *out);
bool cli_parse_int(const char *s, int lo, int hi, int *out);
/* "none", "normal" or "islands" as an rmg_water_level; -1 for anything else. */
int cli_water_level(const char *s);
/* "rmg CMD: bad value 'V' for OPTION; did you mean 'x'? (one of a, b, c)" on stderr (the
 * suggestion when one of the n names is near, rmg_name_suggest). */
void cli_bad_name(const char *cmd, const char *option, const char *value, const char *const *names, int n);
/* Online cores (1..64). */
int cli_cores(void);

/* Fairness-aware generation (--best-of N, --threads N, --day-points N). */
typedef struct cli_best {
    int candidates;             /* 0 or 1: one map */
    int threads;                /* 0: every core */
    int day_points;             /* 0: the report's default */
} cli_best;
typedef struct cli_generated {
    double ms;                  /* wall time of the generation */
    rmg_best_of_info best;      /* with best->candidates > 1: the winner */
} cli_generated;
/* Consumes --best-of N, --threads N or --day-points N at argv[*i]; same returns as cli_gen_option. */
int cli_best_option(cli_best *b, int argc, char **argv, int *i, const char *cmd);
/* Generates the map g asks for (the pack of g->template_file, NULL the built-in one): the fairest
 * of best->candidates when there are several (best may be NULL). Prints errors; returns the exit
 * code (0 ok, 1 no map, 2 bad input). */
int cli_generate(rmg_context *ctx, const cli_gen *g, const cli_best *best, rmg_map **map, cli_generated *out,
                 const char *cmd);
void cli_print_best_of(FILE *out, const rmg_best_of_info *b);
/* Whether the file is a map document (docs/map-json.md; rmg__map_load_json reads one). */
bool cli_is_map_json(const char *path);
/* Writes s as a JSON string (quotes, backslashes and control bytes escaped); NULL as null. */
void cli_json_string(FILE *out, const char *s);

#endif
