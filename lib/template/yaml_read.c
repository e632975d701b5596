/*
 * Native YAML reader. libyaml's event parser feeds a small node tree built in an arena (so the
 * limits below hold and every byte we keep goes through the context), then the schema tables
 * (schema.c) turn the tree into the model, rejecting unknown keys and wrong types with
 * file:line:column.
 *
 * Bad-input guards: aliases are refused (no alias bombs), nesting depth, node count and input
 * size are bounded, duplicate keys are errors, numbers must fit their field.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "schema.h"

#define MAX_INPUT ((size_t)64 << 20)   /* bytes */
#define MAX_DEPTH 64
#define MAX_NODES ((size_t)4 << 20)

typedef enum ykind { Y_SCALAR, Y_SEQ, Y_MAP } ykind;

typedef struct ynode {
    ykind kind;
    bool plain;                  /* unquoted scalar */
    const char *str;             /* scalar text, NUL-terminated */
    struct ynode *first, *last;  /* children (mapping: key, value, key, value, ...) */
    struct ynode *next;
    size_t n;                    /* number of children */
    int line, col;               /* 1-based */
} ynode;

typedef struct reader {
    rmg_context *ctx;
    const char *file;
    struct rmg_pack *pack;
    rmg__arena tree;             /* the node tree, freed when reading ends */
    size_t nodes;
} reader;

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

/* ---- events -> tree ------------------------------------------------------------------------ */

static ynode *new_node(reader *r, ykind kind, const yaml_mark_t *mark)
{
    if (++r->nodes > MAX_NODES)
        return NULL;
    ynode *n = rmg__arena_alloc(&r->tree, sizeof *n);
    if (n) {
        n->kind = kind;
        n->line = (int)mark->line + 1;
        n->col = (int)mark->column + 1;
    }
    return n;
}

static void add_child(ynode *parent, ynode *child)
{
    if (parent->last)
        parent->last->next = child;
    else
        parent->first = child;
    parent->last = child;
    parent->n++;
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

static rmg_status limit_error(reader *r, const yaml_mark_t *m, const char *what)
{
    return rmg__error_at(r->ctx, RMG_ERR_LIMIT, r->file, (int)m->line + 1, (int)m->column + 1, "%s", what);
}

static rmg_status scalar_node(reader *r, const yaml_event_t *ev, ynode **out)
{
    const yaml_mark_t *m = &ev->start_mark;
    size_t len = ev->data.scalar.length;
    if (memchr(ev->data.scalar.value, 0, len))
        return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, (int)m->line + 1, (int)m->column + 1,
                             "NUL character in a string");
    ynode *n = new_node(r, Y_SCALAR, m);
    char *s = n ? rmg__arena_alloc(&r->tree, len + 1) : NULL;
    if (!s)
        return r->nodes > MAX_NODES ? limit_error(r, m, "too many YAML nodes") : rmg__error_nomem(r->ctx);
    memcpy(s, ev->data.scalar.value, len);
    n->str = s;
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    *out = n;
    return RMG_OK;
}

/* One event: creates nodes, keeps the stack of open containers. *root gets the document. */
static rmg_status take_event(reader *r, const yaml_event_t *ev, ynode **stack, int *depth, ynode **root,
                             bool *done)
{
    const yaml_mark_t *m = &ev->start_mark;
    ynode *n = NULL;
    rmg_status st = RMG_OK;
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, (int)m->line + 1, (int)m->column + 1,
                             "YAML aliases (*%s) are not supported in templates", (const char *)ev->data.alias.anchor);
    case YAML_SCALAR_EVENT:
        st = scalar_node(r, ev, &n);
        break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (*depth >= MAX_DEPTH)
            return limit_error(r, m, "YAML nested too deeply");
        n = new_node(r, ev->type == YAML_SEQUENCE_START_EVENT ? Y_SEQ : Y_MAP, m);
        if (!n)
            return r->nodes > MAX_NODES ? limit_error(r, m, "too many YAML nodes") : rmg__error_nomem(r->ctx);
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        (*depth)--;
        return RMG_OK;
    case YAML_DOCUMENT_START_EVENT:
        if (*root)
            return rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, (int)m->line + 1, (int)m->column + 1,
                                 "only one YAML document per template file");
        return RMG_OK;
    case YAML_STREAM_END_EVENT:
        *done = true;
        return RMG_OK;
    default:
        return RMG_OK;
    }
    if (st != RMG_OK)
        return st;
    if (*depth > 0)
        add_child(stack[*depth - 1], n);
    else
        *root = n;
    if (n->kind != Y_SCALAR)
        stack[(*depth)++] = n;
    return RMG_OK;
}

static rmg_status build_tree(reader *r, const char *data, size_t len, ynode **root)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return rmg__error_nomem(r->ctx);
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
    ynode *stack[MAX_DEPTH];
    int depth = 0;
    bool done = false;
    rmg_status st = RMG_OK;
    *root = NULL;
    while (!done && st == RMG_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            st = parser_error(r, &parser);
            break;
        }
        st = take_event(r, &ev, stack, &depth, root, &done);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (st == RMG_OK && !*root)
        st = rmg__error_at(r->ctx, RMG_ERR_PARSE, r->file, 1, 1, "empty template file");
    return st;
}

/* ---- tree -> model ------------------------------------------------------------------------- */

#define AT(p, off, T) ((T *)(void *)((unsigned char *)(p) + (off)))

static rmg_status read_fields(reader *r, const rmg__schema *s, const ynode *map, void *obj);

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
    return err_at(r, n, "'%s': unknown value '%s'", key, n->str);
}

static rmg_status parse_mask(reader *r, const ynode *n, const char *key, const rmg__names *names, uint32_t *out)
{
    rmg_status st = expect(r, n, Y_SEQ, key);
    uint32_t mask = 0;
    for (const ynode *c = n->first; c && st == RMG_OK; c = c->next) {
        long bit = 0;
        st = parse_name(r, c, key, names, 31, &bit);
        if (st == RMG_OK && (mask & (1u << bit)))
            st = err_at(r, c, "'%s': '%s' is listed twice", key, c->str);
        if (st == RMG_OK)
            mask |= 1u << bit;
    }
    *out = mask;
    return st;
}

static rmg_status parse_string(reader *r, const ynode *n, const char *key, char **out)
{
    rmg_status st = expect(r, n, Y_SCALAR, key);
    if (st != RMG_OK)
        return st;
    *out = rmg__arena_strdup(&r->pack->arena, n->str);
    return *out ? RMG_OK : rmg__error_nomem(r->ctx);
}

static rmg_status parse_overrides(reader *r, const ynode *n, const char *key, rmg__override_list *list)
{
    rmg_status st = expect(r, n, Y_SEQ, key);
    for (const ynode *c = n->first; c && st == RMG_OK; c = c->next) {
        st = expect(r, c, Y_SCALAR, key);
        if (st != RMG_OK)
            break;
        if (c->str[0] != '+' && c->str[0] != '-')
            return err_at(r, c, "'%s': expected +id (allow) or -id (ban), got '%s'", key, c->str);
        int64_t id;
        st = parse_int64(r, c, key, -(int64_t)INT32_MAX, INT32_MAX, &id);
        if (st != RMG_OK)
            break;
        if (c->str[1] < '0' || c->str[1] > '9')
            return err_at(r, c, "'%s': expected +id (allow) or -id (ban), got '%s'", key, c->str);
        rmg__override *o = rmg__arena_grow(&r->pack->arena, (void **)&list->items, &list->count, sizeof *o);
        if (!o)
            return rmg__error_nomem(r->ctx);
        o->allow = c->str[0] == '+';
        o->id = (int)(id < 0 ? -id : id);
    }
    return st;
}

static rmg_status parse_mines(reader *r, const ynode *n, const char *key, int *min, int *density)
{
    rmg_status st = expect(r, n, Y_MAP, key);
    for (const ynode *k = n->first; k && st == RMG_OK; k = k->next->next) {
        long res;
        st = parse_name(r, k, key, &rmg__resource_names, -1, &res);
        if (st != RMG_OK)
            break;
        int pair[2] = {min[res], density[res]};
        static const rmg__field mine_fields[] = {
            {"min", RMG__F_INT, 0, 0, NULL, NULL, 0, false},
            {"density", RMG__F_INT, sizeof(int), 0, NULL, NULL, 0, false},
        };
        static const rmg__schema mine_schema = {"mine", sizeof(int[2]), NULL, mine_fields, 2, RMG__NO_LOC, true};
        st = read_fields(r, &mine_schema, k->next, pair);
        min[res] = pair[0];
        density[res] = pair[1];
    }
    return st;
}

static rmg_status read_elements(reader *r, const rmg__field *f, const ynode *n, void *obj)
{
    rmg_status st = expect(r, n, Y_SEQ, f->key);
    if (st != RMG_OK)
        return st;
    if (f->kind == RMG__F_FIXED && n->n > f->fixed)
        return err_at(r, n, "'%s': at most %zu entries", f->key, f->fixed);
    size_t i = 0;
    for (const ynode *c = n->first; c && st == RMG_OK; c = c->next, i++) {
        void *elem;
        if (f->kind == RMG__F_FIXED) {
            elem = AT(obj, f->off + i * f->sub->size, unsigned char);
        } else {
            elem = rmg__arena_grow(&r->pack->arena, AT(obj, f->off, void *), AT(obj, f->off2, size_t),
                                   f->sub->size);
            if (!elem)
                return rmg__error_nomem(r->ctx);
            f->sub->init(elem);
        }
        st = read_fields(r, f->sub, c, elem);
    }
    return st;
}

static rmg_status read_field(reader *r, const rmg__field *f, const ynode *v, void *obj)
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
    case RMG__F_MASK:
        return parse_mask(r, v, f->key, f->names, AT(obj, f->off, uint32_t));
    case RMG__F_OPTMASK:
        *AT(obj, f->off2, bool) = true;
        return parse_mask(r, v, f->key, f->names, AT(obj, f->off, uint32_t));
    case RMG__F_GROUP:
        return read_fields(r, f->sub, v, obj);
    case RMG__F_SUB:
        return read_fields(r, f->sub, v, AT(obj, f->off, unsigned char));
    case RMG__F_LIST:
    case RMG__F_FIXED:
        return read_elements(r, f, v, obj);
    case RMG__F_MINES:
        return parse_mines(r, v, f->key, AT(obj, f->off, int), AT(obj, f->off2, int));
    case RMG__F_OVERRIDES:
        return parse_overrides(r, v, f->key, AT(obj, f->off, rmg__override_list));
    }
    return rmg__error_set(r->ctx, RMG_ERR_INTERNAL, "unknown field kind");
}

static const rmg__field *find_field(const rmg__schema *s, const char *key)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (strcmp(s->fields[i].key, key) == 0)
            return &s->fields[i];
    return NULL;
}

static rmg_status check_duplicate(reader *r, const ynode *map, const ynode *key)
{
    for (const ynode *k = map->first; k != key; k = k->next->next)
        if (k->kind == Y_SCALAR && strcmp(k->str, key->str) == 0)
            return err_at(r, key, "key '%s' given twice", key->str);
    return RMG_OK;
}

/* The document's optional `version: 1` marker (the format version, not a model field). */
static bool is_version_key(const rmg__schema *s, const ynode *k)
{
    return s == &rmg__pack_schema && strcmp(k->str, "version") == 0;
}

static rmg_status check_version(reader *r, const ynode *v)
{
    if (v->kind == Y_SCALAR && strcmp(v->str, "1") == 0)
        return RMG_OK;
    return err_at(r, v, "unsupported template format version '%s' (this library reads version 1)",
                  v->kind == Y_SCALAR ? v->str : "?");
}

static rmg_status read_fields(reader *r, const rmg__schema *s, const ynode *map, void *obj)
{
    rmg_status st = expect(r, map, Y_MAP, s->what);
    if (st != RMG_OK)
        return st;
    if (s->loc_off != RMG__NO_LOC) {
        rmg__srcloc *loc = AT(obj, s->loc_off, rmg__srcloc);
        loc->line = map->line;
        loc->column = map->col;
    }
    for (const ynode *k = map->first; k && st == RMG_OK; k = k->next->next) {
        if (k->kind != Y_SCALAR)
            return err_at(r, k, "%s: keys must be plain names", s->what);
        if (is_version_key(s, k)) {
            st = check_version(r, k->next);
            continue;
        }
        const rmg__field *f = find_field(s, k->str);
        if (!f)
            return err_at(r, k, "unknown key '%s' in %s", k->str, s->what);
        st = check_duplicate(r, map, k);
        if (st == RMG_OK)
            st = read_field(r, f, k->next, obj);
    }
    return st;
}

rmg_status rmg__yaml_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out)
{
    *out = NULL;
    if (len > MAX_INPUT)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, name, 0, 0, "template file larger than %zu bytes", MAX_INPUT);
    reader r = {ctx, name, NULL, {0}, 0};
    rmg_status st = rmg__pack_new(ctx, &r.pack);
    if (st != RMG_OK)
        return st;
    r.pack->format = RMG_FORMAT_YAML;
    if (name && !(r.pack->file = rmg__arena_strdup(&r.pack->arena, name))) {
        rmg__pack_free(r.pack);
        return rmg__error_nomem(ctx);
    }
    rmg__arena_init(&r.tree, ctx, 64 * 1024);
    ynode *root = NULL;
    st = build_tree(&r, data, len, &root);
    if (st == RMG_OK)
        st = read_fields(&r, &rmg__pack_schema, root, r.pack);
    rmg__arena_free(&r.tree);
    if (st != RMG_OK) {
        rmg__pack_free(r.pack);
        return st;
    }
    *out = r.pack;
    return RMG_OK;
}
