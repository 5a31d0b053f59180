/* test_collapsed.c: the collapsed-stack encoder (src/output/collapsed.c): exact text for small
 * profiles, covering frame order, merging, sorting, escaping and left-out zeros. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/collapsed.h"
#include "profile/profile.h"
#include "profile_fixture.h"
#include "unit.h"

/* Frames (leaf first, as in the profile):
 *   s0 byte[] <- App.alloc:10 <- Main.main:3      values {10, 1}
 *   s1 byte[] <- App.alloc:11 <- Main.main:3      values {5, 0}   same names: merges with s0
 *   s2 java.lang.String <- Main.main:3            values {0, 4}   left out of column 0
 *   s3 java.lang.String <- Main.main:4            values {7, 0}
 *   s4 "odd;name with\nbreaks" <- Main.main:3     values {1, 0}   escaped
 *   s5 (no frames)                                values {2, 0}
 *   s6 "" <- Main.main:3                          values {3, 0}   unnamed frame */
static hs_profile *make_profile(void) {
    hs_profile *p = hs_profile_new();
    if (!p) return NULL;
    hs_profile_add_sample_type(p, "alloc_space", "bytes");
    hs_profile_add_sample_type(p, "inuse_space", "bytes");
    uint32_t main_fn = hs_profile_add_function(p, "Main.main", "", "", 0);
    uint32_t alloc_fn = hs_profile_add_function(p, "App.alloc", "", "", 0);
    uint32_t main3 = hs_profile_add_location(p, main_fn, 3);
    uint32_t main4 = hs_profile_add_location(p, main_fn, 4);
    uint32_t alloc10 = hs_profile_add_location(p, alloc_fn, 10);
    uint32_t alloc11 = hs_profile_add_location(p, alloc_fn, 11);
    uint32_t bytes = add_frame(p, "byte[]", 0);
    uint32_t string = add_frame(p, "java.lang.String", 0);
    uint32_t odd = add_frame(p, "odd;name with\nbreaks\t", 0);
    uint32_t none = add_frame(p, "", 0);

    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc10, main3}, 3, (const int64_t[]){10, 1}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc11, main3}, 3, (const int64_t[]){5, 0}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){string, main3}, 2, (const int64_t[]){0, 4}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){string, main4}, 2, (const int64_t[]){7, 0}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){odd, main3}, 2, (const int64_t[]){1, 0}, 0);
    hs_profile_add_sample(p, NULL, 0, (const int64_t[]){2, 0}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){none, main3}, 2, (const int64_t[]){3, 0}, 0);
    return fixture_or_null(p);
}

/* An empty profile with one sample type, "v" (count), or NULL. */
static hs_profile *new_count_profile(void) {
    hs_profile *p = hs_profile_new();
    if (p) hs_profile_add_sample_type(p, "v", "count");
    return fixture_or_null(p);
}

static void assert_encodes_to(const hs_profile *p, uint32_t value_index, const char *expected) {
    char *text = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(hs_collapsed_encode(p, value_index, &text, &len), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, expected);
    CU_ASSERT_EQUAL(len, strlen(expected));
    CU_ASSERT_EQUAL(len, strlen(text));
    free(text);
}

static void test_exact_text(void) {
    hs_profile *p = make_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* Sorted bytewise: 'M' < '[', and 'A' < '[' < 'j' < 'o' after "Main.main;". */
    assert_encodes_to(p, 0,
                      "Main.main;App.alloc;byte[] 15\n"
                      "Main.main;[unknown] 3\n"
                      "Main.main;java.lang.String 7\n"
                      "Main.main;odd_name_with_breaks_ 1\n"
                      "[unknown] 2\n");
    assert_encodes_to(p, 1,
                      "Main.main;App.alloc;byte[] 1\n"
                      "Main.main;java.lang.String 4\n");
    hs_profile_free(p);
}

static void test_large_and_negative_values(void) {
    hs_profile *p = new_count_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint32_t a = add_frame(p, "A", 0);
    uint32_t b = add_frame(p, "B", 0);
    uint32_t c = add_frame(p, "C", 0);
    hs_profile_add_sample(p, &a, 1, (const int64_t[]){INT64_MAX}, 0);
    hs_profile_add_sample(p, &a, 1, (const int64_t[]){5}, 0);  /* saturates, does not wrap */
    hs_profile_add_sample(p, &b, 1, (const int64_t[]){-3}, 0); /* printed as is */
    hs_profile_add_sample(p, &c, 1, (const int64_t[]){4}, 0);
    hs_profile_add_sample(p, &c, 1, (const int64_t[]){-4}, 0); /* merged total 0: left out */
    assert_encodes_to(p, 0, "A 9223372036854775807\nB -3\n");
    hs_profile_free(p);
}

static void test_empty_output(void) {
    hs_profile *p = new_count_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    assert_encodes_to(p, 0, ""); /* no samples */
    uint32_t a = add_frame(p, "A", 0);
    hs_profile_add_sample(p, &a, 1, (const int64_t[]){0}, 0);
    assert_encodes_to(p, 0, ""); /* only zeros */
    hs_profile_free(p);
}

/* Many samples over few stacks: the merge must add everything up whatever the order. */
static void test_many_samples_merge(void) {
    hs_profile *p = new_count_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint32_t x = add_frame(p, "X", 0);
    uint32_t y = add_frame(p, "Y", 0);
    for (int i = 0; i < 20000; i++) {
        uint32_t stack[2] = {i % 3 ? x : y, i % 3 ? y : x};
        hs_profile_add_sample(p, stack, 1 + (uint32_t)(i % 2), (const int64_t[]){i % 7}, 0);
    }
    int64_t sums[4] = {0}; /* by (leaf, depth): X, Y;X, Y, X;Y */
    for (int i = 0; i < 20000; i++) sums[(i % 3 ? 0 : 2) + (i % 2)] += i % 7;
    char expected[256];
    snprintf(expected, sizeof expected, "X %lld\nX;Y %lld\nY %lld\nY;X %lld\n", (long long)sums[0],
             (long long)sums[3], (long long)sums[2], (long long)sums[1]);
    assert_encodes_to(p, 0, expected);
    hs_profile_free(p);
}

static void test_refuses_bad_requests(void) {
    hs_profile *p = make_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char *text = (char *)"untouched";
    size_t len = 7;
    errno = 0;
    CU_ASSERT_EQUAL(hs_collapsed_encode(p, 2, &text, &len), -1); /* only 2 sample types */
    CU_ASSERT_EQUAL(errno, EINVAL);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_EQUAL(len, 0);
    p->failed = 1; /* an incomplete profile is not written */
    CU_ASSERT_EQUAL(hs_collapsed_encode(p, 0, &text, &len), -1);
    CU_ASSERT_PTR_NULL(text);
    hs_profile_free(p);
}

static CU_TestInfo collapsed_tests[] = {
    {"exact text: order, merging, escaping, zeros", test_exact_text},
    {"large and negative values", test_large_and_negative_values},
    {"empty output", test_empty_output},
    {"many samples merge", test_many_samples_merge},
    {"refuses bad requests", test_refuses_bad_requests},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("collapsed", collapsed_tests); }
