/* test_options.c: the option string parser, the help text and formatting (options.c).
 *
 * Error messages are user interface: several are asserted word for word. */
#include <stdio.h>
#include <string.h>

#include "control/options.h"
#include "unit.h"

#define INTERVAL_ACCEPTED \
    "a size in bytes from 0 to 2147483647, with an optional k, m or g suffix (powers of 1024)"
#define KEYS_ACCEPTED \
    "interval, file, log, help, depth, format, live, track, heap_source, live_scale, collapsed, " \
    "memory, oom, dump_period, keep, peak, oom_paths, paths_budget, rate, adapt_interval, survival, names, " \
    "threads, http, http_token, push, push_period, service, push_labels, push_tenant, push_auth"
#define DEPTH_ACCEPTED "a whole number of frames from 1 to 2048"
#define TRACK_ACCEPTED \
    "a number of entries from 1 to 16777216, with an optional k or m suffix (powers of 1024)"
#define DEFAULTS_FORMATTED                                                                   \
    "interval=524288,file=heapsampler-%p.pb.gz,log=warn,depth=1024,format=pprof,live=true," \
    "track=65536,heap_source=auto,live_scale=residual,collapsed=alloc_space,memory=64m,oom=true," \
    "dump_period=off,keep=0,peak=auto,oom_paths=false,paths_budget=1s,rate=1000/s,"            \
    "adapt_interval=true,survival=true,names=stable,threads=false,http=off,http_token=none,"    \
    "push=off,push_period=15s,service=auto,push_labels=none,push_tenant=none,push_auth=none"

/* ---- Helpers ---------------------------------------------------------------------------- */

static void assert_options_equal(const hs_options *a, const hs_options *b) {
    CU_ASSERT_EQUAL(a->interval, b->interval);
    CU_ASSERT_STRING_EQUAL(a->file, b->file);
    CU_ASSERT_EQUAL(a->log, b->log);
    CU_ASSERT_EQUAL(a->help, b->help);
    CU_ASSERT_EQUAL(a->depth, b->depth);
    CU_ASSERT_EQUAL(a->format, b->format);
    CU_ASSERT_EQUAL(a->live, b->live);
    CU_ASSERT_EQUAL(a->track, b->track);
    CU_ASSERT_EQUAL(a->heap_source, b->heap_source);
    CU_ASSERT_EQUAL(a->live_scale, b->live_scale);
    CU_ASSERT_EQUAL(a->rate, b->rate);
    CU_ASSERT_EQUAL(a->rate_period_ns, b->rate_period_ns);
    CU_ASSERT_EQUAL(a->adapt_interval, b->adapt_interval);
    CU_ASSERT_EQUAL(a->survival, b->survival);
    CU_ASSERT_EQUAL(a->raw_names, b->raw_names);
    CU_ASSERT_EQUAL(a->threads, b->threads);
    CU_ASSERT_EQUAL(a->http, b->http);
    CU_ASSERT_STRING_EQUAL(a->http_host, b->http_host);
    CU_ASSERT_EQUAL(a->http_port, b->http_port);
    CU_ASSERT_STRING_EQUAL(a->push_url, b->push_url);
    CU_ASSERT_EQUAL(a->push_period_ms, b->push_period_ms);
    CU_ASSERT_STRING_EQUAL(a->service, b->service);
    CU_ASSERT_STRING_EQUAL(a->push_labels, b->push_labels);
    CU_ASSERT_STRING_EQUAL(a->push_tenant, b->push_tenant);
    CU_ASSERT_STRING_EQUAL(a->push_auth_file, b->push_auth_file);
    CU_ASSERT_STRING_EQUAL(a->http_token_file, b->http_token_file);
}

/* Parses text over the defaults and asserts success. */
static hs_options parse_ok(const char *text) {
    hs_options opts;
    hs_options_defaults(&opts);
    char err[1024] = "unchanged";
    int rc = hs_options_parse(text, &opts, err, sizeof err);
    if (rc != 0) fprintf(stderr, "\n  unexpected rejection of '%s': %s\n", text, err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    return opts;
}

/* Asserts that text is rejected with exactly the message expected, leaving opts alone. */
static void expect_rejection(const char *text, const char *expected) {
    hs_options opts, before;
    hs_options_defaults(&opts);
    hs_options_defaults(&before);
    char err[1024] = "";
    CU_ASSERT_EQUAL(hs_options_parse(text, &opts, err, sizeof err), -1);
    if (strcmp(err, expected) != 0)
        fprintf(stderr, "\n  for '%s'\n  got      \"%s\"\n  expected \"%s\"\n", text, err, expected);
    CU_ASSERT_STRING_EQUAL(err, expected);
    assert_options_equal(&opts, &before);
}

/* Asserts that text is rejected and the message starts with prefix. */
static void expect_rejection_prefix(const char *text, const char *prefix) {
    hs_options opts;
    hs_options_defaults(&opts);
    char err[1024] = "";
    CU_ASSERT_EQUAL(hs_options_parse(text, &opts, err, sizeof err), -1);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fprintf(stderr, "\n  for '%s'\n  got \"%s\"\n  expected a start of \"%s\"\n", text, err,
                prefix);
    CU_ASSERT_EQUAL(strncmp(err, prefix, strlen(prefix)), 0);
}

static int64_t parsed_interval(const char *value) {
    char text[64];
    snprintf(text, sizeof text, "interval=%s", value);
    return parse_ok(text).interval;
}

/* ---- Defaults ------------------------------------------------------------------------------ */

static void test_defaults(void) {
    hs_options opts;
    memset(&opts, 0x5a, sizeof opts);
    hs_options_defaults(&opts);
    CU_ASSERT_EQUAL(opts.interval, 512 * 1024);
    CU_ASSERT_STRING_EQUAL(opts.file, "heapsampler-%p.pb.gz");
    CU_ASSERT_EQUAL(opts.log, HS_LOG_WARN);
    CU_ASSERT_FALSE(opts.help);
    CU_ASSERT_EQUAL(opts.depth, 1024);
    CU_ASSERT_EQUAL(opts.format, HS_FORMAT_PPROF);
    CU_ASSERT_TRUE(opts.live);
    CU_ASSERT_EQUAL(opts.track, 65536);
    CU_ASSERT_EQUAL(opts.heap_source, HS_HEAP_AUTO);
    CU_ASSERT_EQUAL(opts.live_scale, HS_SCALE_RESIDUAL);
}

static void test_null_and_empty_text_keep_defaults(void) {
    hs_options defaults;
    hs_options_defaults(&defaults);
    hs_options from_null = parse_ok(NULL);
    hs_options from_empty = parse_ok("");
    assert_options_equal(&from_null, &defaults);
    assert_options_equal(&from_empty, &defaults);
}

static void test_parse_applies_over_existing_options(void) {
    hs_options opts = parse_ok("depth=5");
    char err[256];
    CU_ASSERT_EQUAL(hs_options_parse("log=debug", &opts, err, sizeof err), 0);
    CU_ASSERT_EQUAL(opts.depth, 5);
    CU_ASSERT_EQUAL(opts.log, HS_LOG_DEBUG);
}

/* ---- Accepted values ---------------------------------------------------------------------- */

static void test_interval_values(void) {
    CU_ASSERT_EQUAL(parsed_interval("0"), 0);
    CU_ASSERT_EQUAL(parsed_interval("1"), 1);
    CU_ASSERT_EQUAL(parsed_interval("512"), 512);
    CU_ASSERT_EQUAL(parsed_interval("007"), 7);
    CU_ASSERT_EQUAL(parsed_interval("1k"), 1024);
    CU_ASSERT_EQUAL(parsed_interval("1K"), 1024);
    CU_ASSERT_EQUAL(parsed_interval("3m"), 3 * 1024 * 1024);
    CU_ASSERT_EQUAL(parsed_interval("3M"), 3 * 1024 * 1024);
    CU_ASSERT_EQUAL(parsed_interval("1g"), 1024 * 1024 * 1024);
    CU_ASSERT_EQUAL(parsed_interval("1G"), 1024 * 1024 * 1024);
    CU_ASSERT_EQUAL(parsed_interval("0k"), 0);
    /* the jint maximum, written in several ways just below 2g */
    CU_ASSERT_EQUAL(parsed_interval("2147483647"), 2147483647);
    CU_ASSERT_EQUAL(parsed_interval("2097151k"), INT64_C(2147482624));
    CU_ASSERT_EQUAL(parsed_interval("2047m"), INT64_C(2146435072));
}

static void test_interval_just_over_jint_is_too_large(void) {
    expect_rejection("interval=2147483648",
                     "bad option 'interval=2147483648': too large; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=2g", "bad option 'interval=2g': too large; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=2048m",
                     "bad option 'interval=2048m': too large; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=2097152k",
                     "bad option 'interval=2097152k': too large; accepted: " INTERVAL_ACCEPTED);
}

static void test_file_values(void) {
    CU_ASSERT_STRING_EQUAL(parse_ok("file=/tmp/a.pb.gz").file, "/tmp/a.pb.gz");
    CU_ASSERT_STRING_EQUAL(parse_ok("file=/tmp/h-%p-%t-100%%.pb.gz").file, "/tmp/h-%p-%t-100%%.pb.gz");
    /* only the first '=' separates the key */
    CU_ASSERT_STRING_EQUAL(parse_ok("file=/tmp/a=b").file, "/tmp/a=b");
    CU_ASSERT_STRING_EQUAL(parse_ok("file=x").file, "x");
}

static void test_file_longest_accepted(void) {
    static char text[5 + HS_PATH_MAX];
    memcpy(text, "file=", 5);
    memset(text + 5, 'a', HS_PATH_MAX - 1); /* 4095 bytes: the longest allowed */
    text[5 + HS_PATH_MAX - 1] = '\0';
    hs_options opts = parse_ok(text);
    CU_ASSERT_EQUAL(strlen(opts.file), HS_PATH_MAX - 1);
    CU_ASSERT_EQUAL(strspn(opts.file, "a"), HS_PATH_MAX - 1);
}

static void test_log_values(void) {
    CU_ASSERT_EQUAL(parse_ok("log=error").log, HS_LOG_ERROR);
    CU_ASSERT_EQUAL(parse_ok("log=warn").log, HS_LOG_WARN);
    CU_ASSERT_EQUAL(parse_ok("log=info").log, HS_LOG_INFO);
    CU_ASSERT_EQUAL(parse_ok("log=debug").log, HS_LOG_DEBUG);
}

static void test_help_flag(void) {
    CU_ASSERT_TRUE(parse_ok("help").help);
    hs_options opts = parse_ok("interval=1k,help,depth=3");
    CU_ASSERT_TRUE(opts.help);
    CU_ASSERT_EQUAL(opts.interval, 1024);
    CU_ASSERT_EQUAL(opts.depth, 3);
}

static void test_depth_values(void) {
    CU_ASSERT_EQUAL(parse_ok("depth=1").depth, 1);
    CU_ASSERT_EQUAL(parse_ok("depth=64").depth, 64);
    CU_ASSERT_EQUAL(parse_ok("depth=2048").depth, 2048);
}

static void test_format_values(void) {
    CU_ASSERT_EQUAL(parse_ok("format=pprof").format, HS_FORMAT_PPROF);
    CU_ASSERT_EQUAL(parse_ok("format=collapsed").format, HS_FORMAT_COLLAPSED);
    CU_ASSERT_EQUAL(parse_ok("format=html").format, HS_FORMAT_HTML);
}

static void test_collapsed_values(void) {
    CU_ASSERT_EQUAL(parse_ok("collapsed=alloc_space").collapsed, HS_METRIC_ALLOC_SPACE);
    CU_ASSERT_EQUAL(parse_ok("collapsed=alloc_objects").collapsed, HS_METRIC_ALLOC_OBJECTS);
    CU_ASSERT_EQUAL(parse_ok("collapsed=inuse_space").collapsed, HS_METRIC_INUSE_SPACE);
    CU_ASSERT_EQUAL(parse_ok("collapsed=inuse_objects").collapsed, HS_METRIC_INUSE_OBJECTS);
    CU_ASSERT_EQUAL(parse_ok("live=false,collapsed=alloc_objects").collapsed,
                    HS_METRIC_ALLOC_OBJECTS);
    CU_ASSERT_STRING_EQUAL(hs_metric_name(HS_METRIC_INUSE_OBJECTS), "inuse_objects");
}

/* An in-use metric without live tracking is refused at startup, whatever the order. */
static void test_reject_inuse_metric_without_live(void) {
    static const char expected[] =
        "bad option 'collapsed=inuse_space': an in-use metric needs live=true (live=false was "
        "given); accepted: alloc_space, alloc_objects with live=false";
    expect_rejection("live=false,collapsed=inuse_space", expected);
    expect_rejection("collapsed=inuse_space,format=collapsed,live=false", expected);
    expect_rejection("live=false,collapsed=inuse_objects",
                     "bad option 'collapsed=inuse_objects': an in-use metric needs live=true "
                     "(live=false was given); accepted: alloc_space, alloc_objects with live=false");
    expect_rejection("collapsed=live_space", "bad option 'collapsed=live_space': unknown value; "
                     "accepted: alloc_space, alloc_objects, inuse_space, inuse_objects");
}

static void test_live_values(void) {
    CU_ASSERT_TRUE(parse_ok("live=true").live);
    CU_ASSERT_FALSE(parse_ok("live=false").live);
}

static void test_track_values(void) {
    CU_ASSERT_EQUAL(parse_ok("track=1").track, 1);
    CU_ASSERT_EQUAL(parse_ok("track=1000").track, 1000);
    CU_ASSERT_EQUAL(parse_ok("track=1k").track, 1024);
    CU_ASSERT_EQUAL(parse_ok("track=64K").track, 65536);
    CU_ASSERT_EQUAL(parse_ok("track=16m").track, 16777216);
    CU_ASSERT_EQUAL(parse_ok("track=16M").track, 16777216);
    CU_ASSERT_EQUAL(parse_ok("track=16777216").track, 16777216);
}

#define MEMORY_ACCEPTED \
    "a size in bytes from 4m to 64g, with an optional k, m or g suffix (powers of 1024)"

static void test_memory_values(void) {
    CU_ASSERT_EQUAL(parse_ok("memory=4m").memory, INT64_C(4) << 20);
    CU_ASSERT_EQUAL(parse_ok("memory=1g").memory, INT64_C(1) << 30);
    CU_ASSERT_EQUAL(parse_ok("memory=64g").memory, INT64_C(64) << 30);
    CU_ASSERT_EQUAL(parse_ok("memory=5000000").memory, 5000000);
    expect_rejection("memory=4194303", "bad option 'memory=4194303': too small; accepted: " MEMORY_ACCEPTED);
    expect_rejection("memory=65g", "bad option 'memory=65g': too large; accepted: " MEMORY_ACCEPTED);
    expect_rejection("memory=lots", "bad option 'memory=lots': not a size; accepted: " MEMORY_ACCEPTED);
}

static void test_heap_source_values(void) {
    CU_ASSERT_EQUAL(parse_ok("heap_source=auto").heap_source, HS_HEAP_AUTO);
    CU_ASSERT_EQUAL(parse_ok("heap_source=vmstructs").heap_source, HS_HEAP_VMSTRUCTS);
    CU_ASSERT_EQUAL(parse_ok("heap_source=gcinfo").heap_source, HS_HEAP_GCINFO);
    CU_ASSERT_EQUAL(parse_ok("heap_source=none").heap_source, HS_HEAP_NONE);
}

static void test_live_scale_values(void) {
    CU_ASSERT_EQUAL(parse_ok("live_scale=residual,oom=true,dump_period=off,keep=0,peak=auto").live_scale, HS_SCALE_RESIDUAL);
    CU_ASSERT_EQUAL(parse_ok("live_scale=proportional").live_scale, HS_SCALE_PROPORTIONAL);
}

#define RATE_ACCEPTED "0 (no cap), or N/s or N/m with N from 1 to 1000000"

static void test_rate_values(void) {
    hs_options opts = parse_ok("rate=100/s");
    CU_ASSERT_EQUAL(opts.rate, 100);
    CU_ASSERT_EQUAL(opts.rate_period_ns, 1000000000);
    opts = parse_ok("rate=30/m");
    CU_ASSERT_EQUAL(opts.rate, 30);
    CU_ASSERT_EQUAL(opts.rate_period_ns, INT64_C(60000000000));
    CU_ASSERT_EQUAL(parse_ok("rate=0").rate, 0);
    CU_ASSERT_EQUAL(parse_ok("rate=0/s").rate, 0);
    CU_ASSERT_EQUAL(parse_ok("rate=1000000/s").rate, 1000000);
    hs_options defaults;
    hs_options_defaults(&defaults);
    CU_ASSERT_EQUAL(defaults.rate, 1000);
    CU_ASSERT_EQUAL(defaults.rate_period_ns, 1000000000);
    CU_ASSERT_TRUE(defaults.adapt_interval);
    CU_ASSERT_FALSE(parse_ok("adapt_interval=false").adapt_interval);
    CU_ASSERT_TRUE(defaults.survival);
    CU_ASSERT_FALSE(parse_ok("survival=false").survival);
}

static void test_reject_rate(void) {
    expect_rejection("rate=100", "bad option 'rate=100': missing unit /s or /m; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=100/h", "bad option 'rate=100/h': unknown unit '/h'; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=1000001/s", "bad option 'rate=1000001/s': too large; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=-5/s", "bad option 'rate=-5/s': negative; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=/s", "bad option 'rate=/s': empty value; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=fast/s", "bad option 'rate=fast/s': not a number; accepted: " RATE_ACCEPTED);
    expect_rejection("rate=99999999999999999999999999999999999/s",
                     "bad option 'rate=99999999999999999999999999999999999/s': too large; accepted: " RATE_ACCEPTED);
}

static void test_fidelity_values(void) {
    CU_ASSERT_FALSE(parse_ok("").raw_names);
    CU_ASSERT_TRUE(parse_ok("names=raw").raw_names);
    CU_ASSERT_FALSE(parse_ok("names=stable").raw_names);
    CU_ASSERT_FALSE(parse_ok("").threads);
    CU_ASSERT_TRUE(parse_ok("threads=true").threads);
    expect_rejection("names=short", "bad option 'names=short': unknown value; accepted: stable, raw");
    expect_rejection("threads=yes", "bad option 'threads=yes': unknown value; accepted: true, false");
}

static void test_all_options_together(void) {
    hs_options opts = parse_ok("interval=0,file=/var/tmp/x-%t.pb.gz,log=info,depth=2048,"
                               "format=collapsed,live=false,track=2m,heap_source=gcinfo,"
                               "live_scale=proportional");
    CU_ASSERT_EQUAL(opts.interval, 0);
    CU_ASSERT_STRING_EQUAL(opts.file, "/var/tmp/x-%t.pb.gz");
    CU_ASSERT_EQUAL(opts.log, HS_LOG_INFO);
    CU_ASSERT_FALSE(opts.help);
    CU_ASSERT_EQUAL(opts.depth, 2048);
    CU_ASSERT_EQUAL(opts.format, HS_FORMAT_COLLAPSED);
    CU_ASSERT_FALSE(opts.live);
    CU_ASSERT_EQUAL(opts.track, 2 * 1024 * 1024);
    CU_ASSERT_EQUAL(opts.heap_source, HS_HEAP_GCINFO);
    CU_ASSERT_EQUAL(opts.live_scale, HS_SCALE_PROPORTIONAL);
}

/* ---- hs_parse_size ---------------------------------------------------------------------- */

static void expect_size(const char *text, int64_t expected) {
    int64_t value = -7;
    CU_ASSERT_EQUAL(hs_parse_size(text, &value), 0);
    CU_ASSERT_EQUAL(value, expected);
}

static void expect_not_size(const char *text) {
    int64_t value = -7;
    CU_ASSERT_EQUAL(hs_parse_size(text, &value), -1);
    CU_ASSERT_EQUAL(value, -7); /* untouched */
}

static void test_parse_size_accepts(void) {
    expect_size("0", 0);
    expect_size("12", 12);
    expect_size("4k", 4096);
    expect_size("4K", 4096);
    expect_size("5m", 5 * 1024 * 1024);
    expect_size("5M", 5 * 1024 * 1024);
    expect_size("6g", INT64_C(6) << 30);
    expect_size("8G", INT64_C(8) << 30);
    expect_size("9223372036854775807", INT64_MAX);
    /* the largest multiple of 1g that fits in int64 */
    expect_size("8589934591g", INT64_C(8589934591) << 30);
}

static void test_parse_size_rejects(void) {
    expect_not_size(NULL);
    expect_not_size("");
    expect_not_size("k");
    expect_not_size("12q");
    expect_not_size("1kk");
    expect_not_size("1kb");
    expect_not_size("1 k");
    expect_not_size(" 1");
    expect_not_size("1 ");
    expect_not_size("+1");
    expect_not_size("-1");
    expect_not_size("-0");
    expect_not_size("1.5k");
    expect_not_size("0x10");
    expect_not_size("1t");
    expect_not_size("9223372036854775808");
    expect_not_size("8589934592g");
    expect_not_size("99999999999999999999g");
}

/* ---- Rejections, word for word ---------------------------------------------------------- */

static void test_reject_unknown_key(void) {
    expect_rejection("foo=1", "bad option 'foo=1': unknown option; accepted: " KEYS_ACCEPTED);
    /* keys are case-sensitive */
    expect_rejection("Interval=1k",
                     "bad option 'Interval=1k': unknown option; accepted: " KEYS_ACCEPTED);
    /* a prefix of a key is not the key */
    expect_rejection("int=1k", "bad option 'int=1k': unknown option; accepted: " KEYS_ACCEPTED);
    expect_rejection("log=info,intervals=4",
                     "bad option 'intervals=4': unknown option; accepted: " KEYS_ACCEPTED);
}

static void test_reject_bad_sizes(void) {
    expect_rejection("interval=12q", "bad option 'interval=12q': not a size; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=-1", "bad option 'interval=-1': negative; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=99999999999999999999g",
                     "bad option 'interval=99999999999999999999g': too large; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=", "bad option 'interval=': empty value; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=k", "bad option 'interval=k': not a size; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval=1.5m",
                     "bad option 'interval=1.5m': not a size; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("interval= 1k",
                     "bad option 'interval= 1k': not a size; accepted: " INTERVAL_ACCEPTED);
}

static void test_reject_duplicate(void) {
    expect_rejection("interval=1k,interval=2k",
                     "bad option 'interval=2k': given twice; accepted: " INTERVAL_ACCEPTED);
    /* also when the values are equal, and for flags */
    expect_rejection("log=info,depth=3,log=info",
                     "bad option 'log=info': given twice; accepted: error, warn, info, debug");
    expect_rejection("help,help", "bad option 'help': given twice; accepted: no value (write just 'help')");
}

static void test_reject_empty_key(void) {
    expect_rejection("=5", "bad option '=5': empty option name; accepted: " KEYS_ACCEPTED);
    expect_rejection("=", "bad option '=': empty option name; accepted: " KEYS_ACCEPTED);
    expect_rejection(",", "bad option '': empty option name; accepted: " KEYS_ACCEPTED);
    expect_rejection("interval=1k,,log=info",
                     "bad option '': empty option name; accepted: " KEYS_ACCEPTED);
    expect_rejection(",interval=1k", "bad option '': empty option name; accepted: " KEYS_ACCEPTED);
    expect_rejection("interval=1k,", "bad option '': empty option name; accepted: " KEYS_ACCEPTED);
}

static void test_reject_missing_value(void) {
    expect_rejection("interval", "bad option 'interval': missing value; accepted: " INTERVAL_ACCEPTED);
    expect_rejection("log=info,live", "bad option 'live': missing value; accepted: true, false");
}

static void test_reject_value_for_help(void) {
    expect_rejection("help=1", "bad option 'help=1': takes no value; accepted: no value (write just 'help')");
    expect_rejection("help=", "bad option 'help=': takes no value; accepted: no value (write just 'help')");
}

static void test_reject_depth(void) {
    expect_rejection("depth=0", "bad option 'depth=0': too small; accepted: " DEPTH_ACCEPTED);
    expect_rejection("depth=2049", "bad option 'depth=2049': too large; accepted: " DEPTH_ACCEPTED);
    expect_rejection("depth=-5", "bad option 'depth=-5': negative; accepted: " DEPTH_ACCEPTED);
    expect_rejection("depth=1k", "bad option 'depth=1k': not a number; accepted: " DEPTH_ACCEPTED);
    expect_rejection("depth=", "bad option 'depth=': empty value; accepted: " DEPTH_ACCEPTED);
    expect_rejection("depth=99999999999999999999",
                     "bad option 'depth=99999999999999999999': too large; accepted: " DEPTH_ACCEPTED);
}

static void test_reject_track(void) {
    expect_rejection("track=0", "bad option 'track=0': too small; accepted: " TRACK_ACCEPTED);
    expect_rejection("track=16777217", "bad option 'track=16777217': too large; accepted: " TRACK_ACCEPTED);
    expect_rejection("track=1g", "bad option 'track=1g': too large; accepted: " TRACK_ACCEPTED);
    expect_rejection("track=lots", "bad option 'track=lots': not a number; accepted: " TRACK_ACCEPTED);
}

static void test_reject_named_values(void) {
    expect_rejection("format=json", "bad option 'format=json': unknown value; accepted: pprof, collapsed, html");
    expect_rejection("log=verbose",
                     "bad option 'log=verbose': unknown value; accepted: error, warn, info, debug");
    /* values are case-sensitive too */
    expect_rejection("log=WARN", "bad option 'log=WARN': unknown value; accepted: error, warn, info, debug");
    expect_rejection("live=yes", "bad option 'live=yes': unknown value; accepted: true, false");
    expect_rejection("heap_source=jmx",
                     "bad option 'heap_source=jmx': unknown value; accepted: auto, vmstructs, gcinfo, none");
    expect_rejection("live_scale=linear",
                     "bad option 'live_scale=linear': unknown value; accepted: residual, proportional");
    expect_rejection("format=", "bad option 'format=': empty value; accepted: pprof, collapsed, html");
}

static void test_reject_file(void) {
    const char *accepted = "; accepted: a non-empty path pattern shorter than 4096 bytes, without "
                           "commas; %p = pid, %t = time the file is written, %n = dump sequence "
                           "number, %% = '%'";
    char expected[512];
    snprintf(expected, sizeof expected, "bad option 'file=/tmp/h-%%x.pb.gz': unknown escape '%%x' (use %%p, %%t, %%n or %%%%)%s",
             accepted);
    expect_rejection("file=/tmp/h-%x.pb.gz", expected);
    snprintf(expected, sizeof expected, "bad option 'file=/tmp/h%%': a lone '%%' at the end (write %%%% for a '%%')%s",
             accepted);
    expect_rejection("file=/tmp/h%", expected);
    snprintf(expected, sizeof expected, "bad option 'file=': empty value%s", accepted);
    expect_rejection("file=", expected);
}

static void test_reject_file_too_long_abbreviates_the_item(void) {
    static char text[5 + HS_PATH_MAX + 1];
    memcpy(text, "file=", 5);
    memset(text + 5, 'a', HS_PATH_MAX); /* 4096 bytes: one too many */
    text[5 + HS_PATH_MAX] = '\0';
    /* the message quotes the first 200 bytes of the item, then "...", so the reason fits */
    char expected[512];
    snprintf(expected, sizeof expected, "bad option '%.200s...': too long; accepted: a non-empty", text);
    expect_rejection_prefix(text, expected);
}

static void test_failure_leaves_options_untouched(void) {
    hs_options opts = parse_ok("depth=5,log=info");
    hs_options before = opts;
    char err[256];
    CU_ASSERT_EQUAL(hs_options_parse("depth=7,log=error,interval=zz", &opts, err, sizeof err), -1);
    assert_options_equal(&opts, &before);
    CU_ASSERT_EQUAL(opts.depth, 5);
}

static void test_error_buffer_is_bounded(void) {
    hs_options opts;
    hs_options_defaults(&opts);
    char err[16];
    memset(err, 'x', sizeof err);
    CU_ASSERT_EQUAL(hs_options_parse("interval=12q", &opts, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad option 'int");
    /* no buffer at all: still rejected, nothing written */
    CU_ASSERT_EQUAL(hs_options_parse("interval=12q", &opts, NULL, 0), -1);
    CU_ASSERT_EQUAL(hs_options_parse("interval=1k", &opts, NULL, 0), 0);
    CU_ASSERT_EQUAL(opts.interval, 1024);
}

/* ---- Help ----------------------------------------------------------------------------------- */

static void test_help_lists_every_option_with_its_default(void) {
    static const struct {
        const char *key;
        const char *default_text;
    } expected[] = {
        {"interval", "512k"}, {"file", "heapsampler-%p.pb.gz"}, {"log", "warn"},
        {"help", "off"},      {"depth", "1024"},                {"format", "pprof"},
        {"live", "true"},     {"track", "65536"},               {"heap_source", "auto"},
        {"live_scale", "residual"}, {"collapsed", "alloc_space"}, {"memory", "64m"},
        {"rate", "1000/s"}, {"names", "stable"}, {"threads", "false"}, {"http", "off"},
        {"http_token", "none"}, {"push", "off"}, {"push_period", "15s"}, {"service", "auto"},
        {"push_labels", "none"}, {"push_tenant", "none"}, {"push_auth", "none"},
    };
    static char help[16384];
    size_t need = hs_options_help(help, sizeof help);
    CU_ASSERT(need > 0 && need < sizeof help);
    CU_ASSERT_EQUAL(strlen(help), need);

    size_t count = sizeof expected / sizeof expected[0];
    for (size_t i = 0; i < count; i++) {
        char line_start[64], default_line[128];
        snprintf(line_start, sizeof line_start, "\n  %-12s ", expected[i].key);
        snprintf(default_line, sizeof default_line, "default: %s\n", expected[i].default_text);
        const char *entry = strstr(help, line_start);
        CU_ASSERT_PTR_NOT_NULL_FATAL(entry);
        /* the default is stated inside this option's entry, before the next one starts */
        const char *next = help + need;
        if (i + 1 < count) {
            char next_start[64];
            snprintf(next_start, sizeof next_start, "\n  %-12s ", expected[i + 1].key);
            next = strstr(help, next_start);
            CU_ASSERT_PTR_NOT_NULL_FATAL(next);
        }
        const char *found = strstr(entry, default_line);
        CU_ASSERT_PTR_NOT_NULL(found);
        CU_ASSERT(found != NULL && found < next);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "accepted: " INTERVAL_ACCEPTED));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "accepted: pprof, collapsed"));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "%p is replaced by the process id"));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "%%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "-agentpath:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(help, "Example"));
}

static void test_help_reports_needed_length_when_truncated(void) {
    static char full[8192];
    size_t need = hs_options_help(full, sizeof full);
    char small[40];
    CU_ASSERT_EQUAL(hs_options_help(small, sizeof small), need);
    CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
    CU_ASSERT_EQUAL(strncmp(small, full, sizeof small - 1), 0);
    CU_ASSERT_EQUAL(hs_options_help(NULL, 0), need);
}

/* ---- Formatting -------------------------------------------------------------------------- */

static void test_format_defaults(void) {
    hs_options opts;
    hs_options_defaults(&opts);
    char text[512];
    size_t need = hs_options_format(&opts, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, DEFAULTS_FORMATTED);
    CU_ASSERT_EQUAL(need, strlen(DEFAULTS_FORMATTED));
}

static void assert_round_trip(const char *text) {
    hs_options original = parse_ok(text);
    char formatted[HS_PATH_MAX + 512];
    CU_ASSERT(hs_options_format(&original, formatted, sizeof formatted) < sizeof formatted);
    hs_options again = parse_ok(formatted);
    assert_options_equal(&again, &original);
}

static void test_format_round_trip(void) {
    assert_round_trip("");
    assert_round_trip("interval=0,file=/tmp/x-%p-%t-%%.gz,log=debug,depth=1,format=collapsed,"
                      "live=false,track=1,heap_source=none,live_scale=proportional");
    assert_round_trip("interval=2147483647,log=error,depth=2048,track=16m,heap_source=vmstructs");
    assert_round_trip("log=info,heap_source=gcinfo,rate=30/m");
    assert_round_trip("rate=0");
    assert_round_trip("help,interval=3k");
}

static void test_format_shows_help_flag_without_value(void) {
    hs_options opts = parse_ok("help,interval=1g");
    char text[512];
    hs_options_format(&opts, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "interval=1073741824,file=heapsampler-%p.pb.gz,log=warn,help,depth=1024,"
                                 "format=pprof,live=true,track=65536,heap_source=auto,"
                                 "live_scale=residual,collapsed=alloc_space,memory=64m,oom=true,"
                                 "dump_period=off,keep=0,peak=auto,oom_paths=false,paths_budget=1s,rate=1000/s,"
                                 "adapt_interval=true,survival=true,names=stable,threads=false,http=off,"
                                 "http_token=none,push=off,push_period=15s,service=auto,"
                                 "push_labels=none,push_tenant=none,push_auth=none");
}

static void test_format_reports_needed_length_when_truncated(void) {
    hs_options opts;
    hs_options_defaults(&opts);
    char small[10];
    CU_ASSERT_EQUAL(hs_options_format(&opts, small, sizeof small), strlen(DEFAULTS_FORMATTED));
    CU_ASSERT_STRING_EQUAL(small, "interval=");
}

/* ---- Profiles while the program runs: oom, dump_period, keep, peak ---------------------- */

#define PERIOD_ACCEPTED \
    "off, or a duration from 100ms to 30 days: digits with ms, s, m or h (500ms, 30s, 5m, 1h)"
#define PEAK_ACCEPTED "auto, true, false (true needs live=true; auto means live=true)"

static void test_parse_duration(void) {
    int64_t ms = -1;
    CU_ASSERT_EQUAL(hs_parse_duration_ms("30s", &ms), 0);
    CU_ASSERT_EQUAL(ms, 30000);
    CU_ASSERT_EQUAL(hs_parse_duration_ms("5m", &ms), 0);
    CU_ASSERT_EQUAL(ms, 300000);
    CU_ASSERT_EQUAL(hs_parse_duration_ms("1h", &ms), 0);
    CU_ASSERT_EQUAL(ms, 3600000);
    CU_ASSERT_EQUAL(hs_parse_duration_ms("250ms", &ms), 0);
    CU_ASSERT_EQUAL(ms, 250);
    CU_ASSERT_EQUAL(hs_parse_duration_ms("0s", &ms), 0);
    CU_ASSERT_EQUAL(ms, 0);
    ms = 7;
    const char *bad[] = {"", "30", "s", "1.5s", "-1s", "1 s", "1S", "1sec", "1d", "1msx",
                         "9999999999999999999h", "2562047788015216h", NULL};
    for (int i = 0; bad[i]; i++) {
        if (hs_parse_duration_ms(bad[i], &ms) == 0) fprintf(stderr, "\n  '%s' accepted\n", bad[i]);
        CU_ASSERT_EQUAL(hs_parse_duration_ms(bad[i], &ms), -1);
    }
    CU_ASSERT_EQUAL(ms, 7); /* untouched on failure */
    CU_ASSERT_EQUAL(hs_parse_duration_ms(NULL, &ms), -1);
}

static void test_dump_options(void) {
    hs_options opts = parse_ok("");
    CU_ASSERT_TRUE(opts.oom);
    CU_ASSERT_EQUAL(opts.dump_period_ms, 0);
    CU_ASSERT_EQUAL(opts.keep, 0);
    CU_ASSERT_EQUAL(opts.peak, HS_PEAK_AUTO);
    CU_ASSERT_TRUE(hs_options_peak_enabled(&opts));
    opts = parse_ok("oom=false,dump_period=30s,keep=3,peak=false");
    CU_ASSERT_FALSE(opts.oom);
    CU_ASSERT_EQUAL(opts.dump_period_ms, 30000);
    CU_ASSERT_EQUAL(opts.keep, 3);
    CU_ASSERT_FALSE(hs_options_peak_enabled(&opts));
    CU_ASSERT_EQUAL(parse_ok("dump_period=100ms").dump_period_ms, 100);
    CU_ASSERT_EQUAL(parse_ok("dump_period=720h").dump_period_ms, INT64_C(720) * 3600 * 1000);
    CU_ASSERT_EQUAL(parse_ok("dump_period=off").dump_period_ms, 0);
    CU_ASSERT_EQUAL(opts.paths_budget_ms, 1000); /* the default: at most 1 s a pause */
    CU_ASSERT_EQUAL(parse_ok("paths_budget=200ms").paths_budget_ms, 200);
    CU_ASSERT_EQUAL(parse_ok("paths_budget=5s").paths_budget_ms, 5000);
    CU_ASSERT_EQUAL(parse_ok("paths_budget=10ms").paths_budget_ms, 10);
    CU_ASSERT_EQUAL(parse_ok("paths_budget=60s").paths_budget_ms, 60000);
    CU_ASSERT_EQUAL(parse_ok("dump_period=0").dump_period_ms, 0);
    CU_ASSERT_EQUAL(parse_ok("keep=1000000").keep, 1000000);
    CU_ASSERT_FALSE(hs_options_peak_enabled(&(hs_options){.live = false, .peak = HS_PEAK_AUTO}));
    CU_ASSERT_TRUE(hs_options_peak_enabled(&(hs_options){.live = true, .peak = HS_PEAK_TRUE}));
    opts = parse_ok("live=false,peak=false");
    CU_ASSERT_FALSE(hs_options_peak_enabled(&opts));
}

static void test_reject_dump_options(void) {
    expect_rejection("dump_period=30", "bad option 'dump_period=30': not a duration; accepted: "
                     PERIOD_ACCEPTED);
    expect_rejection("dump_period=99ms", "bad option 'dump_period=99ms': too short; accepted: "
                     PERIOD_ACCEPTED);
    expect_rejection("dump_period=721h", "bad option 'dump_period=721h': too long; accepted: "
                     PERIOD_ACCEPTED);
    expect_rejection("paths_budget=1", "bad option 'paths_budget=1': not a duration; accepted: "
                     HS_PATHS_BUDGET_ACCEPTED);
    expect_rejection("paths_budget=9ms", "bad option 'paths_budget=9ms': too short; accepted: "
                     HS_PATHS_BUDGET_ACCEPTED);
    expect_rejection("paths_budget=61s", "bad option 'paths_budget=61s': too long; accepted: "
                     HS_PATHS_BUDGET_ACCEPTED);
    expect_rejection("keep=-1", "bad option 'keep=-1': negative; accepted: a whole number from 0 "
                     "to 1000000 (0 keeps all)");
    expect_rejection("keep=1000001", "bad option 'keep=1000001': too large; accepted: a whole "
                     "number from 0 to 1000000 (0 keeps all)");
    expect_rejection("oom=yes", "bad option 'oom=yes': unknown value; accepted: true, false");
    expect_rejection("peak=1", "bad option 'peak=1': unknown value; accepted: " PEAK_ACCEPTED);
    /* the peak profile is an in-use view: it needs live tracking, in either order */
    expect_rejection("live=false,peak=true",
                     "bad option 'peak=true': needs live=true; accepted: " PEAK_ACCEPTED);
    expect_rejection("peak=true,live=false",
                     "bad option 'peak=true': needs live=true; accepted: " PEAK_ACCEPTED);
}

#define HTTP_ACCEPTED                                                                        \
    "off, or [HOST:]PORT with PORT from 0 (any free port) to 65535; HOST defaults to "      \
    "127.0.0.1 ([::1] for IPv6); a non-loopback HOST needs http_token="
#define HTTP_TOKEN_ACCEPTED "none, or @FILE: a file holding the bearer token"

static void test_http_options(void) {
    hs_options o = parse_ok("");
    CU_ASSERT_FALSE(o.http);
    CU_ASSERT_STRING_EQUAL(o.http_token_file, "");
    o = parse_ok("http=8080");
    CU_ASSERT_TRUE(o.http);
    CU_ASSERT_STRING_EQUAL(o.http_host, "127.0.0.1");
    CU_ASSERT_EQUAL(o.http_port, 8080);
    o = parse_ok("http=0");
    CU_ASSERT_EQUAL(o.http_port, 0);
    o = parse_ok("http=localhost:65535");
    CU_ASSERT_STRING_EQUAL(o.http_host, "localhost");
    CU_ASSERT_EQUAL(o.http_port, 65535);
    o = parse_ok("http=[::1]:7000");
    CU_ASSERT_STRING_EQUAL(o.http_host, "::1");
    o = parse_ok("http=0.0.0.0:9000,http_token=@/run/secrets/token");
    CU_ASSERT_STRING_EQUAL(o.http_host, "0.0.0.0");
    CU_ASSERT_STRING_EQUAL(o.http_token_file, "@/run/secrets/token");
    o = parse_ok("http=off");
    CU_ASSERT_FALSE(o.http);
    /* shown back as given: the address, the token's file (never the token) */
    char text[1024];
    hs_options_format(&o, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",http=off,http_token=none"));
    o = parse_ok("http=[::1]:7000,http_token=@/tmp/t");
    hs_options_format(&o, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",http=[::1]:7000,http_token=@/tmp/t"));
    /* a host of 255 bytes is shown whole, so the options parse back the same */
    char item[300];
    snprintf(item, sizeof item, "http=%0255d:1", 0);
    o = parse_ok(item);
    CU_ASSERT_EQUAL(strlen(o.http_host), 255);
    hs_options_format(&o, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, item));
}

static void test_push_options(void) {
    hs_options o = parse_ok("");
    CU_ASSERT_STRING_EQUAL(o.push_url, "");
    CU_ASSERT_EQUAL(o.push_period_ms, 15000);
    CU_ASSERT_STRING_EQUAL(o.service, "");
    o = parse_ok("push=https://profiles.example.com/p,push_period=1s,service=shop,"
                 "push_labels=env=prod;region=eu,push_tenant=acme,push_auth=@/run/secrets/py");
    CU_ASSERT_STRING_EQUAL(o.push_url, "https://profiles.example.com/p");
    CU_ASSERT_EQUAL(o.push_period_ms, 1000);
    CU_ASSERT_STRING_EQUAL(o.service, "shop");
    CU_ASSERT_STRING_EQUAL(o.push_labels, "env=prod;region=eu");
    CU_ASSERT_STRING_EQUAL(o.push_tenant, "acme");
    CU_ASSERT_STRING_EQUAL(o.push_auth_file, "@/run/secrets/py");
    char text[2048];
    hs_options_format(&o, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",push=https://profiles.example.com/p,push_period=1s,"
                                        "service=shop,push_labels=env=prod;region=eu,"
                                        "push_tenant=acme,push_auth=@/run/secrets/py"));
    o = parse_ok("push=http://127.0.0.1:4040,push_period=1h,service=auto");
    CU_ASSERT_EQUAL(o.push_period_ms, 3600000);
    CU_ASSERT_STRING_EQUAL(o.service, "");
}

static void test_reject_push_options(void) {
    char err[1024];
    hs_options o;
    static const char *const bad[][2] = {
        {"push=ftp://h", "bad option 'push=ftp://h': unknown scheme (http:// or https:// only); accepted: "},
        {"push=localhost:4040", "bad option 'push=localhost:4040': not a URL"},
        {"push=http://u:p@h", "bad option 'push=http://u:p@h': credentials in the URL"},
        {"push=http://h,push_period=500ms", "bad option 'push_period=500ms': too short; accepted: "},
        {"push=http://h,push_period=2h", "bad option 'push_period=2h': too long"},
        {"push=http://h,push_labels=1x=y", "bad option 'push_labels=1x=y': a label name is not"},
        {"push=http://h,push_labels=env", "bad option 'push_labels=env': a label is not k=v"},
        {"push=http://h,service=a{b}", "bad option 'service=a{b}': printable ASCII"},
        {"push=http://h,push_auth=token123", "bad option 'push_auth=token123': not @FILE"},
        {"push_labels=env=x", "bad option 'push_labels': needs push=; accepted: "},
        {"push_auth=@/f", "bad option 'push_auth': needs push=; accepted: "},
        {"push_tenant=acme", "bad option 'push_tenant': needs push=; accepted: "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hs_options_defaults(&o);
        CU_ASSERT_EQUAL(hs_options_parse(bad[i][0], &o, err, sizeof err), -1);
        if (strncmp(err, bad[i][1], strlen(bad[i][1])) != 0)
            fprintf(stderr, "\n%s -> %s\n", bad[i][0], err);
        CU_ASSERT_EQUAL(strncmp(err, bad[i][1], strlen(bad[i][1])), 0);
    }
}

static void test_reject_http_options(void) {
    expect_rejection("http=65536", "bad option 'http=65536': too large; accepted: " HTTP_ACCEPTED);
    expect_rejection("http=web", "bad option 'http=web': not a port number; accepted: "
                     HTTP_ACCEPTED);
    expect_rejection("http=host:", "bad option 'http=host:': empty value; accepted: "
                     HTTP_ACCEPTED);
    expect_rejection("http=:80", "bad option 'http=:80': empty host; accepted: " HTTP_ACCEPTED);
    expect_rejection("http=::1:80", "bad option 'http=::1:80': an IPv6 address goes in "
                     "brackets: [::1]:PORT; accepted: " HTTP_ACCEPTED);
    expect_rejection("http=-1", "bad option 'http=-1': negative; accepted: " HTTP_ACCEPTED);
    expect_rejection("http=8080,http_token=s3cret",
                     "bad option 'http_token=s3cret': not @FILE (the token itself would show in "
                     "the process list and the logs); accepted: " HTTP_TOKEN_ACCEPTED);
    expect_rejection("http_token=@/tmp/t",
                     "bad option 'http_token': needs http=; accepted: " HTTP_TOKEN_ACCEPTED);
}

void register_tests(void) {
    static CU_TestInfo defaults[] = {
        {"defaults", test_defaults},
        {"http options", test_http_options},
        {"push options", test_push_options},
        {"reject push options", test_reject_push_options},
        {"reject http options", test_reject_http_options},
        {"NULL and empty text keep defaults", test_null_and_empty_text_keep_defaults},
        {"parse applies over existing options", test_parse_applies_over_existing_options},
        CU_TEST_INFO_NULL,
    };
    static CU_TestInfo accepted[] = {
        {"interval values", test_interval_values},
        {"interval just over jint max is too large", test_interval_just_over_jint_is_too_large},
        {"file values", test_file_values},
        {"file of 4095 bytes accepted", test_file_longest_accepted},
        {"log values", test_log_values},
        {"help flag", test_help_flag},
        {"depth values", test_depth_values},
        {"format values", test_format_values},
        {"live values", test_live_values},
        {"track values", test_track_values},
        {"memory values", test_memory_values},
        {"heap_source values", test_heap_source_values},
        {"live_scale values", test_live_scale_values},
        {"collapsed values", test_collapsed_values},
        {"oom, dump_period, keep, peak values", test_dump_options},
        {"durations", test_parse_duration},
        {"rate values", test_rate_values},
        {"names and threads values", test_fidelity_values},
        {"all options together", test_all_options_together},
        CU_TEST_INFO_NULL,
    };
    static CU_TestInfo sizes[] = {
        {"parse_size accepts", test_parse_size_accepts},
        {"parse_size rejects", test_parse_size_rejects},
        CU_TEST_INFO_NULL,
    };
    static CU_TestInfo rejected[] = {
        {"unknown key", test_reject_unknown_key},
        {"bad sizes", test_reject_bad_sizes},
        {"duplicate key", test_reject_duplicate},
        {"empty key", test_reject_empty_key},
        {"missing value", test_reject_missing_value},
        {"value given to help", test_reject_value_for_help},
        {"depth out of range", test_reject_depth},
        {"track out of range", test_reject_track},
        {"bad rates", test_reject_rate},
        {"unknown named values", test_reject_named_values},
        {"bad file patterns", test_reject_file},
        {"bad oom, dump_period, keep, peak", test_reject_dump_options},
        {"file too long, item abbreviated", test_reject_file_too_long_abbreviates_the_item},
        {"failure leaves options untouched", test_failure_leaves_options_untouched},
        {"error buffer is bounded", test_error_buffer_is_bounded},
        {"in-use metric without live", test_reject_inuse_metric_without_live},
        CU_TEST_INFO_NULL,
    };
    static CU_TestInfo output[] = {
        {"help lists every option with its default", test_help_lists_every_option_with_its_default},
        {"help reports needed length when truncated", test_help_reports_needed_length_when_truncated},
        {"format defaults", test_format_defaults},
        {"format round trip", test_format_round_trip},
        {"format shows help flag without value", test_format_shows_help_flag_without_value},
        {"format reports needed length when truncated", test_format_reports_needed_length_when_truncated},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("options: defaults", defaults);
    HS_ADD_SUITE("options: accepted values", accepted);
    HS_ADD_SUITE("options: hs_parse_size", sizes);
    HS_ADD_SUITE("options: rejected values", rejected);
    HS_ADD_SUITE("options: help and format", output);
}
