/* test_sampler_bias.c: which JVM versions get the JDK-8356372 note, and JDK 11's first
 * sample gaps. */
#include <math.h>
#include <string.h>

#include "sampling/sampler_bias.h"
#include "unit.h"

static void test_feature_versions(void) {
    CU_ASSERT_EQUAL(hs_java_feature_version("11.0.24+8-post-Debian-2deb11u1"), 11);
    CU_ASSERT_EQUAL(hs_java_feature_version("17.0.15+6-Debian-1deb12u1"), 17);
    CU_ASSERT_EQUAL(hs_java_feature_version("21.0.13+9-1-deb13u2-Debian"), 21);
    CU_ASSERT_EQUAL(hs_java_feature_version("25.0.3+9-LTS"), 25);
    CU_ASSERT_EQUAL(hs_java_feature_version("25+36"), 25);
    CU_ASSERT_EQUAL(hs_java_feature_version("26-ea+5"), 26);
    CU_ASSERT_EQUAL(hs_java_feature_version("1.8.0_402-b06"), 8);
    CU_ASSERT_EQUAL(hs_java_feature_version("?"), -1);
    CU_ASSERT_EQUAL(hs_java_feature_version(""), -1);
    CU_ASSERT_EQUAL(hs_java_feature_version(NULL), -1);
    CU_ASSERT_EQUAL(hs_java_feature_version("9999999999"), 999999); /* capped, never overflows */
}

static void test_bias_by_feature(void) {
    CU_ASSERT_EQUAL(hs_sampler_bias_of(11), HS_SAMPLER_OUTSIDE_TLAB);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(17), HS_SAMPLER_OUTSIDE_TLAB);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(21), HS_SAMPLER_OUTSIDE_TLAB);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(24), HS_SAMPLER_OUTSIDE_TLAB);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(25), HS_SAMPLER_EXACT);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(26), HS_SAMPLER_EXACT);
    CU_ASSERT_EQUAL(hs_sampler_bias_of(-1), HS_SAMPLER_UNKNOWN);
}

/* JDK 11's first gaps of threads created before sampling was enabled: from HotSpot's
 * formula with a zeroed log2 table, q = (26 random bits) + 1 uniform in [1, 2^26], gap =
 * (26 - floor(log2 q)) x ln 2 x interval + 1; its exact mean against the agent's. */
static void test_first_gap_mean(void) {
    const double interval = 524288;
    double mean = 0;
    for (int k = 0; k <= 26; k++) { /* q in [2^k, 2^(k+1)) and at most 2^26 */
        double first = ldexp(1, k), last = k == 26 ? first : ldexp(1, k + 1) - 1;
        double p = (last - first + 1) / ldexp(1, 26);
        mean += p * ((26 - k) * log(2.0) * interval + 1);
    }
    CU_ASSERT_DOUBLE_EQUAL((double)hs_first_gap_mean(11, (int64_t)interval), mean, 2.0);
    CU_ASSERT_EQUAL(hs_first_gap_mean(11, 16384), 22713); /* 2 ln 2 x 16 KiB */
    int later[] = {17, 21, 25, 0, -1};
    for (int i = 0; i < 5; i++) CU_ASSERT_EQUAL(hs_first_gap_mean(later[i], 16384), 16384);
}

static void test_notes(void) {
    char buf[HS_SAMPLER_BIAS_NOTE_MAX];
    CU_ASSERT_EQUAL(hs_sampler_bias_note(HS_SAMPLER_EXACT, 25, buf, sizeof buf), 0);
    CU_ASSERT_STRING_EQUAL(buf, "");
    int n = hs_sampler_bias_note(HS_SAMPLER_OUTSIDE_TLAB, 21, buf, sizeof buf);
    CU_ASSERT((size_t)n < sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "JDK 21"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "JDK-8356372"));
    CU_ASSERT(hs_sampler_bias_note(HS_SAMPLER_UNKNOWN, -1, buf, sizeof buf) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "JDK-8356372"));
    /* a short buffer is cut, never overrun, and the full length is reported */
    char small[8];
    CU_ASSERT(hs_sampler_bias_note(HS_SAMPLER_OUTSIDE_TLAB, 17, small, sizeof small) > 8);
    CU_ASSERT_EQUAL(strlen(small), 7u);
    /* from the version string in one call */
    CU_ASSERT(hs_sampler_bias_note_for("11.0.24+8-post-Debian-2deb11u1", buf, sizeof buf) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "JDK 11"));
    CU_ASSERT_EQUAL(hs_sampler_bias_note_for("25.0.3+9-LTS", buf, sizeof buf), 0);
    CU_ASSERT(hs_sampler_bias_note_for("", buf, sizeof buf) > 0); /* unknown: said */
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"feature release of version strings", test_feature_versions},
        {"JDK 11-24 biased, 25+ exact, unknown said", test_bias_by_feature},
        {"notes", test_notes},
        {"JDK 11's first gaps before sampling was enabled", test_first_gap_mean},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("sampler_bias", tests);
}
