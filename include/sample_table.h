/* sample_table.h: aggregated allocation samples, one bucket per
 * (stack id, allocated class id, object size), lock-free for concurrent recorders.
 *
 * A bucket keeps the number of samples and the sum of their weights in fixed point
 * (HS_WEIGHT_ONE = one sample of the JVM's sampler). Today every sample weighs one;
 * a rate cap that keeps 1 in n samples records weight n, and the estimates stay unbiased.
 * Buckets have dense indexes from 1 so the live table can point at them. */
#ifndef HS_SAMPLE_TABLE_H
#define HS_SAMPLE_TABLE_H

#include <stdint.h>

#define HS_WEIGHT_ONE ((uint64_t)1 << 16)

typedef struct {
    uint32_t stack_id;
    uint32_t class_id;
    uint64_t size; /* object size in bytes */
} hs_bucket_key;

typedef struct {
    hs_bucket_key key;
    uint64_t samples;   /* samples recorded */
    uint64_t weight_fp; /* sum of weights, HS_WEIGHT_ONE units */
} hs_bucket_snapshot;

typedef struct hs_sample_table hs_sample_table;

hs_sample_table *hs_sample_table_create(uint32_t capacity);
void hs_sample_table_destroy(hs_sample_table *table);

/* Adds one sample of the given weight to the key's bucket, creating it if needed.
 * Returns the bucket index (>= 1), or 0 when the table is full (a drop is counted). */
uint32_t hs_sample_table_record(hs_sample_table *table, hs_bucket_key key, uint64_t weight_fp);

/* Number of buckets created (indexes 1..count). */
uint32_t hs_sample_table_count(const hs_sample_table *table);
/* Reads bucket index into out; returns 0, or -1 if the index is not (yet) valid. */
int hs_sample_table_get(const hs_sample_table *table, uint32_t index, hs_bucket_snapshot *out);
uint64_t hs_sample_table_dropped(const hs_sample_table *table);

#endif
