/* test_thread_names.c: interning of thread names for the "thread" label. */
#include <stdio.h>
#include <string.h>

#include "sampling/thread_names.h"
#include "threads.h"
#include "unit.h"

static void test_equal_names_share_an_id(void) {
    hs_thread_names *t = hs_thread_names_create(8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    uint32_t main_id = hs_thread_names_intern(t, "main");
    uint32_t worker = hs_thread_names_intern(t, "pool-1-thread-1");
    CU_ASSERT_NOT_EQUAL(main_id, 0);
    CU_ASSERT_NOT_EQUAL(worker, 0);
    CU_ASSERT_NOT_EQUAL(main_id, worker);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "main"), main_id);
    CU_ASSERT_STRING_EQUAL(hs_thread_names_get(t, main_id), "main");
    CU_ASSERT_STRING_EQUAL(hs_thread_names_get(t, worker), "pool-1-thread-1");
    CU_ASSERT_PTR_NULL(hs_thread_names_get(t, 0));
    CU_ASSERT_PTR_NULL(hs_thread_names_get(t, 7));
    hs_thread_names_destroy(t);
}

static void test_full_table_returns_zero(void) {
    hs_thread_names *t = hs_thread_names_create(3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(hs_thread_names_get(t, HS_THREAD_UNKNOWN_ID), HS_THREAD_NAME_UNKNOWN);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "a"), 2);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "b"), 3);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "c"), 0);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "d"), 0);
    CU_ASSERT_EQUAL(hs_thread_names_intern(t, "a"), 2); /* known names still found */
    hs_thread_names_destroy(t);
}

enum { RACERS = 8, NAMES = 64 };

typedef struct {
    hs_thread_names *table;
    uint32_t ids[NAMES];
} racer;

static void *intern_all(void *arg) {
    racer *r = arg;
    char name[32];
    for (int i = 0; i < NAMES; i++) {
        snprintf(name, sizeof name, "worker-%d", i);
        r->ids[i] = hs_thread_names_intern(r->table, name);
    }
    return NULL;
}

/* Threads interning the same names at once: every id maps back to the right name. */
static void test_concurrent_interning(void) {
    for (int round = 0; round < stress_rounds(); round++) {
        hs_thread_names *t = hs_thread_names_create(RACERS * NAMES + 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        racer racers[RACERS];
        for (int i = 0; i < RACERS; i++) racers[i].table = t;
        run_threads(RACERS, intern_all, racers, sizeof racers[0]);
        int ok = 1;
        char name[32];
        for (int i = 0; i < RACERS; i++)
            for (int n = 0; n < NAMES; n++) {
                snprintf(name, sizeof name, "worker-%d", n);
                const char *got = hs_thread_names_get(t, racers[i].ids[n]);
                if (!got || strcmp(got, name) != 0) ok = 0;
            }
        CU_ASSERT(ok);
        hs_thread_names_destroy(t);
    }
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"equal names share an id", test_equal_names_share_an_id},
        {"full table returns 0", test_full_table_returns_zero},
        {"concurrent interning", test_concurrent_interning},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("thread_names", tests);
}
