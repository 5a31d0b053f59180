/* inuse_basis.h: what a profile's in-use values stand for, and the view it opens on.
 *
 * In-use values are "as of the last GC" (Go's convention): objects allocated before the
 * last GC that it did not collect. Before any GC that is nothing, which means two very
 * different things:
 *   - HS_INUSE_NEVER_COLLECTED: the collector never collects (Epsilon), and no GC was seen.
 *     Nothing allocated since the agent started has been freed, reachable or not, and the
 *     weak references the agent follows are never cleared, so it cannot tell any sampled
 *     object dead: in use = allocated since the agent started, site by site (the profile's
 *     in-use values are its whole-run allocation values). The profile opens on inuse_space,
 *     which then holds what fills the heap.
 *   - HS_INUSE_NO_GC_YET: a collector that does collect has not run yet (a short run):
 *     nothing has been judged, and what was allocated may already be garbage. The in-use
 *     values stay 0, which says "not known yet", not "nothing is live"; the profile opens
 *     on alloc_space, the view that has numbers.
 *   - HS_INUSE_LAST_GC: any GC seen (under any collector): in use as of the last one.
 * The profile's first comments and the report's header say which (hs_inuse_basis_note).
 * Pure. */
#ifndef HS_INUSE_BASIS_H
#define HS_INUSE_BASIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    HS_INUSE_LAST_GC = 0,
    HS_INUSE_NO_GC_YET,
    HS_INUSE_NEVER_COLLECTED
} hs_inuse_basis;

/* never_collects: the collector never frees anything (hs_gc_never_collects); gcs_seen: GC
 * epochs so far. */
hs_inuse_basis hs_inuse_basis_of(bool never_collects, uint32_t gcs_seen);

/* The sample type a profile of this basis opens on when its reader did not ask for one:
 * "inuse_space", or "alloc_space" before the first GC of a collector that collects. */
const char *hs_inuse_basis_default_type(hs_inuse_basis b);

/* One sentence saying what the in-use values are and why, for the top of the profile's
 * comments and the report's header ("" for HS_INUSE_LAST_GC: the usual case). gc_name: the
 * collector's name (NULL: unknown). */
void hs_inuse_basis_note(hs_inuse_basis b, const char *gc_name, char *out, size_t len);

#endif
