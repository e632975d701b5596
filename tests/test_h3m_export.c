/*
 * The .h3m export (issue 22): every generated map is written for HotA and, with the SoD ruleset,
 * for SoD; the project's reader reads each file back to the last byte (write(read(file)) is the
 * file); every object of the map is in the file at its anchor with its class and subclass and its
 * body's fields; the tiles the file blocks (terrain plus object masks, computed from the file
 * alone) are the map's passable layer; same map, same bytes; a SoD file of HotA content is
 * refused naming what SoD lacks, and nothing is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmg_test.h"
#include "export/h3m/h3m_doc.h"
#include "export/h3m/h3m_kinds.h"

typedef struct written {
    unsigned char *file;
    size_t file_len;
    uint8_t *stream;
    size_t stream_len;
    rmg__h3m_doc *doc;
} written;

static void write_and_read(rmg_map *map, rmg_h3m_edition edition, written *w)
{
    rmg_context *ctx = ((struct rmg_map *)map)->ctx;
    rmg_h3m_options o;
    rmg_h3m_options_init(&o);
    o.edition = edition;
    if (rmg_map_to_h3m(map, &o, &w->file, &w->file_len) != RMG_OK)
        fail_msg("rmg_map_to_h3m: %s", rmg_context_errmsg(ctx));
    /* The editor's gzip header: deflate, no name, mtime 0, OS 11 (h3m-format.md §1). */
    static const unsigned char gz[10] = {0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x0B};
    assert_memory_equal(w->file, gz, sizeof gz);
    assert_int_equal(rmg__h3m_decompress(ctx, w->file, w->file_len, &w->stream, &w->stream_len), RMG_OK);
    if (rmg__h3m_read(ctx, w->file, w->file_len, "export.h3m", &w->doc) != RMG_OK)
        fail_msg("the project's reader refused the file: %s", rmg_context_errmsg(ctx));
    /* Read back to the last byte: writing what was read gives the same stream. */
    uint8_t *again = NULL;
    size_t again_len = 0;
    assert_int_equal(rmg__h3m_write(ctx, w->doc, &again, &again_len), RMG_OK);
    assert_int_equal(again_len, w->stream_len);
    assert_memory_equal(again, w->stream, w->stream_len);
    rmg_free(ctx, again);
    /* The format's tail: 124 zero bytes after the events, nothing after them (§17). */
    assert_int_equal(w->doc->event_count, 0);
    assert_true(w->stream_len > RMG__H3M_TAIL_BYTES);
    for (size_t i = w->stream_len - RMG__H3M_TAIL_BYTES; i < w->stream_len; i++)
        assert_int_equal(w->stream[i], 0);
}

static void written_free(rmg_context *ctx, written *w)
{
    rmg_free(ctx, w->file);
    rmg_free(ctx, w->stream);
    rmg__h3m_doc_free(w->doc);
    memset(w, 0, sizeof *w);
}

/* Blocked tiles from the file alone: water and rock terrain, and every tile an object's passable
 * mask closes. */
static uint8_t *blocked_from_file(const rmg__h3m_doc *d)
{
    int side = (int)d->basic.size, levels = d->basic.two_levels ? 2 : 1;
    size_t n = (size_t)side * (size_t)side * (size_t)levels;
    uint8_t *blocked = calloc(n, 1);
    assert_non_null(blocked);
    for (size_t t = 0; t < n; t++) {
        uint8_t terrain = d->tiles[t * RMG__H3M_TILE_BYTES];
        blocked[t] = terrain == RMG_TERRAIN_WATER || terrain == RMG_TERRAIN_ROCK;
    }
    for (uint32_t i = 0; i < d->object_count; i++) {
        const rmg__h3m_object *o = &d->objects[i];
        const rmg__h3m_template *t = &d->templates[o->template_index];
        for (int row = 0; row < 6; row++)
            for (int col = 0; col < 8; col++) {
                if (t->passable[row] >> col & 1u)
                    continue;
                int x = o->pos.x - (7 - col), y = o->pos.y - (5 - row);
                if (x >= 0 && y >= 0 && x < side && y < side)
                    blocked[(size_t)o->pos.z * (size_t)side * (size_t)side + (size_t)y * (size_t)side + (size_t)x] = 1;
            }
    }
    return blocked;
}

static void check_blocking(rmg_map *map, const rmg__h3m_doc *d)
{
    size_t n = rmg_map_layer_size(map, RMG_LAYER_PASSABLE);
    uint8_t *passable = malloc(n);
    assert_non_null(passable);
    assert_int_equal(rmg_map_copy_layer(map, RMG_LAYER_PASSABLE, passable, n), RMG_OK);
    uint8_t *blocked = blocked_from_file(d);
    for (size_t t = 0; t < n; t++)
        if (blocked[t] == passable[t])
            fail_msg("tile %zu: the file %s it, the map's passable layer says %d", t, blocked[t] ? "blocks" : "opens",
                     passable[t]);
    free(blocked);
    free(passable);
}

/* The body of a written object holds what the map object holds. */
static void check_body(const struct rmg_map *m, const rmg__map_object *o, const rmg__h3m_object *w, int cls, int sub,
                       bool hota)
{
    switch (w->kind) {
    case RMG__H3M_BODY_TOWN:
        assert_int_equal(w->body->town.owner, o->owner >= 1 ? o->owner - 1 : 0xFF);
        assert_int_equal(w->body->town.has_fort, o->castle);
        assert_int_equal(w->body->town.has_buildings, 0);
        assert_true(w->body->town.identifier != 0);
        break;
    case RMG__H3M_BODY_MONSTER:
        if (w->body->monster.count != o->count)
            fail_msg("object %u (%s, kind %d) at %d,%d,%d: count %d written as %u", o->id, o->key, (int)o->kind, o->x, o->y,
                     o->z, o->count, w->body->monster.count);
        if (hota) { /* SoD has no joining fields */
            assert_int_equal(w->body->monster.join_percent, o->join_percent);
            assert_int_equal(w->body->monster.money_only, o->join_for_money);
        }
        assert_true(w->body->monster.identifier != 0);
        break;
    case RMG__H3M_BODY_HERO: /* a prison */
        assert_int_equal(w->body->hero.owner, 0xFF);
        assert_int_equal(w->body->hero.data.experience, (uint32_t)o->amount);
        break;
    case RMG__H3M_BODY_SEER:
        assert_int_equal(w->body->seer.task_count, 1);
        assert_int_equal(w->body->seer.tasks[0].quest.type, RMG__H3M_QUEST_ARTIFACTS);
        assert_int_equal(w->body->seer.tasks[0].quest.artifacts[0].id,
                         rmg__content_peek(m->ctx)->artifacts[o->artifact].id);
        break;
    case RMG__H3M_BODY_RESOURCE: /* a pile's amount, gold in hundreds; random resources random */
        assert_int_equal(w->body->resource.amount, cls != 79 ? 0 : (uint32_t)(sub == 6 ? o->amount / 100 : o->amount));
        break;
    case RMG__H3M_BODY_SCROLL:
        assert_int_equal(w->body->scroll.spell, (uint32_t)rmg__content_peek(m->ctx)->spells[o->spell].id);
        break;
    case RMG__H3M_BODY_PANDORA:
        assert_int_equal(w->body->pandora.box.spell_count, o->n_spells > 255 ? 255 : o->n_spells);
        break;
    default:
        break;
    }
}

/* Every map object is in the file, in order, at its anchor (or where its template puts it: a
 * HotA 1.7 monster row one tile right), with its class and subclass. The two first templates are
 * the editor's unused ones. */
static void check_objects(rmg_map *map, const rmg__h3m_doc *d, bool hota)
{
    const struct rmg_map *m = map;
    assert_int_equal(d->object_count, m->objects.count);
    assert_true(d->template_count >= 2);
    assert_int_equal(d->templates[0].class_id, 71);
    assert_int_equal(d->templates[1].class_id, 124);
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        const rmg__h3m_object *w = &d->objects[i];
        const rmg__h3m_template *t = &d->templates[w->template_index];
        int cls, sub, shift;
        assert_non_null(rmg__h3m_object_template(m, o, hota, &cls, &sub, &shift));
        assert_int_equal(t->class_id, (uint32_t)cls);
        assert_int_equal(t->subclass, (uint32_t)sub);
        assert_int_equal(w->pos.x, o->x + shift);
        assert_int_equal(w->pos.y, o->y);
        assert_int_equal(w->pos.z, o->z);
        check_body(m, o, w, cls, sub, hota);
    }
}

/* Players: one block per start zone's owner, with the main town's entrance. */
static void check_players(rmg_map *map, const rmg__h3m_doc *d)
{
    const struct rmg_map *m = map;
    for (size_t i = 0; i < m->objects.count; i++) {
        const rmg__map_object *o = &m->objects.items[i];
        if (o->kind != RMG_OBJECT_TOWN || !o->main || o->owner < 1)
            continue;
        const rmg__h3m_player *p = &d->players[o->owner - 1];
        assert_int_equal(p->can_computer, 1);
        assert_int_equal(p->has_main_town, 1);
        assert_int_equal(p->main_town_faction, o->faction);
        assert_int_equal(p->main_town.y, o->y);
        assert_int_equal(p->main_town.x, o->x - 2); /* the town's gate, two left of its anchor */
    }
}

static void check_map(rmg_map *map, rmg_h3m_edition edition)
{
    rmg_context *ctx = ((struct rmg_map *)map)->ctx;
    written w = {0};
    write_and_read(map, edition, &w);
    assert_int_equal(w.doc->format, edition == RMG_H3M_SOD ? RMG__H3M_SOD : RMG__H3M_HOTA);
    if (edition == RMG_H3M_HOTA)
        assert_int_equal(w.doc->hota_sub, 8);
    assert_int_equal(w.doc->basic.size, (uint32_t)rmg_map_width(map));
    assert_int_equal(w.doc->basic.two_levels, rmg_map_levels(map) == 2);
    check_objects(map, w.doc, edition == RMG_H3M_HOTA);
    check_blocking(map, w.doc);
    check_players(map, w.doc);
    /* Same map, same file. */
    unsigned char *again = NULL;
    size_t len = 0;
    rmg_h3m_options o;
    rmg_h3m_options_init(&o);
    o.edition = edition;
    assert_int_equal(rmg_map_to_h3m(map, &o, &again, &len), RMG_OK);
    assert_int_equal(len, w.file_len);
    assert_memory_equal(again, w.file, len);
    rmg_free(ctx, again);
    written_free(ctx, &w);
}

static rmg_map *generate(rmg_context *ctx, const char *file, int side, int levels)
{
    rmg_pack *pack = NULL;
    if (file && rmg_pack_load(ctx, file, RMG_FORMAT_AUTO, &pack) != RMG_OK)
        fail_msg("%s: %s", file, rmg_context_errmsg(ctx));
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = side;
    go.levels = levels;
    rmg_map *map = NULL;
    rmg_status st = rmg_generate(ctx, pack, &go, &map);
    rmg_pack_destroy(pack);
    if (st != RMG_OK)
        fail_msg("%s: %s", file ? file : "built-in", rmg_context_errmsg(ctx));
    return map;
}

static void test_builtin_maps_hota_and_sod(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        rmg_context *ctx = rmg_test_context(NULL, seed);
        rmg_map *map = generate(ctx, NULL, 72, 1);
        check_map(map, RMG_H3M_HOTA);
        rmg_map_destroy(map);
        map = generate(ctx, NULL, 144, 2);
        check_map(map, RMG_H3M_HOTA);
        rmg_map_destroy(map);
        assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
        map = generate(ctx, NULL, 108, 2);
        check_map(map, RMG_H3M_SOD);
        check_map(map, RMG_H3M_HOTA); /* SoD content is HotA content too */
        rmg_map_destroy(map);
        rmg_context_destroy(ctx);
    }
}

static void test_corpus_maps(void **state)
{
    (void)state;
    const char *files[] = {"corpus/h3t/sokie__heroes3-template-util__templates__jebus_converted.h3t",
                           "corpus/vcmi/hdmod/clashOfDragons.json",
                           "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__2SM2c__rmg.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *path = rmg_test_shared_present(files[i]);
        if (!path)
            continue;
        for (int sod = 0; sod <= 1; sod++) {
            rmg_context *ctx = rmg_test_context(NULL, 3);
            if (sod)
                assert_int_equal(rmg_context_set_content_variant(ctx, RMG_CONTENT_SOD), RMG_OK);
            rmg_map *map = generate(ctx, path, 0, 0);
            if (!sod || rmg_map_width(map) <= 144)
                check_map(map, sod ? RMG_H3M_SOD : RMG_H3M_HOTA);
            rmg_map_destroy(map);
            rmg_context_destroy(ctx);
        }
    }
}

/* A SoD file of a map with HotA content is refused, naming the first HotA thing; nothing is
 * written. AUTO picks the edition of the map's ruleset. */
static void test_sod_file_of_hota_content_is_refused(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *map = generate(ctx, NULL, 72, 1);
    rmg_h3m_options o;
    rmg_h3m_options_init(&o);
    o.edition = RMG_H3M_SOD;
    char path[64];
    snprintf(path, sizeof path, "rmg-test-sod-%ld.h3m", (long)rmg_map_seed(map) + (long)(size_t)&path % 100000);
    remove(path);
    assert_int_equal(rmg_map_save_h3m(map, path, &o), RMG_ERR_UNSUPPORTED);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "HotA"));
    print_message("%s\n", rmg_context_errmsg(ctx));
    FILE *f = fopen(path, "rb");
    assert_null(f);
    /* AUTO: the HotA ruleset gives a HotA file. */
    unsigned char *data = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_h3m(map, NULL, &data, &len), RMG_OK);
    rmg__h3m_doc *d = NULL;
    assert_int_equal(rmg__h3m_read(ctx, data, len, "auto.h3m", &d), RMG_OK);
    assert_int_equal(d->format, RMG__H3M_HOTA);
    rmg__h3m_doc_free(d);
    rmg_free(ctx, data);
    /* rmg_map_save picks the writer by extension. */
    assert_int_equal(rmg_map_save(map, path), RMG_OK);
    f = fopen(path, "rb");
    assert_non_null(f);
    fclose(f);
    remove(path);
    o.edition = (rmg_h3m_edition)7;
    assert_int_equal(rmg_map_to_h3m(map, &o, &data, &len), RMG_ERR_INVALID_ARG);
    assert_int_equal(rmg_map_to_h3m(NULL, NULL, &data, &len), RMG_ERR_INVALID_ARG);
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* Sizes the format cannot hold are refused with the reason. */
static void test_sizes_the_format_lacks(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_map *map = generate(ctx, NULL, 60, 1);
    unsigned char *data = NULL;
    size_t len = 0;
    assert_int_equal(rmg_map_to_h3m(map, NULL, &data, &len), RMG_ERR_UNSUPPORTED);
    assert_non_null(strstr(rmg_context_errmsg(ctx), "60x60"));
    rmg_map_destroy(map);
    rmg_context_destroy(ctx);
}

/* Golden bytes of a HotA file's header (h3m-format.md §3): format 0x20, sub-version 8, editor
 * 1.7.3, no mirror or arena, 12 terrains, 11 towns, every difficulty, the hire-defeated flag, not
 * locked; then players yes, size 36, one level and the name. */
static void test_header_golden_bytes(void **state)
{
    (void)state;
    rmg_context *ctx = rmg_test_context(NULL, 1);
    rmg_pack *pack = NULL;
    assert_int_equal(rmg_pack_builtin(ctx, &pack), RMG_OK);
    rmg_generate_options go;
    rmg_generate_options_init(&go);
    go.width = go.height = 36;
    go.levels = 1;
    go.template_name = "Duet";
    rmg_map *map = NULL;
    assert_int_equal(rmg_generate(ctx, pack, &go, &map), RMG_OK);
    written w = {0};
    write_and_read(map, RMG_H3M_HOTA, &w);
    static const uint8_t golden[] = {
        0x20, 0, 0, 0, 8, 0, 0, 0,           /* format, sub-version */
        1, 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0,  /* 1.7.3 */
        0, 0,                                /* mirror, arena */
        12, 0, 0, 0, 11, 0, 0, 0,            /* terrain and town types */
        0x1F, 1, 0,                          /* difficulties, hire defeated, lock */
        1, 36, 0, 0, 0, 0,                   /* has players, size, two levels */
        4, 0, 0, 0, 'D', 'u', 'e', 't'};     /* name */
    assert_true(w.stream_len > sizeof golden);
    assert_memory_equal(w.stream, golden, sizeof golden);
    written_free(ctx, &w);
    rmg_map_destroy(map);
    rmg_pack_destroy(pack);
    rmg_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_header_golden_bytes),
        cmocka_unit_test(test_sod_file_of_hota_content_is_refused),
        cmocka_unit_test(test_sizes_the_format_lacks),
        cmocka_unit_test(test_builtin_maps_hota_and_sod),
    };
    /* These read the shared folder. */
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_corpus_maps),
    };
    return RMG_TEST_MAIN(plain, shared, "corpus");
}
