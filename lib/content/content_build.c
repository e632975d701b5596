/*
 * The ruleset builder: a new ruleset is built aside (a deep copy of the current one, or
 * empty), YAML documents are applied to it (add / change / remove), then references are
 * resolved and checked, and only a complete, valid ruleset is handed back. A failure at any
 * step frees the new ruleset and leaves the caller's one untouched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_private.h"

/* ---- small helpers --------------------------------------------------------------------- */

static const rmg__kind_desc *desc(int kind)
{
    return &rmg__kinds[kind];
}

static unsigned char *elem_at(const rmg__builder *b, int kind, size_t i)
{
    return b->k[kind].items + i * desc(kind)->elem_size;
}

static const char *elem_key(const unsigned char *e)
{
    const char *key;
    memcpy(&key, e, sizeof key);
    return key;
}

static rmg__refslot *slot_at(const rmg__builder *b, int kind, size_t i, int slot)
{
    return &b->k[kind].refs[i * (size_t)desc(kind)->n_slots + (size_t)slot];
}

static void put_int(unsigned char *e, size_t off, int v)
{
    memcpy(e + off, &v, sizeof v);
}

static int get_int(const unsigned char *e, size_t off)
{
    int v;
    memcpy(&v, e + off, sizeof v);
    return v;
}

static void put_bool(unsigned char *e, size_t off, bool v)
{
    memcpy(e + off, &v, sizeof v);
}

static void put_ptr(unsigned char *e, size_t off, const void *p)
{
    memcpy(e + off, &p, sizeof p);
}

static char *get_str(const unsigned char *e, size_t off)
{
    char *s;
    memcpy(&s, e + off, sizeof s);
    return s;
}

/* Error at a node (or a mark) of the current input. */
RMG__PRINTF(5, 6)
static rmg_status fail_at(rmg__builder *b, rmg_status st, const char *file, const rmg__ynode *node, const char *fmt,
                          ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rmg__error_at(b->ctx, st, file, node ? node->line : 0, node ? node->col : 0, "%s", msg);
}

RMG__PRINTF(4, 5)
static rmg_status fail_mark(rmg__builder *b, const rmg__mark *m, const char *fallback_file, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rmg__error_at(b->ctx, RMG_ERR_INVALID_DATA, m->file ? m->file : fallback_file, m->line, m->col, "%s",
                         msg);
}

/* ---- per-kind storage and the build-time key hash ------------------------------------- */

static uint64_t key_hash(const char *s)
{
    return rmg__hash64(s, strlen(s), 0x6b6579u);
}

static long kb_find(const rmg__builder *b, int kind, const char *key)
{
    const rmg__kbuild *k = &b->k[kind];
    if (!k->hcap)
        return -1;
    size_t mask = k->hcap - 1;
    for (size_t h = (size_t)key_hash(key) & mask;; h = (h + 1) & mask) {
        uint32_t v = k->hash[h];
        if (!v)
            return -1;
        if (strcmp(elem_key(elem_at(b, kind, v - 1)), key) == 0)
            return (long)(v - 1);
    }
}

static void kb_hash_insert(rmg__builder *b, int kind, size_t index)
{
    rmg__kbuild *k = &b->k[kind];
    size_t mask = k->hcap - 1;
    size_t h = (size_t)key_hash(elem_key(elem_at(b, kind, index))) & mask;
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
    unsigned char *e = elem_at(b, kind, i);
    memset(e, 0, d->elem_size);
    put_ptr(e, 0, key);
    for (size_t f = 0; f < d->n_fields; f++) {
        const rmg__field *fd = &d->fields[f];
        switch (fd->type) {
        case RMG__F_INT:
        case RMG__F_ENUM:
        case RMG__F_SCHOOLS:
            put_int(e, fd->offset, (int)fd->def);
            break;
        case RMG__F_INT64:
            memcpy(e + fd->offset, &fd->def, sizeof fd->def);
            break;
        case RMG__F_BOOL:
            put_bool(e, fd->offset, fd->def != 0);
            break;
        case RMG__F_FOOTPRINT: {
            /* An object nobody described occupies its anchor tile, which is its entry. */
            rmg__footprint fp = {(uint64_t)1 << 47, (uint64_t)1 << 47, 0};
            memcpy(e + fd->offset, &fp, sizeof fp);
            break;
        }
        case RMG__F_REF:
            if (fd->ref_mode == RMG__REF_ID || fd->ref_mode == RMG__REF_INDEX)
                put_int(e, fd->offset, -1);
            break;
        default:
            break;
        }
    }
    memset(&b->k[kind].meta[i], 0, sizeof b->k[kind].meta[i]);
    if (d->n_slots)
        memset(slot_at(b, kind, i, 0), 0, (size_t)d->n_slots * sizeof(rmg__refslot));
}

/* Appends an entity with default fields; *index receives its position. */
static rmg_status kb_add(rmg__builder *b, int kind, const char *key, size_t *index)
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

/* ---- deep copy of the base ruleset ------------------------------------------------------ */

static rmg_status copy_strings(rmg__builder *b, int kind, unsigned char *e)
{
    const rmg__kind_desc *d = desc(kind);
    for (size_t f = 0; f < d->n_fields; f++) {
        const rmg__field *fd = &d->fields[f];
        if (fd->type != RMG__F_STR)
            continue;
        const char *s = get_str(e, fd->offset);
        char *copy = NULL;
        if (s && !(copy = rmg__arena_strdup(&b->out->arena, s)))
            return rmg__error_nomem(b->ctx);
        put_ptr(e, fd->offset, copy);
    }
    return RMG_OK;
}

static rmg_status slot_keys(rmg__builder *b, rmg__refslot *s, size_t n)
{
    s->set = true;
    s->n = 0;
    s->keys = NULL;
    if (n && !(s->keys = rmg__arena_alloc(&b->out->arena, n * sizeof *s->keys)))
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
        int v = get_int(e, fd->offset);
        long t = v < 0 ? -1 : fd->ref_mode == RMG__REF_ID ? rmg__content_lookup_id(base, tk, v) : v;
        rmg_status st = slot_keys(b, s, t >= 0 ? 1 : 0);
        if (st == RMG_OK && t >= 0 && (size_t)t < tn)
            s->keys[s->n++] = elem_key(elem_at(b, tk, (size_t)t));
        return st;
    }
    if (fd->ref_mode == RMG__REF_MASK) {
        uint32_t mask;
        memcpy(&mask, e + fd->offset, sizeof mask);
        rmg_status st = slot_keys(b, s, tn);
        for (size_t t = 0; st == RMG_OK && t < tn; t++) {
            int id = get_int(elem_at(b, tk, t), (size_t)desc(tk)->id_off);
            if (id >= 0 && id < 32 && (mask & (1u << id)))
                s->keys[s->n++] = elem_key(elem_at(b, tk, t));
        }
        if (fd->aux >= 0)
            memcpy(&s->na, e + fd->aux, sizeof s->na);
        return st;
    }
    int count = get_int(e, (size_t)fd->aux);
    rmg_status st = slot_keys(b, s, (size_t)count);
    for (int j = 0; st == RMG_OK && j < count; j++) {
        int t;
        memcpy(&t, e + fd->offset + (size_t)j * sizeof t, sizeof t);
        if (t >= 0 && (size_t)t < tn)
            s->keys[s->n++] = elem_key(elem_at(b, tk, (size_t)t));
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
            size_t at;
            const unsigned char *se = src + i * desc(kind)->elem_size;
            st = kb_add(b, kind, elem_key(se), &at);
            if (st)
                break;
            unsigned char *e = elem_at(b, kind, at);
            const char *key = elem_key(e);
            memcpy(e, se, desc(kind)->elem_size);
            put_ptr(e, 0, key);
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
                    rmg_status st = unresolve(b, base, &d->fields[f], elem_at(b, kind, i),
                                              slot_at(b, kind, i, d->fields[f].slot));
                    if (st)
                        return st;
                }
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
    b->out = rmg__calloc(ctx, 1, sizeof *b->out);
    if (!b->out)
        return rmg__error_nomem(ctx);
    b->out->ctx = ctx;
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
    if (b->out) {
        rmg__content_free(b->out);
        b->out = NULL;
    }
}

/* ---- scalar parsing --------------------------------------------------------------------- */

typedef struct applyctx {
    rmg__builder *b;
    const char *file;
    int kind;
    const char *key;     /* entity key (messages) */
} applyctx;

static bool is_null(const rmg__ynode *n)
{
    return n->type == RMG__Y_SCALAR && n->plain &&
           (n->len == 0 || strcmp(n->str, "~") == 0 || strcmp(n->str, "null") == 0);
}

static rmg_status bad_value(applyctx *a, const rmg__ynode *n, const char *field, const char *expected)
{
    return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, n, "%s '%s': field '%s': expected %s", desc(a->kind)->single,
                   a->key, field, expected);
}

static rmg_status need_scalar(applyctx *a, const rmg__ynode *n, const char *field, const char *expected)
{
    return n->type == RMG__Y_SCALAR ? RMG_OK : bad_value(a, n, field, expected);
}

static bool parse_i64(const rmg__ynode *n, int base, int64_t *out)
{
    if (n->type != RMG__Y_SCALAR || n->len == 0)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(n->str, &end, base);
    if (errno || *end || end == n->str)
        return false;
    *out = (int64_t)v;
    return true;
}

static bool parse_bool(const rmg__ynode *n, bool *out)
{
    if (n->type != RMG__Y_SCALAR)
        return false;
    if (strcmp(n->str, "true") == 0 || strcmp(n->str, "yes") == 0) {
        *out = true;
        return true;
    }
    if (strcmp(n->str, "false") == 0 || strcmp(n->str, "no") == 0) {
        *out = false;
        return true;
    }
    return false;
}

static const struct {
    const char *word;
    unsigned bit;
    int64_t value;
} special_words[] = {
    {"formula", RMG__W_FORMULA, RMG__VALUE_FORMULA},
    {"n/a", RMG__W_NA, RMG__NA},
    {"unlimited", RMG__W_UNLIMITED, RMG__UNLIMITED},
    {"rule", RMG__W_RULE, RMG__RULE},
};

static rmg_status range_error(applyctx *a, const rmg__ynode *n, const rmg__field *fd, int64_t v)
{
    return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, n, "%s '%s': field '%s': %" PRId64 " is out of range %" PRId64
                   "..%" PRId64, desc(a->kind)->single, a->key, fd->name, v, fd->min, fd->max);
}

static rmg_status set_int64(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n)
{
    rmg_status st = need_scalar(a, n, fd->name, "an integer");
    if (st)
        return st;
    for (size_t w = 0; w < RMG__ARRAY_LEN(special_words); w++)
        if ((fd->words & special_words[w].bit) && strcmp(n->str, special_words[w].word) == 0) {
            memcpy(e + fd->offset, &special_words[w].value, sizeof(int64_t));
            return RMG_OK;
        }
    int64_t v;
    if (!parse_i64(n, 10, &v)) {
        char expected[128] = "an integer";
        for (size_t w = 0, k = 0; w < RMG__ARRAY_LEN(special_words); w++)
            if (fd->words & special_words[w].bit) {
                size_t len = strlen(expected);
                snprintf(expected + len, sizeof expected - len, "%s%s", k++ ? ", " : " or one of ", special_words[w].word);
            }
        return bad_value(a, n, fd->name, expected);
    }
    if (v < fd->min || v > fd->max)
        return range_error(a, n, fd, v);
    memcpy(e + fd->offset, &v, sizeof v);
    return RMG_OK;
}

static rmg_status set_int(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n, int base)
{
    rmg_status st = need_scalar(a, n, fd->name, "an integer");
    int64_t v;
    if (st == RMG_OK && !parse_i64(n, base, &v))
        st = bad_value(a, n, fd->name, "an integer");
    if (st == RMG_OK && (v < fd->min || v > fd->max))
        st = range_error(a, n, fd, v);
    if (st == RMG_OK) {
        if (fd->type == RMG__F_COLOR) {
            uint32_t c = (uint32_t)v;
            memcpy(e + fd->offset, &c, sizeof c);
        } else {
            put_int(e, fd->offset, (int)v);
        }
    }
    return st;
}

static rmg_status set_enum(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n)
{
    if (n->type == RMG__Y_SCALAR)
        for (int i = 0; fd->names[i]; i++)
            if (strcmp(n->str, fd->names[i]) == 0) {
                put_int(e, fd->offset, i);
                return RMG_OK;
            }
    char expected[256] = "one of";
    for (int i = 0; fd->names[i]; i++) {
        size_t len = strlen(expected);
        snprintf(expected + len, sizeof expected - len, "%s %s", i ? "," : "", fd->names[i]);
    }
    return bad_value(a, n, fd->name, expected);
}

static rmg_status set_schools(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n)
{
    static const char *const names[] = {"air", "fire", "water", "earth"};
    if (n->type != RMG__Y_SEQ)
        return bad_value(a, n, fd->name, "a list of schools (air, fire, water, earth)");
    int mask = 0;
    for (size_t i = 0; i < n->n; i++) {
        const rmg__ynode *s = n->items[i];
        int bit = -1;
        for (int j = 0; j < 4 && s->type == RMG__Y_SCALAR; j++)
            if (strcmp(s->str, names[j]) == 0)
                bit = j;
        if (bit < 0)
            return bad_value(a, s, fd->name, "a school (air, fire, water, earth)");
        mask |= 1 << bit;
    }
    put_int(e, fd->offset, mask);
    return RMG_OK;
}

/* Rows top to bottom, right-aligned to the anchor (row 5, column 7). */
static rmg_status set_footprint(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n)
{
    const char *expected = "a list of at most 6 rows of at most 8 characters from '.#Vv'";
    if (n->type != RMG__Y_SEQ || n->n == 0 || n->n > 6)
        return bad_value(a, n, fd->name, expected);
    rmg__footprint fp;
    memcpy(&fp, e + fd->offset, sizeof fp);
    fp.block = fp.visit = 0;
    for (size_t r = 0; r < n->n; r++) {
        const rmg__ynode *row = n->items[r];
        if (row->type != RMG__Y_SCALAR || row->len == 0 || row->len > 8)
            return bad_value(a, row, fd->name, expected);
        size_t y = 6 - n->n + r;
        for (size_t j = 0; j < row->len; j++) {
            size_t x = 8 - row->len + j;
            uint64_t bit = (uint64_t)1 << (y * 8 + x);
            switch (row->str[j]) {
            case '.': break;
            case '#': fp.block |= bit; break;
            case 'V': fp.block |= bit; fp.visit |= bit; break;
            case 'v': fp.visit |= bit; break;
            default: return bad_value(a, row, fd->name, expected);
            }
        }
    }
    memcpy(e + fd->offset, &fp, sizeof fp);
    return RMG_OK;
}

static rmg_status push_key(rmg__builder *b, rmg__refslot *s, const char *key)
{
    const char *copy = rmg__arena_strdup(&b->out->arena, key);
    if (!copy)
        return rmg__error_nomem(b->ctx);
    s->keys[s->n++] = copy;
    return RMG_OK;
}

static rmg_status set_ref(applyctx *a, size_t index, const rmg__field *fd, const rmg__ynode *n)
{
    rmg__builder *b = a->b;
    rmg__refslot *s = slot_at(b, a->kind, index, fd->slot);
    bool list = fd->ref_mode == RMG__REF_MASK || fd->ref_mode == RMG__REF_LIST;
    const char *what = desc(fd->ref_kind)->single;
    char expected[96];
    snprintf(expected, sizeof expected, list ? "a list of %s keys" : "a %s key", what);
    rmg_status st;
    if (list && fd->aux >= 0 && fd->ref_mode == RMG__REF_MASK && n->type == RMG__Y_SCALAR && strcmp(n->str, "n/a") == 0) {
        st = slot_keys(b, s, 0);
        s->na = true;
    } else if (!list && (n->type == RMG__Y_SCALAR)) {
        st = slot_keys(b, s, is_null(n) ? 0 : 1);
        if (st == RMG_OK && !is_null(n))
            st = push_key(b, s, n->str);
        s->na = false;
    } else if (list && n->type == RMG__Y_SEQ) {
        if (fd->ref_mode == RMG__REF_LIST && n->n > 4)
            return bad_value(a, n, fd->name, "at most 4 keys");
        st = slot_keys(b, s, n->n);
        for (size_t i = 0; st == RMG_OK && i < n->n; i++) {
            if (n->items[i]->type != RMG__Y_SCALAR)
                return bad_value(a, n->items[i], fd->name, expected);
            st = push_key(b, s, n->items[i]->str);
        }
        s->na = false;
    } else {
        return bad_value(a, n, fd->name, expected);
    }
    s->mark = (rmg__mark){a->file, n->line, n->col};
    return st;
}

static rmg_status set_field(applyctx *a, size_t index, const rmg__field *fd, const rmg__ynode *n)
{
    unsigned char *e = elem_at(a->b, a->kind, index);
    switch (fd->type) {
    case RMG__F_STR: {
        rmg_status st = need_scalar(a, n, fd->name, "a string");
        char *copy = NULL;
        if (st == RMG_OK && !(copy = rmg__arena_strdup(&a->b->out->arena, n->str)))
            st = rmg__error_nomem(a->b->ctx);
        if (st == RMG_OK)
            put_ptr(e, fd->offset, copy);
        return st;
    }
    case RMG__F_INT:
        return set_int(a, e, fd, n, 10);
    case RMG__F_COLOR:
        return set_int(a, e, fd, n, 0);
    case RMG__F_INT64:
        return set_int64(a, e, fd, n);
    case RMG__F_BOOL: {
        bool v;
        if (!parse_bool(n, &v))
            return bad_value(a, n, fd->name, "true or false");
        put_bool(e, fd->offset, v);
        return RMG_OK;
    }
    case RMG__F_ENUM:
        return set_enum(a, e, fd, n);
    case RMG__F_SCHOOLS:
        return set_schools(a, e, fd, n);
    case RMG__F_FOOTPRINT:
        return set_footprint(a, e, fd, n);
    case RMG__F_REF:
        return set_ref(a, index, fd, n);
    }
    return RMG_ERR_INTERNAL;
}

/* ---- applying a document ---------------------------------------------------------------- */

/* Field `name` of a kind; *pos is both a hint (YAML usually lists fields in schema order,
 * so the search starts after the previous match) and the result. */
static const rmg__field *find_field(int kind, const char *name, size_t *pos)
{
    const rmg__kind_desc *d = desc(kind);
    for (size_t i = 0; i < d->n_fields; i++) {
        size_t f = (*pos + i) % d->n_fields;
        if (strcmp(d->fields[f].name, name) == 0) {
            *pos = f;
            return &d->fields[f];
        }
    }
    return NULL;
}

/* The entity-level keys that are not fields. */
typedef struct special_keys {
    const rmg__ynode *remove, *hota, *sod;
} special_keys;

static const rmg__ynode **special_slot(special_keys *s, const char *key)
{
    switch (key[0]) {
    case 'r': return strcmp(key, "remove") == 0 ? &s->remove : NULL;
    case 'h': return strcmp(key, "hota") == 0 ? &s->hota : NULL;
    case 's': return strcmp(key, "sod") == 0 ? &s->sod : NULL;
    default: return NULL;
    }
}

/* Applies the field mapping `map` (the entity's own, or its `sod:` overrides). `apply` false
 * only checks that the keys are fields (the `sod:` block of the HotA ruleset). */
static rmg_status apply_fields(applyctx *a, size_t index, const rmg__ynode *map, bool apply, uint64_t *given)
{
    size_t pos = 0;
    for (size_t i = 0; i < map->n; i++) {
        const rmg__ynode *k = map->items[2 * i], *v = map->items[2 * i + 1];
        if (k->type != RMG__Y_SCALAR)
            return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': field names must be scalars",
                           desc(a->kind)->single, a->key);
        special_keys ignored;
        if (special_slot(&ignored, k->str)) {
            if (given)
                continue; /* handled by apply_entity */
            return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': '%s' is not allowed inside 'sod'",
                           desc(a->kind)->single, a->key, k->str);
        }
        const rmg__field *fd = find_field(a->kind, k->str, &pos);
        if (!fd)
            return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': unknown field '%s'",
                           desc(a->kind)->single, a->key, k->str);
        if (given && (*given & ((uint64_t)1 << pos)))
            return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': field '%s' given twice",
                           desc(a->kind)->single, a->key, k->str);
        if (given)
            *given |= (uint64_t)1 << pos;
        if (apply) {
            rmg_status st = set_field(a, index, fd, v);
            if (st)
                return st;
        }
    }
    return RMG_OK;
}

static rmg_status check_required(applyctx *a, const rmg__ynode *map, uint64_t given)
{
    const rmg__kind_desc *d = desc(a->kind);
    for (size_t f = 0; f < d->n_fields; f++) {
        unsigned fl = d->fields[f].flags;
        bool req = (fl & RMG__REQUIRED) || ((fl & RMG__REQUIRED_CONTENT) && d->content_object);
        if (req && !(given & ((uint64_t)1 << f)))
            return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, map, "new %s '%s' lacks required field '%s'",
                           d->single, a->key, d->fields[f].name);
    }
    return RMG_OK;
}

static rmg_status skip_entity(applyctx *a)
{
    rmg__kbuild *k = &a->b->k[a->kind];
    const char *key = rmg__arena_strdup(&a->b->out->arena, a->key);
    if (!key || !RMG__VEC_PUSH(a->b->ctx, &k->skipped, key))
        return rmg__error_nomem(a->b->ctx);
    return RMG_OK;
}

static bool was_skipped(const rmg__builder *b, int kind, const char *key)
{
    const rmg__kbuild *k = &b->k[kind];
    for (size_t i = 0; i < k->skipped.count; i++)
        if (strcmp(k->skipped.items[i], key) == 0)
            return true;
    return false;
}

/* Finds remove / hota / sod in an entity mapping (one pass) and reads the two flags. */
static rmg_status read_specials(applyctx *a, const rmg__ynode *map, special_keys *s, bool *removing, bool *hota)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < map->n; i++) {
        const rmg__ynode *k = map->items[2 * i];
        const rmg__ynode **slot = k->type == RMG__Y_SCALAR ? special_slot(s, k->str) : NULL;
        if (slot)
            *slot = map->items[2 * i + 1];
    }
    *removing = *hota = false;
    if (s->remove && !parse_bool(s->remove, removing))
        return bad_value(a, s->remove, "remove", "true or false");
    if (s->hota && !parse_bool(s->hota, hota))
        return bad_value(a, s->hota, "hota", "true or false");
    if (s->sod && s->sod->type != RMG__Y_MAP)
        return bad_value(a, s->sod, "sod", "a mapping of fields");
    return RMG_OK;
}

static rmg_status remove_entity(applyctx *a, long at, const rmg__ynode *map)
{
    if (at < 0) {
        if (was_skipped(a->b, a->kind, a->key))
            return RMG_OK;
        return fail_at(a->b, RMG_ERR_INVALID_DATA, a->file, map, "cannot remove unknown %s '%s'",
                       desc(a->kind)->single, a->key);
    }
    rmg__emeta *m = &a->b->k[a->kind].meta[at];
    m->removed = true;
    m->mark = (rmg__mark){a->file, map->line, map->col};
    m->serial = a->b->serial;
    return RMG_OK;
}

static rmg_status apply_entity(applyctx *a, const rmg__ynode *keynode, const rmg__ynode *map)
{
    rmg__builder *b = a->b;
    const rmg__kind_desc *d = desc(a->kind);
    if (map->type != RMG__Y_MAP)
        return fail_at(b, RMG_ERR_INVALID_DATA, a->file, map, "%s '%s': expected a mapping of fields", d->single,
                       a->key);
    long at = kb_find(b, a->kind, a->key);
    if (at >= 0 && b->k[a->kind].meta[at].serial == b->serial)
        return fail_at(b, RMG_ERR_INVALID_DATA, a->file, keynode, "duplicate %s '%s'", d->single, a->key);
    special_keys sk;
    bool removing, hota;
    rmg_status st = read_specials(a, map, &sk, &removing, &hota);
    if (st)
        return st;
    if (removing)
        return remove_entity(a, at, map);
    if (hota && b->out->variant == RMG_CONTENT_SOD) {
        /* HotA-only content is not part of SoD: an existing entity marked so leaves. */
        rmg_status rs = at >= 0 ? remove_entity(a, at, map) : RMG_OK;
        return rs ? rs : skip_entity(a);
    }
    bool is_new = at < 0 || b->k[a->kind].meta[at].removed;
    size_t index;
    if (at < 0) {
        st = kb_add(b, a->kind, a->key, &index);
        if (st)
            return st;
    } else {
        index = (size_t)at;
        if (is_new)
            set_defaults(b, a->kind, index, elem_key(elem_at(b, a->kind, index)));
    }
    uint64_t given = 0;
    st = apply_fields(a, index, map, true, &given);
    if (st == RMG_OK && sk.sod)
        st = apply_fields(a, index, sk.sod, b->out->variant == RMG_CONTENT_SOD, NULL);
    if (st == RMG_OK && is_new)
        st = check_required(a, map, given);
    if (st)
        return st;
    if (d->hota_off >= 0 && (is_new || sk.hota))
        put_bool(elem_at(b, a->kind, index), (size_t)d->hota_off, hota);
    b->k[a->kind].meta[index].mark = (rmg__mark){a->file, keynode->line, keynode->col};
    b->k[a->kind].meta[index].serial = b->serial;
    return RMG_OK;
}

static rmg_status apply_section(rmg__builder *b, const char *file, int kind, const rmg__ynode *sec)
{
    if (is_null(sec))
        return RMG_OK;
    if (sec->type != RMG__Y_MAP)
        return fail_at(b, RMG_ERR_INVALID_DATA, file, sec, "'%s' must map keys to %s definitions",
                       desc(kind)->plural, desc(kind)->single);
    applyctx a = {b, file, kind, NULL};
    for (size_t i = 0; i < sec->n; i++) {
        const rmg__ynode *k = sec->items[2 * i];
        if (k->type != RMG__Y_SCALAR || k->len == 0)
            return fail_at(b, RMG_ERR_INVALID_DATA, file, k, "%s keys must be non-empty strings", desc(kind)->single);
        a.key = k->str;
        rmg_status st = apply_entity(&a, k, sec->items[2 * i + 1]);
        if (st)
            return st;
    }
    return RMG_OK;
}

static rmg_status apply_ruleset(rmg__builder *b, const char *file, const rmg__ynode *n)
{
    if (n->type != RMG__Y_MAP)
        return fail_at(b, RMG_ERR_INVALID_DATA, file, n, "'ruleset' must be a mapping");
    for (size_t i = 0; i < n->n; i++) {
        const rmg__ynode *k = n->items[2 * i], *v = n->items[2 * i + 1];
        char **dst = NULL;
        if (k->type == RMG__Y_SCALAR) {
            if (strcmp(k->str, "name") == 0)
                dst = &b->out->name;
            else if (strcmp(k->str, "version") == 0)
                dst = &b->out->version;
            else if (strcmp(k->str, "sod_name") == 0)
                dst = &b->sod_name;
            else if (strcmp(k->str, "sod_version") == 0)
                dst = &b->sod_version;
        }
        if (!dst)
            return fail_at(b, RMG_ERR_INVALID_DATA, file, k, "ruleset: unknown field '%s'",
                           k->type == RMG__Y_SCALAR ? k->str : "?");
        if (v->type != RMG__Y_SCALAR)
            return fail_at(b, RMG_ERR_INVALID_DATA, file, v, "ruleset: '%s' must be a string", k->str);
        if (!(*dst = rmg__arena_strdup(&b->out->arena, v->str)))
            return rmg__error_nomem(b->ctx);
    }
    return RMG_OK;
}

rmg_status rmg__builder_apply(rmg__builder *b, const rmg__ydoc *doc)
{
    const rmg__ynode *root = doc->root;
    b->serial++;
    if (!root || is_null(root))
        return RMG_OK;
    if (root->type != RMG__Y_MAP)
        return fail_at(b, RMG_ERR_INVALID_DATA, doc->file, root, "content must be a mapping of sections (%s, ...)",
                       rmg__kinds[0].plural);
    for (size_t i = 0; i < root->n; i++) {
        const rmg__ynode *k = root->items[2 * i], *v = root->items[2 * i + 1];
        int kind = -1;
        for (int j = 0; j < RMG_CONTENT_KIND_COUNT && k->type == RMG__Y_SCALAR; j++)
            if (strcmp(k->str, rmg__kinds[j].plural) == 0)
                kind = j;
        rmg_status st;
        if (kind >= 0)
            st = apply_section(b, doc->file, kind, v);
        else if (k->type == RMG__Y_SCALAR && strcmp(k->str, "ruleset") == 0)
            st = apply_ruleset(b, doc->file, v);
        else
            st = fail_at(b, RMG_ERR_INVALID_DATA, doc->file, k,
                         "unknown section '%s' (expected terrains, factions, creatures, objects, map_objects, "
                         "artifacts, spells, skills, heroes or ruleset)",
                         k->type == RMG__Y_SCALAR ? k->str : "?");
        if (st)
            return st;
    }
    return RMG_OK;
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
            memcpy(elem_at(b, kind, w), elem_at(b, kind, i), d->elem_size);
            k->meta[w] = k->meta[i];
            if (d->n_slots)
                memcpy(slot_at(b, kind, w, 0), slot_at(b, kind, i, 0), (size_t)d->n_slots * sizeof(rmg__refslot));
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
            int id = get_int(out_elem(b, kind, i), (size_t)d->id_off);
            long first = rmg__content_lookup_id(b->out, kind, id);
            if (first >= 0 && (size_t)first != i)
                return fail_mark(b, &b->k[kind].meta[i].mark, "<content>", "%s '%s': id %d is already used by '%s'",
                                 d->single, elem_key(out_elem(b, kind, i)), id,
                                 elem_key(out_elem(b, kind, (size_t)first)));
        }
    }
    return RMG_OK;
}

/* Stores the resolved targets of one reference field. */
static rmg_status resolve_field(rmg__builder *b, int kind, size_t i, const rmg__field *fd)
{
    const rmg__kind_desc *d = desc(kind);
    unsigned char *e = out_elem(b, kind, i);
    const rmg__refslot *s = slot_at(b, kind, i, fd->slot);
    const rmg__mark *m = s->mark.line ? &s->mark : &b->k[kind].meta[i].mark;
    int tk = fd->ref_kind;
    uint32_t mask = 0;
    int list[4], n = 0;
    for (size_t j = 0; s->set && j < s->n; j++) {
        long t = rmg__content_lookup(b->out, tk, s->keys[j]);
        if (t < 0) {
            bool skipped = was_skipped(b, tk, s->keys[j]);
            if (skipped && !(fd->flags & RMG__REQUIRED))
                continue;
            return fail_mark(b, m, "<content>", "%s '%s': field '%s': %s %s '%s'", d->single, elem_key(e), fd->name,
                             skipped ? "refers to the left-out" : "unknown", desc(tk)->single, s->keys[j]);
        }
        int tid = desc(tk)->id_off >= 0 ? get_int(out_elem(b, tk, (size_t)t), (size_t)desc(tk)->id_off) : -1;
        if (fd->ref_mode == RMG__REF_MASK) {
            if (tid < 0 || tid > 31)
                return fail_mark(b, m, "<content>", "%s '%s': field '%s': %s '%s' has id %d (masks hold ids 0..31)",
                                 d->single, elem_key(e), fd->name, desc(tk)->single, s->keys[j], tid);
            mask |= 1u << tid;
        } else if (n < 4) {
            list[n++] = fd->ref_mode == RMG__REF_ID ? tid : (int)t;
        }
    }
    switch (fd->ref_mode) {
    case RMG__REF_ID:
    case RMG__REF_INDEX:
        if (n == 0 && (fd->flags & RMG__REQUIRED))
            return fail_mark(b, m, "<content>", "%s '%s': field '%s' needs a %s", d->single, elem_key(e), fd->name,
                             desc(tk)->single);
        put_int(e, fd->offset, n ? list[0] : -1);
        break;
    case RMG__REF_MASK:
        memcpy(e + fd->offset, &mask, sizeof mask);
        if (fd->aux >= 0)
            put_bool(e, (size_t)fd->aux, s->na);
        break;
    case RMG__REF_LIST:
        for (int j = 0; j < 4; j++)
            put_int(e, fd->offset + (size_t)j * sizeof(int), j < n ? list[j] : -1);
        put_int(e, (size_t)fd->aux, n);
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
            return fail_mark(b, m, "<content>", "creature '%s': level %d is out of range 1..7 (only special "
                             "creatures may have level 0)", c->key, c->level);
        if (c->map_min > c->map_max)
            return fail_mark(b, m, "<content>", "creature '%s': map_min %d is above map_max %d", c->key, c->map_min,
                             c->map_max);
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
            return fail_mark(b, m, "<content>", "%s '%s': spell_level %d is above spell_level_max %d",
                             desc(kind)->single, o->key, o->spell_level, o->spell_level_max);
        if (o->footprint.block == 0 && o->footprint.visit == 0)
            return fail_mark(b, m, "<content>", "%s '%s': the footprint has no tile", desc(kind)->single, o->key);
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
        st = check_objects(b, RMG_CONTENT_OBJECT);
    if (st == RMG_OK)
        st = check_objects(b, RMG_CONTENT_MAP_OBJECT);
    if (st == RMG_OK)
        st = pick_variant_names(b);
    if (st == RMG_OK) {
        *out = b->out;
        b->out = NULL;
    }
    rmg__builder_abort(b);
    return st;
}
