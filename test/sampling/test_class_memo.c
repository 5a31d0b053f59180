/* test_class_memo.c: unit tests of the quiet stretches between collections
 * (src/sampling/gc_bracket.c) and of the per-thread memo of class ids by address
 * (include/sampling/class_memo.h).
 *
 * Checked: the bracket is quiet only when armed and no collection is open; arming takes
 * effect at the next finish (a collection may be under way, its start uncounted); nested
 * collections (G1's Metadata GC pause around a young pause) keep it shut until the last
 * finish; every collection gives a new stretch; disarming shuts it; and two threads reading
 * it while another opens and closes collections never see one stretch on both sides of a
 * collection. The shared memo answers an address only within the stretch it was kept in,
 * a class evicted from its entry is only a miss, never another's id, and threads keeping
 * and finding colliding addresses at once never read a torn entry. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/class_memo.h"
#include "sampling/gc_bracket.h"
#include "unit.h"

static void test_quiet_only_when_armed_and_closed(void) {
    hs_gc_bracket b = {0};
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0); /* not armed */
    hs_gc_bracket_open(&b);
    hs_gc_bracket_close(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0); /* events without arming: still not */
    hs_gc_bracket_arm(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0); /* armed only from the next finish */
    hs_gc_bracket_close(&b);                      /* a collection whose start nobody counted */
    uint64_t first = hs_gc_bracket_quiet(&b);
    CU_ASSERT_NOT_EQUAL(first, 0);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), first); /* no event: the same stretch */
    hs_gc_bracket_open(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0); /* a collection open: objects may move */
    hs_gc_bracket_close(&b);
    uint64_t second = hs_gc_bracket_quiet(&b);
    CU_ASSERT_NOT_EQUAL(second, 0);
    CU_ASSERT_NOT_EQUAL(second, first);
    hs_gc_bracket_disarm(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0);
}

/* G1's Metadata GC Threshold pause posts a start and a finish around its young pause's own:
 * shut until the outer finish. */
static void test_nested_collections_stay_shut(void) {
    hs_gc_bracket b = {0};
    hs_gc_bracket_arm(&b);
    hs_gc_bracket_close(&b);
    uint64_t before = hs_gc_bracket_quiet(&b);
    hs_gc_bracket_open(&b); /* the wrapper */
    hs_gc_bracket_open(&b); /* the young pause */
    hs_gc_bracket_close(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0);
    hs_gc_bracket_close(&b);
    uint64_t after = hs_gc_bracket_quiet(&b);
    CU_ASSERT_NOT_EQUAL(after, 0);
    CU_ASSERT_NOT_EQUAL(after, before);
}

/* Armed while a collection is open with its start counted (the event enabled just before
 * it): arming still waits for the finish, and the count of open ones drops to zero. */
static void test_arming_during_a_counted_collection(void) {
    hs_gc_bracket b = {0};
    hs_gc_bracket_open(&b);
    hs_gc_bracket_arm(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0);
    hs_gc_bracket_close(&b);
    CU_ASSERT_NOT_EQUAL(hs_gc_bracket_quiet(&b), 0);
}

/* A finish with no start counted (the start event disabled again) never opens the count
 * below zero: the next start still shuts the bracket. */
static void test_unmatched_finish_does_not_underflow(void) {
    hs_gc_bracket b = {0};
    hs_gc_bracket_arm(&b);
    hs_gc_bracket_close(&b);
    hs_gc_bracket_close(&b);
    hs_gc_bracket_close(&b);
    CU_ASSERT_NOT_EQUAL(hs_gc_bracket_quiet(&b), 0);
    hs_gc_bracket_open(&b);
    CU_ASSERT_EQUAL(hs_gc_bracket_quiet(&b), 0);
}

static hs_class_memo *new_memo(void) {
    hs_class_memo *m = calloc(1, sizeof *m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static void test_memo_answers_within_its_stretch(void) {
    hs_class_memo *m = new_memo();
    uintptr_t point = 0x7f0000001000, node = 0x7f0000001238;
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 5, point), 0);
    hs_class_memo_keep(m, 5, point, 17);
    hs_class_memo_keep(m, 5, node, 18);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 5, point), 17);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 5, node), 18);
    /* another stretch: a collection may have moved another class to this address */
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 6, node), 0);
    hs_class_memo_keep(m, 6, 0x7f0000002000, 19);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 6, node), 0);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 6, 0x7f0000002000), 19);
    hs_class_memo_keep(m, 0, point, 20); /* no stretch, no id: nothing kept */
    hs_class_memo_keep(m, 6, point, 0);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 0, point), 0);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 6, point), 0);
    free(m);
}

/* Many addresses through few entries: every answer is the id kept for that very address. */
static void test_memo_never_answers_another_address(void) {
    hs_class_memo *m = new_memo();
    unsigned hits = 0;
    for (uint32_t round = 0; round < 4; round++)
        for (uint32_t i = 1; i <= 2000; i++) {
            uintptr_t address = 0x600000000 + (uintptr_t)i * 456;
            uint32_t id = hs_class_memo_find(m, 1, address);
            if (id != 0) {
                CU_ASSERT_EQUAL(id, i + 1);
                hits++;
            }
            hs_class_memo_keep(m, 1, address, i + 1);
        }
    CU_ASSERT(hits < 4 * 2000); /* 2,000 addresses cannot all stay in 256 entries */
    free(m);
}

/* Addresses of one pair of entries, found by search. */
static unsigned same_pair(uintptr_t *out, unsigned want) {
    unsigned n = 0;
    unsigned pair = hs_class_memo_index(0x600001000) >> 1;
    for (uintptr_t a = 0x600001000; n < want && a < 0x600001000 + 8 * 1000000; a += 8)
        if (hs_class_memo_index(a) >> 1 == pair) out[n++] = a;
    return n;
}

/* Two classes whose addresses hash to the same pair both stay (a single entry would have
 * them evict each other at every alternation); a third takes one of their places; an entry
 * of an older stretch is taken like an empty one. */
static void test_memo_pairs_keep_two_alike(void) {
    hs_class_memo *m = new_memo();
    uintptr_t a[3];
    CU_ASSERT_EQUAL_FATAL(same_pair(a, 3), 3);
    hs_class_memo_keep(m, 1, a[0], 10);
    hs_class_memo_keep(m, 1, a[1], 11);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 1, a[0]), 10);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 1, a[1]), 11);
    hs_class_memo_keep(m, 1, a[2], 12);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 1, a[2]), 12);
    CU_ASSERT((hs_class_memo_find(m, 1, a[0]) != 0) + (hs_class_memo_find(m, 1, a[1]) != 0) == 1);
    hs_class_memo_keep(m, 2, a[0], 13); /* a new stretch: both entries are free again */
    hs_class_memo_keep(m, 2, a[1], 14);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 2, a[0]), 13);
    CU_ASSERT_EQUAL(hs_class_memo_find(m, 2, a[1]), 14);
    free(m);
}

/* Threads keeping and finding the same few colliding addresses at once, across stretches:
 * a find never returns an id that was not kept for that address in that stretch (a read
 * overlapping a write is a miss, never a torn entry). */
typedef struct {
    hs_class_memo *memo;
    uintptr_t addresses[6];
    atomic_uint wrong, found;
} memo_race;

static uint32_t id_of(uintptr_t address, uint64_t stretch) {
    return (uint32_t)((address >> 3) ^ (stretch * 7919)) | 2u;
}

static void *memo_worker(void *arg) {
    memo_race *r = arg;
    for (uint32_t i = 0; i < 1000000; i++) {
        uint64_t stretch = 1 + (i >> 12); /* a new stretch every 4,096 rounds */
        uintptr_t address = r->addresses[(i * 5 + (i >> 3)) % 6];
        uint32_t id = hs_class_memo_find(r->memo, stretch, address);
        if (id != 0) {
            atomic_fetch_add(&r->found, 1);
            if (id != id_of(address, stretch)) atomic_fetch_add(&r->wrong, 1);
        } else {
            hs_class_memo_keep(r->memo, stretch, address, id_of(address, stretch));
        }
    }
    return NULL;
}

static void test_memo_concurrent_never_torn(void) {
    memo_race r = {.memo = new_memo()};
    CU_ASSERT_EQUAL_FATAL(same_pair(r.addresses, 6), 6); /* all six fight over two entries */
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) pthread_create(&threads[i], NULL, memo_worker, &r);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    CU_ASSERT_EQUAL(atomic_load(&r.wrong), 0);
    CU_ASSERT(atomic_load(&r.found) > 0);
    free(r.memo);
}

/* Readers as the memo's user reads: a stretch, then (the address), then the stretch again;
 * a pair of equal readings must never span a collection the writer opened. The writer
 * publishes, inside each open collection, a counter of collections begun. */
typedef struct {
    hs_gc_bracket bracket;
    atomic_uint collections;
    atomic_bool stop;
    atomic_uint violations;
    atomic_uint quiet_pairs;
} race;

static void *collector(void *arg) {
    race *r = arg;
    for (int i = 0; i < 200000; i++) {
        hs_gc_bracket_open(&r->bracket);
        atomic_fetch_add(&r->collections, 1);
        hs_gc_bracket_close(&r->bracket);
    }
    atomic_store(&r->stop, true);
    return NULL;
}

static void *reader(void *arg) {
    race *r = arg;
    while (!atomic_load(&r->stop)) {
        uint64_t s1 = hs_gc_bracket_quiet(&r->bracket);
        unsigned seen = atomic_load(&r->collections);
        uint64_t s2 = hs_gc_bracket_quiet(&r->bracket);
        unsigned after = atomic_load(&r->collections);
        if (s1 != 0 && s1 == s2) {
            atomic_fetch_add(&r->quiet_pairs, 1);
            /* the collection count read between two equal quiet readings is final for that
             * stretch: a collection begun after the first reading ends it */
            if (hs_gc_bracket_quiet(&r->bracket) == s1 && after != seen)
                atomic_fetch_add(&r->violations, 1);
        }
    }
    return NULL;
}

static void test_readers_never_span_a_collection(void) {
    race r;
    memset(&r, 0, sizeof r);
    hs_gc_bracket_arm(&r.bracket);
    hs_gc_bracket_close(&r.bracket);
    pthread_t w, readers[2];
    for (int i = 0; i < 2; i++) pthread_create(&readers[i], NULL, reader, &r);
    pthread_create(&w, NULL, collector, &r);
    pthread_join(w, NULL);
    for (int i = 0; i < 2; i++) pthread_join(readers[i], NULL);
    CU_ASSERT_EQUAL(atomic_load(&r.violations), 0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"quiet only when armed and no collection open", test_quiet_only_when_armed_and_closed},
        {"nested collections keep it shut", test_nested_collections_stay_shut},
        {"arming during a counted collection", test_arming_during_a_counted_collection},
        {"an unmatched finish does not underflow", test_unmatched_finish_does_not_underflow},
        {"the memo answers within its stretch", test_memo_answers_within_its_stretch},
        {"the memo never answers another address", test_memo_never_answers_another_address},
        {"a pair of entries keeps two alike", test_memo_pairs_keep_two_alike},
        {"concurrent keeps and finds are never torn", test_memo_concurrent_never_torn},
        {"readers never span a collection", test_readers_never_span_a_collection},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("class memo", tests);
}
