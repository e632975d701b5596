/* Release of a ruleset and of the context's ruleset (the content module owns ctx->content). */
#include "content/content_private.h"

void rmg__content_free(struct rmg_content *c)
{
    if (!c)
        return;
    rmg_context *ctx = c->ctx;
    rmg__arena_free(&c->arena);
    rmg__free(ctx, c);
}

void rmg__content_release(rmg_context *ctx)
{
    if (!ctx)
        return;
    rmg__content_free(ctx->content);
    ctx->content = NULL;
}
