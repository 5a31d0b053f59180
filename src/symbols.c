/* symbols.c: eager, cached resolution of methods and classes (see symbols.h). */
#include "symbols.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "hash.h"
#include "log.h"
#include "ptr_map.h"

enum { CLASS_SLOT_EMPTY = 0, CLASS_SLOT_FILLING, CLASS_SLOT_READY };

typedef struct {
    atomic_int state;
    jint hash;
    jweak ref;
    uint32_t id;
} class_slot;

struct hs_symbols {
    hs_arena *arena;
    hs_ptr_map *methods; /* jmethodID -> hs_method_info* */
    class_slot *class_slots;
    uint32_t class_mask;              /* slots - 1 (power of two) */
    uint32_t class_capacity;          /* ids 1..class_capacity */
    _Atomic(const char *) *class_names; /* id -> name */
    atomic_uint class_count;
    atomic_uint_fast64_t failures;
    bool raw_names; /* names=raw: keep hidden-class addresses (see hs_stable_name) */
};

static uint32_t next_power_of_two(uint32_t n) {
    uint32_t p = 1;
    while (p < n && p < (1u << 31)) p <<= 1;
    return p;
}

hs_symbols *hs_symbols_create(uint32_t method_capacity, uint32_t class_capacity, size_t budget) {
    hs_symbols *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    uint32_t slots = next_power_of_two(class_capacity * 2);
    s->arena = hs_arena_create(1 << 20, budget);
    s->methods = hs_ptr_map_create(method_capacity);
    s->class_slots = calloc(slots, sizeof *s->class_slots);
    s->class_names = calloc((size_t)class_capacity + 1, sizeof *s->class_names);
    s->class_mask = slots - 1;
    s->class_capacity = class_capacity;
    if (!s->arena || !s->methods || !s->class_slots || !s->class_names) {
        hs_symbols_destroy(s, NULL);
        return NULL;
    }
    return s;
}

void hs_symbols_destroy(hs_symbols *s, JNIEnv *jni) {
    if (!s) return;
    if (jni && s->class_slots) {
        for (uint32_t i = 0; i <= s->class_mask; i++)
            if (atomic_load(&s->class_slots[i].state) == CLASS_SLOT_READY)
                (*jni)->DeleteWeakGlobalRef(jni, s->class_slots[i].ref);
    }
    free(s->class_slots);
    free((void *)s->class_names);
    if (s->methods) hs_ptr_map_destroy(s->methods);
    if (s->arena) hs_arena_destroy(s->arena);
    free(s);
}

static void count_failure(hs_symbols *s, const char *what, jvmtiError err) {
    /* Log the first failure only: the hot path must not flood stderr. */
    if (atomic_fetch_add(&s->failures, 1) == 0)
        hs_warn("cannot resolve %s (JVMTI error %d); such frames show as [unknown]", what, (int)err);
}

/* Longest name kept; longer ones (generated code) are cut, which only shortens a label. */
#define NAME_MAX_LEN 2048

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

/* Resolves and stores the name of a new class; returns its id or 0. */
static uint32_t register_class(hs_symbols *s, jvmtiEnv *jvmti, jclass klass) {
    char *sig = NULL;
    jvmtiError err = (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL);
    if (err != JVMTI_ERROR_NONE) {
        count_failure(s, "a class name", err);
        return 0;
    }
    char buf[NAME_MAX_LEN];
    hs_class_name(sig, buf, sizeof buf);
    const char *name = arena_name(s, buf);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    uint32_t id = atomic_fetch_add(&s->class_count, 1) + 1;
    if (!name || id > s->class_capacity) {
        count_failure(s, "a class name (class cache full)", JVMTI_ERROR_OUT_OF_MEMORY);
        return 0;
    }
    atomic_store_explicit(&s->class_names[id], name, memory_order_release);
    return id;
}

/* Fills a claimed slot. A failure leaves the slot claimed but never READY: readers skip it. */
static uint32_t fill_class_slot(hs_symbols *s, class_slot *slot, jvmtiEnv *jvmti, JNIEnv *jni,
                                jclass klass, jint hash) {
    uint32_t id = register_class(s, jvmti, klass);
    jweak ref = id ? (*jni)->NewWeakGlobalRef(jni, klass) : NULL;
    if (!ref) {
        if (id) count_failure(s, "a class (weak ref)", JVMTI_ERROR_OUT_OF_MEMORY);
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        return id;
    }
    slot->hash = hash;
    slot->ref = ref;
    slot->id = id;
    atomic_store_explicit(&slot->state, CLASS_SLOT_READY, memory_order_release);
    return id;
}

uint32_t hs_symbols_class_id(hs_symbols *s, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass) {
    jint hash = 0;
    jvmtiError err = (*jvmti)->GetObjectHashCode(jvmti, klass, &hash);
    if (err != JVMTI_ERROR_NONE) {
        count_failure(s, "a class identity", err);
        return 0;
    }
    uint32_t start = (uint32_t)hs_mix64((uint32_t)hash) & s->class_mask;
    for (uint32_t probe = 0; probe <= s->class_mask; probe++) {
        class_slot *slot = &s->class_slots[(start + probe) & s->class_mask];
        int state = atomic_load_explicit(&slot->state, memory_order_acquire);
        if (state == CLASS_SLOT_READY) {
            if (slot->hash == hash && (*jni)->IsSameObject(jni, slot->ref, klass))
                return slot->id;
            continue;
        }
        if (state == CLASS_SLOT_FILLING) continue; /* maybe our class; a duplicate id is harmless */
        int expected = CLASS_SLOT_EMPTY;
        if (atomic_compare_exchange_strong(&slot->state, &expected, CLASS_SLOT_FILLING))
            return fill_class_slot(s, slot, jvmti, jni, klass, hash);
        probe--; /* lost the race for this slot: look at it again */
    }
    count_failure(s, "a class (class table full)", JVMTI_ERROR_OUT_OF_MEMORY);
    return 0;
}

const char *hs_symbols_class_name(const hs_symbols *s, uint32_t id) {
    if (id == 0 || id > s->class_capacity) return NULL;
    return atomic_load_explicit(&s->class_names[id], memory_order_acquire);
}

void hs_symbols_set_raw_names(hs_symbols *s, bool raw) { s->raw_names = raw; }

uint32_t hs_symbols_method_count(const hs_symbols *s) { return hs_ptr_map_size(s->methods); }
uint32_t hs_symbols_class_count(const hs_symbols *s) {
    uint32_t n = atomic_load(&s->class_count);
    return n < s->class_capacity ? n : s->class_capacity;
}
uint64_t hs_symbols_failures(const hs_symbols *s) { return atomic_load(&s->failures); }
