/*
 * Bounded retries from the failed stage (issue 12, lib/driver/generate.c): a stage that fails,
 * or a map that fails validation (attributed to the stage responsible), is retried from that
 * stage with a derived sub-seed, keeping what the earlier stages made; each stage at most
 * RMG__STAGE_RETRIES (2) times per attempt, then (or when a retry fails just as the run before
 * did) a new attempt from solve; max_attempts runs in all. Retries are deterministic and leak
 * nothing when allocations fail.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "map/map_internal.h"
#include "rmg/stage.h"

/* ---- plugins that watch and disturb the pipeline ------------------------------------------ */

typedef struct stage_probe {
    int calls;       /* runs of the stage */
    int spoil_first; /* the first N runs leave a map that fails validation */
} stage_probe;

/* Runs the built-in stage and counts it. */
static rmg_status counting_stage(void *user, rmg_stage_view *view)
{
    stage_probe *p = user;
    p->calls++;
    return rmg_stage_run_builtin(view);
}

/* Moves a treasure onto a town's anchor: the map then breaks the objects rules the validator
 * checks (overlap, unreachable entry), which the driver attributes to the objects stage. */
static void spoil(struct rmg_map *m)
{
    rmg__map_object *town = NULL, *treasure = NULL;
    for (size_t i = 0; i < m->objects.count; i++) {
        rmg__map_object *o = &m->objects.items[i];
        if (!town && o->kind == RMG_OBJECT_TOWN)
            town = o;
        if (!treasure && o->kind == RMG_OBJECT_TREASURE)
            treasure = o;
    }
    if (town && treasure) {
        treasure->x = town->x;
        treasure->y = town->y;
        treasure->z = town->z;
    }
}

/* The finish stage, spoiling the map on its first runs (after the built-in finish ran). */
static rmg_status spoiling_finish(void *user, rmg_stage_view *view)
{
    stage_probe *p = user;
    rmg_status st = counting_stage(user, view);
    if (st == RMG_OK && p->calls <= p->spoil_first)
        spoil((struct rmg_map *)(uintptr_t)rmg_stage_view_map(view));
    return st;
}

static rmg_status set_plugin(rmg_context *ctx, rmg_stage_id stage, rmg_stage_run_fn run, stage_probe *p)
{
    rmg_stage_plugin plugin;
    rmg_stage_plugin_init(&plugin);
    plugin.run = run;
    plugin.user = p;
    return rmg_context_set_stage(ctx, stage, &plugin, RMG_PLUGIN_FAIL);
}

static void duet(rmg_generate_options *go, int max_attempts)
{
    rmg_generate_options_init(go);
    go->width = go->height = 36;
    go->levels = 1;
    go->template_name = "Duet";
    go->max_attempts = max_attempts;
}

typedef struct spoiled_run {
    stage_probe place, finish;
    uint64_t fingerprint;
    int attempts;
    uint16_t zones[36 * 36];
} spoiled_run;

/* Generates Duet 36x36 (seed 7) with the place stage counted and the finish stage spoiling
 * the map `spoil_first` times. */
static rmg_status spoiled_generation(rmg_context *ctx, spoiled_run *r, int spoil_first)
{
    memset(r, 0, sizeof *r);
    r->finish.spoil_first = spoil_first;
    rmg_status st = set_plugin(ctx, RMG_STAGE_PLACE, counting_stage, &r->place);
    if (st == RMG_OK)
        st = set_plugin(ctx, RMG_STAGE_FINISH, spoiling_finish, &r->finish);
    rmg_generate_options go;
    duet(&go, 8);
    rmg_map *map = NULL;
    if (st == RMG_OK)
        st = rmg_generate(ctx, NULL, &go, &map);
    if (st == RMG_OK) {
        r->fingerprint = rmg_map_fingerprint(map);
        r->attempts = rmg_map_attempts(map);
        st = rmg_map_copy_layer(map, RMG_LAYER_ZONE, r->zones, sizeof r->zones);
    }
    rmg_map_destroy(map);
    return st;
}

/* A map failing validation because of the objects stage is retried from objects: the place
 * stage ran once, the zones it drew are those of the same seed without any failure, only the
 * later stages differ (their sub-seed), and the same seed gives the same map again. */
static void test_validation_failure_retries_from_objects(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 7);
    spoiled_run plain, spoiled, again;
    assert_int_equal(spoiled_generation(ctx, &plain, 0), RMG_OK);
    assert_int_equal(plain.attempts, 1);
    assert_int_equal(spoiled_generation(ctx, &spoiled, 1), RMG_OK);
    printf("spoiled once: %d runs, place ran %d times, finish %d times\n", spoiled.attempts, spoiled.place.calls,
           spoiled.finish.calls);
    assert_int_equal(spoiled.attempts, 2);
    assert_int_equal(spoiled.place.calls, 1);
    assert_int_equal(spoiled.finish.calls, 2);
    assert_memory_equal(plain.zones, spoiled.zones, sizeof plain.zones);
    assert_true(plain.fingerprint != spoiled.fingerprint);
    assert_int_equal(spoiled_generation(ctx, &again, 1), RMG_OK);
    assert_true(again.fingerprint == spoiled.fingerprint);
    rmg_context_destroy(ctx);
}

/* Objects retried twice, then a new attempt: the third spoiled map makes the driver start over
 * from solve (place runs again); the fourth run's map validates. */
static void test_stage_retries_are_bounded_then_a_new_attempt(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 7);
    spoiled_run r;
    assert_int_equal(spoiled_generation(ctx, &r, 3), RMG_OK);
    printf("spoiled 3 times: %d runs, place ran %d times\n", r.attempts, r.place.calls);
    assert_int_equal(r.attempts, 4);
    assert_int_equal(r.place.calls, 2);
    assert_int_equal(r.finish.calls, 4);
    rmg_context_destroy(ctx);
}

/* ---- the failure message and the total bound --------------------------------------------- */

typedef struct run_log {
    int solve_starts;  /* progress reports of solve starting: runs that start from solve */
    int attempts;      /* the highest attempt a failed run's log line names */
    char last[600];
} run_log;

static int count_solve(void *user, const char *stage, double fraction)
{
    run_log *l = user;
    l->solve_starts += strcmp(stage, "solve") == 0 && fraction == 0.0;
    return 0;
}

/* "run N (attempt A, STAGE retry R) failed: ..." (generate.c) */
static void count_attempts(void *user, rmg_log_level level, const char *message)
{
    run_log *l = user;
    int run = 0, attempt = 0;
    (void)level;
    if (sscanf(message, "run %d (attempt %d,", &run, &attempt) == 2 && attempt > l->attempts)
        l->attempts = attempt;
}

/* A context (seed 7) that counts the runs starting from solve and the attempts. */
static rmg_context *context_counting_runs(run_log *log)
{
    memset(log, 0, sizeof *log);
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.seed = 7;
    o.progress = count_solve;
    o.progress_user = log;
    o.log = count_attempts;
    o.log_user = log;
    o.log_level = RMG_LOG_INFO;
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_OK);
    return ctx;
}

/* Without a plugin before the failed stage, the first run keeps no checkpoints (generate.c,
 * checkpoint_before): the retry replays the built-in stages before it with their seeds. The
 * map is the very one the checkpoint path makes (the place stage counted by a plugin, which
 * makes the driver keep its checkpoints), and the replay shows as a second start of solve. */
static void test_replay_without_checkpoints_makes_the_same_map(void **state)
{
    (void)state;
    spoiled_run eager;
    rmg_context *ctx = rmg_test_context(NULL, 7);
    assert_int_equal(spoiled_generation(ctx, &eager, 1), RMG_OK);
    assert_int_equal(eager.place.calls, 1);
    rmg_context_destroy(ctx);

    run_log log;
    ctx = context_counting_runs(&log);
    stage_probe finish = {0, 1};
    assert_int_equal(set_plugin(ctx, RMG_STAGE_FINISH, spoiling_finish, &finish), RMG_OK);
    rmg_generate_options go;
    duet(&go, 8);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    assert_int_equal(rmg_map_attempts(map), 2);
    assert_int_equal(finish.calls, 2);
    assert_int_equal(log.solve_starts, 2);
    assert_int_equal(log.attempts, 1);
    assert_true(rmg_map_fingerprint(map) == eager.fingerprint);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* Spoiled on every run: max_attempts runs in all, a new attempt (solve) every third run, and
 * the failure names the stage, the zone and the rule. */
static void test_failure_after_the_bound_names_stage_zone_rule(void **state)
{
    (void)state;
    run_log log;
    rmg_context *ctx = context_counting_runs(&log);
    stage_probe finish = {0, 1000};
    assert_int_equal(set_plugin(ctx, RMG_STAGE_FINISH, spoiling_finish, &finish), RMG_OK);
    rmg_generate_options go;
    duet(&go, 7);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_ERR_IMPOSSIBLE);
    assert_null(map);
    rmg_error_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    assert_int_equal(rmg_context_error(ctx, &info), RMG_OK);
    printf("%s\n", info.message);
    assert_int_equal(finish.calls, 7);
    assert_int_equal(log.attempts, 3); /* runs 1-3, 4-6 and 7 */
    assert_string_equal(info.stage, "objects");
    assert_true(info.zone > 0);
    assert_non_null(strstr(info.message, "after 7 attempts"));
    assert_non_null(strstr(info.message, "rule '"));
    rmg_context_destroy(ctx);
}

/* Claims the first passage is made of teleports it does not have: a connection rule, which
 * the driver attributes to the connect stage, broken the same way whatever its seed. */
static rmg_status fake_teleport_finish(void *user, rmg_stage_view *view)
{
    rmg_status st = counting_stage(user, view);
    struct rmg_map *m = (struct rmg_map *)(uintptr_t)rmg_stage_view_map(view);
    for (size_t i = 0; st == RMG_OK && i < m->conns.count; i++)
        if (m->conns.items[i].realized == RMG_REALIZED_PASSAGE) {
            m->conns.items[i].realized = RMG_REALIZED_MONOLITH;
            break;
        }
    return st;
}

/* A retry that fails with the very message of the run before starts a new attempt at once:
 * runs 1 (build), 2 (build retried, same failure), 3 (new attempt), 4, 5 (new attempt). */
static void test_same_failure_again_starts_a_new_attempt(void **state)
{
    (void)state;
    run_log log;
    rmg_context *ctx = context_counting_runs(&log);
    stage_probe finish = {0, 0};
    assert_int_equal(set_plugin(ctx, RMG_STAGE_FINISH, fake_teleport_finish, &finish), RMG_OK);
    rmg_generate_options go;
    duet(&go, 5);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_ERR_IMPOSSIBLE);
    printf("%s\n", rmg_context_errmsg(ctx));
    assert_int_equal(finish.calls, 5);
    assert_int_equal(log.attempts, 3);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "connect: zone"));
    rmg_context_destroy(ctx);
}

/* ---- out of memory while retrying ---------------------------------------------------------- */

static rmg_status spoiled_case(rmg_context *ctx, void *user)
{
    (void)user;
    spoiled_run *r = malloc(sizeof *r);
    if (!r)
        return RMG_ERR_NOMEM;
    rmg_status st = spoiled_generation(ctx, r, 2);
    free(r);
    rmg_context_set_stage(ctx, RMG_STAGE_PLACE, NULL, RMG_PLUGIN_FAIL);
    rmg_context_set_stage(ctx, RMG_STAGE_FINISH, NULL, RMG_PLUGIN_FAIL);
    return st;
}

/* Checkpoints are taken and restored through the context allocator: every allocation of a
 * generation that retries objects twice fails in turn without a leak. */
static void test_oom_while_retrying(void **state)
{
    (void)state;
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 7);
    assert_int_equal(spoiled_case(ctx, NULL), RMG_OK);
    rmg_context_destroy(ctx);
    size_t stride = ta.calls / 60 + 1;
    size_t total = rmg_test_oom_sweep(spoiled_case, NULL, 0, stride | 1);
    printf("oom while retrying: %zu allocations, every %zu-th failed in turn\n", total, stride | 1);
    assert_true(total > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation_failure_retries_from_objects),
        cmocka_unit_test(test_stage_retries_are_bounded_then_a_new_attempt),
        cmocka_unit_test(test_replay_without_checkpoints_makes_the_same_map),
        cmocka_unit_test(test_failure_after_the_bound_names_stage_zone_rule),
        cmocka_unit_test(test_same_failure_again_starts_a_new_attempt),
        cmocka_unit_test(test_oom_while_retrying),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
