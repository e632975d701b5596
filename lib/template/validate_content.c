/*
 * Validation against the game content: object rules that name objects, families or creatures
 * the content does not know (they would silently do nothing), and treasure ranges with totals
 * that no object can start a group for (TRS-10), and zones whose treasure densities ask for more
 * groups than a zone can hold (TRS-11 style). Registered in the check table of validate.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_internal.h"
#include "objects/objects_internal.h"
#include "validate.h"

/* The content used by the checks; NULL when it cannot be loaded (the checks are skipped,
 * except for an allocation failure, which fails the validation). */
static const struct rmg_content *content_of(rmg__checker *ck)
{
    rmg_context *ctx = ck->pack->ctx;
    const struct rmg_content *c = rmg__content_get(ctx);
    if (!c && rmg_context_errcode(ctx) == RMG_ERR_NOMEM && ck->status == RMG_OK)
        ck->status = RMG_ERR_NOMEM;
    return c;
}

static bool family_known(const struct rmg_content *c, const char *family)
{
    for (size_t i = 0; i < c->n_objects; i++)
        if (rmg__family_matches(&c->objects[i], family))
            return true;
    return false;
}

/* Whether rule r names something the ruleset's variant left out (a HotA object, creature or
 * family on a SoD map): such a rule changes nothing on this game's maps (issue 30). */
static const char *left_out_name(const struct rmg_content *c, const rmg__rule *r, int *kind)
{
    if (r->object && r->target == RMG_TARGET_OBJECT && rmg__content_find_object(c, r->object) < 0 &&
        rmg__content_left_out(c, RMG_CONTENT_OBJECT, r->object)) {
        *kind = 0;
        return r->object;
    }
    if (r->family && r->target != RMG_TARGET_OBJECT && !family_known(c, r->family) &&
        rmg__content_family_left_out(c, r->family)) {
        *kind = 2;
        return r->family;
    }
    if (r->creature && r->target == RMG_TARGET_CREATURE && rmg__content_find_creature(c, r->creature) < 0 &&
        rmg__content_left_out(c, RMG_CONTENT_CREATURE, r->creature)) {
        *kind = 1;
        return r->creature;
    }
    return NULL;
}

static void check_rule_keys(rmg__checker *ck, const struct rmg_content *c, const rmg__rule *r, int zone)
{
    int kind;
    if (left_out_name(c, r, &kind))
        return; /* dropped: rmg__check_rule_names reports them once */
    if (r->object && r->target == RMG_TARGET_OBJECT && rmg__content_find_object(c, r->object) < 0)
        rmg__check_report(ck, RMG_SEVERITY_ERROR, "rule-unknown", &r->loc, zone, -1,
                          "object rule names the unknown object '%s'", r->object);
    if (r->family && r->target != RMG_TARGET_OBJECT && !family_known(c, r->family))
        rmg__check_report(ck, RMG_SEVERITY_ERROR, "rule-unknown", &r->loc, zone, -1,
                          "object rule names the unknown family '%s'", r->family);
    if (r->creature && r->target == RMG_TARGET_CREATURE && rmg__content_find_creature(c, r->creature) < 0)
        rmg__check_report(ck, RMG_SEVERITY_ERROR, "rule-unknown", &r->loc, zone, -1,
                          "object rule names the unknown creature '%s'", r->creature);
}

/* The names a list of rules gives that the variant left out, each once, by kind. */
typedef struct dropped_names {
    RMG__VEC(const char *) names[3]; /* objects, creatures, families */
    const rmg__rule *first;
    bool nomem;
} dropped_names;

static void collect_dropped(rmg_context *ctx, const struct rmg_content *c, const rmg__rule_list *rules,
                            dropped_names *d)
{
    for (size_t i = 0; i < rules->count && !d->nomem; i++) {
        int kind;
        const char *name = left_out_name(c, &rules->items[i], &kind);
        if (!name)
            continue;
        if (!d->first)
            d->first = &rules->items[i];
        bool seen = false;
        for (size_t k = 0; k < d->names[kind].count && !seen; k++)
            seen = strcmp(d->names[kind].items[k], name) == 0;
        if (!seen && !RMG__VEC_PUSH(ctx, &d->names[kind], name))
            d->nomem = true;
    }
}

rmg_status rmg__template_dropped_rules(rmg_context *ctx, const struct rmg_content *c, const rmg__template *t,
                                       char **text, const rmg__srcloc **loc)
{
    *text = NULL;
    if (loc)
        *loc = NULL;
    if (!c)
        return RMG_OK;
    bool any = false;
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT && !any; kind++)
        any = c->n_left_out[kind] > 0;
    if (!any)
        return RMG_OK; /* the common case: nothing was left out (a HotA ruleset) */
    dropped_names d;
    memset(&d, 0, sizeof d);
    collect_dropped(ctx, c, &t->rules, &d);
    for (size_t z = 0; z < t->n_zones; z++)
        collect_dropped(ctx, c, &t->zones[z].rules, &d);
    rmg_status st = d.nomem ? rmg__error_nomem(ctx) : RMG_OK;
    if (st == RMG_OK && d.first) {
        static const char *const what[3] = {"objects", "creatures", "families"};
        rmg__buf b;
        rmg__buf_init(&b, ctx);
        rmg__buf_printf(&b, "object rules naming what the %s ruleset lacks are dropped (they change nothing on its "
                        "maps):", c->variant == RMG_CONTENT_SOD ? "SoD" : c->name ? c->name : "chosen");
        for (int kind = 0, parts = 0; kind < 3; kind++) {
            if (!d.names[kind].count)
                continue;
            rmg__buf_printf(&b, "%s %s", parts++ ? ";" : "", what[kind]);
            for (size_t k = 0; k < d.names[kind].count; k++)
                rmg__buf_printf(&b, "%s %s", k ? "," : "", d.names[kind].items[k]);
        }
        if (!(*text = rmg__buf_take(&b)))
            st = rmg__error_nomem(ctx);
        if (loc)
            *loc = &d.first->loc;
    }
    for (int kind = 0; kind < 3; kind++)
        RMG__VEC_FREE(ctx, &d.names[kind]);
    return st;
}

void rmg__check_rule_names(rmg__checker *ck, const rmg__template *t)
{
    const struct rmg_content *c = content_of(ck);
    if (!c)
        return;
    for (size_t i = 0; i < t->rules.count; i++)
        check_rule_keys(ck, c, &t->rules.items[i], -1);
    for (size_t z = 0; z < t->n_zones; z++)
        for (size_t i = 0; i < t->zones[z].rules.count; i++)
            check_rule_keys(ck, c, &t->zones[z].rules.items[i], t->zones[z].id);
    char *text = NULL;
    const rmg__srcloc *loc = NULL;
    rmg_status st = rmg__template_dropped_rules(ck->pack->ctx, c, t, &text, &loc);
    if (st != RMG_OK)
        ck->status = st;
    else if (text)
        rmg__check_report(ck, RMG_SEVERITY_WARNING, "rule-dropped", loc, -1, -1, "%s", text);
    rmg__free(ck->pack->ctx, text);
}

/* ---- TRS-10 ----------------------------------------------------------------------------------- */

#define LAND_TERRAINS (~((1u << RMG_TERRAIN_WATER) | (1u << RMG_TERRAIN_ROCK)))

/* Values of the objects that can always start a group: in L_Z, unlimited per map and zone,
 * with a fixed value (creature objects depend on the zone's faction and are left out), and
 * generated on at least one terrain the zone may get (the terrain is chosen later, so this is
 * the optimistic reading). */
static size_t starter_values(const rmg__eff_list *l, uint32_t zone_terrains, int64_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < l->items.count; i++) {
        const rmg__eff_entry *e = &l->items.items[i];
        const rmg__object_def *d = &l->content->objects[e->obj];
        if (!e->present || e->value < 0 || e->frequency <= 0 || e->max_map != RMG__UNLIMITED ||
            e->max_zone != RMG__UNLIMITED || !(d->terrains & zone_terrains))
            continue;
        out[n++] = e->value;
    }
    return n;
}

static int compare_values(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Totals v in [lo, hi] with no starter x such that x <= v <= 4x (TRS-04's first pick from
 * [v/4, v]): reports each maximal gap once. `values` is sorted. */
static void report_gaps(rmg__checker *ck, const rmg__zone *z, int tier, const int64_t *values, size_t n)
{
    const rmg__treasure *tr = &z->treasure[tier];
    int64_t next = tr->min; /* the smallest total not known to be covered */
    for (size_t i = 0; i <= n && next <= tr->max; i++) {
        int64_t from = i < n ? values[i] : tr->max + 1;
        if (from > next) {
            int64_t gap_end = RMG__MIN(from - 1, tr->max);
            rmg__check_report(ck, RMG_SEVERITY_WARNING, "treasure-starved", &z->loc, z->id, -1,
                              "treasure range %d (%lld..%lld): no object can start a group worth %lld..%lld (TRS-10)",
                              tier + 1, (long long)tr->min, (long long)tr->max, (long long)next, (long long)gap_end);
        }
        if (i < n && values[i] <= INT64_MAX / 4)
            next = RMG__MAX(next, 4 * values[i] + 1);
        else if (i < n)
            next = INT64_MAX;
    }
}

static bool range_used(const rmg__treasure *tr)
{
    return tr->density > 0 && tr->max > 0 && tr->min <= tr->max;
}

/* Records a failure of the object lists: an allocation failure fails the validation; a rule the
 * lists refuse ends the check quietly (the rule checks say why). */
static void list_failed(rmg__checker *ck, rmg_status st)
{
    if (st == RMG_ERR_NOMEM)
        ck->status = st;
    else
        rmg_context_clear_error(ck->pack->ctx);
}

/* L_Z (RUL-04) from the template's L_map, with the caps of OBJ-07, and its starter values. */
static void check_zone_treasure(rmg__checker *ck, const rmg__eff_list *lmap, const rmg__template *t, size_t zi)
{
    const rmg__zone *z = &t->zones[zi];
    if (!range_used(&z->treasure[0]) && !range_used(&z->treasure[1]) && !range_used(&z->treasure[2]))
        return;
    rmg__eff_list l;
    rmg_status st = rmg__eff_copy(lmap, &l);
    if (st == RMG_OK && (st = rmg__eff_apply_rules(&l, &z->rules, lmap, true, ck->pack->file)) != RMG_OK)
        rmg__eff_free(&l);
    if (st != RMG_OK) {
        list_failed(ck, st);
        return;
    }
    rmg__eff_apply_caps(&l);
    int64_t *values = rmg__check_alloc(ck, l.items.count, sizeof *values);
    if (values) {
        uint32_t terrains = z->allowed_terrains ? z->allowed_terrains & LAND_TERRAINS : LAND_TERRAINS;
        size_t n = starter_values(&l, terrains, values);
        qsort(values, n, sizeof *values, compare_values);
        for (int k = 0; k < 3; k++)
            if (range_used(&z->treasure[k]))
                report_gaps(ck, z, k, values, n);
    }
    rmg__eff_free(&l);
}

void rmg__check_treasure_starvation(rmg__checker *ck, const rmg__template *t)
{
    const struct rmg_content *c = content_of(ck);
    if (!c)
        return;
    /* L_map once per template, uncapped as zone rules need it (RUL-07). */
    rmg__eff_list lmap;
    rmg_status st = rmg__eff_init(ck->pack->ctx, c, &lmap);
    if (st == RMG_OK && (st = rmg__eff_apply_rules(&lmap, &t->rules, NULL, false, ck->pack->file)) != RMG_OK)
        rmg__eff_free(&lmap);
    if (st != RMG_OK) {
        list_failed(ck, st);
        return;
    }
    for (size_t zi = 0; zi < t->n_zones && ck->status == RMG_OK; zi++)
        check_zone_treasure(ck, &lmap, t, zi);
    rmg__eff_free(&lmap);
}

/* ---- rules without effect (RUL-04/05, RUL-07, RUL-10, RUL-12) -------------------------------- */

/* "'+63 0 d d d d'" as written, else what it targets. */
static void rule_name(const rmg__rule *r, char *buf, size_t len)
{
    const char *op = r->op == RMG_RULE_FORBID ? "forbid" : "allow";
    if (r->raw)
        snprintf(buf, len, "'%s'", r->raw);
    else if (r->target == RMG_TARGET_ALL)
        snprintf(buf, len, "%s all", op);
    else if (r->target == RMG_TARGET_CREATURE_LEVEL)
        snprintf(buf, len, "%s %s level %d", op, r->family ? r->family : "creature objects", r->level);
    else
        snprintf(buf, len, "%s %s", op,
                 r->object ? r->object : r->creature ? r->creature : r->family ? r->family : "?");
}

/* A warning for each allow of `rules` that a later forbid undoes (the guide: "if you put 'forbid
 * all' at the end of the list, every object is forbidden whatever else it holds"), and for each
 * rule that names a mine or the airship yard (RUL-10: they follow other settings). A forbid that
 * a later allow undoes is the guide's own recipe ("forbid all, then allow a few"), and rules
 * that repeat what the list holds (HotA templates restate the template rules in every zone)
 * change nothing harmful: both are left alone. */
static bool not_content_family(const char *family)
{
    return family && (strcmp(family, "mine") == 0 || strcmp(family, "mines") == 0 ||
                      strcmp(family, "airship_yard") == 0 || strcmp(family, "airship_yards") == 0);
}

/* A rule naming a mine or the airship yard, which are no zone content (RUL-10). */
static bool names_no_content(const struct rmg_content *c, const rmg__rule *r)
{
    if (r->target == RMG_TARGET_FAMILY)
        return not_content_family(r->family);
    long row = r->target == RMG_TARGET_OBJECT && r->object ? rmg__content_find_object(c, r->object) : -1;
    return row >= 0 && not_content_family(c->objects[row].family);
}

static void report_rule_effects(rmg__checker *ck, const struct rmg_content *c, const rmg__rule_list *rules,
                                const rmg__rule_effect *fx, int zone)
{
    for (size_t k = 0; k < rules->count; k++) {
        const rmg__rule *r = &rules->items[k];
        if (fx[k].effective)
            continue;
        char name[120], later[120];
        rule_name(r, name, sizeof name);
        const char *where = zone >= 0 ? "zone" : "template";
        if (!fx[k].matched && names_no_content(c, r))
            rmg__check_report(ck, RMG_SEVERITY_WARNING, "rule-no-effect", &r->loc, zone, -1,
                              "%s object rule %zu (%s) has no effect: it names no object the rules govern (RUL-10: "
                              "towns, mines and airship yards follow other settings)",
                              where, k + 1, name);
        else if (fx[k].changed && fx[k].undone_by >= 0 && r->op == RMG_RULE_ALLOW &&
                 rules->items[fx[k].undone_by].op == RMG_RULE_FORBID) {
            const rmg__rule *u = &rules->items[fx[k].undone_by];
            rule_name(u, later, sizeof later);
            rmg__check_report(ck, RMG_SEVERITY_WARNING, "rule-no-effect", &r->loc, zone, -1,
                              "%s object rule %zu (%s) has no effect: the later rule %ld (%s, line %d) undoes it "
                              "(RUL-04: rules apply in order)",
                              where, k + 1, name, fx[k].undone_by + 1, later, u->loc.line);
        }
    }
}

static void check_list_effects(rmg__checker *ck, const rmg__eff_list *base, const rmg__rule_list *rules,
                               const rmg__eff_list *ref, int zone)
{
    if (!rules->count)
        return;
    rmg__rule_effect *fx = rmg__check_alloc(ck, rules->count, sizeof *fx);
    if (!fx)
        return;
    rmg_status st = rmg__eff_rule_effects(base, rules, ref, ref != NULL, fx);
    if (st != RMG_OK)
        list_failed(ck, st);
    else
        report_rule_effects(ck, base->content, rules, fx, zone);
}

void rmg__check_rule_effects(rmg__checker *ck, const rmg__template *t)
{
    const struct rmg_content *c = content_of(ck);
    if (!c)
        return;
    rmg__eff_list l0, lmap;
    rmg_status st = rmg__eff_init(ck->pack->ctx, c, &l0);
    if (st != RMG_OK) {
        list_failed(ck, st);
        return;
    }
    check_list_effects(ck, &l0, &t->rules, NULL, -1);
    st = ck->status == RMG_OK ? rmg__eff_copy(&l0, &lmap) : ck->status;
    if (st == RMG_OK && (st = rmg__eff_apply_rules(&lmap, &t->rules, NULL, false, ck->pack->file)) != RMG_OK)
        rmg__eff_free(&lmap);
    rmg__eff_free(&l0);
    if (st != RMG_OK) {
        list_failed(ck, st);
        return;
    }
    for (size_t zi = 0; zi < t->n_zones && ck->status == RMG_OK; zi++)
        check_list_effects(ck, &lmap, &t->zones[zi].rules, &lmap, t->zones[zi].id);
    rmg__eff_free(&lmap);
}

/* ---- crowded zones (TRS-03, TRS-11) ---------------------------------------------------------- */

/* The objects stage asks for density x area / RMG__TRS_AREA_PER_DENSITY groups, so a zone's
 * tiles per requested group are RMG__TRS_AREA_PER_DENSITY / (sum of its densities) at every
 * map size. Measured on the corpus, zones asking fewer than 20 tiles per group get less than
 * half of it placed (a guarded group with its guard slot and access takes about 30). */
#define RMG__CHECK_MIN_TILES_PER_GROUP 20

void rmg__check_treasure_crowding(rmg__checker *ck, const rmg__template *t)
{
    for (size_t zi = 0; zi < t->n_zones; zi++) {
        const rmg__zone *z = &t->zones[zi];
        int64_t density = 0;
        for (int k = 0; k < 3; k++)
            if (range_used(&z->treasure[k]))
                density += z->treasure[k].density;
        if (density * RMG__CHECK_MIN_TILES_PER_GROUP > RMG__TRS_AREA_PER_DENSITY)
            rmg__check_report(ck, RMG_SEVERITY_WARNING, "treasure-crowded", &z->loc, z->id, -1,
                              "treasure densities add up to %lld: one group per %.1f tiles of the zone is asked "
                              "(a density unit is a group per %d tiles), more than a zone can hold; expect fewer "
                              "groups (TRS-03)",
                              (long long)density, (double)RMG__TRS_AREA_PER_DENSITY / (double)density,
                              RMG__TRS_AREA_PER_DENSITY);
    }
}
