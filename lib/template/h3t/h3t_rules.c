/*
 * The small languages inside h3t cells: ID lists (+N -N), object rules (+class selector
 * value frequency max_map max_zone [extra]), type-selection hints and mirror-link codes.
 * Rule targets are resolved to content keys here (docs/h3t-import.md, "Object rules").
 */
#include <stdio.h>
#include <string.h>

#include "h3t.h"

typedef struct token {
    const char *s;
    size_t n;
} token;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next whitespace-separated token of *p; false at the end. */
static bool next_token(const char **p, token *t)
{
    const char *s = *p;
    while (*s && is_space(*s))
        s++;
    if (!*s) {
        *p = s;
        return false;
    }
    t->s = s;
    while (*s && !is_space(*s))
        s++;
    t->n = (size_t)(s - t->s);
    *p = s;
    return true;
}

static bool tok_is(token t, const char *word)
{
    return t.n == strlen(word) && memcmp(t.s, word, t.n) == 0;
}

/* Decimal integer with optional sign; rejects overflow instead of wrapping. */
static bool parse_i64_n(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i == n)
        return false;
    uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (neg)
        *out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return true;
}

bool rmg__h3t_parse_int64(const char *s, int64_t *out)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    return parse_i64_n(s, n, out);
}

/* Token as int in [lo, hi]; false otherwise. */
static bool tok_int(token t, int64_t lo, int64_t hi, int64_t *out)
{
    return parse_i64_n(t.s, t.n, out) && *out >= lo && *out <= hi;
}

/* A token for messages: at most 40 characters. */
static const char *tok_text(token t, char *buf, size_t size)
{
    size_t n = RMG__MIN(t.n, size - 1);
    memcpy(buf, t.s, n);
    buf[n] = '\0';
    return buf;
}

/* ---- ID lists ----------------------------------------------------------------------------- */

rmg_status rmg__h3t_parse_id_list(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, int max_id,
                                  rmg__override_list *list)
{
    token t;
    char buf[48];
    while (next_token(&cell, &t)) {
        int64_t id;
        if (t.n < 2 || (t.s[0] != '+' && t.s[0] != '-') || !parse_i64_n(t.s + 1, t.n - 1, &id) || id < 0)
            return rmg__h3t_error(rd, at.col, at.what, "expected +ID or -ID, found '%s'", tok_text(t, buf, 41));
        if (id > max_id)
            return rmg__h3t_error(rd, at.col, at.what, "id %lld out of range 0..%d", (long long)id, max_id);
        rmg__override *o = rmg__arena_grow(&rd->pack->arena, (void **)&list->items, &list->count, sizeof *o);
        if (!o)
            return rmg__error_nomem(rd->ctx);
        o->id = (int)id;
        o->allow = t.s[0] == '+';
    }
    return RMG_OK;
}

bool rmg__h3t_id_mask(const char *cell, int n_ids, uint32_t *mask)
{
    token t;
    uint32_t m = n_ids >= 32 ? UINT32_MAX : ((uint32_t)1 << n_ids) - 1u;
    while (next_token(&cell, &t)) {
        int64_t id;
        if (t.n < 2 || (t.s[0] != '+' && t.s[0] != '-') || !parse_i64_n(t.s + 1, t.n - 1, &id) || id < 0 ||
            id >= n_ids || id >= 32)
            return false;
        if (t.s[0] == '+')
            m |= (uint32_t)1 << id;
        else
            m &= ~((uint32_t)1 << id);
    }
    *mask = m;
    return true;
}

/* ---- object rules --------------------------------------------------------------------------- */

#define MAX_RULE_TOKENS 16

enum { CLS_PANDORA = 6, CLS_KEYMASTER = 10, CLS_DWELLING = 17, CLS_PRISON = 62, CLS_SEER = 83, CLS_SCROLL = 93 };

typedef struct rule_ctx {
    rmg__h3t_reader *rd;
    rmg__h3t_cellref at;
    rmg_rule_op op;
    int cls;
    token sel[MAX_RULE_TOKENS];      /* selector tokens (after the class) */
    size_t n_sel;
    int64_t limits[5];               /* value frequency max_map max_zone extra */
    bool has_extra;
    char *raw;
} rule_ctx;

static bool is_wild(const rule_ctx *rc, size_t i)
{
    return i >= rc->n_sel || tok_is(rc->sel[i], "n");
}

static rmg_status bad_rule(const rule_ctx *rc, const char *why)
{
    return rmg__h3t_error(rc->rd, rc->at.col, rc->at.what, "object rule '%.60s': %s", rc->raw, why);
}

/* The arena copy of a name, shared by every rule that uses it. */
static rmg__rule *last_rule(const rule_ctx *rc)
{
    return &rc->rd->scratch[rc->rd->n_scratch - 1];
}

static char *arena_str(rmg__h3t_reader *rd, const char *s)
{
    uint64_t h = rmg__hash64(s, strlen(s), 0);
    size_t mask = RMG__H3T_INTERN_SLOTS - 1, i = (size_t)h & mask;
    if (rd->n_names * 4 >= RMG__H3T_INTERN_SLOTS * 3)   /* keep probes short */
        return rmg__arena_strdup(&rd->pack->arena, s);
    for (; rd->names[i].name; i = (i + 1) & mask)
        if (rd->names[i].hash == h && strcmp(rd->names[i].name, s) == 0)
            return rd->names[i].name;
    char *copy = rmg__arena_strdup(&rd->pack->arena, s);
    if (copy) {
        rd->names[i].hash = h;
        rd->names[i].name = copy;
        rd->n_names++;
    }
    return copy;
}

/* Appends one rule with the parsed parameters to the scratch list; the caller fills the target. */
static rmg__rule *new_rule(rule_ctx *rc, rmg_rule_target target)
{
    rmg__h3t_reader *rd = rc->rd;
    if (!rd->have_rule_defaults) {
        rmg__rule_list probe = {0};
        rmg__rule *d = rmg__rules_add(rd->pack, &probe);
        if (!d)
            return NULL;
        rd->rule_defaults = *d;
        rd->have_rule_defaults = true;
    }
    if (!rmg__vec_grow(rd->ctx, (void **)&rd->scratch, &rd->cap_scratch, rd->n_scratch + 1, sizeof *rd->scratch))
        return NULL;
    rmg__rule *r = &rd->scratch[rd->n_scratch++];
    *r = rd->rule_defaults;
    r->op = rc->op;
    r->target = target;
    if (rc->op == RMG_RULE_ALLOW) {
        r->value = rc->limits[0];
        r->frequency = rc->limits[1];
        r->max_map = rc->limits[2];
        r->max_zone = rc->limits[3];
        if (rc->has_extra)
            r->extra = rc->limits[4];
    }
    r->raw = rc->raw;
    r->loc.line = rc->rd->row;
    r->loc.column = rc->at.col + 1;
    return r;
}

/* Adds a rule whose target is a name (object key or family). */
static rmg_status add_named(rule_ctx *rc, rmg_rule_target target, const char *name)
{
    rmg__rule *r = new_rule(rc, target);
    char *s = r ? arena_str(rc->rd, name) : NULL;
    if (!s)
        return rmg__error_nomem(rc->rd->ctx);
    if (target == RMG_TARGET_OBJECT)
        r->object = s;
    else
        r->family = s;
    return RMG_OK;
}

/* An id the data tables do not know: the rule is kept under a synthetic key "h3m_C[_S]" with
 * its raw text, and a warning is recorded. */
static rmg_status add_unknown(rule_ctx *rc, const char *key)
{
    rmg__h3t_note(rc->rd, RMG__H3T_W_UNKNOWN_OBJECT, rc->at.col, rc->raw);
    return add_named(rc, RMG_TARGET_OBJECT, key);
}

/* Every object of the class (a rule without a subclass, or with "n"). */
static rmg_status add_class_wide(rule_ctx *rc)
{
    size_t n;
    const rmg__h3t_class_target *t = rmg__h3t_find_class_targets(rc->cls, &n);
    if (!t) {
        char key[32];
        snprintf(key, sizeof key, "h3m_%d", rc->cls);
        return add_unknown(rc, key);
    }
    for (size_t i = 0; i < n; i++) {
        rmg_status st = add_named(rc, t[i].is_family ? RMG_TARGET_FAMILY : RMG_TARGET_OBJECT, t[i].name);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* A default variant named "<prefix><amount>" if the object table has it, else a custom variant
 * (OBJ-15) of `family` with that amount. */
static rmg_status add_variant(rule_ctx *rc, const char *prefix, int64_t amount, const char *family)
{
    char key[64];
    snprintf(key, sizeof key, "%s%lld", prefix, (long long)amount);
    if (rmg__h3t_is_object_key(key))
        return add_named(rc, RMG_TARGET_OBJECT, key);
    rmg_status st = add_named(rc, RMG_TARGET_CUSTOM, family);
    if (st == RMG_OK)
        last_rule(rc)->amount = amount;
    return st;
}

/* Creature objects: selector "L level" (0-based) or a creature id / dwelling subclass. */
static rmg_status add_creature_level(rule_ctx *rc, size_t i, const char *family)
{
    int64_t level;
    if (is_wild(rc, i + 1))
        return add_named(rc, RMG_TARGET_FAMILY, family);
    if (!tok_int(rc->sel[i + 1], 0, 6, &level))
        return bad_rule(rc, "creature level after L must be 0..6");
    rmg_status st = add_named(rc, RMG_TARGET_CREATURE_LEVEL, family);
    if (st == RMG_OK)
        last_rule(rc)->level = (int)level + 1;
    return st;
}

static rmg_status add_creature(rule_ctx *rc, const char *family, int64_t id, const char *known_key)
{
    char key[40];
    const char *creature = known_key;
    if (!creature) {
        const rmg__h3t_creature *c = rmg__h3t_find_creature((int)id);
        if (c) {
            creature = c->key;
        } else {
            rmg__h3t_note(rc->rd, RMG__H3T_W_UNKNOWN_CREATURE, rc->at.col, rc->raw);
            snprintf(key, sizeof key, "h3m_creature_%lld", (long long)id);
            creature = key;
        }
    }
    rmg_status st = add_named(rc, RMG_TARGET_CREATURE, family);
    if (st != RMG_OK)
        return st;
    char *s = arena_str(rc->rd, creature);
    if (!s)
        return rmg__error_nomem(rc->rd->ctx);
    last_rule(rc)->creature = s;
    return RMG_OK;
}

/* Pandora's Box (sub kind args) and Seer's Hut artifact (n kind args); spec §6.2. */
static rmg_status resolve_reward_box(rule_ctx *rc)
{
    bool pandora = rc->cls == CLS_PANDORA;
    const char *creatures = pandora ? "pandora_creatures" : "seer_artifact_creatures";
    const char *experience = pandora ? "pandora_experience" : "seer_artifact_experience";
    const char *gold = pandora ? "pandora_gold" : "seer_artifact_gold";
    int64_t kind, v;
    if (is_wild(rc, 1))
        return add_class_wide(rc);
    if (!tok_int(rc->sel[1], 0, pandora ? 3 : 2, &kind))
        return bad_rule(rc, pandora ? "reward kind must be 0..3 or n" : "reward kind must be 0..2 or n");
    if (kind == 0) {
        if (is_wild(rc, 2))
            return add_named(rc, RMG_TARGET_FAMILY, creatures);
        if (tok_is(rc->sel[2], "L"))
            return add_creature_level(rc, 2, creatures);
        if (!tok_int(rc->sel[2], 0, 65535, &v))
            return bad_rule(rc, "creature id expected");
        return add_creature(rc, creatures, v, NULL);
    }
    if (kind == 1 || kind == 2) {
        const char *family = kind == 1 ? experience : gold;
        if (is_wild(rc, 2))
            return add_named(rc, RMG_TARGET_FAMILY, family);
        if (!tok_int(rc->sel[2], 0, INT64_MAX, &v))
            return bad_rule(rc, "amount expected");
        const char *prefix = pandora ? (kind == 1 ? "pandora_exp_" : "pandora_gold_")
                                     : (kind == 1 ? "seer_artifact_exp_" : "seer_artifact_gold_");
        return add_variant(rc, prefix, v, family);
    }
    /* Spells: minimum level, maximum level, school mask. */
    int64_t lo, hi, mask;
    if (is_wild(rc, 2) || is_wild(rc, 3) || is_wild(rc, 4))
        return add_named(rc, RMG_TARGET_FAMILY, "pandora_spells");
    if (!tok_int(rc->sel[2], 1, 5, &lo) || !tok_int(rc->sel[3], 1, 5, &hi) || !tok_int(rc->sel[4], 1, 15, &mask) ||
        lo > hi)
        return bad_rule(rc, "spells need min level, max level (1..5) and a school mask 1..15");
    /* School bits in the engine's order: 1 air, 2 fire, 4 water, 8 earth (docs). */
    static const char *const school_key[] = {"pandora_spells_air", "pandora_spells_fire", "pandora_spells_water",
                                             "pandora_spells_earth"};
    char key[40];
    const char *found = NULL;
    if (mask == 15 && lo == hi) {
        snprintf(key, sizeof key, "pandora_spells_level_%lld", (long long)lo);
        found = key;
    } else if (mask == 15 && lo == 1 && hi == 5) {
        found = "pandora_spells_all";
    } else if (lo == 1 && hi == 5 && (mask & (mask - 1)) == 0) {
        found = school_key[mask == 1 ? 0 : mask == 2 ? 1 : mask == 4 ? 2 : 3];
    }
    if (found)
        return add_named(rc, RMG_TARGET_OBJECT, found);
    rmg_status st = add_named(rc, RMG_TARGET_CUSTOM, "pandora_spells");
    if (st == RMG_OK) {
        rmg__rule *r = last_rule(rc);
        r->spell_min = (int)lo;
        r->spell_max = (int)hi;
        r->schools = (int)mask;
    }
    return st;
}

/* Prison: "0 experience"; the five defaults are levels 1/5/10/20/30. */
static rmg_status resolve_prison(rule_ctx *rc)
{
    static const struct { int64_t exp; int level; } levels[] = {
        {0, 1}, {5000, 5}, {15000, 10}, {90000, 20}, {500000, 30}};
    int64_t exp;
    if (is_wild(rc, 1))
        return add_class_wide(rc);
    if (!tok_int(rc->sel[1], 0, INT64_MAX, &exp))
        return bad_rule(rc, "prison experience expected");
    for (size_t i = 0; i < RMG__ARRAY_LEN(levels); i++) {
        if (levels[i].exp == exp) {
            char key[32];
            snprintf(key, sizeof key, "prison_level_%d", levels[i].level);
            return add_named(rc, RMG_TARGET_OBJECT, key);
        }
    }
    rmg_status st = add_named(rc, RMG_TARGET_CUSTOM, "prison");
    if (st == RMG_OK)
        last_rule(rc)->amount = exp;
    return st;
}

static rmg_status resolve_scroll(rule_ctx *rc)
{
    int64_t level;
    if (is_wild(rc, 1))
        return add_class_wide(rc);
    if (!tok_int(rc->sel[1], 1, 6, &level))
        return bad_rule(rc, "spell scroll level must be 1..6");
    char key[32];
    if (level == 6)
        snprintf(key, sizeof key, "spell_scroll_special");
    else
        snprintf(key, sizeof key, "spell_scroll_level_%lld", (long long)level);
    return add_named(rc, RMG_TARGET_OBJECT, key);
}

/* Keymaster's Tent: the colour is irrelevant, the value field chooses the variant. */
static rmg_status resolve_keymaster(rule_ctx *rc)
{
    int64_t value = rc->limits[0];
    if (rc->op == RMG_RULE_FORBID || value == RMG__PARAM_DEFAULT || value == RMG__PARAM_UNLIMITED)
        return add_class_wide(rc);
    return add_variant(rc, "keymaster_tent_", value, "keymaster_tent");
}

static rmg_status resolve_subclass(rule_ctx *rc)
{
    int64_t sub;
    if (rc->cls == CLS_DWELLING && rc->n_sel > 0 && tok_is(rc->sel[0], "L"))
        return add_creature_level(rc, 0, "creature_dwelling");
    if (is_wild(rc, 0))
        return add_class_wide(rc);
    if (!tok_int(rc->sel[0], 0, 65535, &sub))
        return bad_rule(rc, "object subclass must be a number, L level or n");
    const rmg__h3t_object *o = rmg__h3t_find_object(rc->cls, (int)sub);
    if (!o) {
        char key[40];
        snprintf(key, sizeof key, "h3m_%d_%lld", rc->cls, (long long)sub);
        return add_unknown(rc, key);
    }
    if (o->creature)
        return add_creature(rc, o->family, 0, o->creature);
    return add_named(rc, RMG_TARGET_OBJECT, o->key);
}

static rmg_status resolve_target(rule_ctx *rc)
{
    switch (rc->cls) {
    case CLS_PANDORA:
    case CLS_SEER:
        return resolve_reward_box(rc);
    case CLS_PRISON:
        return resolve_prison(rc);
    case CLS_SCROLL:
        return resolve_scroll(rc);
    case CLS_KEYMASTER:
        return resolve_keymaster(rc);
    default:
        return resolve_subclass(rc);
    }
}

/* Number of selector tokens of an enable rule (spec §6.2 table); 0 if the shape is unknown. */
static size_t selector_length(const rule_ctx *rc, const token *args, size_t n)
{
    switch (rc->cls) {
    case CLS_PANDORA:
    case CLS_SEER:
        if (n < 2)
            return 0;
        if (tok_is(args[1], "0"))
            return n > 2 && tok_is(args[2], "L") ? 4 : 3;
        if (tok_is(args[1], "3"))
            return 5;
        return 3;
    case CLS_PRISON:
    case CLS_SCROLL:
        return 2;
    case CLS_DWELLING:
        return n > 0 && tok_is(args[0], "L") ? 2 : 1;
    default:
        return 1;
    }
}

static bool parse_limit(token t, int64_t *out)
{
    if (tok_is(t, "d")) {
        *out = RMG__PARAM_DEFAULT;
        return true;
    }
    if (tok_is(t, "n")) {
        *out = RMG__PARAM_UNLIMITED;
        return true;
    }
    return tok_int(t, 0, INT64_MAX, out);
}

/* Joins the rule's tokens with single spaces (its raw text). */
static char *join_tokens(rmg__h3t_reader *rd, const token *t, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += t[i].n + 1;
    char *s = rmg__arena_alloc(&rd->pack->arena, len + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            s[o++] = ' ';
        memcpy(s + o, t[i].s, t[i].n);
        o += t[i].n;
    }
    s[o] = '\0';
    return s;
}

static rmg_status parse_one_rule(rmg__h3t_reader *rd, rmg__h3t_cellref at, const token *t, size_t n)
{
    rule_ctx rc = {.rd = rd, .at = at};
    rc.op = t[0].s[0] == '+' ? RMG_RULE_ALLOW : RMG_RULE_FORBID;
    rc.raw = join_tokens(rd, t, n);
    if (!rc.raw)
        return rmg__error_nomem(rd->ctx);
    token cls = {t[0].s + 1, t[0].n - 1};
    int64_t c;
    if (rc.op == RMG_RULE_FORBID && tok_is(cls, "n")) {
        if (n != 1)
            return bad_rule(&rc, "\"-n\" (forbid everything) takes no selector");
        return new_rule(&rc, RMG_TARGET_ALL) ? RMG_OK : rmg__error_nomem(rd->ctx);
    }
    if (!tok_int(cls, 0, 65535, &c))
        return bad_rule(&rc, "object class must be a number 0..65535");
    rc.cls = (int)c;
    const token *args = t + 1;
    size_t n_args = n - 1;
    if (rc.op == RMG_RULE_ALLOW) {
        size_t sel = selector_length(&rc, args, n_args);
        if (sel == 0 || n_args < sel + 4 || n_args > sel + 5)
            return bad_rule(&rc, "expected selector, value, frequency, max per map, max per zone");
        for (size_t i = 0; i < n_args - sel; i++)
            if (!parse_limit(args[sel + i], &rc.limits[i]))
                return bad_rule(&rc, "limits must be numbers, d (default) or n (unlimited)");
        rc.has_extra = n_args == sel + 5;
        if (rc.has_extra && rc.limits[4] != RMG__PARAM_DEFAULT)
            rmg__h3t_note(rd, RMG__H3T_W_EXTRA_FIELD, at.col, rc.raw);
        n_args = sel;
    }
    memcpy(rc.sel, args, n_args * sizeof *args);
    rc.n_sel = n_args;
    return resolve_target(&rc);
}

/* Moves the scratch rules to `list`. An empty list gets one arena block with the capacity
 * rmg__arena_grow assumes for that count (powers of two from 4), so later appends through
 * the builders stay valid. */
static rmg_status commit_rules(rmg__h3t_reader *rd, rmg__rule_list *list)
{
    size_t n = rd->n_scratch;
    rd->n_scratch = 0;
    if (n == 0)
        return RMG_OK;
    if (list->count == 0) {
        size_t cap = 4, bytes;
        while (cap < n)
            cap *= 2;
        rmg__rule *items = rmg__mul_ok(cap, sizeof *items, &bytes) ? rmg__arena_alloc(&rd->pack->arena, bytes) : NULL;
        if (!items)
            return rmg__error_nomem(rd->ctx);
        memcpy(items, rd->scratch, n * sizeof *items);
        list->items = items;
        list->count = n;
        return RMG_OK;
    }
    for (size_t i = 0; i < n; i++) {
        rmg__rule *r = rmg__arena_grow(&rd->pack->arena, (void **)&list->items, &list->count, sizeof *r);
        if (!r)
            return rmg__error_nomem(rd->ctx);
        *r = rd->scratch[i];
    }
    return RMG_OK;
}

rmg_status rmg__h3t_parse_rules(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, rmg__rule_list *list)
{
    rd->n_scratch = 0;
    token t[MAX_RULE_TOKENS];
    size_t n = 0;
    token tok;
    char buf[48];
    for (;;) {
        bool more = next_token(&cell, &tok);
        bool starts = more && (tok.s[0] == '+' || tok.s[0] == '-');
        if (n && (!more || starts)) {
            rmg_status st = parse_one_rule(rd, at, t, n);
            if (st != RMG_OK)
                return st;
            n = 0;
        }
        if (!more)
            return commit_rules(rd, list);
        if (!n && !starts)
            return rmg__h3t_error(rd, at.col, at.what, "object rule must start with + or -, found '%s'",
                                  tok_text(tok, buf, 41));
        if (tok.n < 2 && starts)
            return rmg__h3t_error(rd, at.col, at.what, "object rule '%s' has no object class",
                                  tok_text(tok, buf, 41));
        if (n == MAX_RULE_TOKENS)
            return rmg__h3t_error(rd, at.col, at.what, "object rule starting '%s' has too many fields",
                                  tok_text(t[0], buf, 41));
        t[n++] = tok;
    }
}

/* ---- type-selection hints (spec §6.4) ------------------------------------------------------ */

/* "<zone>[_p|_<k>]" or "x[...]" (x = this zone). *town: -1 player towns, k neutral #k,
 * RMG__TOWN_REF_ALL without suffix. Returns false if malformed. */
static bool parse_town_ref(const char *s, size_t n, int self, int *zone, int *town, bool *has_suffix)
{
    size_t i = 0;
    int64_t v;
    if (n && s[0] == 'x') {
        *zone = self;
        i = 1;
    } else {
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (!i || !parse_i64_n(s, i, &v) || v > INT32_MAX)
            return false;
        *zone = (int)v;
    }
    *has_suffix = i < n;
    if (i == n) {
        *town = RMG__TOWN_REF_ALL;
        return true;
    }
    if (s[i] != '_' || i + 1 == n)
        return false;
    if (n - i == 2 && s[i + 1] == 'p') {
        *town = -1;
        return true;
    }
    if (!parse_i64_n(s + i + 1, n - i - 1, &v) || v < 0 || v > 255)
        return false;
    *town = (int)v;
    return true;
}

/* One hint token into `r`; false if it does not fit the grammar. */
static bool parse_hint_token(token t, rmg__h3t_hint hint, int self, rmg__type_rule *r)
{
    size_t i = 0;
    r->zone_a = self;
    r->town_a = RMG__TOWN_REF_ALL;
    if (hint == RMG__H3T_HINT_TOWN) {   /* subject: p, n, a neutral town number, or none */
        if (t.n && t.s[0] == 'p') {
            r->town_a = -1;
            i = 1;
        } else if (t.n && t.s[0] == 'n') {
            r->town_a = RMG__TOWN_REF_NEUTRAL_ALL;
            i = 1;
        } else {
            while (i < t.n && t.s[i] >= '0' && t.s[i] <= '9')
                i++;
            int64_t k;
            if (i && (!parse_i64_n(t.s, i, &k) || k > 255))
                return false;
            if (i)
                r->town_a = (int)k;
        }
    } else {
        r->town_a = -1;
    }
    if (i >= t.n || (t.s[i] != 's' && t.s[i] != 'd'))
        return false;
    r->negate = t.s[i++] == 'd';
    bool terrain_op = i < t.n && t.s[i] == 't';
    if (terrain_op)
        i++;
    bool suffix;
    if (!parse_town_ref(t.s + i, t.n - i, self, &r->zone_b, &r->town_b, &suffix))
        return false;
    switch (hint) {
    case RMG__H3T_HINT_TOWN:      /* s/d town ref; st/dt zone (its terrain) */
        if (terrain_op && suffix)
            return false;
        r->kind = terrain_op ? RMG_TYPE_RULE_TOWN_NATIVE : RMG_TYPE_RULE_TOWN_SAME;
        break;
    case RMG__H3T_HINT_TERRAIN:   /* s/d zone; st/dt town ref */
        if (!terrain_op && suffix)
            return false;
        r->kind = terrain_op ? RMG_TYPE_RULE_TERRAIN_NATIVE : RMG_TYPE_RULE_TERRAIN_SAME;
        break;
    default:                      /* s/d zone or town ref; st/dt zone (its terrain) */
        if (terrain_op && suffix)
            return false;
        r->kind = terrain_op ? RMG_TYPE_RULE_FACTION_TERRAIN
                             : suffix ? RMG_TYPE_RULE_FACTION_TOWN : RMG_TYPE_RULE_FACTION_SAME;
        break;
    }
    if (!suffix && r->kind != RMG_TYPE_RULE_TOWN_SAME && r->kind != RMG_TYPE_RULE_TERRAIN_NATIVE)
        r->town_b = -1;   /* a zone, not a town: town_b says nothing (and keeps the model's default) */
    return true;
}

bool rmg__h3t_parse_hint(const char *text, rmg__h3t_hint hint, int self, rmg__type_rule *out)
{
    token t;
    const char *p = text;
    memset(out, 0, sizeof *out);
    if (!next_token(&p, &t) || !parse_hint_token(t, hint, self, out))
        return false;
    token rest;
    return !next_token(&p, &rest);
}

rmg_status rmg__h3t_parse_hints(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, rmg__h3t_hint hint,
                                rmg__zone *zone)
{
    token t;
    char buf[48];
    if (hint == RMG__H3T_HINT_FACTION && *cell)
        rmg__h3t_note(rd, RMG__H3T_W_FACTION_HINT, at.col, cell);
    while (next_token(&cell, &t)) {
        rmg__type_rule parsed = {0};
        if (!parse_hint_token(t, hint, zone->id, &parsed)) {
            rmg__h3t_note(rd, RMG__H3T_W_HINT_TOKEN, at.col, tok_text(t, buf, 41));
            continue;
        }
        rmg__type_rule *r =
            rmg__arena_grow(&rd->pack->arena, (void **)&zone->type_rules, &zone->n_type_rules, sizeof *r);
        char *raw = r ? rmg__arena_alloc(&rd->pack->arena, t.n + 1) : NULL;
        if (!raw)
            return rmg__error_nomem(rd->ctx);
        memcpy(raw, t.s, t.n);
        *r = parsed;
        r->raw = raw;
        r->loc.line = rd->row;
        r->loc.column = at.col + 1;
    }
    return RMG_OK;
}

/* ---- mirror links (spec §8.1) ---------------------------------------------------------------- */

/* "o<N>" one-way entrance, "e<N>" one-way exit, "t<N>" two-way, "s" / "sr" gate. */
static bool parse_teleport(rmg__h3t_reader *rd, rmg__h3t_cellref at, token t, rmg_teleport_kind *kind, int *color)
{
    int64_t n;
    if (tok_is(t, "s") || tok_is(t, "sr")) {
        if (t.n == 2)
            rmg__h3t_note(rd, RMG__H3T_W_MIRROR_SR, at.col, NULL);
        *kind = RMG_TELEPORT_GATE;
        *color = -1;
        return true;
    }
    if (t.n < 2 || !parse_i64_n(t.s + 1, t.n - 1, &n) || n < 0 || n > 255)
        return false;
    switch (t.s[0]) {
    case 'o': *kind = RMG_TELEPORT_ONE_WAY_ENTRANCE; break;
    case 'e': *kind = RMG_TELEPORT_ONE_WAY_EXIT; break;
    case 't': *kind = RMG_TELEPORT_TWO_WAY; break;
    default: return false;
    }
    *color = (int)n;
    return true;
}

rmg_status rmg__h3t_parse_mirror_code(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell,
                                      rmg__mirror_link *link)
{
    token t[4];
    size_t n = 0;
    token tok;
    const char *p = cell;
    while (next_token(&p, &tok)) {
        if (n == RMG__ARRAY_LEN(t))
            return rmg__h3t_error(rd, at.col, at.what, "mirror link code '%.40s' has too many parts", cell);
        t[n++] = tok;
    }
    size_t i = 0;
    if (n && (tok_is(t[0], "x") || tok_is(t[0], "r"))) {
        link->roads = link->roads || tok_is(t[0], "r");
        i = 1;
    }
    link->surface_kind = link->underground_kind = RMG_TELEPORT_NONE;
    link->surface_color = link->underground_color = -1;
    if (n - i == 0) {   /* a bare legacy marker: no teleports given */
        rmg__h3t_note(rd, RMG__H3T_W_MIRROR_BARE, at.col, cell);
        return RMG_OK;
    }
    if (n - i != 2 || !parse_teleport(rd, at, t[i], &link->surface_kind, &link->surface_color) ||
        !parse_teleport(rd, at, t[i + 1], &link->underground_kind, &link->underground_color))
        return rmg__h3t_error(rd, at.col, at.what,
                              "mirror link code '%.40s': expected [x|r] SURFACE UNDERGROUND (o<N>, e<N>, t<N>, s)",
                              cell);
    return RMG_OK;
}
