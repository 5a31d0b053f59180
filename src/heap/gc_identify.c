/* gc_identify.c: which collector the JVM runs (see gc_identify.h). */
#include "heap/gc_identify.h"

#include <stdlib.h>
#include <string.h>

#include "heap/jni_util.h"
#include "base/log.h"

static const struct {
    const char *bean_name;
    hs_gc_kind kind;
} gc_bean_names[] = {
    {"G1 Young Generation", HS_GC_G1},    {"G1 Old Generation", HS_GC_G1},
    {"G1 Concurrent GC", HS_GC_G1},       {"PS Scavenge", HS_GC_PARALLEL},
    {"PS MarkSweep", HS_GC_PARALLEL},     {"Copy", HS_GC_SERIAL},
    {"MarkSweepCompact", HS_GC_SERIAL},   {"ZGC", HS_GC_Z},
    {"ZGC Cycles", HS_GC_Z},              {"ZGC Pauses", HS_GC_Z},
    {"ZGC Minor Cycles", HS_GC_Z_GENERATIONAL}, {"ZGC Minor Pauses", HS_GC_Z_GENERATIONAL},
    {"ZGC Major Cycles", HS_GC_Z_GENERATIONAL}, {"ZGC Major Pauses", HS_GC_Z_GENERATIONAL},
    {"Shenandoah Cycles", HS_GC_SHENANDOAH},    {"Shenandoah Pauses", HS_GC_SHENANDOAH},
    {"Epsilon Heap", HS_GC_EPSILON},
};

hs_gc_kind hs_gc_classify(const char *const *bean_names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (bean_names[i] == NULL) continue;
        for (size_t k = 0; k < sizeof gc_bean_names / sizeof gc_bean_names[0]; k++)
            if (strcmp(bean_names[i], gc_bean_names[k].bean_name) == 0)
                return gc_bean_names[k].kind;
    }
    return HS_GC_UNKNOWN;
}

/* Exactly one selector flag must be set. Z's mode: ZGenerational where the flag exists (JDK
 * 21-23); before JDK 21 there was only non-generational Z, from JDK 24 only generational Z
 * (JEP 490 removed the flag with the other mode). The same kinds hs_gc_classify derives from
 * the bean names, which differ between the two modes. */
hs_gc_kind hs_gc_classify_flags(const hs_gc_flags *f) {
    const struct {
        int value;
        hs_gc_kind kind;
    } selectors[] = {
        {f->serial, HS_GC_SERIAL}, {f->parallel, HS_GC_PARALLEL},     {f->g1, HS_GC_G1},
        {f->z, HS_GC_Z},           {f->shenandoah, HS_GC_SHENANDOAH}, {f->epsilon, HS_GC_EPSILON},
    };
    hs_gc_kind kind = HS_GC_UNKNOWN;
    int set = 0;
    for (size_t i = 0; i < sizeof selectors / sizeof selectors[0]; i++) {
        if (selectors[i].value == 1) {
            kind = selectors[i].kind;
            set++;
        }
    }
    if (set != 1) return HS_GC_UNKNOWN;
    if (kind != HS_GC_Z) return kind;
    if (f->z_generational >= 0) return f->z_generational ? HS_GC_Z_GENERATIONAL : HS_GC_Z;
    if (f->feature_version >= 24) return HS_GC_Z_GENERATIONAL;
    if (f->feature_version > 0 && f->feature_version < 21) return HS_GC_Z;
    return HS_GC_UNKNOWN;
}

const char *hs_gc_kind_name(hs_gc_kind kind) {
    switch (kind) {
    case HS_GC_G1: return "G1";
    case HS_GC_PARALLEL: return "Parallel";
    case HS_GC_SERIAL: return "Serial";
    case HS_GC_Z: return "Z";
    case HS_GC_Z_GENERATIONAL: return "Z (generational)";
    case HS_GC_SHENANDOAH: return "Shenandoah";
    case HS_GC_EPSILON: return "Epsilon";
    case HS_GC_UNKNOWN: break;
    }
    return "unknown";
}

int hs_gc_updates_used_at_last_gc(hs_gc_kind kind) {
    return kind == HS_GC_G1 || kind == HS_GC_SHENANDOAH || kind == HS_GC_Z;
}

const char *hs_gc_vmstructs_unsuitable_reason(hs_gc_kind kind) {
    switch (kind) {
    case HS_GC_PARALLEL:
    case HS_GC_SERIAL: return "only full GCs update CollectedHeap::_used_at_last_gc";
    case HS_GC_Z_GENERATIONAL:
        return "only major collections update CollectedHeap::_used_at_last_gc";
    case HS_GC_EPSILON: return "Epsilon never collects the heap";
    default: return "the collector is not identified";
    }
}

/* ManagementFactory.getGarbageCollectorMXBeans() with their names. Leaves list->count 0 and
 * sets list->failure when java.management is unusable. */
static void list_gc_beans(JNIEnv *jni, hs_gc_bean_list *list) {
    memset(list, 0, sizeof *list);
    list->state = -1;
    jobject beans = hs_jni_call_static_object(jni, "java/lang/management/ManagementFactory",
                                              "getGarbageCollectorMXBeans", "()Ljava/util/List;");
    jclass manager = hs_jni_find_class(jni, "java/lang/management/MemoryManagerMXBean");
    jmethodID get_name = hs_jni_find_method(jni, manager, "getName", "()Ljava/lang/String;");
    hs_java_list l;
    int n = hs_java_list_open(jni, beans, &l) == 0 ? hs_java_list_size(jni, &l) : -1;
    if (n < 0 || get_name == NULL) {
        list->failure = "cannot list the garbage collector MXBeans";
        return;
    }
    if (n > HS_MAX_GC_BEANS) n = HS_MAX_GC_BEANS;
    for (int i = 0; i < n; i++) {
        list->beans[i] = hs_java_list_get(jni, &l, i);
        if (list->beans[i] == NULL) {
            list->failure = "cannot read the garbage collector MXBeans";
            return;
        }
        jstring name = (*jni)->CallObjectMethod(jni, list->beans[i], get_name);
        if (hs_jni_take_exception(jni)) name = NULL;
        hs_jni_copy_string(jni, name, list->names[i], HS_GC_NAME_MAX);
        if (name != NULL) (*jni)->DeleteLocalRef(jni, name);
        list->name_ptrs[i] = list->names[i];
    }
    list->count = (size_t)n;
    list->state = 1;
}

int hs_gc_beans(JNIEnv *jni, hs_gc_bean_list *list) {
    if (list->state == 0) list_gc_beans(jni, list);
    return list->state == 1 ? 0 : -1;
}

/* The Java SE feature version (17, 25) from java.vm.specification.version, a property the VM
 * defines itself (JVMTI does not see java.specification.version, which the class library sets:
 * it reads as absent at VMInit); 0 when unknown. */
static int feature_version(jvmtiEnv *jvmti) {
    char value[32];
    if (hs_jvm_property(jvmti, "java.vm.specification.version", value, sizeof value) != 0) return 0;
    int version = atoi(value);
    return version > 0 ? version : 0;
}

static hs_gc_kind gc_from_flags(jvmtiEnv *jvmti, const hs_hotspot_tables *tables) {
    hs_gc_flags f = {
        .serial = hs_hotspot_bool_flag(tables, "UseSerialGC"),
        .parallel = hs_hotspot_bool_flag(tables, "UseParallelGC"),
        .g1 = hs_hotspot_bool_flag(tables, "UseG1GC"),
        .z = hs_hotspot_bool_flag(tables, "UseZGC"),
        .shenandoah = hs_hotspot_bool_flag(tables, "UseShenandoahGC"),
        .epsilon = hs_hotspot_bool_flag(tables, "UseEpsilonGC"),
        .z_generational = hs_hotspot_bool_flag(tables, "ZGenerational"),
        .feature_version = feature_version(jvmti),
    };
    hs_gc_kind kind = hs_gc_classify_flags(&f);
    hs_debug("collector flags: UseSerialGC=%d UseParallelGC=%d UseG1GC=%d UseZGC=%d "
             "UseShenandoahGC=%d UseEpsilonGC=%d ZGenerational=%d (-1: no such flag), "
             "Java %d: %s", f.serial, f.parallel, f.g1, f.z, f.shenandoah, f.epsilon,
             f.z_generational, f.feature_version, hs_gc_kind_name(kind));
    return kind;
}

hs_gc_kind hs_gc_identify(jvmtiEnv *jvmti, JNIEnv *jni, const hs_hotspot_tables *tables,
                          hs_gc_bean_list *beans) {
    if (tables->flags_ok) {
        hs_gc_kind kind = gc_from_flags(jvmti, tables);
        if (kind != HS_GC_UNKNOWN) return kind;
    } else {
        hs_debug("no -XX flags in VMStructs (%s): collector from its MXBeans", tables->flags_why);
    }
    if (hs_gc_beans(jni, beans) != 0) {
        hs_info("%s: collector unknown", beans->failure);
        return HS_GC_UNKNOWN;
    }
    return hs_gc_classify(beans->name_ptrs, beans->count);
}
