/* test_interval_control.c: the decisions on the JVM's interval (interval_control.c) on
 * synthetic offer rates: when it raises, by how much, when it lowers (below the starting
 * interval when interval= was not given, never below it when it was), its bounds, the
 * surge rule, that it does not flap, and what it says about why. */
#include <string.h>

#include "interval_control.h"
#include "unit.h"

#define BASE 524288
#define RATE 1000.0

/* One period offering `bytes_per_second / interval` samples (small objects: the offers are
 * in inverse proportion to the interval); applies what is decided. Returns the interval. */
static int64_t period(hs_interval_control *c, double bytes_per_second) {
    int64_t next = hs_interval_control_decide(c, bytes_per_second / (double)c->current, RATE);
    if (next != c->current) hs_interval_control_applied(c, next);
    return c->current;
}

/* The same for a program offering `offers` a second at BASE. */
static int64_t period_at_base(hs_interval_control *c, double offers) {
    return period(c, offers * BASE);
}

static void test_raises_after_the_hold_to_about_twice_the_kept(void) {
    for (int given = 0; given <= 1; given++) {
        hs_interval_control c;
        hs_interval_control_init(&c, BASE, given);
        double bytes = 17000.0 * BASE; /* AllocMix at 512k: 17,000 offers a second, f = 0.059 */
        CU_ASSERT_EQUAL(period(&c, bytes), BASE); /* one period is not enough */
        CU_ASSERT_EQUAL(period(&c, bytes), 8 * BASE); /* 1/(2f) = 8.5: x8, f -> 0.47 */
        CU_ASSERT_EQUAL(c.changes, 1);
        CU_ASSERT_EQUAL(c.raised, 1);
        double offers = bytes / (double)c.current;
        CU_ASSERT(RATE / offers > 0.35 && RATE / offers < 0.71);
        /* steady from there: it stays */
        for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(period(&c, bytes), 8 * BASE);
        CU_ASSERT_EQUAL(c.changes, 1);
    }
}

/* interval= given: it is the lowest, so a program offering fewer than the rate stays. */
static void test_no_change_inside_the_band(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, true);
    /* f from 0.26 to 10: nothing to raise, and nothing to lower at the lowest */
    double offers[] = {3800, 2000, 1000, 900, 100, 0};
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 5; i++)
            CU_ASSERT_EQUAL(period_at_base(&c, offers[k]), BASE);
    CU_ASSERT_EQUAL(c.changes, 0);
}

/* interval= not given: inside [1/4, 1] nothing changes either. */
static void test_default_no_change_inside_the_band(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    double offers[] = {3900, 2000, 1001};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 5; i++)
            CU_ASSERT_EQUAL(period_at_base(&c, offers[k]), BASE);
    CU_ASSERT_EQUAL(c.changes, 0);
}

static void test_a_short_spike_changes_nothing(void) {
    for (int given = 0; given <= 1; given++) {
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
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, true);
    for (int i = 0; i < 4; i++) period_at_base(&c, 40000);
    CU_ASSERT_EQUAL(c.current, 16 * BASE); /* 1/(2 x 0.025) = 20: x16 */
    CU_ASSERT_EQUAL(c.changes, 1);
    /* the load drops 10 times: 250 offers a second at 16 x, f = 4 > 1 */
    CU_ASSERT_EQUAL(period_at_base(&c, 4000), 16 * BASE);
    CU_ASSERT_EQUAL(period_at_base(&c, 4000), 2 * BASE); /* 2f = 8: / 8, f -> 0.5 */
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
 * lowered after the hold by the power of two that brings f nearest 1/2 (f = 2.45: / 4), and
 * it stays there. */
static void test_default_lowers_below_the_start(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    CU_ASSERT_EQUAL(c.lowest, HS_INTERVAL_LOWEST);
    CU_ASSERT_EQUAL(period_at_base(&c, 408), BASE);
    CU_ASSERT_EQUAL(period_at_base(&c, 408), BASE / 4);
    CU_ASSERT_EQUAL(c.changes, 1);
    CU_ASSERT_EQUAL(c.raised, 0);
    double f = RATE / (408.0 * 4);
    CU_ASSERT(f > 0.35 && f < 0.71);
    for (int i = 0; i < 20; i++) CU_ASSERT_EQUAL(period_at_base(&c, 408), BASE / 4);
    CU_ASSERT_EQUAL(c.changes, 1);
    /* 100 a second (50 MB/s): 1/(2 x 10) = 0.05: / 16 = 32 KiB, where it offers 1,600 */
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 2; i++) period_at_base(&c, 100);
    CU_ASSERT_EQUAL(c.current, BASE / 16);
}

/* Lowered no further than the lowest (16 KiB), however few the offers; with none at all,
 * straight to it. */
static void test_default_stops_at_the_lowest(void) {
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

/* Both ways at the defaults: a load that rises, falls and rises again keeps f in the band
 * after each change, and the interval goes back to where it was for the same load. */
static void test_default_follows_the_budget_both_ways(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    double loads[] = {17000, 408, 17000, 100, 150}; /* offers a second at 512k */
    int64_t expect[] = {8 * BASE, BASE / 4, 8 * BASE, BASE / 16, BASE / 16};
    for (int k = 0; k < 5; k++) {
        for (int i = 0; i < 6; i++) period_at_base(&c, loads[k]);
        CU_ASSERT_EQUAL(c.current, expect[k]);
        double f = RATE / (loads[k] * BASE / (double)c.current);
        CU_ASSERT(f >= 0.25 && f <= 1);
    }
    CU_ASSERT_EQUAL(c.changes, 4);
    CU_ASSERT_EQUAL(c.raised, 2);
}

/* A load that swings around one threshold after a change does not flap: every change lands
 * f inside the band, a factor sqrt(2) or more from either edge. */
static void test_no_flapping_under_noise(void) {
    double loads[] = {30000.0 * 4096, 500.0 * BASE};
    int64_t starts[] = {4096, BASE}, settled[] = {16 * 4096, BASE / 4};
    for (int k = 0; k < 2; k++) {
        hs_interval_control c;
        hs_interval_control_init(&c, starts[k], k == 0);
        uint64_t x = 1;
        for (int i = 0; i < 2000; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            double noise = 0.8 + 0.4 * (double)(x >> 11) * 0x1p-53; /* +-20 % */
            period(&c, loads[k] * noise);
        }
        /* 30,000 a second at 4096: f = 0.033 -> x16 (f 0.53 +- 20 %); 500 a second at 512k
         * (default): f = 2 -> / 4 (f 0.5 +- 20 %); then never again */
        CU_ASSERT_EQUAL(c.current, settled[k]);
        CU_ASSERT_EQUAL(c.changes, 1);
    }
}

static void test_ceiling(void) {
    hs_interval_control c;
    for (int given = 0; given <= 1; given++) { /* counted from the start, not the lowest */
        hs_interval_control_init(&c, BASE, given);
        CU_ASSERT_EQUAL(hs_interval_control_highest(&c), (int64_t)BASE * HS_INTERVAL_MAX_FACTOR);
        for (int i = 0; i < 100; i++) period(&c, 1e18);
        CU_ASSERT_EQUAL(c.current, (int64_t)BASE * HS_INTERVAL_MAX_FACTOR);
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

/* A program lowered to 16 KiB that starts allocating 1 GB/s offers 65,000 a second: raised
 * at once, without the hold; 15 x the rate is no surge. */
static void test_a_surge_raises_at_once(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 3; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LOWEST);
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, 15 * RATE, RATE), HS_INTERVAL_LOWEST);
    double offers = 1e9 / (double)HS_INTERVAL_LOWEST; /* 61,035 a second */
    int64_t next = hs_interval_control_surge(&c, offers, RATE);
    CU_ASSERT_EQUAL(next, 32 * HS_INTERVAL_LOWEST); /* 1/(2f) = 30.5 -> x32 */
    hs_interval_control_applied(&c, next);
    CU_ASSERT_EQUAL(c.raised, 1);
    CU_ASSERT_EQUAL(c.last_move, HS_INTERVAL_RAISED);
    /* no rate: nothing */
    CU_ASSERT_EQUAL(hs_interval_control_surge(&c, 1e9, 0), c.current);
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
    hs_interval_control_init(&c, BASE, false);
    size_t n = hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_STRING_EQUAL(buf, "interval 512 KiB (the default 512 KiB, unchanged so far); it "
                                "follows the budget between 16 KiB (the lowest without "
                                "interval=) and 512 MiB");
    period_at_base(&c, 400);
    period_at_base(&c, 400);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "interval 128 KiB (lowered from the default 512 KiB: offers "
                                "400/s under rate 1000/s); it follows the budget between 16 KiB "
                                "(the lowest without interval=) and 512 MiB");
    for (int i = 0; i < 3; i++) period_at_base(&c, 17000);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 4 MiB (raised from 128 KiB: offers 68000/s over "
                                       "4 x rate 1000/s)"));
    hs_interval_control_init(&c, BASE, false);
    for (int i = 0; i < 3; i++) period(&c, 0);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "interval 16 KiB (lowered from the default 512 KiB: "
                                       "offers 0/s under rate 1000/s; the lowest)"));
    /* interval= given: the lowest, and said why the budget is not spent */
    hs_interval_control_init(&c, 65536, true);
    for (int i = 0; i < 3; i++) period(&c, 400.0 * 65536);
    hs_interval_control_explain(&c, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "interval 64 KiB (the configured 64 KiB, unchanged: offers "
                                "400/s under rate 1000/s; the lowest); it follows the budget "
                                "between 64 KiB (the lowest: interval= was given) and 64 MiB");
    /* truncated: the length needed is still reported */
    char small[8];
    CU_ASSERT_EQUAL(hs_interval_control_explain(&c, small, sizeof small), strlen(buf));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"raises after the hold, to about twice the kept", test_raises_after_the_hold_to_about_twice_the_kept},
        {"no change inside the band", test_no_change_inside_the_band},
        {"no change inside the band, default interval", test_default_no_change_inside_the_band},
        {"a short spike changes nothing", test_a_short_spike_changes_nothing},
        {"lowers when the offers drop, never below the floor", test_lowers_when_the_offers_drop_never_below_the_floor},
        {"default: lowered below the start to spend the budget", test_default_lowers_below_the_start},
        {"default: lowered no further than the lowest", test_default_stops_at_the_lowest},
        {"default: follows the budget both ways", test_default_follows_the_budget_both_ways},
        {"no flapping under noise", test_no_flapping_under_noise},
        {"ceiling", test_ceiling},
        {"the operator's interval is the new floor", test_operator_interval_is_the_new_floor},
        {"a surge raises at once", test_a_surge_raises_at_once},
        {"interval format", test_interval_format},
        {"explain", test_explain},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("interval_control", tests);
}
