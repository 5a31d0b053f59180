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

#endif
