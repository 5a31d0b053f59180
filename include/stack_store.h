/* stack_store.h: interning of call stacks, lock-free for concurrent inserters.
 *
 * A stack is a sequence of (method, bytecode index) frames, leaf first, as JVMTI's
 * GetStackTrace returns them. Equal stacks get equal ids; ids are dense, from 1, so the
 * profile writer can iterate 1..hs_stack_store_count(). Capacity is fixed at creation;
 * when the table or its frame budget is full, intern returns 0 and counts a drop. */
#ifndef HS_STACK_STORE_H
#define HS_STACK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uintptr_t method; /* jmethodID, as an integer */
    int32_t bci;      /* bytecode index (jlocation); -1 for native methods */
} hs_frame;

typedef struct hs_stack_store hs_stack_store;

/* capacity: max distinct stacks (rounded up to a power of two internally for the hash);
 * frame_bytes: budget for frame storage. NULL on ENOMEM. */
hs_stack_store *hs_stack_store_create(uint32_t capacity, size_t frame_bytes);
void hs_stack_store_destroy(hs_stack_store *store);

/* Returns the id (>= 1) of the stack, inserting it if new; 0 when full (a drop is counted).
 * Lock-free; never blocks; no malloc except a new arena chunk now and then. */
uint32_t hs_stack_store_intern(hs_stack_store *store, const hs_frame *frames, uint32_t depth,
                               bool truncated);

/* Frames of stack id (leaf first), or NULL for an unknown id. Safe to call concurrently
 * with intern for any id returned by a completed intern. */
const hs_frame *hs_stack_store_get(const hs_stack_store *store, uint32_t id, uint32_t *depth,
                                   bool *truncated);

/* Highest id handed out so far (ids 1..count are valid once their intern returned). */
uint32_t hs_stack_store_count(const hs_stack_store *store);
uint64_t hs_stack_store_dropped(const hs_stack_store *store);

#endif
