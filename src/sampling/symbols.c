/* symbols.c: eager, cached resolution of methods and classes (see symbols.h). */
#include "sampling/symbols.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/arena.h"
#include "sampling/class_cache.h"
#include "sampling/class_memo.h"
#include "sampling/gc_bracket.h"
#include "sampling/jvm_identity.h"
#include "base/faults.h"
#include "base/log.h"
#include "sampling/method_table.h"

struct hs_symbols {
    hs_arena *arena;          /* method infos and class names */
    hs_method_infos *infos;   /* what frames refer to, by content */
    hs_method_table *methods; /* jmethodID -> info, for methods of loaded classes */
    hs_class_cache *classes;
    atomic_uint_fast64_t failures;
    atomic_uint_fast64_t line_failures; /* GetLineNumberTable failed unexpectedly */
    bool raw_names; /* names=raw: keep hidden-class addresses (see hs_stable_name) */
    const hs_gc_bracket *bracket;      /* quiet stretches, for the class memo; NULL: none */
    hs_class_memo memo;                /* class ids by address within a stretch */
    atomic_uint_fast64_t jvm_lookups;  /* class ids looked up through the class cache */
};

/* ---- the class cache's view of the JVM (class_cache.h) -------------------------------- */

/* The callbacks' ctx: the JVM (first, as jvm_identity.h wants) and the symbols. */
typedef struct {
    hs_jvm_env jvm;
    hs_symbols *symbols;
    bool raw_names; /* names=raw: keep hidden-class addresses */
} class_env;

/* Longest name kept; longer ones (generated code) are cut, which only shortens a label. */
#define NAME_MAX_LEN 2048

static int class_name(void *ctx, jclass klass, char *buf, size_t len) {
    class_env *env = ctx;
    jvmtiEnv *jvmti = env->jvm.jvmti;
    char *sig = NULL;
    jvmtiError err = (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL);
    if (err != JVMTI_ERROR_NONE) return (int)err;
    hs_class_name(sig, buf, len);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    if (!env->raw_names) hs_stable_name(buf, buf, len); /* Foo$$Lambda/0x... -> Foo$$Lambda */
    return 0;
}

static const hs_class_ops CLASS_OPS = {
    .identity = HS_JVM_IDENTITY_OPS,
    .name = class_name,
};

static void count_failure(hs_symbols *s, const char *what, jvmtiError err, const char *shown) {
    /* Log the first failure only: the hot path must not flood stderr. */
    if (atomic_fetch_add(&s->failures, 1) == 0)
        hs_warn("cannot resolve %s (JVMTI error %d); such frames show as %s", what, (int)err, shown);
}

/* ---- the method table's view of the JVM (method_table.h) ------------------------------ */

/* GetLineNumberTable failed for another reason than the method having no lines (native,
 * abstract, compiled without -g:lines): its frames show no line. Counted; said once. */
static void count_line_failure(hs_symbols *s, jvmtiError err) {
    if (err == JVMTI_ERROR_ABSENT_INFORMATION || err == JVMTI_ERROR_NATIVE_METHOD) return;
    if (atomic_fetch_add(&s->line_failures, 1) == 0)
        hs_warn("cannot read a method's line numbers (JVMTI error %d); its frames show no line, "
                "the profile is otherwise unaffected", (int)err);
}

/* The line table of method, sorted by bci, rewritten in place in the JVMTI buffer (16-byte
 * entries become 8-byte ones: entry i is read before its bytes or any later entry's are
 * written). NULL with *n = 0 when the method has none (native, abstract, compiled without
 * -g:lines); the caller deallocates *table. */
static const hs_line_entry *line_table(hs_symbols *s, jvmtiEnv *jvmti, jmethodID method,
                                       uint32_t *n, unsigned char **table) {
    jint count = 0;
    jvmtiLineNumberEntry *rows = NULL;
    *n = 0;
    *table = NULL;
    int forced = hs_fault_value(HS_FAULT_LINE_TABLE_ERROR); /* 0 unless a test forces one */
    jvmtiError err = forced ? (jvmtiError)forced
                            : (*jvmti)->GetLineNumberTable(jvmti, method, &count, &rows);
    if (err != JVMTI_ERROR_NONE) {
        count_line_failure(s, err);
        return NULL;
    }
    *table = (unsigned char *)rows;
    for (jint i = 0; i < count; i++) {
        jvmtiLineNumberEntry row;
        memcpy(&row, *table + (size_t)i * sizeof row, sizeof row);
        hs_line_entry entry = {.bci = (int32_t)row.start_location, .line = row.line_number};
        memcpy(*table + (size_t)i * sizeof entry, &entry, sizeof entry);
    }
    hs_line_entry *lines = (hs_line_entry *)(void *)*table;
    hs_line_table_sort(lines, (uint32_t)(count > 0 ? count : 0));
    *n = count > 0 ? (uint32_t)count : 0;
    return *n ? lines : NULL;
}

static void deallocate_all(jvmtiEnv *jvmti, char *a, char *b, char *c) {
    if (a) (*jvmti)->Deallocate(jvmti, (unsigned char *)a);
    if (b) (*jvmti)->Deallocate(jvmti, (unsigned char *)b);
    if (c) (*jvmti)->Deallocate(jvmti, (unsigned char *)c);
}

/* Names of a method, made stable unless names=raw, in caller buffers of NAME_MAX_LEN. */
typedef struct {
    char name[NAME_MAX_LEN], system_name[NAME_MAX_LEN], filename[NAME_MAX_LEN];
} method_names;

static void name_method(bool raw, const char *csig, const char *name, const char *msig,
                        const char *source, method_names *out) {
    hs_method_display_name(csig, name, out->name, sizeof out->name);
    hs_method_system_name(csig, name, msig, out->system_name, sizeof out->system_name);
    hs_source_path(csig, source, out->filename, sizeof out->filename);
    if (raw) return;
    hs_stable_name(out->name, out->name, sizeof out->name);
    hs_stable_name(out->system_name, out->system_name, sizeof out->system_name);
    hs_stable_name(out->filename, out->filename, sizeof out->filename);
}

/* The method's interned info from its names and lines (6 KiB of names on this thread's
 * stack, next to the frames buffer: sampler.c), or &hs_method_table_full when the names
 * budget or the info index is spent. */
static const hs_method_info *intern_method(hs_symbols *s, jvmtiEnv *jvmti, jmethodID method,
                                           const char *csig, const char *name, const char *msig,
                                           const char *source) {
    method_names names;
    name_method(s->raw_names, csig, name, msig, source, &names);
    unsigned char *rows = NULL;
    hs_method_info draft = {.name = names.name, .system_name = names.system_name,
                            .filename = names.filename};
    draft.lines = line_table(s, jvmti, method, &draft.nlines, &rows);
    for (uint32_t i = 0; i < draft.nlines; i++)
        if (draft.start_line == 0 || draft.lines[i].line < draft.start_line)
            draft.start_line = draft.lines[i].line;
    const hs_method_info *info = hs_method_infos_intern(s->infos, &draft);
    if (rows) (*jvmti)->Deallocate(jvmti, rows);
    return info ? info : &hs_method_table_full;
}

static int method_resolve(void *ctx, uintptr_t id, const hs_method_info **info, jweak *holder) {
    class_env *env = ctx;
    jvmtiEnv *jvmti = env->jvm.jvmti;
    JNIEnv *jni = env->jvm.jni;
    jmethodID method = (jmethodID)id;
    jclass klass = NULL;
    char *csig = NULL, *name = NULL, *msig = NULL, *source = NULL;
    jvmtiError err = (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass);
    if (err == JVMTI_ERROR_NONE) err = (*jvmti)->GetClassSignature(jvmti, klass, &csig, NULL);
    if (err == JVMTI_ERROR_NONE) err = (*jvmti)->GetMethodName(jvmti, method, &name, &msig, NULL);
    if (err == JVMTI_ERROR_NONE) {
        if ((*jvmti)->GetSourceFileName(jvmti, klass, &source) != JVMTI_ERROR_NONE) source = NULL;
        *info = intern_method(env->symbols, jvmti, method, csig, name, msig, source);
        *holder = (*jni)->NewWeakGlobalRef(jni, klass);
        if (!*holder && (*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        if (!*holder) err = JVMTI_ERROR_OUT_OF_MEMORY;
    }
    deallocate_all(jvmti, csig, name, msig);
    deallocate_all(jvmti, source, NULL, NULL);
    if (klass) (*jni)->DeleteLocalRef(jni, klass);
    if (err != JVMTI_ERROR_NONE) count_failure(env->symbols, "a method", err, HS_METHOD_UNRESOLVED_NAME);
    return (int)err;
}

static const hs_method_ops METHOD_OPS = {
    .resolve = method_resolve,
    .cleared = hs_jvm_ref_cleared,
    .delete_ref = hs_jvm_delete_weak_ref,
};

hs_symbols *hs_symbols_create(uint32_t method_capacity, uint32_t class_capacity, size_t budget) {
    hs_symbols *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->arena = hs_arena_create(1 << 20, budget);
    s->infos = s->arena ? hs_method_infos_create(method_capacity, s->arena) : NULL;
    /* Twice the distinct methods: a class defined again and again shares its methods' names
     * but not their jmethodIDs, which stay until the JVM unloads the class. */
    s->methods = hs_method_table_create(2 * method_capacity);
    s->classes = s->arena ? hs_class_cache_create(class_capacity, s->arena) : NULL;
    if (!s->arena || !s->infos || !s->methods || !s->classes) {
        hs_symbols_destroy(s, NULL);
        return NULL;
    }
    return s;
}

void hs_symbols_destroy(hs_symbols *s, JNIEnv *jni) {
    if (!s) return;
    class_env env = {.jvm = {.jni = jni}};
    hs_class_cache_destroy(s->classes, jni ? &CLASS_OPS : NULL, &env);
    hs_method_table_destroy(s->methods, jni ? &METHOD_OPS : NULL, &env);
    hs_method_infos_destroy(s->infos);
    if (s->arena) hs_arena_destroy(s->arena);
    free(s);
}

void hs_symbols_translate_frames(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni, hs_frame *frames,
                                 uint32_t count) {
    class_env env = {.jvm = {.jvmti = jvmti, .jni = jni}, .symbols = s, .raw_names = s->raw_names};
    hs_method_table_translate(s->methods, &METHOD_OPS, &env, frames, count);
}

/* The class cache's answer, through JVMTI and JNI. */
static uint32_t class_id_from_cache(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass) {
    class_env env = {.jvm = {.jvmti = jvmti, .jni = jni}, .symbols = s, .raw_names = s->raw_names};
    int err = 0;
    atomic_fetch_add_explicit(&s->jvm_lookups, 1, memory_order_relaxed);
    uint32_t id = hs_class_cache_id(s->classes, &CLASS_OPS, &env, klass, &err);
    if (id == 0)
        count_failure(s, "a class", err ? (jvmtiError)err : JVMTI_ERROR_OUT_OF_MEMORY, "[unknown]");
    return id;
}

uint32_t hs_symbols_class_id(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass) {
    uint64_t stretch = s->bracket ? hs_gc_bracket_quiet(s->bracket) : 0;
    uintptr_t address = stretch ? hs_jvm_local_address(klass) : 0;
    /* The address names the class only if no collection started around its read. */
    if (address && hs_gc_bracket_quiet(s->bracket) != stretch) address = 0;
    if (address) {
        uint32_t id = hs_class_memo_find(&s->memo, stretch, address);
        if (id) return id;
    }
    uint32_t id = class_id_from_cache(s, jvmti, jni, klass);
    /* Ids of real classes only: the pseudo-class's lookups are counted one by one. */
    if (address && id > HS_CLASS_CACHE_FULL) hs_class_memo_keep(&s->memo, stretch, address, id);
    return id;
}

void hs_symbols_set_gc_bracket(hs_symbols *s, const hs_gc_bracket *bracket) { s->bracket = bracket; }

uint64_t hs_symbols_class_jvm_lookups(const hs_symbols *s) { return atomic_load(&s->jvm_lookups); }

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

uint32_t hs_symbols_method_count(const hs_symbols *s) { return hs_method_infos_count(s->infos); }
size_t hs_symbols_bytes(const hs_symbols *s) { return hs_arena_reserved(s->arena); }
uint32_t hs_symbols_method_resident(const hs_symbols *s) { return hs_method_table_resident(s->methods); }
uint64_t hs_symbols_method_reclaimed(const hs_symbols *s) { return hs_method_table_reclaimed(s->methods); }
uint64_t hs_symbols_method_overflow(const hs_symbols *s) { return hs_method_table_full_frames(s->methods); }
uint32_t hs_symbols_class_count(const hs_symbols *s) { return hs_class_cache_count(s->classes); }
uint64_t hs_symbols_failures(const hs_symbols *s) { return atomic_load(&s->failures); }

bool hs_symbols_describe_losses(const hs_symbols *s, char *buf, size_t len) {
    uint64_t lines = atomic_load(&s->line_failures);
    uint64_t refs = hs_class_cache_ref_failures(s->classes);
    if (lines == 0 && refs == 0) return false;
    snprintf(buf, len,
             "symbols: %llu methods without line numbers (GetLineNumberTable failed), %llu class "
             "lookups without a weak ref (NewWeakGlobalRef failed; resolved again)",
             (unsigned long long)lines, (unsigned long long)refs);
    return true;
}
