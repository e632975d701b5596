/*
 * Fuzz regressions (issue 12): every input under tests/fuzz/regressions/<harness>/ (crashes,
 * hangs and leaks the fuzzers found, kept after the fix) is replayed through the same target
 * code as the libFuzzer harness (tests/fuzz/fuzz_targets.h), under the test build's ASan and
 * UBSan. The built-in templates and a few corpus files go through every target too, so the
 * replay runs even while a harness has no regression yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "../tests/fuzz/fuzz_targets.h"

typedef int (*fuzz_target)(const uint8_t *data, size_t size);

/* A hang is a failure too: each input must finish within this much CPU time (the sanitizer
 * build; libFuzzer's own limit in scripts/fuzz.sh is 20 s of wall time). */
#define REPLAY_LIMIT_MS 5000.0

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static size_t replay_dir(const char *dir, fuzz_target target)
{
    char **files = rmg_test_list_files(dir, "");
    if (!files)
        return 0;
    size_t n = 0;
    for (size_t i = 0; files[i]; i++) {
        size_t len = 0;
        char *data = rmg_test_read_file(files[i], &len);
        assert_non_null(data);
        double t0 = cpu_ms();
        target((const uint8_t *)data, len);
        double spent = cpu_ms() - t0;
        free(data);
        if (spent > REPLAY_LIMIT_MS)
            fail_msg("%s took %.0f ms of CPU (limit %.0f)", files[i], spent, REPLAY_LIMIT_MS);
        n++;
    }
    rmg_test_free_list(files);
    return n;
}

static size_t replay_harness(const char *harness, fuzz_target target)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/fuzz/regressions/%s", harness);
    size_t n = replay_dir(rmg_test_source(rel), target);
    n += replay_dir(rmg_test_source("templates"), target);
    printf("fuzz regressions: %s: %zu inputs replayed\n", harness, n);
    return n;
}

static void test_yaml_regressions(void **state)
{
    (void)state;
    assert_true(replay_harness("yaml", rmg_fuzz_yaml) > 0);
}

static void test_h3t_regressions(void **state)
{
    (void)state;
    assert_true(replay_harness("h3t", rmg_fuzz_h3t) > 0);
}

static void test_vcmi_regressions(void **state)
{
    (void)state;
    assert_true(replay_harness("vcmi", rmg_fuzz_vcmi) > 0);
}

/* The h3m harness also replays the shared real maps (those below the fuzzer's input limit). */
static void test_h3m_regressions(void **state)
{
    (void)state;
    size_t n = replay_harness("h3m", rmg_fuzz_h3m);
    size_t maps = replay_dir(rmg_test_shared("h3m"), rmg_fuzz_h3m);
    printf("fuzz regressions: h3m: %zu files of the shared h3m folder replayed\n", maps);
    assert_true(n > 0);
}

static void test_generate_regressions(void **state)
{
    (void)state;
    assert_true(replay_harness("generate", rmg_fuzz_generate) > 0);
}

/* The generate target's option header (scripts/fuzz.sh seeds every template with it): water and
 * the underground are reachable from the input, and an input without it keeps the old options. */
static void test_generate_options_come_from_the_input(void **state)
{
    (void)state;
    static const struct {
        uint8_t water, levels;
        rmg_water_level want_water;
        int want_levels;
    } cases[] = {
        {0, 0, RMG_WATER_NONE, 1},    {1, 0, RMG_WATER_NORMAL, 1}, {2, 1, RMG_WATER_ISLANDS, 2},
        {0, 1, RMG_WATER_NONE, 2},    {4, 3, RMG_WATER_NORMAL, 2}, {255, 254, RMG_WATER_NONE, 1},
    };
    size_t yaml_len = 0;
    char *yaml = rmg_test_read_file(rmg_test_source("templates/default.yaml"), &yaml_len);
    assert_non_null(yaml);
    uint8_t *input = malloc(yaml_len + RMG_FUZZ_OPTIONS_HEADER);
    assert_non_null(input);
    memcpy(input, RMG_FUZZ_OPTIONS_MAGIC, 4);
    memcpy(input + RMG_FUZZ_OPTIONS_HEADER, yaml, yaml_len);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        input[4] = cases[i].water;
        input[5] = cases[i].levels;
        const uint8_t *data = input;
        size_t size = yaml_len + RMG_FUZZ_OPTIONS_HEADER;
        rmg_generate_options go;
        rmg_fuzz_options(&data, &size, &go);
        assert_int_equal(go.water, cases[i].want_water);
        assert_int_equal(go.levels, cases[i].want_levels);
        assert_int_equal(go.width, 36);
        assert_ptr_equal(data, input + RMG_FUZZ_OPTIONS_HEADER);
        assert_int_equal(size, yaml_len);
        rmg_fuzz_generate(input, yaml_len + RMG_FUZZ_OPTIONS_HEADER);
    }
    /* What the target generates with a header asking for water on two levels has both. */
    input[4] = 1;
    input[5] = 1;
    const uint8_t *data = input;
    size_t size = yaml_len + RMG_FUZZ_OPTIONS_HEADER;
    rmg_generate_options go;
    rmg_fuzz_options(&data, &size, &go);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, (const char *)data, size, "fuzz", RMG_FORMAT_AUTO, &pack), RMG_OK);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_OK);
    assert_int_equal(rmg_map_levels(map), 2);
    size_t water = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 36; y++)
            for (int x = 0; x < 36; x++)
                water += rmg_map_terrain(map, x, y, z) == RMG_TERRAIN_WATER;
    assert_true(water > 0);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    /* Without the header: the template as it is, no water, one level. */
    data = (const uint8_t *)yaml;
    size = yaml_len;
    rmg_fuzz_options(&data, &size, &go);
    assert_int_equal(go.water, RMG_WATER_NONE);
    assert_int_equal(go.levels, 1);
    assert_ptr_equal(data, (const uint8_t *)yaml);
    free(input);
    free(yaml);
}

/* The mirror template whose seas crashed the validator (issue 28) through the generate target
 * at every water level, on one level and two. */
static void test_generate_mirror_templates_with_water(void **state)
{
    (void)state;
    const char *path = rmg_test_need_shared("corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__mt_Jebus.h3t");
    size_t len = 0;
    char *h3t = rmg_test_read_file(path, &len);
    assert_non_null(h3t);
    uint8_t *input = malloc(len + RMG_FUZZ_OPTIONS_HEADER);
    assert_non_null(input);
    memcpy(input, RMG_FUZZ_OPTIONS_MAGIC, 4);
    memcpy(input + RMG_FUZZ_OPTIONS_HEADER, h3t, len);
    for (uint8_t water = 0; water < 3; water++)
        for (uint8_t levels = 0; levels < 2; levels++) {
            input[4] = water;
            input[5] = levels;
            double t0 = cpu_ms();
            rmg_fuzz_generate(input, len + RMG_FUZZ_OPTIONS_HEADER);
            assert_true(cpu_ms() - t0 < REPLAY_LIMIT_MS);
        }
    free(input);
    free(h3t);
}

/* Besides the kept inputs, a generated map's document and cuts of it (every length a map
 * document is cut at while being written or copied) go through the map document target. */
static void test_mapjson_regressions(void **state)
{
    (void)state;
    assert_true(replay_harness("mapjson", rmg_fuzz_map_json) > 0);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *m = rmg_test_generate(ctx, 36, 1);
    char *doc = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_json(m, &doc, &len), RMG_OK);
    for (size_t cut = 0; cut <= 16; cut++)
        rmg_fuzz_map_json((const uint8_t *)doc, len * cut / 16);
    rmg_free(ctx, doc);
    rmg_map_destroy(m);
    rmg_context_destroy(ctx);
}

/* The map document target asks whether validation and the balance report agree on the heroes'
 * movement (issue 28); the documents of generated maps with seas and boats, gates and teleports
 * go through it, and the check's answer is asserted here too. */
static void test_mapjson_movement_agrees(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t checked = 0;
    for (int water = RMG_WATER_NONE; water <= RMG_WATER_ISLANDS; water++)
        for (int levels = 1; levels <= 2; levels++) {
            rmg_generate_options o;
            rmg_generate_options_init(&o);
            o.width = o.height = 36;
            o.levels = levels;
            o.water = (rmg_water_level)water;
            rmg_map *m = NULL;
            if (rmg_generate(ctx, NULL, &o, &m) != RMG_OK)
                continue;
            const char *why = rmg_fuzz_movement_disagrees(m, ctx);
            if (why)
                fail_msg("water %d, %d levels: %s", water, levels, why);
            char *doc = NULL;
            size_t len = 0;
            assert_int_equal(rmg_map_to_json(m, &doc, &len), RMG_OK);
            rmg_fuzz_map_json((const uint8_t *)doc, len);
            rmg_free(ctx, doc);
            rmg_map_destroy(m);
            checked++;
        }
    assert_true(checked >= 4);
    rmg_context_destroy(ctx);
}

static void test_content_regressions(void **state)
{
    (void)state;
    size_t n = replay_harness("content", rmg_fuzz_content);
    n += replay_dir(rmg_test_source("content"), rmg_fuzz_content);
    assert_true(n > 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_yaml_regressions),
        cmocka_unit_test(test_h3t_regressions),
        cmocka_unit_test(test_vcmi_regressions),
        cmocka_unit_test(test_generate_regressions),
        cmocka_unit_test(test_generate_options_come_from_the_input),
        cmocka_unit_test(test_mapjson_regressions),
        cmocka_unit_test(test_mapjson_movement_agrees),
        cmocka_unit_test(test_content_regressions),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_h3m_regressions),
        cmocka_unit_test(test_generate_mirror_templates_with_water),
    };
    return RMG_TEST_MAIN(plain, shared, "h3m corpus");
}
