/*
 * "Did you mean": the one edit distance behind every message that names a bad key or value
 * (the YAML template reader, the rmg command, the Python bindings through rmg_name_suggest).
 */
#include <string.h>

#include "core_internal.h"

/* Longest word compared; longer ones are never suggested (nobody mistypes a paragraph). */
#define SUGGEST_MAX 64

static unsigned char fold(char c)
{
    return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c == '-' || c == ' ' ? '_' : c);
}

/* Optimal string alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbours, each 1), ASCII case, '-' and ' ' against '_' folded; SIZE_MAX for words longer
 * than SUGGEST_MAX. O(|a| |b|) time, three rows on the stack. */
size_t rmg__edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > SUGGEST_MAX || m > SUGGEST_MAX)
        return SIZE_MAX;
    size_t rows[3][SUGGEST_MAX + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
            size_t d = RMG__MIN(prev[j] + 1, cur[j - 1] + 1);
            d = RMG__MIN(d, prev[j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
                d = RMG__MIN(d, prev2[j - 2] + 1);
            cur[j] = d;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

int rmg_name_suggest(const char *word, const char *const *names, size_t count)
{
    if (!word || !names || !*word)
        return -1;
    size_t best = SIZE_MAX;
    int found = -1;
    for (size_t i = 0; i < count && i <= (size_t)INT32_MAX; i++) {
        if (!names[i] || !*names[i])
            continue;
        size_t d = rmg__edit_distance(word, names[i]);
        /* Close enough to be a slip: a third of the longer word (at least one edit), and never
         * the whole of the shorter one ("ab" is not a slip of "cd"). */
        size_t longer = RMG__MAX(strlen(word), strlen(names[i]));
        size_t shorter = RMG__MIN(strlen(word), strlen(names[i]));
        if (d < best && d <= RMG__MAX((size_t)1, longer / 3) && d < shorter) {
            best = d;
            found = (int)i;
        }
    }
    return found;
}
