/*
 * VCMI JSON template importer: the file, template-level keys and connections. Zones are in
 * vcmi_zone.c, *LikeZone references and town hints in vcmi_like.c, customObjects in
 * vcmi_objects.c. The mapping is documented in docs/vcmi-import.md.
 */
#include <stdio.h>
#include <string.h>

#include "content/content_internal.h"
#include "template/importers.h"
#include "template/schema.h"
#include "vcmi.h"

#define MAX_NOTES 64     /* distinct warnings kept per template; more are counted */

/* ---- messages ------------------------------------------------------------------------------------- */

static void subject(const rmg__vcmi *r, int zone, char *out, size_t n)
{
    int k = r->tpl ? snprintf(out, n, "template '%.80s': ", r->tpl) : 0;
    if (k < 0 || (size_t)k >= n)
        k = 0;
    if (zone > 0)
        snprintf(out + k, n - (size_t)k, "zone %d: ", zone);
    else
        out[k] = '\0';
}

rmg_status rmg__vcmi_error(rmg__vcmi *r, const rmg__json *at, int zone, const char *fmt, ...)
{
    char who[160], msg[400];
    subject(r, zone, who, sizeof who);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rmg_status st = rmg__error_at(r->ctx, RMG_ERR_PARSE, r->name, at ? at->line : 0, at ? at->column : 0, "%s%s",
                                  who, msg);
    if (zone > 0)
        r->ctx->err.zone = zone;
    return st;
}

rmg_status rmg__vcmi_warn(rmg__vcmi *r, const rmg__json *at, int zone, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < r->notes.count; i++) {
        rmg__vcmi_note *n = &r->notes.items[i];
        if (strcmp(n->text, msg) == 0) {
            n->count++;
            n->several_zones |= n->zone != zone;
            return RMG_OK;
        }
    }
    if (r->notes.count >= MAX_NOTES) {
        r->notes_dropped++;
        return RMG_OK;
    }
    rmg__vcmi_note n = {rmg__arena_strdup(&r->scratch, msg), at ? at->line : 0, at ? at->column : 0, zone, 1, false};
    if (!n.text || !RMG__VEC_PUSH(r->ctx, &r->notes, n))
        return rmg__error_nomem(r->ctx);
    return RMG_OK;
}

rmg_status rmg__vcmi_unknown_key(rmg__vcmi *r, const rmg__json_member *m, int zone, const char *where)
{
    rmg__json at = {.line = m->line, .column = m->column};
    return rmg__vcmi_warn(r, &at, zone, "unknown key '%.60s' in %s ignored", m->key, where);
}

/* Hands the template's collected warnings to the pack, in the order first seen. */
static rmg_status flush_notes(rmg__vcmi *r)
{
    rmg_status st = RMG_OK;
    for (size_t i = 0; i < r->notes.count && st == RMG_OK; i++) {
        const rmg__vcmi_note *n = &r->notes.items[i];
        char zone[24] = "", times[64] = "";
        if (n->zone > 0 && !n->several_zones)
            snprintf(zone, sizeof zone, "zone %d: ", n->zone);
        if (n->several_zones)
            snprintf(times, sizeof times, " (%zu times in several zones, first in zone %d)", n->count, n->zone);
        else if (n->count > 1)
            snprintf(times, sizeof times, " (%zu times)", n->count);
        st = rmg__pack_warn_at(r->pack, "line", n->line, n->column, "template '%.80s': %s%s%s",
                               r->tpl ? r->tpl : "", zone, n->text, times);
    }
    if (st == RMG_OK && r->notes_dropped)
        st = rmg__pack_warn(r->pack, "template '%.80s': %zu further distinct warning(s) not listed", r->tpl ? r->tpl : "",
                            r->notes_dropped);
    r->notes.count = 0;
    r->notes_dropped = 0;
    return st;
}

/* ---- typed access ---------------------------------------------------------------------------------- */

rmg_status rmg__vcmi_expect(rmg__vcmi *r, const rmg__json *v, rmg__json_type type, int zone, const char *what)
{
    if (v->type == type)
        return RMG_OK;
    return rmg__vcmi_error(r, v, zone, "'%s' must be %s %s, found %s %s", what, type == RMG__JSON_ARRAY ||
                           type == RMG__JSON_OBJECT ? "an" : "a", rmg__json_type_name(type),
                           v->type == RMG__JSON_ARRAY || v->type == RMG__JSON_OBJECT ? "an" : "a",
                           rmg__json_type_name(v->type));
}

rmg_status rmg__vcmi_int(rmg__vcmi *r, const rmg__json *v, int64_t lo, int64_t hi, int zone, const char *what,
                         int64_t *out)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_NUMBER, zone, what);
    if (st != RMG_OK)
        return st;
    int64_t x;
    if (v->integral) {
        x = v->integer;
    } else if (v->number >= -9.0e15 && v->number <= 9.0e15 && v->number == (double)(int64_t)v->number) {
        x = (int64_t)v->number;
    } else {
        if (v->number >= -9.0e15 && v->number <= 9.0e15)
            return rmg__vcmi_error(r, v, zone, "'%s' must be a whole number, found %g", what, v->number);
        return rmg__vcmi_error(r, v, zone, "'%s' = %g is outside %lld..%lld", what, v->number, (long long)lo,
                               (long long)hi);
    }
    if (x < lo || x > hi)
        return rmg__vcmi_error(r, v, zone, "'%s' = %lld is outside %lld..%lld", what, (long long)x, (long long)lo,
                               (long long)hi);
    *out = x;
    return RMG_OK;
}

rmg_status rmg__vcmi_small_int(rmg__vcmi *r, const rmg__json *v, int lo, int hi, int zone, const char *what, int *out)
{
    int64_t x = 0;
    rmg_status st = rmg__vcmi_int(r, v, lo, hi, zone, what, &x);
    if (st == RMG_OK)
        *out = (int)x;
    return st;
}

bool rmg__vcmi_parse_id(const char *s, int *out)
{
    long long x = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > INT32_MAX)
            return false;
        x = x * 10 + (*s - '0');
    }
    if (x < 1 || x > INT32_MAX)
        return false;
    *out = (int)x;
    return true;
}

const char *rmg__vcmi_unscoped(const char *id)
{
    const char *colon = strrchr(id, ':');
    return colon ? colon + 1 : id;
}

bool rmg__vcmi_snake(const char *id, char *out, size_t n)
{
    size_t k = 0;
    for (const char *c = id; *c; c++) {
        bool upper = *c >= 'A' && *c <= 'Z';
        if (upper && k && k + 1 < n)
            out[k++] = '_';
        if (k + 1 >= n)
            return false;
        out[k++] = upper ? (char)(*c - 'A' + 'a') : *c;
    }
    out[k] = '\0';
    return true;
}

/* ---- template keys ---------------------------------------------------------------------------------- */

/* Size code of a VCMI size: "s", "m", "l", "xl", "h", "xh", "g" with an optional "+u", or
 * "WxHxD" (D = levels, 1 or 2). PCK-02: (side/36)^2 x (2 if underground). */
static rmg_status read_size(rmg__vcmi *r, const rmg__json *v, const char *what, int *out)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, what);
    if (st != RMG_OK)
        return st;
    static const struct { const char *code; int side; } sizes[] = {
        {"s", 36}, {"m", 72}, {"l", 108}, {"xl", 144}, {"h", 180}, {"xh", 216}, {"g", 252},
    };
    char code[8];
    size_t len = v->length;
    bool under = len > 2 && strcmp(v->string + len - 2, "+u") == 0;
    if (under)
        len -= 2;
    if (len < sizeof code) {
        memcpy(code, v->string, len);
        code[len] = '\0';
        for (size_t i = 0; i < RMG__ARRAY_LEN(sizes); i++) {
            if (strcmp(code, sizes[i].code) == 0) {
                *out = rmg__size_code(sizes[i].side, sizes[i].side, under ? 2 : 1);
                return RMG_OK;
            }
        }
    }
    unsigned w, h, d;
    char tail;
    if (!under && sscanf(v->string, "%5ux%5ux%2u%c", &w, &h, &d, &tail) == 3 && w >= 36 && h >= 36 && w <= 1000 &&
        h <= 1000 && (d == 1 || d == 2)) {
        *out = rmg__size_code((int)w, (int)h, (int)d);
        return RMG_OK;
    }
    return rmg__vcmi_error(r, v, 0, "'%s' = '%.40s' is not a map size (s, m, l, xl, h, xh or g, optionally with +u, "
                           "or WIDTHxHEIGHTxLEVELS with sides 36..1000 and 1 or 2 levels)", what, v->string);
}

/* "2", "2-4", "1,3-5": the smallest and largest count; gaps cannot be expressed (warning). */
static rmg_status read_range(rmg__vcmi *r, const rmg__json *v, const char *what, int *lo, int *hi)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, what);
    if (st != RMG_OK)
        return st;
    bool seen[9] = {false};
    const char *s = v->string;
    while (*s) {
        unsigned a, b;
        int used = 0;
        if (sscanf(s, "%1u%n", &a, &used) != 1)
            break;
        s += used;
        b = a;
        if (*s == '-') {
            if (sscanf(s + 1, "%1u%n", &b, &used) != 1)
                break;
            s += 1 + used;
        }
        if (a < 1 || b > 8 || a > b)
            return rmg__vcmi_error(r, v, 0, "'%s' = '%.40s': counts must be ranges within 1..8", what, v->string);
        for (unsigned k = a; k <= b; k++)
            seen[k] = true;
        if (*s == ',')
            s++;
        else if (*s)
            break;
    }
    *lo = *hi = 0;
    for (int k = 1; k <= 8; k++) {
        if (seen[k]) {
            if (!*lo)
                *lo = k;
            *hi = k;
        }
    }
    if (*s || !*lo)
        return rmg__vcmi_error(r, v, 0, "'%s' = '%.40s' is not a count or a range such as \"2-4\"", what, v->string);
    for (int k = *lo; k <= *hi; k++)
        if (!seen[k])
            return rmg__vcmi_warn(r, v, 0, "'%s' = '%.40s' has gaps: read as %d-%d (HotA filters are ranges)", what,
                                  v->string, *lo, *hi);
    return RMG_OK;
}

static rmg_status read_water(rmg__vcmi *r, rmg__template *t, const rmg__json *v)
{
    static const char *const names[] = {[RMG_WATER_NONE] = "none", [RMG_WATER_NORMAL] = "normal",
                                        [RMG_WATER_ISLANDS] = "islands"};
    const rmg__names water_names = {names, RMG__ARRAY_LEN(names)};
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, 0, "allowedWaterContent");
    uint32_t mask = 0;
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json *e = &v->items[i];
        if ((st = rmg__vcmi_expect(r, e, RMG__JSON_STRING, 0, "allowedWaterContent entry")) != RMG_OK)
            break;
        long k = rmg__names_find(&water_names, e->string);
        if (k < 0)
            st = rmg__vcmi_error(r, e, 0, "unknown water content '%.40s' (none, normal or islands)", e->string);
        else
            mask |= 1u << k;
    }
    if (st == RMG_OK && !mask)
        st = rmg__vcmi_error(r, v, 0, "'allowedWaterContent' is empty: the template could never be used");
    if (st == RMG_OK)
        t->water_allowed = mask == 7u ? 0 : mask;   /* all three = no restriction */
    return st;
}

/* The per-item lists (bannedSpells, enabledHeroes, ...): names to content ids. */
typedef enum item_kind { ITEM_SPELL, ITEM_ARTIFACT, ITEM_SKILL, ITEM_HERO } item_kind;

static long find_item(const struct rmg_content *c, item_kind kind, const char *key, int *id)
{
    long i;
    switch (kind) {
    case ITEM_SPELL:
        i = rmg__content_find_spell(c, key);
        *id = i >= 0 ? c->spells[i].id : -1;
        return i;
    case ITEM_ARTIFACT:
        i = rmg__content_find_artifact(c, key);
        *id = i >= 0 ? c->artifacts[i].id : -1;
        return i;
    case ITEM_SKILL:
        i = rmg__content_find_skill(c, key);
        *id = i >= 0 ? c->skills[i].id : -1;
        return i;
    default:
        i = rmg__content_find_hero(c, key);
        *id = i >= 0 ? c->heroes[i].id : -1;
        return i;
    }
}

static rmg_status read_items(rmg__vcmi *r, rmg__override_list *list, item_kind kind, bool allow, const rmg__json *v,
                             const char *what)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, 0, what);
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json *e = &v->items[i];
        if ((st = rmg__vcmi_expect(r, e, RMG__JSON_STRING, 0, what)) != RMG_OK)
            break;
        char key[96];
        int id = -1;
        const char *plain = rmg__vcmi_unscoped(e->string);
        if (find_item(r->content, kind, plain, &id) < 0 && rmg__vcmi_snake(plain, key, sizeof key))
            find_item(r->content, kind, key, &id);
        if (id < 0) {
            st = rmg__vcmi_warn(r, e, 0, "'%s' names '%.60s', which the game data does not know: ignored", what,
                                e->string);
            continue;
        }
        rmg__override *o = rmg__arena_grow(&r->pack->arena, (void **)&list->items, &list->count, sizeof *o);
        if (!o)
            return rmg__error_nomem(r->ctx);
        o->id = id;
        o->allow = allow;
    }
    return st;
}

static rmg_status read_item_key(rmg__vcmi *r, rmg__template *t, const rmg__json_member *m, bool *known)
{
    static const struct { const char *key; item_kind kind; bool allow; } keys[] = {
        {"bannedSpells", ITEM_SPELL, false},       {"enabledSpells", ITEM_SPELL, true},
        {"bannedArtifacts", ITEM_ARTIFACT, false}, {"enabledArtifacts", ITEM_ARTIFACT, true},
        {"bannedSkills", ITEM_SKILL, false},       {"enabledSkills", ITEM_SKILL, true},
        {"bannedHeroes", ITEM_HERO, false},        {"enabledHeroes", ITEM_HERO, true},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(keys); i++) {
        if (strcmp(m->key, keys[i].key) != 0)
            continue;
        *known = true;
        rmg__override_list *list = keys[i].kind == ITEM_SPELL      ? &t->spells
                                   : keys[i].kind == ITEM_ARTIFACT ? &t->artifacts
                                   : keys[i].kind == ITEM_SKILL    ? &t->skills
                                                                   : &r->pack->heroes;
        if (keys[i].kind == ITEM_HERO) {
            /* Heroes are a pack setting (PCK-09): one list for every template of the file. */
            if (r->heroes_from && strcmp(r->heroes_from, r->tpl) != 0) {
                rmg_status st = rmg__vcmi_warn(r, &m->value, 0, "'%s' joins the hero list of template '%.60s' (hero "
                                               "bans apply to the whole pack)", m->key, r->heroes_from);
                if (st != RMG_OK)
                    return st;
            }
            r->heroes_from = r->tpl;
        }
        return read_items(r, list, keys[i].kind, keys[i].allow, &m->value, m->key);
    }
    return RMG_OK;
}

static rmg_status add_description(rmg__vcmi *r, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, "description");
    if (st != RMG_OK)
        return st;
    /* The model has one pack description: each template's text on its own line, named when the
     * file holds more than one template (the names are added in finish_description). */
    if (r->n_descriptions++)
        rmg__buf_putc(&r->description, '\n');
    rmg__buf_printf(&r->description, "%s: %s", r->tpl, v->string);
    return r->description.failed ? rmg__error_nomem(r->ctx) : RMG_OK;
}

static rmg_status read_template_key(rmg__vcmi *r, rmg__template *t, const rmg__json_member *m)
{
    const rmg__json *v = &m->value;
    const char *k = m->key;
    if (strcmp(k, "zones") == 0 || strcmp(k, "connections") == 0 || strcmp(k, "name") == 0)
        return RMG_OK;   /* read by read_template */
    if (strcmp(k, "minSize") == 0)
        return read_size(r, v, k, &t->min_size);
    if (strcmp(k, "maxSize") == 0)
        return read_size(r, v, k, &t->max_size);
    if (strcmp(k, "players") == 0)
        return read_range(r, v, k, &t->players.min_total, &t->players.max_total);
    if (strcmp(k, "humans") == 0)
        return read_range(r, v, k, &t->players.min_human, &t->players.max_human);
    if (strcmp(k, "allowedWaterContent") == 0)
        return read_water(r, t, v);
    if (strcmp(k, "description") == 0)
        return add_description(r, v);
    if (strcmp(k, "settings") == 0)
        return rmg__vcmi_warn(r, v, 0, "'settings' (game settings overridden by the template) has no HotA template "
                              "equivalent: ignored");
    bool known = false;
    rmg_status st = read_item_key(r, t, m, &known);
    if (st != RMG_OK || known)
        return st;
    return rmg__vcmi_unknown_key(r, m, 0, "the template");
}

/* ---- connections ------------------------------------------------------------------------------------- */

static rmg_status connection_zone(rmg__vcmi *r, const rmg__json *v, size_t ci,
                                  const char *end, int *out)
{
    char what[48];
    snprintf(what, sizeof what, "connection %zu '%s'", ci + 1, end);
    int64_t id = -1;
    if (v->type == RMG__JSON_NUMBER) {
        rmg_status st = rmg__vcmi_int(r, v, 1, INT32_MAX, 0, what, &id);
        if (st != RMG_OK)
            return st;
    } else if (v->type == RMG__JSON_STRING) {
        int x;
        if (rmg__vcmi_parse_id(v->string, &x))
            id = x;
    } else {
        return rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, what);
    }
    if (id < 0 || rmg__vcmi_find_zone(r, (int)id) < 0) {
        char shown[48];
        if (v->type == RMG__JSON_STRING)
            snprintf(shown, sizeof shown, "'%.40s'", v->string);
        else
            snprintf(shown, sizeof shown, "%lld", (long long)id);
        return rmg__vcmi_error(r, v, 0, "%s names zone %s, which the template does not have", what, shown);
    }
    *out = (int)id;
    return RMG_OK;
}

static rmg_status read_connection_type(rmg__vcmi *r, rmg__connection *c, const rmg__json *v, size_t ci, bool *keep)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, "connection type");
    if (st != RMG_OK)
        return st;
    const char *s = v->string;
    if (strcmp(s, "guarded") == 0)
        c->type = RMG_CONNECTION_STANDARD;
    else if (strcmp(s, "wide") == 0)
        c->type = RMG_CONNECTION_WIDE;
    else if (strcmp(s, "fictive") == 0)
        c->type = RMG_CONNECTION_FICTIVE;
    else if (strcmp(s, "forcePortal") == 0)
        c->placement = RMG_LINK_MONOLITH;   /* CON-12: always realised as a monolith */
    else if (strcmp(s, "repulsive") == 0) {
        /* It pushes two zones apart without a passage; HotA connections only attract. */
        *keep = false;
        return rmg__vcmi_warn(r, v, 0, "connection %zu: 'repulsive' connections have no HotA equivalent: not imported",
                              ci + 1);
    } else
        return rmg__vcmi_error(r, v, 0, "connection %zu: unknown type '%.40s' (guarded, wide, fictive, repulsive or "
                               "forcePortal)", ci + 1, s);
    return RMG_OK;
}

static rmg_status read_road(rmg__vcmi *r, rmg__connection *c, const rmg__json *v, size_t ci)
{
    /* VCMI writes the road setting as a string; a JSON boolean is accepted as well. */
    if (v->type == RMG__JSON_BOOL) {
        c->roads = v->boolean ? RMG_ROAD_SETTING_MANDATORY : RMG_ROAD_SETTING_FORBIDDEN;
        return RMG_OK;
    }
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_STRING, 0, "connection road");
    if (st != RMG_OK)
        return st;
    if (strcmp(v->string, "true") == 0)
        c->roads = RMG_ROAD_SETTING_MANDATORY;
    else if (strcmp(v->string, "false") == 0)
        c->roads = RMG_ROAD_SETTING_FORBIDDEN;
    else if (strcmp(v->string, "random") == 0)
        c->roads = RMG_ROAD_SETTING_RANDOM;
    else
        return rmg__vcmi_error(r, v, 0, "connection %zu: road '%.40s' is not true, false or random", ci + 1,
                               v->string);
    return RMG_OK;
}

static rmg_status read_connection(rmg__vcmi *r, rmg__template *t, const rmg__json *v, size_t ci)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, 0, "connection");
    if (st != RMG_OK)
        return st;
    rmg__connection c;
    rmg__connection_defaults(&c);
    /* VCMI builds a road on every passage unless told otherwise. */
    c.roads = RMG_ROAD_SETTING_MANDATORY;
    c.loc = (rmg__srcloc){v->line, v->column};
    bool has_a = false, has_b = false, keep = true;
    for (size_t i = 0; i < v->count && st == RMG_OK; i++) {
        const rmg__json_member *m = &v->members[i];
        if (strcmp(m->key, "a") == 0) {
            st = connection_zone(r, &m->value, ci, "a", &c.zone_a);
            has_a = true;
        } else if (strcmp(m->key, "b") == 0) {
            st = connection_zone(r, &m->value, ci, "b", &c.zone_b);
            has_b = true;
        } else if (strcmp(m->key, "guard") == 0) {
            st = rmg__vcmi_int(r, &m->value, 0, INT32_MAX, 0, "guard", &c.value);
        } else if (strcmp(m->key, "type") == 0) {
            st = read_connection_type(r, &c, &m->value, ci, &keep);
        } else if (strcmp(m->key, "road") == 0) {
            st = read_road(r, &c, &m->value, ci);
        } else {
            char where[40];
            snprintf(where, sizeof where, "connection %zu", ci + 1);
            st = rmg__vcmi_unknown_key(r, m, 0, where);
        }
    }
    if (st == RMG_OK && (!has_a || !has_b))
        st = rmg__vcmi_error(r, v, 0, "connection %zu needs both 'a' and 'b'", ci + 1);
    if (st != RMG_OK || !keep)
        return st;
    rmg__connection *slot = rmg__template_add_connection(r->pack, t);
    if (!slot)
        return rmg__error_nomem(r->ctx);
    *slot = c;
    return RMG_OK;
}

static rmg_status read_connections(rmg__vcmi *r, rmg__template *t, const rmg__json *v)
{
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_ARRAY, 0, "connections");
    for (size_t i = 0; i < v->count && st == RMG_OK; i++)
        st = read_connection(r, t, &v->items[i], i);
    return st;
}

/* ---- templates and the file --------------------------------------------------------------------------- */

static rmg_status read_template_zones(rmg__vcmi *r, rmg__template *t, const rmg__json *zones)
{
    rmg_status st = rmg__vcmi_expect(r, zones, RMG__JSON_OBJECT, 0, "zones");
    if (st != RMG_OK)
        return st;
    size_t bytes;
    if (!rmg__mul_ok(zones->count ? zones->count : 1, sizeof(rmg__vcmi_zone), &bytes))
        return rmg__error_nomem(r->ctx);
    rmg__vcmi_zone *extra = rmg__arena_alloc(&r->scratch, bytes);
    if (!extra)
        return rmg__error_nomem(r->ctx);
    st = rmg__vcmi_read_zones(r, t, zones, extra);
    if (st == RMG_OK)
        st = rmg__vcmi_resolve_zones(r, t, extra);
    return st;
}

static rmg_status require(rmg__vcmi *r, const rmg__json *tpl, const char *key)
{
    if (rmg__json_find(tpl, key))
        return RMG_OK;
    return rmg__vcmi_error(r, tpl, 0, "the template has no '%s'", key);
}

/* A file may ask for more humans than players (worldsAtWar.json: players "2", humans "3"):
 * kept as written, but no setup can then use the template, which the author should know. */
static rmg_status check_humans(rmg__vcmi *r, const rmg__template *t, const rmg__json *tpl)
{
    const rmg__json_member *humans = rmg__json_find(tpl, "humans");
    if (!humans || !t->players.max_total || t->players.min_human <= t->players.max_total)
        return RMG_OK;
    return rmg__vcmi_warn(r, &humans->value, 0, "'humans' asks for at least %d human players but 'players' allows at "
                          "most %d in all: no setup fits this template", t->players.min_human, t->players.max_total);
}

static rmg_status read_template(rmg__vcmi *r, const rmg__json_member *entry)
{
    const rmg__json *v = &entry->value;
    r->tpl = entry->key;
    rmg_status st = rmg__vcmi_expect(r, v, RMG__JSON_OBJECT, 0, "a template");
    if (st != RMG_OK)
        return st;
    static const char *const required[] = {"minSize", "maxSize", "players", "zones", "connections"};
    for (size_t i = 0; i < RMG__ARRAY_LEN(required) && st == RMG_OK; i++)
        st = require(r, v, required[i]);
    const rmg__json_member *name = rmg__json_find(v, "name");
    if (st == RMG_OK && name && (st = rmg__vcmi_expect(r, &name->value, RMG__JSON_STRING, 0, "name")) == RMG_OK)
        r->tpl = name->value.string;
    rmg__template *t = st == RMG_OK ? rmg__pack_add_template(r->pack) : NULL;
    if (st == RMG_OK && (!t || !(t->name = rmg__arena_strdup(&r->pack->arena, r->tpl))))
        st = rmg__error_nomem(r->ctx);
    if (st != RMG_OK)
        return st;
    t->loc = (rmg__srcloc){entry->line, entry->column};
    for (size_t i = 0; i < v->count && st == RMG_OK; i++)
        st = read_template_key(r, t, &v->members[i]);
    if (st == RMG_OK)
        st = read_template_zones(r, t, &rmg__json_find(v, "zones")->value);
    if (st == RMG_OK)
        st = read_connections(r, t, &rmg__json_find(v, "connections")->value);
    if (st == RMG_OK && t->min_size > t->max_size)
        st = rmg__vcmi_error(r, v, 0, "minSize is larger than maxSize");
    if (st == RMG_OK)
        st = check_humans(r, t, v);
    if (st == RMG_OK)
        st = flush_notes(r);
    return st;
}

/* Pack name: the file name without folders and extension ("vcmi" when there is none). */
static rmg_status name_pack(rmg__vcmi *r)
{
    const char *base = r->name ? r->name : "";
    for (const char *c = base; *c; c++)
        if (*c == '/' || *c == '\\')
            base = c + 1;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    char *s = n ? rmg__arena_alloc(&r->pack->arena, n + 1) : rmg__arena_strdup(&r->pack->arena, "vcmi");
    if (!s)
        return rmg__error_nomem(r->ctx);
    if (n) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    r->pack->name = s;
    if (r->name && !(r->pack->file = rmg__arena_strdup(&r->pack->arena, r->name)))
        return rmg__error_nomem(r->ctx);
    return RMG_OK;
}

/* One template's description is kept as written; several are "name: text" lines. */
static rmg_status finish_description(rmg__vcmi *r)
{
    if (!r->n_descriptions)
        return RMG_OK;
    const char *text = r->description.data;
    if (r->n_descriptions == 1 && r->pack->n_templates == 1)
        text += strlen(r->pack->templates[0].name) + 2;
    r->pack->description = rmg__arena_strdup(&r->pack->arena, text);
    return r->pack->description ? RMG_OK : rmg__error_nomem(r->ctx);
}

static rmg_status read_file(rmg__vcmi *r, const char *data, size_t len)
{
    const rmg__json *root;
    rmg_status st = rmg__json_parse(r->ctx, &r->scratch, data, len, r->name, NULL, &root);
    if (st != RMG_OK)
        return st;
    if (root->type != RMG__JSON_OBJECT)
        return rmg__vcmi_error(r, root, 0, "a VCMI template file is an object of templates, found %s %s",
                               root->type == RMG__JSON_ARRAY ? "an" : "a", rmg__json_type_name(root->type));
    if (!root->count)
        return rmg__vcmi_error(r, root, 0, "no templates: the file is an empty object");
    if ((st = name_pack(r)) != RMG_OK)
        return st;
    r->pack->format = RMG_FORMAT_VCMI;
    for (size_t i = 0; i < root->count && st == RMG_OK; i++)
        st = read_template(r, &root->members[i]);
    r->tpl = NULL;
    if (st == RMG_OK)
        st = finish_description(r);
    return st;
}

rmg_status rmg__vcmi_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out)
{
    *out = NULL;
    if (!data && len)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "vcmi: no data");
    rmg__vcmi r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.name = name;
    r.content = rmg__content_get(ctx);
    if (!r.content)
        return ctx->err.status != RMG_OK ? ctx->err.status : rmg__error_nomem(ctx);
    rmg_status st = rmg__pack_new(ctx, &r.pack);
    if (st != RMG_OK)
        return st;
    rmg__arena_init(&r.scratch, ctx, 64 * 1024);
    rmg__buf_init(&r.description, ctx);
    st = read_file(&r, data ? data : "", len);
    rmg__buf_free(&r.description);
    RMG__VEC_FREE(ctx, &r.notes);
    rmg__arena_free(&r.scratch);
    if (st != RMG_OK) {
        rmg__pack_free(r.pack);
        return st;
    }
    *out = r.pack;
    return RMG_OK;
}
