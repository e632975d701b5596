/* h3t free text: code-page detection and conversion to UTF-8 (docs/h3t-import.md, "Encoding"). */
#include <string.h>

#include "h3t.h"

/* Code points of bytes 0x80..0xBF; 0xC0..0xFF are regular in both code pages (Latin-1
 * letters in cp1252, U+0410..U+044F in cp1251). Undefined bytes map to U+FFFD. */
static const uint16_t cp1252_high[64] = {
    0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
    0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    0x00A0, 0x00A1, 0x00A2, 0x00A3, 0x00A4, 0x00A5, 0x00A6, 0x00A7,
    0x00A8, 0x00A9, 0x00AA, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x00AF,
    0x00B0, 0x00B1, 0x00B2, 0x00B3, 0x00B4, 0x00B5, 0x00B6, 0x00B7,
    0x00B8, 0x00B9, 0x00BA, 0x00BB, 0x00BC, 0x00BD, 0x00BE, 0x00BF,
};
static const uint16_t cp1251_high[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
};

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    uint32_t cp, min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Structural cells are ASCII, so only free text decides. Valid UTF-8 is kept as it is.
 * Otherwise Russian text in cp1251 is a run of letters in 0xC0..0xFF (А..я); Western
 * cp1252 text has at most isolated accented letters there, so three such bytes in a row
 * mark the file as cp1251. */
rmg__h3t_encoding rmg__h3t_detect_encoding(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    bool utf8 = true;
    size_t run = 0, cyrillic_runs = 0;
    for (size_t i = 0; i < len;) {
        if (s[i] < 0x80) {   /* fast path: structural text is ASCII */
            run = 0;
            i++;
            continue;
        }
        size_t n = utf8_sequence(s + i, len - i);
        if (n == 0)
            utf8 = false;
        if (s[i] >= 0xC0) {
            if (++run == 3)
                cyrillic_runs++;
        } else {
            run = 0;
        }
        i += (n && utf8) ? n : 1;
        if (n > 1)
            run = 0;
    }
    if (utf8)
        return RMG__H3T_UTF8;
    return cyrillic_runs ? RMG__H3T_CP1251 : RMG__H3T_CP1252;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

static uint32_t code_point(unsigned char c, rmg__h3t_encoding enc)
{
    if (c < 0x80)
        return c;
    if (c < 0xC0)
        return enc == RMG__H3T_CP1251 ? cp1251_high[c - 0x80] : cp1252_high[c - 0x80];
    return enc == RMG__H3T_CP1251 ? 0x0410u + (c - 0xC0u) : c;
}

char *rmg__h3t_to_utf8(rmg__arena *arena, const char *str, size_t n, rmg__h3t_encoding enc)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t bytes;
    /* Every input byte becomes at most 3 output bytes (U+FFFD and the BMP code points). */
    if (!rmg__mul_ok(n, 3, &bytes) || bytes == SIZE_MAX)
        return NULL;
    char *out = rmg__arena_alloc(arena, bytes + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (enc == RMG__H3T_UTF8) {
            size_t len = utf8_sequence(s + i, n - i);
            if (len) {
                memcpy(out + o, s + i, len);
                o += len;
                i += len;
            } else {
                o += put_utf8(out + o, 0xFFFD);
                i++;
            }
            continue;
        }
        o += put_utf8(out + o, code_point(s[i], enc));
        i++;
    }
    out[o] = '\0';
    return out;
}

void rmg__h3t_sanitize(char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
        if (len == 0 || c < 0x20 || c == 0x7F) {
            s[i++] = '?';
            continue;
        }
        i += len;
    }
}

/* The next code point of UTF-8 text at *s (advanced); U+FFFD for an invalid byte. */
static uint32_t next_code_point(const unsigned char **s)
{
    const unsigned char *p = *s;
    size_t len = utf8_sequence(p, strnlen((const char *)p, 4));
    if (len == 0) {
        *s = p + 1;
        return 0xFFFD;
    }
    uint32_t cp = len == 1 ? p[0] : len == 2 ? p[0] & 0x1Fu : len == 3 ? p[0] & 0x0Fu : p[0] & 0x07u;
    for (size_t i = 1; i < len; i++)
        cp = (cp << 6) | (p[i] & 0x3Fu);
    *s = p + len;
    return cp;
}

/* The byte of a code point in the code page, or -1. */
static int page_byte(uint32_t cp, rmg__h3t_encoding enc)
{
    if (cp < 0x80)
        return (int)cp;
    if (enc == RMG__H3T_CP1251 && cp >= 0x0410 && cp <= 0x044F)
        return (int)(0xC0 + (cp - 0x0410));
    if (enc == RMG__H3T_CP1252 && cp >= 0xC0 && cp <= 0xFF)
        return (int)cp;
    const uint16_t *high = enc == RMG__H3T_CP1251 ? cp1251_high : cp1252_high;
    for (int i = 0; i < 64; i++)
        if (high[i] == cp && cp != 0xFFFD)
            return 0x80 + i;
    return -1;
}

void rmg__h3t_from_utf8(rmg__buf *b, const char *utf8, rmg__h3t_encoding enc)
{
    if (enc == RMG__H3T_UTF8) {
        rmg__buf_puts(b, utf8);
        return;
    }
    for (const unsigned char *s = (const unsigned char *)utf8; *s;) {
        int byte = page_byte(next_code_point(&s), enc);
        rmg__buf_putc(b, byte < 0 ? '?' : (char)byte);
    }
}

bool rmg__h3t_fits(const char *utf8, rmg__h3t_encoding enc)
{
    if (!utf8)
        return true;
    for (const unsigned char *s = (const unsigned char *)utf8; *s;)
        if (page_byte(next_code_point(&s), enc) < 0)
            return false;
    return true;
}
