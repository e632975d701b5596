/*
 * Corpus run (issue 12): every template file of ../shared/corpus/{h3t,sod,vcmi} that loads is
 * generated at a size its template supports, and every map that comes out is validated
 * (rmg_map_validate). Prints the success rate and time, and one line per failure: file,
 * template, size, seed and the driver's message (which names stage, zone and rule).
 *
 * CI cost is bounded: by default the first template of every 8th file, seed 1. More with
 *   RMG_CORPUS_SEEDS=N        seeds 1..N per template
 *   RMG_CORPUS_TEMPLATES=all  every template of every file (else the first one)
 *   RMG_CORPUS_STRIDE=K       only every K-th file (default 8; 1 = all)
 *   RMG_CORPUS_MATCH=TEXT     only files whose path contains TEXT
 *
 * Asserted: no produced map has a violation, and at least RMG_CORPUS_MIN_RATE percent
 * (default 70) of generations succeed; every failure is listed so it can be fixed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "driver/driver_internal.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static long env_long(const char *name, long fallback)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : fallback;
}

typedef struct corpus_tally {
    size_t files, unloadable, runs, ok, violations;
    double ms;
} corpus_tally;

static void generate_one(rmg_context *ctx, const rmg_pack *pack, size_t t, uint64_t seed, const char *file,
                         corpus_tally *tally)
{
    rmg_template_info ti;
    rmg_template_info_init(&ti);
    assert_int_equal(rmg_template_get(pack, t, &ti), RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.template_name = ti.name;
    rmg_context_set_seed(ctx, seed);
    rmg_map *map = NULL;
    double t0 = now_ms();
    rmg_status st = rmg_generate(ctx, pack, &go, &map);
    tally->ms += now_ms() - t0;
    tally->runs++;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (st != RMG_OK) {
        printf("FAIL %s | template '%s' | seed %llu | %s: %s\n", base, ti.name ? ti.name : "",
               (unsigned long long)seed, rmg_status_name(st), rmg_context_errmsg(ctx));
        return;
    }
    size_t count = 0;
    char *report = NULL;
    assert_int_equal(rmg_map_validate(map, &report, &count), RMG_OK);
    if (count) {
        printf("INVALID %s | template '%s' | %dx%dx%d | seed %llu | %zu violation(s):\n%s", base, ti.name,
               rmg_map_width(map), rmg_map_height(map), rmg_map_levels(map), (unsigned long long)seed, count,
               report);
        tally->violations++;
    } else {
        tally->ok++;
    }
    rmg_free(ctx, report);
    rmg_map_destroy(map);
}

static void run_file(const char *file, long seeds, bool all_templates, corpus_tally *tally)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    tally->files++;
    if (rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack) != RMG_OK || rmg_pack_template_count(pack) == 0) {
        tally->unloadable++; /* explained by test_template_corpus */
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
        return;
    }
    size_t n = all_templates ? rmg_pack_template_count(pack) : 1;
    for (size_t t = 0; t < n; t++)
        for (long s = 1; s <= seeds; s++)
            generate_one(ctx, pack, t, (uint64_t)s, file, tally);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

static void test_corpus_generates_valid_maps(void **state)
{
    (void)state;
    static const char *const dirs[] = {"corpus/h3t", "corpus/sod", "corpus/vcmi"};
    long seeds = env_long("RMG_CORPUS_SEEDS", 1), stride = env_long("RMG_CORPUS_STRIDE", 8);
    long min_rate = env_long("RMG_CORPUS_MIN_RATE", 70);
    const char *which = getenv("RMG_CORPUS_TEMPLATES"), *match = getenv("RMG_CORPUS_MATCH");
    bool all = which && strcmp(which, "all") == 0;
    corpus_tally tally = {0};
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char **files = rmg_test_corpus_files(dirs[d], "");
        assert_non_null(files);
        for (long i = 0; files[i]; i++)
            if ((stride <= 1 || i % stride == 0) && (!match || strstr(files[i], match)))
                run_file(files[i], seeds, all, &tally);
        rmg_test_free_list(files);
    }
    double rate = tally.runs ? 100.0 * (double)tally.ok / (double)tally.runs : 0.0;
    printf("corpus: %zu files (%zu not loadable), %zu generations, %zu ok (%.1f%%), %zu with violations, "
           "%.0f ms total, %.0f ms per map\n",
           tally.files, tally.unloadable, tally.runs, tally.ok, rate, tally.violations, tally.ms,
           tally.runs ? tally.ms / (double)tally.runs : 0.0);
    assert_true(tally.runs > 0);
    assert_int_equal(tally.violations, 0);
    assert_true(rate >= (double)min_rate);
}

typedef struct setup_tally {
    size_t templates, refused, unusable;
} setup_tally;

/* Every template of a file, with nothing asked: the setup the driver resolves for it is one
 * its own fit check accepts (mirror packs included: a mt_Kubaryt refused its resolved 108x108
 * once), unless no setup can fit the template (no zones; more humans than players), which the
 * reason says. */
static void set_up_file(const char *file, setup_tally *tally)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    if (rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack) == RMG_OK) {
        for (size_t i = 0; i < pack->n_templates; i++) {
            const rmg__template *t = &pack->templates[i];
            rmg_generate_options asked, o;
            rmg_generate_options_init(&asked);
            char why[200] = "";
            tally->templates++;
            if (rmg__select_setup(pack, t, &asked, &o, why, sizeof why))
                continue;
            printf("refused: %s | '%s' | %dx%dx%d, %d players, %d human: %s\n", file, t->name ? t->name : "",
                   o.width, o.height, o.levels, o.players, o.humans, why);
            bool unusable = t->n_zones == 0 || (t->players.max_total > 0 && t->players.min_human > t->players.max_total);
            tally->unusable += unusable;
            tally->refused += !unusable;
            assert_true(unusable ? strstr(why, "no zones") || strstr(why, "no setup fits") : why[0] != '\0');
        }
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

static void test_driver_setup_fits_every_corpus_template(void **state)
{
    (void)state;
    static const char *const dirs[] = {"corpus/h3t", "corpus/sod", "corpus/vcmi"};
    setup_tally tally = {0};
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char **files = rmg_test_corpus_files(dirs[d], "");
        assert_non_null(files);
        for (long i = 0; files[i]; i++)
            set_up_file(files[i], &tally);
        rmg_test_free_list(files);
    }
    printf("driver setup: %zu templates, %zu refused, %zu no setup can fit\n", tally.templates, tally.refused,
           tally.unusable);
    assert_true(tally.templates > rmg_test_corpus_expect(500));
    assert_int_equal(tally.refused, 0);
}

/* A template that no setup fits (worldsAtWar.json: humans "3", players "2") fails at select
 * with that reason; a template name the pack lacks is named as missing. */
static void test_select_refusals_give_the_reason(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load(ctx, rmg_test_shared("corpus/vcmi/heroes3/worldsAtWar.json"), RMG_FORMAT_AUTO,
                                   &pack),
                     RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_IMPOSSIBLE);
    printf("%s\n", rmg_context_errmsg(ctx));
    assert_non_null(strstr(rmg_context_errmsg(ctx), "at least 3 human players but allows at most 2 players"));
    go.template_name = "Worlds at War";
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_NOT_FOUND);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "at least 3 human players"));
    go.template_name = "No Such Template";
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_NOT_FOUND);
    printf("%s\n", rmg_context_errmsg(ctx));
    assert_non_null(strstr(rmg_context_errmsg(ctx), "has no template named 'No Such Template'"));
    assert_null(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_setup_fits_every_corpus_template),
        cmocka_unit_test(test_select_refusals_give_the_reason),
        cmocka_unit_test(test_corpus_generates_valid_maps),
    };
    return RMG_TEST_MAIN_SHARED(tests, "corpus");
}
