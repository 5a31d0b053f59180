/* test_html.c: the HTML flame graph encoder (src/output/html.c): the page's structure, a strict
 * JSON check of the embedded profile, escaping of hostile names, the tree's values as
 * written, and an empty profile. The page's script is tested in a real browser by
 * jtreg/flamegraph/HtmlFlameGraphTest.java. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "profile/profile.h"
#include "profile_fixture.h"
#include "unit.h"

#define DATA_OPEN "<script type=\"application/json\" id=\"hs-profile\">"

/* ---- A strict JSON checker (RFC 8259), enough to prove the embedded text parses ---- */

static const char *json_value(const char *s, int depth);

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    return s;
}

static const char *json_string(const char *s) {
    if (*s++ != '"') return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*s++;
        if (c == '"') return s;
        if (c < 0x20) return NULL; /* raw control characters are not allowed */
        if (c != '\\') continue;
        c = (unsigned char)*s++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++, s++)
                if (!strchr("0123456789abcdefABCDEF", *s) || !*s) return NULL;
        } else if (!c || !strchr("\"\\/bfnrt", c)) {
            return NULL;
        }
    }
}

static const char *json_number(const char *s) {
    if (*s == '-') s++;
    if (*s == '0') s++;
    else if (*s >= '1' && *s <= '9') while (*s >= '0' && *s <= '9') s++;
    else return NULL;
    return s; /* the encoder writes integers only */
}

static const char *json_list(const char *s, char close, int object, int depth) {
    s = skip_ws(s + 1);
    if (*s == close) return s + 1;
    for (;;) {
        if (object) {
            s = json_string(skip_ws(s));
            if (!s || *(s = skip_ws(s)) != ':') return NULL;
            s++;
        }
        s = json_value(s, depth + 1);
        if (!s) return NULL;
        s = skip_ws(s);
        if (*s == close) return s + 1;
        if (*s++ != ',') return NULL;
    }
}

static const char *json_value(const char *s, int depth) {
    if (depth > 64) return NULL;
    s = skip_ws(s);
    if (*s == '{') return json_list(s, '}', 1, depth);
    if (*s == '[') return json_list(s, ']', 0, depth);
    if (*s == '"') return json_string(s);
    return json_number(s);
}

/* ---- Helpers ---------------------------------------------------------------------------- */

/* The page for p, or NULL (test failed). */
static char *encode(const hs_profile *p, size_t *len) {
    char *html = NULL;
    CU_ASSERT_EQUAL(hs_html_encode(p, &html, len), 0);
    if (html) CU_ASSERT_EQUAL(*len, strlen(html));
    return html;
}

/* The embedded JSON, copied out of the page; checks it is there exactly once and valid. */
static char *embedded_json(const char *html) {
    const char *open = strstr(html, DATA_OPEN);
    CU_ASSERT_PTR_NOT_NULL(open);
    if (!open) return NULL;
    CU_ASSERT_PTR_NULL(strstr(open + 1, DATA_OPEN));
    const char *body = open + strlen(DATA_OPEN);
    const char *end = strstr(body, "</script>");
    CU_ASSERT_PTR_NOT_NULL(end);
    if (!end) return NULL;
    char *json = strndup(body, (size_t)(end - body));
    if (!json) return NULL;
    CU_ASSERT_PTR_NULL(strchr(json, '<')); /* nothing in it could end the element */
    const char *after = json_value(json, 0);
    CU_ASSERT(after != NULL && *skip_ws(after) == '\0');
    return json;
}

/* The JSON embedded in p's page (checked as embedded_json does), or NULL. */
static char *page_json(const hs_profile *p) {
    size_t len = 0;
    char *html = encode(p, &len);
    char *json = html ? embedded_json(html) : NULL;
    free(html);
    return json;
}

static void assert_contains(const char *text, const char *part) {
    if (!strstr(text, part)) {
        fprintf(stderr, "\n  missing: %s\n", part);
        CU_FAIL("expected text missing");
    }
}

/* ---- Tests -------------------------------------------------------------------------- */

static void test_page_structure(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 4);
    hs_profile_set_default_sample_type(p, "inuse_space");
    uint32_t main3 = add_frame(p, "Main.main", 3);
    uint32_t bytes = add_frame(p, "byte[]", 0);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, main3}, 2, (const int64_t[]){1, 16, 1, 16}, 16);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    size_t len = 0;
    char *html = encode(p, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_EQUAL(strncmp(html, "<!DOCTYPE html>", 15), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<meta charset=\"utf-8\">"));
    CU_ASSERT(len > 8 && strcmp(html + len - 8, "</html>\n") == 0);
    CU_ASSERT_PTR_NULL(strstr(html, "@PROFILE_JSON@"));
    /* self-contained: nothing is fetched */
    CU_ASSERT_PTR_NULL(strstr(html, "http://"));
    CU_ASSERT_PTR_NULL(strstr(html, "https://"));
    CU_ASSERT_PTR_NULL(strstr(html, " src="));
    CU_ASSERT_PTR_NULL(strstr(html, "<link"));
    CU_ASSERT_PTR_NULL(strstr(html, "@import"));
    CU_ASSERT_PTR_NULL(strstr(html, "url("));
    char *json = embedded_json(html);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    assert_contains(json, "\"initial\":\"inuse_space\"");
    assert_contains(json, "\"metrics\":[{\"name\":\"alloc_objects\",\"unit\":\"count\"},"
                          "{\"name\":\"alloc_space\",\"unit\":\"bytes\"},"
                          "{\"name\":\"inuse_objects\",\"unit\":\"count\"},"
                          "{\"name\":\"inuse_space\",\"unit\":\"bytes\"}]");
    assert_contains(json, "\"names\":[\"Main.main\",\"byte[]\"]");
    assert_contains(json, "\"kinds\":[0,1]"); /* a class leaf is drawn as one */
    free(json);
    free(html);
    hs_profile_free(p);
}

/* Every byte that could break out of the string, the script element or UTF-8. */
static void test_json_escaping(void) {
    static const char hostile[] =
        "</script><script>alert(\"x\")</script><!-- & \\ \n\t\x01\x1f"
        "\xe2\x80\xa8\xe2\x80\xa9"      /* U+2028, U+2029 */
        "\xc3\xa9\xf0\x9f\x98\x80"      /* é and an emoji stay as they are */
        "\xff\xc0\x80\xed\xa0\xbd!";    /* not UTF-8: a stray byte, overlong NUL, a surrogate */
    static const char expected[] =
        "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(\\\"x\\\")\\u003c/script\\u003e"
        "\\u003c!-- \\u0026 \\\\ \\n\\t\\u0001\\u001f\\u2028\\u2029"
        "\xc3\xa9\xf0\x9f\x98\x80"
        "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd!\"";
    _Static_assert(sizeof hostile <= 128, "out holds 6 * 128 + 2 bytes");
    char out[6 * 128 + 2]; /* room for the longest input below (hostile, worst) */
    size_t n = hs_json_string(out, hostile);
    out[n] = '\0';
    CU_ASSERT_STRING_EQUAL(out, expected);
    CU_ASSERT_EQUAL(hs_json_string(out, ""), 2);
    char worst[100]; /* every byte escaped to 6: the documented bound is reached */
    memset(worst, 0xff, sizeof worst - 1);
    worst[sizeof worst - 1] = '\0';
    CU_ASSERT_EQUAL(hs_json_string(out, worst), 6 * (sizeof worst - 1) + 2);
    char cut[] = "ab\xe2\x80"; /* a sequence cut short by the end of the string */
    n = hs_json_string(out, cut);
    out[n] = '\0';
    CU_ASSERT_STRING_EQUAL(out, "\"ab\\ufffd\\ufffd\"");

    /* the same name inside a page: one script element, valid JSON, name escaped */
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    uint32_t odd = hs_profile_add_location(p, hs_profile_add_function(p, hostile, "", hostile, 7), 7);
    hs_profile_add_sample(p, &odd, 1, (const int64_t[]){1, 8}, 8);
    hs_profile_add_comment(p, "%s", hostile);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    size_t len = 0;
    char *html = encode(p, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    char *json = embedded_json(html);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    /* The profile keeps its strings as standard UTF-8 (utf8.h: the invalid bytes are already
     * U+FFFD there); the page embeds them escaped as above. */
    char stored[6 * 128 + 2], names[sizeof stored + 16];
    n = hs_json_string(stored, p->functions[0].name);
    stored[n] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(stored, "\\u003c/script\\u003e"));
    snprintf(names, sizeof names, "\"names\":[%s]", stored);
    assert_contains(json, names);
    snprintf(names, sizeof names, "\"files\":[%s]", stored);
    assert_contains(json, names);
    snprintf(names, sizeof names, "\"comments\":[%s]", stored);
    assert_contains(json, names);
    /* the only "</script>" after the data is the end of the data element itself */
    const char *data = strstr(html, DATA_OPEN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    CU_ASSERT_PTR_NULL(strstr(data, "<script>alert"));
    free(json);
    free(html);
    hs_profile_free(p);
}

/* The tree as written: locations as (function, line); nodes as [distance to parent,
 * location or nlocations + function]; own values as [distance to the previous node with
 * values, one value per sample type]. */
static void test_tree_values(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    uint32_t main_fn = hs_profile_add_function(p, "Main.main", "", "Main.java", 0);
    uint32_t alloc_fn = hs_profile_add_function(p, "App.alloc", "", "App.java", 0);
    uint32_t bytes = add_frame(p, "byte[]", 0);          /* function 2 */
    uint32_t truncated = add_frame(p, "[truncated]", 0); /* function 3 */
    uint32_t main3 = hs_profile_add_location(p, main_fn, 3);
    uint32_t main4 = hs_profile_add_location(p, main_fn, 4);
    uint32_t alloc9 = hs_profile_add_location(p, alloc_fn, 9);
    /* locations: 0 byte[], 1 [truncated], 2 Main.main:3, 3 Main.main:4, 4 App.alloc:9;
     * nodes: 1 Main.main (lines 3 and 4: location 5 + function 0), 2 App.alloc:9, 3 byte[]
     * under it, 4 byte[] under Main.main, 5 [truncated], 6 byte[] under it */
    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc9, main3}, 3, (const int64_t[]){3, 48}, 16);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, main4}, 2, (const int64_t[]){1, 16}, 16);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, alloc9, main3}, 3, (const int64_t[]){2, 32}, 16);
    hs_profile_add_sample(p, (const uint32_t[]){bytes, truncated}, 2, (const int64_t[]){5, 80}, 16);
    hs_profile_add_sample(p, NULL, 0, (const int64_t[]){1, 7}, 0);
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char *json = page_json(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    assert_contains(json, "\"locations\":[2,0,3,0,0,3,0,4,1,9]");
    assert_contains(json, "\"root\":[1,7],"
                          "\"nodes\":[1,5,1,4,1,0,3,0,5,1,1,0],"
                          "\"values\":[3,5,80,1,1,16,2,5,80],\"ages\":[]}");
    assert_contains(json, "\"kinds\":[0,0,1,2]");
    assert_contains(json, "\"files\":[\"Main.java\",\"App.java\",\"\",\"\"]");
    assert_contains(json, "\"samples\":5");
    free(json);
    hs_profile_free(p);
}

/* Mean ages as written: [distance to the previous aged node (the root first), whole
 * seconds], weighted by in-use bytes, only for nodes holding in-use bytes with an age.
 * Nodes: 1 Main.main, 2 App.alloc, 3 byte[], 4 String (in use, no age), 5 char[]. */
static void test_mean_ages(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 4);
    uint32_t main = add_frame(p, "Main.main", 3), alloc = add_frame(p, "App.alloc", 9);
    uint32_t bytes = add_frame(p, "byte[]", 0), string = add_frame(p, "String", 0);
    uint32_t chars = add_frame(p, "char[]", 0);
    hs_profile_add_aged_sample(p, (const uint32_t[]){bytes, alloc, main}, 3,
                               (const int64_t[]){1, 100, 1, 100}, 100, &(hs_sample_ages){1, 10});
    hs_profile_add_aged_sample(p, (const uint32_t[]){bytes, alloc, main}, 3,
                               (const int64_t[]){3, 300, 3, 300}, 100, &(hs_sample_ages){2, 30});
    hs_profile_add_sample(p, (const uint32_t[]){string, main}, 2, (const int64_t[]){2, 50, 2, 50}, 25);
    hs_profile_add_aged_sample(p, (const uint32_t[]){chars, main}, 2,
                               (const int64_t[]){1, 100, 1, 100}, 100, &(hs_sample_ages){0, 3});
    p = fixture_or_null(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char *json = page_json(p); /* strictly valid, as page_json checks */
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    /* root and Main.main: (100 x 10 + 300 x 30 + 100 x 3) / 500 = 20.6, written as 21;
     * App.alloc and byte[]: (100 x 10 + 300 x 30) / 400 = 25; String: none; char[]: 3 */
    assert_contains(json, "\"nodes\":[1,0,1,1,1,2,3,3,4,4],");
    assert_contains(json, "\"ages\":[0,21,1,21,1,25,1,25,2,3]}");
    free(json);
    hs_profile_free(p);
}

static void test_empty_profile(void) {
    hs_profile *p = hs_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    add_heap_sample_types(p, 2);
    size_t len = 0;
    char *html = encode(p, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    char *json = embedded_json(html);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    assert_contains(json, "\"initial\":\"\""); /* no default: the page picks the first */
    assert_contains(json, "\"names\":[],\"files\":[],\"kinds\":[],\"locations\":[],\"root\":[0,0],"
                          "\"nodes\":[],\"values\":[],\"ages\":[]}");
    free(json);
    free(html);

    p->failed = 1; /* an incomplete profile is not written */
    char *none = (char *)"untouched";
    errno = 0;
    CU_ASSERT_EQUAL(hs_html_encode(p, &none, &len), -1);
    CU_ASSERT_PTR_NULL(none);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(errno, ENOMEM);
    hs_profile_free(p);
}

static CU_TestInfo html_tests[] = {
    {"page structure, self-contained", test_page_structure},
    {"JSON escaping of hostile names", test_json_escaping},
    {"tree values as written", test_tree_values},
    {"mean ages as written", test_mean_ages},
    {"empty profile", test_empty_profile},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("html", html_tests); }
