/* estimate.c: unbiasing of sampled counts (see estimate.h). */
#include "sampling/estimate.h"

#include <math.h>

#include "sampling/sample_table.h"

double hs_unbias_scale(double avg_size, int64_t interval) {
    if (interval <= 0 || avg_size <= 0) return 1.0;
    /* -expm1(-x) == 1 - exp(-x), without cancellation when avg_size << interval */
    return 1.0 / -expm1(-avg_size / (double)interval);
}

double hs_untracked_correction(uint64_t weight_fp, uint64_t untracked_fp) {
    if (untracked_fp == 0 || untracked_fp >= weight_fp) return 1.0;
    return (double)weight_fp / (double)(weight_fp - untracked_fp);
}

uint64_t hs_interval_weight_fp(uint64_t size, int64_t sampled_at, int64_t base) {
    if (sampled_at == base) return HS_WEIGHT_ONE;
    double ratio = hs_unbias_scale((double)size, sampled_at) / hs_unbias_scale((double)size, base);
    /* Bounded so that weight << (live-table level) cannot overflow: intervals 65536 times
     * apart are refused by the command anyway. */
    double weight = fmin(fmax(ratio * (double)HS_WEIGHT_ONE, 1.0), (double)((uint64_t)1 << 32));
    return (uint64_t)llround(weight);
}

double hs_ht_variance(double size, double k, double sum_w, double sum_w2) {
    double v = size * size * (k * k * sum_w2 - k * sum_w);
    return v > 0 ? v : 0;
}
