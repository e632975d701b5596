/* Shared parts of rmg_bench: options, measurement records and the measuring helpers. */
#ifndef RMG_BENCH_H
#define RMG_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rmg/rmg.h"

typedef struct bench_options {
    int quick, scaling, list, seeds, scaling_max;
    const char *cases;   /* comma-separated names, NULL: all */
    const char *json;    /* output file, NULL: none */
    const char *shared;  /* the shared directory holding corpus/ */
} bench_options;

/* A counting allocator handed to the context: live bytes and their peak. */
typedef struct bench_alloc {
    size_t live, peak;
    uint64_t calls;
} bench_alloc;

void *bench_alloc_fn(void *user, void *ptr, size_t osize, size_t nsize);

/* One measured row: a case or a scaling point. */
typedef struct bench_result {
    char name[48];
    char template_name[64];
    char note[160];
    int width, height, levels, zones, seeds_ok, seeds;
    double wall_med, wall_min, wall_max;   /* ms per map */
    double cpu_med, cpu_min, cpu_max;      /* ms per map (process CPU time) */
    double stage_med[RMG_STAGE_COUNT];     /* ms, from rmg_map_stage_ms */
    double fingerprint_med;                /* CPU ms of the first rmg_map_fingerprint (on request) */
    double h3m_med;                        /* CPU ms of rmg_map_to_h3m (the game's file) */
    double floor_ms;                       /* one BFS flood fill over every tile */
    size_t peak_bytes;                     /* largest peak over the seeds */
    double attempts_mean;
    uint64_t fingerprint_first;
    char error[200];
    int scaling;                           /* 1: a scaling point */
} bench_result;

typedef struct bench_report {
    bench_result *rows;
    size_t count, cap;
} bench_report;

int bench_report_init(bench_report *r);
void bench_report_free(bench_report *r);
bench_result *bench_report_add(bench_report *r);

/* What to generate: a pack (owned by the caller) and the options. */
typedef struct bench_job {
    const rmg_pack *pack;       /* NULL: built-in */
    rmg_generate_options opt;
} bench_job;

/* Generates seeds 1..seeds and fills the timing fields of `out`; returns 0 when every seed
 * produced a map. The context must have been created with bench_alloc_fn / `alloc`. */
int bench_measure(rmg_context *ctx, bench_alloc *alloc, const bench_job *job, int seeds, bench_result *out);
/* Milliseconds of one BFS flood fill over w x h x levels tiles (median of a few). */
double bench_floor_ms(int w, int h, int levels);
double bench_now_ms(void);
double bench_cpu_ms(void);
double bench_median(double *v, size_t n);

void bench_print_header(FILE *out);
void bench_print_row(FILE *out, const bench_result *r);

void bench_list_cases(FILE *out);
int bench_run_cases(const bench_options *o, bench_report *report);
int bench_run_scaling(const bench_options *o, bench_report *report);
int bench_write_json(const bench_report *r, const char *path);

#endif
