/* interval_control.h: when the rate cap keeps only a small fraction of what the JVM offers,
 * the JVM's own sampling interval is raised so that it offers about what the cap keeps (each
 * offer costs the JVM a callback even when the cap drops it); it is lowered again, never
 * below the configured interval, when the offers drop. This module only decides; the rate
 * cap (throttle.c) feeds it one control period's figures at a time and applies what it
 * returns through the agent's SetHeapSamplingInterval.
 *
 * The decision, per control period (1 s): f = the cap's rate / the offers per second, the
 * fraction of the offers the cap can keep in the long run.
 * - f < 1/4 in HS_INTERVAL_HOLD consecutive periods: raise the interval by the power of two
 *   that brings f nearest 1/2 (the offers then are about twice what is kept);
 * - f > 1 (fewer offers than the cap allows: every one is kept) in HS_INTERVAL_HOLD
 *   consecutive periods, above the configured interval: lower it the same way, to f near
 *   1/2, but not below the configured interval.
 * Hysteresis: after a change f lands within a factor sqrt(2) of 1/2 (0.35-0.71), well
 * inside the band [1/4, 1] where nothing changes; and the first period after a change
 * (threads still finish the sample gaps they drew at the old interval) is never counted, so
 * a change needs HOLD more whole periods at the new interval before the next one.
 *
 * Estimates stay unbiased through the changes: a sample the JVM took at interval I is
 * weighted unbias(size, I) / unbias(size, I0) (estimate.h), as after `start,interval=`. */
#ifndef HS_INTERVAL_CONTROL_H
#define HS_INTERVAL_CONTROL_H

#include <stdint.h>

#define HS_INTERVAL_HOLD 2           /* periods a condition must last before a change */
#define HS_INTERVAL_MAX_FACTOR 1024  /* never above the configured interval times this */
#define HS_INTERVAL_LIMIT (INT64_C(1) << 30) /* nor above this (SetHeapSamplingInterval takes a jint) */

typedef struct {
    int64_t floor;    /* the configured interval: never below it */
    int64_t current;  /* the interval the JVM samples at */
    int streak;       /* consecutive periods below 1/4 (> 0) or above 1 (< 0) */
    int skip;         /* periods still to ignore (the one a change came in) */
    uint64_t changes; /* intervals applied */
    uint64_t raised;  /* of which raises */
} hs_interval_control;

/* Starts at (and never goes below) the configured interval. */
void hs_interval_control_init(hs_interval_control *c, int64_t configured);

/* One control period: offered samples per second at c->current, and the cap's rate per
 * second. Returns the interval to set (c->current when nothing changes); the caller sets
 * it and calls hs_interval_control_applied if the JVM took it. */
int64_t hs_interval_control_decide(hs_interval_control *c, double offered_per_second,
                                   double rate_per_second);

/* The JVM now samples at `interval` (decided above, or set by the operator's `start,
 * interval=`, which also makes it the floor: pass floor = interval then, else c->floor). */
void hs_interval_control_applied(hs_interval_control *c, int64_t interval, int64_t floor);

#endif
