/* growth.h: which sites' in-use estimates grow, over the last GCs, with their sampling
 * error.
 *
 * After each GC the agent's sweeper walks the live table once (never in the GC callback)
 * and records, per bucket, the tracked samples that survived the GC: their count, the
 * sum of their weights, the sum of squared weights, and the sum of squared weights of
 * those allocated before the window's first GC. A record is sparse (only buckets with a
 * live sample: an absent bucket's estimate is exactly 0) and the last HS_GROWTH_WINDOW
 * records are kept. Memory: 40 bytes per (GC, site with a tracked live sample), at most
 * HS_GROWTH_WINDOW * track entries.
 *
 * Estimates and errors. A tracked entry of weight w (JVM samples, thinning included) of a
 * bucket whose samples each stand for `scale` objects of `size` bytes stands for
 * W = w * scale objects, an inclusion probability of 1/W: the site's in-use estimate is
 * size * sum W (Horvitz-Thompson), with variance estimate size^2 * sum W (W - 1).
 * Growth over the window is G = E_last - E_first = B - D, where B is what is live now
 * and was allocated within the window and D what was live at the first GC and has died
 * since: disjoint sets of samples, so Var(G) = Var(B) + Var(D), with
 * Var(B) = V_last - V_pre (entries allocated before the window, from the last record)
 * and Var(D) = V_first - V_pre (clamped at 0). Entries present at both ends cancel out,
 * so an old, large, stable site has a small growth error. Thinning between the two GCs
 * adds noise this ignores.
 *
 * A site is a finding only when its growth exceeds HS_GROWTH_SIGMAS standard errors: a
 * site of 3 samples (relative error about 1/sqrt(3)) never is.
 *
 * Threads: record calls on one thread (the sweeper), rank serialized with them. */
#ifndef HS_GROWTH_H
#define HS_GROWTH_H

#include <stdint.h>

#define HS_GROWTH_WINDOW 16
#define HS_GROWTH_SIGMAS 4.0

typedef struct hs_growth hs_growth;

hs_growth *hs_growth_create(void);
void hs_growth_destroy(hs_growth *g);

/* Recording one GC: begin, add every tracked sample that survived it, end. A failed
 * allocation drops this GC's record (end returns -1). */
void hs_growth_begin(hs_growth *g, uint32_t epoch, int64_t time_nanos);
void hs_growth_add(hs_growth *g, uint32_t bucket, uint32_t alloc_epoch, double weight);
int hs_growth_end(hs_growth *g);

/* Records held (at most HS_GROWTH_WINDOW), and the duration of the last walk as the
 * caller measured it (for the profile comment). */
uint32_t hs_growth_records(const hs_growth *g);
void hs_growth_note_walk(hs_growth *g, int64_t nanos, uint32_t entries);
void hs_growth_last_walk(const hs_growth *g, int64_t *nanos, uint32_t *entries);

/* Bytes and objects one unit of weight stands for in a bucket (size and scale above);
 * return 0 when the bucket is unknown (it is then skipped). */
typedef int (*hs_growth_bucket_fn)(uint32_t bucket, double *size, double *scale, void *ctx);

typedef struct {
    uint32_t bucket;
    double first_bytes, last_bytes; /* in-use estimate at the window's ends */
    double growth_bytes;            /* last - first */
    double growth_sigma;            /* its standard error */
    double slope_bytes_per_gc;      /* least squares over every record of the window */
    uint32_t first_epoch, last_epoch;
    uint32_t samples;               /* tracked live samples in the last record */
} hs_growth_site;

/* The sites that grew by more than HS_GROWTH_SIGMAS standard errors over the window,
 * largest growth first; at most max. Needs two records. Returns how many. */
uint32_t hs_growth_rank(const hs_growth *g, hs_growth_bucket_fn bucket_info, void *ctx,
                        hs_growth_site *out, uint32_t max);

#endif
