/* The map's JSON document (docs/map-json.md): one canonical serialization, also hashed for the
 * fingerprint. Members are written in a fixed order; numbers are integers except
 * size_weight and strength_total, printed with %.15g (exact for the values they take).
 *
 * A map is serialized for its fingerprint the first time a host asks for it (as well as for
 * every export), so the writer is built for speed: the text goes through a small fixed buffer (json_out) that is flushed either onto a growing string
 * (rmg_map_to_json) or into a streaming XXH3-64 state (the fingerprint: no copy of the document
 * is made), and integers are formatted by hand rather than with printf. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "map_internal.h"

/* terrain_keys of the JSON contract: indexed by the terrain ids of rmg_terrain_id (rmg/content.h),
 * so the JSON, the C API and Python number terrains alike (0.4.0; before, water and rock came
 * last). */
static const char *const terrain_keys[RMG_TERRAIN_COUNT] = {
    [RMG_TERRAIN_DIRT] = "dirt",   [RMG_TERRAIN_SAND] = "sand",   [RMG_TERRAIN_GRASS] = "grass",
    [RMG_TERRAIN_SNOW] = "snow",   [RMG_TERRAIN_SWAMP] = "swamp", [RMG_TERRAIN_ROUGH] = "rough",
    [RMG_TERRAIN_SUBTERRANEAN] = "subterranean", [RMG_TERRAIN_LAVA] = "lava",
    [RMG_TERRAIN_WATER] = "water", [RMG_TERRAIN_ROCK] = "rock",   [RMG_TERRAIN_HIGHLANDS] = "highlands",
    [RMG_TERRAIN_WASTELAND] = "wasteland"};

const char *rmg__terrain_key(int terrain_id)
{
    if (terrain_id < 0 || terrain_id >= RMG_TERRAIN_COUNT)
        return "unknown";
    return terrain_keys[terrain_id];
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

/* ---- the writer ---------------------------------------------------------------------------- */

/* Text is collected in `chunk` and handed on when it is full: appended to `text`, or, when text
 * is NULL, fed to the hash state. */
typedef struct json_out {
    rmg__buf *text;
    XXH3_state_t *hash;
    size_t len;
    char chunk[8192];
} json_out;

static void out_init(json_out *w, rmg__buf *text, XXH3_state_t *hash)
{
    w->text = text;
    w->hash = hash;
    w->len = 0;
}

static void out_emit(json_out *w, const char *s, size_t n)
{
    if (w->text)
        rmg__buf_append(w->text, s, n);
    else
        XXH3_64bits_update(w->hash, s, n);
}

static void out_flush(json_out *w)
{
    if (w->len)
        out_emit(w, w->chunk, w->len);
    w->len = 0;
}

static void out_bytes(json_out *w, const char *s, size_t n)
{
    if (n > sizeof w->chunk - w->len) {
        out_flush(w);
        if (n > sizeof w->chunk) {
            out_emit(w, s, n);
            return;
        }
    }
    memcpy(w->chunk + w->len, s, n);
    w->len += n;
}

/* A string literal: its length is known at compile time. */
#define OUT_LIT(w, lit) out_bytes((w), "" lit, sizeof(lit) - 1)

static void out_str(json_out *w, const char *s)
{
    out_bytes(w, s, strlen(s));
}

static void out_char(json_out *w, char c)
{
    if (w->len == sizeof w->chunk)
        out_flush(w);
    w->chunk[w->len++] = c;
}

/* Room for n more bytes (n far below the chunk size) at the returned position; out_commit
 * takes what was written there. */
static char *out_reserve(json_out *w, size_t n)
{
    if (n > sizeof w->chunk - w->len)
        out_flush(w);
    return w->chunk + w->len;
}

static void out_commit(json_out *w, const char *end)
{
    w->len = (size_t)(end - w->chunk);
}

/* Writes v in decimal at p (what printf("%llu") writes); returns the end. Small values, most
 * of the document, take the short way. */
static char *put_uint(char *p, uint64_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    if (v < 100) {
        p[0] = (char)('0' + v / 10);
        p[1] = (char)('0' + v % 10);
        return p + 2;
    }
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_int(char *p, int64_t v)
{
    if (v >= 0)
        return put_uint(p, (uint64_t)v);
    *p++ = '-';
    return put_uint(p, 0u - (uint64_t)v);
}

/* Room for a number, and for the short texts copied before one without a call to strlen. */
#define NUMBER_ROOM 24
#define PREFIX_ROOM 40

/* Writes `text` and returns where a number may follow (NUMBER_ROOM bytes free there). */
static char *out_prefix(json_out *w, const char *text)
{
    char *p = out_reserve(w, PREFIX_ROOM + NUMBER_ROOM);
    for (const char *end = p + PREFIX_ROOM; *text && p < end;)
        *p++ = *text++;
    if (*text) { /* longer than PREFIX_ROOM: the rest the slow way */
        out_commit(w, p);
        out_str(w, text);
        p = out_reserve(w, NUMBER_ROOM);
    }
    return p;
}

/* v in decimal, after the text `prefix` (NULL: none): what printf("%s%llu") writes. */
static void out_uint_after(json_out *w, const char *prefix, uint64_t v)
{
    char *p = prefix ? out_prefix(w, prefix) : out_reserve(w, NUMBER_ROOM);
    out_commit(w, put_uint(p, v));
}

static void out_int(json_out *w, int64_t v)
{
    out_commit(w, put_int(out_reserve(w, NUMBER_ROOM), v));
}

/* `text` (n bytes) followed by v. */
static inline void out_text_int(json_out *w, const char *text, size_t n, int64_t v)
{
    if (n > PREFIX_ROOM) {
        out_bytes(w, text, n);
        out_int(w, v);
        return;
    }
    char *p = out_reserve(w, PREFIX_ROOM + NUMBER_ROOM);
    memcpy(p, text, n);
    out_commit(w, put_int(p + n, v));
}

/* `member":v` where member is a literal up to the name's closing quote (`,"x`). */
#define OUT_MEMBER_INT(w, member, v) out_text_int((w), "" member "\":", sizeof(member "\":") - 1, (v))

/* What printf("%.15g") writes. Most values are whole numbers: below 10^15 in magnitude those
 * print as their integer digits, without printf. */
static void out_g15(json_out *w, double v)
{
    if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v && !(v == 0 && signbit(v))) {
        out_int(w, (int64_t)v);
        return;
    }
    char tmp[40];
    int n = snprintf(tmp, sizeof tmp, "%.15g", v);
    out_bytes(w, tmp, n > 0 ? (size_t)n : 0);
}

/* True for the bytes that cannot stand in a JSON string as they are. */
static bool needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* The escape sequence of a byte that cannot stand in a JSON string as it is (needs_escape):
 * control characters other than \n \r \t become \u00XX (written into `hex`). */
static const char *json_escape(unsigned char c, char hex[7])
{
    switch (c) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    default:
        snprintf(hex, 7, "\\u%04x", c);
        return hex;
    }
}

static void out_string(json_out *w, const char *s)
{
    out_char(w, '"');
    const char *run = s ? s : "";
    for (const char *p = run;; p++) {
        if (*p && !needs_escape((unsigned char)*p))
            continue;
        out_bytes(w, run, (size_t)(p - run));
        if (!*p)
            break;
        char hex[7];
        out_str(w, json_escape((unsigned char)*p, hex));
        run = p + 1;
    }
    out_char(w, '"');
}

void rmg__json_string(rmg__buf *b, const char *s)
{
    json_out w;
    out_init(&w, b, NULL);
    out_string(&w, s);
    out_flush(&w);
}

static void out_key(json_out *w, const char *key)
{
    out_string(w, key);
    out_char(w, ':');
}

static void out_int_or_null(json_out *w, int64_t v, bool is_null)
{
    if (is_null)
        out_bytes(w, "null", 4);
    else
        out_int(w, v);
}

static void out_string_or_null(json_out *w, const char *s)
{
    if (s)
        out_string(w, s);
    else
        out_bytes(w, "null", 4);
}

/* `[a,b,c]` of n ints. */
static void out_int_array(json_out *w, const int *v, size_t n)
{
    out_char(w, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_char(w, ',');
        out_int(w, v[i]);
    }
    out_char(w, ']');
}

/* `[x,y,z]` of tile t. */
static void out_tile(json_out *w, const struct rmg_map *m, uint32_t t)
{
    size_t plane = (size_t)m->width * (size_t)m->height;
    unsigned z = (unsigned)(t / plane), rest = (unsigned)(t % plane);
    char *p = out_reserve(w, 3 * NUMBER_ROOM);
    *p++ = '[';
    p = put_uint(p, rest % (unsigned)m->width);
    *p++ = ',';
    p = put_uint(p, rest / (unsigned)m->width);
    *p++ = ',';
    p = put_uint(p, z);
    *p++ = ']';
    out_commit(w, p);
}

static void out_tile_list(json_out *w, const struct rmg_map *m, const uint32_t *tiles, size_t n)
{
    out_char(w, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_char(w, ',');
        out_tile(w, m, tiles[i]);
    }
    out_char(w, ']');
}

static void out_id_list(json_out *w, const uint32_t *ids, size_t n)
{
    out_char(w, '[');
    for (size_t i = 0; i < n; i++)
        out_uint_after(w, i ? "," : NULL, ids[i]);
    out_char(w, ']');
}

/* ---- the document -------------------------------------------------------------------------- */

/* ,"towns":{"1":"castle",...}: the players' town choices, when any player made one. */
static void write_town_choices(json_out *w, const rmg_generate_options *o, const struct rmg_content *c)
{
    if (!(o->towns_chosen & 0xFFu))
        return;
    OUT_LIT(w, ",\"towns\":{");
    bool first = true;
    for (int p = 0; p < 8; p++) {
        if (!(o->towns_chosen >> p & 1u))
            continue;
        char key[4] = {(char)('1' + p), '\0'};
        if (!first)
            out_char(w, ',');
        first = false;
        out_key(w, key);
        out_string_or_null(w, rmg__faction_key(c, o->towns[p]));
    }
    out_char(w, '}');
}

static void write_header(json_out *w, const struct rmg_map *m, const struct rmg_content *c, bool with_fingerprint)
{
    static const char *const water[] = {"none", "normal", "islands"};
    static const char *const monsters[] = {"weak", "normal", "strong"};
    const rmg_generate_options *o = &m->options;
    out_str(w, "{\"format\":\"rmg-map\",\"format_version\":1,\"generator\":{\"name\":\"librmg\",\"version\":\"" RMG_VERSION_STRING
               "\"},");
    out_uint_after(w, "\"seed\":\"", m->seed);
    char fingerprint[40];
    snprintf(fingerprint, sizeof fingerprint, "\",\"fingerprint\":\"%016llx\",",
             (unsigned long long)(with_fingerprint ? rmg__map_fingerprint_of(m) : 0u));
    out_str(w, fingerprint);
    OUT_LIT(w, "\"template\":{");
    out_key(w, "pack");
    out_string(w, m->pack_name);
    out_char(w, ',');
    out_key(w, "name");
    out_string(w, m->template_name);
    OUT_LIT(w, "},\"options\":{");
    OUT_MEMBER_INT(w, "\"width", o->width);
    OUT_MEMBER_INT(w, ",\"height", o->height);
    OUT_MEMBER_INT(w, ",\"levels", o->levels);
    OUT_MEMBER_INT(w, ",\"players", o->players);
    OUT_MEMBER_INT(w, ",\"humans", o->humans);
    OUT_LIT(w, ",\"water\":\"");
    out_str(w, (unsigned)o->water < 3 ? water[o->water] : "none");
    OUT_LIT(w, "\",\"monster_strength\":\"");
    out_str(w, (unsigned)o->monsters < 3 ? monsters[o->monsters] : "normal");
    out_char(w, '"');
    write_town_choices(w, o, c);
    OUT_LIT(w, "},");
    OUT_MEMBER_INT(w, "\"width", m->width);
    OUT_MEMBER_INT(w, ",\"height", m->height);
    OUT_MEMBER_INT(w, ",\"levels", m->levels);
    out_char(w, ',');
    out_key(w, "description");
    out_string(w, m->description);
    OUT_LIT(w, ",\"terrain_keys\":[");
    for (size_t i = 0; i < RMG__ARRAY_LEN(terrain_keys); i++) {
        if (i)
            out_char(w, ',');
        out_string(w, terrain_keys[i]);
    }
    OUT_LIT(w, "],");
}

/* One tile layer as an array of small numbers (these arrays are most of the document). */
static void write_layer(json_out *w, const struct rmg_map *m, const char *name, unsigned (*value)(const struct rmg_map *, size_t))
{
    out_str(w, name);
    for (size_t t = 0; t < m->n_tiles; t++) {
        char *p = out_reserve(w, NUMBER_ROOM + 1);
        if (t)
            *p++ = ',';
        out_commit(w, put_uint(p, value(m, t)));
    }
}

static unsigned terrain_value(const struct rmg_map *m, size_t t)
{
    int id = m->terrain[t];
    return id < RMG_TERRAIN_COUNT ? (unsigned)id : 0u;
}

static unsigned zone_value(const struct rmg_map *m, size_t t)
{
    return m->tile_zone[t];
}

static unsigned passable_value(const struct rmg_map *m, size_t t)
{
    return rmg__map_tile_passable(m, t) ? 1u : 0u;
}

static unsigned road_value(const struct rmg_map *m, size_t t)
{
    return m->road[t];
}

static unsigned river_value(const struct rmg_map *m, size_t t)
{
    return m->river[t];
}

static void write_tiles(json_out *w, const struct rmg_map *m)
{
    write_layer(w, m, "\"tiles\":{\"terrain\":[", terrain_value);
    write_layer(w, m, "],\"zone\":[", zone_value);
    write_layer(w, m, "],\"passable\":[", passable_value);
    write_layer(w, m, "],\"road\":[", road_value);
    write_layer(w, m, "],\"river\":[", river_value);
    OUT_LIT(w, "]},");
}

static void write_treasure_groups(json_out *w, const rmg__zone_stats *st)
{
    OUT_LIT(w, ",\"treasure_groups\":{\"requested\":");
    out_int_array(w, st->groups_requested, 3);
    OUT_LIT(w, ",\"placed\":");
    out_int_array(w, st->groups_placed, 3);
    OUT_LIT(w, ",\"exhausted\":[");
    for (int k = 0; k < 3; k++) {
        if (k)
            out_char(w, ',');
        out_str(w, json_bool(st->range_exhausted[k]));
    }
    OUT_LIT(w, "]}");
}

static void write_zones(json_out *w, const struct rmg_map *m, const struct rmg_content *c)
{
    OUT_LIT(w, "\"zones\":[");
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        out_str(w, i ? ",{" : "{");
        OUT_MEMBER_INT(w, "\"id", z->id);
        OUT_LIT(w, ",\"template_zone\":");
        out_int_or_null(w, z->tpl_id, z->tpl_index < 0);
        OUT_LIT(w, ",\"kind\":\"");
        out_str(w, zone_kind_name(z->kind));
        out_char(w, '"');
        OUT_MEMBER_INT(w, ",\"level", z->level);
        OUT_LIT(w, ",\"owner\":");
        out_int_or_null(w, z->owner, z->owner <= 0);
        OUT_LIT(w, ",\"terrain\":\"");
        out_str(w, rmg__terrain_key(z->terrain));
        OUT_LIT(w, "\",\"faction\":");
        out_string_or_null(w, rmg__faction_key(c, z->faction));
        OUT_LIT(w, ",\"monster_strength\":\"");
        out_str(w, strength_name(z->monster_strength));
        OUT_LIT(w, "\",\"size_weight\":");
        out_g15(w, z->size_weight);
        out_uint_after(w, ",\"tiles\":", z->n_tiles);
        OUT_LIT(w, ",\"towns\":");
        out_id_list(w, z->towns.items, z->towns.count);
        if (m->zone_stats && z->tpl_index >= 0)
            write_treasure_groups(w, &m->zone_stats[i]);
        out_char(w, '}');
    }
    OUT_LIT(w, "],");
}

static void write_connections(json_out *w, const struct rmg_map *m)
{
    OUT_LIT(w, "\"connections\":[");
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        /* A mirror link (ZON-29) is a zone setting, not a template connection. */
        bool mirror_link = c->tpl_index < 0;
        out_str(w, i ? ",{" : "{");
        OUT_MEMBER_INT(w, "\"id", c->id);
        OUT_LIT(w, ",\"template_index\":");
        out_int_or_null(w, c->tpl_index, mirror_link);
        OUT_LIT(w, ",\"zones\":[");
        out_int(w, c->zone_a);
        out_char(w, ',');
        out_int(w, c->zone_b);
        OUT_LIT(w, "],\"kind\":\"");
        out_str(w, mirror_link ? "mirror_link" : connection_kind_name(c->kind));
        OUT_LIT(w, "\",\"realized\":\"");
        out_str(w, realization_name(c->realized));
        out_char(w, '"');
        OUT_MEMBER_INT(w, ",\"value", c->value);
        OUT_LIT(w, ",\"road\":");
        out_str(w, json_bool(c->road));
        OUT_LIT(w, ",\"guards\":");
        out_id_list(w, c->guards.items, c->guards.count);
        OUT_LIT(w, ",\"tiles\":");
        out_tile_list(w, m, c->tiles.items, c->tiles.count);
        OUT_LIT(w, ",\"objects\":");
        out_id_list(w, c->objects.items, c->objects.count);
        if (c->why) {
            OUT_LIT(w, ",\"why\":");
            out_string(w, c->why);
        }
        out_char(w, '}');
    }
    OUT_LIT(w, "],");
}

static void write_object_tiles(json_out *w, const struct rmg_map *m, const rmg__map_object *o, uint64_t mask)
{
    uint32_t tiles[48];
    size_t n = rmg__object_tiles(m, o, mask, tiles, RMG__ARRAY_LEN(tiles));
    out_tile_list(w, m, tiles, n < 48 ? n : 48);
}

static void write_monster_fields(json_out *w, const rmg__map_object *o)
{
    OUT_MEMBER_INT(w, ",\"count", o->count);
    OUT_LIT(w, ",\"strength_total\":");
    out_g15(w, o->strength_total);
    OUT_MEMBER_INT(w, ",\"guarded_value", o->guarded_value);
    OUT_MEMBER_INT(w, ",\"strength_index", o->strength_index);
    OUT_LIT(w, ",\"guards\":{\"kind\":\"");
    out_str(w, guard_target_name(o->guards_kind));
    out_uint_after(w, "\",\"id\":", o->guards_id);
    out_char(w, '}');
    OUT_MEMBER_INT(w, ",\"disposition", o->disposition);
    OUT_MEMBER_INT(w, ",\"join_percent", o->join_percent);
    OUT_LIT(w, ",\"join_for_money\":");
    out_str(w, json_bool(o->join_for_money));
}

static void write_optional_key(json_out *w, const char *member, const char *key)
{
    if (!key)
        return;
    OUT_LIT(w, ",\"");
    out_str(w, member);
    OUT_LIT(w, "\":");
    out_string(w, key);
}

/* A spell Pandora's box's level range and schools: custom variants (OBJ-15) keep the key of
 * their family's first row, so these tell them apart. */
static void write_spell_range(json_out *w, const rmg__map_object *o)
{
    static const char *const schools[4] = {"air", "fire", "water", "earth"};
    OUT_LIT(w, ",\"spell_levels\":[");
    out_int(w, o->spell_min);
    out_char(w, ',');
    out_int(w, o->spell_max);
    OUT_LIT(w, "],\"schools\":[");
    bool first = true;
    for (int k = 0; k < 4; k++)
        if (o->schools & (1 << k)) {
            if (!first)
                out_char(w, ',');
            out_string(w, schools[k]);
            first = false;
        }
    out_char(w, ']');
}

/* What an object holds (lib/objects/details.c) and what it is paired with. */
static void write_content_fields(json_out *w, const struct rmg_map *m, const rmg__map_object *o)
{
    write_optional_key(w, "artifact", rmg__object_artifact_key(m, o));
    write_optional_key(w, "spell", rmg__object_spell_key(m, o));
    if (o->n_spells) {
        write_spell_range(w, o);
        OUT_LIT(w, ",\"spells\":[");
        for (size_t k = 0; k < o->n_spells; k++) {
            if (k)
                out_char(w, ',');
            const char *key = rmg__spell_key(m, o->spells[k]);
            out_string(w, key ? key : "");
        }
        out_char(w, ']');
    }
    write_optional_key(w, "hero", rmg__object_hero_key(m, o));
    write_optional_key(w, "reward", rmg__object_reward_name(m, o));
    if (o->link)
        out_uint_after(w, ",\"link\":", o->link);
}

static void write_town_fields(json_out *w, const rmg__map_object *o, const struct rmg_content *c)
{
    OUT_LIT(w, ",\"faction\":");
    out_string_or_null(w, rmg__faction_key(c, o->faction));
    OUT_LIT(w, ",\"owner\":");
    out_int_or_null(w, o->owner, o->owner <= 0);
    OUT_LIT(w, ",\"main\":");
    out_str(w, json_bool(o->main));
}

static void write_object(json_out *w, const struct rmg_map *m, const struct rmg_content *c, const rmg__map_object *o)
{
    out_uint_after(w, "{\"id\":", o->id);
    OUT_LIT(w, ",\"key\":");
    out_string(w, o->key);
    OUT_MEMBER_INT(w, ",\"x", o->x);
    OUT_MEMBER_INT(w, ",\"y", o->y);
    OUT_MEMBER_INT(w, ",\"z", o->z);
    OUT_LIT(w, ",\"footprint\":");
    write_object_tiles(w, m, o, o->block & ~o->visit);
    OUT_LIT(w, ",\"entries\":");
    write_object_tiles(w, m, o, o->visit);
    OUT_MEMBER_INT(w, ",\"zone", o->zone);
    OUT_MEMBER_INT(w, ",\"value", o->value);
    OUT_LIT(w, ",\"group\":");
    out_int_or_null(w, o->group, o->group == 0);
    OUT_LIT(w, ",\"guard\":");
    out_int_or_null(w, o->guard, o->guard == 0);
    const char *color = rmg__color_name(o);
    if (color) {
        OUT_LIT(w, ",\"color\":\"");
        out_str(w, color);
        out_char(w, '"');
    }
    const rmg__teleport_color *tc = rmg__teleport_color_of(o);
    if (tc)
        out_str(w, tc->width == 2 ? ",\"teleport\":\"portal\"" : ",\"teleport\":\"monolith\"");
    if (o->creature >= 0 && c && (size_t)o->creature < c->n_creatures) {
        OUT_LIT(w, ",\"creature\":");
        out_string(w, c->creatures[o->creature].key);
    }
    if (o->kind == RMG_OBJECT_MONSTER)
        write_monster_fields(w, o);
    else if (o->count > 0)
        OUT_MEMBER_INT(w, ",\"count", o->count);
    if (o->kind == RMG_OBJECT_TOWN)
        write_town_fields(w, o, c);
    if (o->amount)
        OUT_MEMBER_INT(w, ",\"amount", o->amount);
    write_content_fields(w, m, o);
    out_char(w, '}');
}

static void write_objects(json_out *w, const struct rmg_map *m, const struct rmg_content *c)
{
    OUT_LIT(w, "\"objects\":[");
    for (size_t i = 0; i < m->objects.count; i++) {
        if (i)
            out_char(w, ',');
        write_object(w, m, c, &m->objects.items[i]);
    }
    OUT_LIT(w, "],");
}

static void write_groups(json_out *w, const struct rmg_map *m)
{
    OUT_LIT(w, "\"groups\":[");
    for (size_t i = 0; i < m->groups.count; i++) {
        const rmg__map_group *g = &m->groups.items[i];
        out_uint_after(w, i ? ",{\"id\":" : "{\"id\":", g->id);
        OUT_MEMBER_INT(w, ",\"zone", g->zone);
        OUT_MEMBER_INT(w, ",\"range", g->range);
        OUT_MEMBER_INT(w, ",\"target", g->target);
        OUT_MEMBER_INT(w, ",\"value", g->value);
        OUT_LIT(w, ",\"guard\":");
        out_int_or_null(w, g->guard, g->guard == 0);
        OUT_LIT(w, ",\"objects\":");
        out_id_list(w, g->objects.items, g->objects.count);
        out_char(w, '}');
    }
    OUT_LIT(w, "],");
}

static void write_warnings(json_out *w, const struct rmg_map *m)
{
    OUT_LIT(w, "\"warnings\":[");
    for (size_t i = 0; i < m->warnings.count; i++) {
        if (i)
            out_char(w, ',');
        out_string(w, m->warnings.items[i]);
    }
    OUT_LIT(w, "]}\n");
}

/* The keys of the entities of one kind the setup bans (an array). */
static void write_banned(json_out *w, const struct rmg_map *m, const struct rmg_content *c, rmg_content_kind kind)
{
    out_char(w, '[');
    size_t n = c ? rmg_content_count(c, kind) : 0, written = 0;
    for (size_t i = 0; i < n; i++) {
        if (rmg__map_allowed(m, kind, i) != 0)
            continue;
        if (written++)
            out_char(w, ',');
        out_string(w, rmg_content_key(c, kind, i));
    }
    out_char(w, ']');
}

static void write_setup(json_out *w, const struct rmg_map *m, const struct rmg_content *c)
{
    const rmg__map_setup *s = &m->setup;
    OUT_LIT(w, "\"setup\":{\"max_battle_rounds\":");
    out_int_or_null(w, s->max_battle_rounds, s->max_battle_rounds <= 0);
    OUT_LIT(w, ",\"forbid_hiring_heroes\":");
    out_str(w, json_bool(s->forbid_hiring_heroes));
    OUT_LIT(w, ",\"special_weeks\":");
    out_str(w, json_bool(s->special_weeks));
    OUT_LIT(w, ",\"spell_research\":");
    out_str(w, json_bool(s->spell_research));
    OUT_LIT(w, ",\"gem_spell\":");
    out_string_or_null(w, rmg__spell_key(m, s->gem_spell));
    OUT_LIT(w, ",\"interference_to_resistance\":");
    out_str(w, json_bool(s->interference_to_resistance));
    OUT_LIT(w, ",\"allowed_towns\":[");
    size_t written = 0;
    for (int f = 0; f < 31; f++) {
        if (!(s->allowed_towns >> f & 1u))
            continue;
        const char *key = rmg__faction_key(c, f);
        if (!key)
            continue;
        if (written++)
            out_char(w, ',');
        out_string(w, key);
    }
    OUT_LIT(w, "],\"banned\":{\"artifacts\":");
    write_banned(w, m, c, RMG_CONTENT_ARTIFACT);
    OUT_LIT(w, ",\"spells\":");
    write_banned(w, m, c, RMG_CONTENT_SPELL);
    OUT_LIT(w, ",\"skills\":");
    write_banned(w, m, c, RMG_CONTENT_SKILL);
    OUT_LIT(w, ",\"heroes\":");
    write_banned(w, m, c, RMG_CONTENT_HERO);
    OUT_LIT(w, "}},");
}

static void write_document(json_out *w, const struct rmg_map *m, bool with_fingerprint)
{
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    write_header(w, m, c, with_fingerprint);
    write_setup(w, m, c);
    write_tiles(w, m);
    write_zones(w, m, c);
    write_connections(w, m);
    write_objects(w, m, c);
    write_groups(w, m);
    write_warnings(w, m);
    out_flush(w);
}

rmg_status rmg__map_json(const struct rmg_map *m, bool with_fingerprint, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    rmg__buf b;
    rmg__buf_init(&b, m->ctx);
    json_out w;
    out_init(&w, &b, NULL);
    write_document(&w, m, with_fingerprint);
    return rmg__buf_finish(&b, out, len);
}

/* The fingerprint is XXH3-64 (seed 0, what rmg__hash64 computes) of the document without the
 * fingerprint; the streaming state gives the same value as hashing the whole text at once. */
rmg_status rmg__map_fingerprint(const struct rmg_map *m, uint64_t *out)
{
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    json_out w;
    out_init(&w, NULL, &state);
    write_document(&w, m, false);
    *out = XXH3_64bits_digest(&state);
    return RMG_OK;
}

uint64_t rmg__map_fingerprint_of(const struct rmg_map *m)
{
    rmg__map_lazy *lazy = m->lazy;
    if (atomic_load_explicit(&lazy->fingerprint_known, memory_order_acquire))
        return atomic_load_explicit(&lazy->fingerprint, memory_order_relaxed);
    uint64_t f = 0;
    rmg__map_fingerprint(m, &f); /* allocates nothing, cannot fail */
    atomic_store_explicit(&lazy->fingerprint, f, memory_order_relaxed);
    atomic_store_explicit(&lazy->fingerprint_known, true, memory_order_release);
    return f;
}

rmg_status rmg_map_to_json(const rmg_map *map, char **out, size_t *len)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    return rmg__map_json(map, true, out, len);
}
