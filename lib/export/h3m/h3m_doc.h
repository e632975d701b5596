/*
 * The .h3m map file as a document (../shared/spec/h3m-format.md, "the spec" below; § numbers
 * refer to it): every field of SoD (format 0x1C) and HotA (0x20, sub-versions 0-9) files, so that
 * writing a document read from a file gives the file's bytes back. Reserved and junk bytes are
 * kept as read. Fields that a format or sub-version does not have are ignored when writing it
 * (the comments say "H5" for "HotA sub-version 5 and later", "HotA" for every HotA sub-version).
 *
 * Everything a document points to lives in its arena (strings, counted arrays) or, for the
 * template and object tables, in arrays it grows; rmg__h3m_doc_free releases it all. A writer
 * fills a document from rmg__h3m_doc_new + rmg__h3m_doc_defaults, adds strings with
 * rmg__h3m_str_set, arrays with rmg__h3m_alloc, templates and objects with the add helpers,
 * and calls rmg__h3m_write. rmg__h3m_compress then gives the bytes of a .h3m file.
 */
#ifndef RMG_EXPORT_H3M_DOC_H
#define RMG_EXPORT_H3M_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core_internal.h"

/* Format numbers (the file's first u32). Only SoD and HotA are read and written. */
enum {
    RMG__H3M_ROE = 0x0E,
    RMG__H3M_AB = 0x15,
    RMG__H3M_SOD = 0x1C,
    RMG__H3M_HOTA = 0x20,
    RMG__H3M_WOG = 0x33,
    RMG__H3M_MAX_HOTA_SUB = 9
};

/* Fixed sizes of the SoD layout (and the HotA counts the editors write, §7, §8, §10, §12). */
enum {
    RMG__H3M_PLAYERS = 8,
    RMG__H3M_ARMY_SLOTS = 7,
    RMG__H3M_HERO_SLOTS = 19,          /* worn artifact slots, §12 */
    RMG__H3M_SOD_HEROES = 156,         /* SoD hero settings entries and mask bits (20 bytes) */
    RMG__H3M_SOD_HERO_MASK = 20,
    RMG__H3M_SOD_ARTIFACT_MASK = 18,
    RMG__H3M_SPELL_MASK = 9,
    RMG__H3M_SKILL_MASK = 4,
    RMG__H3M_TILE_BYTES = 7,
    RMG__H3M_TAIL_BYTES = 124,         /* the zeros after the events (§17) */
    RMG__H3M_MAX_SIZE = 1024           /* the largest map side accepted (the games use 36 to 252) */
};

/* A string of the file: bytes in the game's 8-bit code page, not necessarily UTF-8. `data` is
 * NUL-terminated for convenience (the NUL is not part of the string; data may hold NULs).
 * data NULL with len 0 is the empty string. */
typedef struct rmg__h3m_str {
    char *data;
    uint32_t len;
} rmg__h3m_str;

typedef struct rmg__h3m_xyz {
    uint8_t x, y, z;
} rmg__h3m_xyz;

/* Creature slot: id 0xFFFF and count 0 when empty (§16.1). */
typedef struct rmg__h3m_slot {
    uint16_t creature, count;
} rmg__h3m_slot;

/* Artifact entry (§16.1): id 0xFFFF none; spell from H5 (the scroll's spell, 0 for other
 * artifacts, 0xFFFF for an empty entry). */
typedef struct rmg__h3m_art {
    uint16_t id, spell;
} rmg__h3m_art;

/* Secondary skill and its level (1 basic ... 3 expert). */
typedef struct rmg__h3m_skill {
    uint8_t skill, level;
} rmg__h3m_skill;

/* ---- header (§3) --------------------------------------------------------------------------- */

typedef struct rmg__h3m_script_var {
    rmg__h3m_str name;
    int32_t initial;
    uint8_t mode;
} rmg__h3m_script_var;

typedef struct rmg__h3m_hota_header {
    uint32_t game_version[3];         /* H8: major, minor, patch */
    uint8_t mirror, arena;            /* H1 */
    uint32_t terrain_types;           /* H2 */
    uint32_t town_types;              /* H5 */
    uint8_t difficulties;             /* H5 */
    uint8_t hire_defeated;            /* H7 */
    uint8_t lock_version;             /* H8 */
    uint32_t script_var_count;        /* H9 */
    rmg__h3m_script_var *script_vars;
} rmg__h3m_hota_header;

typedef struct rmg__h3m_basic {
    uint8_t has_players;
    uint32_t size;
    uint8_t two_levels;
    rmg__h3m_str name, description;
    uint8_t difficulty;
    uint8_t level_cap;
} rmg__h3m_basic;

/* ---- players, conditions, teams (§4-§6) ------------------------------------------------------ */

typedef struct rmg__h3m_player_hero {
    uint8_t id;
    rmg__h3m_str name;
} rmg__h3m_player_hero;

typedef struct rmg__h3m_player {
    uint8_t can_human, can_computer, behaviour, factions_customised;
    uint8_t factions[2];
    uint8_t random_faction;
    uint8_t has_main_town;
    uint8_t generate_hero, main_town_faction;   /* when has_main_town */
    rmg__h3m_xyz main_town;                     /* the town's entrance tile */
    uint8_t has_random_hero;
    uint8_t main_hero;                          /* 0xFF none */
    uint8_t main_hero_portrait;                 /* when main_hero != 0xFF */
    rmg__h3m_str main_hero_name;                /* when main_hero != 0xFF */
    uint8_t placeholder_count;                  /* editor bookkeeping, kept as read */
    uint32_t hero_count;
    rmg__h3m_player_hero *heroes;
} rmg__h3m_player;

enum {
    RMG__H3M_VICTORY_ARTIFACT = 0,
    RMG__H3M_VICTORY_CREATURES = 1,
    RMG__H3M_VICTORY_RESOURCES = 2,
    RMG__H3M_VICTORY_UPGRADE_TOWN = 3,
    RMG__H3M_VICTORY_GRAIL = 4,
    RMG__H3M_VICTORY_DEFEAT_HERO = 5,
    RMG__H3M_VICTORY_CAPTURE_TOWN = 6,
    RMG__H3M_VICTORY_DEFEAT_MONSTER = 7,
    RMG__H3M_VICTORY_FLAG_DWELLINGS = 8,
    RMG__H3M_VICTORY_FLAG_MINES = 9,
    RMG__H3M_VICTORY_TRANSPORT = 10,
    RMG__H3M_VICTORY_ALL_MONSTERS = 11,
    RMG__H3M_VICTORY_SURVIVE = 12,
    RMG__H3M_CONDITION_STANDARD = 0xFF,
    RMG__H3M_LOSS_TOWN = 0,
    RMG__H3M_LOSS_HERO = 1,
    RMG__H3M_LOSS_TIME = 2
};

/* Victory condition (§5); which payload fields a type uses is in the comments. */
typedef struct rmg__h3m_victory {
    uint8_t type;                 /* 0xFF standard: nothing else */
    uint8_t allow_normal_win, applies_to_computer;
    uint16_t object;              /* artifact (0; u8 for 10) or creature (1) */
    uint8_t resource;             /* 2 */
    uint32_t amount;              /* creature count (1), resource amount (2), days (12) */
    rmg__h3m_xyz pos;             /* 3, 4, 5, 6, 7, 10 */
    uint8_t hall, castle;         /* 3 */
} rmg__h3m_victory;

typedef struct rmg__h3m_loss {
    uint8_t type;                 /* 0xFF standard */
    rmg__h3m_xyz pos;             /* 0, 1 */
    uint16_t days;                /* 2 */
} rmg__h3m_loss;

typedef struct rmg__h3m_teams {
    uint8_t count;                /* 0: no teams, no team bytes */
    uint8_t team[RMG__H3M_PLAYERS];
} rmg__h3m_teams;

/* ---- heroes, options, bans, rumours (§7-§11) ----------------------------------------------------- */

typedef struct rmg__h3m_custom_hero {
    uint8_t id, portrait;
    rmg__h3m_str name;
    uint8_t players;              /* mask of the players who may hire */
} rmg__h3m_custom_hero;

typedef struct rmg__h3m_hero_block {
    uint32_t count;               /* HotA: in the file; SoD: 156 (mask of 20 bytes) */
    uint8_t *allowed;             /* mask, 1 = allowed: SoD 20 bytes, HotA ceil(count / 8) */
    uint32_t placeholder_count;
    uint8_t *placeholders;        /* hero ids */
    uint8_t custom_count;
    rmg__h3m_custom_hero *custom;
} rmg__h3m_hero_block;

typedef struct rmg__h3m_options {
    uint8_t reserved[31];
    uint32_t special_weeks;       /* HotA (bool + 3 zero bytes, kept as one u32) */
    uint32_t combo_count;         /* H1 */
    uint8_t *banned_combos;       /* H1: ceil(combo_count / 8) bytes */
    int32_t round_limit;          /* H3: -1 none */
    uint8_t hiring_banned[RMG__H3M_PLAYERS]; /* H5 */
    uint8_t script_used;          /* H9: 1 is refused (the script system is not supported) */
} rmg__h3m_options;

typedef struct rmg__h3m_bans {
    uint32_t artifact_count;      /* HotA: in the file; SoD: 144 (18 bytes) */
    uint8_t *artifacts;           /* 1 = banned */
    uint8_t spells[RMG__H3M_SPELL_MASK];
    uint8_t skills[RMG__H3M_SKILL_MASK];
} rmg__h3m_bans;

typedef struct rmg__h3m_rumour {
    rmg__h3m_str name, text;
} rmg__h3m_rumour;

/* ---- heroes: artifacts and settings (§12) ------------------------------------------------------- */

/* Hero artifact block: slots in the order of §12 (head ... misc 5), then the backpack. */
typedef struct rmg__h3m_hero_artifacts {
    uint8_t has_artifacts;        /* 0: nothing else follows */
    rmg__h3m_art slots[RMG__H3M_HERO_SLOTS];
    uint16_t backpack_count;
    rmg__h3m_art *backpack;
} rmg__h3m_hero_artifacts;

/* The three HotA values after a hero (H5): VCMI's "always add skills", "cannot gain
 * experience", "level"; the editor's default is 1, 0, 1. */
typedef struct rmg__h3m_hero_tail {
    uint8_t always_add_skills, no_experience;
    int32_t level;
} rmg__h3m_hero_tail;

/* What a hero object and a predefined hero setting share. */
typedef struct rmg__h3m_hero_data {
    uint8_t has_experience;
    uint32_t experience;
    uint8_t has_skills;
    uint32_t skill_count;
    rmg__h3m_skill *skills;
    rmg__h3m_hero_artifacts artifacts;
    uint8_t has_biography;
    rmg__h3m_str biography;
    uint8_t gender;               /* 0 male, 1 female, 0xFF default */
    uint8_t has_spells;
    uint8_t spells[RMG__H3M_SPELL_MASK];
    uint8_t has_primary;
    uint8_t primary[4];
} rmg__h3m_hero_data;

typedef struct rmg__h3m_hero_setting {
    uint8_t customised;           /* 0: the entry is that one byte */
    rmg__h3m_hero_data data;
    rmg__h3m_hero_tail tail;      /* H5 (written after all entries) */
} rmg__h3m_hero_setting;

/* ---- templates (§14) ------------------------------------------------------------------------- */

typedef struct rmg__h3m_template {
    rmg__h3m_str def;
    uint8_t passable[6], visitable[6];
    uint16_t terrains, editor_terrains;
    uint32_t class_id, subclass;
    uint8_t group, ground;
    uint8_t reserved[16];
} rmg__h3m_template;

/* ---- object bodies (§16) ---------------------------------------------------------------------- */

/* Which body an object has, chosen by its template's class and subclass (and the version:
 * the "H3+" and "H5+" bodies are empty before). */
typedef enum rmg__h3m_body_kind {
    RMG__H3M_BODY_NONE = 0,
    RMG__H3M_BODY_ARTIFACT,       /* 5, 65-69 */
    RMG__H3M_BODY_PANDORA,        /* 6 */
    RMG__H3M_BODY_BLACK_MARKET,   /* 7 (H5) */
    RMG__H3M_BODY_REWARD18,       /* 12, 39, 105, 145/0-1, 212/1001 (H5) */
    RMG__H3M_BODY_BANK,           /* 16, 24, 25, 84, 85 (H3) */
    RMG__H3M_BODY_OWNED,          /* 17-20, 42, 53 (not 7), 87 */
    RMG__H3M_BODY_REWARD8,        /* 22, 29, 63, 82, 86, 101, 102, 104, 108, 145/2-3, 146/0 (H5) */
    RMG__H3M_BODY_EVENT,          /* 26 */
    RMG__H3M_BODY_GARRISON,       /* 33, 219 */
    RMG__H3M_BODY_HERO,           /* 34, 62, 70 */
    RMG__H3M_BODY_GRAIL,          /* 36 subclass < 1000 */
    RMG__H3M_BODY_ABANDONED_MINE, /* 53/7, 220 */
    RMG__H3M_BODY_MONSTER,        /* 54, 71-75, 162-164 */
    RMG__H3M_BODY_MESSAGE,        /* 59, 91 */
    RMG__H3M_BODY_RESOURCE,       /* 76, 79 */
    RMG__H3M_BODY_TOWN,           /* 77, 98 */
    RMG__H3M_BODY_SCHOLAR,        /* 81 */
    RMG__H3M_BODY_SEER,           /* 83 */
    RMG__H3M_BODY_SHRINE,         /* 88, 89, 90 */
    RMG__H3M_BODY_SCROLL,         /* 93 */
    RMG__H3M_BODY_WITCH_HUT,      /* 113 */
    RMG__H3M_BODY_TRAPPER,        /* 144/12 (H9) */
    RMG__H3M_BODY_QUEST,          /* 215, 212/1000 */
    RMG__H3M_BODY_PLACEHOLDER,    /* 214 */
    RMG__H3M_BODY_RANDOM_DWELLING,/* 216, 217, 218 */
    RMG__H3M_BODY_KINDS
} rmg__h3m_body_kind;

/* Message and guards of artifacts, resources, scrolls and boxes (§16.1). */
typedef struct rmg__h3m_guards {
    uint8_t has_message;          /* 0: nothing else follows */
    rmg__h3m_str message;
    uint8_t has_guards;
    rmg__h3m_slot army[RMG__H3M_ARMY_SLOTS];
    uint8_t reserved[4];
} rmg__h3m_guards;

/* Reward box of Pandora's Boxes and Events (§16.1). */
typedef struct rmg__h3m_box {
    rmg__h3m_guards guards;
    uint32_t experience;
    int32_t spell_points;
    int8_t morale, luck;
    int32_t resources[7];
    uint8_t primary[4];
    uint8_t skill_count;
    rmg__h3m_skill *skills;
    uint8_t artifact_count;
    rmg__h3m_art *artifacts;
    uint8_t spell_count;
    uint8_t *spells;
    uint8_t creature_count;
    rmg__h3m_slot *creatures;
    uint8_t reserved[8];
} rmg__h3m_box;

/* "uses script" of HotA 1.8 (H9): when 1, an event id and a flag follow. */
typedef struct rmg__h3m_script_ref {
    uint8_t used;
    int32_t id;
    uint8_t flag;
} rmg__h3m_script_ref;

/* HotA box tail (§16.1). */
typedef struct rmg__h3m_box_tail {
    int32_t movement_mode, movement_points; /* H5 */
    int32_t difficulties;                   /* H6 */
    rmg__h3m_script_ref script;             /* H9 */
} rmg__h3m_box_tail;

typedef struct rmg__h3m_pandora {
    rmg__h3m_box box;
    uint8_t unknown;              /* H5 */
    rmg__h3m_box_tail tail;
} rmg__h3m_pandora;

typedef struct rmg__h3m_event_object {
    rmg__h3m_box box;
    uint8_t players, computer_activates, remove_after_visit;
    uint8_t reserved[4];
    uint8_t human_activates;      /* H3 */
    rmg__h3m_box_tail tail;
} rmg__h3m_event_object;

enum {
    RMG__H3M_QUEST_NONE = 0,
    RMG__H3M_QUEST_LEVEL = 1,
    RMG__H3M_QUEST_PRIMARY = 2,
    RMG__H3M_QUEST_DEFEAT_HERO = 3,
    RMG__H3M_QUEST_DEFEAT_MONSTER = 4,
    RMG__H3M_QUEST_ARTIFACTS = 5,
    RMG__H3M_QUEST_CREATURES = 6,
    RMG__H3M_QUEST_RESOURCES = 7,
    RMG__H3M_QUEST_BE_HERO = 8,
    RMG__H3M_QUEST_BE_PLAYER = 9,
    RMG__H3M_QUEST_HOTA = 10,
    RMG__H3M_HOTA_QUEST_CLASS = 0,
    RMG__H3M_HOTA_QUEST_DAY = 1,
    RMG__H3M_HOTA_QUEST_DIFFICULTY = 2,
    RMG__H3M_HOTA_QUEST_SCRIPT = 3
};

/* Quest (§16.1); which payload fields a type uses is in the comments. A quest of type 0 has
 * nothing else, not even the deadline and texts. */
typedef struct rmg__h3m_quest {
    uint8_t type;
    uint32_t value;               /* level (1), object identifier (3, 4) */
    uint8_t primary[4];           /* 2 */
    uint8_t artifact_count;       /* 5 */
    rmg__h3m_art *artifacts;
    uint8_t creature_count;       /* 6 */
    rmg__h3m_slot *creatures;
    uint32_t resources[7];        /* 7 */
    uint8_t id;                   /* hero (8), player (9) */
    uint32_t hota_kind;           /* 10: RMG__H3M_HOTA_QUEST_* */
    uint32_t class_count;         /* 10/class: bit count of class_mask */
    uint8_t *class_mask;
    uint32_t hota_value;          /* 10/day: day; 10/difficulty: mask; 10/script: id */
    uint8_t script_flag;          /* 10/script */
    uint32_t deadline;            /* 0xFFFFFFFF none */
    rmg__h3m_str proposal, progress, completion;
} rmg__h3m_quest;

enum {
    RMG__H3M_REWARD_NONE = 0,
    RMG__H3M_REWARD_EXPERIENCE = 1,
    RMG__H3M_REWARD_SPELL_POINTS = 2,
    RMG__H3M_REWARD_MORALE = 3,
    RMG__H3M_REWARD_LUCK = 4,
    RMG__H3M_REWARD_RESOURCE = 5,
    RMG__H3M_REWARD_PRIMARY = 6,
    RMG__H3M_REWARD_SECONDARY = 7,
    RMG__H3M_REWARD_ARTIFACT = 8,
    RMG__H3M_REWARD_SPELL = 9,
    RMG__H3M_REWARD_CREATURES = 10
};

/* Seer's reward (§16.1). */
typedef struct rmg__h3m_reward {
    uint8_t type;
    uint32_t amount;              /* experience (1), spell points (2), resource amount (5) */
    int8_t bonus;                 /* morale (3), luck (4) */
    uint8_t id;                   /* resource (5), primary (6), secondary (7) skill, spell (9) */
    uint8_t level;                /* primary amount (6), secondary level (7) */
    rmg__h3m_art artifact;        /* 8 */
    rmg__h3m_slot creatures;      /* 10 */
} rmg__h3m_reward;

/* A seer's quest with its reward. For a quest of type 0 the file has one byte instead of the
 * reward: it is kept in reward.type (no payload). */
typedef struct rmg__h3m_seer_task {
    rmg__h3m_quest quest;
    rmg__h3m_reward reward;
} rmg__h3m_seer_task;

typedef struct rmg__h3m_seer {
    uint32_t task_count;          /* SoD: exactly 1 (no count in the file) */
    rmg__h3m_seer_task *tasks;
    uint32_t repeat_count;        /* H3 */
    rmg__h3m_seer_task *repeat_tasks;
    uint8_t reserved[2];
} rmg__h3m_seer;

/* The common part of global and town events (§17). */
typedef struct rmg__h3m_event {
    rmg__h3m_str name, message;
    int32_t resources[7];
    uint8_t players;
    uint8_t humans, computers;
    uint16_t first_day, repeat;
    uint8_t reserved[16];
    int32_t difficulties;         /* H7 */
    rmg__h3m_script_ref script;   /* H9 */
} rmg__h3m_event;

/* A global timed event: the common part and, in sub-versions 5 and 6 only, three more fields. */
typedef struct rmg__h3m_timed_event {
    rmg__h3m_event common;
    int32_t old_value;            /* H5-H6 */
    uint32_t old_bit_count;       /* H5-H6 */
    uint8_t *old_mask;            /* ceil(old_bit_count / 8) bytes */
} rmg__h3m_timed_event;

typedef struct rmg__h3m_town_event {
    rmg__h3m_event common;
    int32_t growth8;              /* H5 */
    uint32_t special_bit_count;   /* H5 */
    uint8_t *special_mask;        /* ceil(special_bit_count / 8) bytes */
    uint8_t neutral;              /* H7 */
    uint8_t buildings[6];
    uint16_t creatures[7];
    uint8_t reserved[4];
} rmg__h3m_town_event;

typedef struct rmg__h3m_town {
    uint32_t identifier;
    uint8_t owner;
    uint8_t has_name;
    rmg__h3m_str name;
    uint8_t has_garrison;
    rmg__h3m_slot garrison[RMG__H3M_ARMY_SLOTS];
    uint8_t formation;
    uint8_t has_buildings;
    uint8_t built[6], disabled[6];   /* when has_buildings */
    uint8_t has_fort;                /* when !has_buildings */
    uint8_t must_spells[RMG__H3M_SPELL_MASK], banned_spells[RMG__H3M_SPELL_MASK];
    uint8_t research;                /* H1 */
    uint32_t special_count;          /* H5 */
    uint8_t *special_states;
    uint32_t event_count;
    rmg__h3m_town_event *events;
    uint8_t alignment;
    uint8_t reserved[3];
} rmg__h3m_town;

typedef struct rmg__h3m_hero {
    uint32_t identifier;
    uint8_t owner, hero;
    uint8_t has_name;
    rmg__h3m_str name;
    uint8_t has_portrait, portrait;
    uint8_t has_army;
    rmg__h3m_slot army[RMG__H3M_ARMY_SLOTS];
    uint8_t formation;
    uint8_t patrol;                  /* 0xFF none */
    rmg__h3m_hero_data data;         /* experience, skills, artifacts, biography, gender, spells, primary */
    uint8_t reserved[16];
    rmg__h3m_hero_tail tail;         /* H5 */
} rmg__h3m_hero;

typedef struct rmg__h3m_monster {
    uint32_t identifier;
    uint16_t count;
    uint8_t disposition;
    uint8_t has_message;
    rmg__h3m_str message;            /* when has_message */
    int32_t resources[7];
    uint16_t artifact;
    uint8_t never_flees, no_growth;
    uint8_t reserved[2];
    int32_t aggression;              /* H3 */
    uint8_t money_only;
    int32_t join_percent, upgraded, stack_count;
    uint8_t by_ai_value;             /* H5 */
    int32_t ai_value;
} rmg__h3m_monster;

typedef struct rmg__h3m_artifact {
    rmg__h3m_guards guards;
    uint32_t pickup_mode;            /* H5 */
    uint8_t pickup_conditions;       /* H5 */
} rmg__h3m_artifact;

typedef struct rmg__h3m_scroll {
    rmg__h3m_guards guards;
    uint32_t spell;
} rmg__h3m_scroll;

typedef struct rmg__h3m_resource {
    rmg__h3m_guards guards;
    uint32_t amount;                 /* 0 random; gold in hundreds */
    uint8_t reserved[4];
} rmg__h3m_resource;

typedef struct rmg__h3m_random_dwelling {
    uint32_t owner;
    uint32_t town_id;                /* 216, 217 */
    uint8_t factions[2];             /* 216, 217 when town_id == 0 */
    uint8_t min_level, max_level;    /* 216, 218 */
} rmg__h3m_random_dwelling;

typedef struct rmg__h3m_abandoned_mine {
    uint8_t resources;
    uint8_t reserved[3];
    uint8_t custom_guards;           /* H5 */
    uint32_t creature;
    int32_t min_count, max_count;
} rmg__h3m_abandoned_mine;

typedef struct rmg__h3m_garrison {
    uint32_t owner;
    rmg__h3m_slot army[RMG__H3M_ARMY_SLOTS];
    uint8_t removable;
    uint8_t reserved[8];
} rmg__h3m_garrison;

typedef struct rmg__h3m_scholar {
    uint8_t kind, id;
    uint8_t reserved[6];
} rmg__h3m_scholar;

typedef struct rmg__h3m_message {
    rmg__h3m_str text;
    uint8_t reserved[4];
} rmg__h3m_message;

typedef struct rmg__h3m_bank {
    int32_t preset;
    int8_t upgraded;
    uint32_t artifact_count;
    uint32_t *artifacts;
} rmg__h3m_bank;

/* 8-byte HotA reward objects: content (-1 random) and an artifact, spell, skill mask or junk. */
typedef struct rmg__h3m_reward8 {
    int32_t content;
    uint32_t value;
} rmg__h3m_reward8;

/* 18-byte HotA reward objects (campfire, lean-to, wagon, lamp, barrel, grave). */
typedef struct rmg__h3m_reward18 {
    int32_t content;
    uint32_t artifact;
    int32_t amount_a;
    uint8_t resource_a;
    int32_t amount_b;
    uint8_t resource_b;
} rmg__h3m_reward18;

typedef struct rmg__h3m_trapper {
    int32_t content, gold, count;
    uint32_t creature;
} rmg__h3m_trapper;

typedef struct rmg__h3m_placeholder {
    uint8_t owner, hero;
    uint8_t power_rating;            /* when hero == 0xFF */
    uint8_t custom_army;             /* H5 */
    int32_t army_count[RMG__H3M_ARMY_SLOTS];
    uint32_t army_creature[RMG__H3M_ARMY_SLOTS];
    int32_t artifact_count;
    uint32_t *artifacts;
} rmg__h3m_placeholder;

/* Every object body (§16); an object's kind says which member it holds. */
typedef union rmg__h3m_body {
    rmg__h3m_artifact artifact;
    rmg__h3m_pandora pandora;
    rmg__h3m_art black_market[7];
    rmg__h3m_reward18 reward18;
    rmg__h3m_bank bank;
    uint32_t owner;
    rmg__h3m_reward8 reward8;
    rmg__h3m_event_object event;
    rmg__h3m_garrison garrison;
    rmg__h3m_hero hero;
    int32_t grail_radius;
    rmg__h3m_abandoned_mine mine;
    rmg__h3m_monster monster;
    rmg__h3m_message message;
    rmg__h3m_resource resource;
    rmg__h3m_town town;
    rmg__h3m_scholar scholar;
    rmg__h3m_seer seer;
    uint32_t shrine_spell;
    rmg__h3m_scroll scroll;
    uint8_t witch_skills[RMG__H3M_SKILL_MASK];
    rmg__h3m_trapper trapper;
    rmg__h3m_quest quest;
    rmg__h3m_placeholder placeholder;
    rmg__h3m_random_dwelling dwelling;
} rmg__h3m_body;

typedef struct rmg__h3m_object {
    rmg__h3m_xyz pos;                /* the anchor */
    uint32_t template_index;
    uint8_t reserved[5];
    /* Set by the reader and rmg__h3m_add_object from the template; the writer checks it. */
    rmg__h3m_body_kind kind;
    /* The body of that kind in the document's arena, NULL for RMG__H3M_BODY_NONE: most objects
     * of a random map are obstacles, and a table of inline bodies would be mostly zeros. */
    rmg__h3m_body *body;
} rmg__h3m_object;

/* ---- the document ---------------------------------------------------------------------------- */

typedef struct rmg__h3m_doc {
    rmg_context *ctx;
    rmg__arena arena;

    uint32_t format;                 /* RMG__H3M_SOD or RMG__H3M_HOTA */
    uint32_t hota_sub;               /* HotA sub-version 0-9 */
    rmg__h3m_hota_header hota;
    rmg__h3m_basic basic;
    rmg__h3m_player players[RMG__H3M_PLAYERS];
    rmg__h3m_victory victory;
    rmg__h3m_loss loss;
    rmg__h3m_teams teams;
    rmg__h3m_hero_block heroes;
    rmg__h3m_options options;
    rmg__h3m_bans bans;
    uint32_t rumour_count;
    rmg__h3m_rumour *rumours;
    uint32_t hero_setting_count;     /* HotA: in the file; SoD: 156 */
    rmg__h3m_hero_setting *hero_settings;
    uint8_t *tiles;                  /* size * size * levels * 7 bytes (§13), level 0 first */
    uint32_t template_count;
    rmg__h3m_template *templates;
    uint32_t object_count;
    rmg__h3m_object *objects;
    uint32_t event_count;
    rmg__h3m_timed_event *events;
    size_t tail_len;                 /* bytes after the events, normally 124 zeros */
    uint8_t *tail;

    size_t template_cap, object_cap; /* capacity of the two growable tables */
} rmg__h3m_doc;

/* ---- API --------------------------------------------------------------------------------------- */

/* An empty document (every field zero). */
rmg_status rmg__h3m_doc_new(rmg_context *ctx, rmg__h3m_doc **out);
void rmg__h3m_doc_free(rmg__h3m_doc *doc);
/* Fills a fresh document with what the editor writes for an empty map of this format,
 * HotA sub-version, size and level count (1 or 2): the HotA header, players nobody can play,
 * standard conditions, every hero allowed but the campaign ones, the default bans, hero
 * settings without customisation, zero tiles, no templates or objects, the 124-byte tail.
 * RMG_ERR_INVALID_ARG for a format other than SoD/HotA or sub-version > 9. */
rmg_status rmg__h3m_doc_defaults(rmg__h3m_doc *doc, uint32_t format, uint32_t hota_sub, uint32_t size,
                                 int levels);

/* Zero-filled memory in the document's arena for count elements of elem bytes (NULL for
 * count 0 and on failure: RMG_ERR_NOMEM is then set). */
void *rmg__h3m_alloc(rmg__h3m_doc *doc, size_t count, size_t elem);
/* Sets *s to a copy of text (NUL-terminated) / of len bytes. */
rmg_status rmg__h3m_str_set(rmg__h3m_doc *doc, rmg__h3m_str *s, const char *text);
rmg_status rmg__h3m_str_setn(rmg__h3m_doc *doc, rmg__h3m_str *s, const void *bytes, size_t len);
/* Appends a zeroed template / an object using template `template_index` (its kind set from
 * the template; the template must exist). The pointer is valid until the next add. */
rmg__h3m_template *rmg__h3m_add_template(rmg__h3m_doc *doc, uint32_t *index);
rmg__h3m_object *rmg__h3m_add_object(rmg__h3m_doc *doc, uint32_t template_index);
/* The bytes of a body of this kind in the document's arena (0 for none), and an object given a
 * fresh zeroed body of that kind (o->kind set; RMG_ERR_NOMEM when it cannot be allocated). */
size_t rmg__h3m_body_size(rmg__h3m_body_kind kind);
rmg_status rmg__h3m_give_body(rmg__h3m_doc *doc, rmg__h3m_object *o, rmg__h3m_body_kind kind);
/* Room for `count` objects in all, so that adding them moves nothing (a writer that knows). */
rmg_status rmg__h3m_reserve_objects(rmg__h3m_doc *doc, size_t count);
/* The body an object of this template class/subclass has in the document's format. */
rmg__h3m_body_kind rmg__h3m_body_kind_of(const rmg__h3m_doc *doc, uint32_t class_id, uint32_t subclass);
/* Number of tile bytes of the document (size * size * levels * 7), 0 on overflow. */
size_t rmg__h3m_tile_bytes(const rmg__h3m_doc *doc);

/* Reads a .h3m file (gzip, or the uncompressed stream); `name` names it in messages
 * ("NAME: byte OFFSET: what was expected"). RMG_ERR_PARSE for a malformed file,
 * RMG_ERR_UNSUPPORTED for RoE, AB, WoG, HotA sub-versions above 9 and maps using the HotA
 * script system, RMG_ERR_LIMIT for a stream above RMG__H3M_MAX_STREAM, RMG_ERR_NOMEM. */
rmg_status rmg__h3m_read(rmg_context *ctx, const uint8_t *data, size_t len, const char *name, rmg__h3m_doc **out);
/* A string of the file as NUL-terminated UTF-8 in the arena (NULL when out of memory): valid
 * UTF-8 is kept, other text is decoded from Windows-1251 when it holds a run of three Cyrillic
 * letters, else from Windows-1252 (the rule of .h3t text, docs/h3t-import.md §8, applied to the one string). */
char *rmg__h3m_text_utf8(rmg__arena *arena, const rmg__h3m_str *s);
/* Reads an uncompressed stream. */
rmg_status rmg__h3m_parse(rmg_context *ctx, const uint8_t *data, size_t len, const char *name, rmg__h3m_doc **out);
/* The uncompressed stream of a document (buffer from rmg__malloc). RMG_ERR_INVALID_ARG when
 * the document is inconsistent (a count without its array, a template index out of range, an
 * object whose kind does not match its template). */
rmg_status rmg__h3m_write(rmg_context *ctx, const rmg__h3m_doc *doc, uint8_t **out, size_t *len);

/* The largest uncompressed stream accepted (a defence against zip bombs; the largest real
 * maps are under 4 MiB). */
#define RMG__H3M_MAX_STREAM ((size_t)64 * 1024 * 1024)
/* gzip with the editor's header (deterministic: no name, mtime 0), raw deflate at level 1. */
rmg_status rmg__h3m_compress(rmg_context *ctx, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);
/* One gzip member (trailing bytes refused), or a copy of an uncompressed stream that starts
 * with a known format number. */
rmg_status rmg__h3m_decompress(rmg_context *ctx, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);
/* The same with the file's name for messages. */
rmg_status rmg__h3m_decompress_named(rmg_context *ctx, const uint8_t *in, size_t len, const char *name,
                                     uint8_t **out, size_t *out_len);

#endif
