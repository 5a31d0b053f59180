/* pprof_routes.h: what the endpoint serves, in the manner of Go's net/http/pprof.
 *
 *   /debug/pprof/          an HTML index of what follows
 *   /debug/pprof/heap      gzipped pprof: allocation since start, in use as of the last GC,
 *                          default sample type inuse_space (alloc_space with live=false)
 *   /debug/pprof/allocs    the same profile, default sample type alloc_space
 *   /flamegraph            the HTML flame graph of the same profile
 *   /debug/pprof/top       the text report of the operator's `top` (report.h), text/plain
 *   ?seconds=N             (each of them) a delta: what is allocated during the next
 *                          N seconds (1..300), in use as of the last GC at the end
 *   ?gc=1                  (heap, allocs, top, flamegraph) a full collection first, so
 *                          that every in-use sample is judged (like Go's heap?gc=1); at
 *                          most one forced collection every HS_ROUTES_GC_SPACING_MS: a
 *                          gc=1 request within that time of the last one is built without
 *                          another (its build is shared when it asks for the same thing),
 *                          and the header X-Heapsampler-Gc says which: "forced" or
 *                          "shared: forced N ms ago"
 *   ?debug=1               (heap, allocs) text instead of pprof, as Go answers: the
 *                          report of `top` listing every site (up to 1000) with its whole
 *                          stack, ranked by in-use bytes (heap) or allocated bytes (allocs)
 * (pprof_query.h reads them.)
 * Other methods than GET and HEAD are answered 405, unknown profiles and paths 404, bad
 * parameters 400, each with Go's Content-Type, Content-Disposition and message.
 *
 * The routes build nothing themselves: a profile source (the agent, or a test's fake)
 * builds and encodes profiles. Builds are one at a time (one server thread), and one
 * build is shared by the requests for the same profile that come within a second of it. */
#ifndef HS_PPROF_ROUTES_H
#define HS_PPROF_ROUTES_H

#include <stddef.h>
#include <stdint.h>

#include "export/http_server.h"
#include "export/pprof_query.h"

#define HS_ROUTES_SHARE_MS 1000 /* a build younger than this answers the same request again */
#define HS_ROUTES_GC_SPACING_MS 5000 /* at most one forced collection in this time */

typedef enum {
    HS_EXPORT_PPROF = 0,
    HS_EXPORT_HTML,
    HS_EXPORT_TEXT,     /* the report of `top` at its defaults */
    HS_EXPORT_TEXT_ALL  /* ?debug=1: every site with its stack, ranked by default_type */
} hs_export_format;

/* One profile to build. */
typedef struct {
    hs_export_format format;
    const char *default_type;  /* "inuse_space" or "alloc_space" */
    void *baseline;            /* NULL: the whole run; else from mark: allocation since then */
    bool gc;                   /* force a full collection first (and wait for its sweep) */
    bool gc_shared;            /* gc=1 was asked; the collection forced for an earlier
                                * request, within HS_ROUTES_GC_SPACING_MS, stands for it */
} hs_export_profile;

typedef struct {
    void *ctx;
    /* Builds and encodes the profile into *out (malloc'd). 0, or -1 (it logged why). */
    int (*build)(void *ctx, const hs_export_profile *what, uint8_t **out, size_t *len);
    /* What has been allocated so far, for a delta; NULL when it cannot be taken. */
    void *(*mark)(void *ctx);
    void (*release)(void *ctx, void *baseline);
} hs_profile_source;

typedef struct hs_pprof_routes hs_pprof_routes;

/* NULL on ENOMEM. The source must outlive the routes. */
hs_pprof_routes *hs_pprof_routes_create(const hs_profile_source *source);
void hs_pprof_routes_destroy(hs_pprof_routes *routes);

/* The handler the server calls (http_server.h). */
hs_http_handler hs_pprof_routes_handler(hs_pprof_routes *routes);

#endif
