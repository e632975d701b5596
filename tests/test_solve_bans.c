/* Solve stage: bans with defaults, overrides and fallbacks (MIS-16, MIS-20..38, OBJ-14, TPL-08). */
#include "test_solve_fixture.h"

static void solve_water(sfx *f, rmg_water_level water, int players, sfx_run *r)
{
    rmg__solve_input in = {0};
    in.water = water;
    in.players = players;
    sfx_solve(f, 1, &in, r);
}

static void add_override(sfx *f, rmg__override_list *list, int id, bool allow)
{
    rmg__override *o = rmg__arena_grow(&f->pack->arena, (void **)&list->items, &list->count, sizeof *o);
    assert_non_null(o);
    o->id = id;
    o->allow = allow;
}

#define ART_ID(c, key) ((c)->artifacts[SFX_ART(c, key)].id)
#define SPELL_ID(c, key) ((c)->spells[SFX_SPELL(c, key)].id)
#define SKILL_ID(c, key) ((c)->skills[SFX_SKILL(c, key)].id)
#define HERO_ID(c, key) ((c)->heroes[SFX_HERO(c, key)].id)

/* ---- artifacts ------------------------------------------------------------------------------ */

static void test_mis21_default_artifact_bans(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    static const char *const banned[] = {"angelic_alliance", "admirals_hat", "golden_goose", "vial_of_dragon_blood",
                                         "armageddons_blade", "horn_of_the_abyss", "recanters_cloak", "orb_of_inhibition",
                                         "garniture_of_interference", "surcoat_of_counterpoise", "boots_of_polarity",
                                         "sleepkeeper"};
    static const char *const dry[] = {"sea_captains_hat", "necklace_of_ocean_guidance", "boots_of_levitation"};
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    for (size_t i = 0; i < sizeof banned / sizeof *banned; i++)
        assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, banned[i])], 0);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, dry[i])], 0);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "blackshard_of_the_dead_knight")], 1); /* combination part */
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "spell_book")], 1); /* MIS-20: never banned */
    sfx_run_free(&r);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "boots_of_levitation")], 1);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "sea_captains_hat")], 1);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "recanters_cloak")], 0);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* TPL-08: explicit allows and bans win over defaults, including the water-dependent ones. */
static void test_tpl08_overrides_win(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    add_override(&f, &f.tpl->artifacts, ART_ID(c, "boots_of_levitation"), true);
    add_override(&f, &f.tpl->artifacts, ART_ID(c, "vial_of_dragon_blood"), true);
    add_override(&f, &f.tpl->artifacts, ART_ID(c, "centaurs_axe"), false);
    add_override(&f, &f.tpl->combo_artifacts, ART_ID(c, "cornucopia"), true);
    add_override(&f, &f.tpl->spells, SPELL_ID(c, "water_walk"), true);
    add_override(&f, &f.tpl->skills, SKILL_ID(c, "navigation"), true);
    add_override(&f, &f.tpl->skills, SKILL_ID(c, "archery"), false);
    add_override(&f, &f.pack->heroes, HERO_ID(c, "gelu"), true);
    add_override(&f, &f.pack->heroes, HERO_ID(c, "voy"), true);
    add_override(&f, &f.pack->heroes, HERO_ID(c, "orrin"), false);
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "boots_of_levitation")], 1);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "vial_of_dragon_blood")], 1);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "centaurs_axe")], 0);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "cornucopia")], 1);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "water_walk")], 1);
    assert_int_equal(r.sol.skill_allowed[SFX_SKILL(c, "navigation")], 1);
    assert_int_equal(r.sol.skill_allowed[SFX_SKILL(c, "archery")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "gelu")], 1);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "voy")], 1);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "orrin")], 0);
    assert_int_equal(r.x.warnings.count, 0);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* MIS-22 / MIS-27: banning Summon Boat or Scuttle Boat bans Sea Captain's Hat, even if allowed. */
static void test_mis22_hat_follows_boat_spells(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    add_override(&f, &f.tpl->artifacts, ART_ID(c, "sea_captains_hat"), true);
    add_override(&f, &f.tpl->spells, SPELL_ID(c, "scuttle_boat"), false);
    sfx_run r;
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "sea_captains_hat")], 0);
    sfx_run_free(&r);
    f.tpl->spells.count = 0;
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "sea_captains_hat")], 1);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* MIS-23: every artifact banned -> Blackshard of the Dead Knight allowed. */
static void test_mis23_blackshard_when_everything_banned(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    for (size_t i = 0; i < c->n_artifacts; i++)
        add_override(&f, &f.tpl->artifacts, c->artifacts[i].id, false);
    sfx_run r;
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    size_t allowed = 0;
    for (size_t i = 0; i < c->n_artifacts; i++)
        allowed += r.sol.artifact_allowed[i] && c->artifacts[i].cls != RMG_ARTIFACT_SPECIAL;
    assert_int_equal(allowed, 1);
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "blackshard_of_the_dead_knight")], 1);
    assert_true(sfx_warned(&r, "MIS-23"));
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- spells and OBJ-14 ----------------------------------------------------------------------- */

static void test_mis25_mis26_spell_defaults_and_fallbacks(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "summon_boat")], 0);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "scuttle_boat")], 0);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "water_walk")], 0);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "fly")], 1);
    sfx_run_free(&r);
    /* Ban every spell: each level gets its fallback; Titan's Lightning Bolt is untouched. */
    for (size_t i = 0; i < c->n_spells; i++)
        add_override(&f, &f.tpl->spells, c->spells[i].id, false);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    static const char *const fallback[] = {"magic_arrow", "lightning_bolt", "fireball", "chain_lightning", "implosion"};
    size_t allowed = 0;
    for (size_t i = 0; i < c->n_spells; i++)
        allowed += r.sol.spell_allowed[i];
    assert_int_equal(allowed, 6);
    for (int l = 0; l < 5; l++)
        assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, fallback[l])], 1);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "titans_lightning_bolt")], 1);
    assert_true(sfx_warned(&r, "MIS-26"));
    /* MIS-22 follows: the boat spells are banned, so the hat is. */
    assert_int_equal(r.sol.artifact_allowed[SFX_ART(c, "sea_captains_hat")], 0);
    /* OBJ-14 after MIS-26: the special scroll and the water box have nothing left; level boxes do. */
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "spell_scroll_special")], 1);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "pandora_spells_water")], 0); /* Magic Arrow is water too */
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "pandora_spells_level_3")], 0);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "spell_scroll_level_5")], 0);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "arena")], 0);
    sfx_run_free(&r);
    sfx_free(&f);
}

static void test_obj14_scroll_and_pandora_auto_bans(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    /* Ban every air spell, and every level-4 spell except Town Portal and Water Walk. */
    for (size_t i = 0; i < c->n_spells; i++) {
        const rmg__spell *s = &c->spells[i];
        bool keep = strcmp(s->key, "town_portal") == 0 || strcmp(s->key, "water_walk") == 0;
        if ((s->schools & 1) || (s->level == 4 && !keep))
            add_override(&f, &f.tpl->spells, s->id, false);
    }
    sfx_run r;
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "pandora_spells_air")], 1);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "spell_scroll_level_4")], 1); /* OBJ-16: TP/WW excluded */
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "pandora_spells_level_4")], 0);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "spell_scroll_special")], 0);
    assert_int_equal(r.sol.object_banned[SFX_OBJ(c, "pandora_spells_fire")], 0);
    assert_int_equal(r.sol.spell_allowed[SFX_SPELL(c, "chain_lightning")], 0); /* no MIS-26: TP and WW remain */
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- skills ------------------------------------------------------------------------------------ */

static void test_mis28_mis29_skills(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    assert_int_equal(r.sol.skill_allowed[SFX_SKILL(c, "resistance")], 0);
    assert_int_equal(r.sol.skill_allowed[SFX_SKILL(c, "navigation")], 0);
    assert_true(r.x.interference_to_resistance == false); /* Resistance is banned */
    sfx_run_free(&r);
    solve_water(&f, RMG_WATER_ISLANDS, 2, &r);
    assert_int_equal(r.sol.skill_allowed[SFX_SKILL(c, "navigation")], 1);
    sfx_run_free(&r);
    /* The vector: everything except skill #10 banned -> #0, #1, #2 re-allowed. */
    for (size_t i = 0; i < c->n_skills; i++)
        if (c->skills[i].id != 10)
            add_override(&f, &f.tpl->skills, c->skills[i].id, false);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    for (size_t i = 0; i < c->n_skills; i++) {
        int id = c->skills[i].id;
        assert_int_equal(r.sol.skill_allowed[i], id <= 2 || id == 10);
    }
    assert_true(sfx_warned(&r, "MIS-29"));
    sfx_run_free(&r);
    /* MIS-35: Interference banned, Resistance allowed. */
    f.tpl->skills.count = 0;
    add_override(&f, &f.tpl->skills, SKILL_ID(c, "resistance"), true);
    add_override(&f, &f.tpl->skills, SKILL_ID(c, "interference"), false);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_true(r.x.interference_to_resistance);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* ---- heroes, prisons, Gem, towns ------------------------------------------------------------------ */

static void test_mis30_hero_defaults(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    static const char *const always[] = {"adrienne", "catherine", "dracon", "gelu", "kilgor", "lord_haart_lich", "mutare",
                                         "roland", "mutare_drake", "boragus", "xeron", "bidley", "tark", "frederick",
                                         "tavin", "murdoch", "galthran", "sir_mullich"};
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    for (size_t i = 0; i < sizeof always / sizeof *always; i++)
        assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, always[i])], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "sylvia")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "voy")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "elmore")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "beatrice")], 1);
    assert_int_equal(r.sol.gem_spell, SFX_SPELL(c, "bless")); /* MIS-34 without water */
    sfx_run_free(&r);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "sylvia")], 1);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "beatrice")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "kinkeria")], 0);
    assert_int_equal(r.sol.hero_allowed[SFX_HERO(c, "derek")], 0);
    assert_int_equal(r.sol.gem_spell, SFX_SPELL(c, "summon_boat"));
    sfx_run_free(&r);
    add_override(&f, &f.pack->heroes, HERO_ID(c, "gem"), false);
    solve_water(&f, RMG_WATER_NORMAL, 2, &r);
    assert_int_equal(r.sol.gem_spell, -1);
    sfx_run_free(&r);
    sfx_free(&f);
}

/* MIS-32: the first 16 allowed heroes of each town are selectable at the start. */
static void test_mis32_sixteen_per_town(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    add_override(&f, &f.pack->heroes, HERO_ID(c, "orrin"), false);
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    int per_town[32] = {0}, allowed_town[32] = {0};
    for (size_t i = 0; i < c->n_heroes; i++) {
        int t = c->heroes[i].faction;
        assert_true(t >= 0 && t < 32);
        if (r.sol.hero_allowed[i])
            allowed_town[t]++;
        if (r.x.hero_start_choice[i]) {
            assert_int_equal(r.sol.hero_allowed[i], 1);
            per_town[t]++;
        }
    }
    for (int t = 0; t < 32; t++)
        assert_int_equal(per_town[t], allowed_town[t] < 16 ? allowed_town[t] : 16);
    assert_int_equal(r.x.hero_start_choice[SFX_HERO(c, "orrin")], 0);
    assert_int_equal(r.x.hero_start_choice[SFX_HERO(c, "valeska")], 1);
    sfx_run_free(&r);
    sfx_free(&f);
}

static void test_mis16_prison_limit(void **state)
{
    (void)state;
    assert_int_equal(rmg__prisons_max(68, 2), 0);
    assert_int_equal(rmg__prisons_max(70, 2), 2);
    assert_int_equal(rmg__prisons_max(10, 8), 0);
    assert_int_equal(rmg__prisons_max(200, 8), 72);
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    const struct rmg_content *c = f.content;
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 4, &r);
    int allowed = 0;
    for (size_t i = 0; i < c->n_heroes; i++)
        allowed += r.sol.hero_allowed[i];
    assert_int_equal(r.sol.prisons_max, allowed - 88);
    /* Ban heroes until 70 remain with 2 players: at most 2 prisons. */
    int to_ban = allowed - 70;
    for (size_t i = 0; i < c->n_heroes && to_ban > 0; i++) {
        if (!r.sol.hero_allowed[i])
            continue;
        add_override(&f, &f.pack->heroes, c->heroes[i].id, false);
        to_ban--;
    }
    sfx_run_free(&r);
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    assert_int_equal(r.sol.prisons_max, 2);
    sfx_run_free(&r);
    sfx_free(&f);
}

static void test_mis38_castle_when_all_towns_banned(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    sfx_player_zone(&f, 1, 1);
    f.pack->allowed_towns = 1u << 30; /* names no real town */
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 1, &r);
    assert_int_equal(r.sol.allowed_towns, 1u << RMG_FACTION_CASTLE);
    assert_true(sfx_warned(&r, "MIS-38"));
    sfx_run_free(&r);
    sfx_free(&f);
}

/* MIS-08: the pack's town list limits only the players' choice before generation; a random
 * player town is limited by its start zone alone (the guide: it "никак не влияет" on random
 * town types). With a pack of [tower, conflux], 30 random player towns take other types too. */
static void test_mis08_pack_list_limits_only_the_choice(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    sfx_player_zone(&f, 1, 1);
    f.pack->allowed_towns = (1u << RMG_FACTION_TOWER) | (1u << RMG_FACTION_CONFLUX);
    int outside = 0;
    sfx_run r;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        sfx_solve(&f, seed, NULL, &r);
        int t = sfx_zs(&f, &r, 1)->player_town_type;
        outside += t != RMG_FACTION_TOWER && t != RMG_FACTION_CONFLUX;
        sfx_run_free(&r);
    }
    assert_true(outside >= 15); /* 9 of the 11 types lie outside the list: about 25 of 30 */
    /* MIS-37: the player's own choice is the town it plays. */
    int towns[8] = {RMG_FACTION_CONFLUX, -1, -1, -1, -1, -1, -1, -1};
    rmg__solve_input in = {0};
    in.player_towns = towns;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        sfx_solve(&f, seed, &in, &r);
        assert_int_equal(sfx_zs(&f, &r, 1)->player_town_type, RMG_FACTION_CONFLUX);
        sfx_run_free(&r);
    }
    /* A choice outside the pack's list is refused, naming the player and the list. */
    towns[0] = RMG_FACTION_CASTLE;
    assert_int_equal(rmg__solve_check_town_choice(f.ctx, f.content, f.pack, towns), RMG_ERR_INVALID_ARG);
    assert_non_null(strstr(rmg_context_errmsg(f.ctx), "player 1's town 'castle' is not among the pack's allowed "
                                                      "towns (tower, conflux)"));
    towns[0] = RMG_FACTION_TOWER;
    assert_int_equal(rmg__solve_check_town_choice(f.ctx, f.content, f.pack, towns), RMG_OK);
    /* MIS-38: a pack banning every town leaves Castle to choose. */
    f.pack->allowed_towns = 1u << 30;
    assert_int_equal(rmg__solve_check_town_choice(f.ctx, f.content, f.pack, towns), RMG_ERR_INVALID_ARG);
    towns[0] = RMG_FACTION_CASTLE;
    assert_int_equal(rmg__solve_check_town_choice(f.ctx, f.content, f.pack, towns), RMG_OK);
    sfx_free(&f);
}

static void test_unknown_override_id_is_reported(void **state)
{
    (void)state;
    sfx f;
    sfx_init(&f);
    sfx_zones(&f, 1);
    add_override(&f, &f.tpl->artifacts, 4242, true);
    sfx_run r;
    solve_water(&f, RMG_WATER_NONE, 2, &r);
    assert_true(sfx_warned(&r, "unknown id 4242"));
    sfx_run_free(&r);
    sfx_free(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mis21_default_artifact_bans),
        cmocka_unit_test(test_tpl08_overrides_win),
        cmocka_unit_test(test_mis22_hat_follows_boat_spells),
        cmocka_unit_test(test_mis23_blackshard_when_everything_banned),
        cmocka_unit_test(test_mis25_mis26_spell_defaults_and_fallbacks),
        cmocka_unit_test(test_obj14_scroll_and_pandora_auto_bans),
        cmocka_unit_test(test_mis28_mis29_skills),
        cmocka_unit_test(test_mis30_hero_defaults),
        cmocka_unit_test(test_mis32_sixteen_per_town),
        cmocka_unit_test(test_mis16_prison_limit),
        cmocka_unit_test(test_mis38_castle_when_all_towns_banned),
        cmocka_unit_test(test_mis08_pack_list_limits_only_the_choice),
        cmocka_unit_test(test_unknown_override_id_is_reported),
    };
    return RMG_TEST_MAIN_SHARED(tests, "data");
}
