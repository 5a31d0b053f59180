/* heap_usage.h: "heap used after the last GC", the figure live-heap estimates are scaled to.
 *
 * The collector is identified by gc_identify.h, G1's humongous threshold found by
 * g1_regions.h; this module picks one of two sources (heap_vmstructs.h, heap_gcinfo.h; see
 * /work/shared/notes/heap-usage-vmstructs.md):
 *  - vmstructs: a plain read of HotSpot's CollectedHeap::_used_at_last_gc. That field is not in
 *    the VMStructs table; its offset is calibrated at VMInit from its neighbour
 *    _capacity_at_last_gc, which then equals (or is a little below) Runtime.totalMemory().
 *    Used automatically only with the collectors that update the field after every collection
 *    (G1, Shenandoah, non-generational ZGC). Costs a memory read.
 *  - gcinfo: com.sun.management.GcInfo of the collector that finished last, "memory usage after
 *    GC" summed over the heap pools. Needs the jdk.management module and JNI calls:
 *    20-50 us per warm read measured here, more for the first ones (class loading).
 * heap_source=auto picks vmstructs when it applies and calibrates, else gcinfo, else none;
 * Epsilon never collects, so it gets none. An explicitly requested source that cannot be set up
 * falls back to none with a warning, never to the other source: the user asked for that source,
 * and switching silently would change both the cost and the meaning of the figure.
 *
 * Reads use JNI (gcinfo) or race benignly with the GC (vmstructs): call hs_heap_usage_read from
 * an agent thread or at dump time, never inside a GC callback. Reads may run on several threads
 * at once; create and destroy must not overlap with anything else. */
#ifndef HS_HEAP_USAGE_H
#define HS_HEAP_USAGE_H

#include <jvmti.h>
#include <stddef.h>
#include <stdint.h>

#include "heap/g1_regions.h"
#include "heap/gc_identify.h"
#include "heap/heap_source.h"
#include "heap/heap_vmstructs.h"

typedef struct hs_heap_usage hs_heap_usage;

typedef struct {
    int valid;           /* 0: no figure (source none, or no GC yet) */
    uint64_t used_bytes; /* heap used after the last GC */
    const char *source;  /* "vmstructs", "gcinfo" or "none" (static string) */
} hs_heap_reading;

/* At VMInit (JNI allowed; on the VMInit thread): identifies the collector and picks the source.
 * The collector comes from its -XX flags (UseG1GC...) read through VMStructs; only when they
 * cannot be read, or gcinfo is to be set up, does it list the GarbageCollectorMXBeans, which
 * loads the management classes. Never fails hard; returns NULL only when out of memory. Logs
 * the choice at info, e.g.
 *   heap source vmstructs: CollectedHeap::_used_at_last_gc at offset 24 (G1)
 *   heap source gcinfo (Parallel) */
hs_heap_usage *hs_heap_usage_create(jvmtiEnv *jvmti, JNIEnv *jni, hs_heap_source requested);

/* On an agent thread or at dump time (never in a GC callback). A reading is valid once a
 * collection has finished: for gcinfo, once a collector has a GcInfo; for vmstructs, once the
 * field differs from its startup value (only a collection writes it; should the first one leave
 * exactly the startup figure, validity waits for the next). */
void hs_heap_usage_read(hs_heap_usage *hu, JNIEnv *jni, hs_heap_reading *out);

/* "G1", "Parallel", "Serial", "Z", "Z (generational)", "Shenandoah", "Epsilon" or "unknown". */
const char *hs_heap_usage_gc_name(const hs_heap_usage *hu);
/* The collector as a kind (hs_gc_kind, gc_identify.h). */
int hs_heap_usage_gc(const hs_heap_usage *hu);
/* "vmstructs", "gcinfo" or "none". */
const char *hs_heap_usage_source(const hs_heap_usage *hu);
/* Calibrated offset of _used_at_last_gc in CollectedHeap, or -1 when not calibrated. */
long hs_heap_usage_vmstructs_offset(const hs_heap_usage *hu);

/* G1's humongous threshold in bytes (g1_regions.h), found once at create. An object is
 * humongous when its size is STRICTLY greater than this (G1CollectedHeap::is_humongous uses
 * '>', so an object of exactly half a region is not). 0 when the collector is not G1 (no
 * humongous concept) or the region size could not be found. */
uint64_t hs_heap_usage_humongous_threshold(const hs_heap_usage *hu);

/* Deletes the global references and frees hu (NULL is fine). */
void hs_heap_usage_destroy(hs_heap_usage *hu, JNIEnv *jni);

#endif
