/* The rmg command. */
#include <stdio.h>
#include <string.h>

#include "rmg/rmg.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("rmg %s\n", rmg_version_string());
        return 0;
    }
    fprintf(stderr, "usage: rmg --version\n");
    return 2;
}
