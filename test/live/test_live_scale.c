/* test_live_scale.c: live-heap scaling modes and sum-preserving rounding. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "live/live_scale.h"
#include "unit.h"

static const hs_live_estimate three[] = {{100, 1}, {300, 3}, {600, 6}};

static void check_amount(const hs_live_amount *a, int64_t bytes, int64_t objects) {
    CU_ASSERT_EQUAL(a->bytes, bytes);
    CU_ASSERT_EQUAL(a->objects, objects);
}

/* out holds the estimates of three, each multiplied by factor. */
static void check_three_times(const hs_live_amount *out, int64_t factor) {
    for (int i = 0; i < 3; i++)
        check_amount(&out[i], (int64_t)three[i].bytes * factor, (int64_t)three[i].objects * factor);
}

/* three is reported as estimated: the buckets and the total bytes unscaled. */
static void check_three_unscaled(const hs_live_amount *out, const hs_live_scale_summary *s) {
    check_three_times(out, 1);
    CU_ASSERT_DOUBLE_EQUAL(s->factor, 1.0, 0);
    CU_ASSERT_EQUAL(s->total_bytes, 1000);
}

static void test_proportional_scales_to_heap(void) {
    hs_live_amount out[3];
    hs_live_scale_summary s;
    hs_live_scale_apply(three, 3, 2000, HS_SCALE_PROPORTIONAL, out, &s);
    check_three_times(out, 2);
    CU_ASSERT_TRUE(s.heap_known);
    CU_ASSERT_DOUBLE_EQUAL(s.factor, 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.raw_bytes, 1000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.raw_objects, 10.0, 1e-9);
    CU_ASSERT_EQUAL(s.total_bytes, 2000);
    CU_ASSERT_EQUAL(s.total_objects, 20);
    CU_ASSERT_EQUAL(s.residual_bytes, 0);
}

static void test_residual_keeps_estimates(void) {
    hs_live_amount out[3];
    hs_live_scale_summary s;
    hs_live_scale_apply(three, 3, 2000, HS_SCALE_RESIDUAL, out, &s);
    check_three_unscaled(out, &s);
    CU_ASSERT_EQUAL(s.total_objects, 10);
    CU_ASSERT_EQUAL(s.residual_bytes, 1000);
}

static void test_heap_unknown_reports_unscaled(void) {
    hs_live_scale modes[] = {HS_SCALE_RESIDUAL, HS_SCALE_PROPORTIONAL};
    for (int m = 0; m < 2; m++) {
        hs_live_amount out[3];
        hs_live_scale_summary s;
        hs_live_scale_apply(three, 3, 0, modes[m], out, &s);
        check_three_unscaled(out, &s);
        CU_ASSERT_FALSE(s.heap_known);
        CU_ASSERT_EQUAL(s.residual_bytes, 0);
    }
}

static void test_heap_smaller_than_estimates(void) {
    hs_live_amount out[3];
    hs_live_scale_summary s;
    hs_live_scale_apply(three, 3, 500, HS_SCALE_RESIDUAL, out, &s);
    check_amount(&out[2], 600, 6);
    CU_ASSERT_EQUAL(s.total_bytes, 1000);
    CU_ASSERT_EQUAL(s.residual_bytes, 0);

    hs_live_scale_apply(three, 3, 500, HS_SCALE_PROPORTIONAL, out, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.factor, 0.5, 1e-12);
    check_amount(&out[0], 50, 1); /* 0.5 object: the cumulative rounding rounds 0.5 up */
    check_amount(&out[1], 150, 1);
    check_amount(&out[2], 300, 3);
    CU_ASSERT_EQUAL(s.total_bytes, 500);
    CU_ASSERT_EQUAL(s.total_objects, 5);
    CU_ASSERT_EQUAL(s.residual_bytes, 0);
}

static void test_no_live_samples(void) {
    hs_live_estimate zeros[2] = {{0, 0}, {0, 0}};
    hs_live_amount out[2] = {{7, 7}, {7, 7}};
    hs_live_scale_summary s;

    /* Proportional has nothing to spread the heap over: it all goes to the residual. */
    hs_live_scale_apply(zeros, 2, 4096, HS_SCALE_PROPORTIONAL, out, &s);
    check_amount(&out[0], 0, 0);
    check_amount(&out[1], 0, 0);
    CU_ASSERT_TRUE(isfinite(s.factor));
    CU_ASSERT_EQUAL(s.total_bytes, 0);
    CU_ASSERT_EQUAL(s.total_objects, 0);
    CU_ASSERT_EQUAL(s.residual_bytes, 4096);

    hs_live_scale_apply(zeros, 2, 4096, HS_SCALE_RESIDUAL, out, &s);
    check_amount(&out[1], 0, 0);
    CU_ASSERT_EQUAL(s.residual_bytes, 4096);

    hs_live_scale_apply(NULL, 0, 4096, HS_SCALE_PROPORTIONAL, NULL, &s);
    CU_ASSERT_EQUAL(s.total_bytes, 0);
    CU_ASSERT_EQUAL(s.residual_bytes, 4096);
    CU_ASSERT_TRUE(isfinite(s.factor));

    hs_live_scale_apply(zeros, 2, 0, HS_SCALE_PROPORTIONAL, out, &s);
    CU_ASSERT_EQUAL(s.total_bytes, 0);
    CU_ASSERT_EQUAL(s.residual_bytes, 0);
}

static void test_bad_values_count_as_zero(void) {
    hs_live_estimate odd[] = {{-50, -1}, {NAN, NAN}, {INFINITY, INFINITY}, {100, 2}};
    hs_live_amount out[4];
    hs_live_scale_summary s;
    hs_live_scale_apply(odd, 4, 300, HS_SCALE_PROPORTIONAL, out, &s);
    check_amount(&out[0], 0, 0);
    check_amount(&out[1], 0, 0);
    check_amount(&out[2], 0, 0);
    check_amount(&out[3], 300, 6);
    CU_ASSERT_DOUBLE_EQUAL(s.raw_bytes, 100.0, 0);
}

/* Three equal thirds of 1000: plain rounding would report 999. */
static void test_rounding_thirds(void) {
    hs_live_estimate thirds[] = {{1, 1}, {1, 1}, {1, 1}};
    hs_live_amount out[3];
    hs_live_scale_summary s;
    hs_live_scale_apply(thirds, 3, 1000, HS_SCALE_PROPORTIONAL, out, &s);
    CU_ASSERT_EQUAL(out[0].bytes + out[1].bytes + out[2].bytes, 1000);
    for (int i = 0; i < 3; i++) CU_ASSERT_TRUE(out[i].bytes == 333 || out[i].bytes == 334);
    CU_ASSERT_EQUAL(out[0].objects + out[1].objects + out[2].objects, 1000);
}

/* Many random fractional buckets: totals exact, every bucket within 1 of its share. */
static void test_rounding_preserves_totals(void) {
    enum { N = 5000 };
    static hs_live_estimate in[N];
    static hs_live_amount out[N];
    srand(12345);
    double raw = 0, raw_objects = 0;
    for (int i = 0; i < N; i++) {
        in[i].bytes = (rand() % 3 == 0) ? 0 : rand() / (double)RAND_MAX * 1e6;
        in[i].objects = in[i].bytes / 24.0;
        raw += in[i].bytes;
        raw_objects += in[i].objects;
    }
    uint64_t heaps[] = {12345678901ull, 1000, 3};
    for (int h = 0; h < 3; h++) {
        hs_live_scale_summary s;
        hs_live_scale_apply(in, N, heaps[h], HS_SCALE_PROPORTIONAL, out, &s);
        int64_t sum = 0, sum_objects = 0, worst = 0;
        for (int i = 0; i < N; i++) {
            CU_ASSERT_TRUE(out[i].bytes >= 0 && out[i].objects >= 0);
            double exact = in[i].bytes * (double)heaps[h] / raw;
            if (fabs(out[i].bytes - exact) >= 1.0) worst++;
            sum += out[i].bytes;
            sum_objects += out[i].objects;
        }
        CU_ASSERT_EQUAL(worst, 0);
        CU_ASSERT_EQUAL(sum, (int64_t)heaps[h]);
        CU_ASSERT_EQUAL(s.total_bytes, (int64_t)heaps[h]);
        CU_ASSERT_EQUAL(sum_objects, s.total_objects);
        CU_ASSERT_EQUAL(s.total_objects, llround(raw_objects * heaps[h] / raw));
        CU_ASSERT_EQUAL(s.residual_bytes, 0);
    }

    hs_live_scale_summary s;
    uint64_t heap = 5000000000ull; /* more than raw (about 3.3e9) */
    hs_live_scale_apply(in, N, heap, HS_SCALE_RESIDUAL, out, &s);
    int64_t sum = 0;
    for (int i = 0; i < N; i++) {
        CU_ASSERT_TRUE(fabs(out[i].bytes - in[i].bytes) < 1.0);
        sum += out[i].bytes;
    }
    CU_ASSERT_EQUAL(sum, llround(raw));
    CU_ASSERT_EQUAL(sum, s.total_bytes);
    CU_ASSERT_EQUAL(s.total_bytes + s.residual_bytes, (int64_t)heap);
}

/* The cases seen in real profiles: [1 2097168 1 2097169], [3 78460 4 78460]. */
static void test_cap_to_alloc(void) {
    const hs_live_estimate est[] = {{2097168.6, 1.0}, {78460, 3.6}, {50, 1}};
    const hs_live_amount alloc[] = {{2097168, 1}, {78460, 3}, {100, 2}};
    hs_live_amount out[3];
    hs_live_scale_summary s;
    hs_live_scale_apply(est, 3, 3000000, HS_SCALE_RESIDUAL, out, &s);
    int64_t heap_total = s.total_bytes + s.residual_bytes;
    CU_ASSERT_EQUAL(out[0].bytes, 2097169); /* rounding alone went over */
    CU_ASSERT_EQUAL(out[1].objects, 4);
    hs_live_cap_to_alloc(out, alloc, 3, &s);
    check_amount(&out[0], 2097168, 1);
    check_amount(&out[1], 78460, 3);
    check_amount(&out[2], 50, 1); /* under its allocation: untouched */
    CU_ASSERT_EQUAL(s.total_bytes + s.residual_bytes, heap_total);
    CU_ASSERT_EQUAL(s.total_bytes, out[0].bytes + out[1].bytes + out[2].bytes);
    CU_ASSERT_EQUAL(s.total_objects, 5);

    /* heap unknown: no residual pseudo-site appears; the excess is dropped */
    hs_live_scale_apply(est, 3, 0, HS_SCALE_RESIDUAL, out, &s);
    hs_live_cap_to_alloc(out, alloc, 3, &s);
    check_amount(&out[0], 2097168, 1);
    CU_ASSERT_EQUAL(s.residual_bytes, 0);
    CU_ASSERT_EQUAL(s.total_bytes, out[0].bytes + out[1].bytes + out[2].bytes);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"proportional scales to the heap", test_proportional_scales_to_heap},
        {"residual keeps estimates", test_residual_keeps_estimates},
        {"heap unknown reports unscaled", test_heap_unknown_reports_unscaled},
        {"heap smaller than estimates", test_heap_smaller_than_estimates},
        {"no live samples", test_no_live_samples},
        {"bad values count as zero", test_bad_values_count_as_zero},
        {"rounding thirds", test_rounding_thirds},
        {"rounding preserves totals", test_rounding_preserves_totals},
        {"in-use capped at allocation", test_cap_to_alloc},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("live_scale", tests);
}
