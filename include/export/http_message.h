/* http_message.h: HTTP/1.1 messages as the agent's endpoint sees them: the request head
 * parser (request line, headers, limits), query parameters, the bearer-token check, and
 * the response head.
 *
 * Pure C, no sockets and no JVM: the server (http_server.c) hands it the bytes received so
 * far; everything here is bounded by the limits below and unit-tested. A request is only
 * its head: the endpoint serves GET and HEAD, reads no body, and closes the connection
 * after each response. */
#ifndef HS_HTTP_MESSAGE_H
#define HS_HTTP_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HS_HTTP_HEAD_MAX 8192    /* request line and headers together, bytes */
#define HS_HTTP_TARGET_MAX 2048  /* the request target (path and query), bytes */
#define HS_HTTP_HEADERS_MAX 64   /* header lines */
#define HS_HTTP_AUTH_MAX 1024    /* the Authorization header's value, bytes */

typedef enum { HS_HTTP_GET = 0, HS_HTTP_HEAD, HS_HTTP_OTHER } hs_http_method;

typedef struct {
    hs_http_method method;
    char method_name[16];                  /* as sent (truncated), for the logs */
    char path[HS_HTTP_TARGET_MAX + 1];     /* up to '?', not decoded */
    char query[HS_HTTP_TARGET_MAX + 1];    /* after '?', "" when none */
    bool has_authorization;
    char authorization[HS_HTTP_AUTH_MAX + 1];
    size_t head_len;                       /* bytes of the head, with its blank line */
} hs_http_request;

/* hs_http_parse_request's answer when the head is not complete yet. */
#define HS_HTTP_INCOMPLETE 1

/* Parses the request head in buf[0..len). Returns 0 when it is complete and valid (req
 * filled), HS_HTTP_INCOMPLETE when more bytes are needed and the limits still allow them,
 * or the status to refuse it with: 400 (malformed), 414 (target too long), 431 (head or
 * a header too large, too many headers), 505 (not HTTP/1.x). Lines may end in CRLF or LF. */
int hs_http_parse_request(const char *buf, size_t len, hs_http_request *req);

/* Finds name=value in a query string ("a=1&b=2"), percent-decoded ('+' is a space) into out.
 * Returns 1 when found, 0 when absent, -1 when its value is malformed or does not fit. */
int hs_http_query_param(const char *query, const char *name, char *out, size_t outlen);

/* Whether an Authorization header value is "Bearer <token>" (scheme in any case). The time
 * taken depends on token_len only, never on where the values differ. */
bool hs_http_bearer_matches(const char *authorization, const char *token, size_t token_len);

/* The token in a token file's text (len bytes, modified in place): trailing whitespace
 * (the file's newline) removed, then it must be 1..HS_HTTP_AUTH_MAX - 7 visible ASCII
 * characters; text needs room for a NUL after len bytes, where the token is ended. Returns
 * its length, or 0 with why written (never quoting the token). */
size_t hs_http_token_from_text(char *text, size_t len, char *why, size_t whylen);

/* "OK", "Not Found", ... for the statuses the endpoint sends ("Error" for others). */
const char *hs_http_reason(int status);

/* The response head: status line, Content-Type, Content-Length, Connection: close,
 * X-Content-Type-Options: nosniff, then extra (zero or more "Name: value\r\n" lines, may
 * be NULL) and the blank line. Returns the length needed (like snprintf). */
size_t hs_http_format_head(int status, const char *content_type, size_t content_length,
                           const char *extra, char *buf, size_t len);

/* A Retry-After header value: delta-seconds, or an HTTP date (IMF-fixdate) compared with
 * now_unix. Milliseconds to wait (0 for a date in the past), or -1 when not understood. */
int64_t hs_http_retry_after_ms(const char *value, int64_t now_unix);

#endif
