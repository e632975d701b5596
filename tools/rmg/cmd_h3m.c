/* .h3m files on the command line: rmg info MAP.h3m (header, players, object counts) and rmg
 * render MAP.h3m -o preview.png (any .h3m as the project's exports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "export/h3m/h3m_doc.h"

static const char *const player_names[8] = {"red", "blue", "tan", "green", "orange", "purple", "teal", "pink"};

static const char *format_name(const rmg__h3m_doc *d)
{
    if (d->format == RMG__H3M_SOD)
        return "SoD (0x1C)";
    static char hota[40];
    snprintf(hota, sizeof hota, "HotA (0x20, sub-version %u)", d->hota_sub);
    return hota;
}

/* Objects by class, most frequent first (at most 12 lines). */
static void print_classes(const rmg__h3m_doc *d)
{
    enum { MAX_CLASS = 1024 };
    static unsigned count[MAX_CLASS];
    memset(count, 0, sizeof count);
    for (uint32_t i = 0; i < d->object_count; i++) {
        uint32_t c = d->templates[d->objects[i].template_index].class_id;
        count[c < MAX_CLASS ? c : MAX_CLASS - 1]++;
    }
    printf("objects   %u in %u templates; by class:\n", d->object_count, d->template_count);
    for (int line = 0; line < 12; line++) {
        unsigned best = 0;
        int at = -1;
        for (int c = 0; c < MAX_CLASS; c++)
            if (count[c] > best)
                best = count[c], at = c;
        if (at < 0)
            break;
        printf("  class %-4d %6u\n", at, best);
        count[at] = 0;
    }
}

int rmg_cmd_info_h3m(const char *path)
{
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg info: out of memory\n");
        return 2;
    }
    char *data = NULL;
    size_t len = 0;
    rmg__h3m_doc *d = NULL;
    rmg_status st = rmg__read_file(ctx, path, RMG__H3M_MAX_STREAM, &data, &len);
    if (st == RMG_OK)
        st = rmg__h3m_read(ctx, (const uint8_t *)data, len, path, &d);
    rmg__free(ctx, data);
    if (st != RMG_OK) {
        fprintf(stderr, "rmg info: %s\n", rmg_context_errmsg(ctx));
        rmg_context_destroy(ctx);
        return st == RMG_ERR_IO ? 2 : 1;
    }
    printf("file      %s\nformat    %s\nname      %s\n", path, format_name(d), d->basic.name.data ? d->basic.name.data : "");
    printf("size      %ux%ux%d\n", d->basic.size, d->basic.size, d->basic.two_levels ? 2 : 1);
    for (int p = 0; p < RMG__H3M_PLAYERS; p++) {
        const rmg__h3m_player *pl = &d->players[p];
        if (!pl->can_human && !pl->can_computer)
            continue;
        printf("player    %-6s %s", player_names[p], pl->can_human ? "human or computer" : "computer only");
        if (pl->has_main_town)
            printf(", main town at %u,%u,%u", pl->main_town.x, pl->main_town.y, pl->main_town.z);
        printf("\n");
    }
    print_classes(d);
    rmg__h3m_doc_free(d);
    rmg_context_destroy(ctx);
    return 0;
}

static const char render_help[] =
    "usage: rmg render MAP.h3m -o FILE [-o FILE]...\n"
    "\n"
    "Reads an .h3m map (SoD, or HotA up to 1.8 without scripts) and writes it as the project's\n"
    "exports, chosen by extension: .png (the preview), .json, .txt, .h3m.\n"
    "\n"
    "exit status: 0 done, 1 the file is malformed or of an unsupported format, 2 bad usage or an\n"
    "unreadable or unwritable file\n";

int rmg_cmd_render(int argc, char **argv)
{
    const char *input = NULL, *outputs[16];
    int n_out = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(render_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc && n_out < 16) {
            outputs[n_out++] = argv[++i];
        } else if (argv[i][0] != '-' && !input) {
            input = argv[i];
        } else {
            fprintf(stderr, "rmg render: unknown or incomplete option '%s'\n%s", argv[i], render_help);
            return 2;
        }
    }
    if (!input || !n_out) {
        fputs(render_help, stderr);
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg render: out of memory\n");
        return 2;
    }
    rmg_map *map = NULL;
    rmg_status st = rmg_map_load_h3m(ctx, input, &map);
    int code = st == RMG_OK ? 0 : st == RMG_ERR_IO ? 2 : 1;
    if (st != RMG_OK)
        fprintf(stderr, "rmg render: %s\n", rmg_context_errmsg(ctx));
    for (int i = 0; i < n_out && code == 0; i++)
        if (rmg_map_save(map, outputs[i]) != RMG_OK) {
            fprintf(stderr, "rmg render: %s\n", rmg_context_errmsg(ctx));
            code = 2;
        }
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
    return code;
}
