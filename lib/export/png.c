/* PNG preview: levels side by side; terrain colours, tiles under obstacle objects shaded, zone borders, rivers, roads,
 * passages, objects and guards as distinct marks, towns in player colours. libpng allocates
 * through the context's allocator. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "export_internal.h"
#include "rmg/finish.h"

typedef struct rgb {
    uint8_t r, g, b;
} rgb;

typedef struct canvas {
    rmg_context *ctx;
    int w, h, scale, gap;
    uint8_t *px; /* w*h*3 */
} canvas;

/* The picture's colours: the one table the drawing below and its legend (rmg__png_legend,
 * `rmg render --legend`, docs/png-preview.md) read. Terrains take their ruleset colours
 * (rmg__png_terrain_rgb). */
typedef enum png_colour {
    C_ROCK, C_BLOCKED, C_PASSAGE, C_RIVER, C_ICY_RIVER, C_ROAD, C_COBBLESTONE, C_BORDER,
    C_NEUTRAL, C_PLAYER1, C_PLAYER2, C_PLAYER3, C_PLAYER4, C_PLAYER5, C_PLAYER6, C_PLAYER7, C_PLAYER8, C_MAIN_TOWN,
    C_MINE, C_RESOURCE, C_TREASURE, C_MONSTER, C_MONOLITH, C_GATE, C_BORDER_GUARD, C_SEER_HUT, C_SHIPYARD,
    C_OTHER, C_OUTLINE, C_COUNT
} png_colour;

static const struct {
    uint32_t rgb; /* 0xRRGGBB; C_BLOCKED: the share of the terrain's brightness, 0xNNDD = NN/DD */
    const char *what;
} colours[C_COUNT] = {
    [C_ROCK] = {0x2a2a2a, "rock (no land, no water)"},
    [C_BLOCKED] = {0x0b14, "a tile under an obstacle: its terrain at 11/20 of the brightness"},
    [C_PASSAGE] = {0xf4f0d0, "a passage through a zone border"},
    [C_RIVER] = {0x3c78d8, "a river"},
    [C_ICY_RIVER] = {0x9cd4f0, "an icy river"},
    [C_ROAD] = {0xd8b878, "a road (dirt or gravel)"},
    [C_COBBLESTONE] = {0xb8b0a0, "a cobblestone road"},
    [C_BORDER] = {0x101010, "a zone border (a line between tiles of two zones)"},
    [C_NEUTRAL] = {0xa0a0a0, "a neutral town"},
    [C_PLAYER1] = {0xe02020, "a town of player 1 (red)"},
    [C_PLAYER2] = {0x2050e0, "a town of player 2 (blue)"},
    [C_PLAYER3] = {0xc8a070, "a town of player 3 (tan)"},
    [C_PLAYER4] = {0x30b030, "a town of player 4 (green)"},
    [C_PLAYER5] = {0xf08020, "a town of player 5 (orange)"},
    [C_PLAYER6] = {0x9030c0, "a town of player 6 (purple)"},
    [C_PLAYER7] = {0x20b0b0, "a town of player 7 (teal)"},
    [C_PLAYER8] = {0xf070b0, "a town of player 8 (pink)"},
    [C_MAIN_TOWN] = {0xffffff, "the tile that places a main town (its position), inside it"},
    [C_MINE] = {0xff9a00, "a mine"},
    [C_RESOURCE] = {0xffd060, "a resource pile"},
    [C_TREASURE] = {0xffee00, "treasure (artifacts, boxes, dwellings, other visitable objects)"},
    [C_MONSTER] = {0xd00000, "a guard (monster), drawn over what it guards"},
    [C_MONOLITH] = {0xff00ff, "a monolith (teleport)"},
    [C_GATE] = {0x8000ff, "a subterranean gate"},
    [C_BORDER_GUARD] = {0x00e0ff, "a border guard or keymaster's tent"},
    [C_SEER_HUT] = {0x60ff60, "a seer's hut"},
    [C_SHIPYARD] = {0x80c0ff, "a shipyard, airship yard or boat"},
    [C_OTHER] = {0xffffff, "any other object"},
    [C_OUTLINE] = {0x000000, "the outline of each object tile (at 3 pixels a tile and more)"},
};

const char *rmg__png_legend(size_t i, uint32_t *value)
{
    if (i >= C_COUNT)
        return NULL;
    if (value)
        *value = colours[i].rgb;
    return colours[i].what;
}

static rgb hex(uint32_t c)
{
    rgb v = {(uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
    return v;
}

static rgb shade(rgb c, int num, int den)
{
    rgb v = {(uint8_t)(c.r * num / den), (uint8_t)(c.g * num / den), (uint8_t)(c.b * num / den)};
    return v;
}

static void put(canvas *cv, int x, int y, rgb c)
{
    if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
        return;
    uint8_t *p = cv->px + ((size_t)y * (size_t)cv->w + (size_t)x) * 3;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

static void fill_rect(canvas *cv, int x0, int y0, int w, int h, rgb c)
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            put(cv, x, y, c);
}

static int tile_px(const canvas *cv, const struct rmg_map *m, int x, int z)
{
    return (z * (m->width * cv->scale + cv->gap)) + x * cv->scale;
}

uint32_t rmg__png_terrain_rgb(const struct rmg_content *c, int id)
{
    static const uint32_t fallback[RMG_TERRAIN_COUNT] = {0x8c6a3e, 0xdccb8a, 0x4f9a3a, 0xe8eef2, 0x4b6b4a, 0x9c8a62,
                                                         0x6a5a4a, 0x4a4040, 0x2f64b8, 0x303030, 0x7aa07a, 0xa58a5a};
    if (c) {
        long i = rmg__content_find_terrain_id(c, id);
        if (i >= 0 && c->terrains[i].color_rgb)
            return c->terrains[i].color_rgb;
    }
    return id >= 0 && id < RMG_TERRAIN_COUNT ? fallback[id] : 0x000000;
}

static rgb terrain_colour(const struct rmg_content *c, int id)
{
    return hex(rmg__png_terrain_rgb(c, id));
}

static rgb colour(png_colour k)
{
    return hex(colours[k].rgb);
}

static bool under_obstacle(const struct rmg_map *m, size_t t)
{
    uint32_t id = m->tile_object[t];
    return id && id <= m->objects.count && m->objects.items[id - 1].kind == RMG_OBJECT_OBSTACLE &&
           !rmg__map_tile_passable(m, t);
}

static void draw_terrain(canvas *cv, const struct rmg_map *m, const struct rmg_content *c)
{
    for (int z = 0; z < m->levels; z++)
        for (int y = 0; y < m->height; y++)
            for (int x = 0; x < m->width; x++) {
                size_t t = rmg__tile(m->width, m->height, x, y, z);
                rgb col = terrain_colour(c, m->terrain[t]);
                uint16_t f = m->flags[t];
                if (f & RMG__T_ROCK)
                    col = colour(C_ROCK);
                else if (under_obstacle(m, t)) /* as the game blocks: under an obstacle object */
                    col = shade(col, (int)(colours[C_BLOCKED].rgb >> 8), (int)(colours[C_BLOCKED].rgb & 0xff));
                if (f & RMG__T_PASSAGE)
                    col = colour(C_PASSAGE);
                /* Icy rivers paler; as in the game, an obstacle hides a river under it and a road is
                 * drawn over one. */
                if (m->river[t] && !under_obstacle(m, t))
                    col = colour(m->river[t] == RMG_RIVER_ICY ? C_ICY_RIVER : C_RIVER);
                if (m->road[t])
                    col = colour(m->road[t] == 3 ? C_COBBLESTONE : C_ROAD);
                fill_rect(cv, tile_px(cv, m, x, z), y * cv->scale, cv->scale, cv->scale, col);
            }
}

/* Zone borders: darken the pixel edge between tiles of different zones. */
static void draw_borders(canvas *cv, const struct rmg_map *m)
{
    rgb line = colour(C_BORDER);
    for (int z = 0; z < m->levels; z++)
        for (int y = 0; y < m->height; y++)
            for (int x = 0; x < m->width; x++) {
                size_t t = rmg__tile(m->width, m->height, x, y, z);
                int px = tile_px(cv, m, x, z), py = y * cv->scale;
                if (x + 1 < m->width && m->tile_zone[t + 1] != m->tile_zone[t])
                    fill_rect(cv, px + cv->scale - 1, py, 1, cv->scale, line);
                if (y + 1 < m->height && m->tile_zone[t + (size_t)m->width] != m->tile_zone[t])
                    fill_rect(cv, px, py + cv->scale - 1, cv->scale, 1, line);
            }
}

static rgb object_colour(const rmg__map_object *o)
{
    switch (o->kind) {
    case RMG_OBJECT_TOWN:
        return colour((png_colour)(C_NEUTRAL + (o->owner >= 0 && o->owner <= 8 ? o->owner : 0)));
    case RMG_OBJECT_MINE:
        return colour(C_MINE);
    case RMG_OBJECT_RESOURCE:
        return colour(C_RESOURCE);
    case RMG_OBJECT_MONSTER:
        return colour(C_MONSTER);
    case RMG_OBJECT_MONOLITH:
        return colour(C_MONOLITH);
    case RMG_OBJECT_GATE:
        return colour(C_GATE);
    case RMG_OBJECT_BORDER_GUARD:
    case RMG_OBJECT_KEYMASTER_TENT:
        return colour(C_BORDER_GUARD);
    case RMG_OBJECT_SEER_HUT:
        return colour(C_SEER_HUT);
    case RMG_OBJECT_SHIPYARD:
    case RMG_OBJECT_AIRSHIP_YARD:
    case RMG_OBJECT_BOAT:
        return colour(C_SHIPYARD);
    case RMG_OBJECT_TREASURE:
        return colour(C_TREASURE);
    case RMG_OBJECT_OBSTACLE: /* never drawn: the tiles under it are shaded (C_BLOCKED) */
        break;
    }
    return colour(C_OTHER);
}

typedef struct mark_ctx {
    canvas *cv;
    const struct rmg_map *m;
    int z;
    rgb col;
    bool outline;
} mark_ctx;

static void mark_tile(void *user, int x, int y)
{
    mark_ctx *mc = user;
    if (x < 0 || y < 0 || x >= mc->m->width || y >= mc->m->height)
        return;
    canvas *cv = mc->cv;
    int px = tile_px(cv, mc->m, x, mc->z), py = y * cv->scale;
    if (mc->outline && cv->scale >= 3) {
        fill_rect(cv, px, py, cv->scale, cv->scale, colour(C_OUTLINE));
        fill_rect(cv, px + 1, py + 1, cv->scale - 2, cv->scale - 2, mc->col);
    } else {
        fill_rect(cv, px, py, cv->scale, cv->scale, mc->col);
    }
}

static void draw_objects(canvas *cv, const struct rmg_map *m)
{
    /* Monsters last so guards stay visible over what they guard. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < m->objects.count; i++) {
            const rmg__map_object *o = &m->objects.items[i];
            bool monster = o->kind == RMG_OBJECT_MONSTER;
            if ((pass == 1) != monster || o->kind == RMG_OBJECT_OBSTACLE)
                continue;
            mark_ctx mc = {cv, m, o->z, object_colour(o), true};
            rmg__footprint_tiles(o->block | o->visit, o->x, o->y, mark_tile, &mc);
            if (o->kind == RMG_OBJECT_TOWN && o->main) {
                mc.col = colour(C_MAIN_TOWN);
                mc.outline = false;
                mark_tile(&mc, o->x, o->y);
            }
        }
}

static png_voidp png_alloc(png_structp png, png_alloc_size_t size)
{
    return rmg__malloc(png_get_mem_ptr(png), size);
}

static void png_release(png_structp png, png_voidp ptr)
{
    rmg__free(png_get_mem_ptr(png), ptr);
}

static void png_error_fn(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static rmg_status write_png(rmg_context *ctx, const canvas *cv, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "cannot write the PNG file");
    png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, NULL, png_error_fn, png_warning_fn, ctx,
                                                png_alloc, png_release);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        fclose(f);
        return rmg__error_nomem(ctx);
    }
    volatile rmg_status st = RMG_OK;
    if (setjmp(png_jmpbuf(png))) {
        st = rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "PNG encoding failed");
    } else {
        png_init_io(png, f);
        png_set_IHDR(png, info, (png_uint_32)cv->w, (png_uint_32)cv->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (int y = 0; y < cv->h; y++)
            png_write_row(png, cv->px + (size_t)y * (size_t)cv->w * 3);
        png_write_end(png, NULL);
    }
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0 && st == RMG_OK)
        st = rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "cannot finish writing the PNG file");
    return st;
}

rmg_status rmg_map_save_png(const rmg_map *map, const char *path)
{
    if (!map || !path)
        return RMG_ERR_INVALID_ARG;
    canvas cv;
    memset(&cv, 0, sizeof cv);
    cv.ctx = map->ctx;
    cv.scale = 1024 / (map->width > map->height ? map->width : map->height);
    cv.scale = cv.scale < 2 ? 2 : cv.scale > 8 ? 8 : cv.scale;
    cv.gap = map->levels > 1 ? 4 * cv.scale : 0;
    cv.w = map->width * cv.scale * map->levels + cv.gap * (map->levels - 1);
    cv.h = map->height * cv.scale;
    cv.px = rmg__calloc(map->ctx, (size_t)cv.w * (size_t)cv.h, 3);
    if (!cv.px)
        return rmg__error_nomem(map->ctx);
    memset(cv.px, 0xff, (size_t)cv.w * (size_t)cv.h * 3);
    const struct rmg_content *c = rmg__content_peek(map->ctx);
    draw_terrain(&cv, map, c);
    draw_borders(&cv, map);
    draw_objects(&cv, map);
    rmg_status st = write_png(map->ctx, &cv, path);
    rmg__free(map->ctx, cv.px);
    return st;
}
