#include "rmg_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void *rmg_test_alloc_fn(void *user, void *ptr, size_t osize, size_t nsize)
{
    rmg_test_alloc *ta = user;
    if (nsize == 0) {
        if (ptr) {
            ta->live_blocks--;
            ta->live_bytes -= osize;
        }
        free(ptr);
        return NULL;
    }
    if (!ptr || nsize > osize) {
        ta->calls++;
        if (ta->fail_at && (ta->calls == ta->fail_at || (ta->fail_all_after && ta->calls > ta->fail_at))) {
            ta->failures++;
            return NULL;
        }
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    if (!ptr)
        ta->live_blocks++;
    ta->live_bytes += nsize - osize;
    if (ta->live_bytes > ta->peak_bytes)
        ta->peak_bytes = ta->live_bytes;
    return p;
}

rmg_map *rmg_test_generate(rmg_context *ctx, int side, int levels)
{
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = side;
    go.levels = levels;
    rmg_map *map = NULL;
    if (rmg_generate(ctx, NULL, &go, &map) != RMG_OK)
        fail_msg("generation failed: %s", rmg_context_errmsg(ctx));
    return map;
}

rmg_context *rmg_test_context(rmg_test_alloc *ta, uint64_t seed)
{
    rmg_context_options o;
    rmg_context_options_init(&o);
    if (ta) {
        o.alloc = rmg_test_alloc_fn;
        o.alloc_user = ta;
    }
    o.seed = seed;
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_OK);
    assert_non_null(ctx);
    return ctx;
}

size_t rmg_test_oom_sweep(rmg_test_op op, void *user, size_t max_k, size_t stride)
{
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 1);
    if (!max_k)
        max_k = 100000;
    if (!stride)
        stride = 1;
    /* Warm-up run without failures: per-context caches that are created lazily (the built-in
     * content) exist afterwards, so every later run must return to the same live count. */
    assert_int_equal(op(ctx, user), RMG_OK);
    size_t base_blocks = ta.live_blocks;
    size_t base_bytes = ta.live_bytes;
    size_t needed = 0;
    for (size_t k = 1; k <= max_k; k += stride) {
        ta.fail_at = ta.calls + k;
        ta.failures = 0;
        rmg_context_clear_error(ctx);
        rmg_status st = op(ctx, user);
        bool hit = ta.failures > 0;
        ta.fail_at = 0;
        /* No leak, whatever happened. */
        assert_int_equal(ta.live_blocks, base_blocks);
        assert_int_equal(ta.live_bytes, base_bytes);
        if (!hit) {
            assert_int_equal(st, RMG_OK);
            needed = k - 1;
            break;
        }
        /* A failure may be absorbed by a documented fallback (then OK); otherwise it must be
         * reported with a status and a message. */
        if (st != RMG_OK)
            assert_string_not_equal(rmg_context_errmsg(ctx), "");
    }
    rmg_context_destroy(ctx);
    assert_int_equal(ta.live_blocks, 0);
    assert_int_equal(ta.live_bytes, 0);
    return needed;
}

static char *path_join(const char *base, const char *rel)
{
    static char buf[8][4096];
    static int slot;
    char *out = buf[slot++ & 7];
    snprintf(out, 4096, "%s/%s", base, rel);
    return out;
}

const char *rmg_test_shared(const char *relative)
{
    const char *base = getenv("RMG_SHARED_DIR");
    if (!base || !*base)
        base = RMG_SHARED_DIR;
    return path_join(base, relative);
}

/* How many tests (or groups) did without a file of the shared folder: the run then reports
 * itself skipped rather than passed. */
static size_t shared_skips;

/* One line: what is absent, what did not run for it, and where the folder is looked for. */
static void note_absent(const char *path, const char *not_run)
{
    shared_skips++;
    print_message("SKIPPED: %s is absent%s (the shared folder: template corpus, fact tables, game maps; set "
                  "RMG_SHARED_DIR or put it beside the checkout as ../shared)\n", path, not_run);
}

const char *rmg_test_shared_present(const char *relative)
{
    const char *path = rmg_test_shared(relative);
    struct stat st;
    if (stat(path, &st) != 0) {
        note_absent(path, "");
        return NULL;
    }
    return path;
}

const char *rmg_test_need_shared(const char *relative)
{
    const char *path = rmg_test_shared_present(relative);
    if (!path)
        skip();
    return path;
}

/* The first folder of the space-separated `needs` that is absent, copied to `out`; false if all
 * are there. */
static bool first_absent(const char *needs, char *out, size_t len)
{
    for (const char *p = needs; p && *p;) {
        size_t n = strcspn(p, " ");
        char word[256];
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        struct stat st;
        const char *path = rmg_test_shared(word);
        if (n && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
            snprintf(out, len, "%s", path);
            return true;
        }
        p += n;
        p += strspn(p, " ");
    }
    return false;
}

int rmg_test_main(int argc, char **argv, const struct CMUnitTest *plain, size_t n_plain,
                  const struct CMUnitTest *shared, size_t n_shared, const char *needs)
{
    bool run_plain = true, run_shared = true;
    if (argc > 1 && strcmp(argv[1], "--plain") == 0) {
        run_shared = false;
    } else if (argc > 1 && strcmp(argv[1], "--shared") == 0) {
        run_plain = false;
    } else if (argc > 1) {
        fprintf(stderr, "usage: %s [--plain | --shared]\n", argv[0]);
        return 2;
    }
    int failures = 0;
    if (run_plain && n_plain)
        failures += _cmocka_run_group_tests("plain", plain, n_plain, NULL, NULL);
    if (run_shared && n_shared) {
        char absent[4096];
        if (first_absent(needs, absent, sizeof absent)) {
            char not_run[64];
            snprintf(not_run, sizeof not_run, ": %zu test(s) not run", n_shared);
            note_absent(absent, not_run);
        } else {
            failures += _cmocka_run_group_tests("shared", shared, n_shared, NULL, NULL);
        }
    }
    if (failures)
        return 1;
    return shared_skips ? RMG_TEST_SKIPPED : 0;
}

const char *rmg_test_source(const char *relative)
{
    return path_join(RMG_SOURCE_DIR, relative);
}

static bool has_suffix(const char *name, const char *suffixes)
{
    if (!suffixes || !*suffixes)
        return true;
    const char *p = suffixes;
    size_t nl = strlen(name);
    while (*p) {
        const char *e = strchr(p, ',');
        size_t sl = e ? (size_t)(e - p) : strlen(p);
        if (sl <= nl && strncmp(name + nl - sl, p, sl) == 0)
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *dir, const char *suffixes, char ***list, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            collect(path, suffixes, list, n, cap);
        } else if (S_ISREG(st.st_mode) && has_suffix(e->d_name, suffixes)) {
            if (*n + 2 > *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *list = realloc(*list, *cap * sizeof **list);
            }
            (*list)[(*n)++] = strdup(path);
            (*list)[*n] = NULL;
        }
    }
    closedir(d);
}

char **rmg_test_list_files(const char *dir, const char *suffixes)
{
    char **list = NULL;
    size_t n = 0, cap = 0;
    collect(dir, suffixes, &list, &n, &cap);
    if (!list) {
        list = calloc(1, sizeof *list);
        return list;
    }
    qsort(list, n, sizeof *list, cmp_str);
    return list;
}

bool rmg_test_corpus_full(void)
{
    const char *v = getenv("RMG_TEST_CORPUS");
    return v && strcmp(v, "full") == 0;
}

char **rmg_test_corpus_files(const char *relative_dir, const char *suffixes)
{
    char **all = rmg_test_list_files(rmg_test_shared(relative_dir), suffixes);
    if (rmg_test_corpus_full())
        return all;
    size_t n = 0, kept = 0;
    for (; all[n]; n++) {
        if (n % RMG_TEST_CORPUS_SAMPLE == 0)
            all[kept++] = all[n];
        else
            free(all[n]);
    }
    all[kept] = NULL;
    print_message("corpus sample: %zu of the %zu files of %s (every file: RMG_TEST_CORPUS=full, the CTest label "
                  "corpus-full)\n", kept, n, relative_dir);
    return all;
}

size_t rmg_test_corpus_expect(size_t full_count)
{
    return rmg_test_corpus_full() ? full_count : full_count / RMG_TEST_CORPUS_SAMPLE;
}

void rmg_test_free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

char *rmg_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)sz + 1);
    if (buf && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[sz] = '\0';
        if (len)
            *len = (size_t)sz;
    }
    return buf;
}
