/* rmg guard */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_guard(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg guard: not available in this build yet\n");
    return 2;
}
