/* VCMI JSON importer: references between zones. `*LikeZone` keys copy a group of settings from
 * another zone (followed through chains; cycles and unknown zones are errors); `townHints`
 * become type-selection rules (ZON-10..12). */
#include <stdio.h>
#include <string.h>

#include "vcmi.h"

static const char *const like_names[RMG__VCMI_LIKE_COUNT] = {
    [RMG__VCMI_LIKE_TOWNS] = "townsLikeZone",
    [RMG__VCMI_LIKE_MINES] = "minesLikeZone",
    [RMG__VCMI_LIKE_TERRAIN] = "terrainTypeLikeZone",
    [RMG__VCMI_LIKE_TREASURE] = "treasureLikeZone",
    [RMG__VCMI_LIKE_OBJECTS] = "customObjectsLikeZone",
};

/* The zone a reference names: its index in t->zones. */
static rmg_status referenced_zone(rmg__vcmi *r, const rmg__json *v, int zone, const char *what, long *out)
{
    int id;
    rmg_status st = rmg__vcmi_small_int(r, v, 1, INT32_MAX, zone, what, &id);
    if (st != RMG_OK)
        return st;
    *out = rmg__vcmi_find_zone(r, id);
    if (*out < 0)
        return rmg__vcmi_error(r, v, zone, "'%s' names zone %d, which the template does not have", what, id);
    return RMG_OK;
}

static rmg_status copy_rules(rmg__vcmi *r, rmg__rule_list *dst, const rmg__rule_list *src)
{
    dst->items = NULL;
    dst->count = 0;
    if (!src->count)
        return RMG_OK;
    size_t bytes;
    if (!rmg__mul_ok(src->count, sizeof *src->items, &bytes) || !(dst->items = rmg__arena_alloc(&r->pack->arena, bytes)))
        return rmg__error_nomem(r->ctx);
    memcpy(dst->items, src->items, bytes);   /* strings stay shared in the pack arena */
    dst->count = src->count;
    return RMG_OK;
}

static rmg_status copy_group(rmg__vcmi *r, rmg__zone *to, const rmg__zone *from, rmg__vcmi_like g)
{
    switch (g) {
    case RMG__VCMI_LIKE_TOWNS:
        to->player_towns = from->player_towns;
        to->player_castles = from->player_castles;
        to->player_town_density = from->player_town_density;
        to->player_castle_density = from->player_castle_density;
        to->neutral_towns = from->neutral_towns;
        to->neutral_castles = from->neutral_castles;
        to->neutral_town_density = from->neutral_town_density;
        to->neutral_castle_density = from->neutral_castle_density;
        to->towns_same_type = from->towns_same_type;
        return RMG_OK;
    case RMG__VCMI_LIKE_MINES:
        memcpy(to->mines_min, from->mines_min, sizeof to->mines_min);
        memcpy(to->mines_density, from->mines_density, sizeof to->mines_density);
        return RMG_OK;
    case RMG__VCMI_LIKE_TERRAIN:
        to->allowed_terrains = from->allowed_terrains;
        return RMG_OK;
    case RMG__VCMI_LIKE_TREASURE:
        memcpy(to->treasure, from->treasure, sizeof to->treasure);
        return RMG_OK;
    default:
        return copy_rules(r, &to->rules, &from->rules);
    }
}

/* "1 -> 2 -> 3 -> 1" for the cycle message. */
static void describe_cycle(const rmg__template *t, const size_t *path, size_t n, size_t from, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = from; i < n && k + 16 < len; i++)
        k += (size_t)snprintf(out + k, len - k, "%d -> ", t->zones[path[i]].id);
    if (k + 16 < len)
        snprintf(out + k, len - k, "%d", t->zones[path[from]].id);
}

enum { UNSEEN = 0, ON_PATH = 1, DONE = 2 };

/* Follows zone i's chain of `g` references to a zone with its own value and copies that value
 * to every zone on the way. Iterative: a chain through every zone of a huge template costs no
 * stack. */
static rmg_status resolve_chain(rmg__vcmi *r, rmg__template *t, const rmg__vcmi_zone *extra, rmg__vcmi_like g,
                                size_t i, unsigned char *state, size_t *path)
{
    size_t n = 0, j = i;
    while (state[j] != DONE && extra[j].like[g]) {
        if (state[j] == ON_PATH) {
            size_t from = 0;
            while (path[from] != j)
                from++;
            char chain[160];
            describe_cycle(t, path, n, from, chain, sizeof chain);
            return rmg__vcmi_error(r, extra[j].like[g], t->zones[j].id, "'%s' references form a cycle: zone %s",
                                   like_names[g], chain);
        }
        state[j] = ON_PATH;
        path[n++] = j;
        long next;
        rmg_status st = referenced_zone(r, extra[j].like[g], t->zones[j].id, like_names[g], &next);
        if (st != RMG_OK)
            return st;
        j = (size_t)next;
    }
    state[j] = DONE;
    for (size_t k = 0; k < n; k++) {
        rmg_status st = copy_group(r, &t->zones[path[k]], &t->zones[j], g);
        if (st != RMG_OK)
            return st;
        state[path[k]] = DONE;
    }
    return RMG_OK;
}

static rmg_status resolve_group(rmg__vcmi *r, rmg__template *t, const rmg__vcmi_zone *extra, rmg__vcmi_like g,
                                unsigned char *state, size_t *path)
{
    memset(state, UNSEEN, t->n_zones);
    rmg_status st = RMG_OK;
    for (size_t i = 0; i < t->n_zones && st == RMG_OK; i++) {
        if (extra[i].like[g] && extra[i].own[g])
            st = rmg__vcmi_warn(r, extra[i].own[g], t->zones[i].id, "the zone's own settings are replaced by '%s' "
                                "(as in VCMI)", like_names[g]);
        if (st == RMG_OK)
            st = resolve_chain(r, t, extra, g, i, state, path);
    }
    return st;
}

/* ---- town hints ------------------------------------------------------------------------------------- */

/* The town a hint speaks of: the zone's player towns if it has any, else its first neutral
 * town (VCMI gives every zone one main town type). A zone without towns keeps the player-town
 * reference, which validation reports. */
static int main_town(const rmg__zone *z)
{
    if (z->player_towns || z->player_castles)
        return -1;
    return z->neutral_towns || z->neutral_castles ? 0 : -1;
}

static rmg_status add_type_rule(rmg__vcmi *r, rmg__zone *z, const rmg__zone *other, rmg_type_rule_kind kind,
                                bool negate, const rmg__json *at, const char *key)
{
    rmg__type_rule *tr = rmg__arena_grow(&r->pack->arena, (void **)&z->type_rules, &z->n_type_rules, sizeof *tr);
    char raw[64];
    snprintf(raw, sizeof raw, "townHints %s %d", key, other->id);
    if (!tr || !(tr->raw = rmg__arena_strdup(&r->pack->arena, raw)))
        return rmg__error_nomem(r->ctx);
    tr->kind = kind;
    tr->negate = negate;
    tr->zone_a = z->id;
    tr->town_a = z->towns_same_type ? RMG__TOWN_REF_ALL : main_town(z);
    tr->zone_b = other->id;
    tr->town_b = kind == RMG_TYPE_RULE_TOWN_SAME ? main_town(other) : -1;
    tr->loc = (rmg__srcloc){at->line, at->column};
    return RMG_OK;
}

static rmg_status hint_zone(rmg__vcmi *r, rmg__template *t, size_t zi, const rmg__json *v, const char *key,
                            rmg_type_rule_kind kind, bool negate)
{
    long other;
    rmg_status st = referenced_zone(r, v, t->zones[zi].id, key, &other);
    if (st == RMG_OK)
        st = add_type_rule(r, &t->zones[zi], &t->zones[other], kind, negate, v, key);
    return st;
}

static rmg_status read_hint(rmg__vcmi *r, rmg__template *t, size_t zi, const rmg__json *h)
{
    int id = t->zones[zi].id;
    rmg_status st = rmg__vcmi_expect(r, h, RMG__JSON_OBJECT, id, "town hint");
    for (size_t i = 0; i < h->count && st == RMG_OK; i++) {
        const rmg__json_member *m = &h->members[i];
        const rmg__json *v = &m->value;
        if (strcmp(m->key, "likeZone") == 0) {
            st = hint_zone(r, t, zi, v, m->key, RMG_TYPE_RULE_TOWN_SAME, false);
        } else if (strcmp(m->key, "notLikeZone") == 0 && v->type == RMG__JSON_ARRAY) {
            for (size_t k = 0; k < v->count && st == RMG_OK; k++)
                st = hint_zone(r, t, zi, &v->items[k], m->key, RMG_TYPE_RULE_TOWN_SAME, true);
        } else if (strcmp(m->key, "notLikeZone") == 0) {
            st = hint_zone(r, t, zi, v, m->key, RMG_TYPE_RULE_TOWN_SAME, true);
        } else if (strcmp(m->key, "relatedToZoneTerrain") == 0) {
            st = hint_zone(r, t, zi, v, m->key, RMG_TYPE_RULE_TOWN_NATIVE, false);
        } else {
            st = rmg__vcmi_unknown_key(r, m, id, "a town hint");
        }
    }
    return st;
}

static rmg_status read_hints(rmg__vcmi *r, rmg__template *t, const rmg__vcmi_zone *extra)
{
    rmg_status st = RMG_OK;
    for (size_t i = 0; i < t->n_zones && st == RMG_OK; i++) {
        const rmg__json *h = extra[i].hints;
        if (!h)
            continue;
        if ((st = rmg__vcmi_expect(r, h, RMG__JSON_ARRAY, t->zones[i].id, "townHints")) != RMG_OK)
            break;
        for (size_t k = 0; k < h->count && st == RMG_OK; k++)
            st = read_hint(r, t, i, &h->items[k]);
    }
    return st;
}

rmg_status rmg__vcmi_resolve_zones(rmg__vcmi *r, rmg__template *t, const rmg__vcmi_zone *extra)
{
    size_t n = t->n_zones ? t->n_zones : 1, bytes;
    unsigned char *state = rmg__arena_alloc(&r->scratch, n);
    size_t *path = rmg__mul_ok(n, sizeof *path, &bytes) ? rmg__arena_alloc(&r->scratch, bytes) : NULL;
    if (!state || !path)
        return rmg__error_nomem(r->ctx);
    rmg_status st = RMG_OK;
    for (int g = 0; g < RMG__VCMI_LIKE_COUNT && st == RMG_OK; g++)
        st = resolve_group(r, t, extra, (rmg__vcmi_like)g, state, path);
    if (st == RMG_OK)
        st = read_hints(r, t, extra);
    return st;
}
