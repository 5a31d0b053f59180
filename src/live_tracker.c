/* live_tracker.c: weak refs per sampled object, GC epochs, the sweeper thread
 * (see live_tracker.h). */
#include "live_tracker.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "humongous.h"
#include "live_table.h"
#include "log.h"
#include "wall_clock.h"
#include "sample_table.h"

/* Humongous objects tracked at once (by identity, see humongous.h): each is at least half
 * a G1 region, so 16k entries cover 8 GB or more of humongous allocation between dumps
 * before thinning starts. */
#define HUMONGOUS_CAPACITY 16384

typedef struct hs_live_tracker {
    hs_live_table *table;
    hs_humongous *humongous;  /* G1 only: objects tracked without a reference */
    hs_heap_usage *heap;
    jrawMonitorID wake;       /* GC finish -> sweeper; guards stop/running */
    jrawMonitorID sweep_lock; /* sweeper vs. dumps: one walker of the table at a time */
    int stop;                 /* under wake */
    int running;              /* under wake */
    _Atomic uint64_t random;  /* seeds each thread's PRNG (admission and slot choice) */
    hs_live_history_entry history[HS_LIVE_HISTORY]; /* ring, under sweep_lock */
    uint32_t history_next, history_count;
    uint32_t history_epoch; /* epoch of the newest history entry */
} hs_live_tracker;

/* Raw monitor helpers: a failure here is logged once; the sweeper then just stops. */
static int monitor_call(jvmtiError err, const char *what) {
    static atomic_int logged;
    if (err == JVMTI_ERROR_NONE) return 0;
    if (!atomic_exchange(&logged, 1)) hs_warn("raw monitor %s failed (JVMTI error %d)", what, err);
    return -1;
}

/* --- the hot path -------------------------------------------------------------------- */

/* Stores a weak ref to object in the table; false when there is no room. */
static bool track_object(hs_agent *agent, JNIEnv *jni, jobject object, uint64_t random,
                         uint32_t bucket, uint32_t epoch, uint64_t weight_fp, uint8_t level) {
    jweak ref = (*jni)->NewWeakGlobalRef(jni, object);
    if (!ref) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        return false;
    }
    if (hs_live_table_insert(agent->live->table, random, ref, bucket, epoch, weight_fp, level) < 0) {
        (*jni)->DeleteWeakGlobalRef(jni, ref);
        return false;
    }
    return true;
}

/* A random draw from this thread's own splitmix64 state, seeded once from the shared one:
 * a shared state would be an atomic add on one cache line from every thread per sample. */
static uint64_t next_random(hs_live_tracker *t) {
    static _Thread_local uint64_t state __attribute__((tls_model("initial-exec")));
    if (state == 0) state = hs_random_next_shared(&t->random) | 1;
    return hs_random_next(&state);
}

void hs_live_track(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni, jobject object, uint32_t bucket,
                   uint64_t size, uint64_t weight_fp) {
    hs_live_tracker *t = agent->live;
    if (!t) return;
    uint64_t random = next_random(t);
    uint8_t level = 0;
    bool humongous = hs_humongous_applies(t->humongous, size);
    bool admitted = humongous ? hs_humongous_admit(t->humongous, random, &level)
                              : hs_live_table_admit(t->table, random, &level);
    if (!admitted) return; /* its weight stays with the admitted samples */
    uint32_t epoch = atomic_load_explicit(&agent->gc_epoch, memory_order_acquire);
    bool tracked = humongous ? hs_humongous_track(t->humongous, jvmti, object, random, bucket,
                                                  epoch, weight_fp, level)
                             : track_object(agent, jni, object, random, bucket, epoch, weight_fp,
                                            level);
    if (tracked) return;
    /* No room (a burst outran the thinning): the sample's weight must not vanish, or its
     * site's live estimate is biased low. The bucket records it and the dump extrapolates
     * the site from its tracked samples. */
    hs_sample_table_add_untracked(agent->samples, bucket, weight_fp << level);
    atomic_fetch_add_explicit(&agent->counters.live_untracked, 1, memory_order_relaxed);
}

/* --- GC events and the sweeper ---------------------------------------------------------- */

void JNICALL hs_live_on_gc_finish(jvmtiEnv *jvmti) {
    hs_agent *agent = hs_agent_get();
    atomic_fetch_add_explicit(&agent->gc_epoch, 1, memory_order_release);
    hs_live_tracker *t = agent->live;
    if (!t) return;
    /* Raw monitors are among the few things a GC callback may use. */
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->wake), "enter") != 0) return;
    monitor_call((*jvmti)->RawMonitorNotifyAll(jvmti, t->wake), "notify");
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
}

typedef struct {
    hs_agent *agent;
    JNIEnv *jni;
} sweep_context;

static void release_ref(const hs_live_entry *entry, void *ctx) {
    sweep_context *c = ctx;
    (*c->jni)->DeleteWeakGlobalRef(c->jni, (jweak)entry->ref);
    atomic_fetch_add_explicit(&c->agent->counters.live_deleted, 1, memory_order_relaxed);
}

static hs_live_action remove_if_dead(const hs_live_entry *entry, void *ctx) {
    sweep_context *c = ctx;
    if (!(*c->jni)->IsSameObject(c->jni, (jweak)entry->ref, NULL)) return HS_LIVE_KEEP;
    release_ref(entry, ctx);
    return HS_LIVE_REMOVE;
}

static void remember_heap(hs_live_tracker *t, JNIEnv *jni, uint32_t epoch) {
    hs_heap_reading reading;
    hs_heap_usage_read(t->heap, jni, &reading);
    hs_live_history_entry *h = &t->history[t->history_next];
    *h = (hs_live_history_entry){.time_nanos = hs_wall_nanos(), .epoch = epoch,
                                 .used = reading.used_bytes, .valid = reading.valid};
    t->history_next = (t->history_next + 1) % HS_LIVE_HISTORY;
    if (t->history_count < HS_LIVE_HISTORY) t->history_count++;
}

static void sweep_once(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni, uint32_t epoch) {
    hs_live_tracker *t = agent->live;
    sweep_context ctx = {agent, jni};
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return;
    hs_live_table_sweep(t->table, remove_if_dead, release_ref, &ctx);
    if (t->humongous) hs_humongous_maintain(t->humongous);
    if (epoch != t->history_epoch) { /* a GC happened: note the heap it left */
        remember_heap(t, jni, epoch);
        t->history_epoch = epoch;
    }
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
}

/* How often the sweeper checks whether the table needs thinning between GCs. Inserters
 * raise the level when the table crowds; thinning must follow before it fills, or new
 * samples find no slot. Polling keeps every lock out of the allocation path. */
#define THIN_POLL_MS 20

/* Waits for a GC epoch newer than *seen, or for the table to need thinning. Returns 1 to
 * sweep (with *seen updated), 0 to stop. */
static int wait_for_work(hs_agent *agent, jvmtiEnv *jvmti, uint32_t *seen) {
    hs_live_tracker *t = agent->live;
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->wake), "enter") != 0) return 0;
    uint32_t epoch;
    while (!t->stop && (epoch = atomic_load(&agent->gc_epoch)) == *seen &&
           !hs_live_table_thin_pending(t->table))
        if (monitor_call((*jvmti)->RawMonitorWait(jvmti, t->wake, THIN_POLL_MS), "wait") != 0)
            t->stop = 1;
    int go_on = !t->stop;
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
    *seen = atomic_load(&agent->gc_epoch);
    return go_on;
}

static void JNICALL sweeper_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg) {
    hs_agent *agent = arg;
    hs_live_tracker *t = agent->live;
    uint32_t seen = 0;
    /* JNI is never called while holding `wake`: a GC triggered by this thread would
     * otherwise wait in the GC callback for a monitor this thread holds. */
    while (wait_for_work(agent, jvmti, &seen)) sweep_once(agent, jvmti, jni, seen);
    if ((*jvmti)->RawMonitorEnter(jvmti, t->wake) == JVMTI_ERROR_NONE) {
        t->running = 0;
        monitor_call((*jvmti)->RawMonitorNotifyAll(jvmti, t->wake), "notify");
        monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
    }
}

/* Starts the sweeper as a JVMTI agent thread (a daemon Java thread running C). */
static int start_sweeper(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID init = thread_class ? (*jni)->GetMethodID(jni, thread_class, "<init>",
                                                       "(Ljava/lang/String;)V") : NULL;
    jstring name = init ? (*jni)->NewStringUTF(jni, "heapsampler sweeper") : NULL;
    jobject thread = name ? (*jni)->NewObject(jni, thread_class, init, name) : NULL;
    if (!thread) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        hs_error("cannot create the sweeper thread object");
        return -1;
    }
    agent->live->running = 1;
    jvmtiError err = (*jvmti)->RunAgentThread(jvmti, thread, sweeper_main, agent,
                                              JVMTI_THREAD_NORM_PRIORITY);
    (*jni)->DeleteLocalRef(jni, name);
    (*jni)->DeleteLocalRef(jni, thread);
    (*jni)->DeleteLocalRef(jni, thread_class);
    if (err != JVMTI_ERROR_NONE) {
        agent->live->running = 0;
        hs_error("RunAgentThread failed (JVMTI error %d)", err);
        return -1;
    }
    return 0;
}

static void destroy_tracker(hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (!t) return;
    if (t->table) hs_live_table_destroy(t->table);
    hs_humongous_destroy(t->humongous);
    hs_heap_usage_destroy(t->heap, jni);
    if (t->wake) (*jvmti)->DestroyRawMonitor(jvmti, t->wake);
    if (t->sweep_lock) (*jvmti)->DestroyRawMonitor(jvmti, t->sweep_lock);
    free(t);
}

/* On G1, humongous objects are tracked without references (humongous.h). That needs the
 * tagging capability for the dump's heap walk; without it they stay untracked (their
 * bytes then show in the residual site). */
static hs_humongous *create_humongous(hs_agent *agent, hs_heap_usage *heap, uint64_t seed) {
    uint64_t threshold = heap ? hs_heap_usage_humongous_threshold(heap) : 0;
    jvmtiCapabilities caps;
    if (threshold == 0) return NULL;
    if ((*agent->jvmti)->GetCapabilities(agent->jvmti, &caps) != JVMTI_ERROR_NONE ||
        !caps.can_tag_objects) {
        hs_info("no tagging capability: G1 humongous objects are not tracked for liveness");
        return NULL;
    }
    return hs_humongous_create(threshold, HUMONGOUS_CAPACITY, hs_random_mix64(seed + 1));
}

static hs_live_tracker *create_tracker(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_live_tracker *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    uint64_t seed = (uint64_t)hs_wall_nanos() ^ (uint64_t)(uintptr_t)t;
    atomic_store(&t->random, seed);
    t->table = hs_live_table_create((uint32_t)agent->opts.track, hs_random_mix64(seed));
    t->heap = hs_heap_usage_create(jvmti, jni, agent->opts.heap_source);
    t->humongous = create_humongous(agent, t->heap, seed);
    if (!t->table || !t->heap ||
        (*jvmti)->CreateRawMonitor(jvmti, "heapsampler wake", &t->wake) != JVMTI_ERROR_NONE ||
        (*jvmti)->CreateRawMonitor(jvmti, "heapsampler sweep", &t->sweep_lock) != JVMTI_ERROR_NONE) {
        destroy_tracker(t, jvmti, jni);
        return NULL;
    }
    return t;
}

int hs_live_start(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_live_tracker *t = create_tracker(agent, jvmti, jni);
    if (!t) {
        hs_error("cannot set up live-heap tracking (out of memory or no raw monitor)");
        return -1;
    }
    agent->live = t;
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                                        JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
    if (err != JVMTI_ERROR_NONE || start_sweeper(agent, jvmti, jni) != 0) {
        if (err != JVMTI_ERROR_NONE) hs_error("enabling GarbageCollectionFinish failed (%d)", err);
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE,
                                           JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
        agent->live = NULL;
        destroy_tracker(t, jvmti, jni);
        return -1;
    }
    return 0;
}

/* --- dumps ------------------------------------------------------------------------------ */

typedef struct {
    JNIEnv *jni;
    double *live_weight;
    uint32_t nbuckets;
    uint32_t epoch;
} collect_context;

/* Counts an entry allocated before the last GC whose object has not been collected. */
static void add_if_live(const hs_live_entry *entry, void *ctx) {
    collect_context *c = ctx;
    if (entry->epoch >= c->epoch || entry->bucket == 0 || entry->bucket > c->nbuckets) return;
    if ((*c->jni)->IsSameObject(c->jni, (jweak)entry->ref, NULL)) return;
    c->live_weight[entry->bucket] += (double)entry->weight_fp / (double)HS_WEIGHT_ONE;
}

static void copy_history(const hs_live_tracker *t, hs_live_view *view) {
    view->nhistory = t->history_count;
    uint32_t first = (t->history_next + HS_LIVE_HISTORY - t->history_count) % HS_LIVE_HISTORY;
    for (uint32_t i = 0; i < t->history_count; i++)
        view->history[i] = t->history[(first + i) % HS_LIVE_HISTORY];
}

int hs_live_collect(hs_agent *agent, JNIEnv *jni, uint32_t nbuckets, hs_live_view *view) {
    hs_live_tracker *t = agent->live;
    jvmtiEnv *jvmti = agent->jvmti;
    memset(view, 0, sizeof *view);
    view->live_weight = calloc((size_t)nbuckets + 1, sizeof *view->live_weight);
    if (!t || !jni || !view->live_weight) return -1;
    view->nbuckets = nbuckets;
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return -1;
    view->epoch = atomic_load_explicit(&agent->gc_epoch, memory_order_acquire);
    collect_context ctx = {jni, view->live_weight, nbuckets, view->epoch};
    hs_live_table_each(t->table, add_if_live, &ctx);
    if (t->humongous)
        view->humongous_known = hs_humongous_collect(t->humongous, jvmti, jni, agent->samples,
                                                     view->epoch, view->live_weight, nbuckets) == 0;
    view->humongous_tracked = t->humongous ? hs_humongous_tracked(t->humongous) : 0;
    hs_heap_usage_read(t->heap, jni, &view->heap);
    copy_history(t, view);
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    view->level = stats.level;
    view->tracked = stats.occupancy;
    view->gc_name = hs_heap_usage_gc_name(t->heap);
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return 0;
}

void hs_live_view_free(hs_live_view *view) {
    free(view->live_weight);
    view->live_weight = NULL;
}

/* --- shutdown --------------------------------------------------------------------------- */

void hs_live_prepare_final_dump(hs_agent *agent, JNIEnv *jni) {
    (void)jni;
    hs_live_tracker *t = agent->live;
    jvmtiEnv *jvmti = agent->jvmti;
    if (!t || (*jvmti)->RawMonitorEnter(jvmti, t->wake) != JVMTI_ERROR_NONE) return;
    t->stop = 1;
    monitor_call((*jvmti)->RawMonitorNotifyAll(jvmti, t->wake), "notify");
    for (int i = 0; i < 50 && t->running; i++) /* at most ~5 s: never hang the exit */
        if (monitor_call((*jvmti)->RawMonitorWait(jvmti, t->wake, 100), "wait") != 0) break;
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
}

void hs_live_stop(hs_agent *agent, JNIEnv *jni) {
    hs_live_tracker *t = agent->live;
    jvmtiEnv *jvmti = agent->jvmti;
    if (!t) return;
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE,
                                                        JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
    if (err != JVMTI_ERROR_NONE) /* the callback reads agent->live, cleared below: harmless */
        hs_warn("disabling GarbageCollectionFinish failed (JVMTI error %d)", err);
    if (t->running) { /* the sweeper did not stop in time: leave everything to the exit */
        hs_warn("sweeper thread still busy at exit; weak refs left to the JVM");
        return;
    }
    hs_counters *c = &agent->counters;
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    uint64_t deleted_before = atomic_load(&c->live_deleted);
    sweep_context ctx = {agent, jni};
    hs_live_table_clear(t->table, release_ref, &ctx);
    /* The leak check the churn test reads: created - deleted == tracked, then all released. */
    hs_info("weak refs: %llu created (one per tracked sample), %llu deleted while running "
            "(object collected, or its sample thinned out), %u still held at exit (created - "
            "deleted); %llu deleted in all after releasing those (equals created when none "
            "leaked); %llu samples left untracked (table full: extrapolated from their site)",
            (unsigned long long)stats.inserted, (unsigned long long)deleted_before,
            stats.occupancy, (unsigned long long)atomic_load(&c->live_deleted),
            (unsigned long long)atomic_load(&c->live_untracked));
    agent->live = NULL;
    destroy_tracker(t, jvmti, jni);
}
