/*
 * The select stage (PCK-02): the setup rmg_generate makes of the caller's options for each
 * template of the pack (open options resolved from the template: size, levels, players,
 * humans; mirror packs), the template drawn among those that accept it, and the zones and
 * connections that exist for the chosen player counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Whether the template's zones are joined for the setup (a template of up to JOIN_PROBE_ZONES
 * zones is probed; a larger one counts as joined here, activate_parts checks it). */
#define JOIN_PROBE_ZONES 256
static bool joined_for(const rmg__template *t, int players, int humans)
{
    size_t parent[JOIN_PROBE_ZONES];
    return t->n_zones > JOIN_PROBE_ZONES || rmg__template_unjoined_zone(t, players, humans, true, parent, NULL) == 0;
}

/* One human unless the template asks for more (some templates are for 2+ humans only, some
 * build their connections only for a hot-seat count: the first count whose zones are all
 * joined comes first). */
static int natural_humans(const rmg__template *t, const rmg_generate_options *o)
{
    rmg_generate_options probe = *o;
    for (int pass = 0; pass < 2; pass++)
        for (int h = 1; h <= 8; h++) {
            probe.humans = h;
            int players = o->players ? (rmg__template_fits(t, &probe, NULL, 0) ? o->players : 0) : natural_players(t, &probe);
            if (players > 0 && (pass == 1 || o->water != RMG_WATER_NONE || joined_for(t, players, h)))
                return h;
        }
    return 1;
}

/* A template that puts a zone underground (ZON-02) asks for an underground level: without one
 * the zone would go on the surface (ZON-03). */
static bool wants_underground(const rmg__template *t)
{
    for (size_t i = 0; i < t->n_zones; i++)
        if (t->zones[i].placement == RMG_PLACEMENT_UNDERGROUND)
            return true;
    return false;
}

/* Fills the options the caller left open with values the template supports (issue 10):
 * the water level it chooses (issue 30: rmg__template_water, the first level its filter accepts
 * or, without a filter, the one its name says; first, as the players' defaults read it), the
 * size M (72x72) when allowed, else the smallest standard size in range; no underground
 * unless the template requires it or puts a zone there; as many players as it has start zones. */
void rmg__resolve_options(const rmg__template *t, rmg_generate_options *o)
{
    static const int sides[] = {72, 36, 108, 144, 180, 216, 252};
    o->water = rmg__template_water(t, o->water);
    int first_levels = wants_underground(t) ? 2 : 1;
    if (o->width == 0) {
        int chosen = 0, chosen_levels = 1;
        for (int pass = 0; pass < 2 && !chosen; pass++) {
            int levels = o->levels ? o->levels : pass == 0 ? first_levels : 3 - first_levels;
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
    if (!o->levels) {
        int code = size_code(o->width, o->height, first_levels);
        o->levels = code >= t->min_size && code <= t->max_size ? first_levels : 3 - first_levels;
    }
    if (!o->humans)
        o->humans = natural_humans(t, o);
    if (!o->players)
        o->players = natural_players(t, o);
    if (o->players && o->humans > o->players)
        o->humans = o->players;
}

void rmg__level_counts(const struct rmg_pack *pack, int players, int humans, int *level_players, int *level_humans)
{
    *level_players = players;
    *level_humans = humans;
    if (pack && pack->mirror && players > 1) {
        *level_players = (players + 1) / 2;
        *level_humans = humans < *level_players ? humans : *level_players;
    }
}

/* Mirror packs (WAT-03/06) need two levels, but their size range counts the surface only (the
 * underground is its copy: mt_Andromeda accepts exactly XL), and their filters count the players
 * of one level: the underground copies of the start zones host as many players again (the copy
 * of player p's zone is player p + k's, k players a level). A mirror map has 2k players. */
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
        if (o->players % 2) {
            if (why)
                snprintf(why, whylen, "a mirror map holds as many players on each level: %d players cannot be "
                         "shared between its two levels", o->players);
            return false;
        }
        probe.levels = 1;
        rmg__level_counts(pack, o->players, o->humans, &probe.players, &probe.humans);
    }
    return rmg__template_fits(t, &probe, why, whylen);
}

static void resolve_for_pack(const struct rmg_pack *pack, const rmg__template *t, rmg_generate_options *o)
{
    if (!pack->mirror) {
        rmg__resolve_options(t, o);
        return;
    }
    /* The surface's counts are resolved as for a one-level template, then doubled. */
    int levels = o->levels ? o->levels : 2;
    rmg_generate_options probe = *o;
    probe.levels = 1;
    rmg__level_counts(pack, o->players, o->humans, &probe.players, &probe.humans);
    rmg__resolve_options(t, &probe);
    int asked_players = o->players, asked_humans = o->humans;
    *o = probe;
    o->players = asked_players ? asked_players : 2 * probe.players > 8 ? 8 : 2 * probe.players;
    o->humans = asked_humans ? asked_humans : probe.humans;
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

/* ---- which templates a name picks ------------------------------------------------------------ */

static bool named(const rmg__template *t, const char *name, size_t len)
{
    return t->name && strlen(t->name) == len && strncmp(t->name, name, len) == 0;
}

/* The templates `name` picks: every template of that name; "NAME#K" the K-th of them (1-based)
 * when no template is called "NAME#K" itself. *nth is 0 for every one, else K; *len the length
 * of the name part. */
static void parse_name(const struct rmg_pack *pack, const char *name, size_t *len, long *nth)
{
    *len = strlen(name);
    *nth = 0;
    for (size_t i = 0; i < pack->n_templates; i++)
        if (named(&pack->templates[i], name, *len))
            return;
    const char *hash = strrchr(name, '#');
    if (!hash || !hash[1] || strspn(hash + 1, "0123456789") != strlen(hash + 1) || strlen(hash + 1) > 6)
        return;
    *nth = strtol(hash + 1, NULL, 10);
    *len = (size_t)(hash - name);
}

/* Whether template i is one the caller's name picks (every template without a name). */
static bool picked_by_name(const struct rmg_pack *pack, size_t i, const char *name)
{
    if (!name)
        return true;
    size_t len;
    long nth;
    parse_name(pack, name, &len, &nth);
    if (!named(&pack->templates[i], name, len))
        return false;
    if (!nth)
        return true;
    long k = 0;
    for (size_t j = 0; j <= i; j++)
        k += named(&pack->templates[j], name, len);
    return k == nth;
}

/* ---- notes and errors ------------------------------------------------------------------------- */

rmg_status rmg__select_note(rmg__gen *g, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char **slot = rmg__arena_alloc(&g->scratch, (g->n_select_notes + 1) * sizeof *slot);
    char *copy = rmg__arena_strdup(&g->scratch, text);
    if (!slot || !copy)
        return rmg__error_nomem(g->ctx);
    if (g->n_select_notes)
        memcpy(slot, g->select_notes, g->n_select_notes * sizeof *slot);
    slot[g->n_select_notes++] = copy;
    g->select_notes = slot;
    return RMG_OK;
}

/* The errors of template i as one text ("error 1; error 2; ..."), and their count. */
static rmg_status template_errors(rmg__gen *g, size_t i, size_t *count, char *text, size_t len)
{
    struct rmg_validation *v = NULL;
    rmg_status st = rmg__template_errors(g->pack, i, &v);
    *count = 0;
    text[0] = '\0';
    size_t used = 0;
    for (size_t k = 0; st == RMG_OK && k < rmg_validation_count(v); k++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        if (rmg_validation_get(v, k, &m) != RMG_OK || m.severity != RMG_SEVERITY_ERROR)
            continue;
        (*count)++;
        int n = used < len ? snprintf(text + used, len - used, "%s%s", used ? "; " : "", m.text) : 0;
        used += n > 0 ? (size_t)n : 0;
    }
    rmg_validation_destroy(v);
    return st;
}

/* Every template that fits had errors: refuse, with the first one's errors. */
static rmg_status all_refused(rmg__gen *g, size_t first, size_t count, const char *errors)
{
    const rmg__template *t = &g->pack->templates[first];
    return rmg__error_gen(g->ctx, RMG_ERR_INVALID_DATA, "select", -1, -1,
                          "template '%s' cannot be generated: `rmg check` finds %zu error(s) in it: %s",
                          t->name ? t->name : "", count, errors);
}

/* No template accepted the setup: the error names the setup and, one line each, why every template
 * of the pack (or those the name picks) refuses it; a named template with errors is refused with
 * them. */
static rmg_status none_fits(rmg__gen *g, const rmg_generate_options *asked, char *errors, size_t len)
{
    const struct rmg_pack *pack = g->pack;
    char setup[160];
    rmg__describe_setup(asked, setup, sizeof setup);
    rmg__buf b;
    rmg__buf_init(&b, g->ctx);
    size_t named = 0;
    for (size_t i = 0; i < pack->n_templates; i++) {
        const rmg__template *t = &pack->templates[i];
        if (!picked_by_name(pack, i, asked->template_name))
            continue;
        if (asked->template_name && !named) {
            size_t count;
            rmg_status st = template_errors(g, i, &count, errors, len);
            if (st != RMG_OK || count) {
                rmg__buf_free(&b);
                return st != RMG_OK ? st : all_refused(g, i, count, errors);
            }
        }
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

/* Several templates share the name the caller gave: say which one is used and how to pick another. */
static rmg_status note_same_names(rmg__gen *g, const char *name, size_t taken)
{
    const struct rmg_pack *pack = g->pack;
    size_t len;
    long nth;
    parse_name(pack, name, &len, &nth);
    size_t count = 0, rank = 0;
    for (size_t i = 0; i < pack->n_templates; i++)
        if (named(&pack->templates[i], name, len)) {
            count++;
            if (i == taken)
                rank = count;
        }
    if (count < 2 || nth)
        return RMG_OK;
    return rmg__select_note(g,
                            "the pack has %zu templates named '%.*s': the %zu%s that accepts this setup was used "
                            "(line %d); pick another with the name '%.*s#K' (K = 1..%zu, in file order)",
                            count, (int)len, name, rank, rank == 1 ? "st" : rank == 2 ? "nd" : rank == 3 ? "rd" : "th",
                            pack->templates[taken].loc.line, (int)len, name, count);
}

/* PCK-02: a template chosen at random among those that accept the setup. Open options are
 * resolved from the chosen template, so with nothing given every template qualifies. A template
 * with errors (those of `rmg check`) is never generated: the others of the pack are used, and
 * the map says which were left out. A name picks the first template of that name that fits. */
static rmg_status select_template(rmg__gen *g, const rmg_generate_options *asked)
{
    const struct rmg_pack *pack = g->pack;
    if (pack->n_templates == 0)
        return rmg__error_gen(g->ctx, RMG_ERR_INVALID_DATA, "select", -1, -1, "the pack '%s' holds no template",
                              pack->name ? pack->name : "");
    rmg_rng rng;
    rmg__gen_stream(g, "select", 0, &rng);
    size_t n = pack->n_templates, fits = 0, refused = 0, first_refused = 0, first_count = 0;
    uint64_t *weights = rmg__arena_alloc(&g->scratch, n * sizeof *weights);
    char *errors = rmg__arena_alloc(&g->scratch, 2048);
    if (!weights || !errors)
        return rmg__error_nomem(g->ctx);
    for (size_t i = 0; i < n; i++) {
        const rmg__template *t = &pack->templates[i];
        rmg_generate_options o;
        weights[i] = 0;
        if ((asked->template_name && fits) || !picked_by_name(pack, i, asked->template_name) ||
            !rmg__select_setup(pack, t, asked, &o, NULL, 0))
            continue;
        size_t count;
        rmg_status st = template_errors(g, i, &count, errors, 2048);
        if (st == RMG_OK && count) {
            if (!refused++) {
                first_refused = i;
                first_count = count;
            }
            st = rmg__select_note(g, "template '%s' is not used: `rmg check` finds %zu error(s) in it: %s",
                                  t->name ? t->name : "", count, errors);
            if (st != RMG_OK)
                return st;
            continue;
        }
        if (st != RMG_OK)
            return st;
        weights[i] = 1;
        fits++;
    }
    if (!fits && refused) {
        size_t count;
        rmg_status st = template_errors(g, first_refused, &count, errors, 2048);
        return st == RMG_OK ? all_refused(g, first_refused, first_count, errors) : st;
    }
    if (!fits)
        return none_fits(g, asked, errors, 2048);
    long pick = rmg_rng_weighted(&rng, weights, n);
    g->tpl = &pack->templates[pick];
    rmg__select_setup(pack, g->tpl, asked, &g->opt, NULL, 0);
    return asked->template_name ? note_same_names(g, asked->template_name, (size_t)pick) : RMG_OK;
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

/* Without water no boat joins what the connections leave apart: players who cannot meet make no
 * game, so the setup is refused with the zones and the reason (a treasure zone left apart is the
 * template's design: a prize for flying heroes, which the map validation does not ask walkers
 * to reach). Mirror packs join zones by their mirror links' colours too (ZON-36): the map
 * validation judges those. */
static rmg_status check_joined(rmg__gen *g)
{
    const rmg__template *t = g->tpl;
    if (g->opt.water != RMG_WATER_NONE || !t->n_zones || (g->pack && g->pack->mirror))
        return RMG_OK;
    size_t *parent = rmg__arena_alloc(&g->scratch, t->n_zones * sizeof *parent);
    if (!parent)
        return rmg__error_nomem(g->ctx);
    int home = 0, lost = rmg__template_unjoined_zone(t, g->level_players, g->level_humans, true, parent, &home);
    if (!lost)
        return RMG_OK;
    return rmg__error_gen(g->ctx, RMG_ERR_IMPOSSIBLE, "select", lost, -1,
                          "template '%s' for %d players (%d human): no chain of connections that exist for this "
                          "setup joins the start zones %d and %d (the connections' player restrictions leave them "
                          "apart), so no hero could go from one to the other; try other player counts or water",
                          t->name ? t->name : "", g->opt.players, g->opt.humans, lost, home);
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
    rmg__level_counts(g->pack, g->opt.players, g->opt.humans, &g->level_players, &g->level_humans);
    size_t active = 0;
    for (size_t i = 0; i < t->n_zones; i++) {
        g->zone_active[i] = rmg__zone_active(&t->zones[i], g->level_players, g->level_humans);
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
                            rmg__connection_active(c, g->level_players, g->level_humans);
    }
    rmg_status st = check_joined(g);
    return st == RMG_OK ? check_town_counts(g) : st;
}

rmg_status rmg__stage_select(rmg__gen *g, const rmg_generate_options *asked)
{
    rmg_status st = select_template(g, asked);
    return st == RMG_OK ? activate_parts(g) : st;
}
