/* test_file_pattern.c: expansion of the file= pattern (hs_expand_file_pattern in options.c).
 *
 * %t is local time, so the tests pin the time zone with TZ before each expansion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control/options.h"
#include "unit.h"

/* 2023-11-14 22:13:20 UTC */
#define FIXED_TIME ((time_t)1700000000)

static void use_time_zone(const char *tz) {
    setenv("TZ", tz, 1);
    tzset();
}

/* Expands pattern with pid and FIXED_TIME in UTC and asserts the result. */
static void expect_expansion(const char *pattern, long pid, const char *expected) {
    use_time_zone("UTC");
    char out[HS_PATH_MAX];
    char err[256] = "unchanged";
    int rc = hs_expand_file_pattern(pattern, pid, FIXED_TIME, out, sizeof out, err, sizeof err);
    if (rc != 0) fprintf(stderr, "\n  '%s' failed: %s\n", pattern, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    if (strcmp(out, expected) != 0)
        fprintf(stderr, "\n  '%s' gave '%s', expected '%s'\n", pattern, out, expected);
    CU_ASSERT_STRING_EQUAL(out, expected);
    CU_ASSERT_STRING_EQUAL(err, "");
}

/* Asserts that pattern is rejected with exactly the reason expected. */
static void expect_failure(const char *pattern, size_t outlen, const char *expected_err) {
    use_time_zone("UTC");
    char out[HS_PATH_MAX];
    char err[256] = "";
    CU_ASSERT_FATAL(outlen <= sizeof out);
    CU_ASSERT_EQUAL(hs_expand_file_pattern(pattern, 4242, FIXED_TIME, out, outlen, err, sizeof err),
                    -1);
    if (strcmp(err, expected_err) != 0)
        fprintf(stderr, "\n  '%s' gave \"%s\", expected \"%s\"\n", pattern, err, expected_err);
    CU_ASSERT_STRING_EQUAL(err, expected_err);
}

static void test_plain_text_is_copied(void) {
    expect_expansion("/tmp/heap.pb.gz", 1, "/tmp/heap.pb.gz");
    expect_expansion("", 1, "");
}

static void test_pid(void) {
    expect_expansion("heap-%p.pb.gz", 4242, "heap-4242.pb.gz");
    expect_expansion("%p", 1, "1");
    expect_expansion("%p", 2147483647L, "2147483647");
}

static void test_start_time(void) {
    expect_expansion("heap-%t.pb.gz", 1, "heap-20231114-221320.pb.gz");
    use_time_zone("UTC");
    char out[64], err[128];
    CU_ASSERT_EQUAL(hs_expand_file_pattern("%t", 1, 0, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "19700101-000000");
}

static void test_start_time_is_local_time(void) {
    /* POSIX TZ rule without tzdata: five hours west of UTC, no daylight saving */
    use_time_zone("EST5");
    char out[64], err[128];
    CU_ASSERT_EQUAL(hs_expand_file_pattern("%t", 1, FIXED_TIME, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "20231114-171320");
    use_time_zone("UTC");
}

static void test_percent(void) {
    expect_expansion("100%%", 1, "100%");
    expect_expansion("%%p", 1, "%p");
    expect_expansion("%%%%", 1, "%%");
}

static void test_several_in_one_pattern(void) {
    expect_expansion("/tmp/%p/%t-%%-%p.pb.gz", 77, "/tmp/77/20231114-221320-%-77.pb.gz");
    expect_expansion("%p%t%%%p", 5, "520231114-221320%5");
}

static void test_unknown_escape_rejected(void) {
    expect_failure("heap-%x.pb.gz", HS_PATH_MAX, "unknown escape '%x' (use %p, %t, %n or %%)");
    expect_failure("%P", HS_PATH_MAX, "unknown escape '%P' (use %p, %t, %n or %%)");
    /* checked before anything is expanded, even past a valid escape */
    expect_failure("%p-%s", HS_PATH_MAX, "unknown escape '%s' (use %p, %t, %n or %%)");
}

static void test_trailing_lone_percent_rejected(void) {
    expect_failure("heap%", HS_PATH_MAX, "a lone '%' at the end (write %% for a '%')");
    expect_failure("%", HS_PATH_MAX, "a lone '%' at the end (write %% for a '%')");
    expect_failure("100%%%", HS_PATH_MAX, "a lone '%' at the end (write %% for a '%')");
}

static void test_output_that_does_not_fit(void) {
    /* "abcdef" needs 7 bytes with its NUL */
    expect_failure("abcdef", 6, "the expanded file name is longer than 5 bytes");
    expect_failure("%p", 4, "the expanded file name is longer than 3 bytes"); /* "4242" */
    expect_failure("%t", 15, "the expanded file name is longer than 14 bytes");
    expect_failure("x", 0, "the expanded file name is longer than 0 bytes");
    expect_failure("", 0, "no room for the file name");

    use_time_zone("UTC");
    char out[16], err[128];
    memset(out, 'z', sizeof out);
    CU_ASSERT_EQUAL(hs_expand_file_pattern("abc%t", 1, FIXED_TIME, out, 8, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(out, ""); /* no half-written name */
    CU_ASSERT_EQUAL(out[8], 'z');    /* nothing written past outlen */
}

static void test_output_that_just_fits(void) {
    use_time_zone("UTC");
    char out[16], err[128];
    CU_ASSERT_EQUAL(hs_expand_file_pattern("abcdef", 1, FIXED_TIME, out, 7, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "abcdef");
    CU_ASSERT_EQUAL(hs_expand_file_pattern("%p", 4242, FIXED_TIME, out, 5, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "4242");
    CU_ASSERT_EQUAL(hs_expand_file_pattern("%t", 1, FIXED_TIME, out, 16, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "20231114-221320");
}

static void test_long_pattern_expands_past_its_own_length(void) {
    /* 1000 x "%p" (2000 bytes) becomes 1000 x "12345" (5000 bytes): too long for
     * HS_PATH_MAX although the pattern itself is accepted by file= */
    static char pattern[2001];
    for (int i = 0; i < 1000; i++) memcpy(pattern + 2 * i, "%p", 2);
    pattern[2000] = '\0';
    static char out[HS_PATH_MAX];
    char err[128];
    use_time_zone("UTC");
    CU_ASSERT_EQUAL(hs_expand_file_pattern(pattern, 12345, FIXED_TIME, out, sizeof out, err, sizeof err),
                    -1);
    CU_ASSERT_STRING_EQUAL(err, "the expanded file name is longer than 4095 bytes");
    static char big[6000];
    CU_ASSERT_EQUAL(hs_expand_file_pattern(pattern, 12345, FIXED_TIME, big, sizeof big, err, sizeof err),
                    0);
    CU_ASSERT_EQUAL(strlen(big), 5000);
    CU_ASSERT_EQUAL(strncmp(big + 4995, "12345", 5), 0);
}

static void test_sequence_number(void) {
    use_time_zone("UTC");
    char out[64], err[128];
    CU_ASSERT_EQUAL(hs_expand_file_pattern_n("h-%n-%p-%t.pb.gz", 9, FIXED_TIME, 42, out, sizeof out,
                                             err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "h-42-9-20231114-221320.pb.gz");
    CU_ASSERT_EQUAL(hs_expand_file_pattern_n("%%n%n", 9, FIXED_TIME, 7, out, sizeof out, err,
                                             sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "%n7");
    /* the startup check expands %n as 0 */
    expect_expansion("h-%n.pb.gz", 1, "h-0.pb.gz");
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"plain text is copied", test_plain_text_is_copied},
        {"%p is the pid", test_pid},
        {"%t is the start time", test_start_time},
        {"%t uses local time", test_start_time_is_local_time},
        {"%% is a percent sign", test_percent},
        {"%n is the sequence number", test_sequence_number},
        {"several escapes in one pattern", test_several_in_one_pattern},
        {"unknown escape rejected", test_unknown_escape_rejected},
        {"trailing lone % rejected", test_trailing_lone_percent_rejected},
        {"output that does not fit", test_output_that_does_not_fit},
        {"output that just fits", test_output_that_just_fits},
        {"long pattern expands past its own length", test_long_pattern_expands_past_its_own_length},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("file pattern", tests);
}
