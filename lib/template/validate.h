/*
 * Template validation internals. A check is a function over one template that adds messages;
 * the checks run in the order of the table in validate.c. Another module adds its own check
 * by declaring a function of type rmg__template_check in its header and appending one line to
 * that table (the content checks below are registered the same way).
 */
#ifndef RMG_TEMPLATE_VALIDATE_H
#define RMG_TEMPLATE_VALIDATE_H

#include "model.h"

typedef struct rmg__checker {
    const struct rmg_pack *pack;
    struct rmg_validation *out;
    rmg_status status;             /* RMG_ERR_NOMEM once adding a message failed */
    long template_index;
    rmg__zone_key *zone_keys;      /* the current template's zones sorted by (id, index) */
    size_t n_zone_keys;
    bool errors_only;              /* warnings are dropped (the generator's check) */
    int water;                     /* the water level the check is for, -1: those the template names */
} rmg__checker;

/* Index of the first zone numbered `id` in the current template, or -1 (O(log n)). */
long rmg__check_find_zone(const rmg__checker *ck, int id);
/* Scratch memory that lives as long as the validation result (NULL after a failure, which is
 * then recorded in ck->status). */
void *rmg__check_alloc(rmg__checker *ck, size_t count, size_t size);

typedef void (*rmg__template_check)(rmg__checker *ck, const rmg__template *t);

/* Adds a message. `loc` may be NULL; zone is a zone number or -1; connection an index or -1.
 * `code` must be a string literal (kept by pointer). */
void rmg__check_report(rmg__checker *ck, rmg_severity severity, const char *code, const rmg__srcloc *loc, int zone,
                       int connection, const char *fmt, ...) RMG__PRINTF(7, 8);

/* Checks against the game content (validate_content.c): rule names the content does not know,
 * and TRS-10 treasure-range starvation. */
void rmg__check_rule_names(rmg__checker *ck, const rmg__template *t);
void rmg__check_treasure_starvation(rmg__checker *ck, const rmg__template *t);
/* Issue 30: the object rules of t naming what the ruleset's variant left out (HotA objects,
 * creatures, families on a SoD map), which change nothing on its maps: one line naming them all
 * in *text (allocated with ctx; NULL when there are none) and the first such rule's place in
 * *loc (may be NULL). rmg check warns with it ("rule-dropped"), the driver puts it among the
 * map's warnings. */
rmg_status rmg__template_dropped_rules(rmg_context *ctx, const struct rmg_content *c, const rmg__template *t,
                                       char **text, const rmg__srcloc **loc);
/* Object rules that change nothing in the end (RUL-04/05, RUL-12), validate_content.c. */
void rmg__check_rule_effects(rmg__checker *ck, const rmg__template *t);
/* Zones whose treasure densities ask for fewer than 20 tiles per group (validate_content.c). */
void rmg__check_treasure_crowding(rmg__checker *ck, const rmg__template *t);

#endif
