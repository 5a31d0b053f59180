/* test_arena.c: unit tests of the lock-free bump allocator (src/sampling/arena.c).
 *
 * Single-threaded: alignment, zeroing, growth across chunks, oversized requests, the
 * budget. Concurrent: 8 threads allocate and fill blocks with their own pattern; no two
 * blocks may overlap and every pattern must survive. CUnit is not thread-safe, so worker
 * threads only record what they did; the main thread asserts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/arena.h"
#include "threads.h"
#include "unit.h"

static int all_bytes_are(const void *p, size_t n, unsigned char value) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != value) return 0;
    return 1;
}

static void test_alignment(void) {
    hs_arena *arena = hs_arena_create(4096, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    for (int round = 0; round < 50; round++) {
        for (size_t align = 1; align <= 64; align <<= 1) {
            /* Odd sizes push the bump offset off every boundary. */
            char *p = hs_arena_alloc(arena, (size_t)round % 7 + 1, align);
            CU_ASSERT_PTR_NOT_NULL_FATAL(p);
            CU_ASSERT_EQUAL((uintptr_t)p % align, 0);
        }
    }
    /* Not a power of two, zero, or above 64: refused, never a misaligned pointer. */
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 8, 3));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 8, 0));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 8, 128));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, SIZE_MAX - 8, 8));
    hs_arena_destroy(arena);
}

static void test_zeroed_and_distinct(void) {
    hs_arena *arena = hs_arena_create(4096, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    unsigned char *blocks[64];
    for (int i = 0; i < 64; i++) {
        blocks[i] = hs_arena_alloc(arena, 100, 8);
        CU_ASSERT_PTR_NOT_NULL_FATAL(blocks[i]);
        CU_ASSERT(all_bytes_are(blocks[i], 100, 0));
        memset(blocks[i], 0xA0 + (i & 15), 100); /* dirty it: later blocks must still be zero */
    }
    for (int i = 0; i < 64; i++) CU_ASSERT(all_bytes_are(blocks[i], 100, 0xA0 + (i & 15)));
    /* Size 0 still yields a distinct, usable address. */
    void *a = hs_arena_alloc(arena, 0, 1), *b = hs_arena_alloc(arena, 0, 1);
    CU_ASSERT_PTR_NOT_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(b);
    CU_ASSERT_PTR_NOT_EQUAL(a, b);
    hs_arena_destroy(arena);
}

static void test_grows_across_chunks(void) {
    hs_arena *arena = hs_arena_create(4096, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    CU_ASSERT_EQUAL(hs_arena_reserved(arena), 0); /* chunks come on demand */
    CU_ASSERT_PTR_NOT_NULL(hs_arena_alloc(arena, 1, 1));
    CU_ASSERT_EQUAL(hs_arena_reserved(arena), 4096);
    for (int i = 0; i < 40; i++) CU_ASSERT_PTR_NOT_NULL(hs_arena_alloc(arena, 1000, 8));
    /* 40 KB in 4 KB chunks holding at most four 1000-byte blocks each: >= 10 chunks. */
    CU_ASSERT(hs_arena_reserved(arena) >= 10 * 4096);
    CU_ASSERT(hs_arena_reserved(arena) <= 15 * 4096);
    hs_arena_destroy(arena);
}

static void test_oversized_request(void) {
    hs_arena *arena = hs_arena_create(4096, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hs_arena_alloc(arena, 16, 8));
    size_t before = hs_arena_reserved(arena);
    unsigned char *big = hs_arena_alloc(arena, 100000, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    CU_ASSERT_EQUAL((uintptr_t)big % 64, 0);
    CU_ASSERT(all_bytes_are(big, 100000, 0));
    memset(big, 0xFF, 100000);
    /* Its chunk holds the block and a normal chunk's worth of room after it... */
    size_t after_big = hs_arena_reserved(arena);
    CU_ASSERT(after_big >= before + 100000 + 4000);
    CU_ASSERT(after_big <= before + 100000 + 4096 + 64);
    /* ...which the next small requests use, without another chunk. */
    unsigned char *next = hs_arena_alloc(arena, 16, 8);
    CU_ASSERT_PTR_EQUAL(next, big + 100000);
    CU_ASSERT(all_bytes_are(next, 16, 0));
    for (int i = 0; i < 100; i++) CU_ASSERT_PTR_NOT_NULL(hs_arena_alloc(arena, 32, 8));
    CU_ASSERT_EQUAL(hs_arena_reserved(arena), after_big);
    hs_arena_destroy(arena);
}

static void test_budget_exhaustion(void) {
    /* 10000 bytes of 4096-byte chunks: two whole chunks and a last one cut to 1808. */
    hs_arena *arena = hs_arena_create(4096, 10000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    size_t total = 0;
    for (int i = 0; i < 1000 && hs_arena_alloc(arena, 100, 4); i++) total += 100;
    CU_ASSERT(hs_arena_reserved(arena) <= 10000);
    /* Only chunk headers and chunk tails smaller than one block are lost. */
    CU_ASSERT(total >= 10000 - 3 * (64 + 100));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 100, 4));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 20000, 8)); /* oversized, over budget */
    CU_ASSERT(hs_arena_reserved(arena) <= 10000);
    hs_arena_destroy(arena);

    /* A budget smaller than one chunk is still usable. */
    arena = hs_arena_create(1 << 20, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    CU_ASSERT_PTR_NOT_NULL(hs_arena_alloc(arena, 500, 8));
    CU_ASSERT_PTR_NULL(hs_arena_alloc(arena, 600, 8));
    CU_ASSERT(hs_arena_reserved(arena) <= 1000);
    hs_arena_destroy(arena);
}

static void test_strdup(void) {
    hs_arena *arena = hs_arena_create(0, 0); /* 0: the default chunk size */
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    const char *text = "java.util.HashMap$Node";
    char *copy = hs_arena_strdup(arena, text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    CU_ASSERT_PTR_NOT_EQUAL(copy, text);
    CU_ASSERT_STRING_EQUAL(copy, text);
    char *empty = hs_arena_strdup(arena, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(empty);
    CU_ASSERT_EQUAL(empty[0], '\0');
    CU_ASSERT_PTR_NULL(hs_arena_strdup(arena, NULL));
    CU_ASSERT_EQUAL(hs_arena_reserved(arena), (size_t)1 << 20);
    hs_arena_destroy(arena);
}

/* ---- concurrency ------------------------------------------------------------------ */

#define THREADS 8
#define BLOCKS_PER_THREAD 4000

typedef struct {
    unsigned char *start;
    size_t size;
    size_t align;
} block;

typedef struct {
    hs_arena *arena;
    int id;
    int failed; /* allocations that returned NULL */
    block blocks[BLOCKS_PER_THREAD];
} worker;

static void *allocate_and_fill(void *arg) {
    worker *w = arg;
    unsigned seed = (unsigned)w->id * 2654435761u + 1;
    for (int i = 0; i < BLOCKS_PER_THREAD; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t size = 1 + (seed >> 16) % 300;
        size_t align = (size_t)1 << ((seed >> 8) % 7);
        unsigned char *p = hs_arena_alloc(w->arena, size, align);
        w->blocks[i] = (block){p, size, align};
        if (!p) {
            w->failed++;
            continue;
        }
        memset(p, 0x10 + w->id, size);
    }
    return NULL;
}

static int by_start(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const block *)a)->start, y = (uintptr_t)((const block *)b)->start;
    return x < y ? -1 : x > y;
}

/* Runs the workers; returns every block they got, sorted by address, in *out. */
static size_t run_workers(hs_arena *arena, worker *workers, block **out) {
    for (int t = 0; t < THREADS; t++) {
        workers[t].arena = arena;
        workers[t].id = t;
        workers[t].failed = 0;
    }
    run_threads(THREADS, allocate_and_fill, workers, sizeof *workers);
    block *all = malloc(sizeof *all * THREADS * BLOCKS_PER_THREAD);
    size_t n = 0;
    for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < BLOCKS_PER_THREAD; i++) {
            const block *b = &workers[t].blocks[i];
            if (!b->start) continue;
            /* The thread's pattern is intact: no other thread wrote over it. */
            CU_ASSERT(all_bytes_are(b->start, b->size, (unsigned char)(0x10 + t)));
            CU_ASSERT_EQUAL((uintptr_t)b->start % b->align, 0);
            all[n++] = *b;
        }
    }
    qsort(all, n, sizeof *all, by_start);
    *out = all;
    return n;
}

static size_t count_overlaps(const block *sorted, size_t n) {
    size_t overlaps = 0;
    for (size_t i = 1; i < n; i++)
        if (sorted[i].start < sorted[i - 1].start + sorted[i - 1].size) overlaps++;
    return overlaps;
}

static void race_to_allocate(void) {
    /* Small chunks, so the threads race to install new chunks hundreds of times. */
    hs_arena *arena = hs_arena_create(16384, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    worker *workers = calloc(THREADS, sizeof *workers);
    block *all = NULL;
    size_t n = run_workers(arena, workers, &all);
    CU_ASSERT_EQUAL(n, (size_t)THREADS * BLOCKS_PER_THREAD);
    CU_ASSERT_EQUAL(count_overlaps(all, n), 0);
    free(all);
    free(workers);
    hs_arena_destroy(arena);
}

static void race_for_budget(void) {
    /* Half of what the threads ask for: some fail, none overlap, the budget holds. */
    hs_arena *arena = hs_arena_create(16384, 2u << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    worker *workers = calloc(THREADS, sizeof *workers);
    block *all = NULL;
    size_t n = run_workers(arena, workers, &all);
    size_t failed = 0, granted = 0;
    for (int t = 0; t < THREADS; t++) failed += (size_t)workers[t].failed;
    for (size_t i = 0; i < n; i++) granted += all[i].size;
    CU_ASSERT(failed > 0);
    CU_ASSERT(n > THREADS * BLOCKS_PER_THREAD / 4);
    CU_ASSERT(granted <= (size_t)2 << 20);
    CU_ASSERT(hs_arena_reserved(arena) <= (size_t)2 << 20);
    CU_ASSERT_EQUAL(count_overlaps(all, n), 0);
    free(all);
    free(workers);
    hs_arena_destroy(arena);
}

static void test_concurrent_allocations_never_overlap(void) {
    for (int r = 0; r < stress_rounds(); r++) race_to_allocate();
}

static void test_concurrent_budget(void) {
    for (int r = 0; r < stress_rounds(); r++) race_for_budget();
}

static CU_TestInfo arena_tests[] = {
    {"alignment", test_alignment},
    {"zeroed and distinct", test_zeroed_and_distinct},
    {"grows across chunks", test_grows_across_chunks},
    {"oversized request", test_oversized_request},
    {"budget exhaustion returns NULL", test_budget_exhaustion},
    {"strdup", test_strdup},
    {"8 threads: allocations never overlap", test_concurrent_allocations_never_overlap},
    {"8 threads: budget holds", test_concurrent_budget},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("arena", arena_tests); }
