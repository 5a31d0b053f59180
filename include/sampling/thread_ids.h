/* thread_ids.h: Java threads, platform or virtual, by identity -> the id of their name
 * (thread_names.h), for the "thread" label of threads=true.
 *
 * Why not a C thread-local: the allocation callback runs on an OS thread, which for a
 * virtual thread is its carrier; a name cached there labels every virtual thread the
 * carrier runs with the first one's name (10,000 virtual threads came out as two). The
 * callback's jthread is the thread that allocates, the virtual thread itself, so its name
 * is cached by that object's identity: its identity hash, confirmed by a weak ref, in
 * weak_slots.h's slots, reclaimed once the thread object is collected. A thread renamed
 * after its first sample keeps its first name. With no room (more threads alive at once
 * than the table holds), the name is asked for on every sample: right, only slower.
 *
 * The JVM is reached only through hs_thread_ops, so the unit tests drive it with fake
 * threads; thread_labels.c provides the JVMTI implementation. */
#ifndef HS_THREAD_IDS_H
#define HS_THREAD_IDS_H

#include <jvmti.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/thread_names.h"
#include "sampling/weak_slots.h"

typedef struct {
    hs_identity_ops identity;
    /* The thread's label into buf (its name; a pseudo-name for an unnamed thread): 0, or an
     * error code. */
    int (*name)(void *ctx, jthread thread, char *buf, size_t len);
} hs_thread_ops;

typedef struct hs_thread_ids hs_thread_ids;

/* Room for `capacity` threads alive at once; names interned into `names` (not owned). NULL
 * on ENOMEM. */
hs_thread_ids *hs_thread_ids_create(uint32_t capacity, hs_thread_names *names);
/* Deletes the remaining weak refs through ops (when non-NULL), then frees the table. */
void hs_thread_ids_destroy(hs_thread_ids *ids, const hs_thread_ops *ops, void *ctx);

/* Hot path: the name id of `thread`, resolving its name on first sight;
 * HS_THREAD_UNKNOWN_ID when the name cannot be had or the names are full. */
uint32_t hs_thread_ids_get(hs_thread_ids *ids, const hs_thread_ops *ops, void *ctx, jthread thread);

/* Threads present now; slots of collected threads reclaimed; lookups that found no room. */
uint32_t hs_thread_ids_resident(const hs_thread_ids *ids);
uint64_t hs_thread_ids_reclaimed(const hs_thread_ids *ids);
uint64_t hs_thread_ids_uncached(const hs_thread_ids *ids);
/* Threads whose name or identity the JVM did not give (said once on stderr). */
uint64_t hs_thread_ids_failures(const hs_thread_ids *ids);

#endif
