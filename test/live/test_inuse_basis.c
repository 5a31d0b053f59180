/* test_inuse_basis.c: what in-use values stand for before any GC (inuse_basis.c): a
 * collector that never collects against one that has not yet, the view a profile opens on,
 * and the sentence that says why. */
#include <string.h>

#include "heap/gc_identify.h"
#include "live/inuse_basis.h"
#include "unit.h"

static void test_basis(void) {
    CU_ASSERT_EQUAL(hs_inuse_basis_of(true, 0), HS_INUSE_NEVER_COLLECTED);
    CU_ASSERT_EQUAL(hs_inuse_basis_of(false, 0), HS_INUSE_NO_GC_YET);
    CU_ASSERT_EQUAL(hs_inuse_basis_of(false, 1), HS_INUSE_LAST_GC);
    /* a GC seen is a GC, whatever the collector was said to do */
    CU_ASSERT_EQUAL(hs_inuse_basis_of(true, 3), HS_INUSE_LAST_GC);
    CU_ASSERT_TRUE(hs_gc_never_collects(HS_GC_EPSILON));
    for (int k = HS_GC_UNKNOWN; k < HS_GC_EPSILON; k++) CU_ASSERT_FALSE(hs_gc_never_collects((hs_gc_kind)k));
}

/* The profile opens on what has numbers: in use, except before a collector's first GC. */
static void test_default_view(void) {
    CU_ASSERT_STRING_EQUAL(hs_inuse_basis_default_type(HS_INUSE_LAST_GC), "inuse_space");
    CU_ASSERT_STRING_EQUAL(hs_inuse_basis_default_type(HS_INUSE_NEVER_COLLECTED), "inuse_space");
    CU_ASSERT_STRING_EQUAL(hs_inuse_basis_default_type(HS_INUSE_NO_GC_YET), "alloc_space");
}

static void test_note(void) {
    char note[512];
    hs_inuse_basis_note(HS_INUSE_NEVER_COLLECTED, "Epsilon", note, sizeof note);
    CU_ASSERT_STRING_EQUAL(note, "in use = allocated since the agent started: Epsilon never "
                                 "collects the heap, so every object allocated since then is "
                                 "still in it, reachable or not (the agent cannot tell any "
                                 "sampled object dead)");
    hs_inuse_basis_note(HS_INUSE_NO_GC_YET, "G1", note, sizeof note);
    CU_ASSERT_STRING_EQUAL(note, "in use: not known yet: in-use values are as of the last GC, and "
                                 "G1 has not collected yet (nothing judged, not nothing live)");
    hs_inuse_basis_note(HS_INUSE_NO_GC_YET, NULL, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "and the collector has not collected yet"));
    strcpy(note, "x");
    hs_inuse_basis_note(HS_INUSE_LAST_GC, "G1", note, sizeof note);
    CU_ASSERT_STRING_EQUAL(note, "");
    char tiny[8];
    hs_inuse_basis_note(HS_INUSE_NEVER_COLLECTED, "Epsilon", tiny, sizeof tiny); /* cut, ended */
    CU_ASSERT_EQUAL(strlen(tiny), sizeof tiny - 1);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"before any GC: never collects or not yet", test_basis},
        {"the view a profile opens on", test_default_view},
        {"the sentence that says why", test_note},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("inuse_basis", tests);
}
