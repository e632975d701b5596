/* Every field of the model's schema tables, one at a time: changing it changes the YAML that
 * is written, and reading that YAML gives the changed model back (so no setting is written
 * but not read, read but not written, or silently dropped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "template/schema.h"

/* Every list of the model holds one element, so the walk reaches every field. */
static const char base_yaml[] =
    "name: base\n"
    "templates:\n"
    "  - name: T\n"
    "    rules: [{op: forbid, target: all}]\n"
    "    zones:\n"
    "      - id: 1\n"
    "        rules: [{op: forbid, target: all}]\n"
    "        type_rules: [{kind: town_same, zone_a: 1, zone_b: 1}]\n"
    "        mirror_links: [{surface: gate, underground: gate}]\n"
    "    connections: [{a: 1, b: 1, value: 0}]\n";

typedef struct walk {
    rmg_context *ctx;
    rmg_pack *pack;
    char *base_text;
    size_t mutated;
} walk;

#define AT(p, off, T) ((T *)(void *)((unsigned char *)(p) + (off)))

static char *write_yaml(walk *w)
{
    char *text = NULL;
    if (rmg_pack_to_yaml(w->pack, &text, NULL) != RMG_OK)
        fail_msg("write: %s", rmg_context_errmsg(w->ctx));
    return text;
}

/* Changes field f of obj to another valid value. */
static void mutate(const rmg__field *f, void *obj)
{
    static const char mutated_text[] = "mutated";
    static rmg__override one = {5, true};
    switch (f->kind) {
    case RMG__F_INT: *AT(obj, f->off, int) += 7; break;
    case RMG__F_INT64: *AT(obj, f->off, int64_t) += 7; break;
    case RMG__F_PARAM: {
        int64_t *v = AT(obj, f->off, int64_t);
        *v = *v == RMG__PARAM_DEFAULT ? 123 : RMG__PARAM_DEFAULT;
        break;
    }
    case RMG__F_DOUBLE: *AT(obj, f->off, double) += 0.25; break;
    case RMG__F_BOOL: *AT(obj, f->off, bool) = !*AT(obj, f->off, bool); break;
    case RMG__F_STR: *AT(obj, f->off, char *) = (char *)(uintptr_t)mutated_text; break;
    case RMG__F_ENUM: {
        int *v = AT(obj, f->off, int);
        *v = (*v + 1) % (int)f->names->count;
        break;
    }
    case RMG__F_MASK: *AT(obj, f->off, uint32_t) ^= 5u; break;
    case RMG__F_OPTMASK:
        *AT(obj, f->off2, bool) = true;
        *AT(obj, f->off, uint32_t) ^= 1u;
        break;
    case RMG__F_MINES: AT(obj, f->off, int)[3] += 1; break;
    case RMG__F_OVERRIDES: {
        rmg__override_list *l = AT(obj, f->off, rmg__override_list);
        l->items = &one;
        l->count = 1;
        break;
    }
    default: fail_msg("not a scalar field: %s", f->key);
    }
}

/* `size` is the size of the object holding the field: all of it is restored afterwards. */
static void check_field(walk *w, const rmg__field *f, void *obj, size_t size, const char *where)
{
    unsigned char saved[RMG__SCHEMA_MAX_ELEM];
    assert_true(size <= sizeof saved);
    memcpy(saved, obj, size);
    mutate(f, obj);
    char *text = write_yaml(w);
    if (strcmp(text, w->base_text) == 0)
        fail_msg("%s.%s: changing it does not change the YAML", where, f->key);
    rmg_pack *q = NULL;
    if (rmg_pack_load_string(w->ctx, text, strlen(text), "m.yaml", RMG_FORMAT_YAML, &q) != RMG_OK)
        fail_msg("%s.%s: cannot re-read: %s\n%s", where, f->key, rmg_context_errmsg(w->ctx), text);
    char why[256];
    if (!rmg__pack_equal(w->pack, q, why, sizeof why))
        fail_msg("%s.%s: round trip differs at %s", where, f->key, why);
    rmg_pack_destroy(q);
    rmg_free(w->ctx, text);
    memcpy(obj, saved, size);
    w->mutated++;
}

static void visit(walk *w, const rmg__schema *s, void *obj, const char *where)
{
    for (size_t i = 0; i < s->n_fields; i++) {
        const rmg__field *f = &s->fields[i];
        switch (f->kind) {
        case RMG__F_GROUP:
            visit(w, f->sub, obj, f->key);
            break;
        case RMG__F_SUB:
            visit(w, f->sub, AT(obj, f->off, unsigned char), f->key);
            break;
        case RMG__F_FIXED:
            visit(w, f->sub, AT(obj, f->off, unsigned char), f->key);
            break;
        case RMG__F_LIST:
            assert_true(*AT(obj, f->off2, size_t) >= 1);
            visit(w, f->sub, *AT(obj, f->off, void *), f->key);
            break;
        default:
            check_field(w, f, obj, s->size, where);
        }
    }
}

static void test_every_schema_field_is_written_and_read(void **state)
{
    (void)state;
    walk w = {rmg_test_context(NULL, 1), NULL, NULL, 0};
    assert_int_equal(rmg_pack_load_string(w.ctx, base_yaml, sizeof base_yaml - 1, "b.yaml", RMG_FORMAT_YAML, &w.pack),
                     RMG_OK);
    w.base_text = write_yaml(&w);
    visit(&w, &rmg__pack_schema, w.pack, "pack");
    print_message("%zu fields checked\n", w.mutated);
    assert_true(w.mutated >= 100);
    rmg_free(w.ctx, w.base_text);
    rmg_pack_destroy(w.pack);
    rmg_context_destroy(w.ctx);
}

/* docs/template-format.md documents every key of the schema (as `key`). */
static void check_documented(const rmg__schema *s, const char *doc, size_t *keys)
{
    for (size_t i = 0; i < s->n_fields; i++) {
        const rmg__field *f = &s->fields[i];
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", f->key);
        if (!strstr(doc, quoted))
            fail_msg("docs/template-format.md does not document the %s key %s", s->what, quoted);
        (*keys)++;
        if (f->sub)
            check_documented(f->sub, doc, keys);
    }
}

static void test_every_key_is_documented(void **state)
{
    (void)state;
    size_t len = 0, keys = 0;
    char *doc = rmg_test_read_file(rmg_test_source("docs/template-format.md"), &len);
    assert_non_null(doc);
    check_documented(&rmg__pack_schema, doc, &keys);
    print_message("%zu keys documented\n", keys);
    free(doc);
}

/* A field appended to the model must also be added to the schema tables (lib/template/schema.c),
 * or YAML silently drops it (rmg__template.damage is a reader's note, not a setting). These sizes (LP64) change when a field is appended: then add the
 * field to schema.c and update the size here. */
static void test_model_layout_matches_schema(void **state)
{
    (void)state;
    if (sizeof(void *) != 8 || sizeof(long) != 8)
        skip();
    assert_int_equal(sizeof(rmg__zone), 368);
    assert_int_equal(sizeof(rmg__template), 200);
    assert_int_equal(sizeof(struct rmg_pack), 200);   /* + warning notes and load errors: no settings */
    assert_int_equal(sizeof(rmg__rule), 120);
    assert_int_equal(sizeof(rmg__type_rule), 40);
    assert_int_equal(sizeof(rmg__mirror_link), 72);
    assert_int_equal(sizeof(rmg__connection), 64);
    assert_int_equal(sizeof(rmg__player_filter), 16);
    assert_int_equal(sizeof(rmg__treasure), 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_schema_field_is_written_and_read),
        cmocka_unit_test(test_model_layout_matches_schema),
        cmocka_unit_test(test_every_key_is_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
