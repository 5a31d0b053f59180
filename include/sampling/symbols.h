/* symbols.h: names of the methods on sampled stacks and of the allocated classes,
 * resolved while the JVM can still tell them, kept for the profile writer.
 *
 * Why resolve eagerly: a jmethodID whose class has been unloaded must never be passed to
 * JVMTI again. While a frame is on the stack its class is alive, so the allocation callback
 * turns every frame's jmethodID into its method info (names, source file, line table) before
 * the stack is interned (method_table.h: resolved on first sight, the methods of unloaded
 * classes reclaimed), and the writer reads only infos, which are never freed. Infos are
 * interned by content (method_infos.h), so classes defined again and again share theirs.
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
#include "sampling/method_infos.h"
#include "sampling/stack_store.h"

typedef struct hs_symbols hs_symbols;
struct hs_gc_bracket;

/* The id of the pseudo-class that classes without room are counted under. */
#define HS_CLASS_TABLE_FULL HS_CLASS_CACHE_FULL

/* method_capacity: distinct method infos (the method table holds jmethodIDs of loaded classes
 * for twice as many); class_capacity:
 * classes (>= 2, one is the pseudo-class) cached at most; budget: bytes for names and line
 * tables. NULL on ENOMEM. */
hs_symbols *hs_symbols_create(uint32_t method_capacity, uint32_t class_capacity, size_t budget);
/* Deletes the classes' weak refs when jni is non-NULL, then frees everything. */
void hs_symbols_destroy(hs_symbols *symbols, JNIEnv *jni);

/* Hot path: rewrites the frames of a stack the calling thread just walked from jmethodIDs
 * into method infos (hs_method_table_translate), before the stack is interned. */
void hs_symbols_translate_frames(hs_symbols *symbols, jvmtiEnv *jvmti, JNIEnv *jni,
                                 hs_frame *frames, uint32_t count);
/* The method of an interned frame: never NULL (a pseudo-info says why a method has no
 * names); valid for as long as the agent, whether or not its class is still loaded. */
static inline const hs_method_info *hs_symbols_frame_method(const hs_frame *frame) {
    return (const hs_method_info *)frame->method;
}

/* Hot path: the id (>= 1) of class, resolving its name on first sight; HS_CLASS_TABLE_FULL
 * when it finds no room; 0 when JVMTI fails. Bounded work in every table state. */
uint32_t hs_symbols_class_id(hs_symbols *symbols, jvmtiEnv *jvmti, JNIEnv *jni, jclass klass);
/* Class ids by address within quiet stretches (class_memo.h): with a bracket, most lookups
 * skip the class cache's JVMTI and JNI calls. Call before the first lookup; bracket must
 * outlive symbols. */
void hs_symbols_set_gc_bracket(hs_symbols *symbols, const struct hs_gc_bracket *bracket);
/* Lookups that went through the class cache (the rest came from the memo, class_memo.h). */
uint64_t hs_symbols_class_jvm_lookups(const hs_symbols *symbols);
/* "byte[]", "java.lang.String" for an id from hs_symbols_class_id; NULL for others. */
const char *hs_symbols_class_name(const hs_symbols *symbols, uint32_t class_id);

/* names=raw: keep names exactly as the JVM gives them. By default hidden-class addresses
 * and lambda counters are dropped (hs_stable_name). Call before the first resolution. */
void hs_symbols_set_raw_names(hs_symbols *symbols, bool raw);

/* Distinct method infos (what frames can refer to). */
uint32_t hs_symbols_method_count(const hs_symbols *symbols);
/* Bytes the names (methods' and classes') hold, in arena chunks reserved. */
size_t hs_symbols_bytes(const hs_symbols *symbols);
/* Methods in the method table now, and slots of unloaded classes' methods reclaimed. */
uint32_t hs_symbols_method_resident(const hs_symbols *symbols);
uint64_t hs_symbols_method_reclaimed(const hs_symbols *symbols);
/* Frames counted under [method table full]. */
uint64_t hs_symbols_method_overflow(const hs_symbols *symbols);
uint32_t hs_symbols_class_count(const hs_symbols *symbols);
/* Slots of unloaded classes reclaimed so far, and classes resident in the cache now. */
uint64_t hs_symbols_class_reclaimed(const hs_symbols *symbols);
uint32_t hs_symbols_class_resident(const hs_symbols *symbols);
/* Class lookups answered with HS_CLASS_TABLE_FULL. */
uint64_t hs_symbols_class_overflow(const hs_symbols *symbols);
/* Resolutions that failed or did not fit. */
uint64_t hs_symbols_failures(const hs_symbols *symbols);
/* When some methods' line numbers could not be read or some classes' weak refs not made
 * (each said once when it first happened): true, with one line counting both in buf. */
bool hs_symbols_describe_losses(const hs_symbols *symbols, char *buf, size_t len);

#endif
