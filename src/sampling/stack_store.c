/* stack_store.c: lock-free interning of call stacks into ids (see stack_store.h).
 *
 * Each distinct stack is one record {hash, id, depth, truncated, frames[]} from the arena
 * (budget: frame_bytes), published in an open-addressing table of record pointers (power of
 * two, >= 2 * capacity slots, linear probing, slots never emptied). intern probes for an
 * equal record; at the first empty slot it fills a record with a fresh id (fetch_add on
 * count) and CASes the slot NULL -> record, with release so readers see the record whole.
 * Losing that CAS to an equal stack, it takes the winner's id: its own id stays a hole and
 * its record is abandoned (rare: the same new stack interned by two threads at once).
 * Losing to another stack, it probes on with the same record. by_id[id] is set only once the
 * record is in the table, by every thread returning the id (all store the same pointer), so
 * get() fails on holes and finds every returned id. Nobody waits for anybody. */
#include "sampling/stack_store.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "sampling/big_alloc.h"

#include "sampling/arena.h"
#include "base/hash.h"

#define ARENA_CHUNK_SIZE ((size_t)1 << 20)
/* Keeps the slot count (twice the capacity, rounded up) well inside a size_t. */
#define MAX_CAPACITY ((uint32_t)1 << 30)
/* Refuses depths whose record size could overflow a size_t. */
#define MAX_DEPTH ((uint32_t)1 << 24)

typedef struct {
    uint64_t hash;
    uint32_t id;
    uint32_t depth;
    bool truncated;
    _Atomic uint64_t hint; /* the caller's word (hs_stack_store_set_hint), 0 until set */
    hs_frame frames[];
} stack_record;

struct hs_stack_store {
    uint32_t capacity;              /* max ids */
    size_t mask;                    /* slot count - 1 */
    _Atomic(stack_record *) *slots; /* the hash table */
    _Atomic(stack_record *) *by_id; /* [1..capacity]; NULL for holes and ids in flight */
    _Atomic uint32_t count;         /* ids claimed; racers may push it a little past capacity */
    _Atomic uint64_t dropped;
    hs_arena *arena;                /* the records */
};

/* The method is mixed in before the bci is added, so neighbouring method pointers (a few bytes
 * apart) and small bcis cannot cancel each other; the odd multiplier spreads the bci. */
static uint64_t hash_stack(const hs_frame *frames, uint32_t depth, bool truncated) {
    uint64_t h = hs_mix64(((uint64_t)depth << 1 | (truncated ? 1u : 0u)) + 0x9e3779b97f4a7c15ULL);
    for (uint32_t i = 0; i < depth; i++) {
        h = hs_mix64(h ^ (uint64_t)frames[i].method);
        h += (uint64_t)(uint32_t)frames[i].bci * 0xd6e8feb86659fd93ULL;
    }
    return hs_mix64(h);
}

hs_stack_store *hs_stack_store_create(uint32_t capacity, size_t frame_bytes) {
    if (capacity == 0 || capacity > MAX_CAPACITY) return NULL;
    size_t slots = 2;
    while (slots < 2 * (size_t)capacity) slots <<= 1;
    hs_stack_store *store = calloc(1, sizeof *store);
    if (!store) return NULL;
    store->capacity = capacity;
    store->mask = slots - 1;
    store->slots = hs_big_calloc(slots, sizeof *store->slots);
    store->by_id = calloc((size_t)capacity + 1, sizeof *store->by_id);
    store->arena = hs_arena_create(ARENA_CHUNK_SIZE, frame_bytes);
    atomic_init(&store->count, 0);
    atomic_init(&store->dropped, 0);
    if (!store->slots || !store->by_id || !store->arena) {
        hs_stack_store_destroy(store);
        return NULL;
    }
    return store;
}

void hs_stack_store_destroy(hs_stack_store *store) {
    if (!store) return;
    hs_big_free(store->slots, store->mask + 1, sizeof *store->slots);
    free(store->by_id);
    hs_arena_destroy(store->arena);
    free(store);
}

static uint32_t drop(hs_stack_store *store) {
    atomic_fetch_add_explicit(&store->dropped, 1, memory_order_relaxed);
    return 0;
}

/* Frames are compared field by field: hs_frame has padding, which callers need not clear. */
static bool record_equals(const stack_record *rec, uint64_t hash, const hs_frame *frames,
                          uint32_t depth, bool truncated) {
    if (rec->hash != hash || rec->depth != depth || rec->truncated != truncated) return false;
    for (uint32_t i = 0; i < depth; i++) {
        if (rec->frames[i].method != frames[i].method || rec->frames[i].bci != frames[i].bci)
            return false;
    }
    return true;
}

/* A filled record with a fresh id, not yet published; NULL when the ids or the frame budget
 * are spent. The frames are allocated before the id is claimed, so a spent budget costs no
 * ids; a record made just as another thread took the last id is abandoned. */
static stack_record *new_record(hs_stack_store *store, uint64_t hash, const hs_frame *frames,
                                uint32_t depth, bool truncated) {
    if (atomic_load_explicit(&store->count, memory_order_relaxed) >= store->capacity) return NULL;
    size_t bytes = sizeof(stack_record) + (size_t)depth * sizeof(hs_frame);
    stack_record *rec = hs_arena_alloc(store->arena, bytes, _Alignof(stack_record));
    if (!rec) return NULL;
    uint32_t id = atomic_fetch_add_explicit(&store->count, 1, memory_order_relaxed) + 1;
    if (id > store->capacity) return NULL;
    *rec = (stack_record){.hash = hash, .id = id, .depth = depth, .truncated = truncated};
    for (uint32_t i = 0; i < depth; i++)
        rec->frames[i] = (hs_frame){.method = frames[i].method, .bci = frames[i].bci};
    return rec;
}

uint32_t hs_stack_store_intern(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                               bool truncated) {
    return hs_stack_store_add(store, frames, depth, truncated, NULL);
}

uint32_t hs_stack_store_add(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                            bool truncated, bool *is_new) {
    if (is_new) *is_new = false;
    if (!store) return 0;
    if (depth > MAX_DEPTH || (depth > 0 && !frames)) return drop(store);
    uint64_t hash = hash_stack(frames, depth, truncated);
    stack_record *mine = NULL; /* made at the first empty slot, kept while probing on */
    size_t index = (size_t)hash & store->mask;
    for (size_t probes = 0; probes <= store->mask; probes++, index = (index + 1) & store->mask) {
        stack_record *rec = atomic_load_explicit(&store->slots[index], memory_order_acquire);
        if (!rec) {
            if (!mine && !(mine = new_record(store, hash, frames, depth, truncated)))
                return drop(store);
            if (atomic_compare_exchange_strong_explicit(&store->slots[index], &rec, mine,
                                                        memory_order_release, memory_order_acquire)) {
                rec = mine;
                if (is_new) *is_new = true;
            } /* else rec is the record that won the slot */
        }
        if (rec == mine || record_equals(rec, hash, frames, depth, truncated)) {
            /* Make get(id) work before anyone is told the id (see the file comment). */
            if (!atomic_load_explicit(&store->by_id[rec->id], memory_order_relaxed))
                atomic_store_explicit(&store->by_id[rec->id], rec, memory_order_release);
            return rec->id;
        }
    }
    return drop(store); /* unreachable: at most capacity of the 2 * capacity slots get used */
}

const hs_frame *hs_stack_store_get(const hs_stack_store *store, uint32_t id, uint32_t *depth,
                                   bool *truncated) {
    if (!store || id == 0 || id > store->capacity) return NULL;
    const stack_record *rec = atomic_load_explicit(&store->by_id[id], memory_order_acquire);
    if (!rec) return NULL;
    if (depth) *depth = rec->depth;
    if (truncated) *truncated = rec->truncated;
    return rec->frames;
}

uint64_t hs_stack_store_hint(const hs_stack_store *store, uint32_t id) {
    if (!store || id == 0 || id > store->capacity) return 0;
    const stack_record *rec = atomic_load_explicit(&store->by_id[id], memory_order_acquire);
    return rec ? atomic_load_explicit(&rec->hint, memory_order_relaxed) : 0;
}

void hs_stack_store_set_hint(hs_stack_store *store, uint32_t id, uint64_t hint) {
    if (!store || id == 0 || id > store->capacity) return;
    stack_record *rec = atomic_load_explicit(&store->by_id[id], memory_order_acquire);
    if (rec) atomic_store_explicit(&rec->hint, hint, memory_order_relaxed);
}

uint32_t hs_stack_store_count(const hs_stack_store *store) {
    uint32_t count = store ? atomic_load_explicit(&store->count, memory_order_relaxed) : 0;
    return store && count > store->capacity ? store->capacity : count;
}

uint64_t hs_stack_store_dropped(const hs_stack_store *store) {
    return store ? atomic_load_explicit(&store->dropped, memory_order_relaxed) : 0;
}

size_t hs_stack_store_frame_bytes(const hs_stack_store *store) {
    return store ? hs_arena_reserved(store->arena) : 0;
}
