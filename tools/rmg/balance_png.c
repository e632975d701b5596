/*
 * The picture of a balance report: the map with every tile tinted in the colour of the player who
 * reaches it first, brighter for day 1 and fading by day 2, 3 and 7 (grey beyond, dark where no
 * hero goes), the cheapest paths between the towns, guards as red dots; under it one group of
 * bars per player (value within 1, 2, 3 and 7 days) and the fairness score. Built from the public
 * API only (the report's reach and paths, the map's layers and objects).
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "balance_png.h"

typedef struct rgb {
    uint8_t r, g, b;
} rgb;

typedef struct picture {
    int w, h, scale, gap;          /* pixels; tile size; gap between levels */
    int map_w, map_h, levels;
    uint8_t *px;
} picture;

static rgb hex(uint32_t c)
{
    return (rgb){(uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
}

/* c and d mixed, share/100 of d. */
static rgb mix(rgb c, rgb d, int share)
{
    return (rgb){(uint8_t)((c.r * (100 - share) + d.r * share) / 100), (uint8_t)((c.g * (100 - share) + d.g * share) / 100),
                 (uint8_t)((c.b * (100 - share) + d.b * share) / 100)};
}

static void put(picture *p, int x, int y, rgb c)
{
    if (x < 0 || y < 0 || x >= p->w || y >= p->h)
        return;
    uint8_t *q = p->px + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
    q[0] = c.r;
    q[1] = c.g;
    q[2] = c.b;
}

static void rect(picture *p, int x0, int y0, int w, int h, rgb c)
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            put(p, x, y, c);
}

static rgb player_colour(int player)
{
    static const uint32_t colours[] = {0xa0a0a0, 0xe02020, 0x2050e0, 0xc8a070, 0x30b030,
                                       0xf08020, 0x9030c0, 0x20b0b0, 0xf070b0};
    return hex(colours[player >= 0 && player <= 8 ? player : 0]);
}

/* ---- text: a 3x5 font for the few characters the picture writes ---------------------------- */

static const char *glyph(char c)
{
    static const struct {
        char c;
        const char *rows; /* 5 rows of 3 columns */
    } font[] = {
        {'0', "111101101101111"}, {'1', "010110010010111"}, {'2', "111001111100111"}, {'3', "111001111001111"},
        {'4', "101101111001001"}, {'5', "111100111001111"}, {'6', "111100111101111"}, {'7', "111001001001001"},
        {'8', "111101111101111"}, {'9', "111101111001111"}, {'.', "000000000000010"}, {'P', "111101111100100"},
        {'S', "111100111001111"}, {'C', "111100100100111"}, {'O', "111101101101111"}, {'R', "110101110101101"},
        {'E', "111100111100111"}, {'D', "110101101101110"}, {'A', "010101111101101"}, {'Y', "101101010010010"},
        {'V', "101101101101010"}, {'L', "100100100100111"}, {'U', "101101101101111"}, {'/', "001001010100100"},
    };
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].c == c)
            return font[i].rows;
    return NULL;
}

static void text(picture *p, int x, int y, int size, const char *s, rgb c)
{
    for (; *s; s++, x += 4 * size) {
        const char *rows = glyph(*s);
        for (int i = 0; rows && i < 15; i++)
            if (rows[i] == '1')
                rect(p, x + (i % 3) * size, y + (i / 3) * size, size, size, c);
    }
}

/* ---- the map ------------------------------------------------------------------------------- */

static int tile_x(const picture *p, int x, int z)
{
    return z * (p->map_w * p->scale + p->gap) + x * p->scale;
}

static void terrain_colours(rmg_context *ctx, rgb out[256])
{
    const rmg_content *c = NULL;
    rmg_context_content(ctx, &c);
    for (int id = 0; id < 256; id++) {
        out[id] = hex(0x303030);
        long i = c ? rmg_content_find_id(c, RMG_CONTENT_TERRAIN, id) : -1;
        rmg_terrain_info t = {.struct_size = sizeof t};
        if (i >= 0 && rmg_content_terrain(c, (size_t)i, &t) == RMG_OK && t.color_rgb)
            out[id] = hex(t.color_rgb);
    }
}

/* The player (index) who reaches tile t first and on which day; -1 for none, -2 for a tie. */
static int first_reacher(uint8_t *const *reach, size_t n, size_t t, int *day)
{
    int who = -1;
    *day = 0;
    for (size_t i = 0; i < n; i++) {
        int d = reach[i][t];
        if (!d || (*day && d > *day))
            continue;
        who = *day == d ? -2 : (int)i;
        *day = d;
    }
    return who;
}

static int tint_share(int day)
{
    return day <= 1 ? 70 : day <= 2 ? 50 : day <= 3 ? 35 : day <= 7 ? 18 : 0;
}

static void draw_reach(picture *p, const rmg_map *map, const rmg_balance *b, uint8_t *const *reach, rmg_context *ctx)
{
    rgb terrain[256];
    terrain_colours(ctx, terrain);
    size_t n = rmg_balance_player_count(b);
    for (int z = 0; z < p->levels; z++)
        for (int y = 0; y < p->map_h; y++)
            for (int x = 0; x < p->map_w; x++) {
                size_t t = ((size_t)z * (size_t)p->map_h + (size_t)y) * (size_t)p->map_w + (size_t)x;
                int day, who = first_reacher(reach, n, t, &day);
                rgb c = terrain[rmg_map_terrain(map, x, y, z) & 0xFF];
                if (!day) {
                    c = mix(c, hex(0x000000), 65);
                } else if (day > 7) {
                    c = mix(c, hex(0x808080), 60);
                } else {
                    rmg_balance_player_info info = {.struct_size = sizeof info};
                    if (who >= 0)
                        rmg_balance_player(b, (size_t)who, &info);
                    c = mix(c, who >= 0 ? player_colour(info.player) : hex(0xffffff), tint_share(day));
                }
                rect(p, tile_x(p, x, z), y * p->scale, p->scale, p->scale, c);
            }
}

static void dot(picture *p, uint32_t t, rgb c)
{
    size_t plane = (size_t)p->map_w * (size_t)p->map_h;
    int z = (int)(t / plane), y = (int)(t % plane / (size_t)p->map_w), x = (int)(t % (size_t)p->map_w);
    int size = p->scale > 2 ? p->scale / 2 : 1;
    rect(p, tile_x(p, x, z) + (p->scale - size) / 2, y * p->scale + (p->scale - size) / 2, size, size, c);
}

static void draw_paths(picture *p, const rmg_balance *b)
{
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        rmg_balance_player_info info = {.struct_size = sizeof info};
        rmg_balance_player(b, i, &info);
        for (size_t k = 0; k < info.path_count; k++) {
            size_t n = rmg_balance_path_tiles(b, i, k, NULL, 0);
            uint32_t *tiles = malloc((n + 1) * sizeof *tiles);
            if (!tiles)
                return;
            rmg_balance_path_tiles(b, i, k, tiles, n);
            for (size_t j = 0; j < n; j++)
                dot(p, tiles[j], mix(player_colour(info.player), hex(0x000000), 25));
            free(tiles);
        }
    }
}

static void draw_objects(picture *p, const rmg_map *map, const rmg_balance *b)
{
    for (size_t i = 0; i < rmg_map_object_count(map); i++) {
        rmg_map_object_info o = {.struct_size = sizeof o};
        if (rmg_map_object(map, i, &o) != RMG_OK || o.x < 0 || o.y < 0 || o.x >= p->map_w || o.y >= p->map_h)
            continue;
        uint32_t t = (uint32_t)(((size_t)o.z * (size_t)p->map_h + (size_t)o.y) * (size_t)p->map_w + (size_t)o.x);
        if (o.kind == RMG_OBJECT_MONSTER)
            dot(p, t, hex(0xb00000));
    }
    /* The towns the players start from: a square of their colour with a white rim. */
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        rmg_balance_player_info info = {.struct_size = sizeof info};
        rmg_balance_player(b, i, &info);
        int x = tile_x(p, info.town_x, info.town_z) - p->scale, y = (info.town_y - 1) * p->scale;
        rect(p, x - 1, y - 1, 3 * p->scale + 2, 3 * p->scale + 2, hex(0xffffff));
        rect(p, x, y, 3 * p->scale, 3 * p->scale, player_colour(info.player));
    }
}

/* ---- bars ---------------------------------------------------------------------------------- */

#define BAR_PANEL 150

static void draw_bars(picture *p, const rmg_balance *b)
{
    int top = p->map_h * p->scale + 10, base = top + BAR_PANEL - 34;
    size_t n = rmg_balance_player_count(b);
    char line[64];
    snprintf(line, sizeof line, "SCORE %.1f", rmg_balance_score(b));
    text(p, 8, top, 3, line, hex(0x000000));
    text(p, 8, top + 22, 2, "VALUE DAY 1/2/3/7", hex(0x404040));
    int64_t most = 1;
    for (size_t i = 0; i < n; i++) {
        rmg_balance_player_info info = {.struct_size = sizeof info};
        rmg_balance_player(b, i, &info);
        most = info.value_by_day[RMG_BALANCE_DAYS - 1] > most ? info.value_by_day[RMG_BALANCE_DAYS - 1] : most;
    }
    int group = 5 * 12 + 20, x0 = 180, height = base - (top + 8);
    for (size_t i = 0; i < n; i++) {
        rmg_balance_player_info info = {.struct_size = sizeof info};
        rmg_balance_player(b, i, &info);
        int x = x0 + (int)i * group;
        if (x + group > p->w)
            break;
        for (int d = 0; d < RMG_BALANCE_DAYS; d++) {
            int bar = (int)((double)info.value_by_day[d] / (double)most * height);
            rgb c = mix(player_colour(info.player), hex(0xffffff), 45 - 15 * d);
            rect(p, x + d * 14, base - bar, 12, bar, c);
        }
        snprintf(line, sizeof line, "P%d", info.player);
        text(p, x + 14, base + 6, 3, line, player_colour(info.player));
    }
}

/* ---- the file ------------------------------------------------------------------------------ */

static int write_png(const picture *p, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile int failed = !png || !info;
    if (!failed && setjmp(png_jmpbuf(png)))
        failed = 1;
    else if (!failed) {
        png_init_io(png, f);
        png_set_IHDR(png, info, (png_uint_32)p->w, (png_uint_32)p->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (int y = 0; y < p->h; y++)
            png_write_row(png, p->px + (size_t)y * (size_t)p->w * 3);
        png_write_end(png, NULL);
    }
    png_destroy_write_struct(&png, &info);
    return fclose(f) != 0 || failed;
}

int cli_balance_png(rmg_context *ctx, const rmg_map *map, const rmg_balance *b, const char *path)
{
    picture p = {0};
    p.map_w = rmg_map_width(map);
    p.map_h = rmg_map_height(map);
    p.levels = rmg_map_levels(map);
    int side = p.map_w > p.map_h ? p.map_w : p.map_h;
    p.scale = 1024 / side < 2 ? 2 : 1024 / side > 8 ? 8 : 1024 / side;
    p.gap = p.levels > 1 ? 4 * p.scale : 0;
    p.w = p.map_w * p.scale * p.levels + p.gap * (p.levels - 1);
    p.w = p.w < 480 ? 480 : p.w;
    p.h = p.map_h * p.scale + BAR_PANEL;
    size_t n = rmg_balance_player_count(b), tiles = (size_t)p.map_w * (size_t)p.map_h * (size_t)p.levels;
    uint8_t *reach[8] = {0};
    p.px = malloc((size_t)p.w * (size_t)p.h * 3);
    int failed = !p.px;
    for (size_t i = 0; !failed && i < n && i < 8; i++)
        failed = !(reach[i] = malloc(tiles)) || rmg_balance_reach_days(b, i, reach[i], tiles) != RMG_OK;
    if (!failed) {
        memset(p.px, 0xff, (size_t)p.w * (size_t)p.h * 3);
        draw_reach(&p, map, b, reach, ctx);
        draw_paths(&p, b);
        draw_objects(&p, map, b);
        draw_bars(&p, b);
        failed = write_png(&p, path);
    }
    for (size_t i = 0; i < 8; i++)
        free(reach[i]);
    free(p.px);
    return failed;
}
