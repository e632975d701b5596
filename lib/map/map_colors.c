/* Teleport and keymaster colours (game data the connect stage hands out and the exports name). */
#include <stdio.h>
#include <string.h>

#include "map_internal.h"

/* Land teleports (object-classes.tsv / object-templates.tsv). Two-way monoliths and portals of
 * class 45 first; the sea portals (45/8, 45/21..24) exist on water only and are left out. Then
 * the one-way entrances of class 43 used in pairs. Widths from the templates' block masks. */
static const rmg__teleport_color COLORS[] = {
    {"monolith_two_way", "green monolith", 45, 0, 1, "green"},
    {"monolith_two_way", "brown monolith", 45, 1, 1, "brown"},
    {"monolith_two_way", "violet monolith", 45, 2, 1, "violet"},
    {"monolith_two_way", "orange monolith", 45, 3, 1, "orange"},
    {"monolith_two_way", "green portal", 45, 4, 2, "green"},
    {"monolith_two_way", "yellow portal", 45, 5, 2, "yellow"},
    {"monolith_two_way", "red portal", 45, 6, 2, "red"},
    {"monolith_two_way", "cyan portal", 45, 7, 2, "cyan"},
    {"monolith_two_way", "pink monolith", 45, 9, 1, "pink"},
    {"monolith_two_way", "turquoise monolith", 45, 10, 1, "turquoise"},
    {"monolith_two_way", "yellow monolith", 45, 11, 1, "yellow"},
    {"monolith_two_way", "black monolith", 45, 12, 1, "black"},
    {"monolith_two_way", "chartreuse portal", 45, 13, 2, "chartreuse"},
    {"monolith_two_way", "turquoise portal", 45, 14, 2, "turquoise"},
    {"monolith_two_way", "violet portal", 45, 15, 2, "violet"},
    {"monolith_two_way", "orange portal", 45, 16, 2, "orange"},
    {"monolith_two_way", "blue monolith", 45, 17, 1, "blue"},
    {"monolith_two_way", "red monolith", 45, 18, 1, "red"},
    {"monolith_two_way", "pink portal", 45, 19, 2, "pink"},
    {"monolith_two_way", "blue portal", 45, 20, 2, "blue"},
    {"monolith_one_way_entrance", "blue one-way monolith", 43, 0, 1, "blue"},
    {"monolith_one_way_entrance", "pink one-way monolith", 43, 1, 1, "pink"},
    {"monolith_one_way_entrance", "orange one-way monolith", 43, 2, 1, "orange"},
    {"monolith_one_way_entrance", "yellow one-way monolith", 43, 3, 1, "yellow"},
    {"monolith_one_way_entrance", "purple one-way portal", 43, 4, 2, "purple"},
    {"monolith_one_way_entrance", "orange one-way portal", 43, 5, 2, "orange"},
    {"monolith_one_way_entrance", "red one-way portal", 43, 6, 2, "red"},
    {"monolith_one_way_entrance", "cyan one-way portal", 43, 7, 2, "cyan"},
    {"monolith_one_way_entrance", "turquoise one-way monolith", 43, 8, 1, "turquoise"},
    {"monolith_one_way_entrance", "violet one-way monolith", 43, 9, 1, "violet"},
    {"monolith_one_way_entrance", "chartreuse one-way monolith", 43, 10, 1, "chartreuse"},
    {"monolith_one_way_entrance", "white one-way monolith", 43, 11, 1, "white"},
};

const rmg__teleport_color *rmg__teleport_colors(size_t *count)
{
    *count = RMG__ARRAY_LEN(COLORS);
    return COLORS;
}

bool rmg__teleport_color_present(const struct rmg_content *c, size_t i)
{
    if (i >= RMG__ARRAY_LEN(COLORS))
        return false;
    if (!c)
        return true; /* no ruleset to ask: the game data's table */
    char key[64];
    snprintf(key, sizeof key, "%s_%d", COLORS[i].key, COLORS[i].subclass);
    return rmg__content_find_map_object(c, key) >= 0;
}

size_t rmg__teleport_colors_present(const struct rmg_content *c)
{
    size_t n = 0;
    for (size_t i = 0; i < RMG__ARRAY_LEN(COLORS); i++)
        n += rmg__teleport_color_present(c, i);
    return n;
}

const rmg__teleport_color *rmg__teleport_color_of(const rmg__map_object *o)
{
    if (o->kind != RMG_OBJECT_MONOLITH || o->color < 0)
        return NULL;
    bool two_way = o->key && strcmp(o->key, "monolith_two_way") == 0;
    for (size_t i = 0; i < RMG__ARRAY_LEN(COLORS); i++)
        if (COLORS[i].subclass == o->color && (COLORS[i].h3_class == 45) == two_way)
            return &COLORS[i];
    return NULL;
}

uint32_t rmg__map_key_colors_used(const struct rmg_map *m)
{
    uint32_t used = 0;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind == RMG_OBJECT_BORDER_GUARD && o->color >= 0 && o->color < RMG__KEY_COLORS)
            used |= 1u << o->color;
    }
    return used;
}

const char *rmg__color_name(const rmg__map_object *o)
{
    /* Border guards and keymaster's tents come in eight colours (class 9/10 subclasses);
     * teleports name the colour of their monolith/portal subclass (the table above). */
    static const char *const keymaster[] = {"light_blue", "green", "red", "dark_blue",
                                            "brown",      "purple", "white", "black"};
    if (o->color < 0)
        return NULL;
    switch (o->kind) {
    case RMG_OBJECT_BORDER_GUARD:
    case RMG_OBJECT_KEYMASTER_TENT:
    case RMG_OBJECT_TREASURE:
        return (size_t)o->color < RMG__ARRAY_LEN(keymaster) ? keymaster[o->color] : NULL;
    case RMG_OBJECT_MONOLITH: {
        const rmg__teleport_color *tc = rmg__teleport_color_of(o);
        return tc ? tc->color : NULL;
    }
    default:
        return NULL;
    }
}
