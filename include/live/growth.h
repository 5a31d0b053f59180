/* growth.h: which sites' in-use estimates grow, at several horizons (the last GCs, the
 * last complete markings, the last minutes, the last hours), with their sampling error.
 *
 * After each GC the agent's sweeper walks the live table once (never in the GC callback)
 * and records, per bucket, the tracked samples that survived the GC (born before its
 * epoch, not collected), and among them those a complete marking judged (liveness.h: born
 * before judged_before): their counts, sums of weights and of squared weights, and per
 * horizon the judged sums over samples born before the epoch of that horizon's first
 * point. A record is sparse (only buckets with a survivor: an absent bucket's estimate is
 * exactly 0).
 *
 * What is compared: growth = E_judged(newest point) - E_survived(first point). The newest
 * figure counts only what a marking judged live; the first one counts every survivor of
 * its GC, so dead objects that no marking has collected yet (promoted, then dead; a cache's
 * evicted entries) can only raise the first figure: they can hide growth, never fake it.
 * A leak shows as soon as one marking has judged it. When every survivor is judged (a
 * collector whose markings cannot be told, or every GC a full one) both are the same.
 *
 * Horizons. Each keeps HS_GROWTH_WINDOW points, a ring; a point is the last record of its
 * period (the newest point is always the newest record):
 *   - HS_HORIZON_GCS: one point per GC (the last 16 GCs);
 *   - HS_HORIZON_MARKINGS: one per complete marking (the records of one judged_before);
 *   - HS_HORIZON_SECONDS: one per HS_GROWTH_SECONDS_PERIOD seconds (the last minute or so);
 *   - HS_HORIZON_MINUTES: one per minute (the last 16 minutes);
 *   - HS_HORIZON_HOURS: one per hour (the last 16 hours).
 * Counted horizons shrink when GCs or markings crowd: G1 may run no marking for 20 s and
 * then 50 in the next 20 (back-to-back cycles once the old generation stays above its
 * threshold), and the last 16 markings then span 4 s, too little for a leak of a few MB/s
 * to pass HS_GROWTH_SIGMAS, while the minutes horizon has too few points for a minute or
 * two. The seconds horizon's points are spaced in time whatever the markings do: the newest
 * point carries the newest marking's judged figure, the earlier ones what survived up to
 * a minute before, so a burst of markings cannot shrink every horizon to seconds while a
 * minute of history exists (test_growth replays those histories).
 * Memory bound: a point keeps at most HS_GROWTH_MAX_SITES sites (the largest by weight;
 * the largest weight it left out is kept, and a site absent from such a point is taken to
 * have had that much, which can only understate its growth). 80 bytes per (point, site):
 * at most HS_GROWTH_HORIZONS * HS_GROWTH_WINDOW * HS_GROWTH_MAX_SITES * 80 bytes = 13.1 MB,
 * plus 220-500 bytes per site met by the record being built (hs_growth_record_memory).
 *
 * Sites. The ranking judges sites, not buckets: a bucket is one stack (and object size),
 * and a site (the caller's hs_growth_bucket_fn says which: the suspect's allocation site)
 * may span several. Judged bucket by bucket, a cache filled from one stack at startup and
 * refilled from another in steady state showed the second stack growing while the first
 * shrank, and was named a leak. A site's figures and variances are its buckets' sums.
 *
 * Estimates and errors. A tracked entry of weight w (JVM samples, thinning included) of a
 * bucket whose samples each stand for `scale` objects of `size` bytes stands for
 * W = w * scale objects, an inclusion probability of 1/W: the site's in-use estimate is
 * size * sum W (Horvitz-Thompson), with variance estimate size^2 * sum W (W - 1).
 * Growth over a horizon is G = E_last - E_first = B - D, where B is what is judged live now
 * and was born after the first point's epoch, and D what survived at the first point and is
 * not judged live now: disjoint sets of samples, so Var(G) = Var(B) + Var(D), with
 * Var(B) = V_last - V_pre (judged entries born before the first point's epoch, from the last
 * record) and Var(D) = V_first - V_pre (clamped at 0). Entries present at both ends cancel
 * out, so an old, large, stable site has a small growth error. Thinning between the two
 * points adds noise this ignores.
 *
 * A site is a finding at a horizon only when its growth there exceeds HS_GROWTH_SIGMAS
 * standard errors: a site of 3 samples (relative error about 1/sqrt(3)) never is. And it
 * must still be growing: from the horizon's middle point (in time) to its newest, by more
 * than HS_GROWTH_STILL_SIGMAS standard errors of that difference, so a site that filled up
 * once and stays steady (a warm-up, a cache reaching its size and churning there) is not
 * named while its ramp is still inside the horizon. That error is computed as above with
 * the middle point in place of the first: a record also keeps, per site, the judged sums
 * over samples born before the epoch of the point that will be the ring's middle while
 * the record is its newest (chosen when it is recorded), so what was present at both
 * cancels out. The middle is taken between the first point and the newest judged
 * figure's boundary (the GC before which what it counts was born), not now: G1 may
 * complete no marking for minutes, the judged figure then stands still, and a middle
 * halfway to now would fall after that boundary, where the survivors it counts include
 * what no marking has judged yet (a leak would drop out of the ranking until the next
 * marking). Only points at or before the boundary can be the middle. 3 standard errors:
 * a cache that warmed up inside the horizon and churns at its size passes it in about
 * 0.2 % of histories (test_growth), a steady leak whose
 * whole-horizon growth passes HS_GROWTH_SIGMAS nearly always does (its second half has
 * about 1/sqrt(2) of that significance).
 *
 * Falling back. A leak keeps what a marking found live; a site whose confirmed figure fell
 * from one point of the markings horizon to the next (by more than HS_GROWTH_STILL_SIGMAS
 * standard errors, the two figures' errors added), from the last marking at or before a
 * horizon's first point on, is a sawtooth and no finding there: class churn's per-class
 * objects, confirmed by one marking and freed by the next (liveness.h), in varying
 * amounts, were named as growth. Skipped for the OutOfMemoryError profile, as above.
 *
 * Threads: record calls on one thread (the sweeper), rank serialized with them. */
#ifndef HS_GROWTH_H
#define HS_GROWTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_GROWTH_WINDOW 16
#define HS_GROWTH_SIGMAS 4.0
#define HS_GROWTH_STILL_SIGMAS 3.0
#define HS_GROWTH_MAX_SITES 2048
#define HS_GROWTH_SECONDS_PERIOD 4 /* seconds per point of HS_HORIZON_SECONDS: 16 span a minute */

typedef enum {
    HS_HORIZON_GCS = 0,
    HS_HORIZON_MARKINGS,
    HS_HORIZON_SECONDS,
    HS_HORIZON_MINUTES,
    HS_HORIZON_HOURS,
    HS_GROWTH_HORIZONS
} hs_growth_horizon;

/* "GCs", "markings", "seconds", "minutes", "hours". */
const char *hs_growth_horizon_name(hs_growth_horizon h);

typedef struct hs_growth hs_growth;

hs_growth *hs_growth_create(void);
void hs_growth_destroy(hs_growth *g);

/* Recording one GC: begin, add every tracked sample that survived it (born before epoch,
 * not collected), end. Those born before judged_before (<= epoch) are the ones a marking
 * judged (liveness.h); judged_before = epoch when every survivor counts. time_nanos: wall clock,
 * which places the record in its minute and hour. A failed allocation drops this GC's
 * record (end returns -1). */
void hs_growth_begin(hs_growth *g, uint32_t epoch, uint32_t judged_before, int64_t time_nanos);
void hs_growth_add(hs_growth *g, uint32_t bucket, uint32_t alloc_epoch, double weight);
int hs_growth_end(hs_growth *g);

/* Points held at the GC horizon (at most HS_GROWTH_WINDOW), at horizon h, and the bytes
 * all points hold (the memory bound above), and the duration of the last walk as the caller
 * measured it (for the profile comment). */
uint32_t hs_growth_records(const hs_growth *g);
uint32_t hs_growth_points(const hs_growth *g, hs_growth_horizon h);
size_t hs_growth_memory(const hs_growth *g);
/* The bytes the record being built holds (kept between GCs, and reused): 220-500 bytes
 * per site the most varied GC's survivors came from (its arrays grow by doubling),
 * whatever the sites' bucket ids. */
size_t hs_growth_record_memory(const hs_growth *g);
void hs_growth_note_walk(hs_growth *g, int64_t nanos, uint32_t entries);
void hs_growth_last_walk(const hs_growth *g, int64_t *nanos, uint32_t *entries);

/* Bytes and objects one unit of weight stands for in a bucket (size and scale above), and
 * the site the bucket belongs to (buckets of one site are judged as one: their sums add
 * up); return 0 when the bucket is unknown (it is then skipped). */
typedef int (*hs_growth_bucket_fn)(uint32_t bucket, double *size, double *scale, uint64_t *site,
                                   void *ctx);

typedef struct {
    uint32_t bucket;
    hs_growth_horizon horizon;      /* where it was found */
    double first_bytes, last_bytes; /* in-use estimate at the horizon's ends */
    double growth_bytes;            /* last - first */
    double growth_sigma;            /* its standard error */
    double slope_bytes_per_gc;      /* least squares over every point of the horizon */
    double slope_bytes_per_second;  /* the same against the wall clock */
    uint32_t first_epoch, last_epoch;
    int64_t first_nanos, last_nanos; /* wall clock of the two ends */
    uint32_t samples;               /* tracked live samples in the last record */
    bool per_gc;                    /* the horizon's points are one per GC (not per marking
                                     * or period): slope_bytes_per_gc is the telling slope */
} hs_growth_site;

/* The sites that grew by more than HS_GROWTH_SIGMAS standard errors at some horizon, each
 * once (at the horizon where growth / sigma is largest), largest growth first; at most
 * max. A site's figures are the sums over all its buckets that any point holds; the
 * hs_growth_site names the bucket holding most of its judged bytes now, and `samples` counts
 * the whole site's. A horizon needs two points, a minutes or hours one three (a middle one:
 * the still-growing rule). Returns how many. */
uint32_t hs_growth_rank(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                        hs_growth_site *out, uint32_t max);
/* The same for a heap that ran out (the OutOfMemoryError profile): without the
 * still-growing rule when heap_exhausted, since the leak that filled the heap has just
 * stopped growing (the GCs before the error add nothing). */
uint32_t hs_growth_rank_at(const hs_growth *g, bool heap_exhausted, hs_growth_bucket_fn bucket_info,
                           void *ctx, hs_growth_site *out, uint32_t max);
/* The same at one horizon only. */
uint32_t hs_growth_rank_horizon(const hs_growth *g, hs_growth_horizon h,
                                hs_growth_bucket_fn bucket_info, void *ctx, hs_growth_site *out,
                                uint32_t max);
/* Is this bucket's site a suspect, and at which horizon (in *out, may be NULL)? */
bool hs_growth_suspect(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                       uint32_t bucket, hs_growth_site *out);

#endif
