/* The picture of a balance report (rmg balance -o balance.png). */
#ifndef RMG_TOOL_BALANCE_PNG_H
#define RMG_TOOL_BALANCE_PNG_H

#include "rmg/rmg.h"

/* Writes the picture; 0 on success. */
int cli_balance_png(rmg_context *ctx, const rmg_map *map, const rmg_balance *b, const char *path);

#endif
