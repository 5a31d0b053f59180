/* fakes.h: fake JVM objects and weak refs for the tests of the identity caches (class
 * cache, method table, thread ids), in place of JVMTI and JNI.
 *
 * A fake object has an identity hash and an `alive` flag (false: collected, or a class
 * unloaded); a fake weak ref points at its object and records whether it was deleted. Fakes
 * stay allocated until the test ends, so that a use after a delete is seen (counted in the
 * fake_refs_env) rather than crashing; every one is on one list, freed by free_fakes().
 * Header-only (static inline) because only test_*.c files become executables. */
#ifndef HS_TEST_FAKES_H
#define HS_TEST_FAKES_H

#include <jni.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
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

/* Embedded first in a fake class or thread. */
typedef struct {
    jint hash;
    atomic_bool alive;
} fake_object;

typedef struct {
    fake_object *target;
    atomic_bool deleted;
} fake_ref;

/* The ops' ctx, or the first member of it. */
typedef struct {
    atomic_long same_calls;
    atomic_long used_after_delete; /* same() or cleared() on a deleted ref: must stay 0 */
    atomic_long deletes;
} fake_refs_env;

static inline int fake_hash(void *ctx, jobject obj, jint *out) {
    (void)ctx;
    *out = ((fake_object *)obj)->hash;
    return 0;
}

static inline jweak fake_new_ref(void *ctx, jobject obj) {
    (void)ctx;
    fake_ref *ref = fake_alloc(sizeof *ref);
    ref->target = (fake_object *)obj;
    return (jweak)ref;
}

static inline bool fake_same(void *ctx, jweak ref, jobject obj) {
    fake_refs_env *env = ctx;
    fake_ref *r = (fake_ref *)ref;
    long calls = atomic_fetch_add(&env->same_calls, 1);
    if (calls % 16 == 0) sched_yield(); /* a reader that dawdles inside, as under preemption */
    if (atomic_load(&r->deleted)) atomic_fetch_add(&env->used_after_delete, 1);
    return r->target == (fake_object *)obj;
}

static inline bool fake_cleared(void *ctx, jweak ref) {
    fake_refs_env *env = ctx;
    fake_ref *r = (fake_ref *)ref;
    if (atomic_load(&r->deleted)) atomic_fetch_add(&env->used_after_delete, 1);
    return !atomic_load(&r->target->alive);
}

static inline void fake_delete_ref(void *ctx, jweak ref) {
    fake_refs_env *env = ctx;
    atomic_store(&((fake_ref *)ref)->deleted, true); /* kept allocated: later uses are seen */
    atomic_fetch_add(&env->deletes, 1);
}

/* Identity hashes like the JVM's: pseudo-random, with collisions possible. */
static inline jint fake_next_hash(uint64_t *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (jint)(*state >> 33);
}

#endif
