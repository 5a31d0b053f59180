/* heap_vmstructs.h: heap_source=vmstructs, a plain read of HotSpot's
 * CollectedHeap::_used_at_last_gc (see /work/shared/notes/heap-usage-vmstructs.md).
 *
 * That field is not in the VMStructs table; its offset is calibrated at VMInit from its
 * neighbour _capacity_at_last_gc, which then equals (or is a little below)
 * Runtime.totalMemory(). A read costs one memory load and races benignly with the GC. */
#ifndef HS_HEAP_VMSTRUCTS_H
#define HS_HEAP_VMSTRUCTS_H

#include <jni.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "heap/hotspot_tables.h"

typedef struct {
    const unsigned char *heap; /* the CollectedHeap object */
    long used_offset;          /* CollectedHeap::_used_at_last_gc, -1 if not calibrated */
    uint64_t startup_used;     /* its value at calibration: the heap usage at startup */
    atomic_int collected;      /* set once the field has changed: a collection wrote it */
} hs_heap_vmstructs;

/* At VMInit (JNI: Runtime.totalMemory()): locates the CollectedHeap and calibrates
 * _used_at_last_gc into v. 0, or -1 with why (whylen bytes) filled. */
int hs_heap_vmstructs_setup(hs_heap_vmstructs *v, const hs_hotspot_tables *tables, JNIEnv *jni,
                            char *why, size_t whylen);

/* 1 with *used_bytes set once a collection has written the field, else 0. Any thread. */
int hs_heap_vmstructs_read(hs_heap_vmstructs *v, uint64_t *used_bytes);

/* ---- Pure, exposed for the unit tests --------------------------------------------------- */

/* Finds _used_at_last_gc in a CollectedHeap image whose _reserved field is at reserved_offset,
 * at VMInit, when _capacity_at_last_gc (the word before it) holds the capacity recorded at
 * startup. Candidates are c = reserved_offset - 8, - 16, - 24; c is accepted when
 * word[c - 8] == total_memory and word[c] <= word[c - 8]. When no candidate is, a second pass
 * accepts word[c - 8] in [total_memory - total_memory / 8, total_memory] (the heap may commit
 * more before VMInit). Returns c when exactly one candidate is accepted in a pass, else -1;
 * *exact (may be NULL) tells which pass found it. */
long hs_heap_calibrate_used_at_last_gc(const void *heap, long reserved_offset,
                                       uint64_t total_memory, int *exact);

#endif
