/* Per-context stage tables (filled in by lib/core/stage.c once plugins exist). */
#include "core_internal.h"

void rmg__stages_release(rmg_context *ctx)
{
    if (!ctx || !ctx->stages)
        return;
    rmg__free(ctx, ctx->stages);
    ctx->stages = NULL;
}
