/* pprof_routes.c: the endpoint's paths, parameters and answers (see pprof_routes.h). */
#include "pprof_routes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A profile path. */
typedef struct {
    const char *path;
    const char *name;           /* Content-Disposition's file name */
    hs_export_format format;
    const char *default_type;
} route;

static const route ROUTES[] = {
    {"/debug/pprof/heap", "heap", HS_EXPORT_PPROF, "inuse_space"},
    {"/debug/pprof/allocs", "allocs", HS_EXPORT_PPROF, "alloc_space"},
    {"/flamegraph", "flamegraph", HS_EXPORT_HTML, "inuse_space"},
    {"/debug/pprof/top", "top", HS_EXPORT_TEXT, "inuse_space"},
};
#define ROUTE_COUNT (sizeof ROUTES / sizeof ROUTES[0])

static const char INDEX_PAGE[] =
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>/debug/pprof/</title></head>\n"
    "<body>\n<p>heapsampler: heap profiles of this JVM (Java allocation sites)</p>\n"
    "<table>\n"
    "<tr><td><a href=\"heap\">heap</a></td><td>Allocation since the start and objects in use "
    "as of the last GC, default sample type inuse_space. Add ?seconds=N (at most 300) for a "
    "delta of the next N seconds.</td></tr>\n"
    "<tr><td><a href=\"allocs\">allocs</a></td><td>The same profile, default sample type "
    "alloc_space.</td></tr>\n"
    "<tr><td><a href=\"/flamegraph\">flamegraph</a></td><td>The same profile as an "
    "interactive flame graph (HTML).</td></tr>\n"
    "<tr><td><a href=\"top\">top</a></td><td>The largest allocation sites as text: in use "
    "(&plusmn; one standard error), allocated, allocated per second, age.</td></tr>\n"
    "</table>\n<p>Read them with <code>go tool pprof http://HOST:PORT/debug/pprof/heap</code>."
    "</p>\n</body></html>\n";

struct hs_pprof_routes {
    hs_profile_source source;
    /* The last build of a whole-run profile, shared by requests for it within
     * HS_ROUTES_SHARE_MS. */
    const route *shared_route;
    uint8_t *shared;
    size_t shared_len;
    int64_t shared_ms;
};

/* A delta waiting for its end. */
typedef struct {
    const route *route;
    void *baseline;
} pending_delta;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

hs_pprof_routes *hs_pprof_routes_create(const hs_profile_source *source) {
    hs_pprof_routes *r = calloc(1, sizeof *r);
    if (r) r->source = *source;
    return r;
}

static void forget_shared(hs_pprof_routes *r) {
    free(r->shared);
    r->shared = NULL;
    r->shared_len = 0;
    r->shared_route = NULL;
}

void hs_pprof_routes_destroy(hs_pprof_routes *r) {
    if (!r) return;
    forget_shared(r);
    free(r);
}

/* --- answers --------------------------------------------------------------------------------- */

/* A plain-text answer, as Go's pprof errors are (X-Go-Pprof: 1). */
static void text(hs_http_response *resp, int status, const char *message, const char *extra) {
    *resp = (hs_http_response){.status = status, .content_type = "text/plain; charset=utf-8",
                               .body = (uint8_t *)message, .body_len = strlen(message),
                               .body_static = true};
    snprintf(resp->extra_headers, sizeof resp->extra_headers, "X-Go-Pprof: 1\r\n%s",
             extra ? extra : "");
}

static void index_page(hs_http_response *resp) {
    *resp = (hs_http_response){.status = 200, .content_type = "text/html; charset=utf-8",
                               .body = (uint8_t *)INDEX_PAGE, .body_len = sizeof INDEX_PAGE - 1,
                               .body_static = true};
}

/* 200 with the encoded profile (takes bytes). */
static void profile(hs_http_response *resp, const route *rt, bool delta, uint8_t *bytes,
                    size_t len) {
    static const char *const content_types[] = {
        [HS_EXPORT_PPROF] = "application/octet-stream",
        [HS_EXPORT_HTML] = "text/html; charset=utf-8",
        [HS_EXPORT_TEXT] = "text/plain; charset=utf-8"};
    *resp = (hs_http_response){.status = 200, .content_type = content_types[rt->format],
                               .body = bytes, .body_len = len};
    if (rt->format == HS_EXPORT_PPROF)
        snprintf(resp->extra_headers, sizeof resp->extra_headers,
                 "Content-Disposition: attachment; filename=\"%s%s\"\r\n", rt->name,
                 delta ? "-delta" : "");
}

static int build(hs_pprof_routes *r, const route *rt, void *baseline, uint8_t **out,
                 size_t *len) {
    hs_export_profile what = {.format = rt->format, .default_type = rt->default_type,
                              .baseline = baseline};
    return r->source.build(r->source.ctx, &what, out, len);
}

/* The whole run's profile: the shared build when it is recent enough, else a new one. */
static void whole_run(hs_pprof_routes *r, const route *rt, hs_http_response *resp) {
    if (r->shared_route != rt || now_ms() - r->shared_ms >= HS_ROUTES_SHARE_MS) {
        forget_shared(r);
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (build(r, rt, NULL, &bytes, &len) != 0) {
            text(resp, 500, "failed to collect profile\n", NULL);
            return;
        }
        r->shared = bytes;
        r->shared_len = len;
        r->shared_route = rt;
        r->shared_ms = now_ms();
    }
    uint8_t *copy = malloc(r->shared_len ? r->shared_len : 1);
    if (!copy) {
        text(resp, 500, "failed to collect profile\n", NULL);
        return;
    }
    memcpy(copy, r->shared, r->shared_len);
    profile(resp, rt, false, copy, r->shared_len);
}

/* ?seconds=: 0 when absent, 1..HS_ROUTES_MAX_SECONDS, or -1 with resp set (400). */
static long seconds_param(const char *query, hs_http_response *resp) {
    char value[32];
    int found = hs_http_query_param(query, "seconds", value, sizeof value);
    if (found == 0) return 0;
    long seconds = 0;
    bool digits = found == 1 && value[0] && strspn(value, "0123456789") == strlen(value) &&
                  strlen(value) <= 9;
    if (digits) seconds = strtol(value, NULL, 10);
    if (!digits || seconds <= 0) {
        text(resp, 400, "invalid value for \"seconds\" - must be a positive integer\n", NULL);
        return -1;
    }
    if (seconds > HS_ROUTES_MAX_SECONDS) {
        text(resp, 400, "invalid value for \"seconds\" - at most 300\n", NULL);
        return -1;
    }
    return seconds;
}

/* A profile route: now, or later (returns the wait in ms) for ?seconds=. */
static long serve_profile(hs_pprof_routes *r, const route *rt, const char *query,
                          hs_http_response *resp, void **pending) {
    char debug[16];
    bool text_asked = hs_http_query_param(query, "debug", debug, sizeof debug) != 0 &&
                      strcmp(debug, "0") != 0;
    long seconds = seconds_param(query, resp);
    if (seconds < 0) return 0;
    if (text_asked) {
        text(resp, 400, seconds ? "seconds and debug params are incompatible\n"
                                : "debug=N (legacy text) is not served: read the profile with "
                                  "go tool pprof\n", NULL);
        return 0;
    }
    if (seconds == 0) {
        whole_run(r, rt, resp);
        return 0;
    }
    pending_delta *delta = malloc(sizeof *delta);
    void *baseline = delta ? r->source.mark(r->source.ctx) : NULL;
    if (!baseline) {
        free(delta);
        text(resp, 500, "failed to collect profile\n", NULL);
        return 0;
    }
    *delta = (pending_delta){rt, baseline};
    *pending = delta;
    return seconds * 1000;
}

static long handle(void *ctx, const hs_http_request *req, hs_http_response *resp,
                   void **pending) {
    hs_pprof_routes *r = ctx;
    if (req->method == HS_HTTP_OTHER) {
        text(resp, 405, "Method Not Allowed\n", "Allow: GET, HEAD\r\n");
        return 0;
    }
    for (size_t i = 0; i < ROUTE_COUNT; i++)
        if (strcmp(req->path, ROUTES[i].path) == 0)
            return serve_profile(r, &ROUTES[i], req->query, resp, pending);
    if (strcmp(req->path, "/debug/pprof/") == 0) index_page(resp);
    else if (strcmp(req->path, "/debug/pprof") == 0)
        text(resp, 301, "Moved Permanently\n", "Location: /debug/pprof/\r\n");
    else if (strncmp(req->path, "/debug/pprof/", 13) == 0)
        text(resp, 404, "Unknown profile\n", NULL);
    else text(resp, 404, "404 page not found\n", NULL);
    return 0;
}

static void resume(void *ctx, void *pending, hs_http_response *resp) {
    hs_pprof_routes *r = ctx;
    pending_delta *delta = pending;
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (build(r, delta->route, delta->baseline, &bytes, &len) == 0)
        profile(resp, delta->route, true, bytes, len);
    else
        text(resp, 500, "failed to collect profile\n", NULL);
    r->source.release(r->source.ctx, delta->baseline);
    free(delta);
}

static void drop(void *ctx, void *pending) {
    hs_pprof_routes *r = ctx;
    pending_delta *delta = pending;
    r->source.release(r->source.ctx, delta->baseline);
    free(delta);
}

hs_http_handler hs_pprof_routes_handler(hs_pprof_routes *r) {
    return (hs_http_handler){.ctx = r, .handle = handle, .resume = resume, .drop = drop};
}
