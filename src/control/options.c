/* options.c: the agent's option string, "key=value,key=value" (see options.h).
 *
 * Every option is one row of option_table below: its name, its default as text, what it
 * accepts (quoted in error messages and in the help), a one-line description, a parser
 * that writes the field and a function that shows the field as text again. Defaults are
 * set by parsing each row's default text, so the documented default is the real one.
 * Adding an option means adding a field to hs_options, two small functions and a row.
 *
 * Errors: parsing stops at the first bad item and reports exactly one message,
 *   bad option 'ITEM': <why>; accepted: <accepted>
 * where ITEM is the item as the user typed it. On failure the caller's hs_options is left
 * untouched: items are parsed into a copy that replaces it only when all were good.
 *
 * Nothing here allocates or keeps global state; everything is in fixed buffers. */
#include "control/options.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "export/pyroscope_ingest.h"
#include "base/text.h"

/* SetHeapSamplingInterval takes a jint. */
#define INTERVAL_MAX INT64_C(2147483647)
#define DEPTH_MIN 1
#define DEPTH_MAX 2048
#define TRACK_MIN 1
#define TRACK_MAX (INT64_C(16) * 1024 * 1024)

/* Items longer than this are abbreviated in error messages, so the reason still fits. */
#define QUOTED_ITEM_MAX 200

/* ---- Bounded text output, counting what did not fit (like snprintf) ------------------ */

static void text_init(hs_bounded *out, char *buf, size_t cap) {
    out->buf = buf;
    out->cap = buf ? cap : 0;
    out->need = 0;
    if (out->cap > 0) out->buf[0] = '\0';
}

/* ---- Numbers ------------------------------------------------------------------------ */

typedef enum { NUMBER_OK, NUMBER_EMPTY, NUMBER_JUNK, NUMBER_NEGATIVE, NUMBER_TOO_LARGE } number_status;

static int64_t suffix_multiplier(char c) {
    switch (c) {
    case 'k': case 'K': return INT64_C(1) << 10;
    case 'm': case 'M': return INT64_C(1) << 20;
    case 'g': case 'G': return INT64_C(1) << 30;
    default: return 0;
    }
}

/* Reads decimal digits, then (if allow_suffix) one k/m/g suffix; nothing else may follow.
 * A leading '-' before an otherwise valid number is reported as NUMBER_NEGATIVE. */
static number_status scan_number(const char *text, bool allow_suffix, int64_t *out) {
    if (text == NULL || text[0] == '\0') return NUMBER_EMPTY;
    bool negative = text[0] == '-';
    const char *p = negative ? text + 1 : text;
    if (*p < '0' || *p > '9') return NUMBER_JUNK;

    int64_t value = 0;
    bool overflow = false;
    for (; *p >= '0' && *p <= '9'; p++) {
        int digit = *p - '0';
        if (value > (INT64_MAX - digit) / 10) overflow = true; /* keep scanning: junk wins */
        else value = value * 10 + digit;
    }
    if (*p != '\0' && allow_suffix) {
        int64_t multiplier = suffix_multiplier(*p);
        if (multiplier == 0) return NUMBER_JUNK;
        p++;
        if (value > INT64_MAX / multiplier) overflow = true;
        else value *= multiplier;
    }
    if (*p != '\0') return NUMBER_JUNK;
    if (negative) return NUMBER_NEGATIVE;
    if (overflow) return NUMBER_TOO_LARGE;
    *out = value;
    return NUMBER_OK;
}

int hs_parse_size(const char *text, int64_t *out) {
    int64_t value;
    if (scan_number(text, true, &value) != NUMBER_OK) return -1;
    *out = value;
    return 0;
}

int hs_parse_duration_ms(const char *text, int64_t *ms) {
    static const struct {
        const char *unit;
        int64_t ms;
    } units[] = {{"ms", 1}, {"s", 1000}, {"m", 60 * 1000}, {"h", 60 * 60 * 1000}};
    if (text == NULL) return -1;
    size_t digits = strspn(text, "0123456789");
    if (digits == 0 || digits > 18) return -1; /* 18 digits cannot overflow int64 */
    int64_t value = 0;
    for (size_t i = 0; i < digits; i++) value = value * 10 + (text[i] - '0');
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(text + digits, units[i].unit) != 0) continue;
        if (value > INT64_MAX / units[i].ms) return -1;
        *ms = value * units[i].ms;
        return 0;
    }
    return -1;
}

/* Parses a number for an option and checks it against [min, max]; on failure writes why.
 * junk_why is what to call text that is not a number at all ("not a size"). */
static int parse_bounded(const char *value, bool allow_suffix, int64_t min, int64_t max,
                         const char *junk_why, int64_t *out, char *why, size_t whylen) {
    int64_t number = 0;
    const char *problem = NULL;
    switch (scan_number(value, allow_suffix, &number)) {
    case NUMBER_OK:
        if (number < min) problem = "too small";
        else if (number > max) problem = "too large";
        break;
    case NUMBER_EMPTY: problem = "empty value"; break;
    case NUMBER_JUNK: problem = junk_why; break;
    case NUMBER_NEGATIVE: problem = "negative"; break;
    case NUMBER_TOO_LARGE: problem = "too large"; break;
    }
    if (problem) {
        snprintf(why, whylen, "%s", problem);
        return -1;
    }
    *out = number;
    return 0;
}

/* ---- Named values (enums and booleans) ------------------------------------------------ */

static const char *const LOG_NAMES[] = {"error", "warn", "info", "debug"};
static const char *const FORMAT_NAMES[] = {"pprof", "collapsed", "html"};
static const char *const BOOL_NAMES[] = {"false", "true"};
static const char *const HEAP_SOURCE_NAMES[] = {"auto", "vmstructs", "gcinfo", "none"};
static const char *const LIVE_SCALE_NAMES[] = {"residual", "proportional"};
static const char *const METRIC_NAMES[] = {"alloc_space", "alloc_objects", "inuse_space",
                                           "inuse_objects"};
static const char *const PEAK_NAMES[] = {"auto", "true", "false"};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Returns the index of value in names (count entries), or -1 with why written. */
static int parse_choice(const char *value, const char *const *names, size_t count, char *why,
                        size_t whylen) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(value, names[i]) == 0) return (int)i;
    snprintf(why, whylen, "%s", value[0] ? "unknown value" : "empty value");
    return -1;
}

/* The name for index, guarding against a field that holds no valid value. */
static const char *choice_name(const char *const *names, size_t count, int index) {
    return index >= 0 && (size_t)index < count ? names[index] : "?";
}

/* ---- File patterns -------------------------------------------------------------------- */

/* Checks the escape starting at percent (which points at a '%'). */
static int check_escape(const char *percent, char *err, size_t errlen) {
    char c = percent[1];
    if (c == 'p' || c == 't' || c == 'n' || c == '%') return 0;
    if (c == '\0')
        snprintf(err, errlen, "a lone '%%' at the end (write %%%% for a '%%')");
    else
        snprintf(err, errlen, "unknown escape '%%%c' (use %%p, %%t, %%n or %%%%)", c);
    return -1;
}

static int check_file_pattern(const char *pattern, char *err, size_t errlen) {
    for (const char *p = strchr(pattern, '%'); p; p = strchr(p + 2, '%'))
        if (check_escape(p, err, errlen) != 0) return -1;
    return 0;
}

/* Appends len bytes to out at *used, keeping room for the final NUL. */
static int append_bytes(char *out, size_t outlen, size_t *used, const char *bytes, size_t len) {
    if (outlen == 0 || len > outlen - 1 - *used) return -1;
    memcpy(out + *used, bytes, len);
    *used += len;
    return 0;
}

static int format_time(time_t when, char *buf, size_t len) {
    struct tm tm;
    if (localtime_r(&when, &tm) == NULL) return -1;
    int n = snprintf(buf, len, "%04d%02d%02d-%02d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return n > 0 && (size_t)n < len ? n : -1;
}

int hs_expand_file_pattern(const char *pattern, long pid, time_t start, char *out, size_t outlen,
                           char *err, size_t errlen) {
    return hs_expand_file_pattern_n(pattern, pid, start, 0, out, outlen, err, errlen);
}

int hs_expand_file_pattern_n(const char *pattern, long pid, time_t when, unsigned long seq,
                             char *out, size_t outlen, char *err, size_t errlen) {
    if (errlen > 0) err[0] = '\0';
    if (check_file_pattern(pattern, err, errlen) != 0) return -1;

    size_t used = 0;
    for (const char *p = pattern; *p;) {
        char expansion[80];
        const char *piece = expansion;
        size_t piece_len;
        if (*p != '%') {
            piece = p;
            piece_len = strcspn(p, "%");
            p += piece_len;
        } else {
            int n = 0;
            if (p[1] == 'p') n = snprintf(expansion, sizeof expansion, "%ld", pid);
            else if (p[1] == 't') n = format_time(when, expansion, sizeof expansion);
            else if (p[1] == 'n') n = snprintf(expansion, sizeof expansion, "%lu", seq);
            else n = snprintf(expansion, sizeof expansion, "%%");
            if (n < 0) {
                snprintf(err, errlen, "cannot convert the time %lld for %%t", (long long)when);
                return -1;
            }
            piece_len = (size_t)n;
            p += 2;
        }
        if (append_bytes(out, outlen, &used, piece, piece_len) != 0) {
            snprintf(err, errlen, "the expanded file name is longer than %zu bytes",
                     outlen > 0 ? outlen - 1 : 0);
            if (outlen > 0) out[0] = '\0';
            return -1;
        }
    }
    if (outlen == 0) {
        snprintf(err, errlen, "no room for the file name");
        return -1;
    }
    out[used] = '\0';
    return 0;
}

/* ---- One parser and one "show" function per option ---------------------------------- */
/* A parser gets a non-empty NUL-terminated value (NULL for a flag) shorter than
 * HS_PATH_MAX; it returns 0, or -1 with the reason in why. A "show" function returns the
 * field as option text (it may use scratch), or NULL to leave the option out. */

static int parse_interval(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_bounded(value, true, 0, INTERVAL_MAX, "not a size", &opts->interval, why, whylen);
}

static const char *show_interval(const hs_options *opts, char *scratch, size_t len) {
    snprintf(scratch, len, "%lld", (long long)opts->interval);
    return scratch;
}

static int parse_file(const char *value, hs_options *opts, char *why, size_t whylen) {
    if (check_file_pattern(value, why, whylen) != 0) return -1;
    snprintf(opts->file, sizeof opts->file, "%s", value); /* fits: value < HS_PATH_MAX */
    return 0;
}

static const char *show_file(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return opts->file;
}

static int parse_log(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, LOG_NAMES, COUNT_OF(LOG_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->log = (hs_log_level)index;
    return 0;
}

static const char *show_log(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return choice_name(LOG_NAMES, COUNT_OF(LOG_NAMES), (int)opts->log);
}

static int parse_help(const char *value, hs_options *opts, char *why, size_t whylen) {
    (void)value;
    (void)why;
    (void)whylen;
    opts->help = true;
    return 0;
}

static const char *show_help(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return opts->help ? "" : NULL;
}

static int parse_depth(const char *value, hs_options *opts, char *why, size_t whylen) {
    int64_t depth;
    if (parse_bounded(value, false, DEPTH_MIN, DEPTH_MAX, "not a number", &depth, why, whylen) != 0)
        return -1;
    opts->depth = (int32_t)depth;
    return 0;
}

static const char *show_depth(const hs_options *opts, char *scratch, size_t len) {
    snprintf(scratch, len, "%ld", (long)opts->depth);
    return scratch;
}

static int parse_format(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, FORMAT_NAMES, COUNT_OF(FORMAT_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->format = (hs_format)index;
    return 0;
}

static const char *show_format(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return choice_name(FORMAT_NAMES, COUNT_OF(FORMAT_NAMES), (int)opts->format);
}

/* A true/false option: parse_FIELD and show_FIELD for the bool field FIELD. */
static int parse_bool(const char *value, bool *field, char *why, size_t whylen) {
    int index = parse_choice(value, BOOL_NAMES, COUNT_OF(BOOL_NAMES), why, whylen);
    if (index < 0) return -1;
    *field = index == 1;
    return 0;
}

#define BOOL_OPTION(field)                                                                    \
    static int parse_##field(const char *value, hs_options *opts, char *why, size_t whylen) { \
        return parse_bool(value, &opts->field, why, whylen);                                  \
    }                                                                                         \
    static const char *show_##field(const hs_options *opts, char *scratch, size_t len) {      \
        (void)scratch;                                                                        \
        (void)len;                                                                            \
        return BOOL_NAMES[opts->field ? 1 : 0];                                               \
    }

BOOL_OPTION(live)

static int parse_track(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_bounded(value, true, TRACK_MIN, TRACK_MAX, "not a number", &opts->track, why,
                         whylen);
}

static const char *show_track(const hs_options *opts, char *scratch, size_t len) {
    snprintf(scratch, len, "%lld", (long long)opts->track);
    return scratch;
}

static int parse_heap_source(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, HEAP_SOURCE_NAMES, COUNT_OF(HEAP_SOURCE_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->heap_source = (hs_heap_source)index;
    return 0;
}

static const char *show_heap_source(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return choice_name(HEAP_SOURCE_NAMES, COUNT_OF(HEAP_SOURCE_NAMES), (int)opts->heap_source);
}

static int parse_live_scale(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, LIVE_SCALE_NAMES, COUNT_OF(LIVE_SCALE_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->live_scale = (hs_live_scale)index;
    return 0;
}

static const char *show_live_scale(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return choice_name(LIVE_SCALE_NAMES, COUNT_OF(LIVE_SCALE_NAMES), (int)opts->live_scale);
}

/* format=collapsed / format=html */
const char *hs_metric_name(hs_metric metric) {
    return choice_name(METRIC_NAMES, COUNT_OF(METRIC_NAMES), (int)metric);
}

static int parse_collapsed(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, METRIC_NAMES, COUNT_OF(METRIC_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->collapsed = (hs_metric)index;
    return 0;
}

static const char *show_collapsed(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return hs_metric_name(opts->collapsed);
}

static bool is_inuse_metric(hs_metric metric) {
    return metric == HS_METRIC_INUSE_SPACE || metric == HS_METRIC_INUSE_OBJECTS;
}

/* ---- memory= (the agent's one memory budget; see budget.h) ----------------------------- */

#define MEMORY_MIN (INT64_C(4) << 20)
#define MEMORY_MAX (INT64_C(64) << 30)

static int parse_memory(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_bounded(value, true, MEMORY_MIN, MEMORY_MAX, "not a size", &opts->memory, why,
                         whylen);
}

static const char *show_memory(const hs_options *opts, char *scratch, size_t len) {
    if (opts->memory % (1 << 20) == 0) snprintf(scratch, len, "%lldm", (long long)(opts->memory >> 20));
    else snprintf(scratch, len, "%lld", (long long)opts->memory);
    return scratch;
}

/* ---- Profiles while the program runs (dumps.c) ------------------------------------------ */

#define DUMP_PERIOD_MIN_MS INT64_C(100)
#define DUMP_PERIOD_MAX_MS (INT64_C(30) * 24 * 3600 * 1000)
#define KEEP_MAX INT64_C(1000000)

BOOL_OPTION(oom)

static int parse_dump_period(const char *value, hs_options *opts, char *why, size_t whylen) {
    int64_t ms = 0;
    if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0) {
        opts->dump_period_ms = 0;
        return 0;
    }
    if (hs_parse_duration_ms(value, &ms) != 0) {
        snprintf(why, whylen, "not a duration");
        return -1;
    }
    if (ms < DUMP_PERIOD_MIN_MS || ms > DUMP_PERIOD_MAX_MS) {
        snprintf(why, whylen, ms < DUMP_PERIOD_MIN_MS ? "too short" : "too long");
        return -1;
    }
    opts->dump_period_ms = ms;
    return 0;
}

/* A duration as hs_parse_duration_ms reads it back: "1500ms", "30s". */
static const char *show_duration(int64_t ms, char *scratch, size_t len) {
    if (ms % 1000 != 0) snprintf(scratch, len, "%lldms", (long long)ms);
    else snprintf(scratch, len, "%llds", (long long)(ms / 1000));
    return scratch;
}

static const char *show_dump_period(const hs_options *opts, char *scratch, size_t len) {
    if (opts->dump_period_ms == 0) return "off";
    return show_duration(opts->dump_period_ms, scratch, len);
}

static int parse_keep(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_bounded(value, false, 0, KEEP_MAX, "not a number", &opts->keep, why, whylen);
}

static const char *show_keep(const hs_options *opts, char *scratch, size_t len) {
    snprintf(scratch, len, "%lld", (long long)opts->keep);
    return scratch;
}

static int parse_peak(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, PEAK_NAMES, COUNT_OF(PEAK_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->peak = (hs_peak)index;
    return 0;
}

static const char *show_peak(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return choice_name(PEAK_NAMES, COUNT_OF(PEAK_NAMES), (int)opts->peak);
}

BOOL_OPTION(oom_paths)

/* paths_budget= (retention.h): the longest stop-the-world pause of a retention walk. */
#define PATHS_BUDGET_MIN_MS INT64_C(10)
#define PATHS_BUDGET_MAX_MS INT64_C(60000)

int hs_parse_paths_budget(const char *text, int64_t *ms, char *why, size_t whylen) {
    int64_t value;
    if (hs_parse_duration_ms(text, &value) != 0) {
        snprintf(why, whylen, "not a duration");
        return -1;
    }
    if (value < PATHS_BUDGET_MIN_MS || value > PATHS_BUDGET_MAX_MS) {
        snprintf(why, whylen, value < PATHS_BUDGET_MIN_MS ? "too short" : "too long");
        return -1;
    }
    *ms = value;
    return 0;
}

static int parse_paths_budget(const char *value, hs_options *opts, char *why, size_t whylen) {
    return hs_parse_paths_budget(value, &opts->paths_budget_ms, why, whylen);
}

static const char *show_paths_budget(const hs_options *opts, char *scratch, size_t len) {
    return show_duration(opts->paths_budget_ms, scratch, len);
}

bool hs_options_peak_enabled(const hs_options *opts) {
    return opts->live && opts->peak != HS_PEAK_FALSE;
}

/* rate cap (throttle.h): "N/s", "N/m", or 0 for no cap. */
#define RATE_MAX INT64_C(1000000)
#define NANOS_PER_SECOND INT64_C(1000000000)

static int parse_rate(const char *value, hs_options *opts, char *why, size_t whylen) {
    char number[32];
    const char *slash = strchr(value, '/');
    size_t digits = slash ? (size_t)(slash - value) : strlen(value);
    int64_t period = NANOS_PER_SECOND;
    if (slash && strcmp(slash, "/m") == 0) period = 60 * NANOS_PER_SECOND;
    else if (slash && strcmp(slash, "/s") != 0) {
        snprintf(why, whylen, "unknown unit '%s'", slash);
        return -1;
    }
    if (digits >= sizeof number) digits = sizeof number - 1; /* too long: fails as too large */
    memcpy(number, value, digits);
    number[digits] = '\0';
    int64_t rate;
    if (parse_bounded(number, false, 0, RATE_MAX, "not a number", &rate, why, whylen) != 0) return -1;
    if (rate > 0 && !slash) {
        snprintf(why, whylen, "missing unit /s or /m");
        return -1;
    }
    opts->rate = rate;
    opts->rate_period_ns = period;
    return 0;
}

static const char *show_rate(const hs_options *opts, char *scratch, size_t len) {
    if (opts->rate == 0) return "0";
    snprintf(scratch, len, "%lld/%s", (long long)opts->rate,
             opts->rate_period_ns == 60 * NANOS_PER_SECOND ? "m" : "s");
    return scratch;
}

/* ---- The table ------------------------------------------------------------------------ */

/* ---- Fidelity: stable names, thread labels ------------------------------------------ */

static const char *const NAMES_NAMES[] = {"stable", "raw"};

static int parse_names(const char *value, hs_options *opts, char *why, size_t whylen) {
    int index = parse_choice(value, NAMES_NAMES, COUNT_OF(NAMES_NAMES), why, whylen);
    if (index < 0) return -1;
    opts->raw_names = index == 1;
    return 0;
}

static const char *show_names(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return NAMES_NAMES[opts->raw_names ? 1 : 0];
}

BOOL_OPTION(threads)
BOOL_OPTION(adapt_interval)
BOOL_OPTION(survival)

/* ---- The HTTP endpoint: http=[HOST:]PORT, http_token=@FILE -------------------------- */

#define HTTP_DEFAULT_HOST "127.0.0.1"
#define HTTP_PORT_MAX 65535

/* Splits "[HOST:]PORT" ("[v6]:PORT" for an IPv6 address) into host and port text. */
static int split_host_port(const char *value, char *host, size_t hostlen, const char **port,
                           char *why, size_t whylen) {
    const char *colon = strrchr(value, ':');
    const char *host_start = value, *host_end = colon;
    if (!colon) {
        snprintf(host, hostlen, "%s", HTTP_DEFAULT_HOST);
        *port = value;
        return 0;
    }
    if (value[0] == '[') { /* [::1]:8080 */
        if (colon == value || colon[-1] != ']') {
            snprintf(why, whylen, "an IPv6 address goes in brackets: [::1]:PORT");
            return -1;
        }
        host_start = value + 1;
        host_end = colon - 1;
    } else if (memchr(value, ':', (size_t)(colon - value))) {
        snprintf(why, whylen, "an IPv6 address goes in brackets: [::1]:PORT");
        return -1;
    }
    size_t len = (size_t)(host_end - host_start);
    if (len == 0 || len >= hostlen) {
        snprintf(why, whylen, len ? "host name too long" : "empty host");
        return -1;
    }
    memcpy(host, host_start, len);
    host[len] = '\0';
    *port = colon + 1;
    return 0;
}

static int parse_http(const char *value, hs_options *opts, char *why, size_t whylen) {
    if (strcmp(value, "off") == 0) {
        opts->http = false;
        return 0;
    }
    char host[sizeof opts->http_host];
    const char *port_text;
    int64_t port;
    if (split_host_port(value, host, sizeof host, &port_text, why, whylen) != 0 ||
        parse_bounded(port_text, false, 0, HTTP_PORT_MAX, "not a port number", &port, why,
                      whylen) != 0)
        return -1;
    opts->http = true;
    snprintf(opts->http_host, sizeof opts->http_host, "%s", host);
    opts->http_port = (int32_t)port;
    return 0;
}

static const char *show_http(const hs_options *opts, char *scratch, size_t len) {
    if (!opts->http) return "off";
    bool v6 = strchr(opts->http_host, ':') != NULL;
    snprintf(scratch, len, "%s%s%s:%d", v6 ? "[" : "", opts->http_host, v6 ? "]" : "",
             (int)opts->http_port);
    return scratch;
}

static int parse_http_token(const char *value, hs_options *opts, char *why, size_t whylen) {
    if (strcmp(value, "none") == 0) {
        opts->http_token_file[0] = '\0';
        return 0;
    }
    if (value[0] != '@' || value[1] == '\0') {
        snprintf(why, whylen, "not @FILE (the token itself would show in the process list "
                 "and the logs)");
        return -1;
    }
    snprintf(opts->http_token_file, sizeof opts->http_token_file, "%s", value); /* with '@' */
    return 0;
}

/* "@FILE": the file's name, never its content. */
static const char *show_http_token(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch;
    (void)len;
    return opts->http_token_file[0] ? opts->http_token_file : "none";
}

/* ---- Push to Pyroscope: push=, push_period=, service=, push_labels=, push_tenant=,
 * push_auth= (the values' rules are the wire format's: pyroscope_ingest.h) ---------- */

#define PUSH_PERIOD_MIN_MS 1000
#define PUSH_PERIOD_MAX_MS (3600 * 1000) /* the ingester refuses windows older than ~1 h */

/* A text option: "none" (or "auto" for service=) clears it, else check() must accept it. */
static int parse_text(const char *value, const char *unset, char *field, size_t size,
                      int (*check)(const char *, char *, size_t), char *why, size_t whylen) {
    if (strcmp(value, unset) == 0) {
        field[0] = '\0';
        return 0;
    }
    if (strlen(value) >= size) {
        snprintf(why, whylen, "too long");
        return -1;
    }
    if (check && check(value, why, whylen) != 0) return -1;
    snprintf(field, size, "%s", value);
    return 0;
}

static int parse_push(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_text(value, "off", opts->push_url, sizeof opts->push_url,
                      hs_pyroscope_check_url, why, whylen);
}

static const char *show_push(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch, (void)len;
    return opts->push_url[0] ? opts->push_url : "off";
}

static int parse_push_period(const char *value, hs_options *opts, char *why, size_t whylen) {
    int64_t ms = 0;
    if (hs_parse_duration_ms(value, &ms) != 0) {
        snprintf(why, whylen, "not a duration");
        return -1;
    }
    if (ms < PUSH_PERIOD_MIN_MS || ms > PUSH_PERIOD_MAX_MS) {
        snprintf(why, whylen, ms < PUSH_PERIOD_MIN_MS ? "too short" : "too long");
        return -1;
    }
    opts->push_period_ms = ms;
    return 0;
}

static const char *show_push_period(const hs_options *opts, char *scratch, size_t len) {
    return show_duration(opts->push_period_ms, scratch, len);
}

static int parse_service(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_text(value, "auto", opts->service, sizeof opts->service,
                      hs_pyroscope_check_service, why, whylen);
}

static const char *show_service(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch, (void)len;
    return opts->service[0] ? opts->service : "auto";
}

static int parse_push_labels(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_text(value, "none", opts->push_labels, sizeof opts->push_labels,
                      hs_pyroscope_check_labels, why, whylen);
}

static const char *show_push_labels(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch, (void)len;
    return opts->push_labels[0] ? opts->push_labels : "none";
}

static int parse_push_tenant(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_text(value, "none", opts->push_tenant, sizeof opts->push_tenant,
                      hs_pyroscope_check_tenant, why, whylen);
}

static const char *show_push_tenant(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch, (void)len;
    return opts->push_tenant[0] ? opts->push_tenant : "none";
}

/* "@FILE" (the credentials themselves would show in the process list and the logs). */
static int check_at_file(const char *value, char *why, size_t whylen) {
    if (value[0] == '@' && value[1] != '\0') return 0;
    snprintf(why, whylen, "not @FILE (the credentials themselves would show in the process "
             "list and the logs)");
    return -1;
}

static int parse_push_auth(const char *value, hs_options *opts, char *why, size_t whylen) {
    return parse_text(value, "none", opts->push_auth_file, sizeof opts->push_auth_file,
                      check_at_file, why, whylen);
}

/* "@FILE": the file's name, never its content. */
static const char *show_push_auth(const hs_options *opts, char *scratch, size_t len) {
    (void)scratch, (void)len;
    return opts->push_auth_file[0] ? opts->push_auth_file : "none";
}

typedef struct {
    const char *name;
    const char *default_text; /* NULL: a flag, given without a value */
    const char *accepted;     /* quoted after "accepted:" and in the help */
    const char *description;  /* one line for the help */
    int (*parse)(const char *value, hs_options *opts, char *why, size_t whylen);
    const char *(*show)(const hs_options *opts, char *scratch, size_t len);
} option_row;

static const option_row option_table[] = {
    {"interval", "512k",
     "a size in bytes from 0 to 2147483647, with an optional k, m or g suffix (powers of 1024)",
     "mean number of bytes allocated between two samples; 0 samples every allocation",
     parse_interval, show_interval},
    {"file", "heapsampler-%p.pb.gz",
     "a non-empty path pattern shorter than 4096 bytes, without commas; "
     "%p = pid, %t = time the file is written, %n = dump sequence number, %% = '%'",
     "where the profile is written (a path pattern, see below)", parse_file, show_file},
    {"log", "warn", "error, warn, info, debug", "how much the agent reports on stderr", parse_log,
     show_log},
    {"help", NULL, "no value (write just 'help')", "print this help and exit", parse_help,
     show_help},
    {"depth", "1024", "a whole number of frames from 1 to 2048",
     "maximum number of frames kept per stack; deeper stacks are truncated", parse_depth,
     show_depth},
    {"format", "pprof", "pprof, collapsed, html",
     "output format: gzipped pprof, collapsed stacks (text, for flame graphs), or a "
     "self-contained HTML flame graph", parse_format, show_format},
    {"live", "true", "true, false",
     "track which sampled objects are still alive, for the live heap profile", parse_live,
     show_live},
    {"track", "65536",
     "a number of entries from 1 to 16777216, with an optional k or m suffix (powers of 1024)",
     "capacity of the live tracking table (sampled objects tracked at once)", parse_track,
     show_track},
    {"heap_source", "auto", "auto, vmstructs, gcinfo, none",
     "where the heap size after the last GC is read, to scale the live estimate "
     "(none: leave it unscaled)",
     parse_heap_source, show_heap_source},
    {"live_scale", "residual", "residual, proportional",
     "how the live estimate is fitted to the measured heap size", parse_live_scale,
     show_live_scale},
    /* format=collapsed / format=html */
    {"collapsed", "alloc_space", "alloc_space, alloc_objects, inuse_space, inuse_objects",
     "the metric format=collapsed writes (inuse_* need live=true)", parse_collapsed,
     show_collapsed},
    /* memory budget (issue 9) */
    {"memory", "64m",
     "a size in bytes from 4m to 64g, with an optional k, m or g suffix (powers of 1024)",
     "native memory the agent's tables may use at most (stacks, symbols, samples, live table, "
     "profile building); track= must fit in half of it",
     parse_memory, show_memory},
    /* profiles while the program runs (dumps.c) */
    {"oom", "true", "true, false",
     "write a profile (file name with -oom) when the Java heap runs out (OutOfMemoryError)",
     parse_oom, show_oom},
    {"dump_period", "off",
     "off, or a duration from 100ms to 30 days: digits with ms, s, m or h (500ms, 30s, 5m, 1h)",
     "write a profile every period; its allocation values cover that period only",
     parse_dump_period, show_dump_period},
    {"keep", "0", "a whole number from 0 to 1000000 (0 keeps all)",
     "how many periodic profiles to keep; older ones this run wrote are deleted", parse_keep,
     show_keep},
    {"peak", "auto", "auto, true, false (true needs live=true; auto means live=true)",
     "write the in-use profile of the GC with the highest heap (file name with -peak)",
     parse_peak, show_peak},
    {"oom_paths", "false", "true, false (true needs live=true)",
     "with the OOM profile, also write the reference chains that keep its largest in-use "
     "sites alive (file name with -paths; a heap walk, each pause within paths_budget=)",
     parse_oom_paths, show_oom_paths},
    {"paths_budget", "1s", HS_PATHS_BUDGET_ACCEPTED,
     "longest pause (stop-the-world) of a retention walk: oom_paths=true, and dump,paths=N "
     "unless it gives budget=",
     parse_paths_budget, show_paths_budget},
    /* rate cap (throttle.h) */
    {"rate", "1000/s", "0 (no cap), or N/s or N/m with N from 1 to 1000000",
     "most samples kept per second (or minute); the kept ones are weighted, so estimates "
     "stay unbiased",
     parse_rate, show_rate},
    {"adapt_interval", "true", "true, false",
     "under the rate cap, raise the JVM's sampling interval while the cap keeps under a "
     "quarter of its samples, and lower it again (never below interval=) when they drop: "
     "fewer samples the JVM pays for only to have them dropped; estimates stay unbiased",
     parse_adapt_interval, show_adapt_interval},
    {"survival", "true", "true, false",
     "under the rate cap with live=true, keep samples of the classes and sizes whose objects "
     "were seen to survive their first GCs up to 8 times more often than the rest (learned as "
     "the run goes; every sample weighs the inverse of its own probability, so estimates stay "
     "unbiased): a more precise live heap for the same kept rate",
     parse_survival, show_survival},
    /* fidelity */
    {"names", "stable", "stable, raw",
     "stable: hidden-class addresses and lambda counters dropped from names, so runs line up; "
     "raw: names exactly as the JVM gives them",
     parse_names, show_names},
    {"threads", "false", "true, false",
     "label each sample with its Java thread's name (string label 'thread')", parse_threads,
     show_threads},
    /* the HTTP endpoint (http_export.h) */
    {"http", "off", "off, or [HOST:]PORT with PORT from 0 (any free port) to 65535; HOST "
     "defaults to 127.0.0.1 ([::1] for IPv6); a non-loopback HOST needs http_token=",
     "serve /debug/pprof/heap, /debug/pprof/allocs and /flamegraph over HTTP, as Go programs "
     "do, for go tool pprof, Grafana Alloy or Parca to scrape", parse_http, show_http},
    {"http_token", "none", "none, or @FILE: a file holding the bearer token",
     "clients of http= must send 'Authorization: Bearer <token>'", parse_http_token,
     show_http_token},
    /* push to Grafana Pyroscope (push_export.h) */
    {"push", "off", "off, or an http:// or https:// URL without credentials, query or commas",
     "push a profile of every push_period= window to Grafana Pyroscope's ingest API "
     "(POST URL/ingest; needs libcurl, Debian package libcurl4)", parse_push, show_push},
    {"push_period", "15s", "a duration from 1s to 1h: digits with ms, s, m or h (1s, 15s, 1m)",
     "the window each pushed profile covers (its allocation values are that window's)",
     parse_push_period, show_push_period},
    {"service", "auto", "auto (the main class or jar), or a name of printable ASCII without "
     "spaces, {, }, =, \", ',' or ';'",
     "the service name pushed profiles are stored under", parse_service, show_service},
    {"push_labels", "none", "none, or k=v;k=v with Prometheus label names "
     "([a-zA-Z_][a-zA-Z0-9_]*, not __*) and values without spaces, {, }, =, ',' or \"",
     "static labels of every pushed profile's series", parse_push_labels, show_push_labels},
    {"push_tenant", "none", "none, or printable ASCII without spaces",
     "the tenant of a multi-tenant server (header X-Scope-OrgID)", parse_push_tenant,
     show_push_tenant},
    {"push_auth", "none", "none, or @FILE: a file holding user:token (basic) or a token "
     "(bearer)", "credentials of push=, never logged or shown", parse_push_auth,
     show_push_auth},
};

#define OPTION_COUNT COUNT_OF(option_table)

static bool is_flag(const option_row *row) { return row->default_text == NULL; }

static const option_row *find_option(const char *key, size_t key_len) {
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const char *name = option_table[i].name;
        if (strlen(name) == key_len && memcmp(name, key, key_len) == 0) return &option_table[i];
    }
    return NULL;
}

/* "interval, file, log, ...": what an unknown or empty key is told is accepted. */
static void write_key_list(char *buf, size_t len) {
    hs_bounded out;
    text_init(&out, buf, len);
    for (size_t i = 0; i < OPTION_COUNT; i++)
        hs_bounded_printf(&out, "%s%s", i ? ", " : "", option_table[i].name);
}

void hs_options_defaults(hs_options *opts) {
    memset(opts, 0, sizeof *opts);
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const option_row *row = &option_table[i];
        char why[256];
        /* Flags default to off (the memset). Every default text parses: the tests check
         * that the fields end up with the documented values. */
        if (!is_flag(row)) (void)row->parse(row->default_text, opts, why, sizeof why);
    }
}

/* ---- Parsing the option string ----------------------------------------------------- */

/* Writes the one error message for item (item_len bytes as the user typed them). */
static int reject(const char *item, size_t item_len, const char *why, const char *accepted,
                  char *err, size_t errlen) {
    int shown = item_len > QUOTED_ITEM_MAX ? QUOTED_ITEM_MAX : (int)item_len;
    snprintf(err, errlen, "bad option '%.*s%s': %s; accepted: %s", shown, item,
             item_len > QUOTED_ITEM_MAX ? "..." : "", why, accepted);
    return -1;
}

static int reject_key(const char *item, size_t item_len, const char *why, char *err,
                      size_t errlen) {
    char keys[512];
    write_key_list(keys, sizeof keys);
    return reject(item, item_len, why, keys, err, errlen);
}

/* Parses one item, "key=value" or a flag's "key", into opts. seen[] marks options given. */
static int parse_item(const char *item, size_t item_len, hs_options *opts, bool *seen, char *err,
                      size_t errlen) {
    const char *equals = memchr(item, '=', item_len);
    size_t key_len = equals ? (size_t)(equals - item) : item_len;
    if (key_len == 0) return reject_key(item, item_len, "empty option name", err, errlen);

    const option_row *row = find_option(item, key_len);
    if (row == NULL) return reject_key(item, item_len, "unknown option", err, errlen);
    size_t index = (size_t)(row - option_table);
    if (seen[index]) return reject(item, item_len, "given twice", row->accepted, err, errlen);
    seen[index] = true;

    char why[256];
    if (is_flag(row)) {
        if (equals) return reject(item, item_len, "takes no value", row->accepted, err, errlen);
        return row->parse(NULL, opts, why, sizeof why);
    }
    if (!equals) return reject(item, item_len, "missing value", row->accepted, err, errlen);

    size_t value_len = item_len - key_len - 1;
    if (value_len == 0) return reject(item, item_len, "empty value", row->accepted, err, errlen);
    if (value_len >= HS_PATH_MAX)
        return reject(item, item_len, "too long", row->accepted, err, errlen);
    char value[HS_PATH_MAX];
    memcpy(value, equals + 1, value_len);
    value[value_len] = '\0';

    if (row->parse(value, opts, why, sizeof why) != 0)
        return reject(item, item_len, why, row->accepted, err, errlen);
    return 0;
}

/* Options that are each valid but contradict each other. */
static int check_combination(const hs_options *opts, char *err, size_t errlen) {
    if (!opts->live && is_inuse_metric(opts->collapsed)) { /* format=collapsed / format=html */
        char item[64];
        int n = snprintf(item, sizeof item, "collapsed=%s", hs_metric_name(opts->collapsed));
        return reject(item, (size_t)n, "an in-use metric needs live=true (live=false was given)",
                      "alloc_space, alloc_objects with live=false", err, errlen);
    }
    if (opts->peak == HS_PEAK_TRUE && !opts->live) /* an in-use view needs live tracking */
        return reject("peak=true", 9, "needs live=true", find_option("peak", 4)->accepted, err,
                      errlen);
    if (opts->http_token_file[0] && !opts->http) /* a token guards the endpoint */
        return reject("http_token", 10, "needs http=", find_option("http_token", 10)->accepted,
                      err, errlen);
    static const char *const push_options[] = {"push_labels", "push_tenant", "push_auth"};
    const char *const push_values[] = {opts->push_labels, opts->push_tenant, opts->push_auth_file};
    for (size_t i = 0; i < COUNT_OF(push_options) && !opts->push_url[0]; i++)
        if (push_values[i][0]) /* they describe what push= sends */
            return reject(push_options[i], strlen(push_options[i]), "needs push=",
                          find_option(push_options[i], strlen(push_options[i]))->accepted,
                          err, errlen);
    if (opts->oom_paths && !opts->live) /* paths are sought for tracked objects */
        return reject("oom_paths=true", 14, "needs live=true",
                      find_option("oom_paths", 9)->accepted, err, errlen);
    return 0;
}

int hs_options_parse(const char *text, hs_options *opts, char *err, size_t errlen) {
    if (errlen > 0) err[0] = '\0';
    if (text == NULL || text[0] == '\0') return 0;

    hs_options parsed = *opts; /* committed only when every item is good */
    bool seen[OPTION_COUNT] = {false};
    const char *item = text;
    for (;;) {
        size_t item_len = strcspn(item, ",");
        if (parse_item(item, item_len, &parsed, seen, err, errlen) != 0) return -1;
        if (item[item_len] == '\0') break;
        item += item_len + 1; /* a trailing comma leaves an empty last item: rejected */
    }
    if (check_combination(&parsed, err, errlen) != 0) return -1;
    *opts = parsed;
    return 0;
}

/* ---- Writing options back, and the help ------------------------------------------------ */

size_t hs_options_format(const hs_options *opts, char *buf, size_t len) {
    hs_bounded out;
    text_init(&out, buf, len);
    const char *separator = "";
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const option_row *row = &option_table[i];
        char scratch[300]; /* the longest shown value: http=[HOST]:PORT, HOST < 256 bytes */
        const char *value = row->show(opts, scratch, sizeof scratch);
        if (value == NULL) continue;
        if (is_flag(row)) hs_bounded_printf(&out, "%s%s", separator, row->name);
        else hs_bounded_printf(&out, "%s%s=%s", separator, row->name, value);
        separator = ",";
    }
    return out.need;
}

bool hs_options_describe(size_t i, hs_option_info *out) {
    if (i >= OPTION_COUNT) return false;
    const option_row *row = &option_table[i];
    *out = (hs_option_info){.name = row->name, .default_text = row->default_text,
                            .accepted = row->accepted, .description = row->description};
    return true;
}

size_t hs_options_help(char *buf, size_t len) {
    hs_bounded out;
    text_init(&out, buf, len);
    hs_bounded_printf(&out,
                "heapsampler: a sampling heap profiler for the JVM.\n"
                "Usage: -agentpath:/path/to/libheapsampler.so[=key=value,key=value,...]\n"
                "\n"
                "Options:\n");
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const option_row *row = &option_table[i];
        hs_bounded_printf(&out, "  %-12s %s\n", row->name, row->description);
        hs_bounded_printf(&out, "  %-12s accepted: %s\n", "", row->accepted);
        hs_bounded_printf(&out, "  %-12s default: %s\n", "", is_flag(row) ? "off" : row->default_text);
    }
    hs_bounded_printf(&out,
                "\n"
                "In file=, %%p is replaced by the process id, %%t by the time the file is written\n"
                "(YYYYmmdd-HHMMSS, local time), %%n by the dump's sequence number and %%%% by a '%%';\n"
                "any other '%%' is an error. OutOfMemoryError and peak profiles get -oom and -peak\n"
                "before the extension; periodic ones -<n> when the pattern has neither %%n nor %%t. Options are separated by "
                "commas, so the path cannot hold one.\n"
                "\n"
                "Example:\n"
                "  java -agentpath:/opt/heapsampler/libheapsampler.so=interval=256k,"
                "file=/tmp/heap-%%p-%%t.pb.gz,log=info -jar app.jar\n");
    return out.need;
}
