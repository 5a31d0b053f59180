/* heap_gcinfo.c: heap used after the last GC from com.sun.management.GcInfo (see
 * heap_gcinfo.h). */
#include "heap/heap_gcinfo.h"

#include <stdio.h>
#include <string.h>

#include "heap/jni_util.h"
#include "base/log.h"

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

void hs_heap_gcinfo_release(hs_heap_gcinfo *g, JNIEnv *jni) {
    jclass *classes[] = {&g->gc_bean_class, &g->gc_info_class, &g->map_class, &g->usage_class};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (*classes[i] != NULL) (*jni)->DeleteGlobalRef(jni, *classes[i]);
        *classes[i] = NULL;
    }
    for (int i = 0; i < g->gc_bean_count; i++) (*jni)->DeleteGlobalRef(jni, g->gc_beans[i]);
    for (int i = 0; i < g->heap_pool_count; i++) (*jni)->DeleteGlobalRef(jni, g->heap_pools[i]);
    g->gc_bean_count = 0;
    g->heap_pool_count = 0;
}

/* Global references to the names of the memory pools of type HEAP. */
static int find_heap_pools(hs_heap_gcinfo *g, JNIEnv *jni) {
    jobject pools_list = hs_jni_call_static_object(jni, "java/lang/management/ManagementFactory",
                                                   "getMemoryPoolMXBeans", "()Ljava/util/List;");
    jclass pool_class = hs_jni_find_class(jni, "java/lang/management/MemoryPoolMXBean");
    jclass type_class = hs_jni_find_class(jni, "java/lang/management/MemoryType");
    jmethodID get_type =
        hs_jni_find_method(jni, pool_class, "getType", "()Ljava/lang/management/MemoryType;");
    jmethodID get_name = hs_jni_find_method(jni, pool_class, "getName", "()Ljava/lang/String;");
    if (pools_list == NULL || type_class == NULL || get_type == NULL || get_name == NULL) return -1;
    jfieldID heap_field =
        (*jni)->GetStaticFieldID(jni, type_class, "HEAP", "Ljava/lang/management/MemoryType;");
    if (hs_jni_take_exception(jni) || heap_field == NULL) return -1;
    jobject heap_type = (*jni)->GetStaticObjectField(jni, type_class, heap_field);
    if (hs_jni_take_exception(jni) || heap_type == NULL) return -1;

    hs_java_list l;
    int n = hs_java_list_open(jni, pools_list, &l) == 0 ? hs_java_list_size(jni, &l) : -1;
    for (int i = 0; i < n && g->heap_pool_count < HS_MAX_HEAP_POOLS; i++) {
        jobject pool = hs_java_list_get(jni, &l, i);
        jobject type = pool != NULL ? (*jni)->CallObjectMethod(jni, pool, get_type) : NULL;
        if (hs_jni_take_exception(jni) || type == NULL) return -1;
        if ((*jni)->IsSameObject(jni, type, heap_type)) {
            jobject name = (*jni)->CallObjectMethod(jni, pool, get_name);
            if (hs_jni_take_exception(jni) || name == NULL) return -1;
            g->heap_pools[g->heap_pool_count] = (*jni)->NewGlobalRef(jni, name);
            (*jni)->DeleteLocalRef(jni, name);
            if (g->heap_pools[g->heap_pool_count] == NULL) return -1;
            g->heap_pool_count++;
        }
        (*jni)->DeleteLocalRef(jni, type);
        (*jni)->DeleteLocalRef(jni, pool);
    }
    return g->heap_pool_count > 0 ? 0 : -1;
}

static int keep_class(JNIEnv *jni, const char *name, jclass *out) {
    jclass local = hs_jni_find_class(jni, name);
    *out = local != NULL ? (*jni)->NewGlobalRef(jni, local) : NULL;
    return *out != NULL ? 0 : -1;
}

int hs_heap_gcinfo_setup(hs_heap_gcinfo *g, JNIEnv *jni, hs_gc_bean_list *beans, char *why,
                         size_t whylen) {
    if (hs_gc_beans(jni, beans) != 0) {
        snprintf(why, whylen, "%s", beans->failure);
        return -1;
    }
    if (keep_class(jni, "com/sun/management/GarbageCollectorMXBean", &g->gc_bean_class) != 0 ||
        keep_class(jni, "com/sun/management/GcInfo", &g->gc_info_class) != 0 ||
        keep_class(jni, "java/util/Map", &g->map_class) != 0 ||
        keep_class(jni, "java/lang/management/MemoryUsage", &g->usage_class) != 0) {
        snprintf(why, whylen, "com.sun.management (module jdk.management) is not available");
        goto fail;
    }
    g->get_last_gc_info =
        hs_jni_find_method(jni, g->gc_bean_class, "getLastGcInfo", "()Lcom/sun/management/GcInfo;");
    g->get_end_time = hs_jni_find_method(jni, g->gc_info_class, "getEndTime", "()J");
    g->get_usage_after_gc =
        hs_jni_find_method(jni, g->gc_info_class, "getMemoryUsageAfterGc", "()Ljava/util/Map;");
    g->map_get =
        hs_jni_find_method(jni, g->map_class, "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
    g->get_used = hs_jni_find_method(jni, g->usage_class, "getUsed", "()J");
    if (!g->get_last_gc_info || !g->get_end_time || !g->get_usage_after_gc || !g->map_get ||
        !g->get_used) {
        snprintf(why, whylen, "com.sun.management.GcInfo methods not found");
        goto fail;
    }
    for (size_t i = 0; i < beans->count; i++) {
        if (!(*jni)->IsInstanceOf(jni, beans->beans[i], g->gc_bean_class) ||
            ends_with(beans->names[i], "Pauses"))
            continue;
        jobject global = (*jni)->NewGlobalRef(jni, beans->beans[i]);
        if (global == NULL) continue;
        g->gc_beans[g->gc_bean_count++] = global;
    }
    if (g->gc_bean_count == 0) {
        snprintf(why, whylen, "no com.sun.management.GarbageCollectorMXBean");
        goto fail;
    }
    if (find_heap_pools(g, jni) != 0) {
        snprintf(why, whylen, "cannot list the heap memory pools");
        goto fail;
    }
    return 0;
fail:
    hs_jni_take_exception(jni);
    hs_heap_gcinfo_release(g, jni);
    return -1;
}

static void log_read_failure(hs_heap_gcinfo *g, const char *what) {
    if (atomic_exchange(&g->read_failure_logged, 1) == 0)
        hs_warn("heap usage from GcInfo failed in %s; no heap figure this time (logged once)",
                what);
}

/* The GcInfo of the collector that finished last, as a local reference, or NULL. */
static jobject latest_gc_info(hs_heap_gcinfo *g, JNIEnv *jni, const char **failed) {
    jobject best = NULL;
    jlong best_end = -1;
    for (int i = 0; i < g->gc_bean_count; i++) {
        jobject info = (*jni)->CallObjectMethod(jni, g->gc_beans[i], g->get_last_gc_info);
        if (hs_jni_take_exception(jni)) {
            *failed = "getLastGcInfo()";
            return NULL;
        }
        if (info == NULL) continue; /* this collector has not run yet */
        jlong end = (*jni)->CallLongMethod(jni, info, g->get_end_time);
        if (hs_jni_take_exception(jni)) {
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
static int sum_heap_usage_after(hs_heap_gcinfo *g, JNIEnv *jni, jobject info, uint64_t *sum,
                                const char **failed) {
    jobject usage_map = (*jni)->CallObjectMethod(jni, info, g->get_usage_after_gc);
    if (hs_jni_take_exception(jni) || usage_map == NULL) {
        *failed = "GcInfo.getMemoryUsageAfterGc()";
        return -1;
    }
    int found = 0;
    *sum = 0;
    for (int i = 0; i < g->heap_pool_count; i++) {
        jobject usage = (*jni)->CallObjectMethod(jni, usage_map, g->map_get, g->heap_pools[i]);
        if (hs_jni_take_exception(jni)) {
            *failed = "Map.get()";
            return -1;
        }
        if (usage == NULL) continue;
        jlong used = (*jni)->CallLongMethod(jni, usage, g->get_used);
        (*jni)->DeleteLocalRef(jni, usage);
        if (hs_jni_take_exception(jni)) {
            *failed = "MemoryUsage.getUsed()";
            return -1;
        }
        if (used > 0) *sum += (uint64_t)used;
        found++;
    }
    return found > 0 ? 0 : -1;
}

int hs_heap_gcinfo_read(hs_heap_gcinfo *g, JNIEnv *jni, uint64_t *used_bytes) {
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        hs_jni_take_exception(jni);
        log_read_failure(g, "PushLocalFrame");
        return 0;
    }
    const char *failed = NULL;
    uint64_t sum = 0;
    int valid = 0;
    jobject info = latest_gc_info(g, jni, &failed);
    if (info != NULL && sum_heap_usage_after(g, jni, info, &sum, &failed) == 0) {
        *used_bytes = sum;
        valid = 1;
    }
    (*jni)->PopLocalFrame(jni, NULL);
    if (failed != NULL) log_read_failure(g, failed);
    return valid;
}
