/* rmg generate: one map from a template, written as JSON, PNG and/or text. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "export/h3m/h3m_export.h" /* rmg__h3m_size_refusal */

static void usage(FILE *out)
{
    fprintf(out, "usage: rmg generate [TEMPLATE] [options] [-o FILE]...\n\n"
                 "Generates a map. TEMPLATE is a template file (.yaml, .h3t, rmg.txt, VCMI .json); without it the\n"
                 "built-in pack is used. Outputs by extension: .json (docs/map-json.md), .png, .txt (previews),\n"
                 ".h3m (the game's map file, for the game of --game). A template that `rmg check` rejects is never\n"
                 "generated: the pack's other templates are used, or the errors are printed. Of several templates\n"
                 "with one name, --template NAME takes the first that fits and NAME#K the K-th.\n"
                 "\noptions:\n");
    fputs(cli_gen_help, out);
    fprintf(out, "  -o FILE                write the map (repeatable); the files are checked before generating\n"
                 "  --best-of N            generate N candidates (sub-seeds of the seed) and keep the fairest\n"
                 "                         by the balance score (docs/balance.md)\n"
                 "  --threads N            candidates generated at once (default: every core)\n"
                 "  --day-points N         the balance report's day in movement points (default 1500)\n"
                 "  --timings              print per-stage milliseconds\n"
                 "  --quiet                print nothing but errors\n"
                 "\nexit status: 0 generated and written, 1 the template cannot produce a map for this setup,\n"
                 "2 bad usage, an unreadable template, or an output that cannot be written\n");
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether the map can be written to `path`, told before generating (a G+U map takes a while):
 * a known extension, a folder that exists and takes new files (or a writable file), and for
 * .h3m a size the game's format holds (when --size names one; the template's own sizes are
 * the game's). */
static bool output_writable(const char *path, const cli_gen *g)
{
    static const char *const kinds[] = {".json", ".png", ".txt", ".h3m"};
    bool known = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        known = known || has_suffix(path, kinds[i]);
    if (!known) {
        fprintf(stderr, "rmg generate: cannot write '%s': the output is .json, .png, .txt or .h3m\n", path);
        return false;
    }
    char why[160];
    if (has_suffix(path, ".h3m") && g->opt.width > 0 &&
        rmg__h3m_size_refusal(g->opt.width, g->opt.height, g->game != RMG_CONTENT_SOD, why, sizeof why)) {
        fprintf(stderr, "rmg generate: cannot write '%s': %s\n", path, why);
        return false;
    }
    if (access(path, F_OK) == 0) {
        if (access(path, W_OK) == 0)
            return true;
        fprintf(stderr, "rmg generate: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? (slash == path ? "/" : path) : ".");
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "rmg generate: cannot write '%s': folder '%s': %s\n", path, dir, strerror(errno));
        return false;
    }
    return true;
}

static void summary(const rmg_map *map, double ms, bool water_given)
{
    static const char *const water[] = {"none", "normal", "islands"};
    rmg_generate_options used;
    rmg_generate_options_init(&used);
    int level = rmg_map_options(map, &used) == RMG_OK && (unsigned)used.water < 3 ? (int)used.water : 0;
    size_t guards = 0, towns = 0;
    for (size_t i = 0; i < rmg_map_object_count(map); i++) {
        rmg_map_object_info o = {.struct_size = sizeof o};
        if (rmg_map_object(map, i, &o) != RMG_OK)
            continue;
        guards += o.kind == RMG_OBJECT_MONSTER;
        towns += o.kind == RMG_OBJECT_TOWN;
    }
    printf("template  %s / %s\n", rmg_map_pack_name(map), rmg_map_template_name(map));
    printf("size      %dx%dx%d\n", rmg_map_width(map), rmg_map_height(map), rmg_map_levels(map));
    printf("water     %s%s\n", water[level], water_given ? "" : " (the template's choice)");
    printf("seed      %llu\n", (unsigned long long)rmg_map_seed(map));
    printf("zones     %zu, connections %zu\n", rmg_map_zone_count(map), rmg_map_connection_count(map));
    printf("objects   %zu (towns %zu, guards %zu, groups %zu)\n", rmg_map_object_count(map), towns, guards,
           rmg_map_group_count(map));
    printf("time      %.1f ms (%d attempt%s)\n", ms, rmg_map_attempts(map), rmg_map_attempts(map) == 1 ? "" : "s");
    printf("fingerprint %016llx\n", (unsigned long long)rmg_map_fingerprint(map));
    size_t nw = rmg_map_warning_count(map);
    printf("warnings  %zu\n", nw);
    for (size_t i = 0; i < nw && i < 20; i++)
        printf("  - %s\n", rmg_map_warning(map, i));
    if (nw > 20)
        printf("  ... and %zu more\n", nw - 20);
}

static void timings(const rmg_map *map)
{
    for (int s = 0; s < RMG_STAGE_COUNT; s++)
        printf("  %-8s %8.2f ms\n", rmg__stage_name((rmg_stage_id)s), rmg_map_stage_ms(map, (rmg_stage_id)s));
}

int rmg_cmd_generate(int argc, char **argv)
{
    cli_gen g;
    cli_gen_init(&g);
    const char *outputs[16];
    int n_out = 0;
    bool quiet = false, show_timings = false;
    cli_best best = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        int r = cli_gen_option(&g, argc, argv, &i, "generate");
        if (r == 0)
            r = cli_best_option(&best, argc, argv, &i, "generate");
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            if (n_out == 16) {
                fprintf(stderr, "rmg generate: too many outputs\n");
                return 2;
            }
            outputs[n_out++] = argv[++i];
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(argv[i], "--timings") == 0) {
            show_timings = true;
        } else if (argv[i][0] != '-' && !g.template_file) {
            g.template_file = argv[i];
        } else {
            fprintf(stderr, "rmg generate: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    for (int i = 0; i < n_out; i++)
        if (!output_writable(outputs[i], &g))
            return 2;
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = g.seed;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK) {
        fprintf(stderr, "rmg generate: cannot create a context\n");
        return 2;
    }
    int code = cli_set_game(ctx, &g, "generate");
    rmg_map *map = NULL;
    cli_generated made;
    if (code == 0)
        code = cli_generate(ctx, &g, &best, &map, &made, "generate");
    if (code == 0) {
        for (int i = 0; i < n_out && code == 0; i++)
            if (rmg_map_save(map, outputs[i]) != RMG_OK) {
                fprintf(stderr, "rmg generate: %s\n", rmg_context_errmsg(ctx));
                code = 2;
            }
        if (!quiet) {
            summary(map, made.ms, g.opt.water != RMG_WATER_TEMPLATE);
            if (best.candidates > 1)
                cli_print_best_of(stdout, &made.best);
        }
        if (show_timings)
            timings(map);
    }
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return code;
}
