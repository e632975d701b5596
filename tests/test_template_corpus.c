/* Corpus round trip (issue 4 acceptance): every template file in ../shared/corpus/{h3t,sod,vcmi}
 * loads, saves to YAML and reloads to an equal model; writing the reloaded model gives the same
 * text. Formats whose importer is not in this build (RMG_ERR_UNSUPPORTED) are skipped and
 * counted. Files that fail to load are listed with the importer's message (the importer tests
 * explain each broken file); only the header-only h3t sources are expected among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "template/model.h"

typedef struct tally {
    size_t files, round_trips, unsupported, unreadable, templates, zones, errors, warnings;
} tally;

/* rmg check on the file: counts, and the first error of files that do not pass, so the test
 * log explains every file that fails the check. */
static void validate_counts(rmg_pack *p, tally *t)
{
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    size_t errors = rmg_validation_error_count(v);
    t->errors += errors;
    t->warnings += rmg_validation_count(v) - errors;
    for (size_t i = 0; i < rmg_validation_count(v) && errors; i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
        assert_int_equal(rmg_validation_get(v, i, &m), RMG_OK);
        if (m.severity == RMG_SEVERITY_ERROR) {
            print_message("check fails (%zu error(s)), first: %s [%s]\n", errors, m.text, m.code);
            break;
        }
    }
    rmg_validation_destroy(v);
}

static void round_trip_file(rmg_context *ctx, const char *path, tally *t)
{
    t->files++;
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load(ctx, path, RMG_FORMAT_AUTO, &p);
    if (st == RMG_ERR_UNSUPPORTED) {
        t->unsupported++;
        return;
    }
    if (st != RMG_OK) {
        /* Only data errors are acceptable answers to a broken file; never a crash or NOMEM. */
        assert_true(st == RMG_ERR_PARSE || st == RMG_ERR_INVALID_DATA || st == RMG_ERR_LIMIT);
        print_message("not loadable: %s\n", rmg_context_errmsg(ctx));
        t->unreadable++;
        return;
    }
    t->templates += p->n_templates;
    for (size_t i = 0; i < p->n_templates; i++)
        t->zones += p->templates[i].n_zones;
    validate_counts(p, t);
    char *text = NULL;
    size_t len = 0;
    if (rmg_pack_to_yaml(p, &text, &len) != RMG_OK)
        fail_msg("%s: cannot write YAML: %s", path, rmg_context_errmsg(ctx));
    rmg_pack *q = NULL;
    if (rmg_pack_load_string(ctx, text, len, path, RMG_FORMAT_YAML, &q) != RMG_OK)
        fail_msg("%s: cannot re-read its YAML: %s", path, rmg_context_errmsg(ctx));
    char why[512];
    if (!rmg__pack_equal(p, q, why, sizeof why))
        fail_msg("%s: YAML round trip differs at %s", path, why);
    char *again = NULL;
    assert_int_equal(rmg_pack_to_yaml(q, &again, NULL), RMG_OK);
    if (strcmp(text, again) != 0)
        fail_msg("%s: writing the re-read pack gives different text", path);
    t->round_trips++;
    rmg_free(ctx, again);
    rmg_free(ctx, text);
    rmg_pack_destroy(q);
    rmg_pack_destroy(p);
}

static tally run_folder(const char *folder, const char *suffixes)
{
    tally t = {0};
    char **files = rmg_test_corpus_files(folder, suffixes);
    assert_non_null(files);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    clock_t start = clock();
    for (size_t i = 0; files[i]; i++)
        round_trip_file(ctx, files[i], &t);
    double ms = 1000.0 * (double)(clock() - start) / CLOCKS_PER_SEC;
    print_message("%s: %zu files, %zu round trips (%zu templates, %zu zones), %zu unsupported, %zu not loadable; "
                  "check: %zu errors, %zu warnings; %.0f ms\n",
                  folder, t.files, t.round_trips, t.templates, t.zones, t.unsupported, t.unreadable, t.errors,
                  t.warnings, ms);
    rmg_context_destroy(ctx);
    rmg_test_free_list(files);
    return t;
}

static void test_h3t_corpus_round_trips(void **state)
{
    (void)state;
    tally t = run_folder("corpus/h3t", "");
    assert_true(t.files >= rmg_test_corpus_expect(100));
    if (t.unsupported == t.files)
        skip();
    /* Only the two header-only sources (no template rows) cannot be loaded. */
    assert_true(t.unreadable <= 2);
    assert_int_equal(t.round_trips + t.unreadable, t.files);
}

static void test_sod_corpus_round_trips(void **state)
{
    (void)state;
    tally t = run_folder("corpus/sod", "");
    assert_true(t.files >= rmg_test_corpus_expect(40));
    if (t.unsupported == t.files)
        skip();
    assert_int_equal(t.round_trips, t.files);
}

static void test_vcmi_corpus_round_trips(void **state)
{
    (void)state;
    tally t = run_folder("corpus/vcmi", ".json");
    assert_true(t.files >= 1);
    if (t.unsupported == t.files)
        skip();
    assert_int_equal(t.round_trips, t.files);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h3t_corpus_round_trips),
        cmocka_unit_test(test_sod_corpus_round_trips),
        cmocka_unit_test(test_vcmi_corpus_round_trips),
    };
    return RMG_TEST_MAIN_SHARED(tests, "corpus");
}
