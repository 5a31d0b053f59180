/* test_interval_control.c: the decisions on the JVM's interval (interval_control.c) on
 * synthetic offer rates: when it raises, by how much, when it lowers (below the starting
 * interval when interval= was not given, never below it when it was), its bounds, the
 * surge rule, that it does not flap, and what it says about why. */
#include <string.h>

#include "sampling/interval_control.h"
#include "unit.h"

#define BASE 524288
#define RATE 1000.0
#define SELECTIVE 4.0 /* survival factors that favour survivors (LeakDetect: 3.8) */
#define PLAIN 1.0     /* factors that favour nothing, or none (AllocMix: 1.07) */

/* f after a change lands within 2^(1/8) of the band's aim (steps of 2^(1/4)). */
#define NEAR(f, aim) ((f) > (aim) * 0.917 && (f) < (aim) * 1.091)

/* The selectivity the periods below report. */
static double selectivity = PLAIN;

/* One period offering `bytes_per_second / interval` samples (small objects: the offers are
 * in inverse proportion to the interval); applies what is decided. Returns the interval. */
static int64_t period(hs_interval_control *c, double bytes_per_second) {
    int64_t next = hs_interval_control_decide(c, bytes_per_second / (double)c->current, RATE,
                                              selectivity);
    if (next != c->current) hs_interval_control_applied(c, next);
    return c->current;
}

/* The same for a program offering `offers` a second at BASE. */
static int64_t period_at_base(hs_interval_control *c, double offers) {
    return period(c, offers * BASE);
}

/* f for a program offering `offers` a second at BASE, at the interval now. */
static double f_now(const hs_interval_control *c, double offers) {
    return RATE / (offers * BASE / (double)c->current);
}

/* AllocMix offers 17,000 a second at 512k (f = 0.059): raised once, after the hold (the surge
 * rule is the throttle's, tested there), so that the JVM offers about twice what is kept
 * when the factors favour survivors, about 1.25 times when they do not. */
static void test_raises_after_the_hold(void) {
    double sel[] = {SELECTIVE, PLAIN}, aim[] = {0.5, 0.8};
    for (int k = 0; k < 2; k++)
        for (int given = 0; given <= 1; given++) {
            selectivity = sel[k];
            hs_interval_control c;
            hs_interval_control_init(&c, BASE, given);
            CU_ASSERT_EQUAL(period_at_base(&c, 17000), BASE); /* one period is not enough */
            CU_ASSERT(period_at_base(&c, 17000) > BASE);
            CU_ASSERT_EQUAL(c.changes, 1);
            CU_ASSERT_EQUAL(c.raised, 1);
            CU_ASSERT(NEAR(f_now(&c, 17000), aim[k]));
            CU_ASSERT_EQUAL(c.current % 1024, 0);
            int64_t settled = c.current;
            for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(period_at_base(&c, 17000), settled);
            CU_ASSERT_EQUAL(c.changes, 1);
        }
    selectivity = SELECTIVE; /* x8 exactly: 4 x log2(0.5 / 0.059) = 12.35 -> 12 steps */
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 2; i++) period_at_base(&c, 17000);
    CU_ASSERT_EQUAL(c.current, 8 * BASE);
}

/* Nothing changes while f is inside the band; nothing is lowered at the lowest (given). */
static void test_no_change_inside_the_band(void) {
    double selective[] = {3800, 2000, 1450}, plain[] = {1990, 1500, 1010};
    for (int given = 0; given <= 1; given++) {
        hs_interval_control c;
        selectivity = SELECTIVE;
        hs_interval_control_init(&c, BASE, given);
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(period_at_base(&c, selective[k]), BASE);
        CU_ASSERT_EQUAL(c.changes, 0);
        selectivity = PLAIN;
        hs_interval_control_init(&c, BASE, given);
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(period_at_base(&c, plain[k]), BASE);
        CU_ASSERT_EQUAL(c.changes, 0);
    }
    double fewer[] = {1000, 900, 100, 0}; /* f over the band: at the lowest, nothing to do */
    double sel[] = {SELECTIVE, PLAIN};
    for (int j = 0; j < 2; j++) {
        selectivity = sel[j];
        hs_interval_control c;
        hs_interval_control_init(&c, BASE, true);
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(period_at_base(&c, fewer[k]), BASE);
        CU_ASSERT_EQUAL(c.changes, 0);
    }
}

static void test_a_short_spike_changes_nothing(void) {
    double sel[] = {SELECTIVE, PLAIN};
    for (int k = 0; k < 2; k++)
        for (int given = 0; given <= 1; given++) {
            selectivity = sel[k];
            hs_interval_control c;
            hs_interval_control_init(&c, BASE, given);
            for (int i = 0; i < 10; i++) {
                CU_ASSERT_EQUAL(period_at_base(&c, 20000), BASE); /* one period of f = 0.05 */
                CU_ASSERT_EQUAL(period_at_base(&c, 1500), BASE);
                CU_ASSERT_EQUAL(period_at_base(&c, 400), BASE);   /* one period of f = 2.5 */
                CU_ASSERT_EQUAL(period_at_base(&c, 1500), BASE);
            }
            CU_ASSERT_EQUAL(c.changes, 0);
        }
}

static void test_lowers_when_the_offers_drop_never_below_the_floor(void) {
    selectivity = SELECTIVE;
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, true);
    for (int i = 0; i < 4; i++) period_at_base(&c, 40000);
    CU_ASSERT(NEAR(f_now(&c, 40000), 0.5));
    CU_ASSERT_EQUAL(c.changes, 1);
    /* the load drops 10 times: f = 5 */
    int64_t raised = c.current;
    CU_ASSERT_EQUAL(period_at_base(&c, 4000), raised);
    CU_ASSERT(period_at_base(&c, 4000) < raised);
    CU_ASSERT(NEAR(f_now(&c, 4000), 0.5));
    CU_ASSERT_EQUAL(c.changes, 2);
    /* the program goes quiet: back to the configured interval, never below */
    for (int i = 0; i < 10; i++) period_at_base(&c, 10);
    CU_ASSERT_EQUAL(c.current, BASE);
    for (int i = 0; i < 10; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, BASE);
    CU_ASSERT_EQUAL(c.changes, 3);
    CU_ASSERT_EQUAL(c.raised, 1);
}

/* The service: 200 MB/s at the default 512k offers ~408 a second, under the rate:
 * lowered after the hold, to about 1.25 times the rate before the factors have learned
 * anything (plain), about twice once they favour survivors; and it stays there. */
static void test_default_lowers_below_the_start(void) {
    double sel[] = {PLAIN, SELECTIVE}, aim[] = {0.8, 0.5};
    for (int k = 0; k < 2; k++) {
        selectivity = sel[k];
        hs_interval_control c;
        hs_interval_control_init(&c, BASE, false);
        CU_ASSERT_EQUAL(c.lowest, HS_INTERVAL_LOWEST);
        CU_ASSERT_EQUAL(period_at_base(&c, 408), BASE);
        CU_ASSERT(period_at_base(&c, 408) < BASE);
        CU_ASSERT_EQUAL(c.changes, 1);
        CU_ASSERT_EQUAL(c.raised, 0);
        CU_ASSERT(NEAR(f_now(&c, 408), aim[k]));
        int64_t settled = c.current;
        for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(period_at_base(&c, 408), settled);
        CU_ASSERT_EQUAL(c.changes, 1);
        /* 100 a second (50 MB/s): lowered further, to 38 KiB (plain) or 24 KiB */
        hs_interval_control_init(&c, BASE, false);
        for (int i = 0; i < 2; i++) period_at_base(&c, 100);
        CU_ASSERT(NEAR(f_now(&c, 100), aim[k]));
    }
    selectivity = PLAIN; /* exactly: 4 x log2(0.8 / 2.45) = -6.46 -> -6 steps, 181 KiB */
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 2; i++) period_at_base(&c, 408);
    CU_ASSERT_EQUAL(c.current, 181 * 1024);
}

/* Lowered no further than the lowest (16 KiB), however few the offers; with none at all,
 * straight to it. */
static void test_default_stops_at_the_lowest(void) {
    selectivity = PLAIN;
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 20; i++) period_at_base(&c, 5); /* 2.5 MB/s */
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LOWEST);
    CU_ASSERT_EQUAL(c.changes, 1);
    CU_ASSERT_TRUE(c.last_at_bound);
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 2; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LOWEST);
    for (int i = 0; i < 10; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.changes, 1);
    /* a start below the default lowest (not given: only a test does this) is the lowest */
    hs_interval_control_init(&c, 4096, false);
    CU_ASSERT_EQUAL(c.lowest, 4096);
    for (int i = 0; i < 10; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, 4096);
}

/* Both ways at the defaults: a load that rises, falls and rises again lands f at the aim
 * after each change, and stays. */
static void test_default_follows_the_budget_both_ways(void) {
    double sel[] = {SELECTIVE, PLAIN}, aim[] = {0.5, 0.8};
    for (int j = 0; j < 2; j++) {
        selectivity = sel[j];
        hs_interval_control c;
        hs_interval_control_init(&c, BASE, false);
        double loads[] = {17000, 408, 17000, 100, 60}; /* offers a second at 512k */
        for (int k = 0; k < 5; k++) {
            uint64_t before = c.changes;
            for (int i = 0; i < 6; i++) period_at_base(&c, loads[k]);
            CU_ASSERT_EQUAL(c.changes, before + 1);
            CU_ASSERT(NEAR(f_now(&c, loads[k]), aim[j]));
        }
        CU_ASSERT_EQUAL(c.raised, 2);
    }
}

/* When the survival factors start to favour survivors, the offers go from about 1.25 to
 * about 2 times the rate (one change, after the hold), and back when they stop; in between
 * (a selectivity between the two thresholds) nothing changes. */
static void test_the_band_follows_the_survival_factors(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    selectivity = PLAIN;
    for (int i = 0; i < 6; i++) period_at_base(&c, 17000);
    CU_ASSERT(NEAR(f_now(&c, 17000), 0.8));
    CU_ASSERT_FALSE(c.selective);
    selectivity = 3.0; /* the factors learn: survivors are favoured */
    for (int i = 0; i < 6; i++) period_at_base(&c, 17000);
    CU_ASSERT_TRUE(c.selective);
    CU_ASSERT_EQUAL(c.changes, 2);
    CU_ASSERT(f_now(&c, 17000) > 0.44 && f_now(&c, 17000) < 0.55);
    selectivity = 1.3; /* between the thresholds: still selective */
    for (int i = 0; i < 6; i++) period_at_base(&c, 17000);
    CU_ASSERT_TRUE(c.selective);
    CU_ASSERT_EQUAL(c.changes, 2);
    selectivity = 1.1; /* nothing to choose among any more */
    for (int i = 0; i < 6; i++) period_at_base(&c, 17000);
    CU_ASSERT_FALSE(c.selective);
    CU_ASSERT_EQUAL(c.changes, 3);
    CU_ASSERT(f_now(&c, 17000) > 0.7 && f_now(&c, 17000) < 0.9);
    CU_ASSERT_EQUAL(c.raised, 2);
}

/* A load that swings by +-20 % settles and does not flap: in the selective band at once;
 * in the plain one at the latest after one more change (the swing can carry f from the
 * aim 0.8 over 1), never again after. */
static void test_no_flapping_under_noise(void) {
    double loads[] = {30000.0 * 4096, 500.0 * BASE, 30000.0 * 4096, 500.0 * BASE};
    int64_t starts[] = {4096, BASE, 4096, BASE};
    double sel[] = {SELECTIVE, SELECTIVE, PLAIN, PLAIN};
    uint64_t most[] = {1, 1, 2, 2};
    for (int k = 0; k < 4; k++) {
        selectivity = sel[k];
        hs_interval_control c;
        hs_interval_control_init(&c, starts[k], k % 2 == 0);
        uint64_t x = 1, settled = 0;
        for (int i = 0; i < 2000; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            double noise = 0.8 + 0.4 * (double)(x >> 11) * 0x1p-53; /* +-20 % */
            period(&c, loads[k] * noise);
            if (i == 100) settled = c.changes;
        }
        CU_ASSERT(c.changes >= 1 && c.changes <= most[k]);
        CU_ASSERT_EQUAL(c.changes, settled);
    }
}

static void test_ceiling(void) {
    hs_interval_control c;
    selectivity = PLAIN;
    for (int given = 0; given <= 1; given++) { /* counted from the start, not the lowest */
        hs_interval_control_init(&c, BASE, given);
        CU_ASSERT_EQUAL(hs_interval_control_highest(&c), (int64_t)BASE * HS_INTERVAL_MAX_FACTOR);
        for (int i = 0; i < 100; i++) period(&c, 1e18);
        CU_ASSERT_EQUAL(c.current, (int64_t)BASE * HS_INTERVAL_MAX_FACTOR);
        CU_ASSERT_TRUE(c.last_at_bound);
    }
    hs_interval_control_init(&c, 4 << 20, true); /* x 1024 would be above 2^30 */
    for (int i = 0; i < 100; i++) period(&c, 1e18);
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LIMIT);
    hs_interval_control_init(&c, 0, true); /* interval=0: every allocation, nothing to move */
    for (int i = 0; i < 10; i++) period(&c, 1e18);
    CU_ASSERT_EQUAL(c.current, 0);
}

/* The operator's `start,interval=` is the lowest from then on, default start or not. */
static void test_operator_interval_is_the_new_floor(void) {
    selectivity = PLAIN;
    for (int given = 0; given <= 1; given++) {
        hs_interval_control c;
        hs_interval_control_init(&c, BASE, given);
        hs_interval_control_set_by_user(&c, 4 * BASE);
        for (int i = 0; i < 10; i++) period(&c, 0);
        CU_ASSERT_EQUAL(c.current, 4 * BASE);
        CU_ASSERT_EQUAL(c.lowest, 4 * BASE);
        CU_ASSERT_EQUAL(c.changes, 0);
        CU_ASSERT_EQUAL(hs_interval_control_highest(&c), HS_INTERVAL_LIMIT); /* 2 GiB by the factor */
    }
}

/* A program lowered to 16 KiB that starts allocating 1 GB/s offers 61,000 a second: raised
 * at once, without the hold; 7 x the rate is no surge. */
static void test_a_surge_raises_at_once(void) {
    selectivity = PLAIN;
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 3; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LOWEST);
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, 7 * RATE, RATE, PLAIN), HS_INTERVAL_LOWEST);
    double offers = 1e9 / (double)HS_INTERVAL_LOWEST; /* 61,035 a second */
    int64_t next = hs_interval_control_surge(&c, offers, RATE, PLAIN);
    CU_ASSERT(NEAR(RATE / (offers * HS_INTERVAL_LOWEST / (double)next), 0.8));
    hs_interval_control_applied(&c, next);
    CU_ASSERT_EQUAL(c.raised, 1);
    CU_ASSERT_EQUAL(c.last_move, HS_INTERVAL_RAISED);
    /* not again in the period after a change, and not without a rate */
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, 1e9, RATE, PLAIN), c.current);
    period(&c, 1e9);
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, 1e9, 0, PLAIN), c.current);
}

/* A program whose allocation ramps up as its code is compiled: the first window over 8 x
 * the rate raises to the aim for that window's offers; while the surge goes on ramping
 * (3 windows over the band running, before the next period's decision) it raises again,
 * without the 2 s hold; 2 windows are not enough, and after a period's decision the hold
 * applies again. */
static void test_a_ramping_surge_raises_again(void) {
    selectivity = PLAIN;
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    double ramp = 9000.0 * BASE; /* bytes a second: 9,000 offers a second at 512k */
    int64_t next = hs_interval_control_surge(&c, ramp / (double)c.current, RATE, PLAIN);
    CU_ASSERT(next > BASE);
    hs_interval_control_applied(&c, next);
    int64_t first = c.current;
    double full = 4 * ramp; /* full speed: f = 0.2 at the first raise */
    for (int i = 0; i < 2; i++)
        CU_ASSERT_EQUAL(hs_interval_control_surge(&c, full / (double)c.current, RATE, PLAIN), first);
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, ramp / (double)c.current, RATE, PLAIN), first);
    for (int i = 0; i < 2; i++)
        CU_ASSERT_EQUAL(hs_interval_control_surge(&c, full / (double)c.current, RATE, PLAIN), first);
    next = hs_interval_control_surge(&c, full / (double)c.current, RATE, PLAIN);
    CU_ASSERT(next > first);
    hs_interval_control_applied(&c, next);
    CU_ASSERT(NEAR(RATE / (full / (double)c.current), 0.8));
    CU_ASSERT_EQUAL(c.changes, 2);
    CU_ASSERT_EQUAL(c.raised, 2);
    /* after a period's decision, windows over the band wait for the hold again */
    hs_interval_control_init(&c, BASE, false);
    hs_interval_control_applied(&c, hs_interval_control_surge(&c, ramp / (double)BASE, RATE, PLAIN));
    first = c.current;
    period(&c, ramp); /* the period of the change: skipped, but it ends the ramp */
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(hs_interval_control_surge(&c, full / (double)c.current, RATE, PLAIN), first);
}

/* A surge's raise decided on a window of a program still speeding up lands f inside the
 * band but far under the aim (AllocMix on JDK 17: 0.55, offering 1.8 times what is kept):
 * the first whole period after the change raises it to the aim at once; within a step of
 * the aim, or over it, it changes nothing; and from then on the hold applies again. */
static void test_a_surge_is_re_aimed_after_a_whole_period(void) {
    selectivity = PLAIN;
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    double ramp = 9000.0 * BASE; /* the window: 9,000 offers a second at 512k */
    hs_interval_control_applied(&c, hs_interval_control_surge(&c, ramp / (double)BASE, RATE, PLAIN));
    int64_t surged = c.current;
    CU_ASSERT(NEAR(RATE / (ramp / (double)surged), 0.8));
    double full = ramp * 0.8 / 0.55; /* its full speed: f = 0.55 at the surge's interval */
    CU_ASSERT_EQUAL(period(&c, full), surged); /* the period of the change: skipped */
    int64_t reaimed = period(&c, full);        /* the first whole one: no hold */
    CU_ASSERT(reaimed > surged);
    CU_ASSERT(NEAR(RATE / (full / (double)reaimed), 0.8));
    CU_ASSERT_EQUAL(c.changes, 2);
    CU_ASSERT_EQUAL(c.last_move, HS_INTERVAL_RAISED);
    char why[512];
    hs_interval_control_explain(&c, why, sizeof why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, " x rate 1000/s, re-aimed on the first whole second "
                                       "after a surge)"));
    /* the same swing once more, after a normal change: inside the band, the hold keeps it */
    double swing = full * 0.8 / 0.55;
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(period(&c, swing), reaimed);
    /* a surge that lands within a step of the aim stays */
    hs_interval_control_init(&c, BASE, false);
    hs_interval_control_applied(&c, hs_interval_control_surge(&c, ramp / (double)BASE, RATE, PLAIN));
    surged = c.current;
    double near = ramp * (RATE / (ramp / (double)surged)) / 0.8 * 1.04; /* f = 0.8 / 1.04 */
    period(&c, near);
    CU_ASSERT_EQUAL(period(&c, near), surged);
    CU_ASSERT_EQUAL(c.changes, 1);
    /* nor does one whose program slowed down since (f over the aim, inside the band) */
    hs_interval_control_init(&c, BASE, false);
    hs_interval_control_applied(&c, hs_interval_control_surge(&c, ramp / (double)BASE, RATE, PLAIN));
    surged = c.current;
    double slower = ramp * (RATE / (ramp / (double)surged)) / 0.95; /* f = 0.95 */
    period(&c, slower);
    CU_ASSERT_EQUAL(period(&c, slower), surged);
    CU_ASSERT_EQUAL(c.changes, 1);
}

static void test_interval_format(void) {
    char buf[32];
    hs_interval_format(524288, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "512 KiB");
    hs_interval_format(INT64_C(1) << 30, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "1 GiB");
    hs_interval_format(3 << 20, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "3 MiB");
    hs_interval_format(1000, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "1000 B");
    hs_interval_format(0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "0 B");
}

/* What `status`, the exit log and the profile comments say the interval is and why. */
static void test_explain(void) {
    char buf[512];
    hs_interval_control c;
    selectivity = PLAIN;
    hs_interval_control_init(&c, BASE, false);
    size_t n = hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_STRING_EQUAL(buf, "interval 512 KiB (the default 512 KiB, unchanged so far); it "
                                "follows the budget between 16 KiB (the lowest without "
                                "interval=) and 512 MiB, aiming at offers about 1.25 times "
                                "what is kept (survival factors favour survivors 1.00 times: "
                                "nothing to choose among more)");
    period_at_base(&c, 408);
    period_at_base(&c, 408);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 181 KiB (lowered from the default 512 KiB: "
                                       "offers 408/s under rate 1000/s); it follows"));
    selectivity = 3.8; /* the factors learn: more offers for them to choose among */
    for (int i = 0; i < 3; i++) period_at_base(&c, 408);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 108 KiB (lowered from 181 KiB: offers 1154/s "
                                       "under 1.4 x rate 1000/s: too few for the survival "
                                       "factors to choose among)"));
    for (int i = 0; i < 3; i++) period_at_base(&c, 17000);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 4110 KiB (raised from 108 KiB: offers 80593/s "
                                       "over 8 x rate 1000/s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "aiming at offers about twice what is kept (survival "
                                       "factors favour survivors 3.80 times)"));
    selectivity = PLAIN;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 3; i++) period(&c, 0);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 16 KiB (lowered from the default 512 KiB: "
                                       "offers 0/s under rate 1000/s; the lowest)"));
    /* interval= given: the lowest, and said why the budget is not spent */
    hs_interval_control_init(&c, 65536, true);
    for (int i = 0; i < 3; i++) period(&c, 400.0 * 65536);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 64 KiB (the configured 64 KiB, unchanged: "
                                       "offers 400/s under rate 1000/s; the lowest); it follows "
                                       "the budget between 64 KiB (the lowest: interval= was "
                                       "given) and 64 MiB"));
    /* truncated: the length needed is still reported */
    char small[8];
    CU_ASSERT_EQUAL(hs_interval_control_explain(&c, small, sizeof small), strlen(buf));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"raises after the hold", test_raises_after_the_hold},
        {"no change inside the band", test_no_change_inside_the_band},
        {"a short spike changes nothing", test_a_short_spike_changes_nothing},
        {"lowers when the offers drop, never below the floor", test_lowers_when_the_offers_drop_never_below_the_floor},
        {"default: lowered below the start to spend the budget", test_default_lowers_below_the_start},
        {"default: lowered no further than the lowest", test_default_stops_at_the_lowest},
        {"default: follows the budget both ways", test_default_follows_the_budget_both_ways},
        {"the band follows the survival factors", test_the_band_follows_the_survival_factors},
        {"no flapping under noise", test_no_flapping_under_noise},
        {"ceiling", test_ceiling},
        {"the operator's interval is the new floor", test_operator_interval_is_the_new_floor},
        {"a surge raises at once", test_a_surge_raises_at_once},
        {"a ramping surge raises again", test_a_ramping_surge_raises_again},
        {"a surge is re-aimed after a whole period", test_a_surge_is_re_aimed_after_a_whole_period},
        {"interval format", test_interval_format},
        {"explain", test_explain},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("interval_control", tests);
}
