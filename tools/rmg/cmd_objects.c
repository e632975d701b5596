/* rmg objects: the effective object list of a template or of one of its zones (spec OBJ, RUL). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "rmg/objects.h"
#include "rmg/rmg.h"

static const char objects_help[] =
    "usage: rmg objects [TEMPLATE] [--zone N] [--template NAME] [--json]\n"
    "\n"
    "Prints the effective object list (spec RUL-04..12, OBJ-04..20): the built-in defaults, then\n"
    "the template's rules in order, then the zone's rules, with the caps that cannot be raised.\n"
    "\n"
    "  TEMPLATE         a template file (h3t, SoD rmg.txt, VCMI JSON, YAML) or the name of a\n"
    "                   template of the built-in pack; none: the built-in defaults (L0)\n"
    "  --template NAME  the template of a multi-template file (default: the first)\n"
    "  --zone N         the list of zone N (the template's zone number); default: whole map\n"
    "  --json           a JSON list of objects with the columns of object-defaults.tsv\n"
    "  --help           this text\n"
    "\n"
    "Creature objects whose per-creature entries differ are printed once per creature.\n"
    "exit status: 0 done, 2 bad usage or unreadable input\n";

static const char *const terrain_names[] = {"dirt", "sand", "grass", "snow", "swamp", "rough",
                                            "subterranean", "lava", "water", "rock", "highlands", "wasteland"};

typedef struct objects_args {
    const char *source, *template_name;
    int zone;
    bool json;
} objects_args;

/* 0 ok, 1 --help printed, 2 bad usage. */
static int parse_args(int argc, char **argv, objects_args *a)
{
    memset(a, 0, sizeof *a);
    a->zone = -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(objects_help, stdout);
            return 1;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--zone") == 0 && i + 1 < argc) {
            char *end;
            long z = strtol(argv[++i], &end, 10);
            if (*end || z < 0 || z > 100000) {
                fprintf(stderr, "rmg objects: bad zone number '%s'\n", argv[i]);
                return 2;
            }
            a->zone = (int)z;
        } else if (strcmp(s, "--template") == 0 && i + 1 < argc) {
            a->template_name = argv[++i];
        } else if (s[0] == '-' || a->source) {
            fprintf(stderr, "rmg objects: unexpected argument '%s'\n%s", s, objects_help);
            return 2;
        } else {
            a->source = s;
        }
    }
    if (a->zone >= 0 && !a->source) {
        fprintf(stderr, "rmg objects: --zone needs a template\n");
        return 2;
    }
    return 0;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Loads the pack and finds the template: a file, else a template of the built-in pack. */
static int open_template(rmg_context *ctx, const objects_args *a, rmg_pack **pack, size_t *index)
{
    *pack = NULL;
    *index = 0;
    if (!a->source)
        return 0;
    bool file = is_file(a->source);
    if (cli_load_pack(ctx, file ? a->source : NULL, pack, "objects") != 0)
        return 2;
    const char *name = file ? a->template_name : a->source;
    if (name && rmg_pack_find_template(*pack, name, index) != RMG_OK) {
        fprintf(stderr, "rmg objects: no template named '%s'%s\n", name, file ? " in the file" : " in the built-in pack");
        return 2;
    }
    if (rmg_pack_template_count(*pack) == 0) {
        fprintf(stderr, "rmg objects: %s has no template\n", a->source);
        return 2;
    }
    return 0;
}

/* ---- output ------------------------------------------------------------------------------------ */

/* A number, or the TSV word for a special value. */
static const char *special_word(int64_t v)
{
    switch (v) {
    case RMG_OBJECT_FORMULA: return "formula";
    case RMG_OBJECT_NA: return "n/a";
    case RMG_OBJECT_UNLIMITED: return "unlimited";
    case RMG_OBJECT_RULE: return "rule";
    default: return NULL;
    }
}

static void json_number(FILE *out, int64_t v)
{
    const char *w = v < 0 ? special_word(v) : NULL;
    if (w)
        fprintf(out, "\"%s\"", w);
    else
        fprintf(out, "%lld", (long long)v);
}

/* `, "name": value` members of a row after its first. */
static void json_string_member(FILE *out, const char *name, const char *s)
{
    fprintf(out, ", \"%s\": ", name);
    cli_json_string(out, s);
}

static void json_number_member(FILE *out, const char *name, int64_t v)
{
    fprintf(out, ", \"%s\": ", name);
    json_number(out, v);
}

static void text_number(FILE *out, int64_t v, int width)
{
    const char *w = v < 0 ? special_word(v) : NULL;
    if (w)
        fprintf(out, " %*s", width, w);
    else
        fprintf(out, " %*lld", width, (long long)v);
}

static const char *flag_word(int f)
{
    return f < 0 ? "n/a" : f ? "yes" : "no";
}

static const char *json_flag(int f)
{
    return f < 0 ? "null" : f ? "true" : "false";
}

static void terrains_text(char *buf, size_t cap, uint32_t mask)
{
    buf[0] = 0;
    if (!mask) {
        snprintf(buf, cap, "none");
        return;
    }
    for (int t = 0; t < 12; t++)
        if (mask & (1u << t)) {
            size_t n = strlen(buf);
            snprintf(buf + n, cap - n, "%s%s", n ? "," : "", terrain_names[t]);
        }
}

static void print_json_row(FILE *out, const rmg_object_info *o, bool first, bool per_creature)
{
    fputs(first ? "\n  {" : ",\n  {", out);
    fputs("\"key\": ", out);
    cli_json_string(out, o->key);
    json_string_member(out, "english_name", o->english_name);
    json_string_member(out, "russian_name", o->russian_name);
    json_string_member(out, "family", o->family);
    json_number_member(out, "value", o->value);
    json_number_member(out, "frequency", o->frequency);
    json_number_member(out, "max_map", o->max_map);
    fprintf(out, ", \"max_map_fixed\": %s", json_flag(o->max_map_fixed));
    json_number_member(out, "max_zone", o->max_zone);
    fprintf(out, ", \"max_zone_fixed\": %s", json_flag(o->max_zone_fixed));
    fputs(", \"terrains\": [", out);
    for (int t = 0, n = 0; t < 12; t++)
        if (o->terrains & (1u << t))
            fprintf(out, "%s\"%s\"", n++ ? ", " : "", terrain_names[t]);
    fprintf(out, "], \"banned_by_default\": %s, \"notes\": ", json_flag(o->banned_by_default));
    if (per_creature || o->custom) {
        char notes[4096];
        snprintf(notes, sizeof notes, "%s%s%s%s", per_creature ? "creature: " : "custom variant",
                 per_creature ? o->creature : "", o->notes && *o->notes ? "; " : "", o->notes ? o->notes : "");
        cli_json_string(out, notes);
    } else {
        cli_json_string(out, o->notes);
    }
    fputc('}', out);
}

static void print_text_row(FILE *out, const rmg_object_info *o, bool per_creature)
{
    char terr[160], key[96];
    terrains_text(terr, sizeof terr, o->terrains);
    snprintf(key, sizeof key, "%s%s%s%s", o->key, per_creature ? ":" : "", per_creature ? o->creature : "",
             o->custom ? " (custom)" : "");
    fprintf(out, "%-40s %-24s", key, o->family);
    text_number(out, o->value, 8);
    text_number(out, o->frequency, 6);
    text_number(out, o->max_map, 9);
    fprintf(out, " %-3s", flag_word(o->max_map_fixed));
    text_number(out, o->max_zone, 9);
    fprintf(out, " %-3s %-3s %s\n", flag_word(o->max_zone_fixed), o->banned_by_default ? "yes" : "no", terr);
}

static bool same_params(const rmg_object_info *a, const rmg_object_info *b)
{
    return a->value == b->value && a->frequency == b->frequency && a->max_map == b->max_map &&
           a->max_zone == b->max_zone;
}

/* Entries [from, to) that belong to one row: the per-creature entries of a creature object. */
static size_t row_end(const rmg_object_list *l, size_t from, const rmg_object_info *first, bool *uniform)
{
    size_t to = from + 1;
    *uniform = true;
    rmg_object_info o;
    rmg_object_info_init(&o);
    while (first->creature && !first->custom && to < rmg_object_list_count(l) &&
           rmg_object_list_get(l, to, &o) == RMG_OK && o.creature && !o.custom && strcmp(o.key, first->key) == 0) {
        *uniform &= same_params(first, &o);
        to++;
    }
    return to;
}

static void print_list(FILE *out, const rmg_object_list *l, bool json)
{
    bool first_row = true;
    if (json)
        fputc('[', out);
    else
        fprintf(out, "%-40s %-24s %8s %6s %9s %-3s %9s %-3s %-3s %s\n", "key", "family", "value", "freq", "max_map",
                "fix", "max_zone", "fix", "ban", "terrains");
    for (size_t i = 0; i < rmg_object_list_count(l);) {
        rmg_object_info o;
        rmg_object_info_init(&o);
        rmg_object_list_get(l, i, &o);
        bool uniform;
        size_t end = row_end(l, i, &o, &uniform);
        for (size_t k = i; k < (uniform ? i + 1 : end); k++) {
            rmg_object_info_init(&o);
            rmg_object_list_get(l, k, &o);
            bool per_creature = !uniform && o.creature;
            if (json)
                print_json_row(out, &o, first_row, per_creature);
            else
                print_text_row(out, &o, per_creature);
            first_row = false;
        }
        i = end;
    }
    if (json)
        fputs(first_row ? "]\n" : "\n]\n", out);
}

int rmg_cmd_objects(int argc, char **argv)
{
    objects_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK) {
        fprintf(stderr, "rmg objects: cannot create a context\n");
        return 2;
    }
    rmg_pack *pack = NULL;
    size_t index = 0;
    rc = open_template(ctx, &a, &pack, &index);
    rmg_object_list *list = NULL;
    if (rc == 0 && rmg_objects_effective(ctx, pack, index, a.zone, &list) != RMG_OK) {
        fprintf(stderr, "rmg objects: %s\n", rmg_context_errmsg(ctx));
        rc = 2;
    }
    if (rc == 0)
        print_list(stdout, list, a.json);
    rmg_object_list_destroy(list);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return rc;
}
