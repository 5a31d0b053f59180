/* heap_usage.h: "heap used after the last GC", the figure live-heap estimates are scaled to.
 *
 * Two sources (see /work/shared/notes/heap-usage-vmstructs.md):
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

#include "options.h"

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
/* The collector as a kind (hs_gc_kind, below). */
int hs_heap_usage_gc(const hs_heap_usage *hu);
/* "vmstructs", "gcinfo" or "none". */
const char *hs_heap_usage_source(const hs_heap_usage *hu);
/* Calibrated offset of _used_at_last_gc in CollectedHeap, or -1 when not calibrated. */
long hs_heap_usage_vmstructs_offset(const hs_heap_usage *hu);

/* G1's humongous threshold in bytes: half the region size, as HotSpot's
 * G1CollectedHeap::humongous_threshold_for computes it (JDK 17 and 25). An object is humongous
 * when its size is STRICTLY greater than this (G1CollectedHeap::is_humongous uses '>', so an
 * object of exactly half a region is not). 0 when the collector is not G1 (no humongous
 * concept) or the region size could not be found. Found once at create: from the
 * G1HeapRegionSize flag in the flag table VMStructs describes, else from VMStructs
 * (HeapRegion::GrainBytes on JDK 17, G1HeapRegion::GrainBytes on JDK 25), which also serves
 * when the collector is unknown: only G1 sets GrainBytes; else from the same flag through
 * HotSpotDiagnosticMXBean (module jdk.management). */
uint64_t hs_heap_usage_humongous_threshold(const hs_heap_usage *hu);

/* Deletes the global references and frees hu (NULL is fine). */
void hs_heap_usage_destroy(hs_heap_usage *hu, JNIEnv *jni);

/* ---- Pure helpers, exposed for the unit tests ---------------------------------------- */

typedef enum {
    HS_GC_UNKNOWN = 0,
    HS_GC_G1,
    HS_GC_PARALLEL,
    HS_GC_SERIAL,
    HS_GC_Z,
    HS_GC_Z_GENERATIONAL,
    HS_GC_SHENANDOAH,
    HS_GC_EPSILON
} hs_gc_kind;

/* The collector behind a set of GarbageCollectorMXBean names (e.g. "PS Scavenge"). */
hs_gc_kind hs_gc_classify(const char *const *bean_names, size_t count);

/* The collector-selecting -XX flags as read from the JVM's flag table: each 1, 0, or -1 when
 * the JVM has no such flag (Shenandoah in some builds; ZGenerational outside JDK 21-23). */
typedef struct {
    int serial, parallel, g1, z, shenandoah, epsilon; /* Use<X>GC */
    int z_generational;                               /* ZGenerational */
    int feature_version; /* java.vm.specification.version: 17, 25; 0 when unknown */
} hs_gc_flags;

/* The collector the flags select: the same kind hs_gc_classify gives for its beans, or
 * HS_GC_UNKNOWN when not exactly one Use<X>GC flag is set, or Z's mode cannot be told. */
hs_gc_kind hs_gc_classify_flags(const hs_gc_flags *f);
const char *hs_gc_kind_name(hs_gc_kind kind);
/* 1 when the collector updates _used_at_last_gc after every collection, so that heap_source=auto
 * may use vmstructs; 0 when it lags (Parallel, Serial: full GCs only; generational ZGC: major
 * collections only), never updates it (Epsilon), or is unknown. */
int hs_gc_updates_used_at_last_gc(hs_gc_kind kind);

/* Parses the value of the G1HeapRegionSize flag as getVMOption() prints it: plain decimal
 * digits (no sign, space or suffix) giving a power of two, as every G1 region size is.
 * Returns 0 and sets *region_size, or -1 (junk, empty, zero, not a power of two, overflow). */
int hs_g1_region_size_parse(const char *text, uint64_t *region_size);

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
