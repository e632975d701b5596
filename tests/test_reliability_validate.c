/*
 * Map validation (issue 12): a generated map passes rmg_map_validate, and each check fires on
 * a map broken by hand in exactly the way it guards against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "map/map_internal.h"

typedef struct fixture {
    rmg_context *ctx;
    rmg_map *map;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ctx = rmg_test_context(NULL, 11);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 72;
    go.levels = 1;
    assert_int_equal(rmg_generate(f->ctx, NULL, &go, &f->map), RMG_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rmg_map_destroy(f->map);
    rmg_context_destroy(f->ctx);
    free(f);
    return 0;
}

/* Asserts the map has a violation whose text contains `needle` (or none when NULL). */
static void expect_violation(fixture *f, const char *needle)
{
    char *report = NULL;
    size_t count = 0;
    assert_int_equal(rmg_map_validate(f->map, &report, &count), RMG_OK);
    if (!needle) {
        if (count)
            fail_msg("unexpected violations:\n%s", report);
    } else if (!count || !strstr(report, needle)) {
        fail_msg("expected a violation containing '%s', got %zu:\n%s", needle, count, report ? report : "");
    }
    rmg_free(f->ctx, report);
}

static rmg__map_object *find_object(struct rmg_map *m, bool (*pred)(const struct rmg_map *, const rmg__map_object *))
{
    for (size_t i = 0; i < m->objects.count; i++)
        if (pred(m, &m->objects.items[i]))
            return &m->objects.items[i];
    return NULL;
}

static bool is_town(const struct rmg_map *m, const rmg__map_object *o)
{
    (void)m;
    return o->kind == RMG_OBJECT_TOWN;
}

static void test_generated_map_is_valid(void **state)
{
    expect_violation(*state, NULL);
}

static void test_validate_rejects_bad_arguments(void **state)
{
    fixture *f = *state;
    assert_int_equal(rmg_map_validate(NULL, NULL, NULL), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_map_validate(f->map, NULL, NULL), RMG_ERR_INVALID_ARG);
    size_t count = 99;
    assert_int_equal(rmg_map_validate(f->map, NULL, &count), RMG_OK);
    assert_int_equal(count, 0);
}

typedef struct tile_list {
    const struct rmg_map *m;
    int z;
    size_t tiles[48];
    size_t n;
} tile_list;

static void collect(void *user, int x, int y)
{
    tile_list *l = user;
    if (l->n < 48)
        l->tiles[l->n++] = rmg__tile(l->m->width, l->m->height, x, y, l->z);
}

/* A town whose entry is walled in: "entry not reachable". */
static void test_unreachable_entry_fires(void **state)
{
    fixture *f = *state;
    rmg__map_object *town = find_object(f->map, is_town);
    assert_non_null(town);
    tile_list l = {f->map, town->z, {0}, 0};
    rmg__footprint_tiles(town->visit, town->x, town->y, collect, &l);
    assert_true(l.n > 0);
    uint16_t saved[48];
    for (size_t k = 0; k < l.n; k++) {
        saved[k] = f->map->flags[l.tiles[k]];
        f->map->flags[l.tiles[k]] = (uint16_t)((saved[k] & ~RMG__T_ENTRY) | RMG__T_BLOCKED);
    }
    expect_violation(f, "entry not reachable");
    for (size_t k = 0; k < l.n; k++)
        f->map->flags[l.tiles[k]] = saved[k];
    expect_violation(f, NULL);
}

/* A zone whose free area is walled down to two distant tiles: split into two parts. */
static void test_split_zone_fires(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    uint16_t *saved = malloc(m->n_tiles * sizeof *saved);
    memcpy(saved, m->flags, m->n_tiles * sizeof *saved);
    size_t first = m->n_tiles, kept = 0;
    for (size_t t = 0; t < m->n_tiles; t++) {
        if (m->tile_zone[t] != 1 || !(rmg__map_tile_walkable(m, t) || (m->flags[t] & RMG__T_GUARD)))
            continue;
        int x = (int)(t % (size_t)m->width), y = (int)(t / (size_t)m->width % (size_t)m->height);
        int fx = (int)(first % (size_t)m->width), fy = (int)(first / (size_t)m->width % (size_t)m->height);
        if (first == m->n_tiles) {
            first = t;
            kept++;
        } else if (kept == 1 && (abs(x - fx) > 1 || abs(y - fy) > 1)) {
            kept++;
        } else {
            m->flags[t] = (uint16_t)((m->flags[t] & ~(RMG__T_ENTRY | RMG__T_GUARD)) | RMG__T_BLOCKED);
        }
    }
    assert_int_equal(kept, 2);
    expect_violation(f, "free area split into 2 parts");
    memcpy(m->flags, saved, m->n_tiles * sizeof *saved);
    free(saved);
    expect_violation(f, NULL);
}

/* A guarded group whose guard is removed from its tile: reachable without the fight. */
static void test_guard_bypass_fires(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    const rmg__map_group *g = NULL;
    for (size_t i = 0; i < m->groups.count && !g; i++)
        if (m->groups.items[i].guard && m->groups.items[i].objects.count)
            g = &m->groups.items[i];
    assert_non_null(g);
    const rmg__map_object *guard = &m->objects.items[g->guard - 1];
    size_t t = rmg__tile(m->width, m->height, guard->x, guard->y, guard->z);
    uint16_t saved = m->flags[t];
    m->flags[t] = (uint16_t)(saved & ~(RMG__T_GUARD | RMG__T_BLOCKED | RMG__T_OBJECT));
    expect_violation(f, "reachable without passing guard");
    m->flags[t] = saved;
    expect_violation(f, NULL);
}

/* Moves the first treasure onto the first town's anchor; returns the treasure (to restore). */
static rmg__map_object *treasure_onto_town(struct rmg_map *m, rmg__map_object *saved)
{
    rmg__map_object *town = find_object(m, is_town), *b = NULL;
    for (size_t i = 0; i < m->objects.count && !b; i++)
        if (m->objects.items[i].kind == RMG_OBJECT_TREASURE)
            b = &m->objects.items[i];
    assert_non_null(town);
    assert_non_null(b);
    *saved = *b;
    b->x = town->x;
    b->y = town->y;
    b->z = town->z;
    return b;
}

/* Two objects at the same anchor overlap. */
static void test_overlap_fires(void **state)
{
    fixture *f = *state;
    rmg__map_object saved;
    rmg__map_object *moved = treasure_onto_town(f->map, &saved);
    expect_violation(f, "overlap");
    *moved = saved;
    expect_violation(f, NULL);
}

/* A content object in a zone whose terrain its definition excludes (OBJ-08). */
static void test_forbidden_terrain_fires(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    const struct rmg_content *c = rmg__content_get(f->ctx);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        long d = o->kind == RMG_OBJECT_TREASURE ? rmg__content_find_object(c, o->key) : -1;
        if (d < 0 || !c->objects[d].terrains || c->objects[d].terrains_na)
            continue;
        int bad = -1;
        for (int t = 0; t < 10 && bad < 0; t++)
            if (!(c->objects[d].terrains & (1u << t)))
                bad = t;
        if (bad < 0)
            continue;
        /* OBJ-08 binds the zone's terrain (after conversion). */
        rmg__map_zone *z = &m->zones.items[o->zone - 1];
        int saved = z->terrain;
        z->terrain = bad;
        expect_violation(f, "is not one it allows");
        z->terrain = saved;
        expect_violation(f, NULL);
        return;
    }
    skip(); /* every object of this map may stand anywhere */
}

/* More copies of a capped object than its fixed cap allows (OBJ-07). */
static void test_fixed_cap_fires(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    const struct rmg_content *c = rmg__content_get(f->ctx);
    long capped = -1;
    for (size_t d = 0; d < c->n_objects; d++)
        if (c->objects[d].max_map_fixed && c->objects[d].max_map >= 0 &&
            (capped < 0 || c->objects[d].max_map < c->objects[capped].max_map))
            capped = (long)d;
    assert_true(capped >= 0);
    const char **keys = calloc(m->objects.count, sizeof *keys);
    size_t renamed = 0;
    for (size_t i = 0; i < m->objects.count && renamed <= (size_t)c->objects[capped].max_map; i++) {
        rmg__map_object *o = &m->objects.items[i];
        keys[i] = o->key;
        if (o->kind == RMG_OBJECT_TREASURE) {
            o->key = c->objects[capped].key;
            renamed++;
        }
    }
    assert_true(renamed > (size_t)c->objects[capped].max_map);
    expect_violation(f, "more than its fixed cap");
    for (size_t i = 0; i < m->objects.count; i++)
        if (keys[i])
            m->objects.items[i].key = keys[i];
    free(keys);
}

/* A real connection left unrealized without a reason, and a passage whose tiles are walled. */
static void test_connection_checks_fire(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    rmg__map_connection *c = NULL;
    for (size_t i = 0; i < m->conns.count && !c; i++)
        if (m->conns.items[i].realized == RMG_REALIZED_PASSAGE && m->conns.items[i].tiles.count)
            c = &m->conns.items[i];
    assert_non_null(c);
    c->realized = RMG_REALIZED_UNREALIZED;
    char *why = c->why;
    c->why = NULL;
    expect_violation(f, "not realized and no reason is given");
    c->why = why;
    c->realized = RMG_REALIZED_PASSAGE;
    size_t n = c->tiles.count;
    uint16_t *saved = calloc(n, sizeof *saved);
    for (size_t k = 0; k < n; k++) {
        saved[k] = m->flags[c->tiles.items[k]];
        m->flags[c->tiles.items[k]] = (uint16_t)((saved[k] & ~(RMG__T_GUARD | RMG__T_ENTRY)) | RMG__T_BLOCKED);
    }
    expect_violation(f, "passage tile is blocked");
    for (size_t k = 0; k < n; k++)
        m->flags[c->tiles.items[k]] = saved[k];
    free(saved);
    c->realized = RMG_REALIZED_MONOLITH;
    expect_violation(f, "realized by teleports");
    c->realized = RMG_REALIZED_PASSAGE;
    expect_violation(f, NULL);
}

rmg_status rmg__map_validate_internal(const struct rmg_map *map, rmg_context *ctx);

/* The stage and template zone the driver's validation error names (the stage it retries). */
static void expect_attribution(fixture *f, const char *stage, int zone, const char *rule)
{
    assert_int_equal(rmg__map_validate_internal(f->map, f->ctx), RMG_ERR_IMPOSSIBLE);
    rmg_error_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    assert_int_equal(rmg_context_error(f->ctx, &info), RMG_OK);
    printf("attributed: %s\n", info.message);
    assert_string_equal(info.stage, stage);
    assert_int_equal(info.zone, zone);
    assert_non_null(strstr(info.message, "map validation"));
    assert_non_null(strstr(info.message, rule));
}

/* The driver applies the same checks: a map that validates is what rmg_generate hands out,
 * and when it does not, the error names the stage responsible for the broken rule (which the
 * driver retries), the template zone and the rule. */
static void test_internal_validation_names_the_stage(void **state)
{
    fixture *f = *state;
    struct rmg_map *m = f->map;
    rmg__map_object saved;
    rmg__map_object *other = treasure_onto_town(m, &saved);
    int zone = m->zones.items[other->zone - 1].tpl_id;
    /* The moved treasure's entry is cut off too: that rule comes first; objects either way. */
    expect_attribution(f, "objects", zone, "rule '");
    *other = saved;
    assert_int_equal(rmg__map_validate_internal(m, f->ctx), RMG_OK);
    rmg__map_connection *c = NULL;
    for (size_t i = 0; i < m->conns.count && !c; i++)
        if (m->conns.items[i].realized == RMG_REALIZED_PASSAGE && m->conns.items[i].tiles.count)
            c = &m->conns.items[i];
    assert_non_null(c);
    c->realized = RMG_REALIZED_MONOLITH;
    expect_attribution(f, "connect", m->zones.items[c->zone_a - 1].tpl_id, "every connection realized");
    c->realized = RMG_REALIZED_PASSAGE;
    assert_int_equal(rmg__map_validate_internal(m, f->ctx), RMG_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_map_is_valid),
        cmocka_unit_test(test_validate_rejects_bad_arguments),
        cmocka_unit_test(test_unreachable_entry_fires),
        cmocka_unit_test(test_split_zone_fires),
        cmocka_unit_test(test_guard_bypass_fires),
        cmocka_unit_test(test_overlap_fires),
        cmocka_unit_test(test_forbidden_terrain_fires),
        cmocka_unit_test(test_fixed_cap_fires),
        cmocka_unit_test(test_connection_checks_fire),
        cmocka_unit_test(test_internal_validation_names_the_stage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
