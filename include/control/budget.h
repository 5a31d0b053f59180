/* budget.h: one memory budget (memory=) split into the sizes of the agent's tables.
 *
 * The agent's native memory is its tables: interned stacks (an index plus their frames),
 * resolved symbols (method and class caches plus their names), sample buckets, the live
 * tracking table (sized by track=), and the transient memory of building a profile, which
 * grows with the buckets and stacks. hs_budget_plan turns memory= into a capacity for each,
 * so that all of them at their fullest stay within it. Every table is allocated lazily or
 * zero-filled on demand, so a small program's footprint stays far below the budget; the
 * budget is the worst case. Pure arithmetic, no JVM: unit-tested. */
#ifndef HS_BUDGET_H
#define HS_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Smallest memory= accepted: room for a few thousand stacks and classes. */
#define HS_BUDGET_MIN ((int64_t)4 << 20)

typedef struct {
    uint32_t stacks;        /* stack store capacity (ids) */
    size_t frame_bytes;     /* stack store arena budget */
    uint32_t buckets;       /* sample table capacity */
    uint32_t bucket_reserve; /* buckets kept for folded samples */
    uint32_t methods;       /* method cache capacity */
    uint32_t classes;       /* class cache capacity (ids, the pseudo-class included) */
    size_t symbol_bytes;    /* symbol arena budget */
    size_t live_bytes;      /* the live tracking table at track= (0 with live=false) */
    size_t tables_bytes;    /* worst case of all the tables above together */
    size_t snapshot_bytes;  /* worst case of building one profile from full tables */
} hs_budget;

/* Bytes the live tracking table takes for `track` entries. */
size_t hs_budget_live_bytes(int64_t track);

/* Splits memory (bytes) among the tables. Returns 0, or -1 with a message in err (the
 * option at fault, what it needs, how to fix it) when track= does not fit: the live table
 * may take at most half of the budget. */
int hs_budget_plan(int64_t memory, int64_t track, bool live, hs_budget *out, char *err,
                   size_t errlen);

#endif
