/* interval_control.h: the JVM's sampling interval follows the rate cap's budget both ways.
 * When the cap keeps only a small fraction of what the JVM offers, the interval is raised so
 * that it offers 1.25 to 2 times what the cap keeps (each offer costs the JVM a callback
 * even when the cap drops it); when the JVM offers fewer samples than the cap's rate, the
 * interval is lowered so that the budget is spent (a program allocating 20 MB/s keeps
 * about the rate, as one allocating 8 GB/s does). This module only decides; the rate cap
 * (throttle.c) feeds it one control period's figures at a time and applies what it returns
 * through the agent's SetHeapSamplingInterval.
 *
 * Bounds: the interval moves between `lowest` and `highest`. The lowest is interval= when
 * the user gave it (an explicit interval is honoured as the least), else
 * HS_INTERVAL_LOWEST (or the starting interval, if smaller); the highest is the starting
 * interval times HS_INTERVAL_MAX_FACTOR, at most HS_INTERVAL_LIMIT.
 *
 * Why HS_INTERVAL_LOWEST is 16 KiB: every offer costs the allocating thread about a
 * microsecond whether it is kept or not (the JVM posting the event, 0.8 us on AllocMix, and
 * the cap's decision), and below a thread's TLAB size every sample also cuts its TLAB short
 * (one more slow-path allocation). In the steady state the control keeps the offers at 1.25
 * to 2 times the rate, whatever the interval; the bound is for the moment a program that was
 * quiet (lowered) starts allocating at full speed, before the control raises the interval
 * again: at 16 KiB a surge of 1 GB/s offers ~65,000 samples a second, ~6 % of a core,
 * for 100-200 ms (the surge rule below), about what allocating and zeroing the bytes
 * costs the program itself. And at 16 KiB a program allocating 16 MB/s already offers the
 * default rate of 1,000 a second: below that, the budget is not what limits precision.
 *
 * The decision, per control period (1 s): f = the cap's rate / the offers per second, the
 * fraction of the offers the cap can keep in the long run, against a band that depends on
 * whether the survival factors (survival.h) favour what survives:
 * - selective (hs_survival_selectivity at least HS_INTERVAL_SELECTIVE_ON, until it falls
 *   under HS_INTERVAL_SELECTIVE_OFF): band [1/4, 0.71], aim 1/2: the JVM offers about
 *   twice what is kept, and the factors choose the survivors among them;
 * - plain (the factors favour nothing, or are off: survival=false, live=false): band
 *   [1/2, 1], aim 0.8: the JVM offers about 1.25 times what is kept, since the offers
 *   beyond those kept would buy nothing but still cost the JVM a callback each;
 * - f under the band in HS_INTERVAL_HOLD consecutive periods: raise the interval by the
 *   steps of 2^(1/HS_INTERVAL_STEPS) that bring f nearest the aim;
 * - f over the band (over 1: fewer offers than the cap allows: every one is kept, part of
 *   the budget unspent) in HS_INTERVAL_HOLD consecutive periods, above the lowest interval:
 *   lower it the same way;
 * - a surge: f < 1/HS_INTERVAL_SURGE over any HS_INTERVAL_SURGE_MS window raises at once,
 *   without the hold (hs_interval_control_surge), unless the period follows a change; and
 *   until the next period's decision after such a raise, f under the band over
 *   HS_INTERVAL_RAMP_WINDOWS windows running raises again (a program's allocation ramps up
 *   as its code is compiled: the first window over 8 x is not yet its full speed);
 * - after a surge's raise, the first whole period at the new interval (after the one the
 *   change came in) raises it again without the hold when f is a step or more under the
 *   aim, inside the band or not: the windows the surge was judged on were of a program
 *   still speeding up, and a band as wide as [1/2, 1] would otherwise keep the extra
 *   offers they landed on (over the aim, the band's rule alone decides).
 * Hysteresis: after a change f lands within a factor 2^(1/8) (9 %) of the aim, inside the
 * band with a margin of 26 % or more to its edges (a program whose offers swing by more
 * settles at the low side of the band after one more change); and the first period after
 * a change (threads still finish the sample gaps they drew at the old interval) is never
 * counted, so a change needs HOLD more whole periods at the new interval before the next
 * one. Intervals are whole KiB from 16 KiB up.
 *
 * Estimates stay unbiased through the changes: a sample the JVM took at interval I is
 * weighted unbias(size, I) / unbias(size, I0) (estimate.h; below 1 when I < I0), with I
 * the interval its thread drew its sample gap at (sampler.c). */
#ifndef HS_INTERVAL_CONTROL_H
#define HS_INTERVAL_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_INTERVAL_HOLD 2           /* periods a condition must last before a change */
#define HS_INTERVAL_MAX_FACTOR 1024  /* never above the starting interval times this */
#define HS_INTERVAL_LIMIT (INT64_C(1) << 30) /* nor above this (SetHeapSamplingInterval takes a jint) */
#define HS_INTERVAL_LOWEST (INT64_C(16) << 10) /* the lowest without interval= (see above) */
#define HS_INTERVAL_SURGE 8          /* offers over 8 x the rate: raise at once */
#define HS_INTERVAL_STEPS 4          /* steps per doubling */
#define HS_INTERVAL_SELECTIVE_ON 1.5 /* survival factors favour survivors this much: ... */
#define HS_INTERVAL_SELECTIVE_OFF 1.25 /* ... selective band until under this */
#define HS_INTERVAL_SURGE_MS 100     /* ... judged on windows this long */
#define HS_INTERVAL_RAMP_WINDOWS 3   /* windows over the band after a surge: raise again */

/* Why the interval is what it is: the last change, or none yet. */
typedef enum { HS_INTERVAL_KEPT = 0, HS_INTERVAL_RAISED, HS_INTERVAL_LOWERED } hs_interval_move;

typedef struct {
    int64_t start;    /* the interval at startup (interval=, or its default) */
    int64_t lowest;   /* never below this */
    bool explicit_lowest; /* lowest is an interval the user gave (interval=, start,interval=) */
    int64_t current;  /* the interval the JVM samples at */
    int streak;       /* consecutive periods below the band (> 0) or above it (< 0) */
    bool selective;   /* the selective band (the survival factors favour survivors) */
    double selectivity; /* the survival factors' selectivity, last period */
    int skip;         /* periods still to ignore (the one a change came in) */
    bool surged;      /* the last change was a surge's raise, and no period decided since */
    bool decided_surge; /* the change just decided is a surge's */
    int ramp;         /* windows over the band since (surged) */
    bool reaim;       /* a surge's raise: the first whole period after it re-aims */
    bool decided_reaim; /* the change just decided is that re-aim */
    uint64_t changes; /* intervals applied */
    uint64_t raised;  /* of which raises */
    /* the last period decided, and the last change: what `status` says why from */
    double offers_seen, rate_seen;       /* offers and rate per second, last period */
    hs_interval_move last_move;
    int64_t last_from;                   /* the interval the last change left */
    double last_offers, last_rate;       /* the figures it was decided on */
    bool decided_at_bound;               /* the decision stopped short at a bound ... */
    bool last_at_bound;                  /* ... and the last change applied did */
    bool last_selective;                 /* the band the last change was decided in */
    bool last_reaim;                     /* the last change re-aimed after a surge */
} hs_interval_control;

/* Starts at `start`; `given`: the user gave it (interval=), so it is also the lowest; else
 * the lowest is HS_INTERVAL_LOWEST (or start, if smaller). */
void hs_interval_control_init(hs_interval_control *c, int64_t start, bool given);

/* The highest interval the control may set. */
int64_t hs_interval_control_highest(const hs_interval_control *c);

/* One control period: offered samples per second at c->current, the cap's rate per
 * second, and the survival factors' selectivity (hs_survival_selectivity; 1 without
 * them). Returns the interval to set (c->current when nothing changes); the caller sets
 * it and calls hs_interval_control_applied if the JVM took it. */
int64_t hs_interval_control_decide(hs_interval_control *c, double offered_per_second,
                                   double rate_per_second, double selectivity);

/* A window of HS_INTERVAL_SURGE_MS (or a little more) inside a period, with the same figures
 * as hs_interval_control_decide: returns a raised interval when its offers exceed
 * HS_INTERVAL_SURGE times the rate, else c->current. No hold: the cost of a surge at a low
 * interval is paid per offer. */
int64_t hs_interval_control_surge(hs_interval_control *c, double offered_per_second,
                                  double rate_per_second, double selectivity);

/* The JVM now samples at `interval`, as decided above. */
void hs_interval_control_applied(hs_interval_control *c, int64_t interval);

/* The operator's `start,interval=`: the JVM samples at `interval`, which is the lowest (and
 * the start the highest is counted from) from now on. */
void hs_interval_control_set_by_user(hs_interval_control *c, int64_t interval);

/* "64 KiB", "512 KiB", "1 MiB"; bytes when not a whole number of KiB ("1000 B"). */
void hs_interval_format(int64_t interval, char *buf, size_t len);

/* One line, without '\n', saying what the interval is and why: the last change (from what,
 * on what offers and rate) or none, and its bounds. Returns the length needed (snprintf). */
size_t hs_interval_control_explain(const hs_interval_control *c, char *buf, size_t len);

#endif
