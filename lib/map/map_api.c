/* The public read API of a generated map. */
#include <string.h>

#include "map_internal.h"

void rmg_map_destroy(rmg_map *map)
{
    rmg__map_free(map);
}

int rmg_map_width(const rmg_map *map)
{
    return map ? map->width : 0;
}

int rmg_map_height(const rmg_map *map)
{
    return map ? map->height : 0;
}

int rmg_map_levels(const rmg_map *map)
{
    return map ? map->levels : 0;
}

uint64_t rmg_map_seed(const rmg_map *map)
{
    return map ? map->seed : 0;
}

uint64_t rmg_map_fingerprint(const rmg_map *map)
{
    return map ? rmg__map_fingerprint_of(map) : 0;
}

const char *rmg_map_pack_name(const rmg_map *map)
{
    return map && map->pack_name ? map->pack_name : "";
}

const char *rmg_map_template_name(const rmg_map *map)
{
    return map && map->template_name ? map->template_name : "";
}

const char *rmg_map_description(const rmg_map *map)
{
    return map && map->description ? map->description : "";
}

rmg_status rmg_map_options_get(const rmg_map *map, rmg_generate_options *out)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    return rmg__struct_out(out, &map->options, sizeof map->options, 2 * sizeof(size_t));
}

size_t rmg_map_warning_count(const rmg_map *map)
{
    return map ? map->warnings.count : 0;
}

const char *rmg_map_warning(const rmg_map *map, size_t index)
{
    return map && index < map->warnings.count ? map->warnings.items[index] : NULL;
}

int rmg_map_attempts(const rmg_map *map)
{
    return map ? map->attempts : 0;
}

double rmg_map_stage_ms(const rmg_map *map, rmg_stage_id stage)
{
    return map && (unsigned)stage < RMG_STAGE_COUNT ? map->stage_ms[stage] : 0.0;
}

/* ---- tiles ------------------------------------------------------------------------------ */

bool rmg__map_tile_walkable(const struct rmg_map *m, size_t t)
{
    uint16_t f = m->flags[t];
    if (f & (RMG__T_WATER | RMG__T_ROCK))
        return false;
    if (f & RMG__T_ENTRY)
        return true;
    return !(f & RMG__T_BLOCKED);
}

static bool mask_covers(const struct rmg_map *m, const rmg__map_object *o, uint64_t mask, size_t t)
{
    size_t plane = (size_t)m->width * (size_t)m->height;
    int x = (int)(t % plane % (size_t)m->width), y = (int)(t % plane / (size_t)m->width);
    int dx = o->x - x, dy = o->y - y;
    return dx >= 0 && dx < 8 && dy >= 0 && dy < 6 && (mask >> ((5 - dy) * 8 + (7 - dx)) & 1u);
}

bool rmg__map_object_blocks(const struct rmg_map *m, const rmg__map_object *o, size_t t)
{
    return mask_covers(m, o, o->block, t);
}

bool rmg__map_object_visits(const struct rmg_map *m, const rmg__map_object *o, size_t t)
{
    return mask_covers(m, o, o->visit, t);
}

bool rmg__map_tile_passable(const struct rmg_map *m, size_t t)
{
    if (m->flags[t] & (RMG__T_WATER | RMG__T_ROCK))
        return false;
    uint32_t id = m->tile_object[t];
    return !id || id > m->objects.count || !rmg__map_object_blocks(m, &m->objects.items[id - 1], t);
}

static size_t layer_elem(rmg_map_layer layer)
{
    switch (layer) {
    case RMG_LAYER_TERRAIN:
    case RMG_LAYER_PASSABLE:
    case RMG_LAYER_ROAD:
    case RMG_LAYER_RIVER:
        return 1;
    case RMG_LAYER_ZONE:
        return 2;
    case RMG_LAYER_OBJECT:
        return 4;
    }
    return 0;
}

size_t rmg_map_layer_size(const rmg_map *map, rmg_map_layer layer)
{
    return map ? map->n_tiles * layer_elem(layer) : 0;
}

rmg_status rmg_map_copy_layer(const rmg_map *map, rmg_map_layer layer, void *buf, size_t size)
{
    if (!map || !buf || !layer_elem(layer))
        return RMG_ERR_INVALID_ARG;
    size_t need = rmg_map_layer_size(map, layer);
    if (size < need)
        return RMG_ERR_BUFFER_TOO_SMALL;
    switch (layer) {
    case RMG_LAYER_TERRAIN:
        memcpy(buf, map->terrain, need);
        break;
    case RMG_LAYER_ZONE:
        memcpy(buf, map->tile_zone, need);
        break;
    case RMG_LAYER_ROAD:
        memcpy(buf, map->road, need);
        break;
    case RMG_LAYER_OBJECT:
        memcpy(buf, map->tile_object, need);
        break;
    case RMG_LAYER_RIVER:
        memcpy(buf, map->river, need);
        break;
    case RMG_LAYER_PASSABLE: {
        uint8_t *out = buf;
        for (size_t t = 0; t < map->n_tiles; t++)
            out[t] = rmg__map_tile_passable(map, t) ? 1 : 0;
        break;
    }
    }
    return RMG_OK;
}

static long tile_of(const rmg_map *map, int x, int y, int z)
{
    if (!map || x < 0 || y < 0 || z < 0 || x >= map->width || y >= map->height || z >= map->levels)
        return -1;
    return (long)rmg__tile(map->width, map->height, x, y, z);
}

int rmg_map_terrain(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : map->terrain[t];
}

int rmg_map_tile_zone(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : map->tile_zone[t];
}

int rmg_map_passable(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : rmg__map_tile_passable(map, (size_t)t);
}

int rmg_map_road(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : map->road[t];
}

int rmg_map_river(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : map->river[t];
}

long rmg_map_tile_object(const rmg_map *map, int x, int y, int z)
{
    long t = tile_of(map, x, y, z);
    return t < 0 ? -1 : (long)map->tile_object[t];
}

/* ---- zones ------------------------------------------------------------------------------ */

size_t rmg_map_zone_count(const rmg_map *map)
{
    return map ? map->zones.count : 0;
}

rmg_status rmg_map_zone_get(const rmg_map *map, size_t index, rmg_map_zone_info *out)
{
    if (!map || !out || index >= map->zones.count)
        return RMG_ERR_INVALID_ARG;
    const rmg__map_zone *z = &map->zones.items[index];
    rmg_map_zone_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.id = z->id;
    info.template_zone = z->tpl_id;
    info.kind = z->kind;
    info.level = z->level;
    info.owner = z->owner;
    info.terrain = z->terrain;
    info.chosen_terrain = z->chosen_terrain;
    info.faction = z->faction;
    info.monster_strength = z->monster_strength;
    info.size_weight = z->size_weight;
    info.tiles = z->n_tiles;
    info.center_x = z->cx;
    info.center_y = z->cy;
    info.town_count = z->towns.count;
    info.main_town = z->main_town;
    const rmg__zone_stats *st = map->zone_stats ? &map->zone_stats[index] : NULL;
    if (st)
        for (int r = 0; r < 3; r++) {
            info.treasure_requested[r] = st->groups_requested[r];
            info.treasure_placed[r] = st->groups_placed[r];
            info.treasure_exhausted[r] = st->range_exhausted[r];
        }
    return rmg__struct_out(out, &info, sizeof info, 2 * sizeof(size_t));
}

uint32_t rmg_map_zone_town(const rmg_map *map, size_t index, size_t i)
{
    if (!map || index >= map->zones.count || i >= map->zones.items[index].towns.count)
        return 0;
    return map->zones.items[index].towns.items[i];
}

/* ---- connections ---------------------------------------------------------------------- */

size_t rmg_map_connection_count(const rmg_map *map)
{
    return map ? map->conns.count : 0;
}

rmg_status rmg_map_connection_get(const rmg_map *map, size_t index, rmg_map_connection_info *out)
{
    if (!map || !out || index >= map->conns.count)
        return RMG_ERR_INVALID_ARG;
    const rmg__map_connection *c = &map->conns.items[index];
    rmg_map_connection_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.id = c->id;
    info.template_index = c->tpl_index;
    info.zone_a = c->zone_a;
    info.zone_b = c->zone_b;
    info.kind = c->kind;
    info.realized = c->realized;
    info.value = c->value;
    info.road = c->road;
    info.tile_count = c->tiles.count;
    info.guard_count = c->guards.count;
    info.why = c->why;
    return rmg__struct_out(out, &info, sizeof info, 2 * sizeof(size_t));
}

static size_t copy_ids(const uint32_t *items, size_t count, uint32_t *buf, size_t cap)
{
    if (buf)
        memcpy(buf, items, (count < cap ? count : cap) * sizeof *buf);
    return count;
}

size_t rmg_map_connection_tiles(const rmg_map *map, size_t index, uint32_t *buf, size_t cap)
{
    if (!map || index >= map->conns.count)
        return 0;
    const rmg__map_connection *c = &map->conns.items[index];
    return copy_ids(c->tiles.items, c->tiles.count, buf, cap);
}

size_t rmg_map_connection_guards(const rmg_map *map, size_t index, uint32_t *buf, size_t cap)
{
    if (!map || index >= map->conns.count)
        return 0;
    const rmg__map_connection *c = &map->conns.items[index];
    return copy_ids(c->guards.items, c->guards.count, buf, cap);
}

/* ---- objects ----------------------------------------------------------------------------- */


size_t rmg_map_object_count(const rmg_map *map)
{
    return map ? map->objects.count : 0;
}

rmg_status rmg_map_object_get(const rmg_map *map, size_t index, rmg_map_object_info *out)
{
    if (!map || !out || index >= map->objects.count)
        return RMG_ERR_INVALID_ARG;
    const rmg__map_object *o = &map->objects.items[index];
    const struct rmg_content *content = rmg__content_peek(map->ctx);
    rmg_map_object_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.id = o->id;
    info.key = o->key;
    info.kind = o->kind;
    info.x = o->x;
    info.y = o->y;
    info.z = o->z;
    info.zone = o->zone;
    info.value = o->value;
    info.group = o->group;
    info.guard = o->guard;
    info.color = o->color;
    info.color_name = rmg__color_name(o);
    info.faction = o->faction;
    info.owner = o->owner;
    info.main = o->main;
    info.castle = o->castle;
    if (o->creature >= 0 && content && (size_t)o->creature < content->n_creatures)
        info.creature = content->creatures[o->creature].key;
    info.count = o->count;
    info.amount = o->amount;
    info.strength_total = o->strength_total;
    info.guarded_value = o->guarded_value;
    info.strength_index = o->strength_index;
    info.guards_kind = o->guards_kind;
    info.guards_id = o->guards_id;
    info.disposition = o->disposition;
    info.join_percent = o->join_percent;
    info.join_for_money = o->join_for_money;
    info.artifact = rmg__object_artifact_key(map, o);
    info.spell = rmg__object_spell_key(map, o);
    info.hero = rmg__object_hero_key(map, o);
    info.reward = rmg__object_reward_name(map, o);
    info.spell_count = o->n_spells;
    info.link = o->link;
    return rmg__struct_out(out, &info, sizeof info, 2 * sizeof(size_t));
}

typedef struct tile_collect {
    const struct rmg_map *m;
    int z;
    uint32_t *buf;
    size_t cap, n;
} tile_collect;

static void collect_tile(void *user, int x, int y)
{
    tile_collect *c = user;
    if (x < 0 || y < 0 || x >= c->m->width || y >= c->m->height)
        return;
    if (c->buf && c->n < c->cap)
        c->buf[c->n] = (uint32_t)rmg__tile(c->m->width, c->m->height, x, y, c->z);
    c->n++;
}

size_t rmg__object_tiles(const struct rmg_map *m, const rmg__map_object *o, uint64_t mask, uint32_t *buf, size_t cap)
{
    tile_collect c = {m, o->z, buf, cap, 0};
    rmg__footprint_tiles(mask, o->x, o->y, collect_tile, &c);
    return c.n;
}

size_t rmg_map_object_footprint(const rmg_map *map, size_t index, uint32_t *buf, size_t cap)
{
    if (!map || index >= map->objects.count)
        return 0;
    const rmg__map_object *o = &map->objects.items[index];
    return rmg__object_tiles(map, o, o->block & ~o->visit, buf, cap);
}

size_t rmg_map_object_entries(const rmg_map *map, size_t index, uint32_t *buf, size_t cap)
{
    if (!map || index >= map->objects.count)
        return 0;
    const rmg__map_object *o = &map->objects.items[index];
    return rmg__object_tiles(map, o, o->visit, buf, cap);
}

size_t rmg_map_object_spells(const rmg_map *map, size_t index, const char **buf, size_t cap)
{
    if (!map || index >= map->objects.count)
        return 0;
    const rmg__map_object *o = &map->objects.items[index];
    for (size_t k = 0; k < o->n_spells && k < cap && buf; k++)
        buf[k] = rmg__spell_key(map, o->spells[k]);
    return o->n_spells;
}

/* ---- concrete content (lib/objects/details.c) -------------------------------------------- */

const char *rmg__spell_key(const struct rmg_map *m, long spell)
{
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    return c && spell >= 0 && (size_t)spell < c->n_spells ? c->spells[spell].key : NULL;
}

const char *rmg__object_spell_key(const struct rmg_map *m, const rmg__map_object *o)
{
    return rmg__spell_key(m, o->spell);
}

const char *rmg__object_artifact_key(const struct rmg_map *m, const rmg__map_object *o)
{
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    return c && o->artifact >= 0 && (size_t)o->artifact < c->n_artifacts ? c->artifacts[o->artifact].key : NULL;
}

const char *rmg__object_hero_key(const struct rmg_map *m, const rmg__map_object *o)
{
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    return c && o->hero >= 0 && (size_t)o->hero < c->n_heroes ? c->heroes[o->hero].key : NULL;
}

/* MIS-14: the reward kind of a Seer's Hut is the family of the quest artifact it links to. */
const char *rmg__object_reward_name(const struct rmg_map *m, const rmg__map_object *o)
{
    static const struct { const char *family, *name; } rewards[] = {
        {"seer_artifact_creatures", "creatures"}, {"seer_artifact_experience", "experience"},
        {"seer_artifact_gold", "gold"}};
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    if (o->kind != RMG_OBJECT_SEER_HUT || !c || !o->link || o->link > m->objects.count)
        return NULL;
    const char *key = m->objects.items[o->link - 1].key;
    long row = key ? rmg__content_find_object(c, key) : -1;
    for (size_t k = 0; row >= 0 && k < RMG__ARRAY_LEN(rewards); k++)
        if (strcmp(c->objects[row].family, rewards[k].family) == 0)
            return rewards[k].name;
    return NULL;
}

/* ---- groups ----------------------------------------------------------------------------- */

size_t rmg_map_group_count(const rmg_map *map)
{
    return map ? map->groups.count : 0;
}

rmg_status rmg_map_group_get(const rmg_map *map, size_t index, rmg_map_group_info *out)
{
    if (!map || !out || index >= map->groups.count)
        return RMG_ERR_INVALID_ARG;
    const rmg__map_group *g = &map->groups.items[index];
    rmg_map_group_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.id = g->id;
    info.zone = g->zone;
    info.range = g->range;
    info.target = g->target;
    info.value = g->value;
    info.object_count = g->objects.count;
    info.guard = g->guard;
    return rmg__struct_out(out, &info, sizeof info, 2 * sizeof(size_t));
}

size_t rmg_map_group_objects(const rmg_map *map, size_t index, uint32_t *buf, size_t cap)
{
    if (!map || index >= map->groups.count)
        return 0;
    const rmg__map_group *g = &map->groups.items[index];
    return copy_ids(g->objects.items, g->objects.count, buf, cap);
}

/* Where the game puts a shipyard's boat, relative to the shipyard's entry, in the order it tries
 * them: the two columns beside the object first, then the row below, then the row above. */
static const int8_t BOAT_DX[12] = {-2, 2, -2, 2, -1, 1, 0, -2, 2, -1, 1, 0};
static const int8_t BOAT_DY[12] = {0, 0, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

bool rmg__map_free_water(const struct rmg_map *m, size_t t)
{
    if (!(m->flags[t] & RMG__T_WATER))
        return false;
    uint32_t id = m->tile_object[t];
    return !id || id > m->objects.count || !rmg__map_object_blocks(m, &m->objects.items[id - 1], t);
}

uint32_t rmg__map_boat_spot(const struct rmg_map *m, uint32_t entry)
{
    size_t plane = (size_t)m->width * (size_t)m->height;
    int x = (int)(entry % plane % (size_t)m->width), y = (int)(entry % plane / (size_t)m->width);
    int z = (int)(entry / plane);
    for (int k = 0; k < 12; k++) {
        int nx = x + BOAT_DX[k], ny = y + BOAT_DY[k];
        if (nx < 0 || ny < 0 || nx >= m->width || ny >= m->height)
            continue;
        size_t t = rmg__tile(m->width, m->height, nx, ny, z);
        if (rmg__map_free_water(m, t))
            return (uint32_t)t;
    }
    return UINT32_MAX;
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
RMG__ZERO_INIT(rmg_map_zone_info)
RMG__ZERO_INIT(rmg_map_connection_info)

void rmg_map_object_info_init(rmg_map_object_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->color = -1;
}

RMG__ZERO_INIT(rmg_map_group_info)
RMG__ZERO_INIT(rmg_map_setup_info)

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_map_zone(const rmg_map *map, size_t index, rmg_map_zone_info *out)
{
    return rmg_map_zone_get(map, index, out);
}

rmg_status rmg_map_connection(const rmg_map *map, size_t index, rmg_map_connection_info *out)
{
    return rmg_map_connection_get(map, index, out);
}

rmg_status rmg_map_object(const rmg_map *map, size_t index, rmg_map_object_info *out)
{
    return rmg_map_object_get(map, index, out);
}

rmg_status rmg_map_group(const rmg_map *map, size_t index, rmg_map_group_info *out)
{
    return rmg_map_group_get(map, index, out);
}

rmg_status rmg_map_options(const rmg_map *map, rmg_generate_options *out)
{
    return rmg_map_options_get(map, out);
}
