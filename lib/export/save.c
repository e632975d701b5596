/* rmg_map_save: the export chosen by the file name's extension. */
#include <stdio.h>
#include <string.h>

#include "export_internal.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static rmg_status write_file(const struct rmg_map *m, const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return rmg__error_at(m->ctx, RMG_ERR_IO, path, 0, 0, "cannot open for writing");
    size_t w = fwrite(data, 1, len, f);
    int closed = fclose(f);
    if (w != len || closed != 0)
        return rmg__error_at(m->ctx, RMG_ERR_IO, path, 0, 0, "write error");
    return RMG_OK;
}

rmg_status rmg_map_save(const rmg_map *map, const char *path)
{
    if (!map || !path)
        return RMG_ERR_INVALID_ARG;
    if (ends_with(path, ".png"))
        return rmg_map_save_png(map, path);
    char *data = NULL;
    size_t len = 0;
    rmg_status st;
    if (ends_with(path, ".json"))
        st = rmg_map_to_json(map, &data, &len);
    else if (ends_with(path, ".txt"))
        st = rmg_map_to_text(map, &data, &len);
    else
        return rmg__error_at(map->ctx, RMG_ERR_INVALID_ARG, path, 0, 0,
                             "unknown output format (use .json, .png or .txt)");
    if (st != RMG_OK)
        return st;
    st = write_file(map, path, data, len);
    rmg__free(map->ctx, data);
    return st;
}
