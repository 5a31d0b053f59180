/* live_age.h: how old the live samples are, in GCs survived, and how a site's values are
 * split by age in the profile.
 *
 * A tracked sample remembers the GC epoch of its allocation (live_table.h); at a dump
 * judged as of epoch E, a sample of epoch e < E has survived E - e GCs. Ages are bucketed
 * by powers of two (1, 2-3, 4-7, ..., 128+), so a site yields at most HS_AGE_BUCKETS + 1
 * profile samples whatever the ages. Each age sample carries the numeric pprof label
 * `gc_age` = the smallest age of its bucket: `go tool pprof -tagfocus=gc_age=8:` keeps
 * the objects that survived 8 GCs or more.
 *
 * A tracked sample also remembers when it was allocated (seconds since the live tracker
 * started). Each age sample with an in-use value carries a second numeric label,
 * `age_seconds` (unit "seconds"): the weight-weighted mean age at the dump, in whole
 * seconds, of the tracked samples of its site and age bucket. It is a mean, not a bound:
 * `-tagfocus=age_seconds=3600:` keeps the samples whose mean age is an hour or more.
 *
 * The split (one convention, so that no sample claims more in use than allocated):
 *   - the site's in-use values are divided among its age buckets in proportion to the
 *     tracked weight in each (sum-preserving rounding: the parts add up exactly);
 *   - each age sample's alloc values equal its in-use values (those objects were
 *     allocated there and are still live), capped so that the parts never exceed the
 *     site's allocation;
 *   - the site's unlabelled sample keeps the rest of the allocation (objects that died,
 *     or are younger than the last GC) and no in-use value.
 * Totals per site are unchanged; a site without age information (only G1 humongous
 * samples, which are tracked without an age) keeps a single unlabelled sample.
 * Pure arithmetic plus profile building; no JVM. */
#ifndef HS_LIVE_AGE_H
#define HS_LIVE_AGE_H

#include <stdint.h>

#include "profile/profile.h"

#define HS_AGE_BUCKETS 8
#define HS_AGE_LABEL "gc_age"
#define HS_AGE_SECONDS_LABEL "age_seconds"

/* What a dump knows of one site's tracked live samples, by age bucket. */
typedef struct {
    double weight[HS_AGE_BUCKETS];  /* live weight (JVM samples) by GCs survived */
    double seconds[HS_AGE_BUCKETS]; /* sum of weight x age in seconds at the dump */
    /* Live samples known without their GC age (the peak keeps none): weight, and weight x
     * age in seconds. A site not split by age labels its sample with their mean age. */
    double unsplit_weight, unsplit_seconds;
} hs_age_site;

/* Bucket of an object that survived `gcs` GCs: 0 for 0 or 1, 1 for 2-3, 2 for 4-7, ...,
 * HS_AGE_BUCKETS - 1 for 128 and more. */
unsigned hs_age_bucket(uint32_t gcs);
/* The smallest age in bucket i (1, 2, 4, ...): its label value. */
int64_t hs_age_bucket_floor(unsigned i);

/* Counts a live sample of `weight` that survived `gcs` GCs and has lived `age_seconds`. */
void hs_age_site_add(hs_age_site *site, uint32_t gcs, uint32_t age_seconds, double weight);

/* Seconds from `born` to `now` (both seconds since one origin); 0 when born is later (a
 * clock read by another thread a moment after this one's). */
uint32_t hs_age_seconds(uint32_t born, uint32_t now);

/* The weight-weighted mean age in bucket i of the site, rounded to whole seconds; -1 when
 * the bucket holds no weight. */
int64_t hs_age_mean_seconds(const hs_age_site *site, unsigned i);
/* The same for the samples known without GC age. */
int64_t hs_age_unsplit_mean_seconds(const hs_age_site *site);

/* One sample's values, in the snapshot's order (alloc objects, alloc bytes, inuse
 * objects, inuse bytes). */
typedef struct {
    int64_t v[4];
} hs_age_values;

typedef struct {
    hs_age_values site;                /* unlabelled */
    hs_age_values age[HS_AGE_BUCKETS]; /* labelled gc_age = hs_age_bucket_floor(i) */
    int split;                         /* 0: no age weight, everything stays in site */
} hs_age_split_result;

/* Splits a site's values by the tracked weight per age bucket (see above). */
void hs_age_split(const hs_age_values *total, const double weight[HS_AGE_BUCKETS],
                  hs_age_split_result *out);

/* Splits `total` into n (at most HS_AGE_BUCKETS) integers proportional to weight[] (non-finite or negative
 * weights count as 0) that add up exactly to total, each within 1 of its exact share
 * (largest remainder). All zeros when the weights sum to 0. */
void hs_age_split_integer(int64_t total, const double *weight, unsigned n, int64_t *out);

/* Adds a site to the profile: one unlabelled sample, plus one per non-empty age bucket
 * (labelled gc_age, and age_seconds when it holds in-use values) when `ages` (may be NULL)
 * says how its live samples are aged. A site not split by GC age whose ages in seconds are
 * known (unsplit_weight) labels its one sample with age_seconds when it has in-use values.
 * nvalues: the profile's sample types (2 without live tracking: no split). 0 or -1. */
int hs_age_add_site(hs_profile *p, const uint32_t *locations, uint32_t depth,
                    const int64_t *values, uint32_t nvalues, int64_t object_size,
                    const hs_age_site *ages);

/* The profile comment that states the convention above. 0 or -1. */
int hs_age_add_comment(hs_profile *p);

/* Share of the weight in buckets whose ages are all >= min_age (a power of two). */
double hs_age_share_at_least(const double weight[HS_AGE_BUCKETS], uint32_t min_age);

#endif
