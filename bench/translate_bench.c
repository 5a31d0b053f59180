/* translate_bench.c: a micro-benchmark of the callback's table work per kept sample, on
 * fake methods and threads (no JVM): the method table's translation of a stack of known
 * methods (one probe per frame inside one reader bracket) and the thread label's lookup of
 * a known thread (threads=true). Prints CPU nanoseconds per call, the median of ROUNDS
 * runs with their min-max; it asserts nothing (the figures are for docs/production.md).
 *
 * Usage: bench_translate [ROUNDS] [DEPTH]   (defaults 7, 32)
 * Run under `flock -x /work/locks/machine.lock` on a shared machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampling/arena.h"
#include "sampling/method_infos.h"
#include "sampling/method_table.h"
#include "sampling/thread_ids.h"
#include "sampling/thread_names.h"

enum { METHODS = 4096, CALLS = 200000, MAX_ROUNDS = 31 };

static hs_method_infos *infos;

static int resolve(void *ctx, uintptr_t id, const hs_method_info **info, jweak *holder) {
    (void)ctx;
    char name[32];
    snprintf(name, sizeof name, "M%lu.run", (unsigned long)(id % 100000));
    hs_method_info draft = {.name = name, .system_name = name, .filename = "M.java"};
    *info = hs_method_infos_intern(infos, &draft);
    *holder = (jweak)id; /* never cleared: every class stays loaded */
    return *info ? 0 : 1;
}
static bool never_cleared(void *ctx, jweak ref) { (void)ctx; (void)ref; return false; }
static void no_delete(void *ctx, jweak ref) { (void)ctx; (void)ref; }
static const hs_method_ops METHOD_OPS = {resolve, never_cleared, no_delete};

static int thread_id(void *ctx, jthread thread, uint64_t *out) {
    (void)ctx;
    *out = (uint64_t)(uintptr_t)thread;
    return 0;
}
static int thread_name(void *ctx, jthread thread, char *buf, size_t len) {
    (void)ctx;
    snprintf(buf, len, "vt-%lu", (unsigned long)(uintptr_t)thread);
    return 0;
}
static const hs_thread_ops THREAD_OPS = {thread_id, thread_name};

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *ns, int rounds) {
    qsort(ns, (size_t)rounds, sizeof *ns, by_value);
    printf("%-44s median %7.1f ns (min %.1f, max %.1f), %d rounds\n", what, ns[rounds / 2], ns[0],
           ns[rounds - 1], rounds);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 7, depth = argc > 2 ? atoi(argv[2]) : 32;
    if (rounds < 1 || rounds > MAX_ROUNDS || depth < 1 || depth > 2048) {
        fprintf(stderr, "usage: bench_translate [ROUNDS 1-%d] [DEPTH 1-2048]\n", MAX_ROUNDS);
        return 2;
    }
    hs_arena *arena = hs_arena_create(1 << 20, 0);
    infos = hs_method_infos_create(METHODS, arena);
    hs_method_table *table = hs_method_table_create(2 * METHODS);
    hs_thread_names *names = hs_thread_names_create(1 << 14);
    hs_thread_ids *ids = hs_thread_ids_create(1 << 14, names);
    if (!infos || !table || !ids) return 1;
    /* 64 distinct stacks of `depth` methods out of METHODS, all resolved beforehand. */
    enum { STACKS = 64 };
    uintptr_t *stacks = calloc((size_t)STACKS * (size_t)depth, sizeof *stacks);
    hs_frame *frames = calloc((size_t)depth, sizeof *frames);
    uint64_t seed = 1;
    for (int i = 0; i < STACKS * depth; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        stacks[i] = 0x100000 + 16 * (uintptr_t)((seed >> 33) % METHODS);
    }
    double frame_ns[MAX_ROUNDS], stack_ns[MAX_ROUNDS], label_ns[MAX_ROUNDS];
    for (int round = -1; round < rounds; round++) { /* round -1 warms the tables up */
        double start = cpu_ns();
        for (int call = 0; call < CALLS; call++) {
            const uintptr_t *stack = &stacks[(size_t)(call % STACKS) * (size_t)depth];
            for (int f = 0; f < depth; f++) frames[f] = (hs_frame){.method = stack[f]};
            hs_method_table_translate(table, &METHOD_OPS, NULL, frames, (uint32_t)depth);
        }
        double per_stack = (cpu_ns() - start) / CALLS;
        start = cpu_ns();
        uint64_t sum = 0;
        for (int call = 0; call < CALLS; call++) /* 1,000 threads taking turns */
            sum += hs_thread_ids_get(ids, &THREAD_OPS, NULL, (jthread)(uintptr_t)(1 + call % 1000));
        double per_label = (cpu_ns() - start) / CALLS;
        if (sum == 0) return 1;
        if (round < 0) continue;
        stack_ns[round] = per_stack;
        frame_ns[round] = per_stack / depth;
        label_ns[round] = per_label;
    }
    char what[64];
    snprintf(what, sizeof what, "method table: a known %d-frame stack", depth);
    report(what, stack_ns, rounds);
    report("method table: per frame", frame_ns, rounds);
    report("thread label: a known thread (1,000 alive)", label_ns, rounds);
    hs_thread_ids_destroy(ids);
    hs_thread_names_destroy(names);
    hs_method_table_destroy(table, NULL, NULL);
    hs_method_infos_destroy(infos);
    hs_arena_destroy(arena);
    free(stacks);
    free(frames);
    return 0;
}
