/* test_pprof_query.c: seconds=, gc= and debug= of the endpoint's profile paths, read as
 * Go's net/http/pprof reads them, with its 400 messages. */
#include <string.h>

#include "export/pprof_query.h"
#include "unit.h"

static hs_pprof_query parsed(const char *query) {
    hs_pprof_query q;
    const char *message = NULL;
    CU_ASSERT_EQUAL(hs_pprof_query_parse(query, &q, &message), 0);
    return q;
}

static const char *refused(const char *query) {
    hs_pprof_query q;
    const char *message = NULL;
    CU_ASSERT_EQUAL(hs_pprof_query_parse(query, &q, &message), -1);
    return message ? message : "";
}

static void test_absent(void) {
    hs_pprof_query q = parsed(NULL);
    CU_ASSERT(q.seconds == 0 && !q.gc && !q.debug);
    q = parsed("");
    CU_ASSERT(q.seconds == 0 && !q.gc && !q.debug);
    q = parsed("other=x");
    CU_ASSERT(q.seconds == 0 && !q.gc && !q.debug);
}

static void test_gc(void) {
    CU_ASSERT_TRUE(parsed("gc=1").gc);
    CU_ASSERT_TRUE(parsed("gc=2").gc); /* Go: any number above 0 */
    CU_ASSERT_FALSE(parsed("gc=0").gc);
    hs_pprof_query q = parsed("seconds=30&gc=1"); /* at the end of the delta */
    CU_ASSERT(q.seconds == 30 && q.gc);
    CU_ASSERT_STRING_EQUAL(refused("gc=true"),
                           "invalid value for \"gc\" - must be an integer (gc=1: a full "
                           "collection first)\n");
    refused("gc=");
    refused("gc=-1");
    refused("gc=1x");
    refused("gc=9999999999");
}

static void test_debug(void) {
    CU_ASSERT_TRUE(parsed("debug=1").debug);
    CU_ASSERT_TRUE(parsed("debug=2").debug);
    CU_ASSERT_FALSE(parsed("debug=0").debug);
    hs_pprof_query q = parsed("gc=1&debug=1");
    CU_ASSERT(q.gc && q.debug && q.seconds == 0);
    CU_ASSERT_STRING_EQUAL(refused("debug=yes"),
                           "invalid value for \"debug\" - must be an integer (debug=1: text)\n");
    /* as Go: any debug= with seconds=, even debug=0 */
    CU_ASSERT_STRING_EQUAL(refused("seconds=5&debug=1"),
                           "seconds and debug params are incompatible\n");
    CU_ASSERT_STRING_EQUAL(refused("debug=0&seconds=5"),
                           "seconds and debug params are incompatible\n");
}

static void test_seconds(void) {
    CU_ASSERT_EQUAL(parsed("seconds=1").seconds, 1);
    CU_ASSERT_EQUAL(parsed("seconds=300").seconds, 300);
    CU_ASSERT_EQUAL(parsed("seconds=%33%30").seconds, 30); /* percent-decoded */
    const char *bad[] = {"seconds=0", "seconds=-1", "seconds=abc", "seconds=1.5", "seconds=",
                         "seconds=99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CU_ASSERT_STRING_EQUAL(refused(bad[i]),
                               "invalid value for \"seconds\" - must be a positive integer\n");
    CU_ASSERT_STRING_EQUAL(refused("seconds=301"), "invalid value for \"seconds\" - at most 300\n");
}

static CU_TestInfo tests[] = {
    {"absent parameters", test_absent},
    {"gc=", test_gc},
    {"debug=", test_debug},
    {"seconds=", test_seconds},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("pprof_query", tests); }
