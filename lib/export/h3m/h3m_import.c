/*
 * An .h3m file as a map of the project's model (rmg_map_from_h3m): terrain, roads and rivers from the
 * tiles, every object at its anchor with its template's footprint, keyed by the content where
 * the class is known (towns, monsters, artifacts, teleports, obstacles by their sprite, the
 * object table by class), each player's main town flagged, and the file's name and description
 * (in UTF-8, rmg__h3m_text_utf8). A read map has no zones; what works on any map (the exports,
 * the accessors, validation of overlaps) works on it.
 */
#include <stdio.h>
#include <string.h>

#include "h3m_export.h"
#include "h3m_kinds.h"
#include "rmg/finish.h"
#include "rmg/h3m.h"
#include "template/h3t/h3t.h"

/* What the map model calls an object of this class (rmg_map_object_kind). */
static rmg_map_object_kind kind_of_class(uint32_t cls)
{
    switch (cls) {
    case 77: case 98: return RMG_OBJECT_TOWN;
    case 53: case 220: return RMG_OBJECT_MINE;
    case 76: case 79: return RMG_OBJECT_RESOURCE;
    case 54: case 71: case 72: case 73: case 74: case 75: case 162: case 163: case 164: return RMG_OBJECT_MONSTER;
    case 43: case 44: case 45: return RMG_OBJECT_MONOLITH;
    case 103: return RMG_OBJECT_GATE;
    case 9: case 212: return RMG_OBJECT_BORDER_GUARD;
    case 10: return RMG_OBJECT_KEYMASTER_TENT;
    case 83: return RMG_OBJECT_SEER_HUT;
    case 87: return RMG_OBJECT_SHIPYARD;
    default:
        /* Decorations and obstacles: the classes the editor files under them (114-211 but the
         * random monsters 162-164). */
        return cls >= 114 && cls <= 211 && (cls < 139 || cls > 146) ? RMG_OBJECT_OBSTACLE : RMG_OBJECT_TREASURE;
    }
}

/* The content's key for an object of this template: an obstacle by its sprite, any other object
 * by its class and subclass (a row placed per subclass, else the class's row); NULL when the
 * content has none. */
static const char *content_key(const struct rmg_content *c, const rmg__h3m_template *t)
{
    const char *by_class = NULL;
    for (int pass = 0; pass < 2; pass++) {
        const rmg__object_def *rows = pass ? c->map_objects : c->objects;
        size_t n = pass ? c->n_map_objects : c->n_objects;
        for (size_t i = 0; i < n; i++) {
            const rmg__object_def *d = &rows[i];
            if (d->map_class < 0 || (uint32_t)d->map_class != t->class_id)
                continue;
            bool obstacle = d->family && !strcmp(d->family, "obstacle");
            if (obstacle) {
                if (d->def && t->def.data && rmg__h3m_same_def(d->def, t->def.data))
                    return d->key;
                continue;
            }
            if (d->map_subclass >= 0 && (uint32_t)d->map_subclass == t->subclass)
                return d->key;
            if (d->map_subclass < 0 && !by_class)
                by_class = d->key;
        }
    }
    return by_class;
}

static long find_by_id(const void *items, size_t n, size_t size, size_t id_offset, uint32_t id)
{
    for (size_t i = 0; i < n; i++) {
        int v;
        memcpy(&v, (const char *)items + i * size + id_offset, sizeof v);
        if (v >= 0 && (uint32_t)v == id)
            return (long)i;
    }
    return -1;
}

/* What the body says that the map model keeps: owners, factions, creatures, counts, heroes. */
static void read_body(const struct rmg_content *c, const rmg__h3m_object *w, const rmg__h3m_template *t,
                      rmg__map_object *o)
{
    switch (w->kind) {
    case RMG__H3M_BODY_TOWN:
        o->owner = w->body->town.owner < 8 ? w->body->town.owner + 1 : 0;
        o->faction = t->class_id == 98 ? (int)t->subclass : RMG_FACTION_NONE;
        o->castle = w->body->town.has_buildings ? false : w->body->town.has_fort != 0;
        break;
    case RMG__H3M_BODY_MONSTER:
        o->count = w->body->monster.count;
        o->creature = t->class_id == 54 ? (int)find_by_id(c->creatures, c->n_creatures, sizeof *c->creatures,
                                                          offsetof(rmg__creature, id), t->subclass)
                                        : -1;
        break;
    case RMG__H3M_BODY_HERO:
        o->hero = (int)find_by_id(c->heroes, c->n_heroes, sizeof *c->heroes, offsetof(rmg__hero, id), w->body->hero.hero);
        o->amount = w->body->hero.data.has_experience ? w->body->hero.data.experience : 0;
        break;
    case RMG__H3M_BODY_OWNED:
        o->owner = w->body->owner < 8 ? (int)w->body->owner + 1 : 0;
        break;
    case RMG__H3M_BODY_RESOURCE:
        o->amount = t->subclass == 6 && t->class_id == 79 ? (int64_t)w->body->resource.amount * 100 : w->body->resource.amount;
        break;
    default:
        break;
    }
    if (t->class_id == 5)
        o->artifact = (int)find_by_id(c->artifacts, c->n_artifacts, sizeof *c->artifacts, offsetof(rmg__artifact, id),
                                      t->subclass);
    if (t->class_id == 43 || t->class_id == 44 || t->class_id == 45 || t->class_id == 9 || t->class_id == 10 ||
        (t->class_id == 212 && t->subclass < 8))
        o->color = (int)t->subclass;
}

static rmg_status read_object(struct rmg_map *m, const struct rmg_content *c, const rmg__h3m_doc *doc,
                              const rmg__h3m_object *w)
{
    const rmg__h3m_template *t = &doc->templates[w->template_index];
    char fallback[32];
    const char *key = c ? content_key(c, t) : NULL;
    if (!key) {
        snprintf(fallback, sizeof fallback, "h3m_%u_%u", t->class_id, t->subclass);
        key = fallback;
    }
    rmg__map_object *o = rmg__map_add_object(m, key, kind_of_class(t->class_id), w->pos.x, w->pos.y, w->pos.z);
    if (!o)
        return RMG_ERR_NOMEM;
    for (int row = 0; row < 6; row++) {
        o->block |= (uint64_t)(uint8_t)~t->passable[row] << (row * 8);
        o->visit |= (uint64_t)t->visitable[row] << (row * 8);
    }
    if (c)
        read_body(c, w, t, o);
    /* Tiles off the map (an anchor right of the edge holds none) are not stamped. */
    rmg__map_stamp_object(m, o);
    return RMG_OK;
}

static void read_tiles(struct rmg_map *m, const rmg__h3m_doc *doc)
{
    const uint8_t *tile = doc->tiles;
    for (size_t t = 0; t < m->n_tiles; t++, tile += RMG__H3M_TILE_BYTES) {
        m->terrain[t] = tile[0];
        m->road[t] = (uint8_t)(tile[4] & 7u);
        /* As the game reads it (the low 3 bits); a value no river has is none. */
        m->river[t] = (tile[2] & 7u) <= RMG_RIVER_LAVA ? (uint8_t)(tile[2] & 7u) : 0;
        if (tile[0] == RMG_TERRAIN_WATER)
            m->flags[t] |= RMG__T_WATER | RMG__T_BLOCKED;
        else if (tile[0] == RMG_TERRAIN_ROCK)
            m->flags[t] |= RMG__T_ROCK | RMG__T_BLOCKED;
    }
}

/* A player's main town: the file names its entrance tile (or, in some editors' files, its anchor). */
static bool at_tile(const struct rmg_map *m, const rmg__map_object *o, rmg__h3m_xyz p)
{
    if (o->z != p.z)
        return false;
    if (o->x == p.x && o->y == p.y)
        return true;
    size_t at = rmg__tile(m->width, m->height, p.x, p.y, p.z);
    uint32_t entries[8];
    size_t n = rmg__object_tiles(m, o, o->visit, entries, 8);
    for (size_t i = 0; i < n && i < 8; i++)
        if (entries[i] == at)
            return true;
    return false;
}

/* Flags each player's main town (the balance report starts there). */
static void mark_main_towns(struct rmg_map *m, const rmg__h3m_doc *doc)
{
    for (int p = 0; p < RMG__H3M_PLAYERS; p++) {
        const rmg__h3m_player *pl = &doc->players[p];
        if (!pl->has_main_town || pl->main_town.x >= m->width || pl->main_town.y >= m->height ||
            pl->main_town.z >= m->levels)
            continue;
        for (size_t i = 0; i < m->objects.count; i++) {
            rmg__map_object *o = &m->objects.items[i];
            if (o->kind == RMG_OBJECT_TOWN && at_tile(m, o, pl->main_town)) {
                o->main = true;
                break;
            }
        }
    }
}

char *rmg__h3m_text_utf8(rmg__arena *arena, const rmg__h3m_str *s)
{
    if (!s->data || !s->len)
        return rmg__arena_strdup(arena, "");
    return rmg__h3t_to_utf8(arena, s->data, s->len, rmg__h3t_detect_encoding(s->data, s->len));
}

static rmg_status set_names(struct rmg_map *m, const rmg__h3m_doc *doc, const char *name)
{
    m->pack_name = rmg__arena_strdup(&m->arena, name ? name : "");
    m->template_name = rmg__h3m_text_utf8(&m->arena, &doc->basic.name);
    m->description = rmg__h3m_text_utf8(&m->arena, &doc->basic.description);
    m->options.width = m->width;
    m->options.height = m->height;
    m->options.levels = m->levels;
    int players = 0;
    for (int p = 0; p < RMG__H3M_PLAYERS; p++)
        players += doc->players[p].can_human || doc->players[p].can_computer;
    m->options.players = players;
    return m->pack_name && m->template_name && m->description ? RMG_OK : rmg__error_nomem(m->ctx);
}

rmg_status rmg_map_from_h3m(rmg_context *ctx, const void *data, size_t len, const char *name, rmg_map **out)
{
    if (!ctx || !data || !out)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_map_from_h3m: NULL argument") : RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg__h3m_doc *doc = NULL;
    rmg_status st = rmg__h3m_read(ctx, data, len, name ? name : "map.h3m", &doc);
    if (st != RMG_OK)
        return st;
    int levels = doc->basic.two_levels ? 2 : 1;
    struct rmg_map *m = NULL;
    st = rmg__map_new(ctx, (int)doc->basic.size, (int)doc->basic.size, levels, &m);
    const struct rmg_content *c = rmg__content_get(ctx);
    if (st == RMG_OK) {
        read_tiles(m, doc);
        st = set_names(m, doc, name);
    }
    for (uint32_t i = 0; st == RMG_OK && i < doc->object_count; i++)
        st = read_object(m, c, doc, &doc->objects[i]);
    if (st == RMG_OK)
        mark_main_towns(m, doc);
    rmg__h3m_doc_free(doc);
    if (st != RMG_OK) {
        rmg__map_free(m);
        return st;
    }
    *out = m;
    return RMG_OK;
}
