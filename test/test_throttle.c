/* test_throttle.c: the rate cap (throttle.c) alone, driven by a fake clock.
 *
 * A simulated thread offers samples at given rates over fake time and checks, after every
 * offer, that no window kept more than its budget and that the samples kept so far are at
 * most rate x elapsed + one window's budget. The weight bound tested: the weights of the
 * kept samples of all completed windows sum to the population of those windows up to the
 * deficit carried into the open window, which in a steady phase is within one window's mean
 * population (the deficit is the budget's cut-off tail plus noise of sd ~ weight *
 * sqrt(kept), a fraction of a window). Seeds are fixed: every run decides the same way. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "sample_table.h"
#include "threads.h"
#include "throttle.h"
#include "unit.h"

#define SECOND INT64_C(1000000000)
#define SEED 42

typedef struct {
    hs_throttle *t;
    hs_throttle_thread th;
    int64_t start, now;
    uint64_t offered, kept;
    double weight;            /* sum of the kept samples' weights, JVM samples */
    uint64_t windows_seen;
    uint32_t budget;          /* of the open window */
    uint64_t window_kept;     /* kept in the open window */
    uint64_t window_offered;  /* offered in the open window */
    uint64_t over_budget;     /* windows that kept more than their budget */
    uint64_t over_rate;       /* offers after which kept > rate x elapsed + a window's budget */
    double rate_per_ns, window_budget;
} sim;

static void sim_init(sim *s, int64_t rate, int64_t period_ns) {
    memset(s, 0, sizeof *s);
    s->start = s->now = 1000 * SECOND; /* any origin */
    s->t = hs_throttle_create(rate, period_ns, SEED, s->now);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->t);
    hs_throttle_stats st;
    hs_throttle_stats_read(s->t, s->now, &st);
    s->budget = st.budget;
    s->rate_per_ns = (double)rate / (double)period_ns;
    s->window_budget = (double)rate / (rate >= HS_THROTTLE_WINDOWS ? HS_THROTTLE_WINDOWS : 1);
}

static bool sim_offer(sim *s) {
    uint64_t w = 0;
    bool keep = hs_throttle_offer(s->t, &s->th, s->now, &w);
    hs_throttle_stats st;
    hs_throttle_stats_read(s->t, s->now, &st);
    if (st.windows != s->windows_seen) { /* a window closed before this offer was decided */
        if (s->window_kept > s->budget) s->over_budget++;
        s->windows_seen = st.windows;
        s->window_kept = 0;
        s->window_offered = 0;
        s->budget = st.budget;
    }
    s->offered++;
    s->window_offered++;
    if (keep) {
        s->kept++;
        s->window_kept++;
        s->weight += (double)w / HS_WEIGHT_ONE;
    }
    if ((double)s->kept > s->rate_per_ns * (double)(s->now - s->start) + s->window_budget)
        s->over_rate++;
    return keep;
}

/* Offers per_second samples a second, evenly spaced, for duration_ns of fake time. */
static void sim_run(sim *s, double per_second, int64_t duration_ns) {
    double gap = 1e9 / per_second, next = 0;
    for (int64_t end = s->now + duration_ns; s->now < end;) {
        sim_offer(s);
        next += gap;
        s->now = end - duration_ns + (int64_t)next;
    }
}

/* Weights of the completed windows minus their population: the deficit, with its sign. */
static double completed_deficit(sim *s) {
    hs_throttle_stats st;
    hs_throttle_stats_read(s->t, s->now, &st);
    CU_ASSERT_EQUAL(st.offered, s->offered);
    CU_ASSERT_EQUAL(st.kept, s->kept);
    return st.weight_total - (double)(s->offered - s->window_offered);
}

static void sim_free(sim *s) { hs_throttle_destroy(s->t); }

/* ---- Steady and bursty populations ------------------------------------------------ */

static void test_steady_population(void) {
    sim s;
    sim_init(&s, 100, SECOND); /* 20 per 200 ms window */
    sim_run(&s, 10000, 10 * SECOND); /* 2,000 offered per window */
    CU_ASSERT_EQUAL(s.over_budget, 0);
    CU_ASSERT_EQUAL(s.over_rate, 0);
    /* 50 windows of 20: nearly all of the 1,000 the rate allows are used */
    CU_ASSERT(s.kept >= 900 && s.kept <= 1000);
    double deficit = completed_deficit(&s);
    CU_ASSERT(fabs(deficit) <= 2000);
    /* all weights, open window included, against all offers */
    CU_ASSERT(fabs(s.weight - (double)s.offered) <= 2000);
    hs_throttle_stats st;
    hs_throttle_stats_read(s.t, s.now, &st);
    CU_ASSERT_DOUBLE_EQUAL(st.probability, 0.01, 0.002);
    CU_ASSERT_DOUBLE_EQUAL(st.population, 2000, 200);
    sim_free(&s);
}

static void test_below_the_cap_keeps_everything_at_weight_one(void) {
    sim s;
    sim_init(&s, 1000, SECOND); /* 200 per window */
    for (int i = 0; i < 5000; i++) { /* 50 per second: far below the cap */
        uint64_t w = 0;
        s.now += SECOND / 50;
        CU_ASSERT_TRUE(hs_throttle_offer(s.t, &s.th, s.now, &w));
        CU_ASSERT_EQUAL(w, HS_WEIGHT_ONE);
    }
    hs_throttle_stats st;
    hs_throttle_stats_read(s.t, s.now, &st);
    CU_ASSERT_EQUAL(st.kept, 5000);
    CU_ASSERT_EQUAL(st.windows_capped, 0);
    sim_free(&s);
}

static void test_bursty_population(void) {
    sim s;
    sim_init(&s, 100, SECOND);
    for (int i = 0; i < 5; i++) { /* quiet seconds and bursts of 100 times the rate */
        sim_run(&s, 50, SECOND);
        sim_run(&s, 50000, SECOND / 2);
        sim_run(&s, 2000, SECOND);
    }
    sim_run(&s, 2000, 2 * SECOND); /* end steady, so the last bursts' deficit is paid out */
    CU_ASSERT_EQUAL(s.over_budget, 0);
    CU_ASSERT_EQUAL(s.over_rate, 0);
    hs_throttle_stats st;
    hs_throttle_stats_read(s.t, s.now, &st);
    CU_ASSERT(st.windows_capped >= 5); /* each burst's first window at least */
    /* bound: one steady window's population (400) */
    CU_ASSERT(fabs(completed_deficit(&s)) <= 400);
    sim_free(&s);
}

/* ---- Budget carry within the period ----------------------------------------------- */

static void test_budget_carry_and_reset(void) {
    sim s;
    sim_init(&s, 100, SECOND); /* 20 per window */
    int64_t window = SECOND / 5;
    int64_t t0 = s.now;
    for (int w = 0; w < 2; w++) { /* windows 0 and 1: 5 offers each, all kept */
        for (int i = 0; i < 5; i++, s.now += window / 10) CU_ASSERT_TRUE(sim_offer(&s));
        s.now = t0 + (w + 1) * window;
    }
    /* window 2 may keep 60 - 10 = 50: the unused 30 carried; the population estimate is 5,
     * so every offer is a candidate until the budget is spent */
    uint64_t kept = 0;
    for (int i = 0; i < 1000; i++, s.now += window / 2000) kept += sim_offer(&s);
    CU_ASSERT_EQUAL(kept, 50);
    CU_ASSERT_EQUAL(s.budget, 50);
    /* windows 3 and 4 keep what is left of the second's 100: 40 */
    s.now = t0 + 3 * window;
    kept = 0;
    for (int i = 0; i < 4000; i++, s.now += 2 * window / 4000) kept += sim_offer(&s);
    CU_ASSERT_EQUAL(s.kept, 100);
    /* a new period: its first window gets 20 again, nothing carried over the boundary */
    s.now = t0 + 5 * window;
    sim_offer(&s);
    CU_ASSERT_EQUAL(s.budget, 20);
    CU_ASSERT_EQUAL(s.over_budget, 0);
    sim_free(&s);
}

/* ---- Rate changes and low rates --------------------------------------------------- */

static void test_rate_change(void) {
    sim s;
    sim_init(&s, 1000, SECOND);
    sim_run(&s, 20000, 2 * SECOND);
    uint64_t kept_before = s.kept;
    CU_ASSERT(kept_before >= 1800 && kept_before <= 2000);
    hs_throttle_set_rate(s.t, 50, SECOND);
    sim_run(&s, 20000, 4 * SECOND);
    /* at most one old window (200) plus 4 s at 50/s plus a window of the new rate (10) */
    CU_ASSERT(s.kept - kept_before <= 200 + 200 + 10);
    CU_ASSERT(s.kept - kept_before >= 150);
    CU_ASSERT_EQUAL(s.over_budget, 0);
    CU_ASSERT(fabs(completed_deficit(&s)) <= 20000 / 5);
    sim_free(&s);
}

static void test_low_rates_per_minute(void) {
    sim s;
    sim_init(&s, 3, 60 * SECOND); /* 3 a minute: one window per period */
    sim_run(&s, 100, 5 * 60 * SECOND);
    CU_ASSERT_EQUAL(s.over_budget, 0);
    CU_ASSERT_EQUAL(s.over_rate, 0);
    /* the first window keeps 3; the others draw Poisson(3) capped at 3: 2.35 on average */
    CU_ASSERT(s.kept >= 9 && s.kept <= 15);
    sim_free(&s);
}

/* ---- Clock jumps ------------------------------------------------------------------ */

static void test_clock_jumps(void) {
    sim s;
    sim_init(&s, 100, SECOND);
    sim_run(&s, 10000, 2 * SECOND);
    /* ahead by an hour: the next offer opens a fresh window; the long one is not taken for
     * a population spike or a quiet spell that lasts */
    s.now += 3600 * SECOND;
    s.start += 3600 * SECOND;
    uint64_t kept = s.kept;
    sim_run(&s, 10000, 2 * SECOND);
    CU_ASSERT(s.kept - kept >= 150 && s.kept - kept <= 200 + 20);
    /* back by ten seconds: the window is restarted at once instead of lasting ten seconds
     * with a spent budget; the rate bound is checked from the new time on */
    s.now -= 10 * SECOND;
    kept = s.kept;
    sim_run(&s, 10000, 2 * SECOND);
    CU_ASSERT(s.kept - kept >= 150 && s.kept - kept <= 200 + 20);
    CU_ASSERT_EQUAL(s.over_budget, 0);
    sim_run(&s, 10000, 2 * SECOND);
    CU_ASSERT(fabs(completed_deficit(&s)) <= 2000);
    sim_free(&s);
}

/* ---- Unbiased per site ------------------------------------------------------------ */

/* Two sites offer 30 % and 70 % of 20,000 samples a second for 100 s at rate=1000/s:
 * 100,000 kept, ~30,000 for site A. Each site's weight sum estimates its offers with a
 * relative sd of about sqrt((1 - p) / kept) ~ 0.6 % for A: 4 sigma is 2.4 %. */
static void test_weights_unbiased_per_site(void) {
    hs_throttle *t = hs_throttle_create(1000, SECOND, SEED, 0);
    hs_throttle_thread th = {0};
    uint64_t random = 7, offered[2] = {0, 0};
    double weight[2] = {0, 0};
    for (int64_t i = 0, n = 2000000; i < n; i++) {
        int site = (hs_mix64(random++) % 10) < 3 ? 0 : 1;
        uint64_t w;
        offered[site]++;
        if (hs_throttle_offer(t, &th, i * 100 * SECOND / n, &w)) weight[site] += (double)w / HS_WEIGHT_ONE;
    }
    for (int site = 0; site < 2; site++)
        CU_ASSERT_DOUBLE_EQUAL(weight[site] / (double)offered[site], 1.0, 0.024);
    hs_throttle_destroy(t);
}

/* ---- Determinism ------------------------------------------------------------------ */

static void test_same_seed_same_decisions(void) {
    sim a, b;
    sim_init(&a, 100, SECOND);
    sim_init(&b, 100, SECOND);
    int same = 1;
    for (int i = 0; i < 20000; i++) {
        a.now = b.now += SECOND / 5000;
        same &= sim_offer(&a) == sim_offer(&b);
    }
    CU_ASSERT_TRUE(same);
    CU_ASSERT_EQUAL(a.weight, b.weight);
    sim_free(&a);
    sim_free(&b);
}

/* ---- Threads ---------------------------------------------------------------------- */

typedef struct {
    hs_throttle *t;
    uint64_t offered, kept;
    double weight;
} worker;

static void *offer_for_a_while(void *arg) {
    worker *w = arg;
    hs_throttle_thread th = {0};
    int64_t end = hs_throttle_clock_nanos() + SECOND / 2;
    for (int64_t now; (now = hs_throttle_clock_nanos()) < end;) {
        uint64_t weight;
        w->offered++;
        if (hs_throttle_offer(w->t, &th, now, &weight)) {
            w->kept++;
            w->weight += (double)weight / HS_WEIGHT_ONE;
        }
    }
    return NULL;
}

/* 4 threads for 0.5 s at rate=200/s: the kept samples stay within the rate bound, and the
 * weights handed out add up to what was offered within the deficit bound (generously, as
 * the population per window here is whatever the machine manages). */
static void test_threads(void) {
    for (int round = 0; round < 2; round++) {
        int64_t start = hs_throttle_clock_nanos();
        hs_throttle *t = hs_throttle_create(200, SECOND, SEED + round, start);
        worker w[4];
        for (int i = 0; i < 4; i++) w[i] = (worker){.t = t};
        run_threads(4, offer_for_a_while, w, sizeof w[0]);
        int64_t elapsed = hs_throttle_clock_nanos() - start;
        uint64_t offered = 0, kept = 0;
        double weight = 0;
        for (int i = 0; i < 4; i++) {
            offered += w[i].offered;
            kept += w[i].kept;
            weight += w[i].weight;
        }
        hs_throttle_stats st;
        hs_throttle_stats_read(t, hs_throttle_clock_nanos(), &st);
        CU_ASSERT_EQUAL(st.offered, offered);
        CU_ASSERT_EQUAL(st.kept, kept);
        CU_ASSERT(kept <= 200.0 * (double)elapsed / SECOND + 40);
        CU_ASSERT(kept >= 50);
        /* the open window's offers and the deficit: within one and a half windows' offers */
        double per_window = (double)offered * (double)(SECOND / 5) / (double)elapsed;
        CU_ASSERT(fabs(weight - (double)offered) <= 1.5 * per_window);
        hs_throttle_destroy(t);
    }
}

/* ---- The dump's scale ------------------------------------------------------------- */

/* Whatever the run, the weights handed out times the dump scale are the samples offered:
 * a dump then adds up to the population even when its last window cut a tail off. */
static void test_dump_scale_makes_weights_add_up(void) {
    CU_ASSERT_EQUAL(hs_throttle_dump_scale(NULL), 1.0);
    sim s;
    sim_init(&s, 500, SECOND);
    sim_run(&s, 50, SECOND / 2);        /* below the cap */
    sim_run(&s, 100000, SECOND / 10);   /* a burst that ends inside a window */
    double scale = hs_throttle_dump_scale(s.t);
    CU_ASSERT(scale > 1.5); /* the burst's cut-off tail is not carried yet */
    CU_ASSERT_DOUBLE_EQUAL(s.weight * scale, (double)s.offered, 1e-6 * (double)s.offered);
    sim_run(&s, 20000, 3 * SECOND + SECOND / 10);
    scale = hs_throttle_dump_scale(s.t);
    CU_ASSERT_DOUBLE_EQUAL(s.weight * scale, (double)s.offered, 1e-6 * (double)s.offered);
    sim_free(&s);
}

static void count_line(void *ctx, const char *line) {
    int *lines = ctx;
    if (strncmp(line, "rate cap: ", 10) == 0 && !strchr(line, '\n')) ++*lines;
}

/* ---- Status text ------------------------------------------------------------------ */

static void test_status_lines(void) {
    char buf[1024];
    size_t n = hs_throttle_format_status(NULL, 0, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "rate cap: off"));
    sim s;
    sim_init(&s, 100, SECOND);
    sim_run(&s, 10000, 2 * SECOND);
    n = hs_throttle_format_status(s.t, s.now, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    char expect[128];
    snprintf(expect, sizeof expect, "%llu samples offered, %llu kept", (unsigned long long)s.offered,
             (unsigned long long)s.kept);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "rate=100/s, windows of 200 ms"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "windows hit the cap\n"));
    int lines = 0;
    hs_throttle_status_lines(s.t, s.now, count_line, &lines);
    CU_ASSERT_EQUAL(lines, 2);
    /* truncated: the length needed is still reported */
    char small[16];
    CU_ASSERT_EQUAL(hs_throttle_format_status(s.t, s.now, small, sizeof small), n);
    sim_free(&s);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"steady population", test_steady_population},
        {"below the cap: everything kept at weight one", test_below_the_cap_keeps_everything_at_weight_one},
        {"bursty population", test_bursty_population},
        {"budget carried within the period, reset after", test_budget_carry_and_reset},
        {"rate change", test_rate_change},
        {"low rates per minute", test_low_rates_per_minute},
        {"clock jumps ahead and back", test_clock_jumps},
        {"weights unbiased per site", test_weights_unbiased_per_site},
        {"same seed, same decisions", test_same_seed_same_decisions},
        {"threads", test_threads},
        {"dump scale: weights add up to the offers", test_dump_scale_makes_weights_add_up},
        {"status lines", test_status_lines},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("throttle", tests);
}
