/* liveness.h: which tracked samples the collector has judged: the ledger of complete
 * markings.
 *
 * A weak reference is cleared only when a collection that traces the object's region
 * finds it unreachable. An object promoted to the old generation is traced again only by
 * a complete marking (a full GC; the end of a G1 concurrent cycle), so between markings a
 * dead old object keeps its weak ref set and would count as in use. This ledger says,
 * per GC epoch, which samples a complete marking has judged:
 *   - confirmed: allocated before the last completed marking (for a G1 cycle: before a
 *     young pause shortly before its end, see below), and not collected since: they
 *     survived it, live as of that marking (Go's "as of the last completed GC cycle");
 *   - unjudged: allocated after it: alive as far as young collections tell, maybe dead.
 * One approximation, stated wherever the split is shown: a G1 concurrent marking judges
 * what was in old regions at its start (snapshot at the beginning) and takes as live what
 * is allocated while it runs and what was young at its start (the Concurrent Start pause
 * copies it into regions allocated after the marking began); those samples count as
 * confirmed too. Young collections keep every class loader alive, so under class churn
 * the JDK's per-class objects are confirmed by one marking and freed by the next: growth.h
 * does not read such a sawtooth as growth (a confirmed figure that falls back).
 * A sample's birth epoch (live_table.h) is all it takes: confirmed <=> epoch <
 * judged_before. No bit in the live table.
 *
 * Epochs: gc_epoch counts GarbageCollectionFinish events; the n-th event makes it n. A
 * sample born at epoch e was allocated after event e and before event e + 1.
 *
 * How a marking is detected, per event (hs_liveness_on_gc, from the GC callback), from
 * CollectedHeap::_total_collections and _total_full_collections read right after it:
 *   - the full count moved: a full GC (Serial/Parallel old collection, G1 full GC), which
 *     marks everything allocated before it: judged_before = n.
 *   - G1, neither count moved: the end of a concurrent cycle. Measured: each cycle posts
 *     exactly one GC event that moves neither count, at or after its Remark (which clears
 *     the weak refs of what the marking found dead): on JDK 17 the Remark's, on JDK 25
 *     the Cleanup's (its Remark is counted as a collection). A second uncounted event
 *     right after the first (a JDK that posts both) is taken as the same cycle.
 *     judged_before = the second-to-last counted event before it, not n: neither Remark
 *     nor Cleanup collects the young generation, so what was allocated since the last
 *     young pause (an eden of garbage) is still referenced there, and a dump right after
 *     the marking counted it confirmed (a site of short-lived arrays was named a suspect,
 *     +32 MB over 15 GCs, in 2 of 6 NoFalseSuspectTest runs). The last counted event may
 *     be that Remark itself (JDK 25); the one before it is a young pause, which traced
 *     every young object born before it. On JDK 17 this leaves one young pause's worth
 *     of survivors unjudged until the next marking.
 * Wrappers: HotSpot's VM_CollectForMetadataAllocation (a Metadata GC Threshold) posts a
 * start and a finish around the young pause or full GC it runs, or around nothing when a
 * cycle is already under way. The outer finish moves no count: taken for a Remark, every
 * such pause "completed a marking" (class churn on JDK 25: 19 detected, 11 real). With
 * GarbageCollectionStart (hs_liveness_on_gc_start) a finish that enclosed another
 * collection is skipped. One that enclosed nothing (the metadata was found after all, or
 * a cycle is running) still looks like a Remark: measured, one per cycle under class churn,
 * between its start and its Remark; its bound (the pause before the cycle's start) is no
 * later than the real one, which follows within the cycle.
 * Other collectors (Z, Shenandoah: their cycles never move the counts; Epsilon; an
 * unknown collector; counters not found) are not supported: every in-use sample stays
 * unjudged and hs_liveness_supported() is false, which callers state.
 * hs_liveness_forced() records a collection the agent forced (dump,gc=1) and waited for.
 *
 * Threads: on_gc from GC callbacks (serialized by the VM); readers on any thread read one
 * consistent (judged_before, markings) pair. Pure: no JVM. */
#ifndef HS_LIVENESS_H
#define HS_LIVENESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    HS_MARKING_NONE = 0,   /* no marking seen yet */
    HS_MARKING_FULL,       /* a full GC */
    HS_MARKING_CONCURRENT, /* a G1 concurrent cycle */
    HS_MARKING_FORCED      /* a collection the agent forced (dump,gc=1) */
} hs_marking_kind;

/* What the collector lets us tell. */
typedef enum {
    HS_LIVENESS_UNSUPPORTED = 0, /* no marking is ever detected */
    HS_LIVENESS_FULL_ONLY,       /* Serial, Parallel: full GCs */
    HS_LIVENESS_G1               /* full GCs and concurrent cycles */
} hs_liveness_mode;

typedef struct {
    hs_liveness_mode mode;
    /* GC callback side (one writer) */
    uint32_t last_total, last_full; /* counts after the previous event */
    bool previous_concurrent;       /* the previous event was an uncounted G1 pause */
    uint32_t counted[2];            /* epochs of the last two counted events, newest first */
    uint32_t depth;                 /* collections started and not finished (nesting) */
    uint32_t enclosing;             /* bit d: the collection open at depth d enclosed another */
    /* published: judged_before in the high 32 bits, markings completed in the low */
    _Atomic uint64_t judged;
    _Atomic uint32_t last_epoch;    /* epoch of the event that completed the last marking */
    _Atomic int last_kind;          /* hs_marking_kind of it */
} hs_liveness;

/* counts_ok: the two counters can be read; total0, full0: their values now. */
void hs_liveness_init(hs_liveness *l, hs_liveness_mode mode, bool counts_ok, uint32_t total0,
                      uint32_t full0);

/* GarbageCollectionStart (optional: without it every finish stands alone). */
void hs_liveness_on_gc_start(hs_liveness *l);

/* After GC event `epoch` (the new gc_epoch): the counters read at its finish. Returns the
 * kind of marking it completed (HS_MARKING_NONE: none). */
hs_marking_kind hs_liveness_on_gc(hs_liveness *l, uint32_t epoch, uint32_t total, uint32_t full);

/* A collection the agent forced and waited for, started after every sample born before
 * `epoch` had been allocated (the gc_epoch read before forcing it). Any collector. */
void hs_liveness_forced(hs_liveness *l, uint32_t epoch, uint32_t finished_epoch);

typedef struct {
    uint32_t judged_before; /* samples born before this epoch were judged; 0: none */
    uint32_t markings;      /* complete markings seen */
    uint32_t last_epoch;    /* the event that completed the last one */
    hs_marking_kind last_kind;
} hs_liveness_state;

void hs_liveness_read(const hs_liveness *l, hs_liveness_state *out);

bool hs_liveness_supported(const hs_liveness *l);

/* True when a sample born at birth_epoch is confirmed under state s. */
static inline bool hs_liveness_confirmed(const hs_liveness_state *s, uint32_t birth_epoch) {
    return birth_epoch < s->judged_before;
}

/* "full GC", "G1 concurrent cycle", "forced collection (gc=1)", "none". */
const char *hs_marking_kind_name(hs_marking_kind kind);

/* Splits a site's values (alloc objects, alloc bytes, inuse objects, inuse bytes) into its
 * confirmed and unjudged parts: the in-use values in proportion to the two weights (integers
 * adding up exactly to the total); the confirmed part's alloc values mirror its in-use
 * values (capped at the allocation: those objects were allocated there and are live); the
 * unjudged part keeps the rest of the allocation. */
void hs_liveness_split(const int64_t total[4], double confirmed_weight, double unjudged_weight,
                       int64_t confirmed[4], int64_t unjudged[4]);

/* The label every in-use sample carries: liveness=confirmed|unjudged. */
#define HS_LIVENESS_LABEL "liveness"
#define HS_LIVENESS_CONFIRMED "confirmed"
#define HS_LIVENESS_UNJUDGED "unjudged"

#endif
