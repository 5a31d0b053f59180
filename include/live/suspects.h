/* suspects.h: the growing sites of a dump, named and worded: the profile's comments and
 * `heapsampler: suspect: ...` lines.
 *
 * growth.c ranks buckets; this module gives it each bucket's object size and scale (from
 * the sample table and the startup interval), and turns the ranked buckets into text:
 *   suspect: LeakWorkload.cachePut:31 (byte[]) +22.1 MB over 11 GCs ±0.61 MB (horizon:
 *   GCs, 7 s), slope +2.01 MB/GC, 42 % older than 8 GCs, 1398 samples
 *   suspect: Leaky.put:12 (byte[]) +31.0 MB over 10 min ±2.10 MB (horizon: minutes, 600 s),
 *   slope +3.10 MB/min, ...
 * where ± is one standard error (a site is listed only when its growth exceeds 4 of
 * them at its horizon, growth.h) and MB is 10^6 bytes. The figures are confirmed in-use
 * figures (liveness.h) when the collector's markings can be told. */
#ifndef HS_SUSPECTS_H
#define HS_SUSPECTS_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#include "live/growth.h"
#include "base/log.h"
#include "profile/profile.h"
#include "sampling/sampled.h"

struct hs_live_view;

/* hs_growth_bucket_fn over the sample table (ctx: a const hs_sampled *). */
int hs_suspect_bucket_info(uint32_t bucket, double *size, double *scale, void *sampled);

/* hs_growth_bucket_fn for growth.c: hs_suspect_bucket_info, and the bucket's site as a
 * hash of its key (hs_suspect_site_key): a suspect is a site, whatever stacks and object
 * sizes lead to it. */
int hs_suspect_growth_info(uint32_t bucket, double *size, double *scale, uint64_t *site,
                           void *sampled);

/* The report's key of a bucket's site (report.h): "Frame.name:line → Class" for its first
 * frame outside the JDK. */
void hs_suspect_site_key(const hs_sampled *sampled, uint32_t bucket, char *out, size_t len);
/* The span a suspect's growth covers: "15 GCs", "45 s", "10 min", "3.5 h". */
void hs_suspect_span(const hs_growth_site *s, char *out, size_t len);

/* One suspect as text (without the "suspect: " prefix); age_weight: the bucket's
 * HS_AGE_BUCKETS weights, or NULL when unknown. */
void hs_suspect_format(const hs_sampled *sampled, const hs_growth_site *s, const double *age_weight,
                       char *out, size_t len);

/* Adds the growth comments and one comment per suspect to p (may be NULL), and logs a
 * `suspect: ...` line per suspect at `level`. */
void hs_suspects_report(const hs_sampled *sampled, hs_profile *p, const struct hs_live_view *view,
                        hs_log_level level);


#endif
