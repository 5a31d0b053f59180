/* gc_counters.h: HotSpot's collection counters, read with plain loads (safe in a GC
 * callback): CollectedHeap::_total_collections (in VMStructs) and _total_full_collections
 * (not in VMStructs: the unsigned int declared right after it in every JDK from 8 to 25).
 *
 * The pair is accepted only when, at setup, full <= total (both start at 0 and a full
 * collection counts in both); anything else means the layout is not the one expected and
 * the counters are not used. liveness.h decides what the counts say. */
#ifndef HS_GC_COUNTERS_H
#define HS_GC_COUNTERS_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const unsigned char *total; /* &_total_collections, NULL when not found */
    char why[160];              /* when total is NULL */
} hs_gc_counters;

/* Finds the counters (any thread, after VMInit). Never fails hard: total NULL says so. */
void hs_gc_counters_find(hs_gc_counters *c, jvmtiEnv *jvmti);

/* Reads both; false when the counters were not found. */
bool hs_gc_counters_read(const hs_gc_counters *c, uint32_t *total, uint32_t *full);

/* The check applied to the words read at setup (exposed for the unit tests). */
bool hs_gc_counters_plausible(uint32_t total, uint32_t full);

#endif
