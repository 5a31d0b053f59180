/* pprof_routes.c: the endpoint's paths, parameters and answers (see pprof_routes.h). */
#include "export/pprof_routes.h"

#include "output/legacy_heap.h"
#include "base/text.h"

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

/* The index, laid out as Go's net/http/pprof index (its profiles linked with ?debug=1,
 * then their descriptions), with heapsampler's own pages and the parameters after. */
static const char INDEX_PAGE[] =
    "<html>\n<head>\n<title>/debug/pprof/</title>\n<style>\n.profile-name{\n"
    "\tdisplay:inline-block;\n\twidth:6rem;\n}\n</style>\n</head>\n<body>\n"
    "/debug/pprof/<br>\n<br>\nTypes of profiles available:\n<table>\n"
    "<thead><td>Profile</td></thead>\n"
    "<tr><td><a href='allocs?debug=1'>allocs</a></td></tr>\n"
    "<tr><td><a href='heap?debug=1'>heap</a></td></tr>\n"
    "<tr><td><a href='top'>top</a></td></tr>\n"
    "<tr><td><a href='/flamegraph'>flamegraph</a></td></tr>\n"
    "</table>\n<p>\nProfile Descriptions:\n<ul>\n"
    "<li><div class=profile-name>allocs: </div> A sampling of all past memory allocations "
    "(Java allocation sites since the JVM started; the same profile as heap, default sample "
    "type alloc_space)</li>\n"
    "<li><div class=profile-name>heap: </div> A sampling of memory allocations of live objects "
    "(in use as of the last GC, default sample type inuse_space). You can specify the gc GET "
    "parameter to run GC before taking the heap sample.</li>\n"
    "<li><div class=profile-name>top: </div> The largest allocation sites as text: in use "
    "(&plusmn; one standard error), allocated, allocated per second, age.</li>\n"
    "<li><div class=profile-name>flamegraph: </div> The same profile as an interactive flame "
    "graph (HTML).</li>\n"
    "</ul>\n</p>\n<p>\nParameters:\n<ul>\n"
    "<li><a href='heap?seconds=30'>?seconds=N</a>: a delta: what is allocated during the "
    "next N seconds (1 to 300), in use as of the last GC at the end.</li>\n"
    "<li><a href='heap?gc=1'>?gc=1</a>: force a full garbage collection first (it stops the "
    "application, as System.gc() does), so that every object in use is judged live or dead; "
    "at most one forced collection every 5 seconds, later requests share it.</li>\n"
    "<li><a href='heap?debug=1'>?debug=1</a>: heap and allocs in Go's legacy text format "
    "(what go tool pprof reads from URL?debug=1).</li>\n"
    "</ul>\n</p>\n<p>Read them with <code>go tool pprof http://HOST:PORT/debug/pprof/heap</code>."
    "</p>\n</body>\n</html>\n";

static const char MOVED_PAGE[] = "<a href=\"/debug/pprof/\">Moved Permanently</a>.\n\n";

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
    hs_legacy_symbols *symbols; /* of the last ?debug=1 text, for /debug/pprof/symbol */
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
    hs_legacy_symbols_free(r->symbols);
    free(r);
}

/* --- answers --------------------------------------------------------------------------------- */

/* A plain-text answer (a static message); go_pprof: an error of a /debug/pprof/ path,
 * marked X-Go-Pprof: 1 as Go's serveError marks them (pprof shows such a body). */
static void text(hs_http_response *resp, int status, const char *message, const char *extra,
                 bool go_pprof) {
    *resp = (hs_http_response){.status = status, .content_type = "text/plain; charset=utf-8",
                               .body = (uint8_t *)message, .body_len = strlen(message),
                               .body_static = true};
    snprintf(resp->extra_headers, sizeof resp->extra_headers, "%s%s",
             go_pprof ? "X-Go-Pprof: 1\r\n" : "", extra ? extra : "");
}

/* An error of a profile route: marked as Go's pprof errors are unless it is /flamegraph. */
static void route_error(hs_http_response *resp, const route *rt, int status,
                        const char *message, const char *extra) {
    text(resp, status, message, extra, strncmp(rt->path, "/debug/pprof/", 13) == 0);
}

static void page(hs_http_response *resp, int status, const char *html, size_t len) {
    *resp = (hs_http_response){.status = status, .content_type = "text/html; charset=utf-8",
                               .body = (uint8_t *)html, .body_len = len, .body_static = true};
}

/* The format a request gets: debug=1 turns a pprof route into text. */
static hs_export_format answer_format(const build_key *key) {
    return key->debug && key->route->format == HS_EXPORT_PPROF ? HS_EXPORT_LEGACY
                                                               : key->route->format;
}

/* 200 with the encoded profile (takes bytes); gc_note: the X-Heapsampler-Gc value or NULL. */
static void profile(hs_http_response *resp, const build_key *key, bool delta, uint8_t *bytes,
                    size_t len, const char *gc_note) {
    static const char *const content_types[] = {
        [HS_EXPORT_PPROF] = "application/octet-stream",
        [HS_EXPORT_HTML] = "text/html; charset=utf-8",
        [HS_EXPORT_TEXT] = "text/plain; charset=utf-8",
        [HS_EXPORT_LEGACY] = "text/plain; charset=utf-8"};
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

/* A new legacy text: its symbols answer /debug/pprof/symbol from now on. */
static void keep_symbols(hs_pprof_routes *r, const uint8_t *text, size_t len) {
    hs_legacy_symbols *symbols = hs_legacy_symbols_of((const char *)text, len);
    if (!symbols) return; /* out of memory: the older table stays */
    hs_legacy_symbols_free(r->symbols);
    r->symbols = symbols;
}

static const char FAILED[] = "failed to collect profile\n";

/* The whole run's profile: the shared build when it is recent enough, else a new one. */
static void whole_run(hs_pprof_routes *r, const build_key *key, hs_http_response *resp) {
    int64_t keep_ms = key->gc ? HS_ROUTES_GC_SPACING_MS : HS_ROUTES_SHARE_MS;
    char gc_note[64] = "";
    if (!same_key(&r->shared_key, key) || now_ms() - r->shared_ms >= keep_ms) {
        forget_shared(r);
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (build(r, key, NULL, &bytes, &len, gc_note, sizeof gc_note) != 0) {
            route_error(resp, key->route, 500, FAILED, NULL);
            return;
        }
        if (answer_format(key) == HS_EXPORT_LEGACY) keep_symbols(r, bytes, len);
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
        route_error(resp, key->route, 500, FAILED, NULL);
        return;
    }
    memcpy(copy, r->shared, r->shared_len);
    profile(resp, key, false, copy, r->shared_len, gc_note[0] ? gc_note : NULL);
}

/* A profile route: now, or later (returns the wait in ms) for ?seconds=, when the server
 * has room for a wait that long (max_wait_ms). */
static long serve_profile(hs_pprof_routes *r, const route *rt, const char *query,
                          long max_wait_ms, hs_http_response *resp, void **pending) {
    hs_pprof_query q;
    const char *message;
    if (hs_pprof_query_parse(query, &q, &message) != 0) {
        route_error(resp, rt, 400, message, NULL);
        return 0;
    }
    if (q.seconds == 0) {
        build_key key = {rt, q.gc, q.debug};
        whole_run(r, &key, resp);
        return 0;
    }
    if (q.seconds * 1000 > max_wait_ms) {
        route_error(resp, rt, 503, "too many ?seconds= requests are waiting: try again "
                    "later\n", "Retry-After: 10\r\n");
        return 0;
    }
    pending_delta *delta = malloc(sizeof *delta);
    void *baseline = delta ? r->source.mark(r->source.ctx) : NULL;
    if (!baseline) {
        free(delta);
        route_error(resp, rt, 500, FAILED, NULL);
        return 0;
    }
    *delta = (pending_delta){rt, baseline, q.gc};
    *pending = delta;
    return q.seconds * 1000;
}

/* /debug/pprof/symbol: Go's lookup of addresses (POST body, or the query of a GET). */
static void symbol(hs_pprof_routes *r, const hs_http_request *req, hs_http_response *resp) {
    bool post = strcmp(req->method_name, "POST") == 0;
    const char *query = post ? (req->body ? req->body : "") : req->query;
    size_t len = post ? req->body_len : strlen(req->query);
    hs_text answer = {0};
    hs_legacy_symbols_answer(r->symbols, query, len, &answer);
    if (answer.failed) {
        hs_text_free(&answer);
        text(resp, 500, "out of memory\n", NULL, true);
        return;
    }
    *resp = (hs_http_response){.status = 200, .content_type = "text/plain; charset=utf-8",
                               .body = (uint8_t *)answer.data, .body_len = answer.len};
}

static long handle(void *ctx, const hs_http_request *req, long max_wait_ms,
                   hs_http_response *resp, void **pending) {
    hs_pprof_routes *r = ctx;
    bool pprof_path = strncmp(req->path, "/debug/pprof/", 13) == 0;
    if (strcmp(req->path, "/debug/pprof/symbol") == 0) {
        if (req->method == HS_HTTP_OTHER && strcmp(req->method_name, "POST") != 0)
            text(resp, 405, "Method Not Allowed\n", "Allow: GET, HEAD, POST\r\n", true);
        else symbol(r, req, resp);
        return 0;
    }
    if (req->method == HS_HTTP_OTHER) {
        text(resp, 405, "Method Not Allowed\n", "Allow: GET, HEAD\r\n", pprof_path);
        return 0;
    }
    for (size_t i = 0; i < ROUTE_COUNT; i++)
        if (strcmp(req->path, ROUTES[i].path) == 0)
            return serve_profile(r, &ROUTES[i], req->query, max_wait_ms, resp, pending);
    if (strcmp(req->path, "/debug/pprof/") == 0) {
        page(resp, 200, INDEX_PAGE, sizeof INDEX_PAGE - 1);
    } else if (strcmp(req->path, "/debug/pprof") == 0) {
        page(resp, 301, MOVED_PAGE, sizeof MOVED_PAGE - 1);
        snprintf(resp->extra_headers, sizeof resp->extra_headers, "Location: /debug/pprof/\r\n");
    } else if (pprof_path) {
        text(resp, 404, "Unknown profile\n", NULL, true);
    } else {
        text(resp, 404, "404 page not found\n", NULL, false);
    }
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
        route_error(resp, key.route, 500, FAILED, NULL);
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
