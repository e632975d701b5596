/*
 * The JSON export and the fingerprint (lib/map/map_json.c, docs/map-json.md, ABI.md): the
 * fingerprint is XXH3-64 of the canonical document (the export with a zero fingerprint), the
 * tile arrays hold the map's layers, strings are escaped, and a failing allocator gives
 * RMG_ERR_NOMEM without leaks. The writer streams into the hash through a fixed buffer, so these
 * tests compare it with a hash of the whole text computed the plain way (rmg__hash64).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_internal.h"
#include "rmg_test.h"


/* The fingerprint is XXH3-64 (seed 0) of the canonical text, and the export is that text with
 * the fingerprint's 16 hex digits in place of the zeros. */
static void check_fingerprint_definition(rmg_context *ctx, const rmg_map *map)
{
    char *canonical = NULL, *exported = NULL;
    size_t lc = 0, le = 0;
    assert_int_equal(rmg__map_json(map, false, &canonical, &lc), RMG_OK);
    assert_int_equal(rmg_map_to_json(map, &exported, &le), RMG_OK);
    assert_int_equal(strlen(canonical), lc);
    assert_true(rmg_map_fingerprint(map) == rmg__hash64(canonical, lc, 0));

    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)rmg_map_fingerprint(map));
    const char *member = "\"fingerprint\":\"";
    char *at = strstr(canonical, member);
    assert_non_null(at);
    assert_memory_equal(at + strlen(member), "0000000000000000", 16);
    memcpy(at + strlen(member), hex, 16);
    assert_int_equal(lc, le);
    assert_memory_equal(canonical, exported, lc);
    rmg_free(ctx, canonical);
    rmg_free(ctx, exported);
}

static void test_fingerprint_is_xxh3_of_the_canonical_json(void **state)
{
    (void)state;
    /* One level and two levels, two seeds: documents of about 60 KB to 1 MB, many times the
     * writer's buffer. */
    const struct {
        int side, levels;
        uint64_t seed;
    } cases[] = {{36, 1, 5}, {72, 2, 9}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rmg_context *ctx = rmg_test_context(NULL, cases[i].seed);
        rmg_map *map = rmg_test_generate(ctx, cases[i].side, cases[i].levels);
        check_fingerprint_definition(ctx, map);
        rmg_map_destroy(map);
        rmg_context_destroy(ctx);
    }
}

/* Reads the JSON array of non-negative integers that follows `"name":[` after `from`. */
static size_t read_array(const char *from, const char *name, unsigned *out, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":[", name);
    const char *p = strstr(from, key);
    assert_non_null(p);
    p += strlen(key);
    size_t n = 0;
    while (*p != ']') {
        char *end = NULL;
        unsigned long v = strtoul(p, &end, 10);
        assert_true(end > p);
        if (n < cap)
            out[n] = (unsigned)v;
        n++;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* The strings of the terrain_keys array (at most cap). */
static size_t read_terrain_keys(const char *json, char keys[][32], size_t cap)
{
    const char *p = strstr(json, "\"terrain_keys\":[");
    assert_non_null(p);
    p = strchr(p, '[') + 1;
    size_t n = 0;
    while (*p == '"' && n < cap) {
        const char *end = strchr(p + 1, '"');
        assert_non_null(end);
        assert_true(end - p - 1 < 32);
        snprintf(keys[n++], 32, "%.*s", (int)(end - p - 1), p + 1);
        p = end + 1;
        if (*p == ',')
            p++;
    }
    assert_int_equal(*p, ']');
    return n;
}

/* The tile arrays are the map's layers, tile by tile (terrain through terrain_keys). */
static void test_tile_arrays_are_the_layers(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 3);
    rmg_map *map = rmg_test_generate(ctx, 36, 2);
    char *json = NULL;
    assert_int_equal(rmg_map_to_json(map, &json, NULL), RMG_OK);
    int w = rmg_map_width(map), h = rmg_map_height(map), levels = rmg_map_levels(map);
    size_t n = (size_t)w * (size_t)h * (size_t)levels;
    unsigned *terrain = calloc(n, sizeof *terrain), *zone = calloc(n, sizeof *zone);
    unsigned *passable = calloc(n, sizeof *passable), *road = calloc(n, sizeof *road);
    char keys[16][32];
    size_t n_keys = read_terrain_keys(json, keys, 16);
    const char *tiles = strstr(json, "\"tiles\":{");
    assert_non_null(tiles);
    assert_int_equal(read_array(tiles, "terrain", terrain, n), n);
    assert_int_equal(read_array(tiles, "zone", zone, n), n);
    assert_int_equal(read_array(tiles, "passable", passable, n), n);
    assert_int_equal(read_array(tiles, "road", road, n), n);
    size_t t = 0;
    for (int z = 0; z < levels; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++, t++) {
                assert_true(terrain[t] < n_keys);
                assert_string_equal(keys[terrain[t]], rmg__terrain_key(rmg_map_terrain(map, x, y, z)));
                assert_int_equal(zone[t], rmg_map_tile_zone(map, x, y, z));
                assert_int_equal(passable[t], rmg_map_passable(map, x, y, z));
                assert_int_equal(road[t], rmg_map_road(map, x, y, z));
            }
    free(terrain);
    free(zone);
    free(passable);
    free(road);
    rmg_free(ctx, json);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

static char *escaped(rmg_context *ctx, const char *s, size_t *len)
{
    rmg__buf b;
    rmg__buf_init(&b, ctx);
    rmg__json_string(&b, s);
    char *out = NULL;
    assert_int_equal(rmg__buf_finish(&b, &out, len), RMG_OK);
    return out;
}

/* Quotes, backslashes and control characters are escaped; other bytes (UTF-8) stay. */
static void test_strings_are_escaped(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    char *out = escaped(ctx, "a\"b\\c\nd\re\tf\x01g\x1f\xc3\xa9", NULL);
    assert_string_equal(out, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001f\xc3\xa9\"");
    rmg_free(ctx, out);
    out = escaped(ctx, NULL, NULL);
    assert_string_equal(out, "\"\"");
    rmg_free(ctx, out);

    /* Longer than the writer's buffer, with escapes spread through it. */
    size_t n = 50000;
    char *s = malloc(n + 1), *want = malloc(2 * n + 3);
    size_t k = 0;
    want[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        s[i] = i % 997 == 5 ? '"' : (char)('a' + i % 26);
        if (s[i] == '"')
            want[k++] = '\\';
        want[k++] = s[i];
    }
    s[n] = 0;
    want[k++] = '"';
    want[k] = 0;
    size_t len = 0;
    out = escaped(ctx, s, &len);
    assert_int_equal(len, k);
    assert_string_equal(out, want);
    rmg_free(ctx, out);
    free(s);
    free(want);
    rmg_context_destroy(ctx);
}

/* Every failing allocation of rmg_map_to_json gives RMG_ERR_NOMEM and leaks nothing; the
 * fingerprint needs no allocation at all. */
static void test_export_allocator_failures(void **state)
{
    (void)state;
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 4);
    rmg_map *map = rmg_test_generate(ctx, 36, 1);
    size_t before_blocks = ta.live_blocks, before_calls = ta.calls;
    uint64_t fp = 0;
    assert_int_equal(rmg__map_fingerprint(map, &fp), RMG_OK);
    assert_int_equal(ta.calls, before_calls);
    assert_true(fp == rmg_map_fingerprint(map));
    /* The k-th allocation of the export fails, for k = 1, 2, ... until one run needs fewer. */
    size_t k = 1;
    for (;; k++) {
        ta.failures = 0;
        ta.fail_at = ta.calls + k;
        char *json = NULL;
        rmg_status st = rmg_map_to_json(map, &json, NULL);
        if (ta.failures == 0) {
            assert_int_equal(st, RMG_OK);
            rmg_free(ctx, json);
            break;
        }
        assert_int_equal(st, RMG_ERR_NOMEM);
        assert_null(json);
        assert_int_equal(ta.live_blocks, before_blocks);
    }
    ta.fail_at = 0;
    assert_true(k > 1);
    assert_int_equal(ta.live_blocks, before_blocks);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fingerprint_is_xxh3_of_the_canonical_json),
        cmocka_unit_test(test_tile_arrays_are_the_layers),
        cmocka_unit_test(test_strings_are_escaped),
        cmocka_unit_test(test_export_allocator_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
