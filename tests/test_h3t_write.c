/* The HotA .h3t writer (issue 21 point 5): templates back to HotA. For every corpus h3t file,
 * h3t -> YAML -> h3t gives the same cells and YAML -> h3t -> YAML the same YAML; the 1.7 and 1.8
 * layouts, quoting and code pages, object rules and hints composed from YAML, and what h3t
 * cannot hold, reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "template/h3t/h3t.h"
#include "template/model.h"

/* ---- helpers ------------------------------------------------------------------------------------ */

static rmg_pack *load_text(rmg_context *ctx, const char *text, size_t len, const char *name, rmg_template_format f)
{
    rmg_pack *p = NULL;
    if (rmg_pack_load_string(ctx, text, len, name, f, &p) != RMG_OK)
        fail_msg("%s: %s", name, rmg_context_errmsg(ctx));
    return p;
}

static rmg_pack *load_yaml(rmg_context *ctx, const char *yaml)
{
    return load_text(ctx, yaml, strlen(yaml), "t.yaml", RMG_FORMAT_YAML);
}

typedef struct warnings {
    char text[4096];
    size_t count;
} warnings;

static void collect_warning(void *user, const char *message)
{
    warnings *w = user;
    size_t n = strlen(w->text);
    snprintf(w->text + n, sizeof w->text - n, "%s\n", message);
    w->count++;
}

/* The pack as h3t (version v), warnings into *w (may be NULL). Not inlined: gcc 12's
 * -Wdangling-pointer then takes the returned text for the local it was stored in. */
__attribute__((noinline)) static char *to_h3t(const rmg_pack *p, rmg_h3t_version v, warnings *w, size_t *len)
{
    rmg_h3t_write_options o;
    rmg_h3t_write_options_init(&o);
    o.version = v;
    if (w) {
        memset(w, 0, sizeof *w);
        o.warn = collect_warning;
        o.warn_user = w;
    }
    char *out = NULL;
    assert_int_equal(rmg_pack_to_h3t(p, &o, &out, len), RMG_OK);
    assert_non_null(out);
    return out;
}

static char *to_yaml(const rmg_pack *p)
{
    char *out = NULL;
    assert_int_equal(rmg_pack_to_yaml(p, &out, NULL), RMG_OK);
    return out;
}

/* ---- cells of a file ----------------------------------------------------------------------------- */

typedef struct sheet {
    char ***rows;      /* rows[r][c], UTF-8 */
    size_t *widths;
    size_t n_rows;
} sheet;

static void sheet_push_cell(char ***row, size_t *width, const char *s, size_t n)
{
    *row = realloc(*row, (*width + 1) * sizeof **row);
    (*row)[*width] = strndup(s, n);
    (*width)++;
}

/* Splits the records (quoted cells may hold line breaks) after decoding the file's code page, as
 * the reader does. */
static sheet sheet_read(const char *data, size_t len)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__arena arena;
    rmg__arena_init(&arena, ctx, 1 << 16);
    const char *text = rmg__h3t_to_utf8(&arena, data, len, rmg__h3t_detect_encoding(data, len));
    assert_non_null(text);
    sheet sh = {0};
    char **row = NULL;
    size_t width = 0, n = strlen(text);
    char *cell = malloc(n + 1);
    size_t c = 0;
    bool start = true;
    for (size_t i = 0; i <= n; i++) {
        char ch = i < n ? text[i] : '\n';
        if (start && ch == '"') {
            for (i++; i < n && !(text[i] == '"' && (i + 1 >= n || text[i + 1] != '"')); i++) {
                cell[c++] = text[i];
                if (text[i] == '"')
                    i++;
            }
            start = false;
            continue;
        }
        start = false;
        if (ch == '\t' || ch == '\r' || ch == '\n') {
            sheet_push_cell(&row, &width, cell, c);
            c = 0;
            start = true;
            if (ch == '\t')
                continue;
            if (ch == '\r' && i + 1 < n && text[i + 1] == '\n')
                i++;
            sh.rows = realloc(sh.rows, (sh.n_rows + 1) * sizeof *sh.rows);
            sh.widths = realloc(sh.widths, (sh.n_rows + 1) * sizeof *sh.widths);
            sh.rows[sh.n_rows] = row;
            sh.widths[sh.n_rows++] = width;
            row = NULL;
            width = 0;
            if (i + 1 >= n)
                break;
            continue;
        }
        cell[c++] = ch;
    }
    free(cell);
    rmg__arena_free(&arena);
    rmg_context_destroy(ctx);
    return sh;
}

static void sheet_free(sheet *sh)
{
    for (size_t r = 0; r < sh->n_rows; r++) {
        for (size_t c = 0; c < sh->widths[r]; c++)
            free(sh->rows[r][c]);
        free(sh->rows[r]);
    }
    free(sh->rows);
    free(sh->widths);
}

static const char *sheet_cell(const sheet *sh, size_t r, int c)
{
    return r < sh->n_rows && c >= 0 && (size_t)c < sh->widths[r] ? sh->rows[r][c] : "";
}

/* The cell as compared: runs of spaces are one space and spaces at the ends do not count (the
 * editor ends some lists with a space, others not). */
static void normalized(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    bool space = false;
    for (; *s == ' '; s++)
        ;
    for (; *s && o + 2 < cap; s++) {
        if (*s == ' ') {
            space = true;
            continue;
        }
        if (space)
            out[o++] = ' ';
        space = false;
        out[o++] = *s;
    }
    out[o] = '\0';
}

/* Columns whose empty cell means 0 (or 1) so a cell spelling that out is the same cell. */
static const char *default_of(const rmg__h3t_layout *l, int col)
{
    const char *name = rmg__h3t_column_name(l, col);
    static const char *const zero[] = {"Minimum human positions", "Maximum human positions", "Minimum total positions",
                                       "Maximum total positions", "Ownership", "Minimum towns", "Minimum castles",
                                       "Town Density", "Castle Density", "Low", "High", "Density", "Value",
                                       "Max Battle Rounds", "Minimum airship shipyards", "Airship shipyard Density",
                                       "Max block value", "Monsters disposition (custom)"};
    if (col >= l->z_mines && col < l->z_match_terrain)
        return "0";   /* mines and mine densities */
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (strcmp(name, zero[i]) == 0)
            return "0";
    return strcmp(name, "Base Size") == 0 || strcmp(name, "Zone sparseness") == 0 ? "1" : NULL;
}

static bool same_cell(const rmg__h3t_layout *l, int col, const char *a, const char *b)
{
    char x[4096], y[4096];
    normalized(a, x, sizeof x);
    normalized(b, y, sizeof y);
    if (strcmp(x, y) == 0)
        return true;
    const char *def = default_of(l, col);
    return def && ((!*x && strcmp(y, def) == 0) || (!*y && strcmp(x, def) == 0));
}

/* What a data row holds of a template: the cells of [from, to) (NULL when absent). */
typedef struct part {
    size_t row;
} part;

typedef struct parts {
    part *items;
    size_t count;
} parts;

static void parts_push(parts *p, size_t row)
{
    p->items = realloc(p->items, (p->count + 1) * sizeof *p->items);
    p->items[p->count++].row = row;
}

/* The rows of a file's templates: map starts, zones, and connections without the placeholder
 * "0 0" connections (the reader ignores them: they join no zone). */
typedef struct layout_rows {
    parts maps, zones, connections;
} layout_rows;

static bool blank(const char *s)
{
    for (; *s == ' '; s++)
        ;
    return !*s;
}

static layout_rows rows_of(const sheet *sh, const rmg__h3t_layout *l)
{
    layout_rows lr = {0};
    for (size_t r = 3; r < sh->n_rows; r++) {
        if (!blank(sheet_cell(sh, r, l->map0)))
            parts_push(&lr.maps, r);
        if (!blank(sheet_cell(sh, r, l->zone0)))
            parts_push(&lr.zones, r);
        const char *a = sheet_cell(sh, r, l->conn0), *b = sheet_cell(sh, r, l->conn0 + 1);
        if (!blank(a) && !(strcmp(a, "0") == 0 && strcmp(b, "0") == 0))
            parts_push(&lr.connections, r);
    }
    return lr;
}

static void rows_free(layout_rows *lr)
{
    free(lr->maps.items);
    free(lr->zones.items);
    free(lr->connections.items);
}

/* Compares the cells [from, to) of the rows of two lists; the first difference goes to why. */
static size_t compare_parts(const sheet *a, const sheet *b, const rmg__h3t_layout *l, const parts *pa,
                            const parts *pb, int from, int to, const char *what, char *why, size_t cap)
{
    if (pa->count != pb->count) {
        if (!*why)
            snprintf(why, cap, "%zu %s rows, written %zu", pa->count, what, pb->count);
        return 1;
    }
    size_t differ = 0;
    for (size_t i = 0; i < pa->count; i++)
        for (int c = from; c < to; c++) {
            const char *x = sheet_cell(a, pa->items[i].row, c), *y = sheet_cell(b, pb->items[i].row, c);
            if (same_cell(l, c, x, y))
                continue;
            if (!differ++ && !*why)
                snprintf(why, cap, "row %zu, column %d (%s): '%.80s', written '%.80s'", pa->items[i].row + 1, c + 1,
                         rmg__h3t_column_name(l, c), x, y);
        }
    return differ;
}

/* The number of cells of `written` that differ from `original` (same layout), why the first. */
static size_t cells_differ(const char *original, size_t olen, const char *written, size_t wlen, char *why, size_t cap)
{
    sheet a = sheet_read(original, olen), b = sheet_read(written, wlen);
    why[0] = '\0';
    assert_true(a.n_rows > 3 && b.n_rows > 3);
    rmg__h3t_counts counts;
    int *v[7] = {&counts.towns, &counts.terrains, &counts.zone_types, &counts.pack, &counts.map, &counts.zone,
                 &counts.connection};
    for (int i = 0; i < 7; i++) {
        *v[i] = atoi(sheet_cell(&a, 3, i));
        assert_string_equal(sheet_cell(&a, 3, i), sheet_cell(&b, 3, i));   /* the layout is kept */
    }
    rmg__h3t_layout l;
    rmg__h3t_layout_of(&l, &counts);
    layout_rows ra = rows_of(&a, &l), rb = rows_of(&b, &l);
    parts first_a = {ra.maps.items, 1}, first_b = {rb.maps.items, 1};
    size_t differ = compare_parts(&a, &b, &l, &first_a, &first_b, 0, l.map0, "pack", why, cap);
    differ += compare_parts(&a, &b, &l, &ra.maps, &rb.maps, l.map0, l.zone0, "template", why, cap);
    differ += compare_parts(&a, &b, &l, &ra.zones, &rb.zones, l.zone0, l.conn0, "zone", why, cap);
    differ += compare_parts(&a, &b, &l, &ra.connections, &rb.connections, l.conn0, l.width, "connection", why, cap);
    rows_free(&ra);
    rows_free(&rb);
    sheet_free(&a);
    sheet_free(&b);
    return differ;
}

/* ---- plain tests ----------------------------------------------------------------------------------- */

static char small_yaml[] = /* not const: the allocation sweep passes it as void * */
    "version: 1\n"
    "name: \"Pack \\\"one\\\"\"\n"
    "description: |\n"
    "  Two lines,\n"
    "  the second one.\n"
    "templates:\n"
    "  - name: Pair\n"
    "    min_size: 4\n"
    "    max_size: 18\n"
    "    rock_masses: true\n"
    "    rock_radius: 0.8\n"
    "    zone_sparseness: 0.35\n"
    "    artifacts: [+83, -7]\n"
    "    rules:\n"
    "      - {op: forbid, target: all}\n"
    "      - {op: allow, target: object, object: arena, value: 5000, frequency: 50, max_zone: 2}\n"
    "      - {op: allow, target: family, family: creature_dwelling, frequency: 40}\n"
    "      - {op: allow, target: creature, family: creature_dwelling, creature: pikeman, frequency: 40}\n"
    "      - {op: allow, target: creature_level, family: pandora_creatures, level: 3}\n"
    "      - {op: allow, target: custom, family: pandora_spells, spell_min: 1, spell_max: 3, schools: 5}\n"
    "      - {op: allow, target: custom, family: prison, amount: 7000}\n"
    "      - {op: allow, target: object, object: pandora_gold_5000}\n"
    "      - {op: forbid, target: family, family: pandora_spells}\n"
    "      - {op: allow, target: object, object: keymaster_tent_7500, value: 7500, frequency: 3}\n"
    "    zones:\n"
    "      - id: 1\n"
    "        kind: human_start\n"
    "        owner: 1\n"
    "        size: 20\n"
    "        player_towns: {castles: 1}\n"
    "        allowed_towns: [castle, rampart]\n"
    "        type_rules:\n"
    "          - {kind: town_same, negate: true, zone_a: 1, town_a: -1, zone_b: 2, town_b: -1}\n"
    "          - {kind: terrain_same, zone_a: 1, zone_b: 2}\n"
    "        mirror_links:\n"
    "          - {surface: two_way, underground: gate, surface_color: 3, underground_color: -1, value: 600,"
    " roads: true, h3t_row: 1}\n"
    "        treasure:\n"
    "          - {min: 500, max: 3000, density: 9}\n"
    "      - id: 2\n"
    "        kind: human_start\n"
    "        owner: 2\n"
    "        size: 20.5\n"
    "        player_towns: {castles: 1}\n"
    "        monsters: {strength: strong, factions: [neutral, castle], mood: exact, mood_value: 7, join_percent: 75}\n"
    "        treasure:\n"
    "          - {min: 500, max: 3000, density: 9}\n"
    "    connections:\n"
    "      - {a: 1, b: 2, value: 4000, roads: mandatory}\n"
    "      - {a: 1, b: 2, type: wide, placement: underground_gate, value: 0}\n";

/* A pack of our own through h3t and back: the same YAML, and h3t the same bytes again. */
static void test_yaml_h3t_yaml_is_the_same_yaml(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *a = load_yaml(ctx, small_yaml);
    char *ya = to_yaml(a);
    for (rmg_h3t_version v = RMG_H3T_1_7; v <= RMG_H3T_1_8; v++) {
        size_t len;
        warnings w;
        char *h3t = to_h3t(a, v, &w, &len);
        if (w.count)
            fail_msg("unexpected warnings: %s", w.text);
        rmg_pack *b = load_text(ctx, h3t, len, "t.h3t", RMG_FORMAT_AUTO);
        char why[256];
        b->h3t_columns = a->h3t_columns;   /* where it came from is no setting */
        if (!rmg__pack_equal(a, b, why, sizeof why))
            fail_msg("h3t %d changed %s", (int)v, why);
        char *yb = to_yaml(b);
        assert_string_equal(ya, yb);
        size_t len2;
        char *again = to_h3t(b, v, NULL, &len2);
        assert_int_equal(len, len2);
        assert_memory_equal(h3t, again, len);
        rmg_free(ctx, again);
        rmg_free(ctx, yb);
        rmg_pack_destroy(b);
        rmg_free(ctx, h3t);
    }
    rmg_free(ctx, ya);
    rmg_pack_destroy(a);
    rmg_context_destroy(ctx);
}

/* The header rows and the field counts of each layout; rows end with CRLF and one empty cell. */
static void test_layouts(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_yaml(ctx, small_yaml);
    const struct { rmg_h3t_version v; const char *counts; int width; } cases[] = {
        {RMG_H3T_1_7, "11\t10\t4\t8\t10\t18\t4\t", 138}, {RMG_H3T_1_8, "12\t10\t4\t8\t10\t18\t4\t", 140},
        {RMG_H3T_AUTO, "12\t10\t4\t8\t10\t18\t4\t", 140}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *h3t = to_h3t(p, cases[i].v, NULL, &len);
        sheet sh = sheet_read(h3t, len);
        assert_true(sh.n_rows >= 5);
        assert_string_equal(sheet_cell(&sh, 0, 0), "Pack");
        assert_string_equal(sheet_cell(&sh, 1, 0), "Field count");
        assert_string_equal(sheet_cell(&sh, 2, cases[i].width - 1), "Maximum total positions");
        assert_int_equal(sh.widths[2], (size_t)cases[i].width);
        assert_int_equal(sh.widths[3], (size_t)cases[i].width + 1);
        const char *row4 = strstr(h3t, "\r\n");
        for (int r = 0; r < 2; r++)
            row4 = strstr(row4 + 2, "\r\n");
        assert_memory_equal(row4 + 2, cases[i].counts, strlen(cases[i].counts));
        assert_string_equal(sheet_cell(&sh, 2, cases[i].width == 140 ? 59 : 58),
                            cases[i].width == 140 ? "Bulwark" : "Factory");
        sheet_free(&sh);
        rmg_free(ctx, h3t);
    }
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* Free text in the code page that holds it (quoted when it spans lines, quotes doubled). */
static void test_text_and_code_pages(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static char western[] = "Caf\xc3\xa9 \xe2\x80\x99s", cyrillic[] = "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
                other[] = "\xe2\x9c\x93 check";
    char *names[] = {western, cyrillic, other};
    const unsigned char first_byte[] = {'C', 0xCF, 0xE2};   /* cp1252 'C', cp1251 'П', UTF-8 */
    for (size_t i = 0; i < 3; i++) {
        rmg_pack *p = load_yaml(ctx, small_yaml);
        p->templates[0].name = names[i];
        size_t len;
        char *h3t = to_h3t(p, RMG_H3T_AUTO, NULL, &len);
        const char *row4 = strstr(strstr(strstr(h3t, "\r\n") + 2, "\r\n") + 2, "\r\n") + 2;
        assert_non_null(strstr(row4, "\t\"Two lines,\nthe second one.\n\"\t"));
        assert_non_null(strstr(row4, "\tPack \"one\"\t"));
        const char *name = row4;
        for (int c = 0; c < 15; c++)
            name = strchr(name, '\t') + 1;
        assert_int_equal((unsigned char)name[0], first_byte[i]);
        rmg_pack *back = load_text(ctx, h3t, len, "t.h3t", RMG_FORMAT_AUTO);
        assert_string_equal(back->templates[0].name, names[i]);
        assert_string_equal(back->description, p->description);
        rmg_pack_destroy(back);
        rmg_free(ctx, h3t);
        rmg_pack_destroy(p);
    }
    rmg_context_destroy(ctx);
}

/* What no h3t column holds is left out and named, once each. */
static void test_what_h3t_cannot_hold_is_reported(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_yaml(ctx, small_yaml);
    rmg__template *t = &p->templates[0];
    t->players.max_total = 2;
    t->zones[1].kind = RMG_ZONE_WATER;
    t->zones[1].allowed_towns = 1u << 11;   /* Bulwark: a 1.8 town */
    t->rules.items[1].extra = 520;          /* the 1.8 extra token */
    static char unknown[] = "no_such_family";
    t->rules.items[2].family = unknown;
    warnings w;
    size_t len;
    char *h3t = to_h3t(p, RMG_H3T_1_7, &w, &len);
    const char *expected[] = {"water zone kind", "town types beyond the 11 columns", "1.8 extra field",
                              "template object rule 3 left out"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!strstr(w.text, expected[i]))
            fail_msg("no warning with '%s' in:\n%s", expected[i], w.text);
    assert_int_equal(w.count, 4);   /* the player filter is held by the zones' restrictions */
    rmg_free(ctx, h3t);
    h3t = to_h3t(p, RMG_H3T_1_8, &w, &len);   /* 1.8 holds Bulwark and the extra token */
    assert_int_equal(w.count, 2);
    rmg_free(ctx, h3t);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* Every kind of object rule written from YAML reads back as the same rule. */
static void test_composed_rules_read_back(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_yaml(ctx, small_yaml);
    size_t len;
    char *h3t = to_h3t(p, RMG_H3T_1_8, NULL, &len);
    assert_non_null(strstr(h3t, "-n +4 0 5000 50 d 2 d +17 n d 40 d d d +17 56 d 40 d d +6 0 0 L 2 d d d d d "
                                "+6 0 3 1 3 5 d d d d d +62 0 7000 d d d d +6 0 2 5000 d d d d d -6 0 3 "
                                "+10 n 7500 3 d d d "));
    assert_non_null(strstr(h3t, "\tpd2_p \t"));   /* the town hint */
    assert_non_null(strstr(h3t, "\ts2 \t"));      /* the terrain hint, in its own cell */
    rmg_pack *back = load_text(ctx, h3t, len, "t.h3t", RMG_FORMAT_AUTO);
    const rmg__rule_list *a = &p->templates[0].rules, *b = &back->templates[0].rules;
    assert_int_equal(a->count, b->count);
    char why[256];
    back->h3t_columns = p->h3t_columns;
    if (!rmg__pack_equal(p, back, why, sizeof why))
        fail_msg("changed: %s", why);
    rmg_pack_destroy(back);
    rmg_free(ctx, h3t);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* The built-in pack opens in HotA and writes without losses (issue 29): h3t has no column for a
 * template's player filter, so each zone's restrictions take it in (the narrower bounds of the
 * two), which admits the same setups. */
static void test_builtin_pack_to_h3t(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_builtin(ctx, &p), RMG_OK);
    warnings w;
    size_t len;
    char *h3t = to_h3t(p, RMG_H3T_AUTO, &w, &len);
    assert_int_equal(w.count, 0);
    rmg_pack *back = load_text(ctx, h3t, len, "b.h3t", RMG_FORMAT_AUTO);
    /* Duet is for 2 players: its zones now say so. */
    assert_string_equal(back->templates[0].name, "Duet");
    assert_int_equal(back->templates[0].zones[0].players.min_total, 2);
    assert_int_equal(back->templates[0].zones[0].players.max_total, 2);
    for (size_t i = 0; i < p->n_templates; i++) {
        const rmg__player_filter *tf = &p->templates[i].players;
        const rmg__player_filter none = {0, 0, 0, 0};
        assert_memory_equal(&back->templates[i].players, &none, sizeof none);
        for (size_t k = 0; k < p->templates[i].n_zones; k++) {
            const rmg__player_filter *zf = &p->templates[i].zones[k].players, *bf = &back->templates[i].zones[k].players;
            assert_int_equal(bf->min_total, zf->min_total > tf->min_total ? zf->min_total : tf->min_total);
            assert_int_equal(bf->max_total, !zf->max_total ? tf->max_total
                                            : !tf->max_total ? zf->max_total
                                            : zf->max_total < tf->max_total ? zf->max_total : tf->max_total);
            assert_int_equal(bf->min_human, zf->min_human > tf->min_human ? zf->min_human : tf->min_human);
            back->templates[i].zones[k].players = *zf;
        }
        back->templates[i].players = *tf;
    }

    char why[256];
    if (!rmg__pack_equal(p, back, why, sizeof why))
        fail_msg("changed: %s", why);
    rmg_pack_destroy(back);
    rmg_free(ctx, h3t);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_yaml(ctx, small_yaml);
    char *out = (char *)1;
    assert_int_equal(rmg_pack_to_h3t(NULL, NULL, &out, NULL), RMG_ERR_INVALID_ARG);
    assert_null(out);
    assert_int_equal(rmg_pack_to_h3t(p, NULL, NULL, NULL), RMG_ERR_INVALID_ARG);
    rmg_h3t_write_options o;
    rmg_h3t_write_options_init(&o);
    o.version = (rmg_h3t_version)9;
    assert_int_equal(rmg_pack_to_h3t(p, &o, &out, NULL), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_pack_save_h3t(p, NULL, "/nonexistent-dir/x.h3t"), RMG_ERR_IO);
    assert_int_equal(rmg_pack_to_h3t(p, NULL, &out, NULL), RMG_OK);   /* NULL options: AUTO */
    rmg_free(ctx, out);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static rmg_status write_op(rmg_context *ctx, void *user)
{
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, user, strlen(user), "t.yaml", RMG_FORMAT_YAML, &p);
    char *out = NULL;
    if (st == RMG_OK)
        st = rmg_pack_to_h3t(p, NULL, &out, NULL);
    rmg_free(ctx, out);
    rmg_pack_destroy(p);
    return st;
}

static void test_allocation_failures(void **state)
{
    (void)state;
    print_message("writer needs %zu allocations\n", rmg_test_oom_sweep(write_op, small_yaml, 0, 1));
}

/* ---- over the corpus ------------------------------------------------------------------------------- */

typedef struct corpus_tally {
    size_t files, same_cells, same_yaml, templates, zero_ranges;
} corpus_tally;

static void round_trip_corpus_file(rmg_context *ctx, const char *path, corpus_tally *t)
{
    size_t olen = 0;
    char *original = rmg_test_read_file(path, &olen);
    assert_non_null(original);
    rmg_pack *p = NULL;
    if (strncmp(original, "Pack", 4) != 0 || rmg_pack_load_string(ctx, original, olen, path, RMG_FORMAT_AUTO, &p)) {
        free(original);   /* SoD packs and the two header-only files */
        return;
    }
    t->files++;
    t->templates += p->n_templates;
    /* h3t -> YAML -> h3t: the same cells as the original, and the same bytes as h3t -> h3t. */
    char *yaml = to_yaml(p);
    /* Issue 29: an empty treasure range is left out (or `{}` before a full one), never spelt out. */
    if (strstr(yaml, "{min: 0, max: 0, density: 0}")) {
        print_message("%s: the YAML spells out an empty treasure range\n", path);
        t->zero_ranges++;
    }
    rmg_pack *from_yaml = load_yaml(ctx, yaml);
    size_t direct_len, len;
    char *direct = to_h3t(p, RMG_H3T_AUTO, NULL, &direct_len);
    char *h3t = to_h3t(from_yaml, RMG_H3T_AUTO, NULL, &len);
    assert_int_equal(direct_len, len);
    assert_memory_equal(direct, h3t, len);
    char why[300];
    size_t differ = cells_differ(original, olen, h3t, len, why, sizeof why);
    if (differ)
        print_message("%s: %zu cells differ, first %s\n", path, differ, why);
    t->same_cells += differ == 0;
    /* YAML -> h3t -> YAML: the same YAML. */
    rmg_pack *back = load_text(ctx, h3t, len, "back.h3t", RMG_FORMAT_AUTO);
    char *again = to_yaml(back);
    if (strcmp(yaml, again) != 0)
        print_message("%s: YAML -> h3t -> YAML changed the YAML\n", path);
    t->same_yaml += strcmp(yaml, again) == 0;
    rmg_free(ctx, again);
    rmg_pack_destroy(back);
    rmg_free(ctx, h3t);
    rmg_free(ctx, direct);
    rmg_pack_destroy(from_yaml);
    rmg_free(ctx, yaml);
    rmg_pack_destroy(p);
    free(original);
}

/* Runs fn over the files of a corpus folder (a sample, unless the run is a full one). */
static void over_corpus(const char *folder, void (*fn)(rmg_context *, const char *, corpus_tally *), corpus_tally *t)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    char **files = rmg_test_corpus_files(folder, "");
    for (char **f = files; *f; f++)
        fn(ctx, *f, t);
    rmg_test_free_list(files);
    rmg_context_destroy(ctx);
}

static void test_corpus_round_trips(void **state)
{
    (void)state;
    rmg_test_need_shared("corpus/h3t");
    corpus_tally t = {0};
    over_corpus("corpus/h3t", round_trip_corpus_file, &t);
    print_message("corpus h3t: %zu files (%zu templates): h3t -> YAML -> h3t the same cells for %zu, "
                  "YAML -> h3t -> YAML the same YAML for %zu\n", t.files, t.templates, t.same_cells, t.same_yaml);
    assert_true(t.files >= rmg_test_corpus_expect(100));
    assert_int_equal(t.same_cells, t.files);
    assert_int_equal(t.same_yaml, t.files);
    assert_int_equal(t.zero_ranges, 0);
}

/* A SoD pack written as HotA h3t reads back as the same templates (same_cells counts them). */
static void sod_file_to_h3t(rmg_context *ctx, const char *path, corpus_tally *t)
{
    rmg_pack *p = NULL;
    if (rmg_pack_load(ctx, path, RMG_FORMAT_AUTO, &p) != RMG_OK)
        return;
    t->files++;
    size_t len;
    char *h3t = to_h3t(p, RMG_H3T_AUTO, NULL, &len);
    rmg_pack *back = load_text(ctx, h3t, len, path, RMG_FORMAT_AUTO);
    back->name = p->name;   /* SoD packs have no name; the h3t file needs one */
    char why[256];
    if (rmg__pack_equal(p, back, why, sizeof why))
        t->same_cells++;
    else
        print_message("%s: changed %s\n", path, why);
    rmg_pack_destroy(back);
    rmg_free(ctx, h3t);
    rmg_pack_destroy(p);
}

static void test_sod_corpus_to_h3t(void **state)
{
    (void)state;
    rmg_test_need_shared("corpus/sod");
    corpus_tally t = {0};
    over_corpus("corpus/sod", sod_file_to_h3t, &t);
    print_message("corpus sod: %zu packs written as h3t, %zu read back the same\n", t.files, t.same_cells);
    assert_true(t.files >= rmg_test_corpus_expect(40));
    assert_int_equal(t.same_cells, t.files);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_yaml_h3t_yaml_is_the_same_yaml),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_text_and_code_pages),
        cmocka_unit_test(test_what_h3t_cannot_hold_is_reported),
        cmocka_unit_test(test_composed_rules_read_back),
        cmocka_unit_test(test_builtin_pack_to_h3t),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_allocation_failures),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_round_trips),
        cmocka_unit_test(test_sod_corpus_to_h3t),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
