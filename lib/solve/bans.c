/*
 * Item bans with their defaults and fallbacks (MIS-16, MIS-20..38, OBJ-14, TPL-08).
 *
 * Order for each kind: built-in defaults (some depend on the water level), then the explicit
 * overrides of the pack/template in list order (TPL-08: they win over every default), then the
 * automatic rules that must hold whatever was configured (MIS-22/23/26/29/38, OBJ-14).
 * Override lists hold h3m ids; default lists name content keys.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"

/* MIS-21 (the three HotA artifacts are the Pendant of Reflection parts). */
static const char *const artifacts_banned[] = {
    "vial_of_dragon_blood", "armageddons_blade", "horn_of_the_abyss", "recanters_cloak", "orb_of_inhibition",
    "garniture_of_interference", "surcoat_of_counterpoise", "boots_of_polarity", "sleepkeeper",
};
static const char *const artifacts_banned_dry[] = {"sea_captains_hat", "necklace_of_ocean_guidance",
                                                   "boots_of_levitation"};
/* MIS-25 */
static const char *const spells_banned_dry[] = {"summon_boat", "scuttle_boat", "water_walk"};
/* MIS-26, by level 1..5 */
static const char *const spell_fallbacks[] = {"magic_arrow", "lightning_bolt", "fireball", "chain_lightning",
                                              "implosion"};
/* MIS-30 (campaign heroes come from the content's campaign_only flag) */
static const char *const heroes_banned[] = {"galthran", "sir_mullich", "torgrim"};
static const char *const heroes_banned_dry[] = {"sylvia", "voy", "elmore"};
static const char *const heroes_banned_wet[] = {"beatrice", "kinkeria", "derek"};
/* OBJ-16 */
static const char *const scroll_special[] = {"town_portal", "water_walk", "dimension_door", "fly"};

#define HEROES_PER_TOWN_AT_START 16 /* MIS-32 */

/* Content arrays share the layout "char *key ... int id": found by offsets. */
typedef struct table {
    const void *items;
    size_t count, stride, id_offset;
    const char *what;
} table;

static const char *item_key(const table *t, size_t i)
{
    return *(char *const *)(const void *)((const char *)t->items + i * t->stride);
}

static int item_id(const table *t, size_t i)
{
    return *(const int *)(const void *)((const char *)t->items + i * t->stride + t->id_offset);
}

static long find_key(const table *t, const char *key)
{
    for (size_t i = 0; i < t->count; i++)
        if (item_key(t, i) && strcmp(item_key(t, i), key) == 0)
            return (long)i;
    return -1;
}

static long find_id(const table *t, int id)
{
    for (size_t i = 0; i < t->count; i++)
        if (item_id(t, i) == id)
            return (long)i;
    return -1;
}

static void set_keys(const table *t, uint8_t *allowed, const char *const *keys, size_t n, uint8_t value)
{
    for (size_t k = 0; k < n; k++) {
        long i = find_key(t, keys[k]);
        if (i >= 0)
            allowed[i] = value;
    }
}

static rmg_status apply_overrides(const table *t, uint8_t *allowed, const rmg__override_list *list,
                                  const rmg__solve_out *out)
{
    for (size_t k = 0; list && k < list->count; k++) {
        long i = find_id(t, list->items[k].id);
        if (i >= 0) {
            allowed[i] = list->items[k].allow;
            continue;
        }
        rmg_status st = rmg__solve_warn(out, "%s override names unknown id %d; ignored", t->what,
                                        list->items[k].id);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

static uint8_t *new_flags(rmg_context *ctx, rmg__arena *arena, size_t n, uint8_t value)
{
    uint8_t *a = rmg__arena_alloc(arena, n ? n : 1);
    if (!a)
        rmg__error_nomem(ctx);
    else
        memset(a, value, n);
    return a;
}

static bool dry(const rmg__solve_input *in)
{
    return in->water == RMG_WATER_NONE;
}

/* ---- spells ------------------------------------------------------------------------------- */

/* Spells a ban can touch (MIS-25: not Titan's Lightning Bolt nor creature abilities). */
static bool spell_bannable(const rmg__spell *s)
{
    return s->learnable && s->level >= 1 && s->level <= 5;
}

static bool spell_is(const rmg__spell *s, const char *key)
{
    return s->key && strcmp(s->key, key) == 0;
}

static rmg_status solve_spells(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    rmg__arena *arena = out->arena;
    const struct rmg_content *c = in->content;
    table t = {c->spells, c->n_spells, sizeof *c->spells, offsetof(rmg__spell, id), "spell"};
    uint8_t *allowed = sol->spell_allowed = new_flags(ctx, arena, c->n_spells, 1);
    if (!allowed)
        return RMG_ERR_NOMEM;
    if (dry(in))
        set_keys(&t, allowed, spells_banned_dry, RMG__ARRAY_LEN(spells_banned_dry), 0);
    rmg_status st = apply_overrides(&t, allowed, &in->tpl->spells, out);
    for (size_t i = 0; i < c->n_spells; i++)
        if (!spell_bannable(&c->spells[i]))
            allowed[i] = 1;
    for (int level = 1; level <= 5 && st == RMG_OK; level++) { /* MIS-26 */
        bool any = false;
        for (size_t i = 0; i < c->n_spells; i++)
            any |= c->spells[i].level == level && spell_bannable(&c->spells[i]) && allowed[i];
        long fb = find_key(&t, spell_fallbacks[level - 1]);
        if (any || fb < 0)
            continue;
        allowed[fb] = 1;
        st = rmg__solve_warn(out, "every level %d spell is banned; %s allowed (MIS-26)", level,
                             spell_fallbacks[level - 1]);
    }
    return st;
}

/* ---- OBJ-14 ------------------------------------------------------------------------------- */

static bool scroll_may_hold(const rmg__object_def *o, const rmg__spell *s)
{
    bool special = false;
    for (size_t k = 0; k < RMG__ARRAY_LEN(scroll_special); k++)
        special |= spell_is(s, scroll_special[k]);
    if (o->spell_level == 6)
        return special;
    if (s->level != o->spell_level)
        return false;
    if (s->level == 4 && (spell_is(s, "town_portal") || spell_is(s, "water_walk")))
        return false;
    return !(s->level == 5 && (spell_is(s, "dimension_door") || spell_is(s, "fly")));
}

static bool pandora_may_hold(const rmg__object_def *o, const rmg__spell *s)
{
    int lo = o->spell_level >= 1 ? o->spell_level : 1;
    int hi = o->spell_level_max >= lo ? o->spell_level_max : (o->spell_level >= 1 ? lo : 5);
    int schools = o->school_mask > 0 ? o->school_mask : 15;
    return s->level >= lo && s->level <= hi && (s->schools & schools) != 0;
}

static rmg_status solve_objects(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    const struct rmg_content *c = in->content;
    sol->object_banned = new_flags(ctx, out->arena, c->n_objects, 0);
    if (!sol->object_banned)
        return RMG_ERR_NOMEM;
    for (size_t i = 0; i < c->n_objects; i++) {
        const rmg__object_def *o = &c->objects[i];
        bool scroll = o->family && strcmp(o->family, "spell_scroll") == 0 && o->spell_level >= 1;
        bool pandora = o->family && strcmp(o->family, "pandora_spells") == 0;
        if (!scroll && !pandora)
            continue;
        bool any = false;
        for (size_t k = 0; k < c->n_spells && !any; k++) {
            const rmg__spell *s = &c->spells[k];
            if (spell_bannable(s) && sol->spell_allowed[k])
                any = scroll ? scroll_may_hold(o, s) : pandora_may_hold(o, s);
        }
        sol->object_banned[i] = !any;
    }
    return RMG_OK;
}

/* ---- artifacts ------------------------------------------------------------------------------ */

/* MIS-20: the Spellbook, scrolls, war machines and the Grail are outside the bans. */
static bool artifact_bannable(const rmg__artifact *a)
{
    return a->cls != RMG_ARTIFACT_SPECIAL;
}

static rmg_status solve_artifacts(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    rmg__arena *arena = out->arena;
    const struct rmg_content *c = in->content;
    table t = {c->artifacts, c->n_artifacts, sizeof *c->artifacts, offsetof(rmg__artifact, id), "artifact"};
    table spells = {c->spells, c->n_spells, sizeof *c->spells, offsetof(rmg__spell, id), "spell"};
    uint8_t *allowed = sol->artifact_allowed = new_flags(ctx, arena, c->n_artifacts, 1);
    if (!allowed)
        return RMG_ERR_NOMEM;
    for (size_t i = 0; i < c->n_artifacts; i++)
        if (c->artifacts[i].combination)
            allowed[i] = 0;
    set_keys(&t, allowed, artifacts_banned, RMG__ARRAY_LEN(artifacts_banned), 0);
    if (dry(in))
        set_keys(&t, allowed, artifacts_banned_dry, RMG__ARRAY_LEN(artifacts_banned_dry), 0);
    rmg_status st = apply_overrides(&t, allowed, &in->tpl->artifacts, out);
    if (st == RMG_OK)
        st = apply_overrides(&t, allowed, &in->tpl->combo_artifacts, out);
    if (st != RMG_OK)
        return st;
    /* MIS-22: Sea Captain's Hat goes with Summon Boat and Scuttle Boat. */
    long summon = find_key(&spells, "summon_boat"), scuttle = find_key(&spells, "scuttle_boat");
    long hat = find_key(&t, "sea_captains_hat");
    bool boat_banned = (summon >= 0 && !sol->spell_allowed[summon]) || (scuttle >= 0 && !sol->spell_allowed[scuttle]);
    if (hat >= 0 && boat_banned)
        allowed[hat] = 0;
    for (size_t i = 0; i < c->n_artifacts; i++)
        if (!artifact_bannable(&c->artifacts[i]))
            allowed[i] = 1;
    bool any = false;
    for (size_t i = 0; i < c->n_artifacts; i++)
        any |= artifact_bannable(&c->artifacts[i]) && allowed[i];
    long blackshard = find_key(&t, "blackshard_of_the_dead_knight");
    if (any || blackshard < 0)
        return RMG_OK;
    allowed[blackshard] = 1; /* MIS-23 */
    return rmg__solve_warn(out, "every artifact is banned; Blackshard of the Dead Knight allowed (MIS-23)");
}

/* ---- skills ------------------------------------------------------------------------------- */

static rmg_status solve_skills(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    rmg__arena *arena = out->arena;
    const struct rmg_content *c = in->content;
    table t = {c->skills, c->n_skills, sizeof *c->skills, offsetof(rmg__skill, id), "skill"};
    uint8_t *allowed = sol->skill_allowed = new_flags(ctx, arena, c->n_skills, 1);
    if (!allowed)
        return RMG_ERR_NOMEM;
    static const char *const resistance[] = {"resistance"}, *const navigation[] = {"navigation"};
    set_keys(&t, allowed, resistance, 1, 0);
    if (dry(in))
        set_keys(&t, allowed, navigation, 1, 0);
    rmg_status st = apply_overrides(&t, allowed, &in->tpl->skills, out);
    size_t n_allowed = 0;
    for (size_t i = 0; i < c->n_skills; i++)
        n_allowed += allowed[i];
    /* MIS-29: re-allow in the game's list order (the skill id) until four are allowed. */
    while (st == RMG_OK && n_allowed < 4 && n_allowed < c->n_skills) {
        long first = -1;
        for (size_t i = 0; i < c->n_skills; i++)
            if (!allowed[i] && (first < 0 || c->skills[i].id < c->skills[first].id))
                first = (long)i;
        allowed[first] = 1;
        n_allowed++;
        st = rmg__solve_warn(out, "fewer than 4 skills allowed; %s re-allowed (MIS-29)", c->skills[first].key);
    }
    long interference = find_key(&t, "interference"), resist = find_key(&t, "resistance");
    out->x->interference_to_resistance = interference >= 0 && resist >= 0 && !allowed[interference] && allowed[resist];
    return st;
}

/* ---- heroes ------------------------------------------------------------------------------- */

static rmg_status solve_heroes(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg__solution *sol = out->sol;
    rmg__arena *arena = out->arena;
    const struct rmg_content *c = in->content;
    table t = {c->heroes, c->n_heroes, sizeof *c->heroes, offsetof(rmg__hero, id), "hero"};
    uint8_t *allowed = sol->hero_allowed = new_flags(ctx, arena, c->n_heroes, 1);
    out->x->hero_start_choice = new_flags(ctx, arena, c->n_heroes, 0);
    if (!allowed || !out->x->hero_start_choice)
        return RMG_ERR_NOMEM;
    for (size_t i = 0; i < c->n_heroes; i++)
        if (c->heroes[i].campaign_only)
            allowed[i] = 0;
    set_keys(&t, allowed, heroes_banned, RMG__ARRAY_LEN(heroes_banned), 0);
    if (dry(in))
        set_keys(&t, allowed, heroes_banned_dry, RMG__ARRAY_LEN(heroes_banned_dry), 0);
    else
        set_keys(&t, allowed, heroes_banned_wet, RMG__ARRAY_LEN(heroes_banned_wet), 0);
    rmg_status st = apply_overrides(&t, allowed, in->pack ? &in->pack->heroes : NULL, out);
    int n_allowed = 0;
    for (size_t i = 0; i < c->n_heroes; i++) {
        if (!allowed[i])
            continue;
        n_allowed++;
        /* MIS-32: the first 16 allowed heroes of each town in content (id) order. */
        int before = 0;
        for (size_t j = 0; j < i; j++)
            before += allowed[j] && out->x->hero_start_choice[j] && c->heroes[j].faction == c->heroes[i].faction;
        out->x->hero_start_choice[i] = before < HEROES_PER_TOWN_AT_START;
    }
    sol->prisons_max = rmg__prisons_max(n_allowed, in->players);
    /* MIS-34 */
    table spells = {c->spells, c->n_spells, sizeof *c->spells, offsetof(rmg__spell, id), "spell"};
    long gem = find_key(&t, "gem");
    sol->gem_spell = gem >= 0 && allowed[gem] ? (int)find_key(&spells, dry(in) ? "bless" : "summon_boat") : -1;
    return st;
}

int rmg__prisons_max(int allowed_heroes, int players)
{
    int keep = 10 * players + 48;
    return allowed_heroes > keep ? allowed_heroes - keep : 0;
}

/* ---- towns -------------------------------------------------------------------------------- */

uint32_t rmg__solve_town_factions(const struct rmg_content *c)
{
    uint32_t towns = 0;
    for (size_t i = 0; i < c->n_factions; i++)
        if (c->factions[i].is_town && c->factions[i].id >= 0 && c->factions[i].id < RMG_FACTION_NEUTRAL)
            towns |= 1u << c->factions[i].id;
    return towns;
}

uint32_t rmg__solve_pack_towns(const struct rmg_content *c, const struct rmg_pack *pack, bool *fallback)
{
    uint32_t towns = rmg__solve_town_factions(c);
    uint32_t listed = pack ? pack->allowed_towns : 0;
    uint32_t allowed = listed ? listed & towns : towns;
    *fallback = allowed == 0;
    return allowed ? allowed : 1u << RMG_FACTION_CASTLE; /* MIS-38 */
}

void rmg__solve_chosen_towns(const rmg_generate_options *o, int out[8])
{
    for (int p = 0; p < 8; p++)
        out[p] = (o->towns_chosen >> p & 1u) ? o->towns[p] : RMG_FACTION_NONE;
}

const char *rmg__solve_faction_key(const struct rmg_content *c, int id)
{
    for (size_t i = 0; i < c->n_factions; i++)
        if (c->factions[i].id == id)
            return c->factions[i].key;
    return "?";
}

/* "tower, conflux" */
static void list_factions(const struct rmg_content *c, uint32_t mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int id = 0; id < RMG_FACTION_NEUTRAL && used < len; id++)
        if (mask >> id & 1u) {
            int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", rmg__solve_faction_key(c, id));
            used += n > 0 ? (size_t)n : 0;
        }
}

rmg_status rmg__solve_check_town_choice(rmg_context *ctx, const struct rmg_content *c, const struct rmg_pack *pack,
                                        const int towns[8])
{
    bool fallback;
    uint32_t allowed = rmg__solve_pack_towns(c, pack, &fallback);
    uint32_t known = rmg__solve_town_factions(c);
    for (int p = 0; p < 8; p++) {
        int t = towns[p];
        if (t == RMG_FACTION_NONE)
            continue;
        if (t < 0 || t >= RMG_FACTION_NEUTRAL || !(known >> t & 1u))
            return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "player %d's town %d is no town type of the game content",
                                  p + 1, t);
        if (allowed >> t & 1u)
            continue;
        char list[200];
        list_factions(c, allowed, list, sizeof list);
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG,
                              "player %d's town '%s' is not among the pack's allowed towns (%s)%s (MIS-37)", p + 1,
                              rmg__solve_faction_key(c, t), list, fallback ? ", which falls back to Castle (MIS-38)" : "");
    }
    return RMG_OK;
}

static rmg_status solve_towns(const rmg__solve_input *in, const rmg__solve_out *out)
{
    bool fallback;
    out->sol->allowed_towns = rmg__solve_pack_towns(in->content, in->pack, &fallback);
    return fallback ? rmg__solve_warn(out, "every town type is banned; Castle allowed (MIS-38)") : RMG_OK;
}

rmg_status rmg__solve_bans(rmg_context *ctx, const rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg_status st = solve_towns(in, out);
    if (st == RMG_OK)
        st = solve_spells(ctx, in, out);
    if (st == RMG_OK)
        st = solve_objects(ctx, in, out);
    if (st == RMG_OK)
        st = solve_artifacts(ctx, in, out);
    if (st == RMG_OK)
        st = solve_skills(ctx, in, out);
    if (st == RMG_OK)
        st = solve_heroes(ctx, in, out);
    return st;
}
