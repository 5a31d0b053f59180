/* test_site_cut.c: a site's name cut to a column budget (site_cut.c): the middle of the
 * frame's qualified name goes first, the method, the line number and the class stay;
 * then the class's package; never wider than asked; 0 cuts nothing. */
#include <stdlib.h>
#include <string.h>

#include "output/site_cut.h"
#include "unit.h"

/* The cut text (static). */
static const char *cut(const char *site, size_t columns) {
    static char line[1024];
    hs_text t = {0};
    hs_site_cut(&t, site, columns);
    CU_ASSERT_FALSE(t.failed);
    snprintf(line, sizeof line, "%s", hs_text_str(&t));
    hs_text_free(&t);
    CU_ASSERT_TRUE(columns == 0 || hs_display_width(line) <= columns);
    return line;
}

static void test_fits_whole(void) {
    CU_ASSERT_STRING_EQUAL(cut("A.b:3 → byte[]", 40), "A.b:3 → byte[]");
    CU_ASSERT_STRING_EQUAL(cut("A.b:3 → byte[]", 14), "A.b:3 → byte[]");
    const char *lng = "org.apache.jsp.leak_jsp._jspService:123 → java.util.concurrent.ConcurrentHashMap$Node";
    CU_ASSERT_STRING_EQUAL(cut(lng, 0), lng); /* 0: files, pipes */
}

/* Two sites that differ only in their line (the defect seen at 80 columns: both read
 * "org.apache.jsp.leak_jsp._jspService:1…") stay apart at any width the frame fits in. */
static void test_line_and_class_kept(void) {
    const char *a = "org.apache.jsp.leak_jsp._jspService:123 → byte[]";
    const char *b = "org.apache.jsp.leak_jsp._jspService:145 → byte[]";
    for (size_t w = 20; w < hs_display_width(a); w++) {
        char first[256];
        snprintf(first, sizeof first, "%s", cut(a, w));
        const char *second = cut(b, w);
        CU_ASSERT_STRING_NOT_EQUAL(first, second);
        CU_ASSERT_PTR_NOT_NULL(strstr(first, ":123 → byte[]"));
        CU_ASSERT_PTR_NOT_NULL(strstr(second, ":145 → byte[]"));
        CU_ASSERT_PTR_NOT_NULL(strstr(first, "…"));
        CU_ASSERT_EQUAL(hs_display_width(first), w); /* the room used, not less */
    }
    /* the middle goes, the start and the method stay */
    CU_ASSERT_STRING_EQUAL(cut(a, 36), "org.apa…jsp._jspService:123 → byte[]");
}

/* A class too long to keep whole: its package's middle is cut, its simple name stays, and
 * the line number still does. */
static void test_class_cut_last(void) {
    const char *s = "com.example.deep.pkg.Service.handle:77 → com.example.a.very.long.pkg.AllocatedThing[]";
    const char *c = cut(s, 40);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, ":77 → "));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "Thing[]"));
    CU_ASSERT_EQUAL(hs_display_width(c), 40);
    /* no class, no line: a stack line's frame alone, middle cut */
    CU_ASSERT_STRING_EQUAL(cut("com.example.deep.pkg.Service.handle", 20), "com.ex…ervice.handle");
    /* a budget too small for any of that: the end is cut */
    CU_ASSERT_STRING_EQUAL(cut("Abcdefghij.klmnop:12 → Qrstuvwxyz", 8), "Abcdefg…");
}

/* Code points, not bytes: a name in CJK letters is cut on a character's boundary. */
static void test_utf8_boundaries(void) {
    const char *s = "\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD"
                    "\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD\xE4\xB8\xAD"
                    "\xE4\xB8\xAD\xE4\xB8\xAD.m:9 → X";
    const char *c = cut(s, 20);
    CU_ASSERT_EQUAL(hs_display_width(c), 20);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, ".m:9 → X"));
    CU_ASSERT_TRUE(strstr(c, "\xE4\xB8\xAD\xE2\x80\xA6\xE4\xB8\xAD") != NULL); /* whole letters around the cut */
}

void register_tests(void) {
    static const CU_TestInfo tests[] = {
        {"a name that fits, or width 0, is whole", test_fits_whole},
        {"the frame's middle goes; line and class stay", test_line_and_class_kept},
        {"a long class: its package's middle, then the end", test_class_cut_last},
        {"cut on UTF-8 character boundaries", test_utf8_boundaries},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("site_cut", tests);
}
