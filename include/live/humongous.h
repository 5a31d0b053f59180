/* humongous.h: liveness of G1 humongous objects, judged without holding a reference.
 *
 * G1 frees a dead humongous object (larger than half a region) eagerly, at the next young
 * GC, but only when nothing refers to it, and its weak-root processing counts a JNI weak
 * ref (or a tag, or a java.lang.ref.Reference) as a reference. A weak ref per sampled
 * humongous array therefore turned eagerly reclaimed garbage into floating garbage: a
 * churning workload ran 35-75 % more GCs, and the dead arrays, never collected, still looked
 * alive through their refs. Even eight such refs at a time cost +27 % GCs.
 *
 * So a humongous sample keeps no reference at all: only the object's identity hash (which
 * lives in the object's header and keeps nothing alive), in its own live table with the
 * same thinning that keeps the weights unbiased. Liveness is decided when a profile is
 * dumped, by one walk over the heap (JVMTI IterateThroughHeap, tagging only objects above
 * the threshold): a tracked (hash, size) still in the heap has not been collected, which
 * is exactly what a cleared weak ref would have told. (Reachability would be the wrong
 * test: at exit, main's locals are unreachable but survived every GC.) The price is that
 * heap walk per dump, paid only when humongous objects were sampled.
 *
 * The same walk is when the survival factors (survival.h) learn a humongous sample's fate,
 * so they learn it at dumps only, not after each GC as for the weak-ref samples: without
 * dumps a humongous slot stays at the prior (the run's overall fraction), and between
 * dumps many GCs apart, an object that outlived HS_SURVIVAL_AGE GCs but was gone by the
 * next walk counts as died young. For these objects that is the outcome that matters: only
 * a dump's live view ever shows them (the peak and growth leave them out). */
#ifndef HS_HUMONGOUS_H
#define HS_HUMONGOUS_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

#include "sampling/sample_table.h"

typedef struct hs_humongous hs_humongous;
struct hs_survival;

/* threshold: G1's humongous size (objects strictly larger are humongous), capacity:
 * entries tracked at once. NULL on ENOMEM or a zero threshold. */
hs_humongous *hs_humongous_create(uint64_t threshold, uint32_t capacity, uint64_t seed);
void hs_humongous_destroy(hs_humongous *h);

/* Whether an object of size bytes is tracked here rather than with a weak ref. */
bool hs_humongous_applies(const hs_humongous *h, uint64_t size);

/* Hot path, as hs_live_table_admit for this table: should the sample be tracked? */
bool hs_humongous_admit(hs_humongous *h, uint64_t random, uint8_t *level);

/* Hot path: tracks an admitted object by identity hash. Returns false when it could not
 * (no room, or JVMTI failed): the caller then accounts the sample as untracked. */
bool hs_humongous_track(hs_humongous *h, jvmtiEnv *jvmti, jobject object, uint64_t random,
                        uint32_t bucket, uint32_t epoch, uint64_t weight_fp, uint8_t level);

/* Agent thread, serialized with hs_humongous_collect: thins the table when it crowds. */
void hs_humongous_maintain(hs_humongous *h);

/* At a dump (JNI allowed; not concurrent with maintain): walks the heap, adds the weight
 * of every tracked object still in it and allocated before `epoch` to
 * live_weight[bucket] (and its square to live_weight2[bucket] unless NULL), and forgets
 * the collected ones. With survival (NULL: off), also teaches it each object's outcome
 * (survival.h) by hs_survival_outcome, with this walk's epoch as the sweep's and the last
 * successful walk's as the previous one: survived when still in the heap HS_SURVIVAL_AGE
 * GCs after its birth, died young when gone before a walk had seen it reach that age.
 * The caller serializes this with the sweeper's learning (one learner at a time) and
 * publishes. Returns the outcomes learned (>= 0), or -1 if the heap walk failed (then
 * nothing is added or learned and the caller reports humongous liveness as unknown). */
int hs_humongous_collect(hs_humongous *h, jvmtiEnv *jvmti, JNIEnv *jni,
                         const hs_sample_table *samples, uint32_t epoch, double *live_weight,
                         double *live_weight2, uint32_t nbuckets, struct hs_survival *survival);

/* Entries held now. */
uint32_t hs_humongous_tracked(const hs_humongous *h);

#endif
