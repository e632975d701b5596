/* rmg_pack_select: the template a setup would get from a pack (PCK-02), uniform among those
 * that accept it (lib/template/filters.c), drawn from the given RNG stream. */
#include <stdio.h>
#include <string.h>

#include "select_internal.h"

/* The setup as the user asked for it: "M+U, 3 players, 1 human" (what was left open says so). */
void rmg__describe_setup(const rmg_generate_options *asked, char *buf, size_t len)
{
    char size[64] = "any size";
    if (asked->width > 0 && asked->height > 0) {
        char name[24];
        int code = rmg__size_code(asked->width, asked->height, asked->levels ? asked->levels : 1);
        rmg__size_name(code, name, sizeof name);
        if (strncmp(name, "size code", 9) == 0 || asked->width != asked->height)
            snprintf(name, sizeof name, "%dx%d%s", asked->width, asked->height, asked->levels == 2 ? "+U" : "");
        snprintf(size, sizeof size, "%s%s", name, asked->levels ? "" : " (one or two levels)");
    } else if (asked->levels) {
        snprintf(size, sizeof size, "any size %s an underground", asked->levels == 2 ? "with" : "without");
    }
    int humans = asked->humans > 0 ? asked->humans : 1;
    char players[40] = "any number of players";
    if (asked->players > 0)
        snprintf(players, sizeof players, "%d player%s", asked->players, asked->players == 1 ? "" : "s");
    snprintf(buf, len, "%s, %s, %d human%s", size, players, humans, humans == 1 ? "" : "s");
}

static rmg_status none_fits(const struct rmg_pack *pack, const rmg_generate_options *o)
{
    char setup[160];
    rmg__describe_setup(o, setup, sizeof setup);
    rmg__buf b;
    rmg__buf_init(&b, pack->ctx);
    for (size_t i = 0; i < pack->n_templates; i++) {   /* one line per template: why it refuses */
        char why[400];
        rmg__template_fits(&pack->templates[i], o, why, sizeof why);
        rmg__buf_printf(&b, "\n  template '%s': %s", pack->templates[i].name ? pack->templates[i].name : "", why);
    }
    char *reasons = rmg__buf_take(&b);
    if (!reasons)
        return rmg__error_nomem(pack->ctx);
    rmg_status st = rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "no template of pack '%s' fits the setup (%s):%s",
                                   pack->name ? pack->name : "", setup, reasons);
    rmg__free(pack->ctx, reasons);
    return st;
}

static rmg_status select_by_name(const struct rmg_pack *pack, const rmg_generate_options *o,
                                 const rmg__template **out)
{
    for (size_t i = 0; i < pack->n_templates; i++) {
        const rmg__template *t = &pack->templates[i];
        if (!t->name || strcmp(t->name, o->template_name) != 0)
            continue;
        char why[400];
        if (!rmg__template_fits(t, o, why, sizeof why))
            return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "template '%s' does not fit the setup: %s",
                                  o->template_name, why);
        *out = t;
        return RMG_OK;
    }
    return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND, "pack '%s' has no template named '%s'",
                          pack->name ? pack->name : "", o->template_name);
}

rmg_status rmg__pack_select(const struct rmg_pack *pack, const rmg_generate_options *asked, rmg_rng *rng,
                            const rmg__template **out)
{
    *out = NULL;
    /* WAT-06: a mirror pack copies the surface underground, so it needs two levels. */
    rmg_generate_options mirrored = *asked;
    const rmg_generate_options *options = asked;
    if (pack->mirror) {
        if (asked->levels == 1)
            return rmg__error_set(pack->ctx, RMG_ERR_NOT_FOUND,
                                  "pack '%s' is a mirror pack: it needs a map with an underground level (WAT-06)",
                                  pack->name ? pack->name : "");
        mirrored.levels = 2;
        options = &mirrored;
    }
    if (options->humans > 0 && options->players > 0 && options->humans > options->players)
        return rmg__error_set(pack->ctx, RMG_ERR_INVALID_ARG, "%d humans but only %d players", options->humans,
                              options->players);
    if (options->template_name)
        return select_by_name(pack, options, out);
    uint64_t fitting = 0;
    for (size_t i = 0; i < pack->n_templates; i++)
        fitting += rmg__template_fits(&pack->templates[i], options, NULL, 0);
    if (!fitting)
        return none_fits(pack, options);
    uint64_t k = rmg_rng_below(rng, fitting);
    for (size_t i = 0; i < pack->n_templates; i++)
        if (rmg__template_fits(&pack->templates[i], options, NULL, 0) && k-- == 0) {
            *out = &pack->templates[i];
            break;
        }
    return RMG_OK;
}

RMG_API rmg_status rmg_pack_select(rmg_context *ctx, const rmg_pack *pack, const struct rmg_generate_options *options,
                                   size_t *index)
{
    if (!ctx || !pack || !index)
        return ctx ? rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_select: NULL argument") : RMG_ERR_INVALID_ARG;
    rmg_generate_options o;
    rmg_generate_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof(size_t))
            return rmg__error_set(ctx, RMG_ERR_INVALID_ARG, "rmg_pack_select: bad struct_size");
        size_t n = RMG__MIN(options->struct_size, sizeof o);
        memcpy((unsigned char *)&o + sizeof(size_t), (const unsigned char *)options + sizeof(size_t),
               n - sizeof(size_t));
    }
    rmg_rng rng;
    rmg_status st = rmg_context_stream(ctx, "select", 0, &rng);
    if (st != RMG_OK)
        return st;
    const rmg__template *t;
    st = rmg__pack_select(pack, &o, &rng, &t);
    if (st == RMG_OK)
        *index = (size_t)(t - pack->templates);
    return st;
}
