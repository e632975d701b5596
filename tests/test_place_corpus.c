/* Place stage quality targets (issue 6) over the template corpus (shared/corpus/{h3t,sod,vcmi})
 * x 20 seeds, each template at its normal size: median absolute relative error of zone tile
 * share vs size-weight share (<= 15% with rock masses on; reported with them off), ground links
 * realized as shared borders (>= 95%), every zone one connected region (always). */
#include <math.h>

#include "test_place_fixture.h"

#define SEEDS 20
#define OFF_SEEDS 5 /* rock masses off is only reported */
#define MAX_TEMPLATE_ZONES FX_MAX_ZONES

/* The template's normal size: M when its size codes accept it, else the nearest standard
 * size; two levels first when a zone is forced underground, only two on mirror packs. */
static bool normal_size(const struct rmg_pack *pack, const rmg__template *t, int *side, int *levels)
{
    static const int sides[] = {72, 108, 144, 36, 180, 216, 252};
    bool underground = pack->mirror;
    for (size_t i = 0; i < t->n_zones; i++)
        underground |= t->zones[i].placement == RMG_PLACEMENT_UNDERGROUND;
    for (int pass = 0; pass < (pack->mirror ? 1 : 2); pass++) {
        int lv = (pass == 0) == underground ? 2 : 1;
        for (size_t i = 0; i < RMG__ARRAY_LEN(sides); i++) {
            int code = rmg__size_code(sides[i], sides[i], lv);
            if (code >= t->min_size && code <= t->max_size) {
                *side = sides[i];
                *levels = lv;
                return true;
            }
        }
    }
    return false;
}

static size_t active_zones(const rmg__template *t, int players)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_zones; i++)
        n += rmg__zone_active(&t->zones[i], players, 1);
    return n;
}

/* A player count the template plays with: its number of start zones when that activates
 * zones, else the count (1..8) that activates the most. */
static int player_count(const rmg__template *t)
{
    int starts = 0, best = 1;
    for (size_t i = 0; i < t->n_zones; i++)
        starts += t->zones[i].kind == RMG_ZONE_HUMAN_START || t->zones[i].kind == RMG_ZONE_COMPUTER_START;
    if (starts >= 1 && starts <= 8 && active_zones(t, starts) > 1)
        return starts;
    for (int p = 2; p <= 8; p++)
        if (active_zones(t, p) > active_zones(t, best))
            best = p;
    return best;
}

/* Places one template of a loaded pack for every seed, rock masses forced on or off. */
static void measure_template(rmg_context *ctx, struct rmg_pack *pack, size_t index, bool rock, uint64_t seeds,
                             fx_tally *q)
{
    rmg__template *t = &pack->templates[index];
    int side, levels;
    if (t->n_zones == 0 || t->n_zones > MAX_TEMPLATE_ZONES || t->n_connections > FX_MAX_LINKS ||
        !normal_size(pack, t, &side, &levels))
        return;
    int players = player_count(t);
    if (active_zones(t, players) == 0) /* no player count of 1..8 activates a zone (with 1 human) */
        return;
    bool saved_rock = t->rock_masses;
    t->rock_masses = rock;
    fixture fx;
    memset(&fx, 0, sizeof fx);
    fx.ctx = ctx;
    fx.pack = pack;
    fx.players = players;
    for (int i = 0; i < FX_MAX_ZONES; i++)
        fx.sol[i].player_town_type = -1;
    /* fx_place works on pack->templates[0]: swap the template in for the run. */
    rmg__template first = pack->templates[0];
    pack->templates[0] = *t;
    q->templates++;
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        rmg_status st = fx_place(&fx, side, side, levels, RMG_WATER_NONE, seed);
        if (st == RMG_OK) {
            const char *why = fx_check_partition(fx.g.map);
            if (why)
                fail_msg("%s template %zu seed %llu: %s", pack->file ? pack->file : "", index,
                         (unsigned long long)seed, why);
            fx_tally_map(q, fx.g.map);
        } else {
            q->failures++;
            if (seed == 1)
                print_message("  %s: %s\n", t->name ? t->name : "?", rmg_context_errmsg(ctx));
        }
    }
    rmg__map_free(fx.g.map);
    pack->templates[0] = first;
    t->rock_masses = saved_rock;
}

/* Loads every corpus file once and measures each template with rock masses on and off. */
static void measure_corpus(rmg_context *ctx, fx_tally *on, fx_tally *off, size_t *files_loaded)
{
    static const char *const dirs[] = {"corpus/h3t", "corpus/sod", "corpus/vcmi"};
    *files_loaded = 0;
    for (size_t d = 0; d < RMG__ARRAY_LEN(dirs); d++) {
        char **files = rmg_test_list_files(rmg_test_shared(dirs[d]), "");
        for (size_t f = 0; files && files[f]; f++) {
            struct rmg_pack *pack = NULL;
            if (rmg_pack_load(ctx, files[f], RMG_FORMAT_AUTO, &pack) != RMG_OK) {
                rmg_context_clear_error(ctx);
                continue;
            }
            (*files_loaded)++;
            for (size_t i = 0; i < pack->n_templates; i++) {
                measure_template(ctx, pack, i, true, SEEDS, on);
                measure_template(ctx, pack, i, false, OFF_SEEDS, off);
            }
            rmg_pack_destroy(pack);
        }
        rmg_test_free_list(files);
    }
}

static void test_issue6_corpus_quality(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    fx_tally on = {0}, off = {0};
    size_t loaded = 0;
    measure_corpus(ctx, &on, &off, &loaded);
    if (loaded == 0) {
        rmg_context_destroy(ctx);
        print_message("no corpus file could be loaded (importers missing?)\n");
        skip();
    }
    print_message("%zu corpus files loaded, %zu templates\n", loaded, on.templates);
    fx_tally_print("rock masses on ", &on);
    fx_tally_print("rock masses off", &off);
    assert_true(fx_tally_median(&on) <= 0.15);
    assert_true(on.ground_met >= 0.95 * (double)on.ground);
    free(on.errors);
    free(off.errors);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue6_corpus_quality),
    };
    return RMG_TEST_MAIN_SHARED(tests, "corpus");
}
