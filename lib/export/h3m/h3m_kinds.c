/*
 * Which .h3m object a map object is: its class and subclass, and the template (def and masks)
 * the file gives it. The template must block and open exactly the tiles the generator planned
 * with (the object's footprint), so the written map plays as generated: the row is chosen
 * among those of the object's class and subclass whose masks equal the footprint.
 */
#include <string.h>

#include "h3m_kinds.h"

/* ---- templates --------------------------------------------------------------------------------- */

void rmg__h3m_template_masks(const rmg__h3m_known_template *t, uint64_t *block, uint64_t *visit)
{
    *block = *visit = 0;
    for (int row = 0; row < 6; row++) {
        *block |= (uint64_t)(uint8_t)~t->passable[row] << (row * 8);
        *visit |= (uint64_t)t->visitable[row] << (row * 8);
    }
}

/* First row of (cls, subclass) in the sorted table, or the table's size. */
static size_t first_row(int cls, int subclass)
{
    size_t lo = 0, hi = rmg__h3m_n_known_templates;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const rmg__h3m_known_template *t = &rmg__h3m_known_templates[mid];
        if (t->cls < cls || (t->cls == cls && t->subclass < subclass))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int lower_ascii(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

bool rmg__h3m_same_def(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lower_ascii((unsigned char)*a) != lower_ascii((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Stage letter of a town def (the letter before the trailing digit): HotA's f(ort), c(itadel),
 * z (capitol), SoD's x (castle); anything else is the village. */
static char town_stage(const char *def)
{
    const char *dot = strchr(def, '.');
    size_t n = dot ? (size_t)(dot - def) : strlen(def);
    return (char)(n >= 2 ? lower_ascii((unsigned char)def[n - 2]) : 0);
}

/* Mask m moved dx columns within each row of the 8-column box (dx > 0: towards column 0); false
 * when a tile would leave the box. */
static bool move_columns(uint64_t m, int dx, uint64_t *out)
{
    uint64_t keep = 0; /* the columns whose tiles have a column to go to */
    for (int row = 0; row < 6; row++)
        keep |= (uint64_t)((dx >= 0 ? 0xFFu << dx : 0xFFu >> -dx) & 0xFFu) << (row * 8);
    if (m & ~keep)
        return false;
    *out = dx >= 0 ? m >> dx : m << -dx;
    return true;
}

/* How many tiles right of the map's anchor the object is written so that this row covers the
 * same tiles as its footprint (0 when the masks are equal; the HotA 1.7 editor draws monsters
 * one tile left of the anchor: 1; a quest artifact placed with its Seer's Hut's shape: -1);
 * RMG__H3M_NO_SHIFT when no shift of up to two columns fits. */
static int column_shift(const rmg__h3m_known_template *t, const rmg__h3m_want *w)
{
    uint64_t block, visit;
    rmg__h3m_template_masks(t, &block, &visit);
    static const int order[] = {0, 1, -1, 2, -2};
    for (size_t k = 0; k < RMG__ARRAY_LEN(order); k++) {
        uint64_t b, v;
        if (move_columns(w->block, order[k], &b) && move_columns(w->visit, order[k], &v) && b == block && v == visit)
            return order[k];
    }
    return RMG__H3M_NO_SHIFT;
}

/* How well a row suits the object (higher is better, -1 unusable); *shift as column_shift. */
static int row_score(const rmg__h3m_known_template *t, const rmg__h3m_want *w, int *shift)
{
    if (w->def && !rmg__h3m_same_def(t->def, w->def))
        return -1;
    if (!w->hota && t->edition != RMG__H3M_EDITION_SOD)
        return -1;
    if ((*shift = column_shift(t, w)) == RMG__H3M_NO_SHIFT)
        return -1;
    int score = *shift == 0 ? 1 : 0; /* the footprint as it is, where a row has it */
    if (w->terrain >= 0 && w->terrain < 16 && (t->terrains & (1u << w->terrain)))
        score += 8; /* the editor would let it stand on this terrain */
    if (w->terrain >= 0 && w->terrain < 16 && (t->menu & (1u << w->terrain)))
        score += 2; /* the sprite drawn for this terrain (a snowy sawmill on snow), as the game's maps have */
    if (w->hota == (t->edition == RMG__H3M_EDITION_HOTA))
        score += 4; /* HotA maps: HotA's own rows where they exist */
    if (t->cls == 98) {
        char s = town_stage(t->def);
        bool fort = s == 'f' || (s == 'x' && !w->hota);
        bool village = s != 'f' && s != 'x' && s != 'c' && s != 'z';
        score += (w->castle ? fort : village) ? 16 : 0;
    }
    return score;
}

const rmg__h3m_known_template *rmg__h3m_pick_template(int cls, int subclass, const rmg__h3m_want *want, int *shift)
{
    const rmg__h3m_known_template *best = NULL;
    int best_score = -1, dx = 0;
    *shift = 0;
    for (size_t i = first_row(cls, subclass);
         i < rmg__h3m_n_known_templates && rmg__h3m_known_templates[i].cls == cls && rmg__h3m_known_templates[i].subclass == subclass;
         i++) {
        int s = row_score(&rmg__h3m_known_templates[i], want, &dx);
        if (s > best_score) { /* ties: table order (SoD rows first) */
            best_score = s;
            best = &rmg__h3m_known_templates[i];
            *shift = dx;
        }
    }
    return best;
}

/* The terrain the object stands on: under its entry, else under its anchor when that lies on
 * the map, else its zone's. */
int rmg__h3m_object_terrain(const struct rmg_map *m, const rmg__map_object *o)
{
    int x = o->x, y = o->y;
    uint64_t visit = o->visit & ((UINT64_C(1) << 48) - 1); /* the footprint's 6 rows of 8 */
    if (visit) { /* the last entry cell (an obstacle has none: its anchor) */
        int bit = rmg__high_bit64(visit);
        x = o->x - (7 - bit % 8);
        y = o->y - (5 - bit / 8);
    }
    if (x >= 0 && y >= 0 && x < m->width && y < m->height)
        return m->terrain[rmg__tile(m->width, m->height, x, y, o->z)];
    return o->zone > 0 && (size_t)o->zone <= m->zones.count ? m->zones.items[o->zone - 1].terrain : -1;
}

const rmg__h3m_known_template *rmg__h3m_object_template(const struct rmg_map *m, const rmg__map_object *o, bool hota,
                                                  int *cls, int *subclass, int *shift)
{
    *shift = 0;
    const struct rmg_content *c = rmg__content_peek(m->ctx);
    if (!c || !rmg__map_object_class(c, o, cls, subclass))
        return NULL;
    const rmg__object_def *d = rmg__map_object_def(c, o->key);
    rmg__h3m_want w = {o->block, o->visit, NULL, rmg__h3m_object_terrain(m, o), hota, o->castle};
    if (o->kind == RMG_OBJECT_OBSTACLE)
        w.def = d->def; /* an obstacle is its sprite: the class holds many of every shape */
    return rmg__h3m_pick_template(*cls, *subclass, &w, shift);
}
