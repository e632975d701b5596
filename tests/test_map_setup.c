/*
 * The game setup a map carries (issue 22 point 4; spec §0, PCK-07/08/09/10, TPL-02/03/07,
 * MIS-34/37/38): what the template sets reaches rmg_map_setup, rmg_map_allowed and the JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"

/* The built-in pack with pack and template settings written in: hero 12 banned (PCK-09), 30
 * battle rounds (PCK-07), hiring forbidden (PCK-08), two towns to choose from (PCK-10), and
 * for Duet no special weeks (TPL-02), no spell research (TPL-03), spell 17 banned (TPL-07). */
static char *setup_pack_yaml(size_t *len)
{
    size_t n = 0;
    char *base = rmg_test_read_file(rmg_test_source("templates/default.yaml"), &n);
    assert_non_null(base);
    const char *pack_at = "name: librmg default\n", *duet_at = "  - name: Duet\n";
    const char *pack_extra = "max_battle_rounds: 30\nforbid_hiring_heroes: true\nheroes: [-12]\n"
                             "allowed_towns: [tower, conflux]\n";
    const char *duet_extra = "    special_weeks: false\n    spell_research: false\n    spells: [-17]\n";
    char *p = strstr(base, pack_at), *d = strstr(base, duet_at);
    assert_true(p && d && p < d);
    char *out = malloc(n + strlen(pack_extra) + strlen(duet_extra) + 1);
    assert_non_null(out);
    size_t a = (size_t)(p - base) + strlen(pack_at), b = (size_t)(d - base) + strlen(duet_at);
    int w = sprintf(out, "%.*s%s%.*s%s%s", (int)a, base, pack_extra, (int)(b - a), base + a, duet_extra, base + b);
    free(base);
    *len = (size_t)w;
    return out;
}

static long content_index(rmg_context *ctx, rmg_content_kind kind, int id)
{
    const rmg_content *c = NULL;
    assert_int_equal(rmg_context_content(ctx, &c), RMG_OK);
    return rmg_content_find_id(c, kind, id);
}

static void test_setup_reaches_the_map_and_the_json(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    size_t len = 0;
    char *yaml = setup_pack_yaml(&len);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, yaml, len, "setup.yaml", RMG_FORMAT_YAML, &pack), RMG_OK);
    free(yaml);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.template_name = "Duet";
    go.width = go.height = 36;
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_OK);

    rmg_map_setup_info s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    assert_int_equal(rmg_map_setup(map, &s), RMG_OK);
    assert_int_equal(s.max_battle_rounds, 30);
    assert_int_equal(s.forbid_hiring_heroes, 1);
    assert_int_equal(s.special_weeks, 0);
    assert_int_equal(s.spell_research, 0);
    assert_int_equal(s.allowed_towns, (1u << RMG_FACTION_TOWER) | (1u << RMG_FACTION_CONFLUX));
    /* MIS-34: Gem (hero 27) is allowed; a map without water gives her Bless. */
    assert_non_null(s.gem_spell);
    assert_string_equal(s.gem_spell, "bless");
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_HERO, (size_t)content_index(ctx, RMG_CONTENT_HERO, 12)), 0);
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_HERO, (size_t)content_index(ctx, RMG_CONTENT_HERO, 13)), 1);
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_SPELL, (size_t)content_index(ctx, RMG_CONTENT_SPELL, 17)), 0);
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_SPELL, (size_t)content_index(ctx, RMG_CONTENT_SPELL, 16)), 1);
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_TERRAIN, 0), -1);
    assert_int_equal(rmg_map_allowed(map, RMG_CONTENT_HERO, 100000), -1);

    char *json = NULL;
    size_t jlen = 0;
    assert_int_equal(rmg_map_to_json(map, &json, &jlen), RMG_OK);
    assert_non_null(strstr(json, "\"setup\":{\"max_battle_rounds\":30,\"forbid_hiring_heroes\":true,"
                                 "\"special_weeks\":false,\"spell_research\":false,\"gem_spell\":\"bless\","
                                 "\"interference_to_resistance\":false,\"allowed_towns\":[\"tower\",\"conflux\"],"
                                 "\"banned\":{"));
    rmg_free(ctx, json);

    /* An older caller's struct (without allowed_towns) is filled up to its size only. */
    unsigned char old[sizeof s];
    memset(old, 0xAB, sizeof old);
    ((rmg_map_setup_info *)(void *)old)->struct_size = offsetof(rmg_map_setup_info, allowed_towns);
    assert_int_equal(rmg_map_setup(map, (rmg_map_setup_info *)(void *)old), RMG_OK);
    assert_int_equal(old[offsetof(rmg_map_setup_info, allowed_towns)], 0xAB);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* The defaults: no round limit, hiring allowed, special weeks and research on, every town. */
static void test_default_setup(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *map = rmg_test_generate(ctx, 36, 1);
    rmg_map_setup_info s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    assert_int_equal(rmg_map_setup(map, &s), RMG_OK);
    assert_int_equal(s.max_battle_rounds, 0);
    assert_int_equal(s.forbid_hiring_heroes, 0);
    assert_int_equal(s.special_weeks, 1);
    assert_int_equal(s.spell_research, 1);
    assert_int_equal(s.allowed_towns, 0x7FFu); /* the eleven HotA 1.7 towns */
    assert_int_equal(rmg_map_setup(NULL, &s), RMG_ERR_INVALID_ARG);
    s.struct_size = 4;
    assert_int_equal(rmg_map_setup(map, &s), RMG_ERR_INVALID_ARG);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_reaches_the_map_and_the_json),
        cmocka_unit_test(test_default_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
