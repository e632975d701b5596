/*
 * Internal interface of the objects stage (spec OBJ, RUL, CRE, TRS, MIS-01..17).
 *
 *   effective.c  effective object lists: L0, template and zone rules, caps (RUL-04..12, OBJ-04..20)
 *   creatures.c  creature objects: counts and values (CRE-01..09)
 *   groups.c     the group algorithm of TRS-04..07 on an abstract candidate list
 *   tiles.c      placement on tiles: footprints, clusters with one guard slot, free paths, undo
 *   stage.c      the stage: towns, mines, airship yards, zone content, rewards in other zones
 *   api.c        the public API (rmg/objects.h)
 *
 * Effective list layout. An entry is one content object row (creature objects are expanded into
 * one entry per creature, see effective.c), or a custom variant added by a rule (OBJ-15). The
 * entries of every list built from one template share one layout: entry i of a zone list is
 * entry i of the template list (zone rules only append custom variants), which is how RUL-07
 * finds "the object's entry in L_map".
 */
#ifndef RMG_OBJECTS_INTERNAL_H
#define RMG_OBJECTS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core_internal.h"
#include "content/content_internal.h"
#include "map/map_internal.h"
#include "template/model.h"
#include "rmg/objects.h"

/* ---- effective object lists ----------------------------------------------------------------- */

typedef struct rmg__eff_entry {
    int32_t obj;              /* content object index */
    int32_t creature;         /* creature index (creature objects), -1 otherwise */
    bool present;             /* in the list (not forbidden) */
    bool custom;              /* OBJ-15 variant added by a rule */
    int64_t value;            /* or RMG__VALUE_FORMULA (creature objects, OBJ-06) */
    int64_t frequency;
    int64_t max_map, max_zone;/* number, RMG__UNLIMITED or RMG__RULE */
    int64_t amount;           /* custom variants: gold / experience / tent value; else the row's */
    int spell_min, spell_max, schools; /* custom spell Pandora's boxes */
} rmg__eff_entry;

typedef struct rmg__eff_list {
    rmg_context *ctx;
    const struct rmg_content *content;
    RMG__VEC(rmg__eff_entry) items;
} rmg__eff_list;

/* L0 (OBJ-04): every row of the content but mines and the airship yard, creature objects
 * expanded per creature; present = not banned by default. */
rmg_status rmg__eff_init(rmg_context *ctx, const struct rmg_content *content, rmg__eff_list *out);
rmg_status rmg__eff_copy(const rmg__eff_list *src, rmg__eff_list *out);
void rmg__eff_free(rmg__eff_list *list);
/* Applies rules in order (RUL-04). ref = NULL for template rules (defaults from the content),
 * L_map for zone rules (RUL-07). `zone_level` drops max_map (RUL-02). Errors name the rule's
 * location (file may be NULL). */
rmg_status rmg__eff_apply_rules(rmg__eff_list *list, const rmg__rule_list *rules, const rmg__eff_list *ref,
                                bool zone_level, const char *file);
/* What one object rule did to its list (rmg check): whether it named any entry of the list at
 * all, changed anything when it ran, whether any of its changes lasted to the end of the list,
 * and the last later rule of the list that overwrote one of its changes (-1 none). A rule that
 * changed nothing, or whose changes later rules all undid, has no effect (RUL-04/05, RUL-12). */
typedef struct rmg__rule_effect {
    bool matched, changed, effective;
    long undone_by;
} rmg__rule_effect;
/* effects[k] for rule k of `rules` applied to a copy of `base` as rmg__eff_apply_rules would
 * (template rules: base L0, ref NULL; zone rules: base and ref the uncapped L_map); `effects`
 * holds one entry per rule. */
rmg_status rmg__eff_rule_effects(const rmg__eff_list *base, const rmg__rule_list *rules, const rmg__eff_list *ref,
                                 bool zone_level, rmg__rule_effect *effects);
/* OBJ-07 / RUL-08: effective caps after all rules. */
void rmg__eff_apply_caps(rmg__eff_list *list);
/* The fixed per-map caps shared between `share` copies of the objects placed (a mirror map's two
 * levels, WAT-03): each entry may place at most the cap / share (rounded down). */
void rmg__eff_share_fixed_map_caps(rmg__eff_list *list, int share);
/* The effective cap of one configured value against the content default (OBJ-07). */
int64_t rmg__eff_cap(int64_t configured, int64_t def, bool fixed);
/* L_map (capped = false keeps configured caps, as zone rules need) or L_Z of template zone
 * index zone_index (-1: L_map). tpl may be NULL: L0 with caps. */
rmg_status rmg__eff_build(rmg_context *ctx, const struct rmg_content *content, const rmg__template *tpl,
                          long zone_index, const char *file, rmg__eff_list *out);
/* Index of the entry for object key (first creature entry for creature objects), or -1. */
long rmg__eff_find(const rmg__eff_list *list, const char *key, const char *creature);
/* True for objects whose value comes from CRE formulas. */
bool rmg__obj_is_creature_object(const rmg__object_def *d);
/* True if the object's family matches a rule group name (RUL-03; see effective.c for the list). */
bool rmg__family_matches(const rmg__object_def *d, const char *group);

/* ---- creature objects (CRE) ------------------------------------------------------------------- */

#define RMG__CRE_MAX_PLACED 150
/* min(CRE-06 count, 150): what a creature Pandora's box or Seer's Hut reward holds (CRE-07). */
int rmg__cre_placed_count(const rmg__creature *cr);
/* Creatures of a composite dwelling (CRE-03), from their keys; returns the count (<= cap). */
size_t rmg__composite_creatures(const struct rmg_content *c, const rmg__object_def *d, long *out, size_t cap);
/* The value of an entry given n per faction (array indexed by faction id 0..31) and N. */
int64_t rmg__eff_value(const struct rmg_content *c, const rmg__eff_entry *e, const int *n_by_faction, int N);

/* ---- the group algorithm (TRS-04..07) ---------------------------------------------------------- */

typedef struct rmg__trs_source {
    size_t n;                                  /* candidates */
    const int64_t *value;                      /* per candidate */
    const uint64_t *weight;                    /* frequency (0 = never picked) */
    const bool *single;                        /* OBJ-10: only alone, never a follow-up */
    /* TRS-05 limits, counting objects already chosen for this group: true if candidate i may be
     * taken once more. `taken` is called for each pick. */
    bool (*available)(void *user, size_t i);
    void (*taken)(void *user, size_t i);
    void *user;
    /* Optional (NULL: every pick scans all candidates): the candidates in ascending value
     * order, and n zeroed marks (left zeroed). A pick then weighs only the candidates of its
     * value interval and still draws among them in candidate order: the picks of a scan. */
    const uint32_t *by_value;
    uint8_t *mark;
} rmg__trs_source;

/* Builds one group for total T: writes candidate indexes in generation order to out (cap
 * RMG__TRS_MAX_OBJECTS) and returns their count; 0 means the attempt failed (TRS-06).
 * scratch holds src->n weights. */
size_t rmg__trs_group(const rmg__trs_source *src, int64_t T, rmg_rng *rng, uint64_t *scratch, size_t *out);
/* True while some total T in [min, max] still has a first object (TRS-06: false means every
 * attempt of the range would fail, the range is exhausted). */
bool rmg__trs_can_start(const rmg__trs_source *src, int64_t min, int64_t max);

/* ---- placement on tiles (tiles.c) ---------------------------------------------------------------- */

typedef struct rmg__pl_undo {
    uint32_t tile;
    uint16_t flags;
    uint32_t object;
} rmg__pl_undo;

#define RMG__PL_MAX_CLUSTER 96

typedef struct rmg__placer {
    rmg_context *ctx;
    struct rmg_map *m;
    RMG__VEC(rmg__pl_undo) undo;   /* tile changes since the last commit */
    uint32_t *zone_start;          /* per zone id: first index into zone_tiles (id + 1: end) */
    uint32_t *zone_tiles;
    uint32_t *seen, *prev, *queue, *cand, *dist; /* per-tile scratch */
    /* Open land per zone, kept up to date on every tile change (set, stamp, rollback): the
     * first open_n[z] entries of zone z's zone_tiles are exactly its open tiles; pos[t] is t's
     * index in zone_tiles. Candidate searches sample this set instead of rescanning the zone. */
    uint32_t *pos;
    uint32_t *open_n;
    uint32_t *free_n;              /* per zone: passable FREE tiles (the zone's public free area) */
    /* Per tile, kept up to date like the open sets: how many of its neighbours are passable FREE
     * tiles, and how many are passable and occupied (FREE, ENTRY, PASSAGE, GUARD or USED, not
     * BLOCKED). The placement searches ask "does t touch ..." for every tile they look at. */
    uint8_t *near_free, *near_busy;
    /* Per tile: how many neighbours belong to the cluster being laid out (valid when
     * near_cluster_epoch[t] == cluster_epoch). */
    uint8_t *near_cluster;
    uint32_t *near_cluster_epoch;
    uint8_t *open_here;            /* per tile: open land of its zone (as the open sets hold it) */
    size_t dry_n;                  /* tiles a dry layout took out of the open set */
    /* Per tile: place_id when, during the rmg__pl_place call place_id, a hub's path search
     * explored the tile's whole open region and found no free path to join (see try_cluster). */
    uint32_t *no_path, place_id;
    size_t searched;               /* tiles connect() explored (queue[0..searched)), when it failed */
    bool search_cut;               /* ... and it stopped at CARVE_MAX somewhere */
    /* Footprints seen lately, as tile offsets from their entry (a small cache by hash of the
     * masks): the fits tests visit only the footprint's tiles. */
    struct rmg__pl_shape {
        uint64_t block, visit;     /* normalized masks; both 0: an empty slot */
        int n;                     /* tiles */
        int adx, ady;              /* anchor from the entry */
        int8_t dx[48], dy[48];     /* tile from the entry, in bit order */
        bool visitable[48];
    } shapes[16];
    uint8_t *zone_edge;            /* per tile: within 2 steps on its level, another zone or the map's edge */
    struct rmg__pl_box { int x0, y0, x1, y1, level; } *box; /* per zone; level -1: several */
    uint32_t epoch;
    struct { uint32_t tile; bool walk; } cluster[RMG__PL_MAX_CLUSTER]; /* hub, pockets, entries */
    uint32_t *in_cluster, cluster_epoch; /* per tile: cluster_epoch while in the cluster being laid out */
    uint8_t *rim;                  /* per tile: 1 on the map's outer rows and columns */
    size_t n_cluster;
} rmg__placer;

typedef struct rmg__pl_mark {
    size_t undo, objects, groups;
} rmg__pl_mark;

typedef struct rmg__pl_item {
    const char *key;
    rmg_map_object_kind kind;
    uint64_t block, visit;         /* content footprint; both 0 = one tile with its entry */
    bool from_top;                 /* the game lets a hero enter from the row above
                                    * (rmg__map_visitable_from_top) */
} rmg__pl_item;

typedef struct rmg__pl_request {
    int zone;                      /* map zone id */
    const rmg__pl_item *items;
    size_t n_items;                /* > 1 only with hub */
    bool hub;                      /* a cluster around a hub tile (guard slot) */
    bool anarchy;                  /* MIS-44 */
    bool near;                     /* try candidates closest to (near_x, near_y, near_z) first */
    int near_x, near_y, near_z;
    int64_t max_dist2;             /* with near: only candidates within this squared distance (0 = any) */
    int tries;                     /* candidates tried (0 = 32) */
    /* Singles only: the footprint may also cover the zone's free paths (not passages); the
     * paths it cuts are re-joined around it over open land, or the spot is refused. For a town
     * in a small zone whose skeleton leaves no open spot as wide as the town. */
    bool over_free;
} rmg__pl_request;

typedef struct rmg__pl_result {
    bool placed;
    uint32_t first_object;         /* ids first_object .. first_object + n_items - 1 */
    uint32_t hub;                  /* hub tile index + 1 (clusters) */
} rmg__pl_result;

/* ---- treasure groups at sea (sea.c) ------------------------------------------------------------- */

struct sea_layout;
typedef struct rmg__sea {
    rmg_context *ctx;
    struct rmg_map *m;
    int zone;                      /* the water zone */
    uint8_t *coast_dist;           /* per tile: distance from land (capped), 0 on land */
    uint8_t *taken;                /* per tile scratch of a try */
    uint32_t *seen, stamp, *queue;
    uint32_t *open, *tiles;        /* the zone's water tiles (hub candidates) and all its tiles */
    size_t n_open, n_tiles;
    struct sea_layout *layout;
} rmg__sea;

/* Prepares the placement of groups in water zone `zone`. */
rmg_status rmg__sea_init(rmg__sea *sea, rmg_context *ctx, struct rmg_map *m, int zone);
void rmg__sea_free(rmg__sea *sea);
/* Lays items as one guarded group at sea (sea.c's header says how); res->placed false when no
 * hub of the tries had room. The objects get consecutive ids from res->first_object. */
rmg_status rmg__sea_place(rmg__sea *sea, const rmg__pl_item *items, size_t n, rmg_rng *rng, rmg__pl_result *res);

rmg_status rmg__pl_init(rmg__placer *p, rmg_context *ctx, struct rmg_map *m);
void rmg__pl_free(rmg__placer *p);
rmg__pl_mark rmg__pl_save(const rmg__placer *p);
/* Undoes tile changes, objects and groups made since mk. */
void rmg__pl_rollback(rmg__placer *p, rmg__pl_mark mk);
/* Forgets the journal (the changes become final). */
void rmg__pl_commit(rmg__placer *p);
/* Carves FREE paths until every open tile of the zone is within `reach` steps of the network. */
rmg_status rmg__pl_spread(rmg__placer *p, int zone, int reach);
/* Places the items; res->placed false (and nothing changed) when no room was found. */
rmg_status rmg__pl_place(rmg__placer *p, const rmg__pl_request *req, rmg_rng *rng, rmg__pl_result *res);
/* Neighbour k (0..7, row by row from the upper left) of tile t, or false when off the map. */
bool rmg__pl_neighbour(const struct rmg_map *m, size_t t, int k, size_t *out);

/* ---- the stage ---------------------------------------------------------------------------------- */

/* Failed group attempts before a range counts as full (TRS-06). */
#define RMG__TRS_MAX_FAILS 8
/* Largest distance of open land from the free paths before content (see rmg__pl_spread). */
#define RMG__SPREAD_REACH 6
/* Smallest FREE network a zone gets before content (see rmg__pl_spread): a guarded cluster
 * never encloses as many walkable tiles as the zone's free network holds, so the network stays
 * the zone's largest region once the open land is filled (tiny zones without passages, whose
 * network is the centre tile, would else get no content at all). */
#define RMG__SPREAD_MIN_FREE 24
/* Area in tiles per density unit of a treasure range (TRS-03, see stage.c). */
#define RMG__TRS_AREA_PER_DENSITY 640
/* A range whose mean total is above this asks for fewer groups (range_value_term in stage.c). */
#define RMG__TRS_VALUE_KNEE 13000.0
/* Area in tiles per density unit of extra towns, mines and airship yards (stage.c). */
#define RMG__EXTRA_AREA_PER_DENSITY 4096
/* Tiles per extra mine and unit of mine density (extra_mines in stage.c: a 128x128 zone). */
#define RMG__EXTRA_MINE_AREA_PER_DENSITY 16384

rmg_status rmg__stage_objects(rmg__gen *g);

#endif
