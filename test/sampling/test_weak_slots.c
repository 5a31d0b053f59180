/* test_weak_slots.c: the grace period of weak_slots.c's reclaimer, which runs on application
 * threads inside their allocation: with a reader still inside the old epoch it must not
 * wait (no yield, no spin: the slots stay DEAD, their refs undeleted), and a later reclaim,
 * once the reader left, finishes them. sched_yield is interposed here to count the yields
 * (the library's calls resolve to this definition in the test executable). */
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "sampling/weak_slots.h"
#include "unit.h"

static atomic_int yields;

int sched_yield(void) {
    atomic_fetch_add(&yields, 1);
    return 0;
}

/* A fake ref is the address of its object's `collected` flag. */
typedef struct {
    int deletes;
} ref_env;

static bool fake_cleared(void *ctx, jweak ref) {
    (void)ctx;
    return *(bool *)ref;
}

static void fake_delete(void *ctx, jweak ref) {
    (void)ref;
    ((ref_env *)ctx)->deletes++;
}

static void test_reclaim_never_waits_for_readers(void) {
    hs_weak_slots *t = hs_weak_slots_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    ref_env env = {0};
    hs_weak_ref_ops ops = {.cleared = fake_cleared, .delete_ref = fake_delete};
    bool collected[4] = {false, false, false, false};
    for (uint64_t key = 1; key <= 4; key++) {
        uintptr_t value = 0;
        hs_weak_slot *slot = NULL;
        CU_ASSERT_EQUAL_FATAL(hs_weak_slots_lookup(t, key, NULL, NULL, &value, &slot),
                              HS_WEAK_CLAIMED);
        hs_weak_slots_publish(t, slot, key, (jweak)&collected[key - 1], key * 10);
    }
    CU_ASSERT_EQUAL(hs_weak_slots_resident(t), 4);
    collected[1] = collected[3] = true; /* two classes unloaded */

    /* A reader inside, as another thread translating frames would be. */
    hs_weak_reader reader = hs_weak_slots_enter(t);
    atomic_store(&yields, 0);
    for (int i = 0; i < 4; i++) hs_weak_slots_reclaim_some(t, &ops, &env);
    CU_ASSERT_EQUAL(atomic_load(&yields), 0); /* never waited */
    CU_ASSERT_EQUAL(env.deletes, 0);          /* the reader may still read those refs */
    CU_ASSERT_EQUAL(hs_weak_slots_reclaimed(t), 0);
    uintptr_t value = 0;
    CU_ASSERT_FALSE(hs_weak_slots_find(t, 2, NULL, NULL, &value, NULL)); /* DEAD: not found */
    CU_ASSERT_TRUE(hs_weak_slots_find(t, 3, NULL, NULL, &value, NULL));
    CU_ASSERT_EQUAL(value, 30);
    hs_weak_slots_leave(reader);

    /* The reader left: the next reclaim deletes the refs and frees the slots. */
    hs_weak_slots_reclaim_some(t, &ops, &env);
    CU_ASSERT_EQUAL(env.deletes, 2);
    CU_ASSERT_EQUAL(hs_weak_slots_reclaimed(t), 2);
    CU_ASSERT_EQUAL(hs_weak_slots_resident(t), 2);
    CU_ASSERT_EQUAL(atomic_load(&yields), 0);
    hs_weak_slots_destroy(t, &ops, &env);
    CU_ASSERT_EQUAL(env.deletes, 4); /* the two live ones at destroy */
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"a reclaim never waits for readers", test_reclaim_never_waits_for_readers},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("weak_slots", tests);
}
