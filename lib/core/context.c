/* The context: options, version, status names, cancellation. */
#include <string.h>
#include <time.h>

#include "core_internal.h"


unsigned rmg_version(void)
{
    return RMG_VERSION_NUMBER;
}

const char *rmg_version_string(void)
{
    return RMG_VERSION_STRING;
}

const char *rmg_status_name(rmg_status status)
{
    static const char *const names[] = {
        "RMG_OK",           "RMG_ERR_NOMEM",       "RMG_ERR_INVALID_ARG", "RMG_ERR_IO",
        "RMG_ERR_PARSE",    "RMG_ERR_INVALID_DATA", "RMG_ERR_UNSUPPORTED", "RMG_ERR_NOT_FOUND",
        "RMG_ERR_IMPOSSIBLE", "RMG_ERR_CANCELLED", "RMG_ERR_LIMIT",       "RMG_ERR_PLUGIN",
        "RMG_ERR_VERSION",  "RMG_ERR_INTERNAL",    "RMG_ERR_BUFFER_TOO_SMALL",
    };
    if ((unsigned)status < RMG__ARRAY_LEN(names))
        return names[status];
    return "RMG_ERR_UNKNOWN";
}

void rmg_context_options_init(rmg_context_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->log_level = RMG_LOG_WARNING;
}

/* Copies the caller's options (an older or newer struct: see rmg__struct_in). */
static rmg_status copy_options(rmg_context_options *dst, const rmg_context_options *src)
{
    rmg_context_options_init(dst);
    if (!src)
        return RMG_OK;
    return rmg__struct_in(dst, sizeof *dst, src, offsetof(rmg_context_options, seed) + sizeof(uint64_t));
}

rmg_status rmg_context_create(rmg_context **out, const rmg_context_options *options)
{
    if (!out)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg_context_options opt;
    rmg_status st = copy_options(&opt, options);
    if (st != RMG_OK)
        return st;
    /* The context itself comes from the host allocator too; a stack context carries the hook
     * for that first allocation. */
    rmg_context boot;
    memset(&boot, 0, sizeof boot);
    boot.alloc = opt.alloc;
    boot.alloc_user = opt.alloc_user;
    rmg_context *ctx = rmg__calloc(&boot, 1, sizeof *ctx);
    if (!ctx)
        return RMG_ERR_NOMEM;
    ctx->alloc = opt.alloc;
    ctx->alloc_user = opt.alloc_user;
    ctx->rng = opt.rng;
    ctx->rng_user = opt.rng_user;
    ctx->seed = opt.seed;
    ctx->log = opt.log;
    ctx->log_user = opt.log_user;
    ctx->log_level = opt.log_level;
    ctx->progress = opt.progress;
    ctx->progress_user = opt.progress_user;
    atomic_init(&ctx->cancelled, 0);
    atomic_init(&ctx->refs, 1); /* the host's handle */
    atomic_init(&ctx->host_gone, false);
    ctx->err.zone = ctx->err.connection = -1;
    *out = ctx;
    return RMG_OK;
}

rmg_status rmg__context_attach(rmg_context *ctx, const void *key, void *state, rmg__release_fn release,
                               bool shared)
{
    for (int i = 0; i < ctx->n_attached; i++) {
        rmg__attachment *a = &ctx->attached[i];
        if (a->key != key)
            continue;
        if (state) {
            a->state = state;
            a->release = release;
            a->shared = shared;
        } else {
            memmove(a, a + 1, (size_t)(ctx->n_attached - i - 1) * sizeof *a);
            ctx->n_attached--;
        }
        return RMG_OK;
    }
    if (!state)
        return RMG_OK;
    if (ctx->n_attached == RMG__MAX_ATTACHMENTS)
        return rmg__error_set(ctx, RMG_ERR_LIMIT, "internal: every context attachment slot is taken");
    ctx->attached[ctx->n_attached++] = (rmg__attachment){key, state, release, shared};
    return RMG_OK;
}

rmg_context *rmg__context_retain(rmg_context *ctx)
{
    if (ctx)
        atomic_fetch_add_explicit(&ctx->refs, 1, memory_order_relaxed);
    return ctx;
}

void rmg__context_release(rmg_context *ctx)
{
    /* acq_rel: every write the other holders made before their release happens before the
     * last one frees the block. */
    if (!ctx || atomic_fetch_sub_explicit(&ctx->refs, 1, memory_order_acq_rel) != 1)
        return;
    while (ctx->n_attached > 0) {
        rmg__attachment a = ctx->attached[--ctx->n_attached];
        if (a.release)
            a.release(ctx, a.state);
    }
    rmg__free(ctx, ctx);
}

void rmg_context_destroy(rmg_context *ctx)
{
    if (!ctx)
        return;
    atomic_store(&ctx->host_gone, true);
    /* The host's callbacks and what it attached for itself (stage plugins, whose destroy hooks
     * are the host's) go now, most recent first; the slots stay (key kept, state cleared) so
     * threads still reading maps of this context, which look the shared ruleset up by key,
     * never see the table move. */
    for (int i = ctx->n_attached - 1; i >= 0; i--) {
        rmg__attachment *a = &ctx->attached[i];
        if (a->shared || !a->release)
            continue;
        rmg__release_fn release = a->release;
        void *state = a->state;
        a->release = NULL;
        a->state = NULL;
        release(ctx, state);
    }
    rmg__context_release(ctx);
}

rmg_status rmg_context_set_seed(rmg_context *ctx, uint64_t seed)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    ctx->seed = seed;
    return RMG_OK;
}

uint64_t rmg_context_seed(const rmg_context *ctx)
{
    return ctx ? ctx->seed : 0;
}

void rmg_context_cancel(rmg_context *ctx)
{
    if (ctx)
        atomic_store(&ctx->cancelled, 1);
}

void rmg_context_reset_cancel(rmg_context *ctx)
{
    if (ctx)
        atomic_store(&ctx->cancelled, 0);
}

int rmg_context_cancelled(const rmg_context *ctx)
{
    return ctx ? atomic_load(&ctx->cancelled) : 0;
}

double rmg__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

rmg_status rmg__check_stop(rmg_context *ctx, const char *stage, double fraction)
{
    if (atomic_load(&ctx->cancelled) ||
        (ctx->progress && ctx->progress(ctx->progress_user, stage, fraction) != 0)) {
        atomic_store(&ctx->cancelled, 1);
        return rmg__error_gen(ctx, RMG_ERR_CANCELLED, stage, -1, -1, "cancelled by the host");
    }
    /* Checked after the callback, which may be what spent the time. */
    if (ctx->deadline_ms > 0 && rmg__now_ms() > ctx->deadline_ms)
        return rmg__error_gen(ctx, RMG_ERR_LIMIT, stage, -1, -1, "time budget exceeded");
    return RMG_OK;
}

bool rmg__check_cancel(rmg_context *ctx, const char *stage, double fraction)
{
    return rmg__check_stop(ctx, stage, fraction) != RMG_OK;
}
