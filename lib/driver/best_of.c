/*
 * Fairness-aware generation (rmg_generate_best_of): N candidates, candidate i from the sub-seed
 * rmg_rng_derive(S, "best-of", i), scored by the balance report; the fairest is kept (the lowest
 * index among equal scores), so the result does not depend on the order candidates finish in or
 * on the thread count. Worker threads generate on contexts of their own that borrow the caller's
 * allocator and ruleset; the winning map is handed to the caller's context.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "balance/balance_internal.h"
#include "driver_internal.h"

#define RMG__BEST_OF_MAX 1000

void rmg_best_of_options_init(rmg_best_of_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->candidates = 8;
}

typedef struct best_job {
    rmg_context *ctx;              /* the caller's */
    const struct rmg_pack *pack;
    const rmg_generate_options *options;
    rmg_balance_options balance;
    uint64_t root;
    int candidates;
    pthread_mutex_t lock;
    int next;
    /* The fairest so far. */
    rmg_map *best;
    int best_index;
    double best_score;
    /* The failure of the lowest index, for when every candidate fails. */
    int failed, first_failure;
    rmg__error failure;
} best_job;

static uint64_t candidate_seed(const best_job *j, int i)
{
    return rmg_rng_derive(j->root, "best-of", (uint64_t)i);
}

/* Keeps map (candidate i, score) if it is the fairest so far; takes ownership either way. */
static void offer(best_job *j, int i, rmg_map *map, double score)
{
    rmg_map *loser = map;
    pthread_mutex_lock(&j->lock);
    if (!j->best || score > j->best_score || (score == j->best_score && i < j->best_index)) {
        loser = j->best;
        j->best = map;
        j->best_index = i;
        j->best_score = score;
    }
    pthread_mutex_unlock(&j->lock);
    rmg_map_destroy(loser);
}

static void record_failure(best_job *j, int i, const rmg_context *ctx)
{
    pthread_mutex_lock(&j->lock);
    if (!j->failed++ || i < j->first_failure) {
        j->first_failure = i;
        j->failure = ctx->err;
    }
    pthread_mutex_unlock(&j->lock);
}

/* The caller's context owns the winner: same allocator, so only the owner changes (and the
 * reference the map holds moves from the worker's context to the caller's). */
static void adopt(rmg_map *map, rmg_context *ctx)
{
    rmg_context *was = map->ctx;
    map->ctx = rmg__context_retain(ctx);
    map->arena.ctx = ctx;
    rmg__context_release(was);
}

/* Generates and scores candidate i on ctx (seeded for it, no host RNG). */
static void run_candidate(best_job *j, rmg_context *ctx, int i)
{
    rmg_context_set_seed(ctx, candidate_seed(j, i));
    rmg_map *map = NULL;
    rmg_balance *b = NULL;
    /* Not rmg_generate: that clears the cancel flag, which here is the caller's (run_in_place). */
    rmg_status st = rmg__generate(ctx, j->pack, j->options, &map);
    if (st == RMG_OK)
        st = rmg_map_balance(map, &j->balance, &b);
    if (st != RMG_OK) {
        record_failure(j, i, ctx);
        rmg_map_destroy(map);
        return;
    }
    double score = rmg_balance_score(b);
    rmg_balance_destroy(b);
    adopt(map, j->ctx);
    offer(j, i, map, score);
}

static int next_candidate(best_job *j)
{
    pthread_mutex_lock(&j->lock);
    int i = j->next < j->candidates && !rmg_context_cancelled(j->ctx) ? j->next++ : -1;
    pthread_mutex_unlock(&j->lock);
    return i;
}

/* A worker's progress hook: it reports nothing, and stops when the caller cancels. */
static int forward_cancel(void *user, const char *stage, double fraction)
{
    (void)stage;
    (void)fraction;
    return rmg_context_cancelled(user);
}

static void *worker(void *arg)
{
    best_job *j = arg;
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.alloc = j->ctx->alloc;
    co.alloc_user = j->ctx->alloc_user;
    co.progress = forward_cancel;
    co.progress_user = j->ctx;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return NULL;
    rmg__content_lend(ctx, rmg__content_peek(j->ctx));
    for (int i; (i = next_candidate(j)) >= 0;)
        run_candidate(j, ctx, i);
    rmg__content_lend(ctx, NULL);
    rmg_context_destroy(ctx);
    return NULL;
}

/* On the caller's context, one after the other: its host RNG is set aside while they run. */
static void run_in_place(best_job *j)
{
    rmg_context *ctx = j->ctx;
    rmg_rng_fn rng = ctx->rng;
    uint64_t seed = ctx->seed;
    ctx->rng = NULL;
    for (int i; (i = next_candidate(j)) >= 0;)
        run_candidate(j, ctx, i);
    ctx->rng = rng;
    ctx->seed = seed;
}

static void run_threads(best_job *j, int threads)
{
    pthread_t tids[64];
    int started = 0;
    for (int t = 0; t < threads && t < 64; t++)
        if (pthread_create(&tids[started], NULL, worker, j) == 0)
            started++;
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    /* No thread could start (or every worker context failed): the caller's context does it. */
    if (!j->best && !j->failed)
        run_in_place(j);
}

static rmg_status read_best_options(rmg_context *ctx, const rmg_best_of_options *in, rmg_best_of_options *o)
{
    rmg_best_of_options_init(o);
    if (in) {
        rmg_status st = rmg__struct_in(o, sizeof *o, in, offsetof(rmg_best_of_options, threads));
        if (st != RMG_OK)
            return rmg__error_set(ctx, st, "rmg_best_of_options: struct_size %zu is not one this library knows",
                                  in->struct_size);
    }
    if (o->candidates < 1 || o->candidates > RMG__BEST_OF_MAX)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "candidates %d is out of range (1..%d)", o->candidates,
                              RMG__BEST_OF_MAX);
    if (o->threads < 0 || o->threads > 64)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "threads %d is out of range (0..64)", o->threads);
    if (o->day_points && (o->day_points < 100 || o->day_points > 5000))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "day_points %d is out of range (100..5000)", o->day_points);
    return RMG_OK;
}

static void fill_info(const best_job *j, rmg_best_of_info *info)
{
    if (!info)
        return;
    rmg_best_of_info full = {sizeof full, j->best_index, candidate_seed(j, j->best_index), j->best_score,
                             j->candidates, j->failed};
    rmg__struct_out(info, &full, sizeof full, sizeof(size_t));
}

rmg_status rmg_generate_best_of(rmg_context *ctx, const struct rmg_pack *pack, const rmg_generate_options *options,
                                const rmg_best_of_options *best, rmg_map **out, rmg_best_of_info *info)
{
    if (ctx)
        rmg__work_begin(ctx);
    if (!ctx || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_generate_best_of: NULL argument")
                   : RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg_context_clear_error(ctx);
    rmg_best_of_options o;
    rmg_status st = read_best_options(ctx, best, &o);
    /* The workers borrow the ruleset: load it before they start. */
    if (st == RMG_OK && !rmg__content_get(ctx))
        st = rmg_context_errcode(ctx) ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    if (st != RMG_OK)
        return st;
    best_job j;
    memset(&j, 0, sizeof j);
    j.ctx = ctx;
    j.pack = pack;
    j.options = options;
    rmg_balance_options_init(&j.balance);
    if (o.day_points)
        j.balance.day_points = o.day_points;
    j.root = ctx->rng ? ctx->rng(ctx->rng_user) : ctx->seed;
    j.candidates = o.candidates;
    pthread_mutex_init(&j.lock, NULL);
    int threads = o.threads < o.candidates ? o.threads : o.candidates;
    if (threads > 1 && !rmg__context_has_stage_plugins(ctx))
        run_threads(&j, threads);
    else
        run_in_place(&j);
    pthread_mutex_destroy(&j.lock);
    if (rmg_context_cancelled(ctx)) {
        rmg_map_destroy(j.best);
        return rmg__error_set(ctx, RMG_ERR_CANCELLED, "rmg_generate_best_of: cancelled");
    }
    if (!j.best) {
        if (!j.failed)
            return rmg__error_set(ctx, rmg_context_cancelled(ctx) ? RMG_ERR_CANCELLED : RMG_ERR_INTERNAL,
                                  "rmg_generate_best_of: no candidate was generated");
        ctx->err = j.failure;
        return j.failure.status;
    }
    fill_info(&j, info);
    *out = j.best;
    return RMG_OK;
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
RMG__ZERO_INIT(rmg_best_of_info)
