/* test_command.c: parsing the commands of a running agent (command.c), the test faults
 * (faults.c) and the interval weights of `start,interval=` (estimate.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "estimate.h"
#include "faults.h"
#include "sample_table.h"
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

#define ACCEPTED "; accepted: dump[,file=PATTERN][,paths=N][,gc=1], start[,interval=SIZE][,log=LEVEL]" \
                 "[,rate=N/s], stop, status[,file=PATTERN], help"

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
                                "(it takes nothing)" ACCEPTED);
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
    expect_error("dump,gc=", "bad command 'dump,gc=': gc=: accepted: gc=1 (force a full "
                             "collection first) or gc=0" ACCEPTED);
    expect_error("status,gc=1", "bad command 'status,gc=1': 'gc' cannot be given to status" ACCEPTED);
}

static void test_help_text(void) {
    char text[2048];
    size_t need = hs_command_help(text, sizeof text);
    CU_ASSERT_TRUE(need < sizeof text);
    CU_ASSERT_EQUAL(strlen(text), need);
    const char *usages[] = {"dump[,file=PATTERN][,paths=N][,gc=1]", "start[,interval=SIZE][,log=LEVEL]", "stop",
                            "status[,file=PATTERN]", "help"};
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
    CU_ASSERT_EQUAL(hs_faults_configure(""), 0);
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

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("command", NULL, NULL);
    CU_add_test(suite, "plain commands", test_plain_commands);
    CU_add_test(suite, "items apply over the running options", test_items_apply_over_running_options);
    CU_add_test(suite, "errors name the command, the reason and what is accepted", test_errors);
    CU_add_test(suite, "help lists every command", test_help_text);
    CU_add_test(suite, "dump paths=N", test_dump_paths);
    CU_add_test(suite, "dump gc=1", test_dump_gc);
    CU_add_test(suite, "test faults", test_faults);
    CU_add_test(suite, "interval weights stay unbiased", test_interval_weight);
}
