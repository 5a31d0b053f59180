/* test_dump_files.c: names of a run's profile files and keep= retention (dump_files.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/dump_files.h"
#include "control/options.h"
#include "unit.h"

#define T0 ((time_t)1700000000) /* 2023-11-14 22:13:20 UTC */

static void use_utc(void) {
    setenv("TZ", "UTC", 1);
    tzset();
}

/* The next name from f, asserted to be expected. */
static void expect_name(hs_dump_files *f, const char *suffix, bool numbered, time_t now,
                        const char *expected) {
    char out[HS_PATH_MAX], err[256] = "";
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_name(f, suffix, numbered, now, out, sizeof out, err,
                                             sizeof err), 0);
    if (strcmp(out, expected) != 0) fprintf(stderr, "\n  got '%s', expected '%s'\n", out, expected);
    CU_ASSERT_STRING_EQUAL(out, expected);
}

static void expect_suffix(const char *path, const char *suffix, const char *expected) {
    char out[256];
    CU_ASSERT_EQUAL_FATAL(hs_dump_insert_suffix(path, suffix, out, sizeof out), 0);
    if (strcmp(out, expected) != 0) fprintf(stderr, "\n  got '%s', expected '%s'\n", out, expected);
    CU_ASSERT_STRING_EQUAL(out, expected);
}

static void test_suffix_before_extension(void) {
    expect_suffix("heap.pb.gz", "oom", "heap-oom.pb.gz");
    expect_suffix("/tmp/x/heap-123.pb.gz", "peak", "/tmp/x/heap-123-peak.pb.gz");
    expect_suffix("heap.collapsed", "3", "heap-3.collapsed");
    expect_suffix("heap.gz", "oom", "heap-oom.gz");
    expect_suffix("my.app.pb.gz", "oom", "my.app-oom.pb.gz");
    expect_suffix("heap", "oom", "heap-oom");
    expect_suffix("/tmp/dir.d/heap", "oom", "/tmp/dir.d/heap-oom"); /* a dot in a directory */
    expect_suffix(".profile", "oom", ".profile-oom");                 /* a hidden file */
    expect_suffix(".pb.gz", "oom", ".pb-oom.gz");
    char small[8];
    CU_ASSERT_EQUAL(hs_dump_insert_suffix("heap.pb.gz", "oom", small, sizeof small), -1);
    CU_ASSERT_STRING_EQUAL(small, "");
}

static void test_plain_pattern(void) {
    use_utc();
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "heap-%p.pb.gz", 77, 0), 0);
    expect_name(&f, NULL, true, T0, "heap-77-1.pb.gz");    /* periodic: numbered */
    expect_name(&f, NULL, true, T0, "heap-77-2.pb.gz");
    expect_name(&f, "oom", false, T0, "heap-77-oom.pb.gz");
    expect_name(&f, NULL, false, T0, "heap-77.pb.gz");     /* the exit profile */
    expect_name(&f, "peak", false, T0, "heap-77-peak.pb.gz");
    expect_name(&f, NULL, true, T0, "heap-77-6.pb.gz");
    hs_dump_files_free(&f);
}

static void test_sequence_pattern(void) {
    use_utc();
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "heap-%n.pb.gz", 1, 0), 0);
    expect_name(&f, NULL, true, T0, "heap-1.pb.gz");
    expect_name(&f, NULL, true, T0, "heap-2.pb.gz");
    expect_name(&f, NULL, false, T0, "heap-3.pb.gz");
    expect_name(&f, "peak", false, T0, "heap-4-peak.pb.gz");
    hs_dump_files_free(&f);
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "heap-%%n.pb.gz", 1, 0), 0); /* a literal %n */
    expect_name(&f, NULL, true, T0, "heap-%n-1.pb.gz");
    hs_dump_files_free(&f);
}

static void test_time_pattern_never_repeats(void) {
    use_utc();
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "heap-%t.pb.gz", 1, 0), 0);
    expect_name(&f, NULL, true, T0, "heap-20231114-221320.pb.gz");
    expect_name(&f, NULL, true, T0 + 1, "heap-20231114-221321.pb.gz");
    expect_name(&f, NULL, true, T0 + 1, "heap-20231114-221321-3.pb.gz"); /* same second */
    expect_name(&f, NULL, false, T0 + 1, "heap-20231114-221321-4.pb.gz"); /* exit, same second */
    expect_name(&f, NULL, true, T0, "heap-20231114-221320-5.pb.gz");     /* clock set back */
    expect_name(&f, NULL, true, T0 + 2, "heap-20231114-221322.pb.gz");
    /* other suffixes are other names: no number needed in the same second */
    expect_name(&f, "oom", false, T0 + 3, "heap-20231114-221323-oom.pb.gz");
    expect_name(&f, "oom-peak", false, T0 + 3, "heap-20231114-221323-oom-peak.pb.gz");
    expect_name(&f, NULL, false, T0 + 3, "heap-20231114-221323.pb.gz");
    expect_name(&f, "peak", false, T0 + 3, "heap-20231114-221323-peak.pb.gz");
    expect_name(&f, "oom", false, T0 + 3, "heap-20231114-221323-oom-11.pb.gz");
    hs_dump_files_free(&f);
    /* with %n as well, the number already makes every name unique */
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "%t.%n.pb.gz", 1, 0), 0);
    expect_name(&f, NULL, true, T0, "20231114-221320.1.pb.gz");
    expect_name(&f, NULL, true, T0, "20231114-221320.2.pb.gz");
    hs_dump_files_free(&f);
}

static void test_own_pattern(void) {
    use_utc();
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "heap.pb.gz", 5, 0), 0);
    expect_name(&f, NULL, true, T0, "heap-1.pb.gz");
    char out[256], err[256] = "";
    CU_ASSERT_EQUAL(hs_dump_files_name_pattern(&f, "/tmp/d-%p-%n-%t.pb.gz", T0, out, sizeof out,
                                               err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "/tmp/d-5-2-20231114-221320.pb.gz");
    CU_ASSERT_EQUAL(hs_dump_files_name_pattern(&f, "/tmp/d-%q", T0, out, sizeof out, err,
                                               sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "unknown escape '%q' (use %p, %t, %n or %%)");
    expect_name(&f, NULL, true, T0, "heap-4.pb.gz"); /* the failed one used a number too */
    hs_dump_files_free(&f);
}

static void test_name_too_long(void) {
    hs_dump_files f;
    static char pattern[HS_PATH_MAX];
    memset(pattern, 'a', HS_PATH_MAX - 8);
    pattern[HS_PATH_MAX - 8] = '\0';
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, pattern, 1, 0), 0);
    char out[HS_PATH_MAX], err[256] = "";
    CU_ASSERT_EQUAL(hs_dump_files_name(&f, NULL, false, T0, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(hs_dump_files_name(&f, "oom-peak", false, T0, out, sizeof out, err, sizeof err),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "the file name is longer than 4095 bytes");
    hs_dump_files_free(&f);
}

static void test_keep_hands_back_the_oldest(void) {
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "h.pb.gz", 1, 2), 0);
    char evicted[64] = "";
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "a", evicted, sizeof evicted), 0);
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "b", evicted, sizeof evicted), 0);
    CU_ASSERT_STRING_EQUAL(evicted, "");
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "c", evicted, sizeof evicted), 1);
    CU_ASSERT_STRING_EQUAL(evicted, "a");
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "d", evicted, sizeof evicted), 1);
    CU_ASSERT_STRING_EQUAL(evicted, "b");
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "e", evicted, sizeof evicted), 1);
    CU_ASSERT_STRING_EQUAL(evicted, "c");
    CU_ASSERT_EQUAL(f.nkept, 2);
    hs_dump_files_free(&f); /* frees "d" and "e" (ASan checks) */
}

static void test_keep_zero_keeps_all(void) {
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "h.pb.gz", 1, 0), 0);
    char evicted[64] = "";
    for (int i = 0; i < 1000; i++) CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "x", evicted, sizeof evicted), 0);
    CU_ASSERT_STRING_EQUAL(evicted, "");
    hs_dump_files_free(&f);
}

static void test_keep_one(void) {
    hs_dump_files f;
    CU_ASSERT_EQUAL_FATAL(hs_dump_files_init(&f, "h.pb.gz", 1, 1), 0);
    char evicted[64] = "";
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "a", evicted, sizeof evicted), 0);
    CU_ASSERT_EQUAL(hs_dump_files_retain(&f, "b", evicted, sizeof evicted), 1);
    CU_ASSERT_STRING_EQUAL(evicted, "a");
    hs_dump_files_free(&f);
}

void register_tests(void) {
    static CU_TestInfo names[] = {
        {"suffix goes before the extension", test_suffix_before_extension},
        {"pattern without %n or %t", test_plain_pattern},
        {"pattern with %n", test_sequence_pattern},
        {"pattern with %t never repeats a name", test_time_pattern_never_repeats},
        {"an on-demand dump's own pattern", test_own_pattern},
        {"name too long", test_name_too_long},
        CU_TEST_INFO_NULL,
    };
    static CU_TestInfo retention[] = {
        {"keep=2 hands back the oldest", test_keep_hands_back_the_oldest},
        {"keep=0 keeps all", test_keep_zero_keeps_all},
        {"keep=1", test_keep_one},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("dump file names", names);
    HS_ADD_SUITE("keep= retention", retention);
}
