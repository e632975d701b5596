/* Public guard entry points that need the context's content: the whole guard and the listing
 * of eligible creatures. */
#include <stddef.h>
#include <string.h>

#include "guard_internal.h"

/* Copies a caller's request of any version: an older (smaller) one keeps the defaults for the
 * fields it lacks; a newer (larger) one must have a zero tail. */
static rmg_status copy_request(rmg_context *ctx, const rmg_guard_request *src, rmg_guard_request *dst)
{
    rmg_guard_request_init(dst);
    if (src->struct_size < offsetof(rmg_guard_request, value) + sizeof src->value)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: request struct_size %zu is too small",
                              src->struct_size);
    if (src->struct_size > sizeof *dst) {
        const unsigned char *tail = (const unsigned char *)src + sizeof *dst;
        for (size_t i = 0; i < src->struct_size - sizeof *dst; i++)
            if (tail[i])
                return rmg__error_set(ctx, RMG_ERR_UNSUPPORTED, "guard: request has fields this version lacks");
    }
    memcpy(dst, src, src->struct_size < sizeof *dst ? src->struct_size : sizeof *dst);
    dst->struct_size = sizeof *dst;
    return RMG_OK;
}

/* Hands a result to a caller whose struct may be older (smaller) than ours. */
static rmg_status copy_out(rmg_context *ctx, const void *src, size_t size, void *dst, size_t min_size)
{
    size_t caller = *(const size_t *)dst;
    if (caller < min_size)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: output struct_size %zu is too small", caller);
    memcpy(dst, src, caller < size ? caller : size);
    *(size_t *)dst = caller;
    return RMG_OK;
}

rmg_status rmg_guard_compute(rmg_context *ctx, const rmg_guard_request *request, rmg_rng *rng, rmg_guard *out)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!request || !out)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: NULL request or result");
    rmg_guard_request req;
    rmg_status st = copy_request(ctx, request, &req);
    if (st != RMG_OK)
        return st;
    const struct rmg_content *content = rmg__content_get(ctx);
    if (!content)
        return rmg_context_errcode(ctx) != RMG_OK ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    rmg_rng own;
    if (!rng) {
        st = rmg_context_stream(ctx, "guard", req.stream, &own);
        if (st != RMG_OK)
            return st;
        rng = &own;
    }
    rmg_guard result;
    st = rmg__guard_compute(ctx, content, &req, rng, &result);
    if (st != RMG_OK)
        return st;
    return copy_out(ctx, &result, sizeof result, out, offsetof(rmg_guard, choice) + sizeof result.choice);
}

/* ---- listing ------------------------------------------------------------------------------------ */

typedef struct candidate_query {
    const struct rmg_content *content;
    int64_t quarters;
    uint32_t mask;
} candidate_query;

static rmg_status start_query(rmg_context *ctx, double total, uint32_t monster_factions, candidate_query *q)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!rmg__guard_quarters_of(total, &q->quarters))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: total %g is not a multiple of 0.25 in range", total);
    q->content = rmg__content_get(ctx);
    if (!q->content)
        return rmg_context_errcode(ctx) != RMG_OK ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    q->mask = monster_factions;
    return RMG_OK;
}

static bool query_matches(const candidate_query *q, const rmg__creature *c)
{
    return rmg__guard_creature_usable(c) && rmg__guard_faction_allowed(q->mask, c->faction) &&
           rmg__guard_creature_eligible(c, q->quarters);
}

rmg_status rmg_guard_candidate_count(rmg_context *ctx, double total, uint32_t monster_factions, size_t *count)
{
    candidate_query q;
    rmg_status st = start_query(ctx, total, monster_factions, &q);
    if (st != RMG_OK)
        return st;
    if (!count)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: NULL count");
    size_t n = 0;
    for (size_t i = 0; i < q.content->n_creatures; i++)
        n += query_matches(&q, &q.content->creatures[i]);
    *count = n;
    return RMG_OK;
}

static void fill_candidate(const candidate_query *q, size_t i, rmg_guard_candidate *c)
{
    const rmg__creature *cr = &q->content->creatures[i];
    memset(c, 0, sizeof *c);
    c->struct_size = sizeof *c;
    c->creature = (int)i;
    c->key = cr->key;
    c->name = cr->name;
    c->faction = cr->faction;
    c->level = cr->level;
    c->ai_value = cr->ai_value;
    c->window_min = (cr->map_min + cr->map_max) / 2;
    c->exact_mean = (double)q->quarters / 4.0 / (double)cr->ai_value;
    c->mean = rmg_guard_mean_count((double)q->quarters / 4.0, cr->ai_value);
}

rmg_status rmg_guard_candidate_get(rmg_context *ctx, double total, uint32_t monster_factions, size_t index,
                                  rmg_guard_candidate *out)
{
    candidate_query q;
    rmg_status st = start_query(ctx, total, monster_factions, &q);
    if (st != RMG_OK)
        return st;
    if (!out)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "guard: NULL candidate");
    for (size_t i = 0; i < q.content->n_creatures; i++) {
        if (!query_matches(&q, &q.content->creatures[i]) || index-- > 0)
            continue;
        rmg_guard_candidate c;
        fill_candidate(&q, i, &c);
        return copy_out(ctx, &c, sizeof c, out, offsetof(rmg_guard_candidate, mean) + sizeof c.mean);
    }
    return rmg__error_set(ctx, RMG_ERR_NOT_FOUND, "guard: no eligible creature at that position");
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_guard_init(rmg_guard *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->creature = -1;
}
void rmg_guard_candidate_init(rmg_guard_candidate *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->creature = -1;
}

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_guard_candidate_at(rmg_context *ctx, double total, uint32_t monster_factions, size_t index, rmg_guard_candidate *out)
{
    return rmg_guard_candidate_get(ctx, total, monster_factions, index, out);
}
