/* agent.c: the JVMTI entry points and the agent's lifecycle.
 *
 * Agent_OnLoad (or a first Agent_OnAttach into a running JVM) parses the options, claims
 * the heap-sampling capability and allocates the tables. VMInit turns sampling on; VMDeath
 * turns it off, waits for callbacks in flight, and writes the profile. An Agent_OnAttach
 * into a JVM where the agent already runs is a command (control.c). Agent_OnUnload frees
 * what is left. Every failure here is one "heapsampler:" line; a failure after startup
 * never takes the application down with it, and nothing on the attach path exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control/agent.h"
#include "heap/hotspot_tables.h"
#include "control/budget.h"
#include "control/command.h"
#include "control/control.h"
#include "control/copies.h"
#include "base/faults.h"
#include "control/dumps.h"
#include "output/file_output.h"
#include "control/http_export.h"
#include "control/push_export.h"
#include "base/log.h"
#include "base/wall_clock.h"
#include "live/live_tracker.h"
#include "output/profile_output.h"
#include "output/reply.h"
#include "output/snapshot.h"
#include "sampling/sample_table.h"
#include "control/sampling.h"
#include "sampling/stack_store.h"
#include "sampling/symbols.h"
#include "sampling/thread_ids.h"
#include "sampling/thread_names.h"
#include "sampling/sampler.h"
#include "sampling/sampler_bias.h"
#include "sampling/survival.h"
#include "sampling/throttle.h"

/* Table sizes come from memory= (budget.c). Memory is calloc'd, so untouched parts cost
 * address space, not RSS. When a table fills up, samples are folded (overflow.h), never
 * lost, and the tables never grow past the budget. */
static int plan_budget(const hs_options *opts, hs_budget *budget) {
    char err[512];
    int64_t tables = opts->memory; /* push=: the queue of unsent profiles takes its share */
    if (opts->push_url[0] && tables - hs_push_queue_bytes(opts->memory) >= HS_BUDGET_MIN)
        tables -= hs_push_queue_bytes(opts->memory);
    if (hs_budget_plan(tables, opts->track, opts->live, budget, err, sizeof err) == 0)
        return 0;
    hs_error("%s", err);
    return -1;
}

#define MAX_THREAD_NAMES (1u << 14) /* distinct thread names (threads=true) */
#define MAX_THREADS (1u << 14)      /* threads sampled at once whose name ids are cached */


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

/* Loaded into a running JVM without file=: the JVM's working directory is often not its
 * own to write (a packaged service runs in a root-owned /var/lib/NAME), so the profiles
 * go to the JVM's temp directory (java.io.tmpdir; /tmp when it is unset, relative, or not
 * a directory this JVM may write) instead: `name` in it, into file (a pattern: a '%' of
 * the directory doubled). */
static void attach_default_file(jvmtiEnv *jvmti, const char *name, char *file, size_t len) {
    char tmpdir[HS_PATH_MAX];
    bool usable = hs_jvm_property(jvmti, "java.io.tmpdir", tmpdir, sizeof tmpdir) == 0 &&
                  tmpdir[0] == '/' && access(tmpdir, W_OK | X_OK) == 0;
    const char *dir = usable ? tmpdir : "/tmp";
    size_t end = strlen(dir), used = 0;
    while (end > 1 && dir[end - 1] == '/') end--;
    for (size_t i = 0; i < end && used + 2 < len; i++) {
        if (dir[i] == '%') file[used++] = '%';
        file[used++] = dir[i];
    }
    snprintf(file + used, len - used, "%s%s", used > 1 ? "/" : "", name);
}

/* Gives the agent's JVMTI environment back (a load that did not go through). */
static void dispose_env(jvmtiEnv *jvmti) {
    check_jvmti(jvmti, (*jvmti)->DisposeEnvironment(jvmti), "DisposeEnvironment");
}

/* Parses options, handles help, sets the log level and the output path. */
static int configure(hs_agent *agent, jvmtiEnv *jvmti, const char *options, bool attach) {
    char err[HS_PATH_MAX + 512];
    hs_options_defaults(&agent->opts);
    if (hs_options_parse(options, &agent->opts, err, sizeof err) != 0) {
        hs_error("%s", err);
        return -1;
    }
    if (agent->opts.help) {
        char help[16384];
        hs_options_help(help, sizeof help);
        fputs(help, stdout);
        fflush(stdout);
        if (!attach) exit(0); /* at startup like `java -help`: print, then exit successfully */
        return -1; /* into a running JVM: the agent is not started, jcmd shows an error */
    }
    hs_log_set_level(agent->opts.log);
    hs_budget budget;
    if (plan_budget(&agent->opts, &budget) != 0) return -1;
    hs_options defaults;
    hs_options_defaults(&defaults);
    static const char *const default_file_of_format[] = {
        [HS_FORMAT_COLLAPSED] = "heapsampler-%p.collapsed",
        [HS_FORMAT_HTML] = "heapsampler-%p.html",
    };
    const char *format_file = default_file_of_format[agent->opts.format];
    if (format_file && strcmp(agent->opts.file, defaults.file) == 0)
        snprintf(agent->opts.file, sizeof agent->opts.file, "%s", format_file);
    if (attach && !hs_command_has_item(options, "file")) {
        char name[HS_PATH_MAX];
        snprintf(name, sizeof name, "%s", agent->opts.file);
        attach_default_file(jvmti, name, agent->opts.file, sizeof agent->opts.file);
    }
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

/* claim_capabilities: heap sampling is held by another agent. */
#define HS_SAMPLING_HELD 1

/* Claims the capabilities; heap sampling is "solo": one environment per JVM may hold it.
 * 0; HS_SAMPLING_HELD when another agent holds it; -1 on any other failure (logged). */
static int claim_capabilities(jvmtiEnv *jvmti) {
    jvmtiCapabilities potential, wanted;
    memset(&wanted, 0, sizeof wanted);
    if (check_jvmti(jvmti, (*jvmti)->GetPotentialCapabilities(jvmti, &potential),
                    "GetPotentialCapabilities") != 0)
        return -1;
    if (!potential.can_generate_sampled_object_alloc_events) return HS_SAMPLING_HELD;
    wanted.can_generate_sampled_object_alloc_events = 1;
    wanted.can_generate_garbage_collection_events = potential.can_generate_garbage_collection_events;
    wanted.can_get_line_numbers = potential.can_get_line_numbers;
    wanted.can_get_source_file_name = potential.can_get_source_file_name;
    wanted.can_tag_objects = potential.can_tag_objects; /* the humongous reachability pass */
    hs_dumps_add_capabilities(&hs_agent_get()->opts, &potential, &wanted);
    jvmtiError err = (*jvmti)->AddCapabilities(jvmti, &wanted);
    if (err == JVMTI_ERROR_NOT_AVAILABLE) return HS_SAMPLING_HELD;
    return check_jvmti(jvmti, err, "AddCapabilities");
}

/* --- the allocation callback's context (sampler.h) ---------------------------------------- */

static atomic_int *sampler_enter(void *owner) { return hs_agent_enter(owner); }

static bool sampler_running(void *owner) {
    return atomic_load(&((hs_agent *)owner)->phase) == HS_PHASE_RUNNING;
}

static void sampler_track(void *owner, jvmtiEnv *jvmti, JNIEnv *jni, jobject object,
                          uint32_t bucket, uint32_t class_id, uint64_t size, uint64_t weight_fp) {
    hs_agent *agent = owner;
    struct hs_live_tracker *live = atomic_load(&agent->live);
    if (live) hs_live_track(live, jvmti, jni, object, bucket, class_id, size, weight_fp);
}

/* Static like the agent: the callback may read it until the JVM is gone. */
static hs_sampler sampler;

/* The mean gap before the first sample of a thread the JVM created before the agent set its
 * interval (sampler.h): HotSpot's default when attached, the agent's own at startup (set in
 * Agent_OnLoad), as JDK 11 draws it before sampling is first enabled (sampler_bias.h). */
static int64_t first_gap_interval(hs_agent *agent, jvmtiEnv *jvmti, bool attach) {
    char version[128];
    int feature = hs_jvm_property(jvmti, "java.vm.version", version, sizeof version) == 0
                      ? hs_java_feature_version(version)
                      : -1;
    return hs_first_gap_mean(feature, attach ? HS_JVM_DEFAULT_INTERVAL : agent->opts.interval);
}

static void install_sampler(hs_agent *agent, jvmtiEnv *jvmti, bool attach) {
    sampler = (hs_sampler){
        .config = {.depth = agent->opts.depth, .threads = agent->opts.threads,
                   .base_interval = agent->opts.interval,
                   .first_gap_interval = first_gap_interval(agent, jvmti, attach)},
        .counters = {.stack_errors = &agent->counters.stack_errors,
                     .truncated = &agent->counters.truncated},
        .stacks = agent->stacks,
        .samples = agent->samples,
        .symbols = agent->symbols,
        .thread_ids = agent->thread_ids,
        .overflow = &agent->overflow,
        .throttle = agent->throttle,
        .survival = agent->survival,
        .sampling_interval = &agent->sampling_interval,
        .owner = agent,
        .enter = sampler_enter,
        .running = sampler_running,
        .track = sampler_track,
    };
    hs_sampler_install(&sampler);
}

static int create_tables(hs_agent *agent, jvmtiEnv *jvmti, bool attach) {
    hs_budget b;
    if (plan_budget(&agent->opts, &b) != 0) return -1;
    hs_overflow_init(&agent->overflow, agent->opts.memory);
    agent->stacks = hs_stack_store_create(b.stacks, b.frame_bytes);
    agent->samples = hs_sample_table_create_reserved(b.buckets, b.bucket_reserve);
    agent->symbols = hs_symbols_create(b.methods, b.classes, b.symbol_bytes);
    hs_debug("memory=%lldm: %u stacks (%zu MiB of frames), %u buckets, %u methods, %u classes "
             "(%zu MiB of names), live table %zu MiB",
             (long long)(agent->opts.memory >> 20), b.stacks, b.frame_bytes >> 20, b.buckets,
             b.methods, b.classes, b.symbol_bytes >> 20, b.live_bytes >> 20);
    if (agent->opts.rate > 0) /* rate cap (throttle.h) */
        agent->throttle = hs_throttle_create(agent->opts.rate, agent->opts.rate_period_ns,
                                             (uint64_t)hs_wall_nanos(), hs_throttle_clock_nanos());
    bool favour_survivors = agent->throttle && agent->opts.live && agent->opts.survival;
    if (favour_survivors) agent->survival = hs_survival_create();
    if (agent->symbols) {
        hs_symbols_set_raw_names(agent->symbols, agent->opts.raw_names);
        hs_symbols_set_gc_bracket(agent->symbols, &agent->gc_bracket);
    }
    if (agent->opts.threads) agent->thread_names = hs_thread_names_create(MAX_THREAD_NAMES);
    if (agent->thread_names) agent->thread_ids = hs_thread_ids_create(MAX_THREADS, agent->thread_names);
    if (agent->stacks && agent->samples && agent->symbols &&
        (agent->opts.rate == 0 || agent->throttle) && (!favour_survivors || agent->survival) &&
        (!agent->opts.threads || agent->thread_ids)) {
        install_sampler(agent, jvmti, attach);
        return 0;
    }
    hs_error("out of memory allocating the sampling tables");
    return -1;
}

static void free_tables(hs_agent *agent, JNIEnv *jni) {
    hs_sampler_install(NULL);
    if (agent->stacks) hs_stack_store_destroy(agent->stacks);
    if (agent->samples) hs_sample_table_destroy(agent->samples);
    if (agent->symbols) hs_symbols_destroy(agent->symbols, jni);
    hs_thread_ids_destroy(agent->thread_ids);
    agent->thread_ids = NULL;
    hs_thread_names_destroy(agent->thread_names);
    agent->thread_names = NULL;
    agent->stacks = NULL;
    agent->samples = NULL;
    agent->symbols = NULL;
    hs_throttle_destroy(agent->throttle);
    agent->throttle = NULL;
    hs_survival_destroy(agent->survival);
    agent->survival = NULL;
}

/* Turns sampling on: VMInit, or at once when attached to a running JVM. */
static void start_sampling(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (hs_sampling_begin(agent, jvmti, jni) != 0) return;
    char options[HS_PATH_MAX + 512];
    hs_options_format(&agent->opts, options, sizeof options);
    hs_info("started: %s; profile to %s", options, agent->output_path);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)thread;
    start_sampling(hs_agent_get(), jvmti, jni);
    hs_dumps_start(hs_agent_get(), jvmti, jni);
    hs_http_export_start(hs_agent_get(), jvmti, jni);
    hs_push_export_start(hs_agent_get(), jvmti, jni);
}

static void log_line(void *ctx, const char *line) {
    (void)ctx;
    hs_info("%s", line);
}

/* The rate cap's status lines at log=info (bench/overhead.sh reads them). */
static void log_rate_status(hs_agent *agent) {
    hs_throttle_status_lines(agent->throttle, hs_throttle_clock_nanos(), log_line, NULL);
    char survival[512];
    hs_survival_format_status(agent->survival, survival, sizeof survival);
    if (agent->throttle) hs_info("%s", survival);
}

static void final_dump(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    int phase = atomic_load(&agent->phase);
    if (phase != HS_PHASE_RUNNING && phase != HS_PHASE_PAUSED) return;
    hs_dumps_stop_periodic(agent);
    bool drained = hs_sampling_end(agent, jvmti);
    if (agent->opts.live) hs_live_prepare_final_dump(&agent->live, jni);
    hs_dumps_write_exit(agent, jni);
    char overflow[512]; /* the dump-time half of the overflow warning */
    hs_snapshot_source src = hs_agent_snapshot_source(agent);
    if (hs_overflow_describe(&agent->overflow, hs_snapshot_samples_taken(&src), overflow,
                             sizeof overflow))
        hs_warn("%s", overflow);
    hs_counters *c = &agent->counters;
    hs_info("samples recorded: %llu; dropped: %llu (tables full); stack walks failed: %llu",
            (unsigned long long)hs_sample_table_samples(agent->samples),
            (unsigned long long)atomic_load(&c->dropped),
            (unsigned long long)atomic_load(&c->stack_errors));
    hs_info("class ids: %llu looked up through JVMTI (the others from the memo of the "
            "classes' addresses between collections)",
            (unsigned long long)hs_symbols_class_jvm_lookups(agent->symbols));
    char losses[256];
    if (hs_symbols_describe_losses(agent->symbols, losses, sizeof losses)) hs_info("%s", losses);
    log_rate_status(agent);
    if (agent->opts.live) hs_live_stop(&agent->live, jni, drained);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_agent *agent = hs_agent_get();
    pthread_mutex_lock(&agent->lifecycle_lock); /* a command in progress finishes first */
    hs_http_export_stop(agent); /* no profile served past this point; bounded */
    hs_push_export_stop(agent); /* the last window pushed, within HS_PUSH_EXIT_MS */
    final_dump(agent, jvmti, jni);
    pthread_mutex_unlock(&agent->lifecycle_lock);
}

/* GarbageCollectionFinish: bumps the GC epoch and hands the collection to the live tracker
 * (hs_live_on_gc: no JNI). Counted in flight like a sampling callback, so a teardown that
 * cleared agent->live waits for us before it frees the tracker we may have read. */
static void JNICALL on_gc_finish(jvmtiEnv *jvmti) {
    hs_agent *agent = hs_agent_get();
    hs_gc_bracket_close(&agent->gc_bracket);
    uint32_t epoch = atomic_fetch_add_explicit(&agent->gc_epoch, 1, memory_order_release) + 1;
    atomic_int *in_flight = hs_agent_enter(agent);
    struct hs_live_tracker *t = atomic_load(&agent->live);
    if (t) hs_live_on_gc(t, jvmti, epoch);
    hs_agent_leave(in_flight);
}

/* GarbageCollectionStart: the bracket shuts (first: objects may move from here on), and the
 * live tracker learns a collection opened (nesting). */
static void JNICALL on_gc_start(jvmtiEnv *jvmti) {
    (void)jvmti;
    hs_agent *agent = hs_agent_get();
    hs_gc_bracket_open(&agent->gc_bracket);
    atomic_int *in_flight = hs_agent_enter(agent);
    struct hs_live_tracker *t = atomic_load(&agent->live);
    if (t) hs_live_on_gc_start(t);
    hs_agent_leave(in_flight);
}

static int register_callbacks(jvmtiEnv *jvmti) {
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.VMInit = on_vm_init;
    callbacks.VMDeath = on_vm_death;
    callbacks.SampledObjectAlloc = hs_on_sampled_object_alloc;
    callbacks.ThreadStart = hs_on_thread_start;
    callbacks.GarbageCollectionStart = on_gc_start;
    callbacks.GarbageCollectionFinish = on_gc_finish;
    callbacks.ResourceExhausted = hs_dumps_on_resource_exhausted;
    if (check_jvmti(jvmti, (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks),
                    "SetEventCallbacks") != 0)
        return -1;
    if (check_jvmti(jvmti,
                    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH,
                                                       NULL),
                    "enabling VMDeath") != 0)
        return -1;
    /* Not fatal: without it no thread's first gap is known, and each first sample is
     * weighed at the interval of its callback, as before ThreadStart was used (first gaps
     * weighed at first_gap_interval would make every thread started later count its first
     * sample for 512 KiB). Sampling is not on yet: the callbacks cannot see the change. */
    if (check_jvmti(jvmti,
                    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                                       JVMTI_EVENT_THREAD_START, NULL),
                    "enabling ThreadStart") != 0)
        sampler.config.first_gap_interval = 0;
    return 0;
}

/* load_agent: the agent stepped aside (another agent holds heap sampling; logged). The
 * JVM runs on as if heapsampler were absent: JNI_OK at startup, an error on attach. */
#define HS_LOAD_REFUSED 1

/* Everything up to (not including) turning sampling on. JNI_OK, JNI_ERR (logged), or
 * HS_LOAD_REFUSED. */
static jint load_agent(JavaVM *vm, const char *options, bool attach) {
    hs_agent *agent = hs_agent_get();
    if (hs_faults_configure(getenv("HEAPSAMPLER_TEST_FAULTS")) != 0)
        hs_warn("HEAPSAMPLER_TEST_FAULTS: an item was not understood and is ignored");
    jvmtiEnv *jvmti = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK || !jvmti) {
        hs_error("this JVM has no JVMTI 11 environment; heap sampling (JEP 331) needs JDK 11+");
        return JNI_ERR;
    }
    if (configure(agent, jvmti, options, attach) != 0) {
        dispose_env(jvmti);
        return JNI_ERR;
    }
    agent->vm = vm;
    agent->jvmti = jvmti;
    atomic_store(&agent->sampling_interval, agent->opts.interval);
    int claimed = claim_capabilities(jvmti);
    if (claimed == HS_SAMPLING_HELD) {
        hs_error("heap sampling is held by another JVMTI agent in this JVM (async-profiler, "
                 "another heap profiler); only one can sample the heap: heapsampler does "
                 "nothing in this JVM");
        dispose_env(jvmti);
        agent->jvmti = NULL;
        return HS_LOAD_REFUSED;
    }
    /* The interval is set before any thread exists: the JVM draws each thread's first
     * sampling gap when the thread starts, so setting it at VMInit would leave `main`
     * with a first gap drawn at the default 512 KiB. */
    if (claimed != 0 ||
        check_jvmti(jvmti, (*jvmti)->SetHeapSamplingInterval(jvmti, (jint)agent->opts.interval),
                    "SetHeapSamplingInterval") != 0 ||
        create_tables(agent, jvmti, attach) != 0 || register_callbacks(jvmti) != 0 ||
        hs_dumps_init(agent, jvmti) != 0 || hs_http_export_open(agent) != 0 ||
        hs_push_export_open(agent) != 0) {
        free_tables(agent, NULL);
        dispose_env(jvmti);
        agent->jvmti = NULL;
        return JNI_ERR;
    }
    atomic_store(&agent->phase, HS_PHASE_LOADED);
    return JNI_OK;
}

/* Set once an Agent_OnLoad or Agent_OnAttach has loaded this copy of the agent. */
static atomic_int loaded;

/* Exported (exports.map, copies.h): whether this copy of the library runs the agent, for
 * another copy loaded into the same JVM to find. */
JNIEXPORT jint JNICALL heapsampler_copy_running(void);
JNIEXPORT jint JNICALL heapsampler_copy_running(void) { return atomic_load(&loaded); }

/* The copy of the library running in this JVM if it is another file than this one: true
 * with *running filled. */
static bool other_copy_runs(hs_copy *running) {
    return hs_copies_find_running(heapsampler_copy_running, running);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if (atomic_exchange(&loaded, 1)) { /* the first load of this file owns the profile */
        hs_warn("agent already loaded in this JVM; ignoring this copy (options '%s')",
                options ? options : "");
        return JNI_OK;
    }
    hs_copy running;
    if (other_copy_runs(&running)) { /* another file of heapsampler came first: it profiles */
        atomic_store(&loaded, 0);
        char self[PATH_MAX];
        hs_copies_own_path(heapsampler_copy_running, self, sizeof self);
        hs_warn("another copy of heapsampler runs in this JVM (%s); this copy (%s, options "
                "'%s') does nothing", running.path, self, options ? options : "");
        return JNI_OK;
    }
    jint rc = load_agent(vm, options, false);
    if (rc == HS_LOAD_REFUSED) { /* the program runs, unprofiled; the line said why */
        atomic_store(&loaded, 0);
        return JNI_OK;
    }
    if (rc != JNI_OK) return rc;
    jvmtiEnv *jvmti = hs_agent_get()->jvmti;
    return check_jvmti(jvmti,
                       (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL),
                       "enabling VMInit") == 0 ? JNI_OK : JNI_ERR;
}

/* The JNI environment of the attaching thread, or NULL (logged). */
static JNIEnv *attach_jni(JavaVM *vm) {
    JNIEnv *jni = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_8) == JNI_OK && jni) return jni;
    hs_error("attach: no JNI environment on the attaching thread");
    return NULL;
}

/* Loads the agent into a running JVM with startup options. 0, or -1 (logged). */
static jint attach_load(JavaVM *vm, JNIEnv *jni, const char *options) {
    jint rc = load_agent(vm, options, true);
    if (rc != JNI_OK) return JNI_ERR; /* not loaded: a later attach may try again */
    atomic_store(&loaded, 1);
    hs_agent *agent = hs_agent_get();
    start_sampling(agent, agent->jvmti, jni);
    hs_dumps_start(agent, agent->jvmti, jni);
    hs_http_export_start(agent, agent->jvmti, jni);
    hs_push_export_start(agent, agent->jvmti, jni);
    return JNI_OK;
}

static const char NOT_RUNNING[] = "heapsampler is not running in this JVM";

/* A first attach with reply=PATH (the operator's command): a command word is answered
 * "not running"; startup options load the agent, and the reply says so with the effective
 * options, or carries the errors. */
static jint attach_with_reply(JavaVM *vm, JNIEnv *jni, const char *options, const char *reply) {
    char err[HS_PATH_MAX + 256];
    int fd = hs_reply_open("reply", reply, err, sizeof err);
    if (fd == HS_REPLY_GONE) { /* a late load: the operator was told it failed; not loaded */
        hs_control_count_late();
        return JNI_ERR;
    }
    if (fd < 0) {
        hs_error("%s", err);
        return JNI_ERR;
    }
    hs_text answer = {0};
    jint rc = JNI_ERR;
    static char startup[2 * HS_PATH_MAX]; /* attaches run one at a time */
    if (hs_command_is_command(options)) {
        hs_text_puts(&answer, NOT_RUNNING);
    } else if (!hs_command_drop_item(options, "reply", startup, sizeof startup)) {
        hs_text_puts(&answer, "bad option: the options are too long");
    } else {
        hs_log_capture(&answer);
        rc = attach_load(vm, jni, startup);
        hs_log_capture(NULL);
        if (rc == JNI_OK) {
            char effective[HS_PATH_MAX + 512];
            hs_options_format(&hs_agent_get()->opts, effective, sizeof effective);
            hs_text_free(&answer); /* warnings of a successful load stay on stderr */
            char exit_profile[2 * HS_PATH_MAX + 128];
            hs_control_exit_profile(hs_agent_get(), exit_profile, sizeof exit_profile);
            hs_text_printf(&answer, "loaded\noptions: %s\nexit profile: %s\n", effective,
                           exit_profile);
        }
    }
    if (hs_reply_answer(fd, rc != JNI_OK, hs_text_str(&answer), err, sizeof err) != 0)
        hs_error("reply file '%s': %s", reply, err);
    hs_text_free(&answer);
    return rc;
}

/* The JVM calls this for every JVMTI.agent_load of this library: the first one loads the
 * agent; with the agent loaded (at startup or by an earlier attach), it is a command. A
 * command word before the agent is loaded is refused ("help" alone prints the options). */
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved) {
    JNIEnv *jni = attach_jni(vm);
    if (!jni) return JNI_ERR;
    if (atomic_load(&loaded)) return hs_control_run(hs_agent_get(), jni, options);
    hs_copy running;
    /* Another file of heapsampler runs here: the attach is for it (a command, or a load
     * it answers as loaded), as if its own path had been named. */
    if (other_copy_runs(&running)) return running.on_attach(vm, options, reserved);
    char reply[HS_PATH_MAX];
    if (hs_command_find_item(options, "reply", reply, sizeof reply))
        return attach_with_reply(vm, jni, options, reply);
    if (hs_command_is_command(options) && strcmp(options, "help") != 0) {
        hs_error("'%.64s': %s; load it first (with startup options)", options, NOT_RUNNING);
        return JNI_ERR;
    }
    return attach_load(vm, jni, options);
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
