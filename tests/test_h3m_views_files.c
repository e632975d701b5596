/*
 * .h3m tile views against the views stored in real maps (../shared/h3m): each sample read with
 * rmg__h3m_read, its views recomputed from its terrain, roads and rivers. A tile agrees when its
 * stored frame lies in the range of the pattern that fits and its mirror bits are the pattern's.
 * Each must agree at least as well as measured when these tests were written, less a small
 * margin; the coast bit must agree everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"
#include "map/map_views.h"

enum { GROUP_DIRT, GROUP_SAND, GROUP_NORMAL, GROUP_WATER, GROUP_ROCK, GROUP_HOTA, GROUP_COUNT };
static const char *const GROUP_NAMES[GROUP_COUNT] = {"dirt", "sand", "normal", "water", "rock", "hota"};

static int group_of(uint8_t terrain)
{
    switch (terrain) {
    case RMG_TERRAIN_DIRT: return GROUP_DIRT;
    case RMG_TERRAIN_SAND: return GROUP_SAND;
    case RMG_TERRAIN_WATER: return GROUP_WATER;
    case RMG_TERRAIN_ROCK: return GROUP_ROCK;
    case RMG_TERRAIN_HIGHLANDS:
    case RMG_TERRAIN_WASTELAND: return GROUP_HOTA;
    default: return GROUP_NORMAL;
    }
}

/* The agreement measured per group, roads and rivers, in percent; a test fails below that less
 * MARGIN. All 100 % but normal-map-v9's dirt and normal terrains: 2 and 1 tiles whose stored view
 * an editor left stale after repainting a tile two away. */
typedef struct sample {
    const char *file;
    double terrain[GROUP_COUNT];
    double roads, rivers;
} sample;

#define MARGIN 0.1
static sample samples[] = { /* not const: cmocka passes them as void * */
    {"random-SoD.h3m", {100, 100, 100, 100, 100, 100}, 100, 100},
    {"underground-rebellion.h3m", {100, 100, 100, 100, 100, 100}, 100, 100},
    {"value-test-v8.h3m", {100, 100, 100, 100, 100, 100}, 100, 100},
    {"normal-map-v9.h3m", {99.983, 100, 99.998, 100, 100, 100}, 100, 100},
};

/* The tile bytes (§13) split into layers. */
typedef struct tile_layers {
    int size, levels;
    size_t n;
    bool hota;
    uint8_t *bytes; /* 7 per tile, as stored */
    uint8_t *terrain, *road, *river;
} tile_layers;

static bool load_layers(rmg_context *ctx, const char *file, tile_layers *out)
{
    char rel[128];
    size_t len = 0;
    snprintf(rel, sizeof rel, "h3m/%s", file);
    const char *path = rmg_test_shared(rel);
    uint8_t *data = (uint8_t *)rmg_test_read_file(path, &len);
    if (!data) {
        static bool said;
        if (!said)
            print_message("skipped: the shared maps are missing (%s not found)\n", path);
        said = true;
        return false;
    }
    rmg__h3m_doc *doc = NULL;
    if (rmg__h3m_read(ctx, data, len, file, &doc) != RMG_OK)
        fail_msg("%s: %s", file, rmg_context_errmsg(ctx));
    free(data);
    out->size = (int)doc->basic.size;
    out->levels = doc->basic.two_levels ? 2 : 1;
    out->n = (size_t)out->size * (size_t)out->size * (size_t)out->levels;
    out->hota = doc->format == RMG__H3M_HOTA;
    assert_int_equal(rmg__h3m_tile_bytes(doc), out->n * 7);
    out->bytes = malloc(out->n * 7);
    out->terrain = malloc(out->n);
    out->road = malloc(out->n);
    out->river = malloc(out->n);
    assert_non_null(out->bytes);
    assert_non_null(out->terrain);
    assert_non_null(out->road);
    assert_non_null(out->river);
    memcpy(out->bytes, doc->tiles, out->n * 7);
    rmg__h3m_doc_free(doc);
    for (size_t t = 0; t < out->n; t++) {
        out->terrain[t] = out->bytes[7 * t];
        out->river[t] = out->bytes[7 * t + 2];
        out->road[t] = out->bytes[7 * t + 4];
    }
    return true;
}

static void free_layers(tile_layers *l)
{
    free(l->bytes);
    free(l->terrain);
    free(l->road);
    free(l->river);
}

static bool agrees(const rmg__map_view_range *r, uint8_t view, unsigned flip)
{
    return r->fits && view >= r->lo && view <= r->hi && flip == r->flip;
}

static void assert_agreement(const char *file, const char *what, size_t good, size_t total, double measured)
{
    if (!total)
        return;
    double percent = 100.0 * (double)good / (double)total;
    print_message("%s %-6s %7zu / %7zu  %.3f %%\n", file, what, good, total, percent);
    if (percent < measured - MARGIN)
        fail_msg("%s: %s views agree on %.3f %% of the tiles, below %.3f %% - %.1f", file, what, percent, measured,
                 MARGIN);
}

/* Terrain views per group, and the coast bit everywhere. */
static void check_terrain(const sample *s, const tile_layers *l)
{
    rmg__map_view_range *ranges = malloc(l->n * sizeof *ranges);
    uint8_t *view = malloc(l->n), *flags = calloc(l->n, 1);
    assert_non_null(ranges);
    assert_non_null(view);
    assert_non_null(flags);
    rmg__map_terrain_view_ranges(l->terrain, l->size, l->size, l->levels, l->hota, ranges);
    rmg__map_terrain_views(l->terrain, l->size, l->size, l->levels, l->hota, 1, view, flags);
    size_t good[GROUP_COUNT] = {0}, total[GROUP_COUNT] = {0}, coast_differs = 0;
    for (size_t t = 0; t < l->n; t++) {
        const uint8_t *tile = &l->bytes[7 * t];
        int g = group_of(tile[0]);
        total[g]++;
        good[g] += agrees(&ranges[t], tile[1], tile[6] & RMG__VIEW_FLAG_TERRAIN_FLIP);
        coast_differs += ((flags[t] ^ tile[6]) & RMG__VIEW_FLAG_COAST) != 0;
    }
    for (int g = 0; g < GROUP_COUNT; g++)
        assert_agreement(s->file, GROUP_NAMES[g], good[g], total[g], s->terrain[g]);
    assert_int_equal(coast_differs, 0);
    free(ranges);
    free(view);
    free(flags);
}

/* Road or river views where the tile has one. */
static void check_lines(const sample *s, const tile_layers *l, bool river)
{
    const uint8_t *type = river ? l->river : l->road;
    int view_byte = river ? 3 : 5, shift = river ? 2 : 4;
    size_t good = 0, total = 0;
    for (size_t t = 0; t < l->n; t++) {
        rmg__map_view_range r;
        if (!rmg__map_line_view_range(type, l->size, l->size, river, t, &r))
            continue;
        const uint8_t *tile = &l->bytes[7 * t];
        total++;
        good += agrees(&r, tile[view_byte], (tile[6] >> shift) & 3u);
    }
    assert_agreement(s->file, river ? "rivers" : "roads", good, total, river ? s->rivers : s->roads);
}

static void test_views_agree_with_the_file(void **state)
{
    const sample *s = *state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    tile_layers l = {0};   /* skip() returns by a jump the compiler does not see */
    if (!load_layers(ctx, s->file, &l)) {
        rmg_context_destroy(ctx);
        skip();
    }
    check_terrain(s, &l);
    check_lines(s, &l, false);
    check_lines(s, &l, true);
    /* a map made by the game or its editor leaves no tile without a frame */
    assert_int_equal(rmg__map_unfit_tiles(l.terrain, l.size, l.size, l.levels, NULL, 0), 0);
    free_layers(&l);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_views_agree_with_the_file, &samples[0]),
        cmocka_unit_test_prestate(test_views_agree_with_the_file, &samples[1]),
        cmocka_unit_test_prestate(test_views_agree_with_the_file, &samples[2]),
        cmocka_unit_test_prestate(test_views_agree_with_the_file, &samples[3]),
    };
    return RMG_TEST_MAIN_SHARED(tests, "h3m");
}
