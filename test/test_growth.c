/* test_growth.c: growth records, ranking, and the calibration of the error bars on
 * synthetic histories. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "growth.h"
#include "live_table.h" /* hs_random_next */
#include "unit.h"

#define SIZE 100.0
#define SCALE 10.0 /* each tracked sample stands for 10 objects: variance 90 per entry */

static int bucket_info(uint32_t bucket, double *size, double *scale, void *ctx) {
    (void)ctx;
    if (bucket == 99) return 0; /* unknown bucket */
    *size = SIZE;
    *scale = SCALE;
    return 1;
}

/* One GC: `stable` samples of bucket 2 allocated at epoch 0, `grown` samples of bucket 1
 * (per_gc per earlier GC), `tiny` samples of bucket 3. */
static void record_gc(hs_growth *g, uint32_t epoch, uint32_t per_gc, uint32_t tiny) {
    hs_growth_begin(g, epoch, epoch, (int64_t)epoch * 1000);
    for (uint32_t i = 0; i < 1000; i++) hs_growth_add(g, 2, 0, 1.0);
    for (uint32_t e = 0; e < epoch; e++)
        for (uint32_t i = 0; i < per_gc; i++) hs_growth_add(g, 1, e, 1.0);
    for (uint32_t i = 0; i < tiny && i < epoch; i++) hs_growth_add(g, 3, i, 1.0);
    hs_growth_add(g, 99, 0, 5.0);
    CU_ASSERT_EQUAL(hs_growth_end(g), 0);
}

static void test_linear_growth_found_stable_and_tiny_not(void) {
    hs_growth *g = hs_growth_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    for (uint32_t epoch = 1; epoch <= 16; epoch++) record_gc(g, epoch, 20, 3);
    CU_ASSERT_EQUAL(hs_growth_records(g), 16);
    hs_growth_site s[4];
    uint32_t n = hs_growth_rank(g, bucket_info, NULL, s, 4);
    CU_ASSERT_EQUAL_FATAL(n, 1); /* the stable site did not grow; 3 samples are no finding */
    CU_ASSERT_EQUAL(s[0].bucket, 1);
    CU_ASSERT_EQUAL(s[0].first_epoch, 1);
    CU_ASSERT_EQUAL(s[0].last_epoch, 16);
    CU_ASSERT_DOUBLE_EQUAL(s[0].growth_bytes, 15 * 20 * SCALE * SIZE, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(s[0].slope_bytes_per_gc, 20 * SCALE * SIZE, 1e-6);
    CU_ASSERT_EQUAL(s[0].samples, 320);
    /* Only the 300 samples born inside the window count: sqrt(300 * 90) * SIZE. */
    CU_ASSERT_DOUBLE_EQUAL(s[0].growth_sigma, sqrt(300 * 90.0) * SIZE, 1e-6);
    hs_growth_destroy(g);
}

static void test_window_slides(void) {
    hs_growth *g = hs_growth_create();
    for (uint32_t epoch = 1; epoch <= 20; epoch++) record_gc(g, epoch, 20, 0);
    CU_ASSERT_EQUAL(hs_growth_records(g), HS_GROWTH_WINDOW);
    hs_growth_site s;
    CU_ASSERT_EQUAL_FATAL(hs_growth_rank(g, bucket_info, NULL, &s, 1), 1);
    CU_ASSERT_EQUAL(s.first_epoch, 5);
    CU_ASSERT_EQUAL(s.last_epoch, 20);
    CU_ASSERT_DOUBLE_EQUAL(s.growth_bytes, 15 * 20 * SCALE * SIZE, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(s.growth_sigma, sqrt(300 * 90.0) * SIZE, 1e-6);
    hs_growth_destroy(g);
}

static void test_ranking_order_and_max(void) {
    hs_growth *g = hs_growth_create();
    for (uint32_t epoch = 1; epoch <= 8; epoch++) {
        hs_growth_begin(g, epoch, epoch, 0);
        for (uint32_t b = 1; b <= 5; b++) /* bucket b grows by 10 * b samples per GC */
            for (uint32_t i = 0; i < 10 * b * epoch; i++) hs_growth_add(g, b, epoch - 1, 1.0);
        hs_growth_end(g);
    }
    hs_growth_site s[3];
    CU_ASSERT_EQUAL_FATAL(hs_growth_rank(g, bucket_info, NULL, s, 3), 3);
    CU_ASSERT_EQUAL(s[0].bucket, 5);
    CU_ASSERT_EQUAL(s[1].bucket, 4);
    CU_ASSERT_EQUAL(s[2].bucket, 3);
    hs_growth_destroy(g);
}

static void test_one_record_ranks_nothing(void) {
    hs_growth *g = hs_growth_create();
    record_gc(g, 1, 20, 0);
    hs_growth_site s;
    CU_ASSERT_EQUAL(hs_growth_rank(g, bucket_info, NULL, &s, 1), 0);
    hs_growth_destroy(g);
}

/* Monte Carlo: a cache that gains 300 objects per GC and evicts its oldest 100, sampled
 * at p = 1/SCALE. Over 400 seeded histories, the growth estimate is unbiased and
 * (estimate - truth) / sigma has unit variance: the error bars mean what they say. */
static void test_error_bars_are_calibrated(void) {
    enum { TRIALS = 400, GCS = 12, ADD = 300, EVICT = 100 };
    uint64_t rng = 12345;
    double sum_z = 0, sum_z2 = 0;
    static uint32_t born[GCS * ADD];
    static uint8_t sampled[GCS * ADD];
    for (int t = 0; t < TRIALS; t++) {
        hs_growth *g = hs_growth_create();
        uint32_t n = 0, oldest = 0;
        double truth_first = 0, truth_last = 0;
        for (uint32_t epoch = 1; epoch <= GCS; epoch++) {
            for (int i = 0; i < ADD; i++) {
                born[n] = epoch - 1;
                sampled[n++] = (hs_random_next(&rng) >> 11) * 0x1.0p-53 < 1.0 / SCALE;
            }
            if (epoch > 3) oldest += EVICT;
            hs_growth_begin(g, epoch, epoch, 0);
            for (uint32_t i = oldest; i < n; i++)
                if (sampled[i]) hs_growth_add(g, 1, born[i], 1.0);
            hs_growth_end(g);
            double truth = (double)(n - oldest) * SIZE;
            if (epoch == 1) truth_first = truth;
            truth_last = truth;
        }
        hs_growth_site s;
        uint32_t found = hs_growth_rank(g, bucket_info, NULL, &s, 1);
        CU_ASSERT_EQUAL(found, 1);
        if (found) {
            double z = (s.growth_bytes - (truth_last - truth_first)) / s.growth_sigma;
            sum_z += z;
            sum_z2 += z * z;
        }
        hs_growth_destroy(g);
    }
    double mean = sum_z / TRIALS, var = sum_z2 / TRIALS - mean * mean;
    /* mean of 400 unit normals: sd 0.05; their variance: sd about 0.07 */
    CU_ASSERT_TRUE(fabs(mean) < 0.2);
    CU_ASSERT_TRUE(var > 0.72 && var < 1.28);
    printf("\n    z mean %.3f, variance %.3f ", mean, var);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"linear growth found, stable and tiny sites not", test_linear_growth_found_stable_and_tiny_not},
        {"window slides", test_window_slides},
        {"ranking order and max", test_ranking_order_and_max},
        {"one record ranks nothing", test_one_record_ranks_nothing},
        {"error bars are calibrated", test_error_bars_are_calibrated},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("growth", tests);
}
