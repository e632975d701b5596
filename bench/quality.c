/*
 * rmg_quality: measures the generator's quality targets (issues 6, 7 and 8) over the template
 * corpus. Every template of every pack in corpus/{h3t,sod,vcmi} is generated at its normal size
 * (width/height/levels left 0: the driver's choice) for seeds 1..N, and each map is checked
 * independently of the library's own validator (see bench/QUALITY.md for the definitions).
 *
 * usage: rmg_quality [--seeds N] [--corpus DIR] [--filter SUBSTR] [--limit N] [--json FILE]
 *                    [--jobs N] [--rock on|off] [--verbose]
 */
#include <dirent.h>
#include <sys/stat.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "map/map_internal.h"
#include "place/place_internal.h"
#include "quality_balance.h"
#include "rmg/rmg.h"

#ifndef RMG_BENCH_DEFAULT_SHARED
#define RMG_BENCH_DEFAULT_SHARED "../shared"
#endif

#define N_FOLDERS 3
#define MAX_FAIL_KINDS 48
#define MAX_JOBS 16

static const char *const folder_names[N_FOLDERS] = {"h3t", "sod", "vcmi"};

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

typedef struct fail_kind {
    char kind[96];
    char example[240];
    long count;
} fail_kind;

/* Everything counted for one corpus folder (and the sum over all of them). */
typedef struct tally {
    long files, templates, maps, ok, attempts, attempts_max;
    double ms_total;
    dvec ms, cpu;
    /* issue 6 */
    dvec share_on, share_off;            /* per map: median |share - weight share| / weight share */
    long ground, ground_met, zones, zones_whole;
    /* issue 7 */
    long conns, conns_realized, conns_reported, conns_silent;
    long reach_targets, reach_ok, maps_all_reached;
    long free_zones, free_whole;
    long road_towns, road_ok;
    /* issue 8 */
    long entries, entries_ok;
    long terrain_checked, terrain_bad_tile, terrain_bad_zone;
    long limit_bad;
    long requested[3], placed[3], shortfalls, shortfall_warnings;
    long unplaceable;                       /* requested beyond what exhausted ranges could place */
    /* Placed / placeable per zone, by the tiles the zone has per requested group (the template's
     * densities: TRS-03 asks one group per 640 / density-sum tiles): < 10, < 20, < 30, < 40, more. */
    long dense_placeable[5], dense_placed[5];
    long short_exhausted, short_starved, short_room; /* shortfall warnings by cause */
    long groups, trs_first_bad, trs_next_bad, trs_loop_bad, trs_stopped_open;
    /* guards */
    long monsters, guard_bad;
    /* issue 23 */
    qb_tally balance;
    fail_kind fails[MAX_FAIL_KINDS];
    size_t n_fails;
} tally;

typedef struct options {
    int seeds, limit, verbose, jobs;
    int rock;                      /* --rock: 1 on, 0 off for every template, -1 as the template says */
    const char *corpus, *filter, *json;
} options;

/* Per-map scratch arrays, grown as maps get bigger. */
typedef struct scratch {
    size_t tiles, zones;
    uint32_t *label, *queue, *comps, *ref, *biggest, *size;
    uint8_t *mark, *adj;
    double *errs;
    FILE *log;        /* --verbose: one line per failed check, else NULL */
    char where[160];  /* "file template seed" of the map being measured */
} scratch;

static void note(const scratch *s, const char *fmt, ...) RMG__PRINTF(2, 3);

/* Logs a failed check of the current map (--verbose). */
static void note(const scratch *s, const char *fmt, ...)
{
    if (!s->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(s->log, "%s: ", s->where);
    vfprintf(s->log, fmt, ap);
    fputc('\n', s->log);
    va_end(ap);
}

/* ---- small helpers ---------------------------------------------------------------------------- */

/* CPU time of the calling thread: the machine is shared, so wall time varies between runs. */
static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void dvec_push(dvec *d, double x)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        double *v = realloc(d->v, cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "rmg_quality: out of memory\n");
            exit(2);
        }
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = x;
}

static void dvec_append(dvec *to, const dvec *from)
{
    for (size_t i = 0; i < from->n; i++)
        dvec_push(to, from->v[i]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double pct(long part, long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : NAN;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "rmg_quality: out of memory\n");
        exit(2);
    }
    return p;
}

static void scratch_free(scratch *s)
{
    free(s->label);
    free(s->queue);
    free(s->mark);
    free(s->comps);
    free(s->ref);
    free(s->biggest);
    free(s->size);
    free(s->adj);
    free(s->errs);
    /* The log settings and the current map's name outlive the arrays. */
    scratch kept = {.log = s->log};
    memcpy(kept.where, s->where, sizeof kept.where);
    *s = kept;
}

static void scratch_fit(scratch *s, size_t tiles, size_t zones)
{
    if (tiles <= s->tiles && zones <= s->zones) {
        memset(s->label, 0, tiles * sizeof *s->label);
        memset(s->mark, 0, tiles);
        memset(s->comps, 0, (zones + 1) * sizeof *s->comps);
        memset(s->ref, 0, (zones + 1) * sizeof *s->ref);
        memset(s->biggest, 0, (zones + 1) * sizeof *s->biggest);
        memset(s->size, 0, (tiles + 1) * sizeof *s->size);
        memset(s->adj, 0, (zones + 1) * (zones + 1));
        return;
    }
    scratch_free(s);
    s->tiles = tiles;
    s->zones = zones;
    s->label = xcalloc(tiles, sizeof *s->label);
    s->queue = xcalloc(tiles, sizeof *s->queue);
    s->mark = xcalloc(tiles, 1);
    s->comps = xcalloc(zones + 1, sizeof *s->comps);
    s->ref = xcalloc(zones + 1, sizeof *s->ref);
    s->biggest = xcalloc(zones + 1, sizeof *s->biggest);
    s->size = xcalloc(tiles + 1, sizeof *s->size);
    s->adj = xcalloc((zones + 1) * (zones + 1), 1);
    s->errs = xcalloc(zones + 1, sizeof *s->errs);
}

static bool land_zone(const rmg__map_zone *z)
{
    return z->tpl_id > 0 && z->kind != RMG_ZONE_ROCK && z->kind != RMG_ZONE_WATER;
}

static void tile_xyz(const rmg_map *m, size_t t, int *x, int *y, int *z)
{
    size_t plane = (size_t)m->width * (size_t)m->height;
    *z = (int)(t / plane);
    *y = (int)((t % plane) / (size_t)m->width);
    *x = (int)(t % (size_t)m->width);
}

/* Calls fn for each in-map neighbour of tile t on its level (4 or 8 directions). */
typedef void (*neighbour_fn)(void *user, size_t n);

static void each_neighbour(const rmg_map *m, size_t t, int dirs, neighbour_fn fn, void *user)
{
    static const int d8[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int x, y, z;
    tile_xyz(m, t, &x, &y, &z);
    for (int i = 0; i < dirs; i++) {
        int nx = x + d8[i][0], ny = y + d8[i][1];
        if (nx >= 0 && ny >= 0 && nx < m->width && ny < m->height)
            fn(user, rmg__tile(m->width, m->height, nx, ny, z));
    }
}

/* ---- flood fills ---------------------------------------------------------------------------- */

/* What a fill may enter, and the queue it uses. */
typedef struct fill {
    const rmg_map *m;
    scratch *s;
    uint32_t *label;
    uint32_t mark;
    size_t tail;
    uint16_t zone; /* the zone a fill stays in (zone-bound fills) */
    bool (*enter)(const struct fill *f, size_t to);
} fill;

static void fill_visit(void *user, size_t n)
{
    fill *f = user;
    if (f->label[n] || !f->enter(f, n))
        return;
    f->label[n] = f->mark;
    f->s->queue[f->tail++] = (uint32_t)n;
}

/* Breadth-first fill from the tiles already queued (label set), dirs 4 or 8. */
static size_t fill_run(fill *f, int dirs)
{
    size_t head = 0;
    while (head < f->tail)
        each_neighbour(f->m, f->s->queue[head++], dirs, fill_visit, f);
    return f->tail;
}

static void fill_seed(fill *f, size_t t)
{
    if (f->label[t])
        return;
    f->label[t] = f->mark;
    f->s->queue[f->tail++] = (uint32_t)t;
}

static bool is_guard_tile(const rmg_map *m, size_t t)
{
    if (m->flags[t] & RMG__T_GUARD)
        return true;
    uint32_t o = m->tile_object[t];
    return o && o <= m->objects.count && m->objects.items[o - 1].kind == RMG_OBJECT_MONSTER;
}

/* Walkable with guards passable, staying in the zone of the fill's first tile. */
static bool enter_free(const fill *f, size_t to)
{
    const rmg_map *m = f->m;
    return m->tile_zone[to] == f->zone && (rmg__map_tile_walkable(m, to) || is_guard_tile(m, to));
}

static bool enter_same_zone(const fill *f, size_t to)
{
    return f->m->tile_zone[to] == f->zone;
}

static bool enter_road(const fill *f, size_t to)
{
    return f->m->road[to] != 0;
}

/* Labels every component of tiles accepted by `enter` (each zone separately); counts components
 * per zone in s->comps and remembers the biggest per zone in s->biggest. */
static void label_regions(const rmg_map *m, scratch *s, int dirs, bool (*enter)(const fill *, size_t),
                          bool (*start_ok)(const rmg_map *, size_t))
{
    uint32_t next = 0;
    for (size_t t = 0; t < m->n_tiles; t++) {
        if (s->label[t] || (start_ok && !start_ok(m, t)) || !m->tile_zone[t])
            continue;
        uint16_t zone = m->tile_zone[t];
        fill f = {.m = m, .s = s, .label = s->label, .mark = ++next, .zone = zone, .enter = enter};
        fill_seed(&f, t);
        size_t n = fill_run(&f, dirs);
        s->comps[zone]++;
        s->size[next] = (uint32_t)n;
        if (!s->biggest[zone] || n > s->size[s->biggest[zone]])
            s->biggest[zone] = next;
    }
}

static bool walkable_start(const rmg_map *m, size_t t)
{
    return rmg__map_tile_walkable(m, t) || is_guard_tile(m, t);
}

/* ---- issue 6: zone shares, ground links, whole zones ------------------------------------------- */

static double map_share_error(const rmg_map *m, scratch *s)
{
    size_t n = 0;
    for (int level = 0; level < m->levels; level++) {
        double tiles = 0, weight = 0;
        for (size_t i = 0; i < m->zones.count; i++) {
            const rmg__map_zone *z = &m->zones.items[i];
            if (land_zone(z) && z->level == level) {
                tiles += (double)s->size[i + 1];
                weight += z->size_weight;
            }
        }
        for (size_t i = 0; i < m->zones.count; i++) {
            const rmg__map_zone *z = &m->zones.items[i];
            if (!land_zone(z) || z->level != level || tiles <= 0 || weight <= 0 || z->size_weight <= 0)
                continue;
            double share = (double)s->size[i + 1] / tiles, wshare = z->size_weight / weight;
            s->errs[n++] = fabs(share - wshare) / wshare;
        }
    }
    return median(s->errs, n);
}

static void count_zone_tiles_and_borders(const rmg_map *m, scratch *s)
{
    size_t nz = m->zones.count, w = (size_t)m->width;
    memset(s->size, 0, (nz + 1) * sizeof *s->size);
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t a = m->tile_zone[t];
        if (a > nz)
            continue;
        s->size[a]++;
        int x, y, z;
        tile_xyz(m, t, &x, &y, &z);
        uint16_t right = x + 1 < m->width ? m->tile_zone[t + 1] : 0, down = y + 1 < m->height ? m->tile_zone[t + w] : 0;
        if (right && right != a && right <= nz)
            s->adj[a * (nz + 1) + right] = s->adj[right * (nz + 1) + a] = 1;
        if (down && down != a && down <= nz)
            s->adj[a * (nz + 1) + down] = s->adj[down * (nz + 1) + a] = 1;
    }
}

static void measure_issue6(const rmg_map *m, scratch *s, bool rock, tally *q)
{
    size_t nz = m->zones.count;
    count_zone_tiles_and_borders(m, s);
    double err = map_share_error(m, s);
    if (!isnan(err))
        dvec_push(rock ? &q->share_on : &q->share_off, err);
    for (size_t i = 0; i < rmg_place_link_count(m); i++) {
        rmg_place_link_info l = {.struct_size = sizeof l};
        if (rmg_place_link(m, i, &l) != RMG_OK || l.placement != RMG_LINK_GROUND)
            continue;
        q->ground++;
        if (l.zone_a > 0 && l.zone_b > 0 && (size_t)l.zone_a <= nz && (size_t)l.zone_b <= nz)
            q->ground_met += s->adj[(size_t)l.zone_a * (nz + 1) + (size_t)l.zone_b];
    }
    /* One region per zone: 4-connectivity of tile ownership. */
    memset(s->size, 0, (m->n_tiles + 1) * sizeof *s->size);
    label_regions(m, s, 4, enter_same_zone, NULL);
    for (size_t i = 0; i < nz; i++) {
        if (!land_zone(&m->zones.items[i]))
            continue;
        q->zones++;
        q->zones_whole += s->comps[i + 1] == 1;
        if (s->comps[i + 1] != 1)
            note(s, "zone %zu: %u separate regions", i + 1, s->comps[i + 1]);
    }
}

/* ---- issue 7 + 8: free areas, reachability, roads ------------------------------------------- */

static bool reached(const rmg_map *m, const scratch *s, size_t t)
{
    return s->label[t] && s->label[t] == s->ref[m->tile_zone[t]];
}

/* True when any entry tile of object id `o` is in its zone's reference region. */
static bool object_reached(const rmg_map *m, const scratch *s, uint32_t o, size_t *entries)
{
    uint32_t buf[64];
    size_t n = rmg_map_object_entries(m, o - 1, buf, 64);
    if (entries)
        *entries = n;
    for (size_t i = 0; i < n && i < 64; i++)
        if (reached(m, s, buf[i]))
            return true;
    return false;
}

typedef struct near_check {
    const rmg_map *m;
    const scratch *s;
    int zone;
    bool any_in_zone, ok;
} near_check;

static void near_visit(void *user, size_t n)
{
    near_check *c = user;
    if (c->m->tile_zone[n] != c->zone)
        return;
    c->any_in_zone = true;
    c->ok |= reached(c->m, c->s, n);
}

/* A connection's entrance in zone z: its teleport objects there, else its passage tiles and
 * their neighbours lying in z. */
static bool connection_entrance_reached(const rmg_map *m, const scratch *s, const rmg__map_connection *c, int zone)
{
    bool any = false;
    for (size_t i = 0; i < c->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[c->objects.items[i] - 1];
        if ((o->kind == RMG_OBJECT_MONOLITH || o->kind == RMG_OBJECT_GATE) && o->zone == zone) {
            any = true;
            if (object_reached(m, s, o->id, NULL))
                return true;
        }
    }
    if (any)
        return false;
    near_check nc = {.m = m, .s = s, .zone = zone};
    for (size_t i = 0; i < c->tiles.count && !nc.ok; i++) {
        near_visit(&nc, c->tiles.items[i]);
        each_neighbour(m, c->tiles.items[i], 8, near_visit, &nc);
    }
    return nc.ok;
}

/* Reference region per zone: the one holding the main town's entry, else the biggest. */
static void choose_references(const rmg_map *m, scratch *s)
{
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        s->ref[z->id] = s->biggest[z->id];
        uint32_t buf[64];
        size_t n = z->main_town ? rmg_map_object_entries(m, z->main_town - 1, buf, 64) : 0;
        for (size_t k = 0; k < n && k < 64; k++)
            if (s->label[buf[k]] && m->tile_zone[buf[k]] == z->id) {
                s->ref[z->id] = s->label[buf[k]];
                break;
            }
    }
}

static bool connection_real(const rmg__map_connection *c)
{
    return c->realized != RMG_REALIZED_FICTIVE && c->kind != RMG_CONNECTION_FICTIVE;
}

static void measure_reach(const rmg_map *m, scratch *s, tally *q)
{
    long missed = 0;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (!land_zone(z) || !z->main_town)
            continue;
        for (size_t k = 0; k < m->objects.count; k++) {
            const rmg__map_object *o = &m->objects.items[k];
            if (o->zone != z->id || (o->kind != RMG_OBJECT_TOWN && o->kind != RMG_OBJECT_MINE))
                continue;
            bool ok = object_reached(m, s, o->id, NULL);
            q->reach_targets++;
            q->reach_ok += ok;
            missed += !ok;
            if (!ok)
                note(s, "zone %d: %s %u not reachable from the main town", z->id,
                     o->kind == RMG_OBJECT_TOWN ? "town" : "mine", o->id);
        }
        for (size_t k = 0; k < m->conns.count; k++) {
            const rmg__map_connection *c = &m->conns.items[k];
            if (!connection_real(c) || c->realized == RMG_REALIZED_UNREALIZED ||
                c->realized == RMG_REALIZED_WATER || (c->zone_a != z->id && c->zone_b != z->id))
                continue;
            bool ok = connection_entrance_reached(m, s, c, z->id);
            q->reach_targets++;
            q->reach_ok += ok;
            missed += !ok;
            if (!ok)
                note(s, "zone %d: entrance of connection %d not reachable from the main town", z->id, c->id);
        }
    }
    q->maps_all_reached += missed == 0;
}

static void measure_connections(const rmg_map *m, const scratch *s, tally *q)
{
    for (size_t k = 0; k < m->conns.count; k++) {
        const rmg__map_connection *c = &m->conns.items[k];
        if (!connection_real(c))
            continue;
        q->conns++;
        if (c->realized != RMG_REALIZED_UNREALIZED)
            q->conns_realized++;
        else if (c->why && c->why[0])
            q->conns_reported++;
        else {
            q->conns_silent++;
            note(s, "connection %d unrealized without a reason", c->id);
        }
    }
}

/* Union-find over zone ids for road-carrying connections. */
static uint32_t uf_find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a)
        a = parent[a] = parent[parent[a]];
    return a;
}

typedef struct road_seed {
    fill *f;
    const rmg_map *m;
    bool hit;
} road_seed;

static void road_seed_visit(void *user, size_t n)
{
    road_seed *r = user;
    if (r->m->road[n])
        fill_seed(r->f, n);
}

static void road_hit_visit(void *user, size_t n)
{
    road_seed *r = user;
    r->hit |= r->m->road[n] && r->f->label[n];
}

/* Visits an object's entry area: entry tiles and their 8 neighbours. */
static void object_area(const rmg_map *m, uint32_t o, neighbour_fn fn, void *user)
{
    uint32_t buf[64];
    size_t n = rmg_map_object_entries(m, o - 1, buf, 64);
    for (size_t i = 0; i < n && i < 64; i++) {
        fn(user, buf[i]);
        each_neighbour(m, buf[i], 8, fn, user);
    }
}

/* Road fill from a town's entry area; teleports of road-carrying connections join the road
 * networks at their ends (a road can only change level through a gate). */
static void road_fill_from(const rmg_map *m, scratch *s, uint32_t town, uint8_t *joined)
{
    memset(joined, 0, m->conns.count + 1);
    memset(s->label, 0, m->n_tiles * sizeof *s->label);
    fill f = {.m = m, .s = s, .label = s->label, .mark = 1, .enter = enter_road};
    road_seed r = {.f = &f, .m = m};
    object_area(m, town, road_seed_visit, &r);
    for (bool grew = true; grew;) {
        fill_run(&f, 8);
        grew = false;
        f.tail = 0;
        for (size_t k = 0; k < m->conns.count; k++) {
            const rmg__map_connection *c = &m->conns.items[k];
            if (!c->road || c->objects.count < 2 || joined[k])
                continue;
            bool touched = false;
            for (size_t i = 0; i < c->objects.count && !touched; i++) {
                road_seed h = {.f = &f, .m = m};
                object_area(m, c->objects.items[i], road_hit_visit, &h);
                touched = h.hit;
            }
            if (!touched)
                continue;
            joined[k] = 1;
            for (size_t i = 0; i < c->objects.count; i++)
                object_area(m, c->objects.items[i], road_seed_visit, &r);
            grew = f.tail > 0;
        }
    }
}

static void measure_roads(const rmg_map *m, scratch *s, tally *q)
{
    size_t nz = m->zones.count;
    uint32_t *parent = xcalloc(nz + 1, sizeof *parent);
    for (uint32_t i = 0; i <= nz; i++)
        parent[i] = i;
    for (size_t k = 0; k < m->conns.count; k++) {
        const rmg__map_connection *c = &m->conns.items[k];
        if (c->road && connection_real(c) && c->zone_a > 0 && c->zone_b > 0)
            parent[uf_find(parent, (uint32_t)c->zone_a)] = uf_find(parent, (uint32_t)c->zone_b);
    }
    /* For each group of road-joined zones, the first town found is the reference. */
    uint32_t *first = xcalloc(nz + 1, sizeof *first), filled_from = 0;
    uint8_t *joined = xcalloc(m->conns.count + 1, 1);
    for (size_t k = 0; k < m->objects.count; k++) {
        const rmg__map_object *o = &m->objects.items[k];
        if (o->kind != RMG_OBJECT_TOWN || o->zone <= 0 || (size_t)o->zone > nz)
            continue;
        uint32_t root = uf_find(parent, (uint32_t)o->zone);
        if (!first[root]) {
            first[root] = o->id;
            continue;
        }
        if (filled_from != first[root])
            road_fill_from(m, s, first[root], joined);
        filled_from = first[root];
        fill f = {.m = m, .s = s, .label = s->label};
        road_seed h = {.f = &f, .m = m};
        object_area(m, o->id, road_hit_visit, &h);
        q->road_towns++;
        q->road_ok += h.hit;
        if (!h.hit)
            note(s, "town %u (zone %d) not joined by road to town %u (zone %d)", o->id, o->zone, first[root],
                 m->objects.items[first[root] - 1].zone);
    }
    free(joined);
    free(first);
    free(parent);
}

/* ---- issue 8: entries, terrains, limits, groups, guards ---------------------------------------- */

static bool visitable_kind(rmg_map_object_kind k)
{
    return k != RMG_OBJECT_MONSTER && k != RMG_OBJECT_OBSTACLE;
}

static void measure_entries(const rmg_map *m, const scratch *s, tally *q)
{
    for (size_t k = 0; k < m->objects.count; k++) {
        const rmg__map_object *o = &m->objects.items[k];
        if (!visitable_kind(o->kind))
            continue;
        size_t n = 0;
        bool ok = object_reached(m, s, o->id, &n);
        if (!n)
            continue;
        q->entries++;
        q->entries_ok += ok;
        if (!ok)
            note(s, "object %u '%s' (zone %d): entry not reachable", o->id, o->key ? o->key : "", o->zone);
    }
}

/* True when every footprint and entry tile of the object lies on a terrain of the mask. */
static bool object_tiles_allowed(const rmg_map *m, const rmg__map_object *o, uint32_t terrains)
{
    uint32_t buf[64];
    size_t n = rmg_map_object_footprint(m, o->id - 1, buf, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (!(terrains & (1u << m->terrain[buf[i]])))
            return false;
    n = rmg_map_object_entries(m, o->id - 1, buf, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (!(terrains & (1u << m->terrain[buf[i]])))
            return false;
    return true;
}

static void measure_terrains_and_limits(const rmg_map *m, const rmg_content *content, const scratch *s, tally *q)
{
    size_t n_defs = rmg_content_count(content, RMG_CONTENT_OBJECT), nz = m->zones.count;
    long *per_map = xcalloc(n_defs, sizeof *per_map), *per_zone = xcalloc(n_defs * (nz + 1), sizeof *per_zone);
    rmg_object_def_info *defs = xcalloc(n_defs, sizeof *defs);
    for (size_t d = 0; d < n_defs; d++) {
        defs[d].struct_size = sizeof defs[d];
        rmg_content_object(content, RMG_CONTENT_OBJECT, d, &defs[d]);
    }
    for (size_t k = 0; k < m->objects.count; k++) {
        const rmg__map_object *o = &m->objects.items[k];
        if (o->kind != RMG_OBJECT_TREASURE || !o->key)
            continue;
        long d = rmg_content_find(content, RMG_CONTENT_OBJECT, o->key);
        if (d < 0)
            continue;
        /* WAT-03: a mirror copy repeats the surface's objects; the limits apply to what the
         * objects stage chose, so the copy is not counted again. */
        if (rmg__map_mirror_of(m, o->zone) == 0)
            per_map[d]++;
        if (o->zone > 0 && (size_t)o->zone <= nz)
            per_zone[(size_t)d * (nz + 1) + (size_t)o->zone]++;
        if (defs[d].terrains_na || !defs[d].terrains)
            continue;
        q->terrain_checked++;
        if (!object_tiles_allowed(m, o, defs[d].terrains)) {
            q->terrain_bad_tile++;
            note(s, "object %u '%s' at %d,%d,%d (zone %d, terrain %d) has a tile on a banned terrain", o->id, o->key,
                 o->x, o->y, o->z, o->zone, m->zones.items[o->zone - 1].terrain);
        }
        if (o->zone > 0 && (size_t)o->zone <= nz)
            q->terrain_bad_zone += !(defs[d].terrains & (1u << m->zones.items[o->zone - 1].terrain));
    }
    for (size_t d = 0; d < n_defs; d++) {
        if (defs[d].max_map_fixed && defs[d].max_map >= 0 && per_map[d] > defs[d].max_map) {
            q->limit_bad++;
            note(s, "object '%s': %ld on the map, fixed max_map %d", rmg_content_key(content, RMG_CONTENT_OBJECT, d),
                 per_map[d], (int)defs[d].max_map);
        }
        for (size_t z = 1; z <= nz; z++)
            if (defs[d].max_zone_fixed && defs[d].max_zone >= 0 && per_zone[d * (nz + 1) + z] > defs[d].max_zone) {
                q->limit_bad++;
                note(s, "object '%s': %ld in zone %zu, fixed max_zone %d",
                     rmg_content_key(content, RMG_CONTENT_OBJECT, d), per_zone[d * (nz + 1) + z], z,
                     (int)defs[d].max_zone);
            }
    }
    free(defs);
    free(per_zone);
    free(per_map);
}

static int density_bucket(size_t tiles, long requested)
{
    int b = 0;
    while (b < 4 && (long)tiles >= 10L * (b + 1) * requested)
        b++;
    return b;
}

static void measure_densities(const rmg_map *m, tally *q)
{
    if (m->zone_stats)
        for (size_t z = 0; z < m->zones.count; z++) {
            if (rmg__map_mirror_of(m, (int)z + 1) != 0)
                continue; /* a copy repeats its source */
            long zone_want = 0, zone_placeable = 0, zone_got = 0;
            for (int r = 0; r < 3; r++) {
                int want = m->zone_stats[z].groups_requested[r], got = m->zone_stats[z].groups_placed[r];
                bool exhausted = m->zone_stats[z].range_exhausted[r];
                q->requested[r] += want;
                q->placed[r] += got;
                q->shortfalls += got < want;
                q->unplaceable += exhausted ? want - got : 0;
                zone_want += want;
                zone_placeable += exhausted ? got : want;
                zone_got += got;
            }
            if (zone_want > 0) {
                int b = density_bucket(m->zones.items[z].n_tiles, zone_want);
                q->dense_placeable[b] += zone_placeable;
                q->dense_placed[b] += zone_got;
            }
        }
    for (size_t i = 0; i < m->warnings.count; i++) {
        const char *w = m->warnings.items[i];
        if (!strstr(w, "groups placed"))
            continue;
        q->shortfall_warnings++;
        q->short_exhausted += strstr(w, "(exhausted") != NULL;
        q->short_starved += strstr(w, "(starved") != NULL;
        q->short_room += strstr(w, "(no room") != NULL;
    }
}

/* TRS-04 from the recorded order: the inequalities every kept step must satisfy. */
static void check_group(const rmg_map *m, const rmg__map_group *g, const scratch *s, tally *q)
{
    int64_t T = g->target, G = 0;
    long before = q->trs_first_bad + q->trs_next_bad + q->trs_loop_bad;
    q->groups++;
    for (size_t i = 0; i < g->objects.count; i++) {
        int64_t v = m->objects.items[g->objects.items[i] - 1].value;
        if (i == 0) {
            q->trs_first_bad += !(4 * v >= T && v <= T);
        } else {
            int64_t left = T - G;
            q->trs_loop_bad += !(left >= 1500 || 2 * G < T);
            q->trs_next_bad += !(4 * v >= left && 4 * v <= 5 * left);
        }
        G += v;
    }
    q->trs_stopped_open += (T - G >= 1500 || 2 * G < T);
    if (q->trs_first_bad + q->trs_next_bad + q->trs_loop_bad != before)
        note(s, "group %u (zone %d, target %lld): TRS-04 step violated", g->id, g->zone, (long long)T);
}

static void measure_groups_and_guards(const rmg_map *m, const scratch *s, tally *q)
{
    for (size_t i = 0; i < m->groups.count; i++)
        if (m->groups.items[i].range >= 0 && m->groups.items[i].objects.count)
            check_group(m, &m->groups.items[i], s, q);
    for (size_t k = 0; k < m->objects.count; k++) {
        const rmg__map_object *o = &m->objects.items[k];
        if (o->kind != RMG_OBJECT_MONSTER)
            continue;
        q->monsters++;
        double want = rmg_guard_total(o->guarded_value, o->strength_index);
        if (fabs(o->strength_total - want) > 1e-9) {
            q->guard_bad++;
            note(s, "monster %u: strength_total %.2f, rmg_guard_total gives %.2f", o->id, o->strength_total, want);
        }
    }
}

static void measure_map(const rmg_map *m, const rmg_content *content, scratch *s, bool rock, tally *q)
{
    scratch_fit(s, m->n_tiles, m->zones.count);
    measure_issue6(m, s, rock, q);
    memset(s->label, 0, m->n_tiles * sizeof *s->label);
    memset(s->comps, 0, (m->zones.count + 1) * sizeof *s->comps);
    memset(s->biggest, 0, (m->zones.count + 1) * sizeof *s->biggest);
    memset(s->size, 0, (m->n_tiles + 1) * sizeof *s->size);
    label_regions(m, s, 8, enter_free, walkable_start);
    for (size_t i = 0; i < m->zones.count; i++)
        if (land_zone(&m->zones.items[i])) {
            q->free_zones++;
            q->free_whole += s->comps[i + 1] == 1;
            if (s->comps[i + 1] != 1)
                note(s, "zone %zu: free area in %u parts", i + 1, s->comps[i + 1]);
        }
    choose_references(m, s);
    measure_connections(m, s, q);
    measure_reach(m, s, q);
    measure_entries(m, s, q);
    measure_terrains_and_limits(m, content, s, q);
    measure_densities(m, q);
    measure_groups_and_guards(m, s, q);
    measure_roads(m, s, q);
}

/* ---- failures ------------------------------------------------------------------------------- */

/* A message's kind: digits and quoted names dropped, so messages differing only there count
 * together. */
static void failure_kind(const char *msg, char *out, size_t cap)
{
    size_t n = 0;
    bool quoted = false;
    for (const char *p = msg; *p && n + 1 < cap; p++) {
        if (*p == '\'') {
            quoted = !quoted;
            out[n++] = '\'';
            continue;
        }
        if (quoted || (*p >= '0' && *p <= '9'))
            continue;
        out[n++] = *p;
    }
    out[n] = '\0';
}

static void add_failure(tally *q, const char *kind, const char *example, long count)
{
    for (size_t i = 0; i < q->n_fails; i++)
        if (strcmp(q->fails[i].kind, kind) == 0) {
            q->fails[i].count += count;
            return;
        }
    if (q->n_fails == MAX_FAIL_KINDS)
        kind = "(other)";
    size_t i = q->n_fails < MAX_FAIL_KINDS ? q->n_fails++ : MAX_FAIL_KINDS - 1;
    snprintf(q->fails[i].kind, sizeof q->fails[i].kind, "%s", kind);
    snprintf(q->fails[i].example, sizeof q->fails[i].example, "%s", example);
    q->fails[i].count += count;
}

/* ---- corpus walk ---------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct file_list {
    char **names;
    size_t count, cap;
} file_list;

static void file_list_push(file_list *l, char *owned)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        char **grown = realloc(l->names, l->cap * sizeof *grown);
        if (!grown)
            exit(2);
        l->names = grown;
    }
    l->names[l->count++] = owned;
}

static void file_list_add(file_list *l, const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = xcalloc(len, 1);
    snprintf(path, len, "%s/%s", dir, name);
    file_list_push(l, path);
}

/* Every file under dir (sub-directories too: the VCMI corpus is grouped by mod). */
static void list_files(const char *dir, file_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    file_list here = {0};
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            file_list_add(&here, dir, e->d_name);
    closedir(d);
    qsort(here.names, here.count, sizeof *here.names, cmp_str);
    for (size_t i = 0; i < here.count; i++) {
        struct stat st;
        bool is_dir = stat(here.names[i], &st) == 0 && S_ISDIR(st.st_mode);
        if (is_dir)
            list_files(here.names[i], out);
        if (is_dir || stat(here.names[i], &st) != 0 || !S_ISREG(st.st_mode))
            free(here.names[i]);
        else
            file_list_push(out, here.names[i]);
    }
    free(here.names);
}

static void generate_template(rmg_context *ctx, const char *file, const rmg_pack *pack, size_t t, const options *o,
                              scratch *s, tally *q)
{
    rmg_template_info ti;
    rmg_template_info_init(&ti);
    if (rmg_template_get(pack, t, &ti) != RMG_OK)
        return;
    const rmg_content *content = NULL;
    if (rmg_context_content(ctx, &content) != RMG_OK)
        return;
    q->templates++;
    const char *base = strrchr(file, '/');
    snprintf(q->balance.name, sizeof q->balance.name, "%s: %s", base ? base + 1 : file, ti.name ? ti.name : "");
    for (int seed = 1; seed <= o->seeds; seed++) {
        rmg_generate_options opt;
        rmg_generate_options_init(&opt);
        opt.template_name = ti.name;
        snprintf(s->where, sizeof s->where, "%s '%s' seed %d", file, ti.name ? ti.name : "", seed);
        rmg_context_set_seed(ctx, (uint64_t)seed);
        rmg_map *map = NULL;
        double t0 = now_ms(), c0 = thread_cpu_ms();
        rmg_status st = rmg_generate(ctx, pack, &opt, &map);
        double ms = now_ms() - t0, cpu = thread_cpu_ms() - c0;
        dvec_push(&q->cpu, cpu);
        q->maps++;
        q->ms_total += ms;
        dvec_push(&q->ms, ms);
        if (st != RMG_OK) {
            char kind[96];
            const char *msg = rmg_context_errmsg(ctx);
            failure_kind(msg, kind, sizeof kind);
            add_failure(q, kind, msg, 1);
            note(s, "failed: %s", msg);
            rmg_context_clear_error(ctx);
            continue;
        }
        q->ok++;
        q->attempts += map->attempts;
        if (map->attempts > q->attempts_max)
            q->attempts_max = map->attempts;
        measure_map(map, content, s, ti.rock_masses != 0, q);
        qb_measure(map, cpu, s->log, s->where, &q->balance);
        rmg_map_destroy(map);
    }
}

static bool matches(const options *o, const char *file, const char *name)
{
    return !o->filter || strstr(file, o->filter) || (name && strstr(name, o->filter));
}

/* One template to measure; its tally is merged in job order, so the report does not depend
 * on the thread count. */
typedef struct job {
    size_t folder;
    const char *file;      /* owned by the job list */
    size_t tpl;
    tally q;
} job;

typedef struct job_list {
    job *jobs;
    size_t count, cap, next;
    const options *o;
    pthread_mutex_t lock;
} job_list;

static void job_add(job_list *l, size_t folder, const char *file, size_t tpl)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        job *grown = realloc(l->jobs, l->cap * sizeof *grown);
        if (!grown)
            exit(2);
        l->jobs = grown;
    }
    job *j = &l->jobs[l->count++];
    memset(j, 0, sizeof *j);
    j->folder = folder;
    j->file = file;
    j->tpl = tpl;
}

/* Lists the templates of one corpus folder that the filter and the limit keep. */
static void collect_jobs(rmg_context *ctx, const options *o, size_t folder, tally *q, file_list *keep, job_list *l,
                         int *budget)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", o->corpus, folder_names[folder]);
    file_list list = {0};
    list_files(dir, &list);
    for (size_t f = 0; f < list.count; f++) {
        rmg_pack *pack = NULL;
        if (*budget != 0 && rmg_pack_load(ctx, list.names[f], RMG_FORMAT_AUTO, &pack) == RMG_OK) {
            q->files++;
            for (size_t t = 0; t < rmg_pack_template_count(pack) && *budget != 0; t++) {
                rmg_template_info ti;
                rmg_template_info_init(&ti);
                if (rmg_template_get(pack, t, &ti) != RMG_OK || !matches(o, list.names[f], ti.name))
                    continue;
                job_add(l, folder, list.names[f], t);
                if (*budget > 0)
                    (*budget)--;
            }
        } else if (*budget != 0) {
            rmg_context_clear_error(ctx);
        }
        rmg_pack_destroy(pack);
        file_list_push(keep, list.names[f]);
    }
    free(list.names);
}

/* --rock: rock masses forced on or off in every template of the pack. */
static void force_rock(rmg_pack *pack, int rock)
{
    for (size_t t = 0; rock >= 0 && t < rmg_pack_template_count(pack); t++) {
        rmg_template_info ti;
        rmg_template_info_init(&ti);
        if (rmg_template_get(pack, t, &ti) != RMG_OK)
            continue;
        ti.name = NULL;
        ti.rock_masses = rock;
        rmg_template_set(pack, t, &ti);
    }
}

static void *worker(void *arg)
{
    job_list *l = arg;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return NULL;
    scratch s = {.log = l->o->verbose ? stderr : NULL};
    rmg_pack *pack = NULL;
    const char *loaded = NULL;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        size_t i = l->next < l->count ? l->next++ : l->count;
        pthread_mutex_unlock(&l->lock);
        if (i == l->count)
            break;
        job *j = &l->jobs[i];
        if (loaded != j->file) {
            rmg_pack_destroy(pack);
            pack = NULL;
            loaded = j->file;
            if (rmg_pack_load(ctx, j->file, RMG_FORMAT_AUTO, &pack) != RMG_OK) {
                rmg_context_clear_error(ctx);
                continue;
            }
            force_rock(pack, l->o->rock);
        }
        if (pack)
            generate_template(ctx, j->file, pack, j->tpl, l->o, &s, &j->q);
        if ((i + 1) % 50 == 0)
            fprintf(stderr, "rmg_quality: template %zu of %zu\n", i + 1, l->count);
    }
    rmg_pack_destroy(pack);
    scratch_free(&s);
    rmg_context_destroy(ctx);
    return NULL;
}

static void tally_add(tally *to, const tally *from)
{
    if (from->attempts_max > to->attempts_max)
        to->attempts_max = from->attempts_max;
    to->ms_total += from->ms_total;
    dvec_append(&to->ms, &from->ms);
    dvec_append(&to->cpu, &from->cpu);
    dvec_append(&to->share_on, &from->share_on);
    dvec_append(&to->share_off, &from->share_off);
#define ADD(f) to->f += from->f
    ADD(files); ADD(templates); ADD(maps); ADD(ok); ADD(attempts);
    ADD(ground); ADD(ground_met); ADD(zones); ADD(zones_whole);
    ADD(conns); ADD(conns_realized); ADD(conns_reported); ADD(conns_silent);
    ADD(reach_targets); ADD(reach_ok); ADD(maps_all_reached); ADD(free_zones); ADD(free_whole);
    ADD(road_towns); ADD(road_ok); ADD(entries); ADD(entries_ok);
    ADD(terrain_checked); ADD(terrain_bad_tile); ADD(terrain_bad_zone); ADD(limit_bad);
    ADD(requested[0]); ADD(requested[1]); ADD(requested[2]);
    ADD(placed[0]); ADD(placed[1]); ADD(placed[2]); ADD(shortfalls); ADD(shortfall_warnings);
    ADD(unplaceable); ADD(short_exhausted); ADD(short_starved); ADD(short_room);
    for (int b = 0; b < 5; b++) {
        ADD(dense_placeable[b]);
        ADD(dense_placed[b]);
    }
    ADD(groups); ADD(trs_first_bad); ADD(trs_next_bad); ADD(trs_loop_bad); ADD(trs_stopped_open);
    ADD(monsters); ADD(guard_bad);
#undef ADD
    qb_add(&to->balance, &from->balance);
    for (size_t i = 0; i < from->n_fails; i++)
        add_failure(to, from->fails[i].kind, from->fails[i].example, from->fails[i].count);
}

/* ---- report --------------------------------------------------------------------------------- */

typedef struct column {
    const char *name;
    tally *q;
} column;

typedef enum value_format { FMT_COUNT, FMT_PERCENT, FMT_FIXED } value_format;

static void print_row(FILE *out, const char *label, const column *cols, size_t n, double (*value)(tally *),
                      value_format fmt)
{
    fprintf(out, "%-44s", label);
    for (size_t i = 0; i < n; i++) {
        double v = value(cols[i].q);
        if (isnan(v))
            fprintf(out, " %12s", "-");
        else if (fmt == FMT_PERCENT)
            fprintf(out, " %11.2f%%", v);
        else if (fmt == FMT_FIXED)
            fprintf(out, " %12.2f", v);
        else
            fprintf(out, " %12.0f", v);
    }
    fputc('\n', out);
}

/* One metric per function, so the text table and the JSON report list the same things. */
#define METRIC(fn, expr)                                                                                          \
    static double fn(tally *q)                                                                                   \
    {                                                                                                             \
        return (expr);                                                                                            \
    }
METRIC(m_templates, (double)q->templates)
METRIC(m_maps, (double)q->maps)
METRIC(m_success, pct(q->ok, q->maps))
METRIC(m_attempts_mean, q->ok ? (double)q->attempts / (double)q->ok : NAN)
METRIC(m_attempts_max, (double)q->attempts_max)
METRIC(m_ms_median, median(q->ms.v, q->ms.n))
METRIC(m_ms_mean, q->maps ? q->ms_total / (double)q->maps : NAN)
METRIC(m_cpu_median, median(q->cpu.v, q->cpu.n))
METRIC(m_share_on, 100.0 * median(q->share_on.v, q->share_on.n))
METRIC(m_share_on_maps, (double)q->share_on.n)
METRIC(m_share_off, 100.0 * median(q->share_off.v, q->share_off.n))
METRIC(m_share_off_maps, (double)q->share_off.n)
METRIC(m_ground, pct(q->ground_met, q->ground))
METRIC(m_ground_n, (double)q->ground)
METRIC(m_zones_whole, pct(q->zones_whole, q->zones))
METRIC(m_conn_realized, pct(q->conns_realized, q->conns))
METRIC(m_conn_reported, pct(q->conns_reported, q->conns))
METRIC(m_conn_silent, pct(q->conns_silent, q->conns))
METRIC(m_reach, pct(q->reach_ok, q->reach_targets))
METRIC(m_reach_maps, pct(q->maps_all_reached, q->ok))
METRIC(m_free, pct(q->free_whole, q->free_zones))
METRIC(m_roads, pct(q->road_ok, q->road_towns))
METRIC(m_roads_n, (double)q->road_towns)
METRIC(m_entries, pct(q->entries_ok, q->entries))
METRIC(m_terrain_tile, (double)q->terrain_bad_tile)
METRIC(m_terrain_zone, (double)q->terrain_bad_zone)
METRIC(m_limits, (double)q->limit_bad)
METRIC(m_range0, pct(q->placed[0], q->requested[0]))
METRIC(m_range1, pct(q->placed[1], q->requested[1]))
METRIC(m_range2, pct(q->placed[2], q->requested[2]))
METRIC(m_placed, pct(q->placed[0] + q->placed[1] + q->placed[2], q->requested[0] + q->requested[1] + q->requested[2]))
METRIC(m_placeable, pct(q->placed[0] + q->placed[1] + q->placed[2],
                       q->requested[0] + q->requested[1] + q->requested[2] - q->unplaceable))
METRIC(m_unplaceable, (double)q->unplaceable)
METRIC(m_dense0, pct(q->dense_placed[0], q->dense_placeable[0]))
METRIC(m_dense1, pct(q->dense_placed[1], q->dense_placeable[1]))
METRIC(m_dense2, pct(q->dense_placed[2], q->dense_placeable[2]))
METRIC(m_dense3, pct(q->dense_placed[3], q->dense_placeable[3]))
METRIC(m_dense4, pct(q->dense_placed[4], q->dense_placeable[4]))
METRIC(m_dense0_n, (double)q->dense_placeable[0])
METRIC(m_dense1_n, (double)q->dense_placeable[1])
METRIC(m_dense2_n, (double)q->dense_placeable[2])
METRIC(m_dense3_n, (double)q->dense_placeable[3])
METRIC(m_dense4_n, (double)q->dense_placeable[4])
METRIC(m_short_exhausted, (double)q->short_exhausted)
METRIC(m_short_starved, (double)q->short_starved)
METRIC(m_short_room, (double)q->short_room)
METRIC(m_shortfalls, (double)q->shortfalls)
METRIC(m_shortfall_warnings, (double)q->shortfall_warnings)
METRIC(m_groups, (double)q->groups)
METRIC(m_trs_first, (double)q->trs_first_bad)
METRIC(m_trs_next, (double)q->trs_next_bad)
METRIC(m_trs_loop, (double)q->trs_loop_bad)
METRIC(m_trs_open, (double)q->trs_stopped_open)
METRIC(m_monsters, (double)q->monsters)
METRIC(m_guard_bad, (double)q->guard_bad)
METRIC(m_bal_reports, pct(q->balance.reports, q->balance.maps))
METRIC(m_bal_players, pct(q->balance.players_reported, q->balance.players_expected))
METRIC(m_bal_complete, pct(q->balance.maps_complete, q->balance.reports))
METRIC(m_bal_pairs, (double)q->balance.pairs)
METRIC(m_bal_walkable, (double)q->balance.pairs_walkable)
METRIC(m_bal_equal, pct(q->balance.pairs_equal, q->balance.pairs_walkable))
METRIC(m_bal_longer, (double)q->balance.pairs_longer)
METRIC(m_bal_shorter, (double)q->balance.pairs_shorter)
METRIC(m_bal_unreached, (double)q->balance.pairs_unreached)
METRIC(m_bal_score, q->balance.scores.n ? qb_median(&q->balance.scores) : NAN)
METRIC(m_bal_ratio, q->balance.ratios.n ? qb_median(&q->balance.ratios) : NAN)
#undef METRIC

typedef struct metric {
    const char *key, *label;
    value_format fmt;
    double (*value)(tally *);
} metric;

#define PCT FMT_PERCENT
#define NUM FMT_COUNT
#define FIX FMT_FIXED
static const metric metrics[] = {
    {"templates", "templates", NUM, m_templates},
    {"maps", "maps (templates x seeds)", NUM, m_maps},
    {"success_pct", "generation succeeded", PCT, m_success},
    {"attempts_mean", "attempts per map (mean)", FIX, m_attempts_mean},
    {"attempts_max", "attempts per map (max)", NUM, m_attempts_max},
    {"ms_median", "wall time per map ms (median)", FIX, m_ms_median},
    {"ms_mean", "wall time per map ms (mean)", FIX, m_ms_mean},
    {"cpu_ms_median", "CPU time per map ms (median)", FIX, m_cpu_median},
    {"share_error_rock_on_pct", "#6 share error median, rock masses on", PCT, m_share_on},
    {"share_maps_rock_on", "   maps of templates with rock masses on", NUM, m_share_on_maps},
    {"share_error_rock_off_pct", "#6 share error median, rock masses off", PCT, m_share_off},
    {"share_maps_rock_off", "   maps of templates with rock masses off", NUM, m_share_off_maps},
    {"ground_links_pct", "#6 ground links realized (shared border)", PCT, m_ground},
    {"ground_links", "   ground links", NUM, m_ground_n},
    {"zones_one_region_pct", "#6 zones that are one region (4-conn.)", PCT, m_zones_whole},
    {"connections_realized_pct", "#7 connections realized", PCT, m_conn_realized},
    {"connections_reported_pct", "#7 connections unrealized with reason", PCT, m_conn_reported},
    {"connections_silent_pct", "#7 connections failed silently", PCT, m_conn_silent},
    {"reach_targets_pct", "#7 towns/mines/entrances reached", PCT, m_reach},
    {"reach_maps_pct", "#7 maps with every target reached", PCT, m_reach_maps},
    {"free_area_connected_pct", "#7 zones with a connected free area", PCT, m_free},
    {"road_towns_pct", "#7 road-joined towns joined by road", PCT, m_roads},
    {"road_towns", "   towns checked", NUM, m_roads_n},
    {"entries_reached_pct", "#8 object entries reachable", PCT, m_entries},
    {"terrain_bad_tile", "#8 objects on a banned terrain (tile)", NUM, m_terrain_tile},
    {"terrain_bad_zone", "#8 objects on a banned terrain (zone)", NUM, m_terrain_zone},
    {"limit_violations", "#8 fixed max_map/max_zone violations", NUM, m_limits},
    {"range1_placed_pct", "#8 groups placed / requested, range 1", PCT, m_range0},
    {"range2_placed_pct", "#8 groups placed / requested, range 2", PCT, m_range1},
    {"range3_placed_pct", "#8 groups placed / requested, range 3", PCT, m_range2},
    {"groups_placed_pct", "#8 groups placed / requested, all", PCT, m_placed},
    {"shortfalls", "   zone ranges short of groups", NUM, m_shortfalls},
    {"shortfall_warnings", "   'groups placed' warnings", NUM, m_shortfall_warnings},
    {"shortfalls_exhausted", "   of them: range exhausted (TRS-06/10)", NUM, m_short_exhausted},
    {"shortfalls_starved", "   of them: drawn totals starved", NUM, m_short_starved},
    {"shortfalls_room", "   of them: no room left", NUM, m_short_room},
    {"groups_unplaceable", "   groups beyond exhausted ranges", NUM, m_unplaceable},
    {"groups_placeable_pct", "#8 groups placed / placeable", PCT, m_placeable},
    {"placeable_tpg_lt10_pct", "   zones asking < 10 tiles per group", PCT, m_dense0},
    {"placeable_tpg_lt10", "      placeable groups there", NUM, m_dense0_n},
    {"placeable_tpg_lt20_pct", "   zones asking 10..19 tiles per group", PCT, m_dense1},
    {"placeable_tpg_lt20", "      placeable groups there", NUM, m_dense1_n},
    {"placeable_tpg_lt30_pct", "   zones asking 20..29 tiles per group", PCT, m_dense2},
    {"placeable_tpg_lt30", "      placeable groups there", NUM, m_dense2_n},
    {"placeable_tpg_lt40_pct", "   zones asking 30..39 tiles per group", PCT, m_dense3},
    {"placeable_tpg_lt40", "      placeable groups there", NUM, m_dense3_n},
    {"placeable_tpg_ge40_pct", "   zones asking >= 40 tiles per group", PCT, m_dense4},
    {"placeable_tpg_ge40", "      placeable groups there", NUM, m_dense4_n},
    {"groups_checked", "#8 TRS-04 groups checked", NUM, m_groups},
    {"trs_first_violations", "   first object outside [T/4, T]", NUM, m_trs_first},
    {"trs_next_violations", "   next object outside [(T-G)/4, 5(T-G)/4]", NUM, m_trs_next},
    {"trs_loop_violations", "   object added after the stop rule held", NUM, m_trs_loop},
    {"trs_stopped_open", "   stopped early (no candidate, allowed)", NUM, m_trs_open},
    {"monsters", "guards: monsters checked", NUM, m_monsters},
    {"guard_total_mismatches", "guards: strength_total != rmg_guard_total", NUM, m_guard_bad},
    {"balance_reports_pct", "#23 maps with a balance report", PCT, m_bal_reports},
    {"balance_players_pct", "#23 town owners that are report players", PCT, m_bal_players},
    {"balance_maps_complete_pct", "#23 maps with every player reported", PCT, m_bal_complete},
    {"balance_pairs", "#23 ordered pairs of players", NUM, m_bal_pairs},
    {"balance_pairs_walkable", "   with a walk (lower bound) between them", NUM, m_bal_walkable},
    {"balance_tiles_equal_pct", "   path_tiles = the bound", PCT, m_bal_equal},
    {"balance_tiles_longer", "   path_tiles > the bound", NUM, m_bal_longer},
    {"balance_tiles_shorter", "   path_tiles < the bound (must be 0)", NUM, m_bal_shorter},
    {"balance_path_unwalkable", "   a path where no walk exists (must be 0)", NUM, m_bal_unreached},
    {"balance_score_median", "#23 fairness score (median)", FIX, m_bal_score},
    {"balance_cpu_ratio_median", "#23 report CPU / generation CPU (median)", FIX, m_bal_ratio},
};
#undef PCT
#undef NUM
#undef FIX

static void print_table(FILE *out, const column *cols, size_t n)
{
    fprintf(out, "%-44s", "");
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %12s", cols[i].name);
    fputc('\n', out);
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        print_row(out, metrics[i].label, cols, n, metrics[i].value, metrics[i].fmt);
    const tally *all = cols[n - 1].q;
    if (all->n_fails) {
        fprintf(out, "\nfailures by kind (count: example)\n");
        for (size_t i = 0; i < all->n_fails; i++)
            fprintf(out, "%6ld: %s\n", all->fails[i].count, all->fails[i].example);
    }
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static int write_json(const char *path, const column *cols, size_t n, int seeds)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  \"seeds\": %d,\n  \"folders\": {\n", seeds);
    for (size_t c = 0; c < n; c++) {
        fprintf(f, "    \"%s\": {\n", cols[c].name);
        for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
            double v = metrics[i].value(cols[c].q);
            fprintf(f, "      \"%s\": ", metrics[i].key);
            if (isnan(v))
                fprintf(f, "null,\n");
            else
                fprintf(f, "%.4f,\n", v);
        }
        fprintf(f, "      \"failures\": [");
        for (size_t i = 0; i < cols[c].q->n_fails; i++) {
            fprintf(f, "%s{\"count\": %ld, \"example\": ", i ? ", " : "", cols[c].q->fails[i].count);
            json_string(f, cols[c].q->fails[i].example);
            fputc('}', f);
        }
        fprintf(f, "]\n    }%s\n", c + 1 < n ? "," : "");
    }
    fprintf(f, "  }\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- main ----------------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: rmg_quality [--seeds N] [--corpus DIR] [--filter SUBSTR] [--limit N] [--json FILE]\n"
                    "                   [--jobs N] [--rock on|off] [--verbose]\n"
                    "  Generates every corpus template (corpus/{h3t,sod,vcmi}) at its normal size for seeds\n"
                    "  1..N (default 20) and measures the quality targets of issues 6, 7 and 8.\n"
                    "  --filter keeps templates whose file or name contains SUBSTR; --limit stops after N\n"
                    "  templates; --jobs runs N threads (same report); --rock forces rock masses on or off\n"
                    "  in every template; --verbose logs each failed check on stderr. The corpus defaults\n"
                    "  to $RMG_SHARED_DIR/corpus, else ../shared/corpus next to the source tree.\n");
    return 2;
}

static int parse_args(int argc, char **argv, options *o, char *corpus, size_t cap)
{
    const char *shared = getenv("RMG_SHARED_DIR");
    if (!shared || !*shared)
        shared = RMG_BENCH_DEFAULT_SHARED;
    if (strlen(shared) + sizeof "/corpus" > cap)
        return -1;
    strcpy(corpus, shared);
    strcat(corpus, "/corpus");
    *o = (options){.seeds = 20, .limit = -1, .jobs = 1, .rock = -1, .corpus = corpus};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
            continue;
        }
        if (!v)
            return -1;
        if (strcmp(a, "--seeds") == 0)
            o->seeds = atoi(v);
        else if (strcmp(a, "--jobs") == 0)
            o->jobs = atoi(v);
        else if (strcmp(a, "--rock") == 0)
            o->rock = strcmp(v, "on") == 0 ? 1 : strcmp(v, "off") == 0 ? 0 : -2;
        else if (strcmp(a, "--limit") == 0)
            o->limit = atoi(v);
        else if (strcmp(a, "--corpus") == 0)
            o->corpus = v;
        else if (strcmp(a, "--filter") == 0)
            o->filter = v;
        else if (strcmp(a, "--json") == 0)
            o->json = v;
        else
            return -1;
        i++;
    }
    return o->seeds > 0 && o->rock >= -1 && o->jobs >= 1 && o->jobs <= MAX_JOBS ? 0 : -1;
}

static void tally_free(tally *q)
{
    qb_free(&q->balance);
    free(q->ms.v);
    free(q->cpu.v);
    free(q->share_on.v);
    free(q->share_off.v);
}

int main(int argc, char **argv)
{
    options o;
    char corpus[1024];
    if (parse_args(argc, argv, &o, corpus, sizeof corpus) != 0)
        return usage();
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg_quality: cannot create a context\n");
        return 1;
    }
    static tally folders[N_FOLDERS + 1];
    int budget = o.limit;
    double t0 = now_ms();
    file_list paths = {0};
    job_list jobs = {.o = &o};
    for (size_t f = 0; f < N_FOLDERS; f++)
        collect_jobs(ctx, &o, f, &folders[f], &paths, &jobs, &budget);
    rmg_context_destroy(ctx);
    pthread_mutex_init(&jobs.lock, NULL);
    pthread_t threads[MAX_JOBS];
    int started = 0;
    for (int i = 0; i < o.jobs; i++)
        started += pthread_create(&threads[started], NULL, worker, &jobs) == 0;
    if (!started)
        worker(&jobs);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&jobs.lock);
    const qb_tally **ranked = xcalloc(jobs.count + 1, sizeof *ranked);
    for (size_t i = 0; i < jobs.count; i++) {
        tally_add(&folders[jobs.jobs[i].folder], &jobs.jobs[i].q);
        ranked[i] = &jobs.jobs[i].q.balance;
    }
    for (size_t i = 0; i < paths.count; i++)
        free(paths.names[i]);
    free(paths.names);
    for (size_t f = 0; f < N_FOLDERS; f++)
        tally_add(&folders[N_FOLDERS], &folders[f]);
    column cols[N_FOLDERS + 1];
    for (size_t f = 0; f < N_FOLDERS; f++)
        cols[f] = (column){folder_names[f], &folders[f]};
    cols[N_FOLDERS] = (column){"all", &folders[N_FOLDERS]};
    printf("rmg_quality: corpus %s, seeds 1..%d, %.1f s\n\n", o.corpus, o.seeds, (now_ms() - t0) / 1000.0);
    print_table(stdout, cols, N_FOLDERS + 1);
    qb_print_ranking(stdout, ranked, jobs.count, 10);
    for (size_t i = 0; i < jobs.count; i++)
        tally_free(&jobs.jobs[i].q);
    free(ranked);
    free(jobs.jobs);
    int rc = folders[N_FOLDERS].maps ? 0 : 1;
    if (!folders[N_FOLDERS].maps)
        fprintf(stderr, "rmg_quality: no template generated (corpus not found at %s?)\n", o.corpus);
    if (o.json && write_json(o.json, cols, N_FOLDERS + 1, o.seeds) != 0) {
        fprintf(stderr, "rmg_quality: cannot write %s\n", o.json);
        rc = 1;
    }
    for (size_t f = 0; f <= N_FOLDERS; f++)
        tally_free(&folders[f]);
    return rc;
}
