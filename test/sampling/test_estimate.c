/* test_estimate.c: the unbiasing math, against values computed by hand. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "sampling/estimate.h"
#include "unit.h"

#define CLOSE(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9 * fabs(b))

static void test_scale_hand_values(void) {
    /* 1/(1-e^-1) = 1.5819767068693265 */
    CLOSE(hs_unbias_scale(524288, 524288), 1.5819767068693265);
    /* s = interval/2: 1/(1-e^-0.5) = 2.5414940825367982 */
    CLOSE(hs_unbias_scale(512, 1024), 2.5414940825367982);
    /* s = 4*interval: 1/(1-e^-4) = 1.0186573603637741 */
    CLOSE(hs_unbias_scale(4096, 1024), 1.0186573603637741);
    /* small objects: scale ~ interval/s + 1/2 (first terms of the series) */
    CLOSE(hs_unbias_scale(16, 524288), 1.0 / -expm1(-16.0 / 524288.0));
    CU_ASSERT_DOUBLE_EQUAL(hs_unbias_scale(16, 524288), 524288.0 / 16 + 0.5, 1e-3);
}

static void test_scale_every_allocation(void) {
    CU_ASSERT_EQUAL(hs_unbias_scale(64, 0), 1.0);
    CU_ASSERT_EQUAL(hs_unbias_scale(0, 1024), 1.0);
    /* huge objects are sampled with probability ~1 */
    CLOSE(hs_unbias_scale(1 << 30, 1024), 1.0);
}

static void test_untracked_correction(void) {
    CU_ASSERT_EQUAL(hs_untracked_correction(100, 0), 1.0);
    CLOSE(hs_untracked_correction(100, 25), 100.0 / 75.0);
    CLOSE(hs_untracked_correction(4, 3), 4.0);
    /* nothing tracked: nothing to extrapolate from */
    CU_ASSERT_EQUAL(hs_untracked_correction(100, 100), 1.0);
    CU_ASSERT_EQUAL(hs_untracked_correction(0, 0), 1.0);
}

/* splitmix64 over a fixed seed: uniform doubles in [0, 1). */
static double uniform(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* A site of 20,000 objects of 100 bytes, half sampled with p = 1/2 (a quiet second under the
 * rate cap), half with p = 1/100 (a burst): each kept sample weighs 1/p. Over 400 seeded
 * trials, the spread of the Horvitz-Thompson estimate (truth: sqrt(sum (1 - p) / p) x 100 =
 * 100,000 bytes) matches the mean of sqrt(hs_ht_variance) within 14 % (the spread of 400
 * trials is known to 1/sqrt(2 x 399) = 3.5 %, 4 of those); the formula the report used,
 * E x size x (mean weight - 1), is about a quarter of it. */
static void test_ht_variance_matches_spread_when_weights_vary(void) {
    const int trials = 400, half = 10000;
    const double size = 100, p_quiet = 0.5, p_burst = 0.01;
    uint64_t rng = 0x5eed0017ULL;
    double sum = 0, sum_sq = 0, exact_sd = 0, mean_weight_sd = 0;
    for (int t = 0; t < trials; t++) {
        double w_sum = 0, w2_sum = 0, kept = 0;
        for (int i = 0; i < 2 * half; i++) {
            double p = i < half ? p_quiet : p_burst;
            if (uniform(&rng) >= p) continue;
            w_sum += 1 / p;
            w2_sum += 1 / (p * p);
            kept++;
        }
        double estimate = size * w_sum;
        sum += estimate;
        sum_sq += estimate * estimate;
        exact_sd += sqrt(hs_ht_variance(size, 1, w_sum, w2_sum));
        double mean_w = kept > 0 ? w_sum / kept : 0;
        mean_weight_sd += sqrt(fmax(estimate * size * (mean_w - 1), 0));
    }
    double mean = sum / trials, spread = sqrt((sum_sq - trials * mean * mean) / (trials - 1));
    exact_sd /= trials;
    mean_weight_sd /= trials;
    double truth_sd = size * sqrt(half * (1 - p_quiet) / p_quiet + half * (1 - p_burst) / p_burst);
    printf("\n    spread %.0f (theory %.0f); exact ± %.0f; mean-weight ± %.0f ", spread, truth_sd,
           exact_sd, mean_weight_sd);
    CU_ASSERT_TRUE(fabs(mean - 2 * half * size) < 4 * spread / sqrt(trials)); /* unbiased */
    CU_ASSERT_TRUE(fabs(exact_sd / spread - 1) < 0.14);
    CU_ASSERT_TRUE(mean_weight_sd / spread < 0.5); /* the old formula: far too small */
    /* k scales the weights: the same samples at k = 3 stand for 3 times as many objects. */
    CLOSE(hs_ht_variance(10, 3, 4, 6), 100.0 * (9 * 6 - 3 * 4));
    CU_ASSERT_EQUAL(hs_ht_variance(10, 1, 5, 5), 0); /* weights of 1: every object seen */
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"unbias scale against hand-computed values", test_scale_hand_values},
        {"interval 0 and degenerate sizes", test_scale_every_allocation},
        {"untracked-weight correction", test_untracked_correction},
        {"HT variance matches the spread when weights vary", test_ht_variance_matches_spread_when_weights_vary},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("estimate", tests);
}
