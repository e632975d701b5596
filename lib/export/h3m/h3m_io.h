/*
 * The symmetric codec's io object: it either reads from a byte buffer into a document or
 * appends a document's fields to an output buffer. Every structure of the file is coded by one
 * function that calls these primitives with pointers to the document's fields, so reading and
 * writing follow the same code and cannot drift apart.
 *
 * Errors are sticky: after the first one every primitive does nothing (reads give 0), so the
 * structure functions need not check after each field; they check io_ok() before loops and
 * branches that allocate. While reading, counts are checked against the bytes left before an
 * array is allocated, so a malformed file cannot make the reader allocate or loop far beyond its
 * own size.
 */
#ifndef RMG_EXPORT_H3M_IO_H
#define RMG_EXPORT_H3M_IO_H

#include <string.h>

#include "h3m_doc.h"

/* The smallest timed event (§17 common part with empty strings), to bound event counts. */
#define RMG__H3M_EVENT_MIN_BYTES 59u

typedef struct rmg__h3m_io {
    rmg_context *ctx;
    rmg__h3m_doc *doc;        /* the document read into, or written (then never modified) */
    bool reading;
    const char *name;         /* for messages */
    const uint8_t *in;        /* reading */
    size_t in_len;
    size_t pos;               /* reading: offset; writing: bytes written */
    uint8_t *out;             /* writing */
    size_t out_cap;
    rmg_status status;
    /* Where the codec is, for messages: "object", 17, "monster". */
    const char *part;
    long index;
    const char *detail;
} rmg__h3m_io;

void rmg__h3m_io_init_read(rmg__h3m_io *io, rmg__h3m_doc *doc, const uint8_t *data, size_t len, const char *name);
void rmg__h3m_io_init_write(rmg__h3m_io *io, const rmg__h3m_doc *doc);

/* Sets the error (if none yet): reading gives `status` with "NAME: byte POS: message (in
 * PART)"; writing gives RMG_ERR_INVALID_ARG with "h3m write: PART: message" unless status is
 * NOMEM. Returns false. */
bool rmg__h3m_io_fail(rmg__h3m_io *io, rmg_status status, const char *fmt, ...) RMG__PRINTF(3, 4);
/* The same at an earlier offset (the start of the field that was wrong). */
bool rmg__h3m_io_fail_at(rmg__h3m_io *io, size_t pos, rmg_status status, const char *fmt, ...) RMG__PRINTF(4, 5);

/* n raw bytes. */
void rmg__h3m_io_bytes(rmg__h3m_io *io, void *bytes, size_t n);
/* Writing: room for n more bytes at once (false, and the status set, when out of memory). */
bool rmg__h3m_io_reserve(rmg__h3m_io *io, size_t n);
void rmg__h3m_io_u16(rmg__h3m_io *io, uint16_t *v);
void rmg__h3m_io_u32(rmg__h3m_io *io, uint32_t *v);
void rmg__h3m_io_str(rmg__h3m_io *io, rmg__h3m_str *s);
/* A counted array: reading checks count * min_bytes against the bytes left and allocates count
 * zeroed elements in the document's arena; writing checks that the array exists. */
void rmg__h3m_io_array(rmg__h3m_io *io, void **items, size_t count, size_t elem, size_t min_bytes);
/* A mask of ceil(bits / 8) bytes, allocated while reading. */
void rmg__h3m_io_mask(rmg__h3m_io *io, uint8_t **mask, uint32_t bits);

static inline bool io_ok(const rmg__h3m_io *io)
{
    return io->status == RMG_OK;
}

static inline void io_where(rmg__h3m_io *io, const char *part, long index)
{
    io->part = part;
    io->index = index;
    io->detail = NULL;
}

/* The document's format predicates: HotA at all, and HotA of at least sub-version n. */
static inline bool io_is_hota(const rmg__h3m_io *io)
{
    return io->doc->format == RMG__H3M_HOTA;
}

static inline bool io_hota(const rmg__h3m_io *io, uint32_t n)
{
    return io->doc->format == RMG__H3M_HOTA && io->doc->hota_sub >= n;
}

/* Writing with the room already there (the writer reserves the stream's size up front): the
 * bytes go straight in, without a call. */
static inline bool io_room(const rmg__h3m_io *io, size_t n)
{
    return !io->reading && io->status == RMG_OK && n <= io->out_cap - io->pos;
}

static inline void io_u8(rmg__h3m_io *io, uint8_t *v)
{
    if (io->reading && io->status == RMG_OK && io->pos < io->in_len)
        *v = io->in[io->pos++];
    else if (io_room(io, 1))
        io->out[io->pos++] = *v;
    else
        rmg__h3m_io_bytes(io, v, 1);
}

static inline void io_i8(rmg__h3m_io *io, int8_t *v)
{
    uint8_t u = (uint8_t)*v;
    io_u8(io, &u);
    *v = (int8_t)u;
}

static inline void io_u16(rmg__h3m_io *io, uint16_t *v)
{
    rmg__h3m_io_u16(io, v);
}

static inline void io_u32(rmg__h3m_io *io, uint32_t *v)
{
    if (!io_room(io, 4)) {
        rmg__h3m_io_u32(io, v);
        return;
    }
    uint8_t *o = io->out + io->pos;
    o[0] = (uint8_t)*v, o[1] = (uint8_t)(*v >> 8), o[2] = (uint8_t)(*v >> 16), o[3] = (uint8_t)(*v >> 24);
    io->pos += 4;
}

static inline void io_i32(rmg__h3m_io *io, int32_t *v)
{
    uint32_t u = (uint32_t)*v;
    rmg__h3m_io_u32(io, &u);
    *v = (int32_t)u;
}

static inline void io_bytes(rmg__h3m_io *io, void *bytes, size_t n)
{
    if (n == 0)
        return; /* an empty field may come with no buffer at all */
    if (!io_room(io, n)) {
        rmg__h3m_io_bytes(io, bytes, n);
        return;
    }
    memcpy(io->out + io->pos, bytes, n); /* n is mostly a constant: the copy is inlined */
    io->pos += n;
}

static inline void io_str(rmg__h3m_io *io, rmg__h3m_str *s)
{
    rmg__h3m_io_str(io, s);
}

static inline void io_xyz(rmg__h3m_io *io, rmg__h3m_xyz *p)
{
    io_u8(io, &p->x);
    io_u8(io, &p->y);
    io_u8(io, &p->z);
}

/* A bool that says whether fields follow: values other than 0 and 1 are refused (the editor
 * writes only those, and in a file they mean the reader lost its place; bools that say nothing
 * about the layout are kept as plain u8, junk included). Returns whether it is set (false after
 * an error). */
bool rmg__h3m_io_flag(rmg__h3m_io *io, uint8_t *v);
static inline bool io_flag(rmg__h3m_io *io, uint8_t *v)
{
    return rmg__h3m_io_flag(io, v);
}

/* Shared pieces (§16.1, §12), used by the map parts and the object bodies. */
void rmg__h3m_io_slot(rmg__h3m_io *io, rmg__h3m_slot *s);
void rmg__h3m_io_army(rmg__h3m_io *io, rmg__h3m_slot *army);
void rmg__h3m_io_art(rmg__h3m_io *io, rmg__h3m_art *a);
void rmg__h3m_io_hero_artifacts(rmg__h3m_io *io, rmg__h3m_hero_artifacts *a);
void rmg__h3m_io_skills(rmg__h3m_io *io, uint8_t *has, uint32_t *count, rmg__h3m_skill **skills);
void rmg__h3m_io_experience(rmg__h3m_io *io, rmg__h3m_hero_data *d);
/* Biography, gender, spells and primary skills: the end of a hero and of a hero setting. */
void rmg__h3m_io_hero_end(rmg__h3m_io *io, rmg__h3m_hero_data *d);
void rmg__h3m_io_hero_tail(rmg__h3m_io *io, rmg__h3m_hero_tail *t);
void rmg__h3m_io_script_ref(rmg__h3m_io *io, rmg__h3m_script_ref *s);
void rmg__h3m_io_event_common(rmg__h3m_io *io, rmg__h3m_event *e);

/* Templates and objects (h3m_objects.c). */
void rmg__h3m_io_templates(rmg__h3m_io *io);
void rmg__h3m_io_objects(rmg__h3m_io *io);

#endif
