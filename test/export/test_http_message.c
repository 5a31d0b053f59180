/* test_http_message.c: the endpoint's request parser, its limits, query parameters, the
 * bearer-token check, token files and the response head. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/http_message.h"
#include "unit.h"

static hs_http_request req;

static int parse(const char *text) { return hs_http_parse_request(text, strlen(text), &req); }

static void test_request_line(void) {
    CU_ASSERT_EQUAL(parse("GET /debug/pprof/heap?seconds=5 HTTP/1.1\r\nHost: x\r\n\r\n"), 0);
    CU_ASSERT_EQUAL(req.method, HS_HTTP_GET);
    CU_ASSERT_STRING_EQUAL(req.path, "/debug/pprof/heap");
    CU_ASSERT_STRING_EQUAL(req.query, "seconds=5");
    CU_ASSERT_FALSE(req.has_authorization);
    CU_ASSERT_EQUAL(req.head_len,
                    strlen("GET /debug/pprof/heap?seconds=5 HTTP/1.1\r\nHost: x\r\n\r\n"));
    CU_ASSERT_EQUAL(parse("HEAD / HTTP/1.0\n\n"), 0); /* bare LF lines */
    CU_ASSERT_EQUAL(req.method, HS_HTTP_HEAD);
    CU_ASSERT_STRING_EQUAL(req.query, "");
    CU_ASSERT_EQUAL(parse("DELETE /x HTTP/1.1\r\n\r\n"), 0);
    CU_ASSERT_EQUAL(req.method, HS_HTTP_OTHER);
    CU_ASSERT_STRING_EQUAL(req.method_name, "DELETE");
    CU_ASSERT_EQUAL(parse("get / HTTP/1.1\r\n\r\n"), 0); /* methods are case-sensitive */
    CU_ASSERT_EQUAL(req.method, HS_HTTP_OTHER);
}

static void test_malformed(void) {
    CU_ASSERT_EQUAL(parse("GET\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET /\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse(" GET / HTTP/1.1\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("G(T / HTTP/1.1\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET http://h/x HTTP/1.1\r\n\r\n"), 400); /* origin-form only */
    CU_ASSERT_EQUAL(parse("GET /a\x01 HTTP/1.1\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / FTP/1.1\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / HTTP/2.0\r\n\r\n"), 505);
    CU_ASSERT_EQUAL(parse("PRI * HTTP/2.0\r\n\r\n"), 505);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nNo colon\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\n: empty name\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n"), 400);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nAuthorization: a\r\nauthorization: b\r\n\r\n"), 400);
}

static void test_incomplete(void) {
    CU_ASSERT_EQUAL(parse(""), HS_HTTP_INCOMPLETE);
    CU_ASSERT_EQUAL(parse("GET / HT"), HS_HTTP_INCOMPLETE);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: x\r\n"), HS_HTTP_INCOMPLETE);
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: x\r\n\r"), HS_HTTP_INCOMPLETE);
}

/* A head of exactly n bytes: the request line, one long header, the blank line. */
static char *head_of(size_t n) {
    char *buf = malloc(n + 1);
    if (!buf) abort();
    size_t used = (size_t)sprintf(buf, "GET / HTTP/1.1\r\nX: ");
    size_t filler = n - used - 4;
    memset(buf + used, 'a', filler);
    strcpy(buf + used + filler, "\r\n\r\n");
    return buf;
}

static void test_limits(void) {
    /* the target: at the limit, one past it */
    static char line[HS_HTTP_HEAD_MAX + 2];
    memset(line, 0, sizeof line);
    memcpy(line, "GET /", 5);
    memset(line + 5, 'a', HS_HTTP_TARGET_MAX - 1);
    strcat(line, " HTTP/1.1\r\n\r\n");
    CU_ASSERT_EQUAL(parse(line), 0);
    CU_ASSERT_EQUAL(strlen(req.path), HS_HTTP_TARGET_MAX);
    memcpy(line, "GET //", 6);
    memset(line + 5, 'a', HS_HTTP_TARGET_MAX);
    strcpy(line + 5 + HS_HTTP_TARGET_MAX, " HTTP/1.1\r\n\r\n");
    CU_ASSERT_EQUAL(parse(line), 414);
    /* a request line without its end that is already too long for any target */
    line[HS_HTTP_TARGET_MAX + 60] = '\0';
    memset(line + 5, 'a', HS_HTTP_TARGET_MAX + 55);
    CU_ASSERT_EQUAL(hs_http_parse_request(line, HS_HTTP_TARGET_MAX + 60, &req), HS_HTTP_INCOMPLETE);
    memcpy(line, "GET /", 5);
    memset(line + 5, 'a', HS_HTTP_HEAD_MAX - 4);
    CU_ASSERT_EQUAL(hs_http_parse_request(line, HS_HTTP_HEAD_MAX + 1, &req), 414);

    /* too many headers */
    char many[HS_HTTP_HEAD_MAX];
    size_t used = (size_t)sprintf(many, "GET / HTTP/1.1\r\n");
    for (int i = 0; i < HS_HTTP_HEADERS_MAX; i++)
        used += (size_t)sprintf(many + used, "H%d: v\r\n", i);
    strcpy(many + used, "\r\n");
    CU_ASSERT_EQUAL(parse(many), 0);
    strcpy(many + used, "Last: v\r\n\r\n");
    CU_ASSERT_EQUAL(parse(many), 431);

    /* the whole head: exactly at the limit is fine, a byte more is not */
    char *head = head_of(HS_HTTP_HEAD_MAX);
    CU_ASSERT_EQUAL(strlen(head), HS_HTTP_HEAD_MAX);
    CU_ASSERT_EQUAL(parse(head), 0);
    free(head);
    head = head_of(HS_HTTP_HEAD_MAX + 1);
    CU_ASSERT_EQUAL(parse(head), 431);
    free(head);
    /* no blank line within the limit: refused rather than waited for */
    head = head_of(HS_HTTP_HEAD_MAX + 1);
    head[HS_HTTP_HEAD_MAX - 1] = 'Z'; /* breaks the final CRLF */
    head[HS_HTTP_HEAD_MAX] = 'Z';
    CU_ASSERT_EQUAL(hs_http_parse_request(head, HS_HTTP_HEAD_MAX + 1, &req), 431);
    free(head);

    /* Authorization too long */
    char auth[HS_HTTP_AUTH_MAX + 64];
    used = (size_t)sprintf(auth, "GET / HTTP/1.1\r\nAuthorization: ");
    memset(auth + used, 't', HS_HTTP_AUTH_MAX + 1);
    strcpy(auth + used + HS_HTTP_AUTH_MAX + 1, "\r\n\r\n");
    CU_ASSERT_EQUAL(parse(auth), 431);
    strcpy(auth + used + HS_HTTP_AUTH_MAX, "\r\n\r\n");
    CU_ASSERT_EQUAL(parse(auth), 0);
    CU_ASSERT_EQUAL(strlen(req.authorization), HS_HTTP_AUTH_MAX);
}

static void test_authorization_header(void) {
    CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nauthorization:   Bearer abc  \r\n\r\n"), 0);
    CU_ASSERT_TRUE(req.has_authorization);
    CU_ASSERT_STRING_EQUAL(req.authorization, "Bearer abc");
}

static void test_query(void) {
    char v[16];
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=30", "seconds", v, sizeof v), 1);
    CU_ASSERT_STRING_EQUAL(v, "30");
    CU_ASSERT_EQUAL(hs_http_query_param("debug=1&seconds=%33%30", "seconds", v, sizeof v), 1);
    CU_ASSERT_STRING_EQUAL(v, "30");
    CU_ASSERT_EQUAL(hs_http_query_param("a=x+y&b", "a", v, sizeof v), 1);
    CU_ASSERT_STRING_EQUAL(v, "x y");
    CU_ASSERT_EQUAL(hs_http_query_param("a=x&b", "b", v, sizeof v), 1);
    CU_ASSERT_STRING_EQUAL(v, "");
    CU_ASSERT_EQUAL(hs_http_query_param("secondsx=1&xseconds=2", "seconds", v, sizeof v), 0);
    CU_ASSERT_EQUAL(hs_http_query_param("", "seconds", v, sizeof v), 0);
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=%3", "seconds", v, sizeof v), -1);
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=%zz", "seconds", v, sizeof v), -1);
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=%00", "seconds", v, sizeof v), -1);
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=1234567890123456", "seconds", v, sizeof v), -1);
    CU_ASSERT_EQUAL(hs_http_query_param("seconds=123456789012345", "seconds", v, sizeof v), 1);
}

static void test_bearer(void) {
    const char *token = "s3cret-Token";
    size_t n = strlen(token);
    CU_ASSERT_TRUE(hs_http_bearer_matches("Bearer s3cret-Token", token, n));
    CU_ASSERT_TRUE(hs_http_bearer_matches("bearer  s3cret-Token", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Bearer s3cret-Toke", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Bearer s3cret-Token2", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Bearer s3cret-Tokem", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Bearer ", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Basic s3cret-Token", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("s3cret-Token", token, n));
    CU_ASSERT_FALSE(hs_http_bearer_matches("Bearer ", "", 0)); /* an empty token never matches */
}

static void test_token_file_text(void) {
    char why[160], text[64];
    strcpy(text, "abc.DEF-123\n");
    CU_ASSERT_EQUAL(hs_http_token_from_text(text, strlen(text), why, sizeof why), 11);
    CU_ASSERT_STRING_EQUAL(text, "abc.DEF-123");
    strcpy(text, "tok\r\n \t");
    CU_ASSERT_EQUAL(hs_http_token_from_text(text, strlen(text), why, sizeof why), 3);
    strcpy(text, "\n\n");
    CU_ASSERT_EQUAL(hs_http_token_from_text(text, strlen(text), why, sizeof why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "empty"));
    strcpy(text, "two words");
    CU_ASSERT_EQUAL(hs_http_token_from_text(text, strlen(text), why, sizeof why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "byte 4"));
    CU_ASSERT_PTR_NULL(strstr(why, "words")); /* never quoted */
    char big[HS_HTTP_AUTH_MAX + 1];
    memset(big, 'x', HS_HTTP_AUTH_MAX - 6);
    CU_ASSERT_EQUAL(hs_http_token_from_text(big, HS_HTTP_AUTH_MAX - 6, why, sizeof why), 0);
    CU_ASSERT_EQUAL(hs_http_token_from_text(big, HS_HTTP_AUTH_MAX - 7, why, sizeof why),
                    HS_HTTP_AUTH_MAX - 7);
}

static void test_response_head(void) {
    char buf[512];
    size_t n = hs_http_format_head(404, "text/plain; charset=utf-8", 19, "X-Go-Pprof: 1\r\n", buf,
                                   sizeof buf);
    CU_ASSERT_EQUAL(n, strlen(buf));
    CU_ASSERT_STRING_EQUAL(buf, "HTTP/1.1 404 Not Found\r\n"
                                "Content-Type: text/plain; charset=utf-8\r\n"
                                "Content-Length: 19\r\nConnection: close\r\n"
                                "X-Content-Type-Options: nosniff\r\nX-Go-Pprof: 1\r\n\r\n");
    CU_ASSERT_STRING_EQUAL(hs_http_reason(405), "Method Not Allowed");
    CU_ASSERT_STRING_EQUAL(hs_http_reason(431), "Request Header Fields Too Large");
    char small[8];
    CU_ASSERT_TRUE(hs_http_format_head(200, "a/b", 0, NULL, small, sizeof small) > sizeof small);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"request line", test_request_line},
        {"malformed requests", test_malformed},
        {"incomplete heads", test_incomplete},
        {"size limits", test_limits},
        {"Authorization header", test_authorization_header},
        {"query parameters", test_query},
        {"bearer token compare", test_bearer},
        {"token file text", test_token_file_text},
        {"response head", test_response_head},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("http_message", tests);
}
