/* Template public API: building a template in code, reading every part back through the
 * accessors, info structs and struct_size rules, and the allocator failure harness over the
 * builder. */
#include <string.h>

#include "rmg_test.h"
#include "template/model.h"

/* Builds a small but complete 2-player template with every kind of part. */
static rmg_status build(rmg_context *ctx, rmg_pack **out)
{
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_create(ctx, "Built", &p);
    size_t t = 0, z1 = 0, z2 = 0, z3 = 0, c = 0;
#define TRY(call)                                                                                                      \
    do {                                                                                                               \
        if (st == RMG_OK)                                                                                              \
            st = (call);                                                                                               \
    } while (0)
    TRY(rmg_pack_add_template(p, "Pair", &t));
    TRY(rmg_template_add_zone(p, t, 1, RMG_ZONE_HUMAN_START, &z1));
    TRY(rmg_template_add_zone(p, t, 2, RMG_ZONE_HUMAN_START, &z2));
    TRY(rmg_template_add_zone(p, t, 3, RMG_ZONE_TREASURE, &z3));
    TRY(rmg_zone_set_owner(p, t, z1, 1));
    TRY(rmg_zone_set_owner(p, t, z2, 2));
    TRY(rmg_zone_set_towns(p, t, z1, 0, 1, 0, 0));
    TRY(rmg_zone_set_towns(p, t, z2, 0, 1, 0, 0));
    TRY(rmg_zone_set_size(p, t, z3, 2.5));
    TRY(rmg_zone_set_mine(p, t, z3, RMG_RESOURCE_GOLD, 1, 2));
    TRY(rmg_zone_set_treasure(p, t, z3, 2, 10000, 15000, 3));
    TRY(rmg_zone_set_monsters(p, t, z3, RMG_MONSTERS_STRONG));
    TRY(rmg_template_add_connection(p, t, 1, 3, 6000, &c));
    TRY(rmg_template_add_connection(p, t, 2, 3, 0, &c));
    TRY(rmg_connection_set_type(p, t, c, RMG_CONNECTION_WIDE));
    TRY(rmg_connection_set_placement(p, t, c, RMG_LINK_GROUND));
    TRY(rmg_connection_set_roads(p, t, c, RMG_ROAD_MANDATORY));
    TRY(rmg_override_add(p, t, RMG_OVERRIDE_HEROES, 12, 0));
    TRY(rmg_override_add(p, t, RMG_OVERRIDE_ARTIFACTS, 83, 1));
    TRY(rmg_override_add(p, t, RMG_OVERRIDE_SPELLS, 0, 0));
    TRY(rmg_override_add(p, t, RMG_OVERRIDE_SKILLS, 26, 1));
    TRY(rmg_override_add(p, t, RMG_OVERRIDE_COMBO_ARTIFACTS, 1, 1));
    rmg_rule_info r;
    rmg_rule_info_init(&r);
    r.op = RMG_RULE_ALLOW;
    r.target = RMG_TARGET_OBJECT;
    r.object = "arena";
    r.value = 5000;
    TRY(rmg_rule_add(p, t, RMG_TEMPLATE_LEVEL, &r));
    r.op = RMG_RULE_FORBID;
    r.object = "pyramid";
    r.value = RMG_RULE_PARAM_DEFAULT;
    TRY(rmg_rule_add(p, t, z3, &r));
    rmg_type_rule_info tr;
    rmg_type_rule_info_init(&tr);
    tr.kind = RMG_TYPE_RULE_TERRAIN_NATIVE;
    tr.zone_a = 3;
    tr.zone_b = 1;
    TRY(rmg_zone_type_rule_add(p, t, z3, &tr));
    rmg_mirror_link_info ml;
    rmg_mirror_link_info_init(&ml);
    ml.surface_kind = ml.underground_kind = RMG_TELEPORT_TWO_WAY;
    ml.surface_color = ml.underground_color = 7;
    ml.value = 3000;
    ml.roads = 1;
    TRY(rmg_zone_mirror_link_add(p, t, z3, &ml));
#undef TRY
    if (st != RMG_OK) {
        rmg_pack_destroy(p);
        return st;
    }
    *out = p;
    return RMG_OK;
}

static void test_build_read_back(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(build(ctx, &p), RMG_OK);
    rmg_pack_info pi;
    rmg_pack_info_init(&pi);
    assert_int_equal(rmg_pack_get(p, &pi), RMG_OK);
    assert_string_equal(pi.name, "Built");
    assert_int_equal(pi.template_count, 1);
    assert_int_equal(rmg_pack_template_count(p), 1);

    rmg_template_info ti;
    rmg_template_info_init(&ti);
    assert_int_equal(ti.max_size, 98);
    assert_int_equal(rmg_template_get(p, 0, &ti), RMG_OK);
    assert_string_equal(ti.name, "Pair");
    assert_int_equal(ti.zone_count, 3);
    assert_int_equal(ti.connection_count, 2);
    assert_int_equal(ti.rule_count, 1);
    assert_true(ti.special_weeks && ti.spell_research);
    assert_int_equal(rmg_template_zone_count(p, 0), 3);
    assert_int_equal(rmg_template_connection_count(p, 0), 2);

    size_t z;
    assert_int_equal(rmg_template_find_zone(p, 0, 3, &z), RMG_OK);
    assert_int_equal(z, 2);
    assert_int_equal(rmg_template_find_zone(p, 0, 9, &z), RMG_ERR_NOT_FOUND);
    rmg_zone_info zi;
    rmg_zone_info_init(&zi);
    assert_int_equal(rmg_zone_get(p, 0, 2, &zi), RMG_OK);
    assert_int_equal(zi.id, 3);
    assert_true(zi.size == 2.5);
    assert_int_equal(zi.mines_min[RMG_RESOURCE_GOLD], 1);
    assert_int_equal(zi.mines_density[RMG_RESOURCE_GOLD], 2);
    assert_int_equal(zi.treasure_max[2], 15000);
    assert_int_equal(zi.monster_strength, RMG_MONSTERS_STRONG);
    assert_int_equal(zi.join_percent, 50);
    assert_int_equal(zi.rule_count, 1);
    assert_int_equal(zi.type_rule_count, 1);
    assert_int_equal(zi.mirror_link_count, 1);
    assert_null(zi.raw_image);
    p->templates[0].zones[2].image_raw = (char *)(uintptr_t)"10 20";
    assert_int_equal(rmg_zone_get(p, 0, 2, &zi), RMG_OK);
    assert_string_equal(zi.raw_image, "10 20");
    p->templates[0].zones[2].image_raw = NULL;
    assert_int_equal(rmg_zone_get(p, 0, 0, &zi), RMG_OK);
    assert_int_equal(zi.owner, 1);
    assert_int_equal(zi.player_castles, 1);

    rmg_connection_info ci;
    rmg_connection_info_init(&ci);
    assert_int_equal(ci.roads, RMG_ROAD_RANDOM);
    assert_int_equal(rmg_connection_get(p, 0, 1, &ci), RMG_OK);
    assert_int_equal(ci.zone_a, 2);
    assert_int_equal(ci.zone_b, 3);
    assert_int_equal(ci.type, RMG_CONNECTION_WIDE);
    assert_int_equal(ci.placement, RMG_LINK_GROUND);
    assert_int_equal(ci.roads, RMG_ROAD_MANDATORY);

    int id, allow;
    assert_int_equal(rmg_override_count(p, 0, RMG_OVERRIDE_HEROES), 1);
    assert_int_equal(rmg_override_get(p, 5, RMG_OVERRIDE_HEROES, 0, &id, &allow), RMG_OK); /* pack level */
    assert_int_equal(id, 12);
    assert_int_equal(allow, 0);
    assert_int_equal(rmg_override_get(p, 0, RMG_OVERRIDE_ARTIFACTS, 0, &id, &allow), RMG_OK);
    assert_int_equal(id, 83);
    assert_int_equal(allow, 1);
    assert_int_equal(rmg_override_count(p, 0, RMG_OVERRIDE_COMBO_ARTIFACTS), 1);
    assert_int_equal(rmg_override_get(p, 0, RMG_OVERRIDE_SKILLS, 1, &id, &allow), RMG_ERR_NOT_FOUND);

    rmg_rule_info ri;
    rmg_rule_info_init(&ri);
    assert_int_equal(rmg_rule_count(p, 0, RMG_TEMPLATE_LEVEL), 1);
    assert_int_equal(rmg_rule_get(p, 0, RMG_TEMPLATE_LEVEL, 0, &ri), RMG_OK);
    assert_int_equal(ri.op, RMG_RULE_ALLOW);
    assert_string_equal(ri.object, "arena");
    assert_int_equal(ri.value, 5000);
    assert_true(ri.frequency == RMG_RULE_PARAM_DEFAULT);
    assert_int_equal(rmg_rule_get(p, 0, 2, 0, &ri), RMG_OK);
    assert_int_equal(ri.op, RMG_RULE_FORBID);
    assert_string_equal(ri.object, "pyramid");

    rmg_type_rule_info tri;
    rmg_type_rule_info_init(&tri);
    assert_int_equal(rmg_zone_type_rule_count(p, 0, 2), 1);
    assert_int_equal(rmg_zone_type_rule_get(p, 0, 2, 0, &tri), RMG_OK);
    assert_int_equal(tri.kind, RMG_TYPE_RULE_TERRAIN_NATIVE);
    assert_int_equal(tri.zone_b, 1);
    assert_int_equal(tri.town_b, -1);

    rmg_mirror_link_info mi;
    rmg_mirror_link_info_init(&mi);
    assert_int_equal(rmg_zone_mirror_link_count(p, 0, 2), 1);
    assert_int_equal(rmg_zone_mirror_link_get(p, 0, 2, 0, &mi), RMG_OK);
    assert_int_equal(mi.surface_color, 7);
    assert_int_equal(mi.value, 3000);
    assert_int_equal(mi.roads, 1);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* What the builder makes is a real template: it validates (after marking the pack as mirror
 * for its mirror link), round-trips through YAML and can be selected. */
static void test_built_template_is_usable(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(build(ctx, &p), RMG_OK);
    rmg_pack_info pi;
    rmg_pack_info_init(&pi);
    assert_int_equal(rmg_pack_get(p, &pi), RMG_OK);
    pi.mirror = 1;
    pi.description = "made in code";
    assert_int_equal(rmg_pack_set(p, &pi), RMG_OK);
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    assert_int_equal(rmg_validation_error_count(v), 0);
    rmg_validation_destroy(v);

    char *text = NULL;
    assert_int_equal(rmg_pack_to_yaml(p, &text, NULL), RMG_OK);
    rmg_pack *q = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, text, strlen(text), "b.yaml", RMG_FORMAT_AUTO, &q), RMG_OK);
    char why[256];
    if (!rmg__pack_equal(p, q, why, sizeof why))
        fail_msg("differs at %s", why);
    rmg_free(ctx, text);

    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 72;
    o.levels = 2;
    o.players = 2;
    size_t t;
    assert_int_equal(rmg_pack_select(ctx, q, &o, &t), RMG_OK);
    assert_int_equal(t, 0);
    rmg_pack_destroy(q);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_info_set_round_trip(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(build(ctx, &p), RMG_OK);
    rmg_template_info ti;
    rmg_template_info_init(&ti);
    assert_int_equal(rmg_template_get(p, 0, &ti), RMG_OK);
    ti.name = "Renamed";
    ti.min_size = 4;
    ti.max_size = 32;
    ti.min_players = ti.max_players = 2;
    ti.anarchy = 1;
    ti.rock_masses = 1;
    ti.rock_radius = 0.5;
    ti.water_allowed = 1u << RMG_WATER_NONE;
    assert_int_equal(rmg_template_set(p, 0, &ti), RMG_OK);
    const rmg__template *t = &p->templates[0];
    assert_string_equal(t->name, "Renamed");
    assert_int_equal(t->players.max_total, 2);
    assert_true(t->anarchy && t->rock_masses && t->rock_radius == 0.5);
    assert_int_equal(t->water_allowed, 1);

    rmg_zone_info zi;
    rmg_zone_info_init(&zi);
    assert_int_equal(rmg_zone_get(p, 0, 2, &zi), RMG_OK);
    zi.neutral_only = 1;
    zi.allowed_factions_set = 1;
    zi.allowed_factions = 1u << 2;
    zi.allowed_terrains = 1u << 3;
    zi.mood = RMG_MOOD_EXACT;
    zi.mood_value = 4;
    zi.treasure_density[0] = 7;
    assert_int_equal(rmg_zone_set(p, 0, 2, &zi), RMG_OK);
    const rmg__zone *z = &t->zones[2];
    assert_true(z->neutral_only && z->allowed_factions_set);
    assert_int_equal(z->allowed_factions, 4);
    assert_int_equal(z->allowed_terrains, 8);
    assert_int_equal(z->mood_value, 4);
    assert_int_equal(z->treasure[0].density, 7);
    assert_int_equal(z->rules.count, 1); /* lists are untouched by a set */

    rmg_connection_info ci;
    rmg_connection_info_init(&ci);
    assert_int_equal(rmg_connection_get(p, 0, 0, &ci), RMG_OK);
    ci.value = 12345;
    ci.monolith_repulsion = 1;
    ci.min_players = 3;
    assert_int_equal(rmg_connection_set(p, 0, 0, &ci), RMG_OK);
    assert_int_equal(t->connections[0].value, 12345);
    assert_true(t->connections[0].monolith_repulsion);
    assert_int_equal(t->connections[0].players.min_total, 3);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* ABI rule: older (smaller) structs are filled up to their size; newer ones need a zero tail. */
static void test_struct_size_rules(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(build(ctx, &p), RMG_OK);
    struct { rmg_zone_info info; uint64_t future; } big;
    memset(&big, 0xAB, sizeof big);
    big.info.struct_size = offsetof(rmg_zone_info, size);
    assert_int_equal(rmg_zone_get(p, 0, 2, &big.info), RMG_OK);
    assert_int_equal(big.info.id, 3);
    assert_int_equal(big.info.kind, RMG_ZONE_TREASURE);
    unsigned char *after = (unsigned char *)&big.info + offsetof(rmg_zone_info, size);
    assert_int_equal(after[0], 0xAB); /* untouched beyond the caller's size */
    rmg_zone_info_init(&big.info);
    big.info.struct_size = sizeof big;
    big.future = 0;
    assert_int_equal(rmg_zone_get(p, 0, 2, &big.info), RMG_OK);
    assert_int_equal(rmg_zone_set(p, 0, 2, &big.info), RMG_OK);
    big.future = 1;
    assert_int_equal(rmg_zone_set(p, 0, 2, &big.info), RMG_ERR_UNSUPPORTED);
    big.info.struct_size = 2;
    assert_int_equal(rmg_zone_get(p, 0, 2, &big.info), RMG_ERR_INVALID_ARG);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_bad_indices(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(build(ctx, &p), RMG_OK);
    rmg_zone_info zi;
    rmg_zone_info_init(&zi);
    assert_int_equal(rmg_zone_get(p, 0, 3, &zi), RMG_ERR_NOT_FOUND);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "no zone with index 3"));
    assert_int_equal(rmg_zone_get(p, 1, 0, &zi), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_zone_set_size(p, 0, 9, 1.0), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_zone_set_treasure(p, 0, 0, 3, 1, 2, 3), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_zone_set_mine(p, 0, 0, RMG_RESOURCE_COUNT, 1, 1), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_template_add_zone(p, 4, 1, RMG_ZONE_TREASURE, NULL), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_template_add_connection(NULL, 0, 1, 2, 0, NULL), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_connection_set_type(p, 0, 7, RMG_CONNECTION_WIDE), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_rule_count(p, 0, 99), 0);
    assert_int_equal(rmg_template_zone_count(NULL, 0), 0);
    assert_int_equal(rmg_pack_find_template(p, "nope", &(size_t){0}), RMG_ERR_NOT_FOUND);
    assert_int_equal(rmg_override_add(p, 0, RMG_OVERRIDE_SPELLS, -1, 1), RMG_ERR_INVALID_ARG);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static rmg_status op_build_and_save(rmg_context *ctx, void *user)
{
    (void)user;
    rmg_pack *p = NULL;
    rmg_status st = build(ctx, &p);
    rmg_validation *v = NULL;
    char *text = NULL;
    if (st == RMG_OK)
        st = rmg_pack_validate(p, &v);
    if (st == RMG_OK)
        st = rmg_pack_to_yaml(p, &text, NULL);
    rmg_free(ctx, text);
    rmg_validation_destroy(v);
    rmg_pack_destroy(p);
    return st;
}

static void test_oom_builder(void **state)
{
    (void)state;
    size_t n = rmg_test_oom_sweep(op_build_and_save, NULL, 0, 1);
    print_message("build + validate + save: %zu allocations\n", n);
    assert_true(n >= 4);
}

/* A large pack crosses many arena blocks, so the sweep reaches failures deep inside the
 * reader's lists and the writer's buffer growth. */
static rmg_status op_large_pack(rmg_context *ctx, void *user)
{
    const char *text = user;
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, text, strlen(text), "big.yaml", RMG_FORMAT_YAML, &p);
    char *out = NULL;
    if (st == RMG_OK)
        st = rmg_pack_to_yaml(p, &out, NULL);
    rmg_free(ctx, out);
    rmg_pack_destroy(p);
    return st;
}

static void test_oom_large_pack(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_create(ctx, "big", &p), RMG_OK);
    for (int t = 0; t < 6; t++) {
        size_t ti;
        assert_int_equal(rmg_pack_add_template(p, "T", &ti), RMG_OK);
        for (int z = 1; z <= 60; z++) {
            size_t zi;
            assert_int_equal(rmg_template_add_zone(p, ti, z, RMG_ZONE_TREASURE, &zi), RMG_OK);
            assert_int_equal(rmg_zone_set_treasure(p, ti, zi, 0, 500, 3000, 5), RMG_OK);
            assert_int_equal(rmg_template_add_connection(p, ti, z, z % 60 + 1, 4500, NULL), RMG_OK);
        }
    }
    char *text = NULL;
    assert_int_equal(rmg_pack_to_yaml(p, &text, NULL), RMG_OK);
    rmg_pack_destroy(p);
    size_t n = rmg_test_oom_sweep(op_large_pack, text, 0, 1);
    print_message("large pack load + save: %zu allocations\n", n);
    assert_true(n >= 10);
    rmg_free(ctx, text);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_read_back),
        cmocka_unit_test(test_built_template_is_usable),
        cmocka_unit_test(test_info_set_round_trip),
        cmocka_unit_test(test_struct_size_rules),
        cmocka_unit_test(test_bad_indices),
        cmocka_unit_test(test_oom_builder),
        cmocka_unit_test(test_oom_large_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
