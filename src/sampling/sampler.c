/* sampler.c: the SampledObjectAlloc callback, the agent's hot path.
 *
 * It runs in application threads, inside their allocation, thousands of times a second
 * at small intervals. It takes no lock, does no I/O and does not malloc in the steady
 * state: the rate cap (throttle.c) decides first, before any stack walk or weak ref (with
 * survival=true, from the class and size: survival.h, the class looked up first); a kept
 * sample's stack is walked into a buffer on the thread's own stack, interned into the
 * lock-free stack store (its frames' jmethodIDs turned into method infos first), and the
 * sample is added to the lock-free sample table. New methods and classes are resolved on
 * first sight (symbols.c), which allocates from the symbol arena only then. */
#include <assert.h>

#include "sampling/estimate.h"
#include "base/faults.h"
#include "sampling/sample_table.h"
#include "sampling/sampler.h"
#include "sampling/stack_store.h"
#include "sampling/survival.h"
#include "sampling/symbols.h"
#include "sampling/throttle.h"
#include "sampling/thread_labels.h"
#include "base/tls_model.h"

/* The frames buffer is filled by JVMTI as jvmtiFrameInfo and then rewritten in place as
 * hs_frame, which the stack store reads. Both are 16 bytes, so index i of one sits
 * exactly on index i of the other. */
typedef union {
    jvmtiFrameInfo jvmti;
    hs_frame frame;
} frame_slot;
static_assert(sizeof(jvmtiFrameInfo) == sizeof(frame_slot), "frame layouts must match");
static_assert(sizeof(hs_frame) == sizeof(frame_slot), "frame layouts must match");

/* What the sampler keeps per thread, in C thread-locals, belongs to the OS thread: for a
 * virtual thread, its carrier. The callback runs on the carrier, and the virtual thread
 * cannot leave it meanwhile (a native frame pins it), so each value is consistent within a
 * callback; whether it must follow the carrier or the virtual thread is argued at each one.
 * The thread label is per virtual thread and is no thread-local (thread_name_id).
 *
 * Set while this thread is inside the callback: an allocation made by a JNI or JVMTI
 * call from the callback must not sample (and recurse) again. Carrier: the recursion
 * happens on the OS thread running the callback. */
static _Thread_local int in_callback HS_TLS_FAST;

/* Walks the current thread's stack: returns the frame count, or -1 on failure. One more
 * frame than depth= is asked for, so a stack cut at depth= is known to be truncated. A
 * thread with no Java frames (JNI allocating on the launcher's thread) has 0 frames:
 * the sample is kept, with an empty stack. */
static int32_t walk_stack(const hs_sampler *sampler, jvmtiEnv *jvmti, frame_slot *slots,
                          bool *truncated) {
    int32_t depth = sampler->config.depth;
    jint count = 0;
    jvmtiError err = (*jvmti)->GetStackTrace(jvmti, NULL, 0, depth + 1, &slots[0].jvmti, &count);
    if (err != JVMTI_ERROR_NONE || count < 0) {
        atomic_fetch_add_explicit(sampler->counters.stack_errors, 1, memory_order_relaxed);
        return -1;
    }
    *truncated = count > depth;
    if (*truncated) {
        count = depth;
        atomic_fetch_add_explicit(sampler->counters.truncated, 1, memory_order_relaxed);
    }
    return count;
}

/* Rewrites the frames in place as hs_frame, the stack store's form: each jmethodID becomes
 * its method info (symbols.h), resolved now if new, while its class is certainly alive (the
 * method is on this thread's stack). Stacks then never hold a jmethodID, which dies with
 * its class, and a class defined again and again gives the same stacks. */
static void convert_frames(const hs_sampler *sampler, jvmtiEnv *jvmti, JNIEnv *jni,
                           frame_slot *slots, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        jvmtiFrameInfo info = slots[i].jvmti;
        slots[i].frame = (hs_frame){.method = (uintptr_t)info.method, .bci = (int32_t)info.location};
    }
    hs_symbols_translate_frames(sampler->symbols, jvmti, jni, &slots[0].frame, count);
}

/* Adds the sample to its bucket. A site often allocates one class and size, so the stack
 * remembers its last bucket: the lookup in the large bucket table, a cache and TLB miss on
 * every sample, is then skipped. The hint carries its key's print, so a site of many sizes
 * (arrays) does not read the hinted bucket in vain either. */
static uint32_t record_in_bucket(const hs_sampler *sampler, hs_bucket_key key, uint64_t weight_fp) {
    uint64_t hint = hs_stack_store_hint(sampler->stacks, key.stack_id), was = hint;
    uint32_t bucket = hs_sample_table_record_by_hint(sampler->samples, key, weight_fp, &hint);
    if (hint != was) hs_stack_store_set_hint(sampler->stacks, key.stack_id, hint);
    return bucket;
}

/* threads=true: the name id of the thread allocating, `thread`: for a virtual thread the
 * virtual thread itself. Not a C thread-local: those belong to the OS thread, a carrier
 * that runs many virtual threads (thread_ids.h). */
static uint32_t thread_name_id(const hs_sampler *sampler, jvmtiEnv *jvmti, JNIEnv *jni,
                               jthread thread) {
    return sampler->thread_ids ? hs_thread_label(sampler->thread_ids, jvmti, jni, thread) : 0;
}

/* The rate cap's decision for this sample (of survival factor `factor`): false to drop
 * it, else its weight. Each thread keeps its own throttle state (its countdown and PRNG),
 * so a dropped sample writes only this thread's cache lines. Carrier: the countdown is
 * memoryless (exponential in offered mass, throttle.c), so each offer is kept with its
 * probability independently of which offers came before it on the same OS thread, whichever
 * virtual threads made them; state per virtual thread would cost memory per virtual thread
 * for nothing. */
static bool throttle_keeps(const hs_sampler *sampler, double factor, uint64_t *weight_fp) {
    static _Thread_local hs_throttle_thread state HS_TLS_FAST;
    *weight_fp = HS_WEIGHT_ONE;
    return !sampler->throttle || hs_throttle_offer_factor(sampler->throttle, &state,
                                                        hs_throttle_clock_nanos(), factor,
                                                        weight_fp);
}

/* The interval the JVM drew this thread's current sample gap at; 0: not known yet. */
static _Thread_local int64_t gap_interval HS_TLS_FAST;

/* The interval the JVM drew this thread's sample at. HotSpot picks a thread's next sample
 * gap at its previous sample, with the interval in force then, just before that sample's
 * callback: so it is the interval this thread read at its previous callback. Its first
 * gap was drawn when the JVM created the thread: at the interval ThreadStart read
 * (hs_on_thread_start), or, for a thread older than the agent's interval, at
 * first_gap_interval (sampler.h). Attached to a running JVM at interval=16k, a thread
 * that was idle until then allocates a mean 512 KiB before its first sample, which a
 * weight at 16k counted as 16 KiB: a retained set of 6 MB read 0.6-0.75 of itself in
 * about one run in six on JDK 17. Read at every callback, kept or not: the rate cap may
 * change the interval between two samples of a thread (throttle.h), and a weight paired
 * with the wrong interval would be off by their ratio. Carrier: the gap is drawn and
 * counted down by the ThreadHeapSampler of the JavaThread that allocates, whose TLAB the
 * allocation comes from (MemAllocator: _thread->heap_sampler().check_for_sampling), and a
 * virtual thread allocates through its carrier's JavaThread: the gap runs across the
 * virtual threads the carrier mounts, so the interval it was drawn at is the carrier's. */
static int64_t interval_drawn_at(const hs_sampler *sampler) {
    int64_t now = atomic_load_explicit(sampler->sampling_interval, memory_order_relaxed);
    int64_t first = sampler->config.first_gap_interval;
    int64_t drawn = gap_interval > 0 ? gap_interval : first > 0 ? first : now;
    gap_interval = now;
    return drawn;
}

static void record_sample(const hs_sampler *sampler, jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
                          jobject object, jclass klass, jlong size, int64_t interval) {
    uint64_t weight_fp; /* the rate cap's weight for a kept sample */
    /* With survival factors the class is needed before the decision; else only for the
     * samples kept. */
    uint32_t class_id = 0;
    double factor = 1;
    if (sampler->survival) {
        class_id = hs_symbols_class_id(sampler->symbols, jvmti, jni, klass);
        factor = hs_survival_factor(sampler->survival, class_id, (uint64_t)size);
    }
    if (!throttle_keeps(sampler, factor, &weight_fp)) return;
    /* Sized by depth= (16 KiB at the default 1024), not by the 2048 maximum: this runs on an
     * application thread's stack, possibly close to its limit, where native frames have
     * only the JVM's shadow pages to spare (StackShadowPages=20: 80 KiB on Linux x86-64,
     * JDK 17 and 25). depth=2048 takes 32 KiB of them. */
    frame_slot slots[sampler->config.depth + 1];
    bool truncated = false;
    int32_t walked = walk_stack(sampler, jvmti, slots, &truncated);
    if (walked < 0) return;
    uint32_t count = (uint32_t)walked;
    convert_frames(sampler, jvmti, jni, slots, count);
    hs_bucket_key key = {
        .stack_id = hs_stack_store_intern(sampler->stacks, &slots[0].frame, count, truncated),
        .size = (uint64_t)size,
        .thread_id = sampler->config.threads ? thread_name_id(sampler, jvmti, jni, thread) : 0,
    };
    key.class_id = sampler->survival ? class_id
                                     : hs_symbols_class_id(sampler->symbols, jvmti, jni, klass);
    /* Times the interval weight: one JVM sample, unless `start,interval=` or the rate cap
     * changed the interval since startup. */
    int64_t base = sampler->config.base_interval;
    if (interval != base)
        weight_fp = (uint64_t)((unsigned __int128)weight_fp *
                               hs_interval_weight_fp((uint64_t)size, interval, base) / HS_WEIGHT_ONE);
    uint32_t bucket = key.stack_id ? record_in_bucket(sampler, key, weight_fp) : 0;
    if (bucket == 0) /* a table was full: fold, never drop */
        bucket = hs_overflow_record(sampler->overflow, sampler->samples, key, weight_fp, base);
    if (bucket == 0) return; /* spilled: counted, but no bucket to track liveness against */
    sampler->track(sampler->owner, jvmti, jni, object, bucket, key.class_id, (uint64_t)size,
                   weight_fp);
}

static _Atomic(const hs_sampler *) installed;

void hs_sampler_install(const hs_sampler *sampler) {
    atomic_store_explicit(&installed, sampler, memory_order_release);
}

void JNICALL hs_on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti, (void)jni, (void)thread;
    const hs_sampler *sampler = atomic_load_explicit(&installed, memory_order_acquire);
    /* Always: an OS thread that attached to the JVM before (JNI) is a new JavaThread, with
     * a new gap, each time. */
    if (sampler)
        gap_interval = atomic_load_explicit(sampler->sampling_interval, memory_order_relaxed);
}

void JNICALL hs_on_sampled_object_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
                                        jobject object, jclass klass, jlong size) {
    const hs_sampler *sampler = atomic_load_explicit(&installed, memory_order_acquire);
    if (in_callback || !sampler) return;
    in_callback = 1;
    /* Announce ourselves before asking whether sampling is on: VMDeath and `stop` turn it
     * off first and then wait for the callbacks in flight to drain, so no callback touches
     * the tables after the final snapshot started. */
    atomic_int *in_flight = sampler->enter(sampler->owner);
    int64_t interval = interval_drawn_at(sampler);
    if (sampler->running(sampler->owner)) {
        hs_fault_delay(HS_FAULT_CALLBACK);
        record_sample(sampler, jvmti, jni, thread, object, klass, size, interval);
    }
    atomic_fetch_sub(in_flight, 1);
    in_callback = 0;
}
