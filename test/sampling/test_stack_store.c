/* test_stack_store.c: unit tests of stack interning (src/sampling/stack_store.c).
 *
 * Single-threaded: equal stacks share an id, any difference (method, bci, depth, truncated
 * flag) gives a new one, get round-trips, a full store and a spent frame budget return 0
 * and count drops; one thread alone numbers its stacks 1, 2, 3... Concurrent: 8 threads
 * intern overlapping sets of stacks; every distinct stack must get exactly one id, which
 * holds exactly its stack; ids are unique and within 1..count, and every other id there is
 * a hole (a lost race) on which get fails, never more holes than races that could be lost.
 * Worker threads only record results; the main thread asserts (CUnit is not thread-safe). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/stack_store.h"
#include "threads.h"
#include "unit.h"

#define METHOD_BASE ((uintptr_t)0x7f3a12340000ULL)

static bool frames_equal(const hs_frame *a, const hs_frame *b, uint32_t depth) {
    for (uint32_t i = 0; i < depth; i++)
        if (a[i].method != b[i].method || a[i].bci != b[i].bci) return false;
    return true;
}

/* Checks that id holds exactly (frames, depth, truncated). */
static bool holds(const hs_stack_store *store, uint32_t id, const hs_frame *frames, uint32_t depth,
                  bool truncated) {
    uint32_t got_depth = 0;
    bool got_truncated = !truncated;
    const hs_frame *got = hs_stack_store_get(store, id, &got_depth, &got_truncated);
    return got && got_depth == depth && got_truncated == truncated &&
           frames_equal(got, frames, depth);
}

static void test_equal_stacks_share_an_id(void) {
    hs_stack_store *store = hs_stack_store_create(64, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame a[3] = {{METHOD_BASE + 8, 12}, {METHOD_BASE + 16, 3}, {METHOD_BASE, -1}};
    hs_frame copy[3];
    memcpy(copy, a, sizeof a);
    uint32_t id = hs_stack_store_intern(store, a, 3, false);
    CU_ASSERT_EQUAL(id, 1);
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, copy, 3, false), id); /* other buffer */
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, a, 3, false), id);
    CU_ASSERT_EQUAL(hs_stack_store_count(store), 1);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 0);
    hs_stack_store_destroy(store);
}

static void test_add_tells_who_stored_the_stack(void) {
    hs_stack_store *store = hs_stack_store_create(64, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame a[2] = {{METHOD_BASE + 8, 1}, {METHOD_BASE, 2}};
    hs_frame b[2] = {{METHOD_BASE + 8, 1}, {METHOD_BASE, 3}};
    bool is_new = false;
    uint32_t id = hs_stack_store_add(store, a, 2, false, &is_new);
    CU_ASSERT_TRUE(is_new);
    CU_ASSERT_EQUAL(hs_stack_store_add(store, a, 2, false, &is_new), id);
    CU_ASSERT_FALSE(is_new);
    CU_ASSERT_NOT_EQUAL(hs_stack_store_add(store, b, 2, false, &is_new), id);
    CU_ASSERT_TRUE(is_new);
    CU_ASSERT_EQUAL(hs_stack_store_add(store, b, 2, false, NULL), 2); /* NULL is fine */
    hs_stack_store_destroy(store);
}

static void test_hints(void) {
    hs_stack_store *store = hs_stack_store_create(64, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame a[1] = {{METHOD_BASE, 1}};
    uint32_t id = hs_stack_store_intern(store, a, 1, false);
    CU_ASSERT_EQUAL(hs_stack_store_hint(store, id), 0);
    hs_stack_store_set_hint(store, id, 42);
    CU_ASSERT_EQUAL(hs_stack_store_hint(store, id), 42);
    uint64_t wide = (uint64_t)0x9abcdef1 << 32 | 43; /* a bucket and its key's print */
    hs_stack_store_set_hint(store, id, wide);
    CU_ASSERT_EQUAL(hs_stack_store_hint(store, id), wide);
    hs_stack_store_set_hint(store, id + 1, 7); /* unknown ids: ignored */
    CU_ASSERT_EQUAL(hs_stack_store_hint(store, id + 1), 0);
    CU_ASSERT_EQUAL(hs_stack_store_hint(store, 0), 0);
    hs_stack_store_destroy(store);
}

static void test_padding_is_ignored(void) {
    /* hs_frame has 4 padding bytes; callers (the sampler rewrites jvmtiFrameInfo in place)
     * leave garbage there. Equal fields must still mean equal stacks. */
    hs_stack_store *store = hs_stack_store_create(8, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame clean[2], dirty[2];
    memset(clean, 0, sizeof clean);
    memset(dirty, 0xAB, sizeof dirty);
    for (int i = 0; i < 2; i++) {
        clean[i].method = dirty[i].method = METHOD_BASE + 8 * (uintptr_t)i;
        clean[i].bci = dirty[i].bci = 7 * i;
    }
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, clean, 2, false),
                    hs_stack_store_intern(store, dirty, 2, false));
    hs_stack_store_destroy(store);
}

static void test_any_difference_gives_a_new_id(void) {
    hs_stack_store *store = hs_stack_store_create(64, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame base[4] = {{METHOD_BASE + 8, 12}, {METHOD_BASE + 16, 3}, {METHOD_BASE + 24, 0},
                        {METHOD_BASE + 32, -1}};
    hs_frame other_method[4], other_bci[4];
    memcpy(other_method, base, sizeof base);
    memcpy(other_bci, base, sizeof base);
    other_method[2].method = METHOD_BASE + 40; /* one method, deep in the stack */
    other_bci[1].bci = 4;                       /* one bci */
    uint32_t ids[6] = {
        hs_stack_store_intern(store, base, 4, false),
        hs_stack_store_intern(store, other_method, 4, false),
        hs_stack_store_intern(store, other_bci, 4, false),
        hs_stack_store_intern(store, base, 3, false), /* a prefix: one frame less */
        hs_stack_store_intern(store, base, 4, true),  /* same frames, cut by depth= */
        hs_stack_store_intern(store, NULL, 0, false), /* the empty stack */
    };
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(ids[i], (uint32_t)i + 1); /* all new, numbered in order */
    }
    CU_ASSERT_EQUAL(hs_stack_store_count(store), 6);
    CU_ASSERT(holds(store, ids[0], base, 4, false));
    CU_ASSERT(holds(store, ids[1], other_method, 4, false));
    CU_ASSERT(holds(store, ids[2], other_bci, 4, false));
    CU_ASSERT(holds(store, ids[3], base, 3, false));
    CU_ASSERT(holds(store, ids[4], base, 4, true));
    CU_ASSERT(holds(store, ids[5], NULL, 0, false));
    /* Asking again finds each of them. */
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, other_bci, 4, false), ids[2]);
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, base, 4, true), ids[4]);
    CU_ASSERT_EQUAL(hs_stack_store_count(store), 6);
    hs_stack_store_destroy(store);
}

static void test_get_unknown_ids(void) {
    hs_stack_store *store = hs_stack_store_create(4, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame f = {METHOD_BASE, 1};
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, &f, 1, false), 1);
    uint32_t depth = 99;
    CU_ASSERT_PTR_NULL(hs_stack_store_get(store, 0, &depth, NULL));
    CU_ASSERT_PTR_NULL(hs_stack_store_get(store, 2, &depth, NULL));   /* not handed out */
    CU_ASSERT_PTR_NULL(hs_stack_store_get(store, 100, &depth, NULL)); /* beyond capacity */
    CU_ASSERT_EQUAL(depth, 99);
    CU_ASSERT_PTR_NOT_NULL(hs_stack_store_get(store, 1, NULL, NULL)); /* outputs optional */
    hs_stack_store_destroy(store);
}

static void test_full_store_drops(void) {
    hs_stack_store *store = hs_stack_store_create(4, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame f[5];
    for (int i = 0; i < 5; i++) f[i] = (hs_frame){METHOD_BASE + 8 * (uintptr_t)i, i};
    for (int i = 0; i < 4; i++) CU_ASSERT_EQUAL(hs_stack_store_intern(store, &f[i], 1, false), (uint32_t)i + 1);
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, &f[4], 1, false), 0);
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, &f[4], 1, true), 0);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 2);
    CU_ASSERT_EQUAL(hs_stack_store_count(store), 4);
    /* Stacks already in are still found, without a drop. */
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, &f[2], 1, false), 3);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 2);
    hs_stack_store_destroy(store);
}

static void test_frame_budget_exhaustion(void) {
    /* 8 KiB of frames, stacks of 40 frames (640 bytes each): room for about a dozen,
     * far below the id capacity. */
    hs_stack_store *store = hs_stack_store_create(1000, 8192);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    hs_frame frames[40];
    uint32_t stored = 0;
    for (uint32_t s = 0; s < 100; s++) {
        for (uint32_t i = 0; i < 40; i++) frames[i] = (hs_frame){METHOD_BASE + 8 * (s + i), (int32_t)i};
        uint32_t id = hs_stack_store_intern(store, frames, 40, false);
        if (id == 0) break;
        CU_ASSERT_EQUAL(id, s + 1);
        stored++;
    }
    CU_ASSERT(stored >= 8);
    CU_ASSERT(stored < 14);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 1);
    CU_ASSERT_EQUAL(hs_stack_store_count(store), stored);
    /* A small stack may still fit in the budget's remains; the first stack is still found. */
    for (uint32_t i = 0; i < 40; i++) frames[i] = (hs_frame){METHOD_BASE + 8 * i, (int32_t)i};
    CU_ASSERT_EQUAL(hs_stack_store_intern(store, frames, 40, false), 1);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 1);
    hs_stack_store_destroy(store);
}

/* ---- concurrency ------------------------------------------------------------------ */

#define THREADS 8
#define STACKS 3000
#define MAX_TEST_DEPTH 24

/* Stack s, deterministic. Stacks s and s + 1 share most frames (like call paths that
 * differ in a leaf), so equality checks must look at every frame. Distinct by
 * construction: (depth, leaf bci) is unique per s. */
static uint32_t make_stack(uint32_t s, hs_frame *frames) {
    uint32_t depth = 1 + s % MAX_TEST_DEPTH;
    frames[0] = (hs_frame){METHOD_BASE + 8 * (s % 7), (int32_t)(s / MAX_TEST_DEPTH)};
    for (uint32_t i = 1; i < depth; i++)
        frames[i] = (hs_frame){METHOD_BASE + 8 * ((s / 97 + i) % 50), (int32_t)(i * 3)};
    return depth;
}

typedef struct {
    hs_stack_store *store;
    int id;
    uint32_t stacks;
    bool same_order; /* all threads walk the stacks in the same order: maximal contention */
    uint32_t ids[STACKS];
} interner;

static void *intern_all(void *arg) {
    interner *w = arg;
    hs_frame frames[MAX_TEST_DEPTH];
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t n = 0; n < w->stacks; n++) {
            uint32_t s = w->same_order ? n : (n + (uint32_t)w->id * 389) % w->stacks;
            uint32_t depth = make_stack(s, frames);
            uint32_t id = hs_stack_store_intern(w->store, frames, depth, s % 5 == 0);
            /* Both passes must agree; a disagreement is recorded as UINT32_MAX. A 0 (a
             * drop, only expected when the store is full) agrees with anything. */
            uint32_t before = pass == 0 ? 0 : w->ids[s];
            w->ids[s] = (!before || before == id) ? id : !id ? before : UINT32_MAX;
        }
    }
    return NULL;
}

static void run_interners(hs_stack_store *store, interner *workers, uint32_t stacks, bool same_order) {
    for (int t = 0; t < THREADS; t++)
        workers[t] = (interner){.store = store, .id = t, .stacks = stacks, .same_order = same_order};
    run_threads(THREADS, intern_all, workers, sizeof *workers);
}

/* Room for every stack plus a hole for each race a thread can lose: a thread interning a
 * new stack loses at most once, and one of the threads wins, so THREADS - 1 per stack. */
#define MAX_HOLES ((THREADS - 1) * STACKS)

/* Every id in 1..count is either exactly one stack's id or a hole: returns the holes.
 * owner[id] is 1 + the stack whose id it is (0: none), as the workers saw it. */
static uint32_t check_holes(const hs_stack_store *store, const uint32_t *owner) {
    uint32_t holes = 0, published_unowned = 0;
    for (uint32_t id = 1; id <= hs_stack_store_count(store); id++) {
        bool published = hs_stack_store_get(store, id, NULL, NULL) != NULL;
        if (!owner[id] && published) published_unowned++;
        if (!owner[id] && !published) holes++;
    }
    CU_ASSERT_EQUAL(published_unowned, 0);
    return holes;
}

/* Every stack has one id that all threads agree on and that holds the stack; ids are
 * unique; the other ids up to count are holes, no more than lost races can explain. */
static void check_one_id_per_stack(hs_stack_store *store, const interner *workers) {
    uint32_t count = hs_stack_store_count(store);
    CU_ASSERT(count >= STACKS && count <= STACKS + MAX_HOLES);
    CU_ASSERT_EQUAL(hs_stack_store_dropped(store), 0);
    uint32_t *owner = calloc(STACKS + MAX_HOLES + 1, sizeof *owner); /* id -> 1 + stack */
    int disagreements = 0, out_of_range = 0, shared_ids = 0, wrong_frames = 0;
    hs_frame frames[MAX_TEST_DEPTH];
    for (uint32_t s = 0; s < STACKS; s++) {
        uint32_t id = workers[0].ids[s];
        for (int t = 1; t < THREADS; t++)
            if (workers[t].ids[s] != id) disagreements++;
        if (id == 0 || id > count) {
            out_of_range++;
            continue;
        }
        if (owner[id]) shared_ids++;
        owner[id] = s + 1;
        uint32_t depth = make_stack(s, frames);
        if (!holds(store, id, frames, depth, s % 5 == 0)) wrong_frames++;
    }
    CU_ASSERT_EQUAL(disagreements, 0);
    CU_ASSERT_EQUAL(out_of_range, 0);
    CU_ASSERT_EQUAL(shared_ids, 0);
    CU_ASSERT_EQUAL(wrong_frames, 0);
    /* STACKS distinct published ids; everything else in 1..count is a hole. */
    CU_ASSERT_EQUAL(check_holes(store, owner), count - STACKS);
    free(owner);
}

static void race_for_ids(bool same_order) {
    hs_stack_store *store = hs_stack_store_create(STACKS + MAX_HOLES, 4 << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    interner *workers = calloc(THREADS, sizeof *workers);
    run_interners(store, workers, STACKS, same_order);
    check_one_id_per_stack(store, workers);
    free(workers);
    hs_stack_store_destroy(store);
}

static void test_concurrent_overlapping_sets(void) {
    for (int r = 0; r < stress_rounds(); r++) race_for_ids(false);
}

static void test_concurrent_same_order(void) {
    /* All threads insert the same new stack at the same moment, over and over: the
     * slot CAS is contended on every stack, and races are lost (holes) all the time. */
    for (int r = 0; r < stress_rounds(); r++) race_for_ids(true);
}

/* 3000 stacks into 1000 ids: all 1000 ids are spent, on stacks or holes; the rest are
 * dropped, and the ids that were handed out are still consistent. */
static void race_to_overflow(void) {
    hs_stack_store *store = hs_stack_store_create(1000, 4 << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(store);
    interner *workers = calloc(THREADS, sizeof *workers);
    run_interners(store, workers, STACKS, false);
    CU_ASSERT_EQUAL(hs_stack_store_count(store), 1000);
    CU_ASSERT(hs_stack_store_dropped(store) > 0);
    uint32_t *owner = calloc(1001, sizeof *owner); /* id -> 1 + stack */
    int inconsistent = 0, wrong_frames = 0;
    uint32_t with_id = 0;
    hs_frame frames[MAX_TEST_DEPTH];
    for (uint32_t s = 0; s < STACKS; s++) {
        uint32_t id = 0;
        for (int t = 0; t < THREADS; t++) {
            uint32_t got = workers[t].ids[s];
            if (got == UINT32_MAX || (got && id && got != id)) inconsistent++;
            if (got && got != UINT32_MAX) id = got;
        }
        if (!id) continue;
        if (id > 1000 || owner[id]) {
            inconsistent++;
            continue;
        }
        owner[id] = s + 1;
        with_id++;
        uint32_t depth = make_stack(s, frames);
        if (!holds(store, id, frames, depth, s % 5 == 0)) wrong_frames++;
    }
    CU_ASSERT_EQUAL(inconsistent, 0);
    CU_ASSERT(with_id > 0);
    CU_ASSERT(1000 - with_id <= (THREADS - 1) * with_id); /* holes: lost races only */
    CU_ASSERT_EQUAL(check_holes(store, owner), 1000 - with_id);
    CU_ASSERT_EQUAL(wrong_frames, 0);
    free(owner);
    free(workers);
    hs_stack_store_destroy(store);
}

static void test_concurrent_overflow(void) {
    for (int r = 0; r < stress_rounds(); r++) race_to_overflow();
}

static CU_TestInfo stack_store_tests[] = {
    {"equal stacks share an id", test_equal_stacks_share_an_id},
    {"add tells which call stored the stack", test_add_tells_who_stored_the_stack},
    {"one hint word per stack", test_hints},
    {"frame padding is ignored", test_padding_is_ignored},
    {"method, bci, depth or truncation: new id", test_any_difference_gives_a_new_id},
    {"get of unknown ids", test_get_unknown_ids},
    {"full store returns 0 and counts drops", test_full_store_drops},
    {"frame budget exhaustion", test_frame_budget_exhaustion},
    {"8 threads, overlapping sets: one id per stack", test_concurrent_overlapping_sets},
    {"8 threads, same order: one id per stack", test_concurrent_same_order},
    {"8 threads overflow the store consistently", test_concurrent_overflow},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("stack_store", stack_store_tests); }
