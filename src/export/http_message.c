/* http_message.c: the request head parser, query parameters, the bearer-token check and
 * the response head (see http_message.h). */
#include "export/http_message.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <strings.h>

/* One line of the head: [start, end) without its CR LF / LF. */
typedef struct {
    const char *start, *end;
} span;

/* The next line at *pos in buf[0..len), or false when no LF follows yet. */
static bool next_line(const char *buf, size_t len, size_t *pos, span *line) {
    const char *from = buf + *pos;
    const char *lf = memchr(from, '\n', len - *pos);
    if (!lf) return false;
    line->start = from;
    line->end = lf > from && lf[-1] == '\r' ? lf - 1 : lf;
    *pos = (size_t)(lf - buf) + 1;
    return true;
}

static bool is_token_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static hs_http_method method_of(const char *name, size_t len) {
    if (len == 3 && memcmp(name, "GET", 3) == 0) return HS_HTTP_GET;
    if (len == 4 && memcmp(name, "HEAD", 4) == 0) return HS_HTTP_HEAD;
    return HS_HTTP_OTHER;
}

/* Splits the target at '?' into req->path and req->query. 0, or a status. */
static int parse_target(const char *target, size_t len, hs_http_request *req) {
    if (len > HS_HTTP_TARGET_MAX) return 414;
    if (len == 0 || target[0] != '/') return 400; /* origin-form only */
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)target[i] <= 0x20 || target[i] == 0x7f) return 400;
    const char *q = memchr(target, '?', len);
    size_t path_len = q ? (size_t)(q - target) : len;
    memcpy(req->path, target, path_len);
    req->path[path_len] = '\0';
    size_t query_len = q ? len - path_len - 1 : 0;
    memcpy(req->query, q ? q + 1 : "", query_len);
    req->query[query_len] = '\0';
    return 0;
}

/* "METHOD SP TARGET SP HTTP/1.x". 0, or a status. */
static int parse_request_line(span line, hs_http_request *req) {
    size_t len = (size_t)(line.end - line.start);
    const char *sp1 = memchr(line.start, ' ', len);
    if (!sp1 || sp1 == line.start) return 400;
    for (const char *p = line.start; p < sp1; p++)
        if (!is_token_char(*p)) return 400;
    size_t method_len = (size_t)(sp1 - line.start);
    req->method = method_of(line.start, method_len);
    snprintf(req->method_name, sizeof req->method_name, "%.*s", (int)method_len, line.start);
    const char *target = sp1 + 1;
    const char *sp2 = memchr(target, ' ', (size_t)(line.end - target));
    if (!sp2) return (size_t)(line.end - target) > HS_HTTP_TARGET_MAX ? 414 : 400;
    const char *version = sp2 + 1;
    size_t version_len = (size_t)(line.end - version);
    if (version_len < 5 || memcmp(version, "HTTP/", 5) != 0) return 400;
    if (version_len != 8 || memcmp(version, "HTTP/1.", 7) != 0 || version[7] < '0' ||
        version[7] > '9')
        return 505;
    return parse_target(target, (size_t)(sp2 - target), req);
}

/* "Name: value" (optional whitespace around the value). 0, or a status. */
static int parse_header(span line, hs_http_request *req) {
    if (line.start < line.end && (*line.start == ' ' || *line.start == '\t'))
        return 400; /* obsolete line folding */
    const char *colon = memchr(line.start, ':', (size_t)(line.end - line.start));
    if (!colon || colon == line.start) return 400;
    for (const char *p = line.start; p < colon; p++)
        if (!is_token_char(*p)) return 400;
    const char *value = colon + 1, *end = line.end;
    while (value < end && (*value == ' ' || *value == '\t')) value++;
    while (end > value && (end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t name_len = (size_t)(colon - line.start);
    if (name_len != 13 || strncasecmp(line.start, "Authorization", 13) != 0) return 0;
    if (req->has_authorization) return 400;
    size_t value_len = (size_t)(end - value);
    if (value_len > HS_HTTP_AUTH_MAX) return 431;
    memcpy(req->authorization, value, value_len);
    req->authorization[value_len] = '\0';
    req->has_authorization = true;
    return 0;
}

int hs_http_parse_request(const char *buf, size_t len, hs_http_request *req) {
    memset(req, 0, sizeof *req);
    size_t pos = 0;
    span line;
    if (!next_line(buf, len, &pos, &line)) {
        if (len > HS_HTTP_TARGET_MAX + 64) return 414; /* no end of the request line yet */
        return len > HS_HTTP_HEAD_MAX ? 431 : HS_HTTP_INCOMPLETE;
    }
    int status = parse_request_line(line, req);
    if (status) return status;
    for (unsigned headers = 0;; headers++) {
        if (!next_line(buf, len, &pos, &line))
            return len > HS_HTTP_HEAD_MAX ? 431 : HS_HTTP_INCOMPLETE;
        if (pos > HS_HTTP_HEAD_MAX) return 431;
        if (line.start == line.end) break; /* the blank line */
        if (headers == HS_HTTP_HEADERS_MAX) return 431;
        if ((status = parse_header(line, req)) != 0) return status;
    }
    req->head_len = pos;
    return 0;
}

/* --- query parameters ---------------------------------------------------------------------- */

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decodes [from, to) into out. 0, or -1 (bad escape, NUL, too long). */
static int decode_value(const char *from, const char *to, char *out, size_t outlen) {
    size_t n = 0;
    for (const char *p = from; p < to; p++) {
        int c = (unsigned char)*p;
        if (c == '+') c = ' ';
        else if (c == '%') {
            if (to - p < 3 || hex_value(p[1]) < 0 || hex_value(p[2]) < 0) return -1;
            c = hex_value(p[1]) * 16 + hex_value(p[2]);
            p += 2;
        }
        if (c == 0 || n + 1 >= outlen) return -1;
        out[n++] = (char)c;
    }
    if (outlen == 0) return -1;
    out[n] = '\0';
    return 0;
}

int hs_http_query_param(const char *query, const char *name, char *out, size_t outlen) {
    size_t name_len = strlen(name);
    for (const char *item = query; *item;) {
        size_t item_len = strcspn(item, "&");
        const char *eq = memchr(item, '=', item_len);
        size_t key_len = eq ? (size_t)(eq - item) : item_len;
        if (key_len == name_len && memcmp(item, name, name_len) == 0) {
            const char *value = eq ? eq + 1 : item + item_len;
            return decode_value(value, item + item_len, out, outlen) == 0 ? 1 : -1;
        }
        item += item_len + (item[item_len] == '&');
    }
    return 0;
}

/* --- the bearer token ---------------------------------------------------------------------- */

bool hs_http_bearer_matches(const char *authorization, const char *token, size_t token_len) {
    if (strncasecmp(authorization, "Bearer ", 7) != 0 || token_len == 0) return false;
    const char *given = authorization + 7;
    while (*given == ' ') given++;
    size_t given_len = strlen(given);
    unsigned diff = given_len != token_len;
    for (size_t i = 0; i < token_len; i++) /* as long as the token, whatever was sent */
        diff |= (unsigned char)token[i] ^ (unsigned char)(i < given_len ? given[i] : 0);
    return diff == 0;
}

size_t hs_http_token_from_text(char *text, size_t len, char *why, size_t whylen) {
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ' ||
                       text[len - 1] == '\t'))
        len--;
    if (len == 0) {
        snprintf(why, whylen, "the token file is empty");
        return 0;
    }
    if (len > HS_HTTP_AUTH_MAX - 7) {
        snprintf(why, whylen, "the token is longer than %d bytes", HS_HTTP_AUTH_MAX - 7);
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)text[i] <= 0x20 || (unsigned char)text[i] >= 0x7f) {
            snprintf(why, whylen, "the token holds a character other than visible ASCII (at "
                     "byte %zu)", i + 1);
            return 0;
        }
    }
    text[len] = '\0';
    return len;
}

/* --- the response head --------------------------------------------------------------------- */

const char *hs_http_reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 301: return "Moved Permanently";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

size_t hs_http_format_head(int status, const char *content_type, size_t content_length,
                           const char *extra, char *buf, size_t len) {
    int n = snprintf(buf, len,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\nX-Content-Type-Options: nosniff\r\n%s\r\n",
                     status, hs_http_reason(status), content_type, content_length,
                     extra ? extra : "");
    return n > 0 ? (size_t)n : 0;
}

int64_t hs_http_retry_after_ms(const char *value, int64_t now_unix) {
    while (*value == ' ') value++;
    size_t digits = strspn(value, "0123456789");
    if (digits > 0 && digits <= 9 && value[digits + strspn(value + digits, " \r\n")] == '\0')
        return strtoll(value, NULL, 10) * 1000;
    struct tm tm = {0};
    const char *end = strptime(value, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    if (!end) return -1;
    int64_t at = (int64_t)timegm(&tm);
    return at > now_unix ? (at - now_unix) * 1000 : 0;
}
