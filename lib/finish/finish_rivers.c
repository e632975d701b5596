/* Rivers (finish stage, after obstacles; issue 32): decorative river lines on the land of
 * zones whose terrain the game's generator gives rivers.
 *
 * What the game's own maps show (35 Jebus Cross XL maps of its random map generator):
 *   - rivers lie in zones of dirt, grass, snow and swamp (4.2-4.8 % of those terrains' tiles);
 *     lava, sand and rough zones get none (0.1 % or less, where a river leaves a neighbour zone);
 *   - icy rivers on snow, clear rivers everywhere else (no muddy or lava river on any map);
 *   - a river is a line one tile wide that winds, sometimes branches (T junctions) and ends
 *     anywhere (dead ends), a few to a hundred tiles long;
 *   - the game draws its rivers regardless of objects and puts objects over them: more than half
 *     of its river tiles lie under objects (a median 480 river tiles, 156 of them showing).
 * librmg does the same: rivers go last, over the zone's land whatever stands on it (they block
 * nothing, and an object drawn over a river hides it as in the game), 4.2 % of a river zone's
 * tiles (RIVER_PER_MILLE), the low end of the game's share: a river that meets another may stop
 * there, and the median Jebus Cross XL map then holds 0.86-1.17 of the game's river tiles
 * (scripts/realism.py with the game's town choices; tests/test_rivers.c with random towns).
 *
 * Per zone, with its own stream ("rivers", zone id): the zone's land tiles (not a passage, not
 * water or rock) are shuffled and tried in turn as river sources;
 * from a source a river walks up to a drawn length, keeping its direction or turning left or
 * right, onto land tiles of its zone that touch no other river tile (so rivers never run side by
 * side or form 2x2 blocks) and crossing a road only straight over one tile; meeting an earlier
 * river it may join it and stop. A river shorter than MIN_LEN is taken back. Views come from the
 * river layer when the map is written (map_views.c, h3m-format.md §13.2).
 *
 * Cost: one pass over the tiles to list each zone's land, then a few array reads per river tile
 * tried; no search. Nothing else on the map changes.
 */
#include <stdint.h>
#include <string.h>

#include "finish_internal.h"

#define RIVER_PER_MILLE 42  /* river tiles per 1000 tiles of a river zone (see the head) */
#define MIN_LEN 3
#define MAX_LEN 48
#define STRAIGHT_PERCENT 65 /* a step keeps its direction, else turns left or right */
#define JOIN_PERCENT 50     /* a river meeting another joins it (else turns away or ends) */

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0}; /* up, right, down, left */

/* The river type the game's generator gives a zone of this terrain, 0 none. */
uint8_t rmg__river_type_of_terrain(int terrain)
{
    switch (terrain) {
    case RMG_TERRAIN_SNOW: return RMG_RIVER_ICY;
    case RMG_TERRAIN_DIRT:
    case RMG_TERRAIN_GRASS:
    case RMG_TERRAIN_SWAMP: return RMG_RIVER_CLEAR;
    default: return RMG_RIVER_NONE;
    }
}

typedef struct river_walk {
    struct rmg_map *m;
    uint16_t zone;
    uint8_t type;
} river_walk;

/* Land of the zone a river may take: any but water, rock and passages (objects stand over
 * rivers as on the game's maps; rivers block nothing). */
static bool open_tile(const river_walk *w, size_t t)
{
    const struct rmg_map *m = w->m;
    return m->tile_zone[t] == w->zone && !(m->flags[t] & (RMG__T_PASSAGE | RMG__T_WATER | RMG__T_ROCK));
}

/* (x, y) + direction d inside the level, as a tile index; false off the map. */
static bool step(const struct rmg_map *m, size_t plane0, int x, int y, int d, int *nx, int *ny, size_t *t)
{
    *nx = x + DX[d];
    *ny = y + DY[d];
    if (*nx < 0 || *ny < 0 || *nx >= m->width || *ny >= m->height)
        return false;
    *t = plane0 + (size_t)*ny * (size_t)m->width + (size_t)*nx;
    return true;
}

/* The river tiles beside (x, y) other than `from`: how many, and the last one in *other. */
static int other_rivers(const struct rmg_map *m, size_t plane0, int x, int y, size_t from, size_t *other)
{
    int count = 0;
    for (int d = 0; d < 4; d++) {
        int nx, ny;
        size_t t;
        if (step(m, plane0, x, y, d, &nx, &ny, &t) && t != from && m->river[t]) {
            count++;
            *other = t;
        }
    }
    return count;
}

/* The river being drawn: its tiles so far. */
typedef struct river_path {
    size_t tiles[MAX_LEN];
    size_t n;
} river_path;

static bool on_path(const river_path *p, size_t t)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->tiles[i] == t)
            return true;
    return false;
}

/* The next river tiles from (x, y) in direction d: an open tile that touches no other river (a
 * road tile only with such a tile beyond it in the same direction: a straight crossing, both
 * taken). Returns how many (0: none) and where the river is then; *joins is set when the tile
 * would touch exactly one tile of an earlier river of this type: it may then be taken as the
 * river's last tile, which makes a T junction there. */
static int next_tiles(const river_walk *w, size_t plane0, int x, int y, const river_path *p, int d, size_t out[2],
                      int *ox, int *oy, bool *joins)
{
    const struct rmg_map *m = w->m;
    size_t cur = p->tiles[p->n - 1], other = 0;
    int nx, ny;
    size_t t;
    *joins = false;
    if (!step(m, plane0, x, y, d, &nx, &ny, &t) || m->river[t] || !open_tile(w, t))
        return 0;
    out[0] = t;
    *ox = nx;
    *oy = ny;
    int others = other_rivers(m, plane0, nx, ny, cur, &other);
    if (others) {
        *joins = others == 1 && !m->road[t] && m->river[other] == w->type && !on_path(p, other);
        return *joins ? 1 : 0;
    }
    if (!m->road[t])
        return 1;
    int bx, by;
    size_t beyond;
    if (!step(m, plane0, nx, ny, d, &bx, &by, &beyond) || m->river[beyond] || m->road[beyond] ||
        !open_tile(w, beyond) || other_rivers(m, plane0, bx, by, t, &other))
        return 0;
    out[1] = beyond;
    *ox = bx;
    *oy = by;
    return 2;
}

/* One river from the open tile `src`; returns the tiles it keeps (0 when too short). */
static size_t walk_river(const river_walk *w, rmg_rng *rng, size_t src)
{
    struct rmg_map *m = w->m;
    size_t plane = (size_t)m->width * (size_t)m->height, plane0 = src - src % plane, other;
    int x = (int)(src % plane % (size_t)m->width), y = (int)(src % plane / (size_t)m->width);
    if (other_rivers(m, plane0, x, y, SIZE_MAX, &other))
        return 0;
    river_path p = {{src}, 1};
    size_t len = (size_t)rmg_rng_range(rng, MIN_LEN + 2, MAX_LEN);
    int d = (int)rmg_rng_below(rng, 4);
    m->river[src] = w->type;
    bool ended = false;
    while (p.n < len && !ended) {
        /* Straight, then the two turns in a random order (a turn first now and then). */
        int turn = rmg_rng_below(rng, 2) ? 1 : 3;
        int order[3] = {d, (d + turn) & 3, (d + 4 - turn) & 3};
        if (rmg_rng_below(rng, 100) >= STRAIGHT_PERCENT) {
            order[0] = (d + turn) & 3;
            order[1] = d;
        }
        bool moved = false;
        for (int k = 0; k < 3 && !moved; k++) {
            size_t got[2];
            int nx, ny;
            bool joins;
            int taken = next_tiles(w, plane0, x, y, &p, order[k], got, &nx, &ny, &joins);
            if (!taken || p.n + (size_t)taken > MAX_LEN)
                continue;
            if (joins && (p.n < MIN_LEN || rmg_rng_below(rng, 100) >= JOIN_PERCENT))
                continue;
            for (int i = 0; i < taken; i++) {
                m->river[got[i]] = w->type;
                p.tiles[p.n++] = got[i];
            }
            x = nx;
            y = ny;
            d = order[k];
            moved = true;
            ended = joins;
        }
        if (!moved)
            break;
    }
    if (p.n >= MIN_LEN)
        return p.n;
    for (size_t i = 0; i < p.n; i++)
        m->river[p.tiles[i]] = RMG_RIVER_NONE;
    return 0;
}

/* The zone's rivers from its open tiles (list, shuffled here). */
static void zone_rivers(rmg__gen *g, const rmg__map_zone *z, uint32_t *list, size_t n_open)
{
    river_walk w = {g->map, (uint16_t)z->id, rmg__river_type_of_terrain(z->terrain)};
    size_t budget = z->n_tiles * RIVER_PER_MILLE / 1000, placed = 0;
    if (!w.type || !budget || !n_open)
        return;
    rmg_rng rng;
    rmg__gen_stream(g, "rivers", (uint64_t)z->id, &rng);
    rmg_rng_shuffle(&rng, list, n_open, sizeof *list);
    for (size_t i = 0; i < n_open && placed < budget; i++)
        if (!g->map->river[list[i]] && open_tile(&w, list[i]))
            placed += walk_river(&w, &rng, list[i]);
}

rmg_status rmg__finish_rivers(rmg__gen *g)
{
    struct rmg_map *m = g->map;
    size_t nz = m->zones.count;
    if (!nz)
        return RMG_OK;
    /* The open land of every river zone, grouped by zone (a counting sort by zone id). */
    size_t *start = rmg__calloc(g->ctx, nz + 2, sizeof *start);
    uint32_t *list = rmg__malloc(g->ctx, m->n_tiles * sizeof *list);
    bool *rivers = rmg__calloc(g->ctx, nz + 1, sizeof *rivers);
    if (!start || !list || !rivers) {
        rmg__free(g->ctx, start);
        rmg__free(g->ctx, list);
        rmg__free(g->ctx, rivers);
        return rmg__error_nomem(g->ctx);
    }
    for (size_t i = 0; i < nz; i++)
        rivers[i + 1] = rmg__river_type_of_terrain(m->zones.items[i].terrain) != RMG_RIVER_NONE;
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t zid = m->tile_zone[t];
        if (zid && zid <= nz && rivers[zid] && !m->tile_object[t] && !(m->flags[t] & RMG__T_BLOCKED))
            start[zid + 1]++;
    }
    for (size_t i = 1; i <= nz + 1; i++)
        start[i] += start[i - 1];
    size_t *fill = rmg__malloc(g->ctx, (nz + 1) * sizeof *fill);
    if (!fill) {
        rmg__free(g->ctx, start);
        rmg__free(g->ctx, list);
        rmg__free(g->ctx, rivers);
        return rmg__error_nomem(g->ctx);
    }
    memcpy(fill, start, (nz + 1) * sizeof *fill);
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t zid = m->tile_zone[t];
        if (zid && zid <= nz && rivers[zid] && !m->tile_object[t] && !(m->flags[t] & RMG__T_BLOCKED))
            list[fill[zid]++] = (uint32_t)t;
    }
    for (size_t i = 0; i < nz; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        size_t lo = start[z->id], hi = start[z->id + 1];
        if (rivers[z->id])
            zone_rivers(g, z, list + lo, hi - lo);
    }
    rmg__free(g->ctx, fill);
    rmg__free(g->ctx, start);
    rmg__free(g->ctx, list);
    rmg__free(g->ctx, rivers);
    return RMG_OK;
}
