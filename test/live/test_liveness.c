/* test_liveness.c: the ledger of complete markings (which samples are confirmed or
 * unjudged), the split of a site's values by liveness, and the counters' sanity check. */
#include "heap/gc_counters.h"
#include "live/liveness.h"
#include "unit.h"

static hs_liveness_state state(const hs_liveness *l) {
    hs_liveness_state s;
    hs_liveness_read(l, &s);
    return s;
}

/* Serial/Parallel: only a full collection judges; young ones leave the bound alone. */
static void test_full_gc_judges_everything_before_it(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_FULL_ONLY, true, 0, 0);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 1, 1, 0), HS_MARKING_NONE); /* young */
    CU_ASSERT_EQUAL(state(&l).judged_before, 0);
    CU_ASSERT_FALSE(hs_liveness_confirmed(&(hs_liveness_state){0}, 0));
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 2, 2, 1), HS_MARKING_FULL);
    hs_liveness_state s = state(&l);
    CU_ASSERT_EQUAL(s.judged_before, 2);
    CU_ASSERT_EQUAL(s.markings, 1);
    CU_ASSERT_EQUAL(s.last_epoch, 2);
    CU_ASSERT_EQUAL(s.last_kind, HS_MARKING_FULL);
    CU_ASSERT_TRUE(hs_liveness_confirmed(&s, 1));  /* born before the full GC */
    CU_ASSERT_FALSE(hs_liveness_confirmed(&s, 2)); /* born after it */
    /* An uncounted event means nothing for these collectors. */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 3, 2, 1), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 4, 3, 1), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(state(&l).judged_before, 2);
}

/* G1: young pauses move the total; the one uncounted event of a cycle ends it. */
static void test_g1_cycle_end_is_the_uncounted_event(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_G1, true, 5, 0);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 1, 6, 0), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 2, 7, 0), HS_MARKING_NONE); /* concurrent start */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 3, 7, 0), HS_MARKING_CONCURRENT); /* Remark */
    /* Judged: born before the second-to-last counted pause (1), not the Remark (3) nor the
     * last young pause (2): on JDK 25 that one would be the Remark itself. */
    CU_ASSERT_EQUAL(state(&l).judged_before, 1);
    /* A second uncounted event right after: the same cycle (a JDK posting both pauses). */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 4, 7, 0), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(state(&l).judged_before, 1);
    CU_ASSERT_EQUAL(state(&l).markings, 1);
    /* JDK 25's shape: the Remark counted, the Cleanup not. */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 5, 8, 0), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 6, 9, 0), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 7, 9, 0), HS_MARKING_CONCURRENT);
    hs_liveness_state s = state(&l);
    CU_ASSERT_EQUAL(s.judged_before, 5); /* the young pause before the counted Remark (6) */
    CU_ASSERT_FALSE(hs_liveness_confirmed(&s, 5)); /* allocated after it: never traced */
    CU_ASSERT_TRUE(hs_liveness_confirmed(&s, 4));
    CU_ASSERT_EQUAL(s.last_epoch, 7);
    CU_ASSERT_EQUAL(s.markings, 2);
    CU_ASSERT_EQUAL(s.last_kind, HS_MARKING_CONCURRENT);
    /* A G1 full GC moves both counts. */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 8, 10, 1), HS_MARKING_FULL);
    CU_ASSERT_EQUAL(state(&l).judged_before, 8);
}

static void test_unsupported_collectors_judge_only_forced_gcs(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_UNSUPPORTED, true, 0, 0);
    CU_ASSERT_FALSE(hs_liveness_supported(&l));
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 1, 1, 1), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 2, 1, 1), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(state(&l).markings, 0);
    hs_liveness_forced(&l, 2, 3); /* dump,gc=1: samples born before epoch 2 were judged */
    hs_liveness_state s = state(&l);
    CU_ASSERT_EQUAL(s.judged_before, 2);
    CU_ASSERT_EQUAL(s.last_epoch, 3);
    CU_ASSERT_EQUAL(s.last_kind, HS_MARKING_FORCED);
    /* Counters that could not be read: no collector is supported. */
    hs_liveness_init(&l, HS_LIVENESS_G1, false, 0, 0);
    CU_ASSERT_FALSE(hs_liveness_supported(&l));
}

/* A full count that moves alone is not the layout expected: the ledger gives up. */
static void test_inconsistent_counts_disable_it(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_G1, true, 3, 0);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 1, 3, 1), HS_MARKING_NONE);
    CU_ASSERT_FALSE(hs_liveness_supported(&l));
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 2, 4, 2), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(state(&l).judged_before, 0);
}

/* A later record with an earlier bound (a forced GC that waited behind a marking) never
 * takes judgement back. */
static void test_bound_never_goes_back(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_FULL_ONLY, true, 0, 0);
    hs_liveness_on_gc(&l, 9, 1, 1);
    hs_liveness_forced(&l, 4, 9);
    CU_ASSERT_EQUAL(state(&l).judged_before, 9);
    CU_ASSERT_EQUAL(state(&l).markings, 2);
}


/* HotSpot's VM_CollectForMetadataAllocation posts a start and a finish around the young
 * pause it runs (Metadata GC Threshold): the outer finish moves no count and is no Remark.
 * Class churn made every such pause a "marking" (issue 25). A pause standing alone still
 * is, and without start events every finish stands alone as before. */
static void test_wrapper_event_is_no_marking(void) {
    hs_liveness l;
    hs_liveness_init(&l, HS_LIVENESS_G1, true, 5, 0);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 1, 6, 0), HS_MARKING_NONE);
    hs_liveness_on_gc_start(&l); /* the VM operation */
    hs_liveness_on_gc_start(&l); /* its young pause */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 2, 7, 0), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 3, 7, 0), HS_MARKING_NONE); /* the wrapper */
    CU_ASSERT_EQUAL(state(&l).markings, 0);
    CU_ASSERT_EQUAL(state(&l).judged_before, 0);
    hs_liveness_on_gc_start(&l); /* a Remark: a pause of its own */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 4, 7, 0), HS_MARKING_CONCURRENT);
    CU_ASSERT_EQUAL(state(&l).judged_before, 1);
    hs_liveness_on_gc_start(&l); /* its Cleanup */
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 5, 7, 0), HS_MARKING_NONE);
    /* a wrapper around a full GC: the full GC judges, the wrapper adds nothing */
    hs_liveness_on_gc_start(&l);
    hs_liveness_on_gc_start(&l);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 6, 8, 1), HS_MARKING_FULL);
    CU_ASSERT_EQUAL(hs_liveness_on_gc(&l, 7, 8, 1), HS_MARKING_NONE);
    CU_ASSERT_EQUAL(state(&l).judged_before, 6);
    CU_ASSERT_EQUAL(state(&l).markings, 2);
}

static int64_t sum_of(const int64_t a[4], const int64_t b[4], int i) { return a[i] + b[i]; }

static void test_split_preserves_every_value(void) {
    const int64_t total[4] = {1000, 64000, 301, 19264};
    int64_t c[4], u[4];
    hs_liveness_split(total, 2.0, 1.0, c, u);
    for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(sum_of(c, u, i), total[i]);
    CU_ASSERT_EQUAL(c[2], 201); /* 2/3 of 301, largest remainder */
    CU_ASSERT_EQUAL(u[2], 100);
    CU_ASSERT_EQUAL(c[0], c[2]); /* the confirmed part's alloc mirrors its in-use */
    CU_ASSERT_EQUAL(c[1], c[3]);
    /* A site that died: everything stays with the unlabelled (unjudged) part. */
    const int64_t dead[4] = {50, 3200, 0, 0};
    hs_liveness_split(dead, 0, 0, c, u);
    CU_ASSERT_EQUAL(c[0] + c[1] + c[2] + c[3], 0);
    CU_ASSERT_EQUAL(u[0], 50);
    CU_ASSERT_EQUAL(u[1], 3200);
    /* In use above the allocation (a periodic profile): the confirmed alloc is capped. */
    const int64_t periodic[4] = {10, 640, 40, 2560};
    hs_liveness_split(periodic, 1.0, 0.0, c, u);
    CU_ASSERT_EQUAL(c[2], 40);
    CU_ASSERT_EQUAL(c[0], 10);
    CU_ASSERT_EQUAL(u[0], 0);
    CU_ASSERT_EQUAL(u[2], 0);
}

static void test_counters_plausibility(void) {
    CU_ASSERT_TRUE(hs_gc_counters_plausible(0, 0));
    CU_ASSERT_TRUE(hs_gc_counters_plausible(12, 3));
    CU_ASSERT_FALSE(hs_gc_counters_plausible(3, 12));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"full GC judges everything before it", test_full_gc_judges_everything_before_it},
        {"G1 cycle end is the uncounted event", test_g1_cycle_end_is_the_uncounted_event},
        {"a wrapper event is no marking", test_wrapper_event_is_no_marking},
        {"unsupported collectors judge only forced GCs", test_unsupported_collectors_judge_only_forced_gcs},
        {"inconsistent counts disable it", test_inconsistent_counts_disable_it},
        {"bound never goes back", test_bound_never_goes_back},
        {"split preserves every value", test_split_preserves_every_value},
        {"counters plausibility", test_counters_plausibility},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("liveness", tests);
}
