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
/* The setup rmg_generate makes of `asked` for template t of the pack (*o, open options
 * resolved, mirror packs included) and whether t accepts it; if not, why (why may be NULL). */
bool rmg__select_setup(const struct rmg_pack *pack, const rmg__template *t, const rmg_generate_options *asked,
                       rmg_generate_options *o, char *why, size_t whylen);

#endif
