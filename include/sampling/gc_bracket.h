/* gc_bracket.h: whether the collector may have moved or freed an object since a moment.
 *
 * The GarbageCollectionStart and GarbageCollectionFinish events of a stop-the-world
 * collector (G1, Serial, Parallel) bracket every move and every free of an object: HotSpot
 * posts them from the marker at the top of each collecting VM operation, the young and full
 * pauses and G1's Remark and Cleanup. Between a finish and the next start no object moves
 * and no class is unloaded, so within such a quiet stretch an object's address names it: a
 * cache keyed by addresses (class_memo.h) is right for as long as the stretch lasts.
 *
 * One word holds the bracket, so that a reader sees its parts consistently:
 *   bits 0-15   collections open (starts counted minus finishes counted, never below 0);
 *   bit 16      armed: both events are counted;
 *   bit 17      arming: armed at the next finish;
 *   bits 18-63  finishes counted.
 * Every event changes the word, so two equal quiet readings mean no event came between.
 *
 * Arming waits for a finish because the start event is enabled while the application runs:
 * a collection under way then had its start posted before anyone counted it. Under Z,
 * Shenandoah or Epsilon it is never armed: Z and Shenandoah move objects between pauses,
 * and the live tracker asks for the start event only under the three collectors above.
 * The callbacks update it with atomics only (allowed in GC callbacks); readers are
 * lock-free. */
#ifndef HS_GC_BRACKET_H
#define HS_GC_BRACKET_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct hs_gc_bracket {
    _Atomic uint64_t word;
} hs_gc_bracket;

void hs_gc_bracket_open(hs_gc_bracket *b);  /* GarbageCollectionStart */
void hs_gc_bracket_close(hs_gc_bracket *b); /* GarbageCollectionFinish */

/* The start event is now enabled (armed from the next finish), or about to be disabled. */
void hs_gc_bracket_arm(hs_gc_bracket *b);
void hs_gc_bracket_disarm(hs_gc_bracket *b);

/* Nonzero when armed and no collection is open: the stretch, equal at two readings only if
 * no collection started between them. 0 otherwise. */
static inline uint64_t hs_gc_bracket_quiet(const hs_gc_bracket *b) {
    uint64_t w = atomic_load_explicit(&b->word, memory_order_acquire);
    return (w & 0xffffu) == 0 && (w & (UINT64_C(1) << 16)) ? w : 0;
}

#endif
