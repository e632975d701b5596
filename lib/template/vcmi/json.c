/* Strict, bounded JSON reader with comments and trailing commas (see json.h). Recursive
 * descent bounded by the depth limit; children of open containers are collected on one shared
 * scratch stack and copied into the arena when their container closes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

typedef struct parser {
    rmg_context *ctx;
    rmg__arena *arena;
    const char *name;
    const unsigned char *s;
    size_t len, pos;
    int max_depth;
    size_t nodes, max_nodes;
    /* Location: the current line, where it starts, and a column cache (positions only grow,
     * so columns are counted incrementally: linear over the whole input). */
    int line;
    size_t line_start;
    size_t col_pos;
    int col;
    RMG__VEC(rmg__json_member) stack;  /* children of the open containers */
    rmg__buf text;                      /* string decoding scratch */
} parser;

/* ---- location and errors ------------------------------------------------------------------------ */

static int column_at(parser *p, size_t pos)
{
    if (p->col_pos < p->line_start || p->col_pos > pos) {
        p->col_pos = p->line_start;
        p->col = 1;
    }
    for (; p->col_pos < pos; p->col_pos++)
        if ((p->s[p->col_pos] & 0xC0) != 0x80)   /* count characters, not continuation bytes */
            p->col++;
    return p->col;
}

static rmg_status fail_at(parser *p, size_t pos, rmg_status st, const char *fmt, ...) RMG__PRINTF(4, 5);
static rmg_status fail_at(parser *p, size_t pos, rmg_status st, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int col = column_at(p, pos);
    return rmg__error_at(p->ctx, st, p->name, p->line, col, "%s", msg);
}

/* What is at `pos`, printable, for messages. */
static void describe(const parser *p, size_t pos, char *out, size_t n)
{
    if (pos >= p->len) {
        snprintf(out, n, "end of input");
        return;
    }
    unsigned char c = p->s[pos];
    if (c >= 0x20 && c < 0x7F)
        snprintf(out, n, "'%c'", c);
    else
        snprintf(out, n, "byte 0x%02X", c);
}

static rmg_status unexpected(parser *p, const char *wanted)
{
    char what[32];
    describe(p, p->pos, what, sizeof what);
    return fail_at(p, p->pos, RMG_ERR_PARSE, "expected %s, found %s", wanted, what);
}

/* ---- blanks and comments ------------------------------------------------------------------------ */

static void new_line(parser *p, size_t next)
{
    p->line++;
    p->line_start = next;
}

static rmg_status skip_block_comment(parser *p)
{
    size_t start = p->pos;
    int line = p->line;
    size_t line_start = p->line_start;
    for (p->pos += 2; p->pos + 1 < p->len; p->pos++) {
        if (p->s[p->pos] == '*' && p->s[p->pos + 1] == '/') {
            p->pos += 2;
            return RMG_OK;
        }
        if (p->s[p->pos] == '\n')
            new_line(p, p->pos + 1);
    }
    /* Report where the comment starts: that is what the author has to find. */
    p->line = line;
    p->line_start = line_start;
    return fail_at(p, start, RMG_ERR_PARSE, "unterminated /* comment");
}

static rmg_status skip_blank(parser *p)
{
    while (p->pos < p->len) {
        unsigned char c = p->s[p->pos];
        if (c == '\n') {
            new_line(p, ++p->pos);
        } else if (c == ' ' || c == '\t' || c == '\r') {
            p->pos++;
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '/') {
            while (p->pos < p->len && p->s[p->pos] != '\n')
                p->pos++;
        } else if (c == '/' && p->pos + 1 < p->len && p->s[p->pos + 1] == '*') {
            rmg_status st = skip_block_comment(p);
            if (st != RMG_OK)
                return st;
        } else {
            break;
        }
    }
    return RMG_OK;
}

/* ---- strings ------------------------------------------------------------------------------------- */

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool read_hex4(parser *p, size_t at, unsigned *out)
{
    if (at + 4 > p->len)
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < 4; i++) {
        int h = hex_value(p->s[at + i]);
        if (h < 0)
            return false;
        v = v * 16 + (unsigned)h;
    }
    *out = v;
    return true;
}

static void put_utf8(rmg__buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    rmg__buf_append(b, u, n);
}

/* \uXXXX (with a following low surrogate when XXXX is a high one). p->pos is at the 'u'. */
static rmg_status read_unicode_escape(parser *p)
{
    size_t at = p->pos - 1;   /* the backslash */
    unsigned cp;
    if (!read_hex4(p, p->pos + 1, &cp))
        return fail_at(p, at, RMG_ERR_PARSE, "\\u must be followed by four hex digits");
    p->pos += 5;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail_at(p, at, RMG_ERR_PARSE, "\\u%04X is a lone low surrogate", cp);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        unsigned lo;
        if (p->pos + 1 >= p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
            !read_hex4(p, p->pos + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
            return fail_at(p, at, RMG_ERR_PARSE, "\\u%04X (high surrogate) must be followed by a \\u low surrogate",
                           cp);
        p->pos += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (cp == 0)
        return fail_at(p, at, RMG_ERR_PARSE, "\\u0000 (NUL) is not allowed in strings");
    put_utf8(&p->text, cp);
    return RMG_OK;
}

static rmg_status read_escape(parser *p)
{
    size_t at = p->pos;
    if (++p->pos >= p->len)
        return fail_at(p, at, RMG_ERR_PARSE, "unterminated string");
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    unsigned char c = p->s[p->pos];
    const char *hit = c ? strchr(from, c) : NULL;
    if (hit) {
        rmg__buf_putc(&p->text, to[hit - from]);
        p->pos++;
        return RMG_OK;
    }
    if (c == 'u')
        return read_unicode_escape(p);
    char what[32];
    describe(p, p->pos, what, sizeof what);
    return fail_at(p, at, RMG_ERR_PARSE, "invalid escape: backslash followed by %s", what);
}

/* Length of the valid UTF-8 sequence at pos (1..4), or 0 if invalid (overlong, surrogate,
 * beyond U+10FFFF, truncated). */
static size_t utf8_length(const unsigned char *s, size_t pos, size_t len)
{
    unsigned char c = s[pos];
    size_t n;
    unsigned cp, min;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2, cp = c & 0x1Fu, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, cp = c & 0x0Fu, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, cp = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (pos + n > len)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[pos + i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[pos + i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* Reads a string at p->pos (the opening quote) into arena memory. */
static rmg_status read_string(parser *p, const char **out, size_t *out_len)
{
    size_t start = p->pos++;
    p->text.len = 0;
    for (;;) {
        if (p->pos >= p->len)
            return fail_at(p, start, RMG_ERR_PARSE, "unterminated string");
        unsigned char c = p->s[p->pos];
        if (c == '"')
            break;
        rmg_status st = RMG_OK;
        if (c == '\\') {
            st = read_escape(p);
        } else if (c < 0x20) {
            st = fail_at(p, p->pos, RMG_ERR_PARSE, c == '\n' ? "unterminated string (line break inside)"
                                                              : "control character 0x%02X inside a string", c);
        } else {
            size_t n = utf8_length(p->s, p->pos, p->len);
            if (!n)
                st = fail_at(p, p->pos, RMG_ERR_PARSE, "invalid UTF-8 (byte 0x%02X): JSON text must be UTF-8", c);
            else
                rmg__buf_append(&p->text, (const char *)p->s + p->pos, n);
            p->pos += n;
        }
        if (st != RMG_OK)
            return st;
    }
    p->pos++;
    if (p->text.failed)
        return rmg__error_nomem(p->ctx);
    char *s = rmg__arena_alloc(p->arena, p->text.len + 1);
    if (!s)
        return rmg__error_nomem(p->ctx);
    if (p->text.len)
        memcpy(s, p->text.data, p->text.len);
    s[p->text.len] = '\0';
    *out = s;
    *out_len = p->text.len;
    return RMG_OK;
}

/* ---- numbers ------------------------------------------------------------------------------------- */

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static size_t skip_digits(const parser *p, size_t i)
{
    while (i < p->len && is_digit(p->s[i]))
        i++;
    return i;
}

/* Decimal digits s[from..to) skipping '.', as mantissa * 10^scale with at most 19 digits kept
 * (deterministic, locale-independent; not correctly rounded beyond 2^53, which no template
 * needs). */
static double decimal_value(const unsigned char *s, size_t from, size_t to, long exp10)
{
    uint64_t mant = 0;
    int kept = 0;
    for (size_t i = from; i < to; i++) {
        if (s[i] == '.')
            continue;
        if (kept < 19) {
            mant = mant * 10 + (uint64_t)(s[i] - '0');
            if (mant)
                kept++;
        } else {
            exp10++;
        }
    }
    double v = (double)mant;
    /* Powers by squaring keep the rounding steps few. */
    double scale = 1.0, base = 10.0;
    long e = exp10 < 0 ? -exp10 : exp10;
    while (e) {
        if (e & 1)
            scale *= base;
        base *= base;
        e >>= 1;
    }
    return exp10 < 0 ? v / scale : v * scale;
}

/* The exponent part at *i ("e", sign, digits) into *exp10, if there is one; *i moves past it. */
static rmg_status read_exponent(parser *p, size_t start, size_t *i, long *exp10)
{
    size_t at = *i;
    *exp10 = 0;
    if (at >= p->len || (p->s[at] != 'e' && p->s[at] != 'E'))
        return RMG_OK;
    at++;
    bool eneg = false;
    if (at < p->len && (p->s[at] == '-' || p->s[at] == '+'))
        eneg = p->s[at++] == '-';
    size_t e = at;
    at = skip_digits(p, e);
    if (at == e)
        return fail_at(p, start, RMG_ERR_PARSE, "invalid number: the exponent has no digits");
    long x = 0;
    for (size_t k = e; k < at; k++) {
        x = x * 10 + (p->s[k] - '0');
        if (x > 100000)
            return fail_at(p, start, RMG_ERR_PARSE, "number out of range (exponent too large)");
    }
    *exp10 = eneg ? -x : x;
    *i = at;
    return RMG_OK;
}

/* Digits [from, to) as an exact int64 when they fit; otherwise only the (approximate) double
 * is kept and v->integral is left alone. */
static void exact_integer(const parser *p, size_t from, size_t to, bool neg, rmg__json *v)
{
    uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (size_t k = from; k < to; k++) {
        unsigned d = (unsigned)(p->s[k] - '0');
        if (acc > (limit - d) / 10)
            return;
        acc = acc * 10 + d;
    }
    v->integral = true;
    v->integer = neg ? (acc == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
}

static rmg_status read_number(parser *p, rmg__json *v)
{
    size_t start = p->pos, i = p->pos;
    bool neg = i < p->len && p->s[i] == '-';
    if (neg)
        i++;
    if (i >= p->len || !is_digit(p->s[i]))
        return fail_at(p, start, RMG_ERR_PARSE, "invalid number: a digit must follow '-'");
    if (p->s[i] == '0' && i + 1 < p->len && is_digit(p->s[i + 1]))
        return fail_at(p, start, RMG_ERR_PARSE, "invalid number: leading zeros are not allowed");
    size_t int_from = i;
    i = skip_digits(p, i);
    size_t int_to = i;
    bool integral = true;
    long frac_digits = 0;
    if (i < p->len && p->s[i] == '.') {
        integral = false;
        size_t f = i + 1;
        i = skip_digits(p, f);
        if (i == f)
            return fail_at(p, start, RMG_ERR_PARSE, "invalid number: a digit must follow '.'");
        frac_digits = (long)(i - f);
    }
    long exp10 = 0;
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E'))
        integral = false;
    rmg_status st = read_exponent(p, start, &i, &exp10);
    if (st != RMG_OK)
        return st;
    size_t mant_to = frac_digits ? int_to + 1 + (size_t)frac_digits : int_to;
    double value = decimal_value(p->s, int_from, mant_to, exp10 - frac_digits);
    if (!isfinite(value))
        return fail_at(p, start, RMG_ERR_PARSE, "number out of range");
    v->type = RMG__JSON_NUMBER;
    v->number = neg ? -value : value;
    if (integral) {
        v->integral = false;
        exact_integer(p, int_from, int_to, neg, v);
    }
    p->pos = i;
    return RMG_OK;
}

/* ---- values -------------------------------------------------------------------------------------- */

static rmg_status parse_value(parser *p, rmg__json *v, int depth, const char *parent_key);

static bool match_word(parser *p, const char *w)
{
    size_t n = strlen(w);
    if (p->pos + n > p->len || memcmp(p->s + p->pos, w, n) != 0)
        return false;
    /* "truex" is not "true". */
    if (p->pos + n < p->len) {
        unsigned char c = p->s[p->pos + n];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_')
            return false;
    }
    p->pos += n;
    return true;
}

/* Moves the children pushed since `base` into the arena (array items or object members). */
static rmg_status close_container(parser *p, rmg__json *v, size_t base)
{
    size_t n = p->stack.count - base;
    v->count = n;
    if (!n)
        return RMG_OK;
    size_t elem = v->type == RMG__JSON_OBJECT ? sizeof(rmg__json_member) : sizeof(rmg__json), bytes;
    if (!rmg__mul_ok(n, elem, &bytes))
        return rmg__error_nomem(p->ctx);
    void *dst = rmg__arena_alloc(p->arena, bytes);
    if (!dst)
        return rmg__error_nomem(p->ctx);
    if (v->type == RMG__JSON_OBJECT) {
        memcpy(dst, p->stack.items + base, bytes);
        v->members = dst;
    } else {
        rmg__json *items = dst;
        for (size_t i = 0; i < n; i++)
            items[i] = p->stack.items[base + i].value;
        v->items = items;
    }
    p->stack.count = base;
    return RMG_OK;
}

typedef struct key_ref {
    const char *key;
    size_t index;
} key_ref;

static int compare_keys(const void *a, const void *b)
{
    const key_ref *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

static rmg_status report_duplicate(parser *p, const rmg__json_member *first, const rmg__json_member *again,
                                   const char *parent_key)
{
    char in[80] = "";
    if (parent_key)
        snprintf(in, sizeof in, " in '%.60s'", parent_key);
    return rmg__error_at(p->ctx, RMG_ERR_PARSE, p->name, again->line, again->column,
                         "duplicate key '%.100s'%s (first at line %d, column %d)", again->key, in, first->line,
                         first->column);
}

/* Duplicate keys are an error (which one would win is not defined by JSON). Small objects are
 * checked pairwise, larger ones by sorting, so a huge object stays O(n log n). The duplicate
 * reported is the earliest second occurrence. */
static rmg_status check_unique(parser *p, size_t base, const char *parent_key)
{
    size_t n = p->stack.count - base;
    if (n < 2)
        return RMG_OK; /* before any member was pushed the stack has no array to offset */
    const rmg__json_member *m = p->stack.items + base;
    if (n <= 16) {
        for (size_t j = 1; j < n; j++)
            for (size_t i = 0; i < j; i++)
                if (strcmp(m[i].key, m[j].key) == 0)
                    return report_duplicate(p, &m[i], &m[j], parent_key);
        return RMG_OK;
    }
    key_ref *refs = rmg__malloc(p->ctx, n * sizeof *refs);
    if (!refs)
        return rmg__error_nomem(p->ctx);
    for (size_t i = 0; i < n; i++)
        refs[i] = (key_ref){m[i].key, i};
    qsort(refs, n, sizeof *refs, compare_keys);
    size_t first = 0, again = n;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(refs[i - 1].key, refs[i].key) == 0 && refs[i].index < again) {
            again = refs[i].index;
            /* the first occurrence is the lowest index with this key */
            size_t k = i - 1;
            while (k > 0 && strcmp(refs[k - 1].key, refs[i].key) == 0)
                k--;
            first = refs[k].index;
        }
    }
    rmg__free(p->ctx, refs);
    return again < n ? report_duplicate(p, &m[first], &m[again], parent_key) : RMG_OK;
}

static rmg_status push_child(parser *p, const rmg__json_member *m)
{
    return RMG__VEC_PUSH(p->ctx, &p->stack, *m) ? RMG_OK : rmg__error_nomem(p->ctx);
}

static rmg_status parse_item(parser *p, int depth)
{
    rmg__json_member child;
    memset(&child, 0, sizeof child);
    rmg_status st = parse_value(p, &child.value, depth + 1, NULL);
    return st == RMG_OK ? push_child(p, &child) : st;
}

static rmg_status parse_member(parser *p, int depth)
{
    if (p->pos >= p->len || p->s[p->pos] != '"')
        return unexpected(p, "a quoted key or '}'");
    rmg__json_member m;
    memset(&m, 0, sizeof m);
    size_t len;
    m.line = p->line;
    m.column = column_at(p, p->pos);
    rmg_status st = read_string(p, &m.key, &len);
    if (st == RMG_OK)
        st = skip_blank(p);
    if (st != RMG_OK)
        return st;
    if (p->pos >= p->len || p->s[p->pos] != ':')
        return unexpected(p, "':' after the key");
    p->pos++;
    if ((st = skip_blank(p)) != RMG_OK || (st = parse_value(p, &m.value, depth + 1, m.key)) != RMG_OK)
        return st;
    return push_child(p, &m);
}

/* An object or array at p->pos; trailing commas before the closing bracket are tolerated. */
static rmg_status parse_container(parser *p, rmg__json *v, int depth, const char *parent_key)
{
    bool object = p->s[p->pos] == '{';
    unsigned char close = object ? '}' : ']';
    v->type = object ? RMG__JSON_OBJECT : RMG__JSON_ARRAY;
    size_t base = p->stack.count;
    p->pos++;
    rmg_status st;
    for (;;) {
        if ((st = skip_blank(p)) != RMG_OK)
            return st;
        if (p->pos < p->len && p->s[p->pos] == close)
            break;   /* empty, or a trailing comma before the end */
        if ((st = object ? parse_member(p, depth) : parse_item(p, depth)) != RMG_OK || (st = skip_blank(p)) != RMG_OK)
            return st;
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close)
            break;
        return unexpected(p, object ? "',' or '}' in the object" : "',' or ']' in the array");
    }
    p->pos++;
    if (object && (st = check_unique(p, base, parent_key)) != RMG_OK)
        return st;
    return close_container(p, v, base);
}

static rmg_status parse_value(parser *p, rmg__json *v, int depth, const char *parent_key)
{
    rmg_status st = skip_blank(p);
    if (st != RMG_OK)
        return st;
    v->line = p->line;
    v->column = column_at(p, p->pos);
    if (++p->nodes > p->max_nodes)
        return fail_at(p, p->pos, RMG_ERR_LIMIT, "more than %zu values", p->max_nodes);
    if (p->pos >= p->len)
        return unexpected(p, "a value");
    unsigned char c = p->s[p->pos];
    if ((c == '{' || c == '[') && depth >= p->max_depth)
        return fail_at(p, p->pos, RMG_ERR_LIMIT, "nesting deeper than %d levels", p->max_depth);
    switch (c) {
    case '{':
    case '[':
        return parse_container(p, v, depth, parent_key);
    case '"':
        v->type = RMG__JSON_STRING;
        return read_string(p, &v->string, &v->length);
    default:
        break;
    }
    if (c == '-' || is_digit(c))
        return read_number(p, v);
    if (match_word(p, "true") || match_word(p, "false")) {
        v->type = RMG__JSON_BOOL;
        v->boolean = c == 't';
        return RMG_OK;
    }
    if (match_word(p, "null")) {
        v->type = RMG__JSON_NULL;
        return RMG_OK;
    }
    return unexpected(p, "a value (object, array, string, number, true, false or null)");
}

rmg_status rmg__json_parse(rmg_context *ctx, rmg__arena *arena, const char *data, size_t len, const char *name,
                           const rmg__json_limits *limits, const rmg__json **out)
{
    *out = NULL;
    size_t max_bytes = limits && limits->max_bytes ? limits->max_bytes : RMG__JSON_MAX_BYTES;
    int max_depth = limits && limits->max_depth > 0 ? limits->max_depth : RMG__JSON_MAX_DEPTH;
    size_t max_nodes = limits && limits->max_nodes ? limits->max_nodes : RMG__JSON_MAX_NODES;
    if (len > max_bytes)
        return rmg__error_at(ctx, RMG_ERR_LIMIT, name, 0, 0, "JSON text of %zu bytes is larger than the limit (%zu)",
                             len, max_bytes);
    parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.arena = arena;
    p.name = name;
    p.s = (const unsigned char *)(data ? data : "");
    p.len = len;
    p.max_depth = max_depth;
    p.max_nodes = max_nodes;
    p.line = 1;
    p.col = 1;
    rmg__buf_init(&p.text, ctx);
    if (len >= 3 && memcmp(p.s, "\xEF\xBB\xBF", 3) == 0)
        p.pos = p.line_start = p.col_pos = 3;
    rmg__json *root = rmg__arena_alloc(arena, sizeof *root);
    rmg_status st = root ? parse_value(&p, root, 0, NULL) : rmg__error_nomem(ctx);
    if (st == RMG_OK)
        st = skip_blank(&p);
    if (st == RMG_OK && p.pos < p.len)
        st = unexpected(&p, "end of input after the value");
    RMG__VEC_FREE(ctx, &p.stack);
    rmg__buf_free(&p.text);
    if (st == RMG_OK)
        *out = root;
    return st;
}

const rmg__json_member *rmg__json_find(const rmg__json *obj, const char *key)
{
    if (!obj || obj->type != RMG__JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->members[i].key, key) == 0)
            return &obj->members[i];
    return NULL;
}

const char *rmg__json_type_name(rmg__json_type type)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return (unsigned)type < RMG__ARRAY_LEN(names) ? names[type] : "value";
}
