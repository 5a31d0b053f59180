/* pprof_routes.c: the endpoint's paths, parameters and answers (see pprof_routes.h). */
#include "export/pprof_routes.h"

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
    "as of the last GC, default sample type inuse_space.</td></tr>\n"
    "<tr><td><a href=\"allocs\">allocs</a></td><td>The same profile, default sample type "
    "alloc_space.</td></tr>\n"
    "<tr><td><a href=\"/flamegraph\">flamegraph</a></td><td>The same profile as an "
    "interactive flame graph (HTML).</td></tr>\n"
    "<tr><td><a href=\"top\">top</a></td><td>The largest allocation sites as text: in use "
    "(&plusmn; one standard error), allocated, allocated per second, age.</td></tr>\n"
    "</table>\n<p>Parameters:</p>\n<table>\n"
    "<tr><td><a href=\"heap?seconds=30\">?seconds=N</a></td><td>A delta: what is allocated "
    "during the next N seconds (1 to 300), in use as of the last GC at the end.</td></tr>\n"
    "<tr><td><a href=\"heap?gc=1\">?gc=1</a></td><td>Force a full garbage collection first "
    "(it stops the application, as System.gc() does), so that every object in use is judged "
    "live or dead; at most one forced collection every 5 seconds, later requests share "
    "it.</td></tr>\n"
    "<tr><td><a href=\"heap?debug=1\">?debug=1</a></td><td>heap and allocs as text: every "
    "site with its whole stack, by bytes in use (heap) or allocated (allocs).</td></tr>\n"
    "</table>\n<p>Read them with <code>go tool pprof http://HOST:PORT/debug/pprof/heap</code>."
    "</p>\n</body></html>\n";

/* What a whole-run answer is built from: the route and the parameters that change it. */
typedef struct {
    const route *route;
    bool gc, debug;
} build_key;

struct hs_pprof_routes {
    hs_profile_source source;
    /* The last build of a whole-run profile, shared by requests for it within
     * HS_ROUTES_SHARE_MS (HS_ROUTES_GC_SPACING_MS for a gc=1 build). */
    build_key shared_key;
    uint8_t *shared;
    size_t shared_len;
    int64_t shared_ms;
    int64_t forced_ms; /* when a collection was last forced; 0: never */
};

/* A delta waiting for its end. */
typedef struct {
    const route *route;
    void *baseline;
    bool gc;
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
    r->shared_key = (build_key){0};
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

/* The format a request gets: debug=1 turns a pprof route into text. */
static hs_export_format answer_format(const build_key *key) {
    return key->debug && key->route->format == HS_EXPORT_PPROF ? HS_EXPORT_TEXT_ALL
                                                               : key->route->format;
}

/* 200 with the encoded profile (takes bytes); gc_note: the X-Heapsampler-Gc value or NULL. */
static void profile(hs_http_response *resp, const build_key *key, bool delta, uint8_t *bytes,
                    size_t len, const char *gc_note) {
    static const char *const content_types[] = {
        [HS_EXPORT_PPROF] = "application/octet-stream",
        [HS_EXPORT_HTML] = "text/html; charset=utf-8",
        [HS_EXPORT_TEXT] = "text/plain; charset=utf-8",
        [HS_EXPORT_TEXT_ALL] = "text/plain; charset=utf-8"};
    hs_export_format format = answer_format(key);
    *resp = (hs_http_response){.status = 200, .content_type = content_types[format],
                               .body = bytes, .body_len = len};
    int n = 0;
    if (format == HS_EXPORT_PPROF)
        n = snprintf(resp->extra_headers, sizeof resp->extra_headers,
                     "Content-Disposition: attachment; filename=\"%s%s\"\r\n", key->route->name,
                     delta ? "-delta" : "");
    if (gc_note && n >= 0 && (size_t)n < sizeof resp->extra_headers)
        snprintf(resp->extra_headers + n, sizeof resp->extra_headers - (size_t)n,
                 "X-Heapsampler-Gc: %s\r\n", gc_note);
}

/* Builds the answer for key; with key->gc, forces a collection unless one was forced
 * within HS_ROUTES_GC_SPACING_MS (then *gc_note says how long ago). */
static int build(hs_pprof_routes *r, const build_key *key, void *baseline, uint8_t **out,
                 size_t *len, char *gc_note, size_t note_len) {
    int64_t since = now_ms() - r->forced_ms;
    bool force = key->gc && (r->forced_ms == 0 || since >= HS_ROUTES_GC_SPACING_MS);
    hs_export_profile what = {.format = answer_format(key),
                              .default_type = key->route->default_type,
                              .baseline = baseline, .gc = force,
                              .gc_shared = key->gc && !force};
    if (key->gc && !force) snprintf(gc_note, note_len, "shared: forced %lld ms ago", (long long)since);
    else if (force) snprintf(gc_note, note_len, "forced");
    int rc = r->source.build(r->source.ctx, &what, out, len);
    if (force) r->forced_ms = now_ms(); /* a failed build counts too: the spacing holds */
    return rc;
}

static bool same_key(const build_key *a, const build_key *b) {
    return a->route == b->route && a->gc == b->gc && a->debug == b->debug;
}

/* The whole run's profile: the shared build when it is recent enough, else a new one. */
static void whole_run(hs_pprof_routes *r, const build_key *key, hs_http_response *resp) {
    int64_t keep_ms = key->gc ? HS_ROUTES_GC_SPACING_MS : HS_ROUTES_SHARE_MS;
    char gc_note[64] = "";
    if (!same_key(&r->shared_key, key) || now_ms() - r->shared_ms >= keep_ms) {
        forget_shared(r);
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (build(r, key, NULL, &bytes, &len, gc_note, sizeof gc_note) != 0) {
            text(resp, 500, "failed to collect profile\n", NULL);
            return;
        }
        r->shared = bytes;
        r->shared_len = len;
        r->shared_key = *key;
        r->shared_ms = now_ms();
    } else if (key->gc) {
        snprintf(gc_note, sizeof gc_note, "shared: forced %lld ms ago",
                 (long long)(now_ms() - r->forced_ms));
    }
    uint8_t *copy = malloc(r->shared_len ? r->shared_len : 1);
    if (!copy) {
        text(resp, 500, "failed to collect profile\n", NULL);
        return;
    }
    memcpy(copy, r->shared, r->shared_len);
    profile(resp, key, false, copy, r->shared_len, gc_note[0] ? gc_note : NULL);
}

/* A profile route: now, or later (returns the wait in ms) for ?seconds=. */
static long serve_profile(hs_pprof_routes *r, const route *rt, const char *query,
                          hs_http_response *resp, void **pending) {
    hs_pprof_query q;
    const char *message;
    if (hs_pprof_query_parse(query, &q, &message) != 0) {
        text(resp, 400, message, NULL);
        return 0;
    }
    if (q.seconds == 0) {
        build_key key = {rt, q.gc, q.debug};
        whole_run(r, &key, resp);
        return 0;
    }
    pending_delta *delta = malloc(sizeof *delta);
    void *baseline = delta ? r->source.mark(r->source.ctx) : NULL;
    if (!baseline) {
        free(delta);
        text(resp, 500, "failed to collect profile\n", NULL);
        return 0;
    }
    *delta = (pending_delta){rt, baseline, q.gc};
    *pending = delta;
    return q.seconds * 1000;
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
    build_key key = {delta->route, delta->gc, false};
    char gc_note[64] = "";
    if (build(r, &key, delta->baseline, &bytes, &len, gc_note, sizeof gc_note) == 0)
        profile(resp, &key, true, bytes, len, gc_note[0] ? gc_note : NULL);
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
