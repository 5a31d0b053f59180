/* thread_ids.c: threads by identity -> name ids (see thread_ids.h). */
#include "sampling/thread_ids.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/log.h"

/* Longest thread name kept; longer ones are cut, which only shortens a label. */
#define NAME_LEN 512

struct hs_thread_ids {
    hs_weak_slots *slots; /* identity hash -> name id, with the thread's weak ref */
    hs_thread_names *names;
    atomic_uint_fast64_t uncached;
    atomic_uint_fast64_t failures; /* threads whose name or identity the JVM did not give */
};

hs_thread_ids *hs_thread_ids_create(uint32_t capacity, hs_thread_names *names) {
    if (!names) return NULL;
    hs_thread_ids *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->names = names;
    t->slots = hs_weak_slots_create(capacity);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

void hs_thread_ids_destroy(hs_thread_ids *t, const hs_thread_ops *ops, void *ctx) {
    if (!t) return;
    hs_weak_ref_ops refs = ops ? (hs_weak_ref_ops){.cleared = ops->identity.cleared,
                                                   .delete_ref = ops->identity.delete_ref}
                               : (hs_weak_ref_ops){0};
    hs_weak_slots_destroy(t->slots, ops ? &refs : NULL, ctx);
    free(t);
}

typedef struct {
    hs_thread_names *names;
    const hs_thread_ops *ops;
    void *ctx;
} thread_namer;

/* The name id of a thread seen for the first time. */
static uintptr_t id_of_new_thread(void *namer, jobject thread, int *error) {
    const thread_namer *n = namer;
    char name[NAME_LEN];
    int err = n->ops->name(n->ctx, thread, name, sizeof name);
    if (err != 0) {
        *error = err;
        return HS_THREAD_UNKNOWN_ID; /* kept: the JVM is not asked again for this thread */
    }
    uint32_t id = hs_thread_names_intern(n->names, name);
    return id ? id : HS_THREAD_UNKNOWN_ID; /* names full */
}

/* A failure to name a thread (its samples then read [unknown thread]) or to keep its weak
 * ref (named, asked again next time): counted, said once. */
static void count_failure(hs_thread_ids *t, int error) {
    if (atomic_fetch_add_explicit(&t->failures, 1, memory_order_relaxed) == 0)
        hs_warn("threads=true: the JVM did not give a thread's name or identity (error %d); "
                "its samples are labelled with an unknown thread, the profile is otherwise "
                "unaffected", error);
}

static uint32_t uncached(hs_thread_ids *t, const thread_namer *namer, jthread thread) {
    if (atomic_fetch_add_explicit(&t->uncached, 1, memory_order_relaxed) == 0)
        hs_warn("threads=true: more threads alive at once than the thread table holds; their "
                "names are asked for at every sample (slower, still right)");
    int error = 0;
    uint32_t id = (uint32_t)id_of_new_thread((void *)namer, thread, &error);
    if (error) count_failure(t, error);
    return id;
}

uint32_t hs_thread_ids_get(hs_thread_ids *t, const hs_thread_ops *ops, void *ctx, jthread thread) {
    thread_namer namer = {.names = t->names, .ops = ops, .ctx = ctx};
    uintptr_t id = 0;
    int error = 0;
    int found = hs_weak_slots_identity(t->slots, &ops->identity, ctx, thread, id_of_new_thread,
                                       &namer, &id, &error);
    if (found == HS_WEAK_FULL) return uncached(t, &namer, thread);
    if (found < 0 || error) count_failure(t, error ? error : found);
    return found < 0 || id == 0 ? HS_THREAD_UNKNOWN_ID : (uint32_t)id;
}

uint32_t hs_thread_ids_resident(const hs_thread_ids *t) { return hs_weak_slots_resident(t->slots); }
uint64_t hs_thread_ids_reclaimed(const hs_thread_ids *t) { return hs_weak_slots_reclaimed(t->slots); }
uint64_t hs_thread_ids_uncached(const hs_thread_ids *t) { return atomic_load(&t->uncached); }
uint64_t hs_thread_ids_failures(const hs_thread_ids *t) { return atomic_load(&t->failures); }
