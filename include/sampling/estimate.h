/* estimate.h: the sampling math that turns samples into unbiased estimates.
 *
 * The JVM samples an allocation when the bytes since the last sample pass an
 * exponentially distributed threshold with mean `interval`, so an object of size s is
 * sampled with probability 1 - exp(-s / interval). Dividing by that probability
 * (Go's scaleHeapSample) makes counts and bytes unbiased. */
#ifndef HS_ESTIMATE_H
#define HS_ESTIMATE_H

#include <stdint.h>

/* 1 / (1 - exp(-avg_size / interval)); 1 when interval <= 0 (every allocation sampled). */
double hs_unbias_scale(double avg_size, int64_t interval);

/* The weight (HS_WEIGHT_ONE = one sample) of a sample of an object of size bytes taken
 * while the JVM sampled at interval `sampled_at`, for estimates that scale every sample at
 * interval `base` (the `start,interval=` command changes the first, never the second):
 * unbias(size, sampled_at) / unbias(size, base), so the product with the base scale is the
 * unbiased count at the interval really used. HS_WEIGHT_ONE when the two are equal. */
uint64_t hs_interval_weight_fp(uint64_t size, int64_t sampled_at, int64_t base);

/* Samples whose liveness was not tracked (the tracking table had no room) stand in for
 * as many tracked ones: a site's live weight is multiplied by offered / tracked weight,
 * weight_fp / (weight_fp - untracked_fp). This ratio estimator is unbiased when a site's
 * untracked samples live like its tracked ones, the case of a burst allocating one
 * retained structure. 1 when nothing was untracked, or nothing was tracked. */
double hs_untracked_correction(uint64_t weight_fp, uint64_t untracked_fp);

/* The variance estimate of a Horvitz-Thompson sum: a site's in-use estimate is
 * size * k * sum(w) over its tracked samples (w each sample's own weight: rate cap,
 * thinning; k what one unit of weight stands for: the unbias scale and the site's
 * corrections), and its exact unbiased variance estimate is sum W (W - 1) size^2 over the
 * same samples, W = k w, that is size^2 (k^2 sum(w^2) - k sum(w)). Clamped at 0. A mean
 * weight in place of the weights understates it whenever they vary: a few samples of large
 * weight carry most of the variance. */
double hs_ht_variance(double size, double k, double sum_w, double sum_w2);

#endif
