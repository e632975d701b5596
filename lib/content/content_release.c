/* Release of a ruleset, and the context's ruleset: the content module attaches it to the
 * context (the core only calls back to release it). */
#include "content/content_private.h"

/* The key the context's ruleset is attached under. */
static const char content_key;

void rmg__content_free(struct rmg_content *c)
{
    if (!c)
        return;
    rmg_context *ctx = c->ctx;
    rmg__arena_free(&c->arena);
    rmg__free(ctx, c);
}

const struct rmg_content *rmg__content_retain(const struct rmg_content *c)
{
    /* The cast drops const only for the count, which is not part of the ruleset's value. */
    if (c)
        atomic_fetch_add_explicit(&((struct rmg_content *)(uintptr_t)c)->refs, 1, memory_order_relaxed);
    return c;
}

void rmg__content_release(const struct rmg_content *c)
{
    struct rmg_content *m = (struct rmg_content *)(uintptr_t)c;
    if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1)
        rmg__content_free(m);
}

static void release_attached(rmg_context *ctx, void *state)
{
    (void)ctx;
    rmg__content_release(state);
}

const struct rmg_content *rmg__content_peek(const rmg_context *ctx)
{
    return ctx ? rmg__context_state(ctx, &content_key) : NULL;
}

rmg_status rmg__content_attach(rmg_context *ctx, struct rmg_content *c)
{
    struct rmg_content *old = rmg__context_state(ctx, &content_key);
    rmg_status st = rmg__context_attach(ctx, &content_key, c, release_attached, true);
    if (st != RMG_OK)
        return st;
    if (old != c)
        rmg__content_release(old);
    return RMG_OK;
}

rmg_status rmg__content_lend(rmg_context *ctx, const struct rmg_content *c)
{
    /* A lent ruleset has no release: the lender frees it. The cast drops const only to store it
     * in the generic slot; the content module never writes through it. */
    return rmg__context_attach(ctx, &content_key, (void *)(uintptr_t)c, NULL, true);
}
