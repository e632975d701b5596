/*
 * The select stage (PCK-02): the setup rmg_generate makes of the caller's options for each
 * template of the pack (open options resolved from the template: size, levels, players,
 * humans; mirror packs), the template drawn among those that accept it, and the zones and
 * connections that exist for the chosen player counts.
 */
#include <stdio.h>
#include <string.h>

#include "select_internal.h"

static int size_code(int width, int height, int levels)
{
    /* h3t size code: (side/36)^2 x (2 if underground); non-square maps use their area. */
    long area = (long)width * height;
    long code = (area + 36 * 36 / 2) / (36 * 36);
    return (int)(code * (levels > 1 ? 2 : 1));
}

/* Number of player start zones a template defines (its natural player count). */
static int template_start_zones(const rmg__template *t)
{
    int n = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        if (t->zones[i].kind == RMG_ZONE_HUMAN_START || t->zones[i].kind == RMG_ZONE_COMPUTER_START)
            n++;
    return n;
}

/* The player count a template is made for: its start zones when it accepts that many, else the
 * largest count it accepts (0 when none: the caller reports why). */
static int natural_players(const rmg__template *t, const rmg_generate_options *o)
{
    rmg_generate_options probe = *o;
    probe.players = template_start_zones(t);
    if (probe.players >= probe.humans && rmg__template_fits(t, &probe, NULL, 0))
        return probe.players;
    for (int p = 8; p >= (o->humans > 0 ? o->humans : 1); p--) {
        probe.players = p;
        if (rmg__template_fits(t, &probe, NULL, 0))
            return p;
    }
    return 0;
}

/* One human unless the template asks for more (some templates are for 2+ humans only). */
static int natural_humans(const rmg__template *t, const rmg_generate_options *o)
{
    rmg_generate_options probe = *o;
    for (int h = 1; h <= 8; h++) {
        probe.humans = h;
        if (o->players ? rmg__template_fits(t, &probe, NULL, 0) : natural_players(t, &probe) > 0)
            return h;
    }
    return 1;
}

/* Fills the options the caller left open with values the template supports (issue 10):
 * the size M (72x72) when allowed, else the smallest standard size in range; no underground
 * unless the template requires it; as many players as it has start zones. */
void rmg__resolve_options(const rmg__template *t, rmg_generate_options *o)
{
    static const int sides[] = {72, 36, 108, 144, 180, 216, 252};
    if (o->width == 0) {
        int chosen = 0, chosen_levels = 1;
        for (int pass = 0; pass < 2 && !chosen; pass++) {
            int levels = o->levels ? o->levels : pass + 1;
            for (size_t i = 0; i < RMG__ARRAY_LEN(sides) && !chosen; i++) {
                int code = size_code(sides[i], sides[i], levels);
                if (code >= t->min_size && code <= t->max_size) {
                    chosen = sides[i];
                    chosen_levels = levels;
                }
            }
            if (o->levels)
                break;
        }
        o->width = o->height = chosen ? chosen : 72;
        if (!o->levels)
            o->levels = chosen_levels;
    }
    if (!o->levels)
        o->levels = size_code(o->width, o->height, 1) < t->min_size ? 2 : 1;
    if (!o->humans)
        o->humans = natural_humans(t, o);
    if (!o->players)
        o->players = natural_players(t, o);
    if (o->players && o->humans > o->players)
        o->humans = o->players;
}

/* Mirror packs (WAT-03/06) need two levels, but their size range counts the surface only (the
 * underground is its copy: mt_Andromeda accepts exactly XL), and their underground copies of
 * the start zones host as many players again when the template accepts them. */
static bool fits_pack(const struct rmg_pack *pack, const rmg__template *t, const rmg_generate_options *o, char *why,
                      size_t whylen)
{
    rmg_generate_options probe = *o;
    if (pack->mirror) {
        if (o->levels != 2) {
            if (why)
                snprintf(why, whylen, "a mirror template needs an underground level (WAT-06)");
            return false;
        }
        probe.levels = 1;
    }
    return rmg__template_fits(t, &probe, why, whylen);
}

static void resolve_for_pack(const struct rmg_pack *pack, const rmg__template *t, rmg_generate_options *o)
{
    if (!pack->mirror) {
        rmg__resolve_options(t, o);
        return;
    }
    int levels = o->levels ? o->levels : 2;
    o->levels = 1;
    if (!o->players) {
        rmg_generate_options probe = *o;
        rmg__resolve_options(t, &probe);
        probe.players = 2 * template_start_zones(t);
        if (probe.players <= 8 && rmg__template_fits(t, &probe, NULL, 0))
            o->players = probe.players;
    }
    rmg__resolve_options(t, o);
    o->levels = levels;
}

/* The setup the driver makes of `asked` for template t of the pack (open options resolved)
 * and whether t accepts it; if not, why. A template without zones, or whose player filter
 * admits no count at all (more humans than players, as VCMI's worldsAtWar.json asks), says so
 * rather than "no room for 0 players". */
bool rmg__select_setup(const struct rmg_pack *pack, const rmg__template *t, const rmg_generate_options *asked,
                       rmg_generate_options *o, char *why, size_t whylen)
{
    *o = *asked;
    resolve_for_pack(pack, t, o);
    if (fits_pack(pack, t, o, why, whylen))
        return true;
    const rmg__player_filter *pf = &t->players;
    if (!why)
        return false;
    if (t->n_zones == 0)
        snprintf(why, whylen, "it has no zones");
    else if (!o->players && pf->max_total > 0 && pf->min_human > pf->max_total)
        snprintf(why, whylen, "it asks for at least %d human players but allows at most %d players in all, so no "
                 "setup fits it", pf->min_human, pf->max_total);
    else if (!why[0])
        snprintf(why, whylen, "it does not accept these options");
    return false;
}

/* No template accepted the setup: the error names the setup and, one line each, why every template
 * of the pack (or the one named) refuses it. */
static rmg_status none_fits(rmg__gen *g, const rmg_generate_options *asked)
{
    const struct rmg_pack *pack = g->pack;
    char setup[160];
    rmg__describe_setup(asked, setup, sizeof setup);
    rmg__buf b;
    rmg__buf_init(&b, g->ctx);
    size_t named = 0;
    for (size_t i = 0; i < pack->n_templates; i++) {
        const rmg__template *t = &pack->templates[i];
        if (asked->template_name && (!t->name || strcmp(t->name, asked->template_name) != 0))
            continue;
        char why[400] = "";
        rmg_generate_options o;
        rmg__select_setup(pack, t, asked, &o, why, sizeof why);
        rmg__buf_printf(&b, "\n  template '%s': %s", t->name ? t->name : "", why);
        named++;
    }
    char *reasons = rmg__buf_take(&b);
    if (!reasons)
        return rmg__error_nomem(g->ctx);
    rmg_status st;
    if (asked->template_name && !named)
        st = rmg__error_gen(g->ctx, RMG_ERR_NOT_FOUND, "select", -1, -1, "the pack '%s' has no template named '%s'",
                            pack->name ? pack->name : "", asked->template_name);
    else if (asked->template_name)
        st = rmg__error_gen(g->ctx, RMG_ERR_NOT_FOUND, "select", -1, -1, "template '%s' does not accept this setup "
                            "(%s):%s", asked->template_name, setup, reasons);
    else
        st = rmg__error_gen(g->ctx, RMG_ERR_IMPOSSIBLE, "select", -1, -1,
                            "no template of the pack accepts this setup (%s):%s", setup, reasons);
    rmg__free(g->ctx, reasons);
    return st;
}

/* PCK-02: a template chosen at random among those that accept the setup. Open options are
 * resolved from the chosen template, so with nothing given every template qualifies. */
static rmg_status select_template(rmg__gen *g, const rmg_generate_options *asked)
{
    const struct rmg_pack *pack = g->pack;
    if (pack->n_templates == 0)
        return rmg__error_gen(g->ctx, RMG_ERR_INVALID_DATA, "select", -1, -1, "the pack '%s' holds no template",
                              pack->name ? pack->name : "");
    rmg_rng rng;
    rmg__gen_stream(g, "select", 0, &rng);
    size_t n = pack->n_templates, fits = 0;
    uint64_t *weights = rmg__arena_alloc(&g->scratch, n * sizeof *weights);
    if (!weights)
        return rmg__error_nomem(g->ctx);
    for (size_t i = 0; i < n; i++) {
        const rmg__template *t = &pack->templates[i];
        if (asked->template_name && (!t->name || strcmp(t->name, asked->template_name) != 0))
            continue;
        rmg_generate_options o;
        if (rmg__select_setup(pack, t, asked, &o, NULL, 0)) {
            weights[i] = 1;
            fits++;
        }
    }
    if (!fits)
        return none_fits(g, asked);
    long pick = rmg_rng_weighted(&rng, weights, n);
    g->tpl = &pack->templates[pick];
    rmg__select_setup(pack, g->tpl, asked, &g->opt, NULL, 0);
    return RMG_OK;
}

/* The minimum towns of the active zones must fit on the map at all, and no count may be
 * negative: a fuzzed template asking for 2^31 neutral towns overflowed the solver's counters
 * and then ran out of memory building one variable per town. Counted in 64 bits. */
static rmg_status check_town_counts(rmg__gen *g)
{
    const rmg__template *t = g->tpl;
    int64_t cap = (int64_t)g->opt.width * g->opt.height * g->opt.levels / RMG__TOWN_TILES, total = 0;
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        if (!g->zone_active[i])
            continue;
        const int counts[] = {z->player_towns, z->player_castles, z->neutral_towns, z->neutral_castles};
        int64_t zone_total = 0;
        for (size_t k = 0; k < RMG__ARRAY_LEN(counts); k++) {
            if (counts[k] < 0)
                return rmg__error_gen(g->ctx, RMG_ERR_INVALID_DATA, "select", z->id, -1,
                                      "a minimum town count is negative (%d)", counts[k]);
            zone_total += counts[k];
        }
        total += zone_total;
        if (total > cap)
            return rmg__error_gen(g->ctx, RMG_ERR_IMPOSSIBLE, "select", z->id, -1,
                                  "the zones ask for at least %lld towns (this one %lld), more than a %dx%dx%d map can "
                                  "hold (%lld)",
                                  (long long)total, (long long)zone_total, g->opt.width, g->opt.height, g->opt.levels,
                                  (long long)cap);
    }
    return RMG_OK;
}

/* Zones and connections that exist for the chosen player counts (restrictions, PCK-02). */
static rmg_status activate_parts(rmg__gen *g)
{
    const rmg__template *t = g->tpl;
    g->zone_active = rmg__arena_alloc(&g->scratch, (t->n_zones + 1) * sizeof *g->zone_active);
    g->zone_map_id = rmg__arena_alloc(&g->scratch, (t->n_zones + 1) * sizeof *g->zone_map_id);
    g->conn_active = rmg__arena_alloc(&g->scratch, (t->n_connections + 1) * sizeof *g->conn_active);
    if (!g->zone_active || !g->zone_map_id || !g->conn_active)
        return rmg__error_nomem(g->ctx);
    size_t active = 0;
    for (size_t i = 0; i < t->n_zones; i++) {
        g->zone_active[i] = rmg__zone_active(&t->zones[i], g->opt.players, g->opt.humans);
        active += g->zone_active[i];
    }
    if (!active)
        return rmg__error_gen(g->ctx, RMG_ERR_IMPOSSIBLE, "select", -1, -1,
                              "template '%s' has no zone for %d players (%d human)", t->name ? t->name : "",
                              g->opt.players, g->opt.humans);
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        long a = rmg__template_find_zone(t, c->zone_a), b = rmg__template_find_zone(t, c->zone_b);
        g->conn_active[i] = a >= 0 && b >= 0 && g->zone_active[a] && g->zone_active[b] &&
                            rmg__connection_active(c, g->opt.players, g->opt.humans);
    }
    return check_town_counts(g);
}

rmg_status rmg__stage_select(rmg__gen *g, const rmg_generate_options *asked)
{
    rmg_status st = select_template(g, asked);
    return st == RMG_OK ? activate_parts(g) : st;
}
