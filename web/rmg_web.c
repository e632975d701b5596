/*
 * The page's bridge to librmg (issue 31): a few entry points over the public C API that the
 * worker (web/worker.js) calls through Emscripten. Everything crosses as JSON text or plain bytes;
 * nothing here decides anything the library does not: it loads the pack text, generates, and
 * hands out the map's exports (JSON document, .h3m bytes, PNG preview), its tile layers and
 * objects for drawing, the template's zones and connections for the graph, the check's
 * diagnostics and the balance report. One map is kept at a time (the worker's last result).
 *
 * Strings returned are allocated with malloc: the caller releases them with rmgw_free.
 */
#include <emscripten/emscripten.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg/rmg.h"

/* ---- a growable text buffer, for the JSON handed to JS --------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_put(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_put(b, big, (size_t)n);
    free(big);
}

/* s as a JSON string; NULL as null. */
static void sb_str(sbuf *b, const char *s)
{
    if (!s) {
        sb_put(b, "null", 4);
        return;
    }
    sb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            sb_put(b, esc, 2);
        } else if (*p < 0x20) {
            sb_printf(b, "\\u%04x", *p);
        } else {
            sb_put(b, (const char *)p, 1);
        }
    }
    sb_put(b, "\"", 1);
}

/* The finished text, or NULL when memory ran out. */
static char *sb_done(sbuf *b)
{
    if (b->failed) {
        free(b->p);
        return NULL;
    }
    if (!b->p)
        sb_put(b, "", 0);
    return b->p;
}

EMSCRIPTEN_KEEPALIVE void rmgw_free(void *p)
{
    free(p);
}

EMSCRIPTEN_KEEPALIVE void *rmgw_malloc(size_t n)
{
    return malloc(n ? n : 1);
}

/* ---- state: the last map and the context it was made with ------------------------------------- */

static rmg_context *g_ctx;
static rmg_map *g_map;
static char *g_error; /* JSON of the last failure */

static void drop_map(void)
{
    rmg_map_destroy(g_map);
    g_map = NULL;
    rmg_context_destroy(g_ctx);
    g_ctx = NULL;
}

EM_JS(int, rmgw_js_progress, (const char *stage, double fraction), {
    if (typeof postMessage === 'function' && typeof WorkerGlobalScope !== 'undefined')
        postMessage({type : 'progress', stage : UTF8ToString(stage), fraction : fraction});
    return 0;
});

static int progress(void *user, const char *stage, double fraction)
{
    (void)user;
    return rmgw_js_progress(stage ? stage : "", fraction);
}

/* A context for game 0 (HotA) or 1 (SoD), seeded. */
static rmg_context *new_context(unsigned long long seed, int game, int with_progress)
{
    rmg_context_options co;
    rmg_context_options_init(&co);
    co.seed = seed;
    if (with_progress)
        co.progress = progress;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, &co) != RMG_OK)
        return NULL;
    if (game == 1 && rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD) != RMG_OK) {
        rmg_context_destroy(ctx);
        return NULL;
    }
    return ctx;
}

static rmg_status load_pack(rmg_context *ctx, const char *data, size_t len, const char *name, rmg_pack **pack)
{
    return data ? rmg_pack_load_string(ctx, data, len, name, RMG_FORMAT_AUTO, pack) : rmg_pack_builtin(ctx, pack);
}

/* The context's last error as JSON: {status, message, file, line, column, zone, connection, stage}. */
static void put_error(sbuf *b, const rmg_context *ctx)
{
    rmg_error_info e = {.struct_size = sizeof e};
    rmg_context_error_get(ctx, &e);
    sb_put(b, "{\"status\":", 10);
    sb_str(b, rmg_status_name(e.status));
    sb_put(b, ",\"message\":", 11);
    sb_str(b, e.message ? e.message : "");
    sb_put(b, ",\"file\":", 8);
    sb_str(b, e.file);
    sb_printf(b, ",\"line\":%d,\"column\":%d,\"zone\":%d,\"connection\":%d,\"stage\":", e.line, e.column, e.zone,
              e.connection);
    sb_str(b, e.stage);
}

/* The validation's messages as a JSON array (errors only when errors_only). */
static void put_messages(sbuf *b, const rmg_validation *v, int errors_only)
{
    sb_put(b, "[", 1);
    int first = 1;
    for (size_t i = 0; v && i < rmg_validation_count(v); i++) {
        rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, -1, -1, -1};
        if (rmg_validation_get(v, i, &m) != RMG_OK || (errors_only && m.severity != RMG_SEVERITY_ERROR))
            continue;
        sb_put(b, first ? "{\"severity\":" : ",{\"severity\":", first ? 12 : 13);
        first = 0;
        sb_str(b, m.severity == RMG_SEVERITY_ERROR ? "error" : "warning");
        sb_put(b, ",\"code\":", 8);
        sb_str(b, m.code);
        sb_put(b, ",\"text\":", 8);
        sb_str(b, m.text);
        sb_put(b, ",\"file\":", 8);
        sb_str(b, m.file);
        sb_printf(b, ",\"line\":%d,\"column\":%d,\"template\":%ld,\"zone\":%d,\"connection\":%d}", m.line, m.column,
                  m.template_index, m.zone, m.connection);
    }
    sb_put(b, "]", 1);
}

/* ---- the pack: diagnostics, templates, zones and connections ---------------------------------- */

static void put_pack(sbuf *b, const rmg_pack *pack)
{
    rmg_pack_info pi;
    rmg_pack_info_init(&pi);
    rmg_pack_get(pack, &pi);
    sb_put(b, "{\"name\":", 8);
    sb_str(b, pi.name);
    sb_printf(b, ",\"format\":%d,\"allowed_towns\":%u,\"warnings\":[", (int)pi.format, pi.allowed_towns);
    for (size_t i = 0; i < rmg_pack_warning_count(pack); i++) {
        if (i)
            sb_put(b, ",", 1);
        sb_str(b, rmg_pack_warning(pack, i));
    }
    sb_put(b, "],\"templates\":[", 15);
    for (size_t t = 0; t < rmg_pack_template_count(pack); t++) {
        rmg_template_info ti;
        rmg_template_info_init(&ti);
        if (rmg_template_get(pack, t, &ti) != RMG_OK)
            continue;
        sb_put(b, t ? ",{\"name\":" : "{\"name\":", t ? 9 : 8);
        sb_str(b, ti.name);
        sb_printf(b,
                  ",\"min_size\":%d,\"max_size\":%d,\"min_humans\":%d,\"max_humans\":%d,\"min_players\":%d,"
                  "\"max_players\":%d,\"water_allowed\":%u,\"line\":%d,\"zones\":[",
                  ti.min_size, ti.max_size, ti.min_humans, ti.max_humans, ti.min_players, ti.max_players,
                  ti.water_allowed, ti.line);
        for (size_t z = 0; z < rmg_template_zone_count(pack, t); z++) {
            rmg_zone_info zi;
            rmg_zone_info_init(&zi);
            if (rmg_zone_get(pack, t, z, &zi) != RMG_OK)
                continue;
            sb_printf(b,
                      "%s{\"id\":%d,\"kind\":%d,\"owner\":%d,\"size\":%g,\"placement\":%d,\"terrains\":%u,"
                      "\"terrain_match_town\":%d,\"towns\":[%d,%d,%d,%d],\"monsters\":%d,\"line\":%d,"
                      "\"column\":%d,\"treasure\":[%lld,%lld,%lld]}",
                      z ? "," : "", zi.id, (int)zi.kind, zi.owner, zi.size, (int)zi.placement, zi.allowed_terrains,
                      zi.terrain_match_town, zi.player_towns, zi.player_castles, zi.neutral_towns, zi.neutral_castles,
                      (int)zi.monster_strength, zi.line, zi.column, (long long)zi.treasure_max[0],
                      (long long)zi.treasure_max[1], (long long)zi.treasure_max[2]);
        }
        sb_put(b, "],\"connections\":[", 17);
        for (size_t c = 0; c < rmg_template_connection_count(pack, t); c++) {
            rmg_connection_info ci;
            rmg_connection_info_init(&ci);
            if (rmg_connection_get(pack, t, c, &ci) != RMG_OK)
                continue;
            sb_printf(b,
                      "%s{\"a\":%d,\"b\":%d,\"type\":%d,\"value\":%lld,\"placement\":%d,\"roads\":%d,\"line\":%d,"
                      "\"column\":%d}",
                      c ? "," : "", ci.zone_a, ci.zone_b, (int)ci.type, (long long)ci.value, (int)ci.placement,
                      (int)ci.roads, ci.line, ci.column);
        }
        sb_put(b, "]}", 2);
    }
    sb_put(b, "]}", 2);
}

/* `rmg check`'s findings for a pack text (data NULL: the built-in pack), game 0 HotA / 1 SoD:
 * {"ok": no errors, "load_error": the error that stopped reading or null, "messages": [...],
 * "pack": templates with their zones and connections, or null}. */
EMSCRIPTEN_KEEPALIVE char *rmgw_check(const char *data, size_t len, const char *name, int game)
{
    rmg_context *ctx = new_context(1, game, 0);
    if (!ctx)
        return NULL;
    sbuf b = {0};
    rmg_pack *pack = NULL;
    rmg_status st = load_pack(ctx, data, len, name, &pack);
    if (st != RMG_OK) {
        sb_put(&b, "{\"ok\":false,\"load_error\":", 25);
        put_error(&b, ctx);
        sb_put(&b, "},\"messages\":[],\"pack\":null}", 28);
    } else {
        rmg_validation *v = NULL;
        st = rmg_pack_validate(pack, &v);
        sb_printf(&b, "{\"ok\":%s,\"load_error\":", st == RMG_OK && rmg_validation_error_count(v) == 0 ? "true" : "false");
        if (st != RMG_OK) {
            put_error(&b, ctx);
            sb_put(&b, "}", 1);
        } else {
            sb_put(&b, "null", 4);
        }
        sb_put(&b, ",\"messages\":", 12);
        put_messages(&b, v, 0);
        sb_put(&b, ",\"pack\":", 8);
        put_pack(&b, pack);
        sb_put(&b, "}", 1);
        rmg_validation_destroy(v);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return sb_done(&b);
}

/* ---- generation ----------------------------------------------------------------------------- */

/*
 * Generates a map as `rmg generate` does with the same options: data NULL for the built-in pack;
 * template_name "" for a random one that fits; width/height/levels/players/humans 0 for the
 * template's choice; water 0..2 or 3 (the template's); monsters 0..2; game 0 HotA, 1 SoD; seed
 * in decimal; best_of > 1 for the fairest of that many (one at a time); towns: 8 faction ids,
 * -1 random. Returns 0 on success (the map is kept for the calls below), else the status, with
 * rmgw_error() telling why.
 */
EMSCRIPTEN_KEEPALIVE int rmgw_generate(const char *data, size_t len, const char *name, const char *template_name,
                                       int width, int height, int levels, int players, int humans, int water,
                                       int monsters, int game, const char *seed, int best_of, const int *towns)
{
    drop_map();
    free(g_error);
    g_error = NULL;
    unsigned long long s = strtoull(seed ? seed : "1", NULL, 10);
    g_ctx = new_context(s, game, 1);
    if (!g_ctx)
        return RMG_ERR_NOMEM;
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = width;
    o.height = height;
    o.levels = levels;
    o.players = players;
    o.humans = humans;
    o.water = (rmg_water_level)water;
    o.monsters = (rmg_map_monsters)monsters;
    o.template_name = template_name && *template_name ? template_name : NULL;
    for (int p = 0; towns && p < 8; p++)
        if (towns[p] >= 0) {
            o.towns_chosen |= 1u << p;
            o.towns[p] = towns[p];
        }
    rmg_pack *pack = NULL;
    rmg_status st = load_pack(g_ctx, data, len, name, &pack);
    if (st == RMG_OK) {
        if (best_of > 1) {
            rmg_best_of_options bo;
            rmg_best_of_options_init(&bo);
            bo.candidates = best_of;
            bo.threads = 1;
            st = rmg_generate_best_of(g_ctx, pack, &o, &bo, &g_map, NULL);
        } else {
            st = rmg_generate(g_ctx, pack, &o, &g_map);
        }
    }
    if (st != RMG_OK) {
        sbuf b = {0};
        put_error(&b, g_ctx);
        /* A template refused for the errors `rmg check` finds: all of them, as the command prints. */
        sb_put(&b, ",\"errors\":", 10);
        rmg_validation *v = NULL;
        if (st == RMG_ERR_INVALID_DATA && pack && rmg_pack_validate(pack, &v) == RMG_OK)
            put_messages(&b, v, 1);
        else
            sb_put(&b, "[]", 2);
        rmg_validation_destroy(v);
        sb_put(&b, "}", 1);
        g_error = sb_done(&b);
        rmg_pack_destroy(pack);
        drop_map();
        return (int)st;
    }
    rmg_pack_destroy(pack);
    return 0;
}

EMSCRIPTEN_KEEPALIVE const char *rmgw_error(void)
{
    return g_error ? g_error : "{\"status\":\"RMG_ERR_INTERNAL\",\"message\":\"no map\"}";
}

/* The kept map's summary: fingerprint (16 hex digits, as the JSON and `rmg generate` print it),
 * names, size, options used, warnings, stage times, zones and connections. */
EMSCRIPTEN_KEEPALIVE char *rmgw_map_info(void)
{
    if (!g_map)
        return NULL;
    sbuf b = {0};
    rmg_generate_options used;
    rmg_generate_options_init(&used);
    rmg_map_options_get(g_map, &used);
    sb_printf(&b, "{\"fingerprint\":\"%016llx\",\"seed\":\"%llu\",\"pack\":",
              (unsigned long long)rmg_map_fingerprint(g_map), (unsigned long long)rmg_map_seed(g_map));
    sb_str(&b, rmg_map_pack_name(g_map));
    sb_put(&b, ",\"template\":", 12);
    sb_str(&b, rmg_map_template_name(g_map));
    sb_printf(&b, ",\"width\":%d,\"height\":%d,\"levels\":%d,\"players\":%d,\"humans\":%d,\"water\":%d,\"attempts\":%d",
              rmg_map_width(g_map), rmg_map_height(g_map), rmg_map_levels(g_map), used.players, used.humans,
              (int)used.water, rmg_map_attempts(g_map));
    sb_put(&b, ",\"stage_ms\":{", 13);
    static const char *const stages[RMG_STAGE_COUNT] = {"select", "solve",   "place", "connect",
                                                         "objects", "guard", "finish"};
    for (int s = 0; s < RMG_STAGE_COUNT; s++)
        sb_printf(&b, "%s\"%s\":%.3f", s ? "," : "", stages[s], rmg_map_stage_ms(g_map, (rmg_stage_id)s));
    sb_put(&b, "},\"warnings\":[", 14);
    for (size_t i = 0; i < rmg_map_warning_count(g_map); i++) {
        if (i)
            sb_put(&b, ",", 1);
        sb_str(&b, rmg_map_warning(g_map, i));
    }
    sb_put(&b, "],\"zones\":[", 11);
    for (size_t i = 0; i < rmg_map_zone_count(g_map); i++) {
        rmg_map_zone_info z = {.struct_size = sizeof z};
        if (rmg_map_zone_get(g_map, i, &z) != RMG_OK)
            continue;
        sb_printf(&b,
                  "%s{\"id\":%d,\"template_zone\":%d,\"kind\":%d,\"level\":%d,\"owner\":%d,\"terrain\":%d,"
                  "\"faction\":%d,\"monsters\":%d,\"tiles\":%zu,\"x\":%d,\"y\":%d}",
                  i ? "," : "", z.id, z.template_zone, (int)z.kind, z.level, z.owner, z.terrain, z.faction,
                  (int)z.monster_strength, z.tiles, z.center_x, z.center_y);
    }
    sb_put(&b, "],\"connections\":[", 17);
    for (size_t i = 0; i < rmg_map_connection_count(g_map); i++) {
        rmg_map_connection_info c = {.struct_size = sizeof c};
        if (rmg_map_connection_get(g_map, i, &c) != RMG_OK)
            continue;
        sb_printf(&b, "%s{\"a\":%d,\"b\":%d,\"kind\":%d,\"realized\":%d,\"value\":%lld,\"road\":%d,\"why\":",
                  i ? "," : "", c.zone_a, c.zone_b, (int)c.kind, (int)c.realized, (long long)c.value, c.road);
        sb_str(&b, c.why);
        sb_put(&b, "}", 1);
    }
    sb_put(&b, "]}", 2);
    return sb_done(&b);
}

/* The objects for drawing and hover: id, kind, key, anchor, zone, value, owner, colour, guard
 * and its strength, creature and count, the object it guards. */
EMSCRIPTEN_KEEPALIVE char *rmgw_map_objects(void)
{
    if (!g_map)
        return NULL;
    sbuf b = {0};
    sb_put(&b, "[", 1);
    for (size_t i = 0; i < rmg_map_object_count(g_map); i++) {
        rmg_map_object_info o = {.struct_size = sizeof o};
        if (rmg_map_object_get(g_map, i, &o) != RMG_OK)
            continue;
        sb_printf(&b, "%s{\"id\":%u,\"kind\":%d,\"x\":%d,\"y\":%d,\"z\":%d,\"zone\":%d,\"value\":%lld,\"owner\":%d,"
                      "\"faction\":%d,\"color\":%d,\"guard\":%u,\"group\":%u,\"count\":%d,\"strength\":%.1f,"
                      "\"guarded_value\":%lld,\"link\":%u,\"key\":",
                  i ? "," : "", o.id, (int)o.kind, o.x, o.y, o.z, o.zone, (long long)o.value, o.owner, o.faction,
                  o.color, o.guard, o.group, o.count, o.strength_total, (long long)o.guarded_value, o.link);
        sb_str(&b, o.key);
        sb_put(&b, ",\"creature\":", 12);
        sb_str(&b, o.creature);
        sb_put(&b, "}", 1);
    }
    sb_put(&b, "]", 1);
    return sb_done(&b);
}

/* A copy of a tile layer (rmg_map_layer); *len gets its size in bytes. */
EMSCRIPTEN_KEEPALIVE void *rmgw_map_layer(int layer, size_t *len)
{
    *len = 0;
    if (!g_map)
        return NULL;
    size_t n = rmg_map_layer_size(g_map, (rmg_map_layer)layer);
    void *buf = n ? malloc(n) : NULL;
    if (!buf || rmg_map_copy_layer(g_map, (rmg_map_layer)layer, buf, n) != RMG_OK) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Copies memory the library allocated through the context into malloc'd memory the caller frees. */
static void *take(void *lib, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p && n)
        memcpy(p, lib, n);
    rmg_free(g_ctx, lib);
    return p;
}

/* The map document (docs/map-json.md), as `rmg generate -o map.json` writes it. */
EMSCRIPTEN_KEEPALIVE char *rmgw_map_json(size_t *len)
{
    char *out = NULL;
    *len = 0;
    if (!g_map || rmg_map_to_json(g_map, &out, len) != RMG_OK)
        return NULL;
    char *s = malloc(*len + 1);
    if (s) {
        memcpy(s, out, *len);
        s[*len] = '\0';
    }
    rmg_free(g_ctx, out);
    return s;
}

/* The .h3m file for edition 0 auto (as `rmg generate -o map.h3m`), 1 SoD, 2 HotA. NULL with
 * rmgw_error() set when the edition cannot hold the map. */
EMSCRIPTEN_KEEPALIVE unsigned char *rmgw_map_h3m(int edition, size_t *len)
{
    *len = 0;
    if (!g_map)
        return NULL;
    rmg_h3m_options ho;
    rmg_h3m_options_init(&ho);
    ho.edition = (rmg_h3m_edition)edition;
    unsigned char *out = NULL;
    if (rmg_map_to_h3m(g_map, &ho, &out, len) != RMG_OK) {
        sbuf b = {0};
        put_error(&b, g_ctx);
        sb_put(&b, "}", 1);
        free(g_error);
        g_error = sb_done(&b);
        return NULL;
    }
    return take(out, *len);
}

/* The library's PNG preview (as `rmg generate -o map.png`), written to the in-memory file
 * system and read back. */
EMSCRIPTEN_KEEPALIVE unsigned char *rmgw_map_png(size_t *len)
{
    static const char path[] = "/tmp/rmg-web-preview.png";
    *len = 0;
    if (!g_map || rmg_map_save_png(g_map, path) != RMG_OK)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
            *len = (size_t)n;
    }
    fclose(f);
    remove(path);
    if (!*len) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The balance report of the kept map as its JSON (docs/balance.md), with each player's reach by
 * day appended as "reach": one string per player, a character per tile ('0' + min(day, 9); '0'
 * never reached). */
EMSCRIPTEN_KEEPALIVE char *rmgw_balance(int day_points)
{
    if (!g_map)
        return NULL;
    rmg_balance_options bo;
    rmg_balance_options_init(&bo);
    bo.day_points = day_points;
    rmg_balance *bal = NULL;
    if (rmg_map_balance(g_map, &bo, &bal) != RMG_OK)
        return NULL;
    char *json = NULL;
    size_t len = 0;
    sbuf b = {0};
    if (rmg_balance_to_json(bal, &json, &len) == RMG_OK) {
        sb_put(&b, "{\"report\":", 10);
        sb_put(&b, json, len);
        rmg_free(g_ctx, json);
        sb_put(&b, ",\"reach\":[", 10);
        size_t tiles = (size_t)rmg_map_width(g_map) * (size_t)rmg_map_height(g_map) * (size_t)rmg_map_levels(g_map);
        unsigned char *days = malloc(tiles + 1);
        for (size_t p = 0; days && p < rmg_balance_player_count(bal); p++) {
            if (rmg_balance_reach_days(bal, p, days, tiles) != RMG_OK)
                memset(days, 0, tiles);
            for (size_t t = 0; t < tiles; t++)
                days[t] = (unsigned char)('0' + (days[t] > 9 ? 9 : days[t]));
            days[tiles] = '\0';
            sb_put(&b, p ? ",\"" : "\"", p ? 2 : 1);
            sb_put(&b, (const char *)days, tiles);
            sb_put(&b, "\"", 1);
        }
        if (!days)
            b.failed = 1;
        free(days);
        sb_put(&b, "]}", 2);
    }
    rmg_balance_destroy(bal);
    return sb_done(&b);
}

/* The pack as native YAML (as 0) or HotA .h3t (as 1, the layout it was read from or 1.8). */
EMSCRIPTEN_KEEPALIVE char *rmgw_pack_convert(const char *data, size_t len, const char *name, int as, size_t *out_len)
{
    *out_len = 0;
    rmg_context *ctx = new_context(1, 0, 0);
    if (!ctx)
        return NULL;
    rmg_pack *pack = NULL;
    char *out = NULL, *copy = NULL;
    if (load_pack(ctx, data, len, name, &pack) == RMG_OK &&
        (as == 0 ? rmg_pack_to_yaml(pack, &out, out_len) : rmg_pack_to_h3t(pack, NULL, &out, out_len)) == RMG_OK) {
        copy = malloc(*out_len + 1);
        if (copy) {
            memcpy(copy, out, *out_len);
            copy[*out_len] = '\0';
        }
    }
    if (out)
        rmg_free(ctx, out);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return copy;
}

EMSCRIPTEN_KEEPALIVE const char *rmgw_version(void)
{
    return rmg_version_string();
}
