/*
 * The template model described as data: one table of fields per struct. The YAML reader, the
 * YAML writer and rmg__pack_equal all walk these tables, so a field added here is read,
 * written and compared everywhere at once (and a field missing here is missing everywhere,
 * which the round-trip tests catch).
 */
#ifndef RMG_TEMPLATE_SCHEMA_H
#define RMG_TEMPLATE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

typedef enum rmg__fkind {
    RMG__F_INT,        /* int */
    RMG__F_INT64,      /* int64_t */
    RMG__F_PARAM,      /* int64_t rule parameter: "default" / "unlimited" / integer */
    RMG__F_DOUBLE,     /* double, finite */
    RMG__F_BOOL,       /* bool */
    RMG__F_STR,        /* char * in the pack arena, NULL = absent */
    RMG__F_ENUM,       /* an int-sized enum, written by name */
    RMG__F_MASK,       /* uint32_t bit set, written as a list of names */
    RMG__F_OPTMASK,    /* uint32_t mask at off + bool "is set" at off2 */
    RMG__F_GROUP,      /* a nested mapping whose fields live in the same struct */
    RMG__F_SUB,        /* a nested struct at off */
    RMG__F_LIST,       /* array pointer at off, size_t count at off2 */
    RMG__F_FIXED,      /* inline array of `fixed` elements at off */
    RMG__F_MINES,      /* int[7] minimum at off, int[7] density at off2 */
    RMG__F_OVERRIDES   /* rmg__override_list at off: ["+id", "-id", ...] */
} rmg__fkind;

typedef struct rmg__names {
    const char *const *names;      /* names[i] is value i (NULL holes allowed) */
    size_t count;
} rmg__names;

struct rmg__schema;

typedef struct rmg__field {
    const char *key;
    rmg__fkind kind;
    size_t off, off2;
    const struct rmg__schema *sub; /* GROUP / SUB / LIST / FIXED */
    const rmg__names *names;       /* ENUM / MASK / OPTMASK */
    size_t fixed;                  /* FIXED: element count */
    bool always;                   /* written even when equal to the default */
    /* STR: true when the text only repeats what the other fields of obj say (a raw h3t text the
     * h3t writer composes again from them): then it is not written and compares as absent. */
    bool (*redundant)(const void *obj);
} rmg__field;

typedef struct rmg__schema {
    const char *what;              /* "zone", for messages */
    size_t size;                   /* element size (LIST / FIXED / SUB) */
    void (*init)(void *elem);      /* spec defaults of a fresh element */
    const rmg__field *fields;
    size_t n_fields;
    size_t loc_off;                /* offset of an rmg__srcloc, or RMG__NO_LOC */
    bool flow;                     /* written in flow style ({a: 1, b: 2}) */
} rmg__schema;

#define RMG__NO_LOC ((size_t)-1)
/* Largest element a schema describes (default instances are built on the stack). */
#define RMG__SCHEMA_MAX_ELEM 2048

extern const rmg__schema rmg__pack_schema;
extern const rmg__names rmg__faction_names, rmg__terrain_names, rmg__resource_names;

/* Name of value v in a table, or NULL. */
const char *rmg__names_get(const rmg__names *n, long v);
/* Value of a name in a table, or -1. */
long rmg__names_find(const rmg__names *n, const char *name);

/* What a message about the bad value `word` of a name table adds: "; did you mean 'x'?" when
 * a name is near (rmg_name_suggest) and " (one of a, b, c)" (NUL-terminated, cut to size). */
void rmg__names_hint(char *buf, size_t size, const rmg__names *n, const char *word);
/* "; did you mean 'key'?" when a key of the schema is near the unknown key `word`, else "". */
void rmg__schema_key_hint(char *buf, size_t size, const struct rmg__schema *s, const char *word);
/* A STR field's text, NULL when absent or redundant. */
const char *rmg__field_text(const rmg__field *f, const void *obj);
/* Field equality (deep). `path` accumulates the location of a difference. */
bool rmg__field_equal(const rmg__field *f, const void *a, const void *b, char *path, size_t pathlen);
/* All fields of a schema. */
bool rmg__schema_equal(const rmg__schema *s, const void *a, const void *b, char *path, size_t pathlen);

/* Shortest text that reads back as exactly d. */
void rmg__format_double(double d, char *buf, size_t len);

#endif
