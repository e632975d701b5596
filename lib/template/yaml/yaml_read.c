/*
 * Native YAML reader. libyaml's event parser drives a small stack machine that fills the model
 * directly (no document tree, so memory stays close to the size of the model): each open
 * mapping or list is a frame that knows which schema table (schema.c) or field it fills.
 * Unknown keys, keys given twice and values of the wrong type are errors with
 * file:line:column.
 *
 * Bad-input guards: aliases are refused (no alias bombs), nesting depth, event count and input
 * size are bounded, numbers must fit their field.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "template/schema.h"

#define MAX_INPUT ((size_t)64 << 20)   /* bytes */
#define MAX_DEPTH 64
#define MAX_EVENTS ((size_t)16 << 20)

typedef enum ykind { Y_SCALAR, Y_SEQ, Y_MAP } ykind;

/* One YAML node as the parsers see it: its kind, its text (scalars) and where it starts. */
typedef struct ynode {
    ykind kind;
    const char *str;             /* scalar text, NUL-terminated; "" for containers */
    int line, col;               /* 1-based */
} ynode;

typedef enum frame_kind {
    FR_MAP,                      /* a mapping filled through a schema */
    FR_ELEMENTS,                 /* a list of schema elements (LIST / FIXED field) */
    FR_MASK,                     /* a list of names (MASK / OPTMASK field) */
    FR_OVERRIDES,                /* a list of +id / -id */
    FR_MINES                     /* resource -> {min, density} */
} frame_kind;

typedef struct frame {
    frame_kind kind;
    const rmg__schema *schema;   /* FR_MAP */
    void *obj;                   /* the struct the frame fills */
    const rmg__field *field;     /* list frames: the field; FR_MAP: the key waiting for its value */
    bool have_key, version_key;  /* FR_MAP / FR_MINES: a key was read */
    uint64_t seen;               /* FR_MAP: fields given so far (duplicate keys) */
    size_t count;                /* list frames: elements so far */
    uint32_t mask;               /* FR_MASK */
    long resource;               /* FR_MINES: the resource of the pending value */
    int pair[2];                 /* FR_MINES: min, density of the pending value */
    ynode at;                    /* where the container starts */
} frame;

typedef struct reader {
    rmg_context *ctx;
    const char *file;
    struct rmg_pack *pack;
    frame stack[MAX_DEPTH];
    int depth;
    bool root_seen;
    size_t events;
    bool keep_going;             /* rmg check: a bad key or value is recorded and left out */
    int skip;                    /* nesting of a value being left out */
} reader;

#define AT(p, off, T) ((T *)(void *)((unsigned char *)(p) + (off)))

static rmg_status err_at(reader *r, const ynode *n, const char *fmt, ...) RMG__PRINTF(3, 4);
static rmg_status err_at(reader *r, const ynode *n, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, n ? n->line : 0, n ? n->col : 0, "%s", msg);
}

static rmg_status parser_error(reader *r, const yaml_parser_t *p)
{
    if (p->error == YAML_MEMORY_ERROR)
        return rmg__error_nomem(r->ctx);
    const yaml_mark_t *m = p->context ? &p->context_mark : &p->problem_mark;
    if (p->problem_mark.line || p->problem_mark.column)
        m = &p->problem_mark;
    return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, (int)m->line + 1, (int)m->column + 1, "YAML: %s%s%s",
                         p->problem ? p->problem : "syntax error", p->context ? " " : "",
                         p->context ? p->context : "");
}

static rmg_status expect(reader *r, const ynode *n, ykind kind, const char *key)
{
    static const char *const kinds[] = {"a single value", "a list", "a mapping"};
    if (n->kind == kind)
        return RMG_OK;
    return err_at(r, n, "'%s': expected %s", key, kinds[kind]);
}

static rmg_status parse_int64(reader *r, const ynode *n, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    char *end;
    errno = 0;
    long long v = strtoll(n->str, &end, 10);
    if (end == n->str || *end || n->str[0] == ' ')
        return err_at(r, n, "'%s': expected an integer, got '%s'", key, n->str);
    if (errno == ERANGE || v < lo || v > hi)
        return err_at(r, n, "'%s': number %s out of range", key, n->str);
    *out = v;
    return RMG_OK;
}

static rmg_status parse_int(reader *r, const ynode *n, const char *key, int *out)
{
    int64_t v;
    rmg_status st = parse_int64(r, n, key, INT32_MIN, INT32_MAX, &v);
    if (st == RMG_OK)
        *out = (int)v;
    return st;
}

static rmg_status parse_param(reader *r, const ynode *n, const char *key, int64_t *out)
{
    if (n->kind == Y_SCALAR && (strcmp(n->str, "default") == 0 || strcmp(n->str, "d") == 0)) {
        *out = RMG__PARAM_DEFAULT;
        return RMG_OK;
    }
    if (n->kind == Y_SCALAR && (strcmp(n->str, "unlimited") == 0 || strcmp(n->str, "n") == 0)) {
        *out = RMG__PARAM_UNLIMITED;
        return RMG_OK;
    }
    return parse_int64(r, n, key, INT64_MIN + 1, INT64_MAX, out);
}

static rmg_status parse_double(reader *r, const ynode *n, const char *key, double *out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    char *end;
    double d = strtod(n->str, &end);
    if (end == n->str || *end || !isfinite(d) || n->str[0] == ' ')
        return err_at(r, n, "'%s': expected a finite number, got '%s'", key, n->str);
    *out = d;
    return RMG_OK;
}

static rmg_status parse_bool(reader *r, const ynode *n, const char *key, bool *out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    if (strcmp(n->str, "true") == 0 || strcmp(n->str, "yes") == 0)
        *out = true;
    else if (strcmp(n->str, "false") == 0 || strcmp(n->str, "no") == 0)
        *out = false;
    else
        return err_at(r, n, "'%s': expected true or false, got '%s'", key, n->str);
    return RMG_OK;
}

/* A name from the table, or a plain integer (values without a name survive round trips). */
static rmg_status parse_name(reader *r, const ynode *n, const char *key, const rmg__names *names, long max,
                             long *out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    long v = rmg__names_find(names, n->str);
    if (v >= 0) {
        *out = v;
        return RMG_OK;
    }
    int64_t i;
    if (n->str[0] >= '0' && n->str[0] <= '9' && parse_int64(r, n, key, 0, max, &i) == RMG_OK) {
        *out = (long)i;
        return RMG_OK;
    }
    rmg_context_clear_error(r->ctx);
    char hint[400];
    rmg__names_hint(hint, sizeof hint, names, n->str);
    return err_at(r, n, "'%s': unknown value '%s'%s", key, n->str, hint);
}

static rmg_status parse_string(reader *r, const ynode *n, const char *key, char **out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    *out = rmg__arena_strdup(&r->pack->arena, n->str);
    return *out ? RMG_OK : rmg__error_nomem(r->ctx);
}

/* {min, density} of one resource in `mines`. */
static const rmg__field mine_fields[] = {
    {"min", RMG__F_INT, 0, 0, NULL, NULL, 0, false, NULL},
    {"density", RMG__F_INT, sizeof(int), 0, NULL, NULL, 0, false, NULL},
};
static const rmg__schema mine_schema = {"mine", sizeof(int[2]), NULL, mine_fields, 2, RMG__NO_LOC, true};

/* ---- scalar fields ---------------------------------------------------------------------- */

static rmg_status read_scalar_field(reader *r, const rmg__field *f, const ynode *v, void *obj)
{
    long e;
    rmg_status st;
    switch (f->kind) {
    case RMG__F_INT:
        return parse_int(r, v, f->key, AT(obj, f->off, int));
    case RMG__F_INT64:
        return parse_int64(r, v, f->key, INT64_MIN + 1, INT64_MAX, AT(obj, f->off, int64_t));
    case RMG__F_PARAM:
        return parse_param(r, v, f->key, AT(obj, f->off, int64_t));
    case RMG__F_DOUBLE:
        return parse_double(r, v, f->key, AT(obj, f->off, double));
    case RMG__F_BOOL:
        return parse_bool(r, v, f->key, AT(obj, f->off, bool));
    case RMG__F_STR:
        return parse_string(r, v, f->key, AT(obj, f->off, char *));
    case RMG__F_ENUM:
        st = parse_name(r, v, f->key, f->names, 255, &e);
        if (st == RMG_OK)
            *AT(obj, f->off, int) = (int)e;
        return st;
    case RMG__F_GROUP:
    case RMG__F_SUB:
    case RMG__F_MINES:
        return expect(r, v, Y_MAP, f->key);
    default:
        return expect(r, v, Y_SEQ, f->key);
    }
}

/* ---- frames ---------------------------------------------------------------------------------- */

static rmg_status push(reader *r, frame_kind kind, const ynode *at, frame **out)
{
    if (r->depth >= MAX_DEPTH)
        return rmg__error_at(r->ctx, RMG_ERR_LIMIT, r->file, at->line, at->col, "YAML nested too deeply");
    frame *f = &r->stack[r->depth++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->at = *at;
    *out = f;
    return RMG_OK;
}

static rmg_status push_map(reader *r, const rmg__schema *s, void *obj, const ynode *at)
{
    frame *f = NULL;
    rmg_status st = push(r, FR_MAP, at, &f);
    if (st != RMG_OK)
        return st;
    f->schema = s;
    f->obj = obj;
    if (s->loc_off != RMG__NO_LOC) {
        rmg__srcloc *loc = AT(obj, s->loc_off, rmg__srcloc);
        loc->line = at->line;
        loc->column = at->col;
    }
    return RMG_OK;
}

static rmg_status push_list(reader *r, frame_kind kind, const rmg__field *field, void *obj, const ynode *at)
{
    frame *f = NULL;
    rmg_status st = push(r, kind, at, &f);
    if (st == RMG_OK) {
        f->field = field;
        f->obj = obj;
    }
    return st;
}

/* A container starts as the value of field f of a mapping frame. */
static rmg_status open_value(reader *r, const rmg__field *f, void *obj, const ynode *v)
{
    switch (f->kind) {
    case RMG__F_GROUP:
        return v->kind == Y_MAP ? push_map(r, f->sub, obj, v) : expect(r, v, Y_MAP, f->key);
    case RMG__F_SUB:
        return v->kind == Y_MAP ? push_map(r, f->sub, AT(obj, f->off, unsigned char), v) : expect(r, v, Y_MAP, f->key);
    case RMG__F_MINES:
        return v->kind == Y_MAP ? push_list(r, FR_MINES, f, obj, v) : expect(r, v, Y_MAP, f->key);
    case RMG__F_LIST:
    case RMG__F_FIXED:
        return v->kind == Y_SEQ ? push_list(r, FR_ELEMENTS, f, obj, v) : expect(r, v, Y_SEQ, f->key);
    case RMG__F_MASK:
        return v->kind == Y_SEQ ? push_list(r, FR_MASK, f, obj, v) : expect(r, v, Y_SEQ, f->key);
    case RMG__F_OPTMASK:
        *AT(obj, f->off2, bool) = true;
        return v->kind == Y_SEQ ? push_list(r, FR_MASK, f, obj, v) : expect(r, v, Y_SEQ, f->key);
    case RMG__F_OVERRIDES:
        return v->kind == Y_SEQ ? push_list(r, FR_OVERRIDES, f, obj, v) : expect(r, v, Y_SEQ, f->key);
    default:
        return expect(r, v, Y_SCALAR, f->key);
    }
}

static const rmg__field *find_field(const rmg__schema *s, const char *key, size_t *index)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (strcmp(s->fields[i].key, key) == 0) {
            *index = i;
            return &s->fields[i];
        }
    return NULL;
}

/* The document's optional `version: 1` marker (the format version, not a model field). */
static rmg_status check_version(reader *r, const ynode *v)
{
    if (v->kind == Y_SCALAR && strcmp(v->str, "1") == 0)
        return RMG_OK;
    return err_at(r, v, "unsupported template format version '%s' (this library reads version 1)",
                  v->kind == Y_SCALAR ? v->str : "?");
}

static rmg_status map_key(reader *r, frame *f, const ynode *k)
{
    if (k->kind != Y_SCALAR)
        return err_at(r, k, "%s: keys must be plain names", f->schema->what);
    f->have_key = true;
    if (f->schema == &rmg__pack_schema && f == &r->stack[0] && strcmp(k->str, "version") == 0) {
        f->version_key = true;
        return RMG_OK;
    }
    size_t index;
    f->field = find_field(f->schema, k->str, &index);
    if (!f->field) {
        char hint[120];
        rmg__schema_key_hint(hint, sizeof hint, f->schema, k->str);
        return err_at(r, k, "unknown key '%s' in %s%s", k->str, f->schema->what, hint);
    }
    uint64_t bit = (uint64_t)1 << (index & 63);
    if (f->seen & bit)
        return err_at(r, k, "key '%s' given twice", k->str);
    f->seen |= bit;
    return RMG_OK;
}

/* A value (scalar or container start) for the key of mapping frame f. */
static rmg_status map_value(reader *r, frame *f, const ynode *v)
{
    if (!f->field && !f->version_key) {   /* the value of a key found unknown, left out */
        f->have_key = false;
        r->skip = v->kind != Y_SCALAR;
        return RMG_OK;
    }
    if (f->version_key) {
        f->have_key = f->version_key = false;
        return check_version(r, v);
    }
    if (v->kind == Y_SCALAR) {
        f->have_key = false;
        return read_scalar_field(r, f->field, v, f->obj);
    }
    return open_value(r, f->field, f->obj, v);
}

static rmg_status element(reader *r, frame *f, const ynode *v)
{
    const rmg__field *fd = f->field;
    if (v->kind != Y_MAP)
        return expect(r, v, Y_MAP, fd->sub->what);
    void *elem;
    if (fd->kind == RMG__F_FIXED) {
        if (f->count >= fd->fixed)
            return err_at(r, v, "'%s': at most %zu entries", fd->key, fd->fixed);
        elem = AT(f->obj, fd->off + f->count * fd->sub->size, unsigned char);
    } else {
        elem = rmg__arena_grow(&r->pack->arena, AT(f->obj, fd->off, void *), AT(f->obj, fd->off2, size_t),
                               fd->sub->size);
        if (!elem)
            return rmg__error_nomem(r->ctx);
        fd->sub->init(elem);
    }
    f->count++;
    return push_map(r, fd->sub, elem, v);
}

static rmg_status mask_item(reader *r, frame *f, const ynode *v)
{
    long bit = 0;
    rmg_status st = parse_name(r, v, f->field->key, f->field->names, 31, &bit);
    if (st == RMG_OK && (f->mask & (1u << bit)))
        return err_at(r, v, "'%s': '%s' is listed twice", f->field->key, v->str);
    if (st == RMG_OK)
        f->mask |= 1u << bit;
    return st;
}

static rmg_status override_item(reader *r, frame *f, const ynode *v)
{
    const char *key = f->field->key;
    rmg_status st = expect(r, v, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    if ((v->str[0] != '+' && v->str[0] != '-') || v->str[1] < '0' || v->str[1] > '9')
        return err_at(r, v, "'%s': expected +id (allow) or -id (ban), got '%s'", key, v->str);
    int64_t id;
    if ((st = parse_int64(r, v, key, -(int64_t)INT32_MAX, INT32_MAX, &id)) != RMG_OK)
        return st;
    rmg__override_list *list = AT(f->obj, f->field->off, rmg__override_list);
    rmg__override *o = rmg__arena_grow(&r->pack->arena, (void **)&list->items, &list->count, sizeof *o);
    if (!o)
        return rmg__error_nomem(r->ctx);
    o->allow = v->str[0] == '+';
    o->id = (int)(id < 0 ? -id : id);
    return RMG_OK;
}

static rmg_status mines_item(reader *r, frame *f, const ynode *v)
{
    if (!f->have_key) {
        rmg_status st = parse_name(r, v, f->field->key, &rmg__resource_names, -1, &f->resource);
        f->have_key = st == RMG_OK;
        return st;
    }
    if (v->kind != Y_MAP)
        return expect(r, v, Y_MAP, mine_schema.what);
    f->pair[0] = AT(f->obj, f->field->off, int)[f->resource];
    f->pair[1] = AT(f->obj, f->field->off2, int)[f->resource];
    return push_map(r, &mine_schema, f->pair, v);
}

/* A node (scalar or container start) arrives in the innermost open frame. */
static rmg_status node(reader *r, const ynode *v)
{
    if (r->depth == 0) {
        if (r->root_seen)
            return err_at(r, v, "only one YAML document per template file");
        r->root_seen = true;
        return v->kind == Y_MAP ? push_map(r, &rmg__pack_schema, r->pack, v) : expect(r, v, Y_MAP, "pack");
    }
    frame *f = &r->stack[r->depth - 1];
    switch (f->kind) {
    case FR_MAP:
        return f->have_key ? map_value(r, f, v) : map_key(r, f, v);
    case FR_ELEMENTS:
        return element(r, f, v);
    case FR_MASK:
        return mask_item(r, f, v);
    case FR_OVERRIDES:
        return v->kind == Y_SCALAR ? override_item(r, f, v) : expect(r, v, Y_SCALAR, f->field->key);
    case FR_MINES:
        return mines_item(r, f, v);
    }
    return rmg__error_set(r->ctx, RMG_ERR_INTERNAL, "YAML reader: bad frame");
}

/* The innermost container ends: finish it and tell its parent its value is complete. */
static void close_frame(reader *r)
{
    frame *f = &r->stack[--r->depth];
    if (f->kind == FR_MASK)
        *AT(f->obj, f->field->off, uint32_t) = f->mask;
    if (r->depth == 0)
        return;
    frame *parent = &r->stack[r->depth - 1];
    if (parent->kind == FR_MINES) {
        AT(parent->obj, parent->field->off, int)[parent->resource] = parent->pair[0];
        AT(parent->obj, parent->field->off2, int)[parent->resource] = parent->pair[1];
    }
    parent->have_key = false;
}

/* ---- events ---------------------------------------------------------------------------------- */

/* A node for the innermost frame; when checking, a defect of it is recorded and the node (with
 * what it contains) left out, so the rest of the file is checked too. */
static rmg_status take_node(reader *r, const ynode *v)
{
    if (r->skip) {
        r->skip += v->kind != Y_SCALAR;
        return RMG_OK;
    }
    int depth = r->depth;
    rmg_status st = node(r, v);
    if (st != RMG_ERR_PARSE || !r->keep_going || r->depth != depth)
        return st;
    if ((st = rmg__pack_keep_error(r->pack)) == RMG_OK)
        r->skip = v->kind != Y_SCALAR;
    return st;
}

static void end_container(reader *r)
{
    if (r->skip)
        r->skip--;
    else
        close_frame(r);
}

static rmg_status take_event(reader *r, const yaml_event_t *ev, bool *done)
{
    const yaml_mark_t *m = &ev->start_mark;
    ynode v = {Y_SCALAR, "", (int)m->line + 1, (int)m->column + 1};
    if (++r->events > MAX_EVENTS)
        return rmg__error_at(r->ctx, RMG_ERR_LIMIT, r->file, v.line, v.col, "too many YAML nodes");
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, v.line, v.col,
                             "YAML aliases (*%s) are not supported in templates", (const char *)ev->data.alias.anchor);
    case YAML_SCALAR_EVENT:
        if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length))
            return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, v.line, v.col, "NUL character in a string");
        v.str = (const char *)ev->data.scalar.value;
        return take_node(r, &v);
    case YAML_SEQUENCE_START_EVENT:
        v.kind = Y_SEQ;
        return take_node(r, &v);
    case YAML_MAPPING_START_EVENT:
        v.kind = Y_MAP;
        return take_node(r, &v);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        end_container(r);
        return RMG_OK;
    case YAML_STREAM_END_EVENT:
        *done = true;
        return RMG_OK;
    default:
        return RMG_OK;
    }
}

static rmg_status parse(reader *r, const char *data, size_t len)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return rmg__error_nomem(r->ctx);
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
    bool done = false;
    rmg_status st = RMG_OK;
    while (!done && st == RMG_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            st = parser_error(r, &parser);
            break;
        }
        st = take_event(r, &ev, &done);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (st == RMG_OK && !r->root_seen)
        st = rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, 1, 1, "empty template file");
    return st;
}

static rmg_status read_yaml(rmg_context *ctx, const char *data, size_t len, const char *name, bool keep_going,
                           struct rmg_pack **out)
{
    *out = NULL;
    if (len > MAX_INPUT)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, name, 0, 0, "template file larger than %zu bytes", MAX_INPUT);
    reader *r = rmg__calloc(ctx, 1, sizeof *r);
    if (!r)
        return rmg__error_nomem(ctx);
    r->ctx = ctx;
    r->file = name;
    r->keep_going = keep_going;
    rmg_status st = rmg__pack_new(ctx, &r->pack);
    if (st == RMG_OK) {
        r->pack->format = RMG_FORMAT_YAML;
        if (name && !(r->pack->file = rmg__arena_strdup(&r->pack->arena, name)))
            st = rmg__error_nomem(ctx);
    }
    if (st == RMG_OK)
        st = parse(r, data, len);
    struct rmg_pack *pack = r->pack;
    rmg__free(ctx, r);
    if (st != RMG_OK) {
        rmg__pack_free(pack);
        return st;
    }
    *out = pack;
    return RMG_OK;
}

rmg_status rmg__yaml_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out)
{
    return read_yaml(ctx, data, len, name, false, out);
}

rmg_status rmg__yaml_read_checked(rmg_context *ctx, const char *data, size_t len, const char *name,
                                  struct rmg_pack **out)
{
    return read_yaml(ctx, data, len, name, true, out);
}
