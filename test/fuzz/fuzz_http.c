/* fuzz_http.c: libFuzzer harness for the HTTP endpoint's request parser
 * (src/export/http_message.c), the part of the agent a network peer writes to.
 *
 * Input: the bytes a client sent. Checked on every input:
 * - the parser answers 0, HS_HTTP_INCOMPLETE or one of 400, 414, 431, 505, and never asks
 *   for more bytes than the head limit allows;
 * - a complete head lies within the input and the limit; its path starts with '/', path
 *   and query fit their limits and hold no control character or space;
 * - every prefix of a complete head is incomplete or refused, never complete;
 * - query parameters decode within their buffer, NUL-terminated; the token check and the
 *   token-file reader stay within their inputs (ASan) and agree with a plain comparison. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/http_message.h"

#define CHECK(cond) \
    do {            \
        if (!(cond)) abort(); \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s, size_t max) {
    size_t n = strlen(s);
    CHECK(n <= max);
    for (size_t i = 0; i < n; i++) CHECK((unsigned char)s[i] > 0x20 && s[i] != 0x7f);
}

static void check_complete(const char *buf, size_t size, const hs_http_request *req) {
    CHECK(req->head_len > 0 && req->head_len <= size && req->head_len <= HS_HTTP_HEAD_MAX);
    CHECK(req->path[0] == '/');
    check_text(req->path, HS_HTTP_TARGET_MAX);
    check_text(req->query, HS_HTTP_TARGET_MAX);
    CHECK(strlen(req->path) + strlen(req->query) <= HS_HTTP_TARGET_MAX);
    CHECK(strlen(req->authorization) <= HS_HTTP_AUTH_MAX);
    static hs_http_request shorter;
    for (size_t cut = 0; cut < req->head_len; cut += 1 + cut / 8)
        CHECK(hs_http_parse_request(buf, cut, &shorter) != 0);
    char value[16];
    for (int i = 0; i < 2; i++) {
        memset(value, 'X', sizeof value);
        int found = hs_http_query_param(req->query, i ? "debug" : "seconds", value, sizeof value);
        CHECK(found >= -1 && found <= 1);
        if (found == 1) CHECK(memchr(value, '\0', sizeof value) != NULL);
    }
    if (req->has_authorization) {
        static const char token[] = "fuzz-token";
        bool plain = strncasecmp(req->authorization, "Bearer ", 7) == 0 &&
                     strcmp(req->authorization + 7 + strspn(req->authorization + 7, " "), token) == 0;
        CHECK(hs_http_bearer_matches(req->authorization, token, sizeof token - 1) == plain);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size ? size : 1);
    if (!buf) abort();
    memcpy(buf, data, size);
    static hs_http_request req;
    int status = hs_http_parse_request(buf, size, &req);
    CHECK(status == 0 || status == HS_HTTP_INCOMPLETE || status == 400 || status == 414 ||
          status == 431 || status == 505);
    if (status == HS_HTTP_INCOMPLETE) CHECK(size <= HS_HTTP_HEAD_MAX);
    if (status == 0) check_complete(buf, size, &req);

    char *text = malloc(size + 1), why[160];
    if (!text) abort();
    memcpy(text, data, size);
    size_t len = hs_http_token_from_text(text, size, why, sizeof why);
    if (len > 0) check_text(text, HS_HTTP_AUTH_MAX);
    else CHECK(memchr(why, '\0', sizeof why) != NULL);
    free(text);
    free(buf);
    return 0;
}
