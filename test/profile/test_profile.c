/* test_profile.c: the in-memory profile builder (src/profile/profile.c): string ownership,
 * location deduplication, growth, comments, argument checks and the `failed` contract. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "profile/profile.h"
#include "profile_fixture.h"
#include "unit.h"

static void test_empty_profile(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nsample_types, 0);
    CU_ASSERT_EQUAL(p->nfunctions, 0);
    CU_ASSERT_EQUAL(p->nlocations, 0);
    CU_ASSERT_EQUAL(p->nsamples, 0);
    CU_ASSERT_EQUAL(p->ncomments, 0);
    CU_ASSERT_PTR_NULL(p->default_sample_type);
    CU_ASSERT_EQUAL(p->failed, 0);
    hs_profile_free(p);
    hs_profile_free(NULL); /* allowed, like free(NULL) */
}

static void test_sample_types_period_and_default(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char type[32], unit[32];
    static const char *const names[] = {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"};
    for (int i = 0; i < 4; i++) {
        snprintf(type, sizeof type, "%s", names[i]);
        snprintf(unit, sizeof unit, "%s", i % 2 ? "bytes" : "count");
        CU_ASSERT_EQUAL(hs_profile_add_sample_type(p, type, unit), i);
        strcpy(type, "CLOBBERED"); /* the profile must own copies */
        strcpy(unit, "CLOBBERED");
    }
    CU_ASSERT_EQUAL(p->nsample_types, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_STRING_EQUAL(p->sample_types[i].type, names[i]);
        CU_ASSERT_STRING_EQUAL(p->sample_types[i].unit, i % 2 ? "bytes" : "count");
    }
    CU_ASSERT_EQUAL(hs_profile_sample_type_index(p, "inuse_objects"), 2);
    CU_ASSERT_EQUAL(hs_profile_sample_type_index(p, "inuse_space"), 3);
    CU_ASSERT_EQUAL(hs_profile_sample_type_index(p, "nothing"), 4); /* none: nsample_types */
    /* A fifth type does not fit; that is a caller error, not an allocation failure. */
    CU_ASSERT_EQUAL(hs_profile_add_sample_type(p, "extra", "count"), -1);
    CU_ASSERT_EQUAL(errno, EINVAL);
    CU_ASSERT_EQUAL(p->nsample_types, 4);
    CU_ASSERT_EQUAL(p->failed, 0);

    strcpy(type, "inuse_space");
    CU_ASSERT_EQUAL(hs_profile_set_default_sample_type(p, type), 0);
    strcpy(type, "CLOBBERED");
    CU_ASSERT_STRING_EQUAL(p->default_sample_type, "inuse_space");
    CU_ASSERT_EQUAL(hs_profile_set_default_sample_type(p, "alloc_space"), 0); /* replaces */
    CU_ASSERT_STRING_EQUAL(p->default_sample_type, "alloc_space");

    CU_ASSERT_EQUAL(hs_profile_set_period(p, "space", "bytes", 524288), 0);
    CU_ASSERT_EQUAL(hs_profile_set_period(p, "space", "bytes", 1048576), 0); /* replaces */
    CU_ASSERT_STRING_EQUAL(p->period_type.type, "space");
    CU_ASSERT_STRING_EQUAL(p->period_type.unit, "bytes");
    CU_ASSERT_EQUAL(p->period, 1048576);
    hs_profile_free(p);
}

static void test_functions_are_copied_and_indexed(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char name[64] = "java.util.ArrayList.grow";
    uint32_t f0 = hs_profile_add_function(p, name, "java/util/ArrayList.grow(I)[Ljava/lang/Object;",
                                          "java/util/ArrayList.java", 233);
    strcpy(name, "CLOBBERED");
    uint32_t f1 = hs_profile_add_function(p, "byte[]", NULL, NULL, 0);
    CU_ASSERT_EQUAL(f0, 0);
    CU_ASSERT_EQUAL(f1, 1);
    CU_ASSERT_EQUAL(p->nfunctions, 2);
    CU_ASSERT_STRING_EQUAL(p->functions[0].name, "java.util.ArrayList.grow");
    CU_ASSERT_STRING_EQUAL(p->functions[0].system_name, "java/util/ArrayList.grow(I)[Ljava/lang/Object;");
    CU_ASSERT_STRING_EQUAL(p->functions[0].filename, "java/util/ArrayList.java");
    CU_ASSERT_EQUAL(p->functions[0].start_line, 233);
    /* NULL strings become "" so that encoders never meet a NULL. */
    CU_ASSERT_STRING_EQUAL(p->functions[1].name, "byte[]");
    CU_ASSERT_STRING_EQUAL(p->functions[1].system_name, "");
    CU_ASSERT_STRING_EQUAL(p->functions[1].filename, "");
    /* No deduplication of functions: callers add each method once. */
    CU_ASSERT_EQUAL(hs_profile_add_function(p, "byte[]", NULL, NULL, 0), 2);
    hs_profile_free(p);
}

static void test_location_dedup(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint32_t fa = hs_profile_add_function(p, "A.a", "", "", 0);
    uint32_t fb = hs_profile_add_function(p, "B.b", "", "", 0);
    uint32_t a10 = hs_profile_add_location(p, fa, 10);
    uint32_t a11 = hs_profile_add_location(p, fa, 11);
    uint32_t b10 = hs_profile_add_location(p, fb, 10);
    uint32_t a0 = hs_profile_add_location(p, fa, 0);
    CU_ASSERT_EQUAL(a10, 0);
    CU_ASSERT_EQUAL(a11, 1);
    CU_ASSERT_EQUAL(b10, 2);
    CU_ASSERT_EQUAL(a0, 3);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, fa, 10), a10);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, fb, 10), b10);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, fa, 0), a0);
    CU_ASSERT_EQUAL(p->nlocations, 4);
    CU_ASSERT_EQUAL(p->locations[a11].function, fa);
    CU_ASSERT_EQUAL(p->locations[a11].line, 11);
    CU_ASSERT_EQUAL(p->locations[b10].function, fb);
    CU_ASSERT_EQUAL(p->locations[b10].line, 10);

    /* A location must refer to an existing function. */
    errno = 0;
    CU_ASSERT_EQUAL(hs_profile_add_location(p, 2, 1), UINT32_MAX);
    CU_ASSERT_EQUAL(errno, EINVAL);
    CU_ASSERT_EQUAL(p->failed, 0);
    CU_ASSERT_EQUAL(p->nlocations, 4);
    hs_profile_free(p);
}

/* Enough locations to rehash the dedup table several times; every pair must still be
 * found afterwards, and pairs that differ only in one half of the key stay distinct. */
static void test_location_dedup_survives_growth(void) {
    enum { FUNCTIONS = 50, LINES = 400 };
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int f = 0; f < FUNCTIONS; f++) {
        char name[32];
        snprintf(name, sizeof name, "F.f%d", f);
        CU_ASSERT_EQUAL_FATAL(hs_profile_add_function(p, name, "", "", 0), (uint32_t)f);
    }
    int order_ok = 1;
    for (int f = 0; f < FUNCTIONS; f++)
        for (int line = 0; line < LINES; line++)
            if (hs_profile_add_location(p, (uint32_t)f, line) != (uint32_t)(f * LINES + line)) order_ok = 0;
    CU_ASSERT(order_ok);
    CU_ASSERT_EQUAL(p->nlocations, FUNCTIONS * LINES);

    int found_ok = 1, content_ok = 1;
    for (int f = FUNCTIONS - 1; f >= 0; f--) {
        for (int line = LINES - 1; line >= 0; line--) {
            uint32_t loc = hs_profile_add_location(p, (uint32_t)f, line);
            if (loc != (uint32_t)(f * LINES + line)) found_ok = 0;
            else if (p->locations[loc].function != (uint32_t)f || p->locations[loc].line != line)
                content_ok = 0;
        }
    }
    CU_ASSERT(found_ok);
    CU_ASSERT(content_ok);
    CU_ASSERT_EQUAL(p->nlocations, FUNCTIONS * LINES); /* nothing added the second time */
    /* Large and negative lines are keys like any other. */
    uint32_t big = hs_profile_add_location(p, 0, INT64_MAX);
    uint32_t neg = hs_profile_add_location(p, 0, -1);
    CU_ASSERT_NOT_EQUAL(big, neg);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, 0, INT64_MAX), big);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, 0, -1), neg);
    CU_ASSERT_EQUAL(p->failed, 0);
    hs_profile_free(p);
}

static void test_samples_are_copied(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    uint32_t f = hs_profile_add_function(p, "M.m", "", "", 0);
    uint32_t cls = hs_profile_add_function(p, "byte[]", "", "", 0);
    uint32_t stack[2] = {hs_profile_add_location(p, cls, 0), hs_profile_add_location(p, f, 7)};
    int64_t values[2] = {3, 72};
    CU_ASSERT_EQUAL(hs_profile_add_sample(p, stack, 2, values, 24), 0);
    stack[0] = stack[1] = 99; /* the profile must own copies */
    values[0] = values[1] = -5;
    CU_ASSERT_EQUAL(p->nsamples, 1);
    CU_ASSERT_EQUAL(p->samples[0].depth, 2);
    CU_ASSERT_EQUAL(p->samples[0].locations[0], 0);
    CU_ASSERT_EQUAL(p->samples[0].locations[1], 1);
    CU_ASSERT_EQUAL(p->samples[0].values[0], 3);
    CU_ASSERT_EQUAL(p->samples[0].values[1], 72);
    CU_ASSERT_EQUAL(p->samples[0].object_size, 24);

    /* A sample without frames is allowed (pprof accepts it). */
    int64_t one[2] = {1, 16};
    CU_ASSERT_EQUAL(hs_profile_add_sample(p, NULL, 0, one, 0), 0);
    CU_ASSERT_EQUAL(p->samples[1].depth, 0);
    CU_ASSERT_PTR_NULL(p->samples[1].locations);
    CU_ASSERT_EQUAL(p->samples[1].object_size, 0);

    /* A sample must refer to existing locations. */
    uint32_t bad[2] = {0, 2};
    errno = 0;
    CU_ASSERT_EQUAL(hs_profile_add_sample(p, bad, 2, one, 0), -1);
    CU_ASSERT_EQUAL(errno, EINVAL);
    CU_ASSERT_EQUAL(p->nsamples, 2);
    CU_ASSERT_EQUAL(p->failed, 0);
    hs_profile_free(p);
}

static void test_many_samples_grow(void) {
    enum { N = 100000, DEPTH = 5 };
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 4);
    uint32_t locs[DEPTH];
    for (int d = 0; d < DEPTH; d++) {
        char name[16];
        snprintf(name, sizeof name, "F.f%d", d);
        locs[d] = add_frame(p, name, d + 1);
    }
    int add_ok = 1;
    for (int i = 0; i < N; i++) {
        int64_t values[4] = {i, (int64_t)i * 16, i / 2, (int64_t)i * 8};
        uint32_t depth = (uint32_t)(i % DEPTH) + 1;
        if (hs_profile_add_sample(p, locs, depth, values, i % 100) != 0) add_ok = 0;
    }
    CU_ASSERT(add_ok);
    CU_ASSERT_EQUAL_FATAL(p->nsamples, N);
    CU_ASSERT(p->samples_cap >= N);
    int content_ok = 1;
    for (int i = 0; i < N; i++) {
        const hs_sample *s = &p->samples[i];
        if (s->depth != (uint32_t)(i % DEPTH) + 1 || s->values[0] != i || s->values[1] != (int64_t)i * 16 ||
            s->values[2] != i / 2 || s->values[3] != (int64_t)i * 8 || s->object_size != i % 100 ||
            memcmp(s->locations, locs, s->depth * sizeof *locs) != 0)
            content_ok = 0;
    }
    CU_ASSERT(content_ok);
    CU_ASSERT_EQUAL(p->failed, 0);
    hs_profile_free(p);
}

static void test_comments_are_formatted(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(hs_profile_add_comment(p, "heapsampler %s", "0.1.0"), 0);
    CU_ASSERT_EQUAL(hs_profile_add_comment(p, "interval=%d bytes, live=%.1f%%", 524288, 12.5), 0);
    CU_ASSERT_EQUAL(hs_profile_add_comment(p, "%s", ""), 0);
    /* Longer than any fixed buffer an implementation might be tempted to use. */
    char long_text[10001];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    CU_ASSERT_EQUAL(hs_profile_add_comment(p, "<%s>", long_text), 0);
    for (int i = 0; i < 40; i++) CU_ASSERT_EQUAL(hs_profile_add_comment(p, "c%d", i), 0);

    CU_ASSERT_EQUAL_FATAL(p->ncomments, 44);
    CU_ASSERT_STRING_EQUAL(p->comments[0], "heapsampler 0.1.0");
    CU_ASSERT_STRING_EQUAL(p->comments[1], "interval=524288 bytes, live=12.5%");
    CU_ASSERT_STRING_EQUAL(p->comments[2], "");
    CU_ASSERT_EQUAL(strlen(p->comments[3]), 10002);
    CU_ASSERT_EQUAL(p->comments[3][0], '<');
    CU_ASSERT_EQUAL(p->comments[3][10001], '>');
    CU_ASSERT_STRING_EQUAL(p->comments[43], "c39");
    hs_profile_free(p);
}

/* Once an allocation has failed the profile is incomplete: every builder call must
 * refuse to add to it, so that nothing pretends the profile is whole. The flag is set
 * by hand here; the builder sets it the same way on ENOMEM. */
static void test_failed_profile_refuses_everything(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_profile_add_sample_type(p, "alloc_objects", "count");
    uint32_t f = hs_profile_add_function(p, "M.m", "", "", 0);
    uint32_t loc = hs_profile_add_location(p, f, 1);
    p->failed = 1;
    int64_t v = 1;
    CU_ASSERT_EQUAL(hs_profile_add_sample_type(p, "inuse_space", "bytes"), -1);
    CU_ASSERT_EQUAL(hs_profile_set_default_sample_type(p, "alloc_objects"), -1);
    CU_ASSERT_EQUAL(hs_profile_set_period(p, "space", "bytes", 1), -1);
    CU_ASSERT_EQUAL(hs_profile_add_function(p, "N.n", "", "", 0), UINT32_MAX);
    CU_ASSERT_EQUAL(hs_profile_add_location(p, f, 1), UINT32_MAX);
    CU_ASSERT_EQUAL(hs_profile_add_sample(p, &loc, 1, &v, 0), -1);
    CU_ASSERT_EQUAL(hs_profile_add_comment(p, "x"), -1);
    CU_ASSERT_EQUAL(p->nsample_types, 1);
    CU_ASSERT_PTR_NULL(p->default_sample_type);
    CU_ASSERT_PTR_NULL(p->period_type.type);
    CU_ASSERT_EQUAL(p->nfunctions, 1);
    CU_ASSERT_EQUAL(p->nlocations, 1);
    CU_ASSERT_EQUAL(p->nsamples, 0);
    CU_ASSERT_EQUAL(p->ncomments, 0);
    hs_profile_free(p);
}

static CU_TestInfo profile_tests[] = {
    {"empty profile", test_empty_profile},
    {"sample types, period, default type", test_sample_types_period_and_default},
    {"functions are copied and indexed", test_functions_are_copied_and_indexed},
    {"locations are deduplicated", test_location_dedup},
    {"location dedup survives growth", test_location_dedup_survives_growth},
    {"samples are copied and checked", test_samples_are_copied},
    {"many samples grow the arrays", test_many_samples_grow},
    {"comments are formatted", test_comments_are_formatted},
    {"a failed profile refuses everything", test_failed_profile_refuses_everything},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("profile", profile_tests); }
