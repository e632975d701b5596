/*
 * Creature-derived object values (spec §8, CRE-02..CRE-07). Each value is one exact integer
 * fraction converted to double once, so results are the same on every platform.
 */
#include "content/content_private.h"

/* CRE-06 budget per creature level. */
static const int64_t level_budget[7] = {5000, 7000, 9000, 12000, 16000, 21000, 27000};

int rmg__creature_count(int level, int ai_value)
{
    if (level < 1 || level > 7 || ai_value <= 0)
        return 0;
    int64_t c = level_budget[level - 1] / ai_value;
    if (c < 1)
        c = 1;
    if (c <= 5)
        return (int)c;
    if (c <= 12)
        return (int)(c + (c & 1));         /* up to even: 7 -> 8, 12 -> 12 */
    if (c <= 50)
        return (int)((c + 2) / 5 * 5);     /* nearest multiple of 5 (no ties for integers) */
    return (int)((c + 5) / 10 * 10);       /* nearest multiple of 10, x5 goes up */
}

/* (1 + n/N) as the fraction (N + n) / N; N = 0 counts n/N as 0. */
static void town_factor(int n, int N, int64_t *num, int64_t *den)
{
    if (N <= 0) {
        *num = 1;
        *den = 1;
    } else {
        *num = (int64_t)N + n;
        *den = N;
    }
}

double rmg__dwelling_value(int ai, int growth, int n, int N)
{
    /* AI * (g * f + n/2) with f = num/den  ==  AI * (2 g num + n den) / (2 den) */
    int64_t num, den;
    town_factor(n, N, &num, &den);
    int64_t top = (int64_t)ai * (2 * (int64_t)growth * num + (int64_t)n * den);
    return (double)top / (double)(2 * den);
}

double rmg__pandora_creature_value(int level, int ai, int n, int N)
{
    int64_t num, den;
    town_factor(n, N, &num, &den);
    int64_t top = (int64_t)ai * rmg__creature_count(level, ai) * num;
    return (double)top / (double)den;
}

double rmg__seer_creature_value(int level, int ai, int n, int N)
{
    /* (2 * AI * c * f - 4000) / 3 == (2 AI c num - 4000 den) / (3 den) */
    int64_t num, den;
    town_factor(n, N, &num, &den);
    int64_t top = 2 * (int64_t)ai * rmg__creature_count(level, ai) * num - 4000 * den;
    return (double)top / (double)(3 * den);
}

int rmg_creature_count(int level, int ai_value)
{
    return rmg__creature_count(level, ai_value);
}

double rmg_dwelling_value(int ai_value, int growth, int n, int N)
{
    return rmg__dwelling_value(ai_value, growth, n, N);
}

double rmg_pandora_creature_value(int level, int ai_value, int n, int N)
{
    return rmg__pandora_creature_value(level, ai_value, n, N);
}

double rmg_seer_creature_value(int level, int ai_value, int n, int N)
{
    return rmg__seer_creature_value(level, ai_value, n, N);
}
