/* Template selection (PCK-02): size codes, underground, players and humans, water, names,
 * zone/connection restriction filters, random choice from the context stream, clear errors. */
#include <string.h>

#include "rmg_test.h"
#include "template/model.h"

/* Three templates with distinct filters. */
static const char pack_yaml[] =
    "name: Sel\n"
    "templates:\n"
    "  - name: Small\n"
    "    min_size: 1\n"
    "    max_size: 4\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 1}\n"
    "      - {id: 2, kind: computer_start, owner: 2, size: 1}\n"
    "  - name: Big\n"
    "    min_size: 8\n"
    "    max_size: 32\n"
    "    water: [none]\n"
    "    players: {min_total: 2, max_total: 4}\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 1}\n"
    "      - {id: 2, kind: human_start, owner: 2, size: 1}\n"
    "      - {id: 3, kind: human_start, owner: 3, size: 1, players: {min_total: 3}}\n"
    "      - {id: 4, kind: computer_start, owner: 4, size: 1, players: {min_total: 4}}\n"
    "  - name: Huge\n"
    "    min_size: 8\n"
    "    max_size: 98\n"
    "    players: {min_humans: 2}\n"
    "    zones:\n"
    "      - {id: 1, kind: human_start, owner: 1, size: 1}\n"
    "      - {id: 2, kind: human_start, owner: 2, size: 1}\n";

static rmg_pack *load_pack(rmg_context *ctx)
{
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_load_string(ctx, pack_yaml, sizeof pack_yaml - 1, "s.yaml", RMG_FORMAT_YAML, &p), RMG_OK);
    return p;
}

static rmg_generate_options setup(int side, int levels, int players, int humans, rmg_water_level water)
{
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    o.width = o.height = side;
    o.levels = levels;
    o.players = players;
    o.humans = humans;
    o.water = water;
    return o;
}

static bool fits(const rmg_pack *p, const char *name, rmg_generate_options o)
{
    size_t t;
    assert_int_equal(rmg_pack_find_template(p, name, &t), RMG_OK);
    return rmg__template_fits(&p->templates[t], &o, NULL, 0);
}

/* PCK-02 size codes: (side/36)^2 x (2 if underground). */
static void test_size_codes(void **state)
{
    (void)state;
    assert_int_equal(rmg_size_code(36, 36, 1), 1);
    assert_int_equal(rmg_size_code(36, 36, 2), 2);
    assert_int_equal(rmg_size_code(72, 72, 1), 4);
    assert_int_equal(rmg_size_code(72, 72, 2), 8);
    assert_int_equal(rmg_size_code(108, 108, 1), 9);
    assert_int_equal(rmg_size_code(144, 144, 2), 32);
    assert_int_equal(rmg_size_code(180, 180, 1), 25);
    assert_int_equal(rmg_size_code(216, 216, 2), 72);
    assert_int_equal(rmg_size_code(252, 252, 2), 98);
}

static void test_filters(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_pack(ctx);
    /* Size and underground. */
    assert_true(fits(p, "Small", setup(72, 1, 2, 1, RMG_WATER_NONE)));          /* M = 4 */
    assert_false(fits(p, "Small", setup(72, 2, 2, 1, RMG_WATER_NONE)));         /* M+U = 8 */
    assert_true(fits(p, "Big", setup(72, 2, 2, 1, RMG_WATER_NONE)));
    assert_false(fits(p, "Big", setup(216, 1, 2, 1, RMG_WATER_NONE)));          /* XH = 36 */
    assert_true(fits(p, "Small", setup(0, 1, 2, 1, RMG_WATER_NONE)));           /* some size fits */
    assert_true(fits(p, "Small", setup(0, 2, 0, 0, RMG_WATER_NONE)));
    /* Players: Small has one human-capable start zone and two start zones. */
    assert_false(fits(p, "Small", setup(72, 1, 3, 1, RMG_WATER_NONE)));
    assert_false(fits(p, "Small", setup(72, 1, 2, 2, RMG_WATER_NONE)));
    /* Big: zone 3 exists from 3 players, zone 4 (computer only) from 4. */
    assert_true(fits(p, "Big", setup(144, 1, 3, 3, RMG_WATER_NONE)));
    assert_true(fits(p, "Big", setup(144, 1, 4, 3, RMG_WATER_NONE)));
    assert_false(fits(p, "Big", setup(144, 1, 4, 4, RMG_WATER_NONE)));
    assert_false(fits(p, "Big", setup(144, 1, 5, 1, RMG_WATER_NONE)));
    assert_false(fits(p, "Big", setup(144, 1, 1, 1, RMG_WATER_NONE)));
    /* Humans filter. */
    assert_false(fits(p, "Huge", setup(144, 1, 2, 1, RMG_WATER_NONE)));
    assert_true(fits(p, "Huge", setup(144, 1, 2, 2, RMG_WATER_NONE)));
    assert_true(fits(p, "Huge", setup(144, 1, 0, 2, RMG_WATER_NONE)));
    /* Water. */
    assert_false(fits(p, "Big", setup(144, 1, 2, 1, RMG_WATER_NORMAL)));
    assert_true(fits(p, "Huge", setup(144, 1, 2, 2, RMG_WATER_ISLANDS)));
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_zone_and_connection_activity(void **state)
{
    (void)state;
    rmg__zone z;
    rmg__zone_defaults(&z);
    assert_true(rmg__zone_active(&z, 2, 1));
    z.players = (rmg__player_filter){1, 2, 3, 4};
    assert_false(rmg__zone_active(&z, 2, 1));
    assert_true(rmg__zone_active(&z, 3, 1));
    assert_true(rmg__zone_active(&z, 4, 2));
    assert_false(rmg__zone_active(&z, 4, 3));
    assert_false(rmg__zone_active(&z, 5, 1));
    rmg__connection c;
    rmg__connection_defaults(&c);
    assert_true(rmg__connection_active(&c, 8, 8));
    c.players.max_total = 3;
    assert_false(rmg__connection_active(&c, 4, 1));
    assert_true(rmg__connection_active(&c, 3, 1));
}

static void test_random_choice_is_seeded_and_covers_all(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_pack(ctx);
    rmg_generate_options o = setup(144, 1, 2, 2, RMG_WATER_NONE); /* Big and Huge fit */
    int seen[3] = {0, 0, 0};
    for (uint64_t seed = 1; seed <= 64; seed++) {
        assert_int_equal(rmg_context_set_seed(ctx, seed), RMG_OK);
        size_t a, b;
        assert_int_equal(rmg_pack_select(ctx, p, &o, &a), RMG_OK);
        assert_int_equal(rmg_pack_select(ctx, p, &o, &b), RMG_OK);
        assert_int_equal(a, b); /* same seed, same choice */
        seen[a]++;
    }
    assert_int_equal(seen[0], 0);
    assert_true(seen[1] > 10 && seen[2] > 10);
    /* The internal entry point draws from the stream it is given. */
    rmg_rng rng;
    rmg_rng_seed(&rng, 5);
    const rmg__template *t = NULL;
    assert_int_equal(rmg__pack_select(p, &o, &rng, &t), RMG_OK);
    assert_true(t == &p->templates[1] || t == &p->templates[2]);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

static void test_by_name_and_errors(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_pack(ctx);
    rmg_generate_options o = setup(72, 1, 2, 1, RMG_WATER_NONE);
    size_t i = 99;
    o.template_name = "Small";
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_OK);
    assert_int_equal(i, 0);
    o.template_name = "Huge";
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_ERR_NOT_FOUND);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "template 'Huge' does not fit the setup: it is for sizes M+U, L, "
                                                    "XL, L+U, H, XL+U, XH, G, H+U, XH+U, G+U (size codes 8..98), not M"));
    o.template_name = "Nope";
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_ERR_NOT_FOUND);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "no template named 'Nope'"));
    /* None fits: the message names the setup and why each template refused. */
    o = setup(252, 1, 7, 1, RMG_WATER_NONE);
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_ERR_NOT_FOUND);
    const char *msg = rmg_context_errmsg(ctx);
    /* In the user's words: size names, the player count asked for, one line per template. */
    assert_non_null(strstr(msg, "no template of pack 'Sel' fits the setup (G, 7 players, 1 human):\n"));
    assert_non_null(strstr(msg, "\n  template 'Small': it is for sizes S, S+U, M (size codes 1..4), not G"));
    assert_non_null(strstr(msg, "\n  template 'Huge': its start zones and restrictions leave no room for the 7 "
                                "players asked for (1 human)"));
    o = setup(72, 1, 2, 3, RMG_WATER_NONE);
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_pack_select(ctx, NULL, &o, &i), RMG_ERR_INVALID_ARG);
    /* NULL options: defaults (template's choice of size and players, one human). */
    assert_int_equal(rmg_pack_select(ctx, p, NULL, &i), RMG_OK);
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* WAT-06: a mirror pack refuses maps without underground and assumes two levels when open. */
static void test_mirror_pack_needs_underground(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = load_pack(ctx);
    p->mirror = true;
    size_t i;
    rmg_generate_options o = setup(72, 1, 2, 1, RMG_WATER_NONE);
    assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_ERR_NOT_FOUND);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "mirror pack: it needs a map with an underground level (WAT-06)"));
    o.levels = 0; /* M with underground = 8: only Big and Huge */
    for (uint64_t seed = 1; seed <= 16; seed++) {
        assert_int_equal(rmg_context_set_seed(ctx, seed), RMG_OK);
        o.humans = 2;
        assert_int_equal(rmg_pack_select(ctx, p, &o, &i), RMG_OK);
        assert_true(i == 1 || i == 2);
    }
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

/* The built-in pack serves every standard 2-player setup S..XL, with and without underground. */
static void test_builtin_pack_covers_two_players(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *p = NULL;
    assert_int_equal(rmg_pack_builtin(ctx, &p), RMG_OK);
    for (int side = 36; side <= 144; side += 36)
        for (int levels = 1; levels <= 2; levels++) {
            rmg_generate_options o = setup(side, levels, 2, 1, RMG_WATER_NONE);
            size_t i;
            if (rmg_pack_select(ctx, p, &o, &i) != RMG_OK)
                fail_msg("%dx%d levels %d: %s", side, side, levels, rmg_context_errmsg(ctx));
        }
    rmg_generate_options four = setup(108, 2, 4, 2, RMG_WATER_NONE);
    size_t i;
    assert_int_equal(rmg_pack_select(ctx, p, &four, &i), RMG_OK);
    assert_string_equal(p->templates[i].name, "Quartet");
    rmg_pack_destroy(p);
    rmg_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_codes),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_zone_and_connection_activity),
        cmocka_unit_test(test_random_choice_is_seeded_and_covers_all),
        cmocka_unit_test(test_by_name_and_errors),
        cmocka_unit_test(test_mirror_pack_needs_underground),
        cmocka_unit_test(test_builtin_pack_covers_two_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
