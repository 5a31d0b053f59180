/* heap_usage.c: "heap used after the last GC" from VMStructs or GcInfo (see heap_usage.h).
 *
 * Everything the JVM side needs is resolved once in hs_heap_usage_create, on the VMInit
 * thread: the collector's identity (from the -XX flags in VMStructs, else from its MXBean
 * names), the calibrated field offset for vmstructs, or the global references and method ids
 * for gcinfo. Reads then do no lookups. The management beans are touched only when needed
 * (gcinfo, or flags that do not tell): listing them loads ~340 classes, ~60 ms of CPU.
 * JNI rules kept throughout: every call that can throw is followed by an exception check that
 * clears the exception, and local references live in a PushLocalFrame/PopLocalFrame pair. */
#include "heap_usage.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotspot_tables.h"
#include "log.h"
#include "vmstructs.h"

/* Real JVMs have at most 4 collector beans and 2-3 heap pools. */
#define HS_MAX_GC_BEANS 8
#define HS_MAX_HEAP_POOLS 16
#define HS_GC_NAME_MAX 64
#define HS_WHY_MAX 192
/* Calibration accepts a capacity up to 1/HS_CALIBRATION_SLACK below totalMemory(). */
#define HS_CALIBRATION_SLACK 8

struct hs_heap_usage {
    hs_heap_source source;
    hs_gc_kind gc;
    uint64_t humongous_threshold; /* G1: half the region size in bytes; else 0 */

    /* vmstructs */
    const unsigned char *heap; /* the CollectedHeap object */
    long used_offset;          /* CollectedHeap::_used_at_last_gc, -1 if not calibrated */
    uint64_t startup_used;     /* its value at calibration: the heap usage at startup */
    atomic_int collected;      /* set once the field has changed: a collection wrote it */

    /* gcinfo: global references, and method ids of classes that are never unloaded */
    jclass gc_bean_class, gc_info_class, map_class, usage_class;
    jobject gc_beans[HS_MAX_GC_BEANS]; /* com.sun.management.GarbageCollectorMXBean */
    int gc_bean_count;
    jstring heap_pools[HS_MAX_HEAP_POOLS]; /* names of the HEAP memory pools */
    int heap_pool_count;
    jmethodID get_last_gc_info, get_end_time, get_usage_after_gc, map_get, get_used;
    atomic_int read_failure_logged;
};

/* The collector beans, as local references of create's frame. Listed only when needed (the
 * flags do not tell the collector, or gcinfo is set up): listing them loads ~340 classes. */
typedef struct {
    int state; /* 0: not listed yet; 1: listed; -1: listing failed */
    const char *failure; /* when state is -1: what failed */
    jobject beans[HS_MAX_GC_BEANS];
    char names[HS_MAX_GC_BEANS][HS_GC_NAME_MAX];
    const char *name_ptrs[HS_MAX_GC_BEANS];
    size_t count;
} gc_bean_list;

/* ---- Pure helpers ---------------------------------------------------------------------- */

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

/* Why heap_source=auto does not use vmstructs for this collector. */
static const char *vmstructs_unsuitable_reason(hs_gc_kind kind) {
    switch (kind) {
    case HS_GC_PARALLEL:
    case HS_GC_SERIAL: return "only full GCs update CollectedHeap::_used_at_last_gc";
    case HS_GC_Z_GENERATIONAL:
        return "only major collections update CollectedHeap::_used_at_last_gc";
    case HS_GC_EPSILON: return "Epsilon never collects the heap";
    default: return "the collector is not identified";
    }
}

static uint64_t heap_word(const void *heap, long offset) {
    uint64_t word;
    memcpy(&word, (const unsigned char *)heap + offset, sizeof word);
    return word;
}

/* Finds the one candidate c whose preceding word is a capacity in [low, total_memory] and
 * whose own word (a used figure) does not exceed that capacity; -1 if none or several. */
static long unique_candidate(const void *heap, long reserved_offset, uint64_t low,
                             uint64_t total_memory) {
    long found = -1;
    int matches = 0;
    for (long back = 8; back <= 24; back += 8) {
        long c = reserved_offset - back; /* candidate _used_at_last_gc */
        if (c - 8 < 0) break;
        uint64_t capacity = heap_word(heap, c - 8); /* candidate _capacity_at_last_gc */
        if (capacity >= low && capacity <= total_memory && heap_word(heap, c) <= capacity) {
            found = c;
            matches++;
        }
    }
    return matches == 1 ? found : -1;
}

long hs_heap_calibrate_used_at_last_gc(const void *heap, long reserved_offset,
                                       uint64_t total_memory, int *exact) {
    if (exact != NULL) *exact = 0;
    if (heap == NULL || total_memory == 0) return -1;
    long c = unique_candidate(heap, reserved_offset, total_memory, total_memory);
    if (c >= 0) {
        if (exact != NULL) *exact = 1;
        return c;
    }
    /* The heap may have committed more memory between universe_post_init, which recorded the
     * capacity, and VMInit (JDK 25 Shenandoah with default sizing grows by a region). Pointers
     * and counters, the other words there, are nowhere near a heap size. */
    return unique_candidate(heap, reserved_offset,
                            total_memory - total_memory / HS_CALIBRATION_SLACK, total_memory);
}

static int is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

int hs_g1_region_size_parse(const char *text, uint64_t *region_size) {
    if (text == NULL || *text == '\0') return -1;
    uint64_t value = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p)) return -1;
        unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10) return -1;
        value = value * 10 + digit;
    }
    if (!is_power_of_two(value)) return -1;
    *region_size = value;
    return 0;
}

static const char *source_name(hs_heap_source source) {
    switch (source) {
    case HS_HEAP_VMSTRUCTS: return "vmstructs";
    case HS_HEAP_GCINFO: return "gcinfo";
    default: return "none";
    }
}

/* ---- JNI helpers ----------------------------------------------------------------------- */

/* Clears a pending exception; returns 1 if there was one. */
static int take_exception(JNIEnv *jni) {
    if (!(*jni)->ExceptionCheck(jni)) return 0;
    (*jni)->ExceptionClear(jni);
    return 1;
}

static jclass find_class(JNIEnv *jni, const char *name) {
    jclass cls = (*jni)->FindClass(jni, name);
    return take_exception(jni) ? NULL : cls;
}

static jmethodID find_method(JNIEnv *jni, jclass cls, const char *name, const char *sig) {
    if (cls == NULL) return NULL;
    jmethodID m = (*jni)->GetMethodID(jni, cls, name, sig);
    return take_exception(jni) ? NULL : m;
}

/* Calls a no-argument static method returning an object; NULL on any failure. */
static jobject call_static_object(JNIEnv *jni, const char *class_name, const char *name,
                                  const char *sig) {
    jclass cls = find_class(jni, class_name);
    if (cls == NULL) return NULL;
    jmethodID m = (*jni)->GetStaticMethodID(jni, cls, name, sig);
    if (take_exception(jni) || m == NULL) return NULL;
    jobject result = (*jni)->CallStaticObjectMethod(jni, cls, m);
    return take_exception(jni) ? NULL : result;
}

/* Copies a Java string into buf (truncated, NUL-terminated); "" on failure. */
static void copy_java_string(JNIEnv *jni, jstring s, char *buf, size_t len) {
    buf[0] = '\0';
    if (s == NULL) return;
    const char *utf = (*jni)->GetStringUTFChars(jni, s, NULL);
    if (take_exception(jni) || utf == NULL) return;
    snprintf(buf, len, "%s", utf);
    (*jni)->ReleaseStringUTFChars(jni, s, utf);
}

/* java.util.List access: size() and get(i). */
typedef struct {
    jobject list;
    jmethodID size, get;
} java_list;

static int java_list_open(JNIEnv *jni, jobject list, java_list *out) {
    jclass list_class = find_class(jni, "java/util/List");
    out->list = list;
    out->size = find_method(jni, list_class, "size", "()I");
    out->get = find_method(jni, list_class, "get", "(I)Ljava/lang/Object;");
    if (list_class != NULL) (*jni)->DeleteLocalRef(jni, list_class);
    return list != NULL && out->size != NULL && out->get != NULL ? 0 : -1;
}

/* The list's size, or -1 on failure. */
static int java_list_size(JNIEnv *jni, const java_list *l) {
    jint n = (*jni)->CallIntMethod(jni, l->list, l->size);
    return take_exception(jni) ? -1 : (int)n;
}

/* Element i as a local reference, or NULL on failure. */
static jobject java_list_get(JNIEnv *jni, const java_list *l, int i) {
    jobject element = (*jni)->CallObjectMethod(jni, l->list, l->get, (jint)i);
    return take_exception(jni) ? NULL : element;
}

/* ManagementFactory.getGarbageCollectorMXBeans() with their names. Leaves list->count 0 and
 * sets list->failure when java.management is unusable. */
static void list_gc_beans(JNIEnv *jni, gc_bean_list *list) {
    memset(list, 0, sizeof *list);
    list->state = -1;
    jobject beans = call_static_object(jni, "java/lang/management/ManagementFactory",
                                       "getGarbageCollectorMXBeans", "()Ljava/util/List;");
    jclass manager = find_class(jni, "java/lang/management/MemoryManagerMXBean");
    jmethodID get_name = find_method(jni, manager, "getName", "()Ljava/lang/String;");
    java_list l;
    int n = java_list_open(jni, beans, &l) == 0 ? java_list_size(jni, &l) : -1;
    if (n < 0 || get_name == NULL) {
        list->failure = "cannot list the garbage collector MXBeans";
        return;
    }
    if (n > HS_MAX_GC_BEANS) n = HS_MAX_GC_BEANS;
    for (int i = 0; i < n; i++) {
        list->beans[i] = java_list_get(jni, &l, i);
        if (list->beans[i] == NULL) {
            list->failure = "cannot read the garbage collector MXBeans";
            return;
        }
        jstring name = (*jni)->CallObjectMethod(jni, list->beans[i], get_name);
        if (take_exception(jni)) name = NULL;
        copy_java_string(jni, name, list->names[i], HS_GC_NAME_MAX);
        if (name != NULL) (*jni)->DeleteLocalRef(jni, name);
        list->name_ptrs[i] = list->names[i];
    }
    list->count = (size_t)n;
    list->state = 1;
}

/* The beans, listed on first use. Returns 0, or -1 (list->failure says why). */
static int gc_beans(JNIEnv *jni, gc_bean_list *list) {
    if (list->state == 0) list_gc_beans(jni, list);
    return list->state == 1 ? 0 : -1;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- vmstructs ------------------------------------------------------------------------- */

static int runtime_total_memory(JNIEnv *jni, uint64_t *out) {
    jobject runtime =
        call_static_object(jni, "java/lang/Runtime", "getRuntime", "()Ljava/lang/Runtime;");
    jclass cls = find_class(jni, "java/lang/Runtime");
    jmethodID total = find_method(jni, cls, "totalMemory", "()J");
    if (runtime == NULL || total == NULL) return -1;
    jlong bytes = (*jni)->CallLongMethod(jni, runtime, total);
    if (take_exception(jni) || bytes <= 0) return -1;
    *out = (uint64_t)bytes;
    return 0;
}

/* For a failed calibration: the words the candidates were taken from. */
static void log_words_before(const unsigned char *heap, long reserved_offset) {
    char words[160] = "";
    size_t len = 0;
    for (long c = reserved_offset - 32; c < reserved_offset && len < sizeof words; c += 8) {
        if (c < 0) continue;
        int n = snprintf(words + len, sizeof words - len, " @%ld=%llu", c,
                         (unsigned long long)heap_word(heap, c));
        if (n > 0) len += (size_t)n;
    }
    hs_debug("CollectedHeap words before _reserved:%s", words);
}

/* Locates the CollectedHeap and calibrates _used_at_last_gc. Returns 0, or -1 with why. */
static int setup_vmstructs(hs_heap_usage *hu, const hs_hotspot_tables *tables, JNIEnv *jni,
                           char *why) {
    if (!tables->structs_ok) {
        snprintf(why, HS_WHY_MAX, "%s", tables->why);
        return -1;
    }
    const hs_vmstructs_layout *layout = &tables->structs;
    hs_vmstructs_field heap_field, reserved;
    if (hs_vmstructs_find(layout, "Universe", "_collectedHeap", &heap_field) != 0 ||
        !heap_field.is_static || heap_field.address == NULL) {
        snprintf(why, HS_WHY_MAX, "no static Universe::_collectedHeap in VMStructs");
        return -1;
    }
    if (hs_vmstructs_find(layout, "CollectedHeap", "_reserved", &reserved) != 0 ||
        reserved.is_static || reserved.offset < 16 || reserved.offset > 4096) {
        snprintf(why, HS_WHY_MAX, "no usable CollectedHeap::_reserved in VMStructs");
        return -1;
    }
    const unsigned char *heap;
    memcpy(&heap, heap_field.address, sizeof heap);
    uint64_t total_memory;
    if (heap == NULL || runtime_total_memory(jni, &total_memory) != 0) {
        snprintf(why, HS_WHY_MAX, "no CollectedHeap or Runtime.totalMemory() yet");
        return -1;
    }
    int exact;
    long offset =
        hs_heap_calibrate_used_at_last_gc(heap, (long)reserved.offset, total_memory, &exact);
    if (offset < 0) {
        log_words_before(heap, (long)reserved.offset);
        snprintf(why, HS_WHY_MAX,
                 "no single field before CollectedHeap::_reserved (offset %llu) matches "
                 "Runtime.totalMemory() = %llu (late attach or unknown layout)",
                 (unsigned long long)reserved.offset, (unsigned long long)total_memory);
        return -1;
    }
    if (!exact)
        hs_info("CollectedHeap::_capacity_at_last_gc = %llu, below Runtime.totalMemory() = %llu: "
                "the heap grew during startup",
                (unsigned long long)heap_word(heap, offset - 8), (unsigned long long)total_memory);
    hu->heap = heap;
    hu->used_offset = offset;
    hu->startup_used = heap_word(heap, offset);
    return 0;
}

/* Until the first collection the field holds the heap usage at startup, which is no figure.
 * Only a collection writes the field, so a value different from the startup one proves that one
 * has run. (CollectedHeap::_total_collections cannot tell: Shenandoah never increments it.) */
static void read_vmstructs(hs_heap_usage *hu, hs_heap_reading *out) {
    /* The GC writes the word at any time; an atomic load gives a whole, recent value. */
    const uint64_t *field = (const uint64_t *)(hu->heap + hu->used_offset);
    uint64_t used = __atomic_load_n(field, __ATOMIC_RELAXED);
    if (!atomic_load(&hu->collected)) {
        if (used == hu->startup_used) return;
        atomic_store(&hu->collected, 1);
    }
    out->used_bytes = used;
    out->valid = 1;
}

/* ---- gcinfo ---------------------------------------------------------------------------- */

static void release_gcinfo(hs_heap_usage *hu, JNIEnv *jni) {
    jclass *classes[] = {&hu->gc_bean_class, &hu->gc_info_class, &hu->map_class,
                         &hu->usage_class};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (*classes[i] != NULL) (*jni)->DeleteGlobalRef(jni, *classes[i]);
        *classes[i] = NULL;
    }
    for (int i = 0; i < hu->gc_bean_count; i++) (*jni)->DeleteGlobalRef(jni, hu->gc_beans[i]);
    for (int i = 0; i < hu->heap_pool_count; i++) (*jni)->DeleteGlobalRef(jni, hu->heap_pools[i]);
    hu->gc_bean_count = 0;
    hu->heap_pool_count = 0;
}

/* Global references to the names of the memory pools of type HEAP. */
static int find_heap_pools(hs_heap_usage *hu, JNIEnv *jni) {
    jobject pools_list = call_static_object(jni, "java/lang/management/ManagementFactory",
                                            "getMemoryPoolMXBeans", "()Ljava/util/List;");
    jclass pool_class = find_class(jni, "java/lang/management/MemoryPoolMXBean");
    jclass type_class = find_class(jni, "java/lang/management/MemoryType");
    jmethodID get_type = find_method(jni, pool_class, "getType",
                                     "()Ljava/lang/management/MemoryType;");
    jmethodID get_name = find_method(jni, pool_class, "getName", "()Ljava/lang/String;");
    if (pools_list == NULL || type_class == NULL || get_type == NULL || get_name == NULL) return -1;
    jfieldID heap_field = (*jni)->GetStaticFieldID(jni, type_class, "HEAP",
                                                   "Ljava/lang/management/MemoryType;");
    if (take_exception(jni) || heap_field == NULL) return -1;
    jobject heap_type = (*jni)->GetStaticObjectField(jni, type_class, heap_field);
    if (take_exception(jni) || heap_type == NULL) return -1;

    java_list l;
    int n = java_list_open(jni, pools_list, &l) == 0 ? java_list_size(jni, &l) : -1;
    for (int i = 0; i < n && hu->heap_pool_count < HS_MAX_HEAP_POOLS; i++) {
        jobject pool = java_list_get(jni, &l, i);
        jobject type = pool != NULL ? (*jni)->CallObjectMethod(jni, pool, get_type) : NULL;
        if (take_exception(jni) || type == NULL) return -1;
        if ((*jni)->IsSameObject(jni, type, heap_type)) {
            jobject name = (*jni)->CallObjectMethod(jni, pool, get_name);
            if (take_exception(jni) || name == NULL) return -1;
            hu->heap_pools[hu->heap_pool_count] = (*jni)->NewGlobalRef(jni, name);
            (*jni)->DeleteLocalRef(jni, name);
            if (hu->heap_pools[hu->heap_pool_count] == NULL) return -1;
            hu->heap_pool_count++;
        }
        (*jni)->DeleteLocalRef(jni, type);
        (*jni)->DeleteLocalRef(jni, pool);
    }
    return hu->heap_pool_count > 0 ? 0 : -1;
}

static int keep_class(JNIEnv *jni, const char *name, jclass *out) {
    jclass local = find_class(jni, name);
    *out = local != NULL ? (*jni)->NewGlobalRef(jni, local) : NULL;
    return *out != NULL ? 0 : -1;
}

/* Resolves the com.sun.management classes and keeps the collector beans that have a GcInfo
 * (the "... Pauses" beans of ZGC and Shenandoah describe pauses, not collections). */
static int setup_gcinfo(hs_heap_usage *hu, JNIEnv *jni, gc_bean_list *beans, char *why) {
    if (gc_beans(jni, beans) != 0) {
        snprintf(why, HS_WHY_MAX, "%s", beans->failure);
        return -1;
    }
    if (keep_class(jni, "com/sun/management/GarbageCollectorMXBean", &hu->gc_bean_class) != 0 ||
        keep_class(jni, "com/sun/management/GcInfo", &hu->gc_info_class) != 0 ||
        keep_class(jni, "java/util/Map", &hu->map_class) != 0 ||
        keep_class(jni, "java/lang/management/MemoryUsage", &hu->usage_class) != 0) {
        snprintf(why, HS_WHY_MAX, "com.sun.management (module jdk.management) is not available");
        goto fail;
    }
    hu->get_last_gc_info = find_method(jni, hu->gc_bean_class, "getLastGcInfo",
                                       "()Lcom/sun/management/GcInfo;");
    hu->get_end_time = find_method(jni, hu->gc_info_class, "getEndTime", "()J");
    hu->get_usage_after_gc =
        find_method(jni, hu->gc_info_class, "getMemoryUsageAfterGc", "()Ljava/util/Map;");
    hu->map_get = find_method(jni, hu->map_class, "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
    hu->get_used = find_method(jni, hu->usage_class, "getUsed", "()J");
    if (!hu->get_last_gc_info || !hu->get_end_time || !hu->get_usage_after_gc || !hu->map_get ||
        !hu->get_used) {
        snprintf(why, HS_WHY_MAX, "com.sun.management.GcInfo methods not found");
        goto fail;
    }
    for (size_t i = 0; i < beans->count; i++) {
        if (!(*jni)->IsInstanceOf(jni, beans->beans[i], hu->gc_bean_class) ||
            ends_with(beans->names[i], "Pauses"))
            continue;
        jobject global = (*jni)->NewGlobalRef(jni, beans->beans[i]);
        if (global == NULL) continue;
        hu->gc_beans[hu->gc_bean_count++] = global;
    }
    if (hu->gc_bean_count == 0) {
        snprintf(why, HS_WHY_MAX, "no com.sun.management.GarbageCollectorMXBean");
        goto fail;
    }
    if (find_heap_pools(hu, jni) != 0) {
        snprintf(why, HS_WHY_MAX, "cannot list the heap memory pools");
        goto fail;
    }
    return 0;
fail:
    take_exception(jni);
    release_gcinfo(hu, jni);
    return -1;
}

static void log_read_failure(hs_heap_usage *hu, const char *what) {
    if (atomic_exchange(&hu->read_failure_logged, 1) == 0)
        hs_warn("heap usage from GcInfo failed in %s; no heap figure this time (logged once)",
                what);
}

/* The GcInfo of the collector that finished last, as a local reference, or NULL. */
static jobject latest_gc_info(hs_heap_usage *hu, JNIEnv *jni, const char **failed) {
    jobject best = NULL;
    jlong best_end = -1;
    for (int i = 0; i < hu->gc_bean_count; i++) {
        jobject info = (*jni)->CallObjectMethod(jni, hu->gc_beans[i], hu->get_last_gc_info);
        if (take_exception(jni)) {
            *failed = "getLastGcInfo()";
            return NULL;
        }
        if (info == NULL) continue; /* this collector has not run yet */
        jlong end = (*jni)->CallLongMethod(jni, info, hu->get_end_time);
        if (take_exception(jni)) {
            *failed = "GcInfo.getEndTime()";
            return NULL;
        }
        if (end > best_end) {
            if (best != NULL) (*jni)->DeleteLocalRef(jni, best);
            best = info;
            best_end = end;
        } else {
            (*jni)->DeleteLocalRef(jni, info);
        }
    }
    return best;
}

/* Sums the heap pools' used bytes in a GcInfo's usage-after-GC map. */
static int sum_heap_usage_after(hs_heap_usage *hu, JNIEnv *jni, jobject info, uint64_t *sum,
                                const char **failed) {
    jobject usage_map = (*jni)->CallObjectMethod(jni, info, hu->get_usage_after_gc);
    if (take_exception(jni) || usage_map == NULL) {
        *failed = "GcInfo.getMemoryUsageAfterGc()";
        return -1;
    }
    int found = 0;
    *sum = 0;
    for (int i = 0; i < hu->heap_pool_count; i++) {
        jobject usage = (*jni)->CallObjectMethod(jni, usage_map, hu->map_get, hu->heap_pools[i]);
        if (take_exception(jni)) {
            *failed = "Map.get()";
            return -1;
        }
        if (usage == NULL) continue;
        jlong used = (*jni)->CallLongMethod(jni, usage, hu->get_used);
        (*jni)->DeleteLocalRef(jni, usage);
        if (take_exception(jni)) {
            *failed = "MemoryUsage.getUsed()";
            return -1;
        }
        if (used > 0) *sum += (uint64_t)used;
        found++;
    }
    return found > 0 ? 0 : -1;
}

static void read_gcinfo(hs_heap_usage *hu, JNIEnv *jni, hs_heap_reading *out) {
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        take_exception(jni);
        log_read_failure(hu, "PushLocalFrame");
        return;
    }
    const char *failed = NULL;
    uint64_t sum = 0;
    jobject info = latest_gc_info(hu, jni, &failed);
    if (info != NULL && sum_heap_usage_after(hu, jni, info, &sum, &failed) == 0) {
        out->used_bytes = sum;
        out->valid = 1;
    }
    (*jni)->PopLocalFrame(jni, NULL);
    if (failed != NULL) log_read_failure(hu, failed);
}

/* ---- G1 humongous threshold ----------------------------------------------------------- */

/* HotSpotDiagnosticMXBean.getVMOption("G1HeapRegionSize").getValue() as a local reference, or
 * NULL (module jdk.management absent, or an exception). */
static jstring region_size_flag_value(JNIEnv *jni) {
    jclass factory = find_class(jni, "java/lang/management/ManagementFactory");
    jclass diagnostic = find_class(jni, "com/sun/management/HotSpotDiagnosticMXBean");
    jclass option_class = find_class(jni, "com/sun/management/VMOption");
    jmethodID get_option = find_method(jni, diagnostic, "getVMOption",
                                       "(Ljava/lang/String;)Lcom/sun/management/VMOption;");
    jmethodID get_value = find_method(jni, option_class, "getValue", "()Ljava/lang/String;");
    if (factory == NULL || get_option == NULL || get_value == NULL) return NULL;
    jmethodID get_bean = (*jni)->GetStaticMethodID(
        jni, factory, "getPlatformMXBean",
        "(Ljava/lang/Class;)Ljava/lang/management/PlatformManagedObject;");
    if (take_exception(jni) || get_bean == NULL) return NULL;
    jobject bean = (*jni)->CallStaticObjectMethod(jni, factory, get_bean, diagnostic);
    if (take_exception(jni) || bean == NULL) return NULL;
    jstring flag = (*jni)->NewStringUTF(jni, "G1HeapRegionSize");
    if (take_exception(jni) || flag == NULL) return NULL;
    jobject option = (*jni)->CallObjectMethod(jni, bean, get_option, flag);
    if (take_exception(jni) || option == NULL) return NULL;
    jstring value = (*jni)->CallObjectMethod(jni, option, get_value);
    return take_exception(jni) ? NULL : value;
}

/* The region size from the G1HeapRegionSize flag, which G1 sets ergonomically when the user
 * did not, so it holds the size in use. Returns 0 or -1. */
static int region_size_from_flag(JNIEnv *jni, uint64_t *region_size) {
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        take_exception(jni);
        return -1;
    }
    int rc = -1;
    jstring value = region_size_flag_value(jni);
    const char *utf = value != NULL ? (*jni)->GetStringUTFChars(jni, value, NULL) : NULL;
    if (take_exception(jni)) utf = NULL;
    if (utf != NULL) {
        rc = hs_g1_region_size_parse(utf, region_size);
        if (rc != 0) hs_debug("G1HeapRegionSize reads \"%s\": not a region size", utf);
        (*jni)->ReleaseStringUTFChars(jni, value, utf);
    }
    (*jni)->PopLocalFrame(jni, NULL);
    return rc;
}

/* The static GrainBytes of G1's region class, renamed from HeapRegion to G1HeapRegion in
 * JDK 23. Returns 0 or -1. */
static int region_size_from_grain_bytes(const hs_hotspot_tables *tables, uint64_t *region_size,
                                        const char **where) {
    static const char *const region_types[] = {"G1HeapRegion", "HeapRegion"};
    if (!tables->structs_ok) {
        hs_debug("no VMStructs for GrainBytes: %s", tables->why);
        return -1;
    }
    for (size_t i = 0; i < sizeof region_types / sizeof region_types[0]; i++) {
        hs_vmstructs_field grain;
        if (hs_vmstructs_find(&tables->structs, region_types[i], "GrainBytes", &grain) != 0 ||
            !grain.is_static || grain.address == NULL)
            continue;
        size_t bytes;
        memcpy(&bytes, grain.address, sizeof bytes);
        if (!is_power_of_two(bytes)) return -1;
        *region_size = bytes;
        *where = region_types[i];
        return 0;
    }
    return -1;
}

/* The G1HeapRegionSize flag read in the JVM's flag table, without the management beans. */
static int region_size_from_flag_table(const hs_hotspot_tables *tables, uint64_t *region_size) {
    uint64_t bytes;
    if (hs_hotspot_size_flag(tables, "G1HeapRegionSize", &bytes) != 0 || !is_power_of_two(bytes))
        return -1;
    *region_size = bytes;
    return 0;
}

/* Tried in order of cost: the flag in the flag table, GrainBytes (both plain reads), then the
 * flag through HotSpotDiagnosticMXBean (loads the management classes). With the collector
 * unknown (no flag table, no java.management module) GrainBytes still tells: only G1 sets it,
 * while processing its arguments; with the other collectors it stays 0. */
static void find_humongous_threshold(hs_heap_usage *hu, const hs_hotspot_tables *tables,
                                     JNIEnv *jni) {
    if (hu->gc != HS_GC_G1 && hu->gc != HS_GC_UNKNOWN) return;
    uint64_t region_size = 0;
    const char *grain_type = NULL;
    char source[64];
    if (hu->gc == HS_GC_G1 && region_size_from_flag_table(tables, &region_size) == 0) {
        snprintf(source, sizeof source, "the G1HeapRegionSize flag in VMStructs");
    } else if (region_size_from_grain_bytes(tables, &region_size, &grain_type) == 0) {
        snprintf(source, sizeof source, "VMStructs %s::GrainBytes%s", grain_type,
                 hu->gc == HS_GC_UNKNOWN ? ", so the collector is G1" : "");
    } else if (hu->gc == HS_GC_G1 && region_size_from_flag(jni, &region_size) == 0) {
        snprintf(source, sizeof source, "the G1HeapRegionSize flag");
    } else {
        if (hu->gc == HS_GC_G1)
            hs_info("G1 humongous threshold unknown: neither the G1HeapRegionSize flag nor "
                    "VMStructs GrainBytes could be read");
        return;
    }
    hu->humongous_threshold = region_size / 2;
    hs_info("G1 humongous threshold: %llu bytes (region size %llu, from %s)",
            (unsigned long long)hu->humongous_threshold, (unsigned long long)region_size,
            source);
}

/* ---- Identifying the collector --------------------------------------------------------- */

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

/* From the -XX flags when they name one collector (no class loaded), else from the names of
 * the collector MXBeans. */
static hs_gc_kind identify_gc(jvmtiEnv *jvmti, JNIEnv *jni, const hs_hotspot_tables *tables,
                              gc_bean_list *beans) {
    if (tables->flags_ok) {
        hs_gc_kind kind = gc_from_flags(jvmti, tables);
        if (kind != HS_GC_UNKNOWN) return kind;
    } else {
        hs_debug("no -XX flags in VMStructs (%s): collector from its MXBeans", tables->flags_why);
    }
    if (gc_beans(jni, beans) != 0) {
        hs_info("%s: collector unknown", beans->failure);
        return HS_GC_UNKNOWN;
    }
    return hs_gc_classify(beans->name_ptrs, beans->count);
}

/* ---- Choosing the source --------------------------------------------------------------- */

static void use_vmstructs(hs_heap_usage *hu) {
    hu->source = HS_HEAP_VMSTRUCTS;
    hs_info("heap source vmstructs: CollectedHeap::_used_at_last_gc at offset %ld (%s)",
            hu->used_offset, hs_gc_kind_name(hu->gc));
}

static void use_gcinfo(hs_heap_usage *hu) {
    hu->source = HS_HEAP_GCINFO;
    hs_info("heap source gcinfo (%s)", hs_gc_kind_name(hu->gc));
}

static void use_none(hs_heap_usage *hu, const char *why) {
    hu->source = HS_HEAP_NONE;
    hu->used_offset = -1;
    hs_info("heap source none (%s): %s", hs_gc_kind_name(hu->gc), why);
}

static void choose_explicit(hs_heap_usage *hu, const hs_hotspot_tables *tables, JNIEnv *jni,
                            hs_heap_source requested, gc_bean_list *beans) {
    char why[HS_WHY_MAX] = "";
    if (requested == HS_HEAP_VMSTRUCTS) {
        if (setup_vmstructs(hu, tables, jni, why) == 0) {
            if (!hs_gc_updates_used_at_last_gc(hu->gc))
                hs_warn("heap_source=vmstructs with the %s collector: %s; readings may lag or "
                        "be missing", hs_gc_kind_name(hu->gc), vmstructs_unsuitable_reason(hu->gc));
            use_vmstructs(hu);
            return;
        }
        hs_warn("heap_source=vmstructs unavailable: %s; no heap figure (try heap_source=auto)",
                why);
    } else {
        if (setup_gcinfo(hu, jni, beans, why) == 0) {
            use_gcinfo(hu);
            return;
        }
        hs_warn("heap_source=gcinfo unavailable: %s; no heap figure", why);
    }
    use_none(hu, "the requested source is unavailable");
}

static void choose_auto(hs_heap_usage *hu, const hs_hotspot_tables *tables, JNIEnv *jni,
                        gc_bean_list *beans) {
    char why[HS_WHY_MAX] = "";
    if (hu->gc == HS_GC_EPSILON) {
        use_none(hu, vmstructs_unsuitable_reason(hu->gc));
        return;
    }
    if (!hs_gc_updates_used_at_last_gc(hu->gc)) {
        hs_info("vmstructs not used with %s: %s", hs_gc_kind_name(hu->gc),
                vmstructs_unsuitable_reason(hu->gc));
    } else if (setup_vmstructs(hu, tables, jni, why) == 0) {
        use_vmstructs(hu);
        return;
    } else {
        hs_info("vmstructs unavailable: %s", why);
    }
    if (setup_gcinfo(hu, jni, beans, why) == 0) {
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
    hu->used_offset = -1;
    atomic_init(&hu->collected, 0);
    atomic_init(&hu->read_failure_logged, 0);

    if ((*jni)->PushLocalFrame(jni, 64) != 0) {
        take_exception(jni);
        use_none(hu, "out of JNI local references");
        return hu;
    }
    hs_hotspot_tables tables;
    hs_hotspot_tables_load(&tables, jvmti);
    gc_bean_list beans = {0};
    hu->gc = identify_gc(jvmti, jni, &tables, &beans);
    find_humongous_threshold(hu, &tables, jni);
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
        read_vmstructs(hu, out);
    else if (hu->source == HS_HEAP_GCINFO)
        read_gcinfo(hu, jni, out);
}

const char *hs_heap_usage_gc_name(const hs_heap_usage *hu) {
    return hs_gc_kind_name(hu != NULL ? hu->gc : HS_GC_UNKNOWN);
}

int hs_heap_usage_gc(const hs_heap_usage *hu) { return hu != NULL ? (int)hu->gc : HS_GC_UNKNOWN; }

const char *hs_heap_usage_source(const hs_heap_usage *hu) {
    return source_name(hu != NULL ? hu->source : HS_HEAP_NONE);
}

long hs_heap_usage_vmstructs_offset(const hs_heap_usage *hu) {
    return hu != NULL && hu->source == HS_HEAP_VMSTRUCTS ? hu->used_offset : -1;
}

uint64_t hs_heap_usage_humongous_threshold(const hs_heap_usage *hu) {
    return hu != NULL ? hu->humongous_threshold : 0;
}

void hs_heap_usage_destroy(hs_heap_usage *hu, JNIEnv *jni) {
    if (hu == NULL) return;
    if (jni != NULL) release_gcinfo(hu, jni);
    free(hu);
}
