/* inuse_basis.c: what in-use values stand for before any GC (see inuse_basis.h). */
#include "live/inuse_basis.h"

#include <stdio.h>

hs_inuse_basis hs_inuse_basis_of(bool never_collects, uint32_t gcs_seen) {
    if (gcs_seen > 0) return HS_INUSE_LAST_GC; /* a GC seen is a GC, whatever the collector */
    return never_collects ? HS_INUSE_NEVER_COLLECTED : HS_INUSE_NO_GC_YET;
}

const char *hs_inuse_basis_default_type(hs_inuse_basis b) {
    return b == HS_INUSE_NO_GC_YET ? "alloc_space" : "inuse_space";
}

void hs_inuse_basis_note(hs_inuse_basis b, const char *gc_name, char *out, size_t len) {
    const char *gc = gc_name ? gc_name : "the collector";
    switch (b) {
    case HS_INUSE_NEVER_COLLECTED:
        snprintf(out, len,
                 "in use = allocated since the agent started: %s never collects the heap, so "
                 "every object allocated since then is still in it, reachable or not (the "
                 "agent cannot tell any sampled object dead)",
                 gc);
        return;
    case HS_INUSE_NO_GC_YET:
        snprintf(out, len,
                 "in use: not known yet: in-use values are as of the last GC, and %s has not "
                 "collected yet (nothing judged, not nothing live)",
                 gc);
        return;
    case HS_INUSE_LAST_GC: break;
    }
    if (len > 0) out[0] = '\0';
}
