#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char cli_gen_help[] =
    "  --template NAME        template of the pack to use (default: random among those that fit);\n"
    "                         NAME#K: the K-th of several templates named NAME\n"
    "  --size S|M|L|XL|H|XH|G|WxH   map size (default: one the template supports, M when it can)\n"
    "  --underground | --no-underground   two levels or one\n"
    "  --players N            total players (default: the template's start zones)\n"
    "  --humans N             human players (default 1)\n"
    "  --water none|normal|islands   water level (default: the first the template accepts, in\n"
    "                         this order; none when it accepts any)\n"
    "  --monsters weak|normal|strong\n"
    "  --town P=TOWN          player P's town (castle, rampart, tower, inferno, necropolis, dungeon,\n"
    "                         stronghold, fortress, conflux, cove, factory, or random); repeatable;\n"
    "                         the pack's allowed towns limit the choice (default: random)\n"
    "  --seed N               the seed (default 1)\n"
    "  --game hota|sod        the game the map is for: its towns, creatures, objects and .h3m edition\n"
    "                         (default hota; sod = Shadow of Death content only)\n";

void cli_gen_init(cli_gen *g)
{
    memset(g, 0, sizeof *g);
    rmg_generate_options_init(&g->opt);
    g->seed = 1;
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool cli_parse_int(const char *s, int lo, int hi, int *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    static const struct {
        const char *name;
        int side;
    } sizes[] = {{"S", 36}, {"M", 72}, {"L", 108}, {"XL", 144}, {"H", 180}, {"XH", 216}, {"G", 252}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(s, sizes[i].name) == 0) {
            *w = *h = sizes[i].side;
            return true;
        }
    int a, b;
    char x;
    if (sscanf(s, "%d%c%d", &a, &x, &b) == 3 && (x == 'x' || x == 'X') && a > 0 && b > 0 && a <= 1024 && b <= 1024) {
        *w = a;
        *h = b;
        return true;
    }
    return false;
}

static int pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (s && strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* The town names --town takes: the faction keys of the public enum (rmg/content.h, in the order
 * of their ids), then "random". */
static const char *const town_names[] = {"castle",     "rampart",  "tower",   "inferno", "necropolis", "dungeon",
                                         "stronghold", "fortress", "conflux", "cove",    "factory",    "random"};
#define TOWN_RANDOM 11

/* "P=TOWN": player P (1..8) plays TOWN. Returns 1 done, 0 a bad player, -1 a bad town. */
static int parse_town(const char *s, rmg_generate_options *o)
{
    const char *eq = strchr(s, '=');
    int player;
    char number[4];
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof number)
        return 0;
    memcpy(number, s, (size_t)(eq - s));
    number[eq - s] = '\0';
    if (!cli_parse_int(number, 1, 8, &player))
        return 0;
    uint32_t bit = 1u << (player - 1);
    int t = pick(eq + 1, town_names, TOWN_RANDOM + 1);
    if (t < 0)
        return -1;
    if (t == TOWN_RANDOM) {
        o->towns_chosen &= ~bit;
    } else {
        o->towns_chosen |= bit;
        o->towns[player - 1] = t; /* the names follow the faction ids (rmg/content.h) */
    }
    return 1;
}

void cli_bad_name(const char *cmd, const char *option, const char *value, const char *const *names, int n)
{
    fprintf(stderr, "rmg %s: bad value '%s' for %s", cmd, value, option);
    int k = rmg_name_suggest(value, names, (size_t)n);
    if (k >= 0)
        fprintf(stderr, "; did you mean '%s'?", names[k]);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i ? ", " : " (one of ", names[i]);
    fputs(n ? ")\n" : "\n", stderr);
}

static const char *const water_names[] = {"none", "normal", "islands"}; /* rmg_water_level order */

int cli_water_level(const char *s)
{
    return pick(s, water_names, 3);
}

int cli_gen_option(cli_gen *g, int argc, char **argv, int *i, const char *cmd)
{
    static const char *const monsters[] = {"weak", "normal", "strong"};
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(a, "--underground") == 0) {
        g->opt.levels = 2;
        return 1;
    }
    if (strcmp(a, "--no-underground") == 0) {
        g->opt.levels = 1;
        return 1;
    }
    bool takes_value = strcmp(a, "--template") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--players") == 0 ||
                       strcmp(a, "--humans") == 0 || strcmp(a, "--water") == 0 || strcmp(a, "--monsters") == 0 ||
                       strcmp(a, "--seed") == 0 || strcmp(a, "--game") == 0 || strcmp(a, "--town") == 0;
    if (!takes_value)
        return 0;
    if (!v) {
        fprintf(stderr, "rmg %s: %s needs a value\n", cmd, a);
        return -1;
    }
    (*i)++;
    static const char *const games[] = {"hota", "sod"};
    static const char *const sizes[] = {"S", "M", "L", "XL", "H", "XH", "G", "WxH"};
    bool ok = true;
    const char *const *names = NULL;  /* the names the option takes, for a bad value's message */
    int n_names = 0, town;
    if (strcmp(a, "--template") == 0) {
        g->opt.template_name = v;
    } else if (strcmp(a, "--size") == 0) {
        ok = parse_size(v, &g->opt.width, &g->opt.height);
        names = sizes, n_names = 8;
    } else if (strcmp(a, "--town") == 0) {
        ok = (town = parse_town(v, &g->opt)) > 0;
        if (town < 0) {
            cli_bad_name(cmd, "--town", strchr(v, '=') + 1, town_names, TOWN_RANDOM + 1);
            return -1;
        }
    } else if (strcmp(a, "--players") == 0) {
        ok = cli_parse_int(v, 1, 8, &g->opt.players);
    } else if (strcmp(a, "--humans") == 0) {
        ok = cli_parse_int(v, 0, 8, &g->opt.humans);
    } else if (strcmp(a, "--water") == 0) {
        int w = cli_water_level(v);
        ok = w >= 0;
        g->opt.water = (rmg_water_level)(w < 0 ? 0 : w);
        names = water_names, n_names = 3;
    } else if (strcmp(a, "--game") == 0) {
        int k = pick(v, games, 2);
        ok = k >= 0;
        g->game = k == 1 ? RMG_CONTENT_SOD : RMG_CONTENT_HOTA;
        names = games, n_names = 2;
    } else if (strcmp(a, "--monsters") == 0) {
        int m = pick(v, monsters, 3);
        ok = m >= 0;
        g->opt.monsters = (rmg_map_monsters)(m < 0 ? 1 : m);
        names = monsters, n_names = 3;
    } else {
        ok = cli_parse_u64(v, &g->seed);
        g->seed_given = true;
    }
    if (!ok) {
        cli_bad_name(cmd, a, v, names, n_names);
        return -1;
    }
    return 1;
}

int cli_set_game(rmg_context *ctx, const cli_gen *g, const char *cmd)
{
    if (g->game == RMG_CONTENT_HOTA)
        return 0; /* the context's default ruleset */
    if (rmg_context_set_content_variant(ctx, g->game) != RMG_OK) {
        fprintf(stderr, "rmg %s: %s\n", cmd, rmg_context_errmsg(ctx));
        return 2;
    }
    return 0;
}

int cli_load_pack(rmg_context *ctx, const char *file, rmg_pack **out, const char *cmd)
{
    rmg_status st = file ? rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, out) : rmg_pack_builtin(ctx, out);
    if (st != RMG_OK) {
        fprintf(stderr, "rmg %s: %s\n", cmd, rmg_context_errmsg(ctx));
        return 2;
    }
    return 0;
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void cli_json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

int cli_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int cli_best_option(cli_best *b, int argc, char **argv, int *i, const char *cmd)
{
    static const struct {
        const char *name;
        int lo, hi;
    } options[] = {{"--best-of", 1, 1000}, {"--threads", 1, 64}, {"--day-points", 100, 5000}};
    for (int k = 0; k < 3; k++) {
        if (strcmp(argv[*i], options[k].name) != 0)
            continue;
        int *field = k == 0 ? &b->candidates : k == 1 ? &b->threads : &b->day_points;
        if (*i + 1 >= argc || !cli_parse_int(argv[*i + 1], options[k].lo, options[k].hi, field)) {
            fprintf(stderr, "rmg %s: bad %s (%d..%d)\n", cmd, options[k].name, options[k].lo, options[k].hi);
            return -1;
        }
        (*i)++;
        return 1;
    }
    return 0;
}

/* Whether message m is about the pack or a template the name (NULL: any) may pick. */
static bool about(const rmg_pack *pack, const rmg_message *m, const char *name)
{
    rmg_template_info t = {.struct_size = sizeof t};
    if (!name || m->template_index < 0 || rmg_template_get(pack, (size_t)m->template_index, &t) != RMG_OK)
        return true;
    size_t n = strlen(t.name ? t.name : "");
    return t.name && strncmp(name, t.name, n) == 0 && (name[n] == '\0' || name[n] == '#');
}

/* The template was refused for the errors `rmg check` finds: print them all (the library's
 * message holds the first few). */
static void print_errors(const rmg_pack *pack, const char *name)
{
    rmg_validation *v = NULL;
    if (rmg_pack_validate(pack, &v) != RMG_OK)
        return;
    for (size_t i = 0; i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        if (rmg_validation_get(v, i, &m) == RMG_OK && m.severity == RMG_SEVERITY_ERROR && about(pack, &m, name))
            fprintf(stderr, "%s [%s]\n", m.text, m.code);
    }
    rmg_validation_destroy(v);
}

int cli_generate(rmg_context *ctx, const cli_gen *g, const cli_best *best, rmg_map **map, cli_generated *out,
                 const char *cmd)
{
    rmg_pack *pack = NULL;
    int code = cli_load_pack(ctx, g->template_file, &pack, cmd);
    if (code)
        return code;
    memset(out, 0, sizeof *out);
    double t0 = cli_now_ms();
    rmg_status st;
    if (best && best->candidates > 1) {
        rmg_best_of_options bo;
        rmg_best_of_options_init(&bo);
        bo.candidates = best->candidates;
        bo.threads = best->threads ? best->threads : cli_cores();
        bo.day_points = best->day_points;
        out->best.struct_size = sizeof out->best;
        st = rmg_generate_best_of(ctx, pack, &g->opt, &bo, map, &out->best);
    } else {
        st = rmg_generate(ctx, pack, &g->opt, map);
    }
    out->ms = cli_now_ms() - t0;
    if (st != RMG_OK) {
        fprintf(stderr, "rmg %s: %s\n", cmd, rmg_context_errmsg(ctx));
        if (st == RMG_ERR_INVALID_DATA && pack)
            print_errors(pack, g->opt.template_name);
        code = st == RMG_ERR_INVALID_ARG || st == RMG_ERR_NOT_FOUND ? 2 : 1;
    }
    rmg_pack_destroy(pack);
    return code;
}

void cli_print_best_of(FILE *out, const rmg_best_of_info *b)
{
    fprintf(out, "best of %d: candidate %d (seed %llu), fairness score %.1f", b->candidates, b->candidate,
            (unsigned long long)b->seed, b->score);
    if (b->failed)
        fprintf(out, " (%d candidate%s gave no map)", b->failed, b->failed == 1 ? "" : "s");
    fputc('\n', out);
}

bool cli_is_map_json(const char *path)
{
    /* A map document starts with its format member (docs/map-json.md); templates never do. */
    static const char head[] = "{\"format\":\"rmg-map\"";
    char buf[sizeof head];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof head - 1, f);
    fclose(f);
    return n == sizeof head - 1 && memcmp(buf, head, n) == 0;
}
