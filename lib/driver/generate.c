/*
 * The generation driver: resolves options, selects a template, runs the stages in order with
 * bounded retries, then finishes and validates the map.
 *
 *   select -> solve -> place -> connect -> objects -> guard -> finish
 *
 * Each stage lives in the folder named by it (lib/select, lib/solve, ...); this driver only
 * orders them, keeps checkpoints and retries.
 *
 * Seeds: the root seed comes from the context (or one word of the host RNG); each attempt
 * derives its own root with XXH3 ("attempt", n), and every stage derives its streams from that
 * root by name and zone (rmg__gen_stream), so replacing one stage does not reshuffle another.
 *
 * Retries (issue 12): a stage that fails, or a map that fails validation (attributed to the
 * stage responsible, lib/map/validate.c), is retried from that stage: the run resumes from the
 * checkpoint taken before it (checkpoint.c), so the earlier stages' results are kept, and the
 * stage gets the sub-seed ("retry:<stage>", k) of its attempt's root. A stage is retried at
 * most RMG__STAGE_RETRIES times per attempt, then a new attempt starts from solve (sooner when
 * a retry fails with the very message the run before did); max_attempts bounds the runs in all.
 */
#include <stdio.h>
#include <string.h>

#include "driver_internal.h"
#include "template/validate.h"

/* Retries of one stage within an attempt before a new attempt (ABI.md, behavioural promise). */
#define RMG__STAGE_RETRIES 2

static double now_ms(void)
{
    return rmg__now_ms();
}

/* ---- options ---------------------------------------------------------------------------- */

static rmg_status copy_options(rmg_context *ctx, rmg_generate_options *dst, const rmg_generate_options *src)
{
    rmg_generate_options_init(dst);
    if (!src)
        return RMG_OK;
    rmg_status st = rmg__struct_in(dst, sizeof *dst, src, offsetof(rmg_generate_options, template_name));
    if (st != RMG_OK)
        return rmg__error_set(ctx, st, "rmg_generate_options: struct_size %zu is not one this library knows",
                              src->struct_size);
    return RMG_OK;
}

static rmg_status check_option_ranges(rmg_context *ctx, const rmg_generate_options *o)
{
    if (o->width < 0 || o->height < 0 || o->width > RMG__MAX_SIDE || o->height > RMG__MAX_SIDE)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "map size %dx%d is out of range (1..%d)", o->width,
                              o->height, RMG__MAX_SIDE);
    if ((o->width == 0) != (o->height == 0))
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "give both width and height, or neither");
    if (o->levels < 0 || o->levels > 2)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "levels must be 1 or 2");
    if (o->players < 0 || o->players > 8 || o->humans < 0 || o->humans > 8)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "players and humans must be within 0..8");
    if (o->players && o->humans > o->players)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "more human players (%d) than players (%d)", o->humans,
                              o->players);
    if ((unsigned)o->water > RMG_WATER_TEMPLATE || (unsigned)o->monsters > RMG_MAP_MONSTERS_STRONG)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "unknown water level or monster strength");
    if (o->max_attempts < 0 || o->max_attempts > 1000)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "max_attempts must be within 0..1000");
    return RMG_OK;
}

/* ---- stages --------------------------------------------------------------------------------- */

/* Copies the solver's per-zone choices onto the map zones the placer created. */
/* Players owning a start zone on the surface (the mirror pack's own players). */
static int surface_players(const rmg__gen *g)
{
    int n = 0;
    for (size_t i = 0; i < g->tpl->n_zones; i++)
        if (g->zone_active[i] && g->sol.zones[i].owner > n)
            n = g->sol.zones[i].owner;
    return n;
}

/* WAT-03 leaves player colours of a mirror copy open: the copy of player p's zone belongs to
 * player p + (surface players) when the setup has that many players, else to nobody. */
static int mirror_owner(const rmg__gen *g, int original_owner)
{
    int shift = surface_players(g);
    int owner = original_owner > 0 ? original_owner + shift : 0;
    return owner > 0 && owner <= g->opt.players && owner <= 8 ? owner : 0;
}

static void annotate_zones(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    for (size_t i = 0; i < m->zones.count; i++) {
        rmg__map_zone *z = &m->zones.items[i];
        if (z->tpl_index < 0) {
            z->faction = RMG_FACTION_NONE;
            z->monster_strength = RMG_MONSTERS_NONE;
            continue;
        }
        const rmg__zone *tz = &g->tpl->zones[z->tpl_index];
        const rmg__zone_solution *s = &g->sol.zones[z->tpl_index];
        z->faction = s->faction;
        z->chosen_terrain = s->terrain;
        z->monster_strength = tz->monster_strength;
        if (rmg__map_mirror_of(m, z->id)) {
            z->owner = mirror_owner(g, s->owner);
            z->human = tz->kind == RMG_ZONE_HUMAN_START && z->owner > 0 && z->owner <= g->opt.humans;
            continue;
        }
        if (!z->owner)
            z->owner = s->owner;
        z->human = s->human;
    }
}

rmg_status rmg__run_builtin_stage(rmg__gen *g, rmg_stage_id id)
{
    switch (id) {
    case RMG_STAGE_SOLVE:
        return rmg__stage_solve(g);
    case RMG_STAGE_PLACE: {
        rmg_status st = rmg__stage_place(g);
        if (st == RMG_OK)
            annotate_zones(g);
        return st;
    }
    case RMG_STAGE_CONNECT:
        return rmg__stage_connect(g);
    case RMG_STAGE_OBJECTS:
        return rmg__stage_objects(g);
    case RMG_STAGE_GUARD:
        return rmg__stage_guard(g);
    case RMG_STAGE_FINISH:
        return rmg__stage_finish(g);
    default:
        return RMG_OK;
    }
}

/* Stages return RMG_ERR_CANCELLED when rmg__check_cancel stops them; the context's status
 * tells a host cancel from the time budget (RMG_ERR_LIMIT). */
static rmg_status stop_status(rmg__gen *g, rmg_status st)
{
    if (st == RMG_ERR_CANCELLED && rmg_context_errcode(g->ctx) == RMG_ERR_LIMIT)
        st = RMG_ERR_LIMIT;
    if (st == RMG_ERR_LIMIT && g->ctx->deadline_ms > 0 && now_ms() > g->ctx->deadline_ms) {
        char stage[sizeof g->ctx->err.stage];
        snprintf(stage, sizeof stage, "%s", g->ctx->err.stage);
        return rmg__error_gen(g->ctx, RMG_ERR_LIMIT, stage, -1, -1, "time budget of %u ms exceeded in this stage",
                              g->opt.time_budget_ms);
    }
    return st;
}

static rmg_status run_stage(rmg__gen *g, rmg_stage_id id)
{
    rmg_status st = stop_status(g, rmg__check_stop(g->ctx, rmg__stage_name(id), 0.0));
    if (st != RMG_OK)
        return st;
    double t0 = now_ms();
    st = stop_status(g, rmg__run_stage_with_plugins(g, id));
    if (st == RMG_OK && id == RMG_STAGE_CONNECT)
        st = rmg__mirror_snapshot(g);
    if (st == RMG_OK && id == RMG_STAGE_GUARD)
        st = rmg__mirror_content(g);
    if (g->map)
        g->map->stage_ms[id] += now_ms() - t0;
    if (st != RMG_OK && rmg_context_errcode(g->ctx) == RMG_OK)
        rmg__error_gen(g->ctx, st, rmg__stage_name(id), -1, -1, "stage failed (%s)", rmg_status_name(st));
    return st;
}

/* The map's one description (issue 29): the pack's text as its author wrote it (PCK-05), then
 * on a line of its own what made the map, so the map can be made again: generator, template,
 * seed, size, players, water (and whether it was the template's choice, issue 30), monsters.
 * rmg_map_description, the JSON and the .h3m (cut to the 300 characters the game's header
 * holds, in its 8-bit code page) say the same. */
static char *compose_description(rmg__gen *g, uint64_t seed)
{
    static const char *const sizes[] = {"S", "M", "L", "XL", "H", "XH", "G"};
    static const char *const water[] = {"no water", "normal water", "islands"};
    static const char *const monsters[] = {"weak", "normal", "strong"};
    const rmg_generate_options *o = &g->opt;
    const char *pack_text = g->pack->description ? g->pack->description : "";
    size_t len = strlen(pack_text);
    while (len && (pack_text[len - 1] == '\n' || pack_text[len - 1] == ' '))
        len--; /* the author's text, then the line below it: no blank lines between */
    rmg__buf b;
    rmg__buf_init(&b, g->ctx);
    rmg__buf_append(&b, pack_text, len);
    rmg__buf_printf(&b, "%sRandom map by librmg " RMG_VERSION_STRING ". Template %s", len ? "\n" : "",
                    g->tpl->name ? g->tpl->name : "");
    if (g->pack->name && *g->pack->name) /* .h3t and rmg.txt packs have no name of their own */
        rmg__buf_printf(&b, " (pack %s)", g->pack->name);
    rmg__buf_printf(&b, ", seed %llu, size ", (unsigned long long)seed);
    int side = o->width == o->height && o->width % 36 == 0 ? o->width / 36 : 0;
    if (side >= 1 && side <= 7)
        rmg__buf_puts(&b, sizes[side - 1]);
    else
        rmg__buf_printf(&b, "%dx%d", o->width, o->height);
    rmg__buf_printf(&b, "%s, %d players (%d human), %s%s, %s monsters.", o->levels > 1 ? " with underground" : "",
                    o->players, o->humans, (unsigned)o->water < 3 ? water[o->water] : water[0],
                    g->water_from_template && o->water != RMG_WATER_NONE ? " (the template's choice)" : "",
                    (unsigned)o->monsters < 3 ? monsters[o->monsters] : "normal");
    return rmg__buf_take(&b);
}

static rmg_status set_metadata(rmg__gen *g, uint64_t seed)
{
    struct rmg_map *m = g->map;
    m->seed = seed;
    m->options = g->opt;
    m->options.template_name = NULL;
    m->pack_name = rmg__arena_strdup(&m->arena, g->pack->name ? g->pack->name : "");
    m->template_name = rmg__arena_strdup(&m->arena, g->tpl->name ? g->tpl->name : "");
    char *text = compose_description(g, seed);
    m->description = text ? rmg__arena_strdup(&m->arena, text) : NULL;
    rmg__free(g->ctx, text);
    if (!m->pack_name || !m->template_name || !m->description)
        return rmg__error_nomem(g->ctx);
    return RMG_OK;
}

/* A copy of a solve flag array into the map's arena (NULL stays NULL: everything allowed). */
static uint8_t *copy_flags(struct rmg_map *m, const uint8_t *flags, size_t n, size_t *count, bool *nomem)
{
    *count = 0;
    if (!flags || !n)
        return NULL;
    uint8_t *copy = rmg__arena_alloc(&m->arena, n);
    if (!copy) {
        *nomem = true;
        return NULL;
    }
    memcpy(copy, flags, n);
    *count = n;
    return copy;
}

/* The game setup the map carries (rmg_map_setup): the template's settings and the solve stage's
 * bans with their fallbacks. */
static rmg_status record_setup(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    const struct rmg_content *c = g->content;
    const rmg__solve_extra *x = rmg__solve_extra_of(g);
    rmg__map_setup *s = &m->setup;
    bool nomem = false;
    s->max_battle_rounds = g->pack->max_battle_rounds;
    s->forbid_hiring_heroes = g->pack->forbid_hiring_heroes;
    s->special_weeks = g->tpl->special_weeks;
    s->spell_research = g->tpl->spell_research;
    s->gem_spell = g->sol.gem_spell;
    s->interference_to_resistance = x && x->interference_to_resistance;
    s->allowed_towns = g->sol.allowed_towns;
    s->artifact_allowed = copy_flags(m, g->sol.artifact_allowed, c->n_artifacts, &s->n_artifacts, &nomem);
    s->spell_allowed = copy_flags(m, g->sol.spell_allowed, c->n_spells, &s->n_spells, &nomem);
    s->skill_allowed = copy_flags(m, g->sol.skill_allowed, c->n_skills, &s->n_skills, &nomem);
    s->hero_allowed = copy_flags(m, g->sol.hero_allowed, c->n_heroes, &s->n_heroes, &nomem);
    /* MIS-13/22: a quest artifact exists once on the map: no other source may produce it. */
    for (size_t i = 0; s->artifact_allowed && i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind == RMG_OBJECT_SEER_HUT && o->artifact >= 0 && (size_t)o->artifact < s->n_artifacts)
            s->artifact_allowed[o->artifact] = 0;
    }
    return nomem ? rmg__error_nomem(g->ctx) : RMG_OK;
}

/* Issue 30: the object rules naming what the ruleset lacks (HotA objects on a SoD map) were
 * dropped; the map says so in one warning, the text `rmg check` warns with. */
static rmg_status warn_dropped_rules(rmg__gen *g)
{
    char *text = NULL;
    rmg_status st = rmg__template_dropped_rules(g->ctx, g->content, g->tpl, &text, NULL);
    if (st == RMG_OK && text)
        st = rmg__map_warn(g->map, "template '%s': %s", g->tpl->name ? g->tpl->name : "", text);
    rmg__free(g->ctx, text);
    return st;
}

/* Issue 30: start zones of players who are not in the game (a template's start zones beyond
 * the players asked for) are neutral, as the game makes them: the zone and what it owns (its
 * towns). Done on the validated map, so the map is the one the stages made for such zones;
 * the model then has one owner for the JSON, the API, the previews, the balance report and
 * the .h3m. Costs one pass over the zones and objects. */
static void neutral_absent_players(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    int players = g->opt.players;
    if (players <= 0)
        return;
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].owner > players) {
            m->zones.items[i].owner = 0;
            m->zones.items[i].human = false;
        }
    for (size_t i = 0; i < m->objects.count; i++)
        if (m->objects.items[i].owner > players)
            m->objects.items[i].owner = 0;
}

static void release_attempt(rmg__gen *g)
{
    rmg__solution_free(g);
    rmg__map_free(g->map);
    g->map = NULL;
}

/* Where the retries stand: the attempt (its root seed), per stage how many times it was
 * retried within that attempt (its sub-seed), the stage the next run starts at, and the
 * checkpoints taken before each stage of the current attempt. */
typedef struct retry_state {
    int attempt;
    int retries[RMG_STAGE_COUNT];
    uint64_t last_failure[RMG_STAGE_COUNT]; /* hash of the stage's last failure message, 0 none */
    rmg_stage_id from;
    rmg__checkpoint before[RMG_STAGE_COUNT];
} retry_state;

static void drop_checkpoints(rmg_context *ctx, retry_state *r)
{
    for (int id = 0; id < RMG_STAGE_COUNT; id++)
        rmg__checkpoint_free(ctx, &r->before[id]);
}

/* The root a stage derives its streams from: the attempt's root, or its retry sub-seed. */
static uint64_t stage_root(const rmg__gen *g, const retry_state *r, rmg_stage_id id)
{
    uint64_t root = r->attempt == 0 ? g->base_seed : rmg_rng_derive(g->base_seed, "attempt", (uint64_t)r->attempt);
    if (r->retries[id] == 0)
        return root;
    char label[32];
    snprintf(label, sizeof label, "retry:%s", rmg__stage_seed_label(id));
    return rmg_rng_derive(root, label, (uint64_t)r->retries[id]);
}

/* The stage a validation failure names (lib/map/validate.c attributes each rule to the stage
 * responsible for it); objects when it names none this driver knows. */
static rmg_stage_id validation_stage(const rmg_context *ctx)
{
    for (rmg_stage_id id = RMG_STAGE_PLACE; id < RMG_STAGE_COUNT; id++)
        if (strcmp(ctx->err.stage, rmg__stage_name(id)) == 0)
            return id;
    return RMG_STAGE_OBJECTS;
}

/* The map a run starts from: a new one for a run from solve, else the checkpoint taken
 * before the stage it retries. (Without one, the run starts from solve with the same seeds,
 * which remakes the same earlier stages.) */
static rmg_status start_run(rmg__gen *g, retry_state *r, uint64_t seed)
{
    if (r->from > RMG_STAGE_SOLVE && r->before[r->from].taken)
        return rmg__checkpoint_restore(g, &r->before[r->from]);
    r->from = RMG_STAGE_SOLVE;
    release_attempt(g);
    drop_checkpoints(g->ctx, r);
    rmg_status st = rmg__map_new(g->ctx, g->opt.width, g->opt.height, g->opt.levels, &g->map);
    if (st == RMG_OK)
        st = set_metadata(g, seed);
    for (size_t i = 0; i < g->n_select_notes && st == RMG_OK; i++)
        st = rmg__map_warn(g->map, "select: %s", g->select_notes[i]);
    return st;
}

/* Whether a run of the current attempt has failed. */
static bool attempt_failed_before(const retry_state *r)
{
    for (int id = 0; id < RMG_STAGE_COUNT; id++)
        if (r->retries[id])
            return true;
    return false;
}

/* Whether running the stages before `id` again remakes exactly the map they made: they are
 * the built-in ones, which depend on nothing but their input and seeds (a host's plugin may
 * not, and may count its calls). */
static bool replay_is_exact(const rmg__gen *g, rmg_stage_id id)
{
    for (rmg_stage_id s = RMG_STAGE_SOLVE; s < id; s++)
        if (rmg__stage_replaced(g, s))
            return false;
    return true;
}

/* Before each stage after solve (except the one the run resumes at, whose checkpoint is the
 * one just restored): a checkpoint when the stage can still be retried from it. The first run
 * of an attempt takes none where a replay of the earlier stages is exact: most maps succeed
 * at once, and copying the map before every stage costs each of them more (~5 % of a G map's
 * generation, most of it fresh pages) than replaying the earlier stages costs the few that
 * fail. From the first failure on, every run keeps its checkpoints. */
static rmg_status checkpoint_before(rmg__gen *g, retry_state *r, rmg_stage_id id, bool last_run)
{
    if (id == RMG_STAGE_SOLVE || id == r->from)
        return RMG_OK;
    bool replay_instead = !attempt_failed_before(r) && replay_is_exact(g, id);
    if (last_run || r->retries[id] >= RMG__STAGE_RETRIES || replay_instead) {
        rmg__checkpoint_free(g->ctx, &r->before[id]);
        return RMG_OK;
    }
    return rmg__checkpoint_take(g, &r->before[id]);
}

/* One run of the pipeline from stage r->from, with the seeds of `r`. *failed: the stage to
 * retry when the run fails. */
static rmg_status run_pipeline(rmg__gen *g, retry_state *r, uint64_t seed, bool last_run, rmg_stage_id *failed)
{
    *failed = r->from;
    rmg_status st = start_run(g, r, seed);
    for (rmg_stage_id id = r->from; st == RMG_OK && id < RMG_STAGE_COUNT; id++) {
        *failed = id;
        g->root_seed = stage_root(g, r, id);
        st = checkpoint_before(g, r, id, last_run);
        if (st == RMG_OK)
            st = run_stage(g, id);
    }
    if (st != RMG_OK)
        return st;
    st = record_setup(g);
    if (st == RMG_OK)
        st = warn_dropped_rules(g);
    if (st != RMG_OK)
        return st;
    /* The fingerprint is computed when the host first asks for it (rmg__map_fingerprint_of). */
    st = rmg__map_validate_internal(g->map, g->ctx);
    if (st == RMG_ERR_IMPOSSIBLE)
        *failed = validation_stage(g->ctx);
    if (st == RMG_OK)
        neutral_absent_players(g);
    return st;
}

static bool retryable(rmg_status st)
{
    return st == RMG_ERR_IMPOSSIBLE || st == RMG_ERR_LIMIT;
}

/* The next run after a failure of stage `failed`: from that stage again with its next
 * sub-seed, or a new attempt from solve once it used its retries, or when a retry failed with
 * the same message as the run before (the cause does not depend on the stage's seed: a build
 * that runs out of monolith colours for the connections the placement made teleports). */
static void next_run(retry_state *r, rmg_stage_id failed, const char *message)
{
    uint64_t h = rmg__hash64(message, strlen(message), 1) | 1;
    bool same = r->retries[failed] > 0 && r->last_failure[failed] == h;
    r->last_failure[failed] = h;
    if (r->retries[failed] < RMG__STAGE_RETRIES && !same) {
        r->retries[failed]++;
        r->from = failed;
        return;
    }
    r->attempt++;
    memset(r->retries, 0, sizeof r->retries);
    memset(r->last_failure, 0, sizeof r->last_failure);
    r->from = RMG_STAGE_SOLVE;
}

/* A run failed and the time budget is gone: RMG_ERR_LIMIT, keeping the failure as context. */
static rmg_status budget_spent(rmg__gen *g, int runs)
{
    char why[700];
    snprintf(why, sizeof why, "%s", rmg_context_errmsg(g->ctx));
    return rmg__error_gen(g->ctx, RMG_ERR_LIMIT, "generate", -1, -1,
                          "time budget of %u ms exceeded after %d attempts; last failure: %s", g->opt.time_budget_ms,
                          runs, why);
}

/* Runs until one succeeds, one fails in a way a retry cannot mend, `max_runs` are used or the
 * time budget is spent. *runs: the runs made. On failure g->map is released. */
static rmg_status run_attempts(rmg__gen *g, uint64_t seed, int max_runs, double deadline, int *runs)
{
    rmg_context *ctx = g->ctx;
    retry_state r;
    memset(&r, 0, sizeof r);
    rmg_status st = RMG_OK;
    int n = 0;
    while (n < max_runs) {
        rmg_context_clear_error(ctx);
        rmg_stage_id failed = RMG_STAGE_SOLVE;
        st = run_pipeline(g, &r, seed, n + 1 >= max_runs, &failed);
        n++;
        if (st == RMG_OK)
            break;
        rmg__log(ctx, RMG_LOG_INFO, "run %d (attempt %d, %s retry %d) failed: %s", n, r.attempt + 1,
                 rmg__stage_name(failed), r.retries[failed], rmg_context_errmsg(ctx));
        if (!retryable(st))
            break;
        if (deadline > 0 && now_ms() > deadline) {
            if (st != RMG_ERR_LIMIT)
                st = budget_spent(g, n);
            break;
        }
        next_run(&r, failed, rmg_context_errmsg(ctx));
    }
    if (st != RMG_OK)
        release_attempt(g);
    drop_checkpoints(ctx, &r);
    *runs = n;
    return st;
}

/* Every run failed in a retryable way: the template itself is the problem. The last failure's
 * message (stage, zone, rule) is kept as the reason. */
static rmg_status give_up(rmg_context *ctx, int runs)
{
    char why[700];
    snprintf(why, sizeof why, "%s", rmg_context_errmsg(ctx));
    char stage[sizeof ctx->err.stage];
    snprintf(stage, sizeof stage, "%s", ctx->err.stage);
    rmg__error_gen(ctx, RMG_ERR_IMPOSSIBLE, stage[0] ? stage : "generate", ctx->err.zone, ctx->err.connection,
                   "the template cannot produce a map after %d attempts (each stage retried at most %d times with a "
                   "derived sub-seed); last failure: %s",
                   runs, RMG__STAGE_RETRIES, why);
    return RMG_ERR_IMPOSSIBLE;
}

rmg_status rmg_generate(rmg_context *ctx, const struct rmg_pack *pack, const rmg_generate_options *options,
                        rmg_map **out)
{
    if (ctx)
        rmg__work_begin(ctx);
    return rmg__generate(ctx, pack, options, out);
}

rmg_status rmg__generate(rmg_context *ctx, const struct rmg_pack *pack, const rmg_generate_options *options,
                         rmg_map **out)
{
    if (!ctx || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_generate: NULL argument") : RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg_context_clear_error(ctx);
    rmg__gen g;
    memset(&g, 0, sizeof g);
    g.ctx = ctx;
    rmg_generate_options asked;
    rmg_status st = copy_options(ctx, &asked, options);
    if (st == RMG_OK)
        st = check_option_ranges(ctx, &asked);
    if (st != RMG_OK)
        return st;
    g.content = rmg__content_get(ctx);
    if (!g.content)
        return rmg_context_errcode(ctx) ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    struct rmg_pack *owned = NULL;
    if (!pack) {
        st = rmg_pack_builtin(ctx, &owned);
        if (st != RMG_OK)
            return st;
        pack = owned;
    }
    g.pack = pack;
    int towns[8];
    rmg__solve_chosen_towns(&asked, towns);
    st = rmg__solve_check_town_choice(ctx, g.content, pack, towns);
    if (st != RMG_OK) {
        rmg_pack_destroy(owned);
        return st;
    }
    rmg__arena_init(&g.scratch, ctx, 64 * 1024);
    /* With a host RNG, its word is the root of every stream and the seed the map records
     * (rmg_map_seed, the JSON, the .h3m description): that seed alone remakes the map (issue 29;
     * until 0.6.0 such maps recorded the context's unused seed, 0). */
    g.base_seed = ctx->rng ? ctx->rng(ctx->rng_user) : ctx->seed;
    g.root_seed = g.base_seed;
    double t0 = now_ms();
    /* The budget counts from here; stages see it through rmg__check_cancel (lib/core). */
    double deadline = asked.time_budget_ms ? t0 + asked.time_budget_ms : 0;
    ctx->deadline_ms = deadline;
    g.water_from_template = asked.water == RMG_WATER_TEMPLATE;
    st = rmg__stage_select(&g, &asked);
    double select_ms = now_ms() - t0;
    int max_attempts = asked.max_attempts ? asked.max_attempts : RMG_DEFAULT_MAX_ATTEMPTS;
    int n = 0;
    if (st == RMG_OK)
        st = run_attempts(&g, g.base_seed, max_attempts, deadline, &n);
    if (st == RMG_OK && !g.map)
        st = rmg__error_gen(ctx, RMG_ERR_IMPOSSIBLE, "generate", -1, -1, "no attempt succeeded");
    if (st == RMG_OK) {
        g.map->attempts = n;
        g.map->stage_ms[RMG_STAGE_SELECT] = select_ms;
        *out = g.map;
        g.map = NULL;
    } else if (retryable(st) && n >= max_attempts && !(deadline > 0 && now_ms() > deadline)) { /* budget: LIMIT */
        st = give_up(ctx, n);
    }
    ctx->deadline_ms = 0;
    rmg__solution_free(&g);
    rmg__map_free(g.map);
    rmg__arena_free(&g.scratch);
    rmg_pack_destroy(owned);
    return st;
}
