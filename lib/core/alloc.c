/* Allocation through the context's hook: size-prefixed blocks, growable arrays, arenas. */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

/* The prefix keeps the block size so rmg__free can hand the right osize to the host hook.
 * 16 bytes keep the payload aligned for any standard type. */
#define RMG__PREFIX 16

static void *call_alloc(rmg_context *ctx, void *ptr, size_t osize, size_t nsize)
{
    if (ctx && ctx->alloc)
        return ctx->alloc(ctx->alloc_user, ptr, osize, nsize);
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

bool rmg__mul_ok(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

void *rmg__malloc(rmg_context *ctx, size_t size)
{
    if (size > SIZE_MAX - RMG__PREFIX)
        return NULL;
    unsigned char *p = call_alloc(ctx, NULL, 0, size + RMG__PREFIX);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    return p + RMG__PREFIX;
}

void *rmg__calloc(rmg_context *ctx, size_t count, size_t size)
{
    size_t total;
    if (!rmg__mul_ok(count, size, &total))
        return NULL;
    void *p = rmg__malloc(ctx, total);
    if (p)
        memset(p, 0, total);
    return p;
}

void *rmg__realloc(rmg_context *ctx, void *ptr, size_t size)
{
    if (!ptr)
        return rmg__malloc(ctx, size);
    if (size > SIZE_MAX - RMG__PREFIX)
        return NULL;
    unsigned char *base = (unsigned char *)ptr - RMG__PREFIX;
    size_t old;
    memcpy(&old, base, sizeof old);
    unsigned char *p = call_alloc(ctx, base, old + RMG__PREFIX, size + RMG__PREFIX);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    return p + RMG__PREFIX;
}

void rmg__free(rmg_context *ctx, void *ptr)
{
    if (!ptr)
        return;
    unsigned char *base = (unsigned char *)ptr - RMG__PREFIX;
    size_t old;
    memcpy(&old, base, sizeof old);
    call_alloc(ctx, base, old + RMG__PREFIX, 0);
}

char *rmg__strndup(rmg_context *ctx, const char *s, size_t n)
{
    char *d = rmg__malloc(ctx, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *rmg__strdup(rmg_context *ctx, const char *s)
{
    return s ? rmg__strndup(ctx, s, strlen(s)) : NULL;
}

bool rmg__vec_grow(rmg_context *ctx, void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    size_t bytes;
    if (!rmg__mul_ok(ncap, elem, &bytes))
        return false;
    void *p = rmg__realloc(ctx, *items, bytes);
    if (!p)
        return false;
    *items = p;
    *cap = ncap;
    return true;
}

void *rmg_malloc(rmg_context *ctx, size_t size)
{
    return rmg__malloc(ctx, size);
}

void rmg_free(rmg_context *ctx, void *ptr)
{
    rmg__free(ctx, ptr);
}

/* ---- versioned structs ------------------------------------------------------------------ */

bool rmg__struct_init(void *info, size_t size)
{
    if (!info)
        return false;
    memset(info, 0, size);
    memcpy(info, &size, sizeof size); /* struct_size, the first field */
    return true;
}

rmg_status rmg__struct_out(void *dst, const void *full, size_t full_size, size_t min_size)
{
    size_t have;
    memcpy(&have, dst, sizeof have);
    if (have < min_size || have < sizeof have)
        return RMG_ERR_INVALID_ARG;
    size_t n = have < full_size ? have : full_size;
    memcpy((unsigned char *)dst + sizeof have, (const unsigned char *)full + sizeof have, n - sizeof have);
    return RMG_OK;
}

rmg_status rmg__struct_in(void *dst, size_t full_size, const void *src, size_t min_size)
{
    size_t have;
    memcpy(&have, src, sizeof have);
    if (have < min_size || have < sizeof have)
        return RMG_ERR_INVALID_ARG;
    for (size_t i = full_size; i < have; i++)
        if (((const unsigned char *)src)[i])
            return RMG_ERR_UNSUPPORTED;
    size_t n = have < full_size ? have : full_size;
    memcpy((unsigned char *)dst + sizeof have, (const unsigned char *)src + sizeof have, n - sizeof have);
    return RMG_OK;
}

/* ---- arenas ---------------------------------------------------------------------------- */

struct rmg__arena_block {
    rmg__arena_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

void rmg__arena_init(rmg__arena *arena, rmg_context *ctx, size_t block_size)
{
    arena->ctx = ctx;
    arena->head = NULL;
    arena->block_size = block_size ? block_size : 64 * 1024;
    arena->used_total = 0;
}

void *rmg__arena_alloc(rmg__arena *arena, size_t size)
{
    size_t rounded = (size + 15u) & ~(size_t)15u;
    if (rounded < size)
        return NULL;
    rmg__arena_block *b = arena->head;
    if (!b || b->size - b->used < rounded) {
        size_t bsize = rounded > arena->block_size ? rounded : arena->block_size;
        if (bsize > SIZE_MAX - sizeof(rmg__arena_block))
            return NULL;
        b = rmg__malloc(arena->ctx, sizeof(rmg__arena_block) + bsize);
        if (!b)
            return NULL;
        b->size = bsize;
        b->used = 0;
        /* A block bigger than the default goes behind the head so the head keeps its room. */
        if (arena->head && rounded > arena->block_size) {
            b->next = arena->head->next;
            arena->head->next = b;
        } else {
            b->next = arena->head;
            arena->head = b;
        }
    }
    void *p = b->data + b->used;
    b->used += rounded;
    arena->used_total += rounded;
    memset(p, 0, size);
    return p;
}

char *rmg__arena_strdup(rmg__arena *arena, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *d = rmg__arena_alloc(arena, n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

void rmg__arena_free(rmg__arena *arena)
{
    rmg__arena_block *b = arena->head;
    while (b) {
        rmg__arena_block *next = b->next;
        rmg__free(arena->ctx, b);
        b = next;
    }
    arena->head = NULL;
    arena->used_total = 0;
}
