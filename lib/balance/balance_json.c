/* The balance report as JSON (docs/balance.md): one object, members in a fixed order, no
 * whitespace but a final newline. */
#include "balance_internal.h"

static void int_or_null(rmg__buf *b, int64_t v)
{
    if (v < 0)
        rmg__buf_puts(b, "null");
    else
        rmg__buf_printf(b, "%lld", (long long)v);
}

/* {"1": v1, "2": v2, "3": v3, "7": v7} */
static void by_day(rmg__buf *b, const int64_t v[RMG_BALANCE_DAYS])
{
    rmg__buf_putc(b, '{');
    for (int d = 0; d < RMG_BALANCE_DAYS; d++)
        rmg__buf_printf(b, "%s\"%d\":%lld", d ? "," : "", rmg__balance_days[d], (long long)v[d]);
    rmg__buf_putc(b, '}');
}

static void write_path(rmg__buf *b, const rmg__balance_path *p)
{
    rmg__buf_printf(b, "{\"player\":%d,\"path_tiles\":", p->player);
    int_or_null(b, p->tiles);
    rmg__buf_puts(b, ",\"path_cost\":");
    int_or_null(b, p->cost);
    rmg__buf_puts(b, ",\"guards\":");
    int_or_null(b, p->reachable ? p->guards : -1);
    rmg__buf_puts(b, ",\"strongest_guard\":");
    int_or_null(b, p->strongest);
    rmg__buf_puts(b, ",\"guard_sum\":");
    int_or_null(b, p->guard_sum);
    rmg__buf_putc(b, '}');
}

static void write_values(rmg__buf *b, const rmg__balance_player *p)
{
    int64_t total[RMG_BALANCE_DAYS];
    for (int d = 0; d < RMG_BALANCE_DAYS; d++)
        total[d] = p->by_class[RMG__BAL_TREASURE][d] + p->by_class[RMG__BAL_RESOURCES][d] +
                   p->by_class[RMG__BAL_DWELLING][d];
    rmg__buf_puts(b, ",\"value_by_day\":");
    by_day(b, total);
    rmg__buf_puts(b, ",\"value_by_kind\":{\"treasure\":");
    by_day(b, p->by_class[RMG__BAL_TREASURE]);
    rmg__buf_puts(b, ",\"resources\":");
    by_day(b, p->by_class[RMG__BAL_RESOURCES]);
    rmg__buf_puts(b, ",\"dwellings\":");
    by_day(b, p->by_class[RMG__BAL_DWELLING]);
    rmg__buf_puts(b, "},\"towns_by_day\":");
    by_day(b, p->by_class[RMG__BAL_TOWN]);
    rmg__buf_puts(b, ",\"nearest_mine\":{");
    for (int r = 0; r < RMG_BALANCE_RESOURCES; r++) {
        rmg__buf_printf(b, "%s\"%s\":", r ? "," : "", rmg__balance_resources[r]);
        int_or_null(b, p->nearest_mine[r]);
    }
    rmg__buf_putc(b, '}');
}

static void write_player(rmg__buf *b, const struct rmg_balance *r, const rmg__balance_player *p)
{
    size_t plane = (size_t)r->width * (size_t)r->height;
    rmg__buf_printf(b, "{\"player\":%d,\"town\":[%d,%d,%d],\"zone\":", p->player,
                    (int)(p->source % (size_t)r->width), (int)(p->source % plane / (size_t)r->width),
                    (int)(p->source / plane));
    if (p->zone)
        rmg__buf_printf(b, "%d", p->zone);
    else
        rmg__buf_puts(b, "null");
    rmg__buf_puts(b, ",\"to\":[");
    for (size_t i = 0; i < p->n_to; i++) {
        if (i)
            rmg__buf_putc(b, ',');
        write_path(b, &p->to[i]);
    }
    rmg__buf_puts(b, "],\"weakest_exit_guard\":");
    int_or_null(b, p->weakest_exit_guard);
    write_values(b, p);
    rmg__buf_putc(b, '}');
}

rmg_status rmg_balance_to_json(const rmg_balance *r, char **out, size_t *len)
{
    if (!r || !out)
        return RMG_ERR_INVALID_ARG;
    rmg__buf b;
    rmg__buf_init(&b, r->ctx);
    rmg__buf_printf(&b, "{\"format\":\"rmg-balance\",\"format_version\":1,\"day_points\":%u,\"players\":[",
                    r->day_points);
    for (size_t i = 0; i < r->n_players; i++) {
        if (i)
            rmg__buf_putc(&b, ',');
        write_player(&b, r, &r->players[i]);
    }
    rmg__buf_puts(&b, "],\"spread\":{");
    for (size_t m = 0; m < RMG__BAL_M_COUNT; m++)
        rmg__buf_printf(&b, "%s\"%s\":%.4f", m ? "," : "", rmg__balance_measure_name(m), r->spread[m]);
    rmg__buf_printf(&b, "},\"score\":%.2f}\n", r->score);
    return rmg__buf_finish(&b, out, len);
}
