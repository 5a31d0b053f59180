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
 *   token-file reader stay within their inputs (ASan) and agree with a plain comparison
 *   of the exact bytes;
 * - no header value kept (Authorization, Host) holds a control character, their lengths
 *   are those of the strings; the Host check stays within the value and accepts only what
 *   a plain reading of "localhost" / 127.x.y.z / [::1] with an optional port accepts;
 * - the Host check and the symbol lookup of /debug/pprof/symbol, fed the raw input, stay
 *   within it. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export/http_message.h"
#include "output/legacy_heap.h"

#define CHECK(cond) \
    do {            \
        if (!(cond)) abort(); \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A kept header value: no control character but tab, exactly as long as the string. */
static void check_value(const char *s, size_t len, size_t max) {
    CHECK(len <= max && strlen(s) == len);
    for (size_t i = 0; i < len; i++)
        CHECK(((unsigned char)s[i] >= 0x20 || s[i] == '\t') && s[i] != 0x7f);
}

/* What hs_http_host_is_local should say, read plainly: name or [v6], then :digits. */
static bool plain_local(const char *host) {
    char name[HS_HTTP_HOST_MAX + 1];
    const char *rest;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close) return false;
        memcpy(name, host + 1, (size_t)(close - host - 1));
        name[close - host - 1] = '\0';
        rest = close + 1;
    } else {
        size_t n = strcspn(host, ":");
        memcpy(name, host, n);
        name[n] = '\0';
        if (n > 0 && name[n - 1] == '.') name[n - 1] = '\0';
        rest = host + n;
    }
    if (*rest == ':') rest += 1 + strspn(rest + 1, "0123456789");
    if (*rest) return false;
    unsigned char a[16];
    if (strcasecmp(name, "localhost") == 0) return true;
    if (inet_pton(AF_INET, name, a) == 1) return a[0] == 127;
    if (inet_pton(AF_INET6, name, a) != 1) return false;
    static const unsigned char one[16] = {[15] = 1}, mapped[12] = {[10] = 0xff, [11] = 0xff};
    return memcmp(a, one, 16) == 0 || (memcmp(a, mapped, 12) == 0 && a[12] == 127);
}

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
    if (req->has_authorization)
        check_value(req->authorization, req->authorization_len, HS_HTTP_AUTH_MAX);
    if (req->has_host) {
        check_value(req->host, strlen(req->host), HS_HTTP_HOST_MAX);
        CHECK(hs_http_host_is_local(req->host, NULL) == plain_local(req->host));
    }
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
        const char *given = req->authorization + 7 + strspn(req->authorization + 7, " ");
        bool plain = req->authorization_len >= 7 &&
                     strncasecmp(req->authorization, "Bearer ", 7) == 0 &&
                     req->authorization_len - (size_t)(given - req->authorization) == sizeof token - 1 &&
                     memcmp(given, token, sizeof token - 1) == 0;
        CHECK(hs_http_bearer_matches(req->authorization, req->authorization_len, token,
                                     sizeof token - 1) == plain);
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

    /* the raw bytes as a Host value and as a symbol query (ASan: within bounds) */
    char *host = malloc(size + 1);
    if (!host) abort();
    memcpy(host, data, size);
    host[size] = '\0';
    (void)hs_http_host_is_local(host, "::1");
    free(host);
    static const char legacy[] = "#\t0x1010\ta.B.c+0x0\tB.java:1\n#\t0x20\tx+0x0\t?:0\n";
    static hs_legacy_symbols *symbols;
    if (!symbols) symbols = hs_legacy_symbols_of(legacy, sizeof legacy - 1);
    hs_text answer = {0};
    hs_legacy_symbols_answer(symbols, buf, size, &answer);
    CHECK(answer.failed || answer.len <= strlen("num_symbols: 1\n0x1010 a.B.c\n0x20 x\n"));
    hs_text_free(&answer);

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
