/* test_utf8.c: modified UTF-8 -> strict UTF-8. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "base/utf8.h"

static void check(const char *in, const char *expected) {
    char buf[64];
    size_t n = hs_utf8_from_jvm(in, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, expected);
    CU_ASSERT_EQUAL(n, strlen(expected));
    CU_ASSERT_TRUE(hs_utf8_valid(buf));
}

static void test_ascii_and_bmp_unchanged(void) {
    check("java.util.ArrayList.grow", "java.util.ArrayList.grow");
    check("caf\xC3\xA9", "caf\xC3\xA9");                         /* U+00E9 */
    check("\xE4\xB8\xAD\xE6\x96\x87", "\xE4\xB8\xAD\xE6\x96\x87"); /* two CJK letters */
    check("", "");
    check(NULL, "");
}

static void test_surrogate_pairs(void) {
    /* U+20000 (CJK Ext B): modified UTF-8 ED A1 80 ED B0 80 -> F0 A0 80 80 */
    check("a\xED\xA1\x80\xED\xB0\x80z", "a\xF0\xA0\x80\x80z");
    /* U+1F600 (emoji): D83D DE00 */
    check("\xED\xA0\xBD\xED\xB8\x80", "\xF0\x9F\x98\x80");
    /* U+10FFFF: DBFF DFFF */
    check("\xED\xAF\xBF\xED\xBF\xBF", "\xF4\x8F\xBF\xBF");
}

static void test_broken_input_becomes_replacement(void) {
    check("a\xC0\x80" "b", "a\xEF\xBF\xBD" "b");                /* modified UTF-8's NUL */
    check("\xED\xA1\x80x", "\xEF\xBF\xBDx");                    /* lone high surrogate */
    check("\xED\xB0\x80", "\xEF\xBF\xBD");                      /* lone low surrogate */
    check("\xED\xB0\x80\xED\xA1\x80", "\xEF\xBF\xBD\xEF\xBF\xBD"); /* pair in wrong order */
    check("\xFF" "a", "\xEF\xBF\xBD" "a");                      /* not a lead byte */
    check("\xE4\xB8", "\xEF\xBF\xBD\xEF\xBF\xBD");              /* cut sequence */
    check("\xE0\x80\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong '/' */
    check("\xC1\xBF", "\xEF\xBF\xBD\xEF\xBF\xBD");              /* overlong 2-byte */
}

static void test_idempotent(void) {
    const char *utf8 = "x\xF0\xA0\x80\x80y";
    check(utf8, utf8);
    char *copy = hs_utf8_dup("\xED\xA1\x80\xED\xB0\x80");
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    CU_ASSERT_STRING_EQUAL(copy, "\xF0\xA0\x80\x80");
    free(copy);
}

static void test_never_cuts_a_character(void) {
    char buf[5];
    size_t n = hs_utf8_from_jvm("ab\xED\xA1\x80\xED\xB0\x80", buf, sizeof buf);
    CU_ASSERT_EQUAL(n, 6);
    CU_ASSERT_STRING_EQUAL(buf, "ab");
    CU_ASSERT_EQUAL(hs_utf8_from_jvm("abc", NULL, 0), 3);
}

static void test_strict_validator(void) {
    CU_ASSERT_TRUE(hs_utf8_valid("plain"));
    CU_ASSERT_TRUE(hs_utf8_valid("\xF0\xA0\x80\x80"));
    CU_ASSERT_FALSE(hs_utf8_valid("\xED\xA1\x80\xED\xB0\x80")); /* surrogates */
    CU_ASSERT_FALSE(hs_utf8_valid("\xC0\x80"));
    CU_ASSERT_FALSE(hs_utf8_valid("\xF4\x90\x80\x80")); /* above U+10FFFF */
    CU_ASSERT_FALSE(hs_utf8_valid("\x80"));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"ASCII and BMP text unchanged", test_ascii_and_bmp_unchanged},
        {"surrogate pairs become 4-byte characters", test_surrogate_pairs},
        {"broken input becomes U+FFFD, never NUL", test_broken_input_becomes_replacement},
        {"valid UTF-8 is copied unchanged", test_idempotent},
        {"output never ends inside a character", test_never_cuts_a_character},
        {"strict validator", test_strict_validator},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("utf8", tests);
}
