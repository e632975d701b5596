/* rmg check FILE: validates a template pack like a careful template editor. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "format_arg.h"
#include "rmg/rmg.h"
#include "template/importers.h" /* rmg__pack_load_checked */

static const char check_help[] =
    "usage: rmg check [--quiet] [--errors] [--from auto|yaml|h3t|sod|vcmi]\n"
    "                 [--water none|normal|islands] [--game hota|sod] FILE...\n"
    "\n"
    "Checks template packs (native YAML, HotA .h3t, SoD or HotA rmg.txt, VCMI JSON; the format is detected\n"
    "from the content unless --from is given) like a careful template editor, and prints every problem\n"
    "found, going on after the first, one line each as compilers do:\n"
    "  FILE:LINE:COLUMN: error: what is wrong [code]      (the template cannot be generated as written)\n"
    "  FILE:LINE:COLUMN: warning: what is odd [code]      (it can, but probably not as meant)\n"
    "For .h3t and rmg.txt files LINE is the row and COLUMN the cell, as a spreadsheet shows them. A last line\n"
    "counts the errors and warnings.\n"
    "\n"
    "  --quiet    print nothing but the problems (no count)\n"
    "  --errors   print errors only\n"
    "  --from F   read the files in format F, as `rmg convert --from` (--format, its old name, still works)\n"
    "  --water L  check for maps generated at water level L (on water levels also what the guide\n"
    "             warns about on water maps); without it, for the levels each template names\n"
    "  --game G   check for maps of game G (hota, the default, or sod): object rules naming what\n"
    "             G's ruleset lacks (HotA objects, creatures, families on a SoD map) change nothing on\n"
    "             its maps; they are dropped with one warning per template [rule-dropped], as\n"
    "             `rmg generate --game G` drops them\n"
    "\n"
    "exit status: 0 no errors (warnings allowed), 1 a template has errors, 2 bad usage or a file that\n"
    "cannot be read (missing, too large, not a text file)\n";

typedef struct check_opts {
    int format, water;   /* water: -1 the levels each template names, else an rmg_water_level */
    rmg_content_variant game;
    bool quiet, errors_only;
} check_opts;

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

/* Prints the messages; returns the number of errors. */
static size_t report(const rmg_validation *v, const check_opts *o, size_t *warnings)
{
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        if (rmg_validation_get(v, i, &m) != RMG_OK)
            continue;
        *warnings += m.severity == RMG_SEVERITY_WARNING;
        if (!o->errors_only || m.severity == RMG_SEVERITY_ERROR)
            printf("%s [%s]\n", m.text, m.code);
    }
    return rmg_validation_error_count(v);
}

/* A defect that ended the reading: FILE:LINE:COL: error: message [parse]. */
static void report_load_error(rmg_context *ctx, const char *file)
{
    rmg_error_info e = {.struct_size = sizeof e};
    rmg_context_error(ctx, &e);
    const char *text = e.message ? e.message : "";
    char place[64] = "";
    if (e.line > 0 && e.column > 0)
        snprintf(place, sizeof place, ":%d:%d", e.line, e.column);
    else if (e.line > 0)
        snprintf(place, sizeof place, ":%d", e.line);
    size_t n = strlen(file);
    if (strncmp(text, file, n) == 0 && text[n] == ':') {   /* the message starts with its place: skip it */
        text += n + strlen(place) + (text[n + strlen(place)] == ':');
        text += *text == ' ';
    }
    printf("%s%s: error: %s [%s]\n", file, place, text, e.status == RMG_ERR_INVALID_DATA ? "invalid-data" : "parse");
}

/* Checks one file: 0 no errors, 1 errors, 2 unreadable (*read stays false then). */
static int check_file(rmg_context *ctx, const char *file, const check_opts *o, size_t *errors, size_t *warnings,
                      bool *read)
{
    rmg_pack *pack = NULL;
    rmg_status st = rmg__pack_load_checked(ctx, file, (rmg_template_format)o->format, &pack);
    if (st == RMG_ERR_IO || st == RMG_ERR_LIMIT || st == RMG_ERR_UNSUPPORTED || st == RMG_ERR_NOMEM) {
        fprintf(stderr, "rmg check: %s\n", rmg_context_errmsg(ctx));
        return 2;
    }
    *read = true;
    if (st != RMG_OK) {
        report_load_error(ctx, file);
        (*errors)++;
        return 1;
    }
    rmg_validation *v = NULL;
    int code = 2;
    st = o->water < 0 ? rmg_pack_validate(pack, &v) : rmg_pack_validate_water(pack, (rmg_water_level)o->water, &v);
    if (st == RMG_OK) {
        size_t n = report(v, o, warnings);
        *errors += n;
        code = n ? 1 : 0;
    } else {
        fprintf(stderr, "rmg check: %s\n", rmg_context_errmsg(ctx));
    }
    rmg_validation_destroy(v);
    rmg_pack_destroy(pack);
    return code;
}

int rmg_cmd_check(int argc, char **argv)
{
    check_opts o = {RMG_FORMAT_AUTO, -1, RMG_CONTENT_HOTA, false, false};
    const char *files[256];
    int n_files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(check_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o.quiet = true;
        } else if (strcmp(argv[i], "--errors") == 0) {
            o.errors_only = true;
        } else if (strcmp(argv[i], "--water") == 0 && i + 1 < argc) {
            if ((o.water = cli_water_level(argv[++i])) < 0) {
                fprintf(stderr, "rmg check: unknown water level '%s' (none, normal or islands)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "hota") != 0 && strcmp(argv[i], "sod") != 0) {
                fprintf(stderr, "rmg check: unknown game '%s' (hota or sod)\n", argv[i]);
                return 2;
            }
            o.game = strcmp(argv[i], "sod") == 0 ? RMG_CONTENT_SOD : RMG_CONTENT_HOTA;
        } else if ((strcmp(argv[i], "--from") == 0 || strcmp(argv[i], "--format") == 0) && i + 1 < argc) {
            if ((o.format = rmg_cli_parse_format(argv[++i])) < 0) {
                fprintf(stderr, "rmg check: unknown format '%s'\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' || n_files == (int)(sizeof files / sizeof files[0])) {
            fputs(check_help, stderr);
            return 2;
        } else {
            files[n_files++] = argv[i];
        }
    }
    if (!n_files) {
        fputs(check_help, stderr);
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg check: out of memory\n");
        return 2;
    }
    if (o.game != RMG_CONTENT_HOTA && rmg_context_set_content_variant(ctx, o.game) != RMG_OK) {
        fprintf(stderr, "rmg check: %s\n", rmg_context_errmsg(ctx));
        rmg_context_destroy(ctx);
        return 2;
    }
    int code = 0;
    size_t errors = 0, warnings = 0;
    bool read = false;
    for (int i = 0; i < n_files; i++) {
        int c = check_file(ctx, files[i], &o, &errors, &warnings, &read);
        code = c > code ? c : code;
    }
    if (!o.quiet && read)
        printf("%zu error(s), %zu warning(s)\n", errors, warnings);
    rmg_context_destroy(ctx);
    return code;
}
