/* Public pack API: loading (format detection and dispatch), saving, the built-in pack, warnings. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "embed.h"
#include "importers.h"
#include "model.h"

#define MAX_TEMPLATE_FILE ((size_t)64 << 20)

/* Skips a UTF-8 byte-order mark and leading blank space. */
static const char *content_start(const char *data, size_t len, size_t *rest)
{
    size_t i = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    *rest = len - i;
    return data + i;
}

/* The first tab-separated cell decides between HotA ("Pack") and SoD ("Map") text packs. */
static bool first_cell_is(const char *data, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len > n && memcmp(data, word, n) == 0 && (data[n] == '\t' || data[n] == '\r' || data[n] == '\n');
}

/* '{' after blank space and JSON comments (VCMI files may open with a comment; YAML comments
 * start with '#'). */
static bool starts_json_object(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n') {
            i++;
        } else if (i + 1 < n && p[i] == '/' && p[i + 1] == '/') {
            while (i < n && p[i] != '\n')
                i++;
        } else if (i + 1 < n && p[i] == '/' && p[i + 1] == '*') {
            for (i += 2; i + 1 < n && !(p[i] == '*' && p[i + 1] == '/'); i++)
                ;
            i += 2;
        } else {
            return p[i] == '{';
        }
    }
    return false;
}

static rmg_template_format detect_format(const char *data, size_t len)
{
    size_t rest;
    const char *p = content_start(data, len, &rest);
    if (first_cell_is(p, rest, "Pack"))
        return RMG_FORMAT_H3T;
    if (first_cell_is(p, rest, "Map"))
        return RMG_FORMAT_SOD;
    if (starts_json_object(p, rest))
        return RMG_FORMAT_VCMI;
    return RMG_FORMAT_YAML;
}

RMG_API rmg_status rmg_pack_load_string(rmg_context *ctx, const char *data, size_t len, const char *name,
                                        rmg_template_format format, rmg_pack **out)
{
    if (!out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_load_string: out is NULL")
                   : RMG_ERR_INVALID_ARG;
    *out = NULL;
    if (!ctx || (!data && len))
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_load_string: no data") : RMG_ERR_INVALID_ARG;
    if (!data)
        data = "";
    if (format == RMG_FORMAT_AUTO)
        format = detect_format(data, len);
    switch (format) {
    case RMG_FORMAT_YAML:
    case RMG_FORMAT_BUILTIN:
        return rmg__yaml_read(ctx, data, len, name, out);
    case RMG_FORMAT_H3T:
    case RMG_FORMAT_SOD:
        return rmg__h3t_read(ctx, data, len, name, out);
    case RMG_FORMAT_VCMI:
        return rmg__vcmi_read(ctx, data, len, name, out);
    default:
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "unknown template format %d", (int)format);
    }
}

rmg_status rmg__pack_load_checked(rmg_context *ctx, const char *path, rmg_template_format format, rmg_pack **out)
{
    *out = NULL;
    char *data;
    size_t len;
    rmg_status st = rmg__read_file(ctx, path, MAX_TEMPLATE_FILE, &data, &len);
    if (st != RMG_OK)
        return st;
    const char *nul = memchr(data, '\0', len);
    if (nul) {   /* no template format is binary: this is no template at all */
        rmg__free(ctx, data);
        return rmg__error_at(ctx, RMG_ERR_UNSUPPORTED, path, 0, 0, "not a text file (a NUL byte at offset %zu)",
                             (size_t)(nul - data));
    }
    if (format == RMG_FORMAT_AUTO)
        format = detect_format(data, len);
    switch (format) {
    case RMG_FORMAT_YAML:
    case RMG_FORMAT_BUILTIN:
        st = rmg__yaml_read_checked(ctx, data, len, path, out);
        break;
    case RMG_FORMAT_H3T:
    case RMG_FORMAT_SOD:
        st = rmg__h3t_read_checked(ctx, data, len, path, out);
        break;
    default:
        st = rmg_pack_load_string(ctx, data, len, path, format, out);
        break;
    }
    rmg__free(ctx, data);
    return st;
}

RMG_API rmg_status rmg_pack_load(rmg_context *ctx, const char *path, rmg_template_format format, rmg_pack **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !path || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_load: NULL argument") : RMG_ERR_INVALID_ARG;
    char *data;
    size_t len;
    rmg_status st = rmg__read_file(ctx, path, MAX_TEMPLATE_FILE, &data, &len);
    if (st != RMG_OK)
        return st;
    st = rmg_pack_load_string(ctx, data, len, path, format, out);
    rmg__free(ctx, data);
    return st;
}

RMG_API rmg_status rmg_pack_builtin(rmg_context *ctx, rmg_pack **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_builtin: NULL argument") : RMG_ERR_INVALID_ARG;
    for (size_t i = 0; i < rmg__embedded_templates_count; i++) {
        const rmg__embedded_file *f = &rmg__embedded_templates[i];
        if (strcmp(f->name, "default.yaml") != 0)
            continue;
        rmg_status st = rmg__yaml_read(ctx, (const char *)f->data, f->size, "builtin:default.yaml", out);
        if (st == RMG_OK)
            (*out)->format = RMG_FORMAT_BUILTIN;
        return st;
    }
    return rmg__error_set(ctx, RMG_ERR_INTERNAL, "the built-in template pack is missing from this build");
}

RMG_API rmg_status rmg_pack_create(rmg_context *ctx, const char *name, rmg_pack **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_create: NULL argument") : RMG_ERR_INVALID_ARG;
    rmg_pack *p;
    rmg_status st = rmg__pack_new(ctx, &p);
    if (st != RMG_OK)
        return st;
    p->format = RMG_FORMAT_YAML;
    if (name && !(p->name = rmg__arena_strdup(&p->arena, name))) {
        rmg__pack_free(p);
        return rmg__error_nomem(ctx);
    }
    *out = p;
    return RMG_OK;
}

RMG_API void rmg_pack_destroy(rmg_pack *pack)
{
    rmg__pack_free(pack);
}

RMG_API rmg_status rmg_pack_to_yaml(const rmg_pack *pack, char **str, size_t *len)
{
    if (str)
        *str = NULL;
    if (!pack || !str)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_to_yaml: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    return rmg__yaml_write(pack, str, len);
}

RMG_API rmg_status rmg_pack_save_yaml(const rmg_pack *pack, const char *path)
{
    if (!pack || !path)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_save_yaml: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    char *text;
    size_t len;
    rmg_status st = rmg__yaml_write(pack, &text, &len);
    if (st != RMG_OK)
        return st;
    st = rmg__write_file(pack->ctx, path, text, len);
    rmg__free(pack->ctx, text);
    return st;
}

RMG_API void rmg_h3t_write_options_init(rmg_h3t_write_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
}

/* The caller's options (an older, smaller struct is accepted), or the defaults for NULL. */
static rmg_status h3t_options(const rmg_pack *pack, const rmg_h3t_write_options *in, rmg_h3t_write_options *out)
{
    rmg_h3t_write_options_init(out);
    if (!in)
        return RMG_OK;
    rmg_status st = rmg__struct_in(out, sizeof *out, in, offsetof(rmg_h3t_write_options, version));
    return st == RMG_OK ? RMG_OK
                        : rmg__error_set(pack->ctx, st, "rmg_h3t_write_options: struct_size %zu is not one this "
                                                        "library knows", in->struct_size);
}

RMG_API rmg_status rmg_pack_to_h3t(const rmg_pack *pack, const rmg_h3t_write_options *options, char **str,
                                   size_t *len)
{
    if (str)
        *str = NULL;
    if (!pack || !str)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_to_h3t: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    rmg_h3t_write_options o;
    rmg_status st = h3t_options(pack, options, &o);
    return st == RMG_OK ? rmg__h3t_write(pack, &o, str, len) : st;
}

RMG_API rmg_status rmg_pack_save_h3t(const rmg_pack *pack, const rmg_h3t_write_options *options, const char *path)
{
    if (!pack || !path)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_save_h3t: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    char *text;
    size_t len;
    rmg_status st = rmg_pack_to_h3t(pack, options, &text, &len);
    if (st != RMG_OK)
        return st;
    st = rmg__write_file(pack->ctx, path, text, len);
    rmg__free(pack->ctx, text);
    return st;
}

RMG_API size_t rmg_pack_warning_count(const rmg_pack *pack)
{
    return pack ? pack->n_warnings : 0;
}

RMG_API const char *rmg_pack_warning(const rmg_pack *pack, size_t index)
{
    return pack && index < pack->n_warnings ? pack->warnings[index] : NULL;
}

RMG_API size_t rmg_pack_template_count(const rmg_pack *pack)
{
    return pack ? pack->n_templates : 0;
}

RMG_API rmg_status rmg_pack_find_template(const rmg_pack *pack, const char *name, size_t *index)
{
    if (!pack || !name || !index)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_find_template: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    for (size_t i = 0; i < pack->n_templates; i++)
        if (pack->templates[i].name && strcmp(pack->templates[i].name, name) == 0) {
            *index = i;
            return RMG_OK;
        }
    return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "pack '%s' has no template named '%s'",
                          pack->name ? pack->name : "", name);
}
