/* thread_names.c: interned Java thread names (see thread_names.h).
 *
 * Names live in an array by id; an open-addressing index (name hash -> id, twice the
 * capacity, so an empty entry always ends a probe) finds a name in a probe or two, so a
 * program that names 10,000 virtual threads apart interns each in constant time. A new name
 * is published in the array before its id goes into the index. The copies live in an arena
 * (one malloc per 64 KiB of names, not one per name: a new virtual thread's first sample
 * pays no malloc), freed with the table. */
#include "sampling/thread_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "sampling/arena.h"

struct hs_thread_names {
    uint32_t capacity;
    uint32_t index_mask;          /* index entries - 1 */
    atomic_uint claimed;          /* slots handed out (ids 1..claimed) */
    _Atomic(char *) *names;       /* id -> name, NULL until published */
    _Atomic uint32_t *index;      /* name hash -> id, 0 = empty */
    hs_arena *copies;             /* the names' bytes */
};

#define COPIES_CHUNK ((size_t)64 << 10)

hs_thread_names *hs_thread_names_create(uint32_t capacity) {
    hs_thread_names *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->capacity = capacity > 0 ? capacity : 1;
    uint32_t entries = 2;
    while (entries < 2 * (uint64_t)t->capacity) entries <<= 1;
    t->index_mask = entries - 1;
    t->names = calloc((size_t)t->capacity + 1, sizeof *t->names);
    t->index = calloc(entries, sizeof *t->index);
    t->copies = hs_arena_create(COPIES_CHUNK, 0); /* bounded by capacity x the longest name */
    if (!t->names || !t->index || !t->copies ||
        hs_thread_names_intern(t, HS_THREAD_NAME_UNKNOWN) != HS_THREAD_UNKNOWN_ID) {
        hs_thread_names_destroy(t);
        return NULL;
    }
    return t;
}

void hs_thread_names_destroy(hs_thread_names *t) {
    if (!t) return;
    hs_arena_destroy(t->copies);
    free((void *)t->names);
    free((void *)t->index);
    free(t);
}

static uint64_t hash_name(const char *name) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = hs_mix64(h ^ *p);
    return h;
}

/* The id of name if indexed (0 if not), and the first empty entry of its probe (*free). */
static uint32_t find(const hs_thread_names *t, const char *name, uint64_t h,
                     _Atomic uint32_t **free_entry) {
    for (uint32_t probe = 0; probe <= t->index_mask; probe++) {
        _Atomic uint32_t *entry = &t->index[(h + probe) & t->index_mask];
        uint32_t id = atomic_load_explicit(entry, memory_order_acquire);
        if (id == 0) {
            *free_entry = entry;
            return 0;
        }
        const char *known = atomic_load_explicit(&t->names[id], memory_order_acquire);
        if (known && strcmp(known, name) == 0) return id;
    }
    *free_entry = NULL;
    return 0;
}

/* The first empty index entry of hash h's probe, NULL if none. */
static _Atomic uint32_t *empty_entry(const hs_thread_names *t, uint64_t h) {
    for (uint32_t probe = 0; probe <= t->index_mask; probe++) {
        _Atomic uint32_t *entry = &t->index[(h + probe) & t->index_mask];
        if (atomic_load_explicit(entry, memory_order_acquire) == 0) return entry;
    }
    return NULL;
}

uint32_t hs_thread_names_intern(hs_thread_names *t, const char *name) {
    uint64_t h = hash_name(name);
    _Atomic uint32_t *entry;
    uint32_t id = find(t, name, h, &entry);
    if (id) return id;
    if (atomic_load(&t->claimed) >= t->capacity) return 0; /* full: no copy made to drop */
    id = atomic_fetch_add(&t->claimed, 1) + 1;
    if (id > t->capacity) {
        atomic_fetch_sub(&t->claimed, 1); /* keep claimed bounded; ids stay unique */
        return 0;
    }
    char *copy = hs_arena_strdup(t->copies, name);
    if (!copy) return 0; /* out of memory: id left unnamed (get() answers NULL) */
    atomic_store_explicit(&t->names[id], copy, memory_order_release);
    /* Indexed at the first empty entry, or the next one if a racer took it; a racer
     * interning the same name at once indexes its own id too: two ids carry one name,
     * which only splits a label's samples over two equal strings. */
    for (uint32_t expected = 0; entry; expected = 0) {
        if (atomic_compare_exchange_strong(entry, &expected, id)) break;
        entry = empty_entry(t, h);
    }
    return id;
}

const char *hs_thread_names_get(const hs_thread_names *t, uint32_t id) {
    if (!t || id == 0 || id > t->capacity) return NULL;
    return atomic_load_explicit(&t->names[id], memory_order_acquire);
}
