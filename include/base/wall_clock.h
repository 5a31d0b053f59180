/* wall_clock.h: the wall-clock time the profile's timestamps use, and bounded waits. */
#ifndef HS_WALL_CLOCK_H
#define HS_WALL_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* ns since the epoch -> ISO-8601 UTC with milliseconds, "2026-11-23T02:31:30.799Z".
 * Returns buf (always NUL-terminated; "unknown", cut to fit, when the time cannot be
 * shown or does not fit). */
static inline const char *hs_format_utc(int64_t nanos, char *buf, size_t len) {
    time_t secs = (time_t)(nanos / 1000000000);
    struct tm tm;
    size_t n = 0;
    if (len == 0) return buf;
    if (nanos >= 0 && gmtime_r(&secs, &tm)) n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
    if (n == 0 || (size_t)snprintf(buf + n, len - n, ".%03dZ", (int)(nanos / 1000000 % 1000)) >= len - n)
        snprintf(buf, len, "unknown");
    return buf;
}

#endif
