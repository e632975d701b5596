/*
 * Effective object lists (RUL-04..12, OBJ-04..20).
 *
 * Creature objects are expanded into one entry per creature, so rules for one creature or one
 * creature level (RUL-09) edit exactly the matching entries:
 *   - rows naming their creatures (creature_dwelling_estate: the Vampire,
 *     creature_dwelling_hovel: the Peasant): those creatures;
 *   - creature_dwelling: every creature (level 1..7, not special) with a dwelling map object in
 *     the content, except those a row above names;
 *   - pandora_creatures, seer_artifact_creatures: every base (not upgraded, not special)
 *     creature of level 1..7.
 * A creature's dwelling graphics variants are one entry: limits shared, the configured frequency
 * split over the variants adds back up to the configured frequency (OBJ-11).
 * Composite dwellings stay one entry each (their value comes from their creatures, CRE-03).
 *
 * Rule targets (RUL-03) and the groups supported by RMG_TARGET_FAMILY:
 *   all                      every entry (forbid clears the list; allow adds every row but mines
 *                            and the airship yard, banned-by-default rows included)
 *   <family>                 a family of object-defaults.tsv: regular, creature_bank,
 *                            pandora_spells, pandora_experience, pandora_gold, pandora_creatures,
 *                            keymaster_tent, cartographer, creature_dwelling, composite_dwelling,
 *                            hill_fort, observation_tower, prison, resource,
 *                            seer_artifact_creatures, seer_artifact_experience, seer_artifact_gold,
 *                            spell_scroll, war_machine_seller, resource_warehouse
 *   pandora                  every Pandora's Box (pandora_* families)
 *   seer_artifact            every Seer's Hut artifact (seer_artifact_* families)
 *   dwelling                 creature_dwelling and composite_dwelling
 *   creature_object          dwellings, composite dwellings, creature Pandora's boxes and
 *                            creature Seer's Hut artifacts
 *   random_artifact          the four random artifact rows
 *   shrine                   the four Shrines of Magic
 *   mine, airship_yard       nothing (RUL-10: not content)
 * Plural spellings (creature_banks, resources, prisons, ...) are accepted too.
 */
#include <string.h>

#include "objects_internal.h"

bool rmg__obj_is_creature_object(const rmg__object_def *d)
{
    return d->value == RMG__VALUE_FORMULA;
}

static bool is_not_content(const rmg__object_def *d)
{
    return strcmp(d->family, "mine") == 0 || strcmp(d->family, "airship_yard") == 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "creature_banks" -> compares as "creature_bank". */
static bool same_name(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n == m)
        return strcmp(a, b) == 0;
    return n == m + 1 && a[m] == 's' && strncmp(a, b, m) == 0;
}

bool rmg__family_matches(const rmg__object_def *d, const char *group)
{
    if (!group || is_not_content(d))
        return false;
    if (same_name(group, d->family) || strcmp(group, "all") == 0)
        return true;
    if (same_name(group, "pandora") || same_name(group, "pandoras_box") || same_name(group, "pandora_box"))
        return starts_with(d->family, "pandora_");
    if (same_name(group, "seer_artifact") || same_name(group, "seer_hut"))
        return starts_with(d->family, "seer_artifact_");
    if (same_name(group, "dwelling"))
        return strcmp(d->family, "creature_dwelling") == 0 || strcmp(d->family, "composite_dwelling") == 0;
    if (same_name(group, "creature_object"))
        return rmg__obj_is_creature_object(d);
    if (same_name(group, "random_artifact"))
        return starts_with(d->key, "random_") && ends_with(d->key, "_artifact");
    if (same_name(group, "shrine"))
        return starts_with(d->key, "shrine_of_magic_");
    return false;
}

/* True if some other creature_dwelling row names creature c (the Estate, the Hovel). */
static bool own_dwelling_row(const struct rmg_content *content, long c)
{
    for (size_t i = 0; i < content->n_objects; i++) {
        const rmg__object_def *d = &content->objects[i];
        for (int k = 0; k < d->n_creatures && k < 4; k++)
            if (d->creatures[k] == c && strcmp(d->family, "creature_dwelling") == 0)
                return true;
    }
    return false;
}

/* True if the content has a dwelling map object for creature c. */
static bool has_dwelling(const struct rmg_content *content, long c)
{
    for (size_t i = 0; i < content->n_map_objects; i++) {
        const rmg__object_def *d = &content->map_objects[i];
        if (d->n_creatures >= 1 && d->creatures[0] == c && strcmp(d->family, "creature_dwelling") == 0)
            return true;
    }
    return false;
}

/* Which creatures a creature object row expands to (see the file comment). */
static bool creature_fits_row(const struct rmg_content *content, const rmg__object_def *d, long c)
{
    const rmg__creature *cr = &content->creatures[c];
    if (cr->special || cr->level < 1 || cr->level > 7)
        return false;
    if (d->n_creatures > 0) {
        for (int k = 0; k < d->n_creatures && k < 4; k++)
            if (d->creatures[k] == c)
                return true;
        return false;
    }
    if (strcmp(d->family, "creature_dwelling") == 0)
        return has_dwelling(content, c) && !own_dwelling_row(content, c);
    return cr->upgrade_of < 0;
}

static bool expands_per_creature(const rmg__object_def *d)
{
    return rmg__obj_is_creature_object(d) && strcmp(d->family, "composite_dwelling") != 0;
}

static void entry_from_row(rmg__eff_entry *e, const rmg__object_def *d, long obj, long creature)
{
    memset(e, 0, sizeof *e);
    e->obj = (int32_t)obj;
    e->creature = (int32_t)creature;
    e->present = !d->banned_by_default;
    e->value = d->value;
    e->frequency = d->frequency;
    e->max_map = d->max_map;
    e->max_zone = d->max_zone;
    e->amount = d->amount;
    e->spell_min = d->spell_level;
    e->spell_max = d->spell_level_max;
    e->schools = d->school_mask;
}

rmg_status rmg__eff_init(rmg_context *ctx, const struct rmg_content *content, rmg__eff_list *out)
{
    memset(out, 0, sizeof *out);
    out->ctx = ctx;
    out->content = content;
    for (size_t i = 0; i < content->n_objects; i++) {
        const rmg__object_def *d = &content->objects[i];
        if (is_not_content(d))
            continue;
        rmg__eff_entry e;
        if (!expands_per_creature(d)) {
            entry_from_row(&e, d, (long)i, -1);
            if (!RMG__VEC_PUSH(ctx, &out->items, e))
                goto nomem;
            continue;
        }
        for (size_t c = 0; c < content->n_creatures; c++) {
            if (!creature_fits_row(content, d, (long)c))
                continue;
            entry_from_row(&e, d, (long)i, (long)c);
            if (!RMG__VEC_PUSH(ctx, &out->items, e))
                goto nomem;
        }
    }
    return RMG_OK;
nomem:
    rmg__eff_free(out);
    return rmg__error_nomem(ctx);
}

rmg_status rmg__eff_copy(const rmg__eff_list *src, rmg__eff_list *out)
{
    memset(out, 0, sizeof *out);
    out->ctx = src->ctx;
    out->content = src->content;
    if (src->items.count == 0)
        return RMG_OK;
    if (!rmg__vec_grow(src->ctx, (void **)&out->items.items, &out->items.cap, src->items.count,
                       sizeof *out->items.items))
        return rmg__error_nomem(src->ctx);
    memcpy(out->items.items, src->items.items, src->items.count * sizeof *src->items.items);
    out->items.count = src->items.count;
    return RMG_OK;
}

void rmg__eff_free(rmg__eff_list *list)
{
    if (list && list->ctx)
        RMG__VEC_FREE(list->ctx, &list->items);
}

/* ---- rule application ------------------------------------------------------------------------- */

static bool is_default(int64_t v)
{
    return v == RMG__PARAM_DEFAULT;
}

/* A rule's cap parameter in list terms. */
static int64_t cap_param(int64_t v)
{
    return v == RMG__PARAM_UNLIMITED || v < 0 ? RMG__UNLIMITED : v;
}

typedef struct rule_env {
    rmg__eff_list *list;
    const rmg__eff_list *ref;     /* L_map for zone rules, NULL for template rules */
    const rmg__rule *rule;
    bool zone_level;
} rule_env;

static const rmg__object_def *def_of(const rmg__eff_list *l, const rmg__eff_entry *e)
{
    return &l->content->objects[e->obj];
}

/* RUL-07: where a `default` parameter comes from when the object is added. */
static const rmg__eff_entry *default_source(const rule_env *env, size_t i, rmg__eff_entry *tsv)
{
    const rmg__eff_entry *e = &env->list->items.items[i];
    if (env->ref && i < env->ref->items.count && env->ref->items.items[i].present)
        return &env->ref->items.items[i];
    entry_from_row(tsv, def_of(env->list, e), e->obj, e->creature);
    return tsv;
}

/* RUL-06/07 on entry i. Creature objects keep their formula value (OBJ-06, RUL-09). */
static void allow_entry(const rule_env *env, size_t i)
{
    rmg__eff_entry *e = &env->list->items.items[i];
    const rmg__rule *r = env->rule;
    if (!e->present && !e->custom) {
        rmg__eff_entry tsv;
        const rmg__eff_entry *src = default_source(env, i, &tsv);
        e->value = src->value;
        e->frequency = src->frequency;
        e->max_map = src->max_map;
        e->max_zone = src->max_zone;
    }
    e->present = true;
    if (!is_default(r->value) && r->value >= 0 && !rmg__obj_is_creature_object(def_of(env->list, e)))
        e->value = r->value;
    if (!is_default(r->frequency) && r->frequency >= 0)
        e->frequency = r->frequency;
    if (!is_default(r->max_map) && !env->zone_level)
        e->max_map = cap_param(r->max_map);
    if (!is_default(r->max_zone))
        e->max_zone = cap_param(r->max_zone);
}

static bool entry_matches(const rule_env *env, const rmg__eff_entry *e)
{
    const rmg__rule *r = env->rule;
    const rmg__object_def *d = def_of(env->list, e);
    const struct rmg_content *c = env->list->content;
    if (e->custom && r->target != RMG_TARGET_ALL && r->target != RMG_TARGET_FAMILY)
        return false;
    switch (r->target) {
    case RMG_TARGET_ALL:
        return true;
    case RMG_TARGET_OBJECT:
        return r->object && strcmp(r->object, d->key) == 0;
    case RMG_TARGET_FAMILY:
        return rmg__family_matches(d, r->family);
    case RMG_TARGET_CREATURE:
        if (e->creature < 0 || !r->creature || strcmp(c->creatures[e->creature].key, r->creature) != 0)
            return false;
        return !r->family || rmg__family_matches(d, r->family) || strcmp(r->family, d->key) == 0;
    case RMG_TARGET_CREATURE_LEVEL:
        if (e->creature < 0 || c->creatures[e->creature].level != r->level)
            return false;
        return !r->family || rmg__family_matches(d, r->family) || strcmp(r->family, d->key) == 0;
    case RMG_TARGET_CUSTOM:
        return false;
    }
    return false;
}

/* ---- custom variants (OBJ-15) ---------------------------------------------------------------- */

static long family_row(const struct rmg_content *c, const char *family)
{
    for (size_t i = 0; i < c->n_objects; i++)
        if (family && strcmp(c->objects[i].family, family) == 0)
            return (long)i;
    return -1;
}

static bool same_custom(const rmg__eff_entry *e, long row, const rmg__rule *r)
{
    return e->custom && e->obj == row && e->amount == r->amount && e->spell_min == r->spell_min &&
           e->spell_max == r->spell_max && e->schools == r->schools;
}

static rmg_status rule_error(const rule_env *env, const char *file, const char *what)
{
    const rmg__rule *r = env->rule;
    return rmg__error_at(env->list->ctx, RMG_ERR_INVALID_DATA, file, r->loc.line, r->loc.column,
                         "object rule %s: %s", r->raw ? r->raw : "(custom variant)", what);
}

static rmg_status apply_custom(rule_env *env, const char *file)
{
    const rmg__rule *r = env->rule;
    rmg__eff_list *l = env->list;
    long row = family_row(l->content, r->family);
    if (row < 0)
        return rule_error(env, file, "unknown family for a custom variant");
    for (size_t i = 0; i < l->items.count; i++) {
        if (!same_custom(&l->items.items[i], row, r))
            continue;
        if (r->op == RMG_RULE_FORBID)
            l->items.items[i].present = false;
        else
            allow_entry(env, i);
        return RMG_OK;
    }
    if (r->op == RMG_RULE_FORBID)
        return RMG_OK; /* RUL-12 */
    if (is_default(r->value) || is_default(r->frequency) || is_default(r->max_zone) ||
        (!env->zone_level && is_default(r->max_map)))
        return rule_error(env, file, "a custom variant has no defaults: every parameter must be given (OBJ-15)");
    rmg__eff_entry e;
    entry_from_row(&e, &l->content->objects[row], row, -1);
    e.custom = true;
    e.present = true;
    e.value = r->value;
    e.frequency = r->frequency;
    e.max_map = env->zone_level ? l->content->objects[row].max_map : cap_param(r->max_map);
    e.max_zone = cap_param(r->max_zone);
    e.amount = r->amount;
    e.spell_min = r->spell_min;
    e.spell_max = r->spell_max;
    e.schools = r->schools;
    if (!RMG__VEC_PUSH(l->ctx, &l->items, e))
        return rmg__error_nomem(l->ctx);
    return RMG_OK;
}

/* RUL-10, as the guide puts it: forbidding tents or quest artifacts in the template rules takes
 * them out of L_map, so no zone generates them, nor the huts and rewards they bring, unless a
 * zone's own rules allow them again (RUL-07: a zone rule adds any object, with the built-in
 * defaults when L_map lacks it). No rule locks an object; `rmg check` reports rules that end
 * up changing nothing (rmg__eff_rule_effects). */

/* The fields of an entry a rule can change, for rmg__eff_rule_effects. */
enum { F_PRESENT, F_VALUE, F_FREQUENCY, F_MAX_MAP, F_MAX_ZONE, N_FIELDS };

static void entry_fields(const rmg__eff_entry *e, int64_t out[N_FIELDS])
{
    out[F_PRESENT] = e->present;
    out[F_VALUE] = e->value;
    out[F_FREQUENCY] = e->frequency;
    out[F_MAX_MAP] = e->max_map;
    out[F_MAX_ZONE] = e->max_zone;
}

/* Which rule last changed each field of each entry (index + 1, 0 none), and what each rule did. */
typedef struct eff_trace {
    uint32_t *setter;             /* per entry x N_FIELDS */
    size_t n_entries;
    rmg__rule_effect *effects;    /* per rule */
} eff_trace;

/* Records rule k's changes to entry i (its fields were `before`). */
static void trace_change(eff_trace *tr, size_t k, size_t i, const int64_t before[N_FIELDS], const rmg__eff_entry *e)
{
    if (!tr || i >= tr->n_entries)
        return;
    int64_t after[N_FIELDS];
    entry_fields(e, after);
    if (before[F_PRESENT] && !after[F_PRESENT]) /* a forbid voids every setting of the entry */
        for (int f = F_VALUE; f < N_FIELDS; f++) {
            uint32_t who = tr->setter[i * N_FIELDS + (size_t)f];
            if (who)
                tr->effects[who - 1].undone_by = (long)k;
        }
    for (int f = 0; f < N_FIELDS; f++) {
        if (after[f] == before[f])
            continue;
        uint32_t *who = &tr->setter[i * N_FIELDS + (size_t)f];
        if (*who)
            tr->effects[*who - 1].undone_by = (long)k;
        *who = (uint32_t)k + 1;
        tr->effects[k].changed = true;
    }
}

static rmg_status apply_rules(rmg__eff_list *list, const rmg__rule_list *rules, const rmg__eff_list *ref,
                              bool zone_level, const char *file, eff_trace *tr)
{
    for (size_t k = 0; k < rules->count; k++) {
        rule_env env = {list, ref, &rules->items[k], zone_level};
        if (env.rule->target == RMG_TARGET_CUSTOM) {
            rmg_status st = apply_custom(&env, file);
            if (st != RMG_OK)
                return st;
            if (tr) /* a variant of its own: counted as taking effect */
                tr->effects[k].matched = tr->effects[k].changed = tr->effects[k].effective = true;
            continue;
        }
        for (size_t i = 0; i < list->items.count; i++) {
            rmg__eff_entry *e = &list->items.items[i];
            if (!entry_matches(&env, e))
                continue;
            int64_t before[N_FIELDS];
            entry_fields(e, before);
            if (tr)
                tr->effects[k].matched = true;
            if (env.rule->op == RMG_RULE_FORBID)
                e->present = false;
            else
                allow_entry(&env, i);
            trace_change(tr, k, i, before, e);
        }
    }
    return RMG_OK;
}

rmg_status rmg__eff_apply_rules(rmg__eff_list *list, const rmg__rule_list *rules, const rmg__eff_list *ref,
                                bool zone_level, const char *file)
{
    return rules ? apply_rules(list, rules, ref, zone_level, file, NULL) : RMG_OK;
}

/* A rule takes effect when some field it changed keeps its value: the presence of any entry,
 * the parameters of an entry present in the end. */
static void mark_effective(const rmg__eff_list *list, eff_trace *tr)
{
    for (size_t i = 0; i < tr->n_entries; i++) {
        int last = list->items.items[i].present ? N_FIELDS : F_PRESENT + 1;
        for (int f = 0; f < last; f++) {
            uint32_t who = tr->setter[i * N_FIELDS + (size_t)f];
            if (who)
                tr->effects[who - 1].effective = true;
        }
    }
}

rmg_status rmg__eff_rule_effects(const rmg__eff_list *base, const rmg__rule_list *rules, const rmg__eff_list *ref,
                                 bool zone_level, rmg__rule_effect *effects)
{
    for (size_t k = 0; k < rules->count; k++)
        effects[k] = (rmg__rule_effect){false, false, false, -1};
    rmg__eff_list list;
    rmg_status st = rmg__eff_copy(base, &list);
    if (st != RMG_OK)
        return st;
    eff_trace tr = {rmg__calloc(base->ctx, list.items.count * N_FIELDS + 1, sizeof *tr.setter), list.items.count,
                    effects};
    st = tr.setter ? apply_rules(&list, rules, ref, zone_level, NULL, &tr) : rmg__error_nomem(base->ctx);
    if (st == RMG_OK)
        mark_effective(&list, &tr);
    rmg__free(base->ctx, tr.setter);
    rmg__eff_free(&list);
    return st;
}

/* ---- caps (OBJ-07, RUL-08) ------------------------------------------------------------------- */

int64_t rmg__eff_cap(int64_t configured, int64_t def, bool fixed)
{
    if (!fixed || def < 0)
        return configured;
    if (configured == RMG__UNLIMITED || configured < 0 || configured > def)
        return def;
    return configured;
}

void rmg__eff_apply_caps(rmg__eff_list *list)
{
    for (size_t i = 0; i < list->items.count; i++) {
        rmg__eff_entry *e = &list->items.items[i];
        const rmg__object_def *d = def_of(list, e);
        e->max_map = rmg__eff_cap(e->max_map, d->max_map, d->max_map_fixed);
        e->max_zone = rmg__eff_cap(e->max_zone, d->max_zone, d->max_zone_fixed);
    }
}

void rmg__eff_share_fixed_map_caps(rmg__eff_list *list, int share)
{
    for (size_t i = 0; i < list->items.count; i++) {
        rmg__eff_entry *e = &list->items.items[i];
        const rmg__object_def *d = def_of(list, e);
        if (d->max_map_fixed && d->max_map >= 0 && (e->max_map < 0 || e->max_map > d->max_map / share))
            e->max_map = d->max_map / share;
    }
}

rmg_status rmg__eff_build(rmg_context *ctx, const struct rmg_content *content, const rmg__template *tpl,
                          long zone_index, const char *file, rmg__eff_list *out)
{
    rmg__eff_list lmap;
    rmg_status st = rmg__eff_init(ctx, content, &lmap);
    if (st != RMG_OK)
        return st;
    if (tpl)
        st = rmg__eff_apply_rules(&lmap, &tpl->rules, NULL, false, file);
    if (st == RMG_OK && tpl && zone_index >= 0) {
        st = rmg__eff_copy(&lmap, out);
        if (st == RMG_OK)
            st = rmg__eff_apply_rules(out, &tpl->zones[zone_index].rules, &lmap, true, file);
        if (st != RMG_OK)
            rmg__eff_free(out);
        rmg__eff_free(&lmap);
    } else if (st == RMG_OK) {
        *out = lmap;
    } else {
        rmg__eff_free(&lmap);
    }
    if (st == RMG_OK)
        rmg__eff_apply_caps(out);
    return st;
}

long rmg__eff_find(const rmg__eff_list *list, const char *key, const char *creature)
{
    for (size_t i = 0; i < list->items.count; i++) {
        const rmg__eff_entry *e = &list->items.items[i];
        if (e->custom || strcmp(def_of(list, e)->key, key) != 0)
            continue;
        if (creature && (e->creature < 0 || strcmp(list->content->creatures[e->creature].key, creature) != 0))
            continue;
        return (long)i;
    }
    return -1;
}
