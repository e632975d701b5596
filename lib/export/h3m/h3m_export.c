/*
 * The .h3m export: a generated map as a file the game opens (docs/h3m-export.md). The map is
 * turned into a document (h3m_doc.h) part by part: header, players, the game setup (heroes,
 * bans, options), tiles with their views, the templates of the objects and every object with
 * its body; the codec writes it and gzip wraps it.
 *
 * Editions: SoD (format 0x1C) for a map of SoD content only, HotA 1.7.3 (format 0x20,
 * sub-version 8) for everything librmg places. A SoD file of a map with HotA content is refused
 * naming the first thing SoD does not have; nothing is written.
 */
#include <stdio.h>
#include <string.h>

#include "h3m_doc.h"
#include "h3m_export.h"
#include "h3m_kinds.h"
#include "map/map_views.h"

/* HotA 1.7.3: the newest 1.7 format, read by HotA 1.7.3 and 1.8 (and VCMI); librmg places no
 * 1.8 content (Bulwark, Trapper's Lodge), so 1.8's sub-version 9 would add nothing. */
#define HOTA_SUB 8
#define NAME_MAX 30         /* the editor's limits */
#define DESCRIPTION_MAX 300

/* What decides an object's template (rmg__h3m_object_template): objects of one kind share it, so
 * the search among the rows runs once per kind, not once per object (a G map has tens of
 * thousands of obstacles of a few hundred kinds). */
typedef struct template_key {
    uint64_t block, visit;
    int32_t faction, creature, artifact, color;
    int32_t terrain, castle;
} template_key;

typedef struct template_memo {
    uint64_t hash;                        /* 0: empty slot */
    const char *key;                      /* the object key */
    template_key k;
    const rmg__h3m_known_template *row;   /* NULL: none fits */
    int cls, sub, shift;
} template_memo;

#define MEMO_SLOTS 4096 /* a power of two; more kinds than slots only cost searches */

typedef struct exporter {
    const struct rmg_map *m;
    const struct rmg_content *c;
    rmg__h3m_doc *doc;
    bool hota;
    uint32_t next_id;       /* identifiers of towns, heroes and monsters (§15) */
    uint32_t *row_index;    /* per known template: its index in the document + 1, 0 not yet there */
    template_memo *memo;    /* MEMO_SLOTS */
} exporter;

static rmg_status refuse(exporter *e, const char *fmt, ...) RMG__PRINTF(2, 3);

/* A SoD file cannot hold something of the map: RMG_ERR_UNSUPPORTED with the reason. */
static rmg_status refuse(exporter *e, const char *fmt, ...)
{
    char why[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return rmg__error_set(e->m->ctx, RMG_ERR_UNSUPPORTED, "h3m: %s", why);
}

static void set_bit(uint8_t *mask, uint32_t k, bool on)
{
    if (on)
        mask[k / 8] |= (uint8_t)(1u << (k % 8));
    else
        mask[k / 8] &= (uint8_t)~(1u << (k % 8));
}

/* Text in the game's 8-bit code page: ASCII is the same in all of them, anything else becomes
 * '?' (a template name in Cyrillic would show as other letters in a Western game). */
static rmg_status set_text(exporter *e, rmg__h3m_str *s, const char *utf8, size_t max)
{
    char buf[DESCRIPTION_MAX + 1];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(utf8 ? utf8 : ""); *p && n < max && n < DESCRIPTION_MAX; p++) {
        if ((*p & 0xC0) == 0x80)
            continue; /* a continuation byte: its character was replaced already */
        buf[n++] = *p < 0x80 && (*p >= 0x20 || *p == '\n') ? (char)*p : '?';
    }
    buf[n] = '\0';
    return rmg__h3m_str_set(e->doc, s, buf);
}

/* ---- header ------------------------------------------------------------------------------------- */

static const char *size_name(int side)
{
    static const struct {
        int side;
        const char *name;
    } sizes[] = {{36, "S"}, {72, "M"}, {108, "L"}, {144, "XL"}, {180, "H"}, {216, "XH"}, {252, "G"}};
    for (size_t i = 0; i < RMG__ARRAY_LEN(sizes); i++)
        if (sizes[i].side == side)
            return sizes[i].name;
    return NULL;
}

const char *rmg__h3m_size_refusal(int width, int height, bool hota, char *buf, size_t size)
{
    if (width != height || !size_name(width))
        snprintf(buf, size, "the format holds square maps of 36, 72, 108, 144, 180, 216 or 252 tiles; this one is %dx%d",
                 width, height);
    else if (!hota && width > 144)
        snprintf(buf, size, "SoD maps are at most 144x144 (XL); this one is %dx%d: write it for HotA", width, height);
    else
        return NULL;
    return buf;
}

static rmg_status check_size(exporter *e)
{
    char why[160];
    if (rmg__h3m_size_refusal(e->m->width, e->m->height, e->hota, why, sizeof why))
        return refuse(e, "%s", why);
    return RMG_OK;
}

/* The map's description as it is (rmg_map_description: for a generated map the pack author's
 * text and the generator's line, lib/driver/generate.c; for a map read from a file its own). */
static rmg_status write_header(exporter *e)
{
    const struct rmg_map *m = e->m;
    rmg_status st = set_text(e, &e->doc->basic.name, m->template_name[0] ? m->template_name : "librmg map", NAME_MAX);
    if (st == RMG_OK)
        st = set_text(e, &e->doc->basic.description, m->description ? m->description : "", DESCRIPTION_MAX);
    e->doc->basic.difficulty = 1; /* normal */
    return st;
}

/* ---- the game setup (spec §0) ----------------------------------------------------------------- */

/* The game id of entity i of an artifact, spell, skill or hero kind, -1 for another kind. */
static int game_id(const struct rmg_content *c, rmg_content_kind kind, size_t i)
{
    switch (kind) {
    case RMG_CONTENT_ARTIFACT:
        return c->artifacts[i].id;
    case RMG_CONTENT_SPELL:
        return c->spells[i].id;
    case RMG_CONTENT_SKILL:
        return c->skills[i].id;
    case RMG_CONTENT_HERO:
        return c->heroes[i].id;
    default:
        return -1;
    }
}

/* The entities of one kind with their allowed flags written into a mask (1 = allowed when
 * `allowed_bit`, else 1 = banned); ids beyond the mask, and entities the map has no flag for,
 * keep the editor's default. */
static void write_mask(exporter *e, rmg_content_kind kind, uint8_t *mask, uint32_t bits, bool allowed_bit)
{
    size_t n = rmg_content_count(e->c, kind);
    for (size_t i = 0; i < n; i++) {
        int allowed = rmg__map_allowed(e->m, kind, i), id = game_id(e->c, kind, i);
        if (allowed < 0 || id < 0 || (uint32_t)id >= bits)
            continue;
        set_bit(mask, (uint32_t)id, allowed_bit ? allowed != 0 : allowed == 0);
    }
}

/* MIS-34: Gem's starting spell, when it is not the game's own (Summon Boat): her hero setting. */
static rmg_status write_gem_spell(exporter *e)
{
    const rmg__map_setup *s = &e->m->setup;
    long gem = rmg_content_find(e->c, RMG_CONTENT_HERO, "gem");
    if (s->gem_spell < 0 || gem < 0)
        return RMG_OK;
    int spell_id = e->c->spells[s->gem_spell].id, hero_id = e->c->heroes[gem].id;
    if (spell_id == 0 /* Summon Boat: the game's default */ || hero_id < 0 ||
        (uint32_t)hero_id >= e->doc->hero_setting_count || spell_id >= RMG__H3M_SPELL_MASK * 8)
        return RMG_OK;
    rmg__h3m_hero_setting *h = &e->doc->hero_settings[hero_id];
    h->customised = 1;
    h->data.gender = 0xFF;
    h->data.has_spells = 1;
    set_bit(h->data.spells, (uint32_t)spell_id, true);
    return RMG_OK;
}

static rmg_status write_setup(exporter *e)
{
    rmg__h3m_doc *doc = e->doc;
    const rmg__map_setup *s = &e->m->setup;
    write_mask(e, RMG_CONTENT_HERO, doc->heroes.allowed, doc->heroes.count, true);
    write_mask(e, RMG_CONTENT_ARTIFACT, doc->bans.artifacts, doc->bans.artifact_count, false);
    write_mask(e, RMG_CONTENT_SPELL, doc->bans.spells, RMG__H3M_SPELL_MASK * 8, false);
    write_mask(e, RMG_CONTENT_SKILL, doc->bans.skills, RMG__H3M_SKILL_MASK * 8, false);
    /* Settings SoD has no field for are HotA's alone (docs/h3m-export.md). */
    doc->options.special_weeks = s->special_weeks;
    doc->options.round_limit = s->max_battle_rounds > 0 ? s->max_battle_rounds : -1;
    for (int p = 0; p < RMG__H3M_PLAYERS; p++)
        doc->options.hiring_banned[p] = s->forbid_hiring_heroes;
    return write_gem_spell(e);
}

/* ---- tiles ---------------------------------------------------------------------------------------- */

static rmg_status write_tiles(exporter *e)
{
    const struct rmg_map *m = e->m;
    size_t n = m->n_tiles;
    for (size_t t = 0; t < n; t++)
        if (!e->hota && m->terrain[t] >= RMG_TERRAIN_HIGHLANDS)
            return refuse(e, "tile %d,%d,%d is %s, a HotA terrain: write the map for HotA",
                          (int)(t % (size_t)m->width), (int)(t / (size_t)m->width % (size_t)m->height),
                          (int)(t / ((size_t)m->width * (size_t)m->height)), rmg__terrain_key(m->terrain[t]));
    uint8_t *views = rmg__malloc(m->ctx, 4 * n);
    if (!views)
        return rmg__error_nomem(m->ctx);
    uint8_t *terrain_view = views, *road_view = views + n, *flags = views + 2 * n, *river_view = views + 3 * n;
    memset(flags, 0, n);
    rmg__map_terrain_views(m->terrain, m->width, m->height, m->levels, e->hota, m->seed, terrain_view, flags);
    rmg__map_road_views(m->road, m->width, m->height, m->levels, m->seed, road_view, flags);
    rmg__map_river_views(m->river, m->width, m->height, m->levels, m->seed, river_view, flags);
    uint8_t *out = e->doc->tiles;
    for (size_t t = 0; t < n; t++, out += RMG__H3M_TILE_BYTES) {
        out[0] = m->terrain[t];
        out[1] = terrain_view[t];
        out[2] = m->river[t];
        out[3] = m->river[t] ? river_view[t] : 0;
        out[4] = m->road[t];
        out[5] = m->road[t] ? road_view[t] : 0;
        out[6] = flags[t];
    }
    rmg__free(m->ctx, views);
    return RMG_OK;
}

/* ---- templates ------------------------------------------------------------------------------------ */

/* The document's index of a known template, added on first use. */
static rmg_status template_index(exporter *e, const rmg__h3m_known_template *t, uint32_t *out)
{
    size_t k = (size_t)(t - rmg__h3m_known_templates);
    if (e->row_index[k]) {
        *out = e->row_index[k] - 1;
        return RMG_OK;
    }
    rmg__h3m_template *d = rmg__h3m_add_template(e->doc, out);
    if (!d)
        return rmg_context_errcode(e->m->ctx);
    rmg_status st = rmg__h3m_str_set(e->doc, &d->def, t->def);
    memcpy(d->passable, t->passable, sizeof d->passable);
    memcpy(d->visitable, t->visitable, sizeof d->visitable);
    d->terrains = t->terrains;
    d->editor_terrains = t->menu;
    d->class_id = t->cls;
    d->subclass = t->subclass;
    d->group = t->group;
    d->ground = t->ground;
    e->row_index[k] = *out + 1;
    return st;
}

/* Every editor-made and RMG-made file starts its table with a random monster and a hole that no
 * object uses (§14); so does this one. */
static rmg_status write_first_templates(exporter *e)
{
    static const struct {
        int cls;
        const char *def;
    } first[] = {{71, "AVWmrnd0.def"}, {124, "AVLholg0.def"}};
    for (size_t i = 0; i < RMG__ARRAY_LEN(first); i++) {
        const rmg__h3m_known_template *found = NULL;
        for (size_t k = 0; k < rmg__h3m_n_known_templates && !found; k++)
            if (rmg__h3m_known_templates[k].cls == first[i].cls && !strcmp(rmg__h3m_known_templates[k].def, first[i].def))
                found = &rmg__h3m_known_templates[k];
        uint32_t index;
        rmg_status st = found ? template_index(e, found, &index) : RMG_OK;
        if (st != RMG_OK)
            return st;
    }
    return RMG_OK;
}

/* ---- players ---------------------------------------------------------------------------------- */

/* The tile a written object is entered on (its first visitable tile), from its template. */
static rmg__h3m_xyz entry_of(const rmg__h3m_object *w, const rmg__h3m_template *t)
{
    rmg__h3m_xyz at = w->pos;
    for (int row = 5; row >= 0; row--)
        for (int col = 7; col >= 0; col--)
            if (t->visitable[row] >> col & 1u) {
                at.x = (uint8_t)(w->pos.x - (7 - col));
                at.y = (uint8_t)(w->pos.y - (5 - row));
                return at;
            }
    return at;
}

/* A player's block from the main town (§4, as the SoD generator writes it): playable by a human
 * when its start zone allows one, by the computer always; its town's faction allowed; a hero is
 * generated at the main town. */
static void write_player(exporter *e, const rmg__map_object *town, rmg__h3m_xyz entrance)
{
    const struct rmg_map *m = e->m;
    rmg__h3m_player *p = &e->doc->players[town->owner - 1];
    bool human_zone = false;
    for (size_t i = 0; i < m->zones.count; i++)
        human_zone |= m->zones.items[i].owner == town->owner && m->zones.items[i].kind == RMG_ZONE_HUMAN_START;
    p->can_human = human_zone;
    p->can_computer = 1;
    p->factions[0] = p->factions[1] = 0;
    if (town->faction >= 0 && town->faction < 16)
        p->factions[town->faction / 8] = (uint8_t)(1u << (town->faction % 8));
    p->has_main_town = 1;
    p->generate_hero = 1;
    p->main_town_faction = (uint8_t)town->faction;
    p->main_town = entrance;
    p->main_hero = 0xFF;
}

/* A player of the setup whose start zone has no town could not play (the game needs a town or a
 * hero): refused. */
static rmg_status check_players(exporter *e)
{
    const struct rmg_map *m = e->m;
    for (size_t i = 0; i < m->zones.count; i++) {
        const rmg__map_zone *z = &m->zones.items[i];
        int owner = z->owner;
        bool start = z->kind == RMG_ZONE_HUMAN_START || z->kind == RMG_ZONE_COMPUTER_START;
        if (start && owner >= 1 && owner <= RMG__MIN(m->options.players, RMG__H3M_PLAYERS) &&
            !e->doc->players[owner - 1].has_main_town)
            return rmg__error_set(m->ctx, RMG_ERR_UNSUPPORTED,
                                  "h3m: player %d owns zone %d but no town: the game needs a town or a hero for "
                                  "every player",
                                  owner, m->zones.items[i].id);
    }
    return RMG_OK;
}

/* ---- object bodies (§16) ------------------------------------------------------------------------ */

/* The file's player of an owner; players the map does not play (a zone's owner beyond the
 * setup's player count) own nothing in the file. */
static uint8_t player_byte(const exporter *e, int owner)
{
    return owner >= 1 && owner <= RMG__MIN(e->m->options.players, RMG__H3M_PLAYERS) ? (uint8_t)(owner - 1) : 0xFF;
}

static const rmg__object_def *row_of(const exporter *e, const rmg__map_object *o)
{
    long k = o->key ? rmg__content_find_object(e->c, o->key) : -1;
    return k >= 0 ? &e->c->objects[k] : NULL;
}

static bool family_is(const rmg__object_def *d, const char *family)
{
    return d && d->family && strncmp(d->family, family, strlen(family)) == 0;
}

/* A creature of the content as the file knows it; -1 (with the error set) when SoD has none. */
static int creature_id(exporter *e, const rmg__map_object *o, int creature)
{
    if (creature < 0 || (size_t)creature >= e->c->n_creatures) {
        rmg__error_set(e->m->ctx, RMG_ERR_INTERNAL, "h3m: object %u (%s) has no creature", o->id, o->key);
        return -1;
    }
    const rmg__creature *cr = &e->c->creatures[creature];
    if (!e->hota && cr->is_hota) {
        refuse(e, "object %u (%s) at %d,%d,%d holds %s, a HotA creature: write the map for HotA", o->id, o->key, o->x,
               o->y, o->z, cr->key);
        return -1;
    }
    return cr->id;
}

static int artifact_id(exporter *e, const rmg__map_object *o)
{
    if (o->artifact < 0 || (size_t)o->artifact >= e->c->n_artifacts) {
        rmg__error_set(e->m->ctx, RMG_ERR_INTERNAL, "h3m: object %u (%s) has no artifact", o->id, o->key);
        return -1;
    }
    const rmg__artifact *a = &e->c->artifacts[o->artifact];
    if (!e->hota && a->is_hota) {
        refuse(e, "object %u (%s) at %d,%d,%d holds %s, a HotA artifact: write the map for HotA", o->id, o->key, o->x,
               o->y, o->z, a->key);
        return -1;
    }
    return a->id;
}

static void write_town(exporter *e, const rmg__map_object *o, rmg__h3m_town *t)
{
    t->identifier = e->next_id++;
    t->owner = player_byte(e, o->owner);
    t->has_fort = o->castle;
    t->research = e->m->setup.spell_research;
    t->alignment = 0xFF;
    if (e->hota) {
        t->special_count = 4 * e->doc->hota.town_types; /* four special buildings per town type */
        t->special_states = rmg__h3m_alloc(e->doc, t->special_count, 1);
    }
}

/* ZON-24's mood 0..10 in the file: HotA takes it exactly (disposition 5 with the value), SoD has
 * the five dispositions only (docs/h3m-export.md): 0 compliant, 1-3 friendly, 4-6 aggressive,
 * 7-9 hostile, 10 savage. */
static void write_mood(exporter *e, int mood, rmg__h3m_monster *w)
{
    w->aggression = -1;
    if (mood <= 0) {
        w->disposition = 0;
    } else if (mood >= 10) {
        w->disposition = 4;
    } else if (e->hota) {
        w->disposition = 5;
        w->aggression = mood;
    } else {
        w->disposition = (uint8_t)(mood <= 3 ? 1 : mood <= 6 ? 2 : 3);
    }
}

static rmg_status write_monster(exporter *e, const rmg__map_object *o, rmg__h3m_monster *w)
{
    w->identifier = e->next_id++;
    /* The game reads the count modulo 4096 (§16.4). */
    w->count = (uint16_t)(o->count < 1 ? 1 : o->count > 4095 ? 4095 : o->count);
    write_mood(e, o->disposition, w);
    w->artifact = 0xFFFF;
    w->money_only = o->join_for_money;
    w->join_percent = o->join_percent;
    w->upgraded = -1;
    w->stack_count = -1;
    return RMG_OK;
}

static rmg_status write_pandora(exporter *e, const rmg__map_object *o, rmg__h3m_pandora *p)
{
    const rmg__object_def *row = row_of(e, o);
    rmg__h3m_box *b = &p->box;
    if (family_is(row, "pandora_experience")) {
        b->experience = (uint32_t)o->amount;
    } else if (family_is(row, "pandora_gold")) {
        b->resources[6] = (int32_t)o->amount;
    } else if (family_is(row, "pandora_spells")) {
        b->spell_count = (uint8_t)(o->n_spells > 255 ? 255 : o->n_spells);
        b->spells = rmg__h3m_alloc(e->doc, b->spell_count, 1);
        for (size_t k = 0; k < b->spell_count && b->spells; k++)
            b->spells[k] = (uint8_t)e->c->spells[o->spells[k]].id;
        if (b->spell_count && !b->spells)
            return RMG_ERR_NOMEM;
    } else if (family_is(row, "pandora_creatures")) {
        int id = creature_id(e, o, o->creature);
        if (id < 0)
            return rmg_context_errcode(e->m->ctx);
        b->creature_count = 1;
        b->creatures = rmg__h3m_alloc(e->doc, 1, sizeof *b->creatures);
        if (!b->creatures)
            return RMG_ERR_NOMEM;
        b->creatures[0] = (rmg__h3m_slot){(uint16_t)id, (uint16_t)(o->count < 1 ? 1 : o->count)};
    }
    p->tail.difficulties = 0x1F; /* on every difficulty */
    return RMG_OK;
}

/* MIS-13/14: "bring this artifact", rewarded with experience, gold or creatures. */
static rmg_status write_seer(exporter *e, const rmg__map_object *o, rmg__h3m_seer *s)
{
    int art = artifact_id(e, o);
    if (art < 0)
        return rmg_context_errcode(e->m->ctx);
    s->task_count = 1;
    s->tasks = rmg__h3m_alloc(e->doc, 1, sizeof *s->tasks);
    if (!s->tasks)
        return RMG_ERR_NOMEM;
    rmg__h3m_quest *q = &s->tasks[0].quest;
    q->type = RMG__H3M_QUEST_ARTIFACTS;
    q->artifact_count = 1;
    q->artifacts = rmg__h3m_alloc(e->doc, 1, sizeof *q->artifacts);
    if (!q->artifacts)
        return RMG_ERR_NOMEM;
    q->artifacts[0] = (rmg__h3m_art){(uint16_t)art, 0};
    q->deadline = 0xFFFFFFFFu;
    rmg__h3m_reward *r = &s->tasks[0].reward;
    const char *reward = rmg__object_reward_name(e->m, o);
    if (reward && !strcmp(reward, "creatures")) {
        int id = creature_id(e, o, o->creature);
        if (id < 0)
            return rmg_context_errcode(e->m->ctx);
        r->type = RMG__H3M_REWARD_CREATURES;
        r->creatures = (rmg__h3m_slot){(uint16_t)id, (uint16_t)(o->count < 1 ? 1 : o->count)};
    } else if (reward && !strcmp(reward, "gold")) {
        r->type = RMG__H3M_REWARD_RESOURCE;
        r->id = 6;
        r->amount = (uint32_t)o->amount;
    } else {
        r->type = RMG__H3M_REWARD_EXPERIENCE;
        r->amount = (uint32_t)o->amount;
    }
    return RMG_OK;
}

static rmg_status write_prison(exporter *e, const rmg__map_object *o, rmg__h3m_hero *h)
{
    if (o->hero < 0 || (size_t)o->hero >= e->c->n_heroes)
        return rmg__error_set(e->m->ctx, RMG_ERR_INTERNAL, "h3m: prison %u has no hero", o->id);
    const rmg__hero *hero = &e->c->heroes[o->hero];
    if (!e->hota && hero->is_hota)
        return refuse(e, "the prison at %d,%d,%d holds %s, a HotA hero: write the map for HotA", o->x, o->y, o->z,
                      hero->key);
    h->identifier = e->next_id++;
    h->owner = 0xFF;
    h->hero = (uint8_t)hero->id;
    h->data.has_experience = 1;
    h->data.experience = (uint32_t)o->amount;
    h->patrol = 0xFF;
    h->data.gender = 0xFF;
    h->tail.always_add_skills = 1;
    h->tail.level = 1;
    return RMG_OK;
}

/* The HotA editor's filler of the 18-byte reward objects whose content is random (§16.18). */
static void write_reward18(int cls, int sub, rmg__h3m_reward18 *r)
{
    r->content = -1;
    r->artifact = 0xFFFFFFFFu;
    r->amount_a = r->amount_b = 1;
    r->resource_a = cls == 12 || cls == 212 ? 6 : cls == 145 && sub == 1 ? 1 : 0;
    r->resource_b = 0;
}

/* Witch Huts teach the skills the map allows, less those the SoD generator never gives them
 * (Navigation, Leadership, Necromancy: its mask 9F EF FF FF). */
static void write_witch_hut(exporter *e, uint8_t skills[RMG__H3M_SKILL_MASK])
{
    static const uint8_t sod_rmg[RMG__H3M_SKILL_MASK] = {0x9F, 0xEF, 0xFF, 0xFF};
    memcpy(skills, sod_rmg, RMG__H3M_SKILL_MASK);
    for (size_t i = 0; i < e->c->n_skills; i++) {
        int id = e->c->skills[i].id;
        if (id >= 0 && id < RMG__H3M_SKILL_MASK * 8 && rmg__map_allowed(e->m, RMG_CONTENT_SKILL, i) == 0)
            set_bit(skills, (uint32_t)id, false);
    }
}

static rmg_status write_body(exporter *e, const rmg__map_object *o, int cls, int sub, rmg__h3m_object *w)
{
    switch (w->kind) {
    case RMG__H3M_BODY_NONE:
        return RMG_OK;
    case RMG__H3M_BODY_TOWN:
        write_town(e, o, &w->body->town);
        return e->hota && !w->body->town.special_states ? RMG_ERR_NOMEM : RMG_OK;
    case RMG__H3M_BODY_MONSTER:
        return write_monster(e, o, &w->body->monster);
    case RMG__H3M_BODY_ARTIFACT:
        w->body->artifact.pickup_conditions = 0x7F; /* anyone may pick it up (H5) */
        return RMG_OK;
    case RMG__H3M_BODY_SCROLL:
        w->body->scroll.spell = o->spell >= 0 && (size_t)o->spell < e->c->n_spells ? (uint32_t)e->c->spells[o->spell].id : 0;
        return RMG_OK;
    case RMG__H3M_BODY_RESOURCE:
        /* A resource pile's amount, gold in hundreds; a random resource's is the game's choice. */
        w->body->resource.amount = cls == 79 ? (uint32_t)(sub == 6 ? o->amount / 100 : o->amount) : 0;
        return RMG_OK;
    case RMG__H3M_BODY_PANDORA:
        return write_pandora(e, o, &w->body->pandora);
    case RMG__H3M_BODY_SEER:
        return write_seer(e, o, &w->body->seer);
    case RMG__H3M_BODY_HERO:
        return write_prison(e, o, &w->body->hero);
    case RMG__H3M_BODY_OWNED:
        w->body->owner = player_byte(e, o->owner);
        return RMG_OK;
    case RMG__H3M_BODY_BANK:
        w->body->bank.preset = -1;
        w->body->bank.upgraded = -1;
        return RMG_OK;
    case RMG__H3M_BODY_BLACK_MARKET:
        for (int k = 0; k < 7; k++)
            w->body->black_market[k] = (rmg__h3m_art){0xFFFF, 0xFFFF};
        return RMG_OK;
    case RMG__H3M_BODY_REWARD8:
        w->body->reward8.content = -1;
        /* University and Seafaring Academy: the editor's skill mask; the others' is junk. */
        w->body->reward8.value = cls == 104 || cls == 146 ? 0x1BFFEFFFu : 0xFFFFFFFFu;
        return RMG_OK;
    case RMG__H3M_BODY_REWARD18:
        write_reward18(cls, sub, &w->body->reward18);
        return RMG_OK;
    case RMG__H3M_BODY_SCHOLAR:
        w->body->scholar.kind = 0xFF; /* random */
        return RMG_OK;
    case RMG__H3M_BODY_WITCH_HUT:
        write_witch_hut(e, w->body->witch_skills);
        return RMG_OK;
    case RMG__H3M_BODY_SHRINE:
        w->body->shrine_spell = 0xFF; /* a random spell of the shrine's level */
        return RMG_OK;
    case RMG__H3M_BODY_MESSAGE:
        return RMG_OK; /* empty: a random standard message */
    case RMG__H3M_BODY_ABANDONED_MINE:
        w->body->mine.resources = 0x7E; /* every resource but wood */
        w->body->mine.creature = 70;    /* the HotA editor's values when the guards are not custom */
        w->body->mine.min_count = 100;
        w->body->mine.max_count = 200;
        return RMG_OK;
    default:
        return rmg__error_set(e->m->ctx, RMG_ERR_INTERNAL, "h3m: object %u (%s): librmg writes no body of class %d",
                              o->id, o->key, cls);
    }
}

/* ---- objects -------------------------------------------------------------------------------------- */

/* A 64-bit finalizer's mixing (multiply, xor the high half down). */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

/* The memo's slot hash (never 0) of a template key and an object key, from the key's address:
 * the map keeps one copy of each key text (a text under two addresses only takes two slots). */
static uint64_t memo_hash(const template_key *k, const char *key)
{
    uint64_t h = mix64(k->block ^ mix64(k->visit ^ (uint64_t)(uintptr_t)key));
    h = mix64(h ^ ((uint64_t)(uint32_t)k->faction << 32 | (uint32_t)k->creature));
    h = mix64(h ^ ((uint64_t)(uint32_t)k->artifact << 32 | (uint32_t)k->color));
    h = mix64(h ^ ((uint64_t)(uint32_t)k->terrain << 32 | (uint32_t)k->castle));
    return h | 1u;
}

static const rmg__h3m_known_template *object_template(exporter *e, const rmg__map_object *o, int *cls, int *sub,
                                                      int *shift)
{
    template_key k;
    memset(&k, 0, sizeof k); /* memcmp reads the padding too */
    k.block = o->block;
    k.visit = o->visit;
    k.faction = o->faction;
    k.creature = o->creature;
    k.artifact = o->artifact;
    k.color = o->color;
    k.castle = o->castle;
    k.terrain = rmg__h3m_object_terrain(e->m, o);
    uint64_t hash = memo_hash(&k, o->key);
    for (size_t probe = 0; probe < MEMO_SLOTS; probe++) {
        template_memo *slot = &e->memo[(hash + probe) & (MEMO_SLOTS - 1)];
        if (slot->hash == hash && !memcmp(&slot->k, &k, sizeof k) && (slot->key == o->key || !strcmp(slot->key, o->key))) {
            *cls = slot->cls, *sub = slot->sub, *shift = slot->shift;
            return slot->row;
        }
        if (slot->hash == 0) {
            slot->row = rmg__h3m_object_template(e->m, o, e->hota, cls, sub, shift);
            slot->hash = hash;
            slot->key = o->key;
            slot->k = k;
            slot->cls = *cls, slot->sub = *sub, slot->shift = *shift;
            return slot->row;
        }
    }
    return rmg__h3m_object_template(e->m, o, e->hota, cls, sub, shift); /* the table is full */
}

static rmg_status write_object(exporter *e, const rmg__map_object *o)
{
    int cls = -1, sub = -1, shift = 0;
    const rmg__h3m_known_template *t =
        o->key ? object_template(e, o, &cls, &sub, &shift) : rmg__h3m_object_template(e->m, o, e->hota, &cls, &sub, &shift);
    if (!t && !e->hota && rmg__h3m_object_template(e->m, o, true, &cls, &sub, &shift))
        return refuse(e, "object %u (%s) at %d,%d,%d is HotA content (class %d subclass %d): write the map for HotA",
                      o->id, o->key, o->x, o->y, o->z, cls, sub);
    if (!t)
        return rmg__error_set(e->m->ctx, RMG_ERR_INTERNAL,
                              "h3m: object %u (%s) at %d,%d,%d: no template of class %d subclass %d has its footprint",
                              o->id, o->key, o->x, o->y, o->z, cls, sub);
    uint32_t index;
    rmg_status st = template_index(e, t, &index);
    if (st != RMG_OK)
        return st;
    rmg__h3m_object *w = rmg__h3m_add_object(e->doc, index);
    if (!w)
        return rmg_context_errcode(e->m->ctx);
    /* An anchor lies at most 7 columns right of the map, its tiles inside (§15). */
    w->pos = (rmg__h3m_xyz){(uint8_t)(o->x + shift), (uint8_t)o->y, (uint8_t)o->z};
    st = write_body(e, o, cls, sub, w);
    if (st == RMG_OK && o->kind == RMG_OBJECT_TOWN && o->main && player_byte(e, o->owner) != 0xFF)
        write_player(e, o, entry_of(w, &e->doc->templates[index]));
    return st;
}

static rmg_status write_objects(exporter *e)
{
    rmg_status st = rmg__h3m_reserve_objects(e->doc, e->m->objects.count);
    if (st == RMG_OK)
        st = write_first_templates(e);
    for (size_t i = 0; i < e->m->objects.count && st == RMG_OK; i++)
        st = write_object(e, &e->m->objects.items[i]);
    return st;
}

/* ---- the document ---------------------------------------------------------------------------- */

rmg_status rmg__h3m_from_map(const struct rmg_map *m, bool hota, rmg__h3m_doc **out)
{
    *out = NULL;
    exporter e = {m, rmg__content_peek(m->ctx), NULL, hota, 1, NULL, NULL};
    if (!e.c)
        return rmg__error_set(m->ctx, RMG_ERR_INVALID_ARG, "h3m: the map's context has no game content");
    rmg_status st = check_size(&e);
    if (st != RMG_OK)
        return st;
    st = rmg__h3m_doc_new(m->ctx, &e.doc);
    if (st != RMG_OK)
        return st;
    e.row_index = rmg__calloc(m->ctx, rmg__h3m_n_known_templates, sizeof *e.row_index);
    e.memo = rmg__calloc(m->ctx, MEMO_SLOTS, sizeof *e.memo);
    if (!e.row_index || !e.memo)
        st = rmg__error_nomem(m->ctx);
    if (st == RMG_OK)
        st = rmg__h3m_doc_defaults(e.doc, hota ? RMG__H3M_HOTA : RMG__H3M_SOD, HOTA_SUB, (uint32_t)m->width, m->levels);
    if (st == RMG_OK)
        st = write_header(&e);
    if (st == RMG_OK)
        st = write_setup(&e);
    if (st == RMG_OK)
        st = write_tiles(&e);
    if (st == RMG_OK)
        st = write_objects(&e);
    if (st == RMG_OK)
        st = check_players(&e);
    rmg__free(m->ctx, e.row_index);
    rmg__free(m->ctx, e.memo);
    if (st != RMG_OK) {
        rmg__h3m_doc_free(e.doc);
        return st;
    }
    *out = e.doc;
    return RMG_OK;
}
