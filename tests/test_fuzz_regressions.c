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
        cmocka_unit_test(test_mapjson_regressions),
        cmocka_unit_test(test_mapjson_movement_agrees),
        cmocka_unit_test(test_content_regressions),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_h3m_regressions),
    };
    return RMG_TEST_MAIN(plain, shared, "h3m");
}
