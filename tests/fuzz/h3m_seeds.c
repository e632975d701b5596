/* Seed inputs for the h3m fuzzer (scripts/fuzz.sh): small cuts of real maps (h3m_shrink.h) and
 * small generated maps with water (seas, shipyards, boats) and an underground, each written
 * uncompressed and gzipped, so the fuzzer starts from inputs that read.
 *   fuzz_h3m_seeds OUT_DIR MAP.h3m...                                                        */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3m_shrink.h"
#include "seed_maps.h"

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(data, cap);
            if (!grown)
                break;
            data = grown;
        }
        size_t n = fread(data + *len, 1, cap - *len, f);
        if (n == 0)
            break;
        *len += n;
    }
    fclose(f);
    return data;
}

static int write_all(const char *dir, const char *base, const char *suffix, const uint8_t *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, base, suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) != 0 || w != len) ? 1 : 0;
}

static int make_seed(rmg_context *ctx, const char *dir, const char *path)
{
    size_t len = 0;
    uint8_t *data = read_all(path, &len);
    rmg__h3m_doc *doc = NULL;
    uint8_t *raw = NULL, *gz = NULL;
    size_t raw_len = 0, gz_len = 0;
    int failed = !data || rmg__h3m_read(ctx, data, len, path, &doc) != RMG_OK ||
                 rmg_h3m_shrink(doc, 36, 64) != RMG_OK || rmg__h3m_write(ctx, doc, &raw, &raw_len) != RMG_OK ||
                 rmg__h3m_compress(ctx, raw, raw_len, &gz, &gz_len) != RMG_OK;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!failed)
        failed = write_all(dir, base, ".raw", raw, raw_len) || write_all(dir, base, ".small.h3m", gz, gz_len);
    if (failed)
        fprintf(stderr, "h3m seeds: %s: %s\n", path, data ? rmg_context_errmsg(ctx) : "cannot read");
    rmg__free(ctx, gz);
    rmg__free(ctx, raw);
    rmg__h3m_doc_free(doc);
    free(data);
    return failed;
}

/* A 36x36 map of the built-in pack with this water and levels, as an .h3m seed. */
static int generated_seed(rmg_context *ctx, const char *dir, int seed, rmg_water_level water, int levels)
{
    rmg_map *map = NULL;
    unsigned char *gz = NULL;
    uint8_t *raw = NULL;
    size_t gz_len = 0, raw_len = 0;
    int failed = rmg_fuzz_seed_map(ctx, seed, levels, water, &map) != RMG_OK || rmg_map_to_h3m(map, NULL, &gz, &gz_len) != RMG_OK ||
                 rmg__h3m_decompress(ctx, gz, gz_len, &raw, &raw_len) != RMG_OK;
    char base[64];
    snprintf(base, sizeof base, "generated-%d-water%d-levels%d", seed, (int)water, levels);
    if (!failed)
        failed = write_all(dir, base, ".raw", raw, raw_len) || write_all(dir, base, ".h3m", gz, gz_len);
    if (failed)
        fprintf(stderr, "h3m seeds: %s: %s\n", base, rmg_context_errmsg(ctx));
    rmg_free(ctx, gz);
    rmg__free(ctx, raw);
    rmg_map_destroy(map);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_h3m_seeds OUT_DIR MAP.h3m...\n");
        return 2;
    }
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK)
        return 1;
    int failed = 0;
    for (int i = 2; i < argc; i++)
        failed |= make_seed(ctx, argv[1], argv[i]);
    /* Water on two levels (no room for a sea on one level of a 36x36 map of the built-in pack). */
    failed |= generated_seed(ctx, argv[1], 1, RMG_WATER_NORMAL, 2);
    failed |= generated_seed(ctx, argv[1], 2, RMG_WATER_ISLANDS, 2);
    rmg_context_destroy(ctx);
    return failed;
}
