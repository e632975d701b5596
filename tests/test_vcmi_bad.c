/* VCMI JSON importer on bad input: wrong types, unknown values, huge numbers, duplicate and
 * malformed zone ids, dangling and cyclic *LikeZone references, truncated and mutated files,
 * deep nesting, very large templates. Every failure is RMG_ERR_PARSE / RMG_ERR_LIMIT with the
 * line and column (and the zone where there is one); nothing crashes, leaks or hangs. The
 * allocator failure harness runs over a small file (every allocation) and a big corpus file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "template/model.h"

/* One template around `zones` and `connections` (JSON text of the two values). */
static char *wrap(const char *zones, const char *connections)
{
#define WRAP_FORMAT "{\n\"T\" : {\n\"minSize\" : \"s\", \"maxSize\" : \"m\", \"players\" : \"2\",\n" \
                    "\"zones\" : %s,\n\"connections\" : %s\n}\n}\n"
    size_t n = strlen(WRAP_FORMAT) + strlen(zones) + strlen(connections) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, WRAP_FORMAT, zones, connections);
    return s;
}

#define TWO_ZONES                                                                                        \
    "{ \"1\" : { \"type\" : \"playerStart\", \"owner\" : 1, \"playerTowns\" : { \"castles\" : 1 } },\n" \
    "  \"2\" : { \"type\" : \"playerStart\", \"owner\" : 2, \"playerTowns\" : { \"castles\" : 1 } } }"
/* A template with two start zones; minSize, players and extra template keys filled in. */
#define VALUES_FORMAT                                                                                  \
    "{ \"T\" : { \"minSize\" : %s, \"maxSize\" : \"m\", \"players\" : %s, \"zones\" : " TWO_ZONES \
    ", \"connections\" : [] %s } }"
#define ONE_CONNECTION "[ { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : 1000 } ]"

/* `at` is the text the error must point at: its first occurrence in the file (NULL: line 1,
 * column 1). Columns count characters, as the importer does. */
typedef struct expectation {
    rmg_status status;
    const char *at;
    int zone;                 /* -1: not about a zone */
    const char *needle;
} expectation;

static void locate(const char *text, const char *at, int *line, int *column)
{
    const char *hit = at ? strstr(text, at) : text;
    if (!hit)
        fail_msg("marker '%s' is not in the text", at);
    *line = 1;
    *column = 1;
    for (const char *c = text; c < hit; c++) {
        if (*c == '\n') {
            ++*line;
            *column = 1;
        } else if ((*c & 0xC0) != 0x80) {
            ++*column;
        }
    }
}

static void expect_failure(const char *text, expectation want)
{
    int line, column;
    locate(text, want.at, &line, &column);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, text, strlen(text), "bad.json", RMG_FORMAT_VCMI, &p);
    assert_null(p);
    rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
    assert_int_equal(rmg_context_error(ctx, &e), RMG_OK);
    if (st != want.status || e.line != line || e.column != column || (want.zone >= 0 && e.zone != want.zone) ||
        !strstr(e.message, want.needle))
        fail_msg("got status %d at %d:%d zone %d: '%s'\nwant %d at %d:%d zone %d with '%s'", (int)st, e.line,
                 e.column, e.zone, e.message, (int)want.status, line, column, want.zone, want.needle);
    rmg_context_destroy(ctx);
}

/* Zones and connections of one template, and the error they must give. */
typedef struct zone_case {
    const char *zones, *connections;
    expectation want;
} zone_case;

static void run_zone_cases(const zone_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *text = wrap(cases[i].zones, cases[i].connections);
        expect_failure(text, cases[i].want);
        free(text);
    }
}

static void test_file_structure(void **state)
{
    (void)state;
    expect_failure("[1, 2]", (expectation){RMG_ERR_PARSE, NULL, -1, "an object of templates, found an array"});
    expect_failure("{ }", (expectation){RMG_ERR_PARSE, NULL, -1, "no templates"});
    expect_failure("{ \"T\" : 3 }", (expectation){RMG_ERR_PARSE, "3", -1, "template 'T': 'a template' must be an object"});
    expect_failure("{ \"T\" : { \"minSize\" : \"s\", \"maxSize\" : \"m\", \"players\" : \"2\", \"zones\" : {} } }",
                   (expectation){RMG_ERR_PARSE, "{ \"minSize\"", -1, "the template has no 'connections'"});
    expect_failure("{ \"T\" : { \"minSize\" : \"s\", \"maxSize\" : \"m\", \"players\" : \"2\", \"zones\" : [], "
                   "\"connections\" : [] } }",
                   (expectation){RMG_ERR_PARSE, "[]", -1, "'zones' must be an object, found an array"});
    /* JSON errors keep their own location. */
    expect_failure("{ \"T\" : { \"minSize\" : \"s\",, } }", (expectation){RMG_ERR_PARSE, ", }", -1, "quoted key"});
}

static void test_template_values(void **state)
{
    (void)state;
    static const struct { const char *size, *players, *extra, *at, *needle; } cases[] = {
        {"\"xxl\"", "\"2\"", "", "\"xxl\"", "'minSize' = 'xxl' is not a map size"},
        {"\"s+u+u\"", "\"2\"", "", "\"s+u+u\"", "is not a map size"},
        {"\"20x20x1\"", "\"2\"", "", "\"20x", "is not a map size"},
        {"\"72x72x3\"", "\"2\"", "", "\"72x", "is not a map size"},
        {"3", "\"2\"", "", "3,", "'minSize' must be a string, found a number"},
        {"\"xl\"", "\"2\"", "", "{ \"minSize\"", "minSize is larger than maxSize"},
        {"\"s\"", "\"0-9\"", "", "\"0-9\"", "counts must be ranges within 1..8"},
        {"\"s\"", "\"4-2\"", "", "\"4-2\"", "counts must be ranges within 1..8"},
        {"\"s\"", "\"two\"", "", "\"two\"", "is not a count or a range"},
        {"\"s\"", "\"2-\"", "", "\"2-\"", "is not a count or a range"},
        {"\"s\"", "\"2\"", ", \"allowedWaterContent\" : []", "[] }", "'allowedWaterContent' is empty"},
        {"\"s\"", "\"2\"", ", \"allowedWaterContent\" : [\"lots\"]", "\"lots\"", "unknown water content 'lots'"},
        {"\"s\"", "\"2\"", ", \"name\" : 5", "5 }", "'name' must be a string"},
        {"\"s\"", "\"2\"", ", \"bannedSpells\" : \"all\"", "\"all\"", "'bannedSpells' must be an array"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, VALUES_FORMAT, cases[i].size, cases[i].players, cases[i].extra);
        /* The marker's first occurrence after the template key. */
        expect_failure(text, (expectation){RMG_ERR_PARSE, cases[i].at, -1, cases[i].needle});
    }
}

static void test_zone_values(void **state)
{
    (void)state;
    static const zone_case cases[] = {
        {"{ \"1\" : { \"size\" : 2 } }", ONE_CONNECTION,
         {RMG_ERR_PARSE, "{ \"size\"", 1, "zone 1: the zone has no 'type'"}},
        {"{ \"1\" : { \"type\" : \"castle\" } }", "[]",
         {RMG_ERR_PARSE, "\"castle\"", 1, "unknown zone type 'castle'"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"size\" : -3 } }", "[]",
         {RMG_ERR_PARSE, "-3", 1, "'size' = -3 must be a positive relative size"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"size\" : \"big\" } }", "[]",
         {RMG_ERR_PARSE, "\"big\"", 1, "'size' must be a number, found a string"}},
        {"{ \"1\" : { \"type\" : \"playerStart\", \"owner\" : 9 } }", "[]",
         {RMG_ERR_PARSE, "9 }", 1, "'owner' = 9 is outside 1..8"}},
        {"{ \"1\" : { \"type\" : \"playerStart\", \"owner\" : 1.5 } }", "[]",
         {RMG_ERR_PARSE, "1.5", 1, "'owner' must be a whole number"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"monsters\" : \"brutal\" } }", "[]",
         {RMG_ERR_PARSE, "\"brutal\"", 1, "'monsters' = 'brutal' is not one of none, weak"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"playerTowns\" : { \"castles\" : 1e30 } } }", "[]",
         {RMG_ERR_PARSE, "1e30", 7, "'castles' = 1e+30 is outside 0..100"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"mines\" : { \"gold\" : 99999999999999999999 } } }", "[]",
         {RMG_ERR_PARSE, "9999", 7, "'gold' = 1e+20 is outside 0..100"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"mines\" : { \"gold\" : -1 } } }", "[]",
         {RMG_ERR_PARSE, "-1", 7, "'gold' = -1 is outside 0..100"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"treasure\" : [ { \"min\" : 900, \"max\" : 100 } ] } }",
         "[]", {RMG_ERR_PARSE, "{ \"min\"", 7, "min 900 above max 100"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"treasure\" : { \"min\" : 1 } } }", "[]",
         {RMG_ERR_PARSE, "{ \"min\"", 7, "'treasure' must be an array"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"townsAreSameType\" : \"yes\" } }", "[]",
         {RMG_ERR_PARSE, "\"yes\"", 7, "'townsAreSameType' must be a boolean"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"allowedTowns\" : [\"castle\"], \"bannedTowns\" : "
         "[\"castle\"] } }", "[]",
         {RMG_ERR_PARSE, "[\"castle\"]", 7, "'allowedTowns' and bannedTowns leave nothing"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"forcedLevel\" : \"sky\" } }", "[]",
         {RMG_ERR_PARSE, "\"sky\"", 7, "'forcedLevel' = 'sky' is not one of automatic"}},
        {"{ \"7\" : { \"type\" : \"treasure\", \"customObjects\" : { \"commonObjects\" : [ { \"type\" : "
         "\"windmill\" } ] } } }", "[]",
         {RMG_ERR_PARSE, "{ \"type\" : \"windmill\"", 7, "a common object needs 'type' and 'rmg'"}},
    };
    run_zone_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_zone_ids(void **state)
{
    (void)state;
    static const zone_case cases[] = {
        {"{ \"1\" : { \"type\" : \"treasure\" },\n  \"01\" : { \"type\" : \"treasure\" } }", "[]",
         {RMG_ERR_PARSE, "\"01\"", 1, "zone id '01' is zone 1 again (first at line 4, column 13)"}},
        {"{ \"1\" : { \"type\" : \"treasure\" },\n  \"1\" : { \"type\" : \"treasure\" } }", "[]",
         {RMG_ERR_PARSE, "\"1\" : { \"type\" : \"treasure\" } }", -1,
          "duplicate key '1' in 'zones' (first at line 4, column 13)"}},
        {"{ \"zoneA\" : { \"type\" : \"treasure\" } }", "[]",
         {RMG_ERR_PARSE, "\"zoneA\"", -1, "zone id 'zoneA' is not a positive whole number"}},
        {"{ \"0\" : { \"type\" : \"treasure\" } }", "[]",
         {RMG_ERR_PARSE, "\"0\"", -1, "zone id '0' is not a positive whole number"}},
        {"{ \"99999999999\" : { \"type\" : \"treasure\" } }", "[]",
         {RMG_ERR_PARSE, "\"9999", -1, "is not a positive whole number"}},
        {TWO_ZONES, "[ { \"a\" : \"1\", \"b\" : \"3\" } ]",
         {RMG_ERR_PARSE, "\"3\"", -1, "connection 1 'b' names zone '3', which the template"}},
        {TWO_ZONES, "[ { \"a\" : 1, \"b\" : 2 }, { \"a\" : \"1\" } ]",
         {RMG_ERR_PARSE, "{ \"a\" : \"1\" }", -1, "connection 2 needs both 'a' and 'b'"}},
        {TWO_ZONES, "[ { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : -5 } ]",
         {RMG_ERR_PARSE, "-5", -1, "'guard' = -5 is outside 0..2147483647"}},
        {TWO_ZONES, "[ { \"a\" : \"1\", \"b\" : \"2\", \"type\" : \"tunnel\" } ]",
         {RMG_ERR_PARSE, "\"tunnel\"", -1, "connection 1: unknown type 'tunnel'"}},
        {TWO_ZONES, "[ { \"a\" : \"1\", \"b\" : \"2\", \"road\" : \"maybe\" } ]",
         {RMG_ERR_PARSE, "\"maybe\"", -1, "road 'maybe' is not true, false or random"}},
        {TWO_ZONES, "[ { \"a\" : [1], \"b\" : \"2\" } ]",
         {RMG_ERR_PARSE, "[1]", -1, "'connection 1 'a'' must be a string"}},
    };
    run_zone_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_like_zone_errors(void **state)
{
    (void)state;
    static const zone_case cases[] = {
        /* Two zones naming each other. */
        {"{ \"1\" : { \"type\" : \"treasure\", \"minesLikeZone\" : 2 },\n"
         "  \"2\" : { \"type\" : \"treasure\", \"minesLikeZone\" : 1 } }", "[]",
         {RMG_ERR_PARSE, "2 }", 1, "'minesLikeZone' references form a cycle: zone 1 -> 2 -> 1"}},
        /* A zone naming itself. */
        {"{ \"4\" : { \"type\" : \"treasure\", \"treasureLikeZone\" : 4 } }", "[]",
         {RMG_ERR_PARSE, "4 }", 4, "'treasureLikeZone' references form a cycle: zone 4 -> 4"}},
        /* A chain running into a cycle further on. */
        {"{ \"1\" : { \"type\" : \"treasure\", \"terrainTypeLikeZone\" : 2 },\n"
         "  \"2\" : { \"type\" : \"treasure\", \"terrainTypeLikeZone\" : 3 },\n"
         "  \"3\" : { \"type\" : \"treasure\", \"terrainTypeLikeZone\" : 2 } }", "[]",
         {RMG_ERR_PARSE, "3 },", 2, "cycle: zone 2 -> 3 -> 2"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"minesLikeZone\" : 9 } }", "[]",
         {RMG_ERR_PARSE, "9 }", 1, "'minesLikeZone' names zone 9, which the template does not have"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"minesLikeZone\" : \"2\" } }", "[]",
         {RMG_ERR_PARSE, "\"2\" }", 1, "'minesLikeZone' must be a number"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"townHints\" : [ { \"likeZone\" : 5 } ] } }", "[]",
         {RMG_ERR_PARSE, "5 }", 1, "'likeZone' names zone 5, which the template does not"}},
        {"{ \"1\" : { \"type\" : \"treasure\", \"townHints\" : { \"likeZone\" : 1 } } }", "[]",
         {RMG_ERR_PARSE, "{ \"likeZone\"", 1, "'townHints' must be an array"}},
    };
    run_zone_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Every prefix of a real file fails with a location; the whole file loads. */
static void test_truncated_corpus_file(void **state)
{
    (void)state;
    size_t len;
    char *text = rmg_test_read_file(rmg_test_shared("corpus/vcmi/heroes3/smallRing.json"), &len);
    assert_non_null(text);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t n = 0; n < len; n += (n < 200 ? 1 : 7)) {
        rmg_pack *p = NULL;
        rmg_status st = rmg_pack_load_string(ctx, text, n, "cut.json", RMG_FORMAT_VCMI, &p);
        rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
        rmg_context_error(ctx, &e);
        if (st != RMG_ERR_PARSE || e.line < 1 || e.column < 1)
            fail_msg("prefix %zu: status %d at %d:%d '%s'", n, (int)st, e.line, e.column, e.message);
        assert_null(p);
    }
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, text, len, "whole.json", RMG_FORMAT_VCMI, &p), RMG_OK);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
    free(text);
}

/* Random byte changes (fixed LCG): each load ends with OK or a located data error. */
static void test_mutated_corpus_file(void **state)
{
    (void)state;
    size_t len;
    char *orig = rmg_test_read_file(rmg_test_shared("corpus/vcmi/symmetric/2sm4d(3).json"), &len);
    assert_non_null(orig);
    char *text = malloc(len);
    assert_non_null(text);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    uint64_t x = 12345;
    static const char alphabet[] = "{}[]\":,0123456789-.e \n/*truefalsnl\\\x80\xC3\xFF\x00";
    size_t ok = 0, failed = 0;
    for (int round = 0; round < 400; round++) {
        memcpy(text, orig, len);
        for (int k = 0; k < 1 + round % 4; k++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            size_t pos = (size_t)(x >> 33) % len;
            text[pos] = alphabet[(x >> 13) % (sizeof alphabet - 1)];
        }
        rmg_pack *p = NULL;
        rmg_status st = rmg_pack_load_string(ctx, text, len, "mut.json", RMG_FORMAT_VCMI, &p);
        if (st == RMG_OK) {
            ok++;
            rmg_pack_destroy(p);
            continue;
        }
        failed++;
        rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
        rmg_context_error(ctx, &e);
        if (st != RMG_ERR_PARSE || e.line < 1 || e.column < 1)
            fail_msg("round %d: status %d at %d:%d '%s'", round, (int)st, e.line, e.column, e.message);
    }
    print_message("mutations: %zu loaded, %zu rejected with a location\n", ok, failed);
    assert_true(failed > 0);
    rmg_context_destroy(ctx);
    free(text);
    free(orig);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    size_t n = 200000;
    char *text = malloc(n + 64);
    assert_non_null(text);
    strcpy(text, "{ \"T\" : { \"zones\" : ");
    size_t k = strlen(text);
    memset(text + k, '[', n);
    text[k + n] = '\0';
    /* Levels count from 0 (the file object, then "T"): the 63rd bracket would open level 64. */
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, text, strlen(text), "deep.json", RMG_FORMAT_VCMI, &p), RMG_ERR_LIMIT);
    rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
    rmg_context_error(ctx, &e);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, (int)k + 63);
    assert_non_null(strstr(e.message, "nesting deeper than 64 levels"));
    rmg_context_destroy(ctx);
    free(text);
}

/* A huge template: 60000 zones, each minesLikeZone the previous one (a chain through all of
 * them, no recursion) and a connection to it. Loads in linear-ish time. */
static void test_huge_template(void **state)
{
    (void)state;
    const int n = 60000;
    size_t cap = (size_t)n * 160 + 1024, k = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    k += (size_t)snprintf(text + k, cap - k, "{ \"Big\" : { \"minSize\" : \"s\", \"maxSize\" : \"g+u\", "
                                             "\"players\" : \"2\", \"zones\" : {\n");
    for (int i = 1; i <= n; i++) {
        if (i == 1)
            k += (size_t)snprintf(text + k, cap - k, "\"1\" : { \"type\" : \"treasure\", \"mines\" : { \"gold\" : 3 } },\n");
        else
            k += (size_t)snprintf(text + k, cap - k, "\"%d\" : { \"type\" : \"treasure\", \"minesLikeZone\" : %d },\n", i,
                                  i - 1);
    }
    k += (size_t)snprintf(text + k, cap - k, "}, \"connections\" : [\n");
    for (int i = 2; i <= n; i++)
        k += (size_t)snprintf(text + k, cap - k, "{ \"a\" : \"%d\", \"b\" : \"%d\", \"guard\" : 100 },\n", i - 1, i);
    k += (size_t)snprintf(text + k, cap - k, "] } }\n");
    rmg_context *ctx = rmg_test_context(NULL, 1);
    clock_t start = clock();
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, text, k, "big.json", RMG_FORMAT_VCMI, &p);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (st != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    print_message("%d zones, %d connections: %.3f s CPU\n", n, n - 1, seconds);
    assert_int_equal(p->templates[0].n_zones, (size_t)n);
    assert_int_equal(p->templates[0].n_connections, (size_t)n - 1);
    assert_int_equal(p->templates[0].zones[n - 1].mines_min[RMG_RESOURCE_GOLD], 3);
    assert_true(seconds < 20.0);
    rmg_pack_destroy(p);
    /* The same with a repeated id at the very end: found without a quadratic scan. */
    char *dup = strstr(text, "\"60000\" :");
    assert_non_null(dup);
    memcpy(dup, "\"00001\"", 7);
    start = clock();
    st = rmg_pack_load_string(ctx, text, k, "big.json", RMG_FORMAT_VCMI, &p);
    seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    assert_int_equal(st, RMG_ERR_PARSE);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "zone id '00001' is zone 1 again"));
    assert_true(seconds < 20.0);
    rmg_context_destroy(ctx);
    free(text);
}

/* ---- allocation failures ------------------------------------------------------------------------- */

typedef struct oom_file {
    char *text;
    size_t len;
} oom_file;

static rmg_status load_op(rmg_context *ctx, void *user)
{
    const oom_file *f = user;
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, f->text, f->len, "oom.json", RMG_FORMAT_VCMI, &p);
    rmg_pack_destroy(p);
    return st;
}

static void test_allocation_failures_small_file(void **state)
{
    (void)state;
    /* Small but with every kind of allocation: warnings, rules, hints, references, descriptions. */
    oom_file f;
    f.text = wrap("{ \"1\" : { \"type\" : \"playerStart\", \"owner\" : 1, \"playerTowns\" : { \"castles\" : 1 },\n"
                  "          \"visibleSize\" : 3, \"customObjects\" : { \"bannedCategories\" : [\"dwelling\"],\n"
                  "          \"commonObjects\" : [ { \"type\" : \"windmill\", \"rmg\" : { \"value\" : 100, \"rarity\" : 5 } } ] },\n"
                  "          \"townHints\" : [ { \"notLikeZone\" : [2] } ], \"allowedTowns\" : [\"castle\", \"neutral\"] },\n"
                  "  \"2\" : { \"type\" : \"playerStart\", \"owner\" : 2, \"playerTowns\" : { \"castles\" : 1 },\n"
                  "          \"customObjectsLikeZone\" : 1, \"treasureLikeZone\" : 1 } }",
                  "[ { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : 1000 }, { \"a\" : \"1\", \"b\" : \"2\", \"type\" : "
                  "\"repulsive\" } ]");
    f.len = strlen(f.text);
    size_t needed = rmg_test_oom_sweep(load_op, &f, 0, 1);
    print_message("small VCMI file: %zu allocations, every one failed once\n", needed);
    assert_true(needed >= 5);
    free(f.text);
}

static void test_allocation_failures_big_file(void **state)
{
    (void)state;
    oom_file f;
    f.text = rmg_test_read_file(rmg_test_shared("corpus/vcmi/hdmod/marathon.json"), &f.len);
    assert_non_null(f.text);
    size_t needed = rmg_test_oom_sweep(load_op, &f, 0, 1);
    print_message("marathon.json: %zu allocations, every one failed once\n", needed);
    assert_true(needed >= 10);
    free(f.text);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_file_structure),
        cmocka_unit_test(test_template_values),
        cmocka_unit_test(test_zone_values),
        cmocka_unit_test(test_zone_ids),
        cmocka_unit_test(test_like_zone_errors),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_huge_template),
        cmocka_unit_test(test_allocation_failures_small_file),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_truncated_corpus_file),
        cmocka_unit_test(test_mutated_corpus_file),
        cmocka_unit_test(test_allocation_failures_big_file),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
