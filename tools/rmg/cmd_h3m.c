/* .h3m files on the command line: rmg info MAP.h3m (header, players, object counts; with --json
 * also what the map JSON does not say: tile counts with rivers, object templates with their
 * sprites, each object's kind and monsters' AI values) and rmg render MAP.h3m -o preview.png
 * (any .h3m as the project's exports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "export/export_internal.h" /* rmg__png_legend */
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

/* The ruleset's name of a map object's key (a zone object's or a map object's), else the key. */
static const char *object_name(const rmg_content *c, const char *key)
{
    static const rmg_content_kind kinds[] = {RMG_CONTENT_OBJECT, RMG_CONTENT_MAP_OBJECT};
    for (size_t k = 0; key && k < sizeof kinds / sizeof kinds[0]; k++) {
        long i = rmg_content_find(c, kinds[k], key);
        const char *name = i >= 0 ? rmg_content_entity_name(c, kinds[k], (size_t)i) : NULL;
        if (name && *name)
            return name;
    }
    return key ? key : "?";
}

/* Objects by kind (class and subclass), most frequent first (at most 12 lines), each named by
 * the ruleset (rmg_map_from_h3m keys them by class and subclass). */
static void print_classes(const rmg__h3m_doc *d, const rmg_map *map, const rmg_content *content)
{
    enum { MAX_KINDS = 4096 };
    typedef struct kind_count {
        uint32_t class_id, subclass, count, first;
    } kind_count;
    static kind_count kinds[MAX_KINDS];
    size_t n = 0;
    for (uint32_t i = 0; i < d->object_count; i++) {
        const rmg__h3m_template *t = &d->templates[d->objects[i].template_index];
        size_t k = 0;
        while (k < n && (kinds[k].class_id != t->class_id || kinds[k].subclass != t->subclass))
            k++;
        if (k == n && n == MAX_KINDS)
            continue; /* a file of more kinds than the game has: the rest go uncounted */
        if (k == n)
            kinds[n++] = (kind_count){t->class_id, t->subclass, 0, i};
        kinds[k].count++;
    }
    printf("objects   %u in %u templates, %zu kinds; the most frequent:\n", d->object_count, d->template_count, n);
    for (int line = 0; line < 12; line++) {
        size_t at = n;
        for (size_t k = 0; k < n; k++)
            if (kinds[k].count && (at == n || kinds[k].count > kinds[at].count))
                at = k;
        if (at == n)
            break;
        rmg_map_object_info o = {.struct_size = sizeof o};
        const char *key = rmg_map_object(map, kinds[at].first, &o) == RMG_OK ? o.key : NULL;
        printf("  %6u  %-32s class %u, subclass %u\n", kinds[at].count, object_name(content, key), kinds[at].class_id,
               kinds[at].subclass);
        kinds[at].count = 0;
    }
}

static const char *const kind_names[] = {"treasure", "town", "mine", "resource", "monster", "monolith", "gate",
                                         "border_guard", "keymaster_tent", "seer_hut", "shipyard",
                                         "airship_yard", "obstacle", "boat"};

static void print_text(const rmg__h3m_doc *d, const rmg_map *map, const rmg_content *content, const char *path)
{
    printf("file      %s\nformat    %s\nname      %s\n", path, format_name(d), rmg_map_template_name(map));
    /* The description, each of its lines indented under the first. */
    const char *text = rmg_map_description(map);
    printf("about     ");
    for (const char *p = text; *p; p++)
        fputs(*p == '\n' ? "\n          " : (char[2]){*p, 0}, stdout);
    printf("%s\n", *text ? "" : "(no description)");
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
    print_classes(d, map, content);
}

static void print_counts(const char *name, const size_t *count, int n)
{
    printf("\"%s\": [", name);
    for (int i = 0; i < n; i++)
        printf("%s%zu", i ? ", " : "", count[i]);
    printf("]");
}

/* Tiles by terrain, river and road type, as the file stores them (the spec's §13: bytes 0, 2
 * and 4 of a tile); types beyond the known ones count in the last entry. */
static void print_tiles(const rmg__h3m_doc *d)
{
    size_t terrain[12] = {0}, river[5] = {0}, road[4] = {0};
    size_t n = rmg__h3m_tile_bytes(d) / RMG__H3M_TILE_BYTES;
    for (size_t t = 0; t < n; t++) {
        const uint8_t *tile = d->tiles + t * RMG__H3M_TILE_BYTES;
        terrain[tile[0] < 12 ? tile[0] : 11]++;
        river[tile[2] < 5 ? tile[2] : 4]++;
        road[tile[4] < 4 ? tile[4] : 3]++;
    }
    printf(", \"tiles\": {");
    print_counts("terrain", terrain, 12);
    printf(", ");
    print_counts("river", river, 5);
    printf(", ");
    print_counts("road", road, 4);
    printf("}");
}

static void print_templates(const rmg__h3m_doc *d, const uint32_t *uses)
{
    printf(", \"templates\": [");
    for (uint32_t i = 0; i < d->template_count; i++) {
        const rmg__h3m_template *t = &d->templates[i];
        printf("%s{\"def\": ", i ? ", " : "");
        cli_json_string(stdout, t->def.data ? t->def.data : "");
        printf(", \"class\": %u, \"subclass\": %u, \"objects\": %u}", t->class_id, t->subclass, uses[i]);
    }
    printf("]");
}

/* Each object in file order (the order of the map JSON's objects): its template, the reader's
 * kind, and for monsters the creature's AI value in the ruleset of the file's game. */
static void print_objects(const rmg__h3m_doc *d, const rmg_map *map, const rmg_content *c)
{
    printf(", \"objects\": [");
    for (uint32_t i = 0; i < d->object_count; i++) {
        rmg_map_object_info o = {.struct_size = sizeof o};
        rmg_map_object(map, i, &o);
        printf("%s{\"template\": %u, \"kind\": \"%s\"", i ? ", " : "", d->objects[i].template_index,
               (size_t)o.kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[o.kind] : "treasure");
        if (o.kind == RMG_OBJECT_MONSTER) {
            rmg_creature_info ci = {.struct_size = sizeof ci};
            long k = o.creature ? rmg_content_find(c, RMG_CONTENT_CREATURE, o.creature) : -1;
            printf(", \"count\": %d, \"ai_value\": ", o.count);
            if (k >= 0 && rmg_content_creature(c, (size_t)k, &ci) == RMG_OK)
                printf("%d", ci.ai_value);
            else
                printf("null");
        }
        printf("}");
    }
    printf("]");
}

static void print_json(const rmg__h3m_doc *d, const rmg_map *map, const rmg_content *c, const char *path)
{
    printf("{\"file\": ");
    cli_json_string(stdout, path);
    printf(", \"format\": \"%s\", \"hota_sub\": ", d->format == RMG__H3M_SOD ? "sod" : "hota");
    if (d->format == RMG__H3M_SOD)
        printf("null");
    else
        printf("%u", d->hota_sub);
    printf(", \"name\": ");
    cli_json_string(stdout, rmg_map_template_name(map));
    printf(", \"description\": ");
    cli_json_string(stdout, rmg_map_description(map));
    printf(", \"size\": %u, \"levels\": %d, \"players\": [", d->basic.size, d->basic.two_levels ? 2 : 1);
    bool first = true;
    for (int p = 0; p < RMG__H3M_PLAYERS; p++) {
        const rmg__h3m_player *pl = &d->players[p];
        if (!pl->can_human && !pl->can_computer)
            continue;
        printf("%s{\"player\": %d, \"color\": \"%s\", \"human\": %s, \"computer\": %s, \"main_town\": ", first ? "" : ", ",
               p + 1, player_names[p], pl->can_human ? "true" : "false", pl->can_computer ? "true" : "false");
        if (pl->has_main_town)
            printf("[%u, %u, %u]}", pl->main_town.x, pl->main_town.y, pl->main_town.z);
        else
            printf("null}");
        first = false;
    }
    printf("]");
    print_tiles(d);
    uint32_t *uses = calloc(d->template_count ? d->template_count : 1, sizeof *uses);
    if (uses) {
        for (uint32_t i = 0; i < d->object_count; i++)
            uses[d->objects[i].template_index]++;
        print_templates(d, uses);
        free(uses);
    }
    print_objects(d, map, c);
    printf("}\n");
}

int rmg_cmd_info_h3m(const char *path, bool json)
{
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg info: out of memory\n");
        return 2;
    }
    char *data = NULL;
    size_t len = 0;
    rmg__h3m_doc *d = NULL;
    rmg_map *map = NULL;
    const rmg_content *c = NULL;
    rmg_status st = rmg__read_file(ctx, path, RMG__H3M_MAX_STREAM, &data, &len);
    if (st == RMG_OK)
        st = rmg__h3m_read(ctx, (const uint8_t *)data, len, path, &d);
    /* The ruleset of the file's game (a creature's AI value differs between SoD and HotA). */
    if (st == RMG_OK)
        st = rmg_context_set_content_variant(ctx, d->format == RMG__H3M_SOD ? RMG_CONTENT_SOD : RMG_CONTENT_HOTA);
    if (st == RMG_OK)
        st = rmg_context_content(ctx, &c);
    if (st == RMG_OK)
        st = rmg_map_from_h3m(ctx, data, len, path, &map);
    rmg__free(ctx, data);
    if (st == RMG_OK && rmg_map_object_count(map) != d->object_count)
        st = rmg__error_set(ctx, RMG_ERR_INTERNAL, "%s: the map holds %zu objects, the file %u", path,
                            rmg_map_object_count(map), d->object_count);
    if (st != RMG_OK) {
        fprintf(stderr, "rmg info: %s\n", rmg_context_errmsg(ctx));
        rmg_map_destroy(map);
        rmg__h3m_doc_free(d);
        rmg_context_destroy(ctx);
        return st == RMG_ERR_IO ? 2 : 1;
    }
    if (json)
        print_json(d, map, c, path);
    else
        print_text(d, map, c, path);
    rmg_map_destroy(map);
    rmg__h3m_doc_free(d);
    rmg_context_destroy(ctx);
    return 0;
}

static const char render_help[] =
    "usage: rmg render MAP.h3m -o FILE [-o FILE]...\n"
    "       rmg render --legend [--sod]\n"
    "\n"
    "Reads an .h3m map (SoD, or HotA up to 1.8 without scripts) and writes it as the project's\n"
    "exports, chosen by extension: .png (the preview), .json, .txt, .h3m.\n"
    "--legend prints what the colours of the PNG preview mean (also of rmg generate -o map.png),\n"
    "from the table the picture is drawn with; terrains in the colours of the HotA ruleset, or\n"
    "of SoD's with --sod.\n"
    "\n"
    "exit status: 0 done, 1 the file is malformed or of an unsupported format, 2 bad usage or an\n"
    "unreadable or unwritable file\n";

/* The preview's colours, as `rmg render --legend` prints them (docs/png-preview.md). */
static int print_legend(bool sod)
{
    rmg_context *ctx = NULL;
    const rmg_content *c = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK ||
        (sod && rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD) != RMG_OK) ||
        rmg_context_content(ctx, &c) != RMG_OK) {
        fprintf(stderr, "rmg render: %s\n", ctx ? rmg_context_errmsg(ctx) : "out of memory");
        rmg_context_destroy(ctx);
        return 2;
    }
    printf("PNG preview: each level side by side (the surface left), one square of pixels a tile.\n"
           "terrain\n");
    for (size_t i = 0; i < rmg_content_count(c, RMG_CONTENT_TERRAIN); i++) {
        rmg_terrain_info t = {.struct_size = sizeof t};
        if (rmg_content_terrain(c, i, &t) == RMG_OK)
            printf("  #%06x  %s\n", rmg__png_terrain_rgb(c, t.id), t.key);
    }
    printf("tiles, roads, borders and objects\n");
    uint32_t rgb;
    for (size_t i = 0; rmg__png_legend(i, &rgb); i++) {
        if (rgb <= 0xffff && strstr(rmg__png_legend(i, NULL), "brightness"))
            printf("  %2u/%-2u    %s\n", rgb >> 8, rgb & 0xff, rmg__png_legend(i, NULL));
        else
            printf("  #%06x  %s\n", rgb, rmg__png_legend(i, NULL));
    }
    rmg_context_destroy(ctx);
    return 0;
}

int rmg_cmd_render(int argc, char **argv)
{
    const char *input = NULL, *outputs[16];
    int n_out = 0;
    bool legend = false, sod = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(render_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--legend")) {
            legend = true;
        } else if (!strcmp(argv[i], "--sod")) {
            sod = true;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc && n_out < 16) {
            outputs[n_out++] = argv[++i];
        } else if (argv[i][0] != '-' && !input) {
            input = argv[i];
        } else {
            fprintf(stderr, "rmg render: unknown or incomplete option '%s'\n%s", argv[i], render_help);
            return 2;
        }
    }
    if (legend && !input && !n_out)
        return print_legend(sod);
    if (!input || !n_out || legend || sod) {
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
