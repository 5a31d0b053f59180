/* interval_control.c: raising and lowering the JVM's sampling interval under the rate cap
 * (see interval_control.h for the rule, its bounds and its hysteresis). Pure: no JVM, no
 * clock. */
#include "sampling/interval_control.h"

#include <math.h>
#include <stdio.h>

/* f = the rate / the offers per second. Where the survival factors favour what survives,
 * the JVM offers about twice what is kept: the factors choose among the offers. Where they
 * do not, the offers beyond those kept buy nothing: about 1.25 times what is kept, enough
 * that the cap still keeps the rate when the offers dip. */
typedef struct {
    double raise_below; /* f under this: too many offers per kept sample */
    double lower_above; /* f over this: too few (over 1: fewer than the rate) */
    double aim;         /* f after a change */
} band;

static const band SELECTIVE = {0.25, 0.71, 0.5};
static const band PLAIN = {0.5, 1.0, 0.8};

static const band *band_of(const hs_interval_control *c) {
    return c->selective ? &SELECTIVE : &PLAIN;
}

void hs_interval_control_init(hs_interval_control *c, int64_t start, bool given) {
    int64_t lowest = given || start < HS_INTERVAL_LOWEST ? start : HS_INTERVAL_LOWEST;
    *c = (hs_interval_control){.start = start, .lowest = lowest, .explicit_lowest = given,
                               .current = start, .selectivity = 1};
}

int64_t hs_interval_control_highest(const hs_interval_control *c) {
    int64_t from = c->start > c->lowest ? c->start : c->lowest;
    int64_t by_factor = from > HS_INTERVAL_LIMIT / HS_INTERVAL_MAX_FACTOR
                            ? HS_INTERVAL_LIMIT
                            : from * HS_INTERVAL_MAX_FACTOR;
    return by_factor > from ? by_factor : from;
}

/* An interval times 2^(steps / HS_INTERVAL_STEPS), in whole KiB from 16 KiB up. */
static int64_t scaled(int64_t interval, int steps) {
    double v = (double)interval * exp2((double)steps / HS_INTERVAL_STEPS);
    if (v >= (double)HS_INTERVAL_LIMIT) return HS_INTERVAL_LIMIT;
    int64_t unit = v >= 16384 ? 1024 : 1;
    return (int64_t)llround(v / (double)unit) * unit;
}

/* The interval that brings f to the aim, in steps of 2^(1/HS_INTERVAL_STEPS) (rounded in
 * log scale), within the bounds; notes whether a bound stopped it short. */
static int64_t aimed(hs_interval_control *c, double f) {
    int steps = (int)lround(HS_INTERVAL_STEPS * log2(band_of(c)->aim / f));
    if (steps == 0) return c->current;
    int64_t next = scaled(c->current, steps), highest = hs_interval_control_highest(c);
    c->decided_at_bound = next > highest || next < c->lowest;
    return next > highest ? highest : next < c->lowest ? c->lowest : next;
}

static void note_period(hs_interval_control *c, double offers, double rate) {
    c->offers_seen = offers;
    c->rate_seen = rate;
}

/* Which band: selective from HS_INTERVAL_SELECTIVE_ON, plain again under
 * HS_INTERVAL_SELECTIVE_OFF (the gap keeps a selectivity near one threshold from
 * switching at every publication). */
static void note_selectivity(hs_interval_control *c, double selectivity) {
    c->selectivity = selectivity;
    if (selectivity >= HS_INTERVAL_SELECTIVE_ON) c->selective = true;
    else if (selectivity < HS_INTERVAL_SELECTIVE_OFF) c->selective = false;
}

int64_t hs_interval_control_decide(hs_interval_control *c, double offered_per_second,
                                   double rate_per_second, double selectivity) {
    c->surged = false; /* a period has passed since: the hold applies again */
    c->ramp = 0;
    if (c->skip > 0) {
        c->skip--;
        return c->current;
    }
    bool reaim = c->reaim;
    c->reaim = false; /* this whole period is the one the surge's change is judged on */
    if (rate_per_second <= 0) return c->current;
    note_period(c, offered_per_second, rate_per_second);
    note_selectivity(c, selectivity);
    const band *b = band_of(c);
    double f = offered_per_second > 0 ? rate_per_second / offered_per_second : INFINITY;
    /* After a surge's raise: its windows were 100 ms of a program still speeding up (code
     * being compiled, caches filling), so the first whole period at the new interval says
     * where f really stands; a step or more under the aim, inside the band or not, the
     * interval is raised to the aim at once (AllocMix on JDK 17: raised on a ramping window
     * to f = 0.55, inside the band, where it stayed, offering 1.8 times what was kept).
     * Not lowered: over the aim, the band's own rule decides, as the offers beyond the
     * aim's would cost callbacks (in the plain band) for nothing. */
    if (reaim && f < b->aim) {
        c->streak = 0;
        int64_t next = aimed(c, f);
        c->decided_reaim = next != c->current;
        return next;
    }
    if (f < b->raise_below)
        c->streak = c->streak > 0 ? c->streak + 1 : 1;
    else if (f > b->lower_above && c->current > c->lowest)
        c->streak = c->streak < 0 ? c->streak - 1 : -1;
    else
        c->streak = 0;
    if (c->streak < HS_INTERVAL_HOLD && c->streak > -HS_INTERVAL_HOLD) return c->current;
    if (isinf(f)) { /* no offers at all: down to the lowest */
        c->decided_at_bound = true;
        return c->lowest;
    }
    return aimed(c, f);
}

/* After a surge's raise, until the next period's decision: is the surge still ramping up
 * (the offers over the band for HS_INTERVAL_RAMP_WINDOWS windows running)? */
static bool still_ramping(hs_interval_control *c, double f) {
    c->ramp = f < band_of(c)->raise_below ? c->ramp + 1 : 0;
    return c->ramp >= HS_INTERVAL_RAMP_WINDOWS;
}

int64_t hs_interval_control_surge(hs_interval_control *c, double offered_per_second,
                                  double rate_per_second, double selectivity) {
    if (rate_per_second <= 0) return c->current;
    note_selectivity(c, selectivity);
    double f = offered_per_second > 0 ? rate_per_second / offered_per_second : INFINITY;
    if (c->surged ? !still_ramping(c, f)
                  /* not in the period after another change: the offers may still come at
                   * the old interval */
                  : c->skip > 0 || f * HS_INTERVAL_SURGE > 1)
        return c->current;
    note_period(c, offered_per_second, rate_per_second);
    c->ramp = 0;
    int64_t next = aimed(c, f);
    c->decided_surge = next != c->current;
    return next;
}

void hs_interval_control_applied(hs_interval_control *c, int64_t interval) {
    if (interval != c->current) {
        c->changes++;
        if (interval > c->current) c->raised++;
        c->last_move = interval > c->current ? HS_INTERVAL_RAISED : HS_INTERVAL_LOWERED;
        c->last_from = c->current;
        c->last_offers = c->offers_seen;
        c->last_rate = c->rate_seen;
        c->last_at_bound = c->decided_at_bound;
        c->last_selective = c->selective;
        c->last_reaim = c->decided_reaim;
    }
    c->surged = c->decided_surge && interval > c->current;
    c->reaim = c->surged;
    c->decided_reaim = false;
    c->decided_surge = false;
    c->current = interval;
    c->streak = 0;
    c->skip = 1; /* the period under way mixes the two intervals */
}

/* Not counted as a change: the counts are the control's own. */
void hs_interval_control_set_by_user(hs_interval_control *c, int64_t interval) {
    c->start = c->lowest = c->current = interval;
    c->explicit_lowest = true;
    c->reaim = false;
    c->last_move = HS_INTERVAL_KEPT; /* nothing to explain: the operator chose it */
    c->streak = 0;
    c->skip = 1;
}

void hs_interval_format(int64_t interval, char *buf, size_t len) {
    static const char *const units[] = {"KiB", "MiB", "GiB"};
    int u = -1;
    int64_t v = interval;
    while (v > 0 && v % 1024 == 0 && u < 2) {
        v /= 1024;
        u++;
    }
    if (u < 0) snprintf(buf, len, "%lld B", (long long)interval);
    else snprintf(buf, len, "%lld %s", (long long)v, units[u]);
}

/* "the default 512 KiB", "the configured 64 KiB" or "2 MiB": where a change came from. */
static void describe_from(const hs_interval_control *c, int64_t from, char *buf, size_t len) {
    char size[32];
    hs_interval_format(from, size, sizeof size);
    if (from != c->start) snprintf(buf, len, "%s", size);
    else snprintf(buf, len, "the %s %s", c->explicit_lowest ? "configured" : "default", size);
}

/* Where offers per second stood against the rate, for the band they were judged in. */
static void against_rate(double offers, double rate, bool selective, char *buf, size_t len) {
    const band *b = selective ? &SELECTIVE : &PLAIN;
    if (offers < rate) snprintf(buf, len, "under rate %.0f/s", rate);
    else if (offers > HS_INTERVAL_SURGE * rate) snprintf(buf, len, "over 8 x rate %.0f/s", rate);
    else if (rate < b->raise_below * offers)
        snprintf(buf, len, "over %.0f x rate %.0f/s", 1 / b->raise_below, rate);
    else if (rate > b->lower_above * offers)
        snprintf(buf, len, "under %.1f x rate %.0f/s: too few for the survival factors to "
                           "choose among", 1 / b->lower_above, rate);
    else snprintf(buf, len, "%.2f x rate %.0f/s", offers / rate, rate);
}

/* "lowered from the default 512 KiB: offers 400/s under rate 1000/s" and the like. */
static int explain_value(const hs_interval_control *c, char *buf, size_t len) {
    char from[64], against[128];
    if (c->last_move == HS_INTERVAL_KEPT) {
        describe_from(c, c->current, from, sizeof from);
        if (c->rate_seen <= 0) return snprintf(buf, len, "%s, unchanged so far", from);
        bool stuck = c->current == c->lowest && c->offers_seen < c->rate_seen;
        against_rate(c->offers_seen, c->rate_seen, c->selective, against, sizeof against);
        return snprintf(buf, len, "%s, unchanged: offers %.0f/s %s%s", from, c->offers_seen,
                        against, stuck ? "; the lowest" : "");
    }
    describe_from(c, c->last_from, from, sizeof from);
    against_rate(c->last_offers, c->last_rate, c->last_selective, against, sizeof against);
    return snprintf(buf, len, "%s from %s: offers %.0f/s %s%s%s",
                    c->last_move == HS_INTERVAL_RAISED ? "raised" : "lowered", from,
                    c->last_offers, against,
                    c->last_reaim ? ", re-aimed on the first whole second after a surge" : "",
                    !c->last_at_bound ? ""
                    : c->last_move == HS_INTERVAL_RAISED ? "; the highest" : "; the lowest");
}

size_t hs_interval_control_explain(const hs_interval_control *c, char *buf, size_t len) {
    char now[32], lowest[32], highest[32], value[320];
    hs_interval_format(c->current, now, sizeof now);
    hs_interval_format(c->lowest, lowest, sizeof lowest);
    hs_interval_format(hs_interval_control_highest(c), highest, sizeof highest);
    explain_value(c, value, sizeof value);
    int n = snprintf(buf, len,
                     "interval %s (%s); it follows the budget between %s (%s) and %s, aiming "
                     "at offers %s what is kept (survival factors favour survivors %.2f "
                     "times%s)",
                     now, value, lowest,
                     c->explicit_lowest ? "the lowest: interval= was given"
                                        : "the lowest without interval=",
                     highest, c->selective ? "about twice" : "about 1.25 times",
                     c->selectivity, c->selective ? "" : ": nothing to choose among more");
    return n > 0 ? (size_t)n : 0;
}
