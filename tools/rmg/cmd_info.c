/* rmg info: library version, and with --content a summary of the ruleset (counts per kind). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "rmg/rmg.h"

static const char info_help[] =
    "usage: rmg info [--content] [--sod] [--load FILE] [--merge FILE]... [--list KIND] [--json]\n"
    "       rmg info MAP.h3m [--json]\n"
    "\n"
    "Prints the library version. With --content, also the ruleset: its name, version, variant\n"
    "and how many entities of each kind it has. With an .h3m map: its format, name, description,\n"
    "size, players and the most frequent kinds of objects (named by the ruleset of the file's game,\n"
    "with their class and subclass); with --json also its tiles by terrain, river and road type,\n"
    "its object templates (sprite, class, subclass, objects using it) and each object's\n"
    "template and kind, with monsters' counts and AI values (docs/realism.md).\n"
    "\n"
    "options:\n"
    "  --content      summarise the ruleset (default: the built-in HotA ruleset)\n"
    "  --sod          use the built-in SoD ruleset\n"
    "  --load FILE    replace the ruleset by a YAML content file (read with the chosen variant)\n"
    "  --merge FILE   merge a YAML content file into the ruleset (repeatable, in order)\n"
    "  --list KIND    also list the keys and names of one kind (terrains, factions, creatures,\n"
    "                 objects, map_objects, artifacts, spells, skills, heroes)\n"
    "  --json         print JSON instead of text\n"
    "  --help         this text\n"
    "\n"
    "exit status: 0 done, 1 a malformed or unsupported .h3m, 2 bad usage, an unreadable file or\n"
    "content that cannot be loaded\n";

static const char *const kind_names[RMG_CONTENT_KIND_COUNT] = {
    "terrains", "factions", "creatures", "objects", "map_objects", "artifacts", "spells", "skills", "heroes"};

typedef struct info_args {
    bool content, sod, json;
    int list; /* kind to list, or -1 */
    const char *load;
    const char *merges[32];
    int n_merges;
} info_args;

static int kind_index(const char *name)
{
    for (int k = 0; k < RMG_CONTENT_KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return -1;
}

static int parse_args(int argc, char **argv, info_args *a)
{
    memset(a, 0, sizeof *a);
    a->list = -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(info_help, stdout);
            return 0;
        } else if (strcmp(s, "--content") == 0) {
            a->content = true;
        } else if (strcmp(s, "--sod") == 0) {
            a->sod = true;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--load") == 0 && i + 1 < argc) {
            a->load = argv[++i];
            a->content = true;
        } else if (strcmp(s, "--list") == 0 && i + 1 < argc && kind_index(argv[i + 1]) >= 0) {
            a->list = kind_index(argv[++i]);
            a->content = true;
        } else if (strcmp(s, "--merge") == 0 && i + 1 < argc && a->n_merges < 32) {
            a->merges[a->n_merges++] = argv[++i];
            a->content = true;
        } else {
            fprintf(stderr, "rmg info: unknown or incomplete option '%s'\n%s", s, info_help);
            return 2;
        }
    }
    return -1;
}

static rmg_status prepare_content(rmg_context *ctx, const info_args *a, const rmg_content **out)
{
    rmg_content_variant v = a->sod ? RMG_CONTENT_SOD : RMG_CONTENT_HOTA;
    rmg_status st = a->load ? rmg_content_load(ctx, a->load, v) : rmg_context_set_content_variant(ctx, v);
    for (int i = 0; st == RMG_OK && i < a->n_merges; i++)
        st = rmg_content_merge(ctx, a->merges[i]);
    return st ? st : rmg_context_content(ctx, out);
}

static void print_text(const rmg_content *c, int list)
{
    printf("librmg %s\n", rmg_version_string());
    if (!c)
        return;
    printf("ruleset: %s (version %s, variant %s)\n", rmg_content_name(c), rmg_content_version(c),
           rmg_content_get_variant(c) == RMG_CONTENT_SOD ? "sod" : "hota");
    for (int k = 0; k < RMG_CONTENT_KIND_COUNT; k++)
        printf("  %-12s %zu\n", kind_names[k], rmg_content_count(c, (rmg_content_kind)k));
    if (list < 0)
        return;
    printf("%s:\n", kind_names[list]);
    for (size_t i = 0; i < rmg_content_count(c, (rmg_content_kind)list); i++)
        printf("  %-32s %s\n", rmg_content_key(c, (rmg_content_kind)list, i),
               rmg_content_entity_name(c, (rmg_content_kind)list, i));
}

static void print_json(const rmg_content *c, int list)
{
    printf("{\"version\": ");
    cli_json_string(stdout, rmg_version_string());
    if (c) {
        printf(", \"content\": {\"name\": ");
        cli_json_string(stdout, rmg_content_name(c));
        printf(", \"version\": ");
        cli_json_string(stdout, rmg_content_version(c));
        printf(", \"variant\": \"%s\", \"counts\": {", rmg_content_get_variant(c) == RMG_CONTENT_SOD ? "sod" : "hota");
        for (int k = 0; k < RMG_CONTENT_KIND_COUNT; k++)
            printf("%s\"%s\": %zu", k ? ", " : "", kind_names[k], rmg_content_count(c, (rmg_content_kind)k));
        printf("}");
        if (list >= 0) {
            printf(", \"%s\": [", kind_names[list]);
            for (size_t i = 0; i < rmg_content_count(c, (rmg_content_kind)list); i++) {
                printf("%s{\"key\": ", i ? ", " : "");
                cli_json_string(stdout, rmg_content_key(c, (rmg_content_kind)list, i));
                printf(", \"name\": ");
                cli_json_string(stdout, rmg_content_entity_name(c, (rmg_content_kind)list, i));
                printf("}");
            }
            printf("]");
        }
        printf("}");
    }
    printf("}\n");
}

static bool is_h3m(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".h3m") == 0;
}

int rmg_cmd_info(int argc, char **argv)
{
    if (argc == 2 && is_h3m(argv[1]))
        return rmg_cmd_info_h3m(argv[1], false);
    if (argc == 3 && (is_h3m(argv[1]) || is_h3m(argv[2])) && (!strcmp(argv[1], "--json") || !strcmp(argv[2], "--json")))
        return rmg_cmd_info_h3m(is_h3m(argv[1]) ? argv[1] : argv[2], true);
    info_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg info: out of memory\n");
        return 2;
    }
    const rmg_content *c = NULL;
    if (a.content && prepare_content(ctx, &a, &c) != RMG_OK) {
        fprintf(stderr, "rmg info: %s\n", rmg_context_errmsg(ctx));
        rmg_context_destroy(ctx);
        return 2;
    }
    if (a.json)
        print_json(c, a.list);
    else
        print_text(c, a.list);
    rmg_context_destroy(ctx);
    return 0;
}
