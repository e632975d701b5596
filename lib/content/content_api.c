/*
 * Public read access to a ruleset: counts, lookups and versioned info structs (the caller's
 * struct_size decides how much is written, so older callers keep working as structs grow).
 */
#include <string.h>

#include "content/content_private.h"

static bool kind_ok(rmg_content_kind kind)
{
    return (int)kind >= 0 && kind < RMG_CONTENT_KIND_COUNT;
}

rmg_content_variant rmg_content_get_variant(const rmg_content *content)
{
    return content ? (rmg_content_variant)content->variant : RMG_CONTENT_EMPTY;
}

const char *rmg_content_name(const rmg_content *content)
{
    return content && content->name ? content->name : "";
}

const char *rmg_content_version(const rmg_content *content)
{
    return content && content->version ? content->version : "";
}

size_t rmg_content_count(const rmg_content *content, rmg_content_kind kind)
{
    return content && kind_ok(kind) ? rmg__content_count_of(content, kind) : 0;
}

long rmg_content_find(const rmg_content *content, rmg_content_kind kind, const char *key)
{
    return rmg__content_lookup(content, kind, key);
}

long rmg_content_find_id(const rmg_content *content, rmg_content_kind kind, int id)
{
    return rmg__content_lookup_id(content, kind, id);
}

const char *rmg_content_key(const rmg_content *content, rmg_content_kind kind, size_t index)
{
    if (index >= rmg_content_count(content, kind))
        return NULL;
    return rmg__content_key_at(content, kind, index);
}

const char *rmg_content_entity_name(const rmg_content *content, rmg_content_kind kind, size_t index)
{
    if (index >= rmg_content_count(content, kind))
        return NULL;
    /* Every entity struct is `char *key, *name, ...`. */
    const unsigned char *e = (const unsigned char *)rmg__content_array(content, kind) + index * rmg__kinds[kind].elem_size;
    const char *name;
    memcpy(&name, e + sizeof(char *), sizeof name);
    return name ? name : rmg__content_key_at(content, kind, index);
}

/* Copies the filled `full` struct into the caller's, up to the caller's struct_size. */
static rmg_status deliver(void *out, const void *full, size_t full_size)
{
    return rmg__struct_out(out, full, full_size, sizeof(size_t));
}

static rmg_status check(const rmg_content *content, rmg_content_kind kind, size_t index, const void *out)
{
    if (!content || !out)
        return RMG_ERR_INVALID_ARG;
    return index < rmg__content_count_of(content, kind) ? RMG_OK : RMG_ERR_NOT_FOUND;
}

rmg_status rmg_content_terrain_get(const rmg_content *content, size_t index, rmg_terrain_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_TERRAIN, index, out);
    if (st)
        return st;
    const rmg__terrain *t = &content->terrains[index];
    rmg_terrain_info i = {sizeof i, t->key, t->name, t->code, t->id, t->land, t->allowed_surface,
                          t->allowed_underground, t->move_cost, t->color_rgb, t->is_hota};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_faction_get(const rmg_content *content, size_t index, rmg_faction_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_FACTION, index, out);
    if (st)
        return st;
    const rmg__faction *f = &content->factions[index];
    rmg_faction_info i = {sizeof i, f->key, f->name, f->id, f->native_terrain, f->alignment,
                          f->prefer_underground, f->is_town, f->is_hota};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_creature_get(const rmg_content *content, size_t index, rmg_creature_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_CREATURE, index, out);
    if (st)
        return st;
    const rmg__creature *c = &content->creatures[index];
    rmg_creature_info i = {sizeof i, c->key, c->name, c->plural, c->id, c->faction, c->level, c->upgrade_of,
                           c->ai_value, c->fight_value, c->growth, c->horde_growth, c->map_min, c->map_max,
                           c->special, c->is_hota};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_object_get(const rmg_content *content, rmg_content_kind kind, size_t index, rmg_object_def_info *out)
{
    if (kind != RMG_CONTENT_OBJECT && kind != RMG_CONTENT_MAP_OBJECT)
        return RMG_ERR_INVALID_ARG;
    rmg_status st = check(content, kind, index, out);
    if (st)
        return st;
    const rmg__object_def *o = (const rmg__object_def *)rmg__content_array(content, kind) + index;
    rmg_object_def_info i = {sizeof i, o->key, o->name, o->name_ru, o->family, o->notes, o->def,
                         o->value, o->frequency, o->max_map, o->max_zone, o->max_map_fixed, o->max_zone_fixed,
                         o->terrains, o->terrains_na, o->banned_by_default, o->never_grouped, o->is_hota,
                         o->map_class, o->map_subclass, o->footprint.block, o->footprint.visit,
                         o->footprint.terrains, o->amount, o->spell_level, o->spell_level_max, o->school_mask,
                         o->resource, {o->creatures[0], o->creatures[1], o->creatures[2], o->creatures[3]},
                         o->n_creatures};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_artifact_get(const rmg_content *content, size_t index, rmg_artifact_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_ARTIFACT, index, out);
    if (st)
        return st;
    const rmg__artifact *a = &content->artifacts[index];
    rmg_artifact_info i = {sizeof i, a->key, a->name, a->id, a->cls, a->combination, a->part_of, a->is_hota};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_spell_get(const rmg_content *content, size_t index, rmg_spell_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_SPELL, index, out);
    if (st)
        return st;
    const rmg__spell *s = &content->spells[index];
    rmg_spell_info i = {sizeof i, s->key, s->name, s->id, s->level, s->schools, s->adventure, s->learnable};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_skill_get(const rmg_content *content, size_t index, rmg_skill_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_SKILL, index, out);
    if (st)
        return st;
    const rmg__skill *s = &content->skills[index];
    rmg_skill_info i = {sizeof i, s->key, s->name, s->id, s->is_hota};
    return deliver(out, &i, sizeof i);
}

rmg_status rmg_content_hero_get(const rmg_content *content, size_t index, rmg_hero_info *out)
{
    rmg_status st = check(content, RMG_CONTENT_HERO, index, out);
    if (st)
        return st;
    const rmg__hero *h = &content->heroes[index];
    rmg_hero_info i = {sizeof i, h->key, h->name, h->hero_class, h->id, h->faction, h->campaign_only, h->is_hota,
                       h->water_rule};
    return deliver(out, &i, sizeof i);
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
RMG__ZERO_INIT(rmg_terrain_info)

void rmg_faction_info_init(rmg_faction_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->native_terrain = -1;
}

void rmg_creature_info_init(rmg_creature_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->upgrade_of = -1;
}

RMG__ZERO_INIT(rmg_object_def_info)
RMG__ZERO_INIT(rmg_artifact_info)
RMG__ZERO_INIT(rmg_spell_info)
RMG__ZERO_INIT(rmg_skill_info)
RMG__ZERO_INIT(rmg_hero_info)

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_content_terrain(const rmg_content *content, size_t index, rmg_terrain_info *out)
{
    return rmg_content_terrain_get(content, index, out);
}

rmg_status rmg_content_faction(const rmg_content *content, size_t index, rmg_faction_info *out)
{
    return rmg_content_faction_get(content, index, out);
}

rmg_status rmg_content_creature(const rmg_content *content, size_t index, rmg_creature_info *out)
{
    return rmg_content_creature_get(content, index, out);
}

rmg_status rmg_content_object(const rmg_content *content, rmg_content_kind kind, size_t index, rmg_object_def_info *out)
{
    return rmg_content_object_get(content, kind, index, out);
}

rmg_status rmg_content_artifact(const rmg_content *content, size_t index, rmg_artifact_info *out)
{
    return rmg_content_artifact_get(content, index, out);
}

rmg_status rmg_content_spell(const rmg_content *content, size_t index, rmg_spell_info *out)
{
    return rmg_content_spell_get(content, index, out);
}

rmg_status rmg_content_skill(const rmg_content *content, size_t index, rmg_skill_info *out)
{
    return rmg_content_skill_get(content, index, out);
}

rmg_status rmg_content_hero(const rmg_content *content, size_t index, rmg_hero_info *out)
{
    return rmg_content_hero_get(content, index, out);
}
