/*
 * HotA h3t / rmg.txt and SoD rmg.txt reader: splits the tab-separated records, computes the
 * column layout from the row-4 field counts (or the fixed SoD layout), and fills the template
 * model row by row. Columns as implemented: docs/h3t-import.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3t.h"
#include "rmg/content.h" /* the game's towns */
#include "template/importers.h"

/* ---- records ---------------------------------------------------------------------------------- */

/* One record at a time: memory is bounded by the longest record, not the file. */
typedef struct records {
    rmg_context *ctx;
    const char *data;
    size_t len, pos;
    char *buf;                  /* the cells of the current record, each NUL-terminated */
    size_t buf_cap;
    RMG__VEC(size_t) cells;     /* offsets into buf */
    int row;                    /* 1-based number of the current record */
    bool open;                  /* the current record ran into the end of the input (no line break) */
} records;

static bool records_grow(records *r, size_t need)
{
    if (need <= r->buf_cap)
        return true;
    size_t cap = RMG__MAX(need, r->buf_cap * 2);
    char *p = rmg__realloc(r->ctx, r->buf, cap);
    if (!p)
        return false;
    r->buf = p;
    r->buf_cap = cap;
    return true;
}

static rmg_status nul_byte(const records *r, const char *name, int col)
{
    return rmg__error_at(r->ctx, RMG_ERR_PARSE, name, r->row, col + 1, "row %d, column %d: NUL byte (not a text file)",
                         r->row, col + 1);
}

/* The quoted cell at r->pos (on its opening '"'): its text, with doubled quotes made single,
 * goes to r->buf at *o. Line breaks inside are data, so the cell may span rows. */
static rmg_status read_quoted(records *r, const char *name, int col, size_t *o)
{
    r->pos++;
    for (;;) {
        if (r->pos >= r->len)
            return rmg__error_at(r->ctx, RMG_ERR_PARSE, name, r->row, col + 1,
                                 "row %d, column %d: quoted field is not closed before the end of the file", r->row,
                                 col + 1);
        char c = r->data[r->pos++];
        if (c == '"') {
            if (r->pos < r->len && r->data[r->pos] == '"')
                r->pos++;
            else
                return RMG_OK;
        }
        if (c == '\0')
            return nul_byte(r, name, col);
        if (!records_grow(r, *o + 2))
            return rmg__error_nomem(r->ctx);
        r->buf[(*o)++] = c;
    }
}

/* Reads the next record. Returns RMG_OK and *got = false at the end of the input.
 * Quoting (spec §1): a cell that starts with '"' runs to the next '"' not doubled; line breaks
 * inside are data. Unquoted cells end at TAB, CR, LF or CRLF. */
static rmg_status records_next(records *r, const char *name, bool *got)
{
    *got = false;
    r->cells.count = 0;
    if (r->pos >= r->len)
        return RMG_OK;
    if (r->row == INT32_MAX)
        return rmg__error_at(r->ctx, RMG_ERR_LIMIT, name, r->row, 0, "more than %d rows", INT32_MAX - 1);
    r->row++;
    /* Unescaped cells are never longer than the raw record; +1 NUL per cell. */
    size_t o = 0;
    bool cell_start = true;
    int col = 0;
    r->open = false;
    for (;;) {
        if (!records_grow(r, o + 2) ||
            (cell_start && !RMG__VEC_PUSH(r->ctx, &r->cells, o)))
            return rmg__error_nomem(r->ctx);
        if (cell_start && r->pos < r->len && r->data[r->pos] == '"') {
            rmg_status st = read_quoted(r, name, col, &o);
            if (st != RMG_OK)
                return st;
        }
        cell_start = false;
        if (r->pos >= r->len) {
            r->buf[o] = '\0';
            r->open = true;
            break;
        }
        char c = r->data[r->pos++];
        if (c == '\t') {
            if (col == INT32_MAX - 1)
                return rmg__error_at(r->ctx, RMG_ERR_LIMIT, name, r->row, col, "row %d has too many columns", r->row);
            r->buf[o++] = '\0';
            cell_start = true;
            col++;
            continue;
        }
        if (c == '\r' || c == '\n') {
            if (c == '\r' && r->pos < r->len && r->data[r->pos] == '\n')
                r->pos++;
            r->buf[o] = '\0';
            break;
        }
        if (c == '\0')
            return nul_byte(r, name, col);
        r->buf[o++] = c;
    }
    *got = true;
    return RMG_OK;
}

static void records_free(records *r)
{
    rmg__free(r->ctx, r->buf);
    RMG__VEC_FREE(r->ctx, &r->cells);
}

/* ---- reader ------------------------------------------------------------------------------------ */

typedef struct pending_mirror {   /* a "Zone 2 = -1" row, attached when the template is complete */
    int zone;
    int row, col;
    rmg__mirror_link link;
} pending_mirror;

typedef struct reader {
    rmg__h3t_reader base;
    records rec;
    rmg__h3t_layout lay;
    rmg__h3t_encoding enc;
    bool in_template;
    RMG__VEC(pending_mirror) mirrors;
    bool keep_going;                 /* rmg check: a defect of a row is recorded, the next row read */
} reader;

static const char *cell_at(const reader *r, int col)
{
    return col >= 0 && (size_t)col < r->rec.cells.count ? r->rec.buf + r->rec.cells.items[col] : "";
}

static bool blank(const char *s)
{
    while (*s == ' ')
        s++;
    return *s == '\0';
}

static bool flag_at(const reader *r, int col)
{
    return !blank(cell_at(r, col));
}

void rmg__h3t_note(rmg__h3t_reader *rd, rmg__h3t_warning kind, int col, const char *detail)
{
    rmg__h3t_tally *n = &rd->notes[kind];
    if (n->count++ == 0) {
        n->row = rd->row;
        n->col = col + 1;
        snprintf(n->detail, sizeof n->detail, "%s", detail ? detail : "");
        rmg__h3t_sanitize(n->detail);
    }
}

rmg_status rmg__h3t_error(rmg__h3t_reader *rd, int col, const char *what, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rmg__h3t_sanitize(msg);   /* cell text quoted in messages may be any bytes */
    char hint[128] = "";
    if (rd->header_cells && rd->row_cells < rd->header_cells)
        snprintf(hint, sizeof hint, "; row %d has %zu cells, the header has %zu: a cell may be missing before this one",
                 rd->row, rd->row_cells, rd->header_cells);
    return rmg__error_at(rd->ctx, RMG_ERR_PARSE, rd->name, rd->row, col + 1, "row %d, column %d (%s): %s%s", rd->row,
                         col + 1, what, msg, hint);
}

static rmg__h3t_cellref ref(int col, const char *what)
{
    rmg__h3t_cellref c = {col, what};
    return c;
}

/* The integer before `stop` in s when what follows it consists of `tail` characters only: the
 * leading number the game reads from such a cell. Warns with `note`. */
static bool leading_integer(reader *r, int col, const char *s, const char *stop, const char *tail,
                            rmg__h3t_warning note, int64_t *out)
{
    if (!stop || stop == s || strspn(stop + 1, tail) != strlen(stop + 1))
        return false;
    char head[32];
    size_t n = (size_t)(stop - s);
    if (n >= sizeof head)
        return false;
    memcpy(head, s, n);
    head[n] = '\0';
    if (!rmg__h3t_parse_int64(head, out))
        return false;
    rmg__h3t_note(&r->base, note, col, s);
    return true;
}

/* "12.7" in an integer column: the game reads such cells with the integer part (the shipped
 * SoD rmg.txt has connection zones 5.9, 6.3, 6.7), so do the same and warn. */
static bool integer_part(reader *r, int col, const char *s, int64_t *out)
{
    const char *dot = strchr(s, '.');
    if (!dot || dot[1] < '0' || dot[1] > '9')
        return false;
    return leading_integer(r, col, s, dot, "0123456789 ", RMG__H3T_W_FRACTION, out);
}

/* "9, 8" in an integer column (seen in a SoD rmg.txt connection cell): the game reads the first
 * number, so do the same and warn. */
static bool first_of_list(reader *r, int col, const char *s, int64_t *out)
{
    return leading_integer(r, col, s, strchr(s, ','), " 0123456789-,", RMG__H3T_W_NUMBER_LIST, out);
}

/* Integer cell in [lo, hi]; empty = def. */
static rmg_status int_at(reader *r, int col, const char *what, int64_t lo, int64_t hi, int64_t def, int64_t *out)
{
    const char *s = cell_at(r, col);
    if (blank(s)) {
        *out = def;
        return RMG_OK;
    }
    if (!rmg__h3t_parse_int64(s, out) && !integer_part(r, col, s, out) && !first_of_list(r, col, s, out))
        return rmg__h3t_error(&r->base, col, what, "expected an integer, found '%.40s'", s);
    if (*out < lo || *out > hi)
        return rmg__h3t_error(&r->base, col, what, "%lld is out of range %lld..%lld", (long long)*out,
                              (long long)lo, (long long)hi);
    return RMG_OK;
}

static rmg_status int32_at(reader *r, int col, const char *what, int lo, int hi, int def, int *out)
{
    int64_t v;
    rmg_status st = int_at(r, col, what, lo, hi, def, &v);
    if (st == RMG_OK)   /* only values in range reach the model */
        *out = (int)v;
    return st;
}

/* Decimal number "[-]digits[.digits]" (',' accepted as the decimal mark); empty = def.
 * Parsed without strtod so the result does not depend on the C locale. */
static rmg_status number_at(reader *r, int col, const char *what, double def, double *out)
{
    const char *s = cell_at(r, col);
    while (*s == ' ')
        s++;
    if (!*s) {
        *out = def;
        return RMG_OK;
    }
    const char *p = s;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    uint64_t mant = 0, scale = 1;
    int digits = 0;
    bool frac = false;
    for (; *p && *p != ' '; p++) {
        if ((*p == '.' || *p == ',') && !frac) {
            frac = true;
            continue;
        }
        if (*p < '0' || *p > '9' || ++digits > 15)
            return rmg__h3t_error(&r->base, col, what, "expected a number with at most 15 digits, found '%.40s'", s);
        mant = mant * 10 + (uint64_t)(*p - '0');
        if (frac)
            scale *= 10;
    }
    if (!blank(p) || digits == 0)
        return rmg__h3t_error(&r->base, col, what, "expected a number, found '%.40s'", s);
    *out = (neg ? -1.0 : 1.0) * ((double)mant / (double)scale);
    return RMG_OK;
}

/* Free text converted to UTF-8; `trim` drops surrounding spaces (names). */
static char *text_at(reader *r, int col, bool trim)
{
    const char *s = cell_at(r, col);
    size_t n = strlen(s);
    if (trim) {
        while (*s == ' ')
            s++, n--;
        while (n && s[n - 1] == ' ')
            n--;
    }
    return rmg__h3t_to_utf8(&r->base.pack->arena, s, n, r->enc);
}

/* A cell kept verbatim (converted to UTF-8 like all text of the model). */
static char *raw_at(reader *r, int col)
{
    const char *s = cell_at(r, col);
    return rmg__h3t_to_utf8(&r->base.pack->arena, s, strlen(s), r->enc);
}

/* True if any cell in [from, to) is non-blank; *first gets its column. */
static bool any_cell(const reader *r, int from, int to, int *first)
{
    for (int c = from; c < to && (size_t)c < r->rec.cells.count; c++) {
        if (!blank(cell_at(r, c))) {
            *first = c;
            return true;
        }
    }
    return false;
}

static void note_surplus(reader *r, int from, int to)
{
    int c;
    if (any_cell(r, from, to, &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_SURPLUS_COLUMN, c, cell_at(r, c));
}

static rmg__template *current_template(reader *r)
{
    return &r->base.pack->templates[r->base.pack->n_templates - 1];
}

/* ---- pack (row 4) ------------------------------------------------------------------------------ */

/* The seven field counts of row 4 (spec §2). */
static rmg_status read_counts(reader *r)
{
    static const char *const names[7] = {"Field count/Town", "Field count/Terrain", "Field count/Zone type",
                                         "Field count/Pack new", "Field count/Map new", "Field count/Zone new",
                                         "Field count/Connection new"};
    int v[7];
    for (int i = 0; i < 7; i++) {
        if (blank(cell_at(r, i)))
            return rmg__h3t_error(&r->base, i, names[i], "the field count is missing (a HotA pack needs the seven "
                                                         "counts in row 4)");
        rmg_status st = int32_at(r, i, names[i], 0, RMG__H3T_MAX_COUNT, 0, &v[i]);
        if (st != RMG_OK)
            return st;
    }
    rmg__h3t_counts counts = {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
    rmg__h3t_layout_of(&r->lay, &counts);
    /* Kept for the writer, which writes the same layout again (1.8, its default, is left 0). */
    if (memcmp(&counts, &rmg__h3t_counts_1_8, sizeof counts) != 0)
        r->base.pack->h3t_columns = counts;
    return RMG_OK;
}

static rmg_status read_pack(reader *r)
{
    struct rmg_pack *p = r->base.pack;
    const rmg__h3t_layout *l = &r->lay;
    int c = l->pack0, n = l->pack_n;
    rmg_status st = RMG_OK;
    if (n > 0 && !(p->name = text_at(r, c, true)))
        return rmg__error_nomem(r->base.ctx);
    if (n > 1 && !blank(cell_at(r, c + 1)) && !(p->description = text_at(r, c + 1, false)))
        return rmg__error_nomem(r->base.ctx);
    if (n > 2 && !blank(cell_at(r, c + 2))) {
        uint32_t mask;
        int towns = RMG__MAX(l->towns, 1);
        if (!rmg__h3t_id_mask(cell_at(r, c + 2), towns, &mask))
            return rmg__h3t_error(&r->base, c + 2, "Pack/Town selection",
                                  "expected +ID/-ID town numbers 0..%d, found '%.40s'", towns - 1, cell_at(r, c + 2));
        uint32_t all = towns >= 32 ? UINT32_MAX : ((uint32_t)1 << towns) - 1u;
        if (mask == 0)
            rmg__h3t_note(&r->base, RMG__H3T_W_ALL_TOWNS_BANNED, c + 2, cell_at(r, c + 2));
        p->allowed_towns = mask == all ? 0 : mask;
    }
    if (n > 3)
        st = rmg__h3t_parse_id_list(&r->base, ref(c + 3, "Pack/Heroes"), cell_at(r, c + 3), 1023, &p->heroes);
    if (st != RMG_OK)
        return st;
    if (n > 4)
        p->mirror = flag_at(r, c + 4);
    if (n > 5 && !blank(cell_at(r, c + 5))) {
        if (!(p->tags = text_at(r, c + 5, true)))
            return rmg__error_nomem(r->base.ctx);
        rmg__h3t_note(&r->base, RMG__H3T_W_TAGS, c + 5, p->tags);
    }
    if (n > 6 && (st = int32_at(r, c + 6, "Pack/Max Battle Rounds", 0, INT32_MAX, 0, &p->max_battle_rounds)) != RMG_OK)
        return st;
    if (n > 7)
        p->forbid_hiring_heroes = flag_at(r, c + 7);
    note_surplus(r, c + RMG__H3T_KNOWN_PACK, c + n);
    return RMG_OK;
}

/* ---- templates ("Map" columns) ------------------------------------------------------------------ */

static rmg_status read_map_options(reader *r, rmg__template *t)
{
    const rmg__h3t_layout *l = &r->lay;
    int c = l->map_new0, n = l->map_new;
    rmg_status st = RMG_OK;
    rmg__h3t_reader *rd = &r->base;
    if (n > 0)
        st = rmg__h3t_parse_id_list(rd, ref(c, "Map/Artifacts"), cell_at(r, c), 1023, &t->artifacts);
    if (st == RMG_OK && n > 1) {
        st = rmg__h3t_parse_id_list(rd, ref(c + 1, "Map/Combo Arts"), cell_at(r, c + 1), 255, &t->combo_artifacts);
        if (t->combo_artifacts.count)
            rmg__h3t_note(rd, RMG__H3T_W_COMBO_ARTS, c + 1, cell_at(r, c + 1));
    }
    if (st == RMG_OK && n > 2)
        st = rmg__h3t_parse_id_list(rd, ref(c + 2, "Map/Spells"), cell_at(r, c + 2), 1023, &t->spells);
    if (st == RMG_OK && n > 3)
        st = rmg__h3t_parse_id_list(rd, ref(c + 3, "Map/Secondary skills"), cell_at(r, c + 3), 255, &t->skills);
    if (st == RMG_OK && n > 4)
        st = rmg__h3t_parse_rules(rd, ref(c + 4, "Map/Objects"), cell_at(r, c + 4), &t->rules);
    if (st != RMG_OK)
        return st;
    if (n > 5 && flag_at(r, c + 5)) {   /* Rock blocks: "x" = radius 1, or the radius */
        t->rock_masses = true;
        if (strcmp(cell_at(r, c + 5), "x") != 0 &&
            (st = number_at(r, c + 5, "Map/Rock blocks", 1.0, &t->rock_radius)) != RMG_OK)
            return st;
        if (t->rock_radius < 0)
            return rmg__h3t_error(rd, c + 5, "Map/Rock blocks", "the radius must not be negative");
    }
    if (n > 6 && (st = number_at(r, c + 6, "Map/Zone sparseness", 1.0, &t->zone_sparseness)) != RMG_OK)
        return st;
    if (t->zone_sparseness < 0)
        return rmg__h3t_error(rd, c + 6, "Map/Zone sparseness", "must not be negative");
    if (n > 7)
        t->special_weeks = !flag_at(r, c + 7);
    if (n > 8)
        t->spell_research = flag_at(r, c + 8);   /* the editor writes "x" for on; empty = off */
    if (n > 9)
        t->anarchy = flag_at(r, c + 9);
    note_surplus(r, c + RMG__H3T_KNOWN_MAP_NEW, c + n);
    return RMG_OK;
}

static rmg_status start_template(reader *r)
{
    rmg__template *t = rmg__pack_add_template(r->base.pack);
    if (!t)
        return rmg__error_nomem(r->base.ctx);
    const rmg__h3t_layout *l = &r->lay;
    t->loc.line = r->base.row;
    t->loc.column = l->map0 + 1;
    if (!(t->name = text_at(r, l->map0, true)))
        return rmg__error_nomem(r->base.ctx);
    rmg_status st = int32_at(r, l->map0 + 1, "Map/Minimum Size", 0, INT32_MAX, t->min_size, &t->min_size);
    if (st == RMG_OK)
        st = int32_at(r, l->map0 + 2, "Map/Maximum Size", 0, INT32_MAX, t->max_size, &t->max_size);
    if (st == RMG_OK)
        st = read_map_options(r, t);
    r->in_template = true;
    return st;
}

/* ---- zones ------------------------------------------------------------------------------------------ */

static rmg_status read_filter(reader *r, int c, const char *what, rmg__player_filter *f)
{
    int *dst[4] = {&f->min_human, &f->max_human, &f->min_total, &f->max_total};
    for (int i = 0; i < 4; i++) {
        rmg_status st = int32_at(r, c + i, what, 0, INT32_MAX, 0, dst[i]);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

static rmg_status read_zone_kind(reader *r, rmg__zone *z)
{
    static const rmg_zone_kind kinds[RMG__H3T_KNOWN_ZONE_TYPES] = {RMG_ZONE_HUMAN_START, RMG_ZONE_COMPUTER_START,
                                                          RMG_ZONE_TREASURE, RMG_ZONE_JUNCTION};
    const rmg__h3t_layout *l = &r->lay;
    int found = 0;
    for (int i = 0; i < l->zone_types; i++) {
        if (!flag_at(r, l->z_types + i))
            continue;
        if (i >= RMG__H3T_KNOWN_ZONE_TYPES) {
            rmg__h3t_note(&r->base, RMG__H3T_W_SURPLUS_COLUMN, l->z_types + i, cell_at(r, l->z_types + i));
            continue;
        }
        if (found++ == 0)
            z->kind = kinds[i];
    }
    if (found == 0)
        rmg__h3t_note(&r->base, RMG__H3T_W_ZONE_NO_TYPE, l->z_types, NULL);
    else if (found > 1)
        rmg__h3t_note(&r->base, RMG__H3T_W_ZONE_MANY_TYPES, l->z_types, NULL);
    return RMG_OK;
}

static rmg_status read_towns(reader *r, rmg__zone *z)
{
    const rmg__h3t_layout *l = &r->lay;
    int *player[4] = {&z->player_towns, &z->player_castles, &z->player_town_density, &z->player_castle_density};
    int *neutral[4] = {&z->neutral_towns, &z->neutral_castles, &z->neutral_town_density, &z->neutral_castle_density};
    rmg_status st = int32_at(r, l->z_owner, "Zone/Ownership", 0, 8, 0, &z->owner);
    for (int i = 0; i < 4 && st == RMG_OK; i++)
        st = int32_at(r, l->z_ptowns + i, "Zone/Player towns", 0, INT32_MAX, 0, player[i]);
    for (int i = 0; i < 4 && st == RMG_OK; i++)
        st = int32_at(r, l->z_ntowns + i, "Zone/Neutral towns", 0, INT32_MAX, 0, neutral[i]);
    z->towns_same_type = flag_at(r, l->z_same);
    bool any = false;
    for (int i = 0; i < l->towns; i++) {
        if (!flag_at(r, l->z_towns + i))
            continue;
        any = true;
        if (i < RMG__H3T_KNOWN_TOWNS)
            z->allowed_towns |= (uint32_t)1 << i;
        else
            rmg__h3t_note(&r->base, RMG__H3T_W_SURPLUS_COLUMN, l->z_towns + i, cell_at(r, l->z_towns + i));
    }
    /* In a HotA file no town flag is the editor's "every town banned" (the guide: a zone
     * without towns then takes its faction from its terrain, FAC-03). SoD's own files leave the
     * flags of its player zones empty: there it means no restriction. docs/h3t-import.md. */
    z->all_towns_banned = !any && !r->lay.sod;
    /* Every town of a layout that knows all the game's towns allowed is no restriction: the model
     * says so with an empty list, which the writer turns back into every flag. */
    int known = RMG__MIN(l->towns, RMG__H3T_KNOWN_TOWNS);
    if (known > RMG_FACTION_FACTORY && z->allowed_towns == ((uint32_t)1 << known) - 1u)
        z->allowed_towns = 0;
    return st;
}

static rmg_status read_mines_terrain(reader *r, rmg__zone *z)
{
    const rmg__h3t_layout *l = &r->lay;
    rmg_status st = RMG_OK;
    for (int i = 0; i < 7 && st == RMG_OK; i++)
        st = int32_at(r, l->z_mines + i, "Zone/Minimum mines", 0, INT32_MAX, 0, &z->mines_min[i]);
    for (int i = 0; i < 7 && st == RMG_OK; i++)
        st = int32_at(r, l->z_mine_dens + i, "Zone/Mine Density", 0, INT32_MAX, 0, &z->mines_density[i]);
    z->terrain_match_town = flag_at(r, l->z_match_terrain);
    for (int i = 0; i < l->terrains; i++) {
        if (!flag_at(r, l->z_terrains + i))
            continue;
        if (i < RMG__H3T_KNOWN_TERRAINS)
            z->allowed_terrains |= (uint32_t)1 << rmg__h3t_terrain_ids[i];
        else
            rmg__h3t_note(&r->base, RMG__H3T_W_SURPLUS_COLUMN, l->z_terrains + i, cell_at(r, l->z_terrains + i));
    }
    return st;
}

static rmg_status read_monsters(reader *r, rmg__zone *z)
{
    static const struct { const char *word; rmg_monster_strength s; } words[] = {
        {"none", RMG_MONSTERS_NONE}, {"weak", RMG_MONSTERS_WEAK}, {"avg", RMG_MONSTERS_MEDIUM},
        {"average", RMG_MONSTERS_MEDIUM}, {"strong", RMG_MONSTERS_STRONG}};
    const rmg__h3t_layout *l = &r->lay;
    const char *s = cell_at(r, l->z_strength);
    if (!blank(s)) {
        size_t i = 0;
        while (i < RMG__ARRAY_LEN(words) && strcmp(words[i].word, s) != 0)
            i++;
        if (i == RMG__ARRAY_LEN(words))
            return rmg__h3t_error(&r->base, l->z_strength, "Zone/Monsters/Strength",
                                  "expected none, weak, avg or strong, found '%.40s'", s);
        z->monster_strength = words[i].s;
    }
    z->monsters_match_town = flag_at(r, l->z_match_monsters);
    if (flag_at(r, l->z_neutral))
        z->monster_factions |= (uint32_t)1 << RMG__H3T_NEUTRAL_BIT;
    for (int i = 0; i < l->towns; i++) {
        if (!flag_at(r, l->z_factions + i))
            continue;
        if (i < RMG__H3T_KNOWN_TOWNS)
            z->monster_factions |= (uint32_t)1 << i;
        else
            rmg__h3t_note(&r->base, RMG__H3T_W_SURPLUS_COLUMN, l->z_factions + i, cell_at(r, l->z_factions + i));
    }
    rmg_status st = RMG_OK;
    for (int tier = 0; tier < 3 && st == RMG_OK; tier++) {
        int c = l->z_treasure + 3 * tier;
        rmg__treasure *t = &z->treasure[tier];
        st = int_at(r, c, "Zone/Treasure/Low", 0, INT64_MAX, 0, &t->min);
        if (st == RMG_OK)
            st = int_at(r, c + 1, "Zone/Treasure/High", 0, INT64_MAX, 0, &t->max);
        if (st == RMG_OK)
            st = int_at(r, c + 2, "Zone/Treasure/Density", 0, INT64_MAX, 0, &t->density);
    }
    return st;
}

static rmg_status read_placement(reader *r, int c, rmg__zone *z)
{
    const char *s = cell_at(r, c);
    if (blank(s))
        z->placement = RMG_PLACEMENT_ANY;
    else if (strcmp(s, "ground") == 0)
        z->placement = RMG_PLACEMENT_SURFACE;
    else if (strcmp(s, "underground") == 0)
        z->placement = RMG_PLACEMENT_UNDERGROUND;
    else
        return rmg__h3t_error(&r->base, c, "Zone/Placement", "expected ground, underground or empty, found '%.40s'",
                              s);
    return RMG_OK;
}

static rmg_status read_monster_mood(reader *r, int c, rmg__zone *z)
{
    static const int join_percent[4] = {25, 50, 75, 100};
    int mood = z->mood, join = 1;
    rmg_status st = int32_at(r, c, "Zone/Monsters disposition (standard)", 0, 5, (int)z->mood, &mood);
    if (st == RMG_OK)
        st = int32_at(r, c + 1, "Zone/Monsters disposition (custom)", 0, 10, 0, &z->mood_value);
    if (st == RMG_OK)
        st = int32_at(r, c + 2, "Zone/Monsters joining percentage", 0, 3, 1, &join);
    if (st != RMG_OK)
        return st;
    z->mood = (rmg_mood)mood;
    z->join_percent = join_percent[join];
    z->join_only_for_money = flag_at(r, c + 3);
    return RMG_OK;
}

/* Allowed Factions (ZON-09): never used in the corpus; read as an ID list when it is one. */
static rmg_status read_allowed_factions(reader *r, int c, rmg__zone *z)
{
    const char *s = cell_at(r, c);
    if (blank(s))
        return RMG_OK;
    if (!(z->allowed_factions_raw = raw_at(r, c)))
        return rmg__error_nomem(r->base.ctx);
    uint32_t mask;
    if (rmg__h3t_id_mask(s, RMG__MAX(r->lay.towns, 1), &mask)) {
        z->allowed_factions_set = true;
        z->allowed_factions = mask;
    }
    rmg__h3t_note(&r->base, RMG__H3T_W_ALLOWED_FACTIONS, c, s);
    return RMG_OK;
}

/* The "new" zone options in their fixed order (spec §7, Appendix A). */
static rmg_status read_zone_options(reader *r, rmg__zone *z)
{
    const rmg__h3t_layout *l = &r->lay;
    int c = l->z_opt, n = l->zone_new;
    rmg__h3t_reader *rd = &r->base;
    rmg_status st = RMG_OK;
    if (n > 0)
        st = read_placement(r, c, z);
    if (st == RMG_OK && n > 1)
        st = rmg__h3t_parse_rules(rd, ref(c + 1, "Zone/Objects"), cell_at(r, c + 1), &z->rules);
    if (st != RMG_OK)
        return st;
    for (size_t i = 0; i < z->rules.count; i++)   /* RUL-02: zone rules have no per-map limit */
        if (z->rules.items[i].op == RMG_RULE_ALLOW && z->rules.items[i].max_map != RMG__PARAM_DEFAULT)
            rmg__h3t_note(rd, RMG__H3T_W_ZONE_MAX_MAP, c + 1, z->rules.items[i].raw);
    if (n > 2 && !blank(cell_at(r, c + 2))) {
        if (!(z->min_objects_raw = raw_at(r, c + 2)))
            return rmg__error_nomem(rd->ctx);
        rmg__h3t_note(rd, RMG__H3T_W_MIN_OBJECTS, c + 2, z->min_objects_raw);
    }
    if (n > 3 && !blank(cell_at(r, c + 3)) && !(z->image_raw = raw_at(r, c + 3)))
        return rmg__error_nomem(rd->ctx);
    if (n > 4)
        z->neutral_only = flag_at(r, c + 4);
    if (n > 5)
        z->allow_noncoherent_roads = flag_at(r, c + 5);
    if (n > 6)
        z->repulsion = flag_at(r, c + 6);
    if (n > 7)
        st = rmg__h3t_parse_hints(rd, ref(c + 7, "Zone/Town Hint"), cell_at(r, c + 7), RMG__H3T_HINT_TOWN, z);
    if (st == RMG_OK && n > 11)
        st = read_monster_mood(r, c + 8, z);
    if (st == RMG_OK && n > 12)
        st = int32_at(r, c + 12, "Zone/Minimum airship shipyards", 0, INT32_MAX, 0, &z->airship_min);
    if (st == RMG_OK && n > 13)
        st = int32_at(r, c + 13, "Zone/Airship shipyard Density", 0, INT32_MAX, 0, &z->airship_density);
    if (st == RMG_OK && n > 14)
        st = rmg__h3t_parse_hints(rd, ref(c + 14, "Zone/Terrain Hint"), cell_at(r, c + 14), RMG__H3T_HINT_TERRAIN, z);
    if (st == RMG_OK && n > 15)
        st = read_allowed_factions(r, c + 15, z);
    if (st == RMG_OK && n > 16)
        st = rmg__h3t_parse_hints(rd, ref(c + 16, "Zone/Faction Hint"), cell_at(r, c + 16), RMG__H3T_HINT_FACTION, z);
    if (st == RMG_OK && n > 17 && !blank(cell_at(r, c + 17))) {
        st = int_at(r, c + 17, "Zone/Max block value", 0, INT64_MAX, 0, &z->max_block_value);
        rmg__h3t_note(rd, RMG__H3T_W_MAX_BLOCK, c + 17, cell_at(r, c + 17));
    }
    if (st == RMG_OK)
        note_surplus(r, c + RMG__H3T_KNOWN_ZONE_NEW, c + n);
    return st;
}

static rmg_status read_zone(reader *r)
{
    const rmg__h3t_layout *l = &r->lay;
    rmg__template *t = current_template(r);
    rmg__zone *z = rmg__template_add_zone(r->base.pack, t);
    if (!z)
        return rmg__error_nomem(r->base.ctx);
    z->loc.line = r->base.row;
    z->loc.column = l->zone0 + 1;
    rmg_status st = int32_at(r, l->zone0, "Zone/Id", 0, INT32_MAX, 0, &z->id);
    if (st == RMG_OK)
        st = read_zone_kind(r, z);
    if (st == RMG_OK)
        st = number_at(r, l->z_size, "Zone/Base Size", 1.0, &z->size);
    if (st == RMG_OK && !(z->size > 0))
        st = rmg__h3t_error(&r->base, l->z_size, "Zone/Base Size", "the zone size must be positive");
    if (st == RMG_OK)
        st = read_filter(r, l->z_restr, "Zone/Restrictions", &z->players);
    if (st == RMG_OK)
        st = read_towns(r, z);
    if (st == RMG_OK)
        st = read_mines_terrain(r, z);
    if (st == RMG_OK)
        st = read_monsters(r, z);
    if (st == RMG_OK)
        st = read_zone_options(r, z);
    return st;
}

/* ---- connections and mirror links ------------------------------------------------------------------ */

static rmg_status read_road(reader *r, int c, rmg_road_setting *roads)
{
    const char *s = cell_at(r, c);
    if (blank(s))
        *roads = RMG_ROAD_SETTING_RANDOM;
    else if (strcmp(s, "+") == 0)
        *roads = RMG_ROAD_SETTING_MANDATORY;
    else if (strcmp(s, "-") == 0)
        *roads = RMG_ROAD_SETTING_FORBIDDEN;
    else
        return rmg__h3t_error(&r->base, c, "Connections/Road", "expected +, - or empty, found '%.40s'", s);
    return RMG_OK;
}

static rmg_status read_link_placement(reader *r, int c, rmg_connection_placement *p)
{
    static const struct { const char *word; rmg_connection_placement p; } words[] = {
        {"ground", RMG_LINK_GROUND}, {"underground", RMG_LINK_UNDERGROUND_GATE},
        {"teleport", RMG_LINK_MONOLITH}, {"random", RMG_LINK_RANDOM}};
    const char *s = cell_at(r, c);
    if (blank(s)) {
        *p = RMG_LINK_DEFAULT;
        return RMG_OK;
    }
    for (size_t i = 0; i < RMG__ARRAY_LEN(words); i++) {
        if (strcmp(words[i].word, s) == 0) {
            *p = words[i].p;
            return RMG_OK;
        }
    }
    return rmg__h3t_error(&r->base, c, "Connections/Type",
                          "expected ground, underground, teleport, random or empty, found '%.40s'", s);
}

static rmg_status read_mirror_link(reader *r, int zone)
{
    const rmg__h3t_layout *l = &r->lay;
    pending_mirror m = {.zone = zone, .row = r->base.row, .col = l->conn0};
    rmg_road_setting roads = RMG_ROAD_SETTING_RANDOM;
    rmg_status st = int_at(r, l->c_value, "Connections/Value", 0, INT64_MAX, 0, &m.link.value);
    if (st == RMG_OK && l->conn_new > 0)
        st = read_road(r, l->c_new, &roads);
    m.link.roads = roads == RMG_ROAD_SETTING_MANDATORY;
    if (l->conn_new > 3)
        m.link.monolith_repulsion = flag_at(r, l->c_new + 3);
    if (st == RMG_OK)
        st = rmg__h3t_parse_mirror_code(&r->base, ref(l->c_guard, "Connections/Border Guard"),
                                        cell_at(r, l->c_guard), &m.link);
    if (st == RMG_OK)
        st = read_filter(r, l->c_restr, "Connections/Restrictions", &m.link.players);
    m.link.h3t_row = (int)RMG__MIN(current_template(r)->n_connections + r->mirrors.count, (size_t)INT32_MAX);
    if (st != RMG_OK)
        return st;
    m.link.loc.line = r->base.row;
    m.link.loc.column = l->c_guard + 1;
    if (!(m.link.raw = raw_at(r, l->c_guard)) || !RMG__VEC_PUSH(r->base.ctx, &r->mirrors, m))
        return rmg__error_nomem(r->base.ctx);
    return RMG_OK;
}

static rmg_status read_connection(reader *r)
{
    const rmg__h3t_layout *l = &r->lay;
    int a, b;
    rmg_status st = int32_at(r, l->conn0, "Connections/Zone 1", 0, INT32_MAX, 0, &a);
    if (st == RMG_OK)
        st = int32_at(r, l->conn0 + 1, "Connections/Zone 2", -1, INT32_MAX, 0, &b);
    if (st != RMG_OK)
        return st;
    if (b == -1)
        return read_mirror_link(r, a);
    if (a == 0 && b == 0) {   /* converter placeholder "0 0 0": refers to no zone */
        rmg__h3t_note(&r->base, RMG__H3T_W_PLACEHOLDER_CONNECTION, l->conn0, NULL);
        return RMG_OK;
    }
    rmg__connection *c = rmg__template_add_connection(r->base.pack, current_template(r));
    if (!c)
        return rmg__error_nomem(r->base.ctx);
    c->zone_a = a;
    c->zone_b = b;
    c->loc.line = r->base.row;
    c->loc.column = l->conn0 + 1;
    st = int_at(r, l->c_value, "Connections/Value", 0, INT64_MAX, 0, &c->value);
    bool wide = flag_at(r, l->c_wide), guard = flag_at(r, l->c_guard);
    bool fictive = l->conn_new > 2 && flag_at(r, l->c_new + 2);
    if ((int)wide + (int)guard + (int)fictive > 1)
        rmg__h3t_note(&r->base, RMG__H3T_W_CONNECTION_MANY_TYPES, l->c_wide, NULL);
    c->type = fictive ? RMG_CONNECTION_FICTIVE
            : guard   ? RMG_CONNECTION_BORDER_GUARD
            : wide    ? RMG_CONNECTION_WIDE
                      : RMG_CONNECTION_STANDARD;
    if (st == RMG_OK && l->conn_new > 0)
        st = read_road(r, l->c_new, &c->roads);
    if (st == RMG_OK && l->conn_new > 1)
        st = read_link_placement(r, l->c_new + 1, &c->placement);
    if (l->conn_new > 3)
        c->monolith_repulsion = flag_at(r, l->c_new + 3);
    if (st == RMG_OK)
        note_surplus(r, l->c_new + RMG__H3T_KNOWN_CONN_NEW, l->c_new + l->conn_new);
    if (st == RMG_OK)
        st = read_filter(r, l->c_restr, "Connections/Restrictions", &c->players);
    return st;
}

/* A defect of the input that the reader of rmg check notes and goes on after. */
static bool went_on(reader *r, rmg_status st)
{
    if (!r->keep_going || st != RMG_ERR_PARSE)
        return false;
    return rmg__pack_keep_error(r->base.pack) == RMG_OK;
}

/* ---- finishing a template ------------------------------------------------------------------------------ */

/* Duplicate zone ids are errors; connection endpoints that name no zone are kept (validation
 * reports them) with a warning; mirror links are attached to their zones. Sorting keeps this
 * O(n log n) whatever the input. */
static rmg_status check_zone_ids(reader *r, rmg__template *t, rmg__zone_key *keys)
{
    rmg__zone_keys_sort(t, keys);
    for (size_t i = 1; i < t->n_zones; i++) {
        if (keys[i].id == keys[i - 1].id) {
            const rmg__zone *dup = &t->zones[keys[i].index], *first = &t->zones[keys[i - 1].index];
            r->base.row = dup->loc.line;
            return rmg__h3t_error(&r->base, dup->loc.column - 1, "Zone/Id",
                                  "duplicate zone id %d in template '%.60s' (first defined in row %d)", dup->id,
                                  t->name, first->loc.line);
        }
    }
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        if (!rmg__zone_keys_find(keys, t->n_zones, c->zone_a) || !rmg__zone_keys_find(keys, t->n_zones, c->zone_b)) {
            r->base.row = c->loc.line;
            rmg__h3t_note(&r->base, RMG__H3T_W_UNKNOWN_ENDPOINT, c->loc.column - 1, t->name);
        }
    }
    return RMG_OK;
}

static rmg_status attach_mirror_links(reader *r, rmg__template *t, const rmg__zone_key *keys)
{
    for (size_t i = 0; i < r->mirrors.count; i++) {
        const pending_mirror *m = &r->mirrors.items[i];
        const rmg__zone_key *k = rmg__zone_keys_find(keys, t->n_zones, m->zone);
        if (!k && !r->base.pack->mirror) { /* the game ignores such rows outside mirror packs */
            r->base.row = m->row;
            rmg__h3t_note(&r->base, RMG__H3T_W_MIRROR_NO_ZONE, m->col, t->name);
            continue;
        }
        if (!k) {
            r->base.row = m->row;
            return rmg__h3t_error(&r->base, m->col, "Connections/Zone 1",
                                  "mirror link (Zone 2 = -1) for zone %d, which template '%.60s' does not have",
                                  m->zone, t->name);
        }
        rmg__zone *z = &t->zones[k->index];
        rmg__mirror_link *link =
            rmg__arena_grow(&r->base.pack->arena, (void **)&z->mirror_links, &z->n_mirror_links, sizeof *link);
        if (!link)
            return rmg__error_nomem(r->base.ctx);
        *link = m->link;
    }
    return RMG_OK;
}

static rmg_status finish_template(reader *r)
{
    if (!r->in_template)
        return RMG_OK;
    r->in_template = false;
    rmg__template *t = current_template(r);
    int row = r->base.row;
    rmg__zone_key *keys = NULL;
    if (t->n_zones && !(keys = rmg__malloc(r->base.ctx, t->n_zones * sizeof *keys)))
        return rmg__error_nomem(r->base.ctx);
    rmg_status st = check_zone_ids(r, t, keys);
    if (st == RMG_OK)
        st = attach_mirror_links(r, t, keys);
    rmg__free(r->base.ctx, keys);
    r->mirrors.count = 0;
    r->base.row = row;
    return st;
}

/* ---- rows ------------------------------------------------------------------------------------------------ */

static void note_stray_cells(reader *r, bool first_data_row, bool map_start, bool has_zone, bool has_conn)
{
    const rmg__h3t_layout *l = &r->lay;
    int c;
    if (!first_data_row && any_cell(r, 0, l->map0, &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_STRAY_PACK_CELL, c, cell_at(r, c));
    if (!map_start && any_cell(r, l->map0, l->zone0, &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_STRAY_MAP_CELL, c, cell_at(r, c));
    if (!has_zone && any_cell(r, l->zone0, l->conn0, &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_STRAY_ZONE_CELL, c, cell_at(r, c));
    if (!has_conn && any_cell(r, l->conn0, l->width, &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_STRAY_CONNECTION_CELL, c, cell_at(r, c));
    if (any_cell(r, l->width, (int)RMG__MIN(r->rec.cells.count, (size_t)INT32_MAX), &c))
        rmg__h3t_note(&r->base, RMG__H3T_W_EXTRA_CELL, c, cell_at(r, c));
}

static rmg_status read_data_row(reader *r, bool first_data_row)
{
    const rmg__h3t_layout *l = &r->lay;
    bool map_start = flag_at(r, l->map0);
    bool has_zone = flag_at(r, l->zone0);
    bool has_conn = flag_at(r, l->conn0);
    rmg_status st = RMG_OK;
    note_stray_cells(r, first_data_row, map_start, has_zone, has_conn);
    if (map_start) {
        if ((st = finish_template(r)) != RMG_OK && !went_on(r, st))
            return st;
        if ((st = start_template(r)) != RMG_OK)
            return st;
    }
    if ((has_zone || has_conn) && !r->in_template)
        return rmg__h3t_error(&r->base, has_zone ? l->zone0 : l->conn0, has_zone ? "Zone/Id" : "Connections/Zone 1",
                              "zone or connection before the first template name (column %d)", l->map0 + 1);
    if (has_zone)
        st = read_zone(r);
    if (st == RMG_OK && has_conn)
        st = read_connection(r);
    return st;
}

static rmg_status next_row(reader *r, bool *got)
{
    rmg_status st = records_next(&r->rec, r->base.name, got);
    r->base.row = r->rec.row;
    r->base.row_cells = r->rec.cells.count;
    return st;
}


/* Row 1 decides the format (spec §1.1); rows 2-3 are headers and are not used for the layout. */
static rmg_status read_header(reader *r)
{
    bool got;
    rmg_status st = next_row(r, &got);
    const char *first = st == RMG_OK && got ? cell_at(r, 0) : "";
    if (strncmp(first, "\xEF\xBB\xBF", 3) == 0)   /* tolerate a UTF-8 byte order mark */
        first += 3;
    bool hota = strcmp(first, "Pack") == 0, sod = strcmp(first, "Map") == 0;
    if (!hota && !sod) {
        char shown[44];
        snprintf(shown, sizeof shown, "%.40s", st == RMG_OK ? first : "");
        rmg__h3t_sanitize(shown);
        return rmg__error_at(r->base.ctx, RMG_ERR_PARSE, r->base.name, 1, 1,
                             "row 1, column 1: not a template: the first cell is '%s', expected 'Pack' (HotA) or "
                             "'Map' (SoD)", shown);
    }
    r->base.pack->format = hota ? RMG_FORMAT_H3T : RMG_FORMAT_SOD;
    r->base.header_cells = r->rec.cells.count;
    for (int i = 0; i < 2; i++) {
        if ((st = next_row(r, &got)) != RMG_OK)
            return st;
        if (!got)
            break;
        r->base.header_cells = RMG__MAX(r->base.header_cells, r->rec.cells.count);
    }
    if (sod)
        rmg__h3t_layout_sod(&r->lay);
    return RMG_OK;
}

/* A last row that holds data, ends without a line break and has fewer cells than the layout is
 * cut off: the file is truncated. The template it belongs to records the damage, which `rmg
 * check` reports as an error (the generator then leaves that template out). */
static rmg_status note_truncation(reader *r, size_t cells)
{
    int first;
    if (!r->rec.open || cells >= (size_t)r->lay.width || !r->in_template ||
        !any_cell(r, 0, (int)RMG__MIN(cells, (size_t)INT32_MAX), &first))
        return RMG_OK;
    rmg__template *t = current_template(r);
    char text[160];
    snprintf(text, sizeof text, "row %d has %zu of the %d cells of a row and the file ends inside it: the file is "
             "truncated", r->base.row, cells, r->lay.width);
    t->damage = rmg__arena_strdup(&r->base.pack->arena, text);
    t->damage_loc.line = r->base.row;
    t->damage_loc.column = (int)cells;
    return t->damage ? RMG_OK : rmg__error_nomem(r->base.ctx);
}

static rmg_status read_rows(reader *r)
{
    bool got, first = true;
    rmg_status st;
    while ((st = next_row(r, &got)) == RMG_OK && got) {
        if (first && !r->lay.sod) {
            if ((st = read_counts(r)) != RMG_OK)   /* without them there is no layout to read by */
                return st;
            if ((st = read_pack(r)) != RMG_OK && !went_on(r, st))
                return st;
        }
        if (((st = read_data_row(r, first)) != RMG_OK && !went_on(r, st)) ||
            (st = note_truncation(r, r->rec.cells.count)) != RMG_OK)
            return st;
        first = false;
    }
    if (st == RMG_OK && (st = finish_template(r)) != RMG_OK && went_on(r, st))
        st = RMG_OK;
    if (st == RMG_OK && r->base.pack->n_templates == 0)
        st = rmg__error_at(r->base.ctx, RMG_ERR_PARSE, r->base.name, r->base.row, r->lay.map0 + 1,
                           "row %d, column %d: no templates: the file has %s but no row with a template name",
                           r->base.row, r->lay.map0 + 1, first ? "only header rows" : "data rows");
    return st;
}

/* ---- warnings --------------------------------------------------------------------------------------------- */

static const char *const note_text[RMG__H3T_W_COUNT] = {
    [RMG__H3T_W_TAGS] = "Pack/Tags kept but not acted on",
    [RMG__H3T_W_MIN_OBJECTS] = "Zone/Minimum objects kept verbatim but not acted on (meaning unknown)",
    [RMG__H3T_W_MAX_BLOCK] = "Zone/Max block value kept but not acted on",
    [RMG__H3T_W_EXTRA_FIELD] = "1.8 extra object-rule field with a value other than d kept but not acted on",
    [RMG__H3T_W_ALLOWED_FACTIONS] = "Zone/Allowed Factions: encoding inferred (read as +ID/-ID faction list)",
    [RMG__H3T_W_FACTION_HINT] = "Zone/Faction Hint: encoding inferred from the Town/Terrain Hint tokens",
    [RMG__H3T_W_HINT_TOKEN] = "type-selection hint token not understood, ignored",
    [RMG__H3T_W_UNKNOWN_OBJECT] = "object rule names an object the data tables do not know; kept as h3m_<class>_<sub>",
    [RMG__H3T_W_UNKNOWN_CREATURE] = "object rule names an unknown creature id; kept as h3m_creature_<id>",
    [RMG__H3T_W_MIRROR_SR] = "mirror link teleport code 'sr' read as a Subterranean Gate (meaning uncertain)",
    [RMG__H3T_W_MIRROR_BARE] = "mirror link without teleport codes (legacy marker): no teleports",
    [RMG__H3T_W_MIRROR_CODE] = "mirror link code not understood",
    [RMG__H3T_W_SURPLUS_COLUMN] = "column beyond the known layout (newer format?) ignored",
    [RMG__H3T_W_EXTRA_CELL] = "non-empty cell after the last column ignored",
    [RMG__H3T_W_STRAY_PACK_CELL] = "pack or field-count cell outside row 4 ignored",
    [RMG__H3T_W_STRAY_MAP_CELL] = "template cell on a row without a template name ignored",
    [RMG__H3T_W_STRAY_ZONE_CELL] = "zone cell on a row without a zone Id ignored",
    [RMG__H3T_W_STRAY_CONNECTION_CELL] = "connection cell on a row without Zone 1 ignored",
    [RMG__H3T_W_ZONE_NO_TYPE] = "zone without a type flag: treasure zone assumed",
    [RMG__H3T_W_ZONE_MANY_TYPES] = "zone with several type flags: the first one is used",
    [RMG__H3T_W_CONNECTION_MANY_TYPES] = "connection with several of Wide/Border Guard/Fictive: fictive > border "
                                         "guard > wide",
    [RMG__H3T_W_PLACEHOLDER_CONNECTION] = "placeholder connection between zones 0 and 0 ignored",
    [RMG__H3T_W_UNKNOWN_ENDPOINT] = "connection names a zone the template does not have",
    [RMG__H3T_W_COMBO_ARTS] = "Map/Combo Arts kept; polarity inferred (+ allows assembling)",
    [RMG__H3T_W_ALL_TOWNS_BANNED] = "Pack/Town selection bans every town: treated as no restriction",
    [RMG__H3T_W_ZONE_MAX_MAP] = "zone-level object rule with a per-map limit kept but not acted on (RUL-02: zone "
                                "rules have none)",
    [RMG__H3T_W_FRACTION] = "number with a fractional part in an integer column: the integer part is used, as the "
                            "game does",
    [RMG__H3T_W_NUMBER_LIST] = "list of numbers in an integer column: the first is used, as the game does",
    [RMG__H3T_W_MIRROR_NO_ZONE] = "connection row with Zone 2 = -1 for a zone the template does not have, in a pack "
                                  "that is not a mirror pack: ignored, as the game does",
};

static rmg_status emit_notes(reader *r)
{
    for (int k = 0; k < RMG__H3T_W_COUNT; k++) {
        const rmg__h3t_tally *n = &r->base.notes[k];
        if (!n->count)
            continue;
        /* No file name: whoever shows the warning knows the pack's file (pack->file). */
        rmg_status st = rmg__pack_warn_at(r->base.pack, "row", n->row, n->col, "%s%s%s%s (%zu time%s)",
                                          note_text[k], n->detail[0] ? " ('" : "", n->detail,
                                          n->detail[0] ? "')" : "", n->count, n->count == 1 ? "" : "s");
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- entry point -------------------------------------------------------------------------------------------- */

static rmg_status read_h3t(rmg_context *ctx, const char *data, size_t len, const char *name, bool keep_going,
                           struct rmg_pack **out)
{
    *out = NULL;
    if (!data && len)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "h3t: no data");
    reader r;
    memset(&r, 0, sizeof r);
    rmg_status st = rmg__pack_new(ctx, &r.base.pack);
    if (st != RMG_OK)
        return st;
    r.base.ctx = ctx;
    r.base.name = name;
    r.keep_going = keep_going;
    r.rec.ctx = ctx;
    r.rec.data = data ? data : "";
    r.rec.len = len;
    r.enc = rmg__h3t_detect_encoding(r.rec.data, len);
    if (name && !(r.base.pack->file = rmg__arena_strdup(&r.base.pack->arena, name)))
        st = rmg__error_nomem(ctx);
    if (st == RMG_OK)
        st = read_header(&r);
    if (st == RMG_OK)
        st = read_rows(&r);
    if (st == RMG_OK)
        st = emit_notes(&r);
    records_free(&r.rec);
    RMG__VEC_FREE(ctx, &r.mirrors);
    rmg__free(ctx, r.base.scratch);
    if (st != RMG_OK) {
        rmg__pack_free(r.base.pack);
        return st;
    }
    *out = r.base.pack;
    return RMG_OK;
}

rmg_status rmg__h3t_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out)
{
    return read_h3t(ctx, data, len, name, false, out);
}

rmg_status rmg__h3t_read_checked(rmg_context *ctx, const char *data, size_t len, const char *name,
                                 struct rmg_pack **out)
{
    return read_h3t(ctx, data, len, name, true, out);
}
