/* symbols.c: eager, cached resolution of methods and classes (see symbols.h). */
#include "sampling/symbols.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/arena.h"
#include "sampling/class_cache.h"
#include "base/log.h"
#include "sampling/ptr_map.h"

struct hs_symbols {
    hs_arena *arena;
    hs_ptr_map *methods;    /* jmethodID -> hs_method_info* */
    hs_class_cache *classes; /* names in `arena` too */
    atomic_uint_fast64_t failures;
    bool raw_names; /* names=raw: keep hidden-class addresses (see hs_stable_name) */
};

/* ---- the class cache's view of the JVM (class_cache.h) -------------------------------- */

typedef struct {
    jvmtiEnv *jvmti;
    JNIEnv *jni;
    bool raw_names; /* names=raw: keep hidden-class addresses */
} class_env;

static int class_hash(void *ctx, jclass klass, jint *out) {
    class_env *env = ctx;
    return (int)(*env->jvmti)->GetObjectHashCode(env->jvmti, klass, out);
}

/* Longest name kept; longer ones (generated code) are cut, which only shortens a label. */
#define NAME_MAX_LEN 2048

static int class_name(void *ctx, jclass klass, char *buf, size_t len) {
    class_env *env = ctx;
    char *sig = NULL;
    jvmtiError err = (*env->jvmti)->GetClassSignature(env->jvmti, klass, &sig, NULL);
    if (err != JVMTI_ERROR_NONE) return (int)err;
    hs_class_name(sig, buf, len);
    (*env->jvmti)->Deallocate(env->jvmti, (unsigned char *)sig);
    if (!env->raw_names) hs_stable_name(buf, buf, len); /* Foo$$Lambda/0x... -> Foo$$Lambda */
    return 0;
}

static jweak class_new_ref(void *ctx, jclass klass) {
    JNIEnv *jni = ((class_env *)ctx)->jni;
    jweak ref = (*jni)->NewWeakGlobalRef(jni, klass);
    if (!ref && (*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    return ref;
}

static bool class_same(void *ctx, jweak ref, jclass klass) {
    JNIEnv *jni = ((class_env *)ctx)->jni;
    return (*jni)->IsSameObject(jni, ref, klass);
}

static bool class_cleared(void *ctx, jweak ref) {
    JNIEnv *jni = ((class_env *)ctx)->jni;
    return (*jni)->IsSameObject(jni, ref, NULL);
}

static void class_delete_ref(void *ctx, jweak ref) {
    JNIEnv *jni = ((class_env *)ctx)->jni;
    (*jni)->DeleteWeakGlobalRef(jni, ref);
}

static const hs_class_ops CLASS_OPS = {
    .hash = class_hash,
    .name = class_name,
    .new_ref = class_new_ref,
    .same = class_same,
    .cleared = class_cleared,
    .delete_ref = class_delete_ref,
};

hs_symbols *hs_symbols_create(uint32_t method_capacity, uint32_t class_capacity, size_t budget) {
    hs_symbols *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->arena = hs_arena_create(1 << 20, budget);
    s->methods = hs_ptr_map_create(method_capacity);
    s->classes = s->arena ? hs_class_cache_create(class_capacity, s->arena) : NULL;
    if (!s->arena || !s->methods || !s->classes) {
        hs_symbols_destroy(s, NULL);
        return NULL;
    }
    return s;
}

void hs_symbols_destroy(hs_symbols *s, JNIEnv *jni) {
    if (!s) return;
    class_env env = {.jni = jni};
    hs_class_cache_destroy(s->classes, jni ? &CLASS_OPS : NULL, &env);
    if (s->methods) hs_ptr_map_destroy(s->methods);
    if (s->arena) hs_arena_destroy(s->arena);
    free(s);
}

static void count_failure(hs_symbols *s, const char *what, jvmtiError err) {
    /* Log the first failure only: the hot path must not flood stderr. */
    if (atomic_fetch_add(&s->failures, 1) == 0)
        hs_warn("cannot resolve %s (JVMTI error %d); such frames show as [unknown]", what, (int)err);
}

/* Copies a JVMTI line-number table into the arena, sorted by bci. */
static int copy_line_table(hs_symbols *s, jvmtiEnv *jvmti, jmethodID method, hs_method_info *info) {
    jint count = 0;
    jvmtiLineNumberEntry *table = NULL;
    jvmtiError err = (*jvmti)->GetLineNumberTable(jvmti, method, &count, &table);
    if (err != JVMTI_ERROR_NONE) /* native, abstract, or compiled without -g:lines */
        return err == JVMTI_ERROR_ABSENT_INFORMATION || err == JVMTI_ERROR_NATIVE_METHOD ? 0 : -1;
    hs_line_entry *lines = count > 0 ? hs_arena_alloc(s->arena, sizeof *lines * (size_t)count, 8) : NULL;
    int32_t first = 0;
    for (jint i = 0; lines && i < count; i++) {
        lines[i].bci = (int32_t)table[i].start_location;
        lines[i].line = table[i].line_number;
        if (first == 0 || lines[i].line < first) first = lines[i].line;
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)table);
    if (count > 0 && !lines) return -1;
    hs_line_table_sort(lines, (uint32_t)count);
    info->lines = lines;
    info->nlines = (uint32_t)count;
    info->start_line = first;
    return 0;
}

static void deallocate_all(jvmtiEnv *jvmti, char *a, char *b, char *c) {
    if (a) (*jvmti)->Deallocate(jvmti, (unsigned char *)a);
    if (b) (*jvmti)->Deallocate(jvmti, (unsigned char *)b);
    if (c) (*jvmti)->Deallocate(jvmti, (unsigned char *)c);
}

/* A copy of name in the arena, made stable first (in place) unless names=raw. */
static const char *arena_name(hs_symbols *s, char *name) {
    if (!s->raw_names) hs_stable_name(name, name, strlen(name) + 1);
    return hs_arena_strdup(s->arena, name);
}

/* Fills info's names from the method's class signature, name and source file. */
static int name_method(hs_symbols *s, const char *csig, const char *name, const char *msig,
                       const char *source, hs_method_info *info) {
    char buf[NAME_MAX_LEN];
    hs_method_display_name(csig, name, buf, sizeof buf);
    info->name = arena_name(s, buf);
    hs_method_system_name(csig, name, msig, buf, sizeof buf);
    info->system_name = arena_name(s, buf);
    hs_source_path(csig, source, buf, sizeof buf);
    info->filename = arena_name(s, buf);
    return info->name && info->system_name && info->filename ? 0 : -1;
}

static hs_method_info *resolve_method(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni,
                                      jmethodID method) {
    jclass klass = NULL;
    char *csig = NULL, *name = NULL, *msig = NULL, *source = NULL;
    jvmtiError err = (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass);
    if (err == JVMTI_ERROR_NONE) err = (*jvmti)->GetClassSignature(jvmti, klass, &csig, NULL);
    if (err == JVMTI_ERROR_NONE) err = (*jvmti)->GetMethodName(jvmti, method, &name, &msig, NULL);
    if (err != JVMTI_ERROR_NONE) {
        deallocate_all(jvmti, csig, name, msig);
        if (klass) (*jni)->DeleteLocalRef(jni, klass);
        count_failure(s, "a method", err);
        return NULL;
    }
    if ((*jvmti)->GetSourceFileName(jvmti, klass, &source) != JVMTI_ERROR_NONE) source = NULL;
    hs_method_info *info = hs_arena_alloc(s->arena, sizeof *info, 8);
    int ok = info && name_method(s, csig, name, msig, source, info) == 0 &&
             copy_line_table(s, jvmti, method, info) == 0;
    deallocate_all(jvmti, csig, name, msig);
    deallocate_all(jvmti, source, NULL, NULL);
    if (klass) (*jni)->DeleteLocalRef(jni, klass);
    if (!ok) {
        count_failure(s, "a method (name cache full)", JVMTI_ERROR_OUT_OF_MEMORY);
        return NULL;
    }
    return info;
}

const hs_method_info *hs_symbols_method(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni,
                                        jmethodID method) {
    const hs_method_info *info = hs_ptr_map_get(s->methods, (uintptr_t)method);
    if (info) return info;
    hs_method_info *fresh = resolve_method(s, jvmti, jni, method);
    if (!fresh) return NULL;
    /* A racing thread may have cached it first: use the winner (ours stays in the arena). */
    info = hs_ptr_map_put_if_absent(s->methods, (uintptr_t)method, fresh);
    if (!info) count_failure(s, "a method (method cache full)", JVMTI_ERROR_OUT_OF_MEMORY);
    return info;
}

const hs_method_info *hs_symbols_cached_method(const hs_symbols *s, jmethodID method) {
    return hs_ptr_map_get(s->methods, (uintptr_t)method);
}

uint32_t hs_symbols_class_id(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass) {
    class_env env = {.jvmti = jvmti, .jni = jni, .raw_names = s->raw_names};
    int err = 0;
    uint32_t id = hs_class_cache_id(s->classes, &CLASS_OPS, &env, klass, &err);
    if (id == 0) count_failure(s, "a class", err ? (jvmtiError)err : JVMTI_ERROR_OUT_OF_MEMORY);
    return id;
}

const char *hs_symbols_class_name(const hs_symbols *s, uint32_t id) {
    return hs_class_cache_name(s->classes, id);
}

uint64_t hs_symbols_class_reclaimed(const hs_symbols *s) {
    return hs_class_cache_reclaimed(s->classes);
}

uint32_t hs_symbols_class_resident(const hs_symbols *s) {
    return hs_class_cache_resident(s->classes);
}

uint64_t hs_symbols_class_overflow(const hs_symbols *s) {
    return hs_class_cache_overflow(s->classes);
}

void hs_symbols_set_raw_names(hs_symbols *s, bool raw) { s->raw_names = raw; }

uint32_t hs_symbols_method_count(const hs_symbols *s) { return hs_ptr_map_size(s->methods); }
uint32_t hs_symbols_class_count(const hs_symbols *s) { return hs_class_cache_count(s->classes); }
uint64_t hs_symbols_failures(const hs_symbols *s) { return atomic_load(&s->failures); }
