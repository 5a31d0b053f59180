/* interval_control.c: raising and lowering the JVM's sampling interval under the rate cap
 * (see interval_control.h for the rule and its hysteresis). Pure: no JVM, no clock. */
#include "sampling/interval_control.h"

#include <math.h>

#define RAISE_BELOW 0.25 /* f under this: the JVM offers more than 4 x what is kept */
#define LOWER_ABOVE 1.0  /* f over this: fewer offers than the cap allows */
#define AIM 0.5          /* f after a change */

void hs_interval_control_init(hs_interval_control *c, int64_t configured) {
    *c = (hs_interval_control){.floor = configured, .current = configured};
}

static int64_t ceiling(const hs_interval_control *c) {
    int64_t by_factor = c->floor > HS_INTERVAL_LIMIT / HS_INTERVAL_MAX_FACTOR
                            ? HS_INTERVAL_LIMIT
                            : c->floor * HS_INTERVAL_MAX_FACTOR;
    return by_factor > c->floor ? by_factor : c->floor;
}

/* The interval that brings f to AIM, by a power of two (rounded in log scale), within the
 * floor and the ceiling. */
static int64_t aimed(const hs_interval_control *c, double f) {
    int shift = (int)lround(log2(AIM / f)); /* > 0: raise; < 0: lower */
    int64_t next = c->current;
    for (; shift > 0 && next <= ceiling(c) / 2; shift--) next *= 2;
    for (; shift < 0 && next / 2 >= c->floor; shift++) next /= 2;
    return next;
}

int64_t hs_interval_control_decide(hs_interval_control *c, double offered_per_second,
                                   double rate_per_second) {
    if (c->skip > 0) {
        c->skip--;
        return c->current;
    }
    if (rate_per_second <= 0) return c->current;
    double f = offered_per_second > 0 ? rate_per_second / offered_per_second : INFINITY;
    if (f < RAISE_BELOW)
        c->streak = c->streak > 0 ? c->streak + 1 : 1;
    else if (f > LOWER_ABOVE && c->current > c->floor)
        c->streak = c->streak < 0 ? c->streak - 1 : -1;
    else
        c->streak = 0;
    if (c->streak < HS_INTERVAL_HOLD && c->streak > -HS_INTERVAL_HOLD) return c->current;
    /* no offers at all: down to the floor */
    return isinf(f) ? c->floor : aimed(c, f);
}

void hs_interval_control_applied(hs_interval_control *c, int64_t interval, int64_t floor) {
    if (interval != c->current) {
        c->changes++;
        if (interval > c->current) c->raised++;
    }
    c->current = interval;
    c->floor = floor;
    c->streak = 0;
    c->skip = 1; /* the period under way mixes the two intervals */
}
