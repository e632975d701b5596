/*
 * What a template accepts (PCK-02): the size and player filters of templates, zones and
 * connections. The select stage (lib/select) draws among the templates that accept a setup.
 *
 * Acceptance fields (the spec leaves them to the implementer, PCK-02 [impl]):
 *   - size: the h3t size code (side/36)^2 x (2 if underground) lies in [min_size, max_size];
 *     with no size given, some standard size (S..G) with the requested levels must fit;
 *   - players: the template's player filter accepts (players, humans), and enough start zones
 *     with an owner are active for that setup (human_start zones can host humans or
 *     computers, computer_start zones only computers); with no player count given, some count
 *     does;
 *   - water: the template's water mask (0 = any) contains the requested level.
 *   - mirror packs need an underground level (WAT-06): they refuse one-level setups and are
 *     checked with two levels when the level count is open.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "rmg/map.h"

#define MAX_PLAYERS 8

static const int standard_sides[] = {36, 72, 108, 144, 180, 216, 252}; /* S, M, L, XL, H, XH, G */

int rmg__size_code(int width, int height, int levels)
{
    return (width / 36) * (height / 36) * (levels == 2 ? 2 : 1);
}

static const char *const standard_names[] = {"S", "M", "L", "XL", "H", "XH", "G"};

const char *rmg__size_name(int code, char *buf, size_t len)
{
    for (int levels = 1; levels <= 2; levels++)
        for (size_t i = 0; i < RMG__ARRAY_LEN(standard_sides); i++)
            if (rmg__size_code(standard_sides[i], standard_sides[i], levels) == code) {
                snprintf(buf, len, "%s%s", standard_names[i], levels == 2 ? "+U" : "");
                return buf;
            }
    snprintf(buf, len, "size code %d", code);
    return buf;
}

const char *rmg__size_range_name(int lo, int hi, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "sizes");
    int shown = 0;
    for (int code = RMG__MAX(lo, 1); code <= hi && code <= 98 && n < len; code++) {
        char name[24];
        if (strncmp(rmg__size_name(code, name, sizeof name), "size code", 9) == 0)
            continue;
        n += (size_t)snprintf(buf + n, len - n, "%s %s", shown++ ? "," : "", name);
    }
    if (!shown)
        snprintf(buf, len, "no standard size");
    n = strlen(buf);
    if (n < len)
        snprintf(buf + n, len - n, " (size codes %d..%d)", lo, hi);
    return buf;
}

RMG_API int rmg_size_code(int width, int height, int levels)
{
    return rmg__size_code(width, height, levels);
}

/* Whether `word` occurs in s, ignoring case. */
static bool names_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == word[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

rmg_water_level rmg__template_water(const rmg__template *t, rmg_water_level asked)
{
    if (asked != RMG_WATER_TEMPLATE)
        return asked;
    if (!t->water_allowed) {
        /* No filter (the .h3t and rmg.txt formats have none): the name the author gave it says
         * whether it is a water template ("Jebus Cross Water", "... Islands"). */
        if (names_word(t->name, "island"))
            return RMG_WATER_ISLANDS;
        return names_word(t->name, "water") ? RMG_WATER_NORMAL : RMG_WATER_NONE;
    }
    for (int level = RMG_WATER_NONE; level <= RMG_WATER_ISLANDS; level++)
        if (t->water_allowed & (1u << level))
            return (rmg_water_level)level;
    return RMG_WATER_NONE; /* a filter that accepts none of the three: the filter refuses it */
}

bool rmg__filter_accepts(const rmg__player_filter *f, int players, int humans)
{
    return (!f->min_human || humans >= f->min_human) && (!f->max_human || humans <= f->max_human) &&
           (!f->min_total || players >= f->min_total) && (!f->max_total || players <= f->max_total);
}

bool rmg__zone_active(const rmg__zone *z, int players, int humans)
{
    return rmg__filter_accepts(&z->players, players, humans);
}

bool rmg__connection_active(const rmg__connection *c, int players, int humans)
{
    return rmg__filter_accepts(&c->players, players, humans);
}

static bool size_fits(const rmg__template *t, const rmg_generate_options *o, char *why, size_t whylen)
{
    for (int levels = 1; levels <= 2; levels++) {
        if (o->levels && o->levels != levels)
            continue;
        if (o->width > 0 && o->height > 0) {
            int code = rmg__size_code(o->width, o->height, levels);
            if (code >= t->min_size && code <= t->max_size)
                return true;
            continue;
        }
        for (size_t i = 0; i < RMG__ARRAY_LEN(standard_sides); i++) {
            int code = rmg__size_code(standard_sides[i], standard_sides[i], levels);
            if (code >= t->min_size && code <= t->max_size)
                return true;
        }
    }
    if (why) {
        char range[200], size[24];
        rmg__size_range_name(t->min_size, t->max_size, range, sizeof range);
        char size2[24];
        if (o->width > 0 && o->height > 0 && o->levels)
            snprintf(why, whylen, "it is for %s, not %s", range,
                     rmg__size_name(rmg__size_code(o->width, o->height, o->levels), size, sizeof size));
        else if (o->width > 0 && o->height > 0)
            snprintf(why, whylen, "it is for %s, neither %s nor %s", range,
                     rmg__size_name(rmg__size_code(o->width, o->height, 1), size, sizeof size),
                     rmg__size_name(rmg__size_code(o->width, o->height, 2), size2, sizeof size2));
        else
            snprintf(why, whylen, "it is for %s, none of them %s", range,
                     o->levels == 2 ? "with an underground" : o->levels == 1 ? "without an underground" : "standard");
    }
    return false;
}

/* Whether `players` players with `humans` humans can start in this template. */
static bool players_fit(const rmg__template *t, int players, int humans)
{
    if (!rmg__filter_accepts(&t->players, players, humans))
        return false;
    int human_slots = 0, slots = 0;
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        if (!rmg__zone_active(z, players, humans) || z->owner < 1)
            continue;
        if (z->kind == RMG_ZONE_HUMAN_START)
            human_slots++, slots++;
        else if (z->kind == RMG_ZONE_COMPUTER_START)
            slots++;
    }
    return human_slots >= humans && slots >= players;
}

bool rmg__template_fits(const rmg__template *t, const rmg_generate_options *o, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (!size_fits(t, o, why, whylen))
        return false;
    int humans = o->humans > 0 ? o->humans : 1;
    bool ok = false;
    if (o->players > 0)
        ok = players_fit(t, o->players, humans);
    else
        for (int p = humans; p <= MAX_PLAYERS && !ok; p++)
            ok = players_fit(t, p, humans);
    if (!ok) {
        if (why && o->players > 0)
            snprintf(why, whylen, "its start zones and restrictions leave no room for the %d player%s asked for "
                     "(%d human)", o->players, o->players == 1 ? "" : "s", humans);
        else if (why)
            snprintf(why, whylen, "no number of players leaves room for %d human player%s in its start zones and "
                     "restrictions", humans, humans == 1 ? "" : "s");
        return false;
    }
    /* The template's choice (RMG_WATER_TEMPLATE) is a level it accepts by definition. */
    if (o->water != RMG_WATER_TEMPLATE && t->water_allowed && !(t->water_allowed & (1u << ((unsigned)o->water & 31)))) {
        static const char *const water[] = {"no water", "normal water", "islands"};
        if (why)
            snprintf(why, whylen, "it does not allow %s", (unsigned)o->water < 3 ? water[o->water] : "this water level");
        return false;
    }
    return true;
}


/* Union-find root with path halving. */
static size_t root_of(size_t *parent, size_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

int rmg__template_unjoined_zone(const rmg__template *t, int players, int humans, bool starts_only, size_t *parent,
                                int *home_id)
{
    for (size_t i = 0; i < t->n_zones; i++)
        parent[i] = i;
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        long a = rmg__template_find_zone(t, c->zone_a), b = rmg__template_find_zone(t, c->zone_b);
        if (a < 0 || b < 0 || c->type == RMG_CONNECTION_FICTIVE || !rmg__connection_active(c, players, humans) ||
            !rmg__zone_active(&t->zones[a], players, humans) || !rmg__zone_active(&t->zones[b], players, humans))
            continue;
        parent[root_of(parent, (size_t)a)] = root_of(parent, (size_t)b);
    }
    /* The component of the first active start zone (else of the first active zone). */
    long home = -1;
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        if (!rmg__zone_active(z, players, humans))
            continue;
        if (home < 0 || (z->owner > 0 && t->zones[home].owner < 1))
            home = (long)i;
    }
    if (home_id)
        *home_id = home >= 0 ? t->zones[home].id : 0;
    for (size_t i = 0; home >= 0 && i < t->n_zones; i++)
        if (rmg__zone_active(&t->zones[i], players, humans) && (!starts_only || t->zones[i].owner > 0) &&
            root_of(parent, i) != root_of(parent, (size_t)home))
            return t->zones[i].id;
    return 0;
}
