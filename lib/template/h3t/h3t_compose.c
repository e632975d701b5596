/*
 * The small languages of h3t cells written back from the model: object rules, type-selection
 * hints and mirror-link codes (the inverse of h3t_rules.c). A rule addresses content keys in the
 * model; here it gets the H3M class and selector the editor writes for them again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "h3t.h"

enum { CLS_PANDORA = 6, CLS_KEYMASTER = 10, CLS_DWELLING = 17, CLS_PRISON = 62, CLS_SEER = 83, CLS_SCROLL = 93 };

/* Text appended to a fixed buffer; `ok` turns false when it does not fit. */
typedef struct text {
    char *s;
    size_t cap, n;
    bool ok;
} text;

static text text_on(char *buf, size_t cap)
{
    text t = {buf, cap, 0, cap > 0};
    if (cap)
        buf[0] = '\0';
    return t;
}

static void put(text *t, const char *fmt, ...) RMG__PRINTF(2, 3);
static void put(text *t, const char *fmt, ...)
{
    if (!t->ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= t->cap - t->n)
        t->ok = false;
    else
        t->n += (size_t)k;
}

/* ---- object rules ------------------------------------------------------------------------ */

/* The class and selector of a rule's target; `sub_given` when the selector is an explicit
 * subclass (1.8 files write no extra token after such dwelling rules). */
typedef struct selector {
    int cls;
    char sel[64];
    bool sub_given;
    int64_t value_override;   /* Keymaster's Tent: the variant is the value field; else DEFAULT */
} selector;

static bool set_sel(selector *s, int cls, const char *fmt, ...) RMG__PRINTF(3, 4);
static bool set_sel(selector *s, int cls, const char *fmt, ...)
{
    s->cls = cls;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->sel, sizeof s->sel, fmt, ap);
    va_end(ap);
    return k >= 0 && (size_t)k < sizeof s->sel;
}

static bool suffix_number(const char *key, const char *prefix, long long *out)
{
    size_t n = strlen(prefix);
    if (strncmp(key, prefix, n) != 0 || !key[n])
        return false;
    int64_t v;
    if (!rmg__h3t_parse_int64(key + n, &v))
        return false;
    *out = v;
    return true;
}

static int creature_id(const char *key)
{
    long long id;
    if (suffix_number(key, "h3m_creature_", &id))
        return (int)id;
    for (size_t i = 0; i < rmg__h3t_n_creatures; i++)
        if (strcmp(rmg__h3t_creatures[i].key, key) == 0)
            return rmg__h3t_creatures[i].id;
    return -1;
}

/* Object keys named after the parameters of the reward boxes, prisons, scrolls and tents. */
static bool variant_key(const char *key, selector *s, bool enable)
{
    static const char *const schools[] = {"pandora_spells_air", "pandora_spells_fire", "pandora_spells_water",
                                          "pandora_spells_earth"};
    static const struct { int level; long long exp; } prisons[] = {
        {1, 0}, {5, 5000}, {10, 15000}, {20, 90000}, {30, 500000}};
    long long v;
    if (suffix_number(key, "pandora_spells_level_", &v))
        return set_sel(s, CLS_PANDORA, "0 3 %lld %lld 15", v, v);
    if (strcmp(key, "pandora_spells_all") == 0)
        return set_sel(s, CLS_PANDORA, "0 3 1 5 15");
    for (int i = 0; i < 4; i++)
        if (strcmp(key, schools[i]) == 0)
            return set_sel(s, CLS_PANDORA, "0 3 1 5 %d", 1 << i);
    if (suffix_number(key, "pandora_exp_", &v))
        return set_sel(s, CLS_PANDORA, "0 1 %lld", v);
    if (suffix_number(key, "pandora_gold_", &v))
        return set_sel(s, CLS_PANDORA, "0 2 %lld", v);
    if (suffix_number(key, "seer_artifact_exp_", &v))
        return set_sel(s, CLS_SEER, "n 1 %lld", v);
    if (suffix_number(key, "seer_artifact_gold_", &v))
        return set_sel(s, CLS_SEER, "n 2 %lld", v);
    if (suffix_number(key, "prison_level_", &v)) {
        for (size_t i = 0; i < RMG__ARRAY_LEN(prisons); i++)
            if (prisons[i].level == v)
                return set_sel(s, CLS_PRISON, "0 %lld", prisons[i].exp);
        return false;
    }
    if (suffix_number(key, "spell_scroll_level_", &v))
        return set_sel(s, CLS_SCROLL, "0 %lld", v);
    if (strcmp(key, "spell_scroll_special") == 0)
        return set_sel(s, CLS_SCROLL, "0 6");
    if (enable && suffix_number(key, "keymaster_tent_", &v)) {
        s->value_override = v;
        return set_sel(s, CLS_KEYMASTER, "n");
    }
    return false;
}

static bool object_selector(const char *key, selector *s, bool enable)
{
    int cls, sub;
    char tail;
    if (variant_key(key, s, enable))
        return true;
    if (sscanf(key, "h3m_%d_%d%c", &cls, &sub, &tail) == 2) {   /* kept from an unknown class/subclass */
        s->sub_given = true;
        return set_sel(s, cls, "%d", sub);
    }
    if (sscanf(key, "h3m_%d%c", &cls, &tail) == 1)
        return set_sel(s, cls, "n");
    for (size_t i = 0; i < rmg__h3t_n_objects; i++) {
        const rmg__h3t_object *o = &rmg__h3t_objects[i];
        if (!o->creature && strcmp(o->key, key) == 0) {
            s->sub_given = o->sub >= 0;
            return set_sel(s, o->cls, "%d", o->sub >= 0 ? o->sub : 0);
        }
    }
    return false;
}

/* The reward boxes' families: (class, selector of an enable rule, of a forbid rule). */
static const struct { const char *family; int cls; const char *enable, *forbid; } box_families[] = {
    {"pandora_creatures", CLS_PANDORA, "0 0 n", "0 0"},
    {"pandora_experience", CLS_PANDORA, "0 1 n", "0 1"},
    {"pandora_gold", CLS_PANDORA, "0 2 n", "0 2"},
    {"pandora_spells", CLS_PANDORA, "0 3 n n n", "0 3"},
    {"seer_artifact_creatures", CLS_SEER, "n 0 n", "n 0"},
    {"seer_artifact_experience", CLS_SEER, "n 1 n", "n 1"},
    {"seer_artifact_gold", CLS_SEER, "n 2 n", "n 2"},
};

/* A family: a reward box kind, a class whose rules address the family, or a class whose
 * objects all belong to it. */
static bool family_selector(const char *family, selector *s, bool enable)
{
    for (size_t i = 0; i < RMG__ARRAY_LEN(box_families); i++)
        if (strcmp(family, box_families[i].family) == 0)
            return set_sel(s, box_families[i].cls, "%s", enable ? box_families[i].enable : box_families[i].forbid);
    for (size_t i = 0; i < rmg__h3t_n_class_targets; i++) {
        const rmg__h3t_class_target *t = &rmg__h3t_class_targets[i];
        size_t n;
        if (t->is_family && strcmp(t->name, family) == 0 && rmg__h3t_find_class_targets(t->cls, &n) && n == 1)
            return set_sel(s, t->cls, "n");
    }
    for (size_t i = 0; i < rmg__h3t_n_objects;) {   /* a whole class of the family */
        int cls = rmg__h3t_objects[i].cls;
        bool all = true;
        size_t j = i;
        for (; j < rmg__h3t_n_objects && rmg__h3t_objects[j].cls == cls; j++)
            all = all && strcmp(rmg__h3t_objects[j].family, family) == 0;
        if (all)
            return set_sel(s, cls, "n");
        i = j;
    }
    return false;
}

static bool creature_selector(const rmg__rule *r, selector *s)
{
    if (!r->family || !r->creature)
        return false;
    int id = creature_id(r->creature);
    if (strcmp(r->family, "pandora_creatures") == 0)
        return id >= 0 && set_sel(s, CLS_PANDORA, "0 0 %d", id);
    if (strcmp(r->family, "seer_artifact_creatures") == 0)
        return id >= 0 && set_sel(s, CLS_SEER, "n 0 %d", id);
    for (size_t i = 0; i < rmg__h3t_n_objects; i++) {
        const rmg__h3t_object *o = &rmg__h3t_objects[i];
        if (o->creature && o->sub >= 0 && strcmp(o->creature, r->creature) == 0 && strcmp(o->family, r->family) == 0) {
            s->sub_given = true;
            return set_sel(s, o->cls, "%d", o->sub);
        }
    }
    return false;
}

static bool level_selector(const rmg__rule *r, selector *s)
{
    if (!r->family || r->level < 1 || r->level > 7)
        return false;
    if (strcmp(r->family, "creature_dwelling") == 0)
        return set_sel(s, CLS_DWELLING, "L %d", r->level - 1);
    if (strcmp(r->family, "pandora_creatures") == 0)
        return set_sel(s, CLS_PANDORA, "0 0 L %d", r->level - 1);
    if (strcmp(r->family, "seer_artifact_creatures") == 0)
        return set_sel(s, CLS_SEER, "n 0 L %d", r->level - 1);
    return false;
}

/* Custom variants (OBJ-15): the parameters go into the selector (a tent's into its value). */
static bool custom_selector(const rmg__rule *r, selector *s)
{
    static const struct { const char *family; int cls; const char *head; } amounts[] = {
        {"prison", CLS_PRISON, "0"},          {"pandora_experience", CLS_PANDORA, "0 1"},
        {"pandora_gold", CLS_PANDORA, "0 2"}, {"seer_artifact_experience", CLS_SEER, "n 1"},
        {"seer_artifact_gold", CLS_SEER, "n 2"}};
    if (!r->family)
        return false;
    if (strcmp(r->family, "pandora_spells") == 0)
        return set_sel(s, CLS_PANDORA, "0 3 %d %d %d", r->spell_min, r->spell_max, r->schools);
    if (strcmp(r->family, "keymaster_tent") == 0) {
        s->value_override = r->amount;
        return set_sel(s, CLS_KEYMASTER, "n");
    }
    for (size_t i = 0; i < RMG__ARRAY_LEN(amounts); i++)
        if (strcmp(r->family, amounts[i].family) == 0)
            return set_sel(s, amounts[i].cls, "%s %lld", amounts[i].head, (long long)r->amount);
    return false;
}

static bool rule_selector(const rmg__rule *r, selector *s)
{
    bool enable = r->op == RMG_RULE_ALLOW;
    memset(s, 0, sizeof *s);
    s->value_override = RMG__PARAM_DEFAULT;
    switch (r->target) {
    case RMG_TARGET_OBJECT:
        return r->object && object_selector(r->object, s, enable);
    case RMG_TARGET_FAMILY:
        return r->family && family_selector(r->family, s, enable);
    case RMG_TARGET_CREATURE:
        return creature_selector(r, s);
    case RMG_TARGET_CREATURE_LEVEL:
        return level_selector(r, s);
    case RMG_TARGET_CUSTOM:
        return custom_selector(r, s);
    default:
        return false;
    }
}

static void put_limit(text *t, int64_t v)
{
    if (v == RMG__PARAM_DEFAULT)
        put(t, " d");
    else if (v == RMG__PARAM_UNLIMITED)
        put(t, " n");
    else
        put(t, " %lld", (long long)v);
}

bool rmg__h3t_compose_rule(const rmg__rule *r, bool extra_token, char *buf, size_t cap, const char **why)
{
    text t = text_on(buf, cap);
    *why = NULL;
    if (r->target == RMG_TARGET_ALL) {
        if (r->op != RMG_RULE_FORBID)
            *why = "a rule allowing every object has no h3t form (only \"-n\", forbid every object)";
        put(&t, "-n");
        return !*why && t.ok;
    }
    selector s;
    if (!rule_selector(r, &s)) {
        *why = "its object has no H3M class and subclass in the data tables";
        return false;
    }
    put(&t, "%c%d %s", r->op == RMG_RULE_ALLOW ? '+' : '-', s.cls, s.sel);
    if (r->op == RMG_RULE_ALLOW) {
        put_limit(&t, s.value_override != RMG__PARAM_DEFAULT ? s.value_override : r->value);
        put_limit(&t, r->frequency);
        put_limit(&t, r->max_map);
        put_limit(&t, r->max_zone);
        bool no_extra = s.cls == CLS_PRISON || (s.cls == CLS_DWELLING && s.sub_given);
        if (extra_token && !no_extra)
            put_limit(&t, r->extra);
        else if (r->extra != RMG__PARAM_DEFAULT)
            *why = "the HotA 1.8 extra field of object rules has no column in this layout";
    }
    if (!t.ok && !*why)
        *why = "the rule is too long";
    return t.ok && !*why;
}

/* ---- type-selection hints ------------------------------------------------------------------ */

static void put_town_ref(text *t, int zone, int town)
{
    put(t, "%d", zone);
    if (town == -1)
        put(t, "_p");
    else if (town >= 0)
        put(t, "_%d", town);
}

rmg__h3t_hint rmg__h3t_hint_of(const rmg__type_rule *r)
{
    switch (r->kind) {
    case RMG_TYPE_RULE_TOWN_SAME:
    case RMG_TYPE_RULE_TOWN_NATIVE:
        return RMG__H3T_HINT_TOWN;
    case RMG_TYPE_RULE_TERRAIN_SAME:
    case RMG_TYPE_RULE_TERRAIN_NATIVE:
        return RMG__H3T_HINT_TERRAIN;
    default:
        return RMG__H3T_HINT_FACTION;
    }
}

bool rmg__h3t_compose_hint(const rmg__type_rule *r, int zone, char *buf, size_t cap)
{
    text t = text_on(buf, cap);
    bool native = r->kind == RMG_TYPE_RULE_TOWN_NATIVE || r->kind == RMG_TYPE_RULE_TERRAIN_NATIVE ||
                  r->kind == RMG_TYPE_RULE_FACTION_TERRAIN;
    if (r->zone_a != zone)
        return false;   /* a hint cell speaks for its own zone */
    if (rmg__h3t_hint_of(r) == RMG__H3T_HINT_TOWN) {
        if (r->town_a == -1)
            put(&t, "p");
        else if (r->town_a == RMG__TOWN_REF_NEUTRAL_ALL)
            put(&t, "n");
        else if (r->town_a >= 0)
            put(&t, "%d", r->town_a);
    } else if (r->town_a != -1) {
        return false;   /* terrain and faction hints have no subject */
    }
    put(&t, "%c%s", r->negate ? 'd' : 's', native ? "t" : "");
    switch (r->kind) {
    case RMG_TYPE_RULE_TOWN_NATIVE:
    case RMG_TYPE_RULE_TERRAIN_SAME:
    case RMG_TYPE_RULE_FACTION_SAME:
    case RMG_TYPE_RULE_FACTION_TERRAIN:   /* a zone */
        put(&t, "%d", r->zone_b);
        break;
    case RMG_TYPE_RULE_FACTION_TOWN:      /* a town reference with its suffix */
        if (r->town_b == RMG__TOWN_REF_ALL || r->town_b == RMG__TOWN_REF_NEUTRAL_ALL)
            return false;
        put_town_ref(&t, r->zone_b, r->town_b);
        break;
    default:                              /* a town reference, or a zone's towns */
        if (r->town_b == RMG__TOWN_REF_NEUTRAL_ALL)
            return false;
        put_town_ref(&t, r->zone_b, r->town_b);
        break;
    }
    return t.ok;
}

/* ---- mirror links -------------------------------------------------------------------------- */

static void put_teleport(text *t, rmg_teleport_kind kind, int color)
{
    switch (kind) {
    case RMG_TELEPORT_ONE_WAY_ENTRANCE: put(t, "o%d", color); break;
    case RMG_TELEPORT_ONE_WAY_EXIT: put(t, "e%d", color); break;
    case RMG_TELEPORT_TWO_WAY: put(t, "t%d", color); break;
    default: put(t, "s"); break;
    }
}

bool rmg__h3t_compose_mirror(const rmg__mirror_link *m, char *buf, size_t cap)
{
    text t = text_on(buf, cap);
    bool none = m->surface_kind == RMG_TELEPORT_NONE && m->underground_kind == RMG_TELEPORT_NONE;
    if (none) {
        put(&t, "x");   /* the legacy marker without teleports */
        return t.ok;
    }
    if (m->surface_kind == RMG_TELEPORT_NONE || m->underground_kind == RMG_TELEPORT_NONE)
        return false;
    if (m->roads)
        put(&t, "r ");
    put_teleport(&t, m->surface_kind, m->surface_color);
    put(&t, " ");
    put_teleport(&t, m->underground_kind, m->underground_color);
    return t.ok;
}

/* ---- raw texts the model need not keep --------------------------------------------------------- */

/* A raw text equal to what the writer composes from the fields says nothing more: the YAML
 * writer leaves it out (and comparisons treat it as absent), so a pack read from YAML and one
 * read back from the h3t written of it are the same. */
static bool same_text(const char *raw, bool composed, const char *buf)
{
    return raw && composed && strcmp(raw, buf) == 0;
}

bool rmg__h3t_rule_raw_redundant(const void *rule)
{
    const rmg__rule *r = rule;
    char buf[160];
    const char *why;
    /* The extra token is written in 1.8 layouts only; a rule with it composes in one of them. */
    return same_text(r->raw, rmg__h3t_compose_rule(r, r->extra != RMG__PARAM_DEFAULT, buf, sizeof buf, &why), buf) ||
           same_text(r->raw, rmg__h3t_compose_rule(r, true, buf, sizeof buf, &why), buf);
}

bool rmg__h3t_hint_raw_redundant(const void *type_rule)
{
    const rmg__type_rule *r = type_rule;
    char buf[64];
    return same_text(r->raw, rmg__h3t_compose_hint(r, r->zone_a, buf, sizeof buf), buf);
}

bool rmg__h3t_mirror_raw_redundant(const void *link)
{
    const rmg__mirror_link *m = link;
    char buf[64];
    return same_text(m->raw, rmg__h3t_compose_mirror(m, buf, sizeof buf), buf);
}

bool rmg__h3t_compose_bans(uint32_t mask, int n_ids, char *buf, size_t cap)
{
    text t = text_on(buf, cap);
    for (int id = 0; id < n_ids && id < 32; id++)
        if (!(mask & ((uint32_t)1 << id)))
            put(&t, "-%d ", id);
    return t.ok;
}

bool rmg__h3t_factions_raw_redundant(const void *zone)
{
    const rmg__zone *z = zone;
    char buf[160];
    if (!z->allowed_factions_raw || !z->allowed_factions_set)
        return false;
    for (int n = 11; n <= RMG__H3T_KNOWN_TOWNS; n++)   /* the 1.7 and 1.8 town counts */
        if (rmg__h3t_compose_bans(z->allowed_factions, n, buf, sizeof buf) && strcmp(buf, z->allowed_factions_raw) == 0)
            return true;
    return false;
}
