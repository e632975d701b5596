/*
 * Centre balancing on levels without filler zones (PLC-11, PLC-06), and on both levels of a
 * two-level map (issue 30: the lattice's bounding box spans both levels, so one level's cells
 * may crowd into part of it, and capped zones boxed in there took half their share).
 *
 * Why: the lattice layout of a template with many zones is ragged (link score first, then the
 * sparseness square, PLC-02/03), and its bounding box is stretched over the whole map. Without
 * rock or water zones to absorb the holes, the zones on the rim of the layout inherit every
 * empty cell around them: a 196-zone template at 1008x1008 gave one zone 14x the mean area.
 *
 * What: before the tiles are grown, the zone centres of such a level are relaxed on a coarse
 * copy of the map. Each round grows every zone over the coarse grid with the metric the tile
 * growth uses (distance / disc radius, without the noise), then moves each centre to the
 * centroid of what it got (Lloyd's step, which spreads centres over the map while keeping
 * neighbours neighbours), scales its radius by sqrt(target / area) (so zones that got too
 * little push their borders out) and pulls linked pairs whose regions drifted apart towards
 * each other (PLC-02 links stay met). The lattice placement is the starting point; only the
 * distances change. The final coarse ownership goes to the tile growth, whose corridors for
 * default links stop where it gave the tiles to a third zone (a corridor across a zone that
 * moved in between would wall it in). The cost is linear in the map area: a coarse cell per
 * ~1/20 of a zone, and a fixed number of rounds. Deterministic: no random draws, and only
 * correctly rounded floating-point operations (+ - * / sqrt) in a fixed order.
 */
#include <math.h>
#include <string.h>

#include "place_internal.h"

#define CELLS_PER_ZONE 20.0  /* coarse cells per zone: areas measured to ~5%, rounds stay cheap */
#define ROUNDS 48            /* a fixed budget keeps the cost linear in the map area */
#define GOOD_ENOUGH 0.08     /* stop once every zone is within 8% of its target (the coarse grid measures ~5%) */
#define MAX_STEP 1.25        /* largest radius change per round (and 1 / MAX_STEP) */
#define PULL 0.2             /* share of the distance a drifted linked pair closes per round */
#define PULL_STRONG 0.4      /* the same for ground / gate links (PLC-02: they outweigh default) */
#define GATHER 0.12          /* share of the way to the level's middle a centre moves per round */
#define REPEL_RANGE 2.4       /* unlinked discs closer than this times their radii repel */
#define REPEL 0.15            /* share of the overlap closed per round, per disc */
#define MIN_ROUNDS 24         /* rounds the gathering gets at least */
#define MAX_SPREAD 2.0       /* radius kept within [1/2, 2] x the disc radius of the target */

/* The coarse growth's frontier: a bucket queue over (distance / radius)^2 (the same order as
 * distance / radius without a square root; BUCKET_SCALE buckets per unit, so 1/256 of a radius
 * at the border of a disc; LIFO within a bucket), O(1) per cell. */
#define BUCKETS 2048
#define BUCKET_SCALE 128.0
#define NO_ENTRY UINT32_MAX

typedef struct queue_entry {
    uint32_t cell, zone, next;
} queue_entry;

typedef struct balancer {
    const rmg__balance_in *in;
    rmg__grow_zone *zones;
    uint32_t *members;            /* indexes of the zones on the level */
    size_t n;
    int w, h, step, gw, gh;       /* map size, coarse cell side, coarse grid size */
    size_t cells;
    uint32_t *owner;              /* per coarse cell: member + 1, 0 free */
    uint32_t *queued;             /* per coarse cell: member + 1 that last queued it */
    queue_entry *pool;            /* this round's queued cells (4 per cell at most) */
    size_t pool_n, open;          /* entries used / still queued */
    uint32_t head[BUCKETS];       /* per bucket: latest entry or NO_ENTRY */
    size_t cursor;                /* every bucket below it is empty */
    double *area, *sum_x, *sum_y; /* per member, in tiles */
    double *radius;               /* per member: 1 / inv_radius, adjusted each round */
    double *inv_r2;               /* per member: 1 / radius^2 of the current round */
    double *col_mid, *row_mid;    /* per coarse column / row: mean tile coordinate */
    uint32_t *member_of;          /* per zone: member index, UINT32_MAX when on another level */
    size_t *partner_start;        /* CSR per member: its linked pairs partner[start[m]..start[m+1]) */
    uint32_t (*partner)[2];       /* {other member, pair index} */
    uint8_t *pair_touch;          /* per pair: the two coarse regions share a side */
    queue_entry *deferred;        /* the frontier of full discs (PLC-11 second phase) */
    size_t n_deferred;
} balancer;

/* ---- queue ------------------------------------------------------------------------------------ */

static void queue_reset(balancer *b)
{
    for (size_t i = 0; i < BUCKETS; i++)
        b->head[i] = NO_ENTRY;
    b->pool_n = b->open = b->cursor = 0;
}

/* Queues a cell in a bucket (past the last one: the last). */
static void queue_push_bucket(balancer *b, size_t bucket, uint32_t cell, uint32_t zone)
{
    bucket = RMG__MIN(bucket, (size_t)BUCKETS - 1);
    uint32_t i = (uint32_t)b->pool_n++;
    b->pool[i].cell = cell;
    b->pool[i].zone = zone;
    b->pool[i].next = b->head[bucket];
    b->head[bucket] = i;
    b->cursor = RMG__MIN(b->cursor, bucket);
    b->open++;
}

/* Queues a cell by its priority, (distance / radius)^2: BUCKET_SCALE buckets per unit. */
static void queue_push(balancer *b, double prio, uint32_t cell, uint32_t zone)
{
    double scaled = prio * BUCKET_SCALE;
    queue_push_bucket(b, scaled >= BUCKETS - 1 ? BUCKETS - 1 : (size_t)scaled, cell, zone);
}

static queue_entry queue_pop(balancer *b)
{
    while (b->head[b->cursor] == NO_ENTRY)
        b->cursor++;
    queue_entry e = b->pool[b->head[b->cursor]];
    b->head[b->cursor] = e.next;
    b->open--;
    return e;
}

/* ---- coarse grid ----------------------------------------------------------------------------- */

/* Tiles covered by coarse cell (gx, gy) along one axis and their mean coordinate. */
static int span(int g, int step, int limit, double *mid)
{
    int from = g * step, to = RMG__MIN(limit, from + step);
    *mid = (from + to - 1) / 2.0;
    return to - from;
}

static double cell_tiles(const balancer *b, int gx, int gy, double *x, double *y)
{
    int wx = span(gx, b->step, b->w, x);
    int wy = span(gy, b->step, b->h, y);
    return (double)wx * wy;
}

static size_t cell_of(const balancer *b, double x, double y)
{
    int gx = (int)floor(x) / b->step, gy = (int)floor(y) / b->step;
    gx = RMG__MAX(0, RMG__MIN(b->gw - 1, gx));
    gy = RMG__MAX(0, RMG__MIN(b->gh - 1, gy));
    return (size_t)gy * (size_t)b->gw + (size_t)gx;
}

static double priority(const balancer *b, uint32_t m, int gx, int gy)
{
    const rmg__grow_zone *z = &b->zones[b->members[m]];
    double dx = b->col_mid[gx] - z->cx, dy = b->row_mid[gy] - z->cy;
    return (dx * dx + dy * dy) * b->inv_r2[m];
}

static void queue_cell(balancer *b, uint32_t m, size_t c, int gx, int gy)
{
    if (b->owner[c] || b->queued[c] == m + 1)
        return;
    b->queued[c] = m + 1;
    queue_push(b, priority(b, m, gx, gy), (uint32_t)c, m);
}

static void queue_neighbours(balancer *b, uint32_t m, size_t c)
{
    int gx = (int)(c % (size_t)b->gw), gy = (int)(c / (size_t)b->gw);
    if (gx > 0)
        queue_cell(b, m, c - 1, gx - 1, gy);
    if (gx + 1 < b->gw)
        queue_cell(b, m, c + 1, gx + 1, gy);
    if (gy > 0)
        queue_cell(b, m, c - (size_t)b->gw, gx, gy - 1);
    if (gy + 1 < b->gh)
        queue_cell(b, m, c + (size_t)b->gw, gx, gy + 1);
}

static void claim_cell(balancer *b, uint32_t m, size_t c)
{
    double x, y, tiles = cell_tiles(b, (int)(c % (size_t)b->gw), (int)(c / (size_t)b->gw), &x, &y);
    b->owner[c] = m + 1;
    b->area[m] += tiles;
    b->sum_x[m] += tiles * x;
    b->sum_y[m] += tiles * y;
    queue_neighbours(b, m, c);
}

/* The second phase (PLC-11): the cells the full discs left go to whichever zone reaches them
 * first, every zone spreading from its disc's border one cell per bucket. Not measured in the
 * areas: the rounds balance the discs. */
static void spread_rest(balancer *b)
{
    size_t n_deferred = b->n_deferred;
    queue_reset(b);
    memset(b->queued, 0, b->cells * sizeof *b->queued);
    for (size_t k = 0; k < n_deferred; k++)
        if (!b->owner[b->deferred[k].cell]) {
            b->queued[b->deferred[k].cell] = b->deferred[k].zone + 1;
            queue_push_bucket(b, 0, b->deferred[k].cell, b->deferred[k].zone);
        }
    while (b->open) {
        size_t depth = b->cursor;
        queue_entry e = queue_pop(b);
        if (b->owner[e.cell])
            continue;
        b->owner[e.cell] = e.zone + 1;
        size_t c = e.cell;
        int gx = (int)(c % (size_t)b->gw), gy = (int)(c / (size_t)b->gw);
        static const int d[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int k = 0; k < 4; k++) {
            int nx = gx + d[k][0], ny = gy + d[k][1];
            if (nx < 0 || ny < 0 || nx >= b->gw || ny >= b->gh)
                continue;
            size_t u = (size_t)ny * (size_t)b->gw + (size_t)nx;
            if (!b->owner[u] && b->queued[u] != e.zone + 1) {
                b->queued[u] = e.zone + 1;
                queue_push_bucket(b, depth + 1, (uint32_t)u, e.zone);
            }
        }
    }
}

/* One growth over the coarse grid from the current centres and radii: each zone's disc (it
 * stops at its target) and, with fill_rest, the second phase. */
static void grow_round(balancer *b, bool fill_rest)
{
    memset(b->owner, 0, b->cells * sizeof *b->owner);
    memset(b->queued, 0, b->cells * sizeof *b->queued);
    queue_reset(b);
    for (uint32_t m = 0; m < b->n; m++) {
        b->area[m] = b->sum_x[m] = b->sum_y[m] = 0;
        b->inv_r2[m] = 1.0 / (b->radius[m] * b->radius[m]);
    }
    for (uint32_t m = 0; m < b->n; m++) {
        size_t c = cell_of(b, b->zones[b->members[m]].cx, b->zones[b->members[m]].cy);
        /* Two centres in one coarse cell: the second grows from the cell all the same. */
        if (b->owner[c])
            queue_neighbours(b, m, c);
        else
            claim_cell(b, m, c);
    }
    b->n_deferred = 0;
    while (b->open) {
        queue_entry e = queue_pop(b);
        if (b->owner[e.cell])
            continue;
        if (b->area[e.zone] >= (double)b->zones[b->members[e.zone]].target)
            b->deferred[b->n_deferred++] = e; /* a full disc: the second phase's frontier */
        else
            claim_cell(b, e.zone, e.cell);
    }
    if (fill_rest)
        spread_rest(b);
}

/* The radius stays within MAX_SPREAD of the disc radius of the zone's target, so a zone that
 * keeps losing cannot turn into one that takes everything in reach. */
static void set_radius(balancer *b, uint32_t m, double r)
{
    double disc = 1.0 / b->zones[b->members[m]].inv_radius;
    b->radius[m] = RMG__MAX(disc / MAX_SPREAD, RMG__MIN(disc * MAX_SPREAD, r));
}

/* Lloyd's step and the radius correction; returns the largest relative area error. */
static double adjust(balancer *b)
{
    double worst = 0;
    for (uint32_t m = 0; m < b->n; m++) {
        rmg__grow_zone *z = &b->zones[b->members[m]];
        double target = (double)z->target;
        if (b->area[m] <= 0) { /* boxed in by its neighbours: reach further */
            set_radius(b, m, b->radius[m] * MAX_STEP);
            worst = RMG__MAX(worst, 1.0);
            continue;
        }
        double error = fabs(b->area[m] / target - 1.0);
        worst = RMG__MAX(worst, error);
        z->cx = b->sum_x[m] / b->area[m];
        z->cy = b->sum_y[m] / b->area[m];
        double change = sqrt(target / b->area[m]);
        set_radius(b, m, b->radius[m] * RMG__MAX(1.0 / MAX_STEP, RMG__MIN(MAX_STEP, change)));
    }
    return worst;
}

static void write_back(balancer *b)
{
    for (uint32_t m = 0; m < b->n; m++) {
        rmg__grow_zone *z = &b->zones[b->members[m]];
        z->inv_radius = 1.0 / b->radius[m];
        z->seed_tile_x = RMG__MAX(0, RMG__MIN(b->w - 1, (int)floor(z->cx)));
        z->seed_tile_y = RMG__MAX(0, RMG__MIN(b->h - 1, (int)floor(z->cy)));
    }
}

/* ---- links ------------------------------------------------------------------------------------ */

/* Members with owners oa, ob (member + 1) share a side: marks their pairs, if linked. A zone
 * has few links, so the scan is short; memory stays linear in the zone count. */
static void touch_set(balancer *b, uint32_t oa, uint32_t ob)
{
    if (oa == ob || !oa || !ob)
        return;
    for (size_t i = b->partner_start[oa - 1]; i < b->partner_start[oa]; i++)
        if (b->partner[i][0] == ob - 1)
            b->pair_touch[b->partner[i][1]] = 1;
}

static void find_touching(balancer *b)
{
    memset(b->pair_touch, 0, b->in->n_pairs + 1);
    for (size_t c = 0; c < b->cells; c++) {
        if ((int)(c % (size_t)b->gw) + 1 < b->gw)
            touch_set(b, b->owner[c], b->owner[c + 1]);
        if (c + (size_t)b->gw < b->cells)
            touch_set(b, b->owner[c], b->owner[c + (size_t)b->gw]);
    }
}

/* Linked pairs whose regions drifted apart are pulled towards each other (Lloyd's step keeps
 * neighbours mostly, not always); returns the number of such pairs. */
static size_t pull_links(balancer *b)
{
    size_t apart = 0;
    find_touching(b);
    for (size_t k = 0; k < b->in->n_pairs; k++) {
        uint32_t ma = b->member_of[b->in->pairs[k].a], mb = b->member_of[b->in->pairs[k].b];
        if (ma == UINT32_MAX || mb == UINT32_MAX || ma == mb || b->pair_touch[k])
            continue;
        rmg__grow_zone *za = &b->zones[b->members[ma]], *zb = &b->zones[b->members[mb]];
        double pull = b->in->pairs[k].strong ? PULL_STRONG : PULL;
        double dx = (zb->cx - za->cx) * pull, dy = (zb->cy - za->cy) * pull;
        za->cx += dx;
        za->cy += dy;
        zb->cx -= dx;
        zb->cy -= dy;
        apart++;
    }
    return apart;
}

/* PLC-11: the first phase's discs do not cover the map; like circles laid on a table they
 * gather: every centre is drawn a little towards the middle of the level (the discs' overlaps,
 * resolved by the growth and Lloyd's step, keep them apart). What the discs leave, on the
 * map's edges and corners, goes to the zones there in the second phase. */
static void gather(balancer *b)
{
    double mx = b->w / 2.0, my = b->h / 2.0;
    for (uint32_t m = 0; m < b->n; m++) {
        rmg__grow_zone *z = &b->zones[b->members[m]];
        z->cx += (mx - z->cx) * GATHER;
        z->cy += (my - z->cy) * GATHER;
    }
}

static bool linked(const balancer *b, uint32_t ma, uint32_t mb)
{
    for (size_t i = b->partner_start[ma]; i < b->partner_start[ma + 1]; i++)
        if (b->partner[i][0] == mb)
            return true;
    return false;
}

/* Zones that share no link keep their distance: two discs closer than REPEL_RANGE times their
 * radii are pushed apart, so zones linked to a common one spread around it instead of bunching
 * on one side (the centre of a cross ends up surrounded). */
static void repel(balancer *b)
{
    for (uint32_t ma = 0; ma < b->n; ma++)
        for (uint32_t mb = ma + 1; mb < b->n; mb++) {
            rmg__grow_zone *za = &b->zones[b->members[ma]], *zb = &b->zones[b->members[mb]];
            double dx = zb->cx - za->cx, dy = zb->cy - za->cy, d2 = dx * dx + dy * dy;
            double range = REPEL_RANGE * (b->radius[ma] + b->radius[mb]);
            if (d2 >= range * range || linked(b, ma, mb))
                continue;
            double d = sqrt(d2);
            if (d <= 0)
                continue;
            double push = REPEL * (range - d) / d;
            za->cx -= dx * push;
            za->cy -= dy * push;
            zb->cx += dx * push;
            zb->cy += dy * push;
        }
}

static void run_rounds(balancer *b)
{
    for (size_t r = 0; r < ROUNDS; r++) {
        grow_round(b, false);
        double worst = adjust(b);
        if (r + 1 == ROUNDS)
            break; /* a last pull would leave areas it changed unbalanced */
        size_t apart = pull_links(b);
        repel(b);
        gather(b);
        if (worst <= GOOD_ENOUGH && apart == 0 && r >= MIN_ROUNDS)
            break;
    }
    write_back(b);
}

static size_t count_members(const rmg__grow_zone *zones, size_t n_zones, int level)
{
    size_t n = 0;
    for (size_t i = 0; i < n_zones; i++)
        n += zones[i].level == level;
    return n;
}

static void setup_grid(balancer *b)
{
    double area = (double)b->w * b->h;
    b->step = RMG__MAX(1, (int)floor(sqrt(area / ((double)b->n * CELLS_PER_ZONE))));
    b->gw = (b->w + b->step - 1) / b->step;
    b->gh = (b->h + b->step - 1) / b->step;
    b->cells = (size_t)b->gw * (size_t)b->gh;
}

static void release(rmg_context *ctx, balancer *b)
{
    rmg__free(ctx, b->members);
    rmg__free(ctx, b->owner);
    rmg__free(ctx, b->queued);
    rmg__free(ctx, b->pool);
    rmg__free(ctx, b->deferred);
    rmg__free(ctx, b->area);
    rmg__free(ctx, b->member_of);
    rmg__free(ctx, b->partner_start);
    rmg__free(ctx, b->partner);
    rmg__free(ctx, b->pair_touch);
}

static bool allocate(rmg_context *ctx, balancer *b)
{
    b->members = rmg__malloc(ctx, b->n * sizeof *b->members);
    b->owner = rmg__malloc(ctx, b->cells * sizeof *b->owner);
    b->queued = rmg__malloc(ctx, b->cells * sizeof *b->queued);
    /* A round's first phase queues a cell at most once per zone, from 4 sides; the second (PLC-11)
     * at most once from each of its 4 neighbours' claims and once per zone whose disc it borders
     * (4 at most): 8 per cell. */
    b->pool = rmg__malloc(ctx, 8 * (b->cells + b->n) * sizeof *b->pool);
    b->deferred = rmg__malloc(ctx, 4 * (b->cells + b->n) * sizeof *b->deferred);
    b->area = rmg__malloc(ctx, (5 * b->n + (size_t)b->gw + (size_t)b->gh) * sizeof *b->area);
    b->member_of = rmg__malloc(ctx, (b->in->n_zones + 1) * sizeof *b->member_of);
    b->partner_start = rmg__calloc(ctx, b->n + 1, sizeof *b->partner_start);
    b->partner = rmg__malloc(ctx, (2 * b->in->n_pairs + 1) * sizeof *b->partner);
    b->pair_touch = rmg__malloc(ctx, b->in->n_pairs + 1);
    if (!b->members || !b->owner || !b->queued || !b->pool || !b->deferred || !b->area || !b->member_of || !b->partner_start ||
        !b->partner || !b->pair_touch)
        return false;
    b->sum_x = b->area + b->n;
    b->sum_y = b->sum_x + b->n;
    b->radius = b->sum_y + b->n;
    b->inv_r2 = b->radius + b->n;
    b->col_mid = b->inv_r2 + b->n;
    b->row_mid = b->col_mid + b->gw;
    for (int g = 0; g < b->gw; g++)
        span(g, b->step, b->w, &b->col_mid[g]);
    for (int g = 0; g < b->gh; g++)
        span(g, b->step, b->h, &b->row_mid[g]);
    return true;
}

static void list_members(balancer *b)
{
    for (size_t i = 0, m = 0; i < b->in->n_zones; i++) {
        b->member_of[i] = UINT32_MAX;
        if (b->zones[i].level != b->in->level)
            continue;
        b->member_of[i] = (uint32_t)m;
        b->members[m] = (uint32_t)i;
        b->radius[m++] = 1.0 / b->zones[i].inv_radius;
    }
}

/* The partner lists (CSR) of the linked pairs with both zones on the level. */
static void list_partners(balancer *b)
{
    const rmg__balance_in *in = b->in;
    for (size_t k = 0; k < in->n_pairs; k++) {
        uint32_t ma = b->member_of[in->pairs[k].a], mb = b->member_of[in->pairs[k].b];
        if (ma != UINT32_MAX && mb != UINT32_MAX && ma != mb) {
            b->partner_start[ma + 1]++;
            b->partner_start[mb + 1]++;
        }
    }
    for (size_t m = 0; m < b->n; m++)
        b->partner_start[m + 1] += b->partner_start[m];
    for (size_t k = 0; k < in->n_pairs; k++) {
        uint32_t ma = b->member_of[in->pairs[k].a], mb = b->member_of[in->pairs[k].b];
        if (ma == UINT32_MAX || mb == UINT32_MAX || ma == mb)
            continue;
        /* start[m] (the begin of list m) serves as its fill cursor, then is shifted back. */
        size_t ia = b->partner_start[ma]++, ib = b->partner_start[mb]++;
        b->partner[ia][0] = mb;
        b->partner[ia][1] = (uint32_t)k;
        b->partner[ib][0] = ma;
        b->partner[ib][1] = (uint32_t)k;
    }
    for (size_t m = b->n; m > 0; m--)
        b->partner_start[m] = b->partner_start[m - 1];
    b->partner_start[0] = 0;
}

/* The coarse owners as grow-zone indexes + 1, handed to the caller. */
static void hand_over(balancer *b, rmg__coarse_owner *out)
{
    for (size_t c = 0; c < b->cells; c++)
        b->owner[c] = b->owner[c] ? b->members[b->owner[c] - 1] + 1 : 0;
    out->owner = b->owner;
    out->step = b->step;
    out->gw = b->gw;
    b->owner = NULL;
}

rmg_status rmg__place_balance(rmg_context *ctx, const rmg__balance_in *in, rmg__coarse_owner *out)
{
    out->owner = NULL;
    balancer b;
    memset(&b, 0, sizeof b);
    b.in = in;
    b.zones = in->zones;
    b.w = in->w;
    b.h = in->h;
    b.n = count_members(in->zones, in->n_zones, in->level);
    if (b.n < 2)
        return RMG_OK; /* a lone zone takes the level whatever its centre */
    setup_grid(&b);
    if (!allocate(ctx, &b)) {
        release(ctx, &b);
        return rmg__error_nomem(ctx);
    }
    list_members(&b);
    list_partners(&b);
    run_rounds(&b);
    grow_round(&b, true); /* the ownership the final centres and radii give */
    hand_over(&b, out);
    release(ctx, &b);
    return RMG_OK;
}
