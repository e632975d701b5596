/* The game setup a map carries (rmg_map_setup, rmg_map_allowed): what the template and the solve
 * stage decided about the game beyond the map itself, for the exports that carry it. */
#include <string.h>

#include "map_internal.h"

int rmg__map_allowed(const struct rmg_map *m, rmg_content_kind kind, size_t index)
{
    const rmg__map_setup *s = &m->setup;
    const uint8_t *flags;
    size_t n;
    switch (kind) {
    case RMG_CONTENT_ARTIFACT:
        flags = s->artifact_allowed, n = s->n_artifacts;
        break;
    case RMG_CONTENT_SPELL:
        flags = s->spell_allowed, n = s->n_spells;
        break;
    case RMG_CONTENT_SKILL:
        flags = s->skill_allowed, n = s->n_skills;
        break;
    case RMG_CONTENT_HERO:
        flags = s->hero_allowed, n = s->n_heroes;
        break;
    default:
        return -1;
    }
    return flags && index < n ? flags[index] != 0 : -1;
}

rmg_status rmg_map_setup_get(const rmg_map *map, rmg_map_setup_info *out)
{
    if (!map || !out || out->struct_size < offsetof(rmg_map_setup_info, allowed_towns))
        return RMG_ERR_INVALID_ARG;
    rmg_map_setup_info info;
    memset(&info, 0, sizeof info);
    const rmg__map_setup *s = &map->setup;
    info.struct_size = out->struct_size < sizeof info ? out->struct_size : sizeof info;
    info.max_battle_rounds = s->max_battle_rounds;
    info.forbid_hiring_heroes = s->forbid_hiring_heroes;
    info.special_weeks = s->special_weeks;
    info.spell_research = s->spell_research;
    info.gem_spell = rmg__spell_key(map, s->gem_spell);
    info.interference_to_resistance = s->interference_to_resistance;
    info.allowed_towns = s->allowed_towns;
    memcpy(out, &info, info.struct_size);
    return RMG_OK;
}

int rmg_map_allowed(const rmg_map *map, rmg_content_kind kind, size_t index)
{
    return map ? rmg__map_allowed(map, kind, index) : -1;
}

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_map_setup(const rmg_map *map, rmg_map_setup_info *out)
{
    return rmg_map_setup_get(map, out);
}
