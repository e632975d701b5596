/*
 * Map validation (issue 12): checks that a map is playable as the template intends.
 *  - every land zone's free area (passable tiles, guards counted passable) is one region;
 *  - every object's entry tiles (towns, mines, teleports, treasures...) lie in its zone's free
 *    area, and every realized passage joins the free areas of its two zones;
 *  - a guarded group or object is reachable only through its guard: with guard tiles blocked,
 *    the zone's main area (its largest region) reaches none of its entries. The objects stage
 *    lays a cluster around its hub (the guard slot) and seals every other way in
 *    (lib/objects/tiles.c), so a correct map passes;
 *  - no two objects' footprints overlap;
 *  - no content object stands on a terrain its definition does not allow;
 *  - per-map object counts stay within the content's fixed caps (OBJ-07), groups within
 *    RMG__TRS_MAX_OBJECTS objects;
 *  - every real connection is realized, or unrealized with a reason; a realized one has its
 *    passage tiles or its teleport objects;
 *  - the map blocks as the game does: every blocked land tile lies under an object's blocked
 *    mask (in the game only terrain and objects block; a flag alone would be open ground).
 * Violations are collected as text lines. Each check is a rule with the stage responsible for
 * it: the driver retries that stage (lib/driver/generate.c), so a guard reachable around is the
 * objects stage's to mend, an unrealized connection the connect stage's.
 */
#include <stdio.h>
#include <string.h>

#include "map_internal.h"
#include "map_reach.h"

/* The rules checked, each with the stage that makes it hold. A zone's free area is split or an
 * entry cut off by what objects (and the obstacles after them) put down; a retry from objects
 * re-runs those. */
typedef enum rule {
    RULE_FREE_AREA,
    RULE_ENTRY,
    RULE_GUARDED,
    RULE_GROUP_SIZE,
    RULE_OVERLAP,
    RULE_TERRAIN,
    RULE_CAP,
    RULE_CONNECTION,
    RULE_GAME_BLOCKED,
    RULE_PLAYABLE_ZONES,
    RULE_PLAYABLE_SEA,
    RULE_PLAYABLE,
} rule;

static const struct {
    const char *text;
    rmg_stage_id stage;
} rules[] = {
    [RULE_FREE_AREA] = {"a zone's free area is one region", RMG_STAGE_OBJECTS},
    [RULE_ENTRY] = {"every object entry is reachable from its zone's free area", RMG_STAGE_OBJECTS},
    [RULE_GUARDED] = {"a guarded group or object is reachable only through its guard", RMG_STAGE_OBJECTS},
    [RULE_GROUP_SIZE] = {"a treasure group holds at most its object count", RMG_STAGE_OBJECTS},
    [RULE_OVERLAP] = {"no two objects overlap", RMG_STAGE_OBJECTS},
    [RULE_TERRAIN] = {"an object stands on a terrain it allows (OBJ-08)", RMG_STAGE_OBJECTS},
    [RULE_CAP] = {"object counts within their fixed caps (OBJ-07)", RMG_STAGE_OBJECTS},
    [RULE_CONNECTION] = {"every connection realized, or unrealized with a reason", RMG_STAGE_CONNECT},
    [RULE_GAME_BLOCKED] = {"every blocked land tile (and sealed water) is blocked by an object, as in the game",
                           RMG_STAGE_FINISH},
    [RULE_PLAYABLE_ZONES] = {"every player reaches every zone, as the game moves heroes", RMG_STAGE_CONNECT},
    [RULE_PLAYABLE_SEA] = {"every player reaches every island, as the game moves heroes", RMG_STAGE_PLACE},
    [RULE_PLAYABLE] = {"every player reaches every town and object, as the game moves heroes", RMG_STAGE_OBJECTS},
};

/* Per tile, what the flood fills need to know (one byte, built once): whether the tile is
 * walkable, a guard's, and on which edges of its level it lies. */
enum {
    CELL_WALK = 1,  /* passable (rmg__map_tile_walkable) and not a guard's */
    CELL_GUARD = 2, /* a guard stands there: walkable only when guards count as passable */
    CELL_LEFT = 4,
    CELL_RIGHT = 8,
    CELL_TOP = 16,
    CELL_BOTTOM = 32,
    CELL_EDGE = CELL_LEFT | CELL_RIGHT | CELL_TOP | CELL_BOTTOM,
};

typedef struct validator {
    const struct rmg_map *m;
    rmg_context *ctx;
    rmg__buf report;
    size_t count;
    rule first_rule;   /* the first violation's rule and map zone id (0 none) */
    int first_zone;
    uint8_t *cell;     /* per tile: CELL_* bits */
    uint32_t *label;   /* per tile: component label of its zone's free area (guards passable), 0 none */
    uint32_t *sealed;  /* the same with guard tiles blocked */
    uint32_t *main;    /* per zone id: label (in sealed) of the zone's largest region, 0 none */
    uint32_t *queue;
    size_t n_zone_ids; /* per-zone arrays cover zone ids 0..n_zone_ids-1 */
} validator;

static void violation(validator *v, rule r, int zone, const char *fmt, ...) RMG__PRINTF(4, 5);

/* Records a violation of rule r in map zone `zone` (0: none). */
static void violation(validator *v, rule r, int zone, const char *fmt, ...)
{
    if (v->count == 0) {
        v->first_rule = r;
        v->first_zone = zone;
    }
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (v->count < 1000) {
        rmg__buf_puts(&v->report, line);
        rmg__buf_putc(&v->report, '\n');
    }
    v->count++;
}

static void classify_cells(validator *v)
{
    const struct rmg_map *m = v->m;
    int w = m->width, h = m->height;
    size_t t = 0;
    for (int z = 0; z < m->levels; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++, t++) {
                uint8_t c = (m->flags[t] & RMG__T_GUARD) ? CELL_GUARD : rmg__map_tile_walkable(m, t) ? CELL_WALK : 0;
                c |= (uint8_t)((x == 0 ? CELL_LEFT : 0) | (x == w - 1 ? CELL_RIGHT : 0) | (y == 0 ? CELL_TOP : 0) |
                               (y == h - 1 ? CELL_BOTTOM : 0));
                v->cell[t] = c;
            }
}

/* One more than the largest zone id on the tiles or in the zone list: the size of the per-zone
 * arrays (zone ids are uint16_t; a small map needs only a few entries). */
static size_t zone_id_bound(const struct rmg_map *m)
{
    uint16_t top = 0;
    for (size_t t = 0; t < m->n_tiles; t++)
        if (m->tile_zone[t] > top)
            top = m->tile_zone[t];
    size_t bound = (size_t)top + 1;
    for (size_t i = 0; i < m->zones.count; i++) {
        int id = m->zones.items[i].id;
        if (id >= 0 && id <= UINT16_MAX && (size_t)id >= bound)
            bound = (size_t)id + 1;
    }
    return bound;
}

static bool walkable(const validator *v, size_t t, bool guards_pass)
{
    uint8_t c = v->cell[t];
    return (c & CELL_WALK) || (guards_pass && (c & CELL_GUARD));
}

/* Floods one region of `zone` from `start` (8 directions: heroes move diagonally too), giving
 * its tiles `mark`. Returns the region's size. */
static size_t flood(validator *v, uint32_t *label, size_t start, uint32_t mark, bool guards_pass)
{
    const struct rmg_map *m = v->m;
    const ptrdiff_t w = m->width;
    /* The 8 neighbours' offsets, and the edges a tile must not lie on for each to exist. */
    const ptrdiff_t step[8] = {-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1};
    static const uint8_t off_edge[8] = {CELL_TOP | CELL_LEFT, CELL_TOP, CELL_TOP | CELL_RIGHT, CELL_LEFT,
                                        CELL_RIGHT, CELL_BOTTOM | CELL_LEFT, CELL_BOTTOM, CELL_BOTTOM | CELL_RIGHT};
    uint8_t need = guards_pass ? CELL_WALK | CELL_GUARD : CELL_WALK;
    uint16_t zone = m->tile_zone[start];
    size_t head = 0, tail = 0;
    label[start] = mark;
    v->queue[tail++] = (uint32_t)start;
    while (head < tail) {
        size_t t = v->queue[head++];
        uint8_t edges = v->cell[t] & CELL_EDGE;
        for (int k = 0; k < 8; k++) {
            if (edges && (edges & off_edge[k])) /* most tiles lie off every edge */
                continue;
            size_t n = (size_t)((ptrdiff_t)t + step[k]);
            if (!label[n] && (v->cell[n] & need) && m->tile_zone[n] == zone) {
                label[n] = mark;
                v->queue[tail++] = (uint32_t)n;
            }
        }
    }
    return tail;
}

/* Labels the regions of walkable tiles, per zone. With comps, counts each zone's regions
 * (comps[zone id]); with main, records each zone's largest region (main[zone id], its size in
 * sizes[zone id]). */
static void label_components(validator *v, uint32_t *label, bool guards_pass, uint32_t *comps, uint32_t *main,
                             uint32_t *sizes)
{
    const struct rmg_map *m = v->m;
    uint32_t next = 0;
    for (size_t start = 0; start < m->n_tiles; start++) {
        if (label[start] || !walkable(v, start, guards_pass))
            continue;
        uint16_t zone = m->tile_zone[start];
        size_t size = flood(v, label, start, ++next, guards_pass);
        if (comps)
            comps[zone]++;
        if (main && size > sizes[zone]) {
            main[zone] = next;
            sizes[zone] = (uint32_t)size;
        }
    }
}

static void check_zone_areas(validator *v, const uint32_t *comps)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        if (z->kind == RMG_ZONE_ROCK || z->kind == RMG_ZONE_WATER)
            continue;
        uint32_t parts = z->id >= 0 && (size_t)z->id < v->n_zone_ids ? comps[z->id] : 0;
        if (parts == 0)
            violation(v, RULE_FREE_AREA, z->id, "zone %d (template zone %d): no free tile", z->id, z->tpl_id);
        else if (parts > 1)
            violation(v, RULE_FREE_AREA, z->id, "zone %d (template zone %d): free area split into %u parts", z->id, z->tpl_id, parts);
    }
}

static void check_objects(validator *v)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind == RMG_OBJECT_OBSTACLE || o->kind == RMG_OBJECT_MONSTER || !o->visit)
            continue;
        uint32_t entry[1];
        if (rmg__object_tiles(m, o, o->visit, entry, 1) && (m->flags[entry[0]] & RMG__T_WATER))
            continue; /* at sea: boats reach it, which the game's rules judge (check_playable) */
        uint32_t cells[RMG__FOOTPRINT_CELLS];
        bool outside;
        size_t n = rmg__footprint_indices(m, o->visit, o->x, o->y, o->z, cells, &outside), reached = 0;
        for (size_t k = 0; k < n; k++)
            reached += v->label[cells[k]] != 0;
        if (outside)
            violation(v, RULE_ENTRY, o->zone, "object %u (%s) at %d,%d,%d: footprint leaves the map", o->id, o->key ? o->key : "?", o->x,
                      o->y, o->z);
        else if (!reached)
            violation(v, RULE_ENTRY, o->zone, "object %u (%s) at %d,%d,%d: entry not reachable", o->id, o->key ? o->key : "?", o->x, o->y,
                      o->z);
    }
}

static void check_overlaps(validator *v, uint32_t *owner)
{
    const struct rmg_map *m = v->m;
    size_t plane = (size_t)m->width * (size_t)m->height;
    memset(owner, 0, m->n_tiles * sizeof *owner);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        uint32_t cells[RMG__FOOTPRINT_CELLS];
        size_t n = rmg__footprint_indices(m, o->block | o->visit, o->x, o->y, o->z, cells, NULL);
        for (size_t k = 0; k < n; k++) {
            uint32_t t = cells[k];
            if (owner[t] && owner[t] != o->id)
                violation(v, RULE_OVERLAP, o->zone, "objects %u and %u overlap at %d,%d,%d", owner[t], o->id,
                          (int)(t % plane % (size_t)m->width), (int)(t % plane / (size_t)m->width), o->z);
            owner[t] = o->id;
        }
    }
}

/* ---- guarded groups and objects --------------------------------------------------------- */

/* True when an entry of o is in its zone's main region with every guard standing. */
static bool reached_past_guards(validator *v, const rmg__map_object *o)
{
    uint32_t cells[RMG__FOOTPRINT_CELLS];
    size_t n = rmg__footprint_indices(v->m, o->visit, o->x, o->y, o->z, cells, NULL);
    for (size_t k = 0; k < n; k++) {
        uint32_t main = v->main[v->m->tile_zone[cells[k]]];
        if (main && v->sealed[cells[k]] == main)
            return true;
    }
    return false;
}

static void check_guarded(validator *v)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->groups.count; i++) {
        const rmg__map_group *g = &m->groups.items[i];
        if (g->objects.count > RMG__TRS_MAX_OBJECTS)
            violation(v, RULE_GROUP_SIZE, g->zone, "group %u (zone %d): %zu objects, more than %d", g->id, g->zone, g->objects.count,
                      RMG__TRS_MAX_OBJECTS);
        if (!g->guard)
            continue;
        for (size_t k = 0; k < g->objects.count; k++) {
            uint32_t id = g->objects.items[k];
            if (id == 0 || id > m->objects.count)
                continue;
            const rmg__map_object *o = &m->objects.items[id - 1];
            if (reached_past_guards(v, o))
                violation(v, RULE_GUARDED, g->zone, "group %u (zone %d): object %u (%s) at %d,%d,%d is reachable without passing guard %u",
                          g->id, g->zone, o->id, o->key ? o->key : "?", o->x, o->y, o->z, g->guard);
        }
    }
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (!o->guard || o->group || o->kind == RMG_OBJECT_MONSTER)
            continue;
        if (reached_past_guards(v, o))
            violation(v, RULE_GUARDED, o->zone, "object %u (%s) at %d,%d,%d: reachable without passing guard %u", o->id,
                      o->key ? o->key : "?", o->x, o->y, o->z, o->guard);
    }
}

/* ---- terrains and counts ----------------------------------------------------------------- */

static void check_terrains_and_counts(validator *v, const struct rmg_content *c, uint32_t *per_def)
{
    const struct rmg_map *m = v->m;
    memset(per_def, 0, c->n_objects * sizeof *per_def);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (!o->key || o->kind == RMG_OBJECT_MONSTER || o->kind == RMG_OBJECT_OBSTACLE)
            continue;
        long d = rmg__content_find_object(c, o->key);
        if (d < 0)
            continue; /* a map object (town, teleport, dwelling variant...): no content rules */
        const rmg__object_def *def = &c->objects[d];
        /* WAT-03: a mirror copy duplicates the surface, whose generation obeyed the caps. */
        if (!rmg__map_mirror_of(m, o->zone))
            per_def[d]++;
        /* OBJ-08 binds the zone's terrain after conversion (ZON-14), not the tile under the
         * anchor, which may lie outside the footprint (on a shore, on rock). */
        if (def->terrains && !def->terrains_na && o->zone > 0 && (size_t)o->zone <= m->zones.count) {
            int terrain = m->zones.items[o->zone - 1].terrain;
            if (terrain < 0 || terrain >= 32 || !(def->terrains & ((uint32_t)1 << terrain)))
                violation(v, RULE_TERRAIN, o->zone, "object %u (%s) at %d,%d,%d: zone %d's terrain %d is not one it allows (OBJ-08)", o->id,
                          o->key, o->x, o->y, o->z, o->zone, terrain);
        }
    }
    for (size_t d = 0; d < c->n_objects; d++) {
        const rmg__object_def *def = &c->objects[d];
        if (def->max_map_fixed && def->max_map >= 0 && per_def[d] > def->max_map)
            violation(v, RULE_CAP, 0, "object %s: %u on the map, more than its fixed cap %lld (OBJ-07)", def->key, per_def[d],
                      (long long)def->max_map);
    }
}

/* ---- connections ------------------------------------------------------------------------- */

typedef struct passage_check {
    validator *v;
    const rmg__map_connection *c;
    bool touches_a, touches_b, blocked;
} passage_check;

static void passage_neighbours(passage_check *p, size_t t)
{
    const struct rmg_map *m = p->v->m;
    int w = m->width, h = m->height;
    size_t plane = (size_t)w * (size_t)h;
    int z = (int)(t / plane), y = (int)((t % plane) / (size_t)w), x = (int)(t % (size_t)w);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            size_t n = rmg__tile(w, h, nx, ny, z);
            if (!p->v->label[n])
                continue;
            p->touches_a |= m->tile_zone[n] == p->c->zone_a;
            p->touches_b |= m->tile_zone[n] == p->c->zone_b;
        }
}

/* A land passage: its tiles are walkable (guards passable) and join both zones' free areas. */
static void check_passage(validator *v, const rmg__map_connection *c)
{
    passage_check p = {v, c, false, false, false};
    for (size_t k = 0; k < c->tiles.count; k++) {
        size_t t = c->tiles.items[k];
        if (t >= v->m->n_tiles || !v->label[t]) {
            p.blocked = true;
            continue;
        }
        passage_neighbours(&p, t);
    }
    if (!c->tiles.count)
        violation(v, RULE_CONNECTION, c->zone_a, "connection %d (zones %d-%d): realized as a passage without passage tiles", c->id, c->zone_a,
                  c->zone_b);
    else if (p.blocked)
        violation(v, RULE_CONNECTION, c->zone_a, "connection %d (zones %d-%d): a passage tile is blocked", c->id, c->zone_a, c->zone_b);
    else if (!p.touches_a || !p.touches_b)
        violation(v, RULE_CONNECTION, c->zone_a, "connection %d (zones %d-%d): the passage does not join both zones' free areas", c->id,
                  c->zone_a, c->zone_b);
}

static void check_connections(validator *v)
{
    const struct rmg_map *m = v->m;
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        switch (c->realized) {
        case RMG_REALIZED_UNREALIZED:
            if (!c->why)
                violation(v, RULE_CONNECTION, c->zone_a, "connection %d (zones %d-%d) is not realized and no reason is given", c->id, c->zone_a,
                          c->zone_b);
            break;
        case RMG_REALIZED_PASSAGE:
        case RMG_REALIZED_WIDE:
        case RMG_REALIZED_GATE:
        case RMG_REALIZED_BORDER_GUARD:
            check_passage(v, c);
            break;
        case RMG_REALIZED_MONOLITH:
        case RMG_REALIZED_ONE_WAY_MONOLITH:
            if (c->objects.count < 2)
                violation(v, RULE_CONNECTION, c->zone_a, "connection %d (zones %d-%d): realized by teleports but has %zu teleport object(s)",
                          c->id, c->zone_a, c->zone_b, c->objects.count);
            break;
        default:
            break;
        }
    }
}

/* ---- the game's blocking ---------------------------------------------------------------------- */

static void check_game_blocking(validator *v)
{
    const struct rmg_map *m = v->m;
    size_t plane = (size_t)m->width * (size_t)m->height, n = 0;
    size_t first = 0;
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t f = m->flags[t];
        /* A tile under an object is blocked by it: the stages flag BLOCKED only what a footprint
         * covers or what an obstacle is to cover. */
        /* Water sealed around a treasure group at sea (OBSTACLE) must hold an obstacle too. */
        bool sealed_water = (f & (RMG__T_WATER | RMG__T_OBSTACLE)) == (RMG__T_WATER | RMG__T_OBSTACLE);
        if (((f & (RMG__T_BLOCKED | RMG__T_WATER | RMG__T_ROCK)) != RMG__T_BLOCKED && !sealed_water) || m->tile_object[t])
            continue;
        if (n++ == 0)
            first = t;
    }
    /* One violation for all: they share one cause (no obstacle of a zone's terrain fitted). */
    if (n)
        violation(v, RULE_GAME_BLOCKED, m->tile_zone[first],
                  "%zu blocked land tile(s) lie under no object, first %d,%d,%d (zone %d): the game would treat them as "
                  "open ground (no obstacle of the zone's terrain fits there)",
                  n, (int)(first % plane % (size_t)m->width), (int)(first % plane / (size_t)m->width), (int)(first / plane),
                  m->tile_zone[first]);
}

/* ---- playable as the game moves heroes --------------------------------------------------------- */

/* Zones a flood touched: a tile of the zone reached on foot or by boat. */
static void reached_zones(const struct rmg_map *m, const rmg__reach *r, uint8_t *zone_hit, size_t n_zone_ids)
{
    memset(zone_hit, 0, n_zone_ids);
    for (size_t t = 0; t < m->n_tiles; t++)
        if (r->tile[t] && m->tile_zone[t] < n_zone_ids)
            zone_hit[m->tile_zone[t]] = 1;
}

/* One line per player: what the player's hero cannot reach from the main town (the first
 * object missed and how many) in the zones he must reach (asked_zones; a zone the template
 * leaves to flying heroes is not asked for). An object missed in a zone the hero never enters
 * is the connections' to mend (on water maps the placement's, which left it inland), one in a
 * zone he enters the objects'. */
/* The zones a player must reach: those the map joins him to, every player's start zone (players
 * who cannot meet make no game) and, on water maps, every zone a connection touches (islands
 * are meant to be reached by sea; a group of zones the placement left inland is not). */
static void asked_zones(validator *v, const rmg__reach *r, uint32_t start, uint8_t *meant)
{
    const struct rmg_map *m = v->m;
    rmg__reach_zones(r, m->tile_zone[start], true, meant, v->n_zone_ids, v->queue);
    for (size_t i = 0; i < m->zones.count; i++)
        if (m->zones.items[i].owner > 0 && (size_t)m->zones.items[i].id < v->n_zone_ids)
            meant[m->zones.items[i].id] = 1;
    if (m->options.water == RMG_WATER_NONE)
        return;
    for (size_t i = 0; i < m->conns.count; i++) {
        const rmg__map_connection *c = &m->conns.items[i];
        if (c->realized == RMG_REALIZED_FICTIVE || c->realized == RMG_REALIZED_UNREALIZED)
            continue;
        if (c->zone_a > 0 && (size_t)c->zone_a < v->n_zone_ids)
            meant[c->zone_a] = 1;
        if (c->zone_b > 0 && (size_t)c->zone_b < v->n_zone_ids)
            meant[c->zone_b] = 1;
    }
}

/* The first object asked for (meant, per zone id) that neither `reached` nor `also` (may be
 * NULL) holds; the count in *missed. */
static size_t first_missed(const validator *v, const rmg__reach *r, const uint8_t *meant, const uint8_t *reached,
                           const uint8_t *also, size_t *missed)
{
    const struct rmg_map *m = v->m;
    size_t first = 0;
    *missed = 0;
    for (size_t i = 0; i < m->objects.count; i++) {
        /* The byte arrays first: most objects are obstacles (no behaviour), whose records the
         * loop then never reads (it runs twice per player over every object). */
        if (!r->beh[i] || reached[i] || (also && also[i]))
            continue;
        int z = m->objects.items[i].zone;
        bool asked = z > 0 && (size_t)z < v->n_zone_ids && meant[z];
        if (asked && (*missed)++ == 0)
            first = i;
    }
    return first;
}

/* `first` holds what the first player's hero reaches (NULL for the first player): a later hero
 * who reaches the first one's town reaches all of it, so his flood stops there. */
static void check_player(validator *v, rmg__reach *r, int player, uint32_t start, uint8_t *zone_hit, uint8_t *meant,
                         const uint8_t *first, uint32_t first_start)
{
    const struct rmg_map *m = v->m;
    asked_zones(v, r, start, meant);
    size_t missed;
    if (first && rmg__reach_from(r, start, 0, first_start)) {
        first_missed(v, r, meant, r->object, first, &missed);
        if (!missed)
            return;
    }
    rmg__reach_from(r, start, 0, UINT32_MAX);
    reached_zones(m, r, zone_hit, v->n_zone_ids);
    size_t i = first_missed(v, r, meant, r->object, NULL, &missed);
    if (!missed)
        return;
    const rmg__map_object *o = &m->objects.items[i];
    bool zone_entered = o->zone >= 0 && (size_t)o->zone < v->n_zone_ids && zone_hit[o->zone];
    rule broken = zone_entered ? RULE_PLAYABLE : m->options.water != RMG_WATER_NONE ? RULE_PLAYABLE_SEA : RULE_PLAYABLE_ZONES;
    violation(v, broken, o->zone,
              "player %d's hero cannot reach %zu object(s) from the main town, first %s %u at %d,%d,%d (zone %d%s)",
              player, missed, o->key ? o->key : "object", o->id, o->x, o->y, o->z, o->zone,
              zone_entered ? "" : ", a zone the hero never enters");
}

static rmg_status check_playable(validator *v, const struct rmg_content *content)
{
    const struct rmg_map *m = v->m;
    rmg__reach r;
    size_t n_obj = m->objects.count ? m->objects.count : 1;
    uint8_t *zone_hit = rmg__malloc(v->ctx, 2 * (v->n_zone_ids ? v->n_zone_ids : 1));
    uint8_t *first = rmg__malloc(v->ctx, n_obj);
    rmg_status st = zone_hit && first ? rmg__reach_init(&r, m, content, v->ctx) : rmg__error_nomem(v->ctx);
    if (st != RMG_OK) {
        rmg__free(v->ctx, zone_hit);
        rmg__free(v->ctx, first);
        return st;
    }
    uint32_t first_start = UINT32_MAX;
    for (int p = 1; p <= 8; p++) {
        uint32_t start = rmg__reach_start(m, p);
        if (start == UINT32_MAX)
            continue;
        check_player(v, &r, p, start, zone_hit, zone_hit + v->n_zone_ids, first_start == UINT32_MAX ? NULL : first,
                     first_start);
        if (first_start == UINT32_MAX) {
            first_start = start;
            memcpy(first, r.object, n_obj);
        }
    }
    rmg__reach_free(&r);
    rmg__free(v->ctx, zone_hit);
    rmg__free(v->ctx, first);
    return RMG_OK;
}

/* Inside generation the checks stop for a cancel or the time budget (a large map's flood fills
 * take a while); rmg_map_validate on a finished map always runs to the end. */
static rmg_status checkpoint(const validator *v, bool stoppable, double fraction)
{
    return stoppable ? rmg__check_stop(v->ctx, "validate", fraction) : RMG_OK;
}

static rmg_status run_checks(validator *v, const struct rmg_content *content, uint32_t *comps, bool stoppable)
{
    rmg_status st = checkpoint(v, stoppable, 0.0);
    if (st != RMG_OK)
        return st;
    classify_cells(v);
    v->main = comps + v->n_zone_ids;
    label_components(v, v->label, true, comps, NULL, NULL);
    if ((st = checkpoint(v, stoppable, 0.3)) != RMG_OK)
        return st;
    label_components(v, v->sealed, false, NULL, v->main, comps + 2 * v->n_zone_ids);
    if ((st = checkpoint(v, stoppable, 0.6)) != RMG_OK)
        return st;
    check_zone_areas(v, comps);
    check_objects(v);
    check_guarded(v);
    check_connections(v);
    check_overlaps(v, v->queue);
    check_terrains_and_counts(v, content, v->queue);
    check_game_blocking(v);
    if ((st = checkpoint(v, stoppable, 0.8)) != RMG_OK)
        return st;
    return check_playable(v, content);
}

/* Runs every check on m; on RMG_OK, v->count violations are in v->report (the caller frees it). */
static rmg_status validate(validator *v, const struct rmg_map *m, rmg_context *ctx, bool stoppable)
{
    memset(v, 0, sizeof *v);
    v->m = m;
    v->ctx = ctx;
    const struct rmg_content *content = rmg__content_get(ctx);
    if (!content)
        return rmg_context_errcode(ctx) ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    rmg__buf_init(&v->report, ctx);
    v->label = rmg__calloc(ctx, m->n_tiles, sizeof *v->label);
    v->sealed = rmg__calloc(ctx, m->n_tiles, sizeof *v->sealed);
    v->queue = rmg__malloc(ctx, (m->n_tiles > content->n_objects ? m->n_tiles : content->n_objects) * sizeof *v->queue);
    v->cell = rmg__malloc(ctx, m->n_tiles ? m->n_tiles : 1);
    /* comps, main and sizes: three per-zone arrays. */
    v->n_zone_ids = zone_id_bound(m);
    uint32_t *comps = rmg__calloc(ctx, 3 * v->n_zone_ids, sizeof *comps);
    rmg_status st = RMG_OK;
    if (!v->label || !v->sealed || !v->queue || !v->cell || !comps)
        st = rmg__error_nomem(ctx);
    else
        st = run_checks(v, content, comps, stoppable);
    rmg__free(ctx, comps);
    rmg__free(ctx, v->label);
    rmg__free(ctx, v->sealed);
    rmg__free(ctx, v->queue);
    rmg__free(ctx, v->cell);
    if (st == RMG_OK && v->report.failed)
        st = rmg__error_nomem(ctx);
    if (st != RMG_OK)
        rmg__buf_free(&v->report);
    return st;
}

rmg_status rmg_map_validate(const rmg_map *map, char **report, size_t *count)
{
    if (!map || !count)
        return RMG_ERR_INVALID_ARG;
    if (report)
        *report = NULL;
    validator v;
    rmg_status st = validate(&v, map, map->ctx, false);
    if (st != RMG_OK)
        return st;
    *count = v.count;
    if (!report) {
        rmg__buf_free(&v.report);
        return RMG_OK;
    }
    *report = rmg__buf_take(&v.report);
    return *report ? RMG_OK : rmg__error_nomem(map->ctx);
}

/* The error names the stage responsible for the first violation's rule (the driver retries
 * it), the template zone and the rule. */
rmg_status rmg__map_validate_internal(const struct rmg_map *m, rmg_context *ctx)
{
    validator v;
    rmg_status st = validate(&v, m, ctx, true);
    if (st != RMG_OK)
        return st;
    if (v.count) {
        const char *first = v.report.data ? v.report.data : "";
        const char *nl = memchr(first, '\n', v.report.len);
        int len = nl ? (int)(nl - first) : (int)v.report.len;
        const rmg__map_zone *z = v.first_zone > 0 && (size_t)v.first_zone <= m->zones.count
                                     ? &m->zones.items[v.first_zone - 1]
                                     : NULL;
        st = rmg__error_gen(ctx, RMG_ERR_IMPOSSIBLE, rmg__stage_name(rules[v.first_rule].stage),
                            z && z->tpl_id > 0 ? z->tpl_id : -1, -1,
                            "map validation: rule '%s' broken (%zu violation(s)); first: %.*s",
                            rules[v.first_rule].text, v.count, len, first);
    }
    rmg__buf_free(&v.report);
    return st;
}
