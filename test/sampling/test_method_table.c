/* test_method_table.c: unit tests of the method table (src/sampling/method_table.c) and of
 * the weak slots it reclaims (weak_slots.c), driven by fake methods instead of a JVM.
 *
 * A fake method belongs to a fake class with an `alive` flag (false = unloaded); its
 * jmethodID is the fake's address, never reused within a test, as HotSpot never reuses one
 * of an unloaded class. Checked: 100,000 classes defined and unloaded, three methods each,
 * never fill a 256-method table (the slots of unloaded classes' methods are reclaimed),
 * their frames share three infos, and no frame is left without names; names resolved
 * before a class was unloaded stay readable after its slots were reclaimed; a table full of
 * live methods answers [method table full] in bounded work without resolving again, and one
 * full of the unloaded recovers within 16 frames of no room, whatever the stacks' depths; a
 * failed resolution answers [method not resolved] and frees its slot; under 4 threads
 * translating stacks while classes unload, no deleted ref is ever read and every frame gets
 * its own method's names (or [method table full]: 4 threads on 2 cores, each defining a
 * class every few microseconds into 256 slots, outrun a grace period held up by a reader
 * preempted inside its bracket; a JVM defines classes a thousand times slower); 4 threads
 * meeting the same new method at the same moment never register it twice, and its next
 * sight leaves exactly one entry. */
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sampling/arena.h"
#include "fakes.h"
#include "sampling/method_infos.h"
#include "sampling/method_table.h"
#include "threads.h"
#include "unit.h"

typedef fake_object fake_class; /* only its `alive` flag matters */

typedef struct {
    fake_class *owner;
    char name[48];  /* "Tmpl.work": the same for every class defined from one template */
    int32_t line;   /* its line table: one row, bci 0 */
    atomic_bool fails; /* resolve fails, like a JVMTI error */
} fake_method;

typedef struct {
    fake_refs_env refs; /* first: the fake refs' ctx */
    hs_method_infos *infos;
    atomic_long resolves;
    bool slow; /* resolve yields, as JVMTI calls take time: widens a race of two resolvers */
} fake_env;

static int fake_resolve(void *ctx, uintptr_t id, const hs_method_info **info, jweak *holder) {
    fake_env *env = ctx;
    fake_method *m = (fake_method *)id;
    atomic_fetch_add(&env->resolves, 1);
    if (atomic_load(&m->fails)) return 99;
    if (env->slow) sched_yield();
    hs_line_entry row = {.bci = 0, .line = m->line};
    hs_method_info draft = {.name = m->name, .system_name = m->name, .filename = "Tmpl.java",
                            .start_line = m->line, .nlines = 1, .lines = &row};
    *info = hs_method_infos_intern(env->infos, &draft);
    if (!*info) *info = &hs_method_table_full;
    *holder = fake_new_ref(env, (jobject)m->owner);
    return 0;
}

static const hs_method_ops OPS = {fake_resolve, fake_cleared, fake_delete_ref};

static fake_class *new_class(void) {
    fake_class *c = fake_alloc(sizeof *c);
    atomic_store(&c->alive, true);
    return c;
}

static fake_method *new_method(fake_class *owner, const char *name, int32_t line) {
    fake_method *m = fake_alloc(sizeof *m);
    m->owner = owner;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->line = line;
    return m;
}

/* A stack of one churned class: work <- <init> <- a method of a class that stays. */
typedef struct {
    fake_class *cls;
    fake_method *work, *init;
} churned;

static churned define_template(void) {
    churned c = {.cls = new_class()};
    c.work = new_method(c.cls, "Tmpl.work", 12);
    c.init = new_method(c.cls, "Tmpl.<init>", 5);
    return c;
}

/* Translates [work, init, main] and checks every frame got its method's own names (or, when
 * full_ok, [method table full]). */
static bool translate_and_check(hs_method_table *t, fake_env *env, const churned *c,
                                fake_method *main, const hs_method_info **out, bool full_ok) {
    fake_method *methods[3] = {c->work, c->init, main};
    hs_frame frames[3];
    for (int i = 0; i < 3; i++) frames[i] = (hs_frame){.method = (uintptr_t)methods[i], .bci = 0};
    hs_method_table_translate(t, &OPS, env, frames, 3);
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        const hs_method_info *m = (const hs_method_info *)frames[i].method;
        if (out) out[i] = m;
        if (full_ok && m == &hs_method_table_full) continue;
        ok = ok && m && strcmp(m->name, methods[i]->name) == 0 && m->nlines == 1 &&
             m->lines[0].line == methods[i]->line;
    }
    return ok;
}

static void test_churned_classes_are_reclaimed(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    fake_env env = {.infos = hs_method_infos_create(64, arena)};
    hs_method_table *t = hs_method_table_create(256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fake_method *main = new_method(new_class(), "Main.run", 40);
    enum { CLASSES = 100000, LIVE = 20 };
    churned window[LIVE] = {0}; /* the last LIVE classes are alive */
    const hs_method_info *first[3], *now[3];
    long wrong = 0, shared = 0;
    for (int i = 0; i < CLASSES; i++) {
        churned c = define_template();
        for (int repeat = 0; repeat < 3; repeat++) { /* a few samples of each class */
            if (!translate_and_check(t, &env, &c, main, i == 0 ? first : now, false)) wrong++;
            if (i > 0 && memcmp(first, now, sizeof first) == 0) shared++;
        }
        if (window[i % LIVE].cls) atomic_store(&window[i % LIVE].cls->alive, false);
        window[i % LIVE] = c;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(shared, 3 * (CLASSES - 1)); /* one template: one set of infos */
    CU_ASSERT_EQUAL(hs_method_infos_count(env.infos), 3);
    CU_ASSERT_EQUAL(hs_method_table_full_frames(t), 0);
    CU_ASSERT_EQUAL(hs_method_table_failures(t), 0);
    CU_ASSERT(hs_method_table_reclaimed(t) >= 2 * (CLASSES - 200)); /* slots come back */
    CU_ASSERT(hs_method_table_resident(t) <= 512);                  /* never more than the slots */
    CU_ASSERT_EQUAL(atomic_load(&env.refs.used_after_delete), 0);
    CU_ASSERT_EQUAL((uint64_t)atomic_load(&env.refs.deletes), hs_method_table_reclaimed(t));
    /* each method resolved about once: a known method costs no resolution */
    CU_ASSERT(atomic_load(&env.resolves) <= 2L * CLASSES + 100);
    hs_method_table_destroy(t, &OPS, &env);
    CU_ASSERT_EQUAL(atomic_load(&env.refs.used_after_delete), 0);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

/* A frame resolved while its class was loaded keeps its names after the class is unloaded
 * and its method's slot reclaimed and reused: the profile's interned stacks hold infos,
 * which are never freed. */
static void test_names_survive_unloading(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    fake_env env = {.infos = hs_method_infos_create(4096, arena)};
    hs_method_table *t = hs_method_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fake_class *gone = new_class();
    fake_method *old = new_method(gone, "Script1.run", 7);
    hs_frame frame = {.method = (uintptr_t)old, .bci = 3};
    hs_method_table_translate(t, &OPS, &env, &frame, 1);
    const hs_method_info *kept = (const hs_method_info *)frame.method;
    atomic_store(&gone->alive, false);
    for (int i = 0; i < 2000; i++) { /* other scripts come and go: the old slot is reused */
        fake_class *c = new_class();
        char name[32];
        snprintf(name, sizeof name, "Script%d.run", i + 2);
        hs_frame f = {.method = (uintptr_t)new_method(c, name, 7)};
        hs_method_table_translate(t, &OPS, &env, &f, 1);
        CU_ASSERT_STRING_EQUAL(((const hs_method_info *)f.method)->name, name);
        atomic_store(&c->alive, false);
    }
    CU_ASSERT(hs_method_table_reclaimed(t) > 1000);
    CU_ASSERT_STRING_EQUAL(kept->name, "Script1.run");
    CU_ASSERT_EQUAL(hs_line_for_bci(kept->lines, kept->nlines, frame.bci), 7);
    hs_method_table_destroy(t, &OPS, &env);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

static void test_full_table_is_named_and_bounded(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    fake_env env = {.infos = hs_method_infos_create(4096, arena)};
    hs_method_table *t = hs_method_table_create(4); /* 8 slots */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fake_class *cls = new_class(); /* all alive */
    enum { METHODS = 1000 };
    fake_method *methods[METHODS];
    for (int i = 0; i < METHODS; i++) {
        char name[32];
        snprintf(name, sizeof name, "Live.m%d", i);
        methods[i] = new_method(cls, name, i + 1);
    }
    int full = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < METHODS; i++) {
            hs_frame f = {.method = (uintptr_t)methods[i]};
            hs_method_table_translate(t, &OPS, &env, &f, 1);
            const hs_method_info *m = (const hs_method_info *)f.method;
            if (m == &hs_method_table_full) full++;
            else CU_ASSERT_STRING_EQUAL(m->name, methods[i]->name);
        }
    }
    CU_ASSERT_EQUAL(full, 3 * (METHODS - 8));
    CU_ASSERT_EQUAL(hs_method_table_full_frames(t), (uint64_t)full);
    CU_ASSERT_EQUAL(atomic_load(&env.resolves), 8); /* a full window resolves nothing */
    CU_ASSERT_STRING_EQUAL(hs_method_table_full.name, "[method table full]");
    hs_method_table_destroy(t, &OPS, &env);
    CU_ASSERT_EQUAL(atomic_load(&env.refs.deletes), 8);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

/* A table full of the methods of an unloaded class, with no slot left to register in: the
 * frames that find no room reclaim now and then, and the table recovers, whatever the
 * frames per stack. Filling it leaves 56 frames counted full; stacks of 16 frames kept that
 * count at 8 modulo 16, and a shared count read modulo 16 never reclaimed. */
enum { MAX_STACK = 16 };

static void full_of_the_unloaded_recovers(int frames_per_stack) {
    CU_ASSERT_FATAL(frames_per_stack >= 1 && frames_per_stack <= MAX_STACK);
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    fake_env env = {.infos = hs_method_infos_create(4096, arena)};
    hs_method_table *t = hs_method_table_create(4); /* 8 slots */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fake_class *gone = new_class();
    for (int i = 0; i < 64; i++) {
        char name[32];
        snprintf(name, sizeof name, "Old.m%d", i);
        hs_frame f = {.method = (uintptr_t)new_method(gone, name, 1)};
        hs_method_table_translate(t, &OPS, &env, &f, 1);
    }
    CU_ASSERT_EQUAL(hs_method_table_resident(t), 8);
    CU_ASSERT_EQUAL(hs_method_table_full_frames(t), 56);
    atomic_store(&gone->alive, false);
    fake_method *m = new_method(new_class(), "New.run", 3);
    int full = 0;
    for (int i = 0; i < 64; i++) {
        hs_frame frames[MAX_STACK];
        for (int k = 0; k < frames_per_stack; k++) frames[k] = (hs_frame){.method = (uintptr_t)m};
        hs_method_table_translate(t, &OPS, &env, frames, (uint32_t)frames_per_stack);
        for (int k = 0; k < frames_per_stack; k++)
            full += (const hs_method_info *)frames[k].method == &hs_method_table_full;
    }
    CU_ASSERT(full <= 16); /* a thread's 16th full frame reclaims */
    CU_ASSERT_EQUAL(hs_method_table_reclaimed(t), 8);
    hs_method_table_destroy(t, &OPS, &env);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

static void test_full_of_the_unloaded_recovers(void) {
    full_of_the_unloaded_recovers(1);
    full_of_the_unloaded_recovers(16);
}

static void test_failed_resolution_frees_its_slot(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 20);
    fake_env env = {.infos = hs_method_infos_create(64, arena)};
    hs_method_table *t = hs_method_table_create(16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    fake_method *m = new_method(new_class(), "Broken.m", 1);
    atomic_store(&m->fails, true);
    for (int i = 0; i < 1000; i++) { /* every attempt fails and leaves no slot behind */
        hs_frame f = {.method = (uintptr_t)m};
        hs_method_table_translate(t, &OPS, &env, &f, 1);
        CU_ASSERT_PTR_EQUAL((const hs_method_info *)f.method, &hs_method_unresolved);
    }
    CU_ASSERT_STRING_EQUAL(hs_method_unresolved.name, "[method not resolved]");
    CU_ASSERT_EQUAL(hs_method_table_resident(t), 0);
    CU_ASSERT_EQUAL(hs_method_table_failures(t), 1000);
    CU_ASSERT_EQUAL(hs_method_table_full_frames(t), 0); /* never "full" */
    atomic_store(&m->fails, false);
    hs_frame f = {.method = (uintptr_t)m};
    hs_method_table_translate(t, &OPS, &env, &f, 1);
    CU_ASSERT_STRING_EQUAL(((const hs_method_info *)f.method)->name, "Broken.m");
    hs_method_table_destroy(t, &OPS, &env);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

/* ---- concurrent: translations racing reclamation --------------------------------------- */

typedef struct {
    hs_method_table *table;
    fake_env *env;
    fake_method *main;
    int id;
    long wrong; /* frames with another method's names */
} worker;

static void *churn(void *arg) {
    worker *w = arg;
    enum { ROUNDS = 20000, LIVE = 8 };
    churned live[LIVE] = {0};
    for (int i = 0; i < ROUNDS; i++) {
        churned c = define_template();
        if (i % 3 == w->id % 3) snprintf(c.work->name, sizeof c.work->name, "Other%d.work", i % 50);
        for (int k = 0; k < LIVE; k++) { /* stacks of the live classes again, racing the reclaimer */
            const churned *other = k == 0 ? &c : &live[k];
            if (other->cls && !translate_and_check(w->table, w->env, other, w->main, NULL, true)) w->wrong++;
        }
        if (live[i % LIVE].cls) atomic_store(&live[i % LIVE].cls->alive, false);
        live[i % LIVE] = c;
    }
    return NULL;
}

static void race_translations_with_reclaim(int rounds) {
    for (int round = 0; round < rounds; round++) {
        hs_arena *arena = hs_arena_create(1 << 16, 1 << 22);
        fake_env env = {.infos = hs_method_infos_create(4096, arena)};
        hs_method_table *t = hs_method_table_create(256);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        fake_method *main = new_method(new_class(), "Main.run", 40);
        worker workers[4];
        for (int i = 0; i < 4; i++)
            workers[i] = (worker){.table = t, .env = &env, .main = main, .id = i + round};
        run_threads(4, churn, workers, sizeof workers[0]);
        for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(workers[i].wrong, 0);
        CU_ASSERT_EQUAL(atomic_load(&env.refs.used_after_delete), 0);
        CU_ASSERT(hs_method_table_reclaimed(t) > 0);
        hs_method_table_destroy(t, &OPS, &env);
        hs_method_infos_destroy(env.infos);
        hs_arena_destroy(arena);
        free_fakes();
    }
}

static void test_concurrent_reclaim_never_reads_deleted_refs(void) {
    race_translations_with_reclaim(stress_rounds() / 5 + 1);
}

/* ---- concurrent: one method met by several threads at once --------------------------- */

enum { MEET_THREADS = 4, MEET_ROUNDS = 500 };

typedef struct {
    hs_method_table *table;
    fake_env *env;
    fake_method **methods; /* one new method per round */
    pthread_barrier_t *meet;
    long wrong;
} meeter;

static void *meet_new_methods(void *arg) {
    meeter *m = arg;
    for (int round = 0; round < MEET_ROUNDS; round++) {
        pthread_barrier_wait(m->meet); /* all threads see the round's method for the first time */
        hs_frame f = {.method = (uintptr_t)m->methods[round]};
        hs_method_table_translate(m->table, &OPS, m->env, &f, 1);
        const hs_method_info *info = (const hs_method_info *)f.method;
        if (!info || strcmp(info->name, m->methods[round]->name) != 0) m->wrong++;
    }
    return NULL;
}

static void test_racing_resolvers_register_once(void) {
    hs_arena *arena = hs_arena_create(1 << 16, 1 << 22);
    fake_env env = {.infos = hs_method_infos_create(4 * MEET_ROUNDS, arena), .slow = true};
    hs_method_table *t = hs_method_table_create(4 * MEET_ROUNDS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    static fake_method *methods[MEET_ROUNDS];
    for (int i = 0; i < MEET_ROUNDS; i++) {
        char name[48];
        snprintf(name, sizeof name, "Met%d.run", i);
        methods[i] = new_method(new_class(), name, i + 1);
    }
    pthread_barrier_t meet;
    pthread_barrier_init(&meet, NULL, MEET_THREADS);
    meeter meeters[MEET_THREADS];
    pthread_t threads[MEET_THREADS];
    for (int i = 0; i < MEET_THREADS; i++) {
        meeters[i] = (meeter){.table = t, .env = &env, .methods = methods, .meet = &meet};
        pthread_create(&threads[i], NULL, meet_new_methods, &meeters[i]);
    }
    for (int i = 0; i < MEET_THREADS; i++) {
        pthread_join(threads[i], NULL);
        CU_ASSERT_EQUAL(meeters[i].wrong, 0);
    }
    pthread_barrier_destroy(&meet);
    /* Never two entries of a method. Claimers that see each other's claim may all step back
     * (each resolves for its own frame; nothing is registered), which arm64 under qemu does
     * about once in 500 rounds: the next sight of the method registers it. After one more
     * sight of each, every method has exactly one entry. */
    CU_ASSERT(hs_method_table_resident(t) <= MEET_ROUNDS);
    for (int i = 0; i < MEET_ROUNDS; i++) {
        hs_frame f = {.method = (uintptr_t)methods[i]};
        hs_method_table_translate(t, &OPS, &env, &f, 1);
        CU_ASSERT_STRING_EQUAL(((const hs_method_info *)f.method)->name, methods[i]->name);
    }
    CU_ASSERT_EQUAL(hs_method_table_resident(t), MEET_ROUNDS); /* one entry per method */
    /* Every resolution's ref is deleted except the registered entries' own. */
    CU_ASSERT_EQUAL(atomic_load(&env.refs.deletes), atomic_load(&env.resolves) - MEET_ROUNDS);
    hs_method_table_destroy(t, &OPS, &env);
    hs_method_infos_destroy(env.infos);
    hs_arena_destroy(arena);
    free_fakes();
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"churned classes' methods are reclaimed", test_churned_classes_are_reclaimed},
        {"names survive their class's unloading", test_names_survive_unloading},
        {"full table is named and bounded", test_full_table_is_named_and_bounded},
        {"a table full of the unloaded recovers", test_full_of_the_unloaded_recovers},
        {"failed resolution frees its slot", test_failed_resolution_frees_its_slot},
        {"concurrent reclaim never reads deleted refs",
         test_concurrent_reclaim_never_reads_deleted_refs},
        {"racing resolvers register a method once", test_racing_resolvers_register_once},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("method table", tests);
}
