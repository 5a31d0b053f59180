/* test_cli_parse.c: the heapsampler command's pure modules: argument parsing (args.c),
 * the attach protocol and reply parsers (attach_proto.c), the /proc texts and namespace
 * paths (ns_path.c) and the main-class extraction (cmdline.c). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "attach_proto.h"
#include "cmdline.h"
#include "ns_path.h"
#include "unit.h"

#define ARGV(...) ((char *const[]){"heapsampler", __VA_ARGS__})
#define ARGC(...) ((int)(sizeof((char *const[]){"heapsampler", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(out, err, ...) cli_parse_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (out), (err), sizeof(err))

static void expect_usage_error(int rc, const char *err, const char *fragment) {
    CU_ASSERT_EQUAL(rc, -1);
    if (!strstr(err, fragment)) fprintf(stderr, "\n  expected '%s' in '%s'\n", fragment, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, fragment));
}

static void test_args_verbs(void) {
    cli_args a;
    char err[512] = "";
    CU_ASSERT_EQUAL(PARSE(&a, err, "status", "42"), 0);
    CU_ASSERT_EQUAL(a.verb, CLI_VERB_STATUS);
    CU_ASSERT_EQUAL(a.pid, 42);
    CU_ASSERT_EQUAL(a.timeout_ms, CLI_DEFAULT_TIMEOUT_MS);
    CU_ASSERT_EQUAL(PARSE(&a, err, "top", "--by", "growth", "7", "-n", "5", "--every=2s", "--stack"), 0);
    CU_ASSERT_EQUAL(a.verb, CLI_VERB_TOP);
    CU_ASSERT_EQUAL(a.pid, 7);
    CU_ASSERT_EQUAL(a.n, 5);
    CU_ASSERT_STRING_EQUAL(a.by, "growth");
    CU_ASSERT_EQUAL(a.every_ms, 2000);
    CU_ASSERT_TRUE(a.stack);
    CU_ASSERT_EQUAL(PARSE(&a, err, "top", "9"), 0);
    CU_ASSERT_EQUAL(a.n, CLI_TOP_DEFAULT_N);
    CU_ASSERT_EQUAL(PARSE(&a, err, "paths", "9"), 0);
    CU_ASSERT_EQUAL(a.n, CLI_PATHS_DEFAULT_N);
    CU_ASSERT_EQUAL(PARSE(&a, err, "load", "9", "interval=64k", "dump_period=1m", "--timeout", "500ms"), 0);
    CU_ASSERT_STRING_EQUAL(a.options, "interval=64k,dump_period=1m");
    CU_ASSERT_EQUAL(a.timeout_ms, 500);
    CU_ASSERT_EQUAL(PARSE(&a, err, "--version"), 0);
    CU_ASSERT_EQUAL(a.verb, CLI_VERB_VERSION);
    CU_ASSERT_EQUAL(PARSE(&a, err, "list"), 0);
    CU_ASSERT_EQUAL(a.verb, CLI_VERB_LIST);
}

static void test_args_dump(void) {
    cli_args a;
    char err[512] = "";
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "3", "-o", "x.pb.gz", "--paths", "4", "--force"), 0);
    CU_ASSERT_STRING_EQUAL(a.format, "pprof");
    CU_ASSERT_EQUAL(a.paths, 4);
    CU_ASSERT_TRUE(a.force);
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "3", "-o", "flame.html"), 0);
    CU_ASSERT_STRING_EQUAL(a.format, "html");
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "3", "-o", "a.collapsed"), 0);
    CU_ASSERT_STRING_EQUAL(a.format, "collapsed");
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "3", "--output=r.txt"), 0);
    CU_ASSERT_STRING_EQUAL(a.format, "text");
    expect_usage_error(PARSE(&a, err, "dump", "3", "-o", "x.json"), err, "accepted: .pb.gz");
    expect_usage_error(PARSE(&a, err, "dump", "3"), err, "dump needs -o FILE");
    expect_usage_error(PARSE(&a, err, "dump", "3", "-o", "x.html", "--paths", "2"), err, "--paths writes pprof");
    expect_usage_error(PARSE(&a, err, "paths", "3", "-o", "x.html"), err, "paths -o writes pprof");
}

/* start/load --http, --http-token; dump/top --gc. */
static void test_args_http_and_gc(void) {
    cli_args a;
    char err[512] = "";
    CU_ASSERT_EQUAL(PARSE(&a, err, "start", "5", "--http", "127.0.0.1:0"), 0);
    CU_ASSERT_STRING_EQUAL(a.options, "http=127.0.0.1:0");
    CU_ASSERT_EQUAL(PARSE(&a, err, "start", "5", "interval=64k", "--http=6060", "--http-token",
                          "/etc/hs/token"), 0);
    CU_ASSERT_STRING_EQUAL(a.options, "interval=64k,http=6060,http_token=@/etc/hs/token");
    CU_ASSERT_EQUAL(PARSE(&a, err, "load", "5", "--http", "0", "--http-token", "tok"), 0);
    char cwd[1024], expected[1200];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(expected, sizeof expected, "http=0,http_token=@%s/tok", cwd); /* made absolute */
    CU_ASSERT_STRING_EQUAL(a.options, expected);
    expect_usage_error(PARSE(&a, err, "start", "5", "--http"), err, "--http needs a value");
    expect_usage_error(PARSE(&a, err, "start", "5", "--http", ""), err, "bad --http ''");
    expect_usage_error(PARSE(&a, err, "start", "5", "--http", "1,log=debug"), err, "bad --http");
    expect_usage_error(PARSE(&a, err, "start", "5", "--http-token", "/a,b"), err, "cannot carry a ','");
    expect_usage_error(PARSE(&a, err, "status", "5", "--http", "0"), err, "status does not take --http");
    expect_usage_error(PARSE(&a, err, "stop", "5", "--http", "0"), err, "stop does not take --http");
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "5", "-o", "h.pb.gz", "--gc"), 0);
    CU_ASSERT_TRUE(a.gc);
    CU_ASSERT_EQUAL(PARSE(&a, err, "dump", "5", "-o", "h.pb.gz"), 0);
    CU_ASSERT_FALSE(a.gc);
    CU_ASSERT_EQUAL(PARSE(&a, err, "top", "5", "--gc"), 0);
    CU_ASSERT_TRUE(a.gc);
    expect_usage_error(PARSE(&a, err, "top", "5", "--gc=1"), err, "--gc takes no value");
    expect_usage_error(PARSE(&a, err, "paths", "5", "--gc"), err, "paths does not take --gc");
}

static void test_args_errors(void) {
    cli_args a;
    char err[512] = "";
    expect_usage_error(PARSE(&a, err, "frobnicate", "1"), err, "unknown verb 'frobnicate'");
    expect_usage_error(PARSE(&a, err, "status", "12x"), err, "'12x' is not a process id");
    expect_usage_error(PARSE(&a, err, "status", "-5"), err, "unknown flag '-5'");
    expect_usage_error(PARSE(&a, err, "status", "0"), err, "'0' is not a process id");
    expect_usage_error(PARSE(&a, err, "status"), err, "status needs a pid");
    expect_usage_error(PARSE(&a, err, "status", "1", "2"), err, "unexpected argument '2'");
    expect_usage_error(PARSE(&a, err, "status", "1", "-n", "3"), err, "status does not take -n");
    expect_usage_error(PARSE(&a, err, "top", "1", "-n", "0"), err, "bad -n '0'");
    expect_usage_error(PARSE(&a, err, "top", "1", "-n", "ten"), err, "bad -n 'ten'");
    expect_usage_error(PARSE(&a, err, "paths", "1", "-n", "65"), err, "from 1 to 64");
    expect_usage_error(PARSE(&a, err, "top", "1", "-n"), err, "-n needs a value");
    expect_usage_error(PARSE(&a, err, "top", "1", "--by", "size"), err, "accepted: inuse, alloc, growth");
    expect_usage_error(PARSE(&a, err, "top", "1", "--every", "10x"), err, "bad --every");
    expect_usage_error(PARSE(&a, err, "top", "1", "--every", "10ms"), err, "at least 100ms");
    expect_usage_error(PARSE(&a, err, "top", "1", "--stack=yes"), err, "--stack takes no value");
    expect_usage_error(PARSE(&a, err, "status", "1", "--timeout", "-1s"), err, "bad --timeout");
    expect_usage_error(PARSE(&a, err, "load", "1", "reply=/tmp/x"), err, "'reply=' is set by heapsampler");
    expect_usage_error(PARSE(&a, err, "start", "1", "interval=1k,reply=/x"), err, "'reply=' is set");
    expect_usage_error(cli_parse_args(1, ARGV(NULL), &a, err, sizeof err), err, "no verb given");
}

static void test_durations_and_names(void) {
    CU_ASSERT_EQUAL(cli_parse_duration_ms("10"), 10000);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("10s"), 10000);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("1.5s"), 1500);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("250ms"), 250);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("2m"), 120000);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("1h"), 3600000);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("s"), -1);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("-3s"), -1);
    CU_ASSERT_EQUAL(cli_parse_duration_ms("3d"), -1);
    char name[64];
    CU_ASSERT_EQUAL(cli_paths_file_name("/a/heap.pb.gz", name, sizeof name), 0);
    CU_ASSERT_STRING_EQUAL(name, "/a/heap-paths.pb.gz");
    CU_ASSERT_EQUAL(cli_paths_file_name("heap.pb", name, sizeof name), 0);
    CU_ASSERT_STRING_EQUAL(name, "heap-paths.pb");
    CU_ASSERT_EQUAL(cli_paths_file_name("heap", name, sizeof name), 0);
    CU_ASSERT_STRING_EQUAL(name, "heap-paths");
    CU_ASSERT_EQUAL(cli_paths_file_name("a-very-long-name.pb.gz", name, 8), -1);
    CU_ASSERT_PTR_NULL(cli_format_for_file(".pb.gz")); /* no name before the extension */
    CU_ASSERT_PTR_NULL(cli_format_for_file("x.gz"));
}

static void test_attach_request(void) {
    char buf[4096];
    size_t n = cli_attach_load_request(buf, sizeof buf, "/lib/libheapsampler.so", "status,reply=/tmp/r");
    static const char expected[] = "1\0load\0/lib/libheapsampler.so\0true\0status,reply=/tmp/r";
    CU_ASSERT_EQUAL(n, sizeof expected);
    CU_ASSERT_EQUAL(memcmp(buf, expected, sizeof expected), 0);
    char long_opts[1100];
    memset(long_opts, 'x', sizeof long_opts - 1);
    long_opts[sizeof long_opts - 1] = '\0';
    CU_ASSERT_EQUAL(cli_attach_load_request(buf, sizeof buf, "/l.so", long_opts), 0);
    CU_ASSERT_EQUAL(cli_attach_load_request(buf, 20, "/lib/libheapsampler.so", "x"), 0);
}

static void test_attach_response(void) {
    cli_attach_response r;
    static const char jdk17[] = "0\nreturn code: 0\n";
    CU_ASSERT_EQUAL(cli_attach_parse_response(jdk17, strlen(jdk17), &r), 0);
    CU_ASSERT_EQUAL(r.op_rc, 0);
    CU_ASSERT_TRUE(r.has_agent_rc);
    CU_ASSERT_EQUAL(r.agent_rc, 0);
    static const char refused[] = "0\nreturn code: -1\n";
    CU_ASSERT_EQUAL(cli_attach_parse_response(refused, strlen(refused), &r), 0);
    CU_ASSERT_EQUAL(r.agent_rc, -1);
    static const char old_jdk[] = "0\n100\n";
    CU_ASSERT_EQUAL(cli_attach_parse_response(old_jdk, strlen(old_jdk), &r), 0);
    CU_ASSERT_TRUE(r.has_agent_rc);
    CU_ASSERT_EQUAL(r.agent_rc, 100);
    static const char not_loaded[] = "-1\n/x/libheapsampler.so was not loaded.\nmore\n";
    CU_ASSERT_EQUAL(cli_attach_parse_response(not_loaded, strlen(not_loaded), &r), 0);
    CU_ASSERT_EQUAL(r.op_rc, -1);
    CU_ASSERT_FALSE(r.has_agent_rc);
    CU_ASSERT_EQUAL(strncmp(r.text, "/x/libheapsampler.so was not loaded.", 36), 0);
    static const char bare[] = "0\n";
    CU_ASSERT_EQUAL(cli_attach_parse_response(bare, strlen(bare), &r), 0);
    CU_ASSERT_FALSE(r.has_agent_rc);
    CU_ASSERT_EQUAL(cli_attach_parse_response("", 0, &r), -1);
    CU_ASSERT_EQUAL(cli_attach_parse_response("hello\n", 6, &r), -1);
}

static void test_reply_parse(void) {
    cli_reply r;
    static const char ok[] = "heapsampler-reply 1 version=0.1.0 rc=0\nstate: sampling\n";
    CU_ASSERT_EQUAL(cli_reply_parse(ok, strlen(ok), &r), 0);
    CU_ASSERT_STRING_EQUAL(r.version, "0.1.0");
    CU_ASSERT_EQUAL(r.rc, 0);
    CU_ASSERT_STRING_EQUAL(r.body, "state: sampling\n");
    static const char error[] = "heapsampler-reply 1 rc=1 version=0.2.0-dev extra=x\nbad command\n";
    CU_ASSERT_EQUAL(cli_reply_parse(error, strlen(error), &r), 0);
    CU_ASSERT_STRING_EQUAL(r.version, "0.2.0-dev");
    CU_ASSERT_EQUAL(r.rc, 1);
    CU_ASSERT_STRING_EQUAL(r.body, "bad command\n");
    static const char header_only[] = "heapsampler-reply 1 version=1 rc=0";
    CU_ASSERT_EQUAL(cli_reply_parse(header_only, strlen(header_only), &r), 0);
    CU_ASSERT_STRING_EQUAL(r.body, "");
    CU_ASSERT_EQUAL(cli_reply_parse("", 0, &r), -1);
    CU_ASSERT_EQUAL(cli_reply_parse("heapsampler-reply 2 version=1 rc=0\n", 35, &r), -1);
    CU_ASSERT_EQUAL(cli_reply_parse("heapsampler-reply 1 rc=0\n", 25, &r), -1);
    CU_ASSERT_EQUAL(cli_reply_parse("heapsampler-reply 1 version=1 rc=x\n", 35, &r), -1);
    char state[32];
    CU_ASSERT_TRUE(cli_text_field("interval: 1\nstate: stopped\n", "state", state, sizeof state));
    CU_ASSERT_STRING_EQUAL(state, "stopped");
    CU_ASSERT_FALSE(cli_text_field("states: x\n", "state", state, sizeof state));
}

static const char status_text[] =
    "Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t4242\n"
    "Uid:\t1001\t1002\t1002\t1002\nGid:\t2001\t2002\t2002\t2002\n"
    "NSpid:\t4242\t17\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n"
    "SigCgt:\t0000000101005ccd\n";

static void test_proc_status(void) {
    CU_ASSERT_EQUAL(cli_status_nspid(status_text, 4242), 17);
    CU_ASSERT_EQUAL(cli_status_nspid("Name:\tjava\n", 4242), 4242); /* old kernels: no NSpid */
    CU_ASSERT_EQUAL(cli_status_nspid("NSpid:\t99\n", 99), 99);
    uid_t uid;
    gid_t gid;
    CU_ASSERT_EQUAL(cli_status_ids(status_text, &uid, &gid), 0);
    CU_ASSERT_EQUAL(uid, 1002);
    CU_ASSERT_EQUAL(gid, 2002);
    CU_ASSERT_EQUAL(cli_status_ids("Name:\tx\n", &uid, &gid), -1);
    CU_ASSERT_TRUE(cli_status_catches_sigquit(status_text));
    CU_ASSERT_FALSE(cli_status_catches_sigquit("SigCgt:\t0000000101001cc8\n")); /* -Xrs */
    CU_ASSERT_FALSE(cli_status_catches_sigquit("Name:\tx\n"));
    CU_ASSERT_FALSE(cli_status_stopped(status_text));
    CU_ASSERT_TRUE(cli_status_stopped("Name:\tjava\nState:\tT (stopped)\n"));
    CU_ASSERT_TRUE(cli_status_stopped("State:\tt (tracing stop)\n"));
    CU_ASSERT_FALSE(cli_status_exited(status_text));
    CU_ASSERT_TRUE(cli_status_exited("State:\tZ (zombie)\n"));
}

static void test_maps(void) {
    static const char maps[] =
        "55d0-55d1 r--p 00000000 08:01 1 /usr/lib/jvm/java-17/bin/java\n"
        "7f00-7f01 r-xp 00000000 08:01 2 /usr/lib/jvm/java-17/lib/server/libjvm.so\n"
        "7f02-7f03 rw-p 00000000 00:00 0 \n"
        "7f04-7f05 r-xp 00000000 08:01 3 /opt/hs dir/libheapsampler.so (deleted)\n"
        "7f06-7f07 r-xp 00000000 08:01 4 /opt/libheapsampler.so.bak\n"
        "7ffd-7ffe rw-p 00000000 00:00 0 [stack]";
    char path[256];
    CU_ASSERT_TRUE(cli_maps_find(maps, "libjvm.so", path, sizeof path));
    CU_ASSERT_STRING_EQUAL(path, "/usr/lib/jvm/java-17/lib/server/libjvm.so");
    CU_ASSERT_TRUE(cli_maps_find(maps, "libheapsampler.so", path, sizeof path));
    CU_ASSERT_STRING_EQUAL(path, "/opt/hs dir/libheapsampler.so");
    CU_ASSERT_FALSE(cli_maps_find(maps, "libzip.so", path, sizeof path));
    CU_ASSERT_FALSE(cli_maps_find("7f-7f r-xp 0 0:0 3 /x/notlibjvm.so\n", "libjvm.so", path, sizeof path));
    CU_ASSERT_FALSE(cli_maps_find(maps, "libjvm.so", path, 10)); /* does not fit */
}

static void test_namespace_paths(void) {
    char out[256];
    CU_ASSERT_EQUAL(cli_host_path(out, sizeof out, 4242, "/tmp/.java_pid17"), 0);
    CU_ASSERT_STRING_EQUAL(out, "/proc/4242/root/tmp/.java_pid17");
    CU_ASSERT_EQUAL(cli_host_path(out, sizeof out, 1, "relative"), -1);
    CU_ASSERT_EQUAL(cli_host_path(out, 12, 4242, "/tmp/x"), -1);
    CU_ASSERT_EQUAL(cli_java_home("/usr/lib/jvm/java-17/lib/server/libjvm.so", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/usr/lib/jvm/java-17");
    CU_ASSERT_EQUAL(cli_java_home("/opt/jdk8/jre/lib/amd64/server/libjvm.so", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/opt/jdk8");
    CU_ASSERT_EQUAL(cli_java_home("/opt/lib/jdk/lib/server/libjvm.so", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/opt/lib/jdk");
    CU_ASSERT_EQUAL(cli_java_home("libjvm.so", out, sizeof out), -1);
    CU_ASSERT_TRUE(cli_release_version("IMPLEMENTOR=\"Eclipse\"\nJAVA_VERSION=\"25.0.3\"\n", out, sizeof out));
    CU_ASSERT_STRING_EQUAL(out, "25.0.3");
    CU_ASSERT_FALSE(cli_release_version("JAVA_RUNTIME_VERSION=\"1\"\n", out, sizeof out));
    CU_ASSERT_EQUAL(cli_copied_lib_path(out, sizeof out, "0.1.0"), 0);
    CU_ASSERT_STRING_EQUAL(out, "/tmp/heapsampler-0.1.0/libheapsampler.so");
    CU_ASSERT_EQUAL(cli_copied_lib_dir(out, sizeof out, "0.1.0"), 0);
    CU_ASSERT_STRING_EQUAL(out, "/tmp/heapsampler-0.1.0");
}

static void test_disable_attach(void) {
    bool seen;
    static const char cmd[] = "java\0-XX:+DisableAttachMechanism\0-cp\0.\0Main";
    CU_ASSERT_TRUE(cli_args_disable_attach(cmd, sizeof cmd, '\0', &seen));
    CU_ASSERT_TRUE(seen);
    static const char undone[] = "java\0-XX:+DisableAttachMechanism\0-XX:-DisableAttachMechanism\0Main";
    CU_ASSERT_FALSE(cli_args_disable_attach(undone, sizeof undone, '\0', &seen));
    CU_ASSERT_TRUE(seen);
    static const char env[] = "-Xmx1g -XX:+DisableAttachMechanism";
    CU_ASSERT_TRUE(cli_args_disable_attach(env, strlen(env), ' ', &seen));
    static const char similar[] = "java\0-XX:+DisableAttachMechanismX\0Main";
    CU_ASSERT_FALSE(cli_args_disable_attach(similar, sizeof similar, '\0', &seen));
    CU_ASSERT_FALSE(seen);
}

static void expect_main(const char *cmdline, size_t len, const char *expected) {
    char out[128];
    cli_main_class(cmdline, len, out, sizeof out);
    if (strcmp(out, expected) != 0) fprintf(stderr, "\n  got '%s', expected '%s'\n", out, expected);
    CU_ASSERT_STRING_EQUAL(out, expected);
}
#define MAIN_OF(literal, expected) expect_main(literal, sizeof literal, expected)

static void test_main_class(void) {
    MAIN_OF("java\0-Xmx1g\0-cp\0a.jar:b.jar\0com.acme.Main\0arg", "com.acme.Main");
    MAIN_OF("java\0-classpath\0x\0-Dk=v\0Hold", "Hold");
    MAIN_OF("java\0--class-path=x\0-agentpath:/l.so=a=b\0Hold", "Hold");
    MAIN_OF("/usr/bin/java\0-jar\0/srv/app.jar\0--port\08080", "/srv/app.jar");
    MAIN_OF("java\0--module-path\0mods\0-m\0com.acme/com.acme.Main", "com.acme/com.acme.Main");
    MAIN_OF("java\0--module=com.acme/com.acme.Main", "com.acme/com.acme.Main");
    MAIN_OF("java\0--add-opens\0java.base/java.lang=ALL-UNNAMED\0Main", "Main");
    MAIN_OF("java\0-Djava.util.logging.config.file=/c/logging.properties\0-classpath\0/c/bootstrap.jar\0"
            "org.apache.catalina.startup.Bootstrap\0start", "org.apache.catalina.startup.Bootstrap");
    MAIN_OF("/usr/lib/jvm/jdk/bin/javac\0-J-Dx=y\0-d\0out\0A.java", "javac");
    MAIN_OF("/opt/app/bin/appserver\0-Xmx1g", "appserver");
    MAIN_OF("java\0-version", "?");
    MAIN_OF("java\0-jar", "?");
    expect_main("java\0Main", 9, "Main"); /* a last argument without its NUL */
    expect_main("", 0, "?");
}

static CU_TestInfo tests[] = {
    {"args: verbs and flags", test_args_verbs},
    {"args: dump formats", test_args_dump},
    {"args: usage errors", test_args_errors},
    {"args: --http, --http-token, --gc", test_args_http_and_gc},
    {"args: durations and file names", test_durations_and_names},
    {"attach: load request", test_attach_request},
    {"attach: response shapes", test_attach_response},
    {"reply file header", test_reply_parse},
    {"proc status fields", test_proc_status},
    {"proc maps", test_maps},
    {"namespace paths and JDK home", test_namespace_paths},
    {"DisableAttachMechanism detection", test_disable_attach},
    {"main class from cmdline", test_main_class},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("cli", tests); }
