/* live_scale.h: turns per-bucket live-heap estimates into the integers the profile
 * reports, optionally reconciled with the heap used after the last GC.
 *
 * Pure arithmetic, no JVM. The inputs are unbiased estimates from the tracked samples
 * (bytes and objects per bucket, as doubles). Modes (option live_scale=):
 *   - HS_SCALE_PROPORTIONAL: every bucket is multiplied by heap / sum(bytes), so the
 *     buckets add up to the heap exactly; objects get the same factor.
 *   - HS_SCALE_RESIDUAL: buckets keep their estimates; what the heap holds beyond their
 *     sum goes to one pseudo-site, HS_LIVE_RESIDUAL_NAME (0 when the sum is larger).
 *   - heap unknown (heap_used == 0), either mode: the unscaled estimates, no residual.
 * Rounding to integers preserves sums: the rounded buckets add up exactly to the
 * rounded total (to the heap in proportional mode), and each is within 1 of its exact
 * value. */
#ifndef HS_LIVE_SCALE_H
#define HS_LIVE_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* live_scale=: the mode (above). */
typedef enum { HS_SCALE_RESIDUAL = 0, HS_SCALE_PROPORTIONAL } hs_live_scale;

#define HS_LIVE_RESIDUAL_NAME "[heap not attributed to samples]"

/* One bucket's unbiased live estimate. Negative or non-finite values count as 0. */
typedef struct {
    double bytes;
    double objects;
} hs_live_estimate;

/* One bucket as reported. */
typedef struct {
    int64_t bytes;
    int64_t objects;
} hs_live_amount;

typedef struct {
    bool heap_known;        /* heap_used was given (non-zero) */
    double factor;          /* what every bucket was multiplied by (1 when unscaled) */
    double raw_bytes;       /* sum of the estimates, before scaling */
    double raw_objects;
    int64_t total_bytes;    /* sum of the reported buckets (the residual excluded) */
    int64_t total_objects;
    /* Bytes of the HS_LIVE_RESIDUAL_NAME pseudo-site (its object count is unknown:
     * report 0). Non-zero in residual mode when heap > total_bytes, and in
     * proportional mode when there are no live bytes to scale (the whole heap). */
    int64_t residual_bytes;
    int64_t capped_bytes; /* taken off sites by hs_live_cap_to_alloc */
} hs_live_scale_summary;

/* Scales count estimates into out[0 .. count-1] (out may not alias estimates) and
 * fills *summary. heap_used: bytes in use after the last GC, 0 if unknown. */
void hs_live_scale_apply(const hs_live_estimate *estimates, size_t count, uint64_t heap_used,
                         hs_live_scale mode, hs_live_amount *out, hs_live_scale_summary *summary);

/* Holds every bucket to Go's convention in-use <= allocated: a bucket whose in-use
 * exceeds its allocation (both rounded independently, or a thinned sample weighing more
 * than its site allocated) is cut to it, bytes and objects separately. When the heap is
 * known, the bytes cut go to the residual pseudo-site, so the profile's in-use total (the
 * heap) is unchanged; with the heap unknown they are dropped (there is no residual then).
 * total_bytes and total_objects drop by what was cut. alloc[i] is bucket i's allocation
 * estimate. */
void hs_live_cap_to_alloc(hs_live_amount *inuse, const hs_live_amount *alloc, size_t count,
                          hs_live_scale_summary *summary);

#endif
