/* The fixed case list and the scaling runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct bench_case {
    const char *name;
    const char *file;      /* relative to the shared directory; NULL: the built-in pack */
    int side, levels, players;
    const char *note;
} bench_case;

/* The 4-player case: no 4-player template of corpus/vcmi/symmetric accepts XL+U (size code
 * 32): 4SM0d goes up to 18 (L+U), the others lower. The largest-zone-count template that
 * generates: h3Sarmatia (70 zones, L only) fails in place ("a mirror template needs an
 * underground level"), so the 66-zone Treasure_Islands (XL) stands for it. */
static const bench_case cases[] = {
    {"default-S", NULL, 36, 1, 0, ""},
    {"default-M", NULL, 72, 1, 0, ""},
    {"default-L", NULL, 108, 1, 0, ""},
    {"default-XLU", NULL, 144, 2, 0, ""},
    {"clash-GU", "corpus/vcmi/hdmod/clashOfDragons.json", 252, 2, 0, "VCMI hdmod Clash of Dragons"},
    {"sym4-LU", "corpus/vcmi/symmetric/4sm0d.json", 108, 2, 4,
     "4SM0d at its largest size: no 4-player symmetric template accepts XL+U"},
    {"sym8-XLU", "corpus/vcmi/symmetric/8mm6.json", 144, 2, 8, "8MM6"},
    {"zones66-XL",
     "corpus/h3t/synthet__heroes-olden-era-templates__h3__sources__community__Treasure_Islands.h3t", 144, 1, 0,
     "66 zones; the 70-zone h3Sarmatia cannot generate (mirror needs underground)"},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

static const int scaling_sides[] = {36, 72, 144, 252, 504, 1008};
#define SCALING_COUNT (sizeof scaling_sides / sizeof scaling_sides[0])

static void scaling_name(int side, char *out, size_t cap)
{
    snprintf(out, cap, "scale-%d", side);
}

void bench_list_cases(FILE *out)
{
    for (size_t i = 0; i < CASE_COUNT; i++)
        fprintf(out, "%-12s %4dx%-4d x%d  %s %s\n", cases[i].name, cases[i].side, cases[i].side, cases[i].levels,
                cases[i].file ? cases[i].file : "(built-in pack)", cases[i].note);
    for (size_t i = 0; i < SCALING_COUNT; i++) {
        char name[32];
        scaling_name(scaling_sides[i], name, sizeof name);
        fprintf(out, "%-12s %4dx%-4d x1  (built with the template API: one zone per 72x72 tiles)\n", name,
                scaling_sides[i], scaling_sides[i]);
    }
}

/* Whether `name` is one of the comma-separated names in `list` (NULL: all). */
static int selected(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

static int unknown_case(const char *list)
{
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (size_t i = 0; i < CASE_COUNT; i++)
            found |= strlen(cases[i].name) == len && strncmp(p, cases[i].name, len) == 0;
        for (size_t i = 0; i < SCALING_COUNT; i++) {
            char name[32];
            scaling_name(scaling_sides[i], name, sizeof name);
            found |= strlen(name) == len && strncmp(p, name, len) == 0;
        }
        if (!found) {
            fprintf(stderr, "rmg_bench: unknown case '%.*s' (see --list)\n", (int)len, p);
            return 1;
        }
        p = e ? e + 1 : p + len;
    }
    return 0;
}

typedef struct bench_session {
    bench_alloc alloc;
    rmg_context *ctx;
} bench_session;

static int session_open(bench_session *s)
{
    memset(s, 0, sizeof *s);
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.alloc = bench_alloc_fn;
    co.alloc_user = &s->alloc;
    return rmg_context_create(&s->ctx, &co) == RMG_OK ? 0 : -1;
}

static void session_close(bench_session *s)
{
    rmg_context_destroy(s->ctx);
    s->ctx = NULL;
}

static int run_case(const bench_options *o, const bench_case *c, bench_result *row)
{
    snprintf(row->name, sizeof row->name, "%s", c->name);
    snprintf(row->note, sizeof row->note, "%s", c->note);
    bench_session s;
    if (session_open(&s) != 0) {
        snprintf(row->error, sizeof row->error, "cannot create a context");
        return -1;
    }
    rmg_pack *pack = NULL;
    if (c->file) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", o->shared, c->file);
        if (rmg_pack_load(s.ctx, path, RMG_FORMAT_AUTO, &pack) != RMG_OK) {
            snprintf(row->error, sizeof row->error, "%s", rmg_context_errmsg(s.ctx));
            session_close(&s);
            return -1;
        }
    }
    bench_job job = {.pack = pack};
    rmg_generate_options_init(&job.opt);
    job.opt.width = job.opt.height = c->side;
    job.opt.levels = c->levels;
    job.opt.players = c->players;
    int rc = bench_measure(s.ctx, &s.alloc, &job, o->seeds, row);
    rmg_pack_destroy(pack);
    session_close(&s);
    return rc;
}

int bench_run_cases(const bench_options *o, bench_report *report)
{
    if (unknown_case(o->cases))
        return -1;
    int failures = 0, header = 0;
    for (size_t i = 0; i < CASE_COUNT; i++) {
        if (!selected(o->cases, cases[i].name) || (o->quick && !o->cases && i > 0))
            continue;
        bench_result *row = bench_report_add(report);
        if (!row)
            return -1;
        failures += run_case(o, &cases[i], row) != 0;
        if (!header++) {
            printf("cases (seeds 1..%d, single thread; maps/s, ratio and ns/tile use the CPU median)\n", o->seeds);
            bench_print_header(stdout);
        }
        bench_print_row(stdout, row);
        fflush(stdout);
    }
    return failures;
}

/* ---- scaling: a template whose zone count grows with the area ------------------------------ */

/* One zone per 72x72 tiles (at least two, the two start zones), laid out as a grid and joined
 * by a spanning tree of grid neighbours (each row a chain, the first column a chain): a full
 * grid of connections at 1008x1008 asks for more monoliths than the 32 colours (BLD). */
static int scaled_zone_count(int side)
{
    double n = floor((double)side * side / (72.0 * 72.0) + 0.5);
    return n < 2 ? 2 : (int)n;
}

static rmg_status add_scaled_zone(rmg_pack *pack, size_t t, int id)
{
    size_t z;
    rmg_zone_kind kind = id == 1 ? RMG_ZONE_HUMAN_START : id == 2 ? RMG_ZONE_COMPUTER_START : RMG_ZONE_TREASURE;
    rmg_status st = rmg_template_add_zone(pack, t, id, kind, &z);
    if (st == RMG_OK && id <= 2)
        st = rmg_zone_set_owner(pack, t, z, id);
    if (st == RMG_OK && id <= 2)
        st = rmg_zone_set_towns(pack, t, z, 1, 0, 0, 0);
    if (st == RMG_OK)
        st = rmg_zone_set_mine(pack, t, z, RMG_RESOURCE_WOOD, 1, 0);
    if (st == RMG_OK)
        st = rmg_zone_set_mine(pack, t, z, RMG_RESOURCE_ORE, 1, 0);
    if (st == RMG_OK)
        st = rmg_zone_set_treasure(pack, t, z, 0, 500, 3000, 9);
    if (st == RMG_OK)
        st = rmg_zone_set_treasure(pack, t, z, 1, 3000, 6000, 6);
    if (st == RMG_OK)
        st = rmg_zone_set_treasure(pack, t, z, 2, 10000, 15000, 1);
    if (st == RMG_OK)
        st = rmg_zone_set_monsters(pack, t, z, RMG_MONSTERS_MEDIUM);
    return st;
}

static rmg_status build_scaled_pack(rmg_context *ctx, int side, rmg_pack **out)
{
    int n = scaled_zone_count(side), cols = (int)ceil(sqrt((double)n));
    size_t t;
    rmg_status st = rmg_pack_create(ctx, "bench-scaling", out);
    if (st == RMG_OK)
        st = rmg_pack_add_template(*out, "grid", &t);
    rmg_template_info ti;
    rmg_template_info_init(&ti);
    if (st == RMG_OK)
        st = rmg_template_get(*out, t, &ti);
    ti.min_size = 1;
    ti.max_size = 2 * (1024 / 36 + 1) * (1024 / 36 + 1);
    ti.min_players = ti.max_players = 2;
    if (st == RMG_OK)
        st = rmg_template_set(*out, t, &ti);
    for (int id = 1; st == RMG_OK && id <= n; id++)
        st = add_scaled_zone(*out, t, id);
    for (int id = 1; st == RMG_OK && id <= n; id++) {
        int col = (id - 1) % cols;
        if (st == RMG_OK && col + 1 < cols && id + 1 <= n)
            st = rmg_template_add_connection(*out, t, id, id + 1, 3000, NULL);
        if (st == RMG_OK && col == 0 && id + cols <= n)
            st = rmg_template_add_connection(*out, t, id, id + cols, 3000, NULL);
    }
    return st;
}

static int run_scaling_point(const bench_options *o, int side, bench_result *row)
{
    scaling_name(side, row->name, sizeof row->name);
    snprintf(row->note, sizeof row->note, "%d zones on a grid, one per 72x72 tiles", scaled_zone_count(side));
    row->scaling = 1;
    bench_session s;
    if (session_open(&s) != 0) {
        snprintf(row->error, sizeof row->error, "cannot create a context");
        return -1;
    }
    rmg_pack *pack = NULL;
    int rc = -1;
    if (build_scaled_pack(s.ctx, side, &pack) != RMG_OK) {
        snprintf(row->error, sizeof row->error, "template: %s", rmg_context_errmsg(s.ctx));
    } else {
        bench_job job = {.pack = pack};
        rmg_generate_options_init(&job.opt);
        job.opt.width = job.opt.height = side;
        job.opt.levels = 1;
        job.opt.players = 2;
        int seeds = side <= 252 ? (o->seeds < 3 ? o->seeds : 3) : 1;
        rc = bench_measure(s.ctx, &s.alloc, &job, seeds, row);
    }
    rmg_pack_destroy(pack);
    session_close(&s);
    return rc;
}

int bench_run_scaling(const bench_options *o, bench_report *report)
{
    int failures = 0;
    printf("\nscaling (one level; seeds 1..%d up to 252, 1 above; ns/tile from the CPU median)\n",
           o->seeds < 3 ? o->seeds : 3);
    bench_print_header(stdout);
    for (size_t i = 0; i < SCALING_COUNT; i++) {
        char name[32];
        scaling_name(scaling_sides[i], name, sizeof name);
        if (scaling_sides[i] > o->scaling_max || (o->cases && !selected(o->cases, name)))
            continue;
        bench_result *row = bench_report_add(report);
        if (!row)
            return -1;
        failures += run_scaling_point(o, scaling_sides[i], row) != 0;
        bench_print_row(stdout, row);
        fflush(stdout);
    }
    return failures;
}
