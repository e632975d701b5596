/* rmg convert IN OUT: converts a template pack; the output format follows OUT's extension. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "format_arg.h"
#include "rmg/rmg.h"

static const char convert_help[] =
    "usage: rmg convert [--from auto|yaml|h3t|sod|vcmi] IN OUT\n"
    "\n"
    "Reads the template pack IN (format detected from the content unless --from is given) and\n"
    "writes it to OUT in the format of OUT's extension: .yaml or .yml (native YAML, see\n"
    "docs/template-format.md). Writing .h3t and .json is not supported yet. IN may be\n"
    "'builtin' for the library's default pack. Warnings of the import go to standard error.\n"
    "\n"
    "exit status: 0 converted, 1 the output could not be written, 2 bad usage or unreadable input\n";

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int write_output(rmg_context *ctx, const rmg_pack *pack, const char *out)
{
    if (!has_suffix(out, ".yaml") && !has_suffix(out, ".yml")) {
        fprintf(stderr, "rmg convert: cannot write '%s': only .yaml/.yml output is supported\n", out);
        return 2;
    }
    if (rmg_pack_save_yaml(pack, out) != RMG_OK) {
        fprintf(stderr, "rmg convert: %s\n", rmg_context_errmsg(ctx));
        return 1;
    }
    return 0;
}

int rmg_cmd_convert(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nfiles = 0, format = RMG_FORMAT_AUTO;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(convert_help, stdout);
            return 0;
        } else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc) {
            if ((format = rmg_cli_parse_format(argv[++i])) < 0) {
                fprintf(stderr, "rmg convert: unknown format '%s'\n", argv[i]);
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
        code = write_output(ctx, pack, files[1]);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return code;
}
