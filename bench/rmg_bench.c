/* rmg_bench: how fast librmg generates maps, against what touching every tile once costs.
 *
 * For a fixed list of cases (template x size) it generates one map per seed, single
 * threaded, and reports median/min/max wall and CPU time, per-stage medians, the peak of the
 * bytes live through the context's allocator during a generation, maps per second, and the
 * ratio to a floor measured in the same run (one breadth-first flood fill over every tile of
 * that map size). Scaling runs generate square maps from 36 to 1008 tiles a side with a
 * template whose zone count grows with the area and print the time per tile.
 * Wall time is noisy on a shared machine: CPU time (CLOCK_PROCESS_CPUTIME_ID) is printed
 * next to it and is what RESULTS.md quotes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rmg_bench [--quick] [--cases NAME,...] [--seeds N] [--no-scaling] [--scaling-max SIDE]\n"
            "                 [--json FILE] [--list]\n"
            "  --quick        one seed, the smallest case only and a 36x36 scaling run (smoke test)\n"
            "  --cases        run only these cases and scaling points (see --list)\n"
            "  --seeds N      seeds 1..N per case (default 5)\n"
            "  --no-scaling   skip the scaling runs\n"
            "  --scaling-max  largest side of the scaling runs (default 1008)\n"
            "  --json FILE    also write the results as JSON\n"
            "The corpus is read from $RMG_SHARED_DIR (default: ../shared next to the source tree).\n");
}

static int parse_args(int argc, char **argv, bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->seeds = 5;
    o->scaling = 1;
    o->scaling_max = 1008;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "--no-scaling") == 0) {
            o->scaling = 0;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (v && strcmp(a, "--cases") == 0) {
            o->cases = v;
            i++;
        } else if (v && strcmp(a, "--json") == 0) {
            o->json = v;
            i++;
        } else if (v && (strcmp(a, "--seeds") == 0 || strcmp(a, "--scaling-max") == 0)) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 100000) {
                fprintf(stderr, "rmg_bench: bad value for %s: '%s'\n", a, v);
                return -1;
            }
            if (strcmp(a, "--seeds") == 0)
                o->seeds = (int)n;
            else
                o->scaling_max = (int)n;
            i++;
        } else {
            fprintf(stderr, "rmg_bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return -1;
        }
    }
    if (o->quick) {
        o->seeds = 1;
        o->scaling_max = 36;
    }
    return 0;
}

/* Loading the built-in ruleset happens once per context (and per content variant), so hosts
 * that make many contexts pay it each time: its median CPU time over 9 loads per variant. */
static int bench_content_load(void)
{
    static const struct { rmg_content_variant v; const char *name; } variants[] = {
        {RMG_CONTENT_HOTA, "hota"}, {RMG_CONTENT_SOD, "sod"}};
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        double ms[9];
        for (int i = 0; i < 9; i++) {
            rmg_context *ctx = NULL;
            if (rmg_context_create(&ctx, NULL) != RMG_OK)
                return -1;
            double t0 = bench_cpu_ms();
            rmg_status st = rmg_context_set_content_variant(ctx, variants[k].v);
            ms[i] = bench_cpu_ms() - t0;
            rmg_context_destroy(ctx);
            if (st != RMG_OK)
                return -1;
        }
        printf("built-in ruleset load (%s): median %.2f ms CPU over 9 loads\n", variants[k].name, bench_median(ms, 9));
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_options o;
    if (parse_args(argc, argv, &o) != 0)
        return 2;
    const char *shared = getenv("RMG_SHARED_DIR");
    if (!shared || !*shared)
        shared = RMG_BENCH_DEFAULT_SHARED;
    o.shared = shared;
    if (o.list) {
        bench_list_cases(stdout);
        return 0;
    }
    bench_report report;
    if (bench_report_init(&report) != 0) {
        fprintf(stderr, "rmg_bench: out of memory\n");
        return 1;
    }
    int failures = bench_content_load() == 0 ? bench_run_cases(&o, &report) : -1;
    if (failures >= 0 && o.scaling)
        failures += bench_run_scaling(&o, &report);
    if (failures >= 0 && o.json && bench_write_json(&report, o.json) != 0) {
        fprintf(stderr, "rmg_bench: cannot write %s\n", o.json);
        failures = -1;
    }
    bench_report_free(&report);
    if (failures < 0)
        return 2;
    return failures ? 1 : 0;
}
