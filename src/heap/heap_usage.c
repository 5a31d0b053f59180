/* heap_usage.c: "heap used after the last GC" from VMStructs or GcInfo (see heap_usage.h).
 *
 * This module chooses; the others find. Everything the JVM side needs is resolved once in
 * hs_heap_usage_create, on the VMInit thread: the collector's identity (gc_identify.c), G1's
 * humongous threshold (g1_regions.c), and the chosen source: the calibrated field offset
 * (heap_vmstructs.c) or the global references and method ids of GcInfo (heap_gcinfo.c).
 * Reads then do no lookups. The management beans are touched only when needed (gcinfo, or
 * flags that do not tell): listing them loads ~340 classes, ~60 ms of CPU. Local references
 * of create live in one PushLocalFrame/PopLocalFrame pair. */
#include "heap/heap_usage.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "heap/g1_regions.h"
#include "heap/heap_gcinfo.h"
#include "heap/heap_vmstructs.h"
#include "heap/hotspot_tables.h"
#include "heap/jni_util.h"
#include "base/log.h"

/* The longest reason a source could not be set up. */
#define HS_WHY_MAX 192

struct hs_heap_usage {
    hs_heap_source source;
    hs_gc_kind gc;
    uint64_t humongous_threshold; /* G1: half the region size in bytes; else 0 */
    hs_heap_vmstructs vmstructs;  /* set up when source is vmstructs */
    hs_heap_gcinfo gcinfo;        /* set up when source is gcinfo */
};

static const char *source_name(hs_heap_source source) {
    switch (source) {
    case HS_HEAP_VMSTRUCTS: return "vmstructs";
    case HS_HEAP_GCINFO: return "gcinfo";
    default: return "none";
    }
}

/* ---- Choosing the source --------------------------------------------------------------- */

static void use_vmstructs(hs_heap_usage *hu) {
    hu->source = HS_HEAP_VMSTRUCTS;
    hs_info("heap source vmstructs: CollectedHeap::_used_at_last_gc at offset %ld (%s)",
            hu->vmstructs.used_offset, hs_gc_kind_name(hu->gc));
}

static void use_gcinfo(hs_heap_usage *hu) {
    hu->source = HS_HEAP_GCINFO;
    hs_info("heap source gcinfo (%s)", hs_gc_kind_name(hu->gc));
}

static void use_none(hs_heap_usage *hu, const char *why) {
    hu->source = HS_HEAP_NONE;
    hu->vmstructs.used_offset = -1;
    hs_info("heap source none (%s): %s", hs_gc_kind_name(hu->gc), why);
}

static void choose_explicit(hs_heap_usage *hu, const hs_hotspot_tables *tables, JNIEnv *jni,
                            hs_heap_source requested, hs_gc_bean_list *beans) {
    char why[HS_WHY_MAX] = "";
    if (requested == HS_HEAP_VMSTRUCTS) {
        if (hs_heap_vmstructs_setup(&hu->vmstructs, tables, jni, why, sizeof why) == 0) {
            if (!hs_gc_updates_used_at_last_gc(hu->gc))
                hs_warn("heap_source=vmstructs with the %s collector: %s; readings may lag or "
                        "be missing",
                        hs_gc_kind_name(hu->gc), hs_gc_vmstructs_unsuitable_reason(hu->gc));
            use_vmstructs(hu);
            return;
        }
        hs_warn("heap_source=vmstructs unavailable: %s; no heap figure (try heap_source=auto)",
                why);
    } else {
        if (hs_heap_gcinfo_setup(&hu->gcinfo, jni, beans, why, sizeof why) == 0) {
            use_gcinfo(hu);
            return;
        }
        hs_warn("heap_source=gcinfo unavailable: %s; no heap figure", why);
    }
    use_none(hu, "the requested source is unavailable");
}

static void choose_auto(hs_heap_usage *hu, const hs_hotspot_tables *tables, JNIEnv *jni,
                        hs_gc_bean_list *beans) {
    char why[HS_WHY_MAX] = "";
    if (hu->gc == HS_GC_EPSILON) {
        use_none(hu, hs_gc_vmstructs_unsuitable_reason(hu->gc));
        return;
    }
    if (!hs_gc_updates_used_at_last_gc(hu->gc)) {
        hs_info("vmstructs not used with %s: %s", hs_gc_kind_name(hu->gc),
                hs_gc_vmstructs_unsuitable_reason(hu->gc));
    } else if (hs_heap_vmstructs_setup(&hu->vmstructs, tables, jni, why, sizeof why) == 0) {
        use_vmstructs(hu);
        return;
    } else {
        hs_info("vmstructs unavailable: %s", why);
    }
    if (hs_heap_gcinfo_setup(&hu->gcinfo, jni, beans, why, sizeof why) == 0) {
        use_gcinfo(hu);
        return;
    }
    use_none(hu, why);
}

hs_heap_usage *hs_heap_usage_create(jvmtiEnv *jvmti, JNIEnv *jni, hs_heap_source requested) {
    hs_heap_usage *hu = calloc(1, sizeof *hu);
    if (hu == NULL) return NULL;
    hu->source = HS_HEAP_NONE;
    hu->gc = HS_GC_UNKNOWN;
    hu->vmstructs.used_offset = -1;
    atomic_init(&hu->vmstructs.collected, 0);
    atomic_init(&hu->gcinfo.read_failure_logged, 0);

    if ((*jni)->PushLocalFrame(jni, 64) != 0) {
        hs_jni_take_exception(jni);
        use_none(hu, "out of JNI local references");
        return hu;
    }
    hs_hotspot_tables tables;
    hs_hotspot_tables_load(&tables, jvmti);
    hs_gc_bean_list beans = {0};
    hu->gc = hs_gc_identify(jvmti, jni, &tables, &beans);
    hu->humongous_threshold = hs_g1_humongous_threshold(hu->gc, &tables, jni);
    if (requested == HS_HEAP_NONE)
        use_none(hu, "heap_source=none");
    else if (requested == HS_HEAP_AUTO)
        choose_auto(hu, &tables, jni, &beans);
    else
        choose_explicit(hu, &tables, jni, requested, &beans);
    (*jni)->PopLocalFrame(jni, NULL);
    return hu;
}

void hs_heap_usage_read(hs_heap_usage *hu, JNIEnv *jni, hs_heap_reading *out) {
    out->valid = 0;
    out->used_bytes = 0;
    out->source = source_name(hu != NULL ? hu->source : HS_HEAP_NONE);
    if (hu == NULL) return;
    if (hu->source == HS_HEAP_VMSTRUCTS)
        out->valid = hs_heap_vmstructs_read(&hu->vmstructs, &out->used_bytes);
    else if (hu->source == HS_HEAP_GCINFO)
        out->valid = hs_heap_gcinfo_read(&hu->gcinfo, jni, &out->used_bytes);
}

const char *hs_heap_usage_gc_name(const hs_heap_usage *hu) {
    return hs_gc_kind_name(hu != NULL ? hu->gc : HS_GC_UNKNOWN);
}

int hs_heap_usage_gc(const hs_heap_usage *hu) { return hu != NULL ? (int)hu->gc : HS_GC_UNKNOWN; }

const char *hs_heap_usage_source(const hs_heap_usage *hu) {
    return source_name(hu != NULL ? hu->source : HS_HEAP_NONE);
}

long hs_heap_usage_vmstructs_offset(const hs_heap_usage *hu) {
    return hu != NULL && hu->source == HS_HEAP_VMSTRUCTS ? hu->vmstructs.used_offset : -1;
}

uint64_t hs_heap_usage_humongous_threshold(const hs_heap_usage *hu) {
    return hu != NULL ? hu->humongous_threshold : 0;
}

void hs_heap_usage_destroy(hs_heap_usage *hu, JNIEnv *jni) {
    if (hu == NULL) return;
    if (jni != NULL) hs_heap_gcinfo_release(&hu->gcinfo, jni);
    free(hu);
}
