/* The small generated maps the seed makers (h3m_seeds.c, mapjson_seeds.c) start from: the
 * built-in pack at 36x36 with the water and levels asked for, so every harness's seeds have
 * seas and an underground. */
#ifndef RMG_FUZZ_SEED_MAPS_H
#define RMG_FUZZ_SEED_MAPS_H

#include "rmg/rmg.h"

static inline rmg_status rmg_fuzz_seed_map(rmg_context *ctx, int seed, int levels, rmg_water_level water,
                                           rmg_map **map)
{
    rmg_context_set_seed(ctx, (uint64_t)seed);
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = 36;
    o.levels = levels;
    o.water = water;
    return rmg_generate(ctx, NULL, &o, map);
}

#endif
