/* rmg convert */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg convert: not available in this build yet\n");
    return 2;
}
