/*
 * The place stage: builds the lattice layout from the template (levels, links), maps it onto
 * the map, grows the zones, adds rock / water filler zones and mirror copies, and writes the
 * placement report. Design choices are described in place_internal.h.
 */
#include <math.h>
#include <string.h>

#include "place_internal.h"

#define SQRT3_2 0.86602540378443864676
#define JITTER 0.15               /* random shift of a zone centre, in cells */
#define MIN_TILES_PER_ZONE 9      /* fewer tiles per game zone on a level: the map is too small */
#define WATER_FILL_NORMAL 0.70
#define WATER_FILL_ISLANDS 0.55

typedef struct place_ctx {
    rmg__gen *g;
    rmg_context *ctx;
    const rmg__template *t;
    struct rmg_map *m;
    int levels;                   /* levels used by the layout (1 on mirror packs) */
    bool mirror;
    rmg__layout lay;
    int filler[2];                /* RMG_ZONE_ROCK / RMG_ZONE_WATER / -1 */
    double fill[2];
    bool islands[2];
    bool rock_disabled;
    size_t n_game;                /* map zones that are template zones (incl. mirror copies) */
    rmg__grow_zone *gz;           /* per game map zone */
    rmg__coarse_owner coarse[2];  /* per balanced level (levels without filler) */
    rmg__corridor *corridors;
    size_t n_corridors;
} place_ctx;

/* ---- levels (ZON-02..05, PLC-10) ------------------------------------------------------------- */

static bool evil_town(const rmg__gen *g, int town)
{
    if (!g->content || town < 0)
        return false;
    for (size_t i = 0; i < g->content->n_factions; i++)
        if (g->content->factions[i].id == town)
            return g->content->factions[i].alignment == RMG_ALIGN_EVIL;
    return false;
}

/* ZON-05: a player's start zone whose towns are not evil stays on the surface. The town type
 * is the solver's choice; when it is unknown (-1) the rule cannot apply. */
static bool surface_by_alignment(const rmg__gen *g, size_t tpl_index)
{
    const rmg__zone *z = &g->tpl->zones[tpl_index];
    const rmg__zone_solution *s = g->sol.zones ? &g->sol.zones[tpl_index] : NULL;
    bool start = z->kind == RMG_ZONE_HUMAN_START || z->kind == RMG_ZONE_COMPUTER_START || (s && s->owner > 0);
    if (!start || !s || s->player_town_type < 0)
        return false;
    return !evil_town(g, s->player_town_type);
}

static uint8_t allowed_levels(const place_ctx *pc, size_t tpl_index)
{
    if (pc->levels == 1)
        return 1u; /* ZON-03 */
    switch (pc->t->zones[tpl_index].placement) {
    case RMG_PLACEMENT_SURFACE:
        return 1u; /* ZON-04 */
    case RMG_PLACEMENT_UNDERGROUND:
        return 2u;
    default:
        return surface_by_alignment(pc->g, tpl_index) ? 1u : 3u;
    }
}

/* ---- layout input ---------------------------------------------------------------------------- */

static int link_weight(rmg_connection_placement p)
{
    switch (p) {
    case RMG_LINK_GROUND:
    case RMG_LINK_UNDERGROUND_GATE:
        return RMG__PLACE_W_STRONG;
    case RMG_LINK_DEFAULT:
        return RMG__PLACE_W_DEFAULT;
    default:
        return 0; /* monolith, random (CON-12/13) */
    }
}

static rmg_status check_zone_size(const place_ctx *pc, const rmg__zone *z)
{
    if (!(z->size > 0) || !isfinite(z->size))
        return rmg__error_gen(pc->ctx, RMG_ERR_INVALID_DATA, "place", z->id, -1,
                              "zone %d has size %g: zone sizes must be positive", z->id, z->size);
    return RMG_OK;
}

static rmg_status layout_zones(place_ctx *pc, int *lzone_of_tpl)
{
    const rmg__template *t = pc->t;
    rmg__layout *l = &pc->lay;
    l->zones = rmg__calloc(pc->ctx, t->n_zones + 1, sizeof *l->zones);
    if (!l->zones)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < t->n_zones; i++) {
        lzone_of_tpl[i] = -1;
        if (!pc->g->zone_active[i])
            continue;
        rmg_status st = check_zone_size(pc, &t->zones[i]);
        if (st != RMG_OK)
            return st;
        rmg__lzone *z = &l->zones[l->n_zones];
        z->tpl = (int)i;
        z->id = t->zones[i].id;
        z->weight = t->zones[i].size;
        z->levels = allowed_levels(pc, i);
        z->repulsion = t->zones[i].repulsion;
        z->cell = -1;
        lzone_of_tpl[i] = (int)l->n_zones++;
    }
    return RMG_OK;
}

static rmg_connection_placement effective_placement(const place_ctx *pc, rmg_connection_placement p)
{
    if (p == RMG_LINK_UNDERGROUND_GATE && pc->levels == 1)
        return RMG_LINK_DEFAULT; /* CON-11 */
    return p;
}

static rmg_status layout_links(place_ctx *pc, const int *lzone_of_tpl)
{
    const rmg__template *t = pc->t;
    rmg__layout *l = &pc->lay;
    l->links = rmg__calloc(pc->ctx, t->n_connections + 1, sizeof *l->links);
    if (!l->links)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < t->n_connections; i++) {
        const rmg__connection *c = &t->connections[i];
        long a = rmg__template_find_zone(t, c->zone_a), b = rmg__template_find_zone(t, c->zone_b);
        if (!pc->g->conn_active[i] || a < 0 || b < 0 || lzone_of_tpl[a] < 0 || lzone_of_tpl[b] < 0)
            continue;
        rmg__llink *k = &l->links[l->n_links++];
        k->tpl = (int)i;
        k->a = lzone_of_tpl[a];
        k->b = lzone_of_tpl[b];
        k->placement = effective_placement(pc, c->placement);
        k->weight = link_weight(k->placement); /* fictive links count too (PLC-02) */
    }
    return RMG_OK;
}

/* S0 per level (PLC-03): see place_internal.h. */
static void sparseness_squares(place_ctx *pc)
{
    rmg__layout *l = &pc->lay;
    double forced[2] = {0, 0}, free_zones = 0;
    for (size_t i = 0; i < l->n_zones; i++) {
        if (l->zones[i].levels == 3)
            free_zones += 1;
        else
            forced[l->zones[i].levels == 2 ? 1 : 0] += 1;
    }
    double sparseness = pc->t->zone_sparseness > 0 ? pc->t->zone_sparseness : 0.0;
    for (int lv = 0; lv < 2; lv++) {
        double expected = forced[lv] + (lv < pc->levels ? free_zones / pc->levels : 0);
        l->pack[lv] = sqrt(RMG__MAX(1.0, expected) * SQRT3_2);
        l->square[lv] = sparseness * l->pack[lv];
    }
}

/* ---- teleport colours ------------------------------------------------------------------------ */

#define COLOR_RELAYOUTS 16 /* further layouts tried when the first needs more colours than exist */

/* Links the layout leaves to teleports: those placed as monoliths (CON-12) and the others whose
 * zones neither touch nor stack on the lattice (CON-09..13). Fictive links need none. */
static size_t teleport_links(const place_ctx *pc)
{
    const rmg__layout *l = &pc->lay;
    size_t n = 0;
    for (size_t k = 0; k < l->n_links; k++) {
        const rmg__llink *lk = &l->links[k];
        if (lk->a == lk->b || pc->t->connections[lk->tpl].type == RMG_CONNECTION_FICTIVE)
            continue;
        n += lk->placement == RMG_LINK_MONOLITH ||
             rmg__layout_relation(l, l->zones[lk->a].cell, l->zones[lk->b].cell) == 0;
    }
    return n;
}

/* The colours left to connections: the ruleset's land teleport colours (one link each) but
 * those the template's mirror links name (WAT-07: reserved first). */
static size_t connection_colors(const place_ctx *pc)
{
    size_t n = rmg__teleport_colors_present(pc->g->content);
    uint64_t two_way = 0, one_way = 0; /* colours by subclass; one-way entrances and exits share theirs */
    for (size_t i = 0; pc->mirror && i < pc->t->n_zones; i++)
        for (size_t k = 0; k < pc->t->zones[i].n_mirror_links; k++) {
            const rmg__mirror_link *ml = &pc->t->zones[i].mirror_links[k];
            rmg_teleport_kind kind[2] = {ml->surface_kind, ml->underground_kind};
            int color[2] = {ml->surface_color, ml->underground_color};
            for (int e = 0; e < 2; e++) {
                if (color[e] < 0 || color[e] >= 64 || kind[e] == RMG_TELEPORT_GATE || kind[e] == RMG_TELEPORT_NONE)
                    continue;
                if (kind[e] == RMG_TELEPORT_TWO_WAY)
                    two_way |= UINT64_C(1) << color[e];
                else
                    one_way |= UINT64_C(1) << color[e];
            }
        }
    size_t reserved = 0;
    for (int b = 0; b < 64; b++)
        reserved += ((two_way >> b) & 1u) + ((one_way >> b) & 1u);
    return n > reserved ? n - reserved : 0;
}

/* Puts every zone of the layout back on the cell `cells` gives it. */
static void restore_cells(rmg__layout *l, const int *cells)
{
    size_t n = (size_t)l->levels * (size_t)l->grid * (size_t)l->grid;
    for (size_t c = 0; c < n; c++)
        l->cell_zone[c] = -1;
    for (size_t i = 0; i < l->n_zones; i++) {
        l->zones[i].cell = cells[i];
        l->cell_zone[cells[i]] = (int)i;
    }
}

/* A layout whose links need more teleport colours than the game has cannot be built (SoD has 16,
 * HotA 32): such a template (SoD's 8XM12a: 56 links among 33 zones) is still one the game makes,
 * so further layouts are drawn (a stream of their own), each wandering over the moves that keep
 * its link score before the shuffle (the shuffle alone stops on the first plateau: 8XM12a's
 * layouts left 18 to 28 links apart, wandering ones 12 to 14), and the one leaving the fewest
 * links to teleports is kept, the first that fits the colours ending the search. Land maps
 * only: on water a link between zones apart may cross the sea. Maps whose first layout fits are
 * unchanged. Cost: at most COLOR_RELAYOUTS more layouts of 240 moves a zone, each far below the
 * tile growth that follows. */
static rmg_status fit_teleport_colors(place_ctx *pc)
{
    rmg__layout *l = &pc->lay;
    size_t colors = connection_colors(pc), need = teleport_links(pc);
    if (need <= colors || pc->g->opt.water != RMG_WATER_NONE)
        return RMG_OK;
    int *best = rmg__malloc(pc->ctx, (l->n_zones + 1) * sizeof *best);
    if (!best)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < l->n_zones; i++)
        best[i] = l->zones[i].cell;
    size_t best_need = need;
    rmg_status st = RMG_OK;
    for (uint64_t k = 0; k < COLOR_RELAYOUTS && best_need > colors && st == RMG_OK; k++) {
        rmg__layout_free(l);
        for (size_t i = 0; i < l->n_zones; i++)
            l->zones[i].cell = -1;
        rmg_rng rng;
        rmg__gen_stream(pc->g, "place-colors", k, &rng);
        if ((st = rmg__layout_run(l, &rng)) != RMG_OK)
            break;
        rmg__layout_wander(l, &rng, 200 * l->n_zones);
        rmg__layout_shuffle(l, &rng);
        if ((need = teleport_links(pc)) < best_need) {
            best_need = need;
            for (size_t i = 0; i < l->n_zones; i++)
                best[i] = l->zones[i].cell;
        }
    }
    if (st == RMG_OK)
        restore_cells(l, best);
    rmg__free(pc->ctx, best);
    return st;
}

/* Issue 30: the layout's draw may pile the zones onto one level (SoD's Dwarf Tunnels: 12 zones
 * underground at about 360 tiles, 4 on the surface at about 1,300). Zones of equal weight get
 * equal land only when each level's weight fits its room alike (share_density): the zones that
 * may stand on either level (no placement, ZON-02..05) move between the levels by PLC-09's moves
 * that keep the link score, while they lower the heavier level's weight per room (a stream of
 * its own). A move leaving more links to teleports than the colours hold (or than before) is
 * undone as a whole. The moves also wander over the plateaus where the load stays (the way
 * between the levels is often a chain of such moves), so every two-level layout with a zone
 * free to move changes. Cost: 200 rounds a zone of O(zones) each, far below the tile growth. */
static rmg_status balance_levels(place_ctx *pc)
{
    rmg__layout *l = &pc->lay;
    if (pc->levels != 2 || pc->mirror)
        return RMG_OK;
    int *kept = rmg__malloc(pc->ctx, (l->n_zones + 1) * sizeof *kept);
    if (!kept)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < l->n_zones; i++)
        kept[i] = l->zones[i].cell;
    size_t need = teleport_links(pc);
    rmg_rng rng;
    rmg__gen_stream(pc->g, "place-levels", 0, &rng);
    /* A surface without filler keeps the underground's share of its level (surface_rock). */
    double room[2] = {pc->filler[0] >= 0 ? pc->fill[0] : pc->fill[1], pc->fill[1]};
    rmg__layout_balance_levels(l, &rng, room, 200 * l->n_zones);
    size_t now = teleport_links(pc);
    if (now > need && now > connection_colors(pc))
        restore_cells(l, kept);
    rmg__free(pc->ctx, kept);
    return RMG_OK;
}

static rmg_status run_layout(place_ctx *pc)
{
    rmg__layout *l = &pc->lay;
    l->ctx = pc->ctx;
    l->levels = pc->levels;
    int *lzone_of_tpl = rmg__calloc(pc->ctx, pc->t->n_zones + 1, sizeof *lzone_of_tpl);
    if (!lzone_of_tpl)
        return rmg__error_nomem(pc->ctx);
    rmg_status st = layout_zones(pc, lzone_of_tpl);
    if (st == RMG_OK)
        st = layout_links(pc, lzone_of_tpl);
    rmg__free(pc->ctx, lzone_of_tpl);
    if (st != RMG_OK)
        return st;
    if (l->n_zones == 0)
        return rmg__error_gen(pc->ctx, RMG_ERR_INVALID_DATA, "place", -1, -1, "the template has no active zone");
    sparseness_squares(pc);
    l->sea[0] = pc->g->opt.water == RMG_WATER_NORMAL || pc->g->opt.water == RMG_WATER_ISLANDS; /* PLC-17 */
    rmg_rng rng;
    rmg__gen_stream(pc->g, "place", 0, &rng);
    st = rmg__layout_run(l, &rng);
    if (st == RMG_OK)
        st = fit_teleport_colors(pc);
    if (st == RMG_OK)
        st = balance_levels(pc);
    return st;
}

/* ---- filler rules (PLC-13..17, WAT-02) -------------------------------------------------------- */

/* Share of a level's area the game zones' capacities add up to for rock radius r. */
static double rock_fill(double r)
{
    return r / (r + 0.35);
}

static void choose_filler(place_ctx *pc)
{
    const rmg__template *t = pc->t;
    double surface_radius = t->rock_radius > 0 ? t->rock_radius : 1.0; /* TPL-04 */
    rmg_water_level water = pc->g->opt.water;
    pc->filler[0] = pc->filler[1] = -1;
    pc->fill[0] = pc->fill[1] = 1.0;
    pc->islands[0] = pc->islands[1] = false;
    if (water == RMG_WATER_NORMAL || water == RMG_WATER_ISLANDS) { /* PLC-17 */
        pc->filler[0] = RMG_ZONE_WATER;
        pc->fill[0] = water == RMG_WATER_ISLANDS ? WATER_FILL_ISLANDS : WATER_FILL_NORMAL;
        pc->islands[0] = water == RMG_WATER_ISLANDS;
    } else if (t->rock_masses) { /* PLC-13 */
        if (surface_radius < RMG__PLACE_MIN_ROCK_RADIUS) {
            pc->rock_disabled = true; /* PLC-15 */
        } else {
            pc->filler[0] = RMG_ZONE_ROCK;
            pc->fill[0] = rock_fill(surface_radius);
        }
    }
    if (pc->levels > 1) { /* PLC-16: always underground */
        /* Rock masses switched off (PLC-15) leave the underground as without them: its zones
         * keep their share of the map instead of filling the level. */
        bool own = t->rock_masses && surface_radius >= RMG__PLACE_MIN_ROCK_RADIUS;
        if (t->rock_masses && !own)
            pc->rock_disabled = true;
        pc->filler[1] = RMG_ZONE_ROCK;
        pc->fill[1] = rock_fill(own ? surface_radius : RMG__PLACE_UNDERGROUND_RADIUS);
    }
}

/* ---- map zones ---------------------------------------------------------------------------------- */

static rmg__map_zone *append_zone(place_ctx *pc, rmg_zone_kind kind, int level)
{
    rmg__map_zone z;
    memset(&z, 0, sizeof z);
    z.id = (int)pc->m->zones.count + 1;
    z.tpl_index = -1;
    z.kind = kind;
    z.level = level;
    z.chosen_terrain = z.terrain = -1;
    z.faction = RMG_FACTION_NONE;
    if (z.id >= UINT16_MAX) {
        rmg__error_gen(pc->ctx, RMG_ERR_LIMIT, "place", -1, -1, "more than %d zones", UINT16_MAX - 1);
        return NULL;
    }
    if (!RMG__VEC_PUSH(pc->ctx, &pc->m->zones, z)) {
        rmg__error_nomem(pc->ctx);
        return NULL;
    }
    return &pc->m->zones.items[pc->m->zones.count - 1];
}

static rmg_status add_game_zones(place_ctx *pc)
{
    const rmg__layout *l = &pc->lay;
    int per_level = l->grid * l->grid;
    for (int copy = 0; copy < (pc->mirror ? 2 : 1); copy++)
        for (size_t i = 0; i < l->n_zones; i++) {
            const rmg__zone *tz = &pc->t->zones[l->zones[i].tpl];
            int level = copy ? 1 : l->zones[i].cell / per_level;
            rmg__map_zone *z = append_zone(pc, tz->kind, level);
            if (!z)
                return rmg_context_errcode(pc->ctx);
            z->tpl_index = l->zones[i].tpl;
            z->tpl_id = tz->id;
            z->size_weight = tz->size;
            z->monster_strength = tz->monster_strength;
            /* Mirror copies: player colours are the solver's business (WAT-03, §14). */
            z->owner = copy ? 0 : (pc->g->sol.zones ? pc->g->sol.zones[z->tpl_index].owner : tz->owner);
            if (!copy)
                pc->g->zone_map_id[z->tpl_index] = z->id;
        }
    pc->n_game = pc->m->zones.count;
    return RMG_OK;
}

/* ---- capacities and centres -------------------------------------------------------------------- */

/* Tiles per unit of size weight on each level: one density for all filler levels so equal
 * sizes get equal areas across levels, capped by each level's own capacity. */
/* A zone with towns smaller than this finds no room for them: a town is 5x3 tiles with its
 * approach, inside the zone's two-tile border (the smallest zone with a town over the corpus's
 * maps holds 137 tiles; 64 zones on a 72x72 map get about 80 each and fail). */
#define MIN_TILES_TOWN_ZONE 100

/* The towns a zone's template gives it at least (a start zone with an owner has its own). */
static int zone_towns(const place_ctx *pc, const rmg__map_zone *z)
{
    const rmg__zone *tz = &pc->t->zones[z->tpl_index];
    return tz->player_towns + tz->player_castles + tz->neutral_towns + tz->neutral_castles +
           (tz->owner > 0 && (tz->kind == RMG_ZONE_HUMAN_START || tz->kind == RMG_ZONE_COMPUTER_START));
}

/* The least first-phase disc of a zone with towns on a level without filler (PLC-11): a town
 * with its approach and guarded mines needs this much land in one piece (smaller discs made
 * 8-zone templates at 36x36 fail to place their towns). */
#define TOWN_DISC 240.0

static rmg_status check_town_room(place_ctx *pc, const double density[2])
{
    for (size_t i = 0; i < pc->lay.n_zones; i++) {
        const rmg__map_zone *z = &pc->m->zones.items[i];
        const rmg__zone *tz = &pc->t->zones[z->tpl_index];
        int towns = zone_towns(pc, z);
        double tiles = density[z->level] * z->size_weight;
        if (towns > 0 && tiles < MIN_TILES_TOWN_ZONE)
            return rmg__error_gen(pc->ctx, RMG_ERR_IMPOSSIBLE, "place", tz->id, -1,
                                  "zone %d (size %g) would get about %.0f tiles on a %dx%d%s map, and a zone with "
                                  "towns needs at least %d: the template's %zu zones need a larger map",
                                  tz->id, tz->size, tiles, pc->m->width, pc->m->height,
                                  pc->m->levels > 1 ? "x2" : "", MIN_TILES_TOWN_ZONE, pc->lay.n_zones);
    }
    return RMG_OK;
}

/* Issue 30: on two levels zones of equal weight get equal land. Each level can give its zones at
 * most fill * area / weight tiles per unit of weight; both levels give the least of the two
 * figures and keep the rest as rock or sea (the underground's rock, PLC-16; the surface's rock
 * masses or water, PLC-13/17, or the underground's share, surface_rock): a level with less
 * weight gets more filler, not bigger zones. The layout's level balance (balance_levels) keeps
 * the heavier level's weight near the other's. */
static void share_density(const place_ctx *pc, double area, const double weight[2], double density[2])
{
    double shared = INFINITY;
    for (int lv = 0; lv < 2; lv++)
        shared = RMG__MIN(shared, pc->fill[lv] * area / weight[lv]);
    density[0] = density[1] = shared;
}

/* Issue 30: a surface without filler (no rock masses, PLC-13; no water) fills itself, so on two
 * levels its zones took all of it while the underground's kept their share of the level beside
 * its rock (PLC-16): over the corpus at the templates' defaults the surface held 1.2 to 3 times
 * the land per weight of the underground on 129 of the 172 two-level maps whose equal weights
 * missed 15%, and the second phase (PLC-11) gave the zones at its edges up to twice the land of
 * those in its middle (most of the other 43). When both levels hold zones, such a surface keeps
 * the underground's share of its level for its zones and the rest as rock, as the underground
 * does: both levels' zones grow as discs of the same land per weight (share_density), what they
 * leave becomes rock zones, and the centres of both levels are balanced (grow_zones). A level
 * without zones is left as the template has it, and one-level maps are unchanged. */
static void surface_rock(place_ctx *pc)
{
    if (pc->filler[0] >= 0 || pc->filler[1] < 0)
        return;
    pc->filler[0] = RMG_ZONE_ROCK;
    pc->fill[0] = pc->fill[1];
}

static rmg_status capacities(place_ctx *pc, double density[2])
{
    double area = (double)pc->m->width * pc->m->height;
    double weight[2] = {0, 0}, filler_area = 0, filler_weight = 0;
    size_t count[2] = {0, 0};
    for (size_t i = 0; i < pc->lay.n_zones; i++) {
        int lv = pc->m->zones.items[i].level;
        weight[lv] += pc->m->zones.items[i].size_weight;
        count[lv]++;
    }
    /* Rock masses switched off for a too-small radius (PLC-15) leave the surface without filler:
     * its density still bounds the underground's, so a lone underground zone keeps its share
     * instead of the whole level. */
    for (int lv = 0; lv < pc->levels; lv++)
        if ((pc->filler[lv] >= 0 || pc->rock_disabled) && count[lv]) {
            filler_area += (pc->filler[lv] >= 0 ? pc->fill[lv] : 1.0) * area;
            filler_weight += weight[lv];
        }
    for (int lv = 0; lv < pc->levels; lv++)
        if (count[lv] && area * pc->fill[lv] < (double)count[lv] * MIN_TILES_PER_ZONE)
            return rmg__error_gen(pc->ctx, RMG_ERR_IMPOSSIBLE, "place", -1, -1,
                                  "%zu zones on level %d need at least %d tiles each: a %dx%d map holds too few",
                                  count[lv], lv, MIN_TILES_PER_ZONE, pc->m->width, pc->m->height);
    if (pc->levels == 2 && count[0] && count[1]) {
        surface_rock(pc);
        share_density(pc, area, weight, density);
        return check_town_room(pc, density);
    }
    for (int lv = 0; lv < pc->levels; lv++) {
        density[lv] = 0;
        if (!count[lv])
            continue;
        double own = pc->fill[lv] * area / weight[lv];
        density[lv] = pc->filler[lv] >= 0 ? RMG__MIN(own, filler_area / filler_weight) : own;
    }
    return check_town_room(pc, density);
}

static void cell_centre(const rmg__layout *l, int cell, double *x, double *y)
{
    int lv, dx, dy;
    rmg__layout_cell_xy(l, cell, &lv, &dx, &dy);
    *x = dx / 2.0;
    *y = dy * SQRT3_2;
}

/* Maps the lattice bounding box (both levels, so stacked cells keep their x, y) onto the map. */
static rmg_status grow_zones_setup(place_ctx *pc, rmg_rng *rng)
{
    const rmg__layout *l = &pc->lay;
    double min_x = INFINITY, max_x = -INFINITY, min_y = INFINITY, max_y = -INFINITY, density[2];
    rmg_status st = capacities(pc, density);
    if (st != RMG_OK)
        return st;
    for (size_t i = 0; i < l->n_zones; i++) {
        double x, y;
        cell_centre(l, l->zones[i].cell, &x, &y);
        min_x = RMG__MIN(min_x, x);
        max_x = RMG__MAX(max_x, x);
        min_y = RMG__MIN(min_y, y);
        max_y = RMG__MAX(max_y, y);
    }
    pc->gz = rmg__calloc(pc->ctx, l->n_zones + 1, sizeof *pc->gz);
    if (!pc->gz)
        return rmg__error_nomem(pc->ctx);
    double sx = pc->m->width / (max_x - min_x + 1.0), sy = pc->m->height / (max_y - min_y + 1.0);
    for (size_t i = 0; i < l->n_zones; i++) {
        rmg__map_zone *mz = &pc->m->zones.items[i];
        rmg__grow_zone *z = &pc->gz[i];
        double x, y;
        cell_centre(l, l->zones[i].cell, &x, &y);
        x += JITTER * ((double)rmg_rng_below(rng, 2001) / 1000.0 - 1.0);
        y += JITTER * ((double)rmg_rng_below(rng, 2001) / 1000.0 - 1.0);
        z->map_id = mz->id;
        z->level = mz->level;
        z->cx = (x - min_x + 0.5) * sx;
        z->cy = (y - min_y + 0.5) * sy;
        z->seed_tile_x = RMG__MAX(0, RMG__MIN(pc->m->width - 1, (int)floor(z->cx)));
        z->seed_tile_y = RMG__MAX(0, RMG__MIN(pc->m->height - 1, (int)floor(z->cy)));
        /* PLC-11: on a level without filler zones the first phase grows discs that cover only
         * part of the map (RMG__PLACE_DISC_SHARE of each zone's weight share); the second phase
         * gives the rest to whichever zone reaches it first. With filler the disc is the share. */
        double full = density[z->level] * mz->size_weight;
        double disc = pc->filler[mz->level] >= 0 ? full : RMG__PLACE_DISC_SHARE * full;
        /* ... but a zone with towns keeps room for them on a small map: its disc is never below
         * TOWN_DISC tiles (nor above its share), as the town room check counts on. */
        if (zone_towns(pc, mz) > 0)
            disc = RMG__MAX(disc, RMG__MIN(full, TOWN_DISC));
        z->target = (size_t)RMG__MAX(1.0, floor(disc + 0.5));
        z->inv_radius = 1.0 / sqrt((double)z->target / RMG__PLACE_PI);
        /* A random direction for the zone's noise mix, as the rational point ((1-t^2), 2t) /
         * (1+t^2) of the unit circle: only correctly rounded operations, so every platform
         * computes the same bits (libm's sin/cos may differ in the last place). */
        double t = ((double)rmg_rng_below(rng, 1u << 21) - (double)(1u << 20)) / (double)(1u << 18);
        z->noise_c = (1.0 - t * t) / (1.0 + t * t);
        z->noise_s = 2.0 * t / (1.0 + t * t);
    }
    return RMG_OK;
}

/* Linked lattice neighbours, and linked zones stacked on the lattice, get a corridor (every
 * recommendation but monolith, CON-12; place_tiles.c joins the stacked ones on both levels). */
static rmg_status collect_corridors(place_ctx *pc)
{
    const rmg__layout *l = &pc->lay;
    pc->corridors = rmg__calloc(pc->ctx, l->n_links + 1, sizeof *pc->corridors);
    if (!pc->corridors)
        return rmg__error_nomem(pc->ctx);
    for (size_t k = 0; k < l->n_links; k++) {
        const rmg__llink *lk = &l->links[k];
        if (lk->placement == RMG_LINK_MONOLITH || lk->a == lk->b)
            continue;
        if (rmg__layout_relation(l, l->zones[lk->a].cell, l->zones[lk->b].cell) == 0)
            continue;
        rmg__corridor *c = &pc->corridors[pc->n_corridors++];
        c->a = lk->a;
        c->b = lk->b;
        c->strong = lk->weight >= RMG__PLACE_W_STRONG;
    }
    return RMG_OK;
}

static rmg_status grow_zones(place_ctx *pc)
{
    rmg_rng rng;
    rmg__gen_stream(pc->g, "place", 1, &rng);
    rmg_status st = grow_zones_setup(pc, &rng);
    if (st == RMG_OK)
        st = collect_corridors(pc);
    /* Levels without filler, and both levels of a two-level map (issue 30: a capped zone boxed
     * in by its neighbours, the lattice's cells crowded on one level, took half its share) but
     * on islands: there the growth keeps every zone two tiles of sea from the others (PLC-17's
     * islands), which the balance's coarse growth does not model, and SoD's 8XM8 at two levels was refused with
     * balanced centres (an object reachable around its guard after 8 attempts); islands keep the
     * lattice's centres as before. */
    for (int lv = 0; lv < pc->levels && st == RMG_OK; lv++)
        if (pc->filler[lv] < 0 || (pc->levels == 2 && !pc->islands[0])) {
            rmg__balance_in in = {pc->m->width, pc->m->height, lv, pc->gz, pc->lay.n_zones,
                                  pc->corridors, pc->n_corridors};
            st = rmg__place_balance(pc->ctx, &in, &pc->coarse[lv]);
            if (pc->filler[lv] >= 0) { /* rock keeps the room: corridors go through (outside_pair) */
                rmg__free(pc->ctx, pc->coarse[lv].owner);
                pc->coarse[lv].owner = NULL;
            }
        }
    if (st != RMG_OK)
        return st;
    rmg__grow gr;
    memset(&gr, 0, sizeof gr);
    gr.ctx = pc->ctx;
    gr.map = pc->m;
    gr.zones = pc->gz;
    gr.n_zones = pc->lay.n_zones;
    gr.corridors = pc->corridors;
    gr.n_corridors = pc->n_corridors;
    for (int lv = 0; lv < 2; lv++) {
        gr.capped[lv] = pc->filler[lv] >= 0;
        gr.islands[lv] = pc->islands[lv];
    }
    gr.seed = rmg_rng_next(&rng);
    gr.coarse = pc->coarse;
    return rmg__grow_run(&gr);
}

/* ---- filler zones (rock / water) --------------------------------------------------------------- */

typedef struct flood {
    uint32_t *stack;
    uint32_t *tiles;              /* the component being collected */
    size_t n;
} flood;

/* Collects the 4-connected component of unowned tiles containing `start`, marking it with
 * `mark` in tile_zone; returns the owner of some zone it touches (0 if none). */
static int collect_component(const struct rmg_map *m, flood *f, size_t start, uint16_t mark)
{
    size_t plane = (size_t)m->width * (size_t)m->height, sp = 0;
    int touching = 0;
    f->n = 0;
    m->tile_zone[start] = mark;
    f->stack[sp++] = (uint32_t)start;
    while (sp) {
        size_t t = f->stack[--sp];
        f->tiles[f->n++] = (uint32_t)t;
        size_t in_plane = t >= plane ? t % plane : t;
        uint32_t row = (uint32_t)in_plane / (uint32_t)m->width; /* 32-bit: far cheaper */
        int x = (int)((uint32_t)in_plane - row * (uint32_t)m->width), y = (int)row;
        static const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int i = 0; i < 4; i++) {
            int nx = x + d4[i][0], ny = y + d4[i][1];
            if (nx < 0 || ny < 0 || nx >= m->width || ny >= m->height)
                continue;
            size_t u = t - in_plane + (size_t)ny * (size_t)m->width + (size_t)nx;
            uint16_t o = m->tile_zone[u];
            if (o == 0) {
                m->tile_zone[u] = mark;
                f->stack[sp++] = (uint32_t)u;
            } else if (o != mark && !touching) {
                touching = o;
            }
        }
    }
    return touching;
}

/* Components smaller than this join a neighbouring zone instead of becoming a filler zone. */
static size_t min_filler_tiles(const struct rmg_map *m)
{
    return RMG__MAX((size_t)12, (size_t)m->width * (size_t)m->height / 400);
}

static void set_tiles(struct rmg_map *m, const flood *f, uint16_t id)
{
    for (size_t i = 0; i < f->n; i++)
        m->tile_zone[f->tiles[i]] = id;
}

/* Turns the unowned tiles of level `lv` into filler zones; pockets too small to be a zone
 * join a zone they touch (which stays one connected region). */
static rmg_status fill_level(place_ctx *pc, int lv, flood *f)
{
    struct rmg_map *m = pc->m;
    size_t plane = (size_t)m->width * (size_t)m->height;
    const uint16_t pending = UINT16_MAX; /* never a real id: append_zone stops below it */
    int kind = pc->filler[lv] >= 0 ? pc->filler[lv] : RMG_ZONE_ROCK;
    for (size_t t = (size_t)lv * plane; t < (size_t)(lv + 1) * plane; t++) {
        if (m->tile_zone[t])
            continue;
        int touching = collect_component(m, f, t, pending);
        /* On islands a pocket of water between two zones must stay water (no land bridge). */
        if (touching && f->n < min_filler_tiles(m) && !pc->islands[lv]) {
            set_tiles(m, f, (uint16_t)touching);
            continue;
        }
        rmg__map_zone *z = append_zone(pc, (rmg_zone_kind)kind, lv);
        if (!z)
            return rmg_context_errcode(pc->ctx);
        set_tiles(m, f, (uint16_t)z->id);
    }
    return RMG_OK;
}

static rmg_status add_filler(place_ctx *pc)
{
    struct rmg_map *m = pc->m;
    size_t plane = (size_t)m->width * (size_t)m->height;
    flood f = {rmg__malloc(pc->ctx, plane * sizeof *f.stack), rmg__malloc(pc->ctx, plane * sizeof *f.tiles), 0};
    rmg_status st = f.stack && f.tiles ? RMG_OK : rmg__error_nomem(pc->ctx);
    for (int lv = 0; lv < pc->levels && st == RMG_OK; lv++)
        st = fill_level(pc, lv, &f);
    rmg__free(pc->ctx, f.stack);
    rmg__free(pc->ctx, f.tiles);
    return st;
}

/* ---- mirror (WAT-03) ------------------------------------------------------------------------- */

static rmg_status mirror_level(place_ctx *pc)
{
    struct rmg_map *m = pc->m;
    size_t plane = (size_t)m->width * (size_t)m->height, n_layout = pc->lay.n_zones;
    size_t n_surface = m->zones.count;
    uint16_t *copy_of = rmg__calloc(pc->ctx, n_surface + 1, sizeof *copy_of);
    if (!copy_of)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < n_layout; i++)
        copy_of[i + 1] = (uint16_t)(n_layout + i + 1); /* copies follow the originals */
    for (size_t i = pc->n_game; i < n_surface; i++) {
        rmg__map_zone *z = append_zone(pc, m->zones.items[i].kind, 1);
        if (!z) {
            rmg__free(pc->ctx, copy_of);
            return rmg_context_errcode(pc->ctx);
        }
        copy_of[i + 1] = (uint16_t)z->id;
    }
    for (size_t t = 0; t < plane; t++)
        m->tile_zone[plane + t] = copy_of[m->tile_zone[t]];
    rmg__free(pc->ctx, copy_of);
    return RMG_OK;
}

/* ---- tallies ------------------------------------------------------------------------------------ */

static rmg_status tally_zones(place_ctx *pc)
{
    struct rmg_map *m = pc->m;
    size_t nz = m->zones.count;
    double *sx = rmg__calloc(pc->ctx, 2 * nz + 2, sizeof *sx);
    if (!sx)
        return rmg__error_nomem(pc->ctx);
    for (size_t i = 0; i < nz; i++)
        m->zones.items[i].n_tiles = 0;
    /* Tile by tile in index order (the sums add up in the same order), coordinates counted
     * along instead of divided out. */
    for (size_t t = 0, x = 0, y = 0; t < m->n_tiles; t++) {
        uint16_t id = m->tile_zone[t];
        if (id == 0 || id > nz) {
            rmg__free(pc->ctx, sx);
            return rmg__error_gen(pc->ctx, RMG_ERR_INTERNAL, "place", -1, -1, "tile %zu has no zone", t);
        }
        rmg__map_zone *z = &m->zones.items[id - 1];
        z->n_tiles++;
        sx[2 * (z->id - 1)] += (double)x;
        sx[2 * (z->id - 1) + 1] += (double)y;
        if (++x == (size_t)m->width) {
            x = 0;
            if (++y == (size_t)m->height)
                y = 0;
        }
    }
    for (size_t i = 0; i < nz; i++) {
        rmg__map_zone *z = &m->zones.items[i];
        if (z->n_tiles == 0) {
            rmg__free(pc->ctx, sx);
            return rmg__error_gen(pc->ctx, RMG_ERR_IMPOSSIBLE, "place", z->tpl_id ? z->tpl_id : -1, -1,
                                  "zone %d (map zone %d) received no tiles", z->tpl_id, z->id);
        }
        if (i < pc->lay.n_zones) {
            z->cx = pc->gz[i].seed_tile_x;
            z->cy = pc->gz[i].seed_tile_y;
        } else if (pc->mirror && i < pc->n_game) {
            z->cx = m->zones.items[i - pc->lay.n_zones].cx;
            z->cy = m->zones.items[i - pc->lay.n_zones].cy;
        } else {
            z->cx = (int)floor(sx[2 * i] / (double)z->n_tiles);
            z->cy = (int)floor(sx[2 * i + 1] / (double)z->n_tiles);
        }
    }
    rmg__free(pc->ctx, sx);
    return RMG_OK;
}

/* ---- the stage --------------------------------------------------------------------------------- */

/* ---- report ---------------------------------------------------------------------------------- */

/* Bit (a, b) set when game zones a and b (0-based map indexes) touch: `border` for 4-adjacent
 * tiles on one level, `stacked` for the same (x, y) on both levels. */
typedef struct contact {
    uint8_t *border, *stacked;
    size_t n;
} contact;

static void contact_set(uint8_t *bits, size_t n, size_t a, size_t b)
{
    if (a >= n || b >= n || a == b)
        return;
    bits[(a * n + b) >> 3] |= (uint8_t)(1u << ((a * n + b) & 7));
    bits[(b * n + a) >> 3] |= (uint8_t)(1u << ((b * n + a) & 7));
}

static bool contact_get(const uint8_t *bits, size_t n, size_t a, size_t b)
{
    return (bits[(a * n + b) >> 3] >> ((a * n + b) & 7)) & 1u;
}

static void find_contacts(const struct rmg_map *m, contact *c)
{
    size_t w = (size_t)m->width, h = (size_t)m->height, plane = w * h, t = 0;
    for (int lv = 0; lv < m->levels; lv++)
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++, t++) {
                size_t a = (size_t)m->tile_zone[t] - 1;
                if (x + 1 < w && m->tile_zone[t + 1] != m->tile_zone[t])
                    contact_set(c->border, c->n, a, (size_t)m->tile_zone[t + 1] - 1);
                if (y + 1 < h && m->tile_zone[t + w] != m->tile_zone[t])
                    contact_set(c->border, c->n, a, (size_t)m->tile_zone[t + w] - 1);
                if (t < plane && m->levels > 1)
                    contact_set(c->stacked, c->n, a, (size_t)m->tile_zone[t + plane] - 1);
            }
}

static bool recommendation_met(rmg_connection_placement p, bool border, bool stacked)
{
    switch (p) {
    case RMG_LINK_GROUND:
        return border;
    case RMG_LINK_UNDERGROUND_GATE:
        return stacked;
    case RMG_LINK_MONOLITH:
        return true; /* realized as a monolith whatever the layout (CON-12) */
    default:
        return border || stacked;
    }
}

static void report_links(place_ctx *pc, struct rmg__place_report *r, const contact *c)
{
    const rmg__layout *l = &pc->lay;
    for (size_t k = 0; k < l->n_links; k++) {
        const rmg__llink *lk = &l->links[k];
        rmg__place_link_report *o = &r->links[k];
        o->tpl_index = lk->tpl;
        o->zone_a = lk->a + 1; /* layout zones are the first map zones, in the same order */
        o->zone_b = lk->b + 1;
        o->placement = lk->placement;
        o->lattice = rmg__layout_relation(l, l->zones[lk->a].cell, l->zones[lk->b].cell);
        o->border = contact_get(c->border, c->n, (size_t)lk->a, (size_t)lk->b);
        o->stacked = contact_get(c->stacked, c->n, (size_t)lk->a, (size_t)lk->b);
        o->met = recommendation_met(lk->placement, o->border, o->stacked);
        r->layout_score += rmg__layout_link_score(l, k);
        if (lk->placement == RMG_LINK_MONOLITH || lk->placement == RMG_LINK_RANDOM)
            continue;
        rmg__place_zone_report *za = &r->zones[lk->a], *zb = &r->zones[lk->b];
        za->links++;
        za->links_met += o->met;
        if (lk->b != lk->a) {
            zb->links++;
            zb->links_met += o->met;
        }
    }
}

static void report_zones(place_ctx *pc, struct rmg__place_report *r)
{
    const struct rmg_map *m = pc->m;
    const rmg__layout *l = &pc->lay;
    double tiles[2] = {0, 0}, weight[2] = {0, 0};
    for (size_t i = 0; i < pc->n_game; i++) {
        tiles[m->zones.items[i].level] += (double)m->zones.items[i].n_tiles;
        weight[m->zones.items[i].level] += m->zones.items[i].size_weight;
    }
    for (size_t i = 0; i < r->n_zones; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        rmg__place_zone_report *o = &r->zones[i];
        o->map_id = z->id;
        o->cell_col = o->cell_row = -1;
        if (i >= pc->n_game)
            continue;
        size_t orig = i % l->n_zones;
        int lv, dx, dy;
        rmg__layout_cell_xy(l, l->zones[orig].cell, &lv, &dx, &dy);
        o->cell_col = dx >> 1;
        o->cell_row = dy;
        o->land_share = tiles[z->level] > 0 ? (double)z->n_tiles / tiles[z->level] : 0;
        o->weight_share = weight[z->level] > 0 ? z->size_weight / weight[z->level] : 0;
        if (i >= l->n_zones) {
            o->mirror_of = (int)orig + 1;
            m->zones.items[i].mirror_of = o->mirror_of;
            o->links = r->zones[orig].links;
            o->links_met = r->zones[orig].links_met;
        }
    }
}

static rmg_status build_report(place_ctx *pc)
{
    struct rmg_map *m = pc->m;
    struct rmg__place_report *r = rmg__arena_alloc(&m->arena, sizeof *r);
    contact c = {NULL, NULL, pc->n_game};
    size_t bits = (c.n * c.n + 7) / 8 + 1;
    if (r) {
        r->n_zones = m->zones.count;
        r->n_links = pc->lay.n_links;
        r->zones = rmg__arena_alloc(&m->arena, (r->n_zones + 1) * sizeof *r->zones);
        r->links = rmg__arena_alloc(&m->arena, (r->n_links + 1) * sizeof *r->links);
    }
    c.border = rmg__calloc(pc->ctx, 2, bits);
    if (!r || !r->zones || !r->links || !c.border) {
        rmg__free(pc->ctx, c.border);
        return rmg__error_nomem(pc->ctx);
    }
    c.stacked = c.border + bits;
    find_contacts(m, &c);
    for (int lv = 0; lv < 2; lv++) {
        r->filler[lv] = lv < m->levels ? pc->filler[pc->mirror ? 0 : lv] : -1;
        r->fill[lv] = pc->fill[pc->mirror ? 0 : lv];
    }
    r->rock_disabled = pc->rock_disabled;
    report_links(pc, r, &c);
    report_zones(pc, r);
    rmg__free(pc->ctx, c.border);
    m->place_report = r;
    return RMG_OK;
}

static rmg_status check_setup(place_ctx *pc)
{
    rmg__gen *g = pc->g;
    if (!g->tpl || !g->map || !g->zone_active || !g->conn_active || !g->zone_map_id)
        return rmg__error_gen(pc->ctx, RMG_ERR_INVALID_ARG, "place", -1, -1, "place stage called without its inputs");
    if (g->map->zones.count)
        return rmg__error_gen(pc->ctx, RMG_ERR_INVALID_ARG, "place", -1, -1, "the map already has zones");
    pc->mirror = g->pack && g->pack->mirror;
    if (pc->mirror && g->map->levels < 2) /* WAT-06: rejecting is recommended */
        return rmg__error_gen(pc->ctx, RMG_ERR_IMPOSSIBLE, "place", -1, -1,
                              "a mirror template needs an underground level");
    pc->levels = pc->mirror ? 1 : g->map->levels;
    return RMG_OK;
}

static void release(place_ctx *pc)
{
    rmg__layout_free(&pc->lay);
    rmg__free(pc->ctx, pc->lay.zones);
    rmg__free(pc->ctx, pc->lay.links);
    rmg__free(pc->ctx, pc->gz);
    rmg__free(pc->ctx, pc->corridors);
    rmg__free(pc->ctx, pc->coarse[0].owner);
    rmg__free(pc->ctx, pc->coarse[1].owner);
}

/* Issue 30: a two-level map whose template puts no zone on one level (every zone forced or
 * drawn to the other: surface placements, start zones of non-evil towns kept on the surface,
 * ZON-04/05) leaves that level to its filler zones alone, one rock zone underground (PLC-16):
 * a map nobody asked for, so the map says so. Mirror packs copy the surface down (WAT-03). */
static rmg_status warn_empty_level(place_ctx *pc)
{
    if (pc->levels < 2 || pc->mirror)
        return RMG_OK;
    size_t count[2] = {0, 0};
    for (size_t i = 0; i < pc->lay.n_zones; i++)
        count[pc->m->zones.items[i].level & 1]++;
    for (int lv = 0; lv < 2; lv++)
        if (count[lv] == 0) {
            rmg_status st = rmg__map_warn(pc->m,
                                          "the %s holds no zone of the template: all %zu zones stand on the %s "
                                          "(their placements and the start zones of non-evil towns, kept on the "
                                          "surface, ZON-04/05), so the %s is %s",
                                          lv ? "underground" : "surface", count[1 - lv], lv ? "surface" : "underground",
                                          lv ? "underground" : "surface",
                                          pc->filler[lv] == RMG_ZONE_WATER ? "sea" : "rock");
            if (st != RMG_OK)
                return st;
        }
    return RMG_OK;
}

rmg_status rmg__stage_place(rmg__gen *g)
{
    place_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.g = g;
    pc.ctx = g->ctx;
    pc.t = g->tpl;
    pc.m = g->map;
    rmg_status st = check_setup(&pc);
    if (st == RMG_OK) {
        memset(pc.m->tile_zone, 0, pc.m->n_tiles * sizeof *pc.m->tile_zone);
        for (size_t i = 0; i < pc.t->n_zones; i++)
            g->zone_map_id[i] = 0;
        choose_filler(&pc);
        st = run_layout(&pc);
    }
    if (st == RMG_OK)
        st = rmg__check_stop(pc.ctx, "place", 0.4);
    if (st == RMG_OK)
        st = add_game_zones(&pc);
    if (st == RMG_OK)
        st = grow_zones(&pc);
    if (st == RMG_OK)
        st = rmg__check_stop(pc.ctx, "place", 0.8);
    if (st == RMG_OK)
        st = add_filler(&pc);
    if (st == RMG_OK && pc.mirror)
        st = mirror_level(&pc);
    if (st == RMG_OK)
        st = tally_zones(&pc);
    if (st == RMG_OK)
        st = build_report(&pc);
    if (st == RMG_OK)
        st = warn_empty_level(&pc);
    if (st == RMG_OK && pc.rock_disabled)
        st = rmg__map_warn(pc.m, "rock radius %g is below %g: rock masses switched off (PLC-15)",
                           pc.t->rock_radius, RMG__PLACE_MIN_ROCK_RADIUS);
    release(&pc);
    return st;
}
