/* rmg stats --balance: each map's balance report (score, spreads, players' values) and, over the
 * maps, the median, 10th and 90th percentile of every measure, the fairest and least fair seeds. */
#include <stdlib.h>
#include <string.h>

#include "stats_balance.h"

void stats_balance_collect(const rmg_map *map, balance_result *out)
{
    memset(out, 0, sizeof *out);
    rmg_balance *b = NULL;
    if (rmg_map_balance(map, NULL, &b) != RMG_OK)
        return;
    out->ok = true;
    out->score = rmg_balance_score(b);
    size_t players = rmg_balance_player_count(b);
    out->n_players = (int)(players < STATS_PLAYERS ? players : STATS_PLAYERS);
    double spread;
    for (int m = 0; m < STATS_MEASURES && (out->name[m] = rmg_balance_measure(b, (size_t)m, &spread)); m++) {
        out->spread[m] = (float)spread;
        out->n_measures = m + 1;
        for (int p = 0; p < out->n_players; p++) {
            double v;
            if (rmg_balance_value(b, (size_t)p, (size_t)m, &v)) {
                out->value[p][m] = (float)v;
                out->has[p] |= 1u << m;
            }
        }
    }
    rmg_balance_destroy(b);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of v[0..n), sorted in place (nearest rank). */
static double quantile(double *v, size_t n, double q)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t k = (size_t)(q * (double)(n - 1) + 0.5);
    return v[k < n ? k : n - 1];
}

static const balance_result *at(const void *results, size_t stride, int i)
{
    return (const balance_result *)((const char *)results + stride * (size_t)i);
}

/* p10, median and p90 of v[0..n), each in a field of `width` with `decimals`; "-" for each when
 * there are no values (a measure no player has, e.g. the distance to a mine the map lacks: what
 * `rmg balance` prints for it). */
static void print_distribution(FILE *out, double *v, size_t n, int width, int decimals)
{
    if (!n) {
        fprintf(out, " %*s %*s %*s", width, "-", width, "-", width, "-");
        return;
    }
    double p10 = quantile(v, n, 0.1), p50 = quantile(v, n, 0.5), p90 = quantile(v, n, 0.9);
    fprintf(out, " %*.*f %*.*f %*.*f", width, decimals, p10, width, decimals, p50, width, decimals, p90);
}

/* Seeds by score: the `count` fairest (or least fair) of them. */
static void print_seeds(FILE *out, const void *results, size_t stride, int runs, uint64_t first_seed, bool fairest)
{
    int count = runs < 5 ? runs : 5, *order = malloc(sizeof *order * (size_t)(runs + 1));
    if (!order)
        return;
    int n = 0;
    for (int i = 0; i < runs; i++)
        if (at(results, stride, i)->ok)
            order[n++] = i;
    /* A stable selection: among equal scores the lower seed first. */
    for (int k = 0; k < count && k < n; k++) {
        int best = k;
        for (int j = k + 1; j < n; j++) {
            double a = at(results, stride, order[j])->score, b = at(results, stride, order[best])->score;
            if (fairest ? a > b : a < b)
                best = j;
        }
        int t = order[k];
        order[k] = order[best];
        order[best] = t;
    }
    fprintf(out, "%s seeds:", fairest ? "fairest" : "least fair");
    for (int k = 0; k < count && k < n; k++)
        fprintf(out, " %llu (%.1f)", (unsigned long long)(first_seed + (uint64_t)order[k]),
                at(results, stride, order[k])->score);
    fputc('\n', out);
    free(order);
}

void stats_balance_text(FILE *out, const void *results, size_t stride, int runs, uint64_t first_seed)
{
    size_t cap = (size_t)runs * STATS_PLAYERS + 1, n = 0;
    double *v = malloc(cap * sizeof *v);
    const balance_result *first = NULL;
    for (int i = 0; i < runs && !first; i++)
        if (at(results, stride, i)->ok)
            first = at(results, stride, i);
    if (!v || !first) {
        fprintf(out, "balance: no report\n");
        free(v);
        return;
    }
    for (int i = 0; i < runs; i++)
        if (at(results, stride, i)->ok)
            v[n++] = at(results, stride, i)->score;
    fprintf(out, "balance over %zu maps (docs/balance.md): p10, median, p90\n", n);
    fprintf(out, "  %-18s", "score");
    print_distribution(out, v, n, 10, 1);
    fprintf(out, "\n  %-18s %32s   %26s\n", "measure", "players' values", "spread between players");
    for (int m = 0; m < first->n_measures; m++) {
        n = 0;
        for (int i = 0; i < runs; i++) {
            const balance_result *r = at(results, stride, i);
            for (int p = 0; r->ok && p < r->n_players; p++)
                if (r->has[p] >> m & 1u)
                    v[n++] = r->value[p][m];
        }
        fprintf(out, "  %-18s", first->name[m]);
        print_distribution(out, v, n, 10, 0);
        n = 0;
        for (int i = 0; i < runs; i++)
            if (at(results, stride, i)->ok)
                v[n++] = at(results, stride, i)->spread[m];
        fputs("  ", out);
        print_distribution(out, v, n, 8, 3);
        fputc('\n', out);
    }
    print_seeds(out, results, stride, runs, first_seed, true);
    print_seeds(out, results, stride, runs, first_seed, false);
    free(v);
}

void stats_balance_json(FILE *out, const balance_result *r)
{
    if (!r->ok)
        return;
    fprintf(out, ",\"balance\":{\"score\":%.2f,\"spread\":{", r->score);
    for (int m = 0; m < r->n_measures; m++)
        fprintf(out, "%s\"%s\":%.4f", m ? "," : "", r->name[m], r->spread[m]);
    fprintf(out, "}}");
}
