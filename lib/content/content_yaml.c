/*
 * A small YAML node tree built from libyaml events. Everything lives in one arena; aliases
 * point at the anchored node (no copies) and every node carries its weight after alias
 * expansion, so an "alias bomb" is refused before anyone walks it.
 */
#include <string.h>
#include <yaml.h>

#include "content/content_private.h"

typedef struct yframe {
    rmg__ynode *node;
    size_t first;       /* its children start here in yparser.kids */
    char *anchor;
} yframe;

typedef struct yanchor {
    char *name;
    rmg__ynode *node;
} yanchor;

typedef struct yparser {
    rmg_context *ctx;
    rmg__ydoc *doc;
    yaml_parser_t p;
    RMG__VEC(yframe) stack;
    RMG__VEC(rmg__ynode *) kids; /* children of every open container, innermost last */
    RMG__VEC(yanchor) anchors;
    int documents;
} yparser;

static size_t sat_add(size_t a, size_t b)
{
    size_t s = a + b;
    return (s < a || s > RMG_CONTENT_MAX_NODES + 1u) ? RMG_CONTENT_MAX_NODES + 1u : s;
}

static rmg_status nomem(yparser *y)
{
    return rmg__error_nomem(y->ctx);
}

static rmg__ynode *new_node(yparser *y, rmg__ytype type, const yaml_mark_t *mark)
{
    rmg__ynode *n = rmg__arena_alloc(&y->doc->arena, sizeof *n);
    if (!n)
        return NULL;
    n->type = type;
    n->line = (int)mark->line + 1;
    n->col = (int)mark->column + 1;
    n->weight = 1;
    return n;
}

static rmg_status remember_anchor(yparser *y, const char *anchor, rmg__ynode *node)
{
    if (!anchor)
        return RMG_OK;
    char *name = rmg__arena_strdup(&y->doc->arena, anchor);
    yanchor a = {name, node};
    if (!name || !RMG__VEC_PUSH(y->ctx, &y->anchors, a))
        return nomem(y);
    return RMG_OK;
}

/* Adds a finished node to the open container (or makes it the root). */
static rmg_status attach(yparser *y, rmg__ynode *node, const yaml_mark_t *mark)
{
    if (node->weight > RMG_CONTENT_MAX_NODES)
        return rmg__error_at(y->ctx, RMG_ERR_LIMIT, y->doc->file, (int)mark->line + 1, (int)mark->column + 1,
                             "YAML input expands to more than %u nodes", RMG_CONTENT_MAX_NODES);
    if (y->stack.count == 0) {
        y->doc->root = node;
        return RMG_OK;
    }
    yframe *f = &y->stack.items[y->stack.count - 1];
    if (!RMG__VEC_PUSH(y->ctx, &y->kids, node))
        return nomem(y);
    f->node->weight = sat_add(f->node->weight, node->weight);
    return RMG_OK;
}

static rmg_status on_scalar(yparser *y, const yaml_event_t *e)
{
    rmg__ynode *n = new_node(y, RMG__Y_SCALAR, &e->start_mark);
    if (!n)
        return nomem(y);
    size_t len = e->data.scalar.length;
    char *s = rmg__arena_alloc(&y->doc->arena, len + 1);
    if (!s)
        return nomem(y);
    memcpy(s, e->data.scalar.value, len);
    s[len] = '\0';
    n->str = s;
    n->len = len;
    n->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    rmg_status st = remember_anchor(y, (const char *)e->data.scalar.anchor, n);
    return st ? st : attach(y, n, &e->start_mark);
}

static rmg_status on_start(yparser *y, const yaml_event_t *e, rmg__ytype type)
{
    if (y->stack.count >= RMG_CONTENT_MAX_DEPTH)
        return rmg__error_at(y->ctx, RMG_ERR_LIMIT, y->doc->file, (int)e->start_mark.line + 1,
                             (int)e->start_mark.column + 1, "YAML nesting deeper than %u levels",
                             RMG_CONTENT_MAX_DEPTH);
    rmg__ynode *n = new_node(y, type, &e->start_mark);
    if (!n)
        return nomem(y);
    const yaml_char_t *anchor = type == RMG__Y_MAP ? e->data.mapping_start.anchor : e->data.sequence_start.anchor;
    char *a = NULL;
    if (anchor && !(a = rmg__arena_strdup(&y->doc->arena, (const char *)anchor)))
        return nomem(y);
    yframe f = {n, y->kids.count, a};
    if (!RMG__VEC_PUSH(y->ctx, &y->stack, f))
        return nomem(y);
    return RMG_OK;
}

static rmg_status on_end(yparser *y, const yaml_event_t *e)
{
    yframe f = y->stack.items[--y->stack.count];
    rmg__ynode *n = f.node;
    rmg_status st = RMG_OK;
    size_t count = y->kids.count - f.first;
    if (count) {
        n->items = rmg__arena_alloc(&y->doc->arena, count * sizeof *n->items);
        if (!n->items)
            st = nomem(y);
        else
            memcpy(n->items, y->kids.items + f.first, count * sizeof *n->items);
    }
    n->n = n->type == RMG__Y_MAP ? count / 2 : count;
    y->kids.count = f.first;
    if (st == RMG_OK)
        st = remember_anchor(y, f.anchor, n);
    return st ? st : attach(y, n, &e->end_mark);
}

static rmg_status on_alias(yparser *y, const yaml_event_t *e)
{
    const char *name = (const char *)e->data.alias.anchor;
    for (size_t i = y->anchors.count; i-- > 0;)
        if (strcmp(y->anchors.items[i].name, name) == 0)
            return attach(y, y->anchors.items[i].node, &e->start_mark);
    return rmg__error_at(y->ctx, RMG_ERR_PARSE, y->doc->file, (int)e->start_mark.line + 1,
                         (int)e->start_mark.column + 1, "unknown YAML anchor '%s'", name);
}

static rmg_status on_event(yparser *y, const yaml_event_t *e)
{
    switch (e->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++y->documents > 1)
            return rmg__error_at(y->ctx, RMG_ERR_PARSE, y->doc->file, (int)e->start_mark.line + 1,
                                 (int)e->start_mark.column + 1, "only one YAML document per input");
        return RMG_OK;
    case YAML_SCALAR_EVENT:
        return on_scalar(y, e);
    case YAML_SEQUENCE_START_EVENT:
        return on_start(y, e, RMG__Y_SEQ);
    case YAML_MAPPING_START_EVENT:
        return on_start(y, e, RMG__Y_MAP);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_end(y, e);
    case YAML_ALIAS_EVENT:
        return on_alias(y, e);
    default:
        return RMG_OK;
    }
}

static rmg_status syntax_error(yparser *y)
{
    const yaml_mark_t *m = &y->p.problem_mark;
    return rmg__error_at(y->ctx, RMG_ERR_PARSE, y->doc->file, (int)m->line + 1, (int)m->column + 1,
                         "YAML syntax error: %s%s%s", y->p.problem ? y->p.problem : "malformed input",
                         y->p.context ? " " : "", y->p.context ? y->p.context : "");
}

static void release_parser(yparser *y)
{
    RMG__VEC_FREE(y->ctx, &y->stack);
    RMG__VEC_FREE(y->ctx, &y->kids);
    RMG__VEC_FREE(y->ctx, &y->anchors);
    yaml_parser_delete(&y->p);
}

rmg_status rmg__yaml_parse(rmg_context *ctx, const char *data, size_t len, const char *file, rmg__ydoc *doc)
{
    memset(doc, 0, sizeof *doc);
    rmg__arena_init(&doc->arena, ctx, 64 * 1024);
    doc->file = file ? file : "<content>";
    if (len > RMG_CONTENT_MAX_BYTES)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, doc->file, 0, 0, "content input is larger than %u bytes",
                             RMG_CONTENT_MAX_BYTES);
    yparser y;
    memset(&y, 0, sizeof y);
    y.ctx = ctx;
    y.doc = doc;
    if (!yaml_parser_initialize(&y.p))
        return rmg__error_nomem(ctx);
    yaml_parser_set_input_string(&y.p, (const unsigned char *)data, len);
    rmg_status st = RMG_OK;
    for (bool done = false; !done && st == RMG_OK;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&y.p, &e)) {
            st = y.p.error == YAML_MEMORY_ERROR ? rmg__error_nomem(ctx) : syntax_error(&y);
            break;
        }
        done = e.type == YAML_STREAM_END_EVENT;
        st = on_event(&y, &e);
        yaml_event_delete(&e);
    }
    release_parser(&y);
    if (st != RMG_OK)
        rmg__yaml_free(doc);
    return st;
}

void rmg__yaml_free(rmg__ydoc *doc)
{
    rmg__arena_free(&doc->arena);
    doc->root = NULL;
}
