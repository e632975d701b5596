/*
 * Creature objects (CRE): counts, values, composite dwellings.
 *
 * Values are exact rationals rounded half up ([impl], §14); N = 0 makes n/N = 0 (§14
 * recommendation). The Seer's Hut formula can go negative for very weak creatures: such a value
 * becomes 0.
 */
#include <string.h>

#include "objects_internal.h"

/* CRE-06 T per creature level. */
static const int64_t count_target[8] = {0, 5000, 7000, 9000, 12000, 16000, 21000, 27000};

int64_t rmg__cre_count(int level, int64_t ai_value)
{
    if (level < 1 || level > 7 || ai_value <= 0)
        return 1;
    int64_t c = count_target[level] / ai_value;
    if (c < 1)
        c = 1;
    if (c <= 5)
        return c;
    if (c <= 12)
        return c + (c & 1);                 /* up to even */
    if (c <= 50)
        return (c + 2) / 5 * 5;             /* nearest multiple of 5 */
    return (c + 5) / 10 * 10;               /* nearest multiple of 10, x5 up */
}

/* round_half_up(num / den) for den > 0, clamped at 0. */
static int64_t ratio(int64_t num, int64_t den)
{
    if (num <= 0)
        return 0;
    return (2 * num + den) / (2 * den);
}

int64_t rmg__cre_dwelling_value(int64_t ai, int64_t growth, int64_t n, int64_t N)
{
    if (N <= 0)
        return ai * growth;
    /* AI * (g * (N + n) / N + n / 2) = AI * (2g(N + n) + nN) / 2N */
    return ratio(ai * (2 * growth * (N + n) + n * N), 2 * N);
}

int64_t rmg__cre_pandora_value(int64_t ai, int64_t count, int64_t n, int64_t N)
{
    if (N <= 0)
        return ai * count;
    return ratio(ai * count * (N + n), N);
}

int64_t rmg__cre_seer_value(int64_t ai, int64_t count, int64_t n, int64_t N)
{
    if (N <= 0)
        return ratio(2 * ai * count - 4000, 3);
    return ratio(2 * ai * count * (N + n) - 4000 * N, 3 * N);
}

/* CRE-03 members, by key (the content tables carry no composite membership). */
static const char *const golem_factory[] = {"stone_golem", "iron_golem", "gold_golem", "diamond_golem"};
static const char *const elemental_conflux[] = {"air_elemental", "water_elemental", "fire_elemental",
                                                "earth_elemental"};

static long creature_by_key(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_creatures; i++)
        if (strcmp(c->creatures[i].key, key) == 0)
            return (long)i;
    return -1;
}

size_t rmg__composite_creatures(const struct rmg_content *c, const rmg__object_def *d, long *out, size_t cap)
{
    const char *const *keys = NULL;
    if (strcmp(d->key, "golem_factory") == 0)
        keys = golem_factory;
    else if (strcmp(d->key, "elemental_conflux") == 0)
        keys = elemental_conflux;
    size_t n = 0;
    for (size_t i = 0; keys && i < 4 && n < cap; i++) {
        long k = creature_by_key(c, keys[i]);
        if (k >= 0)
            out[n++] = k;
    }
    return n;
}

static int faction_slot(int faction)
{
    return faction >= 0 && faction < 32 ? faction : 31;
}

static int64_t dwelling_value(const rmg__creature *cr, const int *n_by_faction, int N)
{
    return rmg__cre_dwelling_value(cr->ai_value, cr->growth, n_by_faction[faction_slot(cr->faction)], N);
}

int64_t rmg__eff_value(const struct rmg_content *c, const rmg__eff_entry *e, const int *n_by_faction, int N)
{
    const rmg__object_def *d = &c->objects[e->obj];
    if (!rmg__obj_is_creature_object(d))
        return e->value;
    if (strcmp(d->family, "composite_dwelling") == 0) {
        long members[4];
        size_t k = rmg__composite_creatures(c, d, members, 4);
        int64_t sum = 0;
        for (size_t i = 0; i < k; i++)
            sum += dwelling_value(&c->creatures[members[i]], n_by_faction, N);
        return (sum + 1) / 2;
    }
    if (e->creature < 0)
        return 0;
    const rmg__creature *cr = &c->creatures[e->creature];
    int64_t n = n_by_faction[faction_slot(cr->faction)];
    if (strcmp(d->family, "creature_dwelling") == 0) {
        int64_t v = dwelling_value(cr, n_by_faction, N);
        bool tripled = strcmp(d->key, "creature_dwelling_estate") == 0 || strcmp(d->key, "creature_dwelling_hovel") == 0;
        return tripled ? 3 * v : v;
    }
    int64_t count = rmg__cre_count(cr->level, cr->ai_value);
    if (strcmp(d->family, "pandora_creatures") == 0)
        return rmg__cre_pandora_value(cr->ai_value, count, n, N);
    return rmg__cre_seer_value(cr->ai_value, count, n, N);
}
