/*
 * The group algorithm (TRS-04..07) on an abstract candidate list. Interval bounds are inclusive
 * and compared in integers: v in [R/4, 5R/4] <=> 4v >= R and 4v <= 5R.
 */
#include "objects_internal.h"

static bool eligible(const rmg__trs_source *src, size_t i, int64_t lo4, int64_t hi4, bool allow_single)
{
    int64_t v4 = 4 * src->value[i];
    return src->weight[i] > 0 && v4 >= lo4 && v4 <= hi4 && (allow_single || !src->single[i]) &&
           (!src->available || src->available(src->user, i));
}

/* First position in src->by_value of a candidate worth at least lo4/4. */
static size_t first_at_least(const rmg__trs_source *src, int64_t lo4)
{
    size_t a = 0, b = src->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (4 * src->value[src->by_value[mid]] < lo4)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

/* The draw of a full scan, looking only at the candidates of the value interval: their weights
 * go to w[i] and src->mark[i], the same total is drawn from, and the candidates are then walked
 * in candidate order (marks skip the others) to find where the draw falls. */
static long pick_in_slice(const rmg__trs_source *src, int64_t lo4, int64_t hi4, bool allow_single, rmg_rng *rng,
                          uint64_t *w)
{
    size_t from = first_at_least(src, lo4), to = from, lo_i = src->n, hi_i = 0;
    uint64_t total = 0;
    for (; to < src->n && 4 * src->value[src->by_value[to]] <= hi4; to++) {
        uint32_t i = src->by_value[to];
        w[i] = eligible(src, i, lo4, hi4, allow_single) ? src->weight[i] : 0;
        total += w[i];
        src->mark[i] = 1;
        lo_i = i < lo_i ? i : lo_i;
        hi_i = i > hi_i ? i : hi_i;
    }
    long found = -1;
    if (total > 0) {
        uint64_t r = rmg_rng_below(rng, total);
        for (size_t i = lo_i; i <= hi_i && found < 0; i++) {
            if (!src->mark[i])
                continue;
            if (r < w[i])
                found = (long)i;
            else
                r -= w[i];
        }
    }
    for (size_t k = from; k < to; k++)
        src->mark[src->by_value[k]] = 0;
    return found;
}

/* Picks among candidates whose value lies in [lo4/4, hi4/4] (quarters), by frequency. */
static long pick(const rmg__trs_source *src, int64_t lo4, int64_t hi4, bool allow_single, rmg_rng *rng,
                 uint64_t *w)
{
    if (src->by_value)
        return pick_in_slice(src, lo4, hi4, allow_single, rng, w);
    for (size_t i = 0; i < src->n; i++)
        w[i] = eligible(src, i, lo4, hi4, allow_single) ? src->weight[i] : 0;
    return rmg_rng_weighted(rng, w, src->n);
}

static void take(const rmg__trs_source *src, size_t i)
{
    if (src->taken)
        src->taken(src->user, i);
}

size_t rmg__trs_group(const rmg__trs_source *src, int64_t T, rmg_rng *rng, uint64_t *scratch, size_t *out)
{
    /* First object: value in [T/4, T]. */
    long o = pick(src, T, 4 * T, true, rng, scratch);
    if (o < 0)
        return 0;
    size_t n = 0;
    out[n++] = (size_t)o;
    take(src, (size_t)o);
    int64_t G = src->value[o];
    if (src->single[o])
        return n; /* TRS-07: a never-grouped object closes its group */
    while (n < RMG__TRS_MAX_OBJECTS && ((T - G >= 1500) || (2 * G < T))) {
        int64_t R = T - G;
        o = pick(src, R, 5 * R, false, rng, scratch);
        if (o < 0)
            break;
        out[n++] = (size_t)o;
        take(src, (size_t)o);
        G += src->value[o];
    }
    return n;
}

bool rmg__trs_can_start(const rmg__trs_source *src, int64_t min, int64_t max)
{
    /* Some T in [min, max] has a first object in [T/4, T] <=> some candidate value v has
     * v <= max and 4v >= min (take T = max(v, min)). */
    for (size_t i = 0; i < src->n; i++) {
        int64_t v = src->value[i];
        if (src->weight[i] > 0 && v <= max && 4 * v >= min && (!src->available || src->available(src->user, i)))
            return true;
    }
    return false;
}
