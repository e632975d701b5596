/*
 * Terrain views of written .h3m files (issue 32; h3m-format.md §13.1 with its three
 * refinements): a tile whose 3 x 3 neighbourhood no pattern fits has no correct frame (a lone
 * tile, a one-tile peninsula, water or rock one tile thin ...), and the game draws it wrong. The
 * checker reads the file's tile bytes with the project's reader and counts such tiles
 * (rmg__map_unfit_tiles, the SoD pattern set):
 *  - the game's own random maps (../shared/real-maps) have none;
 *  - neither have librmg's maps of the corpus's SoD templates written for SoD: the first
 *    template of a sample of the files (every template of every file with RMG_TEST_CORPUS=full:
 *    1207 maps), at the size and levels the template chooses and with the underground forced
 *    where it allows two levels, with no water, normal water and islands.
 * RMG_VIEWS_VERBOSE=1 prints every map's count and its first unfit tiles.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"
#include "map/map_views.h"

#define SHOW 4

static bool verbose(void)
{
    const char *v = getenv("RMG_VIEWS_VERBOSE");
    return v && *v && strcmp(v, "0");
}

/* What is wrong in a written map's tiles. */
typedef struct tile_faults {
    size_t unfit;      /* tiles no terrain pattern fits */
    size_t lines;      /* road and river tiles whose stored frame or mirror the rule does not give */
    size_t line_tiles; /* road and river tiles checked */
    size_t sand_below; /* sand tiles underground (ZON-14: the underground has none) */
} tile_faults;

/* Road (river) tiles whose stored frame and mirror are not the ones their 4 neighbours give
 * (h3m-format.md §13.2): byte 5 (3) the frame, bits 4-5 (2-3) of byte 6 the mirror. */
static size_t wrong_line_views(const uint8_t *bytes, const uint8_t *type, int size, size_t n, bool river,
                               size_t *checked)
{
    size_t bad = 0;
    for (size_t t = 0; t < n; t++) {
        rmg__map_view_range r;
        if (!rmg__map_line_view_range(type, size, size, river, t, &r))
            continue;
        const uint8_t *tile = &bytes[7 * t];
        unsigned flip = (tile[6] >> (river ? 2 : 4)) & 3u;
        ++*checked;
        bad += !(r.fits && tile[river ? 3 : 5] >= r.lo && tile[river ? 3 : 5] <= r.hi && flip == r.flip);
    }
    return bad;
}

/* The faults of an .h3m file's bytes; prints up to SHOW unfit tiles under `what` when verbose
 * or when there are any faults. */
static tile_faults faults_of_file(rmg_context *ctx, const uint8_t *data, size_t len, const char *what)
{
    rmg__h3m_doc *doc = NULL;
    if (rmg__h3m_read(ctx, data, len, what, &doc) != RMG_OK)
        fail_msg("%s: %s", what, rmg_context_errmsg(ctx));
    int size = (int)doc->basic.size, levels = doc->basic.two_levels ? 2 : 1;
    size_t n = (size_t)size * (size_t)size * (size_t)levels, plane = (size_t)size * (size_t)size;
    assert_int_equal(rmg__h3m_tile_bytes(doc), n * 7);
    uint8_t *layer = malloc(3 * n);
    assert_non_null(layer);
    uint8_t *terrain = layer, *river = layer + n, *road = layer + 2 * n;
    tile_faults f = {0};
    for (size_t t = 0; t < n; t++) {
        terrain[t] = doc->tiles[7 * t];
        river[t] = doc->tiles[7 * t + 2];
        road[t] = doc->tiles[7 * t + 4];
        f.sand_below += t >= plane && terrain[t] == RMG_TERRAIN_SAND;
    }
    uint32_t first[SHOW];
    f.unfit = rmg__map_unfit_tiles(terrain, size, size, levels, first, SHOW);
    f.lines = wrong_line_views(doc->tiles, road, size, n, false, &f.line_tiles) +
              wrong_line_views(doc->tiles, river, size, n, true, &f.line_tiles);
    if (f.unfit || f.lines || f.sand_below || verbose()) {
        print_message("%-70s %zu unfit, %zu of %zu road/river views wrong, %zu sand underground\n", what, f.unfit,
                      f.lines, f.line_tiles, f.sand_below);
        for (size_t i = 0; i < f.unfit && i < SHOW; i++) {
            size_t rest = first[i] % plane;
            print_message("  %zu,%zu,%zu (terrain %u)\n", rest % (size_t)size, rest / (size_t)size,
                          (size_t)first[i] / plane, terrain[first[i]]);
        }
    }
    free(layer);
    rmg__h3m_doc_free(doc);
    return f;
}

static void test_the_games_maps_have_no_unfit_tile(void **state)
{
    (void)state;
    const char *dir = rmg_test_shared("real-maps");
    DIR *d = opendir(dir);
    if (!d) {
        print_message("SKIPPED: the game's maps are missing (%s not found)\n", dir);
        skip();
    }
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t maps = 0;
    tile_faults all = {0};
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".h3m"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *data = (uint8_t *)rmg_test_read_file(path, &len);
        assert_non_null(data);
        tile_faults f = faults_of_file(ctx, data, len, e->d_name);
        all.unfit += f.unfit, all.lines += f.lines, all.line_tiles += f.line_tiles;
        free(data);
        maps++;
    }
    closedir(d);
    rmg_context_destroy(ctx);
    print_message("the game's maps: %zu, unfit tiles %zu, road/river views not the rule's %zu of %zu\n", maps,
                  all.unfit, all.lines, all.line_tiles);
    assert_true(maps > 0);
    assert_int_equal(all.unfit, 0);
    assert_int_equal(all.lines, 0);
}

typedef struct views_tally {
    size_t maps, failed, bad_maps;
    tile_faults all;
} views_tally;

/* One template at one setup: generated for SoD, written, read back, checked. */
static void check_one(rmg_context *ctx, const rmg_pack *pack, const char *name, const char *file, int levels,
                      rmg_water_level water, views_tally *tally)
{
    rmg_map *map = NULL;
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.template_name = name, go.levels = levels, go.water = water;
    if (rmg_generate(ctx, pack, &go, &map) != RMG_OK) {
        tally->failed++; /* a setup the template refuses, or a failed generation: test_corpus_generate's */
        if (verbose())
            print_message("not generated: %s '%s' levels %d water %d: %s\n", file, name, levels, (int)water,
                          rmg_context_errmsg(ctx));
        return;
    }
    rmg_h3m_options ho;
    rmg_h3m_options_init(&ho);
    ho.edition = RMG_H3M_SOD;
    unsigned char *bytes = NULL;
    size_t len = 0;
    rmg_status st = rmg_map_to_h3m(map, &ho, &bytes, &len);
    rmg_map_destroy(map);
    if (st == RMG_ERR_UNSUPPORTED) { /* a size SoD cannot hold */
        tally->failed++;
        return;
    }
    assert_int_equal(st, RMG_OK);
    char what[256];
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(what, sizeof what, "%.120s '%.60s' levels %d water %d", base, name, levels, (int)water);
    tile_faults f = faults_of_file(ctx, bytes, len, what);
    rmg_free(ctx, bytes);
    tally->maps++;
    tally->bad_maps += f.unfit || f.lines || f.sand_below;
    tally->all.unfit += f.unfit, tally->all.lines += f.lines, tally->all.line_tiles += f.line_tiles;
    tally->all.sand_below += f.sand_below;
}

static void check_file(const char *file, views_tally *tally)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
    rmg_pack *pack = NULL;
    if (rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack) == RMG_OK) {
        size_t n = rmg_test_corpus_full() ? rmg_pack_template_count(pack) : 1; /* else the first */
        for (size_t i = 0; i < n; i++) {
            rmg_template_info ti;
            rmg_template_info_init(&ti);
            assert_int_equal(rmg_template_get(pack, i, &ti), RMG_OK);
            static const rmg_water_level waters[] = {RMG_WATER_NONE, RMG_WATER_NORMAL, RMG_WATER_ISLANDS};
            for (size_t w = 0; w < sizeof waters / sizeof *waters; w++) {
                check_one(ctx, pack, ti.name, file, 0, waters[w], tally);
                check_one(ctx, pack, ti.name, file, 2, waters[w], tally);
            }
        }
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

static void test_sod_corpus_maps_have_no_unfit_tile(void **state)
{
    (void)state;
    char **files = rmg_test_corpus_files("corpus/sod", "");
    assert_non_null(files);
    views_tally tally = {0};
    for (size_t i = 0; files[i]; i++)
        check_file(files[i], &tally);
    rmg_test_free_list(files);
    print_message("SoD corpus maps: %zu written (%zu setups refused or failed), %zu with unfit tiles, %zu unfit "
                  "tiles\n",
                  tally.maps, tally.failed, tally.bad_maps, tally.all.unfit);
    print_message("road/river views not the rule's: %zu of %zu; sand tiles underground: %zu\n", tally.all.lines,
                  tally.all.line_tiles, tally.all.sand_below);
    assert_true(tally.maps > 0);
    assert_int_equal(tally.all.unfit, 0);
    assert_int_equal(tally.all.lines, 0);
    assert_int_equal(tally.all.sand_below, 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_games_maps_have_no_unfit_tile),
        cmocka_unit_test(test_sod_corpus_maps_have_no_unfit_tile),
    };
    return RMG_TEST_MAIN_SHARED(tests, "corpus");
}
