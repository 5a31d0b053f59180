/* options.h: the agent's option string ("key=value,key=value"), parsed into hs_options.
 *
 * Pure C, no JVM: every option is one row of a table in options.c (name, default,
 * what is accepted, parser), so adding an option is adding a row and a field here. */
#ifndef HS_OPTIONS_H
#define HS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "log.h"

#define HS_PATH_MAX 4096

typedef enum { HS_FORMAT_PPROF = 0, HS_FORMAT_COLLAPSED } hs_format;
typedef enum { HS_HEAP_AUTO = 0, HS_HEAP_VMSTRUCTS, HS_HEAP_GCINFO, HS_HEAP_NONE } hs_heap_source;
typedef enum { HS_SCALE_RESIDUAL = 0, HS_SCALE_PROPORTIONAL } hs_live_scale;

typedef struct {
    int64_t interval;            /* interval=: mean bytes between samples; 0 = every allocation */
    char file[HS_PATH_MAX];      /* file=: output path pattern (%p pid, %t start time, %% a '%') */
    hs_log_level log;            /* log=error|warn|info|debug */
    bool help;                   /* help: print the options and exit */
    int32_t depth;               /* depth=: max frames per stack, 1..2048 */
    hs_format format;            /* format=pprof|collapsed */
    bool live;                   /* live=true|false: track liveness of sampled objects */
    int64_t track;               /* track=: capacity of the live tracking table */
    hs_heap_source heap_source;  /* heap_source=auto|vmstructs|gcinfo|none */
    hs_live_scale live_scale;    /* live_scale=residual|proportional */
    /* fidelity */
    bool raw_names;              /* names=raw: keep hidden-class addresses (default stable) */
    bool threads;                /* threads=true: string label "thread" on every sample */
} hs_options;

/* Fills every field with its documented default. */
void hs_options_defaults(hs_options *opts);

/* Parses text (may be NULL or empty: all defaults) over the defaults already in opts.
 * Returns 0 on success. On failure returns -1 and writes into err (NUL-terminated)
 *   bad option 'KEY=VALUE': <why>; accepted: <what the option accepts>
 * (for an unknown key, "accepted:" lists the known keys). */
int hs_options_parse(const char *text, hs_options *opts, char *err, size_t errlen);

/* Writes the help text (every option, its default and accepted range) into buf.
 * Returns the length it needed (like snprintf). */
size_t hs_options_help(char *buf, size_t len);

/* Writes opts back as an option string, for the profile's comments. */
size_t hs_options_format(const hs_options *opts, char *buf, size_t len);

/* Parses a size: digits with an optional k/m/g suffix (any case, powers of 1024).
 * Returns 0 and sets *out, or -1 for negatives, junk, empty text or overflow. */
int hs_parse_size(const char *text, int64_t *out);

/* Expands a file pattern: %p -> pid, %t -> start time as YYYYmmdd-HHMMSS (local time),
 * %% -> '%'. Any other '%' sequence, or an expansion longer than outlen - 1, fails:
 * returns -1 with a reason in err; 0 on success. */
int hs_expand_file_pattern(const char *pattern, long pid, time_t start, char *out, size_t outlen,
                           char *err, size_t errlen);

#endif
