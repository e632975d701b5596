/*
 * HotA h3t writer: the template model as the tab-separated pack HotA's template editor and game
 * read (../shared/spec/h3t-format.md), in the column layout of the file the pack came from, of
 * HotA 1.7 (11 towns) or of HotA 1.8 (12 towns). The cells are written as the editor writes them
 * (empty for 0 and false, the restrictions and monster options always, CRLF, one empty cell
 * after the last column), so a file read and written again has its cells back. What the model
 * holds that no h3t column can is reported through the caller's warning function and left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3t.h"
#include "template/importers.h"

typedef struct writer {
    rmg_context *ctx;
    const struct rmg_pack *pack;
    const rmg_h3t_write_options *opt;
    rmg__h3t_layout lay;
    rmg__h3t_encoding enc;
    rmg__buf out;
    int col;                   /* the column the row is at; -1 before its first cell */
    char where[200];           /* "template 'X', zone 3" for warnings */
    struct rmg_pack *scratch;  /* raw texts are read back into it to check they still fit */
    rmg__h3t_reader rd;
    /* Rule texts of a file keep their shape (1.8 files add a token to enable rules): they are
     * written as they are only into a layout of the same kind, else composed again. */
    bool raw_rules_fit;
    bool raw_refused;          /* reading a raw text back failed (and left its error in the context) */
} writer;

static void warn(writer *w, const char *fmt, ...) RMG__PRINTF(2, 3);
static void warn(writer *w, const char *fmt, ...)
{
    if (!w->opt->warn)
        return;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[900];
    snprintf(line, sizeof line, "%s%s%s", w->where, w->where[0] ? ": " : "", msg);
    w->opt->warn(w->opt->warn_user, line);
}

/* ---- cells ------------------------------------------------------------------------------------- */

/* Moves to column `col` (never backwards), ending the cells before it. */
static void at(writer *w, int col)
{
    for (; w->col < col; w->col++)
        if (w->col >= 0)
            rmg__buf_putc(&w->out, '\t');
    if (w->col < 0)
        w->col = 0;
}

static void end_row(writer *w)
{
    at(w, w->lay.width);   /* the editor ends every row with one empty cell */
    rmg__buf_puts(&w->out, "\r\n");
    w->col = -1;
}

static void cell_str(writer *w, int col, const char *s)
{
    at(w, col);
    rmg__buf_puts(&w->out, s);
}

static void cell_int(writer *w, int col, int64_t v)
{
    at(w, col);
    rmg__buf_printf(&w->out, "%lld", (long long)v);
}

/* 0 is the empty cell. */
static void cell_count(writer *w, int col, int64_t v)
{
    if (v)
        cell_int(w, col, v);
}

static void cell_flag(writer *w, int col, bool on)
{
    if (on)
        cell_str(w, col, "x");
}

/* A decimal number the reader takes back exactly (no exponent: it reads digits and a point). */
static void cell_number(writer *w, int col, double d)
{
    char buf[40];
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", d);
    } else {
        for (int prec = 1; prec <= 15; prec++) {
            snprintf(buf, sizeof buf, "%.*f", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
    }
    cell_str(w, col, buf);
}

/* Free text in the file's code page, quoted (Excel style) when it holds a line break or a tab. */
static void cell_text(writer *w, int col, const char *utf8)
{
    if (!utf8 || !*utf8)
        return;
    at(w, col);
    bool quote = strpbrk(utf8, "\t\r\n") != NULL || utf8[0] == '"';
    if (quote)
        rmg__buf_putc(&w->out, '"');
    size_t start = w->out.len;
    rmg__h3t_from_utf8(&w->out, utf8, w->enc);
    if (quote) {   /* double the quotes of the text written above */
        size_t n = w->out.len - start;
        char *copy = n ? rmg__malloc(w->ctx, n) : NULL;
        if (n && !copy) {
            w->out.failed = true;
            return;
        }
        if (copy)
            memcpy(copy, w->out.data + start, n);
        w->out.len = start;
        for (size_t i = 0; i < n; i++) {
            if (copy[i] == '"')
                rmg__buf_putc(&w->out, '"');
            rmg__buf_putc(&w->out, copy[i]);
        }
        rmg__free(w->ctx, copy);
        rmg__buf_putc(&w->out, '"');
    }
}

/* "+id -id " as the editor writes ID lists (a space after every entry). */
static void cell_ids(writer *w, int col, const rmg__override_list *l)
{
    if (!l->count)
        return;
    at(w, col);
    for (size_t i = 0; i < l->count; i++)
        rmg__buf_printf(&w->out, "%c%d ", l->items[i].allow ? '+' : '-', l->items[i].id);
}

/* A faction mask as the bans of an ID list (every id set but those named): "" when all are set. */
static void cell_mask_bans(writer *w, int col, uint32_t mask, int n_ids)
{
    char buf[160];
    if (rmg__h3t_compose_bans(mask, n_ids, buf, sizeof buf))
        cell_str(w, col, buf);
}

/* ---- raw texts ---------------------------------------------------------------------------------- */

/* Parses `raw` as the rules of an h3t cell; NULL when it is none (then the rules are composed). */
static const rmg__rule_list *parse_raw_rules(writer *w, const char *raw, rmg__rule_list *scratch)
{
    memset(scratch, 0, sizeof *scratch);
    rmg_status st = rmg__h3t_parse_rules(&w->rd, (rmg__h3t_cellref){0, "raw"}, raw, scratch);
    w->raw_refused = w->raw_refused || st != RMG_OK;
    return st == RMG_OK ? scratch : NULL;
}

static bool str_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Two rules address the same objects with the same parameters (their texts and places aside). */
static bool rules_same(const rmg__rule *a, const rmg__rule *b)
{
    return a->op == b->op && a->target == b->target && str_same(a->object, b->object) &&
           str_same(a->family, b->family) && str_same(a->creature, b->creature) && a->level == b->level &&
           a->amount == b->amount && a->spell_min == b->spell_min && a->spell_max == b->spell_max &&
           a->schools == b->schools && a->value == b->value && a->frequency == b->frequency &&
           a->max_map == b->max_map && a->max_zone == b->max_zone && a->extra == b->extra;
}

/* How many rules from items[i] the raw text of items[i] stands for (0 when it does not read back
 * as exactly them): one class-wide rule of a file is several rules of the model. */
static size_t raw_run(writer *w, const rmg__rule_list *list, size_t i)
{
    const rmg__rule *r = &list->items[i];
    rmg__rule_list parsed;
    if (!r->raw || !parse_raw_rules(w, r->raw, &parsed) || !parsed.count || i + parsed.count > list->count)
        return 0;
    for (size_t k = 0; k < parsed.count; k++) {
        const rmg__rule *m = &list->items[i + k];
        if (!str_same(m->raw, r->raw) || !rules_same(m, &parsed.items[k]))
            return 0;
    }
    return parsed.count;
}

static void cell_rules(writer *w, int col, const rmg__rule_list *list, const char *what)
{
    bool extra = w->lay.towns >= 12;
    for (size_t i = 0; i < list->count;) {
        size_t run = w->raw_rules_fit ? raw_run(w, list, i) : 0;
        if (run) {
            at(w, col);
            rmg__buf_printf(&w->out, "%s ", list->items[i].raw);
            i += run;
            continue;
        }
        char text[160];
        const char *why;
        if (rmg__h3t_compose_rule(&list->items[i], extra, text, sizeof text, &why)) {
            at(w, col);
            rmg__buf_printf(&w->out, "%s ", text);
        } else {
            warn(w, "%s object rule %zu%s%s%s left out: %s", what, i + 1, list->items[i].raw ? " ('" : "",
                 list->items[i].raw ? list->items[i].raw : "", list->items[i].raw ? "')" : "", why);
        }
        i++;
    }
}

/* The type rules of one hint cell (town, terrain or faction) of zone z. */
static void cell_hints(writer *w, int col, const rmg__zone *z, rmg__h3t_hint hint)
{
    for (size_t i = 0; i < z->n_type_rules; i++) {
        const rmg__type_rule *r = &z->type_rules[i];
        if (rmg__h3t_hint_of(r) != hint)
            continue;
        rmg__type_rule parsed;
        char text[64];
        const char *out = NULL;
        if (r->raw && rmg__h3t_parse_hint(r->raw, hint, z->id, &parsed) && parsed.kind == r->kind &&
            parsed.negate == r->negate && parsed.zone_a == r->zone_a && parsed.town_a == r->town_a &&
            parsed.zone_b == r->zone_b && parsed.town_b == r->town_b)
            out = r->raw;
        else if (rmg__h3t_compose_hint(r, z->id, text, sizeof text))
            out = text;
        if (!out) {
            warn(w, "type rule %zu%s%s%s has no h3t form and is left out", i + 1, r->raw ? " ('" : "",
                 r->raw ? r->raw : "", r->raw ? "')" : "");
            continue;
        }
        at(w, col);
        rmg__buf_printf(&w->out, "%s ", out);
    }
}

/* ---- the pack and the templates --------------------------------------------------------------- */

static void write_counts(writer *w)
{
    const rmg__h3t_layout *l = &w->lay;
    const int v[7] = {l->towns, l->terrains, l->zone_types, l->pack_n, l->map_new, l->zone_new, l->conn_new};
    for (int i = 0; i < 7; i++)
        cell_int(w, i, v[i]);
}

static void write_pack(writer *w)
{
    const struct rmg_pack *p = w->pack;
    const rmg__h3t_layout *l = &w->lay;
    int c = l->pack0;
    const char *name = p->name;
    if (!name || !*name) {   /* SoD packs have none: HotA lists the pack by its name */
        name = p->n_templates && p->templates[0].name ? p->templates[0].name : "templates";
        warn(w, "the pack has no name: written as '%s'", name);
    }
    cell_text(w, c, name);
    cell_text(w, c + 1, p->description);
    uint32_t known = (l->towns >= 32 ? UINT32_MAX : ((uint32_t)1 << l->towns) - 1u);
    if (p->allowed_towns & ~known & ~((uint32_t)1 << RMG__H3T_NEUTRAL_BIT))
        warn(w, "Town selection: towns beyond the %d of this layout are left out", l->towns);
    if (p->allowed_towns)
        cell_mask_bans(w, c + 2, p->allowed_towns, l->towns);
    cell_ids(w, c + 3, &p->heroes);
    cell_flag(w, c + 4, p->mirror);
    cell_text(w, c + 5, p->tags);
    cell_count(w, c + 6, p->max_battle_rounds);
    if (l->pack_n > 7)
        cell_flag(w, c + 7, p->forbid_hiring_heroes);
    else if (p->forbid_hiring_heroes)
        warn(w, "Forbid Hiring Heroes has no column in this layout");
}

/* Rock blocks: "x" for the radius 1 the editor means by it, else the radius. */
static void cell_rock(writer *w, int col, const rmg__template *t)
{
    if (!t->rock_masses)
        return;
    if (t->rock_radius == 1.0)
        cell_str(w, col, "x");
    else
        cell_number(w, col, t->rock_radius);
}

static void write_map(writer *w, const rmg__template *t)
{
    const rmg__h3t_layout *l = &w->lay;
    cell_text(w, l->map0, t->name && *t->name ? t->name : "unnamed");
    cell_int(w, l->map0 + 1, t->min_size);
    cell_int(w, l->map0 + 2, t->max_size);
    int c = l->map_new0;
    cell_ids(w, c, &t->artifacts);
    cell_ids(w, c + 1, &t->combo_artifacts);
    cell_ids(w, c + 2, &t->spells);
    cell_ids(w, c + 3, &t->skills);
    cell_rules(w, c + 4, &t->rules, "template");
    cell_rock(w, c + 5, t);
    if (t->zone_sparseness != 1.0)
        cell_number(w, c + 6, t->zone_sparseness);
    cell_flag(w, c + 7, !t->special_weeks);
    cell_flag(w, c + 8, t->spell_research);
    cell_flag(w, c + 9, t->anarchy);
    if (t->water_allowed)
        warn(w, "the template's allowed water levels have no h3t column");
}

static void cell_filter(writer *w, int col, const rmg__player_filter *f)
{
    cell_int(w, col, f->min_human);
    cell_int(w, col + 1, f->max_human);
    cell_int(w, col + 2, f->min_total);
    cell_int(w, col + 3, f->max_total);
}

/* The narrower of two filters' bounds: the larger lower bound, the smaller upper one (0 = none). */
static int lower_bound(int a, int b)
{
    return a > b ? a : b;
}

static int upper_bound(int a, int b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

/* A zone's restrictions with the template's player filter folded in (issue 29). h3t has no
 * column for the template's filter; the game counts a template's start positions from the zones
 * whose restrictions take the players, so zones that exist only for the players the template
 * takes make it take the same setups (no start zone, no template), and nothing is lost. */
static rmg__player_filter folded_filter(const rmg__player_filter *zone, const rmg__player_filter *tpl)
{
    rmg__player_filter f = *zone;
    f.min_human = lower_bound(zone->min_human, tpl->min_human);
    f.max_human = upper_bound(zone->max_human, tpl->max_human);
    f.min_total = lower_bound(zone->min_total, tpl->min_total);
    f.max_total = upper_bound(zone->max_total, tpl->max_total);
    return f;
}

static void write_zone_kind(writer *w, const rmg__zone *z)
{
    static const rmg_zone_kind kinds[RMG__H3T_KNOWN_ZONE_TYPES] = {RMG_ZONE_HUMAN_START, RMG_ZONE_COMPUTER_START,
                                                                   RMG_ZONE_TREASURE, RMG_ZONE_JUNCTION};
    for (int i = 0; i < RMG__H3T_KNOWN_ZONE_TYPES && i < w->lay.zone_types; i++)
        if (kinds[i] == z->kind) {
            cell_flag(w, w->lay.z_types + i, true);
            return;
        }
    warn(w, "the %s zone kind has no h3t column: written as a treasure zone",
         z->kind == RMG_ZONE_WATER ? "water" : "rock");
    cell_flag(w, w->lay.z_types + 2, true);
}

/* Flags of the first `n` bits of a mask (bit i = column i); bits beyond are reported. */
static void cell_mask_flags(writer *w, int col, uint32_t mask, int n, const char *what)
{
    for (int i = 0; i < n && i < 32; i++)
        cell_flag(w, col + i, (mask >> i) & 1u);
    uint32_t known = n >= 32 ? UINT32_MAX : ((uint32_t)1 << n) - 1u;
    if (mask & ~known & ~((uint32_t)1 << RMG__H3T_NEUTRAL_BIT))
        warn(w, "%s beyond the %d columns of this layout are left out", what, n);
}

static void write_zone_towns(writer *w, const rmg__zone *z)
{
    const rmg__h3t_layout *l = &w->lay;
    cell_count(w, l->z_owner, z->owner);
    const int player[4] = {z->player_towns, z->player_castles, z->player_town_density, z->player_castle_density};
    const int neutral[4] = {z->neutral_towns, z->neutral_castles, z->neutral_town_density,
                            z->neutral_castle_density};
    for (int i = 0; i < 4; i++)
        cell_count(w, l->z_ptowns + i, player[i]);
    for (int i = 0; i < 4; i++)
        cell_count(w, l->z_ntowns + i, neutral[i]);
    cell_flag(w, l->z_same, z->towns_same_type);
    /* HotA reads a zone without town flags as every town banned (FAC-03): no restriction is
     * every flag, a ban of all no flag. */
    uint32_t every = l->towns >= 32 ? UINT32_MAX : ((uint32_t)1 << l->towns) - 1u;
    uint32_t towns = z->allowed_towns ? z->allowed_towns : z->all_towns_banned ? 0 : every;
    cell_mask_flags(w, l->z_towns, towns, l->towns, "town types");
    for (int i = 0; i < 7; i++)
        cell_count(w, l->z_mines + i, z->mines_min[i]);
    for (int i = 0; i < 7; i++)
        cell_count(w, l->z_mine_dens + i, z->mines_density[i]);
}

static void write_zone_terrain(writer *w, const rmg__zone *z)
{
    const rmg__h3t_layout *l = &w->lay;
    cell_flag(w, l->z_match_terrain, z->terrain_match_town);
    uint32_t written = 0;
    for (int i = 0; i < l->terrains && i < RMG__H3T_KNOWN_TERRAINS; i++) {
        uint32_t bit = (uint32_t)1 << rmg__h3t_terrain_ids[i];
        cell_flag(w, l->z_terrains + i, (z->allowed_terrains & bit) != 0);
        written |= bit;
    }
    if (z->allowed_terrains & ~written)
        warn(w, "allowed terrains without an h3t column (water, rock) are left out");
}

static void write_zone_monsters(writer *w, const rmg__zone *z)
{
    static const char *const strength[] = {"none", "weak", "avg", "strong"};
    const rmg__h3t_layout *l = &w->lay;
    cell_str(w, l->z_strength, (unsigned)z->monster_strength < 4 ? strength[z->monster_strength] : "avg");
    cell_flag(w, l->z_match_monsters, z->monsters_match_town);
    cell_flag(w, l->z_neutral, (z->monster_factions >> RMG__H3T_NEUTRAL_BIT) & 1u);
    cell_mask_flags(w, l->z_factions, z->monster_factions & ~((uint32_t)1 << RMG__H3T_NEUTRAL_BIT), l->towns,
                    "monster factions");
    for (int tier = 0; tier < 3; tier++) {
        const rmg__treasure *t = &z->treasure[tier];
        cell_count(w, l->z_treasure + 3 * tier, t->min);
        cell_count(w, l->z_treasure + 3 * tier + 1, t->max);
        cell_count(w, l->z_treasure + 3 * tier + 2, t->density);
    }
}

/* Joining percentage: the editor's index 0..3 for 25, 50, 75, 100 %. */
static int join_index(writer *w, int percent)
{
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (abs(25 * (i + 1) - percent) < abs(25 * (best + 1) - percent))
            best = i;
    if (25 * (best + 1) != percent)
        warn(w, "a joining chance of %d%% has no h3t value: %d%% written", percent, 25 * (best + 1));
    return best;
}

static void cell_allowed_factions(writer *w, int col, const rmg__zone *z)
{
    if (z->allowed_factions_raw && *z->allowed_factions_raw)
        cell_str(w, col, z->allowed_factions_raw);
    else if (z->allowed_factions_set)
        cell_mask_bans(w, col, z->allowed_factions, w->lay.towns);
}

static void write_zone_options(writer *w, const rmg__zone *z)
{
    static const char *const placement[] = {"", "ground", "underground"};
    const rmg__h3t_layout *l = &w->lay;
    int c = l->z_opt, n = l->zone_new;
    if (n > 0 && (unsigned)z->placement < 3)
        cell_str(w, c, placement[z->placement]);
    if (n > 1)
        cell_rules(w, c + 1, &z->rules, "zone");
    if (n > 2)
        cell_str(w, c + 2, z->min_objects_raw ? z->min_objects_raw : "");
    if (n > 3)
        cell_str(w, c + 3, z->image_raw ? z->image_raw : "");
    if (n > 4)
        cell_flag(w, c + 4, z->neutral_only);
    if (n > 5)
        cell_flag(w, c + 5, z->allow_noncoherent_roads);
    if (n > 6)
        cell_flag(w, c + 6, z->repulsion);
    if (n > 7)
        cell_hints(w, c + 7, z, RMG__H3T_HINT_TOWN);
    if (n > 11) {
        cell_int(w, c + 8, (int)z->mood);
        cell_count(w, c + 9, z->mood_value);
        cell_int(w, c + 10, join_index(w, z->join_percent));
        cell_flag(w, c + 11, z->join_only_for_money);
    }
    if (n > 13) {
        cell_count(w, c + 12, z->airship_min);
        cell_count(w, c + 13, z->airship_density);
    } else if (z->airship_min || z->airship_density) {
        warn(w, "airship yards have no columns in this layout");
    }
    if (n > 14)
        cell_hints(w, c + 14, z, RMG__H3T_HINT_TERRAIN);
    if (n > 15)
        cell_allowed_factions(w, c + 15, z);
    if (n > 16)
        cell_hints(w, c + 16, z, RMG__H3T_HINT_FACTION);
    if (n > 17)
        cell_count(w, c + 17, z->max_block_value);
}

static void write_zone(writer *w, const rmg__template *t, const rmg__zone *z)
{
    const rmg__h3t_layout *l = &w->lay;
    snprintf(w->where, sizeof w->where, "template '%s', zone %d", t->name ? t->name : "", z->id);
    cell_int(w, l->zone0, z->id);
    write_zone_kind(w, z);
    cell_number(w, l->z_size, z->size);
    rmg__player_filter restr = folded_filter(&z->players, &t->players);
    cell_filter(w, l->z_restr, &restr);
    write_zone_towns(w, z);
    write_zone_terrain(w, z);
    write_zone_monsters(w, z);
    write_zone_options(w, z);
}

static void write_connection(writer *w, const rmg__template *t, size_t index, const rmg__connection *c)
{
    static const char *const placement[] = {"", "ground", "underground", "teleport", "random"};
    const rmg__h3t_layout *l = &w->lay;
    snprintf(w->where, sizeof w->where, "template '%s', connection %zu", t->name ? t->name : "", index + 1);
    cell_int(w, l->conn0, c->zone_a);
    cell_int(w, l->conn0 + 1, c->zone_b);
    cell_int(w, l->c_value, c->value);
    cell_flag(w, l->c_wide, c->type == RMG_CONNECTION_WIDE);
    cell_flag(w, l->c_guard, c->type == RMG_CONNECTION_BORDER_GUARD);
    if (l->conn_new > 0)
        cell_str(w, l->c_new, c->roads == RMG_ROAD_SETTING_MANDATORY ? "+" : c->roads == RMG_ROAD_SETTING_FORBIDDEN ? "-" : "");
    if (l->conn_new > 1 && (unsigned)c->placement < RMG__ARRAY_LEN(placement))
        cell_str(w, l->c_new + 1, placement[c->placement]);
    if (l->conn_new > 2)
        cell_flag(w, l->c_new + 2, c->type == RMG_CONNECTION_FICTIVE);
    if (l->conn_new > 3)
        cell_flag(w, l->c_new + 3, c->monolith_repulsion);
    cell_filter(w, l->c_restr, &c->players);
}

/* A mirror link is a connection row with Zone 2 = -1 (spec §8.1). Legacy texts ("x ...") keep
 * their roads in the Road column. */
static void write_mirror_link(writer *w, const rmg__zone *z, const rmg__mirror_link *m)
{
    const rmg__h3t_layout *l = &w->lay;
    rmg__mirror_link parsed;
    char text[64];
    const char *code = NULL;
    memset(&parsed, 0, sizeof parsed);
    bool read_back = m->raw && rmg__h3t_parse_mirror_code(&w->rd, (rmg__h3t_cellref){l->c_guard, "raw"}, m->raw,
                                                          &parsed) == RMG_OK;
    w->raw_refused = w->raw_refused || (m->raw && !read_back);
    if (read_back &&
        parsed.surface_kind == m->surface_kind && parsed.underground_kind == m->underground_kind &&
        parsed.surface_color == m->surface_color && parsed.underground_color == m->underground_color &&
        (!parsed.roads || m->roads))
        code = m->raw;
    else if (rmg__h3t_compose_mirror(m, text, sizeof text))
        code = text;
    if (!code) {
        warn(w, "mirror link %s has no h3t form and is left out", m->raw ? m->raw : "");
        return;
    }
    cell_int(w, l->conn0, z->id);
    cell_int(w, l->conn0 + 1, -1);
    cell_int(w, l->c_value, m->value);
    cell_str(w, l->c_guard, code);
    bool roads_in_column = m->roads && !(code[0] == 'r' && (code[1] == ' ' || !code[1]));
    if (l->conn_new > 0)
        cell_str(w, l->c_new, roads_in_column ? "+" : "");
    if (l->conn_new > 3)
        cell_flag(w, l->c_new + 3, m->monolith_repulsion);
    cell_filter(w, l->c_restr, &m->players);
}

/* One connection row: a connection of the template, or a mirror link of one of its zones. */
typedef struct connection_row {
    const rmg__zone *zone;          /* the mirror link's zone, NULL for a connection */
    const rmg__mirror_link *link;
    size_t connection;
} connection_row;

static int by_row(const void *a, const void *b)
{
    const connection_row *x = a, *y = b;
    if (x->link->h3t_row != y->link->h3t_row)
        return x->link->h3t_row < y->link->h3t_row ? -1 : 1;
    return x->connection < y->connection ? -1 : x->connection > y->connection;   /* zone order kept */
}

/* The rows of the connection columns in file order: a mirror link goes back to the row it was
 * read from (h3t_row), the connections fill the other rows in their order. */
static connection_row *connection_rows(writer *w, const rmg__template *t, size_t *n)
{
    size_t links = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        links += t->zones[i].n_mirror_links;
    *n = t->n_connections + links;
    connection_row *rows = *n ? rmg__calloc(w->ctx, *n + links, sizeof *rows) : NULL;
    if (*n && !rows) {
        w->out.failed = true;
        *n = 0;
        return NULL;
    }
    connection_row *sorted = rows + *n;   /* the links, sorted by row (then zone order) */
    size_t k = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        for (size_t j = 0; j < t->zones[i].n_mirror_links; j++, k++)
            sorted[k] = (connection_row){&t->zones[i], &t->zones[i].mirror_links[j], k};
    if (links)
        qsort(sorted, links, sizeof *sorted, by_row);
    size_t next_link = 0, next_connection = 0;
    for (size_t row = 0; row < *n; row++) {
        bool link_here = next_link < links && (next_connection == t->n_connections ||
                                               (size_t)RMG__MAX(sorted[next_link].link->h3t_row, 0) <= row);
        rows[row] = link_here ? sorted[next_link++] : (connection_row){NULL, NULL, next_connection++};
    }
    return rows;
}

static void write_connection_row(writer *w, const rmg__template *t, const connection_row *row)
{
    if (!row->link) {
        write_connection(w, t, row->connection, &t->connections[row->connection]);
        return;
    }
    snprintf(w->where, sizeof w->where, "template '%s', zone %d", t->name ? t->name : "", row->zone->id);
    write_mirror_link(w, row->zone, row->link);
}

/* A template takes as many rows as it has zones or connection rows; zones and connections share
 * them (spec §3). Its settings are on its first row, the pack's on the file's first data row. */
static void write_template(writer *w, const rmg__template *t, bool first)
{
    size_t links;
    connection_row *order = connection_rows(w, t, &links);
    size_t rows = RMG__MAX(RMG__MAX(t->n_zones, links), (size_t)1);
    for (size_t row = 0; row < rows; row++) {
        snprintf(w->where, sizeof w->where, "template '%s'", t->name ? t->name : "");
        if (row == 0 && first) {
            write_counts(w);
            write_pack(w);
        }
        if (row == 0)
            write_map(w, t);
        if (row < t->n_zones)
            write_zone(w, t, &t->zones[row]);
        if (row < links)
            write_connection_row(w, t, &order[row]);
        end_row(w);
    }
    rmg__free(w->ctx, order);
}

/* ---- the file ------------------------------------------------------------------------------------- */

static void write_header(writer *w)
{
    const char *(*const rows[3])(const rmg__h3t_layout *, int) = {rmg__h3t_section_name, rmg__h3t_group_name,
                                                                   rmg__h3t_column_name};
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < w->lay.width; c++)
            cell_str(w, c, rows[r](&w->lay, c));
        if (r == 0)
            end_row(w);   /* row 1 carries the trailing empty cell, rows 2 and 3 do not */
        else {
            rmg__buf_puts(&w->out, "\r\n");
            w->col = -1;
        }
    }
}

/* The code page of the file's free text: Western (cp1252) when it can hold all of it, else
 * Cyrillic (cp1251), else UTF-8 (which the game shows as it can). */
static rmg__h3t_encoding choose_encoding(const struct rmg_pack *p)
{
    static const rmg__h3t_encoding pages[2] = {RMG__H3T_CP1252, RMG__H3T_CP1251};
    for (int k = 0; k < 2; k++) {
        bool fits = rmg__h3t_fits(p->name, pages[k]) && rmg__h3t_fits(p->description, pages[k]) &&
                    rmg__h3t_fits(p->tags, pages[k]);
        for (size_t i = 0; i < p->n_templates && fits; i++)
            fits = rmg__h3t_fits(p->templates[i].name, pages[k]);
        if (fits)
            return pages[k];
    }
    return RMG__H3T_UTF8;
}

/* The layout asked for: AUTO keeps the pack's own (that of the h3t file it was read from). */
static rmg_status pick_layout(writer *w)
{
    const rmg__h3t_counts *c = &rmg__h3t_counts_1_8;
    const rmg__h3t_counts *own = &w->pack->h3t_columns;
    switch (w->opt->version) {
    case RMG_H3T_AUTO:
        if (own->towns)
            c = own;
        break;
    case RMG_H3T_1_7:
        c = &rmg__h3t_counts_1_7;
        break;
    case RMG_H3T_1_8:
        break;
    default:
        return rmg__error_set(w->ctx, RMG_ERR_INVALID_ARG, "unknown h3t version %d", (int)w->opt->version);
    }
    const int v[7] = {c->towns, c->terrains, c->zone_types, c->pack, c->map, c->zone, c->connection};
    for (int i = 0; i < 7; i++)
        if (v[i] < 0 || v[i] > RMG__H3T_MAX_COUNT)
            return rmg__error_set(w->ctx, RMG_ERR_INVALID_DATA, "h3t_columns: %d is no count of an h3t layout (0..%d)",
                                  v[i], RMG__H3T_MAX_COUNT);
    rmg__h3t_layout_of(&w->lay, c);
    bool src18 = !own->towns || own->towns >= 12, out18 = w->lay.towns >= 12;
    w->raw_rules_fit = src18 == out18;
    return RMG_OK;
}

rmg_status rmg__h3t_write(const struct rmg_pack *pack, const rmg_h3t_write_options *opt, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    writer w;
    memset(&w, 0, sizeof w);
    w.ctx = pack->ctx;
    w.pack = pack;
    w.opt = opt;
    w.col = -1;
    rmg_status st = pick_layout(&w);
    if (st == RMG_OK)
        st = rmg__pack_new(w.ctx, &w.scratch);
    if (st != RMG_OK)
        return st;
    w.rd.ctx = w.ctx;
    w.rd.pack = w.scratch;
    w.rd.name = "raw";
    w.enc = choose_encoding(pack);
    rmg__buf_init(&w.out, w.ctx);
    write_header(&w);
    for (size_t i = 0; i < pack->n_templates; i++)
        write_template(&w, &pack->templates[i], i == 0);
    if (!pack->n_templates)
        warn(&w, "the pack has no template: HotA reads no template from the file");
    st = rmg__buf_finish(&w.out, out, len);
    if (st == RMG_OK && w.raw_refused)   /* a raw text that no longer reads is no failure of this call */
        rmg_context_clear_error(w.ctx);
    rmg__buf_free(&w.out);
    rmg__free(w.ctx, w.rd.scratch);
    rmg__pack_free(w.scratch);
    return st;
}
