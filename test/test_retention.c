/* test_retention.c: the -paths file name and the chain of a target (retention.c). */
#include <jvmti.h>
#include <string.h>

#include "retention.h"
#include "unit.h"

static void check_path(const char *in, const char *expected) {
    char out[256];
    CU_ASSERT_EQUAL(hs_retention_path(in, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, expected);
}

static void test_paths_file_name(void) {
    check_path("/tmp/heap-1.pb.gz", "/tmp/heap-1-paths.pb.gz");
    check_path("heap.pb.gz", "heap-paths.pb.gz");
    check_path("/tmp/d.x/heap.pprof", "/tmp/d.x/heap-paths.pprof");
    check_path("/tmp/d.x/heap", "/tmp/d.x/heap-paths");
    check_path("/tmp/.hidden", "/tmp/.hidden-paths");
    char tiny[8];
    CU_ASSERT_EQUAL(hs_retention_path("heap.pb.gz", tiny, sizeof tiny), -1);
}

#define N HS_RETENTION_NO_NODE

/* 0: a class (root), 1: a target reached through 3 <- 2 <- 0, 4: a target not reached. */
static const hs_retention_node nodes[] = {
    {N, N, -1, JVMTI_HEAP_REFERENCE_SYSTEM_CLASS},
    {3, N, 2, JVMTI_HEAP_REFERENCE_FIELD},
    {0, 0, 1, JVMTI_HEAP_REFERENCE_STATIC_FIELD},
    {2, N, -1, JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT},
    {N, N, -1, 0},
};

static void test_chain_root_last(void) {
    uint32_t out[8];
    CU_ASSERT_EQUAL_FATAL(hs_retention_chain(nodes, 5, 1, out, 8), 4);
    const uint32_t expected[] = {1, 3, 2, 0};
    CU_ASSERT_EQUAL(memcmp(out, expected, sizeof expected), 0);
    CU_ASSERT_EQUAL(hs_retention_chain(nodes, 5, 4, out, 8), 0); /* not reached */
    CU_ASSERT_EQUAL(hs_retention_chain(nodes, 5, 1, out, 3), 0); /* longer than max */
    CU_ASSERT_EQUAL(hs_retention_chain(nodes, 5, 0, out, 8), 1); /* a root itself */
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"paths file name", test_paths_file_name},
        {"chain root last", test_chain_root_last},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("retention", tests);
}
