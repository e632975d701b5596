/* Lookups in the generated h3t tables (h3t_classes.c): object classes, object keys, creatures. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "h3t.h"

/* First index of a table sorted by an int member (at `offset` in elements of `size` bytes)
 * whose key is >= key. */
static size_t lower_bound(const void *table, size_t n, size_t size, size_t offset, int key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int k;
        memcpy(&k, (const unsigned char *)table + mid * size + offset, sizeof k);
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t first_object_of_class(int cls)
{
    return lower_bound(rmg__h3t_objects, rmg__h3t_n_objects, sizeof rmg__h3t_objects[0],
                       offsetof(rmg__h3t_object, cls), cls);
}

const rmg__h3t_object *rmg__h3t_find_object(int cls, int sub)
{
    const rmg__h3t_object *wide = NULL;
    for (size_t i = first_object_of_class(cls); i < rmg__h3t_n_objects && rmg__h3t_objects[i].cls == cls; i++) {
        if (rmg__h3t_objects[i].sub == sub)
            return &rmg__h3t_objects[i];
        if (rmg__h3t_objects[i].sub == -1)
            wide = &rmg__h3t_objects[i];
    }
    return wide;
}

const rmg__h3t_class_target *rmg__h3t_find_class_targets(int cls, size_t *n)
{
    size_t i = 0;
    while (i < rmg__h3t_n_class_targets && rmg__h3t_class_targets[i].cls != cls)
        i++;
    size_t j = i;
    while (j < rmg__h3t_n_class_targets && rmg__h3t_class_targets[j].cls == cls)
        j++;
    *n = j - i;
    return j > i ? &rmg__h3t_class_targets[i] : NULL;
}

static int compare_key(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

bool rmg__h3t_is_object_key(const char *key)
{
    return bsearch(key, rmg__h3t_keys, rmg__h3t_n_keys, sizeof rmg__h3t_keys[0], compare_key) != NULL;
}

const rmg__h3t_creature *rmg__h3t_find_creature(int id)
{
    size_t i = lower_bound(rmg__h3t_creatures, rmg__h3t_n_creatures, sizeof rmg__h3t_creatures[0],
                           offsetof(rmg__h3t_creature, id), id);
    return i < rmg__h3t_n_creatures && rmg__h3t_creatures[i].id == id ? &rmg__h3t_creatures[i] : NULL;
}
