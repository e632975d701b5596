/*
 * Every object librmg places has an .h3m template whose masks are its footprint (issue 22): the
 * written file then blocks exactly the tiles the generator planned with. Checked on maps of the
 * built-in pack with the HotA and the SoD ruleset and on corpus templates, and on the table
 * itself (sorted, masks of the documented layout). Each object takes the sprite of the terrain
 * it stands on where its class has one (issue 32).
 */
#include <stdio.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_kinds.h"

/* Issue 32: the game's maps draw an object with the sprite of the terrain it stands on (a snowy
 * sawmill on snow, the lava campfire on lava) where the class has one. True when some usable row
 * of the class lists the terrain in its editor palette but `t` does not. */
static bool other_sprite_for_terrain(const rmg__h3m_known_template *t, int terrain, bool hota)
{
    if (terrain < 0 || terrain >= 16 || (t->menu & (1u << terrain)))
        return false;
    uint64_t block, visit;
    rmg__h3m_template_masks(t, &block, &visit);
    for (size_t i = 0; i < rmg__h3m_n_known_templates; i++) {
        const rmg__h3m_known_template *r = &rmg__h3m_known_templates[i];
        uint64_t b, v;
        rmg__h3m_template_masks(r, &b, &v);
        if (r->cls == t->cls && r->subclass == t->subclass && b == block && v == visit && (r->menu & (1u << terrain)) &&
            (r->terrains & (1u << terrain)) && (hota || r->edition == RMG__H3M_EDITION_SOD))
            return true;
    }
    return false;
}

static size_t check_map(const rmg_map *map, bool hota)
{
    const struct rmg_map *m = map;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        int cls = -1, sub = -1, shift = 0;
        const rmg__h3m_known_template *t = rmg__h3m_object_template(m, o, hota, &cls, &sub, &shift);
        if (!t)
            fail_msg("object %u (%s, kind %d) at %d,%d,%d: no %s template of class %d subclass %d with its footprint",
                     o->id, o->key, (int)o->kind, o->x, o->y, o->z, hota ? "HotA" : "SoD", cls, sub);
        assert_int_equal(t->cls, cls);
        assert_int_equal(t->subclass, sub);
        if (!hota)
            assert_int_equal(t->edition, RMG__H3M_EDITION_SOD);
        uint64_t block, visit;
        rmg__h3m_template_masks(t, &block, &visit);
        uint64_t b = shift >= 0 ? o->block >> shift : o->block << -shift;
        uint64_t v = shift >= 0 ? o->visit >> shift : o->visit << -shift;
        assert_true(block == b && visit == v);
        if (o->kind != RMG_OBJECT_OBSTACLE && other_sprite_for_terrain(t, rmg__h3m_object_terrain(m, o), hota))
            fail_msg("object %u (%s) at %d,%d,%d drawn with %s, not its terrain's sprite", o->id, o->key, o->x, o->y,
                     o->z, t->def);
        /* HotA 1.7's monster rows (one tile left), quest artifacts placed in their hut's shape */
        if (shift)
            assert_true((o->kind == RMG_OBJECT_MONSTER && hota && shift == 1) || (cls == 5 && shift == -1));
    }
    return m->objects.count;
}

static size_t generate_and_check(rmg_content_variant variant, const char *file, int side, int levels, uint64_t seed)
{
    rmg_context *ctx = rmg_test_context(NULL, seed);
    assert_int_equal(rmg_context_set_content_variant(ctx, variant), RMG_OK);
    rmg_pack *pack = NULL;
    if (file)
        assert_int_equal(rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack), RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = side;
    go.levels = levels;
    rmg_map *map = NULL;
    size_t n = 0;
    if (rmg_generate(ctx, pack, &go, &map) == RMG_OK)
        n = check_map(map, variant == RMG_CONTENT_HOTA);
    else
        print_message("%s: %s\n", file ? file : "built-in", rmg_context_errmsg(ctx));
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
    return n;
}

static void test_builtin_pack_objects_have_templates(void **state)
{
    (void)state;
    size_t n = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        n += generate_and_check(RMG_CONTENT_HOTA, NULL, 72, 1, seed);
        n += generate_and_check(RMG_CONTENT_HOTA, NULL, 108, 2, seed);
        n += generate_and_check(RMG_CONTENT_SOD, NULL, 72, 2, seed);
    }
    assert_true(n > 5000);
}

static void test_corpus_objects_have_templates(void **state)
{
    (void)state;
    const char *files[] = {"corpus/vcmi/hdmod/clashOfDragons.json",
                           "corpus/h3t/sokie__heroes3-template-util__templates__jebus_converted.h3t",
                           "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__2SM2c__rmg.txt"};
    size_t n = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *path = rmg_test_shared_present(files[i]);
        if (!path)
            continue;
        n += generate_and_check(RMG_CONTENT_HOTA, path, 0, 0, 2);
        n += generate_and_check(RMG_CONTENT_SOD, path, 0, 0, 2);
    }
    print_message("%zu corpus objects checked\n", n);
}

/* The writer searches the table by (class, subclass): it must be sorted so. */
static void test_table_is_sorted(void **state)
{
    (void)state;
    assert_true(rmg__h3m_n_known_templates > 1000);
    for (size_t i = 1; i < rmg__h3m_n_known_templates; i++) {
        const rmg__h3m_known_template *a = &rmg__h3m_known_templates[i - 1], *b = &rmg__h3m_known_templates[i];
        assert_true(a->cls < b->cls || (a->cls == b->cls && a->subclass <= b->subclass));
    }
}

/* h3m-format.md §14: bit c of byte r is column c of row r, 1 = passable; the anchor is byte 5
 * bit 7. The Altar of Sacrifice (AvXAltar.def): blocked at the anchor and left of it, visited on
 * the anchor. */
static void test_table_masks_follow_the_file_layout(void **state)
{
    (void)state;
    rmg__h3m_want w = {0, 0, NULL, 0, false, false};
    int shift = -1;
    w.block = (UINT64_C(1) << 47) | (UINT64_C(1) << 46);
    w.visit = UINT64_C(1) << 47;
    const rmg__h3m_known_template *t = rmg__h3m_pick_template(2, 0, &w, &shift);
    assert_non_null(t);
    assert_string_equal(t->def, "AvXAltar.def");
    assert_int_equal(shift, 0);
    assert_int_equal(t->passable[5], 0x3f);
    assert_int_equal(t->visitable[5], 0x80);
    for (int r = 0; r < 5; r++) {
        assert_int_equal(t->passable[r], 0xff);
        assert_int_equal(t->visitable[r], 0);
    }
    assert_int_equal(t->edition, RMG__H3M_EDITION_SOD);
    w.block = UINT64_C(1) << 47; /* no altar has this footprint */
    assert_null(rmg__h3m_pick_template(2, 0, &w, &shift));
}

/* Towns: the village picture for a town, the fort for a castle (SoD: the castle picture). */
static void test_town_pictures(void **state)
{
    (void)state;
    rmg__h3m_want w = {0, 0, NULL, 2, true, false};
    int shift;
    const rmg__h3m_known_template *any = NULL;
    for (size_t i = 0; i < rmg__h3m_n_known_templates && !any; i++)
        if (rmg__h3m_known_templates[i].cls == 98 && rmg__h3m_known_templates[i].subclass == 0)
            any = &rmg__h3m_known_templates[i];
    assert_non_null(any);
    rmg__h3m_template_masks(any, &w.block, &w.visit);
    assert_string_equal(rmg__h3m_pick_template(98, 0, &w, &shift)->def, "AVCcast0.def");
    w.castle = true;
    assert_string_equal(rmg__h3m_pick_template(98, 0, &w, &shift)->def, "AVCcasf0.def");
    w.hota = false;
    assert_string_equal(rmg__h3m_pick_template(98, 0, &w, &shift)->def, "AVCcasx0.def");
}

/* Issue 32: a mine is drawn with its terrain's sprite, as the game's maps have it. */
static void test_sawmill_takes_its_terrains_sprite(void **state)
{
    (void)state;
    const rmg__h3m_known_template *any = NULL;
    for (size_t i = 0; i < rmg__h3m_n_known_templates && !any; i++)
        if (rmg__h3m_known_templates[i].cls == 53 && rmg__h3m_known_templates[i].subclass == 0)
            any = &rmg__h3m_known_templates[i];
    assert_non_null(any);
    rmg__h3m_want w = {0, 0, NULL, RMG_TERRAIN_SNOW, false, false};
    rmg__h3m_template_masks(any, &w.block, &w.visit);
    int shift;
    const char *sprites[][2] = {{"snow", "AVMswsn0.def"}, {"grass", "AVMsawg0.def"}, {"lava", "AVMsawl0.def"},
                                {"rough", "AVMsawr0.def"}, {"dirt", "AVMsawd0.def"}};
    int terrains[] = {RMG_TERRAIN_SNOW, RMG_TERRAIN_GRASS, RMG_TERRAIN_LAVA, RMG_TERRAIN_ROUGH, RMG_TERRAIN_DIRT};
    for (size_t k = 0; k < sizeof terrains / sizeof terrains[0]; k++) {
        for (int hota = 0; hota < 2; hota++) {
            w.terrain = terrains[k];
            w.hota = hota;
            const rmg__h3m_known_template *t = rmg__h3m_pick_template(53, 0, &w, &shift);
            assert_non_null(t);
            if (strcmp(t->def, sprites[k][1]))
                fail_msg("a sawmill on %s (%s) is drawn with %s, not %s", sprites[k][0], hota ? "HotA" : "SoD", t->def,
                         sprites[k][1]);
        }
    }
}

/* Issue 19: the Boat the water pass puts where no shipyard fits is written with the game's boat
 * (class 8): its content footprint ("V.", the entry left of the anchor) is the template's. */
static void test_boat_has_the_games_template(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    const struct rmg_content *c = rmg__content_get(ctx);
    assert_non_null(c);
    long k = rmg__content_find_map_object(c, "boat");
    assert_true(k >= 0);
    const rmg__object_def *d = &c->map_objects[k];
    assert_int_equal(d->map_class, 8);
    rmg__h3m_want w = {d->footprint.block, d->footprint.visit, NULL, RMG_TERRAIN_WATER, false, false};
    int shift = -1;
    const rmg__h3m_known_template *t = rmg__h3m_pick_template(8, 0, &w, &shift);
    assert_non_null(t);
    assert_string_equal(t->def, "AVXboat0.def");
    assert_int_equal(shift, 0);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_boat_has_the_games_template),
        cmocka_unit_test(test_table_is_sorted),
        cmocka_unit_test(test_table_masks_follow_the_file_layout),
        cmocka_unit_test(test_town_pictures),
        cmocka_unit_test(test_sawmill_takes_its_terrains_sprite),
        cmocka_unit_test(test_builtin_pack_objects_have_templates),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_objects_have_templates),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
