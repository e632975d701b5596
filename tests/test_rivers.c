/*
 * Rivers (issue 32, finish_rivers.c): the river type of each terrain, rivers on Jebus Cross XL
 * maps in the game's numbers, every river tile on open land and with a view the game has
 * (h3m-format.md §13.2, checked on the .h3m written and read back by a checker of its own), the
 * JSON round trip, and the river tiles of the game's own maps read by the .h3m reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"
#include "finish/finish_internal.h"

/* ---- the river type per terrain ------------------------------------------------------------- */

static void test_river_type_of_terrain(void **state)
{
    (void)state;
    /* As the game's 35 Jebus Cross maps show: icy on snow, clear on dirt, grass and swamp, none
     * in lava, sand, rough zones (and none underground, on water or rock). */
    assert_int_equal(rmg__river_type_of_terrain(RMG_TERRAIN_SNOW), RMG_RIVER_ICY);
    assert_int_equal(rmg__river_type_of_terrain(RMG_TERRAIN_DIRT), RMG_RIVER_CLEAR);
    assert_int_equal(rmg__river_type_of_terrain(RMG_TERRAIN_GRASS), RMG_RIVER_CLEAR);
    assert_int_equal(rmg__river_type_of_terrain(RMG_TERRAIN_SWAMP), RMG_RIVER_CLEAR);
    static const int none[] = {RMG_TERRAIN_SAND, RMG_TERRAIN_ROUGH, RMG_TERRAIN_LAVA, RMG_TERRAIN_SUBTERRANEAN,
                               RMG_TERRAIN_WATER, RMG_TERRAIN_ROCK, RMG_TERRAIN_HIGHLANDS, RMG_TERRAIN_WASTELAND};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_int_equal(rmg__river_type_of_terrain(none[i]), RMG_RIVER_NONE);
}

/* ---- a view checker of its own (§13.2) -------------------------------------------------------- */

/* The river frames and mirror §13.2 gives a tile by its river neighbours (any type counts; bit 0
 * up, 1 right, 2 down, 3 left). */
static void river_frames(int nb, int *lo, int *hi, int *flip)
{
    static const int table[16][3] = {
        [0] = {9, 10, 0},  [4] = {9, 10, 0},  [1] = {9, 10, 0},  [2] = {11, 12, 0}, [8] = {11, 12, 0},
        [5] = {9, 10, 0},  [10] = {11, 12, 0}, [6] = {0, 3, 0},   [12] = {0, 3, 1},  [3] = {0, 3, 2},
        [9] = {0, 3, 3},   [7] = {7, 8, 0},   [13] = {7, 8, 1},  [14] = {5, 6, 0},  [11] = {5, 6, 2},
        [15] = {4, 4, 0},
    };
    *lo = table[nb][0];
    *hi = table[nb][1];
    *flip = table[nb][2];
}

/* River tiles of an .h3m's tile block whose view or mirror is not §13.2's. */
static size_t wrong_river_views(const uint8_t *tiles, int size, int levels, size_t *rivers)
{
    size_t wrong = 0;
    *rivers = 0;
    for (int z = 0; z < levels; z++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                const uint8_t *t = tiles + 7 * (((size_t)z * (size_t)size + (size_t)y) * (size_t)size + (size_t)x);
                if (!t[2])
                    continue;
                (*rivers)++;
#define RIVER_AT(dx, dy)                                                                                              \
    (x + (dx) >= 0 && y + (dy) >= 0 && x + (dx) < size && y + (dy) < size &&                                          \
     tiles[7 * (((size_t)z * (size_t)size + (size_t)(y + (dy))) * (size_t)size + (size_t)(x + (dx))) + 2])
                int nb = (RIVER_AT(0, -1) ? 1 : 0) | (RIVER_AT(1, 0) ? 2 : 0) | (RIVER_AT(0, 1) ? 4 : 0) |
                         (RIVER_AT(-1, 0) ? 8 : 0);
#undef RIVER_AT
                int lo, hi, flip;
                river_frames(nb, &lo, &hi, &flip);
                if (t[3] < lo || t[3] > hi || ((t[6] >> 2) & 3) != flip || t[2] > 4)
                    wrong++;
            }
    return wrong;
}

/* ---- Jebus Cross XL as the game's maps were made -------------------------------------------- */

#define JEBUS "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__Jebus_Cross__rmg.txt"
#define SEEDS 9
#define GAME_MEDIAN 480 /* river tiles on the game's 35 Jebus Cross XL maps (their tile bytes; issue 32 counted 444 with another reader) */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static rmg_map *jebus_map(rmg_context *ctx, const char *path)
{
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
    assert_int_equal(rmg_pack_load(ctx, path, RMG_FORMAT_AUTO, &pack), RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 144;
    go.players = 2;
    go.humans = 2;
    go.monsters = RMG_MAP_MONSTERS_STRONG;
    rmg_map *map = NULL;
    if (rmg_generate(ctx, pack, &go, &map) != RMG_OK)
        fail_msg("Jebus Cross: %s", rmg_context_errmsg(ctx));
    rmg_pack_destroy(pack);
    return map;
}

/* Every river tile on land (not water, rock or a passage), in a zone whose terrain has rivers,
 * of the zone's river type; rivers block nothing: a river tile no object covers is passable
 * (objects may stand over rivers, as on the game's maps, and hide them). */
static void check_river_tiles(const rmg_map *m)
{
    for (size_t t = 0; t < m->n_tiles; t++) {
        if (!m->river[t])
            continue;
        assert_false(m->flags[t] & (RMG__T_WATER | RMG__T_ROCK | RMG__T_PASSAGE));
        if (!m->tile_object[t] && !(m->flags[t] & RMG__T_OBJECT))
            assert_true(rmg__map_tile_passable(m, t));
        uint16_t zid = m->tile_zone[t];
        assert_true(zid >= 1 && zid <= m->zones.count);
        assert_int_equal(m->river[t], rmg__river_type_of_terrain(m->zones.items[zid - 1].terrain));
    }
}

static void test_jebus_rivers_like_the_game(void **state)
{
    (void)state;
    const char *path = rmg_test_need_shared(JEBUS);
    size_t counts[SEEDS];
    for (int s = 0; s < SEEDS; s++) {
        rmg_context *ctx = rmg_test_context(NULL, (uint64_t)s + 1);
        rmg_map *m = jebus_map(ctx, path);
        size_t n = 0;
        for (size_t t = 0; t < m->n_tiles; t++)
            n += m->river[t] != 0;
        counts[s] = n;
        check_river_tiles(m);
        /* the .h3m written and read back: the river bytes are the layer's, every view is §13.2's */
        rmg_h3m_options ho;
        rmg_h3m_options_init(&ho);
        ho.edition = RMG_H3M_SOD;
        unsigned char *bytes = NULL;
        size_t len = 0;
        assert_int_equal(rmg_map_to_h3m(m, &ho, &bytes, &len), RMG_OK);
        rmg__h3m_doc *doc = NULL;
        assert_int_equal(rmg__h3m_read(ctx, bytes, len, "jebus.h3m", &doc), RMG_OK);
        size_t rivers = 0;
        assert_int_equal(wrong_river_views(doc->tiles, (int)doc->basic.size, 1, &rivers), 0);
        assert_int_equal(rivers, n);
        for (size_t t = 0; t < m->n_tiles; t++)
            assert_int_equal(doc->tiles[7 * t + 2], m->river[t]);
        rmg__h3m_doc_free(doc);
        rmg_free(ctx, bytes);
        print_message("seed %d: %zu river tiles\n", s + 1, n);
        rmg_map_destroy(m);
        rmg_context_destroy(ctx);
    }
    qsort(counts, SEEDS, sizeof *counts, cmp_size);
    size_t median = counts[SEEDS / 2];
    print_message("median %zu river tiles (the game: %d), ratio %.2f\n", median, GAME_MEDIAN,
                  (double)median / GAME_MEDIAN);
    assert_true((double)median >= 0.75 * GAME_MEDIAN && (double)median <= 1.33 * GAME_MEDIAN);
}

/* ---- JSON round trip ------------------------------------------------------------------------ */

static void test_json_round_trip(void **state)
{
    (void)state;
    const char *path = rmg_test_need_shared(JEBUS);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *m = jebus_map(ctx, path);
    char *json = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_json(m, &json, &len), RMG_OK);
    assert_non_null(strstr(json, "\"river\":["));
    struct rmg_map *back = NULL;
    assert_int_equal(rmg__map_from_json(ctx, json, len, "jebus.json", &back), RMG_OK);
    size_t size = rmg_map_layer_size(m, RMG_LAYER_RIVER), rivers = 0;
    assert_int_equal(size, m->n_tiles);
    uint8_t *a = malloc(size), *b = malloc(size);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(rmg_map_copy_layer(m, RMG_LAYER_RIVER, a, size), RMG_OK);
    assert_int_equal(rmg_map_copy_layer(back, RMG_LAYER_RIVER, b, size), RMG_OK);
    assert_memory_equal(a, b, size);
    for (size_t t = 0; t < size; t++) {
        rivers += a[t] != 0;
        int x = (int)(t % (size_t)m->width), y = (int)(t / (size_t)m->width);
        assert_int_equal(rmg_map_river(back, x, y, 0), a[t]);
    }
    assert_true(rivers > 0);
    assert_int_equal(rmg_map_river(back, -1, 0, 0), -1);
    assert_int_equal(rmg_map_river(back, 0, 0, 1), -1);
    /* A document without the layer (written before rivers) reads as a map without rivers. */
    char *cut = strstr(json, ",\"river\":[");
    char *end = strchr(cut + 1, ']');
    memmove(cut, end + 1, strlen(end + 1) + 1);
    struct rmg_map *old = NULL;
    assert_int_equal(rmg__map_from_json(ctx, json, strlen(json), "old.json", &old), RMG_OK);
    assert_int_equal(rmg_map_copy_layer(old, RMG_LAYER_RIVER, b, size), RMG_OK);
    for (size_t t = 0; t < size; t++)
        assert_int_equal(b[t], 0);
    free(a);
    free(b);
    rmg_map_destroy(old);
    rmg_map_destroy(back);
    rmg_free(ctx, json);
    rmg_map_destroy(m);
    rmg_context_destroy(ctx);
}

/* ---- the game's maps read ------------------------------------------------------------------ */

static void test_real_maps_rivers_read(void **state)
{
    (void)state;
    const char *dir = rmg_test_need_shared("real-maps");
    char **files = rmg_test_list_files(dir, ".h3m");
    assert_non_null(files);
    size_t maps = 0, total = 0, by_type[5] = {0}, counts[64];
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t i = 0; files[i]; i++) {
        rmg_map *m = NULL;
        if (rmg_map_load_h3m(ctx, files[i], &m) != RMG_OK)
            fail_msg("%s: %s", files[i], rmg_context_errmsg(ctx));
        size_t n = 0;
        for (size_t t = 0; t < m->n_tiles; t++) {
            assert_true(m->river[t] <= RMG_RIVER_LAVA);
            by_type[m->river[t]]++;
            n += m->river[t] != 0;
        }
        assert_true(n > 0); /* every map of the game's generator has rivers */
        if (maps < 64)
            counts[maps] = n;
        maps++;
        total += n;
        rmg_map_destroy(m);
    }
    rmg_test_free_list(files);
    rmg_context_destroy(ctx);
    print_message("%zu maps, %zu river tiles (%zu clear, %zu icy, %zu muddy, %zu lava)\n", maps, total, by_type[1],
                  by_type[2], by_type[3], by_type[4]);
    /* As counted straight from the files' tile bytes (byte 2 not 0) when this test was written:
     * every map has rivers, clear and icy only. */
    assert_int_equal(maps, 35);
    assert_int_equal(total, 15555);
    assert_int_equal(by_type[RMG_RIVER_CLEAR], 12272);
    assert_int_equal(by_type[RMG_RIVER_ICY], 3283);
    qsort(counts, maps, sizeof *counts, cmp_size);
    assert_int_equal(counts[maps / 2], 480);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_river_type_of_terrain),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_jebus_rivers_like_the_game),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_real_maps_rivers_read),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus real-maps");
}
