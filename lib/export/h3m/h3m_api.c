/* The public .h3m API (include/rmg/h3m.h): write a map, save it, load a file. */
#include <stdio.h>
#include <string.h>

#include "h3m_export.h"
#include "rmg/h3m.h"

void rmg_h3m_options_init(rmg_h3m_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->edition = RMG_H3M_AUTO;
}

static rmg_status read_options(const rmg_map *map, const rmg_h3m_options *in, rmg_h3m_options *out)
{
    rmg_h3m_options_init(out);
    if (!in)
        return RMG_OK;
    rmg_status st = rmg__struct_in(out, sizeof *out, in, offsetof(rmg_h3m_options, edition) + sizeof in->edition);
    if (st != RMG_OK)
        return rmg__error_set(map->ctx, st, "rmg_h3m_options: struct_size %zu is not one this library knows",
                              in->struct_size);
    if ((unsigned)out->edition > RMG_H3M_HOTA)
        return rmg__error_set(map->ctx, RMG_ERR_INVALID_ARG, "rmg_h3m_options: unknown edition %d", (int)out->edition);
    return RMG_OK;
}

/* AUTO: the map's ruleset decides (the SoD ruleset: a SoD file). */
static bool hota_edition(const rmg_map *map, rmg_h3m_edition edition)
{
    if (edition != RMG_H3M_AUTO)
        return edition == RMG_H3M_HOTA;
    const struct rmg_content *c = rmg__content_peek(map->ctx);
    return !c || rmg_content_get_variant(c) != RMG_CONTENT_SOD;
}

rmg_status rmg_map_to_h3m(const rmg_map *map, const rmg_h3m_options *options, unsigned char **out, size_t *len)
{
    if (!map || !out || !len)
        return map ? rmg__error_set(map->ctx, RMG_ERR_INVALID_ARG, "rmg_map_to_h3m: NULL argument") : RMG_ERR_INVALID_ARG;
    *out = NULL;
    *len = 0;
    rmg_h3m_options o;
    rmg_status st = read_options(map, options, &o);
    rmg__h3m_doc *doc = NULL;
    if (st == RMG_OK)
        st = rmg__h3m_from_map(map, hota_edition(map, o.edition), &doc);
    uint8_t *stream = NULL;
    size_t n = 0;
    if (st == RMG_OK)
        st = rmg__h3m_write(map->ctx, doc, &stream, &n);
    rmg__h3m_doc_free(doc);
    if (st == RMG_OK)
        st = rmg__h3m_compress(map->ctx, stream, n, out, len);
    rmg__free(map->ctx, stream);
    return st;
}

rmg_status rmg_map_save_h3m(const rmg_map *map, const char *path, const rmg_h3m_options *options)
{
    if (!map || !path)
        return map ? rmg__error_set(map->ctx, RMG_ERR_INVALID_ARG, "rmg_map_save_h3m: NULL argument") : RMG_ERR_INVALID_ARG;
    unsigned char *data = NULL;
    size_t len = 0;
    rmg_status st = rmg_map_to_h3m(map, options, &data, &len);
    if (st == RMG_OK)
        st = rmg__write_file(map->ctx, path, data, len);
    rmg__free(map->ctx, data);
    return st;
}

rmg_status rmg_map_load_h3m(rmg_context *ctx, const char *path, rmg_map **out)
{
    if (!ctx || !path || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_map_load_h3m: NULL argument") : RMG_ERR_INVALID_ARG;
    *out = NULL;
    char *data = NULL;
    size_t len = 0;
    rmg_status st = rmg__read_file(ctx, path, RMG__H3M_MAX_STREAM, &data, &len);
    if (st == RMG_OK)
        st = rmg_map_from_h3m(ctx, data, len, path, out);
    rmg__free(ctx, data);
    return st;
}
