/* snapshot.h: a profile of everything the agent has sampled so far.
 *
 * The snapshot reads the agent's tables and symbol cache (never JVMTI method or class
 * queries, so unloaded classes are safe) and builds an hs_profile with unbiased values.
 * It is independent of when and why a profile is written: at exit, on demand, on
 * OutOfMemoryError. */
#ifndef HS_SNAPSHOT_H
#define HS_SNAPSHOT_H

#include <jni.h>

#include "agent.h"
#include "profile.h"

/* Index of each value in a snapshot's samples (Go's heap-profile order). */
enum { HS_VALUE_ALLOC_OBJECTS = 0, HS_VALUE_ALLOC_SPACE, HS_VALUE_INUSE_OBJECTS, HS_VALUE_INUSE_SPACE };

/* Samples taken so far: those in buckets plus those spilled to the overflow accumulator. */
uint64_t hs_snapshot_samples_taken(hs_agent *agent);

/* Builds the profile; jni (may be NULL) is needed only for the live heap. NULL on ENOMEM. */
hs_profile *hs_snapshot_build(hs_agent *agent, JNIEnv *jni);

#endif
