/*
 * librmg .h3m: maps as the game's own files (Heroes III: Shadow of Death format 0x1C, Horn of
 * the Abyss 1.7.3 format 0x20), written from a generated map and read back into a map.
 * docs/h3m-export.md says what is written and how each field is chosen.
 *
 * Stability: stable (since 0.4.0).
 */
#ifndef RMG_H3M_H
#define RMG_H3M_H

#include "rmg/core.h"
#include "rmg/map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The game a file is for. */
typedef enum rmg_h3m_edition {
    RMG_H3M_AUTO = 0,  /* the map's ruleset decides: SoD for the SoD ruleset, else HotA */
    RMG_H3M_SOD = 1,   /* Shadow of Death (also read by HD, HotA and VCMI); SoD content only */
    RMG_H3M_HOTA = 2   /* Horn of the Abyss 1.7.3 (read by HotA 1.7.3, 1.8 and VCMI) */
} rmg_h3m_edition;

typedef struct rmg_h3m_options {
    size_t struct_size;
    rmg_h3m_edition edition;   /* default RMG_H3M_AUTO */
} rmg_h3m_options;

RMG_API void rmg_h3m_options_init(rmg_h3m_options *options);

/* The .h3m file of a map (gzip, as the game writes it): *out is allocated through the context's
 * allocator (free with rmg_free). options may be NULL for the defaults. RMG_ERR_UNSUPPORTED when
 * the edition cannot hold the map (a non-square or non-standard size; for SoD, HotA content:
 * the message names the first HotA thing). The same map gives the same bytes. */
RMG_API rmg_status rmg_map_to_h3m(const rmg_map *map, const rmg_h3m_options *options, unsigned char **out,
                                  size_t *len);
/* Writes the file; nothing is written when the map cannot be. */
RMG_API rmg_status rmg_map_save_h3m(const rmg_map *map, const char *path, const rmg_h3m_options *options);

/* Reads an .h3m file (gzip or the uncompressed stream; SoD, and HotA up to 1.8 without scripts)
 * into a map: terrain, roads, every object with its footprint (object keys of the content where
 * the class is known, else "h3m_<class>_<subclass>"), the name and description; no zones.
 * A malformed file gives RMG_ERR_PARSE with its byte offset, a format this reader does not take
 * RMG_ERR_UNSUPPORTED. The map belongs to the caller (rmg_map_destroy). */
RMG_API rmg_status rmg_map_load_h3m(rmg_context *ctx, const char *path, rmg_map **out);
RMG_API rmg_status rmg_map_from_h3m(rmg_context *ctx, const void *data, size_t len, const char *name, rmg_map **out);

#ifdef __cplusplus
}
#endif

#endif
