/* ptr_map.c: the fixed-capacity, insert-only, lock-free key -> pointer map (see ptr_map.h).
 *
 * Open addressing with linear probing over a power-of-two table of at least twice the
 * capacity, so probe runs stay short and an empty slot always exists. A slot is taken
 * in two steps, each a CAS from zero:
 *   1. key:   0 -> key   decides which key owns the slot;
 *   2. value: NULL -> v  decides which value the key maps to (published with release).
 * Every thread inserting a key runs step 2 itself, including the ones that lost step 1
 * to an equal key, so nobody waits for the slot's owner to finish: whichever value CAS
 * lands first is the one value the key ever has. A reader that finds the key with no
 * value yet reports it absent ("not there yet"). */
#include "sampling/ptr_map.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/hash.h"

/* Keeps the slot count (twice the capacity, rounded up) well inside a size_t. */
#define MAX_CAPACITY ((uint32_t)1 << 30)

typedef struct {
    _Atomic uintptr_t key;  /* 0 = free */
    _Atomic(void *) value;  /* NULL = not published yet */
} map_slot;

struct hs_ptr_map {
    uint32_t capacity;     /* max entries */
    size_t mask;           /* slot count - 1 */
    _Atomic uint32_t size; /* keys in the map (their value may be in flight) */
    map_slot *slots;
};

hs_ptr_map *hs_ptr_map_create(uint32_t capacity) {
    if (capacity == 0 || capacity > MAX_CAPACITY) return NULL;
    size_t slots = 2;
    while (slots < 2 * (size_t)capacity) slots <<= 1;
    hs_ptr_map *map = calloc(1, sizeof *map);
    if (!map) return NULL;
    map->slots = calloc(slots, sizeof *map->slots); /* all-zero bytes = free slots */
    if (!map->slots) {
        free(map);
        return NULL;
    }
    map->capacity = capacity;
    map->mask = slots - 1;
    atomic_init(&map->size, 0);
    return map;
}

void hs_ptr_map_destroy(hs_ptr_map *map) {
    if (!map) return;
    free(map->slots);
    free(map);
}

/* The slot owned by key, claiming a free one if the key is absent; NULL when the key is
 * absent and the map is full.
 *
 * Capacity is checked before the key CAS and size counted after it, never reserved ahead:
 * a reservation that has to be handed back (when an equal key wins the slot) would make
 * other threads see a full map that is not. The price is that threads racing for the
 * last free entries can overshoot capacity by at most one key each; the table has room
 * for twice the capacity, so that is harmless. A key is never refused while fewer than
 * `capacity` keys are in. */
static map_slot *find_or_claim(hs_ptr_map *map, uintptr_t key) {
    size_t index = (size_t)hs_mix64(key) & map->mask;
    for (size_t probes = 0; probes <= map->mask; probes++, index = (index + 1) & map->mask) {
        map_slot *slot = &map->slots[index];
        uintptr_t owner = atomic_load_explicit(&slot->key, memory_order_acquire);
        if (owner == 0) {
            if (atomic_load_explicit(&map->size, memory_order_relaxed) >= map->capacity) {
                /* Full. Our key is absent if this slot is still free: a thread inserting
                 * it would have taken this slot rather than go past it. If the slot was
                 * taken meanwhile, look at it and probe on. */
                owner = atomic_load_explicit(&slot->key, memory_order_acquire);
                if (owner == 0) return NULL;
            } else if (atomic_compare_exchange_strong_explicit(&slot->key, &owner, key,
                                                               memory_order_acq_rel,
                                                               memory_order_acquire)) {
                atomic_fetch_add_explicit(&map->size, 1, memory_order_relaxed);
                return slot;
            } /* else we lost the slot; `owner` now holds the winner's key */
        }
        if (owner == key) return slot;
    }
    return NULL; /* every slot taken: only when racers overshot a tiny capacity */
}

void *hs_ptr_map_put_if_absent(hs_ptr_map *map, uintptr_t key, void *value) {
    if (!map || key == 0 || !value) return NULL;
    map_slot *slot = find_or_claim(map, key);
    if (!slot) return NULL;
    void *current = atomic_load_explicit(&slot->value, memory_order_acquire);
    if (current) return current;
    if (atomic_compare_exchange_strong_explicit(&slot->value, &current, value,
                                                memory_order_release, memory_order_acquire))
        return value;
    return current; /* another thread's value landed first */
}

void *hs_ptr_map_get(const hs_ptr_map *map, uintptr_t key) {
    if (!map || key == 0) return NULL;
    size_t index = (size_t)hs_mix64(key) & map->mask;
    for (size_t probes = 0; probes <= map->mask; probes++, index = (index + 1) & map->mask) {
        const map_slot *slot = &map->slots[index];
        uintptr_t owner = atomic_load_explicit(&slot->key, memory_order_acquire);
        if (owner == 0) return NULL;
        if (owner == key) return atomic_load_explicit(&slot->value, memory_order_acquire);
    }
    return NULL;
}

uint32_t hs_ptr_map_size(const hs_ptr_map *map) {
    return map ? atomic_load_explicit(&map->size, memory_order_relaxed) : 0;
}

void hs_ptr_map_foreach(const hs_ptr_map *map, void (*fn)(uintptr_t key, void *value, void *ctx),
                        void *ctx) {
    if (!map || !fn) return;
    for (size_t i = 0; i <= map->mask; i++) {
        const map_slot *slot = &map->slots[i];
        uintptr_t key = atomic_load_explicit(&slot->key, memory_order_acquire);
        if (key == 0) continue;
        void *value = atomic_load_explicit(&slot->value, memory_order_acquire);
        if (value) fn(key, value, ctx);
    }
}
