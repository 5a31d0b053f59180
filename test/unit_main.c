/* unit_main.c: the CUnit driver shared by every test/test_*.c executable.
 *
 * Each test file defines register_tests(), which adds its suites to the registry.
 * CUnit's basic runner returns 0 even when assertions fail, so the exit status is
 * derived from the failure counters: ctest must see a red test as red. */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "CUnit: cannot initialise the registry\n");
        return 2;
    }
    register_tests();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    unsigned errors = CU_get_error();
    CU_cleanup_registry();
    return (failed || errors) ? 1 : 0;
}
