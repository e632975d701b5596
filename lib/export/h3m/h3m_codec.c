/*
 * The .h3m codec: one function per part of the file (spec §2 order), each coding its fields
 * through the io primitives, so that rmg__h3m_parse and rmg__h3m_write share every line of the
 * layout. Templates and object bodies are in h3m_objects.c.
 */
#include <string.h>

#include "h3m_io.h"

static const char *format_name(uint32_t format)
{
    switch (format) {
    case RMG__H3M_ROE: return "RoE";
    case RMG__H3M_AB: return "AB";
    case RMG__H3M_SOD: return "SoD";
    case RMG__H3M_HOTA: return "HotA";
    case RMG__H3M_WOG: return "WoG";
    default: return NULL;
    }
}

/* ---- header (§3) ------------------------------------------------------------------------------ */

static void io_format(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "header", -1);
    io_u32(io, &doc->format);
    if (!io_ok(io))
        return;
    if (doc->format != RMG__H3M_SOD && doc->format != RMG__H3M_HOTA) {
        const char *known = format_name(doc->format);
        if (known)
            rmg__h3m_io_fail_at(io, 0, RMG_ERR_UNSUPPORTED,
                                "format 0x%02X (%s) is not supported: only SoD (0x1C) and HotA (0x20) maps are",
                                doc->format, known);
        else
            rmg__h3m_io_fail_at(io, 0, RMG_ERR_PARSE,
                                "expected a map format (0x1C SoD or 0x20 HotA), found 0x%08X", doc->format);
        return;
    }
    if (!io_is_hota(io))
        return;
    size_t at = io->pos;
    io_u32(io, &doc->hota_sub);
    if (io_ok(io) && doc->hota_sub > RMG__H3M_MAX_HOTA_SUB)
        rmg__h3m_io_fail_at(io, at, RMG_ERR_UNSUPPORTED, "HotA sub-version %u is not supported (0 to %d are)",
                            doc->hota_sub, RMG__H3M_MAX_HOTA_SUB);
}

static void io_script_vars(rmg__h3m_io *io, rmg__h3m_hota_header *h)
{
    io_u32(io, &h->script_var_count);
    rmg__h3m_io_array(io, (void **)&h->script_vars, h->script_var_count, sizeof *h->script_vars, 9);
    for (uint32_t i = 0; i < h->script_var_count && io_ok(io); i++) {
        io_str(io, &h->script_vars[i].name);
        io_i32(io, &h->script_vars[i].initial);
        io_u8(io, &h->script_vars[i].mode);
    }
}

static void io_hota_header(rmg__h3m_io *io)
{
    rmg__h3m_hota_header *h = &io->doc->hota;
    if (io_hota(io, 8))
        for (int i = 0; i < 3; i++)
            io_u32(io, &h->game_version[i]);
    if (io_hota(io, 1)) {
        io_u8(io, &h->mirror);
        io_u8(io, &h->arena);
    }
    if (io_hota(io, 2))
        io_u32(io, &h->terrain_types);
    if (io_hota(io, 5)) {
        io_u32(io, &h->town_types);
        io_u8(io, &h->difficulties);
    }
    if (io_hota(io, 7))
        io_u8(io, &h->hire_defeated);
    if (io_hota(io, 8))
        io_u8(io, &h->lock_version);
    if (io_hota(io, 9))
        io_script_vars(io, h);
}

static void io_basic(rmg__h3m_io *io)
{
    rmg__h3m_basic *b = &io->doc->basic;
    io_u8(io, &b->has_players);
    size_t at = io->pos;
    io_u32(io, &b->size);
    if (io_ok(io) && (b->size == 0 || b->size > RMG__H3M_MAX_SIZE))
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a map size of 1 to %d, found %u", RMG__H3M_MAX_SIZE,
                            b->size);
    io_flag(io, &b->two_levels);
    io_str(io, &b->name);
    io_str(io, &b->description);
    io_u8(io, &b->difficulty);
    io_u8(io, &b->level_cap);
}

/* ---- players, conditions, teams (§4-§6) --------------------------------------------------------- */

static void io_player(rmg__h3m_io *io, rmg__h3m_player *p)
{
    io_u8(io, &p->can_human);
    io_u8(io, &p->can_computer);
    io_u8(io, &p->behaviour);
    io_u8(io, &p->factions_customised);
    io_bytes(io, p->factions, sizeof p->factions);
    io_u8(io, &p->random_faction);
    if (io_flag(io, &p->has_main_town)) {
        io_u8(io, &p->generate_hero);
        io_u8(io, &p->main_town_faction);
        io_xyz(io, &p->main_town);
    }
    io_u8(io, &p->has_random_hero);
    io_u8(io, &p->main_hero);
    if (p->main_hero != 0xFF) {
        io_u8(io, &p->main_hero_portrait);
        io_str(io, &p->main_hero_name);
    }
    io_u8(io, &p->placeholder_count);
    io_u32(io, &p->hero_count);
    rmg__h3m_io_array(io, (void **)&p->heroes, p->hero_count, sizeof *p->heroes, 5);
    for (uint32_t i = 0; i < p->hero_count && io_ok(io); i++) {
        io_u8(io, &p->heroes[i].id);
        io_str(io, &p->heroes[i].name);
    }
}

static void io_players(rmg__h3m_io *io)
{
    for (int i = 0; i < RMG__H3M_PLAYERS && io_ok(io); i++) {
        io_where(io, "player", i);
        io_player(io, &io->doc->players[i]);
    }
}

static void io_victory(rmg__h3m_io *io, rmg__h3m_victory *v)
{
    size_t at = io->pos;
    io_u8(io, &v->type);
    if (!io_ok(io) || v->type == RMG__H3M_CONDITION_STANDARD)
        return;
    if (v->type > RMG__H3M_VICTORY_SURVIVE) {
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a victory condition (0 to 12 or 255), found %u",
                            v->type);
        return;
    }
    io_u8(io, &v->allow_normal_win);
    io_u8(io, &v->applies_to_computer);
    switch (v->type) {
    case RMG__H3M_VICTORY_ARTIFACT:
        io_u16(io, &v->object);
        break;
    case RMG__H3M_VICTORY_CREATURES:
        io_u16(io, &v->object);
        io_u32(io, &v->amount);
        break;
    case RMG__H3M_VICTORY_RESOURCES:
        io_u8(io, &v->resource);
        io_u32(io, &v->amount);
        break;
    case RMG__H3M_VICTORY_UPGRADE_TOWN:
        io_xyz(io, &v->pos);
        io_u8(io, &v->hall);
        io_u8(io, &v->castle);
        break;
    case RMG__H3M_VICTORY_GRAIL: case RMG__H3M_VICTORY_DEFEAT_HERO: case RMG__H3M_VICTORY_CAPTURE_TOWN:
    case RMG__H3M_VICTORY_DEFEAT_MONSTER:
        io_xyz(io, &v->pos);
        break;
    case RMG__H3M_VICTORY_TRANSPORT: {
        uint8_t artifact = (uint8_t)v->object;
        io_u8(io, &artifact);
        v->object = artifact;
        io_xyz(io, &v->pos);
        break;
    }
    case RMG__H3M_VICTORY_SURVIVE:
        io_u32(io, &v->amount);
        break;
    default: /* 8, 9, 11: no payload */
        break;
    }
}

static void io_loss(rmg__h3m_io *io, rmg__h3m_loss *l)
{
    size_t at = io->pos;
    io_u8(io, &l->type);
    if (!io_ok(io))
        return;
    if (l->type == RMG__H3M_LOSS_TOWN || l->type == RMG__H3M_LOSS_HERO)
        io_xyz(io, &l->pos);
    else if (l->type == RMG__H3M_LOSS_TIME)
        io_u16(io, &l->days);
    else if (l->type != RMG__H3M_CONDITION_STANDARD)
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a loss condition (0 to 2 or 255), found %u", l->type);
}

static void io_conditions_and_teams(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "victory condition", -1);
    io_victory(io, &doc->victory);
    io_where(io, "loss condition", -1);
    io_loss(io, &doc->loss);
    io_where(io, "teams", -1);
    io_u8(io, &doc->teams.count);
    if (doc->teams.count > 0)
        io_bytes(io, doc->teams.team, sizeof doc->teams.team);
}

/* ---- heroes, options, bans, rumours (§7-§11) ------------------------------------------------------ */

/* A count that SoD fixes and HotA stores as u32 before its mask or array. */
static void io_hota_count(rmg__h3m_io *io, uint32_t *count, uint32_t sod_value, const char *what)
{
    if (io_is_hota(io)) {
        io_u32(io, count);
    } else if (io->reading) {
        *count = sod_value;
    } else if (*count != sod_value) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "a SoD map has %u %s, not %u", sod_value, what, *count);
    }
}

static void io_heroes(rmg__h3m_io *io)
{
    rmg__h3m_hero_block *h = &io->doc->heroes;
    io_where(io, "allowed heroes", -1);
    io_hota_count(io, &h->count, RMG__H3M_SOD_HEROES, "heroes");
    rmg__h3m_io_mask(io, &h->allowed, h->count);
    io_where(io, "hero placeholders", -1);
    io_u32(io, &h->placeholder_count);
    rmg__h3m_io_array(io, (void **)&h->placeholders, h->placeholder_count, 1, 1);
    if (io_ok(io))
        io_bytes(io, h->placeholders, h->placeholder_count);
    io_where(io, "customised heroes", -1);
    io_u8(io, &h->custom_count);
    rmg__h3m_io_array(io, (void **)&h->custom, h->custom_count, sizeof *h->custom, 7);
    for (int i = 0; i < h->custom_count && io_ok(io); i++) {
        rmg__h3m_custom_hero *c = &h->custom[i];
        io_u8(io, &c->id);
        io_u8(io, &c->portrait);
        io_str(io, &c->name);
        io_u8(io, &c->players);
    }
}

static void io_options(rmg__h3m_io *io)
{
    rmg__h3m_options *o = &io->doc->options;
    io_where(io, "options", -1);
    io_bytes(io, o->reserved, sizeof o->reserved);
    if (io_is_hota(io))
        io_u32(io, &o->special_weeks);
    if (io_hota(io, 1)) {
        io_u32(io, &o->combo_count);
        rmg__h3m_io_mask(io, &o->banned_combos, o->combo_count);
    }
    if (io_hota(io, 3))
        io_i32(io, &o->round_limit);
    if (io_hota(io, 5))
        io_bytes(io, o->hiring_banned, sizeof o->hiring_banned);
    if (!io_hota(io, 9))
        return;
    size_t at = io->pos;
    io_u8(io, &o->script_used);
    if (io_ok(io) && o->script_used != 0)
        rmg__h3m_io_fail_at(io, at, RMG_ERR_UNSUPPORTED,
                            "the map uses the HotA 1.8 script system (script flag %u), which is not supported",
                            o->script_used);
}

static void io_bans(rmg__h3m_io *io)
{
    rmg__h3m_bans *b = &io->doc->bans;
    io_where(io, "banned artifacts", -1);
    io_hota_count(io, &b->artifact_count, RMG__H3M_SOD_ARTIFACT_MASK * 8, "artifact bits");
    rmg__h3m_io_mask(io, &b->artifacts, b->artifact_count);
    io_where(io, "banned spells and skills", -1);
    io_bytes(io, b->spells, sizeof b->spells);
    io_bytes(io, b->skills, sizeof b->skills);
}

static void io_rumours(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "rumours", -1);
    io_u32(io, &doc->rumour_count);
    rmg__h3m_io_array(io, (void **)&doc->rumours, doc->rumour_count, sizeof *doc->rumours, 8);
    for (uint32_t i = 0; i < doc->rumour_count && io_ok(io); i++) {
        io_where(io, "rumour", (long)i);
        io_str(io, &doc->rumours[i].name);
        io_str(io, &doc->rumours[i].text);
    }
}

/* ---- predefined hero settings (§12) ---------------------------------------------------------------- */

static void io_hero_setting(rmg__h3m_io *io, rmg__h3m_hero_setting *s)
{
    if (!io_flag(io, &s->customised))
        return;
    rmg__h3m_io_experience(io, &s->data);
    rmg__h3m_io_skills(io, &s->data.has_skills, &s->data.skill_count, &s->data.skills);
    rmg__h3m_io_hero_artifacts(io, &s->data.artifacts);
    rmg__h3m_io_hero_end(io, &s->data);
}

static void io_hero_settings(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "hero settings", -1);
    io_hota_count(io, &doc->hero_setting_count, RMG__H3M_SOD_HEROES, "hero settings");
    size_t per_hero = io_hota(io, 5) ? 7 : 1;
    rmg__h3m_io_array(io, (void **)&doc->hero_settings, doc->hero_setting_count, sizeof *doc->hero_settings,
                      per_hero);
    for (uint32_t i = 0; i < doc->hero_setting_count && io_ok(io); i++) {
        io_where(io, "hero setting", (long)i);
        io_hero_setting(io, &doc->hero_settings[i]);
    }
    if (!io_hota(io, 5))
        return;
    for (uint32_t i = 0; i < doc->hero_setting_count && io_ok(io); i++) {
        io_where(io, "hero setting tail", (long)i);
        rmg__h3m_io_hero_tail(io, &doc->hero_settings[i].tail);
    }
}

/* ---- tiles (§13), events and tail (§17) ----------------------------------------------------------- */

static void io_tiles(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "tiles", -1);
    size_t n = rmg__h3m_tile_bytes(doc);
    if (n == 0) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "the map size %u gives no tiles", doc->basic.size);
        return;
    }
    rmg__h3m_io_array(io, (void **)&doc->tiles, n, 1, 1);
    if (io_ok(io))
        io_bytes(io, doc->tiles, n);
}

static void io_timed_event(rmg__h3m_io *io, rmg__h3m_timed_event *e)
{
    rmg__h3m_io_event_common(io, &e->common);
    /* Sub-versions 5 and 6 have three more fields, replaced by the difficulty mask from 7. */
    if (io_hota(io, 5) && !io_hota(io, 7)) {
        io_i32(io, &e->old_value);
        io_u32(io, &e->old_bit_count);
        rmg__h3m_io_mask(io, &e->old_mask, e->old_bit_count);
    }
}

static void io_events(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "timed events", -1);
    io_u32(io, &doc->event_count);
    rmg__h3m_io_array(io, (void **)&doc->events, doc->event_count, sizeof *doc->events, RMG__H3M_EVENT_MIN_BYTES);
    for (uint32_t i = 0; i < doc->event_count && io_ok(io); i++) {
        io_where(io, "timed event", (long)i);
        io_timed_event(io, &doc->events[i]);
    }
}

/* Whatever follows the events: kept as it is (normally 124 zeros, 8 bytes in RMG files). */
static void io_tail(rmg__h3m_io *io)
{
    rmg__h3m_doc *doc = io->doc;
    io_where(io, "tail", -1);
    if (io->reading && io_ok(io))
        doc->tail_len = io->in_len - io->pos;
    rmg__h3m_io_array(io, (void **)&doc->tail, doc->tail_len, 1, 1);
    if (io_ok(io))
        io_bytes(io, doc->tail, doc->tail_len);
}

static void io_document(rmg__h3m_io *io)
{
    io_format(io);
    if (io_is_hota(io))
        io_hota_header(io);
    io_basic(io);
    io_players(io);
    io_conditions_and_teams(io);
    io_heroes(io);
    io_options(io);
    io_bans(io);
    io_rumours(io);
    io_hero_settings(io);
    io_tiles(io);
    rmg__h3m_io_templates(io);
    rmg__h3m_io_objects(io);
    io_events(io);
    io_tail(io);
}

/* ---- entry points ----------------------------------------------------------------------------------- */

rmg_status rmg__h3m_parse(rmg_context *ctx, const uint8_t *data, size_t len, const char *name, rmg__h3m_doc **out)
{
    if (!ctx || (!data && len) || !out)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg__h3m_doc *doc = NULL;
    rmg_status st = rmg__h3m_doc_new(ctx, &doc);
    if (st != RMG_OK)
        return st;
    rmg__h3m_io io;
    rmg__h3m_io_init_read(&io, doc, data, len, name);
    io_document(&io);
    if (io.status != RMG_OK) {
        rmg__h3m_doc_free(doc);
        return io.status;
    }
    *out = doc;
    return RMG_OK;
}

rmg_status rmg__h3m_read(rmg_context *ctx, const uint8_t *data, size_t len, const char *name, rmg__h3m_doc **out)
{
    if (!ctx || (!data && len) || !out)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    uint8_t *stream = NULL;
    size_t stream_len = 0;
    rmg_status st = rmg__h3m_decompress_named(ctx, data, len, name, &stream, &stream_len);
    if (st != RMG_OK)
        return st;
    st = rmg__h3m_parse(ctx, stream, stream_len, name, out);
    rmg__free(ctx, stream);
    return st;
}

rmg_status rmg__h3m_write(rmg_context *ctx, const rmg__h3m_doc *doc, uint8_t **out, size_t *len)
{
    if (!ctx || !doc || !out || !len)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    *len = 0;
    rmg__h3m_io io;
    rmg__h3m_io_init_write(&io, doc);
    io.ctx = ctx;
    /* The tiles and a guess at the objects (an obstacle takes 12 bytes) at once, rather than
     * doubling the stream (and copying it) five times on a large map. */
    rmg__h3m_io_reserve(&io, rmg__h3m_tile_bytes(doc) + (size_t)doc->object_count * 16 + 64 * 1024);
    io_document(&io);
    if (io.status != RMG_OK) {
        rmg__free(ctx, io.out);
        return io.status;
    }
    *out = io.out;
    *len = io.pos;
    return RMG_OK;
}
