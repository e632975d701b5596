/*
 * The select stage (select_stage.c) and the pack selection behind rmg_pack_select
 * (select_pack.c). Both read the template model's acceptance filters (lib/template/filters.c).
 */
#ifndef RMG_SELECT_INTERNAL_H
#define RMG_SELECT_INTERNAL_H

#include "map/map_internal.h"
#include "rmg/template.h"

/* The stage's entry point: draws the template (PCK-02) into g->tpl with the resolved options in
 * g->opt, and marks the zones and connections that exist for that setup. */
rmg_status rmg__stage_select(rmg__gen *g, const rmg_generate_options *asked);

/* The setup as the user asked for it, in the user's words: "M+U, 3 players, 1 human" (what was
 * left open says so). */
void rmg__describe_setup(const rmg_generate_options *asked, char *buf, size_t len);
/* Fills the options the caller left open with values template t supports. */
void rmg__resolve_options(const rmg__template *t, rmg_generate_options *o);
/* The player counts a template's filters see: the map's, but on a mirror pack those of one
 * level (half the players; the humans among them, at most that many). */
void rmg__level_counts(const struct rmg_pack *pack, int players, int humans, int *level_players, int *level_humans);
/* The setup rmg_generate makes of `asked` for template t of the pack (*o, open options
 * resolved, mirror packs included) and whether t accepts it; if not, why (why may be NULL). */
bool rmg__select_setup(const struct rmg_pack *pack, const rmg__template *t, const rmg_generate_options *asked,
                       rmg_generate_options *o, char *why, size_t whylen);
/* Keeps a note for the map's warnings (g->select_notes; the driver adds them to each map). */
rmg_status rmg__select_note(rmg__gen *g, const char *fmt, ...) RMG__PRINTF(2, 3);

#endif
