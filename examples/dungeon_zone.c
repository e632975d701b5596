/* A zone-content stage plugin in the manner of roguelike dungeon generators: inside the
 * treasure zones it fills the open land with rock, carves rectangular rooms joined by
 * corridors, checks with a flood fill that every room is reachable, and then lets the
 * built-in objects stage place towns, mines and treasure into the rooms. */
#include <rmg/rmg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct room {
    int x0, y0, x1, y1;
} room;

typedef struct dungeon {
    const rmg_map *map;
    rmg_stage_view *view;
    rmg_rng *rng;
    int zone, level, w, h;
    unsigned char *open; /* tiles of the zone we opened (rooms, corridors) */
} dungeon;

static int in_zone(const dungeon *d, int x, int y)
{
    return x >= 0 && y >= 0 && x < d->w && y < d->h && rmg_map_tile_zone(d->map, x, y, d->level) == d->zone;
}

static void dig(dungeon *d, int x, int y)
{
    if (!in_zone(d, x, y))
        return;
    rmg_stage_set_blocked(d->view, x, y, d->level, 0); /* fails harmlessly on borders/objects */
    d->open[y * d->w + x] = 1;
}

/* L-shaped corridor: horizontal, then vertical. */
static void corridor(dungeon *d, int ax, int ay, int bx, int by)
{
    for (int x = ax; x != bx; x += bx > ax ? 1 : -1)
        dig(d, x, ay);
    for (int y = ay; y != by; y += by > ay ? 1 : -1)
        dig(d, bx, y);
    dig(d, bx, by);
}

/* Flood fill over opened and already passable tiles from the zone centre. */
static int reachable_rooms(dungeon *d, const room *rooms, int n, int cx, int cy)
{
    unsigned char *seen = calloc((size_t)d->w * (size_t)d->h, 1);
    int *queue = malloc(sizeof(int) * (size_t)d->w * (size_t)d->h);
    int head = 0, tail = 0, reached = 0;
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return -1;
    }
    seen[cy * d->w + cx] = 1;
    queue[tail++] = cy * d->w + cx;
    while (head < tail) {
        int t = queue[head++], x = t % d->w, y = t / d->w;
        for (int k = 0; k < 4; k++) {
            int nx = x + (k == 0) - (k == 1), ny = y + (k == 2) - (k == 3);
            if (!in_zone(d, nx, ny) || seen[ny * d->w + nx])
                continue;
            if (!d->open[ny * d->w + nx] && rmg_map_passable(d->map, nx, ny, d->level) != 1)
                continue;
            seen[ny * d->w + nx] = 1;
            queue[tail++] = ny * d->w + nx;
        }
    }
    for (int i = 0; i < n; i++)
        reached += seen[((rooms[i].y0 + rooms[i].y1) / 2) * d->w + (rooms[i].x0 + rooms[i].x1) / 2];
    free(seen);
    free(queue);
    return reached;
}

static rmg_status carve_zone(dungeon *d, const rmg_map_zone_info *z)
{
    /* 1. Fill: every open land tile of the zone becomes rock (reserved paths stay). */
    for (int y = 0; y < d->h; y++)
        for (int x = 0; x < d->w; x++)
            if (in_zone(d, x, y) && rmg_map_passable(d->map, x, y, d->level) == 1)
                rmg_stage_set_blocked(d->view, x, y, d->level, 1);
    /* 2. Rooms: random rectangles whose corners lie in the zone. */
    room rooms[12];
    int n = 0;
    for (int attempt = 0; attempt < 200 && n < 12; attempt++) {
        int rw = (int)rmg_rng_range(d->rng, 4, 9), rh = (int)rmg_rng_range(d->rng, 4, 8);
        int x0 = (int)rmg_rng_range(d->rng, 0, d->w - rw - 1), y0 = (int)rmg_rng_range(d->rng, 0, d->h - rh - 1);
        room r = {x0, y0, x0 + rw, y0 + rh};
        if (!in_zone(d, r.x0, r.y0) || !in_zone(d, r.x1, r.y1) || !in_zone(d, r.x0, r.y1) || !in_zone(d, r.x1, r.y0))
            continue;
        rooms[n++] = r;
    }
    for (int i = 0; i < n; i++) {
        for (int y = rooms[i].y0; y <= rooms[i].y1; y++)
            for (int x = rooms[i].x0; x <= rooms[i].x1; x++)
                dig(d, x, y);
        /* 3. Corridors: each room to the zone centre, which the free-path skeleton reaches. */
        corridor(d, (rooms[i].x0 + rooms[i].x1) / 2, (rooms[i].y0 + rooms[i].y1) / 2, z->center_x, z->center_y);
    }
    /* 4. Reachability check, as roguelike generators do after carving. */
    int reached = reachable_rooms(d, rooms, n, z->center_x, z->center_y);
    if (reached < 0)
        return RMG_ERR_NOMEM;
    char msg[160];
    snprintf(msg, sizeof msg, "zone %d: carved %d rooms, %d reachable from the centre", z->id, n, reached);
    return rmg_stage_warn(d->view, msg);
}

static rmg_status dungeon_objects(void *user, rmg_stage_view *view)
{
    (void)user;
    const rmg_map *map = rmg_stage_view_map(view);
    dungeon d;
    memset(&d, 0, sizeof d);
    d.map = map;
    d.view = view;
    d.rng = rmg_stage_view_rng(view);
    d.w = rmg_map_width(map);
    d.h = rmg_map_height(map);
    d.open = calloc((size_t)d.w * (size_t)d.h, 1);
    if (!d.open)
        return RMG_ERR_NOMEM;
    rmg_status st = RMG_OK;
    for (size_t i = 0; st == RMG_OK && i < rmg_map_zone_count(map); i++) {
        rmg_map_zone_info z;
        rmg_map_zone_info_init(&z);
        rmg_map_zone_get(map, i, &z);
        if (z.kind != RMG_ZONE_TREASURE)
            continue;
        d.zone = z.id;
        d.level = z.level;
        memset(d.open, 0, (size_t)d.w * (size_t)d.h);
        st = carve_zone(&d, &z);
    }
    free(d.open);
    return st == RMG_OK ? rmg_stage_run_builtin(view) : st;
}

int main(void)
{
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = 5;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return 1;
    rmg_stage_plugin plugin;
    rmg_stage_plugin_init(&plugin);
    plugin.run = dungeon_objects;
    /* If the dungeon leaves no room for the zone's content, fall back to the built-in stage. */
    rmg_context_set_stage(ctx, RMG_STAGE_OBJECTS, &plugin, RMG_PLUGIN_FALLBACK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    rmg_map *map = NULL;
    int code = 0;
    if (rmg_generate(ctx, NULL, &go, &map) != RMG_OK) {
        fprintf(stderr, "%s\n", rmg_context_errmsg(ctx));
        code = 1;
    } else {
        for (size_t i = 0; i < rmg_map_warning_count(map); i++)
            printf("%s\n", rmg_map_warning(map, i));
        rmg_map_save(map, "dungeon.png");
        printf("wrote dungeon.png (%zu objects)\n", rmg_map_object_count(map));
    }
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return code;
}
