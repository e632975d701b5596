/*
 * Public read accessors and the builder API over the template model. Parts are addressed by
 * index; info structs follow the ABI rule (filled up to the caller's struct_size; a larger
 * struct from a newer caller must have a zero tail).
 */
#include <string.h>

#include "model.h"

/* ---- struct_size handling ----------------------------------------------------------------- */

static rmg_status bad_arg(const rmg_pack *pack, const char *fn)
{
    return pack ? rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "%s: invalid argument", fn) : RMG_ERR_INVALID_ARG;
}

static rmg_status out_of_range(const rmg_pack *pack, const char *what, size_t i)
{
    return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "no %s with index %zu", what, i);
}

/* Hands a filled info struct to the caller / takes the caller's struct over the current values. */
static rmg_status deliver(const rmg_pack *pack, void *out, const void *full, size_t size, const char *fn)
{
    return rmg__struct_out(out, full, size, sizeof(size_t)) == RMG_OK ? RMG_OK : bad_arg(pack, fn);
}

static rmg_status accept(const rmg_pack *pack, void *current, const void *in, size_t size, const char *fn)
{
    rmg_status st = rmg__struct_in(current, size, in, sizeof(size_t));
    return st == RMG_OK ? RMG_OK : rmg__error_set(pack->ctx, st, "%s: bad struct_size", fn);
}

static rmg__template *tpl(const rmg_pack *pack, size_t t)
{
    return pack && t < pack->n_templates ? &pack->templates[t] : NULL;
}

static rmg__zone *zone(const rmg_pack *pack, size_t t, size_t z)
{
    rmg__template *tp = tpl(pack, t);
    return tp && z < tp->n_zones ? &tp->zones[z] : NULL;
}

static rmg__connection *connection(const rmg_pack *pack, size_t t, size_t c)
{
    rmg__template *tp = tpl(pack, t);
    return tp && c < tp->n_connections ? &tp->connections[c] : NULL;
}

/* Replaces *dst with a copy of src in the pack arena; NULL src keeps *dst. */
static rmg_status set_string(rmg_pack *pack, char **dst, const char *src)
{
    if (!src)
        return RMG_OK;
    char *s = rmg__arena_strdup(&pack->arena, src);
    if (!s)
        return rmg__error_nomem(pack->ctx);
    *dst = s;
    return RMG_OK;
}

static void filter_to(const rmg__player_filter *f, int *min_h, int *max_h, int *min_t, int *max_t)
{
    *min_h = f->min_human;
    *max_h = f->max_human;
    *min_t = f->min_total;
    *max_t = f->max_total;
}

static void filter_from(rmg__player_filter *f, int min_h, int max_h, int min_t, int max_t)
{
    f->min_human = min_h;
    f->max_human = max_h;
    f->min_total = min_t;
    f->max_total = max_t;
}

/* ---- pack ---------------------------------------------------------------------------------- */

RMG_API void rmg_pack_info_init(rmg_pack_info *info)
{
    if (info) {
        memset(info, 0, sizeof *info);
        info->struct_size = sizeof *info;
    }
}

static void pack_fill(const rmg_pack *p, rmg_pack_info *i)
{
    rmg_pack_info_init(i);
    i->name = p->name;
    i->description = p->description;
    i->tags = p->tags;
    i->file = p->file;
    i->format = p->format;
    i->mirror = p->mirror;
    i->max_battle_rounds = p->max_battle_rounds;
    i->forbid_hiring_heroes = p->forbid_hiring_heroes;
    i->allowed_towns = p->allowed_towns;
    i->template_count = p->n_templates;
}

RMG_API rmg_status rmg_pack_get(const rmg_pack *pack, rmg_pack_info *out)
{
    if (!pack || !out)
        return bad_arg(pack, "rmg_pack_get");
    rmg_pack_info full;
    pack_fill(pack, &full);
    return deliver(pack, out, &full, sizeof full, "rmg_pack_get");
}

RMG_API rmg_status rmg_pack_set(rmg_pack *pack, const rmg_pack_info *info)
{
    if (!pack || !info)
        return bad_arg(pack, "rmg_pack_set");
    rmg_pack_info v;
    pack_fill(pack, &v);
    v.name = v.description = v.tags = NULL;
    rmg_status st = accept(pack, &v, info, sizeof v, "rmg_pack_set");
    if (st != RMG_OK)
        return st;
    if ((st = set_string(pack, &pack->name, v.name)) != RMG_OK ||
        (st = set_string(pack, &pack->description, v.description)) != RMG_OK ||
        (st = set_string(pack, &pack->tags, v.tags)) != RMG_OK)
        return st;
    pack->mirror = v.mirror != 0;
    pack->max_battle_rounds = v.max_battle_rounds;
    pack->forbid_hiring_heroes = v.forbid_hiring_heroes != 0;
    pack->allowed_towns = v.allowed_towns;
    return RMG_OK;
}

/* ---- overrides ----------------------------------------------------------------------------- */

static rmg__override_list *override_list(const rmg_pack *pack, size_t t, rmg_override_kind kind)
{
    if (!pack)
        return NULL;
    if (kind == RMG_OVERRIDE_HEROES)
        return (rmg__override_list *)(uintptr_t)&pack->heroes;
    rmg__template *tp = tpl(pack, t);
    if (!tp)
        return NULL;
    switch (kind) {
    case RMG_OVERRIDE_ARTIFACTS: return &tp->artifacts;
    case RMG_OVERRIDE_SPELLS: return &tp->spells;
    case RMG_OVERRIDE_SKILLS: return &tp->skills;
    case RMG_OVERRIDE_COMBO_ARTIFACTS: return &tp->combo_artifacts;
    default: return NULL;
    }
}

RMG_API size_t rmg_override_count(const rmg_pack *pack, size_t t, rmg_override_kind kind)
{
    const rmg__override_list *l = override_list(pack, t, kind);
    return l ? l->count : 0;
}

RMG_API rmg_status rmg_override_get(const rmg_pack *pack, size_t t, rmg_override_kind kind, size_t index, int *id,
                                    int *allow)
{
    const rmg__override_list *l = override_list(pack, t, kind);
    if (!l || !id || !allow)
        return bad_arg(pack, "rmg_override_get");
    if (index >= l->count)
        return out_of_range(pack, "override", index);
    *id = l->items[index].id;
    *allow = l->items[index].allow;
    return RMG_OK;
}

RMG_API rmg_status rmg_override_add(rmg_pack *pack, size_t t, rmg_override_kind kind, int id, int allow)
{
    rmg__override_list *l = override_list(pack, t, kind);
    if (!l || id < 0)
        return bad_arg(pack, "rmg_override_add");
    rmg__override *o = rmg__arena_grow(&pack->arena, (void **)&l->items, &l->count, sizeof *o);
    if (!o)
        return rmg__error_nomem(pack->ctx);
    o->id = id;
    o->allow = allow != 0;
    return RMG_OK;
}

/* ---- templates ----------------------------------------------------------------------------- */

RMG_API void rmg_template_info_init(rmg_template_info *info)
{
    if (!info)
        return;
    rmg__template t;
    rmg__template_defaults(&t);
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->min_size = t.min_size;
    info->max_size = t.max_size;
    info->special_weeks = t.special_weeks;
    info->spell_research = t.spell_research;
    info->rock_radius = t.rock_radius;
    info->zone_sparseness = t.zone_sparseness;
}

static void template_fill(const rmg__template *t, rmg_template_info *i)
{
    rmg_template_info_init(i);
    i->name = t->name;
    i->min_size = t->min_size;
    i->max_size = t->max_size;
    filter_to(&t->players, &i->min_humans, &i->max_humans, &i->min_players, &i->max_players);
    i->special_weeks = t->special_weeks;
    i->spell_research = t->spell_research;
    i->anarchy = t->anarchy;
    i->rock_masses = t->rock_masses;
    i->rock_radius = t->rock_radius;
    i->zone_sparseness = t->zone_sparseness;
    i->water_allowed = t->water_allowed;
    i->zone_count = t->n_zones;
    i->connection_count = t->n_connections;
    i->rule_count = t->rules.count;
    i->line = t->loc.line;
    i->column = t->loc.column;
}

RMG_API rmg_status rmg_template_get(const rmg_pack *pack, size_t t, rmg_template_info *out)
{
    const rmg__template *tp = tpl(pack, t);
    if (!tp || !out)
        return pack && out ? out_of_range(pack, "template", t) : bad_arg(pack, "rmg_template_get");
    rmg_template_info full;
    template_fill(tp, &full);
    return deliver(pack, out, &full, sizeof full, "rmg_template_get");
}

RMG_API rmg_status rmg_template_set(rmg_pack *pack, size_t t, const rmg_template_info *info)
{
    rmg__template *tp = tpl(pack, t);
    if (!tp || !info)
        return pack && info ? out_of_range(pack, "template", t) : bad_arg(pack, "rmg_template_set");
    rmg_template_info v;
    template_fill(tp, &v);
    v.name = NULL;
    rmg_status st = accept(pack, &v, info, sizeof v, "rmg_template_set");
    if (st != RMG_OK)
        return st;
    if ((st = set_string(pack, &tp->name, v.name)) != RMG_OK)
        return st;
    tp->min_size = v.min_size;
    tp->max_size = v.max_size;
    filter_from(&tp->players, v.min_humans, v.max_humans, v.min_players, v.max_players);
    tp->special_weeks = v.special_weeks != 0;
    tp->spell_research = v.spell_research != 0;
    tp->anarchy = v.anarchy != 0;
    tp->rock_masses = v.rock_masses != 0;
    tp->rock_radius = v.rock_radius;
    tp->zone_sparseness = v.zone_sparseness;
    tp->water_allowed = v.water_allowed;
    return RMG_OK;
}

RMG_API rmg_status rmg_pack_add_template(rmg_pack *pack, const char *name, size_t *index)
{
    if (!pack || !name)
        return bad_arg(pack, "rmg_pack_add_template");
    char *copy = rmg__arena_strdup(&pack->arena, name);
    rmg__template *t = copy ? rmg__pack_add_template(pack) : NULL;
    if (!t)
        return rmg__error_nomem(pack->ctx);
    t->name = copy;
    if (index)
        *index = pack->n_templates - 1;
    return RMG_OK;
}

/* ---- zones --------------------------------------------------------------------------------- */

static void zone_fill(const rmg__zone *z, rmg_zone_info *i)
{
    memset(i, 0, sizeof *i);
    i->struct_size = sizeof *i;
    i->id = z->id;
    i->kind = z->kind;
    i->owner = z->owner;
    i->size = z->size;
    filter_to(&z->players, &i->min_humans, &i->max_humans, &i->min_players, &i->max_players);
    i->placement = z->placement;
    i->allow_noncoherent_roads = z->allow_noncoherent_roads;
    i->repulsion = z->repulsion;
    i->neutral_only = z->neutral_only;
    i->player_towns = z->player_towns;
    i->player_castles = z->player_castles;
    i->player_town_density = z->player_town_density;
    i->player_castle_density = z->player_castle_density;
    i->neutral_towns = z->neutral_towns;
    i->neutral_castles = z->neutral_castles;
    i->neutral_town_density = z->neutral_town_density;
    i->neutral_castle_density = z->neutral_castle_density;
    i->towns_same_type = z->towns_same_type;
    i->allowed_towns = z->allowed_towns;
    i->allowed_factions_set = z->allowed_factions_set;
    i->allowed_factions = z->allowed_factions;
    memcpy(i->mines_min, z->mines_min, sizeof i->mines_min);
    memcpy(i->mines_density, z->mines_density, sizeof i->mines_density);
    i->terrain_match_town = z->terrain_match_town;
    i->allowed_terrains = z->allowed_terrains;
    i->monster_strength = z->monster_strength;
    i->monsters_match_town = z->monsters_match_town;
    i->monster_factions = z->monster_factions;
    i->mood = z->mood;
    i->mood_value = z->mood_value;
    i->join_percent = z->join_percent;
    i->join_only_for_money = z->join_only_for_money;
    for (int k = 0; k < 3; k++) {
        i->treasure_min[k] = z->treasure[k].min;
        i->treasure_max[k] = z->treasure[k].max;
        i->treasure_density[k] = z->treasure[k].density;
    }
    i->airship_min = z->airship_min;
    i->airship_density = z->airship_density;
    i->max_block_value = z->max_block_value;
    i->rule_count = z->rules.count;
    i->type_rule_count = z->n_type_rules;
    i->mirror_link_count = z->n_mirror_links;
    i->line = z->loc.line;
    i->column = z->loc.column;
    i->raw_min_objects = z->min_objects_raw;
    i->raw_image = z->image_raw;
    i->raw_allowed_factions = z->allowed_factions_raw;
    i->all_towns_banned = z->all_towns_banned;
}

static void zone_store(rmg__zone *z, const rmg_zone_info *i)
{
    z->id = i->id;
    z->kind = i->kind;
    z->owner = i->owner;
    z->size = i->size;
    filter_from(&z->players, i->min_humans, i->max_humans, i->min_players, i->max_players);
    z->placement = i->placement;
    z->allow_noncoherent_roads = i->allow_noncoherent_roads != 0;
    z->repulsion = i->repulsion != 0;
    z->neutral_only = i->neutral_only != 0;
    z->player_towns = i->player_towns;
    z->player_castles = i->player_castles;
    z->player_town_density = i->player_town_density;
    z->player_castle_density = i->player_castle_density;
    z->neutral_towns = i->neutral_towns;
    z->neutral_castles = i->neutral_castles;
    z->neutral_town_density = i->neutral_town_density;
    z->neutral_castle_density = i->neutral_castle_density;
    z->towns_same_type = i->towns_same_type != 0;
    z->allowed_towns = i->allowed_towns;
    z->all_towns_banned = i->all_towns_banned != 0;
    z->allowed_factions_set = i->allowed_factions_set != 0;
    z->allowed_factions = i->allowed_factions;
    memcpy(z->mines_min, i->mines_min, sizeof z->mines_min);
    memcpy(z->mines_density, i->mines_density, sizeof z->mines_density);
    z->terrain_match_town = i->terrain_match_town != 0;
    z->allowed_terrains = i->allowed_terrains;
    z->monster_strength = i->monster_strength;
    z->monsters_match_town = i->monsters_match_town != 0;
    z->monster_factions = i->monster_factions;
    z->mood = i->mood;
    z->mood_value = i->mood_value;
    z->join_percent = i->join_percent;
    z->join_only_for_money = i->join_only_for_money != 0;
    for (int k = 0; k < 3; k++) {
        z->treasure[k].min = i->treasure_min[k];
        z->treasure[k].max = i->treasure_max[k];
        z->treasure[k].density = i->treasure_density[k];
    }
    z->airship_min = i->airship_min;
    z->airship_density = i->airship_density;
    z->max_block_value = i->max_block_value;
}

RMG_API void rmg_zone_info_init(rmg_zone_info *info)
{
    if (!info)
        return;
    rmg__zone z;
    rmg__zone_defaults(&z);
    zone_fill(&z, info);
}

RMG_API size_t rmg_template_zone_count(const rmg_pack *pack, size_t t)
{
    const rmg__template *tp = tpl(pack, t);
    return tp ? tp->n_zones : 0;
}

RMG_API rmg_status rmg_template_find_zone(const rmg_pack *pack, size_t t, int zone_id, size_t *index)
{
    const rmg__template *tp = tpl(pack, t);
    if (!tp || !index)
        return pack && index ? out_of_range(pack, "template", t) : bad_arg(pack, "rmg_template_find_zone");
    long i = rmg__template_find_zone(tp, zone_id);
    if (i < 0)
        return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "template '%s' has no zone %d", tp->name ? tp->name : "",
                              zone_id);
    *index = (size_t)i;
    return RMG_OK;
}

RMG_API rmg_status rmg_template_add_zone(rmg_pack *pack, size_t t, int zone_id, rmg_zone_kind kind, size_t *index)
{
    rmg__template *tp = tpl(pack, t);
    if (!tp)
        return pack ? out_of_range(pack, "template", t) : RMG_ERR_INVALID_ARG;
    rmg__zone *z = rmg__template_add_zone(pack, tp);
    if (!z)
        return rmg__error_nomem(pack->ctx);
    z->id = zone_id;
    z->kind = kind;
    if (index)
        *index = tp->n_zones - 1;
    return RMG_OK;
}

RMG_API rmg_status rmg_zone_get(const rmg_pack *pack, size_t t, size_t z, rmg_zone_info *out)
{
    const rmg__zone *zp = zone(pack, t, z);
    if (!zp || !out)
        return pack && out ? out_of_range(pack, "zone", z) : bad_arg(pack, "rmg_zone_get");
    rmg_zone_info full;
    zone_fill(zp, &full);
    return deliver(pack, out, &full, sizeof full, "rmg_zone_get");
}

RMG_API rmg_status rmg_zone_set(rmg_pack *pack, size_t t, size_t z, const rmg_zone_info *info)
{
    rmg__zone *zp = zone(pack, t, z);
    if (!zp || !info)
        return pack && info ? out_of_range(pack, "zone", z) : bad_arg(pack, "rmg_zone_set");
    rmg_zone_info v;
    zone_fill(zp, &v);
    rmg_status st = accept(pack, &v, info, sizeof v, "rmg_zone_set");
    if (st != RMG_OK)
        return st;
    zone_store(zp, &v);
    return RMG_OK;
}

static rmg__zone *zone_for_set(rmg_pack *pack, size_t t, size_t z, rmg_status *st)
{
    rmg__zone *zp = zone(pack, t, z);
    *st = zp ? RMG_OK : pack ? out_of_range(pack, "zone", z) : RMG_ERR_INVALID_ARG;
    return zp;
}

RMG_API rmg_status rmg_zone_set_size(rmg_pack *pack, size_t t, size_t z, double size)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp)
        zp->size = size;
    return st;
}

RMG_API rmg_status rmg_zone_set_owner(rmg_pack *pack, size_t t, size_t z, int player)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp)
        zp->owner = player;
    return st;
}

RMG_API rmg_status rmg_zone_set_towns(rmg_pack *pack, size_t t, size_t z, int player_towns, int player_castles,
                                      int neutral_towns, int neutral_castles)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp) {
        zp->player_towns = player_towns;
        zp->player_castles = player_castles;
        zp->neutral_towns = neutral_towns;
        zp->neutral_castles = neutral_castles;
    }
    return st;
}

RMG_API rmg_status rmg_zone_set_mine(rmg_pack *pack, size_t t, size_t z, rmg_resource resource, int min, int density)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp && ((int)resource < 0 || resource >= RMG_RESOURCE_COUNT))
        return bad_arg(pack, "rmg_zone_set_mine");
    if (zp) {
        zp->mines_min[resource] = min;
        zp->mines_density[resource] = density;
    }
    return st;
}

RMG_API rmg_status rmg_zone_set_treasure(rmg_pack *pack, size_t t, size_t z, int tier, int64_t min, int64_t max,
                                         int64_t density)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp && (tier < 0 || tier > 2))
        return bad_arg(pack, "rmg_zone_set_treasure");
    if (zp) {
        zp->treasure[tier].min = min;
        zp->treasure[tier].max = max;
        zp->treasure[tier].density = density;
    }
    return st;
}

RMG_API rmg_status rmg_zone_set_monsters(rmg_pack *pack, size_t t, size_t z, rmg_monster_strength strength)
{
    rmg_status st;
    rmg__zone *zp = zone_for_set(pack, t, z, &st);
    if (zp)
        zp->monster_strength = strength;
    return st;
}

/* ---- connections --------------------------------------------------------------------------- */

static void connection_fill(const rmg__connection *c, rmg_connection_info *i)
{
    memset(i, 0, sizeof *i);
    i->struct_size = sizeof *i;
    i->zone_a = c->zone_a;
    i->zone_b = c->zone_b;
    i->type = c->type;
    i->value = c->value;
    i->placement = c->placement;
    i->roads = c->roads;
    i->monolith_repulsion = c->monolith_repulsion;
    filter_to(&c->players, &i->min_humans, &i->max_humans, &i->min_players, &i->max_players);
    i->line = c->loc.line;
    i->column = c->loc.column;
}

RMG_API void rmg_connection_info_init(rmg_connection_info *info)
{
    if (!info)
        return;
    rmg__connection c;
    rmg__connection_defaults(&c);
    connection_fill(&c, info);
}

RMG_API size_t rmg_template_connection_count(const rmg_pack *pack, size_t t)
{
    const rmg__template *tp = tpl(pack, t);
    return tp ? tp->n_connections : 0;
}

RMG_API rmg_status rmg_template_add_connection(rmg_pack *pack, size_t t, int zone_a, int zone_b, int64_t value,
                                               size_t *index)
{
    rmg__template *tp = tpl(pack, t);
    if (!tp)
        return pack ? out_of_range(pack, "template", t) : RMG_ERR_INVALID_ARG;
    rmg__connection *c = rmg__template_add_connection(pack, tp);
    if (!c)
        return rmg__error_nomem(pack->ctx);
    c->zone_a = zone_a;
    c->zone_b = zone_b;
    c->value = value;
    if (index)
        *index = tp->n_connections - 1;
    return RMG_OK;
}

RMG_API rmg_status rmg_connection_get(const rmg_pack *pack, size_t t, size_t c, rmg_connection_info *out)
{
    const rmg__connection *cp = connection(pack, t, c);
    if (!cp || !out)
        return pack && out ? out_of_range(pack, "connection", c) : bad_arg(pack, "rmg_connection_get");
    rmg_connection_info full;
    connection_fill(cp, &full);
    return deliver(pack, out, &full, sizeof full, "rmg_connection_get");
}

RMG_API rmg_status rmg_connection_set(rmg_pack *pack, size_t t, size_t c, const rmg_connection_info *info)
{
    rmg__connection *cp = connection(pack, t, c);
    if (!cp || !info)
        return pack && info ? out_of_range(pack, "connection", c) : bad_arg(pack, "rmg_connection_set");
    rmg_connection_info v;
    connection_fill(cp, &v);
    rmg_status st = accept(pack, &v, info, sizeof v, "rmg_connection_set");
    if (st != RMG_OK)
        return st;
    cp->zone_a = v.zone_a;
    cp->zone_b = v.zone_b;
    cp->type = v.type;
    cp->value = v.value;
    cp->placement = v.placement;
    cp->roads = v.roads;
    cp->monolith_repulsion = v.monolith_repulsion != 0;
    filter_from(&cp->players, v.min_humans, v.max_humans, v.min_players, v.max_players);
    return RMG_OK;
}

static rmg__connection *connection_for_set(rmg_pack *pack, size_t t, size_t c, rmg_status *st)
{
    rmg__connection *cp = connection(pack, t, c);
    *st = cp ? RMG_OK : pack ? out_of_range(pack, "connection", c) : RMG_ERR_INVALID_ARG;
    return cp;
}

RMG_API rmg_status rmg_connection_set_type(rmg_pack *pack, size_t t, size_t c, rmg_connection_type type)
{
    rmg_status st;
    rmg__connection *cp = connection_for_set(pack, t, c, &st);
    if (cp)
        cp->type = type;
    return st;
}

RMG_API rmg_status rmg_connection_set_placement(rmg_pack *pack, size_t t, size_t c, rmg_connection_placement placement)
{
    rmg_status st;
    rmg__connection *cp = connection_for_set(pack, t, c, &st);
    if (cp)
        cp->placement = placement;
    return st;
}

RMG_API rmg_status rmg_connection_set_roads(rmg_pack *pack, size_t t, size_t c, rmg_road_setting roads)
{
    rmg_status st;
    rmg__connection *cp = connection_for_set(pack, t, c, &st);
    if (cp)
        cp->roads = roads;
    return st;
}

/* ---- object rules -------------------------------------------------------------------------- */

static rmg__rule_list *rule_list(const rmg_pack *pack, size_t t, size_t z)
{
    rmg__template *tp = tpl(pack, t);
    if (!tp)
        return NULL;
    if (z == RMG_TEMPLATE_LEVEL)
        return &tp->rules;
    return z < tp->n_zones ? &tp->zones[z].rules : NULL;
}

static void rule_fill(const rmg__rule *r, rmg_rule_info *i)
{
    memset(i, 0, sizeof *i);
    i->struct_size = sizeof *i;
    i->op = r->op;
    i->target = r->target;
    i->object = r->object;
    i->family = r->family;
    i->creature = r->creature;
    i->level = r->level;
    i->amount = r->amount;
    i->spell_min = r->spell_min;
    i->spell_max = r->spell_max;
    i->schools = r->schools;
    i->value = r->value;
    i->frequency = r->frequency;
    i->max_map = r->max_map;
    i->max_zone = r->max_zone;
    i->extra = r->extra;
    i->raw = r->raw;
    i->line = r->loc.line;
    i->column = r->loc.column;
}

RMG_API void rmg_rule_info_init(rmg_rule_info *info)
{
    if (!info)
        return;
    rmg__rule r;
    rmg__rule_defaults(&r);
    rule_fill(&r, info);
}

RMG_API size_t rmg_rule_count(const rmg_pack *pack, size_t t, size_t z)
{
    const rmg__rule_list *l = rule_list(pack, t, z);
    return l ? l->count : 0;
}

RMG_API rmg_status rmg_rule_get(const rmg_pack *pack, size_t t, size_t z, size_t index, rmg_rule_info *out)
{
    const rmg__rule_list *l = rule_list(pack, t, z);
    if (!l || !out)
        return bad_arg(pack, "rmg_rule_get");
    if (index >= l->count)
        return out_of_range(pack, "rule", index);
    rmg_rule_info full;
    rule_fill(&l->items[index], &full);
    return deliver(pack, out, &full, sizeof full, "rmg_rule_get");
}

RMG_API rmg_status rmg_rule_add(rmg_pack *pack, size_t t, size_t z, const rmg_rule_info *rule)
{
    rmg__rule_list *l = rule_list(pack, t, z);
    if (!l || !rule)
        return bad_arg(pack, "rmg_rule_add");
    rmg_rule_info v;
    rmg_rule_info_init(&v);
    rmg_status st = accept(pack, &v, rule, sizeof v, "rmg_rule_add");
    if (st != RMG_OK)
        return st;
    rmg__rule tmp;
    rmg__rule_defaults(&tmp);
    if ((st = set_string(pack, &tmp.object, v.object)) != RMG_OK ||
        (st = set_string(pack, &tmp.family, v.family)) != RMG_OK ||
        (st = set_string(pack, &tmp.creature, v.creature)) != RMG_OK ||
        (st = set_string(pack, &tmp.raw, v.raw)) != RMG_OK)
        return st;
    rmg__rule *r = rmg__rules_add(pack, l);
    if (!r)
        return rmg__error_nomem(pack->ctx);
    tmp.op = v.op;
    tmp.target = v.target;
    tmp.level = v.level;
    tmp.amount = v.amount;
    tmp.spell_min = v.spell_min;
    tmp.spell_max = v.spell_max;
    tmp.schools = v.schools;
    tmp.value = v.value;
    tmp.frequency = v.frequency;
    tmp.max_map = v.max_map;
    tmp.max_zone = v.max_zone;
    tmp.extra = v.extra;
    *r = tmp;
    return RMG_OK;
}

/* ---- type rules and mirror links ----------------------------------------------------------- */

RMG_API void rmg_type_rule_info_init(rmg_type_rule_info *info)
{
    if (info) {
        memset(info, 0, sizeof *info);
        info->struct_size = sizeof *info;
        info->town_a = info->town_b = -1;
    }
}

RMG_API size_t rmg_zone_type_rule_count(const rmg_pack *pack, size_t t, size_t z)
{
    const rmg__zone *zp = zone(pack, t, z);
    return zp ? zp->n_type_rules : 0;
}

RMG_API rmg_status rmg_zone_type_rule_get(const rmg_pack *pack, size_t t, size_t z, size_t index,
                                          rmg_type_rule_info *out)
{
    const rmg__zone *zp = zone(pack, t, z);
    if (!zp || !out)
        return bad_arg(pack, "rmg_zone_type_rule_get");
    if (index >= zp->n_type_rules)
        return out_of_range(pack, "type rule", index);
    const rmg__type_rule *r = &zp->type_rules[index];
    rmg_type_rule_info full = {sizeof full, r->kind, r->negate, r->zone_a, r->town_a, r->zone_b, r->town_b,
                               r->raw, r->loc.line, r->loc.column};
    return deliver(pack, out, &full, sizeof full, "rmg_zone_type_rule_get");
}

RMG_API rmg_status rmg_zone_type_rule_add(rmg_pack *pack, size_t t, size_t z, const rmg_type_rule_info *rule)
{
    rmg__zone *zp = zone(pack, t, z);
    if (!zp || !rule)
        return bad_arg(pack, "rmg_zone_type_rule_add");
    rmg_type_rule_info v;
    rmg_type_rule_info_init(&v);
    rmg_status st = accept(pack, &v, rule, sizeof v, "rmg_zone_type_rule_add");
    if (st != RMG_OK)
        return st;
    char *raw = NULL;
    if ((st = set_string(pack, &raw, v.raw)) != RMG_OK)
        return st;
    rmg__type_rule *r = rmg__arena_grow(&pack->arena, (void **)&zp->type_rules, &zp->n_type_rules, sizeof *r);
    if (!r)
        return rmg__error_nomem(pack->ctx);
    r->kind = v.kind;
    r->negate = v.negate != 0;
    r->zone_a = v.zone_a;
    r->town_a = v.town_a;
    r->zone_b = v.zone_b;
    r->town_b = v.town_b;
    r->raw = raw;
    return RMG_OK;
}

RMG_API void rmg_mirror_link_info_init(rmg_mirror_link_info *info)
{
    if (info) {
        memset(info, 0, sizeof *info);
        info->struct_size = sizeof *info;
    }
}

RMG_API size_t rmg_zone_mirror_link_count(const rmg_pack *pack, size_t t, size_t z)
{
    const rmg__zone *zp = zone(pack, t, z);
    return zp ? zp->n_mirror_links : 0;
}

RMG_API rmg_status rmg_zone_mirror_link_get(const rmg_pack *pack, size_t t, size_t z, size_t index,
                                            rmg_mirror_link_info *out)
{
    const rmg__zone *zp = zone(pack, t, z);
    if (!zp || !out)
        return bad_arg(pack, "rmg_zone_mirror_link_get");
    if (index >= zp->n_mirror_links)
        return out_of_range(pack, "mirror link", index);
    const rmg__mirror_link *m = &zp->mirror_links[index];
    rmg_mirror_link_info full = {sizeof full, m->surface_kind, m->underground_kind, m->surface_color,
                                 m->underground_color, m->value, m->roads, m->monolith_repulsion, m->raw,
                                 m->loc.line, m->loc.column};
    return deliver(pack, out, &full, sizeof full, "rmg_zone_mirror_link_get");
}

RMG_API rmg_status rmg_zone_mirror_link_add(rmg_pack *pack, size_t t, size_t z, const rmg_mirror_link_info *link)
{
    rmg__zone *zp = zone(pack, t, z);
    if (!zp || !link)
        return bad_arg(pack, "rmg_zone_mirror_link_add");
    rmg_mirror_link_info v;
    rmg_mirror_link_info_init(&v);
    rmg_status st = accept(pack, &v, link, sizeof v, "rmg_zone_mirror_link_add");
    if (st != RMG_OK)
        return st;
    char *raw = NULL;
    if ((st = set_string(pack, &raw, v.raw)) != RMG_OK)
        return st;
    rmg__mirror_link *m = rmg__arena_grow(&pack->arena, (void **)&zp->mirror_links, &zp->n_mirror_links, sizeof *m);
    if (!m)
        return rmg__error_nomem(pack->ctx);
    m->surface_kind = v.surface_kind;
    m->underground_kind = v.underground_kind;
    m->surface_color = v.surface_color;
    m->underground_color = v.underground_color;
    m->value = v.value;
    m->roads = v.roads != 0;
    m->monolith_repulsion = v.monolith_repulsion != 0;
    m->raw = raw;
    return RMG_OK;
}
