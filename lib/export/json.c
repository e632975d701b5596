/* The map's JSON document (docs/map-json.md): one canonical serialization, also hashed for the
 * fingerprint. Members are written in a fixed order; numbers are integers except
 * size_weight and strength_total, printed with %.15g (exact for the values they take). */
#include <inttypes.h>
#include <string.h>

#include "export_internal.h"

/* terrain_keys order of the JSON contract, and the map from terrain ids to it. */
static const char *const terrain_keys[] = {"dirt",         "sand", "grass",     "snow",      "swamp", "rough",
                                           "subterranean", "lava", "highlands", "wasteland", "water", "rock"};
static const int terrain_json_index[RMG_TERRAIN_COUNT] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 8, 9};

const char *rmg__terrain_key(int terrain_id)
{
    if (terrain_id < 0 || terrain_id >= RMG_TERRAIN_COUNT)
        return "unknown";
    return terrain_keys[terrain_json_index[terrain_id]];
}

static const char *json_bool(bool v)
{
    return v ? "true" : "false";
}

static const char *zone_kind_name(rmg_zone_kind k)
{
    static const char *const n[] = {"human_start", "computer_start", "treasure", "junction", "water", "rock"};
    return (unsigned)k < RMG__ARRAY_LEN(n) ? n[k] : "treasure";
}

static const char *strength_name(rmg_monster_strength s)
{
    static const char *const n[] = {"none", "weak", "medium", "strong"};
    return (unsigned)s < RMG__ARRAY_LEN(n) ? n[s] : "medium";
}

static const char *connection_kind_name(rmg_connection_type t)
{
    static const char *const n[] = {"standard", "wide", "border_guard", "fictive"};
    return (unsigned)t < RMG__ARRAY_LEN(n) ? n[t] : "standard";
}

static const char *realization_name(rmg_map_realization r)
{
    static const char *const n[] = {"passage",      "wide",  "gate",    "monolith",  "one_way_monolith",
                                    "border_guard", "water", "fictive", "unrealized"};
    return (unsigned)r < RMG__ARRAY_LEN(n) ? n[r] : "unrealized";
}

static const char *guard_target_name(rmg_map_guard_target k)
{
    static const char *const n[] = {"none", "group", "object", "connection"};
    return (unsigned)k < RMG__ARRAY_LEN(n) ? n[k] : "none";
}

const char *rmg__faction_key(const struct rmg_content *c, int faction)
{
    if (faction == RMG_FACTION_NEUTRAL)
        return "neutral";
    long i = c ? rmg__content_find_faction_id(c, faction) : -1;
    return i >= 0 ? c->factions[i].key : NULL;
}

void rmg__json_string(rmg__buf *b, const char *s)
{
    rmg__buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"':
            rmg__buf_puts(b, "\\\"");
            break;
        case '\\':
            rmg__buf_puts(b, "\\\\");
            break;
        case '\n':
            rmg__buf_puts(b, "\\n");
            break;
        case '\r':
            rmg__buf_puts(b, "\\r");
            break;
        case '\t':
            rmg__buf_puts(b, "\\t");
            break;
        default:
            if (*p < 0x20)
                rmg__buf_printf(b, "\\u%04x", *p);
            else
                rmg__buf_putc(b, (char)*p);
        }
    }
    rmg__buf_putc(b, '"');
}

static void json_key(rmg__buf *b, const char *key)
{
    rmg__json_string(b, key);
    rmg__buf_putc(b, ':');
}

static void json_int_or_null(rmg__buf *b, int64_t v, bool is_null)
{
    if (is_null)
        rmg__buf_puts(b, "null");
    else
        rmg__buf_printf(b, "%" PRId64, v);
}

static void json_tile(rmg__buf *b, const struct rmg_map *m, uint32_t t)
{
    size_t plane = (size_t)m->width * (size_t)m->height;
    unsigned z = (unsigned)(t / plane), rest = (unsigned)(t % plane);
    rmg__buf_printf(b, "[%u,%u,%u]", rest % (unsigned)m->width, rest / (unsigned)m->width, z);
}

static void json_tile_list(rmg__buf *b, const struct rmg_map *m, const uint32_t *tiles, size_t n)
{
    rmg__buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            rmg__buf_putc(b, ',');
        json_tile(b, m, tiles[i]);
    }
    rmg__buf_putc(b, ']');
}

static void json_id_list(rmg__buf *b, const uint32_t *ids, size_t n)
{
    rmg__buf_putc(b, '[');
    for (size_t i = 0; i < n; i++)
        rmg__buf_printf(b, i ? ",%u" : "%u", ids[i]);
    rmg__buf_putc(b, ']');
}

static void write_header(rmg__buf *b, const struct rmg_map *m, bool with_fingerprint)
{
    static const char *const water[] = {"none", "normal", "islands"};
    static const char *const monsters[] = {"weak", "normal", "strong"};
    const rmg_generate_options *o = &m->options;
    rmg__buf_printf(b, "{\"format\":\"rmg-map\",\"format_version\":1,\"generator\":{\"name\":\"librmg\",\"version\":\"%s\"},",
                    RMG_VERSION_STRING);
    rmg__buf_printf(b, "\"seed\":\"%" PRIu64 "\",", m->seed);
    rmg__buf_printf(b, "\"fingerprint\":\"%016" PRIx64 "\",", with_fingerprint ? m->fingerprint : (uint64_t)0);
    rmg__buf_puts(b, "\"template\":{");
    json_key(b, "pack");
    rmg__json_string(b, m->pack_name);
    rmg__buf_putc(b, ',');
    json_key(b, "name");
    rmg__json_string(b, m->template_name);
    rmg__buf_puts(b, "},");
    rmg__buf_printf(b,
                    "\"options\":{\"width\":%d,\"height\":%d,\"levels\":%d,\"players\":%d,\"humans\":%d,"
                    "\"water\":\"%s\",\"monster_strength\":\"%s\"},",
                    o->width, o->height, o->levels, o->players, o->humans,
                    (unsigned)o->water < 3 ? water[o->water] : "none",
                    (unsigned)o->monsters < 3 ? monsters[o->monsters] : "normal");
    rmg__buf_printf(b, "\"width\":%d,\"height\":%d,\"levels\":%d,", m->width, m->height, m->levels);
    json_key(b, "description");
    rmg__json_string(b, m->description);
    rmg__buf_putc(b, ',');
    rmg__buf_puts(b, "\"terrain_keys\":[");
    for (size_t i = 0; i < RMG__ARRAY_LEN(terrain_keys); i++)
        rmg__buf_printf(b, i ? ",\"%s\"" : "\"%s\"", terrain_keys[i]);
    rmg__buf_puts(b, "],");
}

/* One element of a tile array: what printf(t ? ",%u" : "%u", v) writes, without printf (the
 * tile arrays are most of the JSON, and every generated map is serialized for its
 * fingerprint). */
static void put_tile_value(rmg__buf *b, size_t t, unsigned v)
{
    char tmp[16];
    size_t n = sizeof tmp;
    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (t)
        tmp[--n] = ',';
    rmg__buf_append(b, tmp + n, sizeof tmp - n);
}

static void write_tiles(rmg__buf *b, const struct rmg_map *m)
{
    rmg__buf_puts(b, "\"tiles\":{\"terrain\":[");
    for (size_t t = 0; t < m->n_tiles; t++) {
        int id = m->terrain[t];
        put_tile_value(b, t, id < RMG_TERRAIN_COUNT ? (unsigned)terrain_json_index[id] : 0u);
    }
    rmg__buf_puts(b, "],\"zone\":[");
    for (size_t t = 0; t < m->n_tiles; t++)
        put_tile_value(b, t, m->tile_zone[t]);
    rmg__buf_puts(b, "],\"passable\":[");
    for (size_t t = 0; t < m->n_tiles; t++)
        rmg__buf_puts(b, t ? (rmg__map_tile_passable(m, t) ? ",1" : ",0") : (rmg__map_tile_passable(m, t) ? "1" : "0"));
    rmg__buf_puts(b, "],\"road\":[");
    for (size_t t = 0; t < m->n_tiles; t++)
        put_tile_value(b, t, m->road[t]);
    rmg__buf_puts(b, "]},");
}

static void write_zones(rmg__buf *b, const struct rmg_map *m, const struct rmg_content *c)
{
    rmg__buf_puts(b, "\"zones\":[");
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        rmg__buf_printf(b, "%s{\"id\":%d,\"template_zone\":", i ? "," : "", z->id);
        json_int_or_null(b, z->tpl_id, z->tpl_index < 0);
        rmg__buf_printf(b, ",\"kind\":\"%s\",\"level\":%d,\"owner\":", zone_kind_name(z->kind), z->level);
        json_int_or_null(b, z->owner, z->owner <= 0);
        rmg__buf_printf(b, ",\"terrain\":\"%s\",\"faction\":", rmg__terrain_key(z->terrain));
        const char *fk = rmg__faction_key(c, z->faction);
        if (fk)
            rmg__json_string(b, fk);
        else
            rmg__buf_puts(b, "null");
        rmg__buf_printf(b, ",\"monster_strength\":\"%s\",\"size_weight\":%.15g,\"tiles\":%zu,\"towns\":",
                        strength_name(z->monster_strength), z->size_weight, z->n_tiles);
        json_id_list(b, z->towns.items, z->towns.count);
        if (m->zone_stats && z->tpl_index >= 0) {
            const rmg__zone_stats *st = &m->zone_stats[i];
            rmg__buf_printf(b, ",\"treasure_groups\":{\"requested\":[%d,%d,%d],\"placed\":[%d,%d,%d],"
                               "\"exhausted\":[%s,%s,%s]}",
                            st->groups_requested[0], st->groups_requested[1], st->groups_requested[2],
                            st->groups_placed[0], st->groups_placed[1], st->groups_placed[2],
                            json_bool(st->range_exhausted[0]), json_bool(st->range_exhausted[1]),
                            json_bool(st->range_exhausted[2]));
        }
        rmg__buf_putc(b, '}');
    }
    rmg__buf_puts(b, "],");
}

static void write_connections(rmg__buf *b, const struct rmg_map *m)
{
    rmg__buf_puts(b, "\"connections\":[");
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        /* A mirror link (ZON-29) is a zone setting, not a template connection. */
        bool mirror_link = c->tpl_index < 0;
        rmg__buf_printf(b, "%s{\"id\":%d,\"template_index\":", i ? "," : "", c->id);
        json_int_or_null(b, c->tpl_index, mirror_link);
        rmg__buf_printf(b,
                        ",\"zones\":[%d,%d],\"kind\":\"%s\",\"realized\":\"%s\",\"value\":%" PRId64
                        ",\"road\":%s,\"guards\":",
                        c->zone_a, c->zone_b, mirror_link ? "mirror_link" : connection_kind_name(c->kind),
                        realization_name(c->realized), c->value, json_bool(c->road));
        json_id_list(b, c->guards.items, c->guards.count);
        rmg__buf_puts(b, ",\"tiles\":");
        json_tile_list(b, m, c->tiles.items, c->tiles.count);
        if (c->why) {
            rmg__buf_puts(b, ",\"why\":");
            rmg__json_string(b, c->why);
        }
        rmg__buf_putc(b, '}');
    }
    rmg__buf_puts(b, "],");
}

static void write_object_tiles(rmg__buf *b, const struct rmg_map *m, const rmg__map_object *o, uint64_t mask)
{
    uint32_t tiles[48];
    size_t n = rmg__object_tiles(m, o, mask, tiles, RMG__ARRAY_LEN(tiles));
    json_tile_list(b, m, tiles, n < 48 ? n : 48);
}

static void write_monster_fields(rmg__buf *b, const rmg__map_object *o)
{
    rmg__buf_printf(b,
                    ",\"count\":%d,\"strength_total\":%.15g,\"guarded_value\":%" PRId64
                    ",\"strength_index\":%d,\"guards\":{\"kind\":\"%s\",\"id\":%u},\"disposition\":%d,"
                    "\"join_percent\":%d,\"join_for_money\":%s",
                    o->count, o->strength_total, o->guarded_value, o->strength_index, guard_target_name(o->guards_kind),
                    o->guards_id, o->disposition, o->join_percent, json_bool(o->join_for_money));
}

static void write_optional_key(rmg__buf *b, const char *member, const char *key)
{
    if (!key)
        return;
    rmg__buf_printf(b, ",\"%s\":", member);
    rmg__json_string(b, key);
}

/* A spell Pandora's box's level range and schools: custom variants (OBJ-15) keep the key of
 * their family's first row, so these tell them apart. */
static void write_spell_range(rmg__buf *b, const rmg__map_object *o)
{
    static const char *const schools[4] = {"air", "fire", "water", "earth"};
    rmg__buf_printf(b, ",\"spell_levels\":[%d,%d],\"schools\":[", o->spell_min, o->spell_max);
    bool first = true;
    for (int k = 0; k < 4; k++)
        if (o->schools & (1 << k)) {
            rmg__buf_printf(b, "%s\"%s\"", first ? "" : ",", schools[k]);
            first = false;
        }
    rmg__buf_putc(b, ']');
}

/* What an object holds (lib/objects/details.c) and what it is paired with. */
static void write_content_fields(rmg__buf *b, const struct rmg_map *m, const rmg__map_object *o)
{
    write_optional_key(b, "artifact", rmg__object_artifact_key(m, o));
    write_optional_key(b, "spell", rmg__object_spell_key(m, o));
    if (o->n_spells) {
        write_spell_range(b, o);
        rmg__buf_puts(b, ",\"spells\":[");
        for (size_t k = 0; k < o->n_spells; k++) {
            if (k)
                rmg__buf_putc(b, ',');
            const char *key = rmg__spell_key(m, o->spells[k]);
            rmg__json_string(b, key ? key : "");
        }
        rmg__buf_putc(b, ']');
    }
    write_optional_key(b, "hero", rmg__object_hero_key(m, o));
    write_optional_key(b, "reward", rmg__object_reward_name(m, o));
    if (o->link)
        rmg__buf_printf(b, ",\"link\":%u", o->link);
}

static void write_objects(rmg__buf *b, const struct rmg_map *m, const struct rmg_content *c)
{
    rmg__buf_puts(b, "\"objects\":[");
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        rmg__buf_printf(b, "%s{\"id\":%u,\"key\":", i ? "," : "", o->id);
        rmg__json_string(b, o->key);
        rmg__buf_printf(b, ",\"x\":%d,\"y\":%d,\"z\":%d,\"footprint\":", o->x, o->y, o->z);
        write_object_tiles(b, m, o, o->block & ~o->visit);
        rmg__buf_puts(b, ",\"entries\":");
        write_object_tiles(b, m, o, o->visit);
        rmg__buf_printf(b, ",\"zone\":%d,\"value\":%" PRId64 ",\"group\":", o->zone, o->value);
        json_int_or_null(b, o->group, o->group == 0);
        rmg__buf_puts(b, ",\"guard\":");
        json_int_or_null(b, o->guard, o->guard == 0);
        const char *color = rmg__color_name(o);
        if (color)
            rmg__buf_printf(b, ",\"color\":\"%s\"", color);
        if (o->creature >= 0 && c && (size_t)o->creature < c->n_creatures) {
            rmg__buf_puts(b, ",\"creature\":");
            rmg__json_string(b, c->creatures[o->creature].key);
        }
        if (o->kind == RMG_OBJECT_MONSTER)
            write_monster_fields(b, o);
        else if (o->count > 0)
            rmg__buf_printf(b, ",\"count\":%d", o->count);
        if (o->kind == RMG_OBJECT_TOWN) {
            const char *fk = rmg__faction_key(c, o->faction);
            rmg__buf_puts(b, ",\"faction\":");
            if (fk)
                rmg__json_string(b, fk);
            else
                rmg__buf_puts(b, "null");
            rmg__buf_puts(b, ",\"owner\":");
            json_int_or_null(b, o->owner, o->owner <= 0);
            rmg__buf_printf(b, ",\"main\":%s", json_bool(o->main));
        }
        if (o->amount)
            rmg__buf_printf(b, ",\"amount\":%" PRId64, o->amount);
        write_content_fields(b, m, o);
        rmg__buf_putc(b, '}');
    }
    rmg__buf_puts(b, "],");
}

static void write_groups(rmg__buf *b, const struct rmg_map *m)
{
    rmg__buf_puts(b, "\"groups\":[");
    for (size_t i = 0; i < m->groups.count; i++) {
        const rmg__map_group *g = &m->groups.items[i];
        rmg__buf_printf(b,
                        "%s{\"id\":%u,\"zone\":%d,\"range\":%d,\"target\":%" PRId64 ",\"value\":%" PRId64
                        ",\"guard\":",
                        i ? "," : "", g->id, g->zone, g->range, g->target, g->value);
        json_int_or_null(b, g->guard, g->guard == 0);
        rmg__buf_puts(b, ",\"objects\":");
        json_id_list(b, g->objects.items, g->objects.count);
        rmg__buf_putc(b, '}');
    }
    rmg__buf_puts(b, "],");
}

static void write_warnings(rmg__buf *b, const struct rmg_map *m)
{
    rmg__buf_puts(b, "\"warnings\":[");
    for (size_t i = 0; i < m->warnings.count; i++) {
        if (i)
            rmg__buf_putc(b, ',');
        rmg__json_string(b, m->warnings.items[i]);
    }
    rmg__buf_puts(b, "]}\n");
}

rmg_status rmg__map_json(const struct rmg_map *m, bool with_fingerprint, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    const struct rmg_content *c = m->ctx->content;
    rmg__buf b;
    rmg__buf_init(&b, m->ctx);
    write_header(&b, m, with_fingerprint);
    write_tiles(&b, m);
    write_zones(&b, m, c);
    write_connections(&b, m);
    write_objects(&b, m, c);
    write_groups(&b, m);
    write_warnings(&b, m);
    return rmg__buf_finish(&b, out, len);
}

rmg_status rmg__map_fingerprint(const struct rmg_map *m, uint64_t *out)
{
    char *s = NULL;
    size_t n = 0;
    rmg_status st = rmg__map_json(m, false, &s, &n);
    if (st != RMG_OK)
        return st;
    *out = rmg__hash64(s, n, 0);
    rmg__free(m->ctx, s);
    return RMG_OK;
}

rmg_status rmg_map_to_json(const rmg_map *map, char **out, size_t *len)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    return rmg__map_json(map, true, out, len);
}
