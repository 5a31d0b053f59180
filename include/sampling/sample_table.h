/* sample_table.h: aggregated allocation samples, one bucket per
 * (stack id, allocated class id, object size, thread name id), lock-free for concurrent recorders.
 *
 * A bucket keeps the number of samples and the sum of their weights in fixed point
 * (HS_WEIGHT_ONE = one sample of the JVM's sampler). Without a rate cap every sample
 * weighs one; the rate cap (throttle.h) keeps a sample with probability p and records weight
 * 1/p (plus its share of the deficit), so the estimates stay unbiased.
 * Buckets have indexes so the live table can point at them: unique and stable, in
 * 1..hs_sample_table_count(), with rare holes (when two threads create the same new
 * bucket at once, the loser's index is never used and get fails on it). Capacity counts
 * holes. */
#ifndef HS_SAMPLE_TABLE_H
#define HS_SAMPLE_TABLE_H

#include <stdint.h>

#define HS_WEIGHT_ONE ((uint64_t)1 << 16)

typedef struct {
    uint32_t stack_id;
    uint32_t class_id;
    uint64_t size; /* object size in bytes */
    uint32_t thread_id; /* thread-name id with threads=true (thread_names.h), else 0 */
} hs_bucket_key;

typedef struct {
    hs_bucket_key key;
    uint64_t samples;   /* samples recorded */
    uint64_t weight_fp; /* sum of weights, HS_WEIGHT_ONE units */
    uint64_t untracked_fp; /* weight whose liveness could not be tracked (see below) */
} hs_bucket_snapshot;

typedef struct hs_sample_table hs_sample_table;

hs_sample_table *hs_sample_table_create(uint32_t capacity);
/* The same, keeping the last `reserve` indexes for hs_sample_table_record_folded. */
hs_sample_table *hs_sample_table_create_reserved(uint32_t capacity, uint32_t reserve);
void hs_sample_table_destroy(hs_sample_table *table);

/* Adds one sample of the given weight to the key's bucket, creating it if needed.
 * Returns the bucket index (>= 1), or 0 when the table is full (a drop is counted).
 * A new key may take any index but the reserved ones (hs_sample_table_create_reserved). */
uint32_t hs_sample_table_record(hs_sample_table *table, hs_bucket_key key, uint64_t weight_fp);

/* The same for a sample folded to a coarser key (e.g. its stack replaced by the
 * "[stack table full]" pseudo-stack after record found no room): may also take the
 * reserved indexes, so folded samples keep their class and size when nothing else fits. */
uint32_t hs_sample_table_record_folded(hs_sample_table *table, hs_bucket_key key,
                                       uint64_t weight_fp);

/* The same, trying bucket index `hint` first (e.g. where the same stack's last sample
 * went): when it holds key, the hash lookup, a cache miss in a large table, is skipped. Any
 * hint is safe; a wrong or stale one only costs the normal lookup. */
uint32_t hs_sample_table_record_hinted(hs_sample_table *table, hs_bucket_key key,
                                       uint64_t weight_fp, uint32_t hint);

/* The same through a hint word: the bucket index in its low half, the print of that
 * bucket's key in its high half. A hint left by another class or size (a site allocating
 * arrays of many lengths) is passed over on its print, without reading its bucket, a cache
 * miss in a large table. *hint: 0 or a word this function returned; updated to the bucket
 * recorded in (unchanged when none). */
uint32_t hs_sample_table_record_by_hint(hs_sample_table *table, hs_bucket_key key,
                                        uint64_t weight_fp, uint64_t *hint);

/* Notes that samples of bucket `index` weighing weight_fp were meant for liveness
 * tracking but found no room: the live estimate of the bucket is then extrapolated from
 * its tracked samples. Lock-free; an invalid index is ignored. */
void hs_sample_table_add_untracked(hs_sample_table *table, uint32_t index, uint64_t weight_fp);

/* Highest index handed out so far: every index is in 1..count (holes included). */
uint32_t hs_sample_table_count(const hs_sample_table *table);
/* Reads bucket index into out; returns 0, or -1 for a hole or an index not (yet) handed
 * out. Finds every index that a record has returned. */
int hs_sample_table_get(const hs_sample_table *table, uint32_t index, hs_bucket_snapshot *out);
uint64_t hs_sample_table_dropped(const hs_sample_table *table);
/* Samples recorded in all buckets (walks the table: not for the hot path). */
uint64_t hs_sample_table_samples(const hs_sample_table *table);

#endif
