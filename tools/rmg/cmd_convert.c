/* rmg convert IN OUT: converts a template pack; the output format (YAML or HotA .h3t) follows OUT's
 * extension. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "format_arg.h"
#include "rmg/rmg.h"

static const char convert_help[] =
    "usage: rmg convert [--from auto|yaml|h3t|sod|vcmi] [--h3t 1.7|1.8] IN OUT\n"
    "\n"
    "Reads the template pack IN (HotA .h3t, SoD or HotA rmg.txt, VCMI JSON or native YAML; the format is\n"
    "detected from the content unless --from is given; 'builtin' is the library's default pack) and\n"
    "writes it to OUT in the format of OUT's extension:\n"
    "  .yaml, .yml   native YAML (docs/template-format.md)\n"
    "  .h3t          HotA's template file, for its template editor and the game: in the column layout of\n"
    "                the .h3t or rmg.txt file IN was (or, through YAML, came from), else HotA 1.8;\n"
    "                --h3t 1.7 or 1.8 chooses (1.7: 11 towns; 1.8: 12 towns, Bulwark)\n"
    "Warnings of the import, and what the .h3t file cannot hold (left out), go to standard error.\n"
    "\n"
    "exit status: 0 converted, 2 bad usage, unreadable input or an output that cannot be written (as\n"
    "rmg generate)\n";

typedef enum output_format { OUT_UNKNOWN, OUT_YAML, OUT_H3T } output_format;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static output_format output_format_of(const char *path)
{
    if (has_suffix(path, ".yaml") || has_suffix(path, ".yml"))
        return OUT_YAML;
    return has_suffix(path, ".h3t") ? OUT_H3T : OUT_UNKNOWN;
}

static void print_warning(void *user, const char *message)
{
    (void)user;
    fprintf(stderr, "rmg convert: warning: %s\n", message);
}

static int write_output(rmg_context *ctx, const rmg_pack *pack, const char *out, rmg_h3t_version h3t)
{
    rmg_status st;
    if (output_format_of(out) == OUT_YAML) {
        st = rmg_pack_save_yaml(pack, out);
    } else {
        rmg_h3t_write_options o;
        rmg_h3t_write_options_init(&o);
        o.version = h3t;
        o.warn = print_warning;
        st = rmg_pack_save_h3t(pack, &o, out);
    }
    if (st != RMG_OK) {
        fprintf(stderr, "rmg convert: %s\n", rmg_context_errmsg(ctx));
        return 2;
    }
    return 0;
}

static bool parse_h3t_version(const char *s, rmg_h3t_version *out)
{
    if (strcmp(s, "1.7") == 0)
        *out = RMG_H3T_1_7;
    else if (strcmp(s, "1.8") == 0)
        *out = RMG_H3T_1_8;
    else
        return false;
    return true;
}

int rmg_cmd_convert(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nfiles = 0, format = RMG_FORMAT_AUTO;
    rmg_h3t_version h3t = RMG_H3T_AUTO;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(convert_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc) {
            if ((format = rmg_cli_parse_format(argv[++i])) < 0) {
                fprintf(stderr, "rmg convert: unknown format '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--h3t") == 0 && i + 1 < argc) {
            if (!parse_h3t_version(argv[++i], &h3t)) {
                fprintf(stderr, "rmg convert: unknown h3t version '%s' (1.7 or 1.8)\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' || nfiles == 2) {
            fputs(convert_help, stderr);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles != 2) {
        fputs(convert_help, stderr);
        return 2;
    }
    if (output_format_of(files[1]) == OUT_UNKNOWN) {
        fprintf(stderr, "rmg convert: cannot write '%s': the output is .yaml, .yml or .h3t\n", files[1]);
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg convert: out of memory\n");
        return 2;
    }
    rmg_pack *pack = NULL;
    rmg_status st = strcmp(files[0], "builtin") == 0 ? rmg_pack_builtin(ctx, &pack)
                                                      : rmg_pack_load(ctx, files[0], (rmg_template_format)format, &pack);
    int code = 2;
    if (st != RMG_OK) {
        fprintf(stderr, "rmg convert: %s\n", rmg_context_errmsg(ctx));
    } else {
        for (size_t i = 0; i < rmg_pack_warning_count(pack); i++)
            fprintf(stderr, "rmg convert: warning: %s\n", rmg_pack_warning(pack, i));
        code = write_output(ctx, pack, files[1], h3t);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return code;
}
