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

#include "base/log.h"
#include "heap/heap_source.h"
#include "live/live_scale.h"
#include "output/file_output.h"
#include "output/format.h"

/* The choices of heap_source=, live_scale= and format= are named by the floors that act on
 * them (heap_source.h, live_scale.h, format.h); HS_PATH_MAX by file_output.h. */
/* collapsed=: the one metric format=collapsed writes (the pprof sample type's name). */
typedef enum {
    HS_METRIC_ALLOC_SPACE = 0,
    HS_METRIC_ALLOC_OBJECTS,
    HS_METRIC_INUSE_SPACE,
    HS_METRIC_INUSE_OBJECTS
} hs_metric;

typedef enum { HS_PEAK_AUTO = 0, HS_PEAK_TRUE, HS_PEAK_FALSE } hs_peak;

typedef struct {
    int64_t interval;            /* interval=: mean bytes between samples; 0 = every allocation */
    bool interval_given;         /* interval= was in the option string (the control's lowest) */
    char file[HS_PATH_MAX];      /* file=: path pattern (%p pid, %t time written, %n seq, %%) */
    hs_log_level log;            /* log=error|warn|info|debug */
    bool help;                   /* help: print the options and exit */
    int32_t depth;               /* depth=: max frames per stack, 1..2048 */
    hs_format format;            /* format=pprof|collapsed|html */
    bool live;                   /* live=true|false: track liveness of sampled objects */
    int64_t track;               /* track=: capacity of the live tracking table */
    hs_heap_source heap_source;  /* heap_source=auto|vmstructs|gcinfo|none */
    hs_live_scale live_scale;    /* live_scale=residual|proportional */
    /* format=collapsed / format=html */
    hs_metric collapsed;         /* collapsed=alloc_space|alloc_objects|inuse_space|inuse_objects */
    int64_t memory;              /* memory=: bytes the agent's tables may use at most */
    /* profiles while the program runs (dumps.c) */
    bool oom;                    /* oom=true|false: a profile on Java-heap OutOfMemoryError */
    int64_t dump_period_ms;      /* dump_period=: periodic profiles; 0 = off */
    int64_t keep;                /* keep=: periodic files kept; 0 = all */
    hs_peak peak;                /* peak=auto|true|false: the peak live-heap profile */
    bool oom_paths;              /* oom_paths=true|false: retention paths with the OOM profile */
    int64_t paths_budget_ms;     /* paths_budget=: longest pause of a retention walk */
    /* rate cap (throttle.h) */
    int64_t rate;                /* rate=N/s or N/m: samples kept per period; 0 = no cap */
    int64_t rate_period_ns;      /* 1 s or 60 s */
    bool adapt_interval;         /* the cap raises and lowers the JVM's interval */
    bool survival;               /* the cap favours what survives (survival.h) */
    /* fidelity */
    bool raw_names;              /* names=raw: keep hidden-class addresses (default stable) */
    bool threads;                /* threads=true: string label "thread" on every sample */
    /* the HTTP endpoint (http_export.h) */
    bool http;                   /* http=[HOST:]PORT given (default off) */
    char http_host[256];         /* HOST, without IPv6 brackets; 127.0.0.1 when not given */
    int32_t http_port;           /* 0: any free port */
    char http_token_file[HS_PATH_MAX]; /* http_token=@FILE as given, '@' included ("": none) */
    /* push to Grafana Pyroscope (push_export.h; checks in pyroscope_ingest.h) */
    char push_url[1024];         /* push=URL ("": off) */
    int64_t push_period_ms;      /* push_period=: each profile's window, >= 1 s */
    int64_t push_timeout_ms;     /* push_timeout=: one request, at most (1 s to 60 s) */
    char service[257];           /* service= ("": the main class or jar, sun.java.command) */
    char push_labels[1024];      /* push_labels=k=v;k=v ("": none) */
    char push_tenant[257];       /* push_tenant= (X-Scope-OrgID; "": none) */
    char push_auth_file[HS_PATH_MAX]; /* push_auth=@FILE as given, '@' included ("": none) */
} hs_options;

/* "alloc_space" etc.: the pprof sample type a metric is written as. */
const char *hs_metric_name(hs_metric metric);

/* Whether the peak profile is written under these options (auto: when live=true). */
bool hs_options_peak_enabled(const hs_options *opts);

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

/* One row of the option table, as the help text, the startup errors and the reference
 * (docs/options.md, checked against `hs_reference`) all read it. */
typedef struct {
    const char *name;
    const char *default_text; /* NULL: a flag, given without a value (off until given) */
    const char *accepted;     /* what a bad value's error line says is accepted */
    const char *description;  /* one line of help */
} hs_option_info;

/* The rows of the option table, in the help's order: i from 0 while it returns true. */
bool hs_options_describe(size_t i, hs_option_info *out);

/* Writes opts back as an option string, for the profile's comments. */
size_t hs_options_format(const hs_options *opts, char *buf, size_t len);

/* Parses a size: digits with an optional k/m/g suffix (any case, powers of 1024).
 * Returns 0 and sets *out, or -1 for negatives, junk, empty text or overflow. */
int hs_parse_size(const char *text, int64_t *out);

/* Expands a file pattern: %p -> pid, %t -> `when` as YYYYmmdd-HHMMSS (local time),
 * %n -> seq (a dump's sequence number), %% -> '%'. Any other '%' sequence, or an
 * expansion longer than outlen - 1, fails: returns -1 with a reason in err; 0 on success. */
int hs_expand_file_pattern_n(const char *pattern, long pid, time_t when, unsigned long seq,
                             char *out, size_t outlen, char *err, size_t errlen);
/* The same with %n -> 0 (the startup check of the output directory). */
int hs_expand_file_pattern(const char *pattern, long pid, time_t start, char *out, size_t outlen,
                           char *err, size_t errlen);

/* Parses a duration: digits followed by ms, s, m or h ("500ms", "30s", "5m", "1h").
 * Returns 0 and sets *ms (milliseconds), or -1 (no unit, junk, negative, overflow). */
int hs_parse_duration_ms(const char *text, int64_t *ms);

/* Parses a retention walk's time budget (paths_budget=, and budget= of dump,paths=N): a
 * duration from 10ms to 60s. 0 and *ms, or -1 with why ("not a duration", "too long"). */
#define HS_PATHS_BUDGET_ACCEPTED "a duration from 10ms to 60s: digits with ms or s (200ms, 1s, 5s)"
int hs_parse_paths_budget(const char *text, int64_t *ms, char *why, size_t whylen);

#endif
