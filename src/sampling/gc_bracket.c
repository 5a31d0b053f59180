/* gc_bracket.c: the quiet stretches between collections (see gc_bracket.h). */
#include "sampling/gc_bracket.h"

#include <stdbool.h>

#define OPEN_MASK UINT64_C(0xffff)
#define ARMED (UINT64_C(1) << 16)
#define ARMING (UINT64_C(1) << 17)
#define FINISH (UINT64_C(1) << 18)

void hs_gc_bracket_open(hs_gc_bracket *b) {
    uint64_t w = atomic_load(&b->word);
    /* Nesting is one or two deep; a saturated count only keeps the bracket shut. */
    while ((w & OPEN_MASK) != OPEN_MASK && !atomic_compare_exchange_weak(&b->word, &w, w + 1)) {
    }
}

void hs_gc_bracket_close(hs_gc_bracket *b) {
    uint64_t w = atomic_load(&b->word), next;
    do {
        next = w + FINISH;
        if ((w & OPEN_MASK) != 0) next -= 1; /* a start counted before arming, or not */
        if (w & ARMING) next = (next & ~ARMING) | ARMED;
    } while (!atomic_compare_exchange_weak(&b->word, &w, next));
}

void hs_gc_bracket_arm(hs_gc_bracket *b) {
    uint64_t w = atomic_load(&b->word);
    while (!(w & (ARMED | ARMING)) && !atomic_compare_exchange_weak(&b->word, &w, w | ARMING)) {
    }
}

void hs_gc_bracket_disarm(hs_gc_bracket *b) {
    atomic_fetch_and(&b->word, ~(ARMED | ARMING));
}
