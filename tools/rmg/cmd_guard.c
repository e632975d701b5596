/* rmg guard: the guard of a value (spec §11): strength index, total, whether a monster stands,
 * and with --creatures the creatures of the built-in content that may guard it. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "rmg/guard.h"
#include "rmg/rmg.h"

static const char guard_help[] =
    "usage: rmg guard --value V [options]\n"
    "\n"
    "Computes the guard of an object, object group or connection of value V (spec GRD-01..07).\n"
    "\n"
    "options:\n"
    "  --value V                     the guarded value (0 .. 2147483647), required\n"
    "  --zone-strength weak|medium|strong|none   the zone's monster strength (default medium)\n"
    "  --map-strength weak|normal|strong         the map's monster strength (default normal)\n"
    "  --connection                  a connection guard: zone term 0 (ZON-23)\n"
    "  --factions LIST               monster factions for --creatures, comma-separated\n"
    "                                (castle,...,factory,neutral; default all)\n"
    "  --creatures                   list the eligible creatures and their mean counts\n"
    "  --seed N                      also draw one guard with this seed (needs the content)\n"
    "  --json                        print JSON instead of text\n"
    "  --help                        this text\n"
    "\n"
    "exit status: 0 done, 2 bad usage or content that cannot be loaded\n";

static const char *const zone_names[] = {"none", "weak", "medium", "strong"};
static const char *const map_names[] = {"weak", "normal", "strong"};
/* Faction ids 0..10 (rmg_faction_id) by name; neutral is id 31. */
static const char *const faction_names[] = {"castle",   "rampart",    "tower",  "inferno", "necropolis", "dungeon",
                                            "stronghold", "fortress", "conflux", "cove",    "factory"};

typedef struct guard_args {
    long long value;
    bool value_given;
    rmg_monster_strength zone;
    rmg_map_monsters map;
    bool connection, json, creatures, seed_given;
    uint32_t factions;
    unsigned long long seed;
} guard_args;

static int name_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static const char *faction_name(int id)
{
    if (id == RMG_FACTION_NEUTRAL)
        return "neutral";
    return id >= 0 && id < (int)(sizeof faction_names / sizeof faction_names[0]) ? faction_names[id] : "?";
}

static bool parse_factions(const char *list, uint32_t *mask)
{
    char buf[256];
    if (!list || strlen(list) >= sizeof buf)
        return false;
    strcpy(buf, list);
    *mask = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int id = strcmp(tok, "neutral") == 0
                     ? RMG_FACTION_NEUTRAL
                     : name_index(tok, faction_names, (int)(sizeof faction_names / sizeof faction_names[0]));
        if (id < 0)
            return false;
        *mask |= UINT32_C(1) << id;
    }
    return *mask != 0;
}

static bool parse_number(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "rmg guard: %s%s%s\n(rmg guard --help for usage)\n", what, arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* An option that takes a value; returns 0 when parsed, 2 on a bad one (message printed). */
static int parse_valued(guard_args *a, const char *opt, const char *val)
{
    long long n;
    int i;
    if (!val)
        return usage_error("missing value for", opt);
    if (strcmp(opt, "--value") == 0) {
        if (!parse_number(val, 0, RMG_GUARD_VALUE_MAX, &a->value))
            return usage_error("--value must be an integer in 0..2147483647", val);
        a->value_given = true;
    } else if (strcmp(opt, "--zone-strength") == 0) {
        if ((i = name_index(val, zone_names, 4)) < 0)
            return usage_error("--zone-strength must be weak, medium, strong or none", val);
        a->zone = (rmg_monster_strength)i;
    } else if (strcmp(opt, "--map-strength") == 0) {
        if ((i = name_index(val, map_names, 3)) < 0)
            return usage_error("--map-strength must be weak, normal or strong", val);
        a->map = (rmg_map_monsters)i;
    } else if (strcmp(opt, "--factions") == 0) {
        if (!parse_factions(val, &a->factions))
            return usage_error("--factions wants faction names separated by commas", val);
    } else {
        if (!parse_number(val, 0, (long long)(~0ull >> 1), &n))
            return usage_error("--seed must be a non-negative integer", val);
        a->seed = (unsigned long long)n;
        a->seed_given = true;
    }
    return 0;
}

/* Returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, guard_args *a)
{
    static const char *const valued[] = {"--value", "--zone-strength", "--map-strength", "--factions", "--seed"};
    memset(a, 0, sizeof *a);
    a->zone = RMG_MONSTERS_MEDIUM;
    a->map = RMG_MAP_MONSTERS_NORMAL;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(guard_help, stdout);
            return 0;
        }
        if (strcmp(opt, "--connection") == 0)
            a->connection = true;
        else if (strcmp(opt, "--json") == 0)
            a->json = true;
        else if (strcmp(opt, "--creatures") == 0)
            a->creatures = true;
        else if (name_index(opt, valued, 5) >= 0) {
            int rc = parse_valued(a, opt, i + 1 < argc ? argv[i + 1] : NULL);
            if (rc)
                return rc;
            i++;
        } else
            return usage_error("unknown option", opt);
    }
    if (!a->value_given)
        return usage_error("--value is required", NULL);
    return -1;
}

/* Totals are multiples of 0.25: print 1999.5, 2000, 2000.25 exactly. */
static void format_total(double total, char *buf, size_t size)
{
    snprintf(buf, size, "%.2f", total);
    char *dot = strchr(buf, '.');
    if (!dot)
        return;
    char *end = buf + strlen(buf) - 1;
    while (end > dot && *end == '0')
        *end-- = '\0';
    if (end == dot)
        *end = '\0';
}

/* ---- the pieces of the report ------------------------------------------------------------------- */

typedef struct guard_report {
    int index;
    double total;
    int guarded;
    rmg_context *ctx;      /* for the content-backed parts */
} guard_report;

static void print_strength(const guard_args *a, const guard_report *r)
{
    char total[48];
    format_total(r->total, total, sizeof total);
    if (a->json) {
        printf("{\"value\": %lld, \"zone_strength\": \"%s\", \"map_strength\": \"%s\", \"connection\": %s, "
               "\"strength_index\": %d, \"total\": %s, \"guarded\": %s",
               a->value, zone_names[a->zone], map_names[a->map], a->connection ? "true" : "false", r->index, total,
               r->guarded ? "true" : "false");
        return;
    }
    printf("value           %lld\n", a->value);
    printf("zone strength   %s%s\n", zone_names[a->zone], a->connection ? " (connection: zone term 0)" : "");
    printf("map strength    %s\n", map_names[a->map]);
    if (r->index == 0)
        printf("strength index  none (zone strength none: content unguarded)\n");
    else
        printf("strength index  %d\n", r->index);
    printf("total           %s\n", total);
    printf("guard           %s\n", r->guarded ? "yes" : "no (total below 2000)");
}

static void print_candidate(const guard_args *a, const rmg_guard_candidate *c, bool first)
{
    int lo = c->mean - (c->mean >= 4 ? c->mean / 4 : 0), hi = c->mean + (c->mean >= 4 ? c->mean / 4 : 0);
    if (a->json) {
        /* Keys and names come from content a host may load: escape them. */
        printf("%s\n    {\"key\": ", first ? "" : ",");
        cli_json_string(stdout, c->key);
        printf(", \"name\": ");
        cli_json_string(stdout, c->name ? c->name : c->key);
        printf(", \"faction\": \"%s\", \"level\": %d, \"ai_value\": %d, \"window_min\": %d, \"exact_mean\": %.4f, "
               "\"mean\": %d, \"count_min\": %d, \"count_max\": %d}",
               faction_name(c->faction), c->level, c->ai_value, c->window_min, c->exact_mean, c->mean, lo, hi);
    }
    else
        printf("  %-22s %-10s %d %7d %6d %9.2f %5d  %d-%d\n", c->key, faction_name(c->faction), c->level, c->ai_value,
               c->window_min, c->exact_mean, c->mean, lo, hi);
}

static int print_creatures(const guard_args *a, const guard_report *r)
{
    size_t n = 0;
    if (r->guarded && rmg_guard_candidate_count(r->ctx, r->total, a->factions, &n) != RMG_OK) {
        fprintf(stderr, "rmg guard: %s\n", rmg_context_errmsg(r->ctx));
        return 2;
    }
    if (a->json)
        printf(", \"creatures\": [");
    else
        printf("eligible creatures: %zu\n  %-22s %-10s %s %7s %6s %9s %5s  %s\n", n, "creature", "faction", "L", "AI",
               "window", "total/AI", "mean", "count");
    for (size_t i = 0; i < n; i++) {
        rmg_guard_candidate c = {.struct_size = sizeof c};
        if (rmg_guard_candidate_at(r->ctx, r->total, a->factions, i, &c) != RMG_OK) {
            fprintf(stderr, "rmg guard: %s\n", rmg_context_errmsg(r->ctx));
            return 2;
        }
        print_candidate(a, &c, i == 0);
    }
    if (a->json)
        printf("%s]", n ? "\n  " : "");
    return 0;
}

static int print_draw(const guard_args *a, const guard_report *r)
{
    rmg_guard_request req;
    rmg_guard_request_init(&req);
    req.value = a->value;
    req.map_strength = a->map;
    req.zone_strength = a->zone;
    req.connection = a->connection;
    req.monster_factions = a->factions;
    rmg_guard g = {.struct_size = sizeof g};
    if (rmg_context_set_seed(r->ctx, a->seed) != RMG_OK || rmg_guard_compute(r->ctx, &req, NULL, &g) != RMG_OK) {
        fprintf(stderr, "rmg guard: %s\n", rmg_context_errmsg(r->ctx));
        return 2;
    }
    if (a->json)
        printf(", \"draw\": {\"seed\": %llu, \"creature\": %s%s%s, \"count\": %d, \"mean\": %d, \"disposition\": %d}",
               a->seed, g.guarded ? "\"" : "", g.guarded ? g.creature_key : "null", g.guarded ? "\"" : "", g.count,
               g.mean, g.disposition);
    else if (g.guarded)
        printf("draw (seed %llu) %d x %s (mean %d%s), mood %d\n", a->seed, g.count, g.creature_key, g.mean,
               g.choice == RMG_GUARD_CHOICE_ELIGIBLE ? "" : ", fallback: nothing eligible", g.disposition);
    else
        printf("draw (seed %llu) no guard\n", a->seed);
    return 0;
}

int rmg_cmd_guard(int argc, char **argv)
{
    guard_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    guard_report r = {0};
    r.index = rmg_guard_strength_index(a.zone, a.map, a.connection);
    r.total = r.index > 0 ? rmg_guard_total(a.value, r.index) : 0.0;
    r.guarded = r.index > 0 && rmg_guard_needed(a.value, r.index) == 1;
    print_strength(&a, &r);
    if ((a.creatures || a.seed_given) && rmg_context_create(&r.ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg guard: cannot create a context\n");
        return 2;
    }
    rc = 0;
    if (a.creatures)
        rc = print_creatures(&a, &r);
    if (rc == 0 && a.seed_given)
        rc = print_draw(&a, &r);
    if (a.json)
        printf("}\n");
    rmg_context_destroy(r.ctx);
    return rc;
}
