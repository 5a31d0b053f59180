/* unit.h: what every CUnit test file provides to test/unit_main.c. */
#ifndef HS_UNIT_H
#define HS_UNIT_H

#include <CUnit/CUnit.h>

/* Adds the file's suites and tests to the CUnit registry. */
void register_tests(void);

/* Adds a suite with the given tests (NULL-terminated CU_TestInfo array). */
#define HS_ADD_SUITE(name, tests)                                                  \
    do {                                                                           \
        CU_pSuite suite_ = CU_add_suite((name), NULL, NULL);                       \
        for (const CU_TestInfo *t_ = (tests); suite_ && t_->pName; t_++)           \
            CU_add_test(suite_, t_->pName, t_->pTestFunc);                         \
    } while (0)

#endif
