/* rmg check */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg check: not available in this build yet\n");
    return 2;
}
