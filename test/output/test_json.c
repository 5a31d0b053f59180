/* test_json.c: the JSON writer (json.c): commas and nesting, strings escaped (quotes,
 * control characters such as ESC, invalid UTF-8), numbers (integers whole, NaN as null),
 * every text strictly valid (json_check.h); too deep a nesting marks the text failed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/json.h"
#include "json_check.h"
#include "unit.h"

static void test_members_and_nesting(void) {
    hs_text t = {0};
    hs_json w;
    hs_json_begin(&w, &t);
    hs_json_object(&w, NULL);
    hs_json_str(&w, "name", "Leak.put:3 \xe2\x86\x92 byte[]");
    hs_json_int(&w, "rank", 1);
    hs_json_num(&w, "bytes", 1048576);
    hs_json_num(&w, "share", 0.25);
    hs_json_num(&w, "nan", NAN);
    hs_json_bool(&w, "live", true);
    hs_json_null(&w, "growth");
    hs_json_str(&w, "none", NULL);
    hs_json_array(&w, "rows");
    hs_json_object(&w, NULL);
    hs_json_int(&w, "a", -3);
    hs_json_end(&w);
    hs_json_object(&w, NULL);
    hs_json_end(&w);
    hs_json_end(&w);
    hs_json_array(&w, "empty");
    hs_json_end(&w);
    hs_json_end(&w);
    CU_ASSERT_FALSE(t.failed);
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t),
                           "{\"name\":\"Leak.put:3 \xe2\x86\x92 byte[]\",\"rank\":1,\"bytes\":1048576,"
                           "\"share\":0.25,\"nan\":null,\"live\":true,\"growth\":null,\"none\":null,"
                           "\"rows\":[{\"a\":-3},{}],\"empty\":[]}");
    CU_ASSERT_TRUE(json_check(hs_text_str(&t)));
    hs_text_free(&t);
}

/* A class name with ESC, a quote, a backslash, a newline and a byte that is not UTF-8:
 * every one escaped, the text still valid JSON (and no raw ESC reaches a terminal). */
static void test_hostile_strings(void) {
    hs_text t = {0};
    hs_json w;
    hs_json_begin(&w, &t);
    hs_json_object(&w, NULL);
    hs_json_str(&w, "k\"ey", "a\x1b]0;owned\x07\"\\\n\xff<b>");
    hs_json_end(&w);
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), "{\"k\\\"ey\":\"a\\u001b]0;owned\\u0007\\\"\\\\\\n\\ufffd"
                                            "\\u003cb\\u003e\"}");
    CU_ASSERT_PTR_NULL(strchr(hs_text_str(&t), 0x1b));
    CU_ASSERT_TRUE(json_check(hs_text_str(&t)));
    hs_text_free(&t);
}

static void test_depth_bounded(void) {
    hs_text t = {0};
    hs_json w;
    hs_json_begin(&w, &t);
    for (int i = 0; i < HS_JSON_MAX_DEPTH + 2; i++) hs_json_array(&w, NULL);
    CU_ASSERT_TRUE(t.failed);
    hs_text_free(&t);
    hs_text u = {0};
    hs_json_begin(&w, &u);
    hs_json_end(&w); /* nothing open */
    CU_ASSERT_TRUE(u.failed);
    hs_text_free(&u);
}

static void test_checker_rejects(void) { /* the checker itself can fail */
    CU_ASSERT_FALSE(json_check("{\"a\":1,}"));
    CU_ASSERT_FALSE(json_check("{\"a\":\"\x1b\"}"));
    CU_ASSERT_FALSE(json_check("[NaN]"));
    CU_ASSERT_FALSE(json_check("{\"a\":1} x"));
    CU_ASSERT_TRUE(json_check(" [1.5e-3, -0, true, null] "));
}

void register_tests(void) {
    static const CU_TestInfo tests[] = {
        {"members, commas, nesting, numbers", test_members_and_nesting},
        {"hostile strings escaped", test_hostile_strings},
        {"nesting bounded", test_depth_bounded},
        {"the strict checker rejects what is not JSON", test_checker_rejects},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("json", tests);
}
