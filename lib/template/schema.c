/* The field tables of the template model (see schema.h) and deep equality over them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3t/h3t.h"   /* the raw h3t texts the h3t writer composes again */
#include "schema.h"

_Static_assert(sizeof(rmg_zone_kind) == sizeof(int), "enums are read and written as int");
_Static_assert(sizeof(rmg_rule_target) == sizeof(int), "enums are read and written as int");

#define NAMES(var, ...)                                                                        \
    static const char *const var##_list[] = {__VA_ARGS__};                                     \
    static const rmg__names var = {var##_list, RMG__ARRAY_LEN(var##_list)}

NAMES(zone_kinds, "human_start", "computer_start", "treasure", "junction", "water", "rock");
NAMES(placements, "any", "surface", "underground");
NAMES(strengths, "none", "weak", "medium", "strong");
NAMES(moods, "compliant", "friendly", "aggressive", "hostile", "savage", "exact");
NAMES(connection_types, "standard", "wide", "border_guard", "fictive");
NAMES(link_placements, "default", "ground", "underground_gate", "monolith", "random");
NAMES(road_settings, "forbidden", "random", "mandatory");
NAMES(rule_ops, "forbid", "allow");
NAMES(rule_targets, "all", "object", "family", "creature", "creature_level", "custom");
NAMES(type_rule_kinds, "town_same", "town_native", "terrain_same", "terrain_native", "faction_same",
      "faction_town", "faction_terrain");
NAMES(teleports, "none", "one_way_entrance", "one_way_exit", "two_way", "gate");
NAMES(water_levels, "none", "normal", "islands");

/* Faction ids are h3m town ids (rmg_faction_id); 11 is HotA 1.8's Bulwark, 31 neutral. */
static const char *const faction_list[32] = {
    "castle", "rampart", "tower", "inferno", "necropolis", "dungeon", "stronghold", "fortress",
    "conflux", "cove", "factory", "bulwark", [31] = "neutral"};
const rmg__names rmg__faction_names = {faction_list, 32};
static const char *const terrain_list[] = {"dirt", "sand", "grass", "snow", "swamp", "rough",
    "subterranean", "lava", "water", "rock", "highlands", "wasteland"};
const rmg__names rmg__terrain_names = {terrain_list, RMG__ARRAY_LEN(terrain_list)};
static const char *const resource_list[] = {"wood", "mercury", "ore", "sulfur", "crystal", "gems", "gold"};
const rmg__names rmg__resource_names = {resource_list, RMG__ARRAY_LEN(resource_list)};

const char *rmg__names_get(const rmg__names *n, long v)
{
    return v >= 0 && (size_t)v < n->count ? n->names[v] : NULL;
}

long rmg__names_find(const rmg__names *n, const char *name)
{
    for (size_t i = 0; i < n->count; i++)
        if (n->names[i] && strcmp(n->names[i], name) == 0)
            return (long)i;
    return -1;
}

static size_t hint_suggest(char *buf, size_t size, const char *const *names, size_t count, const char *word)
{
    if (!size)
        return 0;
    buf[0] = '\0';
    int k = rmg_name_suggest(word, names, count);
    int n = k >= 0 ? snprintf(buf, size, "; did you mean '%s'?", names[k]) : 0;
    return n > 0 ? RMG__MIN((size_t)n, size - 1) : 0;
}

void rmg__names_hint(char *buf, size_t size, const rmg__names *n, const char *word)
{
    size_t len = hint_suggest(buf, size, n->names, n->count, word);
    const char *sep = " (one of ";
    for (size_t i = 0; i < n->count && len + 1 < size; i++) {
        if (!n->names[i])
            continue;
        int w = snprintf(buf + len, size - len, "%s%s", sep, n->names[i]);
        len += w > 0 ? RMG__MIN((size_t)w, size - len - 1) : 0;
        sep = ", ";
    }
    if (len + 1 < size && *sep == ',')
        snprintf(buf + len, size - len, ")");
}

void rmg__schema_key_hint(char *buf, size_t size, const struct rmg__schema *s, const char *word)
{
    const char *keys[128];
    size_t n = RMG__MIN(s->n_fields, RMG__ARRAY_LEN(keys));
    for (size_t i = 0; i < n; i++)
        keys[i] = s->fields[i].key;
    hint_suggest(buf, size, keys, n, word);
}

/* ---- field tables ------------------------------------------------------------------------- */

#define F(T, key, kind, member) {key, kind, offsetof(T, member), 0, NULL, NULL, 0, false, NULL}
/* A raw text that may be redundant (rmg__field.redundant). */
#define FR(T, key, member, fn) {key, RMG__F_STR, offsetof(T, member), 0, NULL, NULL, 0, false, fn}
#define FA(T, key, kind, member) {key, kind, offsetof(T, member), 0, NULL, NULL, 0, true, NULL}
#define FE(T, key, member, names) {key, RMG__F_ENUM, offsetof(T, member), 0, NULL, &names, 0, false, NULL}
#define FEA(T, key, member, names) {key, RMG__F_ENUM, offsetof(T, member), 0, NULL, &names, 0, true, NULL}
#define FM(T, key, member, names) {key, RMG__F_MASK, offsetof(T, member), 0, NULL, &names, 0, false, NULL}
#define FG(key, schema) {key, RMG__F_GROUP, 0, 0, &schema, NULL, 0, false, NULL}
#define FS(T, key, member, schema) {key, RMG__F_SUB, offsetof(T, member), 0, &schema, NULL, 0, false, NULL}
#define FL(T, key, items, count, schema) \
    {key, RMG__F_LIST, offsetof(T, items), offsetof(T, count), &schema, NULL, 0, false, NULL}
#define SCHEMA(var, what, T, init, fields, loc, flow) \
    static const rmg__schema var = {what, sizeof(T), init, fields, RMG__ARRAY_LEN(fields), loc, flow}

static void init_zero(void *p) { (void)p; } /* elements arrive zero-filled */
static void init_zone(void *p) { rmg__zone_defaults(p); }
static void init_template(void *p) { rmg__template_defaults(p); }
static void init_connection(void *p) { rmg__connection_defaults(p); }
static void init_rule(void *p) { rmg__rule_defaults(p); }
/* Town references default to "the zone's player towns" (-1), the common case. */
static void init_type_rule(void *p)
{
    rmg__type_rule *r = p;
    r->town_a = r->town_b = -1;
}

static const rmg__field filter_fields[] = {
    F(rmg__player_filter, "min_humans", RMG__F_INT, min_human),
    F(rmg__player_filter, "max_humans", RMG__F_INT, max_human),
    F(rmg__player_filter, "min_total", RMG__F_INT, min_total),
    F(rmg__player_filter, "max_total", RMG__F_INT, max_total),
};
SCHEMA(filter_schema, "players", rmg__player_filter, init_zero, filter_fields, RMG__NO_LOC, true);

static const rmg__field rule_fields[] = {
    FEA(rmg__rule, "op", op, rule_ops),
    FEA(rmg__rule, "target", target, rule_targets),
    F(rmg__rule, "object", RMG__F_STR, object),
    F(rmg__rule, "family", RMG__F_STR, family),
    F(rmg__rule, "creature", RMG__F_STR, creature),
    F(rmg__rule, "level", RMG__F_INT, level),
    F(rmg__rule, "amount", RMG__F_INT64, amount),
    F(rmg__rule, "spell_min", RMG__F_INT, spell_min),
    F(rmg__rule, "spell_max", RMG__F_INT, spell_max),
    F(rmg__rule, "schools", RMG__F_INT, schools),
    F(rmg__rule, "value", RMG__F_PARAM, value),
    F(rmg__rule, "frequency", RMG__F_PARAM, frequency),
    F(rmg__rule, "max_map", RMG__F_PARAM, max_map),
    F(rmg__rule, "max_zone", RMG__F_PARAM, max_zone),
    F(rmg__rule, "extra", RMG__F_PARAM, extra),
    FR(rmg__rule, "raw", raw, rmg__h3t_rule_raw_redundant),
};
SCHEMA(rule_schema, "rule", rmg__rule, init_rule, rule_fields, offsetof(rmg__rule, loc), true);

static const rmg__field type_rule_fields[] = {
    FEA(rmg__type_rule, "kind", kind, type_rule_kinds),
    F(rmg__type_rule, "negate", RMG__F_BOOL, negate),
    FA(rmg__type_rule, "zone_a", RMG__F_INT, zone_a),
    F(rmg__type_rule, "town_a", RMG__F_INT, town_a),
    FA(rmg__type_rule, "zone_b", RMG__F_INT, zone_b),
    F(rmg__type_rule, "town_b", RMG__F_INT, town_b),
    FR(rmg__type_rule, "raw", raw, rmg__h3t_hint_raw_redundant),
};
SCHEMA(type_rule_schema, "type rule", rmg__type_rule, init_type_rule, type_rule_fields,
       offsetof(rmg__type_rule, loc), true);

static const rmg__field mirror_fields[] = {
    FEA(rmg__mirror_link, "surface", surface_kind, teleports),
    FEA(rmg__mirror_link, "underground", underground_kind, teleports),
    F(rmg__mirror_link, "surface_color", RMG__F_INT, surface_color),
    F(rmg__mirror_link, "underground_color", RMG__F_INT, underground_color),
    F(rmg__mirror_link, "value", RMG__F_INT64, value),
    F(rmg__mirror_link, "roads", RMG__F_BOOL, roads),
    F(rmg__mirror_link, "monolith_repulsion", RMG__F_BOOL, monolith_repulsion),
    FR(rmg__mirror_link, "raw", raw, rmg__h3t_mirror_raw_redundant),
    F(rmg__mirror_link, "h3t_row", RMG__F_INT, h3t_row),
    FS(rmg__mirror_link, "players", players, filter_schema),
};
SCHEMA(mirror_schema, "mirror link", rmg__mirror_link, init_zero, mirror_fields,
       offsetof(rmg__mirror_link, loc), true);

static const rmg__field treasure_fields[] = {
    FA(rmg__treasure, "min", RMG__F_INT64, min),
    FA(rmg__treasure, "max", RMG__F_INT64, max),
    FA(rmg__treasure, "density", RMG__F_INT64, density),
};
SCHEMA(treasure_schema, "treasure range", rmg__treasure, init_zero, treasure_fields, RMG__NO_LOC, true);

/* Groups of zone settings: nested mappings over fields of the zone itself. */
static const rmg__field player_towns_fields[] = {
    F(rmg__zone, "towns", RMG__F_INT, player_towns),
    F(rmg__zone, "castles", RMG__F_INT, player_castles),
    F(rmg__zone, "town_density", RMG__F_INT, player_town_density),
    F(rmg__zone, "castle_density", RMG__F_INT, player_castle_density),
};
SCHEMA(player_towns_group, "player_towns", rmg__zone, init_zone, player_towns_fields, RMG__NO_LOC, true);
static const rmg__field neutral_towns_fields[] = {
    F(rmg__zone, "towns", RMG__F_INT, neutral_towns),
    F(rmg__zone, "castles", RMG__F_INT, neutral_castles),
    F(rmg__zone, "town_density", RMG__F_INT, neutral_town_density),
    F(rmg__zone, "castle_density", RMG__F_INT, neutral_castle_density),
    F(rmg__zone, "same_type", RMG__F_BOOL, towns_same_type),
};
SCHEMA(neutral_towns_group, "neutral_towns", rmg__zone, init_zone, neutral_towns_fields, RMG__NO_LOC, true);
static const rmg__field terrain_fields[] = {
    F(rmg__zone, "match_town", RMG__F_BOOL, terrain_match_town),
    FM(rmg__zone, "allowed", allowed_terrains, rmg__terrain_names),
};
SCHEMA(terrain_group, "terrain", rmg__zone, init_zone, terrain_fields, RMG__NO_LOC, true);
static const rmg__field monster_fields[] = {
    FE(rmg__zone, "strength", monster_strength, strengths),
    F(rmg__zone, "match_town", RMG__F_BOOL, monsters_match_town),
    FM(rmg__zone, "factions", monster_factions, rmg__faction_names),
    FE(rmg__zone, "mood", mood, moods),
    F(rmg__zone, "mood_value", RMG__F_INT, mood_value),
    F(rmg__zone, "join_percent", RMG__F_INT, join_percent),
    F(rmg__zone, "join_only_for_money", RMG__F_BOOL, join_only_for_money),
};
SCHEMA(monster_group, "monsters", rmg__zone, init_zone, monster_fields, RMG__NO_LOC, true);
static const rmg__field airship_fields[] = {
    F(rmg__zone, "min", RMG__F_INT, airship_min),
    F(rmg__zone, "density", RMG__F_INT, airship_density),
};
SCHEMA(airship_group, "airship_yards", rmg__zone, init_zone, airship_fields, RMG__NO_LOC, true);
static const rmg__field raw_fields[] = {
    F(rmg__zone, "min_objects", RMG__F_STR, min_objects_raw),
    F(rmg__zone, "image", RMG__F_STR, image_raw),
    FR(rmg__zone, "allowed_factions", allowed_factions_raw, rmg__h3t_factions_raw_redundant),
};
SCHEMA(raw_group, "raw", rmg__zone, init_zone, raw_fields, RMG__NO_LOC, false);

static const rmg__field zone_fields[] = {
    FA(rmg__zone, "id", RMG__F_INT, id),
    FEA(rmg__zone, "kind", kind, zone_kinds),
    F(rmg__zone, "owner", RMG__F_INT, owner),
    FA(rmg__zone, "size", RMG__F_DOUBLE, size),
    FS(rmg__zone, "players", players, filter_schema),
    FE(rmg__zone, "placement", placement, placements),
    F(rmg__zone, "allow_noncoherent_roads", RMG__F_BOOL, allow_noncoherent_roads),
    F(rmg__zone, "repulsion", RMG__F_BOOL, repulsion),
    F(rmg__zone, "neutral_only", RMG__F_BOOL, neutral_only),
    FG("player_towns", player_towns_group),
    FG("neutral_towns", neutral_towns_group),
    FM(rmg__zone, "allowed_towns", allowed_towns, rmg__faction_names),
    F(rmg__zone, "all_towns_banned", RMG__F_BOOL, all_towns_banned),
    {"allowed_factions", RMG__F_OPTMASK, offsetof(rmg__zone, allowed_factions),
     offsetof(rmg__zone, allowed_factions_set), NULL, &rmg__faction_names, 0, false, NULL},
    {"mines", RMG__F_MINES, offsetof(rmg__zone, mines_min), offsetof(rmg__zone, mines_density), NULL, NULL, 0,
     false, NULL},
    FG("terrain", terrain_group),
    FG("monsters", monster_group),
    {"treasure", RMG__F_FIXED, offsetof(rmg__zone, treasure), 0, &treasure_schema, NULL, 3, false, NULL},
    FG("airship_yards", airship_group),
    F(rmg__zone, "max_block_value", RMG__F_INT64, max_block_value),
    FL(rmg__zone, "rules", rules.items, rules.count, rule_schema),
    FL(rmg__zone, "type_rules", type_rules, n_type_rules, type_rule_schema),
    FL(rmg__zone, "mirror_links", mirror_links, n_mirror_links, mirror_schema),
    FG("raw", raw_group),
};
SCHEMA(zone_schema, "zone", rmg__zone, init_zone, zone_fields, offsetof(rmg__zone, loc), false);

static const rmg__field connection_fields[] = {
    FA(rmg__connection, "a", RMG__F_INT, zone_a),
    FA(rmg__connection, "b", RMG__F_INT, zone_b),
    FE(rmg__connection, "type", type, connection_types),
    FA(rmg__connection, "value", RMG__F_INT64, value),
    FE(rmg__connection, "placement", placement, link_placements),
    FE(rmg__connection, "roads", roads, road_settings),
    F(rmg__connection, "monolith_repulsion", RMG__F_BOOL, monolith_repulsion),
    FS(rmg__connection, "players", players, filter_schema),
};
SCHEMA(connection_schema, "connection", rmg__connection, init_connection, connection_fields,
       offsetof(rmg__connection, loc), true);

static const rmg__field template_fields[] = {
    FA(rmg__template, "name", RMG__F_STR, name),
    FA(rmg__template, "min_size", RMG__F_INT, min_size),
    FA(rmg__template, "max_size", RMG__F_INT, max_size),
    FS(rmg__template, "players", players, filter_schema),
    FM(rmg__template, "water", water_allowed, water_levels),
    F(rmg__template, "special_weeks", RMG__F_BOOL, special_weeks),
    F(rmg__template, "spell_research", RMG__F_BOOL, spell_research),
    F(rmg__template, "anarchy", RMG__F_BOOL, anarchy),
    F(rmg__template, "rock_masses", RMG__F_BOOL, rock_masses),
    F(rmg__template, "rock_radius", RMG__F_DOUBLE, rock_radius),
    F(rmg__template, "zone_sparseness", RMG__F_DOUBLE, zone_sparseness),
    F(rmg__template, "artifacts", RMG__F_OVERRIDES, artifacts),
    F(rmg__template, "combo_artifacts", RMG__F_OVERRIDES, combo_artifacts),
    F(rmg__template, "spells", RMG__F_OVERRIDES, spells),
    F(rmg__template, "skills", RMG__F_OVERRIDES, skills),
    FL(rmg__template, "rules", rules.items, rules.count, rule_schema),
    FL(rmg__template, "zones", zones, n_zones, zone_schema),
    FL(rmg__template, "connections", connections, n_connections, connection_schema),
};
SCHEMA(template_schema, "template", rmg__template, init_template, template_fields,
       offsetof(rmg__template, loc), false);

/* The layout of the h3t file a pack came from (rmg convert writes .h3t in it again). */
static const rmg__field h3t_columns_fields[] = {
    F(rmg__h3t_counts, "towns", RMG__F_INT, towns),
    F(rmg__h3t_counts, "terrains", RMG__F_INT, terrains),
    F(rmg__h3t_counts, "zone_types", RMG__F_INT, zone_types),
    F(rmg__h3t_counts, "pack", RMG__F_INT, pack),
    F(rmg__h3t_counts, "map", RMG__F_INT, map),
    F(rmg__h3t_counts, "zone", RMG__F_INT, zone),
    F(rmg__h3t_counts, "connection", RMG__F_INT, connection),
};
SCHEMA(h3t_columns_schema, "h3t columns", rmg__h3t_counts, init_zero, h3t_columns_fields, RMG__NO_LOC, true);

static const rmg__field pack_fields[] = {
    FA(struct rmg_pack, "name", RMG__F_STR, name),
    F(struct rmg_pack, "description", RMG__F_STR, description),
    F(struct rmg_pack, "tags", RMG__F_STR, tags),
    F(struct rmg_pack, "mirror", RMG__F_BOOL, mirror),
    F(struct rmg_pack, "max_battle_rounds", RMG__F_INT, max_battle_rounds),
    F(struct rmg_pack, "forbid_hiring_heroes", RMG__F_BOOL, forbid_hiring_heroes),
    F(struct rmg_pack, "heroes", RMG__F_OVERRIDES, heroes),
    FM(struct rmg_pack, "allowed_towns", allowed_towns, rmg__faction_names),
    FS(struct rmg_pack, "h3t_columns", h3t_columns, h3t_columns_schema),
    FL(struct rmg_pack, "templates", templates, n_templates, template_schema),
};
const rmg__schema rmg__pack_schema = {"pack", sizeof(struct rmg_pack), init_zero, pack_fields,
                                      RMG__ARRAY_LEN(pack_fields), RMG__NO_LOC, false};

_Static_assert(sizeof(rmg__zone) <= RMG__SCHEMA_MAX_ELEM, "default instances live on the stack");
_Static_assert(sizeof(rmg__template) <= RMG__SCHEMA_MAX_ELEM, "default instances live on the stack");
_Static_assert(sizeof(struct rmg_pack) <= RMG__SCHEMA_MAX_ELEM, "default instances live on the stack");

const char *rmg__field_text(const rmg__field *f, const void *obj)
{
    const char *s = *(const char *const *)(const void *)((const unsigned char *)obj + f->off);
    return s && f->redundant && f->redundant(obj) ? NULL : s;
}

/* ---- equality ------------------------------------------------------------------------------ */

#define AT(p, off, T) ((const T *)(const void *)((const unsigned char *)(p) + (off)))

static void path_push(char *path, size_t len, const char *key, long index)
{
    size_t n = strlen(path);
    if (n >= len)
        return;
    if (index >= 0)
        snprintf(path + n, len - n, "%s%s[%ld]", n ? "." : "", key, index);
    else
        snprintf(path + n, len - n, "%s%s", n ? "." : "", key);
}

static void path_pop(char *path, size_t len, size_t keep)
{
    if (len && keep < len)
        path[keep] = '\0';
}

static bool str_equal(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static bool overrides_equal(const rmg__override_list *a, const rmg__override_list *b)
{
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++)
        if (a->items[i].id != b->items[i].id || a->items[i].allow != b->items[i].allow)
            return false;
    return true;
}

static bool elements_equal(const rmg__field *f, const void *a, const void *b, size_t count, char *path,
                           size_t pathlen)
{
    size_t keep = strlen(path);
    for (size_t i = 0; i < count; i++) {
        path_push(path, pathlen, f->key, (long)i);
        if (!rmg__schema_equal(f->sub, AT(a, i * f->sub->size, unsigned char),
                               AT(b, i * f->sub->size, unsigned char), path, pathlen))
            return false;
        path_pop(path, pathlen, keep);
    }
    return true;
}

static bool list_equal(const rmg__field *f, const void *a, const void *b, char *path, size_t pathlen)
{
    size_t na = *AT(a, f->off2, size_t), nb = *AT(b, f->off2, size_t);
    if (na != nb) {
        path_push(path, pathlen, f->key, -1);
        size_t n = strlen(path);
        if (n < pathlen)
            snprintf(path + n, pathlen - n, " (count %zu vs %zu)", na, nb);
        return false;
    }
    return elements_equal(f, *AT(a, f->off, void *const), *AT(b, f->off, void *const), na, path, pathlen);
}

static bool scalar_equal(const rmg__field *f, const void *a, const void *b)
{
    switch (f->kind) {
    case RMG__F_INT:
    case RMG__F_ENUM:
        return *AT(a, f->off, int) == *AT(b, f->off, int);
    case RMG__F_INT64:
    case RMG__F_PARAM:
        return *AT(a, f->off, int64_t) == *AT(b, f->off, int64_t);
    case RMG__F_DOUBLE:
        return *AT(a, f->off, double) == *AT(b, f->off, double);
    case RMG__F_BOOL:
        return *AT(a, f->off, bool) == *AT(b, f->off, bool);
    case RMG__F_STR:
        return str_equal(rmg__field_text(f, a), rmg__field_text(f, b));
    case RMG__F_MASK:
        return *AT(a, f->off, uint32_t) == *AT(b, f->off, uint32_t);
    case RMG__F_OPTMASK: /* the mask means something only when it is set */
        return *AT(a, f->off2, bool) == *AT(b, f->off2, bool) &&
               (!*AT(a, f->off2, bool) || *AT(a, f->off, uint32_t) == *AT(b, f->off, uint32_t));
    case RMG__F_MINES:
        return memcmp(AT(a, f->off, int), AT(b, f->off, int), 7 * sizeof(int)) == 0 &&
               memcmp(AT(a, f->off2, int), AT(b, f->off2, int), 7 * sizeof(int)) == 0;
    case RMG__F_OVERRIDES:
        return overrides_equal(AT(a, f->off, rmg__override_list), AT(b, f->off, rmg__override_list));
    default:
        return false;
    }
}

bool rmg__field_equal(const rmg__field *f, const void *a, const void *b, char *path, size_t pathlen)
{
    size_t keep = strlen(path);
    switch (f->kind) {
    case RMG__F_GROUP:
        path_push(path, pathlen, f->key, -1);
        if (!rmg__schema_equal(f->sub, a, b, path, pathlen))
            return false;
        break;
    case RMG__F_SUB:
        path_push(path, pathlen, f->key, -1);
        if (!rmg__schema_equal(f->sub, AT(a, f->off, unsigned char), AT(b, f->off, unsigned char), path, pathlen))
            return false;
        break;
    case RMG__F_LIST:
        return list_equal(f, a, b, path, pathlen);
    case RMG__F_FIXED:
        return elements_equal(f, AT(a, f->off, unsigned char), AT(b, f->off, unsigned char), f->fixed, path,
                              pathlen);
    default:
        if (!scalar_equal(f, a, b)) {
            path_push(path, pathlen, f->key, -1);
            return false;
        }
        break;
    }
    path_pop(path, pathlen, keep);
    return true;
}

bool rmg__schema_equal(const rmg__schema *s, const void *a, const void *b, char *path, size_t pathlen)
{
    for (size_t i = 0; i < s->n_fields; i++)
        if (!rmg__field_equal(&s->fields[i], a, b, path, pathlen))
            return false;
    return true;
}

bool rmg__pack_equal(const struct rmg_pack *a, const struct rmg_pack *b, char *why, size_t whylen)
{
    char local[512];
    char *path = why && whylen ? why : local;
    size_t len = why && whylen ? whylen : sizeof local;
    path[0] = '\0';
    return rmg__schema_equal(&rmg__pack_schema, a, b, path, len);
}

void rmg__format_double(double d, char *buf, size_t len)
{
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(buf, len, "%.0f", d);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}
