/* An engine that computes guards for its own objects with the guard module alone. */
#include <rmg/guard.h>
#include <rmg/rmg.h>
#include <stdio.h>

int main(void)
{
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 1;
    const int64_t values[] = {1500, 3000, 9000, 20000};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        rmg_guard_request rq;
        rmg_guard_request_init(&rq);
        rq.value = values[i];
        rq.zone_strength = RMG_MONSTERS_STRONG;
        rq.map_strength = RMG_MAP_MONSTERS_NORMAL;
        rq.stream = i;
        rmg_guard g = {.struct_size = sizeof g};
        if (rmg_guard_compute(ctx, &rq, NULL, &g) != RMG_OK) {
            fprintf(stderr, "%s\n", rmg_context_errmsg(ctx));
            rmg_context_destroy(ctx);
            return 1;
        }
        if (g.guarded)
            printf("value %6lld: index %d, total %.1f -> %d x %s (mood %d)\n", (long long)values[i],
                   g.strength_index, g.total, g.count, g.creature_key, g.disposition);
        else
            printf("value %6lld: index %d, total %.1f -> unguarded\n", (long long)values[i], g.strength_index,
                   g.total);
    }
    rmg_context_destroy(ctx);
    return 0;
}
