/* pprof_query.h: the query parameters of the endpoint's profile paths, read as Go's
 * net/http/pprof reads them.
 *
 *   seconds=N   a delta of the next N seconds, 1..HS_ROUTES_MAX_SECONDS
 *   gc=N        N > 0: a full collection before the profile is built (Go honours it on
 *               /debug/pprof/heap; here on heap and allocs; with seconds=, at the end of
 *               the delta, when the in-use values are taken); 0 or absent: none
 *   debug=N     N > 0: a text answer instead of pprof (pprof_routes.h says which text)
 *
 * Go ignores a value that is not a number; here it is refused (400) with a message in
 * Go's words, so that a typo (gc=true) does not silently serve something else. seconds=
 * and debug= together are refused as Go refuses them. Pure: no I/O, unit-tested. */
#ifndef HS_PPROF_QUERY_H
#define HS_PPROF_QUERY_H

#include <stdbool.h>

#define HS_ROUTES_MAX_SECONDS 300

typedef struct {
    long seconds; /* 0: the whole run */
    bool gc;      /* gc=N with N > 0 */
    bool debug;   /* debug=N with N > 0 */
} hs_pprof_query;

/* Reads query (the part after '?', may be NULL or ""). 0, or -1 with *message set to the
 * 400 answer's body (a static string ending in a newline). */
int hs_pprof_query_parse(const char *query, hs_pprof_query *out, const char **message);

#endif
