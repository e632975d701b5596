/* The finish stage's entry point: roads first (they decide which tiles must stay open), then
 * obstacles on the rest, then rivers on the open land (decorative: they change nothing else). */
#include "finish_internal.h"

rmg_status rmg__stage_finish(rmg__gen *g)
{
    rmg_status st = rmg__finish_roads(g);
    if (st == RMG_OK)
        st = rmg__check_stop(g->ctx, "finish", 0.5);
    if (st == RMG_OK)
        st = rmg__finish_obstacles(g);
    if (st == RMG_OK)
        st = rmg__finish_rivers(g);
    return st;
}
