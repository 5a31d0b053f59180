/* test_interval_control.c: the decisions on the JVM's interval (interval_control.c) on
 * synthetic offer rates: when it raises, by how much, when it lowers, never below the
 * configured interval nor above its ceiling, and that it does not flap. */
#include "sampling/interval_control.h"
#include "unit.h"

#define BASE 524288
#define RATE 1000.0

/* One period offering `bytes_per_second / interval` samples (small objects: the offers are
 * in inverse proportion to the interval); applies what is decided. Returns the interval. */
static int64_t period(hs_interval_control *c, double bytes_per_second) {
    int64_t next = hs_interval_control_decide(c, bytes_per_second / (double)c->current, RATE);
    if (next != c->current) hs_interval_control_applied(c, next, c->floor);
    return c->current;
}

static void test_raises_after_the_hold_to_about_twice_the_kept(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
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

static void test_no_change_inside_the_band(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
    /* f from 0.26 to 10: nothing to raise, and nothing to lower at the floor */
    double offers[] = {3800, 2000, 1000, 900, 100, 0};
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 5; i++)
            CU_ASSERT_EQUAL(period(&c, offers[k] * BASE), BASE);
    CU_ASSERT_EQUAL(c.changes, 0);
}

static void test_a_short_spike_changes_nothing(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
    for (int i = 0; i < 10; i++) {
        CU_ASSERT_EQUAL(period(&c, 20000.0 * BASE), BASE); /* one period of f = 0.05 */
        CU_ASSERT_EQUAL(period(&c, 900.0 * BASE), BASE);
    }
    CU_ASSERT_EQUAL(c.changes, 0);
}

static void test_lowers_when_the_offers_drop_never_below_the_floor(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
    for (int i = 0; i < 4; i++) period(&c, 40000.0 * BASE);
    CU_ASSERT_EQUAL(c.current, 16 * BASE); /* 1/(2 x 0.025) = 20: x16 */
    CU_ASSERT_EQUAL(c.changes, 1);
    /* the load drops 10 times: 250 offers a second at 16 x, f = 4 > 1 */
    CU_ASSERT_EQUAL(period(&c, 4000.0 * BASE), 16 * BASE);
    CU_ASSERT_EQUAL(period(&c, 4000.0 * BASE), 2 * BASE); /* 2f = 8: / 8, f -> 0.5 */
    CU_ASSERT_EQUAL(c.changes, 2);
    /* the program goes quiet: back to the configured interval, never below */
    for (int i = 0; i < 10; i++) period(&c, 10.0 * BASE);
    CU_ASSERT_EQUAL(c.current, BASE);
    for (int i = 0; i < 10; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, BASE);
    CU_ASSERT_EQUAL(c.changes, 3);
    CU_ASSERT_EQUAL(c.raised, 1);
}

/* A load that swings around one threshold after a change does not flap: every change lands
 * f inside the band, a factor sqrt(2) or more from either edge. */
static void test_no_flapping_under_noise(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, 4096);
    uint64_t x = 1;
    for (int i = 0; i < 2000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        double noise = 0.8 + 0.4 * (double)(x >> 11) * 0x1p-53; /* +-20 % */
        period(&c, 30000.0 * 4096 * noise);
    }
    /* 30,000 a second at 4096: f = 0.033 -> x16 (f 0.53 +- 20 %), then never again */
    CU_ASSERT_EQUAL(c.current, 16 * 4096);
    CU_ASSERT_EQUAL(c.changes, 1);
}

static void test_ceiling(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
    for (int i = 0; i < 100; i++) period(&c, 1e18);
    CU_ASSERT_EQUAL(c.current, (int64_t)BASE * HS_INTERVAL_MAX_FACTOR);
    hs_interval_control_init(&c, 4 << 20); /* x 1024 would be above 2^30 */
    for (int i = 0; i < 100; i++) period(&c, 1e18);
    CU_ASSERT_EQUAL(c.current, HS_INTERVAL_LIMIT);
}

/* The operator's `start,interval=` makes a new floor. */
static void test_operator_interval_is_the_new_floor(void) {
    hs_interval_control c;
    hs_interval_control_init(&c, BASE);
    hs_interval_control_applied(&c, 4 * BASE, 4 * BASE);
    for (int i = 0; i < 10; i++) period(&c, 0);
    CU_ASSERT_EQUAL(c.current, 4 * BASE);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"raises after the hold, to about twice the kept", test_raises_after_the_hold_to_about_twice_the_kept},
        {"no change inside the band", test_no_change_inside_the_band},
        {"a short spike changes nothing", test_a_short_spike_changes_nothing},
        {"lowers when the offers drop, never below the floor", test_lowers_when_the_offers_drop_never_below_the_floor},
        {"no flapping under noise", test_no_flapping_under_noise},
        {"ceiling", test_ceiling},
        {"the operator's interval is the new floor", test_operator_interval_is_the_new_floor},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("interval_control", tests);
}
