/*
 * The concrete content of placed objects (issue 8): what a player finds in an object once the
 * objects stage has decided where it stands.
 *
 *   - Spell Pandora's boxes hold every spell of their level range and schools ("all level 3
 *     spells", "all Air spells", OBJ-15 custom ranges) that the bans allow (MIS-25/26): learnable
 *     spells of level 1..5, never Titan's Lightning Bolt or creature abilities. Nothing is drawn.
 *     A custom box whose every spell is banned stays empty with a warning (OBJ-14 bans only the
 *     table's rows before generation).
 *   - Spell Scrolls hold one allowed spell of their level, drawn uniformly: a level-4 scroll never
 *     Town Portal or Water Walk, a level-5 scroll never Dimension Door or Fly, the special scroll
 *     one of those four (OBJ-16).
 *   - Prisons hold one allowed hero (MIS-31) that appears nowhere else on the map, drawn
 *     uniformly. [impl] Heroes a player cannot pick before the game (beyond the first 16 of their
 *     town, MIS-32) are drawn first, so a prison does not take a hero a player may start with;
 *     the source sets no faction rule for prison heroes. How many prisons exist is the stage's
 *     MIS-16 limit; a warning says when the map holds more (mirror copies).
 *   - Resource piles, beside mines (MIS-02) and in zone content, get the game's random pile sizes
 *     [impl: the source gives none]: Wood and Ore 5..10, Gold 500..1000 in steps of 100, the
 *     other resources 3..6.
 *   - Seer's Huts already carry their quest artifact and reward from the stage (MIS-14). A quest
 *     artifact met a second time (only a WAT-03 mirror copy repeats one) is replaced, on the copy
 *     and its hut, by another allowed treasure artifact not on the map (MIS-13: once on the map).
 *   - Objects whose table row has no amount (-1) get amount 0.
 *
 * The pass fills only what is missing, so it can run again: the mirror copy (lib/driver/mirror.c)
 * drops the copies' heroes and runs it once more.
 *
 * Determinism: zone by zone in map zone id order, objects in id order, each zone drawing from
 * rmg__gen_stream(g, "details", zone id); the streams of placement are never touched, so adding
 * or changing a detail does not move a single object.
 */
#include <string.h>

#include "details.h"
#include "solve/solve_internal.h"

/* OBJ-16: the spells of the special scroll, and the ones levels 4 and 5 exclude. */
static const char *const scroll_special[] = {"town_portal", "water_walk", "dimension_door", "fly"};

/* Wood, mercury, ore, sulfur, crystal, gems, gold: pile size ranges (gold in hundreds). */
static const int pile_lo[7] = {5, 3, 5, 3, 3, 3, 5};
static const int pile_hi[7] = {10, 6, 10, 6, 6, 6, 10};

typedef struct details {
    rmg__gen *g;
    struct rmg_map *m;
    const struct rmg_content *c;
    const uint8_t *spell_allowed;   /* NULL: every spell allowed */
    const uint8_t *hero_allowed;    /* NULL: every hero allowed */
    const uint8_t *start_choice;    /* MIS-32, may be NULL */
    const uint8_t *artifact_allowed; /* NULL: every artifact allowed */
    uint8_t *hero_used;
    uint8_t *artifact_used;         /* quest artifacts met so far */
    long *pick;                     /* candidate scratch (spells, heroes or artifacts) */
} details;

void rmg__details_note_entry(rmg__map_object *o, const rmg__eff_entry *e)
{
    o->spell_min = e->spell_min;
    o->spell_max = e->spell_max;
    o->schools = e->schools;
}

void rmg__pandora_spell_range(int spell_min, int spell_max, int schools, int *lo, int *hi, int *mask)
{
    *lo = spell_min >= 1 ? spell_min : 1;
    *hi = spell_max >= *lo ? spell_max : (spell_min >= 1 ? *lo : 5);
    *mask = schools > 0 ? schools : 15;
}

static bool spell_is(const rmg__spell *s, const char *key)
{
    return s->key && strcmp(s->key, key) == 0;
}

static bool special_scroll_spell(const rmg__spell *s)
{
    for (size_t k = 0; k < RMG__ARRAY_LEN(scroll_special); k++)
        if (spell_is(s, scroll_special[k]))
            return true;
    return false;
}

bool rmg__scroll_may_hold(const rmg__spell *s, int scroll_level)
{
    if (scroll_level == 6)
        return special_scroll_spell(s);
    return s->level == scroll_level && !(scroll_level >= 4 && special_scroll_spell(s));
}

void rmg__pile_range(int resource, int *lo, int *hi)
{
    int r = resource >= 0 && resource < 7 ? resource : 0;
    *lo = pile_lo[r];
    *hi = pile_hi[r];
}

/* MIS-25: what a spell ban can touch, and so what objects can hold. */
static bool spell_allowed(const struct rmg_content *c, const uint8_t *allowed, size_t i)
{
    const rmg__spell *s = &c->spells[i];
    return s->learnable && s->level >= 1 && s->level <= 5 && (!allowed || allowed[i]);
}

static bool spell_usable(const details *d, size_t i)
{
    return spell_allowed(d->c, d->spell_allowed, i);
}

static const rmg__object_def *row_of(const details *d, const rmg__map_object *o)
{
    long row = o->key ? rmg__content_find_object(d->c, o->key) : -1;
    return row >= 0 ? &d->c->objects[row] : NULL;
}

static bool family_is(const rmg__object_def *row, const char *family)
{
    return row && row->family && strcmp(row->family, family) == 0;
}

/* A spell Pandora's box of levels lo..hi and school mask `mask` holds s (bans aside). */
static bool box_may_hold(const rmg__spell *s, int lo, int hi, int mask)
{
    return s->level >= lo && s->level <= hi && (s->schools & mask);
}

bool rmg__details_may_hold_spell(const struct rmg_content *c, const uint8_t *allowed, const rmg__object_def *row,
                                 const rmg__eff_entry *e)
{
    bool box = family_is(row, "pandora_spells"), scroll = family_is(row, "spell_scroll");
    if (!box && !scroll)
        return true;
    int lo, hi, mask;
    rmg__pandora_spell_range(e->spell_min, e->spell_max, e->schools, &lo, &hi, &mask);
    for (size_t i = 0; i < c->n_spells; i++) {
        const rmg__spell *sp = &c->spells[i];
        if (!spell_allowed(c, allowed, i))
            continue;
        if (box ? box_may_hold(sp, lo, hi, mask) : rmg__scroll_may_hold(sp, row->spell_level))
            return true;
    }
    return false;
}

static rmg_status pandora_spells(details *d, rmg__map_object *o)
{
    int lo, hi, mask;
    rmg__pandora_spell_range(o->spell_min, o->spell_max, o->schools, &lo, &hi, &mask);
    o->spell_min = lo; /* recorded as resolved (the export shows them) */
    o->spell_max = hi;
    o->schools = mask;
    size_t n = 0;
    for (size_t i = 0; i < d->c->n_spells; i++)
        if (spell_usable(d, i) && box_may_hold(&d->c->spells[i], lo, hi, mask))
            d->pick[n++] = (long)i;
    if (!n)
        return rmg__map_warn(d->m, "object %u (%s): every spell it may hold is banned; left empty (OBJ-14)", o->id,
                             o->key);
    uint16_t *spells = rmg__arena_alloc(&d->m->arena, n * sizeof *spells);
    if (!spells)
        return rmg__error_nomem(d->m->ctx);
    for (size_t k = 0; k < n; k++)
        spells[k] = (uint16_t)d->pick[k];
    o->spells = spells;
    o->n_spells = n;
    return RMG_OK;
}

static rmg_status scroll_spell(details *d, rmg__map_object *o, const rmg__object_def *row, rmg_rng *rng)
{
    size_t n = 0;
    for (size_t i = 0; i < d->c->n_spells; i++)
        if (spell_usable(d, i) && rmg__scroll_may_hold(&d->c->spells[i], row->spell_level))
            d->pick[n++] = (long)i;
    if (!n)
        return rmg__map_warn(d->m, "object %u (%s): every spell it may hold is banned; left empty (OBJ-14)", o->id,
                             o->key);
    o->spell = (int)d->pick[rmg_rng_below(rng, n)];
    return RMG_OK;
}

/* Allowed heroes not on the map yet; with `late`, only those outside the pre-game choice. */
static size_t free_heroes(const details *d, bool late)
{
    size_t n = 0;
    for (size_t i = 0; i < d->c->n_heroes; i++) {
        bool allowed = !d->hero_allowed || d->hero_allowed[i];
        bool chosen_at_start = d->start_choice && d->start_choice[i];
        if (allowed && !d->hero_used[i] && (!late || !chosen_at_start))
            d->pick[n++] = (long)i;
    }
    return n;
}

static rmg_status prison_hero(details *d, rmg__map_object *o, rmg_rng *rng)
{
    size_t n = free_heroes(d, true);
    if (!n)
        n = free_heroes(d, false);
    if (!n)
        return rmg__map_warn(d->m, "object %u (%s): no allowed hero left for the prison (MIS-16, MIS-31)", o->id,
                             o->key);
    long h = d->pick[rmg_rng_below(rng, n)];
    o->hero = (int)h;
    d->hero_used[h] = 1;
    return RMG_OK;
}

/* MIS-13: a quest artifact exists once on the map. Only a WAT-03 copy can repeat one (the stage
 * draws each once): the later one gets another treasure artifact, and so does its Seer's Hut. */
static rmg_status unique_quest_artifact(details *d, rmg__map_object *o, rmg_rng *rng)
{
    if (o->artifact < 0 || (size_t)o->artifact >= d->c->n_artifacts)
        return RMG_OK;
    if (!d->artifact_used[o->artifact]) {
        d->artifact_used[o->artifact] = 1;
        return RMG_OK;
    }
    size_t n = 0;
    for (size_t i = 0; i < d->c->n_artifacts; i++) {
        const rmg__artifact *a = &d->c->artifacts[i];
        bool allowed = !d->artifact_allowed || d->artifact_allowed[i];
        if (allowed && !d->artifact_used[i] && a->cls == RMG_ARTIFACT_TREASURE && !a->combination && a->part_of < 0)
            d->pick[n++] = (long)i;
    }
    if (!n)
        return rmg__map_warn(d->m, "object %u (%s): its quest artifact is already on the map and no other is left (MIS-13)",
                             o->id, o->key);
    long a = d->pick[rmg_rng_below(rng, n)];
    o->artifact = (int)a;
    d->artifact_used[a] = 1;
    rmg__map_object *hut = o->link && o->link <= d->m->objects.count ? &d->m->objects.items[o->link - 1] : NULL;
    if (hut && hut->kind == RMG_OBJECT_SEER_HUT)
        hut->artifact = (int)a;
    return RMG_OK;
}

static void pile_amount(rmg__map_object *o, const rmg__object_def *row, rmg_rng *rng)
{
    int lo, hi;
    rmg__pile_range(row->resource, &lo, &hi);
    int64_t n = rmg_rng_range(rng, lo, hi);
    o->amount = row->resource == 6 ? n * RMG__PILE_GOLD_STEP : n;
}

static rmg_status object_details(details *d, rmg__map_object *o, rmg_rng *rng)
{
    const rmg__object_def *row = row_of(d, o);
    if (o->amount < 0)
        o->amount = 0; /* the table's "no amount" (-1) is not an amount on the map */
    /* What an object already holds stays (the pass only fills what is missing). */
    if ((o->kind == RMG_OBJECT_RESOURCE || o->kind == RMG_OBJECT_TREASURE) && family_is(row, "resource")) {
        if (o->amount <= 0)
            pile_amount(o, row, rng);
        return RMG_OK;
    }
    if (o->kind != RMG_OBJECT_TREASURE || !row)
        return RMG_OK;
    if (family_is(row, "pandora_spells") && !o->n_spells)
        return pandora_spells(d, o);
    if (family_is(row, "spell_scroll") && o->spell < 0)
        return scroll_spell(d, o, row, rng);
    if (family_is(row, "prison") && o->hero < 0)
        return prison_hero(d, o, rng);
    if (row->family && strncmp(row->family, "seer_artifact_", 14) == 0)
        return unique_quest_artifact(d, o, rng);
    return RMG_OK;
}

static rmg_status zone_details(details *d, int zone)
{
    rmg_rng rng;
    rmg__gen_stream(d->g, "details", (uint64_t)zone, &rng);
    for (size_t i = 0; i < d->m->objects.count; i++) {
        rmg__map_object *o = &d->m->objects.items[i];
        if (o->zone != zone)
            continue;
        rmg_status st = object_details(d, o, &rng);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* Heroes already on the map (a pass run twice, or prisons made by another stage). */
static void note_used_heroes(details *d)
{
    for (size_t i = 0; i < d->m->objects.count; i++) {
        int h = d->m->objects.items[i].hero;
        if (h >= 0 && (size_t)h < d->c->n_heroes)
            d->hero_used[h] = 1;
    }
}

/* MIS-16 counts every prison on the map; the stage keeps to it, but a WAT-03 copy doubles the
 * surface's prisons after it. Said, not undone: the copy is the template's request. */
static rmg_status check_prison_limit(details *d)
{
    if (!d->hero_allowed)
        return RMG_OK; /* no solve stage: no limit known */
    long prisons = 0;
    for (size_t i = 0; i < d->m->objects.count; i++)
        prisons += d->m->objects.items[i].hero >= 0;
    if (prisons <= d->g->sol.prisons_max)
        return RMG_OK;
    return rmg__map_warn(d->m, "%ld prisons exceed the free-hero limit of %d prisons (MIS-16; mirror copies count)",
                         prisons, d->g->sol.prisons_max);
}

rmg_status rmg__objects_details(rmg__gen *g)
{
    if (!g || !g->ctx || !g->map || !g->content)
        return RMG_ERR_INVALID_ARG;
    const rmg__solve_extra *x = rmg__solve_extra_of(g);
    details d = {g, g->map, g->content, g->sol.spell_allowed, g->sol.hero_allowed,
                 x ? x->hero_start_choice : NULL, g->sol.artifact_allowed, NULL, NULL, NULL};
    size_t most = RMG__MAX(RMG__MAX(d.c->n_spells, d.c->n_heroes), d.c->n_artifacts);
    d.hero_used = rmg__calloc(g->ctx, d.c->n_heroes + 1, 1);
    d.artifact_used = rmg__calloc(g->ctx, d.c->n_artifacts + 1, 1);
    d.pick = rmg__calloc(g->ctx, most + 1, sizeof *d.pick);
    rmg_status st = d.hero_used && d.artifact_used && d.pick ? RMG_OK : rmg__error_nomem(g->ctx);
    if (st == RMG_OK)
        note_used_heroes(&d);
    for (size_t zi = 0; zi < d.m->zones.count && st == RMG_OK; zi++)
        st = zone_details(&d, d.m->zones.items[zi].id);
    if (st == RMG_OK)
        st = check_prison_limit(&d);
    rmg__free(g->ctx, d.hero_used);
    rmg__free(g->ctx, d.artifact_used);
    rmg__free(g->ctx, d.pick);
    return st;
}
