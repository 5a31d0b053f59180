/* oom_episode.h: when an OutOfMemoryError deserves a profile ("once per episode").
 *
 * A program that catches OutOfMemoryError and retries gets one error per failed
 * allocation, possibly thousands a second, all part of the same shortage. So:
 *  - the first Java-heap exhaustion of the run opens an episode and is dumped;
 *  - every later one belongs to that episode, and is not dumped, until a GC shows the
 *    heap recovered: heap used after a GC at most half of what it was when the episode
 *    was dumped. The next exhaustion after that opens a new episode;
 *  - at most HS_OOM_MAX_DUMPS episodes are dumped per run, whatever happens.
 * Without a heap figure (live=false, heap_source=none) recovery cannot be seen: one
 * profile per run. Pure C; the caller serializes. */
#ifndef HS_OOM_EPISODE_H
#define HS_OOM_EPISODE_H

#include <stdbool.h>
#include <stdint.h>

#define HS_OOM_MAX_DUMPS 5

typedef struct {
    uint32_t dumps;        /* episodes dumped */
    bool open;             /* an episode is in progress */
    uint64_t used_at_dump; /* heap used after GC when it was dumped (0: unknown) */
} hs_oom_episode;

/* A Java-heap exhaustion. low_since_last: the lowest heap used after a GC since the
 * previous call (low_valid false when no such GC was seen); used_now: the heap after the
 * last GC (0: unknown). Returns true when this one is to be dumped; e->dumps then numbers
 * the episode (1, 2, ...). */
bool hs_oom_episode_exhausted(hs_oom_episode *e, bool low_valid, uint64_t low_since_last,
                              uint64_t used_now);

#endif
