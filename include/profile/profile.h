/* profile.h: a heap profile in memory, independent of any output format.
 *
 * The snapshot (snapshot.c) builds one of these from the agent's tables; the pprof and
 * collapsed encoders read it. Every string is stored as standard UTF-8 (utf8.h). Keeping the model separate from the exit path lets a dump
 * happen at any time (on demand, periodically, on OutOfMemoryError). The profile owns
 * copies of every string it is given. Not thread-safe: one builder at a time. */
#ifndef HS_PROFILE_H
#define HS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define HS_PROFILE_MAX_VALUES 4

typedef struct {
    char *name;        /* java.util.ArrayList.grow */
    char *system_name; /* java/util/ArrayList.grow(I)[Ljava/lang/Object; */
    char *filename;    /* java/util/ArrayList.java */
    int64_t start_line;
} hs_function;

typedef struct {
    uint32_t function; /* index into functions */
    int64_t line;      /* 0 when unknown */
} hs_location;

/* The numeric age labels of a live sample (live_age.h). */
typedef struct {
    int64_t gc_age;      /* label "gc_age": GCs survived (bucket floor); 0 = no label */
    int64_t age_seconds; /* label "age_seconds", unit "seconds"; < 0 = no label */
} hs_sample_ages;

typedef struct {
    uint32_t *locations; /* indexes into locations, leaf first */
    uint32_t depth;
    int64_t values[HS_PROFILE_MAX_VALUES]; /* one per sample type */
    int64_t object_size;                   /* numeric label "bytes"; 0 = no label */
    hs_sample_ages ages;                   /* numeric age labels */
    char *label_key;                       /* one string label (e.g. "thread"), NULL = none */
    const char *liveness;                  /* string label "liveness" (a static string:
                                            * liveness.h), NULL = none */
    double inuse_var;                      /* variance estimate of the in-use bytes value
                                            * (bytes^2, estimate.h: hs_ht_variance), for the
                                            * report's ±; not written to pprof; 0 = none */
    char *label_value;
} hs_sample;

typedef struct {
    char *type;
    char *unit;
} hs_value_type;

typedef struct {
    hs_value_type sample_types[HS_PROFILE_MAX_VALUES];
    uint32_t nsample_types;
    char *default_sample_type; /* NULL = none set */
    hs_value_type period_type;
    int64_t period;
    int64_t time_nanos;     /* start of the profiled period, ns since the epoch */
    int64_t duration_nanos; /* length of the profiled period */

    hs_function *functions;
    uint32_t nfunctions, functions_cap;
    hs_location *locations;
    uint32_t nlocations, locations_cap;
    hs_sample *samples;
    uint32_t nsamples, samples_cap;
    char **comments;
    uint32_t ncomments, comments_cap;

    void *location_index; /* (function, line) -> location, for add_location's dedup */
    int failed;           /* set when an allocation failed: the profile is incomplete */
} hs_profile;

/* An empty profile. Returns NULL on ENOMEM. */
hs_profile *hs_profile_new(void);
void hs_profile_free(hs_profile *p);

/* Appends a sample type (type, unit), e.g. ("alloc_space", "bytes"). Returns its index or -1. */
int hs_profile_add_sample_type(hs_profile *p, const char *type, const char *unit);
int hs_profile_set_default_sample_type(hs_profile *p, const char *type);
/* The index of the sample type named type, or nsample_types when there is none. */
uint32_t hs_profile_sample_type_index(const hs_profile *p, const char *type);
int hs_profile_set_period(hs_profile *p, const char *type, const char *unit, int64_t period);

/* Appends a function; returns its index, or UINT32_MAX on ENOMEM. No deduplication:
 * callers add each method once. */
uint32_t hs_profile_add_function(hs_profile *p, const char *name, const char *system_name,
                                 const char *filename, int64_t start_line);
/* Returns the index of the (function, line) location, adding it on first use;
 * UINT32_MAX on ENOMEM. */
uint32_t hs_profile_add_location(hs_profile *p, uint32_t function, int64_t line);
/* Appends a sample (copies locations and values; nvalues == nsample_types). 0 or -1. */
int hs_profile_add_sample(hs_profile *p, const uint32_t *locations, uint32_t depth,
                          const int64_t *values, int64_t object_size);
/* The same, with age labels (copied; NULL = none). */
int hs_profile_add_aged_sample(hs_profile *p, const uint32_t *locations, uint32_t depth,
                               const int64_t *values, int64_t object_size,
                               const hs_sample_ages *ages);

/* Gives the samples first..nsamples-1 a string label key=value (replacing an earlier one):
 * a site whose values are split over several samples labels them all. 0 or -1. */
int hs_profile_label_samples(hs_profile *p, uint32_t first, const char *key, const char *value);
int hs_profile_add_comment(hs_profile *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
