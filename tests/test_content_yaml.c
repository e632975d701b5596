/* Host content: an empty ruleset loaded entirely from YAML, merges (add / change / remove),
 * the `hota` / `sod` variant rules, every validation error with its file:line:col, input
 * limits (size, depth, alias bombs), and allocation failures while loading and merging. A
 * failed load or merge must leave the previous ruleset in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/content_internal.h"
#include "rmg_test.h"

static const char tiny[] =
    "ruleset: {name: Tiny, version: \"1\"}\n"
    "terrains:\n"
    "  grass: {name: Grass, id: 2, land: true, surface: true, color: 0x00FF00}\n"
    "  water: {name: Water, id: 8}\n"
    "  marsh: {name: Marsh, id: 4, land: true, hota: true}\n"
    "factions:\n"
    "  knights: {name: Knights, id: 0, native_terrain: grass, alignment: good, sod: {native_terrain: water}}\n"
    "  neutral: {name: Neutral, id: 31, town: false}\n"
    "creatures:\n"
    "  squire: {name: Squire, plural: Squires, id: 0, faction: knights, level: 1, ai_value: 80, growth: 14,\n"
    "           map_min: 20, map_max: 50, sod: {ai_value: 70}}\n"
    "  knight: {name: Knight, id: 1, faction: knights, level: 2, upgrade_of: squire, ai_value: 200}\n"
    "  wolf: {name: Wolf, id: 2, faction: neutral, level: 1, ai_value: 50}\n"
    "objects:\n"
    "  well: {name: Well, family: regular, value: 250, frequency: 100, max_map: unlimited, max_zone: 1,\n"
    "         max_zone_fixed: true, terrains: [grass, marsh], class: 49, subclass: 0, footprint: [\"#V\"]}\n"
    "  den: {name: Den, family: creature_dwelling, value: formula, frequency: 40, max_map: unlimited,\n"
    "        max_zone: unlimited, terrains: [grass], creatures: [wolf]}\n"
    "  mine: {name: Mine, family: mine, value: 1500, frequency: n/a, max_map: n/a, max_zone: n/a, terrains: n/a,\n"
    "         resource: gold}\n"
    "map_objects:\n"
    "  town: {name: Town, family: map, class: 98, subclass: -1, footprint: [\".###.\", \"#####\", \"##V##\"]}\n"
    "artifacts:\n"
    "  sword: {name: Sword, id: 0, class: treasure, part_of: set}\n"
    "  set: {name: Set, id: 1, class: relic, combination: true}\n"
    "spells:\n"
    "  bolt: {name: Bolt, id: 0, level: 1, schools: [air, fire]}\n"
    "skills:\n"
    "  luck: {name: Luck, id: 0}\n"
    "heroes:\n"
    "  bob: {name: Bob, id: 0, faction: knights, class: knight, water: only_water_maps}\n";

static rmg_context *tiny_context(rmg_content_variant v)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_content_load_string(ctx, tiny, strlen(tiny), "tiny.yaml", v), RMG_OK);
    return ctx;
}

static const struct rmg_content *content_of(rmg_context *ctx)
{
    const struct rmg_content *c = rmg__content_get(ctx);
    assert_non_null(c);
    return c;
}

static rmg_status merge(rmg_context *ctx, const char *yaml)
{
    return rmg_content_merge_string(ctx, yaml, strlen(yaml), "mod.yaml");
}

/* ---- loading an empty ruleset from YAML -------------------------------------------------- */

static void test_empty_ruleset_then_load_everything(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_EMPTY), RMG_OK);
    assert_int_equal(content_of(ctx)->n_creatures, 0);
    assert_int_equal(rmg_content_load_string(ctx, tiny, strlen(tiny), "tiny.yaml", RMG_CONTENT_HOTA), RMG_OK);
    const struct rmg_content *c = content_of(ctx);
    assert_string_equal(c->name, "Tiny");
    assert_int_equal(c->n_terrains, 3);
    assert_int_equal(c->n_factions, 2);
    assert_int_equal(c->n_creatures, 3);
    assert_int_equal(c->n_objects, 3);
    assert_int_equal(c->n_map_objects, 1);
    assert_int_equal(c->n_artifacts, 2);
    assert_int_equal(c->n_spells + c->n_skills + c->n_heroes, 3);
    const rmg__creature *knight = &c->creatures[rmg__content_find_creature(c, "knight")];
    assert_int_equal(knight->upgrade_of, rmg__content_find_creature(c, "squire"));
    assert_int_equal(knight->faction, 0);
    assert_int_equal(c->creatures[rmg__content_find_creature(c, "wolf")].faction, RMG_FACTION_NEUTRAL);
    assert_int_equal(c->creatures[rmg__content_find_creature(c, "squire")].ai_value, 80);
    const rmg__faction *k = &c->factions[rmg__content_find_faction(c, "knights")];
    assert_int_equal(k->native_terrain, 2);
    assert_true(k->is_town);
    assert_int_equal(k->alignment, RMG_ALIGN_GOOD);
    const rmg__object_def *well = &c->objects[rmg__content_find_object(c, "well")];
    assert_int_equal(well->terrains, (1u << 2) | (1u << 4));
    assert_int_equal(well->max_map, RMG__UNLIMITED);
    assert_true(well->max_zone_fixed);
    assert_int_equal(well->footprint.block, ((uint64_t)1 << 47) | ((uint64_t)1 << 46));
    assert_int_equal(well->footprint.visit, (uint64_t)1 << 47);
    const rmg__object_def *den = &c->objects[rmg__content_find_object(c, "den")];
    assert_int_equal(den->value, RMG__VALUE_FORMULA);
    assert_int_equal(den->n_creatures, 1);
    const rmg__object_def *mine = &c->objects[rmg__content_find_object(c, "mine")];
    assert_true(mine->terrains_na);
    assert_int_equal(mine->frequency, RMG__NA);
    assert_int_equal(mine->resource, 6);
    assert_int_equal(mine->map_class, -1);
    assert_int_equal(c->artifacts[rmg__content_find_artifact(c, "sword")].part_of, rmg__content_find_artifact(c, "set"));
    assert_int_equal(c->spells[0].schools, 3);
    assert_int_equal(c->heroes[0].water_rule, 1);
    assert_int_equal(c->terrains[rmg__content_find_terrain(c, "grass")].color_rgb, 0x00FF00);
    rmg_context_destroy(ctx);
}

/* Loading replaces the built-in ruleset entirely. */
static void test_load_replaces_builtin(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_true(content_of(ctx)->n_creatures > 100);
    assert_int_equal(rmg_content_load_string(ctx, tiny, strlen(tiny), NULL, RMG_CONTENT_HOTA), RMG_OK);
    assert_int_equal(content_of(ctx)->n_creatures, 3);
    assert_int_equal(rmg__content_find_creature(content_of(ctx), "pikeman"), -1);
    rmg_context_destroy(ctx);
}

static void test_variant_rules_in_host_yaml(void **state)
{
    (void)state;
    rmg_context *ctx = tiny_context(RMG_CONTENT_SOD);
    const struct rmg_content *c = content_of(ctx);
    assert_int_equal(c->variant, RMG_CONTENT_SOD);
    assert_int_equal(rmg__content_find_terrain(c, "marsh"), -1);           /* hota: true left out */
    assert_int_equal(c->objects[rmg__content_find_object(c, "well")].terrains, 1u << 2); /* list drops it */
    assert_int_equal(c->creatures[rmg__content_find_creature(c, "squire")].ai_value, 70); /* sod: override */
    assert_int_equal(c->factions[rmg__content_find_faction(c, "knights")].native_terrain, 8);
    /* Merges keep the ruleset's variant. */
    assert_int_equal(merge(ctx, "terrains: {swamp: {name: Swamp, id: 4, hota: true}}\n"), RMG_OK);
    assert_int_equal(rmg__content_find_terrain(content_of(ctx), "swamp"), -1);
    /* A required reference to an entity the variant left out is an error. */
    assert_int_equal(merge(ctx, "factions: {pirates: {name: Pirates, id: 9, hota: true}}\n"
                                "creatures: {parrot: {name: Parrot, id: 9, faction: pirates, level: 1}}\n"),
                     RMG_ERR_INVALID_DATA);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "refers to the left-out faction 'pirates'"));
    /* Marking an existing entity HotA-only removes it from the SoD ruleset. */
    assert_int_equal(merge(ctx, "spells: {bolt: {hota: true}}\n"), RMG_OK);
    assert_int_equal(rmg__content_find_spell(content_of(ctx), "bolt"), -1);
    rmg_context_destroy(ctx);
}

/* ---- merges -------------------------------------------------------------------------------- */

static void test_merge_add_change_remove(void **state)
{
    (void)state;
    rmg_context *ctx = tiny_context(RMG_CONTENT_HOTA);
    assert_int_equal(merge(ctx, "creatures:\n"
                                "  bear: {name: Bear, id: 7, faction: neutral, level: 3, ai_value: 300}\n"
                                "  wolf: {ai_value: 55}\n"
                                "  knight: {remove: true}\n"
                                "objects:\n"
                                "  well: {value: 300, terrains: [water]}\n"),
                     RMG_OK);
    const struct rmg_content *c = content_of(ctx);
    assert_int_equal(c->n_creatures, 3);
    assert_int_equal(rmg__content_find_creature(c, "knight"), -1);
    long bear = rmg__content_find_creature(c, "bear");
    assert_true(bear >= 0);
    assert_int_equal(rmg__content_find_creature_id(c, 7), bear);
    const rmg__creature *wolf = &c->creatures[rmg__content_find_creature(c, "wolf")];
    assert_int_equal(wolf->ai_value, 55);
    assert_string_equal(wolf->name, "Wolf");              /* unchanged fields stay */
    assert_int_equal(wolf->faction, RMG_FACTION_NEUTRAL); /* references survive the copy */
    const rmg__object_def *well = &c->objects[rmg__content_find_object(c, "well")];
    assert_int_equal(well->value, 300);
    assert_int_equal(well->terrains, 1u << 8);
    assert_int_equal(well->frequency, 100);
    assert_string_equal(c->artifacts[c->artifacts[0].part_of].key, "set");
    /* null clears an optional string */
    assert_int_equal(merge(ctx, "creatures: {wolf: {plural: ~}}\n"), RMG_OK);
    c = content_of(ctx);
    assert_null(c->creatures[rmg__content_find_creature(c, "wolf")].plural);
    /* Removed, then added again: a fresh entity (defaults, not the old fields). */
    assert_int_equal(merge(ctx, "creatures:\n  knight: {name: Knight II, id: 1, faction: knights, level: 2}\n"), RMG_OK);
    c = content_of(ctx);
    const rmg__creature *kn = &c->creatures[rmg__content_find_creature(c, "knight")];
    assert_string_equal(kn->name, "Knight II");
    assert_int_equal(kn->ai_value, 0);
    assert_int_equal(kn->upgrade_of, -1);
    rmg_context_destroy(ctx);
}

static void test_merge_into_builtin(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(merge(ctx, "objects:\n"
                                "  arena: {value: 4000}\n"
                                "  black_market: {remove: true}\n"
                                "  shrine_of_luck: {name: Shrine of Luck, family: regular, value: 700, frequency: 50,\n"
                                "                   max_map: unlimited, max_zone: 1, terrains: [grass, highlands]}\n"
                                "creatures:\n"
                                "  pikeman: {ai_value: 90}\n"),
                     RMG_OK);
    const struct rmg_content *c = content_of(ctx);
    assert_int_equal(c->n_objects, 188);
    assert_int_equal(c->objects[rmg__content_find_object(c, "arena")].value, 4000);
    assert_int_equal(rmg__content_find_object(c, "black_market"), -1);
    const rmg__object_def *s = &c->objects[rmg__content_find_object(c, "shrine_of_luck")];
    assert_int_equal(s->terrains, (1u << 2) | (1u << 10));
    assert_int_equal(s->footprint.visit, (uint64_t)1 << 47); /* default: the anchor tile */
    assert_int_equal(c->creatures[rmg__content_find_creature(c, "pikeman")].ai_value, 90);
    assert_int_equal(c->creatures[rmg__content_find_creature(c, "halberdier")].upgrade_of,
                     rmg__content_find_creature(c, "pikeman"));
    assert_int_equal(c->factions[rmg__content_find_faction(c, "conflux")].native_terrain, RMG_TERRAIN_HIGHLANDS);
    assert_int_equal(rmg__content_find_object_class(c, 4, 0), rmg__content_find_object(c, "arena"));
    rmg_context_destroy(ctx);
}

/* ---- validation errors: status, message, location; the ruleset stays as it was ------------ */

typedef struct bad_case {
    const char *yaml;
    rmg_status status;
    const char *message; /* substring */
    int line, col;
} bad_case;

static void expect_rejected(rmg_context *ctx, const bad_case *b)
{
    const struct rmg_content *before = content_of(ctx);
    size_t n = before->n_creatures;
    rmg_status st = merge(ctx, b->yaml);
    rmg_error_info info = {.struct_size = sizeof info};
    rmg_context_error(ctx, &info);
    if (st != b->status || !strstr(info.message, b->message) || info.line != b->line || info.column != b->col)
        fail_msg("input:\n%s\ngot %s '%s' at %d:%d, want %s '%s' at %d:%d", b->yaml, rmg_status_name(st),
                 info.message, info.line, info.column, rmg_status_name(b->status), b->message, b->line, b->col);
    if (b->line)
        assert_string_equal(info.file, "mod.yaml");
    assert_ptr_equal(content_of(ctx), before); /* not swapped */
    assert_int_equal(content_of(ctx)->n_creatures, n);
}

static void test_validation_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"creatures: {a: [1, 2}\n", RMG_ERR_PARSE, "YAML syntax error", 1, 21},
        {"monsters: {}\n", RMG_ERR_INVALID_DATA, "unknown section 'monsters'", 1, 1},
        {"creatures:\n  wolf: {colour: red}\n", RMG_ERR_INVALID_DATA, "creature 'wolf': unknown field 'colour'", 2, 10},
        {"spells:\n  zap: {name: Zap, id: 5}\n  zap: {name: Zap, id: 6}\n", RMG_ERR_INVALID_DATA,
         "duplicate spell 'zap'", 3, 3},
        {"spells:\n  zap: {name: Zap, id: 0}\n", RMG_ERR_INVALID_DATA, "spell 'zap': id 0 is already used by 'bolt'",
         2, 3},
        {"creatures:\n  wolf: {level: 9}\n", RMG_ERR_INVALID_DATA, "9 is out of range 0..7", 2, 17},
        {"creatures:\n  wolf: {faction: orcs}\n", RMG_ERR_INVALID_DATA, "creature 'wolf': field 'faction': unknown "
         "faction 'orcs'", 2, 19},
        {"factions:\n  knights: {remove: true}\n", RMG_ERR_INVALID_DATA, "unknown faction 'knights'", 0, 0},
        {"creatures:\n  bear: {name: Bear, faction: neutral, level: 1}\n", RMG_ERR_INVALID_DATA,
         "new creature 'bear' lacks required field 'id'", 2, 9},
        {"creatures:\n  wolf: {ai_value: lots}\n", RMG_ERR_INVALID_DATA, "field 'ai_value': expected an integer", 2,
         20},
        {"creatures:\n  wolf: {ai_value: 1, ai_value: 2}\n", RMG_ERR_INVALID_DATA, "field 'ai_value' given twice", 2,
         23},
        {"creatures:\n  ghost: {remove: true}\n", RMG_ERR_INVALID_DATA, "cannot remove unknown creature 'ghost'", 2,
         10},
        {"objects:\n  well: {footprint: [\"#X\"]}\n", RMG_ERR_INVALID_DATA, "field 'footprint'", 2, 22},
        {"objects:\n  well: {max_map: lots}\n", RMG_ERR_INVALID_DATA, "an integer or one of n/a, unlimited, rule", 2, 19},
        {"objects:\n  well: {value: unlimited}\n", RMG_ERR_INVALID_DATA, "'value': expected an integer or one of formula, n/a", 2, 17},
        {"objects:\n  well: {terrains: [grass, lava]}\n", RMG_ERR_INVALID_DATA, "unknown terrain 'lava'", 2, 28},
        {"creatures:\n  wolf: {level: 0}\n", RMG_ERR_INVALID_DATA, "level 0 is out of range 1..7", 2, 3},
        {"artifacts:\n  set: {combination: false}\n", RMG_ERR_INVALID_DATA,
         "artifact 'sword': part_of 'set' is not a combination artifact", 2, 3},
        {"creatures:\n  wolf: {map_min: 60}\n", RMG_ERR_INVALID_DATA, "map_min 60 is above map_max 0", 2, 3},
        {"factions:\n  knights: {alignment: chaotic}\n", RMG_ERR_INVALID_DATA, "one of good, evil, neutral", 2, 24},
        {"creatures:\n  wolf: {sod: {remove: true}}\n", RMG_ERR_INVALID_DATA, "'remove' is not allowed inside 'sod'",
         2, 16},
        {"creatures:\n  wolf: [1]\n", RMG_ERR_INVALID_DATA, "expected a mapping of fields", 2, 9},
        {"ruleset: {author: me}\n", RMG_ERR_INVALID_DATA, "ruleset: unknown field 'author'", 1, 11},
        {"a: *nowhere\n", RMG_ERR_PARSE, "unknown YAML anchor", 1, 4},
        {"creatures: {}\n---\nspells: {}\n", RMG_ERR_PARSE, "only one YAML document", 2, 1},
        {"- 1\n", RMG_ERR_INVALID_DATA, "content must be a mapping", 1, 1},
        {"spells: {}\nskills: {}\nspells: {}\n", RMG_ERR_INVALID_DATA, "section 'spells' given twice", 3, 1},
        {"creatures:\n  wolf: {name: ~}\n", RMG_ERR_INVALID_DATA, "field 'name': expected a string", 2, 16},
    };
    rmg_context *ctx = tiny_context(RMG_CONTENT_HOTA);
    for (size_t i = 0; i < RMG__ARRAY_LEN(cases); i++)
        expect_rejected(ctx, &cases[i]);
    /* The ruleset still works after all those failures. */
    assert_int_equal(merge(ctx, "creatures: {wolf: {ai_value: 60}}\n"), RMG_OK);
    rmg_context_destroy(ctx);
}

/* A failing load (not only a merge) also keeps the previous ruleset. */
static void test_failed_load_keeps_previous(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *before = content_of(ctx);
    const char *bad = "creatures:\n  x: {name: X, id: 1, faction: nobody}\n";
    assert_int_equal(rmg_content_load_string(ctx, bad, strlen(bad), "bad.yaml", RMG_CONTENT_HOTA), RMG_ERR_INVALID_DATA);
    assert_ptr_equal(content_of(ctx), before);
    assert_int_equal(rmg_content_load_string(ctx, bad, 4, "bad.yaml", (rmg_content_variant)RMG_CONTENT_EMPTY),
                     RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_content_load_string(ctx, NULL, 0, "bad.yaml", RMG_CONTENT_HOTA), RMG_ERR_INVALID_ARG);
    rmg_context_destroy(ctx);
}

/* ---- limits ---------------------------------------------------------------------------------- */

static void test_limits(void **state)
{
    (void)state;
    rmg_context *ctx = tiny_context(RMG_CONTENT_HOTA);
    const struct rmg_content *before = content_of(ctx);
    /* Alias bomb: 10^7 nodes after expansion from a few hundred bytes. */
    const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                       "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                       "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                       "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    assert_int_equal(merge(ctx, bomb), RMG_ERR_LIMIT);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "expands to more than"));
    /* Nesting. */
    char deep[200];
    memset(deep, '[', 40);
    memset(deep + 40, ']', 40);
    deep[80] = '\0';
    assert_int_equal(merge(ctx, deep), RMG_ERR_LIMIT);
    /* Size. */
    size_t big = (size_t)RMG_CONTENT_MAX_BYTES + 1;
    char *huge = malloc(big);
    assert_non_null(huge);
    memset(huge, ' ', big);
    assert_int_equal(rmg_content_merge_string(ctx, huge, big, "huge.yaml"), RMG_ERR_LIMIT);
    free(huge);
    assert_ptr_equal(content_of(ctx), before);
    rmg_context_destroy(ctx);
}

/* Every prefix of a valid input, and the input with single bytes replaced, loads or fails
 * cleanly with a message (sanitizers watch for the rest); the previous ruleset survives. */
static void test_truncated_and_corrupted_inputs(void **state)
{
    (void)state;
    rmg_context *ctx = tiny_context(RMG_CONTENT_HOTA);
    size_t n = strlen(tiny);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    for (size_t len = 0; len < n; len += 3) {
        rmg_status st = rmg_content_merge_string(ctx, tiny, len, "prefix.yaml");
        if (st != RMG_OK)
            assert_string_not_equal(rmg_context_errmsg(ctx), "");
    }
    static const char junk[] = {'{', '}', '[', ']', ':', '-', '&', '*', '!', '\'', '"', '#', '\n', '\0', '\xff'};
    for (size_t i = 0; i < n; i += 5) {
        memcpy(buf, tiny, n + 1);
        buf[i] = junk[i % sizeof junk];
        rmg_status st = rmg_content_load_string(ctx, buf, n, "corrupt.yaml", RMG_CONTENT_HOTA);
        if (st != RMG_OK)
            assert_string_not_equal(rmg_context_errmsg(ctx), "");
        assert_non_null(rmg__content_get(ctx));
    }
    free(buf);
    rmg_context_destroy(ctx);
}

/* ---- files ----------------------------------------------------------------------------------- */

static void test_files(void **state)
{
    (void)state;
    char path[] = "/tmp/rmg_content_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, tiny, strlen(tiny)), (ssize_t)strlen(tiny));
    close(fd);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_content_load(ctx, path, RMG_CONTENT_HOTA), RMG_OK);
    assert_int_equal(content_of(ctx)->n_creatures, 3);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("creatures:\n  wolf: {level: 99}\n", f);
    fclose(f);
    assert_int_equal(rmg_content_merge(ctx, path), RMG_ERR_INVALID_DATA);
    rmg_error_info info = {.struct_size = sizeof info};
    rmg_context_error(ctx, &info);
    assert_string_equal(info.file, path);
    assert_int_equal(info.line, 2);
    remove(path);
    assert_int_equal(rmg_content_merge(ctx, path), RMG_ERR_IO);
    assert_int_equal(rmg_content_load(ctx, NULL, RMG_CONTENT_HOTA), RMG_ERR_INVALID_ARG);
    assert_int_equal(content_of(ctx)->n_creatures, 3);
    rmg_context_destroy(ctx);
}

/* ---- the documented example ------------------------------------------------------------- */

/* docs/content-format.md: its example is a complete ruleset that loads. */
static void test_documented_example_loads(void **state)
{
    (void)state;
    size_t len;
    char *doc = rmg_test_read_file(rmg_test_source("docs/content-format.md"), &len);
    assert_non_null(doc);
    char *start = strstr(doc, "```yaml\n");
    assert_non_null(start);
    start += strlen("```yaml\n");
    char *end = strstr(start, "```");
    assert_non_null(end);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_status st = rmg_content_load_string(ctx, start, (size_t)(end - start), "content-format.md", RMG_CONTENT_HOTA);
    if (st != RMG_OK)
        fail_msg("%s", rmg_context_errmsg(ctx));
    const struct rmg_content *c = content_of(ctx);
    assert_string_equal(c->name, "My mod");
    assert_int_equal(c->n_creatures, 2);
    assert_int_equal(c->n_objects, 2);
    assert_int_equal(c->objects[rmg__content_find_object(c, "squire_post")].creatures[0],
                     rmg__content_find_creature(c, "squire"));
    rmg_context_destroy(ctx);
    free(doc);
}

/* ---- allocation failures ----------------------------------------------------------------- */

static const char change[] = "creatures:\n  bear: {name: Bear, id: 7, faction: neutral, level: 3, ai_value: 300}\n"
                             "  knight: {remove: true}\n"
                             "objects:\n  well: {value: 300, notes: changed}\n";

static rmg_status load_and_merge_tiny(rmg_context *ctx, void *user)
{
    (void)user;
    rmg_status st = rmg_content_load_string(ctx, tiny, strlen(tiny), "tiny.yaml", RMG_CONTENT_HOTA);
    return st ? st : merge(ctx, change);
}

static void test_oom_load_and_merge_full_sweep(void **state)
{
    (void)state;
    size_t needed = rmg_test_oom_sweep(load_and_merge_tiny, NULL, 0, 1);
    assert_true(needed > 20);
}

/* The merge runs in a context of its own that shares the harness's allocator, so success
 * and failure leave the harness's context in the same state. */
static rmg_status builtin_and_merge(rmg_context *ctx, void *user)
{
    (void)user;
    rmg_context_options o;
    rmg_context_options_init(&o);
    o.alloc = ctx->alloc;
    o.alloc_user = ctx->alloc_user;
    rmg_context *sub = NULL;
    if (rmg_context_create(&sub, &o) != RMG_OK)
        return rmg__error_nomem(ctx);
    rmg_status st = merge(sub, "objects:\n  arena: {value: 4000}\ncreatures:\n  pikeman: {ai_value: 90}\n");
    if (st != RMG_OK)
        rmg__error_set(ctx, st, "%s", rmg_context_errmsg(sub));
    rmg_context_destroy(sub);
    return st;
}

static void test_oom_merge_into_builtin(void **state)
{
    (void)state;
    rmg_test_oom_sweep(builtin_and_merge, NULL, 0, 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_ruleset_then_load_everything),
        cmocka_unit_test(test_load_replaces_builtin),
        cmocka_unit_test(test_variant_rules_in_host_yaml),
        cmocka_unit_test(test_merge_add_change_remove),
        cmocka_unit_test(test_merge_into_builtin),
        cmocka_unit_test(test_validation_errors),
        cmocka_unit_test(test_failed_load_keeps_previous),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_truncated_and_corrupted_inputs),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_documented_example_loads),
        cmocka_unit_test(test_oom_load_and_merge_full_sweep),
        cmocka_unit_test(test_oom_merge_into_builtin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
