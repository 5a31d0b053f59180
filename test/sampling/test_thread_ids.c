/* test_thread_ids.c: unit tests of the thread label cache (src/sampling/thread_ids.c), driven
 * by fake threads instead of a JVM.
 *
 * A fake thread has a thread id (handed out in sequence and never reused, as the JVM's
 * java.lang.Thread.tid) and a name. The property that C thread-locals broke under virtual
 * threads: one OS thread (a carrier) asks for thread after thread and each gets its own
 * name, read once. Also: 100,000 short-lived threads in a 64-thread table, each named right
 * and read once, ids shared per name; threads evicting each other from a tiny table still
 * get their own names, from 4 racing carriers too; a thread whose name cannot be had is
 * labelled [unknown thread] and not asked again; a JVM that gives no thread id has names
 * read at every sample (said once); the name index finds 10,000 names in constant work. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fakes.h"
#include "sampling/thread_ids.h"
#include "sampling/thread_names.h"
#include "unit.h"

typedef struct {
    uint64_t tid;
    char name[32];
    atomic_int name_calls;
    bool name_fails;
} fake_thread;

typedef struct {
    atomic_long id_calls;
    bool ids_fail; /* a JVM without Thread.tid */
} fake_env;

static int fake_id(void *ctx, jthread thread, uint64_t *out) {
    fake_env *env = ctx;
    atomic_fetch_add(&env->id_calls, 1);
    if (env->ids_fail) return -1;
    *out = ((fake_thread *)thread)->tid;
    return 0;
}

static int fake_name(void *ctx, jthread thread, char *buf, size_t len) {
    (void)ctx;
    fake_thread *t = (fake_thread *)thread;
    atomic_fetch_add(&t->name_calls, 1);
    if (t->name_fails) return 115;
    snprintf(buf, len, "%s", t->name);
    return 0;
}

static const hs_thread_ops OPS = {.id = fake_id, .name = fake_name};

static uint64_t next_tid = 1;

static fake_thread *new_thread(const char *name) {
    fake_thread *t = fake_alloc(sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->tid = next_tid++;
    return t;
}

static const char *label(hs_thread_ids *ids, hs_thread_names *names, fake_env *env, fake_thread *t) {
    return hs_thread_names_get(names, hs_thread_ids_get(ids, &OPS, env, (jthread)t));
}

/* One carrier running 1,000 virtual threads in turn, each many times: each thread's own
 * name, read once; every later sample costs one id read and nothing else. */
static void test_each_thread_its_own_name(void) {
    hs_thread_names *names = hs_thread_names_create(4096);
    hs_thread_ids *ids = hs_thread_ids_create(4096, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    enum { THREADS = 1000, ROUNDS = 20 };
    fake_thread *threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "vt-%d", i);
        threads[i] = new_thread(name);
    }
    long wrong = 0;
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < THREADS; i++) {
            fake_thread *t = threads[(i * 7 + round) % THREADS];
            const char *got = label(ids, names, &env, t);
            if (!got || strcmp(got, t->name) != 0) wrong++;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    for (int i = 0; i < THREADS; i++) CU_ASSERT_EQUAL(atomic_load(&threads[i]->name_calls), 1);
    CU_ASSERT_EQUAL(hs_thread_ids_names_read(ids), THREADS);
    CU_ASSERT_EQUAL(atomic_load(&env.id_calls), THREADS * ROUNDS);
    CU_ASSERT_EQUAL(hs_thread_ids_uncached(ids), 0);
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    free_fakes();
}

/* A pool replacing its threads under the same names, 100,000 times over, 16 alive at once
 * in a table for 64: the entries of ended threads make room, a live one is never evicted. */
static void test_short_lived_threads(void) {
    hs_thread_names *names = hs_thread_names_create(64);
    hs_thread_ids *ids = hs_thread_ids_create(64, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    enum { THREADS = 100000, LIVE = 16, NAMES = 10 };
    fake_thread *live[LIVE] = {0};
    long wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "pool-1-thread-%d", i % NAMES);
        live[i % LIVE] = new_thread(name); /* the one it replaces has ended */
        for (int k = 0; k < LIVE; k++) {
            const char *got = live[k] ? label(ids, names, &env, live[k]) : NULL;
            if (live[k] && (!got || strcmp(got, live[k]->name) != 0)) wrong++;
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(hs_thread_ids_names_read(ids), THREADS); /* each thread's name read once */
    CU_ASSERT_PTR_NULL(hs_thread_names_get(names, 1 + NAMES + 1)); /* ids per name */
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    free_fakes();
}

/* 100 threads alive in a table for 8 (two lines): they evict each other, and each still
 * gets its own name, read again after its eviction. A thread id too large to pack is not
 * cached, and right. */
static void test_evicted_threads_named_right(void) {
    hs_thread_names *names = hs_thread_names_create(1024);
    hs_thread_ids *ids = hs_thread_ids_create(8, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    fake_thread *threads[100];
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "worker-%d", i);
        threads[i] = new_thread(name);
    }
    threads[99]->tid = UINT64_MAX - 1;
    long wrong = 0;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 100; i++) {
            const char *got = label(ids, names, &env, threads[i]);
            if (!got || strcmp(got, threads[i]->name) != 0) wrong++;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT(hs_thread_ids_names_read(ids) > 100);
    CU_ASSERT_EQUAL(atomic_load(&threads[99]->name_calls), 3);
    CU_ASSERT_EQUAL(hs_thread_ids_failures(ids), 0);
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    free_fakes();
}

typedef struct {
    hs_thread_ids *ids;
    hs_thread_names *names;
    fake_env *env;
    fake_thread **threads;
    int count;
    unsigned seed;
    long wrong;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    for (int n = 0; n < 200000; n++) {
        r->seed = r->seed * 1103515245u + 12345u;
        fake_thread *t = r->threads[(r->seed >> 8) % (unsigned)r->count];
        const char *got = label(r->ids, r->names, r->env, t);
        if (!got || strcmp(got, t->name) != 0) r->wrong++;
    }
    return NULL;
}

/* Four carriers labelling 500 threads through a 16-entry table, evicting each other's
 * entries all the time: never another thread's name. */
static void test_racing_carriers_never_mix_names(void) {
    enum { THREADS = 500, RACERS = 4 };
    /* Room for every id racing interns can hand out (a name interned by several racers at
     * once may get an id each): a full name table would answer [unknown thread]. */
    hs_thread_names *names = hs_thread_names_create(RACERS * THREADS + 1);
    hs_thread_ids *ids = hs_thread_ids_create(16, names);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    fake_env env = {0};
    fake_thread *threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "vt-%d", i);
        threads[i] = new_thread(name);
    }
    racer racers[RACERS];
    pthread_t tids[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (racer){ids, names, &env, threads, THREADS, (unsigned)i + 1, 0};
        pthread_create(&tids[i], NULL, race, &racers[i]);
    }
    long wrong = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(tids[i], NULL);
        wrong += racers[i].wrong;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    free_fakes();
}

static void test_failed_name_is_unknown_once(void) {
    hs_thread_names *names = hs_thread_names_create(16);
    hs_thread_ids *ids = hs_thread_ids_create(16, names);
    fake_env env = {0};
    fake_thread *t = new_thread("gone");
    t->name_fails = true;
    for (int i = 0; i < 100; i++)
        CU_ASSERT_EQUAL(hs_thread_ids_get(ids, &OPS, &env, (jthread)t), HS_THREAD_UNKNOWN_ID);
    CU_ASSERT_EQUAL(atomic_load(&t->name_calls), 1);
    CU_ASSERT_STRING_EQUAL(hs_thread_names_get(names, HS_THREAD_UNKNOWN_ID), "[unknown thread]");
    CU_ASSERT_EQUAL(hs_thread_ids_failures(ids), 1); /* counted (and said) once, not per sample */
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    free_fakes();
}

/* A JVM whose threads carry no id: each sample reads the name, still right. */
static void test_no_thread_id_reads_names(void) {
    hs_thread_names *names = hs_thread_names_create(16);
    hs_thread_ids *ids = hs_thread_ids_create(16, names);
    fake_env env = {.ids_fail = true};
    fake_thread *a = new_thread("a"), *b = new_thread("b");
    for (int i = 0; i < 10; i++) {
        CU_ASSERT_STRING_EQUAL(label(ids, names, &env, a), "a");
        CU_ASSERT_STRING_EQUAL(label(ids, names, &env, b), "b");
    }
    CU_ASSERT_EQUAL(atomic_load(&a->name_calls), 10);
    CU_ASSERT_EQUAL(hs_thread_ids_uncached(ids), 20);
    CU_ASSERT_EQUAL(hs_thread_ids_failures(ids), 0);
    hs_thread_ids_destroy(ids);
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
        {"short-lived threads, each name read once", test_short_lived_threads},
        {"evicted threads are named right", test_evicted_threads_named_right},
        {"racing carriers never mix names", test_racing_carriers_never_mix_names},
        {"a failed name is unknown, asked once", test_failed_name_is_unknown_once},
        {"no thread id: names read every sample", test_no_thread_id_reads_names},
        {"the name index finds 10,000 names", test_names_index_finds_many},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("thread ids", tests);
}
