/* push_sink.h: the queue of profiles waiting to be pushed, and when each is tried again.
 *
 * Independent of the wire format (pyroscope_ingest.h) and of the transport
 * (push_transport.h): it holds encoded profiles in the order of their windows, bounded by
 * count and bytes (when full, the oldest is dropped and counted), hands out the oldest when
 * it is due, and settles each attempt:
 *   - 2xx: sent;
 *   - no answer (connection refused or reset, DNS, TLS), a timeout, 5xx, 408, 429: tried
 *     again after an exponential backoff with jitter (min * 2^(attempt-1), capped at max,
 *     drawn in [d/2, d]), or after Retry-After when the answer gave one (capped);
 *   - any other status (4xx; 3xx the transport did not follow): it will never succeed:
 *     dropped and counted as rejected.
 * A profile queued longer than max_age_ms is dropped as expired (the ingester refuses
 * profiles older than its window, about an hour). Later profiles wait behind the oldest, so
 * profiles arrive in order and none twice.
 *
 * One thread adds, takes and settles; the counters may be read from any thread. The clock
 * and the random source are injected (tests drive time). Pure, no JVM, no I/O. */
#ifndef HS_PUSH_SINK_H
#define HS_PUSH_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t max_profiles;      /* queue bound by count, >= 1 */
    size_t max_bytes;           /* queue bound by encoded bytes */
    int64_t backoff_min_ms;     /* wait before the first retry */
    int64_t backoff_max_ms;     /* longest backoff */
    int64_t retry_after_max_ms; /* longest wait a Retry-After may ask for */
    int64_t max_age_ms;         /* a profile queued longer is dropped as expired */
} hs_push_policy;

typedef struct {
    int64_t (*now_ms)(void *ctx); /* a monotonic clock */
    uint64_t (*random)(void *ctx);
    void *ctx;
} hs_push_clock;

/* A queued profile. */
typedef struct {
    uint8_t *body;
    size_t len;
    int64_t from, until; /* its window, seconds since the epoch */
    uint64_t seq;        /* 1, 2, ... in the order added */
    uint32_t attempts;   /* tries so far */
    int64_t added_ms, due_ms;
} hs_push_profile;

/* What one attempt got. */
typedef struct {
    int status;             /* HTTP status; 0: no answer */
    bool timed_out;         /* no (complete) answer in time */
    int64_t retry_after_ms; /* from Retry-After; -1: none */
    char detail[160];       /* for the log: the transport's error or the status line */
} hs_push_outcome;

typedef enum { HS_PUSH_SENT = 0, HS_PUSH_RETRY, HS_PUSH_REJECTED } hs_push_verdict;

typedef struct {
    uint64_t added, sent, retried, rejected;
    uint64_t dropped_full;    /* the oldest, to make room */
    uint64_t dropped_expired; /* queued longer than max_age_ms */
    uint64_t dropped_exit;    /* still queued when the agent stopped */
    uint32_t queued, peak_queued;    /* now, and the most at once */
    size_t queued_bytes, peak_bytes;
    char last_error[160];     /* the last failed attempt's outcome ("" when none) */
} hs_push_counters;

typedef struct hs_push_sink hs_push_sink;

/* The verdict of an outcome (see above). */
hs_push_verdict hs_push_classify(const hs_push_outcome *o);

/* The wait before retry number `attempts` (>= 1) for a random draw. */
int64_t hs_push_backoff_ms(const hs_push_policy *p, uint32_t attempts, uint64_t random);

/* NULL on ENOMEM. */
hs_push_sink *hs_push_sink_create(const hs_push_policy *policy, const hs_push_clock *clock);
void hs_push_sink_destroy(hs_push_sink *s);

/* Queues a profile (takes body, malloc'd), due now. The oldest are dropped while the
 * queue would exceed its bounds; a profile larger than max_bytes alone is dropped itself.
 * Counted in dropped_full either way. */
void hs_push_sink_add(hs_push_sink *s, uint8_t *body, size_t len, int64_t from, int64_t until);

/* The oldest profile when it is due now, else NULL with *wait_ms = the time until it is
 * (-1 when the queue is empty). Expired profiles are dropped first. */
const hs_push_profile *hs_push_sink_due(hs_push_sink *s, int64_t *wait_ms);

/* Settles the attempt at the profile hs_push_sink_due returned (the oldest). */
hs_push_verdict hs_push_sink_settle(hs_push_sink *s, const hs_push_outcome *o);

/* Drops everything still queued (the agent stops); returns how many. */
uint32_t hs_push_sink_abandon(hs_push_sink *s);

hs_push_counters hs_push_sink_counters(hs_push_sink *s);

#endif
