/* Test support shared by every module's tests: the allocator failure harness, paths to the
 * shared corpus and data, small helpers. */
#ifndef RMG_TEST_H
#define RMG_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rmg/rmg.h"

/* A counting allocator that fails the allocation numbered `fail_at` (1-based, 0 = never)
 * and every later one while `fail_all_after` is set. */
typedef struct rmg_test_alloc {
    size_t calls;          /* allocations and growing reallocations so far */
    size_t fail_at;        /* 0: never fail */
    bool fail_all_after;   /* also fail every allocation after fail_at */
    size_t failures;       /* how many were refused */
    size_t live_blocks;
    size_t live_bytes;
    size_t peak_bytes;
} rmg_test_alloc;

void *rmg_test_alloc_fn(void *user, void *ptr, size_t osize, size_t nsize);

/* A context using `ta` (may be NULL for the C allocator) and `seed`. Asserts success. */
rmg_context *rmg_test_context(rmg_test_alloc *ta, uint64_t seed);
/* A map of the built-in pack at side x side x levels, generated with ctx (fails the test with
 * the context's message when generation fails). */
rmg_map *rmg_test_generate(rmg_context *ctx, int side, int levels);

/* The allocator failure harness.
 * `op` must release everything it created before returning, whatever it returns.
 * For k = 1, 2, ... the k-th allocation made by `op` fails; the harness asserts that op then
 * returns a non-OK status, that no block leaked, and it stops at the first k where op
 * succeeds without hitting the injected failure (the context stays usable throughout).
 * Returns the number of allocations op needs. `max_k` bounds the sweep (0 = 100000);
 * `stride` > 1 tests only every stride-th k (for long operations). */
typedef rmg_status (*rmg_test_op)(rmg_context *ctx, void *user);
size_t rmg_test_oom_sweep(rmg_test_op op, void *user, size_t max_k, size_t stride);

/* Absolute path of a file under the shared folder (env RMG_SHARED_DIR, else the build-time
 * default, ../shared beside the checkout). Returned buffer is static per call site use; copy if
 * needed. */
const char *rmg_test_shared(const char *relative);
/* The same when the file exists; else NULL, after a one-line note that the test skips it (the
 * run then reports itself skipped to CTest, see rmg_test_main). */
const char *rmg_test_shared_present(const char *relative);
/* The same, for a test that cannot do without the file: when it is missing, the test is skipped
 * (cmocka skip(), after the one-line note). Only in a test body, never in a setup function. */
const char *rmg_test_need_shared(const char *relative);

/* Exit status CTest reads as "skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). */
#define RMG_TEST_SKIPPED 77

/* The main of a test executable whose tests are in two groups: `plain` needs nothing outside the
 * checkout, `shared` needs the folders of the shared folder named in `needs` (space-separated,
 * e.g. "data corpus"). Without arguments both groups run; "--plain" or "--shared" runs one
 * (CTest registers them as NAME and NAME.shared, from the RMG_TEST_MAIN in the source).
 * When a folder of `needs` is absent, the shared group does not run: one line names what is
 * missing. Exit status: the number of failures; else RMG_TEST_SKIPPED when something was
 * skipped for a missing shared file; else 0. */
int rmg_test_main(int argc, char **argv, const struct CMUnitTest *plain, size_t n_plain,
                  const struct CMUnitTest *shared, size_t n_shared, const char *needs);
#define RMG_TEST_COUNT(tests) (sizeof(tests) / sizeof((tests)[0]))
#define RMG_TEST_MAIN(plain, shared, needs)                                                                 \
    rmg_test_main(argc, argv, plain, RMG_TEST_COUNT(plain), shared, RMG_TEST_COUNT(shared), needs)
/* Every test needs the shared folder (CTest registers the executable once, skipped without it). */
#define RMG_TEST_MAIN_SHARED(shared, needs) rmg_test_main(argc, argv, NULL, 0, shared, RMG_TEST_COUNT(shared), needs)
/* Absolute path of a file in the source tree. */
const char *rmg_test_source(const char *relative);

/* The corpus runs of the default test run read a sample of the corpus: every
 * RMG_TEST_CORPUS_SAMPLE-th file (the slow runs over every file are the CTest label corpus-full,
 * which sets RMG_TEST_CORPUS=full; make test-full and CI run them). */
#define RMG_TEST_CORPUS_SAMPLE 4
bool rmg_test_corpus_full(void);
/* rmg_test_list_files of a folder of the shared folder, sampled unless the run is a full one
 * (one line says so). */
char **rmg_test_corpus_files(const char *relative_dir, const char *suffixes);
/* A count the full corpus has, scaled to the sample of this run. */
size_t rmg_test_corpus_expect(size_t full_count);

/* Lists regular files under dir (recursively) whose names end in one of the suffixes
 * (comma-separated, "" = all). Returns a NULL-terminated array; free with rmg_test_free_list. */
char **rmg_test_list_files(const char *dir, const char *suffixes);
void rmg_test_free_list(char **list);

/* Reads a whole file into a malloc'ed, NUL-terminated buffer (NULL on failure). */
char *rmg_test_read_file(const char *path, size_t *len);

#endif
