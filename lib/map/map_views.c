/*
 * Terrain, road and river views of .h3m tiles, the coast bit and terrain smoothing, implemented
 * from the spec (h3m-format.md §13, §13.1, §13.2).
 *
 * A terrain view is found by matching the 3 x 3 neighbourhood of a tile against an ordered list
 * of patterns, each also tried mirrored; the first pattern and mirror that fit give a range of
 * frames and the mirror flags. The patterns and frame ranges are the spec's table, with what the
 * views stored in game-made maps (SoD random map, HotA maps) showed where the table misses them:
 *  - x1 is "T T N / T N / N N T" (the table's row is this turned by 180 degrees: it fits the same
 *    tiles, with the opposite mirror);
 *  - s5's corner cell is both corners beside the transition (top-right and bottom-left), and an s7
 *    neighbour counts there like an s1 one;
 *  - s4 needs its right neighbour to be an s3 and its bottom one an s2 tile and is tried before s6,
 *    which takes every other inner corner;
 *  - mirrors are tried top-bottom before left-right;
 *  - a cell outside the map earns no points (see reference_points);
 *  - roads and rivers connect only to their own type (see connects).
 * With these the recomputed views agree with every stored one of the SoD random map and all but
 * a handful of tiles of the editor-made maps.
 */
#include "map_views.h"

#include <string.h>

#include "rmg/content.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- terrain groups ---------------------------------------------------------------------- */

/* Terrains that share a frame layout. "normal" = grass, snow, swamp, rough, subterranean, lava;
 * "hota" = highlands, wasteland. */
typedef enum view_group { G_NORMAL, G_DIRT, G_SAND, G_WATER, G_ROCK, G_HOTA, G_COUNT } view_group;

static view_group group_of(uint8_t terrain)
{
    switch (terrain) {
    case RMG_TERRAIN_DIRT: return G_DIRT;
    case RMG_TERRAIN_SAND: return G_SAND;
    case RMG_TERRAIN_WATER: return G_WATER;
    case RMG_TERRAIN_ROCK: return G_ROCK;
    case RMG_TERRAIN_HIGHLANDS:
    case RMG_TERRAIN_WASTELAND: return G_HOTA;
    default: return G_NORMAL; /* unknown ids are drawn like the normal terrains */
    }
}

/* Sand, water and rock meet other terrains through a sand border; all others through dirt. */
static bool needs_sand_border(uint8_t terrain)
{
    return terrain == RMG_TERRAIN_SAND || terrain == RMG_TERRAIN_WATER || terrain == RMG_TERRAIN_ROCK;
}

/* ---- the pattern table ------------------------------------------------------------------- */

/* Patterns in the order they are tried (§13.1 has s5 and s6 before s4; the game's maps: s5, s4
 * with its stricter neighbours, then s6). */
enum pattern_id {
    P_X1, P_X2, P_X3, P_X4, P_X5, P_N1,
    P_M1, P_M2, P_M3, P_M4, P_M5, P_M6, P_M7, P_M8,
    P_S2, P_S3, P_S5, P_S4, P_S6, P_S1, P_S7,
    P_COUNT
};

/* One alternative of a cell: what the neighbour must be, and the points it earns (0 or 1; the
 * matcher relies on that). R_REF: the neighbour has the centre's terrain and pattern `ref` fits
 * around it; no referenced pattern has references itself. */
typedef enum rule_kind { R_ANY, R_NATIVE, R_DIRT, R_SAND, R_TRANSITION, R_REF } rule_kind;
typedef struct rule {
    uint8_t kind, ref, points;
} rule;
#define MAX_ALTERNATIVES 4
typedef struct cell_rule {
    uint8_t count;
    rule alt[MAX_ALTERNATIVES];
} cell_rule;
/* Cells in the order top-left, top, top-right, left, right, bottom-left, bottom, bottom-right. */
typedef struct view_pattern {
    uint8_t min_points;
    cell_rule cell[8];
} view_pattern;

#define ALT(kind) {kind, 0, 0}
#define POINT(kind) {kind, 0, 1}
#define REF(pattern) {R_REF, pattern, 1}
#define C_ANY {1, {ALT(R_ANY)}}
#define C_N {1, {ALT(R_NATIVE)}}
#define C_D {1, {ALT(R_DIRT)}}
#define C_S {1, {ALT(R_SAND)}}
#define C_T {1, {ALT(R_TRANSITION)}}
#define C_DN {2, {ALT(R_DIRT), ALT(R_NATIVE)}}
#define C_D1N {2, {POINT(R_DIRT), ALT(R_NATIVE)}}
#define C_S1ANY {2, {POINT(R_SAND), ALT(R_ANY)}}
#define C_D1ANY {2, {POINT(R_DIRT), ALT(R_ANY)}}
#define C_S5_SIDE {4, {REF(P_S6), REF(P_M1), REF(P_M2), ALT(R_NATIVE)}}
#define C_S5_CORNER {4, {ALT(R_ANY), REF(P_X1), REF(P_S1), REF(P_S7)}}
#define C_S4_RIGHT {1, {REF(P_S3)}}
#define C_S4_BOTTOM {1, {REF(P_S2)}}

static const view_pattern PATTERNS[P_COUNT] = {
    [P_X1] = {0, {C_T, C_T, C_N, C_T, C_N, C_N, C_N, C_T}},
    [P_X2] = {0, {C_D, C_D, C_N, C_D, C_N, C_N, C_N, C_S}},
    [P_X3] = {0, {C_S, C_S, C_N, C_S, C_N, C_N, C_N, C_D}},
    [P_X4] = {0, {C_N, C_N, C_S, C_N, C_D, C_S, C_D, C_D}},
    [P_X5] = {0, {C_N, C_N, C_D, C_N, C_D, C_D, C_D, C_S}},
    [P_N1] = {0, {C_N, C_N, C_N, C_N, C_N, C_N, C_N, C_N}},
    [P_M1] = {0, {C_T, C_N, C_N, C_N, C_N, C_N, C_N, C_T}},
    [P_M2] = {0, {C_D, C_N, C_N, C_N, C_N, C_N, C_N, C_S}},
    [P_M3] = {0, {C_N, C_N, C_DN, C_N, C_D, C_S, C_DN, C_DN}},
    [P_M4] = {0, {C_N, C_N, C_S, C_N, C_DN, C_DN, C_D, C_DN}},
    [P_M5] = {0, {C_N, C_N, C_D, C_N, C_D, C_N, C_N, C_S}},
    [P_M6] = {0, {C_N, C_N, C_N, C_N, C_N, C_DN, C_D, C_S}},
    [P_M7] = {1, {C_N, C_N, C_ANY, C_N, C_S, C_D1N, C_D1N, C_ANY}},
    [P_M8] = {1, {C_N, C_N, C_D1N, C_N, C_D1N, C_ANY, C_S, C_ANY}},
    [P_S2] = {0, {C_ANY, C_N, C_N, C_T, C_N, C_ANY, C_N, C_N}},
    [P_S3] = {0, {C_ANY, C_T, C_ANY, C_N, C_N, C_N, C_N, C_N}},
    [P_S5] = {1, {C_T, C_T, C_S5_CORNER, C_T, C_S5_SIDE, C_S5_CORNER, C_S5_SIDE, C_N}},
    [P_S6] = {0, {C_N, C_N, C_N, C_N, C_N, C_N, C_N, C_T}},
    [P_S4] = {2, {C_N, C_N, C_N, C_N, C_S4_RIGHT, C_N, C_S4_BOTTOM, C_T}},
    [P_S1] = {1, {C_ANY, C_S1ANY, C_ANY, C_S1ANY, C_N, C_ANY, C_N, C_N}},
    [P_S7] = {1, {C_ANY, C_D1ANY, C_ANY, C_D1ANY, C_N, C_ANY, C_N, C_N}},
};

/* Frames of a pattern for one terrain group: lo..hi when the transition cells are dirt borders
 * (or the pattern has no choice), sand_lo..sand_hi when they are sand borders. parts > 0: rock's
 * frames per orientation, the range cut into `parts` equal parts indexed by the mirror. */
typedef struct frames {
    uint8_t lo, hi, sand_lo, sand_hi, parts;
} frames;
#define NO_FRAME 0xFF
#define NONE {NO_FRAME, 0, NO_FRAME, 0, 0}
#define F(lo, hi) {lo, hi, NO_FRAME, 0, 0}
#define F2(lo, hi, sand_lo, sand_hi) {lo, hi, sand_lo, sand_hi, 0}
#define ROT(parts, lo, hi) {lo, hi, NO_FRAME, 0, parts}

static const frames FRAMES[P_COUNT][G_COUNT] = {
    /*        normal                dirt        sand       water       rock             hota */
    [P_X1] = {F(73, 74),            F(45, 45),  NONE,      NONE,       NONE,            F(118, 119)},
    [P_X2] = {F(75, 75),            NONE,       NONE,      NONE,       NONE,            F(120, 120)},
    [P_X3] = {F(76, 76),            NONE,       NONE,      NONE,       NONE,            F(121, 121)},
    [P_X4] = {F(77, 77),            NONE,       NONE,      NONE,       NONE,            F(122, 122)},
    [P_X5] = {F(78, 78),            NONE,       NONE,      NONE,       NONE,            F(123, 123)},
    [P_N1] = {F(49, 72),            F(21, 44),  F(0, 23),  F(20, 32),  F(0, 7),         F(77, 117)},
    [P_M1] = {F2(40, 40, 42, 42),   F(20, 20),  NONE,      NONE,       NONE,            F2(68, 68, 70, 70)},
    [P_M2] = {F(41, 41),            NONE,       NONE,      NONE,       NONE,            F(69, 69)},
    [P_M3] = {F(43, 43),            NONE,       NONE,      NONE,       NONE,            F(71, 71)},
    [P_M4] = {F(44, 44),            NONE,       NONE,      NONE,       NONE,            F(72, 72)},
    [P_M5] = {F(45, 45),            NONE,       NONE,      NONE,       NONE,            F(73, 73)},
    [P_M6] = {F(46, 46),            NONE,       NONE,      NONE,       NONE,            F(74, 74)},
    [P_M7] = {F(47, 47),            NONE,       NONE,      NONE,       NONE,            F(75, 75)},
    [P_M8] = {F(48, 48),            NONE,       NONE,      NONE,       NONE,            F(76, 76)},
    [P_S2] = {F2(4, 7, 24, 27),     F(4, 7),    NONE,      F(4, 7),    ROT(2, 16, 19),  F2(6, 13, 40, 47)},
    [P_S3] = {F2(8, 11, 28, 31),    F(8, 11),   NONE,      F(8, 11),   ROT(2, 20, 23),  F2(14, 21, 48, 55)},
    [P_S5] = {F2(16, 17, 36, 37),   F(16, 17),  NONE,      F(16, 17),  ROT(4, 32, 39),  F2(28, 30, 62, 64)},
    [P_S6] = {F2(18, 19, 38, 39),   F(18, 19),  NONE,      F(18, 19),  ROT(4, 40, 47),  F2(31, 33, 65, 67)},
    [P_S4] = {F2(12, 15, 32, 35),   F(12, 15),  NONE,      F(12, 15),  ROT(4, 24, 31),  F2(22, 27, 56, 61)},
    [P_S1] = {F(20, 23),            F(0, 3),    NONE,      F(0, 3),    ROT(4, 8, 15),   F(34, 39)},
    [P_S7] = {F(0, 3),              NONE,       NONE,      NONE,       ROT(4, 8, 15),   F(0, 5)},
};

/* Interior frames (pattern n1) to choose from: plain ones, and decorated ones on about one tile in
 * four (normal terrains, sand) or five (dirt, hota), as the game's maps use them; water interiors
 * in game maps are 21-32 although the pattern allows 20. */
typedef struct interior_frames {
    uint8_t lo, hi, decorated_lo, decorated_hi;
    uint8_t decorated_per_256;
} interior_frames;
static const interior_frames INTERIOR[G_COUNT] = {
    [G_NORMAL] = {49, 56, 57, 72, 64}, [G_DIRT] = {21, 28, 29, 44, 51}, [G_SAND] = {0, 7, 8, 23, 64},
    [G_WATER] = {21, 32, 0, 0, 0},     [G_ROCK] = {0, 7, 0, 0, 0},      [G_HOTA] = {77, 101, 102, 117, 51},
};

/* Dirt's x1 frame (45) does not exist in SoD. */
static bool pattern_exists(view_group g, int pattern, bool hota)
{
    if (pattern == P_X1 && g == G_DIRT && !hota)
        return false;
    return FRAMES[pattern][g].lo != NO_FRAME;
}

/* ---- classifying the neighbours ---------------------------------------------------------- */

/* Neighbour cells in table order and, per mirror (1 left-right, 2 top-bottom, 3 both), the map
 * cell where a pattern cell lands. */
static const int8_t CELL_DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int8_t CELL_DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const uint8_t MIRRORED_CELL[4][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {2, 1, 0, 4, 3, 7, 6, 5}, {5, 6, 7, 3, 4, 0, 1, 2}, {7, 6, 5, 4, 3, 2, 1, 0}};

/* The mirrors in the order they are tried: top-bottom before left-right, as the game's maps show
 * where both fit (m1). */
static const int FLIP_ORDER[4] = {0, 2, 1, 3};

/* What a neighbour is relative to the centre, as bits: the rules it satisfies, and whether it has
 * the centre's terrain inside the map (where a pattern reference may look at it) or is outside. */
enum { K_NATIVE = 1, K_DIRT = 2, K_SAND = 4, K_SAME = 8, K_OUTSIDE = 16 };

/* Centres with a terrain id below this get their neighbours' kinds from a table. */
#define KIND_TABLE_IDS 16

/* What the matcher prepares once per call, so that most tiles need no full pattern check:
 *  - accept: per pattern and mirror (in FLIP_ORDER), byte c = the kinds map cell c may have if the
 *    pattern is to fit;
 *  - candidates: per terrain group and set of border cells (bit c: neighbour c is not native),
 *    the patterns that may fit a tile with all its neighbours inside the map;
 *  - exists: per group, the patterns it has (in this format);
 *  - kinds: per centre and neighbour terrain, the kinds of a neighbour inside the map;
 *  - tests: per pattern cell, its alternatives other than references as masks of kinds. */
typedef struct cell_test {
    uint8_t fits;     /* kinds some plain (not transition, not reference) alternative accepts */
    uint8_t scores;   /* kinds some plain alternative worth a point accepts */
    bool transition;  /* the cell is a transition (T) cell */
    bool references;  /* some alternative is a reference */
} cell_test;
typedef struct matcher {
    cell_test tests[P_COUNT][8];
    uint64_t accept[P_COUNT][4];
    uint32_t candidates[G_COUNT][256];
    uint32_t exists[G_COUNT];
    uint8_t kinds[KIND_TABLE_IDS][256];
} matcher;

/* One level of the map as the matcher reads it. */
typedef struct level_map {
    const uint8_t *terrain;
    int w, h;
    const matcher *tables;
} level_map;

static uint8_t terrain_at(const level_map *m, int x, int y)
{
    return m->terrain[(size_t)y * (size_t)m->w + (size_t)x];
}

static bool inside(const level_map *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m->w && y < m->h;
}

/* A cell outside the map stands for the tile inside next to it along the axis it left by (a cell
 * outside on both axes for the centre); it is never alien. */
static uint8_t outside_terrain(const level_map *m, int x, int y, uint8_t centre)
{
    bool out_x = x < 0 || x >= m->w, out_y = y < 0 || y >= m->h;
    if (out_x && out_y)
        return centre;
    if (out_x)
        return terrain_at(m, x < 0 ? 0 : m->w - 1, y);
    return terrain_at(m, x, y < 0 ? 0 : m->h - 1);
}

static uint8_t cell_kinds(uint8_t centre, uint8_t other, bool in_map)
{
    bool alien = in_map && other != centre, sandy = needs_sand_border(other);
    uint8_t k = in_map ? (alien ? 0 : K_SAME) : K_OUTSIDE;
    switch (group_of(centre)) {
    case G_SAND: /* sand accepts everything */
        return (uint8_t)(k | K_NATIVE | K_DIRT | K_SAND);
    case G_DIRT: /* every terrain without a sand border is native to dirt */
        if (!alien || !sandy)
            k |= K_NATIVE;
        if (sandy)
            k |= K_SAND;
        return k;
    case G_WATER:
    case G_ROCK: /* every alien neighbour is a sand border */
        return (uint8_t)(k | (alien ? K_SAND : K_NATIVE));
    default:
        if (!alien)
            k |= K_NATIVE;
        else if (!sandy)
            k |= K_DIRT;
        if (sandy)
            k |= K_SAND;
        return k;
    }
}

/* A tile and its 8 neighbours, classified. */
typedef struct centre {
    int x, y;
    uint8_t terrain;
    view_group group;
    bool at_edge;    /* some neighbour lies outside the map */
    uint8_t borders; /* bit c: neighbour c is not native */
    uint8_t kinds[8];
    uint64_t packed; /* kinds[] as one word (the byte order in memory; accept masks likewise) */
} centre;

/* The terrains of the 8 neighbours; outside the map, the terrain the cell stands for. */
static void neighbour_terrains8(const level_map *m, const centre *c, uint8_t *out)
{
    if (!c->at_edge) {
        size_t w = (size_t)m->w;
        const uint8_t *at = m->terrain + (size_t)c->y * w + (size_t)c->x;
        const uint8_t *up = at - w, *down = at + w;
        out[0] = up[-1], out[1] = up[0], out[2] = up[1], out[3] = at[-1];
        out[4] = at[1], out[5] = down[-1], out[6] = down[0], out[7] = down[1];
        return;
    }
    for (int i = 0; i < 8; i++) {
        int nx = c->x + CELL_DX[i], ny = c->y + CELL_DY[i];
        out[i] = inside(m, nx, ny) ? terrain_at(m, nx, ny) : outside_terrain(m, nx, ny, c->terrain);
    }
}

/* The kinds of the 8 neighbours of c (their terrains in `others`). */
static void neighbour_kinds8(const level_map *m, const centre *c, const uint8_t *others, uint8_t *kinds)
{
    if (!c->at_edge && c->terrain < KIND_TABLE_IDS) {
        const uint8_t *table = m->tables->kinds[c->terrain];
        for (int i = 0; i < 8; i++)
            kinds[i] = table[others[i]];
        return;
    }
    for (int i = 0; i < 8; i++)
        kinds[i] = cell_kinds(c->terrain, others[i], inside(m, c->x + CELL_DX[i], c->y + CELL_DY[i]));
}

static void centre_load(const level_map *m, int x, int y, centre *c)
{
    uint8_t others[8];
    unsigned borders = 0;
    c->x = x;
    c->y = y;
    c->terrain = terrain_at(m, x, y);
    c->group = group_of(c->terrain);
    c->at_edge = x < 1 || y < 1 || x >= m->w - 1 || y >= m->h - 1;
    neighbour_terrains8(m, c, others);
    neighbour_kinds8(m, c, others, c->kinds);
    for (int i = 0; i < 8; i++)
        borders |= (~c->kinds[i] & K_NATIVE) << i;
    memcpy(&c->packed, c->kinds, sizeof c->packed);
    c->borders = (uint8_t)borders;
}

/* Every neighbour native and none a border: only the interior pattern can fit (the x patterns
 * before it need border cells). */
static bool all_native(const centre *c)
{
    for (int i = 0; i < 8; i++)
        if ((c->kinds[i] & (K_NATIVE | K_DIRT | K_SAND)) != K_NATIVE)
            return false;
    return true;
}

/* ---- the matcher's tables ---------------------------------------------------------------- */

/* The kinds a cell may have to satisfy some alternative of a pattern cell. */
static uint8_t cell_accepts(const cell_rule *rule_set)
{
    uint8_t accepts = 0;
    for (int a = 0; a < rule_set->count; a++)
        switch (rule_set->alt[a].kind) {
        case R_ANY: accepts |= 0xFF; break;
        case R_NATIVE: accepts |= K_NATIVE; break;
        case R_DIRT: accepts |= K_DIRT; break;
        case R_SAND: accepts |= K_SAND; break;
        case R_TRANSITION: accepts |= K_DIRT | K_SAND; break;
        default: accepts |= K_SAME | K_OUTSIDE; break;
        }
    return accepts;
}

/* Some byte of x is zero (the classic bit trick), i.e. some cell has no acceptable kind. */
static bool has_zero_byte(uint64_t x)
{
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

/* The cells (bit c) where a pattern mirror accepts any of `kinds`. */
static unsigned cells_accepting(uint64_t accept, uint8_t kinds)
{
    uint8_t bytes[8];
    unsigned cells = 0;
    memcpy(bytes, &accept, sizeof bytes);
    for (int c = 0; c < 8; c++)
        if (bytes[c] & kinds)
            cells |= 1u << c;
    return cells;
}

/* A pattern cell's alternatives other than references as masks (their points are 0 or 1). */
static cell_test cell_test_of(const cell_rule *rule_set)
{
    cell_test t = {0, 0, false, false};
    for (int a = 0; a < rule_set->count; a++) {
        const rule *r = &rule_set->alt[a];
        uint8_t kinds = r->kind == R_ANY ? 0xFF : r->kind == R_NATIVE ? K_NATIVE : r->kind == R_DIRT ? K_DIRT
                                                : r->kind == R_SAND ? K_SAND : 0;
        t.transition |= r->kind == R_TRANSITION;
        t.references |= r->kind == R_REF;
        t.fits |= kinds;
        if (r->points)
            t.scores |= kinds;
    }
    return t;
}

static void matcher_init(matcher *mt, bool hota)
{
    for (int p = 0; p < P_COUNT; p++)
        for (int j = 0; j < 8; j++)
            mt->tests[p][j] = cell_test_of(&PATTERNS[p].cell[j]);
    for (int p = 0; p < P_COUNT; p++)
        for (int k = 0; k < 4; k++) {
            uint8_t bytes[8];
            for (int j = 0; j < 8; j++)
                bytes[MIRRORED_CELL[FLIP_ORDER[k]][j]] = cell_accepts(&PATTERNS[p].cell[j]);
            memcpy(&mt->accept[p][k], bytes, sizeof bytes);
        }
    for (int g = 0; g < G_COUNT; g++) {
        mt->exists[g] = 0;
        for (int p = 0; p < P_COUNT; p++)
            if (pattern_exists((view_group)g, p, hota))
                mt->exists[g] |= 1u << p;
        for (unsigned borders = 0; borders < 256; borders++)
            mt->candidates[g][borders] = 0;
        for (int p = 0; p < P_COUNT; p++)
            for (int k = 0; k < 4 && (mt->exists[g] & (1u << p)); k++) {
                /* inside the map a neighbour is either native or a border */
                unsigned native_ok = cells_accepting(mt->accept[p][k], K_NATIVE | K_SAME);
                unsigned border_ok = cells_accepting(mt->accept[p][k], K_DIRT | K_SAND);
                for (unsigned borders = 0; borders < 256; borders++)
                    if (!(borders & ~border_ok) && !(~borders & 0xFFu & ~native_ok))
                        mt->candidates[g][borders] |= 1u << p;
            }
    }
    for (int c = 0; c < KIND_TABLE_IDS; c++)
        for (int o = 0; o < 256; o++)
            mt->kinds[c][o] = cell_kinds((uint8_t)c, (uint8_t)o, true);
}

/* ---- matching ---------------------------------------------------------------------------- */

/* The kind of border the transition (T) cells of one match turned out to be: all must agree. */
enum { BORDER_NONE, BORDER_DIRT, BORDER_SAND };

typedef struct match {
    int pattern, flip, border;
} match;

static bool fits_some_mirror(const level_map *m, const centre *c, int pattern, int depth, match *out);

/* A transition cell: dirt or sand border, the same kind as the pattern's other transition cells. */
static bool transition_fits(uint8_t kinds, int *border)
{
    bool dirt = (kinds & K_DIRT) != 0, sand = (kinds & K_SAND) != 0;
    if (*border == BORDER_NONE && (dirt || sand))
        *border = dirt ? BORDER_DIRT : BORDER_SAND;
    return (dirt && *border == BORDER_DIRT) || (sand && *border == BORDER_SAND);
}

/* The best points the alternatives of a pattern cell other than references earn, -1 when none
 * fits. */
static int plain_points(const cell_test *t, uint8_t kinds, int *border)
{
    if (t->transition)
        return transition_fits(kinds, border) ? 0 : -1;
    if (!(kinds & t->fits))
        return -1;
    return (kinds & t->scores) ? 1 : 0;
}

/* The points the references of a pattern cell earn, -1 when none fits. A reference ("the neighbour
 * has the centre's terrain and is itself an X tile") is looked at one level deep, every reference
 * of the cell against one look at the neighbour; all are worth one point, so the first that fits
 * decides. A cell outside the map, or a reference inside a reference, only counts as native and
 * earns nothing (at the map's edge the game's maps show s1 corners where points from outside
 * would give s5). */
static int reference_points(const level_map *m, const centre *c, const cell_rule *rule_set, int cell, int depth)
{
    uint8_t kinds = c->kinds[cell];
    bool loaded = false;
    centre next;
    match unused;
    if (depth > 0 || (kinds & K_OUTSIDE))
        return (kinds & K_NATIVE) ? 0 : -1;
    if (!(kinds & K_SAME))
        return -1;
    for (int a = 0; a < rule_set->count; a++) {
        const rule *r = &rule_set->alt[a];
        if (r->kind != R_REF || !(m->tables->exists[c->group] & (1u << r->ref)))
            continue;
        if (!loaded) {
            centre_load(m, c->x + CELL_DX[cell], c->y + CELL_DY[cell], &next);
            loaded = true;
        }
        if (fits_some_mirror(m, &next, r->ref, depth + 1, &unused))
            return r->points;
    }
    return -1;
}

/* References cost a look at the neighbour's own neighbourhood, so they are looked at last: where a
 * cell needs one, and otherwise only while the pattern still lacks points. */
static bool fits_mirrored(const level_map *m, const centre *c, int pattern, int flip, int depth, int *border)
{
    const view_pattern *p = &PATTERNS[pattern];
    const cell_test *tests = m->tables->tests[pattern];
    int total = 0, points[8];
    unsigned looked = 0;
    *border = BORDER_NONE;
    for (int j = 0; j < 8; j++) {
        int cell = MIRRORED_CELL[flip][j];
        points[j] = plain_points(&tests[j], c->kinds[cell], border);
        if (points[j] < 0) {
            points[j] = reference_points(m, c, &p->cell[j], cell, depth);
            looked |= 1u << j;
            if (points[j] < 0)
                return false;
        }
        total += points[j];
    }
    for (int j = 0; j < 8 && total < p->min_points; j++) {
        if ((looked & (1u << j)) || !tests[j].references)
            continue;
        int more = reference_points(m, c, &p->cell[j], MIRRORED_CELL[flip][j], depth);
        if (more > points[j])
            total += more - points[j];
    }
    return total >= p->min_points;
}

static bool fits_some_mirror(const level_map *m, const centre *c, int pattern, int depth, match *out)
{
    const uint64_t *accept = m->tables->accept[pattern];
    for (int k = 0; k < 4; k++) {
        int flip = FLIP_ORDER[k];
        if (has_zero_byte(c->packed & accept[k]))
            continue;
        if (fits_mirrored(m, c, pattern, flip, depth, &out->border)) {
            out->pattern = pattern;
            out->flip = flip;
            return true;
        }
    }
    return false;
}

/* Inside the map with all 8 neighbours of its own terrain: most tiles, recognised cheaply. */
static bool uniform_inside(const level_map *m, int x, int y)
{
    if (x < 1 || y < 1 || x >= m->w - 1 || y >= m->h - 1)
        return false;
    size_t w = (size_t)m->w;
    const uint8_t *row = m->terrain + (size_t)y * w + (size_t)x, own = *row;
    const uint8_t *up = row - w, *down = row + w;
    return up[-1] == own && up[0] == own && up[1] == own && row[-1] == own && row[1] == own && down[-1] == own &&
           down[0] == own && down[1] == own;
}

/* The first pattern and mirror that fit the tile at (x, y); false when none does. */
static bool match_tile(const level_map *m, int x, int y, match *out)
{
    centre c;
    if (uniform_inside(m, x, y)) {
        *out = (match){P_N1, 0, BORDER_NONE};
        return true;
    }
    centre_load(m, x, y, &c);
    if (c.group == G_SAND || all_native(&c)) {
        *out = (match){P_N1, 0, BORDER_NONE};
        return true;
    }
    uint32_t may = c.at_edge ? m->tables->exists[c.group] : m->tables->candidates[c.group][c.borders];
    for (int p = 0; may; p++, may >>= 1)
        if ((may & 1) && fits_some_mirror(m, &c, p, 0, out))
            return true;
    return false;
}

/* ---- frames ------------------------------------------------------------------------------ */

/* The frames a match allows and the mirror bits that go with them. */
static rmg__map_view_range match_range(view_group g, const match *mt)
{
    const frames *f = &FRAMES[mt->pattern][g];
    rmg__map_view_range r = {f->lo, f->hi, (uint8_t)mt->flip, true};
    if (mt->border == BORDER_SAND && f->sand_lo != NO_FRAME) {
        r.lo = f->sand_lo;
        r.hi = f->sand_hi;
    }
    if (f->parts) { /* rock: a part of the range per orientation, never mirrored */
        int part = (f->parts == 2 && mt->flip == 2) ? 1 : mt->flip;
        int per_part = (f->hi - f->lo + 1) / f->parts;
        r.lo = (uint8_t)(f->lo + part * per_part);
        r.hi = (uint8_t)(r.lo + per_part - 1);
        r.flip = 0;
    }
    return r;
}

/* The same bytes on every platform: the tile index as 4 bytes little-endian, hashed with the seed
 * mixed with a salt per use. */
static uint64_t tile_hash(uint64_t seed, size_t tile, uint64_t salt)
{
    uint8_t bytes[4]; /* a map has at most 2 x 256 x 256 tiles */
    for (int i = 0; i < 4; i++)
        bytes[i] = (uint8_t)((uint64_t)tile >> (8 * i));
    return XXH3_64bits_withSeed(bytes, sizeof bytes, seed ^ salt);
}

static uint8_t pick_in(uint8_t lo, uint8_t hi, uint64_t hash)
{
    return (uint8_t)(lo + hash % (uint64_t)(hi - lo + 1));
}

static uint8_t interior_frame(view_group g, uint64_t hash)
{
    const interior_frames *f = &INTERIOR[g];
    if (((hash >> 48) & 0xFF) < f->decorated_per_256)
        return pick_in(f->decorated_lo, f->decorated_hi, hash);
    return pick_in(f->lo, f->hi, hash);
}

/* Per use, so that terrain, road and river frames vary independently. */
#define SALT_TERRAIN 0x7465727261696E00ull /* "terrain" */
#define SALT_ROAD 0x726F616400000000ull    /* "road" */
#define SALT_RIVER 0x7269766572000000ull   /* "river" */

/* A non-water tile with water among its 8 neighbours inside the map. */
static bool is_coast(const level_map *m, int x, int y)
{
    if (terrain_at(m, x, y) == RMG_TERRAIN_WATER)
        return false;
    for (int ny = RMG__MAX(y - 1, 0); ny <= RMG__MIN(y + 1, m->h - 1); ny++) {
        const uint8_t *row = m->terrain + (size_t)ny * (size_t)m->w;
        for (int nx = RMG__MAX(x - 1, 0); nx <= RMG__MIN(x + 1, m->w - 1); nx++)
            if (row[nx] == RMG_TERRAIN_WATER)
                return true;
    }
    return false;
}

static size_t level_size(int w, int h)
{
    return (size_t)w * (size_t)h;
}

/* Calls visit for every tile, level by level, row by row, with the matcher made for the format. */
typedef void (*tile_visit)(const level_map *m, int x, int y, size_t tile, void *user);

static void visit_tiles_with(const matcher *tables, const uint8_t *terrain, int w, int h, int levels, tile_visit visit,
                             void *user)
{
    size_t plane = level_size(w, h);
    for (int z = 0; z < levels; z++) {
        level_map m = {terrain + (size_t)z * plane, w, h, tables};
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                visit(&m, x, y, (size_t)z * plane + (size_t)y * (size_t)w + (size_t)x, user);
    }
}

static void visit_tiles(const uint8_t *terrain, int w, int h, int levels, bool hota, tile_visit visit, void *user)
{
    matcher tables;
    matcher_init(&tables, hota);
    visit_tiles_with(&tables, terrain, w, h, levels, visit, user);
}

/* The match of a tile; one no pattern fits is drawn as an interior tile (returns false). */
static bool tile_match(const level_map *m, int x, int y, match *out)
{
    if (match_tile(m, x, y, out))
        return true;
    *out = (match){P_N1, 0, BORDER_NONE};
    return false;
}

typedef struct view_output {
    uint64_t seed;
    uint8_t *view, *flags;
} view_output;

static void choose_view(const level_map *m, int x, int y, size_t t, void *user)
{
    view_output *o = user;
    view_group g = group_of(terrain_at(m, x, y));
    uint64_t hash = tile_hash(o->seed, t, SALT_TERRAIN);
    uint8_t flip = 0, kept = (uint8_t)(o->flags[t] & ~(RMG__VIEW_FLAG_TERRAIN_FLIP | RMG__VIEW_FLAG_COAST));
    match mt;
    if (uniform_inside(m, x, y)) { /* most tiles: an interior, and no coast */
        o->view[t] = interior_frame(g, hash);
        o->flags[t] = kept;
        return;
    }
    tile_match(m, x, y, &mt);
    if (mt.pattern == P_N1) {
        o->view[t] = interior_frame(g, hash);
    } else {
        rmg__map_view_range r = match_range(g, &mt);
        o->view[t] = pick_in(r.lo, r.hi, hash);
        flip = r.flip;
    }
    o->flags[t] = (uint8_t)(kept | flip | (is_coast(m, x, y) ? RMG__VIEW_FLAG_COAST : 0));
}

void rmg__map_terrain_views(const uint8_t *terrain, int w, int h, int levels, bool hota, uint64_t seed, uint8_t *view,
                            uint8_t *flags)
{
    view_output o = {seed, view, flags};
    visit_tiles(terrain, w, h, levels, hota, choose_view, &o);
}

static void store_range(const level_map *m, int x, int y, size_t t, void *user)
{
    rmg__map_view_range *out = user;
    match mt;
    bool fits = tile_match(m, x, y, &mt);
    out[t] = match_range(group_of(terrain_at(m, x, y)), &mt);
    out[t].fits = fits;
}

void rmg__map_terrain_view_ranges(const uint8_t *terrain, int w, int h, int levels, bool hota,
                                  rmg__map_view_range *out)
{
    visit_tiles(terrain, w, h, levels, hota, store_range, out);
}

/* ---- roads and rivers (§13.2) ------------------------------------------------------------ */

/* Frames of a road or river tile by which of its 4 neighbours carry one (bit 0 up, 1 right, 2 down,
 * 3 left). A turn uses diagonal_lo..hi instead when a diagonal tile in `diagonals` (bit 0 up-right,
 * 1 down-right, 2 down-left, 3 up-left) carries one too. */
typedef struct line_view {
    uint8_t lo, hi, flip, diagonal_lo, diagonal_hi, diagonals;
} line_view;
enum { UP = 1, RIGHT = 2, DOWN = 4, LEFT = 8 };
enum { UP_RIGHT = 1, DOWN_RIGHT = 2, DOWN_LEFT = 4, UP_LEFT = 8 };

static const line_view ROAD_VIEWS[16] = {
    [0] = {14, 14, 2, 0, 0, 0},
    [DOWN] = {14, 14, 0, 0, 0, 0},
    [UP] = {14, 14, 2, 0, 0, 0},
    [RIGHT] = {15, 15, 0, 0, 0, 0},
    [LEFT] = {15, 15, 1, 0, 0, 0},
    [UP | DOWN] = {10, 11, 0, 0, 0, 0},
    [RIGHT | LEFT] = {12, 13, 0, 0, 0, 0},
    [RIGHT | DOWN] = {0, 1, 0, 2, 5, UP_RIGHT | DOWN_LEFT},
    [DOWN | LEFT] = {0, 1, 1, 2, 5, UP_LEFT | DOWN_RIGHT},
    [UP | RIGHT] = {0, 1, 2, 2, 5, DOWN_RIGHT | UP_LEFT},
    [UP | LEFT] = {0, 1, 3, 2, 5, DOWN_LEFT | UP_RIGHT},
    [UP | RIGHT | DOWN] = {6, 7, 0, 0, 0, 0},
    [UP | DOWN | LEFT] = {6, 7, 1, 0, 0, 0},
    [RIGHT | DOWN | LEFT] = {8, 9, 0, 0, 0, 0},
    [UP | RIGHT | LEFT] = {8, 9, 2, 0, 0, 0},
    [UP | RIGHT | DOWN | LEFT] = {16, 16, 0, 0, 0, 0},
};

static const line_view RIVER_VIEWS[16] = {
    [0] = {9, 10, 0, 0, 0, 0},
    [DOWN] = {9, 10, 0, 0, 0, 0},
    [UP] = {9, 10, 0, 0, 0, 0},
    [RIGHT] = {11, 12, 0, 0, 0, 0},
    [LEFT] = {11, 12, 0, 0, 0, 0},
    [UP | DOWN] = {9, 10, 0, 0, 0, 0},
    [RIGHT | LEFT] = {11, 12, 0, 0, 0, 0},
    [RIGHT | DOWN] = {0, 3, 0, 0, 0, 0},
    [DOWN | LEFT] = {0, 3, 1, 0, 0, 0},
    [UP | RIGHT] = {0, 3, 2, 0, 0, 0},
    [UP | LEFT] = {0, 3, 3, 0, 0, 0},
    [UP | RIGHT | DOWN] = {7, 8, 0, 0, 0, 0},
    [UP | DOWN | LEFT] = {7, 8, 1, 0, 0, 0},
    [RIGHT | DOWN | LEFT] = {5, 6, 0, 0, 0, 0},
    [UP | RIGHT | LEFT] = {5, 6, 2, 0, 0, 0},
    [UP | RIGHT | DOWN | LEFT] = {4, 4, 0, 0, 0, 0},
};

/* One level of a road or river layer (0 = none). */
typedef struct line_layer {
    const uint8_t *type;
    int w, h;
} line_layer;

/* Only a road (river) of the same type connects: where two types meet, the game's maps end each
 * with a dead end. */
static bool connects(const line_layer *l, int x, int y, uint8_t type)
{
    return x >= 0 && y >= 0 && x < l->w && y < l->h && l->type[(size_t)y * (size_t)l->w + (size_t)x] == type;
}

static int line_neighbours(const line_layer *l, int x, int y, uint8_t type)
{
    return (connects(l, x, y - 1, type) ? UP : 0) | (connects(l, x + 1, y, type) ? RIGHT : 0) |
           (connects(l, x, y + 1, type) ? DOWN : 0) | (connects(l, x - 1, y, type) ? LEFT : 0);
}

static int line_diagonals(const line_layer *l, int x, int y, uint8_t type)
{
    return (connects(l, x + 1, y - 1, type) ? UP_RIGHT : 0) | (connects(l, x + 1, y + 1, type) ? DOWN_RIGHT : 0) |
           (connects(l, x - 1, y + 1, type) ? DOWN_LEFT : 0) | (connects(l, x - 1, y - 1, type) ? UP_LEFT : 0);
}

/* The frames and mirror of the road or river tile at (x, y). */
static rmg__map_view_range line_range(const line_layer *l, const line_view *table, int x, int y)
{
    uint8_t type = l->type[(size_t)y * (size_t)l->w + (size_t)x];
    const line_view *v = &table[line_neighbours(l, x, y, type)];
    if (line_diagonals(l, x, y, type) & v->diagonals)
        return (rmg__map_view_range){v->diagonal_lo, v->diagonal_hi, v->flip, true};
    return (rmg__map_view_range){v->lo, v->hi, v->flip, true};
}

static void line_views(const uint8_t *type, int w, int h, int levels, uint64_t seed, const line_view *table,
                       uint8_t flip_mask, int flip_shift, uint64_t salt, uint8_t *view, uint8_t *flags)
{
    size_t plane = level_size(w, h);
    for (int z = 0; z < levels; z++) {
        line_layer l = {type + (size_t)z * plane, w, h};
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                size_t t = (size_t)z * plane + (size_t)y * (size_t)w + (size_t)x;
                rmg__map_view_range r = {0, 0, 0, false};
                view[t] = 0;
                if (type[t]) {
                    r = line_range(&l, table, x, y);
                    view[t] = pick_in(r.lo, r.hi, tile_hash(seed, t, salt));
                }
                flags[t] = (uint8_t)((flags[t] & ~flip_mask) | (r.flip << flip_shift));
            }
    }
}

bool rmg__map_line_view_range(const uint8_t *type, int w, int h, bool river, size_t tile, rmg__map_view_range *out)
{
    size_t plane = level_size(w, h), z = tile / plane, rest = tile % plane;
    line_layer l = {type + z * plane, w, h};
    if (!type[tile])
        return false;
    *out = line_range(&l, river ? RIVER_VIEWS : ROAD_VIEWS, (int)(rest % (size_t)w), (int)(rest / (size_t)w));
    return true;
}

void rmg__map_road_views(const uint8_t *road, int w, int h, int levels, uint64_t seed, uint8_t *view,
                         uint8_t *flags)
{
    line_views(road, w, h, levels, seed, ROAD_VIEWS, RMG__VIEW_FLAG_ROAD_FLIP, 4, SALT_ROAD, view, flags);
}

void rmg__map_river_views(const uint8_t *river, int w, int h, int levels, uint64_t seed, uint8_t *view,
                          uint8_t *flags)
{
    line_views(river, w, h, levels, seed, RIVER_VIEWS, RMG__VIEW_FLAG_RIVER_FLIP, 2, SALT_RIVER, view, flags);
}

/* ---- unfit tiles and smoothing ----------------------------------------------------------- */

/* Judged without dirt's x1, which SoD lacks: a tile that fits here fits in both formats. */
static bool tile_fits(const level_map *m, int x, int y)
{
    match unused;
    return match_tile(m, x, y, &unused);
}

typedef struct unfit_list {
    uint32_t *out;
    size_t cap, count;
    int only;            /* a terrain id: only its tiles are judged; -1 every tile */
} unfit_list;

static void list_unfit(const level_map *m, int x, int y, size_t t, void *user)
{
    unfit_list *l = user;
    if ((l->only >= 0 && terrain_at(m, x, y) != l->only) || tile_fits(m, x, y))
        return;
    if (l->count < l->cap)
        l->out[l->count] = (uint32_t)t;
    l->count++;
}

size_t rmg__map_unfit_tiles(const uint8_t *terrain, int w, int h, int levels, uint32_t *out, size_t cap)
{
    return rmg__map_unfit_tiles_of(terrain, w, h, levels, -1, out, cap);
}

size_t rmg__map_unfit_tiles_of(const uint8_t *terrain, int w, int h, int levels, int only, uint32_t *out, size_t cap)
{
    unfit_list l = {out, cap, 0, only};
    visit_tiles(terrain, w, h, levels, false, list_unfit, &l);
    return l.count;
}

/* The SoD pattern tables, built once for a caller that judges many times. */
struct rmg__map_fit {
    matcher tables;
};

rmg__map_fit *rmg__map_fit_new(rmg_context *ctx)
{
    rmg__map_fit *f = rmg__malloc(ctx, sizeof *f);
    if (f)
        matcher_init(&f->tables, false);
    return f;
}

void rmg__map_fit_free(rmg_context *ctx, rmg__map_fit *f)
{
    rmg__free(ctx, f);
}

size_t rmg__map_fit_unfit_of(const rmg__map_fit *f, const uint8_t *terrain, int w, int h, int levels, int only,
                             uint32_t *out, size_t cap)
{
    unfit_list l = {out, cap, 0, only};
    visit_tiles_with(&f->tables, terrain, w, h, levels, list_unfit, &l);
    return l.count;
}

size_t rmg__map_fit_unfit_among(const rmg__map_fit *f, const uint8_t *terrain, int w, int h, const uint32_t *tiles,
                                size_t n, uint32_t *out, size_t cap)
{
    size_t plane = level_size(w, h), count = 0;
    for (size_t i = 0; i < n; i++) {
        size_t z = tiles[i] / plane, rest = tiles[i] % plane;
        level_map m = {terrain + z * plane, w, h, &f->tables};
        if (tile_fits(&m, (int)(rest % (size_t)w), (int)(rest / (size_t)w)))
            continue;
        if (count < cap)
            out[count] = tiles[i];
        count++;
    }
    return count;
}

/* Where heroes walk and boats sail: land, water or rock. */
typedef enum passage { PASS_LAND, PASS_WATER, PASS_ROCK } passage;

static passage passage_of(uint8_t terrain)
{
    return terrain == RMG_TERRAIN_WATER ? PASS_WATER : terrain == RMG_TERRAIN_ROCK ? PASS_ROCK : PASS_LAND;
}

/* One level of the map being smoothed. */
typedef struct smooth_level {
    uint8_t *terrain;
    const uint8_t *keep; /* NULL: nothing locked */
    level_map map;       /* the same terrain, read by the matcher */
} smooth_level;

static bool locked(const smooth_level *s, size_t i)
{
    return s->keep && s->keep[i];
}

/* The change rule. A locked tile never changes. Between two land terrains an unlocked tile may
 * change freely. A change into or out of water or rock moves a coast or a rock face, so it also
 * needs that body to be free around the tile: no locked neighbour may be water (rock) when the tile
 * leaves or joins the water (rock). A caller that locks its water and rock tiles thus keeps every
 * shore and rock face exactly where it put them. */
static bool may_become(const smooth_level *s, int x, int y, uint8_t to)
{
    const level_map *m = &s->map;
    size_t i = (size_t)y * (size_t)m->w + (size_t)x;
    passage from = passage_of(s->terrain[i]), into = passage_of(to);
    if (locked(s, i))
        return false;
    if (from == into)
        return true;
    for (int c = 0; c < 8; c++) {
        int nx = x + CELL_DX[c], ny = y + CELL_DY[c];
        if (!inside(m, nx, ny) || !locked(s, (size_t)ny * (size_t)m->w + (size_t)nx))
            continue;
        passage p = passage_of(terrain_at(m, nx, ny));
        if ((p == from && from != PASS_LAND) || (p == into && into != PASS_LAND))
            return false;
    }
    return true;
}

/* The other terrains among the tile's neighbours inside the map, most frequent first (ties: lower
 * terrain id first). Returns how many. */
static int other_terrains_by_count(const level_map *m, int x, int y, uint8_t *order)
{
    uint8_t seen[8], count[8];
    int n = 0;
    uint8_t own = terrain_at(m, x, y);
    for (int c = 0; c < 8; c++) {
        int nx = x + CELL_DX[c], ny = y + CELL_DY[c];
        if (!inside(m, nx, ny) || terrain_at(m, nx, ny) == own)
            continue;
        uint8_t t = terrain_at(m, nx, ny);
        int k = 0;
        while (k < n && seen[k] != t)
            k++;
        if (k == n) {
            seen[n] = t;
            count[n++] = 0;
        }
        count[k]++;
    }
    for (int i = 0; i < n; i++) { /* insertion sort: at most 8 */
        uint8_t t = seen[i], c = count[i];
        int j = i;
        for (; j > 0 && (count[j - 1] < c || (count[j - 1] == c && seen[j - 1] > t)); j--) {
            seen[j] = seen[j - 1];
            count[j] = count[j - 1];
        }
        seen[j] = t;
        count[j] = c;
    }
    for (int i = 0; i < n; i++)
        order[i] = seen[i];
    return n;
}

/* The terrain an unfit tile takes: the most frequent neighbouring terrain the change rule allows
 * that makes the tile fit, else the most frequent allowed one; -1 when none is allowed. */
static int majority_terrain(smooth_level *s, int x, int y)
{
    size_t i = (size_t)y * (size_t)s->map.w + (size_t)x;
    uint8_t own = s->terrain[i], order[8];
    int n = other_terrains_by_count(&s->map, x, y, order), first_allowed = -1;
    for (int k = 0; k < n; k++) {
        if (!may_become(s, x, y, order[k]))
            continue;
        if (first_allowed < 0)
            first_allowed = order[k];
        s->terrain[i] = order[k];
        bool fits = tile_fits(&s->map, x, y);
        s->terrain[i] = own;
        if (fits)
            return order[k];
    }
    return first_allowed;
}

/* The replacement for an unfit tile: by majority in the first passes, later sand, which fits in
 * any neighbourhood and so ends the smoothing (see rmg__map_smooth_terrain). */
static int replacement(smooth_level *s, int x, int y, bool sand_only)
{
    if (!sand_only)
        return majority_terrain(s, x, y);
    if (terrain_at(&s->map, x, y) == RMG_TERRAIN_SAND || !may_become(s, x, y, RMG_TERRAIN_SAND))
        return -1;
    return RMG_TERRAIN_SAND;
}

/* The tiles the next pass looks at: the neighbourhoods of the tiles this pass changed, and the
 * unfit tiles it could not change (a later phase may). A bounded list on the stack (the function
 * allocates nothing); past its size the next pass looks at every tile. */
#define WORK_CAP 2048
typedef struct worklist {
    uint32_t tile[WORK_CAP];
    size_t count;
    bool everything;
} worklist;

static void work_add(worklist *l, size_t i)
{
    if (l->count < WORK_CAP)
        l->tile[l->count++] = (uint32_t)i;
    else
        l->everything = true;
}

static void work_add_around(worklist *l, const level_map *m, int x, int y)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (inside(m, x + dx, y + dy))
                work_add(l, (size_t)(y + dy) * (size_t)m->w + (size_t)(x + dx));
}

/* Looks at tile i: an unlocked unfit tile changes (into next: its neighbourhood), or stays unfit
 * (into next: itself). Returns 1 for a change. */
static size_t smooth_tile(smooth_level *s, size_t i, bool sand_only, worklist *next)
{
    int x = (int)(i % (size_t)s->map.w), y = (int)(i / (size_t)s->map.w);
    if (locked(s, i) || tile_fits(&s->map, x, y))
        return 0;
    int to = replacement(s, x, y, sand_only);
    if (to < 0) {
        work_add(next, i);
        return 0;
    }
    s->terrain[i] = (uint8_t)to;
    work_add_around(next, &s->map, x, y);
    return 1;
}

/* One pass, forward or backward over the level when `todo` says everything, else over its
 * tiles in order; returns the number of changes and leaves the next pass's tiles in `next`. */
static size_t smooth_pass(smooth_level *s, const worklist *todo, bool backward, bool sand_only, worklist *next)
{
    size_t changes = 0;
    next->count = 0;
    next->everything = false;
    if (todo->everything) {
        size_t n = level_size(s->map.w, s->map.h);
        for (size_t k = 0; k < n; k++)
            changes += smooth_tile(s, backward ? n - 1 - k : k, sand_only, next);
    } else {
        for (size_t k = 0; k < todo->count; k++)
            changes += smooth_tile(s, todo->tile[backward ? todo->count - 1 - k : k], sand_only, next);
    }
    return changes;
}

/* Majority passes repair the usual shapes (a lone tile, a one-tile peninsula or channel) the way
 * a painter would; what they have not settled after this many passes goes to sand. */
#define MAJORITY_PASSES 8

/* The smoothing of one level (rmg__map_smooth_terrain's rule); two worklists alternate. */
/* Whether (x, y) and its 8 neighbours inside the map all fit a pattern. */
static bool fits_around(const level_map *m, int x, int y)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (inside(m, x + dx, y + dy) && !tile_fits(m, x + dx, y + dy))
                return false;
    return true;
}

/* An unfit tile the majority could not settle (two bodies of one terrain touching it at opposite
 * corners, say) fits when one neighbour takes its terrain instead: the first neighbour, in cell
 * order, whose change leaves the tile and everything around that neighbour fitting. Returns 1
 * for a change. */
static size_t settle_by_neighbour(smooth_level *s, size_t i)
{
    level_map *m = &s->map;
    int x = (int)(i % (size_t)m->w), y = (int)(i / (size_t)m->w);
    if (locked(s, i) || tile_fits(m, x, y))
        return 0;
    uint8_t own = s->terrain[i];
    for (int c = 0; c < 8; c++) {
        int nx = x + CELL_DX[c], ny = y + CELL_DY[c];
        if (!inside(m, nx, ny))
            continue;
        size_t k = (size_t)ny * (size_t)m->w + (size_t)nx;
        uint8_t was = s->terrain[k];
        if (was == own || !may_become(s, nx, ny, own))
            continue;
        s->terrain[k] = own;
        if (tile_fits(m, x, y) && fits_around(m, nx, ny))
            return 1;
        s->terrain[k] = was;
    }
    return 0;
}

/* settle_by_neighbour over the tiles a pass left (every tile when the list overflowed). */
static size_t settle_pass(smooth_level *s, const worklist *todo)
{
    size_t changes = 0;
    if (todo->everything) {
        for (size_t k = 0, n = level_size(s->map.w, s->map.h); k < n; k++)
            changes += settle_by_neighbour(s, k);
    } else {
        for (size_t k = 0; k < todo->count; k++)
            changes += settle_by_neighbour(s, todo->tile[k]);
    }
    return changes;
}

static size_t smooth_level_terrain(smooth_level *s, bool underground)
{
    worklist lists[2]; /* 16 KiB of stack */
    worklist *todo = &lists[0], *next = &lists[1];
    todo->count = 0;
    todo->everything = true; /* the first pass looks at every tile */
    size_t changes = 0;
    int pass = 0;
    for (; pass < MAJORITY_PASSES; pass++) {
        size_t n = smooth_pass(s, todo, pass % 2 != 0, false, next);
        changes += n;
        worklist *t = todo;
        todo = next;
        next = t;
        if (n == 0)
            break;
    }
    if (underground) /* no sand there (ZON-14): a neighbour changes first where that settles it */
        changes += settle_pass(s, todo);
    for (size_t n = 1; n > 0 && (todo->everything || todo->count > 0); pass++) {
        n = smooth_pass(s, todo, pass % 2 != 0, true, next);
        changes += n;
        worklist *t = todo;
        todo = next;
        next = t;
    }
    return changes;
}

/*
 * The smoothing rule. Tiles are visited in a fixed order (every tile, rows forward, in the first
 * pass; then the neighbourhoods of the changes and the tiles left unfit, in the order the last pass
 * met them, forward and backward in turn); an unlocked tile that fits no pattern changes its
 * terrain:
 *   1. in the first MAJORITY_PASSES passes to the terrain most of its 8 neighbours have (ties:
 *      lower terrain id), preferring one with which the tile fits;
 *   1b. underground (the levels after the first), where no zone is sand (ZON-14), a tile still
 *      unfit then stays as it is when one neighbour taking its terrain makes the tile and that
 *      neighbour's whole neighbourhood fit (settle_by_neighbour);
 *   2. then to sand, which fits whatever surrounds it. Sand tiles never change again in this phase,
 *      so it ends after at most one pass per tile of the level, with every unlocked tile fitting
 *      except water or rock tiles that may not leave a locked water body or rock face.
 * Every change obeys may_become (locked tiles never change; water and rock only where the
 * body they belong to, or would join, is unlocked around the tile).
 */
size_t rmg__map_smooth_terrain(uint8_t *terrain, const uint8_t *keep, int w, int h, int levels)
{
    size_t plane = level_size(w, h), changes = 0;
    matcher tables;
    matcher_init(&tables, false);
    for (int z = 0; z < levels; z++) {
        uint8_t *level = terrain + (size_t)z * plane;
        smooth_level s = {level, keep ? keep + (size_t)z * plane : NULL, {level, w, h, &tables}};
        changes += smooth_level_terrain(&s, z > 0);
    }
    return changes;
}
