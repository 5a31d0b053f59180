/* test_legacy_heap.c: Go's legacy text heap profile as /debug/pprof/heap?debug=1 answers it
 * (checked against the grammar of pprof's legacy parser), stable frame addresses, the
 * lines pprof would refuse, the fold past HS_LEGACY_MAX_RECORDS, and the symbol table that
 * answers /debug/pprof/symbol. */
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/legacy_heap.h"
#include "profile_fixture.h"
#include "unit.h"

/* pprof's heapHeaderRE and heapSampleRE (profile/legacy_profile.go), in POSIX syntax. */
#define HEADER_RE "^heap profile: *([0-9]+): *([0-9]+) *\\[ *([0-9]+): *([0-9]+) *\\] *@ *(heap[_a-z0-9]*)/?([0-9]*)$"
#define SAMPLE_RE "^(-?[0-9]+): *(-?[0-9]+) *\\[ *([0-9]+): *([0-9]+) *\\] @([ x0-9a-f]*)$"

static char *encode(const hs_profile *p) {
    uint8_t *out = NULL;
    size_t len = 0;
    if (hs_legacy_heap_encode(p, &out, &len) != 0) return NULL;
    char *text = malloc(len + 1);
    memcpy(text, out, len);
    text[len] = '\0';
    free(out);
    return text;
}

/* A sample with alloc (objects, bytes) and inuse (objects, bytes). */
static void add(hs_profile *p, const uint32_t *locs, uint32_t depth, int64_t ao, int64_t ab,
                int64_t io, int64_t ib) {
    int64_t v[4] = {ao, ab, io, ib};
    hs_profile_add_sample(p, locs, depth, v, ab && ao ? ab / ao : 0);
}

/* Two sites under main: grow (small in use) and parse (large in use). */
static hs_profile *two_sites(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    p->period = 524288;
    uint32_t main_ = hs_profile_add_location(
        p, hs_profile_add_function(p, "app.Main.main", "", "app/Main.java", 3), 10);
    uint32_t grow = hs_profile_add_location(
        p, hs_profile_add_function(p, "java.util.ArrayList.grow", "", "java/util/ArrayList.java", 230), 237);
    uint32_t parse = hs_profile_add_location(
        p, hs_profile_add_function(p, "app.Parser.parse", "", "app/Parser.java", 40), 44);
    uint32_t cls = add_frame(p, "byte[]", 0);
    uint32_t a[] = {cls, grow, main_}, b[] = {cls, parse, main_};
    add(p, a, 3, 100, 6400, 10, 640);
    add(p, b, 3, 50, 51200, 40, 40960);
    hs_profile_add_comment(p, "liveness: a comment\nwith a newline");
    return fixture_or_null(p);
}

static bool matches(const char *re, const char *line, regmatch_t *m, size_t n) {
    regex_t r;
    if (regcomp(&r, re, REG_EXTENDED) != 0) return false;
    bool ok = regexec(&r, line, n, m, 0) == 0;
    regfree(&r);
    return ok;
}

/* The lines of text (modified in place), NULL-terminated; at most max. */
static int lines_of(char *text, char **lines, int max) {
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max - 1; line = strtok(NULL, "\n"))
        lines[n++] = line;
    lines[n] = NULL;
    return n;
}

static void test_format(void) {
    hs_profile *p = two_sites();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char *text = encode(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *lines[64];
    int n = lines_of(text, lines, 64);
    CU_ASSERT_TRUE_FATAL(n > 10);
    regmatch_t m[7];
    CU_ASSERT_STRING_EQUAL(lines[0], "heap profile: 50: 41600 [150: 57600] @ heap/2");
    CU_ASSERT_TRUE(matches(HEADER_RE, lines[0], m, 7));
    /* largest in use first, as Go sorts; then its frames, leaf first */
    CU_ASSERT_TRUE(matches(SAMPLE_RE, lines[1], m, 6));
    CU_ASSERT_EQUAL(strncmp(lines[1], "40: 40960 [50: 51200] @ 0x", 26), 0);
    CU_ASSERT_EQUAL(strncmp(lines[2], "#\t0x", 4), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "\tbyte[]+0x0\t?:0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "\tapp.Parser.parse+0x0\tapp/Parser.java:44"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[4], "\tapp.Main.main+0x0\tapp/Main.java:10"));
    CU_ASSERT_TRUE(matches(SAMPLE_RE, lines[5], m, 6));
    CU_ASSERT_EQUAL(strncmp(lines[5], "10: 640 [100: 6400] @ 0x", 24), 0);
    /* each address on a sample line is the frame's PC + 1 (a return address) */
    unsigned long long ret[3], pc[3];
    CU_ASSERT_EQUAL(sscanf(lines[1], "%*s %*s [%*s %*s @ %llx %llx %llx", &ret[0], &ret[1], &ret[2]), 3);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(sscanf(lines[2 + i], "#\t%llx", &pc[i]), 1);
        CU_ASSERT_EQUAL(ret[i], pc[i] + 1);
    }
    CU_ASSERT_EQUAL(pc[0], hs_legacy_frame_pc("byte[]", "", 0));
    CU_ASSERT_EQUAL(pc[1], hs_legacy_frame_pc("app.Parser.parse", "app/Parser.java", 44));
    /* the comments after the records: '#' lines, one line each, nothing pprof would read */
    bool said_scaled = false, comment_kept = false;
    for (int i = 9; i < n; i++) {
        CU_ASSERT_EQUAL(lines[i][0], '#');
        said_scaled |= strstr(lines[i], "\"heap/2\" (rate 1)") != NULL;
        comment_kept |= strcmp(lines[i], "# liveness: a comment with a newline") == 0;
    }
    CU_ASSERT_TRUE(said_scaled);
    CU_ASSERT_TRUE(comment_kept);
    free(text);
    hs_profile_free(p);
}

/* A frame's address depends on its name, file and line only: the same in every answer. */
static void test_stable_addresses(void) {
    hs_profile *p = two_sites(), *q = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(q, 4);
    uint32_t parse = hs_profile_add_location(
        q, hs_profile_add_function(q, "app.Parser.parse", "", "app/Parser.java", 40), 44);
    uint32_t loc[] = {parse};
    add(q, loc, 1, 1, 8, 1, 8);
    char *a = encode(p), *b = encode(q);
    char want[64];
    snprintf(want, sizeof want, "#\t%#llx\tapp.Parser.parse+0x0",
             (unsigned long long)hs_legacy_frame_pc("app.Parser.parse", "app/Parser.java", 44));
    CU_ASSERT_PTR_NOT_NULL(strstr(a, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, want));
    CU_ASSERT_NOT_EQUAL(hs_legacy_frame_pc("app.Parser.parse", "app/Parser.java", 45),
                        hs_legacy_frame_pc("app.Parser.parse", "app/Parser.java", 44));
    free(a);
    free(b);
    hs_profile_free(p);
    hs_profile_free(q);
}

/* Two frames with the same name, file and line (two functions): distinct addresses. */
static void test_address_collision(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    uint32_t x = add_frame(p, "dup.Name.m", 5), y = add_frame(p, "dup.Name.m", 5);
    CU_ASSERT_NOT_EQUAL(x, y);
    uint32_t s1[] = {x}, s2[] = {y};
    add(p, s1, 1, 1, 16, 1, 16);
    add(p, s2, 1, 2, 32, 2, 32);
    char *text = encode(p);
    unsigned long long first = 0, second = 0;
    char *at = strstr(text, "#\t");
    CU_ASSERT_EQUAL(sscanf(at, "#\t%llx", &first), 1);
    at = strstr(at + 2, "#\t");
    CU_ASSERT_EQUAL(sscanf(at, "#\t%llx", &second), 1);
    CU_ASSERT_NOT_EQUAL(first, second);
    CU_ASSERT_EQUAL(first > second ? first - second : second - first, 16);
    free(text);
    hs_profile_free(p);
}

/* pprof refuses "0: N" with N > 0: such values get one object, and a comment says so. */
static void test_zero_objects(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    uint32_t f = add_frame(p, "a.B.c", 1);
    uint32_t loc[] = {f};
    add(p, loc, 1, 3, 300, 0, 40);
    char *text = encode(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n1: 40 [3: 300] @ 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# 1 values of 0 objects"));
    free(text);
    hs_profile_free(p);
}

/* Without in-use types (live=false), in-use values are 0; alloc still counted. */
static void test_alloc_only(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 2);
    uint32_t f = add_frame(p, "a.B.c", 1);
    uint32_t loc[] = {f};
    int64_t v[2] = {4, 64};
    hs_profile_add_sample(p, loc, 1, v, 16);
    char *text = encode(p);
    CU_ASSERT_EQUAL(strncmp(text, "heap profile: 0: 0 [4: 64] @ heap/2\n0: 0 [4: 64] @ 0x", 52), 0);
    free(text);
    hs_profile_free(p);
}

/* Past HS_LEGACY_MAX_RECORDS, the smallest are summed into one line: totals exact. */
static void test_fold(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    enum { N = HS_LEGACY_MAX_RECORDS + 5 };
    long long sum_bytes = 0;
    for (int i = 0; i < N; i++) {
        char name[32];
        snprintf(name, sizeof name, "s.Site.m%d", i);
        uint32_t loc[] = {add_frame(p, name, 1)};
        add(p, loc, 1, 1, 8 + i, 1, 8 + i);
        sum_bytes += 8 + i;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(fixture_or_null(p));
    char *text = encode(p);
    char header[96];
    snprintf(header, sizeof header, "heap profile: %d: %lld [%d: %lld] @ heap/2\n", N, sum_bytes,
             N, sum_bytes);
    CU_ASSERT_EQUAL(strncmp(text, header, strlen(header)), 0);
    int records = 0;
    for (const char *at = text; (at = strstr(at, "] @ 0x")) != NULL; at++) records++;
    CU_ASSERT_EQUAL(records, HS_LEGACY_MAX_RECORDS);
    /* the smallest six (8..13 bytes) together */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n6: 63 [6: 63] @ 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\t[other sites]+0x0\t?:0\n"));
    free(text);
    hs_profile_free(p);
}

/* A name with control characters (a JVM allows them) stays on its line. */
static void test_hostile_names(void) {
    hs_profile *p = hs_profile_new();
    add_heap_sample_types(p, 4);
    uint32_t loc[] = {add_frame(p, "evil\nheap profile: 9: 9 [9: 9] @ heap/2\t+0x0", 1)};
    add(p, loc, 1, 1, 8, 1, 8);
    char *text = encode(p);
    char *lines[16];
    int n = lines_of(text, lines, 16);
    regmatch_t m[6];
    int samples = 0;
    for (int i = 1; i < n; i++) samples += matches(SAMPLE_RE, lines[i], m, 6);
    CU_ASSERT_EQUAL(samples, 1);
    CU_ASSERT_EQUAL(strncmp(lines[2], "#\t0x", 4), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "evil heap profile"));
    free(text);
    hs_profile_free(p);
}

static char *answer(const hs_legacy_symbols *s, const char *query) {
    hs_text t = {0};
    hs_legacy_symbols_answer(s, query, strlen(query), &t);
    return t.data;
}

static void test_symbols(void) {
    hs_profile *p = two_sites();
    char *text = encode(p);
    hs_legacy_symbols *s = hs_legacy_symbols_of(text, strlen(text));
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(hs_legacy_symbols_count(s), 4); /* byte[], grow, parse, main */
    unsigned long long parse = hs_legacy_frame_pc("app.Parser.parse", "app/Parser.java", 44);
    unsigned long long cls = hs_legacy_frame_pc("byte[]", "", 0);
    char query[128], want[256];
    /* as pprof asks: the sample addresses minus one, joined by '+'; unknown ones skipped,
     * a repeat answered once */
    snprintf(query, sizeof query, "%#llx+0x5+%#llx+%#llx+junk+", parse, cls, parse);
    snprintf(want, sizeof want, "num_symbols: 1\n%#llx app.Parser.parse\n%#llx byte[]\n", parse, cls);
    char *got = answer(s, query);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
    snprintf(query, sizeof query, "%llu", parse); /* decimal, as Go's ParseUint(.., 0, ..) */
    got = answer(s, query);
    snprintf(want, sizeof want, "num_symbols: 1\n%#llx app.Parser.parse\n", parse);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
    got = answer(s, "");
    CU_ASSERT_STRING_EQUAL(got, "num_symbols: 1\n");
    free(got);
    got = answer(NULL, query);
    CU_ASSERT_STRING_EQUAL(got, "num_symbols: 1\n");
    free(got);
    hs_legacy_symbols_free(s);
    free(text);
    hs_profile_free(p);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"Go's legacy heap text", test_format},
        {"stable frame addresses", test_stable_addresses},
        {"address collisions resolved", test_address_collision},
        {"0 objects with bytes", test_zero_objects},
        {"alloc only", test_alloc_only},
        {"fold past the record limit", test_fold},
        {"hostile names", test_hostile_names},
        {"symbol lookups", test_symbols},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("legacy_heap", tests);
}
