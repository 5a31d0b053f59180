/* test_ptr_map.c: unit tests of the insert-only lock-free map (src/sampling/ptr_map.c).
 *
 * Single-threaded: put/get, put_if_absent keeps the first value, invalid arguments, a full
 * map, foreach. Concurrent: 8 threads race to insert the same keys; every key must end up
 * with exactly one value, the one every thread was told about. Worker threads only record
 * results; the main thread asserts (CUnit is not thread-safe). */
#include <stdint.h>
#include <stdlib.h>

#include "sampling/ptr_map.h"
#include "threads.h"
#include "unit.h"

/* Keys shaped like jmethodIDs: aligned, 8 bytes apart, in one region. */
static uintptr_t key_of(uint32_t i) { return (uintptr_t)0x7f3a12340000ULL + 8 * (uintptr_t)i; }

static int values[4096]; /* their addresses are the values */

static void test_put_get(void) {
    hs_ptr_map *map = hs_ptr_map_create(1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    for (uint32_t i = 0; i < 1000; i++)
        CU_ASSERT_PTR_EQUAL(hs_ptr_map_put_if_absent(map, key_of(i), &values[i]), &values[i]);
    CU_ASSERT_EQUAL(hs_ptr_map_size(map), 1000);
    for (uint32_t i = 0; i < 1000; i++) CU_ASSERT_PTR_EQUAL(hs_ptr_map_get(map, key_of(i)), &values[i]);
    CU_ASSERT_PTR_NULL(hs_ptr_map_get(map, key_of(1000)));
    CU_ASSERT_PTR_NULL(hs_ptr_map_get(map, 1));
    hs_ptr_map_destroy(map);
}

static void test_put_if_absent_keeps_first(void) {
    hs_ptr_map *map = hs_ptr_map_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    CU_ASSERT_PTR_EQUAL(hs_ptr_map_put_if_absent(map, 42, &values[1]), &values[1]);
    CU_ASSERT_PTR_EQUAL(hs_ptr_map_put_if_absent(map, 42, &values[2]), &values[1]);
    CU_ASSERT_PTR_EQUAL(hs_ptr_map_get(map, 42), &values[1]);
    CU_ASSERT_EQUAL(hs_ptr_map_size(map), 1);
    /* Key 0 and NULL values are not storable. */
    CU_ASSERT_PTR_NULL(hs_ptr_map_put_if_absent(map, 0, &values[3]));
    CU_ASSERT_PTR_NULL(hs_ptr_map_put_if_absent(map, 43, NULL));
    CU_ASSERT_PTR_NULL(hs_ptr_map_get(map, 0));
    CU_ASSERT_PTR_NULL(hs_ptr_map_get(map, 43));
    CU_ASSERT_EQUAL(hs_ptr_map_size(map), 1);
    hs_ptr_map_destroy(map);
    CU_ASSERT_PTR_NULL(hs_ptr_map_create(0));
}

static void test_full_map(void) {
    hs_ptr_map *map = hs_ptr_map_create(8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    for (uint32_t i = 0; i < 8; i++)
        CU_ASSERT_PTR_EQUAL(hs_ptr_map_put_if_absent(map, key_of(i), &values[i]), &values[i]);
    CU_ASSERT_PTR_NULL(hs_ptr_map_put_if_absent(map, key_of(8), &values[8]));
    CU_ASSERT_PTR_NULL(hs_ptr_map_get(map, key_of(8)));
    CU_ASSERT_EQUAL(hs_ptr_map_size(map), 8);
    /* Keys already in still answer, for get and put alike. */
    CU_ASSERT_PTR_EQUAL(hs_ptr_map_put_if_absent(map, key_of(3), &values[100]), &values[3]);
    for (uint32_t i = 0; i < 8; i++) CU_ASSERT_PTR_EQUAL(hs_ptr_map_get(map, key_of(i)), &values[i]);
    hs_ptr_map_destroy(map);
}

typedef struct {
    uint32_t seen[300];
    uint32_t calls;
    int wrong_value;
} walk;

static void visit(uintptr_t key, void *value, void *ctx) {
    walk *w = ctx;
    w->calls++;
    uint32_t i = (uint32_t)((key - key_of(0)) / 8);
    if (i >= 300 || value != &values[i]) {
        w->wrong_value++;
        return;
    }
    w->seen[i]++;
}

static void test_foreach_sees_all(void) {
    hs_ptr_map *map = hs_ptr_map_create(300);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    for (uint32_t i = 0; i < 300; i++) hs_ptr_map_put_if_absent(map, key_of(i), &values[i]);
    walk w = {{0}, 0, 0};
    hs_ptr_map_foreach(map, visit, &w);
    CU_ASSERT_EQUAL(w.calls, 300);
    CU_ASSERT_EQUAL(w.wrong_value, 0);
    for (uint32_t i = 0; i < 300; i++) CU_ASSERT_EQUAL(w.seen[i], 1);
    hs_ptr_map_destroy(map);
}

/* ---- concurrency ------------------------------------------------------------------ */

#define THREADS 8
#define RACE_KEYS 3000

typedef struct {
    hs_ptr_map *map;
    int id;
    uint32_t keys;             /* keys 0..keys-1, each thread in its own order */
    int offered[RACE_KEYS];    /* this thread's candidate values */
    void *returned[RACE_KEYS]; /* what put_if_absent answered */
} racer;

static void *race_to_insert(void *arg) {
    racer *r = arg;
    for (uint32_t n = 0; n < r->keys; n++) {
        /* Even threads go up, odd threads go down, from different starting points, so
         * most keys are contended by threads arriving from both directions. */
        uint32_t k = (r->id % 2 == 0) ? (n + (uint32_t)r->id * 101) % r->keys
                                      : (r->keys - 1 - n + (uint32_t)r->id * 37) % r->keys;
        r->returned[k] = hs_ptr_map_put_if_absent(r->map, key_of(k), &r->offered[k]);
    }
    return NULL;
}

static void run_racers(hs_ptr_map *map, racer *racers, uint32_t keys) {
    for (int t = 0; t < THREADS; t++) {
        racers[t].map = map;
        racers[t].id = t;
        racers[t].keys = keys;
    }
    run_threads(THREADS, race_to_insert, racers, sizeof *racers);
}

/* Index of the thread whose candidate v is for key k, or -1. */
static int offered_by(const racer *racers, uint32_t k, const void *v) {
    for (int t = 0; t < THREADS; t++)
        if (v == &racers[t].offered[k]) return t;
    return -1;
}

static void race_for_one_winner(void) {
    hs_ptr_map *map = hs_ptr_map_create(RACE_KEYS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    racer *racers = calloc(THREADS, sizeof *racers);
    run_racers(map, racers, RACE_KEYS);
    CU_ASSERT_EQUAL(hs_ptr_map_size(map), RACE_KEYS);
    int disagreements = 0, foreign = 0;
    int wins[THREADS] = {0};
    for (uint32_t k = 0; k < RACE_KEYS; k++) {
        void *winner = hs_ptr_map_get(map, key_of(k));
        int t = offered_by(racers, k, winner);
        if (t < 0) {
            foreign++;
            continue;
        }
        wins[t]++;
        for (int u = 0; u < THREADS; u++)
            if (racers[u].returned[k] != winner) disagreements++;
    }
    CU_ASSERT_EQUAL(foreign, 0);
    CU_ASSERT_EQUAL(disagreements, 0);
    int total = 0;
    for (int t = 0; t < THREADS; t++) total += wins[t];
    CU_ASSERT_EQUAL(total, RACE_KEYS);
    free(racers);
    hs_ptr_map_destroy(map);
}

static void race_to_fill(void) {
    /* Twice as many keys as room. The map fills up (threads racing for the last entries
     * may each overshoot by one key, never more), and whoever got an answer for a key got
     * the value the map holds. */
    const uint32_t capacity = RACE_KEYS / 2;
    hs_ptr_map *map = hs_ptr_map_create(capacity);
    CU_ASSERT_PTR_NOT_NULL_FATAL(map);
    racer *racers = calloc(THREADS, sizeof *racers);
    run_racers(map, racers, RACE_KEYS);
    uint32_t size = hs_ptr_map_size(map);
    CU_ASSERT(size >= capacity);
    CU_ASSERT(size <= capacity + THREADS - 1);
    uint32_t present = 0;
    int wrong = 0;
    for (uint32_t k = 0; k < RACE_KEYS; k++) {
        void *held = hs_ptr_map_get(map, key_of(k));
        if (held) present++;
        for (int t = 0; t < THREADS; t++)
            if (racers[t].returned[k] && racers[t].returned[k] != held) wrong++;
    }
    CU_ASSERT_EQUAL(present, size);
    CU_ASSERT_EQUAL(wrong, 0);
    /* Full now: a new key is refused. */
    CU_ASSERT_PTR_NULL(hs_ptr_map_put_if_absent(map, key_of(RACE_KEYS), &values[0]));
    free(racers);
    hs_ptr_map_destroy(map);
}

static void test_concurrent_same_keys_one_winner(void) {
    for (int r = 0; r < stress_rounds(); r++) race_for_one_winner();
}

static void test_concurrent_fill_to_capacity(void) {
    for (int r = 0; r < stress_rounds(); r++) race_to_fill();
}

static CU_TestInfo ptr_map_tests[] = {
    {"put and get", test_put_get},
    {"put_if_absent keeps the first value", test_put_if_absent_keeps_first},
    {"full map returns NULL", test_full_map},
    {"foreach sees every entry once", test_foreach_sees_all},
    {"8 threads, same keys: one winner per key", test_concurrent_same_keys_one_winner},
    {"8 threads fill the map to capacity", test_concurrent_fill_to_capacity},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("ptr_map", ptr_map_tests); }
