/* stack_store.c: lock-free interning of call stacks into dense ids (see stack_store.h).
 *
 * Records. A stack is stored once, as a record {hash, id, depth, truncated, frames[]}
 * allocated from the store's arena (whose budget is frame_bytes). A record is filled
 * completely before it is published, and only ever published by a CAS with release
 * semantics, so a reader that acquires a pointer to it sees it whole.
 *
 * Lookup. An open-addressing table (power of two, at least twice the capacity, linear
 * probing) holds record pointers. intern hashes the frames and probes: a slot holding an
 * equal record gives the answer; an empty slot is claimed by CASing it from NULL to a
 * freshly filled record. A thread that loses that CAS looks at the winner: if it is an
 * equal stack, the winner's record is the one record of that stack. Either way there is
 * exactly one record per distinct stack, and no thread ever waits on another. The loser's
 * record was never seen by anyone: it is parked in a small array of spares (a single-pointer
 * CAS, so taking one back is safe from ABA: whoever CASes the pointer out owns the record),
 * and a later new stack that fits in it reuses it instead of spending frame budget. Only
 * when every spare place is taken does a losing record stay unused in the arena.
 *
 * Ids. Ids are given to records only after they won their slot, so no id is ever spent on a
 * record that lost; ids are dense 1..count. The catch is the window between a record's
 * publication in the table and its id: a thread that finds the record then cannot wait for
 * its owner to number it, so it numbers it itself. Every thread that needs an id for a
 * record runs assign_id(), which appends the record to the id array like this:
 *
 *   n = count; CAS by_id[n + 1] from NULL to the record; then, whoever sits in
 *   by_id[n + 1], CAS its id from 0 to n + 1 and CAS count from n to n + 1.
 *
 * count only moves past n + 1 once by_id[n + 1] holds a record numbered n + 1, and that
 * entry never changes afterwards. A record can land twice in the array (a helper that read
 * its id as 0 just before another helper numbered it may put it in the next entry too);
 * the copy is recognised because its id does not match its position, and is taken out
 * (CAS back to NULL) before count can move past it. Every step is a single CAS that some
 * thread wins, so the scheme is lock-free, and all threads agree on each record's id. */
#include "stack_store.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "arena.h"

#define ARENA_CHUNK_SIZE ((size_t)1 << 20)
/* Keeps the slot count (twice the capacity, rounded up) well inside a size_t. */
#define MAX_CAPACITY ((uint32_t)1 << 30)
/* Refuses depths whose record size could overflow a size_t. */
#define MAX_DEPTH ((uint32_t)1 << 24)
/* Places for records that lost a race, waiting to be reused. */
#define SPARES 32

typedef struct {
    uint64_t hash;
    _Atomic uint32_t id; /* 0 until assign_id numbers the record */
    uint32_t depth;
    uint32_t frame_room; /* frames the record has room for (>= depth); never changes */
    bool truncated;
    hs_frame frames[];
} stack_record;

struct hs_stack_store {
    uint32_t capacity;             /* max ids */
    size_t mask;                   /* slot count - 1 */
    _Atomic(stack_record *) *slots; /* the hash table */
    _Atomic(stack_record *) *by_id; /* [1..capacity]; entry 0 unused */
    _Atomic uint32_t count;        /* ids 1..count are final */
    _Atomic uint64_t dropped;
    hs_arena *arena;               /* the records */
    _Atomic(stack_record *) spares[SPARES]; /* unpublished records, free for reuse */
    _Atomic uint32_t parked;       /* how many spares are (about to be) parked */
};

/* A bijective 64-bit finalizer (xor-shift / multiply rounds): every input bit affects
 * every output bit. */
static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* Chains every frame through the finalizer. The method is mixed before the bci is added,
 * so neighbouring jmethodIDs (8 bytes apart) and small bcis cannot cancel each other;
 * the odd multiplier spreads the bci over the whole word. */
static uint64_t hash_stack(const hs_frame *frames, uint32_t depth, bool truncated) {
    uint64_t h = mix64(((uint64_t)depth << 1 | (truncated ? 1u : 0u)) + 0x9e3779b97f4a7c15ULL);
    for (uint32_t i = 0; i < depth; i++) {
        h = mix64(h ^ (uint64_t)frames[i].method);
        h += (uint64_t)(uint32_t)frames[i].bci * 0xd6e8feb86659fd93ULL;
    }
    return mix64(h);
}

hs_stack_store *hs_stack_store_create(uint32_t capacity, size_t frame_bytes) {
    if (capacity == 0 || capacity > MAX_CAPACITY) return NULL;
    size_t slots = 2;
    while (slots < 2 * (size_t)capacity) slots <<= 1;
    hs_stack_store *store = calloc(1, sizeof *store);
    if (!store) return NULL;
    store->capacity = capacity;
    store->mask = slots - 1;
    store->slots = calloc(slots, sizeof *store->slots);
    store->by_id = calloc((size_t)capacity + 1, sizeof *store->by_id);
    store->arena = hs_arena_create(ARENA_CHUNK_SIZE, frame_bytes);
    atomic_init(&store->count, 0);
    atomic_init(&store->dropped, 0);
    atomic_init(&store->parked, 0);
    for (int i = 0; i < SPARES; i++) atomic_init(&store->spares[i], NULL);
    if (!store->slots || !store->by_id || !store->arena) {
        hs_stack_store_destroy(store);
        return NULL;
    }
    return store;
}

void hs_stack_store_destroy(hs_stack_store *store) {
    if (!store) return;
    free(store->slots);
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

/* Parks a record that lost its race (never published) for a later new stack. If every
 * place is taken, the record stays unused. Release: its next owner writes it after us. */
static void park_spare(hs_stack_store *store, stack_record *rec) {
    atomic_fetch_add_explicit(&store->parked, 1, memory_order_relaxed);
    for (int i = 0; i < SPARES; i++) {
        stack_record *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(&store->spares[i], &empty, rec,
                                                    memory_order_release, memory_order_relaxed))
            return;
    }
    atomic_fetch_sub_explicit(&store->parked, 1, memory_order_relaxed);
}

/* A parked record with room for depth frames, now ours, or NULL. */
static stack_record *take_spare(hs_stack_store *store, uint32_t depth) {
    if (atomic_load_explicit(&store->parked, memory_order_relaxed) == 0) return NULL;
    for (int i = 0; i < SPARES; i++) {
        stack_record *rec = atomic_load_explicit(&store->spares[i], memory_order_acquire);
        if (rec && rec->frame_room >= depth &&
            atomic_compare_exchange_strong_explicit(&store->spares[i], &rec, NULL,
                                                    memory_order_acquire, memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&store->parked, 1, memory_order_relaxed);
            return rec;
        }
    }
    return NULL;
}

static stack_record *alloc_record(hs_stack_store *store, uint32_t depth) {
    size_t bytes = sizeof(stack_record) + (size_t)depth * sizeof(hs_frame);
    stack_record *rec = hs_arena_alloc(store->arena, bytes, _Alignof(stack_record));
    if (rec) rec->frame_room = depth; /* the arena zeroed the rest: id is 0 */
    return rec;
}

/* A filled, unpublished record (id 0): a spare or a new one from the arena. NULL when
 * the ids are all taken (don't spend budget then) or the frame budget is spent. Acquire
 * on count: if another thread's id took the last one, the record it numbered is visible
 * in the table to our next look. */
static stack_record *new_record_if_room(hs_stack_store *store, uint64_t hash,
                                        const hs_frame *frames, uint32_t depth, bool truncated) {
    if (atomic_load_explicit(&store->count, memory_order_acquire) >= store->capacity) return NULL;
    stack_record *rec = take_spare(store, depth);
    if (!rec && !(rec = alloc_record(store, depth))) return NULL;
    rec->hash = hash;
    rec->depth = depth;
    rec->truncated = truncated;
    for (uint32_t i = 0; i < depth; i++)
        rec->frames[i] = (hs_frame){.method = frames[i].method, .bci = frames[i].bci};
    return rec; /* a spare was never published, so its id is still 0 */
}

/* The id of a record published in the table, numbering it first if nobody has (see the
 * file comment). 0 when every id is taken. */
static uint32_t assign_id(hs_stack_store *store, stack_record *rec) {
    for (;;) {
        uint32_t id = atomic_load_explicit(&rec->id, memory_order_acquire);
        if (id) {
            /* The thread that numbered it may not have moved count yet: help, so that
             * count >= id holds once we return id. by_id[id] is final, so this is safe. */
            uint32_t before = id - 1;
            if (atomic_load(&store->count) == before)
                atomic_compare_exchange_strong(&store->count, &before, id);
            return id;
        }
        uint32_t n = atomic_load(&store->count);
        if (n >= store->capacity) {
            /* No id left, unless a helper numbered ours since we looked. */
            return atomic_load_explicit(&rec->id, memory_order_acquire);
        }
        _Atomic(stack_record *) *entry = &store->by_id[n + 1];
        stack_record *occupant = NULL; /* on a lost CAS: whoever is there */
        if (atomic_compare_exchange_strong(entry, &occupant, rec)) occupant = rec;
        uint32_t occupant_id = 0;
        if (atomic_compare_exchange_strong(&occupant->id, &occupant_id, n + 1))
            occupant_id = n + 1;
        if (occupant_id == n + 1)
            atomic_compare_exchange_strong(&store->count, &n, n + 1);
        else
            atomic_compare_exchange_strong(entry, &occupant, NULL); /* a duplicate */
    }
}

uint32_t hs_stack_store_intern(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                               bool truncated) {
    if (!store) return 0;
    if (depth > MAX_DEPTH || (depth > 0 && !frames)) return drop(store);
    uint64_t hash = hash_stack(frames, depth, truncated);
    stack_record *fresh = NULL; /* made on the first empty slot, kept while probing on */
    size_t index = (size_t)hash & store->mask;
    for (size_t probes = 0; probes <= store->mask; probes++, index = (index + 1) & store->mask) {
        stack_record *rec = atomic_load_explicit(&store->slots[index], memory_order_acquire);
        if (!rec) {
            if (!fresh) fresh = new_record_if_room(store, hash, frames, depth, truncated);
            if (!fresh) {
                /* No room for a new stack; but another thread may have put this very
                 * stack here since we looked (and taken the last id with it). */
                rec = atomic_load_explicit(&store->slots[index], memory_order_acquire);
                if (!rec) return drop(store);
            } else if (atomic_compare_exchange_strong_explicit(&store->slots[index], &rec, fresh,
                                                               memory_order_release,
                                                               memory_order_acquire)) {
                rec = fresh;
            } /* else rec is the record that won the slot */
        }
        if (rec == fresh || record_equals(rec, hash, frames, depth, truncated)) {
            if (fresh && rec != fresh) park_spare(store, fresh);
            uint32_t id = assign_id(store, rec);
            return id ? id : drop(store);
        }
    }
    if (fresh) park_spare(store, fresh);
    return drop(store); /* every slot taken (only if many racers overshot capacity) */
}

const hs_frame *hs_stack_store_get(const hs_stack_store *store, uint32_t id, uint32_t *depth,
                                   bool *truncated) {
    if (!store || id == 0 || id > store->capacity) return NULL;
    const stack_record *rec = atomic_load_explicit(&store->by_id[id], memory_order_acquire);
    /* A record whose id differs is a duplicate on its way out of the entry. */
    if (!rec || atomic_load_explicit(&rec->id, memory_order_acquire) != id) return NULL;
    if (depth) *depth = rec->depth;
    if (truncated) *truncated = rec->truncated;
    return rec->frames;
}

uint32_t hs_stack_store_count(const hs_stack_store *store) {
    return store ? atomic_load(&store->count) : 0;
}

uint64_t hs_stack_store_dropped(const hs_stack_store *store) {
    return store ? atomic_load_explicit(&store->dropped, memory_order_relaxed) : 0;
}
