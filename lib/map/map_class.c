/*
 * Which game object a map object is: its class and subclass as the .h3m file and the game's
 * rules know them (teleport channels, visiting directions), from the content's rows.
 */
#include <stddef.h>
#include <string.h>

#include "map_internal.h"

const rmg__object_def *rmg__map_object_def(const struct rmg_content *c, const char *key)
{
    long k = rmg__content_find_object(c, key);
    if (k >= 0)
        return &c->objects[k];
    k = rmg__content_find_map_object(c, key);
    return k >= 0 ? &c->map_objects[k] : NULL;
}

/* A creature dwelling of the generic row takes the subclass of the creature's dwelling map
 * object whose footprint it was placed with (a creature may have several graphics). */
static int dwelling_subclass(const struct rmg_content *c, const rmg__map_object *o)
{
    int fallback = -1;
    for (size_t i = 0; i < c->n_map_objects; i++) {
        const rmg__object_def *d = &c->map_objects[i];
        if (strcmp(d->family, "creature_dwelling") != 0 || d->n_creatures < 1 || d->creatures[0] != o->creature)
            continue;
        if (d->footprint.block == o->block && d->footprint.visit == o->visit)
            return d->map_subclass;
        if (fallback < 0)
            fallback = d->map_subclass;
    }
    return fallback;
}

static int indexed_id(int index, size_t count, const void *items, size_t item_size, size_t id_offset)
{
    if (index < 0 || (size_t)index >= count)
        return -1;
    int id;
    memcpy(&id, (const char *)items + (size_t)index * item_size + id_offset, sizeof id);
    return id;
}

/* The subclass a placement decides (the content row says -1): a town's faction, a monster's
 * creature, an artifact's id, a coloured object's colour, a dwelling's creature. */
static int placed_subclass(const struct rmg_content *c, const rmg__object_def *d, const rmg__map_object *o)
{
    switch (d->map_class) {
    case 98: /* town */
        return o->faction;
    case 54: /* monster */
        return indexed_id(o->creature, c->n_creatures, c->creatures, sizeof *c->creatures,
                          offsetof(rmg__creature, id));
    case 5: /* artifact */
        return indexed_id(o->artifact, c->n_artifacts, c->artifacts, sizeof *c->artifacts,
                          offsetof(rmg__artifact, id));
    case 17: /* creature dwelling */
        return dwelling_subclass(c, o);
    default: /* keymaster tents and the other coloured objects */
        return o->color;
    }
}

bool rmg__map_object_class(const struct rmg_content *c, const rmg__map_object *o, int *cls, int *subclass)
{
    const rmg__object_def *d = o->key ? rmg__map_object_def(c, o->key) : NULL;
    if (!d || d->map_class < 0)
        return false;
    *cls = d->map_class;
    *subclass = d->map_subclass;
    /* A quest artifact's row is its whole package (the hut with the quest, MIS-13/14): the object
     * lying on the map is the artifact itself. */
    if (strncmp(d->family, "seer_artifact_", 14) == 0 && o->kind != RMG_OBJECT_SEER_HUT) {
        *cls = 5;
        *subclass = indexed_id(o->artifact, c->n_artifacts, c->artifacts, sizeof *c->artifacts,
                               offsetof(rmg__artifact, id));
        return *subclass >= 0;
    }
    /* Teleports and gates of a colour are one content row per kind: the colour is the subclass. */
    if (o->kind == RMG_OBJECT_MONOLITH || o->kind == RMG_OBJECT_BORDER_GUARD || o->kind == RMG_OBJECT_KEYMASTER_TENT)
        *subclass = o->color >= 0 ? o->color : *subclass;
    else if (*subclass < 0)
        *subclass = placed_subclass(c, d, o);
    return *subclass >= 0;
}

bool rmg__map_file_class(const char *key, int *cls, int *subclass)
{
    if (!key || strncmp(key, "h3m_", 4) != 0 || key[4] < '0' || key[4] > '9')
        return false;
    const char *p = key + 4;
    long v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        for (; *p >= '0' && *p <= '9'; p++)
            v[k] = v[k] < 100000 ? v[k] * 10 + (*p - '0') : v[k];
        if (k == 0 && *p++ != '_')
            return false;
    }
    *cls = (int)v[0];
    *subclass = (int)v[1];
    return true;
}

bool rmg__map_visitable_from_top(int cls)
{
    /* A bit per class: 5, 6, 8, 9, 11, 12, 22, 29, 33, 34, 36, 54, 59, 65-76, 79, 81, 82, 86, 93,
     * 101, 111, 162-164, 212, 214, 215, 219. */
    static const uint32_t bits[8] = {
        (1u << 5) | (1u << 6) | (1u << 8) | (1u << 9) | (1u << 11) | (1u << 12) | (1u << 22) | (1u << 29),
        (1u << (33 - 32)) | (1u << (34 - 32)) | (1u << (36 - 32)) | (1u << (54 - 32)) | (1u << (59 - 32)),
        (1u << (65 - 64)) | (1u << (66 - 64)) | (1u << (67 - 64)) | (1u << (68 - 64)) | (1u << (69 - 64)) |
            (1u << (70 - 64)) | (1u << (71 - 64)) | (1u << (72 - 64)) | (1u << (73 - 64)) | (1u << (74 - 64)) |
            (1u << (75 - 64)) | (1u << (76 - 64)) | (1u << (79 - 64)) | (1u << (81 - 64)) | (1u << (82 - 64)) |
            (1u << (86 - 64)) | (1u << (93 - 64)),
        (1u << (101 - 96)) | (1u << (111 - 96)),
        0,
        (1u << (162 - 160)) | (1u << (163 - 160)) | (1u << (164 - 160)),
        (1u << (212 - 192)) | (1u << (214 - 192)) | (1u << (215 - 192)) | (1u << (219 - 192)),
        0,
    };
    return cls >= 0 && cls < 256 && (bits[cls / 32] >> (cls % 32) & 1u);
}
