/*
 * Issue 20, "faithful to the guide": the probe templates of tests/probes/ (our own design), each
 * generated over 20 seeds, with the behaviour the guide (../shared/seeds/000_*.txt) describes
 * asserted on every map. One test per item; the IDs are the spec's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "content/content_internal.h"
#include "map/map_internal.h"

#define SEEDS 20

static rmg_pack *load_probe(rmg_context *ctx, const char *name)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/probes/%s", name);
    rmg_pack *pack = NULL;
    if (rmg_pack_load(ctx, rmg_test_source(rel), RMG_FORMAT_YAML, &pack) != RMG_OK)
        fail_msg("%s: %s", name, rmg_context_errmsg(ctx));
    return pack;
}

static void options(rmg_generate_options *go, int levels)
{
    rmg_generate_options_init(go);
    go->width = go->height = 72;
    go->levels = levels;
}

static rmg_map *generate(rmg_context *ctx, const rmg_pack *pack, const rmg_generate_options *go, uint64_t seed)
{
    rmg_context_set_seed(ctx, seed);
    rmg_map *map = NULL;
    if (rmg_generate(ctx, pack, go, &map) != RMG_OK)
        fail_msg("seed %llu: %s", (unsigned long long)seed, rmg_context_errmsg(ctx));
    return map;
}

/* The (first) map zone of template zone `id`. */
static const rmg__map_zone *zone_of(const struct rmg_map *m, int id)
{
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].tpl_id == id && !m->zones.items[i].mirror_of)
            return &m->zones.items[i];
    fail_msg("no map zone for template zone %d", id);
    return NULL;
}

static const rmg__map_object *object(const struct rmg_map *m, uint32_t id)
{
    return &m->objects.items[id - 1];
}

static bool has_warning(const rmg_map *map, const char *needle)
{
    for (size_t i = 0; i < rmg_map_warning_count(map); i++)
        if (strstr(rmg_map_warning(map, i), needle))
            return true;
    return false;
}

/* ---- item 1 and 2: players choose their town (spec §0, PCK-10, MIS-08, MIS-37, MIS-38) ------- */

static void test_mis37_players_choose_their_town(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "town_choice.yaml");
    rmg_generate_options go;
    options(&go, 1);
    go.towns_chosen = 1u << 0 | 1u << 2;
    go.towns[0] = RMG_FACTION_TOWER;
    go.towns[2] = RMG_FACTION_TOWER;
    int outside = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        const rmg__map_zone *z1 = zone_of(m, 1), *z2 = zone_of(m, 2), *z3 = zone_of(m, 3);
        assert_true(z1->towns.count > 0);
        for (size_t k = 0; k < z1->towns.count; k++) /* the choice is the town player 1 plays */
            assert_int_equal(object(m, z1->towns.items[k])->faction, RMG_FACTION_TOWER);
        int t2 = object(m, z2->towns.items[0])->faction;
        outside += t2 != RMG_FACTION_CASTLE && t2 != RMG_FACTION_TOWER && t2 != RMG_FACTION_CONFLUX;
        /* Zone 3 allows Necropolis only: the zone wins, with a warning. */
        assert_int_equal(object(m, z3->towns.items[0])->faction, RMG_FACTION_NECROPOLIS);
        assert_true(has_warning(map, "player 3's town choice 'tower' is not allowed in the zone"));
        rmg_generate_options o;
        rmg_generate_options_init(&o);
        assert_int_equal(rmg_map_options(map, &o), RMG_OK);
        assert_int_equal(o.towns_chosen, go.towns_chosen);
        rmg_map_destroy(map);
    }
    /* MIS-08: the pack's [castle, tower, conflux] does not limit player 2's random town (8 of the
     * 11 types lie outside it: about 14.5 of 20 expected). */
    print_message("player 2's random town outside the pack's list on %d of %d maps\n", outside, SEEDS);
    assert_true(outside >= 6);
    /* MIS-37: a choice outside the pack's list is refused. */
    go.towns[0] = RMG_FACTION_RAMPART;
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_INVALID_ARG);
    assert_null(map);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "player 1's town 'rampart' is not among the pack's allowed towns "
                                                    "(castle, tower, conflux) (MIS-37)"));
    /* MIS-38: a pack that bans every town leaves Castle to choose. */
    rmg_pack_info info = {.struct_size = sizeof info};
    assert_int_equal(rmg_pack_get(pack, &info), RMG_OK);
    info.allowed_towns = 1u << 20; /* names no town of the game */
    info.name = info.description = info.tags = NULL;
    assert_int_equal(rmg_pack_set(pack, &info), RMG_OK);
    go.towns[0] = RMG_FACTION_TOWER;
    go.towns_chosen = 1u << 0;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_ERR_INVALID_ARG);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "falls back to Castle (MIS-38)"));
    go.towns[0] = RMG_FACTION_CASTLE;
    map = generate(ctx, pack, &go, 1);
    assert_int_equal(object(map, zone_of(map, 1)->towns.items[0])->faction, RMG_FACTION_CASTLE);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 3: a zone's faction is its main town's (FAC-01, FAC-03, MIS-09, CRE-08, MIS-15) --- */

static int creature_faction(const struct rmg_content *c, int creature)
{
    return creature >= 0 && (size_t)creature < c->n_creatures ? c->creatures[creature].faction : -2;
}

/* CRE-08: every dwelling, creature Pandora's box and creature quest artifact is of its zone's
 * faction; returns how many the map holds. */
static size_t creature_objects_of_their_zone(const struct rmg_content *c, const struct rmg_map *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind != RMG_OBJECT_TREASURE || o->creature < 0)
            continue;
        assert_int_equal(creature_faction(c, o->creature), m->zones.items[o->zone - 1].faction);
        n++;
    }
    return n;
}

static void test_fac03_zone_faction_is_its_main_towns(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *c = rmg__content_get(ctx);
    rmg_pack *pack = load_probe(ctx, "main_town_faction.yaml");
    rmg_generate_options go;
    options(&go, 1);
    size_t creature_objects = 0, rewards = 0, frequency_only = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        for (size_t i = 0; i < m->zones.count; i++) {
            const rmg__map_zone *z = &m->zones.items[i];
            if (z->tpl_index < 0)
                continue;
            if (z->towns.count) {
                assert_true(z->main_town != 0);
                assert_int_equal(z->faction, object(m, z->main_town)->faction);
                frequency_only += z->tpl_id == 3;
            } else if (z->tpl_id == 5) { /* no town: one of its allowed towns (FAC-03 second branch) */
                assert_true(z->faction == RMG_FACTION_FORTRESS || z->faction == RMG_FACTION_DUNGEON);
            }
        }
        /* Zone 4: the minimum town, typed by the solver, is the main one, not a frequency castle. */
        const rmg__map_zone *z4 = zone_of(m, 4);
        assert_true(!object(m, z4->main_town)->castle || z4->towns.count == 1);
        creature_objects += creature_objects_of_their_zone(c, m);
        for (size_t i = 0; i < m->objects.count; i++) {
            const rmg__map_object *o = &m->objects.items[i];
            if (o->kind == RMG_OBJECT_SEER_HUT && o->creature >= 0) { /* MIS-15: the artifact's zone */
                assert_int_equal(creature_faction(c, o->creature), m->zones.items[object(m, o->link)->zone - 1].faction);
                rewards++;
            }
        }
        rmg_map_destroy(map);
    }
    print_message("%zu creature objects and %zu creature rewards of their zone's faction; zone 3 had frequency "
                  "towns on %zu of %d maps\n", creature_objects, rewards, frequency_only, SEEDS);
    assert_true(creature_objects > 100);
    assert_true(rewards > 0);
    assert_int_equal(frequency_only, SEEDS);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 4: zones with every town banned (FAC-03, FAC-04, FAC-05, ZON-09) -------------------- */

#define SPLIT_SEEDS 2000

static void test_fac03_every_town_banned_is_25_percent_neutral(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "all_towns_banned.yaml");
    /* The split over many seeds, from the solve stage alone (zones 3 and 4 are indexes 2 and 3). */
    int neutral = 0, table = 0, zone5_neutral = 0;
    for (uint64_t seed = 1; seed <= SPLIT_SEEDS; seed++) {
        rmg_context_set_seed(ctx, seed);
        rmg_solve_result *r = NULL;
        assert_int_equal(rmg_solve(ctx, pack, 0, NULL, &r), RMG_OK);
        for (size_t zi = 2; zi <= 4; zi++) {
            rmg_solve_zone z = {.struct_size = sizeof z};
            assert_int_equal(rmg_solve_get_zone(r, zi, &z), RMG_OK);
            if (zi == 4) {
                zone5_neutral += z.faction == RMG_FACTION_NEUTRAL;
                continue;
            }
            bool in_table = zi == 2 ? z.faction == RMG_FACTION_CASTLE || z.faction == RMG_FACTION_RAMPART
                                    : z.faction == RMG_FACTION_TOWER;
            neutral += z.faction == RMG_FACTION_NEUTRAL;
            table += in_table;
            assert_true(in_table || z.faction == RMG_FACTION_NEUTRAL);
        }
        rmg_solve_result_destroy(r);
    }
    int n = 2 * SPLIT_SEEDS;
    print_message("every town banned: %d neutral, %d from the terrain table of %d zones (%.1f%% / %.1f%%)\n", neutral,
                  table, n, 100.0 * neutral / n, 100.0 * table / n);
    /* 25% of 4000 = 1000, one standard deviation 27: within four of them. */
    assert_true(neutral >= 890 && neutral <= 1110);
    assert_int_equal(neutral + table, n);
    assert_int_equal(zone5_neutral, 0); /* FAC-05: neutral only through the 25% branch */
    /* The generated maps agree, and their creature objects are of the zone's faction. */
    const struct rmg_content *c = rmg__content_get(ctx);
    rmg_generate_options go;
    options(&go, 1);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        int f3 = zone_of(m, 3)->faction, f4 = zone_of(m, 4)->faction;
        assert_true(f3 == RMG_FACTION_NEUTRAL || f3 == RMG_FACTION_CASTLE || f3 == RMG_FACTION_RAMPART);
        assert_true(f4 == RMG_FACTION_NEUTRAL || f4 == RMG_FACTION_TOWER);
        assert_int_not_equal(zone_of(m, 5)->faction, RMG_FACTION_NEUTRAL);
        creature_objects_of_their_zone(c, m);
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 5: a starved zone is full (TRS-06) ---------------------------------------------------- */

static void test_trs06_starved_zone_stops(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "starved_zone.yaml");
    rmg_generate_options go;
    options(&go, 1);
    int zone4_starved = 0, control_third = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        const rmg__zone_stats *s3 = &m->zone_stats[zone_of(m, 3)->id - 1];
        const rmg__zone_stats *s4 = &m->zone_stats[zone_of(m, 4)->id - 1];
        const rmg__zone_stats *s5 = &m->zone_stats[zone_of(m, 5)->id - 1];
        /* Zone 3: range 2 can start no group; the zone is full, range 3 places nothing. */
        assert_true(s3->groups_placed[0] > 0);
        assert_int_equal(s3->groups_placed[1], 0);
        assert_true(s3->groups_requested[2] > 0);
        assert_int_equal(s3->groups_placed[2], 0);
        assert_true(has_warning(map, "zone 3: treasure range 3: 0 of"));
        assert_true(has_warning(map, "the zone counts as full since range 2 starved, TRS-06"));
        /* Zone 4: once range 2 starves short of its groups, range 3 places nothing. */
        if (s4->groups_placed[1] < s4->groups_requested[1]) {
            zone4_starved++;
            assert_int_equal(s4->groups_placed[2], 0);
        }
        control_third += s5->groups_placed[2] > 0;
        rmg_map_destroy(map);
    }
    print_message("zone 4 starved in range 2 on %d of %d maps; the control zone filled range 3 on %d\n", zone4_starved,
                  SEEDS, control_third);
    assert_true(zone4_starved >= SEEDS / 2);
    assert_true(control_third >= SEEDS - 2);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 6: rock masses are filled with obstacles (PLC-13, PLC-16) ---------------------------- */

static void test_plc13_rock_masses_are_land_under_obstacles(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "rock_masses.yaml");
    rmg_generate_options go;
    options(&go, 2);
    size_t surface = 0, underground = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        size_t plane = (size_t)m->width * (size_t)m->height;
        for (size_t t = 0; t < m->n_tiles; t++) {
            const rmg__map_zone *z = m->tile_zone[t] ? &m->zones.items[m->tile_zone[t] - 1] : NULL;
            if (t < plane)
                assert_int_not_equal(m->terrain[t], RMG_TERRAIN_ROCK); /* no rock terrain on the surface */
            if (!z || z->kind != RMG_ZONE_ROCK)
                continue;
            if (t < plane) { /* land under an obstacle object */
                assert_int_not_equal(m->terrain[t], RMG_TERRAIN_WATER);
                assert_true(m->tile_object[t] != 0);
                assert_int_equal(object(m, m->tile_object[t])->kind, RMG_OBJECT_OBSTACLE);
                surface++;
            } else { /* underground: the game's own rock */
                assert_int_equal(m->terrain[t], RMG_TERRAIN_ROCK);
                underground++;
            }
        }
        size_t violations = 1;
        assert_int_equal(rmg_map_validate(map, NULL, &violations), RMG_OK);
        assert_int_equal(violations, 0);
        rmg_map_destroy(map);
    }
    print_message("%zu surface rock-mass tiles under obstacles, %zu underground rock tiles over %d maps\n", surface,
                  underground, SEEDS);
    assert_true(surface > 1000 && underground > 1000);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 7: rules that lock silently (RUL-04, RUL-05, RUL-07, RUL-10) ------------------------- */

static bool key_is(const rmg__map_object *o, const char *key)
{
    return o->key && strcmp(o->key, key) == 0;
}

static void test_rul10_zone_allows_bring_back_what_the_template_forbids(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "rule_effects.yaml");
    /* rmg check: the two allows that later forbids undo. */
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(pack, &v), RMG_OK);
    int undone = 0;
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message msg = {sizeof msg, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        assert_int_equal(rmg_validation_get(v, i, &msg), RMG_OK);
        if (strcmp(msg.code, "rule-no-effect") == 0) {
            undone++;
            assert_true(strstr(msg.text, "template object rule 1 (allow arena) has no effect: the later rule 2 (forbid "
                                         "all") ||
                        strstr(msg.text, "zone 3: zone object rule 3 (allow pandora_gold_5000) has no effect"));
        }
    }
    assert_int_equal(undone, 2);
    rmg_validation_destroy(v);
    rmg_generate_options go;
    options(&go, 1);
    size_t quests = 0, tents = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        int zone3 = zone_of(m, 3)->id;
        for (size_t i = 0; i < m->objects.count; i++) {
            const rmg__map_object *o = &m->objects.items[i];
            assert_false(key_is(o, "arena") || key_is(o, "pandora_gold_5000"));
            if (key_is(o, "seer_artifact_gold_5000")) { /* only zone 3 allows them; the huts stand elsewhere */
                assert_int_equal(o->zone, zone3);
                assert_int_not_equal(object(m, o->link)->zone, zone3);
                quests++;
            }
            if (key_is(o, "keymaster_tent_5000")) {
                assert_int_equal(o->zone, zone3);
                tents++;
            }
        }
        rmg_map_destroy(map);
    }
    print_message("%zu quest artifacts and %zu tents, all in zone 3, over %d maps\n", quests, tents, SEEDS);
    assert_true(quests >= SEEDS && tents >= SEEDS / 2);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* ---- item 8: mandatory roads and frequency towns (CON-15) ------------------------------------- */

static void test_con15_frequency_towns_count_for_mandatory_roads(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = load_probe(ctx, "frequency_roads.yaml");
    /* Before placement only the minimum towns are known: the solve preview keeps them random. */
    rmg_solve_result *r = NULL;
    assert_int_equal(rmg_solve(ctx, pack, 0, NULL, &r), RMG_OK);
    assert_int_equal(rmg_solve_road(r, 0), RMG_ROAD_RANDOM);
    assert_int_equal(rmg_solve_road(r, 1), RMG_ROAD_RANDOM);
    rmg_solve_result_destroy(r);
    rmg_generate_options go;
    options(&go, 1);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rmg_map *map = generate(ctx, pack, &go, seed);
        const struct rmg_map *m = map;
        assert_true(zone_of(m, 3)->towns.count > 0);
        for (size_t i = 0; i < m->conns.count; i++) {
            const rmg__map_connection *cn = &m->conns.items[i];
            if (cn->tpl_index == 0 || cn->tpl_index == 1)
                assert_true(cn->road);
        }
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mis37_players_choose_their_town),
        cmocka_unit_test(test_fac03_zone_faction_is_its_main_towns),
        cmocka_unit_test(test_fac03_every_town_banned_is_25_percent_neutral),
        cmocka_unit_test(test_trs06_starved_zone_stops),
        cmocka_unit_test(test_plc13_rock_masses_are_land_under_obstacles),
        cmocka_unit_test(test_rul10_zone_allows_bring_back_what_the_template_forbids),
        cmocka_unit_test(test_con15_frequency_towns_count_for_mandatory_roads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
