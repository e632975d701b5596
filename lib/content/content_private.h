/*
 * Content module private declarations: the YAML node tree, the table-driven entity schema and
 * the ruleset builder (build a new ruleset aside, swap it in on success).
 */
#ifndef RMG_CONTENT_PRIVATE_H
#define RMG_CONTENT_PRIVATE_H

#include <string.h>

#include "content/content_internal.h"

/* ---- YAML node tree (content_yaml.c) --------------------------------------------------- */

typedef enum rmg__ytype { RMG__Y_SCALAR, RMG__Y_SEQ, RMG__Y_MAP } rmg__ytype;

typedef struct rmg__ynode rmg__ynode;
struct rmg__ynode {
    rmg__ytype type;
    int line, col;              /* 1-based */
    const char *str;            /* scalar text (NUL-terminated) */
    size_t len;
    bool plain;                 /* unquoted scalar */
    rmg__ynode **items;         /* sequence items, or key/value pairs (2 * n) of a mapping */
    size_t n;
    size_t weight;              /* nodes after alias expansion (saturating) */
};

typedef struct rmg__ydoc {
    rmg__arena arena;
    rmg__ynode *root;           /* NULL for an empty document */
    const char *file;
} rmg__ydoc;

/* Parses one YAML document into a node tree (in doc->arena). Errors: RMG_ERR_PARSE with
 * file:line:col, RMG_ERR_LIMIT (size, depth, expanded nodes), RMG_ERR_NOMEM. */
rmg_status rmg__yaml_parse(rmg_context *ctx, const char *data, size_t len, const char *file, rmg__ydoc *doc);
void rmg__yaml_free(rmg__ydoc *doc);

/* ---- schema (content_schema.c) --------------------------------------------------------- */

typedef enum rmg__ftype {
    RMG__F_STR,        /* char * */
    RMG__F_INT,        /* int in [min, max] */
    RMG__F_INT64,      /* int64_t in [min, max] or one of the words allowed by `words` */
    RMG__F_BOOL,       /* bool */
    RMG__F_ENUM,       /* int: index into `names` */
    RMG__F_COLOR,      /* uint32_t 0xRRGGBB */
    RMG__F_SCHOOLS,    /* int mask from a list of school names */
    RMG__F_FOOTPRINT,  /* rmg__footprint block/visit from row strings */
    RMG__F_REF,        /* reference(s) to other entities, resolved when the ruleset is finished */
} rmg__ftype;

/* How a resolved reference is stored. */
typedef enum rmg__refmode {
    RMG__REF_ID,       /* int: the target's id (faction id, terrain id); -1 none */
    RMG__REF_INDEX,    /* int: the target's index; -1 none */
    RMG__REF_MASK,     /* uint32_t bit mask of target ids (a list); `aux`: bool "n/a" flag or -1 */
    RMG__REF_LIST,     /* int[4] target indices; `aux`: int count */
} rmg__refmode;

/* Words accepted by RMG__F_INT64 fields. */
#define RMG__W_FORMULA 1u
#define RMG__W_NA 2u
#define RMG__W_UNLIMITED 4u
#define RMG__W_RULE 8u

/* Field flags. */
#define RMG__REQUIRED 1u          /* a new entity must give it */
#define RMG__REQUIRED_CONTENT 2u  /* required for zone content objects only */

typedef struct rmg__field {
    const char *name;
    rmg__ftype type;
    unsigned flags;
    size_t offset;
    int64_t min, max, def;        /* range and default of numbers / enums / refs (-1 none) */
    unsigned words;               /* RMG__W_* for RMG__F_INT64 */
    const char *const *names;     /* RMG__F_ENUM: NULL-terminated names */
    int ref_kind;                 /* RMG__F_REF: target kind */
    rmg__refmode ref_mode;
    long aux;                     /* RMG__REF_MASK: offset of the n/a bool or -1; LIST: count offset */
    int slot;                     /* RMG__F_REF: reference slot number of the kind */
} rmg__field;

typedef struct rmg__kind_desc {
    const char *plural;           /* YAML section name: "creatures" */
    const char *single;           /* "creature" */
    size_t elem_size;
    size_t arr_off, cnt_off;      /* array pointer / count in struct rmg_content */
    long id_off;                  /* int id, or -1 */
    long hota_off;                /* bool is_hota, or -1 */
    const rmg__field *fields;
    size_t n_fields;
    int n_slots;                  /* reference slots */
    bool content_object;          /* RMG__REQUIRED_CONTENT applies */
} rmg__kind_desc;

extern const rmg__kind_desc rmg__kinds[RMG_CONTENT_KIND_COUNT];

/* Entity array of a kind in a ruleset (through memcpy: the fields have different types). */
void *rmg__content_array(const struct rmg_content *c, int kind);
size_t rmg__content_count_of(const struct rmg_content *c, int kind);
/* Key of entity i of a kind (every entity struct starts with `char *key`). */
const char *rmg__content_key_at(const struct rmg_content *c, int kind, size_t i);

/* ---- builder (content_build.c) --------------------------------------------------------- */

typedef struct rmg__mark {
    const char *file;
    int line, col;
} rmg__mark;

typedef struct rmg__refslot {
    bool set;                     /* given (by YAML or copied from the base ruleset) */
    bool na;                      /* `n/a` (RMG__REF_MASK with an aux flag) */
    const char **keys;            /* target keys (scratch arena) */
    rmg__mark *marks;             /* where each key was given, or NULL (copied from the base) */
    size_t n;
    rmg__mark mark;               /* where the field was given */
} rmg__refslot;

typedef struct rmg__emeta {
    rmg__mark mark;               /* where the entity was last defined */
    unsigned serial;              /* document that last defined it (duplicate keys) */
    bool removed;
} rmg__emeta;

typedef struct rmg__kbuild {
    unsigned char *items;         /* elem_size each */
    rmg__emeta *meta;
    rmg__refslot *refs;           /* count * n_slots */
    size_t count, cap;
    uint32_t *hash;               /* key -> index + 1 (open addressing) */
    size_t hcap;
    RMG__VEC(const char *) skipped; /* keys left out by the variant (hota entities in SoD) */
} rmg__kbuild;

typedef struct rmg__builder {
    rmg_context *ctx;
    struct rmg_content *out;      /* the ruleset being built (its arena holds every string) */
    rmg__kbuild k[RMG_CONTENT_KIND_COUNT];
    char *sod_name, *sod_version;
    RMG__VEC(const char *) skipped_families; /* families of the left-out objects */
    unsigned serial;              /* documents applied so far */
    rmg__arena scratch;           /* reference keys and left-out keys: freed with the builder */
} rmg__builder;

/* Builder storage shared by content_build.c (copy, finish) and content_apply.c (YAML). */
unsigned char *rmg__kb_elem(const rmg__builder *b, int kind, size_t i);
rmg__refslot *rmg__kb_slot(const rmg__builder *b, int kind, size_t i, int slot);
/* Index of a key among the builder's entities (removed ones included), or -1. */
long rmg__kb_find(const rmg__builder *b, int kind, const char *key);
/* Appends an entity with default fields. */
rmg_status rmg__kb_add(rmg__builder *b, int kind, const char *key, size_t *index);
/* Resets entity i to defaults (added again after a removal). */
void rmg__kb_reset(rmg__builder *b, int kind, size_t i);
/* Gives a reference slot room for n keys (the slot counts as set). */
rmg_status rmg__kb_slot_keys(rmg__builder *b, rmg__refslot *s, size_t n);
/* Keys the variant left out (hota entities of a SoD ruleset): references to them are dropped. */
rmg_status rmg__kb_skip(rmg__builder *b, int kind, const char *key);
bool rmg__kb_was_skipped(const rmg__builder *b, int kind, const char *key);
/* Records the family of a left-out object. */
rmg_status rmg__kb_skip_family(rmg__builder *b, const char *family);

/* Field access by offset (entity structs differ; memcpy keeps it free of aliasing issues). */
static inline const char *rmg__elem_key(const unsigned char *e)
{
    const char *key;
    memcpy(&key, e, sizeof key);
    return key;
}

static inline void rmg__put_int(unsigned char *e, size_t off, int v)
{
    memcpy(e + off, &v, sizeof v);
}

static inline int rmg__get_int(const unsigned char *e, size_t off)
{
    int v;
    memcpy(&v, e + off, sizeof v);
    return v;
}

static inline void rmg__put_bool(unsigned char *e, size_t off, bool v)
{
    memcpy(e + off, &v, sizeof v);
}

static inline void rmg__put_ptr(unsigned char *e, size_t off, const void *p)
{
    memcpy(e + off, &p, sizeof p);
}

static inline char *rmg__get_str(const unsigned char *e, size_t off)
{
    char *s;
    memcpy(&s, e + off, sizeof s);
    return s;
}

/* Starts a new ruleset: empty, or a deep copy of `base` (then its variant is kept). */
rmg_status rmg__builder_init(rmg__builder *b, rmg_context *ctx, int variant, const struct rmg_content *base);
/* Applies one parsed YAML document (add / change / remove). */
rmg_status rmg__builder_apply(rmg__builder *b, const rmg__ydoc *doc);
/* Resolves references, checks ids, builds the index; on success *out owns the ruleset. The
 * builder is released either way. */
rmg_status rmg__builder_finish(rmg__builder *b, struct rmg_content **out);
void rmg__builder_abort(rmg__builder *b);

/* ---- ruleset lifetime and index (content_index.c, content_release.c) ------------------- */

void rmg__content_free(struct rmg_content *c);
/* Makes c the context's content (releasing the one it had); the context releases c when it
 * dies. rmg__content_free frees a ruleset no one else holds (a builder's failure). */
rmg_status rmg__content_attach(rmg_context *ctx, struct rmg_content *c);
/* Builds the lookup tables (in c->arena). */
rmg_status rmg__content_build_index(rmg_context *ctx, struct rmg_content *c);
/* Index of an entity of a kind by key / id, or -1. */
long rmg__content_lookup(const struct rmg_content *c, int kind, const char *key);
long rmg__content_lookup_id(const struct rmg_content *c, int kind, int id);

/* ---- loading (content_load.c) ---------------------------------------------------------- */

/* Builds the built-in ruleset of a variant (RMG_CONTENT_EMPTY: nothing) into *out. */
rmg_status rmg__content_load_builtin(rmg_context *ctx, int variant, struct rmg_content **out);

#endif
