/* test_retention.c: the -paths file name and the chain of a target (retention.c); the
 * walk's pure decisions and figures (retention_plan.c). */
#include <jvmti.h>
#include <string.h>

#include "live/retention.h"
#include "live/retention_plan.h"
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
    {N, N, -1, JVMTI_HEAP_REFERENCE_SYSTEM_CLASS, N},
    {3, N, 2, JVMTI_HEAP_REFERENCE_FIELD, 0},
    {0, 0, 1, JVMTI_HEAP_REFERENCE_STATIC_FIELD, 0},
    {2, N, -1, JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT, 0},
    {N, N, -1, 0, N},
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

/* Only what a thread holds for a while waits for the last pass. */
static void test_transient_roots(void) {
    CU_ASSERT_TRUE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_STACK_LOCAL));
    CU_ASSERT_TRUE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_JNI_LOCAL));
    CU_ASSERT_TRUE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_MONITOR));
    CU_ASSERT_FALSE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_SYSTEM_CLASS));
    CU_ASSERT_FALSE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_JNI_GLOBAL));
    CU_ASSERT_FALSE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_THREAD));
    CU_ASSERT_FALSE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_OTHER));
    CU_ASSERT_FALSE(hs_retention_root_transient(JVMTI_HEAP_REFERENCE_STATIC_FIELD));
}

static hs_retention_pass next(hs_retention_pass pass, bool time_ended, bool cut, bool targets_cut,
                              uint32_t left) {
    hs_retention_pass_result r = {pass, time_ended, cut, targets_cut, left};
    return hs_retention_next_pass(&r);
}

/* Held roots first (shared; then the cut groups holding targets; then every cut group),
 * stack and JNI locals last; a pass with nothing to add is skipped; the budget or the last
 * target ends the walk. */
static void test_pass_order(void) {
    CU_ASSERT_EQUAL(next(HS_PASS_HELD_SHARED, false, true, true, 3), HS_PASS_HELD_TARGETED);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD_SHARED, false, true, false, 3), HS_PASS_HELD);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD_SHARED, false, false, false, 3), HS_PASS_TRANSIENT);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD_TARGETED, false, true, false, 3), HS_PASS_HELD);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD_TARGETED, false, false, false, 3), HS_PASS_TRANSIENT);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD, false, false, false, 3), HS_PASS_TRANSIENT);
    CU_ASSERT_EQUAL(next(HS_PASS_HELD, false, true, true, 3), HS_PASS_TRANSIENT);
    CU_ASSERT_EQUAL(next(HS_PASS_TRANSIENT, false, false, false, 3), HS_PASS_DONE);
    for (int pass = HS_PASS_HELD_SHARED; pass <= HS_PASS_TRANSIENT; pass++) {
        hs_retention_pass p = (hs_retention_pass)pass;
        CU_ASSERT_EQUAL(next(p, true, true, true, 3), HS_PASS_DONE);  /* the budget */
        CU_ASSERT_EQUAL(next(p, false, true, true, 0), HS_PASS_DONE); /* every target found */
    }
}

#define MS INT64_C(1000000)

/* The walk stops early enough for the JVM's own tail to fit in the budget, or not at all. */
static void test_window_leaves_the_tail(void) {
    int64_t bitmap = hs_retention_reserve_ns(0, false, -1);
    CU_ASSERT_TRUE(bitmap > 0 && bitmap <= 50 * MS);
    CU_ASSERT_TRUE(hs_retention_reserve_ns(20e6, false, -1) < 100 * MS); /* JDK 25: a bitmap */
    int64_t headers = hs_retention_reserve_ns(0, true, -1); /* JDK 17: every object's header */
    CU_ASSERT_TRUE(headers > 100 * MS && headers < 300 * MS);
    int64_t million = hs_retention_reserve_ns(1e6, true, -1) - headers;
    CU_ASSERT_TRUE(million > 20 * MS && million < 100 * MS);
    CU_ASSERT_TRUE(hs_retention_reserve_ns(20e6, true, -1) >= 1000 * MS); /* measured: 1080 */
    /* measured: what the last pass's tail was, and a margin */
    CU_ASSERT_TRUE(hs_retention_reserve_ns(20e6, true, 100 * MS) >= 100 * MS);
    CU_ASSERT_TRUE(hs_retention_reserve_ns(20e6, true, 100 * MS) < 200 * MS);
    CU_ASSERT_EQUAL(hs_retention_walk_window(1000 * MS, 300 * MS), 700 * MS);
    CU_ASSERT_EQUAL(hs_retention_walk_window(1000 * MS, 800 * MS), 200 * MS);
    CU_ASSERT_EQUAL(hs_retention_walk_window(1000 * MS, 801 * MS), 0); /* no pass */
    CU_ASSERT_EQUAL(hs_retention_walk_window(1000 * MS, 2000 * MS), 0);
}

static void test_header_marks_by_version(void) {
    CU_ASSERT_TRUE(hs_retention_header_marks("17.0.13+11-Debian-2"));
    CU_ASSERT_TRUE(hs_retention_header_marks("21.0.5+11-LTS"));
    CU_ASSERT_FALSE(hs_retention_header_marks("25+36-LTS"));
    CU_ASSERT_FALSE(hs_retention_header_marks("26-ea+3"));
    CU_ASSERT_TRUE(hs_retention_header_marks("")); /* unknown: assume the costly kind */
    CU_ASSERT_TRUE(hs_retention_header_marks(NULL));
}

static hs_retention_figures two_sites(void) {
    hs_retention_figures f;
    memset(&f, 0, sizeof f);
    f.nsites = 2;
    f.site[0] = (hs_retention_site_figures){.name = "byte[]", .targets = 4, .reached = 4, .bytes = 3.5e9};
    f.site[1] = (hs_retention_site_figures){.name = "Rec", .targets = 4, .reached = 0, .bytes = 2.5e8};
    f.targets = 8;
    f.reached = 4;
    f.heap_used = UINT64_C(4000000000);
    f.heap_objects = 20.31e6;
    f.budget_ms = 1000;
    f.end = HS_WALK_BUDGET;
    return f;
}

/* Pauses and visited objects add up over the passes; the fraction is of the heap used. */
static void test_figures_bookkeeping(void) {
    hs_retention_figures f = two_sites();
    hs_retention_figures_add_pass(&f, 900 * MS, 3000000, UINT64_C(1000000000));
    hs_retention_figures_add_pass(&f, 400 * MS, 1000000, UINT64_C(600000000));
    CU_ASSERT_EQUAL(f.walks, 2);
    CU_ASSERT_EQUAL(f.longest_pause_ns, 900 * MS);
    CU_ASSERT_EQUAL(f.total_pause_ns, 1300 * MS);
    CU_ASSERT_EQUAL(f.objects_visited, 4000000);
    CU_ASSERT_DOUBLE_EQUAL(hs_retention_visited_fraction(&f), 0.4, 1e-12);
    f.bytes_visited = UINT64_C(5000000000); /* objects allocated since the GC: at most 1 */
    CU_ASSERT_DOUBLE_EQUAL(hs_retention_visited_fraction(&f), 1.0, 1e-12);
    f.heap_used = 0;
    CU_ASSERT_EQUAL(hs_retention_visited_fraction(&f), -1);
}

static void test_figures_text(void) {
    hs_retention_figures f = two_sites();
    hs_retention_figures_add_pass(&f, 930 * MS, 4100000, UINT64_C(812000000));
    char line[512];
    size_t need = hs_retention_format_figures(&f, line, sizeof line);
    CU_ASSERT_EQUAL(need, strlen(line));
    CU_ASSERT_STRING_EQUAL(line, "reached 4 of 8 objects (1 of 2 sites); visited 4.10 M of ~20.31 M objects, "
                                 "812 MB of 4.00 GB used (20.3 %); 1 walk, longest pause 930 ms, "
                                 "930 ms in all (budget 1000 ms per pause); the budget ended the "
                                 "walk");
    f.end = HS_WALK_ALL_REACHED;
    f.reached_transient = 1;
    f.heap_used = 0;
    f.heap_objects = 0;
    hs_retention_format_figures(&f, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "(1 of 2 sites; 1 only through a stack or JNI local)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "visited 4.10 M objects, 812 MB (heap used unknown)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "; every object sought was reached"));
    char tiny[16];
    CU_ASSERT_EQUAL(hs_retention_format_figures(&f, tiny, sizeof tiny), strlen(line)); /* cut */
    CU_ASSERT_EQUAL(strlen(tiny), sizeof tiny - 1);
    hs_retention_format_site(&f, 1, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "site 2: Rec, 250 MB in use: 0 of 4 reached");
    CU_ASSERT_EQUAL(hs_retention_format_site(&f, 2, line, sizeof line), 0);
    f.end = HS_WALK_TOO_SLOW;
    f.reserve_ns = 1300 * MS;
    hs_retention_format_figures(&f, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "(ask for a larger budget=) (1300 ms expected)"));
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"paths file name", test_paths_file_name},
        {"chain root last", test_chain_root_last},
        {"transient roots", test_transient_roots},
        {"pass order", test_pass_order},
        {"window leaves the tail", test_window_leaves_the_tail},
        {"header marks by version", test_header_marks_by_version},
        {"figures bookkeeping", test_figures_bookkeeping},
        {"figures text", test_figures_text},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("retention", tests);
}
