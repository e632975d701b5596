/*
 * Internal interface of the solve stage (spec ZON-10..21, FAC, MIS-16..38, OBJ-14, CON-14..18).
 *
 *   csp.c     a small binary constraint solver over bitmask domains (values 0..31): arc
 *             consistency, exact uniform sampling by counting small components, randomized
 *             search with restarts for large ones, conflict cores and a local-search fallback.
 *   typing.c  the type-selection problem of a template (towns, terrains, factions) on top of it.
 *   bans.c    artifacts, spells, skills, heroes, towns, objects (OBJ-14), prisons, Gem's spell.
 *   roads.c   road choices per connection (CON-15..18).
 *   solve.c   the stage entry point and the public API (rmg/solve.h).
 */
#ifndef RMG_SOLVE_INTERNAL_H
#define RMG_SOLVE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "content/content_internal.h"
#include "map/map_internal.h"
#include "template/model.h"
#include "rmg/solve.h"

/* ---- generic constraint solver ---------------------------------------------------------- */

#define RMG__CSP_VALUES 32

/* A binary constraint: value a of x is compatible with the values in sup_xy[a] of y. */
typedef struct rmg__csp_con {
    int x, y;
    int tag;                          /* caller's id, reported in conflicts */
    bool enabled;
    uint32_t sup_xy[RMG__CSP_VALUES];
    uint32_t sup_yx[RMG__CSP_VALUES]; /* filled by rmg__csp_con_finish */
} rmg__csp_con;

/* A set of constraints that cannot hold together (minimal when every sub-search finished). */
typedef struct rmg__csp_conflict {
    int *core;                        /* tags */
    size_t n_core;
    bool minimal;
    int dropped;                      /* tag given up to go on, -1 when local search took over */
} rmg__csp_conflict;

typedef struct rmg__csp_report {
    rmg__csp_conflict *conflicts;     size_t n_conflicts;
    int *violated;                    size_t n_violated; /* tags the final assignment breaks */
    bool budget_exhausted;
    size_t components, exact_components;
    uint64_t solutions_counted;       /* sum over exactly sampled components */
} rmg__csp_report;

typedef struct rmg__csp {
    rmg__arena *arena;                /* every array of the problem and the report */
    size_t n_vars;
    uint32_t *dom;                    /* initial domains (bit v = value v allowed) */
    rmg__csp_con *cons;               size_t n_cons;
    uint64_t budget;                  /* search nodes allowed in total */
    uint64_t nodes;                   /* search nodes used so far */
    uint64_t enum_limit;              /* nodes allowed to count one component exactly */
    /* Built by the solver: constraint ids per variable (CSR). */
    size_t *adj_start, *adj;
} rmg__csp;

#define RMG__CSP_DEFAULT_BUDGET 2000000u
#define RMG__CSP_DEFAULT_ENUM_LIMIT 60000u

/* Sets up an empty problem with n_vars variables whose domains are 0 (fill csp->dom). */
rmg_status rmg__csp_init(rmg__csp *csp, rmg_context *ctx, rmg__arena *arena, size_t n_vars, uint64_t budget);
/* Appends a constraint between x and y (x != y) with empty support; NULL on allocation failure
 * (error set). Fill sup_xy, then call rmg__csp_con_finish. */
rmg__csp_con *rmg__csp_add(rmg_context *ctx, rmg__csp *csp, int x, int y, int tag);
void rmg__csp_con_finish(rmg__csp_con *c);
/* Finds an assignment (assign[v] = value) satisfying every enabled constraint and domain.
 * Components of the constraint graph are solved independently. A component whose solutions can
 * be counted within enum_limit nodes (and number below 2^58) is sampled exactly uniformly;
 * others by randomized search with restarts followed by Gibbs mixing steps. When a component
 * has no solution, a conflicting set is recorded and its latest constraint (highest position)
 * is disabled until the component becomes solvable; when the budget runs out, a bounded local
 * search minimises the number of broken constraints. Always returns an assignment within the
 * domains unless allocation fails. */
rmg_status rmg__csp_solve(rmg_context *ctx, rmg__csp *csp, rmg_rng *rng, uint32_t *assign, rmg__csp_report *rep);
/* How rmg__csp_solve_mode treats a component (the default is EXACT_FIRST). */
typedef enum rmg__csp_mode {
    RMG__CSP_EXACT_FIRST = 0,   /* count and sample exactly when it fits, else search + mixing */
    RMG__CSP_SEARCH_MIXED = 1,  /* search + Gibbs mixing only (measurement) */
    RMG__CSP_SEARCH_PLAIN = 2   /* randomized search only (measurement) */
} rmg__csp_mode;
rmg_status rmg__csp_solve_mode(rmg_context *ctx, rmg__csp *csp, rmg_rng *rng, uint32_t *assign,
                               rmg__csp_report *rep, rmg__csp_mode mode);
/* True when value a of x and b of y satisfy c. */
bool rmg__csp_con_ok(const rmg__csp_con *c, const uint32_t *assign);

/* ---- the solve stage ------------------------------------------------------------------------ */

/* What a solve run reads. */
typedef struct rmg__solve_input {
    const struct rmg_content *content;
    const struct rmg_pack *pack;
    const rmg__template *tpl;
    const bool *zone_active;          /* per template zone; NULL = all */
    const bool *conn_active;          /* per template connection; NULL = all */
    int players;                      /* total players (MIS-16), >= 0 */
    int humans;                       /* human players, 0 = 1 */
    rmg_water_level water;
    const int *player_towns;          /* [8]: faction id chosen by player i+1, -1 random; NULL all random */
    uint64_t node_budget;             /* 0 = RMG__CSP_DEFAULT_BUDGET */
    rmg_rng rng_types, rng_factions;  /* streams ("solve", 0) and ("solve", 1) */
} rmg__solve_input;

/* Statistics of a run. */
typedef struct rmg__solve_stats {
    uint64_t nodes_used, budget;
    size_t rules_violated;            /* rules (and structural constraints) given up */
    size_t rule_errors;               /* invalid rules (missing zones, ZON-17, ...) dropped */
    size_t components, exact_components;
    bool budget_exhausted;
} rmg__solve_stats;

/* Warnings collected by a run (strings in the run's output arena). */
typedef struct rmg__solve_warnings {
    char **items;
    size_t count;
} rmg__solve_warnings;

/* What a run decides beyond rmg__solution (candidates for appending to it). */
typedef struct rmg__solve_extra {
    uint8_t *road_choice;             /* per template connection: rmg_road_setting after CON-15..18
                                       * (MANDATORY = must carry a road, RANDOM = may, FORBIDDEN = never) */
    int *road_group;                  /* per template connection: representative of its parallel
                                       * group (CON-18), -1 when no road can use it (inactive, fictive) */
    uint8_t *hero_start_choice;       /* per content hero: among the first 16 allowed of its town (MIS-32) */
    bool interference_to_resistance;  /* MIS-35 runtime substitution applies */
    rmg__solve_warnings warnings;
    rmg__solve_stats stats;
} rmg__solve_extra;

/* Where a run writes: every array lives in `arena`. */
typedef struct rmg__solve_out {
    rmg__arena *arena;
    rmg__solution *sol;
    rmg__solve_extra *x;
} rmg__solve_out;

/* Fills out->sol and out->x from `in`. Only allocation failures are errors; every rule
 * problem becomes a warning (ZON-21). */
rmg_status rmg__solve_run(rmg_context *ctx, rmg__solve_input *in, const rmg__solve_out *out);

/* Parts of a run. */
rmg_status rmg__solve_types(rmg_context *ctx, rmg__solve_input *in, const rmg__solve_out *out);
rmg_status rmg__solve_bans(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out);
rmg_status rmg__solve_roads(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out);
/* CON-15..18 with `town` (per template zone: it holds a town): per template connection its
 * road choice (an rmg_road_setting: MANDATORY must carry a road, RANDOM may, FORBIDDEN never) and
 * the representative of its parallel group (-1 when no road can use it). Reads in->tpl,
 * in->zone_active and in->conn_active only. */
rmg_status rmg__solve_road_choices(rmg_context *ctx, const rmg__solve_input *in, const bool *town, uint8_t *road_choice,
                                   int *road_group);
rmg_status rmg__solve_warn(const rmg__solve_out *out, const char *fmt, ...) RMG__PRINTF(2, 3);

/* Town types of the content (faction-id mask). */
uint32_t rmg__solve_town_factions(const struct rmg_content *c);
/* The pack's allowed towns (PCK-10) among the content's, Castle when none is left (MIS-38,
 * *fallback set): the types a player may choose before generation. */
uint32_t rmg__solve_pack_towns(const struct rmg_content *c, const struct rmg_pack *pack, bool *fallback);
/* The content key of faction `id` ("?" when the content has none). */
const char *rmg__solve_faction_key(const struct rmg_content *c, int id);
/* Each player's town choice of the generate options: a faction id, RMG_FACTION_NONE random. */
void rmg__solve_chosen_towns(const rmg_generate_options *o, int out[8]);
/* MIS-37: every chosen town (RMG_FACTION_NONE = random) is a town type of the content and among
 * the pack's allowed towns; RMG_ERR_INVALID_ARG naming the player otherwise. */
rmg_status rmg__solve_check_town_choice(rmg_context *ctx, const struct rmg_content *c, const struct rmg_pack *pack,
                                        const int towns[8]);

/* MIS-16: max(0, allowed_heroes - (10 * players + 48)). */
int rmg__prisons_max(int allowed_heroes, int players);

/* Does zone z hold at least one minimum town (MIS-06), a start zone its player's town? */
bool rmg__zone_has_min_towns(const rmg__zone *z);

/* The stage: fills g->sol from g->tpl, g->zone_active, g->conn_active, g->opt. The rest of
 * the run (rmg__solve_extra) is kept in g->stage_data[RMG_STAGE_SOLVE]: read it with
 * rmg__solve_extra_of. */
rmg_status rmg__stage_solve(rmg__gen *g);
/* The extra decisions of the last solve of g, NULL before the stage ran. */
const rmg__solve_extra *rmg__solve_extra_of(const rmg__gen *g);
/* Releases what the stage allocated (also declared in map/map_internal.h); safe twice. */
void rmg__solution_free(rmg__gen *g);

#endif
