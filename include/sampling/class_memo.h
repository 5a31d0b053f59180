/* class_memo.h: the process's memo of class ids by the address of the class's mirror, each
 * entry good for the quiet stretch between collections it was made in (gc_bracket.h).
 *
 * Looking a class up by identity costs a JVMTI identity hash and a JNI IsSameObject (the
 * class cache, weak_slots.h): on AllocMix about a tenth of heapsampler's work in the
 * sampling callback, paid at every offer with survival factors on. Within a quiet stretch
 * no object moves and no class is unloaded, so the address the callback's jclass holds
 * names the class: the memo answers it with a few loads and compares.
 *
 * Shared by all threads, so a class is looked up through JVMTI once per stretch by the
 * whole process, not once per thread (a server's 200 threads, each taking a few samples
 * between two young GCs, would otherwise look up nearly every class they sample). Each
 * entry carries its stretch: an entry of an older stretch is a miss, nothing is ever
 * emptied. Entries are written rarely (a class's first sample in a stretch) and read at
 * every offer; a per-entry sequence count makes a read that overlaps a write a miss, and a
 * writer that finds another writing the entry leaves it (best effort, never waits).
 * HS_CLASS_MEMO_ENTRIES entries; an address may sit in its entry or the one beside it. */
#ifndef HS_CLASS_MEMO_H
#define HS_CLASS_MEMO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define HS_CLASS_MEMO_ENTRIES 256 /* a power of two */

typedef struct {
    _Atomic uint32_t seq; /* odd while being written */
    _Atomic uint32_t id;
    _Atomic uintptr_t address;
    _Atomic uint64_t stretch; /* 0: empty */
} hs_class_memo_entry;

typedef struct {
    hs_class_memo_entry entries[HS_CLASS_MEMO_ENTRIES];
} hs_class_memo;

/* The entry an address hashes to (its neighbour is index ^ 1). */
static inline unsigned hs_class_memo_index(uintptr_t address) {
    /* Mirrors are 8-byte aligned and a few hundred bytes apart: the bits above the
     * alignment, spread by a multiplicative hash. */
    return (unsigned)(((uint64_t)(address >> 3) * UINT64_C(0x9e3779b97f4a7c15)) >> 56) &
           (HS_CLASS_MEMO_ENTRIES - 1);
}

/* Entry e's id if it holds address in stretch and no write overlapped the read; else 0.
 * The fields are read with acquire: a field a writer stored (release) orders its odd count
 * before this thread's second look at the count, which then differs; the second look cannot
 * move above them either. (No fences: ThreadSanitizer does not model them.) */
static inline uint32_t hs_class_memo_read(const hs_class_memo_entry *e, uint64_t stretch,
                                          uintptr_t address) {
    uint32_t before = atomic_load_explicit(&e->seq, memory_order_acquire);
    if (before & 1u) return 0;
    uint32_t id = atomic_load_explicit(&e->id, memory_order_acquire);
    bool match = atomic_load_explicit(&e->address, memory_order_acquire) == address &&
                 atomic_load_explicit(&e->stretch, memory_order_acquire) == stretch;
    return match && atomic_load_explicit(&e->seq, memory_order_relaxed) == before ? id : 0;
}

/* The id memoized for address in this stretch, or 0. */
static inline uint32_t hs_class_memo_find(const hs_class_memo *m, uint64_t stretch,
                                          uintptr_t address) {
    unsigned i = hs_class_memo_index(address);
    uint32_t id = hs_class_memo_read(&m->entries[i], stretch, address);
    return id ? id : hs_class_memo_read(&m->entries[i ^ 1], stretch, address);
}

/* Remembers id for address in this stretch: in the address's entry unless it holds another
 * address of this stretch, else in the one beside it. */
void hs_class_memo_keep(hs_class_memo *m, uint64_t stretch, uintptr_t address, uint32_t id);

#endif
