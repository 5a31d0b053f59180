/* overflow.h: samples whose stack or bucket found no room in the tables, counted so that
 * no sample's weight is ever lost.
 *
 * When the stack store is full, a sample is counted under the "[stack table full]"
 * pseudo-stack (HS_STACK_FOLDED) with its class, size and weight: it keeps its bucket and
 * its liveness, only its call site is lost. When even the buckets kept for folded samples
 * are full, its unbiased objects and bytes are added to one accumulator here ("spilled"),
 * reported as a "[sample table full]" site. Either way alloc_objects and alloc_space keep
 * every sample. The first overflow prints one warning at the default log level; at dump
 * time hs_overflow_describe says how much was folded and which option raises the limit. */
#ifndef HS_OVERFLOW_H
#define HS_OVERFLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/sample_table.h"

#define HS_STACK_FOLDED_NAME "[stack table full]"
#define HS_SPILLED_NAME "[sample table full]"

typedef struct {
    atomic_uint_fast64_t folded;     /* samples counted under the pseudo-stack */
    atomic_uint_fast64_t spilled;    /* samples counted in the accumulator */
    atomic_uint_fast64_t spilled_objects_fp; /* their unbiased objects, HS_OVERFLOW_ONE units */
    atomic_uint_fast64_t spilled_bytes;      /* their unbiased bytes */
    atomic_bool warned;
    int64_t memory;                  /* memory= in bytes, for the messages */
} hs_overflow;

#define HS_OVERFLOW_ONE 256 /* fixed point of spilled_objects_fp */

void hs_overflow_init(hs_overflow *o, int64_t memory);

/* Counts a sample whose stack (key.stack_id 0) or bucket found no room: under the
 * pseudo-stack with its class and size (hs_sample_table_record_folded), or when even that
 * finds no bucket, in the accumulator. Returns the bucket, or 0 when spilled. Lock-free. */
uint32_t hs_overflow_record(hs_overflow *o, hs_sample_table *samples, hs_bucket_key key,
                            uint64_t weight_fp, int64_t interval);

/* A sample folded under the pseudo-stack. Lock-free; warns once per run (either kind). */
void hs_overflow_note_folded(hs_overflow *o);

/* A sample that found no bucket at all: its unbiased objects (weight_fp in HS_WEIGHT_ONE
 * units times 1/(1-exp(-size/interval))) and bytes go to the accumulator. Lock-free. */
void hs_overflow_spill(hs_overflow *o, uint64_t size, int64_t interval, uint64_t weight_fp);

uint64_t hs_overflow_count(const hs_overflow *o); /* folded + spilled samples */

/* "N of M samples (P %) found no room in the stack table ..." into buf: what was folded,
 * where it shows and which option raises the limit. Returns false (buf empty) when no
 * sample overflowed. total_samples: samples taken, folded ones included. */
bool hs_overflow_describe(const hs_overflow *o, uint64_t total_samples, char *buf, size_t len);

#endif
