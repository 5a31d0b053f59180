/* survival.c: the survival-weighted factors of the rate cap (see survival.h): the learner's
 * counts per slot, the factors it publishes, the callbacks' lookup. */
#include "sampling/survival.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/hash.h"

#define FACTOR_ONE 256.0 /* fixed point of a published factor; 0: nothing published */

typedef struct {
    double survived, total; /* outcomes, halved past HS_SURVIVAL_MEMORY */
} slot_counts;

struct hs_survival {
    _Atomic uint32_t factor[HS_SURVIVAL_SLOTS]; /* read by the callbacks */
    /* The learner's (one thread). */
    slot_counts counts[HS_SURVIVAL_SLOTS];
    double survived, total; /* over every slot, halved like theirs */
    _Atomic uint64_t outcomes, survivors;
    _Atomic uint32_t learned_slots;
    _Atomic uint32_t highest; /* FACTOR_ONE units */
    _Atomic uint32_t selectivity; /* FACTOR_ONE units (survival.h) */
};

static uint32_t size_class(uint64_t size) {
    return size ? 63u - (uint32_t)__builtin_clzll(size) : 0;
}

static uint32_t slot_of(uint32_t class_id, uint64_t size) {
    return (uint32_t)hs_mix64((uint64_t)class_id << 8 | size_class(size)) & (HS_SURVIVAL_SLOTS - 1);
}

hs_survival *hs_survival_create(void) { return calloc(1, sizeof(hs_survival)); }

void hs_survival_destroy(hs_survival *s) { free(s); }

double hs_survival_factor(const hs_survival *s, uint32_t class_id, uint64_t size) {
    if (!s) return 1;
    uint32_t f = atomic_load_explicit(&s->factor[slot_of(class_id, size)], memory_order_relaxed);
    return f ? (double)f / FACTOR_ONE : 1;
}

_Static_assert(HS_SURVIVAL_SLOTS <= 65536, "a slot fits the live table's 16-bit tag");

uint16_t hs_survival_slot(uint32_t class_id, uint64_t size) {
    return (uint16_t)slot_of(class_id, size);
}

void hs_survival_learn(hs_survival *s, uint32_t class_id, uint64_t size, bool survived) {
    hs_survival_learn_slot(s, hs_survival_slot(class_id, size), survived);
}

void hs_survival_learn_slot(hs_survival *s, uint16_t slot, bool survived) {
    slot_counts *c = &s->counts[slot % HS_SURVIVAL_SLOTS];
    if (c->total == 0) atomic_fetch_add_explicit(&s->learned_slots, 1, memory_order_relaxed);
    if (c->total >= HS_SURVIVAL_MEMORY) {
        c->survived /= 2;
        c->total /= 2;
    }
    c->survived += survived;
    c->total += 1;
    s->survived += survived;
    s->total += 1;
    if (s->total >= HS_SURVIVAL_MEMORY * HS_SURVIVAL_SLOTS) {
        s->survived /= 2;
        s->total /= 2;
    }
    atomic_fetch_add_explicit(&s->outcomes, 1, memory_order_relaxed);
    if (survived) atomic_fetch_add_explicit(&s->survivors, 1, memory_order_relaxed);
}

/* f = sqrt(1 + (MAX^2 - 1) s) for a survival fraction s, in fixed point. */
static uint32_t factor_of(double fraction) {
    double f = sqrt(1 + (HS_SURVIVAL_MAX * HS_SURVIVAL_MAX - 1) * fmin(1, fmax(0, fraction)));
    return (uint32_t)lround(f * FACTOR_ONE);
}

/* Sums over the slots for the selectivity (survival.h): outcomes and survivors, each also
 * over its slot's factor (the kept samples of a slot stand for about 1/f as many offers). */
typedef struct {
    double outcomes, survivors, outcomes_per_factor, survivors_per_factor;
} selectivity_sums;

static void add_to_selectivity(selectivity_sums *sums, const slot_counts *c, double factor) {
    sums->outcomes += c->total;
    sums->survivors += c->survived;
    sums->outcomes_per_factor += c->total / factor;
    sums->survivors_per_factor += c->survived / factor;
}

/* The survivors' mean factor over the offers' mean factor: 1 when no survivor is favoured. */
static double selectivity_of(const selectivity_sums *sums) {
    if (sums->survivors_per_factor <= 0 || sums->outcomes <= 0) return 1;
    return (sums->survivors / sums->survivors_per_factor) /
           (sums->outcomes / sums->outcomes_per_factor);
}

void hs_survival_publish(hs_survival *s) {
    if (s->total == 0) return;
    double overall = s->survived / s->total;
    uint32_t highest = 0;
    selectivity_sums sums = {0};
    for (uint32_t i = 0; i < HS_SURVIVAL_SLOTS; i++) {
        const slot_counts *c = &s->counts[i];
        uint32_t f = factor_of((c->survived + HS_SURVIVAL_PRIOR * overall) /
                               (c->total + HS_SURVIVAL_PRIOR));
        atomic_store_explicit(&s->factor[i], f, memory_order_relaxed);
        if (f > highest) highest = f;
        if (c->total > 0) add_to_selectivity(&sums, c, (double)f / FACTOR_ONE);
    }
    atomic_store_explicit(&s->highest, highest, memory_order_relaxed);
    bool judged = atomic_load_explicit(&s->survivors, memory_order_relaxed) >= HS_SURVIVAL_EVIDENCE;
    double selectivity = judged ? selectivity_of(&sums) : 1;
    atomic_store_explicit(&s->selectivity, (uint32_t)lround(selectivity * FACTOR_ONE),
                          memory_order_relaxed);
}

double hs_survival_selectivity(const hs_survival *s) {
    uint32_t r = s ? atomic_load_explicit(&s->selectivity, memory_order_relaxed) : 0;
    return r ? r / FACTOR_ONE : 1;
}

int hs_survival_outcome(uint32_t born, uint32_t previous, uint32_t epoch, bool dead) {
    int64_t age_before = (int64_t)(int32_t)(previous - born); /* GCs lived through at `previous` */
    if (age_before >= HS_SURVIVAL_AGE) return -1;            /* already counted as survived */
    if (dead) return 0;
    return (int64_t)(int32_t)(epoch - born) >= HS_SURVIVAL_AGE ? 1 : -1;
}

void hs_survival_stats_read(const hs_survival *s, hs_survival_stats *out) {
    *out = (hs_survival_stats){0};
    if (!s) return;
    out->outcomes = atomic_load(&s->outcomes);
    out->survived = atomic_load(&s->survivors);
    out->slots = atomic_load(&s->learned_slots);
    uint32_t h = atomic_load(&s->highest);
    out->highest = h ? h / FACTOR_ONE : 1;
    out->selectivity = hs_survival_selectivity(s);
}

size_t hs_survival_format_status(const hs_survival *s, char *buf, size_t len) {
    if (!s)
        return (size_t)snprintf(buf, len,
                                "survival factors: off (survival=false, live=false or rate=0)");
    hs_survival_stats st;
    hs_survival_stats_read(s, &st);
    char early[64] = "";
    if (st.survived < HS_SURVIVAL_EVIDENCE)
        snprintf(early, sizeof early, " (taken as 1 until %d survivors)", HS_SURVIVAL_EVIDENCE);
    int n = snprintf(buf, len,
                     "survival factors: the rate cap keeps a sample with probability "
                     "1-(1-p)^f, f from 1 to %.0f by its class and size (highest now %.2f), "
                     "learned from %llu tracked samples (%llu survived %d GCs) in %u slots; "
                     "survivors' factor %.2f times the offers' on average%s",
                     HS_SURVIVAL_MAX, st.highest, (unsigned long long)st.outcomes,
                     (unsigned long long)st.survived, HS_SURVIVAL_AGE, st.slots, st.selectivity,
                     early);
    return n > 0 ? (size_t)n : 0;
}
