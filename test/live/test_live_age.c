/* test_live_age.c: age buckets, the sum-preserving split, and the per-site samples. */
#include <stdlib.h>

#include "live/live_age.h"
#include "unit.h"

static void test_buckets_are_powers_of_two(void) {
    CU_ASSERT_EQUAL(hs_age_bucket(0), 0);
    CU_ASSERT_EQUAL(hs_age_bucket(1), 0);
    CU_ASSERT_EQUAL(hs_age_bucket(2), 1);
    CU_ASSERT_EQUAL(hs_age_bucket(3), 1);
    CU_ASSERT_EQUAL(hs_age_bucket(4), 2);
    CU_ASSERT_EQUAL(hs_age_bucket(7), 2);
    CU_ASSERT_EQUAL(hs_age_bucket(8), 3);
    CU_ASSERT_EQUAL(hs_age_bucket(127), 6);
    CU_ASSERT_EQUAL(hs_age_bucket(128), 7);
    CU_ASSERT_EQUAL(hs_age_bucket(UINT32_MAX), HS_AGE_BUCKETS - 1);
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) {
        CU_ASSERT_EQUAL(hs_age_bucket_floor(i), 1 << i);
        CU_ASSERT_EQUAL(hs_age_bucket((uint32_t)hs_age_bucket_floor(i)), i);
    }
}

static void test_integer_split_preserves_total(void) {
    const double w[3] = {1, 1, 1};
    int64_t out[3];
    hs_age_split_integer(100, w, 3, out);
    CU_ASSERT_EQUAL(out[0] + out[1] + out[2], 100);
    for (int i = 0; i < 3; i++) CU_ASSERT_TRUE(out[i] == 33 || out[i] == 34);
    const double skew[4] = {0, 0.5, -3, 2.5}; /* negative counts as 0 */
    int64_t four[4];
    hs_age_split_integer(7, skew, 4, four);
    CU_ASSERT_EQUAL(four[0], 0);
    CU_ASSERT_EQUAL(four[2], 0);
    CU_ASSERT_EQUAL(four[1] + four[3], 7);
    CU_ASSERT_TRUE(four[3] == 5 || four[3] == 6);
    const double none[2] = {0, 0};
    int64_t two[2] = {9, 9};
    hs_age_split_integer(5, none, 2, two);
    CU_ASSERT_EQUAL(two[0], 0);
    CU_ASSERT_EQUAL(two[1], 0);
}

static int64_t sum_value(const hs_age_split_result *r, unsigned v) {
    int64_t s = r->site.v[v];
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) s += r->age[i].v[v];
    return s;
}

/* Per sample inuse <= alloc, every total unchanged, the site keeps no in-use value. */
static void test_split_keeps_totals_and_inuse_below_alloc(void) {
    double w[HS_AGE_BUCKETS] = {0};
    w[0] = 1, w[3] = 3; /* a quarter young, three quarters 8-15 GCs old */
    hs_age_values total = {{1000, 64000, 400, 25600}};
    hs_age_split_result r;
    hs_age_split(&total, w, &r);
    CU_ASSERT_TRUE(r.split);
    for (unsigned v = 0; v < 4; v++) CU_ASSERT_EQUAL(sum_value(&r, v), total.v[v]);
    CU_ASSERT_EQUAL(r.site.v[2], 0);
    CU_ASSERT_EQUAL(r.site.v[3], 0);
    CU_ASSERT_EQUAL(r.age[3].v[3], 19200);
    CU_ASSERT_EQUAL(r.age[0].v[3], 6400);
    CU_ASSERT_EQUAL(r.site.v[1], 64000 - 25600);
    for (unsigned i = 0; i < HS_AGE_BUCKETS; i++) {
        CU_ASSERT_EQUAL(r.age[i].v[0], r.age[i].v[2]);
        CU_ASSERT_EQUAL(r.age[i].v[1], r.age[i].v[3]);
    }
}

/* A site whose in-use estimate exceeds its allocation estimate (sampling noise, or
 * proportional scaling): the age samples' alloc is capped so the site's total holds. */
static void test_split_caps_alloc(void) {
    double w[HS_AGE_BUCKETS] = {1, 1};
    hs_age_values total = {{10, 1000, 12, 1200}};
    hs_age_split_result r;
    hs_age_split(&total, w, &r);
    for (unsigned v = 0; v < 4; v++) CU_ASSERT_EQUAL(sum_value(&r, v), total.v[v]);
    CU_ASSERT_EQUAL(r.site.v[1], 0);
    CU_ASSERT_TRUE(r.site.v[0] >= 0);
}

static void test_no_weight_no_split(void) {
    double w[HS_AGE_BUCKETS] = {0};
    hs_age_values total = {{10, 1000, 5, 500}};
    hs_age_split_result r;
    hs_age_split(&total, w, &r);
    CU_ASSERT_FALSE(r.split);
    for (unsigned v = 0; v < 4; v++) CU_ASSERT_EQUAL(r.site.v[v], total.v[v]);
}

static void test_add_site_samples_and_labels(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *types[4] = {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"};
    for (int i = 0; i < 4; i++) hs_profile_add_sample_type(p, types[i], "x");
    uint32_t f = hs_profile_add_function(p, "byte[]", "byte[]", "", 0);
    uint32_t loc = hs_profile_add_location(p, f, 0);
    hs_age_site ages = {0};
    hs_age_site_add(&ages, 2, 3, 1);     /* bucket 1 (2-3 GCs): mean age 3.4 s */
    hs_age_site_add(&ages, 3, 4, 0.4);
    hs_age_site_add(&ages, 200, 7201, 1); /* bucket 7 (128+ GCs) */
    const int64_t values[4] = {100, 8000, 20, 1600};
    CU_ASSERT_EQUAL(hs_age_add_site(p, &loc, 1, values, 4, 80, &ages), 0);
    CU_ASSERT_EQUAL_FATAL(p->nsamples, 3); /* the site's rest, age 2, age 128 */
    CU_ASSERT_EQUAL(p->samples[0].ages.gc_age, 0);
    CU_ASSERT_EQUAL(p->samples[0].ages.age_seconds, -1); /* no in-use value: no age */
    CU_ASSERT_EQUAL(p->samples[0].values[3], 0);
    CU_ASSERT_EQUAL(p->samples[1].ages.gc_age, 2);
    CU_ASSERT_EQUAL(p->samples[1].ages.age_seconds, 3);
    CU_ASSERT_EQUAL(p->samples[2].ages.gc_age, 128);
    CU_ASSERT_EQUAL(p->samples[2].ages.age_seconds, 7201);
    CU_ASSERT_EQUAL(p->samples[1].values[3] + p->samples[2].values[3], 1600);
    /* Without live values (live=false): one sample, no label. */
    CU_ASSERT_EQUAL(hs_age_add_site(p, &loc, 1, values, 2, 80, &ages), 0);
    CU_ASSERT_EQUAL(p->nsamples, 4);
    CU_ASSERT_EQUAL(p->samples[3].ages.gc_age, 0);
    CU_ASSERT_EQUAL(p->samples[3].ages.age_seconds, -1);
    hs_profile_free(p);
}

/* The mean age of a bucket is weighted by the samples' weights (a thinned sample stands
 * for several), rounded half away from zero; an empty bucket has none. */
static void test_mean_seconds_weighted(void) {
    hs_age_site site = {0};
    hs_age_site_add(&site, 1, 10, 2);  /* bucket 0 */
    hs_age_site_add(&site, 0, 40, 1);  /* bucket 0 too: (2 * 10 + 40) / 3 = 20 */
    hs_age_site_add(&site, 9, 100, 4); /* bucket 3 */
    hs_age_site_add(&site, 12, 101, 4); /* (400 + 404) / 8 = 100.5: rounds to 101 */
    CU_ASSERT_DOUBLE_EQUAL(site.weight[0], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(site.weight[3], 8, 1e-12);
    CU_ASSERT_EQUAL(hs_age_mean_seconds(&site, 0), 20);
    CU_ASSERT_EQUAL(hs_age_mean_seconds(&site, 3), 101);
    CU_ASSERT_EQUAL(hs_age_mean_seconds(&site, 1), -1);
    CU_ASSERT_EQUAL(hs_age_mean_seconds(&site, HS_AGE_BUCKETS), -1);
    /* a sample that lived under half a second has mean age 0: a label, not none */
    hs_age_site young = {0};
    hs_age_site_add(&young, 1, 0, 5);
    CU_ASSERT_EQUAL(hs_age_mean_seconds(&young, 0), 0);
}

/* The peak keeps no GC ages: its site stays one sample, labelled with the mean age in
 * seconds when it has in-use values. */
static void test_unsplit_site_mean_age(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int i = 0; i < 4; i++) hs_profile_add_sample_type(p, "t", "x");
    uint32_t f = hs_profile_add_function(p, "byte[]", "byte[]", "", 0);
    uint32_t loc = hs_profile_add_location(p, f, 0);
    hs_age_site ages = {0};
    ages.unsplit_weight = 4, ages.unsplit_seconds = 4 * 61.6;
    CU_ASSERT_EQUAL(hs_age_unsplit_mean_seconds(&ages), 62);
    CU_ASSERT_EQUAL(hs_age_add_site(p, &loc, 1, (const int64_t[]){10, 800, 4, 320}, 4, 80, &ages), 0);
    CU_ASSERT_EQUAL(hs_age_add_site(p, &loc, 1, (const int64_t[]){10, 800, 0, 0}, 4, 80, &ages), 0);
    CU_ASSERT_EQUAL_FATAL(p->nsamples, 2);
    CU_ASSERT_EQUAL(p->samples[0].ages.gc_age, 0);
    CU_ASSERT_EQUAL(p->samples[0].ages.age_seconds, 62);
    CU_ASSERT_EQUAL(p->samples[0].values[3], 320);
    CU_ASSERT_EQUAL(p->samples[1].ages.age_seconds, -1); /* no in-use value */
    hs_profile_free(p);
}

static void test_age_seconds_never_negative(void) {
    CU_ASSERT_EQUAL(hs_age_seconds(3, 10), 7);
    CU_ASSERT_EQUAL(hs_age_seconds(10, 10), 0);
    CU_ASSERT_EQUAL(hs_age_seconds(11, 10), 0); /* born a tick after the dump's clock read */
    CU_ASSERT_EQUAL(hs_age_seconds(0, UINT32_MAX), UINT32_MAX);
}

static void test_share_at_least(void) {
    double w[HS_AGE_BUCKETS] = {0};
    w[0] = 1, w[2] = 1, w[3] = 2;
    CU_ASSERT_DOUBLE_EQUAL(hs_age_share_at_least(w, 8), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_age_share_at_least(w, 4), 0.75, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_age_share_at_least(w, 1), 1.0, 1e-12);
    double none[HS_AGE_BUCKETS] = {0};
    CU_ASSERT_DOUBLE_EQUAL(hs_age_share_at_least(none, 8), 0.0, 0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"buckets are powers of two", test_buckets_are_powers_of_two},
        {"integer split preserves the total", test_integer_split_preserves_total},
        {"split keeps totals, inuse <= alloc", test_split_keeps_totals_and_inuse_below_alloc},
        {"split caps alloc", test_split_caps_alloc},
        {"no weight, no split", test_no_weight_no_split},
        {"site samples and labels", test_add_site_samples_and_labels},
        {"share at least", test_share_at_least},
        {"mean age in seconds is weighted", test_mean_seconds_weighted},
        {"age in seconds never negative", test_age_seconds_never_negative},
        {"unsplit site gets the mean age", test_unsplit_site_mean_age},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("live_age", tests);
}
