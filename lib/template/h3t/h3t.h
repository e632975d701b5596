/*
 * Private interface of the h3t / rmg.txt importer (h3t_*.c). The column layout is documented
 * in docs/h3t-import.md; the format notes are ../shared/spec/h3t-format.md.
 */
#ifndef RMG_TEMPLATE_H3T_H
#define RMG_TEMPLATE_H3T_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "template/model.h"


/* ---- the column layout (h3t_layout.c) ------------------------------------------------------ */

/* Known names of each block that grows between versions; surplus columns are kept unnamed. */
enum { RMG__H3T_KNOWN_TOWNS = 12, RMG__H3T_KNOWN_TERRAINS = 10, RMG__H3T_KNOWN_ZONE_TYPES = 4,
       RMG__H3T_KNOWN_PACK = 8, RMG__H3T_KNOWN_MAP_NEW = 10, RMG__H3T_KNOWN_ZONE_NEW = 18,
       RMG__H3T_KNOWN_CONN_NEW = 4, RMG__H3T_MAX_COUNT = 24 };

/* File terrain order (Dirt Sand Grass Snow Swamp Rough Cave Lava Highlands Wasteland) to the
 * H3M terrain ids of rmg_terrain_id (water 8 and rock 9 are never zone terrains here). */
extern const int rmg__h3t_terrain_ids[RMG__H3T_KNOWN_TERRAINS];
/* Bit of the neutral monsters in faction masks (RMG_FACTION_NEUTRAL in rmg/content.h). */
enum { RMG__H3T_NEUTRAL_BIT = 31 };

/* Where every block of columns starts, computed from the seven field counts of row 4 (spec §2):
 * towns T, terrains R, zone types Z, pack P, map new M, zone new ZN, connection new CN. */
typedef struct rmg__h3t_layout {
    bool sod;
    int towns, terrains, zone_types, pack_n, map_new, zone_new, conn_new;
    int pack0, map0, map_new0;
    int zone0, z_types, z_size, z_restr, z_owner, z_ptowns, z_ntowns, z_same, z_towns, z_mines, z_mine_dens,
        z_match_terrain, z_terrains, z_strength, z_match_monsters, z_neutral, z_factions, z_treasure, z_opt;
    int conn0, c_value, c_wide, c_guard, c_new, c_restr;
    int width;
} rmg__h3t_layout;

/* Fills the block starts and the width from the counts already in *l. */
void rmg__h3t_layout_compute(rmg__h3t_layout *l);
/* The fixed SoD rmg.txt layout: T=9, R=8, no field counts, no pack, no new columns (spec §10). */
void rmg__h3t_layout_sod(rmg__h3t_layout *l);
/* The layout of seven counts (in the order of row 4). */
void rmg__h3t_layout_of(rmg__h3t_layout *l, const rmg__h3t_counts *counts);
/* The counts of the editions the writer offers (rmg_h3t_version). */
extern const rmg__h3t_counts rmg__h3t_counts_1_7, rmg__h3t_counts_1_8;
/* The names of the three header rows of column `col` (row-3 names; "" for a surplus column or a
 * column without a row-1/row-2 label). */
const char *rmg__h3t_section_name(const rmg__h3t_layout *l, int col);
const char *rmg__h3t_group_name(const rmg__h3t_layout *l, int col);
const char *rmg__h3t_column_name(const rmg__h3t_layout *l, int col);

/* ---- generated tables (h3t_classes.c, scripts/gen-h3t-classes.py) ------------------------- */

typedef struct rmg__h3t_object {
    int cls, sub;            /* H3M object class and subclass; sub -1 = every subclass */
    const char *key;         /* object-defaults.tsv key */
    const char *creature;    /* creature key for dwellings, NULL otherwise */
    const char *family;      /* object-defaults.tsv family */
} rmg__h3t_object;

typedef struct rmg__h3t_class_target {  /* what a rule naming a whole class addresses */
    int cls;
    bool is_family;          /* name is a family (else an object key) */
    const char *name;
} rmg__h3t_class_target;

typedef struct rmg__h3t_creature {
    int id;                  /* H3M creature id */
    const char *key;
    int level;               /* 1..7 */
} rmg__h3t_creature;

extern const rmg__h3t_object rmg__h3t_objects[];
extern const size_t rmg__h3t_n_objects;
extern const rmg__h3t_class_target rmg__h3t_class_targets[];
extern const size_t rmg__h3t_n_class_targets;
extern const char *const rmg__h3t_keys[];
extern const size_t rmg__h3t_n_keys;
extern const rmg__h3t_creature rmg__h3t_creatures[];
extern const size_t rmg__h3t_n_creatures;

/* Exact (class, sub) match first, then the class-wide row; NULL if unknown. */
const rmg__h3t_object *rmg__h3t_find_object(int cls, int sub);
/* Entries of rmg__h3t_class_targets for `cls` (count in *n; NULL/0 if none). */
const rmg__h3t_class_target *rmg__h3t_find_class_targets(int cls, size_t *n);
/* True if `key` is an object key of object-defaults.tsv. */
bool rmg__h3t_is_object_key(const char *key);
const rmg__h3t_creature *rmg__h3t_find_creature(int id);

/* ---- text -------------------------------------------------------------------------------- */

typedef enum rmg__h3t_encoding { RMG__H3T_UTF8, RMG__H3T_CP1252, RMG__H3T_CP1251 } rmg__h3t_encoding;

/* Decides the code page of the free text of a whole file (docs/h3t-import.md, "Encoding"). */
rmg__h3t_encoding rmg__h3t_detect_encoding(const char *data, size_t len);
/* Converts the n bytes at s to NUL-terminated UTF-8 in the arena (bytes that are invalid in
 * the encoding become U+FFFD); NULL on failure. */
char *rmg__h3t_to_utf8(rmg__arena *arena, const char *s, size_t n, rmg__h3t_encoding enc);

/* Appends UTF-8 text to b in the code page (bytes of UTF-8 text stay as they are; a character the
 * page lacks becomes '?'). */
void rmg__h3t_from_utf8(rmg__buf *b, const char *utf8, rmg__h3t_encoding enc);
/* True if every character of the UTF-8 text (NULL: none) has a byte in the code page. */
bool rmg__h3t_fits(const char *utf8, rmg__h3t_encoding enc);

/* Makes a message fragment printable: control characters and bytes that are not valid UTF-8
 * become '?' (in place). */
void rmg__h3t_sanitize(char *s);

/* ---- the reader state shared by the parsers -------------------------------------------- */

/* Warnings are aggregated per kind: one message per kind and pack, naming the first place
 * and the number of occurrences, so a 126-template pack does not produce thousands. */
typedef enum rmg__h3t_warning {
    RMG__H3T_W_TAGS,
    RMG__H3T_W_MIN_OBJECTS,
    RMG__H3T_W_MAX_BLOCK,
    RMG__H3T_W_EXTRA_FIELD,
    RMG__H3T_W_ALLOWED_FACTIONS,
    RMG__H3T_W_FACTION_HINT,
    RMG__H3T_W_HINT_TOKEN,
    RMG__H3T_W_UNKNOWN_OBJECT,
    RMG__H3T_W_UNKNOWN_CREATURE,
    RMG__H3T_W_MIRROR_SR,
    RMG__H3T_W_MIRROR_BARE,
    RMG__H3T_W_MIRROR_CODE,
    RMG__H3T_W_SURPLUS_COLUMN,
    RMG__H3T_W_EXTRA_CELL,
    RMG__H3T_W_STRAY_PACK_CELL,
    RMG__H3T_W_STRAY_MAP_CELL,
    RMG__H3T_W_STRAY_ZONE_CELL,
    RMG__H3T_W_STRAY_CONNECTION_CELL,
    RMG__H3T_W_ZONE_NO_TYPE,
    RMG__H3T_W_ZONE_MANY_TYPES,
    RMG__H3T_W_CONNECTION_MANY_TYPES,
    RMG__H3T_W_PLACEHOLDER_CONNECTION,
    RMG__H3T_W_UNKNOWN_ENDPOINT,
    RMG__H3T_W_COMBO_ARTS,
    RMG__H3T_W_ALL_TOWNS_BANNED,
    RMG__H3T_W_FRACTION,
    RMG__H3T_W_ZONE_MAX_MAP,
    RMG__H3T_W_NUMBER_LIST,
    RMG__H3T_W_MIRROR_NO_ZONE,
    RMG__H3T_W_COUNT
} rmg__h3t_warning;

typedef struct rmg__h3t_note {
    size_t count;
    int row, col;
    char detail[64];
} rmg__h3t_tally;

/* Interned names (object keys, families, creatures): thousands of rules share a few hundred
 * names, so each is copied into the pack's arena once. Open addressing; when the table is
 * full, names are simply copied. */
#define RMG__H3T_INTERN_SLOTS 1024
typedef struct rmg__h3t_interned {
    uint64_t hash;
    char *name;
} rmg__h3t_interned;

typedef struct rmg__h3t_reader {
    rmg_context *ctx;
    struct rmg_pack *pack;
    const char *name;                /* file name for messages */
    int row;                         /* 1-based record number of the current row */
    rmg__h3t_tally notes[RMG__H3T_W_COUNT];
    rmg__h3t_interned names[RMG__H3T_INTERN_SLOTS];
    size_t n_names;
    /* The rules of one cell are collected here (context allocator) and copied into the arena
     * once, so the arena does not keep every intermediate size of a growing rule array. */
    rmg__rule *scratch;
    size_t n_scratch, cap_scratch;
    rmg__rule rule_defaults;         /* a fresh rule as rmg__rules_add makes it */
    bool have_rule_defaults;
    /* Cells of the current row and of the widest header row: a row shorter than the header
     * probably lost a cell, which errors of that row say. */
    size_t row_cells, header_cells;
} rmg__h3t_reader;

/* Records a warning of `kind` at (row, col); `detail` (may be NULL) is kept for the first one. */
void rmg__h3t_note(rmg__h3t_reader *rd, rmg__h3t_warning kind, int col, const char *detail);
/* A parse error at (current row, col): "row R, column C (what): message". */
rmg_status rmg__h3t_error(rmg__h3t_reader *rd, int col, const char *what, const char *fmt, ...) RMG__PRINTF(4, 5);

/* ---- list and rule grammars (h3t_rules.c) ------------------------------------------------ */

/* A cell location for messages: 0-based column and its layout name. */
typedef struct rmg__h3t_cellref {
    int col;
    const char *what;
} rmg__h3t_cellref;

/* Parses a decimal integer (optional sign, surrounding spaces); false if malformed or out
 * of the int64 range (no overflow). */
bool rmg__h3t_parse_int64(const char *s, int64_t *out);

/* "+N -N ..." (spec §6.1) appended to `list`; ids must be in 0..max_id. */
rmg_status rmg__h3t_parse_id_list(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, int max_id,
                                  rmg__override_list *list);
/* "+N -N ..." applied to a mask of ids 0..n_ids-1 that starts with every id set; false if the
 * cell is not such a list or names an id >= n_ids. */
bool rmg__h3t_id_mask(const char *cell, int n_ids, uint32_t *mask);
/* Object rules (spec §6.2/§6.3) appended to `list`. */
rmg_status rmg__h3t_parse_rules(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, rmg__rule_list *list);
/* Town / Terrain / Faction Hint cells (spec §6.4) appended to the zone's type rules. */
typedef enum rmg__h3t_hint { RMG__H3T_HINT_TOWN, RMG__H3T_HINT_TERRAIN, RMG__H3T_HINT_FACTION } rmg__h3t_hint;
rmg_status rmg__h3t_parse_hints(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell, rmg__h3t_hint hint,
                                rmg__zone *zone);
/* One hint token of zone `self` into *out; false when it does not fit the grammar. */
bool rmg__h3t_parse_hint(const char *text, rmg__h3t_hint hint, int self, rmg__type_rule *out);
/* The Border Guard cell of a mirror-link row (spec §8.1): "[x|r] SURFACE UNDERGROUND". */
rmg_status rmg__h3t_parse_mirror_code(rmg__h3t_reader *rd, rmg__h3t_cellref at, const char *cell,
                                      rmg__mirror_link *link);

/* ---- composing cells (h3t_compose.c): the inverse of the grammars above ------------------ */

/* The h3t text of one object rule ("+16 22 d 6000 6 3"); `extra_token` for the 1.8 layouts.
 * False, with the reason in *why, when h3t cannot express it. */
bool rmg__h3t_compose_rule(const rmg__rule *r, bool extra_token, char *buf, size_t cap, const char **why);
/* Which hint cell a type rule belongs to. */
rmg__h3t_hint rmg__h3t_hint_of(const rmg__type_rule *r);
/* The hint token of a type rule of zone `zone` ("pd1_0", "dt2_p"); false when it has none. */
bool rmg__h3t_compose_hint(const rmg__type_rule *r, int zone, char *buf, size_t cap);
/* The Border Guard cell of a mirror link ("r t3 t4"); false when it has none. */
bool rmg__h3t_compose_mirror(const rmg__mirror_link *m, char *buf, size_t cap);
/* Whether a raw text only repeats what its fields compose to (rmg__field.redundant). */
bool rmg__h3t_rule_raw_redundant(const void *rule);
bool rmg__h3t_hint_raw_redundant(const void *type_rule);
bool rmg__h3t_mirror_raw_redundant(const void *link);
bool rmg__h3t_factions_raw_redundant(const void *zone);
/* The ban list ("-3 -7 ") a faction mask stands for among n_ids factions, into buf. */
bool rmg__h3t_compose_bans(uint32_t mask, int n_ids, char *buf, size_t cap);

#endif
