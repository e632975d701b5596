/*
 * The column layout of h3t files (spec §2 and Appendix A): where each block starts for the seven
 * field counts of row 4, and the names of the three header rows, shared by the reader and the
 * writer.
 */
#include <string.h>

#include "h3t.h"

const int rmg__h3t_terrain_ids[RMG__H3T_KNOWN_TERRAINS] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11};

/* HotA 1.7.2+ (Factory, Max block value) and 1.8 (Bulwark), spec §2. */
const rmg__h3t_counts rmg__h3t_counts_1_7 = {11, 10, 4, 8, 10, 18, 4};
const rmg__h3t_counts rmg__h3t_counts_1_8 = {12, 10, 4, 8, 10, 18, 4};

void rmg__h3t_layout_compute(rmg__h3t_layout *l)
{
    int c = l->sod ? 0 : 7;
    l->pack0 = c;
    c += l->pack_n;
    l->map0 = c;
    l->map_new0 = c + 3;
    c += 3 + l->map_new;
    l->zone0 = c++;
    l->z_types = c;
    c += l->zone_types;
    l->z_size = c++;
    l->z_restr = c;
    c += 4;
    l->z_owner = c++;
    l->z_ptowns = c;
    c += 4;
    l->z_ntowns = c;
    c += 4;
    l->z_same = c++;
    l->z_towns = c;
    c += l->towns;
    l->z_mines = c;
    c += 7;
    l->z_mine_dens = c;
    c += 7;
    l->z_match_terrain = c++;
    l->z_terrains = c;
    c += l->terrains;
    l->z_strength = c++;
    l->z_match_monsters = c++;
    l->z_neutral = c++;
    l->z_factions = c;
    c += l->towns;
    l->z_treasure = c;
    c += 9;
    l->z_opt = c;
    c += l->zone_new;
    l->conn0 = c;
    l->c_value = c + 2;
    l->c_wide = c + 3;
    l->c_guard = c + 4;
    l->c_new = c + 5;
    l->c_restr = l->c_new + l->conn_new;
    l->width = l->c_restr + 4;
}

void rmg__h3t_layout_sod(rmg__h3t_layout *l)
{
    memset(l, 0, sizeof *l);
    l->sod = true;
    l->towns = 9;
    l->terrains = 8;
    l->zone_types = 4;
    rmg__h3t_layout_compute(l);
}

void rmg__h3t_layout_of(rmg__h3t_layout *l, const rmg__h3t_counts *counts)
{
    memset(l, 0, sizeof *l);
    l->towns = counts->towns;
    l->terrains = counts->terrains;
    l->zone_types = counts->zone_types;
    l->pack_n = counts->pack;
    l->map_new = counts->map;
    l->zone_new = counts->zone;
    l->conn_new = counts->connection;
    rmg__h3t_layout_compute(l);
}

/* ---- header names ------------------------------------------------------------------------------ */

static const char *const count_names[7] = {"Town", "Terrain", "Zone type", "Pack new", "Map new", "Zone new",
                                           "Connection new"};
static const char *const pack_names[RMG__H3T_KNOWN_PACK] = {
    "Name", "Description", "Town selection", "Heroes", "Mirror", "Tags", "Max Battle Rounds",
    "Forbid Hiring Heroes"};
static const char *const map_names[3 + RMG__H3T_KNOWN_MAP_NEW] = {
    "Name", "Minimum Size", "Maximum Size", "Artifacts", "Combo Arts", "Spells", "Secondary skills", "Objects",
    "Rock blocks", "Zone sparseness", "Special weeks disabled", "Spell Research", "Anarchy"};
static const char *const zone_type_names[RMG__H3T_KNOWN_ZONE_TYPES] = {"human start", "computer start", "Treasure",
                                                                        "Junction"};
static const char *const restriction_names[4] = {"Minimum human positions", "Maximum human positions",
                                                 "Minimum total positions", "Maximum total positions"};
static const char *const town_count_names[4] = {"Minimum towns", "Minimum castles", "Town Density", "Castle Density"};
static const char *const town_names[RMG__H3T_KNOWN_TOWNS] = {
    "Castle", "Rampart", "Tower", "Inferno", "Necropolis", "Dungeon", "Stronghold", "Fortress", "Conflux", "Cove",
    "Factory", "Bulwark"};
static const char *const resource_names[7] = {"Wood", "Mercury", "Ore", "Sulfur", "Crystal", "Gems", "Gold"};
static const char *const terrain_names[RMG__H3T_KNOWN_TERRAINS] = {
    "Dirt", "Sand", "Grass", "Snow", "Swamp", "Rough", "Cave", "Lava", "Highlands", "Wasteland"};
static const char *const treasure_names[3] = {"Low", "High", "Density"};
static const char *const zone_option_names[RMG__H3T_KNOWN_ZONE_NEW] = {
    "Placement", "Objects", "Minimum objects", "Image settings", "Force neutral creatures",
    "Allow non-coherent road", "Zone repulsion", "Town Hint", "Monsters disposition (standard)",
    "Monsters disposition (custom)", "Monsters joining percentage", "Monsters join only for money",
    "Minimum airship shipyards", "Airship shipyard Density", "Terrain Hint", "Allowed Factions", "Faction Hint",
    "Max block value"};
static const char *const connection_names[5] = {"Zone 1", "Zone 2", "Value", "Wide", "Border Guard"};
static const char *const connection_new_names[RMG__H3T_KNOWN_CONN_NEW] = {"Road", "Type", "Fictive",
                                                                          "Portal repulsion"};

/* names[col - first] when col lies in the block [first, first + count) and the name is known. */
static const char *in_block(int col, int first, int count, const char *const *names, int known, bool *hit)
{
    if (col < first || col >= first + count)
        return NULL;
    *hit = true;
    return col - first < known ? names[col - first] : "";
}

#define BLOCK(first, count, names)                                                                          \
    do {                                                                                                     \
        const char *name_ = in_block(col, (first), (count), (names), (int)RMG__ARRAY_LEN(names), &hit);     \
        if (hit)                                                                                             \
            return name_;                                                                                    \
    } while (0)

const char *rmg__h3t_column_name(const rmg__h3t_layout *l, int col)
{
    static const char *const id[1] = {"Id"}, *const size[1] = {"Base Size"}, *const owner[1] = {"Ownership"},
                             *const same[1] = {"Towns are of same type"}, *const match[1] = {"Match to town"},
                             *const strength[1] = {"Strength"}, *const neutral[1] = {"Neutral"};
    bool hit = false;
    if (!l->sod)
        BLOCK(0, 7, count_names);
    BLOCK(l->pack0, l->pack_n, pack_names);
    BLOCK(l->map0, 3 + l->map_new, map_names);
    BLOCK(l->zone0, 1, id);
    BLOCK(l->z_types, l->zone_types, zone_type_names);
    BLOCK(l->z_size, 1, size);
    BLOCK(l->z_restr, 4, restriction_names);
    BLOCK(l->z_owner, 1, owner);
    BLOCK(l->z_ptowns, 4, town_count_names);
    BLOCK(l->z_ntowns, 4, town_count_names);
    BLOCK(l->z_same, 1, same);
    BLOCK(l->z_towns, l->towns, town_names);
    BLOCK(l->z_mines, 7, resource_names);
    BLOCK(l->z_mine_dens, 7, resource_names);
    BLOCK(l->z_match_terrain, 1, match);
    BLOCK(l->z_terrains, l->terrains, terrain_names);
    BLOCK(l->z_strength, 1, strength);
    BLOCK(l->z_match_monsters, 1, match);
    BLOCK(l->z_neutral, 1, neutral);
    BLOCK(l->z_factions, l->towns, town_names);
    for (int tier = 0; tier < 3; tier++)
        BLOCK(l->z_treasure + 3 * tier, 3, treasure_names);
    BLOCK(l->z_opt, l->zone_new, zone_option_names);
    BLOCK(l->conn0, 5, connection_names);
    BLOCK(l->c_new, l->conn_new, connection_new_names);
    BLOCK(l->c_restr, 4, restriction_names);
    return "";
}

const char *rmg__h3t_section_name(const rmg__h3t_layout *l, int col)
{
    if (col == 0)
        return l->sod ? "Map" : "Pack";
    if (!l->sod && col == l->map0)
        return "Map";
    return col == l->zone0 ? "Zone" : col == l->conn0 ? "Connections" : "";
}

const char *rmg__h3t_group_name(const rmg__h3t_layout *l, int col)
{
    const struct { int col; const char *name; } groups[] = {
        {l->sod ? -1 : 0, "Field count"}, {l->sod ? -1 : l->pack0, "Options"}, {l->z_types, "Type"},
        {l->z_restr, "Restrictions"}, {l->z_owner, "Player towns"}, {l->z_ntowns, "Neutral towns"},
        {l->z_towns, "Town types"}, {l->z_mines, "Minimum mines"}, {l->z_mine_dens, "Mine Density"},
        {l->z_match_terrain, "Terrain"}, {l->z_strength, "Monsters"}, {l->z_treasure, "Treasure"},
        {l->zone_new ? l->z_opt : -1, "Options"}, {l->conn0, "Zones"}, {l->c_value, "Options"},
        {l->c_restr, "Restrictions"}};
    for (size_t i = 0; i < RMG__ARRAY_LEN(groups); i++)
        if (groups[i].col == col)
            return groups[i].name;
    return "";
}
