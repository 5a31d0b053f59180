/* throttle.c: the rate cap: the token bucket, the checks and steps that set p, unbiased
 * weights, and the control of the JVM's interval (see throttle.h for the design and its
 * guarantees).
 *
 * Layout: the published probability (the level word) and the check's schedule sit on a
 * read-mostly cache line, written at checks and steps. The bucket (tokens), the kept count
 * and the weight sums are the only line written by the threads, and only for kept samples.
 * Offered samples are counted in stripes, one cache line each, a thread always in the same
 * one. Everything below "checker state" is touched only by the thread holding `checking`. */
#include "sampling/throttle.h"

#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "sampling/interval_control.h"
#include "sampling/sample_table.h"
#include "sampling/survival.h"

#define P_MIN 1e-12 /* keeps 1/p in range of the weights' fixed point */
#define TOKEN (INT64_C(1) << 20) /* one sample in the bucket's fixed point */
#define HORIZON 0.25     /* periods over which the tokens above the reserve are lent out */
#define LEAST_SPEND 0.25 /* the spend rate never aims below this share of the rate */
#define EWMA_ALPHA 0.3   /* of the offer rate, per check */
/* The clock's resolution: the coarse clock ticks every 4 ms (CONFIG_HZ=250); a rate is
 * never measured over less. */
#define CLOCK_TICK_NS INT64_C(4000000)
#define CONTROL_NS INT64_C(1000000000) /* the interval control's period */
#define SURGE_NS ((int64_t)HS_INTERVAL_SURGE_MS * 1000000) /* the least of it a surge is judged on */
#define MASS_ONE 256.0 /* an offer of factor 1 in the stripes' mass */

typedef struct {
    _Alignas(64) _Atomic uint64_t offered;
    _Atomic uint64_t mass; /* the offers' factors, MASS_ONE units (throttle.h) */
} stripe;

struct hs_throttle {
    /* Read-mostly: the probability and the check's schedule. */
    _Alignas(64) _Atomic uint64_t level;   /* see make_level */
    _Atomic int64_t check_ns;              /* the last check ... */
    _Atomic int64_t next_check_ns;         /* ... and the next one */
    _Atomic uint64_t offered_at_check;     /* the stripes' sum at the last check */
    _Atomic uint64_t mass_at_check;        /* the stripes' mass then */
    _Atomic int64_t tokens_at_check;       /* the bucket just after it */
    _Atomic int64_t first_mark;            /* spent since the check that steps p down */

    /* Written for kept samples. */
    _Alignas(64) _Atomic int64_t tokens;   /* TOKEN units */
    _Atomic uint64_t kept;
    _Atomic uint64_t weight_total_fp;
    _Atomic uint64_t weight_squares_bits;  /* double: the kept samples' weights squared */
    _Atomic uint64_t refused;

    /* Counters and settings for stats, written at checks. */
    _Alignas(64) _Atomic uint64_t checks;
    _Atomic uint64_t steps;
    _Atomic uint64_t offer_rate_bits;      /* double: offers per period */
    _Atomic uint64_t lowest_p_bits;        /* double: the lowest probability published */
    _Atomic int64_t rate;
    _Atomic int64_t period_ns;
    _Atomic int64_t pending_rate;          /* set_rate: applied at the next check */
    _Atomic int64_t pending_period_ns;
    _Atomic int64_t interval;              /* the JVM's, as the control set it (0: off) */
    _Atomic uint64_t interval_changes, interval_raises;
    _Atomic int interval_error;
    _Atomic int64_t configured_interval;
    _Atomic int64_t highest_interval;
    atomic_flag checking;

    /* Checker state (under `checking`). */
    int64_t last_check_ns;
    uint64_t offered_at_last_check;
    uint64_t mass_at_last_check;
    double ewma; /* offered mass per ns */
    bool have_rate;
    int64_t control_ns;          /* the control period's start ... */
    uint64_t offered_at_control; /* ... and the stripes' sum then */
    int64_t surge_ns;            /* the surge window's start (SURGE_NS windows) ... */
    uint64_t offered_at_surge;   /* ... and the stripes' sum then */
    hs_interval_control control;
    hs_throttle_interval_hook hook; /* NULL: the interval is not controlled */
    const hs_survival *survival;    /* its selectivity sets the control's band; NULL: off */
    void *hook_ctx;

    int64_t created_ns;
    uint64_t seed;
    _Atomic uint32_t next_thread;
    stripe stripes[HS_THROTTLE_STRIPES];
};

/* The level word: a generation (bumped at every publication, so a thread sees each change)
 * and the probability as a float, in one atomic word. A thread's decision and its
 * sample's weight use the same float. */
static uint64_t make_level(uint64_t previous, double p) {
    float f = (float)fmax(P_MIN, fmin(1.0, p));
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return ((previous >> 32) + 1) << 32 | bits;
}

static double level_p(uint64_t level) {
    uint32_t bits = (uint32_t)level;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

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

/* The offers' factors summed, in offers of factor 1: what p is set against. */
static double sum_mass(hs_throttle *t) {
    uint64_t sum = 0;
    for (int i = 0; i < HS_THROTTLE_STRIPES; i++)
        sum += atomic_load_explicit(&t->stripes[i].mass, memory_order_relaxed);
    return (double)sum / MASS_ONE;
}

/* Mass in MASS_ONE units, as the stripes hold it. */
static uint64_t mass_units(double mass) { return (uint64_t)llround(mass * MASS_ONE); }

/* ---- The bucket ------------------------------------------------------------------- */

static double rate_per_ns(hs_throttle *t) {
    return (double)atomic_load_explicit(&t->rate, memory_order_relaxed) /
           (double)atomic_load_explicit(&t->period_ns, memory_order_relaxed);
}

static int64_t capacity(hs_throttle *t) {
    double c = HS_THROTTLE_DEPTH * (double)atomic_load_explicit(&t->rate, memory_order_relaxed);
    return (int64_t)(fmax(c, 1.0) * (double)TOKEN);
}

/* Samples per ns the bucket is to be spent at with `tokens` in it: the rate, plus what is
 * above the reserve over the horizon (less, below the reserve, down to LEAST_SPEND). */
static double spend_per_ns(hs_throttle *t, int64_t tokens) {
    double rate = (double)atomic_load_explicit(&t->rate, memory_order_relaxed);
    double above = (double)tokens / (double)TOKEN - HS_THROTTLE_RESERVE * rate;
    return rate_per_ns(t) * fmax(LEAST_SPEND, 1 + above / (HORIZON * rate));
}

/* Tokens above the reserve (0 below it), in samples: what the bucket may lend. */
static double loan(hs_throttle *t, int64_t tokens) {
    double rate = (double)atomic_load_explicit(&t->rate, memory_order_relaxed);
    return fmax(0.0, (double)tokens / (double)TOKEN - HS_THROTTLE_RESERVE * rate);
}

/* Adds what the rate gave over elapsed_ns, up to the capacity; returns the tokens then. */
static int64_t refill(hs_throttle *t, int64_t elapsed_ns) {
    int64_t add = (int64_t)fmin(rate_per_ns(t) * (double)elapsed_ns * (double)TOKEN, 0x1p62);
    int64_t cap = capacity(t);
    int64_t tokens = atomic_load_explicit(&t->tokens, memory_order_relaxed), next;
    do { /* above the capacity only after the rate was lowered: then down to it */
        next = tokens >= cap || add >= cap - tokens ? cap : tokens + add;
    } while (!atomic_compare_exchange_weak_explicit(&t->tokens, &tokens, next,
                                                    memory_order_relaxed, memory_order_relaxed));
    return next;
}

/* ---- Publishing p ----------------------------------------------------------------- */

/* Keeps the lowest probability ever published (for stats: it bounds every weight). */
static void note_lowest(hs_throttle *t, double p) {
    uint64_t seen = atomic_load_explicit(&t->lowest_p_bits, memory_order_relaxed);
    while (p < bits_double(seen) &&
           !atomic_compare_exchange_weak_explicit(&t->lowest_p_bits, &seen, double_bits(p),
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* Publishes p unless the level moved from `seen` meanwhile (a step or a check came in
 * between: that one stands). */
static bool publish_p(hs_throttle *t, uint64_t seen, double p) {
    uint64_t next = make_level(seen, p);
    if ((uint32_t)next == (uint32_t)seen) return true; /* the same p: no need to redraw */
    if (!atomic_compare_exchange_strong_explicit(&t->level, &seen, next, memory_order_relaxed,
                                                 memory_order_relaxed))
        return false;
    note_lowest(t, level_p(next));
    return true;
}

/* ---- Checks: the offer rate, p, the JVM's interval ---------------------------------- */

static void apply_pending_rate(hs_throttle *t) {
    int64_t rate = atomic_exchange(&t->pending_rate, 0);
    if (rate <= 0) return;
    atomic_store(&t->period_ns, atomic_load(&t->pending_period_ns));
    atomic_store(&t->rate, rate);
}

/* The offered mass per ns to set p by: from the last check to this one, or its moving
 * average if higher (a surge is followed at once, a lull after a few checks). */
static double measure_offers(hs_throttle *t, int64_t elapsed_ns, double mass) {
    double recent = (mass - (double)t->mass_at_last_check / MASS_ONE) /
                    (double)(elapsed_ns > CLOCK_TICK_NS ? elapsed_ns : CLOCK_TICK_NS);
    t->ewma = t->have_rate ? t->ewma + EWMA_ALPHA * (recent - t->ewma) : recent;
    t->have_rate = true;
    return fmax(recent, t->ewma);
}

/* Whether the offers come at no more than `spend` per ns in number (their mass rate is
 * `offers`): then all are kept, whatever their factors (p = spend / mass, with factors
 * above 1, would drop some of a program offering fewer than the rate). The count's share
 * of the mass is the last gap's. */
static bool fewer_than(hs_throttle *t, uint64_t offered, double mass, double offers, double spend) {
    double gap_mass = mass - (double)t->mass_at_last_check / MASS_ONE;
    double gap_count = (double)(offered - t->offered_at_last_check);
    double share = gap_mass > 0 ? fmin(1.0, gap_count / gap_mass) : 1.0;
    return offers * share <= spend;
}

/* Sets the interval the control decided, through the hook; false when nothing changed or
 * the JVM refused (the control then stops, the cap goes on). */
static bool apply_interval(hs_throttle *t, int64_t next) {
    if (next == t->control.current) return false;
    int err = t->hook(t->hook_ctx, next);
    if (err != 0) {
        atomic_store(&t->interval_error, err);
        t->hook = NULL;
        return false;
    }
    hs_interval_control_applied(&t->control, next);
    atomic_store(&t->interval, next);
    if (next > atomic_load(&t->highest_interval)) atomic_store(&t->highest_interval, next);
    atomic_store(&t->interval_changes, t->control.changes);
    atomic_store(&t->interval_raises, t->control.raised);
    return true;
}

/* Starts a control period (and a surge window) at now. */
static void restart_control(hs_throttle *t, int64_t now_ns, uint64_t offered) {
    t->control_ns = t->surge_ns = now_ns;
    t->offered_at_control = t->offered_at_surge = offered;
}

/* The control's decision on the JVM's interval: once a control period, or sooner for a
 * surge (interval_control.h), judged on the last SURGE_NS window alone (a program that
 * starts allocating at full speed late in a period is not averaged with its quiet start);
 * a change is applied through the hook and starts a new period. Returns the factor the
 * offers change by (old / new interval: small objects' offers in proportion), so that p
 * follows at once; 1 when nothing changed. */
static double control_interval(hs_throttle *t, int64_t now_ns, uint64_t offered) {
    int64_t elapsed = now_ns - t->control_ns, window = now_ns - t->surge_ns;
    if (!t->hook || window < SURGE_NS) return 1;
    double rate = (double)atomic_load(&t->rate) / ((double)atomic_load(&t->period_ns) / 1e9);
    double selectivity = hs_survival_selectivity(t->survival);
    int64_t old = t->control.current, next;
    if (elapsed < CONTROL_NS) {
        double recent = (double)(offered - t->offered_at_surge) / ((double)window / 1e9);
        t->surge_ns = now_ns;
        t->offered_at_surge = offered;
        next = hs_interval_control_surge(&t->control, recent, rate, selectivity);
        if (next == old) return 1;
    } else {
        double offers = (double)(offered - t->offered_at_control) / ((double)elapsed / 1e9);
        next = hs_interval_control_decide(&t->control, offers, rate, selectivity);
    }
    restart_control(t, now_ns, offered);
    if (!apply_interval(t, next)) return 1;
    t->ewma *= (double)old / (double)next;
    return (double)old / (double)next;
}

/* Where the steps come in until the next check: at twice the tokens planned to be spent
 * at `spend` per ns over a check's gap (at least 2), then 4, 8... times (see stage). */
static void set_marks(hs_throttle *t, double spend, int64_t tokens) {
    int64_t gap = atomic_load(&t->period_ns) / HS_THROTTLE_CHECKS;
    double planned = spend * (double)(gap > 0 ? gap : 1) * (double)TOKEN;
    atomic_store_explicit(&t->first_mark, (int64_t)fmax(2 * planned, 2.0 * TOKEN),
                          memory_order_relaxed);
    atomic_store_explicit(&t->tokens_at_check, tokens, memory_order_relaxed);
}

/* Under `checking`: refills the bucket, measures the offers, sets p, and marks where the
 * steps come in before the next check. */
static void check(hs_throttle *t, int64_t now_ns) {
    int64_t elapsed = now_ns - t->last_check_ns;
    /* A time a little before the last check is a stale reading (a thread held up between
     * reading the clock and offering): skip it, or the next check would refill the bucket
     * again for time already refilled. Only a jump back of a period or more restarts. */
    if (elapsed < 0 && -elapsed < atomic_load(&t->period_ns)) return;
    apply_pending_rate(t);
    uint64_t offered = sum_offered(t);
    double mass = sum_mass(t);
    if (elapsed < 0) { /* the clock went back: start over from here */
        elapsed = 0;
        restart_control(t, now_ns, offered);
    }
    int64_t tokens = refill(t, elapsed);
    double offers = measure_offers(t, elapsed, mass);
    offers = fmax(offers * control_interval(t, now_ns, offered), 1e-18);
    double spend = spend_per_ns(t, tokens);
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    bool keep_all = spend >= offers || fewer_than(t, offered, mass, offers, spend);
    publish_p(t, level, keep_all ? 1 : spend / offers);
    set_marks(t, spend, tokens);
    int64_t gap = atomic_load(&t->period_ns) / HS_THROTTLE_CHECKS;
    atomic_store_explicit(&t->offered_at_check, offered, memory_order_relaxed);
    atomic_store_explicit(&t->mass_at_check, mass_units(mass), memory_order_relaxed);
    atomic_store_explicit(&t->check_ns, now_ns, memory_order_relaxed);
    atomic_store_explicit(&t->next_check_ns, now_ns + (gap > 0 ? gap : 1), memory_order_relaxed);
    atomic_store_explicit(&t->offer_rate_bits,
                          double_bits(offers * (double)atomic_load(&t->period_ns)),
                          memory_order_relaxed);
    atomic_fetch_add_explicit(&t->checks, 1, memory_order_relaxed);
    t->last_check_ns = now_ns;
    t->offered_at_last_check = offered;
    t->mass_at_last_check = mass_units(mass);
}

/* Checks when one is due (or the clock went back), unless another thread is at it: then
 * this one goes on with the p it has. */
static void maybe_check(hs_throttle *t, int64_t now_ns) {
    if (now_ns < atomic_load_explicit(&t->next_check_ns, memory_order_relaxed) &&
        now_ns >= atomic_load_explicit(&t->check_ns, memory_order_relaxed))
        return;
    if (atomic_flag_test_and_set_explicit(&t->checking, memory_order_acquire)) return;
    if (now_ns >= atomic_load_explicit(&t->next_check_ns, memory_order_relaxed) ||
        now_ns < t->last_check_ns)
        check(t, now_ns);
    atomic_flag_clear_explicit(&t->checking, memory_order_release);
}

/* ---- Steps: a surge between checks -------------------------------------------------- */

/* Marks in the tokens spent since the last check: at twice what the check planned, then
 * at 4, 8, 16... times; and wherever the bucket falls to a half, a quarter, an eighth...
 * of what it held at the check (so marks keep coming however the first was placed, until
 * the bucket is empty). The stage a spend is at (0: below every mark). */
static int stage(int64_t spent, int64_t first_mark, int64_t at_check) {
    int s = 0;
    for (int64_t mark = first_mark; spent >= mark && s < 62; mark *= 2) s++;
    for (int64_t left = at_check / 2; left >= TOKEN && at_check - spent < left; left /= 2) s++;
    return s;
}

/* After a kept sample took the bucket to `tokens`: if that crossed a mark, p steps down.
 * Above the reserve, to the larger of the spend rate over the offers seen since the check
 * and the loan left over those offers: a burst shorter than a gap, judged by its rate over
 * the lending horizon, would be kept as if it were to last that long (a 20 MB set built
 * in 10 ms at startup was kept at p = 0.047, its loan unspent); a burst that has offered
 * m so far is taken to offer about m more, and the loan left is spread over them. At the
 * reserve, to at most half, and to the spend rate over the offers since the check. */
static void maybe_step(hs_throttle *t, int64_t tokens, int64_t now_ns) {
    int64_t first = atomic_load_explicit(&t->first_mark, memory_order_relaxed);
    int64_t at_check = atomic_load_explicit(&t->tokens_at_check, memory_order_relaxed);
    int64_t spent = at_check - tokens;
    if (first <= 0 || stage(spent, first, at_check) == stage(spent - TOKEN, first, at_check))
        return;
    int64_t since = now_ns - atomic_load_explicit(&t->check_ns, memory_order_relaxed);
    double mass = sum_mass(t) - (double)atomic_load_explicit(&t->mass_at_check,
                                                             memory_order_relaxed) / MASS_ONE;
    mass = fmax(mass, 1.0);
    double offers = mass / (double)(since > CLOCK_TICK_NS ? since : CLOCK_TICK_NS);
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    double by_rate = spend_per_ns(t, tokens) / fmax(offers, 1e-18);
    double lend = loan(t, tokens);
    double p = lend > 0 ? fmin(level_p(level), fmax(by_rate, lend / mass))
                        : fmin(level_p(level) / 2, by_rate);
    if (publish_p(t, level, p)) atomic_fetch_add_explicit(&t->steps, 1, memory_order_relaxed);
}

/* ---- The decision --------------------------------------------------------------------- */

/* The mass to pass before the next candidate: exponential with rate -ln(1 - p), so that
 * an offer of factor f is a candidate with probability 1 - (1 - p)^f, independently of the
 * others (the points of a Poisson process on the offers' mass; with every factor 1 it is
 * the geometric countdown of offers at p). */
static double draw_countdown(hs_throttle_thread *th) {
    if (th->p >= 1) return 0;
    double u = ((double)(hs_mix64(th->random += 0x9e3779b97f4a7c15ULL) >> 11) + 0.5) * 0x1p-53;
    return log(u) / th->log_miss;
}

/* log(1 - p): what a thread keeps per level (0 at p = 1, where nothing is drawn). */
static double log_of_miss(double p) { return p >= 1 ? 0 : log1p(-p); }

/* 1 - (1 - p)^factor, given log(1 - p). */
static double probability_from_log(double p, double log_miss, double factor) {
    if (p >= 1) return 1;
    return factor == 1 ? p : -expm1(factor * log_miss);
}

double hs_throttle_probability(double p, double factor) {
    return probability_from_log(p, log_of_miss(p), factor);
}

/* Takes up the published probability when it changed, with a fresh countdown: memoryless,
 * so from this offer on each is a candidate with the new probability, and no offer's odds
 * depend on when the change came. */
static void load_level(hs_throttle *t, hs_throttle_thread *th) {
    uint64_t level = atomic_load_explicit(&t->level, memory_order_relaxed);
    if (level == th->level) return;
    th->level = level;
    th->p = level_p(level);
    th->log_miss = log_of_miss(th->p);
    th->countdown = draw_countdown(th);
}

/* Takes a token for a candidate, unless the bucket is empty (refused, counted). */
static bool take(hs_throttle *t, int64_t now_ns) {
    int64_t tokens = atomic_load_explicit(&t->tokens, memory_order_relaxed);
    do {
        if (tokens < TOKEN) {
            atomic_fetch_add_explicit(&t->refused, 1, memory_order_relaxed);
            return false;
        }
    } while (!atomic_compare_exchange_weak_explicit(&t->tokens, &tokens, tokens - TOKEN,
                                                    memory_order_relaxed, memory_order_relaxed));
    atomic_fetch_add_explicit(&t->kept, 1, memory_order_relaxed);
    maybe_step(t, tokens - TOKEN, now_ns);
    return true;
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
    return hs_throttle_offer_factor(t, th, now_ns, 1.0, weight_fp);
}

bool hs_throttle_offer_factor(hs_throttle *t, hs_throttle_thread *th, int64_t now_ns,
                              double factor, uint64_t *weight_fp) {
    if (th->stripe == 0) join(t, th);
    maybe_check(t, now_ns); /* first: this offer is decided with the p it sets */
    stripe *own = &t->stripes[th->stripe - 1];
    atomic_fetch_add_explicit(&own->offered, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&own->mass, mass_units(factor), memory_order_relaxed);
    load_level(t, th);
    th->factor = factor;
    th->countdown -= factor;
    if (th->countdown > 0) return false;
    double q = probability_from_log(th->p, th->log_miss, factor); /* as it was decided */
    th->countdown = draw_countdown(th);
    if (!take(t, now_ns)) return false;
    *weight_fp = q >= 1 ? HS_WEIGHT_ONE : (uint64_t)llround((double)HS_WEIGHT_ONE / q);
    atomic_fetch_add_explicit(&t->weight_total_fp, *weight_fp, memory_order_relaxed);
    add_square(t, (double)*weight_fp / (double)HS_WEIGHT_ONE);
    return true;
}

/* ---- Life cycle and settings ---------------------------------------------------------- */

hs_throttle *hs_throttle_create(int64_t rate, int64_t period_ns, uint64_t seed, int64_t now_ns) {
    if (rate <= 0 || period_ns <= 0) return NULL;
    hs_throttle *t = aligned_alloc(64, (sizeof *t + 63) / 64 * 64);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    atomic_flag_clear(&t->checking);
    atomic_store(&t->rate, rate);
    atomic_store(&t->period_ns, period_ns);
    atomic_store(&t->tokens, capacity(t)); /* starts full: a startup burst may borrow */
    atomic_store(&t->level, make_level(0, 1.0));
    atomic_store(&t->lowest_p_bits, double_bits(1.0));
    atomic_store(&t->check_ns, now_ns);
    atomic_store(&t->next_check_ns, now_ns + period_ns / HS_THROTTLE_CHECKS);
    set_marks(t, spend_per_ns(t, capacity(t)), capacity(t));
    for (int i = 0; i < HS_THROTTLE_STRIPES; i++) atomic_store(&t->stripes[i].mass, 0);
    t->last_check_ns = t->control_ns = t->surge_ns = t->created_ns = now_ns;
    t->seed = seed;
    return t;
}

void hs_throttle_destroy(hs_throttle *t) { free(t); }

void hs_throttle_control_interval(hs_throttle *t, int64_t start, bool given,
                                  const hs_survival *survival, hs_throttle_interval_hook hook,
                                  void *ctx) {
    if (!t) return;
    hs_interval_control_init(&t->control, start, given);
    t->survival = survival;
    t->hook = hook;
    t->hook_ctx = ctx;
    atomic_store(&t->interval, start);
    atomic_store(&t->configured_interval, start);
    atomic_store(&t->highest_interval, start);
}

/* Tries the checker's lock up to `yields` times, yielding between tries: the holder is an
 * application thread in its callback (a check takes microseconds) that may have been
 * descheduled, so a waiter gives its core away rather than spin against it. Not for the
 * hot path. */
static bool try_lock_checker(hs_throttle *t, long yields) {
    for (long i = 0; atomic_flag_test_and_set_explicit(&t->checking, memory_order_acquire); i++) {
        if (i >= yields) return false;
        sched_yield();
    }
    return true;
}

/* Takes the checker's lock, yielding while it waits (a command that must change the
 * control's state). */
static void lock_checker(hs_throttle *t) {
    while (!try_lock_checker(t, LONG_MAX)) {
    }
}

/* Yields the status formatter spends waiting for the checker before it says "busy". */
#define STATUS_LOCK_YIELDS 1000

void hs_throttle_test_hold_checker(struct hs_throttle *t, bool hold) {
    if (hold) lock_checker(t);
    else atomic_flag_clear_explicit(&t->checking, memory_order_release);
}

static void unlock_checker(hs_throttle *t) {
    atomic_flag_clear_explicit(&t->checking, memory_order_release);
}

void hs_throttle_interval_reset(hs_throttle *t, int64_t interval) {
    if (!t) return;
    lock_checker(t);
    if (atomic_load(&t->interval) != 0) {
        hs_interval_control_set_by_user(&t->control, interval);
        atomic_store(&t->interval, interval);
        atomic_store(&t->configured_interval, interval);
        if (interval > atomic_load(&t->highest_interval)) atomic_store(&t->highest_interval, interval);
        t->have_rate = false; /* the offers come at another rate now */
    }
    unlock_checker(t);
}

void hs_throttle_set_rate(hs_throttle *t, int64_t rate, int64_t period_ns) {
    if (!t || rate <= 0 || period_ns <= 0) return;
    atomic_store(&t->pending_period_ns, period_ns);
    atomic_store(&t->pending_rate, rate);
}

/* ---- Reading ------------------------------------------------------------------------ */

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
    out->kept = atomic_load(&t->kept);
    out->checks = atomic_load(&t->checks);
    out->steps = atomic_load(&t->steps);
    out->refused = atomic_load(&t->refused);
    out->weight_total = (double)atomic_load(&t->weight_total_fp) / (double)HS_WEIGHT_ONE;
    out->tokens = (double)atomic_load(&t->tokens) / (double)TOKEN;
    out->capacity = (double)capacity(t) / (double)TOKEN;
    out->offer_rate = bits_double(atomic_load(&t->offer_rate_bits));
    out->probability = level_p(atomic_load(&t->level));
    out->lowest_probability = bits_double(atomic_load(&t->lowest_p_bits));
    double squares = bits_double(atomic_load(&t->weight_squares_bits));
    out->mean_inverse_p = out->weight_total > 0 ? squares / out->weight_total : 1.0;
    out->elapsed_ns = now_ns - t->created_ns;
    out->interval = atomic_load(&t->interval);
    out->configured_interval = atomic_load(&t->configured_interval);
    out->highest_interval = atomic_load(&t->highest_interval);
    out->interval_changes = atomic_load(&t->interval_changes);
    out->interval_raises = atomic_load(&t->interval_raises);
    out->interval_error = atomic_load(&t->interval_error);
}

/* The lines on the JVM's interval: its figures, then what it is and why (the control's
 * state, copied under the checker's lock). */
static int format_interval(hs_throttle *t, const hs_throttle_stats *s, char *buf, size_t len) {
    if (s->interval == 0)
        return snprintf(buf, len, "rate cap: the JVM's sampling interval is not controlled\n");
    if (s->interval_error != 0)
        return snprintf(buf, len, "rate cap: JVM sampling interval %lld; its control stopped: "
                                  "SetHeapSamplingInterval failed (JVMTI error %d)\n",
                        (long long)s->interval, s->interval_error);
    char why[640] = "interval: its reasons not read (the rate cap was busy checking; ask again)";
    if (try_lock_checker(t, STATUS_LOCK_YIELDS)) {
        hs_interval_control control = t->control;
        unlock_checker(t);
        hs_interval_control_explain(&control, why, sizeof why);
    }
    return snprintf(buf, len, "rate cap: JVM sampling interval %lld (configured %lld, highest "
                              "%lld), changed %llu times (%llu raised, %llu lowered) so that "
                              "the JVM offers 1.25 to 2 times what the cap keeps\n"
                              "rate cap: %s\n",
                    (long long)s->interval, (long long)s->configured_interval,
                    (long long)s->highest_interval,
                    (unsigned long long)s->interval_changes,
                    (unsigned long long)s->interval_raises,
                    (unsigned long long)(s->interval_changes - s->interval_raises), why);
}

size_t hs_throttle_format_status(hs_throttle *t, int64_t now_ns, char *buf, size_t len) {
    if (!t)
        return (size_t)snprintf(buf, len, "rate cap: off (rate=0): every sample the JVM takes is kept\n");
    hs_throttle_stats s;
    hs_throttle_stats_read(t, now_ns, &s);
    double seconds = s.elapsed_ns > 0 ? (double)s.elapsed_ns / 1e9 : 0;
    const char *unit = s.period_ns == INT64_C(60000000000) ? "m" : "s";
    int n = snprintf(buf, len,
                     "rate cap: rate=%lld/%s, a bucket of %.0f samples (%.2f %s of the rate) "
                     "lends unused budget to bursts; kept samples weigh 1/p (p now %.4g, "
                     "lowest %.4g, 1/p over the offers %.4g on average; %.0f offered per %s, "
                     "%.0f in the bucket)\n"
                     "rate cap: %llu samples offered, %llu kept (%.1f %%), effective rate %.1f "
                     "kept/s over %.1f s; %llu steps down between %llu checks, %llu candidates "
                     "refused at an empty bucket\n",
                     (long long)s.rate, unit, s.capacity, HS_THROTTLE_DEPTH,
                     s.period_ns == INT64_C(60000000000) ? "minutes" : "seconds",
                     s.probability, s.lowest_probability, s.mean_inverse_p, s.offer_rate,
                     s.period_ns == INT64_C(60000000000) ? "minute" : "second", s.tokens,
                     (unsigned long long)s.offered, (unsigned long long)s.kept,
                     s.offered ? 100.0 * (double)s.kept / (double)s.offered : 100.0,
                     seconds > 0 ? (double)s.kept / seconds : 0.0, seconds,
                     (unsigned long long)s.steps, (unsigned long long)s.checks,
                     (unsigned long long)s.refused);
    if (n < 0) return 0;
    size_t used = (size_t)n < len ? (size_t)n : (len > 0 ? len - 1 : 0);
    int m = format_interval(t, &s, len > used ? buf + used : NULL, len > used ? len - used : 0);
    return (size_t)n + (m > 0 ? (size_t)m : 0);
}

void hs_throttle_status_lines(hs_throttle *t, int64_t now_ns,
                              void (*emit)(void *ctx, const char *line), void *ctx) {
    char status[2048];
    hs_throttle_format_status(t, now_ns, status, sizeof status);
    for (char *line = status, *end; (end = strchr(line, '\n')) != NULL; line = end + 1) {
        *end = '\0';
        emit(ctx, line);
    }
}
