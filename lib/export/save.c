/* rmg_map_save: the export chosen by the file name's extension. */
#include <stdio.h>
#include <string.h>

#include "export_internal.h"
#include "rmg/h3m.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

rmg_status rmg_map_save(const rmg_map *map, const char *path)
{
    if (!map || !path)
        return RMG_ERR_INVALID_ARG;
    if (ends_with(path, ".png"))
        return rmg_map_save_png(map, path);
    if (ends_with(path, ".h3m"))
        return rmg_map_save_h3m(map, path, NULL);
    char *data = NULL;
    size_t len = 0;
    rmg_status st;
    if (ends_with(path, ".json"))
        st = rmg_map_to_json(map, &data, &len);
    else if (ends_with(path, ".txt"))
        st = rmg_map_to_text(map, &data, &len);
    else
        return rmg__error_at(map->ctx, RMG_ERR_INVALID_ARG, path, 0, 0,
                             "unknown output format (use .json, .png, .txt or .h3m)");
    if (st != RMG_OK)
        return st;
    st = rmg__write_file(map->ctx, path, data, len);
    rmg__free(map->ctx, data);
    return st;
}
