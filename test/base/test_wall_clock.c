/* test_wall_clock.c: the ISO-8601 UTC times of the profile's comments. */
#include "unit.h"
#include "base/wall_clock.h"

static void test_iso8601_utc(void) {
    char buf[40];
    CU_ASSERT_STRING_EQUAL(hs_format_utc(0, buf, sizeof buf), "1970-01-01T00:00:00.000Z");
    CU_ASSERT_STRING_EQUAL(hs_format_utc(1795401090799123456LL, buf, sizeof buf),
                           "2026-11-23T02:31:30.799Z");
    CU_ASSERT_STRING_EQUAL(hs_format_utc(-1, buf, sizeof buf), "unknown");
    char small[8];
    hs_format_utc(0, small, sizeof small);
    CU_ASSERT_STRING_EQUAL(small, "unknown");
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"ISO-8601 UTC", test_iso8601_utc},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("wall_clock", tests);
}
