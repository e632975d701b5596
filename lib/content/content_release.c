/* Release of the context's content (the content module owns ctx->content). */
#include "core_internal.h"

void rmg__content_release(rmg_context *ctx)
{
    (void)ctx;
}
