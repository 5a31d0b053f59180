/* wall_clock.h: the wall-clock time the profile's timestamps use. */
#ifndef HS_WALL_CLOCK_H
#define HS_WALL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds since the epoch (CLOCK_REALTIME). */
static inline int64_t hs_wall_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
