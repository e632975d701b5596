/* Template model: creation with spec defaults, appending parts, warnings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Grows an arena-backed array by one element. Arena memory is not reclaimed when an array
 * moves, so arrays grow geometrically to keep the waste bounded. */
void *rmg__arena_grow(rmg__arena *arena, void **items, size_t *count, size_t elem)
{
    size_t n = *count;
    /* Capacity is implicit: powers of two from 4. */
    bool full = n >= 4 && (n & (n - 1)) == 0;
    if (n == 0 || full) {
        size_t cap = n == 0 ? 4 : n * 2, bytes;
        if (!rmg__mul_ok(cap, elem, &bytes))
            return NULL;
        void *p = rmg__arena_alloc(arena, bytes);
        if (!p)
            return NULL;
        if (n)
            memcpy(p, *items, n * elem);
        *items = p;
    }
    unsigned char *slot = (unsigned char *)*items + n * elem;
    memset(slot, 0, elem);
    *count = n + 1;
    return slot;
}

void rmg__template_defaults(rmg__template *t)
{
    memset(t, 0, sizeof *t);
    t->special_weeks = true;   /* TPL-02 */
    t->spell_research = true;  /* TPL-03 */
    t->rock_radius = 1.0;      /* TPL-04 (used only when rock_masses) */
    t->zone_sparseness = 1.0;  /* TPL-05 */
    t->min_size = 1;
    t->max_size = 98;
}

uint32_t rmg__zone_allowed_towns(const rmg__zone *z, uint32_t universe)
{
    if (z->allowed_towns)
        return z->allowed_towns & universe;
    return z->all_towns_banned ? 0 : universe;
}

void rmg__zone_defaults(rmg__zone *z)
{
    memset(z, 0, sizeof *z);
    z->kind = RMG_ZONE_TREASURE;
    z->size = 1.0;
    z->placement = RMG_PLACEMENT_ANY;
    z->monster_strength = RMG_MONSTERS_MEDIUM;
    z->mood = RMG_MOOD_HOSTILE;      /* editor default (h3t-format §7) */
    z->join_percent = 50;            /* editor default */
    z->join_only_for_money = true;   /* editor default */
}

void rmg__connection_defaults(rmg__connection *c)
{
    memset(c, 0, sizeof *c);
    c->type = RMG_CONNECTION_STANDARD;
    c->placement = RMG_LINK_DEFAULT;
    c->roads = RMG_ROAD_RANDOM; /* CON-14 */
}

void rmg__rule_defaults(rmg__rule *r)
{
    memset(r, 0, sizeof *r);
    r->value = r->frequency = r->max_map = r->max_zone = RMG__PARAM_DEFAULT;
    r->extra = RMG__PARAM_DEFAULT;
    r->level = -1;
}

rmg_status rmg__pack_new(rmg_context *ctx, struct rmg_pack **out)
{
    *out = NULL;
    struct rmg_pack *p = rmg__calloc(ctx, 1, sizeof *p);
    if (!p)
        return rmg__error_nomem(ctx);
    p->ctx = ctx;
    rmg__arena_init(&p->arena, ctx, 32 * 1024);
    *out = p;
    return RMG_OK;
}

rmg__template *rmg__pack_add_template(struct rmg_pack *pack)
{
    rmg__template *t = rmg__arena_grow(&pack->arena, (void **)&pack->templates, &pack->n_templates, sizeof *t);
    if (t)
        rmg__template_defaults(t);
    return t;
}

rmg__zone *rmg__template_add_zone(struct rmg_pack *pack, rmg__template *t)
{
    rmg__zone *z = rmg__arena_grow(&pack->arena, (void **)&t->zones, &t->n_zones, sizeof *z);
    if (z)
        rmg__zone_defaults(z);
    return z;
}

rmg__connection *rmg__template_add_connection(struct rmg_pack *pack, rmg__template *t)
{
    rmg__connection *c = rmg__arena_grow(&pack->arena, (void **)&t->connections, &t->n_connections, sizeof *c);
    if (c)
        rmg__connection_defaults(c);
    return c;
}

rmg__rule *rmg__rules_add(struct rmg_pack *pack, rmg__rule_list *list)
{
    rmg__rule *r = rmg__arena_grow(&pack->arena, (void **)&list->items, &list->count, sizeof *r);
    if (r)
        rmg__rule_defaults(r);
    return r;
}

long rmg__template_find_zone(const rmg__template *t, int id)
{
    for (size_t i = 0; i < t->n_zones; i++)
        if (t->zones[i].id == id)
            return (long)i;
    return -1;
}

static int compare_zone_keys(const void *a, const void *b)
{
    const rmg__zone_key *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void rmg__zone_keys_sort(const rmg__template *t, rmg__zone_key *keys)
{
    for (size_t i = 0; i < t->n_zones; i++)
        keys[i] = (rmg__zone_key){t->zones[i].id, i};
    if (t->n_zones > 1)
        qsort(keys, t->n_zones, sizeof *keys, compare_zone_keys);
}

const rmg__zone_key *rmg__zone_keys_find(const rmg__zone_key *keys, size_t n, int id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo].id == id ? &keys[lo] : NULL;
}

rmg_status rmg__pack_warn(struct rmg_pack *pack, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *s = rmg__arena_strdup(&pack->arena, msg);
    char **slot = s ? rmg__arena_grow(&pack->arena, (void **)&pack->warnings, &pack->n_warnings, sizeof *slot) : NULL;
    if (!slot)
        return rmg__error_nomem(pack->ctx);
    *slot = s;
    return RMG_OK;
}

void rmg__pack_free(struct rmg_pack *pack)
{
    if (!pack)
        return;
    rmg__arena_free(&pack->arena);
    rmg__free(pack->ctx, pack);
}
