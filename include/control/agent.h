/* agent.h: the agent's state, in one place.
 *
 * There is one agent per JVM. Everything it owns hangs off hs_agent: the options, the
 * sampling tables, the symbol cache, counters. Only the top floor reaches it through
 * hs_agent_get(): the entry points and JVMTI callbacks (agent.c) and control/. The modules
 * below control/ are given the narrow part they read (hs_agent_sampled,
 * hs_agent_snapshot_source, hs_agent_retention_source, the live tracker's hs_live_config and
 * slot, the sampler's hs_sampler_install), never the agent. */
#ifndef HS_AGENT_H
#define HS_AGENT_H

#include <jvmti.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "control/options.h"
#include "sampling/gc_bracket.h"
#include "sampling/overflow.h"
#include "live/retention.h"
#include "sampling/sampled.h"
#include "output/snapshot.h"

struct hs_stack_store;
struct hs_sample_table;
struct hs_symbols;
struct hs_live_tracker;
struct hs_throttle;
struct hs_survival;
struct hs_thread_names;
struct hs_thread_ids;

typedef enum {
    HS_PHASE_UNLOADED = 0, /* nothing set up */
    HS_PHASE_LOADED,       /* Agent_OnLoad done, waiting for VMInit */
    HS_PHASE_RUNNING,      /* sampling */
    HS_PHASE_PAUSED,       /* the `stop` command: no sampling until `start` */
    HS_PHASE_STOPPED       /* VMDeath seen (or a fatal setup error): callbacks do nothing */
} hs_phase;


/* Callbacks in flight are counted in stripes, each on its own cache line, a thread always
 * in the same one: with one shared counter, every sample of every thread would bounce that
 * line between cores. The count is the sum over the stripes. */
#define HS_IN_FLIGHT_STRIPES 32
typedef struct {
    _Alignas(64) atomic_int count;
} hs_in_flight_stripe;

typedef struct hs_agent {
    JavaVM *vm;
    jvmtiEnv *jvmti;
    hs_options opts;               /* as given at startup; opts.interval stays the base of the
                                    * estimates even when `start,interval=` changes sampling */
    atomic_int_fast64_t sampling_interval; /* the interval the JVM samples at now */
    char output_path[HS_PATH_MAX]; /* file= with %p/%t expanded */
    time_t start_time;
    int64_t start_nanos;           /* wall clock at load, ns since the epoch */
    atomic_int phase;              /* hs_phase */
    hs_in_flight_stripe in_flight[HS_IN_FLIGHT_STRIPES]; /* callbacks running, per stripe */

    struct hs_stack_store *stacks;
    struct hs_sample_table *samples;
    struct hs_symbols *symbols;
    /* NULL when live=false, until VMInit, and after a safe teardown. Read once per use:
     * whoever holds an in-flight count may use the tracker it read (see hs_agent_enter). */
    _Atomic(struct hs_live_tracker *) live;
    pthread_mutex_t lifecycle_lock; /* serializes VMDeath and the commands of control.c */
    struct hs_thread_names *thread_names; /* threads=true: names for the "thread" label */
    struct hs_thread_ids *thread_ids;     /* threads=true: thread ids -> names */

    atomic_uint gc_epoch;          /* GarbageCollectionFinish events seen */
    hs_gc_bracket gc_bracket;      /* quiet stretches between collections (gc_bracket.h) */
    char java_version[64];
    char vm_name[128];
    hs_counters counters;
    hs_overflow overflow;          /* samples folded because a table was full */
    struct hs_throttle *throttle;  /* rate cap (throttle.h); NULL with rate=0 */
    /* the cap's survival factors (survival.h); NULL unless rate > 0, live and survival */
    struct hs_survival *survival;
} hs_agent;

/* The one agent of this JVM (its phase says whether it is set up). */
hs_agent *hs_agent_get(void);

/* Callbacks currently inside the agent (sum of the stripes). */
int hs_agent_callbacks_in_flight(hs_agent *agent);

/* A callback (allocation or GC) announces itself before it reads the phase or the live
 * tracker, and leaves when it no longer touches them. Teardown changes the phase (or
 * clears agent->live) first and then waits for the count to reach zero: a callback that
 * read the old state is counted, one that comes later sees the new state. */
atomic_int *hs_agent_enter(hs_agent *agent);
static inline void hs_agent_leave(atomic_int *stripe) { atomic_fetch_sub(stripe, 1); }

/* Waits up to timeout_ms for every callback to leave; true when none is left. */
bool hs_agent_drain(hs_agent *agent, int timeout_ms);

/* What the modules below control/ are given instead of the agent: the sampling tables
 * and counters (sampled.h), a snapshot's source (snapshot.h), a retention walk's
 * (retention.h). */
hs_sampled hs_agent_sampled(hs_agent *agent);
hs_snapshot_source hs_agent_snapshot_source(hs_agent *agent);
hs_retention_source hs_agent_retention_source(hs_agent *agent);

#endif
