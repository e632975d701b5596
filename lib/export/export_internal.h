/* Internal helpers shared by the exporters (JSON, text, PNG). */
#ifndef RMG_EXPORT_INTERNAL_H
#define RMG_EXPORT_INTERNAL_H

#include "map/map_internal.h"

/* Key of a terrain id in the JSON contract's terrain_keys ("unknown" if out of range). */
const char *rmg__terrain_key(int terrain_id);
/* Faction key ("neutral" for RMG_FACTION_NEUTRAL), NULL when unknown. */
const char *rmg__faction_key(const struct rmg_content *c, int faction);
/* Appends a JSON string literal. */
void rmg__json_string(rmg__buf *b, const char *s);
/* The JSON document; with_fingerprint false gives the canonical form that is hashed. */
rmg_status rmg__map_json(const struct rmg_map *m, bool with_fingerprint, char **out, size_t *len);

#endif
