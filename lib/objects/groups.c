/*
 * The group algorithm (TRS-04..07) on an abstract candidate list. Interval bounds are inclusive
 * and compared in integers: v in [R/4, 5R/4] <=> 4v >= R and 4v <= 5R.
 */
#include "objects_internal.h"

/* Picks among candidates whose value lies in [lo4/4, hi4/4] (quarters), by frequency. */
static long pick(const rmg__trs_source *src, int64_t lo4, int64_t hi4, bool allow_single, rmg_rng *rng,
                 uint64_t *w)
{
    for (size_t i = 0; i < src->n; i++) {
        int64_t v4 = 4 * src->value[i];
        bool ok = src->weight[i] > 0 && v4 >= lo4 && v4 <= hi4 && (allow_single || !src->single[i]) &&
                  (!src->available || src->available(src->user, i));
        w[i] = ok ? src->weight[i] : 0;
    }
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
