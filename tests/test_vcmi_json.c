/* The strict JSON reader behind the VCMI importer (lib/template/json.c): values, escapes and
 * UTF-8, comments and trailing commas, exact integers, and every rejection with its line and
 * column; depth, size and value-count limits; allocation failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "template/vcmi/json.h"

typedef struct parsed {
    rmg_context *ctx;
    rmg__arena arena;
    const rmg__json *root;
    rmg_status st;
} parsed;

static parsed parse_n(const char *text, size_t len, const rmg__json_limits *lim)
{
    parsed p;
    p.ctx = rmg_test_context(NULL, 1);
    rmg__arena_init(&p.arena, p.ctx, 4096);
    p.st = rmg__json_parse(p.ctx, &p.arena, text, len, "t.json", lim, &p.root);
    if (p.st != RMG_OK)
        assert_null(p.root);
    return p;
}

static parsed parse(const char *text)
{
    return parse_n(text, strlen(text), NULL);
}

static void done(parsed *p)
{
    rmg__arena_free(&p->arena);
    rmg_context_destroy(p->ctx);
}

/* The text must be rejected with `status` at line:column, the message containing `needle`. */
static void expect_error_n(const char *text, size_t len, rmg_status status, int line, int column, const char *needle)
{
    parsed p = parse_n(text, len, NULL);
    rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
    assert_int_equal(rmg_context_error(p.ctx, &e), RMG_OK);
    if (p.st != status || e.line != line || e.column != column || !strstr(e.message, needle))
        fail_msg("'%s': got status %d at %d:%d '%s', want %d at %d:%d with '%s'", text, (int)p.st, e.line, e.column,
                 e.message, (int)status, line, column, needle);
    assert_string_equal(e.file, "t.json");
    done(&p);
}

static void expect_error(const char *text, rmg_status status, int line, int column, const char *needle)
{
    expect_error_n(text, strlen(text), status, line, column, needle);
}

static void test_values_and_locations(void **state)
{
    (void)state;
    parsed p = parse("{\n  \"a\": [1, -2, 3.5, true, false, null, \"x\"],\n  \"b\": {\"c\": {}}\n}");
    assert_int_equal(p.st, RMG_OK);
    assert_int_equal(p.root->type, RMG__JSON_OBJECT);
    assert_int_equal(p.root->count, 2);
    const rmg__json_member *a = rmg__json_find(p.root, "a");
    assert_non_null(a);
    assert_int_equal(a->line, 2);
    assert_int_equal(a->column, 3);
    assert_int_equal(a->value.type, RMG__JSON_ARRAY);
    assert_int_equal(a->value.count, 7);
    const rmg__json *it = a->value.items;
    assert_true(it[0].integral && it[0].integer == 1);
    assert_true(it[1].integral && it[1].integer == -2);
    assert_false(it[2].integral);
    assert_true(it[2].number == 3.5);
    assert_true(it[3].type == RMG__JSON_BOOL && it[3].boolean);
    assert_true(it[4].type == RMG__JSON_BOOL && !it[4].boolean);
    assert_int_equal(it[5].type, RMG__JSON_NULL);
    assert_string_equal(it[6].string, "x");
    assert_int_equal(it[6].line, 2);
    assert_int_equal(it[6].column, 40);
    const rmg__json_member *b = rmg__json_find(p.root, "b");
    assert_int_equal(b->value.members[0].value.type, RMG__JSON_OBJECT);
    assert_int_equal(b->value.members[0].value.count, 0);
    assert_null(rmg__json_find(p.root, "zz"));
    assert_null(rmg__json_find(&a->value, "a"));
    done(&p);
}

static void test_comments_trailing_commas_bom(void **state)
{
    (void)state;
    parsed p = parse("\xEF\xBB\xBF// head\n{ /* block\n  over lines */ \"a\" : [1, 2, ], // tail\n \"b\": 1, }\n/* end */");
    assert_int_equal(p.st, RMG_OK);
    assert_int_equal(p.root->count, 2);
    assert_int_equal(rmg__json_find(p.root, "a")->value.count, 2);
    /* Lines count through block comments: "b" is on line 4. */
    assert_int_equal(rmg__json_find(p.root, "b")->line, 4);
    done(&p);
}

static void test_strings_escapes_utf8(void **state)
{
    (void)state;
    parsed p = parse("[\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\", \"\\u00e9\\u20AC\", \"\\ud83d\\ude00\", \"\xC3\xA9t\xC3\xA9\"]");
    assert_int_equal(p.st, RMG_OK);
    assert_string_equal(p.root->items[0].string, "\" \\ / \b \f \n \r \t");
    assert_string_equal(p.root->items[1].string, "\xC3\xA9\xE2\x82\xAC");
    assert_string_equal(p.root->items[2].string, "\xF0\x9F\x98\x80");
    assert_string_equal(p.root->items[3].string, "\xC3\xA9t\xC3\xA9");
    assert_int_equal(p.root->items[3].length, 5);
    done(&p);
    /* Columns count characters: the error after two 2-byte characters is at column 6. */
    expect_error("\"\xC3\xA9\xC3\xA9\" x", RMG_ERR_PARSE, 1, 6, "end of input after the value");
}

static void test_numbers(void **state)
{
    (void)state;
    parsed p = parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, 1e3, -0.25e-2, 0, -0, 12.0E+1]");
    assert_int_equal(p.st, RMG_OK);
    const rmg__json *n = p.root->items;
    assert_true(n[0].integral && n[0].integer == INT64_MAX);
    assert_true(n[1].integral && n[1].integer == INT64_MIN);
    assert_false(n[2].integral);                 /* too large for int64: the double only */
    assert_true(n[2].number > 9.2e18);
    assert_true(!n[3].integral && n[3].number == 1000.0);
    assert_true(n[4].number == -0.0025);
    assert_true(n[5].integral && n[5].integer == 0);
    assert_true(n[6].integral && n[6].integer == 0);
    assert_true(n[7].number == 120.0);
    done(&p);
    expect_error("[01]", RMG_ERR_PARSE, 1, 2, "leading zeros");
    expect_error("[1.]", RMG_ERR_PARSE, 1, 2, "digit must follow '.'");
    expect_error("[-]", RMG_ERR_PARSE, 1, 2, "digit must follow '-'");
    expect_error("[1e]", RMG_ERR_PARSE, 1, 2, "exponent has no digits");
    expect_error("[1e999]", RMG_ERR_PARSE, 1, 2, "out of range");
    expect_error("[1e99999999999]", RMG_ERR_PARSE, 1, 2, "out of range");
    expect_error("[.5]", RMG_ERR_PARSE, 1, 2, "expected a value");
    expect_error("[+1]", RMG_ERR_PARSE, 1, 2, "expected a value");
}

static void test_rejections_name_line_and_column(void **state)
{
    (void)state;
    expect_error("", RMG_ERR_PARSE, 1, 1, "expected a value");
    expect_error("  // only a comment\n", RMG_ERR_PARSE, 2, 1, "end of input");
    expect_error("{\"a\": 1", RMG_ERR_PARSE, 1, 8, "',' or '}'");
    expect_error("{\"a\" 1}", RMG_ERR_PARSE, 1, 6, "':' after the key");
    expect_error("{a: 1}", RMG_ERR_PARSE, 1, 2, "quoted key");
    expect_error("[1,,2]", RMG_ERR_PARSE, 1, 4, "expected a value");
    expect_error("[1 2]", RMG_ERR_PARSE, 1, 4, "',' or ']'");
    expect_error("{\n \"s\": \"abc", RMG_ERR_PARSE, 2, 7, "unterminated string");
    expect_error("[\"a\nb\"]", RMG_ERR_PARSE, 1, 4, "line break");
    expect_error("[\"a\tb\"]", RMG_ERR_PARSE, 1, 4, "control character 0x09");
    expect_error("[\"\\x\"]", RMG_ERR_PARSE, 1, 3, "invalid escape");
    expect_error("[\"\\u12\"]", RMG_ERR_PARSE, 1, 3, "four hex digits");
    expect_error("[\"\\u0000\"]", RMG_ERR_PARSE, 1, 3, "NUL");
    expect_error("[\"\\udc00\"]", RMG_ERR_PARSE, 1, 3, "lone low surrogate");
    expect_error("[\"\\ud800x\"]", RMG_ERR_PARSE, 1, 3, "low surrogate");
    expect_error("[\"\xFF\"]", RMG_ERR_PARSE, 1, 3, "invalid UTF-8");
    expect_error("[\"\xC0\xAF\"]", RMG_ERR_PARSE, 1, 3, "invalid UTF-8");        /* overlong */
    expect_error("[\"\xED\xA0\x80\"]", RMG_ERR_PARSE, 1, 3, "invalid UTF-8");    /* encoded surrogate */
    expect_error("[\"\xE2\x82\"]", RMG_ERR_PARSE, 1, 3, "invalid UTF-8");        /* truncated */
    expect_error("[tru]", RMG_ERR_PARSE, 1, 2, "expected a value");
    expect_error("[truex]", RMG_ERR_PARSE, 1, 2, "expected a value");
    expect_error("[1] [2]", RMG_ERR_PARSE, 1, 5, "end of input after the value");
    expect_error("[1]\n/* never closed\n", RMG_ERR_PARSE, 2, 1, "unterminated /* comment");
    expect_error_n("[1, \0]", 6, RMG_ERR_PARSE, 1, 5, "byte 0x00");
    expect_error("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", RMG_ERR_PARSE, 3, 2, "duplicate key 'a' (first at line 1, column 2)");
    expect_error("{\"zones\": {\"1\": {}, \"1\": {}}}", RMG_ERR_PARSE, 1, 21, "duplicate key '1' in 'zones'");
}

/* Objects above the pairwise threshold are checked by sorting: the earliest repeat is reported. */
static void test_duplicates_in_large_objects(void **state)
{
    (void)state;
    char text[2048];
    size_t k = (size_t)snprintf(text, sizeof text, "{");
    for (int i = 0; i < 40; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "\"k%d\": %d,\n", i, i);
    k += (size_t)snprintf(text + k, sizeof text - k, "\"k7\": 0,\n\"k3\": 0}");
    expect_error(text, RMG_ERR_PARSE, 41, 1, "duplicate key 'k7' (first at line 8, column 1)");
    parsed p = parse("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11,\"l\":12,"
                     "\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17,\"r\":18}");
    assert_int_equal(p.st, RMG_OK);
    assert_int_equal(p.root->count, 18);
    assert_int_equal(rmg__json_find(p.root, "r")->value.integer, 18);
    done(&p);
}

static char *repeat(const char *unit, size_t n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * n + t + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * u, unit, u);
    memcpy(s + u * n, tail, t + 1);
    return s;
}

static void test_limits(void **state)
{
    (void)state;
    /* Depth: 64 nested arrays parse, 65 do not; a million open brackets fail fast. */
    char *closed = malloc(64 * 2 + 1);
    memset(closed, '[', 64);
    memset(closed + 64, ']', 64);
    closed[128] = '\0';
    parsed p = parse(closed);
    assert_int_equal(p.st, RMG_OK);
    done(&p);
    free(closed);
    char *deep = repeat("[", 65, "");
    expect_error(deep, RMG_ERR_LIMIT, 1, 65, "nesting deeper than 64");
    free(deep);
    clock_t start = clock();
    char *bomb = repeat("[", 1000000, "");
    expect_error(bomb, RMG_ERR_LIMIT, 1, 65, "nesting deeper");
    free(bomb);
    /* Values: a flat array of 2 million numbers stops at the value limit. */
    char *many = repeat(",0", 2000000, "]");
    many[0] = '[';
    parsed q = parse(many);
    assert_int_equal(q.st, RMG_ERR_LIMIT);
    assert_non_null(strstr(rmg_context_errmsg(q.ctx), "more than 1048576 values"));
    done(&q);
    free(many);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    print_message("limit cases: %.3f s CPU\n", seconds);
    assert_true(seconds < 10.0);
    /* Bytes and explicit limits. */
    rmg__json_limits lim = {10, 2, 3};
    parsed r = parse_n("[1, 2, 3, 4, 5]", 15, &lim);
    assert_int_equal(r.st, RMG_ERR_LIMIT);
    assert_non_null(strstr(rmg_context_errmsg(r.ctx), "larger than the limit"));
    done(&r);
    parsed s = parse_n("[1, 2, 3]", 9, &lim);
    assert_int_equal(s.st, RMG_ERR_LIMIT);
    assert_non_null(strstr(rmg_context_errmsg(s.ctx), "more than 3 values"));
    done(&s);
}

/* Every prefix of a valid document is either rejected with a location or (the whole text) accepted. */
static void test_truncation_never_crashes(void **state)
{
    (void)state;
    const char *doc = "{ \"t\" : { \"zones\" : { \"1\" : { \"type\" : \"treasure\", \"size\" : 1.5e1 } }, // c\n"
                      "\"list\" : [ \"\\u00e9\", true, null, -3 ], /* b */ \"s\" : \"\xC3\xA9\" } }";
    size_t len = strlen(doc);
    for (size_t n = 0; n < len; n++) {
        parsed p = parse_n(doc, n, NULL);
        rmg_error_info e = {sizeof e, 0, NULL, NULL, 0, 0, 0, 0, NULL};
        rmg_context_error(p.ctx, &e);
        if (p.st != RMG_ERR_PARSE || e.line < 1 || e.column < 1)
            fail_msg("prefix of %zu bytes: status %d at %d:%d", n, (int)p.st, e.line, e.column);
        done(&p);
    }
    parsed all = parse_n(doc, len, NULL);
    assert_int_equal(all.st, RMG_OK);
    done(&all);
}

typedef struct oom_doc {
    const char *text;
} oom_doc;

static rmg_status parse_op(rmg_context *ctx, void *user)
{
    const oom_doc *d = user;
    rmg__arena arena;
    rmg__arena_init(&arena, ctx, 256);
    const rmg__json *root;
    rmg_status st = rmg__json_parse(ctx, &arena, d->text, strlen(d->text), "oom.json", NULL, &root);
    rmg__arena_free(&arena);
    return st;
}

static void test_allocation_failures(void **state)
{
    (void)state;
    /* 20 keys: the duplicate check sorts (allocates) as well. */
    char text[4096];
    size_t k = (size_t)snprintf(text, sizeof text, "{\"s\": \"%s\", ", "a long string \\u00e9 that needs a buffer");
    for (int i = 0; i < 20; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "\"k%d\": [%d, {\"x\": [1, 2, 3]}],", i, i);
    snprintf(text + k, sizeof text - k, "\"end\": null}");
    oom_doc d = {text};
    size_t needed = rmg_test_oom_sweep(parse_op, &d, 0, 1);
    print_message("JSON parse: %zu allocations swept\n", needed);
    assert_true(needed > 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_locations),
        cmocka_unit_test(test_comments_trailing_commas_bom),
        cmocka_unit_test(test_strings_escapes_utf8),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_rejections_name_line_and_column),
        cmocka_unit_test(test_duplicates_in_large_objects),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_truncation_never_crashes),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
