/* test_flame_tree.c: samples merged into a call tree (src/output/flame_tree.c): which stacks
 * share nodes, the own and total values of every node, line merging, the in-use mean age
 * of every node, and many stacks. */
#include <stdint.h>
#include <stdlib.h>

#include "output/flame_tree.h"
#include "profile/profile.h"
#include "profile_fixture.h"
#include "unit.h"

/* Stacks (leaf first, as in the profile), values {alloc_space, inuse_space}:
 *   byte[] <- App.alloc:10 <- Main.main:3      {10, 1}
 *   byte[] <- App.alloc:11 <- Main.main:3      {5, 0}    same functions: same nodes
 *   String <- Main.main:4                      {7, 2}    Main.main now at two lines
 *   byte[] <- Main.main:3                      {4, 4}    byte[] under Main.main: a new node
 *   (no frames)                                {2, 0}    counted in the root
 *   String <- Main.main:3                      {0, 0}    all zero: left out */
typedef struct {
    hs_profile *p;
    uint32_t main_fn, alloc_fn, bytes_fn, string_fn;
} fixture;

static int make(fixture *f) {
    hs_profile *p = hs_profile_new();
    if (!p) return -1;
    hs_profile_add_sample_type(p, "alloc_space", "bytes");
    hs_profile_add_sample_type(p, "inuse_space", "bytes");
    f->main_fn = hs_profile_add_function(p, "Main.main", "", "Main.java", 0);
    f->alloc_fn = hs_profile_add_function(p, "App.alloc", "", "App.java", 0);
    f->bytes_fn = hs_profile_add_function(p, "byte[]", "", "", 0);
    f->string_fn = hs_profile_add_function(p, "java.lang.String", "", "", 0);
    uint32_t main3 = hs_profile_add_location(p, f->main_fn, 3);
    uint32_t main4 = hs_profile_add_location(p, f->main_fn, 4);
    uint32_t alloc10 = hs_profile_add_location(p, f->alloc_fn, 10);
    uint32_t alloc11 = hs_profile_add_location(p, f->alloc_fn, 11);
    uint32_t bytes = hs_profile_add_location(p, f->bytes_fn, 0);
    uint32_t string = hs_profile_add_location(p, f->string_fn, 0);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc10, main3}, 3, (const int64_t[]){10, 1}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc11, main3}, 3, (const int64_t[]){5, 0}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){string, main4}, 2, (const int64_t[]){7, 2}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, main3}, 2, (const int64_t[]){4, 4}, 0);
    hs_profile_add_sample(p, NULL, 0, (const int64_t[]){2, 0}, 0);
    hs_profile_add_sample(p, (const uint32_t[]){string, main3}, 2, (const int64_t[]){0, 0}, 0);
    f->p = fixture_or_null(p);
    return f->p ? 0 : -1;
}

static void assert_values(const int64_t *values, int64_t a, int64_t b) {
    CU_ASSERT_EQUAL(values[0], a);
    CU_ASSERT_EQUAL(values[1], b);
}

static void test_merges_by_function(void) {
    fixture f = {0};
    CU_ASSERT_EQUAL_FATAL(make(&f), 0);
    hs_flame_tree *t = hs_flame_tree_build(f.p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* root, Main.main, App.alloc, byte[] under App.alloc, String, byte[] under Main.main */
    CU_ASSERT_EQUAL(hs_flame_tree_size(t), 6);

    const hs_flame_node *root = hs_flame_tree_node(t, HS_FLAME_ROOT);
    CU_ASSERT_EQUAL(root->parent, HS_FLAME_NO_PARENT);
    assert_values(root->self, 2, 0);
    assert_values(root->total, 28, 7);

    uint32_t main = hs_flame_tree_child(t, HS_FLAME_ROOT, f.main_fn);
    CU_ASSERT_FATAL(main != HS_FLAME_NO_PARENT);
    const hs_flame_node *m = hs_flame_tree_node(t, main);
    CU_ASSERT_EQUAL(m->function, f.main_fn);
    CU_ASSERT_EQUAL(m->line, HS_FLAME_SEVERAL_LINES); /* lines 3 and 4 */
    assert_values(m->self, 0, 0);
    assert_values(m->total, 26, 7);

    uint32_t alloc = hs_flame_tree_child(t, main, f.alloc_fn);
    CU_ASSERT_FATAL(alloc != HS_FLAME_NO_PARENT);
    CU_ASSERT_EQUAL(hs_flame_tree_node(t, alloc)->line, HS_FLAME_SEVERAL_LINES); /* 10, 11 */
    assert_values(hs_flame_tree_node(t, alloc)->total, 15, 1);

    uint32_t deep_bytes = hs_flame_tree_child(t, alloc, f.bytes_fn);
    uint32_t main_bytes = hs_flame_tree_child(t, main, f.bytes_fn);
    uint32_t string = hs_flame_tree_child(t, main, f.string_fn);
    CU_ASSERT_FATAL(deep_bytes != HS_FLAME_NO_PARENT && main_bytes != HS_FLAME_NO_PARENT &&
                    string != HS_FLAME_NO_PARENT);
    CU_ASSERT_NOT_EQUAL(deep_bytes, main_bytes);
    assert_values(hs_flame_tree_node(t, deep_bytes)->self, 15, 1);
    assert_values(hs_flame_tree_node(t, deep_bytes)->total, 15, 1);
    assert_values(hs_flame_tree_node(t, main_bytes)->self, 4, 4);
    assert_values(hs_flame_tree_node(t, string)->self, 7, 2);
    CU_ASSERT_EQUAL(hs_flame_tree_node(t, string)->line, 0);
    CU_ASSERT_EQUAL(hs_flame_tree_node(t, main_bytes)->parent, main);
    CU_ASSERT_EQUAL(hs_flame_tree_child(t, alloc, f.string_fn), HS_FLAME_NO_PARENT);
    CU_ASSERT_PTR_NULL(hs_flame_tree_node(t, 6));

    /* parents come before their children */
    for (uint32_t n = 1; n < hs_flame_tree_size(t); n++)
        CU_ASSERT(hs_flame_tree_node(t, n)->parent < n);
    hs_flame_tree_free(t);
    hs_profile_free(f.p);
}

static void test_empty_profile(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 4);
    hs_flame_tree *t = hs_flame_tree_build(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(hs_flame_tree_size(t), 1);
    for (int v = 0; v < 4; v++) CU_ASSERT_EQUAL(hs_flame_tree_node(t, 0)->total[v], 0);
    CU_ASSERT_EQUAL(hs_flame_tree_child(t, HS_FLAME_ROOT, 0), HS_FLAME_NO_PARENT);
    hs_flame_tree_free(t);
    p->failed = 1; /* an incomplete profile is refused */
    CU_ASSERT_PTR_NULL(hs_flame_tree_build(p));
    hs_profile_free(p);
}

/* Heap sample types {alloc_objects, alloc_space, inuse_objects, inuse_space}, ages:
 *   byte[] <- App.alloc <- Main.main   inuse_space 100, age 10 s
 *   byte[] <- App.alloc <- Main.main   inuse_space 300, age 30 s   same node: mean 25 s
 *   String <- Main.main                inuse_space 50, no age
 *   Object <- Main.main                no in-use bytes, age 99 s (left out)
 *   char[] <- Main.main                inuse_space 100, age 3 s
 * Main.main and the root: (100 x 10 + 300 x 30 + 100 x 3) / 500 = 20.6 s. */
static void test_mean_age(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 4);
    uint32_t main = add_frame(p, "Main.main", 3), alloc = add_frame(p, "App.alloc", 9);
    uint32_t bytes = add_frame(p, "byte[]", 0), string = add_frame(p, "String", 0);
    uint32_t object = add_frame(p, "Object", 0), chars = add_frame(p, "char[]", 0);
    hs_profile_add_aged_sample(p, (const uint32_t[]){bytes, alloc, main}, 3,
                               (const int64_t[]){1, 100, 1, 100}, 100, &(hs_sample_ages){1, 10});
    hs_profile_add_aged_sample(p, (const uint32_t[]){bytes, alloc, main}, 3,
                               (const int64_t[]){3, 300, 3, 300}, 100, &(hs_sample_ages){2, 30});
    hs_profile_add_sample(p, (const uint32_t[]){string, main}, 2, (const int64_t[]){2, 50, 2, 50}, 25);
    hs_profile_add_aged_sample(p, (const uint32_t[]){object, main}, 2, (const int64_t[]){1, 16, 0, 0},
                               16, &(hs_sample_ages){0, 99});
    hs_profile_add_aged_sample(p, (const uint32_t[]){chars, main}, 2,
                               (const int64_t[]){1, 100, 1, 100}, 100, &(hs_sample_ages){0, 3});
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_flame_tree *t = hs_flame_tree_build(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    uint32_t f_main = p->locations[main].function;
    uint32_t n_main = hs_flame_tree_child(t, HS_FLAME_ROOT, f_main);
    uint32_t n_alloc = hs_flame_tree_child(t, n_main, p->locations[alloc].function);
    uint32_t n_bytes = hs_flame_tree_child(t, n_alloc, p->locations[bytes].function);
    uint32_t n_string = hs_flame_tree_child(t, n_main, p->locations[string].function);
    uint32_t n_object = hs_flame_tree_child(t, n_main, p->locations[object].function);
    uint32_t n_chars = hs_flame_tree_child(t, n_main, p->locations[chars].function);
    CU_ASSERT_FATAL(n_main != HS_FLAME_NO_PARENT && n_alloc != HS_FLAME_NO_PARENT &&
                    n_bytes != HS_FLAME_NO_PARENT && n_string != HS_FLAME_NO_PARENT &&
                    n_object != HS_FLAME_NO_PARENT && n_chars != HS_FLAME_NO_PARENT);
    const struct {
        uint32_t node;
        int64_t aged_bytes;
        double age;
    } want[] = {{HS_FLAME_ROOT, 500, 20.6}, {n_main, 500, 20.6}, {n_alloc, 400, 25},
                {n_bytes, 400, 25},         {n_chars, 100, 3},   {n_string, 0, -1},
                {n_object, 0, -1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const hs_flame_node *node = hs_flame_tree_node(t, want[i].node);
        CU_ASSERT_EQUAL(node->aged_bytes, want[i].aged_bytes);
        CU_ASSERT_DOUBLE_EQUAL(node->age_seconds, want[i].age, 1e-9);
    }
    hs_flame_tree_free(t);
    hs_profile_free(p);
}

/* Without an inuse_space value (no live tracking) no node has an age, whatever the labels. */
static void test_no_age_without_inuse(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    uint32_t bytes = add_frame(p, "byte[]", 0);
    hs_profile_add_aged_sample(p, &bytes, 1, (const int64_t[]){1, 100}, 100, &(hs_sample_ages){1, 10});
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_flame_tree *t = hs_flame_tree_build(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(hs_flame_tree_size(t), 2);
    for (uint32_t n = 0; n < hs_flame_tree_size(t); n++) {
        CU_ASSERT_EQUAL(hs_flame_tree_node(t, n)->aged_bytes, 0);
        CU_ASSERT(hs_flame_tree_node(t, n)->age_seconds < 0);
    }
    hs_flame_tree_free(t);
    hs_profile_free(p);
}

/* 200,000 samples over 2,000 distinct 40-frame stacks sharing a 20-frame trunk: the
 * hash table grows many times and every value must still land in its own leaf. */
static void test_many_deep_stacks(void) {
    enum { FUNCTIONS = 2000, TRUNK = 20, DEPTH = 40, STACKS = 2000, SAMPLES = 200000 };
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_profile_add_sample_type(p, "alloc_objects", "count");
    uint32_t loc[FUNCTIONS];
    for (uint32_t i = 0; i < FUNCTIONS; i++) {
        char name[32];
        snprintf(name, sizeof name, "F%u", i);
        loc[i] = add_frame(p, name, 0);
    }
    int64_t expected_leaf[STACKS] = {0};
    for (uint32_t s = 0; s < SAMPLES; s++) {
        uint32_t stack = (s * 7919u) % STACKS, frames[DEPTH];
        for (uint32_t d = 0; d < DEPTH; d++) /* leaf first: the last TRUNK frames are shared */
            frames[d] = d >= DEPTH - TRUNK ? loc[DEPTH - 1 - d] : loc[(stack * 13 + d) % FUNCTIONS];
        frames[0] = loc[stack % FUNCTIONS]; /* distinct leaf per stack */
        hs_profile_add_sample(p, frames, DEPTH, (const int64_t[]){1 + s % 3}, 0);
        expected_leaf[stack] += 1 + s % 3;
    }
    CU_ASSERT_FALSE_FATAL(p->failed);
    hs_flame_tree *t = hs_flame_tree_build(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int64_t sum = 0;
    for (uint32_t s = 0; s < STACKS; s++) sum += expected_leaf[s];
    CU_ASSERT_EQUAL(hs_flame_tree_node(t, HS_FLAME_ROOT)->total[0], sum);
    /* root + trunk + per stack at most DEPTH - TRUNK nodes */
    CU_ASSERT(hs_flame_tree_size(t) <= 1 + TRUNK + STACKS * (DEPTH - TRUNK));
    int64_t self_sum = 0;
    for (uint32_t n = 0; n < hs_flame_tree_size(t); n++) {
        const hs_flame_node *node = hs_flame_tree_node(t, n);
        self_sum += node->self[0];
        if (n > 0 && node->total[0] > hs_flame_tree_node(t, node->parent)->total[0]) {
            CU_FAIL("a child's total exceeds its parent's");
            break;
        }
    }
    CU_ASSERT_EQUAL(self_sum, sum);
    /* the trunk is one chain of single nodes */
    uint32_t n = HS_FLAME_ROOT;
    for (uint32_t d = 0; d < TRUNK; d++) {
        n = hs_flame_tree_child(t, n, p->locations[loc[d]].function);
        CU_ASSERT_FATAL(n != HS_FLAME_NO_PARENT);
        CU_ASSERT_EQUAL(hs_flame_tree_node(t, n)->total[0], sum);
    }
    hs_flame_tree_free(t);
    hs_profile_free(p);
}

static CU_TestInfo flame_tree_tests[] = {
    {"merges by function, own and total values", test_merges_by_function},
    {"empty profile", test_empty_profile},
    {"in-use mean age, weighted by bytes", test_mean_age},
    {"no age without inuse_space", test_no_age_without_inuse},
    {"many deep stacks", test_many_deep_stacks},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("flame tree", flame_tree_tests); }
