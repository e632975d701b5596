/*
 * Applying a parsed YAML document to the ruleset builder: sections, entities (add / change /
 * remove, the `hota` and `sod` variant keys) and typed fields, with file:line:col errors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_private.h"

static const rmg__kind_desc *desc(int kind)
{
    return &rmg__kinds[kind];
}

/* An error at a node of the current input. */
#define FAIL_AT(b, st, file, node, ...) rmg__error_at((b)->ctx, (st), (file), (node)->line, (node)->col, __VA_ARGS__)

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
    return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, n, "%s '%s': field '%s': expected %s", desc(a->kind)->single,
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
    return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, n, "%s '%s': field '%s': %" PRId64 " is out of range %" PRId64
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
    int64_t v = 0;
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
    int64_t v = 0;
    if (st == RMG_OK && !parse_i64(n, base, &v))
        st = bad_value(a, n, fd->name, "an integer");
    if (st == RMG_OK && (v < fd->min || v > fd->max))
        st = range_error(a, n, fd, v);
    if (st == RMG_OK) {
        if (fd->type == RMG__F_COLOR) {
            uint32_t c = (uint32_t)v;
            memcpy(e + fd->offset, &c, sizeof c);
        } else {
            rmg__put_int(e, fd->offset, (int)v);
        }
    }
    return st;
}

static rmg_status set_enum(applyctx *a, unsigned char *e, const rmg__field *fd, const rmg__ynode *n)
{
    if (n->type == RMG__Y_SCALAR)
        for (int i = 0; fd->names[i]; i++)
            if (strcmp(n->str, fd->names[i]) == 0) {
                rmg__put_int(e, fd->offset, i);
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
    rmg__put_int(e, fd->offset, mask);
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

/* Adds the key of scalar node n to a slot made room for by rmg__kb_slot_keys(cap). */
static rmg_status push_key(applyctx *a, rmg__refslot *s, size_t cap, const rmg__ynode *n)
{
    const char *copy = rmg__arena_strdup(&a->b->scratch, n->str);
    if (!copy || (!s->marks && !(s->marks = rmg__arena_alloc(&a->b->scratch, cap * sizeof *s->marks))))
        return rmg__error_nomem(a->b->ctx);
    s->marks[s->n] = (rmg__mark){a->file, n->line, n->col};
    s->keys[s->n++] = copy;
    return RMG_OK;
}

/* A single reference: a key, or null for none. */
static rmg_status set_ref_one(applyctx *a, const rmg__field *fd, rmg__refslot *s, const rmg__ynode *n)
{
    if (n->type != RMG__Y_SCALAR) {
        char expected[64];
        snprintf(expected, sizeof expected, "a %s key", desc(fd->ref_kind)->single);
        return bad_value(a, n, fd->name, expected);
    }
    bool none = is_null(n);
    rmg_status st = rmg__kb_slot_keys(a->b, s, none ? 0 : 1);
    return st || none ? st : push_key(a, s, 1, n);
}

/* A list of references (a terrain mask, or up to 4 creatures). */
static rmg_status set_ref_list(applyctx *a, const rmg__field *fd, rmg__refslot *s, const rmg__ynode *n)
{
    char expected[64];
    snprintf(expected, sizeof expected, "a list of %s keys", desc(fd->ref_kind)->single);
    if (n->type != RMG__Y_SEQ)
        return bad_value(a, n, fd->name, expected);
    if (fd->ref_mode == RMG__REF_LIST && n->n > 4)
        return bad_value(a, n, fd->name, "at most 4 keys");
    rmg_status st = rmg__kb_slot_keys(a->b, s, n->n);
    for (size_t i = 0; st == RMG_OK && i < n->n; i++)
        st = n->items[i]->type == RMG__Y_SCALAR ? push_key(a, s, n->n, n->items[i])
                                                : bad_value(a, n->items[i], fd->name, expected);
    return st;
}

/* References are kept as keys and resolved when the ruleset is finished. */
static rmg_status set_ref(applyctx *a, size_t index, const rmg__field *fd, const rmg__ynode *n)
{
    rmg__refslot *s = rmg__kb_slot(a->b, a->kind, index, fd->slot);
    s->mark = (rmg__mark){a->file, n->line, n->col};
    s->na = false;
    if (fd->ref_mode == RMG__REF_ID || fd->ref_mode == RMG__REF_INDEX)
        return set_ref_one(a, fd, s, n);
    if (fd->ref_mode == RMG__REF_MASK && fd->aux >= 0 && n->type == RMG__Y_SCALAR && strcmp(n->str, "n/a") == 0) {
        s->na = true;
        return rmg__kb_slot_keys(a->b, s, 0);
    }
    return set_ref_list(a, fd, s, n);
}

static rmg_status set_field(applyctx *a, size_t index, const rmg__field *fd, const rmg__ynode *n)
{
    unsigned char *e = rmg__kb_elem(a->b, a->kind, index);
    switch (fd->type) {
    case RMG__F_STR: {
        /* null clears an optional string */
        bool clear = is_null(n);
        if (clear && (fd->flags & RMG__REQUIRED))
            return bad_value(a, n, fd->name, "a string");
        rmg_status st = clear ? RMG_OK : need_scalar(a, n, fd->name, "a string");
        char *copy = NULL;
        if (st == RMG_OK && !clear && !(copy = rmg__arena_strdup(&a->b->out->arena, n->str)))
            st = rmg__error_nomem(a->b->ctx);
        if (st == RMG_OK)
            rmg__put_ptr(e, fd->offset, copy);
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
        rmg__put_bool(e, fd->offset, v);
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
            return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': field names must be scalars",
                           desc(a->kind)->single, a->key);
        special_keys ignored;
        if (special_slot(&ignored, k->str)) {
            if (given)
                continue; /* handled by apply_entity */
            return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': '%s' is not allowed inside 'sod'",
                           desc(a->kind)->single, a->key, k->str);
        }
        const rmg__field *fd = find_field(a->kind, k->str, &pos);
        if (!fd)
            return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': unknown field '%s'",
                           desc(a->kind)->single, a->key, k->str);
        if (given && (*given & ((uint64_t)1 << pos)))
            return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, k, "%s '%s': field '%s' given twice",
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
            return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, map, "new %s '%s' lacks required field '%s'",
                           d->single, a->key, d->fields[f].name);
    }
    return RMG_OK;
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
        if (rmg__kb_was_skipped(a->b, a->kind, a->key))
            return RMG_OK;
        return FAIL_AT(a->b, RMG_ERR_INVALID_DATA, a->file, map, "cannot remove unknown %s '%s'",
                       desc(a->kind)->single, a->key);
    }
    rmg__emeta *m = &a->b->k[a->kind].meta[at];
    m->removed = true;
    m->mark = (rmg__mark){a->file, map->line, map->col};
    m->serial = a->b->serial;
    return RMG_OK;
}

/* The value of field `name` in an entity mapping, or NULL. */
static const rmg__ynode *field_node(const rmg__ynode *map, const char *name)
{
    for (size_t i = 0; i < map->n; i++) {
        const rmg__ynode *k = map->items[2 * i];
        if (k->type == RMG__Y_SCALAR && strcmp(k->str, name) == 0)
            return map->items[2 * i + 1];
    }
    return NULL;
}

static rmg_status apply_entity(applyctx *a, const rmg__ynode *keynode, const rmg__ynode *map)
{
    rmg__builder *b = a->b;
    const rmg__kind_desc *d = desc(a->kind);
    if (map->type != RMG__Y_MAP)
        return FAIL_AT(b, RMG_ERR_INVALID_DATA, a->file, map, "%s '%s': expected a mapping of fields", d->single,
                       a->key);
    long at = rmg__kb_find(b, a->kind, a->key);
    if (at >= 0 && b->k[a->kind].meta[at].serial == b->serial)
        return FAIL_AT(b, RMG_ERR_INVALID_DATA, a->file, keynode, "duplicate %s '%s'", d->single, a->key);
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
        if (rs == RMG_OK && !rmg__kb_was_skipped(a->b, a->kind, a->key))
            rs = rmg__kb_skip(a->b, a->kind, a->key);
        const rmg__ynode *family = a->kind == RMG_CONTENT_OBJECT ? field_node(map, "family") : NULL;
        if (rs == RMG_OK && family && family->type == RMG__Y_SCALAR)
            rs = rmg__kb_skip_family(a->b, family->str);
        return rs;
    }
    bool is_new = at < 0 || b->k[a->kind].meta[at].removed;
    size_t index;
    if (at < 0) {
        st = rmg__kb_add(b, a->kind, a->key, &index);
        if (st)
            return st;
    } else {
        index = (size_t)at;
        if (is_new)
            rmg__kb_reset(b, a->kind, index);
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
        rmg__put_bool(rmg__kb_elem(b, a->kind, index), (size_t)d->hota_off, hota);
    b->k[a->kind].meta[index].mark = (rmg__mark){a->file, keynode->line, keynode->col};
    b->k[a->kind].meta[index].serial = b->serial;
    return RMG_OK;
}

static rmg_status apply_section(rmg__builder *b, const char *file, int kind, const rmg__ynode *sec)
{
    if (is_null(sec))
        return RMG_OK;
    if (sec->type != RMG__Y_MAP)
        return FAIL_AT(b, RMG_ERR_INVALID_DATA, file, sec, "'%s' must map keys to %s definitions",
                       desc(kind)->plural, desc(kind)->single);
    applyctx a = {b, file, kind, NULL};
    for (size_t i = 0; i < sec->n; i++) {
        const rmg__ynode *k = sec->items[2 * i];
        if (k->type != RMG__Y_SCALAR || k->len == 0)
            return FAIL_AT(b, RMG_ERR_INVALID_DATA, file, k, "%s keys must be non-empty strings", desc(kind)->single);
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
        return FAIL_AT(b, RMG_ERR_INVALID_DATA, file, n, "'ruleset' must be a mapping");
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
            return FAIL_AT(b, RMG_ERR_INVALID_DATA, file, k, "ruleset: unknown field '%s'",
                           k->type == RMG__Y_SCALAR ? k->str : "?");
        if (v->type != RMG__Y_SCALAR)
            return FAIL_AT(b, RMG_ERR_INVALID_DATA, file, v, "ruleset: '%s' must be a string", k->str);
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
        return FAIL_AT(b, RMG_ERR_INVALID_DATA, doc->file, root, "content must be a mapping of sections (%s, ...)",
                       rmg__kinds[0].plural);
    unsigned seen = 0; /* sections so far: bit kind, bit RMG_CONTENT_KIND_COUNT = ruleset */
    for (size_t i = 0; i < root->n; i++) {
        const rmg__ynode *k = root->items[2 * i], *v = root->items[2 * i + 1];
        int kind = -1;
        for (int j = 0; j < RMG_CONTENT_KIND_COUNT && k->type == RMG__Y_SCALAR; j++)
            if (strcmp(k->str, rmg__kinds[j].plural) == 0)
                kind = j;
        bool ruleset = kind < 0 && k->type == RMG__Y_SCALAR && strcmp(k->str, "ruleset") == 0;
        unsigned bit = 1u << (ruleset ? RMG_CONTENT_KIND_COUNT : kind < 0 ? 31 : kind);
        rmg_status st;
        if ((kind >= 0 || ruleset) && (seen & bit))
            st = FAIL_AT(b, RMG_ERR_INVALID_DATA, doc->file, k, "section '%s' given twice", k->str);
        else if (kind >= 0)
            st = apply_section(b, doc->file, kind, v);
        else if (ruleset)
            st = apply_ruleset(b, doc->file, v);
        else
            st = FAIL_AT(b, RMG_ERR_INVALID_DATA, doc->file, k,
                         "unknown section '%s' (expected terrains, factions, creatures, objects, map_objects, "
                         "artifacts, spells, skills, heroes or ruleset)",
                         k->type == RMG__Y_SCALAR ? k->str : "?");
        if (st)
            return st;
        seen |= bit;
    }
    return RMG_OK;
}
