/*
 * Lookup tables of a ruleset: open-addressing hash tables (key -> index, id -> index, and
 * H3M class/subclass -> object index), built once in the ruleset's arena. Every lookup is
 * O(1) on average; stages call them in their inner loops.
 */
#include <limits.h>
#include <string.h>

#include "content/content_private.h"

typedef struct kind_index {
    uint32_t *keys;   /* index + 1, 0 = empty */
    uint32_t *ids;
    size_t cap;       /* power of two, >= 2 * count */
} kind_index;

typedef struct class_entry {
    int32_t cls, sub; /* sub INT_MIN: "first object of the class" */
    uint32_t index1;  /* index + 1, 0 = empty */
} class_entry;

typedef struct content_index {
    kind_index k[RMG_CONTENT_KIND_COUNT];
    class_entry *classes;
    size_t class_cap;
} content_index;

#define ANY_SUBCLASS INT32_MIN

static size_t table_cap(size_t n)
{
    size_t cap = 8;
    while (cap < n * 2)
        cap *= 2;
    return cap;
}

static size_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static size_t hash_key(const char *key)
{
    return (size_t)rmg__hash64(key, strlen(key), 0x6b6579u);
}

static int entity_id(const struct rmg_content *c, int kind, size_t i)
{
    int id;
    const unsigned char *e = (const unsigned char *)rmg__content_array(c, kind) + i * rmg__kinds[kind].elem_size;
    memcpy(&id, e + rmg__kinds[kind].id_off, sizeof id);
    return id;
}

static void insert_key(const struct rmg_content *c, int kind, kind_index *ki, size_t i)
{
    size_t mask = ki->cap - 1;
    size_t h = hash_key(rmg__content_key_at(c, kind, i)) & mask;
    while (ki->keys[h])
        h = (h + 1) & mask;
    ki->keys[h] = (uint32_t)(i + 1);
}

/* Keeps the first entity with an id (duplicates are reported by the builder). */
static void insert_id(const struct rmg_content *c, int kind, kind_index *ki, size_t i)
{
    size_t mask = ki->cap - 1;
    int id = entity_id(c, kind, i);
    for (size_t h = mix((uint64_t)(uint32_t)id) & mask;; h = (h + 1) & mask) {
        if (!ki->ids[h]) {
            ki->ids[h] = (uint32_t)(i + 1);
            return;
        }
        if (entity_id(c, kind, ki->ids[h] - 1) == id)
            return;
    }
}

static size_t class_hash(int32_t cls, int32_t sub)
{
    return mix(((uint64_t)(uint32_t)cls << 32) | (uint32_t)sub);
}

static void insert_class(content_index *x, int32_t cls, int32_t sub, size_t i)
{
    size_t mask = x->class_cap - 1;
    for (size_t h = class_hash(cls, sub) & mask;; h = (h + 1) & mask) {
        class_entry *e = &x->classes[h];
        if (!e->index1) {
            *e = (class_entry){cls, sub, (uint32_t)(i + 1)};
            return;
        }
        if (e->cls == cls && e->sub == sub)
            return;
    }
}

rmg_status rmg__content_build_index(rmg_context *ctx, struct rmg_content *c)
{
    content_index *x = rmg__arena_alloc(&c->arena, sizeof *x);
    if (!x)
        return rmg__error_nomem(ctx);
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        kind_index *ki = &x->k[kind];
        size_t n = rmg__content_count_of(c, kind);
        ki->cap = table_cap(n);
        ki->keys = rmg__arena_alloc(&c->arena, ki->cap * sizeof *ki->keys);
        bool with_ids = rmg__kinds[kind].id_off >= 0;
        if (with_ids)
            ki->ids = rmg__arena_alloc(&c->arena, ki->cap * sizeof *ki->ids);
        if (!ki->keys || (with_ids && !ki->ids))
            return rmg__error_nomem(ctx);
        for (size_t i = 0; i < n; i++) {
            insert_key(c, kind, ki, i);
            if (with_ids)
                insert_id(c, kind, ki, i);
        }
    }
    x->class_cap = table_cap(c->n_objects * 2);
    x->classes = rmg__arena_alloc(&c->arena, x->class_cap * sizeof *x->classes);
    if (!x->classes)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < c->n_objects; i++) {
        const rmg__object_def *o = &c->objects[i];
        if (o->map_class < 0)
            continue;
        insert_class(x, o->map_class, o->map_subclass, i);
        insert_class(x, o->map_class, ANY_SUBCLASS, i);
    }
    c->index = x;
    return RMG_OK;
}

long rmg__content_lookup(const struct rmg_content *c, int kind, const char *key)
{
    if (!c || !c->index || !key || kind < 0 || kind >= RMG_CONTENT_KIND_COUNT)
        return -1;
    const kind_index *ki = &((const content_index *)c->index)->k[kind];
    size_t mask = ki->cap - 1;
    for (size_t h = hash_key(key) & mask;; h = (h + 1) & mask) {
        uint32_t v = ki->keys[h];
        if (!v)
            return -1;
        if (strcmp(rmg__content_key_at(c, kind, v - 1), key) == 0)
            return (long)(v - 1);
    }
}

long rmg__content_lookup_id(const struct rmg_content *c, int kind, int id)
{
    if (!c || !c->index || kind < 0 || kind >= RMG_CONTENT_KIND_COUNT)
        return -1;
    const kind_index *ki = &((const content_index *)c->index)->k[kind];
    if (!ki->ids)
        return -1;
    size_t mask = ki->cap - 1;
    for (size_t h = mix((uint64_t)(uint32_t)id) & mask;; h = (h + 1) & mask) {
        uint32_t v = ki->ids[h];
        if (!v)
            return -1;
        if (entity_id(c, kind, v - 1) == id)
            return (long)(v - 1);
    }
}

static long lookup_class(const content_index *x, int32_t cls, int32_t sub)
{
    size_t mask = x->class_cap - 1;
    for (size_t h = class_hash(cls, sub) & mask;; h = (h + 1) & mask) {
        const class_entry *e = &x->classes[h];
        if (!e->index1)
            return -1;
        if (e->cls == cls && e->sub == sub)
            return (long)e->index1 - 1;
    }
}

/* Exact (class, subclass) first; then an object of the class whose subclass is -1 (chosen at
 * placement, e.g. the generic creature dwelling); sub -1 asks for the first of the class. */
long rmg__content_find_object_class(const struct rmg_content *c, int cls, int sub)
{
    if (!c || !c->index)
        return -1;
    const content_index *x = c->index;
    if (sub < 0)
        return lookup_class(x, cls, ANY_SUBCLASS);
    long i = lookup_class(x, cls, sub);
    return i >= 0 ? i : lookup_class(x, cls, -1);
}

long rmg__content_find_object(const struct rmg_content *c, const char *key)
{
    return rmg__content_lookup(c, RMG_CONTENT_OBJECT, key);
}

long rmg__content_find_map_object(const struct rmg_content *c, const char *key)
{
    return rmg__content_lookup(c, RMG_CONTENT_MAP_OBJECT, key);
}

/* The contract's typed finders: a key lookup and an id lookup per kind. */
#define RMG__FINDERS(noun, kind)                                                                 \
    long rmg__content_find_##noun(const struct rmg_content *c, const char *key)                 \
    {                                                                                           \
        return rmg__content_lookup(c, kind, key);                                               \
    }                                                                                           \
    long rmg__content_find_##noun##_id(const struct rmg_content *c, int id)                     \
    {                                                                                           \
        return rmg__content_lookup_id(c, kind, id);                                             \
    }

RMG__FINDERS(creature, RMG_CONTENT_CREATURE)
RMG__FINDERS(faction, RMG_CONTENT_FACTION)
RMG__FINDERS(terrain, RMG_CONTENT_TERRAIN)
RMG__FINDERS(artifact, RMG_CONTENT_ARTIFACT)
RMG__FINDERS(spell, RMG_CONTENT_SPELL)
RMG__FINDERS(skill, RMG_CONTENT_SKILL)
RMG__FINDERS(hero, RMG_CONTENT_HERO)

/* ---- what the variant left out (issue 30) ---------------------------------------------------- */

static bool listed(const char *const *names, size_t n, const char *key)
{
    for (size_t i = 0; key && i < n; i++)
        if (strcmp(names[i], key) == 0)
            return true;
    return false;
}

bool rmg__content_left_out(const struct rmg_content *c, int kind, const char *key)
{
    return c && kind >= 0 && kind < RMG_CONTENT_KIND_COUNT && listed(c->left_out[kind], c->n_left_out[kind], key);
}

bool rmg__content_family_left_out(const struct rmg_content *c, const char *family)
{
    if (!c || !family)
        return false;
    if (listed(c->left_out_families, c->n_left_out_families, family))
        return true;
    /* "resource_warehouses" names the family "resource_warehouse" (rules may use the plural). */
    size_t n = strlen(family);
    for (size_t i = 0; i < c->n_left_out_families; i++)
        if (n == strlen(c->left_out_families[i]) + 1 && family[n - 1] == 's' &&
            strncmp(family, c->left_out_families[i], n - 1) == 0)
            return true;
    return false;
}
