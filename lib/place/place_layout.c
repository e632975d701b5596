/* Zone layout on a hexagonal lattice: PLC-01..10 (see place_internal.h for the design). */
#include <math.h>
#include <string.h>

#include "place_internal.h"

/* Ties between real-valued criteria (repulsion sums) are decided within this tolerance so
 * that rounding noise never breaks a tie the geometry makes exact. */
#define TIE_EPS 1e-9
#define SQRT3_2_L 0.86602540378443864676

void rmg__layout_cell_xy(const rmg__layout *l, int cell, int *level, int *dx, int *dy)
{
    int per_level = l->grid * l->grid;
    int in_level = cell % per_level;
    int row = in_level / l->grid, col = in_level % l->grid;
    *level = cell / per_level;
    *dx = 2 * col + (row & 1);
    *dy = row;
}

static bool hex_adjacent(int dx, int dy)
{
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    return (dy == 0 && dx == 2) || (dy == 1 && dx == 1);
}

int rmg__layout_relation(const rmg__layout *l, int cell_a, int cell_b)
{
    if (cell_a < 0 || cell_b < 0)
        return 0;
    int la, xa, ya, lb, xb, yb;
    rmg__layout_cell_xy(l, cell_a, &la, &xa, &ya);
    rmg__layout_cell_xy(l, cell_b, &lb, &xb, &yb);
    if (la == lb)
        return hex_adjacent(xa - xb, ya - yb) ? 1 : 0;
    return xa == xb && ya == yb ? 2 : 0;
}

/* PLC-02: ground is met by adjacency, underground_gate by stacking, default by either. */
static bool relation_meets(rmg_connection_placement p, int relation)
{
    switch (p) {
    case RMG_LINK_GROUND:
        return relation == 1;
    case RMG_LINK_UNDERGROUND_GATE:
        return relation == 2;
    case RMG_LINK_DEFAULT:
        return relation != 0;
    default:
        return false;
    }
}

static int link_score_at(const rmg__layout *l, const rmg__llink *k, int cell_a, int cell_b)
{
    if (k->weight == 0)
        return 0;
    return relation_meets(k->placement, rmg__layout_relation(l, cell_a, cell_b)) ? k->weight : 0;
}

int rmg__layout_link_score(const rmg__layout *l, size_t k)
{
    const rmg__llink *lk = &l->links[k];
    return link_score_at(l, lk, l->zones[lk->a].cell, l->zones[lk->b].cell);
}

/* Score of zone z's links if z stood at `cell` (and, for swaps, `other` stood at other_cell). */
static int zone_score_at(const rmg__layout *l, int z, int cell, int other, int other_cell)
{
    int sum = 0;
    for (size_t i = l->link_start[z]; i < l->link_start[z + 1]; i++) {
        const rmg__llink *k = &l->links[l->link_idx[i]];
        int peer = k->a == z ? k->b : k->a;
        int peer_cell = peer == other ? other_cell : l->zones[peer].cell;
        if (peer == z)
            continue;
        sum += link_score_at(l, k, cell, peer_cell);
    }
    return sum;
}

/* ---- candidates ---------------------------------------------------------------------------- */

/* Hex neighbours (column, row offsets) of a cell in an even / odd row ("odd-r" layout). */
static const int hex_even[6][2] = {{-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {-1, 1}, {0, 1}};
static const int hex_odd[6][2] = {{-1, 0}, {1, 0}, {0, -1}, {1, -1}, {0, 1}, {1, 1}};

static bool cell_on_grid(const rmg__layout *l, int col, int row)
{
    return col >= 0 && row >= 0 && col < l->grid && row < l->grid;
}

/* A free cell is a candidate when it touches a placed zone on its level or lies under/over
 * one on the other level, so a layout never falls apart into distant pieces. */
static bool cell_touches_layout(const rmg__layout *l, int cell)
{
    int per_level = l->grid * l->grid;
    int level = cell / per_level, in_level = cell % per_level;
    int row = in_level / l->grid, col = in_level % l->grid;
    const int(*nb)[2] = (row & 1) ? hex_odd : hex_even;
    for (int i = 0; i < 6; i++) {
        int c = col + nb[i][0], r = row + nb[i][1];
        if (cell_on_grid(l, c, r) && l->cell_zone[level * per_level + r * l->grid + c] >= 0)
            return true;
    }
    for (int other = 0; other < l->levels; other++)
        if (other != level && l->cell_zone[other * per_level + in_level] >= 0)
            return true;
    return false;
}

/* Fills l->cand with the free candidate cells on the zone's allowed levels; returns the count.
 * `anywhere`: on a level the sea joins (l->sea), every free cell, touching the layout or not. */
static size_t gather_candidates(const rmg__layout *l, const rmg__lzone *z, bool layout_empty, bool anywhere)
{
    int per_level = l->grid * l->grid;
    size_t n = 0;
    for (int level = 0; level < l->levels; level++) {
        if (!(z->levels & (1u << level)))
            continue;
        if (layout_empty) {
            int centre = level * per_level + (l->grid / 2) * l->grid + l->grid / 2;
            l->cand[n++] = centre;
            continue;
        }
        bool free_spot = anywhere && l->sea[level];
        for (int c = level * per_level; c < (level + 1) * per_level; c++)
            if (l->cell_zone[c] < 0 && (free_spot || cell_touches_layout(l, c)))
                l->cand[n++] = c;
    }
    return n;
}

/* ---- the three criteria ---------------------------------------------------------------------- */

/* Level 1 (PLC-02): keep the candidates with the best link score. */
static size_t keep_best_links(const rmg__layout *l, int z, size_t n)
{
    int best = -1;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int s = zone_score_at(l, z, l->cand[i], -1, -1);
        if (s > best) {
            best = s;
            kept = 0;
        }
        if (s == best)
            l->cand[kept++] = l->cand[i];
    }
    return kept;
}

typedef struct bbox {
    int min_x, max_x, min_y, max_y;
    bool any;
} bbox;

static void bbox_add(bbox *b, int x, int y)
{
    if (!b->any) {
        b->min_x = b->max_x = x;
        b->min_y = b->max_y = y;
        b->any = true;
        return;
    }
    b->min_x = RMG__MIN(b->min_x, x);
    b->max_x = RMG__MAX(b->max_x, x);
    b->min_y = RMG__MIN(b->min_y, y);
    b->max_y = RMG__MAX(b->max_y, y);
}

/* 4 * (side of the bounding square)^2 in doubled coordinates: width = dX/2, height = dY*sqrt(3)/2. */
static long square_measure(const bbox *b)
{
    long dx = b->max_x - b->min_x, dy = b->max_y - b->min_y;
    return RMG__MAX(dx * dx, 3 * dy * dy);
}

static bbox level_bbox(const rmg__layout *l, int level)
{
    bbox b = {0, 0, 0, 0, false};
    for (size_t i = 0; i < l->n_zones; i++) {
        int lv, x, y;
        if (l->zones[i].cell < 0)
            continue;
        rmg__layout_cell_xy(l, l->zones[i].cell, &lv, &x, &y);
        if (lv == level)
            bbox_add(&b, x, y);
    }
    return b;
}

/* Level 2 (PLC-03): minimise max(S0, side of the bounding square with the candidate); `square`
 * gives S0 per level. */
static size_t keep_smallest_square(const rmg__layout *l, const double square[2], size_t n)
{
    bbox per_level[2] = {level_bbox(l, 0), l->levels > 1 ? level_bbox(l, 1) : level_bbox(l, 0)};
    double best = INFINITY;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int lv, x, y;
        rmg__layout_cell_xy(l, l->cand[i], &lv, &x, &y);
        bbox b = per_level[lv];
        bbox_add(&b, x, y);
        double s0 = 2.0 * square[lv];
        double m = RMG__MAX(s0 * s0, (double)square_measure(&b));
        if (m < best - TIE_EPS) {
            best = m;
            kept = 0;
        }
        if (m <= best + TIE_EPS)
            l->cand[kept++] = l->cand[i];
    }
    return kept;
}

static double cell_distance(const rmg__layout *l, int a, int b)
{
    int la, xa, ya, lb, xb, yb;
    rmg__layout_cell_xy(l, a, &la, &xa, &ya);
    rmg__layout_cell_xy(l, b, &lb, &xb, &yb);
    long dx = xa - xb, dy = ya - yb;
    return sqrt((double)(dx * dx + 3 * dy * dy)) / 2.0;
}

/* Keeps the candidates with the largest score (within TIE_EPS). */
static size_t keep_largest(const rmg__layout *l, size_t n, double (*score)(const rmg__layout *, int cell))
{
    double best = -1.0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        double s = score(l, l->cand[i]);
        if (s > best + TIE_EPS) {
            best = s;
            kept = 0;
        }
        if (s >= best - TIE_EPS)
            l->cand[kept++] = l->cand[i];
    }
    return kept;
}

/* Summed distance from `cell` to every placed repulsion zone, on either level. */
static double repelled_sum(const rmg__layout *l, int cell)
{
    double sum = 0.0;
    for (size_t j = 0; j < l->n_zones; j++) {
        const rmg__lzone *o = &l->zones[j];
        if (o->cell >= 0 && o->repulsion)
            sum += cell_distance(l, cell, o->cell);
    }
    return sum;
}

/* Level 3 (PLC-05, ZON-07): the largest summed distance to every placed repulsion zone, on
 * either level ("all other zones with repulsion"; the distance is taken across the levels'
 * common plane, so a zone stacked above another is as close to it as can be). */
static size_t keep_most_repelled(const rmg__layout *l, size_t n)
{
    return keep_largest(l, n, repelled_sum);
}

static void put_zone(rmg__layout *l, int z, int cell)
{
    l->zones[z].cell = cell;
    l->cell_zone[cell] = z;
}

/* Steps between two cells of one level on the lattice. */
static int hex_steps(const rmg__layout *l, int a, int b)
{
    int la, xa, ya, lb, xb, yb;
    rmg__layout_cell_xy(l, a, &la, &xa, &ya);
    rmg__layout_cell_xy(l, b, &lb, &xb, &yb);
    int dx = xa > xb ? xa - xb : xb - xa, dy = ya > yb ? ya - yb : yb - ya;
    return dy + (dx > dy ? (dx - dy) / 2 : 0);
}

/* A new group's first zone keeps its ring of neighbours for the zones that will link to it: of
 * the candidates, prefer the cells at least GROUP_GAP steps from every placed zone of their
 * level, so that no placed zone touches that ring (all candidates when none is). It serves the
 * group's links (PLC-02) and so comes before the square. Used where the zone's group is joined
 * to the placed layout through zones placed later (one group: sea_spread is 1). Cost:
 * candidates x zones. */
#define GROUP_GAP 3
static size_t keep_own_ring(const rmg__layout *l, size_t n)
{
    int per_level = l->grid * l->grid;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        bool clear = true;
        for (size_t j = 0; j < l->n_zones && clear; j++) {
            int c = l->zones[j].cell;
            clear = c < 0 || c / per_level != l->cand[i] / per_level || hex_steps(l, c, l->cand[i]) >= GROUP_GAP;
        }
        if (clear)
            l->cand[kept++] = l->cand[i];
    }
    return kept ? kept : n;
}

/* Where groups stand apart over a sea (sea_spread > 1), a new group's first zone takes, among
 * the positions tied on the square, the farthest from the placed zone nearest to it on its
 * level (the largest gap to the layout): its group finds the ring of cells around it free (any
 * gap of GROUP_GAP steps or more leaves it untouched, so this keeps what keep_own_ring keeps and
 * comes after the square, which it would otherwise leave for the lattice's far edges) and the
 * groups spread over the square; the sum of distances (PLC-05) decides among the rest. Cost:
 * candidates x zones. */
static double nearest_distance(const rmg__layout *l, int cell)
{
    int per_level = l->grid * l->grid;
    double nearest = INFINITY;
    for (size_t j = 0; j < l->n_zones; j++) {
        int c = l->zones[j].cell;
        if (c >= 0 && c / per_level == cell / per_level)
            nearest = fmin(nearest, cell_distance(l, c, cell));
    }
    return nearest;
}

static size_t keep_farthest_from_nearest(const rmg__layout *l, size_t n)
{
    return keep_largest(l, n, nearest_distance);
}

/* True when zone z has a link of some weight to a placed zone (its position then follows them). */
static bool has_placed_peer(const rmg__layout *l, int z)
{
    for (size_t i = l->link_start[z]; i < l->link_start[z + 1]; i++) {
        const rmg__llink *k = &l->links[l->link_idx[i]];
        int peer = k->a == z ? k->b : k->a;
        if (peer != z && k->weight > 0 && l->zones[peer].cell >= 0)
            return true;
    }
    return false;
}

/* Size of z's group: the zones joined to z through links of some weight, z included (a
 * breadth-first search over the link index, O(zones + links), once per group's first zone). */
static size_t group_size(const rmg__layout *l, int z, int *queue, uint8_t *seen)
{
    memset(seen, 0, l->n_zones);
    size_t head = 0, tail = 0;
    queue[tail++] = z;
    seen[z] = 1;
    while (head < tail) {
        int a = queue[head++];
        for (size_t i = l->link_start[a]; i < l->link_start[a + 1]; i++) {
            const rmg__llink *k = &l->links[l->link_idx[i]];
            int b = k->a == a ? k->b : k->a;
            if (k->weight > 0 && !seen[b]) {
                seen[b] = 1;
                queue[tail++] = b;
            }
        }
    }
    return tail;
}

/* A repulsion zone linked to no placed zone but to others starts a group of its own (the zones
 * linked to it, placed after it; a zone without links has no group and stays beside the
 * layout). Where the sea joins the zones (water maps' surface, PLC-17) groups need no border
 * with each other, so such a zone may take any free cell, not only one touching the layout:
 * PLC-03 counts the positions equivalent while they fit the square the level's zones will fill
 * at the end (their tight pack widened by the channels of sea between the groups, sea_spread,
 * less the side of the group's own pack so the group fits too; S0 when larger), its group
 * keeps the ring around it (keep_own_ring, or where several groups spread,
 * keep_farthest_from_nearest, which also spreads them over the square), and repulsion (PLC-05)
 * decides among the rest. Treasure_Islands numbers its six start zones before their islands:
 * they were packed around the first one. Land levels keep the layout in one piece (a link
 * between zones apart would need a teleport), so a new group still touches it there. */
static bool spreads(const rmg__layout *l, int z, bool layout_empty)
{
    const rmg__lzone *zone = &l->zones[z];
    unsigned sea = (l->sea[0] ? 1u : 0u) | (l->sea[1] ? 2u : 0u);
    return !layout_empty && zone->repulsion && sea && (zone->levels & ~sea) == 0 && !has_placed_peer(l, z) &&
           group_size(l, z, l->queue, l->seen) > 1;
}

static rmg_status place_one(rmg__layout *l, int z, bool layout_empty, rmg_rng *rng)
{
    rmg__lzone *zone = &l->zones[z];
    bool spread = spreads(l, z, layout_empty);
    size_t n = gather_candidates(l, zone, layout_empty, spread);
    if (n == 0)
        return rmg__error_gen(l->ctx, RMG_ERR_IMPOSSIBLE, "place", zone->id, -1,
                              "zone %d: no free lattice position on its allowed level(s)", zone->id);
    n = keep_best_links(l, z, n);
    bool apart = spread && l->sea_spread > 1.0;
    if (spread && !apart)
        n = keep_own_ring(l, n);
    double filled[2] = {l->square[0], l->square[1]};
    if (spread) {
        /* The group must fit the square too: its first zone keeps the side of the group's own
         * tight pack inside. */
        double group = sqrt((double)group_size(l, z, l->queue, l->seen) * SQRT3_2_L);
        for (int lv = 0; lv < 2; lv++)
            filled[lv] = RMG__MAX(l->square[lv], l->pack[lv] * l->sea_spread - group);
    }
    n = keep_smallest_square(l, filled, n);
    if (apart)
        n = keep_farthest_from_nearest(l, n);
    if (zone->repulsion)
        n = keep_most_repelled(l, n);
    put_zone(l, z, l->cand[rmg_rng_below(rng, n)]); /* PLC-04 */
    return RMG_OK;
}

/* ---- PLC-09 shuffle ---------------------------------------------------------------------------- */

static bool level_allowed(const rmg__lzone *z, const rmg__layout *l, int cell)
{
    return (z->levels >> (cell / (l->grid * l->grid))) & 1u;
}

/* A free cell beside (or stacked with) a random other zone, on a level zone a may use; -1 if
 * the draw finds none. Cheap on purpose: the shuffle tries many moves. */
static int random_free_spot(const rmg__layout *l, int a, rmg_rng *rng)
{
    if (l->n_zones < 2)
        return -1;
    int per_level = l->grid * l->grid;
    int other = (int)rmg_rng_below(rng, l->n_zones - 1);
    other += other >= a;
    int cell = l->zones[other].cell, level = cell / per_level, in_level = cell % per_level;
    int row = in_level / l->grid, col = in_level % l->grid;
    int pick = (int)rmg_rng_below(rng, 6 + (size_t)(l->levels - 1));
    int to;
    if (pick < 6) {
        const int(*nb)[2] = (row & 1) ? hex_odd : hex_even;
        int c = col + nb[pick][0], r = row + nb[pick][1];
        if (!cell_on_grid(l, c, r))
            return -1;
        to = level * per_level + r * l->grid + c;
    } else {
        to = (1 - level) * per_level + in_level;
    }
    return l->cell_zone[to] < 0 && level_allowed(&l->zones[a], l, to) ? to : -1;
}

/* Weight per unit of room of the heavier level: max over the levels of weight / fill. */
static double level_load(const rmg__layout *l, const double fill[2], int moved, int to, int swapped, int from)
{
    int per_level = l->grid * l->grid;
    double w[2] = {0, 0};
    for (size_t i = 0; i < l->n_zones; i++) {
        int cell = (int)i == moved ? to : (int)i == swapped ? from : l->zones[i].cell;
        w[(cell / per_level) & 1] += l->zones[i].weight;
    }
    return RMG__MAX(w[0] / fill[0], w[1] / fill[1]);
}

/* Moves zone a to a free cell next to the layout, or swaps it with zone b. Kept only if the
 * summed link score of the zones involved improves; `sideways`: if it does not drop; `fill`
 * (level balance): if it does not drop, the zones moved may stand on either level and the
 * heavier level's load does not rise. */
static void try_move(rmg__layout *l, int a, rmg_rng *rng, bool sideways, const double *fill)
{
    int from = l->zones[a].cell;
    int to, b;
    if (rmg_rng_below(rng, 2) == 0 && l->n_zones > 1) {
        b = (int)rmg_rng_below(rng, l->n_zones - 1);
        b += b >= a;
        to = l->zones[b].cell;
        if (!level_allowed(&l->zones[a], l, to) || !level_allowed(&l->zones[b], l, from))
            return;
    } else {
        to = random_free_spot(l, a, rng);
        if (to < 0)
            return;
        b = -1;
    }
    int before = zone_score_at(l, a, from, -1, -1), after = zone_score_at(l, a, to, b, from);
    if (b >= 0) {
        /* The a-b links are counted in both zones' sums: count them once on each side. */
        before += zone_score_at(l, b, to, -1, -1);
        after += zone_score_at(l, b, from, a, to);
    }
    if (after < before || (after == before && !sideways && !fill))
        return;
    if (fill && (l->zones[a].levels != 3u || (b >= 0 && l->zones[b].levels != 3u) ||
                 !(level_load(l, fill, a, to, b, from) <= level_load(l, fill, -1, -1, -1, -1) * (1.0 + 1e-12))))
        return;
    l->cell_zone[from] = -1;
    if (b >= 0)
        put_zone(l, b, from);
    put_zone(l, a, to);
}

/* ---- driver ---------------------------------------------------------------------------------- */

static void order_by_number(rmg__layout *l)
{
    for (size_t i = 0; i < l->n_zones; i++)
        l->order[i] = (int)i;
    for (size_t i = 1; i < l->n_zones; i++) { /* insertion sort: stable, n is small */
        int v = l->order[i];
        size_t j = i;
        while (j > 0 && l->zones[l->order[j - 1]].id > l->zones[v].id) {
            l->order[j] = l->order[j - 1];
            j--;
        }
        l->order[j] = v;
    }
}

static rmg_status build_link_index(rmg__layout *l)
{
    rmg_context *ctx = l->ctx;
    l->link_start = rmg__calloc(ctx, l->n_zones + 1, sizeof *l->link_start);
    l->link_idx = rmg__calloc(ctx, 2 * l->n_links + 1, sizeof *l->link_idx);
    if (!l->link_start || !l->link_idx)
        return rmg__error_nomem(ctx);
    for (size_t k = 0; k < l->n_links; k++) {
        l->link_start[l->links[k].a + 1]++;
        if (l->links[k].b != l->links[k].a)
            l->link_start[l->links[k].b + 1]++;
    }
    for (size_t i = 0; i < l->n_zones; i++)
        l->link_start[i + 1] += l->link_start[i];
    size_t *fill = rmg__calloc(ctx, l->n_zones + 1, sizeof *fill);
    if (!fill)
        return rmg__error_nomem(ctx);
    memcpy(fill, l->link_start, (l->n_zones + 1) * sizeof *fill);
    for (size_t k = 0; k < l->n_links; k++) {
        l->link_idx[fill[l->links[k].a]++] = (int)k;
        if (l->links[k].b != l->links[k].a)
            l->link_idx[fill[l->links[k].b]++] = (int)k;
    }
    rmg__free(ctx, fill);
    return RMG_OK;
}

static rmg_status alloc_scratch(rmg__layout *l)
{
    l->order = rmg__malloc(l->ctx, (l->n_zones + 1) * sizeof *l->order);
    l->queue = rmg__malloc(l->ctx, (l->n_zones + 1) * sizeof *l->queue);
    l->seen = rmg__malloc(l->ctx, l->n_zones + 1);
    return l->order && l->queue && l->seen ? RMG_OK : rmg__error_nomem(l->ctx);
}

/* The lattice: twice the side of a tight pack of the zones and a border (G = 2 * ceil(sqrt(n)) + 3),
 * or, where groups spread over a sea (sea_spread > 1), rows enough around the centre for the
 * square they spread over and two more, grown by steps of four rows so the centre row keeps its
 * parity (the first zone's neighbours stay the same cells). */
static rmg_status alloc_grid(rmg__layout *l)
{
    int side = (int)ceil(sqrt((double)l->n_zones));
    l->grid = RMG__MAX(5, 2 * side + 3);
    if (l->sea_spread > 1.0) {
        double spread = 0;
        for (int lv = 0; lv < l->levels && lv < 2; lv++)
            if (l->sea[lv])
                spread = RMG__MAX(spread, l->pack[lv] * l->sea_spread);
        int rows = (int)ceil(spread / SQRT3_2_L) + 2;
        while (l->grid / 2 < rows)
            l->grid += 4;
    }
    size_t cells = (size_t)l->levels * (size_t)l->grid * (size_t)l->grid;
    l->cell_zone = rmg__malloc(l->ctx, cells * sizeof *l->cell_zone);
    l->cand = rmg__malloc(l->ctx, cells * sizeof *l->cand);
    if (!l->cell_zone || !l->cand)
        return rmg__error_nomem(l->ctx);
    for (size_t i = 0; i < cells; i++)
        l->cell_zone[i] = -1;
    return RMG_OK;
}

/* How much wider than a tight pack the zones of a sea level lie once groups spread (spreads()):
 * each group of g zones keeps a channel of sea of GROUP_MARGIN cells around its own pack
 * (side sqrt(g * sqrt(3)/2)), so the square they fill is sqrt(sum (side + margin)^2 / sum side^2)
 * times the tight one (Treasure_Islands: 1.46, six groups of five zones and six of six). 1
 * without a sea level or with fewer than two groups of several zones with a repulsion zone among
 * them, so those layouts are unchanged. Cost: O(groups x zones + links), once a layout. */
#define GROUP_MARGIN 1.0
static rmg_status groups_spread(rmg__layout *l)
{
    l->sea_spread = 1.0;
    if (!l->sea[0] && !(l->levels > 1 && l->sea[1]))
        return RMG_OK;
    uint8_t *done = rmg__calloc(l->ctx, l->n_zones + 1, 1);
    if (!done)
        return rmg__error_nomem(l->ctx);
    double packed = 0, apart = 0;
    int spreading = 0;
    for (size_t z = 0; z < l->n_zones; z++) {
        if (done[z])
            continue;
        size_t n = group_size(l, (int)z, l->queue, l->seen);
        bool repulsion = false;
        for (size_t i = 0; i < n; i++) {
            done[l->queue[i]] = 1;
            repulsion |= l->zones[l->queue[i]].repulsion;
        }
        spreading += n > 1 && repulsion;
        double side = sqrt((double)n * SQRT3_2_L);
        packed += side * side;
        apart += (side + GROUP_MARGIN) * (side + GROUP_MARGIN);
    }
    rmg__free(l->ctx, done);
    if (spreading > 1)
        l->sea_spread = sqrt(apart / packed);
    return RMG_OK;
}

rmg_status rmg__layout_place_all(rmg__layout *l, rmg_rng *rng)
{
    rmg_status st = alloc_scratch(l);
    if (st == RMG_OK)
        st = build_link_index(l);
    if (st == RMG_OK)
        st = groups_spread(l);
    if (st == RMG_OK)
        st = alloc_grid(l);
    if (st != RMG_OK)
        return st;
    order_by_number(l);
    for (size_t i = 0; i < l->n_zones; i++) {
        st = place_one(l, l->order[i], i == 0, rng);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

void rmg__layout_shuffle(rmg__layout *l, rmg_rng *rng)
{
    size_t rounds = 40 * l->n_zones;
    for (size_t i = 0; i < rounds; i++)
        try_move(l, (int)rmg_rng_below(rng, l->n_zones), rng, false, NULL);
}

void rmg__layout_wander(rmg__layout *l, rmg_rng *rng, size_t rounds)
{
    for (size_t i = 0; i < rounds; i++)
        try_move(l, (int)rmg_rng_below(rng, l->n_zones), rng, true, NULL);
}

void rmg__layout_balance_levels(rmg__layout *l, rmg_rng *rng, const double fill[2], size_t rounds)
{
    bool free_zone = false;
    for (size_t i = 0; i < l->n_zones; i++)
        free_zone |= l->zones[i].levels == 3u;
    if (l->levels < 2 || l->n_zones < 2 || !free_zone)
        return;
    for (size_t i = 0; i < rounds; i++)
        try_move(l, (int)rmg_rng_below(rng, l->n_zones), rng, false, fill);
}

int rmg__layout_score(const rmg__layout *l)
{
    int sum = 0;
    for (size_t k = 0; k < l->n_links; k++)
        sum += rmg__layout_link_score(l, k);
    return sum;
}

rmg_status rmg__layout_run(rmg__layout *l, rmg_rng *rng)
{
    rmg_status st = rmg__layout_place_all(l, rng);
    if (st == RMG_OK)
        rmg__layout_shuffle(l, rng);
    return st;
}

void rmg__layout_free(rmg__layout *l)
{
    if (!l)
        return;
    rmg_context *ctx = l->ctx;
    rmg__free(ctx, l->cell_zone);
    rmg__free(ctx, l->cand);
    rmg__free(ctx, l->order);
    rmg__free(ctx, l->queue);
    rmg__free(ctx, l->seen);
    rmg__free(ctx, l->link_start);
    rmg__free(ctx, l->link_idx);
    l->cell_zone = l->cand = l->order = l->link_idx = l->queue = NULL;
    l->seen = NULL;
    l->link_start = NULL;
}
