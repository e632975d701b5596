/*
 * The gzip wrapper of .h3m files (spec §1), with zlib allocating through the context.
 * Compression writes the editor's 10-byte header itself (no name, mtime 0, XFL 0, OS 11) so
 * that the same stream always gives the same file; decompression takes any single gzip member.
 */
#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "h3m_doc.h"

/* Deflate cannot expand less than this: a bound on what a given input can inflate to. */
#define DEFLATE_MAX_RATIO 1032u
#define GZIP_HEADER_BYTES 10u
#define GZIP_TRAILER_BYTES 8u
#define COMPRESSION_LEVEL 1 /* zlib's fastest: a G map in ~10 ms, its file within ~25 % of level 9's (which takes 70 times longer) */

static const uint8_t editor_header[GZIP_HEADER_BYTES] = {0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0B};

static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
    size_t n = 0;
    if (!rmg__mul_ok(items, size, &n))
        return Z_NULL;
    return rmg__malloc(opaque, n);
}

static void zlib_free(voidpf opaque, voidpf ptr)
{
    rmg__free(opaque, ptr);
}

static void init_stream(z_stream *zs, rmg_context *ctx)
{
    memset(zs, 0, sizeof *zs);
    zs->zalloc = zlib_alloc;
    zs->zfree = zlib_free;
    zs->opaque = ctx;
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

rmg_status rmg__h3m_compress(rmg_context *ctx, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
    if (!ctx || (!in && len) || !out || !out_len)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    *out_len = 0;
    if (len > RMG__H3M_MAX_STREAM)
        return rmg__error_set(ctx, RMG_ERR_LIMIT, "h3m: a map stream of %zu bytes is above the limit of %zu", len,
                              RMG__H3M_MAX_STREAM);
    z_stream zs;
    init_stream(&zs, ctx);
    int r = deflateInit2(&zs, COMPRESSION_LEVEL, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    if (r != Z_OK)
        return r == Z_MEM_ERROR ? rmg__error_nomem(ctx)
                                : rmg__error_set(ctx, RMG_ERR_INTERNAL, "h3m: deflateInit2 failed (%d)", r);
    size_t cap = GZIP_HEADER_BYTES + deflateBound(&zs, (uLong)len) + GZIP_TRAILER_BYTES;
    uint8_t *buf = rmg__malloc(ctx, cap);
    if (!buf) {
        deflateEnd(&zs);
        return rmg__error_nomem(ctx);
    }
    memcpy(buf, editor_header, GZIP_HEADER_BYTES);
    static const uint8_t empty = 0;
    zs.next_in = (Bytef *)(uintptr_t)(len ? in : &empty); /* zlib's next_in is not const */
    zs.avail_in = (uInt)len;
    zs.next_out = buf + GZIP_HEADER_BYTES;
    zs.avail_out = (uInt)(cap - GZIP_HEADER_BYTES - GZIP_TRAILER_BYTES);
    r = deflate(&zs, Z_FINISH);
    size_t body = zs.total_out;
    deflateEnd(&zs);
    if (r != Z_STREAM_END) {
        rmg__free(ctx, buf);
        return rmg__error_set(ctx, RMG_ERR_INTERNAL, "h3m: deflate did not finish (%d)", r);
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, len ? in : &empty, (uInt)len);
    uint8_t *trailer = buf + GZIP_HEADER_BYTES + body;
    put_u32le(trailer, (uint32_t)crc);
    put_u32le(trailer + 4, (uint32_t)len);
    *out = buf;
    *out_len = GZIP_HEADER_BYTES + body + GZIP_TRAILER_BYTES;
    return RMG_OK;
}

/* A first guess at the stream's size: the member's ISIZE field, within what deflate can give. */
static size_t initial_capacity(const uint8_t *in, size_t len)
{
    size_t guess = len >= GZIP_TRAILER_BYTES ? get_u32le(in + len - 4) : 0;
    size_t most = len <= RMG__H3M_MAX_STREAM / DEFLATE_MAX_RATIO ? len * DEFLATE_MAX_RATIO : RMG__H3M_MAX_STREAM;
    guess = RMG__MIN(guess, most);
    guess = RMG__MIN(guess, RMG__H3M_MAX_STREAM);
    /* One more byte than the stream so that inflate sees the end without a second buffer. */
    return RMG__MAX(guess, (size_t)4096) + 1;
}

typedef struct inflate_state {
    rmg_context *ctx;
    const char *name;
    z_stream zs;
    uint8_t *buf;
    size_t cap;
} inflate_state;

/* Gives inflate more room; RMG_ERR_LIMIT past the stream limit. */
static rmg_status grow_output(inflate_state *s)
{
    size_t used = s->zs.total_out;
    if (s->cap > RMG__H3M_MAX_STREAM)
        return rmg__error_at(s->ctx, RMG_ERR_LIMIT, s->name, 0, 0,
                             "byte %lu: the map stream is larger than the limit of %zu bytes", s->zs.total_in,
                             RMG__H3M_MAX_STREAM);
    size_t cap = RMG__MIN(s->cap * 2, RMG__H3M_MAX_STREAM + 1);
    uint8_t *grown = rmg__realloc(s->ctx, s->buf, cap);
    if (!grown)
        return rmg__error_nomem(s->ctx);
    s->buf = grown;
    s->cap = cap;
    s->zs.next_out = grown + used;
    s->zs.avail_out = (uInt)RMG__MIN(cap - used, (size_t)UINT_MAX);
    return RMG_OK;
}

static rmg_status inflate_error(inflate_state *s, int r)
{
    if (r == Z_MEM_ERROR)
        return rmg__error_nomem(s->ctx);
    if (r == Z_BUF_ERROR || r == Z_OK)
        return rmg__error_at(s->ctx, RMG_ERR_PARSE, s->name, 0, 0,
                             "byte %lu: expected more gzip data, the file ends inside the member", s->zs.total_in);
    return rmg__error_at(s->ctx, RMG_ERR_PARSE, s->name, 0, 0, "byte %lu: expected valid gzip data (%s)",
                         s->zs.total_in, s->zs.msg ? s->zs.msg : "zlib error");
}

static rmg_status run_inflate(inflate_state *s, size_t len)
{
    for (;;) {
        if (s->zs.avail_out == 0) {
            rmg_status st = grow_output(s);
            if (st != RMG_OK)
                return st;
        }
        int r = inflate(&s->zs, Z_NO_FLUSH);
        if (r == Z_STREAM_END)
            break;
        bool needs_room = (r == Z_OK || r == Z_BUF_ERROR) && s->zs.avail_out == 0;
        if (!needs_room)
            return inflate_error(s, r);
    }
    if (s->zs.avail_in != 0)
        return rmg__error_at(s->ctx, RMG_ERR_PARSE, s->name, 0, 0,
                             "byte %lu: expected the end of the file after the gzip member, found %u more bytes",
                             s->zs.total_in, s->zs.avail_in);
    if (s->zs.total_out > RMG__H3M_MAX_STREAM)
        return rmg__error_at(s->ctx, RMG_ERR_LIMIT, s->name, 0, 0,
                             "byte %zu: the map stream is larger than the limit of %zu bytes", len,
                             RMG__H3M_MAX_STREAM);
    return RMG_OK;
}

static rmg_status gunzip(rmg_context *ctx, const uint8_t *in, size_t len, const char *name, uint8_t **out,
                         size_t *out_len)
{
    if (len > UINT_MAX)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, name, 0, 0, "byte 0: a gzip file of %zu bytes is too large", len);
    inflate_state s = {.ctx = ctx, .name = name};
    init_stream(&s.zs, ctx);
    s.cap = initial_capacity(in, len);
    s.buf = rmg__malloc(ctx, s.cap);
    if (!s.buf)
        return rmg__error_nomem(ctx);
    int r = inflateInit2(&s.zs, 16 + MAX_WBITS); /* gzip wrapper only */
    if (r != Z_OK) {
        rmg__free(ctx, s.buf);
        return r == Z_MEM_ERROR ? rmg__error_nomem(ctx)
                                : rmg__error_set(ctx, RMG_ERR_INTERNAL, "h3m: inflateInit2 failed (%d)", r);
    }
    s.zs.next_in = (Bytef *)(uintptr_t)in; /* zlib's next_in is not const */
    s.zs.avail_in = (uInt)len;
    s.zs.next_out = s.buf;
    s.zs.avail_out = (uInt)s.cap;
    rmg_status st = run_inflate(&s, len);
    size_t total = s.zs.total_out;
    inflateEnd(&s.zs);
    if (st != RMG_OK) {
        rmg__free(ctx, s.buf);
        return st;
    }
    *out = s.buf;
    *out_len = total;
    return RMG_OK;
}

static bool known_format(uint32_t format)
{
    return format == RMG__H3M_ROE || format == RMG__H3M_AB || format == RMG__H3M_SOD || format == RMG__H3M_HOTA ||
           format == RMG__H3M_WOG;
}

rmg_status rmg__h3m_decompress_named(rmg_context *ctx, const uint8_t *in, size_t len, const char *name,
                                     uint8_t **out, size_t *out_len)
{
    if (!ctx || (!in && len) || !out || !out_len)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    *out_len = 0;
    name = name ? name : "<h3m>";
    if (len >= 2 && in[0] == 0x1F && in[1] == 0x8B)
        return gunzip(ctx, in, len, name, out, out_len);
    if (len < 4 || !known_format(get_u32le(in)))
        return rmg__error_at(ctx, RMG_ERR_PARSE, name, 0, 0,
                             "byte 0: expected a gzip member (1F 8B) or a map stream starting with a format "
                             "number (0x0E, 0x15, 0x1C, 0x20 or 0x33)");
    if (len > RMG__H3M_MAX_STREAM)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, name, 0, 0, "byte 0: a map stream of %zu bytes is above the limit",
                             len);
    uint8_t *copy = rmg__malloc(ctx, len);
    if (!copy)
        return rmg__error_nomem(ctx);
    memcpy(copy, in, len);
    *out = copy;
    *out_len = len;
    return RMG_OK;
}

rmg_status rmg__h3m_decompress(rmg_context *ctx, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
    return rmg__h3m_decompress_named(ctx, in, len, NULL, out, out_len);
}
