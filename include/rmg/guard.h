/*
 * librmg guard: the monsters that guard objects, object groups and connections (spec §11,
 * GRD-01..11, and the zone monster settings ZON-23..28). Usable on its own: an engine can ask
 * for the guard of any value without generating a map.
 *
 *   index = zone term + map term                         (GRD-01, rmg_guard_strength_index)
 *   total = sum of (v - min_i) * k_i over the terms with v > min_i   (GRD-03, rmg_guard_total)
 *   a guard stands when total >= 2000                    (GRD-05, rmg_guard_needed)
 *   monster: one creature type drawn from the eligible ones      (GRD-06, rmg_guard_compute)
 *   count:   a = round_half_up(total / AI), jittered when a >= 4 (GRD-07, rmg_guard_draw_count)
 *
 * Totals are exact: every total is a multiple of 0.25 (the factors are 0.5, 0.75, 1 and 1.5),
 * which a double holds exactly for every value up to RMG_GUARD_VALUE_MAX. Compare totals with
 * == and >= freely (GRD-11: 1999.5 is not guarded, 2000 is).
 *
 * Choices where the spec is open (§14), fixed here and part of the behavioural promise:
 *   - eligibility compares the exact quotient total / AI (not rounded) with the window
 *     [floor((map_min + map_max) / 2), 100);
 *   - the monster type is drawn uniformly among the eligible creature types of the allowed
 *     factions (each type weighs 1, whatever its level or faction);
 *   - when no creature type is eligible, the fallback takes the creature of an allowed faction
 *     whose exact mean count t lies closest to its window, measured as a ratio: lower bound / t
 *     below the window, t / 100 at or above it (a stack twice too small weighs like one twice
 *     too big); ties go to the lowest content index. If the allowed factions have no usable
 *     creature at all, the same rule runs over every faction. rmg_guard.choice tells which
 *     rule chose the creature. A fallback mean below 1 is raised to 1;
 *   - the mood draw and both count jitters are uniform (§0 default);
 *   - mean counts are capped at RMG_GUARD_COUNT_MAX (reachable only with unusual content).
 *
 * Randomness: rmg_guard_compute draws from the rmg_rng the caller passes, or, when it passes
 * NULL, from the context stream ("guard", request->stream) (rmg_context_stream). Draw order per
 * guard: creature type, then the two count jitters (only when a >= 4), then the mood (only for
 * range moods).
 */
#ifndef RMG_GUARD_H
#define RMG_GUARD_H

#include "rmg/core.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GRD-05: the smallest total that gets a guard. */
#define RMG_GUARD_MIN_TOTAL 2000
/* ZON-22: an Airship Yard is guarded as an object of this value. */
#define RMG_GUARD_AIRSHIP_YARD_VALUE 12000
/* Largest guarded value the functions accept (any 32-bit template value). */
#define RMG_GUARD_VALUE_MAX 2147483647LL
/* Largest mean count a (GRD-07) a guard gets; the jitter may add a quarter. */
#define RMG_GUARD_COUNT_MAX 100000
/* GRD-06: a creature is eligible only while its mean count stays below this. */
#define RMG_GUARD_MEAN_LIMIT 100

/* GRD-01: strength index 1..5 from the zone's and the map's monster strength. A connection
 * guard (connection != 0) uses zone term 0 whatever the zone says (ZON-23). Returns 0 when the
 * zone strength is RMG_MONSTERS_NONE and the guard is not a connection's (the zone's content
 * is unguarded, TRS-08), -1 for an enum value out of range. */
RMG_API int rmg_guard_strength_index(rmg_monster_strength zone, rmg_map_monsters map, int connection);

/* GRD-02/03: the exact total for value v and strength index 1..5 (a multiple of 0.25; negative
 * values give 0). Returns -1.0 for an index outside 1..5 or v > RMG_GUARD_VALUE_MAX. */
RMG_API double rmg_guard_total(int64_t value, int index);

/* GRD-05/09: 1 when the total for (value, index) is at least RMG_GUARD_MIN_TOTAL, 0 when it is
 * not or when index is 0 (zone strength none), -1 for invalid arguments. */
RMG_API int rmg_guard_needed(int64_t value, int index);

/* GRD-06: 1 when a creature with AI value `ai_value` and random-map stack bounds
 * [map_min, map_max] may guard `total`: floor((map_min + map_max) / 2) <= total / ai_value < 100
 * with the exact quotient; 0 when not; -1 for invalid arguments (ai_value <= 0, negative or
 * inverted bounds, total not a non-negative multiple of 0.25 or too large). */
RMG_API int rmg_guard_eligible(double total, int ai_value, int map_min, int map_max);

/* GRD-07: the mean count a = round_half_up(total / ai_value) (capped at RMG_GUARD_COUNT_MAX);
 * -1 for invalid arguments (as rmg_guard_eligible). */
RMG_API int rmg_guard_mean_count(double total, int ai_value);

/* GRD-07: the count for mean a: a itself when a < 4, else a + r1 - r2 with r1, r2 drawn
 * independently and uniformly from [0, floor(a/4)]. -1 when rng is NULL or a < 0. */
RMG_API int rmg_guard_draw_count(rmg_rng *rng, int mean);

/* ZON-24: a monster's mood 0..10: compliant 0, friendly 1..7, aggressive 1..10, hostile 4..10,
 * savage 10, exact `exact_value` (0..10). -1 for invalid arguments. Range moods draw once. */
RMG_API int rmg_guard_draw_disposition(rmg_rng *rng, rmg_mood mood, int exact_value);

/* What to guard and with which zone settings. Initialise with rmg_guard_request_init. */
typedef struct rmg_guard_request {
    size_t struct_size;
    int64_t value;                      /* GRD-04: value of the object, group, connection */
    rmg_map_monsters map_strength;      /* the map's monster strength (global term) */
    rmg_monster_strength zone_strength; /* the zone term; ignored for connection guards */
    int connection;                     /* non-zero: a connection guard (zone term 0) */
    uint32_t monster_factions;          /* ZON-27: bit per faction id (bit RMG_FACTION_NEUTRAL
                                           for neutral creatures); 0 = every faction */
    int match_town;                     /* ZON-27: also allow the zone's town type */
    int town_faction;                   /* faction id of the zone's town, -1 = none */
    rmg_mood mood;                      /* ZON-24 */
    int mood_value;                     /* 0..10, used with RMG_MOOD_EXACT */
    int join_percent;                   /* ZON-25: 0..100 (templates use 25, 50, 75, 100) */
    int join_only_for_money;            /* ZON-26 */
    uint64_t stream;                    /* context stream index used when no rng is passed */
} rmg_guard_request;

/* Defaults: value 0, normal map strength, medium zone strength, all factions, no town binding,
 * the template editor's mood (hostile), join 50 %, join only for money. */
RMG_API void rmg_guard_request_init(rmg_guard_request *request);

/* How the creature type was chosen. */
typedef enum rmg_guard_choice {
    RMG_GUARD_CHOICE_NONE = 0,           /* no guard */
    RMG_GUARD_CHOICE_ELIGIBLE = 1,       /* uniform draw among eligible types (GRD-06) */
    RMG_GUARD_CHOICE_NEAREST = 2,        /* fallback: closest to the window, allowed factions */
    RMG_GUARD_CHOICE_NEAREST_ANY = 3     /* fallback: closest to the window, any faction */
} rmg_guard_choice;

/* One computed guard. Set struct_size before the call. */
typedef struct rmg_guard {
    size_t struct_size;
    int guarded;                 /* 1 when a monster stands guard */
    int strength_index;          /* 1..5; 0 when the zone's strength is none */
    double total;                /* GRD-03, exact */
    int64_t value;               /* the guarded value */
    int creature;                /* content creature index, -1 when unguarded */
    const char *creature_key;    /* owned by the context's content; NULL when unguarded */
    int ai_value;                /* of that creature */
    int mean;                    /* a of GRD-07 */
    int count;                   /* GRD-07 */
    int disposition;             /* ZON-24, 0..10 */
    int join_percent;            /* ZON-25 */
    int join_for_money;          /* ZON-26 */
    rmg_guard_choice choice;
} rmg_guard;
RMG_API void rmg_guard_init(rmg_guard *info);

/* The whole guard for a request, creatures from the context's content (the built-in ruleset
 * unless the host loaded another). rng may be NULL (see the top of this file). An unguarded
 * result (too small a total, zone strength none) is RMG_OK with guarded = 0.
 * Errors: RMG_ERR_INVALID_ARG for bad arguments, RMG_ERR_INVALID_DATA when the content has no
 * creature able to guard, RMG_ERR_NOMEM while loading content. */
RMG_API rmg_status rmg_guard_compute(rmg_context *ctx, const rmg_guard_request *request, rmg_rng *rng,
                                     rmg_guard *out);

/* A creature able to guard a total (GRD-06), for listings. Set struct_size before the call. */
typedef struct rmg_guard_candidate {
    size_t struct_size;
    int creature;                /* content creature index */
    const char *key;             /* owned by the context's content */
    const char *name;
    int faction;                 /* faction id */
    int level;
    int ai_value;
    int window_min;              /* floor((map_min + map_max) / 2) */
    double exact_mean;           /* total / ai_value */
    int mean;                    /* round_half_up(total / ai_value) */
} rmg_guard_candidate;
RMG_API void rmg_guard_candidate_init(rmg_guard_candidate *info);

/* Number of eligible creature types for `total` among `monster_factions` (0 = all), in content
 * order; rmg_guard_candidate_at returns the index-th of them. RMG_ERR_NOT_FOUND past the end. */
RMG_API rmg_status rmg_guard_candidate_count(rmg_context *ctx, double total, uint32_t monster_factions,
                                             size_t *count);
RMG_API rmg_status rmg_guard_candidate_get(rmg_context *ctx, double total, uint32_t monster_factions, size_t index,
                                          rmg_guard_candidate *out);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_guard_candidate_get")
rmg_status rmg_guard_candidate_at(rmg_context *ctx, double total, uint32_t monster_factions, size_t index,
                                  rmg_guard_candidate *out);

#ifdef __cplusplus
}
#endif

#endif
