/* The smallest complete host program: generate a map from the built-in template and save it. */
#include <rmg/rmg.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = 2026;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return 1;

    rmg_generate_options go;
    rmg_generate_options_init(&go); /* everything left open: the template chooses */
    rmg_map *map = NULL;
    if (rmg_generate(ctx, NULL, &go, &map) != RMG_OK) {
        fprintf(stderr, "generation failed: %s\n", rmg_context_errmsg(ctx));
        rmg_context_destroy(ctx);
        return 1;
    }
    printf("%s: %dx%dx%d, %zu zones, %zu objects, fingerprint %016llx\n", rmg_map_template_name(map),
           rmg_map_width(map), rmg_map_height(map), rmg_map_levels(map), rmg_map_zone_count(map),
           rmg_map_object_count(map), (unsigned long long)rmg_map_fingerprint(map));
    if (argc > 1 && rmg_map_save(map, argv[1]) != RMG_OK)
        fprintf(stderr, "%s\n", rmg_context_errmsg(ctx));
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return 0;
}
