/*
 * librmg objects: the effective object list of a template or of one of its zones (spec OBJ,
 * RUL): the built-in defaults, then the template's rules in order, then the zone's rules in
 * order, with the caps that cannot be raised applied last. Computed without generating a map.
 */
#ifndef RMG_OBJECTS_H
#define RMG_OBJECTS_H

#include "rmg/core.h"
#include "rmg/template.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Special values of rmg_object_info's value / frequency / max_map / max_zone. */
#define RMG_OBJECT_FORMULA (-1)    /* value computed from creature data (CRE) */
#define RMG_OBJECT_NA (-2)         /* not applicable */
#define RMG_OBJECT_UNLIMITED (-3)  /* no cap */
#define RMG_OBJECT_RULE (-4)       /* capped by a rule (prisons MIS-16, Keymaster's Tents MIS-11) */

typedef struct rmg_object_list rmg_object_list;

/* One entry of an effective list. Strings belong to the list. */
typedef struct rmg_object_info {
    size_t struct_size;
    const char *key;              /* object-defaults.tsv key */
    const char *english_name, *russian_name, *family;
    const char *creature;         /* creature key for per-creature entries of creature objects, else NULL */
    int custom;                   /* 1 for a custom variant added by a rule (OBJ-15) */
    int64_t value;                /* or RMG_OBJECT_FORMULA */
    int64_t frequency;
    int64_t max_map, max_zone;    /* effective caps (OBJ-07): number, RMG_OBJECT_UNLIMITED or RMG_OBJECT_RULE */
    int max_map_fixed, max_zone_fixed; /* 1 yes, 0 no, -1 n/a */
    uint32_t terrains;            /* allowed terrains, bit (1u << rmg_terrain_id); 0 = never generated */
    int banned_by_default;
    int64_t amount;               /* gold / experience / tent value where it applies, else -1 */
    const char *notes;
} rmg_object_info;

RMG_API void rmg_object_info_init(rmg_object_info *info);

/* The effective list of template `template_index` of `pack`, for zone `zone_id` (the template's
 * zone number) or for the whole map (zone_id < 0). pack NULL: the built-in defaults (L0 with
 * caps; zone_id must be < 0). Only objects in the list are returned (forbidden ones are left
 * out). Creature objects (dwellings, creature Pandora's boxes, creature Seer's Hut artifacts)
 * come as one entry per creature, in content order, so per-creature and per-level rules show.
 * Errors: RMG_ERR_NOT_FOUND (no such template or zone), RMG_ERR_INVALID_DATA (a custom variant
 * without parameters, OBJ-15), RMG_ERR_NOMEM. */
RMG_API rmg_status rmg_objects_effective(rmg_context *ctx, const rmg_pack *pack, size_t template_index, int zone_id,
                                         rmg_object_list **out);
RMG_API size_t rmg_object_list_count(const rmg_object_list *list);
/* RMG_ERR_INVALID_ARG for a bad index or a too small struct_size. */
RMG_API rmg_status rmg_object_list_get(const rmg_object_list *list, size_t index, rmg_object_info *info);
/* No-op for NULL. */
RMG_API void rmg_object_list_destroy(rmg_object_list *list);

#ifdef __cplusplus
}
#endif

#endif
