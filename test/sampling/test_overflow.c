/* test_overflow.c: unit tests of folding samples that find no room (src/sampling/overflow.c).
 *
 * 20,000 distinct (stack, class, size) keys go into a 1,024-bucket table the way the
 * sampler records them: most find no bucket and are folded under the pseudo-stack with
 * their class and size, and once the reserved buckets are spent too, into the
 * accumulator. The unbiased alloc_objects and alloc_space summed over buckets and
 * accumulator must equal those of every sample recorded (up to rounding), and the report
 * says how many were folded and names memory=. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "sampling/estimate.h"
#include "sampling/overflow.h"
#include "sampling/sample_table.h"
#include "sampling/stack_store.h"
#include "unit.h"

#define INTERVAL 1024

static void test_folding_keeps_total_weight(void) {
    hs_sample_table *table = hs_sample_table_create_reserved(1024, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    hs_overflow o;
    hs_overflow_init(&o, (int64_t)16 << 20);
    double true_objects = 0, true_bytes = 0;
    enum { KEYS = 20000 };
    for (uint32_t i = 0; i < KEYS; i++) {
        /* stacks 1..KEYS; a stack store that ran out would hand out 0 for most of them */
        hs_bucket_key key = {.stack_id = i % 3 == 0 ? 0 : i + 1, .class_id = 2 + i % 40,
                             .size = 16 + 8 * (i % 300)};
        uint64_t weight = HS_WEIGHT_ONE * (1 + i % 3); /* a rate cap's weights */
        uint32_t bucket = key.stack_id ? hs_sample_table_record(table, key, weight) : 0;
        if (!bucket) hs_overflow_record(&o, table, key, weight, INTERVAL);
        double objects = (double)weight / HS_WEIGHT_ONE * hs_unbias_scale((double)key.size, INTERVAL);
        true_objects += objects;
        true_bytes += objects * (double)key.size;
    }
    double objects = 0, bytes = 0;
    uint64_t samples = 0;
    for (uint32_t i = 1; i <= hs_sample_table_count(table); i++) {
        hs_bucket_snapshot b;
        if (hs_sample_table_get(table, i, &b) != 0) continue;
        double n = (double)b.weight_fp / HS_WEIGHT_ONE * hs_unbias_scale((double)b.key.size, INTERVAL);
        objects += n;
        bytes += n * (double)b.key.size;
        samples += b.samples;
    }
    CU_ASSERT(atomic_load(&o.folded) > 0); /* the reserve was used... */
    CU_ASSERT(atomic_load(&o.spilled) > 0); /* ...and filled up */
    objects += (double)atomic_load(&o.spilled_objects_fp) / HS_OVERFLOW_ONE;
    bytes += (double)atomic_load(&o.spilled_bytes);
    samples += atomic_load(&o.spilled);
    CU_ASSERT_EQUAL(samples, KEYS);
    /* The accumulator rounds each sample to 1/256 object and 1 byte: far below the
     * sampling error (1/sqrt(samples)), and unbiased on average. */
    CU_ASSERT(fabs(objects - true_objects) / true_objects < 1e-4);
    if (fabs(bytes - true_bytes) / true_bytes >= 1e-4) printf("\n  bytes %.1f vs %.1f\n", bytes, true_bytes);
    CU_ASSERT(fabs(bytes - true_bytes) / true_bytes < 1e-4);
    char text[512];
    CU_ASSERT_TRUE(hs_overflow_describe(&o, samples, text, sizeof text));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "[stack table full]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "memory= (now 16m)"));
    hs_sample_table_destroy(table);
}

static void test_folded_keep_class_and_size(void) {
    hs_sample_table *table = hs_sample_table_create_reserved(8, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    hs_overflow o;
    hs_overflow_init(&o, (int64_t)4 << 20);
    for (uint32_t s = 1; s <= 4; s++) /* the unreserved buckets */
        CU_ASSERT(hs_sample_table_record(table, (hs_bucket_key){.stack_id = s, .class_id = 2, .size = 16}, HS_WEIGHT_ONE) != 0);
    hs_bucket_key key = {.stack_id = 5, .class_id = 7, .size = 48};
    CU_ASSERT_EQUAL(hs_sample_table_record(table, key, HS_WEIGHT_ONE), 0);
    uint32_t bucket = hs_overflow_record(&o, table, key, HS_WEIGHT_ONE, INTERVAL);
    CU_ASSERT_FATAL(bucket != 0);
    hs_bucket_snapshot b;
    CU_ASSERT_EQUAL_FATAL(hs_sample_table_get(table, bucket, &b), 0);
    CU_ASSERT_EQUAL(b.key.stack_id, HS_STACK_FOLDED);
    CU_ASSERT_EQUAL(b.key.class_id, 7);
    CU_ASSERT_EQUAL(b.key.size, 48);
    /* the same class and size again: the same folded bucket */
    CU_ASSERT_EQUAL(hs_overflow_record(&o, table, (hs_bucket_key){.stack_id = 9, .class_id = 7, .size = 48}, HS_WEIGHT_ONE, INTERVAL),
                    bucket);
    CU_ASSERT_EQUAL(hs_overflow_count(&o), 2);
    hs_sample_table_destroy(table);
}

static void test_nothing_folded_nothing_said(void) {
    hs_overflow o;
    hs_overflow_init(&o, (int64_t)64 << 20);
    char text[64] = "x";
    CU_ASSERT_FALSE(hs_overflow_describe(&o, 100, text, sizeof text));
    CU_ASSERT_STRING_EQUAL(text, "");
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"folding keeps total weight", test_folding_keeps_total_weight},
        {"folded samples keep class and size", test_folded_keep_class_and_size},
        {"nothing folded, nothing said", test_nothing_folded_nothing_said},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("overflow", tests);
}
