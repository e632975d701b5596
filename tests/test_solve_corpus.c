/* Solve stage on real data: the built-in content and every template of the shared corpus
 * (HotA h3t and SoD rmg.txt): each solves without error, within the budget, fast. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "rmg/solve.h"
#include "template/importers.h"
#include "template/model.h"

/* CPU time: the machine is shared, wall time would measure the neighbours. */
static double now_ms(void)
{
    return (double)clock() * 1000.0 / CLOCKS_PER_SEC;
}

typedef struct corpus_totals {
    size_t packs, rejected, templates, with_warnings, rule_errors, violated, exhausted;
    uint64_t most_nodes;
    double worst_ms;
    char worst[512];
} corpus_totals;

static void solve_pack(rmg_context *ctx, rmg_pack *pack, int players, corpus_totals *t, const char *path)
{
    size_t count = rmg_pack_template_count(pack);
    rmg_solve_options o;
    rmg_solve_options_init(&o);
    o.players = players;
    for (size_t i = 0; i < count; i++) {
        rmg_solve_result *r = NULL;
        double t0 = now_ms();
        rmg_status st = rmg_solve(ctx, pack, i, &o, &r);
        double ms = now_ms() - t0;
        if (st != RMG_OK)
            fail_msg("template %zu: %s", i, rmg_context_errmsg(ctx));
        rmg_solve_stats s;
        memset(&s, 0, sizeof s);
        s.struct_size = sizeof s;
        assert_int_equal(rmg_solve_get_stats(r, &s), RMG_OK);
        assert_true(s.nodes_used <= s.node_budget);
        t->templates++;
        t->with_warnings += rmg_solve_warning_count(r) > 0;
        if (getenv("RMG_SOLVE_SHOW_WARNINGS"))
            for (size_t w = 0; w < rmg_solve_warning_count(r); w++)
                printf("    %s: template %zu: %s\n", rmg_pack_template_count(pack) ? "pack" : "", i, rmg_solve_warning(r, w));
        t->rule_errors += s.rule_errors;
        t->violated += s.rules_violated;
        t->exhausted += (size_t)s.budget_exhausted;
        t->most_nodes = s.nodes_used > t->most_nodes ? s.nodes_used : t->most_nodes;
        if (ms > t->worst_ms) {
            t->worst_ms = ms;
            snprintf(t->worst, sizeof t->worst, "%s template %zu, %d players, %llu nodes", path, i, players,
                     (unsigned long long)s.nodes_used);
        }
        for (size_t k = 0; k < rmg_solve_zone_count(r); k++) {
            rmg_solve_zone z;
            memset(&z, 0, sizeof z);
            z.struct_size = sizeof z;
            assert_int_equal(rmg_solve_get_zone(r, k, &z), RMG_OK);
            if (z.active)
                assert_true(z.terrain >= 0 && z.terrain < 12 && z.terrain != 8 && z.terrain != 9);
        }
        rmg_solve_result_destroy(r);
    }
}

static void test_corpus_templates_solve(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    corpus_totals t = {0};
    static const char *const dirs[] = {"corpus/h3t", "corpus/sod"};
    for (size_t d = 0; d < 2; d++) {
        char **files = rmg_test_corpus_files(dirs[d], ".txt,.h3t");
        for (char **f = files; f && *f; f++) {
            rmg_pack *pack = NULL;
            size_t len = 0;
            char *data = rmg_test_read_file(*f, &len);
            assert_non_null(data);
            rmg_status st = rmg__h3t_read(ctx, data, len, *f, &pack);
            free(data);
            if (st != RMG_OK) {
                t.rejected++; /* the importer's tests judge the files it rejects (header-only files) */
                continue;
            }
            t.packs++;
            solve_pack(ctx, pack, 0, &t, *f);
            solve_pack(ctx, pack, 2, &t, *f);
            rmg__pack_free(pack);
        }
        rmg_test_free_list(files);
    }
    printf("  corpus: %zu packs (%zu files rejected by the importer), %zu template solves, %zu with warnings, %zu invalid rules, %zu rules given up, "
           "%zu budgets exhausted, at most %llu nodes, worst %.1f ms CPU\n",
           t.packs, t.rejected, t.templates, t.with_warnings, t.rule_errors, t.violated, t.exhausted,
           (unsigned long long)t.most_nodes, t.worst_ms);
    printf("  slowest: %s\n", t.worst);
    assert_true(t.packs > 0);
    assert_true(t.worst_ms < 1000.0);
    rmg_context_destroy(ctx);
}

/* The built-in ruleset: OBJ-14 and the defaults through the public API. */
static void test_builtin_content_bans(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_create(ctx, "p", &pack), RMG_OK);
    size_t index = 0;
    assert_int_equal(rmg_pack_add_template(pack, "t", &index), RMG_OK);
    rmg_solve_result *r = NULL;
    assert_int_equal(rmg_solve(ctx, pack, index, NULL, &r), RMG_OK);
    assert_int_equal(rmg_solve_spell_allowed(r, 0), 0);          /* Summon Boat, no water */
    assert_int_equal(rmg_solve_artifact_allowed(r, 129), 0);     /* Angelic Alliance */
    assert_int_equal(rmg_solve_hero_allowed(r, 144), 0);         /* Sir Mullich */
    assert_int_equal(rmg_solve_skill_allowed(r, 5), 0);          /* Navigation, no water */
    assert_int_equal(rmg_solve_object_banned(r, "spell_scroll_special"), 0);
    assert_int_equal(rmg_solve_object_banned(r, "pandora_spells_air"), 0);
    assert_int_equal(rmg_solve_gem_spell(r), 41);                /* Bless */
    rmg_solve_result_destroy(r);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_builtin_content_bans),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_templates_solve),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
