/*
 * Native YAML writer: walks the schema tables (schema.c) and emits through libyaml. Settings
 * equal to the spec default are left out, so files stay short; the reader fills the same
 * defaults back in, which the round-trip tests check.
 */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "template/schema.h"

typedef struct writer {
    yaml_emitter_t em;
    rmg_context *ctx;
    rmg__buf out;
    rmg_status st;               /* first failure */
    char path[256];              /* what is being written, for messages */
} writer;

#define AT(p, off, T) ((const T *)(const void *)((const unsigned char *)(p) + (off)))

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    writer *w = data;
    rmg__buf_append(&w->out, (const char *)buffer, size);
    return !w->out.failed;
}

static void fail(writer *w, rmg_status st)
{
    if (w->st == RMG_OK)
        w->st = st == RMG_ERR_NOMEM ? rmg__error_nomem(w->ctx) : st;
}

static void emit(writer *w, yaml_event_t *ev, int made)
{
    if (w->st != RMG_OK) {
        if (made)
            yaml_event_delete(ev);
        return;
    }
    if (!made || !yaml_emitter_emit(&w->em, ev)) {
        if (w->em.error == YAML_WRITER_ERROR || w->em.error == YAML_MEMORY_ERROR || !made || w->out.failed)
            fail(w, RMG_ERR_NOMEM);
        else
            fail(w, rmg__error_set(w->ctx, RMG_ERR_INTERNAL, "YAML emitter: %s",
                                   w->em.problem ? w->em.problem : "error"));
    }
}

static bool valid_utf8(const unsigned char *s)
{
    while (*s) {
        int n = *s < 0x80 ? 0 : (*s & 0xE0) == 0xC0 ? 1 : (*s & 0xF0) == 0xE0 ? 2 : (*s & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0 || (n == 1 && *s < 0xC2))
            return false;
        s++;
        for (int i = 0; i < n; i++, s++)
            if ((*s & 0xC0) != 0x80)
                return false;
    }
    return true;
}

static bool equal_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return false;
    return *a == *b;
}

/* Strings that a YAML 1.1 reader would take for a number, a boolean or null are quoted. */
static bool looks_typed(const char *s)
{
    static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"};
    if (!*s || strchr("0123456789+-.", *s))
        return true;
    for (size_t i = 0; i < RMG__ARRAY_LEN(words); i++)
        if (equal_ignoring_case(s, words[i]))
            return true;
    return false;
}

static void scalar_styled(writer *w, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)s, (int)strlen(s), 1, 1,
                                              style));
}

static void scalar(writer *w, const char *s)
{
    scalar_styled(w, s, YAML_PLAIN_SCALAR_STYLE);
}

static void string(writer *w, const char *s)
{
    if (!valid_utf8((const unsigned char *)s)) {
        fail(w, rmg__error_set(w->ctx, RMG_ERR_INVALID_DATA, "%s: text is not valid UTF-8", w->path));
        return;
    }
    yaml_scalar_style_t style = strchr(s, '\n')  ? YAML_LITERAL_SCALAR_STYLE
                                : looks_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                                 : YAML_ANY_SCALAR_STYLE;
    scalar_styled(w, s, style);
}

static void number(writer *w, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    scalar(w, buf);
}

static void start(writer *w, bool map, bool flow)
{
    yaml_event_t ev;
    if (map)
        emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                                         flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
    else
        emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                                          flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

static void end(writer *w, bool map)
{
    yaml_event_t ev;
    if (map)
        emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
    else
        emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void name_or_number(writer *w, const rmg__names *names, long v)
{
    const char *s = rmg__names_get(names, v);
    if (s)
        scalar(w, s);
    else
        number(w, v);
}

static void mask(writer *w, const rmg__names *names, uint32_t m)
{
    start(w, false, true);
    for (long bit = 0; bit < 32; bit++)
        if (m & (1u << bit))
            name_or_number(w, names, bit);
    end(w, false);
}

static void overrides(writer *w, const rmg__override_list *l)
{
    start(w, false, true);
    for (size_t i = 0; i < l->count; i++) {
        char buf[24];
        snprintf(buf, sizeof buf, "%c%d", l->items[i].allow ? '+' : '-', l->items[i].id);
        scalar(w, buf);
    }
    end(w, false);
}

static void mines(writer *w, const int *min, const int *density)
{
    start(w, true, false);
    for (long i = 0; i < 7; i++) {
        if (!min[i] && !density[i])
            continue;
        scalar(w, rmg__names_get(&rmg__resource_names, i));
        start(w, true, true);
        scalar(w, "min");
        number(w, min[i]);
        scalar(w, "density");
        number(w, density[i]);
        end(w, true);
    }
    end(w, true);
}

static void object(writer *w, const rmg__schema *s, const void *obj, const void *def);

/* A list's elements. Of a fixed-size list (treasure ranges, issue 29) the elements equal to a
 * fresh one are default: those at the end are left out and the others written as `{}`, which
 * reads back as a fresh element in its place. */
static void elements(writer *w, const rmg__schema *s, const void *items, size_t count, bool fixed)
{
    _Alignas(max_align_t) unsigned char def[RMG__SCHEMA_MAX_ELEM];
    memset(def, 0, s->size);
    s->init(def);
    char scratch[8] = "";
    while (fixed && count && rmg__schema_equal(s, AT(items, (count - 1) * s->size, unsigned char), def, scratch,
                                               sizeof scratch))
        count--;
    start(w, false, false);
    for (size_t i = 0; i < count; i++) {
        const void *item = AT(items, i * s->size, unsigned char);
        if (fixed && rmg__schema_equal(s, item, def, scratch, sizeof scratch)) {
            start(w, true, true);
            end(w, true);
        } else {
            object(w, s, item, def);
        }
    }
    end(w, false);
}

static void value(writer *w, const rmg__field *f, const void *obj, const void *def)
{
    char buf[40];
    switch (f->kind) {
    case RMG__F_INT:
        number(w, *AT(obj, f->off, int));
        break;
    case RMG__F_INT64:
        number(w, *AT(obj, f->off, int64_t));
        break;
    case RMG__F_PARAM: {
        int64_t v = *AT(obj, f->off, int64_t);
        if (v == RMG__PARAM_DEFAULT)
            scalar(w, "default");
        else if (v == RMG__PARAM_UNLIMITED)
            scalar(w, "unlimited");
        else
            number(w, v);
        break;
    }
    case RMG__F_DOUBLE:
        rmg__format_double(*AT(obj, f->off, double), buf, sizeof buf);
        scalar(w, buf);
        break;
    case RMG__F_BOOL:
        scalar(w, *AT(obj, f->off, bool) ? "true" : "false");
        break;
    case RMG__F_STR:
        string(w, *AT(obj, f->off, char *const));
        break;
    case RMG__F_ENUM:
        name_or_number(w, f->names, *AT(obj, f->off, int));
        break;
    case RMG__F_MASK:
    case RMG__F_OPTMASK:
        mask(w, f->names, *AT(obj, f->off, uint32_t));
        break;
    case RMG__F_GROUP:
        object(w, f->sub, obj, def);
        break;
    case RMG__F_SUB:
        object(w, f->sub, AT(obj, f->off, unsigned char), AT(def, f->off, unsigned char));
        break;
    case RMG__F_LIST:
        elements(w, f->sub, *AT(obj, f->off, void *const), *AT(obj, f->off2, size_t), false);
        break;
    case RMG__F_FIXED:
        elements(w, f->sub, AT(obj, f->off, unsigned char), f->fixed, true);
        break;
    case RMG__F_MINES:
        mines(w, AT(obj, f->off, int), AT(obj, f->off2, int));
        break;
    case RMG__F_OVERRIDES:
        overrides(w, AT(obj, f->off, rmg__override_list));
        break;
    }
}

/* Fields equal to the default are omitted (a NULL string is absent, "" is written). */
static bool worth_writing(const rmg__field *f, const void *obj, const void *def)
{
    if (f->kind == RMG__F_STR)
        return rmg__field_text(f, obj) != NULL;
    if (f->always)
        return true;
    char scratch[8] = "";
    return !rmg__field_equal(f, obj, def, scratch, sizeof scratch);
}

static void object(writer *w, const rmg__schema *s, const void *obj, const void *def)
{
    start(w, true, s->flow);
    for (size_t i = 0; i < s->n_fields && w->st == RMG_OK; i++) {
        const rmg__field *f = &s->fields[i];
        if (!worth_writing(f, obj, def))
            continue;
        size_t keep = strlen(w->path);
        snprintf(w->path + keep, sizeof w->path - keep, "%s%s", keep ? "." : "", f->key);
        scalar(w, f->key);
        value(w, f, obj, def);
        w->path[keep] = '\0';
    }
    end(w, true);
}

static void document(writer *w, const struct rmg_pack *pack)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
    struct rmg_pack def;
    memset(&def, 0, sizeof def);
    start(w, true, false);
    scalar(w, "version");
    scalar(w, "1");
    /* The pack's own fields, inlined into the document mapping after the version. */
    for (size_t i = 0; i < rmg__pack_schema.n_fields && w->st == RMG_OK; i++) {
        const rmg__field *f = &rmg__pack_schema.fields[i];
        if (!worth_writing(f, pack, &def))
            continue;
        snprintf(w->path, sizeof w->path, "%s", f->key);
        scalar(w, f->key);
        value(w, f, pack, &def);
    }
    end(w, true);
    emit(w, &ev, yaml_document_end_event_initialize(&ev, 1));
    emit(w, &ev, yaml_stream_end_event_initialize(&ev));
}

rmg_status rmg__yaml_write(const struct rmg_pack *pack, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    writer *w = rmg__calloc(pack->ctx, 1, sizeof *w);
    if (!w)
        return rmg__error_nomem(pack->ctx);
    w->ctx = pack->ctx;
    rmg__buf_init(&w->out, pack->ctx);
    if (!yaml_emitter_initialize(&w->em)) {
        rmg__free(pack->ctx, w);
        return rmg__error_nomem(pack->ctx);
    }
    yaml_emitter_set_output(&w->em, write_handler, w);
    yaml_emitter_set_unicode(&w->em, 1);
    yaml_emitter_set_width(&w->em, 110);
    yaml_emitter_set_indent(&w->em, 2);
    document(w, pack);
    if (w->st == RMG_OK && !yaml_emitter_flush(&w->em))
        fail(w, RMG_ERR_NOMEM);
    yaml_emitter_delete(&w->em);
    rmg_status st = w->st;
    if (st == RMG_OK)
        st = rmg__buf_finish(&w->out, out, len);
    rmg__buf_free(&w->out);
    rmg__free(pack->ctx, w);
    return st;
}
