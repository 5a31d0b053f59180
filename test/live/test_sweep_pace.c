/* test_sweep_pace.c: when a GC wakes the sweeper at once and when it waits for the next
 * sweep (sweep_pace.h). */
#include "live/sweep_pace.h"
#include "unit.h"

#define MS INT64_C(1000000)

/* GCs a second apart: every one wakes the sweeper and is swept at once, as always. */
static void test_slow_gcs_are_swept_at_once(void) {
    hs_sweep_pace p;
    hs_sweep_pace_init(&p);
    for (int64_t t = 1000 * MS; t < 10000 * MS; t += 1000 * MS) {
        CU_ASSERT_TRUE(hs_sweep_pace_gc(&p, t, false));
        CU_ASSERT_EQUAL(hs_sweep_pace_wait_ms(&p, t), 0);
        hs_sweep_pace_begin(&p, t);
        /* nothing held: the sweeper sleeps its own poll */
        CU_ASSERT_EQUAL(hs_sweep_pace_sleep_ms(&p, t + MS, 700), 700);
    }
    CU_ASSERT_EQUAL(hs_sweep_pace_sweeps(&p), 9);
}

/* 25 GCs a second for 10 s: one sweep per 100 ms, each GC swept within 100 ms of its end.
 * Simulated as the sweeper would run: a GC wakes it when the pace says so, or it wakes when
 * the hold ends; either way it sweeps every GC seen so far. */
static void test_fast_gcs_share_a_sweep_every_100_ms(void) {
    hs_sweep_pace p;
    hs_sweep_pace_init(&p);
    int64_t wake_at = INT64_MAX; /* the sweeper's timed wake, if any */
    int64_t oldest_unswept = -1;
    int64_t worst_wait = 0;
    int gcs = 0;
    for (int64_t t = 40 * MS; t <= 10000 * MS; t += MS) {
        bool gc = t % (40 * MS) == 0;
        bool wake = false;
        if (gc) {
            gcs++;
            if (oldest_unswept < 0) oldest_unswept = t;
            wake = hs_sweep_pace_gc(&p, t, false);
        }
        if (t >= wake_at) wake = true;
        if (!wake) continue;
        wake_at = INT64_MAX;
        if (oldest_unswept >= 0 && hs_sweep_pace_wait_ms(&p, t) == 0) {
            if (t - oldest_unswept > worst_wait) worst_wait = t - oldest_unswept;
            hs_sweep_pace_begin(&p, t);
            oldest_unswept = -1;
            wake_at = t + hs_sweep_pace_sleep_ms(&p, t, 700) * MS;
        } else if (oldest_unswept >= 0) {
            wake_at = t + hs_sweep_pace_wait_ms(&p, t) * MS;
        } else {
            wake_at = t + hs_sweep_pace_sleep_ms(&p, t, 700) * MS;
        }
    }
    CU_ASSERT_EQUAL(gcs, 250);
    /* about one sweep per 100 ms (a sweep every 2.5 GCs), never fewer */
    CU_ASSERT_TRUE(hs_sweep_pace_sweeps(&p) >= 95 && hs_sweep_pace_sweeps(&p) <= 105);
    CU_ASSERT_TRUE(worst_wait <= HS_SWEEP_SPACING_NS);
}

/* A GC that completed a marking wakes the sweeper and is swept at once, held or not. */
static void test_a_marking_is_never_held(void) {
    hs_sweep_pace p;
    hs_sweep_pace_init(&p);
    hs_sweep_pace_begin(&p, 1000 * MS);
    hs_sweep_pace_begin(&p, 1040 * MS); /* fast: the next plain GCs are held till 1140 ms */
    CU_ASSERT_FALSE(hs_sweep_pace_gc(&p, 1080 * MS, false));
    CU_ASSERT_EQUAL(hs_sweep_pace_wait_ms(&p, 1080 * MS), 60);
    CU_ASSERT_EQUAL(hs_sweep_pace_wait_ms(&p, 1080 * MS + 1), 60); /* rounded up */
    CU_ASSERT_TRUE(hs_sweep_pace_gc(&p, 1090 * MS, true));
    CU_ASSERT_EQUAL(hs_sweep_pace_wait_ms(&p, 1090 * MS), 0);
    hs_sweep_pace_begin(&p, 1090 * MS); /* the urge is spent: plain GCs are held again */
    CU_ASSERT_FALSE(hs_sweep_pace_gc(&p, 1100 * MS, false));
    CU_ASSERT_TRUE(hs_sweep_pace_wait_ms(&p, 1100 * MS) > 0);
    /* a forced collection is swept at once too */
    hs_sweep_pace_urge(&p);
    CU_ASSERT_EQUAL(hs_sweep_pace_wait_ms(&p, 1100 * MS), 0);
}

/* With nothing to sweep during a hold the sweeper sleeps no longer than the hold (a GC
 * held meanwhile woke nobody), and its own poll once the hold is over. */
static void test_sleep_ends_with_the_hold(void) {
    hs_sweep_pace p;
    hs_sweep_pace_init(&p);
    hs_sweep_pace_begin(&p, 1000 * MS);
    hs_sweep_pace_begin(&p, 1050 * MS); /* held till 1150 ms */
    CU_ASSERT_EQUAL(hs_sweep_pace_sleep_ms(&p, 1060 * MS, 700), 90);
    CU_ASSERT_EQUAL(hs_sweep_pace_sleep_ms(&p, 1060 * MS + 1, 700), 90); /* rounded up */
    CU_ASSERT_EQUAL(hs_sweep_pace_sleep_ms(&p, 1060 * MS, 20), 20);     /* the poll is sooner */
    CU_ASSERT_EQUAL(hs_sweep_pace_sleep_ms(&p, 1150 * MS, 700), 700);
    CU_ASSERT_TRUE(hs_sweep_pace_gc(&p, 1150 * MS, false));
    /* after a quiet spell (the last sweep 200 ms or more before) nothing is held */
    hs_sweep_pace_begin(&p, 1400 * MS);
    CU_ASSERT_TRUE(hs_sweep_pace_gc(&p, 1410 * MS, false));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"slow GCs are swept at once", test_slow_gcs_are_swept_at_once},
        {"fast GCs share a sweep every 100 ms", test_fast_gcs_share_a_sweep_every_100_ms},
        {"a marking is never held", test_a_marking_is_never_held},
        {"sleep ends with the hold", test_sleep_ends_with_the_hold},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("sweep pace", tests);
}
