/* Core: versions, status names, context lifecycle, allocator hook, arena, RNG streams. */
#include <string.h>

#include "rmg_test.h"
#include "core_internal.h"

static void test_version_header_matches_library(void **state)
{
    (void)state;
    assert_int_equal(rmg_version(), RMG_VERSION_NUMBER);
    assert_string_equal(rmg_version_string(), RMG_VERSION_STRING);
    assert_int_equal(RMG_VERSION_NUMBER, RMG_VERSION_MAJOR * 10000 + RMG_VERSION_MINOR * 100 + RMG_VERSION_PATCH);
}

static void test_status_names_are_fixed(void **state)
{
    (void)state;
    assert_string_equal(rmg_status_name(RMG_OK), "RMG_OK");
    assert_string_equal(rmg_status_name(RMG_ERR_NOMEM), "RMG_ERR_NOMEM");
    assert_string_equal(rmg_status_name(RMG_ERR_BUFFER_TOO_SMALL), "RMG_ERR_BUFFER_TOO_SMALL");
    assert_string_equal(rmg_status_name((rmg_status)9999), "RMG_ERR_UNKNOWN");
    /* The numeric values are part of the ABI. */
    assert_int_equal(RMG_ERR_PARSE, 4);
    assert_int_equal(RMG_ERR_IMPOSSIBLE, 8);
    assert_int_equal(RMG_ERR_CANCELLED, 9);
}

static void test_context_lifecycle(void **state)
{
    (void)state;
    rmg_context_destroy(NULL); /* no-op */
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, NULL), RMG_OK);
    assert_non_null(ctx);
    assert_string_equal(rmg_context_errmsg(ctx), "");
    assert_int_equal(rmg_context_create(NULL, NULL), RMG_ERR_INVALID_ARG);
    rmg_context_destroy(ctx);
}

static void test_options_struct_size_rules(void **state)
{
    (void)state;
    rmg_context_options o;
    rmg_context_options_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    rmg_context *ctx = NULL;
    o.struct_size = 4; /* too small to be any version of the struct */
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_ERR_INVALID_ARG);
    assert_null(ctx);
    /* A newer caller's larger struct with a zero tail is accepted; a non-zero tail is not. */
    struct { rmg_context_options o; uint64_t future; } big;
    memset(&big, 0, sizeof big);
    rmg_context_options_init(&big.o);
    big.o.struct_size = sizeof big;
    assert_int_equal(rmg_context_create(&ctx, &big.o), RMG_OK);
    rmg_context_destroy(ctx);
    big.future = 1;
    assert_int_equal(rmg_context_create(&ctx, &big.o), RMG_ERR_UNSUPPORTED);
}

static void test_allocator_hook_sees_every_allocation(void **state)
{
    (void)state;
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 7);
    assert_int_equal(ta.live_blocks, 1); /* the context itself */
    void *p = rmg_malloc(ctx, 100);
    assert_non_null(p);
    assert_int_equal(ta.live_blocks, 2);
    rmg_free(ctx, p);
    rmg_free(ctx, NULL);
    rmg_context_destroy(ctx);
    assert_int_equal(ta.live_blocks, 0);
    assert_int_equal(ta.live_bytes, 0);
}

static void test_context_create_fails_cleanly_without_memory(void **state)
{
    (void)state;
    rmg_test_alloc ta = {0};
    ta.fail_at = 1;
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.alloc = rmg_test_alloc_fn;
    o.alloc_user = &ta;
    rmg_context *ctx = NULL;
    assert_int_equal(rmg_context_create(&ctx, &o), RMG_ERR_NOMEM);
    assert_null(ctx);
    assert_int_equal(ta.live_blocks, 0);
}

static void test_errors_carry_location(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg__error_at(ctx, RMG_ERR_PARSE, "a.yaml", 3, 7, "bad %s", "key"), RMG_ERR_PARSE);
    assert_string_equal(rmg_context_errmsg(ctx), "a.yaml:3:7: bad key");
    rmg_error_info info = {.struct_size = sizeof info};
    assert_int_equal(rmg_context_error(ctx, &info), RMG_OK);
    assert_int_equal(info.status, RMG_ERR_PARSE);
    assert_string_equal(info.file, "a.yaml");
    assert_int_equal(info.line, 3);
    assert_int_equal(info.column, 7);
    assert_int_equal(info.zone, -1);
    rmg__error_gen(ctx, RMG_ERR_IMPOSSIBLE, "place", 4, -1, "no room");
    assert_string_equal(rmg_context_errmsg(ctx), "place: zone 4: no room");
    assert_int_equal(rmg_context_error(ctx, &info), RMG_OK);
    assert_int_equal(info.zone, 4);
    assert_string_equal(info.stage, "place");
    rmg_context_clear_error(ctx);
    assert_int_equal(rmg_context_errcode(ctx), RMG_OK);
    rmg_context_destroy(ctx);
}

/* The built-in generator's output is part of the behavioural promise (ABI.md): pinned. */
static void test_rng_output_is_pinned(void **state)
{
    (void)state;
    rmg_rng r;
    rmg_rng_seed(&r, 0);
    uint64_t a = rmg_rng_next(&r), b = rmg_rng_next(&r), c = rmg_rng_next(&r);
    rmg_rng_seed(&r, 0);
    assert_true(rmg_rng_next(&r) == a);
    assert_true(rmg_rng_next(&r) == b);
    assert_true(rmg_rng_next(&r) == c);
    /* Pinned outputs of the documented algorithm (xoshiro256** over splitmix64). */
    rmg_rng_seed(&r, 12345);
    assert_true(rmg_rng_next(&r) == UINT64_C(0xbe6a36374160d49b));
    assert_true(rmg_rng_next(&r) == UINT64_C(0x214aaa0637a688c6));
    assert_true(rmg_rng_next(&r) == UINT64_C(0xf69d16de9954d388));
    assert_true(rmg_rng_derive(1, "place", 0) == UINT64_C(0x2640987305f375f3));
}

static void test_rng_range_bounds_and_bias(void **state)
{
    (void)state;
    rmg_rng r;
    rmg_rng_seed(&r, 42);
    int counts[6] = {0};
    for (int i = 0; i < 60000; i++) {
        int64_t v = rmg_rng_range(&r, -2, 3);
        assert_true(v >= -2 && v <= 3);
        counts[v + 2]++;
    }
    for (int i = 0; i < 6; i++)
        assert_true(counts[i] > 9400 && counts[i] < 10600);
    assert_int_equal(rmg_rng_range(&r, 5, 5), 5);
    assert_int_equal(rmg_rng_below(&r, 0), 0);
    uint64_t w[3] = {0, 3, 1};
    int hits[3] = {0};
    for (int i = 0; i < 40000; i++)
        hits[rmg_rng_weighted(&r, w, 3)]++;
    assert_int_equal(hits[0], 0);
    assert_true(hits[1] > 29000 && hits[1] < 31000);
    uint64_t zero[2] = {0, 0};
    assert_int_equal(rmg_rng_weighted(&r, zero, 2), -1);
}

/* The documented draw: the high half of next() x n (128-bit product), redrawn while the low half
 * is below 2^64 mod n (Lemire). Written out here with four 32-bit products, independently of
 * the library's fast paths, which must give the same values for every n. */
static uint64_t reference_below(rmg_rng *r, uint64_t n)
{
    for (;;) {
        uint64_t a = rmg_rng_next(r);
        uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)n, b_hi = n >> 32;
        uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
        uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
        uint64_t lo = (mid << 32) | (uint32_t)p0, hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
        if (lo >= n || lo >= (0 - n) % n)
            return hi;
    }
}

static void test_rng_below_equals_the_reference(void **state)
{
    (void)state;
    rmg_rng a, b, pick;
    rmg_rng_seed(&a, 7);
    rmg_rng_seed(&b, 7);
    rmg_rng_seed(&pick, 8);
    static const uint64_t edges[] = {1, 2, 3, 1000, UINT32_MAX - 1, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
                                     (uint64_t)UINT32_MAX + 2, UINT64_MAX / 3, UINT64_MAX - 1, UINT64_MAX};
    for (int i = 0; i < 200000; i++) {
        uint64_t n = i < 11000 ? edges[i % 11] : rmg_rng_next(&pick) >> (rmg_rng_next(&pick) % 64);
        if (!n)
            n = 1;
        assert_true(rmg_rng_below(&a, n) == reference_below(&b, n));
    }
    assert_true(rmg_rng_next(&a) == rmg_rng_next(&b)); /* the same number of draws */
}

static void test_rng_streams_are_independent(void **state)
{
    (void)state;
    uint64_t s1 = rmg_rng_derive(99, "place", 0);
    uint64_t s2 = rmg_rng_derive(99, "place", 1);
    uint64_t s3 = rmg_rng_derive(99, "objects", 0);
    assert_true(s1 != s2 && s1 != s3 && s2 != s3);
    assert_true(rmg_rng_derive(99, "place", 0) == s1);
    rmg_context *ctx = rmg_test_context(NULL, 99);
    rmg_rng a, b;
    rmg_context_stream(ctx, "place", 0, &a);
    rmg_rng_seed(&b, s1);
    assert_true(rmg_rng_next(&a) == rmg_rng_next(&b));
    rmg_context_destroy(ctx);
}

static void test_shuffle_is_a_permutation(void **state)
{
    (void)state;
    rmg_rng r;
    rmg_rng_seed(&r, 3);
    int v[50];
    for (int i = 0; i < 50; i++)
        v[i] = i;
    rmg_rng_shuffle(&r, v, 50, sizeof v[0]);
    int seen[50] = {0};
    for (int i = 0; i < 50; i++)
        seen[v[i]]++;
    for (int i = 0; i < 50; i++)
        assert_int_equal(seen[i], 1);
}

static rmg_status arena_op(rmg_context *ctx, void *user)
{
    (void)user;
    rmg__arena a;
    rmg__arena_init(&a, ctx, 256);
    for (int i = 0; i < 50; i++) {
        char *p = rmg__arena_alloc(&a, (size_t)(i * 37 % 700) + 1);
        if (!p) {
            rmg__arena_free(&a);
            return rmg__error_nomem(ctx);
        }
        assert_int_equal((uintptr_t)p % 16, 0);
    }
    rmg__arena_free(&a);
    rmg__buf b;
    rmg__buf_init(&b, ctx);
    for (int i = 0; i < 100; i++)
        rmg__buf_printf(&b, "line %d of a longer text to grow the buffer\n", i);
    char *s = rmg__buf_take(&b);
    if (!s)
        return rmg__error_nomem(ctx);
    rmg__free(ctx, s);
    return RMG_OK;
}

static void test_allocator_failure_harness_over_core(void **state)
{
    (void)state;
    size_t needed = rmg_test_oom_sweep(arena_op, NULL, 0, 1);
    assert_true(needed > 3);
}

/* Issue 29: the one "did you mean" of every message naming a bad key or value. */
static void test_name_suggest(void **state)
{
    (void)state;
    static const char *const kinds[] = {"standard", "wide", "border_guard", "fictive"};
    assert_int_equal(rmg__edit_distance("wyde", "wide"), 1);
    assert_int_equal(rmg__edit_distance("tpye", "type"), 1);      /* a swap of neighbours is one edit */
    assert_int_equal(rmg__edit_distance("kitten", "sitting"), 3);
    assert_int_equal(rmg__edit_distance("Border-Guard", "border_guard"), 0);
    assert_int_equal(rmg__edit_distance("", "wide"), 4);
    assert_int_equal(rmg_name_suggest("wyde", kinds, 4), 1);
    assert_int_equal(rmg_name_suggest("bordr_guard", kinds, 4), 2);
    assert_int_equal(rmg_name_suggest("standart", kinds, 4), 0);
    assert_int_equal(rmg_name_suggest("xyz", kinds, 4), -1);        /* 4 edits from "wide": no slip */
    assert_int_equal(rmg_name_suggest("wi", kinds, 4), -1);         /* 2 edits of a 4-letter word: more than a third */
    assert_int_equal(rmg_name_suggest("", kinds, 4), -1);
    assert_int_equal(rmg_name_suggest(NULL, kinds, 4), -1);
    static const char *const holes[] = {NULL, "", "castle"};
    assert_int_equal(rmg_name_suggest("castel", holes, 3), 2);
    char longword[100];
    memset(longword, 'a', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    assert_int_equal(rmg__edit_distance(longword, "a"), SIZE_MAX);
    assert_int_equal(rmg_name_suggest(longword, kinds, 4), -1);
}

static void test_cancel_flag(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_false(rmg_context_cancelled(ctx));
    rmg_context_cancel(ctx);
    assert_true(rmg_context_cancelled(ctx));
    assert_true(rmg__check_cancel(ctx, "place", 0.5));
    assert_int_equal(rmg_context_errcode(ctx), RMG_ERR_CANCELLED);
    rmg_context_reset_cancel(ctx);
    assert_false(rmg__check_cancel(ctx, "place", 0.5));
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_header_matches_library),
        cmocka_unit_test(test_status_names_are_fixed),
        cmocka_unit_test(test_context_lifecycle),
        cmocka_unit_test(test_options_struct_size_rules),
        cmocka_unit_test(test_allocator_hook_sees_every_allocation),
        cmocka_unit_test(test_context_create_fails_cleanly_without_memory),
        cmocka_unit_test(test_errors_carry_location),
        cmocka_unit_test(test_rng_output_is_pinned),
        cmocka_unit_test(test_rng_range_bounds_and_bias),
        cmocka_unit_test(test_rng_below_equals_the_reference),
        cmocka_unit_test(test_rng_streams_are_independent),
        cmocka_unit_test(test_shuffle_is_a_permutation),
        cmocka_unit_test(test_allocator_failure_harness_over_core),
        cmocka_unit_test(test_cancel_flag),
        cmocka_unit_test(test_name_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
