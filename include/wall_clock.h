/* wall_clock.h: the wall-clock time the profile's timestamps use, and bounded waits. */
#ifndef HS_WALL_CLOCK_H
#define HS_WALL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Nanoseconds since the epoch (CLOCK_REALTIME). */
static inline int64_t hs_wall_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Nanoseconds on a clock that never jumps (CLOCK_MONOTONIC), for timeouts. */
static inline int64_t hs_monotonic_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Polls done(arg) every millisecond until it is true or timeout_ms have passed (by the
 * monotonic clock, however long each sleep really took). Returns done's last answer. */
static inline bool hs_wait_until(bool (*done)(void *arg), void *arg, int timeout_ms) {
    int64_t deadline = hs_monotonic_nanos() + (int64_t)timeout_ms * 1000000;
    while (!done(arg)) {
        if (hs_monotonic_nanos() >= deadline) return false;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return true;
}

#endif
