/* Stage names: the words progress reports, errors and the CLI use, and the frozen labels the
 * seed streams of retries and plugins are derived from. */
#include <string.h>

#include "map_internal.h"

static const char *const stage_names[RMG_STAGE_COUNT] = {"select", "solve",   "place", "connect",
                                                         "objects", "guard", "finish"};

/* Seed labels are part of the behavioural promise (same seed, same map): the connect stage keeps
 * the label of its old name, "build". */
static const char *const seed_labels[RMG_STAGE_COUNT] = {"select",  "solve", "place", "build",
                                                         "objects", "guard", "finish"};

const char *rmg__stage_name(rmg_stage_id id)
{
    return (unsigned)id < RMG_STAGE_COUNT ? stage_names[id] : "unknown";
}

const char *rmg__stage_seed_label(rmg_stage_id id)
{
    return (unsigned)id < RMG_STAGE_COUNT ? seed_labels[id] : "unknown";
}

int rmg__stage_by_name(const char *name)
{
    if (!name)
        return -1;
    for (int id = 0; id < RMG_STAGE_COUNT; id++)
        if (strcmp(name, stage_names[id]) == 0)
            return id;
    return strcmp(name, "build") == 0 ? RMG_STAGE_CONNECT : -1;
}
