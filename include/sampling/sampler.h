/* sampler.h: the SampledObjectAlloc callback (sampler.c) and the narrow context it runs in.
 *
 * The callback sees only what it needs: its configuration (copied at load), the two
 * counters it bumps, the tables it records into, the rate cap and its survival factors,
 * the JVM's current interval, and three callbacks into its owner (agent.c): announce a
 * callback in flight, say whether sampling is on, and hand a kept sample to the live
 * tracker. It does not know hs_agent. The owner fills an hs_sampler once its tables exist
 * and installs it before the JVM can call back; the context must stay valid (and its
 * pointers unchanged) for as long as the callback may run. */
#ifndef HS_SAMPLER_H
#define HS_SAMPLER_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sampling/overflow.h"

struct hs_stack_store;
struct hs_sample_table;
struct hs_symbols;
struct hs_thread_ids;
struct hs_throttle;
struct hs_survival;

typedef struct {
    int32_t depth;         /* depth=: frames walked per sample */
    bool threads;          /* threads=: label samples with their thread's name */
    int64_t base_interval; /* interval= at startup: the base of every weight */
    /* The interval the JVM drew the sample gaps of the threads that were running before
     * the agent set its own: the agent's at startup (set in Agent_OnLoad, before any
     * thread), HotSpot's default 512 KiB when the agent was attached to a running JVM. */
    int64_t first_gap_interval;
} hs_sampler_config;

/* HotSpot's sampling interval until an agent sets one (ThreadHeapSampler). */
#define HS_JVM_DEFAULT_INTERVAL (INT64_C(512) << 10)

typedef struct {
    atomic_uint_fast64_t *stack_errors; /* GetStackTrace failed */
    atomic_uint_fast64_t *truncated;    /* stacks cut at depth= */
} hs_sampler_counters;

typedef struct hs_sampler {
    hs_sampler_config config;
    hs_sampler_counters counters;
    struct hs_stack_store *stacks;
    struct hs_sample_table *samples;
    struct hs_symbols *symbols;
    struct hs_thread_ids *thread_ids;     /* NULL unless threads= */
    hs_overflow *overflow;                /* samples folded when a table is full */
    struct hs_throttle *throttle;         /* NULL: no rate cap */
    struct hs_survival *survival;         /* NULL: every factor 1 */
    atomic_int_fast64_t *sampling_interval; /* the interval the JVM samples at now */
    /* The owner's callbacks, with owner as their first argument. */
    void *owner;
    atomic_int *(*enter)(void *owner); /* counted in flight; the callback subtracts 1 when done */
    bool (*running)(void *owner);      /* sampling is on: record */
    /* a kept sample (of class id class_id), recorded in bucket `bucket`, for the live
     * tracker */
    void (*track)(void *owner, jvmtiEnv *jvmti, JNIEnv *jni, jobject object, uint32_t bucket,
                  uint32_t class_id, uint64_t size, uint64_t weight_fp);
} hs_sampler;

/* Makes `sampler` the callback's context (NULL: the callback does nothing). */
void hs_sampler_install(const hs_sampler *sampler);

/* The ThreadStart callback: the JVM drew the new thread's first sample gap when it created
 * it, at the interval in force then. */
void JNICALL hs_on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);

/* The SampledObjectAlloc callback. */
void JNICALL hs_on_sampled_object_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
                                        jobject object, jclass klass, jlong size);

#endif
