/* thread_ids.c: threads by thread id -> name ids (see thread_ids.h).
 *
 * An entry is one 64-bit word, (thread id + 1) << 16 | name id, 0 when empty: read and
 * written whole, so a reader never sees one thread's id with another's name, and racing
 * writers at worst store an entry twice or evict one another's. Thread ids at or above
 * 2^48 - 1 or name ids above 16 bits are not cached (their names are read every time:
 * right, only slower); no JVM gets near either. */
#include "sampling/thread_ids.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/log.h"

/* Longest thread name kept; longer ones are cut, which only shortens a label. */
#define NAME_LEN 512
/* Entries per line: 4 words, half a cache line. */
#define WAYS 4u
#define NAME_BITS 16
#define MAX_CACHED_TID ((UINT64_C(1) << (64 - NAME_BITS)) - 2)

struct hs_thread_ids {
    uint32_t line_mask;        /* lines - 1 */
    _Atomic uint64_t *entries; /* lines x WAYS */
    hs_thread_names *names;
    atomic_uint_fast64_t names_read;
    atomic_uint_fast64_t uncached;
    atomic_uint_fast64_t failures; /* threads whose name the JVM did not give */
};

hs_thread_ids *hs_thread_ids_create(uint32_t capacity, hs_thread_names *names) {
    if (!names || capacity > (1u << 28)) return NULL;
    hs_thread_ids *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    uint32_t lines = 1;
    while ((uint64_t)lines * WAYS < capacity) lines <<= 1;
    t->line_mask = lines - 1;
    t->names = names;
    t->entries = calloc((size_t)lines * WAYS, sizeof *t->entries);
    if (!t->entries) {
        free(t);
        return NULL;
    }
    return t;
}

void hs_thread_ids_destroy(hs_thread_ids *t) {
    if (!t) return;
    free((void *)t->entries);
    free(t);
}

static _Atomic uint64_t *line_of(const hs_thread_ids *t, uint64_t tid) {
    return &t->entries[(size_t)(tid & t->line_mask) * WAYS];
}

/* The cached name id of thread id tid, 0 if none. */
static uint32_t cached(const hs_thread_ids *t, uint64_t tid) {
    if (tid > MAX_CACHED_TID) return 0;
    _Atomic uint64_t *line = line_of(t, tid);
    for (uint32_t way = 0; way < WAYS; way++) {
        uint64_t entry = atomic_load_explicit(&line[way], memory_order_relaxed);
        if (entry >> NAME_BITS == tid + 1) return (uint32_t)(entry & ((1u << NAME_BITS) - 1));
    }
    return 0;
}

/* Caches tid -> id in an empty way of its line, or in place of one picked by the id's
 * higher bits (which differ between the threads sharing a line). */
static void remember(hs_thread_ids *t, uint64_t tid, uint32_t id) {
    if (tid > MAX_CACHED_TID || id >> NAME_BITS) return;
    uint64_t entry = (tid + 1) << NAME_BITS | id;
    _Atomic uint64_t *line = line_of(t, tid);
    for (uint32_t way = 0; way < WAYS; way++) {
        uint64_t empty = 0;
        if (atomic_load_explicit(&line[way], memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit(&line[way], &empty, entry,
                                                    memory_order_relaxed, memory_order_relaxed))
            return;
    }
    uint32_t victim = (uint32_t)((tid / (t->line_mask + 1ull)) % WAYS);
    atomic_store_explicit(&line[victim], entry, memory_order_relaxed);
}

/* A thread's name read and interned; HS_THREAD_UNKNOWN_ID when the JVM does not give it
 * (counted, said once) or the names are full. */
static uint32_t read_name(hs_thread_ids *t, const hs_thread_ops *ops, void *ctx, jthread thread) {
    char name[NAME_LEN];
    atomic_fetch_add_explicit(&t->names_read, 1, memory_order_relaxed);
    int err = ops->name(ctx, thread, name, sizeof name);
    if (err != 0) {
        if (atomic_fetch_add_explicit(&t->failures, 1, memory_order_relaxed) == 0)
            hs_warn("threads=true: the JVM did not give a thread's name (error %d); its samples "
                    "are labelled with an unknown thread, the profile is otherwise unaffected",
                    err);
        return HS_THREAD_UNKNOWN_ID;
    }
    uint32_t id = hs_thread_names_intern(t->names, name);
    return id ? id : HS_THREAD_UNKNOWN_ID; /* names full */
}

uint32_t hs_thread_ids_get(hs_thread_ids *t, const hs_thread_ops *ops, void *ctx, jthread thread) {
    uint64_t tid = 0;
    int err = ops->id(ctx, thread, &tid);
    if (err != 0) {
        if (atomic_fetch_add_explicit(&t->uncached, 1, memory_order_relaxed) == 0)
            hs_warn("threads=true: the JVM did not give a thread's id (error %d); names are "
                    "read at every sample (slower, still right)", err);
        return read_name(t, ops, ctx, thread);
    }
    uint32_t id = cached(t, tid);
    if (id) return id;
    id = read_name(t, ops, ctx, thread); /* a failure is cached too: asked once */
    remember(t, tid, id);
    return id;
}

uint64_t hs_thread_ids_names_read(const hs_thread_ids *t) { return atomic_load(&t->names_read); }
uint64_t hs_thread_ids_uncached(const hs_thread_ids *t) { return atomic_load(&t->uncached); }
uint64_t hs_thread_ids_failures(const hs_thread_ids *t) { return atomic_load(&t->failures); }
