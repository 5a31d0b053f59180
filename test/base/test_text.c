/* test_text.c: the bounded text buffer's figures (sizes in powers of 1024). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/text.h"

static void test_sizes(void) {
    struct {
        double bytes;
        const char *text;
    } cases[] = {{0, "0 B"},           {999, "999 B"},          {1000, "0.98 KiB"},
                 {1536, "1.50 KiB"},   {10 << 20, "10.0 MiB"},  {150.0 * (1 << 20), "150 MiB"},
                 {3.25 * (1 << 30), "3.25 GiB"}, {-2048, "-2.00 KiB"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[32];
        hs_size_text(cases[i].bytes, out, sizeof out);
        if (strcmp(out, cases[i].text) != 0) fprintf(stderr, "\n  %.0f -> '%s'\n", cases[i].bytes, out);
        CU_ASSERT_STRING_EQUAL(out, cases[i].text);
    }
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"sizes in powers of 1024", test_sizes},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("text", tests);
}
