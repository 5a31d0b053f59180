/* sweep_pace.c: the sweeper's pace under fast GCs (sweep_pace.h). */
#include "live/sweep_pace.h"

void hs_sweep_pace_init(hs_sweep_pace *p) {
    atomic_init(&p->hold_until, 0);
    atomic_init(&p->urgent, false);
    p->last_start = 0;
    atomic_init(&p->sweeps, 0);
}

void hs_sweep_pace_begin(hs_sweep_pace *p, int64_t now) {
    bool fast = p->last_start != 0 && now - p->last_start < 2 * HS_SWEEP_SPACING_NS;
    atomic_store_explicit(&p->hold_until, fast ? now + HS_SWEEP_SPACING_NS : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&p->urgent, false, memory_order_seq_cst);
    p->last_start = now;
    atomic_fetch_add_explicit(&p->sweeps, 1, memory_order_relaxed);
}

bool hs_sweep_pace_gc(hs_sweep_pace *p, int64_t now, bool completed_marking) {
    if (completed_marking) hs_sweep_pace_urge(p);
    return completed_marking || now >= atomic_load_explicit(&p->hold_until, memory_order_relaxed);
}

void hs_sweep_pace_urge(hs_sweep_pace *p) {
    atomic_store_explicit(&p->urgent, true, memory_order_seq_cst);
}

/* Milliseconds of the hold left at `now`, rounded up: awake after the hold, not before. */
static int64_t hold_left_ms(const hs_sweep_pace *p, int64_t now) {
    int64_t left = atomic_load_explicit(&p->hold_until, memory_order_relaxed) - now;
    return left > 0 ? (left + 999999) / 1000000 : 0;
}

int64_t hs_sweep_pace_wait_ms(const hs_sweep_pace *p, int64_t now) {
    return atomic_load_explicit(&p->urgent, memory_order_seq_cst) ? 0 : hold_left_ms(p, now);
}

int64_t hs_sweep_pace_sleep_ms(const hs_sweep_pace *p, int64_t now, int64_t poll_ms) {
    int64_t ms = hold_left_ms(p, now);
    return ms > 0 && ms < poll_ms ? ms : poll_ms;
}

uint64_t hs_sweep_pace_sweeps(const hs_sweep_pace *p) {
    return atomic_load_explicit(&p->sweeps, memory_order_relaxed);
}
