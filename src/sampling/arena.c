/* arena.c: the lock-free bump allocator (see arena.h).
 *
 * Allocations bump an offset inside the *current* chunk with a CAS, so two threads never
 * get overlapping bytes and none waits for another. When the current chunk cannot fit a
 * request, the thread callocs a fresh chunk and CASes it in as current; if another thread
 * installed one first, the loser frees its spare and retries in the winner's chunk. A
 * request too big for a normal chunk gets a chunk of its size plus a normal chunk's room,
 * carves its block off the front before publishing it, and installs it like any other.
 *
 * Every installed chunk points at the one it replaced, so the chain from `current` holds
 * every chunk (destroy walks it), and each chunk records the bytes of the chain up to and
 * including itself. That makes the budget exact without any reservation that a losing
 * thread would have to hand back (and that would make other threads fail meanwhile): a
 * chunk may replace `seen` only if seen's total plus its own size is within budget, and
 * the CAS from `seen` guarantees the total it computed is the one that becomes true.
 * When less than a whole chunk of budget is left, the last chunk is cut down to what
 * remains, so a budget smaller than one chunk is still usable. (Spares of racing threads
 * exist for a moment outside the budget; they are freed right after losing.)
 *
 * Chunks are never reused or freed while the arena lives, so a thread holding a stale
 * `current` can still bump safely into it, or fail and retry. */
#include "sampling/arena.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CHUNK_SIZE ((size_t)1 << 20)
#define MAX_ALIGN ((size_t)64)
/* Larger requests are refused outright, so size arithmetic below cannot overflow. */
#define MAX_REQUEST (SIZE_MAX / 4)

typedef struct hs_chunk {
    struct hs_chunk *previous; /* the chunk this one replaced as current */
    size_t chain_bytes;        /* footprints of this chunk and all before it */
    size_t capacity;           /* usable bytes in data[] */
    _Atomic size_t used;       /* bytes of data[] handed out, alignment padding included */
    unsigned char data[];
} hs_chunk;

#define CHUNK_HEADER (offsetof(hs_chunk, data))
#define MIN_CHUNK_SIZE (CHUNK_HEADER + 4 * MAX_ALIGN)

struct hs_arena {
    size_t chunk_size; /* footprint of a normal chunk, header included */
    size_t max_bytes;  /* 0 = no budget */
    _Atomic(hs_chunk *) current;
};

hs_arena *hs_arena_create(size_t chunk_size, size_t max_bytes) {
    hs_arena *arena = calloc(1, sizeof *arena);
    if (!arena) return NULL;
    if (chunk_size == 0) chunk_size = DEFAULT_CHUNK_SIZE;
    if (chunk_size < MIN_CHUNK_SIZE) chunk_size = MIN_CHUNK_SIZE;
    if (chunk_size > MAX_REQUEST) chunk_size = MAX_REQUEST;
    arena->chunk_size = chunk_size;
    arena->max_bytes = max_bytes;
    atomic_init(&arena->current, NULL);
    return arena;
}

void hs_arena_destroy(hs_arena *arena) {
    if (!arena) return;
    hs_chunk *chunk = atomic_load(&arena->current);
    while (chunk) {
        hs_chunk *previous = chunk->previous;
        free(chunk);
        chunk = previous;
    }
    free(arena);
}

size_t hs_arena_reserved(const hs_arena *arena) {
    if (!arena) return 0;
    const hs_chunk *chunk = atomic_load_explicit(&arena->current, memory_order_acquire);
    return chunk ? chunk->chain_bytes : 0;
}

/* Claims size bytes aligned to align inside chunk, or NULL if they do not fit. The
 * offset is aligned relative to the real address, so calloc's alignment does not matter. */
static void *bump(hs_chunk *chunk, size_t size, size_t align) {
    uintptr_t base = (uintptr_t)chunk->data;
    size_t used = atomic_load_explicit(&chunk->used, memory_order_relaxed);
    for (;;) {
        uintptr_t aligned = (base + used + (align - 1)) & ~(uintptr_t)(align - 1);
        size_t start = (size_t)(aligned - base);
        if (start > chunk->capacity || size > chunk->capacity - start) return NULL;
        /* Relaxed is enough: the CAS only has to make ranges disjoint. The chunk's zeroes
         * were published by the release CAS that installed it. */
        if (atomic_compare_exchange_weak_explicit(&chunk->used, &used, start + size,
                                                  memory_order_relaxed, memory_order_relaxed))
            return chunk->data + start;
    }
}

/* A zeroed chunk to follow `seen`, with `room` usable bytes, or fewer (but at least
 * `need`) when the budget is nearly spent. NULL when even that is over budget, or on
 * ENOMEM. */
static hs_chunk *new_chunk(const hs_arena *arena, hs_chunk *seen, size_t room, size_t need) {
    size_t before = seen ? seen->chain_bytes : 0;
    size_t footprint = CHUNK_HEADER + room;
    if (arena->max_bytes) {
        size_t left = before < arena->max_bytes ? arena->max_bytes - before : 0;
        if (left < CHUNK_HEADER + need) return NULL;
        if (footprint > left) footprint = left;
    }
    hs_chunk *chunk = calloc(1, footprint);
    if (!chunk) return NULL;
    chunk->previous = seen;
    chunk->chain_bytes = before + footprint;
    chunk->capacity = footprint - CHUNK_HEADER;
    atomic_init(&chunk->used, 0);
    return chunk;
}

/* Publishes fresh in place of seen; false (and fresh is freed) if another thread
 * replaced seen first. */
static bool install(hs_arena *arena, hs_chunk *seen, hs_chunk *fresh) {
    if (atomic_compare_exchange_strong_explicit(&arena->current, &seen, fresh,
                                                memory_order_acq_rel, memory_order_acquire))
        return true;
    free(fresh);
    return false;
}

void *hs_arena_alloc(hs_arena *arena, size_t size, size_t align) {
    if (!arena || align == 0 || align > MAX_ALIGN || (align & (align - 1)) != 0) return NULL;
    if (size > MAX_REQUEST) return NULL;
    if (size == 0) size = 1; /* distinct allocations get distinct addresses */
    size_t need = size + align - 1; /* fits in any chunk with this much room */
    size_t normal_room = arena->chunk_size - CHUNK_HEADER;
    bool oversized = need > normal_room;
    for (;;) {
        hs_chunk *seen = atomic_load_explicit(&arena->current, memory_order_acquire);
        if (seen && !oversized) {
            void *p = bump(seen, size, align);
            if (p) return p;
        }
        /* Oversized: room for the block plus a normal chunk, so the chunk it replaces
         * as current is followed by one as useful. */
        hs_chunk *fresh = new_chunk(arena, seen, oversized ? need + normal_room : normal_room, need);
        if (!fresh) {
            /* Over budget or out of memory, unless the chain moved on meanwhile. */
            if (atomic_load_explicit(&arena->current, memory_order_acquire) != seen) continue;
            return NULL;
        }
        /* Carve our block before publishing: nobody can take it from us. */
        void *p = bump(fresh, size, align);
        if (install(arena, seen, fresh)) return p;
    }
}

char *hs_arena_strdup(hs_arena *arena, const char *s) {
    if (!s) return NULL;
    size_t len = strlen(s);
    char *copy = hs_arena_alloc(arena, len + 1, 1);
    if (copy) memcpy(copy, s, len + 1); /* the arena zeroed it; copying the NUL is harmless */
    return copy;
}
