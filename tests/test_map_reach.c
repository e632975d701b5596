/*
 * The game's movement model (issue 19, lib/map/map_reach.c) on small maps built by hand: the
 * side an object is entered from, monsters and their zones of control, one-way monoliths,
 * subterranean gates as the game pairs them, border guards and their tents, shipyards' boats
 * where the game builds them, Boat objects, and the zones a player is meant to reach.
 */
#include <string.h>

#include "rmg_test.h"
#include "map/map_reach.h"

#define W 16
#define H 10

typedef struct world {
    rmg_context *ctx;
    struct rmg_map *m;
    rmg__reach r;
    bool ready;
} world;

static size_t T(int x, int y, int z)
{
    return rmg__tile(W, H, x, y, z);
}

/* All land of zone 1, or rock where `rock` says (one string per row, '#' rock, '~' water of
 * zone 2). */
static void world_init(world *w, int levels, const char *const *rows)
{
    memset(w, 0, sizeof *w);
    w->ctx = rmg_test_context(NULL, 1);
    assert_int_equal(rmg__map_new(w->ctx, W, H, levels, &w->m), RMG_OK);
    for (int z = 0; z < levels; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                size_t t = T(x, y, z);
                char c = rows && z == 0 ? rows[y][x] : '.';
                w->m->tile_zone[t] = c == '~' ? 2 : 1;
                w->m->flags[t] = c == '#' ? RMG__T_ROCK | RMG__T_BLOCKED : c == '~' ? RMG__T_WATER | RMG__T_BLOCKED : 0;
            }
}

/* A one-tile object (entry = its tile) of kind at (x, y, z), colour `color`. */
static uint32_t add(world *w, const char *key, rmg_map_object_kind kind, int x, int y, int z, int color)
{
    rmg__map_object *o = rmg__map_add_object(w->m, key, kind, x, y, z);
    assert_non_null(o);
    o->block = o->visit = (uint64_t)1 << 47;
    o->color = color;
    o->zone = w->m->tile_zone[T(x, y, z)];
    assert_true(rmg__map_stamp_object(w->m, o));
    return o->id;
}

/* A shipyard "#V#" whose entry is at (x, y). */
static uint32_t add_shipyard(world *w, int x, int y)
{
    rmg__map_object *o = rmg__map_add_object(w->m, "shipyard", RMG_OBJECT_SHIPYARD, x + 1, y, 0);
    assert_non_null(o);
    o->block = (uint64_t)7 << 45;
    o->visit = (uint64_t)1 << 46;
    o->zone = 1;
    assert_true(rmg__map_stamp_object(w->m, o));
    return o->id;
}

static void flood(world *w, int x, int y, int z, unsigned flags)
{
    if (!w->ready) {
        assert_int_equal(rmg__reach_init(&w->r, w->m, NULL, w->ctx), RMG_OK);
        w->ready = true;
    }
    rmg__reach_from(&w->r, (uint32_t)T(x, y, z), flags, UINT32_MAX);
}

static bool reached(const world *w, uint32_t id)
{
    return w->r.object[id - 1] != 0;
}

static void world_done(world *w)
{
    if (w->ready)
        rmg__reach_free(&w->r);
    rmg_map_destroy(w->m);
    rmg_context_destroy(w->ctx);
}

/* Most objects are entered from their sides and below only; monsters, resources, artifacts and
 * a few sea and pass-through classes from above too (the game's visiting directions). */
static void test_objects_are_entered_from_the_sides_and_below(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "................", "................", "................", "................", "####.##########.",
        "####.##########.", "################", "################", "################", "################",
    };
    for (int from_top = 0; from_top < 2; from_top++) {
        world w;
        world_init(&w, 1, rows);
        /* The object sits in the rock at (4, 6): only the tile above it, (4, 5), is open. */
        uint32_t id = add(&w, from_top ? "monster" : "mill", from_top ? RMG_OBJECT_MONSTER : RMG_OBJECT_TREASURE, 4, 6,
                          0, -1);
        flood(&w, 0, 0, 0, 0);
        assert_int_equal(reached(&w, id), from_top);
        world_done(&w);
    }
    /* The classes the game opens from above (its editor groups 2-5 and the listed classes). */
    static const int top[] = {5,  6,  8,  9,  11, 12, 22, 29, 33, 34, 36, 54,  59,  65,  66,  67,  68,  69,  70,  71,
                              72, 73, 74, 75, 76, 79, 81, 82, 86, 93, 101, 111, 162, 163, 164, 212, 214, 215, 219};
    for (int cls = -1; cls <= 300; cls++) {
        bool listed = false;
        for (size_t k = 0; k < sizeof top / sizeof top[0]; k++)
            listed |= top[k] == cls;
        assert_int_equal(rmg__map_visitable_from_top(cls), listed);
    }
    assert_true(rmg__map_visitable_from_top(54));  /* monster */
    assert_true(rmg__map_visitable_from_top(79));  /* resource */
    assert_true(rmg__map_visitable_from_top(8));   /* boat */
    assert_false(rmg__map_visitable_from_top(53)); /* mine */
    assert_false(rmg__map_visitable_from_top(98)); /* town */
}

/* A monster is fought: its tile opens. Refusing fights, its tile and its 8 neighbours stop the
 * hero (its zone of control). */
static void test_monsters_and_zones_of_control(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "################", "################", "................", "################", "################",
        "################", "################", "################", "################", "################",
    };
    world w;
    world_init(&w, 1, rows);
    add(&w, "monster", RMG_OBJECT_MONSTER, 8, 2, 0, -1);
    uint32_t chest = add(&w, "chest", RMG_OBJECT_TREASURE, 15, 2, 0, -1);
    flood(&w, 0, 2, 0, 0);
    assert_true(reached(&w, chest));
    flood(&w, 0, 2, 0, RMG__REACH_NO_FIGHT);
    assert_false(reached(&w, chest));
    assert_true(w.r.tile[T(6, 2, 0)] & RMG__REACH_FOOT);
    assert_false(w.r.tile[T(7, 2, 0)] & RMG__REACH_FOOT); /* beside the monster: stopped there */
    world_done(&w);
}

/* A one-way entrance leads to the exits of its colour only; a colour without exits makes its
 * entrances lead to each other (ZON-36); two-way monoliths join their colour. */
static void test_one_way_and_two_way_monoliths(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "......#.........", "......#.........", "......#.........", "......#.........", "......#.........",
        "......#.........", "......#.........", "......#.........", "......#.........", "......#.........",
    };
    world w;
    world_init(&w, 1, rows);
    uint32_t in = add(&w, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 2, 2, 0, 3);
    uint32_t out = add(&w, "monolith_one_way_exit", RMG_OBJECT_MONOLITH, 10, 2, 0, 3);
    uint32_t far = add(&w, "chest", RMG_OBJECT_TREASURE, 12, 8, 0, -1);
    flood(&w, 0, 0, 0, 0);
    assert_true(reached(&w, out) && reached(&w, far));
    flood(&w, 15, 0, 0, 0); /* from the exit's side there is no way back */
    assert_false(reached(&w, in));
    world_done(&w);

    world_init(&w, 1, rows);
    add(&w, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 2, 2, 0, 5);
    uint32_t twin = add(&w, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 10, 2, 0, 5);
    flood(&w, 0, 0, 0, 0);
    assert_true(reached(&w, twin));
    world_done(&w);

    world_init(&w, 1, rows);
    add(&w, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 2, 2, 0, 5);
    uint32_t other = add(&w, "monolith_one_way_entrance", RMG_OBJECT_MONOLITH, 10, 2, 0, 6);
    flood(&w, 0, 0, 0, 0);
    assert_false(reached(&w, other)); /* another colour leads elsewhere */
    world_done(&w);

    world_init(&w, 1, rows);
    add(&w, "monolith_two_way", RMG_OBJECT_MONOLITH, 2, 2, 0, 7);
    uint32_t b = add(&w, "monolith_two_way", RMG_OBJECT_MONOLITH, 10, 2, 0, 7);
    uint32_t one_way = add(&w, "monolith_one_way_exit", RMG_OBJECT_MONOLITH, 12, 4, 0, 7);
    flood(&w, 15, 9, 0, 0);
    assert_true(w.r.object[0]); /* b's side reaches a through b */
    assert_true(reached(&w, b));
    assert_true(reached(&w, one_way)); /* walked to: same side */
    world_done(&w);
}

/* A hero who arrived through a two-way monolith steps off and back in: he comes out of the
 * monolith he first entered and stands on it, on its far side (issue 28: the flood jumped from
 * each monolith once, arrivals included, and never stood there). */
static void test_back_through_a_two_way_monolith(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "................", "################", "................", "................", "................",
        "................", "................", "................", "................", "................",
    };
    world w;
    world_init(&w, 1, rows);
    uint32_t a = add(&w, "monolith_two_way", RMG_OBJECT_MONOLITH, 5, 0, 0, 2); /* closes the top row */
    add(&w, "monolith_two_way", RMG_OBJECT_MONOLITH, 10, 5, 0, 2);
    uint32_t beyond = add(&w, "chest", RMG_OBJECT_TREASURE, 12, 0, 0, -1);
    flood(&w, 0, 0, 0, 0);
    assert_true(w.r.tile[T(5, 0, 0)] & RMG__REACH_FOOT); /* stood on a, back from b */
    assert_true(reached(&w, a) && reached(&w, beyond));
    world_done(&w);
}

/* HotA numbers two more objects under the Border Gate's class 212: the Grave (subclass 1001) is
 * visited and stood on like any object; the Quest Gate (1000) opens with no tent. A tent of a
 * subclass that is no colour gives no key. */
static void test_what_hota_numbers_as_a_border_gate(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "................", "................", "#######.########", "................", "................",
        "................", "................", "................", "................", "................",
    };
    static const char *const locks[3] = {"h3m_212_1001", "h3m_212_1000", "h3m_212_3"};
    static const char *const tents[2] = {"h3m_10_3", "h3m_10_1003"};
    for (int k = 0; k < 3; k++)
        for (int t = 0; t < 2; t++) {
            world w;
            world_init(&w, 1, rows);
            uint32_t lock = add(&w, locks[k], RMG_OBJECT_OBSTACLE, 7, 2, 0, -1);
            add(&w, tents[t], RMG_OBJECT_OBSTACLE, 4, 0, 0, -1);
            uint32_t beyond = add(&w, "chest", RMG_OBJECT_TREASURE, 8, 8, 0, -1);
            flood(&w, 0, 0, 0, 0);
            assert_true(reached(&w, lock)); /* visited */
            assert_int_equal(w.r.beh[lock - 1], k == 0 ? RMG__BEH_PLAIN : RMG__BEH_LOCK);
            /* The grave opens; a Border Gate of colour 3 with the tent of colour 3 only. */
            assert_int_equal(reached(&w, beyond), k == 0 || (k == 2 && t == 0));
            world_done(&w);
        }
}

/* Objects read from a file the ruleset does not know keep the class and subclass their key names
 * ("h3m_<class>_<subclass>", issue 28): monoliths of class 45 lead to those of their subclass
 * (colour) whatever kind the reader gave them; a key of another shape is no class key. */
static void test_objects_of_a_file_by_their_class(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "......#.........", "......#.........", "......#.........", "......#.........", "......#.........",
        "......#.........", "......#.........", "......#.........", "......#.........", "......#.........",
    };
    world w;
    world_init(&w, 1, rows);
    add(&w, "h3m_45_3", RMG_OBJECT_OBSTACLE, 2, 2, 0, -1);
    uint32_t same = add(&w, "h3m_45_3", RMG_OBJECT_OBSTACLE, 10, 2, 0, -1);
    flood(&w, 0, 0, 0, 0);
    assert_true(reached(&w, same));
    world_done(&w);

    world_init(&w, 1, rows);
    add(&w, "h3m_45_3", RMG_OBJECT_OBSTACLE, 2, 2, 0, -1);
    uint32_t other = add(&w, "h3m_45_4", RMG_OBJECT_OBSTACLE, 10, 2, 0, -1);
    flood(&w, 0, 0, 0, 0);
    assert_false(reached(&w, other)); /* colour 4 */
    int cls = -1, sub = -1;
    assert_true(rmg__map_file_class("h3m_163_12", &cls, &sub));
    assert_int_equal(cls, 163);
    assert_int_equal(sub, 12);
    assert_false(rmg__map_file_class("h3m_", &cls, &sub));
    assert_false(rmg__map_file_class("monolith_two_way", &cls, &sub));
    world_done(&w);
}

/* The game pairs each surface gate (by row, then column) with the nearest free underground
 * gate, whatever the generator meant. */
static void test_gates_pair_as_the_game_pairs_them(void **state)
{
    (void)state;
    world w;
    world_init(&w, 2, NULL);
    uint32_t top_a = add(&w, "subterranean_gate", RMG_OBJECT_GATE, 2, 2, 0, -1);
    uint32_t top_b = add(&w, "subterranean_gate", RMG_OBJECT_GATE, 12, 3, 0, -1);
    uint32_t low_near_b = add(&w, "subterranean_gate", RMG_OBJECT_GATE, 11, 3, 1, -1);
    uint32_t low_near_a = add(&w, "subterranean_gate", RMG_OBJECT_GATE, 3, 8, 1, -1);
    flood(&w, 0, 0, 0, 0);
    assert_int_equal(w.r.partner[top_a - 1], low_near_a - 1);
    assert_int_equal(w.r.partner[top_b - 1], low_near_b - 1);
    world_done(&w);
}

/* A Border Guard opens once a Keymaster's Tent of its colour was visited. */
static void test_border_guards_open_with_their_tent(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "................", "................", "#######.########", "................", "................",
        "................", "................", "................", "................", "................",
    };
    for (int tent_colour = 2; tent_colour <= 3; tent_colour++) {
        world w;
        world_init(&w, 1, rows);
        add(&w, "border_guard", RMG_OBJECT_BORDER_GUARD, 7, 2, 0, 3);
        add(&w, "keymaster_tent", RMG_OBJECT_KEYMASTER_TENT, 4, 0, 0, tent_colour);
        uint32_t beyond = add(&w, "chest", RMG_OBJECT_TREASURE, 8, 8, 0, -1);
        flood(&w, 0, 0, 0, 0);
        assert_int_equal(reached(&w, beyond), tent_colour == 3);
        world_done(&w);
    }
}

/* A visited shipyard builds its boat on the first free water of twelve tiles around its entry
 * (the columns two to each side, the row below, the row above); the boat sails the sea and lands
 * on the far shore. A Boat object is boarded from a neighbour. */
static void test_boats_cross_the_sea(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "..~~~~..........", "..~~~~..........", "..~~~~..........", "..~~~~..........", "..~~~~..........",
        "..~~~~..........", "..~~~~..........", "..~~~~..........", "..~~~~..........", "..~~~~..........",
    };
    world w;
    world_init(&w, 1, rows);
    uint32_t yard = add_shipyard(&w, 7, 2);
    uint32_t chest = add(&w, "chest", RMG_OBJECT_TREASURE, 0, 8, 0, -1);
    /* From the entry (7, 2) the game tries (5, 2) first: water. The hero boards it from (6, 1)
     * or (6, 3), beside the shipyard. */
    assert_int_equal(rmg__map_boat_spot(w.m, (uint32_t)T(7, 2, 0)), T(5, 2, 0));
    flood(&w, 15, 0, 0, 0);
    assert_true(reached(&w, yard));
    assert_true(reached(&w, chest));
    assert_true(w.r.tile[T(5, 2, 0)] & RMG__REACH_BOAT);
    world_done(&w);

    world_init(&w, 1, rows);
    chest = add(&w, "chest", RMG_OBJECT_TREASURE, 0, 8, 0, -1);
    flood(&w, 15, 0, 0, 0);
    assert_false(reached(&w, chest)); /* no shipyard, no boat */
    world_done(&w);

    world_init(&w, 1, rows);
    uint32_t boat = add(&w, "boat", RMG_OBJECT_BOAT, 5, 4, 0, -1);
    chest = add(&w, "chest", RMG_OBJECT_TREASURE, 0, 8, 0, -1);
    flood(&w, 15, 0, 0, 0);
    assert_true(reached(&w, boat) && reached(&w, chest));
    world_done(&w);
}

/* The zones a hero is meant to reach: the sea joins its shores only when asked (by_sea). */
static void test_zones_joined_by_sea(void **state)
{
    (void)state;
    static const char *const rows[H] = {
        "................", "................", "................", "~~~~~~~~~~~~~~~~", "~~~~~~~~~~~~~~~~",
        "~~~~~~~~~~~~~~~~", "................", "................", "................", "................",
    };
    world w;
    world_init(&w, 1, rows);
    for (int y = 6; y < H; y++)
        for (int x = 0; x < W; x++)
            w.m->tile_zone[T(x, y, 0)] = 3;
    flood(&w, 0, 0, 0, 0);
    uint8_t zones[4];
    uint32_t queue[4];
    rmg__reach_zones(&w.r, 1, false, zones, 4, queue);
    assert_true(zones[1] && !zones[2] && !zones[3]);
    rmg__reach_zones(&w.r, 1, true, zones, 4, queue);
    assert_true(zones[1] && zones[2] && zones[3]);
    world_done(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects_are_entered_from_the_sides_and_below),
        cmocka_unit_test(test_monsters_and_zones_of_control),
        cmocka_unit_test(test_one_way_and_two_way_monoliths),
        cmocka_unit_test(test_back_through_a_two_way_monolith),
        cmocka_unit_test(test_what_hota_numbers_as_a_border_gate),
        cmocka_unit_test(test_objects_of_a_file_by_their_class),
        cmocka_unit_test(test_gates_pair_as_the_game_pairs_them),
        cmocka_unit_test(test_border_guards_open_with_their_tent),
        cmocka_unit_test(test_boats_cross_the_sea),
        cmocka_unit_test(test_zones_joined_by_sea),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
