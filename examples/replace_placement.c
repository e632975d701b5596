/* A placement stage plugin: puts the zones on a fixed grid of equal rectangles instead of the
 * HotA placement rules, then lets the rest of the pipeline run as usual. */
#include <rmg/rmg.h>
#include <stdio.h>

static rmg_status grid_placement(void *user, rmg_stage_view *view)
{
    (void)user;
    const rmg_map *map = rmg_stage_view_map(view);
    int w = rmg_map_width(map), h = rmg_map_height(map);
    size_t n = rmg_map_zone_count(map); /* one zone per template zone in play */
    int cols = 1;
    while ((size_t)(cols * cols) < n)
        cols++;
    int rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
    for (size_t i = 0; i < n; i++) {
        int c = (int)i % cols, r = (int)i / cols;
        int x0 = c * w / cols, x1 = (c + 1) * w / cols, y0 = r * h / rows, y1 = (r + 1) * h / rows;
        if (r == rows - 1 && c == (int)((n - 1) % (size_t)cols))
            x1 = w; /* the last zone takes the rest of its row */
        rmg_status st = rmg_stage_place_zone(view, i, 0, (x0 + x1) / 2, (y0 + y1) / 2);
        for (int y = y0; st == RMG_OK && y < y1; y++)
            for (int x = x0; st == RMG_OK && x < x1; x++)
                st = rmg_stage_set_tile_zone(view, x, y, 0, (int)i + 1);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK; /* tiles left without a zone become rock */
}

int main(void)
{
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = 11;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return 1;
    rmg_stage_plugin plugin;
    rmg_stage_plugin_init(&plugin);
    plugin.run = grid_placement;
    rmg_context_set_stage(ctx, RMG_STAGE_PLACE, &plugin, RMG_PLUGIN_FAIL);

    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.levels = 1;
    rmg_map *map = NULL;
    int code = 0;
    if (rmg_generate(ctx, NULL, &go, &map) != RMG_OK) {
        fprintf(stderr, "%s\n", rmg_context_errmsg(ctx));
        code = 1;
    } else {
        for (size_t i = 0; i < rmg_map_zone_count(map); i++) {
            rmg_map_zone_info z;
            rmg_map_zone_info_init(&z);
            rmg_map_zone_get(map, i, &z);
            printf("zone %d (template zone %d): centre %d,%d, %zu tiles\n", z.id, z.template_zone, z.center_x,
                   z.center_y, z.tiles);
        }
    }
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return code;
}
