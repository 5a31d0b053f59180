/* sample_table.c: lock-free aggregation of allocation samples into buckets keyed by
 * (stack id, class id, size) (see sample_table.h).
 *
 * Bucket i lives at buckets[i], preallocated at create. Buckets are published in an
 * open-addressing table of bucket pointers (power of two, >= 2 * capacity slots, linear
 * probing, slots never emptied). A recorder probes for its key; at the first empty slot it
 * claims a fresh index (fetch_add on count), writes the key into that bucket and CASes the
 * slot NULL -> bucket, with release so readers see the key. Losing that CAS to an equal key,
 * it uses the winner's bucket and its own index stays a hole; losing to another key, it
 * probes on with the same bucket. A bucket's `published` flag is set only once it is in the
 * table, by every thread returning its index, so get fails on holes and finds every
 * returned index. Counters are only touched with fetch_add. Nobody waits for anybody. */
#include "sampling/sample_table.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sampling/big_alloc.h"

#include "base/hash.h"

/* Keeps the slot count (twice the capacity, rounded up) well inside a size_t. */
#define MAX_CAPACITY ((uint32_t)1 << 30)

typedef struct {
    hs_bucket_key key;
    _Atomic uint64_t samples;
    _Atomic uint64_t weight_fp;
    _Atomic uint64_t untracked_fp;
    _Atomic bool published; /* in the table (false for holes and buckets in flight) */
} bucket;

struct hs_sample_table {
    uint32_t capacity;        /* max buckets (indexes) */
    uint32_t reserve;         /* the last indexes, kept for hs_sample_table_record_folded */
    size_t mask;              /* slot count - 1 */
    _Atomic(bucket *) *slots; /* the hash table */
    bucket *buckets;          /* [1..capacity], by index; entry 0 unused */
    _Atomic uint32_t count;   /* indexes claimed; racers may push it a little past capacity */
    _Atomic uint64_t dropped;
};

static uint64_t hash_key(hs_bucket_key key) {
    uint64_t ids = (uint64_t)key.class_id << 32 | key.stack_id;
    return hs_mix64(hs_mix64(ids + 0x9e3779b97f4a7c15ULL) ^ key.size ^ (uint64_t)key.thread_id << 48);
}

static bool key_equals(hs_bucket_key a, hs_bucket_key b) {
    return a.stack_id == b.stack_id && a.class_id == b.class_id && a.size == b.size &&
           a.thread_id == b.thread_id;
}

hs_sample_table *hs_sample_table_create(uint32_t capacity) {
    return hs_sample_table_create_reserved(capacity, 0);
}

hs_sample_table *hs_sample_table_create_reserved(uint32_t capacity, uint32_t reserve) {
    if (capacity == 0 || capacity > MAX_CAPACITY || reserve >= capacity) return NULL;
    size_t slots = 2;
    while (slots < 2 * (size_t)capacity) slots <<= 1;
    hs_sample_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    table->capacity = capacity;
    table->reserve = reserve;
    table->mask = slots - 1;
    table->slots = hs_big_calloc(slots, sizeof *table->slots);
    table->buckets = calloc((size_t)capacity + 1, sizeof *table->buckets);
    atomic_init(&table->count, 0);
    atomic_init(&table->dropped, 0);
    if (!table->slots || !table->buckets) {
        hs_sample_table_destroy(table);
        return NULL;
    }
    return table;
}

void hs_sample_table_destroy(hs_sample_table *table) {
    if (!table) return;
    hs_big_free(table->slots, table->mask + 1, sizeof *table->slots);
    free(table->buckets);
    free(table);
}

/* A bucket holding key under a fresh index <= limit, not yet published; NULL when those
 * indexes are spent. */
static bucket *new_bucket(hs_sample_table *table, hs_bucket_key key, uint32_t limit) {
    if (atomic_load_explicit(&table->count, memory_order_relaxed) >= limit) return NULL;
    uint32_t index = atomic_fetch_add_explicit(&table->count, 1, memory_order_relaxed) + 1;
    if (index > limit) return NULL; /* a lost index: a hole, as after a lost race */
    table->buckets[index].key = key;
    return &table->buckets[index];
}

/* The key's published bucket, inserting it if new with an index <= limit; NULL when full. */
static bucket *find_or_insert(hs_sample_table *table, hs_bucket_key key, uint32_t limit) {
    bucket *mine = NULL; /* taken at the first empty slot, kept while probing on */
    size_t index = (size_t)hash_key(key) & table->mask;
    for (size_t probes = 0; probes <= table->mask; probes++, index = (index + 1) & table->mask) {
        bucket *b = atomic_load_explicit(&table->slots[index], memory_order_acquire);
        if (!b) {
            if (!mine && !(mine = new_bucket(table, key, limit))) return NULL;
            if (atomic_compare_exchange_strong_explicit(&table->slots[index], &b, mine,
                                                        memory_order_release, memory_order_acquire))
                b = mine; /* else b is the bucket that won the slot */
        }
        if (b == mine || key_equals(b->key, key)) {
            /* Make get(index) work before anyone is told the index (see the file comment). */
            if (!atomic_load_explicit(&b->published, memory_order_relaxed))
                atomic_store_explicit(&b->published, true, memory_order_release);
            return b;
        }
    }
    return NULL; /* unreachable: at most capacity of the 2 * capacity slots get used */
}

static uint32_t add_sample(hs_sample_table *table, bucket *b, uint64_t weight_fp) {
    atomic_fetch_add_explicit(&b->samples, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->weight_fp, weight_fp, memory_order_relaxed);
    return (uint32_t)(b - table->buckets);
}

static uint32_t record_within(hs_sample_table *table, hs_bucket_key key, uint64_t weight_fp,
                              uint32_t limit) {
    if (!table) return 0;
    bucket *b = find_or_insert(table, key, limit);
    if (!b) {
        atomic_fetch_add_explicit(&table->dropped, 1, memory_order_relaxed);
        return 0;
    }
    return add_sample(table, b, weight_fp);
}

uint32_t hs_sample_table_record(hs_sample_table *table, hs_bucket_key key, uint64_t weight_fp) {
    return record_within(table, key, weight_fp, table ? table->capacity - table->reserve : 0);
}

uint32_t hs_sample_table_record_folded(hs_sample_table *table, hs_bucket_key key,
                                       uint64_t weight_fp) {
    return record_within(table, key, weight_fp, table ? table->capacity : 0);
}

uint32_t hs_sample_table_record_hinted(hs_sample_table *table, hs_bucket_key key,
                                       uint64_t weight_fp, uint32_t hint) {
    if (table && hint != 0 && hint <= table->capacity) {
        bucket *b = &table->buckets[hint];
        /* The key is written before `published` is set (release): acquire, then compare. */
        if (atomic_load_explicit(&b->published, memory_order_acquire) && key_equals(b->key, key))
            return add_sample(table, b, weight_fp);
    }
    return hs_sample_table_record(table, key, weight_fp);
}

/* Never 0, so a zero hint matches no key. */
static uint32_t key_print(hs_bucket_key key) { return (uint32_t)(hash_key(key) >> 32) | 1u; }

uint32_t hs_sample_table_record_by_hint(hs_sample_table *table, hs_bucket_key key,
                                        uint64_t weight_fp, uint64_t *hint) {
    uint32_t print = key_print(key);
    uint32_t hinted = (uint32_t)(*hint >> 32) == print ? (uint32_t)*hint : 0;
    uint32_t index = hs_sample_table_record_hinted(table, key, weight_fp, hinted);
    if (index != 0) *hint = (uint64_t)print << 32 | index;
    return index;
}

void hs_sample_table_add_untracked(hs_sample_table *table, uint32_t index, uint64_t weight_fp) {
    if (!table || index == 0 || index > table->capacity) return;
    atomic_fetch_add_explicit(&table->buckets[index].untracked_fp, weight_fp, memory_order_relaxed);
}

uint64_t hs_sample_table_samples(const hs_sample_table *table) {
    uint64_t total = 0;
    uint32_t count = hs_sample_table_count(table);
    for (uint32_t i = 1; i <= count; i++)
        if (atomic_load_explicit(&table->buckets[i].published, memory_order_acquire))
            total += atomic_load_explicit(&table->buckets[i].samples, memory_order_relaxed);
    return total;
}

uint32_t hs_sample_table_count(const hs_sample_table *table) {
    uint32_t count = table ? atomic_load_explicit(&table->count, memory_order_relaxed) : 0;
    return table && count > table->capacity ? table->capacity : count;
}

int hs_sample_table_get(const hs_sample_table *table, uint32_t index, hs_bucket_snapshot *out) {
    if (!table || !out || index == 0 || index > table->capacity) return -1;
    const bucket *b = &table->buckets[index];
    if (!atomic_load_explicit(&b->published, memory_order_acquire)) return -1;
    out->key = b->key;
    out->samples = atomic_load_explicit(&b->samples, memory_order_relaxed);
    out->weight_fp = atomic_load_explicit(&b->weight_fp, memory_order_relaxed);
    out->untracked_fp = atomic_load_explicit(&b->untracked_fp, memory_order_relaxed);
    return 0;
}

uint64_t hs_sample_table_dropped(const hs_sample_table *table) {
    return table ? atomic_load_explicit(&table->dropped, memory_order_relaxed) : 0;
}
