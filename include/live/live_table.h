/* live_table.h: the sampled objects whose liveness the agent tracks, in a fixed-size
 * table that application threads fill lock-free and one sweeper thread empties.
 *
 * Each entry holds an opaque reference (a JNI weak global ref in the agent), the index
 * of the sample's allocation bucket, a 16-bit tag the caller chooses (the agent: the
 * sample's survival slot, survival.h), the GC epoch and time of its allocation and a
 * weight.
 *
 * Threads:
 *   - hs_live_table_admit / hs_live_table_insert: any thread, lock-free, never allocate.
 *   - hs_live_table_sweep / hs_live_table_each / hs_live_table_clear: one thread at a
 *     time (the agent's sweeper thread), concurrently with any number of inserters.
 *   - hs_live_table_stats / hs_live_table_thin_pending / hs_live_table_poll_ms /
 *     hs_live_table_request_raise:
 *     any thread.
 *
 * Bounded size without bias ("thinning"): the table has a global level L. A sample is
 * admitted with probability 2^-L and its entry then stands for 2^L samples (weight
 * multiplied by 2^L). When the occupancy passes 7/8 of the capacity, L is raised by one
 * (if no sweep comes, again at 15/16, 31/32 and 63/64: at most HS_LIVE_MAX_PENDING
 * levels between sweeps), and the next sweep keeps each entry of level l < L with
 * probability 2^(l-L), scaling its weight by 2^(L-l), and drops it otherwise. Every step keeps each sample's expected
 * weight unchanged, so per-bucket sums of weights stay unbiased estimates of what the
 * JVM's sampler saw alive. When a sweep leaves the table under 1/4 full the level goes
 * back down by one (entries keep their own level and weight: still unbiased), so the
 * table regains precision after a spike of live objects. */
#ifndef HS_LIVE_TABLE_H
#define HS_LIVE_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/hash.h"
#include "sampling/sample_table.h" /* HS_WEIGHT_ONE: weights are fixed point */

/* The level never goes above this: admission probability 2^-24 already means a sample
 * in sixteen million, and weight * 2^level must stay far from overflowing. */
#define HS_LIVE_MAX_LEVEL 24

/* Levels inserters may raise before a sweep thins to them (see live_table.c). */
#define HS_LIVE_MAX_PENDING 4

/* Free slots an insert looks at (random positions) before giving up. At occupancy f
 * an insert fails with probability about f^64: 2e-4 at the 7/8 high-water mark. */
#define HS_LIVE_PROBES 64

/* Inserts probe only the first slots while the table is mostly empty: the smallest power of
 * two times HS_LIVE_WINDOW_MIN that is at least four times the occupancy (or the whole
 * table), so the sweeper's walks read a compact block (live_table.c, probe_window). */
#define HS_LIVE_WINDOW_MIN 1024u

typedef struct hs_live_table hs_live_table;

/* When a sample was allocated: the GC epoch, and the time in seconds since an origin the
 * caller chooses (the live tracker's start). Stored as given; the table never reads them. */
typedef struct {
    uint32_t epoch;
    uint32_t seconds;
} hs_live_birth;

/* What callbacks see of one entry (a copy; changing it changes nothing). */
typedef struct {
    void *ref;          /* the reference given to insert, never NULL */
    uint32_t bucket;    /* allocation bucket index */
    uint16_t tag;       /* as given to insert */
    uint32_t epoch;     /* GC epoch at allocation */
    uint32_t seconds;   /* allocation time, seconds since the inserter's origin */
    uint64_t weight_fp; /* samples this entry stands for, HS_WEIGHT_ONE units: the
                         * inserted weight * 2^level (saturates at UINT64_MAX) */
    uint8_t level;      /* thinning level the weight includes */
} hs_live_entry;

typedef enum { HS_LIVE_KEEP = 0, HS_LIVE_REMOVE = 1 } hs_live_action;

/* Sweep visitor. Return HS_LIVE_REMOVE after releasing entry->ref (the object died),
 * HS_LIVE_KEEP otherwise. */
typedef hs_live_action (*hs_live_visit_fn)(const hs_live_entry *entry, void *ctx);
/* Called for an entry the table removes on its own (thinned out, or clear): release
 * entry->ref. */
typedef void (*hs_live_drop_fn)(const hs_live_entry *entry, void *ctx);
/* Read-only visitor (dump). */
typedef void (*hs_live_read_fn)(const hs_live_entry *entry, void *ctx);

typedef struct {
    uint32_t capacity;  /* slots */
    uint32_t occupancy; /* entries held, including inserts in progress */
    uint32_t level;     /* current level L: new samples are admitted with p = 2^-L */
    uint64_t inserted;  /* successful inserts */
    uint64_t removed;   /* entries removed by a visitor or by clear */
    uint64_t thinned;   /* entries dropped by thinning */
    uint64_t failed;    /* inserts that found no free slot: samples left untracked */
    uint64_t rejected;  /* samples hs_live_table_admit turned away */
} hs_live_stats;

/* A table of `capacity` slots (1 .. UINT32_MAX); all memory is allocated here. `seed`
 * seeds the sweeper's thinning draws. Returns NULL if capacity is 0 or out of memory. */
hs_live_table *hs_live_table_create(uint32_t capacity, uint64_t seed);
/* Frees the table; references still in it are not released (see hs_live_table_clear). */
void hs_live_table_destroy(hs_live_table *table);

/* Hot path, before any costly work: should this sample be tracked? Takes the sample
 * with probability 2^-L using the HIGH bits of `random` (so the same draw can then be
 * passed to insert, which uses the low bits) and stores L in *level. A rejection is
 * counted in the stats. */
bool hs_live_table_admit(hs_live_table *table, uint64_t random, uint8_t *level);

/* Hot path: stores an admitted sample. `ref` must not be NULL; `level` is the one
 * admit returned; `weight_fp` the sample's own weight (HS_WEIGHT_ONE per JVM sample);
 * `tag` any 16 bits the caller wants back in hs_live_entry (the table never reads it);
 * `birth` its GC epoch and time of allocation.
 * Returns the slot index, or -1 when no free slot was found within HS_LIVE_PROBES
 * probes, or ref is NULL or level too high (counted as failed: the caller still owns
 * ref and should release it). */
int64_t hs_live_table_insert(hs_live_table *table, uint64_t random, void *ref, uint32_t bucket,
                             uint16_t tag, hs_live_birth birth, uint64_t weight_fp,
                             uint8_t level);

/* Sweeper thread: raises the level if the table is above its high-water mark, then
 * visits every published entry. `visit` (may be NULL: keep all) decides removal of dead
 * objects; entries it keeps are then thinned to the current level, and the ones thinned
 * out are passed to `dropped` (may be NULL when refs need no release). Finally lowers
 * the level by one if the table is under 1/4 full. Inserts may run meanwhile; entries
 * published during the sweep may or may not be visited. */
void hs_live_table_sweep(hs_live_table *table, hs_live_visit_fn visit, hs_live_drop_fn dropped,
                         void *ctx);

/* Sweeper thread (or serialized with the sweep): calls fn for every published entry,
 * changing nothing. Used by the dump to sum weights per bucket. */
void hs_live_table_each(const hs_live_table *table, hs_live_read_fn fn, void *ctx);

/* Sweeper thread, at shutdown after inserts have stopped: removes every entry, passing
 * each to `release` (counted as removed). An insert still in progress is missed. */
void hs_live_table_clear(hs_live_table *table, hs_live_drop_fn release, void *ctx);

/* True when the level was raised and no sweep has thinned to it yet. Entries are only
 * removed by sweeps, so an agent whose sweeps follow GCs should check this after an
 * insert and wake its sweeper: a sweep thins at once (visit may be NULL to only thin). */
bool hs_live_table_thin_pending(const hs_live_table *table);

/* How long a sweeper may wait between GCs before it checks hs_live_table_thin_pending
 * again: a quarter of the time the table would take to reach its first raise (7/8 full) at
 * `inserts_per_second` (the rate the sweeper measured since its last look) or at
 * HS_LIVE_POLL_BUSY_RATE, whichever is faster, from HS_LIVE_POLL_MIN_MS (a raise pending,
 * a small table, or fast inserts) to HS_LIVE_POLL_MAX_MS. The assumed rate covers a burst
 * that begins while the sweeper sleeps, which it cannot see until it looks: a table of
 * track=256 is polled every 20 ms as before, the default 65,536 slots about every 0.7 s,
 * so an idle JVM's sweeper wakes 1.4 times a second rather than 50 (measured on
 * JDK 17: a 20 ms poll cost it 4 ms of CPU a second, 80 us a wake-up). */
#define HS_LIVE_POLL_MIN_MS 20
#define HS_LIVE_POLL_MAX_MS 1000
#define HS_LIVE_POLL_BUSY_RATE 20000.0 /* inserts a second: uncapped sampling of a busy JVM */
uint32_t hs_live_table_poll_ms(const hs_live_table *table, double inserts_per_second);

/* Asks for the level to go up by one, as crossing the high-water mark does; the next
 * sweep thins to it. Returns false (nothing done) if a raise is already waiting for its
 * sweep or the level is at HS_LIVE_MAX_LEVEL. Any thread. */
bool hs_live_table_request_raise(hs_live_table *table);

/* Counters, read without stopping inserters (each value is individually current). */
void hs_live_table_stats(const hs_live_table *table, hs_live_stats *out);

/* --- Random numbers for the hot path: no TLS, no malloc ----------------------------- */

#define HS_RANDOM_GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's output function (hash.h). */
static inline uint64_t hs_random_mix64(uint64_t x) { return hs_mix64(x); }

/* splitmix64 on a private state (one thread). */
static inline uint64_t hs_random_next(uint64_t *state) {
    *state += HS_RANDOM_GOLDEN;
    return hs_random_mix64(*state);
}

/* splitmix64 on a state shared by all threads: one relaxed atomic add per draw, and no
 * two draws ever get the same counter value. */
static inline uint64_t hs_random_next_shared(_Atomic uint64_t *state) {
    uint64_t s = atomic_fetch_add_explicit(state, HS_RANDOM_GOLDEN, memory_order_relaxed);
    return hs_random_mix64(s + HS_RANDOM_GOLDEN);
}

#endif
