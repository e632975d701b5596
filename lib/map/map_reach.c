/*
 * Where a hero can go, as the game decides it (issue 19). The model:
 *  - on foot a hero steps to any of the 8 neighbours that is land no object blocks;
 *  - an object is visited by stepping onto one of its entry tiles from a neighbour; most objects
 *    cannot be entered from the three tiles above the entry (the game opens that side only for
 *    monsters, heroes, artifacts, resources and treasure, and a few more classes:
 *    rmg__map_visitable_from_top);
 *    after the visit the hero stands on the entry and may step on in any direction;
 *  - monsters are fought: a monster's tile is open once it is beaten. With RMG__REACH_NO_FIGHT
 *    a hero refuses every fight: a monster's tile and its 8 neighbours (its zone of control,
 *    where it attacks) stop him;
 *  - a two-way monolith leads to the other teleports of its class and colour, a one-way
 *    entrance to the one-way exits of its colour only (when the map has no exit of the colour,
 *    its entrances lead to each other, as the guide says of mirror links, ZON-36), a
 *    subterranean gate to the gate the game pairs it with (gate_pairs());
 *  - a Border Guard (or Border Gate) opens once a Keymaster's Tent of its colour was visited;
 *  - a visited shipyard builds a boat where the game puts it (rmg__map_boat_spot), boarded like
 *    a Boat object from a neighbouring tile; a boat sails over water no object blocks, visits
 *    water objects and lands on any free land neighbour.
 */
#include <stdlib.h>
#include <string.h>

#include "map_internal.h"
#include "map_reach.h"

static bool monster_class(int cls)
{
    return cls == 54 || (cls >= 71 && cls <= 75) || (cls >= 162 && cls <= 164);
}

/* Class and subclass from the content, else from what the map says of the object. */
static void classify(const struct rmg_content *c, const rmg__map_object *o, int *cls, int *sub)
{
    if (c && rmg__map_object_class(c, o, cls, sub))
        return;
    if (rmg__map_file_class(o->key, cls, sub))
        return; /* a file's teleports and locks carry their colour in the subclass, as placed ones do */
    *sub = o->color;
    switch (o->kind) {
    case RMG_OBJECT_MONSTER: *cls = 54; break;
    case RMG_OBJECT_TOWN: *cls = 98; break;
    case RMG_OBJECT_GATE: *cls = 103; break;
    case RMG_OBJECT_BORDER_GUARD: *cls = 9; break;
    case RMG_OBJECT_KEYMASTER_TENT: *cls = 10; break;
    case RMG_OBJECT_SHIPYARD: *cls = 87; break;
    case RMG_OBJECT_BOAT: *cls = 8; break;
    case RMG_OBJECT_MONOLITH:
        *cls = !o->key ? 45 : !strcmp(o->key, "monolith_one_way_entrance") ? 43 : !strcmp(o->key, "monolith_one_way_exit") ? 44 : 45;
        break;
    default: *cls = -1; break;
    }
}

/* Colours of Border Guards, Border Gates and Keymaster's Tents: the game's eight. */
#define KEY_COLOURS 8

static rmg__reach_behaviour behaviour_of(int cls, int sub)
{
    if (monster_class(cls))
        return RMG__BEH_MONSTER;
    switch (cls) {
    case 43: case 45: return RMG__BEH_TELEPORT;
    case 44: return RMG__BEH_EXIT;
    case 103: return RMG__BEH_GATE;
    case 9: return RMG__BEH_LOCK;
    /* HotA numbers more objects under the Border Gate's class: the Quest Gate (subclass 1000)
     * stays shut to a model that knows no quests (a lock no tent opens), the Grave (1001) is a
     * plain object a hero visits and stands on. */
    case 212: return sub == 1001 ? RMG__BEH_PLAIN : RMG__BEH_LOCK;
    case 10: return sub >= 0 && sub < KEY_COLOURS ? RMG__BEH_TENT : RMG__BEH_PLAIN;
    case 87: return RMG__BEH_SHIPYARD;
    case 8: return RMG__BEH_BOAT;
    default: return RMG__BEH_PLAIN;
    }
}

/* ---- setup ------------------------------------------------------------------------------------ */

static rmg_status find_shores(rmg__reach *r);

static uint32_t visit_point(const rmg__reach *r, uint32_t o)
{
    return r->n_entries[o] ? r->entries[r->first_entry[o]] : UINT32_MAX;
}

/* The game pairs each surface gate, taken in the order of their entry tiles (row, then column),
 * with the nearest underground gate not yet taken (squared distance; the first in object order on
 * a tie). A gate left over leads nowhere. */
static void gate_pairs(rmg__reach *r)
{
    const struct rmg_map *m = r->m;
    size_t plane = (size_t)m->width * (size_t)m->height;
    for (;;) {
        /* Next surface gate without a partner, by its entry tile index (= row, then column). */
        uint32_t next = UINT32_MAX, next_t = UINT32_MAX;
        for (uint32_t i = 0; i < r->n_objects; i++) {
            uint32_t t = visit_point(r, i);
            if (r->beh[i] == RMG__BEH_GATE && r->partner[i] == UINT32_MAX && !r->gate_done[i] && t < plane && t < next_t) {
                next = i;
                next_t = t;
            }
        }
        if (next == UINT32_MAX)
            return;
        r->gate_done[next] = 1;
        int64_t best = INT64_MAX;
        uint32_t best_i = UINT32_MAX;
        int x = (int)(next_t % (size_t)m->width), y = (int)(next_t / (size_t)m->width);
        for (uint32_t i = 0; i < r->n_objects; i++) {
            uint32_t t = visit_point(r, i);
            if (r->beh[i] != RMG__BEH_GATE || r->partner[i] != UINT32_MAX || t == UINT32_MAX || t < plane)
                continue;
            int dx = (int)((t % plane) % (size_t)m->width) - x, dy = (int)((t % plane) / (size_t)m->width) - y;
            int64_t d = (int64_t)dx * dx + (int64_t)dy * dy;
            if (d < best) {
                best = d;
                best_i = i;
            }
        }
        if (best_i != UINT32_MAX) {
            r->partner[next] = best_i;
            r->partner[best_i] = next;
        }
    }
}

static int popcount64(uint64_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Each tile's terrain bits, and the rim (where a flood must check its neighbours' bounds). */
static void terrain_cells(rmg__reach *r)
{
    const struct rmg_map *m = r->m;
    for (size_t t = 0; t < m->n_tiles; t++) {
        uint16_t f = m->flags[t];
        r->cell[t] = (uint8_t)((f & RMG__T_WATER) ? RMG__CELL_WATER | RMG__CELL_SEA : (f & RMG__T_ROCK) ? 0 : RMG__CELL_LAND);
    }
    size_t plane = (size_t)m->width * (size_t)m->height;
    for (int z = 0; z < m->levels; z++) {
        uint8_t *level = r->cell + (size_t)z * plane;
        for (int x = 0; x < m->width; x++) {
            level[x] |= RMG__CELL_RIM;
            level[plane - 1 - (size_t)x] |= RMG__CELL_RIM;
        }
        for (int y = 0; y < m->height; y++) {
            level[(size_t)y * (size_t)m->width] |= RMG__CELL_RIM;
            level[(size_t)y * (size_t)m->width + (size_t)m->width - 1] |= RMG__CELL_RIM;
        }
    }
}

/* Object o's cells: its blocked tiles closed to steps, its entry tiles (when it is visited,
 * `entered`) marked and listed in entries (*n of them). */
static void mark_object(rmg__reach *r, const rmg__map_object *o, bool entered, uint32_t *entries, uint32_t *n)
{
    uint32_t cells[RMG__FOOTPRINT_CELLS];
    size_t k = rmg__footprint_indices(r->m, o->block, o->x, o->y, o->z, cells, NULL);
    for (size_t j = 0; j < k; j++)
        r->cell[cells[j]] &= (uint8_t)~(RMG__CELL_LAND | RMG__CELL_SEA);
    *n = (uint32_t)rmg__footprint_indices(r->m, o->visit, o->x, o->y, o->z, entries, NULL);
    for (uint32_t j = 0; entered && j < *n; j++)
        r->cell[entries[j]] |= RMG__CELL_ENTRY;
}

static bool channel_has_exit(const rmg__reach *r, uint32_t channel)
{
    for (uint32_t k = 0; k < r->n_teleports; k++)
        if (r->beh[r->teleports[k]] == RMG__BEH_EXIT && r->channel[r->teleports[k]] == channel)
            return true;
    return false;
}

rmg_status rmg__reach_init(rmg__reach *r, const struct rmg_map *m, const struct rmg_content *c, rmg_context *ctx)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->ctx = ctx;
    r->n_objects = (uint32_t)m->objects.count;
    size_t n_obj = r->n_objects ? r->n_objects : 1, n_entry = 0;
    for (uint32_t i = 0; i < r->n_objects; i++)
        n_entry += (size_t)popcount64(m->objects.items[i].visit);
    r->tile = rmg__calloc(ctx, m->n_tiles ? m->n_tiles : 1, 1);
    r->queue = rmg__malloc(ctx, (m->n_tiles ? m->n_tiles : 1) * 2 * sizeof *r->queue);
    r->object = rmg__calloc(ctx, n_obj, 1);
    r->beh = rmg__calloc(ctx, n_obj, 1);
    r->gate_done = rmg__calloc(ctx, n_obj, 1);
    r->top_ok = rmg__calloc(ctx, n_obj, 1);
    r->to_exits = rmg__calloc(ctx, n_obj, 1);
    r->channel = rmg__malloc(ctx, n_obj * sizeof *r->channel);
    r->partner = rmg__malloc(ctx, n_obj * sizeof *r->partner);
    r->first_entry = rmg__malloc(ctx, n_obj * sizeof *r->first_entry);
    r->n_entries = rmg__calloc(ctx, n_obj, sizeof *r->n_entries);
    r->entries = rmg__malloc(ctx, (n_entry ? n_entry : 1) * sizeof *r->entries);
    r->cell = rmg__calloc(ctx, m->n_tiles ? m->n_tiles : 1, 1);
    r->teleports = rmg__malloc(ctx, n_obj * sizeof *r->teleports);
    r->gates = rmg__malloc(ctx, n_obj * sizeof *r->gates);
    if (!r->teleports || !r->gates || !r->tile || !r->queue || !r->object || !r->beh || !r->gate_done || !r->top_ok || !r->to_exits || !r->channel ||
        !r->partner || !r->first_entry || !r->n_entries || !r->entries || !r->cell) {
        rmg__reach_free(r);
        return rmg__error_nomem(ctx);
    }
    /* What a step needs of a tile, read once (the floods run per player): terrain first, then
     * each object's blocked and entry tiles (clearing and setting bits: any order gives the same). */
    terrain_cells(r);
    for (uint32_t i = 0; i < r->n_objects; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        int cls = -1, sub = -1;
        if (o->visit) /* obstacles, most of a map's objects, are never visited */
            classify(c, o, &cls, &sub);
        r->beh[i] = (uint8_t)(o->visit ? behaviour_of(cls, sub) : RMG__BEH_NONE);
        if (cls == 87 && sub == 1)
            r->beh[i] = RMG__BEH_PLAIN; /* HotA's Airship Yard: its airships are not the boats modelled here */
        r->top_ok[i] = rmg__map_visitable_from_top(cls);
        /* Teleports of one channel lead to each other: class and colour (one-way entrances to
         * the exits, class 44, of their colour). */
        r->channel[i] = cls == 43 ? 44 * 256 + sub : cls * 256 + sub;
        if (r->beh[i] == RMG__BEH_LOCK || r->beh[i] == RMG__BEH_TENT)
            r->channel[i] = sub >= 0 && sub < KEY_COLOURS ? (uint32_t)sub : KEY_COLOURS; /* KEY_COLOURS: no tent's */
        r->partner[i] = UINT32_MAX;
        r->first_entry[i] = (uint32_t)r->n_entry_tiles;
        mark_object(r, o, r->beh[i] != RMG__BEH_NONE, &r->entries[r->n_entry_tiles], &r->n_entries[i]);
        r->n_entry_tiles += r->n_entries[i];
    }
    for (uint32_t i = 0; i < r->n_objects; i++) {
        if (r->beh[i] == RMG__BEH_TELEPORT || r->beh[i] == RMG__BEH_EXIT)
            r->teleports[r->n_teleports++] = i;
        if (r->beh[i] == RMG__BEH_GATE)
            r->gates[r->n_gates++] = i;
    }
    for (uint32_t k = 0; k < r->n_teleports; k++) {
        uint32_t i = r->teleports[k];
        r->to_exits[i] = r->beh[i] == RMG__BEH_TELEPORT && r->channel[i] / 256 == 44 && channel_has_exit(r, r->channel[i]);
    }
    gate_pairs(r);
    rmg_status st = find_shores(r);
    if (st != RMG_OK) {
        rmg__reach_free(r);
        return st;
    }
    /* Zones of control: a monster's tile and its 8 neighbours on its level. */
    int w = m->width, h = m->height;
    for (uint32_t i = 0; i < r->n_objects; i++) {
        if (r->beh[i] != RMG__BEH_MONSTER)
            continue;
        const rmg__map_object *o = &m->objects.items[i];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (o->x + dx >= 0 && o->y + dy >= 0 && o->x + dx < w && o->y + dy < h)
                    r->cell[rmg__tile(w, h, o->x + dx, o->y + dy, o->z)] |= RMG__CELL_ZOC;
    }
    return RMG_OK;
}

void rmg__reach_free(rmg__reach *r)
{
    rmg_context *ctx = r->ctx;
    rmg__free(ctx, r->tile);
    rmg__free(ctx, r->queue);
    rmg__free(ctx, r->object);
    rmg__free(ctx, r->beh);
    rmg__free(ctx, r->gate_done);
    rmg__free(ctx, r->top_ok);
    rmg__free(ctx, r->to_exits);
    rmg__free(ctx, r->channel);
    rmg__free(ctx, r->partner);
    rmg__free(ctx, r->first_entry);
    rmg__free(ctx, r->n_entries);
    rmg__free(ctx, r->entries);
    rmg__free(ctx, r->cell);
    rmg__free(ctx, r->teleports);
    rmg__free(ctx, r->gates);
    rmg__free(ctx, r->shores);
    memset(r, 0, sizeof *r);
}

/* ---- the flood ------------------------------------------------------------------------------- */

typedef struct flood {
    rmg__reach *r;
    size_t head, tail;
    uint32_t keys;       /* keymaster colours visited */
    uint32_t waiting;    /* colours of locks met before their tent */
    bool no_fight;
    int32_t off[8];      /* the index offsets of the 8 neighbours (step_dx, step_dy) */
} flood;

static bool water(const rmg__reach *r, uint32_t t)
{
    return (r->cell[t] & RMG__CELL_WATER) != 0;
}

static void push(flood *f, uint32_t t, uint8_t mode)
{
    rmg__reach *r = f->r;
    if (r->tile[t] & mode)
        return;
    r->tile[t] |= mode;
    r->queue[f->tail++] = t | (mode == RMG__REACH_BOAT ? 0x80000000u : 0);
}

static void arrive(flood *f, uint32_t o)
{
    rmg__reach *r = f->r;
    r->object[o] |= 1;
    for (uint32_t k = 0; k < r->n_entries[o]; k++) {
        uint32_t t = r->entries[r->first_entry[o] + k];
        push(f, t, water(r, t) ? RMG__REACH_BOAT : RMG__REACH_FOOT);
    }
}

static void open_locks(flood *f, uint32_t color)
{
    rmg__reach *r = f->r;
    for (uint32_t i = 0; i < r->n_objects; i++)
        if (r->beh[i] == RMG__BEH_LOCK && r->channel[i] == color && r->object[i])
            arrive(f, i);
}

/* A visited shipyard builds a boat where the game puts it; the hero boards it from any tile
 * beside it he stands on (the shipyard's entry among them). */
static void launch_boat(flood *f, uint32_t entry)
{
    rmg__reach *r = f->r;
    const struct rmg_map *m = r->m;
    uint32_t spot = rmg__map_boat_spot(m, entry);
    if (spot == UINT32_MAX)
        return;
    r->tile[spot] |= RMG__REACH_BOAT_WAITS;
    int w = m->width, h = m->height, x = (int)(spot % (uint32_t)w), y = (int)((spot / (uint32_t)w) % (uint32_t)h);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if ((!dx && !dy) || x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h)
                continue;
            uint32_t u = (uint32_t)((int)spot + dy * w + dx);
            if (u == entry || (r->tile[u] & RMG__REACH_FOOT)) {
                push(f, spot, RMG__REACH_BOAT);
                return;
            }
        }
}

/* r->object[o] bits: reached (visited or arrived at), and a teleport stepped into. */
#define REACH_JUMPED 2u

/* The hero visits object o by stepping onto its entry tile u. */
static void visit(flood *f, uint32_t o, uint32_t u, uint8_t mode)
{
    rmg__reach *r = f->r;
    bool first = !r->object[o];
    r->object[o] |= 1;
    switch ((rmg__reach_behaviour)r->beh[o]) {
    case RMG__BEH_NONE:
        return;
    case RMG__BEH_MONSTER:
        if (!f->no_fight)
            push(f, u, mode);
        return;
    case RMG__BEH_TELEPORT:
        /* Jumps once: arriving on a teleport (r->object 1) is not stepping into it, and a hero
         * who arrived may step off and into it again (a two-way monolith's own entry is stood on
         * when he comes back through its partner). */
        if (r->object[o] & REACH_JUMPED)
            return;
        r->object[o] |= REACH_JUMPED;
        for (uint32_t k = 0; k < r->n_teleports; k++)
            if (rmg__reach_leads_to(r, o, r->teleports[k]))
                arrive(f, r->teleports[k]);
        return;
    case RMG__BEH_GATE:
        if (r->partner[o] != UINT32_MAX)
            arrive(f, r->partner[o]);
        return;
    case RMG__BEH_LOCK:
        if (f->keys & (1u << r->channel[o]))
            push(f, u, mode);
        else
            f->waiting |= 1u << r->channel[o];
        return;
    case RMG__BEH_TENT:
        push(f, u, mode);
        if (!(f->keys & (1u << r->channel[o]))) {
            f->keys |= 1u << r->channel[o];
            if (f->waiting & (1u << r->channel[o]))
                open_locks(f, r->channel[o]);
        }
        return;
    case RMG__BEH_SHIPYARD:
        push(f, u, mode);
        if (first)
            launch_boat(f, u);
        return;
    case RMG__BEH_BOAT:
        push(f, u, RMG__REACH_BOAT);
        return;
    case RMG__BEH_EXIT:
    case RMG__BEH_PLAIN:
        push(f, u, mode);
        return;
    }
}

/* One step (standing or sailing) to the neighbour u, dy the row difference from where the hero is. */
static void step(flood *f, uint32_t u, int dy, bool boat)
{
    rmg__reach *r = f->r;
    uint32_t o = 0;
    switch (rmg__reach_step(r, u, dy, boat, (r->tile[u] & RMG__REACH_BOAT_WAITS) != 0, f->no_fight, &o)) {
    case RMG__STEP_NONE:
        return;
    case RMG__STEP_FOOT:
        push(f, u, RMG__REACH_FOOT);
        return;
    case RMG__STEP_BOAT:
        push(f, u, RMG__REACH_BOAT);
        return;
    case RMG__STEP_VISIT:
        visit(f, o, u, boat ? RMG__REACH_BOAT : RMG__REACH_FOOT);
        return;
    }
}

/* The 8 neighbours in the order the flood takes them (row above first, left to right). */
static const int8_t step_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, step_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

/* The steps from t, inside the rim, with step()'s outcome for the two most common neighbours
 * decided right here: a tile closed to everything (rock, under an object, not an entry) is
 * passed over, land no object stands on is walked on (a zone of control stops only a hero
 * who fights nothing). Anything else goes through step(). */
static void inner_steps(flood *f, uint32_t t, bool boat)
{
    rmg__reach *r = f->r;
    uint8_t zoc_stops = f->no_fight ? RMG__CELL_ZOC : 0;
    for (int k = 0; k < 8; k++) {
        uint32_t u = (uint32_t)((int32_t)t + f->off[k]);
        uint8_t c = r->cell[u], kind = c & (RMG__CELL_LAND | RMG__CELL_SEA | RMG__CELL_WATER | RMG__CELL_ENTRY);
        if (!(kind & (RMG__CELL_LAND | RMG__CELL_SEA | RMG__CELL_ENTRY)))
            continue;
        if (kind != RMG__CELL_LAND || (c & zoc_stops))
            step(f, u, step_dy[k], boat);
        else if (!(r->tile[u] & RMG__REACH_FOOT)) {
            r->tile[u] |= RMG__REACH_FOOT;
            r->queue[f->tail++] = u;
        }
    }
}

/* The steps from a tile on the map's edge, to the neighbours on the map. */
static void rim_steps(flood *f, uint32_t t, bool boat)
{
    const struct rmg_map *m = f->r->m;
    int w = m->width, h = m->height;
    size_t plane = (size_t)w * (size_t)h;
    int x = (int)((t % plane) % (size_t)w), y = (int)((t % plane) / (size_t)w);
    for (int k = 0; k < 8; k++)
        if (x + step_dx[k] >= 0 && y + step_dy[k] >= 0 && x + step_dx[k] < w && y + step_dy[k] < h)
            step(f, (uint32_t)((int)t + step_dy[k] * w + step_dx[k]), step_dy[k], boat);
}

bool rmg__reach_from(rmg__reach *r, uint32_t start, unsigned flags, uint32_t until)
{
    const struct rmg_map *m = r->m;
    memset(r->tile, 0, m->n_tiles);
    memset(r->object, 0, r->n_objects ? r->n_objects : 1);
    flood f = {r, 0, 0, 0, 0, (flags & RMG__REACH_NO_FIGHT) != 0, {0}};
    for (int k = 0; k < 8; k++)
        f.off[k] = step_dy[k] * m->width + step_dx[k];
    if (start >= m->n_tiles)
        return false;
    uint32_t id = m->tile_object[start];
    if (id && id <= m->objects.count && rmg__map_object_visits(m, &m->objects.items[id - 1], start))
        r->object[id - 1] = 1;
    push(&f, start, water(r, start) ? RMG__REACH_BOAT : RMG__REACH_FOOT);
    while (f.head < f.tail) {
        if (until < m->n_tiles && r->tile[until])
            return true;
        uint32_t q = r->queue[f.head++];
        uint32_t t = q & 0x7fffffffu;
        if (r->cell[t] & RMG__CELL_RIM)
            rim_steps(&f, t, (q & 0x80000000u) != 0);
        else
            inner_steps(&f, t, (q & 0x80000000u) != 0);
    }
    return until < m->n_tiles && r->tile[until];
}

uint32_t rmg__reach_start(const struct rmg_map *m, int player)
{
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind != RMG_OBJECT_TOWN || o->owner != player || !o->main)
            continue;
        uint32_t tiles[8];
        if (rmg__object_tiles(m, o, o->visit, tiles, 8))
            return tiles[0];
    }
    return UINT32_MAX;
}

size_t rmg__reach_destinations(const rmg__reach *r, uint32_t o, uint32_t *out)
{
    if (o >= r->n_objects)
        return 0;
    if (r->beh[o] == RMG__BEH_GATE) {
        if (r->partner[o] == UINT32_MAX)
            return 0;
        out[0] = r->partner[o];
        return 1;
    }
    size_t n = 0;
    for (uint32_t k = 0; k < r->n_teleports; k++)
        if (rmg__reach_leads_to(r, o, r->teleports[k]))
            out[n++] = r->teleports[k];
    return n;
}

/* ---- the zones the map means to join ------------------------------------------------------- */

static bool realized_joins(rmg_map_realization r)
{
    return r == RMG_REALIZED_PASSAGE || r == RMG_REALIZED_WIDE || r == RMG_REALIZED_BORDER_GUARD ||
           r == RMG_REALIZED_WATER || r == RMG_REALIZED_GATE || r == RMG_REALIZED_MONOLITH ||
           r == RMG_REALIZED_ONE_WAY_MONOLITH;
}

/* Adds zone z to the search (zones: per zone id, 1 once met). */
static void meet_zone(uint8_t *zones, size_t n_zone_ids, uint32_t *queue, size_t *tail, int z)
{
    if (z > 0 && (size_t)z < n_zone_ids && !zones[z]) {
        zones[z] = 1;
        queue[(*tail)++] = (uint32_t)z;
    }
}

static int cmp_pair(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The pairs (water zone, zone) whose tiles touch (orthogonally), each once. */
static rmg_status find_shores(rmg__reach *r)
{
    const struct rmg_map *m = r->m;
    int w = m->width, h = m->height;
    size_t cap = 0;
    uint64_t last = UINT64_MAX;
    for (size_t t = 0; t < m->n_tiles; t++) {
        if (!(m->flags[t] & RMG__T_WATER))
            continue;
        int x = (int)(t % (size_t)w), y = (int)((t / (size_t)w) % (size_t)h);
        const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int d = 0; d < 4; d++) {
            if (x + dx[d] < 0 || y + dy[d] < 0 || x + dx[d] >= w || y + dy[d] >= h)
                continue;
            size_t u = (size_t)((ptrdiff_t)t + dy[d] * w + dx[d]);
            if (m->tile_zone[u] == m->tile_zone[t])
                continue;
            uint64_t pair = (uint64_t)m->tile_zone[t] << 32 | m->tile_zone[u];
            if (pair == last)
                continue;
            if (r->n_shores == cap) {
                cap = cap ? 2 * cap : 64;
                uint64_t *p = rmg__realloc(r->ctx, r->shores, cap * sizeof *p);
                if (!p)
                    return rmg__error_nomem(r->ctx);
                r->shores = p;
            }
            r->shores[r->n_shores++] = last = pair;
        }
    }
    if (r->n_shores)
        qsort(r->shores, r->n_shores, sizeof *r->shores, cmp_pair);
    size_t kept = 0;
    for (size_t i = 0; i < r->n_shores; i++)
        if (!kept || r->shores[i] != r->shores[kept - 1])
            r->shores[kept++] = r->shores[i];
    r->n_shores = kept;
    return RMG_OK;
}

void rmg__reach_zones(const rmg__reach *r, int start_zone, bool by_sea, uint8_t *zones, size_t n_zone_ids,
                      uint32_t *queue)
{
    const struct rmg_map *m = r->m;
    memset(zones, 0, n_zone_ids);
    size_t head = 0, tail = 0;
    meet_zone(zones, n_zone_ids, queue, &tail, start_zone);
    while (head < tail) {
        int z = (int)queue[head++];
        for (size_t i = 0; i < m->conns.count; i++) {
            const rmg__map_connection *c = &m->conns.items[i];
            if (c->tpl_index < 0 || !realized_joins(c->realized))
                continue; /* mirror links join by their teleports' colours (below) */
            if (c->zone_a == z)
                meet_zone(zones, n_zone_ids, queue, &tail, c->zone_b);
            else if (c->zone_b == z)
                meet_zone(zones, n_zone_ids, queue, &tail, c->zone_a);
        }
        for (uint32_t k = 0; k < r->n_teleports; k++) {
            uint32_t o = r->teleports[k];
            if (r->beh[o] != RMG__BEH_TELEPORT || m->objects.items[o].zone != z)
                continue;
            for (uint32_t j = 0; j < r->n_teleports; j++)
                if (rmg__reach_leads_to(r, o, r->teleports[j]))
                    meet_zone(zones, n_zone_ids, queue, &tail, m->objects.items[r->teleports[j]].zone);
        }
        for (uint32_t k = 0; k < r->n_gates; k++) {
            uint32_t o = r->gates[k];
            if (r->partner[o] != UINT32_MAX && m->objects.items[o].zone == z)
                meet_zone(zones, n_zone_ids, queue, &tail, m->objects.items[r->partner[o]].zone);
        }
        /* A sea joins its shores (and the seas it runs into). */
        for (size_t i = 0; by_sea && i < r->n_shores; i++) {
            int water_zone = (int)(r->shores[i] >> 32), other = (int)(r->shores[i] & 0xffffffffu);
            if (water_zone == z)
                meet_zone(zones, n_zone_ids, queue, &tail, other);
            else if (other == z)
                meet_zone(zones, n_zone_ids, queue, &tail, water_zone);
        }
    }
}
