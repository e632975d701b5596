/*
 * Creature objects (CRE): counts, values, composite dwellings.
 *
 * The formulas and the CRE-06 count are the content module's; object values are rounded half
 * up ([impl], §14), and N = 0 makes n/N = 0 (§14 recommendation). The Seer's Hut formula can go
 * negative for very weak creatures: such a value becomes 0. Composite dwellings (CRE-03) take
 * their creatures from the content row.
 */
#include <math.h>
#include <string.h>

#include "objects_internal.h"

size_t rmg__composite_creatures(const struct rmg_content *c, const rmg__object_def *d, long *out, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < d->n_creatures && i < 4 && n < cap; i++)
        if (d->creatures[i] >= 0 && (size_t)d->creatures[i] < c->n_creatures)
            out[n++] = d->creatures[i];
    return n;
}

int rmg__cre_placed_count(const rmg__creature *cr)
{
    return RMG__MIN(rmg__creature_count(cr->level, cr->ai_value), RMG__CRE_MAX_PLACED); /* CRE-07 */
}

/* round_half_up of a formula value, negative values as 0. */
static int64_t rounded(double v)
{
    return v <= 0 ? 0 : (int64_t)floor(v + 0.5);
}

static int faction_slot(int faction)
{
    return faction >= 0 && faction < 32 ? faction : 31;
}

static double dwelling_value(const rmg__creature *cr, const int *n_by_faction, int N)
{
    return rmg__dwelling_value(cr->ai_value, cr->growth, n_by_faction[faction_slot(cr->faction)], N);
}

int64_t rmg__eff_value(const struct rmg_content *c, const rmg__eff_entry *e, const int *n_by_faction, int N)
{
    const rmg__object_def *d = &c->objects[e->obj];
    if (!rmg__obj_is_creature_object(d))
        return e->value;
    if (strcmp(d->family, "composite_dwelling") == 0) {
        long members[4];
        size_t k = rmg__composite_creatures(c, d, members, 4);
        double sum = 0;
        for (size_t i = 0; i < k; i++)
            sum += dwelling_value(&c->creatures[members[i]], n_by_faction, N);
        return rounded(sum / 2);
    }
    if (e->creature < 0)
        return 0;
    const rmg__creature *cr = &c->creatures[e->creature];
    int n = n_by_faction[faction_slot(cr->faction)];
    if (strcmp(d->family, "creature_dwelling") == 0) {
        double v = dwelling_value(cr, n_by_faction, N);
        bool tripled = strcmp(d->key, "creature_dwelling_estate") == 0 || strcmp(d->key, "creature_dwelling_hovel") == 0;
        return rounded(tripled ? 3 * v : v);
    }
    if (strcmp(d->family, "pandora_creatures") == 0)
        return rounded(rmg__pandora_creature_value(cr->level, cr->ai_value, n, N));
    return rounded(rmg__seer_creature_value(cr->level, cr->ai_value, n, N));
}
