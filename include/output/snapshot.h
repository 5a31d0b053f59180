/* snapshot.h: a profile of everything the agent has sampled so far.
 *
 * The snapshot reads the tables and symbol cache its source names (never JVMTI method or class
 * queries, so unloaded classes are safe) and builds an hs_profile with unbiased values.
 * It is independent of when and why a profile is written: at exit, on demand, on
 * OutOfMemoryError. */
#ifndef HS_SNAPSHOT_H
#define HS_SNAPSHOT_H

#include <jni.h>

#include "live/live_scale.h"
#include "live/live_tracker.h"
#include "output/format.h"
#include "sampling/overflow.h"
#include "profile/profile.h"
#include "sampling/sampled.h"

struct hs_thread_names;
struct hs_throttle;

/* Index of each value in a snapshot's samples (Go's heap-profile order). */
enum { HS_VALUE_ALLOC_OBJECTS = 0, HS_VALUE_ALLOC_SPACE, HS_VALUE_INUSE_OBJECTS, HS_VALUE_INUSE_SPACE };

/* What a snapshot reads, filled by its owner (control/): never the whole agent, nor its
 * option table: the options it reads are copied here, and it quotes them all through
 * format_options. */
typedef struct hs_snapshot_source {
    hs_sampled sampled;                   /* tables, names, counters, startup interval */
    int32_t depth;                        /* depth=: frames kept per stack */
    bool threads;                         /* threads=: samples carry the "thread" label */
    hs_live_scale live_scale;             /* live_scale=: in-use values against the heap */
    hs_format format;                     /* format=: what hs_write_profile writes */
    const char *collapsed_type;           /* collapsed=: the sample type collapsed stacks and
                                           * the flame graph show ("alloc_space", ...) */
    /* Writes the options in force as an option string (snprintf's contract), for the
     * comments: hs_options_format of control/, given options. */
    size_t (*format_options)(const void *options, char *buf, size_t len);
    const void *options;
    hs_overflow *overflow;                /* samples folded because a table was full */
    struct hs_thread_names *thread_names; /* threads=true: the "thread" label; else NULL */
    struct hs_throttle *throttle;         /* the rate cap; NULL with rate=0 */
    const struct hs_survival *survival;   /* the cap's survival factors; NULL when off */
    hs_live_slot *live;                   /* where the live tracker is published */
    const char *vm_name, *java_version;
    int64_t start_nanos;                  /* wall clock at load, ns since the epoch */
} hs_snapshot_source;

/* Samples taken so far: those in buckets plus those spilled to the overflow accumulator. */
uint64_t hs_snapshot_samples_taken(const hs_snapshot_source *src);

/* What a build saw of the live heap, for a report beside the profile (report.h): the
 * heap figure its in-use values were fitted to and the growing sites (growth.h). */
typedef struct {
    int valid;                   /* the profile has in-use values */
    hs_inuse_basis inuse_basis;  /* what they stand for (inuse_basis.h) */
    hs_heap_reading heap;
    hs_growth_site suspects[HS_SUSPECTS_MAX];
    uint32_t nsuspects;
} hs_snapshot_live;

/* What a profile covers when it is not the whole run up to now (dumps.c fills it). */
typedef struct {
    /* Allocation values: per bucket 1..nbuckets, the weight (HS_WEIGHT_ONE units) to
     * report instead of the table's current one, minus base_fp (NULL: nothing). A
     * periodic dump passes the weights it read and those of the previous dump, so
     * consecutive files partition the run. alloc_fp NULL: the table's weights, all run. */
    const uint64_t *alloc_fp;
    const uint64_t *base_fp;
    uint32_t nbuckets;            /* entries 1..nbuckets of both arrays */
    int64_t time_nanos;           /* the profile's period; 0: from the agent's start */
    int64_t duration_nanos;       /* 0 with time_nanos 0: up to now */
    hs_live_when live;            /* which in-use view (live_tracker.h) */
    const char *what;             /* one comment saying what the file is, or NULL */
    const char *default_type;     /* default_sample_type if the profile has it; NULL: inuse_space
                                   * with live tracking, else alloc_space */
    hs_snapshot_live *live_out;   /* filled when not NULL (valid 0 without in-use values) */
} hs_snapshot_request;

/* The allocation weight of every bucket now, entries 1..*n (holes 0): a baseline for a
 * request's base_fp or alloc_fp. NULL on ENOMEM. */
uint64_t *hs_snapshot_read_weights(const hs_snapshot_source *src, uint32_t *n);

/* Grows weights read earlier (*n entries) to n_new entries, the new ones 0 (buckets that
 * did not exist then had no weight). *fp is replaced; false on ENOMEM (*fp unchanged). */
bool hs_snapshot_extend_weights(uint64_t **fp, uint32_t *n, uint32_t n_new);

/* Builds the profile; jni (may be NULL) is needed only for the live heap. NULL on ENOMEM. */
hs_profile *hs_snapshot_build(const hs_snapshot_source *src, JNIEnv *jni);
/* The same for a request (NULL: as hs_snapshot_build). NULL on ENOMEM, or when the in-use
 * view asked for does not exist (HS_LIVE_PEAK before any GC). */
hs_profile *hs_snapshot_build_request(const hs_snapshot_source *src, JNIEnv *jni, const hs_snapshot_request *req);

#endif
