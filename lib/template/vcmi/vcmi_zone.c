/* VCMI JSON importer: the zones of a template (every key of a zone object). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/content_internal.h"
#include "template/schema.h"
#include "vcmi.h"

#define MAX_COUNT 100            /* towns, castles, densities, mines per resource */
#define MAX_VALUE 100000000      /* treasure values */
#define MAX_DENSITY 1000

/* ---- name lists -> masks --------------------------------------------------------------------------- */

typedef enum mask_kind { MASK_TOWNS, MASK_MONSTERS, MASK_TERRAINS } mask_kind;

/* Everything a list of this kind can name: the default when only a ban list is given. */
static uint32_t full_mask(const struct rmg_content *c, mask_kind kind)
{
    uint32_t m = 0;
    if (kind == MASK_TERRAINS) {
        for (size_t i = 0; i < c->n_terrains; i++)
            if (c->terrains[i].land && c->terrains[i].id < 32)
                m |= 1u << c->terrains[i].id;
        return m;
    }
    for (size_t i = 0; i < c->n_factions; i++)
        if (c->factions[i].is_town && c->factions[i].id < 32)
            m |= 1u << c->factions[i].id;
    return kind == MASK_MONSTERS ? m | (1u << RMG_FACTION_NEUTRAL) : m;
}

/* Bit of one name, or 0 (with a warning) when it has no HotA meaning here. */
static rmg_status name_bit(rmg__vcmi *r, const rmg__json *e, int zone, mask_kind kind, const char *what,
                           uint32_t *bit)
{
    const char *name = rmg__vcmi_unscoped(e->string);
    long i;
    int id = -1;
    *bit = 0;
    if (kind == MASK_TERRAINS) {
        /* VCMI calls the underground terrain "subterra". */
        i = rmg__content_find_terrain(r->content, strcmp(name, "subterra") == 0 ? "subterranean" : name);
        if (i >= 0 && r->content->terrains[i].land)
            id = r->content->terrains[i].id;
    } else {
        i = rmg__content_find_faction(r->content, name);
        if (i >= 0 && (r->content->factions[i].is_town || kind == MASK_MONSTERS))
            id = r->content->factions[i].id;
        if (i >= 0 && !r->content->factions[i].is_town && kind == MASK_TOWNS)
            return rmg__vcmi_warn(r, e, zone, "'%s': '%.40s' is not a town type: ignored", what, e->string);
    }
    if (id < 0 || id > 31)
        return rmg__vcmi_warn(r, e, zone, "'%s' names '%.40s', which the game data does not know as a %s: ignored",
                              what, e->string, kind == MASK_TERRAINS ? "land terrain" : "faction");
    *bit = 1u << id;
    return RMG_OK;
}

static rmg_status read_names(rmg__vcmi *r, const rmg__json *v, int zone, mask_kind kind, const char *what,
                             uint32_t *mask)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, zone, what);
    *mask = 0;
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        uint32_t bit = 0;
        if ((st = rmg__vcmi_expect(r, &v->items[i], RMG__JSON_STRING, zone, what)) == RMG_OK)
            st = name_bit(r, &v->items[i], zone, kind, what, &bit);
        *mask |= bit;
    }
    return st;
}

/* allowed (or everything) minus banned; 0 when that is everything (the model's "unrestricted"). */
static rmg_status allowed_minus_banned(rmg__vcmi *r, const rmg__json_member *allowed, const rmg__json_member *banned,
                                       int zone, mask_kind kind, uint32_t *out)
{
    *out = 0;
    if (!allowed && !banned)
        return RMG_OK;
    uint32_t all = full_mask(r->content, kind), yes = all, no = 0;
    rmg_status st = RMG_OK;
    if (allowed && (st = read_names(r, &allowed->value, zone, kind, allowed->key, &yes)) != RMG_OK)
        return st;
    if (allowed && !yes)   /* every name unknown (warned): no usable restriction */
        yes = all;
    if (banned && (st = read_names(r, &banned->value, zone, kind, banned->key, &no)) != RMG_OK)
        return st;
    uint32_t m = yes & ~no;
    if (!m)
        return rmg__vcmi_error(r, allowed ? &allowed->value : &banned->value, zone, "'%s'%s%s leave%s nothing allowed",
                               allowed ? allowed->key : banned->key, allowed && banned ? " and " : "",
                               allowed && banned ? banned->key : "", allowed && banned ? "" : "s");
    *out = m == all ? 0 : m;
    return RMG_OK;
}

/* ---- single keys ------------------------------------------------------------------------------------ */

static rmg_status read_kind(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, z->id, "type");
    if (st != RMG_OK)
        return st;
    static const struct { const char *name; rmg_zone_kind kind; } kinds[] = {
        {"playerStart", RMG_ZONE_HUMAN_START}, {"cpuStart", RMG_ZONE_COMPUTER_START},
        {"treasure", RMG_ZONE_TREASURE},       {"junction", RMG_ZONE_JUNCTION},
        {"water", RMG_ZONE_WATER},             {"sealed", RMG_ZONE_ROCK},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(kinds); i++) {
        if (strcmp(v->string, kinds[i].name) != 0)
            continue;
        z->kind = kinds[i].kind;
        if (z->kind == RMG_ZONE_WATER)
            return rmg__vcmi_warn(r, v, z->id, "a 'water' zone is kept as a water zone (HotA templates have none: "
                                  "the generator adds its own water)");
        if (z->kind == RMG_ZONE_ROCK)
            return rmg__vcmi_warn(r, v, z->id, "a 'sealed' zone (filled with obstacles) is read as a rock zone");
        return RMG_OK;
    }
    return rmg__vcmi_error(r, v, z->id, "unknown zone type '%.40s' (playerStart, cpuStart, treasure, junction, water "
                           "or sealed)", v->string);
}

static rmg_status read_size(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_NUMBER, z->id, "size");
    if (st == RMG_OK && !(v->number > 0 && v->number <= 1e6))
        st = rmg__vcmi_error(r, v, z->id, "'size' = %g must be a positive relative size up to 1000000", v->number);
    if (st == RMG_OK)
        z->size = v->number;
    return st;
}

static rmg_status read_choice(rmg__vcmi *r, const rmg__json *v, int zone, const char *what,
                              const char *const *names, size_t n, size_t *out)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, zone, what);
    if (st != RMG_OK)
        return st;
    const rmg__names choices = {names, n};
    long found = rmg__names_find(&choices, v->string);
    if (found >= 0) {
        *out = (size_t)found;
        return RMG_OK;
    }
    char list[160] = "";
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(list);
        snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", names[i]);
    }
    return rmg__vcmi_error(r, v, zone, "'%s' = '%.40s' is not one of %s", what, v->string, list);
}

static rmg_status read_monsters(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    static const char *const names[] = {"none", "weak", "normal", "strong"};
    static const rmg_monster_strength map[] = {RMG_MONSTERS_NONE, RMG_MONSTERS_WEAK, RMG_MONSTERS_MEDIUM,
                                               RMG_MONSTERS_STRONG};
    size_t i = 0;
    rmg_status st = read_choice(r, v, z->id, "monsters", names, RMG__ARRAY_LEN(names), &i);
    if (st == RMG_OK)
        z->monster_strength = map[i];
    return st;
}

static rmg_status read_level(rmg__vcmi *r, rmg__zone *z, const rmg__json_member *m)
{
    static const char *const names[] = {"automatic", "surface", "underground"};
    static const rmg_zone_placement map[] = {RMG_PLACEMENT_ANY, RMG_PLACEMENT_SURFACE, RMG_PLACEMENT_UNDERGROUND};
    size_t i = 0;
    rmg_status st = read_choice(r, &m->value, z->id, m->key, names, RMG__ARRAY_LEN(names), &i);
    if (st == RMG_OK)
        z->placement = map[i];
    return st;
}

static rmg_status read_bool(rmg__vcmi *r, const rmg__json *v, int zone, const char *what, bool *out)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_BOOL, zone, what);
    if (st == RMG_OK)
        *out = v->boolean;
    return st;
}

/* playerTowns / neutralTowns: {towns, castles, townDensity, castleDensity} (MIS-06..09). */
static rmg_status read_towns(rmg__vcmi *r, rmg__zone *z, const rmg__json_member *m)
{
    bool player = strcmp(m->key, "playerTowns") == 0;
    int *dst[4] = {player ? &z->player_towns : &z->neutral_towns, player ? &z->player_castles : &z->neutral_castles,
                   player ? &z->player_town_density : &z->neutral_town_density,
                   player ? &z->player_castle_density : &z->neutral_castle_density};
    static const char *const keys[4] = {"towns", "castles", "townDensity", "castleDensity"};
    const rmg__names key_names = {keys, 4};
    const rmg__json *v = &m->value;
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, m->key);
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *e = &v->members[i];
        long k = rmg__names_find(&key_names, e->key);
        if (k < 0)
            st = rmg__vcmi_unknown_key(r, e, z->id, player ? "'playerTowns'" : "'neutralTowns'");
        else
            st = rmg__vcmi_small_int(r, &e->value, 0, MAX_COUNT, z->id, e->key, dst[k]);
    }
    return st;
}

static rmg_status read_mines(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "mines");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *e = &v->members[i];
        long k = rmg__names_find(&rmg__resource_names, rmg__vcmi_unscoped(e->key));
        if (k < 0)
            st = rmg__vcmi_warn(r, &e->value, z->id, "mines of '%.60s': not a HotA resource, ignored", e->key);
        else
            st = rmg__vcmi_small_int(r, &e->value, 0, MAX_COUNT, z->id, e->key, &z->mines_min[k]);
    }
    return st;
}

static rmg_status read_treasure_range(rmg__vcmi *r, rmg__zone *z, const rmg__json *v, rmg__treasure *tr)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "treasure range");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *e = &v->members[i];
        if (strcmp(e->key, "min") == 0)
            st = rmg__vcmi_int(r, &e->value, 0, MAX_VALUE, z->id, "min", &tr->min);
        else if (strcmp(e->key, "max") == 0)
            st = rmg__vcmi_int(r, &e->value, 0, MAX_VALUE, z->id, "max", &tr->max);
        else if (strcmp(e->key, "density") == 0)
            st = rmg__vcmi_int(r, &e->value, 0, MAX_DENSITY, z->id, "density", &tr->density);
        else
            st = rmg__vcmi_unknown_key(r, e, z->id, "a treasure range");
    }
    if (st == RMG_OK && tr->min > tr->max)
        st = rmg__vcmi_error(r, v, z->id, "treasure range with min %lld above max %lld", (long long)tr->min,
                             (long long)tr->max);
    return st;
}

static rmg_status read_treasure(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, z->id, "treasure");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        rmg__treasure spare = {0, 0, 0};
        st = read_treasure_range(r, z, &v->items[i], i < 3 ? &z->treasure[i] : &spare);
        if (st == RMG_OK && i == 3)
            st = rmg__vcmi_warn(r, &v->items[i], z->id, "%zu treasure ranges: HotA zones have three, the ranges "
                                "from the fourth on are not imported", v->count);
    }
    return st;
}

/* ---- one zone -------------------------------------------------------------------------------------- */

static const struct { const char *key; rmg__vcmi_like group; } like_keys[] = {
    {"townsLikeZone", RMG__VCMI_LIKE_TOWNS},       {"minesLikeZone", RMG__VCMI_LIKE_MINES},
    {"terrainTypeLikeZone", RMG__VCMI_LIKE_TERRAIN}, {"treasureLikeZone", RMG__VCMI_LIKE_TREASURE},
    {"customObjectsLikeZone", RMG__VCMI_LIKE_OBJECTS},
};

/* The keys whose value a *LikeZone reference replaces (for the "both given" warning). */
static const struct { const char *key; rmg__vcmi_like group; } own_keys[] = {
    {"playerTowns", RMG__VCMI_LIKE_TOWNS},   {"neutralTowns", RMG__VCMI_LIKE_TOWNS},
    {"townsAreSameType", RMG__VCMI_LIKE_TOWNS}, {"mines", RMG__VCMI_LIKE_MINES},
    {"terrainTypes", RMG__VCMI_LIKE_TERRAIN}, {"bannedTerrains", RMG__VCMI_LIKE_TERRAIN},
    {"treasure", RMG__VCMI_LIKE_TREASURE},   {"customObjects", RMG__VCMI_LIKE_OBJECTS},
};

/* Keys read as pairs (allowed/banned) by read_masks, and keys remembered for later passes. */
static bool read_elsewhere(const char *k)
{
    static const char *const keys[] = {"allowedTowns", "bannedTowns", "terrainTypes", "bannedTerrains",
                                       "allowedMonsters", "bannedMonsters", "townHints"};
    for (size_t i = 0; i < RMG__ARRAY_LEN(keys); i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

static bool note_references(rmg__vcmi_zone *x, const rmg__json_member *m)
{
    for (size_t i = 0; i < RMG__ARRAY_LEN(own_keys); i++)
        if (strcmp(m->key, own_keys[i].key) == 0)
            x->own[own_keys[i].group] = &m->value;
    for (size_t i = 0; i < RMG__ARRAY_LEN(like_keys); i++) {
        if (strcmp(m->key, like_keys[i].key) == 0) {
            x->like[like_keys[i].group] = &m->value;
            return true;
        }
    }
    if (strcmp(m->key, "townHints") == 0)
        x->hints = &m->value;
    return false;
}

static rmg_status read_zone_key(rmg__vcmi *r, rmg__zone *z, rmg__vcmi_zone *x, const rmg__json_member *m)
{
    const rmg__json *v = &m->value;
    const char *k = m->key;
    if (note_references(x, m) || read_elsewhere(k) || strcmp(k, "type") == 0)
        return RMG_OK;
    if (strcmp(k, "size") == 0)
        return read_size(r, z, v);
    if (strcmp(k, "owner") == 0)
        return rmg__vcmi_small_int(r, v, 1, 8, z->id, "owner", &z->owner);
    if (strcmp(k, "playerTowns") == 0 || strcmp(k, "neutralTowns") == 0)
        return read_towns(r, z, m);
    if (strcmp(k, "townsAreSameType") == 0)
        return read_bool(r, v, z->id, k, &z->towns_same_type);
    if (strcmp(k, "matchTerrainToTown") == 0)
        return read_bool(r, v, z->id, k, &z->terrain_match_town);
    if (strcmp(k, "monsters") == 0)
        return read_monsters(r, z, v);
    if (strcmp(k, "mines") == 0)
        return read_mines(r, z, v);
    if (strcmp(k, "treasure") == 0)
        return read_treasure(r, z, v);
    if (strcmp(k, "customObjects") == 0)
        return rmg__vcmi_read_objects(r, z, v);
    if (strcmp(k, "forcedLevel") == 0 || strcmp(k, "level") == 0)
        return read_level(r, z, m);
    if (strcmp(k, "visiblePositionX") == 0 || strcmp(k, "visiblePositionY") == 0 || strcmp(k, "visibleSize") == 0)
        return rmg__vcmi_warn(r, v, z->id, "'%s' (template editor layout) has no HotA equivalent: ignored", k);
    return rmg__vcmi_unknown_key(r, m, z->id, "the zone");
}

static rmg_status read_masks(rmg__vcmi *r, rmg__zone *z, const rmg__json *v)
{
    rmg_status st = allowed_minus_banned(r, rmg__json_find(v, "allowedTowns"), rmg__json_find(v, "bannedTowns"),
                                         z->id, MASK_TOWNS, &z->allowed_towns);
    if (st == RMG_OK)
        st = allowed_minus_banned(r, rmg__json_find(v, "terrainTypes"), rmg__json_find(v, "bannedTerrains"), z->id,
                                  MASK_TERRAINS, &z->allowed_terrains);
    if (st == RMG_OK)
        st = allowed_minus_banned(r, rmg__json_find(v, "allowedMonsters"), rmg__json_find(v, "bannedMonsters"),
                                  z->id, MASK_MONSTERS, &z->monster_factions);
    return st;
}

static rmg_status read_zone(rmg__vcmi *r, rmg__zone *z, rmg__vcmi_zone *x)
{
    const rmg__json *v = &x->node->value;
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, z->id, "a zone");
    if (st != RMG_OK)
        return st;
    const rmg__json_member *type = rmg__json_find(v, "type");
    if (!type)
        return rmg__vcmi_error(r, v, z->id, "the zone has no 'type'");
    /* VCMI defaults that differ from the HotA editor's: terrain follows the town. */
    z->terrain_match_town = true;
    if ((st = read_kind(r, z, &type->value)) != RMG_OK)
        return st;
    for (size_t i = 0; i < v->count && st == RMG_OK; i++)
        st = read_zone_key(r, z, x, &v->members[i]);
    if (st == RMG_OK)
        st = read_masks(r, z, v);
    return st;
}

/* Zone ids are the object keys: positive integers ("1", "12"). */
static rmg_status zone_id(rmg__vcmi *r, const rmg__json_member *m, int *id)
{
    if (rmg__vcmi_parse_id(m->key, id))
        return RMG_OK;
    rmg__json at = {.line = m->line, .column = m->column};
    return rmg__vcmi_error(r, &at, 0, "zone id '%.40s' is not a positive whole number", m->key);
}

/* Sorted (id, index) pairs for lookups; two keys with the same number ("1" and "01") are an
 * error at the later one. O(n log n) so a file with very many zones stays fast. */
static rmg_status index_zones(rmg__vcmi *r, const rmg__template *t, const rmg__json *zones)
{
    size_t n = t->n_zones, bytes;
    if (!rmg__mul_ok(n ? n : 1, sizeof(rmg__zone_key), &bytes) || !(r->ids = rmg__arena_alloc(&r->scratch, bytes)))
        return rmg__error_nomem(r->ctx);
    rmg__zone_keys_sort(t, r->ids);
    r->n_ids = n;
    size_t first = n, again = n;
    for (size_t i = 1; i < n; i++) {
        if (r->ids[i].id == r->ids[i - 1].id && (again == n || r->ids[i].index < again)) {
            again = r->ids[i].index;
            first = r->ids[i - 1].index;
        }
    }
    if (again == n)
        return RMG_OK;
    const rmg__json_member *m = &zones->members[again];
    rmg__json at = {.line = m->line, .column = m->column};
    return rmg__vcmi_error(r, &at, t->zones[again].id, "zone id '%.40s' is zone %d again (first at line %d, column %d)",
                           m->key, t->zones[again].id, t->zones[first].loc.line, t->zones[first].loc.column);
}

long rmg__vcmi_find_zone(const rmg__vcmi *r, int id)
{
    const rmg__zone_key *k = rmg__zone_keys_find(r->ids, r->n_ids, id);
    return k ? (long)k->index : -1;
}

rmg_status rmg__vcmi_read_zones(rmg__vcmi *r, rmg__template *t, const rmg__json *zones, rmg__vcmi_zone *extra)
{
    r->n_ids = 0;
    for (size_t i = 0; i < zones->count; i++) {
        const rmg__json_member *m = &zones->members[i];
        int id;
        rmg_status st = zone_id(r, m, &id);
        if (st != RMG_OK)
            return st;
        rmg__zone *z = rmg__template_add_zone(r->pack, t);
        if (!z)
            return rmg__error_nomem(r->ctx);
        z->id = id;
        z->loc = (rmg__srcloc){m->line, m->column};
        memset(&extra[i], 0, sizeof extra[i]);
        extra[i].node = m;
        if ((st = read_zone(r, z, &extra[i])) != RMG_OK)
            return st;
    }
    return index_zones(r, t, zones);
}
