/* agent.c: the JVMTI entry points and the agent's lifecycle.
 *
 * Agent_OnLoad (or Agent_OnAttach into a running JVM) parses the options, claims the
 * heap-sampling capability and allocates the tables. VMInit turns sampling on; VMDeath
 * turns it off, waits for callbacks in flight, and writes the profile. Agent_OnUnload
 * frees what is left. Every failure here is one "heapsampler:" line; a failure after
 * startup never takes the application down with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "file_output.h"
#include "log.h"
#include "wall_clock.h"
#include "live_tracker.h"
#include "profile_output.h"
#include "sample_table.h"
#include "stack_store.h"
#include "symbols.h"
#include "thread_names.h"

/* Table sizes. Memory is calloc'd, so untouched parts cost address space, not RSS.
 * Generous enough for large applications; when one fills up, samples are dropped and
 * counted (profile comments, log=info) rather than the tables growing without bound. */
#define MAX_STACKS (1u << 17)
#define STACK_FRAME_BUDGET ((size_t)128 << 20)
#define MAX_BUCKETS (1u << 18)
#define MAX_METHODS (1u << 18)
#define MAX_CLASSES (1u << 16)
#define MAX_THREAD_NAMES (1u << 14) /* distinct thread names (threads=true) */
#define SYMBOL_BUDGET ((size_t)64 << 20)


/* "JVMTI_ERROR_NOT_AVAILABLE (98)" into buf. */
static const char *jvmti_error_text(jvmtiEnv *jvmti, jvmtiError err, char *buf, size_t len) {
    char *name = NULL;
    if (jvmti && (*jvmti)->GetErrorName(jvmti, err, &name) == JVMTI_ERROR_NONE && name) {
        snprintf(buf, len, "%s (%d)", name, (int)err);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    } else {
        snprintf(buf, len, "JVMTI error %d", (int)err);
    }
    return buf;
}

static int check_jvmti(jvmtiEnv *jvmti, jvmtiError err, const char *what) {
    if (err == JVMTI_ERROR_NONE) return 0;
    char text[128];
    hs_error("%s failed: %s", what, jvmti_error_text(jvmti, err, text, sizeof text));
    return -1;
}

/* --- startup ----------------------------------------------------------------------- */

/* Parses options, handles help, sets the log level and the output path. */
static int configure(hs_agent *agent, const char *options) {
    char err[HS_PATH_MAX + 512];
    hs_options_defaults(&agent->opts);
    if (hs_options_parse(options, &agent->opts, err, sizeof err) != 0) {
        hs_error("%s", err);
        return -1;
    }
    if (agent->opts.help) { /* like `java -help`: print, then exit successfully */
        char help[8192];
        hs_options_help(help, sizeof help);
        fputs(help, stdout);
        fflush(stdout);
        exit(0);
    }
    hs_log_set_level(agent->opts.log);
    hs_options defaults;
    hs_options_defaults(&defaults);
    if (agent->opts.format == HS_FORMAT_COLLAPSED && strcmp(agent->opts.file, defaults.file) == 0)
        snprintf(agent->opts.file, sizeof agent->opts.file, "heapsampler-%%p.collapsed");
    agent->start_time = time(NULL);
    agent->start_nanos = hs_wall_nanos();
    if (hs_expand_file_pattern(agent->opts.file, (long)getpid(), agent->start_time,
                               agent->output_path, sizeof agent->output_path, err,
                               sizeof err) != 0 ||
        hs_check_output_dir(agent->output_path, err, sizeof err) != 0) {
        hs_error("bad option 'file=%s': %s", agent->opts.file, err);
        return -1;
    }
    return 0;
}

/* Claims the capabilities; heap sampling is "solo": one environment per JVM may hold it. */
static int claim_capabilities(jvmtiEnv *jvmti) {
    jvmtiCapabilities potential, wanted;
    memset(&wanted, 0, sizeof wanted);
    if (check_jvmti(jvmti, (*jvmti)->GetPotentialCapabilities(jvmti, &potential),
                    "GetPotentialCapabilities") != 0)
        return -1;
    static const char owned[] =
        "heap sampling is already owned by another heap profiler in this JVM (async-profiler, "
        "another JVMTI agent, or another copy of heapsampler); only one can sample the heap";
    if (!potential.can_generate_sampled_object_alloc_events) {
        hs_error("%s", owned);
        return -1;
    }
    wanted.can_generate_sampled_object_alloc_events = 1;
    wanted.can_generate_garbage_collection_events = potential.can_generate_garbage_collection_events;
    wanted.can_get_line_numbers = potential.can_get_line_numbers;
    wanted.can_get_source_file_name = potential.can_get_source_file_name;
    wanted.can_tag_objects = potential.can_tag_objects; /* the humongous reachability pass */
    jvmtiError err = (*jvmti)->AddCapabilities(jvmti, &wanted);
    if (err == JVMTI_ERROR_NOT_AVAILABLE) {
        hs_error("%s", owned);
        return -1;
    }
    return check_jvmti(jvmti, err, "AddCapabilities");
}

static int create_tables(hs_agent *agent) {
    agent->stacks = hs_stack_store_create(MAX_STACKS, STACK_FRAME_BUDGET);
    agent->samples = hs_sample_table_create(MAX_BUCKETS);
    agent->symbols = hs_symbols_create(MAX_METHODS, MAX_CLASSES, SYMBOL_BUDGET);
    if (agent->symbols) hs_symbols_set_raw_names(agent->symbols, agent->opts.raw_names);
    if (agent->opts.threads) agent->thread_names = hs_thread_names_create(MAX_THREAD_NAMES);
    if (agent->stacks && agent->samples && agent->symbols &&
        (!agent->opts.threads || agent->thread_names))
        return 0;
    hs_error("out of memory allocating the sampling tables");
    return -1;
}

static void free_tables(hs_agent *agent, JNIEnv *jni) {
    if (agent->stacks) hs_stack_store_destroy(agent->stacks);
    if (agent->samples) hs_sample_table_destroy(agent->samples);
    if (agent->symbols) hs_symbols_destroy(agent->symbols, jni);
    hs_thread_names_destroy(agent->thread_names);
    agent->thread_names = NULL;
    agent->stacks = NULL;
    agent->samples = NULL;
    agent->symbols = NULL;
}

/* Copies a system property into buf ("?" when unavailable). */
static void read_property(jvmtiEnv *jvmti, const char *key, char *buf, size_t len) {
    char *value = NULL;
    if ((*jvmti)->GetSystemProperty(jvmti, key, &value) == JVMTI_ERROR_NONE && value) {
        snprintf(buf, len, "%s", value);
        (*jvmti)->Deallocate(jvmti, (unsigned char *)value);
    } else {
        snprintf(buf, len, "?");
    }
}

/* Turns sampling on: VMInit, or at once when attached to a running JVM. */
static void start_sampling(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    read_property(jvmti, "java.vm.version", agent->java_version, sizeof agent->java_version);
    read_property(jvmti, "java.vm.name", agent->vm_name, sizeof agent->vm_name);
    if (agent->opts.live && hs_live_start(agent, jvmti, jni) != 0)
        hs_warn("live-heap tracking is off for this run; the allocation profile is unaffected");
    if (check_jvmti(jvmti,
                    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                                       JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL),
                    "enabling SampledObjectAlloc") != 0) {
        hs_error("no allocation samples will be taken; the application runs on unprofiled");
        atomic_store(&agent->phase, HS_PHASE_STOPPED);
        return;
    }
    atomic_store(&agent->phase, HS_PHASE_RUNNING);
    char options[HS_PATH_MAX + 512];
    hs_options_format(&agent->opts, options, sizeof options);
    hs_info("started: %s; profile to %s", options, agent->output_path);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)thread;
    start_sampling(hs_agent_get(), jvmti, jni);
}

/* Stops sampling and waits (bounded) until no callback is inside the tables. */
static void stop_sampling(hs_agent *agent, jvmtiEnv *jvmti) {
    atomic_store(&agent->phase, HS_PHASE_STOPPED); /* callbacks return at once from now on */
    check_jvmti(jvmti,
                (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE,
                                                   JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL),
                "disabling SampledObjectAlloc");
    for (int i = 0; i < 2000 && hs_agent_callbacks_in_flight(agent) > 0; i++)
        usleep(1000);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_agent *agent = hs_agent_get();
    if (atomic_load(&agent->phase) != HS_PHASE_RUNNING) return;
    stop_sampling(agent, jvmti);
    if (agent->opts.live) hs_live_prepare_final_dump(agent, jni);
    hs_write_profile(agent, jni, agent->output_path);
    hs_counters *c = &agent->counters;
    hs_info("samples recorded: %llu; dropped: %llu (tables full); stack walks failed: %llu",
            (unsigned long long)hs_sample_table_samples(agent->samples),
            (unsigned long long)atomic_load(&c->dropped),
            (unsigned long long)atomic_load(&c->stack_errors));
    if (agent->opts.live) hs_live_stop(agent, jni);
}

static int register_callbacks(jvmtiEnv *jvmti) {
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.VMInit = on_vm_init;
    callbacks.VMDeath = on_vm_death;
    callbacks.SampledObjectAlloc = hs_on_sampled_object_alloc;
    callbacks.GarbageCollectionFinish = hs_live_on_gc_finish;
    if (check_jvmti(jvmti, (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks),
                    "SetEventCallbacks") != 0)
        return -1;
    return check_jvmti(jvmti,
                       (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH,
                                                          NULL),
                       "enabling VMDeath");
}

/* Everything up to (not including) turning sampling on. */
static jint load_agent(JavaVM *vm, const char *options) {
    hs_agent *agent = hs_agent_get();
    if (configure(agent, options) != 0) return JNI_ERR;
    jvmtiEnv *jvmti = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK || !jvmti) {
        hs_error("this JVM has no JVMTI 11 environment; heap sampling (JEP 331) needs JDK 11+");
        return JNI_ERR;
    }
    agent->vm = vm;
    agent->jvmti = jvmti;
    /* The interval is set before any thread exists: the JVM draws each thread's first
     * sampling gap when the thread starts, so setting it at VMInit would leave `main`
     * with a first gap drawn at the default 512 KiB. */
    if (claim_capabilities(jvmti) != 0 ||
        check_jvmti(jvmti, (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)agent->opts.interval),
                    "SetHeapSamplingInterval") != 0 ||
        create_tables(agent) != 0 || register_callbacks(jvmti) != 0) {
        free_tables(agent, NULL);
        (*jvmti)->DisposeEnvironment(jvmti);
        agent->jvmti = NULL;
        return JNI_ERR;
    }
    atomic_store(&agent->phase, HS_PHASE_LOADED);
    return JNI_OK;
}

/* A second copy of the agent in one JVM is refused: the first one owns the profile. */
static int already_loaded(const char *options) {
    static atomic_int loaded;
    if (atomic_exchange(&loaded, 1) == 0) return 0;
    hs_warn("agent already loaded in this JVM; ignoring this copy (options '%s')",
            options ? options : "");
    return 1;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if (already_loaded(options)) return JNI_OK;
    jint rc = load_agent(vm, options);
    if (rc != JNI_OK) return rc;
    jvmtiEnv *jvmti = hs_agent_get()->jvmti;
    return check_jvmti(jvmti,
                       (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL),
                       "enabling VMInit") == 0 ? JNI_OK : JNI_ERR;
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if (already_loaded(options)) return JNI_ERR;
    jint rc = load_agent(vm, options);
    if (rc != JNI_OK) return rc;
    JNIEnv *jni = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_8) != JNI_OK) {
        hs_error("attach: no JNI environment on the attaching thread");
        return JNI_ERR;
    }
    hs_agent *agent = hs_agent_get();
    start_sampling(agent, agent->jvmti, jni);
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm) {
    (void)vm;
    hs_agent *agent = hs_agent_get();
    int phase = atomic_load(&agent->phase);
    if (phase == HS_PHASE_UNLOADED) return;
    atomic_store(&agent->phase, HS_PHASE_STOPPED);
    /* A callback still inside the tables (a daemon thread caught mid-sample) would read
     * freed memory: leave them to the process exit in that unlikely case. */
    if (hs_agent_callbacks_in_flight(agent) == 0) free_tables(agent, NULL);
    agent->phase = HS_PHASE_UNLOADED;
}
