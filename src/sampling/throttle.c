/* throttle.c: the rate cap: windows, population estimate, per-window budgets, the soft
 * cut's steps, unbiased weights (see throttle.h for the design and its guarantees).
 *
 * Layout: the published window (sequence, bounds, budget) and the level word (the
 * window's current probability) sit on a read-mostly cache line, written at rotation and
 * at a step down. The window word (window id << 32 | samples kept) and the weight sum are
 * the only line written by the threads, and only for kept samples. Offered samples are
 * counted in stripes, one cache line each, a thread always in the same one. Everything
 * below "rotator state" is touched only by the thread holding `rotating`. */
#include "throttle.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "sample_table.h"

#define EWMA_ALPHA (1.0 / HS_THROTTLE_WINDOWS) /* about one period of memory */
#define P_MIN 1e-12 /* keeps 1/p in range of the weights' fixed point */
/* The clock's resolution as a fraction of a window, for projections: the coarse clock
 * ticks every 4 ms (CONFIG_HZ=250), 1/50 of a 200 ms window. */
#define CLOCK_SLICES 50
/* Checks of the probability per window: every 20 ms of a 200 ms window. */
#define CHECKS 10
#define FIRST_LATE_STEP 2 /* see step_for */

typedef struct {
    _Alignas(64) _Atomic uint64_t offered;
} stripe;

struct hs_throttle {
    /* The published window (read-mostly). seq is even when stable, odd while rotating. */
    _Alignas(64) _Atomic uint64_t seq;
    _Atomic int64_t start_ns;
    _Atomic int64_t end_ns;
    _Atomic uint32_t budget;
    _Atomic uint64_t offered_at_start; /* the stripes' sum when the window opened */
    _Atomic uint64_t level;            /* see make_level */
    _Atomic int64_t check_ns;          /* the check before the last one ... */
    _Atomic uint64_t offered_at_check; /* ... and the stripes' sum then: rates are measured
                                        * from there, over two checks' time */
    _Atomic int64_t next_check_ns;

    /* Written for kept samples: (window id << 32) | kept in that window; the weights. */
    _Alignas(64) _Atomic uint64_t window_word;
    _Atomic uint64_t weight_total_fp;
    _Atomic uint64_t weight_squares_bits; /* double: the kept samples' weights squared */
    _Atomic uint64_t refused;

    /* Counters for stats, written at rotation only. */
    _Alignas(64) _Atomic uint64_t kept_total;   /* in completed windows */
    _Atomic uint64_t windows;
    _Atomic uint64_t windows_stepped;
    _Atomic uint64_t ewma_bits;                /* double, for stats */
    _Atomic uint64_t lowest_p_bits;            /* double: the lowest probability published */
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
    double ewma;              /* samples offered per window */
    int64_t last_check_ns;    /* the last check, and the stripes' sum then */
    uint64_t offered_at_last_check;
    bool have_ewma;

    int64_t created_ns;
    uint64_t seed;
    _Atomic uint32_t next_thread;
    stripe stripes[HS_THROTTLE_STRIPES];
};

/* The level word: which window and step a probability belongs to, and the probability,
 * as a float so the three fit one atomic word: (window id mod 2^24) << 40 | step << 32 |
 * the float's bits. A thread's decision and its sample's weight use the same float. */
static uint64_t make_level(uint64_t window_id, uint32_t step, double p) {
    float f = (float)fmax(P_MIN, fmin(1.0, p));
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return (window_id & 0xffffff) << 40 | (uint64_t)(step & 0xff) << 32 | bits;
}

static double level_p(uint64_t level) {
    uint32_t bits = (uint32_t)level;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint32_t level_step(uint64_t level) { return (uint32_t)(level >> 32) & 0xff; }
static uint64_t level_window(uint64_t level) { return level >> 40; }

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
 * what the period kept already (the unused budget of earlier windows carries over). Never
 * less than the window's own share, as a window keeps at most its budget. */
static uint32_t window_budget(const hs_throttle *t, int64_t rate) {
    uint64_t allowed = (uint64_t)rate * (t->window_index + 1) / t->windows_per_period;
    uint64_t left = allowed > t->kept_in_period ? allowed - t->kept_in_period : 0;
    return left > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)left;
}

/* The window's opening probability: half its budget over the population expected. */
static double opening_p(const hs_throttle *t, uint32_t budget) {
    if (!t->have_ewma) return 1.0; /* nothing known yet: the steps take care of a burst */
    double aim = budget / 2.0;
    return t->ewma <= aim ? 1.0 : aim / t->ewma;
}

/* Keeps the lowest probability ever published (for stats: it bounds every weight). */
static void note_lowest(hs_throttle *t, uint64_t level) {
    double p = level_p(level);
    uint64_t seen = atomic_load_explicit(&t->lowest_p_bits, memory_order_relaxed);
    while (p < bits_double(seen) &&
           !atomic_compare_exchange_weak_explicit(&t->lowest_p_bits, &seen, double_bits(p),
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* Records a check of the window's probability at now_ns, and schedules the next one. */
static void note_check(hs_throttle *t, int64_t now_ns, uint64_t offered) {
    atomic_store_explicit(&t->check_ns, t->last_check_ns, memory_order_relaxed);
    atomic_store_explicit(&t->offered_at_check, t->offered_at_last_check, memory_order_relaxed);
    t->last_check_ns = now_ns;
    t->offered_at_last_check = offered;
    int64_t gap = t->window_ns / CHECKS > 0 ? t->window_ns / CHECKS : 1;
    atomic_store_explicit(&t->next_check_ns, now_ns + gap, memory_order_relaxed);
}

/* Publishes a window's parameters; the caller made seq odd and makes it even after. */
static void publish(hs_throttle *t, int64_t now_ns, uint64_t window_id, uint32_t budget,
                    uint64_t offered) {
    atomic_store_explicit(&t->budget, budget, memory_order_relaxed);
    atomic_store_explicit(&t->start_ns, now_ns, memory_order_relaxed);
    atomic_store_explicit(&t->end_ns, now_ns + t->window_ns, memory_order_relaxed);
    atomic_store_explicit(&t->offered_at_start, offered, memory_order_relaxed);
    uint64_t level = make_level(window_id, 0, opening_p(t, budget));
    atomic_store_explicit(&t->level, level, memory_order_relaxed);
    note_lowest(t, level);
    note_check(t, now_ns, offered);
}

hs_throttle *hs_throttle_create(int64_t rate, int64_t period_ns, uint64_t seed, int64_t now_ns) {
    if (rate <= 0 || period_ns <= 0) return NULL;
    hs_throttle *t = aligned_alloc(64, sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    atomic_flag_clear(&t->rotating);
    atomic_store(&t->lowest_p_bits, double_bits(1.0));
    t->last_check_ns = now_ns;
    t->seed = seed;
    t->created_ns = now_ns;
    set_period(t, rate, period_ns);
    publish(t, now_ns, 1, window_budget(t, rate), 0);
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

/* Closes the ending window (which kept `kept` samples out of `measured` offered over
 * duration_ns): counters and the population estimate. */
static void close_window(hs_throttle *t, uint64_t measured, uint32_t kept, bool stepped,
                         int64_t duration_ns) {
    t->kept_in_period += kept;
    atomic_fetch_add(&t->kept_total, kept);
    atomic_fetch_add(&t->windows, 1);
    if (stepped) atomic_fetch_add(&t->windows_stepped, 1);
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
    uint64_t since = atomic_load_explicit(&t->offered_at_start, memory_order_relaxed);
    bool stepped = level_step(atomic_load_explicit(&t->level, memory_order_relaxed)) >= FIRST_LATE_STEP;
    close_window(t, offered - since, (uint32_t)old, stepped, now_ns - start);
    advance(t, went_back(now_ns, start, end));
    publish(t, now_ns, id, window_budget(t, atomic_load_explicit(&t->rate, memory_order_relaxed)),
            offered);
    atomic_store_explicit(&t->seq, seq + 2, memory_order_release);
}

/* ---- Checks and steps: the window's probability on its way ----------------------- */

/* The offers the rest of the window is expected to bring: the rate since the last check
 * (over the clock's tick at least) times the time left (a tick at least). *left_fraction:
 * the share of the window still to come. */
static double expected_rest(hs_throttle *t, int64_t now_ns, double *left_fraction) {
    int64_t start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    int64_t end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    int64_t tick = (end - start) / CLOCK_SLICES > 0 ? (end - start) / CLOCK_SLICES : 1;
    int64_t since = now_ns - atomic_load_explicit(&t->check_ns, memory_order_relaxed);
    int64_t left = end - now_ns;
    if (left < tick) left = tick;
    if (since < tick) since = tick;
    *left_fraction = fmin(1.0, (double)left / (double)(end - start > 0 ? end - start : 1));
    uint64_t at_check = atomic_load_explicit(&t->offered_at_check, memory_order_relaxed);
    uint64_t offered = sum_offered(t);
    double recent = offered > at_check ? (double)(offered - at_check) : 1.0;
    double expected = recent * (double)left / (double)since;
    return expected > 1 ? expected : 1;
}

/* The probability that brings a window with `kept` of its budget used to its aim, half
 * the budget, over the offers expected in the time left. A window past its aim (the
 * population outran the estimates) aims at half of the budget left, pro rata of the time
 * left: it slows down more the later it is. */
static double aimed_p(hs_throttle *t, uint32_t kept, uint32_t budget, int64_t now_ns) {
    double left_fraction, expected = expected_rest(t, now_ns, &left_fraction);
    double aim = budget / 2.0;
    double target = kept < aim ? aim - kept : (budget - kept) / 2.0 * left_fraction;
    return fmin(1.0, target / expected);
}

/* The window's samples kept so far, or UINT32_MAX if window_id is no longer open. */
static uint32_t kept_in(hs_throttle *t, uint64_t window_id) {
    uint64_t word = atomic_load_explicit(&t->window_word, memory_order_relaxed);
    return word >> 32 == window_id ? (uint32_t)word : UINT32_MAX;
}

/* A check within the window (under `rotating`): the probability that keeps the window's
 * aim, half its budget, from the window's population at the rate seen since the last
 * check; it follows the population up after a burst (and down) as the steps below follow
 * a surge down between checks. A window already past its aim is not sped up by it. */
static void check_window(hs_throttle *t, int64_t now_ns) {
    uint64_t id = (atomic_load_explicit(&t->seq, memory_order_relaxed) >> 1) & UINT32_MAX;
    uint32_t budget = atomic_load_explicit(&t->budget, memory_order_relaxed);
    uint32_t kept = kept_in(t, id);
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    if (kept < budget && level_window(level) == (id & 0xffffff)) {
        double left_fraction, rest = expected_rest(t, now_ns, &left_fraction);
        double p = fmin(1.0, budget / 2.0 / (rest / left_fraction));
        if (kept >= budget / 2.0) p = fmin(p, aimed_p(t, kept, budget, now_ns));
        uint64_t checked = make_level(id, level_step(level), p);
        /* fails if a step came in between: that one stands until the next check */
        if (atomic_compare_exchange_strong_explicit(&t->level, &level, checked,
                                                    memory_order_relaxed, memory_order_relaxed))
            note_lowest(t, checked);
    }
    note_check(t, now_ns, sum_offered(t));
}

/* Steps are marks in the window's count of kept samples. The first, at the window's aim
 * (half the budget), catches a population far above the estimate (or none known yet) with
 * half the budget left; a burst that fits in the aim is kept as the window's probability
 * says. Late ones, from three quarters on each time half of the budget left is used, close
 * in on a surge that outran the projections. */

/* The step a window is at with `kept` of its budget used (0: no mark reached). */
static uint32_t step_for(uint32_t kept, uint32_t budget) {
    uint64_t remaining = budget > kept ? budget - kept : 0;
    if (remaining == 0) return 0; /* spent: nothing left to aim at */
    uint32_t late = 0;
    while (late < 60 && (remaining << (late + 2)) <= budget) late++;
    if (late > 0) return FIRST_LATE_STEP - 1 + late;
    return (uint64_t)kept * 2 >= budget ? 1 : 0;
}

/* A step's probability: never above the one in force (a check raises it again if the
 * surge ends); a late step at least halves it, so the steps close in on a surge however
 * far the projection errs, before the budget is spent. */
static double step_p(hs_throttle *t, uint32_t step, uint32_t kept, uint32_t budget,
                     int64_t now_ns, double p_now) {
    double cap = step >= FIRST_LATE_STEP ? p_now / 2 : p_now;
    return fmin(cap, aimed_p(t, kept, budget, now_ns));
}

/* After a kept sample made the window's count `kept`: publishes the next step's
 * probability if the count crossed a mark (only the sample that crossed it gets here
 * with that count; a higher step already published is never undone). */
static void maybe_step(hs_throttle *t, uint64_t window_id, uint32_t kept, uint32_t budget,
                       int64_t now_ns) {
    uint32_t step = step_for(kept, budget);
    if (step == 0 || step_for(kept - 1, budget) == step) return;
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    while (level_window(level) == (window_id & 0xffffff) && level_step(level) < step) {
        uint64_t stepped = make_level(window_id, step,
                                      step_p(t, step, kept, budget, now_ns, level_p(level)));
        if (atomic_compare_exchange_weak_explicit(&t->level, &level, stepped,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            note_lowest(t, stepped);
            return;
        }
    }
}

/* Rotates when the window expired (or the clock went back), or checks its probability
 * when a check is due, unless another thread is at it: then this one goes on with the
 * window it has. */
static void maybe_rotate(hs_throttle *t, int64_t now_ns) {
    int64_t next = atomic_load_explicit(&t->next_check_ns, memory_order_relaxed);
    int64_t start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    int64_t end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    if (now_ns < next && now_ns < end && !went_back(now_ns, start, end)) return;
    if (atomic_flag_test_and_set_explicit(&t->rotating, memory_order_acquire)) return;
    end = atomic_load_explicit(&t->end_ns, memory_order_relaxed);
    start = atomic_load_explicit(&t->start_ns, memory_order_relaxed);
    if (now_ns >= end || went_back(now_ns, start, end))
        rotate(t, now_ns);
    else if (now_ns >= atomic_load_explicit(&t->next_check_ns, memory_order_relaxed))
        check_window(t, now_ns);
    atomic_flag_clear_explicit(&t->rotating, memory_order_release);
}

/* ---- The decision --------------------------------------------------------------------- */

/* Offers to reject before the next candidate: geometric with parameter p, so that every
 * offer is a candidate with probability p independently of the others. */
static uint64_t draw_countdown(hs_throttle_thread *th) {
    if (th->p >= 1) return 0;
    double u = ((double)(hs_mix64(th->random += 0x9e3779b97f4a7c15ULL) >> 11) + 0.5) * 0x1p-53;
    double skip = floor(log(u) / log1p(-th->p));
    return skip >= 0x1p63 ? UINT64_MAX : (uint64_t)skip;
}

/* Caches the published window's budget in the thread's state, if the window is stable. */
static void load_window(hs_throttle *t, hs_throttle_thread *th) {
    uint64_t seq = atomic_load_explicit(&t->seq, memory_order_acquire);
    if (seq == th->seq || (seq & 1)) return;
    uint32_t budget = atomic_load_explicit(&t->budget, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&t->seq, memory_order_relaxed) != seq) return; /* torn: next time */
    th->seq = seq;
    th->budget = budget;
}

/* Takes up the published probability when it changed (a new window or a step down), with
 * a fresh countdown: memoryless, so from this offer on each is a candidate with the new
 * probability, and no offer's odds depend on when the change came. */
static void load_level(hs_throttle *t, hs_throttle_thread *th) {
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    if (level == th->level) return;
    th->level = level;
    th->p = level_p(level);
    th->countdown = draw_countdown(th);
}

/* Counts a kept sample against the thread's window (the current one if the thread's went
 * by: a candidate is kept whatever window counts it), unless the budget is spent. */
static bool take(hs_throttle *t, hs_throttle_thread *th, int64_t now_ns) {
    for (int attempt = 0; attempt < 2; attempt++) {
        uint64_t id = (th->seq >> 1) & UINT32_MAX;
        uint64_t word = atomic_load_explicit(&t->window_word, memory_order_relaxed);
        while (word >> 32 == id) {
            if ((uint32_t)word >= th->budget) {
                atomic_fetch_add_explicit(&t->refused, 1, memory_order_relaxed);
                return false;
            }
            if (atomic_compare_exchange_weak_explicit(&t->window_word, &word, word + 1,
                                                      memory_order_relaxed, memory_order_relaxed)) {
                maybe_step(t, id, (uint32_t)word + 1, th->budget, now_ns);
                return true;
            }
        }
        load_window(t, th);
    }
    /* A rotation is being published right now (microseconds in a window): refused. */
    atomic_fetch_add_explicit(&t->refused, 1, memory_order_relaxed);
    return false;
}

/* Sums the kept samples' squared weights: sum(w^2) / sum(w) estimates the mean of 1/p over
 * all offers (each offer counts in expectation p * (1/p)^2 / (1/p) = 1/p), which sets the
 * variance a site spread evenly over time gets from the cap: a relative variance of
 * (mean(1/p) - 1) / (the site's offers). */
static void add_square(hs_throttle *t, double weight) {
    uint64_t bits = atomic_load_explicit(&t->weight_squares_bits, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&t->weight_squares_bits, &bits,
                                                  double_bits(bits_double(bits) + weight * weight),
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
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
    load_level(t, th);
    if (th->seq == 0) return false; /* never saw a stable window: rare, and counted as offered */
    if (th->countdown > 0) {
        th->countdown--;
        return false;
    }
    double p = th->p; /* the probability this offer was decided with */
    th->countdown = draw_countdown(th);
    if (!take(t, th, now_ns)) return false;
    *weight_fp = p >= 1 ? HS_WEIGHT_ONE : (uint64_t)llround((double)HS_WEIGHT_ONE / p);
    atomic_fetch_add_explicit(&t->weight_total_fp, *weight_fp, memory_order_relaxed);
    add_square(t, (double)*weight_fp / (double)HS_WEIGHT_ONE);
    return true;
}

double hs_throttle_dump_scale(hs_throttle *t) {
    if (!t) return 1.0;
    double weights = (double)atomic_load(&t->weight_total_fp) / (double)HS_WEIGHT_ONE;
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
    out->windows_stepped = atomic_load(&t->windows_stepped);
    out->refused = atomic_load(&t->refused);
    out->weight_total = (double)atomic_load(&t->weight_total_fp) / (double)HS_WEIGHT_ONE;
    out->population = bits_double(atomic_load(&t->ewma_bits));
    out->probability = level_p(atomic_load(&t->level));
    out->lowest_probability = bits_double(atomic_load(&t->lowest_p_bits));
    double squares = bits_double(atomic_load(&t->weight_squares_bits));
    out->mean_inverse_p = out->weight_total > 0 ? squares / out->weight_total : 1.0;
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
                     "rate cap: rate=%lld/%s, windows of %lld ms aiming at half their budget, "
                     "p stepped down when one runs ahead, unused budget carried within the "
                     "period; kept samples weigh 1/p (p now %.4g, lowest %.4g, 1/p over the "
                     "offers %.4g on average; %.0f samples offered per window)\n"
                     "rate cap: %llu samples offered, %llu kept (%.1f %%), effective rate %.1f "
                     "kept/s over %.1f s; %llu of %llu windows stepped p down, %llu candidates "
                     "refused at a spent budget\n",
                     (long long)s.rate, unit,
                     (long long)(s.period_ns / windows_per_period(s.rate) / 1000000),
                     s.probability, s.lowest_probability, s.mean_inverse_p, s.population,
                     (unsigned long long)s.offered,
                     (unsigned long long)s.kept,
                     s.offered ? 100.0 * (double)s.kept / (double)s.offered : 100.0,
                     seconds > 0 ? (double)s.kept / seconds : 0.0, seconds,
                     (unsigned long long)s.windows_stepped, (unsigned long long)s.windows,
                     (unsigned long long)s.refused);
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
