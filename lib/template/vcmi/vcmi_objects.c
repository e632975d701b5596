/* VCMI JSON importer: a zone's customObjects (banned categories, banned objects, objects with
 * their own value/rarity/limits) as zone-level object rules (RUL-02/03). VCMI object names are
 * matched to the data tables' object keys and families: camelCase -> snake_case, a few names
 * that differ, and "type.subtype" for banks and the like. */
#include <stdio.h>
#include <string.h>

#include "content/content_internal.h"
#include "template/schema.h"
#include "vcmi.h"

/* Targets: "o:key" an object, "f:key" a family, "*" every object. */
typedef struct alias {
    const char *vcmi;
    const char *targets;   /* space-separated */
} alias;

/* bannedCategories values. "bonus", "resourceGenerator" and "other" have no family of the
 * data tables that matches them: they are reported. */
static const alias categories[] = {
    {"all", "*"},
    {"dwelling", "f:creature_dwelling f:composite_dwelling"},
    {"creatureBank", "f:creature_bank"},
    {"randomArtifact", "o:random_treasure_artifact o:random_minor_artifact o:random_major_artifact "
                       "o:random_relic_artifact"},
    {"resource", "f:resource o:random_resource"},
    {"spellScroll", "f:spell_scroll"},
    {"pandorasBox", "f:pandora_creatures f:pandora_experience f:pandora_gold f:pandora_spells"},
    /* HotA seer huts always ask for an artifact: no quest artifacts, no seer huts. */
    {"questArtifact", "f:seer_artifact_creatures f:seer_artifact_experience f:seer_artifact_gold"},
    {"seerHut", "f:seer_artifact_creatures f:seer_artifact_experience f:seer_artifact_gold"},
};

/* VCMI object names whose snake_case form is not the data tables' key. */
static const alias object_names[] = {
    {"pandoraBox", "f:pandora_creatures f:pandora_experience f:pandora_gold f:pandora_spells"},
    {"seerHut", "f:seer_artifact_creatures f:seer_artifact_experience f:seer_artifact_gold"},
    {"eyeOfMagi", "o:eye_of_the_magi"},
    {"hutOfMagi", "o:hut_of_the_magi"},
    {"mermaid", "o:mermaids"},
    {"randomArtifactTreasure", "o:random_treasure_artifact"},
    {"randomArtifactMinor", "o:random_minor_artifact"},
    {"randomArtifactMajor", "o:random_major_artifact"},
    {"randomArtifactRelic", "o:random_relic_artifact"},
    {"creatureGeneratorCommon", "f:creature_dwelling"},
    {"keymasterTent", "f:keymaster_tent"},
    {"borderGuard", "f:keymaster_tent"},
};

static const char *find_alias(const alias *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i].vcmi, name) == 0)
            return list[i].targets;
    return NULL;
}

static bool is_family(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_objects; i++)
        if (c->objects[i].family && strcmp(c->objects[i].family, key) == 0)
            return true;
    return false;
}

/* "o:key" / "f:key" for a snake_case candidate, or false. */
static bool lookup(const struct rmg_content *c, const char *key, char *out, size_t n)
{
    if (rmg__content_find_object(c, key) >= 0)
        return snprintf(out, n, "o:%s", key) < (int)n;
    if (is_family(c, key))
        return snprintf(out, n, "f:%s", key) < (int)n;
    return false;
}

/* The targets of a VCMI (type, subtype) name into out (space-separated); false if unknown. */
static bool resolve_name(const struct rmg_content *c, const char *type, const char *subtype, char *out, size_t n)
{
    char t[96], s[96], both[200];
    type = rmg__vcmi_unscoped(type);
    subtype = subtype ? rmg__vcmi_unscoped(subtype) : NULL;
    /* With a subtype only the subtype decides: an unknown bank must not ban every bank. */
    const char *a = find_alias(object_names, RMG__ARRAY_LEN(object_names), subtype ? subtype : type);
    if (a)
        return snprintf(out, n, "%s", a) < (int)n;
    if (!rmg__vcmi_snake(type, t, sizeof t) || (subtype && !rmg__vcmi_snake(subtype, s, sizeof s)))
        return false;
    if (subtype) {
        /* A bank or dwelling subtype is usually the object itself ("creatureBank.dragonUtopia"). */
        if (lookup(c, s, out, n))
            return true;
        snprintf(both, sizeof both, "%s_%s", t, s);
        return lookup(c, both, out, n);
    }
    return lookup(c, t, out, n);
}

static rmg_status add_rule(rmg__vcmi *r, rmg__zone *z, rmg_rule_op op, const char *target, const rmg__json *at,
                           const char *raw, rmg__rule **out)
{
    rmg__rule *rule = rmg__rules_add(r->pack, &z->rules);
    if (!rule || !(rule->raw = rmg__arena_strdup(&r->pack->arena, raw)))
        return rmg__error_nomem(r->ctx);
    rule->op = op;
    rule->loc = (rmg__srcloc){at->line, at->column};
    if (strcmp(target, "*") == 0) {
        rule->target = RMG_TARGET_ALL;
    } else {
        bool family = target[0] == 'f';
        rule->target = family ? RMG_TARGET_FAMILY : RMG_TARGET_OBJECT;
        char *key = rmg__arena_strdup(&r->pack->arena, target + 2);
        if (!key)
            return rmg__error_nomem(r->ctx);
        if (family)
            rule->family = key;
        else
            rule->object = key;
    }
    if (out)
        *out = rule;
    return RMG_OK;
}

/* One rule per space-separated target; `first` (may be NULL) receives the index of the first. */
static rmg_status add_rules(rmg__vcmi *r, rmg__zone *z, rmg_rule_op op, const char *targets, const rmg__json *at,
                            const char *raw, size_t *first)
{
    if (first)
        *first = z->rules.count;
    char one[96];
    for (const char *p = targets; *p;) {
        size_t n = strcspn(p, " ");
        if (n >= sizeof one)
            n = sizeof one - 1;
        memcpy(one, p, n);
        one[n] = '\0';
        rmg_status st = add_rule(r, z, op, one, at, raw, NULL);
        if (st != RMG_OK)
            return st;
        p += n;
        while (*p == ' ')
            p++;
    }
    return RMG_OK;
}

static rmg_status read_categories(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, z->id, "bannedCategories");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json *e = &v->items[i];
        if ((st = rmg__vcmi_expect(r, e, RMG__JSON_STRING, z->id, "bannedCategories entry")) != RMG_OK)
            break;
        const char *targets = find_alias(categories, RMG__ARRAY_LEN(categories), e->string);
        char raw[120];
        snprintf(raw, sizeof raw, "customObjects bannedCategories %.60s", e->string);
        if (targets)
            st = add_rules(r, z, RMG_RULE_FORBID, targets, e, raw, NULL);
        else
            st = rmg__vcmi_warn(r, e, z->id, "banned category '%.60s' has no matching HotA object family: not "
                                "imported", e->string);
    }
    return st;
}

static rmg_status ban_object(rmg__vcmi *r, rmg__zone *z, const rmg__json *at, const char *type, const char *subtype)
{
    char targets[300], raw[200];
    snprintf(raw, sizeof raw, "customObjects bannedObjects %.80s%s%.80s", type, subtype ? "." : "",
             subtype ? subtype : "");
    if (!resolve_name(r->content, type, subtype, targets, sizeof targets))
        return rmg__vcmi_warn(r, at, z->id, "banned object '%.80s%s%.80s' is not a HotA object: not imported", type,
                              subtype ? "." : "", subtype ? subtype : "");
    return add_rules(r, z, RMG_RULE_FORBID, targets, at, raw, NULL);
}

/* bannedObjects: a list of names, or {type: true} / {type: {subtype: true}} (false = not banned). */
static rmg_status read_banned_objects(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = RMG_OK;
    if (v->type == RMG__JSON_ARRAY) {
        for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
            const rmg__json *e = &v->items[i];
            if ((st = rmg__vcmi_expect(r, e, RMG__JSON_STRING, z->id, "bannedObjects entry")) == RMG_OK)
                st = ban_object(r, z, e, e->string, NULL);
        }
        return st;
    }
    if ((st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "bannedObjects")) != RMG_OK)
        return st;
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *m = &v->members[i];
        if (m->value.type == RMG__JSON_BOOL) {
            if (m->value.boolean)
                st = ban_object(r, z, &m->value, m->key, NULL);
            continue;
        }
        if ((st = rmg__vcmi_expect(r, &m->value, RMG__JSON_OBJECT, z->id, m->key)) != RMG_OK)
            break;
        for (size_t k = 0; k < m->value.count && st == RMG_OK; k++) {
            const rmg__json_member *s = &m->value.members[k];
            if ((st = rmg__vcmi_expect(r, &s->value, RMG__JSON_BOOL, z->id, s->key)) == RMG_OK && s->value.boolean)
                st = ban_object(r, z, &s->value, m->key, s->key);
        }
    }
    return st;
}

/* The "rmg" block of a common object: value, rarity (frequency), zoneLimit, mapLimit. */
static rmg_status read_parameters(rmg__vcmi *r, rmg__zone *z, const rmg__json *v, int64_t p[4])
{
    static const char *const keys[4] = {"value", "rarity", "mapLimit", "zoneLimit"};
    const rmg__names key_names = {keys, 4};
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "rmg");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *m = &v->members[i];
        long k = rmg__names_find(&key_names, m->key);
        if (k < 0)
            st = rmg__vcmi_unknown_key(r, m, z->id, "a common object's 'rmg'");
        else
            st = rmg__vcmi_int(r, &m->value, 0, INT32_MAX, z->id, m->key, &p[k]);
    }
    return st;
}

static rmg_status read_common_object(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "commonObjects entry");
    const rmg__json_member *type = rmg__json_find(v, "type"), *sub = rmg__json_find(v, "subtype");
    const rmg__json_member *params = rmg__json_find(v, "rmg");
    if (st == RMG_OK && (!type || !params))
        st = rmg__vcmi_error(r, v, z->id, "a common object needs 'type' and 'rmg'");
    if (st == RMG_OK)
        st = rmg__vcmi_expect(r, &type->value, RMG__JSON_STRING, z->id, "type");
    if (st == RMG_OK && sub)
        st = rmg__vcmi_expect(r, &sub->value, RMG__JSON_STRING, z->id, "subtype");
    int64_t p[4] = {RMG__PARAM_DEFAULT, RMG__PARAM_DEFAULT, RMG__PARAM_DEFAULT, RMG__PARAM_DEFAULT};
    if (st == RMG_OK)
        st = read_parameters(r, z, &params->value, p);
    for (size_t i = 0; i < v->count && st == RMG_OK; i++)
        if (strcmp(v->members[i].key, "type") && strcmp(v->members[i].key, "subtype") && strcmp(v->members[i].key, "rmg"))
            st = rmg__vcmi_unknown_key(r, &v->members[i], z->id, "a common object");
    if (st != RMG_OK)
        return st;
    const char *t = type->value.string, *s = sub ? sub->value.string : NULL;
    char targets[300], raw[200];
    snprintf(raw, sizeof raw, "customObjects commonObjects %.80s%s%.80s", t, s ? "." : "", s ? s : "");
    if (!resolve_name(r->content, t, s, targets, sizeof targets))
        return rmg__vcmi_warn(r, v, z->id, "common object '%.80s%s%.80s' is not a HotA object: not imported", t,
                              s ? "." : "", s ? s : "");
    size_t first;
    if ((st = add_rules(r, z, RMG_RULE_ALLOW, targets, v, raw, &first)) != RMG_OK)
        return st;
    for (size_t i = first; i < z->rules.count; i++) {
        rmg__rule *rule = &z->rules.items[i];
        rule->value = p[0];
        rule->frequency = p[1];
        rule->max_map = p[2];
        rule->max_zone = p[3];
    }
    return RMG_OK;
}

rmg_status rmg__vcmi_read_objects(rmg__vcmi *r, rmg__zone *z, const rmg__json *objects)
{
    rmg_status st = rmg__vcmi_expect(r, objects, RMG__JSON_OBJECT, z->id, "customObjects");
    for (size_t i = 0; i < objects->count && st == RMG_OK; i++) {
        const rmg__json_member *m = &objects->members[i];
        const rmg__json *v = &m->value;
        if (strcmp(m->key, "bannedCategories") == 0) {
            st = read_categories(r, z, v);
        } else if (strcmp(m->key, "bannedObjects") == 0) {
            st = read_banned_objects(r, z, v);
        } else if (strcmp(m->key, "commonObjects") == 0) {
            st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, z->id, "commonObjects");
            for (size_t k = 0; k < v->count && st == RMG_OK; k++)
                st = read_common_object(r, z, &v->items[k]);
        } else if (strcmp(m->key, "requiredObjects") == 0) {
            st = rmg__vcmi_warn(r, v, z->id, "'requiredObjects' (objects the zone must contain) has no HotA "
                                "equivalent: not imported");
        } else {
            st = rmg__vcmi_unknown_key(r, m, z->id, "customObjects");
        }
    }
    return st;
}
