/* symbols.h: names of the methods on sampled stacks and of the allocated classes,
 * resolved while the JVM can still tell them, cached for the profile writer.
 *
 * Why resolve eagerly: a jmethodID whose class has been unloaded must never be passed
 * to JVMTI again. While a frame is on the stack its class is alive, so the allocation
 * callback resolves a method the first time it sees it (names, source file, line
 * table) and the writer later reads only this cache. Readers are lock-free; a method
 * is resolved once per jmethodID (two racing threads may both resolve; one wins).
 *
 * Allocated classes are cached by identity in class_cache.c (identity hash, confirmed by
 * IsSameObject on a weak global ref; ids per name; slots of unloaded classes reclaimed;
 * "[class table full]" instead of a scan), so the hot path neither allocates nor asks for
 * the class signature after the first sample of a class. */
#ifndef HS_SYMBOLS_H
#define HS_SYMBOLS_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

#include "sampling/class_cache.h"
#include "sampling/jvm_names.h"

typedef struct {
    const char *name;        /* java.util.ArrayList.grow */
    const char *system_name; /* java/util/ArrayList.grow(I)[Ljava/lang/Object; */
    const char *filename;    /* java/util/ArrayList.java, "" when unknown */
    int32_t start_line;      /* first line of the method, 0 when unknown */
    uint32_t nlines;
    const hs_line_entry *lines; /* sorted by bci */
} hs_method_info;

typedef struct hs_symbols hs_symbols;

/* The id of the pseudo-class that classes without room are counted under. */
#define HS_CLASS_TABLE_FULL HS_CLASS_CACHE_FULL

/* method_capacity / class_capacity: distinct methods / classes (>= 2, one is the
 * pseudo-class) cached at most;
 * budget: bytes for names and line tables. NULL on ENOMEM. */
hs_symbols *hs_symbols_create(uint32_t method_capacity, uint32_t class_capacity, size_t budget);
/* Deletes the classes' weak refs when jni is non-NULL, then frees everything. */
void hs_symbols_destroy(hs_symbols *symbols, JNIEnv *jni);

/* Hot path: the cached info of method, resolving it on first sight. NULL when it
 * cannot be resolved (JVMTI error, cache or budget full; counted). */
const hs_method_info *hs_symbols_method(hs_symbols *symbols, jvmtiEnv *jvmti, JNIEnv *jni,
                                        jmethodID method);
/* Cache only, never calls JVMTI: safe after the method's class was unloaded. */
const hs_method_info *hs_symbols_cached_method(const hs_symbols *symbols, jmethodID method);

/* Hot path: the id (>= 1) of class, resolving its name on first sight; HS_CLASS_TABLE_FULL
 * when it finds no room; 0 when JVMTI fails. Bounded work in every table state. */
uint32_t hs_symbols_class_id(hs_symbols *symbols, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass);
/* "byte[]", "java.lang.String" for an id from hs_symbols_class_id; NULL for others. */
const char *hs_symbols_class_name(const hs_symbols *symbols, uint32_t class_id);

/* names=raw: keep names exactly as the JVM gives them. By default hidden-class addresses
 * and lambda counters are dropped (hs_stable_name). Call before the first resolution. */
void hs_symbols_set_raw_names(hs_symbols *symbols, bool raw);

uint32_t hs_symbols_method_count(const hs_symbols *symbols);
uint32_t hs_symbols_class_count(const hs_symbols *symbols);
/* Slots of unloaded classes reclaimed so far, and classes resident in the cache now. */
uint64_t hs_symbols_class_reclaimed(const hs_symbols *symbols);
uint32_t hs_symbols_class_resident(const hs_symbols *symbols);
/* Class lookups answered with HS_CLASS_TABLE_FULL. */
uint64_t hs_symbols_class_overflow(const hs_symbols *symbols);
/* Resolutions that failed or did not fit. */
uint64_t hs_symbols_failures(const hs_symbols *symbols);

#endif
