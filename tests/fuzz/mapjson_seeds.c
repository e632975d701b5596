/* Seed inputs for the map document fuzzer (scripts/fuzz.sh): small maps of the built-in pack
 * written as the JSON documents rmg balance reads, so the fuzzer starts from inputs that read.
 *   fuzz_mapjson_seeds OUT_DIR                                                                 */
#include <stdio.h>

#include "rmg/rmg.h"

static int write_map(rmg_context *ctx, const char *dir, int seed, int levels)
{
    rmg_context_set_seed(ctx, (uint64_t)seed);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 36;
    o.levels = levels;
    rmg_map *map = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/map-%d-%d.json", dir, seed, levels);
    int failed = rmg_generate(ctx, NULL, &o, &map) != RMG_OK || rmg_map_save(map, path) != RMG_OK;
    if (failed)
        fprintf(stderr, "mapjson seeds: %s: %s\n", path, rmg_context_errmsg(ctx));
    rmg_map_destroy(map);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_mapjson_seeds OUT_DIR\n");
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 1;
    int failed = 0;
    for (int seed = 1; seed <= 3; seed++)
        failed |= write_map(ctx, argv[1], seed, seed == 3 ? 2 : 1);
    rmg_context_destroy(ctx);
    return failed;
}
