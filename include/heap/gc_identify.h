/* gc_identify.h: which collector the JVM runs.
 *
 * From the collector-selecting -XX flags (UseG1GC...) read in the flag table VMStructs
 * describes, which loads no class; when they cannot be read or do not tell, from the
 * names of the GarbageCollectorMXBeans. Listing those beans loads ~340 classes (~60 ms of
 * CPU), so it happens at most once, on first need, and the list is shared with the gcinfo
 * source (gcinfo.h), which needs the beans themselves. */
#ifndef HS_GC_IDENTIFY_H
#define HS_GC_IDENTIFY_H

#include <jvmti.h>
#include <stddef.h>

#include "heap/hotspot_tables.h"

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

/* Real JVMs have at most 4 collector beans. */
#define HS_MAX_GC_BEANS 8
#define HS_GC_NAME_MAX 64

/* The collector beans, as local references of the caller's JNI frame. Zero it, then
 * hs_gc_beans lists them on first use. */
typedef struct {
    int state; /* 0: not listed yet; 1: listed; -1: listing failed */
    const char *failure; /* when state is -1: what failed */
    jobject beans[HS_MAX_GC_BEANS];
    char names[HS_MAX_GC_BEANS][HS_GC_NAME_MAX];
    const char *name_ptrs[HS_MAX_GC_BEANS];
    size_t count;
} hs_gc_bean_list;

/* ManagementFactory.getGarbageCollectorMXBeans() with their names, listed on first use.
 * Returns 0, or -1 (list->failure says why: java.management unusable). */
int hs_gc_beans(JNIEnv *jni, hs_gc_bean_list *list);

/* The collector, from the flags when they name one, else from the beans (listed into
 * beans when needed). Logs at debug (the flags) or info (collector unknown). */
hs_gc_kind hs_gc_identify(jvmtiEnv *jvmti, JNIEnv *jni, const hs_hotspot_tables *tables,
                          hs_gc_bean_list *beans);

/* ---- Pure helpers, exposed for the unit tests ---------------------------------------- */

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
/* "G1", "Parallel", "Serial", "Z", "Z (generational)", "Shenandoah", "Epsilon", "unknown". */
const char *hs_gc_kind_name(hs_gc_kind kind);
/* 1 when the collector updates _used_at_last_gc after every collection, so that heap_source=auto
 * may use vmstructs; 0 when it lags (Parallel, Serial: full GCs only; generational ZGC: major
 * collections only), never updates it (Epsilon), or is unknown. */
int hs_gc_updates_used_at_last_gc(hs_gc_kind kind);
/* Why heap_source=auto does not use vmstructs for this collector. */
const char *hs_gc_vmstructs_unsuitable_reason(hs_gc_kind kind);

#endif
