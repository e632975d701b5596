/* Public API of the objects module (rmg/objects.h): effective object lists without generating. */
#include <string.h>

#include "objects_internal.h"

struct rmg_object_list {
    rmg_context *ctx;
    const struct rmg_content *content;
    rmg__eff_list list;
    size_t *present;               /* indexes of the entries in the list */
    size_t n_present;
};

void rmg_object_info_init(rmg_object_info *info)
{
    if (!info)
        return;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
}

static rmg_status find_template(rmg_context *ctx, const rmg_pack *pack, size_t template_index, int zone_id,
                                const rmg__template **tpl, long *zone_index)
{
    *tpl = NULL;
    *zone_index = -1;
    if (!pack)
        return zone_id < 0 ? RMG_OK
                           : rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "zone %d: the built-in defaults have no zones",
                                            zone_id);
    if (template_index >= pack->n_templates)
        return rmg__error_set(ctx, RMG_ERR_NOT_FOUND, "template index %zu: the pack has %zu templates", template_index,
                              pack->n_templates);
    *tpl = &pack->templates[template_index];
    if (zone_id < 0)
        return RMG_OK;
    *zone_index = rmg__template_find_zone(*tpl, zone_id);
    if (*zone_index < 0)
        return rmg__error_set(ctx, RMG_ERR_NOT_FOUND, "template '%s' has no zone %d",
                              (*tpl)->name ? (*tpl)->name : "", zone_id);
    return RMG_OK;
}

rmg_status rmg_objects_effective(rmg_context *ctx, const rmg_pack *pack, size_t template_index, int zone_id,
                                 rmg_object_list **out)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    if (!out)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_objects_effective: out is NULL");
    *out = NULL;
    const rmg__template *tpl;
    long zone_index;
    rmg_status st = find_template(ctx, pack, template_index, zone_id, &tpl, &zone_index);
    if (st != RMG_OK)
        return st;
    const struct rmg_content *content = rmg__content_get(ctx);
    if (!content)
        return rmg_context_errcode(ctx) != RMG_OK ? rmg_context_errcode(ctx) : RMG_ERR_INTERNAL;
    rmg_object_list *l = rmg__calloc(ctx, 1, sizeof *l);
    if (!l)
        return rmg__error_nomem(ctx);
    /* Both given back by rmg_object_list_destroy: the list reads this ruleset even after the
     * context gets another one. */
    l->ctx = rmg__context_retain(ctx);
    l->content = rmg__content_retain(content);
    st = rmg__eff_build(ctx, content, tpl, zone_index, pack ? pack->file : NULL, &l->list);
    if (st != RMG_OK) {
        rmg__free(ctx, l);
        rmg__content_release(content);
        rmg__context_release(ctx);
        return st;
    }
    l->present = rmg__malloc(ctx, (l->list.items.count + 1) * sizeof *l->present);
    if (!l->present) {
        rmg_object_list_destroy(l);
        return rmg__error_nomem(ctx);
    }
    for (size_t i = 0; i < l->list.items.count; i++)
        if (l->list.items.items[i].present)
            l->present[l->n_present++] = i;
    *out = l;
    return RMG_OK;
}

size_t rmg_object_list_count(const rmg_object_list *list)
{
    return list ? list->n_present : 0;
}

/* TSV "n/a" for caps that are not numbers (rule, n/a); yes/no otherwise. */
static int fixed_flag(int64_t def_cap, bool fixed)
{
    if (def_cap == RMG__RULE || def_cap == RMG__NA)
        return -1;
    return fixed ? 1 : 0;
}

rmg_status rmg_object_list_get(const rmg_object_list *list, size_t index, rmg_object_info *info)
{
    if (!list || !info || info->struct_size < sizeof(size_t) || index >= list->n_present)
        return list ? rmg__error_set(list->ctx, RMG_ERR_INVALID_ARG, "rmg_object_list_get: bad index or info")
                    : RMG_ERR_INVALID_ARG;
    const rmg__eff_entry *e = &list->list.items.items[list->present[index]];
    const rmg__object_def *d = &list->content->objects[e->obj];
    rmg_object_info full;
    rmg_object_info_init(&full);
    full.key = d->key;
    full.english_name = d->name;
    full.russian_name = d->name_ru;
    full.family = d->family;
    full.creature = e->creature >= 0 ? list->content->creatures[e->creature].key : NULL;
    full.custom = e->custom;
    full.value = e->value;
    full.frequency = e->frequency;
    full.max_map = e->max_map;
    full.max_zone = e->max_zone;
    full.max_map_fixed = fixed_flag(d->max_map, d->max_map_fixed);
    full.max_zone_fixed = fixed_flag(d->max_zone, d->max_zone_fixed);
    full.terrains = d->terrains;
    full.banned_by_default = d->banned_by_default;
    full.amount = e->amount;
    full.notes = d->notes;
    size_t n = RMG__MIN(info->struct_size, sizeof full);
    size_t caller = info->struct_size;
    memcpy(info, &full, n);
    info->struct_size = caller;
    return RMG_OK;
}

void rmg_object_list_destroy(rmg_object_list *list)
{
    if (!list)
        return;
    rmg_context *ctx = list->ctx;
    rmg__eff_free(&list->list);
    rmg__free(ctx, list->present);
    const struct rmg_content *content = list->content;
    rmg__free(ctx, list);
    rmg__content_release(content);
    rmg__context_release(ctx);
}
