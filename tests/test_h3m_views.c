/*
 * .h3m tile views (lib/export/h3m/h3m_views.c): terrain frames and mirrors on hand-made grids with
 * known answers (spec h3m-format.md §13.1), the coast bit, road and river frames (§13.2), the
 * tiles no pattern fits and the smoothing that removes them, determinism.
 */
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "map/map_views.h"

#define MAX_TILES (2 * 32 * 32)

/* A grid written as rows of letters, one per terrain id: dirt, sand, grass, snow, swamp (p),
 * rough (o), subterranean (u), lava, water, rock, highlands, wasteland (x). */
static const char TERRAIN_LETTERS[] = "dsgnpoulwrhx";

typedef struct grid {
    int w, h, levels;
    uint8_t terrain[MAX_TILES];
    uint8_t view[MAX_TILES], flags[MAX_TILES];
    rmg__map_view_range range[MAX_TILES];
} grid;

static grid *grid_of(const char *const *rows, int h)
{
    grid *g = calloc(1, sizeof *g);
    assert_non_null(g);
    g->w = (int)strlen(rows[0]);
    g->h = h;
    g->levels = 1;
    assert_true(g->w * g->h <= MAX_TILES);
    for (int y = 0; y < h; y++) {
        assert_int_equal(strlen(rows[y]), g->w);
        for (int x = 0; x < g->w; x++) {
            const char *at = strchr(TERRAIN_LETTERS, rows[y][x]);
            assert_non_null(at);
            g->terrain[y * g->w + x] = (uint8_t)(at - TERRAIN_LETTERS);
        }
    }
    return g;
}

static grid *grid_filled(int w, int h, uint8_t terrain)
{
    grid *g = calloc(1, sizeof *g);
    assert_non_null(g);
    g->w = w;
    g->h = h;
    g->levels = 1;
    memset(g->terrain, terrain, (size_t)(w * h));
    return g;
}

static void compute(grid *g, bool hota, uint64_t seed)
{
    rmg__map_terrain_views(g->terrain, g->w, g->h, g->levels, hota, seed, g->view, g->flags);
    rmg__map_terrain_view_ranges(g->terrain, g->w, g->h, g->levels, hota, g->range);
}

/* The tile at (x, y) fits a pattern with frames lo..hi and mirror flip, and its view and flag bits
 * 0-1 are those. */
static void assert_view(const grid *g, int x, int y, int lo, int hi, int flip)
{
    int t = y * g->w + x;
    const rmg__map_view_range *r = &g->range[t];
    if (!r->fits || r->lo != lo || r->hi != hi || r->flip != flip)
        fail_msg("tile (%d,%d): expected %d-%d mirror %d, got %s %d-%d mirror %d", x, y, lo, hi, flip,
                 r->fits ? "fits" : "unfit", r->lo, r->hi, r->flip);
    assert_in_range(g->view[t], lo, hi);
    assert_int_equal(g->flags[t] & RMG__VIEW_FLAG_TERRAIN_FLIP, flip);
}

/* ---- interiors ---------------------------------------------------------------------------- */

typedef struct interior_case {
    uint8_t terrain;
    int lo, decorated_lo, hi; /* plain lo..decorated_lo-1, decorated decorated_lo..hi */
} interior_case;

static void test_interior_uses_plain_and_decorated_frames(void **state)
{
    (void)state;
    const interior_case cases[] = {
        {RMG_TERRAIN_GRASS, 49, 57, 72}, {RMG_TERRAIN_LAVA, 49, 57, 72},      {RMG_TERRAIN_DIRT, 21, 29, 44},
        {RMG_TERRAIN_SAND, 0, 8, 23},    {RMG_TERRAIN_HIGHLANDS, 77, 102, 117}, {RMG_TERRAIN_WATER, 21, 33, 32},
        {RMG_TERRAIN_ROCK, 0, 8, 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const interior_case *c = &cases[i];
        grid *g = grid_filled(32, 32, c->terrain);
        memset(g->flags, 0xFF, sizeof g->flags);
        compute(g, true, 42);
        int plain = 0, decorated = 0, n = g->w * g->h;
        for (int t = 0; t < n; t++) {
            assert_in_range(g->view[t], c->lo, c->hi);
            plain += g->view[t] < c->decorated_lo;
            decorated += g->view[t] >= c->decorated_lo;
            /* mirror and coast cleared, the other bits kept */
            assert_int_equal(g->flags[t], 0xFF & ~(RMG__VIEW_FLAG_TERRAIN_FLIP | RMG__VIEW_FLAG_COAST));
        }
        if (c->decorated_lo <= c->hi) {
            /* one in four or five in the game's maps */
            assert_in_range(decorated, n / 8, n * 3 / 8);
            assert_true(plain > decorated);
        } else {
            assert_int_equal(decorated, 0);
        }
        free(g);
    }
}

/* ---- straight borders -------------------------------------------------------------------- */

static void test_vertical_border_grass_dirt(void **state)
{
    (void)state;
    static const char *const grass_left[] = {"ggggdddd", "ggggdddd", "ggggdddd", "ggggdddd", "ggggdddd", "ggggdddd"};
    static const char *const grass_right[] = {"ddddgggg", "ddddgggg", "ddddgggg", "ddddgggg", "ddddgggg", "ddddgggg"};
    grid *g = grid_of(grass_left, 6);
    compute(g, false, 1);
    for (int y = 0; y < g->h; y++) {
        assert_view(g, 2, y, 49, 72, 0);
        assert_view(g, 3, y, 4, 7, 1); /* dirt on the right: s2 mirrored */
        assert_view(g, 4, y, 21, 44, 0); /* dirt needs no border towards grass */
    }
    free(g);
    g = grid_of(grass_right, 6);
    compute(g, false, 1);
    for (int y = 0; y < g->h; y++) {
        assert_view(g, 3, y, 21, 44, 0);
        assert_view(g, 4, y, 4, 7, 0); /* dirt on the left: s2 as drawn */
        assert_view(g, 5, y, 49, 72, 0);
    }
    free(g);
}

static void test_horizontal_border_grass_dirt(void **state)
{
    (void)state;
    static const char *const grass_top[] = {"gggggg", "gggggg", "gggggg", "dddddd", "dddddd", "dddddd"};
    static const char *const grass_bottom[] = {"dddddd", "dddddd", "dddddd", "gggggg", "gggggg", "gggggg"};
    grid *g = grid_of(grass_top, 6);
    compute(g, false, 1);
    for (int x = 0; x < g->w; x++) {
        assert_view(g, x, 2, 8, 11, 2); /* dirt below: s3 mirrored top-bottom */
        assert_view(g, x, 3, 21, 44, 0);
    }
    free(g);
    g = grid_of(grass_bottom, 6);
    compute(g, false, 1);
    for (int x = 0; x < g->w; x++)
        assert_view(g, x, 3, 8, 11, 0);
    free(g);
}

/* Towards sand (and water, rock) the normal terrains use the sand-border range of a pattern. */
static void test_sand_border_uses_second_range(void **state)
{
    (void)state;
    static const char *const rows[] = {"ggggssss", "ggggssss", "ggggssss", "ggggssss", "gggggggg", "gggggggg"};
    grid *g = grid_of(rows, 6);
    compute(g, false, 1);
    assert_view(g, 3, 0, 24, 27, 1); /* s2, sand range */
    assert_view(g, 3, 2, 24, 27, 1);
    assert_view(g, 5, 4, 28, 31, 0); /* s3, sand range */
    assert_view(g, 3, 4, 32, 35, 2); /* s4: inner corner, sand range */
    assert_view(g, 5, 0, 0, 23, 0);  /* sand itself: interior frames only */
    free(g);
}

/* ---- corners ----------------------------------------------------------------------------- */

static void test_outer_and_inner_corners(void **state)
{
    (void)state;
    /* a grass square in dirt: outer corners s7 (dirt border), mirrored per corner */
    static const char *const square[] = {"dddddddd", "dddddddd", "ddggggdd", "ddggggdd",
                                         "ddggggdd", "ddggggdd", "dddddddd", "dddddddd"};
    grid *g = grid_of(square, 8);
    compute(g, false, 3);
    assert_view(g, 2, 2, 0, 3, 0);
    assert_view(g, 5, 2, 0, 3, 1);
    assert_view(g, 2, 5, 0, 3, 2);
    assert_view(g, 5, 5, 0, 3, 3);
    free(g);
    /* the same in sand: s1 */
    static const char *const in_sand[] = {"ssssssss", "ssssssss", "ssggggss", "ssggggss",
                                          "ssggggss", "ssggggss", "ssssssss", "ssssssss"};
    g = grid_of(in_sand, 8);
    compute(g, false, 3);
    assert_view(g, 2, 2, 20, 23, 0);
    assert_view(g, 5, 5, 20, 23, 3);
    free(g);
    /* a dirt block in the top-left of grass: the grass tile touching it diagonally is an inner
     * corner s4, its neighbours s3 and s2 */
    static const char *const block[] = {"ddddgggg", "ddddgggg", "ddddgggg", "ddddgggg",
                                        "gggggggg", "gggggggg", "gggggggg", "gggggggg"};
    g = grid_of(block, 8);
    compute(g, false, 3);
    assert_view(g, 4, 4, 12, 15, 3);
    assert_view(g, 3, 4, 8, 11, 0);
    assert_view(g, 4, 3, 4, 7, 0);
    free(g);
}

/* A notch: an outer corner next to inner corners that are no s4 gives s5 and s6. */
static void test_notch_gives_s5_and_s6(void **state)
{
    (void)state;
    static const char *const rows[] = {"ggggggg", "ggggggg", "ggggggg", "gggdddd",
                                       "ggddddd", "ggddddd", "ggddddd"};
    grid *g = grid_of(rows, 7);
    compute(g, false, 5);
    assert_view(g, 2, 3, 16, 17, 3); /* s5: dirt right, below and diagonally */
    assert_view(g, 1, 3, 18, 19, 0); /* s6 */
    assert_view(g, 2, 2, 18, 19, 0); /* s6 */
    assert_view(g, 1, 4, 4, 7, 1);
    free(g);
}

/* ---- rock -------------------------------------------------------------------------------- */

/* Rock has frames per orientation: the range's half (s2, s3) or quarter (corners) by the mirror,
 * and flag bits 0-1 stay 0. */
static void test_rock_uses_orientation_frames(void **state)
{
    (void)state;
    static const char *const rows[] = {"gggggggg", "gggggggg", "ggrrrrgg", "ggrrrrgg",
                                       "ggrrrrgg", "ggrrrrgg", "gggggggg", "gggggggg"};
    grid *g = grid_of(rows, 8);
    compute(g, false, 7);
    assert_view(g, 2, 3, 16, 17, 0); /* s2, grass left */
    assert_view(g, 5, 3, 18, 19, 0); /* s2, grass right */
    assert_view(g, 3, 2, 20, 21, 0); /* s3, grass above */
    assert_view(g, 3, 5, 22, 23, 0); /* s3, grass below */
    assert_view(g, 2, 2, 8, 9, 0);   /* s1 corners, a quarter each */
    assert_view(g, 5, 2, 10, 11, 0);
    assert_view(g, 2, 5, 12, 13, 0);
    assert_view(g, 5, 5, 14, 15, 0);
    assert_view(g, 3, 3, 0, 7, 0);
    free(g);
}

/* ---- dirt frame 45 ----------------------------------------------------------------------- */

static void test_dirt_frame_45_only_in_hota(void **state)
{
    (void)state;
    /* dirt at (2,2) with sand at top-left, top, left and bottom-right: the x1 shape */
    static const char *const rows[] = {"dssddd", "sssddd", "ssdddd", "dddsdd", "dddddd", "dddddd"};
    grid *g = grid_of(rows, 6);
    compute(g, true, 9);
    assert_view(g, 2, 2, 45, 45, 0);
    compute(g, false, 9);
    assert_int_not_equal(g->view[2 * g->w + 2], 45);
    assert_false(g->range[2 * g->w + 2].fits); /* SoD has no frame for it */
    free(g);
    /* random dirt and sand never get frame 45 in SoD */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 50; round++) {
        g = grid_filled(16, 16, RMG_TERRAIN_DIRT);
        for (int t = 0; t < 256; t++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            g->terrain[t] = (x % 3 == 0) ? RMG_TERRAIN_SAND : RMG_TERRAIN_DIRT;
        }
        compute(g, false, (uint64_t)round);
        for (int t = 0; t < 256; t++)
            if (g->terrain[t] == RMG_TERRAIN_DIRT)
                assert_int_not_equal(g->view[t], 45);
        free(g);
    }
}

/* ---- the coast bit ----------------------------------------------------------------------- */

static void test_coast_bit_on_land_next_to_water(void **state)
{
    (void)state;
    static const char *const rows[] = {"ggggggw", "gggwwgg", "gggwwgg", "gggggrg", "ggggggg", "wgggggg"};
    grid *g = grid_of(rows, 6);
    compute(g, false, 1);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            bool water_near = false;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((dx || dy) && nx >= 0 && ny >= 0 && nx < g->w && ny < g->h &&
                        g->terrain[ny * g->w + nx] == RMG_TERRAIN_WATER)
                        water_near = true;
                }
            bool land = g->terrain[y * g->w + x] != RMG_TERRAIN_WATER;
            assert_int_equal((g->flags[y * g->w + x] & RMG__VIEW_FLAG_COAST) != 0, land && water_near);
        }
    /* not across the map's edge: (6,0) is water, (0,1) the next tile in memory is not next to it */
    assert_false(g->flags[1 * g->w + 0] & RMG__VIEW_FLAG_COAST);
    assert_true(g->flags[0 * g->w + 2] & RMG__VIEW_FLAG_COAST);  /* beside (3,1) */
    assert_true(g->flags[1 * g->w + 5] & RMG__VIEW_FLAG_COAST);  /* beside (6,0) */
    assert_true(g->flags[4 * g->w + 1] & RMG__VIEW_FLAG_COAST);  /* beside (0,5) */
    assert_true(g->flags[3 * g->w + 5] & RMG__VIEW_FLAG_COAST);  /* rock counts as land */
    assert_false(g->flags[1 * g->w + 3] & RMG__VIEW_FLAG_COAST); /* water itself */
    free(g);
}

/* ---- unfit tiles and smoothing ----------------------------------------------------------- */

static void test_single_tile_island_is_unfit_and_smoothed(void **state)
{
    (void)state;
    static const char *const rows[] = {"dddddd", "dddddd", "ddgddd", "dddddd", "dddwdd", "dddddd"};
    grid *g = grid_of(rows, 6);
    uint32_t unfit[8];
    size_t n = rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, unfit, 8);
    assert_int_equal(n, 2);
    assert_int_equal(unfit[0], 2 * 6 + 2);
    assert_int_equal(unfit[1], 4 * 6 + 3);
    assert_int_equal(rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, NULL, 0), 2);

    /* the lake is locked with its shore: only the grass tile may change */
    uint8_t keep[36] = {0};
    for (int y = 3; y <= 5; y++)
        for (int x = 2; x <= 4; x++)
            keep[y * 6 + x] = 1;
    uint8_t before[36];
    memcpy(before, g->terrain, sizeof before);
    assert_int_equal(rmg__map_smooth_terrain(g->terrain, keep, g->w, g->h, 1), 1);
    assert_int_equal(g->terrain[2 * 6 + 2], RMG_TERRAIN_DIRT);
    for (int t = 0; t < 36; t++)
        if (keep[t] || t == 2 * 6 + 2)
            continue;
        else
            assert_int_equal(g->terrain[t], before[t]);
    assert_int_equal(g->terrain[4 * 6 + 3], RMG_TERRAIN_WATER);
    n = rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, unfit, 8);
    assert_int_equal(n, 1); /* the locked lake stays as the caller wants it */
    assert_int_equal(unfit[0], 4 * 6 + 3);

    /* unlocked, the lake goes too */
    assert_int_equal(rmg__map_smooth_terrain(g->terrain, NULL, g->w, g->h, 1), 1);
    assert_int_equal(rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, NULL, 0), 0);
    assert_int_equal(rmg__map_smooth_terrain(g->terrain, NULL, g->w, g->h, 1), 0);
    free(g);
}

/* One-tile channels and peninsulas, tiles touching at a corner: gone after smoothing. */
static void test_smoothing_repairs_thin_shapes(void **state)
{
    (void)state;
    static const char *const rows[] = {"gggggggg", "gggggggg", "llllllgg", "gggggggg",
                                       "ggglgggg", "gggglggg", "gggggggg", "gggggggg"};
    grid *g = grid_of(rows, 8);
    assert_true(rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, NULL, 0) > 0);
    assert_true(rmg__map_smooth_terrain(g->terrain, NULL, g->w, g->h, 1) > 0);
    assert_int_equal(rmg__map_unfit_tiles(g->terrain, g->w, g->h, 1, NULL, 0), 0);
    free(g);
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static bool locked_body_next_to(const grid *g, const uint8_t *keep, int t)
{
    int level = t / (g->w * g->h), rest = t % (g->w * g->h), x = rest % g->w, y = rest / g->w;
    uint8_t own = g->terrain[t];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy, u = level * g->w * g->h + ny * g->w + nx;
            if ((dx || dy) && nx >= 0 && ny >= 0 && nx < g->w && ny < g->h && keep[u] && g->terrain[u] == own)
                return true;
        }
    return false;
}

/* Random noise, with and without locks: smoothing returns, is deterministic, changes no locked
 * tile, and leaves unfit only locked tiles and water or rock held by a locked body of theirs. */
static void test_smoothing_terminates_on_noise(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    static grid g, copy;
    uint8_t keep[MAX_TILES], original[MAX_TILES];
    uint32_t unfit[MAX_TILES];
    for (int round = 0; round < 400; round++) {
        g.w = 2 + (int)(next_random(&x) % 15);
        g.h = 2 + (int)(next_random(&x) % 15);
        g.levels = 1 + (int)(next_random(&x) % 2);
        int n = g.w * g.h * g.levels, palette = 2 + (int)(next_random(&x) % 11), lock_per_16 = round % 3 ? 0 : 3;
        for (int t = 0; t < n; t++) {
            g.terrain[t] = (uint8_t)(next_random(&x) % (uint64_t)palette);
            keep[t] = (uint8_t)(next_random(&x) % 16 < (uint64_t)lock_per_16);
        }
        memcpy(&copy, &g, sizeof g);
        memcpy(original, g.terrain, (size_t)n);
        size_t changes = rmg__map_smooth_terrain(g.terrain, keep, g.w, g.h, g.levels);
        size_t again = rmg__map_smooth_terrain(copy.terrain, keep, g.w, g.h, g.levels);
        assert_int_equal(changes, again);
        assert_memory_equal(g.terrain, copy.terrain, (size_t)n);
        for (int t = 0; t < n; t++)
            if (keep[t])
                assert_int_equal(g.terrain[t], original[t]);
        size_t bad = rmg__map_unfit_tiles(g.terrain, g.w, g.h, g.levels, unfit, MAX_TILES);
        if (!lock_per_16)
            assert_int_equal(bad, 0);
        for (size_t i = 0; i < bad; i++) {
            int t = (int)unfit[i];
            if (keep[t])
                continue;
            bool body = g.terrain[t] == RMG_TERRAIN_WATER || g.terrain[t] == RMG_TERRAIN_ROCK;
            if (!body || !locked_body_next_to(&g, keep, t))
                fail_msg("round %d: unlocked tile %d (terrain %d) left unfit", round, t, g.terrain[t]);
        }
    }
}

/* Locked water stays exactly where it is: no shore tile becomes water, no water tile land. */
static void test_smoothing_keeps_locked_water_shapes(void **state)
{
    (void)state;
    static const char *const rows[] = {"gggggggg", "gwwwwwgg", "gwgggwgg", "gwwwwwgg", "gggggggg", "gggggggg"};
    grid *g = grid_of(rows, 6);
    uint8_t keep[48] = {0}, before[48];
    for (int t = 0; t < 48; t++)
        keep[t] = g->terrain[t] == RMG_TERRAIN_WATER;
    memcpy(before, g->terrain, sizeof before);
    rmg__map_smooth_terrain(g->terrain, keep, g->w, g->h, 1);
    for (int t = 0; t < 48; t++)
        assert_int_equal(g->terrain[t] == RMG_TERRAIN_WATER, before[t] == RMG_TERRAIN_WATER);
    free(g);
}

/* ---- determinism ------------------------------------------------------------------------- */

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    static grid a, b;
    uint64_t x = 77;
    a.w = b.w = 24, a.h = b.h = 20, a.levels = b.levels = 2;
    for (int t = 0; t < 24 * 20 * 2; t++)
        a.terrain[t] = b.terrain[t] = (uint8_t)(next_random(&x) % 100 < 90 ? RMG_TERRAIN_GRASS : RMG_TERRAIN_WATER);
    rmg__map_smooth_terrain(a.terrain, NULL, a.w, a.h, a.levels);
    memcpy(b.terrain, a.terrain, sizeof a.terrain);
    compute(&a, false, 123);
    compute(&b, false, 123);
    assert_memory_equal(a.view, b.view, sizeof a.view);
    assert_memory_equal(a.flags, b.flags, sizeof a.flags);
    compute(&b, false, 124);
    assert_memory_equal(a.flags, b.flags, sizeof a.flags); /* mirrors and coast do not vary */
    int differ = 0, interiors = 0;
    for (int t = 0; t < 24 * 20 * 2; t++)
        if (a.range[t].fits && a.range[t].lo == 49) {
            interiors++;
            differ += a.view[t] != b.view[t];
        }
    assert_true(interiors > 100);
    assert_true(differ > interiors / 2);
}

/* ---- roads and rivers -------------------------------------------------------------------- */

enum { N = 1, E = 2, S = 4, W = 8 };

typedef struct line_case {
    int neighbours;        /* N E S W of the centre */
    int diagonals;         /* NE 1, SE 2, SW 4, NW 8 */
    int lo, hi, flip;
} line_case;

static const line_case ROAD_CASES[] = {
    {0, 0, 14, 14, 2},         {S, 0, 14, 14, 0},         {N, 0, 14, 14, 2},         {E, 0, 15, 15, 0},
    {W, 0, 15, 15, 1},         {N | S, 0, 10, 11, 0},     {E | W, 0, 12, 13, 0},     {E | S, 0, 0, 1, 0},
    {E | S, 1, 2, 5, 0},       {E | S, 4, 2, 5, 0},       {E | S, 2 | 8, 0, 1, 0},   {S | W, 0, 0, 1, 1},
    {S | W, 8, 2, 5, 1},       {S | W, 2, 2, 5, 1},       {S | W, 1 | 4, 0, 1, 1},   {N | E, 0, 0, 1, 2},
    {N | E, 2, 2, 5, 2},       {N | E, 8, 2, 5, 2},       {N | E, 1 | 4, 0, 1, 2},   {N | W, 0, 0, 1, 3},
    {N | W, 4, 2, 5, 3},       {N | W, 1, 2, 5, 3},       {N | W, 2 | 8, 0, 1, 3},   {N | E | S, 0, 6, 7, 0},
    {N | S | W, 0, 6, 7, 1},   {E | S | W, 0, 8, 9, 0},   {N | E | W, 0, 8, 9, 2},   {N | E | S | W, 15, 16, 16, 0},
};

static const line_case RIVER_CASES[] = {
    {0, 0, 9, 10, 0},       {S, 0, 9, 10, 0},       {N, 0, 9, 10, 0},         {E, 0, 11, 12, 0},
    {W, 0, 11, 12, 0},      {N | S, 0, 9, 10, 0},   {E | W, 0, 11, 12, 0},    {E | S, 1, 0, 3, 0},
    {S | W, 0, 0, 3, 1},    {N | E, 0, 0, 3, 2},    {N | W, 0, 0, 3, 3},      {N | E | S, 0, 7, 8, 0},
    {N | S | W, 0, 7, 8, 1}, {E | S | W, 0, 5, 6, 0}, {N | E | W, 0, 5, 6, 2}, {N | E | S | W, 0, 4, 4, 0},
};

/* A 5 x 5 layer with a line at the centre and at the given neighbours. */
static void line_layer(uint8_t *type, const line_case *c, uint8_t kind)
{
    static const int DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    memset(type, 0, 25);
    type[12] = kind;
    for (int i = 0; i < 4; i++)
        if (c->neighbours & (1 << i))
            type[(2 + DY[i]) * 5 + 2 + DX[i]] = kind;
    for (int i = 0; i < 4; i++)
        if (c->diagonals & (1 << i))
            type[(2 + DY[4 + i]) * 5 + 2 + DX[4 + i]] = kind;
}

static void check_line_cases(const line_case *cases, size_t count, bool river)
{
    uint8_t type[25], view[25], flags[25];
    for (size_t i = 0; i < count; i++) {
        const line_case *c = &cases[i];
        line_layer(type, c, river ? 2 : 3);
        memset(flags, 0xFF, sizeof flags);
        if (river)
            rmg__map_river_views(type, 5, 5, 1, 11, view, flags);
        else
            rmg__map_road_views(type, 5, 5, 1, 11, view, flags);
        int shift = river ? 2 : 4;
        uint8_t mask = river ? RMG__VIEW_FLAG_RIVER_FLIP : RMG__VIEW_FLAG_ROAD_FLIP;
        rmg__map_view_range r;
        assert_true(rmg__map_line_view_range(type, 5, 5, river, 12, &r));
        if (r.lo != c->lo || r.hi != c->hi || r.flip != c->flip)
            fail_msg("%s case %zu: expected %d-%d mirror %d, got %d-%d mirror %d", river ? "river" : "road", i, c->lo,
                     c->hi, c->flip, r.lo, r.hi, r.flip);
        assert_in_range(view[12], c->lo, c->hi);
        assert_int_equal((flags[12] & mask) >> shift, c->flip);
        assert_int_equal(flags[12] & (uint8_t)~mask, 0xFF & ~mask); /* other bits kept */
        assert_int_equal(view[0], 0);                               /* no line: view 0, no mirror */
        assert_int_equal(flags[0] & mask, 0);
        assert_false(rmg__map_line_view_range(type, 5, 5, river, 0, &r));
    }
}

static void test_road_views_follow_the_table(void **state)
{
    (void)state;
    check_line_cases(ROAD_CASES, sizeof ROAD_CASES / sizeof *ROAD_CASES, false);
}

static void test_river_views_follow_the_table(void **state)
{
    (void)state;
    check_line_cases(RIVER_CASES, sizeof RIVER_CASES / sizeof *RIVER_CASES, true);
}

/* Where two road types meet each ends there, as in the game's maps. */
static void test_roads_of_other_types_do_not_connect(void **state)
{
    (void)state;
    uint8_t road[25] = {0}, view[25], flags[25] = {0};
    road[1 * 5 + 2] = 3; /* cobblestone coming from above */
    road[2 * 5 + 2] = 3;
    road[3 * 5 + 2] = 1; /* dirt going on below */
    road[4 * 5 + 2] = 1;
    rmg__map_road_views(road, 5, 5, 1, 5, view, flags);
    assert_int_equal(view[2 * 5 + 2], 14); /* cobblestone: end, road above */
    assert_int_equal((flags[2 * 5 + 2] & RMG__VIEW_FLAG_ROAD_FLIP) >> 4, 2);
    assert_int_equal(view[3 * 5 + 2], 14); /* dirt: end, road below */
    assert_int_equal((flags[3 * 5 + 2] & RMG__VIEW_FLAG_ROAD_FLIP) >> 4, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interior_uses_plain_and_decorated_frames),
        cmocka_unit_test(test_vertical_border_grass_dirt),
        cmocka_unit_test(test_horizontal_border_grass_dirt),
        cmocka_unit_test(test_sand_border_uses_second_range),
        cmocka_unit_test(test_outer_and_inner_corners),
        cmocka_unit_test(test_notch_gives_s5_and_s6),
        cmocka_unit_test(test_rock_uses_orientation_frames),
        cmocka_unit_test(test_dirt_frame_45_only_in_hota),
        cmocka_unit_test(test_coast_bit_on_land_next_to_water),
        cmocka_unit_test(test_single_tile_island_is_unfit_and_smoothed),
        cmocka_unit_test(test_smoothing_repairs_thin_shapes),
        cmocka_unit_test(test_smoothing_terminates_on_noise),
        cmocka_unit_test(test_smoothing_keeps_locked_water_shapes),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_road_views_follow_the_table),
        cmocka_unit_test(test_river_views_follow_the_table),
        cmocka_unit_test(test_roads_of_other_types_do_not_connect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
