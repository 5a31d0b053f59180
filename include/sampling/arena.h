/* arena.h: a lock-free bump allocator that grows in big chunks.
 *
 * Memory for interned stacks and resolved symbols comes from here: the allocation
 * callback may allocate, but only takes the system allocator's path once per chunk
 * (default 1 MiB), never per sample. Nothing is freed individually; the whole arena
 * goes at hs_arena_destroy. A byte budget bounds it: past it, allocations fail (the
 * caller counts a drop) instead of growing without bound. */
#ifndef HS_ARENA_H
#define HS_ARENA_H

#include <stddef.h>

typedef struct hs_arena hs_arena;

/* chunk_size: bytes per chunk; max_bytes: total budget (0 = no budget). NULL on ENOMEM. */
hs_arena *hs_arena_create(size_t chunk_size, size_t max_bytes);
/* Thread-safe and lock-free. align must be a power of two <= 64. NULL when the budget is
 * spent or the system is out of memory. Memory is zeroed. */
void *hs_arena_alloc(hs_arena *arena, size_t size, size_t align);
/* Copies a NUL-terminated string into the arena. */
char *hs_arena_strdup(hs_arena *arena, const char *s);
/* Bytes reserved from the system so far (chunks). */
size_t hs_arena_reserved(const hs_arena *arena);
void hs_arena_destroy(hs_arena *arena);

#endif
