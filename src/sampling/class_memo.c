/* class_memo.c: writing the shared memo of class ids by address (see class_memo.h). */
#include "sampling/class_memo.h"

#include <stdbool.h>

/* Whether e holds another address of this stretch (taking it would evict a live answer). */
static bool taken(hs_class_memo_entry *e, uint64_t stretch, uintptr_t address) {
    return atomic_load_explicit(&e->stretch, memory_order_relaxed) == stretch &&
           atomic_load_explicit(&e->address, memory_order_relaxed) != address;
}

/* Writes e unless another writer is at it: a seqlock's write, without the wait. The fields
 * are stored with release, so the odd count is ordered before each (class_memo.h). */
static void write_entry(hs_class_memo_entry *e, uint64_t stretch, uintptr_t address,
                        uint32_t id) {
    uint32_t seq = atomic_load_explicit(&e->seq, memory_order_relaxed);
    if ((seq & 1u) || !atomic_compare_exchange_strong_explicit(&e->seq, &seq, seq + 1,
                                                               memory_order_acquire,
                                                               memory_order_relaxed))
        return;
    atomic_store_explicit(&e->id, id, memory_order_release);
    atomic_store_explicit(&e->address, address, memory_order_release);
    atomic_store_explicit(&e->stretch, stretch, memory_order_release);
    atomic_store_explicit(&e->seq, seq + 2, memory_order_release);
}

void hs_class_memo_keep(hs_class_memo *m, uint64_t stretch, uintptr_t address, uint32_t id) {
    if (stretch == 0 || id == 0) return;
    unsigned i = hs_class_memo_index(address);
    if (taken(&m->entries[i], stretch, address)) i ^= 1u;
    write_entry(&m->entries[i], stretch, address, id);
}
