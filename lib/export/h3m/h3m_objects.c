/*
 * Object templates (spec §14), objects (§15) and the body of every object class (§16), coded
 * through the io primitives (h3m_io.h) like the rest of the file.
 */
#include <string.h>

#include "h3m_io.h"

/* Smallest encodings, to check counts against the bytes left before allocating. */
#define TEMPLATE_MIN_BYTES 46u   /* empty def, masks, terrains, class, subclass, group, ground, reserved */
#define OBJECT_MIN_BYTES 12u     /* position, template index, reserved, no body */
#define TOWN_EVENT_MIN_BYTES (RMG__H3M_EVENT_MIN_BYTES + 24u)

static const char *const kind_names[RMG__H3M_BODY_KINDS] = {
    [RMG__H3M_BODY_NONE] = "no body",
    [RMG__H3M_BODY_ARTIFACT] = "artifact",
    [RMG__H3M_BODY_PANDORA] = "Pandora's Box",
    [RMG__H3M_BODY_BLACK_MARKET] = "Black Market",
    [RMG__H3M_BODY_REWARD18] = "18-byte reward object",
    [RMG__H3M_BODY_BANK] = "creature bank",
    [RMG__H3M_BODY_OWNED] = "owned object",
    [RMG__H3M_BODY_REWARD8] = "8-byte reward object",
    [RMG__H3M_BODY_EVENT] = "event",
    [RMG__H3M_BODY_GARRISON] = "garrison",
    [RMG__H3M_BODY_HERO] = "hero",
    [RMG__H3M_BODY_GRAIL] = "grail",
    [RMG__H3M_BODY_ABANDONED_MINE] = "abandoned mine",
    [RMG__H3M_BODY_MONSTER] = "monster",
    [RMG__H3M_BODY_MESSAGE] = "sign or bottle",
    [RMG__H3M_BODY_RESOURCE] = "resource",
    [RMG__H3M_BODY_TOWN] = "town",
    [RMG__H3M_BODY_SCHOLAR] = "scholar",
    [RMG__H3M_BODY_SEER] = "seer's hut",
    [RMG__H3M_BODY_SHRINE] = "shrine",
    [RMG__H3M_BODY_SCROLL] = "spell scroll",
    [RMG__H3M_BODY_WITCH_HUT] = "witch hut",
    [RMG__H3M_BODY_TRAPPER] = "trapper's lodge",
    [RMG__H3M_BODY_QUEST] = "quest guard",
    [RMG__H3M_BODY_PLACEHOLDER] = "hero placeholder",
    [RMG__H3M_BODY_RANDOM_DWELLING] = "random dwelling",
};

/* The templates and objects tables grow while a writer fills them; reading allocates them once
 * through the context (they are not in the arena). */
static void io_table(rmg__h3m_io *io, void **items, size_t *cap, uint32_t count, size_t elem, size_t min_bytes)
{
    if (!io_ok(io) || count == 0)
        return;
    if (!io->reading) {
        rmg__h3m_io_array(io, items, count, elem, min_bytes);
        return;
    }
    if ((size_t)count > (io->in_len - io->pos) / min_bytes) {
        rmg__h3m_io_fail(io, RMG_ERR_PARSE, "a count of %u needs at least %zu bytes per item but only %zu are left",
                         count, min_bytes, io->in_len - io->pos);
        return;
    }
    *items = rmg__calloc(io->ctx, count, elem);
    if (!*items) {
        rmg__h3m_io_fail(io, RMG_ERR_NOMEM, "out of memory");
        return;
    }
    *cap = count;
}

/* ---- templates (§14) ---------------------------------------------------------------------------- */

static void io_template(rmg__h3m_io *io, rmg__h3m_template *t)
{
    io_str(io, &t->def);
    io_bytes(io, t->passable, sizeof t->passable);
    io_bytes(io, t->visitable, sizeof t->visitable);
    io_u16(io, &t->terrains);
    io_u16(io, &t->editor_terrains);
    io_u32(io, &t->class_id);
    io_u32(io, &t->subclass);
    io_u8(io, &t->group);
    io_u8(io, &t->ground);
    io_bytes(io, t->reserved, sizeof t->reserved);
}

void rmg__h3m_io_templates(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "object templates", -1);
    io_u32(io, &doc->template_count);
    io_table(io, (void **)&doc->templates, &doc->template_cap, doc->template_count, sizeof *doc->templates,
             TEMPLATE_MIN_BYTES);
    for (uint32_t i = 0; i < doc->template_count && io_ok(io); i++) {
        io_where(io, "object template", (long)i);
        io_template(io, &doc->templates[i]);
    }
}

/* ---- shared body pieces (§16.1) ------------------------------------------------------------------ */

static void io_guards(rmg__h3m_io *io, rmg__h3m_guards *g)
{
    if (!io_flag(io, &g->has_message))
        return;
    io_str(io, &g->message);
    if (io_flag(io, &g->has_guards))
        rmg__h3m_io_army(io, g->army);
    io_bytes(io, g->reserved, sizeof g->reserved);
}

static size_t art_bytes(const rmg__h3m_io *io)
{
    return io_hota(io, 5) ? 4 : 2;
}

static void io_arts(rmg__h3m_io *io, uint8_t *count, rmg__h3m_art **arts)
{
    io_u8(io, count);
    rmg__h3m_io_array(io, (void **)arts, *count, sizeof **arts, art_bytes(io));
    for (int i = 0; i < *count && io_ok(io); i++)
        rmg__h3m_io_art(io, &(*arts)[i]);
}

static void io_slots(rmg__h3m_io *io, uint8_t *count, rmg__h3m_slot **slots)
{
    io_u8(io, count);
    rmg__h3m_io_array(io, (void **)slots, *count, sizeof **slots, 4);
    for (int i = 0; i < *count && io_ok(io); i++)
        rmg__h3m_io_slot(io, &(*slots)[i]);
}

static void io_box(rmg__h3m_io *io, rmg__h3m_box *b)
{
    io_guards(io, &b->guards);
    io_u32(io, &b->experience);
    io_i32(io, &b->spell_points);
    io_i8(io, &b->morale);
    io_i8(io, &b->luck);
    for (int i = 0; i < 7; i++)
        io_i32(io, &b->resources[i]);
    io_bytes(io, b->primary, sizeof b->primary);
    io_u8(io, &b->skill_count);
    rmg__h3m_io_array(io, (void **)&b->skills, b->skill_count, sizeof *b->skills, 2);
    for (int i = 0; i < b->skill_count && io_ok(io); i++) {
        io_u8(io, &b->skills[i].skill);
        io_u8(io, &b->skills[i].level);
    }
    io_arts(io, &b->artifact_count, &b->artifacts);
    io_u8(io, &b->spell_count);
    rmg__h3m_io_array(io, (void **)&b->spells, b->spell_count, 1, 1);
    if (io_ok(io))
        io_bytes(io, b->spells, b->spell_count);
    io_slots(io, &b->creature_count, &b->creatures);
    io_bytes(io, b->reserved, sizeof b->reserved);
}

static void io_box_tail(rmg__h3m_io *io, rmg__h3m_box_tail *t)
{
    if (io_hota(io, 5)) {
        io_i32(io, &t->movement_mode);
        io_i32(io, &t->movement_points);
    }
    if (io_hota(io, 6))
        io_i32(io, &t->difficulties);
    if (io_hota(io, 9))
        rmg__h3m_io_script_ref(io, &t->script);
}

static void bad_hota_quest(rmg__h3m_io *io, size_t at, const rmg__h3m_quest *q)
{
    rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a HotA quest kind (0 to %d), found %u", io_hota(io, 9) ? 3 : 2,
                        q->hota_kind);
}

static void io_hota_quest(rmg__h3m_io *io, rmg__h3m_quest *q)
{
    size_t at = io->pos;
    io_u32(io, &q->hota_kind);
    switch (io_ok(io) ? q->hota_kind : UINT32_MAX) {
    case RMG__H3M_HOTA_QUEST_CLASS:
        io_u32(io, &q->class_count);
        rmg__h3m_io_mask(io, &q->class_mask, q->class_count);
        break;
    case RMG__H3M_HOTA_QUEST_DAY: case RMG__H3M_HOTA_QUEST_DIFFICULTY:
        io_u32(io, &q->hota_value);
        break;
    case RMG__H3M_HOTA_QUEST_SCRIPT:
        if (io_hota(io, 9)) { /* scripts exist from sub-version 9 */
            io_u32(io, &q->hota_value);
            io_u8(io, &q->script_flag);
            break;
        }
        bad_hota_quest(io, at, q);
        break;
    default:
        bad_hota_quest(io, at, q);
        break;
    }
}

static void bad_quest(rmg__h3m_io *io, size_t at, const rmg__h3m_quest *q)
{
    rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a quest type (0 to %d), found %u", io_is_hota(io) ? 10 : 9,
                        q->type);
}

static void io_quest(rmg__h3m_io *io, rmg__h3m_quest *q)
{
    size_t at = io->pos;
    io_u8(io, &q->type);
    switch (io_ok(io) ? q->type : RMG__H3M_QUEST_NONE) {
    case RMG__H3M_QUEST_NONE:
        return; /* nothing else, not even the deadline */
    case RMG__H3M_QUEST_LEVEL: case RMG__H3M_QUEST_DEFEAT_HERO: case RMG__H3M_QUEST_DEFEAT_MONSTER:
        io_u32(io, &q->value);
        break;
    case RMG__H3M_QUEST_PRIMARY:
        io_bytes(io, q->primary, sizeof q->primary);
        break;
    case RMG__H3M_QUEST_ARTIFACTS:
        io_arts(io, &q->artifact_count, &q->artifacts);
        break;
    case RMG__H3M_QUEST_CREATURES:
        io_slots(io, &q->creature_count, &q->creatures);
        break;
    case RMG__H3M_QUEST_RESOURCES:
        for (int i = 0; i < 7; i++)
            io_u32(io, &q->resources[i]);
        break;
    case RMG__H3M_QUEST_BE_HERO: case RMG__H3M_QUEST_BE_PLAYER:
        io_u8(io, &q->id);
        break;
    case RMG__H3M_QUEST_HOTA:
        if (io_is_hota(io)) /* HotA quests exist in HotA maps only */
            io_hota_quest(io, q);
        else
            bad_quest(io, at, q);
        break;
    default:
        bad_quest(io, at, q);
        break;
    }
    if (!io_ok(io))
        return;
    io_u32(io, &q->deadline);
    io_str(io, &q->proposal);
    io_str(io, &q->progress);
    io_str(io, &q->completion);
}

static void io_reward(rmg__h3m_io *io, rmg__h3m_reward *r)
{
    size_t at = io->pos;
    io_u8(io, &r->type);
    switch (io_ok(io) ? r->type : RMG__H3M_REWARD_NONE) {
    case RMG__H3M_REWARD_NONE:
        break;
    case RMG__H3M_REWARD_EXPERIENCE: case RMG__H3M_REWARD_SPELL_POINTS:
        io_u32(io, &r->amount);
        break;
    case RMG__H3M_REWARD_MORALE: case RMG__H3M_REWARD_LUCK:
        io_i8(io, &r->bonus);
        break;
    case RMG__H3M_REWARD_RESOURCE:
        io_u8(io, &r->id);
        io_u32(io, &r->amount);
        break;
    case RMG__H3M_REWARD_PRIMARY: case RMG__H3M_REWARD_SECONDARY:
        io_u8(io, &r->id);
        io_u8(io, &r->level);
        break;
    case RMG__H3M_REWARD_ARTIFACT:
        rmg__h3m_io_art(io, &r->artifact);
        break;
    case RMG__H3M_REWARD_SPELL:
        io_u8(io, &r->id);
        break;
    case RMG__H3M_REWARD_CREATURES:
        rmg__h3m_io_slot(io, &r->creatures);
        break;
    default:
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a seer's reward type (0 to 10), found %u", r->type);
        break;
    }
}

/* ---- bodies (§16.2-§16.19) ----------------------------------------------------------------------- */

static void io_town_event(rmg__h3m_io *io, rmg__h3m_town_event *e)
{
    rmg__h3m_io_event_common(io, &e->common);
    if (io_hota(io, 5)) {
        io_i32(io, &e->growth8);
        io_u32(io, &e->special_bit_count);
        rmg__h3m_io_mask(io, &e->special_mask, e->special_bit_count);
    }
    if (io_hota(io, 7))
        io_u8(io, &e->neutral);
    io_bytes(io, e->buildings, sizeof e->buildings);
    for (int i = 0; i < 7; i++)
        io_u16(io, &e->creatures[i]);
    io_bytes(io, e->reserved, sizeof e->reserved);
}

static void io_town(rmg__h3m_io *io, rmg__h3m_town *t)
{
    io_u32(io, &t->identifier);
    io_u8(io, &t->owner);
    if (io_flag(io, &t->has_name))
        io_str(io, &t->name);
    if (io_flag(io, &t->has_garrison))
        rmg__h3m_io_army(io, t->garrison);
    io_u8(io, &t->formation);
    if (io_flag(io, &t->has_buildings)) {
        io_bytes(io, t->built, sizeof t->built);
        io_bytes(io, t->disabled, sizeof t->disabled);
    } else {
        io_u8(io, &t->has_fort);
    }
    io_bytes(io, t->must_spells, sizeof t->must_spells);
    io_bytes(io, t->banned_spells, sizeof t->banned_spells);
    if (io_hota(io, 1))
        io_u8(io, &t->research);
    if (io_hota(io, 5)) {
        io_u32(io, &t->special_count);
        rmg__h3m_io_array(io, (void **)&t->special_states, t->special_count, 1, 1);
        if (io_ok(io))
            io_bytes(io, t->special_states, t->special_count);
    }
    io_u32(io, &t->event_count);
    rmg__h3m_io_array(io, (void **)&t->events, t->event_count, sizeof *t->events, TOWN_EVENT_MIN_BYTES);
    for (uint32_t i = 0; i < t->event_count && io_ok(io); i++)
        io_town_event(io, &t->events[i]);
    io_u8(io, &t->alignment);
    io_bytes(io, t->reserved, sizeof t->reserved);
}

static void io_hero(rmg__h3m_io *io, rmg__h3m_hero *h)
{
    io_u32(io, &h->identifier);
    io_u8(io, &h->owner);
    io_u8(io, &h->hero);
    if (io_flag(io, &h->has_name))
        io_str(io, &h->name);
    rmg__h3m_io_experience(io, &h->data);
    if (io_flag(io, &h->has_portrait))
        io_u8(io, &h->portrait);
    rmg__h3m_io_skills(io, &h->data.has_skills, &h->data.skill_count, &h->data.skills);
    if (io_flag(io, &h->has_army))
        rmg__h3m_io_army(io, h->army);
    io_u8(io, &h->formation);
    rmg__h3m_io_hero_artifacts(io, &h->data.artifacts);
    io_u8(io, &h->patrol);
    rmg__h3m_io_hero_end(io, &h->data);
    io_bytes(io, h->reserved, sizeof h->reserved);
    if (io_hota(io, 5))
        rmg__h3m_io_hero_tail(io, &h->tail);
}

static void io_monster(rmg__h3m_io *io, rmg__h3m_monster *m)
{
    io_u32(io, &m->identifier);
    io_u16(io, &m->count);
    io_u8(io, &m->disposition);
    if (io_flag(io, &m->has_message)) {
        io_str(io, &m->message);
        for (int i = 0; i < 7; i++)
            io_i32(io, &m->resources[i]);
        io_u16(io, &m->artifact);
    }
    io_u8(io, &m->never_flees);
    io_u8(io, &m->no_growth);
    io_bytes(io, m->reserved, sizeof m->reserved);
    if (io_hota(io, 3)) {
        io_i32(io, &m->aggression);
        io_u8(io, &m->money_only);
        io_i32(io, &m->join_percent);
        io_i32(io, &m->upgraded);
        io_i32(io, &m->stack_count);
    }
    if (io_hota(io, 5)) {
        io_u8(io, &m->by_ai_value);
        io_i32(io, &m->ai_value);
    }
}

static void io_seer_tasks(rmg__h3m_io *io, uint32_t count, rmg__h3m_seer_task **tasks)
{
    rmg__h3m_io_array(io, (void **)tasks, count, sizeof **tasks, 2);
    for (uint32_t i = 0; i < count && io_ok(io); i++) {
        rmg__h3m_seer_task *t = &(*tasks)[i];
        io_quest(io, &t->quest);
        if (t->quest.type == RMG__H3M_QUEST_NONE)
            io_u8(io, &t->reward.type); /* the byte after an empty quest, kept as it is */
        else
            io_reward(io, &t->reward);
    }
}

static void io_seer(rmg__h3m_io *io, rmg__h3m_seer *s)
{
    if (io_hota(io, 3)) {
        io_u32(io, &s->task_count);
    } else if (io->reading) {
        s->task_count = 1;
    } else if (s->task_count != 1) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "a seer's hut before HotA 3 has exactly one quest, not %u",
                         s->task_count);
        return;
    }
    io_seer_tasks(io, s->task_count, &s->tasks);
    if (io_hota(io, 3)) {
        io_u32(io, &s->repeat_count);
        io_seer_tasks(io, s->repeat_count, &s->repeat_tasks);
    }
    io_bytes(io, s->reserved, sizeof s->reserved);
}

static void io_artifact(rmg__h3m_io *io, rmg__h3m_artifact *a)
{
    io_guards(io, &a->guards);
    if (io_hota(io, 5)) {
        io_u32(io, &a->pickup_mode);
        io_u8(io, &a->pickup_conditions);
    }
}

static void io_pandora(rmg__h3m_io *io, rmg__h3m_pandora *p)
{
    io_box(io, &p->box);
    if (io_hota(io, 5))
        io_u8(io, &p->unknown);
    io_box_tail(io, &p->tail);
}

static void io_event_object(rmg__h3m_io *io, rmg__h3m_event_object *e)
{
    io_box(io, &e->box);
    io_u8(io, &e->players);
    io_u8(io, &e->computer_activates);
    io_u8(io, &e->remove_after_visit);
    io_bytes(io, e->reserved, sizeof e->reserved);
    if (io_hota(io, 3))
        io_u8(io, &e->human_activates);
    io_box_tail(io, &e->tail);
}

static void io_bank(rmg__h3m_io *io, rmg__h3m_bank *b)
{
    io_i32(io, &b->preset);
    io_i8(io, &b->upgraded);
    io_u32(io, &b->artifact_count);
    rmg__h3m_io_array(io, (void **)&b->artifacts, b->artifact_count, sizeof *b->artifacts, 4);
    for (uint32_t i = 0; i < b->artifact_count && io_ok(io); i++)
        io_u32(io, &b->artifacts[i]);
}

static void io_reward18(rmg__h3m_io *io, rmg__h3m_reward18 *r)
{
    io_i32(io, &r->content);
    io_u32(io, &r->artifact);
    io_i32(io, &r->amount_a);
    io_u8(io, &r->resource_a);
    io_i32(io, &r->amount_b);
    io_u8(io, &r->resource_b);
}

static void io_abandoned_mine(rmg__h3m_io *io, rmg__h3m_abandoned_mine *m)
{
    io_u8(io, &m->resources);
    io_bytes(io, m->reserved, sizeof m->reserved);
    if (io_hota(io, 5)) {
        io_u8(io, &m->custom_guards);
        io_u32(io, &m->creature);
        io_i32(io, &m->min_count);
        io_i32(io, &m->max_count);
    }
}

static void io_garrison(rmg__h3m_io *io, rmg__h3m_garrison *g)
{
    io_u32(io, &g->owner);
    rmg__h3m_io_army(io, g->army);
    io_u8(io, &g->removable);
    io_bytes(io, g->reserved, sizeof g->reserved);
}

static void io_placeholder(rmg__h3m_io *io, rmg__h3m_placeholder *p)
{
    io_u8(io, &p->owner);
    io_u8(io, &p->hero);
    if (p->hero == 0xFF)
        io_u8(io, &p->power_rating);
    if (!io_hota(io, 5))
        return;
    io_u8(io, &p->custom_army);
    for (int i = 0; i < RMG__H3M_ARMY_SLOTS; i++) {
        io_i32(io, &p->army_count[i]);
        io_u32(io, &p->army_creature[i]);
    }
    size_t at = io->pos;
    io_i32(io, &p->artifact_count);
    if (io_ok(io) && p->artifact_count < 0) {
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected an artifact count, found %d", p->artifact_count);
        return;
    }
    rmg__h3m_io_array(io, (void **)&p->artifacts, (size_t)p->artifact_count, sizeof *p->artifacts, 4);
    for (int32_t i = 0; i < p->artifact_count && io_ok(io); i++)
        io_u32(io, &p->artifacts[i]);
}

static void io_random_dwelling(rmg__h3m_io *io, rmg__h3m_random_dwelling *d, uint32_t class_id)
{
    io_u32(io, &d->owner);
    if (class_id != 218) { /* 218 has its faction in the subclass */
        io_u32(io, &d->town_id);
        if (d->town_id == 0)
            io_bytes(io, d->factions, sizeof d->factions);
    }
    if (class_id != 217) { /* 217 has its level in the subclass */
        io_u8(io, &d->min_level);
        io_u8(io, &d->max_level);
    }
}

static void io_small_body(rmg__h3m_io *io, rmg__h3m_object *o)
{
    switch (o->kind) {
    case RMG__H3M_BODY_BLACK_MARKET:
        for (int i = 0; i < 7; i++)
            rmg__h3m_io_art(io, &o->body->black_market[i]);
        break;
    case RMG__H3M_BODY_OWNED:
        io_u32(io, &o->body->owner);
        break;
    case RMG__H3M_BODY_REWARD8:
        io_i32(io, &o->body->reward8.content);
        io_u32(io, &o->body->reward8.value);
        break;
    case RMG__H3M_BODY_GRAIL:
        io_i32(io, &o->body->grail_radius);
        break;
    case RMG__H3M_BODY_MESSAGE:
        io_str(io, &o->body->message.text);
        io_bytes(io, o->body->message.reserved, sizeof o->body->message.reserved);
        break;
    case RMG__H3M_BODY_SCHOLAR:
        io_u8(io, &o->body->scholar.kind);
        io_u8(io, &o->body->scholar.id);
        io_bytes(io, o->body->scholar.reserved, sizeof o->body->scholar.reserved);
        break;
    case RMG__H3M_BODY_SHRINE:
        io_u32(io, &o->body->shrine_spell);
        break;
    case RMG__H3M_BODY_WITCH_HUT:
        io_bytes(io, o->body->witch_skills, sizeof o->body->witch_skills);
        break;
    case RMG__H3M_BODY_TRAPPER:
        io_i32(io, &o->body->trapper.content);
        io_i32(io, &o->body->trapper.gold);
        io_i32(io, &o->body->trapper.count);
        io_u32(io, &o->body->trapper.creature);
        break;
    default:
        break;
    }
}

static void io_body(rmg__h3m_io *io, rmg__h3m_object *o, uint32_t class_id)
{
    switch (o->kind) {
    case RMG__H3M_BODY_ARTIFACT: io_artifact(io, &o->body->artifact); break;
    case RMG__H3M_BODY_PANDORA: io_pandora(io, &o->body->pandora); break;
    case RMG__H3M_BODY_REWARD18: io_reward18(io, &o->body->reward18); break;
    case RMG__H3M_BODY_BANK: io_bank(io, &o->body->bank); break;
    case RMG__H3M_BODY_EVENT: io_event_object(io, &o->body->event); break;
    case RMG__H3M_BODY_GARRISON: io_garrison(io, &o->body->garrison); break;
    case RMG__H3M_BODY_HERO: io_hero(io, &o->body->hero); break;
    case RMG__H3M_BODY_ABANDONED_MINE: io_abandoned_mine(io, &o->body->mine); break;
    case RMG__H3M_BODY_MONSTER: io_monster(io, &o->body->monster); break;
    case RMG__H3M_BODY_RESOURCE:
        io_guards(io, &o->body->resource.guards);
        io_u32(io, &o->body->resource.amount);
        io_bytes(io, o->body->resource.reserved, sizeof o->body->resource.reserved);
        break;
    case RMG__H3M_BODY_TOWN: io_town(io, &o->body->town); break;
    case RMG__H3M_BODY_SEER: io_seer(io, &o->body->seer); break;
    case RMG__H3M_BODY_SCROLL:
        io_guards(io, &o->body->scroll.guards);
        io_u32(io, &o->body->scroll.spell);
        break;
    case RMG__H3M_BODY_QUEST: io_quest(io, &o->body->quest); break;
    case RMG__H3M_BODY_PLACEHOLDER: io_placeholder(io, &o->body->placeholder); break;
    case RMG__H3M_BODY_RANDOM_DWELLING: io_random_dwelling(io, &o->body->dwelling, class_id); break;
    default: io_small_body(io, o); break;
    }
}

/* ---- objects (§15) --------------------------------------------------------------------------------- */

static void io_object(rmg__h3m_io *io, rmg__h3m_object *o)
{
    rmg__h3m_doc *doc = io->doc;
    io_xyz(io, &o->pos);
    size_t at = io->pos;
    io_u32(io, &o->template_index);
    if (!io_ok(io))
        return;
    if (o->template_index >= doc->template_count) {
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a template index below %u, found %u",
                            doc->template_count, o->template_index);
        return;
    }
    io_bytes(io, o->reserved, sizeof o->reserved);
    const rmg__h3m_template *t = &doc->templates[o->template_index];
    rmg__h3m_body_kind kind = rmg__h3m_body_kind_of(doc, t->class_id, t->subclass);
    if (io->reading) {
        if (rmg__h3m_give_body(doc, o, kind) != RMG_OK) {
            rmg__h3m_io_fail(io, RMG_ERR_NOMEM, "out of memory");
            return;
        }
    } else if (o->kind != kind) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "its template (class %u, subclass %u) needs a %s body, not a %s",
                         t->class_id, t->subclass, kind_names[kind],
                         (unsigned)o->kind < RMG__H3M_BODY_KINDS ? kind_names[o->kind] : "unknown");
        return;
    } else if (!o->body && rmg__h3m_body_size(kind)) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "its %s body is missing", kind_names[kind]);
        return;
    }
    io->detail = kind_names[kind];
    io_body(io, o, t->class_id);
}

void rmg__h3m_io_objects(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "objects", -1);
    io_u32(io, &doc->object_count);
    io_table(io, (void **)&doc->objects, &doc->object_cap, doc->object_count, sizeof *doc->objects,
             OBJECT_MIN_BYTES);
    for (uint32_t i = 0; i < doc->object_count && io_ok(io); i++) {
        io_where(io, "object", (long)i);
        io_object(io, &doc->objects[i]);
    }
}
