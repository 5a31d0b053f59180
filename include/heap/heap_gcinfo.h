/* heap_gcinfo.h: heap_source=gcinfo, com.sun.management.GcInfo of the collector that
 * finished last, "memory usage after GC" summed over the heap pools.
 *
 * Needs the jdk.management module and JNI calls: 20-50 us per warm read measured here, more
 * for the first ones (class loading). Everything is resolved once at setup (global
 * references to the classes, beans and pool names, method ids), so a read does no lookup. */
#ifndef HS_HEAP_GCINFO_H
#define HS_HEAP_GCINFO_H

#include <jni.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "heap/gc_identify.h"

/* Real JVMs have 2-3 heap pools. */
#define HS_MAX_HEAP_POOLS 16

/* Zeroed, then set up; global references and method ids of classes never unloaded. */
typedef struct {
    jclass gc_bean_class, gc_info_class, map_class, usage_class;
    jobject gc_beans[HS_MAX_GC_BEANS]; /* com.sun.management.GarbageCollectorMXBean */
    int gc_bean_count;
    jstring heap_pools[HS_MAX_HEAP_POOLS]; /* names of the HEAP memory pools */
    int heap_pool_count;
    jmethodID get_last_gc_info, get_end_time, get_usage_after_gc, map_get, get_used;
    atomic_int read_failure_logged;
} hs_heap_gcinfo;

/* Resolves the com.sun.management classes and keeps the collector beans (listed into
 * beans if not yet) that have a GcInfo: the "... Pauses" beans of ZGC and Shenandoah
 * describe pauses, not collections. 0, or -1 with why (whylen bytes) filled and nothing
 * kept. */
int hs_heap_gcinfo_setup(hs_heap_gcinfo *g, JNIEnv *jni, hs_gc_bean_list *beans, char *why,
                         size_t whylen);

/* 1 with *used_bytes set once a collector has a GcInfo, else 0; a failing call is logged
 * once. A thread that may call Java. */
int hs_heap_gcinfo_read(hs_heap_gcinfo *g, JNIEnv *jni, uint64_t *used_bytes);

/* Deletes the global references (a zeroed g is fine). */
void hs_heap_gcinfo_release(hs_heap_gcinfo *g, JNIEnv *jni);

#endif
