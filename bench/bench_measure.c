/* Measuring: the counting allocator, timing one case over its seeds, the BFS floor, output. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

void *bench_alloc_fn(void *user, void *ptr, size_t osize, size_t nsize)
{
    bench_alloc *a = user;
    a->calls++;
    if (nsize == 0) {
        free(ptr);
        a->live -= ptr ? osize : 0;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    a->live = a->live - (ptr ? osize : 0) + nsize;
    if (a->live > a->peak)
        a->peak = a->live;
    return p;
}

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double bench_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median, min and max of n values (sorts v). */
static void summarize(double *v, size_t n, double *med, double *mn, double *mx)
{
    *med = bench_median(v, n);
    *mn = n ? v[0] : 0;
    *mx = n ? v[n - 1] : 0;
}

typedef struct samples {
    double *wall, *cpu, *fingerprint, *h3m, *stage[RMG_STAGE_COUNT];
} samples;

static int samples_alloc(samples *s, int n)
{
    memset(s, 0, sizeof *s);
    int ok = (s->wall = calloc((size_t)n, sizeof(double))) != NULL;
    ok = ok && (s->cpu = calloc((size_t)n, sizeof(double))) != NULL;
    ok = ok && (s->fingerprint = calloc((size_t)n, sizeof(double))) != NULL;
    ok = ok && (s->h3m = calloc((size_t)n, sizeof(double))) != NULL;
    for (int i = 0; ok && i < RMG_STAGE_COUNT; i++)
        ok = (s->stage[i] = calloc((size_t)n, sizeof(double))) != NULL;
    return ok ? 0 : -1;
}

static void samples_free(samples *s)
{
    free(s->wall);
    free(s->cpu);
    free(s->fingerprint);
    free(s->h3m);
    for (int i = 0; i < RMG_STAGE_COUNT; i++)
        free(s->stage[i]);
}

static void record_map(const rmg_map *map, bench_result *out, samples *s, size_t k, int seed)
{
    for (int st = 0; st < RMG_STAGE_COUNT; st++)
        s->stage[st][k] = rmg_map_stage_ms(map, (rmg_stage_id)st);
    out->attempts_mean += rmg_map_attempts(map);
    if (seed == 1)
        out->fingerprint_first = rmg_map_fingerprint(map);
    out->width = rmg_map_width(map);
    out->height = rmg_map_height(map);
    out->levels = rmg_map_levels(map);
    out->zones = (int)rmg_map_zone_count(map);
    snprintf(out->template_name, sizeof out->template_name, "%s", rmg_map_template_name(map));
}

/* The first generation in a context also builds the ruleset and caches: a one-time cost a
 * host pays once per context, kept out of the per-map figures. */
static void warm_up(rmg_context *ctx, const bench_job *job)
{
    rmg_map *map = NULL;
    rmg_context_set_seed(ctx, 0);
    if (rmg_generate(ctx, job->pack, &job->opt, &map) == RMG_OK)
        rmg_map_destroy(map);
    rmg_context_clear_error(ctx);
}

int bench_measure(rmg_context *ctx, bench_alloc *alloc, const bench_job *job, int seeds, bench_result *out)
{
    samples s;
    if (samples_alloc(&s, seeds) != 0) {
        samples_free(&s);
        snprintf(out->error, sizeof out->error, "out of memory");
        return -1;
    }
    out->seeds = seeds;
    warm_up(ctx, job);
    size_t ok = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        rmg_context_set_seed(ctx, (uint64_t)seed);
        rmg_map *map = NULL;
        alloc->peak = alloc->live;
        double w0 = bench_now_ms(), c0 = bench_cpu_ms();
        rmg_status st = rmg_generate(ctx, job->pack, &job->opt, &map);
        double c1 = bench_cpu_ms(), w1 = bench_now_ms();
        if (alloc->peak > out->peak_bytes)
            out->peak_bytes = alloc->peak;
        if (st != RMG_OK) {
            snprintf(out->error, sizeof out->error, "seed %d: %s", seed, rmg_context_errmsg(ctx));
            continue;
        }
        s.wall[ok] = w1 - w0;
        s.cpu[ok] = c1 - c0;
        /* Not part of generation: computed when a host first asks (one serialization). */
        double f0 = bench_cpu_ms();
        (void)rmg_map_fingerprint(map);
        s.fingerprint[ok] = bench_cpu_ms() - f0;
        /* The .h3m file of the map (the game's format, issue 22): a host's export, after. */
        unsigned char *file = NULL;
        size_t file_len = 0;
        double h0 = bench_cpu_ms();
        if (rmg_map_to_h3m(map, NULL, &file, &file_len) == RMG_OK)
            s.h3m[ok] = bench_cpu_ms() - h0;
        else
            snprintf(out->error, sizeof out->error, "seed %d: .h3m: %s", seed, rmg_context_errmsg(ctx));
        rmg_free(ctx, file);
        record_map(map, out, &s, ok, seed);
        ok++;
        rmg_map_destroy(map);
    }
    out->seeds_ok = (int)ok;
    summarize(s.wall, ok, &out->wall_med, &out->wall_min, &out->wall_max);
    summarize(s.cpu, ok, &out->cpu_med, &out->cpu_min, &out->cpu_max);
    for (int st = 0; st < RMG_STAGE_COUNT; st++)
        out->stage_med[st] = bench_median(s.stage[st], ok);
    out->fingerprint_med = bench_median(s.fingerprint, ok);
    out->h3m_med = bench_median(s.h3m, ok);
    if (ok)
        out->attempts_mean /= (double)ok;
    samples_free(&s);
    if (ok && out->width > 0)
        out->floor_ms = bench_floor_ms(out->width, out->height, out->levels);
    return ok == (size_t)seeds ? 0 : -1;
}

/* One flood fill from tile 0 over a w x h x levels grid (4 neighbours in a level, plus the
 * tile straight above/below), so every tile is visited once and each edge looked at once. */
static size_t flood_fill(int w, int h, int levels, unsigned char *seen, uint32_t *queue)
{
    size_t n = (size_t)w * (size_t)h * (size_t)levels, plane = (size_t)w * (size_t)h;
    memset(seen, 0, n);
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    seen[0] = 1;
    while (head < tail) {
        size_t i = queue[head++];
        size_t x = i % (size_t)w, rest = i / (size_t)w, y = rest % (size_t)h, z = rest / (size_t)h;
        size_t nb[6];
        int k = 0;
        if (x > 0)
            nb[k++] = i - 1;
        if (x + 1 < (size_t)w)
            nb[k++] = i + 1;
        if (y > 0)
            nb[k++] = i - (size_t)w;
        if (y + 1 < (size_t)h)
            nb[k++] = i + (size_t)w;
        if (z > 0)
            nb[k++] = i - plane;
        if (z + 1 < (size_t)levels)
            nb[k++] = i + plane;
        for (int j = 0; j < k; j++)
            if (!seen[nb[j]]) {
                seen[nb[j]] = 1;
                queue[tail++] = (uint32_t)nb[j];
            }
    }
    return tail;
}

double bench_floor_ms(int w, int h, int levels)
{
    size_t n = (size_t)w * (size_t)h * (size_t)levels;
    unsigned char *seen = malloc(n);
    uint32_t *queue = malloc(n * sizeof *queue);
    double t[9];
    size_t reps = sizeof t / sizeof t[0], visited = 0;
    for (size_t r = 0; seen && queue && r < reps; r++) {
        double c0 = bench_cpu_ms();
        visited += flood_fill(w, h, levels, seen, queue);
        t[r] = bench_cpu_ms() - c0;
    }
    double med = seen && queue && visited == n * reps ? bench_median(t, reps) : 0;
    free(seen);
    free(queue);
    return med;
}

int bench_report_init(bench_report *r)
{
    r->count = 0;
    r->cap = 16;
    r->rows = calloc(r->cap, sizeof *r->rows);
    return r->rows ? 0 : -1;
}

void bench_report_free(bench_report *r)
{
    free(r->rows);
    r->rows = NULL;
    r->count = r->cap = 0;
}

bench_result *bench_report_add(bench_report *r)
{
    if (r->count == r->cap) {
        bench_result *n = realloc(r->rows, 2 * r->cap * sizeof *n);
        if (!n)
            return NULL;
        r->rows = n;
        r->cap *= 2;
    }
    bench_result *row = &r->rows[r->count++];
    memset(row, 0, sizeof *row);
    return row;
}
