/* method_infos.c: method infos interned by content (see method_infos.h).
 *
 * The index is a ptr_map from the content's 64-bit hash to the info; a hit is confirmed by
 * comparing the content. Two different contents of one hash (never seen; 2^-64 a pair) are
 * told apart by that comparison: the second is then copied on every intern, which costs
 * names budget but never a wrong name. */
#include "sampling/method_infos.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "sampling/ptr_map.h"

const hs_method_info hs_method_table_full = {
    .name = HS_METHOD_TABLE_FULL_NAME, .system_name = HS_METHOD_TABLE_FULL_NAME, .filename = ""};
const hs_method_info hs_method_unresolved = {
    .name = HS_METHOD_UNRESOLVED_NAME, .system_name = HS_METHOD_UNRESOLVED_NAME, .filename = ""};

struct hs_method_infos {
    hs_ptr_map *index; /* content hash -> hs_method_info * */
    hs_arena *arena;
    atomic_uint count;
};

hs_method_infos *hs_method_infos_create(uint32_t capacity, hs_arena *arena) {
    if (!arena) return NULL;
    hs_method_infos *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->arena = arena;
    t->index = hs_ptr_map_create(capacity);
    if (!t->index) {
        free(t);
        return NULL;
    }
    return t;
}

void hs_method_infos_destroy(hs_method_infos *t) {
    if (!t) return;
    hs_ptr_map_destroy(t->index);
    free(t);
}

static uint64_t hash_string(uint64_t h, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = hs_mix64(h ^ *p);
    return hs_mix64(h ^ 0xff); /* ends the string: ("ab", "c") differs from ("a", "bc") */
}

static uint64_t hash_info(const hs_method_info *m) {
    uint64_t h = hash_string(0x9e3779b97f4a7c15ULL, m->name);
    h = hash_string(h, m->system_name);
    h = hash_string(h, m->filename);
    h = hs_mix64(h ^ (uint32_t)m->start_line ^ (uint64_t)m->nlines << 32);
    for (uint32_t i = 0; i < m->nlines; i++)
        h = hs_mix64(h ^ (uint32_t)m->lines[i].bci ^ (uint64_t)(uint32_t)m->lines[i].line << 32);
    return h | 1; /* the map's keys are non-zero */
}

static bool same_info(const hs_method_info *a, const hs_method_info *b) {
    if (a->start_line != b->start_line || a->nlines != b->nlines || strcmp(a->name, b->name) ||
        strcmp(a->system_name, b->system_name) || strcmp(a->filename, b->filename))
        return false;
    for (uint32_t i = 0; i < a->nlines; i++)
        if (a->lines[i].bci != b->lines[i].bci || a->lines[i].line != b->lines[i].line) return false;
    return true;
}

/* A copy of draft in the arena, or NULL when the budget is spent. */
static hs_method_info *copy_info(hs_arena *arena, const hs_method_info *draft) {
    hs_method_info *m = hs_arena_alloc(arena, sizeof *m, 8);
    hs_line_entry *lines =
        m && draft->nlines ? hs_arena_alloc(arena, sizeof *lines * draft->nlines, 8) : NULL;
    if (!m || (draft->nlines && !lines)) return NULL;
    if (draft->nlines) memcpy(lines, draft->lines, sizeof *lines * draft->nlines);
    *m = (hs_method_info){.name = hs_arena_strdup(arena, draft->name),
                          .system_name = hs_arena_strdup(arena, draft->system_name),
                          .filename = hs_arena_strdup(arena, draft->filename),
                          .start_line = draft->start_line,
                          .nlines = draft->nlines,
                          .lines = lines};
    return m->name && m->system_name && m->filename ? m : NULL;
}

const hs_method_info *hs_method_infos_intern(hs_method_infos *t, const hs_method_info *draft) {
    uint64_t h = hash_info(draft);
    const hs_method_info *known = hs_ptr_map_get(t->index, h);
    if (known && same_info(known, draft)) return known;
    if (!known && hs_ptr_map_size(t->index) >= hs_ptr_map_capacity(t->index)) return NULL;
    hs_method_info *fresh = copy_info(t->arena, draft);
    if (!fresh) return NULL;
    atomic_fetch_add_explicit(&t->count, 1, memory_order_relaxed);
    if (known) return fresh; /* a hash collision: correct, unindexed */
    /* A racer may have indexed an equal copy first: use it (ours stays in the arena). */
    const hs_method_info *winner = hs_ptr_map_put_if_absent(t->index, h, fresh);
    return winner && same_info(winner, fresh) ? winner : fresh;
}

uint32_t hs_method_infos_count(const hs_method_infos *t) {
    return atomic_load_explicit(&t->count, memory_order_relaxed);
}
