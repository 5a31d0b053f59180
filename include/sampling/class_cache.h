/* class_cache.h: allocated classes by identity -> small ids -> names, at constant cost
 * and bounded memory however many classes a program loads and unloads.
 *
 * A class is found by its identity hash in a bounded window of an open-addressing table
 * of slots, each holding a weak ref that confirms the identity. Ids are given per NAME
 * (a second class of the same name, from another loader or a reloaded script, shares its
 * id), so a program that keeps regenerating the same classes keeps using the same ids and
 * names. The slots of unloaded classes (their weak ref cleared) are reclaimed a few at a
 * time by the thread registering a new class: marked dead, and once every lookup that
 * might still read their ref has left (a grace period counted in per-parity reader
 * stripes), the ref is deleted and the slot is free again. A lookup never scans: a class
 * that finds no room in its window, or arrives when the ids or the name budget are spent,
 * is counted under the pseudo-class "[class table full]" (HS_CLASS_CACHE_FULL).
 *
 * The JVM is reached only through hs_class_ops, so the unit tests drive the cache with
 * fake classes; symbols.c provides the JNI/JVMTI implementation. */
#ifndef HS_CLASS_CACHE_H
#define HS_CLASS_CACHE_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/arena.h"
#include "sampling/weak_slots.h"

#define HS_CLASS_CACHE_FULL 1u
#define HS_CLASS_CACHE_FULL_NAME "[class table full]"

typedef struct {
    hs_identity_ops identity; /* identity hash, weak refs (jvm_identity.h in the JVM) */
    /* the class's display name ("byte[]") into buf; 0, or an error code */
    int (*name)(void *ctx, jclass klass, char *buf, size_t len);
} hs_class_ops;

typedef struct hs_class_cache hs_class_cache;

/* capacity: ids (>= 2, the pseudo-class included); names are copied into `names`
 * (shared, its budget bounds them). NULL on ENOMEM. */
hs_class_cache *hs_class_cache_create(uint32_t capacity, hs_arena *names);
/* Deletes the remaining weak refs through ops (when non-NULL), then frees the cache. */
void hs_class_cache_destroy(hs_class_cache *cache, const hs_class_ops *ops, void *ctx);

/* Hot path: the id (>= 1) of klass, registering it on first sight; HS_CLASS_CACHE_FULL
 * when it finds no room; 0 when an op fails (*error set to its code). Lock-free, bounded
 * work in every table state. */
uint32_t hs_class_cache_id(hs_class_cache *cache, const hs_class_ops *ops, void *ctx,
                           jclass klass, int *error);

/* The name of an id handed out (ids stay valid and keep their name forever); NULL for
 * others. */
const char *hs_class_cache_name(const hs_class_cache *cache, uint32_t id);

/* Highest id handed out (the pseudo-class included). */
uint32_t hs_class_cache_count(const hs_class_cache *cache);
/* Lookups answered with HS_CLASS_CACHE_FULL. */
uint64_t hs_class_cache_overflow(const hs_class_cache *cache);
/* Slots of unloaded classes made free again. */
uint64_t hs_class_cache_reclaimed(const hs_class_cache *cache);
/* Lookups whose class got its id but no slot: the JVM made no weak ref (said once). */
uint64_t hs_class_cache_ref_failures(const hs_class_cache *cache);
/* Classes present in the slots now (live or not yet reclaimed). */
uint32_t hs_class_cache_resident(const hs_class_cache *cache);

/* Tests only: called by a lookup between reading the epoch and counting itself in as a
 * reader (NULL, the default: nothing), to widen that window in a race test. */
void hs_class_cache_set_reader_pause(void (*pause)(void));

#endif
