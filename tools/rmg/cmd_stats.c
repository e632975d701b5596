/* rmg stats: generates many maps (seeds 1..N) and reports the numbers a template maker tunes by.
 * Each worker thread has its own context and pack; results are gathered per seed, so the
 * report (and every fingerprint) is the same whatever the thread count. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "stats_balance.h"

#define MAX_ZONES 256
#define MAX_WARNING_KINDS 64

typedef struct run_result {
    int ok;
    char error[200];
    uint64_t fingerprint;
    double ms, stage_ms[RMG_STAGE_COUNT];
    size_t n_zones;
    double zone_share[MAX_ZONES];     /* zone tiles / land tiles of its level */
    double zone_weight[MAX_ZONES];    /* size weight / sum of weights of its level */
    double zone_guard[MAX_ZONES];     /* summed guard strength totals */
    double zone_treasure[MAX_ZONES];  /* summed treasure group values */
    int zone_tpl[MAX_ZONES];
    size_t conns, conns_realized, conns_fictive;
    size_t n_warnings;
    char warning_kind[16][48];        /* distinct kinds of this map's warnings */
    size_t warning_kind_count[16];
    size_t n_warning_kinds;
    balance_result balance;           /* with --balance */
} run_result;

typedef struct job {
    cli_gen gen;
    bool balance;                     /* --balance: a report per map */
    uint64_t first_seed;
    int runs;
    run_result *results;
    pthread_mutex_t lock;
    int next, done;
    int load_error;
    char load_message[300];
} job;

/* The kind of a warning: its text up to the first digit or colon (so "zone 3: ..." and
 * "zone 5: ..." count together). */
static void warning_kind(const char *w, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = w; *p && n + 1 < cap; p++) {
        if (*p >= '0' && *p <= '9')
            continue;
        out[n++] = *p;
        if (*p == ':' && n > 8)
            break;
    }
    out[n] = '\0';
}

static void collect(const rmg_map *map, run_result *r)
{
    r->fingerprint = rmg_map_fingerprint(map);
    for (int s = 0; s < RMG_STAGE_COUNT; s++)
        r->stage_ms[s] = rmg_map_stage_ms(map, (rmg_stage_id)s);
    size_t nz = rmg_map_zone_count(map);
    double land[2] = {0, 0}, weight[2] = {0, 0};
    r->n_zones = 0;
    for (size_t i = 0; i < nz && r->n_zones < MAX_ZONES; i++) {
        rmg_map_zone_info z = {.struct_size = sizeof z};
        rmg_map_zone(map, i, &z);
        if (z.template_zone <= 0 || z.kind == RMG_ZONE_ROCK || z.kind == RMG_ZONE_WATER)
            continue;
        land[z.level & 1] += (double)z.tiles;
        weight[z.level & 1] += z.size_weight;
    }
    for (size_t i = 0; i < nz && r->n_zones < MAX_ZONES; i++) {
        rmg_map_zone_info z = {.struct_size = sizeof z};
        rmg_map_zone(map, i, &z);
        if (z.template_zone <= 0 || z.kind == RMG_ZONE_ROCK || z.kind == RMG_ZONE_WATER)
            continue;
        size_t k = r->n_zones++;
        r->zone_tpl[k] = z.template_zone;
        r->zone_share[k] = land[z.level & 1] > 0 ? (double)z.tiles / land[z.level & 1] : 0;
        r->zone_weight[k] = weight[z.level & 1] > 0 ? z.size_weight / weight[z.level & 1] : 0;
        r->zone_guard[k] = r->zone_treasure[k] = 0;
        for (size_t o = 0; o < rmg_map_object_count(map); o++) {
            rmg_map_object_info oi = {.struct_size = sizeof oi};
            rmg_map_object(map, o, &oi);
            if (oi.zone == z.id && oi.kind == RMG_OBJECT_MONSTER)
                r->zone_guard[k] += oi.strength_total;
        }
        for (size_t g = 0; g < rmg_map_group_count(map); g++) {
            rmg_map_group_info gi = {.struct_size = sizeof gi};
            rmg_map_group(map, g, &gi);
            if (gi.zone == z.id)
                r->zone_treasure[k] += (double)gi.value;
        }
    }
    r->conns = r->conns_realized = r->conns_fictive = 0;
    for (size_t i = 0; i < rmg_map_connection_count(map); i++) {
        rmg_map_connection_info c = {.struct_size = sizeof c};
        rmg_map_connection(map, i, &c);
        r->conns++;
        r->conns_fictive += c.realized == RMG_REALIZED_FICTIVE;
        r->conns_realized += c.realized != RMG_REALIZED_UNREALIZED && c.realized != RMG_REALIZED_FICTIVE;
    }
    r->n_warnings = rmg_map_warning_count(map);
    r->n_warning_kinds = 0;
    for (size_t i = 0; i < r->n_warnings; i++) {
        char kind[48];
        warning_kind(rmg_map_warning(map, i), kind, sizeof kind);
        size_t k = 0;
        while (k < r->n_warning_kinds && strcmp(r->warning_kind[k], kind) != 0)
            k++;
        if (k == r->n_warning_kinds) {
            if (k == 16)
                continue; /* more kinds than a map usually has: the rest count in the total only */
            memcpy(r->warning_kind[k], kind, sizeof kind);
            r->warning_kind_count[k] = 0;
            r->n_warning_kinds++;
        }
        r->warning_kind_count[k]++;
    }
}

static void run_one(job *j, rmg_context *ctx, rmg_pack *pack, int index)
{
    run_result *r = &j->results[index];
    rmg_context_set_seed(ctx, j->first_seed + (uint64_t)index);
    rmg_map *map = NULL;
    double t0 = cli_now_ms();
    rmg_status st = rmg_generate(ctx, pack, &j->gen.opt, &map);
    r->ms = cli_now_ms() - t0;
    r->ok = st == RMG_OK;
    if (r->ok)
        collect(map, r);
    if (r->ok && j->balance)
        stats_balance_collect(map, &r->balance);
    else
        snprintf(r->error, sizeof r->error, "%s", rmg_context_errmsg(ctx));
    rmg_map_destroy(map);
}

static void *worker(void *arg)
{
    job *j = arg;
    rmg_context *ctx = NULL;
    rmg_pack *pack = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return NULL;
    rmg_status st = j->gen.game == RMG_CONTENT_HOTA ? RMG_OK : rmg_context_set_content_variant(ctx, j->gen.game);
    if (st == RMG_OK)
        st = j->gen.template_file ? rmg_pack_load(ctx, j->gen.template_file, RMG_FORMAT_AUTO, &pack)
                                  : rmg_pack_builtin(ctx, &pack);
    pthread_mutex_lock(&j->lock);
    if (st != RMG_OK && !j->load_error) {
        j->load_error = 1;
        snprintf(j->load_message, sizeof j->load_message, "%s", rmg_context_errmsg(ctx));
    }
    pthread_mutex_unlock(&j->lock);
    while (st == RMG_OK) {
        pthread_mutex_lock(&j->lock);
        int index = j->next < j->runs ? j->next++ : -1;
        pthread_mutex_unlock(&j->lock);
        if (index < 0)
            break;
        run_one(j, ctx, pack, index);
        pthread_mutex_lock(&j->lock);
        j->done++;
        pthread_mutex_unlock(&j->lock);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}


/* Warnings by kind over every successful run, most frequent first. */
static void report_warning_kinds(const job *j)
{
    char kinds[64][48];
    size_t counts[64], n = 0;
    for (int i = 0; i < j->runs; i++) {
        const run_result *r = &j->results[i];
        for (size_t k = 0; r->ok && k < r->n_warning_kinds; k++) {
            size_t m = 0;
            while (m < n && strcmp(kinds[m], r->warning_kind[k]) != 0)
                m++;
            if (m == n) {
                if (n == 64)
                    continue;
                memcpy(kinds[n], r->warning_kind[k], sizeof kinds[n]);
                counts[n++] = 0;
            }
            counts[m] += r->warning_kind_count[k];
        }
    }
    for (size_t shown = 0; shown < n; shown++) {
        size_t best = 0;
        for (size_t m = 1; m < n; m++)
            if (counts[m] > counts[best])
                best = m;
        if (!counts[best])
            break;
        printf("  %6zu  %s\n", counts[best], kinds[best]);
        counts[best] = 0;
    }
}

static void report_text(const job *j, double wall)
{
    int ok = 0;
    double *tmp = calloc((size_t)j->runs + 1, sizeof *tmp);
    if (!tmp)
        return;
    for (int i = 0; i < j->runs; i++)
        ok += j->results[i].ok;
    printf("runs %d, succeeded %d (%.1f%%), wall %.0f ms\n", j->runs, ok, 100.0 * ok / (j->runs ? j->runs : 1), wall);
    size_t n = 0;
    for (int i = 0; i < j->runs; i++)
        if (j->results[i].ok)
            tmp[n++] = j->results[i].ms;
    printf("time per map: median %.2f ms\n", median(tmp, n));
    for (int s = 0; s < RMG_STAGE_COUNT; s++) {
        n = 0;
        for (int i = 0; i < j->runs; i++)
            if (j->results[i].ok)
                tmp[n++] = j->results[i].stage_ms[s];
        printf("  %-8s median %8.3f ms\n", rmg__stage_name((rmg_stage_id)s), median(tmp, n));
    }
    /* Per template zone: tile share vs weight share, guard strength, treasure value. */
    printf("zone  share(median)  weight-share  guard-total(median)  treasure(median)\n");
    const run_result *first = NULL;
    for (int i = 0; i < j->runs && !first; i++)
        if (j->results[i].ok)
            first = &j->results[i];
    for (size_t k = 0; first && k < first->n_zones; k++) {
        size_t m = 0;
        double *share = tmp;
        for (int i = 0; i < j->runs; i++)
            if (j->results[i].ok && k < j->results[i].n_zones)
                share[m++] = j->results[i].zone_share[k];
        double share_med = median(share, m);
        m = 0;
        for (int i = 0; i < j->runs; i++)
            if (j->results[i].ok && k < j->results[i].n_zones)
                share[m++] = j->results[i].zone_guard[k];
        double guard_med = median(share, m);
        m = 0;
        for (int i = 0; i < j->runs; i++)
            if (j->results[i].ok && k < j->results[i].n_zones)
                share[m++] = j->results[i].zone_treasure[k];
        double treasure_med = median(share, m);
        printf("%4d  %12.3f  %12.3f  %19.1f  %16.0f\n", first->zone_tpl[k], share_med, first->zone_weight[k],
               guard_med, treasure_med);
    }
    size_t conns = 0, realized = 0, fictive = 0, warnings = 0;
    for (int i = 0; i < j->runs; i++)
        if (j->results[i].ok) {
            conns += j->results[i].conns;
            realized += j->results[i].conns_realized;
            fictive += j->results[i].conns_fictive;
            warnings += j->results[i].n_warnings;
        }
    printf("connections: %zu real, %zu realized (%.1f%%), %zu fictive\n", conns - fictive, realized,
           conns - fictive ? 100.0 * (double)realized / (double)(conns - fictive) : 100.0, fictive);
    printf("warnings: %zu in all\n", warnings);
    report_warning_kinds(j);
    for (int i = 0; i < j->runs; i++)
        if (!j->results[i].ok)
            printf("seed %llu failed: %s\n", (unsigned long long)(j->first_seed + (uint64_t)i), j->results[i].error);
    free(tmp);
}

static void report_json(const job *j)
{
    printf("{\"runs\":%d,\"results\":[", j->runs);
    for (int i = 0; i < j->runs; i++) {
        const run_result *r = &j->results[i];
        printf("%s{\"seed\":\"%llu\",\"ok\":%s,\"fingerprint\":\"%016llx\",\"ms\":%.3f", i ? "," : "",
               (unsigned long long)(j->first_seed + (uint64_t)i), r->ok ? "true" : "false",
               (unsigned long long)r->fingerprint, r->ms);
        printf(",\"warnings\":%zu", r->n_warnings);
        if (j->balance)
            stats_balance_json(stdout, &r->balance);
        printf("}");
    }
    printf("]}\n");
}

static void usage(FILE *out)
{
    fprintf(out, "usage: rmg stats [TEMPLATE] --runs N [--threads N] [--first-seed N] [--balance] [--json] [--fingerprints]\n"
                 "Generates N maps (seeds 1..N unless --first-seed) and reports success rate, per-stage time,\n"
                 "zone tile shares, guard strength and treasure per zone, connection realization and warnings.\n"
                 "--balance adds each map's balance report: the median, p10 and p90 of every measure (the players'\n"
                 "values and their spread) and of the fairness score, the fairest and least fair seeds\n"
                 "(docs/balance.md). --threads: maps generated at once (default: every core).\n"
                 "Generation options:\n");
    fputs(cli_gen_help, out);
    fputs("  --threads N            generate on N threads (same maps whatever N)\n"
          "  --json                 print JSON instead of text\n"
          "  --fingerprints         also print each map's fingerprint\n"
          "\nexit status: 0 every map generated, 1 some run failed to produce a map, 2 bad usage or an\n"
          "unreadable template\n", out);
}

/* What the command line asks beyond the generation options. */
typedef struct stats_options {
    int threads;
    bool json, fingerprints;
} stats_options;

/* Reads the command line into j and o. Returns -1 to go on, else the exit code: 0 after --help,
 * 2 for a bad option. */
static int parse_args(int argc, char **argv, job *j, stats_options *o)
{
    for (int i = 1; i < argc; i++) {
        int r = cli_gen_option(&j->gen, argc, argv, &i, "stats");
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 1, 1000000, &j->runs)) {
                fprintf(stderr, "rmg stats: bad --runs\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 1, 256, &o->threads)) {
                fprintf(stderr, "rmg stats: bad --threads\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--first-seed") == 0 && i + 1 < argc) {
            if (!cli_parse_u64(argv[++i], &j->first_seed)) {
                fprintf(stderr, "rmg stats: bad --first-seed\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if (strcmp(argv[i], "--balance") == 0) {
            j->balance = true;
        } else if (strcmp(argv[i], "--fingerprints") == 0) {
            o->fingerprints = true;
        } else if (argv[i][0] != '-' && !j->gen.template_file) {
            j->gen.template_file = argv[i];
        } else {
            fprintf(stderr, "rmg stats: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    return -1;
}

/* A progress bar on stderr until every run is done or the template failed to load. */
static void show_progress(job *j)
{
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int done = j->done, failed = j->load_error;
        pthread_mutex_unlock(&j->lock);
        fprintf(stderr, "\r[%-40.*s] %d/%d", j->runs ? 40 * done / j->runs : 40,
                "########################################", done, j->runs);
        if (done >= j->runs || failed)
            break;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "\n");
}

/* Runs the job on `threads` worker threads and waits for them. Returns how many started. */
static int run_workers(job *j, int threads, bool progress)
{
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    int started = 0;
    for (int t = 0; tids && t < threads; t++)
        if (pthread_create(&tids[t], NULL, worker, j) == 0)
            started++;
    /* Without a worker nothing would ever finish: no bar then. */
    if (progress && started)
        show_progress(j);
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    return started;
}

/* Prints the report; returns the exit code (1 when a run failed, 2 when nothing could run). */
static int report(const job *j, const stats_options *o, int started, double wall)
{
    if (j->load_error || !started) {
        fprintf(stderr, "rmg stats: %s\n", started ? j->load_message : "cannot start worker threads");
        return 2;
    }
    if (o->json) {
        report_json(j);
    } else {
        report_text(j, wall);
        if (j->balance)
            stats_balance_text(stdout, &j->results[0].balance, sizeof j->results[0], j->runs, j->first_seed);
        if (o->fingerprints)
            for (int i = 0; i < j->runs; i++)
                printf("seed %llu %016llx\n", (unsigned long long)(j->first_seed + (uint64_t)i),
                       (unsigned long long)j->results[i].fingerprint);
    }
    for (int i = 0; i < j->runs; i++)
        if (!j->results[i].ok)
            return 1;
    return 0;
}

int rmg_cmd_stats(int argc, char **argv)
{
    job j;
    memset(&j, 0, sizeof j);
    cli_gen_init(&j.gen);
    j.runs = 20;
    j.first_seed = 1;
    stats_options o = {cli_cores(), false, false};
    int code = parse_args(argc, argv, &j, &o);
    if (code >= 0)
        return code;
    j.results = calloc((size_t)j.runs, sizeof *j.results);
    if (!j.results) {
        fprintf(stderr, "rmg stats: out of memory\n");
        return 2;
    }
    pthread_mutex_init(&j.lock, NULL);
    double t0 = cli_now_ms();
    int started = run_workers(&j, o.threads, isatty(STDERR_FILENO) && !o.json);
    code = report(&j, &o, started, cli_now_ms() - t0);
    pthread_mutex_destroy(&j.lock);
    free(j.results);
    return code;
}
