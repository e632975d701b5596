/*
 * Small .h3m documents cut out of real maps, for fuzz seeds (tests/fuzz/h3m_seeds.c) and for
 * tests that want every prefix of a map: the real maps are 0.4-1.8 MB uncompressed, mostly
 * tiles; the cut keeps a corner of the tiles, the first object of every body kind and of every
 * class/subclass up to a limit, and only the templates those objects use.
 */
#ifndef RMG_TEST_H3M_SHRINK_H
#define RMG_TEST_H3M_SHRINK_H

#include <string.h>

#include "export/h3m/h3m_doc.h"

static inline rmg_status rmg_h3m_shrink_tiles(rmg__h3m_doc *doc, uint32_t side)
{
    uint32_t old = doc->basic.size;
    if (side >= old)
        return RMG_OK;
    size_t levels = doc->basic.two_levels ? 2 : 1, row = (size_t)side * RMG__H3M_TILE_BYTES;
    uint8_t *tiles = rmg__h3m_alloc(doc, levels * side, row);
    if (!tiles)
        return RMG_ERR_NOMEM;
    for (size_t z = 0; z < levels; z++)
        for (size_t y = 0; y < side; y++)
            memcpy(tiles + (z * side + y) * row, doc->tiles + ((z * old + y) * old) * RMG__H3M_TILE_BYTES, row);
    doc->tiles = tiles;
    doc->basic.size = side;
    return RMG_OK;
}

/* Whether object i is the first of its kind, or (while keep_more) of its class and subclass. */
static inline bool rmg_h3m_shrink_first(const rmg__h3m_doc *doc, uint32_t i, bool by_class)
{
    const rmg__h3m_object *o = &doc->objects[i];
    const rmg__h3m_template *t = &doc->templates[o->template_index];
    for (uint32_t j = 0; j < i; j++) {
        const rmg__h3m_template *u = &doc->templates[doc->objects[j].template_index];
        if (by_class ? (u->class_id == t->class_id && u->subclass == t->subclass) : doc->objects[j].kind == o->kind)
            return false;
    }
    return true;
}

static inline rmg_status rmg_h3m_shrink(rmg__h3m_doc *doc, uint32_t side, uint32_t max_objects)
{
    rmg_status st = rmg_h3m_shrink_tiles(doc, side);
    if (st != RMG_OK || doc->object_count == 0)
        return st;
    uint8_t *keep = rmg__h3m_alloc(doc, doc->object_count, 1);
    uint32_t *remap = rmg__h3m_alloc(doc, doc->template_count, sizeof *remap);
    if (!keep || !remap)
        return RMG_ERR_NOMEM;
    uint32_t kept = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < doc->object_count && kept < max_objects; i++)
            if (!keep[i] && rmg_h3m_shrink_first(doc, i, pass == 1))
                keep[i] = 1, kept++;
    /* The two editor templates first, then the used ones, in their order. */
    for (uint32_t i = 0; i < doc->object_count; i++)
        if (keep[i])
            remap[doc->objects[i].template_index] = 1;
    uint32_t n_templates = 0;
    for (uint32_t t = 0; t < doc->template_count; t++)
        if (remap[t] || t < 2) {
            doc->templates[n_templates] = doc->templates[t];
            remap[t] = n_templates++;
        }
    doc->template_count = n_templates;
    uint32_t n_objects = 0;
    for (uint32_t i = 0; i < doc->object_count; i++)
        if (keep[i]) {
            doc->objects[n_objects] = doc->objects[i];
            doc->objects[n_objects++].template_index = remap[doc->objects[i].template_index];
        }
    doc->object_count = n_objects;
    return RMG_OK;
}

#endif
