/*
 * A small, strict, bounded JSON reader for the VCMI template importer (vcmi_read.c).
 *
 * Accepts RFC 8259 JSON plus what hand-written VCMI files contain: line comments (//),
 * block comments (slash-star), trailing commas before `]` / `}`, a UTF-8 byte-order mark.
 * Rejects everything else: invalid UTF-8, control characters and NUL (also escaped) in
 * strings, duplicate keys in an object, unterminated comments, text after the value. Input
 * size, nesting depth and the number of values are bounded; every node remembers its line and
 * column (1-based; columns count characters).
 * The tree lives in a caller-provided arena (allocated through the context).
 */
#ifndef RMG_TEMPLATE_JSON_H
#define RMG_TEMPLATE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core_internal.h"

typedef enum rmg__json_type {
    RMG__JSON_NULL = 0,
    RMG__JSON_BOOL,
    RMG__JSON_NUMBER,
    RMG__JSON_STRING,
    RMG__JSON_ARRAY,
    RMG__JSON_OBJECT
} rmg__json_type;

typedef struct rmg__json_member rmg__json_member;
typedef struct rmg__json rmg__json;

struct rmg__json {
    rmg__json_type type;
    int line, column;              /* where the value starts */
    bool boolean;                  /* BOOL */
    bool integral;                 /* NUMBER written as an integer that fits int64_t */
    int64_t integer;               /* NUMBER: exact value when integral */
    double number;                 /* NUMBER: value (approximate beyond 2^53) */
    const char *string;            /* STRING: decoded UTF-8, NUL-terminated, no NUL inside */
    size_t length;                 /* STRING: bytes */
    rmg__json_member *members;     /* OBJECT: in file order */
    rmg__json *items;              /* ARRAY */
    size_t count;                  /* OBJECT / ARRAY: number of members / items */
};

struct rmg__json_member {
    const char *key;               /* decoded, NUL-terminated */
    int line, column;              /* where the key starts */
    rmg__json value;
};

typedef struct rmg__json_limits {
    size_t max_bytes;              /* larger input: RMG_ERR_LIMIT */
    int max_depth;                 /* deeper nesting: RMG_ERR_LIMIT */
    size_t max_nodes;              /* more values (a node is ~90 bytes): RMG_ERR_LIMIT */
} rmg__json_limits;

/* Default limits (0 in a field = default): 8 MiB, depth 64, 1 Mi values (memory stays
 * below ~100 MiB whatever the input). VCMI template files are a few tens of KiB. */
#define RMG__JSON_MAX_BYTES ((size_t)8 << 20)
#define RMG__JSON_MAX_DEPTH 64
#define RMG__JSON_MAX_NODES ((size_t)1 << 20)

/* Parses `data` (need not be NUL-terminated). `name` is the file name used in messages.
 * limits may be NULL (defaults). On failure the context carries RMG_ERR_PARSE / _LIMIT / _NOMEM
 * with the line and column; *out is NULL. Everything is allocated in `arena`. */
rmg_status rmg__json_parse(rmg_context *ctx, rmg__arena *arena, const char *data, size_t len, const char *name,
                           const rmg__json_limits *limits, const rmg__json **out);

/* Member `key` of an object (NULL if absent or `obj` is not an object). */
const rmg__json_member *rmg__json_find(const rmg__json *obj, const char *key);

/* "object", "array", "string", ... for messages. */
const char *rmg__json_type_name(rmg__json_type type);

#endif
