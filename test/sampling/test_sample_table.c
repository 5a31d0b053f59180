/* test_sample_table.c: unit tests of sample aggregation (src/sampling/sample_table.c).
 *
 * Single-threaded: a bucket accumulates samples and weights, keys differing in any field
 * get distinct buckets, get round-trips and rejects unknown indexes, a full table returns
 * 0 and counts drops; one thread alone gets indexes 1, 2, 3... Concurrent: 8 threads record
 * many samples on overlapping keys; each key has one index, the totals per key must be
 * exact, and every other index up to count is a hole (a lost race) on which get fails.
 * Worker threads only record results; the main thread asserts (CUnit is not thread-safe). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sampling/sample_table.h"
#include "threads.h"
#include "unit.h"

static hs_bucket_key key(uint32_t stack_id, uint32_t class_id, uint64_t size) {
    return (hs_bucket_key){.stack_id = stack_id, .class_id = class_id, .size = size};
}

static void test_accumulates(void) {
    hs_sample_table *table = hs_sample_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    hs_bucket_key k = key(3, 7, 24);
    uint32_t index = hs_sample_table_record(table, k, HS_WEIGHT_ONE);
    CU_ASSERT_EQUAL(index, 1);
    CU_ASSERT_EQUAL(hs_sample_table_record(table, k, 3 * HS_WEIGHT_ONE), index);
    CU_ASSERT_EQUAL(hs_sample_table_record(table, k, HS_WEIGHT_ONE / 2), index);
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, index, &snap), 0);
    CU_ASSERT_EQUAL(snap.key.stack_id, 3);
    CU_ASSERT_EQUAL(snap.key.class_id, 7);
    CU_ASSERT_EQUAL(snap.key.size, 24);
    CU_ASSERT_EQUAL(snap.samples, 3);
    CU_ASSERT_EQUAL(snap.weight_fp, 4 * HS_WEIGHT_ONE + HS_WEIGHT_ONE / 2);
    CU_ASSERT_EQUAL(hs_sample_table_count(table), 1);
    CU_ASSERT_EQUAL(hs_sample_table_dropped(table), 0);
    hs_sample_table_record(table, key(4, 7, 24), HS_WEIGHT_ONE);
    CU_ASSERT_EQUAL(hs_sample_table_samples(table), 4); /* summed over the buckets */
    hs_sample_table_destroy(table);
}

static void test_untracked_weight(void) {
    hs_sample_table *table = hs_sample_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    uint32_t a = hs_sample_table_record(table, key(1, 1, 16), 4 * HS_WEIGHT_ONE);
    uint32_t b = hs_sample_table_record(table, key(2, 1, 16), HS_WEIGHT_ONE);
    hs_sample_table_add_untracked(table, a, HS_WEIGHT_ONE);
    hs_sample_table_add_untracked(table, a, 2 * HS_WEIGHT_ONE);
    hs_sample_table_add_untracked(table, 0, HS_WEIGHT_ONE);  /* ignored */
    hs_sample_table_add_untracked(table, 99, HS_WEIGHT_ONE); /* ignored */
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, a, &snap), 0);
    CU_ASSERT_EQUAL(snap.untracked_fp, 3 * HS_WEIGHT_ONE);
    CU_ASSERT_EQUAL(snap.weight_fp, 4 * HS_WEIGHT_ONE);
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, b, &snap), 0);
    CU_ASSERT_EQUAL(snap.untracked_fp, 0);
    hs_sample_table_destroy(table);
}

static void test_record_hinted(void) {
    hs_sample_table *table = hs_sample_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    uint32_t a = hs_sample_table_record(table, key(1, 1, 16), HS_WEIGHT_ONE);
    uint32_t b = hs_sample_table_record(table, key(2, 1, 16), HS_WEIGHT_ONE);
    /* right hint, wrong hint, stale/out-of-range hints: always the key's own bucket */
    CU_ASSERT_EQUAL(hs_sample_table_record_hinted(table, key(1, 1, 16), HS_WEIGHT_ONE, a), a);
    CU_ASSERT_EQUAL(hs_sample_table_record_hinted(table, key(1, 1, 16), HS_WEIGHT_ONE, b), a);
    CU_ASSERT_EQUAL(hs_sample_table_record_hinted(table, key(1, 1, 16), HS_WEIGHT_ONE, 0), a);
    CU_ASSERT_EQUAL(hs_sample_table_record_hinted(table, key(1, 1, 16), HS_WEIGHT_ONE, 9), a);
    CU_ASSERT_EQUAL(hs_sample_table_record_hinted(table, key(1, 1, 16), HS_WEIGHT_ONE, 999), a);
    /* a new key through a hint of another key gets its own new bucket */
    uint32_t c = hs_sample_table_record_hinted(table, key(3, 1, 16), HS_WEIGHT_ONE, a);
    CU_ASSERT(c != a && c != b && c != 0);
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, a, &snap), 0);
    CU_ASSERT_EQUAL(snap.samples, 6);
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, b, &snap), 0);
    CU_ASSERT_EQUAL(snap.samples, 1);
    hs_sample_table_destroy(table);
}

/* A hint word carries its bucket and that bucket's key's print: the sizes of one site (an
 * array's lengths) get their own buckets and prints, and any word, stale or made up, still
 * lands each sample in its key's own bucket. */
static void test_record_by_hint(void) {
    hs_sample_table *table = hs_sample_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    uint64_t hint = 0;
    uint32_t a = hs_sample_table_record_by_hint(table, key(1, 1, 16), HS_WEIGHT_ONE, &hint);
    CU_ASSERT(a != 0);
    CU_ASSERT_EQUAL((uint32_t)hint, a);
    uint64_t hint_a = hint;
    CU_ASSERT((hint_a >> 32) != 0);
    CU_ASSERT_EQUAL(hs_sample_table_record_by_hint(table, key(1, 1, 16), HS_WEIGHT_ONE, &hint), a);
    CU_ASSERT_EQUAL(hint, hint_a);
    /* the same site, another size: its own bucket, and a hint with another print */
    uint32_t b = hs_sample_table_record_by_hint(table, key(1, 1, 24), HS_WEIGHT_ONE, &hint);
    CU_ASSERT(b != 0 && b != a);
    CU_ASSERT_EQUAL((uint32_t)hint, b);
    CU_ASSERT((hint >> 32) != (hint_a >> 32));
    /* back through the other size's hint, and through made-up words */
    CU_ASSERT_EQUAL(hs_sample_table_record_by_hint(table, key(1, 1, 16), HS_WEIGHT_ONE, &hint), a);
    CU_ASSERT_EQUAL(hint, hint_a);
    uint64_t words[] = {(uint64_t)0xdeadbeef << 32 | a, (uint64_t)0xdeadbeef << 32 | b,
                        (hint_a & ~(uint64_t)UINT32_MAX) | b, (hint_a & ~(uint64_t)UINT32_MAX) | 999};
    for (int i = 0; i < 4; i++) {
        hint = words[i];
        CU_ASSERT_EQUAL(hs_sample_table_record_by_hint(table, key(1, 1, 16), HS_WEIGHT_ONE, &hint), a);
        CU_ASSERT_EQUAL(hint, hint_a);
    }
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, a, &snap), 0);
    CU_ASSERT_EQUAL(snap.samples, 7);
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, b, &snap), 0);
    CU_ASSERT_EQUAL(snap.samples, 1);
    hs_sample_table_destroy(table);
}

static void test_distinct_keys_distinct_buckets(void) {
    hs_sample_table *table = hs_sample_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    /* Each differs from the first in exactly one field (sizes beyond 32 bits included). */
    hs_bucket_key keys[5] = {key(1, 1, 16), key(2, 1, 16), key(1, 2, 16), key(1, 1, 24),
                             key(1, 1, 16 + ((uint64_t)1 << 32))};
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(hs_sample_table_record(table, keys[i], (i + 1) * HS_WEIGHT_ONE), i + 1);
    CU_ASSERT_EQUAL(hs_sample_table_count(table), 5);
    for (uint32_t i = 0; i < 5; i++) {
        hs_bucket_snapshot snap;
        CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, i + 1, &snap), 0);
        CU_ASSERT_EQUAL(snap.key.stack_id, keys[i].stack_id);
        CU_ASSERT_EQUAL(snap.key.class_id, keys[i].class_id);
        CU_ASSERT_EQUAL(snap.key.size, keys[i].size);
        CU_ASSERT_EQUAL(snap.samples, 1);
        CU_ASSERT_EQUAL(snap.weight_fp, (i + 1) * HS_WEIGHT_ONE);
    }
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL(hs_sample_table_get(table, 0, &snap), -1);
    CU_ASSERT_EQUAL(hs_sample_table_get(table, 6, &snap), -1);   /* not created yet */
    CU_ASSERT_EQUAL(hs_sample_table_get(table, 1000, &snap), -1); /* beyond capacity */
    hs_sample_table_destroy(table);
    CU_ASSERT_PTR_NULL(hs_sample_table_create(0));
}

static void test_full_table_drops(void) {
    hs_sample_table *table = hs_sample_table_create(4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    for (uint32_t i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(hs_sample_table_record(table, key(i + 1, 9, 32), HS_WEIGHT_ONE), i + 1);
    CU_ASSERT_EQUAL(hs_sample_table_record(table, key(5, 9, 32), HS_WEIGHT_ONE), 0);
    CU_ASSERT_EQUAL(hs_sample_table_record(table, key(6, 9, 32), HS_WEIGHT_ONE), 0);
    CU_ASSERT_EQUAL(hs_sample_table_dropped(table), 2);
    CU_ASSERT_EQUAL(hs_sample_table_count(table), 4);
    /* Existing keys keep counting. */
    CU_ASSERT_EQUAL(hs_sample_table_record(table, key(2, 9, 32), HS_WEIGHT_ONE), 2);
    hs_bucket_snapshot snap;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, 2, &snap), 0);
    CU_ASSERT_EQUAL(snap.samples, 2);
    CU_ASSERT_EQUAL(hs_sample_table_dropped(table), 2);
    hs_sample_table_destroy(table);
}

/* ---- concurrency ------------------------------------------------------------------ */

#define THREADS 8
#define RECORDS_PER_THREAD 40000
#define KEYS 600

/* Record n of thread t: which key and what weight, deterministic so the main thread
 * can compute the exact expected totals. */
static uint32_t key_index_of(int t, uint32_t n) { return (n * 7 + (uint32_t)t * 13) % KEYS; }
static uint64_t weight_of(int t, uint32_t n) { return HS_WEIGHT_ONE * (1 + (n + (uint32_t)t) % 5) + n % 3; }
static hs_bucket_key key_of(uint32_t k) { return key(1 + k % 50, 100 + k / 50, 16 + 8 * (k % 7)); }

typedef struct {
    hs_sample_table *table;
    int id;
    uint32_t index_of[KEYS]; /* bucket index this thread was given per key (0: dropped) */
    int inconsistent;        /* the same key got different indexes */
    uint64_t dropped;        /* records that returned 0 */
} recorder;

static void *record_many(void *arg) {
    recorder *r = arg;
    for (uint32_t n = 0; n < RECORDS_PER_THREAD; n++) {
        uint32_t k = key_index_of(r->id, n);
        uint32_t index = hs_sample_table_record(r->table, key_of(k), weight_of(r->id, n));
        if (index == 0) {
            r->dropped++;
            continue;
        }
        if (r->index_of[k] && r->index_of[k] != index) r->inconsistent++;
        r->index_of[k] = index;
    }
    return NULL;
}

static void run_recorders(hs_sample_table *table, recorder *recorders) {
    for (int t = 0; t < THREADS; t++) recorders[t] = (recorder){.table = table, .id = t};
    run_threads(THREADS, record_many, recorders, sizeof *recorders);
}

/* Counts the indexes in 1..count that get fails on; every other one must be some key's
 * (owned[index]). */
static uint32_t count_holes(const hs_sample_table *table, const bool *owned) {
    uint32_t holes = 0, published_unowned = 0;
    for (uint32_t index = 1; index <= hs_sample_table_count(table); index++) {
        hs_bucket_snapshot snap;
        bool published = hs_sample_table_get(table, index, &snap) == 0;
        if (!owned[index] && published) published_unowned++;
        if (!owned[index] && !published) holes++;
    }
    CU_ASSERT_EQUAL(published_unowned, 0);
    return holes;
}

/* Room for every key plus a hole for each race a thread can lose: a thread creating a new
 * bucket loses at most once, and one of the threads wins, so THREADS - 1 per key. */
#define MAX_HOLES ((THREADS - 1) * KEYS)

static void race_for_exact_totals(void) {
    hs_sample_table *table = hs_sample_table_create(KEYS + MAX_HOLES);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    recorder *recorders = calloc(THREADS, sizeof *recorders);
    run_recorders(table, recorders);

    uint64_t *want_samples = calloc(KEYS, sizeof *want_samples);
    uint64_t *want_weight = calloc(KEYS, sizeof *want_weight);
    for (int t = 0; t < THREADS; t++) {
        for (uint32_t n = 0; n < RECORDS_PER_THREAD; n++) {
            want_samples[key_index_of(t, n)]++;
            want_weight[key_index_of(t, n)] += weight_of(t, n);
        }
    }
    uint32_t count = hs_sample_table_count(table);
    CU_ASSERT(count >= KEYS);
    CU_ASSERT_EQUAL(hs_sample_table_dropped(table), 0);
    int inconsistent = 0, wrong_key = 0, wrong_totals = 0;
    bool *used = calloc(KEYS + MAX_HOLES + 1, sizeof *used);
    for (int t = 0; t < THREADS; t++) inconsistent += recorders[t].inconsistent;
    for (uint32_t k = 0; k < KEYS; k++) {
        uint32_t index = recorders[0].index_of[k];
        for (int t = 0; t < THREADS; t++)
            if (recorders[t].index_of[k] != index) inconsistent++;
        hs_bucket_snapshot snap;
        if (index == 0 || index > count || used[index] || hs_sample_table_get(table, index, &snap)) {
            inconsistent++;
            continue;
        }
        used[index] = true;
        hs_bucket_key expect = key_of(k);
        if (snap.key.stack_id != expect.stack_id || snap.key.class_id != expect.class_id ||
            snap.key.size != expect.size)
            wrong_key++;
        if (snap.samples != want_samples[k] || snap.weight_fp != want_weight[k]) wrong_totals++;
    }
    CU_ASSERT_EQUAL(inconsistent, 0);
    CU_ASSERT_EQUAL(wrong_key, 0);
    CU_ASSERT_EQUAL(wrong_totals, 0);
    CU_ASSERT_EQUAL(count_holes(table, used), count - KEYS); /* KEYS published indexes */
    free(used);
    free(want_samples);
    free(want_weight);
    free(recorders);
    hs_sample_table_destroy(table);
}

/* 600 keys into 200 indexes: all 200 are spent, on buckets or holes; every record is either
 * in a bucket or counted as dropped. */
static void race_to_overflow(void) {
    hs_sample_table *table = hs_sample_table_create(200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    recorder *recorders = calloc(THREADS, sizeof *recorders);
    run_recorders(table, recorders);
    CU_ASSERT_EQUAL(hs_sample_table_count(table), 200);
    uint64_t in_buckets = 0, dropped_seen = 0;
    uint32_t buckets = 0;
    for (uint32_t index = 1; index <= 200; index++) {
        hs_bucket_snapshot snap;
        if (hs_sample_table_get(table, index, &snap) != 0) continue; /* a hole */
        in_buckets += snap.samples;
        buckets++;
    }
    /* Indexes handed to recorders: the keys' indexes, unique per key. */
    bool *owned = calloc(201, sizeof *owned);
    uint32_t *index_of_key = calloc(KEYS, sizeof *index_of_key);
    uint32_t owned_count = 0;
    int inconsistent = 0;
    for (int t = 0; t < THREADS; t++) {
        dropped_seen += recorders[t].dropped;
        inconsistent += recorders[t].inconsistent;
        for (uint32_t k = 0; k < KEYS; k++) {
            uint32_t index = recorders[t].index_of[k];
            if (!index || index_of_key[k] == index) continue;
            if (index > 200 || index_of_key[k] || owned[index]) {
                inconsistent++; /* a key with two indexes, or two keys with one */
                continue;
            }
            owned[index] = true;
            index_of_key[k] = index;
            owned_count++;
        }
    }
    CU_ASSERT_EQUAL(inconsistent, 0);
    CU_ASSERT_EQUAL(buckets, owned_count);
    CU_ASSERT(200 - buckets <= (THREADS - 1) * buckets); /* holes: lost races only */
    CU_ASSERT_EQUAL(count_holes(table, owned), 200 - buckets);
    free(owned);
    free(index_of_key);
    CU_ASSERT(dropped_seen > 0);
    CU_ASSERT_EQUAL(hs_sample_table_dropped(table), dropped_seen);
    CU_ASSERT_EQUAL(in_buckets + dropped_seen, (uint64_t)THREADS * RECORDS_PER_THREAD);
    free(recorders);
    hs_sample_table_destroy(table);
}

static void test_concurrent_totals_exact(void) {
    for (int r = 0; r < stress_rounds(); r++) race_for_exact_totals();
}

static void test_concurrent_overflow_accounts_for_every_record(void) {
    for (int r = 0; r < stress_rounds(); r++) race_to_overflow();
}

static CU_TestInfo sample_table_tests[] = {
    {"a bucket accumulates samples and weights", test_accumulates},
    {"untracked weight is kept per bucket", test_untracked_weight},
    {"a hint never misdirects a sample", test_record_hinted},
    {"a hint word carries its key's print", test_record_by_hint},
    {"distinct keys, distinct buckets", test_distinct_keys_distinct_buckets},
    {"full table returns 0 and counts drops", test_full_table_drops},
    {"8 threads, overlapping keys: totals exact", test_concurrent_totals_exact},
    {"8 threads overflow: every record accounted for", test_concurrent_overflow_accounts_for_every_record},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("sample_table", sample_table_tests); }
