/* sampled.h: what sampling has gathered, as the modules above it read it.
 *
 * The agent (agent.c) creates the tables at load and keeps them for the life of the
 * process. A module that names sites, tracks samples or builds a profile from them takes
 * an hs_sampled (a copy of these pointers) rather than the whole agent: it can then be
 * reached only through what it is given, and never calls back up into control/.
 *
 * hs_counters are the rare counters the sampler and the live tracker bump and the
 * profile's comments report. All monotonic: the count of samples recorded is not kept
 * here but summed from the sample table, so the hot path never touches a counter line
 * that every thread shares. */
#ifndef HS_SAMPLED_H
#define HS_SAMPLED_H

#include <stdatomic.h>
#include <stdint.h>

struct hs_stack_store;
struct hs_sample_table;
struct hs_symbols;

typedef struct {
    atomic_uint_fast64_t dropped;        /* samples lost: a table was full */
    atomic_uint_fast64_t stack_errors;   /* GetStackTrace failed */
    atomic_uint_fast64_t truncated;      /* stacks cut at depth= */
    atomic_uint_fast64_t live_deleted;   /* weak refs deleted */
    atomic_uint_fast64_t live_untracked; /* admitted samples that found no slot */
} hs_counters;

typedef struct hs_sampled {
    struct hs_stack_store *stacks;   /* interned stacks */
    struct hs_sample_table *samples; /* one bucket per (stack, class, size) */
    struct hs_symbols *symbols;      /* method and class names */
    hs_counters *counters;
    int64_t interval;                /* interval= at startup: the base of every estimate,
                                      * even when `start,interval=` changed sampling since */
} hs_sampled;

#endif
