/* A generated map as an .h3m document (h3m_export.c) and an .h3m document as a map
 * (h3m_import.c). */
#ifndef RMG_H3M_EXPORT_H
#define RMG_H3M_EXPORT_H

#include "export/export_internal.h"
#include "h3m_doc.h"

/* The document of map m for HotA 1.7.3 (hota) or SoD. RMG_ERR_UNSUPPORTED when the format
 * cannot hold the map (a size it lacks; for SoD, the first HotA thing the map holds), with the
 * reason in the context's error. */
rmg_status rmg__h3m_from_map(const struct rmg_map *m, bool hota, rmg__h3m_doc **out);

/* Why the .h3m format (HotA when hota, else SoD) cannot hold a map of width x height, written
 * to buf (and returned), or NULL when it can: the exporter's refusal, which `rmg generate` also
 * tells before generating. */
const char *rmg__h3m_size_refusal(int width, int height, bool hota, char *buf, size_t size);

#endif
