/* Test fixture for the h3t importer tests: builds small h3t / rmg.txt files cell by cell, with
 * column numbers taken from Appendix A of ../shared/spec/h3t-format.md (0-based). */
#ifndef TEST_H3T_SHEET_H
#define TEST_H3T_SHEET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "template/h3t/h3t.h"
#include "template/importers.h"

#define SHEET_ROWS 32
#define SHEET_COLS 160

typedef struct sheet {
    const char *cell[SHEET_ROWS][SHEET_COLS];
    int rows;                 /* rows written (1-based count) */
    const char *eol;          /* record terminator, "\r\n" unless changed */
} sheet;

/* Column anchors of one layout (Appendix A). */
typedef struct layout_cols {
    const char *counts[7];    /* row-4 field counts; counts[0] == NULL for SoD */
    int width;
    int map_name, map_objects, zone_id, base_size, town0, terrain0, strength, treasure0, placement, zone_objects,
        town_hint, conn0, value, guard, road, conn_restr;
} layout_cols;

/* 12/8/18 (HotA 1.8): the layout every per-field test uses. */
RMG__UNUSED static const layout_cols L140 = {{"12", "10", "4", "8", "10", "18", "4"}, 140, 15, 22, 28, 33, 48, 75, 85, 100, 109,
                                 110, 116, 127, 129, 131, 132, 136};
RMG__UNUSED static const layout_cols L138 = {{"11", "10", "4", "8", "10", "18", "4"}, 138, 15, 22, 28, 33, 48, 74, 84, 98, 107,
                                 108, 114, 125, 127, 129, 130, 134};
RMG__UNUSED static const layout_cols L137 = {{"11", "10", "4", "8", "10", "17", "4"}, 137, 15, 22, 28, 33, 48, 74, 84, 98, 107,
                                 108, 114, 124, 126, 128, 129, 133};
RMG__UNUSED static const layout_cols L135 = {{"11", "10", "4", "8", "10", "15", "4"}, 135, 15, 22, 28, 33, 48, 74, 84, 98, 107,
                                 108, 114, 122, 124, 126, 127, 131};
RMG__UNUSED static const layout_cols L129 = {{"10", "10", "4", "7", "10", "12", "4"}, 129, 14, 21, 27, 32, 47, 72, 82, 95, 104,
                                 105, 111, 116, 118, 120, 121, 125};
RMG__UNUSED static const layout_cols LSOD = {{NULL}, 85, 0, -1, 3, 8, 23, 47, 55, 67, -1, -1, -1, 76, 78, 80, -1, 81};

RMG__UNUSED static void sheet_set(sheet *s, int row, int col, const char *v)
{
    assert_true(row >= 1 && row <= SHEET_ROWS && col >= 0 && col < SHEET_COLS);
    s->cell[row - 1][col] = v;
    if (row > s->rows)
        s->rows = row;
}

/* Header rows and (HotA) the row-4 counts. */
RMG__UNUSED static void sheet_init(sheet *s, const layout_cols *l)
{
    memset(s, 0, sizeof *s);
    s->eol = "\r\n";
    sheet_set(s, 1, 0, l->counts[0] ? "Pack" : "Map");
    sheet_set(s, 2, 0, l->counts[0] ? "Field count" : "");
    sheet_set(s, 3, 0, l->counts[0] ? "Town" : "Name");
    for (int i = 0; l->counts[0] && i < 7; i++)
        sheet_set(s, 4, i, l->counts[i]);
}

/* A minimal valid template in rows 4..: template "T" with zones 1 (human start, owner 1) and
 * 2 (treasure) and one connection 1-2 of value 5000. */
RMG__UNUSED static void sheet_minimal(sheet *s, const layout_cols *l)
{
    sheet_init(s, l);
    sheet_set(s, 4, l->map_name, "T");
    sheet_set(s, 4, l->map_name + 1, "1");
    sheet_set(s, 4, l->map_name + 2, "98");
    sheet_set(s, 4, l->zone_id, "1");
    sheet_set(s, 4, l->zone_id + 1, "x");
    sheet_set(s, 4, l->base_size, "10");
    sheet_set(s, 4, l->strength, "avg");
    sheet_set(s, 5, l->zone_id, "2");
    sheet_set(s, 5, l->zone_id + 3, "x");
    sheet_set(s, 5, l->base_size, "20");
    sheet_set(s, 5, l->strength, "strong");
    sheet_set(s, 4, l->conn0, "1");
    sheet_set(s, 4, l->conn0 + 1, "2");
    sheet_set(s, 4, l->value, "5000");
}

/* Serialises with TABs, each row padded to `width` cells. Free with free(). */
RMG__UNUSED static char *sheet_text(const sheet *s, int width, size_t *len)
{
    size_t cap = 1024, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (int r = 0; r < s->rows; r++) {
        for (int c = 0; c < width; c++) {
            const char *v = c < SHEET_COLS && s->cell[r][c] ? s->cell[r][c] : "";
            size_t need = n + strlen(v) + strlen(s->eol) + 2;
            if (need >= cap) {
                while (need >= cap)
                    cap *= 2;
                out = realloc(out, cap);
                assert_non_null(out);
            }
            if (c)
                out[n++] = '\t';
            memcpy(out + n, v, strlen(v));
            n += strlen(v);
        }
        memcpy(out + n, s->eol, strlen(s->eol));
        n += strlen(s->eol);
    }
    out[n] = '\0';
    *len = n;
    return out;
}

/* Loads text that must load; returns the pack (free with rmg__pack_free + destroy ctx). */
RMG__UNUSED static struct rmg_pack *load_text(rmg_context *ctx, const char *text, size_t len)
{
    struct rmg_pack *p = NULL;
    rmg_status st = rmg__h3t_read(ctx, text, len, "test.h3t", &p);
    if (st != RMG_OK)
        fail_msg("load failed: %s", rmg_context_errmsg(ctx));
    assert_non_null(p);
    return p;
}

RMG__UNUSED static struct rmg_pack *load_sheet(rmg_context *ctx, const sheet *s, int width)
{
    size_t len;
    char *text = sheet_text(s, width, &len);
    struct rmg_pack *p = load_text(ctx, text, len);
    free(text);
    return p;
}

/* Loading must fail with a parse error whose message contains `needle`. */
RMG__UNUSED static void expect_error_text(const char *text, size_t len, const char *needle)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    struct rmg_pack *p = (struct rmg_pack *)1;
    rmg_status st = rmg__h3t_read(ctx, text, len, "bad.h3t", &p);
    assert_int_not_equal(st, RMG_OK);
    assert_null(p);
    const char *msg = rmg_context_errmsg(ctx);
    if (!strstr(msg, needle))
        fail_msg("error '%s' does not contain '%s'", msg, needle);
    rmg_context_destroy(ctx);
}

RMG__UNUSED static void expect_error(const sheet *s, int width, const char *needle)
{
    size_t len;
    char *text = sheet_text(s, width, &len);
    expect_error_text(text, len, needle);
    free(text);
}

/* The warning that contains `needle`, or NULL. */
RMG__UNUSED static const char *find_warning(const struct rmg_pack *p, const char *needle)
{
    for (size_t i = 0; i < p->n_warnings; i++)
        if (strstr(p->warnings[i], needle))
            return p->warnings[i];
    return NULL;
}

#endif
