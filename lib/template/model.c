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
    c->roads = RMG_ROAD_SETTING_RANDOM; /* CON-14 */
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
    p->ctx = rmg__context_retain(ctx); /* given back by rmg__pack_free */
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

/* Appends a warning: its full text (rmg_pack_warning) and its note. */
static rmg_status add_warning(struct rmg_pack *pack, const char *full, int line, int column, const char *bare)
{
    char *s = rmg__arena_strdup(&pack->arena, full);
    char *b = s ? rmg__arena_strdup(&pack->arena, bare) : NULL;
    size_t n = pack->n_warnings;
    char **slot = b ? rmg__arena_grow(&pack->arena, (void **)&pack->warnings, &pack->n_warnings, sizeof *slot) : NULL;
    rmg__load_note *note = slot ? rmg__arena_grow(&pack->arena, (void **)&pack->warning_notes, &n, sizeof *note) : NULL;
    if (!note)
        return rmg__error_nomem(pack->ctx);
    *slot = s;
    *note = (rmg__load_note){{line, column}, RMG_OK, b};
    return RMG_OK;
}

rmg_status rmg__pack_warn(struct rmg_pack *pack, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return add_warning(pack, msg, 0, 0, msg);
}

rmg_status rmg__pack_warn_at(struct rmg_pack *pack, const char *unit, int line, int column, const char *fmt, ...)
{
    char msg[512], place[64], full[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(place, sizeof place, "%s %d, column %d", unit, line, column);
    snprintf(full, sizeof full, "%s: %s", place, msg);
    return add_warning(pack, full, line, column, msg);
}

/* The message without the "file:line:col: " the context put in front of it. */
static const char *without_place(const char *message, const char *file)
{
    size_t n = file ? strlen(file) : 0;
    if (!n || strncmp(message, file, n) != 0 || message[n] != ':')
        return message;
    const char *p = message + n + 1;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == ':')
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    if (*p == ':')
        p++;
    return *p == ' ' ? p + 1 : p;
}

rmg_status rmg__pack_keep_error(struct rmg_pack *pack)
{
    rmg_error_info e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    rmg_context_error_get(pack->ctx, &e);
    char *text = rmg__arena_strdup(&pack->arena, without_place(e.message ? e.message : "", e.file));
    rmg__load_note *note =
        text ? rmg__arena_grow(&pack->arena, (void **)&pack->load_errors, &pack->n_load_errors, sizeof *note) : NULL;
    if (!note)
        return rmg__error_nomem(pack->ctx);
    *note = (rmg__load_note){{e.line, e.column}, e.status, text};
    rmg_context_clear_error(pack->ctx);
    return RMG_OK;
}

void rmg__pack_free(struct rmg_pack *pack)
{
    if (!pack)
        return;
    rmg_context *ctx = pack->ctx;
    rmg__arena_free(&pack->arena);
    rmg__free(ctx, pack);
    rmg__context_release(ctx);
}
