/* The io primitives of the symmetric .h3m codec (h3m_io.h) and the pieces several parts share. */
#include <stdio.h>
#include <string.h>

#include "h3m_io.h"

void rmg__h3m_io_init_read(rmg__h3m_io *io, rmg__h3m_doc *doc, const uint8_t *data, size_t len, const char *name)
{
    memset(io, 0, sizeof *io);
    io->ctx = doc->ctx;
    io->doc = doc;
    io->reading = true;
    io->name = name ? name : "<h3m>";
    io->in = data;
    io->in_len = len;
    io->index = -1;
}

void rmg__h3m_io_init_write(rmg__h3m_io *io, const rmg__h3m_doc *doc)
{
    memset(io, 0, sizeof *io);
    io->ctx = doc->ctx;
    /* The codec takes pointers to the fields it codes; writing only reads through them. */
    io->doc = (rmg__h3m_doc *)(uintptr_t)doc;
    io->reading = false;
    io->name = "h3m write";
    io->index = -1;
}

/* " (in object 17, monster)" or "" */
static void describe_place(const rmg__h3m_io *io, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!io->part)
        return;
    char index[32] = "";
    if (io->index >= 0)
        snprintf(index, sizeof index, " %ld", io->index);
    snprintf(buf, cap, "%s%s%s%s", io->part, index, io->detail ? ", " : "", io->detail ? io->detail : "");
}

static bool fail_va(rmg__h3m_io *io, size_t pos, rmg_status status, const char *fmt, va_list ap) RMG__PRINTF(4, 0);
static bool fail_va(rmg__h3m_io *io, size_t pos, rmg_status status, const char *fmt, va_list ap)
{
    if (io->status != RMG_OK)
        return false;
    if (status == RMG_ERR_NOMEM) {
        io->status = rmg__error_nomem(io->ctx);
        return false;
    }
    char what[512], place[160];
    vsnprintf(what, sizeof what, fmt, ap);
    describe_place(io, place, sizeof place);
    if (io->reading) {
        io->status = rmg__error_at(io->ctx, status, io->name, 0, 0, "byte %zu: %s%s%s%s", pos, what,
                                   place[0] ? " (in " : "", place, place[0] ? ")" : "");
    } else {
        io->status = rmg__error_set(io->ctx, RMG_ERR_INVALID_ARG, "%s: %s%s%s", io->name, place, place[0] ? ": " : "",
                                    what);
    }
    return false;
}

bool rmg__h3m_io_fail(rmg__h3m_io *io, rmg_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(io, io->pos, status, fmt, ap);
    va_end(ap);
    return false;
}

bool rmg__h3m_io_fail_at(rmg__h3m_io *io, size_t pos, rmg_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(io, pos, status, fmt, ap);
    va_end(ap);
    return false;
}

/* Room for n more output bytes (doubling). */
static bool reserve_out(rmg__h3m_io *io, size_t n)
{
    if (n <= io->out_cap - io->pos)
        return true;
    if (n > SIZE_MAX / 2 - io->pos)
        return rmg__h3m_io_fail(io, RMG_ERR_NOMEM, "out of memory");
    size_t cap = io->out_cap ? io->out_cap : 64 * 1024;
    while (cap - io->pos < n)
        cap *= 2;
    uint8_t *grown = rmg__realloc(io->ctx, io->out, cap);
    if (!grown)
        return rmg__h3m_io_fail(io, RMG_ERR_NOMEM, "out of memory");
    io->out = grown;
    io->out_cap = cap;
    return true;
}

static bool need_in(rmg__h3m_io *io, size_t n, const char *what)
{
    if (n <= io->in_len - io->pos)
        return true;
    return rmg__h3m_io_fail(io, RMG_ERR_PARSE, "expected %s but the data ends (%zu bytes left)", what,
                            io->in_len - io->pos);
}

void rmg__h3m_io_bytes(rmg__h3m_io *io, void *bytes, size_t n)
{
    if (io->status != RMG_OK || n == 0)
        return;
    if (io->reading) {
        char what[48];
        snprintf(what, sizeof what, "%zu byte%s", n, n == 1 ? "" : "s");
        if (!need_in(io, n, what))
            return;
        memcpy(bytes, io->in + io->pos, n);
    } else {
        if (!reserve_out(io, n))
            return;
        memcpy(io->out + io->pos, bytes, n);
    }
    io->pos += n;
}

bool rmg__h3m_io_reserve(rmg__h3m_io *io, size_t n)
{
    return reserve_out(io, n);
}

void rmg__h3m_io_u16(rmg__h3m_io *io, uint16_t *v)
{
    uint8_t b[2] = {(uint8_t)*v, (uint8_t)(*v >> 8)};
    rmg__h3m_io_bytes(io, b, 2);
    if (io->reading)
        *v = (uint16_t)(b[0] | b[1] << 8);
}

void rmg__h3m_io_u32(rmg__h3m_io *io, uint32_t *v)
{
    uint8_t b[4] = {(uint8_t)*v, (uint8_t)(*v >> 8), (uint8_t)(*v >> 16), (uint8_t)(*v >> 24)};
    rmg__h3m_io_bytes(io, b, 4);
    if (io->reading)
        *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

bool rmg__h3m_io_flag(rmg__h3m_io *io, uint8_t *v)
{
    size_t at = io->pos;
    io_u8(io, v);
    if (io->status != RMG_OK)
        return false;
    if (*v > 1) /* writing: the reader would refuse it */
        return rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a bool (0 or 1), found %u", *v);
    return *v != 0;
}

void rmg__h3m_io_str(rmg__h3m_io *io, rmg__h3m_str *s)
{
    if (io->status != RMG_OK)
        return;
    size_t at = io->pos;
    uint32_t len = s->len;
    if (!io->reading && len > 0 && !s->data) {
        rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "a string of %u bytes without data", len);
        return;
    }
    io_u32(io, &len);
    if (io->status != RMG_OK)
        return;
    if (!io->reading) {
        io_bytes(io, s->data, len);
        return;
    }
    if (len > io->in_len - io->pos) {
        rmg__h3m_io_fail_at(io, at, RMG_ERR_PARSE, "expected a string of %u bytes but only %zu bytes are left", len,
                            io->in_len - io->pos);
        return;
    }
    if (rmg__h3m_str_setn(io->doc, s, io->in + io->pos, len) != RMG_OK) {
        io->status = RMG_ERR_NOMEM;
        return;
    }
    io->pos += len;
}

void rmg__h3m_io_array(rmg__h3m_io *io, void **items, size_t count, size_t elem, size_t min_bytes)
{
    if (io->status != RMG_OK || count == 0)
        return;
    if (!io->reading) {
        if (!*items)
            rmg__h3m_io_fail(io, RMG_ERR_INVALID_ARG, "a count of %zu without its array", count);
        return;
    }
    size_t need = 0;
    if (!rmg__mul_ok(count, min_bytes, &need) || need > io->in_len - io->pos) {
        rmg__h3m_io_fail(io, RMG_ERR_PARSE, "a count of %zu needs at least %zu bytes per item but only %zu are left",
                         count, min_bytes, io->in_len - io->pos);
        return;
    }
    *items = rmg__h3m_alloc(io->doc, count, elem);
    if (!*items)
        io->status = RMG_ERR_NOMEM;
}

void rmg__h3m_io_mask(rmg__h3m_io *io, uint8_t **mask, uint32_t bits)
{
    size_t n = bits / 8 + (bits % 8 != 0);
    rmg__h3m_io_array(io, (void **)mask, n, 1, 1);
    if (n && io->status == RMG_OK)
        io_bytes(io, *mask, n);
}

/* ---- pieces shared by several parts -------------------------------------------------------- */

void rmg__h3m_io_slot(rmg__h3m_io *io, rmg__h3m_slot *s)
{
    io_u16(io, &s->creature);
    io_u16(io, &s->count);
}

void rmg__h3m_io_army(rmg__h3m_io *io, rmg__h3m_slot *army)
{
    for (int i = 0; i < RMG__H3M_ARMY_SLOTS; i++)
        rmg__h3m_io_slot(io, &army[i]);
}

void rmg__h3m_io_art(rmg__h3m_io *io, rmg__h3m_art *a)
{
    io_u16(io, &a->id);
    if (io_hota(io, 5))
        io_u16(io, &a->spell);
}

void rmg__h3m_io_hero_artifacts(rmg__h3m_io *io, rmg__h3m_hero_artifacts *a)
{
    if (!io_flag(io, &a->has_artifacts))
        return;
    for (int i = 0; i < RMG__H3M_HERO_SLOTS; i++)
        rmg__h3m_io_art(io, &a->slots[i]);
    io_u16(io, &a->backpack_count);
    rmg__h3m_io_array(io, (void **)&a->backpack, a->backpack_count, sizeof *a->backpack, 2);
    for (uint16_t i = 0; i < a->backpack_count && io_ok(io); i++)
        rmg__h3m_io_art(io, &a->backpack[i]);
}

void rmg__h3m_io_skills(rmg__h3m_io *io, uint8_t *has, uint32_t *count, rmg__h3m_skill **skills)
{
    if (!io_flag(io, has))
        return;
    io_u32(io, count);
    rmg__h3m_io_array(io, (void **)skills, *count, sizeof **skills, 2);
    for (uint32_t i = 0; i < *count && io_ok(io); i++) {
        io_u8(io, &(*skills)[i].skill);
        io_u8(io, &(*skills)[i].level);
    }
}

void rmg__h3m_io_experience(rmg__h3m_io *io, rmg__h3m_hero_data *d)
{
    if (io_flag(io, &d->has_experience))
        io_u32(io, &d->experience);
}

void rmg__h3m_io_hero_end(rmg__h3m_io *io, rmg__h3m_hero_data *d)
{
    if (io_flag(io, &d->has_biography))
        io_str(io, &d->biography);
    io_u8(io, &d->gender);
    if (io_flag(io, &d->has_spells))
        io_bytes(io, d->spells, sizeof d->spells);
    if (io_flag(io, &d->has_primary))
        io_bytes(io, d->primary, sizeof d->primary);
}

void rmg__h3m_io_hero_tail(rmg__h3m_io *io, rmg__h3m_hero_tail *t)
{
    io_u8(io, &t->always_add_skills);
    io_u8(io, &t->no_experience);
    io_i32(io, &t->level);
}

void rmg__h3m_io_script_ref(rmg__h3m_io *io, rmg__h3m_script_ref *s)
{
    if (!io_flag(io, &s->used))
        return;
    io_i32(io, &s->id);
    io_u8(io, &s->flag);
}

void rmg__h3m_io_event_common(rmg__h3m_io *io, rmg__h3m_event *e)
{
    io_str(io, &e->name);
    io_str(io, &e->message);
    for (int i = 0; i < 7; i++)
        io_i32(io, &e->resources[i]);
    io_u8(io, &e->players);
    io_u8(io, &e->humans);
    io_u8(io, &e->computers);
    io_u16(io, &e->first_day);
    io_u16(io, &e->repeat);
    io_bytes(io, e->reserved, sizeof e->reserved);
    if (io_hota(io, 7))
        io_i32(io, &e->difficulties);
    if (io_hota(io, 9))
        rmg__h3m_io_script_ref(io, &e->script);
}
