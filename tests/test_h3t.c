/* h3t / SoD importer: every column of every layout mapped to the template model (spec PCK,
 * TPL, ZON, CON, RUL; format notes ../shared/spec/h3t-format.md, columns docs/h3t-import.md). */
#include "test_h3t_sheet.h"

typedef struct fixture {
    rmg_context *ctx;
    struct rmg_pack *pack;
} fixture;

static fixture fx;

static int setup(void **state)
{
    (void)state;
    fx.ctx = rmg_test_context(NULL, 1);
    fx.pack = NULL;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rmg__pack_free(fx.pack);
    rmg_context_destroy(fx.ctx);
    return 0;
}

static struct rmg_pack *load(const sheet *s, int width)
{
    rmg__pack_free(fx.pack);
    fx.pack = load_sheet(fx.ctx, s, width);
    return fx.pack;
}

static const rmg__zone *zone(const struct rmg_pack *p, size_t t, int id)
{
    long i = rmg__template_find_zone(&p->templates[t], id);
    assert_true(i >= 0);
    return &p->templates[t].zones[i];
}

/* The same small template in every layout: the anchors of Appendix A land where they should. */
static void check_minimal(const struct rmg_pack *p, rmg_template_format format)
{
    assert_int_equal(p->format, format);
    assert_int_equal(p->n_templates, 1);
    const rmg__template *t = &p->templates[0];
    assert_string_equal(t->name, "T");
    assert_int_equal(t->min_size, 1);
    assert_int_equal(t->max_size, 98);
    assert_int_equal(t->n_zones, 2);
    assert_int_equal(zone(p, 0, 1)->kind, RMG_ZONE_HUMAN_START);
    assert_true(zone(p, 0, 1)->size == 10.0);
    assert_int_equal(zone(p, 0, 1)->monster_strength, RMG_MONSTERS_MEDIUM);
    assert_int_equal(zone(p, 0, 2)->kind, RMG_ZONE_TREASURE);
    assert_int_equal(zone(p, 0, 2)->monster_strength, RMG_MONSTERS_STRONG);
    assert_true(t->n_connections >= 1);
    assert_int_equal(t->connections[0].zone_a, 1);
    assert_int_equal(t->connections[0].zone_b, 2);
    assert_int_equal(t->connections[0].value, 5000);
    assert_int_equal(zone(p, 0, 1)->loc.line, 4);
    assert_int_equal(zone(p, 0, 2)->loc.line, 5);
}

static void test_layout_129_hota16(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L129);
    sheet_set(&s, 4, L129.town0 + 9, "x");        /* Cove, the last town of 1.6 */
    sheet_set(&s, 4, L129.terrain0 + 8, "x");     /* Highlands */
    sheet_set(&s, 4, L129.town_hint + 1, "2");    /* disposition: aggressive */
    sheet_set(&s, 4, L129.road, "+");
    sheet_set(&s, 4, L129.conn_restr + 3, "6");
    struct rmg_pack *p = load(&s, L129.width);
    check_minimal(p, RMG_FORMAT_H3T);
    assert_int_equal(zone(p, 0, 1)->allowed_towns, 1u << 9);
    assert_int_equal(zone(p, 0, 1)->allowed_terrains, 1u << 10);
    assert_int_equal(zone(p, 0, 1)->mood, RMG_MOOD_AGGRESSIVE);
    assert_int_equal(p->templates[0].connections[0].roads, RMG_ROAD_MANDATORY);
    assert_int_equal(p->templates[0].connections[0].players.max_total, 6);
}

static void test_layout_135_hota170(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L135);
    sheet_set(&s, 4, 14, "x");                    /* Forbid Hiring Heroes (P = 8) */
    sheet_set(&s, 4, L135.town0 + 10, "x");       /* Factory */
    sheet_set(&s, 4, 119, "1");                   /* Minimum airship shipyards */
    sheet_set(&s, 4, 120, "10");                  /* Airship shipyard Density */
    sheet_set(&s, 4, 121, "dt2_p");               /* Terrain Hint */
    struct rmg_pack *p = load(&s, L135.width);
    check_minimal(p, RMG_FORMAT_H3T);
    assert_true(p->forbid_hiring_heroes);
    assert_int_equal(zone(p, 0, 1)->allowed_towns, 1u << 10);
    assert_int_equal(zone(p, 0, 1)->airship_min, 1);
    assert_int_equal(zone(p, 0, 1)->airship_density, 10);
    assert_int_equal(zone(p, 0, 1)->n_type_rules, 1);
    assert_int_equal(zone(p, 0, 1)->type_rules[0].kind, RMG_TYPE_RULE_TERRAIN_NATIVE);
}

static void test_layout_137_hota17x(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L137);
    sheet_set(&s, 4, 122, "-4 -8");               /* Allowed Factions */
    sheet_set(&s, 4, 123, "s2");                  /* Faction Hint */
    struct rmg_pack *p = load(&s, L137.width);
    check_minimal(p, RMG_FORMAT_H3T);
    const rmg__zone *z = zone(p, 0, 1);
    assert_string_equal(z->allowed_factions_raw, "-4 -8");
    assert_true(z->allowed_factions_set);
    assert_int_equal(z->allowed_factions, 0x7FFu & ~((1u << 4) | (1u << 8)));
    assert_int_equal(z->n_type_rules, 1);
    assert_int_equal(z->type_rules[0].kind, RMG_TYPE_RULE_FACTION_SAME);
    assert_non_null(find_warning(p, "Allowed Factions"));
    assert_non_null(find_warning(p, "Faction Hint"));
}

static void test_layout_138_hota172(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L138);
    sheet_set(&s, 4, 124, "4500");                /* Max block value */
    struct rmg_pack *p = load(&s, L138.width);
    check_minimal(p, RMG_FORMAT_H3T);
    assert_int_equal(zone(p, 0, 1)->max_block_value, 4500);
    assert_non_null(find_warning(p, "Max block value"));
}

static void test_layout_140_hota18(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 59, "x");                    /* Bulwark town */
    sheet_set(&s, 4, 99, "x");                    /* Bulwark monsters */
    sheet_set(&s, 4, 126, "5000");                /* Max block value */
    struct rmg_pack *p = load(&s, L140.width);
    check_minimal(p, RMG_FORMAT_H3T);
    assert_int_equal(zone(p, 0, 1)->allowed_towns, 1u << 11);
    assert_int_equal(zone(p, 0, 1)->monster_factions, 1u << 11);
    assert_int_equal(zone(p, 0, 1)->max_block_value, 5000);
}

/* Every zone option, template option and connection option column of every HotA layout, at
 * the positions of Appendix A (the anchors of layout_cols), read into the same model. */
static void test_options_in_every_layout(void **state)
{
    (void)state;
    static const layout_cols *const layouts[] = {&L129, &L135, &L137, &L138, &L140};
    static const int zone_new[] = {12, 15, 17, 18, 18};
    for (size_t i = 0; i < RMG__ARRAY_LEN(layouts); i++) {
        const layout_cols *l = layouts[i];
        static const char *const opt[18] = {"ground", "+4 0 d d d d", "3", "1 2", "x", "x", "x", "s2_p", "1",
                                            "4", "2", "x", "1", "2", "d2", "-1", "s2", "777"};
        sheet s;
        sheet_minimal(&s, l);
        for (int k = 0; k < zone_new[i]; k++)
            sheet_set(&s, 4, l->placement + k, opt[k]);
        static const char *const map_opt[10] = {"+1", "+2", "+3", "+4", "-57 0", "2", "0.5", "x", "x", "x"};
        for (int k = 0; k < 10; k++)
            sheet_set(&s, 4, l->map_name + 3 + k, map_opt[k]);
        sheet_set(&s, 4, l->road, "-");
        sheet_set(&s, 4, l->road + 1, "teleport");
        sheet_set(&s, 4, l->road + 2, "x");
        sheet_set(&s, 4, l->road + 3, "x");
        sheet_set(&s, 4, l->conn_restr + 1, "2");
        struct rmg_pack *p = load(&s, l->width);
        const rmg__template *t = &p->templates[0];
        assert_int_equal(t->artifacts.items[0].id, 1);
        assert_int_equal(t->combo_artifacts.items[0].id, 2);
        assert_int_equal(t->spells.items[0].id, 3);
        assert_int_equal(t->skills.items[0].id, 4);
        assert_string_equal(t->rules.items[0].object, "obelisk");
        assert_true(t->rock_masses && t->rock_radius == 2.0);
        assert_true(t->zone_sparseness == 0.5);
        assert_false(t->special_weeks);
        assert_true(t->spell_research);
        assert_true(t->anarchy);
        const rmg__zone *z = zone(p, 0, 1);
        assert_int_equal(z->placement, RMG_PLACEMENT_SURFACE);
        assert_string_equal(z->rules.items[0].object, "arena");
        assert_string_equal(z->min_objects_raw, "3");
        assert_string_equal(z->image_raw, "1 2");
        assert_true(z->neutral_only && z->allow_noncoherent_roads && z->repulsion);
        assert_int_equal(z->type_rules[0].kind, RMG_TYPE_RULE_TOWN_SAME);
        assert_int_equal(z->mood, RMG_MOOD_FRIENDLY);
        assert_int_equal(z->mood_value, 4);
        assert_int_equal(z->join_percent, 75);
        assert_true(z->join_only_for_money);
        size_t hints = 1 + (zone_new[i] > 14) + (zone_new[i] > 16);
        assert_int_equal(z->n_type_rules, hints);
        assert_int_equal(z->airship_min, zone_new[i] > 12 ? 1 : 0);
        assert_int_equal(z->airship_density, zone_new[i] > 13 ? 2 : 0);
        assert_int_equal(z->allowed_factions_set, zone_new[i] > 15);
        assert_int_equal(z->max_block_value, zone_new[i] > 17 ? 777 : 0);
        const rmg__connection *c = &t->connections[0];
        assert_int_equal(c->roads, RMG_ROAD_FORBIDDEN);
        assert_int_equal(c->placement, RMG_LINK_MONOLITH);
        assert_int_equal(c->type, RMG_CONNECTION_FICTIVE);
        assert_true(c->monolith_repulsion);
        assert_int_equal(c->players.max_human, 2);
    }
}

/* SoD (spec §10): no counts, no pack, 9 towns, 8 terrains, "average", Border Guard "1". */
static void test_layout_sod(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &LSOD);
    sheet_set(&s, 4, 31, "x");                    /* Conflux ("Elemental") town */
    sheet_set(&s, 4, 54, "x");                    /* Lava */
    sheet_set(&s, 4, 55, "average");
    sheet_set(&s, 4, 57, "x");                    /* neutral monsters */
    sheet_set(&s, 4, 66, "x");                    /* Conflux ("Forge") monsters */
    sheet_set(&s, 5, 76, "2");
    sheet_set(&s, 5, 77, "1");
    sheet_set(&s, 5, 78, "9000");
    sheet_set(&s, 5, 80, "1");
    struct rmg_pack *p = load(&s, 183);           /* SoD rows are padded to 183 cells */
    check_minimal(p, RMG_FORMAT_SOD);
    const rmg__zone *z = zone(p, 0, 1);
    assert_int_equal(z->allowed_towns, 1u << 8);
    assert_int_equal(z->allowed_terrains, 1u << 7);
    assert_int_equal(z->monster_factions, (1u << 31) | (1u << 8));
    /* Settings SoD has no column for keep the spec defaults. */
    assert_true(p->templates[0].spell_research);
    assert_true(z->join_only_for_money);
    assert_int_equal(z->join_percent, 50);
    assert_int_equal(p->templates[0].n_connections, 2);
    assert_int_equal(p->templates[0].connections[1].type, RMG_CONNECTION_BORDER_GUARD);
    assert_int_equal(p->n_warnings, 0);
}

/* PCK-04..10: the pack columns of row 4. */
static void test_pck_pack_columns(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 7, "My pack");
    sheet_set(&s, 4, 8, "\"line one\nline two\"");
    sheet_set(&s, 4, 9, "-4 -8 ");
    sheet_set(&s, 4, 10, "-3 +160 ");
    sheet_set(&s, 4, 11, "x");
    sheet_set(&s, 4, 12, "duel");
    sheet_set(&s, 4, 13, "30");
    sheet_set(&s, 4, 14, "x");
    struct rmg_pack *p = load(&s, L140.width + 1);
    assert_string_equal(p->name, "My pack");
    assert_string_equal(p->description, "line one\nline two");
    assert_int_equal(p->allowed_towns, 0xFFFu & ~((1u << 4) | (1u << 8)));
    assert_int_equal(p->heroes.count, 2);
    assert_int_equal(p->heroes.items[0].id, 3);
    assert_false(p->heroes.items[0].allow);
    assert_int_equal(p->heroes.items[1].id, 160);
    assert_true(p->heroes.items[1].allow);
    assert_true(p->mirror);
    assert_string_equal(p->tags, "duel");
    assert_non_null(find_warning(p, "Pack/Tags"));
    assert_int_equal(p->max_battle_rounds, 30);
    assert_true(p->forbid_hiring_heroes);
    assert_string_equal(p->file, "test.h3t");
    /* The quoted line break does not shift the rows that follow. */
    assert_int_equal(zone(p, 0, 2)->loc.line, 5);
}

static void test_pck_empty_pack_columns_are_defaults(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    struct rmg_pack *p = load(&s, L140.width);
    assert_string_equal(p->name, "");
    assert_int_equal(p->allowed_towns, 0);
    assert_int_equal(p->heroes.count, 0);
    assert_false(p->mirror);
    assert_null(p->tags);
    assert_int_equal(p->max_battle_rounds, 0);
    assert_int_equal(p->n_warnings, 0);
}

/* TPL-02..07: the template ("Map") columns. */
static void test_tpl_map_columns(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 16, "4");
    sheet_set(&s, 4, 17, "36");
    sheet_set(&s, 4, 18, "+83 +126 -5 ");
    sheet_set(&s, 4, 19, "+1");
    sheet_set(&s, 4, 20, "-17 -18");
    sheet_set(&s, 4, 21, "-12");
    sheet_set(&s, 4, 22, "-n +4 0 d d d d ");
    sheet_set(&s, 4, 23, "0.8");
    sheet_set(&s, 4, 24, "0,5");
    sheet_set(&s, 4, 25, "x");
    sheet_set(&s, 4, 27, "x");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__template *t = &p->templates[0];
    assert_int_equal(t->min_size, 4);
    assert_int_equal(t->max_size, 36);
    assert_int_equal(t->artifacts.count, 3);
    assert_int_equal(t->artifacts.items[1].id, 126);
    assert_false(t->artifacts.items[2].allow);
    assert_int_equal(t->combo_artifacts.count, 1);
    assert_non_null(find_warning(p, "Combo Arts"));
    assert_int_equal(t->spells.count, 2);
    assert_int_equal(t->skills.count, 1);
    assert_int_equal(t->skills.items[0].id, 12);
    assert_int_equal(t->rules.count, 2);
    assert_int_equal(t->rules.items[0].target, RMG_TARGET_ALL);
    assert_string_equal(t->rules.items[1].object, "arena");
    assert_true(t->rock_masses);
    assert_true(t->rock_radius == 0.8);
    assert_true(t->zone_sparseness == 0.5);
    assert_false(t->special_weeks);
    assert_false(t->spell_research);   /* empty = off in HotA files */
    assert_true(t->anarchy);
    /* "x" = rock blocks with radius 1. */
    sheet_set(&s, 4, 23, "x");
    sheet_set(&s, 4, 26, "x");
    t = &load(&s, L140.width)->templates[0];
    assert_true(t->rock_masses);
    assert_true(t->rock_radius == 1.0);
    assert_true(t->spell_research);
}

/* ZON-*: every zone column of the 1.8 layout at its Appendix-A index. */
static void test_zon_zone_columns(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    static const char *const mines[14] = {"1", "0", "1", "", "", "", "2", "0", "1", "", "", "", "3", "4"};
    sheet_set(&s, 4, 30, "");
    sheet_set(&s, 4, 33, "12.5");
    for (int i = 0; i < 4; i++)
        sheet_set(&s, 4, 34 + i, (const char *[]){"1", "2", "3", "8"}[i]);
    sheet_set(&s, 4, 38, "3");
    for (int i = 0; i < 8; i++)
        sheet_set(&s, 4, 39 + i, (const char *[]){"1", "2", "3", "4", "5", "6", "7", "8"}[i]);
    sheet_set(&s, 4, 47, "x");
    sheet_set(&s, 4, 48, "x");
    sheet_set(&s, 4, 51, "x");
    for (int i = 0; i < 14; i++)
        sheet_set(&s, 4, 60 + i, mines[i]);
    sheet_set(&s, 4, 74, "x");
    sheet_set(&s, 4, 81, "x");   /* Cave */
    sheet_set(&s, 4, 84, "x");   /* Wasteland */
    sheet_set(&s, 4, 85, "weak");
    sheet_set(&s, 4, 86, "x");
    sheet_set(&s, 4, 87, "x");
    sheet_set(&s, 4, 89, "x");   /* Rampart monsters */
    for (int i = 0; i < 9; i++)
        sheet_set(&s, 4, 100 + i, (const char *[]){"500", "3000", "9", "3000", "6000", "6", "", "", ""}[i]);
    sheet_set(&s, 4, 109, "underground");
    sheet_set(&s, 4, 110, "+16 22 d 6000 6 3 d");
    sheet_set(&s, 4, 111, "7");
    sheet_set(&s, 4, 112, "12 34 56 78");
    sheet_set(&s, 4, 113, "x");
    sheet_set(&s, 4, 114, "x");
    sheet_set(&s, 4, 115, "x");
    sheet_set(&s, 4, 116, "s2_p");
    sheet_set(&s, 4, 117, "5");
    sheet_set(&s, 4, 118, "7");
    sheet_set(&s, 4, 119, "3");
    sheet_set(&s, 4, 120, "");
    sheet_set(&s, 4, 121, "2");
    sheet_set(&s, 4, 122, "15");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__zone *z = zone(p, 0, 1);
    assert_int_equal(z->kind, RMG_ZONE_HUMAN_START);
    assert_true(z->size == 12.5);
    assert_int_equal(z->players.min_human, 1);
    assert_int_equal(z->players.max_human, 2);
    assert_int_equal(z->players.min_total, 3);
    assert_int_equal(z->players.max_total, 8);
    assert_int_equal(z->owner, 3);
    assert_int_equal(z->player_towns, 1);
    assert_int_equal(z->player_castles, 2);
    assert_int_equal(z->player_town_density, 3);
    assert_int_equal(z->player_castle_density, 4);
    assert_int_equal(z->neutral_towns, 5);
    assert_int_equal(z->neutral_castles, 6);
    assert_int_equal(z->neutral_town_density, 7);
    assert_int_equal(z->neutral_castle_density, 8);
    assert_true(z->towns_same_type);
    assert_int_equal(z->allowed_towns, (1u << 0) | (1u << 3));
    assert_int_equal(z->mines_min[0], 1);
    assert_int_equal(z->mines_min[2], 1);
    assert_int_equal(z->mines_min[6], 2);
    assert_int_equal(z->mines_density[1], 1);
    assert_int_equal(z->mines_density[5], 3);
    assert_int_equal(z->mines_density[6], 4);
    assert_true(z->terrain_match_town);
    assert_int_equal(z->allowed_terrains, (1u << 6) | (1u << 11));
    assert_int_equal(z->monster_strength, RMG_MONSTERS_WEAK);
    assert_true(z->monsters_match_town);
    assert_int_equal(z->monster_factions, (1u << 31) | (1u << 1));
    assert_int_equal(z->treasure[0].min, 500);
    assert_int_equal(z->treasure[0].max, 3000);
    assert_int_equal(z->treasure[0].density, 9);
    assert_int_equal(z->treasure[1].max, 6000);
    assert_int_equal(z->treasure[2].density, 0);
    assert_int_equal(z->placement, RMG_PLACEMENT_UNDERGROUND);
    assert_int_equal(z->rules.count, 1);
    assert_string_equal(z->rules.items[0].object, "temple_of_the_sea");
    assert_string_equal(z->min_objects_raw, "7");
    assert_non_null(find_warning(p, "Minimum objects"));
    assert_string_equal(z->image_raw, "12 34 56 78");
    assert_true(z->neutral_only);
    assert_true(z->allow_noncoherent_roads);
    assert_true(z->repulsion);
    assert_int_equal(z->n_type_rules, 1);
    assert_int_equal(z->mood, RMG_MOOD_EXACT);
    assert_int_equal(z->mood_value, 7);
    assert_int_equal(z->join_percent, 100);
    assert_false(z->join_only_for_money);
    assert_int_equal(z->airship_min, 2);
    assert_int_equal(z->airship_density, 15);
    /* Zone 2 keeps the editor defaults where its cells are empty. */
    const rmg__zone *z2 = zone(p, 0, 2);
    assert_int_equal(z2->placement, RMG_PLACEMENT_ANY);
    assert_int_equal(z2->allowed_towns, 0);
    assert_int_equal(z2->mood, RMG_MOOD_HOSTILE);
    assert_int_equal(z2->join_percent, 50);
}

static void test_zon_types_and_moods(void **state)
{
    (void)state;
    static const struct { int col; rmg_zone_kind kind; } kinds[] = {
        {29, RMG_ZONE_HUMAN_START}, {30, RMG_ZONE_COMPUTER_START}, {31, RMG_ZONE_TREASURE}, {32, RMG_ZONE_JUNCTION}};
    static const rmg_mood moods[] = {RMG_MOOD_COMPLIANT, RMG_MOOD_FRIENDLY, RMG_MOOD_AGGRESSIVE, RMG_MOOD_HOSTILE,
                                     RMG_MOOD_SAVAGE};
    static const char *const digits[] = {"0", "1", "2", "3", "4"};
    for (size_t k = 0; k < RMG__ARRAY_LEN(kinds); k++) {
        sheet s;
        sheet_minimal(&s, &L140);
        sheet_set(&s, 4, 29, NULL);
        sheet_set(&s, 4, kinds[k].col, "x");
        sheet_set(&s, 4, 117, digits[k]);
        sheet_set(&s, 4, 119, digits[k]);
        sheet_set(&s, 4, 109, "ground");
        struct rmg_pack *p = load(&s, L140.width);
        assert_int_equal(zone(p, 0, 1)->kind, kinds[k].kind);
        assert_int_equal(zone(p, 0, 1)->mood, moods[k]);
        assert_int_equal(zone(p, 0, 1)->join_percent, 25 * (int)(k + 1));
        assert_int_equal(zone(p, 0, 1)->placement, RMG_PLACEMENT_SURFACE);
    }
    /* Strength "none"; no type flag at all = treasure with a warning; several = the first. */
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 29, NULL);
    sheet_set(&s, 4, 85, "none");
    sheet_set(&s, 5, 30, "x");
    struct rmg_pack *p = load(&s, L140.width);
    assert_int_equal(zone(p, 0, 1)->kind, RMG_ZONE_TREASURE);
    assert_int_equal(zone(p, 0, 1)->monster_strength, RMG_MONSTERS_NONE);
    assert_int_equal(zone(p, 0, 2)->kind, RMG_ZONE_COMPUTER_START);
    assert_non_null(find_warning(p, "row 4, column 30: zone without a type flag"));
    assert_non_null(find_warning(p, "row 5, column 30: zone with several type flags"));
}

/* CON-03..21: connection columns. */
static void test_con_connection_columns(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    static const struct { const char *wide, *guard, *road, *type, *fictive; rmg_connection_type ct;
                          rmg_road_setting roads; rmg_connection_placement place; } rows[] = {
        {"x", "", "+", "ground", "", RMG_CONNECTION_WIDE, RMG_ROAD_MANDATORY, RMG_LINK_GROUND},
        {"", "x", "-", "underground", "", RMG_CONNECTION_BORDER_GUARD, RMG_ROAD_FORBIDDEN, RMG_LINK_UNDERGROUND_GATE},
        {"", "", "", "teleport", "x", RMG_CONNECTION_FICTIVE, RMG_ROAD_RANDOM, RMG_LINK_MONOLITH},
        {"", "", "", "random", "", RMG_CONNECTION_STANDARD, RMG_ROAD_RANDOM, RMG_LINK_RANDOM},
        {"", "", "", "", "", RMG_CONNECTION_STANDARD, RMG_ROAD_RANDOM, RMG_LINK_DEFAULT},
    };
    for (int i = 0; i < 5; i++) {
        int row = 5 + i;
        sheet_set(&s, row, 127, "2");
        sheet_set(&s, row, 128, "1");
        sheet_set(&s, row, 129, "100");
        sheet_set(&s, row, 130, rows[i].wide);
        sheet_set(&s, row, 131, rows[i].guard);
        sheet_set(&s, row, 132, rows[i].road);
        sheet_set(&s, row, 133, rows[i].type);
        sheet_set(&s, row, 134, rows[i].fictive);
    }
    sheet_set(&s, 5, 135, "x");
    sheet_set(&s, 5, 136, "1");
    sheet_set(&s, 5, 137, "2");
    sheet_set(&s, 5, 138, "3");
    sheet_set(&s, 5, 139, "4");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__template *t = &p->templates[0];
    assert_int_equal(t->n_connections, 6);
    for (int i = 0; i < 5; i++) {
        const rmg__connection *c = &t->connections[1 + i];
        assert_int_equal(c->type, rows[i].ct);
        assert_int_equal(c->roads, rows[i].roads);
        assert_int_equal(c->placement, rows[i].place);
        assert_int_equal(c->loc.line, 5 + i);
        assert_int_equal(c->loc.column, 128);
    }
    const rmg__connection *c = &t->connections[1];
    assert_true(c->monolith_repulsion);
    assert_int_equal(c->players.min_human, 1);
    assert_int_equal(c->players.max_human, 2);
    assert_int_equal(c->players.min_total, 3);
    assert_int_equal(c->players.max_total, 4);
    assert_false(t->connections[2].monolith_repulsion);
    /* Zones and connections share rows but are independent lists (spec §3). */
    assert_int_equal(t->n_zones, 2);
}

static void test_con_several_types_and_placeholders(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 130, "x");
    sheet_set(&s, 4, 134, "x");
    sheet_set(&s, 5, 127, "0");
    sheet_set(&s, 5, 128, "0");
    sheet_set(&s, 5, 129, "0");
    sheet_set(&s, 6, 127, "1");
    sheet_set(&s, 6, 128, "9");
    sheet_set(&s, 6, 129, "10");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__template *t = &p->templates[0];
    assert_int_equal(t->connections[0].type, RMG_CONNECTION_FICTIVE);
    assert_non_null(find_warning(p, "row 4, column 131: connection with several"));
    /* "0 0 0" is a converter placeholder: dropped with a warning. */
    assert_int_equal(t->n_connections, 2);
    assert_non_null(find_warning(p, "row 5, column 128: placeholder connection"));
    /* An endpoint without a zone is kept for validation to report, with a warning. */
    assert_int_equal(t->connections[1].zone_b, 9);
    assert_non_null(find_warning(p, "row 6, column 128: connection names a zone the template does not have"));
}

/* Several templates: each starts at a row with a name; zones/connections restart (spec §3). */
static void test_tpl_several_templates(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 6, 15, "Second");
    sheet_set(&s, 6, 16, "4");
    sheet_set(&s, 6, 17, "8");
    sheet_set(&s, 6, 28, "1");
    sheet_set(&s, 6, 31, "x");
    sheet_set(&s, 6, 33, "5");
    sheet_set(&s, 6, 85, "avg");
    sheet_set(&s, 7, 127, "1");   /* a connection-only row of the second template */
    sheet_set(&s, 7, 128, "1");
    sheet_set(&s, 7, 129, "0");
    sheet_set(&s, 8, 0, "");      /* an empty row is ignored */
    struct rmg_pack *p = load(&s, L140.width);
    assert_int_equal(p->n_templates, 2);
    assert_int_equal(p->templates[0].n_zones, 2);
    assert_int_equal(p->templates[1].n_zones, 1);
    assert_int_equal(p->templates[1].n_connections, 1);
    assert_string_equal(p->templates[1].name, "Second");
    assert_int_equal(p->templates[1].loc.line, 6);
    assert_int_equal(p->templates[1].loc.column, 16);
}

/* ZON-29..36: mirror links are connection rows with Zone 2 = -1 (spec §8.1). */
static void test_zon29_mirror_links(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    static const char *const codes[] = {"r t2 t3", "x o0 o1", "s s", "e4 sr", "x"};
    for (int i = 0; i < 5; i++) {
        sheet_set(&s, 5 + i, 127, i == 4 ? "1" : "2");
        sheet_set(&s, 5 + i, 128, "-1");
        sheet_set(&s, 5 + i, 129, "7000");
        sheet_set(&s, 5 + i, 131, codes[i]);
    }
    sheet_set(&s, 6, 132, "+");   /* legacy files keep the roads in the Road column */
    sheet_set(&s, 5, 135, "x");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__template *t = &p->templates[0];
    assert_int_equal(t->n_connections, 1);
    const rmg__zone *z2 = zone(p, 0, 2), *z1 = zone(p, 0, 1);
    assert_int_equal(z2->n_mirror_links, 4);
    assert_int_equal(z1->n_mirror_links, 1);
    const rmg__mirror_link *m = z2->mirror_links;
    assert_int_equal(m[0].surface_kind, RMG_TELEPORT_TWO_WAY);
    assert_int_equal(m[0].surface_color, 2);
    assert_int_equal(m[0].underground_kind, RMG_TELEPORT_TWO_WAY);
    assert_int_equal(m[0].underground_color, 3);
    assert_true(m[0].roads);
    assert_true(m[0].monolith_repulsion);
    assert_int_equal(m[0].value, 7000);
    assert_string_equal(m[0].raw, "r t2 t3");
    assert_int_equal(m[0].loc.line, 5);
    assert_int_equal(m[1].surface_kind, RMG_TELEPORT_ONE_WAY_ENTRANCE);
    assert_int_equal(m[1].underground_color, 1);
    assert_true(m[1].roads);
    assert_false(m[1].monolith_repulsion);
    assert_int_equal(m[2].surface_kind, RMG_TELEPORT_GATE);
    assert_int_equal(m[2].surface_color, -1);
    assert_false(m[2].roads);
    assert_int_equal(m[3].surface_kind, RMG_TELEPORT_ONE_WAY_EXIT);
    assert_int_equal(m[3].underground_kind, RMG_TELEPORT_GATE);
    assert_non_null(find_warning(p, "'sr'"));
    assert_int_equal(z1->mirror_links[0].surface_kind, RMG_TELEPORT_NONE);
    assert_non_null(find_warning(p, "legacy marker"));
}

static void test_zon29_mirror_link_errors(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 5, 127, "7");
    sheet_set(&s, 5, 128, "-1");
    sheet_set(&s, 5, 129, "0");
    sheet_set(&s, 5, 131, "t1 t2");
    /* Outside a mirror pack the game ignores the row: read with a warning. */
    struct rmg_pack *p = load(&s, L140.width);
    assert_int_equal(zone(p, 0, 1)->n_mirror_links + zone(p, 0, 2)->n_mirror_links, 0);
    assert_non_null(find_warning(p, "row 5, column 128: connection row with Zone 2 = -1 for a zone the template does "
                                    "not have, in a pack that is not a mirror pack: ignored"));
    sheet_set(&s, 4, 11, "x"); /* Pack/Mirror */
    expect_error(&s, L140.width, "row 5, column 128 (Connections/Zone 1): mirror link (Zone 2 = -1) for zone 7");
    sheet_set(&s, 5, 127, "2");
    sheet_set(&s, 5, 131, "q1 t2");
    expect_error(&s, L140.width, "row 5, column 132 (Connections/Border Guard): mirror link code 'q1 t2'");
}

/* FAC-03, ZON-09 (issue 20): in a HotA file a zone with no town flag bans every town (the
 * editor's way to say so; the guide then takes a townless zone's faction from its terrain); a
 * zone with flags lists them. SoD's own files leave the flags of their zones empty meaning no
 * restriction. */
static void test_fac03_no_town_flag_bans_every_town(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, L140.town0 + 1, "x"); /* zone 1: Rampart only */
    struct rmg_pack *p = load(&s, L140.width);
    assert_false(zone(p, 0, 1)->all_towns_banned);
    assert_int_equal(zone(p, 0, 1)->allowed_towns, 1u << RMG_FACTION_RAMPART);
    assert_true(zone(p, 0, 2)->all_towns_banned);
    assert_int_equal(zone(p, 0, 2)->allowed_towns, 0);
    assert_int_equal(rmg__zone_allowed_towns(zone(p, 0, 2), 0x7FFu), 0);
    sheet_minimal(&s, &LSOD);
    p = load(&s, 183);
    assert_false(zone(p, 0, 2)->all_towns_banned);
    assert_int_equal(rmg__zone_allowed_towns(zone(p, 0, 2), 0x7FFu), 0x7FFu);
}

/* Issue 20, templates as the game takes them: a number cell holding a list ("9, 8", seen in a
 * SoD rmg.txt connection) is read as its first number with a warning. */
static void test_number_list_cell_reads_its_first_number(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &LSOD);
    sheet_set(&s, 5, 76, "2");
    sheet_set(&s, 5, 77, "1");
    sheet_set(&s, 5, 78, "9, 8");
    struct rmg_pack *p = load(&s, 183);
    assert_int_equal(p->templates[0].connections[1].value, 9);
    assert_non_null(find_warning(p, "row 5, column 79: list of numbers in an integer column: the first is used"));
}

/* Issue 20: a file cut inside its last row (fewer cells than a row has, no line break) is
 * truncated: the template records it, and `rmg check` reports an error for it. */
static void test_truncated_last_row_is_reported(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    size_t len;
    char *text = sheet_text(&s, L140.width, &len);
    size_t cut = len - strlen("\r\n") - 20; /* inside the last row */
    struct rmg_pack *p = load_text(fx.ctx, text, cut);
    const rmg__template *t = &p->templates[0];
    assert_non_null(t->damage);
    assert_non_null(strstr(t->damage, "row 5 has"));
    assert_non_null(strstr(t->damage, "the file is truncated"));
    rmg_validation *v = NULL;
    assert_int_equal(rmg_pack_validate(p, &v), RMG_OK);
    assert_int_equal(rmg_validation_error_count(v), 1);
    rmg_message m = {sizeof m, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0};
    assert_int_equal(rmg_validation_get(v, 0, &m), RMG_OK);
    assert_string_equal(m.code, "truncated");
    rmg_validation_destroy(v);
    rmg__pack_free(p);
    /* The whole file, or one whose last row only lacks its line break, is whole. */
    p = load_text(fx.ctx, text, len - strlen("\r\n"));
    assert_null(p->templates[0].damage);
    rmg__pack_free(p);
    free(text);
}

/* ID lists (spec §6.1). */
static void test_id_lists(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 20, " +0  -69 +70 ");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__override_list *l = &p->templates[0].spells;
    assert_int_equal(l->count, 3);
    assert_int_equal(l->items[0].id, 0);
    assert_true(l->items[0].allow);
    assert_int_equal(l->items[1].id, 69);
    assert_false(l->items[1].allow);
    sheet_set(&s, 4, 20, "+1 12");
    expect_error(&s, L140.width, "row 4, column 21 (Map/Spells): expected +ID or -ID, found '12'");
    sheet_set(&s, 4, 20, "+99999");
    expect_error(&s, L140.width, "row 4, column 21 (Map/Spells): id 99999 out of range");
    sheet_set(&s, 4, 20, NULL);
    sheet_set(&s, 4, 9, "-12");
    expect_error(&s, L140.width, "row 4, column 10 (Pack/Town selection)");
}

/* ---- object rules (RUL-02/03, OBJ-15; spec §6.2/6.3) ------------------------------------------ */

typedef struct rule_case {
    const char *text;
    size_t index;             /* which of the produced rules to check */
    size_t count;             /* how many rules the text produces */
    rmg_rule_op op;
    rmg_rule_target target;
    const char *name;         /* object, family (or creature for CREATURE: family in `family`) */
    const char *creature;
    int level;
    int64_t amount;
    int64_t value, frequency, max_map, max_zone, extra;
} rule_case;

#define D RMG__PARAM_DEFAULT
#define U RMG__PARAM_UNLIMITED

static const rule_case rule_cases[] = {
    {"+16 22 d 6000 6 3", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "temple_of_the_sea", NULL, -1, 0, D, 6000, 6, 3, D},
    {"-n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_ALL, NULL, NULL, -1, 0, D, D, D, D, D},
    {"+79 6 25 3 d 7", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "resource_gold", NULL, -1, 0, 25, 3, D, 7, D},
    {"+6 0 0 L 4 d 60 d 5", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE_LEVEL, "pandora_creatures", NULL, 5, 0, D, 60,
     D, 5, D},
    {"+6 0 0 13 d 5 n n", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE, "pandora_creatures", "archangel", -1, 0, D, 5,
     U, U, D},
    {"+6 0 1 5000 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_exp_5000", NULL, -1, 0, D, D, D, D, D},
    {"+6 0 1 7777 9000 5 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "pandora_experience", NULL, -1, 7777, 9000, 5,
     D, D, D},
    {"+6 0 2 3000 3000 5 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "pandora_gold", NULL, -1, 3000, 3000, 5, D, D,
     D},
    {"+6 0 2 20000 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_gold_20000", NULL, -1, 0, D, D, D, D,
     D},
    {"+6 0 3 3 3 15 d 2 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_spells_level_3", NULL, -1, 0, D, 2, D,
     D, D},
    {"+6 0 3 1 5 15 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_spells_all", NULL, -1, 0, D, D, D, D,
     D},
    {"+6 0 3 1 5 1 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_spells_air", NULL, -1, 0, D, D, D, D,
     D},
    {"+6 0 3 1 5 8 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "pandora_spells_earth", NULL, -1, 0, D, D, D, D,
     D},
    {"+83 n 0 L 2 d 3 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE_LEVEL, "seer_artifact_creatures", NULL, 3, 0,
     D, 3, D, D, D},
    {"+83 n 2 99999 d 3 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "seer_artifact_gold", NULL, -1, 99999, D, 3, D,
     D, D},
    {"+83 n 1 10000 d 3 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "seer_artifact_exp_10000", NULL, -1, 0, D, 3,
     D, D, D},
    {"+62 0 5000 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "prison_level_5", NULL, -1, 0, D, D, D, D, D},
    {"+62 0 999 4000 d 2 d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "prison", NULL, -1, 999, 4000, D, 2, D, D},
    {"+93 0 6 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "spell_scroll_special", NULL, -1, 0, D, D, D, D, D},
    {"+93 0 2 d d d 1", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "spell_scroll_level_2", NULL, -1, 0, D, D, D, 1, D},
    {"+17 43 d 40 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE, "creature_dwelling", "gremlin", -1, 0, D, 40, D, D,
     D},
    {"+17 L 3 d 40 d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE_LEVEL, "creature_dwelling", NULL, 4, 0, D, 40, D,
     D, D},
    {"+10 n 7500 10 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "keymaster_tent_7500", NULL, -1, 0, 7500, 10, D, D,
     D},
    {"+10 n 1234 10 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CUSTOM, "keymaster_tent", NULL, -1, 1234, 1234, 10, D, D,
     D},
    {"+20 1 d 10 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "golem_factory", NULL, -1, 0, D, 10, D, D, D},
    {"+145 0 5000 200 d d 520", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "ancient_lamp", NULL, -1, 0, 5000, 200, D, D,
     520},
    {"-17 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "creature_dwelling", NULL, -1, 0, D, D, D, D, D},
    {"-17 L 3", 0, 1, RMG_RULE_FORBID, RMG_TARGET_CREATURE_LEVEL, "creature_dwelling", NULL, 4, 0, D, D, D, D, D},
    {"-6 0 3", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "pandora_spells", NULL, -1, 0, D, D, D, D, D},
    {"-6 0 n", 3, 4, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "pandora_spells", NULL, -1, 0, D, D, D, D, D},
    {"-6 0 1 5000", 0, 1, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "pandora_exp_5000", NULL, -1, 0, D, D, D, D, D},
    {"-83 n n", 2, 3, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "seer_artifact_gold", NULL, -1, 0, D, D, D, D, D},
    {"-83 n 0 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "seer_artifact_creatures", NULL, -1, 0, D, D, D, D, D},
    {"-62 0 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "prison", NULL, -1, 0, D, D, D, D, D},
    {"-93 0 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "spell_scroll", NULL, -1, 0, D, D, D, D, D},
    {"-79 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "resource", NULL, -1, 0, D, D, D, D, D},
    {"-16 n", 0, 19, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "beholders_sanctuary", NULL, -1, 0, D, D, D, D, D},
    {"-57 0", 0, 1, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "obelisk", NULL, -1, 0, D, D, D, D, D},
    {"-10 n", 0, 1, RMG_RULE_FORBID, RMG_TARGET_FAMILY, "keymaster_tent", NULL, -1, 0, D, D, D, D, D},
    {"+999 0 d d d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_OBJECT, "h3m_999_0", NULL, -1, 0, D, D, D, D, D},
    {"-999", 0, 1, RMG_RULE_FORBID, RMG_TARGET_OBJECT, "h3m_999", NULL, -1, 0, D, D, D, D, D},
    {"+6 0 0 9999 d 5 d d", 0, 1, RMG_RULE_ALLOW, RMG_TARGET_CREATURE, "pandora_creatures", "h3m_creature_9999", -1,
     0, D, 5, D, D, D},
};

static void check_rule(const rule_case *c, const rmg__rule_list *l)
{
    assert_int_equal(l->count, c->count);
    const rmg__rule *r = &l->items[c->index];
    assert_int_equal(r->op, c->op);
    assert_int_equal(r->target, c->target);
    if (c->target == RMG_TARGET_OBJECT)
        assert_string_equal(r->object, c->name);
    else if (c->target != RMG_TARGET_ALL)
        assert_string_equal(r->family, c->name);
    if (c->creature)
        assert_string_equal(r->creature, c->creature);
    else
        assert_null(r->creature);
    assert_int_equal(r->level, c->level);
    assert_int_equal(r->amount, c->amount);
    assert_int_equal(r->value, c->value);
    assert_int_equal(r->frequency, c->frequency);
    assert_int_equal(r->max_map, c->max_map);
    assert_int_equal(r->max_zone, c->max_zone);
    assert_int_equal(r->extra, c->extra);
    assert_string_equal(r->raw, c->text);
    assert_int_equal(r->loc.line, 4);
}

static void test_rul02_object_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < RMG__ARRAY_LEN(rule_cases); i++) {
        sheet s;
        sheet_minimal(&s, &L140);
        sheet_set(&s, 4, 110, rule_cases[i].text);   /* zone-level Objects */
        struct rmg_pack *p = load(&s, L140.width);
        const rmg__zone *z = zone(p, 0, 1);
        check_rule(&rule_cases[i], &z->rules);
        assert_int_equal(z->rules.items[0].loc.column, 111);
    }
}

static void test_rul02_custom_spells_and_warnings(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 22, "+6 0 3 2 4 6 d d d d  +999 0 d d d d +6 0 0 9999 d 5 d d +145 0 5000 200 d d 520");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__rule *r = &p->templates[0].rules.items[0];
    assert_int_equal(r->target, RMG_TARGET_CUSTOM);
    assert_string_equal(r->family, "pandora_spells");
    assert_int_equal(r->spell_min, 2);
    assert_int_equal(r->spell_max, 4);
    assert_int_equal(r->schools, 6);
    assert_int_equal(r->loc.column, 23);
    assert_non_null(find_warning(p, "row 4, column 23: object rule names an object the data tables do not know"));
    assert_non_null(find_warning(p, "unknown creature id"));
    assert_non_null(find_warning(p, "1.8 extra object-rule field"));
    /* RUL-02: a per-map limit in a zone rule is kept and reported. */
    sheet_set(&s, 5, 110, "+4 0 d d 3 d");
    p = load(&s, L140.width);
    assert_int_equal(zone(p, 0, 2)->rules.items[0].max_map, 3);
    assert_non_null(find_warning(p, "row 5, column 111: zone-level object rule with a per-map limit"));
}

/* RUL-01/04: order is kept, template rules and zone rules are separate lists. */
static void test_rul04_rule_order(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 22, "+4 0 d d d d -n ");
    sheet_set(&s, 5, 110, "-n +4 0 d d d d +7 0 d d d d ");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__rule_list *t = &p->templates[0].rules, *z = &zone(p, 0, 2)->rules;
    assert_int_equal(t->count, 2);
    assert_string_equal(t->items[0].object, "arena");
    assert_int_equal(t->items[1].target, RMG_TARGET_ALL);
    assert_int_equal(z->count, 3);
    assert_int_equal(z->items[0].target, RMG_TARGET_ALL);
    assert_string_equal(z->items[2].object, "black_market");
    assert_int_equal(z->items[2].loc.line, 5);
    /* The builders can still append to an imported rule list. */
    for (int i = 0; i < 10; i++)
        assert_non_null(rmg__rules_add(p, &p->templates[0].zones[1].rules));
    assert_string_equal(zone(p, 0, 2)->rules.items[2].object, "black_market");
}

static void test_rul02_rule_syntax_errors(void **state)
{
    (void)state;
    static const struct { const char *rule, *error; } bad[] = {
        {"4 d d d d", "object rule must start with + or -, found '4'"},
        {"+4 d d d", "expected selector, value, frequency"},
        {"+4 0 d d d d d d", "expected selector, value, frequency"},
        {"+4 0 x d d d", "limits must be numbers"},
        {"+n", "object class must be a number"},
        {"-n 4", "takes no selector"},
        {"+ 4", "has no object class"},
        {"+6 0 7 1 d d d d", "reward kind must be 0..3"},
        {"+6 0 0 L 9 d d d d", "creature level after L must be 0..6"},
        {"+6 0 3 4 2 15 d d d d", "spells need min level"},
        {"+93 0 9 d d d d", "spell scroll level must be 1..6"},
        {"+4 99999999999999999999 d d d d", "object subclass must be a number"},
        {"+4 0 99999999999999999999 d d d", "limits must be numbers"},
        {"+1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", "too many fields"},
    };
    for (size_t i = 0; i < RMG__ARRAY_LEN(bad); i++) {
        sheet s;
        sheet_minimal(&s, &L140);
        sheet_set(&s, 5, 110, bad[i].rule);
        char needle[200];
        snprintf(needle, sizeof needle, "row 5, column 111 (Zone/Objects): ");
        expect_error(&s, L140.width, needle);
        expect_error(&s, L140.width, bad[i].error);
    }
}

/* ZON-10..12: type-selection hints (spec §6.4). */
static void test_zon10_type_hints(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 116, "pd1_0 0sx_p 1st6 s69_p ndx 1dt7 zz9 1s");
    sheet_set(&s, 4, 123, "dt2_p d6 s3 st3_1 d4_p");
    sheet_set(&s, 4, 125, "s2 d3_p st4 dt5_0");
    struct rmg_pack *p = load(&s, L140.width);
    const rmg__zone *z = zone(p, 0, 1);
    /* tb: the town of a town reference; -1 (the model's default) where the target is a zone. */
    static const struct { rmg_type_rule_kind kind; bool negate; int za, ta, zb, tb; const char *raw; } want[] = {
        {RMG_TYPE_RULE_TOWN_SAME, true, 1, -1, 1, 0, "pd1_0"},
        {RMG_TYPE_RULE_TOWN_SAME, false, 1, 0, 1, -1, "0sx_p"},
        {RMG_TYPE_RULE_TOWN_NATIVE, false, 1, 1, 6, -1, "1st6"},
        {RMG_TYPE_RULE_TOWN_SAME, false, 1, RMG__TOWN_REF_ALL, 69, -1, "s69_p"},
        {RMG_TYPE_RULE_TOWN_SAME, true, 1, RMG__TOWN_REF_NEUTRAL_ALL, 1, RMG__TOWN_REF_ALL, "ndx"},
        {RMG_TYPE_RULE_TOWN_NATIVE, true, 1, 1, 7, -1, "1dt7"},
        {RMG_TYPE_RULE_TERRAIN_NATIVE, true, 1, -1, 2, -1, "dt2_p"},
        {RMG_TYPE_RULE_TERRAIN_SAME, true, 1, -1, 6, -1, "d6"},
        {RMG_TYPE_RULE_TERRAIN_SAME, false, 1, -1, 3, -1, "s3"},
        {RMG_TYPE_RULE_TERRAIN_NATIVE, false, 1, -1, 3, 1, "st3_1"},
        {RMG_TYPE_RULE_FACTION_SAME, false, 1, -1, 2, -1, "s2"},
        {RMG_TYPE_RULE_FACTION_TOWN, true, 1, -1, 3, -1, "d3_p"},
        {RMG_TYPE_RULE_FACTION_TERRAIN, false, 1, -1, 4, -1, "st4"},
    };
    assert_int_equal(z->n_type_rules, RMG__ARRAY_LEN(want));
    for (size_t i = 0; i < RMG__ARRAY_LEN(want); i++) {
        const rmg__type_rule *r = &z->type_rules[i];
        assert_string_equal(r->raw, want[i].raw);
        assert_int_equal(r->kind, want[i].kind);
        assert_int_equal(r->negate, want[i].negate);
        assert_int_equal(r->zone_a, want[i].za);
        assert_int_equal(r->town_a, want[i].ta);
        assert_int_equal(r->zone_b, want[i].zb);
        assert_int_equal(r->town_b, want[i].tb);
        assert_int_equal(r->loc.line, 4);
    }
    /* Tokens outside the grammar are warnings, never errors: zz9, "1s", "d4_p" (terrain hint
     * with a town) and "dt5_0" (faction terrain rule with a town). */
    const char *w = find_warning(p, "type-selection hint token not understood");
    assert_non_null(w);
    assert_non_null(strstr(w, "'zz9'"));
    assert_non_null(strstr(w, "(4 times)"));
}

/* Encoding (spec §1): names and descriptions become UTF-8. */
static void test_text_encodings(void **state)
{
    (void)state;
    sheet s;
    sheet_minimal(&s, &L140);
    sheet_set(&s, 4, 8, "player\x92s zone \x80");               /* cp1252 */
    sheet_set(&s, 4, 15, "  Caf\xe9  ");
    struct rmg_pack *p = load(&s, L140.width);
    assert_string_equal(p->description, "player\xe2\x80\x99s zone \xe2\x82\xac");
    assert_string_equal(p->templates[0].name, "Caf\xc3\xa9");
    /* Russian cp1251 ("для турнира", with Ё) */
    sheet_set(&s, 4, 8, "\xe4\xeb\xff \xf2\xf3\xf0\xed\xe8\xf0\xe0 \xa8");
    p = load(&s, L140.width);
    assert_string_equal(p->description, "\xd0\xb4\xd0\xbb\xd1\x8f \xd1\x82\xd1\x83\xd1\x80\xd0\xbd\xd0\xb8\xd1\x80"
                                        "\xd0\xb0 \xd0\x81");
    assert_string_equal(p->templates[0].name, "Caf\xd0\xb9");   /* the same bytes read as cp1251 */
    /* Valid UTF-8 stays as it is. */
    sheet_set(&s, 4, 8, "\xd0\xb4\xd0\xbb\xd1\x8f \xe2\x80\x99");
    sheet_set(&s, 4, 15, "T");
    p = load(&s, L140.width);
    assert_string_equal(p->description, "\xd0\xb4\xd0\xbb\xd1\x8f \xe2\x80\x99");
    /* Bytes undefined in cp1252 become U+FFFD. */
    sheet_set(&s, 4, 8, "a\x81" "b");
    p = load(&s, L140.width);
    assert_string_equal(p->description, "a\xef\xbf\xbd" "b");
}

static void test_text_detection(void **state)
{
    (void)state;
    assert_int_equal(rmg__h3t_detect_encoding("abc", 3), RMG__H3T_UTF8);
    assert_int_equal(rmg__h3t_detect_encoding("caf\xc3\xa9", 5), RMG__H3T_UTF8);
    assert_int_equal(rmg__h3t_detect_encoding("caf\xe9 na\xefve", 10), RMG__H3T_CP1252);
    assert_int_equal(rmg__h3t_detect_encoding("\xc8\xc3\xd0\xc0\xd2\xdc", 6), RMG__H3T_CP1251);
    assert_int_equal(rmg__h3t_detect_encoding("\xff\xfe", 2), RMG__H3T_CP1252);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_layout_129_hota16, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_135_hota170, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_137_hota17x, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_138_hota172, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_140_hota18, setup, teardown),
        cmocka_unit_test_setup_teardown(test_options_in_every_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layout_sod, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pck_pack_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pck_empty_pack_columns_are_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tpl_map_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tpl_several_templates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zon_zone_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zon_types_and_moods, setup, teardown),
        cmocka_unit_test_setup_teardown(test_con_connection_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_con_several_types_and_placeholders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zon29_mirror_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zon29_mirror_link_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_id_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul02_object_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul02_custom_spells_and_warnings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul04_rule_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rul02_rule_syntax_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zon10_type_hints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_text_encodings, setup, teardown),
        cmocka_unit_test(test_text_detection),
        cmocka_unit_test_setup_teardown(test_fac03_no_town_flag_bans_every_town, setup, teardown),
        cmocka_unit_test_setup_teardown(test_number_list_cell_reads_its_first_number, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_last_row_is_reported, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
