/*
 * Town types, zone terrains and zone factions (ZON-10..21, FAC-02..05, MIS-07).
 *
 * Variables: per active zone its chosen terrain (pre-conversion, ZON-15), the shared type of
 * its player towns (MIS-07), the type of each minimum neutral town (ZON-18: frequency towns are
 * not bound) and, for zones named in a faction rule, its faction (ZON-16). Values are terrain
 * ids or faction ids (bit masks fit both). The rules become binary constraints; invalid rules
 * are reported and ignored; conflicting rules are reported and the latest of each conflict is
 * given up (ZON-21). Factions of the other zones follow FAC-02/03 after the search.
 */
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"
#include "template/model.h"

/* Why a constraint exists, for messages. */
typedef enum reason_kind { REASON_RULE, REASON_SAME_TYPE, REASON_MATCH_TOWN } reason_kind;

typedef struct reason {
    reason_kind kind;
    size_t zone;                 /* template zone index owning it */
    size_t rule;                 /* rule index within the zone (REASON_RULE) */
} reason;

typedef struct zone_vars {
    int terrain, faction, player; /* variable ids, -1 when absent */
    int neutral_first;            /* first neutral town variable */
    int n_neutral;
    bool faction_rule;            /* ZON-16 */
} zone_vars;

typedef struct typing {
    rmg_context *ctx;
    rmg__solve_input *in;
    const rmg__solve_out *out;
    rmg__solve_stats *stats;
    rmg__arena work;             /* the problem (freed at the end) */
    rmg__csp csp;
    const rmg__template *tpl;
    zone_vars *zv;
    reason *reasons;             size_t n_reasons;
    int native[RMG__CSP_VALUES]; /* native terrain id per faction id, -1 none */
    uint32_t towns_mask, land_mask;
    size_t n_vars;
} typing;

static bool zone_active(const typing *t, size_t i)
{
    return !t->in->zone_active || t->in->zone_active[i];
}

/* A start zone always holds its player's town, whatever its minimum counts say. */
static bool zone_has_player_group(const rmg__zone *z)
{
    bool start = z->kind == RMG_ZONE_HUMAN_START || z->kind == RMG_ZONE_COMPUTER_START;
    return (start && z->owner > 0) || z->player_towns > 0 || z->player_castles > 0;
}

/* Counted in 64 bits: the template loaders accept any int. */
static int64_t zone_neutral_count(const rmg__zone *z)
{
    int64_t n = (int64_t)RMG__MAX(z->neutral_towns, 0) + RMG__MAX(z->neutral_castles, 0);
    return n;
}

bool rmg__zone_has_min_towns(const rmg__zone *z)
{
    return zone_has_player_group(z) || zone_neutral_count(z) > 0;
}

static uint32_t bit(int v)
{
    return v >= 0 && v < RMG__CSP_VALUES ? 1u << v : 0;
}

static void load_content_masks(typing *t)
{
    const struct rmg_content *c = t->in->content;
    for (int i = 0; i < RMG__CSP_VALUES; i++)
        t->native[i] = -1;
    for (size_t i = 0; i < c->n_factions; i++) {
        const rmg__faction *f = &c->factions[i];
        if (!f->is_town || f->id < 0 || f->id >= RMG_FACTION_NEUTRAL)
            continue;
        t->towns_mask |= bit(f->id);
        t->native[f->id] = f->native_terrain;
    }
    for (size_t i = 0; i < c->n_terrains; i++)
        if (c->terrains[i].land)
            t->land_mask |= bit(c->terrains[i].id);
}

/* ---- messages ------------------------------------------------------------------------------ */

static void describe_town(rmg__buf *b, int zone, int town)
{
    if (town == -1)
        rmg__buf_printf(b, "town(%d.player)", zone);
    else if (town == RMG__TOWN_REF_ALL)
        rmg__buf_printf(b, "town(%d.every)", zone);
    else if (town == RMG__TOWN_REF_NEUTRAL_ALL)
        rmg__buf_printf(b, "town(%d.every neutral)", zone);
    else
        rmg__buf_printf(b, "town(%d.neutral %d)", zone, town + 1);
}

/* The rule as a formula, e.g. "terrain(1) != terrain(2)". */
static void describe_formula(rmg__buf *b, const rmg__type_rule *r)
{
    const char *eq = r->negate ? "!=" : "==";
    const char *match = r->negate ? "does not match" : "matches";
    const char *native = r->negate ? "is not native to" : "is native to";
    switch (r->kind) {
    case RMG_TYPE_RULE_TOWN_SAME:
        describe_town(b, r->zone_a, r->town_a);
        rmg__buf_printf(b, " %s ", eq);
        describe_town(b, r->zone_b, r->town_b);
        return;
    case RMG_TYPE_RULE_TOWN_NATIVE:
        describe_town(b, r->zone_a, r->town_a);
        rmg__buf_printf(b, " %s terrain(%d)", native, r->zone_b);
        return;
    case RMG_TYPE_RULE_TERRAIN_SAME:
        rmg__buf_printf(b, "terrain(%d) %s terrain(%d)", r->zone_a, eq, r->zone_b);
        return;
    case RMG_TYPE_RULE_TERRAIN_NATIVE:
        rmg__buf_printf(b, "terrain(%d) %s ", r->zone_a, native);
        describe_town(b, r->zone_b, r->town_b);
        return;
    case RMG_TYPE_RULE_FACTION_SAME:
        rmg__buf_printf(b, "faction(%d) %s faction(%d)", r->zone_a, eq, r->zone_b);
        return;
    case RMG_TYPE_RULE_FACTION_TOWN:
        rmg__buf_printf(b, "faction(%d) %s ", r->zone_a, match);
        describe_town(b, r->zone_b, r->town_b);
        return;
    case RMG_TYPE_RULE_FACTION_TERRAIN:
        rmg__buf_printf(b, "faction(%d) %s terrain(%d)", r->zone_a, match, r->zone_b);
        return;
    }
    rmg__buf_printf(b, "kind %d", (int)r->kind);
}

static void describe_rule(rmg__buf *b, const rmg__template *tpl, size_t zone, size_t rule)
{
    const rmg__zone *z = &tpl->zones[zone];
    const rmg__type_rule *r = &z->type_rules[rule];
    rmg__buf_printf(b, "zone %d rule %zu (", z->id, rule + 1);
    if (r->raw)
        rmg__buf_printf(b, "'%s': ", r->raw);
    describe_formula(b, r);
    if (r->loc.line)
        rmg__buf_printf(b, ", line %d", r->loc.line);
    rmg__buf_putc(b, ')');
}

static void describe_reason(rmg__buf *b, const typing *t, int tag)
{
    const reason *r = &t->reasons[tag];
    int id = t->tpl->zones[r->zone].id;
    switch (r->kind) {
    case REASON_RULE:
        describe_rule(b, t->tpl, r->zone, r->rule);
        break;
    case REASON_SAME_TYPE:
        rmg__buf_printf(b, "zone %d towns of the same type", id);
        break;
    case REASON_MATCH_TOWN:
        rmg__buf_printf(b, "zone %d terrain matches its main town", id);
        break;
    }
}

/* Appends a finished buffer as a warning (allocation failure -> NOMEM). */
static rmg_status warn_buf(typing *t, rmg__buf *b)
{
    char *s = rmg__buf_take(b);
    if (!s)
        return rmg__error_nomem(t->ctx);
    rmg_status st = rmg__solve_warn(t->out, "%s", s);
    rmg__free(t->ctx, s);
    return st;
}

static rmg_status warn_rule(typing *t, size_t zone, size_t rule, const char *what)
{
    rmg__buf b;
    rmg__buf_init(&b, t->ctx);
    describe_rule(&b, t->tpl, zone, rule);
    rmg__buf_printf(&b, ": %s; rule ignored (ZON-21)", what);
    t->stats->rule_errors++;
    return warn_buf(t, &b);
}

/* ---- variables ----------------------------------------------------------------------------- */

static int new_var(typing *t)
{
    return (int)t->n_vars++;
}

/* Which zones have their faction named by a valid-looking faction rule (ZON-16). */
static void mark_faction_rule_zones(typing *t)
{
    for (size_t i = 0; i < t->tpl->n_zones; i++) {
        if (!zone_active(t, i))
            continue;
        const rmg__zone *z = &t->tpl->zones[i];
        for (size_t k = 0; k < z->n_type_rules; k++) {
            const rmg__type_rule *r = &z->type_rules[k];
            if (r->kind < RMG_TYPE_RULE_FACTION_SAME || r->kind > RMG_TYPE_RULE_FACTION_TERRAIN)
                continue;
            long a = rmg__template_find_zone(t->tpl, r->zone_a);
            long b = r->kind == RMG_TYPE_RULE_FACTION_SAME ? rmg__template_find_zone(t->tpl, r->zone_b) : -1;
            if (a >= 0 && zone_active(t, (size_t)a) && !t->tpl->zones[a].neutral_only)
                t->zv[a].faction_rule = true;
            if (b >= 0 && zone_active(t, (size_t)b) && !t->tpl->zones[b].neutral_only)
                t->zv[b].faction_rule = true;
        }
    }
}

/* One variable per neutral town: far more than any map holds (a 252x252x2 map has room for
 * fewer than 8000 towns) is refused before the solver allocates them. */
#define RMG__SOLVE_MAX_NEUTRAL_TOWNS 65536

static rmg_status allocate_variables(typing *t)
{
    for (size_t i = 0; i < t->tpl->n_zones; i++) {
        zone_vars *v = &t->zv[i];
        v->terrain = v->faction = v->player = -1;
        v->neutral_first = -1;
        if (!zone_active(t, i))
            continue;
        const rmg__zone *z = &t->tpl->zones[i];
        v->terrain = new_var(t);
        if (v->faction_rule)
            v->faction = new_var(t);
        if (zone_has_player_group(z))
            v->player = new_var(t);
        int64_t neutral = zone_neutral_count(z);
        if (neutral > RMG__SOLVE_MAX_NEUTRAL_TOWNS || t->n_vars + (size_t)neutral > RMG__SOLVE_MAX_NEUTRAL_TOWNS)
            return rmg__error_gen(t->ctx, RMG_ERR_INVALID_DATA, "solve", z->id, -1,
                                  "the zones ask for more than %d neutral towns and castles (this one %lld), "
                                  "more than any map can hold",
                                  RMG__SOLVE_MAX_NEUTRAL_TOWNS, (long long)neutral);
        v->n_neutral = (int)neutral;
        v->neutral_first = (int)t->n_vars;
        t->n_vars += (size_t)v->n_neutral;
    }
    return RMG_OK;
}

/* Restricts `mask` to `universe`; an empty result falls back to the universe with a warning. */
static rmg_status effective_set(typing *t, uint32_t mask, uint32_t universe, int zone_id, const char *what,
                                uint32_t *out)
{
    if (!universe)
        return rmg__error_set(t->ctx, RMG_ERR_INVALID_DATA, "solve: the game content has no %s", what);
    *out = mask ? mask & universe : universe;
    if (*out)
        return RMG_OK;
    *out = universe;
    return rmg__solve_warn(t->out, "zone %d: no valid %s left; using all of them", zone_id, what);
}

/* A player's towns: the chosen type, else any of the zone's allowed towns. The pack's list limits
 * only the choice (MIS-08, MIS-37: checked before the solve), never a random town. */
static rmg_status player_domain(typing *t, const rmg__zone *z, uint32_t towns, uint32_t *dom)
{
    *dom = towns;
    int choice = -1;
    if (t->in->player_towns && z->owner >= 1 && z->owner <= 8)
        choice = t->in->player_towns[z->owner - 1];
    if (choice < 0)
        return RMG_OK;
    if (towns & bit(choice)) {
        *dom = bit(choice);
        return RMG_OK;
    }
    return rmg__solve_warn(t->out,
                           "zone %d: player %d's town choice '%s' is not allowed in the zone; a random allowed type is "
                           "used",
                           z->id, z->owner, rmg__solve_faction_key(t->in->content, choice));
}

typedef rmg_status (*zone_step)(typing *t, size_t zone);

static rmg_status for_active_zones(typing *t, zone_step step)
{
    rmg_status st = RMG_OK;
    for (size_t i = 0; i < t->tpl->n_zones && st == RMG_OK; i++)
        if (zone_active(t, i))
            st = step(t, i);
    return st;
}

static rmg_status zone_domains(typing *t, size_t i)
{
    const rmg__zone *z = &t->tpl->zones[i];
    const zone_vars *v = &t->zv[i];
    uint32_t terrains = 0, factions = 0, towns = rmg__zone_allowed_towns(z, t->towns_mask);
    rmg_status st = effective_set(t, z->allowed_terrains, t->land_mask, z->id, "allowed terrain", &terrains);
    if (st == RMG_OK && (v->player >= 0 || v->n_neutral > 0) && !towns) {
        /* Towns in a zone that bans every type (an h3t zone without town flags; `rmg check`
         * says so) take any type, as do those whose list names only types the content lacks. */
        if (!t->towns_mask)
            return rmg__error_set(t->ctx, RMG_ERR_INVALID_DATA, "solve: the game content has no allowed town type");
        towns = t->towns_mask;
        if (z->allowed_towns)
            st = rmg__solve_warn(t->out, "zone %d: no valid allowed town type left; using all of them", z->id);
    }
    if (st != RMG_OK)
        return st;
    t->csp.dom[v->terrain] = terrains;
    for (int k = 0; k < v->n_neutral; k++)
        t->csp.dom[v->neutral_first + k] = towns;
    if (v->player >= 0)
        st = player_domain(t, z, towns, &t->csp.dom[v->player]);
    if (st == RMG_OK && v->faction >= 0) {
        /* FAC-02 step 2: allowed_factions when set, else the allowed towns; never neutral. */
        uint32_t base = z->allowed_factions_set ? z->allowed_factions : towns;
        st = effective_set(t, base, t->towns_mask, z->id, "allowed faction", &factions);
        t->csp.dom[v->faction] = factions;
    }
    return st;
}

/* ---- constraints --------------------------------------------------------------------------- */

static rmg_status add_reason(typing *t, reason_kind kind, size_t zone, size_t rule, int *tag)
{
    reason *r = rmg__arena_grow(&t->work, (void **)&t->reasons, &t->n_reasons, sizeof *r);
    if (!r)
        return rmg__error_nomem(t->ctx);
    r->kind = kind;
    r->zone = zone;
    r->rule = rule;
    *tag = (int)(t->n_reasons - 1);
    return RMG_OK;
}

/* x == y, or x != y when negate. */
static rmg_status add_equal(typing *t, int x, int y, bool negate, int tag)
{
    if (x == y) /* a variable compared with itself: == holds, != can never hold */
        y = -1;
    rmg__csp_con *c = y >= 0 ? rmg__csp_add(t->ctx, &t->csp, x, y, tag) : NULL;
    if (y >= 0 && !c)
        return RMG_ERR_NOMEM;
    if (y < 0) {
        if (negate) /* impossible on its own: keep the domain, report the rule */
            return rmg__solve_warn(t->out, "a type rule compares a town with itself using '!='; ignored");
        return RMG_OK;
    }
    for (int a = 0; a < RMG__CSP_VALUES; a++)
        c->sup_xy[a] = negate ? ~(1u << a) : 1u << a;
    rmg__csp_con_finish(c);
    return RMG_OK;
}

/* Faction/town x is (not) native to terrain y. */
static rmg_status add_native(typing *t, int x, int y, bool negate, int tag)
{
    rmg__csp_con *c = rmg__csp_add(t->ctx, &t->csp, x, y, tag);
    if (!c)
        return RMG_ERR_NOMEM;
    for (int a = 0; a < RMG__CSP_VALUES; a++) {
        uint32_t native = bit(t->native[a]);
        c->sup_xy[a] = negate ? ~native : native;
    }
    rmg__csp_con_finish(c);
    return RMG_OK;
}

/* The main town the objects stage will choose among the minimum towns (MIS-09): the player's,
 * else the first minimum neutral castle, else the first minimum neutral town. The solver lists
 * a zone's neutral towns first, then its castles. */
static int main_town_var(const typing *t, size_t zone)
{
    const zone_vars *v = &t->zv[zone];
    if (v->player >= 0)
        return v->player;
    if (v->n_neutral <= 0)
        return -1;
    const rmg__zone *z = &t->tpl->zones[zone];
    int towns = RMG__MAX(z->neutral_towns, 0);
    return z->neutral_castles > 0 && towns < v->n_neutral ? v->neutral_first + towns : v->neutral_first;
}

static rmg_status zone_structural(typing *t, size_t i)
{
    const rmg__zone *z = &t->tpl->zones[i];
    const zone_vars *v = &t->zv[i];
    int main = main_town_var(t, i);
    int tag = 0;
    rmg_status st = RMG_OK;
    if (z->towns_same_type && main >= 0) {
        st = add_reason(t, REASON_SAME_TYPE, i, 0, &tag);
        for (int k = 0; k < v->n_neutral && st == RMG_OK; k++)
            if (v->neutral_first + k != main)
                st = add_equal(t, main, v->neutral_first + k, false, tag);
    }
    if (st == RMG_OK && z->terrain_match_town && main >= 0) {
        st = add_reason(t, REASON_MATCH_TOWN, i, 0, &tag);
        if (st == RMG_OK)
            st = add_native(t, main, v->terrain, false, tag);
    }
    return st;
}

/* Resolves a zone id to an active zone index; -1 (and a warning) when missing. */
static rmg_status resolve_zone(typing *t, size_t zone, size_t rule, int id, long *out)
{
    *out = rmg__template_find_zone(t->tpl, id);
    if (*out < 0) {
        char what[64];
        snprintf(what, sizeof what, "zone %d does not exist", id);
        return warn_rule(t, zone, rule, what);
    }
    if (!zone_active(t, (size_t)*out))
        *out = -2; /* removed by the player filter: the rule does not apply to this setup */
    return RMG_OK;
}

/* The variables a side of a rule names: one terrain or faction, or the towns of a reference.
 * `multi` marks references to several towns (every town / every neutral town of a zone, as
 * the h3t hints allow); those bind only the minimum towns there are (ZON-18), maybe none. */
typedef struct side {
    int *vars;
    int n;
    bool multi;
} side;

static rmg_status town_missing(typing *t, size_t zone, size_t rule, long zi, int town)
{
    char what[96];
    if (town == -1)
        snprintf(what, sizeof what, "zone %d has no player towns", t->tpl->zones[zi].id);
    else if (town >= 0)
        snprintf(what, sizeof what, "zone %d has no minimum neutral town #%d (ZON-18)", t->tpl->zones[zi].id, town + 1);
    else
        snprintf(what, sizeof what, "invalid town reference %d", town);
    return warn_rule(t, zone, rule, what);
}

/* Town variables of reference `town` in zone index zi; an empty single reference is reported. */
static rmg_status resolve_towns(typing *t, size_t zone, size_t rule, long zi, int town, side *out)
{
    const zone_vars *v = &t->zv[zi];
    out->n = 0;
    out->multi = town == RMG__TOWN_REF_ALL || town == RMG__TOWN_REF_NEUTRAL_ALL;
    out->vars = rmg__arena_alloc(&t->work, (size_t)(v->n_neutral + 1) * sizeof *out->vars);
    if (!out->vars)
        return rmg__error_nomem(t->ctx);
    if ((town == -1 || town == RMG__TOWN_REF_ALL) && v->player >= 0)
        out->vars[out->n++] = v->player;
    for (int k = 0; k < v->n_neutral; k++)
        if (town == k || (out->multi && town != -1))
            out->vars[out->n++] = v->neutral_first + k;
    return out->n || out->multi ? RMG_OK : town_missing(t, zone, rule, zi, town);
}

static bool kind_names_faction_b(rmg_type_rule_kind k)
{
    return k == RMG_TYPE_RULE_FACTION_SAME;
}

static bool kind_names_faction_a(rmg_type_rule_kind k)
{
    return k >= RMG_TYPE_RULE_FACTION_SAME && k <= RMG_TYPE_RULE_FACTION_TERRAIN;
}

/* Which side of a rule is a town reference. */
static bool side_a_is_town(rmg_type_rule_kind k)
{
    return k == RMG_TYPE_RULE_TOWN_SAME || k == RMG_TYPE_RULE_TOWN_NATIVE;
}

static bool side_b_is_town(rmg_type_rule_kind k)
{
    return k == RMG_TYPE_RULE_TOWN_SAME || k == RMG_TYPE_RULE_TERRAIN_NATIVE || k == RMG_TYPE_RULE_FACTION_TOWN;
}

/* The variables of one side of rule r (side_a: subject). */
static rmg_status resolve_side(typing *t, size_t zone, size_t rule, long zi, bool side_a, side *out)
{
    const rmg__type_rule *r = &t->tpl->zones[zone].type_rules[rule];
    if (side_a ? side_a_is_town(r->kind) : side_b_is_town(r->kind))
        return resolve_towns(t, zone, rule, zi, side_a ? r->town_a : r->town_b, out);
    out->vars = rmg__arena_alloc(&t->work, sizeof *out->vars);
    if (!out->vars)
        return rmg__error_nomem(t->ctx);
    bool faction = side_a ? kind_names_faction_a(r->kind) : kind_names_faction_b(r->kind);
    out->vars[0] = faction ? t->zv[zi].faction : t->zv[zi].terrain;
    out->n = 1;
    out->multi = false;
    return RMG_OK;
}

/* One constraint of rule r between variables x (subject side) and y. */
static rmg_status add_rule_pair(typing *t, const rmg__type_rule *r, int x, int y, int tag)
{
    switch (r->kind) {
    case RMG_TYPE_RULE_TOWN_NATIVE:
    case RMG_TYPE_RULE_FACTION_TERRAIN:
        return add_native(t, x, y, r->negate, tag);
    case RMG_TYPE_RULE_TERRAIN_NATIVE:
        return add_native(t, y, x, r->negate, tag);
    default:
        return add_equal(t, x, y, r->negate, tag);
    }
}

static rmg_status add_rule(typing *t, size_t zone, size_t rule)
{
    const rmg__type_rule *r = &t->tpl->zones[zone].type_rules[rule];
    if (r->kind > RMG_TYPE_RULE_FACTION_TERRAIN)
        return warn_rule(t, zone, rule, "unknown rule kind");
    long za, zb;
    rmg_status st = resolve_zone(t, zone, rule, r->zone_a, &za);
    if (st == RMG_OK && za >= 0)
        st = resolve_zone(t, zone, rule, r->zone_b, &zb);
    if (st != RMG_OK || za < 0 || zb < 0)
        return st;
    /* ZON-17 */
    if ((kind_names_faction_a(r->kind) && t->tpl->zones[za].neutral_only) ||
        (kind_names_faction_b(r->kind) && t->tpl->zones[zb].neutral_only))
        return warn_rule(t, zone, rule, "names the faction of a neutral-only zone (ZON-17)");
    side a = {0}, b = {0};
    size_t errors = t->stats->rule_errors;
    st = resolve_side(t, zone, rule, za, true, &a);
    if (st == RMG_OK && t->stats->rule_errors == errors)
        st = resolve_side(t, zone, rule, zb, false, &b);
    if (st != RMG_OK || t->stats->rule_errors != errors || !a.n || !b.n)
        return st;
    int tag = 0;
    st = add_reason(t, REASON_RULE, zone, rule, &tag);
    for (int i = 0; i < a.n && st == RMG_OK; i++)
        for (int j = 0; j < b.n && st == RMG_OK; j++)
            if (a.vars[i] != b.vars[j] || !(a.multi || b.multi)) /* "every town differs": not from itself */
                st = add_rule_pair(t, r, a.vars[i], b.vars[j], tag);
    return st;
}

static rmg_status zone_rules(typing *t, size_t i)
{
    rmg_status st = RMG_OK;
    for (size_t k = 0; k < t->tpl->zones[i].n_type_rules && st == RMG_OK; k++)
        st = add_rule(t, i, k);
    return st;
}

/* ---- reporting ------------------------------------------------------------------------------ */

static rmg_status report_conflicts(typing *t, const rmg__csp_report *rep)
{
    for (size_t i = 0; i < rep->n_conflicts; i++) {
        const rmg__csp_conflict *c = &rep->conflicts[i];
        rmg__buf b;
        rmg__buf_init(&b, t->ctx);
        rmg__buf_printf(&b, "type rules cannot all hold (ZON-21); %s conflicting set: ",
                        c->minimal ? "minimal" : "a");
        for (size_t k = 0; k < c->n_core; k++) {
            if (k)
                rmg__buf_puts(&b, "; ");
            describe_reason(&b, t, c->core[k]);
        }
        if (c->dropped >= 0) {
            rmg__buf_puts(&b, " -- giving up ");
            describe_reason(&b, t, c->dropped);
        }
        rmg_status st = warn_buf(t, &b);
        if (st != RMG_OK)
            return st;
    }
    if (!rep->budget_exhausted)
        return RMG_OK;
    rmg__buf b;
    rmg__buf_init(&b, t->ctx);
    rmg__buf_printf(&b, "type-rule search budget of %llu nodes exhausted (ZON-20); broken: ",
                    (unsigned long long)t->csp.budget);
    for (size_t k = 0; k < rep->n_violated; k++) {
        if (k)
            rmg__buf_puts(&b, "; ");
        describe_reason(&b, t, rep->violated[k]);
    }
    if (!rep->n_violated)
        rmg__buf_puts(&b, "none");
    return warn_buf(t, &b);
}

/* ---- factions (FAC-02..05) ---------------------------------------------------------------- */

/* FAC-04, by terrain id. */
static uint32_t terrain_table(int terrain)
{
    switch (terrain) {
    case RMG_TERRAIN_DIRT: return bit(RMG_FACTION_CASTLE) | bit(RMG_FACTION_RAMPART) | bit(RMG_FACTION_NECROPOLIS);
    case RMG_TERRAIN_SAND: return bit(RMG_FACTION_STRONGHOLD) | bit(RMG_FACTION_COVE);
    case RMG_TERRAIN_GRASS: return bit(RMG_FACTION_CASTLE) | bit(RMG_FACTION_RAMPART);
    case RMG_TERRAIN_SNOW: return bit(RMG_FACTION_TOWER);
    case RMG_TERRAIN_SWAMP: return bit(RMG_FACTION_FORTRESS) | bit(RMG_FACTION_NECROPOLIS) | bit(RMG_FACTION_COVE);
    case RMG_TERRAIN_ROUGH: return bit(RMG_FACTION_STRONGHOLD);
    case RMG_TERRAIN_SUBTERRANEAN:
        return bit(RMG_FACTION_INFERNO) | bit(RMG_FACTION_NECROPOLIS) | bit(RMG_FACTION_DUNGEON);
    case RMG_TERRAIN_LAVA: return bit(RMG_FACTION_INFERNO);
    case RMG_TERRAIN_HIGHLANDS: return bit(RMG_FACTION_CONFLUX);
    case RMG_TERRAIN_WASTELAND: return bit(RMG_FACTION_FACTORY);
    default: return 0;
    }
}

static int pick_from(rmg_rng *rng, uint32_t mask)
{
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1)
        n++;
    uint64_t k = rmg_rng_below(rng, n);
    for (int v = 0; v < RMG__CSP_VALUES; v++)
        if ((mask & bit(v)) && k-- == 0)
            return v;
    return -1;
}

/* FAC-03; `main_type` is the main town's type or -1. */
static int default_faction(typing *t, const rmg__zone *z, int main_type, int terrain)
{
    rmg_rng *rng = &t->in->rng_factions;
    if (main_type >= 0)
        return main_type;
    uint32_t towns = rmg__zone_allowed_towns(z, t->towns_mask);
    if (towns)
        return pick_from(rng, towns);
    if (rmg_rng_below(rng, 4) == 0) /* every town banned: 25% neutral (FAC-05), 75% the terrain table */
        return RMG_FACTION_NEUTRAL;
    uint32_t table = terrain_table(terrain) & t->towns_mask;
    return table ? pick_from(rng, table) : RMG_FACTION_NEUTRAL;
}

static rmg_status zone_faction(typing *t, size_t i, const uint32_t *assign, rmg__zone_solution *zs)
{
    const rmg__zone *z = &t->tpl->zones[i];
    const zone_vars *v = &t->zv[i];
    if (z->neutral_only) { /* FAC-02 step 1 */
        zs->faction = RMG_FACTION_NEUTRAL;
        return RMG_OK;
    }
    if (v->faction >= 0) { /* step 2 (ZON-16) */
        zs->faction = (int)assign[v->faction];
        return RMG_OK;
    }
    if (z->allowed_factions_set) { /* step 3 */
        uint32_t set = z->allowed_factions & t->towns_mask;
        if (set) {
            zs->faction = pick_from(&t->in->rng_factions, set);
            return RMG_OK;
        }
        rmg_status st = rmg__solve_warn(t->out,
                                        "zone %d: allowed_factions holds no town faction; using the default (FAC-03)", z->id);
        if (st != RMG_OK)
            return st;
    }
    int main = main_town_var(t, i);
    zs->faction = default_faction(t, z, main >= 0 ? (int)assign[main] : -1, zs->terrain);
    zs->faction_of_main_town = true; /* FAC-03: the placed main town decides in the end */
    return RMG_OK;
}

static rmg_status write_solution(typing *t, const uint32_t *assign, rmg__solution *sol)
{
    size_t n = t->tpl->n_zones;
    sol->zones = rmg__arena_alloc(t->out->arena, (n ? n : 1) * sizeof *sol->zones);
    if (!sol->zones)
        return rmg__error_nomem(t->ctx);
    int humans = t->in->humans > 0 ? t->in->humans : 1;
    for (size_t i = 0; i < n; i++) {
        rmg__zone_solution *zs = &sol->zones[i];
        const rmg__zone *z = &t->tpl->zones[i];
        const zone_vars *v = &t->zv[i];
        zs->terrain = zs->faction = zs->player_town_type = RMG_FACTION_NONE;
        if (!zone_active(t, i))
            continue;
        zs->owner = z->owner;
        zs->human = z->kind == RMG_ZONE_HUMAN_START && z->owner >= 1 && z->owner <= humans;
        zs->terrain = (int)assign[v->terrain];
        zs->player_town_type = v->player >= 0 ? (int)assign[v->player] : -1;
        zs->n_neutral_towns = v->n_neutral;
        if (v->n_neutral > 0) {
            zs->neutral_town_types = rmg__arena_alloc(t->out->arena, (size_t)v->n_neutral * sizeof *zs->neutral_town_types);
            if (!zs->neutral_town_types)
                return rmg__error_nomem(t->ctx);
            for (int k = 0; k < v->n_neutral; k++)
                zs->neutral_town_types[k] = (int)assign[v->neutral_first + k];
        }
        rmg_status st = zone_faction(t, i, assign, zs);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- entry ------------------------------------------------------------------------------- */

static rmg_status build_problem(typing *t)
{
    size_t n = t->tpl->n_zones;
    t->zv = rmg__arena_alloc(&t->work, (n ? n : 1) * sizeof *t->zv);
    if (!t->zv)
        return rmg__error_nomem(t->ctx);
    mark_faction_rule_zones(t);
    rmg_status st = allocate_variables(t);
    if (st == RMG_OK)
        st = rmg__csp_init(&t->csp, t->ctx, &t->work, t->n_vars, t->in->node_budget);
    if (st == RMG_OK)
        st = for_active_zones(t, zone_domains);
    if (st == RMG_OK) /* structural constraints first: rules declared later are given up first */
        st = for_active_zones(t, zone_structural);
    if (st == RMG_OK)
        st = for_active_zones(t, zone_rules);
    return st;
}

rmg_status rmg__solve_types(rmg_context *ctx, rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solve_stats *stats = &out->x->stats;
    rmg__solution *sol = out->sol;
    typing t = {0};
    t.ctx = ctx;
    t.in = in;
    t.out = out;
    t.stats = stats;
    t.tpl = in->tpl;
    rmg__arena_init(&t.work, ctx, 16 * 1024);
    load_content_masks(&t);
    rmg_status st = build_problem(&t);
    uint32_t *assign = NULL;
    rmg__csp_report rep = {0};
    if (st == RMG_OK) {
        assign = rmg__arena_alloc(&t.work, (t.n_vars ? t.n_vars : 1) * sizeof *assign);
        st = assign ? rmg__csp_solve(ctx, &t.csp, &in->rng_types, assign, &rep) : rmg__error_nomem(ctx);
    }
    if (st == RMG_OK) {
        stats->nodes_used = t.csp.nodes;
        stats->budget = t.csp.budget;
        stats->rules_violated = rep.n_violated;
        stats->components = rep.components;
        stats->exact_components = rep.exact_components;
        stats->budget_exhausted = rep.budget_exhausted;
        st = report_conflicts(&t, &rep);
    }
    if (st == RMG_OK)
        st = write_solution(&t, assign, sol);
    rmg__arena_free(&t.work);
    return st;
}
