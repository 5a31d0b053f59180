/* thread_ids.h: Java threads, platform or virtual, by their thread id -> the id of their
 * name (thread_names.h), for the "thread" label of threads=true.
 *
 * Why not a C thread-local: the allocation callback runs on an OS thread, which for a
 * virtual thread is its carrier; a name cached there labels every virtual thread the
 * carrier runs with the first one's name (10,000 virtual threads came out as two). The
 * callback's jthread is the thread that allocates, the virtual thread itself, so its name
 * is cached by that thread's own id: java.lang.Thread's `tid`, which the JVM hands out once
 * per thread object and never reuses. An entry can therefore never name another thread,
 * even long after its thread is gone, and needs no weak ref and no identity hash to confirm
 * it: a kept sample pays one field read and one probe of a cache line. The cache is
 * set-associative with lines indexed by the id's low bits (ids are handed out in sequence,
 * so threads alive at once spread over the lines); a full line evicts one entry, whose
 * thread, if sampled again, has its name read again. A thread renamed after its first
 * sample keeps its first name while its entry stays.
 *
 * The JVM is reached only through hs_thread_ops, so the unit tests drive it with fake
 * threads; thread_labels.c provides the JNI/JVMTI implementation. Pure C, lock-free. */
#ifndef HS_THREAD_IDS_H
#define HS_THREAD_IDS_H

#include <jvmti.h> /* jthread */
#include <stddef.h>
#include <stdint.h>

#include "sampling/thread_names.h"

typedef struct {
    /* The thread's id, unique among all threads of the JVM's life, into *out: 0, or an
     * error code (then its name is read at every sample). */
    int (*id)(void *ctx, jthread thread, uint64_t *out);
    /* The thread's label into buf (its name; a pseudo-name for an unnamed thread): 0, or an
     * error code. */
    int (*name)(void *ctx, jthread thread, char *buf, size_t len);
} hs_thread_ops;

typedef struct hs_thread_ids hs_thread_ids;

/* Room for about `capacity` threads sampled at once; names interned into `names` (not
 * owned). NULL on ENOMEM. */
hs_thread_ids *hs_thread_ids_create(uint32_t capacity, hs_thread_names *names);
void hs_thread_ids_destroy(hs_thread_ids *ids);

/* Hot path: the name id of `thread`, reading its name on first sight (or after its entry
 * was evicted); HS_THREAD_UNKNOWN_ID when the name cannot be had or the names are full. */
uint32_t hs_thread_ids_get(hs_thread_ids *ids, const hs_thread_ops *ops, void *ctx, jthread thread);

/* Names read so far (first sights, and threads seen again after their entry was evicted). */
uint64_t hs_thread_ids_names_read(const hs_thread_ids *ids);
/* Samples whose thread id the JVM did not give (their name read each time; said once). */
uint64_t hs_thread_ids_uncached(const hs_thread_ids *ids);
/* Threads whose name the JVM did not give (said once on stderr). */
uint64_t hs_thread_ids_failures(const hs_thread_ids *ids);

#endif
