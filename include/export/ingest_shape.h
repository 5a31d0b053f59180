/* ingest_shape.h: a profile made acceptable to a continuous-profiling ingester (Grafana
 * Pyroscope), without changing what it says.
 *
 * What the ingester checks (shared notes, fleet.md) and what shaping does about it:
 *  - at most max_samples samples: the smallest samples (by their bytes values) are folded
 *    into one sample per allocated class (the leaf frame), whose stack is that class under
 *    a root frame "[other sites]"; totals of every sample type are unchanged;
 *  - stacks at most max_depth frames: a deeper stack keeps its max_depth - 1 leaf-most
 *    frames under a root frame "[truncated]";
 *  - no numeric labels (the ingester drops them): `bytes` and `age_seconds` are dropped,
 *    `gc_age` becomes the string label gc_age = "1", "2-3", ..., "128+" (at most
 *    HS_AGE_BUCKETS values); the per-thread string label is dropped (each value would be
 *    a series of its own), `liveness` (a few fixed values) is kept;
 *  - valid UTF-8 everywhere, names at most HS_INGEST_NAME_MAX bytes (cut at a character);
 *  - sample type names without '-' ('_' instead).
 * Each change is counted and said in the profile's comments. The input is not modified:
 * shaping builds a new profile. Pure, no JVM. */
#ifndef HS_INGEST_SHAPE_H
#define HS_INGEST_SHAPE_H

#include <stdint.h>

#include "profile/profile.h"

#define HS_INGEST_MAX_SAMPLES 16000
#define HS_INGEST_MAX_DEPTH 1000
#define HS_INGEST_NAME_MAX 1024
#define HS_INGEST_OTHER_SITES "[other sites]"
#define HS_INGEST_TRUNCATED "[truncated]"

typedef struct {
    uint32_t max_samples; /* >= 2 */
    uint32_t max_depth;   /* >= 2 */
} hs_ingest_limits;

/* What shaping changed. */
typedef struct {
    uint32_t folded_samples; /* samples folded into [other sites] samples */
    uint32_t other_samples;  /* [other sites] samples made (one per allocated class) */
    uint32_t truncated;      /* stacks cut at the root */
    uint32_t dropped_labels; /* numeric or per-thread labels removed */
    uint32_t fixed_strings;  /* strings made valid UTF-8 or cut to HS_INGEST_NAME_MAX */
} hs_ingest_shaping;

/* The defaults of the ingester: 16,000 samples, depth 1,000. */
hs_ingest_limits hs_ingest_default_limits(void);

/* The string value of a gc_age bucket floor (1, 2, 4, ...): "1", "2-3", "4-7", ...,
 * "128+". Returns out. */
const char *hs_ingest_age_bucket(int64_t floor, char *out, size_t len);

/* A shaped copy of in (NULL on ENOMEM); *what (may be NULL) says what changed. */
hs_profile *hs_ingest_shape(const hs_profile *in, const hs_ingest_limits *limits,
                            hs_ingest_shaping *what);

#endif
