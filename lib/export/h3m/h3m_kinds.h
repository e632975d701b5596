/* The .h3m class, subclass and template of a map object (h3m_kinds.c). */
#ifndef RMG_H3M_KINDS_H
#define RMG_H3M_KINDS_H

#include "export/export_internal.h"
#include "h3m_templates.h"

/* What a template must match. */
typedef struct rmg__h3m_want {
    uint64_t block, visit;  /* the object's footprint (content layout: bit row*8 + col) */
    const char *def;        /* this sprite only (obstacles name theirs), or NULL */
    int terrain;            /* the terrain under the object: rows the editor allows there first */
    bool hota;              /* a HotA map (HotA rows first); SoD maps take SoD rows only */
    bool castle;            /* towns: the fort picture, else the village */
} rmg__h3m_want;

/* The best row of (cls, subclass) whose masks equal want's, or equal them moved within the box
 * so that the object, written *shift tiles right of its anchor (-2..2), covers the same tiles;
 * NULL when none does. */
#define RMG__H3M_NO_SHIFT 100
const rmg__h3m_known_template *rmg__h3m_pick_template(int cls, int subclass, const rmg__h3m_want *want, int *shift);
/* The template a map object is written with (HotA or SoD map), its class and subclass, and the
 * columns its written anchor lies right of the map's (see rmg__h3m_pick_template); NULL when
 * the content names none or no row has the object's footprint. */
const rmg__h3m_known_template *rmg__h3m_object_template(const struct rmg_map *m, const rmg__map_object *o, bool hota,
                                                  int *cls, int *subclass, int *shift);
/* The terrain an object stands on as its template choice sees it: under its entry, else under its
 * anchor when that lies on the map, else its zone's. */
int rmg__h3m_object_terrain(const struct rmg_map *m, const rmg__map_object *o);
/* Def names compare without case, as the game reads them. */
bool rmg__h3m_same_def(const char *a, const char *b);
/* A row's masks in the content layout. */
void rmg__h3m_template_masks(const rmg__h3m_known_template *t, uint64_t *block, uint64_t *visit);

#endif
