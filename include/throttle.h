/* throttle.h: the rate cap (rate=N/s): which of the JVM's samples the agent keeps, and
 * what each kept sample weighs, so that the work per second is bounded whatever the
 * allocation rate while the profile stays an unbiased estimate, site by site.
 *
 * Time is cut into windows (5 per period, 1 for rates below 5 per period). The period's
 * budget of N samples is spread over its windows: window i of the period may keep up to
 * floor(N * (i + 1) / W) minus what the period kept so far, so what a window leaves unused
 * is carried to the next ones, and dropped at the period's end. The population (samples
 * the JVM offers per window) is an EWMA over the recent windows (alpha 1/W: about one
 * period of memory).
 *
 * The cut is soft. A window opens with the acceptance probability p = min(1, budget / 2 /
 * population): it aims at half its budget and keeps the other half as room for a
 * population that outruns the estimate. Every 20 ms a check sets p from the rate offered
 * over the last two checks (so p follows the population up after a burst, and down at a
 * new load). Between checks, steps on the window's count of kept samples slow it down:
 * at the aim (a window that reaches it early: no population known yet, or a burst), then
 * from three quarters of the budget on each time half of the budget left is used (at
 * least halving p). A step, and a check in a window past its aim, project the offers
 * still to come from the recent rate and aim at half of the budget left, pro rata of the
 * time left. Every offer is a
 * candidate with the probability p in force when it is decided (a per-thread geometric
 * countdown, redrawn whenever p changes: memoryless, so no offer's odds depend on when the
 * change came), and a kept sample weighs 1/p. A probability that depends only on what
 * came before the offer keeps the estimate unbiased for every site (Horvitz-Thompson): a
 * site that allocates in bursts, or only at the end of a window, is represented at its
 * weight. Only a candidate that finds the budget spent is refused (the hard bound on the
 * work); that needs a population that outruns the projections more than the steps can
 * follow, and is counted and reported ("refused").
 *
 * A dump multiplies its estimates by offered / (weights handed out), so that the totals
 * equal the samples offered exactly (the weights' sum is itself an unbiased estimate of
 * them). Without the cap biting (p = 1) every weight is exactly 1.
 *
 * Concurrency: hs_throttle_offer is O(1), lock-free and never waits. Offered samples are
 * counted in per-thread stripes (no shared cache line written per sample); only a kept
 * sample writes the shared window word (one CAS: the window's id and kept count in one
 * 64-bit word, so no window ever keeps more than its budget) and the weight sum. The
 * first thread to see a window expired rotates it under a try-lock; the others decide with
 * the window they have. Time is a parameter (ns of a monotonic clock): tests drive a fake
 * clock, and with a fixed seed and one thread every decision is reproducible. */
#ifndef HS_THROTTLE_H
#define HS_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define HS_THROTTLE_STRIPES 32
#define HS_THROTTLE_WINDOWS 5 /* windows per period (rates of at least 5 per period) */

typedef struct hs_throttle hs_throttle;

/* One thread's state: zero it, and the thread's first offer sets it up. */
typedef struct {
    uint64_t seq;       /* window whose budget is cached here (0: none yet) */
    uint32_t budget;    /* its budget */
    uint32_t stripe;    /* offered-count stripe, 1 + index (0: not assigned) */
    uint64_t level;     /* the published probability word the countdown was drawn from */
    double p;           /* its probability */
    uint64_t countdown; /* offers to reject before the next candidate */
    uint64_t random;    /* splitmix64 state */
} hs_throttle_thread;

typedef struct {
    int64_t rate;            /* samples per period (0: no cap) */
    int64_t period_ns;       /* 1 s or 60 s */
    uint64_t offered;        /* samples the JVM offered */
    uint64_t kept;           /* samples kept */
    uint64_t windows;        /* windows completed */
    uint64_t windows_stepped; /* completed windows whose p was stepped down */
    uint64_t refused;        /* candidates refused because their window's budget was spent */
    double weight_total;     /* sum of the kept samples' weights, JVM samples */
    double population;       /* current EWMA, samples per window */
    double probability;      /* current acceptance probability */
    double lowest_probability; /* the lowest one so far: every weight is at most its inverse */
    double mean_inverse_p;   /* 1/p averaged over the offers (estimated: see throttle.c) */
    uint32_t budget;         /* current window's budget */
    int64_t elapsed_ns;      /* since the throttle was created */
} hs_throttle_stats;

/* rate samples per period_ns (> 0), seed for the per-thread draws, now_ns = clock now.
 * NULL when out of memory or rate <= 0. */
hs_throttle *hs_throttle_create(int64_t rate, int64_t period_ns, uint64_t seed, int64_t now_ns);
void hs_throttle_destroy(hs_throttle *t);

/* Hot path: one offered sample. True to keep it, with its weight (HS_WEIGHT_ONE = one
 * JVM sample) in *weight_fp; false to drop it. */
bool hs_throttle_offer(hs_throttle *t, hs_throttle_thread *thread, int64_t now_ns,
                       uint64_t *weight_fp);

/* Samples offered over the weights handed out so far, for a dump to multiply every estimate
 * by: the weights then add up to the population offered exactly. The ratio's expectation
 * is about 1 (the weights are unbiased); what it removes is their noise in the totals and
 * the weight of refused candidates. 1 for NULL or nothing kept yet. */
double hs_throttle_dump_scale(hs_throttle *t);

/* Changes the rate from the next window on (rate > 0). */
void hs_throttle_set_rate(hs_throttle *t, int64_t rate, int64_t period_ns);

/* Counters so far (any thread, lock-free; values individually current). */
void hs_throttle_stats_read(hs_throttle *t, int64_t now_ns, hs_throttle_stats *out);

/* Writes the rate-cap status as text lines, each ending in '\n' ("rate cap: off" for
 * t == NULL): rate, the probability now and its lowest, samples offered and kept, effective
 * rate, windows that stepped p down, candidates refused.
 * For the profile comments and the control command `status`. Returns the length needed
 * (like snprintf). */
size_t hs_throttle_format_status(hs_throttle *t, int64_t now_ns, char *buf, size_t len);

/* The same lines, each without its '\n', passed one by one to emit (for the profile's
 * comments and log lines). */
void hs_throttle_status_lines(hs_throttle *t, int64_t now_ns,
                              void (*emit)(void *ctx, const char *line), void *ctx);

/* The clock the agent drives the throttle with, read once per offered sample: the coarse
 * monotonic clock (a few ms of resolution, plenty for 200 ms windows) costs ~20 ns here
 * where CLOCK_MONOTONIC cost 65-80 ns. */
static inline int64_t hs_throttle_clock_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
