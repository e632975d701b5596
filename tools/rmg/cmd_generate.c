/* rmg generate */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_generate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg generate: not available in this build yet\n");
    return 2;
}
