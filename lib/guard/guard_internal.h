/*
 * Internal guard API: the computation on an explicit content (what the public functions and the
 * guard stage share) and the guard stage of the pipeline.
 *
 * Totals travel as integer quarters (4 x total): every GRD-02 factor is a multiple of 0.25, so
 * quarters make every comparison exact integer arithmetic.
 */
#ifndef RMG_GUARD_INTERNAL_H
#define RMG_GUARD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "content/content_internal.h"
#include "map/map_internal.h"
#include "rmg/guard.h"

/* 4 x the GRD-03 total; -1 for an index outside 1..5 or a value above RMG_GUARD_VALUE_MAX. */
int64_t rmg__guard_total_quarters(int64_t value, int index);

/* A double total as exact quarters; false unless it is a non-negative multiple of 0.25 no larger
 * than the total of RMG_GUARD_VALUE_MAX at index 5. */
bool rmg__guard_quarters_of(double total, int64_t *out);

/* ZON-27: the faction mask a zone's monsters come from (0 = every faction). With the town
 * binding and a town faction, the town's bit is added; a zero mask then means the town alone. */
uint32_t rmg__guard_faction_mask(uint32_t monster_factions, bool match_town, int town_faction);

/* True when creature c can ever guard (not special, sane AI value and stack bounds). */
bool rmg__guard_creature_usable(const rmg__creature *c);
/* True when creature c belongs to a faction of `mask` (0 = every faction). */
bool rmg__guard_faction_allowed(uint32_t mask, int faction);
/* GRD-06 with the total in quarters; c must be usable. */
bool rmg__guard_creature_eligible(const rmg__creature *c, int64_t quarters);

/* The whole guard for `request` (a complete, current-version struct) with creatures from
 * `content`; rng must not be NULL. Fills every field of *out (out->struct_size is set). */
rmg_status rmg__guard_compute(rmg_context *ctx, const struct rmg_content *content, const rmg_guard_request *request,
                              rmg_rng *rng, rmg_guard *out);

/* The guard stage: one monster per guard slot of groups, objects and connections (§11). */
rmg_status rmg__stage_guard(rmg__gen *g);

#endif
