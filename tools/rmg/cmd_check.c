/* rmg check FILE: validates a template pack like a careful template editor. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "format_arg.h"
#include "rmg/rmg.h"

static const char check_help[] =
    "usage: rmg check [--quiet] [--format auto|yaml|h3t|sod|vcmi] [--water none|normal|islands] FILE\n"
    "\n"
    "Loads a template pack (native YAML, HotA h3t, SoD rmg.txt or VCMI JSON; detected from the\n"
    "content unless --format is given) and checks it: errors (the template cannot be generated as\n"
    "written) and warnings, each with file, line/column (row/column for h3t) and zone or connection.\n"
    "\n"
    "  --quiet    print only errors\n"
    "  --water L  check for maps generated at water level L (on water levels also what the guide\n"
    "             warns about on water maps); without it, for the levels each template names\n"
    "\n"
    "exit status: 0 no errors (warnings allowed), 1 errors found, 2 bad usage or unreadable file\n";

int rmg_cli_parse_format(const char *s)
{
    static const struct { const char *name; rmg_template_format f; } formats[] = {
        {"auto", RMG_FORMAT_AUTO}, {"yaml", RMG_FORMAT_YAML}, {"h3t", RMG_FORMAT_H3T},
        {"sod", RMG_FORMAT_SOD}, {"vcmi", RMG_FORMAT_VCMI}, {"json", RMG_FORMAT_VCMI},
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(s, formats[i].name) == 0)
            return (int)formats[i].f;
    return -1;
}

static int report(const rmg_validation *v, bool quiet)
{
    size_t warnings = 0;
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        if (rmg_validation_get(v, i, &m) != RMG_OK)
            continue;
        warnings += m.severity == RMG_SEVERITY_WARNING;
        if (!quiet || m.severity == RMG_SEVERITY_ERROR)
            printf("%s [%s]\n", m.text, m.code);
    }
    size_t errors = rmg_validation_error_count(v);
    printf("%zu error(s), %zu warning(s)\n", errors, warnings);
    return errors ? 1 : 0;
}

int rmg_cmd_check(int argc, char **argv)
{
    const char *file = NULL;
    int format = RMG_FORMAT_AUTO, water = -1;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(check_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            quiet = true;
        } else if (strcmp(argv[i], "--water") == 0 && i + 1 < argc) {
            const char *w = argv[++i];
            water = !strcmp(w, "none") ? RMG_WATER_NONE : !strcmp(w, "normal") ? RMG_WATER_NORMAL
                                                         : !strcmp(w, "islands") ? RMG_WATER_ISLANDS : -2;
            if (water == -2) {
                fprintf(stderr, "rmg check: unknown water level '%s' (none, normal or islands)\n", w);
                return 2;
            }
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            if ((format = rmg_cli_parse_format(argv[++i])) < 0) {
                fprintf(stderr, "rmg check: unknown format '%s'\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' || file) {
            fputs(check_help, stderr);
            return 2;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs(check_help, stderr);
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg check: out of memory\n");
        return 2;
    }
    rmg_pack *pack = NULL;
    int code = 2;
    if (rmg_pack_load(ctx, file, (rmg_template_format)format, &pack) != RMG_OK) {
        fprintf(stderr, "rmg check: %s\n", rmg_context_errmsg(ctx));
    } else {
        rmg_validation *v = NULL;
        rmg_status st = water < 0 ? rmg_pack_validate(pack, &v) : rmg_pack_validate_water(pack, (rmg_water_level)water, &v);
        if (st == RMG_OK)
            code = report(v, quiet);
        else
            fprintf(stderr, "rmg check: %s\n", rmg_context_errmsg(ctx));
        rmg_validation_destroy(v);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return code;
}
