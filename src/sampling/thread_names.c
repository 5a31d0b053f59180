/* thread_names.c: interned Java thread names (see thread_names.h). */
#include "sampling/thread_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct hs_thread_names {
    uint32_t capacity;
    atomic_uint claimed;          /* slots handed out (ids 1..claimed) */
    _Atomic(char *) *names;       /* id -> name, NULL until published */
};

hs_thread_names *hs_thread_names_create(uint32_t capacity) {
    hs_thread_names *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->capacity = capacity > 0 ? capacity : 1;
    t->names = calloc((size_t)t->capacity + 1, sizeof *t->names);
    if (!t->names || hs_thread_names_intern(t, HS_THREAD_NAME_UNKNOWN) != HS_THREAD_UNKNOWN_ID) {
        hs_thread_names_destroy(t);
        return NULL;
    }
    return t;
}

void hs_thread_names_destroy(hs_thread_names *t) {
    if (!t) return;
    for (uint32_t i = 1; t->names && i <= t->capacity; i++) free(atomic_load(&t->names[i]));
    free((void *)t->names);
    free(t);
}

/* The id of a published name equal to `name` among ids 1..limit, 0 if none. */
static uint32_t find(const hs_thread_names *t, const char *name, uint32_t limit) {
    for (uint32_t id = 1; id <= limit && id <= t->capacity; id++) {
        const char *known = atomic_load_explicit(&t->names[id], memory_order_acquire);
        if (known && strcmp(known, name) == 0) return id;
    }
    return 0;
}

uint32_t hs_thread_names_intern(hs_thread_names *t, const char *name) {
    uint32_t id = find(t, name, atomic_load(&t->claimed));
    if (id) return id;
    char *copy = strdup(name);
    if (!copy) return 0;
    id = atomic_fetch_add(&t->claimed, 1) + 1;
    if (id > t->capacity) {
        atomic_fetch_sub(&t->claimed, 1); /* keep claimed bounded; ids stay unique */
        free(copy);
        return 0;
    }
    atomic_store_explicit(&t->names[id], copy, memory_order_release);
    return id;
}

const char *hs_thread_names_get(const hs_thread_names *t, uint32_t id) {
    if (!t || id == 0 || id > t->capacity) return NULL;
    return atomic_load_explicit(&t->names[id], memory_order_acquire);
}
