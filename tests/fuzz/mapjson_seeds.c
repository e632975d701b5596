/* Seed inputs for the map document fuzzer (scripts/fuzz.sh): small maps of the built-in pack
 * written as the JSON documents rmg balance reads, so the fuzzer starts from inputs that read;
 * with and without water (seas, shipyards, boats), on one level and two.
 *   fuzz_mapjson_seeds OUT_DIR                                                                 */
#include <stdio.h>

#include "seed_maps.h"

static int write_map(rmg_context *ctx, const char *dir, int seed, int levels, rmg_water_level water)
{
    rmg_map *map = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/map-%d-%d-water%d.json", dir, seed, levels, (int)water);
    int failed = rmg_fuzz_seed_map(ctx, seed, levels, water, &map) != RMG_OK || rmg_map_save(map, path) != RMG_OK;
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
        failed |= write_map(ctx, argv[1], seed, seed == 3 ? 2 : 1, RMG_WATER_NONE);
    /* Water on two levels: the built-in pack's eight zones leave no room for a sea on one level
     * of a 36x36 map. */
    failed |= write_map(ctx, argv[1], 4, 2, RMG_WATER_NORMAL);
    failed |= write_map(ctx, argv[1], 5, 2, RMG_WATER_ISLANDS);
    rmg_context_destroy(ctx);
    return failed;
}
