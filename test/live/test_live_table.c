/* test_live_table.c: the lock-free live-object table: inserts, sweeps, the admission
 * probability, thinning's unbiasedness, and 8 inserters racing one sweeper.
 *
 * Statistical checks use fixed seeds and a tolerance of 5 standard deviations, so a
 * correct table fails one with probability under 1e-6 for any seed, while a bias of the
 * kind the checks look for (a missing 2^level factor, a wrong keep probability) moves the
 * result by dozens of sigmas. */
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "live/live_table.h"
#include "threads.h"
#include "unit.h"

#define SIGMAS 5.0

/* --- helpers ------------------------------------------------------------------------ */

/* Fake references: addresses inside this array, so a ref maps back to an index. */
enum { FAKE_OBJECTS = 65536 };
static char fake_objects[FAKE_OBJECTS];
static void *fake_ref(uint32_t i) { return &fake_objects[i]; }
static uint32_t fake_index(const void *ref) { return (uint32_t)((const char *)ref - fake_objects); }

typedef struct {
    uint64_t entries;
    uint64_t weight_fp;
    double weight_squares; /* sum of (weight / HS_WEIGHT_ONE)^2 */
    uint32_t min_level, max_level;
    uint32_t bad; /* entries whose fields do not match what was inserted */
} table_sum;

/* Inserted entries here have bucket = ref index, tag = 5 * index (16 bits), epoch = 2 * index
 * and seconds = 3 * index + 1: every walk checks them, so the thinning tests check that
 * thinning keeps them. */
static void sum_entry(const hs_live_entry *e, void *ctx) {
    table_sum *s = ctx;
    s->entries++;
    s->weight_fp += e->weight_fp;
    double w = (double)e->weight_fp / HS_WEIGHT_ONE;
    s->weight_squares += w * w;
    if (e->level < s->min_level) s->min_level = e->level;
    if (e->level > s->max_level) s->max_level = e->level;
    uint32_t i = fake_index(e->ref);
    if (e->bucket != i || e->tag != (uint16_t)(5 * i) || e->epoch != 2 * i ||
        e->seconds != 3 * i + 1)
        s->bad++;
}

static table_sum sum_table(const hs_live_table *t) {
    table_sum s = {0, 0, 0, UINT32_MAX, 0, 0};
    hs_live_table_each(t, sum_entry, &s);
    return s;
}

/* Inserts fake object i with bucket i, tag 5i, epoch 2i, seconds 3i + 1; returns the slot. */
static int64_t insert_fake(hs_live_table *t, uint64_t *rng, uint32_t i, uint64_t weight_fp,
                           uint8_t level) {
    return hs_live_table_insert(t, hs_random_next(rng), fake_ref(i), i, (uint16_t)(5 * i),
                                (hs_live_birth){.epoch = 2 * i, .seconds = 3 * i + 1}, weight_fp,
                                level);
}

static uint32_t occupancy(const hs_live_table *t) {
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    return st.occupancy;
}

static uint32_t level(const hs_live_table *t) {
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    return st.level;
}

/* Raises the level by one and thins to it. */
static void raise_and_sweep(hs_live_table *t) {
    CU_ASSERT_TRUE(hs_live_table_request_raise(t));
    hs_live_table_sweep(t, NULL, NULL, NULL);
}

static void count_call(const hs_live_entry *e, void *ctx) {
    (void)e;
    (*(uint64_t *)ctx)++;
}

/* --- single-threaded behaviour ------------------------------------------------------- */

static void test_create_rejects_zero_capacity(void) {
    CU_ASSERT_PTR_NULL(hs_live_table_create(0, 1));
}

static void test_insert_then_each_sees_fields(void) {
    hs_live_table *t = hs_live_table_create(128, 1);
    uint64_t rng = 7;
    CU_ASSERT_TRUE(insert_fake(t, &rng, 3, HS_WEIGHT_ONE, 0) >= 0);
    CU_ASSERT_TRUE(insert_fake(t, &rng, 4, 3 * HS_WEIGHT_ONE, 2) >= 0);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.entries, 2);
    CU_ASSERT_EQUAL(s.bad, 0);
    /* the level-2 entry stands for 4 times its weight */
    CU_ASSERT_EQUAL(s.weight_fp, HS_WEIGHT_ONE + 12 * HS_WEIGHT_ONE);
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.capacity, 128);
    CU_ASSERT_EQUAL(st.occupancy, 2);
    CU_ASSERT_EQUAL(st.inserted, 2);
    CU_ASSERT_EQUAL(st.level, 0);
    /* a NULL ref is refused */
    CU_ASSERT_EQUAL(hs_live_table_insert(t, 1, NULL, 0, 0, (hs_live_birth){0, 0}, HS_WEIGHT_ONE, 0), -1);
    hs_live_table_destroy(t);
}

static hs_live_action remove_odd(const hs_live_entry *e, void *ctx) {
    (*(uint64_t *)ctx)++;
    return fake_index(e->ref) % 2 ? HS_LIVE_REMOVE : HS_LIVE_KEEP;
}

static void test_sweep_removes_what_visitor_says(void) {
    hs_live_table *t = hs_live_table_create(256, 1);
    uint64_t rng = 11;
    for (uint32_t i = 0; i < 100; i++) CU_ASSERT_TRUE(insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0) >= 0);
    uint64_t visited = 0, dropped = 0;
    hs_live_table_sweep(t, remove_odd, count_call, &visited);
    CU_ASSERT_EQUAL(visited, 100);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.entries, 50);
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.removed, 50);
    CU_ASSERT_EQUAL(st.thinned, 0);
    CU_ASSERT_EQUAL(st.occupancy, 50);
    /* the survivors are the even ones, and a second sweep removes nothing */
    visited = 0;
    hs_live_table_sweep(t, remove_odd, NULL, &visited);
    CU_ASSERT_EQUAL(visited, 50);
    CU_ASSERT_EQUAL(occupancy(t), 50);
    /* clear releases every remaining entry once */
    hs_live_table_clear(t, count_call, &dropped);
    CU_ASSERT_EQUAL(dropped, 50);
    CU_ASSERT_EQUAL(occupancy(t), 0);
    CU_ASSERT_EQUAL(sum_table(t).entries, 0);
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.removed, 100);
    hs_live_table_destroy(t);
}

static void test_full_table_fails_and_counts(void) {
    enum { CAP = 64 };
    hs_live_table *t = hs_live_table_create(CAP, 1);
    uint64_t rng = 99;
    bool used[CAP] = {false};
    uint32_t stored = 0, failures = 0;
    /* Random probing can miss the last free slots on one try; keep trying. */
    for (uint32_t i = 0; i < 100000 && stored < CAP; i++) {
        int64_t slot = insert_fake(t, &rng, stored, HS_WEIGHT_ONE, 0);
        if (slot < 0) {
            failures++;
            continue;
        }
        CU_ASSERT_TRUE(slot < CAP && !used[slot]);
        if (slot >= 0 && slot < CAP) used[slot] = true;
        stored++;
    }
    CU_ASSERT_EQUAL(stored, CAP);
    for (int i = 0; i < 10; i++) {
        CU_ASSERT_EQUAL(insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0), -1);
        failures++;
    }
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.failed, failures);
    CU_ASSERT_EQUAL(st.inserted, CAP);
    CU_ASSERT_EQUAL(st.occupancy, CAP);
    hs_live_table_destroy(t);
}

static hs_live_action remove_all(const hs_live_entry *e, void *ctx) {
    (void)e;
    (void)ctx;
    return HS_LIVE_REMOVE;
}

/* A mostly empty table keeps its entries in its first slots (the sweeper's walks then read
 * a compact block): under HS_LIVE_WINDOW_MIN / 4 entries all sit below HS_LIVE_WINDOW_MIN;
 * the window doubles as the occupancy passes a quarter of it, up to the whole table; and
 * after a spike is swept away, new entries go to the first slots again. */
static void test_inserts_stay_in_a_window_while_sparse(void) {
    enum { CAP = 16384 };
    hs_live_table *t = hs_live_table_create(CAP, 1);
    uint64_t rng = 5;
    uint32_t i = 0, highest = 0;
    for (; i < HS_LIVE_WINDOW_MIN / 4; i++) {
        int64_t slot = insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0);
        CU_ASSERT_TRUE(slot >= 0 && slot < HS_LIVE_WINDOW_MIN);
    }
    /* the window follows the occupancy: entry k goes below the power of two >= 4k */
    for (; i < 8192; i++) {
        uint32_t window = HS_LIVE_WINDOW_MIN;
        while (window < 4 * i && window < CAP) window *= 2;
        int64_t slot = insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0);
        CU_ASSERT_TRUE(slot >= 0 && (uint32_t)slot < window);
        if (slot > (int64_t)highest) highest = (uint32_t)slot;
    }
    CU_ASSERT_TRUE(highest >= CAP / 2); /* the whole table from a quarter full */
    hs_live_stats st;
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.failed, 0);
    hs_live_table_sweep(t, remove_all, NULL, NULL);
    CU_ASSERT_EQUAL(occupancy(t), 0);
    for (uint32_t k = 0; k < 100; k++) {
        int64_t slot = insert_fake(t, &rng, k, HS_WEIGHT_ONE, 0);
        CU_ASSERT_TRUE(slot >= 0 && slot < HS_LIVE_WINDOW_MIN);
    }
    hs_live_table_destroy(t);
}

/* At level L a draw is admitted with p = 2^-L. Over N independent draws the admitted
 * count is Binomial(N, p): mean Np, sigma = sqrt(N p (1 - p)). With N = 2^20 that is
 * sigma ~ 512 at L = 1, ~ 30 at L = 10. */
static void test_admit_probability(void) {
    hs_live_table *t = hs_live_table_create(1024, 5);
    uint64_t rng = 2024;
    /* Half the table holds entries of the top level: thinning leaves them alone and the
     * table never gets sparse enough for a sweep to lower the level again. */
    for (uint32_t i = 0; i < 512; i++)
        CU_ASSERT_TRUE(insert_fake(t, &rng, i, HS_WEIGHT_ONE, HS_LIVE_MAX_LEVEL) >= 0);
    const uint32_t n = 1u << 20;
    uint64_t rejected_before = 0;
    for (uint32_t L = 0; L <= 10; L++) {
        if (L > 0) raise_and_sweep(t);
        CU_ASSERT_EQUAL(level(t), L);
        uint32_t admitted = 0;
        bool levels_ok = true;
        for (uint32_t i = 0; i < n; i++) {
            uint8_t got = 255;
            if (hs_live_table_admit(t, hs_random_next(&rng), &got)) admitted++;
            levels_ok = levels_ok && got == L;
        }
        CU_ASSERT_TRUE(levels_ok);
        double p = ldexp(1.0, -(int)L);
        double mean = n * p, sigma = sqrt(n * p * (1 - p));
        CU_ASSERT_TRUE(fabs(admitted - mean) <= SIGMAS * sigma);
        if (L == 0) CU_ASSERT_EQUAL(admitted, n);
        hs_live_stats st;
        hs_live_table_stats(t, &st);
        CU_ASSERT_EQUAL(st.rejected - rejected_before, n - admitted);
        rejected_before = st.rejected;
    }
    CU_ASSERT_EQUAL(occupancy(t), 512); /* top-level entries are never thinned */
    hs_live_table_destroy(t);
}

/* Thinning one entry of weight w from level l to level L (d = L - l): it becomes
 * w * 2^d with probability 2^-d, else 0. Mean: w. Variance: E[X^2] - w^2 =
 * w^2 2^(2d) 2^-d - w^2 = w^2 (2^d - 1). Entries are thinned by independent draws, so
 * the total's variance is the sum of w_i^2 (2^(d_i) - 1); two successive halvings are the
 * same Bernoulli(1/4) as one step of d = 2. The kept count after thinning n entries by one
 * level is Binomial(n, 1/2): sigma = sqrt(n) / 2. */
static void test_thinning_halves_and_preserves_weight(void) {
    enum { CAP = 65536, N = 48000 }; /* 73 %: under the 7/8 mark, over the 1/4 mark */
    hs_live_table *t = hs_live_table_create(CAP, 42);
    uint64_t rng = 4242;
    double total = 0, squares = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint64_t w = (1 + i % 5) * HS_WEIGHT_ONE;
        CU_ASSERT_TRUE(insert_fake(t, &rng, i, w, 0) >= 0);
        total += 1 + i % 5;
        squares += (1.0 + i % 5) * (1.0 + i % 5);
    }
    table_sum before = sum_table(t);
    CU_ASSERT_EQUAL(before.entries, N);
    CU_ASSERT_DOUBLE_EQUAL((double)before.weight_fp / HS_WEIGHT_ONE, total, 1e-6);

    uint64_t dropped = 0;
    CU_ASSERT_TRUE(hs_live_table_request_raise(t));
    hs_live_table_sweep(t, NULL, count_call, &dropped);
    table_sum one = sum_table(t);
    CU_ASSERT_EQUAL(one.bad, 0);
    CU_ASSERT_EQUAL(one.min_level, 1);
    CU_ASSERT_EQUAL(one.max_level, 1);
    CU_ASSERT_TRUE(fabs((double)one.entries - N / 2.0) <= SIGMAS * sqrt(N) / 2);
    CU_ASSERT_EQUAL(dropped, N - one.entries);
    double w1 = (double)one.weight_fp / HS_WEIGHT_ONE;
    CU_ASSERT_TRUE(fabs(w1 - total) <= SIGMAS * sqrt(squares * (2 - 1)));

    CU_ASSERT_TRUE(hs_live_table_request_raise(t));
    hs_live_table_sweep(t, NULL, count_call, &dropped);
    table_sum two = sum_table(t);
    CU_ASSERT_EQUAL(two.min_level, 2);
    CU_ASSERT_EQUAL(two.max_level, 2);
    CU_ASSERT_TRUE(fabs((double)two.entries - one.entries / 2.0) <= SIGMAS * sqrt(one.entries) / 2);
    double w2 = (double)two.weight_fp / HS_WEIGHT_ONE;
    CU_ASSERT_TRUE(fabs(w2 - total) <= SIGMAS * sqrt(squares * (4 - 1)));
    CU_ASSERT_EQUAL(dropped, N - two.entries);

    hs_live_stats st;
    hs_live_table_stats(t, &st);
    CU_ASSERT_EQUAL(st.thinned, N - two.entries);
    CU_ASSERT_EQUAL(st.occupancy, two.entries);
    /* about 12,000 entries is under 1/4 full: that sweep also lowered the level, and
     * entries kept their level 2 (checked above) */
    CU_ASSERT_EQUAL(st.level, 1);
    hs_live_table_destroy(t);
}

/* Entries of levels 0..3 thinned up to level 4 by four raise-and-sweep rounds: entry i
 * of weight w_i (already including 2^l_i) ends with variance w_i^2 (2^(4 - l_i) - 1). */
static void test_thinning_mixed_levels(void) {
    enum { CAP = 65536, N = 30000, FILL = 15000 }; /* 69 %: under 7/8 */
    hs_live_table *t = hs_live_table_create(CAP, 77);
    uint64_t rng = 777;
    double total = 0, variance = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint8_t l = (uint8_t)(i % 4);
        uint64_t base = 1 + i % 7;
        CU_ASSERT_TRUE(insert_fake(t, &rng, i, base * HS_WEIGHT_ONE, l) >= 0);
        double w = ldexp((double)base, l);
        total += w;
        variance += w * w * (ldexp(1.0, 4 - l) - 1);
    }
    /* Top-level filler keeps the table over 1/4 full so no sweep lowers the level. */
    for (uint32_t i = N; i < N + FILL; i++)
        CU_ASSERT_TRUE(insert_fake(t, &rng, i, HS_WEIGHT_ONE, HS_LIVE_MAX_LEVEL) >= 0);
    double filler = ldexp((double)FILL, HS_LIVE_MAX_LEVEL);
    for (int r = 0; r < 4; r++) raise_and_sweep(t);
    CU_ASSERT_EQUAL(level(t), 4);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.bad, 0);
    CU_ASSERT_EQUAL(s.min_level, 4);
    double after = (double)s.weight_fp / HS_WEIGHT_ONE - filler;
    CU_ASSERT_TRUE(fabs(after - total) <= SIGMAS * sqrt(variance));
    /* expected survivors: sum over levels of N/4 * 2^(l - 4) */
    double expect_kept = N / 4.0 * (1.0 / 16 + 1.0 / 8 + 1.0 / 4 + 1.0 / 2);
    double kept = (double)s.entries - FILL;
    CU_ASSERT_TRUE(fabs(kept - expect_kept) <= SIGMAS * sqrt(expect_kept));
    hs_live_table_destroy(t);
}

/* The inserter that crosses 7/8 occupancy raises the level, once until a sweep applies
 * it; the sweep then thins to it. */
static void test_inserter_raises_at_high_water(void) {
    enum { CAP = 1024, HIGH = CAP - CAP / 8 };
    hs_live_table *t = hs_live_table_create(CAP, 3);
    uint64_t rng = 33;
    for (uint32_t i = 0; i < HIGH - 1; i++) CU_ASSERT_TRUE(insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0) >= 0);
    CU_ASSERT_EQUAL(level(t), 0);
    CU_ASSERT_TRUE(insert_fake(t, &rng, HIGH - 1, HS_WEIGHT_ONE, 0) >= 0);
    CU_ASSERT_EQUAL(level(t), 1);
    for (uint32_t i = HIGH; i < HIGH + 50; i++) insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0);
    CU_ASSERT_EQUAL(level(t), 1);                    /* no second raise before a sweep */
    CU_ASSERT_FALSE(hs_live_table_request_raise(t)); /* the raise is still pending */
    uint32_t before = occupancy(t);
    hs_live_table_sweep(t, NULL, NULL, NULL);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.min_level, 1);
    CU_ASSERT_TRUE(fabs((double)s.entries - before / 2.0) <= SIGMAS * sqrt(before) / 2);
    CU_ASSERT_EQUAL(level(t), 1);
    CU_ASSERT_TRUE(hs_live_table_request_raise(t)); /* applied: raising is allowed again */
    hs_live_table_destroy(t);
}

/* The sweeper's poll: a quarter of the time the table takes to reach its first raise at
 * the measured insert rate or the assumed busy rate (20,000/s), whichever is faster,
 * within [MIN, MAX]; MIN as soon as a raise is pending. */
static void test_poll_period_follows_the_headroom(void) {
    enum { CAP = 65536, HIGH = CAP - CAP / 8 }; /* 57,344: 2,867 ms at 20,000/s */
    hs_live_table *t = hs_live_table_create(CAP, 3);
    uint64_t rng = 35;
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 0), 716); /* idle: the busy rate's quarter */
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 1000), 716);
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 57344), 250); /* 1 s to crowd: a quarter */
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 1e7), HS_LIVE_POLL_MIN_MS);
    for (uint32_t i = 0; i < HIGH / 2; i++) insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0);
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 57344), 125); /* half the headroom left */
    for (uint32_t i = HIGH / 2; i < HIGH; i++) insert_fake(t, &rng, i, HS_WEIGHT_ONE, 0);
    CU_ASSERT_TRUE(hs_live_table_thin_pending(t));
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 0), HS_LIVE_POLL_MIN_MS); /* raise pending */
    hs_live_table_sweep(t, NULL, NULL, NULL); /* thins to about half: room again */
    CU_ASSERT_FALSE(hs_live_table_thin_pending(t));
    CU_ASSERT_TRUE(hs_live_table_poll_ms(t, 0) > HS_LIVE_POLL_MIN_MS);
    hs_live_table_destroy(t);
    /* a small table: every 20 ms, as before the poll adapted */
    t = hs_live_table_create(256, 3);
    CU_ASSERT_EQUAL(hs_live_table_poll_ms(t, 0), HS_LIVE_POLL_MIN_MS);
    hs_live_table_destroy(t);
}

/* Without a sweep, each further raise waits for half the remaining free space to go:
 * free <= 128 raises to 1, free <= 64 to 2, free <= 32 to 3. The sweep then thins
 * level-0 entries by all three levels at once (keep 1/8, sigma = sqrt(n * 1/8 * 7/8)). */
static void test_inserters_raise_again_without_sweep(void) {
    enum { CAP = 1024 };
    hs_live_table *t = hs_live_table_create(CAP, 8);
    uint64_t rng = 88;
    uint32_t stored = 0;
    uint32_t level_at[CAP + 1];
    for (uint32_t i = 0; stored < CAP - 20 && i < 100000; i++) {
        if (insert_fake(t, &rng, stored, HS_WEIGHT_ONE, 0) < 0) continue;
        stored++;
        level_at[stored] = level(t);
    }
    CU_ASSERT_EQUAL(stored, CAP - 20);
    CU_ASSERT_EQUAL(level_at[CAP - 129], 0);
    CU_ASSERT_EQUAL(level_at[CAP - 128], 1);
    CU_ASSERT_EQUAL(level_at[CAP - 65], 1);
    CU_ASSERT_EQUAL(level_at[CAP - 64], 2);
    CU_ASSERT_EQUAL(level_at[CAP - 33], 2);
    CU_ASSERT_EQUAL(level_at[CAP - 32], 3);
    CU_ASSERT_EQUAL(level_at[CAP - 20], 3);
    hs_live_table_sweep(t, NULL, NULL, NULL);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.min_level, 3);
    CU_ASSERT_EQUAL(s.max_level, 3);
    double mean = stored / 8.0, sigma = sqrt(stored * (1.0 / 8) * (7.0 / 8));
    CU_ASSERT_TRUE(fabs((double)s.entries - mean) <= SIGMAS * sigma);
    /* about 125 entries left is under 1/4 full: the level steps back to 2 */
    CU_ASSERT_EQUAL(level(t), 2);
    hs_live_table_destroy(t);
}

/* A sweep that removes dead entries and still finds the table over 7/8 raises the level
 * and thins at once. */
static hs_live_action remove_none(const hs_live_entry *e, void *ctx) {
    (void)e;
    (void)ctx;
    return HS_LIVE_KEEP;
}

static void test_sweep_thins_when_still_full(void) {
    enum { CAP = 1024, HIGH = CAP - CAP / 8 };
    hs_live_table *t = hs_live_table_create(CAP, 9);
    uint64_t rng = 99;
    /* Entries inserted at level 1 while the table is at level 0: past the mark the
     * inserter raises to 1, which these entries already have, so the sweep that applies
     * it thins nothing and must raise to 2 itself. */
    uint32_t stored = 0;
    for (uint32_t i = 0; stored < HIGH + 20 && i < 100000; i++)
        if (insert_fake(t, &rng, stored, HS_WEIGHT_ONE, 1) >= 0) stored++;
    CU_ASSERT_EQUAL(level(t), 1);
    hs_live_table_sweep(t, remove_none, NULL, NULL);
    CU_ASSERT_EQUAL(level(t), 2);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.min_level, 2);
    CU_ASSERT_TRUE(fabs((double)s.entries - stored / 2.0) <= SIGMAS * sqrt(stored) / 2);
    hs_live_table_destroy(t);
}

/* A sparse table gets its precision back: the level steps down, entries keep theirs. */
static void test_level_lowers_when_sparse(void) {
    hs_live_table *t = hs_live_table_create(1024, 4);
    uint64_t rng = 44;
    for (uint32_t i = 0; i < 10; i++) CU_ASSERT_TRUE(insert_fake(t, &rng, i, HS_WEIGHT_ONE, 3) >= 0);
    CU_ASSERT_TRUE(hs_live_table_request_raise(t));
    CU_ASSERT_EQUAL(level(t), 1);
    hs_live_table_sweep(t, NULL, NULL, NULL); /* applies level 1, then lowers back */
    CU_ASSERT_EQUAL(level(t), 0);
    table_sum s = sum_table(t);
    CU_ASSERT_EQUAL(s.entries, 10);
    CU_ASSERT_EQUAL(s.min_level, 3);
    CU_ASSERT_EQUAL(s.weight_fp, 10 * 8 * HS_WEIGHT_ONE);
    hs_live_table_sweep(t, NULL, NULL, NULL);
    CU_ASSERT_EQUAL(level(t), 0); /* never below 0 */
    hs_live_table_destroy(t);
}

/* --- 8 inserters and 1 sweeper ----------------------------------------------------- */

enum { THREADS = 8, PER_THREAD = 40000, OBJECTS = THREADS * PER_THREAD, CONC_CAP = 4096 };

/* One record per attempted sample; a ref is the address of its record. */
typedef struct {
    _Atomic int dead;     /* set by the inserter after the insert, for half the objects */
    _Atomic int inserted; /* the insert succeeded */
    _Atomic int removed;  /* times the sweeper removed it as dead */
    _Atomic int thinned;  /* times it was dropped by thinning */
    int present;          /* times the final scan saw it */
} object_record;

typedef struct {
    hs_live_table *table;
    object_record *objects;
    _Atomic int inserters_running;
    _Atomic uint64_t rejected, failed, inserted;
    _Atomic uint64_t live_weight_lost_fp; /* weight of admitted live samples that found no slot */
    _Atomic uint64_t live_attempts;
    _Atomic uint32_t bad_fields;
    uint32_t max_level; /* sweeper thread only */
    uint64_t sweeps;
} concurrent_state;

typedef struct {
    concurrent_state *state;
    uint32_t thread;
} inserter_arg;

static uint32_t record_index(const concurrent_state *cs, const void *ref) {
    return (uint32_t)((const object_record *)ref - cs->objects);
}

static void *inserter_main(void *arg) {
    inserter_arg *a = arg;
    concurrent_state *cs = a->state;
    uint64_t rng = 1000 + a->thread;
    for (uint32_t j = 0; j < PER_THREAD; j++) {
        /* On a 2-core machine 8 busy inserters would finish before the sweeper got a
         * turn: yielding now and then makes inserts and sweeps really interleave. */
        if (j % 64 == 0) sched_yield();
        uint32_t id = a->thread * PER_THREAD + j;
        uint64_t r = hs_random_next(&rng);
        bool dies = (r >> 20) & 1; /* independent of the admission (top) bits */
        if (!dies) atomic_fetch_add(&cs->live_attempts, 1);
        uint8_t lvl;
        if (!hs_live_table_admit(cs->table, r, &lvl)) {
            atomic_fetch_add(&cs->rejected, 1);
            continue;
        }
        int64_t slot = hs_live_table_insert(cs->table, r, &cs->objects[id], id % 97, (uint16_t)id,
                                            (hs_live_birth){.epoch = id, .seconds = ~id},
                                            HS_WEIGHT_ONE, lvl);
        if (slot < 0) {
            atomic_fetch_add(&cs->failed, 1);
            if (!dies) atomic_fetch_add(&cs->live_weight_lost_fp, HS_WEIGHT_ONE << lvl);
            continue;
        }
        atomic_fetch_add(&cs->inserted, 1);
        atomic_store(&cs->objects[id].inserted, 1);
        if (dies) atomic_store(&cs->objects[id].dead, 1);
    }
    atomic_fetch_sub(&cs->inserters_running, 1); /* the last one out stops the sweeper */
    return NULL;
}

static void sum_weight(const hs_live_entry *e, void *ctx) { *(uint64_t *)ctx += e->weight_fp; }

static void check_fields(concurrent_state *cs, const hs_live_entry *e) {
    uint32_t id = record_index(cs, e->ref);
    if (id >= OBJECTS || e->bucket != id % 97 || e->tag != (uint16_t)id || e->epoch != id || e->seconds != ~id ||
        e->weight_fp != (HS_WEIGHT_ONE << e->level))
        atomic_fetch_add(&cs->bad_fields, 1);
}

static hs_live_action visit_dead(const hs_live_entry *e, void *ctx) {
    concurrent_state *cs = ctx;
    check_fields(cs, e);
    object_record *o = &cs->objects[record_index(cs, e->ref)];
    if (!atomic_load(&o->dead)) return HS_LIVE_KEEP;
    atomic_fetch_add(&o->removed, 1);
    return HS_LIVE_REMOVE;
}

static void drop_thinned(const hs_live_entry *e, void *ctx) {
    concurrent_state *cs = ctx;
    check_fields(cs, e);
    atomic_fetch_add(&cs->objects[record_index(cs, e->ref)].thinned, 1);
}

static void count_present(const hs_live_entry *e, void *ctx) {
    concurrent_state *cs = ctx;
    check_fields(cs, e);
    cs->objects[record_index(cs, e->ref)].present++;
}

static void sweep_once(concurrent_state *cs) {
    hs_live_table_sweep(cs->table, visit_dead, drop_thinned, cs);
    uint32_t l = level(cs->table);
    if (l > cs->max_level) cs->max_level = l;
    cs->sweeps++;
}

static void *sweeper_main(void *arg) {
    concurrent_state *cs = arg;
    while (atomic_load(&cs->inserters_running) > 0) sweep_once(cs);
    return NULL;
}

static void test_concurrent_inserters_and_sweeper(void) {
    concurrent_state *cs = calloc(1, sizeof *cs);
    cs->objects = calloc(OBJECTS, sizeof *cs->objects);
    cs->table = hs_live_table_create(CONC_CAP, 123);
    atomic_store(&cs->inserters_running, THREADS);

    /* Inserters and sweeper begin together; the sweeper, joined first, runs until the
     * last inserter has finished. */
    thread_group group;
    thread_group_init(&group, THREADS + 1);
    thread_group_start(&group, sweeper_main, cs);
    inserter_arg args[THREADS];
    for (uint32_t i = 0; i < THREADS; i++) {
        args[i] = (inserter_arg){cs, i};
        thread_group_start(&group, inserter_main, &args[i]);
    }
    thread_group_join(&group);
    sweep_once(cs); /* every dead object is marked now: this removes all of them */
    hs_live_table_each(cs->table, count_present, cs);

    /* Every inserted entry went exactly one way; nothing else was ever seen. */
    uint32_t lost = 0, twice = 0, ghosts = 0, dead_present = 0, present = 0;
    uint64_t removed = 0, thinned = 0, inserted = 0;
    for (uint32_t id = 0; id < OBJECTS; id++) {
        object_record *o = &cs->objects[id];
        int ways = atomic_load(&o->removed) + atomic_load(&o->thinned) + o->present;
        if (atomic_load(&o->inserted)) {
            inserted++;
            if (ways == 0) lost++;
            if (ways > 1) twice++;
        } else if (ways != 0) {
            ghosts++;
        }
        if (o->present && atomic_load(&o->dead)) dead_present++;
        removed += atomic_load(&o->removed);
        thinned += atomic_load(&o->thinned);
        present += o->present;
    }
    CU_ASSERT_EQUAL(lost, 0);
    CU_ASSERT_EQUAL(twice, 0);
    CU_ASSERT_EQUAL(ghosts, 0);
    CU_ASSERT_EQUAL(dead_present, 0);
    CU_ASSERT_EQUAL(atomic_load(&cs->bad_fields), 0);

    hs_live_stats st;
    hs_live_table_stats(cs->table, &st);
    CU_ASSERT_EQUAL(st.inserted, inserted);
    CU_ASSERT_EQUAL(st.inserted, atomic_load(&cs->inserted));
    CU_ASSERT_EQUAL(st.removed, removed);
    CU_ASSERT_EQUAL(st.thinned, thinned);
    CU_ASSERT_EQUAL(st.occupancy, present);
    CU_ASSERT_EQUAL(st.occupancy, st.inserted - st.removed - st.thinned);
    CU_ASSERT_EQUAL(st.failed, atomic_load(&cs->failed));
    CU_ASSERT_EQUAL(st.rejected, atomic_load(&cs->rejected));
    CU_ASSERT_EQUAL(st.inserted + st.failed + st.rejected, OBJECTS);
    /* ~80,000 live samples in 4,096 slots: thinning must have happened */
    CU_ASSERT_TRUE(cs->max_level >= 3);
    CU_ASSERT_TRUE(st.thinned > 0);

    /* Unbiased: the live entries' weight estimates the live samples. Each live sample's
     * final weight is 2^l with probability 2^-l for the level l it ended up judged at
     * (variance 2^l - 1 <= 2^max), minus what found no slot (counted exactly). */
    uint64_t weight_fp = 0;
    hs_live_table_each(cs->table, sum_weight, &weight_fp);
    double live = (double)atomic_load(&cs->live_attempts);
    double expected = live - (double)atomic_load(&cs->live_weight_lost_fp) / HS_WEIGHT_ONE;
    double sigma = sqrt(live * ldexp(1.0, (int)cs->max_level + 1));
    double estimate = (double)weight_fp / HS_WEIGHT_ONE;
    CU_ASSERT_TRUE(fabs(estimate - expected) <= SIGMAS * sigma);

    hs_live_table_clear(cs->table, NULL, NULL);
    CU_ASSERT_EQUAL(occupancy(cs->table), 0);
    hs_live_table_destroy(cs->table);
    free(cs->objects);
    free(cs);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"create rejects zero capacity", test_create_rejects_zero_capacity},
        {"insert then each sees fields", test_insert_then_each_sees_fields},
        {"sweep removes what the visitor says", test_sweep_removes_what_visitor_says},
        {"full table fails and counts", test_full_table_fails_and_counts},
        {"inserts stay in a window while sparse", test_inserts_stay_in_a_window_while_sparse},
        {"admit probability is 2^-L", test_admit_probability},
        {"thinning halves and preserves weight", test_thinning_halves_and_preserves_weight},
        {"thinning mixed levels", test_thinning_mixed_levels},
        {"inserter raises at high water", test_inserter_raises_at_high_water},
        {"inserters raise again without a sweep", test_inserters_raise_again_without_sweep},
        {"sweep thins when still full", test_sweep_thins_when_still_full},
        {"poll period follows the headroom", test_poll_period_follows_the_headroom},
        {"level lowers when sparse", test_level_lowers_when_sparse},
        {"8 inserters and a sweeper", test_concurrent_inserters_and_sweeper},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("live_table", tests);
}
