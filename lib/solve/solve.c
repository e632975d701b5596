/*
 * The solve stage and the public solve API (rmg/solve.h).
 *
 * A run: bans first (the town list of MIS-38 feeds the player town domains), then the
 * type-selection problem, then road choices. Everything a run writes lives in one arena: the
 * generator keeps it per attempt in g->stage_data[RMG_STAGE_SOLVE]; a public result owns its own.
 */
#include <stdio.h>
#include <string.h>

#include "solve/solve_internal.h"

rmg_status rmg__solve_warn(const rmg__solve_out *out, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    rmg__solve_warnings *w = &out->x->warnings;
    char **slot = rmg__arena_grow(out->arena, (void **)&w->items, &w->count, sizeof *slot);
    if (!slot)
        return rmg__error_nomem(out->arena->ctx);
    *slot = rmg__arena_strdup(out->arena, text);
    if (!*slot) {
        w->count--;
        return rmg__error_nomem(out->arena->ctx);
    }
    return RMG_OK;
}

rmg_status rmg__solve_run(rmg_context *ctx, rmg__solve_input *in, const rmg__solve_out *out)
{
    rmg_status st = rmg__solve_bans(ctx, in, out);
    if (st == RMG_OK)
        st = rmg__solve_types(ctx, in, out);
    if (st == RMG_OK)
        st = rmg__solve_roads(ctx, in, out);
    return st;
}

/* ---- the stage ----------------------------------------------------------------------------- */

typedef struct solve_state {
    rmg__arena arena;
    rmg__solve_extra extra;
} solve_state;

void rmg__solution_free(rmg__gen *g)
{
    solve_state *s = g->stage_data[RMG_STAGE_SOLVE];
    if (s) {
        rmg__arena_free(&s->arena);
        rmg__free(g->ctx, s);
        g->stage_data[RMG_STAGE_SOLVE] = NULL;
    }
    memset(&g->sol, 0, sizeof g->sol);
}

const rmg__solve_extra *rmg__solve_extra_of(const rmg__gen *g)
{
    const solve_state *s = g->stage_data[RMG_STAGE_SOLVE];
    return s ? &s->extra : NULL;
}

static rmg_status publish_warnings(rmg__gen *g, const rmg__solve_extra *x)
{
    for (size_t i = 0; i < x->warnings.count; i++) {
        rmg__log(g->ctx, RMG_LOG_WARNING, "solve: %s", x->warnings.items[i]);
        if (g->map && rmg__map_warn(g->map, "solve: %s", x->warnings.items[i]) != RMG_OK)
            return RMG_ERR_NOMEM;
    }
    return RMG_OK;
}

rmg_status rmg__stage_solve(rmg__gen *g)
{
    rmg__solution_free(g);
    solve_state *s = rmg__calloc(g->ctx, 1, sizeof *s);
    if (!s)
        return rmg__error_nomem(g->ctx);
    rmg__arena_init(&s->arena, g->ctx, 16 * 1024);
    g->stage_data[RMG_STAGE_SOLVE] = s;
    rmg__solve_input in = {0};
    in.content = g->content;
    in.pack = g->pack;
    in.tpl = g->tpl;
    in.zone_active = g->zone_active;
    in.conn_active = g->conn_active;
    in.players = g->level_players;
    in.humans = g->level_humans;
    in.water = g->opt.water;
    int towns[8];
    rmg__solve_chosen_towns(&g->opt, towns);
    in.player_towns = towns;
    rmg__gen_stream(g, "solve", 0, &in.rng_types);
    rmg__gen_stream(g, "solve", 1, &in.rng_factions);
    rmg__solve_out out = {&s->arena, &g->sol, &s->extra};
    rmg_status st = rmg__solve_run(g->ctx, &in, &out);
    if (st == RMG_OK)
        st = publish_warnings(g, &s->extra);
    if (st != RMG_OK)
        rmg__solution_free(g);
    return st;
}

/* ---- public API ---------------------------------------------------------------------------- */

struct rmg_solve_result {
    rmg_context *ctx;
    rmg__arena arena;
    const struct rmg_content *content;
    size_t n_zones, n_conns;
    int *zone_ids;
    bool *zone_active;
    rmg__solution sol;
    rmg__solve_extra x;
};

void rmg_solve_options_init(rmg_solve_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->water = RMG_WATER_NONE;
    for (int i = 0; i < 8; i++)
        options->player_towns[i] = RMG_FACTION_NONE;
}

/* A caller's options struct, possibly older (smaller) than ours. */
static rmg_status read_options(rmg_context *ctx, const rmg_solve_options *given, rmg_solve_options *o)
{
    rmg_solve_options_init(o);
    if (!given)
        return RMG_OK;
    if (rmg__struct_in(o, sizeof *o, given, offsetof(rmg_solve_options, node_budget)) != RMG_OK)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_solve: options.struct_size %zu is not one this library knows",
                              given->struct_size);
    if (o->players < 0 || o->players > 8 || o->humans < 0 || o->humans > 8)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_solve: players %d / humans %d out of range", o->players,
                              o->humans);
    if ((unsigned)o->water > RMG_WATER_ISLANDS)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_solve: unknown water level %d", (int)o->water);
    return RMG_OK;
}

static bool filter_accepts(const rmg__player_filter *f, int players, int humans)
{
    if (players <= 0)
        return true;
    int h = humans > 0 ? humans : 1;
    return (!f->min_total || players >= f->min_total) && (!f->max_total || players <= f->max_total) &&
           (!f->min_human || h >= f->min_human) && (!f->max_human || h <= f->max_human);
}

/* Zones and connections present for the options' player counts (PCK-02 filters). */
static rmg_status activity(rmg_solve_result *r, const rmg__template *t, const rmg_solve_options *o,
                           bool **conn_active)
{
    r->zone_active = rmg__arena_alloc(&r->arena, (t->n_zones ? t->n_zones : 1) * sizeof *r->zone_active);
    r->zone_ids = rmg__arena_alloc(&r->arena, (t->n_zones ? t->n_zones : 1) * sizeof *r->zone_ids);
    *conn_active = rmg__arena_alloc(&r->arena, (t->n_connections ? t->n_connections : 1) * sizeof **conn_active);
    if (!r->zone_active || !r->zone_ids || !*conn_active)
        return rmg__error_nomem(r->ctx);
    for (size_t i = 0; i < t->n_zones; i++) {
        const rmg__zone *z = &t->zones[i];
        bool player_zone = z->owner > 0 && o->players > 0 && z->owner > o->players;
        r->zone_active[i] = !player_zone && filter_accepts(&z->players, o->players, o->humans);
        r->zone_ids[i] = z->id;
    }
    for (size_t i = 0; i < t->n_connections; i++)
        (*conn_active)[i] = filter_accepts(&t->connections[i].players, o->players, o->humans);
    return RMG_OK;
}

static rmg_status solve_into(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                             const rmg_solve_options *options, rmg_solve_result *r)
{
    rmg_solve_options o;
    rmg_status st = read_options(ctx, options, &o);
    if (st != RMG_OK)
        return st;
    if (!pack || template_index >= pack->n_templates)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_solve: no template %zu in the pack", template_index);
    /* The host's, or the built-in ruleset; held until rmg_solve_result_destroy, so the result
     * reads it even after the context gets another one. */
    r->content = rmg__content_retain(rmg__content_get(ctx));
    if (!r->content)
        return rmg_context_errcode(ctx) != RMG_OK ? rmg_context_errcode(ctx) : RMG_ERR_NOT_FOUND;
    const rmg__template *t = &pack->templates[template_index];
    r->n_zones = t->n_zones;
    r->n_conns = t->n_connections;
    rmg__solve_input in = {0};
    bool *conn_active = NULL;
    st = activity(r, t, &o, &conn_active);
    if (st != RMG_OK)
        return st;
    in.content = r->content;
    in.pack = pack;
    in.tpl = t;
    in.zone_active = r->zone_active;
    in.conn_active = conn_active;
    in.players = o.players;
    in.humans = o.humans;
    in.water = o.water;
    in.player_towns = o.player_towns;
    in.node_budget = o.node_budget;
    st = rmg__solve_check_town_choice(ctx, r->content, pack, o.player_towns);
    if (st == RMG_OK)
        st = rmg_context_stream(ctx, "solve", 0, &in.rng_types);
    if (st == RMG_OK)
        st = rmg_context_stream(ctx, "solve", 1, &in.rng_factions);
    rmg__solve_out out = {&r->arena, &r->sol, &r->x};
    return st == RMG_OK ? rmg__solve_run(ctx, &in, &out) : st;
}

rmg_status rmg_solve(rmg_context *ctx, const rmg_pack *pack, size_t template_index, const rmg_solve_options *options,
                     rmg_solve_result **out)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!out)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_solve: out is NULL");
    *out = NULL;
    rmg_solve_result *r = rmg__calloc(ctx, 1, sizeof *r);
    if (!r)
        return rmg__error_nomem(ctx);
    r->ctx = rmg__context_retain(ctx); /* given back by rmg_solve_result_destroy */
    rmg__arena_init(&r->arena, ctx, 16 * 1024);
    rmg_status st = solve_into(ctx, pack, template_index, options, r);
    if (st != RMG_OK) {
        rmg_solve_result_destroy(r);
        return st;
    }
    *out = r;
    return RMG_OK;
}

rmg_status rmg_solve_validate(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                              const rmg_solve_options *options)
{
    rmg_solve_result *r = NULL;
    rmg_status st = rmg_solve(ctx, pack, template_index, options, &r);
    if (st != RMG_OK)
        return st;
    size_t problems = r->x.stats.rule_errors + r->x.stats.rules_violated + (r->x.stats.budget_exhausted ? 1 : 0);
    if (problems) {
        rmg__buf b;
        rmg__buf_init(&b, ctx);
        rmg__buf_printf(&b, "template %zu: %zu type-rule problem(s)", template_index, problems);
        for (size_t i = 0; i < r->x.warnings.count; i++)
            rmg__buf_printf(&b, "; %s", r->x.warnings.items[i]);
        char *msg = rmg__buf_take(&b);
        st = msg ? rmg__error_set(ctx, RMG_ERR_INVALID_DATA, "%s", msg) : rmg__error_nomem(ctx);
        rmg__free(ctx, msg);
    }
    rmg_solve_result_destroy(r);
    return st;
}

void rmg_solve_result_destroy(rmg_solve_result *result)
{
    if (!result)
        return;
    rmg_context *ctx = result->ctx;
    const struct rmg_content *content = result->content;
    rmg__arena_free(&result->arena);
    rmg__free(ctx, result);
    rmg__content_release(content);
    rmg__context_release(ctx);
}

size_t rmg_solve_zone_count(const rmg_solve_result *r)
{
    return r ? r->n_zones : 0;
}

rmg_status rmg_solve_zone_get(const rmg_solve_result *r, size_t zone_index, rmg_solve_zone *out)
{
    if (!r || !out || zone_index >= r->n_zones)
        return RMG_ERR_INVALID_ARG;
    const rmg__zone_solution *z = &r->sol.zones[zone_index];
    rmg_solve_zone info = {0};
    info.id = r->zone_ids[zone_index];
    info.active = r->zone_active[zone_index];
    info.terrain = z->terrain;
    info.faction = info.active ? z->faction : RMG_FACTION_NONE;
    info.player_town_type = z->player_town_type;
    info.neutral_towns = z->n_neutral_towns;
    info.owner = z->owner;
    info.human = z->human;
    return rmg__struct_out(out, &info, sizeof info, sizeof(size_t));
}

int rmg_solve_neutral_town(const rmg_solve_result *r, size_t zone_index, size_t k)
{
    if (!r || zone_index >= r->n_zones || k >= (size_t)r->sol.zones[zone_index].n_neutral_towns)
        return -1;
    return r->sol.zones[zone_index].neutral_town_types[k];
}

size_t rmg_solve_connection_count(const rmg_solve_result *r)
{
    return r ? r->n_conns : 0;
}

int rmg_solve_road(const rmg_solve_result *r, size_t i)
{
    return r && i < r->n_conns ? r->x.road_choice[i] : -1;
}

/* Allowed flag of the item with h3m id `id` in a content array of `stride`-sized items. */
static int flag_by_id(const void *items, size_t n, size_t stride, size_t id_offset, const uint8_t *flags, int id)
{
    for (size_t i = 0; flags && i < n; i++) {
        const int *item_id = (const void *)((const char *)items + i * stride + id_offset);
        if (*item_id == id)
            return flags[i] != 0;
    }
    return -1;
}

int rmg_solve_artifact_allowed(const rmg_solve_result *r, int id)
{
    return r ? flag_by_id(r->content->artifacts, r->content->n_artifacts, sizeof(rmg__artifact),
                          offsetof(rmg__artifact, id), r->sol.artifact_allowed, id)
             : -1;
}

int rmg_solve_spell_allowed(const rmg_solve_result *r, int id)
{
    return r ? flag_by_id(r->content->spells, r->content->n_spells, sizeof(rmg__spell), offsetof(rmg__spell, id),
                          r->sol.spell_allowed, id)
             : -1;
}

int rmg_solve_skill_allowed(const rmg_solve_result *r, int id)
{
    return r ? flag_by_id(r->content->skills, r->content->n_skills, sizeof(rmg__skill), offsetof(rmg__skill, id),
                          r->sol.skill_allowed, id)
             : -1;
}

int rmg_solve_hero_allowed(const rmg_solve_result *r, int id)
{
    return r ? flag_by_id(r->content->heroes, r->content->n_heroes, sizeof(rmg__hero), offsetof(rmg__hero, id),
                          r->sol.hero_allowed, id)
             : -1;
}

int rmg_solve_object_banned(const rmg_solve_result *r, const char *key)
{
    for (size_t i = 0; r && key && i < r->content->n_objects; i++)
        if (r->content->objects[i].key && strcmp(r->content->objects[i].key, key) == 0)
            return r->sol.object_banned[i] != 0;
    return -1;
}

int rmg_solve_prisons_max(const rmg_solve_result *r)
{
    return r ? r->sol.prisons_max : 0;
}

uint32_t rmg_solve_allowed_towns(const rmg_solve_result *r)
{
    return r ? r->sol.allowed_towns : 0;
}

int rmg_solve_gem_spell(const rmg_solve_result *r)
{
    return r && r->sol.gem_spell >= 0 ? r->content->spells[r->sol.gem_spell].id : -1;
}

size_t rmg_solve_warning_count(const rmg_solve_result *r)
{
    return r ? r->x.warnings.count : 0;
}

const char *rmg_solve_warning(const rmg_solve_result *r, size_t index)
{
    return r && index < r->x.warnings.count ? r->x.warnings.items[index] : NULL;
}

rmg_status rmg_solve_stats_get(const rmg_solve_result *r, rmg_solve_stats *out)
{
    if (!r || !out)
        return RMG_ERR_INVALID_ARG;
    rmg_solve_stats s = {0};
    s.nodes_used = r->x.stats.nodes_used;
    s.node_budget = r->x.stats.budget;
    s.rules_violated = r->x.stats.rules_violated;
    s.rule_errors = r->x.stats.rule_errors;
    s.components = r->x.stats.components;
    s.exact_components = r->x.stats.exact_components;
    s.budget_exhausted = r->x.stats.budget_exhausted;
    return rmg__struct_out(out, &s, sizeof s, sizeof(size_t));
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_solve_zone_init(rmg_solve_zone *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->player_town_type = -1;
}

RMG__ZERO_INIT(rmg_solve_stats)

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_solve_get_zone(const rmg_solve_result *r, size_t zone_index, rmg_solve_zone *out)
{
    return rmg_solve_zone_get(r, zone_index, out);
}

rmg_status rmg_solve_get_stats(const rmg_solve_result *r, rmg_solve_stats *out)
{
    return rmg_solve_stats_get(r, out);
}
