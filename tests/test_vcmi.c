/* VCMI JSON template importer (lib/template/vcmi_*.c): every field's mapping to the model
 * (docs/vcmi-import.md), *LikeZone chains, town hints, customObjects, the warnings for what has
 * no HotA equivalent, and the corpus (../shared/corpus/vcmi): every file loads, passes the
 * check and round-trips through YAML; whole-corpus load time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmg_test.h"
#include "template/model.h"

static const char rich[] =
    "// a comment, as in VCMI files\n"
    "{\n"
    "  \"Rich\" : {\n"
    "    \"name\" : \"Rich Template\",\n"
    "    \"description\" : \"All the fields\",\n"
    "    \"minSize\" : \"m\", \"maxSize\" : \"xl+u\",\n"
    "    \"players\" : \"2-4\", \"humans\" : \"1-2\",\n"
    "    \"allowedWaterContent\" : [\"none\", \"islands\"],\n"
    "    \"bannedSpells\" : [\"townPortal\", \"core:dimensionDoor\"],\n"
    "    \"enabledArtifacts\" : [\"armageddonsBlade\"],\n"
    "    \"bannedSkills\" : [\"eagleEye\"],\n"
    "    \"bannedHeroes\" : [\"orrin\", \"nobodyAtAll\"],\n"
    "    \"settings\" : { \"heroes\" : { \"perPlayerOnMapCap\" : 1 } },\n"
    "    \"zones\" : {\n"
    "      \"1\" : { \"type\" : \"playerStart\", \"size\" : 20, \"owner\" : 1,\n"
    "               \"playerTowns\" : { \"castles\" : 1, \"towns\" : 2, \"townDensity\" : 3, \"castleDensity\" : 4 },\n"
    "               \"neutralTowns\" : { \"towns\" : 1 }, \"townsAreSameType\" : true,\n"
    "               \"allowedTowns\" : [\"castle\", \"rampart\", \"tower\"], \"bannedTowns\" : [\"tower\"],\n"
    "               \"terrainTypes\" : [\"grass\", \"subterra\"], \"matchTerrainToTown\" : false,\n"
    "               \"monsters\" : \"strong\", \"allowedMonsters\" : [\"neutral\", \"castle\"],\n"
    "               \"mines\" : { \"wood\" : 2, \"ore\" : 1, \"gold\" : 1 },\n"
    "               \"treasure\" : [ { \"min\" : 500, \"max\" : 3000, \"density\" : 9 },\n"
    "                              { \"min\" : 3000, \"max\" : 6000, \"density\" : 6 },\n"
    "                              { \"min\" : 10000, \"max\" : 15000, \"density\" : 1 }, ],\n"
    "               \"forcedLevel\" : \"surface\", \"visiblePositionX\" : 3,\n"
    "               \"customObjects\" : { \"bannedCategories\" : [\"pandorasBox\", \"bonus\"],\n"
    "                                   \"bannedObjects\" : { \"windmill\" : true, \"arena\" : false,\n"
    "                                                       \"creatureBank\" : { \"dragonUtopia\" : true } },\n"
    "                                   \"commonObjects\" : [ { \"type\" : \"creatureBank\", \"subtype\" : \"crypt\",\n"
    "                                       \"rmg\" : { \"value\" : 2500, \"rarity\" : 75, \"zoneLimit\" : 2 } } ],\n"
    "                                   \"requiredObjects\" : { \"windmill\" : 1 } } },\n"
    "      \"2\" : { \"type\" : \"cpuStart\", \"size\" : 20, \"owner\" : 2, \"playerTowns\" : { \"castles\" : 1 },\n"
    "               \"minesLikeZone\" : 1, \"treasureLikeZone\" : 3, \"terrainTypeLikeZone\" : 1,\n"
    "               \"bannedMonsters\" : [\"neutral\"], \"customObjectsLikeZone\" : 1,\n"
    "               \"townHints\" : [ { \"likeZone\" : 1 }, { \"notLikeZone\" : [3, 4] },\n"
    "                               { \"relatedToZoneTerrain\" : 3 } ] },\n"
    "      \"3\" : { \"type\" : \"treasure\", \"size\" : 10.5, \"monsters\" : \"none\", \"treasureLikeZone\" : 4,\n"
    "               \"neutralTowns\" : { \"castles\" : 1 }, \"level\" : \"underground\",\n"
    "               \"terrainTypes\" : [\"lava\", \"dirt\"], \"bannedTerrains\" : [\"lava\"] },\n"
    "      \"4\" : { \"type\" : \"junction\", \"size\" : 5, \"monsters\" : \"weak\",\n"
    "               \"treasure\" : [ { \"min\" : 100, \"max\" : 200, \"density\" : 3 } ],\n"
    "               \"bannedTerrains\" : [\"lava\", \"snow\"] }\n"
    "    },\n"
    "    \"connections\" : [\n"
    "      { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : 5000 },\n"
    "      { \"a\" : 1, \"b\" : \"3\", \"type\" : \"wide\", \"road\" : \"false\" },\n"
    "      { \"a\" : \"2\", \"b\" : \"3\", \"type\" : \"fictive\", \"road\" : \"random\" },\n"
    "      { \"a\" : \"3\", \"b\" : \"4\", \"type\" : \"forcePortal\", \"guard\" : 100, \"road\" : \"true\" },\n"
    "      { \"a\" : \"1\", \"b\" : \"4\", \"type\" : \"repulsive\" },\n"
    "      { \"a\" : \"2\", \"b\" : \"4\", \"type\" : \"guarded\", \"guard\" : 0 }\n"
    "    ]\n"
    "  },\n"
    "  \"Second\" : { \"minSize\" : \"s\", \"maxSize\" : \"120x120x2\", \"players\" : \"1,3-5\",\n"
    "    \"description\" : \"small\", \"enabledHeroes\" : [\"valeska\"],\n"
    "    \"zones\" : { \"1\" : { \"type\" : \"playerStart\", \"owner\" : 1, \"playerTowns\" : { \"castles\" : 1 } },\n"
    "                \"2\" : { \"type\" : \"water\" }, \"3\" : { \"type\" : \"sealed\", \"size\" : 2 } },\n"
    "    \"connections\" : [ { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : 1000, \"road\" : true } ] }\n"
    "}\n";

static rmg_pack *load(rmg_context *ctx, const char *text)
{
    rmg_pack *p = NULL;
    rmg_status st = rmg_pack_load_string(ctx, text, strlen(text), "dir/rich.json", RMG_FORMAT_AUTO, &p);
    if (st != RMG_OK)
        fail_msg("load failed: %s", rmg_context_errmsg(ctx));
    return p;
}

static const rmg__zone *zone(const rmg__template *t, int id)
{
    long i = rmg__template_find_zone(t, id);
    assert_true(i >= 0);
    return &t->zones[i];
}

static bool has_warning(const rmg_pack *p, const char *needle)
{
    for (size_t i = 0; i < p->n_warnings; i++)
        if (strstr(p->warnings[i], needle))
            return true;
    return false;
}

static uint32_t bit(int id)
{
    return 1u << id;
}

/* Content ids used below (content/factions.yaml, terrains.yaml). */
enum { DIRT = 0, CASTLE = 0, RAMPART = 1, GRASS = 2, SNOW = 3, SUBTERRANEAN = 6, LAVA = 7, NEUTRAL = 31 };

static void test_template_level_fields(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    assert_int_equal(p->format, RMG_FORMAT_VCMI);
    assert_string_equal(p->name, "rich");
    assert_string_equal(p->file, "dir/rich.json");
    assert_string_equal(p->description, "Rich Template: All the fields\nSecond: small");
    assert_int_equal(p->n_templates, 2);
    const rmg__template *t = &p->templates[0];
    assert_string_equal(t->name, "Rich Template");
    assert_int_equal(t->loc.line, 3);
    /* PCK-02 size codes: m = 4, xl+u = 16 x 2; WxHxD uses whole 36-tile blocks. */
    assert_int_equal(t->min_size, 4);
    assert_int_equal(t->max_size, 32);
    assert_int_equal(p->templates[1].min_size, 1);
    assert_int_equal(p->templates[1].max_size, 18);
    assert_int_equal(t->players.min_total, 2);
    assert_int_equal(t->players.max_total, 4);
    assert_int_equal(t->players.min_human, 1);
    assert_int_equal(t->players.max_human, 2);
    assert_int_equal(p->templates[1].players.min_total, 1);
    assert_int_equal(p->templates[1].players.max_total, 5);
    assert_true(has_warning(p, "'players' = '1,3-5' has gaps: read as 1-5"));
    assert_int_equal(t->water_allowed, (1u << RMG_WATER_NONE) | (1u << RMG_WATER_ISLANDS));
    /* Item lists: spells 8 and 9 banned, artifact 128 allowed, skill 11 banned; heroes are a pack list. */
    assert_int_equal(t->spells.count, 2);
    assert_true(t->spells.items[0].id == 9 && !t->spells.items[0].allow);
    assert_true(t->spells.items[1].id == 8 && !t->spells.items[1].allow);
    assert_true(t->artifacts.count == 1 && t->artifacts.items[0].id == 128 && t->artifacts.items[0].allow);
    assert_true(t->skills.count == 1 && t->skills.items[0].id == 11 && !t->skills.items[0].allow);
    assert_int_equal(p->heroes.count, 2);
    assert_true(p->heroes.items[0].id == 0 && !p->heroes.items[0].allow);
    assert_true(p->heroes.items[1].id == 1 && p->heroes.items[1].allow);
    assert_true(has_warning(p, "'bannedHeroes' names 'nobodyAtAll', which the game data does not know"));
    assert_true(has_warning(p, "'enabledHeroes' joins the hero list of template 'Rich Template'"));
    assert_true(has_warning(p, "'settings' (game settings overridden by the template) has no HotA"));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_zone_fields(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    const rmg__template *t = &p->templates[0];
    assert_int_equal(t->n_zones, 4);
    const rmg__zone *z1 = zone(t, 1);
    assert_int_equal(z1->kind, RMG_ZONE_HUMAN_START);
    assert_true(z1->size == 20.0);
    assert_int_equal(z1->owner, 1);
    assert_int_equal(z1->player_castles, 1);
    assert_int_equal(z1->player_towns, 2);
    assert_int_equal(z1->player_town_density, 3);
    assert_int_equal(z1->player_castle_density, 4);
    assert_int_equal(z1->neutral_towns, 1);
    assert_true(z1->towns_same_type);
    assert_int_equal(z1->allowed_towns, bit(CASTLE) | bit(RAMPART));     /* tower allowed, then banned */
    assert_int_equal(z1->allowed_terrains, bit(GRASS) | bit(SUBTERRANEAN));
    assert_false(z1->terrain_match_town);
    assert_int_equal(z1->monster_strength, RMG_MONSTERS_STRONG);
    assert_int_equal(z1->monster_factions, bit(NEUTRAL) | bit(CASTLE));
    assert_int_equal(z1->mines_min[RMG_RESOURCE_WOOD], 2);
    assert_int_equal(z1->mines_min[RMG_RESOURCE_ORE], 1);
    assert_int_equal(z1->mines_min[RMG_RESOURCE_GOLD], 1);
    assert_int_equal(z1->mines_min[RMG_RESOURCE_MERCURY], 0);
    assert_true(z1->treasure[0].min == 500 && z1->treasure[0].max == 3000 && z1->treasure[0].density == 9);
    assert_true(z1->treasure[2].min == 10000 && z1->treasure[2].density == 1);
    assert_int_equal(z1->placement, RMG_PLACEMENT_SURFACE);
    assert_true(has_warning(p, "zone 1: 'visiblePositionX' (template editor layout) has no HotA equivalent"));

    const rmg__zone *z2 = zone(t, 2);
    assert_int_equal(z2->kind, RMG_ZONE_COMPUTER_START);
    assert_true(z2->terrain_match_town);                 /* VCMI default */
    assert_int_equal(z2->monster_strength, RMG_MONSTERS_MEDIUM);   /* "normal" by default */
    assert_int_equal(z2->monster_factions, 0x7FFu);   /* the 11 HotA town factions, no neutrals */

    const rmg__zone *z3 = zone(t, 3);
    assert_int_equal(z3->kind, RMG_ZONE_TREASURE);
    assert_true(z3->size == 10.5);
    assert_int_equal(z3->monster_strength, RMG_MONSTERS_NONE);
    assert_int_equal(z3->placement, RMG_PLACEMENT_UNDERGROUND);
    assert_int_equal(z3->neutral_castles, 1);
    const rmg__zone *z4 = zone(t, 4);
    assert_int_equal(z4->kind, RMG_ZONE_JUNCTION);
    assert_int_equal(z4->monster_strength, RMG_MONSTERS_WEAK);
    /* Only bans: every land terrain but lava and snow. */
    assert_int_equal(z4->allowed_terrains & (bit(LAVA) | bit(SNOW)), 0);
    assert_true(z4->allowed_terrains & bit(GRASS));

    const rmg__template *t2 = &p->templates[1];
    assert_int_equal(zone(t2, 2)->kind, RMG_ZONE_WATER);
    assert_int_equal(zone(t2, 3)->kind, RMG_ZONE_ROCK);
    assert_true(has_warning(p, "a 'water' zone is kept as a water zone"));
    assert_true(has_warning(p, "a 'sealed' zone (filled with obstacles) is read as a rock zone"));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_like_zone_references(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    const rmg__template *t = &p->templates[0];
    const rmg__zone *z1 = zone(t, 1), *z2 = zone(t, 2), *z3 = zone(t, 3), *z4 = zone(t, 4);
    assert_memory_equal(z2->mines_min, z1->mines_min, sizeof z1->mines_min);
    /* 2 -> 3 -> 4: the chain ends at zone 4's own treasure. */
    assert_memory_equal(z2->treasure, z4->treasure, sizeof z4->treasure);
    assert_memory_equal(z3->treasure, z4->treasure, sizeof z4->treasure);
    assert_true(z2->treasure[0].min == 100 && z2->treasure[1].density == 0);
    assert_int_equal(z2->allowed_terrains, z1->allowed_terrains);
    /* customObjectsLikeZone copies zone 1's rules. */
    assert_int_equal(z2->rules.count, z1->rules.count);
    assert_string_equal(z2->rules.items[0].raw, z1->rules.items[0].raw);
    /* Without a reference a zone keeps its own lists: lava and dirt, lava banned. */
    assert_int_equal(z3->allowed_terrains, bit(DIRT));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_town_hints_become_type_rules(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    const rmg__zone *z2 = zone(&p->templates[0], 2);
    assert_int_equal(z2->n_type_rules, 4);
    const rmg__type_rule *r = z2->type_rules;
    /* likeZone 1: type(player towns of 2) == type(player towns of 1) (ZON-10). */
    assert_true(r[0].kind == RMG_TYPE_RULE_TOWN_SAME && !r[0].negate && r[0].zone_a == 2 && r[0].town_a == -1 &&
                r[0].zone_b == 1 && r[0].town_b == -1);
    /* notLikeZone [3, 4]: zone 3's main town is its first neutral town; zone 4 has none. */
    assert_true(r[1].kind == RMG_TYPE_RULE_TOWN_SAME && r[1].negate && r[1].zone_b == 3 && r[1].town_b == 0);
    assert_true(r[2].negate && r[2].zone_b == 4 && r[2].town_b == -1);
    /* relatedToZoneTerrain 3: type(towns of 2) native to terrain(3) (ZON-11). */
    assert_true(r[3].kind == RMG_TYPE_RULE_TOWN_NATIVE && !r[3].negate && r[3].zone_b == 3);
    assert_string_equal(r[3].raw, "townHints relatedToZoneTerrain 3");
    assert_true(r[3].loc.line > 0 && r[3].loc.column > 0);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static const rmg__rule *find_rule(const rmg__zone *z, rmg_rule_op op, const char *object, const char *family)
{
    for (size_t i = 0; i < z->rules.count; i++) {
        const rmg__rule *r = &z->rules.items[i];
        if (r->op == op && (object ? r->object && strcmp(r->object, object) == 0 : !r->object) &&
            (family ? r->family && strcmp(r->family, family) == 0 : !r->family))
            return r;
    }
    return NULL;
}

static void test_custom_objects_become_rules(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    const rmg__zone *z1 = zone(&p->templates[0], 1);
    /* pandorasBox: the four Pandora families; windmill and the Dragon Utopia bank by object. */
    assert_non_null(find_rule(z1, RMG_RULE_FORBID, NULL, "pandora_gold"));
    assert_non_null(find_rule(z1, RMG_RULE_FORBID, NULL, "pandora_spells"));
    assert_non_null(find_rule(z1, RMG_RULE_FORBID, "windmill", NULL));
    assert_non_null(find_rule(z1, RMG_RULE_FORBID, "dragon_utopia", NULL));
    assert_null(find_rule(z1, RMG_RULE_FORBID, "arena", NULL));   /* false = not banned */
    const rmg__rule *crypt = find_rule(z1, RMG_RULE_ALLOW, "crypt", NULL);
    assert_non_null(crypt);
    assert_int_equal(crypt->target, RMG_TARGET_OBJECT);
    assert_int_equal(crypt->value, 2500);
    assert_int_equal(crypt->frequency, 75);
    assert_int_equal(crypt->max_zone, 2);
    assert_true(crypt->max_map == RMG__PARAM_DEFAULT);
    assert_string_equal(crypt->raw, "customObjects commonObjects creatureBank.crypt");
    assert_int_equal(z1->rules.count, 7);
    assert_true(has_warning(p, "banned category 'bonus' has no matching HotA object family"));
    assert_true(has_warning(p, "'requiredObjects' (objects the zone must contain) has no HotA equivalent"));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_connections(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    const rmg__template *t = &p->templates[0];
    /* The repulsive one is not imported (warned): five remain, in file order. */
    assert_int_equal(t->n_connections, 5);
    const rmg__connection *c = t->connections;
    assert_true(c[0].zone_a == 1 && c[0].zone_b == 2 && c[0].value == 5000);
    assert_int_equal(c[0].type, RMG_CONNECTION_STANDARD);
    assert_int_equal(c[0].roads, RMG_ROAD_MANDATORY);   /* VCMI: a road unless told otherwise */
    assert_true(c[1].type == RMG_CONNECTION_WIDE && c[1].roads == RMG_ROAD_FORBIDDEN && c[1].zone_a == 1);
    assert_true(c[2].type == RMG_CONNECTION_FICTIVE && c[2].roads == RMG_ROAD_RANDOM);
    assert_true(c[3].placement == RMG_LINK_MONOLITH && c[3].value == 100 && c[3].roads == RMG_ROAD_MANDATORY);
    assert_true(c[4].type == RMG_CONNECTION_STANDARD && c[4].zone_a == 2 && c[4].zone_b == 4);
    assert_true(c[0].loc.line > 0);
    assert_true(has_warning(p, "connection 5: 'repulsive' connections have no HotA equivalent: not imported"));
    assert_int_equal(p->templates[1].connections[0].roads, RMG_ROAD_MANDATORY);   /* JSON true */
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* townsLikeZone copies counts, densities and the same-type flag; the zone's own towns give way
 * (warned). Unknown keys at every level are warnings, never silently dropped. */
static void test_towns_like_zone_and_unknown_keys(void **state)
{
    (void)state;
    static const char text[] =
        "{ \"T\" : { \"minSize\" : \"s\", \"maxSize\" : \"s\", \"players\" : \"2\", \"author\" : \"me\",\n"
        "  \"zones\" : {\n"
        "    \"1\" : { \"type\" : \"treasure\", \"neutralTowns\" : { \"towns\" : 2, \"castleDensity\" : 5, \"huts\" : 1 },\n"
        "            \"townsAreSameType\" : true, \"mines\" : { \"mithril\" : 1 }, \"colour\" : \"red\" },\n"
        "    \"2\" : { \"type\" : \"treasure\", \"townsLikeZone\" : 1, \"playerTowns\" : { \"towns\" : 1 },\n"
        "            \"monstersLikeZone\" : 1, \"treasure\" : [ { \"min\" : 1, \"max\" : 2, \"density\" : 1, \"x\" : 0 } ] } },\n"
        "  \"connections\" : [ { \"a\" : \"1\", \"b\" : \"2\", \"guard\" : 0, \"colour\" : 3 } ] } }";
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, text);
    const rmg__template *t = &p->templates[0];
    const rmg__zone *z2 = zone(t, 2);
    assert_int_equal(z2->neutral_towns, 2);
    assert_int_equal(z2->neutral_castle_density, 5);
    assert_int_equal(z2->player_towns, 0);   /* replaced by zone 1's (none) */
    assert_true(z2->towns_same_type);
    static const char *const expected[] = {
        "unknown key 'author' in the template ignored",
        "zone 1: unknown key 'huts' in 'neutralTowns' ignored",
        "zone 1: mines of 'mithril': not a HotA resource, ignored",
        "zone 1: unknown key 'colour' in the zone ignored",
        "zone 2: unknown key 'monstersLikeZone' in the zone ignored",
        "zone 2: unknown key 'x' in a treasure range ignored",
        "zone 2: the zone's own settings are replaced by 'townsLikeZone' (as in VCMI)",
        "unknown key 'colour' in connection 1 ignored",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!has_warning(p, expected[i]))
            fail_msg("missing warning: %s", expected[i]);
    assert_int_equal(p->n_warnings, sizeof expected / sizeof expected[0]);
    /* Warnings carry the place: "line L, column C: template 'T': ...". */
    assert_non_null(strstr(p->warnings[0], "line 1, column 62: template 'T': unknown key 'author'"));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* The rich file is a valid template pack, and YAML keeps every setting. */
static void test_rich_round_trip(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load(ctx, rich);
    char *yaml = NULL;
    assert_int_equal(rmg_pack_to_yaml(p, &yaml, NULL), RMG_OK);
    rmg_pack *q = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, yaml, strlen(yaml), "rich.yaml", RMG_FORMAT_YAML, &q), RMG_OK);
    char why[256];
    if (!rmg__pack_equal(p, q, why, sizeof why))
        fail_msg("round trip differs at %s", why);
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
        assert_int_equal(rmg_validation_get(v, i, &m), RMG_OK);
        if (m.severity == RMG_SEVERITY_ERROR)
            fail_msg("unexpected validation error: %s", m.text);
    }
    rmg_validation_destroy(v);
    rmg_free(ctx, yaml);
    rmg_pack_destroy(q);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* ---- corpus ------------------------------------------------------------------------------------- */

typedef struct corpus_tally {
    size_t files, templates, zones, connections, errors, warnings, load_warnings;
} corpus_tally;

static void check_corpus_pack(rmg_context *ctx, const char *path, rmg_pack *p, corpus_tally *t)
{
    t->templates += p->n_templates;
    t->load_warnings += p->n_warnings;
    for (size_t i = 0; i < p->n_templates; i++) {
        t->zones += p->templates[i].n_zones;
        t->connections += p->templates[i].n_connections;
    }
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    size_t errors = rmg_validation_error_count(v);
    t->errors += errors;
    t->warnings += rmg_validation_count(v) - errors;
    rmg_validation_destroy(v);
    char *yaml = NULL;
    assert_int_equal(rmg_pack_to_yaml(p, &yaml, NULL), RMG_OK);
    rmg_pack *q = NULL;
    if (rmg_pack_load_string(ctx, yaml, strlen(yaml), path, RMG_FORMAT_YAML, &q) != RMG_OK)
        fail_msg("%s: its YAML does not load: %s", path, rmg_context_errmsg(ctx));
    char why[256];
    if (!rmg__pack_equal(p, q, why, sizeof why))
        fail_msg("%s: YAML round trip differs at %s", path, why);
    rmg_free(ctx, yaml);
    rmg_pack_destroy(q);
}

/* Issue 4 acceptance for VCMI: 80 files, 90 templates; all load, none has a check error. */
static void test_corpus_loads_checks_and_round_trips(void **state)
{
    (void)state;
    char **files = rmg_test_list_files(rmg_test_shared("corpus/vcmi"), ".json");
    assert_non_null(files);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    corpus_tally t = {0};
    for (size_t i = 0; files[i]; i++) {
        rmg_pack *p = NULL;
        if (rmg_pack_load(ctx, files[i], RMG_FORMAT_AUTO, &p) != RMG_OK)
            fail_msg("%s does not load: %s", files[i], rmg_context_errmsg(ctx));
        assert_int_equal(p->format, RMG_FORMAT_VCMI);
        t.files++;
        check_corpus_pack(ctx, files[i], p, &t);
        rmg_pack_destroy(p);
    }
    print_message("vcmi corpus: %zu files, %zu templates, %zu zones, %zu connections; load warnings %zu; "
                  "check: %zu errors, %zu warnings\n", t.files, t.templates, t.zones, t.connections,
                  t.load_warnings, t.errors, t.warnings);
    assert_int_equal(t.files, 80);
    assert_int_equal(t.templates, 90);
    assert_int_equal(t.zones, 1099);
    assert_int_equal(t.connections, 1531);
    assert_int_equal(t.errors, 0);
    /* Reported while loading: 'neutral' in allowedTowns (two files) and worldsAtWar.json asking
     * for 3 humans among 2 players. */
    assert_int_equal(t.load_warnings, 3);
    rmg_context_destroy(ctx);
    rmg_test_free_list(files);
}

/* Spot checks against the files: Clash of Dragons and a *LikeZone chain of 2SM4d(3). */
static void test_corpus_spot_checks(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_load(ctx, rmg_test_shared("corpus/vcmi/hdmod/clashOfDragons.json"), RMG_FORMAT_AUTO, &p),
                     RMG_OK);
    const rmg__template *t = &p->templates[0];
    assert_string_equal(t->name, "Clash of Dragons");
    assert_int_equal(t->min_size, 18);   /* l+u */
    assert_int_equal(t->max_size, 98);   /* g+u */
    assert_true(t->players.min_total == 2 && t->players.max_total == 2);
    const rmg__zone *z2 = zone(t, 2);
    assert_int_equal(z2->allowed_terrains, bit(GRASS));
    assert_int_equal(z2->neutral_towns, 1);
    assert_true(z2->treasure[1].min == 10000 && z2->treasure[1].max == 20000 && z2->treasure[1].density == 4);
    assert_true(has_warning(p, "'neutral' is not a town type: ignored (8 times in several zones"));
    rmg_pack_destroy(p);
    assert_int_equal(rmg_pack_load(ctx, rmg_test_shared("corpus/vcmi/heroes3/worldsAtWar.json"), RMG_FORMAT_AUTO, &p),
                     RMG_OK);
    assert_true(p->templates[0].players.min_human == 3 && p->templates[0].players.max_total == 2);
    assert_true(has_warning(p, "'humans' asks for at least 3 human players but 'players' allows at most 2"));
    rmg_pack_destroy(p);
    assert_int_equal(rmg_pack_load(ctx, rmg_test_shared("corpus/vcmi/symmetric/2sm4d(3).json"), RMG_FORMAT_AUTO, &p),
                     RMG_OK);
    t = &p->templates[0];
    /* Zone 9: minesLikeZone 5, treasureLikeZone 3; zone 10: minesLikeZone 3. */
    assert_memory_equal(zone(t, 9)->mines_min, zone(t, 5)->mines_min, sizeof zone(t, 5)->mines_min);
    assert_memory_equal(zone(t, 9)->treasure, zone(t, 3)->treasure, sizeof zone(t, 3)->treasure);
    assert_int_equal(zone(t, 10)->mines_min[RMG_RESOURCE_SULFUR], 1);
    assert_int_equal(zone(t, 8)->treasure[0].min, 10000);
    assert_int_equal(t->n_connections, 15);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* Performance: the whole corpus from memory, CPU time (the budget is loose for sanitizer builds;
 * Release loads it in a few milliseconds). */
static void test_corpus_load_time(void **state)
{
    (void)state;
    char **files = rmg_test_list_files(rmg_test_shared("corpus/vcmi"), ".json");
    size_t n = 0;
    while (files[n])
        n++;
    char **texts = calloc(n, sizeof *texts);
    size_t *lens = calloc(n, sizeof *lens);
    assert_true(texts && lens);
    for (size_t i = 0; i < n; i++)
        assert_non_null(texts[i] = rmg_test_read_file(files[i], &lens[i]));
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *warm = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, texts[0], lens[0], files[0], RMG_FORMAT_VCMI, &warm), RMG_OK);
    rmg_pack_destroy(warm);   /* the content is loaded once per context */
    clock_t start = clock();
    for (size_t i = 0; i < n; i++) {
        rmg_pack *p = NULL;
        assert_int_equal(rmg_pack_load_string(ctx, texts[i], lens[i], files[i], RMG_FORMAT_VCMI, &p), RMG_OK);
        rmg_pack_destroy(p);
    }
    double ms = 1000.0 * (double)(clock() - start) / CLOCKS_PER_SEC;
    print_message("vcmi corpus: %zu files loaded in %.1f ms CPU\n", n, ms);
    assert_true(ms < 1000.0);
    rmg_context_destroy(ctx);
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    rmg_test_free_list(files);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_template_level_fields),
        cmocka_unit_test(test_zone_fields),
        cmocka_unit_test(test_like_zone_references),
        cmocka_unit_test(test_town_hints_become_type_rules),
        cmocka_unit_test(test_custom_objects_become_rules),
        cmocka_unit_test(test_connections),
        cmocka_unit_test(test_towns_like_zone_and_unknown_keys),
        cmocka_unit_test(test_rich_round_trip),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_loads_checks_and_round_trips),
        cmocka_unit_test(test_corpus_spot_checks),
        cmocka_unit_test(test_corpus_load_time),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
