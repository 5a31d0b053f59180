/* overflow.c: counting samples that found no room in the tables (see overflow.h). */
#include "sampling/overflow.h"

#include <math.h>
#include <stdio.h>

#include "sampling/estimate.h"
#include "base/log.h"
#include "sampling/sample_table.h"
#include "sampling/stack_store.h"

void hs_overflow_init(hs_overflow *o, int64_t memory) {
    atomic_init(&o->folded, 0);
    atomic_init(&o->spilled, 0);
    atomic_init(&o->spilled_objects_fp, 0);
    atomic_init(&o->spilled_bytes, 0);
    atomic_init(&o->warned, false);
    o->memory = memory;
}

/* The one warning at the first overflow: rare by construction, so a stderr write on the
 * allocating thread is acceptable (as for the other first-failure warnings). */
static void warn_once(hs_overflow *o) {
    if (atomic_load_explicit(&o->warned, memory_order_relaxed) ||
        atomic_exchange(&o->warned, true))
        return;
    hs_warn("stack or bucket table full (memory=%lldm): samples that find no room from now on "
            "are counted under %s with their class and weight, so totals stay unbiased; memory= "
            "raises the limit",
            (long long)(o->memory >> 20), HS_STACK_FOLDED_NAME);
}

void hs_overflow_note_folded(hs_overflow *o) {
    atomic_fetch_add_explicit(&o->folded, 1, memory_order_relaxed);
    warn_once(o);
}

void hs_overflow_spill(hs_overflow *o, uint64_t size, int64_t interval, uint64_t weight_fp) {
    double objects = (double)weight_fp / (double)HS_WEIGHT_ONE *
                     hs_unbias_scale((double)size, interval);
    atomic_fetch_add_explicit(&o->spilled, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&o->spilled_objects_fp, (uint64_t)llround(objects * HS_OVERFLOW_ONE),
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&o->spilled_bytes, (uint64_t)llround(objects * (double)size),
                              memory_order_relaxed);
    warn_once(o);
}

uint32_t hs_overflow_record(hs_overflow *o, hs_sample_table *samples, hs_bucket_key key,
                            uint64_t weight_fp, int64_t interval) {
    key.stack_id = HS_STACK_FOLDED;
    uint32_t bucket = hs_sample_table_record_folded(samples, key, weight_fp);
    if (bucket) hs_overflow_note_folded(o);
    else hs_overflow_spill(o, key.size, interval, weight_fp);
    return bucket;
}

uint64_t hs_overflow_count(const hs_overflow *o) {
    return atomic_load_explicit(&o->folded, memory_order_relaxed) +
           atomic_load_explicit(&o->spilled, memory_order_relaxed);
}

bool hs_overflow_describe(const hs_overflow *o, uint64_t total_samples, char *buf, size_t len) {
    uint64_t folded = atomic_load_explicit(&o->folded, memory_order_relaxed);
    uint64_t spilled = atomic_load_explicit(&o->spilled, memory_order_relaxed);
    if (len > 0) buf[0] = '\0';
    if (folded + spilled == 0) return false;
    double share = total_samples ? 100.0 * (double)(folded + spilled) / (double)total_samples : 100.0;
    snprintf(buf, len,
             "tables full: %llu of %llu samples (%.1f %%) found no room in the stack or bucket tables and are "
             "counted under %s with their class (%llu) or under %s (%llu), weights kept; raise "
             "memory= (now %lldm) for more room",
             (unsigned long long)(folded + spilled), (unsigned long long)total_samples, share,
             HS_STACK_FOLDED_NAME, (unsigned long long)folded, HS_SPILLED_NAME,
             (unsigned long long)spilled, (long long)(o->memory >> 20));
    return true;
}
