/* Cave walls (finish stage): the underground's blocked land is rock where rock can be drawn.
 *
 * The game's underground holds subterranean, lava and rock only, rock about half of it (issue 32):
 * its generator walls the caves with rock. The underground's land zones get the same once all of
 * them were filled (finish_obstacles.c, step 4) and before obstacle objects cover the rest, over
 * the whole level at once, so the two-tile seal between two zones becomes rock too:
 *   1. a blocked tile no one needs (no object, not a passage, a road, water or rock) may become
 *      rock;
 *   2. the candidates keep only tiles of a 2 x 2 square of candidates or rock (rock thinner than
 *      two tiles has no sprite, h3m-format.md §13.1), repeated until none is lost;
 *   3. they become rock; every rock tile and every neighbour of one must then fit a terrain
 *      pattern: an unfit rock tile goes back to its land, an unfit land tile takes its rock
 *      neighbours back with it, round after round (rock only shrinks, so the rounds end); after
 *      CAVE_ROUNDS all the new rock goes back. Only the tiles within the fit's reach of a change
 *      are judged (a tile's frame depends on that much).
 * Cost: a few passes over the level's land tiles.
 */
#include <string.h>

#include "finish_internal.h"
#include "grid/grid.h"
#include "map/map_views.h"

#define CAVE_ROUNDS 16

/* Blocked land no one needs: no object, entry, guard, passage or road; not water or rock. */
static bool candidate(const rmg__grid *b, uint32_t t)
{
    const struct rmg_map *m = b->m;
    uint16_t f = m->flags[t];
    return (f & (RMG__T_BLOCKED | RMG__T_WATER | RMG__T_ROCK | RMG__T_PASSAGE | RMG__T_ENTRY | RMG__T_GUARD)) ==
               RMG__T_BLOCKED &&
           !m->tile_object[t] && !m->road[t];
}

/* t lies in a 2 x 2 square of tiles marked `bit` or rock already (rock joins rock). */
static bool in_square(const rmg__grid *b, const uint8_t *mark, uint8_t bit, uint32_t t)
{
    const uint8_t *terrain = b->m->terrain;
    int x, y, z;
    rmg__grid_xyz(b, t, &x, &y, &z);
    for (int q = 0; q < 4; q++) {
        int x0 = x - 1 + q % 2, y0 = y - 1 + q / 2;
        if (x0 < 0 || y0 < 0 || x0 + 1 >= b->w || y0 + 1 >= b->h)
            continue;
        bool all = true;
        for (int k = 0; k < 4 && all; k++) {
            size_t u = rmg__tile(b->w, b->h, x0 + k % 2, y0 + k / 2, z);
            all = (mark[u] & bit) || terrain[u] == RMG_TERRAIN_ROCK;
        }
        if (all)
            return true;
    }
    return false;
}

/* Step 2: drops the marked tiles of no full square until none is dropped; returns how many stay
 * (compacted to the front of cave, with what they were in was). */
static size_t keep_squares(const rmg__grid *b, uint8_t *mark, uint8_t bit, uint32_t *cave, uint32_t *was, size_t n)
{
    for (bool dropped = true; dropped;) {
        dropped = false;
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            if (in_square(b, mark, bit, cave[i])) {
                was[kept] = was[i];
                cave[kept++] = cave[i];
            } else {
                mark[cave[i]] &= (uint8_t)~bit;
                dropped = true;
            }
        }
        n = kept;
    }
    return n;
}

static void set_rock(struct rmg_map *m, uint32_t t)
{
    m->terrain[t] = RMG_TERRAIN_ROCK;
    m->flags[t] = (uint16_t)((m->flags[t] & ~RMG__T_OBSTACLE) | RMG__T_ROCK | RMG__T_BLOCKED);
}

/* What a tile was before it became rock: its terrain and flags in one word. */
static uint32_t before_rock(const struct rmg_map *m, uint32_t t)
{
    return (uint32_t)m->terrain[t] | (uint32_t)m->flags[t] << 8;
}

static void unset_rock(struct rmg_map *m, uint32_t t, uint32_t was)
{
    m->terrain[t] = (uint8_t)(was & 0xFFu);
    m->flags[t] = (uint16_t)(was >> 8);
}

/* The tiles whose frame the new rock may change: those within the fit's reach of a new rock tile
 * with a neighbour that is not new rock (or off the map). The others are rock amid rock and fit;
 * every tile within that reach of such an inner one is inner too or near a boundary one. */
static size_t around_rock(rmg__grid *b, const uint8_t *mark, uint8_t bit, const uint32_t *cave, size_t n,
                          uint32_t *out)
{
    uint32_t stamp = rmg__grid_stamp(b);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t nb[8];
        int c = rmg__grid_nbrs(b, cave[i], nb);
        bool boundary = c < 8;
        for (int j = 0; j < c && !boundary; j++)
            boundary = !(mark[nb[j]] & bit);
        if (boundary)
            k = rmg__grid_add_square(b, cave[i], RMG__MAP_FIT_REACH, stamp, out, k);
    }
    return k;
}

/* Step 3's undoing: an unfit rock tile, or the rock around an unfit land tile, goes back. */
static void give_back(const rmg__grid *b, uint8_t *mark, uint8_t bit, const uint32_t *unfit, size_t n_unfit)
{
    for (size_t i = 0; i < n_unfit; i++) {
        uint32_t t = unfit[i], nb[8];
        if (mark[t] & bit) {
            mark[t] &= (uint8_t)~bit;
            continue;
        }
        int k = rmg__grid_nbrs(b, t, nb);
        for (int j = 0; j < k; j++)
            mark[nb[j]] &= (uint8_t)~bit;
    }
}

size_t rmg__finish_cave_rock(rmg__grid *b, const rmg__map_fit *fit, const uint32_t *tiles, size_t n, uint8_t bit,
                             uint32_t *scratch)
{
    struct rmg_map *m = b->m;
    uint8_t *mark = b->mark;
    /* scratch (RMG__FINISH_CAVE_SCRATCH words): n cave tiles, their n former states, then the
     * tiles to judge and the unfit ones, a level's tiles each at most (each judged once a round). */
    size_t plane = (size_t)b->w * (size_t)b->h;
    uint32_t *cave = scratch, *was = scratch + n, *near = scratch + 2 * n, *unfit = near + plane;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (candidate(b, tiles[i])) {
            mark[tiles[i]] |= bit;
            was[k] = before_rock(m, tiles[i]);
            cave[k++] = tiles[i];
        }
    k = keep_squares(b, mark, bit, cave, was, k);
    for (size_t i = 0; i < k; i++)
        set_rock(m, cave[i]);
    size_t n_near = around_rock(b, mark, bit, cave, k, near);
    for (int round = 0; n_near; round++) {
        size_t bad = rmg__map_fit_unfit_among(fit, m->terrain, b->w, b->h, near, n_near, unfit, plane);
        if (!bad)
            break;
        if (round == CAVE_ROUNDS) /* give up on the new rock rather than leave a tile unfit */
            for (size_t i = 0; i < k; i++)
                mark[cave[i]] &= (uint8_t)~bit;
        else
            give_back(b, mark, bit, unfit, RMG__MIN(bad, plane));
        /* What went back, and its neighbours, are judged next round. */
        uint32_t stamp = rmg__grid_stamp(b);
        size_t kept = 0;
        n_near = 0;
        for (size_t i = 0; i < k; i++) {
            if (mark[cave[i]] & bit) {
                was[kept] = was[i];
                cave[kept++] = cave[i];
            } else {
                unset_rock(m, cave[i], was[i]);
                n_near = rmg__grid_add_square(b, cave[i], RMG__MAP_FIT_REACH, stamp, near, n_near);
            }
        }
        k = kept;
    }
    for (size_t i = 0; i < k; i++)
        mark[cave[i]] &= (uint8_t)~bit;
    return k;
}
