/* The rmg command: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "rmg/rmg.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"generate", rmg_cmd_generate, "generate a map from a template (default: the built-in pack)"},
    {"check", rmg_cmd_check, "validate a template file like a careful template editor"},
    {"convert", rmg_cmd_convert, "convert a template pack to YAML or to HotA .h3t"},
    {"objects", rmg_cmd_objects, "print the effective object list of a template or zone"},
    {"guard", rmg_cmd_guard, "compute a guard from a value and strengths"},
    {"info", rmg_cmd_info, "version and content summary, or what an .h3m map holds"},
    {"stats", rmg_cmd_stats, "generate many maps and report statistics"},
    {"balance", rmg_cmd_balance, "how fair a map is: paths, guards, value by day, mines per player"},
    {"render", rmg_cmd_render, "write an .h3m map as the project's exports (PNG preview, JSON, text)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: rmg <command> [options]   (rmg <command> --help for details, man rmg for all)\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nexit status: 0 success, 1 the input cannot do what was asked (a template with errors, one that\n"
                 "cannot produce a map for the setup), 2 bad usage or unreadable input; each command's --help says\n"
                 "what its codes mean\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("rmg %s\n", rmg_version_string());
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    const char *names[sizeof commands / sizeof commands[0]];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    int near = rmg_name_suggest(argv[1], names, sizeof names / sizeof names[0]);
    if (near >= 0)
        fprintf(stderr, "rmg: unknown command '%s'; did you mean '%s'?\n", argv[1], names[near]);
    else
        fprintf(stderr, "rmg: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
