/* The public face of the balance report (rmg/balance.h). */
#include <string.h>

#include "balance_internal.h"

void rmg_balance_options_init(rmg_balance_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->day_points = RMG_BALANCE_DAY_POINTS;
}

static rmg_status read_options(rmg_context *ctx, const rmg_balance_options *in, uint32_t *day_points)
{
    rmg_balance_options o;
    rmg_balance_options_init(&o);
    if (in) {
        rmg_status st = rmg__struct_in(&o, sizeof o, in, offsetof(rmg_balance_options, day_points) + sizeof(int));
        if (st != RMG_OK)
            return rmg__error_set(ctx, st, "rmg_balance_options: struct_size %zu is not one this library knows",
                                  in->struct_size);
    }
    if (!o.day_points)
        o.day_points = RMG_BALANCE_DAY_POINTS;
    if (o.day_points < 100 || o.day_points > 5000)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "day_points %d is out of range (100..5000)", o.day_points);
    *day_points = (uint32_t)o.day_points;
    return RMG_OK;
}

rmg_status rmg_map_balance(const rmg_map *map, const rmg_balance_options *options, rmg_balance **out)
{
    if (!map || !out)
        return map ? rmg__error_set(map->ctx, RMG_ERR_INVALID_ARG, "rmg_map_balance: NULL argument")
                   : RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg_context *ctx = map->ctx;
    uint32_t day_points = RMG_BALANCE_DAY_POINTS;
    rmg_status st = read_options(ctx, options, &day_points);
    if (st != RMG_OK)
        return st;
    rmg_balance *b = rmg__calloc(ctx, 1, sizeof *b);
    if (!b)
        return rmg__error_nomem(ctx);
    b->ctx = rmg__context_retain(ctx); /* given back by rmg_balance_destroy */
    b->width = map->width;
    b->height = map->height;
    b->levels = map->levels;
    b->n_tiles = map->n_tiles;
    b->day_points = day_points;
    rmg__balance_graph g;
    rmg__balance_search s;
    memset(&s, 0, sizeof s);
    st = rmg__balance_graph_build(&g, map, ctx);
    if (st == RMG_OK)
        st = rmg__balance_search_init(&s, &g, ctx, day_points);
    if (st == RMG_OK)
        st = rmg__balance_measure(b, &g, &s);
    rmg__balance_search_free(&s);
    rmg__balance_graph_free(&g, ctx);
    if (st != RMG_OK) {
        rmg_balance_destroy(b);
        return st;
    }
    rmg__balance_summarize(b);
    *out = b;
    return RMG_OK;
}

void rmg_balance_destroy(rmg_balance *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n_players; i++) {
        rmg__balance_player *p = &b->players[i];
        for (size_t j = 0; j < p->n_to; j++)
            rmg__free(b->ctx, p->to[j].path);
        rmg__free(b->ctx, p->reach_days);
    }
    rmg_context *ctx = b->ctx;
    rmg__free(ctx, b);
    rmg__context_release(ctx);
}

size_t rmg_balance_player_count(const rmg_balance *b)
{
    return b ? b->n_players : 0;
}

static void tile_xyz(const rmg_balance *b, uint32_t t, int *x, int *y, int *z)
{
    size_t plane = (size_t)b->width * (size_t)b->height;
    *z = (int)(t / plane);
    *y = (int)(t % plane / (size_t)b->width);
    *x = (int)(t % (size_t)b->width);
}

rmg_status rmg_balance_player_get(const rmg_balance *b, size_t index, rmg_balance_player_info *out)
{
    if (!b || !out || index >= b->n_players)
        return RMG_ERR_INVALID_ARG;
    const rmg__balance_player *p = &b->players[index];
    rmg_balance_player_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.player = p->player;
    info.town = p->town;
    tile_xyz(b, p->source, &info.town_x, &info.town_y, &info.town_z);
    info.zone = p->zone;
    info.weakest_exit_guard = p->weakest_exit_guard;
    for (int d = 0; d < RMG_BALANCE_DAYS; d++) {
        info.treasure_by_day[d] = p->by_class[RMG__BAL_TREASURE][d];
        info.resources_by_day[d] = p->by_class[RMG__BAL_RESOURCES][d];
        info.dwellings_by_day[d] = p->by_class[RMG__BAL_DWELLING][d];
        info.towns_by_day[d] = (int)p->by_class[RMG__BAL_TOWN][d];
        info.value_by_day[d] = info.treasure_by_day[d] + info.resources_by_day[d] + info.dwellings_by_day[d];
    }
    memcpy(info.nearest_mine, p->nearest_mine, sizeof info.nearest_mine);
    info.path_count = p->n_to;
    return rmg__struct_out(out, &info, sizeof info, offsetof(rmg_balance_player_info, weakest_exit_guard));
}

static const rmg__balance_path *path_at(const rmg_balance *b, size_t index, size_t path_index)
{
    if (!b || index >= b->n_players || path_index >= b->players[index].n_to)
        return NULL;
    return &b->players[index].to[path_index];
}

rmg_status rmg_balance_path_get(const rmg_balance *b, size_t index, size_t path_index, rmg_balance_path_info *out)
{
    const rmg__balance_path *p = path_at(b, index, path_index);
    if (!p || !out)
        return RMG_ERR_INVALID_ARG;
    rmg_balance_path_info info = {sizeof info, p->player, p->reachable, p->tiles, p->cost, p->guards,
                                  p->strongest, p->guard_sum, p->path_len};
    return rmg__struct_out(out, &info, sizeof info, offsetof(rmg_balance_path_info, tiles));
}

size_t rmg_balance_path_tiles(const rmg_balance *b, size_t index, size_t path_index, uint32_t *buf, size_t cap)
{
    const rmg__balance_path *p = path_at(b, index, path_index);
    if (!p)
        return 0;
    if (buf)
        memcpy(buf, p->path, (cap < p->path_len ? cap : p->path_len) * sizeof *buf);
    return p->path_len;
}

rmg_status rmg_balance_reach_days(const rmg_balance *b, size_t index, uint8_t *buf, size_t size)
{
    if (!b || !buf || index >= b->n_players)
        return RMG_ERR_INVALID_ARG;
    if (size < b->n_tiles)
        return RMG_ERR_BUFFER_TOO_SMALL;
    memcpy(buf, b->players[index].reach_days, b->n_tiles);
    return RMG_OK;
}

const char *rmg_balance_measure(const rmg_balance *b, size_t index, double *spread)
{
    const char *name = b ? rmg__balance_measure_name(index) : NULL;
    if (name && spread)
        *spread = b->spread[index];
    return name;
}

int rmg_balance_value(const rmg_balance *b, size_t index, size_t measure, double *value)
{
    double v;
    if (!b || index >= b->n_players || !rmg__balance_measure_name(measure) ||
        !rmg__balance_player_measure(&b->players[index], measure, &v))
        return 0;
    if (value)
        *value = v;
    return 1;
}

double rmg_balance_score(const rmg_balance *b)
{
    return b ? b->score : 0.0;
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_balance_player_info_init(rmg_balance_player_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    for (int i = 0; i < RMG_BALANCE_RESOURCES; i++)
        info->nearest_mine[i] = -1;
}
void rmg_balance_path_info_init(rmg_balance_path_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->tiles = info->cost = -1;
    info->strongest_guard = info->guard_sum = -1;
}

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_balance_player(const rmg_balance *b, size_t index, rmg_balance_player_info *out)
{
    return rmg_balance_player_get(b, index, out);
}

rmg_status rmg_balance_path(const rmg_balance *b, size_t index, size_t path_index, rmg_balance_path_info *out)
{
    return rmg_balance_path_get(b, index, path_index, out);
}
