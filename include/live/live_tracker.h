/* live_tracker.h: the live heap: which sampled objects are still alive, and how much
 * heap that stands for.
 *
 * Each tracked sample holds a JNI weak global ref in the live table (live_table.c).
 * GarbageCollectionFinish only bumps the GC epoch and wakes the agent's own thread
 * (no JNI is allowed in GC callbacks); that thread sweeps the dead refs out, and after
 * each sweep records the heap used after the GC (heap_usage.c) in a short history.
 * A dump reports an object as in-use only if it was allocated before the last GC and
 * survived it (Go's "as of the last GC" semantics), and tells apart the samples a complete
 * marking has judged (confirmed) from those promoted since (unjudged): liveness.h. The GC
 * callback reads the collector's counters to learn of markings. Growth and suspects compare
 * the confirmed figure now with what survived earlier (growth.h), so dead objects no
 * marking has collected can hide growth but never fake it. Each tracked sample also keeps its
 * allocation time, in seconds since tracking started (the coarse monotonic clock, read
 * once per tracked sample), for the dump's ages in seconds. */
#ifndef HS_LIVE_TRACKER_H
#define HS_LIVE_TRACKER_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "live/growth.h"
#include "heap/heap_usage.h"
#include "live/inuse_basis.h"
#include "live/live_age.h"
#include "live/live_scale.h"
#include "live/liveness.h"
#include "sampling/gc_bracket.h"
#include "sampling/sampled.h"

/* Growing sites a dump reports. */
#define HS_SUSPECTS_MAX 5

/* Live-set history kept for the profile comments. */
#define HS_LIVE_HISTORY 16

typedef struct {
    int64_t time_nanos; /* wall clock of the sweep */
    uint32_t epoch;     /* GC epoch swept */
    uint64_t used;      /* heap used after that GC (valid == 0: unknown) */
    int valid;
} hs_live_history_entry;

/* What a dump needs to know of the live heap. */
typedef struct hs_live_view {
    double *live_weight;          /* per bucket (0..nbuckets): samples judged live, in
                                   * JVM-sample units (thinning weights included); malloc'd */
    double *live_weight2;         /* per bucket: the sum of those samples' squared weights
                                   * (the exact variance, estimate.h); malloc'd */
    uint32_t nbuckets;
    /* per bucket (0..nbuckets): the live weight of tracked samples, and their age in
     * seconds at the collection, by GCs survived (live_age.h); malloc'd */
    hs_age_site *ages;
    /* per bucket (0..nbuckets): the part of live_weight (and of ages) a complete marking
     * judged (liveness.h); malloc'd */
    double *confirmed_weight;
    hs_age_site *confirmed_ages;
    hs_liveness_state liveness;   /* the last complete marking */
    int liveness_supported;       /* 0: this collector's markings cannot be told */
    uint32_t epoch;               /* objects allocated before this epoch were judged */
    hs_inuse_basis inuse_basis;   /* what in-use means here (inuse_basis.h); with
                                   * HS_INUSE_NEVER_COLLECTED the weights count every tracked
                                   * sample (none is ever collected), aged in seconds only */
    hs_heap_reading heap;
    const char *gc_name;
    uint32_t level;               /* live table thinning level */
    uint32_t tracked;             /* entries in the table */
    uint64_t sweeps;              /* sweeps after a GC so far (sweep_pace.h: fewer than the
                                   * GCs when they come faster than ten a second) */
    uint32_t humongous_tracked;   /* G1 humongous objects tracked by identity */
    int humongous_known;          /* their reachability pass succeeded */
    uint32_t nhistory;
    hs_live_history_entry history[HS_LIVE_HISTORY]; /* oldest first */
    int64_t peak_nanos;           /* HS_LIVE_PEAK: wall clock of the peak GC's sweep; else 0 */
    /* growing sites over the last GCs (growth.h, ranked by suspects.c) */
    hs_growth_site suspects[HS_SUSPECTS_MAX];
    uint32_t nsuspects;
    uint32_t growth_records;      /* GCs in the growth window */
    uint32_t growth_points[HS_GROWTH_HORIZONS]; /* points held per horizon */
    size_t growth_memory;         /* bytes those points hold */
    size_t growth_record_memory;  /* bytes the record of the next GC holds (its buffers) */
    int64_t growth_walk_nanos;    /* the last per-GC walk of the table */
    uint32_t growth_walk_entries;
} hs_live_view;

/* Which live view a dump wants. */
typedef enum {
    HS_LIVE_NOW = 0,           /* as of the last GC, heap figure read now */
    HS_LIVE_NOW_NO_JAVA_ALLOC, /* the same, but the heap figure is the one the sweeper
                                * recorded after the last GC: no MXBean call, nothing
                                * allocated in the Java heap (OutOfMemoryError) */
    HS_LIVE_PEAK               /* as of the GC after which the heap was highest so far
                                * (peak=; G1 humongous objects not included) */
} hs_live_when;

/* Where the owner publishes its tracker (NULL: tracking off). Every call below takes the
 * slot and reads the tracker from it once; the tracker keeps the hs_live_config it was
 * started with, so nothing here reaches back into its owner. */
typedef _Atomic(struct hs_live_tracker *) hs_live_slot;

/* What the owner gives the tracker at start. */
typedef struct {
    jvmtiEnv *jvmti;
    hs_sampled sampled;         /* the sample table (untracked weight goes to its buckets),
                                 * names for suspects, the counters live_* */
    atomic_uint *gc_epoch;      /* GC epochs: the owner's GC callback bumps it before
                                 * hs_live_on_gc; a forced collection opens one itself */
    hs_gc_bracket *bracket;     /* armed while GarbageCollectionStart is enabled; NULL: none */
    uint32_t track;             /* track=: live table capacity */
    hs_heap_source heap_source; /* heap_source= */
    bool peak;                  /* keep the peak's live view (peak=) */
    struct hs_survival *survival; /* what sweeps (and dumps, of G1 humongous samples) teach
                                   * the rate cap (survival.h); NULL: off */
    /* Waits up to timeout_ms until no callback of the owner that may have read the slot
     * before it was cleared is still running; true when none is. */
    bool (*drain)(void *ctx, int timeout_ms);
    void *drain_ctx;
} hs_live_config;

/* At VMInit (or attach): table, heap source, GC events, the sweeper thread; publishes the
 * tracker in *slot. 0 or -1. */
int hs_live_start(hs_live_slot *slot, const hs_live_config *config, jvmtiEnv *jvmti, JNIEnv *jni);

/* GarbageCollectionFinish, called by the owner's callback (counted in flight, after it
 * bumped the GC epoch to `epoch`) with the tracker it read: notes a complete marking,
 * wakes the sweeper. No JNI. */
void hs_live_on_gc(struct hs_live_tracker *t, jvmtiEnv *jvmti, uint32_t epoch);

/* GarbageCollectionStart, called the same way: lets the marking ledger tell a VM
 * operation's wrapper event from a pause (liveness.h). Plain stores only. */
void hs_live_on_gc_start(struct hs_live_tracker *t);

/* Hot path: maybe track object (of class id class_id, size bytes, sample bucket `bucket`,
 * weight weight_fp) in tracker t, read from the slot by a caller counted in flight. */
void hs_live_track(struct hs_live_tracker *t, jvmtiEnv *jvmti, JNIEnv *jni, jobject object,
                   uint32_t bucket, uint32_t class_id, uint64_t size, uint64_t weight_fp);

/* Sums the live estimates per bucket for a dump (any thread that may use JNI; serialized
 * with the sweeper). nbuckets: buckets in the sample table. 0, or -1 (ENOMEM). */
int hs_live_collect(hs_live_slot *slot, JNIEnv *jni, uint32_t nbuckets, hs_live_view *view);
/* The same for the view `when` asks for. HS_LIVE_PEAK fails (-1) when no peak was seen
 * (no GC yet, or peak off). Free the view with hs_live_view_free even after a failure. */
int hs_live_collect_when(hs_live_slot *slot, JNIEnv *jni, uint32_t nbuckets, hs_live_when when,
                         hs_live_view *view);
void hs_live_view_free(hs_live_view *view);

/* Is this bucket's site a growth suspect now, and at which horizon (*out, may be NULL)? Any thread
 * (serialized with the sweeper). False when live tracking is off. */
bool hs_live_suspect(hs_live_slot *slot, uint32_t bucket, hs_growth_site *out);

/* dump,gc=1: forces a collection (JVMTI ForceGarbageCollection, on the calling thread, which
 * must be a Java thread outside any of the tracker's locks), records it as a complete
 * marking of every sample allocated before the call (the call opens a GC epoch of its own
 * first, so gc_age counts it as one more GC), and waits (at most wait_ms) for the
 * sweeper to have swept it. 0, or -1 (logged) when tracking is off or the call failed. */
int hs_live_force_collection(hs_live_slot *slot, JNIEnv *jni, int wait_ms);
/* The wait_ms of dump,gc=1 and the endpoint's ?gc=1. */
#define HS_LIVE_FORCED_GC_WAIT_MS 5000

/* Calls fn with the weak ref and bucket of every tracked object (G1 humongous objects,
 * tracked without references, excepted), serialized with the sweeper; fn may use JNI
 * (NewLocalRef) but must not delete the ref. 0, or -1 when live tracking is off. */
typedef void (*hs_live_object_fn)(uint32_t bucket, jweak ref, void *ctx);
int hs_live_each_object(hs_live_slot *slot, hs_live_object_fn fn, void *ctx);

/* The `stop` command, after sampling stopped: deletes every tracked weak ref (the GC then
 * has none of ours to process). Tracking goes on with the next samples. Returns how many. */
uint64_t hs_live_release_refs(hs_live_slot *slot, JNIEnv *jni);

/* What `status` reports of the live heap. */
typedef struct {
    uint32_t tracked, capacity, level; /* live table entries, size, thinning level */
    uint32_t humongous_tracked;
    const char *gc_name;
    const char *heap_source;           /* "vmstructs", "gcinfo" or "none" */
    hs_live_history_entry last_gc;     /* heap after the last GC seen (valid == 0: none) */
    hs_liveness_state liveness;        /* the last complete marking */
    int liveness_supported;
} hs_live_status_info;
/* 0, or -1 when live tracking is off (out zeroed). */
int hs_live_status(hs_live_slot *slot, hs_live_status_info *out);

/* For OutOfMemoryError episodes: *low = the lowest heap used after a GC since the previous
 * call (then forgotten), *last = the newest (0: unknown). Returns whether *low is valid
 * (a GC with a known figure was seen since the previous call). Any thread. */
bool hs_live_heap_low_water(hs_live_slot *slot, uint64_t *low, uint64_t *last);

/* True on the sweeper thread, and on a thread inside hs_live_collect*: such a thread may
 * hold the tracker's lock, so an OutOfMemoryError it meets must not start a dump. */
bool hs_live_thread_is_busy(void);

/* Whether a peak was recorded (peak= on, a GC seen); its heap used after GC and the wall
 * clock of its sweep. Any thread. */
bool hs_live_peak(hs_live_slot *slot, uint64_t *used, int64_t *nanos);

/* At VMDeath, before the final dump: stops the sweeper thread (bounded wait). */
void hs_live_prepare_final_dump(hs_live_slot *slot, JNIEnv *jni);
/* After the final dump: deletes every weak ref, logs the ref counts, and frees the tracker
 * unless something may still use it: callbacks_drained false (a sampling callback was
 * still inside when VMDeath stopped waiting), a sweeper that has not exited, or a GC
 * callback that does not leave in time. Then it stays allocated, and a line says so. */
void hs_live_stop(hs_live_slot *slot, JNIEnv *jni, bool callbacks_drained);

#endif
