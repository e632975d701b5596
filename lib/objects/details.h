/*
 * The concrete content of placed objects (details.c): the spells of spell Pandora's boxes and
 * Spell Scrolls, the heroes of Prisons, the amounts of the resources beside mines, and the
 * rewards of Seer's Huts. A pass at the end of the objects stage with its own random streams.
 */
#ifndef RMG_OBJECTS_DETAILS_H
#define RMG_OBJECTS_DETAILS_H

#include "objects_internal.h"

/* Resources beside a mine (MIS-02): the game's random pile sizes, see details.c. */
#define RMG__PILE_GOLD_STEP 100

/* Records on o what the details pass needs from the list entry it was drawn from (the spell
 * level range and schools of spell Pandora's boxes, custom variants included, OBJ-15). */
void rmg__details_note_entry(rmg__map_object *o, const rmg__eff_entry *e);

/* False for a spell Pandora's box (custom variants included, OBJ-15) or Spell Scroll whose every
 * spell the solve stage's bans forbid (`allowed` per spell, NULL: all): it is no candidate. */
bool rmg__details_may_hold_spell(const struct rmg_content *c, const uint8_t *allowed, const rmg__object_def *row,
                                 const rmg__eff_entry *e);

/* Fills the concrete content of every object the objects stage placed (see details.c). Each
 * zone draws from rmg__gen_stream(g, "details", zone id), objects in id order. Problems that
 * leave an object without content become map warnings; RMG_ERR_NOMEM is the only error. */
rmg_status rmg__objects_details(rmg__gen *g);

/* The spell Pandora's box parameters as a level range and school mask: spell_min < 1 means
 * level 1, spell_max < spell_min means spell_min when spell_min was given, else 5; schools
 * <= 0 means all four (the content's and the h3t reader's conventions). */
void rmg__pandora_spell_range(int spell_min, int spell_max, int schools, int *lo, int *hi, int *mask);

/* True if a Spell Scroll of `scroll_level` (1..5, 6 = the special scroll) may hold spell s
 * (OBJ-16). */
bool rmg__scroll_may_hold(const rmg__spell *s, int scroll_level);

/* Pile size range of a resource beside a mine: resource 0 wood .. 6 gold (gold in units of
 * RMG__PILE_GOLD_STEP). */
void rmg__pile_range(int resource, int *lo, int *hi);

#endif
