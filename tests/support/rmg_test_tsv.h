/* Test support: the shared game-fact tables (TSV with a header row) read at test time, so
 * tests compare against the facts rather than against copies of them. */
#ifndef RMG_TEST_TSV_H
#define RMG_TEST_TSV_H

#include <stddef.h>
#include <stdint.h>

typedef struct rmg_test_tsv {
    char *text;           /* the file, cut in place into cells */
    char **header;        /* cols names */
    char **cells;         /* rows * cols, row-major */
    size_t rows, cols;    /* rows without the header */
    size_t ragged_rows;   /* rows whose cell count is not cols (short ones read as empty cells) */
} rmg_test_tsv;

/* Reads `relative` under the shared folder (e.g. "data/creatures.tsv"); asserts it exists.
 * Empty lines are skipped and a trailing CR is dropped. */
void rmg_test_tsv_load(rmg_test_tsv *t, const char *relative);
void rmg_test_tsv_free(rmg_test_tsv *t);

/* The cell of `row` in the column named `column`; fails the test when there is no such column. */
const char *rmg_test_tsv_cell(const rmg_test_tsv *t, size_t row, const char *column);

/* A number cell of object-defaults.tsv: "formula", "n/a", "unlimited" and "rule" stand for the
 * content module's markers (RMG__VALUE_FORMULA, RMG__NA, RMG__UNLIMITED, RMG__RULE). */
int64_t rmg_test_tsv_object_number(const char *cell);

#endif
