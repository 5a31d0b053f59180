/* fakes.h: memory for the fake JVM objects (classes, refs, methods) of the table tests.
 *
 * Fakes stay allocated until the test ends, so that a use after a delete is seen (the
 * fake records it) rather than crashing; every one is on one list, freed by free_fakes().
 * Header-only (static inline) because only test_*.c files become executables. */
#ifndef HS_TEST_FAKES_H
#define HS_TEST_FAKES_H

#include <stdatomic.h>
#include <stdlib.h>

typedef struct fake_node {
    struct fake_node *next;
    _Alignas(16) unsigned char payload[];
} fake_node;

static _Atomic(fake_node *) fakes;

/* Zeroed memory that lives until free_fakes(); thread-safe. */
static inline void *fake_alloc(size_t size) {
    fake_node *node = calloc(1, sizeof *node + size);
    if (!node) abort();
    node->next = atomic_load(&fakes);
    while (!atomic_compare_exchange_weak(&fakes, &node->next, node)) {
    }
    return node->payload;
}

static inline void free_fakes(void) {
    for (fake_node *n = atomic_exchange(&fakes, NULL), *next; n; n = next) {
        next = n->next;
        free(n);
    }
}

#endif
