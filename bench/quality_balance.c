/*
 * rmg_quality's balance section. Each corpus map gets a balance report, checked against the map:
 *  - every owner of a town on the map is a player of the report;
 *  - no path_tiles is shorter than the shortest walk of a search written here, which bounds the
 *    game's walk from below: 8 neighbours, every land tile the game leaves open and every object's
 *    entry walkable, every shore a place to board a boat, a teleport leading to every other of
 *    its colour (and a gate to every gate). A report shorter than that would be impossible.
 * It also keeps the report's thread CPU time against the generation's, and the score per map.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "map/map_internal.h"
#include "quality_balance.h"

static void push(qb_values *v, double x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 16;
        double *grown = realloc(v->v, v->cap * sizeof *grown);
        if (!grown)
            exit(2);
        v->v = grown;
    }
    v->v[v->n++] = x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double qb_median(const qb_values *v)
{
    if (!v->n)
        return 0;
    double *copy = malloc(v->n * sizeof *copy);
    if (!copy)
        exit(2);
    memcpy(copy, v->v, v->n * sizeof *copy);
    qsort(copy, v->n, sizeof *copy, cmp_double);
    double m = v->n % 2 ? copy[v->n / 2] : (copy[v->n / 2 - 1] + copy[v->n / 2]) / 2;
    free(copy);
    return m;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the lower bound ------------------------------------------------------------------------ */

typedef struct bound {
    const struct rmg_map *m;
    size_t plane;
    uint8_t *open;                 /* per tile: 1 land, 2 water, 0 closed */
    int32_t *group;                /* per tile: teleport group + 1 (colour, or gates), 0 none */
    uint32_t *dist, *deque;
} bound;

/* Teleport groups: a monolith's colour index, or -1 for gates; jumps go anywhere in the group. */
static int teleport_group(const rmg__map_object *o)
{
    if (o->kind == RMG_OBJECT_GATE)
        return 0;
    return o->kind == RMG_OBJECT_MONOLITH && o->color >= 0 ? o->color + 1 : -1;
}

static bool bound_init(bound *b, const struct rmg_map *m)
{
    memset(b, 0, sizeof *b);
    b->m = m;
    b->plane = (size_t)m->width * (size_t)m->height;
    b->open = calloc(m->n_tiles, 1);
    b->group = calloc(m->n_tiles, sizeof *b->group);
    b->dist = malloc(m->n_tiles * sizeof *b->dist);
    b->deque = malloc(2 * (m->n_tiles + 1) * sizeof *b->deque);
    if (!b->open || !b->group || !b->dist || !b->deque)
        return false;
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t f = m->flags[t];
        if (f & RMG__T_WATER)
            b->open[t] = 2;
        else if (!(f & RMG__T_ROCK) && rmg__map_tile_passable(m, t))
            b->open[t] = 1;
    }
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        int g = teleport_group(o);
        uint32_t entries[48];
        size_t n = rmg__object_tiles(m, o, o->visit, entries, 48);
        for (size_t k = 0; k < n && k < 48; k++) {
            if (!(m->flags[entries[k]] & (RMG__T_WATER | RMG__T_ROCK)))
                b->open[entries[k]] = 1;
            if (g >= 0)
                b->group[entries[k]] = g + 1;
        }
    }
    return true;
}

static void bound_free(bound *b)
{
    free(b->open);
    free(b->group);
    free(b->dist);
    free(b->deque);
}

/* Breadth-first with jumps of no step (a deque: jumps go to the front). */
static uint32_t walk(bound *b, uint32_t from, uint32_t to)
{
    const struct rmg_map *m = b->m;
    size_t n = m->n_tiles, cap = 2 * (n + 1), head = n + 1, tail = n + 1;
    memset(b->dist, 0xFF, n * sizeof *b->dist);
    b->dist[from] = 0;
    b->deque[tail++] = from;
    while (head != tail) {
        uint32_t u = b->deque[head];
        head = (head + 1) % cap;
        if (u == to)
            return b->dist[u];
        if (b->group[u])
            for (uint32_t v = 0; v < n; v++)
                if (b->group[v] == b->group[u] && b->dist[v] > b->dist[u]) {
                    b->dist[v] = b->dist[u];
                    head = (head + cap - 1) % cap;
                    b->deque[head] = v;
                }
        int x = (int)(u % b->plane % (size_t)m->width), y = (int)(u % b->plane / (size_t)m->width);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if ((!dx && !dy) || x + dx < 0 || y + dy < 0 || x + dx >= m->width || y + dy >= m->height)
                    continue;
                uint32_t v = (uint32_t)((int64_t)u + dy * m->width + dx);
                if (b->open[v] && b->dist[v] > b->dist[u] + 1) {
                    b->dist[v] = b->dist[u] + 1;
                    b->deque[tail] = v;
                    tail = (tail + 1) % cap;
                }
            }
    }
    return UINT32_MAX;
}

/* ---- one map ------------------------------------------------------------------------------ */

static void note(FILE *log, const char *where, const char *what, int a, int b, long got, long want)
{
    if (log)
        fprintf(log, "%s: balance: %s (player %d to %d: %ld, bound %ld)\n", where, what, a, b, got, want);
}

/* Owners of towns on the map, as a bit set. */
static unsigned town_owners(const struct rmg_map *m)
{
    unsigned owners = 0;
    for (size_t i = 0; i < m->objects.count; i++)
        if (m->objects.items[i].kind == RMG_OBJECT_TOWN && m->objects.items[i].owner >= 1 &&
            m->objects.items[i].owner <= 8)
            owners |= 1u << m->objects.items[i].owner;
    return owners;
}

static void check_players(const struct rmg_map *m, const rmg_balance *r, qb_tally *q)
{
    unsigned want = town_owners(m), got = 0;
    for (size_t i = 0; i < rmg_balance_player_count(r); i++) {
        rmg_balance_player_info p = {.struct_size = sizeof p};
        rmg_balance_player(r, i, &p);
        got |= 1u << p.player;
    }
    q->players_expected += __builtin_popcount(want);
    q->players_reported += __builtin_popcount(want & got);
    q->maps_complete += want == got;
}

static void check_paths(const struct rmg_map *m, const rmg_balance *r, bound *b, FILE *log, const char *where,
                        qb_tally *q)
{
    size_t n = rmg_balance_player_count(r);
    for (size_t i = 0; i < n; i++) {
        rmg_balance_player_info p = {.struct_size = sizeof p};
        rmg_balance_player(r, i, &p);
        uint32_t from = (uint32_t)rmg__tile(m->width, m->height, p.town_x, p.town_y, p.town_z);
        for (size_t k = 0, j = 0; k < p.path_count; k++, j++) {
            rmg_balance_path_info t = {.struct_size = sizeof t};
            rmg_balance_path(r, i, k, &t);
            rmg_balance_player_info o = {.struct_size = sizeof o};
            j += j == i;
            rmg_balance_player(r, j, &o);
            uint32_t w = walk(b, from, (uint32_t)rmg__tile(m->width, m->height, o.town_x, o.town_y, o.town_z));
            q->pairs++;
            if (w == UINT32_MAX) {
                /* No walk even with every relaxation: the report must find none either. */
                q->pairs_unreached += t.reachable != 0;
                if (t.reachable)
                    note(log, where, "a path where no walk exists", p.player, t.player, (long)t.tiles, -1);
                continue;
            }
            q->pairs_walkable++;
            if (!t.reachable)
                continue;
            q->pairs_equal += t.tiles == (int64_t)w;
            q->pairs_longer += t.tiles > (int64_t)w;
            q->pairs_shorter += t.tiles < (int64_t)w;
            if (t.tiles < (int64_t)w)
                note(log, where, "path_tiles below the bound", p.player, t.player, (long)t.tiles, (long)w);
        }
    }
}

void qb_measure(const rmg_map *map, double gen_cpu_ms, FILE *log, const char *where, qb_tally *q)
{
    q->maps++;
    rmg_balance *r = NULL;
    double c0 = cpu_ms();
    if (rmg_map_balance(map, NULL, &r) != RMG_OK) {
        if (log)
            fprintf(log, "%s: balance: no report: %s\n", where, rmg_context_errmsg(map->ctx));
        return;
    }
    double report_ms = cpu_ms() - c0;
    q->reports++;
    push(&q->scores, rmg_balance_score(r));
    if (gen_cpu_ms > 0)
        push(&q->ratios, report_ms / gen_cpu_ms);
    check_players(map, r, q);
    bound b;
    if (bound_init(&b, map))
        check_paths(map, r, &b, log, where, q);
    bound_free(&b);
    rmg_balance_destroy(r);
}

static void append(qb_values *to, const qb_values *from)
{
    for (size_t i = 0; i < from->n; i++)
        push(to, from->v[i]);
}

void qb_add(qb_tally *to, const qb_tally *from)
{
    to->maps += from->maps;
    to->reports += from->reports;
    to->players_expected += from->players_expected;
    to->players_reported += from->players_reported;
    to->maps_complete += from->maps_complete;
    to->pairs += from->pairs;
    to->pairs_walkable += from->pairs_walkable;
    to->pairs_equal += from->pairs_equal;
    to->pairs_longer += from->pairs_longer;
    to->pairs_shorter += from->pairs_shorter;
    to->pairs_unreached += from->pairs_unreached;
    append(&to->scores, &from->scores);
    append(&to->ratios, &from->ratios);
}

void qb_free(qb_tally *q)
{
    free(q->scores.v);
    free(q->ratios.v);
    q->scores = q->ratios = (qb_values){0};
}

/* ---- the ranking ---------------------------------------------------------------------------- */

typedef struct ranked {
    const qb_tally *t;
    double median;
} ranked;

static int by_median(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->median != y->median)
        return x->median > y->median ? -1 : 1;
    return strcmp(x->t->name, y->t->name);
}

static void print_ranked(FILE *out, const ranked *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double lo = r[i].t->scores.v[0], hi = lo;
        for (size_t k = 1; k < r[i].t->scores.n; k++) {
            lo = r[i].t->scores.v[k] < lo ? r[i].t->scores.v[k] : lo;
            hi = r[i].t->scores.v[k] > hi ? r[i].t->scores.v[k] : hi;
        }
        fprintf(out, "  %6.1f  (%5.1f..%5.1f)  %s\n", r[i].median, lo, hi, r[i].t->name);
    }
}

void qb_print_ranking(FILE *out, const qb_tally *const *templates, size_t n, size_t count)
{
    ranked *r = calloc(n + 1, sizeof *r);
    size_t k = 0;
    if (!r)
        return;
    /* Templates of one player have nothing to compare: left out. */
    for (size_t i = 0; i < n; i++)
        if (templates[i]->scores.n && templates[i]->pairs)
            r[k++] = (ranked){templates[i], qb_median(&templates[i]->scores)};
    qsort(r, k, sizeof *r, by_median);
    size_t shown = count < k ? count : k;
    fprintf(out, "\nbalance: the fairest templates by median score (min..max over the seeds), of %zu with two players or more\n", k);
    print_ranked(out, r, shown);
    fprintf(out, "balance: the least fair templates\n");
    print_ranked(out, r + k - shown, shown);
    free(r);
}
