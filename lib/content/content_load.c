/*
 * Loading rulesets: the built-in ones (YAML embedded at build time), host files and strings.
 * Every path builds the new ruleset aside and swaps it into the context only on success.
 */
#include <string.h>

#include "content/content_private.h"
#include "embed.h"

/* Parses one input and applies it to the builder. */
static rmg_status apply_input(rmg__builder *b, const char *data, size_t len, const char *name)
{
    rmg__ydoc doc;
    rmg_status st = rmg__yaml_parse(b->ctx, data, len, name, &doc);
    if (st)
        return st;
    st = rmg__builder_apply(b, &doc);
    rmg__yaml_free(&doc);
    return st;
}

rmg_status rmg__content_load_builtin(rmg_context *ctx, int variant, struct rmg_content **out)
{
    *out = NULL;
    rmg__builder b;
    rmg_status st = rmg__builder_init(&b, ctx, variant == RMG_CONTENT_SOD ? RMG_CONTENT_SOD : RMG_CONTENT_HOTA, NULL);
    if (st)
        return st;
    for (size_t i = 0; variant != RMG_CONTENT_EMPTY && i < rmg__embedded_content_count; i++) {
        const rmg__embedded_file *f = &rmg__embedded_content[i];
        st = apply_input(&b, (const char *)f->data, f->size, f->name);
        if (st) {
            rmg__builder_abort(&b);
            return st;
        }
    }
    return rmg__builder_finish(&b, out);
}

/* Makes c the context's content; on failure c is freed. */
static rmg_status swap_in(rmg_context *ctx, struct rmg_content *c)
{
    rmg_status st = rmg__content_attach(ctx, c);
    if (st != RMG_OK)
        rmg__content_free(c);
    return st;
}

const struct rmg_content *rmg__content_get(rmg_context *ctx)
{
    if (!ctx)
        return NULL;
    const struct rmg_content *have = rmg__content_peek(ctx);
    if (have)
        return have;
    struct rmg_content *c;
    if (rmg__content_load_builtin(ctx, RMG_CONTENT_HOTA, &c) != RMG_OK || swap_in(ctx, c) != RMG_OK)
        return NULL;
    return c;
}

static bool valid_variant(rmg_content_variant v)
{
    return v == RMG_CONTENT_HOTA || v == RMG_CONTENT_SOD || v == RMG_CONTENT_EMPTY;
}

rmg_status rmg_context_set_content_variant(rmg_context *ctx, rmg_content_variant variant)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!valid_variant(variant))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "unknown content variant %d", (int)variant);
    struct rmg_content *c;
    rmg_status st = rmg__content_load_builtin(ctx, variant, &c);
    return st == RMG_OK ? swap_in(ctx, c) : st;
}

rmg_status rmg_context_content(rmg_context *ctx, const rmg_content **out)
{
    if (!ctx || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_context_content: out is NULL") : RMG_ERR_INVALID_ARG;
    *out = rmg__content_get(ctx);
    return *out ? RMG_OK : rmg_context_errcode(ctx);
}

/* Builds from `base` (NULL: empty with `variant`) plus one input, swapping on success. */
static rmg_status build_and_swap(rmg_context *ctx, const struct rmg_content *base, int variant, const char *data,
                                 size_t len, const char *name)
{
    rmg__builder b;
    rmg_status st = rmg__builder_init(&b, ctx, variant, base);
    if (st)
        return st;
    st = apply_input(&b, data, len, name);
    if (st) {
        rmg__builder_abort(&b);
        return st;
    }
    struct rmg_content *c;
    st = rmg__builder_finish(&b, &c);
    return st == RMG_OK ? swap_in(ctx, c) : st;
}

static rmg_status check_string_args(rmg_context *ctx, const char *yaml, rmg_content_variant *variant)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!yaml)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "content: the YAML text is NULL");
    if (variant && (*variant != RMG_CONTENT_HOTA && *variant != RMG_CONTENT_SOD))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "content: variant must be RMG_CONTENT_HOTA or RMG_CONTENT_SOD");
    return RMG_OK;
}

rmg_status rmg_content_load_string(rmg_context *ctx, const char *yaml, size_t len, const char *name,
                                   rmg_content_variant variant)
{
    rmg_status st = check_string_args(ctx, yaml, &variant);
    return st ? st : build_and_swap(ctx, NULL, variant, yaml, len, name);
}

rmg_status rmg_content_merge_string(rmg_context *ctx, const char *yaml, size_t len, const char *name)
{
    rmg_status st = check_string_args(ctx, yaml, NULL);
    if (st)
        return st;
    const struct rmg_content *base = rmg__content_get(ctx);
    if (!base)
        return rmg_context_errcode(ctx);
    return build_and_swap(ctx, base, base->variant, yaml, len, name);
}

/* Reads a host file, bounded by RMG_CONTENT_MAX_BYTES. */
static rmg_status with_file(rmg_context *ctx, const char *path, char **data, size_t *len)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!path)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "content: path is NULL");
    return rmg__read_file(ctx, path, RMG_CONTENT_MAX_BYTES, data, len);
}

rmg_status rmg_content_load(rmg_context *ctx, const char *path, rmg_content_variant variant)
{
    char *data;
    size_t len;
    rmg_status st = with_file(ctx, path, &data, &len);
    if (st)
        return st;
    st = rmg_content_load_string(ctx, data, len, path, variant);
    rmg__free(ctx, data);
    return st;
}

rmg_status rmg_content_merge(rmg_context *ctx, const char *path)
{
    char *data;
    size_t len;
    rmg_status st = with_file(ctx, path, &data, &len);
    if (st)
        return st;
    st = rmg_content_merge_string(ctx, data, len, path);
    rmg__free(ctx, data);
    return st;
}
