/* The built-in generator (xoshiro256** seeded by splitmix64) and stream derivation (XXH3). */
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core_internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void rmg_rng_seed(rmg_rng *rng, uint64_t seed)
{
    if (!rng)
        return;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

/* xoshiro256** step; inline so that the draws below cost no call. */
static inline uint64_t next_word(rmg_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rmg_rng_next(rmg_rng *rng)
{
    return next_word(rng);
}

/* 64x64 -> 128-bit product (high and low halves): one instruction where the compiler has a
 * 128-bit type, else in portable C; the same bits either way. */
static inline void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128; /* GCC and Clang: not ISO C, hence the marker */
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    if (b <= UINT32_MAX) { /* the usual case (counts, weights): two products instead of four */
        uint64_t p_lo = (uint32_t)a * b, mid = (a >> 32) * b + (p_lo >> 32);
        *lo = (mid << 32) | (uint32_t)p_lo;
        *hi = mid >> 32;
        return;
    }
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
    *lo = (mid << 32) | (uint32_t)p0;
    *hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
#endif
}

/* Lemire's multiply-shift with rejection: unbiased and uses one draw in the common case. */
uint64_t rmg_rng_below(rmg_rng *rng, uint64_t n)
{
    if (n == 0)
        return 0;
    uint64_t hi, lo;
    mul64(next_word(rng), n, &hi, &lo);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n;
        while (lo < threshold)
            mul64(next_word(rng), n, &hi, &lo);
    }
    return hi;
}

int64_t rmg_rng_range(rmg_rng *rng, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX)
        return (int64_t)rmg_rng_next(rng);
    return (int64_t)((uint64_t)lo + rmg_rng_below(rng, span + 1));
}

long rmg_rng_weighted(rmg_rng *rng, const uint64_t *weights, size_t count)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (weights[i] > UINT64_MAX - total)
            return -1; /* callers keep weights small; overflow means a caller bug */
        total += weights[i];
    }
    if (total == 0)
        return -1;
    uint64_t r = rmg_rng_below(rng, total);
    for (size_t i = 0; i < count; i++) {
        if (r < weights[i])
            return (long)i;
        r -= weights[i];
    }
    return (long)(count - 1);
}

/* rmg_rng_shuffle for 4-byte items (tile lists): the same draws and swaps with fixed-size
 * copies the compiler turns into plain loads and stores. */
static void shuffle_words(rmg_rng *rng, unsigned char *a, size_t count)
{
    for (size_t i = count - 1; i > 0; i--) {
        size_t j = (size_t)rmg_rng_below(rng, (uint64_t)i + 1);
        uint32_t x, y;
        memcpy(&x, a + i * 4, 4);
        memcpy(&y, a + j * 4, 4);
        memcpy(a + i * 4, &y, 4);
        memcpy(a + j * 4, &x, 4);
    }
}

void rmg_rng_shuffle(rmg_rng *rng, void *items, size_t count, size_t size)
{
    if (!items || count < 2 || size == 0 || size > 256)
        return;
    if (size == 4) {
        shuffle_words(rng, items, count);
        return;
    }
    unsigned char tmp[256];
    unsigned char *a = items;
    for (size_t i = count - 1; i > 0; i--) {
        size_t j = (size_t)rmg_rng_below(rng, (uint64_t)i + 1);
        if (j != i) {
            memcpy(tmp, a + i * size, size);
            memcpy(a + i * size, a + j * size, size);
            memcpy(a + j * size, tmp, size);
        }
    }
}

uint64_t rmg_rng_derive(uint64_t parent, const char *label, uint64_t index)
{
    const char *l = label ? label : "";
    uint64_t h = XXH3_64bits_withSeed(l, strlen(l), parent);
    unsigned char idx[8];
    for (int i = 0; i < 8; i++)
        idx[i] = (unsigned char)(index >> (8 * i));
    return XXH3_64bits_withSeed(idx, sizeof idx, h);
}

uint64_t rmg__hash64(const void *data, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(data, len, seed);
}

rmg_status rmg_context_stream(rmg_context *ctx, const char *label, uint64_t index, rmg_rng *out)
{
    if (!ctx || !out)
        return RMG_ERR_INVALID_ARG;
    uint64_t root = ctx->rng ? ctx->rng(ctx->rng_user) : ctx->seed;
    rmg_rng_seed(out, rmg_rng_derive(root, label, index));
    return RMG_OK;
}
