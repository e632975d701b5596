/*
 * Reading a map document (docs/map-json.md) back into the map model, for the tools that analyse
 * finished maps (rmg balance MAP.json): the size, seed and names, the tile layers, the zones (owner,
 * kind, level, towns) and every object at its anchor with its footprint and entries, key, kind,
 * zone, value, creature and count, colour, link, owner and main town, hero, artifact and spell.
 * Connections, groups, the setup, spell lists and the monsters' generation details are not read. Where the document's passable layer
 * and the objects' footprints disagree the map carries a warning.
 */
#include <stdio.h>
#include <string.h>

#include "map_internal.h"
#include "template/vcmi/json.h"

typedef struct reader {
    rmg_context *ctx;
    const char *name;
    const struct rmg_content *content;
    struct rmg_map *map;
    uint8_t *blocked;              /* per tile: the document's passable layer says 0 */
    uint8_t terrain_of[RMG_TERRAIN_COUNT]; /* terrain id by the document's terrain_keys index */
    size_t n_terrain_keys;
} reader;

static rmg_status bad(const reader *r, const rmg__json *at, const char *what)
{
    return rmg__error_at(r->ctx, RMG_ERR_INVALID_DATA, r->name, at ? at->line : 0, at ? at->column : 0,
                         "not a map document: %s", what);
}

static const rmg__json *member(const rmg__json *obj, const char *key)
{
    const rmg__json_member *m = rmg__json_find(obj, key);
    return m ? &m->value : NULL;
}

static bool int_of(const rmg__json *v, int64_t lo, int64_t hi, int64_t *out)
{
    if (!v || v->type != RMG__JSON_NUMBER || !v->integral || v->integer < lo || v->integer > hi)
        return false;
    *out = v->integer;
    return true;
}

/* An integer member, `fallback` when absent or null. */
static int64_t int_member(const rmg__json *obj, const char *key, int64_t fallback)
{
    int64_t v;
    return int_of(member(obj, key), INT64_MIN, INT64_MAX, &v) ? v : fallback;
}

static const char *string_member(const rmg__json *obj, const char *key)
{
    const rmg__json *v = member(obj, key);
    return v && v->type == RMG__JSON_STRING ? v->string : NULL;
}

/* ---- tiles ---------------------------------------------------------------------------------- */

/* The document names its terrain numbers (terrain_keys): a tile's number is read through them,
 * so documents written before 0.4.0 (water and rock last) read as well as today's. */
static rmg_status read_terrain_keys(reader *r, const rmg__json *doc)
{
    const rmg__json *keys = member(doc, "terrain_keys");
    if (!keys || keys->type != RMG__JSON_ARRAY || !keys->count || keys->count > RMG_TERRAIN_COUNT)
        return bad(r, keys ? keys : doc, "terrain_keys is missing or not a list of terrain names");
    for (size_t i = 0; i < keys->count; i++) {
        const rmg__json *k = &keys->items[i];
        int id = -1;
        for (int t = 0; k->type == RMG__JSON_STRING && t < RMG_TERRAIN_COUNT && id < 0; t++)
            if (strcmp(k->string, rmg__terrain_key(t)) == 0)
                id = t;
        if (id < 0)
            return bad(r, k, "terrain_keys names an unknown terrain");
        r->terrain_of[i] = (uint8_t)id;
    }
    r->n_terrain_keys = keys->count;
    return RMG_OK;
}

static rmg_status read_layer(const reader *r, const rmg__json *tiles, const char *name, int64_t max,
                             void (*store)(const reader *, size_t, int64_t))
{
    const rmg__json *a = member(tiles, name);
    if (!a || a->type != RMG__JSON_ARRAY || a->count != r->map->n_tiles)
        return bad(r, a ? a : tiles, "a tile layer is missing or has the wrong length");
    for (size_t t = 0; t < a->count; t++) {
        int64_t v;
        if (!int_of(&a->items[t], 0, max, &v))
            return bad(r, &a->items[t], "a tile value is out of range");
        store(r, t, v);
    }
    return RMG_OK;
}

static void store_terrain(const reader *r, size_t t, int64_t v)
{
    struct rmg_map *m = r->map;
    m->terrain[t] = r->terrain_of[v];
    if (m->terrain[t] == RMG_TERRAIN_WATER)
        m->flags[t] |= RMG__T_WATER | RMG__T_BLOCKED;
    else if (m->terrain[t] == RMG_TERRAIN_ROCK)
        m->flags[t] |= RMG__T_ROCK | RMG__T_BLOCKED;
}

static void store_zone(const reader *r, size_t t, int64_t v)
{
    r->map->tile_zone[t] = (uint16_t)v;
}

static void store_road(const reader *r, size_t t, int64_t v)
{
    r->map->road[t] = (uint8_t)v;
}

static void store_river(const reader *r, size_t t, int64_t v)
{
    r->map->river[t] = (uint8_t)v;
}

/* The passable layer is kept aside until the objects are read (then checked against them). */
static void store_passable(const reader *r, size_t t, int64_t v)
{
    r->blocked[t] = !v;
}

static rmg_status read_tiles(reader *r, const rmg__json *doc)
{
    const rmg__json *tiles = member(doc, "tiles");
    if (!tiles || tiles->type != RMG__JSON_OBJECT)
        return bad(r, doc, "no tiles");
    r->blocked = rmg__calloc(r->ctx, r->map->n_tiles, 1);
    if (!r->blocked)
        return rmg__error_nomem(r->ctx);
    rmg_status st = read_terrain_keys(r, doc);
    if (st == RMG_OK)
        st = read_layer(r, tiles, "terrain", (int64_t)r->n_terrain_keys - 1, store_terrain);
    if (st == RMG_OK)
        st = read_layer(r, tiles, "zone", UINT16_MAX, store_zone);
    if (st == RMG_OK)
        st = read_layer(r, tiles, "road", 3, store_road);
    /* Documents written before 0.5.0 have no rivers. */
    if (st == RMG_OK && member(tiles, "river"))
        st = read_layer(r, tiles, "river", 4, store_river);
    if (st == RMG_OK)
        st = read_layer(r, tiles, "passable", 1, store_passable);
    return st;
}

/* ---- zones ---------------------------------------------------------------------------------- */

static rmg_zone_kind zone_kind(const char *name)
{
    static const char *const names[] = {"human_start", "computer_start", "treasure", "junction", "water", "rock"};
    for (size_t i = 0; name && i < RMG__ARRAY_LEN(names); i++)
        if (strcmp(name, names[i]) == 0)
            return (rmg_zone_kind)i;
    return RMG_ZONE_TREASURE;
}

static rmg_status read_zones(const reader *r, const rmg__json *doc)
{
    const rmg__json *zones = member(doc, "zones");
    if (!zones || zones->type != RMG__JSON_ARRAY)
        return bad(r, doc, "no zones");
    struct rmg_map *m = r->map;
    for (size_t i = 0; i < zones->count; i++) {
        const rmg__json *z = &zones->items[i];
        rmg__map_zone zone;
        memset(&zone, 0, sizeof zone);
        zone.id = (int)(i + 1);
        zone.tpl_id = (int)int_member(z, "template_zone", 0);
        zone.tpl_index = zone.tpl_id ? zone.tpl_id - 1 : -1;
        zone.kind = zone_kind(string_member(z, "kind"));
        zone.level = (int)int_member(z, "level", 0);
        zone.owner = (int)int_member(z, "owner", 0);
        zone.n_tiles = (size_t)int_member(z, "tiles", 0);
        zone.faction = RMG_FACTION_NONE;
        if (!RMG__VEC_PUSH(r->ctx, &m->zones, zone))
            return rmg__error_nomem(r->ctx);
        const rmg__json *towns = member(z, "towns");
        for (size_t k = 0; towns && towns->type == RMG__JSON_ARRAY && k < towns->count; k++) {
            int64_t id;
            if (int_of(&towns->items[k], 1, UINT32_MAX, &id) &&
                !RMG__VEC_PUSH(r->ctx, &m->zones.items[i].towns, (uint32_t)id))
                return rmg__error_nomem(r->ctx);
        }
    }
    return RMG_OK;
}

/* ---- objects -------------------------------------------------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The kind of an object: towns and monsters by their members, the rest by key (map-json.md). */
static rmg_map_object_kind object_kind(const rmg__json *o, const char *key)
{
    static const struct {
        const char *key;
        rmg_map_object_kind kind;
    } exact[] = {{"subterranean_gate", RMG_OBJECT_GATE},         {"border_guard", RMG_OBJECT_BORDER_GUARD},
                 {"keymaster_tent", RMG_OBJECT_KEYMASTER_TENT},  {"seer_hut", RMG_OBJECT_SEER_HUT},
                 {"shipyard", RMG_OBJECT_SHIPYARD},              {"airship_yard", RMG_OBJECT_AIRSHIP_YARD}};
    if (member(o, "main"))
        return RMG_OBJECT_TOWN;
    if (member(o, "strength_total"))
        return RMG_OBJECT_MONSTER;
    for (size_t i = 0; i < RMG__ARRAY_LEN(exact); i++)
        if (strcmp(key, exact[i].key) == 0)
            return exact[i].kind;
    if (starts(key, "monolith_"))
        return RMG_OBJECT_MONOLITH;
    if (starts(key, "mine_"))
        return RMG_OBJECT_MINE;
    if (starts(key, "obstacle_"))
        return RMG_OBJECT_OBSTACLE;
    if (starts(key, "resource_") && !member(o, "group"))
        return RMG_OBJECT_RESOURCE;
    return RMG_OBJECT_TREASURE;
}

/* The footprint bits of the tiles of a list, relative to the anchor; false when one lies outside
 * the 8x6 box an object's masks hold. */
static bool tiles_mask(const rmg__json *list, int ax, int ay, uint64_t *mask)
{
    *mask = 0;
    for (size_t i = 0; list && list->type == RMG__JSON_ARRAY && i < list->count; i++) {
        const rmg__json *t = &list->items[i];
        int64_t x, y;
        if (t->type != RMG__JSON_ARRAY || t->count != 3 || !int_of(&t->items[0], 0, RMG__MAX_SIDE, &x) ||
            !int_of(&t->items[1], 0, RMG__MAX_SIDE, &y))
            return false;
        int dx = ax - (int)x, dy = ay - (int)y;
        if (dx < 0 || dx > 7 || dy < 0 || dy > 5)
            return false;
        *mask |= 1ull << ((5 - dy) * 8 + (7 - dx));
    }
    return true;
}

/* The colour index of a colour name: teleports by their colour table (the width tells monoliths
 * from portals of one colour), the keymaster colours otherwise. */
static int color_index(const char *name, rmg_map_object_kind kind, const char *key, int width)
{
    if (!name)
        return -1;
    if (kind == RMG_OBJECT_MONOLITH) {
        size_t n = 0;
        const rmg__teleport_color *colors = rmg__teleport_colors(&n);
        bool two_way = strcmp(key, "monolith_two_way") == 0;
        for (size_t i = 0; i < n; i++)
            if ((colors[i].h3_class == 45) == two_way && strcmp(colors[i].color, name) == 0 &&
                colors[i].width == width)
                return colors[i].subclass;
        for (size_t i = 0; i < n; i++)
            if ((colors[i].h3_class == 45) == two_way && strcmp(colors[i].color, name) == 0)
                return colors[i].subclass;
        return -1;
    }
    static const char *const keymaster[] = {"light_blue", "green", "red", "dark_blue", "brown", "purple", "white",
                                            "black"};
    for (int i = 0; i < (int)RMG__ARRAY_LEN(keymaster); i++)
        if (strcmp(keymaster[i], name) == 0)
            return i;
    return -1;
}

static int mask_width(uint64_t mask)
{
    int lo = 8, hi = -1;
    for (int bit = 0; bit < 48; bit++)
        if (mask >> bit & 1u) {
            lo = bit % 8 < lo ? bit % 8 : lo;
            hi = bit % 8 > hi ? bit % 8 : hi;
        }
    return hi < lo ? 0 : hi - lo + 1;
}

/* Entry tiles block where the document's passable layer says so. */
static uint64_t blocked_entries(const reader *r, int ax, int ay, int z, uint64_t visit)
{
    const struct rmg_map *m = r->map;
    uint64_t out = 0;
    for (int bit = 0; bit < 48; bit++) {
        if (!(visit >> bit & 1u))
            continue;
        int x = ax - (7 - bit % 8), y = ay - (5 - bit / 8);
        if (x >= 0 && y >= 0 && x < m->width && y < m->height &&
            r->blocked[rmg__tile(m->width, m->height, x, y, z)])
            out |= 1ull << bit;
    }
    return out;
}

static void read_details(const reader *r, const rmg__json *j, rmg__map_object *o)
{
    const struct rmg_content *c = r->content;
    o->zone = (int)int_member(j, "zone", 0);
    o->value = int_member(j, "value", 0);
    o->count = (int)int_member(j, "count", 0);
    o->amount = int_member(j, "amount", 0);
    o->link = (uint32_t)int_member(j, "link", 0);
    o->owner = (int)int_member(j, "owner", 0);
    const rmg__json *main = member(j, "main");
    o->main = main && main->type == RMG__JSON_BOOL && main->boolean;
    const rmg__json *strength = member(j, "strength_total");
    o->strength_total = strength && strength->type == RMG__JSON_NUMBER ? strength->number : 0;
    o->guarded_value = int_member(j, "guarded_value", 0);
    const char *creature = string_member(j, "creature");
    o->creature = creature && c ? (int)rmg__content_find_creature(c, creature) : -1;
    const char *hero = string_member(j, "hero"), *artifact = string_member(j, "artifact");
    const char *spell = string_member(j, "spell");
    o->hero = hero && c ? (int)rmg__content_find_hero(c, hero) : -1;
    o->artifact = artifact && c ? (int)rmg__content_find_artifact(c, artifact) : -1;
    o->spell = spell && c ? (int)rmg__content_find_spell(c, spell) : -1;
    const char *faction = string_member(j, "faction");
    long f = faction && c ? rmg__content_find_faction(c, faction) : -1;
    o->faction = f >= 0 ? c->factions[f].id : RMG_FACTION_NONE;
    o->color = color_index(string_member(j, "color"), o->kind, o->key, mask_width(o->block | o->visit));
}

static rmg_status read_object(const reader *r, const rmg__json *j)
{
    struct rmg_map *m = r->map;
    const char *key = string_member(j, "key");
    int64_t x, y, z;
    /* An anchor may lie right of or below the map: only its footprint must be on it. */
    if (!key || !int_of(member(j, "x"), 0, m->width + 6, &x) || !int_of(member(j, "y"), 0, m->height + 4, &y) ||
        !int_of(member(j, "z"), 0, m->levels - 1, &z))
        return bad(r, j, "an object has no key or lies off the map");
    uint64_t block, visit;
    if (!tiles_mask(member(j, "footprint"), (int)x, (int)y, &block) ||
        !tiles_mask(member(j, "entries"), (int)x, (int)y, &visit))
        return bad(r, j, "an object's tiles are not within 8x6 tiles of its anchor");
    rmg__map_object *o = rmg__map_add_object(m, key, object_kind(j, key), (int)x, (int)y, (int)z);
    if (!o)
        return rmg__error_nomem(r->ctx);
    o->block = block | blocked_entries(r, (int)x, (int)y, (int)z, visit);
    o->visit = visit;
    read_details(r, j, o);
    rmg__map_stamp_object(m, o);
    return RMG_OK;
}

static rmg_status read_objects(const reader *r, const rmg__json *doc)
{
    const rmg__json *objects = member(doc, "objects");
    if (!objects || objects->type != RMG__JSON_ARRAY)
        return bad(r, doc, "no objects");
    /* Object ids are positions: every other member refers to objects by them. */
    for (size_t i = 0; i < objects->count; i++) {
        if (int_member(&objects->items[i], "id", 0) != (int64_t)i + 1)
            return bad(r, &objects->items[i], "object ids are not 1, 2, 3, ...");
        rmg_status st = read_object(r, &objects->items[i]);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* Main towns of the zones, and how many tiles the objects block otherwise than the document says. */
static rmg_status finish_map(const reader *r)
{
    struct rmg_map *m = r->map;
    for (size_t i = 0; i < m->zones.count; i++) {
        rmg__map_zone *z = &m->zones.items[i];
        for (size_t k = 0; k < z->towns.count; k++) {
            uint32_t id = z->towns.items[k];
            if (id <= m->objects.count && m->objects.items[id - 1].main)
                z->main_town = id;
        }
    }
    size_t differ = 0;
    for (size_t t = 0; t < m->n_tiles; t++)
        differ += !r->blocked[t] != rmg__map_tile_passable(m, t);
    return differ ? rmg__map_warn(m, "%s: the objects block %zu tile(s) otherwise than the passable layer says",
                                  r->name, differ)
                  : RMG_OK;
}

static rmg_status read_header(reader *r, const rmg__json *doc)
{
    const char *format = string_member(doc, "format");
    int64_t w, h, levels;
    if (!format || strcmp(format, "rmg-map") != 0)
        return bad(r, doc, "its format is not \"rmg-map\"");
    if (!int_of(member(doc, "width"), 1, RMG__MAX_SIDE, &w) || !int_of(member(doc, "height"), 1, RMG__MAX_SIDE, &h) ||
        !int_of(member(doc, "levels"), 1, 2, &levels))
        return bad(r, doc, "no width, height or levels");
    rmg_status st = rmg__map_new(r->ctx, (int)w, (int)h, (int)levels, &r->map);
    if (st != RMG_OK)
        return st;
    struct rmg_map *m = r->map;
    const char *seed = string_member(doc, "seed");
    unsigned long long s = 0;
    if (seed && sscanf(seed, "%llu", &s) == 1)
        m->seed = s;
    const rmg__json *tpl = member(doc, "template");
    const char *pack = tpl ? string_member(tpl, "pack") : NULL, *name = tpl ? string_member(tpl, "name") : NULL;
    const char *description = string_member(doc, "description");
    m->pack_name = rmg__arena_strdup(&m->arena, pack ? pack : "");
    m->template_name = rmg__arena_strdup(&m->arena, name ? name : "");
    m->description = rmg__arena_strdup(&m->arena, description ? description : "");
    m->options.width = m->width;
    m->options.height = m->height;
    m->options.levels = m->levels;
    const rmg__json *options = member(doc, "options");
    m->options.players = (int)int_member(options, "players", 0);
    m->options.humans = (int)int_member(options, "humans", 0);
    return m->pack_name && m->template_name && m->description ? RMG_OK : rmg__error_nomem(r->ctx);
}

rmg_status rmg__map_from_json(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_map **out)
{
    *out = NULL;
    rmg__arena arena;
    rmg__arena_init(&arena, ctx, 1 << 20);
    /* Map documents are large (a 252x252x2 map: about 8 MB, a few million values). */
    rmg__json_limits limits = {(size_t)512 << 20, 16, (size_t)64 << 20};
    const rmg__json *doc = NULL;
    reader r = {.ctx = ctx, .name = name ? name : "map.json", .content = rmg__content_get(ctx)};
    rmg_status st = rmg__json_parse(ctx, &arena, data, len, r.name, &limits, &doc);
    if (st == RMG_OK && doc->type != RMG__JSON_OBJECT)
        st = bad(&r, doc, "not an object");
    if (st == RMG_OK)
        st = read_header(&r, doc);
    if (st == RMG_OK)
        st = read_tiles(&r, doc);
    if (st == RMG_OK)
        st = read_zones(&r, doc);
    if (st == RMG_OK)
        st = read_objects(&r, doc);
    if (st == RMG_OK)
        st = finish_map(&r);
    rmg__arena_free(&arena);
    rmg__free(ctx, r.blocked);
    if (st != RMG_OK) {
        rmg__map_free(r.map);
        return st;
    }
    *out = r.map;
    return RMG_OK;
}

rmg_status rmg__map_load_json(rmg_context *ctx, const char *path, struct rmg_map **out)
{
    char *data = NULL;
    size_t len = 0;
    *out = NULL;
    rmg_status st = rmg__read_file(ctx, path, (size_t)512 << 20, &data, &len);
    if (st == RMG_OK)
        st = rmg__map_from_json(ctx, data, len, path, out);
    rmg__free(ctx, data);
    return st;
}
