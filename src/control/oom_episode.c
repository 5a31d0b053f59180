/* oom_episode.c: one OutOfMemoryError profile per episode (see oom_episode.h). */
#include "control/oom_episode.h"

bool hs_oom_episode_exhausted(hs_oom_episode *e, bool low_valid, uint64_t low_since_last,
                              uint64_t used_now) {
    /* Recovered: a GC since the dump left at most half the heap the episode was dumped
     * with. An unknown figure at the dump cannot show a recovery. */
    if (e->open && low_valid && e->used_at_dump > 0 && low_since_last <= e->used_at_dump / 2)
        e->open = false;
    if (e->open || e->dumps >= HS_OOM_MAX_DUMPS) return false;
    e->open = true;
    e->dumps++;
    e->used_at_dump = used_now;
    return true;
}
