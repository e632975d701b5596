/* Test fixture for the solve tests: a content built from the shared game-fact tables (read at
 * run time: terrains, factions, artifacts, spells, skills, heroes) plus the spell scroll and
 * spell Pandora object types, independent of the content module; and small template builders. */
#ifndef TEST_SOLVE_FIXTURE_H
#define TEST_SOLVE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "rmg_test_tsv.h"
#include "solve/solve_internal.h"

/* ---- TSV tables ------------------------------------------------------------------------------ */

/* `name` is a file of the shared data folder. */
static inline void sfx_tsv_load(rmg_test_tsv *t, const char *name)
{
    char rel[128];
    snprintf(rel, sizeof rel, "data/%s", name);
    rmg_test_tsv_load(t, rel);
}

static inline const char *sfx_cell(const rmg_test_tsv *t, size_t row, const char *column)
{
    return rmg_test_tsv_cell(t, row, column);
}

static inline int sfx_int(const rmg_test_tsv *t, size_t row, const char *column)
{
    return atoi(sfx_cell(t, row, column));
}

static inline bool sfx_yes(const rmg_test_tsv *t, size_t row, const char *column)
{
    return strcmp(sfx_cell(t, row, column), "yes") == 0;
}

/* ---- content --------------------------------------------------------------------------------- */

static inline int sfx_terrain_id(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_terrains; i++)
        if (strcmp(c->terrains[i].key, key) == 0)
            return c->terrains[i].id;
    return -1;
}

static inline int sfx_faction_id(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_factions; i++)
        if (strcmp(c->factions[i].key, key) == 0)
            return c->factions[i].id;
    return -1;
}

static inline int sfx_schools(const char *list)
{
    int m = 0;
    m |= strstr(list, "air") ? 1 : 0;
    m |= strstr(list, "fire") ? 2 : 0;
    m |= strstr(list, "water") ? 4 : 0;
    m |= strstr(list, "earth") ? 8 : 0;
    return m;
}

static inline int sfx_artifact_class(const char *s)
{
    static const char *const names[] = {"treasure", "minor", "major", "relic", "special"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return RMG_ARTIFACT_SPECIAL;
}

static inline void sfx_load_terrains(struct rmg_content *c)
{
    rmg_test_tsv t = {0};
    sfx_tsv_load(&t, "terrains.tsv");
    c->terrains = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->terrains);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__terrain *x = &c->terrains[c->n_terrains++];
        x->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        x->id = sfx_int(&t, r, "h3m_id");
        x->land = sfx_yes(&t, r, "is_land");
        x->allowed_surface = sfx_yes(&t, r, "allowed_surface");
        x->allowed_underground = sfx_yes(&t, r, "allowed_underground");
    }
    rmg_test_tsv_free(&t);
}

static inline void sfx_load_factions(struct rmg_content *c)
{
    rmg_test_tsv t = {0};
    sfx_tsv_load(&t, "factions.tsv");
    c->factions = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->factions);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__faction *f = &c->factions[c->n_factions++];
        f->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        f->is_town = strcmp(f->key, "neutral") != 0;
        f->id = f->is_town ? sfx_int(&t, r, "h3m_id") : RMG_FACTION_NEUTRAL;
        f->native_terrain = f->is_town ? sfx_terrain_id(c, sfx_cell(&t, r, "native_terrain")) : -1;
        const char *al = sfx_cell(&t, r, "alignment");
        f->alignment = strcmp(al, "good") == 0 ? RMG_ALIGN_GOOD : strcmp(al, "evil") == 0 ? RMG_ALIGN_EVIL : RMG_ALIGN_NEUTRAL;
    }
    rmg_test_tsv_free(&t);
}

static inline void sfx_load_items(struct rmg_content *c)
{
    rmg_test_tsv t = {0};
    sfx_tsv_load(&t, "artifacts.tsv");
    c->artifacts = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->artifacts);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__artifact *a = &c->artifacts[c->n_artifacts++];
        a->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        a->id = sfx_int(&t, r, "h3m_id");
        a->cls = sfx_artifact_class(sfx_cell(&t, r, "class"));
        a->combination = sfx_cell(&t, r, "combination_of")[0] != 0;
        a->part_of = -1;
    }
    rmg_test_tsv_free(&t);
    sfx_tsv_load(&t, "spells.tsv");
    c->spells = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->spells);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__spell *s = &c->spells[c->n_spells++];
        s->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        s->id = sfx_int(&t, r, "h3m_id");
        s->level = sfx_int(&t, r, "level");
        s->schools = sfx_schools(sfx_cell(&t, r, "schools"));
        s->adventure = sfx_yes(&t, r, "adventure");
        s->learnable = sfx_yes(&t, r, "learnable");
    }
    rmg_test_tsv_free(&t);
    sfx_tsv_load(&t, "skills.tsv");
    c->skills = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->skills);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__skill *s = &c->skills[c->n_skills++];
        s->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        s->id = sfx_int(&t, r, "h3m_id");
    }
    rmg_test_tsv_free(&t);
    sfx_tsv_load(&t, "heroes.tsv");
    c->heroes = rmg__arena_alloc(&c->arena, t.rows * sizeof *c->heroes);
    for (size_t r = 0; r < t.rows; r++) {
        rmg__hero *h = &c->heroes[c->n_heroes++];
        h->key = rmg__arena_strdup(&c->arena, sfx_cell(&t, r, "key"));
        h->id = sfx_int(&t, r, "h3m_id");
        h->faction = sfx_faction_id(c, sfx_cell(&t, r, "faction"));
        h->campaign_only = sfx_yes(&t, r, "campaign_only");
    }
    rmg_test_tsv_free(&t);
}

/* Spell scrolls (level 1..5, 6 = special) and spell Pandora's boxes as the content defines them. */
static inline void sfx_add_spell_objects(struct rmg_content *c)
{
    static const struct { const char *key, *family; int lo, hi, schools; } rows[] = {
        {"spell_scroll_level_1", "spell_scroll", 1, -1, -1}, {"spell_scroll_level_2", "spell_scroll", 2, -1, -1},
        {"spell_scroll_level_3", "spell_scroll", 3, -1, -1}, {"spell_scroll_level_4", "spell_scroll", 4, -1, -1},
        {"spell_scroll_level_5", "spell_scroll", 5, -1, -1}, {"spell_scroll_special", "spell_scroll", 6, -1, -1},
        {"pandora_spells_level_1", "pandora_spells", 1, 1, 15}, {"pandora_spells_level_2", "pandora_spells", 2, 2, 15},
        {"pandora_spells_level_3", "pandora_spells", 3, 3, 15}, {"pandora_spells_level_4", "pandora_spells", 4, 4, 15},
        {"pandora_spells_level_5", "pandora_spells", 5, 5, 15}, {"pandora_spells_air", "pandora_spells", 1, 5, 1},
        {"pandora_spells_fire", "pandora_spells", 1, 5, 2}, {"pandora_spells_water", "pandora_spells", 1, 5, 4},
        {"pandora_spells_earth", "pandora_spells", 1, 5, 8}, {"pandora_spells_all", "pandora_spells", 1, 5, 15},
        {"arena", "regular", -1, -1, -1},
    };
    size_t n = sizeof rows / sizeof rows[0];
    c->objects = rmg__arena_alloc(&c->arena, n * sizeof *c->objects);
    for (size_t i = 0; i < n; i++) {
        rmg__object_def *o = &c->objects[c->n_objects++];
        o->key = rmg__arena_strdup(&c->arena, rows[i].key);
        o->family = rmg__arena_strdup(&c->arena, rows[i].family);
        o->spell_level = rows[i].lo;
        o->spell_level_max = rows[i].hi;
        o->school_mask = rows[i].schools;
    }
}

/* The whole fixture content, allocated through ctx (free with sfx_content_free). */
static inline struct rmg_content *sfx_content(rmg_context *ctx)
{
    struct rmg_content *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->ctx = ctx;
    atomic_init(&c->refs, 1); /* the fixture's: it lends c and frees it itself */
    rmg__arena_init(&c->arena, ctx, 64 * 1024);
    sfx_load_terrains(c);
    sfx_load_factions(c);
    sfx_load_items(c);
    sfx_add_spell_objects(c);
    return c;
}

static inline void sfx_content_free(struct rmg_content *c)
{
    if (!c)
        return;
    rmg__arena_free(&c->arena);
    free(c);
}

static inline long sfx_index(const void *items, size_t n, size_t stride, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = *(char *const *)(const void *)((const char *)items + i * stride);
        if (strcmp(k, key) == 0)
            return (long)i;
    }
    fail_msg("no item %s", key);
    return -1;
}

#define SFX_ART(c, key) sfx_index((c)->artifacts, (c)->n_artifacts, sizeof *(c)->artifacts, key)
#define SFX_SPELL(c, key) sfx_index((c)->spells, (c)->n_spells, sizeof *(c)->spells, key)
#define SFX_SKILL(c, key) sfx_index((c)->skills, (c)->n_skills, sizeof *(c)->skills, key)
#define SFX_HERO(c, key) sfx_index((c)->heroes, (c)->n_heroes, sizeof *(c)->heroes, key)
#define SFX_OBJ(c, key) sfx_index((c)->objects, (c)->n_objects, sizeof *(c)->objects, key)

/* ---- templates and runs ------------------------------------------------------------------------ */

typedef struct sfx {
    rmg_context *ctx;            /* owns the pack and the content */
    struct rmg_content *content;
    struct rmg_pack *pack;
    rmg__template *tpl;
} sfx;

static inline void sfx_init(sfx *f)
{
    memset(f, 0, sizeof *f);
    f->ctx = rmg_test_context(NULL, 1);
    f->content = sfx_content(f->ctx);
    assert_int_equal(rmg__pack_new(f->ctx, &f->pack), RMG_OK);
    f->tpl = rmg__pack_add_template(f->pack);
    assert_non_null(f->tpl);
}

static inline void sfx_free(sfx *f)
{
    rmg__pack_free(f->pack);
    sfx_content_free(f->content);
    rmg_context_destroy(f->ctx);
}

/* Adds zones with ids 1..n (treasure zones, no towns). */
static inline void sfx_zones(sfx *f, int n)
{
    for (int i = 0; i < n; i++) {
        rmg__zone *z = rmg__template_add_zone(f->pack, f->tpl);
        assert_non_null(z);
        z->id = (int)f->tpl->n_zones;
    }
}

static inline rmg__zone *sfx_zone(sfx *f, int id)
{
    long i = rmg__template_find_zone(f->tpl, id);
    assert_true(i >= 0);
    return &f->tpl->zones[i];
}

static inline void sfx_player_zone(sfx *f, int id, int owner)
{
    rmg__zone *z = sfx_zone(f, id);
    z->kind = RMG_ZONE_HUMAN_START;
    z->owner = owner;
    z->player_towns = 1;
}

static inline void sfx_rule(sfx *f, int owner_zone, rmg_type_rule_kind kind, bool negate, int za, int ta, int zb, int tb)
{
    rmg__zone *z = sfx_zone(f, owner_zone);
    rmg__type_rule *r = rmg__arena_grow(&f->pack->arena, (void **)&z->type_rules, &z->n_type_rules, sizeof *r);
    assert_non_null(r);
    r->kind = kind;
    r->negate = negate;
    r->zone_a = za;
    r->town_a = ta;
    r->zone_b = zb;
    r->town_b = tb;
}

/* One run's output. */
typedef struct sfx_run {
    rmg__arena arena;
    rmg__solution sol;
    rmg__solve_extra x;
} sfx_run;

static inline rmg_status sfx_solve_with(rmg_context *ctx, sfx *f, uint64_t seed, rmg__solve_input *base, sfx_run *out)
{
    memset(out, 0, sizeof *out);
    rmg__arena_init(&out->arena, ctx, 4096);
    rmg__solve_input in = {0};
    if (base)
        in = *base;
    in.content = f->content;
    in.pack = f->pack;
    in.tpl = f->tpl;
    rmg_rng_seed(&in.rng_types, rmg_rng_derive(seed, "solve", 0));
    rmg_rng_seed(&in.rng_factions, rmg_rng_derive(seed, "solve", 1));
    rmg__solve_out o = {&out->arena, &out->sol, &out->x};
    return rmg__solve_run(ctx, &in, &o);
}

static inline void sfx_solve(sfx *f, uint64_t seed, rmg__solve_input *base, sfx_run *out)
{
    assert_int_equal(sfx_solve_with(f->ctx, f, seed, base, out), RMG_OK);
}

static inline void sfx_run_free(sfx_run *r)
{
    rmg__arena_free(&r->arena);
}

static inline const rmg__zone_solution *sfx_zs(const sfx *f, const sfx_run *r, int id)
{
    long i = rmg__template_find_zone(f->tpl, id);
    assert_true(i >= 0);
    return &r->sol.zones[i];
}

static inline bool sfx_warned(const sfx_run *r, const char *needle)
{
    for (size_t i = 0; i < r->x.warnings.count; i++)
        if (strstr(r->x.warnings.items[i], needle))
            return true;
    return false;
}

static inline void sfx_print_warnings(const sfx_run *r)
{
    for (size_t i = 0; i < r->x.warnings.count; i++)
        printf("  warning: %s\n", r->x.warnings.items[i]);
}

/* Native terrain id of a faction id in the fixture content. */
static inline int sfx_native(const sfx *f, int faction)
{
    for (size_t i = 0; i < f->content->n_factions; i++)
        if (f->content->factions[i].id == faction)
            return f->content->factions[i].native_terrain;
    return -1;
}

#endif
