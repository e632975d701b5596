/* The embedder's API (issue 29): every versioned struct's *_init, the one naming scheme with its
 * deprecated aliases (same answers), ids against indexes, the seed a host-RNG map records, and
 * the stage plugin messages that name the stage. */
#include <stdio.h>
#include <string.h>

#include "rmg_test.h"

/* ---- *_init ------------------------------------------------------------------------------- */

/* Each init fills every byte: struct_size = sizeof, the listed "none" fields -1, the rest 0. */
#define EXPECT_ZERO_BUT(type, init, ...)                                                              \
    do {                                                                                              \
        type got_, want_;                                                                             \
        memset(&got_, 0x5a, sizeof got_);                                                             \
        init(&got_);                                                                                  \
        memset(&want_, 0, sizeof want_);                                                              \
        want_.struct_size = sizeof want_;                                                             \
        __VA_ARGS__;                                                                                  \
        assert_int_equal(got_.struct_size, sizeof(type));                                             \
        assert_memory_equal(&got_, &want_, sizeof want_);                                             \
        init(NULL); /* a no-op */                                                                     \
    } while (0)
#define NONE(field) (want_.field = -1)

static void test_every_versioned_struct_has_an_init(void **state)
{
    (void)state;
    EXPECT_ZERO_BUT(rmg_error_info, rmg_error_info_init, NONE(zone), NONE(connection));
    EXPECT_ZERO_BUT(rmg_map_zone_info, rmg_map_zone_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_map_connection_info, rmg_map_connection_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_map_object_info, rmg_map_object_info_init, NONE(color));
    EXPECT_ZERO_BUT(rmg_map_group_info, rmg_map_group_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_map_setup_info, rmg_map_setup_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_balance_player_info, rmg_balance_player_info_init,
                    for (int i = 0; i < RMG_BALANCE_RESOURCES; i++) NONE(nearest_mine[i]));
    EXPECT_ZERO_BUT(rmg_balance_path_info, rmg_balance_path_info_init, NONE(tiles), NONE(cost),
                    NONE(strongest_guard), NONE(guard_sum));
    EXPECT_ZERO_BUT(rmg_best_of_info, rmg_best_of_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_terrain_info, rmg_terrain_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_faction_info, rmg_faction_info_init, NONE(native_terrain));
    EXPECT_ZERO_BUT(rmg_creature_info, rmg_creature_info_init, NONE(upgrade_of));
    EXPECT_ZERO_BUT(rmg_object_def_info, rmg_object_def_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_artifact_info, rmg_artifact_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_spell_info, rmg_spell_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_skill_info, rmg_skill_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_hero_info, rmg_hero_info_init, (void)0);
    EXPECT_ZERO_BUT(rmg_guard, rmg_guard_init, NONE(creature));
    EXPECT_ZERO_BUT(rmg_guard_candidate, rmg_guard_candidate_init, NONE(creature));
    EXPECT_ZERO_BUT(rmg_place_zone_info, rmg_place_zone_info_init, NONE(cell_col), NONE(cell_row));
    EXPECT_ZERO_BUT(rmg_place_link_info, rmg_place_link_info_init, NONE(template_index));
    EXPECT_ZERO_BUT(rmg_solve_zone, rmg_solve_zone_init, NONE(player_town_type));
    EXPECT_ZERO_BUT(rmg_solve_stats, rmg_solve_stats_init, (void)0);
    EXPECT_ZERO_BUT(rmg_message, rmg_message_init, NONE(template_index), NONE(zone), NONE(connection));
}

/* An init'ed struct is what the getters take: the error of a failed call reads through one. */
static void test_an_initialised_error_info_reads_the_error(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_stage(ctx, RMG_STAGE_SELECT, NULL, RMG_PLUGIN_FAIL), RMG_ERR_INVALID_ARG);
    rmg_error_info e;
    rmg_error_info_init(&e);
    assert_int_equal(rmg_context_error_get(ctx, &e), RMG_OK);
    assert_int_equal(e.status, RMG_ERR_INVALID_ARG);
    assert_string_equal(e.message, rmg_context_errmsg(ctx));
    rmg_context_destroy(ctx);
}

/* ---- names -------------------------------------------------------------------------------- */

/* The same answer through a 0.6.0 name (filling new_) and its deprecated alias (filling old_). */
#define SAME_ANSWER(type, init, new_call, old_call)                                                   \
    do {                                                                                              \
        type new_, old_;                                                                              \
        init(&new_);                                                                                  \
        init(&old_);                                                                                  \
        assert_int_equal(new_call, RMG_OK);                                                           \
        assert_int_equal(old_call, RMG_OK);                                                           \
        assert_memory_equal(&new_, &old_, sizeof new_);                                               \
    } while (0)

/* The 0.6.0 names and the deprecated ones answer alike (the old are wrappers of the new). */
static void test_new_names_and_deprecated_aliases_agree(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    rmg_map *map = rmg_test_generate(ctx, 36, 1);
    size_t last = rmg_map_object_count(map) - 1;
    assert_true(rmg_map_zone_count(map) > 0 && last > 0);
    SAME_ANSWER(rmg_map_zone_info, rmg_map_zone_info_init, rmg_map_zone_get(map, 0, &new_),
                rmg_map_zone(map, 0, &old_));
    SAME_ANSWER(rmg_map_object_info, rmg_map_object_info_init, rmg_map_object_get(map, last, &new_),
                rmg_map_object(map, last, &old_));
    SAME_ANSWER(rmg_map_setup_info, rmg_map_setup_info_init, rmg_map_setup_get(map, &new_), rmg_map_setup(map, &old_));
    SAME_ANSWER(rmg_generate_options, rmg_generate_options_init, rmg_map_options_get(map, &new_),
                rmg_map_options(map, &old_));
    const rmg_content *content = NULL;
    assert_int_equal(rmg_context_content(ctx, &content), RMG_OK);
    SAME_ANSWER(rmg_creature_info, rmg_creature_info_init, rmg_content_creature_get(content, 1, &new_),
                rmg_content_creature(content, 1, &old_));

    rmg_map_zone_info z;
    rmg_map_zone_info_init(&z);
    assert_int_equal(rmg_map_zone_get(map, 0, &z), RMG_OK);
    assert_int_equal(z.id, 1);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    assert_int_equal(rmg_map_options_get(map, &o), RMG_OK);
    assert_int_equal(o.width, 36);
    rmg_map_object_info obj;
    rmg_map_object_info_init(&obj);
    assert_int_equal(rmg_map_object_get(map, last + 1, &obj), RMG_ERR_INVALID_ARG);
    /* The road settings' new names keep the values (CON-18 merges by maximum). */
    assert_int_equal(RMG_ROAD_SETTING_FORBIDDEN, 0);
    assert_int_equal(RMG_ROAD_SETTING_RANDOM, 1);
    assert_int_equal(RMG_ROAD_SETTING_MANDATORY, 2);
    assert_int_equal(RMG_ROAD_MANDATORY, RMG_ROAD_SETTING_MANDATORY);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* Ids are index + 1: a tile's object id less one is the index rmg_map_object_get takes, and the
 * object found there has that id (core.h, "Indexes and ids"). */
static void test_tile_ids_are_indexes_plus_one(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 3);
    rmg_map *map = rmg_test_generate(ctx, 36, 1);
    size_t checked = 0;
    for (int y = 0; y < rmg_map_height(map); y++) {
        for (int x = 0; x < rmg_map_width(map); x++) {
            long id = rmg_map_tile_object(map, x, y, 0);
            int zone = rmg_map_tile_zone(map, x, y, 0);
            if (zone > 0) {
                rmg_map_zone_info z;
                rmg_map_zone_info_init(&z);
                assert_int_equal(rmg_map_zone_get(map, (size_t)zone - 1, &z), RMG_OK);
                assert_int_equal(z.id, zone);
            }
            if (id <= 0)
                continue;
            rmg_map_object_info o;
            rmg_map_object_info_init(&o);
            assert_int_equal(rmg_map_object_get(map, (size_t)id - 1, &o), RMG_OK);
            assert_int_equal(o.id, (uint32_t)id);
            checked++;
        }
    }
    assert_true(checked > 0);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* ---- the seed of a host-RNG map ------------------------------------------------------------ */

static uint64_t host_words(void *user)
{
    uint64_t *s = user; /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Issue 29: a map made with a host RNG records the word generation drew (not the context's unused
 * seed 0), in rmg_map_seed, the JSON and the .h3m description; that seed, on a context without
 * the host RNG, makes the same map (byte-identical JSON, same fingerprint). */
static void test_a_host_rng_map_records_the_seed_that_remakes_it(void **state)
{
    (void)state;
    uint64_t host_state = 20261207;
    uint64_t expect_state = host_state;
    uint64_t word = host_words(&expect_state); /* the first word the host hands out */
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.rng = host_words;
    co.rng_user = &host_state;
    rmg_context *host = NULL;
    assert_int_equal(rmg_context_create(&host, &co), RMG_OK);
    rmg_map *a = rmg_test_generate(host, 36, 1);
    assert_int_equal(rmg_map_seed(a), word);
    assert_true(word != 0);

    char want[64];
    snprintf(want, sizeof want, "\"seed\":\"%llu\"", (unsigned long long)word);
    char *json_a = NULL;
    size_t len_a = 0;
    assert_int_equal(rmg_map_to_json(a, &json_a, &len_a), RMG_OK);
    assert_non_null(strstr(json_a, want));

    unsigned char *h3m = NULL;
    size_t h3m_len = 0;
    assert_int_equal(rmg_map_to_h3m(a, NULL, &h3m, &h3m_len), RMG_OK);
    rmg_map *back = NULL;
    assert_int_equal(rmg_map_from_h3m(host, h3m, h3m_len, "a.h3m", &back), RMG_OK);
    snprintf(want, sizeof want, "seed %llu,", (unsigned long long)word);
    assert_non_null(strstr(rmg_map_description(back), want));
    rmg_map_destroy(back);
    rmg_free(host, h3m);

    rmg_context *seeded = rmg_test_context(NULL, word);
    rmg_map *b = rmg_test_generate(seeded, 36, 1);
    assert_int_equal(rmg_map_seed(b), word);
    assert_int_equal(rmg_map_fingerprint(a), rmg_map_fingerprint(b));
    char *json_b = NULL;
    size_t len_b = 0;
    assert_int_equal(rmg_map_to_json(b, &json_b, &len_b), RMG_OK);
    assert_int_equal(len_a, len_b);
    assert_memory_equal(json_a, json_b, len_a);
    rmg_free(seeded, json_b);
    rmg_free(host, json_a);
    rmg_map_destroy(b);
    rmg_map_destroy(a);
    rmg_context_destroy(seeded);
    rmg_context_destroy(host);
}

/* ---- messages ----------------------------------------------------------------------------- */

static void test_stage_plugin_refusals_name_the_stage(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_stage(ctx, RMG_STAGE_SELECT, NULL, RMG_PLUGIN_FAIL), RMG_ERR_INVALID_ARG);
    assert_string_equal(rmg_context_errmsg(ctx), "stage select cannot be replaced (plugins replace solve, place, "
                                                 "connect, objects, guard or finish)");
    assert_int_equal(rmg_context_set_stage(ctx, RMG_STAGE_COUNT, NULL, RMG_PLUGIN_FAIL), RMG_ERR_INVALID_ARG);
    assert_string_equal(rmg_context_errmsg(ctx), "unknown stage 7 (RMG_STAGE_SOLVE..RMG_STAGE_FINISH)");
    /* A stage that can be replaced is named the same way in the plugin table's checks. */
    rmg_stage_plugin p;
    rmg_stage_plugin_init(&p);
    assert_int_equal(rmg_context_set_stage(ctx, RMG_STAGE_CONNECT, &p, RMG_PLUGIN_FAIL), RMG_ERR_INVALID_ARG);
    assert_string_equal(rmg_context_errmsg(ctx), "plugin table for stage connect has no run function");
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_versioned_struct_has_an_init),
        cmocka_unit_test(test_an_initialised_error_info_reads_the_error),
        cmocka_unit_test(test_new_names_and_deprecated_aliases_agree),
        cmocka_unit_test(test_tile_ids_are_indexes_plus_one),
        cmocka_unit_test(test_a_host_rng_map_records_the_seed_that_remakes_it),
        cmocka_unit_test(test_stage_plugin_refusals_name_the_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
