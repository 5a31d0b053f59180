/* throttle.c: the rate cap: windows, population estimate, per-window budgets, unbiased
 * weights (see throttle.h for the design and its guarantees).
 *
 * Layout: the published window (sequence, bounds, probability, weight, budget) sits on a
 * read-mostly cache line, written only at rotation. The window word (window id << 32 |
 * samples kept) is the only line written by the threads, and only by candidates. Offered
 * samples are counted in stripes, one cache line each, a thread always in the same one.
 * Everything below "rotator state" is touched only by the thread holding `rotating`. */
#include "throttle.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "sample_table.h"

#define EWMA_ALPHA (1.0 / HS_THROTTLE_WINDOWS) /* about one period of memory */

typedef struct {
    _Alignas(64) _Atomic uint64_t offered;
} stripe;

struct hs_throttle {
    /* The published window (read-mostly). seq is even when stable, odd while rotating. */
    _Alignas(64) _Atomic uint64_t seq;
    _Atomic int64_t start_ns;
    _Atomic int64_t end_ns;
    _Atomic uint64_t p_bits;    /* double */
    _Atomic uint64_t weight_fp;
    _Atomic uint32_t budget;

    /* Written by candidates: (window id << 32) | kept in that window. */
    _Alignas(64) _Atomic uint64_t window_word;

    /* Counters for stats, written at rotation only. */
    _Alignas(64) _Atomic uint64_t kept_total;   /* in completed windows */
    _Atomic uint64_t windows;
    _Atomic uint64_t windows_capped;
    _Atomic uint64_t weight_total_fp;          /* of completed windows */
    _Atomic uint64_t ewma_bits;                /* double, for stats */
    _Atomic int64_t rate;                      /* current, for stats */
    _Atomic int64_t period_ns;
    _Atomic int64_t pending_rate;              /* set_rate: applied at the next rotation */
    _Atomic int64_t pending_period_ns;
    atomic_flag rotating;

    /* Rotator state (under `rotating`). */
    uint32_t windows_per_period;
    int64_t window_ns;
    uint32_t window_index;    /* in the period */
    uint64_t kept_in_period;  /* in the period's completed windows */
    uint64_t offered_seen;    /* stripes' sum at the last rotation */
    double ewma;              /* samples offered per window */
    bool have_ewma;
    double deficit;           /* samples offered minus weights handed out, JVM samples */

    int64_t created_ns;
    uint64_t seed;
    _Atomic uint32_t next_thread;
    stripe stripes[HS_THROTTLE_STRIPES];
};

static uint64_t double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double bits_double(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t sum_offered(hs_throttle *t) {
    uint64_t sum = 0;
    for (int i = 0; i < HS_THROTTLE_STRIPES; i++)
        sum += atomic_load_explicit(&t->stripes[i].offered, memory_order_relaxed);
    return sum;
}

/* Rates below one sample per window get a single window per period. */
static uint32_t windows_per_period(int64_t rate) {
    return rate >= HS_THROTTLE_WINDOWS ? HS_THROTTLE_WINDOWS : 1;
}

static void set_period(hs_throttle *t, int64_t rate, int64_t period_ns) {
    atomic_store(&t->rate, rate);
    atomic_store(&t->period_ns, period_ns);
    t->windows_per_period = windows_per_period(rate);
    t->window_ns = period_ns / t->windows_per_period;
    if (t->window_ns < 1) t->window_ns = 1;
}

/* What window `index` of the period may keep: the period's budget up to its end, minus
 * what the period kept already (the unused budget of earlier windows carries over). */
static uint32_t window_budget(const hs_throttle *t, int64_t rate) {
    uint64_t allowed = (uint64_t)rate * (t->window_index + 1) / t->windows_per_period;
    uint64_t left = allowed > t->kept_in_period ? allowed - t->kept_in_period : 0;
    return left > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)left;
}

/* Publishes a window's parameters; the caller made seq odd and makes it even after. */
static void publish(hs_throttle *t, int64_t now_ns, double p, uint64_t weight_fp, uint32_t budget) {
    atomic_store_explicit(&t->p_bits, double_bits(p), memory_order_relaxed);
    atomic_store_explicit(&t->weight_fp, weight_fp, memory_order_relaxed);
    atomic_store_explicit(&t->budget, budget, memory_order_relaxed);
    atomic_store_explicit(&t->start_ns, now_ns, memory_order_relaxed);
    atomic_store_explicit(&t->end_ns, now_ns + t->window_ns, memory_order_relaxed);
}

hs_throttle *hs_throttle_create(int64_t rate, int64_t period_ns, uint64_t seed, int64_t now_ns) {
    if (rate <= 0 || period_ns <= 0) return NULL;
    hs_throttle *t = aligned_alloc(64, sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    atomic_flag_clear(&t->rotating);
    t->seed = seed;
    t->created_ns = now_ns;
    set_period(t, rate, period_ns);
    /* The first window knows no population yet: it keeps everything up to its budget. */
    publish(t, now_ns, 1.0, HS_WEIGHT_ONE, window_budget(t, rate));
    atomic_store(&t->window_word, (uint64_t)1 << 32);
    atomic_store_explicit(&t->seq, 2, memory_order_release); /* window id 1 */
    return t;
}

void hs_throttle_destroy(hs_throttle *t) { free(t); }

void hs_throttle_set_rate(hs_throttle *t, int64_t rate, int64_t period_ns) {
    if (!t || rate <= 0 || period_ns <= 0) return;
    atomic_store(&t->pending_period_ns, period_ns);
    atomic_store(&t->pending_rate, rate);
}

/* Closes the ending window (which kept `kept` samples weighing weight_fp each, out of
 * `measured` offered over duration_ns): counters, deficit, population estimate. */
static void close_window(hs_throttle *t, uint64_t measured, uint32_t kept, uint64_t weight_fp,
                         uint32_t budget, int64_t duration_ns) {
    t->kept_in_period += kept;
    atomic_fetch_add(&t->kept_total, kept);
    atomic_fetch_add(&t->weight_total_fp, (uint64_t)kept * weight_fp);
    atomic_fetch_add(&t->windows, 1);
    if (kept >= budget && measured > kept) atomic_fetch_add(&t->windows_capped, 1);
    t->deficit += (double)measured - (double)kept * (double)weight_fp / (double)HS_WEIGHT_ONE;
    /* A window that ran long (no offers for a while, or the clock jumped ahead) is scaled
     * to a window's length; one that went backwards counts as it is. */
    double per_window = (double)measured;
    if (duration_ns > t->window_ns) per_window *= (double)t->window_ns / (double)duration_ns;
    t->ewma = t->have_ewma ? t->ewma + EWMA_ALPHA * (per_window - t->ewma) : per_window;
    t->have_ewma = true;
    atomic_store_explicit(&t->ewma_bits, double_bits(t->ewma), memory_order_relaxed);
}

/* Moves to the next window of the period, or starts a new period (after the last window,
 * at a rate change, or when the clock went backwards past the period's start). */
static void advance(hs_throttle *t, bool restart) {
    int64_t pending = atomic_exchange(&t->pending_rate, 0);
    if (pending > 0) {
        set_period(t, pending, atomic_load(&t->pending_period_ns));
        restart = true;
    }
    if (restart || t->window_index + 1 >= t->windows_per_period) {
        t->window_index = 0;
        t->kept_in_period = 0;
    } else {
        t->window_index++;
    }
}

/* The weight of a sample kept with probability p, plus its share of the deficit over the
 * samples the window is expected to keep. */
static uint64_t window_weight(const hs_throttle *t, double p, uint32_t budget) {
    if (p <= 0) return 0;
    double expected = p >= 1 ? fmin(t->ewma, budget) : budget;
    if (expected < 1) expected = 1;
    double weight = (p >= 1 ? 1.0 : 1.0 / p) + t->deficit / expected;
    if (weight <= 0) return 0;
    return p >= 1 && t->deficit == 0 ? HS_WEIGHT_ONE : (uint64_t)llround(weight * HS_WEIGHT_ONE);
}

/* Whether now_ns is before the window [start, end) by more than a window's length: the clock
 * went back. Threads read the clock before they offer, so a thread's now may lag a window a
 * rotator just opened by a little; that is not a jump. */
static bool went_back(int64_t now_ns, int64_t start, int64_t end) {
    return now_ns < start - (end - start);
}

static void rotate(hs_throttle *t, int64_t now_ns) {
    uint64_t seq = atomic_load_explicit(&t->seq, memory_order_relaxed);
    atomic_store_explicit(&t->seq, seq + 1, memory_order_relaxed); /* odd: being written */
    atomic_thread_fence(memory_order_release);
    uint64_t id = ((seq + 2) >> 1) & UINT32_MAX;
    uint64_t old = atomic_exchange(&t->window_word, id << 32); /* the old window's CASes fail now */
    uint64_t offered = sum_offered(t);
    int64_t start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    int64_t end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    close_window(t, offered - t->offered_seen, (uint32_t)old,
                 atomic_load_explicit(&t->weight_fp, memory_order_relaxed),
                 atomic_load_explicit(&t->budget, memory_order_relaxed), now_ns - start);
    t->offered_seen = offered;
    advance(t, went_back(now_ns, start, end));
    int64_t rate = atomic_load_explicit(&t->rate, memory_order_relaxed);
    uint32_t budget = window_budget(t, rate);
    double p = budget == 0 ? 0 : t->ewma <= budget ? 1.0 : budget / t->ewma;
    publish(t, now_ns, p, window_weight(t, p, budget), budget);
    atomic_store_explicit(&t->seq, seq + 2, memory_order_release);
}

/* Rotates when the window expired (or the clock went back), unless another thread is at
 * it: then this one goes on with the window it has. */
static void maybe_rotate(hs_throttle *t, int64_t now_ns) {
    int64_t end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    int64_t start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    if (now_ns < end && !went_back(now_ns, start, end)) return;
    if (atomic_flag_test_and_set_explicit(&t->rotating, memory_order_acquire)) return;
    end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    if (now_ns >= end || went_back(now_ns, start, end)) rotate(t, now_ns);
    atomic_flag_clear_explicit(&t->rotating, memory_order_release);
}

/* Offers to reject before the next candidate: geometric with parameter p, so that every
 * offer is a candidate with probability p independently of the others. */
static uint64_t draw_countdown(hs_throttle_thread *th) {
    if (th->p >= 1) return 0;
    if (th->p <= 0) return UINT64_MAX;
    double u = ((double)(hs_mix64(th->random += 0x9e3779b97f4a7c15ULL) >> 11) + 0.5) * 0x1p-53;
    double skip = floor(log(u) / log1p(-th->p));
    return skip >= 0x1p63 ? UINT64_MAX : (uint64_t)skip;
}

/* Caches the published window in the thread's state, if one is stable. */
static void load_window(hs_throttle *t, hs_throttle_thread *th) {
    uint64_t seq = atomic_load_explicit(&t->seq, memory_order_acquire);
    if (seq == th->seq || (seq & 1)) return;
    double p = bits_double(atomic_load_explicit(&t->p_bits, memory_order_relaxed));
    uint64_t weight_fp = atomic_load_explicit(&t->weight_fp, memory_order_relaxed);
    uint32_t budget = atomic_load_explicit(&t->budget, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq) return; /* torn: next time */
    *th = (hs_throttle_thread){.seq = seq, .p = p, .weight_fp = weight_fp, .budget = budget,
                               .stripe = th->stripe, .random = th->random};
    /* Memoryless: a fresh countdown under the new probability changes no offer's odds. */
    th->countdown = draw_countdown(th);
}

/* Counts a kept sample against the thread's window, unless the window is over or full. */
static bool take(hs_throttle *t, const hs_throttle_thread *th) {
    uint64_t id = (th->seq >> 1) & UINT32_MAX;
    uint64_t word = atomic_load_explicit(&t->window_word, memory_order_relaxed);
    do {
        if (word >> 32 != id || (uint32_t)word >= th->budget) return false;
    } while (!atomic_compare_exchange_weak_explicit(&t->window_word, &word, word + 1,
                                                    memory_order_relaxed, memory_order_relaxed));
    return true;
}

static void join(hs_throttle *t, hs_throttle_thread *th) {
    uint32_t n = atomic_fetch_add(&t->next_thread, 1);
    th->stripe = n % HS_THROTTLE_STRIPES + 1;
    th->random = hs_mix64(t->seed + (uint64_t)n * 0x9e3779b97f4a7c15ULL);
}

bool hs_throttle_offer(hs_throttle *t, hs_throttle_thread *th, int64_t now_ns,
                       uint64_t *weight_fp) {
    if (th->stripe == 0) join(t, th);
    maybe_rotate(t, now_ns); /* first: this offer belongs to the window that decides it */
    atomic_fetch_add_explicit(&t->stripes[th->stripe - 1].offered, 1, memory_order_relaxed);
    load_window(t, th);
    if (th->seq == 0) return false; /* never saw a stable window: rare, and counted as offered */
    if (th->countdown > 0) {
        th->countdown--;
        return false;
    }
    th->countdown = draw_countdown(th);
    if (!take(t, th)) return false;
    *weight_fp = th->weight_fp;
    return true;
}

double hs_throttle_dump_scale(hs_throttle *t) {
    if (!t) return 1.0;
    uint64_t seq;
    double weights;
    do { /* the open window's count and weight from one stable window */
        seq = atomic_load_explicit(&t->seq, memory_order_acquire);
        uint64_t open_fp = (uint64_t)(uint32_t)atomic_load(&t->window_word) * atomic_load(&t->weight_fp);
        weights = (double)(atomic_load(&t->weight_total_fp) + open_fp) / (double)HS_WEIGHT_ONE;
    } while ((seq & 1) || atomic_load_explicit(&t->seq, memory_order_acquire) != seq);
    uint64_t offered = sum_offered(t);
    return weights > 0 && offered > 0 ? (double)offered / weights : 1.0;
}

void hs_throttle_stats_read(hs_throttle *t, int64_t now_ns, hs_throttle_stats *out) {
    memset(out, 0, sizeof *out);
    if (!t) return;
    out->rate = atomic_load(&t->rate);
    out->period_ns = atomic_load(&t->period_ns);
    out->offered = sum_offered(t);
    out->kept = atomic_load(&t->kept_total) + (uint32_t)atomic_load(&t->window_word);
    out->windows = atomic_load(&t->windows);
    out->windows_capped = atomic_load(&t->windows_capped);
    out->weight_total = (double)atomic_load(&t->weight_total_fp) / (double)HS_WEIGHT_ONE;
    out->population = bits_double(atomic_load(&t->ewma_bits));
    out->probability = bits_double(atomic_load(&t->p_bits));
    out->budget = atomic_load(&t->budget);
    out->elapsed_ns = now_ns - t->created_ns;
}

size_t hs_throttle_format_status(hs_throttle *t, int64_t now_ns, char *buf, size_t len) {
    if (!t)
        return (size_t)snprintf(buf, len, "rate cap: off (rate=0): every sample the JVM takes is kept\n");
    hs_throttle_stats s;
    hs_throttle_stats_read(t, now_ns, &s);
    double seconds = s.elapsed_ns > 0 ? (double)s.elapsed_ns / 1e9 : 0;
    const char *unit = s.period_ns == INT64_C(60000000000) ? "m" : "s";
    int n = snprintf(buf, len,
                     "rate cap: rate=%lld/%s, windows of %lld ms, unused budget carried within "
                     "the period; kept samples weigh 1/p (p now %.4g, %.0f samples offered per "
                     "window)\n"
                     "rate cap: %llu samples offered, %llu kept (%.1f %%), effective rate %.1f "
                     "kept/s over %.1f s; %llu of %llu windows hit the cap\n",
                     (long long)s.rate, unit,
                     (long long)(s.period_ns / windows_per_period(s.rate) / 1000000),
                     s.probability, s.population, (unsigned long long)s.offered,
                     (unsigned long long)s.kept,
                     s.offered ? 100.0 * (double)s.kept / (double)s.offered : 100.0,
                     seconds > 0 ? (double)s.kept / seconds : 0.0, seconds,
                     (unsigned long long)s.windows_capped, (unsigned long long)s.windows);
    return n > 0 ? (size_t)n : 0;
}

void hs_throttle_status_lines(hs_throttle *t, int64_t now_ns,
                              void (*emit)(void *ctx, const char *line), void *ctx) {
    char status[1024];
    hs_throttle_format_status(t, now_ns, status, sizeof status);
    for (char *line = status, *end; (end = strchr(line, '\n')) != NULL; line = end + 1) {
        *end = '\0';
        emit(ctx, line);
    }
}
