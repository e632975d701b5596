/*
 * Internal core API shared by every module: allocation through the context, arenas,
 * error reporting with location, growable arrays, RNG streams, cancellation.
 * Names: rmg__* (hidden; never exported).
 */
#ifndef RMG_CORE_INTERNAL_H
#define RMG_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rmg/core.h"

#if defined(__GNUC__) || defined(__clang__)
#  define RMG__PRINTF(a, b) __attribute__((format(printf, a, b)))
#  define RMG__UNUSED __attribute__((unused))
#else
#  define RMG__PRINTF(a, b)
#  define RMG__UNUSED
#endif

/* Index of the lowest set bit of v, v != 0: walks the set bits of a mask without testing each. */
static inline int rmg__ctz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(v);
#else
    /* De Bruijn multiplication: the isolated lowest bit times the sequence puts a unique 6-bit
     * pattern in the top bits. */
    static const int index[64] = {0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,
                                  62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
                                  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
                                  46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return index[((v & (0 - v)) * 0x03f79d71b4cb0a89ull) >> 58];
#endif
}

/* Index of the highest set bit of v, v != 0. */
static inline int rmg__high_bit64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(v);
#else
    int n = 0;
    while (v >>= 1)
        n++;
    return n;
#endif
}

#define RMG__ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define RMG__MIN(a, b) ((a) < (b) ? (a) : (b))
#define RMG__MAX(a, b) ((a) > (b) ? (a) : (b))

/* Edit distance between a and b (rmg_name_suggest's, core/suggest.c); SIZE_MAX when either
 * is longer than 64 bytes. */
size_t rmg__edit_distance(const char *a, const char *b);

/* Error detail kept by the context (see rmg_error_info). */
typedef struct rmg__error {
    rmg_status status;
    char message[1024];
    char file[256];
    int line, column, zone, connection;
    char stage[32];
} rmg__error;

/* State another module attaches to a context. The core never looks inside: it keeps the pointer
 * under the owner's key (the address of something of the owner's) and calls the owner's release
 * when the context dies, most recent attachment first. State the objects made with the context
 * read (the ruleset) is `shared`: it lives until the last of them is destroyed. Other state
 * (host callbacks such as stage plugins) is released as soon as the host destroys its handle. */
typedef void (*rmg__release_fn)(rmg_context *ctx, void *state);
typedef struct rmg__attachment {
    const void *key;
    void *state;
    rmg__release_fn release;
    bool shared;
} rmg__attachment;
#define RMG__MAX_ATTACHMENTS 4

struct rmg_context {
    rmg_alloc_fn alloc;
    void *alloc_user;
    rmg_rng_fn rng;
    void *rng_user;
    uint64_t seed;
    rmg_log_fn log;
    void *log_user;
    rmg_log_level log_level;
    rmg_progress_fn progress;
    void *progress_user;
    atomic_int cancelled;
    /* Lifetime (core.h, "Lifetimes"): one reference for the host's handle and one for each
     * object made with the context that reads it afterwards (maps, packs, balance reports,
     * object lists, solve results, validations). The block, its allocator and its shared
     * attachments live until the last reference goes. host_gone: rmg_context_destroy ran; no
     * host callback other than the allocator is called afterwards. */
    atomic_int refs;
    atomic_bool host_gone;
    rmg__error err;
    /* What other modules attach (the game content, the stage plugin table). */
    rmg__attachment attached[RMG__MAX_ATTACHMENTS];
    int n_attached;
    /* Time budget of the running generation: rmg__now_ms() value after which
     * rmg__check_cancel stops it with RMG_ERR_LIMIT; 0 none. Set and read by the thread that
     * generates (a context is used by one thread at a time). */
    double deadline_ms;
};

/* The state attached under key, NULL when none. */
static inline void *rmg__context_state(const rmg_context *ctx, const void *key)
{
    for (int i = 0; i < ctx->n_attached; i++)
        if (ctx->attached[i].key == key)
            return ctx->attached[i].state;
    return NULL;
}
/* Attaches (or, for a key already attached, replaces without releasing) the state under key;
 * state NULL detaches it. release runs when the context dies: for shared state when its last
 * reference goes, for other state at rmg_context_destroy. RMG_ERR_LIMIT when every slot is
 * taken (a bug: the slots are sized for the library's modules). */
rmg_status rmg__context_attach(rmg_context *ctx, const void *key, void *state, rmg__release_fn release,
                               bool shared);

/* An object made with ctx that uses it after the host may have destroyed its handle takes a
 * reference when it is made and gives it back as the last thing it does when destroyed (after
 * its own blocks are freed through ctx). Atomic: objects may be destroyed on any thread. The
 * last release frees the context. retain returns ctx (NULL stays NULL). */
rmg_context *rmg__context_retain(rmg_context *ctx);
void rmg__context_release(rmg_context *ctx);

/* ---- allocation (every byte the library owns goes through these) ------------------------ */

/* Size-prefixed blocks: rmg__free needs no size. All return NULL on failure (no error set). */
void *rmg__malloc(rmg_context *ctx, size_t size);
void *rmg__calloc(rmg_context *ctx, size_t count, size_t size);
void *rmg__realloc(rmg_context *ctx, void *ptr, size_t size);
void rmg__free(rmg_context *ctx, void *ptr);
char *rmg__strdup(rmg_context *ctx, const char *s);
char *rmg__strndup(rmg_context *ctx, const char *s, size_t n);
/* Overflow-checked a*b; false on overflow. */
bool rmg__mul_ok(size_t a, size_t b, size_t *out);

/* Growable array of fixed-size elements: `struct { T *items; size_t count, cap; }`.
 * rmg__vec_reserve grows *items to hold `need` elements; returns false on failure (no error). */
bool rmg__vec_grow(rmg_context *ctx, void **items, size_t *cap, size_t need, size_t elem);
#define RMG__VEC(T) struct { T *items; size_t count, cap; }
/* Pushes a value; evaluates to 1 on success, 0 on allocation failure. */
#define RMG__VEC_PUSH(ctx, v, value)                                                          \
    (rmg__vec_grow((ctx), (void **)&(v)->items, &(v)->cap, (v)->count + 1,                    \
                   sizeof(*(v)->items))                                                       \
         ? ((v)->items[(v)->count++] = (value), 1)                                            \
         : 0)
#define RMG__VEC_FREE(ctx, v) (rmg__free((ctx), (v)->items), (v)->items = NULL, (v)->count = (v)->cap = 0)

/* ---- versioned structs (size_t struct_size first; ABI.md) -------------------------------- */

/* Copies a filled library struct `full` (full_size bytes) into the caller's `dst`, up to the
 * caller's struct_size (the struct_size field itself is left as the caller set it).
 * RMG_ERR_INVALID_ARG when the caller's struct_size is smaller than min_size. */
rmg_status rmg__struct_out(void *dst, const void *full, size_t full_size, size_t min_size);
/* Takes a caller's struct `src` over `dst` (full_size bytes, already holding defaults): an older
 * (smaller) struct fills its prefix; a newer (larger) one is accepted when its unknown tail is
 * zero (else RMG_ERR_UNSUPPORTED). RMG_ERR_INVALID_ARG when src's struct_size < min_size. */
rmg_status rmg__struct_in(void *dst, size_t full_size, const void *src, size_t min_size);
/* A versioned struct's defaults (its *_init): every byte 0, struct_size = size. False for a NULL
 * struct (the init is then a no-op); the caller sets the fields whose "none" is -1 after it. */
bool rmg__struct_init(void *info, size_t size);
/* The *_init of a struct whose defaults are all zero. */
#define RMG__ZERO_INIT(type)                                                                  \
    void type##_init(type *info)                                                              \
    {                                                                                         \
        rmg__struct_init(info, sizeof *info);                                                 \
    }

/* ---- arenas: bump allocation for per-generation data, freed at once ---------------------- */

typedef struct rmg__arena_block rmg__arena_block;
typedef struct rmg__arena {
    rmg_context *ctx;
    rmg__arena_block *head;
    size_t block_size;   /* default size of new blocks */
    size_t used_total;   /* bytes handed out (statistics) */
} rmg__arena;

void rmg__arena_init(rmg__arena *arena, rmg_context *ctx, size_t block_size);
/* 16-byte aligned, zero-filled; NULL on failure (no error set). */
void *rmg__arena_alloc(rmg__arena *arena, size_t size);
char *rmg__arena_strdup(rmg__arena *arena, const char *s);
void rmg__arena_free(rmg__arena *arena);

/* ---- errors ------------------------------------------------------------------------------ */

/* Sets the context's error and returns `status` (so `return rmg__error_set(...)` works). */
rmg_status rmg__error_set(rmg_context *ctx, rmg_status status, const char *fmt, ...) RMG__PRINTF(3, 4);
/* With a location: file may be NULL, line/column 0 when unknown. */
rmg_status rmg__error_at(rmg_context *ctx, rmg_status status, const char *file, int line, int column,
                         const char *fmt, ...) RMG__PRINTF(6, 7);
/* Location-carrying variant for generation: stage name, template zone id / connection index
 * (-1 when not applicable). */
rmg_status rmg__error_gen(rmg_context *ctx, rmg_status status, const char *stage, int zone, int connection,
                          const char *fmt, ...) RMG__PRINTF(6, 7);
rmg_status rmg__error_nomem(rmg_context *ctx);
void rmg__log(rmg_context *ctx, rmg_log_level level, const char *fmt, ...) RMG__PRINTF(3, 4);
/* True if generation must stop: cancelled (by rmg_context_cancel or a progress callback; sets
 * RMG_ERR_CANCELLED) or past ctx->deadline_ms (sets RMG_ERR_LIMIT, the cancel flag untouched).
 * Callers return RMG_ERR_CANCELLED; the driver reports the context's status. */
bool rmg__check_cancel(rmg_context *ctx, const char *stage, double fraction);
/* Each generation starts uncancelled (core.h, "Cancel"): the public entry points of work that
 * rmg__check_stop can stop (rmg_generate, rmg_generate_best_of, rmg_place_preview) call this
 * first, so a cancel that stopped the previous one does not stop the next. */
static inline void rmg__work_begin(rmg_context *ctx)
{
    atomic_store(&ctx->cancelled, 0);
}
/* The same as a status: RMG_OK, RMG_ERR_CANCELLED or RMG_ERR_LIMIT (error set). */
rmg_status rmg__check_stop(rmg_context *ctx, const char *stage, double fraction);
/* Monotonic clock in milliseconds (time budgets, stage timings). */
double rmg__now_ms(void);

/* ---- formatted strings ------------------------------------------------------------------- */

/* A growable string through the context allocator. `failed` sticks after the first failure. */
typedef struct rmg__buf {
    rmg_context *ctx;
    char *data;
    size_t len, cap;
    bool failed;
} rmg__buf;

void rmg__buf_init(rmg__buf *b, rmg_context *ctx);
void rmg__buf_append(rmg__buf *b, const char *s, size_t n);
void rmg__buf_puts(rmg__buf *b, const char *s);
void rmg__buf_printf(rmg__buf *b, const char *fmt, ...) RMG__PRINTF(2, 3);
void rmg__buf_putc(rmg__buf *b, char c);
/* Hands the NUL-terminated data to the caller (free with rmg__free); NULL if it failed. */
char *rmg__buf_take(rmg__buf *b);
void rmg__buf_free(rmg__buf *b);
/* rmg__buf_take for functions that return text: stores it in *out and its length in *len (len may
 * be NULL); RMG_ERR_NOMEM, reported on the buffer's context, with *out untouched if it failed. */
rmg_status rmg__buf_finish(rmg__buf *b, char **out, size_t *len);

/* ---- files ------------------------------------------------------------------------------- */

/* Reads a whole file (NUL-terminated, length in *len). Sets RMG_ERR_IO / RMG_ERR_LIMIT. */
rmg_status rmg__read_file(rmg_context *ctx, const char *path, size_t max_size, char **data, size_t *len);
/* Writes len bytes to a new file at path (replacing it). Sets RMG_ERR_IO. */
rmg_status rmg__write_file(rmg_context *ctx, const char *path, const void *data, size_t len);

/* ---- hashing ----------------------------------------------------------------------------- */

uint64_t rmg__hash64(const void *data, size_t len, uint64_t seed);

#endif
