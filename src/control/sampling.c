/* sampling.c: sampling on and off (see sampling.h). */
#include "control/sampling.h"

#include <stdio.h>
#include <string.h>

#include "heap/hotspot_tables.h"
#include "live/live_tracker.h"
#include "base/log.h"
#include "sampling/thread_labels.h"
#include "sampling/throttle.h"

static jvmtiError set_event(jvmtiEnv *jvmti, jvmtiEventMode mode) {
    return (*jvmti)->SetEventNotificationMode(jvmti, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
}

/* The rate cap's hook (throttle.h): the JVM's interval, raised or lowered by the cap. Runs
 * on an application thread in its sampling callback; SetHeapSamplingInterval only stores
 * the interval each thread picks its next sample gap with. */
static int set_interval_for_cap(void *ctx, int64_t interval) {
    hs_agent *agent = ctx;
    jvmtiError err = (*agent->jvmti)->SetHeapSamplingInterval(agent->jvmti, (jint)interval);
    if (err == JVMTI_ERROR_NONE) atomic_store(&agent->sampling_interval, interval);
    return (int)err;
}

static bool drain_callbacks(void *agent, int timeout_ms) {
    return hs_agent_drain(agent, timeout_ms);
}

/* Live tracking (live_tracker.h) on: the tracker gets what it uses, and the slot it is
 * published in. */
static int start_live(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_live_config config = {.jvmti = jvmti, .sampled = hs_agent_sampled(agent),
                             .gc_epoch = &agent->gc_epoch, .bracket = &agent->gc_bracket,
                             .track = (uint32_t)agent->opts.track,
                             .heap_source = agent->opts.heap_source,
                             .peak = hs_options_peak_enabled(&agent->opts),
                             .survival = agent->survival,
                             .drain = drain_callbacks, .drain_ctx = agent};
    return hs_live_start(&agent->live, &config, jvmti, jni);
}

int hs_sampling_begin(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_jvm_property(jvmti, "java.vm.version", agent->java_version, sizeof agent->java_version);
    hs_jvm_property(jvmti, "java.vm.name", agent->vm_name, sizeof agent->vm_name);
    if (agent->thread_ids) hs_thread_labels_prepare(jni);
    if (agent->opts.live && start_live(agent, jvmti, jni) != 0)
        hs_warn("live-heap tracking is off for this run; the allocation profile is unaffected");
    if (agent->opts.adapt_interval)
        hs_throttle_control_interval(agent->throttle, atomic_load(&agent->sampling_interval),
                                     agent->opts.interval_given, agent->survival,
                                     set_interval_for_cap, agent);
    atomic_store(&agent->phase, HS_PHASE_RUNNING);
    jvmtiError err = set_event(jvmti, JVMTI_ENABLE);
    if (err != JVMTI_ERROR_NONE) {
        atomic_store(&agent->phase, HS_PHASE_STOPPED);
        hs_error("enabling SampledObjectAlloc failed (JVMTI error %d): no allocation samples will "
                 "be taken; the application runs on unprofiled", err);
        return -1;
    }
    return 0;
}

/* Event off, then wait for the callbacks that were already inside. */
static bool switch_off(hs_agent *agent, jvmtiEnv *jvmti, const char *why) {
    jvmtiError err = set_event(jvmti, JVMTI_DISABLE);
    if (err != JVMTI_ERROR_NONE) /* the phase alone keeps callbacks out of the tables */
        hs_warn("disabling SampledObjectAlloc (%s) failed (JVMTI error %d)", why, err);
    if (hs_agent_drain(agent, HS_DRAIN_TIMEOUT_MS)) return true;
    hs_warn("%s: a sampling callback is still inside the agent after %d ms; what it "
            "records may still land in the profile", why, HS_DRAIN_TIMEOUT_MS);
    return false;
}

int hs_sampling_pause(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni, char *why, size_t whylen) {
    int expected = HS_PHASE_RUNNING;
    if (!atomic_compare_exchange_strong(&agent->phase, &expected, HS_PHASE_PAUSED)) {
        snprintf(why, whylen, "sampling is not running (%s)", hs_sampling_state_name(agent));
        return -1;
    }
    switch_off(agent, jvmti, "stop");
    /* A late callback can still add a ref after this; it is released at the next stop
     * or at exit, like any other. */
    uint64_t released = hs_live_release_refs(&agent->live, jni);
    hs_info("sampling stopped; %llu weak refs released", (unsigned long long)released);
    return 0;
}

int hs_sampling_resume(hs_agent *agent, jvmtiEnv *jvmti, int64_t interval, bool given,
                       char *why, size_t whylen) {
    if (atomic_load(&agent->phase) != HS_PHASE_PAUSED) {
        snprintf(why, whylen, "sampling is not stopped (%s)", hs_sampling_state_name(agent));
        return -1;
    }
    jvmtiError err = JVMTI_ERROR_NONE;
    /* Given: set even when it equals the configured one, which the rate cap may have moved
     * the JVM away from. */
    if (given || interval != atomic_load(&agent->sampling_interval))
        err = (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)interval);
    if (err == JVMTI_ERROR_NONE && given) {
        atomic_store(&agent->sampling_interval, interval);
        hs_throttle_interval_reset(agent->throttle, interval); /* the cap's new lowest */
    }
    if (err == JVMTI_ERROR_NONE) {
        atomic_store(&agent->phase, HS_PHASE_RUNNING);
        err = set_event(jvmti, JVMTI_ENABLE);
        if (err != JVMTI_ERROR_NONE) atomic_store(&agent->phase, HS_PHASE_PAUSED);
    }
    if (err != JVMTI_ERROR_NONE) {
        snprintf(why, whylen, "the JVM refused (JVMTI error %d); sampling stays off", err);
        return -1;
    }
    hs_info("sampling started at interval %lld", (long long)interval);
    return 0;
}

int hs_sampling_change_interval(hs_agent *agent, jvmtiEnv *jvmti, int64_t interval, char *why,
                                size_t whylen) {
    int expected = HS_PHASE_RUNNING;
    if (!atomic_compare_exchange_strong(&agent->phase, &expected, HS_PHASE_PAUSED)) {
        snprintf(why, whylen, "sampling is not running (%s)", hs_sampling_state_name(agent));
        return -1;
    }
    /* The cap's interval controller runs in the callbacks: none may be inside while its
     * floor moves. The tracked objects stay (a stop would release them). */
    switch_off(agent, jvmti, "interval change");
    return hs_sampling_resume(agent, jvmti, interval, true, why, whylen);
}

bool hs_sampling_end(hs_agent *agent, jvmtiEnv *jvmti) {
    atomic_store(&agent->phase, HS_PHASE_STOPPED); /* callbacks return at once from now on */
    return switch_off(agent, jvmti, "exit");
}

const char *hs_sampling_state_name(const hs_agent *agent) {
    switch (atomic_load(&agent->phase)) {
    case HS_PHASE_RUNNING: return "running";
    case HS_PHASE_PAUSED: return "stopped";
    case HS_PHASE_STOPPED: return "ended";
    default: return "not started";
    }
}
