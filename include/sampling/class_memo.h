/* class_memo.h: a thread's memo of class ids by the address of the class's mirror, good for
 * one quiet stretch between collections (gc_bracket.h).
 *
 * Looking a class up by identity costs a JVMTI identity hash and a JNI IsSameObject (the
 * class cache, weak_slots.h): on AllocMix about a tenth of the sampling callback, paid at
 * every offer with survival factors on. Within a quiet stretch no object moves and no class
 * is unloaded, so the address the callback's jclass holds names the class: the memo answers
 * it with a load and a compare or two. HS_CLASS_MEMO_WAYS entries, emptied when the stretch
 * changes. One per thread (a thread-local of its user), so only its thread writes
 * it: no atomics. A thread allocating more classes than it has entries only misses more. */
#ifndef HS_CLASS_MEMO_H
#define HS_CLASS_MEMO_H

#include <stdint.h>
#include <string.h>

#define HS_CLASS_MEMO_WAYS 16 /* a power of two */

typedef struct {
    uint64_t stretch; /* the quiet stretch the entries belong to (0: none) */
    uintptr_t addresses[HS_CLASS_MEMO_WAYS];
    uint32_t ids[HS_CLASS_MEMO_WAYS]; /* 0: empty */
} hs_class_memo;

static inline unsigned hs_class_memo_way(uintptr_t address) {
    /* Mirrors are 8-byte aligned and a few hundred bytes apart: the low bits above the
     * alignment, spread by a multiplicative hash. */
    return (unsigned)(((uint64_t)(address >> 3) * UINT64_C(0x9e3779b97f4a7c15)) >> 60) &
           (HS_CLASS_MEMO_WAYS - 1);
}

/* Each address may sit in its way or the way beside it (way ^ 1): two classes whose
 * addresses hash alike then both stay, where one way each would make them evict each other
 * at every alternation (8 classes in 16 single ways collide about half the time). */

/* The id memoized for address in this stretch, or 0. */
static inline uint32_t hs_class_memo_find(const hs_class_memo *m, uint64_t stretch,
                                          uintptr_t address) {
    if (m->stretch != stretch) return 0;
    unsigned way = hs_class_memo_way(address);
    if (m->addresses[way] == address) return m->ids[way];
    return m->addresses[way ^ 1] == address ? m->ids[way ^ 1] : 0;
}

/* Remembers id for address in this stretch, forgetting an older stretch's entries. Takes
 * the address's way if free (or its own), else the one beside it, evicting what was there. */
static inline void hs_class_memo_keep(hs_class_memo *m, uint64_t stretch, uintptr_t address,
                                      uint32_t id) {
    if (m->stretch != stretch) {
        memset(m, 0, sizeof *m);
        m->stretch = stretch;
    }
    unsigned way = hs_class_memo_way(address);
    if (m->addresses[way] != 0 && m->addresses[way] != address) way ^= 1;
    m->addresses[way] = address;
    m->ids[way] = id;
}

#endif
