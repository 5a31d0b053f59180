/* threads.h: what the concurrency tests share: how many times a race is run, and a
 * group of threads that start together behind a barrier.
 *
 * Header-only (static inline) because only test_*.c files become executables. Worker
 * threads must not call CUnit (it is not thread-safe): they record what they saw, and the
 * main thread asserts after thread_group_join(). */
#ifndef HS_TEST_THREADS_H
#define HS_TEST_THREADS_H

#include <pthread.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

/* Races are rare events: a stress test reruns its race, each time on fresh state, this
 * many times. HS_STRESS_ROUNDS raises the count for a longer soak. */
static inline int stress_rounds(void) {
    const char *env = getenv("HS_STRESS_ROUNDS");
    int n = env ? atoi(env) : 0;
    return n > 0 ? n : 10;
}

enum { THREAD_GROUP_MAX = 16 };

typedef struct {
    pthread_barrier_t *start;
    void *(*body)(void *);
    void *arg;
} thread_launch;

/* Threads that all wait at one barrier, so none gets a head start while the others are
 * still being created: the races under test happen between running threads. */
typedef struct {
    int size;    /* threads the barrier waits for */
    int started; /* threads created so far */
    pthread_barrier_t start;
    pthread_t threads[THREAD_GROUP_MAX];
    thread_launch launches[THREAD_GROUP_MAX];
} thread_group;

static inline void *thread_group_launch(void *arg) {
    thread_launch *launch = arg;
    pthread_barrier_wait(launch->start);
    return launch->body(launch->arg);
}

/* Prepares a group of size threads (at most THREAD_GROUP_MAX). Start exactly size
 * threads before thread_group_join: the barrier holds them until the last one exists. */
static inline void thread_group_init(thread_group *g, int size) {
    if (size < 1 || size > THREAD_GROUP_MAX) CU_FAIL_FATAL("thread group size out of range");
    g->size = size;
    g->started = 0;
    pthread_barrier_init(&g->start, NULL, (unsigned)size);
}

/* Creates a thread that runs body(arg) once all size threads of the group exist. */
static inline void thread_group_start(thread_group *g, void *(*body)(void *), void *arg) {
    if (g->started >= g->size) CU_FAIL_FATAL("more threads started than the group's size");
    thread_launch *launch = &g->launches[g->started];
    *launch = (thread_launch){&g->start, body, arg};
    CU_ASSERT_EQUAL_FATAL(pthread_create(&g->threads[g->started], NULL, thread_group_launch, launch), 0);
    g->started++;
}

/* Joins every thread, in the order they were started, and releases the barrier. */
static inline void thread_group_join(thread_group *g) {
    for (int t = 0; t < g->started; t++) pthread_join(g->threads[t], NULL);
    pthread_barrier_destroy(&g->start);
}

/* Runs body on n threads that start together, thread t on the t-th element (of arg_size
 * bytes) of args, and returns when all have finished. */
static inline void run_threads(int n, void *(*body)(void *), void *args, size_t arg_size) {
    thread_group g;
    thread_group_init(&g, n);
    for (int t = 0; t < n; t++) thread_group_start(&g, body, (char *)args + (size_t)t * arg_size);
    thread_group_join(&g);
}

#endif
