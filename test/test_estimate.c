/* test_estimate.c: the unbiasing math, against values computed by hand. */
#include <math.h>

#include "estimate.h"
#include "unit.h"

#define CLOSE(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9 * fabs(b))

static void test_scale_hand_values(void) {
    /* 1/(1-e^-1) = 1.5819767068693265 */
    CLOSE(hs_unbias_scale(524288, 524288), 1.5819767068693265);
    /* s = interval/2: 1/(1-e^-0.5) = 2.5414940825367982 */
    CLOSE(hs_unbias_scale(512, 1024), 2.5414940825367982);
    /* s = 4*interval: 1/(1-e^-4) = 1.0186573603637741 */
    CLOSE(hs_unbias_scale(4096, 1024), 1.0186573603637741);
    /* small objects: scale ~ interval/s + 1/2 (first terms of the series) */
    CLOSE(hs_unbias_scale(16, 524288), 1.0 / -expm1(-16.0 / 524288.0));
    CU_ASSERT_DOUBLE_EQUAL(hs_unbias_scale(16, 524288), 524288.0 / 16 + 0.5, 1e-3);
}

static void test_scale_every_allocation(void) {
    CU_ASSERT_EQUAL(hs_unbias_scale(64, 0), 1.0);
    CU_ASSERT_EQUAL(hs_unbias_scale(0, 1024), 1.0);
    /* huge objects are sampled with probability ~1 */
    CLOSE(hs_unbias_scale(1 << 30, 1024), 1.0);
}

static void test_untracked_correction(void) {
    CU_ASSERT_EQUAL(hs_untracked_correction(100, 0), 1.0);
    CLOSE(hs_untracked_correction(100, 25), 100.0 / 75.0);
    CLOSE(hs_untracked_correction(4, 3), 4.0);
    /* nothing tracked: nothing to extrapolate from */
    CU_ASSERT_EQUAL(hs_untracked_correction(100, 100), 1.0);
    CU_ASSERT_EQUAL(hs_untracked_correction(0, 0), 1.0);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"unbias scale against hand-computed values", test_scale_hand_values},
        {"interval 0 and degenerate sizes", test_scale_every_allocation},
        {"untracked-weight correction", test_untracked_correction},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("estimate", tests);
}
