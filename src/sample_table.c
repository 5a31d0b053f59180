/* sample_table.c: lock-free aggregation of allocation samples into buckets keyed by
 * (stack id, class id, size), with dense bucket indexes (see sample_table.h).
 *
 * Buckets. A bucket {key, hash, samples, weight_fp, index} comes from a pool preallocated
 * at create, taken with a CAS on the pool's fill mark. Its key is written before the
 * bucket is published by a release CAS into an open-addressing table (power of two, at
 * least twice the capacity, linear probing), so a reader that acquires the pointer sees
 * the key whole. Counters are only touched with atomic fetch_add.
 *
 * A recorder probes for its key; on an empty slot it fills a pool bucket and CASes the
 * slot from NULL to it. If the CAS loses to a bucket of the same key, that bucket is the
 * key's one bucket. The loser's bucket was never seen by anyone: it is parked in a small
 * array of spares (a single-pointer CAS, so taking one back is safe from ABA: whoever
 * CASes the pointer out owns the bucket), and the next new key uses it before the pool.
 * Only when every spare place is taken is a bucket lost, which the pool's slack absorbs.
 * No thread ever waits for another.
 *
 * Indexes are numbered only after a bucket won its slot, so they are dense 1..count and
 * none is spent on a loser. Whoever needs the index of a published bucket that has none
 * yet numbers it itself, appending to the index array with the same helping protocol as
 * the stack store's ids (stack_store.c explains it and why it is correct):
 *   n = count; CAS by_index[n + 1] NULL -> bucket; CAS the occupant's index 0 -> n + 1;
 *   CAS count n -> n + 1; an occupant already numbered elsewhere is a duplicate and is
 *   CASed back out before count can pass it. */
#include "sample_table.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Keeps the slot count (twice the capacity, rounded up) well inside a size_t. */
#define MAX_CAPACITY ((uint32_t)1 << 30)
/* Places for buckets that lost a race, waiting to be reused. */
#define SPARES 32

typedef struct {
    hs_bucket_key key;
    uint64_t hash;
    _Atomic uint64_t samples;
    _Atomic uint64_t weight_fp;
    _Atomic uint32_t index; /* 0 until assign_index numbers the bucket */
} bucket;

struct hs_sample_table {
    uint32_t capacity;          /* max buckets (indexes) */
    size_t mask;                /* slot count - 1 */
    _Atomic(bucket *) *slots;   /* the hash table */
    _Atomic(bucket *) *by_index; /* [1..capacity]; entry 0 unused */
    _Atomic uint32_t count;     /* indexes 1..count are final */
    _Atomic uint64_t dropped;
    bucket *pool;
    uint32_t pool_size;
    _Atomic uint32_t pool_used;
    _Atomic(bucket *) spares[SPARES]; /* unpublished buckets, free for reuse */
    _Atomic uint32_t parked;          /* how many spares are (about to be) parked */
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

static uint64_t hash_key(hs_bucket_key key) {
    uint64_t ids = (uint64_t)key.class_id << 32 | key.stack_id;
    return mix64(mix64(ids + 0x9e3779b97f4a7c15ULL) ^ key.size);
}

static bool key_equals(hs_bucket_key a, hs_bucket_key b) {
    return a.stack_id == b.stack_id && a.class_id == b.class_id && a.size == b.size;
}

hs_sample_table *hs_sample_table_create(uint32_t capacity) {
    if (capacity == 0 || capacity > MAX_CAPACITY) return NULL;
    size_t slots = 2;
    while (slots < 2 * (size_t)capacity) slots <<= 1;
    hs_sample_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    table->capacity = capacity;
    table->mask = slots - 1;
    /* Slack for buckets in flight (taken, not yet published) or parked as spares. */
    table->pool_size = capacity + capacity / 16 + 4 * SPARES;
    table->slots = calloc(slots, sizeof *table->slots);
    table->by_index = calloc((size_t)capacity + 1, sizeof *table->by_index);
    table->pool = calloc(table->pool_size, sizeof *table->pool);
    atomic_init(&table->count, 0);
    atomic_init(&table->dropped, 0);
    atomic_init(&table->pool_used, 0);
    atomic_init(&table->parked, 0);
    for (int i = 0; i < SPARES; i++) atomic_init(&table->spares[i], NULL);
    if (!table->slots || !table->by_index || !table->pool) {
        hs_sample_table_destroy(table);
        return NULL;
    }
    return table;
}

void hs_sample_table_destroy(hs_sample_table *table) {
    if (!table) return;
    free(table->slots);
    free(table->by_index);
    free(table->pool);
    free(table);
}

static uint32_t drop(hs_sample_table *table) {
    atomic_fetch_add_explicit(&table->dropped, 1, memory_order_relaxed);
    return 0;
}

/* Parks a bucket that lost its race (never published) for the next new key. If every
 * place is taken, the bucket is lost. Release: its next owner writes it after us. */
static void park_spare(hs_sample_table *table, bucket *b) {
    atomic_fetch_add_explicit(&table->parked, 1, memory_order_relaxed);
    for (int i = 0; i < SPARES; i++) {
        bucket *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(&table->spares[i], &empty, b,
                                                    memory_order_release, memory_order_relaxed))
            return;
    }
    atomic_fetch_sub_explicit(&table->parked, 1, memory_order_relaxed);
}

/* A parked bucket, now ours, or NULL. */
static bucket *take_spare(hs_sample_table *table) {
    if (atomic_load_explicit(&table->parked, memory_order_relaxed) == 0) return NULL;
    for (int i = 0; i < SPARES; i++) {
        bucket *b = atomic_load_explicit(&table->spares[i], memory_order_relaxed);
        if (b && atomic_compare_exchange_strong_explicit(&table->spares[i], &b, NULL,
                                                         memory_order_acquire,
                                                         memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&table->parked, 1, memory_order_relaxed);
            return b;
        }
    }
    return NULL;
}

static bucket *take_from_pool(hs_sample_table *table) {
    uint32_t used = atomic_load_explicit(&table->pool_used, memory_order_relaxed);
    do {
        if (used >= table->pool_size) return NULL;
    } while (!atomic_compare_exchange_weak_explicit(&table->pool_used, &used, used + 1,
                                                    memory_order_relaxed, memory_order_relaxed));
    return &table->pool[used];
}

/* A filled, unpublished bucket for key: a spare or a new one from the pool. NULL when the
 * indexes are all taken (don't spend the pool then) or the pool is spent. Acquire on
 * count: if another thread's index took the last one, the bucket it numbered is visible
 * in the table to our next look. */
static bucket *new_bucket_if_room(hs_sample_table *table, hs_bucket_key key, uint64_t hash) {
    if (atomic_load_explicit(&table->count, memory_order_acquire) >= table->capacity) return NULL;
    bucket *b = take_spare(table);
    if (!b && !(b = take_from_pool(table))) return NULL;
    b->key = key;
    b->hash = hash;
    /* A spare was never published, so its counters and index are still 0. */
    return b;
}

/* The index of a published bucket, numbering it first if nobody has (see the file
 * comment). 0 when every index is taken. */
static uint32_t assign_index(hs_sample_table *table, bucket *b) {
    for (;;) {
        uint32_t index = atomic_load_explicit(&b->index, memory_order_acquire);
        if (index) {
            /* Help a numbering thread that has not moved count yet, so that
             * count >= index once we return index (by_index[index] is final). */
            uint32_t before = index - 1;
            if (atomic_load(&table->count) == before)
                atomic_compare_exchange_strong(&table->count, &before, index);
            return index;
        }
        uint32_t n = atomic_load(&table->count);
        if (n >= table->capacity) {
            /* No index left, unless a helper numbered ours since we looked. */
            return atomic_load_explicit(&b->index, memory_order_acquire);
        }
        _Atomic(bucket *) *entry = &table->by_index[n + 1];
        bucket *occupant = NULL; /* on a lost CAS: whoever is there */
        if (atomic_compare_exchange_strong(entry, &occupant, b)) occupant = b;
        uint32_t occupant_index = 0;
        if (atomic_compare_exchange_strong(&occupant->index, &occupant_index, n + 1))
            occupant_index = n + 1;
        if (occupant_index == n + 1)
            atomic_compare_exchange_strong(&table->count, &n, n + 1);
        else
            atomic_compare_exchange_strong(entry, &occupant, NULL); /* a duplicate */
    }
}

/* The key's published bucket, inserting it if new; NULL when full. */
static bucket *find_or_insert(hs_sample_table *table, hs_bucket_key key, uint64_t hash) {
    bucket *fresh = NULL; /* taken on the first empty slot, kept while probing on */
    size_t index = (size_t)hash & table->mask;
    for (size_t probes = 0; probes <= table->mask; probes++, index = (index + 1) & table->mask) {
        bucket *b = atomic_load_explicit(&table->slots[index], memory_order_acquire);
        if (!b) {
            if (!fresh) fresh = new_bucket_if_room(table, key, hash);
            if (!fresh) {
                /* No room for a new key; but another thread may have put this very key
                 * here since we looked (and taken the last index with it). */
                b = atomic_load_explicit(&table->slots[index], memory_order_acquire);
                if (!b) return NULL;
            } else if (atomic_compare_exchange_strong_explicit(&table->slots[index], &b, fresh,
                                                               memory_order_release,
                                                               memory_order_acquire)) {
                return fresh;
            } /* else b is the bucket that won the slot */
        }
        if (b->hash == hash && key_equals(b->key, key)) {
            if (fresh) park_spare(table, fresh);
            return b;
        }
    }
    if (fresh) park_spare(table, fresh);
    return NULL; /* every slot taken (only if many racers overshot capacity) */
}

uint32_t hs_sample_table_record(hs_sample_table *table, hs_bucket_key key, uint64_t weight_fp) {
    if (!table) return 0;
    bucket *b = find_or_insert(table, key, hash_key(key));
    uint32_t index = b ? assign_index(table, b) : 0;
    if (index == 0) return drop(table);
    atomic_fetch_add_explicit(&b->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->weight_fp, weight_fp, memory_order_relaxed);
    return index;
}

uint32_t hs_sample_table_count(const hs_sample_table *table) {
    return table ? atomic_load(&table->count) : 0;
}

int hs_sample_table_get(const hs_sample_table *table, uint32_t index, hs_bucket_snapshot *out) {
    if (!table || !out || index == 0 || index > table->capacity) return -1;
    bucket *b = atomic_load_explicit(&table->by_index[index], memory_order_acquire);
    /* A bucket whose index differs is a duplicate on its way out of the entry. */
    if (!b || atomic_load_explicit(&b->index, memory_order_acquire) != index) return -1;
    out->key = b->key;
    out->samples = atomic_load_explicit(&b->samples, memory_order_relaxed);
    out->weight_fp = atomic_load_explicit(&b->weight_fp, memory_order_relaxed);
    return 0;
}

uint64_t hs_sample_table_dropped(const hs_sample_table *table) {
    return table ? atomic_load_explicit(&table->dropped, memory_order_relaxed) : 0;
}
