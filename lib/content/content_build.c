/*
 * The ruleset builder: a new ruleset is built aside (a deep copy of the current one, or
 * empty), YAML documents are applied to it (content_apply.c), then references are
 * resolved and checked, and only a complete, valid ruleset is handed back. A failure at any
 * step frees the new ruleset and leaves the caller's one untouched.
 */
#include <stdio.h>
#include <string.h>

#include "content/content_private.h"

/* ---- small helpers --------------------------------------------------------------------- */

static const rmg__kind_desc *desc(int kind)
{
    return &rmg__kinds[kind];
}

unsigned char *rmg__kb_elem(const rmg__builder *b, int kind, size_t i)
{
    return b->k[kind].items + i * desc(kind)->elem_size;
}

rmg__refslot *rmg__kb_slot(const rmg__builder *b, int kind, size_t i, int slot)
{
    return &b->k[kind].refs[i * (size_t)desc(kind)->n_slots + (size_t)slot];
}

/* An invalid-data error at where an entity or reference was given (no file: a copied entity). */
#define FAIL_MARK(b, m, ...)                                                                      \
    rmg__error_at((b)->ctx, RMG_ERR_INVALID_DATA, (m)->file ? (m)->file : "<content>", (m)->line, (m)->col, \
                  __VA_ARGS__)

/* ---- per-kind storage and the build-time key hash ------------------------------------- */

static uint64_t key_hash(const char *s)
{
    return rmg__hash64(s, strlen(s), 0x6b6579u);
}

long rmg__kb_find(const rmg__builder *b, int kind, const char *key)
{
    const rmg__kbuild *k = &b->k[kind];
    if (!k->hcap)
        return -1;
    size_t mask = k->hcap - 1;
    for (size_t h = (size_t)key_hash(key) & mask;; h = (h + 1) & mask) {
        uint32_t v = k->hash[h];
        if (!v)
            return -1;
        if (strcmp(rmg__elem_key(rmg__kb_elem(b, kind, v - 1)), key) == 0)
            return (long)(v - 1);
    }
}

static void kb_hash_insert(rmg__builder *b, int kind, size_t index)
{
    rmg__kbuild *k = &b->k[kind];
    size_t mask = k->hcap - 1;
    size_t h = (size_t)key_hash(rmg__elem_key(rmg__kb_elem(b, kind, index))) & mask;
    while (k->hash[h])
        h = (h + 1) & mask;
    k->hash[h] = (uint32_t)(index + 1);
}

static rmg_status kb_rehash(rmg__builder *b, int kind, size_t need)
{
    rmg__kbuild *k = &b->k[kind];
    if (need * 2 <= k->hcap)
        return RMG_OK;
    size_t cap = k->hcap ? k->hcap : 64;
    while (cap < need * 2)
        cap *= 2;
    uint32_t *h = rmg__calloc(b->ctx, cap, sizeof *h);
    if (!h)
        return rmg__error_nomem(b->ctx);
    rmg__free(b->ctx, k->hash);
    k->hash = h;
    k->hcap = cap;
    for (size_t i = 0; i < k->count; i++)
        kb_hash_insert(b, kind, i);
    return RMG_OK;
}

static rmg_status kb_reserve(rmg__builder *b, int kind, size_t need)
{
    rmg__kbuild *k = &b->k[kind];
    const rmg__kind_desc *d = desc(kind);
    if (need > 1000000)
        return rmg__error_set(b->ctx, RMG_ERR_LIMIT, "more than 1000000 %s", d->plural);
    if (need > k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 32;
        while (cap < need)
            cap *= 2;
        void *items = rmg__realloc(b->ctx, k->items, cap * d->elem_size);
        if (!items)
            return rmg__error_nomem(b->ctx);
        k->items = items;
        void *meta = rmg__realloc(b->ctx, k->meta, cap * sizeof *k->meta);
        if (!meta)
            return rmg__error_nomem(b->ctx);
        k->meta = meta;
        if (d->n_slots) {
            void *refs = rmg__realloc(b->ctx, k->refs, cap * (size_t)d->n_slots * sizeof *k->refs);
            if (!refs)
                return rmg__error_nomem(b->ctx);
            k->refs = refs;
        }
        k->cap = cap;
    }
    return kb_rehash(b, kind, need);
}

/* Sets an entity's fields to their defaults (a new entity, or one added again after removal). */
static void set_defaults(rmg__builder *b, int kind, size_t i, const char *key)
{
    const rmg__kind_desc *d = desc(kind);
    unsigned char *e = rmg__kb_elem(b, kind, i);
    memset(e, 0, d->elem_size);
    rmg__put_ptr(e, 0, key);
    for (size_t f = 0; f < d->n_fields; f++) {
        const rmg__field *fd = &d->fields[f];
        switch (fd->type) {
        case RMG__F_INT:
        case RMG__F_ENUM:
        case RMG__F_SCHOOLS:
            rmg__put_int(e, fd->offset, (int)fd->def);
            break;
        case RMG__F_INT64:
            memcpy(e + fd->offset, &fd->def, sizeof fd->def);
            break;
        case RMG__F_BOOL:
            rmg__put_bool(e, fd->offset, fd->def != 0);
            break;
        case RMG__F_FOOTPRINT: {
            /* An object nobody described occupies its anchor tile, which is its entry. */
            rmg__footprint fp = {(uint64_t)1 << 47, (uint64_t)1 << 47, 0};
            memcpy(e + fd->offset, &fp, sizeof fp);
            break;
        }
        case RMG__F_REF:
            if (fd->ref_mode == RMG__REF_ID || fd->ref_mode == RMG__REF_INDEX)
                rmg__put_int(e, fd->offset, -1);
            break;
        default:
            break;
        }
    }
    memset(&b->k[kind].meta[i], 0, sizeof b->k[kind].meta[i]);
    if (d->n_slots)
        memset(rmg__kb_slot(b, kind, i, 0), 0, (size_t)d->n_slots * sizeof(rmg__refslot));
}

/* Appends an entity with default fields; *index receives its position. */
rmg_status rmg__kb_add(rmg__builder *b, int kind, const char *key, size_t *index)
{
    rmg__kbuild *k = &b->k[kind];
    rmg_status st = kb_reserve(b, kind, k->count + 1);
    if (st)
        return st;
    char *copy = rmg__arena_strdup(&b->out->arena, key);
    if (!copy)
        return rmg__error_nomem(b->ctx);
    size_t i = k->count++;
    set_defaults(b, kind, i, copy);
    kb_hash_insert(b, kind, i);
    *index = i;
    return RMG_OK;
}

void rmg__kb_reset(rmg__builder *b, int kind, size_t i)
{
    set_defaults(b, kind, i, rmg__elem_key(rmg__kb_elem(b, kind, i)));
}

rmg_status rmg__kb_skip(rmg__builder *b, int kind, const char *key)
{
    const char *copy = rmg__arena_strdup(&b->scratch, key);
    if (!copy || !RMG__VEC_PUSH(b->ctx, &b->k[kind].skipped, copy))
        return rmg__error_nomem(b->ctx);
    return RMG_OK;
}

rmg_status rmg__kb_skip_family(rmg__builder *b, const char *family)
{
    for (size_t i = 0; i < b->skipped_families.count; i++)
        if (strcmp(b->skipped_families.items[i], family) == 0)
            return RMG_OK;
    const char *copy = rmg__arena_strdup(&b->scratch, family);
    if (!copy || !RMG__VEC_PUSH(b->ctx, &b->skipped_families, copy))
        return rmg__error_nomem(b->ctx);
    return RMG_OK;
}

bool rmg__kb_was_skipped(const rmg__builder *b, int kind, const char *key)
{
    const rmg__kbuild *k = &b->k[kind];
    for (size_t i = 0; i < k->skipped.count; i++)
        if (strcmp(k->skipped.items[i], key) == 0)
            return true;
    return false;
}

/* ---- deep copy of the base ruleset ------------------------------------------------------ */

static rmg_status copy_strings(rmg__builder *b, int kind, unsigned char *e)
{
    const rmg__kind_desc *d = desc(kind);
    for (size_t f = 0; f < d->n_fields; f++) {
        const rmg__field *fd = &d->fields[f];
        if (fd->type != RMG__F_STR)
            continue;
        const char *s = rmg__get_str(e, fd->offset);
        char *copy = NULL;
        if (s && !(copy = rmg__arena_strdup(&b->out->arena, s)))
            return rmg__error_nomem(b->ctx);
        rmg__put_ptr(e, fd->offset, copy);
    }
    return RMG_OK;
}

rmg_status rmg__kb_slot_keys(rmg__builder *b, rmg__refslot *s, size_t n)
{
    s->set = true;
    s->n = 0;
    s->keys = NULL;
    s->marks = NULL;
    if (n && !(s->keys = rmg__arena_alloc(&b->scratch, n * sizeof *s->keys)))
        return rmg__error_nomem(b->ctx);
    return RMG_OK;
}

/* Turns a resolved reference of the base ruleset back into target keys (of the copy). */
static rmg_status unresolve(rmg__builder *b, const struct rmg_content *base, const rmg__field *fd,
                            const unsigned char *e, rmg__refslot *s)
{
    int tk = fd->ref_kind;
    size_t tn = b->k[tk].count;
    if (fd->ref_mode == RMG__REF_ID || fd->ref_mode == RMG__REF_INDEX) {
        int v = rmg__get_int(e, fd->offset);
        long t = v < 0 ? -1 : fd->ref_mode == RMG__REF_ID ? rmg__content_lookup_id(base, tk, v) : v;
        rmg_status st = rmg__kb_slot_keys(b, s, t >= 0 ? 1 : 0);
        if (st == RMG_OK && t >= 0 && (size_t)t < tn)
            s->keys[s->n++] = rmg__elem_key(rmg__kb_elem(b, tk, (size_t)t));
        return st;
    }
    if (fd->ref_mode == RMG__REF_MASK) {
        uint32_t mask;
        memcpy(&mask, e + fd->offset, sizeof mask);
        rmg_status st = rmg__kb_slot_keys(b, s, tn);
        for (size_t t = 0; st == RMG_OK && t < tn; t++) {
            int id = rmg__get_int(rmg__kb_elem(b, tk, t), (size_t)desc(tk)->id_off);
            if (id >= 0 && id < 32 && (mask & (1u << id)))
                s->keys[s->n++] = rmg__elem_key(rmg__kb_elem(b, tk, t));
        }
        if (fd->aux >= 0)
            memcpy(&s->na, e + fd->aux, sizeof s->na);
        return st;
    }
    int count = rmg__get_int(e, (size_t)fd->aux);
    rmg_status st = rmg__kb_slot_keys(b, s, (size_t)count);
    for (int j = 0; st == RMG_OK && j < count; j++) {
        int t;
        memcpy(&t, e + fd->offset + (size_t)j * sizeof t, sizeof t);
        if (t >= 0 && (size_t)t < tn)
            s->keys[s->n++] = rmg__elem_key(rmg__kb_elem(b, tk, (size_t)t));
    }
    return st;
}

static rmg_status copy_base(rmg__builder *b, const struct rmg_content *base)
{
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        size_t n = rmg__content_count_of(base, kind);
        const unsigned char *src = rmg__content_array(base, kind);
        rmg_status st = kb_reserve(b, kind, n);
        for (size_t i = 0; st == RMG_OK && i < n; i++) {
            size_t at = 0;
            const unsigned char *se = src + i * desc(kind)->elem_size;
            st = rmg__kb_add(b, kind, rmg__elem_key(se), &at);
            if (st)
                break;
            unsigned char *e = rmg__kb_elem(b, kind, at);
            const char *key = rmg__elem_key(e);
            memcpy(e, se, desc(kind)->elem_size);
            rmg__put_ptr(e, 0, key);
            st = copy_strings(b, kind, e);
        }
        if (st)
            return st;
    }
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        const rmg__kind_desc *d = desc(kind);
        for (size_t i = 0; i < b->k[kind].count; i++)
            for (size_t f = 0; f < d->n_fields; f++)
                if (d->fields[f].type == RMG__F_REF) {
                    rmg_status st = unresolve(b, base, &d->fields[f], rmg__kb_elem(b, kind, i),
                                              rmg__kb_slot(b, kind, i, d->fields[f].slot));
                    if (st)
                        return st;
                }
    }
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++)
        for (size_t i = 0; i < base->n_left_out[kind]; i++)
            if (!rmg__kb_was_skipped(b, kind, base->left_out[kind][i])) {
                rmg_status st = rmg__kb_skip(b, kind, base->left_out[kind][i]);
                if (st)
                    return st;
            }
    for (size_t i = 0; i < base->n_left_out_families; i++) {
        rmg_status st = rmg__kb_skip_family(b, base->left_out_families[i]);
        if (st)
            return st;
    }
    const char *name = base->name, *version = base->version;
    if ((name && !(b->out->name = rmg__arena_strdup(&b->out->arena, name))) ||
        (version && !(b->out->version = rmg__arena_strdup(&b->out->arena, version))))
        return rmg__error_nomem(b->ctx);
    return RMG_OK;
}

rmg_status rmg__builder_init(rmg__builder *b, rmg_context *ctx, int variant, const struct rmg_content *base)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    rmg__arena_init(&b->scratch, ctx, 16 * 1024);
    b->out = rmg__calloc(ctx, 1, sizeof *b->out);
    if (!b->out)
        return rmg__error_nomem(ctx);
    b->out->ctx = ctx;
    atomic_init(&b->out->refs, 1);
    rmg__arena_init(&b->out->arena, ctx, 64 * 1024);
    b->out->variant = base ? base->variant : variant;
    rmg_status st = base ? copy_base(b, base) : RMG_OK;
    if (st)
        rmg__builder_abort(b);
    return st;
}

void rmg__builder_abort(rmg__builder *b)
{
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        rmg__kbuild *k = &b->k[kind];
        rmg__free(b->ctx, k->items);
        rmg__free(b->ctx, k->meta);
        rmg__free(b->ctx, k->refs);
        rmg__free(b->ctx, k->hash);
        RMG__VEC_FREE(b->ctx, &k->skipped);
        memset(k, 0, sizeof *k);
    }
    RMG__VEC_FREE(b->ctx, &b->skipped_families);
    rmg__arena_free(&b->scratch);
    if (b->out) {
        rmg__content_free(b->out);
        b->out = NULL;
    }
}

/* ---- finishing: compaction, index, references, checks ----------------------------------- */

/* Drops removed entities, keeping the order of the rest. */
static void compact(rmg__builder *b, int kind)
{
    rmg__kbuild *k = &b->k[kind];
    const rmg__kind_desc *d = desc(kind);
    size_t w = 0;
    for (size_t i = 0; i < k->count; i++) {
        if (k->meta[i].removed)
            continue;
        if (w != i) {
            memcpy(rmg__kb_elem(b, kind, w), rmg__kb_elem(b, kind, i), d->elem_size);
            k->meta[w] = k->meta[i];
            if (d->n_slots)
                memcpy(rmg__kb_slot(b, kind, w, 0), rmg__kb_slot(b, kind, i, 0), (size_t)d->n_slots * sizeof(rmg__refslot));
        }
        w++;
    }
    k->count = w;
}

/* Moves the entity arrays into the ruleset's arena. */
static rmg_status publish_arrays(rmg__builder *b)
{
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        const rmg__kind_desc *d = desc(kind);
        size_t n = b->k[kind].count;
        void *arr = NULL;
        if (n) {
            if (!(arr = rmg__arena_alloc(&b->out->arena, n * d->elem_size)))
                return rmg__error_nomem(b->ctx);
            memcpy(arr, b->k[kind].items, n * d->elem_size);
        }
        memcpy((char *)b->out + d->arr_off, &arr, sizeof arr);
        memcpy((char *)b->out + d->cnt_off, &n, sizeof n);
    }
    return RMG_OK;
}

static unsigned char *out_elem(const rmg__builder *b, int kind, size_t i)
{
    return (unsigned char *)rmg__content_array(b->out, kind) + i * desc(kind)->elem_size;
}

static rmg_status check_ids(rmg__builder *b)
{
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        const rmg__kind_desc *d = desc(kind);
        if (d->id_off < 0)
            continue;
        for (size_t i = 0; i < b->k[kind].count; i++) {
            int id = rmg__get_int(out_elem(b, kind, i), (size_t)d->id_off);
            long first = rmg__content_lookup_id(b->out, kind, id);
            if (first >= 0 && (size_t)first != i)
                return FAIL_MARK(b, &b->k[kind].meta[i].mark, "%s '%s': id %d is already used by '%s'",
                                 d->single, rmg__elem_key(out_elem(b, kind, i)), id,
                                 rmg__elem_key(out_elem(b, kind, (size_t)first)));
        }
    }
    return RMG_OK;
}

/* Stores the resolved targets of one reference field. */
static rmg_status resolve_field(rmg__builder *b, int kind, size_t i, const rmg__field *fd)
{
    const rmg__kind_desc *d = desc(kind);
    unsigned char *e = out_elem(b, kind, i);
    const rmg__refslot *s = rmg__kb_slot(b, kind, i, fd->slot);
    const rmg__mark *m = s->mark.line ? &s->mark : &b->k[kind].meta[i].mark;
    int tk = fd->ref_kind;
    uint32_t mask = 0;
    int list[4], n = 0;
    for (size_t j = 0; s->set && j < s->n; j++) {
        long t = rmg__content_lookup(b->out, tk, s->keys[j]);
        const rmg__mark *km = s->marks ? &s->marks[j] : m;
        if (t < 0) {
            bool skipped = rmg__kb_was_skipped(b, tk, s->keys[j]);
            if (skipped && !(fd->flags & RMG__REQUIRED))
                continue;
            return FAIL_MARK(b, km, "%s '%s': field '%s': %s %s '%s'", d->single, rmg__elem_key(e), fd->name,
                             skipped ? "refers to the left-out" : "unknown", desc(tk)->single, s->keys[j]);
        }
        int tid = desc(tk)->id_off >= 0 ? rmg__get_int(out_elem(b, tk, (size_t)t), (size_t)desc(tk)->id_off) : -1;
        if (fd->ref_mode == RMG__REF_MASK) {
            if (tid < 0 || tid > 31)
                return FAIL_MARK(b, m, "%s '%s': field '%s': %s '%s' has id %d (masks hold ids 0..31)",
                                 d->single, rmg__elem_key(e), fd->name, desc(tk)->single, s->keys[j], tid);
            mask |= 1u << tid;
        } else if (n < 4) {
            list[n++] = fd->ref_mode == RMG__REF_ID ? tid : (int)t;
        }
    }
    switch (fd->ref_mode) {
    case RMG__REF_ID:
    case RMG__REF_INDEX:
        if (n == 0 && (fd->flags & RMG__REQUIRED))
            return FAIL_MARK(b, m, "%s '%s': field '%s' needs a %s", d->single, rmg__elem_key(e), fd->name,
                             desc(tk)->single);
        rmg__put_int(e, fd->offset, n ? list[0] : -1);
        break;
    case RMG__REF_MASK:
        memcpy(e + fd->offset, &mask, sizeof mask);
        if (fd->aux >= 0)
            rmg__put_bool(e, (size_t)fd->aux, s->na);
        break;
    case RMG__REF_LIST:
        for (int j = 0; j < 4; j++)
            rmg__put_int(e, fd->offset + (size_t)j * sizeof(int), j < n ? list[j] : -1);
        rmg__put_int(e, (size_t)fd->aux, n);
        break;
    }
    return RMG_OK;
}

static rmg_status resolve_refs(rmg__builder *b)
{
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++) {
        const rmg__kind_desc *d = desc(kind);
        for (size_t i = 0; i < b->k[kind].count; i++)
            for (size_t f = 0; f < d->n_fields; f++)
                if (d->fields[f].type == RMG__F_REF) {
                    rmg_status st = resolve_field(b, kind, i, &d->fields[f]);
                    if (st)
                        return st;
                }
    }
    return RMG_OK;
}

/* Rules that involve more than one field. */
static rmg_status check_creatures(rmg__builder *b)
{
    for (size_t i = 0; i < b->out->n_creatures; i++) {
        const rmg__creature *c = &b->out->creatures[i];
        const rmg__mark *m = &b->k[RMG_CONTENT_CREATURE].meta[i].mark;
        if (!c->special && (c->level < 1 || c->level > 7))
            return FAIL_MARK(b, m, "creature '%s': level %d is out of range 1..7 (only special "
                             "creatures may have level 0)", c->key, c->level);
        if (c->map_min > c->map_max)
            return FAIL_MARK(b, m, "creature '%s': map_min %d is above map_max %d", c->key, c->map_min,
                             c->map_max);
    }
    return RMG_OK;
}

static rmg_status check_artifacts(rmg__builder *b)
{
    for (size_t i = 0; i < b->out->n_artifacts; i++) {
        const rmg__artifact *a = &b->out->artifacts[i];
        if (a->part_of < 0 || b->out->artifacts[a->part_of].combination)
            continue;
        /* Point at whichever side this input gave (the part, else the changed combination). */
        const rmg__emeta *meta = b->k[RMG_CONTENT_ARTIFACT].meta;
        const rmg__mark *m = meta[i].mark.file ? &meta[i].mark : &meta[a->part_of].mark;
        return FAIL_MARK(b, m, "artifact '%s': part_of '%s' is not a combination artifact", a->key,
                         b->out->artifacts[a->part_of].key);
    }
    return RMG_OK;
}

static rmg_status check_objects(rmg__builder *b, int kind)
{
    const rmg__object_def *objs = rmg__content_array(b->out, kind);
    for (size_t i = 0; i < rmg__content_count_of(b->out, kind); i++) {
        const rmg__object_def *o = &objs[i];
        const rmg__mark *m = &b->k[kind].meta[i].mark;
        if (o->spell_level_max >= 0 && o->spell_level > o->spell_level_max)
            return FAIL_MARK(b, m, "%s '%s': spell_level %d is above spell_level_max %d",
                             desc(kind)->single, o->key, o->spell_level, o->spell_level_max);
        if (o->footprint.block == 0 && o->footprint.visit == 0)
            return FAIL_MARK(b, m, "%s '%s': the footprint has no tile", desc(kind)->single, o->key);
    }
    return RMG_OK;
}

static rmg_status pick_variant_names(rmg__builder *b)
{
    if (b->out->variant != RMG_CONTENT_SOD)
        return RMG_OK;
    if (b->sod_name)
        b->out->name = b->sod_name;
    if (b->sod_version)
        b->out->version = b->sod_version;
    return RMG_OK;
}

/* Copies a list of left-out names into the ruleset's arena. */
static rmg_status publish_names(rmg__builder *b, const char *const *names, size_t n, const char ***out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (!n)
        return RMG_OK;
    const char **copy = rmg__arena_alloc(&b->out->arena, n * sizeof *copy);
    if (!copy)
        return rmg__error_nomem(b->ctx);
    for (size_t i = 0; i < n; i++)
        if (!(copy[i] = rmg__arena_strdup(&b->out->arena, names[i])))
            return rmg__error_nomem(b->ctx);
    *out = copy;
    *count = n;
    return RMG_OK;
}

/* The keys the variant left out, and their objects' families, for template validation. */
static rmg_status publish_left_out(rmg__builder *b)
{
    rmg_status st = RMG_OK;
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT && st == RMG_OK; kind++)
        st = publish_names(b, b->k[kind].skipped.items, b->k[kind].skipped.count, &b->out->left_out[kind],
                           &b->out->n_left_out[kind]);
    if (st == RMG_OK)
        st = publish_names(b, b->skipped_families.items, b->skipped_families.count, &b->out->left_out_families,
                           &b->out->n_left_out_families);
    return st;
}

rmg_status rmg__builder_finish(rmg__builder *b, struct rmg_content **out)
{
    *out = NULL;
    for (int kind = 0; kind < RMG_CONTENT_KIND_COUNT; kind++)
        compact(b, kind);
    rmg_status st = publish_arrays(b);
    if (st == RMG_OK)
        st = rmg__content_build_index(b->ctx, b->out);
    if (st == RMG_OK)
        st = check_ids(b);
    if (st == RMG_OK)
        st = resolve_refs(b);
    if (st == RMG_OK)
        st = check_creatures(b);
    if (st == RMG_OK)
        st = check_artifacts(b);
    if (st == RMG_OK)
        st = check_objects(b, RMG_CONTENT_OBJECT);
    if (st == RMG_OK)
        st = check_objects(b, RMG_CONTENT_MAP_OBJECT);
    if (st == RMG_OK)
        st = pick_variant_names(b);
    if (st == RMG_OK)
        st = publish_left_out(b);
    if (st == RMG_OK) {
        *out = b->out;
        b->out = NULL;
    }
    rmg__builder_abort(b);
    return st;
}
