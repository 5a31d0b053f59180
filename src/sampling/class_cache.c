/* class_cache.c: classes by identity -> ids -> names, recycling the slots of unloaded
 * classes (see class_cache.h).
 *
 * The identity slots are weak_slots.h's (key: the identity hash, value: the id, ref: the
 * class), which reclaims the slots of unloaded classes behind its grace period; a slot is
 * confirmed to be the class sought by its ref (same()), read inside the reader bracket.
 *
 * Names are interned in their own bounded-window index (name hash -> id), so ids are per
 * name. Ids are never reused, and names never freed: buckets of the profile refer to them
 * for as long as the agent runs. */
#include "sampling/class_cache.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"
#include "sampling/weak_slots.h"

/* Name index entries a lookup looks at, at most. */
#define PROBE_WINDOW 32
/* Longest name kept; longer ones (generated code) are cut, which only shortens a label. */
#define NAME_LEN 2048

struct hs_class_cache {
    uint32_t capacity;             /* ids 1..capacity */
    uint32_t name_mask;            /* name index slots - 1 */
    hs_weak_slots *slots;          /* identity hash -> id, with the class's weak ref */
    _Atomic uint32_t *name_index;  /* name hash -> id (0 = empty) */
    _Atomic(const char *) *names;  /* id -> name */
    hs_arena *arena;
    atomic_uint count;             /* ids handed out; racers may pass capacity */
    atomic_uint_fast64_t overflow;
};

static uint32_t power_of_two_at_least(uint64_t n) {
    uint32_t p = 2;
    while (p < n && p < (1u << 31)) p <<= 1;
    return p;
}

hs_class_cache *hs_class_cache_create(uint32_t capacity, hs_arena *names) {
    if (capacity < 2 || capacity > (1u << 28) || !names) return NULL;
    hs_class_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    uint32_t slots = power_of_two_at_least(2 * (uint64_t)capacity);
    c->capacity = capacity;
    c->name_mask = slots - 1;
    c->arena = names;
    c->slots = hs_weak_slots_create(capacity);
    c->name_index = calloc(slots, sizeof *c->name_index);
    c->names = calloc((size_t)capacity + 1, sizeof *c->names);
    if (!c->slots || !c->name_index || !c->names) {
        hs_class_cache_destroy(c, NULL, NULL);
        return NULL;
    }
    c->names[HS_CLASS_CACHE_FULL] = HS_CLASS_CACHE_FULL_NAME;
    atomic_store(&c->count, HS_CLASS_CACHE_FULL);
    return c;
}

void hs_class_cache_destroy(hs_class_cache *c, const hs_class_ops *ops, void *ctx) {
    if (!c) return;
    hs_weak_ref_ops refs = ops ? (hs_weak_ref_ops){.cleared = ops->identity.cleared,
                                                   .delete_ref = ops->identity.delete_ref}
                               : (hs_weak_ref_ops){0};
    hs_weak_slots_destroy(c->slots, ops ? &refs : NULL, ctx);
    free((void *)c->name_index);
    free((void *)c->names);
    free(c);
}

void hs_class_cache_set_reader_pause(void (*pause)(void)) { hs_weak_slots_set_reader_pause(pause); }

/* ---- names -> ids --------------------------------------------------------------------- */

static uint64_t hash_name(const char *name) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = hs_mix64(h ^ *p);
    return h;
}

/* The id of name, interning it if new; HS_CLASS_CACHE_FULL when ids or budget are spent. */
static uint32_t id_for_name(hs_class_cache *c, const char *name) {
    uint64_t h = hash_name(name);
    _Atomic uint32_t *free_entry = NULL;
    for (uint32_t probe = 0; probe < PROBE_WINDOW; probe++) {
        _Atomic uint32_t *entry = &c->name_index[(h + probe) & c->name_mask];
        uint32_t id = atomic_load_explicit(entry, memory_order_acquire);
        if (id == 0) {
            free_entry = entry;
            break;
        }
        const char *known = atomic_load_explicit(&c->names[id], memory_order_acquire);
        if (known && strcmp(known, name) == 0) return id;
    }
    if (atomic_load_explicit(&c->count, memory_order_relaxed) >= c->capacity)
        return HS_CLASS_CACHE_FULL;
    const char *copy = hs_arena_strdup(c->arena, name);
    if (!copy) return HS_CLASS_CACHE_FULL;
    uint32_t id = atomic_fetch_add(&c->count, 1) + 1;
    if (id > c->capacity) return HS_CLASS_CACHE_FULL;
    atomic_store_explicit(&c->names[id], copy, memory_order_release);
    /* Indexed if there is room; a racer interning the same name at once may index its own
     * id instead: then two ids carry one name, which only splits a pprof function. */
    uint32_t expected = 0;
    if (free_entry) atomic_compare_exchange_strong(free_entry, &expected, id);
    return id;
}

/* ---- identity -> id ------------------------------------------------------------------- */

typedef struct {
    hs_class_cache *cache;
    const hs_class_ops *ops;
    void *ctx;
} class_namer;

/* The id of a class seen for the first time, from its name. A class whose name finds no id
 * is kept with the pseudo-class's id, so its later samples find it at once. */
static uintptr_t id_of_new_class(void *namer, jobject klass, int *error) {
    const class_namer *n = namer;
    char name[NAME_LEN];
    int err = n->ops->name(n->ctx, klass, name, sizeof name);
    if (err != 0) {
        *error = err;
        return 0;
    }
    return id_for_name(n->cache, name);
}

static uint32_t count_full(hs_class_cache *c) {
    if (atomic_fetch_add_explicit(&c->overflow, 1, memory_order_relaxed) == 0)
        hs_warn("class table full: classes it has no room for show as %s; memory= raises the "
                "limit", HS_CLASS_CACHE_FULL_NAME);
    return HS_CLASS_CACHE_FULL;
}

uint32_t hs_class_cache_id(hs_class_cache *c, const hs_class_ops *ops, void *ctx, jclass klass,
                           int *error) {
    class_namer namer = {.cache = c, .ops = ops, .ctx = ctx};
    uintptr_t id = 0;
    switch (hs_weak_slots_identity(c->slots, &ops->identity, ctx, klass, id_of_new_class, &namer, &id,
                                   error)) {
    case HS_WEAK_FOUND:
        if (id == HS_CLASS_CACHE_FULL) atomic_fetch_add_explicit(&c->overflow, 1, memory_order_relaxed);
        return (uint32_t)id;
    case HS_WEAK_CLAIMED:
        return id == HS_CLASS_CACHE_FULL ? count_full(c) : (uint32_t)id;
    case HS_WEAK_FULL:
        return count_full(c);
    default: /* the identity hash failed */
        return 0;
    }
}

const char *hs_class_cache_name(const hs_class_cache *c, uint32_t id) {
    if (!c || id == 0 || id > c->capacity) return NULL;
    return atomic_load_explicit(&c->names[id], memory_order_acquire);
}

uint32_t hs_class_cache_count(const hs_class_cache *c) {
    uint32_t n = atomic_load(&c->count);
    return n < c->capacity ? n : c->capacity;
}

uint64_t hs_class_cache_overflow(const hs_class_cache *c) { return atomic_load(&c->overflow); }
uint64_t hs_class_cache_reclaimed(const hs_class_cache *c) { return hs_weak_slots_reclaimed(c->slots); }
uint64_t hs_class_cache_ref_failures(const hs_class_cache *c) { return hs_weak_slots_ref_failures(c->slots); }
uint32_t hs_class_cache_resident(const hs_class_cache *c) { return hs_weak_slots_resident(c->slots); }
