/*
 * A small binary constraint solver over bitmask domains (values 0..31), used for the
 * type-selection rules (ZON-13, ZON-20, ZON-21).
 *
 * Sampling: the constraint graph splits into independent components. A component is first
 * counted exactly: branch on the variable with the most constraints, propagate (arc
 * consistency), split what is left into independent parts and multiply their counts, caching
 * the count of every residual part by its variables and domains. Chains, trees and rings of
 * zones count in polynomial time that way. A value is then drawn in proportion to the solutions
 * it leaves, so every solution has the same probability. Components that cannot be counted
 * within `enum_limit` nodes (all-different cliques, say) are solved by randomized search
 * (random value order, random tie breaks, geometric restarts), then Gibbs mixing steps move the
 * found solution towards a uniform pick; arc consistency keeps the search fast when solutions
 * are rare.
 *
 * Conflicts: when a component is proved unsolvable, a deletion filter finds a minimal set of
 * constraints that cannot hold together, the latest of them is given up, and the component is
 * solved again. When the node budget runs out first, a bounded min-conflicts local search picks
 * an assignment that breaks few constraints. The solver therefore always terminates.
 */
#include <string.h>

#include "solve/solve_internal.h"

#define LOCAL_SEARCH_STEPS 20000u
#define RESTART_FIRST_CUTOFF 256u

rmg_status rmg__csp_init(rmg__csp *csp, rmg_context *ctx, rmg__arena *arena, size_t n_vars, uint64_t budget)
{
    memset(csp, 0, sizeof *csp);
    csp->arena = arena;
    csp->n_vars = n_vars;
    csp->budget = budget ? budget : RMG__CSP_DEFAULT_BUDGET;
    csp->enum_limit = RMG__CSP_DEFAULT_ENUM_LIMIT;
    csp->dom = rmg__arena_alloc(arena, (n_vars ? n_vars : 1) * sizeof *csp->dom);
    if (!csp->dom)
        return rmg__error_nomem(ctx);
    return RMG_OK;
}

rmg__csp_con *rmg__csp_add(rmg_context *ctx, rmg__csp *csp, int x, int y, int tag)
{
    rmg__csp_con *c = rmg__arena_grow(csp->arena, (void **)&csp->cons, &csp->n_cons, sizeof *c);
    if (!c) {
        rmg__error_nomem(ctx);
        return NULL;
    }
    c->x = x;
    c->y = y;
    c->tag = tag;
    c->enabled = true;
    return c;
}

void rmg__csp_con_finish(rmg__csp_con *c)
{
    memset(c->sup_yx, 0, sizeof c->sup_yx);
    for (unsigned a = 0; a < RMG__CSP_VALUES; a++)
        for (unsigned b = 0; b < RMG__CSP_VALUES; b++)
            if (c->sup_xy[a] & (1u << b))
                c->sup_yx[b] |= 1u << a;
}

bool rmg__csp_con_ok(const rmg__csp_con *c, const uint32_t *assign)
{
    uint32_t a = assign[c->x], b = assign[c->y];
    return a < RMG__CSP_VALUES && b < RMG__CSP_VALUES && (c->sup_xy[a] & (1u << b)) != 0;
}

static unsigned popcount32(uint32_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static unsigned lowest_bit(uint32_t v)
{
    unsigned i = 0;
    while (!(v & 1u)) {
        v >>= 1;
        i++;
    }
    return i;
}

/* The k-th set bit (k < popcount). */
static unsigned nth_bit(uint32_t v, unsigned k)
{
    for (; k; k--)
        v &= v - 1;
    return lowest_bit(v);
}

/* ---- problem structure --------------------------------------------------------------------- */

static rmg_status build_adjacency(rmg_context *ctx, rmg__csp *csp)
{
    size_t n = csp->n_vars;
    csp->adj_start = rmg__arena_alloc(csp->arena, (n + 1) * sizeof *csp->adj_start);
    csp->adj = rmg__arena_alloc(csp->arena, (2 * csp->n_cons + 1) * sizeof *csp->adj);
    if (!csp->adj_start || !csp->adj)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < csp->n_cons; i++) {
        csp->adj_start[csp->cons[i].x + 1]++;
        csp->adj_start[csp->cons[i].y + 1]++;
    }
    for (size_t v = 0; v < n; v++)
        csp->adj_start[v + 1] += csp->adj_start[v];
    size_t *fill = rmg__arena_alloc(csp->arena, (n ? n : 1) * sizeof *fill);
    if (!fill)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < csp->n_cons; i++) {
        int ends[2] = {csp->cons[i].x, csp->cons[i].y};
        for (int e = 0; e < 2; e++) {
            size_t v = (size_t)ends[e];
            csp->adj[csp->adj_start[v] + fill[v]++] = i;
        }
    }
    return RMG_OK;
}

static size_t find_root(size_t *parent, size_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

/* comp_of[v] = component number; returns the count. Component members are listed in
 * members[] grouped by component (member_start CSR). */
static rmg_status split_components(rmg_context *ctx, rmg__csp *csp, size_t **member_start, int **members,
                                   size_t *n_comp)
{
    size_t n = csp->n_vars;
    size_t *parent = rmg__arena_alloc(csp->arena, (n ? n : 1) * sizeof *parent);
    size_t *comp_of = rmg__arena_alloc(csp->arena, (n ? n : 1) * sizeof *comp_of);
    *members = rmg__arena_alloc(csp->arena, (n ? n : 1) * sizeof **members);
    *member_start = rmg__arena_alloc(csp->arena, (n + 1) * sizeof **member_start);
    if (!parent || !comp_of || !*members || !*member_start)
        return rmg__error_nomem(ctx);
    for (size_t v = 0; v < n; v++)
        parent[v] = v;
    for (size_t i = 0; i < csp->n_cons; i++) {
        if (!csp->cons[i].enabled)
            continue;
        size_t a = find_root(parent, (size_t)csp->cons[i].x), b = find_root(parent, (size_t)csp->cons[i].y);
        if (a != b)
            parent[a > b ? a : b] = a < b ? a : b;
    }
    /* Number components in order of their smallest variable: deterministic. */
    size_t count = 0;
    for (size_t v = 0; v < n; v++) {
        size_t r = find_root(parent, v);
        comp_of[v] = r == v ? count++ : comp_of[r];
    }
    for (size_t v = 0; v < n; v++)
        (*member_start)[comp_of[v] + 1]++;
    for (size_t k = 0; k < count; k++)
        (*member_start)[k + 1] += (*member_start)[k];
    size_t *fill = parent; /* reuse: no longer needed */
    memset(fill, 0, (n ? n : 1) * sizeof *fill);
    for (size_t v = 0; v < n; v++)
        (*members)[(*member_start)[comp_of[v]] + fill[comp_of[v]]++] = (int)v;
    *n_comp = count;
    return RMG_OK;
}

/* ---- search ------------------------------------------------------------------------------ */

typedef enum search_outcome { FOUND, PROVED_NONE, OUT_OF_NODES } search_outcome;

typedef struct searcher {
    rmg__csp *csp;
    rmg_rng *rng;
    const int *vars;        /* component members */
    size_t m;
    uint32_t *stack;        /* n_vars + 2 levels of n_vars domains */
    int *queue;
    uint8_t *queued;
    uint64_t limit;         /* absolute node count at which the search stops */
    bool out_of_nodes;
    uint64_t count;         /* solutions seen while counting */
    uint32_t *sample;       /* the kept solution */
} searcher;

static bool revise_from(searcher *s, uint32_t *dom, size_t v, size_t *tail)
{
    const rmg__csp *csp = s->csp;
    for (size_t k = csp->adj_start[v]; k < csp->adj_start[v + 1]; k++) {
        const rmg__csp_con *c = &csp->cons[csp->adj[k]];
        if (!c->enabled)
            continue;
        bool from_x = (size_t)c->x == v;
        const uint32_t *sup = from_x ? c->sup_xy : c->sup_yx;
        size_t w = (size_t)(from_x ? c->y : c->x);
        uint32_t allowed = 0;
        for (uint32_t d = dom[v]; d; d &= d - 1)
            allowed |= sup[lowest_bit(d)];
        if (dom[w] & ~allowed) {
            dom[w] &= allowed;
            if (!dom[w])
                return false;
            if (!s->queued[w]) {
                s->queued[w] = 1;
                s->queue[(*tail)++ % (s->m + 1)] = (int)w;
            }
        }
    }
    return true;
}

/* Arc consistency from the variables already queued (head..tail); clears the queue. */
static bool propagate(searcher *s, uint32_t *dom, size_t head, size_t tail)
{
    bool ok = true;
    while (head != tail) {
        size_t v = (size_t)s->queue[head++ % (s->m + 1)];
        s->queued[v] = 0;
        if (ok && !revise_from(s, dom, v, &tail))
            ok = false;
    }
    return ok;
}

static bool propagate_one(searcher *s, uint32_t *dom, size_t v)
{
    s->queue[0] = (int)v;
    s->queued[v] = 1;
    return propagate(s, dom, 0, 1);
}

static bool propagate_all(searcher *s, uint32_t *dom)
{
    size_t tail = 0;
    for (size_t i = 0; i < s->m; i++) {
        s->queue[tail++] = s->vars[i];
        s->queued[s->vars[i]] = 1;
    }
    return propagate(s, dom, 0, tail);
}

/* Smallest domain above one value; ties broken at random when rng is given (reservoir). */
static long pick_variable(searcher *s, const uint32_t *dom, bool random_ties)
{
    long best = -1;
    unsigned best_size = 0, ties = 0;
    for (size_t i = 0; i < s->m; i++) {
        unsigned size = popcount32(dom[s->vars[i]]);
        if (size < 2)
            continue;
        if (best < 0 || size < best_size) {
            best = s->vars[i];
            best_size = size;
            ties = 1;
        } else if (size == best_size && random_ties && rmg_rng_below(s->rng, ++ties) == 0) {
            best = s->vars[i];
        }
    }
    return best;
}

static bool take_node(searcher *s)
{
    if (s->csp->nodes >= s->limit) {
        s->out_of_nodes = true;
        return false;
    }
    s->csp->nodes++;
    return true;
}

/* Depth-first search for one solution with random value order. */
static bool random_search(searcher *s, size_t depth)
{
    size_t n = s->csp->n_vars;
    uint32_t *dom = s->stack + depth * n;
    if (!take_node(s))
        return false;
    long v = pick_variable(s, dom, true);
    if (v < 0) {
        memcpy(s->sample, dom, n * sizeof *dom);
        return true;
    }
    uint8_t values[RMG__CSP_VALUES];
    unsigned k = 0;
    for (uint32_t d = dom[v]; d; d &= d - 1)
        values[k++] = (uint8_t)lowest_bit(d);
    rmg_rng_shuffle(s->rng, values, k, 1);
    for (unsigned i = 0; i < k && !s->out_of_nodes; i++) {
        uint32_t *next = dom + n;
        memcpy(next, dom, n * sizeof *dom);
        next[v] = 1u << values[i];
        if (propagate_one(s, next, (size_t)v) && random_search(s, depth + 1))
            return true;
    }
    return false;
}

static uint64_t nodes_left(const rmg__csp *csp)
{
    return csp->nodes < csp->budget ? csp->budget - csp->nodes : 0;
}

/* Root domains of the component in stack level 0; false when arc consistency empties one. */
static bool prepare_root(searcher *s)
{
    memcpy(s->stack, s->csp->dom, s->csp->n_vars * sizeof *s->stack);
    return propagate_all(s, s->stack);
}

/* Randomized search with geometric restarts, within the remaining budget (or `cap` nodes). */
static search_outcome solve_by_search(searcher *s, uint64_t cap)
{
    if (!prepare_root(s))
        return PROVED_NONE;
    uint64_t end = s->csp->nodes + RMG__MIN(cap, nodes_left(s->csp));
    for (uint64_t cutoff = RESTART_FIRST_CUTOFF;; cutoff = cutoff > UINT64_MAX / 2 ? cutoff : cutoff * 2) {
        s->out_of_nodes = false;
        s->limit = RMG__MIN(end, s->csp->nodes + cutoff);
        if (random_search(s, 0))
            return FOUND;
        if (!s->out_of_nodes)
            return PROVED_NONE;
        if (s->csp->nodes >= end)
            return OUT_OF_NODES;
    }
}

/* ---- exact counting and uniform sampling -------------------------------------------------- */

/* Counts saturate here: a component with more solutions is sampled by randomized search. The
 * cap keeps the sum of 32 weights inside uint64 for rmg_rng_weighted. */
#define COUNT_CAP ((uint64_t)1 << 58)
#define CACHE_MAX_VARS 48u
#define CACHE_MAX_ENTRIES (1u << 16)

/* Counts of residual components, keyed by their variables and domains. */
typedef struct count_entry {
    uint64_t hash, count;
    uint32_t *key;               /* m variable ids, then their m domains */
    uint32_t m;
} count_entry;

typedef struct counter {
    searcher *s;
    uint32_t *mark;              /* per variable: epoch stamps for set membership */
    uint32_t epoch;
    int *lists;                  /* per level: residual variables grouped by component */
    size_t *segs;                /* per level: component boundaries in lists */
    count_entry *table;
    size_t cap, used;
    bool saturated, nomem;
} counter;

static uint64_t sat_add(counter *c, uint64_t a, uint64_t b)
{
    uint64_t r = a + b;
    if (r >= COUNT_CAP) {
        c->saturated = true;
        return COUNT_CAP;
    }
    return r;
}

static uint64_t sat_mul(counter *c, uint64_t a, uint64_t b)
{
    if (a && b > (COUNT_CAP - 1) / a) {
        c->saturated = true;
        return COUNT_CAP;
    }
    return a * b;
}

static bool counter_stopped(const counter *c)
{
    return c->s->out_of_nodes || c->saturated || c->nomem;
}

static uint32_t next_epoch(counter *c)
{
    if (++c->epoch == 0) { /* wrapped: clear the stamps */
        memset(c->mark, 0, c->s->csp->n_vars * sizeof *c->mark);
        c->epoch = 1;
    }
    return c->epoch;
}

static void sort_ints(int *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* Splits the variables of `vars` still open in `dom` into connected components (each sorted,
 * so the cache keys are canonical). Returns the number of components. */
static size_t split_residual(counter *c, const uint32_t *dom, const int *vars, size_t m, int *out, size_t *seg)
{
    const rmg__csp *csp = c->s->csp;
    uint32_t open = next_epoch(c);
    for (size_t i = 0; i < m; i++)
        if (popcount32(dom[vars[i]]) > 1)
            c->mark[vars[i]] = open;
    uint32_t seen = next_epoch(c);
    size_t n_out = 0, n_comp = 0;
    seg[0] = 0;
    for (size_t i = 0; i < m; i++) {
        if (c->mark[vars[i]] != open)
            continue;
        size_t start = n_out;
        out[n_out++] = vars[i];
        c->mark[vars[i]] = seen;
        for (size_t q = start; q < n_out; q++) {
            size_t v = (size_t)out[q];
            for (size_t k = csp->adj_start[v]; k < csp->adj_start[v + 1]; k++) {
                const rmg__csp_con *con = &csp->cons[csp->adj[k]];
                int w = (size_t)con->x == v ? con->y : con->x;
                if (con->enabled && c->mark[w] == open) {
                    c->mark[w] = seen;
                    out[n_out++] = w;
                }
            }
        }
        sort_ints(out + start, n_out - start);
        seg[++n_comp] = n_out;
    }
    return n_comp;
}

/* The variable to branch on: most constraints inside the component (assigning it splits the
 * component soonest), then the smallest domain, then the lowest id. */
static int branch_variable(counter *c, const uint32_t *dom, const int *vars, size_t m)
{
    const rmg__csp *csp = c->s->csp;
    uint32_t in = next_epoch(c);
    for (size_t i = 0; i < m; i++)
        c->mark[vars[i]] = in;
    int best = vars[0];
    size_t best_degree = 0;
    unsigned best_size = 33;
    for (size_t i = 0; i < m; i++) {
        size_t v = (size_t)vars[i], degree = 0;
        for (size_t k = csp->adj_start[v]; k < csp->adj_start[v + 1]; k++) {
            const rmg__csp_con *con = &csp->cons[csp->adj[k]];
            degree += con->enabled && c->mark[(size_t)con->x == v ? con->y : con->x] == in;
        }
        unsigned size = popcount32(dom[v]);
        if (degree > best_degree || (degree == best_degree && size < best_size)) {
            best = (int)v;
            best_degree = degree;
            best_size = size;
        }
    }
    return best;
}

static uint64_t component_hash(const uint32_t *dom, const int *vars, size_t m)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < m; i++) {
        uint32_t pair[2] = {(uint32_t)vars[i], dom[vars[i]]};
        h = rmg__hash64(pair, sizeof pair, h);
    }
    return h;
}

static count_entry *cache_slot(counter *c, uint64_t hash, const uint32_t *dom, const int *vars, size_t m)
{
    for (size_t i = hash & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        count_entry *e = &c->table[i];
        if (!e->key)
            return e;
        if (e->hash != hash || e->m != m)
            continue;
        bool same = true;
        for (size_t k = 0; k < m && same; k++)
            same = e->key[k] == (uint32_t)vars[k] && e->key[m + k] == dom[vars[k]];
        if (same)
            return e;
    }
}

static bool cache_grow(counter *c)
{
    size_t cap = c->cap * 2;
    count_entry *t = rmg__arena_alloc(c->s->csp->arena, cap * sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->table[i].key)
            continue;
        size_t j = c->table[i].hash & (cap - 1);
        while (t[j].key)
            j = (j + 1) & (cap - 1);
        t[j] = c->table[i];
    }
    c->table = t;
    c->cap = cap;
    return true;
}

static void cache_store(counter *c, uint64_t hash, const uint32_t *dom, const int *vars, size_t m, uint64_t count)
{
    if (c->used >= CACHE_MAX_ENTRIES)
        return; /* a full cache only costs time */
    if (2 * (c->used + 1) > c->cap && !cache_grow(c)) {
        c->nomem = true;
        return;
    }
    count_entry *e = cache_slot(c, hash, dom, vars, m);
    e->key = rmg__arena_alloc(c->s->csp->arena, 2 * m * sizeof *e->key);
    if (!e->key) {
        c->nomem = true;
        return;
    }
    for (size_t k = 0; k < m; k++) {
        e->key[k] = (uint32_t)vars[k];
        e->key[m + k] = dom[vars[k]];
    }
    e->hash = hash;
    e->m = (uint32_t)m;
    e->count = count;
    c->used++;
}

static uint64_t count_children(counter *c, size_t depth, const int *vars, size_t m);

/* Solutions of one connected component whose domains are at level `depth`. */
static uint64_t count_component(counter *c, size_t depth, const int *vars, size_t m)
{
    size_t n = c->s->csp->n_vars;
    const uint32_t *dom = c->s->stack + depth * n;
    bool cacheable = m <= CACHE_MAX_VARS;
    uint64_t hash = cacheable ? component_hash(dom, vars, m) : 0;
    if (cacheable) {
        const count_entry *e = cache_slot(c, hash, dom, vars, m);
        if (e->key)
            return e->count;
    }
    int x = branch_variable(c, dom, vars, m);
    uint64_t total = 0;
    for (uint32_t d = dom[x]; d && !counter_stopped(c); d &= d - 1) {
        if (!take_node(c->s))
            return 0;
        uint32_t *next = c->s->stack + (depth + 1) * n;
        memcpy(next, dom, n * sizeof *dom);
        next[x] = 1u << lowest_bit(d);
        if (propagate_one(c->s, next, (size_t)x))
            total = sat_add(c, total, count_children(c, depth + 1, vars, m));
    }
    if (cacheable && !counter_stopped(c))
        cache_store(c, hash, dom, vars, m, total);
    return total;
}

/* Product of the counts of the open components among `vars` at level `depth`. */
static uint64_t count_children(counter *c, size_t depth, const int *vars, size_t m)
{
    size_t n = c->s->csp->n_vars;
    int *list = c->lists + depth * n;
    size_t *seg = c->segs + depth * (n + 1);
    size_t k = split_residual(c, c->s->stack + depth * n, vars, m, list, seg);
    uint64_t product = 1;
    for (size_t j = 0; j < k && product && !counter_stopped(c); j++)
        product = sat_mul(c, product, count_component(c, depth, list + seg[j], seg[j + 1] - seg[j]));
    return product;
}

static void sample_children(counter *c, size_t depth, const int *vars, size_t m);

/* Fixes the component at level `depth` to one of its solutions, each with equal probability:
 * a value of the branch variable is drawn in proportion to the solutions it leaves. */
static void sample_component(counter *c, size_t depth, const int *vars, size_t m)
{
    size_t n = c->s->csp->n_vars;
    const uint32_t *dom = c->s->stack + depth * n;
    uint32_t *next = c->s->stack + (depth + 1) * n;
    int x = branch_variable(c, dom, vars, m);
    uint64_t weights[RMG__CSP_VALUES] = {0};
    for (uint32_t d = dom[x]; d && !counter_stopped(c); d &= d - 1) {
        unsigned a = lowest_bit(d);
        memcpy(next, dom, n * sizeof *dom);
        next[x] = 1u << a;
        if (propagate_one(c->s, next, (size_t)x))
            weights[a] = count_children(c, depth + 1, vars, m);
    }
    if (counter_stopped(c))
        return;
    long a = rmg_rng_weighted(c->s->rng, weights, RMG__CSP_VALUES);
    if (a < 0) { /* unreachable for a component counted non-empty; give up to the search */
        c->saturated = true;
        return;
    }
    memcpy(next, dom, n * sizeof *dom);
    next[x] = 1u << a;
    propagate_one(c->s, next, (size_t)x);
    sample_children(c, depth + 1, vars, m);
}

static void sample_children(counter *c, size_t depth, const int *vars, size_t m)
{
    size_t n = c->s->csp->n_vars;
    const uint32_t *dom = c->s->stack + depth * n;
    for (size_t i = 0; i < m; i++)
        if (popcount32(dom[vars[i]]) == 1)
            c->s->sample[vars[i]] = dom[vars[i]];
    int *list = c->lists + depth * n;
    size_t *seg = c->segs + depth * (n + 1);
    size_t k = split_residual(c, dom, vars, m, list, seg);
    for (size_t j = 0; j < k && !counter_stopped(c); j++)
        sample_component(c, depth, list + seg[j], seg[j + 1] - seg[j]);
}

/* Exact uniform sample: count the component's solutions (decomposing it as variables get
 * fixed, caching the counts of residual components), then draw values in proportion to the
 * counts. Gives up (OUT_OF_NODES) past enum_limit nodes or COUNT_CAP solutions. */
/* Work arrays of the counter, allocated once per solve and shared by every component. */
typedef struct count_work {
    uint32_t *mark;
    int *lists;
    size_t *segs;
} count_work;

static bool count_work_init(rmg__csp *csp, count_work *w)
{
    size_t n = csp->n_vars;
    w->mark = rmg__arena_alloc(csp->arena, (n + 1) * sizeof *w->mark);
    w->lists = rmg__arena_alloc(csp->arena, ((n + 2) * n + 1) * sizeof *w->lists);
    w->segs = rmg__arena_alloc(csp->arena, (n + 2) * (n + 1) * sizeof *w->segs);
    return w->mark && w->lists && w->segs;
}

static search_outcome solve_by_counting(rmg_context *ctx, searcher *s, const count_work *w, rmg_status *st)
{
    rmg__csp *csp = s->csp;
    counter c = {0};
    c.s = s;
    c.cap = 64;
    c.mark = w->mark;
    c.lists = w->lists;
    c.segs = w->segs;
    memset(c.mark, 0, csp->n_vars * sizeof *c.mark);
    c.table = rmg__arena_alloc(csp->arena, c.cap * sizeof *c.table);
    if (!c.table) {
        *st = rmg__error_nomem(ctx);
        return OUT_OF_NODES;
    }
    if (!prepare_root(s))
        return PROVED_NONE;
    s->out_of_nodes = false;
    s->limit = csp->nodes + RMG__MIN(csp->enum_limit, nodes_left(csp));
    s->count = count_children(&c, 0, s->vars, s->m);
    if (!counter_stopped(&c) && s->count)
        sample_children(&c, 0, s->vars, s->m);
    if (c.nomem)
        *st = rmg__error_nomem(ctx);
    if (counter_stopped(&c))
        return OUT_OF_NODES;
    return s->count ? FOUND : PROVED_NONE;
}

/* ---- conflicts ----------------------------------------------------------------------------- */

/* Enabled constraints of the component, in position order. */
static size_t component_constraints(const searcher *s, size_t *out)
{
    const rmg__csp *csp = s->csp;
    size_t k = 0;
    for (size_t i = 0; i < csp->n_cons; i++) {
        if (!csp->cons[i].enabled)
            continue;
        for (size_t j = 0; j < s->m; j++)
            if (s->vars[j] == csp->cons[i].x) {
                out[k++] = i;
                break;
            }
    }
    return k;
}

/* Deletion filter: drops every constraint whose removal keeps the set unsolvable. The rest is
 * a minimal conflicting set when every sub-search finished. Leaves all constraints enabled. */
static rmg_status extract_core(rmg_context *ctx, searcher *s, size_t *scratch, rmg__csp_conflict *out)
{
    rmg__csp *csp = s->csp;
    size_t k = component_constraints(s, scratch);
    out->minimal = true;
    for (size_t i = 0; i < k; i++) {
        rmg__csp_con *c = &csp->cons[scratch[i]];
        c->enabled = false;
        search_outcome r = solve_by_search(s, nodes_left(csp));
        if (r != PROVED_NONE)
            c->enabled = true;
        if (r == OUT_OF_NODES)
            out->minimal = false;
    }
    size_t n_core = 0;
    for (size_t i = 0; i < k; i++)
        n_core += csp->cons[scratch[i]].enabled;
    out->core = rmg__arena_alloc(csp->arena, (n_core ? n_core : 1) * sizeof *out->core);
    if (!out->core)
        return rmg__error_nomem(ctx);
    out->dropped = -1;
    for (size_t i = 0; i < k; i++) {
        rmg__csp_con *c = &csp->cons[scratch[i]];
        if (c->enabled)
            out->core[out->n_core++] = c->tag;
        c->enabled = true;
    }
    return RMG_OK;
}

/* Gives up the latest constraint of the core (by position): earlier rules win. */
static void drop_latest(rmg__csp *csp, const size_t *list, size_t k, rmg__csp_conflict *conf)
{
    for (size_t i = k; i-- > 0;) {
        rmg__csp_con *c = &csp->cons[list[i]];
        bool in_core = false;
        for (size_t j = 0; j < conf->n_core; j++)
            in_core |= conf->core[j] == c->tag;
        if (in_core) {
            c->enabled = false;
            conf->dropped = c->tag;
            return;
        }
    }
}

/* ---- local search fallback ------------------------------------------------------------------ */

static unsigned violations_at(const searcher *s, const uint32_t *assign, size_t v)
{
    const rmg__csp *csp = s->csp;
    unsigned bad = 0;
    for (size_t k = csp->adj_start[v]; k < csp->adj_start[v + 1]; k++) {
        const rmg__csp_con *c = &csp->cons[csp->adj[k]];
        bad += c->enabled && !rmg__csp_con_ok(c, assign);
    }
    return bad;
}

static unsigned total_violations(const searcher *s, const uint32_t *assign, const size_t *list, size_t k)
{
    unsigned bad = 0;
    for (size_t i = 0; i < k; i++)
        bad += !rmg__csp_con_ok(&s->csp->cons[list[i]], assign);
    return bad;
}

/* Min-conflicts with random walk, bounded steps; leaves the best assignment in s->sample. */
static void local_search(searcher *s, size_t *list, uint32_t *cur)
{
    rmg__csp *csp = s->csp;
    size_t k = component_constraints(s, list);
    for (size_t i = 0; i < s->m; i++) {
        uint32_t d = csp->dom[s->vars[i]];
        cur[s->vars[i]] = nth_bit(d, (unsigned)rmg_rng_below(s->rng, popcount32(d)));
    }
    unsigned best = total_violations(s, cur, list, k);
    memcpy(s->sample, cur, csp->n_vars * sizeof *cur);
    for (unsigned step = 0; step < LOCAL_SEARCH_STEPS && best > 0; step++) {
        size_t broken = 0, pick = 0;
        for (size_t i = 0; i < k; i++)
            if (!rmg__csp_con_ok(&csp->cons[list[i]], cur) && rmg_rng_below(s->rng, ++broken) == 0)
                pick = list[i];
        const rmg__csp_con *c = &csp->cons[pick];
        size_t v = (size_t)(rmg_rng_below(s->rng, 2) ? c->x : c->y);
        uint32_t d = csp->dom[v];
        if (rmg_rng_below(s->rng, 10) == 0) {
            cur[v] = nth_bit(d, (unsigned)rmg_rng_below(s->rng, popcount32(d)));
        } else {
            unsigned best_here = ~0u, ties = 0;
            uint32_t choice = cur[v];
            for (; d; d &= d - 1) {
                cur[v] = lowest_bit(d);
                unsigned bad = violations_at(s, cur, v);
                if (bad < best_here) {
                    best_here = bad;
                    choice = cur[v];
                    ties = 1;
                } else if (bad == best_here && rmg_rng_below(s->rng, ++ties) == 0) {
                    choice = cur[v];
                }
            }
            cur[v] = choice;
        }
        unsigned now = total_violations(s, cur, list, k);
        if (now < best) {
            best = now;
            memcpy(s->sample, cur, csp->n_vars * sizeof *cur);
        }
    }
}

/* ---- mixing ------------------------------------------------------------------------------ */

#define MIX_SWEEPS 64u

/* Gibbs steps over the solutions of a component found by search: each step re-draws one
 * variable uniformly among the values its neighbours' current values allow. The moves are
 * symmetric, so the uniform distribution over the solutions is stationary: they pull the
 * search's biased pick towards it (all the way where single changes connect the solutions). */
static void mix_solution(searcher *s, uint32_t *assign)
{
    const rmg__csp *csp = s->csp;
    for (size_t step = 0; step < MIX_SWEEPS * s->m; step++) {
        size_t v = (size_t)s->vars[rmg_rng_below(s->rng, s->m)];
        uint32_t allowed = csp->dom[v];
        for (size_t k = csp->adj_start[v]; k < csp->adj_start[v + 1]; k++) {
            const rmg__csp_con *c = &csp->cons[csp->adj[k]];
            if (c->enabled)
                allowed &= (size_t)c->x == v ? c->sup_yx[assign[c->y]] : c->sup_xy[assign[c->x]];
        }
        if (allowed) /* always: the current value stays allowed */
            assign[v] = nth_bit(allowed, (unsigned)rmg_rng_below(s->rng, popcount32(allowed)));
    }
}

/* ---- driver ------------------------------------------------------------------------------- */

typedef struct solve_ws {
    searcher s;
    size_t *list;           /* constraint ids (scratch) */
    uint32_t *cur;          /* local search assignment */
    count_work count;
    rmg__csp_mode mode;
} solve_ws;

static rmg__csp_conflict *add_conflict(rmg_context *ctx, rmg__csp *csp, rmg__csp_report *rep)
{
    rmg__csp_conflict *c = rmg__arena_grow(csp->arena, (void **)&rep->conflicts, &rep->n_conflicts, sizeof *c);
    if (!c)
        rmg__error_nomem(ctx);
    return c;
}

static void store_component(const searcher *s, uint32_t *assign, const uint32_t *doms)
{
    for (size_t i = 0; i < s->m; i++)
        assign[s->vars[i]] = lowest_bit(doms[s->vars[i]]);
}

static rmg_status solve_component(rmg_context *ctx, solve_ws *w, uint32_t *assign, rmg__csp_report *rep)
{
    searcher *s = &w->s;
    rmg__csp *csp = s->csp;
    for (;;) {
        search_outcome r = OUT_OF_NODES;
        if (w->mode == RMG__CSP_EXACT_FIRST) {
            rmg_status st = RMG_OK;
            r = solve_by_counting(ctx, s, &w->count, &st);
            if (st != RMG_OK)
                return st;
            if (r == FOUND) {
                rep->exact_components++;
                rep->solutions_counted += s->count;
            }
        }
        bool searched = r == OUT_OF_NODES;
        if (searched)
            r = solve_by_search(s, nodes_left(csp));
        if (r == FOUND) {
            store_component(s, assign, s->sample);
            if (searched && w->mode != RMG__CSP_SEARCH_PLAIN)
                mix_solution(s, assign);
            return RMG_OK;
        }
        if (r == OUT_OF_NODES) {
            rep->budget_exhausted = true;
            local_search(s, w->list, w->cur);
            for (size_t i = 0; i < s->m; i++)
                assign[s->vars[i]] = s->sample[s->vars[i]];
            return RMG_OK;
        }
        rmg__csp_conflict *conf = add_conflict(ctx, csp, rep);
        if (!conf)
            return RMG_ERR_NOMEM;
        rmg_status st = extract_core(ctx, s, w->list, conf);
        if (st != RMG_OK)
            return st;
        size_t k = component_constraints(s, w->list);
        drop_latest(csp, w->list, k, conf);
        if (conf->dropped < 0) { /* no constraint left to blame: domains alone are empty */
            for (size_t i = 0; i < s->m; i++)
                assign[s->vars[i]] = lowest_bit(csp->dom[s->vars[i]]);
            return RMG_OK;
        }
    }
}

static rmg_status record_violations(rmg_context *ctx, rmg__csp *csp, const bool *was_enabled,
                                    const uint32_t *assign, rmg__csp_report *rep)
{
    for (size_t i = 0; i < csp->n_cons; i++) {
        if (!was_enabled[i] || rmg__csp_con_ok(&csp->cons[i], assign))
            continue;
        int *t = rmg__arena_grow(csp->arena, (void **)&rep->violated, &rep->n_violated, sizeof *t);
        if (!t)
            return rmg__error_nomem(ctx);
        *t = csp->cons[i].tag;
    }
    return RMG_OK;
}

rmg_status rmg__csp_solve_mode(rmg_context *ctx, rmg__csp *csp, rmg_rng *rng, uint32_t *assign,
                               rmg__csp_report *rep, rmg__csp_mode mode)
{
    memset(rep, 0, sizeof *rep);
    size_t n = csp->n_vars;
    for (size_t v = 0; v < n; v++)
        if (!csp->dom[v])
            return rmg__error_set(ctx, RMG_ERR_INTERNAL, "solve: variable %zu has an empty domain", v);
    rmg_status st = build_adjacency(ctx, csp);
    size_t *member_start = NULL, n_comp = 0;
    int *members = NULL;
    if (st == RMG_OK)
        st = split_components(ctx, csp, &member_start, &members, &n_comp);
    if (st != RMG_OK)
        return st;
    solve_ws w = {0};
    w.mode = mode;
    w.s.csp = csp;
    w.s.rng = rng;
    size_t levels = n + 2;
    bool *was_enabled = rmg__arena_alloc(csp->arena, (csp->n_cons ? csp->n_cons : 1) * sizeof *was_enabled);
    w.s.stack = rmg__arena_alloc(csp->arena, (levels * n + 1) * sizeof *w.s.stack);
    w.s.queue = rmg__arena_alloc(csp->arena, levels * sizeof *w.s.queue);
    w.s.queued = rmg__arena_alloc(csp->arena, levels);
    w.s.sample = rmg__arena_alloc(csp->arena, levels * sizeof *w.s.sample);
    w.cur = rmg__arena_alloc(csp->arena, levels * sizeof *w.cur);
    w.list = rmg__arena_alloc(csp->arena, (csp->n_cons ? csp->n_cons : 1) * sizeof *w.list);
    if (!was_enabled || !w.s.stack || !w.s.queue || !w.s.queued || !w.s.sample || !w.cur || !w.list ||
        !count_work_init(csp, &w.count))
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < csp->n_cons; i++)
        was_enabled[i] = csp->cons[i].enabled;
    rep->components = n_comp;
    for (size_t k = 0; k < n_comp && st == RMG_OK; k++) {
        w.s.vars = members + member_start[k];
        w.s.m = member_start[k + 1] - member_start[k];
        if (w.s.m == 1 && csp->adj_start[w.s.vars[0] + 1] == csp->adj_start[w.s.vars[0]]) {
            /* A free variable: a uniform draw from its domain. */
            uint32_t d = csp->dom[w.s.vars[0]];
            assign[w.s.vars[0]] = nth_bit(d, (unsigned)rmg_rng_below(rng, popcount32(d)));
            rep->exact_components++;
            continue;
        }
        st = solve_component(ctx, &w, assign, rep);
    }
    if (st == RMG_OK)
        st = record_violations(ctx, csp, was_enabled, assign, rep);
    for (size_t i = 0; i < csp->n_cons; i++)
        csp->cons[i].enabled = was_enabled[i];
    return st;
}

rmg_status rmg__csp_solve(rmg_context *ctx, rmg__csp *csp, rmg_rng *rng, uint32_t *assign, rmg__csp_report *rep)
{
    return rmg__csp_solve_mode(ctx, csp, rng, assign, rep, RMG__CSP_EXACT_FIRST);
}
