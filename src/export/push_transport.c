/* push_transport.c: the push transport over libcurl, loaded with dlopen (see
 * push_transport.h).
 *
 * Our own declarations of the few libcurl entry points and option numbers used (they are
 * part of libcurl's stable ABI, listed in curl/curl.h), so building needs no curl headers
 * and running needs libcurl only when push= is given. */
#include "export/push_transport.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "export/http_message.h"
#include "base/text.h"
#include "base/wall_clock.h"

typedef void CURL;
struct curl_slist;
typedef int CURLcode;

/* Option numbers: type base (long 0, pointer 10000, function 20000, off_t 30000) + n. */
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_POSTFIELDS = 10015,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_XFERINFODATA = 10057, OPT_CAINFO = 10065,
    OPT_PROTOCOLS_STR = 10318, OPT_REDIR_PROTOCOLS_STR = 10319,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_XFERINFOFUNCTION = 20219,
    OPT_POSTFIELDSIZE_LARGE = 30120,
    OPT_NOPROGRESS = 43, OPT_POST = 47, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68,
    OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156, OPT_POSTREDIR = 161,
    OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182, OPT_SUPPRESS_CONNECT_HEADERS = 265,
};
#define INFO_RESPONSE_CODE 0x200002 /* CURLINFO_LONG + 2 */
#define INFO_SIZE_UPLOAD_T 0x600007 /* CURLINFO_OFF_T + 7 (libcurl 7.55) */
#define GLOBAL_DEFAULT 3L           /* CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32 */
#define CURLE_OK 0
#define CURLE_UNSUPPORTED_PROTOCOL 1
#define CURLE_URL_MALFORMAT 3
#define CURLE_OPERATION_TIMEDOUT 28
#define CURLE_ABORTED_BY_CALLBACK 42
#define CURLE_TOO_MANY_REDIRECTS 47
#define CURLE_UNKNOWN_OPTION 48
#define PROTO_HTTP_HTTPS 3L         /* CURLPROTO_HTTP | CURLPROTO_HTTPS */
#define PROTO_HTTPS 2L              /* CURLPROTO_HTTPS */
#define REDIR_POST_ALL 7L           /* CURL_REDIR_POST_301 | 302 | 303 */
#define ERROR_SIZE 256              /* CURL_ERROR_SIZE */
#define MAX_REDIRECTS 5L

typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, int option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, int info, ...);
    void (*easy_cleanup)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} curl_api;

static curl_api C;

static int load(char *why, size_t whylen) {
    const char *name = getenv("HEAPSAMPLER_LIBCURL");
    if (!name || !name[0]) name = "libcurl.so.4";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, whylen, "%s cannot be loaded (install the Debian package libcurl4): %s",
                 name, dlerror());
        return -1;
    }
    struct { void **fn; const char *name; } table[] = {
        {(void **)&C.global_init, "curl_global_init"}, {(void **)&C.easy_init, "curl_easy_init"},
        {(void **)&C.easy_setopt, "curl_easy_setopt"}, {(void **)&C.easy_perform, "curl_easy_perform"},
        {(void **)&C.easy_getinfo, "curl_easy_getinfo"}, {(void **)&C.easy_cleanup, "curl_easy_cleanup"},
        {(void **)&C.easy_strerror, "curl_easy_strerror"},
        {(void **)&C.slist_append, "curl_slist_append"}, {(void **)&C.slist_free_all, "curl_slist_free_all"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!(*table[i].fn = dlsym(lib, table[i].name))) {
            snprintf(why, whylen, "libcurl.so.4 has no %s (libcurl 7.32 or later is needed)",
                     table[i].name);
            return -1;
        }
    return 0;
}

/* --- callbacks ------------------------------------------------------------------------------- */

static int64_t mono_ms(void) { return hs_monotonic_nanos() / 1000000; }

/* What the answer said, as far as the outcome needs it. */
typedef struct {
    const hs_push_request *req;
    int status;          /* of the last status line seen (a redirect's, then the final one's) */
    int64_t ok_ms;       /* when a 2xx status line came: the profile is taken; 0: none */
    bool uploaded;       /* the whole body went out */
    size_t body_total;   /* bytes of the answer's body read */
    char retry_after[64];
    char body[96]; /* the start of the answer's body, for the log line of a refusal */
    size_t body_len;
} answer;

static size_t on_body(char *data, size_t size, size_t n, void *ctx) {
    answer *a = ctx;
    size_t len = size * n, room = sizeof a->body - 1 - a->body_len;
    size_t take = len < room ? len : room;
    memcpy(a->body + a->body_len, data, take);
    a->body_len += take;
    a->body[a->body_len] = '\0';
    a->body_total += len;
    if (a->ok_ms && a->body_total > HS_PUSH_DRAIN_BYTES) return 0; /* enough: drop the rest */
    return len;
}

/* "HTTP/1.1 200 OK": 200; 0 when the line is not a status line. */
static int status_of(const char *line, size_t len) {
    if (len < 12 || strncmp(line, "HTTP/", 5) != 0) return 0;
    const char *sp = memchr(line, ' ', len);
    if (!sp || (size_t)(sp - line) + 4 > len) return 0;
    int code = 0;
    for (int i = 1; i <= 3; i++) {
        if (sp[i] < '0' || sp[i] > '9') return 0;
        code = code * 10 + (sp[i] - '0');
    }
    return code;
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx) {
    answer *a = ctx;
    size_t len = size * n;
    int status = status_of(data, len);
    if (status) { /* a new answer (a redirect's, or the final one) */
        a->status = status;
        /* Only the last answer's 2xx ends the attempt: a proxy's "200 Connection
         * established" before the ingester's own status line must not (its headers are
         * also suppressed where libcurl can). */
        a->ok_ms = status >= 200 && status < 300 ? mono_ms() : 0;
        a->retry_after[0] = '\0';
        a->body_len = 0;
        a->body[0] = '\0';
    } else if (len > 12 && strncasecmp(data, "Retry-After:", 12) == 0) {
        size_t v = len - 12 < sizeof a->retry_after - 1 ? len - 12 : sizeof a->retry_after - 1;
        memcpy(a->retry_after, data + 12, v);
        a->retry_after[v] = '\0';
        a->retry_after[strcspn(a->retry_after, "\r\n")] = '\0';
    }
    return len;
}

static int on_progress(void *ctx, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow) {
    (void)dltotal, (void)dlnow;
    answer *a = ctx;
    if (ultotal > 0 && ulnow >= ultotal) a->uploaded = true;
    if (a->ok_ms && mono_ms() - a->ok_ms > HS_PUSH_DRAIN_MS) return 1; /* taken: stop reading */
    return a->req->abort && a->req->abort(a->req->abort_ctx) ? 1 : 0;
}

/* --- one request ----------------------------------------------------------------------------- */

const char *hs_push_redirect_protocols(const char *url) {
    return strncmp(url, "https://", 8) == 0 ? "https" : "http,https";
}

static void restrict_protocols(CURL *curl, const char *url) {
    const char *redirects = hs_push_redirect_protocols(url);
    if (C.easy_setopt(curl, OPT_PROTOCOLS_STR, "http,https") == CURLE_UNKNOWN_OPTION)
        C.easy_setopt(curl, OPT_PROTOCOLS, PROTO_HTTP_HTTPS); /* libcurl before 7.85 */
    if (C.easy_setopt(curl, OPT_REDIR_PROTOCOLS_STR, redirects) == CURLE_UNKNOWN_OPTION)
        C.easy_setopt(curl, OPT_REDIR_PROTOCOLS,
                      strcmp(redirects, "https") == 0 ? PROTO_HTTPS : PROTO_HTTP_HTTPS);
}

static CURLcode configure(CURL *curl, const hs_push_request *req, struct curl_slist *headers,
                          answer *a, char *error) {
    CURLcode rc = CURLE_OK;
    restrict_protocols(curl, req->url);
    const char *ca = getenv("HEAPSAMPLER_CA_BUNDLE");
    if (ca && ca[0]) rc = C.easy_setopt(curl, OPT_CAINFO, ca);
    if (!rc) rc = C.easy_setopt(curl, OPT_URL, req->url);
    if (!rc) rc = C.easy_setopt(curl, OPT_NOSIGNAL, 1L);
    if (!rc) rc = C.easy_setopt(curl, OPT_ERRORBUFFER, error);
    if (!rc) rc = C.easy_setopt(curl, OPT_POST, 1L);
    if (!rc) rc = C.easy_setopt(curl, OPT_POSTFIELDSIZE_LARGE, (int64_t)req->len);
    if (!rc) rc = C.easy_setopt(curl, OPT_POSTFIELDS, (const void *)req->body);
    if (!rc) rc = C.easy_setopt(curl, OPT_HTTPHEADER, headers);
    if (!rc) rc = C.easy_setopt(curl, OPT_FOLLOWLOCATION, 1L);
    if (!rc) rc = C.easy_setopt(curl, OPT_MAXREDIRS, MAX_REDIRECTS);
    if (!rc) rc = C.easy_setopt(curl, OPT_POSTREDIR, REDIR_POST_ALL);
    if (!rc) rc = C.easy_setopt(curl, OPT_CONNECTTIMEOUT_MS, (long)req->connect_timeout_ms);
    if (!rc) rc = C.easy_setopt(curl, OPT_TIMEOUT_MS, (long)req->timeout_ms);
    if (!rc) rc = C.easy_setopt(curl, OPT_WRITEFUNCTION, on_body);
    if (!rc) rc = C.easy_setopt(curl, OPT_WRITEDATA, a);
    if (!rc) rc = C.easy_setopt(curl, OPT_HEADERFUNCTION, on_header);
    if (!rc) rc = C.easy_setopt(curl, OPT_HEADERDATA, a);
    if (!rc) rc = C.easy_setopt(curl, OPT_XFERINFOFUNCTION, on_progress);
    if (!rc) rc = C.easy_setopt(curl, OPT_XFERINFODATA, (void *)a);
    if (!rc) rc = C.easy_setopt(curl, OPT_NOPROGRESS, 0L);
    if (!rc) C.easy_setopt(curl, OPT_SUPPRESS_CONNECT_HEADERS, 1L); /* libcurl >= 7.54; else the
                                                                      * status reset above */
    return rc;
}

/* The answer's body as one printable line (credentials it echoes: hs_push_redact_credentials). */
static void printable(char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < ' ' || (unsigned char)*s >= 0x7f) *s = ' ';
}

void hs_push_redact_credentials(char *text, const char *const *headers, size_t nheaders) {
    for (size_t i = 0; i < nheaders; i++) {
        const char *h = headers[i];
        if (strncasecmp(h, "Authorization:", 14) != 0) continue;
        const char *secret = strrchr(h, ' ');
        secret = secret ? secret + 1 : h + 14;
        size_t len = strlen(secret);
        if (len < 4) continue; /* no credential worth the name; nothing to match safely */
        for (char *at = strstr(text, secret); at; at = strstr(at + len, secret))
            memset(at, '*', len);
    }
}

/* The outcome of a transfer that ended with rc: a 2xx status line counts, whatever came
 * after it (a trickling body cut at the drain bound). */
static void judge(CURL *curl, CURLcode rc, const hs_push_request *req, answer *a,
                  const char *error, hs_push_outcome *out) {
    if (a->ok_ms) {
        out->status = a->status;
        return;
    }
    long status = 0;
    if (rc == CURLE_OK) C.easy_getinfo(curl, INFO_RESPONSE_CODE, &status);
    else if (a->status >= 400 || (a->status >= 100 && a->status < 200)) status = a->status;
    out->status = (int)status;
    if (rc == CURLE_OK) {
        printable(a->body);
        snprintf(out->detail, sizeof out->detail, "HTTP %ld%s%s", status, a->body[0] ? ": " : "",
                 a->body);
        hs_push_redact_credentials(out->detail, req->headers, req->nheaders);
        return;
    }
    int64_t uploaded = 0;
    bool whole = a->uploaded ||
                 (C.easy_getinfo(curl, INFO_SIZE_UPLOAD_T, &uploaded) == CURLE_OK &&
                  uploaded >= (int64_t)req->len);
    out->sent_whole = status == 0 && whole;
    out->timed_out = rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_ABORTED_BY_CALLBACK;
    out->permanent = rc == CURLE_TOO_MANY_REDIRECTS || rc == CURLE_UNSUPPORTED_PROTOCOL ||
                     rc == CURLE_URL_MALFORMAT;
    const char *what = rc == CURLE_TOO_MANY_REDIRECTS ? "redirect loop: "
                       : out->permanent                 ? "redirect refused: "
                                                        : "";
    hs_bounded detail = {out->detail, sizeof out->detail, 0};
    hs_bounded_printf(&detail, "%s%s%s%s", what, C.easy_strerror(rc), error[0] ? ": " : "",
                      error);
    printable(out->detail); /* curl's message may carry a peer's bytes (a redirect's URL) */
    hs_push_redact_credentials(out->detail, req->headers, req->nheaders);
}

static void send_one(void *ctx, const hs_push_request *req, hs_push_outcome *out) {
    (void)ctx;
    *out = (hs_push_outcome){.retry_after_ms = -1};
    answer a = {.req = req};
    char error[ERROR_SIZE] = "";
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < req->nheaders; i++) {
        struct curl_slist *next = C.slist_append(headers, req->headers[i]);
        if (!next) break;
        headers = next;
    }
    CURL *curl = C.easy_init();
    CURLcode rc = curl ? configure(curl, req, headers, &a, error) : CURLE_OK;
    if (curl && rc == CURLE_OK) rc = C.easy_perform(curl);
    if (curl) judge(curl, rc, req, &a, error, out);
    else snprintf(out->detail, sizeof out->detail, "curl_easy_init failed");
    if (a.retry_after[0])
        out->retry_after_ms = hs_http_retry_after_ms(a.retry_after, hs_wall_nanos() / 1000000000);
    if (curl) C.easy_cleanup(curl);
    C.slist_free_all(headers);
}

static void close_transport(void *ctx) { (void)ctx; }

int hs_curl_transport_open(hs_push_transport *t, char *why, size_t whylen) {
    if (!C.easy_init && load(why, whylen) != 0) {
        C = (curl_api){0};
        return -1;
    }
    if (C.global_init(GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(why, whylen, "curl_global_init failed");
        return -1;
    }
    *t = (hs_push_transport){.ctx = NULL, .send = send_one, .close = close_transport};
    return 0;
}
