/* The embedded ruleset agrees with the fact tables in ../shared/data (issue 3 acceptance,
 * OBJ-04): every row of object-defaults.tsv (all 13 columns) and the creature, faction,
 * terrain, artifact, spell, skill and hero tables, for both variants. The tables are read at
 * test time, not copied. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_internal.h"
#include "rmg_test.h"
#include "rmg_test_tsv.h"

/* Every table row has exactly the header's columns. */
static rmg_test_tsv read_tsv(const char *name)
{
    rmg_test_tsv t;
    rmg_test_tsv_load(&t, name);
    assert_int_equal(t.ragged_rows, 0);
    return t;
}

/* A short name: the row checks below read a few hundred cells. */
static const char *cell(const rmg_test_tsv *t, size_t row, const char *column)
{
    return rmg_test_tsv_cell(t, row, column);
}

static bool yes(const char *s)
{
    return strcmp(s, "yes") == 0;
}

static int num(const char *s, int if_empty)
{
    return *s ? atoi(s) : if_empty;
}

static const struct rmg_content *load(rmg_context **ctx, rmg_content_variant v)
{
    *ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg_context_set_content_variant(*ctx, v), RMG_OK);
    const struct rmg_content *c = rmg__content_get(*ctx);
    assert_non_null(c);
    return c;
}

static int terrain_id(const struct rmg_content *c, const char *key)
{
    long t = rmg__content_find_terrain(c, key);
    assert_true(t >= 0);
    return c->terrains[t].id;
}

static int faction_id(const struct rmg_content *c, const char *key)
{
    long f = rmg__content_find_faction(c, key);
    assert_true(f >= 0);
    return c->factions[f].id;
}

static bool is_hota_key(const rmg_test_tsv *t, size_t r)
{
    return yes(cell(t, r, "is_hota"));
}

/* ---- object-defaults.tsv: all 13 columns ------------------------------------------------ */

static void check_fixed(const char *col, bool fixed, int64_t cap)
{
    if (strcmp(col, "n/a") == 0) {
        assert_false(fixed);
        assert_true(cap == RMG__RULE || cap == RMG__NA);
    } else {
        assert_int_equal(fixed, yes(col));
    }
}

static void check_terrains(const struct rmg_content *c, const char *col, const rmg__object_def *o)
{
    if (strcmp(col, "n/a") == 0) {
        assert_true(o->terrains_na);
        assert_int_equal(o->terrains, 0);
        return;
    }
    assert_false(o->terrains_na);
    uint32_t want = 0;
    if (strcmp(col, "none") != 0) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", col);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long i = rmg__content_find_terrain(c, t);
            if (i >= 0) /* SoD has no highlands/wasteland */
                want |= 1u << c->terrains[i].id;
        }
    }
    assert_int_equal(o->terrains, want);
}

static void check_object_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    const char *key = cell(t, r, "key");
    long i = rmg__content_find_object(c, key);
    if (i < 0 && c->variant == RMG_CONTENT_SOD)
        return; /* HotA-only object: checked in the HotA pass */
    if (i < 0)
        fail_msg("object %s missing", key);
    const rmg__object_def *o = &c->objects[i];
    assert_string_equal(o->name, cell(t, r, "english_name"));
    assert_string_equal(o->name_ru, cell(t, r, "russian_name"));
    assert_string_equal(o->family, cell(t, r, "family"));
    assert_int_equal(o->value, rmg_test_tsv_object_number(cell(t, r, "value")));
    assert_int_equal(o->frequency, rmg_test_tsv_object_number(cell(t, r, "frequency")));
    assert_int_equal(o->max_map, rmg_test_tsv_object_number(cell(t, r, "max_map")));
    check_fixed(cell(t, r, "max_map_fixed"), o->max_map_fixed, o->max_map);
    assert_int_equal(o->max_zone, rmg_test_tsv_object_number(cell(t, r, "max_zone")));
    check_fixed(cell(t, r, "max_zone_fixed"), o->max_zone_fixed, o->max_zone);
    check_terrains(c, cell(t, r, "terrains"), o);
    assert_int_equal(o->banned_by_default, yes(cell(t, r, "banned_by_default")));
    const char *notes = cell(t, r, "notes");
    if (*notes)
        assert_string_equal(o->notes, notes);
    else
        assert_null(o->notes);
}

static void test_obj04_object_defaults_all_columns(void **state)
{
    (void)state;
    rmg_test_tsv t = read_tsv("data/object-defaults.tsv");
    assert_int_equal(t.rows, 188);
    assert_int_equal(t.cols, 13);
    rmg_context *ctx;
    const struct rmg_content *c = load(&ctx, RMG_CONTENT_HOTA);
    assert_int_equal(c->n_objects, 188);
    for (size_t r = 0; r < t.rows; r++) {
        check_object_row(c, &t, r);
        assert_int_equal(rmg__content_find_object(c, cell(&t, r, "key")), (long)r); /* table order kept */
    }
    rmg_context_destroy(ctx);
    c = load(&ctx, RMG_CONTENT_SOD);
    for (size_t r = 0; r < t.rows; r++)
        check_object_row(c, &t, r);
    rmg_context_destroy(ctx);
    rmg_test_tsv_free(&t);
}

/* ---- the other tables --------------------------------------------------------------------- */

static void check_creature_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    bool sod = c->variant == RMG_CONTENT_SOD;
    long i = rmg__content_find_creature(c, cell(t, r, "key"));
    if (sod && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_true(i >= 0);
    const rmg__creature *cr = &c->creatures[i];
    assert_string_equal(cr->name, cell(t, r, "name"));
    assert_string_equal(cr->plural, cell(t, r, "plural"));
    assert_int_equal(cr->id, num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(rmg__content_find_creature_id(c, cr->id), i);
    const char *fac = sod && *cell(t, r, "faction_sod") ? cell(t, r, "faction_sod") : cell(t, r, "faction");
    assert_int_equal(cr->faction, faction_id(c, fac));
    assert_int_equal(cr->level, num(cell(t, r, "level"), 0));
    const char *up = cell(t, r, "upgrade_of");
    assert_int_equal(cr->upgrade_of, *up ? rmg__content_find_creature(c, up) : -1);
    const char *ai = cell(t, r, sod ? "ai_value" : "hota_ai_value");
    const char *fv = cell(t, r, sod ? "fight_value" : "hota_fight_value");
    const char *gr = cell(t, r, sod ? "growth" : "hota_growth");
    assert_int_equal(cr->ai_value, num(ai, num(cell(t, r, "ai_value"), 0)));
    assert_int_equal(cr->fight_value, num(fv, num(cell(t, r, "fight_value"), 0)));
    assert_int_equal(cr->growth, num(gr, num(cell(t, r, "growth"), 0)));
    assert_int_equal(cr->horde_growth, num(cell(t, r, "horde_growth"), 0));
    assert_int_equal(cr->map_min, num(cell(t, r, "map_min"), 0));
    assert_int_equal(cr->map_max, num(cell(t, r, "map_max"), 0));
    assert_int_equal(cr->special, yes(cell(t, r, "special")));
    assert_int_equal(cr->is_hota, is_hota_key(t, r));
}

static void check_faction_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    bool sod = c->variant == RMG_CONTENT_SOD;
    const char *key = cell(t, r, "key");
    long i = rmg__content_find_faction(c, key);
    if (sod && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_true(i >= 0);
    const rmg__faction *f = &c->factions[i];
    bool neutral = strcmp(key, "neutral") == 0;
    assert_string_equal(f->name, cell(t, r, "name"));
    assert_int_equal(f->id, neutral ? RMG_FACTION_NEUTRAL : num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(f->is_town, !neutral);
    const char *nt = cell(t, r, sod ? "native_terrain_sod" : "native_terrain");
    assert_int_equal(f->native_terrain, *nt ? terrain_id(c, nt) : -1);
    const char *al = cell(t, r, "alignment");
    int want = strcmp(al, "good") == 0 ? RMG_ALIGN_GOOD : strcmp(al, "evil") == 0 ? RMG_ALIGN_EVIL : RMG_ALIGN_NEUTRAL;
    assert_int_equal(f->alignment, want);
    assert_int_equal(f->prefer_underground, yes(cell(t, r, "prefer_underground")));
    assert_int_equal(f->is_hota, is_hota_key(t, r));
}

static void check_terrain_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    long i = rmg__content_find_terrain(c, cell(t, r, "key"));
    if (c->variant == RMG_CONTENT_SOD && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_true(i >= 0);
    const rmg__terrain *te = &c->terrains[i];
    assert_string_equal(te->name, cell(t, r, "name"));
    assert_string_equal(te->code, cell(t, r, "code"));
    assert_int_equal(te->id, num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(rmg__content_find_terrain_id(c, te->id), i);
    assert_int_equal(te->land, yes(cell(t, r, "is_land")));
    assert_int_equal(te->allowed_surface, yes(cell(t, r, "allowed_surface")));
    assert_int_equal(te->allowed_underground, yes(cell(t, r, "allowed_underground")));
    assert_int_equal(te->move_cost, num(cell(t, r, "move_cost"), 0));
    assert_int_equal(te->is_hota, is_hota_key(t, r));
    assert_true(te->color_rgb != 0 || strcmp(te->key, "rock") == 0);
}

static int artifact_class(const char *s)
{
    static const char *const names[] = {"treasure", "minor", "major", "relic", "special"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    fail_msg("artifact class %s", s);
    return -1;
}

static void check_artifact_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    long i = rmg__content_find_artifact(c, cell(t, r, "key"));
    if (c->variant == RMG_CONTENT_SOD && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_true(i >= 0);
    const rmg__artifact *a = &c->artifacts[i];
    assert_string_equal(a->name, cell(t, r, "name"));
    assert_int_equal(a->id, num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(rmg__content_find_artifact_id(c, a->id), i);
    assert_int_equal(a->cls, artifact_class(cell(t, r, "class")));
    assert_int_equal(a->combination, *cell(t, r, "combination_of") != '\0');
    /* part_of: the combination's index; a HotA combination does not exist in SoD. */
    const char *part = cell(t, r, "part_of");
    assert_int_equal(a->part_of, *part ? rmg__content_find_artifact(c, part) : -1);
    assert_int_equal(a->is_hota, is_hota_key(t, r));
}

static void check_spell_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    long i = rmg__content_find_spell(c, cell(t, r, "key"));
    assert_true(i >= 0);
    const rmg__spell *s = &c->spells[i];
    assert_string_equal(s->name, cell(t, r, "name"));
    assert_int_equal(s->id, num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(rmg__content_find_spell_id(c, s->id), i);
    assert_int_equal(s->level, num(cell(t, r, "level"), 0));
    int mask = 0;
    const char *sc = cell(t, r, "schools");
    mask |= strstr(sc, "air") ? 1 : 0;
    mask |= strstr(sc, "fire") ? 2 : 0;
    mask |= strstr(sc, "water") ? 4 : 0;
    mask |= strstr(sc, "earth") ? 8 : 0;
    assert_int_equal(s->schools, mask);
    assert_int_equal(s->adventure, yes(cell(t, r, "adventure")));
    assert_int_equal(s->learnable, yes(cell(t, r, "learnable")));
}

static void check_skill_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    long i = rmg__content_find_skill(c, cell(t, r, "key"));
    if (c->variant == RMG_CONTENT_SOD && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_int_equal(i, (long)r); /* list order = id order (MIS-29) */
    assert_string_equal(c->skills[i].name, cell(t, r, "name"));
    assert_int_equal(c->skills[i].id, num(cell(t, r, "h3m_id"), -1));
}

static void check_hero_row(const struct rmg_content *c, const rmg_test_tsv *t, size_t r)
{
    long i = rmg__content_find_hero(c, cell(t, r, "key"));
    if (c->variant == RMG_CONTENT_SOD && is_hota_key(t, r)) {
        assert_int_equal(i, -1);
        return;
    }
    assert_true(i >= 0);
    const rmg__hero *h = &c->heroes[i];
    assert_string_equal(h->name, cell(t, r, "name"));
    assert_int_equal(h->id, num(cell(t, r, "h3m_id"), -1));
    assert_int_equal(rmg__content_find_hero_id(c, h->id), i);
    assert_int_equal(h->faction, faction_id(c, cell(t, r, "faction")));
    assert_string_equal(h->hero_class, cell(t, r, "class"));
    assert_int_equal(h->campaign_only, yes(cell(t, r, "campaign_only")));
    assert_int_equal(h->is_hota, is_hota_key(t, r));
    const char *w = cell(t, r, "water_rule");
    int want = strcmp(w, "water_maps_only") == 0 ? 1 : strcmp(w, "no_water_maps_only") == 0 ? 2 : 0;
    assert_int_equal(h->water_rule, want);
}

typedef void (*row_check)(const struct rmg_content *, const rmg_test_tsv *, size_t);

/* Every row agrees in both variants; the SoD ruleset has exactly the non-HotA rows. */
static void check_table(const char *name, row_check fn, size_t (*count)(const struct rmg_content *))
{
    rmg_test_tsv t = read_tsv(name);
    for (int v = RMG_CONTENT_HOTA; v <= RMG_CONTENT_SOD; v++) {
        rmg_context *ctx;
        const struct rmg_content *c = load(&ctx, (rmg_content_variant)v);
        size_t expected = 0;
        for (size_t r = 0; r < t.rows; r++) {
            fn(c, &t, r);
            bool hota = false;
            for (size_t col = 0; col < t.cols; col++)
                if (strcmp(t.header[col], "is_hota") == 0)
                    hota = yes(t.cells[r * t.cols + col]);
            expected += v == RMG_CONTENT_HOTA || !hota;
        }
        assert_int_equal(count(c), expected);
        rmg_context_destroy(ctx);
    }
    rmg_test_tsv_free(&t);
}

static size_t n_creatures(const struct rmg_content *c) { return c->n_creatures; }
static size_t n_factions(const struct rmg_content *c) { return c->n_factions; }
static size_t n_terrains(const struct rmg_content *c) { return c->n_terrains; }
static size_t n_artifacts(const struct rmg_content *c) { return c->n_artifacts; }
static size_t n_spells(const struct rmg_content *c) { return c->n_spells; }
static size_t n_skills(const struct rmg_content *c) { return c->n_skills; }
static size_t n_heroes(const struct rmg_content *c) { return c->n_heroes; }

static void test_creatures_table(void **state)
{
    (void)state;
    check_table("data/creatures.tsv", check_creature_row, n_creatures);
}

static void test_factions_table(void **state)
{
    (void)state;
    check_table("data/factions.tsv", check_faction_row, n_factions);
}

static void test_terrains_table(void **state)
{
    (void)state;
    check_table("data/terrains.tsv", check_terrain_row, n_terrains);
}

static void test_artifacts_table(void **state)
{
    (void)state;
    check_table("data/artifacts.tsv", check_artifact_row, n_artifacts);
}

static void test_spells_table(void **state)
{
    (void)state;
    check_table("data/spells.tsv", check_spell_row, n_spells);
}

static void test_skills_table(void **state)
{
    (void)state;
    check_table("data/skills.tsv", check_skill_row, n_skills);
}

static void test_heroes_table(void **state)
{
    (void)state;
    check_table("data/heroes.tsv", check_hero_row, n_heroes);
}

/* Class/subclass and footprints come from object-classes.tsv / object-templates.tsv: every
 * object whose key the class table names carries one of the classes listed for it. */
static void test_object_classes_match_table(void **state)
{
    (void)state;
    rmg_test_tsv t = read_tsv("data/object-classes.tsv");
    rmg_context *ctx;
    const struct rmg_content *c = load(&ctx, RMG_CONTENT_HOTA);
    for (size_t i = 0; i < c->n_objects; i++) {
        const rmg__object_def *o = &c->objects[i];
        bool found = false;
        for (size_t r = 0; r < t.rows && !found; r++) {
            char keys[2048];
            snprintf(keys, sizeof keys, ",%s,", cell(&t, r, "object_defaults_key"));
            char want[128];
            snprintf(want, sizeof want, ",%s,", o->key);
            found = strstr(keys, want) && atoi(cell(&t, r, "class_id")) == o->map_class;
        }
        if (!found)
            fail_msg("object %s: class %d not listed for it", o->key, o->map_class);
        assert_true(o->footprint.visit != 0 || strcmp(o->key, "grave") == 0 || o->footprint.block != 0);
    }
    rmg_context_destroy(ctx);
    rmg_test_tsv_free(&t);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj04_object_defaults_all_columns),
        cmocka_unit_test(test_creatures_table),
        cmocka_unit_test(test_factions_table),
        cmocka_unit_test(test_terrains_table),
        cmocka_unit_test(test_artifacts_table),
        cmocka_unit_test(test_spells_table),
        cmocka_unit_test(test_skills_table),
        cmocka_unit_test(test_heroes_table),
        cmocka_unit_test(test_object_classes_match_table),
    };
    return RMG_TEST_MAIN_SHARED(tests, "data");
}
