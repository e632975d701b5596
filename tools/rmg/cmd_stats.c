/* rmg stats */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_stats(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg stats: not available in this build yet\n");
    return 2;
}
