/*
 * The .h3m object templates librmg writes (generated table, h3m_templates.c, from the shared
 * template tables by scripts/gen-h3m-templates.py): one row per template, sorted by class, then
 * subclass, SoD editions before HotA's, then table order.
 */
#ifndef RMG_H3M_TEMPLATES_H
#define RMG_H3M_TEMPLATES_H

#include <stddef.h>
#include <stdint.h>

typedef enum rmg__h3m_edition {
    RMG__H3M_EDITION_SOD = 0,   /* RoE, AB or SoD rows: valid in every game */
    RMG__H3M_EDITION_HOTA = 1   /* HotA rows (2018 list, HotA 1.7.0 and 1.7.3) */
} rmg__h3m_edition;

typedef struct rmg__h3m_known_template {
    const char *def;            /* sprite name as the editor writes it */
    uint8_t passable[6];        /* as stored: byte r = row r of the 8x6 box (5 = anchor row), bit c
                                 * = column c (7 = anchor column), 1 = passable */
    uint8_t visitable[6];       /* same layout, 1 = visited from / on this tile */
    uint16_t terrains;          /* where the editor lets it stand (bit = terrain id) */
    uint16_t menu;              /* the editor palettes that list it */
    uint16_t cls, subclass;
    uint8_t group;              /* editor palette group */
    uint8_t ground;             /* drawn under other objects */
    uint8_t edition;            /* rmg__h3m_edition */
} rmg__h3m_known_template;

extern const rmg__h3m_known_template rmg__h3m_known_templates[];
extern const size_t rmg__h3m_n_known_templates;

#endif
