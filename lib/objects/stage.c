/*
 * The objects stage: towns, mines, airship yards, zone content groups, rewards in other zones.
 *
 * Order: towns in every zone first (they give n and N to the creature formulas, CRE-01), then
 * per zone mines and airship yards, then the zone content, range by range.
 *
 * Design decisions ([impl] points of the spec, §14):
 *   - Towns (MIS-06..09): player castles, then player towns (zones with an owner only), then
 *     neutral castles, then neutral towns. Minimums are always placed; each density adds extra
 *     towns: density x area / RMG__EXTRA_AREA_PER_DENSITY, the fraction drawn (so density 1 in a
 *     4096-tile zone adds one town on average). The same rule gives extra airship yards (ZON-22);
 *     extra mines are whole ones, one per density unit and RMG__EXTRA_MINE_AREA_PER_DENSITY tiles
 *     (extra_mines()). Main town: the player's first castle, else its first town,
 *     else the first minimum neutral castle, else the first minimum neutral town, else the first
 *     castle and then the first town the frequencies added. Types: player towns take the
 *     solver's player type; neutral town k takes the solver's type k, else (same-type zones)
 *     the first neutral type, else a random type of the zone's allowed towns. A zone whose
 *     faction follows the default method takes its main town's faction (FAC-03, MIS-09), so its
 *     dwellings, creature Pandora's boxes and Seer's Hut rewards are of that faction. The first
 *     town of a zone goes as close to the zone centre as its footprint fits (the content's town
 *     footprint), the others spread over the zone as the game's maps show (spread_town_spot).
 *   - Mines and airship yards get a guard slot (their own cluster) unless the zone's monster
 *     strength is `none`. MIS-03: the first Sawmill and Ore Pit of a player zone try hub tiles
 *     nearest to the main town's gate first (Euclidean distance). 0..3 resources of the mine's
 *     type (uniform) go unguarded within 3 tiles of the mine's entry.
 *   - TRS-03: groups requested per range = density x zone area / RMG__TRS_AREA_PER_DENSITY (640
 *     tiles) x the range's value term (range_value_term: fewer groups of richer ranges), the
 *     fraction drawn. T is uniform in [min, max] (integers, inclusive). TRS-06:
 *     after RMG__TRS_MAX_FAILS consecutive failed attempts (no first object, or no room) the
 *     range ends, and at once when an attempt found no first object and no total of the range
 *     can start a group any more (limits reached, objects forbidden: "exhausted"). A range that
 *     ends starved (its failed attempts all found no first object) or exhausted makes the zone
 *     full: the ranges after it (filled in order 1, 2, 3) place nothing; one that ran out of room
 *     only ends itself. Placed groups, shortfalls and exhaustion are reported per zone and range;
 *     the warning says whether the range was exhausted, starved at the drawn totals, ran out of
 *     room, or came after the range that filled the zone. Before its content, each zone's free paths are spread
 *     (rmg__pl_spread) so that clusters can reach the whole zone. Measured on the corpus (h3t +
 *     SoD, 1 seed): 97% of the groups of non-starved ranges placed.
 *   - Limits count content objects only (not near-mine resources or Seer's Huts); reward groups
 *     count toward the map and toward the tent zone (their list's zone).
 *   - MIS-12: the reward group is drawn from the tent zone's list with the tent zone's terrain
 *     and faction, without tents or quest artifacts (no chains of rewards); it goes to another
 *     land zone whose terrain every drawn object also allows (tried in random order), behind a
 *     Border Guard of the tent's colour on its hub.
 *     Colours already used by Border Guards of connections are skipped; a tent is only a
 *     candidate while a colour is free. A group whose reward or Seer's Hut finds no room is
 *     undone (a failed attempt) and that object is not tried again in the zone.
 *   - MIS-13/14: quest artifacts are treasure-class artifacts, not parts of combinations,
 *     allowed by the solve stage and each used once; the Seer's Hut goes unguarded to another
 *     land zone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "objects_internal.h"
#include "details.h"

typedef struct zone_ctx {
    int id;                         /* map zone id */
    long tpl;                       /* template zone index */
    rmg__eff_list list;
    size_t *uid;                    /* per entry: map-count slot */
    int64_t *count;                 /* per entry: placed in this zone */
    int64_t *value;                 /* per entry: value with the formulas resolved */
    uint64_t *weight;               /* per entry: frequency, 0 if not a candidate */
    bool *single;                   /* per entry: OBJ-10 */
    uint16_t *fam;                  /* per entry: FAM_* bits (limit families, see family_bits) */
    bool *retired;                  /* per entry: its reward found no room */
    /* The candidates (weight > 0) in entry order, with their values, weights and OBJ-10 flags:
     * what the group draws pick among (most entries of a zone's list are no candidate there,
     * and a draw with them left out picks the same entries from the same draws). */
    size_t *cand;
    size_t n_cand;
    int64_t *cand_value;
    uint64_t *cand_weight;
    bool *cand_single;
    uint32_t *cand_by_value;        /* candidate indexes by ascending value (ties: entry order) */
    uint8_t *cand_mark;             /* zeroed scratch of the draws */
    int64_t hill_forts, war_machines;
    int home;                       /* water zones: the template zone whose settings the sea takes, 0 none */
} zone_ctx;

typedef struct stage {
    rmg__gen *g;
    rmg_context *ctx;
    struct rmg_map *m;
    const struct rmg_content *c;
    const rmg__template *tpl;
    rmg__placer pl;
    rmg__eff_list lmap;
    zone_ctx *zones;                /* per map zone (index id - 1); list empty for rock/water */
    size_t nz;
    RMG__VEC(rmg__eff_entry) customs; /* map-count slots of custom variants after the base ones */
    size_t n_base;
    int64_t *map_count;
    int64_t pandoras, prisons;
    int n_by_faction[32], N;
    uint32_t colors_used;
    uint8_t *artifact_used;
    uint64_t *scratch;
    /* The group being drawn. */
    zone_ctx *cur;
    size_t pending[RMG__TRS_MAX_OBJECTS];
    size_t n_pending;
    bool reward_mode;
    /* What the current attempt's rewards took (undone when the attempt fails). */
    size_t reward_idx[4 * RMG__TRS_MAX_OBJECTS];
    int reward_zone[4 * RMG__TRS_MAX_OBJECTS]; /* map zone each reward object stands in */
    size_t n_reward;
    long arts_taken[RMG__TRS_MAX_OBJECTS];
    size_t n_arts;
    /* Fixed while a group is drawn (draw_group): free Keymaster colours, quest artifacts left. */
    size_t draw_colors, draw_quest_artifacts;
} stage;

static const char *const mine_keys[7] = {"mine_sawmill", "mine_alchemists_lab", "mine_ore_pit", "mine_sulfur_dune",
                                         "mine_crystal_cavern", "mine_gem_pond", "mine_gold_mine"};
static const char *const resource_keys[7] = {"resource_wood", "resource_mercury", "resource_ore", "resource_sulfur",
                                             "resource_crystal", "resource_gems", "resource_gold"};

static long find_row(const struct rmg_content *c, const char *key)
{
    for (size_t i = 0; i < c->n_objects; i++)
        if (strcmp(c->objects[i].key, key) == 0)
            return (long)i;
    return -1;
}

/* Footprint of the content's map object `key` (towns, huts, guards, dwelling variants), else
 * of `row`, else one tile with its entry. */
static void footprint_of(const stage *s, const char *key, const rmg__object_def *row, rmg__pl_item *it)
{
    long k = key ? rmg__content_find_map_object(s->c, key) : -1;
    const rmg__footprint *fp = k >= 0 ? &s->c->map_objects[k].footprint : row ? &row->footprint : NULL;
    it->block = fp ? fp->block : 0;
    it->visit = fp ? fp->visit : 0;
}

static bool family_is(const rmg__object_def *d, const char *f)
{
    return strcmp(d->family, f) == 0;
}

static bool family_prefix(const rmg__object_def *d, const char *p)
{
    return strncmp(d->family, p, strlen(p)) == 0;
}

static const rmg__object_def *def_at(const stage *s, const zone_ctx *z, size_t i)
{
    return &s->c->objects[z->list.items.items[i].obj];
}

static bool land_zone(const stage *s, size_t zi)
{
    const rmg__map_zone *mz = &s->m->zones.items[zi];
    return mz->tpl_index >= 0 && mz->kind != RMG_ZONE_WATER && mz->kind != RMG_ZONE_ROCK &&
           (size_t)mz->tpl_index < s->tpl->n_zones;
}

static void zone_rng(const stage *s, int zone, int phase, rmg_rng *rng)
{
    rmg__gen_stream(s->g, "objects", (uint64_t)zone * 8 + (uint64_t)phase, rng);
}

/* Extra towns / mines / yards from a density (see the file comment). */
static int extra_count(rmg_rng *rng, int density, size_t area)
{
    if (density <= 0)
        return 0;
    uint64_t q = (uint64_t)density * area;
    uint64_t n = q / RMG__EXTRA_AREA_PER_DENSITY, rem = q % RMG__EXTRA_AREA_PER_DENSITY;
    return (int)(n + (rmg_rng_below(rng, RMG__EXTRA_AREA_PER_DENSITY) < rem));
}

/* Extra mines of one resource from its density ([impl]: the guide says a density "may add a
 * random number"): whole mines only, one per RMG__EXTRA_MINE_AREA_PER_DENSITY tiles per unit of
 * density. The game's own maps are the evidence: Jebus Cross XL gives its player zones (about
 * 4,500 tiles each) density 1 for every mine and not one of 69 game maps has a mine beyond the
 * template's minimum (60 on every map). */
static int extra_mines(int density, size_t area)
{
    return density <= 0 ? 0 : (int)((uint64_t)density * area / RMG__EXTRA_MINE_AREA_PER_DENSITY);
}

/* ---- lists ---------------------------------------------------------------------------------------- */

static bool same_custom(const rmg__eff_entry *a, const rmg__eff_entry *b)
{
    return a->obj == b->obj && a->amount == b->amount && a->spell_min == b->spell_min &&
           a->spell_max == b->spell_max && a->schools == b->schools;
}

static bool custom_slot(stage *s, const rmg__eff_entry *e, size_t *slot)
{
    for (size_t k = 0; k < s->customs.count; k++)
        if (same_custom(&s->customs.items[k], e)) {
            *slot = s->n_base + k;
            return true;
        }
    if (!RMG__VEC_PUSH(s->ctx, &s->customs, *e))
        return false;
    *slot = s->n_base + s->customs.count - 1;
    return true;
}

/* The families the TRS-05 limits look at, resolved once per entry instead of by string on every
 * pick: _EQ an exact family match (the candidate itself), _PRE a prefix match (the pending
 * objects of the group being drawn), as trs_available has always compared them. */
enum {
    FAM_TENT_EQ = 1 << 0,
    FAM_TENT_PRE = 1 << 1,
    FAM_SEER_PRE = 1 << 2,
    FAM_PANDORA_PRE = 1 << 3,
    FAM_HILL_EQ = 1 << 4,
    FAM_HILL_PRE = 1 << 5,
    FAM_WAR_EQ = 1 << 6,
    FAM_WAR_PRE = 1 << 7,
    FAM_PRISON_EQ = 1 << 8,
    FAM_PRISON_PRE = 1 << 9
};

static uint16_t family_bits(const rmg__object_def *d)
{
    static const struct {
        const char *family;
        uint16_t eq, pre;
    } fams[] = {{"keymaster_tent", FAM_TENT_EQ, FAM_TENT_PRE}, {"seer_artifact_", 0, FAM_SEER_PRE},
                {"pandora_", 0, FAM_PANDORA_PRE},              {"hill_fort", FAM_HILL_EQ, FAM_HILL_PRE},
                {"war_machine_seller", FAM_WAR_EQ, FAM_WAR_PRE}, {"prison", FAM_PRISON_EQ, FAM_PRISON_PRE}};
    uint16_t bits = 0;
    for (size_t k = 0; k < RMG__ARRAY_LEN(fams); k++) {
        bits |= family_is(d, fams[k].family) ? fams[k].eq : 0;
        bits |= family_prefix(d, fams[k].family) ? fams[k].pre : 0;
    }
    return bits;
}

static rmg_status zone_arrays(stage *s, zone_ctx *z)
{
    size_t n = z->list.items.count;
    z->uid = rmg__calloc(s->ctx, n + 1, sizeof *z->uid);
    z->count = rmg__calloc(s->ctx, n + 1, sizeof *z->count);
    z->value = rmg__calloc(s->ctx, n + 1, sizeof *z->value);
    z->weight = rmg__calloc(s->ctx, n + 1, sizeof *z->weight);
    z->single = rmg__calloc(s->ctx, n + 1, sizeof *z->single);
    z->fam = rmg__calloc(s->ctx, n + 1, sizeof *z->fam);
    z->retired = rmg__calloc(s->ctx, n + 1, sizeof *z->retired);
    z->cand = rmg__calloc(s->ctx, n + 1, sizeof *z->cand);
    z->cand_value = rmg__calloc(s->ctx, n + 1, sizeof *z->cand_value);
    z->cand_weight = rmg__calloc(s->ctx, n + 1, sizeof *z->cand_weight);
    z->cand_single = rmg__calloc(s->ctx, n + 1, sizeof *z->cand_single);
    z->cand_by_value = rmg__calloc(s->ctx, n + 1, sizeof *z->cand_by_value);
    z->cand_mark = rmg__calloc(s->ctx, n + 1, sizeof *z->cand_mark);
    if (!z->uid || !z->count || !z->value || !z->weight || !z->single || !z->retired || !z->fam || !z->cand ||
        !z->cand_value || !z->cand_weight || !z->cand_single || !z->cand_by_value || !z->cand_mark)
        return rmg__error_nomem(s->ctx);
    for (size_t i = 0; i < n; i++) {
        const rmg__eff_entry *e = &z->list.items.items[i];
        z->fam[i] = family_bits(&s->c->objects[e->obj]);
        if (!e->custom)
            z->uid[i] = i;
        else if (!custom_slot(s, e, &z->uid[i]))
            return rmg__error_nomem(s->ctx);
    }
    return RMG_OK;
}


/* A water zone that gets sea content (a mirror copy gets the surface's copied, WAT-03). */
static bool sea_zone(const stage *s, size_t zi)
{
    const rmg__map_zone *mz = &s->m->zones.items[zi];
    return mz->kind == RMG_ZONE_WATER && !rmg__map_mirror_of(s->m, mz->id);
}

/* The land zone of the template whose coast along the water zone is longest (the lowest id on a
 * tie): the sea takes its object list, treasure ranges and monster strength. 0 when none (or
 * when the count cannot be allocated, reported by the caller's next allocation). */
static int sea_home(const stage *s, int water_zone)
{
    const struct rmg_map *m = s->m;
    size_t *coast = rmg__calloc(s->ctx, s->nz + 1, sizeof *coast);
    if (!coast)
        return 0;
    size_t plane = (size_t)m->width * (size_t)m->height, w = (size_t)m->width;
    for (size_t t = 0; t < m->n_tiles; t++) {
        int z = m->tile_zone[t];
        if (z < 1 || (size_t)z > s->nz || (m->flags[t] & RMG__T_WATER))
            continue;
        size_t x = t % plane % w, y = t % plane / w;
        coast[z] += (x > 0 && m->tile_zone[t - 1] == water_zone) || (x + 1 < w && m->tile_zone[t + 1] == water_zone) ||
                    (y > 0 && m->tile_zone[t - w] == water_zone) ||
                    (y + 1 < (size_t)m->height && m->tile_zone[t + w] == water_zone);
    }
    int best = 0;
    for (size_t zi = 0; zi < s->nz; zi++)
        if (land_zone(s, zi) && coast[zi + 1] > (best ? coast[best] : 0))
            best = (int)zi + 1;
    rmg__free(s->ctx, coast);
    return best;
}

/* Whether a list holds an object that may stand at sea (present, drawn, allowed on water). */
static bool holds_sea_objects(const stage *s, const rmg__eff_list *list)
{
    const uint8_t *banned = s->g->sol.object_banned;
    for (size_t i = 0; i < list->items.count; i++) {
        const rmg__eff_entry *e = &list->items.items[i];
        const rmg__object_def *d = &s->c->objects[e->obj];
        if (e->present && e->frequency > 0 && !(banned && banned[e->obj]) && (d->terrains & (1u << RMG_TERRAIN_WATER)))
            return true;
    }
    return false;
}

/* The sea's object list: its home zone's; when that list holds nothing for the sea (templates
 * written for land often forbid every object but a few), the template's own list, else the
 * object table's defaults. */
static rmg_status sea_list(stage *s, zone_ctx *z)
{
    const rmg__eff_list *home = &s->zones[z->home - 1].list;
    if (holds_sea_objects(s, home))
        return rmg__eff_copy(home, &z->list);
    if (holds_sea_objects(s, &s->lmap))
        return rmg__eff_copy(&s->lmap, &z->list);
    rmg_status st = rmg__eff_build(s->ctx, s->c, NULL, -1, s->g->pack ? s->g->pack->file : NULL, &z->list);
    if (st == RMG_OK)
        rmg__eff_apply_caps(&z->list);
    return st;
}

/* WAT-03 copies the surface onto the underground object for object; the game's fixed per-map
 * caps (OBJ-07) hold for the whole map, so on a mirror map the surface gets half of each. */
static bool mirrored(const stage *s)
{
    return s->g->pack && s->g->pack->mirror && s->m->levels == 2;
}


static rmg_status build_lists(stage *s)
{
    rmg_status st = rmg__eff_init(s->ctx, s->c, &s->lmap);
    if (st == RMG_OK)
        st = rmg__eff_apply_rules(&s->lmap, &s->tpl->rules, NULL, false, s->g->pack ? s->g->pack->file : NULL);
    if (st != RMG_OK)
        return st;
    for (size_t i = 0; i < s->lmap.items.count; i++)
        s->n_base += !s->lmap.items.items[i].custom;
    for (size_t zi = 0; zi < s->nz; zi++) {
        zone_ctx *z = &s->zones[zi];
        z->id = (int)zi + 1;
        z->tpl = s->m->zones.items[zi].tpl_index;
        if (!land_zone(s, zi))
            continue;
        st = rmg__eff_copy(&s->lmap, &z->list);
        if (st == RMG_OK)
            st = rmg__eff_apply_rules(&z->list, &s->tpl->zones[z->tpl].rules, &s->lmap, true,
                                      s->g->pack ? s->g->pack->file : NULL);
        if (st == RMG_OK) {
            rmg__eff_apply_caps(&z->list);
            if (mirrored(s))
                rmg__eff_share_fixed_map_caps(&z->list, 2);
            st = zone_arrays(s, z);
        }
        if (st != RMG_OK)
            return st;
    }
    for (size_t zi = 0; zi < s->nz; zi++) {
        zone_ctx *z = &s->zones[zi];
        if (!sea_zone(s, zi) || !(z->home = sea_home(s, z->id)))
            continue;
        if ((st = sea_list(s, z)) != RMG_OK || (st = zone_arrays(s, z)) != RMG_OK)
            return st;
    }
    s->map_count = rmg__calloc(s->ctx, s->n_base + s->customs.count + 1, sizeof *s->map_count);
    return s->map_count ? RMG_OK : rmg__error_nomem(s->ctx);
}

static void free_stage(stage *s)
{
    for (size_t zi = 0; s->zones && zi < s->nz; zi++) {
        zone_ctx *z = &s->zones[zi];
        rmg__eff_free(&z->list);
        rmg__free(s->ctx, z->uid);
        rmg__free(s->ctx, z->count);
        rmg__free(s->ctx, z->value);
        rmg__free(s->ctx, z->weight);
        rmg__free(s->ctx, z->single);
        rmg__free(s->ctx, z->fam);
        rmg__free(s->ctx, z->retired);
        rmg__free(s->ctx, z->cand);
        rmg__free(s->ctx, z->cand_value);
        rmg__free(s->ctx, z->cand_weight);
        rmg__free(s->ctx, z->cand_single);
        rmg__free(s->ctx, z->cand_by_value);
        rmg__free(s->ctx, z->cand_mark);
    }
    rmg__free(s->ctx, s->zones);
    rmg__eff_free(&s->lmap);
    RMG__VEC_FREE(s->ctx, &s->customs);
    rmg__free(s->ctx, s->map_count);
    rmg__free(s->ctx, s->artifact_used);
    rmg__free(s->ctx, s->scratch);
    rmg__pl_free(&s->pl);
}

/* ---- towns ---------------------------------------------------------------------------------------- */

static int random_town_type(stage *s, const rmg__zone *tz, rmg_rng *rng)
{
    uint32_t mask = tz->allowed_towns;
    int pick[32], n = 0;
    for (size_t i = 0; i < s->c->n_factions; i++) {
        const rmg__faction *f = &s->c->factions[i];
        if (f->is_town && f->id >= 0 && f->id < 31 && (!mask || (mask & (1u << f->id))))
            pick[n++] = f->id;
    }
    return n ? pick[rmg_rng_below(rng, (uint64_t)n)] : RMG_FACTION_CASTLE;
}

typedef struct town_spec {
    bool player, castle;
    int faction;
    int rank;                       /* MIS-09: the lowest rank placed is the main town */
} town_spec;

/* Where the next town of a zone that has towns already should stand ([impl], issue 32): the
 * game spreads a zone's towns over it (on Jebus Cross XL the main town's nearest other town is a
 * median 42 tiles away), so the spot is the zone's land tile farthest from its towns (the least
 * of its squared distances to them), among the tiles at least TOWN_MARGIN steps inside the
 * zone's border; in a zone too small for that margin, the farthest tile of the deepest ones.
 * Returns false when the zone has no town yet (the first goes near the centre). */
#define TOWN_MARGIN 6
static bool spread_town_spot(stage *s, const rmg__map_zone *mz, int *sx, int *sy)
{
    if (!mz->towns.count)
        return false;
    const rmg__placer *p = &s->pl;
    const struct rmg_map *m = s->m;
    uint32_t first = p->zone_start[mz->id], end = p->zone_start[mz->id + 1], n = end - first;
    uint32_t *depth = p->dist, *queue = p->queue; /* per-tile scratch of the placer, free between calls */
    size_t head = 0, tail = 0, plane = (size_t)m->width * (size_t)m->height;
    /* Steps from the border: a breadth-first search from the zone's tiles next to another zone,
     * to rock or water or to the map's edge. */
    for (uint32_t i = first; i < end; i++) {
        uint32_t t = p->zone_tiles[i];
        depth[t] = UINT32_MAX;
        if (p->zone_edge[t] || (m->flags[t] & (RMG__T_ROCK | RMG__T_WATER))) {
            depth[t] = 0;
            queue[tail++] = t;
        }
    }
    while (head < tail) {
        uint32_t t = queue[head++];
        int x = (int)((t % plane) % (size_t)m->width), y = (int)((t % plane) / (size_t)m->width);
        for (int d = 0; d < 4; d++) {
            int nx = x + (d == 0) - (d == 1), ny = y + (d == 2) - (d == 3);
            if (nx < 0 || ny < 0 || nx >= m->width || ny >= m->height)
                continue;
            uint32_t u = (uint32_t)(t - (size_t)x - (size_t)y * (size_t)m->width + (size_t)ny * (size_t)m->width + (size_t)nx);
            if (m->tile_zone[u] == mz->id && depth[u] == UINT32_MAX) {
                depth[u] = depth[t] + 1;
                queue[tail++] = u;
            }
        }
    }
    uint32_t deepest = 0;
    for (uint32_t i = first; i < end; i++)
        if (depth[p->zone_tiles[i]] != UINT32_MAX)
            deepest = RMG__MAX(deepest, depth[p->zone_tiles[i]]);
    uint32_t margin = RMG__MIN((uint32_t)TOWN_MARGIN, deepest);
    int64_t best = -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = p->zone_tiles[first + i];
        if (depth[t] == UINT32_MAX || depth[t] < margin || (m->flags[t] & (RMG__T_BLOCKED | RMG__T_PASSAGE)))
            continue;
        int x = (int)((t % plane) % (size_t)m->width), y = (int)((t % plane) / (size_t)m->width);
        int64_t nearest = INT64_MAX;
        for (size_t k = 0; k < mz->towns.count; k++) {
            const rmg__map_object *o = &m->objects.items[mz->towns.items[k] - 1];
            int64_t dx = x - o->x, dy = y - o->y;
            nearest = RMG__MIN(nearest, dx * dx + dy * dy);
        }
        if (nearest > best) {
            best = nearest;
            *sx = x;
            *sy = y;
        }
    }
    return best >= 0;
}

/* Places a town: the first of its zone near the zone centre, the others spread over the zone
 * (spread_town_spot); *id its object (0 when no room). */
static rmg_status place_town(stage *s, zone_ctx *z, const town_spec *t, rmg_rng *rng, uint32_t *id)
{
    rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    rmg__pl_item it = {t->castle ? "castle" : "town", RMG_OBJECT_TOWN, 0, 0, false};
    footprint_of(s, it.key, NULL, &it);
    rmg__pl_request req = {z->id, &it, 1, false, false, true, mz->cx, mz->cy, mz->level, 0, 256, false};
    int sx, sy;
    bool spread = spread_town_spot(s, mz, &sx, &sy);
    if (spread) {
        req.near_x = sx;
        req.near_y = sy;
    }
    rmg__pl_result res;
    *id = 0;
    rmg_status st = rmg__pl_place(&s->pl, &req, rng, &res);
    if (st == RMG_OK && !res.placed && spread) {
        /* The land around the far spot is too cramped for a town: near the centre, as a first
         * town goes. */
        req.near_x = mz->cx;
        req.near_y = mz->cy;
        st = rmg__pl_place(&s->pl, &req, rng, &res);
    }
    if (st == RMG_OK && !res.placed) {
        /* A small zone whose free paths leave no open spot as wide as a town: the town goes
         * over the paths near the centre and they are re-joined around it. */
        req.over_free = true;
        st = rmg__pl_place(&s->pl, &req, rng, &res);
    }
    if (st != RMG_OK)
        return st;
    rmg__pl_commit(&s->pl);
    if (!res.placed) {
        if (t->player)
            return rmg__error_gen(s->ctx, RMG_ERR_IMPOSSIBLE, "objects", (int)mz->tpl_id, -1,
                                  "no room for a player town near the zone centre");
        return rmg__map_warn(s->m, "zone %d: no room for a neutral town", mz->tpl_id);
    }
    rmg__map_object *o = &s->m->objects.items[res.first_object - 1];
    o->faction = t->faction;
    o->owner = t->player ? mz->owner : 0;
    o->castle = t->castle;
    if (!RMG__VEC_PUSH(s->ctx, &mz->towns, o->id))
        return rmg__error_nomem(s->ctx);
    *id = o->id;
    return RMG_OK;
}

/* MIS-09, the main town: the player's first castle, else the player's first town, else the
 * first minimum neutral castle, else the first minimum neutral town (so the town the solver
 * typed as the main one, FAC-03 and "match to town", is the main one), else the first castle
 * and then the first town that the frequencies added. */
static int town_rank(int kind, bool minimum)
{
    static const int ranks[4][2] = {{0, 0}, {1, 1}, {4, 2}, {5, 3}}; /* [kind][minimum] */
    return ranks[kind][minimum];
}

/* FAC-03: a zone whose faction follows the default method takes its main town's, whether the
 * solver typed that town or a frequency added it; so does its mirror copy. */
static void faction_from_main_town(stage *s, rmg__map_zone *mz, const rmg__zone_solution *sol)
{
    if (!mz->main_town || !sol || !sol->faction_of_main_town)
        return;
    int faction = s->m->objects.items[mz->main_town - 1].faction;
    mz->faction = faction;
    for (size_t i = 0; i < s->m->zones.count; i++)
        if (s->m->zones.items[i].mirror_of == mz->id)
            s->m->zones.items[i].faction = faction;
}

/* The type of a neutral town: the solver's for minimum town k (k < 0: a frequency town), else
 * the zone's first neutral type when its towns share one, else random among the allowed. */
static int neutral_town_type(stage *s, const rmg__zone *tz, const rmg__zone_solution *sol, int k, int first_neutral,
                             rmg_rng *rng)
{
    int solved = sol && k >= 0 && k < sol->n_neutral_towns ? sol->neutral_town_types[k] : -1;
    if (solved >= 0)
        return solved;
    if (tz->towns_same_type && first_neutral >= 0)
        return first_neutral;
    return random_town_type(s, tz, rng);
}

static rmg_status zone_towns(stage *s, zone_ctx *z)
{
    rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    const rmg__zone *tz = &s->tpl->zones[z->tpl];
    const rmg__zone_solution *sol = s->g->sol.zones ? &s->g->sol.zones[z->tpl] : NULL;
    rmg_rng rng;
    zone_rng(s, z->id, 0, &rng);
    int counts[4] = {0, 0, 0, 0}; /* player castles, player towns, neutral castles, neutral towns */
    if (mz->owner > 0) {
        counts[0] = tz->player_castles + extra_count(&rng, tz->player_castle_density, mz->n_tiles);
        counts[1] = tz->player_towns + extra_count(&rng, tz->player_town_density, mz->n_tiles);
    }
    counts[2] = tz->neutral_castles + extra_count(&rng, tz->neutral_castle_density, mz->n_tiles);
    counts[3] = tz->neutral_towns + extra_count(&rng, tz->neutral_town_density, mz->n_tiles);
    int player_type = sol && sol->player_town_type >= 0 ? sol->player_town_type : random_town_type(s, tz, &rng);
    int first_neutral = -1, best_rank = 6;
    mz->main_town = 0;
    for (int kind = 0; kind < 4; kind++) {
        for (int i = 0; i < counts[kind]; i++) {
            bool minimum = kind == 0 ? i < tz->player_castles : kind == 1 ? i < tz->player_towns
                         : kind == 2 ? i < tz->neutral_castles : i < tz->neutral_towns;
            town_spec t = {kind < 2, kind == 0 || kind == 2, player_type, town_rank(kind, minimum)};
            if (!t.player) {
                /* The solver lists neutral towns with the min towns first, then the castles. */
                int k = !minimum ? -1 : kind == 3 ? i : tz->neutral_towns + i;
                t.faction = neutral_town_type(s, tz, sol, k, first_neutral, &rng);
                if (first_neutral < 0)
                    first_neutral = t.faction;
            }
            uint32_t id;
            rmg_status st = place_town(s, z, &t, &rng, &id);
            if (st != RMG_OK)
                return st;
            if (id && t.rank < best_rank) {
                best_rank = t.rank;
                mz->main_town = id;
            }
        }
    }
    if (mz->main_town)
        s->m->objects.items[mz->main_town - 1].main = true;
    faction_from_main_town(s, mz, sol);
    return RMG_OK;
}

/* CRE-01: N zones with a town, n per faction of main towns. */
static void count_town_zones(stage *s)
{
    memset(s->n_by_faction, 0, sizeof s->n_by_faction);
    s->N = 0;
    for (size_t zi = 0; zi < s->m->zones.count; zi++) {
        const rmg__map_zone *mz = &s->m->zones.items[zi];
        if (!mz->towns.count)
            continue;
        s->N++;
        int f = mz->main_town ? s->m->objects.items[mz->main_town - 1].faction : -1;
        if (f >= 0 && f < 31)
            s->n_by_faction[f]++;
    }
}

/* ---- mines and airship yards --------------------------------------------------------------------- */

static void item_for_row(const rmg__object_def *d, rmg_map_object_kind kind, rmg__pl_item *it)
{
    it->key = d->key;
    it->kind = kind;
    it->block = d->footprint.block;
    it->visit = d->footprint.visit;
    it->from_top = rmg__map_visitable_from_top(d->map_class);
}

static bool zone_guarded(const stage *s, const zone_ctx *z)
{
    return s->m->zones.items[z->id - 1].monster_strength != RMG_MONSTERS_NONE;
}

static void object_entry(const rmg__map_object *o, int *x, int *y)
{
    int bit = 47;
    for (int b = 0; b < 48; b++)
        if (o->visit & ((uint64_t)1 << b))
            bit = b;
    *x = o->x - (7 - bit % 8);
    *y = o->y - (5 - bit / 8);
}

static rmg_status place_resources(stage *s, zone_ctx *z, const rmg__map_object *mine, int resource, rmg_rng *rng)
{
    long row = find_row(s->c, resource_keys[resource]);
    int n = (int)rmg_rng_range(rng, 0, 3), x, y, level = mine->z;
    object_entry(mine, &x, &y);
    rmg__pl_item it = {resource_keys[resource], RMG_OBJECT_RESOURCE, 0, 0, true};
    footprint_of(s, resource_keys[resource], row >= 0 ? &s->c->objects[row] : NULL, &it);
    for (int i = 0; i < n; i++) {
        rmg__pl_request req = {z->id, &it, 1, false, false, true, x, y, level, 9, 16, false};
        rmg__pl_result res;
        rmg_status st = rmg__pl_place(&s->pl, &req, rng, &res);
        if (st != RMG_OK)
            return st;
        rmg__pl_commit(&s->pl);
        if (res.placed)
            s->m->objects.items[res.first_object - 1].amount = -1;
    }
    return RMG_OK;
}

/* One mine or airship yard in its own cluster (guard slot on the hub). */
static rmg_status place_guarded_single(stage *s, zone_ctx *z, const rmg__object_def *d, rmg_map_object_kind kind,
                                       const rmg__map_object *near, rmg_rng *rng, uint32_t *id)
{
    rmg__pl_item it;
    item_for_row(d, kind, &it);
    bool guarded = zone_guarded(s, z);
    rmg__pl_request req = {z->id, &it, 1, true, s->tpl->anarchy, false, 0, 0, 0, 0, 0, false};
    if (near) {
        req.near = true;
        object_entry(near, &req.near_x, &req.near_y);
        req.near_z = near->z;
        req.tries = 64;
    }
    rmg__pl_result res;
    rmg_status st = rmg__pl_place(&s->pl, &req, rng, &res);
    if (st != RMG_OK)
        return st;
    rmg__pl_commit(&s->pl);
    *id = res.placed ? res.first_object : 0;
    if (!res.placed)
        return rmg__map_warn(s->m, "zone %d: no room for %s", s->m->zones.items[z->id - 1].tpl_id, d->key);
    rmg__map_object *o = &s->m->objects.items[*id - 1];
    o->value = d->value;
    o->guard_slot = guarded ? res.hub : 0;
    return RMG_OK;
}

static rmg_status zone_mines(stage *s, zone_ctx *z)
{
    rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    const rmg__zone *tz = &s->tpl->zones[z->tpl];
    const rmg__map_object *main_town = mz->main_town ? &s->m->objects.items[mz->main_town - 1] : NULL;
    rmg_rng rng;
    zone_rng(s, z->id, 1, &rng);
    for (int r = 0; r < 7; r++) {
        long row = find_row(s->c, mine_keys[r]);
        int64_t n = (int64_t)tz->mines_min[r] + extra_mines(tz->mines_density[r], mz->n_tiles);
        for (int64_t i = 0; i < n && row >= 0; i++) {
            /* MIS-03: the first Sawmill and Ore Pit of a player zone near the main town. */
            bool close = i == 0 && (r == 0 || r == 2) && mz->owner > 0 && main_town;
            main_town = mz->main_town ? &s->m->objects.items[mz->main_town - 1] : NULL;
            uint32_t id;
            rmg_status st = place_guarded_single(s, z, &s->c->objects[row], RMG_OBJECT_MINE, close ? main_town : NULL,
                                                 &rng, &id);
            if (st == RMG_OK && id)
                st = place_resources(s, z, &s->m->objects.items[id - 1], r, &rng);
            if (st != RMG_OK)
                return st;
            /* No room for this mine anywhere in the zone: the zone only fills up, so more of the
             * same kind would fail too (a template asking for thousands took minutes). */
            if (!id && !close)
                break;
        }
    }
    long yard = find_row(s->c, "airship_yard");
    int64_t yards = (int64_t)tz->airship_min + extra_count(&rng, tz->airship_density, mz->n_tiles);
    for (int64_t i = 0; i < yards && yard >= 0; i++) {
        uint32_t id;
        rmg_status st = place_guarded_single(s, z, &s->c->objects[yard], RMG_OBJECT_AIRSHIP_YARD, NULL, &rng, &id);
        if (st != RMG_OK)
            return st;
        if (!id) /* as for mines: a full zone stays full, so stop at the first yard without room */
            break;
    }
    return RMG_OK;
}

/* ---- candidates and limits (TRS-05, OBJ-11) ------------------------------------------------------ */

static bool creature_fits_zone(const stage *s, const rmg__eff_entry *e, int faction)
{
    const rmg__object_def *d = &s->c->objects[e->obj];
    if (!rmg__obj_is_creature_object(d))
        return true;
    if (family_is(d, "composite_dwelling")) {
        long members[4];
        size_t k = rmg__composite_creatures(s->c, d, members, 4);
        for (size_t i = 0; i < k; i++)
            if (s->c->creatures[members[i]].faction == faction)
                return true;
        return false;
    }
    return e->creature >= 0 && s->c->creatures[e->creature].faction == faction;
}

/* Candidate indexes by ascending value, equal values in candidate order (a stable insertion
 * sort: a zone has a few hundred candidates, sorted once). */
static void sort_by_value(zone_ctx *z)
{
    for (size_t k = 0; k < z->n_cand; k++) {
        size_t j = k;
        for (; j > 0 && z->cand_value[z->cand_by_value[j - 1]] > z->cand_value[k]; j--)
            z->cand_by_value[j] = z->cand_by_value[j - 1];
        z->cand_by_value[j] = (uint32_t)k;
    }
}

static void zone_candidates(stage *s, zone_ctx *z)
{
    const rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    const uint8_t *banned = s->g->sol.object_banned;
    for (size_t i = 0; i < z->list.items.count; i++) {
        const rmg__eff_entry *e = &z->list.items.items[i];
        const rmg__object_def *d = &s->c->objects[e->obj];
        z->value[i] = rmg__eff_value(s->c, e, s->n_by_faction, s->N);
        z->single[i] = d->never_grouped;
        bool ok = e->present && e->frequency > 0 && !(banned && banned[e->obj]) && mz->terrain >= 0 &&
                  mz->terrain < 32 && (d->terrains & (1u << mz->terrain)) && creature_fits_zone(s, e, mz->faction) &&
                  strcmp(d->key, "seafaring_academy") != 0 && /* OBJ-13 */
                  rmg__details_may_hold_spell(s->c, s->g->sol.spell_allowed, d, e);
        z->weight[i] = ok ? (uint64_t)e->frequency : 0;
    }
    z->n_cand = 0;
    for (size_t i = 0; i < z->list.items.count; i++) {
        if (!z->weight[i])
            continue;
        z->cand[z->n_cand] = i;
        z->cand_value[z->n_cand] = z->value[i];
        z->cand_weight[z->n_cand] = z->weight[i];
        z->cand_single[z->n_cand] = z->single[i];
        z->n_cand++;
    }
    sort_by_value(z);
}



static size_t free_colors(const stage *s)
{
    size_t n = 0;
    for (int c = 0; c < RMG__KEY_COLORS; c++)
        n += !(s->colors_used & (1u << c));
    return n;
}

static size_t quest_artifacts_left(const stage *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->c->n_artifacts; i++) {
        const rmg__artifact *a = &s->c->artifacts[i];
        bool allowed = !s->g->sol.artifact_allowed || s->g->sol.artifact_allowed[i];
        n += allowed && !s->artifact_used[i] && a->cls == RMG_ARTIFACT_TREASURE && !a->combination && a->part_of < 0;
    }
    return n;
}

static bool under(int64_t used, int64_t cap)
{
    return cap < 0 || used < cap;
}

/* Objects of the group being drawn in the FAM_* family `bit`. */
static int64_t pending_in(const stage *s, uint16_t bit)
{
    int64_t n = 0;
    for (size_t k = 0; k < s->n_pending; k++)
        n += (s->cur->fam[s->pending[k]] & bit) != 0;
    return n;
}

/* i: a candidate index (zone_ctx.cand). */
static bool trs_available(void *user, size_t ci)
{
    stage *s = user;
    zone_ctx *z = s->cur;
    size_t i = z->cand[ci];
    const rmg__eff_entry *e = &z->list.items.items[i];
    uint16_t fam = z->fam[i];
    if (z->retired[i])
        return false;
    size_t same = 0;
    for (size_t k = 0; k < s->n_pending; k++)
        same += s->pending[k] == i;
    if (!under(z->count[i] + (int64_t)same, e->max_zone))
        return false;
    if (e->max_map >= 0 && !under(s->map_count[z->uid[i]] + (int64_t)same, e->max_map))
        return false;
    bool tent = fam & FAM_TENT_EQ, seer = fam & FAM_SEER_PRE;
    if (s->reward_mode && (tent || seer))
        return false;
    if ((fam & FAM_PANDORA_PRE) && s->pandoras + pending_in(s, FAM_PANDORA_PRE) >= 200)
        return false; /* OBJ-11 */
    if ((fam & FAM_HILL_EQ) && z->hill_forts + pending_in(s, FAM_HILL_PRE) >= 1)
        return false;
    if ((fam & FAM_WAR_EQ) && z->war_machines + pending_in(s, FAM_WAR_PRE) >= 1)
        return false;
    if ((fam & FAM_PRISON_EQ) && s->prisons + pending_in(s, FAM_PRISON_PRE) >= s->g->sol.prisons_max)
        return false; /* MIS-16 */
    if (tent && pending_in(s, FAM_TENT_PRE) >= (int64_t)s->draw_colors)
        return false; /* MIS-11: placed tents hold their colours already */
    if (seer && pending_in(s, FAM_SEER_PRE) >= (int64_t)s->draw_quest_artifacts)
        return false; /* MIS-13 */
    return true;
}

static void trs_taken(void *user, size_t ci)
{
    stage *s = user;
    if (s->n_pending < RMG__TRS_MAX_OBJECTS)
        s->pending[s->n_pending++] = s->cur->cand[ci];
}

static rmg__trs_source draw_source(stage *s, zone_ctx *z, bool reward)
{
    rmg__trs_source src = {z->n_cand, z->cand_value, z->cand_weight, z->cand_single, trs_available, trs_taken, s,
                           z->cand_by_value, z->cand_mark};
    s->cur = z;
    s->n_pending = 0;
    s->reward_mode = reward;
    s->draw_colors = free_colors(s);
    s->draw_quest_artifacts = quest_artifacts_left(s);
    return src;
}

static size_t draw_group(stage *s, zone_ctx *z, int64_t T, rmg_rng *rng, bool reward, size_t *out)
{
    rmg__trs_source src = draw_source(s, z, reward);
    size_t n = rmg__trs_group(&src, T, rng, s->scratch, out);
    for (size_t k = 0; k < n; k++)
        out[k] = z->cand[out[k]]; /* candidate index -> entry index */
    return n;
}

/* TRS-06: no total of the range can start a group any more (limits reached, objects retired). */
static bool range_exhausted(stage *s, zone_ctx *z, const rmg__treasure *tr)
{
    rmg__trs_source src = draw_source(s, z, false);
    return !rmg__trs_can_start(&src, tr->min, tr->max);
}

static void count_objects(stage *s, zone_ctx *z, const size_t *idx, size_t n, int sign)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k];
        const rmg__object_def *d = def_at(s, z, i);
        z->count[i] += sign;
        s->map_count[z->uid[i]] += sign;
        s->pandoras += family_prefix(d, "pandora_") ? sign : 0;
        s->prisons += family_is(d, "prison") ? sign : 0;
        z->hill_forts += family_is(d, "hill_fort") ? sign : 0;
        z->war_machines += family_is(d, "war_machine_seller") ? sign : 0;
    }
}

/* Reward objects drawn from list z that stand in other zones: their caps count there too, so
 * those zones' own draws see them (max_zone caps the objects standing in a zone). */
static void count_where_standing(stage *s, zone_ctx *z, const size_t *idx, const int *zones, size_t n, int sign)
{
    for (size_t k = 0; k < n; k++) {
        zone_ctx *t = &s->zones[zones[k] - 1];
        const rmg__object_def *d = def_at(s, z, idx[k]);
        for (size_t j = 0; j < t->list.items.count; j++)
            t->count[j] += def_at(s, t, j) == d ? sign : 0;
    }
}

/* ---- groups on the map ------------------------------------------------------------------------- */

/* Places the drawn objects of zone list z into zone `where` as one cluster (or a lone
 * never-grouped object) and records the group. *gid = 0 when there was no room. */
static rmg_status record_group(stage *s, zone_ctx *z, int where, int range, int64_t T, const size_t *idx, size_t n,
                               const rmg__pl_result *res, bool guarded, uint32_t *gid, uint32_t *hub);
static void group_items(stage *s, zone_ctx *z, const size_t *idx, size_t n, rmg__pl_item *items);

static rmg_status place_group(stage *s, zone_ctx *z, int where, int range, int64_t T, const size_t *idx, size_t n,
                              bool guarded, rmg_rng *rng, uint32_t *gid, uint32_t *hub)
{
    rmg__pl_item items[RMG__TRS_MAX_OBJECTS];
    group_items(s, z, idx, n, items);
    bool lone = n == 1 && z->single[idx[0]] && range >= 0; /* rewards always get their gate */
    rmg__pl_request req = {where, items, n, !lone, s->tpl->anarchy, false, 0, 0, 0, 0, 0, false};
    rmg__pl_result res;
    *gid = 0;
    *hub = 0;
    rmg_status st = rmg__pl_place(&s->pl, &req, rng, &res);
    if (st != RMG_OK || !res.placed)
        return st;
    return record_group(s, z, where, range, T, idx, n, &res, guarded && !lone, gid, hub);
}

/* The group record of objects placed (res), with their values and contents. */
static rmg_status record_group(stage *s, zone_ctx *z, int where, int range, int64_t T, const size_t *idx, size_t n,
                               const rmg__pl_result *res, bool guarded, uint32_t *gid, uint32_t *hub)
{
    rmg__map_group *grp = rmg__map_add_group(s->m, where, range, T);
    if (!grp)
        return RMG_ERR_NOMEM;
    uint32_t group_id = grp->id;
    for (size_t k = 0; k < n; k++) {
        const rmg__eff_entry *e = &z->list.items.items[idx[k]];
        rmg__map_object *o = &s->m->objects.items[res->first_object - 1 + k];
        o->value = z->value[idx[k]];
        o->group = group_id;
        o->amount = e->amount;
        o->creature = e->creature;
        rmg__details_note_entry(o, e);
        if (e->creature >= 0 && !family_is(def_at(s, z, idx[k]), "creature_dwelling")) {
            const rmg__creature *cr = &s->c->creatures[e->creature];
            o->count = rmg__cre_placed_count(cr); /* CRE-07 */
        }
        grp = &s->m->groups.items[group_id - 1];
        grp->value += o->value;
        if (!RMG__VEC_PUSH(s->ctx, &grp->objects, o->id))
            return rmg__error_nomem(s->ctx);
    }
    grp = &s->m->groups.items[group_id - 1];
    grp->guard_slot = guarded ? res->hub : 0; /* TRS-08, OBJ-10 */
    *gid = group_id;
    *hub = res->hub;
    return RMG_OK;
}

/* Other land zones in random order. */
static size_t other_zones(const stage *s, int zone, rmg_rng *rng, int *out, size_t cap)
{
    size_t n = 0;
    for (size_t zi = 0; zi < s->nz && n < cap; zi++)
        if ((int)zi + 1 != zone && land_zone(s, zi) && !rmg__map_mirror_of(s->m, (int)zi + 1))
            out[n++] = (int)zi + 1;
    rmg_rng_shuffle(rng, out, n, sizeof *out);
    return n;
}

static int free_color(const stage *s)
{
    for (int c = 0; c < RMG__KEY_COLORS; c++)
        if (!(s->colors_used & (1u << c)))
            return c;
    return -1;
}

/* True if the zone's terrain is allowed for every drawn object: the reward is drawn with the
 * tent zone's terrain (MIS-12) and only goes where it is also at home (OBJ-08). */
/* Objects with this key already standing in `zone` (reward groups are rare: a scan will do). */
static int64_t standing_in(const stage *s, int zone, const char *key)
{
    int64_t n = 0;
    for (size_t i = 0; i < s->m->objects.count; i++) {
        const rmg__map_object *o = &s->m->objects.items[i];
        n += o->zone == zone && o->key && strcmp(o->key, key) == 0;
    }
    return n;
}

/* A reward group drawn from zone list z may stand in `zone`: its terrain, and its per-zone
 * caps counted where the objects stand (max_zone caps the objects standing in a zone). */
static bool objects_allowed_in(const stage *s, const zone_ctx *z, const size_t *idx, size_t n, int zone)
{
    int terrain = s->m->zones.items[zone - 1].terrain;
    for (size_t k = 0; k < n; k++) {
        const rmg__object_def *d = def_at(s, z, idx[k]);
        if (terrain < 0 || terrain >= 32 || !(d->terrains & (1u << terrain)))
            return false;
        int64_t cap = z->list.items.items[idx[k]].max_zone, drawn = 0;
        for (size_t j = 0; j < n && cap >= 0; j++)
            drawn += def_at(s, z, idx[j]) == d;
        if (cap >= 0 && !under(standing_in(s, zone, d->key) + drawn - 1, cap))
            return false;
    }
    return true;
}

/* MIS-12: the reward group of a tent, behind a Border Guard of its colour in another zone. */
static rmg_status tent_reward(stage *s, zone_ctx *z, uint32_t tent_id, rmg_rng *rng, bool *ok)
{
    *ok = false;
    rmg__map_object *tent = &s->m->objects.items[tent_id - 1];
    int color = free_color(s);
    if (color < 0)
        return RMG_OK;
    int64_t T = tent->value * 3 / 2;
    size_t idx[RMG__TRS_MAX_OBJECTS];
    size_t n = draw_group(s, z, T, rng, true, idx);
    if (!n || s->n_reward + n > RMG__ARRAY_LEN(s->reward_idx))
        return RMG_OK;
    int zones[256];
    size_t nzs = other_zones(s, z->id, rng, zones, 256);
    for (size_t k = 0; k < nzs; k++) {
        if (!objects_allowed_in(s, z, idx, n, zones[k]))
            continue;
        uint32_t gid, hub;
        rmg_status st = place_group(s, z, zones[k], -1, T, idx, n, false, rng, &gid, &hub);
        if (st != RMG_OK)
            return st;
        if (!gid)
            continue;
        if (!hub) {
            *ok = true; /* a lone never-grouped reward needs no gate */
        } else {
            int x = (int)((hub - 1) % (uint32_t)s->m->width);
            int y = (int)((hub - 1) / (uint32_t)s->m->width % (uint32_t)s->m->height);
            int lvl = (int)((hub - 1) / ((uint32_t)s->m->width * (uint32_t)s->m->height));
            rmg__map_object *bg = rmg__map_add_object(s->m, "border_guard", RMG_OBJECT_BORDER_GUARD, x, y, lvl);
            if (!bg)
                return RMG_ERR_NOMEM;
            bg->zone = zones[k];
            bg->block = bg->visit = (uint64_t)1 << 47;
            bg->color = color;
            bg->guards_kind = RMG_GUARDS_GROUP;
            bg->guards_id = gid;
            bg->link = tent_id;
            uint32_t bg_id = bg->id;
            s->m->tile_object[hub - 1] = bg_id;
            tent = &s->m->objects.items[tent_id - 1];
            tent->link = bg_id;
            *ok = true;
        }
        tent = &s->m->objects.items[tent_id - 1];
        tent->color = color;
        s->colors_used |= 1u << color;
        count_objects(s, z, idx, n, +1);
        memcpy(&s->reward_idx[s->n_reward], idx, n * sizeof *idx);
        for (size_t j = 0; j < n; j++)
            s->reward_zone[s->n_reward + j] = zones[k];
        count_where_standing(s, z, idx, &s->reward_zone[s->n_reward], n, +1);
        s->n_reward += n;
        return RMG_OK;
    }
    return RMG_OK;
}

static long pick_quest_artifact(stage *s, rmg_rng *rng)
{
    size_t n = quest_artifacts_left(s);
    if (!n)
        return -1;
    uint64_t k = rmg_rng_below(rng, n);
    for (size_t i = 0; i < s->c->n_artifacts; i++) {
        const rmg__artifact *a = &s->c->artifacts[i];
        bool allowed = !s->g->sol.artifact_allowed || s->g->sol.artifact_allowed[i];
        if (allowed && !s->artifact_used[i] && a->cls == RMG_ARTIFACT_TREASURE && !a->combination && a->part_of < 0 &&
            k-- == 0)
            return (long)i;
    }
    return -1;
}

/* MIS-13/14: an unguarded Seer's Hut in another zone whose quest is the artifact. */
static rmg_status seer_hut(stage *s, zone_ctx *z, uint32_t art_id, rmg_rng *rng, bool *ok)
{
    *ok = false;
    long a = pick_quest_artifact(s, rng);
    if (a < 0 || s->n_arts >= RMG__ARRAY_LEN(s->arts_taken))
        return RMG_OK;
    rmg__pl_item it = {"seer_hut", RMG_OBJECT_SEER_HUT, 0, 0, false};
    footprint_of(s, it.key, NULL, &it);
    int zones[256];
    size_t nzs = other_zones(s, z->id, rng, zones, 256);
    for (size_t k = 0; k < nzs; k++) {
        rmg__pl_request req = {zones[k], &it, 1, false, false, false, 0, 0, 0, 0, 0, false};
        rmg__pl_result res;
        rmg_status st = rmg__pl_place(&s->pl, &req, rng, &res);
        if (st != RMG_OK)
            return st;
        if (!res.placed)
            continue;
        rmg__map_object *art = &s->m->objects.items[art_id - 1];
        rmg__map_object *hut = &s->m->objects.items[res.first_object - 1];
        art->artifact = (int)a;
        art->link = hut->id;
        hut->artifact = (int)a;
        hut->link = art_id;
        hut->creature = art->creature;
        hut->count = art->count;
        hut->amount = art->amount;
        hut->value = art->value;
        s->artifact_used[a] = 1;
        s->arts_taken[s->n_arts++] = a;
        *ok = true;
        return RMG_OK;
    }
    return RMG_OK;
}

/* Rewards of the group's tents and quest artifacts; *ok false when one found no room. */
static rmg_status group_rewards(stage *s, zone_ctx *z, uint32_t gid, const size_t *idx, size_t n, rmg_rng *rng,
                                size_t *failed, bool *ok)
{
    *ok = true;
    for (size_t k = 0; k < n && *ok; k++) {
        const rmg__object_def *d = def_at(s, z, idx[k]);
        uint32_t oid = s->m->groups.items[gid - 1].objects.items[k];
        rmg_status st = RMG_OK;
        if (family_is(d, "keymaster_tent"))
            st = tent_reward(s, z, oid, rng, ok);
        else if (family_prefix(d, "seer_artifact_"))
            st = seer_hut(s, z, oid, rng, ok);
        if (st != RMG_OK)
            return st;
        if (!*ok)
            *failed = idx[k];
    }
    return RMG_OK;
}

/* One attempt of range r: *placed, or *starved when no object could start a group (TRS-06). */
static rmg_status group_attempt(stage *s, zone_ctx *z, int r, rmg_rng *rng, bool *placed, bool *starved)
{
    const rmg__treasure *tr = &s->tpl->zones[z->tpl].treasure[r];
    *placed = false;
    int64_t T = rmg_rng_range(rng, tr->min, tr->max);
    size_t idx[RMG__TRS_MAX_OBJECTS];
    size_t n = draw_group(s, z, T, rng, false, idx);
    *starved = n == 0;
    if (!n)
        return RMG_OK;
    rmg__pl_mark mk = rmg__pl_save(&s->pl);
    uint32_t gid, hub;
    rmg_status st = place_group(s, z, z->id, r, T, idx, n, zone_guarded(s, z), rng, &gid, &hub);
    if (st != RMG_OK || !gid) {
        rmg__pl_rollback(&s->pl, mk);
        return st;
    }
    count_objects(s, z, idx, n, +1);
    bool ok;
    size_t failed = 0;
    uint32_t colors = s->colors_used;
    s->n_reward = s->n_arts = 0;
    st = group_rewards(s, z, gid, idx, n, rng, &failed, &ok);
    if (st != RMG_OK || !ok) {
        /* Undo the group, its rewards and everything they counted or used. */
        rmg__pl_rollback(&s->pl, mk);
        count_objects(s, z, idx, n, -1);
        count_objects(s, z, s->reward_idx, s->n_reward, -1);
        count_where_standing(s, z, s->reward_idx, s->reward_zone, s->n_reward, -1);
        for (size_t k = 0; k < s->n_arts; k++)
            s->artifact_used[s->arts_taken[k]] = 0;
        s->colors_used = colors;
        if (st == RMG_OK)
            z->retired[failed] = true;
        return st;
    }
    rmg__pl_commit(&s->pl);
    *placed = true;
    return RMG_OK;
}

/* Why a range stopped short of its groups. */
typedef enum shortfall { SHORT_OF_ROOM, SHORT_STARVED, SHORT_EXHAUSTED, SHORT_ZONE_FULL } shortfall;

/* One warning per short range, with its cause (`full_after`: the range that filled the zone). */
static rmg_status content_shortfall(stage *s, int zone, int r, size_t got, size_t want, shortfall cause,
                                    int full_after)
{
    static const char *const why[] = {
        [SHORT_OF_ROOM] = "no room left in the zone",
        [SHORT_STARVED] = "starved: the drawn totals found no object to start a group; the zone counts as full, "
                          "TRS-06",
        [SHORT_EXHAUSTED] = "exhausted: no object of the zone's list can start a group in the range any more; the "
                            "zone counts as full, TRS-06/TRS-10",
        [SHORT_ZONE_FULL] = "the zone counts as full since range",
    };
    if (got >= want)
        return RMG_OK;
    if (cause == SHORT_ZONE_FULL)
        return rmg__map_warn(s->m, "zone %d: treasure range %d: %zu of %zu groups placed (%s %d starved, TRS-06)",
                             zone, r + 1, got, want, why[cause], full_after + 1);
    return rmg__map_warn(s->m, "zone %d: treasure range %d: %zu of %zu groups placed (%s)", zone, r + 1, got, want,
                         why[cause]);
}

/* TRS-03's value term ([impl], issue 32): a group of a richer range takes more room (more
 * objects, a larger guard), so fewer of them fit a zone's area: a range whose mean total exceeds
 * RMG__TRS_VALUE_KNEE asks for (knee / mean)^1.5 of the groups. Calibrated on the game's Jebus
 * Cross maps: its centre zone (ranges 35-55k, 25-35k, 10-25k) holds a median 46 guarded groups
 * on 2,400 tiles, 0.42 of what the area term alone gives, while the start zones (12-22k, 5-16k,
 * 0.3-3k) match it within 10%. Only correctly rounded operations (sqrt), so every platform
 * computes the same count. */
static double range_value_term(const rmg__treasure *tr)
{
    double mean = ((double)tr->min + (double)tr->max) / 2.0;
    if (mean <= RMG__TRS_VALUE_KNEE)
        return 1.0;
    double r = RMG__TRS_VALUE_KNEE / mean;
    return r * sqrt(r);
}

static size_t groups_requested(const rmg__treasure *tr, size_t area, rmg_rng *rng)
{
    if (tr->density <= 0 || tr->max <= 0 || tr->min > tr->max)
        return 0;
    uint64_t q = (uint64_t)floor((double)tr->density * (double)area * range_value_term(tr) + 0.5);
    return (size_t)(q / RMG__TRS_AREA_PER_DENSITY + (rmg_rng_below(rng, RMG__TRS_AREA_PER_DENSITY) < q % RMG__TRS_AREA_PER_DENSITY));
}

static rmg_status zone_content(stage *s, zone_ctx *z)
{
    rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    rmg__zone_stats *stats = &s->m->zone_stats[z->id - 1];
    rmg_rng rng;
    zone_rng(s, z->id, 2, &rng);
    zone_candidates(s, z);
    rmg_status spread = rmg__pl_spread(&s->pl, z->id, RMG__SPREAD_REACH);
    if (spread != RMG_OK)
        return spread;
    rmg__pl_commit(&s->pl);
    /* TRS-06: when a range stops because its totals find no object to start a group (starved or
     * exhausted), the zone counts as full and no later range places anything. The ranges are
     * filled in the template's order, 1 to 3 (docs/deviations.md). A range that ran out of room
     * only ends itself: later, smaller groups may still fit. */
    int full_after = -1;
    for (int r = 0; r < 3; r++) {
        size_t want = groups_requested(&s->tpl->zones[z->tpl].treasure[r], mz->n_tiles, &rng), got = 0;
        const rmg__treasure *tr = &s->tpl->zones[z->tpl].treasure[r];
        int fails = 0, starved = 0;
        bool exhausted = false;
        while (full_after < 0 && got < want && fails < RMG__TRS_MAX_FAILS && !exhausted) {
            bool placed, no_object;
            rmg_status st = group_attempt(s, z, r, &rng, &placed, &no_object);
            if (st != RMG_OK)
                return st;
            if (placed) {
                got++;
                fails = starved = 0;
            } else {
                fails++;
                starved += no_object;
                exhausted = no_object && range_exhausted(s, z, tr);
            }
        }
        stats->groups_requested[r] = (int)want;
        stats->groups_placed[r] = (int)got;
        stats->range_exhausted[r] = exhausted;
        shortfall cause = full_after >= 0 ? SHORT_ZONE_FULL
                          : exhausted     ? SHORT_EXHAUSTED
                          : starved == fails ? SHORT_STARVED
                                             : SHORT_OF_ROOM;
        rmg_status st = content_shortfall(s, mz->tpl_id, r, got, want, cause, full_after);
        if (st != RMG_OK)
            return st;
        if (full_after < 0 && got < want && (cause == SHORT_EXHAUSTED || cause == SHORT_STARVED))
            full_after = r;
    }
    return RMG_OK;
}

/* ---- sea content (issue 19) ---------------------------------------------------------------------- */

/* The items of drawn entries as the placers take them. */
static void group_items(stage *s, zone_ctx *z, const size_t *idx, size_t n, rmg__pl_item *items)
{
    for (size_t k = 0; k < n; k++) {
        const rmg__eff_entry *e = &z->list.items.items[idx[k]];
        const rmg__object_def *d = def_at(s, z, idx[k]);
        item_for_row(d, RMG_OBJECT_TREASURE, &items[k]);
        if (family_is(d, "creature_dwelling") && e->creature >= 0) {
            char key[96];
            snprintf(key, sizeof key, "dwelling_%s", s->c->creatures[e->creature].key);
            footprint_of(s, key, d, &items[k]);
        }
    }
}

/* One group of range r at sea: drawn from the home zone's list less what does not stand on water
 * (zone_candidates filters by the water zone's terrain), without rewards. */
static rmg_status sea_group(stage *s, zone_ctx *z, rmg__sea *sea, const rmg__treasure *tr, int r, rmg_rng *rng,
                            bool *placed, bool *starved)
{
    *placed = false;
    int64_t T = rmg_rng_range(rng, tr->min, tr->max);
    /* The sea's objects are worth less than the land's (the richest, a Temple of the Sea, 10,000):
     * a total no water object could start (a group starts with a quarter of its total at least,
     * TRS-04) is brought down to what the richest one starts. */
    int64_t richest = z->n_cand ? z->cand_value[z->cand_by_value[z->n_cand - 1]] : 0;
    if (richest > 0 && T > 4 * richest)
        T = 4 * richest;
    size_t idx[RMG__TRS_MAX_OBJECTS];
    size_t n = draw_group(s, z, T, rng, true, idx);
    *starved = n == 0;
    if (!n)
        return RMG_OK;
    rmg__pl_item items[RMG__TRS_MAX_OBJECTS];
    group_items(s, z, idx, n, items);
    rmg__pl_result res;
    rmg_status st = rmg__sea_place(sea, items, n, rng, &res);
    if (st != RMG_OK || !res.placed)
        return st;
    uint32_t gid, hub;
    bool guarded = s->m->zones.items[z->id - 1].monster_strength != RMG_MONSTERS_NONE;
    if ((st = record_group(s, z, z->id, r, T, idx, n, &res, guarded, &gid, &hub)) != RMG_OK)
        return st;
    count_objects(s, z, idx, n, +1);
    *placed = true;
    return RMG_OK;
}

/* The treasure of a water zone: its home zone's ranges and densities over the water's area and
 * its monster strength for the guards. */
static rmg_status sea_content(stage *s, zone_ctx *z)
{
    rmg__map_zone *mz = &s->m->zones.items[z->id - 1];
    const rmg__map_zone *home = &s->m->zones.items[z->home - 1];
    const rmg__zone *tz = &s->tpl->zones[home->tpl_index];
    mz->monster_strength = home->monster_strength;
    rmg_rng rng;
    zone_rng(s, z->id, 2, &rng);
    zone_candidates(s, z);
    rmg__sea sea;
    rmg_status st = rmg__sea_init(&sea, s->ctx, s->m, z->id);
    for (int r = 0; r < 3 && st == RMG_OK; r++) {
        size_t want = groups_requested(&tz->treasure[r], mz->n_tiles, &rng), got = 0;
        int fails = 0;
        while (got < want && fails < RMG__TRS_MAX_FAILS && st == RMG_OK) {
            bool placed, starved;
            st = sea_group(s, z, &sea, &tz->treasure[r], r, &rng, &placed, &starved);
            got += placed;
            fails = placed ? 0 : fails + 1;
        }
        if (s->m->zone_stats) {
            s->m->zone_stats[z->id - 1].groups_requested[r] = (int)want;
            s->m->zone_stats[z->id - 1].groups_placed[r] = (int)got;
        }
    }
    rmg__sea_free(&sea);
    return st;
}

static rmg_status each_sea(stage *s)
{
    for (size_t zi = 0; zi < s->nz; zi++) {
        if (!sea_zone(s, zi) || !s->zones[zi].home)
            continue;
        rmg_status st = sea_content(s, &s->zones[zi]);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- the stage --------------------------------------------------------------------------------- */

static void used_colors(stage *s)
{
    for (size_t i = 0; i < s->m->objects.count; i++) {
        const rmg__map_object *o = &s->m->objects.items[i];
        if ((o->kind == RMG_OBJECT_BORDER_GUARD || o->kind == RMG_OBJECT_KEYMASTER_TENT) && o->color >= 0 &&
            o->color < 32)
            s->colors_used |= 1u << o->color;
    }
}

static rmg_status stage_init(stage *s, rmg__gen *g)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->ctx = g->ctx;
    s->m = g->map;
    s->c = g->content;
    s->tpl = g->tpl;
    s->nz = s->m->zones.count;
    s->zones = rmg__calloc(s->ctx, s->nz + 1, sizeof *s->zones);
    s->artifact_used = rmg__calloc(s->ctx, s->c->n_artifacts + 1, 1);
    if (!s->zones || !s->artifact_used)
        return rmg__error_nomem(s->ctx);
    rmg_status st = rmg__pl_init(&s->pl, s->ctx, s->m);
    if (st == RMG_OK)
        st = build_lists(s);
    if (st != RMG_OK)
        return st;
    size_t most = 1;
    for (size_t zi = 0; zi < s->nz; zi++)
        most = RMG__MAX(most, s->zones[zi].list.items.count);
    s->scratch = rmg__malloc(s->ctx, most * sizeof *s->scratch);
    if (!s->scratch)
        return rmg__error_nomem(s->ctx);
    if (!s->m->zone_stats) {
        s->m->zone_stats = rmg__arena_alloc(&s->m->arena, (s->nz + 1) * sizeof *s->m->zone_stats);
        if (!s->m->zone_stats)
            return rmg__error_nomem(s->ctx);
    }
    used_colors(s);
    return RMG_OK;
}

typedef rmg_status (*zone_phase)(stage *s, zone_ctx *z);

static rmg_status each_zone(stage *s, zone_phase fn, double from, double to)
{
    for (size_t zi = 0; zi < s->nz; zi++) {
        /* WAT-03: a mirror copy gets the surface zone's content copied after the guard stage. */
        if (!land_zone(s, zi) || rmg__map_mirror_of(s->m, s->m->zones.items[zi].id))
            continue;
        if (rmg__check_cancel(s->ctx, "objects", from + (to - from) * (double)zi / (double)s->nz))
            return RMG_ERR_CANCELLED;
        rmg_status st = fn(s, &s->zones[zi]);
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

rmg_status rmg__stage_objects(rmg__gen *g)
{
    if (!g || !g->ctx)
        return RMG_ERR_INVALID_ARG;
    if (!g->map || !g->tpl || !g->content)
        return rmg__error_set(g->ctx, RMG_ERR_INVALID_ARG, "objects stage: missing map, template or content");
    stage s;
    rmg_status st = stage_init(&s, g);
    if (st == RMG_OK)
        st = each_zone(&s, zone_towns, 0.0, 0.2);
    if (st == RMG_OK) {
        count_town_zones(&s);
        st = each_zone(&s, zone_mines, 0.2, 0.4);
    }
    if (st == RMG_OK)
        st = each_zone(&s, zone_content, 0.4, 1.0);
    if (st == RMG_OK)
        st = each_sea(&s);
    if (st == RMG_OK)
        st = rmg__objects_details(g); /* concrete spells, heroes, amounts (details.c) */
    free_stage(&s);
    return st;
}
