/* live_tracker.c: weak refs per sampled object, GC epochs, the sweeper thread
 * (see live_tracker.h). */
#include "live/live_tracker.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/faults.h"
#include "heap/gc_counters.h"
#include "live/growth.h"
#include "live/humongous.h"
#include "live/live_age.h"
#include "live/live_table.h"
#include "live/sweep_pace.h"
#include "base/log.h"
#include "base/wall_clock.h"
#include "sampling/sample_table.h"
#include "live/suspects.h"
#include "sampling/survival.h"
#include "base/tls_model.h"
#include "sampling/throttle.h" /* hs_throttle_clock_nanos: the cheap clock of the hot path */

/* Humongous objects tracked at once (by identity, see humongous.h): each is at least half
 * a G1 region, so 16k entries cover 8 GB or more of humongous allocation between dumps
 * before thinning starts. */
#define HUMONGOUS_CAPACITY 16384

typedef struct hs_live_tracker {
    hs_live_config config;    /* as given to hs_live_start */
    hs_live_table *table;
    hs_humongous *humongous;  /* G1 only: objects tracked without a reference */
    hs_heap_usage *heap;
    jrawMonitorID wake;       /* GC finish -> sweeper; guards stop */
    jrawMonitorID sweep_lock; /* sweeper vs. dumps: one walker of the table at a time */
    int stop;                 /* under wake */
    /* Set by the sweeper as its very last access to the tracker: only then may the tracker
     * (and the monitors the sweeper was using) be freed. A flag the sweeper set under a
     * monitor and announced with a notify would not do: the sweeper still touches the
     * monitor while it leaves it. */
    atomic_int sweeper_exited;
    _Atomic uint64_t random;  /* seeds each thread's PRNG (admission and slot choice) */
    hs_live_history_entry history[HS_LIVE_HISTORY]; /* ring, under sweep_lock */
    uint32_t history_next, history_count;
    uint32_t history_epoch; /* epoch of the newest history entry */
    int64_t published_nanos; /* monotonic: when survival factors were last published */
    int64_t poll_nanos;      /* sweeper: monotonic time of its last look at the table */
    uint64_t poll_inserted;  /* sweeper: the table's inserts then */
    /* Lowest heap after a GC since hs_live_heap_low_water last asked (OOM episodes). */
    uint64_t low_water;
    bool low_valid;
    hs_growth *growth;      /* per-GC in-use per site (growth.h), under sweep_lock */
    int64_t clock_origin;   /* hs_throttle_clock_nanos() when tracking started */
    hs_gc_counters counters; /* CollectedHeap's collection counts, read in the GC callback */
    hs_liveness liveness;    /* which samples a complete marking judged (liveness.h) */
    uint32_t markings_logged; /* sweeper: markings already logged */
    hs_sweep_pace pace;       /* whether a GC wakes the sweeper at once (sweep_pace.h) */
} hs_live_tracker;

/* Set on a thread while it holds the tracker's locks or reads the heap figure (the sweeper
 * always): an OutOfMemoryError such a thread meets must not start a dump that would wait
 * for those locks (hs_live_thread_is_busy). */
static _Thread_local bool busy_here;

/* The peak (dumps.c writes it): live weights per bucket as judged at the GC after which
 * the heap was highest. One per process, not per tracker: it is the run's peak, and it
 * survives a stop/start of tracking (the buffer is reused, never leaked). Read and
 * written under the current tracker's sweep_lock. */
typedef struct {
    double weight;  /* live weight, JVM samples */
    double weight2; /* sum of squared weights */
    double seconds; /* sum of weight x age in seconds at the peak's sweep */
    double confirmed, confirmed_seconds; /* the same over samples a marking had judged */
} peak_site;

static struct {
    peak_site *site; /* 1..nbuckets; NULL until a peak was seen */
    uint32_t nbuckets;
    uint32_t epoch;
    uint64_t used;
    int64_t nanos;
    hs_liveness_state liveness; /* the last complete marking at the peak */
} peak;

/* Raw monitor helpers: a failure here is logged once; the sweeper then just stops. */
static int monitor_call(jvmtiError err, const char *what) {
    static atomic_int logged;
    if (err == JVMTI_ERROR_NONE) return 0;
    if (!atomic_exchange(&logged, 1)) hs_warn("raw monitor %s failed (JVMTI error %d)", what, err);
    return -1;
}

/* --- the hot path -------------------------------------------------------------------- */

/* Seconds since tracking started, on the coarse clock (a few ms of resolution, ~20 ns). */
static uint32_t seconds_now(const hs_live_tracker *t) {
    int64_t ns = hs_throttle_clock_nanos() - t->clock_origin;
    return ns > 0 ? (uint32_t)(ns / 1000000000) : 0;
}

/* Stores a weak ref to object in the table, tagged with its survival slot (the sweep then
 * learns from it without reading its bucket: one cache miss an entry less); false when
 * there is no room. */
static bool track_object(hs_live_tracker *t, JNIEnv *jni, jobject object, uint64_t random,
                         uint32_t bucket, uint16_t survival_slot, hs_live_birth birth,
                         uint64_t weight_fp, uint8_t level) {
    jweak ref = (*jni)->NewWeakGlobalRef(jni, object);
    if (!ref) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        return false;
    }
    if (hs_live_table_insert(t->table, random, ref, bucket, survival_slot, birth, weight_fp,
                             level) < 0) {
        (*jni)->DeleteWeakGlobalRef(jni, ref);
        return false;
    }
    return true;
}

/* A random draw from this thread's own splitmix64 state, seeded once from the shared one:
 * a shared state would be an atomic add on one cache line from every thread per sample. */
static uint64_t next_random(hs_live_tracker *t) {
    static _Thread_local uint64_t state HS_TLS_FAST;
    if (state == 0) state = hs_random_next_shared(&t->random) | 1;
    return hs_random_next(&state);
}

void hs_live_track(hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni, jobject object,
                   uint32_t bucket, uint32_t class_id, uint64_t size, uint64_t weight_fp) {
    uint64_t random = next_random(t);
    uint8_t level = 0;
    bool humongous = hs_humongous_applies(t->humongous, size);
    bool admitted = humongous ? hs_humongous_admit(t->humongous, random, &level)
                              : hs_live_table_admit(t->table, random, &level);
    if (!admitted) return; /* its weight stays with the admitted samples */
    uint32_t epoch = atomic_load_explicit(t->config.gc_epoch, memory_order_acquire);
    bool tracked = humongous ? hs_humongous_track(t->humongous, jvmti, object, random, bucket,
                                                  epoch, weight_fp, level)
                             : track_object(t, jni, object, random, bucket,
                                            hs_survival_slot(class_id, size),
                                            (hs_live_birth){epoch, seconds_now(t)}, weight_fp,
                                            level);
    if (tracked) return;
    /* No room (a burst outran the thinning): the sample's weight must not vanish, or its
     * site's live estimate is biased low. The bucket records it and the dump extrapolates
     * the site from its tracked samples. */
    hs_sample_table_add_untracked(t->config.sampled.samples, bucket, weight_fp << level);
    atomic_fetch_add_explicit(&t->config.sampled.counters->live_untracked, 1, memory_order_relaxed);
}

/* --- GC events and the sweeper ---------------------------------------------------------- */

/* GC callback: did this collection complete a marking? Plain loads only, no I/O. */
static bool note_marking(hs_live_tracker *t, uint32_t epoch) {
    uint32_t total, full;
    return hs_gc_counters_read(&t->counters, &total, &full) &&
           hs_liveness_on_gc(&t->liveness, epoch, total, full) != HS_MARKING_NONE;
}

/* Sweeper: one debug line per complete marking seen since the last sweep. */
static void log_new_markings(hs_live_tracker *t) {
    hs_liveness_state s;
    hs_liveness_read(&t->liveness, &s);
    if (s.markings == t->markings_logged) return;
    t->markings_logged = s.markings;
    hs_debug("complete marking at GC %u (%s): samples born before GC epoch %u are confirmed",
             s.last_epoch, hs_marking_kind_name(s.last_kind), s.judged_before);
}

void hs_live_on_gc_start(hs_live_tracker *t) { hs_liveness_on_gc_start(&t->liveness); }

static void wake_sweeper(hs_live_tracker *t, jvmtiEnv *jvmti) {
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->wake), "enter") == 0) {
        monitor_call((*jvmti)->RawMonitorNotifyAll(jvmti, t->wake), "notify");
        monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
    }
}

void hs_live_on_gc(hs_live_tracker *t, jvmtiEnv *jvmti, uint32_t epoch) {
    bool marking = note_marking(t, epoch);
    /* Under fast GCs a plain one waits for the sweep the sweeper makes when the hold ends
     * (sweep_pace.h); where markings cannot be told (ZGC, Shenandoah) none is plain: any
     * GC may be the one an OutOfMemoryError's profile or the peak needs (OomTest#Z read a
     * peak of 1 GC swept in 10). Raw monitors are among the few things a GC callback may
     * use. */
    bool urgent = marking || !hs_liveness_supported(&t->liveness);
    if (hs_sweep_pace_gc(&t->pace, hs_monotonic_nanos(), urgent)) wake_sweeper(t, jvmti);
}

typedef struct {
    hs_growth *growth;
    uint32_t epoch;
    uint32_t entries;
} growth_walk;

typedef struct {
    hs_counters *counters;
    hs_sample_table *samples;
    struct hs_survival *survival; /* NULL: survival factors off */
    growth_walk *growth;          /* the sweep after a GC records its survivors; else NULL */
    JNIEnv *jni;
    uint32_t epoch, previous; /* swept now; at the last GC's sweep (survival outcomes) */
} sweep_context;

static void release_ref(const hs_live_entry *entry, void *ctx) {
    sweep_context *c = ctx;
    (*c->jni)->DeleteWeakGlobalRef(c->jni, (jweak)entry->ref);
    atomic_fetch_add_explicit(&c->counters->live_deleted, 1, memory_order_relaxed);
}

/* survival=true (survival.h): what the sweep learns of this sample's survival, by the
 * survival slot its entry is tagged with. */
static void learn_survival(sweep_context *c, const hs_live_entry *entry, bool dead) {
    int outcome = hs_survival_outcome(entry->epoch, c->previous, c->epoch, dead);
    if (outcome >= 0) hs_survival_learn_slot(c->survival, entry->tag, outcome == 1);
}

static void add_survivor(const hs_live_entry *entry, void *ctx);

static hs_live_action remove_if_dead(const hs_live_entry *entry, void *ctx) {
    sweep_context *c = ctx;
    bool dead = (*c->jni)->IsSameObject(c->jni, (jweak)entry->ref, NULL);
    if (c->survival) learn_survival(c, entry, dead);
    if (!dead && c->growth) add_survivor(entry, c->growth);
    if (!dead) return HS_LIVE_KEEP;
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

static void note_peak(hs_live_tracker *t, JNIEnv *jni, uint32_t epoch);

static void add_survivor(const hs_live_entry *entry, void *ctx) {
    growth_walk *w = ctx;
    if (entry->epoch >= w->epoch) return; /* born after the GC */
    hs_growth_add(w->growth, entry->bucket, entry->epoch,
                  (double)entry->weight_fp / (double)HS_WEIGHT_ONE);
    w->entries++;
}

/* The epoch before which samples count for growth: those a marking judged, or, when the
 * collector's markings cannot be told, every survivor of the last GC. */
static uint32_t growth_boundary(const hs_live_tracker *t, uint32_t epoch) {
    if (!hs_liveness_supported(&t->liveness)) return epoch;
    hs_liveness_state s;
    hs_liveness_read(&t->liveness, &s);
    return s.judged_before < epoch ? s.judged_before : epoch;
}

/* The sweep after a GC records what survived it per site, and what of that a marking
 * judged (growth.h), as it visits the entries (a second walk of the table cost a third of
 * the sweeper's time on AllocMix); the sweep's time goes into the comments. Entries the
 * sweep then thins out count with the weight they had: unbiased either way. */
static void begin_growth(hs_live_tracker *t, growth_walk *w, uint32_t epoch) {
    *w = (growth_walk){t->growth, epoch, 0};
    hs_growth_begin(t->growth, epoch, growth_boundary(t, epoch), hs_wall_nanos());
}

static void end_growth(hs_live_tracker *t, const growth_walk *w, int64_t start) {
    if (hs_growth_end(t->growth) != 0)
        hs_debug("growth record of GC %u dropped (no memory)", w->epoch);
    hs_growth_note_walk(t->growth, hs_monotonic_nanos() - start, w->entries);
}

/* Factors are published at most every SURVIVAL_PUBLISH_NS: a young GC may come 20 times a
 * second, recomputing the 2,048 factors costs about 40 us, and a factor a quarter second
 * old is as good a guide as a fresh one (it is learned over thousands of outcomes). */
#define SURVIVAL_PUBLISH_NS INT64_C(250000000)

static void publish_survival(hs_live_tracker *t) {
    int64_t now = hs_monotonic_nanos();
    if (t->published_nanos != 0 && now - t->published_nanos < SURVIVAL_PUBLISH_NS) return;
    hs_survival_publish(t->config.survival);
    t->published_nanos = now;
}

static void sweep_once(hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni, uint32_t epoch) {
    bool after_gc = epoch != t->history_epoch;
    growth_walk growth;
    sweep_context ctx = {t->config.sampled.counters, t->config.sampled.samples,
                         t->config.survival, after_gc && t->growth ? &growth : NULL, jni,
                         epoch, t->history_epoch};
    busy_here = true; /* this is the sweeper thread, for good */
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return;
    int64_t start = hs_monotonic_nanos();
    if (ctx.growth) begin_growth(t, &growth, epoch);
    hs_live_table_sweep(t->table, remove_if_dead, release_ref, &ctx);
    if (ctx.growth) end_growth(t, &growth, start);
    if (t->config.survival && after_gc) publish_survival(t);
    if (t->humongous) hs_humongous_maintain(t->humongous);
    log_new_markings(t);
    if (after_gc) { /* a GC happened: note the heap it left */
        remember_heap(t, jni, epoch);
        t->history_epoch = epoch;
        note_peak(t, jni, epoch);
    }
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
}

/* How long the sweeper waits before it checks again whether the table needs thinning
 * between GCs. Inserters raise the level when the table crowds; thinning must follow
 * before it fills, or new samples find no slot. Polling keeps every lock out of the
 * allocation path; the insert rate since the last look sets the period
 * (hs_live_table_poll_ms: 20 ms when the table could crowd soon, ~0.7 s when idle). */
static jlong next_poll_ms(hs_live_tracker *t) {
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    int64_t now = hs_monotonic_nanos();
    double seconds = (double)(now - t->poll_nanos) / 1e9;
    double rate = t->poll_nanos != 0 && seconds > 0
                      ? (double)(stats.inserted - t->poll_inserted) / seconds
                      : 0;
    t->poll_nanos = now;
    t->poll_inserted = stats.inserted;
    return hs_live_table_poll_ms(t->table, rate);
}

/* How long the sweeper may wait now (ms; 0: work to do): a GC newer than `seen` waits
 * while the pace holds it, and with none the sleep ends when the hold does, so that a GC
 * held meanwhile (it woke nobody) is swept then. */
static jlong wait_ms(hs_live_tracker *t, uint32_t seen) {
    if (hs_live_table_thin_pending(t->table)) return 0;
    int64_t now = hs_monotonic_nanos();
    if (atomic_load(t->config.gc_epoch) == seen)
        return hs_sweep_pace_sleep_ms(&t->pace, now, next_poll_ms(t));
    return hs_sweep_pace_wait_ms(&t->pace, now);
}

/* Waits for a GC epoch newer than *seen (as the pace allows), or for the table to need
 * thinning. Returns 1 to sweep (with *seen updated), 0 to stop. */
static int wait_for_work(hs_live_tracker *t, jvmtiEnv *jvmti, uint32_t *seen) {
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->wake), "enter") != 0) return 0;
    jlong ms;
    while (!t->stop && (ms = wait_ms(t, *seen)) > 0)
        if (monitor_call((*jvmti)->RawMonitorWait(jvmti, t->wake, ms), "wait") != 0)
            t->stop = 1;
    int go_on = !t->stop;
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
    if (atomic_load(t->config.gc_epoch) != *seen)
        hs_sweep_pace_begin(&t->pace, hs_monotonic_nanos());
    *seen = atomic_load(t->config.gc_epoch);
    return go_on;
}

static void JNICALL sweeper_main(jvmtiEnv *jvmti, JNIEnv *jni, void *arg) {
    hs_live_tracker *t = arg;
    uint32_t seen = 0;
    /* JNI is never called while holding `wake`: a GC triggered by this thread would
     * otherwise wait in the GC callback for a monitor this thread holds. */
    while (wait_for_work(t, jvmti, &seen)) sweep_once(t, jvmti, jni, seen);
    hs_fault_delay(HS_FAULT_SWEEPER_EXIT);
    atomic_store(&t->sweeper_exited, 1); /* the last access to t */
}

/* Starts the sweeper as a JVMTI agent thread (a daemon Java thread running C). */
static int start_sweeper(hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni) {
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
    jvmtiError err = (*jvmti)->RunAgentThread(jvmti, thread, sweeper_main, t,
                                              JVMTI_THREAD_NORM_PRIORITY);
    (*jni)->DeleteLocalRef(jni, name);
    (*jni)->DeleteLocalRef(jni, thread);
    (*jni)->DeleteLocalRef(jni, thread_class);
    if (err != JVMTI_ERROR_NONE) {
        hs_error("RunAgentThread failed (JVMTI error %d)", err);
        return -1;
    }
    return 0;
}

static void destroy_tracker(hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni) {
    if (!t) return;
    if (t->table) hs_live_table_destroy(t->table);
    hs_humongous_destroy(t->humongous);
    hs_growth_destroy(t->growth);
    hs_heap_usage_destroy(t->heap, jni);
    if (t->wake) (*jvmti)->DestroyRawMonitor(jvmti, t->wake);
    if (t->sweep_lock) (*jvmti)->DestroyRawMonitor(jvmti, t->sweep_lock);
    free(t);
}

/* On G1, humongous objects are tracked without references (humongous.h). That needs the
 * tagging capability for the dump's heap walk; without it they stay untracked (their
 * bytes then show in the residual site). */
static hs_humongous *create_humongous(jvmtiEnv *jvmti, hs_heap_usage *heap, uint64_t seed) {
    uint64_t threshold = heap ? hs_heap_usage_humongous_threshold(heap) : 0;
    jvmtiCapabilities caps;
    if (threshold == 0) return NULL;
    if ((*jvmti)->GetCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE ||
        !caps.can_tag_objects) {
        hs_info("no tagging capability: G1 humongous objects are not tracked for liveness");
        return NULL;
    }
    return hs_humongous_create(threshold, HUMONGOUS_CAPACITY, hs_random_mix64(seed + 1));
}

/* Which collections complete a marking, for this collector (liveness.h). */
static hs_liveness_mode liveness_mode(const hs_heap_usage *heap) {
    switch ((hs_gc_kind)hs_heap_usage_gc(heap)) {
    case HS_GC_G1: return HS_LIVENESS_G1;
    case HS_GC_PARALLEL:
    case HS_GC_SERIAL: return HS_LIVENESS_FULL_ONLY;
    default: return HS_LIVENESS_UNSUPPORTED;
    }
}

static void start_liveness(hs_live_tracker *t, jvmtiEnv *jvmti) {
    hs_gc_counters_find(&t->counters, jvmti);
    uint32_t total = 0, full = 0;
    bool ok = hs_gc_counters_read(&t->counters, &total, &full);
    hs_liveness_mode mode = liveness_mode(t->heap);
    hs_liveness_init(&t->liveness, mode, ok, total, full);
    if (!ok) hs_info("liveness: collection counters not found (%s): in-use samples stay unjudged",
                     t->counters.why);
    else if (mode == HS_LIVENESS_UNSUPPORTED)
        hs_info("liveness: the %s collector's complete markings cannot be told: in-use samples "
                "stay unjudged unless dump,gc=1 forces a collection",
                hs_heap_usage_gc_name(t->heap));
}

static hs_live_tracker *create_tracker(const hs_live_config *config, jvmtiEnv *jvmti,
                                       JNIEnv *jni) {
    hs_live_tracker *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->config = *config;
    uint64_t seed = (uint64_t)hs_wall_nanos() ^ (uint64_t)(uintptr_t)t;
    atomic_store(&t->random, seed);
    t->clock_origin = hs_throttle_clock_nanos();
    t->table = hs_live_table_create(config->track, hs_random_mix64(seed));
    t->heap = hs_heap_usage_create(jvmti, jni, config->heap_source);
    t->humongous = create_humongous(jvmti, t->heap, seed);
    t->growth = hs_growth_create(); /* NULL: no growth ranking, nothing else lost */
    start_liveness(t, jvmti);
    hs_sweep_pace_init(&t->pace);
    if (!t->table || !t->heap ||
        (*jvmti)->CreateRawMonitor(jvmti, "heapsampler wake", &t->wake) != JVMTI_ERROR_NONE ||
        (*jvmti)->CreateRawMonitor(jvmti, "heapsampler sweep", &t->sweep_lock) != JVMTI_ERROR_NONE) {
        destroy_tracker(t, jvmti, jni);
        return NULL;
    }
    return t;
}

/* Unpublishes the tracker and frees it once nothing can still be using it: no callback
 * in flight (they may have read the slot before it was cleared) and no sweeper. When
 * either is late, the tracker is left to the process exit: a leak, never a use after free. */
static void retire_tracker(hs_live_slot *slot, hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni,
                           bool sweeper_gone) {
    atomic_store(slot, NULL);
    if (!sweeper_gone || !t->config.drain(t->config.drain_ctx, 2000)) {
        hs_warn("live tracker left allocated: %s still running after the wait",
                sweeper_gone ? "a callback was" : "the sweeper thread was");
        return;
    }
    destroy_tracker(t, jvmti, jni);
}

/* GarbageCollectionStart only refines which events are markings (liveness.h): without it
 * every finish stands alone, as before, so a failure is logged and otherwise ignored. Only
 * asked for where the ledger reads markings (G1, Serial, Parallel): under Z, Shenandoah or
 * Epsilon it would be one more event posted from the collector's threads for nothing. */
static void enable_gc_start(const hs_live_tracker *t, jvmtiEnv *jvmti, jvmtiEventMode mode) {
    hs_gc_bracket *bracket = t->config.bracket;
    if (mode == JVMTI_DISABLE && bracket) hs_gc_bracket_disarm(bracket); /* before: see below */
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, mode,
                                                        JVMTI_EVENT_GARBAGE_COLLECTION_START, NULL);
    if (err != JVMTI_ERROR_NONE)
        hs_warn("%s GarbageCollectionStart failed (JVMTI error %d)",
                mode == JVMTI_ENABLE ? "enabling" : "disabling", err);
    /* The bracket reads quiet stretches only while starts are counted: armed after the
     * enabling, disarmed before the disabling. */
    else if (mode == JVMTI_ENABLE && bracket)
        hs_gc_bracket_arm(bracket);
}

int hs_live_start(hs_live_slot *slot, const hs_live_config *config, jvmtiEnv *jvmti, JNIEnv *jni) {
    hs_live_tracker *t = create_tracker(config, jvmti, jni);
    if (!t) {
        hs_error("cannot set up live-heap tracking (out of memory or no raw monitor)");
        return -1;
    }
    atomic_store(slot, t);
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                                        JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
    bool gc_start = hs_liveness_supported(&t->liveness);
    if (gc_start) enable_gc_start(t, jvmti, JVMTI_ENABLE);
    if (err != JVMTI_ERROR_NONE || start_sweeper(t, jvmti, jni) != 0) {
        if (gc_start) enable_gc_start(t, jvmti, JVMTI_DISABLE);
        if (err != JVMTI_ERROR_NONE) hs_error("enabling GarbageCollectionFinish failed (%d)", err);
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE,
                                           JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
        retire_tracker(slot, t, jvmti, jni, true); /* no sweeper was started */
        return -1;
    }
    return 0;
}

/* --- dumps ------------------------------------------------------------------------------ */

typedef struct {
    JNIEnv *jni;
    double *live_weight, *live_weight2;
    hs_age_site *ages;
    double *confirmed_weight;
    hs_age_site *confirmed_ages;
    peak_site *peak;  /* instead of the four above, for the peak */
    uint32_t nbuckets;
    uint32_t epoch;
    uint32_t seconds; /* seconds_now() at the collection */
    hs_liveness_state liveness;
    bool never_collected; /* HS_INUSE_NEVER_COLLECTED: every entry, no GC ages */
} collect_context;

/* Counts an entry allocated before the last GC whose object has not been collected (any
 * entry whose object has not been collected, under a collector that never collects). */
static void add_if_live(const hs_live_entry *entry, void *ctx) {
    collect_context *c = ctx;
    if ((!c->never_collected && entry->epoch >= c->epoch) || entry->bucket == 0 ||
        entry->bucket > c->nbuckets)
        return;
    if ((*c->jni)->IsSameObject(c->jni, (jweak)entry->ref, NULL)) return;
    double weight = (double)entry->weight_fp / (double)HS_WEIGHT_ONE;
    uint32_t age_seconds = hs_age_seconds(entry->seconds, c->seconds);
    bool confirmed = hs_liveness_confirmed(&c->liveness, entry->epoch);
    if (c->peak) { /* no GC ages: the peak keeps one mean age per site */
        peak_site *p = &c->peak[entry->bucket];
        p->weight += weight;
        p->weight2 += weight * weight;
        p->seconds += weight * age_seconds;
        if (confirmed) {
            p->confirmed += weight;
            p->confirmed_seconds += weight * age_seconds;
        }
        return;
    }
    c->live_weight[entry->bucket] += weight;
    c->live_weight2[entry->bucket] += weight * weight;
    if (c->never_collected) { /* no GC: an age in seconds, none in GCs */
        c->ages[entry->bucket].unsplit_weight += weight;
        c->ages[entry->bucket].unsplit_seconds += weight * age_seconds;
        return;
    }
    hs_age_site_add(&c->ages[entry->bucket], c->epoch - entry->epoch, age_seconds, weight);
    if (!confirmed) return;
    c->confirmed_weight[entry->bucket] += weight;
    hs_age_site_add(&c->confirmed_ages[entry->bucket], c->epoch - entry->epoch, age_seconds, weight);
}

static void copy_history(const hs_live_tracker *t, hs_live_view *view) {
    view->nhistory = t->history_count;
    uint32_t first = (t->history_next + HS_LIVE_HISTORY - t->history_count) % HS_LIVE_HISTORY;
    for (uint32_t i = 0; i < t->history_count; i++)
        view->history[i] = t->history[(first + i) % HS_LIVE_HISTORY];
}

/* The newest heap figure the sweeper recorded after a GC (no JNI, no allocation). */
static void heap_from_history(const hs_live_tracker *t, hs_heap_reading *out) {
    *out = (hs_heap_reading){.valid = 0, .used_bytes = 0, .source = hs_heap_usage_source(t->heap)};
    for (uint32_t i = 0; i < t->history_count; i++) {
        const hs_live_history_entry *h =
            &t->history[(t->history_next + HS_LIVE_HISTORY - 1 - i) % HS_LIVE_HISTORY];
        if (!h->valid) continue;
        out->valid = 1;
        out->used_bytes = h->used;
        return;
    }
}

/* The live weights of the peak, and the heap figure of its GC. */
static void copy_peak(const hs_live_tracker *t, hs_live_view *view) {
    uint32_t n = peak.nbuckets < view->nbuckets ? peak.nbuckets : view->nbuckets;
    for (uint32_t i = 1; i <= n; i++) {
        view->live_weight[i] = peak.site[i].weight;
        view->live_weight2[i] = peak.site[i].weight2;
        view->ages[i].unsplit_weight = peak.site[i].weight;
        view->ages[i].unsplit_seconds = peak.site[i].seconds;
        view->confirmed_weight[i] = peak.site[i].confirmed;
        view->confirmed_ages[i].unsplit_weight = peak.site[i].confirmed;
        view->confirmed_ages[i].unsplit_seconds = peak.site[i].confirmed_seconds;
    }
    view->liveness = peak.liveness;
    view->epoch = peak.epoch;
    view->peak_nanos = peak.nanos;
    view->heap = (hs_heap_reading){.valid = 1, .used_bytes = peak.used,
                                   .source = hs_heap_usage_source(t->heap)};
}

/* The live view now: weak refs and humongous objects judged, the heap figure read
 * (from the history when the caller may not allocate Java objects). */
static void collect_now(hs_live_tracker *t, JNIEnv *jni, hs_live_when when, hs_live_view *view) {
    view->epoch = atomic_load_explicit(t->config.gc_epoch, memory_order_acquire);
    view->inuse_basis = hs_inuse_basis_of(
        hs_gc_never_collects((hs_gc_kind)hs_heap_usage_gc(t->heap)), view->epoch);
    collect_context ctx = {.jni = jni, .live_weight = view->live_weight,
                           .live_weight2 = view->live_weight2, .ages = view->ages,
                           .confirmed_weight = view->confirmed_weight,
                           .confirmed_ages = view->confirmed_ages, .nbuckets = view->nbuckets,
                           .epoch = view->epoch, .seconds = seconds_now(t),
                           .liveness = view->liveness,
                           .never_collected = view->inuse_basis == HS_INUSE_NEVER_COLLECTED};
    hs_live_table_each(t->table, add_if_live, &ctx);
    /* G1 humongous objects: found in the heap at this dump, which no marking may have
     * judged: they count as unjudged. Their survival outcomes are known only now (the
     * sweeper cannot see them): learned here, under sweep_lock like the sweeper's, and
     * published at once rather than at the next GC's sweep. */
    if (t->humongous) {
        int learned = hs_humongous_collect(t->humongous, t->config.jvmti, jni,
                                           t->config.sampled.samples, view->epoch,
                                           view->live_weight, view->live_weight2,
                                           view->nbuckets, t->config.survival);
        view->humongous_known = learned >= 0;
        if (learned > 0) hs_survival_publish(t->config.survival);
    }
    view->humongous_tracked = t->humongous ? hs_humongous_tracked(t->humongous) : 0;
    if (when == HS_LIVE_NOW_NO_JAVA_ALLOC) heap_from_history(t, &view->heap);
    else hs_heap_usage_read(t->heap, jni, &view->heap);
}

int hs_live_collect_when(hs_live_slot *slot, JNIEnv *jni, uint32_t nbuckets, hs_live_when when,
                         hs_live_view *view) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    memset(view, 0, sizeof *view);
    view->live_weight = calloc((size_t)nbuckets + 1, sizeof *view->live_weight);
    view->live_weight2 = calloc((size_t)nbuckets + 1, sizeof *view->live_weight2);
    view->ages = calloc((size_t)nbuckets + 1, sizeof *view->ages);
    view->confirmed_weight = calloc((size_t)nbuckets + 1, sizeof *view->confirmed_weight);
    view->confirmed_ages = calloc((size_t)nbuckets + 1, sizeof *view->confirmed_ages);
    if (!t || !jni || !view->live_weight || !view->live_weight2 || !view->ages ||
        !view->confirmed_weight ||
        !view->confirmed_ages)
        return -1;
    hs_liveness_read(&t->liveness, &view->liveness);
    view->liveness_supported = hs_liveness_supported(&t->liveness);
    view->nbuckets = nbuckets;
    bool was_busy = busy_here;
    busy_here = true;
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) {
        busy_here = was_busy;
        return -1;
    }
    int rc = 0;
    if (when == HS_LIVE_PEAK && !peak.site) rc = -1; /* no GC seen yet */
    else if (when == HS_LIVE_PEAK) copy_peak(t, view);
    else collect_now(t, jni, when, view);
    copy_history(t, view);
    if (t->growth) {
        view->nsuspects = hs_growth_rank_at(t->growth, when == HS_LIVE_NOW_NO_JAVA_ALLOC,
                                            hs_suspect_growth_info, &t->config.sampled, view->suspects,
                                            HS_SUSPECTS_MAX);
        view->growth_records = hs_growth_records(t->growth);
        for (int h = 0; h < HS_GROWTH_HORIZONS; h++)
            view->growth_points[h] = hs_growth_points(t->growth, (hs_growth_horizon)h);
        view->growth_memory = hs_growth_memory(t->growth);
        view->growth_record_memory = hs_growth_record_memory(t->growth);
        hs_growth_last_walk(t->growth, &view->growth_walk_nanos, &view->growth_walk_entries);
    }
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    view->level = stats.level;
    view->tracked = stats.occupancy;
    view->sweeps = hs_sweep_pace_sweeps(&t->pace);
    view->gc_name = hs_heap_usage_gc_name(t->heap);
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    busy_here = was_busy;
    return rc;
}

int hs_live_collect(hs_live_slot *slot, JNIEnv *jni, uint32_t nbuckets, hs_live_view *view) {
    return hs_live_collect_when(slot, jni, nbuckets, HS_LIVE_NOW, view);
}

/* --- the peak and the low water (after each GC, on the sweeper thread) ------------------- */

/* After the sweep of a GC: when the heap it left is the highest of the run, keeps the
 * live weights of the entries judged at this GC, and their mean age then (a walk of the live table, only on a new
 * maximum; humongous objects are left out: judging them needs a heap walk). */
static void note_peak(hs_live_tracker *t, JNIEnv *jni, uint32_t epoch) {
    const hs_live_history_entry *h =
        &t->history[(t->history_next + HS_LIVE_HISTORY - 1) % HS_LIVE_HISTORY];
    if (!h->valid) return;
    if (!t->low_valid || h->used < t->low_water) t->low_water = h->used;
    t->low_valid = true;
    if (!t->config.peak || (peak.site && h->used <= peak.used)) return;
    uint32_t nbuckets = hs_sample_table_count(t->config.sampled.samples);
    size_t bytes = ((size_t)nbuckets + 1) * sizeof *peak.site;
    peak_site *sites = nbuckets == peak.nbuckets ? peak.site : realloc(peak.site, bytes);
    if (!sites) return; /* keep the previous peak */
    memset(sites, 0, bytes);
    collect_context ctx = {.jni = jni, .peak = sites, .nbuckets = nbuckets, .epoch = epoch,
                           .seconds = seconds_now(t)};
    hs_liveness_read(&t->liveness, &ctx.liveness);
    hs_live_table_each(t->table, add_if_live, &ctx);
    peak.liveness = ctx.liveness;
    peak.site = sites;
    peak.nbuckets = nbuckets;
    peak.epoch = epoch;
    peak.used = h->used;
    peak.nanos = h->time_nanos;
}

bool hs_live_heap_low_water(hs_live_slot *slot, uint64_t *low, uint64_t *last) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    *low = *last = 0;
    if (!t || monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0)
        return false;
    bool valid = t->low_valid;
    *low = t->low_water;
    hs_heap_reading reading;
    heap_from_history(t, &reading);
    *last = reading.valid ? reading.used_bytes : 0;
    t->low_valid = false;
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return valid;
}

bool hs_live_thread_is_busy(void) { return busy_here; }

bool hs_live_peak(hs_live_slot *slot, uint64_t *used, int64_t *nanos) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    bool locked = t && monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") == 0;
    bool seen = peak.site != NULL; /* no tracker: no sweeper writes it */
    *used = peak.used;
    *nanos = peak.nanos;
    if (locked) monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return seen;
}

void hs_live_view_free(hs_live_view *view) {
    free(view->live_weight);
    free(view->live_weight2);
    free(view->ages);
    free(view->confirmed_weight);
    free(view->confirmed_ages);
    view->live_weight = NULL;
    view->live_weight2 = NULL;
    view->ages = NULL;
    view->confirmed_weight = NULL;
    view->confirmed_ages = NULL;
}

bool hs_live_suspect(hs_live_slot *slot, uint32_t bucket, hs_growth_site *out) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    if (!t || !t->growth || monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0)
        return false;
    bool found = hs_growth_suspect(t->growth, hs_suspect_growth_info, &t->config.sampled, bucket, out);
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return found;
}

/* The GC epoch the sweeper last recorded (under the sweep lock); UINT32_MAX on failure. */
static uint32_t swept_epoch(hs_live_tracker *t, jvmtiEnv *jvmti) {
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return UINT32_MAX;
    uint32_t epoch = t->history_epoch;
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return epoch;
}

int hs_live_force_collection(hs_live_slot *slot, JNIEnv *jni, int wait_ms) {
    (void)jni;
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    if (!t) {
        hs_error("gc=1: live tracking is off: no collection forced");
        return -1;
    }
    /* A GC epoch of its own marks the start: every sample born before it was allocated
     * before the collection started (samples born since the last GC would otherwise share
     * their epoch with those allocated while it runs). gc_age counts it as one GC more. */
    uint32_t before = atomic_fetch_add_explicit(t->config.gc_epoch, 1, memory_order_acq_rel) + 1;
    int64_t start = hs_monotonic_nanos();
    jvmtiError err = (*jvmti)->ForceGarbageCollection(jvmti);
    if (err != JVMTI_ERROR_NONE) {
        hs_error("gc=1: ForceGarbageCollection failed (JVMTI error %d)", err);
        return -1;
    }
    uint32_t after = atomic_load_explicit(t->config.gc_epoch, memory_order_acquire);
    hs_liveness_forced(&t->liveness, before, after);
    hs_sweep_pace_urge(&t->pace); /* swept at once: this dump waits for it */
    wake_sweeper(t, jvmti);
    for (int waited = 0; waited < wait_ms; waited += 10) {
        uint32_t swept = swept_epoch(t, jvmti);
        if (swept == UINT32_MAX || (int32_t)(swept - after) >= 0) break;
        struct timespec ten_ms = {0, 10 * 1000 * 1000};
        nanosleep(&ten_ms, NULL);
    }
    hs_info("gc=1: forced a full collection (GC epochs %u to %u, %.0f ms with the sweep)", before,
            after, (double)(hs_monotonic_nanos() - start) / 1e6);
    return 0;
}

typedef struct {
    hs_live_object_fn fn;
    void *ctx;
} each_object_context;

static void pass_object(const hs_live_entry *entry, void *ctx) {
    each_object_context *c = ctx;
    c->fn(entry->bucket, (jweak)entry->ref, c->ctx);
}

int hs_live_each_object(hs_live_slot *slot, hs_live_object_fn fn, void *ctx) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    if (!t || monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return -1;
    each_object_context c = {fn, ctx};
    hs_live_table_each(t->table, pass_object, &c);
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return 0;
}

/* --- stop, and shutdown ------------------------------------------------------------------ */

/* Deletes every weak ref in the table, serialized with the sweeper; returns how many. */
static uint64_t release_all(hs_live_tracker *t, JNIEnv *jni) {
    jvmtiEnv *jvmti = t->config.jvmti;
    hs_counters *counters = t->config.sampled.counters;
    uint64_t before = atomic_load(&counters->live_deleted);
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return 0;
    sweep_context ctx = {.counters = counters, .jni = jni};
    hs_live_table_clear(t->table, release_ref, &ctx);
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return atomic_load(&counters->live_deleted) - before;
}

uint64_t hs_live_release_refs(hs_live_slot *slot, JNIEnv *jni) {
    hs_live_tracker *t = atomic_load(slot);
    return t ? release_all(t, jni) : 0;
}

int hs_live_status(hs_live_slot *slot, hs_live_status_info *out) {
    hs_live_tracker *t = atomic_load(slot);
    memset(out, 0, sizeof *out);
    if (!t) return -1;
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    out->tracked = stats.occupancy;
    out->capacity = stats.capacity;
    out->level = stats.level;
    out->humongous_tracked = t->humongous ? hs_humongous_tracked(t->humongous) : 0;
    out->gc_name = hs_heap_usage_gc_name(t->heap);
    out->heap_source = hs_heap_usage_source(t->heap);
    hs_liveness_read(&t->liveness, &out->liveness);
    out->liveness_supported = hs_liveness_supported(&t->liveness);
    jvmtiEnv *jvmti = t->config.jvmti;
    if (monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->sweep_lock), "enter") != 0) return 0;
    if (t->history_count > 0)
        out->last_gc = t->history[(t->history_next + HS_LIVE_HISTORY - 1) % HS_LIVE_HISTORY];
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->sweep_lock), "exit");
    return 0;
}

static bool sweeper_exited(void *tracker) {
    return atomic_load(&((hs_live_tracker *)tracker)->sweeper_exited) != 0;
}

/* How long the exit waits for the sweeper to finish its last sweep. */
#define SWEEPER_EXIT_WAIT_MS 5000

void hs_live_prepare_final_dump(hs_live_slot *slot, JNIEnv *jni) {
    (void)jni;
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    if (!t || monitor_call((*jvmti)->RawMonitorEnter(jvmti, t->wake), "enter") != 0) return;
    t->stop = 1;
    monitor_call((*jvmti)->RawMonitorNotifyAll(jvmti, t->wake), "notify");
    monitor_call((*jvmti)->RawMonitorExit(jvmti, t->wake), "exit");
    hs_wait_until(sweeper_exited, t, SWEEPER_EXIT_WAIT_MS); /* bounded: never hang the exit */
}

void hs_live_stop(hs_live_slot *slot, JNIEnv *jni, bool callbacks_drained) {
    hs_live_tracker *t = atomic_load(slot);
    jvmtiEnv *jvmti = t ? t->config.jvmti : NULL;
    if (!t) return;
    enable_gc_start(t, jvmti, JVMTI_DISABLE);
    jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE,
                                                        JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
    if (err != JVMTI_ERROR_NONE) /* GC callbacks go on: they are counted in flight */
        hs_warn("disabling GarbageCollectionFinish failed (JVMTI error %d)", err);
    bool sweeper_gone = atomic_load(&t->sweeper_exited) != 0;
    if (!sweeper_gone) hs_warn("sweeper thread still busy at exit; its weak refs are released now");
    hs_counters *c = t->config.sampled.counters;
    hs_live_stats stats;
    hs_live_table_stats(t->table, &stats);
    uint64_t deleted_before = atomic_load(&c->live_deleted);
    release_all(t, jni);
    /* The leak check the churn test reads: created - deleted == tracked, then all released. */
    hs_info("weak refs: %llu created (one per tracked sample), %llu deleted while running "
            "(object collected, or its sample thinned out), %u still held at exit (created - "
            "deleted); %llu deleted in all after releasing those (equals created when none "
            "leaked); %llu samples left untracked (table full: extrapolated from their site)",
            (unsigned long long)stats.inserted, (unsigned long long)deleted_before,
            stats.occupancy, (unsigned long long)atomic_load(&c->live_deleted),
            (unsigned long long)atomic_load(&c->live_untracked));
    if (!callbacks_drained) {
        hs_warn("a sampling callback was still running at exit; live tracker left allocated");
        atomic_store(slot, NULL);
        return;
    }
    retire_tracker(slot, t, jvmti, jni, sweeper_gone);
}
