/* test_thread_ids.c: unit tests of the thread label cache (src/sampling/thread_ids.c), driven
 * by fake threads instead of a JVM.
 *
 * A fake thread has a name, an identity hash and an `alive` flag (false = collected). The
 * property that C thread-locals broke under virtual threads: one OS thread (a carrier) asks
 * for thread after thread and each gets its own name, its name asked of the JVM once.
 * Also: 100,000 short-lived threads never fill a 64-thread table (slots of collected
 * threads reclaimed) and share ids per name; a full table still answers each thread's own
 * name (asked every time, said once); a thread whose name cannot be had is labelled
 * [unknown thread] and not asked again; the name index finds 10,000 names in constant
 * work. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fakes.h"
#include "sampling/thread_ids.h"
#include "sampling/thread_names.h"
#include "unit.h"

typedef struct {
    fake_object obj; /* first: the fake refs point at it */
    char name[32];
    atomic_int name_calls;
    bool name_fails;
} fake_thread;

typedef fake_refs_env fake_env;

static int fake_name(void *ctx, jthread thread, char *buf, size_t len) {
    (void)ctx;
    fake_thread *t = (fake_thread *)thread;
    atomic_fetch_add(&t->name_calls, 1);
    if (t->name_fails) return 115;
    snprintf(buf, len, "%s", t->name);
    return 0;
}

static const hs_thread_ops OPS = {
    .identity = {fake_hash, fake_new_ref, fake_same, fake_cleared, fake_delete_ref},
    .name = fake_name,
};

static fake_thread *new_thread(const char *name, uint64_t *seed) {
    fake_thread *t = fake_alloc(sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->obj.hash = fake_next_hash(seed);
    atomic_store(&t->obj.alive, true);
    return t;
}

static const char *label(hs_thread_ids *ids, hs_thread_names *names, fake_env *env, fake_thread *t) {
    return hs_thread_names_get(names, hs_thread_ids_get(ids, &OPS, env, (jthread)t));
}

/* One carrier running 1,000 virtual threads in turn, each many times. */
static void test_each_thread_its_own_name(void) {
    hs_thread_names *names = hs_thread_names_create(4096);
    hs_thread_ids *ids = hs_thread_ids_create(4096, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    uint64_t seed = 1;
    enum { THREADS = 1000 };
    fake_thread *threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "vt-%d", i);
        threads[i] = new_thread(name, &seed);
    }
    long wrong = 0;
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < THREADS; i++) {
            const char *got = label(ids, names, &env, threads[(i * 7 + round) % THREADS]);
            if (!got || strcmp(got, threads[(i * 7 + round) % THREADS]->name) != 0) wrong++;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    for (int i = 0; i < THREADS; i++) CU_ASSERT_EQUAL(atomic_load(&threads[i]->name_calls), 1);
    CU_ASSERT_EQUAL(hs_thread_ids_resident(ids), THREADS);
    CU_ASSERT_EQUAL(hs_thread_ids_uncached(ids), 0);
    hs_thread_ids_destroy(ids, &OPS, &env);
    hs_thread_names_destroy(names);
    free_fakes();
}

/* A pool replacing its threads under the same names, 100,000 times over. */
static void test_short_lived_threads_are_reclaimed(void) {
    hs_thread_names *names = hs_thread_names_create(64);
    hs_thread_ids *ids = hs_thread_ids_create(64, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    uint64_t seed = 2;
    enum { THREADS = 100000, LIVE = 16, NAMES = 10 };
    fake_thread *live[LIVE] = {0};
    long wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "pool-1-thread-%d", i % NAMES);
        fake_thread *t = new_thread(name, &seed);
        for (int k = 0; k < 3; k++) {
            const char *got = label(ids, names, &env, t);
            if (!got || strcmp(got, name) != 0) wrong++;
        }
        if (live[i % LIVE]) atomic_store(&live[i % LIVE]->obj.alive, false); /* collected */
        live[i % LIVE] = t;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(hs_thread_ids_uncached(ids), 0);
    CU_ASSERT(hs_thread_ids_reclaimed(ids) >= THREADS - 200);
    CU_ASSERT(hs_thread_ids_resident(ids) <= 128);
    CU_ASSERT_EQUAL(atomic_load(&env.used_after_delete), 0);
    CU_ASSERT_PTR_NULL(hs_thread_names_get(names, 1 + NAMES + 1)); /* ids per name */
    hs_thread_ids_destroy(ids, &OPS, &env);
    hs_thread_names_destroy(names);
    free_fakes();
}

static void test_full_table_still_names_each(void) {
    hs_thread_names *names = hs_thread_names_create(1024);
    hs_thread_ids *ids = hs_thread_ids_create(4, names); /* 8 slots */
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    uint64_t seed = 3;
    long wrong = 0;
    fake_thread *threads[100];
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "worker-%d", i);
        threads[i] = new_thread(name, &seed); /* all alive */
    }
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 100; i++) {
            const char *got = label(ids, names, &env, threads[i]);
            if (!got || strcmp(got, threads[i]->name) != 0) wrong++;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(hs_thread_ids_uncached(ids), 3 * (100 - 8));
    CU_ASSERT_EQUAL(hs_thread_ids_failures(ids), 0);
    hs_thread_ids_destroy(ids, &OPS, &env);
    hs_thread_names_destroy(names);
    free_fakes();
}

static void test_failed_name_is_unknown_once(void) {
    hs_thread_names *names = hs_thread_names_create(16);
    hs_thread_ids *ids = hs_thread_ids_create(16, names);
    fake_env env = {0};
    uint64_t seed = 4;
    fake_thread *t = new_thread("gone", &seed);
    t->name_fails = true;
    for (int i = 0; i < 100; i++)
        CU_ASSERT_EQUAL(hs_thread_ids_get(ids, &OPS, &env, (jthread)t), HS_THREAD_UNKNOWN_ID);
    CU_ASSERT_EQUAL(atomic_load(&t->name_calls), 1);
    CU_ASSERT_STRING_EQUAL(hs_thread_names_get(names, HS_THREAD_UNKNOWN_ID), "[unknown thread]");
    CU_ASSERT_EQUAL(hs_thread_ids_failures(ids), 1); /* counted (and said) once, not per sample */
    hs_thread_ids_destroy(ids, &OPS, &env);
    hs_thread_names_destroy(names);
    free_fakes();
}

static void test_names_index_finds_many(void) {
    enum { NAMES = 10000 };
    hs_thread_names *names = hs_thread_names_create(NAMES + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(names);
    long wrong = 0;
    for (int i = 0; i < NAMES; i++) {
        char name[32];
        snprintf(name, sizeof name, "vt-%d", i);
        if (hs_thread_names_intern(names, name) != (uint32_t)i + 2) wrong++;
    }
    for (int i = 0; i < NAMES; i++) {
        char name[32];
        snprintf(name, sizeof name, "vt-%d", i);
        if (hs_thread_names_intern(names, name) != (uint32_t)i + 2) wrong++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(hs_thread_names_intern(names, "one too many"), 0); /* full */
    CU_ASSERT_EQUAL(hs_thread_names_intern(names, "vt-9999"), NAMES + 1);
    hs_thread_names_destroy(names);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"each thread its own name on one carrier", test_each_thread_its_own_name},
        {"short-lived threads are reclaimed", test_short_lived_threads_are_reclaimed},
        {"a full table still names each thread", test_full_table_still_names_each},
        {"a failed name is unknown, asked once", test_failed_name_is_unknown_once},
        {"the name index finds 10,000 names", test_names_index_finds_many},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("thread ids", tests);
}
