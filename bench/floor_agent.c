/* floor_agent.c: the JVM's own cost of heap sampling, as a reference for the benchmarks.
 *
 * A throwaway JVMTI agent that turns on SampledObjectAlloc at a given interval and does
 * (almost) nothing with the samples, so a benchmark can tell what the JVM charges for
 * sampling itself from what a profiler adds on top. Modes:
 *   nop    an empty callback: the JVM's sampling machinery and the callback transition
 *   stack  GetStackTrace, 64 frames, discarded: the least a profiler must do per sample
 *   weak   stack + NewWeakGlobalRef per sample, never freed: the least a live-heap
 *          profiler must do (weak refs cost the GC too)
 *   count  counts the samples and prints the count at exit (not a floor: for the
 *          benchmarks to report how many samples a workload takes at an interval)
 * stack, weak and count print the number of samples they took at exit (stack and weak
 * count them too: bench/attribution.sh reports the stack walks its minimal agent made).
 *
 * Usage: -agentpath:/path/floor_agent.so=mode=stack,interval=32k
 * interval takes a byte count with an optional k/m suffix (powers of 1024); default 512k.
 * Built by the bench scripts (lib.sh build_floor_agent: gcc -shared -fPIC, with frame pointers
 * so that perf's call graphs see through the callbacks); not part of the product. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR_STACK_DEPTH 64

typedef enum { MODE_NOP, MODE_STACK, MODE_WEAK, MODE_COUNT } floor_mode;

static floor_mode mode = MODE_NOP;
static atomic_long samples_seen;

static void JNICALL on_sample_nop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
                                  jclass klass, jlong size) {
    (void)jvmti, (void)jni, (void)thread, (void)object, (void)klass, (void)size;
}

/* The frames are discarded, but the call is into the JVM, so it cannot be optimised out. */
static void walk_stack(jvmtiEnv *jvmti) {
    atomic_fetch_add_explicit(&samples_seen, 1, memory_order_relaxed);
    jvmtiFrameInfo frames[FLOOR_STACK_DEPTH];
    jint count = 0;
    (*jvmti)->GetStackTrace(jvmti, NULL, 0, FLOOR_STACK_DEPTH, frames, &count);
}

static void JNICALL on_sample_stack(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
                                    jclass klass, jlong size) {
    (void)jni, (void)thread, (void)object, (void)klass, (void)size;
    walk_stack(jvmti);
}

static void JNICALL on_sample_weak(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
                                   jclass klass, jlong size) {
    (void)thread, (void)klass, (void)size;
    walk_stack(jvmti);
    (*jni)->NewWeakGlobalRef(jni, object); /* deliberately kept until the JVM exits */
}

static void JNICALL on_sample_count(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
                                    jclass klass, jlong size) {
    (void)jvmti, (void)jni, (void)thread, (void)object, (void)klass, (void)size;
    atomic_fetch_add_explicit(&samples_seen, 1, memory_order_relaxed);
}

/* Parses "512k", "32k", "1m", "4096": returns -1 on anything else. */
static long parse_size(const char *text) {
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || value < 0) return -1;
    if (*end == 'k' || *end == 'K') value *= 1024, end++;
    else if (*end == 'm' || *end == 'M') value *= 1024 * 1024, end++;
    if (*end != '\0' || value > 0x7fffffffL) return -1;
    return value;
}

/* Reads "key=value,key=value" into mode and *interval: returns 0, or -1 with a message. */
static int parse_options(const char *options, long *interval) {
    char buffer[256];
    if (options == NULL) return 0;
    if (strlen(options) >= sizeof buffer) {
        fprintf(stderr, "floor_agent: options too long\n");
        return -1;
    }
    strcpy(buffer, options);
    for (char *save = NULL, *item = strtok_r(buffer, ",", &save); item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        bool ok = true;
        if (strcmp(item, "mode=nop") == 0) mode = MODE_NOP;
        else if (strcmp(item, "mode=stack") == 0) mode = MODE_STACK;
        else if (strcmp(item, "mode=weak") == 0) mode = MODE_WEAK;
        else if (strcmp(item, "mode=count") == 0) mode = MODE_COUNT;
        else if (strncmp(item, "interval=", 9) == 0) ok = (*interval = parse_size(item + 9)) >= 0;
        else ok = false;
        if (!ok) {
            fprintf(stderr, "floor_agent: bad option '%s' (mode=nop|stack|weak|count, interval=N[k|m])\n", item);
            return -1;
        }
    }
    return 0;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    long interval = 512 * 1024;
    if (parse_options(options, &interval) != 0) return JNI_ERR;

    jvmtiEnv *jvmti = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK) {
        fprintf(stderr, "floor_agent: JVMTI 11 is not available\n");
        return JNI_ERR;
    }
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_sampled_object_alloc_events = 1;
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    switch (mode) {
    case MODE_NOP: callbacks.SampledObjectAlloc = on_sample_nop; break;
    case MODE_STACK: callbacks.SampledObjectAlloc = on_sample_stack; break;
    case MODE_WEAK: callbacks.SampledObjectAlloc = on_sample_weak; break;
    case MODE_COUNT: callbacks.SampledObjectAlloc = on_sample_count; break;
    }
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE ||
        (*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint)sizeof callbacks) != JVMTI_ERROR_NONE ||
        (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)interval) != JVMTI_ERROR_NONE ||
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC,
                                           NULL) != JVMTI_ERROR_NONE) {
        fprintf(stderr, "floor_agent: enabling SampledObjectAlloc failed\n");
        return JNI_ERR;
    }
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm) {
    (void)vm;
    if (mode != MODE_NOP) fprintf(stderr, "floor_agent: %ld samples\n", atomic_load(&samples_seen));
}
