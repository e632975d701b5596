/*
 * Lifetimes (issue 28, core.h "Lifetimes"): a context, and the maps, packs, balance reports,
 * validations, object lists and solve results made with it, may be destroyed in any order and
 * on any thread; the context's blocks (allocator, ruleset) live until the last of them goes.
 * Cancel (core.h "Cancel"): each generation starts uncancelled.
 *
 * Every test runs on a host allocator that marks its blocks, so a block freed twice, or a
 * pointer it never handed out, fails the test; the counts show every block freed exactly once
 * and the context's own block freed last.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmg_test.h"
#include "map/map_internal.h" /* rmg__map_from_json: the map document reader of rmg balance */

/* ---- a host allocator that checks every free ------------------------------------------------ */

#define LIVE_MAGIC 0x4c495645u /* "LIVE" */
#define DEAD_MAGIC 0x44454144u /* "DEAD" */

typedef struct host_alloc {
    pthread_mutex_t lock;
    size_t allocs, frees, live;
    size_t bad_frees;      /* a pointer not live: freed twice, or never handed out */
    void *first;           /* the first block handed out: the context's own (rmg_context_create) */
    void *last_freed;
} host_alloc;

typedef struct header {
    uint32_t magic;
    size_t size;
    _Alignas(16) unsigned char data[];
} header;

static void *host_alloc_fn(void *user, void *ptr, size_t osize, size_t nsize)
{
    host_alloc *h = user;
    header *old = ptr ? (header *)((unsigned char *)ptr - offsetof(header, data)) : NULL;
    pthread_mutex_lock(&h->lock);
    if (old && (old->magic != LIVE_MAGIC || old->size != osize)) {
        h->bad_frees++;
        pthread_mutex_unlock(&h->lock);
        return NULL;
    }
    if (nsize == 0) {
        if (old) {
            old->magic = DEAD_MAGIC;
            h->frees++;
            h->live--;
            h->last_freed = ptr;
        }
        pthread_mutex_unlock(&h->lock);
        free(old);
        return NULL;
    }
    header *n = realloc(old, sizeof *n + nsize);
    if (n) {
        n->magic = LIVE_MAGIC;
        n->size = nsize;
        if (!old) {
            h->allocs++;
            h->live++;
            if (!h->first)
                h->first = n->data;
        }
    }
    pthread_mutex_unlock(&h->lock);
    return n ? n->data : NULL;
}

static void host_init(host_alloc *h)
{
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->lock, NULL);
}

static size_t host_live(host_alloc *h)
{
    pthread_mutex_lock(&h->lock);
    size_t n = h->live;
    pthread_mutex_unlock(&h->lock);
    return n;
}

/* Everything was freed exactly once, the context's block last. */
static void host_check_all_freed(host_alloc *h)
{
    assert_int_equal(h->bad_frees, 0);
    assert_int_equal(h->live, 0);
    assert_int_equal(h->allocs, h->frees);
    assert_non_null(h->first);
    assert_ptr_equal(h->last_freed, h->first);
    pthread_mutex_destroy(&h->lock);
}

/* A context on the checking allocator h, with a progress callback when progress is not NULL. */
static rmg_context *host_context_with(host_alloc *h, uint64_t seed, rmg_progress_fn progress, void *user)
{
    host_init(h);
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.alloc = host_alloc_fn;
    o.alloc_user = h;
    o.seed = seed;
    o.progress = progress;
    o.progress_user = user;
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_OK);
    return ctx;
}

static rmg_context *host_context(host_alloc *h, uint64_t seed)
{
    return host_context_with(h, seed, NULL, NULL);
}

static void small_options(rmg_generate_options *go, int levels)
{
    rmg_generate_options_init(go);
    go->width = go->height = 36;
    go->levels = levels;
}

/* ---- context, pack, map and balance report in every order ----------------------------------- */

enum { O_CONTEXT, O_PACK, O_MAP, O_BALANCE, O_COUNT };

typedef struct objects {
    rmg_context *ctx;
    rmg_pack *pack;
    rmg_map *map;
    rmg_balance *balance;
    uint64_t fingerprint;
    size_t objects, templates;
    double score;
} objects;

/* What is still alive still answers, with the values it had (no accessor here hands out memory
 * to free through the context, which the host may have destroyed). */
static void use_alive(const objects *o, const bool *alive)
{
    if (alive[O_PACK])
        assert_int_equal(rmg_pack_template_count(o->pack), o->templates);
    if (alive[O_MAP]) {
        assert_int_equal(rmg_map_fingerprint(o->map), o->fingerprint);
        assert_int_equal(rmg_map_object_count(o->map), o->objects);
        rmg_map_object_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        assert_int_equal(rmg_map_object(o->map, 0, &info), RMG_OK); /* reads the shared ruleset */
        size_t violations = 99;
        assert_int_equal(rmg_map_validate(o->map, NULL, &violations), RMG_OK);
        assert_int_equal(violations, 0);
    }
    if (alive[O_BALANCE])
        assert_true(rmg_balance_score(o->balance) == o->score);
}

static void destroy_one(objects *o, int which)
{
    switch (which) {
    case O_CONTEXT: rmg_context_destroy(o->ctx); break;
    case O_PACK: rmg_pack_destroy(o->pack); break;
    case O_MAP: rmg_map_destroy(o->map); break;
    default: rmg_balance_destroy(o->balance); break;
    }
}

static void run_order(const int *order)
{
    host_alloc h;
    objects o;
    memset(&o, 0, sizeof o);
    o.ctx = host_context(&h, 7);
    assert_int_equal(rmg_pack_builtin(o.ctx, &o.pack), RMG_OK);
    o.templates = rmg_pack_template_count(o.pack);
    rmg_generate_options go;
    small_options(&go, 1);
    assert_int_equal(rmg_generate(o.ctx, o.pack, &go, &o.map), RMG_OK);
    o.fingerprint = rmg_map_fingerprint(o.map);
    o.objects = rmg_map_object_count(o.map);
    assert_int_equal(rmg_map_balance(o.map, NULL, &o.balance), RMG_OK);
    o.score = rmg_balance_score(o.balance);
    bool alive[O_COUNT] = {true, true, true, true};
    for (int k = 0; k < O_COUNT; k++) {
        assert_true(host_live(&h) > 0); /* the context's block at least */
        destroy_one(&o, order[k]);
        alive[order[k]] = false;
        use_alive(&o, alive);
    }
    host_check_all_freed(&h);
}

static bool next_permutation(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

static void test_every_destruction_order(void **state)
{
    (void)state;
    int order[O_COUNT] = {0, 1, 2, 3};
    int runs = 0;
    do {
        run_order(order);
        runs++;
    } while (next_permutation(order, O_COUNT));
    assert_int_equal(runs, 24);
}

/* ---- every other kind of object, the context destroyed first --------------------------------- */

/* The object list of zone 1 and the solve result of the pack's first template. */
static void list_and_solve(rmg_context *ctx, const rmg_pack *pack, rmg_object_list **list, rmg_solve_result **solved)
{
    assert_int_equal(rmg_objects_effective(ctx, pack, 0, 1, list), RMG_OK);
    assert_int_equal(rmg_solve(ctx, pack, 0, NULL, solved), RMG_OK);
}

static int plugin_destroyed;

static rmg_status plugin_run(void *user, rmg_stage_view *view)
{
    (void)user;
    return rmg_stage_run_builtin(view);
}

static void plugin_destroy(void *user)
{
    (void)user;
    plugin_destroyed++;
}

static void test_every_object_outlives_its_context(void **state)
{
    (void)state;
    for (int reverse = 0; reverse < 2; reverse++) {
        host_alloc h;
        rmg_context *ctx = host_context(&h, 3);
        /* A stage plugin: the host's, released with the host's handle, not with the last map. */
        rmg_stage_plugin plugin;
        rmg_stage_plugin_init(&plugin);
        plugin.run = plugin_run;
        plugin.destroy = plugin_destroy;
        assert_int_equal(rmg_context_set_stage(ctx, RMG_STAGE_FINISH, &plugin, RMG_PLUGIN_FAIL), RMG_OK);
        plugin_destroyed = 0;

        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_builtin(ctx, &pack), RMG_OK);
        rmg_generate_options go;
        small_options(&go, 2);
        rmg_map *map = NULL, *preview = NULL, *from_json = NULL, *from_h3m = NULL;
        assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_OK);
        assert_int_equal(rmg_place_preview(ctx, pack, 0, &go, &preview), RMG_OK);
        char *json = NULL;
        size_t len = 0;
        assert_int_equal(rmg_map_to_json(map, &json, &len), RMG_OK);
        assert_int_equal(rmg__map_from_json(ctx, json, len, "map.json", &from_json), RMG_OK);
        rmg_free(ctx, json);
        char path[] = "/tmp/rmg_lifetimes_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        char h3m[sizeof path + 4];
        snprintf(h3m, sizeof h3m, "%s.h3m", path);
        assert_int_equal(rmg_map_save(map, h3m), RMG_OK);
        assert_int_equal(rmg_map_load_h3m(ctx, h3m, &from_h3m), RMG_OK);
        remove(h3m);
        remove(path);
        rmg_balance *balance = NULL;
        assert_int_equal(rmg_map_balance(map, NULL, &balance), RMG_OK);
        rmg_validation *validation = NULL;
        assert_int_equal(rmg_pack_validate(pack, &validation), RMG_OK);
        rmg_object_list *list = NULL;
        rmg_solve_result *solved = NULL;
        list_and_solve(ctx, pack, &list, &solved);

        uint64_t fingerprint = rmg_map_fingerprint(map);
        size_t n_list = rmg_object_list_count(list), n_zones = rmg_solve_zone_count(solved);
        size_t n_messages = rmg_validation_count(validation);
        double score = rmg_balance_score(balance);

        rmg_context_destroy(ctx);
        assert_int_equal(plugin_destroyed, 1);

        /* Everything still reads (the ruleset, the allocator and the error slot are alive). */
        assert_int_equal(rmg_map_fingerprint(map), fingerprint);
        assert_int_equal(rmg_map_levels(preview), 2);
        assert_int_equal(rmg_map_width(from_json), 36);
        assert_int_equal(rmg_map_object_count(from_h3m) > 0, 1);
        assert_true(rmg_balance_score(balance) == score);
        assert_int_equal(rmg_validation_count(validation), n_messages);
        assert_int_equal(rmg_object_list_count(list), n_list);
        rmg_object_info info;
        rmg_object_info_init(&info);
        assert_int_equal(rmg_object_list_get(list, 0, &info), RMG_OK);
        assert_non_null(info.key);
        assert_int_equal(rmg_solve_zone_count(solved), n_zones);
        size_t violations = 99;
        assert_int_equal(rmg_map_validate(from_json, NULL, &violations), RMG_OK);
        rmg_balance *again = NULL;
        assert_int_equal(rmg_map_balance(from_h3m, NULL, &again), RMG_OK); /* a new object, too */
        assert_true(host_live(&h) > 0);

        if (!reverse) {
            rmg_solve_result_destroy(solved);
            rmg_object_list_destroy(list);
            rmg_validation_destroy(validation);
            rmg_balance_destroy(balance);
            rmg_map_destroy(from_h3m);
            rmg_map_destroy(from_json);
            rmg_map_destroy(preview);
            rmg_pack_destroy(pack);
            rmg_map_destroy(map);
            rmg_balance_destroy(again);
        } else {
            rmg_balance_destroy(again);
            rmg_map_destroy(map);
            rmg_pack_destroy(pack);
            rmg_map_destroy(preview);
            rmg_map_destroy(from_json);
            rmg_map_destroy(from_h3m);
            rmg_balance_destroy(balance);
            rmg_validation_destroy(validation);
            rmg_object_list_destroy(list);
            rmg_solve_result_destroy(solved);
        }
        assert_int_equal(plugin_destroyed, 1);
        host_check_all_freed(&h);
    }
}

/* ---- a ruleset replaced while objects read it ------------------------------------------------ */

/* An object list and a solve result read the ruleset they were made with: replacing the
 * context's (rmg_context_set_content_variant) frees the old one only after them. */
static void test_object_lists_and_solve_results_keep_their_ruleset(void **state)
{
    (void)state;
    host_alloc h;
    rmg_context *ctx = host_context(&h, 2);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_builtin(ctx, &pack), RMG_OK);
    rmg_object_list *list = NULL;
    rmg_solve_result *solved = NULL;
    list_and_solve(ctx, pack, &list, &solved);
    size_t n = rmg_object_list_count(list);
    assert_true(n > 0);
    rmg_object_info info;
    rmg_object_info_init(&info);
    assert_int_equal(rmg_object_list_get(list, n - 1, &info), RMG_OK);
    char key[128];
    snprintf(key, sizeof key, "%s", info.key);
    int allowed[4];
    for (int id = 0; id < 4; id++)
        allowed[id] = rmg_solve_artifact_allowed(solved, id);

    for (int round = 0; round < 2; round++) {
        /* SoD, then HotA again: two replacements, each freeing a ruleset no one holds. */
        assert_int_equal(rmg_context_set_content_variant(ctx, round ? RMG_CONTENT_HOTA : RMG_CONTENT_SOD), RMG_OK);
        assert_int_equal(rmg_object_list_count(list), n);
        assert_int_equal(rmg_object_list_get(list, n - 1, &info), RMG_OK);
        assert_string_equal(info.key, key);
        for (int id = 0; id < 4; id++)
            assert_int_equal(rmg_solve_artifact_allowed(solved, id), allowed[id]);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    assert_string_equal(info.key, key); /* the first ruleset is still held */
    rmg_solve_result_destroy(solved);
    assert_int_equal(rmg_object_list_get(list, n - 1, &info), RMG_OK);
    assert_string_equal(info.key, key);
    rmg_object_list_destroy(list);
    host_check_all_freed(&h);
}

/* ---- threads --------------------------------------------------------------------------------- */

#define THREAD_MAPS 4

static void *destroy_on_thread(void *arg)
{
    rmg_map *map = arg;
    size_t violations = 99;
    rmg_status st = rmg_map_validate(map, NULL, &violations);
    rmg_balance *b = NULL;
    if (st == RMG_OK)
        st = rmg_map_balance(map, NULL, &b);
    rmg_balance_destroy(b);
    rmg_map_destroy(map);
    return (void *)(intptr_t)(st == RMG_OK && violations == 0);
}

/* Maps of rmg_generate_best_of (made on worker contexts, handed to the caller's) and of
 * rmg_generate, destroyed at once on several threads after their context: the last release
 * happens on whichever thread comes last, exactly once. */
static void test_maps_die_on_other_threads_after_their_context(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        host_alloc h;
        rmg_context *ctx = host_context(&h, 11 + (uint64_t)round);
        rmg_map *maps[THREAD_MAPS];
        rmg_generate_options go;
        small_options(&go, 1);
        rmg_best_of_options bo;
        rmg_best_of_options_init(&bo);
        bo.candidates = 3;
        bo.threads = 2;
        assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &maps[0], NULL), RMG_OK);
        bo.threads = 0;
        assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &maps[1], NULL), RMG_OK);
        assert_int_equal(rmg_map_fingerprint(maps[0]), rmg_map_fingerprint(maps[1])); /* threads change nothing */
        for (int i = 2; i < THREAD_MAPS; i++)
            assert_int_equal(rmg_generate(ctx, NULL, &go, &maps[i]), RMG_OK);
        if (round != 1)
            rmg_context_destroy(ctx);
        pthread_t th[THREAD_MAPS];
        for (int i = 0; i < THREAD_MAPS; i++)
            assert_int_equal(pthread_create(&th[i], NULL, destroy_on_thread, maps[i]), 0);
        if (round == 1)
            rmg_context_destroy(ctx); /* while the threads work */
        for (int i = 0; i < THREAD_MAPS; i++) {
            void *ok = NULL;
            pthread_join(th[i], &ok);
            assert_true(ok != NULL);
        }
        host_check_all_freed(&h);
    }
}

/* ---- cancel: each generation starts uncancelled ---------------------------------------------- */

typedef struct cancel_at {
    const char *stage; /* the progress callback cancels at this stage's first report, NULL never */
    int calls;
} cancel_at;

static int cancel_progress(void *user, const char *stage, double fraction)
{
    cancel_at *c = user;
    c->calls++;
    (void)fraction;
    return c->stage && strcmp(stage, c->stage) == 0;
}

static void test_a_cancel_stops_only_the_generation_under_way(void **state)
{
    (void)state;
    host_alloc h;
    cancel_at c = {"objects", 0};
    rmg_context *ctx = host_context_with(&h, 5, cancel_progress, &c);
    rmg_generate_options go;
    small_options(&go, 1);
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_ERR_CANCELLED);
    assert_null(map);
    assert_true(rmg_context_cancelled(ctx)); /* what stopped it stays readable until the next */
    rmg_error_info err = {sizeof err, RMG_OK, NULL, NULL, 0, 0, 0, 0, NULL};
    assert_int_equal(rmg_context_error(ctx, &err), RMG_OK);
    assert_int_equal(err.status, RMG_ERR_CANCELLED);
    assert_string_equal(err.stage, "objects");

    /* The next generation starts uncancelled: no rmg_context_reset_cancel needed. */
    c.stage = NULL;
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    assert_false(rmg_context_cancelled(ctx));
    uint64_t fingerprint = rmg_map_fingerprint(map);
    rmg_map_destroy(map);

    /* A cancel requested between generations is cleared by the next one (the same map). */
    rmg_context_cancel(ctx);
    assert_true(rmg_context_cancelled(ctx));
    assert_int_equal(rmg_generate(ctx, NULL, &go, &map), RMG_OK);
    assert_int_equal(rmg_map_fingerprint(map), fingerprint);
    rmg_map_destroy(map);

    /* rmg_context_reset_cancel still clears the flag, harmlessly. */
    rmg_context_cancel(ctx);
    rmg_context_reset_cancel(ctx);
    assert_false(rmg_context_cancelled(ctx));

    /* rmg_place_preview too. */
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_builtin(ctx, &pack), RMG_OK);
    c.stage = "place";
    assert_int_equal(rmg_place_preview(ctx, pack, 0, &go, &map), RMG_ERR_CANCELLED);
    c.stage = NULL;
    assert_int_equal(rmg_place_preview(ctx, pack, 0, &go, &map), RMG_OK);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    host_check_all_freed(&h);
}

static void test_a_cancel_stops_every_later_best_of_candidate(void **state)
{
    (void)state;
    host_alloc h;
    cancel_at c = {"guard", 0};
    rmg_context *ctx = host_context_with(&h, 5, cancel_progress, &c);
    rmg_generate_options go;
    small_options(&go, 1);
    rmg_best_of_options bo;
    rmg_best_of_options_init(&bo);
    bo.candidates = 4;
    bo.threads = 0; /* on ctx, where its progress callback runs */
    rmg_best_of_info info = {sizeof info, 0, 0, 0, 0, 0};
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &map, &info), RMG_ERR_CANCELLED);
    assert_null(map);
    /* The first candidate's cancel was not cleared by the second candidate's start. */
    int calls_when_cancelled = c.calls;
    c.stage = NULL;
    c.calls = 0;
    assert_int_equal(rmg_generate_best_of(ctx, NULL, &go, &bo, &map, &info), RMG_OK);
    assert_int_equal(info.candidates, 4);
    assert_true(c.calls > calls_when_cancelled); /* four candidates' worth against less than one */
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    host_check_all_freed(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_destruction_order),
        cmocka_unit_test(test_every_object_outlives_its_context),
        cmocka_unit_test(test_object_lists_and_solve_results_keep_their_ruleset),
        cmocka_unit_test(test_maps_die_on_other_threads_after_their_context),
        cmocka_unit_test(test_a_cancel_stops_only_the_generation_under_way),
        cmocka_unit_test(test_a_cancel_stops_every_later_best_of_candidate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
