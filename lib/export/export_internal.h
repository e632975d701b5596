/* Internal helpers shared by the exporters (text, PNG, h3m). The JSON document is the map's
 * canonical serialization and lives with the map (lib/map/map_json.c, declared in
 * map/map_internal.h), because the fingerprint hashes it. */
#ifndef RMG_EXPORT_INTERNAL_H
#define RMG_EXPORT_INTERNAL_H

#include "map/map_internal.h"

/* The PNG preview's colours (png.c), one table for the picture and its legend: entry i's
 * meaning and its 0xRRGGBB in *value (the blocked-tile entry holds a brightness share 0xNNDD,
 * NN/DD), NULL past the last. */
const char *rmg__png_legend(size_t i, uint32_t *value);
/* The colour of terrain `id` in the preview: the ruleset's (c may be NULL), else a fallback. */
uint32_t rmg__png_terrain_rgb(const struct rmg_content *c, int id);

#endif
