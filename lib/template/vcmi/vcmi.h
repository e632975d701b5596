/*
 * Private interface of the VCMI JSON template importer (vcmi_*.c). The mapping of every VCMI
 * field to the model is documented in docs/vcmi-import.md.
 */
#ifndef RMG_TEMPLATE_VCMI_H
#define RMG_TEMPLATE_VCMI_H

#include <stdbool.h>
#include <stdint.h>

#include "json.h"
#include "template/model.h"

struct rmg_content;

/* The groups of zone settings a `*LikeZone` key copies from another zone. */
typedef enum rmg__vcmi_like {
    RMG__VCMI_LIKE_TOWNS = 0,       /* townsLikeZone: player/neutral town counts and densities, same type */
    RMG__VCMI_LIKE_MINES,           /* minesLikeZone */
    RMG__VCMI_LIKE_TERRAIN,         /* terrainTypeLikeZone: the allowed terrains */
    RMG__VCMI_LIKE_TREASURE,        /* treasureLikeZone */
    RMG__VCMI_LIKE_OBJECTS,         /* customObjectsLikeZone: the zone's object rules */
    RMG__VCMI_LIKE_COUNT
} rmg__vcmi_like;

/* What the importer remembers of a zone beyond the model. */
typedef struct rmg__vcmi_zone {
    const rmg__json_member *node;                    /* "id": { ... } */
    const rmg__json *like[RMG__VCMI_LIKE_COUNT];     /* the *LikeZone values, NULL if absent */
    const rmg__json *own[RMG__VCMI_LIKE_COUNT];      /* the zone's own value of the group, NULL if absent */
    const rmg__json *hints;                          /* townHints */
} rmg__vcmi_zone;

/* A warning kept once per template and text, with where it first happened and how often. */
typedef struct rmg__vcmi_note {
    char *text;
    int line, column, zone;
    size_t count;
    bool several_zones;                 /* seen in more than one zone */
} rmg__vcmi_note;

typedef struct rmg__vcmi {
    rmg_context *ctx;
    const char *name;                    /* file name for messages (may be NULL) */
    struct rmg_pack *pack;
    const struct rmg_content *content;
    rmg__arena scratch;                  /* the JSON tree */
    const char *tpl;                     /* the template being read (messages) */
    RMG__VEC(rmg__vcmi_note) notes;      /* warnings of the current template */
    size_t notes_dropped;                /* distinct warnings beyond the cap */
    rmg__buf description;                /* the templates' descriptions */
    size_t n_descriptions;
    const char *heroes_from;             /* template whose hero list went into the pack */
    rmg__zone_key *ids;                   /* the current template's zones by id */
    size_t n_ids;
} rmg__vcmi;

/* ---- messages (vcmi_read.c) ------------------------------------------------------------------ */

/* RMG_ERR_PARSE at the value's line/column, naming the template and zone (0 = none). */
rmg_status rmg__vcmi_error(rmg__vcmi *r, const rmg__json *at, int zone, const char *fmt, ...) RMG__PRINTF(4, 5);
/* A load warning (a setting with no HotA equivalent, ...); the same text in one template is
 * counted rather than repeated. Fails only on allocation failure. */
rmg_status rmg__vcmi_warn(rmg__vcmi *r, const rmg__json *at, int zone, const char *fmt, ...) RMG__PRINTF(4, 5);

/* Warning "unknown key 'K' in WHERE ignored" at the key's line and column. */
rmg_status rmg__vcmi_unknown_key(rmg__vcmi *r, const rmg__json_member *m, int zone, const char *where);

/* ---- typed access with errors (vcmi_read.c) --------------------------------------------------- */

rmg_status rmg__vcmi_expect(rmg__vcmi *r, const rmg__json *v, rmg__json_type type, int zone, const char *what);
/* A whole number in lo..hi (written as an integer, or a number with no fraction). */
rmg_status rmg__vcmi_int(rmg__vcmi *r, const rmg__json *v, int64_t lo, int64_t hi, int zone, const char *what,
                         int64_t *out);
/* An integer-valued field that fits an int. */
rmg_status rmg__vcmi_small_int(rmg__vcmi *r, const rmg__json *v, int lo, int hi, int zone, const char *what,
                               int *out);
/* A zone id written as text: digits only, 1..INT32_MAX. */
bool rmg__vcmi_parse_id(const char *s, int *out);
/* VCMI identifiers may carry a mod scope ("core:castle"); returns the part after the last ':'. */
const char *rmg__vcmi_unscoped(const char *id);
/* camelCase -> snake_case into out (for content keys); false if it does not fit. */
bool rmg__vcmi_snake(const char *id, char *out, size_t n);

/* ---- zones (vcmi_zone.c) ----------------------------------------------------------------------- */

/* Reads the "zones" object into t (ids, kinds, every per-zone setting); fills extra[i] for
 * t->zones[i] (extra has room for zones->count entries). */
rmg_status rmg__vcmi_read_zones(rmg__vcmi *r, rmg__template *t, const rmg__json *zones, rmg__vcmi_zone *extra);

/* Index in t->zones of the zone numbered `id` in the current template, or -1 (O(log n)). */
long rmg__vcmi_find_zone(const rmg__vcmi *r, int id);

/* ---- references between zones (vcmi_like.c) ----------------------------------------------------- */

/* Resolves the *LikeZone references (chains followed, cycles and dangling ids are errors) and
 * turns townHints into type rules. */
rmg_status rmg__vcmi_resolve_zones(rmg__vcmi *r, rmg__template *t, const rmg__vcmi_zone *extra);

/* ---- customObjects (vcmi_objects.c) ------------------------------------------------------------- */

/* Maps a zone's customObjects to zone-level object rules. */
rmg_status rmg__vcmi_read_objects(rmg__vcmi *r, rmg__zone *z, const rmg__json *objects);

#endif
