/* Guard computation (spec §11): strength index, exact totals, eligibility, monster choice,
 * counts, moods. Totals are handled as integer quarters inside (see guard_internal.h). */
#include <string.h>

#include "guard_internal.h"

/* GRD-02 constants; factors stored x4 so that totals stay integers (quarters). */
typedef struct guard_terms {
    int64_t min1, k1q, min2, k2q;
} guard_terms;

static const guard_terms grd_terms[5] = {
    {2500, 2, 7500, 2}, /* idx 1: 0.5, 0.5 */
    {1500, 3, 7500, 3}, /* idx 2: 0.75, 0.75 */
    {1000, 4, 7500, 4}, /* idx 3: 1, 1 */
    {500, 6, 5000, 4},  /* idx 4: 1.5, 1 */
    {0, 6, 5000, 6},    /* idx 5: 1.5, 1.5 */
};

/* Bounds that keep every product of quarters and AI values below 2^63. */
#define GUARD_AI_MAX 1000000
#define GUARD_STACK_MAX 10000
#define GUARD_QUARTERS_MAX (RMG_GUARD_VALUE_MAX * 12)

/* ---- strength (GRD-01..05) ------------------------------------------------------------------ */

int rmg_guard_strength_index(rmg_monster_strength zone, rmg_map_monsters map, int connection)
{
    if ((int)map < (int)RMG_MAP_MONSTERS_WEAK || (int)map > (int)RMG_MAP_MONSTERS_STRONG)
        return -1;
    if ((int)zone < (int)RMG_MONSTERS_NONE || (int)zone > (int)RMG_MONSTERS_STRONG)
        return -1;
    int global_term = 2 + (int)map; /* weak 2, normal 3, strong 4 */
    if (connection)
        return global_term;
    if (zone == RMG_MONSTERS_NONE)
        return 0;
    int zone_term = (int)zone - (int)RMG_MONSTERS_MEDIUM; /* weak -1, medium 0, strong +1 */
    return zone_term + global_term;
}

static int64_t guard_term(int64_t value, int64_t min, int64_t kq)
{
    /* GRD-03: the term is dropped when min > v and is 0 when min = v. */
    return value > min ? (value - min) * kq : 0;
}

int64_t rmg__guard_total_quarters(int64_t value, int index)
{
    if (index < 1 || index > 5 || value > RMG_GUARD_VALUE_MAX)
        return -1;
    const guard_terms *t = &grd_terms[index - 1];
    return guard_term(value, t->min1, t->k1q) + guard_term(value, t->min2, t->k2q);
}

double rmg_guard_total(int64_t value, int index)
{
    int64_t q = rmg__guard_total_quarters(value, index);
    return q < 0 ? -1.0 : (double)q / 4.0;
}

int rmg_guard_needed(int64_t value, int index)
{
    if (index == 0 && value <= RMG_GUARD_VALUE_MAX)
        return 0;
    int64_t q = rmg__guard_total_quarters(value, index);
    if (q < 0)
        return -1;
    return q >= 4 * (int64_t)RMG_GUARD_MIN_TOTAL;
}

/* ---- eligibility and counts (GRD-06/07) ------------------------------------------------------ */

bool rmg__guard_quarters_of(double total, int64_t *out)
{
    if (!(total >= 0.0) || total > (double)GUARD_QUARTERS_MAX / 4.0)
        return false;
    double q = total * 4.0;
    int64_t qi = (int64_t)q;
    if ((double)qi != q)
        return false;
    *out = qi;
    return true;
}

static int64_t window_min(int map_min, int map_max)
{
    return ((int64_t)map_min + (int64_t)map_max) / 2;
}

static bool quarters_eligible(int64_t quarters, int64_t ai, int64_t lo)
{
    return quarters >= 4 * lo * ai && quarters < 4 * (int64_t)RMG_GUARD_MEAN_LIMIT * ai;
}

static int mean_from_quarters(int64_t quarters, int64_t ai)
{
    /* round_half_up(q / 4ai) = floor((q + 2ai) / 4ai) for q >= 0. */
    int64_t a = (quarters + 2 * ai) / (4 * ai);
    return a > RMG_GUARD_COUNT_MAX ? RMG_GUARD_COUNT_MAX : (int)a;
}

static bool stack_args_ok(int ai_value, int map_min, int map_max)
{
    return ai_value > 0 && ai_value <= GUARD_AI_MAX && map_min >= 0 && map_max >= map_min &&
           map_max <= GUARD_STACK_MAX;
}

int rmg_guard_eligible(double total, int ai_value, int map_min, int map_max)
{
    int64_t q;
    if (!rmg__guard_quarters_of(total, &q) || !stack_args_ok(ai_value, map_min, map_max))
        return -1;
    return quarters_eligible(q, ai_value, window_min(map_min, map_max));
}

int rmg_guard_mean_count(double total, int ai_value)
{
    int64_t q;
    if (!rmg__guard_quarters_of(total, &q) || !stack_args_ok(ai_value, 0, 0))
        return -1;
    return mean_from_quarters(q, ai_value);
}

int rmg_guard_draw_count(rmg_rng *rng, int mean)
{
    if (!rng || mean < 0)
        return -1;
    if (mean < 4)
        return mean;
    int64_t spread = mean / 4;
    int64_t r1 = rmg_rng_range(rng, 0, spread);
    int64_t r2 = rmg_rng_range(rng, 0, spread);
    return (int)(mean + r1 - r2);
}

/* ---- moods (ZON-24) --------------------------------------------------------------------------- */

int rmg_guard_draw_disposition(rmg_rng *rng, rmg_mood mood, int exact_value)
{
    switch (mood) {
    case RMG_MOOD_COMPLIANT: return 0;
    case RMG_MOOD_SAVAGE: return 10;
    case RMG_MOOD_EXACT: return exact_value >= 0 && exact_value <= 10 ? exact_value : -1;
    case RMG_MOOD_FRIENDLY: return rng ? (int)rmg_rng_range(rng, 1, 7) : -1;
    case RMG_MOOD_AGGRESSIVE: return rng ? (int)rmg_rng_range(rng, 1, 10) : -1;
    case RMG_MOOD_HOSTILE: return rng ? (int)rmg_rng_range(rng, 4, 10) : -1;
    }
    return -1;
}

/* ---- requests ---------------------------------------------------------------------------------- */

void rmg_guard_request_init(rmg_guard_request *request)
{
    if (!request)
        return;
    memset(request, 0, sizeof *request);
    request->struct_size = sizeof *request;
    request->map_strength = RMG_MAP_MONSTERS_NORMAL;
    request->zone_strength = RMG_MONSTERS_MEDIUM;
    request->town_faction = RMG_FACTION_NONE;
    /* The template editor's defaults (h3t-format §7), as rmg__zone_defaults. */
    request->mood = RMG_MOOD_HOSTILE;
    request->join_percent = 50;
    request->join_only_for_money = 1;
}

/* ---- monster choice (GRD-06) ----------------------------------------------------------------- */

uint32_t rmg__guard_faction_mask(uint32_t monster_factions, bool match_town, int town_faction)
{
    if (match_town && town_faction >= 0 && town_faction < RMG_FACTION_NEUTRAL)
        return monster_factions | (UINT32_C(1) << town_faction);
    return monster_factions;
}

bool rmg__guard_faction_allowed(uint32_t mask, int faction)
{
    if (mask == 0)
        return true;
    return faction >= 0 && faction <= 31 && (mask >> faction) & 1u;
}

bool rmg__guard_creature_usable(const rmg__creature *c)
{
    return !c->special && stack_args_ok(c->ai_value, c->map_min, c->map_max);
}

bool rmg__guard_creature_eligible(const rmg__creature *c, int64_t quarters)
{
    return quarters_eligible(quarters, c->ai_value, window_min(c->map_min, c->map_max));
}

static bool creature_candidate(const rmg__creature *c, uint32_t mask)
{
    /* The faction first: the cheapest test, and the one most creatures fail. */
    return rmg__guard_faction_allowed(mask, c->faction) && rmg__guard_creature_usable(c);
}

static bool creature_eligible(const rmg__creature *c, uint32_t mask, int64_t quarters)
{
    return creature_candidate(c, mask) && rmg__guard_creature_eligible(c, quarters);
}

/* The k-th eligible creature of `mask` (k < count) from creature index `from` on, or -1. */
static long kth_eligible(const struct rmg_content *content, uint32_t mask, int64_t quarters, size_t from, uint64_t k)
{
    for (size_t i = from; i < content->n_creatures; i++)
        if (creature_eligible(&content->creatures[i], mask, quarters) && k-- == 0)
            return (long)i;
    return -1;
}

/* The eligible creatures are counted once; the first ELIGIBLE_KEPT of them are kept, so the
 * drawn one is usually looked up rather than found by a second scan of the content. */
#define ELIGIBLE_KEPT 64

typedef struct eligible_list {
    uint64_t n;
    uint32_t kept[ELIGIBLE_KEPT];
} eligible_list;

static void count_eligible(const struct rmg_content *content, uint32_t mask, int64_t quarters, eligible_list *e)
{
    e->n = 0;
    for (size_t i = 0; i < content->n_creatures; i++)
        if (creature_eligible(&content->creatures[i], mask, quarters)) {
            if (e->n < ELIGIBLE_KEPT)
                e->kept[e->n] = (uint32_t)i;
            e->n++;
        }
}

/* The k-th (k < e->n) eligible creature. */
static long pick_eligible(const struct rmg_content *content, uint32_t mask, int64_t quarters, const eligible_list *e,
                          uint64_t k)
{
    if (k < ELIGIBLE_KEPT)
        return (long)e->kept[k];
    return kth_eligible(content, mask, quarters, (size_t)e->kept[ELIGIBLE_KEPT - 1] + 1, k - ELIGIBLE_KEPT);
}

/* How far a creature's exact mean t = q / 4ai lies from its window [lo, 100), as a ratio: lo / t
 * below it, t / 100 at or above it, 0 inside. A ratio, not a difference, so that a stack twice
 * too small and one twice too big weigh the same whatever the creature's usual stack size.
 * Kept as the fraction num / den (num >= den > 0 outside the window). */
typedef struct window_distance {
    uint64_t num, den;
} window_distance;

static window_distance distance_to_window(const rmg__creature *c, int64_t quarters)
{
    uint64_t ai = (uint64_t)c->ai_value;
    uint64_t low = 4 * (uint64_t)window_min(c->map_min, c->map_max) * ai;
    uint64_t high = 4 * (uint64_t)RMG_GUARD_MEAN_LIMIT * ai;
    uint64_t q = (uint64_t)quarters; /* > 0: only guarded totals get here */
    if (q < low)
        return (window_distance){low, q};
    if (q >= high)
        return (window_distance){q, high};
    return (window_distance){0, 1};
}

/* The full 128-bit product a * b as (hi, lo), from 32-bit halves (no 128-bit type in C11). */
static void mul_wide(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* d1 < d2, exactly. */
static bool distance_less(window_distance d1, window_distance d2)
{
    uint64_t h1, l1, h2, l2;
    mul_wide(d1.num, d2.den, &h1, &l1);
    mul_wide(d2.num, d1.den, &h2, &l2);
    return h1 < h2 || (h1 == h2 && l1 < l2);
}

/* Fallback: the creature of `mask` closest to its window, lowest index on ties; -1 if none. */
static long nearest_creature(const struct rmg_content *content, uint32_t mask, int64_t quarters)
{
    long best = -1;
    window_distance best_d = {0, 1};
    for (size_t i = 0; i < content->n_creatures; i++) {
        const rmg__creature *c = &content->creatures[i];
        if (!creature_candidate(c, mask))
            continue;
        window_distance d = distance_to_window(c, quarters);
        if (best < 0 || distance_less(d, best_d)) {
            best = (long)i;
            best_d = d;
        }
    }
    return best;
}

static long choose_creature(const struct rmg_content *content, uint32_t mask, int64_t quarters, rmg_rng *rng,
                            rmg_guard_choice *choice)
{
    eligible_list e;
    count_eligible(content, mask, quarters, &e);
    if (e.n > 0) {
        *choice = RMG_GUARD_CHOICE_ELIGIBLE;
        return pick_eligible(content, mask, quarters, &e, rmg_rng_below(rng, e.n));
    }
    *choice = RMG_GUARD_CHOICE_NEAREST;
    long c = nearest_creature(content, mask, quarters);
    if (c >= 0 || mask == 0)
        return c;
    *choice = RMG_GUARD_CHOICE_NEAREST_ANY;
    return nearest_creature(content, 0, quarters);
}

/* ---- the whole guard ------------------------------------------------------------------------- */

static rmg_status check_request(rmg_context *ctx, const rmg_guard_request *r)
{
    if (r->value > RMG_GUARD_VALUE_MAX)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: value %lld is above %lld", (long long)r->value,
                              (long long)RMG_GUARD_VALUE_MAX);
    if (rmg_guard_strength_index(r->zone_strength, r->map_strength, r->connection) < 0)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: monster strength out of range");
    bool mood_known = (int)r->mood >= (int)RMG_MOOD_COMPLIANT && (int)r->mood <= (int)RMG_MOOD_EXACT;
    if (!mood_known || (r->mood == RMG_MOOD_EXACT && (r->mood_value < 0 || r->mood_value > 10)))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: mood %d (value %d) out of range", (int)r->mood,
                              r->mood_value);
    if (r->join_percent < 0 || r->join_percent > 100)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: join percent %d is outside 0..100",
                              r->join_percent);
    return RMG_OK;
}

static void unguarded(const rmg_guard_request *r, int index, int64_t quarters, rmg_guard *out)
{
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->strength_index = index;
    out->total = (double)quarters / 4.0;
    out->value = r->value;
    out->creature = -1;
    out->join_percent = r->join_percent;
    out->join_for_money = r->join_only_for_money != 0;
    out->choice = RMG_GUARD_CHOICE_NONE;
}

rmg_status rmg__guard_compute(rmg_context *ctx, const struct rmg_content *content, const rmg_guard_request *request,
                              rmg_rng *rng, rmg_guard *out)
{
    rmg_status st = check_request(ctx, request);
    if (st != RMG_OK)
        return st;
    int index = rmg_guard_strength_index(request->zone_strength, request->map_strength, request->connection);
    int64_t quarters = index > 0 ? rmg__guard_total_quarters(request->value, index) : 0;
    unguarded(request, index, quarters, out);
    if (index == 0 || quarters < 4 * (int64_t)RMG_GUARD_MIN_TOTAL)
        return RMG_OK; /* TRS-08 / GRD-05 */

    uint32_t mask = rmg__guard_faction_mask(request->monster_factions, request->match_town != 0,
                                            request->town_faction);
    long ci = choose_creature(content, mask, quarters, rng, &out->choice);
    if (ci < 0)
        return rmg__error_set(ctx, RMG_ERR_INVALID_DATA,
                              "guard: the content has no creature able to guard a total of %.2f",
                              (double)quarters / 4.0);
    const rmg__creature *c = &content->creatures[ci];
    out->guarded = 1;
    out->creature = (int)ci;
    out->creature_key = c->key;
    out->ai_value = c->ai_value;
    out->mean = mean_from_quarters(quarters, c->ai_value);
    if (out->mean < 1)
        out->mean = 1; /* only a fallback creature far above the window rounds to 0 */
    out->count = rmg_guard_draw_count(rng, out->mean);
    out->disposition = rmg_guard_draw_disposition(rng, request->mood, request->mood_value);
    return RMG_OK;
}
