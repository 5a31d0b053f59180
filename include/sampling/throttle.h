/* throttle.h: the rate cap (rate=N/s): which of the JVM's samples the agent keeps, and
 * what each kept sample weighs, so that the work per second is bounded whatever the
 * allocation rate while the profile stays an unbiased estimate, site by site.
 *
 * A token bucket over periods (1 s, or 1 min for N/m): it refills at N per period, holds
 * at most HS_THROTTLE_DEPTH periods' worth (1.25: one period to lend to a burst above a
 * reserve of a quarter), starts full, and every kept sample takes one token. So over any
 * T periods at most N T + 1.25 N samples are kept (a hard bound: a candidate that finds
 * the bucket empty is refused), and a program offering fewer than N a period keeps all.
 *
 * Each offer is a candidate with the probability p in force when it is decided (a
 * per-thread geometric countdown, redrawn whenever p changes: memoryless, so no offer's
 * odds depend on when the change came), and a kept sample weighs 1/p. p depends only on
 * what came before the offer, so the weights are unbiased for every site
 * (Horvitz-Thompson), however p moved. p is set so that the bucket is spent at
 *     s = N x (1 + (tokens - reserve) / (N x horizon))   per period, at least N/4,
 * p = min(1, s / offers per period): the tokens above the reserve are lent out over about
 * a quarter of a period (a burst gets up to 5 N a period at first, and the bucket's whole
 * loan over a burst), and a program that offers more than N for long settles at the
 * reserve, where s = N: it keeps N a period. The check that sets p runs every 1/50 of a
 * period (20 ms) on whichever thread offers first (try-lock); the offer rate is measured
 * from one check to the next (the larger of that and its moving average, so a surge is
 * followed at once). Between checks, marks in the tokens spent since the check (at twice
 * what the check planned, then 4 x, 8 x...) step p down to at most half, and to the rate
 * seen since the check: a surge is caught before it empties the bucket; while the bucket
 * is above its reserve, a step keeps p at least at the loan left over the offers since the
 * check (a burst shorter than a check, e.g. a set built at startup in a few ms, spends the
 * loan instead of being kept at the rate it would get over the horizon), and marks also
 * come at each halving of the bucket. Refusals need a
 * population that outruns the steps; they are counted and reported ("refused").
 *
 * Survival factors (survival.h): an offer may carry a factor f >= 1; it is then a candidate
 * with probability q = 1 - (1 - p)^f and weighs 1/q (the per-thread countdown runs over the
 * offers' factors, an exponential draw: the points of a Poisson process on that mass), and
 * p is set against the offers' mass (the factors summed) instead of their number, so the
 * kept rate stays the cap's; offers that come in number at no more than the spend rate are
 * all kept (p = 1). Every factor 1 is the cap without factors, decision for decision.
 *
 * The JVM's own sampling interval follows the budget (interval_control.h), through a hook
 * the agent gives it: raised when the cap keeps a small fraction for long, so the JVM offers
 * 1.25 to 2 times what is kept (2 when the survival factors have survivors to choose) instead
 * of paying a callback for each offer it drops; lowered
 * when the JVM offers fewer than the rate (down to interval= when it was given, else to
 * 16 KiB), so the budget is spent. p is rescaled at once for the offers the new interval
 * brings. The weights of the JVM's interval are the sampler's
 * (estimate.h); the cap's 1/p multiplies them.
 *
 * A dump multiplies its estimates by offered / (weights handed out), so that the totals
 * equal the samples offered exactly (the weights' sum is itself an unbiased estimate of
 * them). Without the cap biting (p = 1) every weight is exactly 1.
 *
 * Concurrency: hs_throttle_offer is O(1), lock-free and never waits. Offered samples are
 * counted in per-thread stripes (no shared cache line written per sample); only a kept
 * sample writes the shared bucket line (one CAS on the tokens, the weight sums). Time is a
 * parameter (ns of a monotonic clock): tests drive a fake clock, and with a fixed seed and
 * one thread every decision is reproducible. */
#ifndef HS_THROTTLE_H
#define HS_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define HS_THROTTLE_STRIPES 32
#define HS_THROTTLE_DEPTH 1.25   /* the bucket's capacity, in periods of the rate */
#define HS_THROTTLE_RESERVE 0.25 /* what the bucket keeps back for surges, in periods */
#define HS_THROTTLE_CHECKS 50    /* checks of p per period (every 20 ms at N/s) */

typedef struct hs_throttle hs_throttle;

/* One thread's state: zero it, and the thread's first offer sets it up. */
typedef struct {
    uint32_t stripe;    /* offered-count stripe, 1 + index (0: not assigned) */
    uint64_t level;     /* the published probability word the countdown was drawn from */
    double p;           /* its probability (for an offer of factor 1) */
    double log_miss;    /* log(1 - p), taken once per level: each candidate needs it twice */
    double countdown;   /* offered mass to pass before the next candidate */
    double factor;      /* the last offer's factor */
    uint64_t random;    /* splitmix64 state */
} hs_throttle_thread;

/* Sets the JVM's sampling interval: 0 when it took it, else the JVMTI error. Called from a
 * check, on an application thread inside its sampling callback, under the check's lock. */
typedef int (*hs_throttle_interval_hook)(void *ctx, int64_t interval);

typedef struct {
    int64_t rate;            /* samples per period (0: no cap) */
    int64_t period_ns;       /* 1 s or 60 s */
    uint64_t offered;        /* samples the JVM offered */
    uint64_t kept;           /* samples kept */
    uint64_t checks;         /* checks of p */
    uint64_t steps;          /* steps down between checks */
    uint64_t refused;        /* candidates refused at an empty bucket */
    double weight_total;     /* sum of the kept samples' weights, JVM samples */
    double tokens;           /* in the bucket now */
    double capacity;         /* its capacity */
    double offer_rate;       /* offers per period, as the last check measured them */
    double probability;      /* current acceptance probability */
    double lowest_probability; /* the lowest one so far: every weight is at most its inverse */
    double mean_inverse_p;   /* 1/p averaged over the offers (estimated: see throttle.c) */
    int64_t elapsed_ns;      /* since the throttle was created */
    /* the JVM's interval (0: the cap does not control it) */
    int64_t interval, configured_interval, highest_interval;
    uint64_t interval_changes, interval_raises;
    int interval_error;      /* the JVMTI error that turned the control off (0: none) */
} hs_throttle_stats;

/* rate samples per period_ns (> 0), seed for the per-thread draws, now_ns = clock now.
 * NULL when out of memory or rate <= 0. */
hs_throttle *hs_throttle_create(int64_t rate, int64_t period_ns, uint64_t seed, int64_t now_ns);
void hs_throttle_destroy(hs_throttle *t);

struct hs_survival;

/* Lets the cap raise and lower the JVM's interval (interval_control.h). start: the interval
 * the JVM samples at now; given: the user chose it (interval=), so it is also the lowest;
 * survival: the survival factors, whose selectivity sets how many offers the control aims
 * at per kept sample (NULL: none, the plain band). Call before the first offer. */
void hs_throttle_control_interval(hs_throttle *t, int64_t start, bool given,
                                  const struct hs_survival *survival,
                                  hs_throttle_interval_hook hook, void *ctx);

/* The operator set the interval (`start,interval=`): it is the lowest from now on. Call
 * while sampling is off (it waits for a check in progress). */
void hs_throttle_interval_reset(hs_throttle *t, int64_t interval);

/* Hot path: one offered sample. True to keep it, with its weight (HS_WEIGHT_ONE = one
 * JVM sample) in *weight_fp; false to drop it. */
bool hs_throttle_offer(hs_throttle *t, hs_throttle_thread *thread, int64_t now_ns,
                       uint64_t *weight_fp);

/* The same for an offer of factor `factor` (>= 1; survival.h sets it): it is a candidate
 * with probability 1 - (1 - p)^factor instead of p and weighs the inverse of that; p is
 * set against the offers' factors summed, so the kept rate stays the cap's whatever the
 * factors (each is kept with at most factor x p). */
bool hs_throttle_offer_factor(hs_throttle *t, hs_throttle_thread *thread, int64_t now_ns,
                              double factor, uint64_t *weight_fp);

/* The probability an offer of factor `factor` is kept with at p: 1 - (1 - p)^factor. */
double hs_throttle_probability(double p, double factor);

/* The probability the thread's last offer was decided with (for tests and stats). */
static inline double hs_throttle_decided(const hs_throttle_thread *th) {
    return hs_throttle_probability(th->p, th->factor);
}

/* Samples offered over the weights handed out so far, for a dump to multiply every estimate
 * by: the weights then add up to the population offered exactly. The ratio's expectation
 * is about 1 (the weights are unbiased); what it removes is their noise in the totals and
 * the weight of refused candidates. 1 for NULL or nothing kept yet. */
double hs_throttle_dump_scale(hs_throttle *t);

/* Changes the rate from the next check on (rate > 0). */
void hs_throttle_set_rate(hs_throttle *t, int64_t rate, int64_t period_ns);

/* Counters so far (any thread, lock-free; values individually current). */
void hs_throttle_stats_read(hs_throttle *t, int64_t now_ns, hs_throttle_stats *out);

/* Writes the rate-cap status as text lines, each ending in '\n' ("rate cap: off" for
 * t == NULL): rate, the probability now and its lowest, the bucket, samples offered and
 * kept, effective rate, steps, candidates refused, the JVM's interval, its changes, and
 * what the interval is and why. For the profile comments and the control command `status`. Returns the length needed
 * (like snprintf). */
size_t hs_throttle_format_status(hs_throttle *t, int64_t now_ns, char *buf, size_t len);

/* The same lines, each without its '\n', passed one by one to emit (for the profile's
 * comments and log lines). */
void hs_throttle_status_lines(hs_throttle *t, int64_t now_ns,
                              void (*emit)(void *ctx, const char *line), void *ctx);

/* The clock the agent drives the throttle with, read once per offered sample: the coarse
 * monotonic clock (a few ms of resolution, plenty for 20 ms checks) costs ~20 ns here
 * where CLOCK_MONOTONIC cost 65-80 ns. */
static inline int64_t hs_throttle_clock_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Tests only: holds (true) or releases (false) the checker's lock, as an application
 * thread descheduled in the middle of a check would. */
void hs_throttle_test_hold_checker(struct hs_throttle *throttle, bool hold);

#endif
