/*
 * Template importers: each reads one file format into the internal model (model.h).
 * On success *out is a new pack (free with rmg__pack_free); on failure *out is NULL and the
 * context carries the error with row/column (or line/column) of the problem.
 */
#ifndef RMG_TEMPLATE_IMPORTERS_H
#define RMG_TEMPLATE_IMPORTERS_H

#include <stddef.h>

#include "model.h"

/* HotA h3t / rmg.txt and SoD rmg.txt (detected by the first cell: "Pack" or "Map"). */
rmg_status rmg__h3t_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out);
/* For rmg check: a defect of a row is kept in the pack's load_errors and reading goes on with the
 * next row (a defect that leaves nothing to read by, such as missing field counts, still fails). */
rmg_status rmg__h3t_read_checked(rmg_context *ctx, const char *data, size_t len, const char *name,
                                 struct rmg_pack **out);
/* rmg check's reading of a template file: the readers go on after a defect of the input where
 * they can (the pack's load_errors hold them; rmg_pack_validate reports them as errors). An
 * unreadable file, or a defect that ends the reading, fails as rmg_pack_load does. */
rmg_status rmg__pack_load_checked(rmg_context *ctx, const char *path, rmg_template_format format, rmg_pack **out);
/* The pack as a HotA .h3t file (h3t/h3t_write.c); `options` is complete (never NULL). */
rmg_status rmg__h3t_write(const struct rmg_pack *pack, const rmg_h3t_write_options *options, char **out,
                          size_t *len);
/* VCMI JSON templates. */
rmg_status rmg__vcmi_read(rmg_context *ctx, const char *data, size_t len, const char *name, struct rmg_pack **out);

#endif
