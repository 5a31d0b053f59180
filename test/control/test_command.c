/* test_command.c: parsing the commands of a running agent (command.c), the test faults
 * (faults.c) and the interval weights of `start,interval=` (estimate.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "control/command.h"
#include "sampling/estimate.h"
#include "base/faults.h"
#include "sampling/sample_table.h"
#include "unit.h"

static hs_options running(void) {
    hs_options opts;
    hs_options_defaults(&opts);
    char err[512];
    CU_ASSERT_EQUAL(hs_options_parse("interval=64k,file=run.pb.gz,log=info", &opts, err, sizeof err), 0);
    return opts;
}

static hs_command parse_ok(const char *text) {
    hs_options current = running();
    hs_command cmd;
    char err[1024] = "";
    int rc = hs_command_parse(text, &current, &cmd, err, sizeof err);
    if (rc != 0) fprintf(stderr, "\n  '%s' failed: %s\n", text, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return cmd;
}

static void expect_error(const char *text, const char *expected) {
    hs_options current = running();
    hs_command cmd;
    cmd.kind = HS_CMD_HELP;
    char err[1024] = "";
    CU_ASSERT_EQUAL(hs_command_parse(text, &current, &cmd, err, sizeof err), -1);
    if (strcmp(err, expected) != 0) fprintf(stderr, "\n  '%s' gave '%s'\n", text, err);
    CU_ASSERT_STRING_EQUAL(err, expected);
    CU_ASSERT_EQUAL(cmd.kind, HS_CMD_HELP); /* untouched */
}

#define ACCEPTED "; accepted: dump[,file=PATTERN][,paths=N[,budget=D]][,format=F][,out=PATH]" \
                 "[,paths_out=PATH][,gc=1][,since=ID], mark, start[,interval=SIZE][,log=LEVEL]" \
                 "[,rate=N/s][,http=[HOST:]PORT[,http_token=@FILE]], stop, " \
                 "status[,file=PATTERN][,json=true], top[,n=N][,by=inuse|alloc|growth|class]" \
                 "[,width=COLS][,stack=true][,gc=1][,json=true], " \
                 "paths[,n=N][,budget=D][,out=PATH], help; every command also takes reply=PATH"

static void test_plain_commands(void) {
    CU_ASSERT_EQUAL(parse_ok("dump").kind, HS_CMD_DUMP);
    CU_ASSERT_FALSE(parse_ok("dump").has_file);
    CU_ASSERT_EQUAL(parse_ok("stop").kind, HS_CMD_STOP);
    CU_ASSERT_EQUAL(parse_ok("status").kind, HS_CMD_STATUS);
    CU_ASSERT_EQUAL(parse_ok("help").kind, HS_CMD_HELP);
    hs_command start = parse_ok("start");
    CU_ASSERT_EQUAL(start.kind, HS_CMD_START);
    CU_ASSERT_FALSE(start.has_interval);
    CU_ASSERT_EQUAL(start.options.interval, 65536); /* the running options, unchanged */
}

static void test_items_apply_over_running_options(void) {
    hs_command dump = parse_ok("dump,file=/tmp/now-%p.pb.gz");
    CU_ASSERT_TRUE(dump.has_file);
    CU_ASSERT_STRING_EQUAL(dump.options.file, "/tmp/now-%p.pb.gz");
    hs_command start = parse_ok("start,interval=32k,log=debug");
    CU_ASSERT_TRUE(start.has_interval);
    CU_ASSERT_EQUAL(start.options.interval, 32768);
    CU_ASSERT_EQUAL(start.options.log, HS_LOG_DEBUG);
    CU_ASSERT_STRING_EQUAL(start.options.file, "run.pb.gz");
    hs_command capped = parse_ok("start,rate=500/s");
    CU_ASSERT_TRUE(capped.has_rate);
    CU_ASSERT_FALSE(capped.has_interval);
    CU_ASSERT_EQUAL(capped.options.rate, 500);
    CU_ASSERT_FALSE(parse_ok("start,interval=1k").has_rate);
    hs_command status = parse_ok("status,file=s.txt");
    CU_ASSERT_TRUE(status.has_file);
    CU_ASSERT_FALSE(status.options.help);
}

static void test_errors(void) {
    expect_error("", "bad command '': no command given" ACCEPTED);
    expect_error("bogus", "bad command 'bogus': unknown command" ACCEPTED);
    expect_error("dumpx", "bad command 'dumpx': unknown command" ACCEPTED);
    expect_error("interval=64k", "bad command 'interval=64k': unknown command" ACCEPTED);
    expect_error("dump,", "bad command 'dump,': empty item" ACCEPTED);
    expect_error("dump,,file=x", "bad command 'dump,,file=x': empty item" ACCEPTED);
    expect_error("stop,file=x", "bad command 'stop,file=x': 'file' cannot be given to stop "
                                "(it takes nothing besides reply=)" ACCEPTED);
    expect_error("dump,interval=1k", "bad command 'dump,interval=1k': 'interval' cannot be given "
                                     "to dump" ACCEPTED);
    expect_error("start,depth=8", "bad command 'start,depth=8': 'depth' cannot be given to start" ACCEPTED);
    /* values are judged by the option table, with its own message */
    hs_options current = running();
    hs_command cmd;
    char err[1024] = "";
    CU_ASSERT_EQUAL(hs_command_parse("start,interval=lots", &current, &cmd, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad option 'interval=lots': not a size; accepted:"));
    CU_ASSERT_EQUAL(hs_command_parse("dump,file=a%qb", &current, &cmd, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad option 'file=a%qb'"));
}

static void test_dump_paths(void) {
    CU_ASSERT_EQUAL(parse_ok("dump").paths, 0);
    hs_command d = parse_ok("dump,paths=3");
    CU_ASSERT_EQUAL(d.paths, 3);
    CU_ASSERT_FALSE(d.has_file);
    d = parse_ok("dump,file=/tmp/x.pb.gz,paths=64");
    CU_ASSERT_EQUAL(d.paths, 64);
    CU_ASSERT_STRING_EQUAL(d.options.file, "/tmp/x.pb.gz");
    d = parse_ok("dump,paths=1,file=/tmp/y.pb.gz");
    CU_ASSERT_EQUAL(d.paths, 1);
    CU_ASSERT_STRING_EQUAL(d.options.file, "/tmp/y.pb.gz");
    expect_error("dump,paths=0", "bad command 'dump,paths=0': paths=0: not a number of sites from "
                                 "1 to 64" ACCEPTED);
    expect_error("dump,paths=65", "bad command 'dump,paths=65': paths=65: not a number of sites "
                                  "from 1 to 64" ACCEPTED);
    expect_error("dump,paths=-1", "bad command 'dump,paths=-1': paths=-1: not a number of sites "
                                  "from 1 to 64" ACCEPTED);
    expect_error("dump,paths=2x", "bad command 'dump,paths=2x': paths=2x: not a number of sites "
                                  "from 1 to 64" ACCEPTED);
    expect_error("status,paths=2", "bad command 'status,paths=2': 'paths' cannot be given to "
                                   "status" ACCEPTED);
}

/* budget=D: the walk's pause bound, only with paths=N, as paths_budget= accepts it. */
static void test_dump_paths_budget(void) {
    CU_ASSERT_EQUAL(parse_ok("dump,paths=3").paths_budget_ms, 0); /* paths_budget= then */
    hs_command d = parse_ok("dump,paths=3,budget=5s");
    CU_ASSERT_EQUAL(d.paths, 3);
    CU_ASSERT_EQUAL(d.paths_budget_ms, 5000);
    d = parse_ok("dump,budget=200ms,file=/tmp/z.pb.gz,paths=1");
    CU_ASSERT_EQUAL(d.paths_budget_ms, 200);
    CU_ASSERT_EQUAL(d.paths, 1);
    CU_ASSERT_STRING_EQUAL(d.options.file, "/tmp/z.pb.gz");
    expect_error("dump,budget=5s", "bad command 'dump,budget=5s': budget= bounds the retention "
                                   "walk: it needs paths=N" ACCEPTED);
    expect_error("dump,paths=2,budget=5", "bad command 'dump,paths=2,budget=5': budget=5: not a "
                                          "duration; accepted: " HS_PATHS_BUDGET_ACCEPTED ACCEPTED);
    expect_error("dump,paths=2,budget=2m", "bad command 'dump,paths=2,budget=2m': budget=2m: too "
                                           "long; accepted: " HS_PATHS_BUDGET_ACCEPTED ACCEPTED);
    expect_error("dump,paths=2,budget=5ms", "bad command 'dump,paths=2,budget=5ms': budget=5ms: "
                                            "too short; accepted: " HS_PATHS_BUDGET_ACCEPTED ACCEPTED);
    expect_error("status,budget=1s", "bad command 'status,budget=1s': 'budget' cannot be given to "
                                     "status" ACCEPTED);
}

static void test_reply_on_every_command(void) {
    const char *commands[] = {"dump", "start", "stop", "status", "help", "top", "paths"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "%s,reply=/tmp/hs-reply.%zu", commands[i], i);
        hs_command cmd = parse_ok(text);
        char expected[64];
        snprintf(expected, sizeof expected, "/tmp/hs-reply.%zu", i);
        CU_ASSERT_STRING_EQUAL(cmd.reply, expected);
        CU_ASSERT_STRING_EQUAL(cmd.out, "");
    }
    CU_ASSERT_STRING_EQUAL(parse_ok("status").reply, "");
    expect_error("status,reply=tmp/x", "bad command 'status,reply=tmp/x': reply=tmp/x: not an "
                                       "absolute path" ACCEPTED);
    expect_error("status,reply=", "bad command 'status,reply=': reply=: missing value" ACCEPTED);
    expect_error("status,reply", "bad command 'status,reply': reply=: missing value" ACCEPTED);
    expect_error("top,reply=/a,reply=/b", "bad command 'top,reply=/a,reply=/b': reply= given "
                                          "twice" ACCEPTED);
}

static void test_top(void) {
    hs_command top = parse_ok("top");
    CU_ASSERT_EQUAL(top.kind, HS_CMD_TOP);
    CU_ASSERT_EQUAL(top.report.rows, 20);
    CU_ASSERT_EQUAL(top.report.by, HS_RANK_INUSE);
    CU_ASSERT_EQUAL(top.report.width, 100);
    CU_ASSERT_FALSE(top.report.stacks);
    top = parse_ok("top,n=5,by=growth,width=40,stack=true,reply=/tmp/r");
    CU_ASSERT_EQUAL(top.report.rows, 5);
    CU_ASSERT_EQUAL(top.report.by, HS_RANK_GROWTH);
    CU_ASSERT_EQUAL(top.report.width, 40);
    CU_ASSERT_TRUE(top.report.stacks);
    CU_ASSERT_EQUAL(parse_ok("top,by=alloc,n=1000,width=1000").report.by, HS_RANK_ALLOC);
    CU_ASSERT_FALSE(parse_ok("top,stack=false").report.stacks);
    expect_error("top,n=0", "bad command 'top,n=0': n=0: not a number of rows from 1 to 1000" ACCEPTED);
    expect_error("top,n=1001", "bad command 'top,n=1001': n=1001: not a number of rows from 1 to "
                               "1000" ACCEPTED);
    expect_error("top,n=x", "bad command 'top,n=x': n=x: not a number of rows from 1 to 1000" ACCEPTED);
    expect_error("top,width=39", "bad command 'top,width=39': width=39: not a number of columns "
                                 "from 40 to 1000 (0: no limit)" ACCEPTED);
    expect_error("top,width=1001", "bad command 'top,width=1001': width=1001: not a number of "
                                   "columns from 40 to 1000 (0: no limit)" ACCEPTED);
    expect_error("top,by=size", "bad command 'top,by=size': by=size: not one of inuse, alloc, "
                                "growth, class" ACCEPTED);
    /* width=0: a file or a pipe, nothing cut; by=class: a row per class; json=true */
    CU_ASSERT_EQUAL(parse_ok("top,width=0").report.width, HS_REPORT_WIDTH_UNLIMITED);
    hs_command by_class = parse_ok("top,by=class,json=true");
    CU_ASSERT_TRUE(by_class.report.by_class);
    CU_ASSERT_EQUAL(by_class.report.by, HS_RANK_INUSE);
    CU_ASSERT_TRUE(by_class.report.json);
    CU_ASSERT_FALSE(parse_ok("top,by=alloc").report.by_class);
    CU_ASSERT_TRUE(parse_ok("status,json=true").json);
    expect_error("top,json=1", "bad command 'top,json=1': json=1: not true or false" ACCEPTED);
    /* a window: mark, then dump,since=ID */
    CU_ASSERT_EQUAL(parse_ok("mark").kind, HS_CMD_MARK);
    CU_ASSERT_EQUAL(parse_ok("dump,format=html,out=/tmp/x,since=3").since, 3);
    expect_error("dump,since=0", "bad command 'dump,since=0': since=0: not a mark's ID (the number "
                                 "mark answered)" ACCEPTED);
    expect_error("top,stack=yes", "bad command 'top,stack=yes': stack=yes: not true or false" ACCEPTED);
    expect_error("top,file=x", "bad command 'top,file=x': 'file' cannot be given to top" ACCEPTED);
    expect_error("top,out=/x", "bad command 'top,out=/x': 'out' cannot be given to top" ACCEPTED);
}

static void test_dump_format_and_out(void) {
    CU_ASSERT_EQUAL(parse_ok("dump").format, HS_DUMP_STARTUP_FORMAT);
    CU_ASSERT_EQUAL(parse_ok("dump,format=pprof").format, HS_DUMP_PPROF); /* the startup one */
    CU_ASSERT_EQUAL(parse_ok("dump,format=html,file=/tmp/d.html").format, HS_DUMP_HTML);
    CU_ASSERT_EQUAL(parse_ok("dump,format=collapsed,out=/tmp/d").format, HS_DUMP_COLLAPSED);
    CU_ASSERT_EQUAL(parse_ok("dump,format=text,file=d.txt").format, HS_DUMP_TEXT);
    expect_error("dump,format=html", "bad command 'dump,format=html': format=html needs file= or "
                                     "out= (the startup file= names pprof files)" ACCEPTED);
    hs_command d = parse_ok("dump,format=text,out=/tmp/o.txt");
    CU_ASSERT_STRING_EQUAL(d.out, "/tmp/o.txt");
    CU_ASSERT_EQUAL(d.options.format, HS_FORMAT_PPROF); /* the startup format, untouched */
    d = parse_ok("dump,out=/tmp/o.pb.gz,paths=3,paths_out=/tmp/p.pb.gz");
    CU_ASSERT_EQUAL(d.paths, 3);
    CU_ASSERT_STRING_EQUAL(d.paths_out, "/tmp/p.pb.gz");
    expect_error("dump,format=svg", "bad command 'dump,format=svg': format=svg: not one of pprof, "
                                    "html, collapsed, text" ACCEPTED);
    expect_error("dump,out=o.txt", "bad command 'dump,out=o.txt': out=o.txt: not an absolute "
                                   "path" ACCEPTED);
    expect_error("dump,paths_out=/p", "bad command 'dump,paths_out=/p': paths_out= needs "
                                      "paths=N" ACCEPTED);
    expect_error("dump,out=/o,paths=2", "bad command 'dump,out=/o,paths=2': paths=N with out= "
                                        "needs paths_out= (the paths cannot go beside a file "
                                        "named by out=)" ACCEPTED);
    expect_error("status,format=text", "bad command 'status,format=text': 'format' cannot be "
                                       "given to status" ACCEPTED);
}

static void test_paths_command(void) {
    hs_command p = parse_ok("paths");
    CU_ASSERT_EQUAL(p.kind, HS_CMD_PATHS);
    CU_ASSERT_EQUAL(p.paths, HS_PATHS_DEFAULT);
    p = parse_ok("paths,n=64,out=/tmp/p.pb.gz,reply=/tmp/r");
    CU_ASSERT_EQUAL(p.paths, 64);
    CU_ASSERT_STRING_EQUAL(p.out, "/tmp/p.pb.gz");
    expect_error("paths,n=65", "bad command 'paths,n=65': n=65: not a number of sites from 1 to "
                               "64" ACCEPTED);
    expect_error("paths,by=alloc", "bad command 'paths,by=alloc': 'by' cannot be given to "
                                   "paths" ACCEPTED);
}

static void test_command_words(void) {
    const char *words[] = {"status", "dump", "top", "paths", "stop", "start", "help",
                           "status,reply=/tmp/x", "top,n=5", "dump,format=html"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        CU_ASSERT_TRUE(hs_command_is_command(words[i]));
    const char *options[] = {"", "interval=64k,dump_period=1m,reply=/tmp/x", "statusx",
                             "file=status", "reply=/tmp/x", "topper", "log=info,status", ",status"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        CU_ASSERT_FALSE(hs_command_is_command(options[i]));
    CU_ASSERT_FALSE(hs_command_is_command(NULL));
}

static void test_items(void) {
    char v[64];
    CU_ASSERT_TRUE(hs_command_find_item("interval=64k,reply=/tmp/r,log=info", "reply", v, sizeof v));
    CU_ASSERT_STRING_EQUAL(v, "/tmp/r");
    CU_ASSERT_TRUE(hs_command_find_item("reply=/a", "reply", v, sizeof v));
    CU_ASSERT_STRING_EQUAL(v, "/a");
    CU_ASSERT_FALSE(hs_command_find_item("replyx=/a,xreply=/b", "reply", v, sizeof v));
    CU_ASSERT_FALSE(hs_command_find_item(NULL, "reply", v, sizeof v));
    char tiny[4];
    CU_ASSERT_FALSE(hs_command_find_item("reply=/tmp/long", "reply", tiny, sizeof tiny));
    char out[128];
    CU_ASSERT_TRUE(hs_command_drop_item("interval=64k,reply=/tmp/r,log=info", "reply", out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "interval=64k,log=info");
    CU_ASSERT_TRUE(hs_command_drop_item("reply=/tmp/r", "reply", out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_TRUE(hs_command_drop_item("reply=/tmp/r,dump_period=1m", "reply", out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "dump_period=1m");
    CU_ASSERT_FALSE(hs_command_drop_item("interval=64k,log=info", "reply", tiny, sizeof tiny));
}

static void test_dump_gc(void) {
    CU_ASSERT_FALSE(parse_ok("dump").gc);
    CU_ASSERT_TRUE(parse_ok("dump,gc=1").gc);
    CU_ASSERT_FALSE(parse_ok("dump,gc=0").gc);
    hs_command d = parse_ok("dump,paths=2,gc=1,file=/tmp/z.pb.gz");
    CU_ASSERT_TRUE(d.gc);
    CU_ASSERT_EQUAL(d.paths, 2);
    CU_ASSERT_STRING_EQUAL(d.options.file, "/tmp/z.pb.gz");
    expect_error("dump,gc=yes", "bad command 'dump,gc=yes': gc=yes: accepted: gc=1 (force a full "
                                "collection first) or gc=0" ACCEPTED);
    expect_error("dump,gc=", "bad command 'dump,gc=': gc=: missing value" ACCEPTED);
    expect_error("status,gc=1", "bad command 'status,gc=1': 'gc' cannot be given to status" ACCEPTED);
}

static void test_help_text(void) {
    char text[8192];
    size_t need = hs_command_help(text, sizeof text);
    CU_ASSERT_TRUE(need < sizeof text);
    CU_ASSERT_EQUAL(strlen(text), need);
    const char *usages[] = {"dump[,file=PATTERN][,paths=N[,budget=D]]", "start[,interval=SIZE][,log=LEVEL]", "stop",
                            "status[,file=PATTERN][,json=true]", "help", "top[,n=N][,by=inuse|alloc|growth|class]",
                            "mark",
                            "paths[,n=N][,budget=D][,out=PATH]"};
    for (size_t i = 0; i < sizeof usages / sizeof usages[0]; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(text, usages[i]));
    char tiny[8];
    CU_ASSERT_EQUAL(hs_command_help(tiny, sizeof tiny), need); /* cut, still counted */
    CU_ASSERT_EQUAL(strlen(tiny), sizeof tiny - 1);
}

static void test_faults(void) {
    CU_ASSERT_EQUAL(hs_faults_configure(NULL), 0);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_CALLBACK), 0);
    CU_ASSERT_EQUAL(hs_faults_configure("callback_delay_ms=30,sweeper_exit_delay_ms=8000"), 0);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_CALLBACK), 30);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_SWEEPER_EXIT), 8000);
    CU_ASSERT_EQUAL(hs_faults_configure("callback_delay_ms=x,sweeper_exit_delay_ms=5"), -1);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_CALLBACK), 0);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_SWEEPER_EXIT), 5);
    CU_ASSERT_EQUAL(hs_faults_configure("nonsense=1"), -1);
    CU_ASSERT_EQUAL(hs_faults_configure("callback_delay_ms=-1"), -1);
    CU_ASSERT_EQUAL(hs_faults_configure("callback_delay_ms=600001"), -1);
    CU_ASSERT_EQUAL(hs_faults_configure("line_table_error=113"), 0); /* an error code */
    CU_ASSERT_EQUAL(hs_fault_value(HS_FAULT_LINE_TABLE_ERROR), 113);
    CU_ASSERT_EQUAL(hs_fault_delay_ms(HS_FAULT_CALLBACK), 0);
    CU_ASSERT_EQUAL(hs_faults_configure(""), 0);
    CU_ASSERT_EQUAL(hs_fault_value(HS_FAULT_LINE_TABLE_ERROR), 0);
}

/* A sample taken at interval a, weighted for estimates scaled at interval b, counts the
 * objects it stood for at a: weight * unbias(b) == unbias(a). */
static void test_interval_weight(void) {
    CU_ASSERT_EQUAL(hs_interval_weight_fp(1000, 65536, 65536), HS_WEIGHT_ONE);
    const uint64_t sizes[] = {16, 1000, 100000, 10000000};
    const int64_t pairs[][2] = {{32768, 65536}, {65536, 32768}, {1024, 524288}, {0, 4096}, {4096, 0}};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 5; j++) {
            double weight = (double)hs_interval_weight_fp(sizes[i], pairs[j][0], pairs[j][1]) /
                            (double)HS_WEIGHT_ONE;
            double expected = hs_unbias_scale((double)sizes[i], pairs[j][0]);
            double got = weight * hs_unbias_scale((double)sizes[i], pairs[j][1]);
            CU_ASSERT_DOUBLE_EQUAL(got / expected, 1.0, 2e-3);
        }
    /* bounded both ways: never zero, never past 2^32 (no overflow when shifted by a level) */
    CU_ASSERT_TRUE(hs_interval_weight_fp(16, 1, 2147483647) >= 1);
    CU_ASSERT_TRUE(hs_interval_weight_fp(16, 2147483647, 1) <= ((uint64_t)1 << 32));
}

static void test_top_gc(void) {
    CU_ASSERT_TRUE(parse_ok("top,gc=1,n=5").gc);
    CU_ASSERT_FALSE(parse_ok("top").gc);
    expect_error("top,gc=2", "bad command 'top,gc=2': gc=2: accepted: gc=1 (force a full "
                             "collection first) or gc=0" ACCEPTED);
}

/* start,http=: the endpoint's options through the option table, as at startup. */
static void test_start_http(void) {
    hs_command s = parse_ok("start,http=0");
    CU_ASSERT_TRUE(s.has_http);
    CU_ASSERT_TRUE(s.options.http);
    CU_ASSERT_EQUAL(s.options.http_port, 0);
    CU_ASSERT_STRING_EQUAL(s.options.http_host, "127.0.0.1");
    CU_ASSERT_FALSE(s.has_interval);
    CU_ASSERT_FALSE(parse_ok("start").has_http);
    s = parse_ok("start,http=[::1]:8080,http_token=@/etc/token");
    CU_ASSERT_STRING_EQUAL(s.options.http_host, "::1");
    CU_ASSERT_EQUAL(s.options.http_port, 8080);
    CU_ASSERT_STRING_EQUAL(s.options.http_token_file, "@/etc/token");
    s = parse_ok("start,http=off");
    CU_ASSERT_TRUE(s.has_http);
    CU_ASSERT_FALSE(s.options.http);
    s = parse_ok("start,http=9000,interval=128k");
    CU_ASSERT_TRUE(s.has_http && s.has_interval);
    /* the option table's own refusals */
    hs_options current = running();
    hs_command cmd;
    char err[1024];
    CU_ASSERT_EQUAL(hs_command_parse("start,http=70000", &current, &cmd, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad option 'http=70000'"));
    CU_ASSERT_EQUAL(hs_command_parse("start,http_token=@/t", &current, &cmd, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "needs http="));
    CU_ASSERT_EQUAL(hs_command_parse("start,http=0,http_token=secret", &current, &cmd, err,
                                     sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not @FILE"));
    expect_error("stop,http=0", "bad command 'stop,http=0': 'http' cannot be given to stop "
                                "(it takes nothing besides reply=)" ACCEPTED);
}

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("command", NULL, NULL);
    CU_add_test(suite, "plain commands", test_plain_commands);
    CU_add_test(suite, "items apply over the running options", test_items_apply_over_running_options);
    CU_add_test(suite, "errors name the command, the reason and what is accepted", test_errors);
    CU_add_test(suite, "help lists every command", test_help_text);
    CU_add_test(suite, "dump paths=N", test_dump_paths);
    CU_add_test(suite, "dump paths=N budget=D", test_dump_paths_budget);
    CU_add_test(suite, "reply= on every command", test_reply_on_every_command);
    CU_add_test(suite, "top: n=, by=, width=, stack=", test_top);
    CU_add_test(suite, "dump format= and out=", test_dump_format_and_out);
    CU_add_test(suite, "paths,n=,out=", test_paths_command);
    CU_add_test(suite, "a command word is not an option string", test_command_words);
    CU_add_test(suite, "finding and dropping an item", test_items);
    CU_add_test(suite, "dump gc=1", test_dump_gc);
    CU_add_test(suite, "top gc=1", test_top_gc);
    CU_add_test(suite, "start http= and http_token=", test_start_http);
    CU_add_test(suite, "test faults", test_faults);
    CU_add_test(suite, "interval weights stay unbiased", test_interval_weight);
}
