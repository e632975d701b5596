/* Error messages with location, logging, growable strings, file reading. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core_internal.h"

static void copy_str(char *dst, size_t cap, const char *src)
{
    if (!src) {
        dst[0] = '\0';
        return;
    }
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Formats "prefix" + message into the error; the prefix carries the location. */
static rmg_status set_error(rmg_context *ctx, rmg_status status, const char *prefix, const char *fmt, va_list ap)
    RMG__PRINTF(4, 0);
static rmg_status set_error(rmg_context *ctx, rmg_status status, const char *prefix, const char *fmt, va_list ap)
{
    if (!ctx)
        return status;
    rmg__error *e = &ctx->err;
    e->status = status;
    int n = snprintf(e->message, sizeof e->message, "%s", prefix ? prefix : "");
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof e->message)
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
    rmg__log(ctx, RMG_LOG_ERROR, "%s", e->message);
    return status;
}

static void reset_location(rmg__error *e)
{
    e->file[0] = '\0';
    e->stage[0] = '\0';
    e->line = e->column = 0;
    e->zone = e->connection = -1;
}

rmg_status rmg__error_set(rmg_context *ctx, rmg_status status, const char *fmt, ...)
{
    if (!ctx)
        return status;
    reset_location(&ctx->err);
    va_list ap;
    va_start(ap, fmt);
    set_error(ctx, status, NULL, fmt, ap);
    va_end(ap);
    return status;
}

rmg_status rmg__error_at(rmg_context *ctx, rmg_status status, const char *file, int line, int column,
                         const char *fmt, ...)
{
    if (!ctx)
        return status;
    rmg__error *e = &ctx->err;
    reset_location(e);
    copy_str(e->file, sizeof e->file, file);
    e->line = line;
    e->column = column;
    char prefix[300];
    if (line > 0 && column > 0)
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", file ? file : "<input>", line, column);
    else if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", file ? file : "<input>", line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", file ? file : "<input>");
    va_list ap;
    va_start(ap, fmt);
    set_error(ctx, status, prefix, fmt, ap);
    va_end(ap);
    return status;
}

rmg_status rmg__error_gen(rmg_context *ctx, rmg_status status, const char *stage, int zone, int connection,
                          const char *fmt, ...)
{
    if (!ctx)
        return status;
    rmg__error *e = &ctx->err;
    reset_location(e);
    copy_str(e->stage, sizeof e->stage, stage);
    e->zone = zone;
    e->connection = connection;
    char prefix[128];
    int n = snprintf(prefix, sizeof prefix, "%s", stage ? stage : "");
    if (zone >= 0)
        n += snprintf(prefix + n, sizeof prefix - (size_t)n, "%szone %d", n ? ": " : "", zone);
    if (connection >= 0 && (size_t)n < sizeof prefix)
        n += snprintf(prefix + n, sizeof prefix - (size_t)n, "%sconnection %d", n ? ": " : "", connection);
    if (n > 0 && (size_t)n < sizeof prefix - 2)
        snprintf(prefix + n, sizeof prefix - (size_t)n, ": ");
    va_list ap;
    va_start(ap, fmt);
    set_error(ctx, status, prefix, fmt, ap);
    va_end(ap);
    return status;
}

rmg_status rmg__error_nomem(rmg_context *ctx)
{
    return rmg__error_set(ctx, RMG_ERR_NOMEM, "out of memory");
}

void rmg__log(rmg_context *ctx, rmg_log_level level, const char *fmt, ...)
{
    /* After rmg_context_destroy the host's log (and its user pointer) may be gone. */
    if (!ctx || !ctx->log || level > ctx->log_level || atomic_load_explicit(&ctx->host_gone, memory_order_relaxed))
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctx->log(ctx->log_user, level, msg);
}

const char *rmg_context_errmsg(const rmg_context *ctx)
{
    return ctx ? ctx->err.message : "invalid context";
}

rmg_status rmg_context_errcode(const rmg_context *ctx)
{
    return ctx ? ctx->err.status : RMG_ERR_INVALID_ARG;
}

rmg_status rmg_context_error_get(const rmg_context *ctx, rmg_error_info *info)
{
    if (!ctx || !info || info->struct_size < offsetof(rmg_error_info, stage) + sizeof(const char *))
        return RMG_ERR_INVALID_ARG;
    const rmg__error *e = &ctx->err;
    info->status = e->status;
    info->message = e->message;
    info->file = e->file[0] ? e->file : NULL;
    info->line = e->line;
    info->column = e->column;
    info->zone = e->zone;
    info->connection = e->connection;
    info->stage = e->stage[0] ? e->stage : NULL;
    return RMG_OK;
}

void rmg_context_clear_error(rmg_context *ctx)
{
    if (!ctx)
        return;
    reset_location(&ctx->err);
    ctx->err.status = RMG_OK;
    ctx->err.message[0] = '\0';
}

/* ---- growable strings ------------------------------------------------------------------ */

void rmg__buf_init(rmg__buf *b, rmg_context *ctx)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
}

static bool buf_reserve(rmg__buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap;
    if (!rmg__vec_grow(b->ctx, (void **)&b->data, &cap, b->len + extra + 1, 1)) {
        b->failed = true;
        return false;
    }
    b->cap = cap;
    return true;
}

void rmg__buf_append(rmg__buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void rmg__buf_puts(rmg__buf *b, const char *s)
{
    rmg__buf_append(b, s, strlen(s));
}

void rmg__buf_putc(rmg__buf *b, char c)
{
    rmg__buf_append(b, &c, 1);
}

void rmg__buf_printf(rmg__buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        rmg__buf_append(b, small, (size_t)n);
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *rmg__buf_take(rmg__buf *b)
{
    if (b->failed) {
        rmg__buf_free(b);
        return NULL;
    }
    if (!b->data) {
        if (!buf_reserve(b, 0))
            return NULL;
        b->data[0] = '\0'; /* nothing was appended: hand out "" rather than uninitialized bytes */
    }
    char *d = b->data;
    b->data = NULL;
    b->len = b->cap = 0;
    return d;
}

rmg_status rmg__buf_finish(rmg__buf *b, char **out, size_t *len)
{
    size_t n = b->len;
    char *s = rmg__buf_take(b);
    if (!s)
        return rmg__error_nomem(b->ctx);
    *out = s;
    if (len)
        *len = n;
    return RMG_OK;
}

void rmg__buf_free(rmg__buf *b)
{
    rmg__free(b->ctx, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- files ----------------------------------------------------------------------------- */

rmg_status rmg__read_file(rmg_context *ctx, const char *path, size_t max_size, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    rmg__buf b;
    rmg__buf_init(&b, ctx);
    char chunk[16384];
    size_t n;
    rmg_status st = RMG_OK;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n > max_size) {
            st = rmg__error_at(ctx, RMG_ERR_LIMIT, path, 0, 0, "file is larger than %zu bytes", max_size);
            break;
        }
        rmg__buf_append(&b, chunk, n);
        if (b.failed) {
            st = rmg__error_nomem(ctx);
            break;
        }
    }
    if (st == RMG_OK && ferror(f))
        st = rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "read error");
    fclose(f);
    if (st != RMG_OK) {
        rmg__buf_free(&b);
        return st;
    }
    return rmg__buf_finish(&b, data, len);
}

rmg_status rmg__write_file(rmg_context *ctx, const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "cannot create the file");
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    return ok ? RMG_OK : rmg__error_at(ctx, RMG_ERR_IO, path, 0, 0, "write error");
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_error_info_init(rmg_error_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->zone = -1;
    info->connection = -1;
}

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_context_error(const rmg_context *ctx, rmg_error_info *info)
{
    return rmg_context_error_get(ctx, info);
}
