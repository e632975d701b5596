/* Internal helpers shared by the exporters (text, PNG, h3m). The JSON document is the map's
 * canonical serialization and lives with the map (lib/map/map_json.c, declared in
 * map/map_internal.h), because the fingerprint hashes it. */
#ifndef RMG_EXPORT_INTERNAL_H
#define RMG_EXPORT_INTERNAL_H

#include "map/map_internal.h"

#endif
