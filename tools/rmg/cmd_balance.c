/* rmg balance: the balance report of a map (a .json or .h3m file, or a map generated from a
 * template on the spot) as a table, as JSON, or as a picture (docs/balance.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "balance_png.h"
#include "cli.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: rmg balance MAP.json|MAP.h3m|TEMPLATE [options]\n\n"
                 "The balance report of a map: per player, from the main town, the paths to the other players\n"
                 "(tiles, movement points, guards), the weakest exit guard, the value within 1, 2, 3 and 7 days,\n"
                 "the nearest mine of each resource; the spread of each measure and the fairness score.\n"
                 "A template (or none: the built-in pack) is generated first with the options below.\n\n"
                 "options:\n"
                 "  --json                 print the report as JSON (docs/balance.md)\n"
                 "  -o FILE.png            draw each player's reach by day and the paths between towns\n"
                 "  --day-points N         movement points of a day (default %d)\n"
                 "  --best-of N            generate N candidates and report the fairest (templates)\n"
                 "  --threads N            candidates generated at once (default: every core)\n",
            RMG_BALANCE_DAY_POINTS);
    fputs(cli_gen_help, out);
    fputs("\nexit status: 0 reported, 1 the template cannot produce a map for this setup, 2 bad usage,\n"
          "an unreadable map or template, or a picture that cannot be written\n", out);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

typedef struct balance_args {
    cli_gen gen;
    const char *input;             /* NULL: the built-in pack */
    const char *png;
    bool json;
    cli_best best;                 /* --best-of, --threads, --day-points */
} balance_args;

static int parse_args(int argc, char **argv, balance_args *a)
{
    for (int i = 1; i < argc; i++) {
        int r = cli_gen_option(&a->gen, argc, argv, &i, "balance");
        if (r == 0)
            r = cli_best_option(&a->best, argc, argv, &i, "balance");
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            a->json = true;
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            a->png = argv[++i];
        } else if (argv[i][0] != '-' && !a->input) {
            a->input = argv[i];
        } else {
            fprintf(stderr, "rmg balance: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (a->png && !ends_with(a->png, ".png")) {
        fprintf(stderr, "rmg balance: -o writes a picture: give a .png name\n");
        return 2;
    }
    return -1;
}

/* The map to report on: read from a file, or generated. Prints errors; returns the exit code. */
static int obtain_map(rmg_context *ctx, balance_args *a, rmg_map **map)
{
    if (a->input && ends_with(a->input, ".h3m")) {
        if (rmg_map_load_h3m(ctx, a->input, map) == RMG_OK)
            return 0;
    } else if (a->input && cli_is_map_json(a->input)) {
        if (rmg__map_load_json(ctx, a->input, map) == RMG_OK) {
            for (size_t i = 0; i < rmg_map_warning_count(*map); i++)
                fprintf(stderr, "rmg balance: %s\n", rmg_map_warning(*map, i));
            return 0;
        }
    } else {
        a->gen.template_file = a->input;
        cli_generated made;
        int code = cli_generate(ctx, &a->gen, &a->best, map, &made, "balance");
        if (code == 0 && a->best.candidates > 1)
            cli_print_best_of(stderr, &made.best);
        return code;
    }
    fprintf(stderr, "rmg balance: %s\n", rmg_context_errmsg(ctx));
    return 2;
}

static void print_measure_row(const rmg_balance *b, size_t m)
{
    double spread = 0;
    const char *name = rmg_balance_measure(b, m, &spread);
    printf("%-20s", name);
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        double v;
        if (rmg_balance_value(b, i, m, &v))
            printf(" %10.0f", v);
        else
            printf(" %10s", "-");
    }
    printf("  %6.3f\n", spread);
}

static void print_paths(const rmg_balance *b, int day_points)
{
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        rmg_balance_player_info p = {.struct_size = sizeof p};
        rmg_balance_player(b, i, &p);
        printf("player %d: town %d,%d,%d", p.player, p.town_x, p.town_y, p.town_z);
        if (p.zone)
            printf(" (zone %d)", p.zone);
        printf("\n");
        for (size_t k = 0; k < p.path_count; k++) {
            rmg_balance_path_info t = {.struct_size = sizeof t};
            rmg_balance_path(b, i, k, &t);
            if (!t.reachable) {
                printf("  to player %d: no path\n", t.player);
                continue;
            }
            printf("  to player %d: %lld tiles, %lld points (%.1f days), %d guards (strongest %lld, sum %lld)\n",
                   t.player, (long long)t.tiles, (long long)t.cost, (double)t.cost / day_points,
                   t.guards, (long long)t.strongest_guard, (long long)t.guard_sum);
        }
    }
}

static void print_text(const rmg_map *map, const rmg_balance *b, int day_points)
{
    printf("%s / %s, %dx%dx%d, seed %llu\n\n", rmg_map_pack_name(map), rmg_map_template_name(map),
           rmg_map_width(map), rmg_map_height(map), rmg_map_levels(map), (unsigned long long)rmg_map_seed(map));
    print_paths(b, day_points);
    printf("\n%-20s", "measure");
    for (size_t i = 0; i < rmg_balance_player_count(b); i++) {
        rmg_balance_player_info p = {.struct_size = sizeof p};
        rmg_balance_player(b, i, &p);
        printf(" %9s%d", "player ", p.player);
    }
    printf("  spread\n");
    for (size_t m = 0; rmg_balance_measure(b, m, NULL); m++)
        print_measure_row(b, m);
    printf("\nscore %.1f of 100 (100: every measure equal for every player; docs/balance.md)\n", rmg_balance_score(b));
}

int rmg_cmd_balance(int argc, char **argv)
{
    balance_args a;
    memset(&a, 0, sizeof a);
    cli_gen_init(&a.gen);
    a.best.day_points = RMG_BALANCE_DAY_POINTS;
    int code = parse_args(argc, argv, &a);
    if (code >= 0)
        return code;
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = a.gen.seed;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK) {
        fprintf(stderr, "rmg balance: cannot create a context\n");
        return 2;
    }
    rmg_map *map = NULL;
    code = cli_set_game(ctx, &a.gen, "balance");
    if (code == 0)
        code = obtain_map(ctx, &a, &map);
    rmg_balance *b = NULL;
    if (code == 0) {
        rmg_balance_options bo;
        rmg_balance_options_init(&bo);
        bo.day_points = a.best.day_points;
        if (rmg_map_balance(map, &bo, &b) != RMG_OK) {
            fprintf(stderr, "rmg balance: %s\n", rmg_context_errmsg(ctx));
            code = 2;
        }
    }
    if (code == 0 && a.png && cli_balance_png(ctx, map, b, a.png) != 0) {
        fprintf(stderr, "rmg balance: cannot write %s\n", a.png);
        code = 2;
    }
    if (code == 0) {
        if (a.json) {
            char *text = NULL;
            size_t len = 0;
            if (rmg_balance_to_json(b, &text, &len) == RMG_OK)
                fwrite(text, 1, len, stdout);
            rmg_free(ctx, text);
        } else {
            print_text(map, b, a.best.day_points);
        }
    }
    rmg_balance_destroy(b);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return code;
}
