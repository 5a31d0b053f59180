/* test_survival.c: survival-weighted sampling (survival.c) alone and under the rate cap
 * (throttle.c), driven by a fake clock.
 *
 * The factors: 1 before anything is learned, MAX-bounded, >= 1 (no class is ever left
 * out), ordered by survival, shrunk toward the overall fraction for slots with few
 * outcomes; the sweeper's outcome rule. Under the cap: a simulated program offers a
 * short-lived class (97 % of the offers, never survives) and a leaking one (3 %, always
 * survives) at 20 times the cap; after every simulated GC (each second) the kept samples'
 * outcomes are learned and the factors published, as the sweeper does. Checked: every
 * class's weights are within 4 of their standard deviations (sum (1 - q) / q over its
 * offers, q the probability each was decided with) of its offers in each run; over many
 * seeds the mean error of each class is within 4 standard errors of 0 (unbiased); the kept
 * samples never exceed rate x elapsed + the bucket; and the leaking class's in-use
 * estimate has a smaller standard error, at the same kept rate, than without the factors
 * (the gain is printed; the assertion is a conservative bound from the math, see below). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "sampling/sample_table.h"
#include "sampling/survival.h"
#include "sampling/throttle.h"
#include "unit.h"

#define SECOND INT64_C(1000000000)

enum { GARBAGE = 0, LEAK = 1, CLASSES = 2 };
static const uint32_t class_ids[CLASSES] = {7, 9};
static const uint64_t sizes[CLASSES] = {1024, 10000};

/* ---- The table alone ---------------------------------------------------------------- */

static void test_factor_is_one_before_learning(void) {
    hs_survival *s = hs_survival_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(hs_survival_factor(s, 7, 100), 1.0);
    CU_ASSERT_EQUAL(hs_survival_factor(NULL, 7, 100), 1.0);
    hs_survival_publish(s); /* nothing learned: still 1 */
    CU_ASSERT_EQUAL(hs_survival_factor(s, 7, 100), 1.0);
    hs_survival_destroy(s);
}

static void test_factors_follow_survival(void) {
    hs_survival *s = hs_survival_create();
    for (int i = 0; i < 200; i++) {
        hs_survival_learn(s, 7, 1024, false);   /* dies young */
        hs_survival_learn(s, 9, 10000, true);   /* survives */
        hs_survival_learn(s, 11, 64, i % 2);    /* half */
    }
    hs_survival_learn(s, 13, 64, true);         /* one outcome only */
    hs_survival_publish(s);
    double dies = hs_survival_factor(s, 7, 1024), lives = hs_survival_factor(s, 9, 10000);
    double half = hs_survival_factor(s, 11, 64), once = hs_survival_factor(s, 13, 64);
    double unseen = hs_survival_factor(s, 21, 1 << 20);
    CU_ASSERT(dies >= 1.0 && dies < 2.0);        /* the floor: never below 1 */
    CU_ASSERT(lives > 7.5 && lives <= HS_SURVIVAL_MAX);
    CU_ASSERT(half > dies && half < lives);
    /* one survivor among few outcomes is shrunk toward the overall fraction (~1/2) */
    CU_ASSERT(once < lives);
    CU_ASSERT(fabs(unseen - sqrt(1 + (HS_SURVIVAL_MAX * HS_SURVIVAL_MAX - 1) * 301.0 / 601)) < 0.02);
    /* the same class in another size class is another slot (unless they collide) */
    CU_ASSERT(hs_survival_factor(s, 9, 100) < lives);
    hs_survival_stats st;
    hs_survival_stats_read(s, &st);
    CU_ASSERT_EQUAL(st.outcomes, 601);
    CU_ASSERT_EQUAL(st.survived, 301);
    CU_ASSERT(st.highest >= lives);
    hs_survival_destroy(s);
}

/* A tracked sample learned by the slot it was tagged with teaches the factor of its class
 * and size, as learning by the key does; slots are in range. */
static void test_learn_by_slot(void) {
    hs_survival *by_key = hs_survival_create(), *by_slot = hs_survival_create();
    for (uint32_t i = 0; i < 300; i++) {
        uint32_t class_id = i % 5;
        uint64_t size = (uint64_t)16 << (i % 7);
        bool survived = i % 3 == 0;
        CU_ASSERT(hs_survival_slot(class_id, size) < HS_SURVIVAL_SLOTS);
        hs_survival_learn(by_key, class_id, size, survived);
        hs_survival_learn_slot(by_slot, hs_survival_slot(class_id, size), survived);
    }
    hs_survival_publish(by_key);
    hs_survival_publish(by_slot);
    for (uint32_t c = 0; c < 5; c++)
        for (int k = 0; k < 7; k++)
            CU_ASSERT_EQUAL(hs_survival_factor(by_key, c, (uint64_t)16 << k),
                            hs_survival_factor(by_slot, c, (uint64_t)16 << k));
    /* a size in the same size class (floor(log2)) has the same slot */
    CU_ASSERT_EQUAL(hs_survival_slot(3, 1024), hs_survival_slot(3, 2047));
    hs_survival_destroy(by_key);
    hs_survival_destroy(by_slot);
}

/* The selectivity: 1 before learning and when every slot has the survivors' share of the
 * offers (the factors are then equal: nothing to choose); the survivors' mean factor over
 * the offers' when survivors are concentrated. Kept samples stand for 1/f offers each: two
 * slots of 100 kept samples each, one all survivors (f ~ 8), one none (f ~ 1.5: the prior
 * lifts it), stand for ~12.5 and ~68 offers: selectivity ~ 3.2. */
static void test_selectivity(void) {
    CU_ASSERT_EQUAL(hs_survival_selectivity(NULL), 1.0);
    hs_survival *s = hs_survival_create();
    CU_ASSERT_EQUAL(hs_survival_selectivity(s), 1.0);
    for (int i = 0; i < 200; i++) { /* a third survive in both slots */
        hs_survival_learn(s, 7, 1024, i % 3 == 0);
        hs_survival_learn(s, 9, 64, i % 3 == 1);
    }
    hs_survival_publish(s);
    CU_ASSERT_DOUBLE_EQUAL(hs_survival_selectivity(s), 1.0, 0.02);
    hs_survival_destroy(s);
    s = hs_survival_create();
    for (int i = 0; i < 100; i++) {
        hs_survival_learn(s, 7, 1024, true);
        hs_survival_learn(s, 9, 64, false);
    }
    hs_survival_publish(s);
    double lives = hs_survival_factor(s, 7, 1024), dies = hs_survival_factor(s, 9, 64);
    double mean = 200 / (100 / lives + 100 / dies); /* over the offers the kept stand for */
    CU_ASSERT(lives > 7.5);
    CU_ASSERT_DOUBLE_EQUAL(hs_survival_selectivity(s), lives / mean, 0.01);
    CU_ASSERT(hs_survival_selectivity(s) > 3);
    hs_survival_stats st;
    hs_survival_stats_read(s, &st);
    CU_ASSERT_DOUBLE_EQUAL(st.selectivity, hs_survival_selectivity(s), 1e-9);
    hs_survival_destroy(s);
}

/* Too few survivors to judge: a handful in a small slot of high factor (a program's startup)
 * reads as 1 until HS_SURVIVAL_EVIDENCE have survived, and the status says so. */
static void test_selectivity_waits_for_evidence(void) {
    hs_survival *s = hs_survival_create();
    for (int i = 0; i < 1000; i++) hs_survival_learn(s, 9, 64, false);
    for (int i = 0; i < 10; i++) hs_survival_learn(s, 7, 1024, true);
    hs_survival_publish(s);
    CU_ASSERT_EQUAL(hs_survival_selectivity(s), 1.0);
    char status[512];
    hs_survival_format_status(s, status, sizeof status);
    CU_ASSERT_PTR_NOT_NULL(strstr(status, "(taken as 1 until 100 survivors)"));
    for (int i = 10; i < HS_SURVIVAL_EVIDENCE; i++) hs_survival_learn(s, 7, 1024, true);
    hs_survival_publish(s);
    CU_ASSERT(hs_survival_selectivity(s) > 1.5);
    hs_survival_format_status(s, status, sizeof status);
    CU_ASSERT_PTR_NULL(strstr(status, "taken as 1"));
    hs_survival_destroy(s);
}

static void test_counts_forget_the_past(void) {
    hs_survival *s = hs_survival_create();
    for (int i = 0; i < 1000; i++) hs_survival_learn(s, 7, 1024, true);
    for (int i = 0; i < 1000; i++) hs_survival_learn(s, 7, 1024, false);
    hs_survival_publish(s);
    /* the early survivors were halved away: the factor is near the floor */
    CU_ASSERT(hs_survival_factor(s, 7, 1024) < 1.5);
    hs_survival_destroy(s);
}

static void test_outcomes(void) {
    /* born at 10, swept at 11 then 12 (AGE 2): survives at the sweep of 12 */
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 10, 11, false), -1);
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 11, 12, false), 1);
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 12, 13, false), -1); /* counted once */
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 10, 11, true), 0);
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 11, 12, true), 0);   /* died in its 2nd GC */
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 12, 13, true), -1);  /* a survivor's death */
    /* sweeps that skip GCs: crossing the age counts, born after the previous sweep too */
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 9, 15, false), 1);
    CU_ASSERT_EQUAL(hs_survival_outcome(10, 9, 15, true), 0);
    /* epochs wrap */
    CU_ASSERT_EQUAL(hs_survival_outcome(UINT32_MAX, UINT32_MAX, 1, false), 1);
}

/* ---- Under the cap -------------------------------------------------------------------- */

typedef struct {
    uint64_t offered[CLASSES];
    double weight[CLASSES], variance[CLASSES];
    uint64_t kept, over_rate;
} run_result;

#define GCS_PER_SECOND 4

/* A simulated GC's sweep: the samples kept HS_SURVIVAL_AGE GCs ago have their outcome now
 * (kept[gc][class] counts them), and the factors are published. */
static void sweep(hs_survival *s, uint32_t kept[][CLASSES], int gc) {
    if (!s) return;
    if (gc >= HS_SURVIVAL_AGE)
        for (int c = 0; c < CLASSES; c++)
            for (uint32_t i = 0; i < kept[gc - HS_SURVIVAL_AGE][c]; i++)
                hs_survival_learn(s, class_ids[c], sizes[c], c == LEAK);
    hs_survival_publish(s);
}

/* One run: offers at `per_second` for `seconds`, class LEAK with probability 3 %, rate
 * cap `rate`/s; with `learn`, a GC every 1/GCS_PER_SECOND s, after which the outcomes of
 * the samples kept HS_SURVIVAL_AGE GCs earlier feed the factors, as the sweeper does. */
static void run_once(uint64_t seed, bool learn, double per_second, int64_t rate, int seconds,
                     run_result *r) {
    memset(r, 0, sizeof *r);
    int64_t start = 1000 * SECOND, now = start;
    hs_throttle *t = hs_throttle_create(rate, SECOND, seed, now);
    hs_survival *s = learn ? hs_survival_create() : NULL;
    hs_throttle_thread th = {0};
    uint64_t random = seed * 0x9e3779b97f4a7c15ULL + 1;
    double gap = 1e9 / per_second, capacity = HS_THROTTLE_DEPTH * (double)rate;
    uint32_t kept[seconds * GCS_PER_SECOND][CLASSES];
    memset(kept, 0, sizeof kept);
    int per_gc = (int)per_second / GCS_PER_SECOND;
    for (int gc = 0; gc < seconds * GCS_PER_SECOND; gc++) {
        for (int i = 0; i < per_gc; i++) {
            now = start + (int64_t)((gc * per_gc + i) * gap);
            int c = (hs_mix64(random++) % 100) < 3 ? LEAK : GARBAGE;
            double f = hs_survival_factor(s, class_ids[c], sizes[c]);
            uint64_t w = 0;
            bool keep = hs_throttle_offer_factor(t, &th, now, f, &w);
            r->offered[c]++;
            r->variance[c] += (1 - hs_throttle_decided(&th)) / hs_throttle_decided(&th);
            if (keep) {
                r->weight[c] += (double)w / HS_WEIGHT_ONE;
                r->kept++;
                kept[gc][c]++;
            }
            if ((double)r->kept > (double)rate * (double)(now - start) / SECOND + capacity)
                r->over_rate++;
        }
        sweep(s, kept, gc);
    }
    hs_survival_destroy(s);
    hs_throttle_destroy(t);
}

typedef struct {
    double sum[CLASSES], sum2[CLASSES];
    double kept;
} error_stats;

static void add_errors(error_stats *e, const run_result *r) {
    for (int c = 0; c < CLASSES; c++) {
        double error = r->weight[c] / (double)r->offered[c] - 1;
        e->sum[c] += error;
        e->sum2[c] += error * error;
    }
    e->kept += (double)r->kept;
}

static double mean_of(const error_stats *e, int c, int runs) { return e->sum[c] / runs; }
static double sd_of(const error_stats *e, int c, int runs) {
    double m = mean_of(e, c, runs);
    return sqrt((e->sum2[c] - runs * m * m) / (runs - 1));
}

/* A class's weights within 4 of their standard deviations (and one sample) of its offers. */
static bool within_4_sigma(const run_result *r, int c) {
    return fabs(r->weight[c] - (double)r->offered[c]) <= 4 * sqrt(r->variance[c]) + 1;
}

/* 200 seeds, 8 s each at 5,000 offers/s and a cap of 250/s (p ~ 0.05 without factors).
 * The leak's relative SE without factors is about sqrt((1/p - 1) / 600) ~ 0.18; with them,
 * its factor nears 8 while the offered mass is ~1.2 per offer, so its q is ~5 times
 * larger and its SE ~2.7 times smaller, less the first half second (factor 1 until the
 * first outcomes). Asserted: at least 1.8 times (the empirical SEs of 200 runs are each
 * within ~10 % at 2 sigma). */
static void test_unbiased_and_more_precise(void) {
    enum { RUNS = 200, SECONDS = 8 };
    error_stats on = {0}, off = {0};
    int beyond_4_sigma = 0;
    for (int run = 0; run < RUNS; run++) {
        run_result r;
        run_once(1000 + (uint64_t)run, true, 5000, 250, SECONDS, &r);
        CU_ASSERT_EQUAL(r.over_rate, 0);
        beyond_4_sigma += !within_4_sigma(&r, GARBAGE) + !within_4_sigma(&r, LEAK);
        add_errors(&on, &r);
        run_once(1000 + (uint64_t)run, false, 5000, 250, SECONDS, &r);
        CU_ASSERT_EQUAL(r.over_rate, 0);
        add_errors(&off, &r);
    }
    CU_ASSERT(beyond_4_sigma <= 1); /* 400 checks at 4 sigma: 0.03 expected */
    for (int c = 0; c < CLASSES; c++) {
        CU_ASSERT(fabs(mean_of(&on, c, RUNS)) <= 4 * sd_of(&on, c, RUNS) / sqrt(RUNS));
        CU_ASSERT(fabs(mean_of(&off, c, RUNS)) <= 4 * sd_of(&off, c, RUNS) / sqrt(RUNS));
    }
    double kept_on = on.kept / RUNS / SECONDS, kept_off = off.kept / RUNS / SECONDS;
    double leak_on = sd_of(&on, LEAK, RUNS), leak_off = sd_of(&off, LEAK, RUNS);
    double garbage_on = sd_of(&on, GARBAGE, RUNS), garbage_off = sd_of(&off, GARBAGE, RUNS);
    printf("\n    kept/s %.1f with factors, %.1f without; leak's relative SE %.4f with, "
           "%.4f without (x%.2f); short-lived class's %.4f with, %.4f without ",
           kept_on, kept_off, leak_on, leak_off, leak_off / leak_on, garbage_on, garbage_off);
    /* the same kept rate: the cap's (within 10 %: the factors' concavity keeps a little less) */
    CU_ASSERT(kept_on <= 250 * 1.02 + 1.25 * 250 / SECONDS && kept_on >= 0.9 * kept_off);
    CU_ASSERT(leak_off / leak_on >= 1.8);
    /* the short-lived class pays at most the floor's price (sqrt(MAX) times the SE) */
    CU_ASSERT(garbage_on <= sqrt(HS_SURVIVAL_MAX) * garbage_off);
}

/* A program offering fewer than the rate keeps (nearly) all, whatever the factors: 900
 * offers a second in bursts of 90 within 10 ms every 100 ms, a third of them at factor 8
 * (their mass alone, 2,400 a second, is above the rate). */
static void test_below_the_rate_keeps_all(void) {
    int64_t start = 1000 * SECOND;
    hs_throttle *t = hs_throttle_create(1000, SECOND, 5, start);
    hs_throttle_thread th = {0};
    uint64_t offered = 0, kept = 0;
    for (int burst = 0; burst < 100; burst++)
        for (int i = 0; i < 90; i++) {
            uint64_t w;
            int64_t now = start + burst * SECOND / 10 + i * SECOND / 9000;
            kept += hs_throttle_offer_factor(t, &th, now, i % 3 ? 1.0 : 8.0, &w);
            offered++;
        }
    CU_ASSERT(kept >= 0.97 * (double)offered);
    hs_throttle_destroy(t);
}

static void test_status_line(void) {
    char buf[512];
    size_t n = hs_survival_format_status(NULL, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "off"));
    hs_survival *s = hs_survival_create();
    hs_survival_learn(s, 7, 100, true);
    hs_survival_learn(s, 8, 100, false);
    hs_survival_publish(s);
    n = hs_survival_format_status(s, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "from 2 tracked samples (1 survived 2 GCs) in 2 slots; "
                                       "survivors' factor "));
    hs_survival_destroy(s);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"factor 1 before learning", test_factor_is_one_before_learning},
        {"factors follow survival, with a floor", test_factors_follow_survival},
        {"counts forget the past", test_counts_forget_the_past},
        {"learning by a sample's slot", test_learn_by_slot},
        {"selectivity", test_selectivity},
        {"selectivity waits for evidence", test_selectivity_waits_for_evidence},
        {"the sweeper's outcomes", test_outcomes},
        {"status line", test_status_line},
        {"below the rate: all kept, whatever the factors", test_below_the_rate_keeps_all},
        {"unbiased under the cap, and more precise for the leak", test_unbiased_and_more_precise},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("survival", tests);
}
