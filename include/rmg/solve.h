/*
 * librmg solve: the choices a template leaves open that are not places (spec ZON-10..21, FAC,
 * MIS-16..38, OBJ-14, CON-14..18): town types, zone terrains and factions under the
 * type-selection rules, item bans with their fallbacks, the prison limit and road choices.
 *
 * The generator runs this as its `solve` stage; a host may also run it on a template alone to
 * preview the choices or to check a template's rules without generating (ZON-21).
 * Randomness comes from the context's seed (stream "solve").
 */
#ifndef RMG_SOLVE_H
#define RMG_SOLVE_H

#include "rmg/core.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rmg_solve_result rmg_solve_result;

typedef struct rmg_solve_options {
    size_t struct_size;
    int players;               /* total players: 0 = every zone counts (no player filter), prisons for 0 */
    int humans;                /* human players, 0 = 1 */
    rmg_water_level water;
    int player_towns[8];       /* faction id chosen by player 1..8, -1 (RMG_FACTION_NONE) = random; a
                                * choice outside the pack's allowed towns is refused (MIS-37) */
    uint64_t node_budget;      /* search nodes allowed (ZON-20); 0 = default (2,000,000) */
} rmg_solve_options;

/* Defaults: no player filter, water none, every player town random, default budget. */
RMG_API void rmg_solve_options_init(rmg_solve_options *options);

/* Solves template `template_index` of `pack`. Rule problems never fail the call: they become
 * warnings (ZON-21) and the result follows the spec's fallbacks; a player's town choice outside
 * the pack's allowed towns is RMG_ERR_INVALID_ARG (MIS-37). options may be NULL. The road
 * choices count the minimum towns only: a generated map decides CON-15 again with the towns it
 * placed, frequency towns included. */
RMG_API rmg_status rmg_solve(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                             const rmg_solve_options *options, rmg_solve_result **out);
/* The editor's check (ZON-21): RMG_OK when every rule is valid and all can hold together,
 * RMG_ERR_INVALID_DATA otherwise (the message lists the problems). options may be NULL. */
RMG_API rmg_status rmg_solve_validate(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                                      const rmg_solve_options *options);
/* No-op for NULL. */
RMG_API void rmg_solve_result_destroy(rmg_solve_result *result);

/* Per template zone (index into the template's zones). */
typedef struct rmg_solve_zone {
    size_t struct_size;
    int id;                    /* template zone number */
    int active;                /* 0 when the player filter removed the zone (the rest is -1) */
    int terrain;               /* chosen terrain id (before ZON-14 conversion) */
    int faction;               /* zone faction id, RMG_FACTION_NEUTRAL possible */
    int player_town_type;      /* faction id of the player towns, -1 none */
    int neutral_towns;         /* number of minimum neutral towns */
    int owner;                 /* player 1..8, 0 none */
    int human;
} rmg_solve_zone;
RMG_API void rmg_solve_zone_init(rmg_solve_zone *info);

RMG_API size_t rmg_solve_zone_count(const rmg_solve_result *result);
RMG_API rmg_status rmg_solve_zone_get(const rmg_solve_result *result, size_t zone_index, rmg_solve_zone *out);
/* Type of minimum neutral town k of a zone; -1 when out of range. */
RMG_API int rmg_solve_neutral_town(const rmg_solve_result *result, size_t zone_index, size_t k);

/* Per template connection: RMG_ROAD_SETTING_MANDATORY = must carry a road,
 * RMG_ROAD_SETTING_RANDOM = may (the standard road algorithm decides),
 * RMG_ROAD_SETTING_FORBIDDEN = never. -1 out of range. */
RMG_API size_t rmg_solve_connection_count(const rmg_solve_result *result);
RMG_API int rmg_solve_road(const rmg_solve_result *result, size_t connection_index);

/* Items by h3m id: 1 allowed, 0 banned, -1 unknown id. */
RMG_API int rmg_solve_artifact_allowed(const rmg_solve_result *result, int h3m_id);
RMG_API int rmg_solve_spell_allowed(const rmg_solve_result *result, int h3m_id);
RMG_API int rmg_solve_skill_allowed(const rmg_solve_result *result, int h3m_id);
RMG_API int rmg_solve_hero_allowed(const rmg_solve_result *result, int h3m_id);
/* 1 when the object type (object-defaults key) is banned by OBJ-14, 0 if not, -1 unknown. */
RMG_API int rmg_solve_object_banned(const rmg_solve_result *result, const char *object_key);
RMG_API int rmg_solve_prisons_max(const rmg_solve_result *result);           /* MIS-16 */
RMG_API uint32_t rmg_solve_allowed_towns(const rmg_solve_result *result);    /* MIS-38, faction-id mask */
RMG_API int rmg_solve_gem_spell(const rmg_solve_result *result);             /* MIS-34 spell h3m id, -1 */

/* Warnings in the order they arose; NULL out of range. */
RMG_API size_t rmg_solve_warning_count(const rmg_solve_result *result);
RMG_API const char *rmg_solve_warning(const rmg_solve_result *result, size_t index);

typedef struct rmg_solve_stats {
    size_t struct_size;
    uint64_t nodes_used;       /* search nodes spent */
    uint64_t node_budget;
    size_t rules_violated;     /* rules given up because they conflict (ZON-21) */
    size_t rule_errors;        /* invalid rules ignored (missing zones, ZON-17, ...) */
    size_t components;         /* independent parts of the rule problem */
    size_t exact_components;   /* parts sampled exactly uniformly */
    int budget_exhausted;
} rmg_solve_stats;
RMG_API void rmg_solve_stats_init(rmg_solve_stats *info);

RMG_API rmg_status rmg_solve_stats_get(const rmg_solve_result *result, rmg_solve_stats *out);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_solve_zone_get")
rmg_status rmg_solve_get_zone(const rmg_solve_result *result, size_t zone_index, rmg_solve_zone *out);
RMG_API RMG_DEPRECATED_NAME("use rmg_solve_stats_get")
rmg_status rmg_solve_get_stats(const rmg_solve_result *result, rmg_solve_stats *out);

#ifdef __cplusplus
}
#endif

#endif
