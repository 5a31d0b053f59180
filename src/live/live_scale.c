/* live_scale.c: live-heap scaling and sum-preserving rounding (see live_scale.h). */
#include "live/live_scale.h"

#include <math.h>

/* Estimates are used only if they are finite and positive. */
static double clean(double value) { return isfinite(value) && value > 0 ? value : 0; }

/* Rounds to the nearest int64, saturating; 0 for anything not positive. */
static int64_t to_int64(double value) {
    if (!(value > 0)) return 0;
    if (value >= 9223372036854775807.0) return INT64_MAX;
    return llround(value);
}

static double field(const hs_live_estimate *e, bool bytes) {
    return clean(bytes ? e->bytes : e->objects);
}

static int64_t *out_field(hs_live_amount *a, bool bytes) { return bytes ? &a->bytes : &a->objects; }

/* Splits `total` among the buckets in proportion to their values (bytes or objects),
 * sum = the sum of those values. Cumulative rounding: bucket i gets
 * R(p_i) - R(p_(i-1)), with p_i the sum of values 0..i and R(p) = round(total * p / sum).
 * The differences telescope to R(sum) = total, R is non-decreasing so none is negative,
 * and each differs from its exact share by less than 1. */
static void split_total(const hs_live_estimate *estimates, size_t count, bool bytes,
                        double sum, int64_t total, hs_live_amount *out) {
    double prefix = 0;
    int64_t previous = 0;
    for (size_t i = 0; i < count; i++) {
        int64_t reached;
        if (sum <= 0) {
            reached = 0;
        } else {
            prefix += field(&estimates[i], bytes);
            /* Once every value is counted, the share is the total exactly (floating-point
             * total * sum / sum might miss it by one). */
            reached = prefix >= sum ? total : to_int64((double)total * (prefix / sum));
            if (reached > total) reached = total;
            if (reached < previous) reached = previous;
        }
        *out_field(&out[i], bytes) = reached - previous;
        previous = reached;
    }
}

void hs_live_scale_apply(const hs_live_estimate *estimates, size_t count, uint64_t heap_used,
                         hs_live_scale mode, hs_live_amount *out, hs_live_scale_summary *summary) {
    double raw_bytes = 0, raw_objects = 0;
    for (size_t i = 0; i < count; i++) {
        raw_bytes += field(&estimates[i], true);
        raw_objects += field(&estimates[i], false);
    }
    int64_t heap = heap_used > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)heap_used;

    summary->heap_known = heap > 0;
    summary->raw_bytes = raw_bytes;
    summary->raw_objects = raw_objects;
    summary->factor = 1.0;
    summary->residual_bytes = 0;
    summary->capped_bytes = 0;

    int64_t total_bytes = to_int64(raw_bytes);
    if (heap > 0 && mode == HS_SCALE_PROPORTIONAL) {
        if (raw_bytes > 0) {
            summary->factor = (double)heap / raw_bytes;
            total_bytes = heap;
        } else {
            summary->residual_bytes = heap; /* nothing to spread the heap over */
        }
    }
    int64_t total_objects = to_int64(raw_objects * summary->factor);

    split_total(estimates, count, true, raw_bytes, total_bytes, out);
    split_total(estimates, count, false, raw_objects, total_objects, out);
    /* With no values at all the split gives nothing: report what was given out. */
    summary->total_bytes = raw_bytes > 0 ? total_bytes : 0;
    summary->total_objects = raw_objects > 0 ? total_objects : 0;

    if (heap > 0 && mode == HS_SCALE_RESIDUAL && heap > summary->total_bytes)
        summary->residual_bytes = heap - summary->total_bytes;
}

void hs_live_cap_to_alloc(hs_live_amount *inuse, const hs_live_amount *alloc, size_t count,
                          hs_live_scale_summary *summary) {
    for (size_t i = 0; i < count; i++) {
        int64_t excess_bytes = inuse[i].bytes - alloc[i].bytes;
        int64_t excess_objects = inuse[i].objects - alloc[i].objects;
        if (excess_bytes > 0) {
            inuse[i].bytes = alloc[i].bytes;
            summary->total_bytes -= excess_bytes;
            summary->capped_bytes += excess_bytes;
            if (summary->heap_known) summary->residual_bytes += excess_bytes;
        }
        if (excess_objects > 0) {
            inuse[i].objects = alloc[i].objects;
            summary->total_objects -= excess_objects;
        }
    }
}
