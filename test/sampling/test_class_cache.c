/* test_class_cache.c: unit tests of the class cache (src/sampling/class_cache.c), driven by fake
 * classes instead of a JVM.
 *
 * A fake class has a name, an identity hash and an `alive` flag (false = unloaded); a fake
 * weak ref points at its class and records whether it was deleted. Checked: 100,000
 * classes loaded and unloaded over 10 names never fill a 64-id cache (ids per name, slots
 * reclaimed), with a bounded number of identity checks per lookup; a full cache answers
 * "[class table full]" in bounded work, never a scan; a failed registration frees its
 * slot; and under 4 threads looking up and unloading classes while slots are reclaimed,
 * no deleted ref is ever read (the grace period holds). */
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/arena.h"
#include "sampling/class_cache.h"
#include "fakes.h"
#include "threads.h"
#include "unit.h"

typedef struct {
    fake_object obj; /* first: the fake refs point at it */
    char name[32];
    atomic_bool name_fails; /* the name op fails, like a JVMTI error */
} fake_class;

typedef fake_refs_env fake_env;

static int fake_name(void *ctx, jclass klass, char *buf, size_t len) {
    (void)ctx;
    fake_class *c = (fake_class *)klass;
    if (atomic_load(&c->name_fails)) return 99;
    snprintf(buf, len, "%s", c->name);
    return 0;
}

static const hs_class_ops OPS = {
    .identity = {fake_hash, fake_new_ref, fake_same, fake_cleared, fake_delete_ref},
    .name = fake_name,
};

static fake_class *new_class(const char *name, uint64_t *seed) {
    fake_class *c = fake_alloc(sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->obj.hash = fake_next_hash(seed);
    atomic_store(&c->obj.alive, true);
    return c;
}

static void test_flood_recycles(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_class_cache *cache = hs_class_cache_create(64, arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
    fake_env env = {0};
    uint64_t seed = 42;
    enum { CLASSES = 100000, NAMES = 10, LIVE = 20 };
    fake_class *window[LIVE] = {0}; /* the last LIVE classes are alive */
    long full = 0, wrong = 0;
    for (int i = 0; i < CLASSES; i++) {
        char name[32];
        snprintf(name, sizeof name, "Gen%d", i % NAMES);
        fake_class *c = new_class(name, &seed);
        int err = 0;
        for (int repeat = 0; repeat < 3; repeat++) { /* a few samples of each class */
            uint32_t id = hs_class_cache_id(cache, &OPS, &env, (jclass)c, &err);
            if (id == HS_CLASS_CACHE_FULL) full++;
            else if (!hs_class_cache_name(cache, id) || strcmp(hs_class_cache_name(cache, id), name))
                wrong++;
        }
        if (window[i % LIVE]) atomic_store(&window[i % LIVE]->obj.alive, false); /* unloaded */
        window[i % LIVE] = c;
    }
    CU_ASSERT_EQUAL(full, 0);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(hs_class_cache_count(cache), 1 + NAMES); /* ids per name */
    CU_ASSERT(hs_class_cache_reclaimed(cache) >= CLASSES - 200); /* slots come back */
    CU_ASSERT(hs_class_cache_resident(cache) <= 128);            /* never more than the slots */
    CU_ASSERT_EQUAL(atomic_load(&env.used_after_delete), 0);
    CU_ASSERT_EQUAL((uint64_t)atomic_load(&env.deletes), hs_class_cache_reclaimed(cache));
    /* constant cost: identity checks per lookup stay a small constant */
    double per_lookup = (double)atomic_load(&env.same_calls) / (3.0 * CLASSES);
    CU_ASSERT(per_lookup < 4.0);
    hs_class_cache_destroy(cache, &OPS, &env);
    hs_arena_destroy(arena);
    free_fakes();
}

static void test_full_is_named_and_bounded(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_class_cache *cache = hs_class_cache_create(4, arena); /* the pseudo-class and 3 ids */
    CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
    fake_env env = {0};
    uint64_t seed = 7;
    int full = 0;
    for (int i = 0; i < 2000; i++) { /* all alive, all distinct names */
        char name[32];
        snprintf(name, sizeof name, "Live%d", i);
        fake_class *c = new_class(name, &seed);
        long before = atomic_load(&env.same_calls);
        int err = 0;
        uint32_t id = hs_class_cache_id(cache, &OPS, &env, (jclass)c, &err);
        CU_ASSERT(atomic_load(&env.same_calls) - before <= 32 * 4); /* a few windows, no scan */
        if (id == HS_CLASS_CACHE_FULL) full++;
        else CU_ASSERT_STRING_EQUAL(hs_class_cache_name(cache, id), name);
    }
    CU_ASSERT_EQUAL(full, 2000 - 3);
    CU_ASSERT_STRING_EQUAL(hs_class_cache_name(cache, HS_CLASS_CACHE_FULL), "[class table full]");
    CU_ASSERT(hs_class_cache_overflow(cache) >= 2000 - 3);
    CU_ASSERT_PTR_NULL(hs_class_cache_name(cache, 0));
    CU_ASSERT_PTR_NULL(hs_class_cache_name(cache, 5));
    hs_class_cache_destroy(cache, &OPS, &env);
    hs_arena_destroy(arena);
    free_fakes();
}

static jweak no_ref(void *ctx, jobject obj) {
    (void)ctx;
    (void)obj;
    return NULL; /* NewWeakGlobalRef out of memory */
}

/* The JVM makes no weak ref: each lookup still answers the class's id, registers nothing,
 * and is counted (the agent says it once and counts it in the exit log). */
static void test_failed_weak_ref_is_counted(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_class_cache *cache = hs_class_cache_create(16, arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
    fake_env env = {0};
    uint64_t seed = 10;
    fake_class *c = new_class("NoRef", &seed);
    hs_class_ops ops = OPS;
    ops.identity.new_ref = no_ref;
    for (int i = 0; i < 5; i++) {
        int err = 0;
        uint32_t id = hs_class_cache_id(cache, &ops, &env, (jclass)c, &err);
        CU_ASSERT_EQUAL(id, 2);
        CU_ASSERT_STRING_EQUAL(hs_class_cache_name(cache, id), "NoRef");
    }
    CU_ASSERT_EQUAL(hs_class_cache_resident(cache), 0);
    CU_ASSERT_EQUAL(hs_class_cache_ref_failures(cache), 5);
    hs_class_cache_destroy(cache, &OPS, &env);
    hs_arena_destroy(arena);
    free_fakes();
}

static void test_failed_registration_frees_its_slot(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    hs_class_cache *cache = hs_class_cache_create(16, arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
    fake_env env = {0};
    uint64_t seed = 9;
    fake_class *c = new_class("Broken", &seed);
    atomic_store(&c->name_fails, true);
    for (int i = 0; i < 1000; i++) { /* every attempt fails and leaves no slot behind */
        int err = 0;
        CU_ASSERT_EQUAL(hs_class_cache_id(cache, &OPS, &env, (jclass)c, &err), 0);
        CU_ASSERT_EQUAL(err, 99);
    }
    CU_ASSERT_EQUAL(hs_class_cache_resident(cache), 0);
    CU_ASSERT_EQUAL(hs_class_cache_count(cache), 1);
    CU_ASSERT_EQUAL(hs_class_cache_overflow(cache), 0); /* never "full" */
    atomic_store(&c->name_fails, false);
    int err = 0;
    uint32_t id = hs_class_cache_id(cache, &OPS, &env, (jclass)c, &err);
    CU_ASSERT_EQUAL(id, 2);
    CU_ASSERT_STRING_EQUAL(hs_class_cache_name(cache, id), "Broken");
    hs_class_cache_destroy(cache, &OPS, &env);
    CU_ASSERT_EQUAL(atomic_load(&env.deletes), 1); /* destroy deletes the one ref */
    hs_arena_destroy(arena);
    free_fakes();
}

/* ---- concurrent: lookups racing reclamation ----------------------------------------- */

typedef struct {
    hs_class_cache *cache;
    fake_env *env;
    uint64_t seed;
    long bad; /* wrong names seen */
} worker;

/* Identity hashes from a small set: every probe then compares refs (same()) of slots of
 * other classes, dead ones included, which is where a deleted ref would be read. */
static fake_class *new_colliding_class(const char *name, uint64_t *seed) {
    fake_class *c = new_class(name, seed);
    c->obj.hash &= 63;
    return c;
}

static void *churn(void *arg) {
    worker *w = arg;
    enum { ROUNDS = 20000, LIVE = 8 };
    fake_class *live[LIVE] = {0};
    for (int i = 0; i < ROUNDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "C%d", i % 50);
        fake_class *c = new_colliding_class(name, &w->seed);
        for (int k = 0; k < LIVE; k++) { /* look up the live ones again, racing the reclaimer */
            fake_class *other = k == 0 ? c : live[k];
            if (!other) continue;
            int err = 0;
            uint32_t id = hs_class_cache_id(w->cache, &OPS, w->env, (jclass)other, &err);
            const char *got = hs_class_cache_name(w->cache, id);
            if (id != HS_CLASS_CACHE_FULL && (!got || strcmp(got, other->name) != 0)) w->bad++;
        }
        if (live[i % LIVE]) atomic_store(&live[i % LIVE]->obj.alive, false);
        live[i % LIVE] = c;
    }
    return NULL;
}

static void race_lookups_with_reclaim(int rounds) {
    for (int round = 0; round < rounds; round++) {
        hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
        hs_class_cache *cache = hs_class_cache_create(256, arena);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
        fake_env env = {0};
        worker workers[4];
        for (int t = 0; t < 4; t++)
            workers[t] = (worker){.cache = cache, .env = &env, .seed = (uint64_t)t * 977 + round};
        run_threads(4, churn, workers, sizeof workers[0]);
        for (int t = 0; t < 4; t++) CU_ASSERT_EQUAL(workers[t].bad, 0);
        CU_ASSERT_EQUAL(atomic_load(&env.used_after_delete), 0);
        CU_ASSERT(hs_class_cache_reclaimed(cache) > 0);
        CU_ASSERT(hs_class_cache_count(cache) <= 1 + 50 + 4 * 50); /* racers may split a name */
        hs_class_cache_destroy(cache, &OPS, &env);
        hs_arena_destroy(arena);
        free_fakes();
    }
}

static void test_concurrent_reclaim_never_reads_deleted_refs(void) {
    race_lookups_with_reclaim(stress_rounds() / 5 + 1);
}

static void pause_a_little(void) {
    for (int i = 0; i < 3; i++) sched_yield();
}

/* A reader held up between reading the epoch and counting itself in (the pause widens
 * that window) while other threads' reclaims flip the epoch twice: it must not count
 * itself in under the stale parity. Without the epoch's re-check this read deleted refs
 * in every run. */
static void test_reader_held_up_before_counting_in(void) {
    hs_class_cache_set_reader_pause(pause_a_little);
    race_lookups_with_reclaim(1);
    hs_class_cache_set_reader_pause(NULL);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"flood of unloaded classes recycles", test_flood_recycles},
        {"full cache is named and bounded", test_full_is_named_and_bounded},
        {"failed registration frees its slot", test_failed_registration_frees_its_slot},
        {"a failed weak ref is counted", test_failed_weak_ref_is_counted},
        {"concurrent reclaim never reads deleted refs",
         test_concurrent_reclaim_never_reads_deleted_refs},
        {"a reader held up before counting itself in", test_reader_held_up_before_counting_in},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("class cache", tests);
}
