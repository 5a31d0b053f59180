/* estimate.c: unbiasing of sampled counts (see estimate.h). */
#include "estimate.h"

#include <math.h>

double hs_unbias_scale(double avg_size, int64_t interval) {
    if (interval <= 0 || avg_size <= 0) return 1.0;
    /* -expm1(-x) == 1 - exp(-x), without cancellation when avg_size << interval */
    return 1.0 / -expm1(-avg_size / (double)interval);
}

double hs_untracked_correction(uint64_t weight_fp, uint64_t untracked_fp) {
    if (untracked_fp == 0 || untracked_fp >= weight_fp) return 1.0;
    return (double)weight_fp / (double)(weight_fp - untracked_fp);
}
