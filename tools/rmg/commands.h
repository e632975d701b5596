/* The rmg command's subcommands: one file each (cmd_<name>.c), dispatched by main.c. */
#ifndef RMG_TOOL_COMMANDS_H
#define RMG_TOOL_COMMANDS_H

#include <stdbool.h>

/* Exit codes everywhere: 0 success, 1 the template cannot produce a map / check found errors,
 * 2 bad usage or unreadable input. argv[0] is the subcommand name. */
int rmg_cmd_generate(int argc, char **argv);
int rmg_cmd_check(int argc, char **argv);
int rmg_cmd_convert(int argc, char **argv);
int rmg_cmd_objects(int argc, char **argv);
int rmg_cmd_guard(int argc, char **argv);
int rmg_cmd_info(int argc, char **argv);
int rmg_cmd_stats(int argc, char **argv);
int rmg_cmd_render(int argc, char **argv);
int rmg_cmd_balance(int argc, char **argv);
/* rmg info MAP.h3m [--json]: what an .h3m file holds (cmd_h3m.c). */
int rmg_cmd_info_h3m(const char *path, bool json);

#endif
