/* method_table.h: jmethodIDs -> their method infos, bounded however many classes a program
 * defines and unloads.
 *
 * The allocation callback turns each frame of a sampled stack from a jmethodID into its
 * method info (method_infos.h) before the stack is interned, so stacks never hold a
 * jmethodID: a jmethodID of an unloaded class is never dereferenced, by the profile writer
 * or anyone. A method is resolved the first time a stack shows it (its class is certainly
 * loaded then: the method is running on the calling thread) and kept in a slot of
 * weak_slots.h with a weak ref to its declaring class; once that class is unloaded the
 * slot is reclaimed behind the same grace period as the class cache's, by the thread
 * registering a new method. So the table holds the methods of loaded classes only, and a
 * program churning classes never fills it with the dead.
 *
 * The JVM is reached only through hs_method_ops, so the unit tests drive the table with
 * fake methods; symbols.c provides the JVMTI implementation. */
#ifndef HS_METHOD_TABLE_H
#define HS_METHOD_TABLE_H

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

#include "sampling/method_infos.h"
#include "sampling/stack_store.h"

typedef struct {
    /* Resolves `method` (a jmethodID, alive: running on the calling thread): its info
     * (interned, or a pseudo-info of method_infos.h) into *info and a new weak ref to its
     * declaring class into *holder. 0, or an error code (then nothing was created). */
    int (*resolve)(void *ctx, uintptr_t method, const hs_method_info **info, jweak *holder);
    bool (*cleared)(void *ctx, jweak ref); /* the class was unloaded */
    void (*delete_ref)(void *ctx, jweak ref);
} hs_method_ops;

typedef struct hs_method_table hs_method_table;

/* Room for `capacity` methods of loaded classes at once. NULL on ENOMEM. */
hs_method_table *hs_method_table_create(uint32_t capacity);
/* Deletes the remaining weak refs through ops (when non-NULL), then frees the table. */
void hs_method_table_destroy(hs_method_table *table, const hs_method_ops *ops, void *ctx);

/* Hot path: rewrites each frame's method, a jmethodID of the calling thread's stack, into
 * its info (as an integer), resolving methods on first sight. Never fails: a method with
 * no room is &hs_method_table_full, one the JVM could not name &hs_method_unresolved.
 * Lock-free; a known method costs a probe of its window. */
void hs_method_table_translate(hs_method_table *table, const hs_method_ops *ops, void *ctx,
                               hs_frame *frames, uint32_t count);

/* Methods present now (of loaded classes, or unloaded and not yet reclaimed); slots of
 * unloaded classes' methods reclaimed so far; frames given &hs_method_table_full; failed
 * resolutions (frames given &hs_method_unresolved). */
uint32_t hs_method_table_resident(const hs_method_table *table);
uint64_t hs_method_table_reclaimed(const hs_method_table *table);
uint64_t hs_method_table_full_frames(const hs_method_table *table);
uint64_t hs_method_table_failures(const hs_method_table *table);

#endif
