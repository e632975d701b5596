/*
 * Template selection (PCK-02) and the restriction filters of zones and connections.
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
 * Weights: uniform among the templates that fit, drawn from the given RNG stream.
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

static rmg_status none_fits(const struct rmg_pack *pack, const rmg_generate_options *o)
{
    char reasons[700] = "";
    size_t used = 0;
    for (size_t i = 0; i < pack->n_templates && i < 4; i++) {
        char why[160];
        rmg__template_fits(&pack->templates[i], o, why, sizeof why);
        int n = snprintf(reasons + used, sizeof reasons - used, "; '%s': %s",
                         pack->templates[i].name ? pack->templates[i].name : "?", why);
        if (n < 0 || (size_t)n >= sizeof reasons - used)
            break;
        used += (size_t)n;
    }
    return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND,
                          "no template of pack '%s' fits the setup (%dx%d, %d level(s), %d player(s), %d human(s), "
                          "water %d)%s%s",
                          pack->name ? pack->name : "", o->width, o->height, o->levels ? o->levels : 1, o->players,
                          o->humans > 0 ? o->humans : 1, (int)o->water, reasons,
                          pack->n_templates > 4 ? "; ..." : "");
}

static rmg_status select_by_name(const struct rmg_pack *pack, const rmg_generate_options *o,
                                 const rmg__template **out)
{
    for (size_t i = 0; i < pack->n_templates; i++) {
        const rmg__template *t = &pack->templates[i];
        if (!t->name || strcmp(t->name, o->template_name) != 0)
            continue;
        char why[160];
        if (!rmg__template_fits(t, o, why, sizeof why))
            return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "template '%s' does not fit the setup: %s",
                                  o->template_name, why);
        *out = t;
        return RMG_OK;
    }
    return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "pack '%s' has no template named '%s'",
                          pack->name ? pack->name : "", o->template_name);
}

rmg_status rmg__pack_select(const struct rmg_pack *pack, const rmg_generate_options *asked, rmg_rng *rng,
                            const rmg__template **out)
{
    *out = NULL;
    /* WAT-06: a mirror pack copies the surface underground, so it needs two levels. */
    rmg_generate_options mirrored = *asked;
    const rmg_generate_options *options = asked;
    if (pack->mirror) {
        if (asked->levels == 1)
            return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND,
                                  "pack '%s' is a mirror pack: it needs a map with an underground level (WAT-06)",
                                  pack->name ? pack->name : "");
        mirrored.levels = 2;
        options = &mirrored;
    }
    if (options->humans > 0 && options->players > 0 && options->humans > options->players)
        return rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "%d humans but only %d players", options->humans,
                              options->players);
    if (options->template_name)
        return select_by_name(pack, options, out);
    uint64_t fitting = 0;
    for (size_t i = 0; i < pack->n_templates; i++)
        fitting += rmg__template_fits(&pack->templates[i], options, NULL, 0);
    if (!fitting)
        return none_fits(pack, options);
    uint64_t k = rmg_rng_below(rng, fitting);
    for (size_t i = 0; i < pack->n_templates; i++)
        if (rmg__template_fits(&pack->templates[i], options, NULL, 0) && k-- == 0) {
            *out = &pack->templates[i];
            break;
        }
    return RMG_OK;
}

RMG_API rmg_status rmg_pack_select(rmg_context *ctx, const rmg_pack *pack, const struct rmg_generate_options *options,
                                   size_t *index)
{
    if (!ctx || !pack || !index)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_select: NULL argument") : RMG_ERR_INVALID_ARG;
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof(size_t))
            return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_select: bad struct_size");
        size_t n = RMG__MIN(options->struct_size, sizeof o);
        memcpy((unsigned char *)&o + sizeof(size_t), (const unsigned char *)options + sizeof(size_t),
               n - sizeof(size_t));
    }
    rmg_rng rng;
    rmg_status st = rmg_context_stream(ctx, "select", 0, &rng);
    if (st != RMG_OK)
        return st;
    const rmg__template *t;
    st = rmg__pack_select(pack, &o, &rng, &t);
    if (st == RMG_OK)
        *index = (size_t)(t - pack->templates);
    return st;
}
