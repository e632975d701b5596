/* .h3m codec (lib/export/h3m, spec ../shared/spec/h3m-format.md): the real maps of ../shared/h3m
 * read and written back byte for byte, gzip, malformed and truncated input, golden bytes of small
 * hand-built documents, every object body written and read back, allocation failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"
#include "../tests/fuzz/h3m_shrink.h"

/* ---- helpers ----------------------------------------------------------------------------------- */

typedef struct sample {
    const char *file;
    uint32_t format, sub, size;
    bool two_levels;
} sample;

static sample samples[] = { /* not const: cmocka passes them as void * */
    {"random-SoD.h3m", RMG__H3M_SOD, 0, 144, true},
    {"underground-rebellion.h3m", RMG__H3M_SOD, 0, 144, true},
    {"value-test-v8.h3m", RMG__H3M_HOTA, 8, 252, false},
    {"normal-map-v9.h3m", RMG__H3M_HOTA, 9, 252, true},
};

/* The bytes of a shared map, or NULL (after a message naming it) when it is missing. */
static uint8_t *load_sample(const char *file, size_t *len)
{
    char rel[128];
    snprintf(rel, sizeof rel, "h3m/%s", file);
    const char *path = rmg_test_shared(rel);
    uint8_t *data = (uint8_t *)rmg_test_read_file(path, len);
    if (!data)
        print_message("skipped: %s not found\n", path);
    return data;
}

#define LOAD_OR_SKIP(var, file, len)                                                                   \
    uint8_t *var = load_sample((file), (len));                                                         \
    if (!var)                                                                                          \
        skip()

static rmg__h3m_doc *read_ok(rmg_context *ctx, const uint8_t *data, size_t len, const char *name)
{
    rmg__h3m_doc *doc = NULL;
    if (rmg__h3m_read(ctx, data, len, name, &doc) != RMG_OK)
        fail_msg("%s: %s", name, rmg_context_errmsg(ctx));
    return doc;
}

static uint8_t *write_ok(rmg_context *ctx, const rmg__h3m_doc *doc, size_t *len)
{
    uint8_t *out = NULL;
    if (rmg__h3m_write(ctx, doc, &out, len) != RMG_OK)
        fail_msg("write: %s", rmg_context_errmsg(ctx));
    return out;
}

/* Writing doc must give exactly these bytes. */
static void assert_writes(rmg_context *ctx, const rmg__h3m_doc *doc, const uint8_t *bytes, size_t len)
{
    size_t out_len = 0;
    uint8_t *out = write_ok(ctx, doc, &out_len);
    assert_int_equal(out_len, len);
    assert_memory_equal(out, bytes, len);
    rmg__free(ctx, out);
}

/* Reads an uncompressed stream that must read, and must write back to the same bytes. */
static rmg__h3m_doc *parse_rewrites(rmg_context *ctx, const uint8_t *raw, size_t len, const char *name)
{
    rmg__h3m_doc *doc = NULL;
    if (rmg__h3m_parse(ctx, raw, len, name, &doc) != RMG_OK)
        fail_msg("%s: %s", name, rmg_context_errmsg(ctx));
    assert_writes(ctx, doc, raw, len);
    return doc;
}

static uint8_t *decompress_ok(rmg_context *ctx, const uint8_t *data, size_t len, size_t *out_len)
{
    uint8_t *out = NULL;
    if (rmg__h3m_decompress(ctx, data, len, &out, out_len) != RMG_OK)
        fail_msg("decompress: %s", rmg_context_errmsg(ctx));
    return out;
}

/* The message of a failed read must be "NAME: byte N: ..." with N <= limit. */
static void assert_names_offset(rmg_context *ctx, const char *name, size_t limit)
{
    const char *msg = rmg_context_errmsg(ctx);
    char prefix[160];
    snprintf(prefix, sizeof prefix, "%s: byte ", name);
    if (strncmp(msg, prefix, strlen(prefix)) != 0)
        fail_msg("message without '%s': %s", prefix, msg);
    unsigned long offset = strtoul(msg + strlen(prefix), NULL, 10);
    if (offset > limit)
        fail_msg("offset %lu past %zu: %s", offset, limit, msg);
}

static void expect_error(rmg_context *ctx, const uint8_t *data, size_t len, rmg_status want, const char *needle)
{
    rmg__h3m_doc *doc = NULL;
    rmg_status st = rmg__h3m_parse(ctx, data, len, "t.h3m", &doc);
    if (st != want)
        fail_msg("status %s, wanted %s: %s", rmg_status_name(st), rmg_status_name(want), rmg_context_errmsg(ctx));
    assert_null(doc);
    if (needle && !strstr(rmg_context_errmsg(ctx), needle))
        fail_msg("'%s' not in: %s", needle, rmg_context_errmsg(ctx));
}

/* Compares bytes at *at with a hex string ("1C 00 00 00") and moves *at past them. */
static void expect_hex(const uint8_t *buf, size_t len, size_t *at, const char *hex)
{
    const char *p = hex;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        unsigned v = (unsigned)strtoul((char[3]){p[0], p[1], 0}, NULL, 16);
        if (*at >= len)
            fail_msg("output ends at %zu, expected %s", *at, p);
        if (buf[*at] != v)
            fail_msg("byte %zu is %02X, expected %02X (at '%s')", *at, buf[*at], v, p);
        (*at)++;
        p += 2;
    }
}

static void expect_repeated(const uint8_t *buf, size_t len, size_t *at, const char *hex, size_t times)
{
    for (size_t i = 0; i < times; i++)
        expect_hex(buf, len, at, hex);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* ---- the shared maps ----------------------------------------------------------------------------- */

static void test_sample_reads(void **state)
{
    const sample *s = *state;
    size_t len = 0;
    LOAD_OR_SKIP(data, s->file, &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = read_ok(ctx, data, len, s->file);
    assert_int_equal(doc->format, s->format);
    assert_int_equal(doc->hota_sub, s->sub);
    assert_int_equal(doc->basic.size, s->size);
    assert_int_equal(doc->basic.two_levels, s->two_levels);
    assert_non_null(doc->tiles);
    assert_true(doc->template_count > 0);
    assert_true(doc->object_count > 0);
    for (uint32_t i = 0; i < doc->object_count; i++)
        assert_true(doc->objects[i].template_index < doc->template_count);
    /* Every one of the four ends with the editor's 124 zeros. */
    assert_int_equal(doc->tail_len, RMG__H3M_TAIL_BYTES);
    assert_true(all_zero(doc->tail, doc->tail_len));
    if (s->format == RMG__H3M_HOTA) {
        assert_int_equal(doc->hota.terrain_types, 12);
        assert_int_equal(doc->hota.town_types, s->sub >= 9 ? 12 : 11);
        assert_int_equal(doc->heroes.count, s->sub >= 9 ? 215 : 198);
        assert_int_equal(doc->hero_setting_count, doc->heroes.count);
        assert_int_equal(doc->bans.artifact_count, 166);
        assert_int_equal(doc->options.combo_count, 16);
        assert_int_equal(doc->hota.game_version[0], 1);
        assert_int_equal(doc->hota.game_version[1], s->sub >= 9 ? 8 : 7);
    } else {
        assert_int_equal(doc->hero_setting_count, RMG__H3M_SOD_HEROES);
    }
    printf("%s: %u x %u x %d, %u templates, %u objects, %u events\n", s->file, doc->basic.size, doc->basic.size,
           doc->basic.two_levels ? 2 : 1, doc->template_count, doc->object_count, doc->event_count);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
    free(data);
}

static void test_random_sod_facts(void **state)
{
    (void)state;
    size_t len = 0;
    LOAD_OR_SKIP(data, "random-SoD.h3m", &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = read_ok(ctx, data, len, "random-SoD.h3m");
    assert_int_equal(doc->basic.name.len, 10);
    assert_memory_equal(doc->basic.name.data, "Random Map", 10);
    /* The SoD generator's used player (spec §4): human and computer, main town, generated hero. */
    for (int p = 0; p < RMG__H3M_PLAYERS; p++) {
        assert_int_equal(doc->players[p].can_human, 1);
        assert_int_equal(doc->players[p].has_main_town, 1);
        assert_int_equal(doc->players[p].generate_hero, 1);
        assert_int_equal(doc->players[p].main_hero, 0xFF);
    }
    assert_int_equal(doc->victory.type, RMG__H3M_CONDITION_STANDARD);
    assert_int_equal(doc->loss.type, RMG__H3M_CONDITION_STANDARD);
    /* The first two templates of every game-made map: random monster and a hole. */
    assert_int_equal(doc->templates[0].class_id, 71);
    assert_int_equal(doc->templates[1].class_id, 124);
    /* Bits 127-140 banned (the default the spec reports). */
    assert_int_equal(doc->bans.artifacts[15], 0x80);
    assert_int_equal(doc->bans.artifacts[16], 0xFF);
    assert_int_equal(doc->bans.artifacts[17], 0x1F);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
    free(data);
}

static void test_sample_round_trip(void **state)
{
    const sample *s = *state;
    size_t len = 0;
    LOAD_OR_SKIP(data, s->file, &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t raw_len = 0;
    uint8_t *raw = decompress_ok(ctx, data, len, &raw_len);
    rmg__h3m_doc *doc = read_ok(ctx, data, len, s->file);
    assert_writes(ctx, doc, raw, raw_len);
    /* The uncompressed stream reads too. */
    rmg__h3m_doc_free(parse_rewrites(ctx, raw, raw_len, s->file));
    printf("%s: %zu bytes gzip, %zu bytes stream, written back identical\n", s->file, len, raw_len);
    rmg__free(ctx, raw);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
    free(data);
}

static void test_sample_gzip(void **state)
{
    const sample *s = *state;
    size_t len = 0;
    LOAD_OR_SKIP(data, s->file, &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t raw_len = 0, z1_len = 0, z2_len = 0, back_len = 0;
    uint8_t *raw = decompress_ok(ctx, data, len, &raw_len);
    uint8_t *z1 = NULL, *z2 = NULL;
    assert_int_equal(rmg__h3m_compress(ctx, raw, raw_len, &z1, &z1_len), RMG_OK);
    assert_int_equal(rmg__h3m_compress(ctx, raw, raw_len, &z2, &z2_len), RMG_OK);
    /* Deterministic, with the editor's header. */
    assert_int_equal(z1_len, z2_len);
    assert_memory_equal(z1, z2, z1_len);
    static const uint8_t header[] = {0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0B};
    assert_memory_equal(z1, header, sizeof header);
    uint8_t *back = decompress_ok(ctx, z1, z1_len, &back_len);
    assert_int_equal(back_len, raw_len);
    assert_memory_equal(back, raw, raw_len);
    /* Any gzip reader agrees (zlib's own, with its header parsing). */
    uLongf plain_len = (uLongf)raw_len;
    uint8_t *plain = malloc(raw_len);
    z_stream zs = {0};
    assert_int_equal(inflateInit2(&zs, 16 + MAX_WBITS), Z_OK);
    zs.next_in = z1;
    zs.avail_in = (uInt)z1_len;
    zs.next_out = plain;
    zs.avail_out = (uInt)plain_len;
    assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
    assert_int_equal(zs.total_out, raw_len);
    assert_memory_equal(plain, raw, raw_len);
    inflateEnd(&zs);
    printf("%s: compressed %zu -> %zu bytes (the file has %zu)\n", s->file, raw_len, z1_len, len);
    free(plain);
    rmg__free(ctx, back);
    rmg__free(ctx, z2);
    rmg__free(ctx, z1);
    rmg__free(ctx, raw);
    rmg_context_destroy(ctx);
    free(data);
}

/* ---- gzip wrapper -------------------------------------------------------------------------------- */

static void test_gzip_trailing_data_refused(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const uint8_t stream[] = {0x1C, 0, 0, 0, 1, 2, 3, 4, 5};
    uint8_t *z = NULL, *out = NULL;
    size_t z_len = 0, out_len = 0;
    assert_int_equal(rmg__h3m_compress(ctx, stream, sizeof stream, &z, &z_len), RMG_OK);
    assert_int_equal(rmg__h3m_decompress(ctx, z, z_len, &out, &out_len), RMG_OK);
    assert_int_equal(out_len, sizeof stream);
    rmg__free(ctx, out);
    uint8_t *longer = malloc(2 * z_len);
    memcpy(longer, z, z_len);
    longer[z_len] = 0;
    assert_int_equal(rmg__h3m_decompress_named(ctx, longer, z_len + 1, "x.h3m", &out, &out_len), RMG_ERR_PARSE);
    assert_null(out);
    assert_names_offset(ctx, "x.h3m", z_len);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "after the gzip member"));
    /* A second member is trailing data too. */
    memcpy(longer + z_len, z, z_len);
    assert_int_equal(rmg__h3m_decompress_named(ctx, longer, 2 * z_len, "x.h3m", &out, &out_len), RMG_ERR_PARSE);
    rmg__h3m_doc *doc = NULL;
    assert_int_equal(rmg__h3m_read(ctx, longer, 2 * z_len, "x.h3m", &doc), RMG_ERR_PARSE);
    free(longer);
    rmg__free(ctx, z);
    rmg_context_destroy(ctx);
}

static void test_gzip_corrupt_and_truncated(void **state)
{
    (void)state;
    size_t len = 0;
    LOAD_OR_SKIP(data, "value-test-v8.h3m", &len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    uint8_t *out = NULL;
    size_t out_len = 0;
    for (size_t cut = 0; cut < len; cut += cut < 64 ? 1 : 977) {
        rmg_status st = rmg__h3m_decompress_named(ctx, data, cut, "v8.h3m", &out, &out_len);
        assert_int_equal(st, RMG_ERR_PARSE);
        assert_names_offset(ctx, "v8.h3m", cut);
    }
    /* A changed byte in the deflate data or the trailer: a data error or a wrong CRC. */
    for (size_t at = 100; at < len; at += len / 16) {
        data[at] ^= 0x5A;
        assert_int_equal(rmg__h3m_decompress_named(ctx, data, len, "v8.h3m", &out, &out_len), RMG_ERR_PARSE);
        assert_names_offset(ctx, "v8.h3m", len);
        data[at] ^= 0x5A;
    }
    data[len - 1] ^= 1; /* ISIZE */
    assert_int_equal(rmg__h3m_decompress_named(ctx, data, len, "v8.h3m", &out, &out_len), RMG_ERR_PARSE);
    rmg_context_destroy(ctx);
    free(data);
}

static void test_gzip_raw_stream_and_garbage(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const uint8_t hota[] = {0x20, 0, 0, 0, 9, 0, 0, 0};
    uint8_t *out = NULL;
    size_t out_len = 0;
    assert_int_equal(rmg__h3m_decompress(ctx, hota, sizeof hota, &out, &out_len), RMG_OK);
    assert_int_equal(out_len, sizeof hota);
    assert_memory_equal(out, hota, sizeof hota);
    rmg__free(ctx, out);
    static const uint8_t text[] = "hello, world";
    assert_int_equal(rmg__h3m_decompress_named(ctx, text, sizeof text, "t", &out, &out_len), RMG_ERR_PARSE);
    assert_names_offset(ctx, "t", 0);
    assert_int_equal(rmg__h3m_decompress_named(ctx, text, 0, "t", &out, &out_len), RMG_ERR_PARSE);
    rmg_context_destroy(ctx);
}

/* 65 MiB of zeros in a 65 KB gzip file: refused at the limit, without using more. */
static void test_gzip_bomb_limited(void **state)
{
    (void)state;
    size_t chunk = 1 << 20, total = RMG__H3M_MAX_STREAM + chunk;
    uint8_t *zeros = calloc(1, chunk);
    size_t cap = 256 * 1024;
    uint8_t *gz = malloc(cap);
    z_stream zs = {0};
    assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_out = gz;
    zs.avail_out = (uInt)cap;
    for (size_t done = 0; done < total; done += chunk) {
        zs.next_in = zeros;
        zs.avail_in = (uInt)chunk;
        assert_int_equal(deflate(&zs, done + chunk < total ? Z_NO_FLUSH : Z_FINISH),
                         done + chunk < total ? Z_OK : Z_STREAM_END);
    }
    size_t gz_len = zs.total_out;
    deflateEnd(&zs);
    rmg_test_alloc ta = {0};
    rmg_context *ctx = rmg_test_context(&ta, 1);
    uint8_t *out = NULL;
    size_t out_len = 0;
    assert_int_equal(rmg__h3m_decompress_named(ctx, gz, gz_len, "bomb.h3m", &out, &out_len), RMG_ERR_LIMIT);
    assert_names_offset(ctx, "bomb.h3m", gz_len);
    assert_true(ta.peak_bytes < RMG__H3M_MAX_STREAM + (4u << 20));
    rmg_context_destroy(ctx);
    free(gz);
    free(zeros);
}

/* ---- malformed streams --------------------------------------------------------------------------- */

/* A small real stream: random-SoD cut to 36 x 36 with one object of each kind (tests/fuzz/h3m_shrink.h). */
static uint8_t *small_stream(rmg_context *ctx, const char *file, size_t *len)
{
    size_t file_len = 0;
    uint8_t *data = load_sample(file, &file_len);
    if (!data)
        return NULL;
    rmg__h3m_doc *doc = read_ok(ctx, data, file_len, file);
    assert_int_equal(rmg_h3m_shrink(doc, 36, 64), RMG_OK);
    uint8_t *out = write_ok(ctx, doc, len);
    rmg__h3m_doc_free(doc);
    free(data);
    return out;
}

static void check_every_prefix(rmg_context *ctx, const uint8_t *raw, size_t len, size_t tail, size_t stride)
{
    for (size_t cut = 0; cut < len; cut += cut + tail >= len ? 1 : stride) {
        rmg__h3m_doc *doc = NULL;
        rmg_status st = rmg__h3m_parse(ctx, raw, cut, "cut.h3m", &doc);
        if (cut + tail < len) {
            if (st != RMG_ERR_PARSE)
                fail_msg("prefix %zu of %zu: %s", cut, len, rmg_status_name(st));
            assert_names_offset(ctx, "cut.h3m", cut);
        } else {
            /* Inside the tail, which is kept whatever its length. */
            assert_int_equal(st, RMG_OK);
            assert_int_equal(doc->tail_len, cut + tail - len);
            rmg__h3m_doc_free(doc);
        }
    }
}

static void test_truncated_streams(void **state)
{
    (void)state;
    size_t file_len = 0, len = 0;
    LOAD_OR_SKIP(file, "random-SoD.h3m", &file_len);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    uint8_t *raw = small_stream(ctx, "random-SoD.h3m", &len);
    check_every_prefix(ctx, raw, len, RMG__H3M_TAIL_BYTES, 1);
    rmg__free(ctx, raw);
    raw = small_stream(ctx, "normal-map-v9.h3m", &len);
    if (raw)
        check_every_prefix(ctx, raw, len, RMG__H3M_TAIL_BYTES, 1);
    rmg__free(ctx, raw);
    /* The whole random map, with a stride. */
    raw = decompress_ok(ctx, file, file_len, &len);
    check_every_prefix(ctx, raw, len, RMG__H3M_TAIL_BYTES, 3001);
    rmg__free(ctx, raw);
    free(file);
    rmg_context_destroy(ctx);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* A written empty map of this format (defaults), for patching. */
static uint8_t *empty_map(rmg_context *ctx, uint32_t format, uint32_t sub, size_t *len)
{
    rmg__h3m_doc *doc = NULL;
    assert_int_equal(rmg__h3m_doc_new(ctx, &doc), RMG_OK);
    assert_int_equal(rmg__h3m_doc_defaults(doc, format, sub, 36, 1), RMG_OK);
    uint8_t *out = write_ok(ctx, doc, len);
    rmg__h3m_doc_free(doc);
    return out;
}

static void test_unsupported_formats(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t len = 0;
    uint8_t *raw = empty_map(ctx, RMG__H3M_SOD, 0, &len);
    put_u32(raw, RMG__H3M_ROE);
    expect_error(ctx, raw, len, RMG_ERR_UNSUPPORTED, "t.h3m: byte 0: format 0x0E (RoE) is not supported");
    put_u32(raw, RMG__H3M_AB);
    expect_error(ctx, raw, len, RMG_ERR_UNSUPPORTED, "(AB)");
    put_u32(raw, RMG__H3M_WOG);
    expect_error(ctx, raw, len, RMG_ERR_UNSUPPORTED, "(WoG)");
    put_u32(raw, 0x1234);
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "byte 0: expected a map format");
    /* Through the gzip entry point the same. */
    put_u32(raw, RMG__H3M_AB);
    rmg__h3m_doc *doc = NULL;
    assert_int_equal(rmg__h3m_read(ctx, raw, len, "ab.h3m", &doc), RMG_ERR_UNSUPPORTED);
    rmg__free(ctx, raw);

    raw = empty_map(ctx, RMG__H3M_HOTA, 9, &len);
    put_u32(raw + 4, 10);
    expect_error(ctx, raw, len, RMG_ERR_UNSUPPORTED, "byte 4: HotA sub-version 10 is not supported");
    put_u32(raw + 4, 9);
    /* Header 37, basic info 16, players 8 x 15, conditions and teams 3, heroes 36, options 53. */
    size_t script_flag = 37 + 16 + 120 + 3 + 36 + 53;
    assert_int_equal(raw[script_flag], 0);
    raw[script_flag] = 1;
    expect_error(ctx, raw, len, RMG_ERR_UNSUPPORTED, "byte 265: the map uses the HotA 1.8 script system");
    rmg__free(ctx, raw);
    rmg_context_destroy(ctx);
}

static void test_corrupted_values(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t len = 0;
    uint8_t *raw = empty_map(ctx, RMG__H3M_SOD, 0, &len);
    /* format 4, has players 1, size 4, two levels 1, name length at 10 */
    raw[9] = 7;
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "byte 9: expected a bool (0 or 1), found 7 (in header)");
    raw[9] = 0;
    put_u32(raw + 5, 0);
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "byte 5: expected a map size of 1 to 1024, found 0");
    put_u32(raw + 5, 36);
    put_u32(raw + 10, 0xFFFFFFF0u);
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "byte 10: expected a string of 4294967280 bytes");
    put_u32(raw + 10, 0);
    size_t victory = 4 + 16 + 8 * 15;
    raw[victory] = 13;
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "expected a victory condition (0 to 12 or 255), found 13");
    raw[victory] = 0xFF;
    raw[victory + 1] = 3;
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "expected a loss condition");
    raw[victory + 1] = 0xFF;
    /* Rumour count: after heroes (20 + 4 + 1), options 31, bans 18 + 9 + 4. */
    size_t rumours = victory + 3 + 25 + 31 + 31;
    put_u32(raw + rumours, 100000);
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "a count of 100000 needs at least 8 bytes per item");
    put_u32(raw + rumours, 0);
    /* Object count after the tiles and an empty template table: one object, template 5 of 0. */
    size_t objects = len - RMG__H3M_TAIL_BYTES - 4 - 4;
    put_u32(raw + objects, 1);
    expect_error(ctx, raw, len, RMG_ERR_PARSE, "expected a template index below 0");
    rmg__free(ctx, raw);
    rmg_context_destroy(ctx);
}

/* A little LCG: the corruptions are the same on every run. */
static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_random_corruptions(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const char *files[] = {"random-SoD.h3m", "underground-rebellion.h3m", "value-test-v8.h3m", "normal-map-v9.h3m"};
    uint32_t seed = 12345;
    size_t read_back = 0, refused = 0;
    for (size_t f = 0; f < RMG__ARRAY_LEN(files); f++) {
        size_t len = 0;
        uint8_t *raw = small_stream(ctx, files[f], &len);
        if (!raw)
            continue;
        uint8_t *copy = malloc(len);
        for (int run = 0; run < 400; run++) {
            memcpy(copy, raw, len);
            int changes = 1 + (int)(next_random(&seed) % 4);
            for (int c = 0; c < changes; c++)
                copy[next_random(&seed) % len] = (uint8_t)next_random(&seed);
            rmg__h3m_doc *doc = NULL;
            rmg_status st = rmg__h3m_parse(ctx, copy, len, "x.h3m", &doc);
            if (st == RMG_OK) {
                assert_writes(ctx, doc, copy, len);
                rmg__h3m_doc_free(doc);
                read_back++;
            } else {
                assert_true(st == RMG_ERR_PARSE || st == RMG_ERR_UNSUPPORTED);
                assert_names_offset(ctx, "x.h3m", len);
                refused++;
            }
        }
        free(copy);
        rmg__free(ctx, raw);
    }
    printf("corruptions: %zu read and written back identical, %zu refused\n", read_back, refused);
    rmg_context_destroy(ctx);
}

/* ---- golden bytes ------------------------------------------------------------------------------------ */

static rmg__h3m_doc *tiny_doc(rmg_context *ctx, uint32_t format, uint32_t sub)
{
    rmg__h3m_doc *doc = NULL;
    assert_int_equal(rmg__h3m_doc_new(ctx, &doc), RMG_OK);
    assert_int_equal(rmg__h3m_doc_defaults(doc, format, sub, 36, 1), RMG_OK);
    assert_int_equal(rmg__h3m_str_set(doc, &doc->basic.name, "Tiny"), RMG_OK);
    assert_int_equal(rmg__h3m_str_set(doc, &doc->basic.description, "A test"), RMG_OK);
    /* Tile (0,0): grass view 50, dirt road view 14 flipped, coast; tile (1,0): water view 21. */
    static const uint8_t t0[7] = {2, 50, 0, 0, 1, 14, 0x60}, t1[7] = {8, 21, 0, 0, 0, 0, 0};
    memcpy(doc->tiles, t0, 7);
    memcpy(doc->tiles + 7, t1, 7);
    return doc;
}

static void expect_basic_and_players(const uint8_t *out, size_t len, size_t *at)
{
    expect_hex(out, len, at, "01 24 00 00 00 00 04 00 00 00 54 69 6E 79 06 00 00 00 41 20 74 65 73 74 01 00");
    expect_repeated(out, len, at, "00 00 00 00 00 00 00 00 00 FF 00 00 00 00 00", 8);
    expect_hex(out, len, at, "FF FF 00"); /* standard victory and loss, no teams */
}

static void expect_tiles_to_end(const uint8_t *out, size_t len, size_t *at)
{
    expect_hex(out, len, at, "02 32 00 00 01 0E 60  08 15 00 00 00 00 00");
    expect_repeated(out, len, at, "00 00 00 00 00 00 00", 36 * 36 - 2);
    expect_hex(out, len, at, "00 00 00 00  00 00 00 00  00 00 00 00"); /* templates, objects, events */
    expect_repeated(out, len, at, "00", RMG__H3M_TAIL_BYTES);
    assert_int_equal(*at, len);
}

static void test_golden_sod(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = tiny_doc(ctx, RMG__H3M_SOD, 0);
    size_t len = 0, at = 0;
    uint8_t *out = write_ok(ctx, doc, &len);
    expect_hex(out, len, &at, "1C 00 00 00");
    expect_basic_and_players(out, len, &at);
    /* Heroes: every one allowed but the campaign heroes 144-155; no placeholders, no custom. */
    expect_repeated(out, len, &at, "FF", 18);
    expect_hex(out, len, &at, "00 00  00 00 00 00  00");
    expect_repeated(out, len, &at, "00", 31);
    /* Banned artifacts 127-140, no spells, no skills, no rumours. */
    expect_repeated(out, len, &at, "00", 15);
    expect_hex(out, len, &at, "80 FF 1F");
    expect_repeated(out, len, &at, "00", 9 + 4 + 4);
    expect_repeated(out, len, &at, "00", RMG__H3M_SOD_HEROES);
    expect_tiles_to_end(out, len, &at);
    /* And it reads back to the same bytes. */
    rmg__h3m_doc_free(parse_rewrites(ctx, out, len, "tiny"));
    rmg__free(ctx, out);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
}

static void test_golden_hota8(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = tiny_doc(ctx, RMG__H3M_HOTA, 8);
    size_t len = 0, at = 0;
    uint8_t *out = write_ok(ctx, doc, &len);
    /* format, sub-version 8, editor 1.7.3, no mirror, no arena, 12 terrains, 11 towns, all
     * difficulties, defeated heroes hireable, not locked */
    expect_hex(out, len, &at, "20 00 00 00 08 00 00 00 01 00 00 00 07 00 00 00 03 00 00 00 00 00");
    expect_hex(out, len, &at, "0C 00 00 00 0B 00 00 00 1F 01 00");
    expect_basic_and_players(out, len, &at);
    /* 198 heroes; campaign ones (144-155, 172, 173, 195-197) not allowed. */
    expect_hex(out, len, &at, "C6 00 00 00");
    expect_repeated(out, len, &at, "FF", 18);
    expect_hex(out, len, &at, "00 F0 FF CF FF FF 07");
    expect_hex(out, len, &at, "00 00 00 00  00");
    expect_repeated(out, len, &at, "00", 31);
    /* no special weeks, 16 combination artifacts, no round limit, hiring allowed */
    expect_hex(out, len, &at, "00 00 00 00  10 00 00 00 00 00  FF FF FF FF  00 00 00 00 00 00 00 00");
    expect_hex(out, len, &at, "A6 00 00 00");
    expect_repeated(out, len, &at, "00", 15);
    expect_hex(out, len, &at, "80 FF 1F 00 00 00");
    expect_repeated(out, len, &at, "00", 9 + 4 + 4);
    expect_hex(out, len, &at, "C6 00 00 00");
    expect_repeated(out, len, &at, "00", 198);
    expect_repeated(out, len, &at, "01 00 01 00 00 00", 198);
    expect_tiles_to_end(out, len, &at);
    rmg__free(ctx, out);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
}

/* Every sub-version's empty map reads back and writes the same bytes. */
static void test_every_version_round_trip(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (int v = -1; v <= RMG__H3M_MAX_HOTA_SUB; v++) {
        size_t len = 0;
        uint8_t *out = empty_map(ctx, v < 0 ? RMG__H3M_SOD : RMG__H3M_HOTA, v < 0 ? 0 : (uint32_t)v, &len);
        rmg__h3m_doc_free(parse_rewrites(ctx, out, len, "v"));
        rmg__free(ctx, out);
    }
    rmg_context_destroy(ctx);
}

#include "test_h3m_bodies.h"

/* ---- the parts before and after the objects, filled ---------------------------------------------- */

static void fill_players(rmg__h3m_doc *doc)
{
    rmg__h3m_player *p = &doc->players[0];
    p->can_human = p->can_computer = 1;
    p->behaviour = 2;
    p->factions_customised = 1;
    p->factions[0] = 0x05, p->factions[1] = 0x02;
    p->has_main_town = 1;
    p->generate_hero = 1, p->main_town_faction = 0xFF;
    p->main_town.x = 10, p->main_town.y = 11, p->main_town.z = 0;
    p->main_hero = 40;
    p->main_hero_portrait = 0xFF;
    set_str(doc, &p->main_hero_name, "Main");
    p->placeholder_count = 1;
    p->hero_count = 2;
    p->heroes = array_of(doc, 2, sizeof *p->heroes);
    p->heroes[0].id = 40;
    set_str(doc, &p->heroes[0].name, "Main");
    p->heroes[1].id = 41;
    /* An unplayable player with the editor's junk in the bytes that do not matter. */
    rmg__h3m_player *q = &doc->players[1];
    q->behaviour = 3, q->factions[0] = 0xFF, q->random_faction = 1, q->placeholder_count = 0x55;
}

static void fill_hero_parts(rmg__h3m_doc *doc)
{
    rmg__h3m_hero_block *h = &doc->heroes;
    h->placeholder_count = 3;
    h->placeholders = array_of(doc, 3, 1);
    h->placeholders[0] = 1, h->placeholders[1] = 2, h->placeholders[2] = 200;
    h->custom_count = 2;
    h->custom = array_of(doc, 2, sizeof *h->custom);
    h->custom[0].id = 5, h->custom[0].portrait = 6, h->custom[0].players = 0x81;
    set_str(doc, &h->custom[0].name, "Custom");
    h->custom[1].id = 7, h->custom[1].portrait = 0xFF;
    rmg__h3m_hero_setting *s = &doc->hero_settings[5];
    s->customised = 1;
    fill_hero_data(doc, &s->data, 5);
    s->tail.always_add_skills = 0, s->tail.no_experience = 1, s->tail.level = 20;
}

static void fill_options_and_events(rmg__h3m_doc *doc)
{
    if (has_sub(doc, 9)) {
        doc->hota.script_var_count = 2;
        doc->hota.script_vars = array_of(doc, 2, sizeof *doc->hota.script_vars);
        set_str(doc, &doc->hota.script_vars[0].name, "gold");
        doc->hota.script_vars[0].initial = -5, doc->hota.script_vars[0].mode = 1;
    }
    doc->options.special_weeks = 1;
    if (has_sub(doc, 1))
        doc->options.banned_combos[1] = 0x80;
    doc->options.round_limit = 30;
    doc->options.hiring_banned[2] = 1;
    doc->bans.spells[8] = 0x20, doc->bans.skills[3] = 0x08;
    doc->rumour_count = 2;
    doc->rumours = array_of(doc, 2, sizeof *doc->rumours);
    set_str(doc, &doc->rumours[0].name, "R1");
    set_str(doc, &doc->rumours[0].text, "The grail is near the volcano");
    doc->event_count = 2;
    doc->events = array_of(doc, 2, sizeof *doc->events);
    for (int i = 0; i < 2; i++) {
        fill_event_common(doc, &doc->events[i].common, i);
        if (has_sub(doc, 5) && !has_sub(doc, 7)) {
            doc->events[i].old_value = 3;
            doc->events[i].old_bit_count = 44;
            doc->events[i].old_mask = array_of(doc, 6, 1);
            doc->events[i].old_mask[5] = 0x0F;
        }
    }
    /* What the SoD random map generator leaves there. */
    doc->tail_len = 8;
    doc->tail = array_of(doc, 8, 1);
    memcpy(doc->tail, "\x01\x02\x03\x04\x00\x00\xFF\x7E", 8);
}

static void fill_conditions(rmg__h3m_doc *doc, uint8_t victory, uint8_t loss)
{
    rmg__h3m_victory *v = &doc->victory;
    v->type = victory;
    if (victory != RMG__H3M_CONDITION_STANDARD) {
        v->allow_normal_win = 1, v->applies_to_computer = victory % 2;
        v->object = victory == RMG__H3M_VICTORY_TRANSPORT ? 0x88 : victory <= 1 ? 0x1234 : 0;
        v->resource = victory == RMG__H3M_VICTORY_RESOURCES ? 6 : 0;
        v->amount = victory == 1 || victory == 2 || victory == 12 ? 100000u + victory : 0;
        if ((victory >= 3 && victory <= 7) || victory == 10)
            v->pos.x = 1, v->pos.y = 2, v->pos.z = 1;
        if (victory == RMG__H3M_VICTORY_UPGRADE_TOWN)
            v->hall = 2, v->castle = 1;
    }
    doc->loss.type = loss;
    if (loss <= RMG__H3M_LOSS_HERO)
        doc->loss.pos.x = 9, doc->loss.pos.y = 8, doc->loss.pos.z = 0;
    if (loss == RMG__H3M_LOSS_TIME)
        doc->loss.days = 120;
    doc->teams.count = 2;
    for (int i = 0; i < RMG__H3M_PLAYERS; i++)
        doc->teams.team[i] = (uint8_t)(i % 2);
}

static void same_parts(const rmg__h3m_doc *a, const rmg__h3m_doc *b)
{
    assert_memory_equal(&a->victory, &b->victory, sizeof a->victory);
    assert_memory_equal(&a->loss, &b->loss, sizeof a->loss);
    assert_memory_equal(&a->teams, &b->teams, sizeof a->teams);
    const rmg__h3m_player *p = &a->players[0], *q = &b->players[0];
    assert_int_equal(p->main_town.y, q->main_town.y);
    assert_int_equal(p->hero_count, q->hero_count);
    same_str(&p->main_hero_name, &q->main_hero_name);
    same_str(&p->heroes[0].name, &q->heroes[0].name);
    assert_int_equal(a->players[1].placeholder_count, b->players[1].placeholder_count);
    assert_memory_equal(a->heroes.placeholders, b->heroes.placeholders, 3);
    same_str(&a->heroes.custom[0].name, &b->heroes.custom[0].name);
    same_hero_data(&a->hero_settings[5].data, &b->hero_settings[5].data);
    assert_int_equal(b->hero_settings[5].customised, 1);
    same_str(&a->rumours[0].text, &b->rumours[0].text);
    for (int i = 0; i < 2; i++) {
        same_event_common(&a->events[i].common, &b->events[i].common);
        assert_int_equal(a->events[i].old_bit_count, b->events[i].old_bit_count);
    }
    assert_int_equal(b->tail_len, 8);
    assert_memory_equal(a->tail, b->tail, 8);
    assert_int_equal(a->hota.script_var_count, b->hota.script_var_count);
}

/* Every victory and loss condition, and everything else before and after the objects, in every
 * format and sub-version. */
static void test_parts_every_version(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    static const uint8_t victories[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xFF};
    static const uint8_t losses[] = {0, 1, 2, 0xFF};
    for (int v = -1; v <= RMG__H3M_MAX_HOTA_SUB; v++) {
        for (size_t k = 0; k < RMG__ARRAY_LEN(victories); k++) {
            rmg__h3m_doc *doc = tiny_doc(ctx, v < 0 ? RMG__H3M_SOD : RMG__H3M_HOTA, v < 0 ? 0 : (uint32_t)v);
            fill_players(doc);
            fill_hero_parts(doc);
            fill_options_and_events(doc);
            fill_conditions(doc, victories[k], losses[k % RMG__ARRAY_LEN(losses)]);
            size_t len = 0;
            uint8_t *out = write_ok(ctx, doc, &len);
            rmg__h3m_doc *back = parse_rewrites(ctx, out, len, "parts");
            same_parts(doc, back);
            rmg__h3m_doc_free(back);
            rmg__free(ctx, out);
            rmg__h3m_doc_free(doc);
        }
    }
    rmg_context_destroy(ctx);
}

/* ---- the writer's checks ---------------------------------------------------------------------------- */

static void expect_write_error(rmg_context *ctx, const rmg__h3m_doc *doc, const char *needle)
{
    uint8_t *out = NULL;
    size_t len = 0;
    assert_int_equal(rmg__h3m_write(ctx, doc, &out, &len), RMG_ERR_INVALID_ARG);
    assert_null(out);
    if (!strstr(rmg_context_errmsg(ctx), needle))
        fail_msg("'%s' not in: %s", needle, rmg_context_errmsg(ctx));
}

static void test_writer_checks(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = tiny_doc(ctx, RMG__H3M_SOD, 0);
    uint32_t ti = 0;
    rmg__h3m_template *t = rmg__h3m_add_template(doc, &ti);
    t->class_id = 54;
    rmg__h3m_object *o = rmg__h3m_add_object(doc, ti);
    assert_int_equal(o->kind, RMG__H3M_BODY_MONSTER);
    o->kind = RMG__H3M_BODY_TOWN;
    expect_write_error(ctx, doc, "object 0: its template (class 54, subclass 0) needs a monster body, not a town");
    o->kind = RMG__H3M_BODY_MONSTER;
    o->template_index = 3;
    expect_write_error(ctx, doc, "expected a template index below 1, found 3");
    o->template_index = 0;
    assert_null(rmg__h3m_add_object(doc, 9));
    doc->rumour_count = 2;
    expect_write_error(ctx, doc, "rumours: a count of 2 without its array");
    doc->rumour_count = 0;
    doc->heroes.count = 198;
    expect_write_error(ctx, doc, "a SoD map has 156 heroes, not 198");
    doc->heroes.count = RMG__H3M_SOD_HEROES;
    doc->basic.name.data = NULL;
    expect_write_error(ctx, doc, "a string of 4 bytes without data");
    doc->basic.name.len = 0;
    doc->basic.two_levels = 2;
    expect_write_error(ctx, doc, "header: expected a bool (0 or 1), found 2");
    doc->basic.two_levels = 0;
    doc->victory.type = 20;
    expect_write_error(ctx, doc, "victory condition: expected a victory condition (0 to 12 or 255), found 20");
    doc->victory.type = RMG__H3M_CONDITION_STANDARD;
    doc->format = RMG__H3M_AB;
    expect_write_error(ctx, doc, "format 0x15 (AB) is not supported");
    doc->format = RMG__H3M_SOD;
    size_t len = 0;
    uint8_t *out = write_ok(ctx, doc, &len);
    rmg__free(ctx, out);
    rmg__h3m_doc_free(doc);
    doc = tiny_doc(ctx, RMG__H3M_HOTA, 9);
    doc->options.script_used = 1;
    expect_write_error(ctx, doc, "script system");
    rmg__h3m_doc_free(doc);
    rmg__h3m_doc *none = NULL;
    assert_int_equal(rmg__h3m_doc_new(ctx, &none), RMG_OK);
    assert_int_equal(rmg__h3m_doc_defaults(none, RMG__H3M_HOTA, 10, 36, 1), RMG_ERR_INVALID_ARG);
    rmg__h3m_doc_free(none);
    rmg_context_destroy(ctx);
}

/* ---- allocation failures ------------------------------------------------------------------------------ */

typedef struct file_bytes {
    const uint8_t *data;
    size_t len;
} file_bytes;

static rmg_status op_read(rmg_context *ctx, void *user)
{
    const file_bytes *f = user;
    rmg__h3m_doc *doc = NULL;
    rmg_status st = rmg__h3m_read(ctx, f->data, f->len, "oom.h3m", &doc);
    rmg__h3m_doc_free(doc);
    return st;
}

static rmg_status op_write_compress(rmg_context *ctx, void *user)
{
    const file_bytes *f = user;
    rmg__h3m_doc *doc = NULL;
    uint8_t *raw = NULL, *gz = NULL;
    size_t raw_len = 0, gz_len = 0;
    rmg_status st = rmg__h3m_parse(ctx, f->data, f->len, "oom.h3m", &doc);
    if (st == RMG_OK)
        st = rmg__h3m_write(ctx, doc, &raw, &raw_len);
    if (st == RMG_OK)
        st = rmg__h3m_compress(ctx, raw, raw_len, &gz, &gz_len);
    rmg__free(ctx, gz);
    rmg__free(ctx, raw);
    rmg__h3m_doc_free(doc);
    return st;
}

static rmg_status op_build(rmg_context *ctx, void *user)
{
    (void)user;
    rmg__h3m_doc *doc = NULL;
    rmg_status st = rmg__h3m_doc_new(ctx, &doc);
    if (st == RMG_OK)
        st = rmg__h3m_doc_defaults(doc, RMG__H3M_HOTA, 9, 72, 2);
    if (st == RMG_OK)
        st = rmg__h3m_str_set(doc, &doc->basic.name, "OOM");
    for (int i = 0; i < 40 && st == RMG_OK; i++) {
        uint32_t ti = 0;
        rmg__h3m_template *t = rmg__h3m_add_template(doc, &ti);
        if (!t || !rmg__h3m_add_object(doc, ti))
            st = RMG_ERR_NOMEM;
    }
    rmg__h3m_doc_free(doc);
    return st;
}

static void test_allocation_failures(void **state)
{
    (void)state;
    size_t len = 0;
    LOAD_OR_SKIP(data, "random-SoD.h3m", &len);
    file_bytes f = {data, len};
    size_t n = rmg_test_oom_sweep(op_read, &f, 0, 1);
    printf("reading random-SoD.h3m needs %zu allocations\n", n);
    assert_true(n > 3);
    rmg_context *ctx = rmg_test_context(NULL, 1);
    size_t raw_len = 0;
    uint8_t *raw = small_stream(ctx, "normal-map-v9.h3m", &raw_len);
    if (raw) {
        file_bytes r = {raw, raw_len};
        n = rmg_test_oom_sweep(op_write_compress, &r, 0, 1);
        printf("reading, writing and compressing a cut of normal-map-v9.h3m needs %zu allocations\n", n);
    }
    rmg__free(ctx, raw);
    rmg_context_destroy(ctx);
    rmg_test_oom_sweep(op_build, NULL, 0, 1);
    free(data);
}

/* The file's strings as UTF-8 (the JSON of a read map must be valid UTF-8): Cyrillic in
 * Windows-1251 (three letters in a row), other text in Windows-1252, UTF-8 kept. */
static void test_text_utf8(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__arena a;
    rmg__arena_init(&a, ctx, 256);
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"Ihromant vs \xCA\xEE\xEC\xEF\xFC\xFE\xF2\xE5\xF0", "Ihromant vs \xD0\x9A\xD0\xBE\xD0\xBC\xD0\xBF\xD1\x8C\xD1\x8E\xD1\x82\xD0\xB5\xD1\x80"},
        {"caf\xE9 it\x92s", "caf\xC3\xA9 it\xE2\x80\x99s"},
        {"\xD0\x9F\xD1\x80\xD0\xB8", "\xD0\x9F\xD1\x80\xD0\xB8"},
        {"plain {HW.1.38}\n", "plain {HW.1.38}\n"},
        {"\x81", "\xEF\xBF\xBD"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i].in);
        rmg__h3m_str str = {buf, (uint32_t)strlen(buf)};
        const char *got = rmg__h3m_text_utf8(&a, &str);
        assert_non_null(got);
        assert_string_equal(got, cases[i].out);
    }
    rmg__h3m_str empty = {NULL, 0};
    assert_string_equal(rmg__h3m_text_utf8(&a, &empty), "");
    rmg__arena_free(&a);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_gzip_trailing_data_refused),
        cmocka_unit_test(test_gzip_corrupt_and_truncated),
        cmocka_unit_test(test_gzip_raw_stream_and_garbage),
        cmocka_unit_test(test_gzip_bomb_limited),
        cmocka_unit_test(test_truncated_streams),
        cmocka_unit_test(test_unsupported_formats),
        cmocka_unit_test(test_corrupted_values),
        cmocka_unit_test(test_random_corruptions),
        cmocka_unit_test(test_golden_sod),
        cmocka_unit_test(test_golden_hota8),
        cmocka_unit_test(test_every_version_round_trip),
        cmocka_unit_test(test_bodies_every_version),
        cmocka_unit_test(test_parts_every_version),
        cmocka_unit_test(test_golden_bodies),
        cmocka_unit_test(test_writer_checks),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_text_utf8),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test_prestate(test_sample_reads, &samples[0]),
        cmocka_unit_test_prestate(test_sample_reads, &samples[1]),
        cmocka_unit_test_prestate(test_sample_reads, &samples[2]),
        cmocka_unit_test_prestate(test_sample_reads, &samples[3]),
        cmocka_unit_test(test_random_sod_facts),
        cmocka_unit_test_prestate(test_sample_round_trip, &samples[0]),
        cmocka_unit_test_prestate(test_sample_round_trip, &samples[1]),
        cmocka_unit_test_prestate(test_sample_round_trip, &samples[2]),
        cmocka_unit_test_prestate(test_sample_round_trip, &samples[3]),
        cmocka_unit_test_prestate(test_sample_gzip, &samples[0]),
        cmocka_unit_test_prestate(test_sample_gzip, &samples[1]),
        cmocka_unit_test_prestate(test_sample_gzip, &samples[2]),
        cmocka_unit_test_prestate(test_sample_gzip, &samples[3]),
    };
    return RMG_TEST_MAIN(plain, shared, "h3m");
}
