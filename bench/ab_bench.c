/* rmg_ab_bench: two builds of librmg in one process, map by map, so that both see the same
 * machine load at the same moment (the "no slower than before" comparisons of bench/RESULTS.md).
 *
 * usage: rmg_ab_bench BASE_LIBRMG.so NEW_LIBRMG.so TEMPLATE|builtin [--size SIDE] [--levels N]
 *                     [--seeds N] [--rounds N]
 *
 * Each library is opened on its own (RTLD_LOCAL) with its own context and pack. For every round
 * and seed both generate the same map (the order alternates), timed in thread CPU time; the
 * newer library's .h3m export is timed too when it has one. Printed: the medians of each and
 * the median of the per-map ratios new/base, which the load cancels out of. Only the public
 * ABI is used, and only what both versions share (the options struct's leading fields). */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct lib {
    const char *path;
    void *dl;
    void *ctx, *pack;
    int (*context_create)(void **out, const void *options);
    void (*context_destroy)(void *ctx);
    const char *(*errmsg)(const void *ctx);
    void (*set_seed)(void *ctx, uint64_t seed);
    int (*pack_load)(void *ctx, const char *path, int format, void **out);
    void (*pack_destroy)(void *pack);
    void (*options_init)(void *options);
    int (*generate)(void *ctx, const void *pack, const void *options, void **out);
    void (*map_destroy)(void *map);
    int (*to_h3m)(const void *map, const void *options, unsigned char **out, size_t *len); /* NULL: none */
    double (*stage_ms)(const void *map, int stage);
    void (*free_buf)(void *ctx, void *p);
    unsigned char options[1024]; /* room for any version's rmg_generate_options */
} lib;

/* The leading fields every version of rmg_generate_options has (ABI.md: fields are appended). */
typedef struct options_head {
    size_t struct_size;
    int width, height, levels;
} options_head;

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *need(lib *l, const char *name)
{
    void *f = dlsym(l->dl, name);
    if (!f) {
        fprintf(stderr, "%s: no symbol %s\n", l->path, name);
        exit(2);
    }
    return f;
}

#define BIND(l, field, name) (*(void **)&(l)->field = need((l), (name)))

static void open_lib(lib *l, const char *path, const char *tpl, int side, int levels)
{
    l->path = path;
    l->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l->dl) {
        fprintf(stderr, "%s\n", dlerror());
        exit(2);
    }
    BIND(l, context_create, "rmg_context_create");
    BIND(l, context_destroy, "rmg_context_destroy");
    BIND(l, errmsg, "rmg_context_errmsg");
    BIND(l, set_seed, "rmg_context_set_seed");
    BIND(l, pack_load, "rmg_pack_load");
    BIND(l, pack_destroy, "rmg_pack_destroy");
    BIND(l, options_init, "rmg_generate_options_init");
    BIND(l, generate, "rmg_generate");
    BIND(l, map_destroy, "rmg_map_destroy");
    BIND(l, free_buf, "rmg_free");
    BIND(l, stage_ms, "rmg_map_stage_ms");
    *(void **)&l->to_h3m = dlsym(l->dl, "rmg_map_to_h3m");
    bool builtin = strcmp(tpl, "builtin") == 0; /* the library's own pack */
    if (l->context_create(&l->ctx, NULL) != 0 || (!builtin && l->pack_load(l->ctx, tpl, 0, &l->pack) != 0)) {
        fprintf(stderr, "%s: %s\n", path, l->ctx ? l->errmsg(l->ctx) : "no context");
        exit(2);
    }
    l->options_init(l->options);
    options_head *h = (options_head *)l->options;
    h->width = h->height = side;
    h->levels = levels;
}

/* Stages as both versions number them (select 0 .. finish 6; "connect" was "build" before 0.4). */
#define N_STAGES 7
static const char *const stage_names[N_STAGES] = {"select", "solve", "place", "connect", "objects", "guard", "finish"};

/* One map: its generation's CPU time, the export's in *export_ms (0 without one) and each
 * stage's time in stage_ms[N_STAGES] (the map's own wall-time figures; one thread). */
static double one_map(lib *l, int seed, double *export_ms, double *stage_ms)
{
    void *map = NULL;
    l->set_seed(l->ctx, (uint64_t)seed);
    double t0 = thread_cpu_ms();
    int st = l->generate(l->ctx, l->pack, l->options, &map);
    double gen = thread_cpu_ms() - t0;
    if (st != 0) {
        fprintf(stderr, "%s: seed %d: %s\n", l->path, seed, l->errmsg(l->ctx));
        exit(1);
    }
    for (int k = 0; k < N_STAGES; k++)
        stage_ms[k] = l->stage_ms(map, k);
    *export_ms = 0;
    if (l->to_h3m) {
        unsigned char *file = NULL;
        size_t len = 0;
        double h0 = thread_cpu_ms();
        if (l->to_h3m(map, NULL, &file, &len) != 0) {
            fprintf(stderr, "%s: seed %d: .h3m: %s\n", l->path, seed, l->errmsg(l->ctx));
            exit(1);
        }
        *export_ms = thread_cpu_ms() - h0;
        l->free_buf(l->ctx, file);
    }
    l->map_destroy(map);
    return gen;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v and returns its median. */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* stages[(lib * N_STAGES + stage) * n + k]: stage times of map k. */
static void stage_row(double *stages, size_t n, int which, size_t k, const double *row)
{
    for (int st = 0; st < N_STAGES; st++)
        stages[((size_t)which * N_STAGES + (size_t)st) * n + k] = row[st];
}

static int int_arg(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", argv[*i]);
        exit(2);
    }
    return atoi(argv[++*i]);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: rmg_ab_bench BASE.so NEW.so TEMPLATE|builtin [--size SIDE] [--levels N] [--seeds N] "
                        "[--rounds N]\n");
        return 2;
    }
    int side = 252, levels = 2, seeds = 9, rounds = 3;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0)
            side = int_arg(argc, argv, &i);
        else if (strcmp(argv[i], "--levels") == 0)
            levels = int_arg(argc, argv, &i);
        else if (strcmp(argv[i], "--seeds") == 0)
            seeds = int_arg(argc, argv, &i);
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = int_arg(argc, argv, &i);
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (seeds < 1 || rounds < 1)
        return 2;
    static lib libs[2];
    open_lib(&libs[0], argv[1], argv[3], side, levels);
    open_lib(&libs[1], argv[2], argv[3], side, levels);
    size_t n = (size_t)seeds * (size_t)rounds, k = 0;
    double *base = calloc(n, sizeof *base), *fresh = calloc(n, sizeof *fresh), *ratio = calloc(n, sizeof *ratio);
    double *exp = calloc(n, sizeof *exp), *share = calloc(n, sizeof *share), unused;
    double *stages = calloc(2 * N_STAGES * n, sizeof *stages), scratch[N_STAGES];
    if (!base || !fresh || !ratio || !exp || !share || !stages)
        return 1;
    one_map(&libs[0], 0, &unused, scratch); /* warm-up: each context builds its caches once */
    one_map(&libs[1], 0, &unused, scratch);
    for (int r = 0; r < rounds; r++)
        for (int s = 1; s <= seeds; s++, k++) {
            bool base_first = (r + s) % 2 == 0;
            if (base_first)
                base[k] = one_map(&libs[0], s, &unused, scratch), stage_row(stages, n, 0, k, scratch);
            fresh[k] = one_map(&libs[1], s, &exp[k], scratch);
            stage_row(stages, n, 1, k, scratch);
            if (!base_first)
                base[k] = one_map(&libs[0], s, &unused, scratch), stage_row(stages, n, 0, k, scratch);
            ratio[k] = fresh[k] / base[k];
            share[k] = exp[k] / fresh[k];
        }
    printf("%zu maps each (%d rounds x seeds 1..%d), %dx%dx%d, thread CPU time:\n", n, rounds, seeds, side, side,
           levels);
    /* median() sorts, so the extremes are read after it (argument order is unspecified). */
    double med_base = median(base, n), med_new = median(fresh, n), med_ratio = median(ratio, n);
    double med_exp = median(exp, n), med_share = median(share, n);
    printf("  generation median: base %.1f ms, new %.1f ms; per-map ratio new/base median %.3f (%.3f..%.3f)\n",
           med_base, med_new, med_ratio, ratio[0], ratio[n - 1]);
    if (libs[1].to_h3m)
        printf("  new .h3m export median %.1f ms; per-map share of its generation median %.1f %% (%.1f..%.1f %%)\n",
               med_exp, 100 * med_share, 100 * share[0], 100 * share[n - 1]);
    printf("  stage medians (wall ms, base / new):");
    for (int st = 0; st < N_STAGES; st++)
        printf(" %s %.1f / %.1f", stage_names[st], median(stages + (size_t)st * n, n),
               median(stages + (size_t)(N_STAGES + st) * n, n));
    printf("\n");
    for (int i = 0; i < 2; i++) {
        if (libs[i].pack)
            libs[i].pack_destroy(libs[i].pack);
        libs[i].context_destroy(libs[i].ctx);
    }
    free(base), free(fresh), free(ratio), free(exp), free(share), free(stages);
    return 0;
}
