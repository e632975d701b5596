/*
 * Every template in every setup (issue 30): the template's own water level by default (item 4),
 * start zones of players not in the game neutral in every output (item 3), and SoD maps of HotA
 * templates, whose object rules naming HotA objects are dropped with one warning (item 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "content/content_internal.h"
#include "map/map_internal.h"
#include "place/place_internal.h"
#include "template/model.h"

/* ---- helpers --------------------------------------------------------------------------------- */

/* The built-in pack's YAML with `insert` put after the first line that starts with `after`. */
static char *builtin_yaml_with(const char *after, const char *insert)
{
    size_t len = 0;
    char *text = rmg_test_read_file(rmg_test_source("templates/default.yaml"), &len);
    assert_non_null(text);
    char *at = strstr(text, after);
    assert_non_null(at);
    char *eol = strchr(at, '\n');
    assert_non_null(eol);
    size_t head = (size_t)(eol + 1 - text), extra = strlen(insert);
    char *out = malloc(len + extra + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, insert, extra);
    memcpy(out + head + extra, text + head, len - head + 1);
    free(text);
    return out;
}

static rmg_pack *load_yaml(rmg_context *ctx, const char *yaml)
{
    rmg_pack *pack = NULL;
    if (rmg_pack_load_string(ctx, yaml, strlen(yaml), "setups.yaml", RMG_FORMAT_YAML, &pack) != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    return pack;
}

static rmg_map *generate_named(rmg_context *ctx, const rmg_pack *pack, const char *name, int side, int players,
                               rmg_water_level water)
{
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.template_name = name;
    go.width = go.height = side;
    go.players = players;
    go.water = water;
    rmg_map *map = NULL;
    if (rmg_generate(ctx, pack, &go, &map) != RMG_OK)
        fail_msg("%s: %s", name ? name : "(any)", rmg_context_errmsg(ctx));
    return map;
}

static size_t warnings_containing(const rmg_map *map, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < rmg_map_warning_count(map); i++)
        n += strstr(rmg_map_warning(map, i), text) != NULL;
    return n;
}

static size_t messages_with_code(const rmg_validation *v, const char *code, rmg_severity severity, const char **text)
{
    size_t n = 0;
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        assert_int_equal(rmg_validation_get(v, i, &m), RMG_OK);
        if (strcmp(m.code, code) == 0 && m.severity == severity) {
            n++;
            if (text)
                *text = m.text;
        }
    }
    return n;
}

/* ---- item 4: the water level is the template's choice ------------------------------------------ */

static void test_options_default_to_the_templates_water(void **state)
{
    (void)state;
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    assert_int_equal(go.water, RMG_WATER_TEMPLATE);
    assert_int_equal(RMG_WATER_TEMPLATE, 3); /* appended after islands: the ABI stays */
}

/* The first level a filter accepts, in the order none, normal, islands; a filterless template
 * by its name; an explicit level passes through (issue 30 item 4). */
static void test_template_water_choice(void **state)
{
    (void)state;
    rmg__template t;
    memset(&t, 0, sizeof t);
    char names[4][40] = {"Jebus Cross", "Jebus Cross Water", "Treasure_Islands", "Jebus Outcast [1 hero] ISLANDS H"};
    t.name = names[0];
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_NONE);
    assert_int_equal(rmg__template_water(&t, RMG_WATER_ISLANDS), RMG_WATER_ISLANDS);
    t.name = names[1];
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_NORMAL);
    assert_int_equal(rmg__template_water(&t, RMG_WATER_NONE), RMG_WATER_NONE);
    t.name = names[2];
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_ISLANDS);
    t.name = names[3];
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_ISLANDS);
    /* A filter wins over the name. */
    t.water_allowed = (1u << RMG_WATER_NORMAL) | (1u << RMG_WATER_ISLANDS);
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_NORMAL);
    t.water_allowed = 1u << RMG_WATER_ISLANDS;
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_ISLANDS);
    t.water_allowed = (1u << RMG_WATER_NONE) | (1u << RMG_WATER_ISLANDS);
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_NONE);
    t.name = NULL;
    t.water_allowed = 0;
    assert_int_equal(rmg__template_water(&t, RMG_WATER_TEMPLATE), RMG_WATER_NONE);
}

/* The map written as an .h3m file of `edition` and read back by the project's reader, which
 * keeps the objects in the map's order. */
static rmg_map *h3m_read_back(rmg_context *ctx, const rmg_map *map, rmg_h3m_edition edition)
{
    rmg_h3m_options o;
    rmg_h3m_options_init(&o);
    o.edition = edition;
    unsigned char *file = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_h3m(map, &o, &file, &len), RMG_OK);
    rmg_map *back = NULL;
    assert_int_equal(rmg_map_from_h3m(ctx, file, len, "read-back.h3m", &back), RMG_OK);
    rmg_free(ctx, file);
    assert_int_equal(rmg_map_object_count(back), rmg_map_object_count(map));
    return back;
}

/* Duet of `pack` at side x side asked for water level `asked`: the map's level and description. */
static void expect_water(rmg_context *ctx, const rmg_pack *pack, int side, rmg_water_level asked,
                         rmg_water_level used_level, const char *description)
{
    rmg_map *map = generate_named(ctx, pack, "Duet", side, 0, asked);
    rmg_generate_options used;
    rmg_generate_options_init(&used);
    assert_int_equal(rmg_map_options(map, &used), RMG_OK);
    assert_int_equal(used.water, used_level);
    assert_string_equal(rmg_map_description(map), description);
    /* One description (issue 29): the .h3m holds the same text (ASCII, within its 300
     * characters), which the reader gives back. */
    rmg_map *back = h3m_read_back(ctx, map, RMG_H3M_HOTA);
    assert_string_equal(rmg_map_description(back), description);
    rmg_map_destroy(back);
    rmg_map_destroy(map);
}

/* The generator's line under the pack's text (issue 29): what made the map. */
#define GENERATED_BY "The built-in template pack of librmg.\nRandom map by librmg " RMG_VERSION_STRING ". Template Duet (pack librmg default), seed 3, "

/* A template whose filter names water levels only gets the first by default, and the map's
 * options and description say so; a template that accepts every level keeps no water
 * (issue 30 item 4). */
static void test_generate_takes_the_templates_water(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 3);
    char *yaml = builtin_yaml_with("    players: {min_total: 2, max_total: 2}", "    water: [islands, normal]\n");
    rmg_pack *pack = load_yaml(ctx, yaml);
    expect_water(ctx, pack, 72, RMG_WATER_TEMPLATE, RMG_WATER_NORMAL, /* normal comes before islands */
                 GENERATED_BY "size M with underground, 2 players (1 human), normal water (the template's choice), "
                              "normal monsters.");
    /* An explicit level is taken as asked, and the description says so. */
    expect_water(ctx, pack, 72, RMG_WATER_ISLANDS, RMG_WATER_ISLANDS,
                 GENERATED_BY "size M with underground, 2 players (1 human), islands, normal monsters.");
    rmg_pack_destroy(pack);
    free(yaml);
    /* The built-in pack accepts every level: no water, as before issue 30. */
    expect_water(ctx, NULL, 36, RMG_WATER_TEMPLATE, RMG_WATER_NONE,
                 GENERATED_BY "size S with underground, 2 players (1 human), no water, normal monsters.");
    rmg_context_destroy(ctx);
}

/* ---- item 3: players not in the game ---------------------------------------------------------- */

/* Owners of every zone and town of a map: the API's, the JSON's read back, the balance
 * report's players and the .h3m's read back agree, and no owner is beyond the players. */
static void check_owners_agree(rmg_context *ctx, const rmg_map *map, const char *what)
{
    rmg_generate_options used;
    rmg_generate_options_init(&used);
    assert_int_equal(rmg_map_options(map, &used), RMG_OK);
    int players = used.players;
    /* The API. */
    uint32_t owned_by_api = 0;
    for (size_t i = 0; i < rmg_map_zone_count(map); i++) {
        rmg_map_zone_info z = {.struct_size = sizeof z};
        assert_int_equal(rmg_map_zone(map, i, &z), RMG_OK);
        if (z.owner > players)
            fail_msg("%s: zone %d owned by player %d of %d", what, z.id, z.owner, players);
        if (z.owner > 0)
            owned_by_api |= 1u << (z.owner - 1);
    }
    /* The JSON, read back. */
    char *json = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_json(map, &json, &len), RMG_OK);
    struct rmg_map *from_json = NULL;
    assert_int_equal(rmg__map_from_json(ctx, json, len, "owners.json", &from_json), RMG_OK);
    rmg_free(ctx, json);
    assert_int_equal(from_json->zones.count, rmg_map_zone_count(map));
    for (size_t i = 0; i < from_json->zones.count; i++) {
        rmg_map_zone_info z = {.struct_size = sizeof z};
        assert_int_equal(rmg_map_zone(map, i, &z), RMG_OK);
        if (from_json->zones.items[i].owner != z.owner)
            fail_msg("%s: zone %d: owner %d in the API, %d in the JSON", what, z.id, z.owner,
                     from_json->zones.items[i].owner);
    }
    /* The .h3m, read back. */
    rmg_map *from_h3m = h3m_read_back(ctx, map, RMG_H3M_HOTA);
    uint32_t towns_owned = 0;
    for (size_t i = 0; i < rmg_map_object_count(map); i++) {
        rmg_map_object_info o = {.struct_size = sizeof o}, h = {.struct_size = sizeof h};
        assert_int_equal(rmg_map_object(map, i, &o), RMG_OK);
        if (o.kind != RMG_OBJECT_TOWN)
            continue;
        assert_int_equal(rmg_map_object(from_h3m, i, &h), RMG_OK);
        assert_int_equal(h.kind, RMG_OBJECT_TOWN);
        const rmg__map_object *jo = &from_json->objects.items[i];
        if (o.owner > players || h.owner != o.owner || jo->owner != o.owner)
            fail_msg("%s: town %zu: owner %d in the API, %d in the JSON, %d in the .h3m (%d players)", what, i + 1,
                     o.owner, jo->owner, h.owner, players);
        if (o.owner > 0) {
            towns_owned |= 1u << (o.owner - 1);
            rmg_map_zone_info z = {.struct_size = sizeof z};
            assert_int_equal(rmg_map_zone(map, (size_t)o.zone - 1, &z), RMG_OK);
            if (z.owner != o.owner)
                fail_msg("%s: town %zu of player %d stands in zone %d of owner %d", what, i + 1, o.owner, z.id,
                         z.owner);
        }
    }
    rmg_map_destroy(from_h3m);
    rmg__map_free(from_json);
    /* The balance report: one player per owner of a town, the same ones. */
    rmg_balance *b = NULL;
    assert_int_equal(rmg_map_balance(map, NULL, &b), RMG_OK);
    uint32_t balanced = 0;
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        rmg_balance_player_info p = {.struct_size = sizeof p};
        assert_int_equal(rmg_balance_player(b, i, &p), RMG_OK);
        balanced |= 1u << (p.player - 1);
    }
    rmg_balance_destroy(b);
    if ((towns_owned & ~owned_by_api) != 0)
        fail_msg("%s: towns of players %#x, zones of players %#x", what, towns_owned, owned_by_api);
    if (balanced != towns_owned)
        fail_msg("%s: the balance report has players %#x, the towns' owners are %#x", what, balanced, towns_owned);
}

/* Duet for 1 or 2 players: with one, zone 2 and its castle are neutral in every output (issue
 * 30 item 3); with two, both players own their zones. */
static void test_start_zone_of_an_absent_player_is_neutral(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 5);
    char *yaml = builtin_yaml_with("  - name: Duet", "    players: {min_total: 1, max_total: 2}\n");
    /* The template's own filter line comes after: drop it. */
    char *second = strstr(yaml, "    players: {min_total: 2, max_total: 2}\n");
    assert_non_null(second);
    memset(second, ' ', strlen("    players: {min_total: 2, max_total: 2}"));
    rmg_pack *pack = load_yaml(ctx, yaml);
    for (int players = 1; players <= 2; players++) {
        rmg_map *map = generate_named(ctx, pack, "Duet", 36, players, RMG_WATER_NONE);
        char what[32];
        snprintf(what, sizeof what, "Duet, %d player(s)", players);
        check_owners_agree(ctx, map, what);
        rmg_map_zone_info z = {.struct_size = sizeof z};
        assert_int_equal(rmg_map_zone(map, 1, &z), RMG_OK);
        assert_int_equal(z.template_zone, 2);
        assert_int_equal(z.kind, RMG_ZONE_HUMAN_START);
        assert_int_equal(z.owner, players == 1 ? 0 : 2);
        assert_true(z.town_count >= 1); /* the castle stays, neutral */
        rmg_map_object_info o = {.struct_size = sizeof o};
        assert_int_equal(rmg_map_object(map, rmg_map_zone_town(map, 1, 0) - 1, &o), RMG_OK);
        assert_int_equal(o.owner, players == 1 ? 0 : 2);
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    free(yaml);
    rmg_context_destroy(ctx);
}

/* ---- item 1: SoD maps of HotA templates ------------------------------------------------------- */

static const char sod_rules[] =
    "      - {op: allow, target: object, object: mineral_spring, max_zone: 3}\n"
    "      - {op: forbid, target: family, family: resource_warehouses}\n"
    "      - {op: allow, target: creature, family: creature_dwelling, creature: nix, frequency: 20}\n"
    "      - {op: allow, target: object, object: hermits_shack}\n"
    "      - {op: allow, target: object, object: mineral_spring, max_zone: 2}\n";

/* The built-in pack with `rules` among Duet's rules: how many rule-unknown errors and
 * rule-dropped warnings `rmg check` finds with the context's ruleset. */
static void expect_rule_messages(rmg_context *ctx, const char *rules, size_t unknown, size_t dropped)
{
    char *yaml = builtin_yaml_with("      - {op: allow, target: object, object: pyramid", rules);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(pack, &v), RMG_OK);
    assert_int_equal(messages_with_code(v, "rule-unknown", RMG_SEVERITY_ERROR, NULL), unknown);
    assert_int_equal(messages_with_code(v, "rule-dropped", RMG_SEVERITY_WARNING, NULL), dropped);
    rmg_validation_destroy(v);
    rmg_pack_destroy(pack);
    free(yaml);
}

/* A rule naming what SoD lacks is dropped with one warning per template naming each thing once;
 * a name no ruleset knows stays an error; with HotA nothing is dropped (issue 30 item 1). */
static void test_sod_drops_rules_naming_hota_objects(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
    char *yaml = builtin_yaml_with("      - {op: allow, target: object, object: pyramid", sod_rules);
    rmg_pack *pack = load_yaml(ctx, yaml);
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(pack, &v), RMG_OK);
    const char *text = NULL;
    assert_int_equal(messages_with_code(v, "rule-dropped", RMG_SEVERITY_WARNING, &text), 1);
    assert_int_equal(messages_with_code(v, "rule-unknown", RMG_SEVERITY_ERROR, NULL), 0);
    assert_non_null(strstr(text, "object rules naming what the SoD ruleset lacks are dropped (they change nothing on "
                                 "its maps): objects mineral_spring, hermits_shack; creatures nix; families "
                                 "resource_warehouses"));
    rmg_validation_destroy(v);
    /* The map is made, and says it once. */
    rmg_map *map = generate_named(ctx, pack, "Duet", 36, 0, RMG_WATER_NONE);
    assert_int_equal(warnings_containing(map, "lacks are dropped"), 1);
    assert_int_equal(warnings_containing(map, "objects mineral_spring, hermits_shack; creatures nix"), 1);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    free(yaml);
    /* A typo is no HotA object: still an error. */
    expect_rule_messages(ctx, "      - {op: allow, target: object, object: mineral_sprung}\n", 1, 0);
    rmg_context_destroy(ctx);
    /* HotA knows them all. */
    ctx = rmg_test_context(NULL, 1);
    expect_rule_messages(ctx, sod_rules, 0, 0);
    rmg_context_destroy(ctx);
}

/* A ruleset merged onto the SoD one keeps what SoD left out. */
static void test_left_out_survives_a_merge(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
    const char *extra = "objects:\n  my_well: {name: My Well, family: regular, value: 100, frequency: 1, "
                        "max_map: unlimited, max_zone: 1, terrains: [grass], class: 112, subclass: 0, def: "
                        "AVXwell.def, footprint: [\"V\"]}\n";
    rmg_status st = rmg_content_merge_string(ctx, extra, strlen(extra), "extra.yaml");
    if (st != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    const rmg_content *c = NULL;
    assert_int_equal(rmg_context_content(ctx, &c), RMG_OK);
    assert_non_null(c);
    assert_true(rmg_content_find(c, RMG_CONTENT_OBJECT, "my_well") >= 0);
    assert_true(rmg__content_left_out(c, RMG_CONTENT_OBJECT, "mineral_spring"));
    assert_true(rmg__content_left_out(c, RMG_CONTENT_CREATURE, "nix"));
    assert_true(rmg__content_family_left_out(c, "resource_warehouse"));
    assert_true(rmg__content_family_left_out(c, "resource_warehouses"));
    assert_false(rmg__content_left_out(c, RMG_CONTENT_OBJECT, "pyramid"));
    assert_false(rmg__content_family_left_out(c, "no_such_family"));
    rmg_context_destroy(ctx);
}

/* ---- the corpus ------------------------------------------------------------------------------ */

#define JEBUS "corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__Jebus_Cross.h3t"

/* The example: HotA's Jebus Cross for SoD, read back by the project's reader. */
static void test_jebus_cross_for_sod(void **state)
{
    (void)state;
    const char *file = rmg_test_need_shared(JEBUS);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
    rmg_map *map = generate_named(ctx, pack, NULL, 0, 0, RMG_WATER_TEMPLATE);
    assert_int_equal(warnings_containing(map, "template 'Jebus Cross': object rules naming what the SoD ruleset "
                                              "lacks are dropped (they change nothing on its maps): objects "
                                              "mineral_spring, hermits_shack, ancient_lamp"),
                     1);
    rmg_map_destroy(h3m_read_back(ctx, map, RMG_H3M_SOD));
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Jebus Cross for 2 and 3 players: the start zones of players 3 and 4 (and 4) are neutral in
 * the JSON, the API, the balance report and the .h3m (issue 30 item 3). */
static void test_jebus_cross_below_its_start_zones(void **state)
{
    (void)state;
    const char *file = rmg_test_need_shared(JEBUS);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
    for (int players = 2; players <= 4; players++) {
        rmg_map *map = generate_named(ctx, pack, NULL, 0, players, RMG_WATER_TEMPLATE);
        char what[48];
        snprintf(what, sizeof what, "Jebus Cross, %d players", players);
        check_owners_agree(ctx, map, what);
        rmg_balance *b = NULL;
        assert_int_equal(rmg_map_balance(map, NULL, &b), RMG_OK);
        assert_int_equal(rmg_balance_player_count(b), (size_t)players);
        rmg_balance_destroy(b);
        int owned = 0;
        for (size_t i = 0; i < rmg_map_zone_count(map); i++) {
            rmg_map_zone_info z = {.struct_size = sizeof z};
            assert_int_equal(rmg_map_zone(map, i, &z), RMG_OK);
            owned += z.owner > 0;
        }
        assert_int_equal(owned, players);
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

/* Every player count each sampled corpus template accepts, at its default size: owners agree
 * between the JSON, the API, the balance report and the .h3m (issue 30 item 3; the sample in
 * `make test`, every file in corpus-full). */
static void test_corpus_owners_agree(void **state)
{
    (void)state;
    char **files = rmg_test_corpus_files("corpus/h3t", ".h3t");
    size_t maps = 0, setups = 0;
    for (size_t f = 0; files[f]; f++) {
        rmg_context *ctx = rmg_test_context(NULL, 2);
        rmg_pack *pack = NULL;
        if (rmg_pack_load(ctx, files[f], RMG_FORMAT_AUTO, &pack) != RMG_OK) {
            rmg_context_destroy(ctx);
            continue;
        }
        rmg_template_info ti;
        rmg_template_info_init(&ti);
        assert_int_equal(rmg_template_get(pack, 0, &ti), RMG_OK);
        for (int players = 1; players <= 8; players++) {
            rmg_generate_options go;
            rmg_generate_options_init(&go);
            go.template_name = ti.name;
            go.players = players;
            size_t index;
            if (rmg_pack_select(ctx, pack, &go, &index) != RMG_OK)
                continue;
            setups++;
            rmg_map *map = NULL;
            if (rmg_generate(ctx, pack, &go, &map) != RMG_OK)
                continue; /* what fails is the corpus runs' to count (test_corpus_generate) */
            char what[512];
            snprintf(what, sizeof what, "%s, %d players", strrchr(files[f], '/') + 1, players);
            check_owners_agree(ctx, map, what);
            maps++;
            rmg_map_destroy(map);
        }
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
    printf("owners agree on %zu maps (%zu setups accepted)\n", maps, setups);
    assert_true(maps > 0);
    rmg_test_free_list(files);
}

/* ---- item 5: two levels ------------------------------------------------------------------------ */

/* Two start zones the template keeps on the surface, on a two-level map: the underground holds
 * no zone of it and is one rock zone (PLC-16), which the map's warnings say; on one level no
 * such warning. */
static const char surface_pair[] =
    "version: 1\n"
    "templates:\n"
    "  - name: Surface pair\n"
    "    min_size: 1\n"
    "    max_size: 32\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 20, placement: surface, player_towns: {castles: 1}}\n"
    "      - {id: 2, kind: human_start, owner: 2, size: 20, placement: surface, player_towns: {castles: 1}}\n"
    "    connections:\n"
    "      - {a: 1, b: 2, value: 5000}\n";

/* A 72x72 map of `levels` levels from the YAML pack `yaml`; the pack is kept in *pack. */
static rmg_map *generate_m(rmg_context *ctx, const char *yaml, int levels, rmg_pack **pack)
{
    *pack = load_yaml(ctx, yaml);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 72;
    go.levels = levels;
    rmg_map *map = NULL;
    if (rmg_generate(ctx, *pack, &go, &map) != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    return map;
}

static void test_empty_level_is_warned(void **state)
{
    (void)state;
    for (int levels = 1; levels <= 2; levels++) {
        rmg_context *ctx = rmg_test_context(NULL, 2);
        rmg_pack *pack;
        rmg_map *map = generate_m(ctx, surface_pair, levels, &pack);
        assert_int_equal(warnings_containing(map, "the underground holds no zone of the template: all 2 zones stand "
                                                  "on the surface"),
                         levels == 2 ? 1 : 0);
        assert_int_equal(warnings_containing(map, "so the underground is rock"), levels == 2 ? 1 : 0);
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
}

/* Four zones of weight 20 on the surface and one of weight 20 underground, no rock masses: on
 * two levels the surface keeps the underground's share of its level (rock radius 4: 4 / 4.35 =
 * 0.92, PLC-16; issue 30), so every zone gets 0.92 * 72 * 72 / 80 = 59.6 tiles per weight, 1,192
 * tiles, on either level (the underground zone took 0.92 of its level, 4,770, at first; then
 * 1,296 beside surface zones that filled their level); the rest of both levels is rock. */
static const char four_over_one[] =
    "version: 1\n"
    "templates:\n"
    "  - name: Four over one\n"
    "    min_size: 1\n"
    "    max_size: 32\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 20, placement: surface, player_towns: {castles: 1}}\n"
    "      - {id: 2, kind: human_start, owner: 2, size: 20, placement: surface, player_towns: {castles: 1}}\n"
    "      - {id: 3, kind: treasure, size: 20, placement: surface}\n"
    "      - {id: 4, kind: treasure, size: 20, placement: surface}\n"
    "      - {id: 5, kind: treasure, size: 20, placement: underground}\n"
    "    connections:\n"
    "      - {a: 1, b: 3, value: 5000}\n"
    "      - {a: 3, b: 2, value: 5000}\n"
    "      - {a: 2, b: 4, value: 5000}\n"
    "      - {a: 4, b: 1, value: 5000}\n"
    "      - {a: 3, b: 5, value: 5000}\n";

static void test_equal_weights_equal_land_on_both_levels(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        rmg_pack *pack;
        rmg_map *map = generate_m(ctx, four_over_one, 2, &pack);
        double surface = 0, under = 0;
        size_t n_surface = 0, n_under = 0;
        for (size_t i = 0; i < map->zones.count; i++) {
            const rmg__map_zone *z = &map->zones.items[i];
            if (z->tpl_id <= 0)
                continue;
            if (z->level == 0) {
                surface += (double)z->n_tiles;
                n_surface++;
            } else {
                under += (double)z->n_tiles;
                n_under++;
            }
        }
        assert_int_equal(n_surface, 4);
        assert_int_equal(n_under, 1);
        assert_true(surface <= 4 * 1192.0 * 1.02);
        printf("seed %llu: underground zone %.0f tiles, surface zones %.0f on average\n", (unsigned long long)seed,
               under, surface / 4);
        assert_true(fabs(under - 1192.0) <= 1192.0 * 0.02);
        assert_true(fabs(under / (surface / 4) - 1.0) <= 0.15);
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
}

/* ---- item 2: SoD's own 8XM12a ------------------------------------------------------------------ */

#define SOD_8XM12A "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__8XM12a__rmg.txt"

/* SoD's 8XM12a (33 zones, 56 links, XL with the underground) for SoD on seeds 1-8: SoD's 16
 * teleport colours (8 two-way, 8 one-way as entrance pairs, ZON-36) make one link each, and the
 * place stage draws layouts until its links left to teleports fit them (the first layout leaves
 * 11 to 23 links apart over seeds), keeping the one leaving the fewest (a link apart on the
 * lattice may still touch on the map). Every colour serves one link. */
static void test_sod_8xm12a_fits_sods_colours(void **state)
{
    (void)state;
    const char *file = rmg_test_need_shared(SOD_8XM12A);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
        rmg_map *map = NULL;
        if (rmg_generate(ctx, pack, NULL, &map) != RMG_OK)
            fail_msg("seed %llu: %s", (unsigned long long)seed, rmg_context_errmsg(ctx));
        const struct rmg__place_report *r = map->place_report;
        assert_non_null(r);
        size_t apart = 0, teleports = 0;
        for (size_t k = 0; k < r->n_links; k++)
            apart += r->links[k].lattice == 0;
        for (size_t i = 0; i < map->conns.count; i++)
            teleports += map->conns.items[i].realized == RMG_REALIZED_MONOLITH;
        printf("8XM12a for SoD, seed %llu: %zu links apart on the lattice, %zu monolith links\n",
               (unsigned long long)seed, apart, teleports);
        assert_true(apart <= 16);
        assert_true(teleports <= 16);
        for (size_t i = 0; i < map->objects.count; i++)
            for (size_t j = i + 1; j < map->objects.count; j++) {
                const rmg__map_object *a = &map->objects.items[i], *b = &map->objects.items[j];
                if (a->kind == RMG_OBJECT_MONOLITH && b->kind == RMG_OBJECT_MONOLITH && a->color == b->color &&
                    !strcmp(a->key, b->key))
                    assert_true(a->link == b->id && b->link == a->id);
            }
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
}

#define SOD_8XM12 "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__8XM12__rmg.txt"
#define SOD_MATCH_TERRAIN "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__Match_Terrain__rmg.txt"
#define SOD_ORIGINAL "corpus/sod/sokie__heroes3-template-util__templates__sod_complete___Original___rmg.txt"

/* Generates `name` of `file` for SoD with the underground at `water` and `seed`, or fails with
 * the reason. */
static rmg_map *generate_sod_two_levels(const char *file, const char *name, rmg_water_level water, uint64_t seed,
                                        rmg_context **ctx, rmg_pack **pack)
{
    *ctx = rmg_test_context(NULL, seed);
    assert_int_equal(rmg_context_set_content_variant(*ctx, RMG_CONTENT_SOD), RMG_OK);
    assert_int_equal(rmg_pack_load(*ctx, file, RMG_FORMAT_AUTO, pack), RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.template_name = name;
    go.levels = 2;
    go.water = water;
    rmg_map *map = NULL;
    if (rmg_generate(*ctx, *pack, &go, &map) != RMG_OK)
        fail_msg("%s '%s' water %d seed %llu: %s", file, name, (int)water, (unsigned long long)seed,
                 rmg_context_errmsg(*ctx));
    assert_int_equal(map->levels, 2);
    return map;
}

/* Issue 30 (regression of "equal land on two levels"): with filler on both levels the zones
 * grow as discs of their share and the rest turns to rock, so two linked zones stacked on the
 * lattice (PLC-02) no longer overlapped by chance under a surface that filled its level: SoD's
 * 8XM12 at two levels (43 zones, 68 links) was refused on seed 1, its links apart overflowing
 * SoD's 16 monolith colours. The growth now joins such pairs through the filler (CON-10: a gate
 * needs a tile of one above a tile of the other) unless third zones wall them apart, and the
 * map is made on seeds 1-3 in every file of the SoD pack that holds 8XM12, its monolith links
 * within SoD's 16 colours. */
static void test_sod_8xm12_on_two_levels(void **state)
{
    (void)state;
    static const char *const files[] = {SOD_8XM12, SOD_MATCH_TERRAIN, SOD_ORIGINAL};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const char *file = rmg_test_need_shared(files[f]);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            rmg_context *ctx = NULL;
            rmg_pack *pack = NULL;
            rmg_map *map = generate_sod_two_levels(file, "8XM12", RMG_WATER_NONE, seed, &ctx, &pack);
            const struct rmg__place_report *r = map->place_report;
            assert_non_null(r);
            size_t stacked = 0, met = 0, teleports = 0;
            for (size_t k = 0; k < r->n_links; k++)
                if (r->links[k].lattice == 2 && r->links[k].zone_a != r->links[k].zone_b &&
                    r->links[k].placement != RMG_LINK_MONOLITH) {
                    stacked++;
                    met += r->links[k].stacked;
                }
            for (size_t i = 0; i < map->conns.count; i++)
                teleports += map->conns.items[i].realized == RMG_REALIZED_MONOLITH;
            printf("8XM12 for SoD at two levels, %s seed %llu: %zu of %zu links stacked on the lattice stacked on "
                   "the map, %zu monolith links\n",
                   strrchr(file, '/') + 1, (unsigned long long)seed, met, stacked, teleports);
            assert_true(teleports <= 16);
            rmg_map_destroy(map);
            rmg_pack_destroy(pack);
            rmg_context_destroy(ctx);
        }
    }
}

/* Issue 30 (same regression): SoD's 8XM8 at two levels with water normal and islands (seed 1)
 * was refused after 8 attempts by the map validation (a player could not reach every object, an
 * object was reachable around its guard). With normal water the growth joins the stacked linked
 * pairs (above); on islands the zones' centres keep the lattice's, unbalanced, as before the
 * equal land (the sea between the islands is no filler the balance can model). */
static void test_sod_8xm8_on_two_levels_with_water(void **state)
{
    (void)state;
    static const char *const files[] = {SOD_MATCH_TERRAIN, SOD_ORIGINAL};
    static const rmg_water_level waters[] = {RMG_WATER_NORMAL, RMG_WATER_ISLANDS};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const char *file = rmg_test_need_shared(files[f]);
        for (size_t w = 0; w < sizeof waters / sizeof *waters; w++) {
            rmg_context *ctx = NULL;
            rmg_pack *pack = NULL;
            rmg_map *map = generate_sod_two_levels(file, "8XM8", waters[w], 1, &ctx, &pack);
            size_t sea = 0;
            for (size_t i = 0; i < map->zones.count; i++)
                sea += map->zones.items[i].kind == RMG_ZONE_WATER && map->zones.items[i].level == 0;
            assert_true(sea > 0);
            rmg_map_destroy(map);
            rmg_pack_destroy(pack);
            rmg_context_destroy(ctx);
        }
    }
}

/* Why SoD may refuse a corpus file at its defaults (issue 30): the first two are setups SoD
 * cannot hold, the rest what other items of the issue track; an object rule naming HotA content
 * is never one. */
#define SOD_CANNOT_HOLD 2
static const char *const sod_refusals[] = {
    "no templates",                   /* a file of header rows only */
    "SoD maps are at most 144x144",   /* templates for H and larger */
    "monolith colours are taken",     /* more links apart than SoD's 16 colours */
    "is HotA content",                /* a mirror link of a HotA colour */
    "but no town",                    /* a start zone without a town */
};

/* Every sampled corpus .h3t file at its defaults for SoD: the map is made and its SoD .h3m read
 * back by the project's reader, or the refusal is one of sod_refusals (issue 30 items 1 and 2:
 * 65 of the 67 files whose setup SoD can hold generate, 97.0%; the acceptance asks 95%). */
static void test_corpus_for_sod(void **state)
{
    (void)state;
    char **files = rmg_test_corpus_files("corpus/h3t", ".h3t");
    size_t n = 0, made = 0;
    for (size_t f = 0; files[f]; f++) {
        rmg_context *ctx = rmg_test_context(NULL, 1);
        assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
        rmg_pack *pack = NULL;
        rmg_map *map = NULL;
        rmg_h3m_options o;
        rmg_h3m_options_init(&o);
        o.edition = RMG_H3M_SOD;
        unsigned char *bytes = NULL;
        size_t len = 0;
        rmg_status st = rmg_pack_load(ctx, files[f], RMG_FORMAT_AUTO, &pack);
        if (st == RMG_OK)
            st = rmg_generate(ctx, pack, NULL, &map);
        if (st == RMG_OK)
            st = rmg_map_to_h3m(map, &o, &bytes, &len);
        if (st == RMG_OK) {
            n++;
            rmg_map *back = NULL;
            assert_int_equal(rmg_map_from_h3m(ctx, bytes, len, "sod.h3m", &back), RMG_OK);
            assert_int_equal(rmg_map_object_count(back), rmg_map_object_count(map));
            rmg_map_destroy(back);
            made++;
        } else {
            size_t k = 0;
            while (k < RMG_TEST_COUNT(sod_refusals) && !strstr(rmg_context_errmsg(ctx), sod_refusals[k]))
                k++;
            bool known = k < RMG_TEST_COUNT(sod_refusals);
            n += k >= SOD_CANNOT_HOLD;
            printf("SoD refuses %s: %s\n", strrchr(files[f], '/') + 1, rmg_context_errmsg(ctx));
            if (!known)
                fail_msg("%s: %s", files[f], rmg_context_errmsg(ctx));
        }
        rmg_free(ctx, bytes);
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
    printf("SoD: %zu of the %zu corpus .h3t files whose setup SoD can hold generate and read back\n", made, n);
    assert_true(made * 100 >= n * 95); /* 65 of 67 over the whole corpus */
    rmg_test_free_list(files);
}

#define TREASURE_ISLANDS "corpus/h3t/synthet__heroes-olden-era-templates__h3__sources__community__Treasure_Islands.h3t"

/* Issue 30 item 7: Treasure_Islands at islands water (144x144, six players) numbers its six
 * start zones first, unlinked to each other, and their islands after them; they were packed in
 * one corner (seeds 1-5: closest pair of start zones' centres 9.8-13.4 tiles, average pair
 * 30.0-42.0, 60-99 "no room" warnings). Where the sea joins the groups each start zone takes a
 * cell of its own over the square the zones fill (PLC-03, PLC-05, place_layout.c): closest pair
 * 19.6-26.3 tiles, average 56.7-59.0, 20-31 "no room" warnings (seeds 1-12: 18.9-34.8, mean
 * 24.5; 18-48 warnings, mean 30.8). Now that square counts a channel of sea around each group
 * and a group's first zone takes the position farthest from the placed zones: seeds 1-12 give a
 * closest pair of 33.7-57.8 tiles (mean 48.0), an average pair of 83.6-109.4 and 18-35 "no room"
 * warnings (mean 26.1), every seed made; seeds 1-5: closest 33.7-57.8, average 83.6-101.2. */
static void test_treasure_islands_start_zones_apart(void **state)
{
    (void)state;
    const char *file = rmg_test_need_shared(TREASURE_ISLANDS);
    size_t no_room_sum = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        rmg_pack *pack = NULL;
        assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
        rmg_map *map = generate_named(ctx, pack, NULL, 0, 0, RMG_WATER_ISLANDS); /* 144x144, 6 players */
        const struct rmg_map *m = map;
        assert_int_equal(m->width, 144);
        double sx[8] = {0}, sy[8] = {0}, n[8] = {0}; /* up to 8 players */
        int zone_start[1024];
        size_t starts = 0;
        assert_true(m->zones.count < RMG_TEST_COUNT(zone_start));
        for (size_t i = 0; i < m->zones.count; i++) {
            rmg_zone_kind k = m->zones.items[i].kind;
            bool start = k == RMG_ZONE_HUMAN_START || k == RMG_ZONE_COMPUTER_START;
            zone_start[i + 1] = start ? (int)starts++ : -1;
        }
        assert_int_equal(starts, 6);
        for (int y = 0; y < m->height; y++)
            for (int x = 0; x < m->width; x++) {
                int s = zone_start[m->tile_zone[(size_t)y * (size_t)m->width + (size_t)x]];
                if (s >= 0) {
                    sx[s] += x;
                    sy[s] += y;
                    n[s] += 1;
                }
            }
        double closest = INFINITY, sum = 0;
        for (size_t a = 0; a < starts; a++)
            for (size_t b = a + 1; b < starts; b++) {
                double d = hypot(sx[a] / n[a] - sx[b] / n[b], sy[a] / n[a] - sy[b] / n[b]);
                closest = fmin(closest, d);
                sum += d;
            }
        size_t no_room = warnings_containing(map, "no room");
        printf("Treasure_Islands seed %llu: closest %.1f, average %.1f tiles, %zu no-room warnings\n",
               (unsigned long long)seed, closest, sum / 15.0, no_room);
        assert_true(closest >= 32.0);
        assert_true(sum / 15.0 >= 80.0);
        assert_true(no_room <= 36);
        no_room_sum += no_room;
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
    printf("Treasure_Islands seeds 1-12: %zu no-room warnings in all\n", no_room_sum);
    assert_true(no_room_sum <= 320); /* 313; 370 before */
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_options_default_to_the_templates_water),
        cmocka_unit_test(test_template_water_choice),
        cmocka_unit_test(test_generate_takes_the_templates_water),
        cmocka_unit_test(test_start_zone_of_an_absent_player_is_neutral),
        cmocka_unit_test(test_sod_drops_rules_naming_hota_objects),
        cmocka_unit_test(test_left_out_survives_a_merge),
        cmocka_unit_test(test_empty_level_is_warned),
        cmocka_unit_test(test_equal_weights_equal_land_on_both_levels),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_jebus_cross_for_sod),
        cmocka_unit_test(test_jebus_cross_below_its_start_zones),
        cmocka_unit_test(test_corpus_owners_agree),
        cmocka_unit_test(test_corpus_for_sod),
        cmocka_unit_test(test_sod_8xm12a_fits_sods_colours),
        cmocka_unit_test(test_sod_8xm12_on_two_levels),
        cmocka_unit_test(test_sod_8xm8_on_two_levels_with_water),
        cmocka_unit_test(test_treasure_islands_start_zones_apart),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
