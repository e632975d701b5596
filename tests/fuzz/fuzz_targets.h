/*
 * The fuzz targets (issue 12), shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c) and by
 * the regression replay (tests/test_fuzz_regressions.c), so a crash input found by the fuzzer
 * is replayed through exactly the same code in every `make test`.
 *
 * Each target takes arbitrary bytes and must never crash, hang, leak or trip a sanitizer:
 * whatever it returns is fine.
 */
#ifndef RMG_FUZZ_TARGETS_H
#define RMG_FUZZ_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rmg/rmg.h"
#include "export/h3m/h3m_doc.h"
#include "map/map_internal.h" /* rmg__map_from_json: the map document reader of rmg balance */
#include "map/map_reach.h"      /* the movement model: the validator's flood */
#include "balance/balance_internal.h" /* the balance report's graph, on the same model */

#include <stdio.h>
#include <stdlib.h>

/* Inputs above this size are skipped: the loaders' limits are tested elsewhere and big
 * inputs only slow the fuzzer down. */
#define RMG_FUZZ_MAX_INPUT (256u * 1024u)

/* The generation options of the generate target: an input that begins with the 4 bytes "RMGo"
 * and two option bytes asks for water (byte % 3: none, normal, islands) and levels (1 + byte % 2),
 * the template following them; any other input is a template generated without water on one
 * level. The seeds of scripts/fuzz.sh (RMG_FUZZ_OPTIONS_SEEDS) carry the header, so water and the
 * underground are reachable, and mutations of the two bytes reach every combination. */
#define RMG_FUZZ_OPTIONS_MAGIC "RMGo"
#define RMG_FUZZ_OPTIONS_HEADER 6u
static inline void rmg_fuzz_options(const uint8_t **data, size_t *size, rmg_generate_options *go)
{
    rmg_generate_options_init(go);
    go->width = go->height = 36;
    go->levels = 1;
    go->water = RMG_WATER_NONE;
    go->max_attempts = 3;
    go->time_budget_ms = 2000;
    if (*size >= RMG_FUZZ_OPTIONS_HEADER && memcmp(*data, RMG_FUZZ_OPTIONS_MAGIC, 4) == 0) {
        go->water = (rmg_water_level)((*data)[4] % 3);
        go->levels = 1 + (*data)[5] % 2;
        *data += RMG_FUZZ_OPTIONS_HEADER;
        *size -= RMG_FUZZ_OPTIONS_HEADER;
    }
}

/* Loads `data` as a template pack in `format`; with generate, also generates a small map from
 * it (three runs, so stage retries from checkpoints are fuzzed too; bounded time; the options
 * from rmg_fuzz_options) and serializes it. */
static inline int rmg_fuzz_load(const uint8_t *data, size_t size, rmg_template_format format, bool generate)
{
    if (size > RMG_FUZZ_MAX_INPUT)
        return 0;
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    if (generate)
        rmg_fuzz_options(&data, &size, &go);
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 0;
    rmg_context_set_seed(ctx, 1);
    rmg_pack *pack = NULL;
    if (rmg_pack_load_string(ctx, (const char *)data, size, "fuzz", format, &pack) == RMG_OK && generate &&
        rmg_pack_template_count(pack) > 0) {
        rmg_map *map = NULL;
        if (rmg_generate(ctx, pack, &go, &map) == RMG_OK) {
            char *json = NULL;
            size_t len = 0;
            size_t violations = 0;
            rmg_map_validate(map, NULL, &violations);
            if (rmg_map_to_json(map, &json, &len) == RMG_OK)
                rmg_free(ctx, json);
            unsigned char *h3m = NULL;
            if (rmg_map_to_h3m(map, NULL, &h3m, &len) == RMG_OK)
                rmg_free(ctx, h3m);
        }
        rmg_map_destroy(map);
    }
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return 0;
}

static inline int rmg_fuzz_yaml(const uint8_t *data, size_t size)
{
    return rmg_fuzz_load(data, size, RMG_FORMAT_YAML, false);
}

static inline int rmg_fuzz_h3t(const uint8_t *data, size_t size)
{
    /* Both h3t editions: HotA ("Pack" first cell) and SoD, chosen by content. */
    rmg_fuzz_load(data, size, RMG_FORMAT_H3T, false);
    return rmg_fuzz_load(data, size, RMG_FORMAT_SOD, false);
}

static inline int rmg_fuzz_vcmi(const uint8_t *data, size_t size)
{
    return rmg_fuzz_load(data, size, RMG_FORMAT_VCMI, false);
}

/* Reads the bytes as an .h3m file (gzip or uncompressed); when they read, writing the document
 * back must give exactly the uncompressed stream (the codec's round-trip promise). */
static inline int rmg_fuzz_h3m(const uint8_t *data, size_t size)
{
    if (size > RMG_FUZZ_MAX_INPUT)
        return 0;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 0;
    rmg__h3m_doc *doc = NULL;
    if (rmg__h3m_read(ctx, data, size, "fuzz", &doc) == RMG_OK) {
        uint8_t *stream = NULL, *written = NULL;
        size_t stream_len = 0, written_len = 0;
        if (rmg__h3m_decompress(ctx, data, size, &stream, &stream_len) != RMG_OK)
            __builtin_trap(); /* it decompressed a moment ago */
        rmg_status st = rmg__h3m_write(ctx, doc, &written, &written_len);
        if (st != RMG_OK && st != RMG_ERR_NOMEM)
            __builtin_trap(); /* a document that reads must write */
        if (st == RMG_OK && (written_len != stream_len || memcmp(written, stream, stream_len) != 0))
            __builtin_trap(); /* write(read(x)) differs from x */
        rmg__free(ctx, written);
        rmg__free(ctx, stream);
        rmg__h3m_doc_free(doc);
    }
    rmg_context_destroy(ctx);
    return 0;
}

static inline int rmg_fuzz_generate(const uint8_t *data, size_t size)
{
    return rmg_fuzz_load(data, size, RMG_FORMAT_AUTO, true);
}

/* The report's distance to stand on tile t: arrived at (a teleport's entry), else walked onto. */
static inline uint32_t rmg_fuzz_stand_dist(const rmg__balance_graph *g, const uint32_t *dist, uint32_t t)
{
    return g->portal_of[t] ? dist[g->n_tiles + g->portal_of[t] - 1] : dist[t];
}

/* Whether the validator's flood and the balance report agree on where the heroes go (issue 28:
 * one movement model), from each player's main town: every tile the flood stands on and every
 * object it visits (an entry stepped on or arrived at) the report reaches too; on a map with no
 * Border Guard and no shipyard (the report opens every lock and finds every shipyard's boat
 * waiting, the flood must visit the tent or the shipyard first) the report reaches nothing more.
 * NULL when they agree, else what differs (in a static buffer). */
static inline const char *rmg_fuzz_movement_disagrees(const struct rmg_map *m, rmg_context *ctx)
{
    static char why[160];
    rmg__balance_graph g;
    rmg__balance_search s;
    if (rmg__balance_graph_build(&g, m, ctx) != RMG_OK) {
        rmg__balance_graph_free(&g, ctx);
        return NULL; /* out of memory, or a map the report does not read: nothing to compare */
    }
    const char *res = NULL;
    if (rmg__balance_search_init(&s, &g, ctx, 1500) != RMG_OK) {
        rmg__balance_graph_free(&g, ctx);
        return NULL;
    }
    rmg__reach *r = &g.reach;
    bool keys_or_yards = false;
    for (uint32_t o = 0; o < r->n_objects; o++)
        keys_or_yards |= r->beh[o] == RMG__BEH_LOCK || r->beh[o] == RMG__BEH_SHIPYARD;
    for (int player = 1; player <= 8 && !res; player++) {
        uint32_t start = rmg__reach_start(m, player);
        if (start == UINT32_MAX)
            continue;
        rmg__reach_from(r, start, 0, UINT32_MAX);
        if (rmg__balance_search_run(&s, &g, start, RMG__BAL_BY_STEPS, NULL, 0, 0) != RMG_OK)
            break;
        for (uint32_t t = 0; t < g.n_tiles && !res; t++) {
            bool flood = (r->tile[t] & (RMG__REACH_FOOT | RMG__REACH_BOAT)) != 0;
            bool report = rmg_fuzz_stand_dist(&g, s.dist, t) != RMG__BALANCE_FAR;
            if (flood != report && (flood || !keys_or_yards))
                res = flood ? "the flood stands on a tile the report does not reach"
                            : "the report reaches a tile the flood does not";
            else
                continue;
            snprintf(why, sizeof why, "%s: player %d, tile %u", res, player, t);
            res = why;
        }
        for (uint32_t o = 0; o < r->n_objects && !res; o++) {
            if (!r->object[o] || r->beh[o] == RMG__BEH_NONE)
                continue;
            bool report = false, portal = false;
            for (uint32_t k = 0; k < r->n_entries[o]; k++) {
                uint32_t e = r->entries[r->first_entry[o] + k];
                report |= s.dist[e] != RMG__BALANCE_FAR || rmg_fuzz_stand_dist(&g, s.dist, e) != RMG__BALANCE_FAR;
                portal |= (g.kind[e] & RMG__BAL_PORTAL) != 0;
            }
            /* A teleport that leads nowhere is visited by the flood, never entered by the report. */
            if (!report && (portal || rmg__reach_stands(r, o, false) != RMG__STEP_VISIT)) {
                snprintf(why, sizeof why, "the flood visits object %u, the report does not: player %d", o + 1, player);
                res = why;
            }
        }
    }
    rmg__balance_search_free(&s);
    rmg__balance_graph_free(&g, ctx);
    return res;
}

/* Reads the bytes as a map document (rmg balance MAP.json); a map that reads gets a balance
 * report and a validation, the two users of a map read back. */
static inline int rmg_fuzz_map_json(const uint8_t *data, size_t size)
{
    if (size > RMG_FUZZ_MAX_INPUT)
        return 0;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 0;
    struct rmg_map *map = NULL;
    if (rmg__map_from_json(ctx, (const char *)data, size, "fuzz.json", &map) == RMG_OK) {
        rmg_balance *b = NULL;
        if (rmg_map_balance(map, NULL, &b) == RMG_OK)
            rmg_balance_destroy(b);
        size_t violations = 0;
        rmg_map_validate(map, NULL, &violations);
        const char *why = rmg_fuzz_movement_disagrees(map, ctx);
        if (why) { /* the one movement model answers differently to validation and the report */
            fprintf(stderr, "movement model: %s\n", why);
            abort();
        }
        rmg__map_free(map);
    }
    rmg_context_destroy(ctx);
    return 0;
}

/* Reads the bytes as a content ruleset (rmg info --load / --merge): loaded in place of the
 * built-in one, and merged into an empty one (merging into a built-in ruleset would parse the
 * whole of it for every input). */
static inline int rmg_fuzz_content(const uint8_t *data, size_t size)
{
    if (size > RMG_FUZZ_MAX_INPUT)
        return 0;
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 0;
    rmg_content_load_string(ctx, (const char *)data, size, "fuzz.yaml", RMG_CONTENT_HOTA);
    rmg_context_set_content_variant(ctx, RMG_CONTENT_EMPTY);
    rmg_content_merge_string(ctx, (const char *)data, size, "fuzz.yaml");
    rmg_context_destroy(ctx);
    return 0;
}

#endif
