/* The .h3m document: creation, the editor's defaults, and the helpers a writer fills it with. */
#include <string.h>

#include "h3m_doc.h"

rmg_status rmg__h3m_doc_new(rmg_context *ctx, rmg__h3m_doc **out)
{
    if (!ctx || !out)
        return RMG_ERR_INVALID_ARG;
    *out = NULL;
    rmg__h3m_doc *doc = rmg__calloc(ctx, 1, sizeof *doc);
    if (!doc)
        return rmg__error_nomem(ctx);
    doc->ctx = ctx;
    rmg__arena_init(&doc->arena, ctx, 64 * 1024);
    *out = doc;
    return RMG_OK;
}

void rmg__h3m_doc_free(rmg__h3m_doc *doc)
{
    if (!doc)
        return;
    rmg_context *ctx = doc->ctx;
    rmg__arena_free(&doc->arena);
    rmg__free(ctx, doc->templates);
    rmg__free(ctx, doc->objects);
    rmg__free(ctx, doc);
}

void *rmg__h3m_alloc(rmg__h3m_doc *doc, size_t count, size_t elem)
{
    size_t size = 0;
    if (count == 0)
        return NULL;
    if (!rmg__mul_ok(count, elem, &size)) {
        rmg__error_nomem(doc->ctx);
        return NULL;
    }
    void *p = rmg__arena_alloc(&doc->arena, size);
    if (!p)
        rmg__error_nomem(doc->ctx);
    return p;
}

rmg_status rmg__h3m_str_setn(rmg__h3m_doc *doc, rmg__h3m_str *s, const void *bytes, size_t len)
{
    if (len > UINT32_MAX)
        return rmg__error_set(doc->ctx, RMG_ERR_INVALID_ARG, "h3m: a string of %zu bytes is too long", len);
    if (len == 0) {
        s->data = NULL;
        s->len = 0;
        return RMG_OK;
    }
    char *data = rmg__h3m_alloc(doc, len + 1, 1);
    if (!data)
        return RMG_ERR_NOMEM;
    memcpy(data, bytes, len);
    data[len] = '\0';
    s->data = data;
    s->len = (uint32_t)len;
    return RMG_OK;
}

rmg_status rmg__h3m_str_set(rmg__h3m_doc *doc, rmg__h3m_str *s, const char *text)
{
    return rmg__h3m_str_setn(doc, s, text, text ? strlen(text) : 0);
}

/* Room for one more element of a growable table (zeroed). */
static void *table_push(rmg__h3m_doc *doc, void **items, uint32_t *count, size_t *cap, size_t elem)
{
    if (*count == UINT32_MAX) {
        rmg__error_set(doc->ctx, RMG_ERR_LIMIT, "h3m: too many templates or objects");
        return NULL;
    }
    if (!rmg__vec_grow(doc->ctx, items, cap, (size_t)*count + 1, elem)) {
        rmg__error_nomem(doc->ctx);
        return NULL;
    }
    uint8_t *slot = (uint8_t *)*items + (size_t)*count * elem;
    memset(slot, 0, elem);
    (*count)++;
    return slot;
}

rmg__h3m_template *rmg__h3m_add_template(rmg__h3m_doc *doc, uint32_t *index)
{
    uint32_t at = doc->template_count;
    rmg__h3m_template *t =
        table_push(doc, (void **)&doc->templates, &doc->template_count, &doc->template_cap, sizeof *t);
    if (t && index)
        *index = at;
    return t;
}

rmg_status rmg__h3m_reserve_objects(rmg__h3m_doc *doc, size_t count)
{
    if (!rmg__vec_grow(doc->ctx, (void **)&doc->objects, &doc->object_cap, count, sizeof *doc->objects))
        return rmg__error_nomem(doc->ctx);
    return RMG_OK;
}

#define BODY_SIZE(kind, member) [kind] = sizeof(((rmg__h3m_body *)0)->member)

static const size_t body_sizes[RMG__H3M_BODY_KINDS] = {
    BODY_SIZE(RMG__H3M_BODY_ARTIFACT, artifact),
    BODY_SIZE(RMG__H3M_BODY_PANDORA, pandora),
    BODY_SIZE(RMG__H3M_BODY_BLACK_MARKET, black_market),
    BODY_SIZE(RMG__H3M_BODY_REWARD18, reward18),
    BODY_SIZE(RMG__H3M_BODY_BANK, bank),
    BODY_SIZE(RMG__H3M_BODY_OWNED, owner),
    BODY_SIZE(RMG__H3M_BODY_REWARD8, reward8),
    BODY_SIZE(RMG__H3M_BODY_EVENT, event),
    BODY_SIZE(RMG__H3M_BODY_GARRISON, garrison),
    BODY_SIZE(RMG__H3M_BODY_HERO, hero),
    BODY_SIZE(RMG__H3M_BODY_GRAIL, grail_radius),
    BODY_SIZE(RMG__H3M_BODY_ABANDONED_MINE, mine),
    BODY_SIZE(RMG__H3M_BODY_MONSTER, monster),
    BODY_SIZE(RMG__H3M_BODY_MESSAGE, message),
    BODY_SIZE(RMG__H3M_BODY_RESOURCE, resource),
    BODY_SIZE(RMG__H3M_BODY_TOWN, town),
    BODY_SIZE(RMG__H3M_BODY_SCHOLAR, scholar),
    BODY_SIZE(RMG__H3M_BODY_SEER, seer),
    BODY_SIZE(RMG__H3M_BODY_SHRINE, shrine_spell),
    BODY_SIZE(RMG__H3M_BODY_SCROLL, scroll),
    BODY_SIZE(RMG__H3M_BODY_WITCH_HUT, witch_skills),
    BODY_SIZE(RMG__H3M_BODY_TRAPPER, trapper),
    BODY_SIZE(RMG__H3M_BODY_QUEST, quest),
    BODY_SIZE(RMG__H3M_BODY_PLACEHOLDER, placeholder),
    BODY_SIZE(RMG__H3M_BODY_RANDOM_DWELLING, dwelling),
};

size_t rmg__h3m_body_size(rmg__h3m_body_kind kind)
{
    return (unsigned)kind < RMG__H3M_BODY_KINDS ? body_sizes[kind] : 0;
}

rmg_status rmg__h3m_give_body(rmg__h3m_doc *doc, rmg__h3m_object *o, rmg__h3m_body_kind kind)
{
    o->kind = kind;
    o->body = NULL;
    size_t size = rmg__h3m_body_size(kind);
    if (!size)
        return RMG_OK;
    o->body = rmg__h3m_alloc(doc, 1, size);
    return o->body ? RMG_OK : RMG_ERR_NOMEM;
}

rmg__h3m_object *rmg__h3m_add_object(rmg__h3m_doc *doc, uint32_t template_index)
{
    if (template_index >= doc->template_count) {
        rmg__error_set(doc->ctx, RMG_ERR_INVALID_ARG, "h3m: template %u does not exist (%u templates)",
                       template_index, doc->template_count);
        return NULL;
    }
    const rmg__h3m_template *t = &doc->templates[template_index];
    rmg__h3m_body_kind kind = rmg__h3m_body_kind_of(doc, t->class_id, t->subclass);
    rmg__h3m_object *o = table_push(doc, (void **)&doc->objects, &doc->object_count, &doc->object_cap, sizeof *o);
    if (!o)
        return NULL;
    o->template_index = template_index;
    if (rmg__h3m_give_body(doc, o, kind) != RMG_OK) {
        doc->object_count--; /* not added: the table holds only objects with their bodies */
        return NULL;
    }
    return o;
}

/* Bodies that HotA added to objects that have none before sub-version `from`. */
static rmg__h3m_body_kind from_hota(const rmg__h3m_doc *doc, uint32_t from, rmg__h3m_body_kind kind)
{
    return doc->format == RMG__H3M_HOTA && doc->hota_sub >= from ? kind : RMG__H3M_BODY_NONE;
}

static rmg__h3m_body_kind hota_class_kind(const rmg__h3m_doc *doc, uint32_t class_id, uint32_t subclass)
{
    switch (class_id) {
    case 144:
        return subclass == 12 ? from_hota(doc, 9, RMG__H3M_BODY_TRAPPER) : RMG__H3M_BODY_NONE;
    case 145:
        if (subclass <= 1)
            return from_hota(doc, 5, RMG__H3M_BODY_REWARD18);
        return subclass <= 3 ? from_hota(doc, 5, RMG__H3M_BODY_REWARD8) : RMG__H3M_BODY_NONE;
    case 146:
        return subclass == 0 ? from_hota(doc, 5, RMG__H3M_BODY_REWARD8) : RMG__H3M_BODY_NONE;
    case 212:
        if (subclass == 1000)
            return RMG__H3M_BODY_QUEST;
        return subclass == 1001 ? from_hota(doc, 5, RMG__H3M_BODY_REWARD18) : RMG__H3M_BODY_NONE;
    case 214:
        return RMG__H3M_BODY_PLACEHOLDER;
    case 215:
        return RMG__H3M_BODY_QUEST;
    case 216: case 217: case 218:
        return RMG__H3M_BODY_RANDOM_DWELLING;
    case 219:
        return RMG__H3M_BODY_GARRISON;
    case 220:
        return RMG__H3M_BODY_ABANDONED_MINE;
    case 162: case 163: case 164:
        return RMG__H3M_BODY_MONSTER;
    default:
        return RMG__H3M_BODY_NONE;
    }
}

rmg__h3m_body_kind rmg__h3m_body_kind_of(const rmg__h3m_doc *doc, uint32_t class_id, uint32_t subclass)
{
    switch (class_id) {
    case 5: case 65: case 66: case 67: case 68: case 69:
        return RMG__H3M_BODY_ARTIFACT;
    case 6:
        return RMG__H3M_BODY_PANDORA;
    case 7:
        return from_hota(doc, 5, RMG__H3M_BODY_BLACK_MARKET);
    case 12: case 39: case 105:
        return from_hota(doc, 5, RMG__H3M_BODY_REWARD18);
    case 16: case 24: case 25: case 84: case 85:
        return from_hota(doc, 3, RMG__H3M_BODY_BANK);
    case 17: case 18: case 19: case 20: case 42: case 87:
        return RMG__H3M_BODY_OWNED;
    case 53:
        return subclass == 7 ? RMG__H3M_BODY_ABANDONED_MINE : RMG__H3M_BODY_OWNED;
    case 22: case 29: case 63: case 82: case 86: case 101: case 102: case 104: case 108:
        return from_hota(doc, 5, RMG__H3M_BODY_REWARD8);
    case 26:
        return RMG__H3M_BODY_EVENT;
    case 33:
        return RMG__H3M_BODY_GARRISON;
    case 34: case 62: case 70:
        return RMG__H3M_BODY_HERO;
    case 36:
        return subclass < 1000 ? RMG__H3M_BODY_GRAIL : RMG__H3M_BODY_NONE;
    case 54: case 71: case 72: case 73: case 74: case 75:
        return RMG__H3M_BODY_MONSTER;
    case 59: case 91:
        return RMG__H3M_BODY_MESSAGE;
    case 76: case 79:
        return RMG__H3M_BODY_RESOURCE;
    case 77: case 98:
        return RMG__H3M_BODY_TOWN;
    case 81:
        return RMG__H3M_BODY_SCHOLAR;
    case 83:
        return RMG__H3M_BODY_SEER;
    case 88: case 89: case 90:
        return RMG__H3M_BODY_SHRINE;
    case 93:
        return RMG__H3M_BODY_SCROLL;
    case 113:
        return RMG__H3M_BODY_WITCH_HUT;
    default:
        return hota_class_kind(doc, class_id, subclass);
    }
}

size_t rmg__h3m_tile_bytes(const rmg__h3m_doc *doc)
{
    size_t side = doc->basic.size, levels = doc->basic.two_levels ? 2 : 1, n = 0;
    if (!rmg__mul_ok(side, side, &n) || !rmg__mul_ok(n, levels * RMG__H3M_TILE_BYTES, &n))
        return 0;
    return n;
}

/* ---- the editor's defaults -------------------------------------------------------------------- */

/* Heroes only campaigns use (heroes.tsv campaign_only): cleared from the allowed mask. */
static const uint8_t campaign_heroes[] = {144, 145, 146, 147, 148, 149, 150, 151, 152,
                                          153, 154, 155, 172, 173, 195, 196, 197};

static void set_bit(uint8_t *mask, size_t bits, size_t k, bool on)
{
    if (k >= bits)
        return;
    if (on)
        mask[k / 8] |= (uint8_t)(1u << (k % 8));
    else
        mask[k / 8] &= (uint8_t)~(1u << (k % 8));
}

static size_t mask_bytes(uint32_t bits)
{
    return bits / 8 + (bits % 8 != 0);
}

static void default_hota_header(rmg__h3m_doc *doc, uint32_t sub)
{
    rmg__h3m_hota_header *h = &doc->hota;
    if (sub >= 9) {
        h->game_version[0] = 1, h->game_version[1] = 8, h->game_version[2] = 0;
    } else if (sub >= 8) {
        h->game_version[0] = 1, h->game_version[1] = 7, h->game_version[2] = 3;
    }
    h->terrain_types = 12;
    h->town_types = sub >= 9 ? 12 : 11;
    h->difficulties = 0x1F;
    h->hire_defeated = 1;
}

/* The 13-byte block of a player nobody can play (§4). */
static void default_players(rmg__h3m_doc *doc)
{
    for (int i = 0; i < RMG__H3M_PLAYERS; i++) {
        memset(&doc->players[i], 0, sizeof doc->players[i]);
        doc->players[i].main_hero = 0xFF;
    }
}

static rmg_status default_heroes(rmg__h3m_doc *doc, bool hota)
{
    rmg__h3m_hero_block *h = &doc->heroes;
    h->count = !hota ? RMG__H3M_SOD_HEROES : doc->hota_sub >= 9 ? 215 : 198;
    size_t n = mask_bytes(h->count);
    h->allowed = rmg__h3m_alloc(doc, n, 1);
    if (!h->allowed)
        return RMG_ERR_NOMEM;
    memset(h->allowed, 0, n);
    for (uint32_t k = 0; k < h->count; k++)
        set_bit(h->allowed, h->count, k, true);
    for (size_t i = 0; i < RMG__ARRAY_LEN(campaign_heroes); i++)
        set_bit(h->allowed, h->count, campaign_heroes[i], false);
    doc->hero_setting_count = h->count;
    doc->hero_settings = rmg__h3m_alloc(doc, h->count, sizeof *doc->hero_settings);
    if (!doc->hero_settings)
        return RMG_ERR_NOMEM;
    for (uint32_t k = 0; k < h->count; k++) {
        doc->hero_settings[k].tail.always_add_skills = 1;
        doc->hero_settings[k].tail.level = 1;
    }
    return RMG_OK;
}

static rmg_status default_options_and_bans(rmg__h3m_doc *doc, bool hota)
{
    doc->options.round_limit = -1;
    if (hota) {
        doc->options.combo_count = 16;
        doc->options.banned_combos = rmg__h3m_alloc(doc, mask_bytes(16), 1);
        if (!doc->options.banned_combos)
            return RMG_ERR_NOMEM;
    }
    rmg__h3m_bans *b = &doc->bans;
    b->artifact_count = hota ? 166 : RMG__H3M_SOD_ARTIFACT_MASK * 8;
    b->artifacts = rmg__h3m_alloc(doc, mask_bytes(b->artifact_count), 1);
    if (!b->artifacts)
        return RMG_ERR_NOMEM;
    /* Vial of Dragon Blood, Armageddon's Blade and the combination artifacts (127-140) are
     * banned in the editor's and the RMG's files. */
    for (uint32_t k = 127; k <= 140; k++)
        set_bit(b->artifacts, b->artifact_count, k, true);
    return RMG_OK;
}

rmg_status rmg__h3m_doc_defaults(rmg__h3m_doc *doc, uint32_t format, uint32_t hota_sub, uint32_t size, int levels)
{
    if (!doc)
        return RMG_ERR_INVALID_ARG;
    bool hota = format == RMG__H3M_HOTA;
    if ((format != RMG__H3M_SOD && !hota) || (hota && hota_sub > RMG__H3M_MAX_HOTA_SUB) || size == 0 ||
        size > RMG__H3M_MAX_SIZE || (levels != 1 && levels != 2))
        return rmg__error_set(doc->ctx, RMG_ERR_INVALID_ARG,
                              "h3m: no defaults for format 0x%X sub-version %u, size %u, %d levels", format, hota_sub,
                              size, levels);
    doc->format = format;
    doc->hota_sub = hota ? hota_sub : 0;
    if (hota)
        default_hota_header(doc, hota_sub);
    doc->basic.has_players = 1;
    doc->basic.size = size;
    doc->basic.two_levels = levels == 2;
    doc->basic.difficulty = 1;
    default_players(doc);
    doc->victory.type = RMG__H3M_CONDITION_STANDARD;
    doc->loss.type = RMG__H3M_CONDITION_STANDARD;
    rmg_status st = default_heroes(doc, hota);
    if (st == RMG_OK)
        st = default_options_and_bans(doc, hota);
    if (st != RMG_OK)
        return st;
    doc->tiles = rmg__h3m_alloc(doc, rmg__h3m_tile_bytes(doc), 1);
    doc->tail_len = RMG__H3M_TAIL_BYTES;
    doc->tail = rmg__h3m_alloc(doc, RMG__H3M_TAIL_BYTES, 1);
    return doc->tiles && doc->tail ? RMG_OK : RMG_ERR_NOMEM;
}
