/*
 * librmg core: versions, status codes, the context (allocator, RNG, log, cancel, errors).
 *
 * Stability: stable. Structs begin with `size_t struct_size` and only ever grow at the end;
 * enums keep their values forever (see ABI.md).
 *
 * Names, one scheme across the API (since 0.6.0; ABI.md, "Names"):
 * - rmg_<thing>_<verb>, where <thing> names what the arguments address, from the handle down:
 *   rmg_pack_* a pack; rmg_template_* template t of a pack; rmg_zone_* and rmg_connection_*
 *   zone z or connection c of a template; rmg_map_* a map; rmg_map_zone_*, rmg_map_object_*,
 *   rmg_map_connection_*, rmg_map_group_* one of its zones, objects, ...; rmg_balance_player_*,
 *   rmg_place_zone_*, rmg_solve_zone_*, rmg_content_terrain_*, ... likewise.
 * - A read that fills a struct is <thing>_get (rmg_map_zone_get, rmg_zone_get), a write
 *   <thing>_set, a count <owner>_<thing>_count (rmg_map_zone_count). Every versioned struct X
 *   (first field struct_size) has X_init(&x): struct_size set, every field 0 or its "none"
 *   value (-1 where the field's comment says so).
 * - Indexes and ids: accessors take 0-based indexes (0..count-1). A map's zones, connections,
 *   objects and groups also have ids, id = index + 1 with 0 for "none", which fields, layers and
 *   tile reads return (rmg_map_tile_object, rmg_map_tile_zone, info.guard, ...): pass id - 1
 *   to the accessors (rmg_map_object_get(map, rmg_map_tile_object(map, x, y, z) - 1, &o)).
 * - Each enum's values have a prefix of their own (RMG_ZONE_ for rmg_zone_kind,
 *   RMG_ROAD_SETTING_ for rmg_road_setting, RMG_ROAD_ for rmg_road_type, ...).
 * The names 0.6.0 replaced stay, exported, as deprecated aliases (ABI.md, "Deprecation"); using
 * one warns unless RMG_ALLOW_DEPRECATED is defined.
 */
#ifndef RMG_CORE_H
#define RMG_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "rmg/export.h"
#include "rmg/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions --------------------------------------------------------------------------- */

/* RMG_VERSION_NUMBER of the library actually linked (compare with the header's macro). */
RMG_API unsigned rmg_version(void);
/* "MAJOR.MINOR.PATCH" of the library actually linked. */
RMG_API const char *rmg_version_string(void);

/* ---- status codes ----------------------------------------------------------------------- */

/* Fixed values, never reused. A retired code stays reserved. */
typedef enum rmg_status {
    RMG_OK = 0,
    RMG_ERR_NOMEM = 1,          /* the allocator returned NULL */
    RMG_ERR_INVALID_ARG = 2,    /* NULL handle, bad option value, struct_size too small */
    RMG_ERR_IO = 3,             /* a file could not be opened or read */
    RMG_ERR_PARSE = 4,          /* malformed input (YAML, JSON, h3t); message has line/column */
    RMG_ERR_INVALID_DATA = 5,   /* well-formed input that breaks the model's rules */
    RMG_ERR_UNSUPPORTED = 6,    /* a feature or format this version does not handle */
    RMG_ERR_NOT_FOUND = 7,      /* a key, id or template that does not exist */
    RMG_ERR_IMPOSSIBLE = 8,     /* the template cannot produce a map (after bounded retries) */
    RMG_ERR_CANCELLED = 9,      /* the host cancelled the operation */
    RMG_ERR_LIMIT = 10,         /* a size, count, depth or time budget was exceeded */
    RMG_ERR_PLUGIN = 11,        /* a host-supplied stage failed */
    RMG_ERR_VERSION = 12,       /* version mismatch between caller and library */
    RMG_ERR_INTERNAL = 13,      /* a bug in librmg: please report */
    RMG_ERR_BUFFER_TOO_SMALL = 14 /* a caller buffer is too small; the needed size is returned */
} rmg_status;

/* "RMG_OK", "RMG_ERR_NOMEM", ...; "RMG_ERR_UNKNOWN" for values this version does not know. */
RMG_API const char *rmg_status_name(rmg_status status);

/* ---- host callbacks --------------------------------------------------------------------- */

/*
 * Allocator, in the shape of lua_Alloc: one realloc-style hook.
 *   nsize == 0          : free ptr (osize is its size); return NULL.
 *   ptr == NULL         : allocate nsize bytes (osize is 0).
 *   otherwise           : resize ptr from osize to nsize bytes.
 * Returning NULL for nsize > 0 means failure; the library then reports RMG_ERR_NOMEM and
 * leaves ptr untouched. Memory must be aligned for any C object (like malloc).
 */
typedef void *(*rmg_alloc_fn)(void *user, void *ptr, size_t osize, size_t nsize);

/* A source of uniformly random 64-bit words. The library derives every stream it needs from
 * words drawn through this hook (see rmg_context_options.rng). */
typedef uint64_t (*rmg_rng_fn)(void *user);

typedef enum rmg_log_level {
    RMG_LOG_ERROR = 0,
    RMG_LOG_WARNING = 1,
    RMG_LOG_INFO = 2,
    RMG_LOG_DEBUG = 3
} rmg_log_level;

typedef void (*rmg_log_fn)(void *user, rmg_log_level level, const char *message);

/* Progress: called at the start of every stage and inside long loops, with the stage's name
 * ("solve", "place", ..., "validate") and how far that stage is (0 at its start, below 1);
 * return non-zero to cancel. A retried stage starts again from 0. */
typedef int (*rmg_progress_fn)(void *user, const char *stage, double fraction);

/* ---- context ------------------------------------------------------------------------------ */

typedef struct rmg_context rmg_context;

typedef struct rmg_context_options {
    size_t struct_size;        /* sizeof(rmg_context_options) as the caller knows it */
    rmg_alloc_fn alloc;        /* NULL: the C library's malloc/realloc/free */
    void *alloc_user;
    rmg_rng_fn rng;            /* NULL: the built-in generator seeded from `seed`. A generation
                                * draws one word from it, the root of its streams, which the map
                                * records as its seed (rmg_map_seed) */
    void *rng_user;
    uint64_t seed;             /* root seed for the built-in generator */
    rmg_log_fn log;            /* NULL: no logging */
    void *log_user;
    rmg_log_level log_level;   /* messages above this level are not delivered */
    rmg_progress_fn progress;  /* NULL: no progress reports */
    void *progress_user;
} rmg_context_options;

/* Fills defaults (struct_size set, everything else zero, log_level WARNING). */
RMG_API void rmg_context_options_init(rmg_context_options *options);

/* options may be NULL for all defaults. The options are copied. */
RMG_API rmg_status rmg_context_create(rmg_context **out, const rmg_context_options *options);
/*
 * Lifetimes. The objects made with a context (maps, including those of rmg_generate_best_of,
 * rmg_place_preview and rmg_map_load_h3m; packs; balance reports; validations; object lists;
 * solve results) and the context may be destroyed in any order, each exactly once, on any
 * thread: every object keeps what it needs of the context (its allocator, ruleset and error
 * slot) alive, and the context's memory is freed when the last of them is destroyed. Object
 * lists and solve results also keep the ruleset they were made with when the context's is
 * replaced (rmg_content_load, rmg_context_set_content_variant); maps read the context's
 * current one.
 *
 * rmg_context_destroy ends the host's handle: ctx must not be passed to any function
 * afterwards, the log and progress callbacks are never called again, and stage plugins are
 * destroyed (their destroy hooks called) at once. The objects still alive stay usable through
 * their own functions, except those that hand out memory to release with rmg_free(ctx, ...)
 * (rmg_map_to_json, a validation report, ...), which need the handle: release such memory
 * before destroying the context. The allocator callback (and its user pointer) must stay
 * valid until the last object is destroyed; it is then called from the thread that destroys
 * it. No-op for NULL.
 */
RMG_API void rmg_context_destroy(rmg_context *ctx);

/* Re-seeds the built-in generator (ignored when the host supplies `rng`). */
RMG_API rmg_status rmg_context_set_seed(rmg_context *ctx, uint64_t seed);
RMG_API uint64_t rmg_context_seed(const rmg_context *ctx);

/*
 * Cancel. Each generation (rmg_generate, rmg_generate_best_of, rmg_place_preview) starts
 * uncancelled: a cancel, from rmg_context_cancel (safe from another thread while the context
 * works) or from a progress callback returning non-zero, stops the generation under way with
 * RMG_ERR_CANCELLED (rmg_generate_best_of: every candidate still to come too), and the next one
 * on the context runs normally. A cancel requested while no generation runs is therefore
 * cleared by the next one's start (until 0.4.1 it stuck and failed every later generation
 * until rmg_context_reset_cancel).
 */
RMG_API void rmg_context_cancel(rmg_context *ctx);
/* Clears the flag rmg_context_cancelled reports. Kept for compatibility: no longer needed
 * before the next generation, which clears it itself. */
RMG_API void rmg_context_reset_cancel(rmg_context *ctx);
/* Non-zero from a cancel until the next generation starts (or rmg_context_reset_cancel). */
RMG_API int rmg_context_cancelled(const rmg_context *ctx);

/* ---- errors ------------------------------------------------------------------------------- */

/* The last error of a context. Strings are owned by the context and valid until its next
 * failing call or its destruction. Unknown parts are NULL or 0 / -1. */
typedef struct rmg_error_info {
    size_t struct_size;
    rmg_status status;
    const char *message;       /* full text, e.g. "a.yaml:3:7: zone 4: size must be positive" */
    const char *file;          /* input file name, or NULL */
    int line;                  /* 1-based, 0 when unknown */
    int column;                /* 1-based, 0 when unknown */
    int zone;                  /* template zone id, -1 when not about a zone */
    int connection;            /* template connection index, -1 when not about a connection */
    const char *stage;         /* generation stage name, or NULL */
} rmg_error_info;
RMG_API void rmg_error_info_init(rmg_error_info *info);

/* The message of the last failing call (never NULL; "" when there was none). */
RMG_API const char *rmg_context_errmsg(const rmg_context *ctx);
RMG_API rmg_status rmg_context_errcode(const rmg_context *ctx);
RMG_API rmg_status rmg_context_error_get(const rmg_context *ctx, rmg_error_info *info);
RMG_API void rmg_context_clear_error(rmg_context *ctx);

/* ---- randomness --------------------------------------------------------------------------- */

/*
 * The built-in generator is xoshiro256** seeded through splitmix64. Its output for a given
 * seed is part of the behavioural promise (ABI.md): stable across platforms and versions.
 * Named streams: rmg_rng_derive() returns the seed of a sub-stream keyed by a label and an
 * index, computed with XXH3-64; draws from one stream never shift another.
 */
typedef struct rmg_rng {
    uint64_t s[4];
} rmg_rng;

RMG_API void rmg_rng_seed(rmg_rng *rng, uint64_t seed);
RMG_API uint64_t rmg_rng_next(rmg_rng *rng);
/* Uniform integer in [lo, hi] (inclusive, lo <= hi) without modulo bias. */
RMG_API int64_t rmg_rng_range(rmg_rng *rng, int64_t lo, int64_t hi);
/* Uniform integer in [0, n) for n > 0, without modulo bias; 0 when n == 0. */
RMG_API uint64_t rmg_rng_below(rmg_rng *rng, uint64_t n);
/* Index drawn with probability proportional to weights[i] (non-negative); -1 if all are 0. */
RMG_API long rmg_rng_weighted(rmg_rng *rng, const uint64_t *weights, size_t count);
/* Fisher-Yates shuffle of `count` elements of `size` bytes each (size <= 256). */
RMG_API void rmg_rng_shuffle(rmg_rng *rng, void *items, size_t count, size_t size);
/* Seed of the sub-stream (parent, label, index): XXH3-64 of label with seed parent, mixed
 * with index. */
RMG_API uint64_t rmg_rng_derive(uint64_t parent, const char *label, uint64_t index);

/* A stream for (label, index) under the context's root seed (drawn from the host RNG when one
 * is supplied, once per call of this function). */
RMG_API rmg_status rmg_context_stream(rmg_context *ctx, const char *label, uint64_t index, rmg_rng *out);

/* ---- names ------------------------------------------------------------------------------- */

/* "Did you mean": the index of the name in names[0..count) nearest to `word` when it is close
 * enough to be a slip (an edit distance, counting insertions, deletions, substitutions and
 * swaps of neighbours, of at most a third of the longer word and at least one; ASCII case and
 * '-', ' ' against '_' ignored); -1 when none is (or word is NULL or empty). NULL or empty
 * names are skipped; of equally near names the first wins. The library's own messages about a
 * bad key or value (templates, the rmg command) use it. Since 0.6.0. */
RMG_API int rmg_name_suggest(const char *word, const char *const *names, size_t count);

/* ---- memory ------------------------------------------------------------------------------- */

/* Allocation through the context's hook, for hosts and plugins that hand memory to librmg or
 * take memory from it. rmg_free(NULL) is a no-op. */
RMG_API void *rmg_malloc(rmg_context *ctx, size_t size);
RMG_API void rmg_free(rmg_context *ctx, void *ptr);

/* ---- deprecated names (since 0.6.0; ABI.md) ------------------------------------------------ */

RMG_API RMG_DEPRECATED_NAME("use rmg_context_error_get")
rmg_status rmg_context_error(const rmg_context *ctx, rmg_error_info *info);

#ifdef __cplusplus
}
#endif

#endif
