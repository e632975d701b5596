/*
 * Template validation, like a careful template editor: hard errors (the template cannot be
 * generated as written) and warnings (it can, but probably not as meant). Every message names
 * the file and line/column (row/column for h3t) and the template, zone or connection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg/content.h"
#include "schema.h"
#include "validate.h"

#define MAX_PLAYERS 8
#define NEUTRAL_BIT (1u << RMG_FACTION_NEUTRAL)

struct rmg_validation {
    rmg_context *ctx;
    rmg__arena arena;
    rmg_message *items;
    size_t count, errors;
};

/* "file:LINE:COL: " as compilers write it, whatever the format: for the tab-separated formats
 * LINE is the row and COL the cell (as a spreadsheet shows them). */
static void location_prefix(const struct rmg_pack *p, const rmg__srcloc *loc, char *buf, size_t len)
{
    const char *file = p->file ? p->file : "<template>";
    if (!loc || loc->line <= 0)
        snprintf(buf, len, "%s: ", file);
    else if (loc->column <= 0)
        snprintf(buf, len, "%s:%d: ", file, loc->line);
    else
        snprintf(buf, len, "%s:%d:%d: ", file, loc->line, loc->column);
}

void rmg__check_report(rmg__checker *ck, rmg_severity severity, const char *code, const rmg__srcloc *loc, int zone,
                       int connection, const char *fmt, ...)
{
    if (ck->status != RMG_OK || (ck->errors_only && severity != RMG_SEVERITY_ERROR))
        return;
    char msg[700], where[300], subject[200] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    location_prefix(ck->pack, loc, where, sizeof where);
    if (ck->template_index >= 0) {
        const rmg__template *t = &ck->pack->templates[ck->template_index];
        size_t n = (size_t)snprintf(subject, sizeof subject, "template '%s'", t->name ? t->name : "");
        if (zone >= 0 && n < sizeof subject)
            n += (size_t)snprintf(subject + n, sizeof subject - n, ", zone %d", zone);
        if (connection >= 0 && n < sizeof subject)
            snprintf(subject + n, sizeof subject - n, ", connection %d", connection + 1);
    }
    char text[1300];
    snprintf(text, sizeof text, "%s%s: %s%s%s", where, severity == RMG_SEVERITY_ERROR ? "error" : "warning", subject,
             subject[0] ? ": " : "", msg);
    struct rmg_validation *v = ck->out;
    char *copy = rmg__arena_strdup(&v->arena, text);
    rmg_message *m = copy ? rmg__arena_grow(&v->arena, (void **)&v->items, &v->count, sizeof *m) : NULL;
    if (!m) {
        ck->status = rmg__error_nomem(v->ctx);
        return;
    }
    m->struct_size = sizeof *m;
    m->severity = severity;
    m->code = code;
    m->text = copy;
    m->file = ck->pack->file;
    m->line = loc ? loc->line : 0;
    m->column = loc ? loc->column : 0;
    m->template_index = ck->template_index;
    m->zone = zone;
    m->connection = connection;
    if (severity == RMG_SEVERITY_ERROR)
        v->errors++;
}

#define ERR(ck, code, loc, zone, conn, ...) rmg__check_report(ck, RMG_SEVERITY_ERROR, code, loc, zone, conn, __VA_ARGS__)
#define WARN(ck, code, loc, zone, conn, ...) \
    rmg__check_report(ck, RMG_SEVERITY_WARNING, code, loc, zone, conn, __VA_ARGS__)

void *rmg__check_alloc(rmg__checker *ck, size_t count, size_t size)
{
    size_t bytes;
    void *p = ck->status == RMG_OK && rmg__mul_ok(count ? count : 1, size, &bytes)
                  ? rmg__arena_alloc(&ck->out->arena, bytes)
                  : NULL;
    if (!p && ck->status == RMG_OK)
        ck->status = rmg__error_nomem(ck->out->ctx);
    return p;
}

/* Sorted zone numbers, so lookups stay O(log n) even for huge templates. */
static bool index_zones(rmg__checker *ck, const rmg__template *t)
{
    ck->zone_keys = rmg__check_alloc(ck, t->n_zones, sizeof *ck->zone_keys);
    ck->n_zone_keys = ck->zone_keys ? t->n_zones : 0;
    if (!ck->zone_keys)
        return false;
    rmg__zone_keys_sort(t, ck->zone_keys);
    return true;
}

long rmg__check_find_zone(const rmg__checker *ck, int id)
{
    const rmg__zone_key *k = rmg__zone_keys_find(ck->zone_keys, ck->n_zone_keys, id);
    return k ? (long)k->index : -1;
}

/* ---- template settings ---------------------------------------------------------------------- */

static void check_filter(rmg__checker *ck, const rmg__player_filter *f, const rmg__srcloc *loc, int zone, int conn)
{
    const int v[4] = {f->min_human, f->max_human, f->min_total, f->max_total};
    for (int i = 0; i < 4; i++)
        if (v[i] < 0 || v[i] > MAX_PLAYERS)
            ERR(ck, "players-range", loc, zone, conn, "player restriction %d is outside 0..%d", v[i], MAX_PLAYERS);
    if (f->min_human && f->max_human && f->min_human > f->max_human)
        ERR(ck, "players-range", loc, zone, conn, "minimum humans %d exceeds maximum %d", f->min_human, f->max_human);
    if (f->min_total && f->max_total && f->min_total > f->max_total)
        ERR(ck, "players-range", loc, zone, conn, "minimum players %d exceeds maximum %d", f->min_total,
            f->max_total);
}

static void check_settings(rmg__checker *ck, const rmg__template *t)
{
    if (!t->name || !t->name[0])
        WARN(ck, "template-name", &t->loc, -1, -1, "the template has no name");
    if (t->min_size < 0 || t->max_size < 0 || t->min_size > t->max_size)
        ERR(ck, "size-range", &t->loc, -1, -1, "the size range %d..%d (minimum and maximum size codes) is empty or "
            "negative", t->min_size, t->max_size);
    check_filter(ck, &t->players, &t->loc, -1, -1);
    if (!isfinite(t->zone_sparseness) || t->zone_sparseness < 0)
        ERR(ck, "value-range", &t->loc, -1, -1, "zone sparseness %g must be a non-negative number",
            t->zone_sparseness);
    if (t->rock_masses && (!isfinite(t->rock_radius) || t->rock_radius < 0))
        ERR(ck, "value-range", &t->loc, -1, -1, "rock radius %g must be a non-negative number", t->rock_radius);
    if (t->damage)
        ERR(ck, "truncated", &t->damage_loc, -1, -1, "%s", t->damage);
    if (!t->n_zones) /* real packs hold such templates; the game skips them, and so does rmg generate */
        WARN(ck, "no-zones", &t->loc, -1, -1, "the template has no zones: it is never chosen");
}

/* ---- zones ---------------------------------------------------------------------------------- */

static void check_nonnegative(rmg__checker *ck, const rmg__zone *z, const char *what, int64_t v)
{
    if (v < 0)
        ERR(ck, "value-range", &z->loc, z->id, -1, "%s is negative (%lld)", what, (long long)v);
}

/* The largest map the template accepts holds fewer towns than its tiles / RMG__TOWN_TILES. */
static void check_town_room(rmg__checker *ck, const rmg__template *t, const rmg__zone *z)
{
    int64_t towns = (int64_t)RMG__MAX(z->player_towns, 0) + RMG__MAX(z->player_castles, 0) +
                    RMG__MAX(z->neutral_towns, 0) + RMG__MAX(z->neutral_castles, 0);
    int64_t room = (int64_t)RMG__MAX(t->max_size, 1) * RMG__SIZE_CODE_TILES / RMG__TOWN_TILES;
    char size[24];
    if (towns > room)
        ERR(ck, "value-range", &z->loc, z->id, -1,
            "asks for at least %lld towns, more than the largest map of the template (%s) can hold (%lld)",
            (long long)towns, rmg__size_name(t->max_size, size, sizeof size), (long long)room);
}

static void check_zone_counts(rmg__checker *ck, const rmg__zone *z)
{
    const struct { const char *what; int v; } counts[] = {
        {"player towns", z->player_towns}, {"player castles", z->player_castles},
        {"player town density", z->player_town_density}, {"player castle density", z->player_castle_density},
        {"neutral towns", z->neutral_towns}, {"neutral castles", z->neutral_castles},
        {"neutral town density", z->neutral_town_density}, {"neutral castle density", z->neutral_castle_density},
        {"airship yard minimum", z->airship_min}, {"airship yard density", z->airship_density},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(counts); i++)
        check_nonnegative(ck, z, counts[i].what, counts[i].v);
    for (long r = 0; r < 7; r++) {
        char what[48];
        snprintf(what, sizeof what, "%s mine minimum", rmg__names_get(&rmg__resource_names, r));
        check_nonnegative(ck, z, what, z->mines_min[r]);
        snprintf(what, sizeof what, "%s mine density", rmg__names_get(&rmg__resource_names, r));
        check_nonnegative(ck, z, what, z->mines_density[r]);
    }
}

static void check_treasure(rmg__checker *ck, const rmg__zone *z)
{
    for (int i = 0; i < 3; i++) {
        const rmg__treasure *tr = &z->treasure[i];
        if (tr->min < 0 || tr->max < 0 || tr->density < 0)
            ERR(ck, "treasure-range", &z->loc, z->id, -1, "treasure range %d has a negative value", i + 1);
        else if (tr->min > tr->max)
            ERR(ck, "treasure-range", &z->loc, z->id, -1, "treasure range %d: min %lld exceeds max %lld", i + 1,
                (long long)tr->min, (long long)tr->max);
        else if (tr->density > 0 && tr->max == 0)
            WARN(ck, "treasure-range", &z->loc, z->id, -1, "treasure range %d has a density but no value", i + 1);
    }
}

static void check_zone_kind(rmg__checker *ck, const rmg__zone *z)
{
    bool start = z->kind == RMG_ZONE_HUMAN_START || z->kind == RMG_ZONE_COMPUTER_START;
    if ((int)z->kind < RMG_ZONE_HUMAN_START || z->kind > RMG_ZONE_ROCK)
        ERR(ck, "value-range", &z->loc, z->id, -1, "unknown zone kind %d", (int)z->kind);
    if (start && (z->owner < 0 || z->owner > MAX_PLAYERS))
        ERR(ck, "owner-range", &z->loc, z->id, -1, "owner %d is outside 1..%d", z->owner, MAX_PLAYERS);
    else if (start && !z->owner)
        WARN(ck, "owner-range", &z->loc, z->id, -1, "a start zone without an owner hosts no player");
    if (!start && z->owner)
        WARN(ck, "owner-range", &z->loc, z->id, -1, "owner %d is ignored: the zone is not a start zone", z->owner);
    if (start && !z->player_towns && !z->player_castles)
        WARN(ck, "no-player-town", &z->loc, z->id, -1, "a start zone without a player town or castle");
}

static void check_monsters(rmg__checker *ck, const rmg__zone *z)
{
    if (z->join_percent < 0 || z->join_percent > 100)
        ERR(ck, "value-range", &z->loc, z->id, -1, "join percent %d is outside 0..100", z->join_percent);
    if (z->mood == RMG_MOOD_EXACT && (z->mood_value < 0 || z->mood_value > 10))
        ERR(ck, "value-range", &z->loc, z->id, -1, "exact monster mood %d is outside 0..10 (ZON-24)", z->mood_value);
    if ((int)z->monster_strength < RMG_MONSTERS_NONE || z->monster_strength > RMG_MONSTERS_STRONG)
        ERR(ck, "value-range", &z->loc, z->id, -1, "unknown monster strength %d", (int)z->monster_strength);
    if ((int)z->mood < RMG_MOOD_COMPLIANT || z->mood > RMG_MOOD_EXACT)
        ERR(ck, "value-range", &z->loc, z->id, -1, "unknown monster mood %d", (int)z->mood);
    if ((int)z->placement < RMG_PLACEMENT_ANY || z->placement > RMG_PLACEMENT_UNDERGROUND)
        ERR(ck, "value-range", &z->loc, z->id, -1, "unknown zone placement %d", (int)z->placement);
}

static void check_factions(rmg__checker *ck, const rmg__zone *z)
{
    if (z->allowed_towns & NEUTRAL_BIT)
        ERR(ck, "neutral-town", &z->loc, z->id, -1, "'neutral' is not a town type");
    if (z->allowed_factions_set && (z->allowed_factions & NEUTRAL_BIT))
        ERR(ck, "neutral-faction", &z->loc, z->id, -1, "'neutral' cannot be chosen through allowed factions (ZON-09)");
    if (z->allowed_factions_set && !z->allowed_factions)
        ERR(ck, "neutral-faction", &z->loc, z->id, -1, "allowed factions is set but empty");
    bool towns = z->player_towns > 0 || z->player_castles > 0 || z->neutral_towns > 0 || z->neutral_castles > 0 ||
                 z->player_town_density > 0 || z->player_castle_density > 0 || z->neutral_town_density > 0 ||
                 z->neutral_castle_density > 0;
    if (z->all_towns_banned && z->allowed_towns)
        WARN(ck, "all-towns-banned", &z->loc, z->id, -1, "'all towns banned' is ignored: the zone lists allowed towns");
    else if (z->all_towns_banned && towns)
        WARN(ck, "all-towns-banned", &z->loc, z->id, -1,
             "every town type is banned but the zone has towns: they take any type");
}

static void check_kept_settings(rmg__checker *ck, const rmg__zone *z)
{
    if (z->max_block_value)
        WARN(ck, "unsupported", &z->loc, z->id, -1, "'max block value' (%lld) is kept but not acted on",
             (long long)z->max_block_value);
    if (z->min_objects_raw && z->min_objects_raw[0])
        WARN(ck, "unsupported", &z->loc, z->id, -1, "'minimum objects' (%s) is kept but not acted on",
             z->min_objects_raw);
}

static void check_zones(rmg__checker *ck, const rmg__template *t)
{
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        if (z->id <= 0)
            ERR(ck, "zone-id", &z->loc, z->id, -1, "zone numbers must be positive");
        long first = rmg__check_find_zone(ck, z->id);
        if (first >= 0 && (size_t)first != i)
            ERR(ck, "duplicate-zone", &z->loc, z->id, -1, "zone number %d is used twice (first at line %d)", z->id,
                t->zones[first].loc.line);
        if (!(z->size > 0) || !isfinite(z->size))
            ERR(ck, "zone-size", &z->loc, z->id, -1, "zone size %g must be a positive number", z->size);
        check_filter(ck, &z->players, &z->loc, z->id, -1);
        check_zone_kind(ck, z);
        check_zone_counts(ck, z);
        check_town_room(ck, t, z);
        check_treasure(ck, z);
        check_monsters(ck, z);
        check_factions(ck, z);
        check_kept_settings(ck, z);
    }
}

/* ---- connections ---------------------------------------------------------------------------- */

static void check_connections(rmg__checker *ck, const rmg__template *t)
{
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        int ci = (int)i;
        if (c->zone_a == 0 && c->zone_b == 0) {
            WARN(ck, "placeholder", &c->loc, -1, ci, "a connection between zones 0 and 0 is a placeholder and ignored");
            continue;
        }
        if (rmg__check_find_zone(ck, c->zone_a) < 0)
            ERR(ck, "dangling-zone", &c->loc, -1, ci, "connects zone %d, which does not exist", c->zone_a);
        if (rmg__check_find_zone(ck, c->zone_b) < 0)
            ERR(ck, "dangling-zone", &c->loc, -1, ci, "connects zone %d, which does not exist", c->zone_b);
        if (c->zone_a == c->zone_b)
            WARN(ck, "self-connection", &c->loc, -1, ci, "connects zone %d with itself", c->zone_a);
        if (c->value < 0)
            ERR(ck, "value-range", &c->loc, -1, ci, "guard value %lld is negative", (long long)c->value);
        if ((int)c->type < RMG_CONNECTION_STANDARD || c->type > RMG_CONNECTION_FICTIVE)
            ERR(ck, "value-range", &c->loc, -1, ci, "unknown connection type %d", (int)c->type);
        if ((int)c->placement < RMG_LINK_DEFAULT || c->placement > RMG_LINK_RANDOM)
            ERR(ck, "value-range", &c->loc, -1, ci, "unknown connection placement %d", (int)c->placement);
        if ((int)c->roads < RMG_ROAD_SETTING_FORBIDDEN || c->roads > RMG_ROAD_SETTING_MANDATORY)
            ERR(ck, "value-range", &c->loc, -1, ci, "unknown road setting %d", (int)c->roads);
        if (c->type == RMG_CONNECTION_BORDER_GUARD)
            WARN(ck, "border-guard", &c->loc, -1, ci,
                 "border-guard connections fall back to standard when colours run out (CON-05)");
        check_filter(ck, &c->players, &c->loc, -1, ci);
    }
}

static size_t find_root(size_t *parent, size_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* Zones that no real (non-fictive) connection path links to the first zone (union-find, so
 * the check is near-linear in zones + connections). */
static void check_reachable(rmg__checker *ck, const rmg__template *t)
{
    if (t->n_zones < 2)
        return;
    for (size_t i = 0; i < t->n_zones; i++)
        if (t->zones[i].n_mirror_links)
            return; /* mirror templates join their levels through links, not connections */
    size_t *parent = rmg__check_alloc(ck, t->n_zones, sizeof *parent);
    if (!parent)
        return;
    for (size_t i = 0; i < t->n_zones; i++)
        parent[i] = i;
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        long a = rmg__check_find_zone(ck, c->zone_a), b = rmg__check_find_zone(ck, c->zone_b);
        if (c->type != RMG_CONNECTION_FICTIVE && a >= 0 && b >= 0)
            parent[find_root(parent, (size_t)a)] = find_root(parent, (size_t)b);
    }
    size_t home = find_root(parent, 0);
    for (size_t i = 0; i < t->n_zones; i++)
        if (find_root(parent, i) != home)
            WARN(ck, "unreachable", &t->zones[i].loc, t->zones[i].id, -1,
                 "no real connection path leads here from zone %d", t->zones[0].id);
}

/* ---- type rules (ZON-10..21) ---------------------------------------------------------------- */

static bool is_faction_ref(rmg_type_rule_kind k, bool second)
{
    if (k == RMG_TYPE_RULE_FACTION_SAME)
        return true;
    return !second && (k == RMG_TYPE_RULE_FACTION_TOWN || k == RMG_TYPE_RULE_FACTION_TERRAIN);
}

static void check_rule_zone(rmg__checker *ck, const rmg__template *t, const rmg__zone *owner,
                            const rmg__type_rule *r, int zone_id, bool second)
{
    long zi = rmg__check_find_zone(ck, zone_id);
    if (zi < 0) {
        ERR(ck, "dangling-zone", &r->loc, owner->id, -1, "type rule names zone %d, which does not exist", zone_id);
        return;
    }
    if (is_faction_ref(r->kind, second) && t->zones[zi].neutral_only)
        ERR(ck, "neutral-faction-rule", &r->loc, owner->id, -1,
            "a faction rule names the faction of zone %d, which is neutral only (ZON-17)", zone_id);
}

/* Which side of a rule is a town reference (the other sides name a zone's terrain/faction). */
static bool is_town_ref(rmg_type_rule_kind k, bool second)
{
    if (k == RMG_TYPE_RULE_TOWN_SAME)
        return true;
    if (k == RMG_TYPE_RULE_TOWN_NATIVE)
        return !second;
    return second && (k == RMG_TYPE_RULE_TERRAIN_NATIVE || k == RMG_TYPE_RULE_FACTION_TOWN);
}

/* A town reference names towns the zone is sure to have: its player towns (-1) or one of its
 * minimum neutral towns (k >= 0). Towns from densities may not exist (ZON-18). */
static void check_town_ref(rmg__checker *ck, const rmg__template *t, const rmg__zone *owner, const rmg__type_rule *r,
                           int zone_id, int town)
{
    long zi = rmg__check_find_zone(ck, zone_id);
    if (zi < 0 || town < -1)
        return; /* dangling zones are reported already; < -1 are importer codes for "all towns" */
    const rmg__zone *z = &t->zones[zi];
    if (town == -1 && !z->player_towns && !z->player_castles)
        WARN(ck, "town-ref", &r->loc, owner->id, -1, "a type rule names the player towns of zone %d, which has none",
             zone_id);
    int neutral = z->neutral_towns + z->neutral_castles;
    if (town >= 0 && town >= neutral)
        WARN(ck, "town-ref", &r->loc, owner->id, -1,
             "a type rule names neutral town %d of zone %d, which has %d minimum neutral town(s)", town, zone_id,
             neutral);
}

static bool is_symmetric(rmg_type_rule_kind k)
{
    return k == RMG_TYPE_RULE_TOWN_SAME || k == RMG_TYPE_RULE_TERRAIN_SAME || k == RMG_TYPE_RULE_FACTION_SAME;
}

/* A type rule with its subjects in a canonical order (symmetric kinds sort their two sides). */
typedef struct rule_key {
    int kind, za, ta, zb, tb;
    bool negate;
    size_t zone, rule;             /* position, for file order and messages */
} rule_key;

static int compare_rule_keys(const void *a, const void *b)
{
    const rule_key *x = a, *y = b;
    const int xs[5] = {x->kind, x->za, x->ta, x->zb, x->tb}, ys[5] = {y->kind, y->za, y->ta, y->zb, y->tb};
    for (int i = 0; i < 5; i++)
        if (xs[i] != ys[i])
            return xs[i] < ys[i] ? -1 : 1;
    if (x->zone != y->zone)
        return x->zone < y->zone ? -1 : 1;
    return x->rule < y->rule ? -1 : x->rule > y->rule;
}

static rule_key make_rule_key(const rmg__type_rule *r, size_t zone, size_t rule)
{
    rule_key k = {(int)r->kind, r->zone_a, r->town_a, r->zone_b, r->town_b, r->negate, zone, rule};
    if (is_symmetric(r->kind) && (k.zb < k.za || (k.zb == k.za && k.tb < k.ta))) {
        k.za = r->zone_b, k.ta = r->town_b;
        k.zb = r->zone_a, k.tb = r->town_a;
    }
    return k;
}

/* "X == Y" together with "X != Y", or "X != X": no assignment can satisfy them. Sorting the
 * rules by subject finds the pairs in O(n log n). */
static void check_contradictions(rmg__checker *ck, const rmg__template *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        n += t->zones[i].n_type_rules;
    rule_key *keys = n ? rmg__check_alloc(ck, n, sizeof *keys) : NULL;
    if (!keys)
        return;
    size_t k = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        for (size_t j = 0; j < t->zones[i].n_type_rules; j++) {
            const rmg__type_rule *r = &t->zones[i].type_rules[j];
            keys[k++] = make_rule_key(r, i, j);
            if (is_symmetric(r->kind) && r->negate && r->zone_a == r->zone_b && r->town_a == r->town_b &&
                r->town_a >= -1)
                ERR(ck, "contradictory-rule", &r->loc, t->zones[i].id, -1,
                    "a type rule requires a value to differ from itself");
        }
    qsort(keys, n, sizeof *keys, compare_rule_keys);
    for (size_t g = 0; g < n;) {
        size_t end = g + 1;
        while (end < n && keys[end].kind == keys[g].kind && keys[end].za == keys[g].za && keys[end].ta == keys[g].ta &&
               keys[end].zb == keys[g].zb && keys[end].tb == keys[g].tb)
            end++;
        const rmg__zone *z0 = &t->zones[keys[g].zone];
        for (size_t m = g + 1; m < end; m++)
            if (keys[m].negate != keys[g].negate) {
                const rmg__zone *zm = &t->zones[keys[m].zone];
                ERR(ck, "contradictory-rule", &zm->type_rules[keys[m].rule].loc, zm->id, -1,
                    "this type rule contradicts the one at line %d (zone %d)", z0->type_rules[keys[g].rule].loc.line,
                    z0->id);
            }
        g = end;
    }
}

static void check_type_rules(rmg__checker *ck, const rmg__template *t)
{
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        for (size_t k = 0; k < z->n_type_rules; k++) {
            const rmg__type_rule *r = &z->type_rules[k];
            if ((int)r->kind < RMG_TYPE_RULE_TOWN_SAME || r->kind > RMG_TYPE_RULE_FACTION_TERRAIN) {
                ERR(ck, "value-range", &r->loc, z->id, -1, "unknown type rule kind %d", (int)r->kind);
                continue;
            }
            check_rule_zone(ck, t, z, r, r->zone_a, false);
            check_rule_zone(ck, t, z, r, r->zone_b, true);
            if (is_town_ref(r->kind, false))
                check_town_ref(ck, t, z, r, r->zone_a, r->town_a);
            if (is_town_ref(r->kind, true))
                check_town_ref(ck, t, z, r, r->zone_b, r->town_b);
        }
    }
    check_contradictions(ck, t);
}

/* ---- object rules (RUL, OBJ-15) ------------------------------------------------------------- */

static void check_rule(rmg__checker *ck, const rmg__rule *r, int zone)
{
    if ((int)r->op != RMG_RULE_FORBID && r->op != RMG_RULE_ALLOW) {
        ERR(ck, "value-range", &r->loc, zone, -1, "unknown rule operation %d", (int)r->op);
        return;
    }
    bool allow = r->op == RMG_RULE_ALLOW;
    switch (r->target) {
    case RMG_TARGET_ALL:
        if (allow)
            ERR(ck, "rule-target", &r->loc, zone, -1, "'allow' needs a target: only 'forbid' may address all objects");
        break;
    case RMG_TARGET_OBJECT:
        if (!r->object || !r->object[0])
            ERR(ck, "rule-target", &r->loc, zone, -1, "an object rule without an object key");
        break;
    case RMG_TARGET_FAMILY:
        if (!r->family || !r->family[0])
            ERR(ck, "rule-target", &r->loc, zone, -1, "a family rule without a family");
        break;
    case RMG_TARGET_CREATURE:
        if (!r->creature || !r->creature[0])
            ERR(ck, "rule-target", &r->loc, zone, -1, "a creature rule without a creature");
        break;
    case RMG_TARGET_CREATURE_LEVEL:
        if (r->level < 1 || r->level > 7)
            ERR(ck, "rule-target", &r->loc, zone, -1, "creature level %d is outside 1..7", r->level);
        break;
    case RMG_TARGET_CUSTOM:
        if (allow && r->value == RMG__PARAM_DEFAULT)
            ERR(ck, "rule-custom-default", &r->loc, zone, -1, "a custom variant needs an explicit value (OBJ-15)");
        break;
    default:
        ERR(ck, "value-range", &r->loc, zone, -1, "unknown rule target %d", (int)r->target);
        return;
    }
    bool creature = r->target == RMG_TARGET_CREATURE || r->target == RMG_TARGET_CREATURE_LEVEL;
    if (allow && creature && r->value != RMG__PARAM_DEFAULT)
        WARN(ck, "rule-value-ignored", &r->loc, zone, -1,
             "the value of creature objects comes from formulas and is ignored (OBJ-06, RUL-09)");
    const int64_t params[] = {r->value, r->frequency, r->max_map, r->max_zone};
    for (size_t i = 0; i < RMG__ARRAY_LEN(params); i++)
        if (params[i] != RMG__PARAM_DEFAULT && params[i] < RMG__PARAM_UNLIMITED)
            ERR(ck, "value-range", &r->loc, zone, -1, "a rule parameter is negative (%lld)", (long long)params[i]);
}

static void check_object_rules(rmg__checker *ck, const rmg__template *t)
{
    for (size_t i = 0; i < t->rules.count; i++)
        check_rule(ck, &t->rules.items[i], -1);
    for (size_t z = 0; z < t->n_zones; z++)
        for (size_t i = 0; i < t->zones[z].rules.count; i++)
            check_rule(ck, &t->zones[z].rules.items[i], t->zones[z].id);
}

/* ---- mirror templates (WAT-03..07, ZON-29..36) ---------------------------------------------- */

static int teleport_width(rmg_teleport_kind k)
{
    return k == RMG_TELEPORT_GATE ? 3 : k == RMG_TELEPORT_NONE ? 0 : 1;
}

static void check_mirror(rmg__checker *ck, const rmg__template *t)
{
    size_t links = 0;
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        links += z->n_mirror_links;
        if (z->n_mirror_links && !ck->pack->mirror) /* SoD's h3dm1 and mirror files: the game plays them */
            WARN(ck, "mirror-not-mirror", &z->loc, z->id, -1,
                 "mirror links (connection rows with Zone 2 = -1) in a pack that is not a mirror pack are ignored, as "
                 "the game does");
        if (z->n_mirror_links && z->placement == RMG_PLACEMENT_UNDERGROUND)
            ERR(ck, "mirror-underground", &z->loc, z->id, -1, "mirror links belong to surface zones (ZON-29)");
        for (size_t k = 0; k < z->n_mirror_links; k++) {
            const rmg__mirror_link *m = &z->mirror_links[k];
            if ((int)m->surface_kind < RMG_TELEPORT_NONE || m->surface_kind > RMG_TELEPORT_GATE ||
                (int)m->underground_kind < RMG_TELEPORT_NONE || m->underground_kind > RMG_TELEPORT_GATE)
                ERR(ck, "value-range", &m->loc, z->id, -1, "unknown teleport kind in a mirror link");
            else if (teleport_width(m->surface_kind) != teleport_width(m->underground_kind))
                WARN(ck, "mirror-width", &m->loc, z->id, -1,
                     "the two teleports of a mirror link differ in width (ZON-32)");
            if (m->value < 0)
                ERR(ck, "value-range", &m->loc, z->id, -1, "mirror link value is negative");
        }
    }
    if (ck->pack->mirror && !links)
        WARN(ck, "mirror-no-links", &t->loc, -1, -1, "a mirror template without mirror links leaves the levels "
             "disconnected (WAT-05)");
}

static void check_players(rmg__checker *ck, const rmg__template *t)
{
    int starts = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        starts += t->zones[i].kind == RMG_ZONE_HUMAN_START || t->zones[i].kind == RMG_ZONE_COMPUTER_START;
    if (t->n_zones && !starts)
        WARN(ck, "no-start-zone", &t->loc, -1, -1, "no start zone: no player can start on this template");
}

/* ---- water maps (WAT-01, PLC-17/18) ----------------------------------------------------------- */

/* Whether the check covers a water level: the one asked for, else one the template names. */
static bool water_checked(const rmg__checker *ck, const rmg__template *t)
{
    if (ck->water >= 0)
        return ck->water != RMG_WATER_NONE;
    uint32_t wet = (1u << RMG_WATER_NORMAL) | (1u << RMG_WATER_ISLANDS);
    return (t->water_allowed & wet) != 0;
}

/* What the guide warns about on water maps. */
static void check_water(rmg__checker *ck, const rmg__template *t)
{
    if (!water_checked(ck, t))
        return;
    WARN(ck, "water", &t->loc, -1, -1,
         "on water maps the guide warns that generation is imperfect and the maps usually unplayable (WAT-01); "
         "librmg puts a shipyard (or a boat) on a coast of every player's land for each sea it touches, so "
         "every map it hands out can be crossed, but links realized over water carry no road (CON-16) and "
         "sea content is guarded as on land");
    if (t->rock_masses)
        WARN(ck, "water-rock", &t->loc, -1, -1,
             "rock masses: on water maps the surface gets water zones instead and rock_radius %g does not act on "
             "them (PLC-17); the underground keeps its rock masses", t->rock_radius > 0 ? t->rock_radius : 1.0);
    if (t->zone_sparseness != 0)
        WARN(ck, "water-sparseness", &t->loc, -1, -1,
             "zone sparseness %g was tuned for one water level; the guide says it must be found again when the "
             "water changes (PLC-18)", t->zone_sparseness);
}

/* The checks, in order. Other modules append theirs here (see validate.h). `warns` marks the
 * checks that only ever warn: the generator's error check (rmg__template_errors) skips them. */
static const struct {
    rmg__template_check fn;
    bool warns;
} checks[] = {
    {check_settings, false},         {check_zones, false},         {check_connections, false},
    {check_reachable, true},         {check_type_rules, false},    {check_object_rules, false},
    {check_mirror, false},           {check_players, true},        {check_water, true},
    {rmg__check_rule_names, false},  {rmg__check_treasure_starvation, true}, {rmg__check_treasure_crowding, true},
    {rmg__check_rule_effects, true},
};

static void check_pack(rmg__checker *ck, const struct rmg_pack *p)
{
    ck->template_index = -1;
    if (!p->n_templates)
        ERR(ck, "no-templates", NULL, -1, -1, "the pack has no templates");
    if (p->max_battle_rounds < 0)
        ERR(ck, "value-range", NULL, -1, -1, "max battle rounds %d is negative", p->max_battle_rounds);
    if (p->allowed_towns & NEUTRAL_BIT)
        ERR(ck, "neutral-town", NULL, -1, -1, "'neutral' is not a town type");
    for (size_t i = 0; i < p->n_load_errors; i++) {
        const rmg__load_note *e = &p->load_errors[i];
        ERR(ck, e->status == RMG_ERR_INVALID_DATA ? "invalid-data" : "parse", &e->loc, -1, -1, "%s", e->text);
    }
    for (size_t i = 0; i < p->n_warnings; i++) {
        const rmg__load_note *n = p->warning_notes ? &p->warning_notes[i] : NULL;
        WARN(ck, "load", n && n->loc.line ? &n->loc : NULL, -1, -1, "%s", n ? n->text : p->warnings[i]);
    }
}

static rmg_status validate_for(const rmg_pack *pack, int water, rmg_validation **out);

static void check_template(rmg__checker *ck, size_t t)
{
    ck->template_index = (long)t;
    if (!index_zones(ck, &ck->pack->templates[t]))
        return;
    for (size_t k = 0; k < RMG__ARRAY_LEN(checks) && ck->status == RMG_OK; k++)
        if (!(ck->errors_only && checks[k].warns))
            checks[k].fn(ck, &ck->pack->templates[t]);
}

/* Runs the pack checks and those of template `only` (every template when -1) into a new result. */
static rmg_status validate(const rmg_pack *pack, long only, bool errors_only, int water, rmg_validation **out)
{
    struct rmg_validation *v = rmg__calloc(pack->ctx, 1, sizeof *v);
    if (!v)
        return rmg__error_nomem(pack->ctx);
    v->ctx = rmg__context_retain(pack->ctx); /* given back by rmg_validation_destroy */
    rmg__arena_init(&v->arena, pack->ctx, 16 * 1024);
    rmg__checker ck = {pack, v, RMG_OK, -1, NULL, 0, errors_only, water};
    check_pack(&ck, pack);
    for (size_t t = 0; t < pack->n_templates && ck.status == RMG_OK; t++)
        if (only < 0 || (size_t)only == t)
            check_template(&ck, t);
    if (ck.status != RMG_OK) {
        rmg_validation_destroy(v);
        return ck.status;
    }
    *out = v;
    return RMG_OK;
}

RMG_API rmg_status rmg_pack_validate(const rmg_pack *pack, rmg_validation **out)
{
    return validate_for(pack, -1, out);
}

RMG_API rmg_status rmg_pack_validate_water(const rmg_pack *pack, rmg_water_level water, rmg_validation **out)
{
    if ((unsigned)water > RMG_WATER_ISLANDS) {
        if (out)
            *out = NULL;
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_validate_water: unknown water level %d",
                                     (int)water)
                    : RMG_ERR_INVALID_ARG;
    }
    return validate_for(pack, (int)water, out);
}

static rmg_status validate_for(const rmg_pack *pack, int water, rmg_validation **out)
{
    if (out)
        *out = NULL;
    if (!pack || !out)
        return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "rmg_pack_validate: NULL argument")
                    : RMG_ERR_INVALID_ARG;
    return validate(pack, -1, false, water, out);
}

rmg_status rmg__template_errors(const struct rmg_pack *pack, size_t t, struct rmg_validation **out)
{
    *out = NULL;
    return validate(pack, (long)t, true, -1, out);
}

RMG_API size_t rmg_validation_count(const rmg_validation *v)
{
    return v ? v->count : 0;
}

RMG_API size_t rmg_validation_error_count(const rmg_validation *v)
{
    return v ? v->errors : 0;
}

RMG_API rmg_status rmg_validation_get(const rmg_validation *v, size_t index, rmg_message *out)
{
    if (!v || !out || out->struct_size < sizeof(size_t))
        return RMG_ERR_INVALID_ARG;
    if (index >= v->count)
        return RMG_ERR_NOT_FOUND;
    size_t n = RMG__MIN(out->struct_size, sizeof *out);
    memcpy((unsigned char *)out + sizeof(size_t), (const unsigned char *)&v->items[index] + sizeof(size_t),
           n - sizeof(size_t));
    return RMG_OK;
}

RMG_API void rmg_validation_destroy(rmg_validation *v)
{
    if (!v)
        return;
    rmg_context *ctx = v->ctx;
    rmg__arena_free(&v->arena);
    rmg__free(ctx, v);
    rmg__context_release(ctx);
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_message_init(rmg_message *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->template_index = -1;
    info->zone = -1;
    info->connection = -1;
}
