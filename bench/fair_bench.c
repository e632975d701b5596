/* rmg_fair_bench: what the balance report and fairness-aware generation cost (issue 23), all in
 * one run so that the machine's load is the same for every figure:
 *   - one generation alone, and one generation while another runs on the second core ("both
 *     cores busy"), wall time;
 *   - the balance report of those maps, thread CPU time against the generation's;
 *   - rmg_generate_best_of with 8 candidates on 2 threads, wall time.
 * usage: rmg_fair_bench [TEMPLATE] [--size SIDE] [--levels N] [--rounds N] [--candidates N]
 * The default template is Clash of Dragons of the corpus ($RMG_SHARED_DIR, else ../shared), G+U. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg/rmg.h"

typedef struct setup {
    const char *file;
    int side, levels, rounds, candidates;
} setup;

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct one_run {
    const setup *s;
    rmg_pack *pack;
    rmg_context *ctx;
    uint64_t seed;
    double wall, cpu, report_cpu;
    int ok;
} one_run;

/* One generation and its report, timed. */
static void *generate_one(void *arg)
{
    one_run *r = arg;
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = r->s->side;
    o.levels = r->s->levels;
    rmg_context_set_seed(r->ctx, r->seed);
    rmg_map *m = NULL;
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    r->ok = rmg_generate(r->ctx, r->pack, &o, &m) == RMG_OK;
    r->wall = clock_ms(CLOCK_MONOTONIC) - w0;
    r->cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
    rmg_balance *b = NULL;
    c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    if (r->ok)
        r->ok = rmg_map_balance(m, NULL, &b) == RMG_OK;
    r->report_cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
    rmg_balance_destroy(b);
    rmg_map_destroy(m);
    return NULL;
}

/* Wall time of rmg_generate_best_of on 2 threads; *cpu gets the process CPU time it took. */
static double best_of(const setup *s, rmg_context *ctx, rmg_pack *pack, uint64_t seed, rmg_best_of_info *info,
                      double *cpu)
{
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = s->side;
    o.levels = s->levels;
    rmg_best_of_options bo;
    rmg_best_of_options_init(&bo);
    bo.candidates = s->candidates;
    bo.threads = 2;
    rmg_context_set_seed(ctx, seed);
    rmg_map *m = NULL;
    info->struct_size = sizeof *info;
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    if (rmg_generate_best_of(ctx, pack, &o, &bo, &m, info) != RMG_OK) {
        fprintf(stderr, "rmg_fair_bench: %s\n", rmg_context_errmsg(ctx));
        exit(1);
    }
    double wall = clock_ms(CLOCK_MONOTONIC) - w0;
    *cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    rmg_map_destroy(m);
    return wall;
}

static int parse(int argc, char **argv, setup *s, char *file, size_t cap)
{
    const char *shared = getenv("RMG_SHARED_DIR");
    snprintf(file, cap, "%s/corpus/vcmi/hdmod/clashOfDragons.json", shared && *shared ? shared : RMG_BENCH_DEFAULT_SHARED);
    *s = (setup){file, 252, 2, 3, 8};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *field = strcmp(argv[i], "--size") == 0 ? &s->side : strcmp(argv[i], "--levels") == 0 ? &s->levels
                     : strcmp(argv[i], "--rounds") == 0 ? &s->rounds : strcmp(argv[i], "--candidates") == 0 ? &s->candidates
                     : NULL;
        if (field && v) {
            *field = atoi(v);
            i++;
        } else if (argv[i][0] != '-') {
            s->file = argv[i];
        } else {
            fprintf(stderr, "usage: rmg_fair_bench [TEMPLATE] [--size SIDE] [--levels N] [--rounds N] [--candidates N]\n");
            return -1;
        }
    }
    return s->rounds > 0 && s->candidates > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    setup s;
    char file[1024];
    if (parse(argc, argv, &s, file, sizeof file) != 0)
        return 2;
    rmg_context *ctx[2];
    rmg_pack *pack[2];
    for (int k = 0; k < 2; k++)
        if (rmg_context_create(&ctx[k], NULL) != RMG_OK || rmg_pack_load(ctx[k], s.file, RMG_FORMAT_AUTO, &pack[k]) != RMG_OK) {
            fprintf(stderr, "rmg_fair_bench: cannot load %s\n", s.file);
            return 1;
        }
    printf("rmg_fair_bench: %s at %dx%dx%d, %d rounds\n", s.file, s.side, s.side, s.levels, s.rounds);
    printf("round  alone ms  busy ms  gen cpu  report cpu  ratio  best-of-%d ms  x alone  x busy  cpu/2 x gen cpu  winner\n",
           s.candidates);
    double sum_ratio = 0, sum_alone = 0, sum_busy = 0, sum_best = 0, sum_best_cpu = 0, sum_gen_cpu = 0;
    for (int round = 0; round < s.rounds; round++) {
        uint64_t seed = (uint64_t)round + 1;
        one_run alone = {&s, pack[0], ctx[0], seed, 0, 0, 0, 0};
        generate_one(&alone);
        /* Two at once, one per core: the time of one generation with both cores busy. */
        one_run pair[2] = {{&s, pack[0], ctx[0], seed, 0, 0, 0, 0}, {&s, pack[1], ctx[1], seed + 1000, 0, 0, 0, 0}};
        pthread_t t;
        int threaded = pthread_create(&t, NULL, generate_one, &pair[1]) == 0;
        generate_one(&pair[0]);
        if (threaded)
            pthread_join(t, NULL);
        rmg_best_of_info info;
        double best_cpu = 0, best = best_of(&s, ctx[0], pack[0], seed, &info, &best_cpu);
        if (!alone.ok || !pair[0].ok) {
            fprintf(stderr, "rmg_fair_bench: generation failed\n");
            return 1;
        }
        double busy = (pair[0].wall + pair[1].wall) / 2, ratio = alone.report_cpu / alone.cpu;
        /* On two free cores the wall time of best-of is its CPU time halved. */
        printf("%5d %9.1f %8.1f %8.1f %11.1f %6.3f %13.1f %8.2f %7.2f %16.2f  %d (%.1f)\n", round + 1, alone.wall, busy,
               alone.cpu, alone.report_cpu, ratio, best, best / alone.wall, best / busy, best_cpu / 2 / alone.cpu,
               info.candidate, info.score);
        sum_best_cpu += best_cpu;
        sum_gen_cpu += alone.cpu;
        sum_ratio += ratio;
        sum_alone += alone.wall;
        sum_busy += busy;
        sum_best += best;
    }
    printf("mean: report / generation CPU %.3f; best-of-%d / one generation alone %.2f, / one with both cores busy %.2f; "
           "best-of CPU on 2 cores / one generation's CPU %.2f\n",
           sum_ratio / s.rounds, s.candidates, sum_best / sum_alone, sum_best / sum_busy, sum_best_cpu / 2 / sum_gen_cpu);
    for (int k = 0; k < 2; k++) {
        rmg_pack_destroy(pack[k]);
        rmg_context_destroy(ctx[k]);
    }
    return 0;
}
