/* rmg info */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg info: not available in this build yet\n");
    return 2;
}
