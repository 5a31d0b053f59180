/* pprof_query.c: seconds=, gc= and debug= of a profile request (see pprof_query.h). */
#include "export/pprof_query.h"

#include <stdlib.h>
#include <string.h>

#include "export/http_message.h"

#define NOT_PRESENT (-2)
#define MALFORMED (-1)

/* The parameter as a whole decimal number of at most 9 digits: its value, NOT_PRESENT, or
 * MALFORMED (not a number, a sign, empty, too long). */
static long number_param(const char *query, const char *name) {
    char value[32];
    int found = hs_http_query_param(query ? query : "", name, value, sizeof value);
    if (found == 0) return NOT_PRESENT;
    size_t len = found == 1 ? strlen(value) : 0;
    if (len == 0 || len > 9 || strspn(value, "0123456789") != len) return MALFORMED;
    return strtol(value, NULL, 10);
}

int hs_pprof_query_parse(const char *query, hs_pprof_query *out, const char **message) {
    *out = (hs_pprof_query){0};
    long seconds = number_param(query, "seconds");
    long gc = number_param(query, "gc");
    long debug = number_param(query, "debug");
    if (seconds == MALFORMED || seconds == 0) {
        *message = "invalid value for \"seconds\" - must be a positive integer\n";
        return -1;
    }
    if (seconds > HS_ROUTES_MAX_SECONDS) {
        *message = "invalid value for \"seconds\" - at most 300\n";
        return -1;
    }
    if (gc == MALFORMED) {
        *message = "invalid value for \"gc\" - must be an integer (gc=1: a full collection "
                   "first)\n";
        return -1;
    }
    if (debug == MALFORMED) {
        *message = "invalid value for \"debug\" - must be an integer (debug=1: text)\n";
        return -1;
    }
    if (seconds > 0 && debug != NOT_PRESENT) {
        *message = "seconds and debug params are incompatible\n";
        return -1;
    }
    out->seconds = seconds > 0 ? seconds : 0;
    out->gc = gc > 0;
    out->debug = debug > 0;
    return 0;
}
