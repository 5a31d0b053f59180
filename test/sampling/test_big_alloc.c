/* test_big_alloc.c: zeroed large allocations for the hash tables. */
#include <stdint.h>
#include <string.h>

#include "sampling/big_alloc.h"
#include "unit.h"

static void test_zeroed_and_writable(void) {
    size_t count = (size_t)1 << 20, size = 8; /* 8 MiB: spans several huge pages */
    uint64_t *p = hs_big_calloc(count, size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p[0], 0);
    CU_ASSERT_EQUAL(p[count / 2], 0);
    CU_ASSERT_EQUAL(p[count - 1], 0);
    p[0] = 1;
    p[count - 1] = 2;
    CU_ASSERT_EQUAL(p[0] + p[count - 1], 3);
    hs_big_free(p, count, size);
}

static void test_refuses_bad_sizes(void) {
    CU_ASSERT_PTR_NULL(hs_big_calloc(0, 8));
    CU_ASSERT_PTR_NULL(hs_big_calloc(8, 0));
    CU_ASSERT_PTR_NULL(hs_big_calloc(SIZE_MAX / 2, 4)); /* overflows */
    hs_big_free(NULL, 1, 1);                             /* no-op */
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"zeroed and writable", test_zeroed_and_writable},
        {"refuses zero and overflowing sizes", test_refuses_bad_sizes},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("big_alloc", tests);
}
