/* A host allocator: every byte librmg allocates goes through this hook (lua_Alloc shape).
 * This one counts live bytes and prints the peak usage of one generation. */
#include <rmg/rmg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct counter {
    size_t live, peak, calls;
} counter;

static void *counting_alloc(void *user, void *ptr, size_t osize, size_t nsize)
{
    counter *c = user;
    if (nsize == 0) {
        free(ptr);
        c->live -= ptr ? osize : 0;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL; /* librmg reports RMG_ERR_NOMEM and keeps ptr */
    c->live += nsize - (ptr ? osize : 0);
    c->calls++;
    if (c->live > c->peak)
        c->peak = c->live;
    return p;
}

int main(void)
{
    counter c = {0, 0, 0};
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.alloc = counting_alloc;
    co.alloc_user = &c;
    co.seed = 7;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return 1;
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 72;
    rmg_map *map = NULL;
    rmg_status st = rmg_generate(ctx, NULL, &go, &map);
    if (st != RMG_OK)
        fprintf(stderr, "%s\n", rmg_context_errmsg(ctx));
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    printf("allocations: %zu, peak: %.1f KiB, still live after destroy: %zu bytes\n", c.calls, c.peak / 1024.0,
           c.live);
    return st == RMG_OK && c.live == 0 ? 0 : 1;
}
