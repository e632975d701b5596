/*
 * Reliability of whole generation (issue 12): bounded retries and their failure message,
 * cancellation from another thread, the time budget, independent contexts on several threads,
 * and out-of-memory injection through whole generation of several templates.
 *
 * RMG_TEST_FILTER=PATTERN runs only matching tests (the ThreadSanitizer run uses it).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void options(rmg_generate_options *go, int side, int levels, const char *tpl)
{
    rmg_generate_options_init(go);
    go->width = go->height = side;
    go->levels = levels;
    go->template_name = tpl;
}

/* ---- bounded retries -------------------------------------------------------------------- */

/* A template that cannot fit on a small map: far more zones (each with a castle) than a
 * 36x36 map holds. Written as YAML text (docs/template-format.md). */
static char *crowded_template(int zones)
{
    size_t cap = 4096 + (size_t)zones * 200;
    char *y = malloc(cap);
    size_t n = (size_t)snprintf(y, cap,
                                "version: 1\nname: crowd\ntemplates:\n  - name: Crowd\n    min_size: 1\n"
                                "    max_size: 32\n    players: {min_total: 2, max_total: 2}\n    zones:\n");
    for (int z = 1; z <= zones; z++)
        n += (size_t)snprintf(y + n, cap - n,
                              "      - {id: %d, kind: %s, %ssize: 10, player_towns: {castles: 1}}\n", z,
                              z <= 2 ? "human_start" : "treasure", z == 1 ? "owner: 1, " : z == 2 ? "owner: 2, " : "");
    n += (size_t)snprintf(y + n, cap - n, "    connections:\n");
    for (int z = 1; z < zones; z++)
        n += (size_t)snprintf(y + n, cap - n, "      - {a: %d, b: %d, value: 3000}\n", z, z + 1);
    return y;
}

/* The failure after the retries names the stage that could not do its work and the count. */
static void test_impossible_template_failure_names_the_stage(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 4);
    char *yaml = crowded_template(60); /* 60 castles: within the 81 towns a 36x36 map may hold, but no room */
    rmg_pack *pack = NULL;
    if (rmg_pack_load_string(ctx, yaml, strlen(yaml), "crowd", RMG_FORMAT_YAML, &pack) != RMG_OK)
        fail_msg("crowded template does not load: %s", rmg_context_errmsg(ctx));
    free(yaml);
    rmg_generate_options go;
    options(&go, 36, 1, "Crowd");
    go.max_attempts = 3;
    rmg_map *map = NULL;
    rmg_status st = rmg_generate(ctx, pack, &go, &map);
    const char *msg = rmg_context_errmsg(ctx);
    printf("impossible template: %s: %s\n", rmg_status_name(st), msg);
    assert_int_equal(st, RMG_ERR_IMPOSSIBLE);
    assert_null(map);
    bool names_stage = false;
    static const char *const stages[] = {"solve:", "place:", "connect:", "objects:", "guard:", "finish:", "validate:"};
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++)
        names_stage |= strstr(msg, stages[i]) != NULL;
    assert_true(names_stage);
    assert_non_null(strstr(msg, "after 3 attempts"));
    /* The context stays usable: the built-in pack still generates. */
    options(&go, 36, 1, NULL);
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Minimum towns beyond what any map holds (2^31 of them: a mutated template made the solver
 * overflow and exhaust memory) or negative are refused at select, naming the zone: as errors of
 * the template (`rmg check`'s) when no map of the template can hold them, else for the map asked. */
static void test_absurd_town_counts_are_refused(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"{towns: 2147483647, castles: 2}", "more than the largest map of the template"},
        {"{towns: 100}", "more than a 36x36x1 map can hold"},
        {"{towns: -2147483648, castles: -1}", "negative"},
    };
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char yaml[1024];
        snprintf(yaml, sizeof yaml,
                 "version: 1\nname: towns\ntemplates:\n  - name: Towns\n    min_size: 1\n    max_size: 32\n"
                 "    players: {min_total: 2, max_total: 2}\n    zones:\n"
                 "      - {id: 1, kind: human_start, owner: 1, size: 10, player_towns: {castles: 1}}\n"
                 "      - {id: 2, kind: human_start, owner: 2, size: 10, player_towns: {castles: 1}}\n"
                 "      - {id: 3, kind: treasure, size: 10, neutral_towns: %s}\n"
                 "    connections:\n      - {a: 1, b: 3, value: 3000}\n      - {a: 2, b: 3, value: 3000}\n",
                 cases[i][0]);
        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_load_string(ctx, yaml, strlen(yaml), "towns", RMG_FORMAT_YAML, &pack), RMG_OK);
        rmg_generate_options go;
        options(&go, 36, 1, "Towns");
        rmg_map *map = NULL;
        rmg_status st = rmg_generate(ctx, pack, &go, &map);
        printf("%s: %s: %s\n", cases[i][0], rmg_status_name(st), rmg_context_errmsg(ctx));
        assert_true(st == RMG_ERR_IMPOSSIBLE || st == RMG_ERR_INVALID_DATA);
        assert_null(map);
        assert_non_null(strstr(rmg_context_errmsg(ctx), "select: "));
        assert_non_null(strstr(rmg_context_errmsg(ctx), "zone 3"));
        assert_non_null(strstr(rmg_context_errmsg(ctx), cases[i][1]));
        rmg_pack_destroy(pack);
    }
    rmg_context_destroy(ctx);
}

/* ---- cancellation from another thread ----------------------------------------------------- */

/* A context with a progress callback (and seed 0 unless given). */
static rmg_context *context_with_progress(rmg_progress_fn fn, void *user, uint64_t seed)
{
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.seed = seed;
    o.progress = fn;
    o.progress_user = user;
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_OK);
    return ctx;
}

typedef struct cancel_job {
    rmg_context *ctx;
    atomic_int started;   /* set by the progress callback once a stage has begun */
    atomic_int cancelled; /* set by the canceller after rmg_context_cancel */
} cancel_job;

static int on_progress(void *user, const char *stage, double fraction)
{
    cancel_job *job = user;
    (void)fraction;
    if (strcmp(stage, "connect") == 0 || strcmp(stage, "objects") == 0)
        atomic_store(&job->started, 1);
    return 0;
}

static void *canceller(void *arg)
{
    cancel_job *job = arg;
    while (!atomic_load(&job->started)) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    rmg_context_cancel(job->ctx);
    atomic_store(&job->cancelled, 1);
    return NULL;
}

static void test_cancel_from_another_thread_stops_cleanly(void **state)
{
    (void)state;
    cancel_job job;
    atomic_init(&job.started, 0);
    atomic_init(&job.cancelled, 0);
    job.ctx = context_with_progress(on_progress, &job, 5);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, canceller, &job), 0);
    rmg_generate_options go;
    options(&go, 144, 2, NULL);
    rmg_map *map = NULL;
    rmg_status st = rmg_generate(job.ctx, NULL, &go, &map);
    pthread_join(th, NULL);
    assert_int_equal(atomic_load(&job.cancelled), 1);
    assert_int_equal(st, RMG_ERR_CANCELLED);
    assert_null(map);
    assert_true(rmg_context_cancelled(job.ctx));
    assert_non_null(strstr(rmg_context_errmsg(job.ctx), "cancel"));
    /* After a reset the same context generates again. */
    rmg_context_reset_cancel(job.ctx);
    options(&go, 36, 1, NULL);
    assert_int_equal(rmg_generate(job.ctx, NULL, &go, &map), RMG_OK);
    rmg_map_destroy(map);
    rmg_context_destroy(job.ctx);
}

/* ---- stopping a large map promptly --------------------------------------------------------- */

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* A template for the largest maps (252x252 with underground): 16 zones in a chain, each with
 * dense treasure, so the objects and finish stages take long. */
static char *large_template(void)
{
    size_t cap = 16384, n = 0;
    char *y = malloc(cap);
    n += (size_t)snprintf(y + n, cap - n,
                          "version: 1\nname: large\ntemplates:\n  - name: Large\n    min_size: 1\n"
                          "    max_size: 200\n    players: {min_total: 2, max_total: 2}\n    zones:\n");
    for (int z = 1; z <= 16; z++)
        n += (size_t)snprintf(y + n, cap - n,
                              "      - {id: %d, kind: %s, %ssize: 10, player_towns: {castles: 1}, treasure: "
                              "[{min: 500, max: 3000, density: 10}, {min: 3000, max: 6000, density: 6}, "
                              "{min: 10000, max: 15000, density: 2}]}\n",
                              z, z <= 2 ? "human_start" : "treasure", z == 1 ? "owner: 1, " : z == 2 ? "owner: 2, " : "");
    n += (size_t)snprintf(y + n, cap - n, "    connections:\n");
    for (int z = 1; z < 16; z++)
        n += (size_t)snprintf(y + n, cap - n, "      - {a: %d, b: %d, value: 3000}\n", z, z + 1);
    return y;
}

static rmg_pack *load_large(rmg_context *ctx)
{
    char *yaml = large_template();
    rmg_pack *pack = NULL;
    rmg_status st = rmg_pack_load_string(ctx, yaml, strlen(yaml), "large", RMG_FORMAT_YAML, &pack);
    free(yaml);
    if (st != RMG_OK)
        fail_msg("large template does not load: %s", rmg_context_errmsg(ctx));
    return pack;
}

typedef struct stop_job {
    rmg_context *ctx;
    atomic_int in_objects; /* set by the progress callback once the objects stage has begun */
    double cancelled_at;   /* wall ms of rmg_context_cancel */
} stop_job;

static int watch_objects(void *user, const char *stage, double fraction)
{
    stop_job *job = user;
    (void)fraction;
    if (strcmp(stage, "objects") == 0)
        atomic_store(&job->in_objects, 1);
    return 0;
}

/* Cancels a few milliseconds into the objects stage, inside it rather than at its start. */
static void *cancel_in_objects(void *arg)
{
    stop_job *job = arg;
    struct timespec pause = {0, 1000000};
    while (!atomic_load(&job->in_objects))
        nanosleep(&pause, NULL);
    pause.tv_nsec = 20 * 1000000L;
    nanosleep(&pause, NULL);
    job->cancelled_at = wall_ms();
    rmg_context_cancel(job->ctx);
    return NULL;
}

/* Bound between a cancel (or the end of the budget) and rmg_generate's return on a 252x252x2
 * map: the objects stage checks between zones, so the wait is at most about one zone's work
 * (sanitizer build, shared CPU: generous). */
#define STOP_BOUND_MS 3000.0

/* A cancel from another thread while the objects stage of a large map runs returns promptly
 * with RMG_ERR_CANCELLED (no leak: ASan), and the context generates again afterwards. */
static void test_cancel_inside_a_stage_of_a_large_map(void **state)
{
    (void)state;
    stop_job job;
    memset(&job, 0, sizeof job);
    atomic_init(&job.in_objects, 0);
    job.ctx = context_with_progress(watch_objects, &job, 3);
    rmg_pack *pack = load_large(job.ctx);
    rmg_generate_options go;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, cancel_in_objects, &job), 0);
    options(&go, 252, 2, "Large");
    rmg_map *map = NULL;
    double t0 = wall_ms();
    rmg_status st = rmg_generate(job.ctx, pack, &go, &map);
    double returned = wall_ms();
    pthread_join(th, NULL);
    printf("large map: cancelled %.0f ms after the start, returned %.0f ms after the cancel: %s\n",
           job.cancelled_at - t0, returned - job.cancelled_at, rmg_context_errmsg(job.ctx));
    assert_int_equal(st, RMG_ERR_CANCELLED);
    assert_null(map);
    assert_true(returned - job.cancelled_at < STOP_BOUND_MS);
    rmg_context_reset_cancel(job.ctx);
    options(&go, 36, 1, NULL);
    assert_int_equal(rmg_generate(job.ctx, NULL, &go, &map), RMG_OK);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(job.ctx);
}

static int stop_at_third_place_report(void *user, const char *stage, double fraction)
{
    int *reports = user;
    (void)fraction;
    return strcmp(stage, "place") == 0 && ++*reports == 3;
}

/* The place stage reports progress inside itself (after the layout and after growing the
 * zones), so a host can stop it there and not only between stages. */
static void test_cancel_inside_the_place_stage(void **state)
{
    (void)state;
    int reports = 0;
    rmg_context *ctx = context_with_progress(stop_at_third_place_report, &reports, 0);
    rmg_generate_options go;
    options(&go, 72, 1, NULL);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_ERR_CANCELLED);
    assert_null(map);
    assert_int_equal(reports, 3);
    rmg_error_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    rmg_context_error(ctx, &info);
    assert_string_equal(info.stage, "place");
    rmg_context_destroy(ctx);
}

typedef struct progress_log {
    char last[16];
    double last_fraction;
    int reports, stages, bad;
} progress_log;

static int check_progress(void *user, const char *stage, double fraction)
{
    progress_log *log = user;
    log->reports++;
    if (fraction < 0 || fraction >= 1)
        log->bad++;
    if (strcmp(stage, log->last) != 0) {
        log->stages++;
        log->bad += fraction != 0; /* a stage's first report is its start */
        snprintf(log->last, sizeof log->last, "%s", stage);
    } else if (fraction < log->last_fraction) {
        log->bad++;
    }
    log->last_fraction = fraction;
    return 0;
}

/* The progress callback's fraction is how far the named stage is: 0 at each stage's start,
 * then non-decreasing and below 1 within it. */
static void test_progress_fraction_is_per_stage(void **state)
{
    (void)state;
    progress_log log;
    memset(&log, 0, sizeof log);
    rmg_context *ctx = context_with_progress(check_progress, &log, 0);
    rmg_map *map = rmg_test_generate(ctx, 108, 2);
    assert_int_equal(log.bad, 0);
    assert_true(log.stages >= 6 && log.reports > log.stages);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* A 1 ms budget gives RMG_ERR_LIMIT; a budget that ends inside the objects stage of a large
 * map stops it within the bound, not at the end of the stage. */
static void test_budget_inside_a_stage_of_a_large_map(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 3);
    rmg_pack *pack = load_large(ctx);
    rmg_generate_options go;
    options(&go, 252, 2, "Large");
    go.time_budget_ms = 1;
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_LIMIT);
    assert_null(map);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "time budget of 1 ms"));
    /* The time to the objects stage, then a budget ending a little after it begins. */
    go.time_budget_ms = 0;
    go.max_attempts = 1;
    double t0 = wall_ms();
    rmg_status full = rmg_generate(ctx, pack, &go, &map);
    double full_ms = wall_ms() - t0;
    rmg_map_destroy(map);
    map = NULL;
    go.time_budget_ms = (unsigned)(full_ms * 0.4) + 1;
    t0 = wall_ms();
    rmg_status st = rmg_generate(ctx, pack, &go, &map);
    double spent = wall_ms() - t0;
    printf("large map: %s in %.0f ms; with a %u ms budget %.0f ms: %s\n", rmg_status_name(full), full_ms,
           go.time_budget_ms, spent, rmg_context_errmsg(ctx));
    assert_int_equal(st, RMG_ERR_LIMIT);
    assert_null(map);
    assert_true(spent < go.time_budget_ms + STOP_BOUND_MS);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- time budget -------------------------------------------------------------------------- */

/* Stalls the host between stages: the progress callback before "connect" sleeps longer than
 * the whole budget, so the budget runs out in the middle of the attempt. */
static int slow_host(void *user, const char *stage, double fraction)
{
    (void)user;
    (void)fraction;
    if (strcmp(stage, "connect") == 0) {
        struct timespec pause = {0, 300 * 1000000L};
        nanosleep(&pause, NULL);
    }
    return 0;
}

/* A budget spent in the middle of an attempt stops generation with RMG_ERR_LIMIT at the next
 * check (the connect stage's, right after the stalled callback), having spent a small part of
 * the CPU time a full generation takes (CPU time of this thread, so a loaded machine does not
 * make the test flaky). */
static void test_time_budget_is_honoured(void **state)
{
    (void)state;
    rmg_context *ctx = context_with_progress(slow_host, NULL, 6);
    rmg_generate_options go;
    options(&go, 108, 2, NULL);
    rmg_map *map = NULL;
    double t0 = cpu_ms();
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    double full = cpu_ms() - t0;
    rmg_map_destroy(map);
    go.time_budget_ms = 200;
    t0 = cpu_ms();
    rmg_status st = rmg_generate(ctx, NULL, &go, &map);
    double budgeted = cpu_ms() - t0;
    printf("full generation %.0f ms CPU, with a 200 ms budget %.0f ms: %s\n", full, budgeted,
           rmg_context_errmsg(ctx));
    assert_int_equal(st, RMG_ERR_LIMIT);
    assert_null(map);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "time budget of 200 ms"));
    assert_non_null(strstr(rmg_context_errmsg(ctx), "connect")); /* stopped before connect did its work */
    assert_true(budgeted < full / 2);
    rmg_context_destroy(ctx);
}

/* ---- threads ------------------------------------------------------------------------------ */

#define N_THREADS 4

typedef struct thread_job {
    uint64_t seed;
    uint64_t fingerprint;
    rmg_status status;
} thread_job;

static void *generate_on_thread(void *arg)
{
    thread_job *job = arg;
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.seed = job->seed;
    rmg_context *ctx = NULL;
    job->status = rmg_context_create(&ctx, &o);
    if (job->status != RMG_OK)
        return NULL;
    rmg_generate_options go;
    options(&go, 36, 1, NULL);
    rmg_map *map = NULL;
    job->status = rmg_generate(ctx, NULL, &go, &map);
    job->fingerprint = map ? rmg_map_fingerprint(map) : 0;
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return NULL;
}

/* Contexts are independent: maps generated at once on several threads equal the maps the
 * same seeds give one after the other. Run under ThreadSanitizer by scripts/check-tsan.sh. */
static void test_threads_generate_independently(void **state)
{
    (void)state;
    thread_job seq[N_THREADS], par[N_THREADS];
    pthread_t th[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        seq[i] = (thread_job){.seed = (uint64_t)i + 1};
        par[i] = seq[i];
        generate_on_thread(&seq[i]);
        assert_int_equal(seq[i].status, RMG_OK);
    }
    for (int i = 0; i < N_THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, generate_on_thread, &par[i]), 0);
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(par[i].status, RMG_OK);
        assert_true(par[i].fingerprint == seq[i].fingerprint);
    }
    assert_true(seq[0].fingerprint != seq[1].fingerprint);
}

typedef struct reader_job {
    rmg_context *ctx;
    const rmg_map *map;
    uint64_t fingerprint;
    size_t json_len;
} reader_job;

static void *read_map_on_thread(void *arg)
{
    reader_job *job = arg;
    job->fingerprint = rmg_map_fingerprint(job->map);
    char *json = NULL;
    if (rmg_map_to_json(job->map, &json, &job->json_len) == RMG_OK)
        rmg_free(job->ctx, json);
    return NULL;
}

/* A finished map is read-only: threads may ask for its fingerprint (computed on the first
 * request) and its JSON at once and get the same answers (ThreadSanitizer: no race). */
static void test_threads_read_one_map(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    rmg_generate_options go;
    options(&go, 36, 1, NULL);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    reader_job jobs[N_THREADS];
    pthread_t th[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        jobs[i] = (reader_job){.ctx = ctx, .map = map};
        assert_int_equal(pthread_create(&th[i], NULL, read_map_on_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < N_THREADS; i++) {
        assert_true(jobs[i].fingerprint != 0);
        assert_true(jobs[i].fingerprint == jobs[0].fingerprint);
        assert_true(jobs[i].json_len > 0 && jobs[i].json_len == jobs[0].json_len);
    }
    assert_true(rmg_map_fingerprint(map) == jobs[0].fingerprint);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* ---- out-of-memory through whole generation -------------------------------------------- */

typedef struct oom_case {
    const char *file;     /* template file under the shared folder, NULL: the built-in pack */
    const char *tpl;      /* template name, NULL: the pack's choice */
    int side, levels;
} oom_case;

static rmg_status generate_case(rmg_context *ctx, void *user)
{
    const oom_case *c = user;
    rmg_pack *pack = NULL;
    rmg_status st = c->file ? rmg_pack_load(ctx, rmg_test_shared(c->file), RMG_FORMAT_AUTO, &pack) : RMG_OK;
    if (st != RMG_OK)
        return st;
    rmg_generate_options go;
    options(&go, c->side, c->levels, c->tpl);
    go.max_attempts = 2;
    rmg_map *map = NULL;
    st = rmg_generate(ctx, pack, &go, &map);
    if (st == RMG_OK) {
        char *json = NULL;
        size_t len = 0;
        st = rmg_map_to_json(map, &json, &len);
        rmg_free(ctx, json);
    }
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    return st;
}

/* Every k-th allocation (strided; RMG_OOM_STRIDE=1 for all) failing gives an error status,
 * nothing leaks, and the context stays usable (rmg_test_oom_sweep asserts all three). */
static void test_oom_through_whole_generation(void **state)
{
    (void)state;
    static oom_case cases[] = {
        {NULL, "Duet", 36, 1},
        {NULL, "Duet", 36, 2},
        {NULL, "Quartet", 72, 1},
        {"corpus/sod/sokie__heroes3-template-util__templates__sod_complete__2SM2c__rmg.txt", NULL, 36, 1},
    };
    const char *env = getenv("RMG_OOM_STRIDE");
    size_t stride = env && *env ? (size_t)strtoul(env, NULL, 10) : 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* First count the allocations, then sweep about 80 failure points spread over them. */
        size_t s = stride ? stride : 1;
        if (!stride) {
            rmg_test_alloc ta = {0};
            rmg_context *ctx = rmg_test_context(&ta, 1);
            assert_int_equal(generate_case(ctx, &cases[i]), RMG_OK);
            rmg_context_destroy(ctx);
            s = ta.calls / 80 + 1;
        }
        size_t total = rmg_test_oom_sweep(generate_case, &cases[i], 0, s | 1);
        printf("oom: %s %s %dx%dx%d: %zu allocations, every %zu-th failed in turn\n",
               cases[i].file ? "corpus" : "built-in", cases[i].tpl ? cases[i].tpl : "(pack choice)", cases[i].side,
               cases[i].side, cases[i].levels, total, s | 1);
        assert_true(total > 100);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_impossible_template_failure_names_the_stage),
        cmocka_unit_test(test_absurd_town_counts_are_refused),
        cmocka_unit_test(test_cancel_from_another_thread_stops_cleanly),
        cmocka_unit_test(test_time_budget_is_honoured),
        cmocka_unit_test(test_cancel_inside_a_stage_of_a_large_map),
        cmocka_unit_test(test_cancel_inside_the_place_stage),
        cmocka_unit_test(test_progress_fraction_is_per_stage),
        cmocka_unit_test(test_budget_inside_a_stage_of_a_large_map),
        cmocka_unit_test(test_threads_generate_independently),
        cmocka_unit_test(test_threads_read_one_map),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_oom_through_whole_generation),
    };
    const char *filter = getenv("RMG_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
