/* sweep_pace.h: when the sweeper follows a GC at once and when the GC waits for the next
 * sweep.
 *
 * Each sweep costs about the same whatever it finds: a wake of the sweeper in the middle
 * of the GC's safepoint (it blocks once more until the safepoint ends), a walk of the
 * table's in-use bitmap, the growth record's begin and end, the heap figure. A program
 * that allocates 8 GB/s has 20-30 young GCs a second, and on AllocMix that fixed part was
 * about half of the sweeper's CPU time. So when GCs come faster than HS_SWEEP_SPACING_NS
 * apart, a plain GC that ends less than HS_SWEEP_SPACING_NS after the last sweep began
 * wakes nobody: the sweeper looks again when that much time has passed, and one sweep
 * then covers every GC since. Nothing is lost for the estimates: a weak ref cleared by an
 * earlier GC stays cleared, and every dump judges the table itself. Survival outcomes count
 * GC epochs, but a sample that lived through its HS_SURVIVAL_AGE GCs and died before the
 * sweep counts as died young: the factors, which only steer which offers the cap keeps
 * (never what a kept sample weighs), learn a little less exactly. What a held GC does not
 * get is its own growth point, history entry and peak check: the GCs horizon, the history
 * and the peak are those of the GCs swept.
 *
 * A GC that completed a marking never waits (the confirmed figures change only then),
 * nor does a forced collection (a dump is waiting for it), nor any GC of a collector whose
 * markings cannot be told (the live tracker passes those as urgent).
 *
 * Pure: times are monotonic nanoseconds given by the caller. hold_until is read by the
 * GC callback and written by the sweeper, urgent is set by either and cleared by the
 * sweeper, sweeps is read by dumps; last_start belongs to the sweeper. */
#ifndef HS_SWEEP_PACE_H
#define HS_SWEEP_PACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The least time between the starts of two sweeps while GCs come faster (100 ms: at most
 * about ten sweeps a second). */
#define HS_SWEEP_SPACING_NS INT64_C(100000000)

typedef struct {
    _Atomic int64_t hold_until; /* a plain GC before this wakes nobody (0: none held) */
    atomic_bool urgent;         /* a marking or a forced collection waits to be swept */
    int64_t last_start;         /* sweeper: when the last sweep began (0: none yet) */
    _Atomic uint64_t sweeps;    /* sweeps after a GC (hs_sweep_pace_sweeps) */
} hs_sweep_pace;

void hs_sweep_pace_init(hs_sweep_pace *p);

/* Sweeper, as a sweep after a GC begins at `now`, before it reads the GC epoch it will
 * sweep to (an urge that comes later then stays for the next sweep). The next plain GC is
 * held until now + HS_SWEEP_SPACING_NS when the previous sweep began less than twice that
 * before (GCs are coming fast); otherwise nothing is held and a GC wakes the sweeper at
 * once, as always. */
void hs_sweep_pace_begin(hs_sweep_pace *p, int64_t now);

/* GC callback: whether this GC, ending at `now`, wakes the sweeper now. A GC that
 * completed a marking always does, and is swept at once (hs_sweep_pace_wait). */
bool hs_sweep_pace_gc(hs_sweep_pace *p, int64_t now, bool completed_marking);

/* A forced collection: its GC is swept at once, held or not. */
void hs_sweep_pace_urge(hs_sweep_pace *p);

/* Sweeper, with a GC not yet swept: milliseconds it may still wait before sweeping it,
 * rounded up (0: sweep now). */
int64_t hs_sweep_pace_wait_ms(const hs_sweep_pace *p, int64_t now);

/* Sweeper, with no GC to sweep: the longest it may sleep, in milliseconds, so as to be
 * awake when the hold ends (a GC held meanwhile wakes nobody); `poll_ms` when nothing is
 * held. */
int64_t hs_sweep_pace_sleep_ms(const hs_sweep_pace *p, int64_t now, int64_t poll_ms);

/* Sweeps after a GC so far (any thread). */
uint64_t hs_sweep_pace_sweeps(const hs_sweep_pace *p);

#endif
