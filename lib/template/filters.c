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

RMG_API int rmg_size_code(int width, int height, int levels)
{
    return rmg__size_code(width, height, levels);
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
        if (o->width > 0 && o->height > 0)
            snprintf(why, whylen, "size code %d is outside %d..%d",
                     rmg__size_code(o->width, o->height, o->levels ? o->levels : 1), t->min_size, t->max_size);
        else
            snprintf(why, whylen, "no map size fits its size codes %d..%d", t->min_size, t->max_size);
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
        if (why)
            snprintf(why, whylen, "it has no room for %d player(s) with %d human(s)", o->players, humans);
        return false;
    }
    if (t->water_allowed && !(t->water_allowed & (1u << ((unsigned)o->water & 31)))) {
        if (why)
            snprintf(why, whylen, "it does not allow water level %d", (int)o->water);
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
