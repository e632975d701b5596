#include "rmg_test_tsv.h"

#include <stdlib.h>
#include <string.h>

#include "content/content_internal.h"
#include "rmg_test.h"

/* Cuts one line into at most `max` cells at its tabs; returns how many cells the line has. */
static size_t split_cells(char *line, char **out, size_t max, char *empty)
{
    size_t n = 0;
    for (char *p = line;; p++) {
        if (n < max)
            out[n] = p;
        n++;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p = '\0';
    }
    for (size_t c = n; c < max; c++)
        out[c] = empty;
    return n;
}

static void drop_trailing_cr(char *line)
{
    size_t n = strlen(line);
    if (n && line[n - 1] == '\r')
        line[n - 1] = '\0';
}

static size_t count_columns(const char *header_line)
{
    size_t cols = 1;
    for (const char *p = header_line; *p && *p != '\n'; p++)
        cols += *p == '\t';
    return cols;
}

void rmg_test_tsv_load(rmg_test_tsv *t, const char *relative)
{
    memset(t, 0, sizeof *t);
    size_t len = 0;
    t->text = rmg_test_read_file(rmg_test_need_shared(relative), &len);
    assert_non_null(t->text);
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += t->text[i] == '\n';
    t->cols = count_columns(t->text);
    /* The header and every line, plus one for a last line without a newline. */
    char **all = calloc((lines + 2) * t->cols, sizeof *all);
    assert_non_null(all);
    char *empty = t->text + len; /* the terminating NUL: the cell of a short row's missing columns */
    size_t row = 0;
    char *save = NULL;
    for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        drop_trailing_cr(line);
        if (!*line)
            continue;
        size_t got = split_cells(line, all + row * t->cols, t->cols, empty);
        if (row > 0 && got != t->cols)
            t->ragged_rows++;
        row++;
    }
    assert_true(row > 0);
    t->header = all;
    t->cells = all + t->cols;
    t->rows = row - 1;
}

void rmg_test_tsv_free(rmg_test_tsv *t)
{
    free(t->header);
    free(t->text);
    memset(t, 0, sizeof *t);
}

const char *rmg_test_tsv_cell(const rmg_test_tsv *t, size_t row, const char *column)
{
    for (size_t c = 0; c < t->cols; c++)
        if (strcmp(t->header[c], column) == 0)
            return t->cells[row * t->cols + c];
    fail_msg("no column %s", column);
    return "";
}

int64_t rmg_test_tsv_object_number(const char *cell)
{
    if (strcmp(cell, "formula") == 0)
        return RMG__VALUE_FORMULA;
    if (strcmp(cell, "n/a") == 0)
        return RMG__NA;
    if (strcmp(cell, "unlimited") == 0)
        return RMG__UNLIMITED;
    if (strcmp(cell, "rule") == 0)
        return RMG__RULE;
    return strtoll(cell, NULL, 10);
}
