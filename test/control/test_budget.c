/* test_budget.c: unit tests of the memory budget split (src/control/budget.c).
 *
 * Every plan stays within memory= (tables plus the profile-building share), capacities
 * grow with the budget, track= is checked against half of it with a message that says
 * how to fix it, and live=false ignores track=. */
#include <stdint.h>
#include <string.h>

#include "control/budget.h"
#include "unit.h"

#define MiB (INT64_C(1) << 20)

static void test_plans_fit_the_budget(void) {
    const int64_t budgets[] = {4 * MiB, 16 * MiB, 64 * MiB, 1024 * MiB, INT64_C(64) << 30};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        hs_budget b;
        char err[512] = "";
        CU_ASSERT_EQUAL_FATAL(hs_budget_plan(budgets[i], 1024, true, &b, err, sizeof err), 0);
        CU_ASSERT(b.tables_bytes <= (size_t)budgets[i]);
        CU_ASSERT(b.tables_bytes + b.snapshot_bytes <= (size_t)budgets[i]);
        CU_ASSERT(b.snapshot_bytes >= (size_t)budgets[i] / 8); /* room to build a profile */
        CU_ASSERT(b.stacks >= 1024 && b.buckets >= 1024 && b.methods >= 1024 && b.classes >= 1024);
        CU_ASSERT(b.bucket_reserve > 0 && b.bucket_reserve < b.buckets);
        CU_ASSERT_EQUAL(b.live_bytes, hs_budget_live_bytes(1024));
    }
}

static void test_capacities_grow_with_the_budget(void) {
    hs_budget small, large;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(hs_budget_plan(16 * MiB, 65536, true, &small, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(hs_budget_plan(256 * MiB, 65536, true, &large, err, sizeof err), 0);
    CU_ASSERT(large.stacks > small.stacks);
    CU_ASSERT(large.frame_bytes > small.frame_bytes);
    CU_ASSERT(large.buckets > small.buckets);
    CU_ASSERT(large.methods > small.methods);
    CU_ASSERT(large.classes > small.classes);
    CU_ASSERT(large.symbol_bytes > small.symbol_bytes);
}

static void test_track_must_fit_half(void) {
    hs_budget b;
    char err[512] = "";
    /* 16M entries x 32 B = 512 MiB: more than half of 64m */
    CU_ASSERT_EQUAL(hs_budget_plan(64 * MiB, 16 * 1024 * 1024, true, &b, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err,
                           "bad option 'track=16777216': the live table would need 512 MiB, more "
                           "than half of memory=64m; accepted: track= up to 1048576 at this "
                           "memory= (or raise memory= to 1024m)");
    /* exactly half fits; the suggested memory= does too */
    CU_ASSERT_EQUAL(hs_budget_plan(64 * MiB, 1048576, true, &b, err, sizeof err), 0);
    CU_ASSERT_EQUAL(hs_budget_plan(1024 * MiB, 16 * 1024 * 1024, true, &b, err, sizeof err), 0);
    /* without live tracking the table is not allocated: track= does not count */
    CU_ASSERT_EQUAL(hs_budget_plan(64 * MiB, 16 * 1024 * 1024, false, &b, err, sizeof err), 0);
    CU_ASSERT_EQUAL(b.live_bytes, 0);
}

static void test_below_minimum_rejected(void) {
    hs_budget b;
    char err[512] = "";
    CU_ASSERT_EQUAL(hs_budget_plan(HS_BUDGET_MIN - 1, 1, true, &b, err, sizeof err), -1);
    CU_ASSERT(strlen(err) > 0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"plans fit the budget", test_plans_fit_the_budget},
        {"capacities grow with the budget", test_capacities_grow_with_the_budget},
        {"track must fit half", test_track_must_fit_half},
        {"below minimum rejected", test_below_minimum_rejected},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("budget", tests);
}
