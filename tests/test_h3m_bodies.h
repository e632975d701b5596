/* Part of test_h3m_codec.c: every object body filled with distinct values in every format and
 * sub-version, written, read back field by field, and written again to the same bytes; and the
 * bodies the spec gives as bytes. */

static bool has_sub(const rmg__h3m_doc *doc, uint32_t n)
{
    return doc->format == RMG__H3M_HOTA && doc->hota_sub >= n;
}

typedef struct body_case {
    uint32_t class_id, subclass;
    rmg__h3m_body_kind kind;  /* in HotA 1.8 (sub-version 9) */
    uint32_t from;            /* the HotA sub-version from which the body exists; 0 = SoD too */
} body_case;

static const body_case body_cases[] = {
    {5, 7, RMG__H3M_BODY_ARTIFACT, 0},          {65, 0, RMG__H3M_BODY_ARTIFACT, 0},
    {6, 0, RMG__H3M_BODY_PANDORA, 0},           {7, 0, RMG__H3M_BODY_BLACK_MARKET, 5},
    {12, 0, RMG__H3M_BODY_REWARD18, 5},         {145, 1, RMG__H3M_BODY_REWARD18, 5},
    {212, 1001, RMG__H3M_BODY_REWARD18, 5},     {16, 2, RMG__H3M_BODY_BANK, 3},
    {85, 0, RMG__H3M_BODY_BANK, 3},             {53, 0, RMG__H3M_BODY_OWNED, 0},
    {17, 30, RMG__H3M_BODY_OWNED, 0},           {87, 1, RMG__H3M_BODY_OWNED, 0},
    {22, 0, RMG__H3M_BODY_REWARD8, 5},          {145, 3, RMG__H3M_BODY_REWARD8, 5},
    {146, 0, RMG__H3M_BODY_REWARD8, 5},         {26, 0, RMG__H3M_BODY_EVENT, 0},
    {33, 0, RMG__H3M_BODY_GARRISON, 0},         {219, 0, RMG__H3M_BODY_GARRISON, 0},
    {34, 3, RMG__H3M_BODY_HERO, 0},             {62, 0, RMG__H3M_BODY_HERO, 0},
    {36, 0, RMG__H3M_BODY_GRAIL, 0},            {36, 1000, RMG__H3M_BODY_NONE, 0},
    {53, 7, RMG__H3M_BODY_ABANDONED_MINE, 0},   {220, 0, RMG__H3M_BODY_ABANDONED_MINE, 0},
    {54, 12, RMG__H3M_BODY_MONSTER, 0},         {164, 0, RMG__H3M_BODY_MONSTER, 0},
    {91, 0, RMG__H3M_BODY_MESSAGE, 0},          {59, 0, RMG__H3M_BODY_MESSAGE, 0},
    {79, 6, RMG__H3M_BODY_RESOURCE, 0},         {76, 0, RMG__H3M_BODY_RESOURCE, 0},
    {98, 2, RMG__H3M_BODY_TOWN, 0},             {77, 0, RMG__H3M_BODY_TOWN, 0},
    {81, 0, RMG__H3M_BODY_SCHOLAR, 0},          {83, 0, RMG__H3M_BODY_SEER, 0},
    {88, 3, RMG__H3M_BODY_SHRINE, 0},           {93, 0, RMG__H3M_BODY_SCROLL, 0},
    {113, 0, RMG__H3M_BODY_WITCH_HUT, 0},       {144, 12, RMG__H3M_BODY_TRAPPER, 9},
    {144, 3, RMG__H3M_BODY_NONE, 0},            {215, 0, RMG__H3M_BODY_QUEST, 0},
    {212, 1000, RMG__H3M_BODY_QUEST, 0},        {212, 3, RMG__H3M_BODY_NONE, 0},
    {214, 0, RMG__H3M_BODY_PLACEHOLDER, 0},     {216, 0, RMG__H3M_BODY_RANDOM_DWELLING, 0},
    {217, 3, RMG__H3M_BODY_RANDOM_DWELLING, 0}, {218, 5, RMG__H3M_BODY_RANDOM_DWELLING, 0},
    {43, 2, RMG__H3M_BODY_NONE, 0},             {124, 0, RMG__H3M_BODY_NONE, 0},
};

/* ---- filling ------------------------------------------------------------------------------------- */

static void set_str(rmg__h3m_doc *doc, rmg__h3m_str *s, const char *text)
{
    assert_int_equal(rmg__h3m_str_set(doc, s, text), RMG_OK);
}

static void *array_of(rmg__h3m_doc *doc, size_t count, size_t elem)
{
    void *p = rmg__h3m_alloc(doc, count, elem);
    assert_non_null(p);
    return p;
}

static void fill_slot(rmg__h3m_slot *s, uint16_t creature, uint16_t count)
{
    s->creature = creature;
    s->count = count;
}

static void fill_army(rmg__h3m_slot *army, uint16_t salt)
{
    for (int i = 0; i < RMG__H3M_ARMY_SLOTS; i++)
        fill_slot(&army[i], i < 3 ? (uint16_t)(salt + i) : 0xFFFF, i < 3 ? (uint16_t)(10 * i + 1) : 0);
}

static void fill_art(const rmg__h3m_doc *doc, rmg__h3m_art *a, uint16_t id)
{
    a->id = id;
    a->spell = has_sub(doc, 5) ? (id == 1 ? 17 : 0) : 0;
}

static void fill_guards(rmg__h3m_doc *doc, rmg__h3m_guards *g, uint16_t salt)
{
    g->has_message = 1;
    set_str(doc, &g->message, "Guarded by something");
    g->has_guards = salt % 2 == 0;
    if (g->has_guards)
        fill_army(g->army, salt);
}

static void fill_script(const rmg__h3m_doc *doc, rmg__h3m_script_ref *s, int32_t id)
{
    if (!has_sub(doc, 9))
        return;
    s->used = 1;
    s->id = id;
    s->flag = 1;
}

static void fill_box(rmg__h3m_doc *doc, rmg__h3m_box *b, rmg__h3m_box_tail *t, uint16_t salt)
{
    fill_guards(doc, &b->guards, salt);
    b->experience = 5000u + salt;
    b->spell_points = -10;
    b->morale = 2;
    b->luck = -1;
    for (int i = 0; i < 7; i++)
        b->resources[i] = i * 100 - 50;
    for (int i = 0; i < 4; i++)
        b->primary[i] = (uint8_t)(i + 1);
    b->skill_count = 2;
    b->skills = array_of(doc, 2, sizeof *b->skills);
    b->skills[0].skill = 3, b->skills[0].level = 1, b->skills[1].skill = 7, b->skills[1].level = 3;
    b->artifact_count = 2;
    b->artifacts = array_of(doc, 2, sizeof *b->artifacts);
    fill_art(doc, &b->artifacts[0], 1);
    fill_art(doc, &b->artifacts[1], 45);
    b->spell_count = 3;
    b->spells = array_of(doc, 3, 1);
    b->spells[0] = 1, b->spells[1] = 20, b->spells[2] = 69;
    b->creature_count = 2;
    b->creatures = array_of(doc, 2, sizeof *b->creatures);
    fill_slot(&b->creatures[0], 13, 5);
    fill_slot(&b->creatures[1], 100, 1);
    if (has_sub(doc, 5))
        t->movement_mode = 3, t->movement_points = 1500;
    if (has_sub(doc, 6))
        t->difficulties = 0x1B;
    fill_script(doc, &t->script, 42);
}

static void fill_hero_data(rmg__h3m_doc *doc, rmg__h3m_hero_data *d, uint16_t salt)
{
    d->has_experience = 1;
    d->experience = 12000u + salt;
    d->has_skills = 1;
    d->skill_count = 3;
    d->skills = array_of(doc, 3, sizeof *d->skills);
    for (int i = 0; i < 3; i++)
        d->skills[i].skill = (uint8_t)(i * 4), d->skills[i].level = (uint8_t)(i + 1);
    d->artifacts.has_artifacts = 1;
    for (int i = 0; i < RMG__H3M_HERO_SLOTS; i++) {
        fill_art(doc, &d->artifacts.slots[i], i % 3 == 0 ? (uint16_t)(7 + i) : 0xFFFF);
        if (i % 3 != 0 && has_sub(doc, 5))
            d->artifacts.slots[i].spell = 0xFFFF;
    }
    d->artifacts.backpack_count = 2;
    d->artifacts.backpack = array_of(doc, 2, sizeof *d->artifacts.backpack);
    fill_art(doc, &d->artifacts.backpack[0], 1);
    fill_art(doc, &d->artifacts.backpack[1], 60);
    d->has_biography = 1;
    set_str(doc, &d->biography, "Born in a \xE7\xE0\xEC\xEE\xEA (cp1251 bytes)");
    d->gender = 1;
    d->has_spells = 1;
    for (int i = 0; i < RMG__H3M_SPELL_MASK; i++)
        d->spells[i] = (uint8_t)(0x11 * i);
    d->has_primary = 1;
    for (int i = 0; i < 4; i++)
        d->primary[i] = (uint8_t)(5 - i);
}

static void fill_quest(rmg__h3m_doc *doc, rmg__h3m_quest *q, uint8_t type, uint32_t hota_kind)
{
    q->type = type;
    switch (type) {
    case RMG__H3M_QUEST_NONE:
        return;
    case RMG__H3M_QUEST_LEVEL: case RMG__H3M_QUEST_DEFEAT_HERO: case RMG__H3M_QUEST_DEFEAT_MONSTER:
        q->value = 30u + type;
        break;
    case RMG__H3M_QUEST_PRIMARY:
        q->primary[0] = 5, q->primary[3] = 9;
        break;
    case RMG__H3M_QUEST_ARTIFACTS:
        q->artifact_count = 2;
        q->artifacts = array_of(doc, 2, sizeof *q->artifacts);
        fill_art(doc, &q->artifacts[0], 1);
        fill_art(doc, &q->artifacts[1], 88);
        break;
    case RMG__H3M_QUEST_CREATURES:
        q->creature_count = 1;
        q->creatures = array_of(doc, 1, sizeof *q->creatures);
        fill_slot(&q->creatures[0], 55, 20);
        break;
    case RMG__H3M_QUEST_RESOURCES:
        for (int i = 0; i < 7; i++)
            q->resources[i] = (uint32_t)(i * 7 + 1);
        break;
    case RMG__H3M_QUEST_BE_HERO: case RMG__H3M_QUEST_BE_PLAYER:
        q->id = 4;
        break;
    default: /* HotA */
        q->hota_kind = hota_kind;
        if (hota_kind == RMG__H3M_HOTA_QUEST_CLASS) {
            q->class_count = 20;
            q->class_mask = array_of(doc, 3, 1);
            q->class_mask[0] = 0x81, q->class_mask[2] = 0x0F;
        } else {
            q->hota_value = 77;
            q->script_flag = hota_kind == RMG__H3M_HOTA_QUEST_SCRIPT;
        }
        break;
    }
    q->deadline = type % 2 ? 0xFFFFFFFFu : 99u;
    set_str(doc, &q->proposal, "Bring it");
    set_str(doc, &q->progress, type % 3 ? "Not yet" : "");
    set_str(doc, &q->completion, "Thanks");
}

static void fill_reward(const rmg__h3m_doc *doc, rmg__h3m_reward *r, uint8_t type)
{
    r->type = type;
    switch (type) {
    case RMG__H3M_REWARD_EXPERIENCE: case RMG__H3M_REWARD_SPELL_POINTS:
        r->amount = 1000u * type;
        break;
    case RMG__H3M_REWARD_MORALE: case RMG__H3M_REWARD_LUCK:
        r->bonus = type == RMG__H3M_REWARD_MORALE ? -2 : 3;
        break;
    case RMG__H3M_REWARD_RESOURCE:
        r->id = 6, r->amount = 7500;
        break;
    case RMG__H3M_REWARD_PRIMARY: case RMG__H3M_REWARD_SECONDARY:
        r->id = 2, r->level = 3;
        break;
    case RMG__H3M_REWARD_ARTIFACT:
        fill_art(doc, &r->artifact, 1);
        break;
    case RMG__H3M_REWARD_SPELL:
        r->id = 33;
        break;
    case RMG__H3M_REWARD_CREATURES:
        fill_slot(&r->creatures, 27, 8);
        break;
    default:
        break;
    }
}

/* Every quest type (HotA's when the format has it) with every reward type. */
static void fill_seer(rmg__h3m_doc *doc, rmg__h3m_seer *s)
{
    bool many = has_sub(doc, 3);
    s->task_count = many ? (doc->format == RMG__H3M_HOTA ? 11 : 10) : 1;
    s->tasks = array_of(doc, s->task_count, sizeof *s->tasks);
    for (uint32_t i = 0; i < s->task_count; i++) {
        uint8_t type = many ? (uint8_t)i : RMG__H3M_QUEST_ARTIFACTS;
        fill_quest(doc, &s->tasks[i].quest, type, RMG__H3M_HOTA_QUEST_DIFFICULTY);
        if (type != RMG__H3M_QUEST_NONE)
            fill_reward(doc, &s->tasks[i].reward, (uint8_t)(type % 10 + 1));
    }
    if (many) {
        s->repeat_count = 2;
        s->repeat_tasks = array_of(doc, 2, sizeof *s->repeat_tasks);
        fill_quest(doc, &s->repeat_tasks[0].quest, RMG__H3M_QUEST_CREATURES, 0);
        fill_reward(doc, &s->repeat_tasks[0].reward, RMG__H3M_REWARD_RESOURCE);
        fill_quest(doc, &s->repeat_tasks[1].quest, RMG__H3M_QUEST_NONE, 0);
    }
}

static void fill_event_common(rmg__h3m_doc *doc, rmg__h3m_event *e, int salt)
{
    set_str(doc, &e->name, "Event");
    set_str(doc, &e->message, salt ? "Something happens" : "");
    for (int i = 0; i < 7; i++)
        e->resources[i] = salt * 10 - i;
    e->players = 0x05;
    e->humans = 1;
    e->computers = 0;
    e->first_day = (uint16_t)(3 + salt);
    e->repeat = 7;
    if (has_sub(doc, 7))
        e->difficulties = 0x0F;
    fill_script(doc, &e->script, 9);
}

static void fill_town(rmg__h3m_doc *doc, rmg__h3m_town *t, uint16_t salt)
{
    t->identifier = 1000u + salt;
    t->owner = 3;
    t->has_name = 1;
    set_str(doc, &t->name, "Steadwick");
    t->has_garrison = 1;
    fill_army(t->garrison, salt);
    t->formation = 1;
    t->has_buildings = salt % 2;
    if (t->has_buildings) {
        t->built[0] = 0x3F, t->disabled[5] = 0x80;
    } else {
        t->has_fort = 1;
    }
    t->must_spells[2] = 0x10;
    t->banned_spells[8] = 0x01;
    if (has_sub(doc, 1))
        t->research = 1;
    if (has_sub(doc, 5)) {
        t->special_count = 48;
        t->special_states = array_of(doc, 48, 1);
        t->special_states[4] = 2;
    }
    t->event_count = 2;
    t->events = array_of(doc, 2, sizeof *t->events);
    for (int i = 0; i < 2; i++) {
        rmg__h3m_town_event *e = &t->events[i];
        fill_event_common(doc, &e->common, i);
        if (has_sub(doc, 5)) {
            e->growth8 = 4;
            e->special_bit_count = 44;
            e->special_mask = array_of(doc, 6, 1);
            e->special_mask[1] = 0x22;
        }
        if (has_sub(doc, 7))
            e->neutral = 1;
        e->buildings[0] = 0x07;
        for (int k = 0; k < 7; k++)
            e->creatures[k] = (uint16_t)(k * 2);
    }
    t->alignment = 9;
}

static void fill_hero(rmg__h3m_doc *doc, rmg__h3m_hero *h, uint16_t salt)
{
    h->identifier = 2000u + salt;
    h->owner = 0xFF;
    h->hero = 17;
    h->has_name = 1;
    set_str(doc, &h->name, "Prisoner");
    h->has_portrait = 1;
    h->portrait = 18;
    h->has_army = 1;
    fill_army(h->army, salt);
    h->formation = 1;
    h->patrol = 5;
    fill_hero_data(doc, &h->data, salt);
    if (has_sub(doc, 5))
        h->tail.always_add_skills = 0, h->tail.no_experience = 1, h->tail.level = 12;
}

static void fill_monster(rmg__h3m_doc *doc, rmg__h3m_monster *m, uint16_t salt)
{
    m->identifier = 3000u + salt;
    m->count = 25;
    m->disposition = 5;
    m->has_message = 1;
    set_str(doc, &m->message, "Grr");
    for (int i = 0; i < 7; i++)
        m->resources[i] = -i;
    m->artifact = 44;
    m->never_flees = 1;
    m->no_growth = 1;
    if (has_sub(doc, 3)) {
        m->aggression = 7, m->money_only = 1, m->join_percent = 50, m->upgraded = 1, m->stack_count = 3;
    }
    if (has_sub(doc, 5))
        m->by_ai_value = 1, m->ai_value = 25000;
}

static void fill_placeholder(rmg__h3m_doc *doc, rmg__h3m_placeholder *p)
{
    p->owner = 2;
    p->hero = 0xFF;
    p->power_rating = 4;
    if (!has_sub(doc, 5))
        return;
    p->custom_army = 1;
    for (int i = 0; i < RMG__H3M_ARMY_SLOTS; i++)
        p->army_count[i] = i * 3, p->army_creature[i] = (uint32_t)(i + 20);
    p->artifact_count = 2;
    p->artifacts = array_of(doc, 2, sizeof *p->artifacts);
    p->artifacts[0] = 5, p->artifacts[1] = 130;
}

static void fill_simple(rmg__h3m_doc *doc, rmg__h3m_object *o, uint16_t salt)
{
    switch (o->kind) {
    case RMG__H3M_BODY_BLACK_MARKET:
        for (int i = 0; i < 7; i++)
            fill_art(doc, &o->body->black_market[i], i == 3 ? 0xFFFF : (uint16_t)(i + 10));
        o->body->black_market[3].spell = 0xFFFF;
        break;
    case RMG__H3M_BODY_REWARD18: {
        rmg__h3m_reward18 *r = &o->body->reward18;
        r->content = 2, r->artifact = 9, r->amount_a = 5, r->resource_a = 6, r->amount_b = -3, r->resource_b = 1;
        break;
    }
    case RMG__H3M_BODY_BANK:
        o->body->bank.preset = 3;
        o->body->bank.upgraded = -1;
        o->body->bank.artifact_count = 2;
        o->body->bank.artifacts = array_of(doc, 2, sizeof(uint32_t));
        o->body->bank.artifacts[0] = 0xFFFFFFFFu, o->body->bank.artifacts[1] = 7;
        break;
    case RMG__H3M_BODY_OWNED: o->body->owner = 4; break;
    case RMG__H3M_BODY_REWARD8: o->body->reward8.content = 1, o->body->reward8.value = 0x1BFFEFFFu; break;
    case RMG__H3M_BODY_GRAIL: o->body->grail_radius = 6; break;
    case RMG__H3M_BODY_ABANDONED_MINE: {
        rmg__h3m_abandoned_mine *m = &o->body->mine;
        m->resources = 0x7E;
        if (has_sub(doc, 5))
            m->custom_guards = 1, m->creature = 70, m->min_count = 100, m->max_count = 200;
        break;
    }
    case RMG__H3M_BODY_MESSAGE: set_str(doc, &o->body->message.text, "Beware"); break;
    case RMG__H3M_BODY_RESOURCE:
        fill_guards(doc, &o->body->resource.guards, salt);
        o->body->resource.amount = 15;
        break;
    case RMG__H3M_BODY_SCHOLAR: o->body->scholar.kind = 2, o->body->scholar.id = 15; break;
    case RMG__H3M_BODY_SHRINE: o->body->shrine_spell = 0xFF; break;
    case RMG__H3M_BODY_SCROLL:
        fill_guards(doc, &o->body->scroll.guards, salt);
        o->body->scroll.spell = 41;
        break;
    case RMG__H3M_BODY_WITCH_HUT: memcpy(o->body->witch_skills, "\x9F\xEF\xFF\xFF", 4); break;
    case RMG__H3M_BODY_TRAPPER: {
        rmg__h3m_trapper *t = &o->body->trapper;
        t->content = 1, t->gold = 0, t->count = 12, t->creature = 140;
        break;
    }
    default:
        break;
    }
}

/* Class 218 has no town link and 217 no levels (their subclass says it). */
static void fill_random_dwelling(rmg__h3m_random_dwelling *d, uint32_t class_id, uint16_t salt)
{
    d->owner = 1;
    if (class_id != 218) {
        d->town_id = salt % 2 ? 0 : 1000u;
        if (d->town_id == 0)
            d->factions[0] = 0x1F, d->factions[1] = 0x01;
    }
    if (class_id != 217)
        d->min_level = 1, d->max_level = 5;
}

static void fill_object(rmg__h3m_doc *doc, rmg__h3m_object *o, uint32_t class_id, uint16_t salt)
{
    o->pos.x = (uint8_t)salt, o->pos.y = (uint8_t)(salt * 3), o->pos.z = 0;
    switch (o->kind) {
    case RMG__H3M_BODY_ARTIFACT:
        fill_guards(doc, &o->body->artifact.guards, salt);
        if (has_sub(doc, 5))
            o->body->artifact.pickup_mode = 2, o->body->artifact.pickup_conditions = 0x7F;
        break;
    case RMG__H3M_BODY_PANDORA:
        fill_box(doc, &o->body->pandora.box, &o->body->pandora.tail, salt);
        break;
    case RMG__H3M_BODY_EVENT:
        fill_box(doc, &o->body->event.box, &o->body->event.tail, salt);
        o->body->event.players = 0xFF, o->body->event.computer_activates = 1, o->body->event.remove_after_visit = 1;
        if (has_sub(doc, 3))
            o->body->event.human_activates = 1;
        break;
    case RMG__H3M_BODY_GARRISON:
        o->body->garrison.owner = 0xFF;
        fill_army(o->body->garrison.army, salt);
        o->body->garrison.removable = 1;
        break;
    case RMG__H3M_BODY_HERO: fill_hero(doc, &o->body->hero, salt); break;
    case RMG__H3M_BODY_MONSTER: fill_monster(doc, &o->body->monster, salt); break;
    case RMG__H3M_BODY_TOWN: fill_town(doc, &o->body->town, salt); break;
    case RMG__H3M_BODY_SEER: fill_seer(doc, &o->body->seer); break;
    case RMG__H3M_BODY_QUEST:
        if (doc->format == RMG__H3M_HOTA)
            fill_quest(doc, &o->body->quest, RMG__H3M_QUEST_HOTA,
                       class_id == 215 ? RMG__H3M_HOTA_QUEST_CLASS
                                       : has_sub(doc, 9) ? RMG__H3M_HOTA_QUEST_SCRIPT : RMG__H3M_HOTA_QUEST_DAY);
        else
            fill_quest(doc, &o->body->quest, class_id == 215 ? RMG__H3M_QUEST_PRIMARY : RMG__H3M_QUEST_CREATURES, 0);
        break;
    case RMG__H3M_BODY_PLACEHOLDER: fill_placeholder(doc, &o->body->placeholder); break;
    case RMG__H3M_BODY_RANDOM_DWELLING: fill_random_dwelling(&o->body->dwelling, class_id, salt); break;
    default: fill_simple(doc, o, salt); break;
    }
}

/* ---- comparing --------------------------------------------------------------------------------------- */

#define CLEAR(field) memset(&(field), 0, sizeof(field))

static void same_str(const rmg__h3m_str *a, const rmg__h3m_str *b)
{
    assert_int_equal(a->len, b->len);
    if (a->len)
        assert_memory_equal(a->data, b->data, a->len);
}

static void same_bytes(const void *a, const void *b, size_t n)
{
    if (n)
        assert_memory_equal(a, b, n);
}

static void same_guards(const rmg__h3m_guards *a, const rmg__h3m_guards *b)
{
    same_str(&a->message, &b->message);
    rmg__h3m_guards x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.message), CLEAR(y.message);
    assert_memory_equal(&x, &y, sizeof x);
}

static void same_box(const rmg__h3m_box *a, const rmg__h3m_box *b)
{
    same_guards(&a->guards, &b->guards);
    same_bytes(a->skills, b->skills, a->skill_count * sizeof *a->skills);
    same_bytes(a->artifacts, b->artifacts, a->artifact_count * sizeof *a->artifacts);
    same_bytes(a->spells, b->spells, a->spell_count);
    same_bytes(a->creatures, b->creatures, a->creature_count * sizeof *a->creatures);
    rmg__h3m_box x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.guards), CLEAR(y.guards), CLEAR(x.skills), CLEAR(y.skills), CLEAR(x.artifacts), CLEAR(y.artifacts);
    CLEAR(x.spells), CLEAR(y.spells), CLEAR(x.creatures), CLEAR(y.creatures);
    assert_memory_equal(&x, &y, sizeof x);
}

static void same_hero_data(const rmg__h3m_hero_data *a, const rmg__h3m_hero_data *b)
{
    same_bytes(a->skills, b->skills, a->skill_count * sizeof *a->skills);
    same_bytes(a->artifacts.backpack, b->artifacts.backpack, a->artifacts.backpack_count * sizeof(rmg__h3m_art));
    same_str(&a->biography, &b->biography);
    rmg__h3m_hero_data x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.skills), CLEAR(y.skills), CLEAR(x.artifacts.backpack), CLEAR(y.artifacts.backpack);
    CLEAR(x.biography), CLEAR(y.biography);
    assert_memory_equal(&x, &y, sizeof x);
}

static void same_quest(const rmg__h3m_quest *a, const rmg__h3m_quest *b)
{
    same_bytes(a->artifacts, b->artifacts, a->artifact_count * sizeof *a->artifacts);
    same_bytes(a->creatures, b->creatures, a->creature_count * sizeof *a->creatures);
    same_bytes(a->class_mask, b->class_mask, a->class_count / 8 + (a->class_count % 8 != 0));
    same_str(&a->proposal, &b->proposal);
    same_str(&a->progress, &b->progress);
    same_str(&a->completion, &b->completion);
    rmg__h3m_quest x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.artifacts), CLEAR(y.artifacts), CLEAR(x.creatures), CLEAR(y.creatures);
    CLEAR(x.class_mask), CLEAR(y.class_mask), CLEAR(x.proposal), CLEAR(y.proposal);
    CLEAR(x.progress), CLEAR(y.progress), CLEAR(x.completion), CLEAR(y.completion);
    assert_memory_equal(&x, &y, sizeof x);
}

static void same_tasks(uint32_t n, const rmg__h3m_seer_task *a, const rmg__h3m_seer_task *b)
{
    for (uint32_t i = 0; i < n; i++) {
        same_quest(&a[i].quest, &b[i].quest);
        assert_memory_equal(&a[i].reward, &b[i].reward, sizeof a[i].reward);
    }
}

static void same_event_common(const rmg__h3m_event *a, const rmg__h3m_event *b)
{
    same_str(&a->name, &b->name);
    same_str(&a->message, &b->message);
    rmg__h3m_event x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.name), CLEAR(y.name), CLEAR(x.message), CLEAR(y.message);
    assert_memory_equal(&x, &y, sizeof x);
}

static void same_town(const rmg__h3m_town *a, const rmg__h3m_town *b)
{
    same_str(&a->name, &b->name);
    same_bytes(a->special_states, b->special_states, a->special_count);
    assert_int_equal(a->event_count, b->event_count);
    for (uint32_t i = 0; i < a->event_count; i++) {
        const rmg__h3m_town_event *e = &a->events[i], *f = &b->events[i];
        same_event_common(&e->common, &f->common);
        same_bytes(e->special_mask, f->special_mask, e->special_bit_count / 8 + (e->special_bit_count % 8 != 0));
        rmg__h3m_town_event x, y;
        memcpy(&x, e, sizeof x), memcpy(&y, f, sizeof y);
        CLEAR(x.common), CLEAR(y.common), CLEAR(x.special_mask), CLEAR(y.special_mask);
        assert_memory_equal(&x, &y, sizeof x);
    }
    rmg__h3m_town x, y;
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    CLEAR(x.name), CLEAR(y.name), CLEAR(x.special_states), CLEAR(y.special_states), CLEAR(x.events), CLEAR(y.events);
    assert_memory_equal(&x, &y, sizeof x);
}

/* Compares the bodies with their pointers cleared in copies, after comparing what they point to. */
static void same_body(const rmg__h3m_object *a, const rmg__h3m_object *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_memory_equal(&a->pos, &b->pos, sizeof a->pos);
    assert_int_equal(a->template_index, b->template_index);
    assert_memory_equal(a->reserved, b->reserved, sizeof a->reserved);
    assert_true((a->body == NULL) == (b->body == NULL));
    if (!a->body)
        return;
    rmg__h3m_body x, y;
    size_t size = rmg__h3m_body_size(a->kind);
    memset(&x, 0, sizeof x), memset(&y, 0, sizeof y);
    memcpy(&x, a->body, size), memcpy(&y, b->body, size);
    switch (a->kind) {
    case RMG__H3M_BODY_ARTIFACT: same_guards(&a->body->artifact.guards, &b->body->artifact.guards);
        CLEAR(x.artifact.guards), CLEAR(y.artifact.guards); break;
    case RMG__H3M_BODY_PANDORA: same_box(&a->body->pandora.box, &b->body->pandora.box);
        CLEAR(x.pandora.box), CLEAR(y.pandora.box); break;
    case RMG__H3M_BODY_EVENT: same_box(&a->body->event.box, &b->body->event.box);
        CLEAR(x.event.box), CLEAR(y.event.box); break;
    case RMG__H3M_BODY_BANK:
        same_bytes(a->body->bank.artifacts, b->body->bank.artifacts, a->body->bank.artifact_count * sizeof(uint32_t));
        CLEAR(x.bank.artifacts), CLEAR(y.bank.artifacts); break;
    case RMG__H3M_BODY_HERO:
        same_str(&a->body->hero.name, &b->body->hero.name);
        same_hero_data(&a->body->hero.data, &b->body->hero.data);
        CLEAR(x.hero.name), CLEAR(y.hero.name), CLEAR(x.hero.data), CLEAR(y.hero.data); break;
    case RMG__H3M_BODY_MONSTER: same_str(&a->body->monster.message, &b->body->monster.message);
        CLEAR(x.monster.message), CLEAR(y.monster.message); break;
    case RMG__H3M_BODY_MESSAGE: same_str(&a->body->message.text, &b->body->message.text);
        CLEAR(x.message.text), CLEAR(y.message.text); break;
    case RMG__H3M_BODY_RESOURCE: same_guards(&a->body->resource.guards, &b->body->resource.guards);
        CLEAR(x.resource.guards), CLEAR(y.resource.guards); break;
    case RMG__H3M_BODY_SCROLL: same_guards(&a->body->scroll.guards, &b->body->scroll.guards);
        CLEAR(x.scroll.guards), CLEAR(y.scroll.guards); break;
    case RMG__H3M_BODY_TOWN: same_town(&a->body->town, &b->body->town);
        CLEAR(x.town), CLEAR(y.town); break;
    case RMG__H3M_BODY_SEER:
        assert_int_equal(a->body->seer.task_count, b->body->seer.task_count);
        assert_int_equal(a->body->seer.repeat_count, b->body->seer.repeat_count);
        same_tasks(a->body->seer.task_count, a->body->seer.tasks, b->body->seer.tasks);
        same_tasks(a->body->seer.repeat_count, a->body->seer.repeat_tasks, b->body->seer.repeat_tasks);
        CLEAR(x.seer.tasks), CLEAR(y.seer.tasks), CLEAR(x.seer.repeat_tasks);
        CLEAR(y.seer.repeat_tasks); break;
    case RMG__H3M_BODY_QUEST: same_quest(&a->body->quest, &b->body->quest);
        CLEAR(x.quest), CLEAR(y.quest); break;
    case RMG__H3M_BODY_PLACEHOLDER:
        same_bytes(a->body->placeholder.artifacts, b->body->placeholder.artifacts,
                   (size_t)a->body->placeholder.artifact_count * sizeof(uint32_t));
        CLEAR(x.placeholder.artifacts), CLEAR(y.placeholder.artifacts); break;
    default:
        break;
    }
    assert_memory_equal(&x, &y, sizeof x);
}

/* ---- the tests ------------------------------------------------------------------------------------------- */

static rmg__h3m_doc *bodies_doc(rmg_context *ctx, uint32_t format, uint32_t sub)
{
    rmg__h3m_doc *doc = tiny_doc(ctx, format, sub);
    for (size_t i = 0; i < RMG__ARRAY_LEN(body_cases); i++) {
        const body_case *c = &body_cases[i];
        uint32_t ti = 0;
        rmg__h3m_template *t = rmg__h3m_add_template(doc, &ti);
        assert_non_null(t);
        set_str(doc, &t->def, "AVXtest0.def");
        t->class_id = c->class_id;
        t->subclass = c->subclass;
        t->passable[5] = 0x7F, t->visitable[5] = 0x80, t->terrains = 0x0FFF, t->editor_terrains = 0x0001;
        t->group = 2;
        rmg__h3m_object *o = rmg__h3m_add_object(doc, ti);
        assert_non_null(o);
        bool exists = c->from == 0 || has_sub(doc, c->from);
        assert_int_equal(o->kind, exists ? c->kind : RMG__H3M_BODY_NONE);
        fill_object(doc, o, c->class_id, (uint16_t)(i + 1));
    }
    return doc;
}

static void test_bodies_every_version(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    for (int v = -1; v <= RMG__H3M_MAX_HOTA_SUB; v++) {
        rmg__h3m_doc *doc = bodies_doc(ctx, v < 0 ? RMG__H3M_SOD : RMG__H3M_HOTA, v < 0 ? 0 : (uint32_t)v);
        size_t len = 0;
        uint8_t *out = write_ok(ctx, doc, &len);
        rmg__h3m_doc *back = parse_rewrites(ctx, out, len, v < 0 ? "bodies SoD" : "bodies HotA");
        assert_int_equal(back->object_count, doc->object_count);
        for (uint32_t i = 0; i < doc->object_count; i++) {
            same_str(&doc->templates[i].def, &back->templates[i].def);
            same_body(&doc->objects[i], &back->objects[i]);
        }
        rmg__h3m_doc_free(back);
        rmg__free(ctx, out);
        rmg__h3m_doc_free(doc);
    }
    rmg_context_destroy(ctx);
}

/* The body bytes of a single object of this class written with the editor's defaults as the
 * caller sets them; the body is what precedes the event count and the tail. */
typedef void (*body_setup)(rmg__h3m_doc *doc, rmg__h3m_object *o);

static void expect_body(uint32_t format, uint32_t sub, uint32_t class_id, uint32_t subclass, body_setup setup,
                        const char *hex)
{
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg__h3m_doc *doc = tiny_doc(ctx, format, sub);
    uint32_t ti = 0;
    rmg__h3m_template *t = rmg__h3m_add_template(doc, &ti);
    t->class_id = class_id;
    t->subclass = subclass;
    rmg__h3m_object *o = rmg__h3m_add_object(doc, ti);
    setup(doc, o);
    size_t len = 0;
    uint8_t *out = write_ok(ctx, doc, &len);
    size_t body = 0;
    for (const char *p = hex; *p; p++)
        body += *p != ' ';
    body /= 2;
    /* Before the body: one object at (0, 0, 0) of template 0 with zero reserved bytes, so the
     * body has exactly the length given. */
    size_t at = len - RMG__H3M_TAIL_BYTES - 4 - body - 16;
    expect_hex(out, len, &at, "01 00 00 00  00 00 00  00 00 00 00  00 00 00 00 00");
    expect_hex(out, len, &at, hex);
    rmg__free(ctx, out);
    rmg__h3m_doc_free(doc);
    rmg_context_destroy(ctx);
}

static void setup_monster(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    rmg__h3m_monster *m = &o->body->monster;
    m->identifier = 1, m->count = 10, m->disposition = 2;
    if (has_sub(doc, 3))
        m->aggression = -1, m->join_percent = 100, m->upgraded = -1, m->stack_count = -1;
}

static void setup_empty(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    (void)doc;
    (void)o;
}

static void setup_empty_seer(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    o->body->seer.task_count = 1;
    o->body->seer.tasks = array_of(doc, 1, sizeof(rmg__h3m_seer_task));
}

static void setup_prison(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    rmg__h3m_hero *h = &o->body->hero;
    h->identifier = 7, h->owner = 0xFF, h->hero = 40;
    h->data.has_experience = 1, h->data.experience = 5000;
    h->patrol = 0xFF, h->data.gender = 0xFF;
    if (has_sub(doc, 5))
        h->tail.always_add_skills = 1, h->tail.level = 1;
}

static void setup_bank(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    (void)doc;
    o->body->bank.preset = -1, o->body->bank.upgraded = -1;
}

static void setup_artifact(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    (void)doc;
    o->body->artifact.pickup_conditions = 0x7F;
}

static void setup_town(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    rmg__h3m_town *t = &o->body->town;
    t->identifier = 2, t->owner = 0, t->has_fort = 1, t->research = 1, t->alignment = 0xFF;
    if (has_sub(doc, 5)) {
        t->special_count = doc->hota_sub >= 9 ? 48 : 44;
        t->special_states = array_of(doc, t->special_count, 1);
    }
}

static void setup_seer_artifact(rmg__h3m_doc *doc, rmg__h3m_object *o)
{
    setup_empty_seer(doc, o);
    rmg__h3m_seer_task *t = &o->body->seer.tasks[0];
    t->quest.type = RMG__H3M_QUEST_ARTIFACTS;
    t->quest.artifact_count = 1;
    t->quest.artifacts = array_of(doc, 1, sizeof(rmg__h3m_art));
    t->quest.artifacts[0].id = 0x20;
    t->quest.deadline = 0xFFFFFFFFu;
    t->reward.type = RMG__H3M_REWARD_RESOURCE, t->reward.id = 6, t->reward.amount = 5000;
}

static void test_golden_bodies(void **state)
{
    (void)state;
    /* §16.4: the SoD part, then the default HotA tail of 22 bytes. */
    expect_body(RMG__H3M_SOD, 0, 54, 12, setup_monster, "01 00 00 00 0A 00 02 00 00 00 00 00");
    expect_body(RMG__H3M_HOTA, 9, 54, 12, setup_monster,
                "01 00 00 00 0A 00 02 00 00 00 00 00"
                " FF FF FF FF 00 64 00 00 00 FF FF FF FF FF FF FF FF 00 00 00 00 00");
    /* §16.11: an empty hut, SoD 4 bytes, HotA 12. */
    expect_body(RMG__H3M_SOD, 0, 83, 0, setup_empty_seer, "00 00 00 00");
    expect_body(RMG__H3M_HOTA, 8, 83, 0, setup_empty_seer, "01 00 00 00 00 00 00 00 00 00 00 00");
    /* The SoD RMG's seer: bring artifact 0x20, reward 5000 gold. */
    expect_body(RMG__H3M_SOD, 0, 83, 0, setup_seer_artifact,
                "05 01 20 00 FF FF FF FF 00 00 00 00 00 00 00 00 00 00 00 00 05 06 88 13 00 00 00 00");
    /* §16.3: a prison as the SoD RMG writes it, and the HotA tail. */
    expect_body(RMG__H3M_SOD, 0, 62, 0, setup_prison,
                "07 00 00 00 FF 28 00 01 88 13 00 00 00 00 00 00 00 FF 00 FF 00 00"
                " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
    expect_body(RMG__H3M_HOTA, 9, 62, 0, setup_prison,
                "07 00 00 00 FF 28 00 01 88 13 00 00 00 00 00 00 00 FF 00 FF 00 00"
                " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 01 00 00 00");
    /* §16.17 default bank; SoD: no body. */
    expect_body(RMG__H3M_HOTA, 8, 16, 0, setup_bank, "FF FF FF FF FF 00 00 00 00");
    /* §16.5: guards 0, pickup mode 0, conditions 0x7F. */
    expect_body(RMG__H3M_HOTA, 9, 5, 3, setup_artifact, "00 00 00 00 00 7F");
    expect_body(RMG__H3M_SOD, 0, 5, 3, setup_empty, "00");
    /* §16.2: a generated town, SoD and HotA 1.8 (research, 48 special buildings). */
    expect_body(RMG__H3M_SOD, 0, 98, 1, setup_town,
                "02 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
                " 00 00 00 00 FF 00 00 00");
    char hota_town[512] = "02 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01"
                          " 30 00 00 00";
    for (int i = 0; i < 48; i++)
        strcat(hota_town, " 00");
    strcat(hota_town, " 00 00 00 00 FF 00 00 00");
    expect_body(RMG__H3M_HOTA, 9, 98, 1, setup_town, hota_town);
}
