/* test_oom_episode.c: one OutOfMemoryError profile per episode (oom_episode.c). */
#include <stdint.h>

#include "control/oom_episode.h"
#include "unit.h"

#define MB (UINT64_C(1) << 20)

static void test_first_exhaustion_is_dumped(void) {
    hs_oom_episode e = {0};
    CU_ASSERT_TRUE(hs_oom_episode_exhausted(&e, true, 10 * MB, 60 * MB));
    CU_ASSERT_EQUAL(e.dumps, 1);
}

static void test_retry_loop_without_recovery_dumps_once(void) {
    hs_oom_episode e = {0};
    CU_ASSERT_TRUE(hs_oom_episode_exhausted(&e, true, 10 * MB, 60 * MB));
    /* catch-and-retry: the heap stays full, 10,000 errors */
    for (int i = 0; i < 10000; i++)
        CU_ASSERT_FALSE(hs_oom_episode_exhausted(&e, i % 2 == 0, 58 * MB, 60 * MB));
    CU_ASSERT_EQUAL(e.dumps, 1);
}

static void test_recovery_opens_a_new_episode(void) {
    hs_oom_episode e = {0};
    CU_ASSERT_TRUE(hs_oom_episode_exhausted(&e, true, 10 * MB, 60 * MB));
    CU_ASSERT_FALSE(hs_oom_episode_exhausted(&e, true, 31 * MB, 60 * MB)); /* above half */
    CU_ASSERT_TRUE(hs_oom_episode_exhausted(&e, true, 30 * MB, 62 * MB));  /* half: recovered */
    CU_ASSERT_EQUAL(e.dumps, 2);
    CU_ASSERT_EQUAL(e.used_at_dump, 62 * MB);
    /* a low figure that is not valid (no GC since) does not count */
    CU_ASSERT_FALSE(hs_oom_episode_exhausted(&e, false, 0, 62 * MB));
}

static void test_hard_cap(void) {
    hs_oom_episode e = {0};
    int dumped = 0;
    for (int i = 0; i < 100; i++) dumped += hs_oom_episode_exhausted(&e, true, 1 * MB, 60 * MB);
    CU_ASSERT_EQUAL(dumped, HS_OOM_MAX_DUMPS);
    CU_ASSERT_EQUAL(e.dumps, HS_OOM_MAX_DUMPS);
}

static void test_unknown_heap_dumps_once(void) {
    hs_oom_episode e = {0};
    CU_ASSERT_TRUE(hs_oom_episode_exhausted(&e, false, 0, 0));
    for (int i = 0; i < 100; i++) CU_ASSERT_FALSE(hs_oom_episode_exhausted(&e, true, 0, 0));
    CU_ASSERT_EQUAL(e.dumps, 1);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"first exhaustion is dumped", test_first_exhaustion_is_dumped},
        {"retry loop without recovery dumps once", test_retry_loop_without_recovery_dumps_once},
        {"recovery opens a new episode", test_recovery_opens_a_new_episode},
        {"hard cap", test_hard_cap},
        {"unknown heap figure: one profile", test_unknown_heap_dumps_once},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("oom episodes", tests);
}
