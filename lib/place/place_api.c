/* Public place API: layout preview and the placement report accessors (include/rmg/place.h). */
#include <stddef.h>
#include <string.h>

#include "place_internal.h"

#define PREVIEW_SIDE 72   /* size M */

typedef struct preview {
    rmg__gen g;
    bool *zone_active, *conn_active;
    int *zone_map_id;
} preview;

static rmg_status preview_options(rmg_context *ctx, const rmg_generate_options *in, const rmg__template *t,
                                  rmg_generate_options *out)
{
    rmg_generate_options_init(out);
    if (in) {
        if (in->struct_size < offsetof(rmg_generate_options, water) + sizeof in->water)
            return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_place_preview: options struct_size too small");
        out->width = in->width;
        out->height = in->height;
        out->levels = in->levels;
        out->water = in->water;
    }
    out->width = out->width ? out->width : PREVIEW_SIDE;
    out->height = out->height ? out->height : out->width;
    out->levels = out->levels ? out->levels : 1;
    out->water = rmg__template_water(t, out->water); /* the template's choice by default (issue 30) */
    if (out->width < 1 || out->height < 1 || out->width > RMG__MAX_SIDE || out->height > RMG__MAX_SIDE ||
        out->levels < 1 || out->levels > 2 || (unsigned)out->water > RMG_WATER_ISLANDS)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_place_preview: map %dx%dx%d (water %d) is out of range",
                              out->width, out->height, out->levels, (int)out->water);
    return RMG_OK;
}

static rmg_status preview_setup(preview *p, rmg_context *ctx, const rmg_pack *pack, const rmg__template *t)
{
    memset(p, 0, sizeof *p);
    p->zone_active = rmg__calloc(ctx, t->n_zones + 1, sizeof *p->zone_active);
    p->conn_active = rmg__calloc(ctx, t->n_connections + 1, sizeof *p->conn_active);
    p->zone_map_id = rmg__calloc(ctx, t->n_zones + 1, sizeof *p->zone_map_id);
    if (!p->zone_active || !p->conn_active || !p->zone_map_id)
        return rmg__error_nomem(ctx);
    for (size_t i = 0; i < t->n_zones; i++)
        p->zone_active[i] = true;
    for (size_t i = 0; i < t->n_connections; i++)
        p->conn_active[i] = true;
    p->g.ctx = ctx;
    p->g.pack = pack;
    p->g.tpl = t;
    p->g.zone_active = p->zone_active;
    p->g.conn_active = p->conn_active;
    p->g.zone_map_id = p->zone_map_id;
    p->g.root_seed = rmg_context_seed(ctx); /* the seed rmg_generate's first attempt uses */
    return RMG_OK;
}

static void preview_release(preview *p, rmg_context *ctx)
{
    rmg__free(ctx, p->zone_active);
    rmg__free(ctx, p->conn_active);
    rmg__free(ctx, p->zone_map_id);
}

rmg_status rmg_place_preview(rmg_context *ctx, const rmg_pack *pack, size_t template_index,
                             const rmg_generate_options *options, rmg_map **out)
{
    if (!ctx)
        return RMG_ERR_INVALID_ARG;
    rmg__work_begin(ctx);
    if (!pack || !out)
        return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_place_preview: NULL argument");
    *out = NULL;
    if (template_index >= pack->n_templates)
        return rmg__error_set(ctx, RMG_ERR_NOT_FOUND, "rmg_place_preview: template %zu of %zu", template_index,
                              pack->n_templates);
    preview p;
    rmg_generate_options opt;
    rmg_status st = preview_options(ctx, options, &pack->templates[template_index], &opt);
    if (st != RMG_OK)
        return st;
    st = preview_setup(&p, ctx, pack, &pack->templates[template_index]);
    p.g.opt = opt;
    if (st == RMG_OK)
        st = rmg__map_new(ctx, opt.width, opt.height, opt.levels, &p.g.map);
    if (st == RMG_OK) {
        p.g.map->options = opt;
        p.g.map->seed = p.g.root_seed;
        st = rmg__stage_place(&p.g);
    }
    preview_release(&p, ctx);
    if (st != RMG_OK) {
        rmg__map_free(p.g.map);
        return st;
    }
    *out = p.g.map;
    return RMG_OK;
}

/* ---- report accessors ----------------------------------------------------------------------- */

size_t rmg_place_zone_count(const rmg_map *map)
{
    return map && map->place_report ? map->place_report->n_zones : 0;
}

rmg_status rmg_place_zone_get(const rmg_map *map, size_t index, rmg_place_zone_info *out)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    if (index >= rmg_place_zone_count(map) || index >= map->zones.count)
        return RMG_ERR_NOT_FOUND;
    const rmg__map_zone *z = &map->zones.items[index];
    const rmg__place_zone_report *r = &map->place_report->zones[index];
    rmg_place_zone_info f;
    memset(&f, 0, sizeof f);
    f.struct_size = sizeof f;
    f.id = z->id;
    f.template_zone = z->tpl_id;
    f.kind = z->kind;
    f.level = z->level;
    f.center_x = z->cx;
    f.center_y = z->cy;
    f.tiles = z->n_tiles;
    f.cell_col = r->cell_col;
    f.cell_row = r->cell_row;
    f.land_share = r->land_share;
    f.weight_share = r->weight_share;
    f.mirror_of = r->mirror_of;
    f.links = r->links;
    f.links_met = r->links_met;
    return rmg__struct_out(out, &f, sizeof f, offsetof(rmg_place_zone_info, tiles) + sizeof f.tiles);
}

size_t rmg_place_link_count(const rmg_map *map)
{
    return map && map->place_report ? map->place_report->n_links : 0;
}

rmg_status rmg_place_link_get(const rmg_map *map, size_t index, rmg_place_link_info *out)
{
    if (!map || !out)
        return RMG_ERR_INVALID_ARG;
    if (index >= rmg_place_link_count(map))
        return RMG_ERR_NOT_FOUND;
    const rmg__place_link_report *r = &map->place_report->links[index];
    rmg_place_link_info f;
    memset(&f, 0, sizeof f);
    f.struct_size = sizeof f;
    f.template_index = r->tpl_index;
    f.zone_a = r->zone_a;
    f.zone_b = r->zone_b;
    f.placement = r->placement;
    f.adjacent = r->border;
    f.stacked = r->stacked;
    f.met = r->met;
    return rmg__struct_out(out, &f, sizeof f, offsetof(rmg_place_link_info, met) + sizeof f.met);
}

/* Since 0.6.0: struct_size set, every field zero or its "none" value (issue 29). */
void rmg_place_zone_info_init(rmg_place_zone_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->cell_col = info->cell_row = -1;
}
void rmg_place_link_info_init(rmg_place_link_info *info)
{
    if (!rmg__struct_init(info, sizeof *info))
        return;
    info->template_index = -1;
}

/* The names before 0.6.0 (deprecated, ABI.md): still exported for the programs that call them. */
rmg_status rmg_place_zone(const rmg_map *map, size_t index, rmg_place_zone_info *out)
{
    return rmg_place_zone_get(map, index, out);
}

rmg_status rmg_place_link(const rmg_map *map, size_t index, rmg_place_link_info *out)
{
    return rmg_place_link_get(map, index, out);
}
