/* test_ingest_shape.c: shaping a profile for Pyroscope's ingester (src/export/ingest_shape.c):
 * folding past the sample limit (totals unchanged, one [other sites] per class), depth
 * truncation at the root, numeric labels dropped and gc_age as a string bucket, sample type
 * names without '-', names cut to valid UTF-8, and the comments that say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ingest_shape.h"
#include "profile_fixture.h"
#include "unit.h"
#include "base/utf8.h"

/* The shaped copy of p under lim (default limits when NULL); what it changed in *what. */
static hs_profile *shape(const hs_profile *p, const hs_ingest_limits *lim, hs_ingest_shaping *what) {
    hs_ingest_limits defaults = hs_ingest_default_limits();
    return hs_ingest_shape(p, lim ? lim : &defaults, what);
}

static int64_t total(const hs_profile *p, uint32_t type) {
    int64_t t = 0;
    for (uint32_t i = 0; i < p->nsamples; i++) t += p->samples[i].values[type];
    return t;
}

static const char *frame_name(const hs_profile *p, uint32_t loc) {
    return p->functions[p->locations[loc].function].name;
}

static bool has_comment(const hs_profile *p, const char *part) {
    for (uint32_t i = 0; i < p->ncomments; i++)
        if (strstr(p->comments[i], part)) return true;
    return false;
}

/* n samples over `classes` leaf classes, sample i worth i+1 (bytes i+1, objects 1). */
static hs_profile *many_sites(uint32_t n, uint32_t classes) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    uint32_t cls[8];
    char name[32];
    for (uint32_t c = 0; c < classes; c++) {
        snprintf(name, sizeof name, "Class%u[]", c);
        cls[c] = add_frame(p, name, 0);
    }
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "Site.m%u", i);
        uint32_t stack[2] = {cls[i % classes], add_frame(p, name, (int64_t)i + 1)};
        int64_t v[4] = {1, (int64_t)i + 1, i % 2, i % 2 ? (int64_t)i + 1 : 0};
        hs_profile_add_sample(p, stack, 2, v, 64);
    }
    return fixture_or_null(p);
}

static void test_under_the_limit_is_unchanged(void) {
    hs_profile *p = many_sites(50, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_shaping what;
    hs_profile *s = shape(p, NULL, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(s->nsamples, 50);
    CU_ASSERT_EQUAL(what.folded_samples, 0);
    CU_ASSERT_EQUAL(what.truncated, 0);
    CU_ASSERT_EQUAL(what.dropped_labels, 50); /* the numeric "bytes" label */
    for (uint32_t i = 0; i < s->nsamples; i++) CU_ASSERT_EQUAL(s->samples[i].object_size, 0);
    CU_ASSERT_FALSE(has_comment(s, "folded"));
    hs_profile_free(s);
    hs_profile_free(p);
}

static void test_fold_keeps_totals_and_largest(void) {
    hs_profile *p = many_sites(1000, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_limits lim = {.max_samples = 100, .max_depth = 1000};
    hs_ingest_shaping what;
    hs_profile *s = hs_ingest_shape(p, &lim, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT(s->nsamples <= 100);
    CU_ASSERT_EQUAL(s->nsamples, 100);
    CU_ASSERT_EQUAL(what.other_samples, 3); /* one per class */
    CU_ASSERT_EQUAL(what.folded_samples, 1000 - 97);
    for (uint32_t t = 0; t < 4; t++) CU_ASSERT_EQUAL(total(s, t), total(p, t));
    /* the 97 kept are the heaviest by alloc_space + inuse_space: odd i weighs 2 (i + 1),
     * even i only i + 1, so they are the odd i from 999 down to 807 (alloc 808) */
    int64_t smallest_kept = INT64_MAX;
    uint32_t others = 0;
    for (uint32_t i = 0; i < s->nsamples; i++) {
        const hs_sample *x = &s->samples[i];
        if (strcmp(frame_name(s, x->locations[x->depth - 1]), HS_INGEST_OTHER_SITES) == 0) {
            others++;
            CU_ASSERT_EQUAL(x->depth, 2);
            CU_ASSERT_EQUAL(strncmp(frame_name(s, x->locations[0]), "Class", 5), 0);
            CU_ASSERT(x->values[3] <= x->values[1]); /* in use never above allocated */
        } else if (x->values[1] < smallest_kept) {
            smallest_kept = x->values[1];
        }
    }
    CU_ASSERT_EQUAL(others, 3);
    CU_ASSERT_EQUAL(smallest_kept, 808);
    CU_ASSERT_TRUE(has_comment(s, "totals are unchanged"));
    hs_profile_free(s);
    hs_profile_free(p);
}

static void test_more_classes_than_room_folds_into_one(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 2);
    char name[32];
    for (uint32_t i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "C%u", i);
        uint32_t stack[1] = {add_frame(p, name, 0)};
        int64_t v[2] = {1, (int64_t)i + 1};
        hs_profile_add_sample(p, stack, 1, v, 0);
    }
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_limits lim = {.max_samples = 10, .max_depth = 10};
    hs_ingest_shaping what;
    hs_profile *s = hs_ingest_shape(p, &lim, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(s->nsamples, 10);
    CU_ASSERT_EQUAL(what.other_samples, 1);
    CU_ASSERT_EQUAL(total(s, 1), total(p, 1));
    CU_ASSERT_EQUAL(total(s, 0), 40);
    hs_profile_free(s);
    hs_profile_free(p);
}

static void test_deep_stack_truncated_at_root(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 2);
    uint32_t stack[1500];
    char name[32];
    for (uint32_t i = 0; i < 1500; i++) {
        snprintf(name, sizeof name, "F%u", i);
        stack[i] = add_frame(p, name, 0);
    }
    int64_t v[2] = {3, 300};
    hs_profile_add_sample(p, stack, 1500, v, 0);
    hs_profile_add_sample(p, stack, 5, v, 0);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_shaping what;
    hs_profile *s = shape(p, NULL, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(what.truncated, 1);
    CU_ASSERT_EQUAL(s->samples[0].depth, 1000);
    CU_ASSERT_STRING_EQUAL(frame_name(s, s->samples[0].locations[0]), "F0"); /* leaf kept */
    CU_ASSERT_STRING_EQUAL(frame_name(s, s->samples[0].locations[998]), "F998");
    CU_ASSERT_STRING_EQUAL(frame_name(s, s->samples[0].locations[999]), HS_INGEST_TRUNCATED);
    CU_ASSERT_EQUAL(s->samples[1].depth, 5);
    CU_ASSERT_TRUE(has_comment(s, "cut at the root"));
    hs_profile_free(s);
    hs_profile_free(p);
}

static void test_labels_and_type_names(void) {
    hs_profile *p = hs_profile_new();
    hs_profile_add_sample_type(p, "alloc-space", "bytes");
    hs_profile_set_default_sample_type(p, "alloc-space");
    uint32_t stack[1] = {add_frame(p, "A", 0)};
    int64_t v[1] = {10};
    hs_sample_ages young = {.gc_age = 4, .age_seconds = 30}, old = {.gc_age = 128, .age_seconds = -1};
    hs_profile_add_aged_sample(p, stack, 1, v, 16, &young);
    hs_profile_add_aged_sample(p, stack, 1, v, 0, &old);
    hs_profile_add_sample(p, stack, 1, v, 0);
    hs_profile_label_samples(p, 2, "thread", "worker-1");
    p->samples[2].liveness = "unjudged";
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_shaping what;
    hs_profile *s = shape(p, NULL, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s->sample_types[0].type, "alloc_space");
    CU_ASSERT_STRING_EQUAL(s->default_sample_type, "alloc_space");
    for (uint32_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(s->samples[i].object_size, 0);
        CU_ASSERT_EQUAL(s->samples[i].ages.gc_age, 0);
        CU_ASSERT(s->samples[i].ages.age_seconds < 0);
    }
    CU_ASSERT_STRING_EQUAL(s->samples[0].label_key, "gc_age");
    CU_ASSERT_STRING_EQUAL(s->samples[0].label_value, "4-7");
    CU_ASSERT_STRING_EQUAL(s->samples[1].label_value, "128+");
    CU_ASSERT_PTR_NULL(s->samples[2].label_key); /* the thread label is dropped */
    CU_ASSERT_STRING_EQUAL(s->samples[2].liveness, "unjudged");
    CU_ASSERT_EQUAL(what.dropped_labels, 3); /* bytes, age_seconds, thread */
    CU_ASSERT_TRUE(has_comment(s, "numeric labels"));
    hs_profile_free(s);
    hs_profile_free(p);
}

static void test_age_buckets(void) {
    char b[16];
    CU_ASSERT_STRING_EQUAL(hs_ingest_age_bucket(1, b, sizeof b), "1");
    CU_ASSERT_STRING_EQUAL(hs_ingest_age_bucket(2, b, sizeof b), "2-3");
    CU_ASSERT_STRING_EQUAL(hs_ingest_age_bucket(64, b, sizeof b), "64-127");
    CU_ASSERT_STRING_EQUAL(hs_ingest_age_bucket(128, b, sizeof b), "128+");
    CU_ASSERT_STRING_EQUAL(hs_ingest_age_bucket(500, b, sizeof b), "128+");
}

static void test_long_names_cut_at_a_character(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 1);
    char *name = malloc(2001);
    CU_ASSERT_PTR_NOT_NULL_FATAL(name);
    name[0] = 'x'; /* then 2-byte characters: byte 1024 is inside one */
    for (int i = 1; i < 1999; i += 2) memcpy(name + i, "\xc3\xa9", 2);
    name[1999] = '\0';
    uint32_t stack[1] = {add_frame(p, name, 0)};
    int64_t v[1] = {1};
    hs_profile_add_sample(p, stack, 1, v, 0);
    free(name);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_ingest_shaping what;
    hs_profile *s = shape(p, NULL, &what);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    const char *cut = s->functions[0].name;
    CU_ASSERT(strlen(cut) <= HS_INGEST_NAME_MAX);
    CU_ASSERT(strlen(cut) >= HS_INGEST_NAME_MAX - 1);
    CU_ASSERT_TRUE(hs_utf8_valid(cut));
    CU_ASSERT_EQUAL(what.fixed_strings, 1);
    hs_profile_free(s);
    hs_profile_free(p);
}

static CU_TestInfo shape_tests[] = {
    {"under the limit: unchanged but labels", test_under_the_limit_is_unchanged},
    {"fold: totals kept, largest kept, one per class", test_fold_keeps_totals_and_largest},
    {"more classes than room: one folded sample", test_more_classes_than_room_folds_into_one},
    {"deep stack truncated at the root", test_deep_stack_truncated_at_root},
    {"labels and sample type names", test_labels_and_type_names},
    {"gc_age buckets", test_age_buckets},
    {"long names cut at a character", test_long_names_cut_at_a_character},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("ingest_shape", shape_tests); }
