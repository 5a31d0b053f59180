/* stack_store.h: interning of call stacks, lock-free for concurrent inserters.
 *
 * A stack is a sequence of (method, bytecode index) frames, leaf first, as JVMTI's
 * GetStackTrace returns them. Equal stacks get equal ids. Ids are unique and stable, in
 * 1..hs_stack_store_count(), with rare holes: when two threads insert the same new stack
 * at once, the loser's id is never used and get() fails on it. Capacity is fixed at
 * creation and counts holes; when the ids or the frame budget are spent, intern returns 0
 * and counts a drop. */
#ifndef HS_STACK_STORE_H
#define HS_STACK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uintptr_t method; /* the method's info (method_infos.h), as an integer: never a jmethodID
                         once stored (sampler.c translates the frames first) */
    int32_t bci;      /* bytecode index (jlocation); -1 for native methods */
} hs_frame;

typedef struct hs_stack_store hs_stack_store;

/* A stack id no store ever hands out: callers count a sample whose stack found no room
 * under it (the "[stack table full]" pseudo-frame), so its weight is never lost. */
#define HS_STACK_FOLDED UINT32_MAX

/* capacity: max distinct stacks (rounded up to a power of two internally for the hash);
 * frame_bytes: budget for frame storage. NULL on ENOMEM. */
hs_stack_store *hs_stack_store_create(uint32_t capacity, size_t frame_bytes);
void hs_stack_store_destroy(hs_stack_store *store);

/* Returns the id (>= 1) of the stack, inserting it if new; 0 when full (a drop is counted).
 * Lock-free; never blocks; no malloc except a new arena chunk now and then. */
uint32_t hs_stack_store_intern(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                               bool truncated);

/* The same, and *is_new (may be NULL) tells whether this call stored the stack: exactly
 * one caller sees true for each distinct stack (the tests count insertions with it; the
 * sampler has no first-sight work per stack: its frames' methods are resolved before the
 * stack is interned, symbols.h). */
uint32_t hs_stack_store_add(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                            bool truncated, bool *is_new);

/* Frames of stack id (leaf first), or NULL for a hole or an id not (yet) handed out.
 * Safe concurrently with intern; finds every id that an intern has returned. */
const hs_frame *hs_stack_store_get(const hs_stack_store *store, uint32_t id, uint32_t *depth,
                                   bool *truncated);

/* One 64-bit word per stack for the caller, e.g. the sample bucket the stack's last sample
 * went to with its key's print (hs_sample_table_record_by_hint): a hint that spares a hash
 * lookup when a site keeps allocating one class and size. 0 until set, and for unknown ids.
 * Any thread may read or set it (last write wins; read and written whole). */
uint64_t hs_stack_store_hint(const hs_stack_store *store, uint32_t id);
void hs_stack_store_set_hint(hs_stack_store *store, uint32_t id, uint64_t hint);

/* Highest id handed out so far: every id is in 1..count (holes included). */
uint32_t hs_stack_store_count(const hs_stack_store *store);
uint64_t hs_stack_store_dropped(const hs_stack_store *store);
/* Bytes the frames hold, in arena chunks reserved. */
size_t hs_stack_store_frame_bytes(const hs_stack_store *store);

#endif
