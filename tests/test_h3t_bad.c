/* h3t / SoD importer on bad input: truncation, mutations, missing/extra columns, huge and
 * negative numbers, duplicate zone ids, quoting, line ends, header-only and non-template files.
 * Every failure is a status with a message naming the row and column; nothing crashes, leaks
 * or takes more than linear time and memory. */
#include <time.h>

#include "test_h3t_sheet.h"

/* Error expected for a string literal (may contain NUL bytes). */
#define EXPECT_ERROR_LITERAL(lit, needle) expect_error_text((lit), sizeof(lit) - 1, (needle))

/* A small but complete 1.8 file with rules, hints, a mirror link and a quoted description. */
static char *rich_text(size_t *len)
{
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 7, "Pack");
    sheet_set(&s, 4, 8, "\"two\nlines\"");
    sheet_set(&s, 4, 22, "-n +6 0 0 L 4 d 60 d 5 d +16 22 d 6000 6 3 d");
    sheet_set(&s, 4, 110, "-17 n +79 6 25 3 d 7 d");
    sheet_set(&s, 4, 116, "pd1_0 0sx_p");
    sheet_set(&s, 5, 127, "2");
    sheet_set(&s, 5, 128, "-1");
    sheet_set(&s, 5, 129, "100");
    sheet_set(&s, 5, 131, "r t1 t2");
    return sheet_text(&s, L140.width, len);
}

/* Loads `text`; returns the status. On failure the message must name a place; on success the
 * pack must be consistent. */
static rmg_status try_load(const char *text, size_t len)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = NULL;
    rmg_status st = rmg__h3t_read(ctx, text, len, "fuzz.h3t", &p);
    if (st == RMG_OK) {
        assert_non_null(p);
        assert_true(p->n_templates > 0);
    } else {
        assert_null(p);
        assert_int_equal(st, RMG_ERR_PARSE);
        assert_non_null(strstr(rmg_context_errmsg(ctx), "fuzz.h3t"));
        assert_non_null(strstr(rmg_context_errmsg(ctx), "row "));
    }
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
    return st;
}

/* Every prefix of a file: loads (the rows so far) or fails with a located error. */
static void test_truncated_every_prefix(void **state)
{
    (void)state;
    size_t len;
    char *text = rich_text(&len);
    size_t ok = 0;
    for (size_t n = 0; n <= len; n++) {
        char *copy = malloc(n + 1);
        memcpy(copy, text, n);
        copy[n] = '\0';
        ok += try_load(copy, n) == RMG_OK;
        free(copy);
    }
    assert_true(ok > 0);
    free(text);
    /* Cut inside the quoted description: the quote is never closed. */
    EXPECT_ERROR_LITERAL("Pack\n\n\n12\t10\t4\t8\t10\t18\t4\tP\t\"abc", "quoted field is not closed");
}

/* Deterministic byte mutations (replace, insert TAB/LF/quote, high bytes). */
static void test_mutations_never_crash(void **state)
{
    (void)state;
    size_t len;
    char *text = rich_text(&len);
    static const char bytes[] = {'\t', '\n', '\r', '"', '-', '+', '9', 'x', ' ', '\xff', '\x92', 'n', 'd', 'L', '0'};
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int iter = 0; iter < 3000; iter++) {
        char *copy = malloc(len + 4);
        memcpy(copy, text, len + 1);
        size_t n = len;
        for (int k = 0; k < 1 + iter % 4; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t at = (size_t)(x % n);
            char b = bytes[(x >> 32) % sizeof bytes];
            if ((x >> 40) & 1) {
                copy[at] = b;
            } else if (n < len + 3) {
                memmove(copy + at + 1, copy + at, n - at + 1);
                copy[at] = b;
                n++;
            }
        }
        try_load(copy, n);
        free(copy);
    }
    free(text);
}

static void test_missing_columns_are_empty(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    /* Rows cut right after the connection value (the restrictions are missing). */
    size_t len;
    char *text = sheet_text(&s, L140.value + 1, &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_text(ctx, text, len);
    assert_int_equal(p->templates[0].n_connections, 1);
    assert_int_equal(p->templates[0].connections[0].players.max_total, 0);
    assert_int_equal(p->n_warnings, 0);
    rmg__pack_free(p);
    free(text);
    /* A row that ends inside the zone block still has its zone. */
    text = sheet_text(&s, L140.strength + 1, &len);
    p = load_text(ctx, text, len);
    assert_int_equal(p->templates[0].n_zones, 2);
    assert_int_equal(p->templates[0].n_connections, 0);
    rmg__pack_free(p);
    free(text);
    rmg_context_destroy(ctx);
}

static void test_extra_columns_warn(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 5, L140.width + 3, "surprise");
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width + 5);
    assert_non_null(find_warning(p, "row 5, column 144: non-empty cell after the last column ignored ('surprise')"));
    rmg__pack_free(p);
    /* Larger counts than this importer knows (a future version): the known prefix of each block
     * is read, the surplus columns are reported. 13 towns: every later column moves by 2. */
    sheet_init(&s, &L140);
    sheet_set(&s, 4, 0, "13");
    sheet_set(&s, 4, 15, "T");
    sheet_set(&s, 4, 28, "1");
    sheet_set(&s, 4, 29, "x");
    sheet_set(&s, 4, 33, "4");
    sheet_set(&s, 4, 60, "x");   /* the 13th town */
    sheet_set(&s, 4, 86, "weak");
    sheet_set(&s, 4, 101, "x");  /* the 13th monster faction */
    sheet_set(&s, 4, 102, "100");
    p = load_sheet(ctx, &s, 142);
    assert_int_equal(p->templates[0].zones[0].monster_strength, RMG_MONSTERS_WEAK);
    assert_int_equal(p->templates[0].zones[0].treasure[0].min, 100);
    assert_int_equal(p->templates[0].zones[0].allowed_towns, 0);
    assert_non_null(find_warning(p, "row 4, column 61: column beyond the known layout"));
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

static void test_huge_numbers(void **state)
{
    (void)state;
    static const struct { int col; const char *value, *error; } cases[] = {
        {129, "99999999999999999999", "row 4, column 130 (Connections/Value): expected an integer"},
        {129, "9223372036854775807", NULL},
        {16, "99999999999", "row 4, column 17 (Map/Minimum Size): 99999999999 is out of range"},
        {28, "2147483648", "row 4, column 29 (Zone/Id): 2147483648 is out of range"},
        {33, "1234567890123456", "row 4, column 34 (Zone/Base Size): expected a number with at most 15 digits"},
        {100, "-5", "row 4, column 101 (Zone/Treasure/Low): -5 is out of range"},
        {39, "12abc", "row 4, column 40 (Zone/Player towns): expected an integer, found '12abc'"},
        {40, "7\xff\xc3\xa9", "row 4, column 41 (Zone/Player towns): expected an integer, found '7?\xc3\xa9'"},
        {38, "9", "row 4, column 39 (Zone/Ownership): 9 is out of range 0..8"},
        {117, "6", "row 4, column 118 (Zone/Monsters disposition (standard)): 6 is out of range 0..5"},
        {119, "4", "row 4, column 120 (Zone/Monsters joining percentage): 4 is out of range 0..3"},
        {13, "-1", "row 4, column 14 (Pack/Max Battle Rounds)"},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(cases); i++) {
        sheet s;
        sheet_minimal(&s, &L140);
        sheet_set(&s, 4, cases[i].col, cases[i].value);
        if (cases[i].error) {
            expect_error(&s, L140.width, cases[i].error);
            continue;
        }
        rmg_context *ctx = rmg_test_context(NULL, 1);
        struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
        assert_int_equal(p->templates[0].connections[0].value, INT64_MAX);
        rmg__pack_free(p);
        rmg_context_destroy(ctx);
    }
}

static void test_negative_sizes(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 16, "-1");
    expect_error(&s, L140.width, "row 4, column 17 (Map/Minimum Size): -1 is out of range");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 5, 33, "-3");
    expect_error(&s, L140.width, "row 5, column 34 (Zone/Base Size): the zone size must be positive");
    sheet_set(&s, 5, 33, "0");
    expect_error(&s, L140.width, "row 5, column 34 (Zone/Base Size): the zone size must be positive");
    sheet_set(&s, 5, 33, "1.5x");
    expect_error(&s, L140.width, "row 5, column 34 (Zone/Base Size): expected a number");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 23, "-0.5");
    expect_error(&s, L140.width, "row 4, column 24 (Map/Rock blocks): the radius must not be negative");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 24, "-2");
    expect_error(&s, L140.width, "row 4, column 25 (Map/Zone sparseness): must not be negative");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 28, "-4");
    expect_error(&s, L140.width, "row 4, column 29 (Zone/Id): -4 is out of range");
}

static void test_duplicate_zone_ids(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 6, 28, "1");
    sheet_set(&s, 6, 31, "x");
    sheet_set(&s, 6, 33, "5");
    expect_error(&s, L140.width, "row 6, column 29 (Zone/Id): duplicate zone id 1 in template 'T' (first defined in "
                                 "row 4)");
    /* The same id in two templates is fine. */
    sheet_set(&s, 6, 15, "U");
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
    assert_int_equal(p->n_templates, 2);
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

/* Quoting (spec §1): "" is a quote, a quote inside a cell is literal, line breaks in quotes are data. */
static void test_quoted_fields(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 7, "\"say \"\"hi\"\"\"");
    sheet_set(&s, 4, 8, "it's a \"quote\"");
    sheet_set(&s, 4, 15, "\"Ready \nor Not\"");
    sheet_set(&s, 4, 12, "\"a\r\nb\ttab\"");
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
    assert_string_equal(p->name, "say \"hi\"");
    assert_string_equal(p->description, "it's a \"quote\"");
    assert_string_equal(p->templates[0].name, "Ready \nor Not");
    assert_string_equal(p->tags, "a\r\nb\ttab");
    assert_int_equal(p->templates[0].zones[1].loc.line, 5);
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

/* CRLF, LF, CR-only and a missing final newline give the same model. */
static void test_line_ends(void **state)
{
    (void)state;
    static const char *const eols[] = {"\r\n", "\n", "\r"};
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t i = 0; i < RMG__ARRAY_LEN(eols); i++) {
        for (int drop_last = 0; drop_last < 2; drop_last++) {
            sheet s;
            sheet_minimal(&s, &L140);
            sheet_set(&s, 4, 22, "+4 0 d d d d");
            s.eol = eols[i];
            size_t len;
            char *text = sheet_text(&s, L140.width, &len);
            if (drop_last)
                len -= strlen(eols[i]);
            struct rmg_pack *p = load_text(ctx, text, len);
            assert_int_equal(p->n_templates, 1);
            assert_int_equal(p->templates[0].n_zones, 2);
            assert_int_equal(p->templates[0].zones[1].loc.line, 5);
            assert_int_equal(p->templates[0].n_connections, 1);
            assert_int_equal(p->templates[0].rules.count, 1);
            assert_int_equal(p->templates[0].zones[1].monster_strength, RMG_MONSTERS_STRONG);
            rmg__pack_free(p);
            free(text);
        }
    }
    rmg_context_destroy(ctx);
}

static void test_not_a_template_and_no_templates(void **state)
{
    (void)state;
    EXPECT_ERROR_LITERAL("", "not a template: the first cell is ''");
    EXPECT_ERROR_LITERAL("{\"json\": 1}", "row 1, column 1: not a template");
    EXPECT_ERROR_LITERAL("Name\tMin\n", "not a template: the first cell is 'Name'");
    EXPECT_ERROR_LITERAL("N\xe4me\x01\tMin\n", "not a template: the first cell is 'N?me?'");
    EXPECT_ERROR_LITERAL("\x89PNG\r\n\x1a\n\0\0", "not a template");
    /* Header-only files (spec §1.2). */
    EXPECT_ERROR_LITERAL("Pack\tMap\nField count\nTown\r\n", "no templates");
    EXPECT_ERROR_LITERAL("Pack", "no templates");
    EXPECT_ERROR_LITERAL("Map\t\nA\nB\n", "row 3, column 1: no templates: the file has only header rows");
    /* Counts but no template name anywhere. */
    EXPECT_ERROR_LITERAL("Pack\n\n\n12\t10\t4\t8\t10\t18\t4\n",
                         "row 4, column 16: no templates: the file has data rows");
    /* A BOM before "Pack" is tolerated. */
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 1, 0, "\xef\xbb\xbfPack");
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

static void test_structure_errors(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 3, "");
    expect_error(&s, L140.width, "row 4, column 4 (Field count/Pack new): the field count is missing");
    sheet_set(&s, 4, 3, "eight");
    expect_error(&s, L140.width, "row 4, column 4 (Field count/Pack new): expected an integer");
    sheet_set(&s, 4, 3, "25");
    expect_error(&s, L140.width, "row 4, column 4 (Field count/Pack new): 25 is out of range 0..24");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 15, "");
    expect_error(&s, L140.width, "row 4, column 29 (Zone/Id): zone or connection before the first template name");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 85, "brutal");
    expect_error(&s, L140.width, "row 4, column 86 (Zone/Monsters/Strength): expected none, weak, avg or strong");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 109, "sky");
    expect_error(&s, L140.width, "row 4, column 110 (Zone/Placement)");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 132, "yes");
    expect_error(&s, L140.width, "row 4, column 133 (Connections/Road)");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 133, "air");
    expect_error(&s, L140.width, "row 4, column 134 (Connections/Type)");
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 128, "-2");
    expect_error(&s, L140.width, "row 4, column 129 (Connections/Zone 2): -2 is out of range");
    EXPECT_ERROR_LITERAL("Pack\n\n\n12\t10\t4\t8\t10\t18\t4\tP\0x\n", "row 4, column 8: NUL byte");
    EXPECT_ERROR_LITERAL("Pack\n\n\n12\t10\t4\t8\t10\t18\t4\t\"P\0x\"\n", "row 4, column 8: NUL byte");
}

/* Stray cells in sections a row does not have are ignored with a warning (spec §3). */
static void test_stray_cells_warn(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 6, 47, "x");        /* zone cell, no zone Id */
    sheet_set(&s, 6, 137, "1");       /* connection cell, no Zone 1 */
    sheet_set(&s, 6, 16, "4");        /* template cell, no template name */
    sheet_set(&s, 6, 9, "-1");        /* pack cell outside row 4 */
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
    assert_non_null(find_warning(p, "row 6, column 48: zone cell on a row without a zone Id ignored"));
    assert_non_null(find_warning(p, "row 6, column 138: connection cell on a row without Zone 1 ignored"));
    assert_non_null(find_warning(p, "row 6, column 17: template cell on a row without a template name"));
    assert_non_null(find_warning(p, "row 6, column 10: pack or field-count cell outside row 4"));
    assert_int_equal(p->templates[0].n_zones, 2);
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

/* Encodings: arbitrary high bytes in free text never break UTF-8 of the model. */
static void test_non_utf8_bytes(void **state)
{
    (void)state;
    char name[256];
    for (int i = 0; i < 255; i++)
        name[i] = (char)(i + 1 == '\t' || i + 1 == '\n' || i + 1 == '\r' || i + 1 == '"' ? 'a' : i + 1);
    name[255] = '\0';
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 8, name);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = load_sheet(ctx, &s, L140.width);
    /* The run of bytes 0xC0.. makes the file cp1251; every byte became a code point and the
     * text is valid UTF-8 (the importer's own detector finds no invalid sequence). */
    size_t n = strlen(p->description);
    assert_true(n > 255);
    assert_int_equal(rmg__h3t_detect_encoding(p->description, n), RMG__H3T_UTF8);
    assert_non_null(strstr(p->description, "\xd0\x90\xd0\x91"));   /* 0xC0 0xC1 = "АБ" */
    rmg__pack_free(p);
    rmg_context_destroy(ctx);
}

/* Appends `count` TABs. */
static size_t tabs(char *out, size_t n, int count)
{
    memset(out + n, '\t', (size_t)count);
    return n + (size_t)count;
}

/* Loading is linear: a template with 20 000 zones and a row of 200 000 cells stay fast and
 * within a fixed multiple of the input size. */
static void test_bounded_time_and_memory(void **state)
{
    (void)state;
    const int zones = 20000;
    size_t cap = (size_t)zones * 64 + 4096, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "Pack\n\n\n12\t10\t4\t8\t10\t18\t4");
    n = tabs(text, n, 9);                      /* to column 15 */
    text[n++] = 'T';
    n = tabs(text, n, 13);                     /* to column 28 */
    for (int z = 1; z <= zones; z++) {
        if (z > 1) {
            text[n++] = '\n';
            n = tabs(text, n, 28);
        }
        n += (size_t)snprintf(text + n, cap - n, "%d\t\t\tx\t\t%d", z, 1 + z % 7);
    }
    text[n] = '\0';
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 1);
    struct rmg_pack *p = NULL;
    clock_t c0 = clock();
    rmg_status st = rmg__h3t_read(ctx, text, n, "big.h3t", &p);
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (st != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    assert_int_equal(p->templates[0].n_zones, (size_t)zones);
    assert_true(secs < 5.0);
    assert_true(ta.peak_bytes < 64 * n + (1u << 20));
    rmg__pack_free(p);
    /* The same zones with one duplicate id at the end: found in O(n log n). */
    n += (size_t)snprintf(text + n, cap - n, "\n");
    n = tabs(text, n, 28);
    n += (size_t)snprintf(text + n, cap - n, "77\t\t\tx\t\t3");
    st = rmg__h3t_read(ctx, text, n, "big.h3t", &p);
    assert_int_equal(st, RMG_ERR_PARSE);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "duplicate zone id 77"));
    /* One row of 200 000 empty cells after a valid template. */
    size_t wide = 200000;
    char *row = malloc(n + wide + 2);
    memcpy(row, text, n);
    row[n] = '\n';
    memset(row + n + 1, '\t', wide);
    ta.peak_bytes = ta.live_bytes;
    st = rmg__h3t_read(ctx, row, n + 1 + wide, "wide.h3t", &p);
    assert_int_equal(st, RMG_ERR_PARSE);   /* the duplicate is still there */
    assert_true(ta.peak_bytes < 64 * (n + wide) + (1u << 20));
    free(row);
    rmg_context_destroy(ctx);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_every_prefix),
        cmocka_unit_test(test_mutations_never_crash),
        cmocka_unit_test(test_missing_columns_are_empty),
        cmocka_unit_test(test_extra_columns_warn),
        cmocka_unit_test(test_huge_numbers),
        cmocka_unit_test(test_negative_sizes),
        cmocka_unit_test(test_duplicate_zone_ids),
        cmocka_unit_test(test_quoted_fields),
        cmocka_unit_test(test_line_ends),
        cmocka_unit_test(test_not_a_template_and_no_templates),
        cmocka_unit_test(test_structure_errors),
        cmocka_unit_test(test_stray_cells_warn),
        cmocka_unit_test(test_non_utf8_bytes),
        cmocka_unit_test(test_bounded_time_and_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
