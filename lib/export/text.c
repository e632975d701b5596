/* ASCII preview: one character per tile, levels one after the other, then a legend. */
#include <string.h>

#include "export_internal.h"

static char object_char(const rmg__map_object *o)
{
    switch (o->kind) {
    case RMG_OBJECT_TOWN:
        return o->main ? 'C' : 'T';
    case RMG_OBJECT_MINE:
        return 'M';
    case RMG_OBJECT_RESOURCE:
        return 'r';
    case RMG_OBJECT_MONSTER:
        return 'g';
    case RMG_OBJECT_MONOLITH:
        return 'O';
    case RMG_OBJECT_GATE:
        return 'G';
    case RMG_OBJECT_BORDER_GUARD:
        return 'B';
    case RMG_OBJECT_KEYMASTER_TENT:
        return 'K';
    case RMG_OBJECT_SEER_HUT:
        return 'S';
    case RMG_OBJECT_SHIPYARD:
        return 'Y';
    case RMG_OBJECT_AIRSHIP_YARD:
        return 'A';
    case RMG_OBJECT_BOAT:
        return 'b';
    case RMG_OBJECT_OBSTACLE:
        return '#';
    case RMG_OBJECT_TREASURE:
        return '$';
    }
    return '?';
}

static char tile_char(const struct rmg_map *m, size_t t)
{
    uint32_t obj = m->tile_object[t];
    if (obj && obj <= m->objects.count) {
        const rmg__map_object *o = &m->objects.items[obj - 1];
        if (o->kind != RMG_OBJECT_OBSTACLE)
            return object_char(o);
    }
    uint16_t f = m->flags[t];
    if (f & RMG__T_WATER)
        return '~';
    if (f & RMG__T_ROCK)
        return ' ';
    if (!rmg__map_tile_passable(m, t))
        return '#';
    if (m->road[t])
        return '=';
    if (f & RMG__T_PASSAGE)
        return '+';
    return '.';
}

static const char legend[] =
    "legend: . free land  = road  + passage  # obstacle/blocked  ~ water  (blank) rock\n"
    "        C main town  T town  M mine  r resource  $ treasure  g guard (monster)\n"
    "        O monolith  G subterranean gate  B border guard  K keymaster's tent  S seer's hut\n"
    "        Y shipyard  A airship yard\n";

rmg_status rmg_map_to_text(const rmg_map *map, char **out, size_t *len)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg__buf b;
    rmg__buf_init(&b, map->ctx);
    rmg__buf_printf(&b, "%s / %s  %dx%dx%d  seed %llu\n", map->pack_name ? map->pack_name : "",
                    map->template_name ? map->template_name : "", map->width, map->height, map->levels,
                    (unsigned long long)map->seed);
    for (int z = 0; z < map->levels; z++) {
        rmg__buf_printf(&b, "\n%s\n", z == 0 ? "surface" : "underground");
        for (int y = 0; y < map->height; y++) {
            for (int x = 0; x < map->width; x++)
                rmg__buf_putc(&b, tile_char(map, rmg__tile(map->width, map->height, x, y, z)));
            rmg__buf_putc(&b, '\n');
        }
    }
    rmg__buf_putc(&b, '\n');
    rmg__buf_puts(&b, legend);
    return rmg__buf_finish(&b, out, len);
}
