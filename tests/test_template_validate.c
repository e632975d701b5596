/* Template validation: each message (errors and warnings), with file:line:column and the
 * zone or connection it is about (ZON-17, ZON-29, ZON-32, WAT-05, OBJ-15, PCK-02 filters). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "template/model.h"

/* A valid two-zone template; tests append or replace parts. */
#define HEAD "templates:\n  - name: T\n"
#define TWO_ZONES                                                                                  \
    "    zones:\n"                                                                                 \
    "      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1}}\n"          \
    "      - {id: 2, kind: human_start, owner: 2, size: 1, player_towns: {castles: 1}}\n"
#define LINK "    connections:\n      - {a: 1, b: 2, value: 5000}\n"

typedef struct found {
    size_t errors, count;
    bool hit;
    rmg_message msg;
} found;

/* Validates `yaml` and looks for a message with `code` whose text contains `needle`. */
static found validate(const char *yaml, const char *code, const char *needle)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    if (rmg_pack_load_string(ctx, yaml, strlen(yaml), "v.yaml", RMG_FORMAT_YAML, &p) != RMG_OK)
        fail_msg("load: %s", rmg_context_errmsg(ctx));
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    found f = {rmg_validation_error_count(v), rmg_validation_count(v), false, {0}};
    for (size_t i = 0; i < rmg_validation_count(v) && !f.hit; i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
        assert_int_equal(rmg_validation_get(v, i, &m), RMG_OK);
        if (code && strcmp(m.code, code) == 0 && (!needle || strstr(m.text, needle))) {
            f.hit = true;
            f.msg = m;
            f.msg.text = f.msg.code = f.msg.file = NULL; /* owned by v */
        }
    }
    if (code && !f.hit) {
        for (size_t i = 0; i < rmg_validation_count(v); i++) {
            rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
            rmg_validation_get(v, i, &m);
            print_message("  have: %s [%s]\n", m.text, m.code);
        }
        fail_msg("no '%s' message containing '%s'", code, needle ? needle : "");
    }
    rmg_validation_destroy(v);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
    return f;
}

static void expect(const char *yaml, rmg_severity sev, const char *code, const char *needle)
{
    found f = validate(yaml, code, needle);
    assert_int_equal(f.msg.severity, sev);
}

static void test_valid_template_is_clean(void **state)
{
    (void)state;
    found f = validate(HEAD TWO_ZONES LINK, NULL, NULL);
    assert_int_equal(f.count, 0);
}

static void test_message_carries_location_and_subject(void **state)
{
    (void)state;
    found f = validate(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 9, value: 5000}\n", "dangling-zone",
                       "v.yaml:7:9: error: template 'T', connection 1: connects zone 9, which does not exist");
    assert_int_equal(f.msg.line, 7);
    assert_int_equal(f.msg.column, 9);
    assert_int_equal(f.msg.connection, 0);
    assert_int_equal(f.msg.zone, -1);
    assert_int_equal(f.msg.template_index, 0);
    assert_int_equal(f.errors, 1);
}

static void test_errors(void **state)
{
    (void)state;
    expect("name: empty\n", RMG_SEVERITY_ERROR, "no-templates", "the pack has no templates");
    expect(HEAD "    zones: []\n", RMG_SEVERITY_WARNING, "no-zones", "has no zones: it is never chosen");
    expect(HEAD "    min_size: 9\n    max_size: 4\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "size-range",
           "size range 9..4");
    expect(HEAD "    players: {min_total: 4, max_total: 2}\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "players-range",
           "minimum players 4 exceeds maximum 2");
    expect(HEAD "    players: {max_humans: 9}\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "players-range", "outside 0..8");
    expect(HEAD TWO_ZONES "      - {id: 1, kind: treasure, size: 1}\n" LINK, RMG_SEVERITY_ERROR, "duplicate-zone",
           "zone 1: zone number 1 is used twice (first at line 4)");
    expect(HEAD TWO_ZONES "      - {id: 0, kind: treasure, size: 1}\n" LINK, RMG_SEVERITY_ERROR, "zone-id",
           "zone numbers must be positive");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: -2}\n" LINK, RMG_SEVERITY_ERROR, "zone-size",
           "zone 3: zone size -2 must be a positive number");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: computer_start, owner: 9, size: 1}\n" LINK, RMG_SEVERITY_ERROR,
           "owner-range", "owner 9 is outside 1..8");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_towns: {towns: -1}}\n" LINK,
           RMG_SEVERITY_ERROR, "value-range", "neutral towns is negative");
    /* Size code 4 (L, one level: 108 x 108 tiles) holds fewer than 729 towns of 16 tiles. */
    expect(HEAD "    max_size: 4\n" TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_towns: {towns: 730}}\n"
           LINK, RMG_SEVERITY_ERROR, "value-range", "zone 3: asks for at least 730 towns, more than the largest map");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_towns: {towns: 2147483647, castles: "
           "2147483647}}\n" LINK, RMG_SEVERITY_ERROR, "value-range", "at least 4294967294 towns");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, mines: {gold: {min: -1}}}\n" LINK,
           RMG_SEVERITY_ERROR, "value-range", "gold mine minimum is negative");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, treasure: [{min: 5000, max: 100, density: 1}]}\n"
           LINK, RMG_SEVERITY_ERROR, "treasure-range", "treasure range 1: min 5000 exceeds max 100");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, treasure: [{min: -5, max: 100, density: 1}]}\n"
           LINK, RMG_SEVERITY_ERROR, "treasure-range", "negative");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, monsters: {join_percent: 101}}\n" LINK,
           RMG_SEVERITY_ERROR, "value-range", "join percent 101");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, monsters: {mood: exact, mood_value: 11}}\n" LINK,
           RMG_SEVERITY_ERROR, "value-range", "exact monster mood 11");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, allowed_towns: [neutral]}\n" LINK,
           RMG_SEVERITY_ERROR, "neutral-town", "'neutral' is not a town type");
    expect("allowed_towns: [neutral]\n" HEAD TWO_ZONES LINK, RMG_SEVERITY_ERROR, "neutral-town", "not a town type");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, allowed_factions: [neutral]}\n" LINK,
           RMG_SEVERITY_ERROR, "neutral-faction", "ZON-09");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, allowed_factions: []}\n" LINK,
           RMG_SEVERITY_ERROR, "neutral-faction", "set but empty");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, value: -1}\n", RMG_SEVERITY_ERROR, "value-range",
           "guard value -1 is negative");
    expect("max_battle_rounds: -3\n" HEAD TWO_ZONES LINK, RMG_SEVERITY_ERROR, "value-range", "max battle rounds -3");
    expect(HEAD "    zone_sparseness: -1\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "value-range", "zone sparseness");
    expect(HEAD "    rock_masses: true\n    rock_radius: -1\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "value-range",
           "rock radius");
}

/* Enum values without a name (kept from imports as numbers) are errors. */
static void test_unknown_enum_values(void **state)
{
    (void)state;
    expect(HEAD TWO_ZONES "      - {id: 3, kind: 9, size: 1}\n" LINK, RMG_SEVERITY_ERROR, "value-range",
           "zone 3: unknown zone kind 9");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, monsters: {strength: 7}}\n" LINK,
           RMG_SEVERITY_ERROR, "value-range", "unknown monster strength 7");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, type: 8, value: 1}\n", RMG_SEVERITY_ERROR,
           "value-range", "connection 1: unknown connection type 8");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: 12, zone_a: 1, zone_b: 2}]}\n"
           LINK, RMG_SEVERITY_ERROR, "value-range", "unknown type rule kind 12");
    expect(HEAD "    rules: [{op: forbid, target: 44}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "value-range",
           "unknown rule target 44");
    expect(HEAD "    rules: [{op: 3, target: all}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "value-range",
           "unknown rule operation 3");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, placement: 5}\n" LINK, RMG_SEVERITY_ERROR,
           "value-range", "unknown zone placement 5");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, monsters: {mood: 9}}\n" LINK, RMG_SEVERITY_ERROR,
           "value-range", "unknown monster mood 9");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, value: 1, placement: 6, roads: 4}\n",
           RMG_SEVERITY_ERROR, "value-range", "unknown connection placement 6");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, value: 1, roads: 4}\n", RMG_SEVERITY_ERROR,
           "value-range", "unknown road setting 4");
    expect("mirror: true\n" HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, mirror_links: [{surface: 7,"
           " underground: gate}]}\n" LINK, RMG_SEVERITY_ERROR, "value-range", "unknown teleport kind");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, value: 1, players: {min_humans: 3, max_humans: 2}}\n",
           RMG_SEVERITY_ERROR, "players-range", "connection 1: minimum humans 3 exceeds maximum 2");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, players: {min_total: -1}}\n" LINK,
           RMG_SEVERITY_ERROR, "players-range", "zone 3: player restriction -1 is outside 0..8");
}

/* ZON-10..17: dangling zones in type rules and faction rules about neutral-only zones. */
static void test_type_rule_errors(void **state)
{
    (void)state;
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: town_same, zone_a: 1,"
                          " zone_b: 7}]}\n" LINK,
           RMG_SEVERITY_ERROR, "dangling-zone", "zone 3: type rule names zone 7, which does not exist");
    const char *zon17 = HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_only: true}\n"
                                       "      - {id: 4, kind: treasure, size: 1, type_rules: [{kind: faction_same,"
                                       " zone_a: 4, zone_b: 3}]}\n" LINK;
    expect(zon17, RMG_SEVERITY_ERROR, "neutral-faction-rule", "zone 3, which is neutral only (ZON-17)");
    /* A terrain rule may name a neutral-only zone. */
    found f = validate(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_only: true}\n"
                                      "      - {id: 4, kind: treasure, size: 1, type_rules: [{kind: terrain_same,"
                                      " zone_a: 4, zone_b: 3}]}\n"
                                      "    connections:\n      - {a: 1, b: 2, value: 5000}\n      - {a: 1, b: 3,"
                                      " value: 5000}\n      - {a: 1, b: 4, value: 5000}\n",
                       NULL, NULL);
    assert_int_equal(f.errors, 0);
    /* faction(Z) matches type(T): only the first zone is a faction reference. */
    f = validate(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_only: true}\n"
                                "      - {id: 4, kind: treasure, size: 1, type_rules: [{kind: faction_town,"
                                " zone_a: 4, zone_b: 3}]}\n" LINK,
                 NULL, NULL);
    assert_int_equal(f.errors, 0);
}

static void test_contradictions_and_town_refs(void **state)
{
    (void)state;
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: terrain_same, zone_a: 1,"
                          " zone_b: 2}, {kind: terrain_same, negate: true, zone_a: 2, zone_b: 1}]}\n" LINK,
           RMG_SEVERITY_ERROR, "contradictory-rule", "zone 3: this type rule contradicts the one at line 6 (zone 3)");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: faction_same, negate: true,"
                          " zone_a: 3, zone_b: 3}]}\n" LINK,
           RMG_SEVERITY_ERROR, "contradictory-rule", "differ from itself");
    /* Not symmetric: native(town of 1, terrain of 2) and its negation with the sides swapped agree. */
    found f = validate(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: town_native,"
                                      " zone_a: 1, zone_b: 2}, {kind: town_native, negate: true, zone_a: 2,"
                                      " zone_b: 1}]}\n"
                                      "    connections:\n      - {a: 1, b: 2, value: 5000}\n      - {a: 1, b: 3,"
                                      " value: 1}\n",
                       NULL, NULL);
    assert_int_equal(f.count, 0);
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, type_rules: [{kind: town_same, zone_a: 3,"
                          " zone_b: 1}]}\n" LINK,
           RMG_SEVERITY_WARNING, "town-ref", "names the player towns of zone 3, which has none");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, neutral_towns: {towns: 1}, type_rules:"
                          " [{kind: town_same, zone_a: 3, town_a: 1, zone_b: 1}]}\n" LINK,
           RMG_SEVERITY_WARNING, "town-ref", "names neutral town 1 of zone 3, which has 1 minimum neutral town(s)");
}

static void test_object_rule_errors(void **state)
{
    (void)state;
    expect(HEAD "    rules: [{op: allow, target: custom, family: pandora_gold, amount: 500}]\n" TWO_ZONES LINK,
           RMG_SEVERITY_ERROR, "rule-custom-default", "OBJ-15");
    expect(HEAD "    rules: [{op: allow, target: creature_level, family: creature_dwelling, level: 9}]\n" TWO_ZONES LINK,
           RMG_SEVERITY_ERROR, "rule-target", "creature level 9 is outside 1..7");
    expect(HEAD "    rules: [{op: allow, target: object}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "rule-target",
           "without an object key");
    expect(HEAD "    rules: [{op: forbid, target: family}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "rule-target",
           "without a family");
    expect(HEAD "    rules: [{op: allow, target: creature, family: creature_dwelling}]\n" TWO_ZONES LINK,
           RMG_SEVERITY_ERROR, "rule-target", "without a creature");
    expect(HEAD "    rules: [{op: allow, target: all}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR, "rule-target",
           "only 'forbid' may address all objects");
    expect(HEAD "    rules: [{op: allow, target: object, object: arena, frequency: -4}]\n" TWO_ZONES LINK,
           RMG_SEVERITY_ERROR, "value-range", "a rule parameter is negative (-4)");
    expect(HEAD "    rules: [{op: allow, target: creature, family: creature_dwelling, creature: imp, value: 9}]\n"
           TWO_ZONES LINK, RMG_SEVERITY_WARNING, "rule-value-ignored", "OBJ-06");
    /* Zone rules are checked too, and name their zone. */
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, rules: [{op: allow, target: object}]}\n" LINK,
           RMG_SEVERITY_ERROR, "rule-target", "zone 3: an object rule");
}

/* Rules naming objects, families or creatures the content does not know would do nothing. */
static void test_unknown_rule_names(void **state)
{
    (void)state;
    expect(HEAD "    rules: [{op: allow, target: object, object: arean}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR,
           "rule-unknown", "v.yaml:3:13: error: template 'T': object rule names the unknown object 'arean'");
    expect(HEAD "    rules: [{op: forbid, target: family, family: creature_bnk}]\n" TWO_ZONES LINK, RMG_SEVERITY_ERROR,
           "rule-unknown", "unknown family 'creature_bnk'");
    expect(HEAD "    rules: [{op: allow, target: creature, family: creature_dwelling, creature: pikemen}]\n" TWO_ZONES
           LINK, RMG_SEVERITY_ERROR, "rule-unknown", "unknown creature 'pikemen'");
    /* Group names of RUL-03 are families too. */
    found f = validate(HEAD "    rules: [{op: forbid, target: family, family: pandora}, {op: allow, target: object,"
                            " object: arena}]\n" TWO_ZONES LINK,
                       NULL, NULL);
    assert_int_equal(f.errors, 0);
}

/* TRS-10: totals in a range for which no unlimited object can start a group. The largest
 * unlimited fixed-value object is worth 20000 (relic artifact), so 80001.. starves; below
 * 500 only water objects and value-100 objects with caps exist. */
static void test_trs10_starvation(void **state)
{
    (void)state;
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1},"
                " treasure: [{min: 100, max: 90000, density: 2}]}\n",
           RMG_SEVERITY_WARNING, "treasure-starved",
           "zone 1: treasure range 1 (100..90000): no object can start a group worth 80001..90000 (TRS-10)");
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1},"
                " treasure: [{min: 100, max: 90000, density: 2}]}\n",
           RMG_SEVERITY_WARNING, "treasure-starved", "worth 100..499 (TRS-10)");
    /* Zone rules that empty the list starve the whole range. */
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1},"
                " treasure: [{}, {min: 3000, max: 6000, density: 4}], rules: [{op: forbid, target: all}]}\n",
           RMG_SEVERITY_WARNING, "treasure-starved", "treasure range 2 (3000..6000): no object can start a group worth "
                                                     "3000..6000");
    /* A range without density is never generated, so it cannot starve. */
    found f = validate(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles:"
                            " 1}, treasure: [{min: 100, max: 90000, density: 0}]}\n",
                       NULL, NULL);
    assert_int_equal(f.count, 0);
}

/* TRS-03/TRS-11: densities adding up to more than 640 / 20 = 32 ask for fewer than 20 tiles per
 * group at every size; 32 itself (20 tiles) is fine. */
static void test_trs11_crowded_zone(void **state)
{
    (void)state;
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1},"
                " treasure: [{min: 100, max: 3000, density: 20}, {min: 3000, max: 6000, density: 20}]}\n",
           RMG_SEVERITY_WARNING, "treasure-crowded",
           "zone 1: treasure densities add up to 40: one group per 16.0 tiles of the zone is asked");
    found f = validate(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles:"
                            " 1}, treasure: [{min: 500, max: 3000, density: 16}, {min: 3000, max: 6000, density: 16}]}\n",
                       NULL, NULL);
    assert_int_equal(f.count, 0);
}

/* ZON-29/32, WAT-05: mirror links only in mirror packs, on surface zones, same widths. */
static void test_mirror_checks(void **state)
{
    (void)state;
    const char *link = "      - {id: 3, kind: treasure, size: 1, mirror_links: [{surface: two_way, underground: gate,"
                       " value: 1000}]}\n";
    char buf[2048];
    snprintf(buf, sizeof buf, "%s%s%s%s", HEAD, TWO_ZONES, link, LINK);
    expect(buf, RMG_SEVERITY_WARNING, "mirror-not-mirror",
           "zone 3: mirror links (connection rows with Zone 2 = -1) in a pack that is not a mirror pack are ignored");
    snprintf(buf, sizeof buf, "mirror: true\n%s%s%s%s", HEAD, TWO_ZONES, link, LINK);
    expect(buf, RMG_SEVERITY_WARNING, "mirror-width", "differ in width (ZON-32)");
    snprintf(buf, sizeof buf, "mirror: true\n%s%s%s%s", HEAD, TWO_ZONES,
             "      - {id: 3, kind: treasure, size: 1, placement: underground, mirror_links: [{surface: gate,"
             " underground: gate}]}\n",
             LINK);
    expect(buf, RMG_SEVERITY_ERROR, "mirror-underground", "surface zones (ZON-29)");
    expect("mirror: true\n" HEAD TWO_ZONES LINK, RMG_SEVERITY_WARNING, "mirror-no-links", "WAT-05");
}

static void test_warnings(void **state)
{
    (void)state;
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1}\n" LINK, RMG_SEVERITY_WARNING, "unreachable",
           "v.yaml:6:9: warning: template 'T', zone 3: no real connection path leads here from zone 1");
    /* A fictive connection does not make a zone reachable. */
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1}\n"
                          "    connections:\n      - {a: 1, b: 2, value: 5000}\n      - {a: 2, b: 3, type: fictive}\n",
           RMG_SEVERITY_WARNING, "unreachable", "zone 3");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 0, b: 0, value: 0}\n      - {a: 1, b: 2, value: 5000}\n",
           RMG_SEVERITY_WARNING, "placeholder", "connection 1: a connection between zones 0 and 0");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 1, value: 0}\n      - {a: 1, b: 2, value: 5000}\n",
           RMG_SEVERITY_WARNING, "self-connection", "connects zone 1 with itself");
    expect(HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 2, type: border_guard, value: 5000}\n",
           RMG_SEVERITY_WARNING, "border-guard", "CON-05");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, max_block_value: 5000}\n"
                          "    connections:\n      - {a: 1, b: 2, value: 5000}\n      - {a: 2, b: 3, value: 1}\n",
           RMG_SEVERITY_WARNING, "unsupported", "'max block value' (5000) is kept but not acted on");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: 1, raw: {min_objects: '4'}}\n"
                          "    connections:\n      - {a: 1, b: 2, value: 5000}\n      - {a: 2, b: 3, value: 1}\n",
           RMG_SEVERITY_WARNING, "unsupported", "'minimum objects' (4)");
    expect(HEAD "    zones:\n      - {id: 1, kind: treasure, size: 1}\n", RMG_SEVERITY_WARNING, "no-start-zone",
           "no player can start");
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1}\n", RMG_SEVERITY_WARNING,
           "no-player-town", "without a player town");
    expect(HEAD "    zones:\n      - {id: 1, kind: treasure, owner: 3, size: 1}\n", RMG_SEVERITY_WARNING, "owner-range",
           "owner 3 is ignored");
    expect(HEAD TWO_ZONES "      - {id: 3, kind: computer_start, size: 1}\n" LINK, RMG_SEVERITY_WARNING, "owner-range",
           "a start zone without an owner hosts no player");
    expect(HEAD "    zones:\n      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {towns: 1},"
           " treasure: [{min: 0, max: 0, density: 3}]}\n",
           RMG_SEVERITY_WARNING, "treasure-range", "a density but no value");
    expect("templates:\n  - min_size: 1\n" TWO_ZONES LINK, RMG_SEVERITY_WARNING, "template-name", "has no name");
}

/* Load warnings (kept, not acted on) are part of the report. */
static void test_pack_warnings_are_reported(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    const char *yaml = HEAD TWO_ZONES LINK;
    assert_int_equal(rmg_pack_load_string(ctx, yaml, strlen(yaml), "w.yaml", RMG_FORMAT_YAML, &p), RMG_OK);
    assert_int_equal(rmg__pack_warn(p, "setting %s kept", "X"), RMG_OK);
    assert_int_equal(rmg_pack_warning_count(p), 1);
    assert_string_equal(rmg_pack_warning(p, 0), "setting X kept");
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    assert_int_equal(rmg_validation_count(v), 1);
    rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
    assert_int_equal(rmg_validation_get(v, 0, &m), RMG_OK);
    assert_string_equal(m.code, "load");
    assert_string_equal(m.text, "w.yaml: warning: setting X kept");
    assert_int_equal(rmg_validation_get(v, 1, &m), RMG_ERR_NOT_FOUND);
    rmg_validation_destroy(v);
    rmg_validation_destroy(NULL);
    assert_int_equal(rmg_pack_validate(NULL, &v), RMG_ERR_INVALID_ARG);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* Tab-separated formats report rows and columns. */
static void test_h3t_locations_are_rows(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    const char *yaml = HEAD TWO_ZONES "    connections:\n      - {a: 1, b: 5, value: 5000}\n";
    assert_int_equal(rmg_pack_load_string(ctx, yaml, strlen(yaml), "x.h3t", RMG_FORMAT_YAML, &p), RMG_OK);
    p->format = RMG_FORMAT_H3T;
    p->templates[0].connections[0].loc = (rmg__srcloc){6, 116};
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
    assert_int_equal(rmg_validation_get(v, 0, &m), RMG_OK);
    assert_string_equal(m.text, "x.h3t:6:116: error: template 'T', connection 1: connects zone 5, which "
                                "does not exist");
    rmg_validation_destroy(v);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* Validation is near-linear: a template with 50 000 zones, connections and type rules is
 * checked in well under a second (sorted zone index, union-find, sorted rule keys). */
static void test_large_template_is_fast(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_create(ctx, "large", &p), RMG_OK);
    rmg__template *t = rmg__pack_add_template(p);
    assert_non_null(t);
    t->name = (char *)(uintptr_t)"L";
    const int n = 50000;
    for (int i = 1; i <= n; i++) {
        rmg__zone *z = rmg__template_add_zone(p, t);
        assert_non_null(z);
        z->id = n + 1 - i; /* descending, so lookups cannot rely on order */
        rmg__connection *c = rmg__template_add_connection(p, t);
        assert_non_null(c);
        c->zone_a = i;
        c->zone_b = i % n + 1;
    }
    for (int i = 0; i < n; i++) {
        rmg__zone *z = &t->zones[i];
        rmg__type_rule *r = rmg__arena_grow(&p->arena, (void **)&z->type_rules, &z->n_type_rules, sizeof *r);
        assert_non_null(r);
        r->kind = RMG_TYPE_RULE_TERRAIN_SAME;
        r->zone_a = z->id;
        r->zone_b = z->id % n + 1;
        r->negate = i == n - 1; /* the last contradicts nothing: different subjects */
    }
    clock_t start = clock();
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    double ms = 1000.0 * (double)(clock() - start) / CLOCKS_PER_SEC;
    print_message("validated %d zones, connections and type rules in %.0f ms\n", n, ms);
    assert_int_equal(rmg_validation_error_count(v), 0);
    assert_true(ms < 5000);
    rmg_validation_destroy(v);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static rmg_status op_validate(rmg_context *ctx, void *user)
{
    (void)user;
    const char *yaml = HEAD TWO_ZONES "      - {id: 3, kind: treasure, size: -1}\n"
                                      "    connections:\n      - {a: 1, b: 9, value: 5000}\n";
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, yaml, strlen(yaml), "o.yaml", RMG_FORMAT_YAML, &p);
    rmg_validation *v = NULL;
    if (st == RMG_OK)
        st = rmg_pack_validate(p, &v);
    if (st == RMG_OK)
        assert_true(rmg_validation_error_count(v) >= 2);
    rmg_validation_destroy(v);
    rmg_pack_destroy(p);
    return st;
}

static void test_oom_validate(void **state)
{
    (void)state;
    assert_true(rmg_test_oom_sweep(op_validate, NULL, 0, 1) >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_template_is_clean),
        cmocka_unit_test(test_message_carries_location_and_subject),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_unknown_enum_values),
        cmocka_unit_test(test_type_rule_errors),
        cmocka_unit_test(test_contradictions_and_town_refs),
        cmocka_unit_test(test_object_rule_errors),
        cmocka_unit_test(test_unknown_rule_names),
        cmocka_unit_test(test_trs10_starvation),
        cmocka_unit_test(test_trs11_crowded_zone),
        cmocka_unit_test(test_mirror_checks),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_pack_warnings_are_reported),
        cmocka_unit_test(test_h3t_locations_are_rows),
        cmocka_unit_test(test_large_template_is_fast),
        cmocka_unit_test(test_oom_validate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
