/* rmg objects */
#include <stdio.h>

#include "commands.h"

int rmg_cmd_objects(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "rmg objects: not available in this build yet\n");
    return 2;
}
