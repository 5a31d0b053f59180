/* test_suspects.c: unit tests of how suspects.c names a bucket's site and which buckets it
 * lets growth judge, over real stack and sample tables with frames holding method infos.
 *
 * Checked: a stack with Java frames is named by its innermost frame, never "[no Java
 * frames]" (which is for a stack that has none); a folded stack is "[stack table full]";
 * buckets whose samples found no room (a folded stack, a [method table full] frame up to the
 * site's frame) are no site for growth, so such a pseudo-site, which gathers whatever came
 * after a table filled, can never be named a suspect; ordinary buckets are judged, and two
 * stacks that differ only in JDK frames are one site. */
#include <string.h>

#include "live/growth.h"
#include "sampling/method_infos.h"
#include "sampling/sample_table.h"
#include "sampling/sampled.h"
#include "sampling/stack_store.h"
#include "live/suspects.h"
#include "sampling/symbols.h"
#include "unit.h"

static const hs_line_entry WORK_LINES[] = {{.bci = 0, .line = 12}};
static const hs_method_info WORK = {.name = "app.Tmpl.work", .system_name = "app/Tmpl.work()V",
                                    .filename = "app/Tmpl.java", .start_line = 12, .nlines = 1,
                                    .lines = WORK_LINES};
static const hs_method_info MAIN = {.name = "app.Main.run", .system_name = "app/Main.run()V",
                                    .filename = "app/Main.java"};
static const hs_method_info JDK = {.name = "java.util.ArrayList.grow",
                                   .system_name = "java/util/ArrayList.grow()V", .filename = ""};

typedef struct {
    hs_stack_store *stacks;
    hs_sample_table *samples;
    hs_symbols *symbols;
    hs_counters counters;
    hs_sampled sampled;
} tables;

static void tables_init(tables *t) {
    memset(t, 0, sizeof *t);
    t->stacks = hs_stack_store_create(64, 1 << 16);
    t->samples = hs_sample_table_create(64);
    t->symbols = hs_symbols_create(64, 64, 1 << 16);
    t->sampled = (hs_sampled){.stacks = t->stacks, .samples = t->samples, .symbols = t->symbols,
                              .counters = &t->counters, .interval = 4096};
}

static void tables_free(tables *t) {
    hs_stack_store_destroy(t->stacks);
    hs_sample_table_destroy(t->samples);
    hs_symbols_destroy(t->symbols, NULL);
}

/* The bucket of one sample of `size` bytes with the given frames (leaf first; n = 0: no Java
 * frames; frames NULL: a folded stack). */
static uint32_t bucket_of(tables *t, const hs_method_info *const *methods, uint32_t n,
                          bool folded) {
    hs_frame frames[8];
    for (uint32_t i = 0; i < n; i++) frames[i] = (hs_frame){.method = (uintptr_t)methods[i], .bci = 0};
    hs_bucket_key key = {.size = 64, .class_id = 0};
    key.stack_id = folded ? HS_STACK_FOLDED : hs_stack_store_intern(t->stacks, frames, n, false);
    return folded ? hs_sample_table_record_folded(t->samples, key, HS_WEIGHT_ONE)
                  : hs_sample_table_record(t->samples, key, HS_WEIGHT_ONE);
}

static int judged(tables *t, uint32_t bucket, uint64_t *site) {
    double size, scale;
    return hs_suspect_growth_info(bucket, &size, &scale, site, &t->sampled);
}

static void suspect_name(tables *t, uint32_t bucket, char *out, size_t len) {
    hs_growth_site s = {.bucket = bucket, .horizon = HS_HORIZON_GCS, .samples = 1};
    hs_suspect_format(&t->sampled, &s, NULL, out, len);
}

static void test_java_frames_are_named(void) {
    tables t;
    tables_init(&t);
    const hs_method_info *stack[] = {&WORK, &MAIN};
    uint32_t b = bucket_of(&t, stack, 2, false);
    char key[256], line[512];
    hs_suspect_site_key(&t.sampled, b, key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "app.Tmpl.work:12 \u2192 [unknown]");
    suspect_name(&t, b, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "app.Tmpl.work:12 ([unknown])"));
    CU_ASSERT_PTR_NULL(strstr(line, "[no Java frames]"));
    uint64_t site;
    CU_ASSERT_EQUAL(judged(&t, b, &site), 1);
    /* the site is the first frame outside the JDK: a JDK frame below it changes nothing */
    const hs_method_info *via_jdk[] = {&JDK, &WORK, &MAIN};
    uint64_t other;
    CU_ASSERT_EQUAL(judged(&t, bucket_of(&t, via_jdk, 3, false), &other), 1);
    CU_ASSERT_EQUAL(other, site);
    tables_free(&t);
}

static void test_no_java_frames_only_without_frames(void) {
    tables t;
    tables_init(&t);
    uint32_t b = bucket_of(&t, NULL, 0, false);
    char key[256], line[512];
    hs_suspect_site_key(&t.sampled, b, key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "[no Java frames] \u2192 [unknown]");
    suspect_name(&t, b, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "[no Java frames] ([unknown])"));
    uint64_t site;
    CU_ASSERT_EQUAL(judged(&t, b, &site), 1); /* JNI allocating on a native thread can leak */
    tables_free(&t);
}

static void test_no_room_is_no_site(void) {
    tables t;
    tables_init(&t);
    char key[256], line[512];
    uint64_t site;
    uint32_t folded = bucket_of(&t, NULL, 0, true);
    hs_suspect_site_key(&t.sampled, folded, key, sizeof key);
    CU_ASSERT_STRING_EQUAL(key, "[stack table full] \u2192 [unknown]");
    suspect_name(&t, folded, line, sizeof line);
    CU_ASSERT_PTR_NULL(strstr(line, "[no Java frames]"));
    CU_ASSERT_EQUAL(judged(&t, folded, &site), 0);
    /* a method without room at or below the site's frame: the site is not known */
    const hs_method_info *unnamed_leaf[] = {&hs_method_table_full, &MAIN};
    CU_ASSERT_EQUAL(judged(&t, bucket_of(&t, unnamed_leaf, 2, false), &site), 0);
    /* above the site's frame it changes nothing */
    const hs_method_info *unnamed_root[] = {&WORK, &hs_method_table_full};
    CU_ASSERT_EQUAL(judged(&t, bucket_of(&t, unnamed_root, 2, false), &site), 1);
    /* a method the JVM could not name is still a site of its own stack */
    const hs_method_info *unresolved[] = {&hs_method_unresolved, &MAIN};
    uint32_t b = bucket_of(&t, unresolved, 2, false);
    CU_ASSERT_EQUAL(judged(&t, b, &site), 1);
    suspect_name(&t, b, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "[method not resolved] ([unknown])"));
    tables_free(&t);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"Java frames are named", test_java_frames_are_named},
        {"[no Java frames] only without frames", test_no_java_frames_only_without_frames},
        {"what found no room is no site", test_no_room_is_no_site},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("suspects", tests);
}
