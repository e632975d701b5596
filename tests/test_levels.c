/*
 * Two levels (issue 30 item 5): zones of equal weight get land within 15% of each other on
 * either level. Over the corpus's templates at their default size with the underground
 * (seed 1), a map counts when, for every weight that has zones on both levels, the mean land of
 * those zones on one level is within 15% of the other's (the larger over the smaller at most
 * 1.15). Prints the figure and asserts it as a floor (PLC-11, PLC-16, ZON-02..05).
 *
 * RMG_LEVELS_VERBOSE=1 prints one line per map that misses.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "map/map_internal.h"
#include "place/place_internal.h"

#define TOLERANCE 1.15

typedef struct levels_tally {
    size_t runs, made; /* templates tried, maps made */
    size_t maps;   /* two-level maps with equal weights on both levels */
    size_t within; /* ... whose equal weights are within TOLERANCE */
} levels_tally;

/* The worst ratio (larger mean land over smaller) among the weights that have zones on both
 * levels; 0 when no weight has. *weight receives the worst weight. */
static double worst_ratio(const rmg_map *map, double *weight)
{
    double worst = 0;
    for (size_t i = 0; i < map->zones.count; i++) {
        const rmg__map_zone *zi = &map->zones.items[i];
        if (zi->tpl_id <= 0)
            continue;
        bool first = true; /* each weight once: at its first zone */
        for (size_t j = 0; j < i && first; j++)
            first = !(map->zones.items[j].tpl_id > 0 && map->zones.items[j].size_weight == zi->size_weight);
        if (!first)
            continue;
        double land[2] = {0, 0};
        size_t n[2] = {0, 0};
        for (size_t j = i; j < map->zones.count; j++) {
            const rmg__map_zone *z = &map->zones.items[j];
            if (z->tpl_id > 0 && z->size_weight == zi->size_weight && z->level >= 0 && z->level < 2) {
                land[z->level] += (double)z->n_tiles;
                n[z->level]++;
            }
        }
        if (!n[0] || !n[1])
            continue;
        double a = land[0] / (double)n[0], b = land[1] / (double)n[1];
        double r = a > b ? a / (b > 0 ? b : 1) : b / (a > 0 ? a : 1);
        if (r > worst) {
            worst = r;
            *weight = zi->size_weight;
        }
    }
    return worst;
}

/* RMG_LEVELS_VERBOSE: the zones of the worst weight, each with its level, land, the level's
 * filler (rock, water, none), its placement (any, surface, underground; a start zone "+start")
 * and whether it touches the map's edge. */
static void print_zones(const rmg_map *map, const rmg_pack *pack, size_t t, double weight)
{
    static const char *const placement[] = {"any", "surface", "underground"};
    const struct rmg__place_report *pr = map->place_report;
    size_t plane = (size_t)map->width * (size_t)map->height;
    for (size_t i = 0; i < map->zones.count; i++) {
        const rmg__map_zone *z = &map->zones.items[i];
        if (z->tpl_id <= 0 || z->size_weight != weight)
            continue;
        rmg_zone_info zi;
        rmg_zone_info_init(&zi);
        assert_int_equal(rmg_zone_get(pack, t, (size_t)z->tpl_index, &zi), RMG_OK);
        bool edge = false;
        for (size_t k = 0; k < plane && !edge; k++) {
            size_t x = k % (size_t)map->width, y = k / (size_t)map->width;
            edge = map->tile_zone[(size_t)z->level * plane + k] == z->id &&
                   (x == 0 || y == 0 || x + 1 == (size_t)map->width || y + 1 == (size_t)map->height);
        }
        int filler = pr ? pr->filler[z->level] : -1;
        printf("    zone %d level %d tiles %zu filler %s placement %s%s edge %d\n", z->tpl_id, z->level, z->n_tiles,
               filler == RMG_ZONE_ROCK ? "rock" : filler == RMG_ZONE_WATER ? "water" : "none",
               placement[zi.placement % 3], z->owner > 0 ? "+start" : "", edge);
    }
}

static bool named_before(const rmg_pack *pack, size_t t, const char *name)
{
    for (size_t u = 0; u < t; u++) {
        rmg_template_info ui;
        rmg_template_info_init(&ui);
        assert_int_equal(rmg_template_get(pack, u, &ui), RMG_OK);
        if (ui.name && name && strcmp(ui.name, name) == 0)
            return true;
    }
    return false;
}

static void measure_file(const char *file, levels_tally *tally, bool verbose)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    if (rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack) != RMG_OK) {
        rmg_context_destroy(ctx);
        return;
    }
    for (size_t t = 0; t < rmg_pack_template_count(pack); t++) {
        rmg_template_info ti;
        rmg_template_info_init(&ti);
        assert_int_equal(rmg_template_get(pack, t, &ti), RMG_OK);
        if (named_before(pack, t, ti.name))
            continue; /* a generation by name takes the first template of that name */
        rmg_generate_options go;
        rmg_generate_options_init(&go);
        go.template_name = ti.name;
        go.levels = 2;
        rmg_context_set_seed(ctx, 1);
        rmg_map *map = NULL;
        tally->runs++;
        if (rmg_generate(ctx, pack, &go, &map) != RMG_OK) {
            if (verbose)
                printf("REFUSED %s | '%s' | %s\n", strrchr(file, '/') + 1, ti.name, rmg_context_errmsg(ctx));
            continue; /* the corpus runs explain refusals (test_corpus_generate) */
        }
        tally->made++;
        double weight = 0, r = map->levels == 2 ? worst_ratio(map, &weight) : 0;
        if (r > 0) {
            tally->maps++;
            tally->within += r <= TOLERANCE;
            if (verbose && r > TOLERANCE)
            {
                double w[2] = {0, 0}, land[2] = {0, 0}, lw[2] = {0, 0};
                size_t n[2] = {0, 0};
                for (size_t i = 0; i < map->zones.count; i++) {
                    const rmg__map_zone *z = &map->zones.items[i];
                    if (z->tpl_id > 0) {
                        w[z->level] += z->size_weight;
                        n[z->level]++;
                        land[z->level] += (double)z->n_tiles;
                        if (z->size_weight == weight)
                            lw[z->level] += (double)z->n_tiles;
                    }
                }
                printf("MISS %s | '%s' | %dx%d | weight %g: %.2f | surface %zu zones w %g land %g | under %zu zones w %g land %g\n",
                       strrchr(file, '/') + 1, ti.name, map->width, map->height, weight, r, n[0], w[0], land[0], n[1], w[1], land[1]);
                print_zones(map, pack, t, weight);
            }
        }
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

static void test_equal_weights_within_15_percent(void **state)
{
    (void)state;
    static const char *const dirs[] = {"corpus/h3t", "corpus/sod", "corpus/vcmi"};
    const char *v = getenv("RMG_LEVELS_VERBOSE");
    bool verbose = v && *v == '1';
    levels_tally tally = {0, 0, 0, 0};
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char **files = rmg_test_corpus_files(dirs[d], "");
        for (size_t f = 0; files[f]; f++)
            measure_file(files[f], &tally, verbose);
        rmg_test_free_list(files);
    }
    printf("two levels: %zu of %zu templates generate; equal-weight zones within 15%% on %zu of the %zu maps with "
           "equal weights on both levels\n", tally.made, tally.runs, tally.within, tally.maps);
    /* Floors (issue 30): all 373 on every file since a zone its neighbours enclosed short of its
     * target grows again (366 before: Clash of Dragons in four files, Kerberos in two, Meeting in
     * Muzgob), after a surface without filler kept the underground's share of its level and both
     * levels' centres were balanced (199 of 371 before, 164 of 359 before the level balance), and
     * the growth joined linked zones stacked on the lattice that it left apart (364 before); 129
     * of 129 on the sample of `make test` (71 of 124). 425 of the 516 templates generate, the
     * same 425 as before the equal land. */
    assert_true(tally.within >= (rmg_test_corpus_full() ? 373u : 129u));
}

/* Two start zones placed underground and six free treasure zones, all of weight 20, in a ring of
 * default links (met adjacent or stacked, PLC-02): the level balance moves free zones between
 * the levels while it keeps the link score and lowers the heavier level's weight per room. The
 * template has no rock masses, so on two levels the surface keeps the underground's share of
 * its level (issue 30; the underground's rock radius 4 leaves its zones 4 / 4.35 = 0.92, PLC-16):
 * the load is max(surface weight, underground weight) / 0.92, so 4 and 4 zones (80 / 0.92 = 87)
 * beat 6 and 2 (130, the layout's draw on seed 1 without the balance) and 3 and 5 (108.7). Every
 * zone then gets up to 0.92 * 5,184 / 80 = 59.6 tiles per weight (1,192), on either level, and
 * the surface keeps the rest as rock (it filled itself before: 1,296 a zone against 1,192). */
static const char eight_free[] =
    "version: 1\n"
    "templates:\n"
    "  - name: Eight free\n"
    "    min_size: 1\n"
    "    max_size: 32\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 20, placement: underground, player_towns: {castles: 1}}\n"
    "      - {id: 2, kind: human_start, owner: 2, size: 20, placement: underground, player_towns: {castles: 1}}\n"
    "      - {id: 3, kind: treasure, size: 20}\n"
    "      - {id: 4, kind: treasure, size: 20}\n"
    "      - {id: 5, kind: treasure, size: 20}\n"
    "      - {id: 6, kind: treasure, size: 20}\n"
    "      - {id: 7, kind: treasure, size: 20}\n"
    "      - {id: 8, kind: treasure, size: 20}\n"
    "    connections:\n"
    "      - {a: 1, b: 3, value: 5000}\n"
    "      - {a: 3, b: 4, value: 5000}\n"
    "      - {a: 4, b: 5, value: 5000}\n"
    "      - {a: 5, b: 2, value: 5000}\n"
    "      - {a: 2, b: 6, value: 5000}\n"
    "      - {a: 6, b: 7, value: 5000}\n"
    "      - {a: 7, b: 8, value: 5000}\n"
    "      - {a: 8, b: 1, value: 5000}\n";

static void test_free_zones_balance_the_levels(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        rmg_pack *pack = NULL;
        if (rmg_pack_load_string(ctx, eight_free, strlen(eight_free), "levels.yaml", RMG_FORMAT_YAML, &pack) != RMG_OK)
            fail_msg("%s", rmg_context_errmsg(ctx));
        rmg_generate_options go;
        rmg_generate_options_init(&go);
        go.width = go.height = 72;
        go.levels = 2;
        rmg_map *map = NULL;
        if (rmg_generate(ctx, pack, &go, &map) != RMG_OK)
            fail_msg("%s", rmg_context_errmsg(ctx));
        size_t n[2] = {0, 0};
        double land[2] = {0, 0};
        for (size_t i = 0; i < map->zones.count; i++) {
            const rmg__map_zone *z = &map->zones.items[i];
            if (z->tpl_id > 0) {
                n[z->level]++;
                land[z->level] += (double)z->n_tiles;
            }
        }
        double weight = 0;
        printf("seed %llu: %zu zones on the surface (%.0f tiles each), %zu underground (%.0f)\n",
               (unsigned long long)seed, n[0], land[0] / (double)n[0], n[1], land[1] / (double)n[1]);
        assert_int_equal(n[0], 4);
        assert_int_equal(n[1], 4);
        /* Both levels' growth reaches 0.9-1.0 of the 1,192-tile discs (noisy borders); the
         * surface's rock keeps the rest of its 5,184 tiles. */
        for (int lv = 0; lv < 2; lv++)
            assert_true(land[lv] / 4 >= 0.9 * 1192.0 && land[lv] / 4 <= 1192.0 * 1.01);
        assert_true(worst_ratio(map, &weight) <= 1.0 / 0.9);
        rmg_map_destroy(map);
        rmg_pack_destroy(pack);
        rmg_context_destroy(ctx);
    }
}

/* The size of the 4-connected region of zone id that holds its first tile. */
static size_t component_size(const uint16_t *owner, int w, int h, int id, uint32_t *stack, uint8_t *seen)
{
    size_t n = 0, sp = 0, start = SIZE_MAX;
    for (size_t t = 0; t < (size_t)w * (size_t)h && start == SIZE_MAX; t++)
        if (owner[t] == id)
            start = t;
    if (start == SIZE_MAX)
        return 0;
    memset(seen, 0, (size_t)w * (size_t)h);
    seen[start] = 1;
    stack[sp++] = (uint32_t)start;
    while (sp) {
        uint32_t t = stack[--sp];
        int x = (int)(t % (uint32_t)w), y = (int)(t / (uint32_t)w);
        n++;
        static const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int i = 0; i < 4; i++) {
            int nx = x + d4[i][0], ny = y + d4[i][1];
            size_t u = (size_t)ny * (size_t)w + (size_t)nx;
            if (nx >= 0 && ny >= 0 && nx < w && ny < h && !seen[u] && owner[u] == id) {
                seen[u] = 1;
                stack[sp++] = (uint32_t)u;
            }
        }
    }
    return n;
}

/* The ring of test_enclosed_zone_grows_again grown on the surface of a 64x64 map of `levels`
 * levels (rock filler: the zones stop at their targets). */
static struct rmg_map *grow_ring(rmg_context *ctx, int levels, rmg__grow_zone zones[5])
{
    struct rmg_map *map = NULL;
    assert_int_equal(rmg__map_new(ctx, 64, 64, levels, &map), RMG_OK);
    static const double centre[5][2] = {{32, 32}, {18, 32}, {46, 32}, {32, 18}, {32, 46}};
    memset(zones, 0, 5 * sizeof *zones);
    for (int i = 0; i < 5; i++) {
        zones[i].map_id = i + 1;
        zones[i].cx = centre[i][0] + 0.5;
        zones[i].cy = centre[i][1] + 0.5;
        zones[i].seed_tile_x = (int)centre[i][0];
        zones[i].seed_tile_y = (int)centre[i][1];
        zones[i].target = 400;
        zones[i].inv_radius = i == 0 ? 1.0 / 5.0 : 1.0 / sqrt(400.0 / RMG__PLACE_PI);
        zones[i].noise_c = 1.0;
    }
    rmg__grow g;
    memset(&g, 0, sizeof g);
    g.ctx = ctx;
    g.map = map;
    g.zones = zones;
    g.n_zones = 5;
    g.capped[0] = true;
    g.seed = 1;
    assert_int_equal(rmg__grow_run(&g), RMG_OK);
    return map;
}

/* PLC-11 on a level with filler of a two-level map (issue 30): a zone whose neighbours' discs
 * enclose it before it reaches its target is grown again with a larger radius, so it takes its
 * disc first and its neighbours go round it into the filler (one-level maps keep their first
 * growth). A 64x64 surface with rock filler, the underground empty: an interior zone at
 * (32, 32) of target 400 tiles whose radius the balancing shrank to 5 tiles (its disc's is
 * 11.3), and four neighbours of target 400 and radius 11.3 at 14 tiles from it (centres closer
 * than the sum of the disc radii, 22.6, as on Clash of Dragons' underground). Alone, the first
 * phase gives the interior zone 63 tiles, 0.16 of its target (the discs meet at
 * 14 / (5 + 11.3) = 0.86 of their radii, 4.3 tiles from its centre); grown again it reaches its
 * target, and every zone still has its target, 4-connected. */
static void test_enclosed_zone_grows_again(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__grow_zone zones[5];
    struct rmg_map *map = grow_ring(ctx, 2, zones);
    uint32_t *stack = malloc(64 * 64 * sizeof *stack);
    uint8_t *seen = malloc(64 * 64);
    assert_non_null(stack);
    assert_non_null(seen);
    for (int i = 0; i < 5; i++) {
        size_t n = 0;
        for (size_t t = 0; t < map->n_tiles; t++)
            n += map->tile_zone[t] == i + 1;
        printf("zone %d: %zu tiles (target 400), radius %.1f\n", i + 1, n, 1.0 / zones[i].inv_radius);
        assert_int_equal(n, zones[i].count);
        assert_int_equal(n, 400);
        assert_int_equal(component_size(map->tile_zone, 64, 64, i + 1, stack, seen), n);
    }
    /* The interior zone's radius grew by target / count, at most twice a time: 5 -> 10 (63 tiles)
     * -> 20, where it reached its target. */
    assert_true(fabs(1.0 / zones[0].inv_radius - 20.0) < 1e-9);
    rmg__map_free(map);
    /* One level keeps its first growth (the regrowth is for equal land on two levels): the
     * interior zone stays enclosed at 63 tiles, its radius as the balancing left it. */
    map = grow_ring(ctx, 1, zones);
    size_t inner = 0;
    for (size_t t = 0; t < map->n_tiles; t++)
        inner += map->tile_zone[t] == 1;
    assert_int_equal(inner, 63);
    assert_true(fabs(1.0 / zones[0].inv_radius - 5.0) < 1e-9);
    free(stack);
    free(seen);
    rmg__map_free(map);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_free_zones_balance_the_levels),
        cmocka_unit_test(test_enclosed_zone_grows_again),
    };
    static const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_equal_weights_within_15_percent),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
