/* test_cli_boundary.c: the pure pieces of the command's privilege boundary and what it
 * reads on the target's side: escaping target bytes for the terminal (safe_text.c), path
 * components and the confined resolver with openat2 and with its fallback walk, the file
 * checks (a FIFO, a 1 TiB sparse file, a hard link, another owner, a symbolic link),
 * /proc texts (stat with a hostile command name, groups, id maps, capabilities), the
 * perfdata attach flag, the parent's record limits, the test-fault switches, and a
 * terminal on the target's side that must never become the command's controlling one. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_faults.h"
#include "ns_path.h"
#include "perfdata.h"
#include "privilege.h"
#include "resolve.h"
#include "safe_text.h"
#include "target.h"
#include "target_side.h"
#include "unit.h"

/* ---- escaping ---- */

static void expect_escaped(const char *in, size_t len, bool keep_newlines, const char *want) {
    char out[256];
    size_t need = cli_escape(in, len, keep_newlines, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, want);
    CU_ASSERT_EQUAL(need, strlen(want));
    if (strcmp(out, want) != 0) fprintf(stderr, "\n  escaped '%s', expected '%s'\n", out, want);
}

static void test_escape(void) {
    expect_escaped("plain text", 10, false, "plain text");
    expect_escaped("\033]0;pwned\007Evil", 14, false, "\\x1b]0;pwned\\x07Evil");     /* OSC */
    expect_escaped("a\033[2Jb", 6, false, "a\\x1b[2Jb");                             /* CSI */
    expect_escaped("ok\rfake", 7, false, "ok\\x0dfake");                             /* CR */
    expect_escaped("l1\nl2", 5, true, "l1\nl2");
    expect_escaped("l1\nl2", 5, false, "l1\\x0al2");
    expect_escaped("a\tb\x7f", 4, false, "a\tb\\x7f");                               /* tab kept, DEL not */
    expect_escaped("x\xc2\x9b" "31m", 6, false, "x\\xc2\\x9b31m");                   /* C1 CSI */
    expect_escaped("\xe2\x80\xae" "evil", 7, false, "\\xe2\\x80\\xaeevil");             /* RLO */
    expect_escaped("\x9b" "1m", 3, false, "\\x9b1m");                                /* a lone 8-bit CSI */
    expect_escaped("\xc0\x80", 2, false, "\\xc0\\x80");                              /* overlong NUL */
    expect_escaped("\xed\xa0\x80", 3, false, "\\xed\\xa0\\x80");                     /* a surrogate */
    expect_escaped("cut \xe2\x82", 6, false, "cut \\xe2\\x82");                      /* cut short */
    expect_escaped("caf\xc3\xa9 \xe2\x86\x92 \xf0\xa0\x80\x80", 14, false, "caf\xc3\xa9 \xe2\x86\x92 \xf0\xa0\x80\x80");
    expect_escaped("a\0b", 3, false, "a\\x00b");
    /* a short buffer: whole characters and whole escapes only; the needed length still counted */
    char small[6];
    CU_ASSERT_EQUAL(cli_escape("ab\033cd", 5, false, small, sizeof small), 8);
    CU_ASSERT_STRING_EQUAL(small, "ab");
    char *dup = cli_escape_dup("\033x", 2, false);
    CU_ASSERT_STRING_EQUAL(dup, "\\x1bx");
    free(dup);
}

/* ---- paths ---- */

static void test_path_components(void) {
    const char *p = "//tmp//heapsampler-1/lib.so/";
    char c[16];
    CU_ASSERT_EQUAL(cli_path_next(&p, c, sizeof c), 1);
    CU_ASSERT_STRING_EQUAL(c, "tmp");
    CU_ASSERT_EQUAL(cli_path_next(&p, c, sizeof c), 1);
    CU_ASSERT_STRING_EQUAL(c, "heapsampler-1");
    CU_ASSERT_EQUAL(cli_path_next(&p, c, sizeof c), 1);
    CU_ASSERT_STRING_EQUAL(c, "lib.so");
    CU_ASSERT_EQUAL(cli_path_next(&p, c, sizeof c), 0);
    p = "a-very-long-component";
    CU_ASSERT_EQUAL(cli_path_next(&p, c, sizeof c), -1);
    CU_ASSERT_TRUE(cli_path_acceptable("/tmp/.java_pid1"));
    CU_ASSERT_TRUE(cli_path_acceptable("tmp"));
    CU_ASSERT_TRUE(cli_path_acceptable("/a/..b/c."));
    CU_ASSERT_FALSE(cli_path_acceptable("/tmp/../etc/shadow"));
    CU_ASSERT_FALSE(cli_path_acceptable("../x"));
    CU_ASSERT_FALSE(cli_path_acceptable("/tmp/./x"));
    CU_ASSERT_FALSE(cli_path_acceptable("/"));
    CU_ASSERT_FALSE(cli_path_acceptable(""));
}

static char tree[] = "/tmp/hs-cli-boundary-XXXXXX";

static int tree_setup(void) { return mkdtemp(tree) ? 0 : -1; }

static int tree_teardown(void) {
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
    return system(cmd) == 0 ? 0 : -1;
}

static void make_file(const char *rel, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void make_link(const char *target, const char *rel) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tree, rel);
    CU_ASSERT_EQUAL(symlink(target, path), 0);
}

/* errno of resolving rel below the tree (0: it opened). */
static int resolve_errno(int root, const char *rel, int flags) {
    int fd = cli_resolve(root, rel, flags, 0);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return errno;
}

static void check_resolver(int root) {
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/file", O_RDONLY), 0);      /* absolute: from the root fd */
    CU_ASSERT_EQUAL(resolve_errno(root, "a/b", O_PATH | O_DIRECTORY), 0);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/up/x", O_RDONLY), ELOOP);   /* a link on the way */
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/up", O_PATH | O_DIRECTORY), ELOOP);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/flink", O_RDONLY), ELOOP); /* a link at the end */
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/flink", O_PATH), ELOOP);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/rel", O_RDONLY), ELOOP);   /* a relative one too */
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/../a/b/file", O_RDONLY), EINVAL);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/none", O_RDONLY), ENOENT);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/file/x", O_RDONLY), ENOTDIR);
    int fd = cli_resolve(root, "/a/b/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
    CU_ASSERT(fd >= 0);
    if (fd >= 0) close(fd);
    CU_ASSERT_EQUAL(resolve_errno(root, "/a/b/flink", O_WRONLY | O_CREAT | O_EXCL), EEXIST);
    char path[256];
    snprintf(path, sizeof path, "%s/a/b/new", tree);
    unlink(path);
}

static void test_resolver(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/a", tree);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/a/b", tree);
    mkdir(path, 0700);
    make_file("a/b/file", "inside");
    make_link("/etc", "a/up");
    make_link("/etc/passwd", "a/b/flink");
    make_link("file", "a/b/rel");
    int root = open(tree, O_PATH | O_DIRECTORY);
    CU_ASSERT_FATAL(root >= 0);
    check_resolver(root);
    bool had_openat2 = cli_resolve_used_openat2();
    cli_resolve_force_fallback(true);
    check_resolver(root);
    CU_ASSERT_FALSE(cli_resolve_used_openat2());
    cli_resolve_force_fallback(false);
    CU_ASSERT_EQUAL(resolve_errno(root, "a/b/file", O_RDONLY), 0);
    CU_ASSERT_EQUAL(cli_resolve_used_openat2(), had_openat2);
    close(root);
}

/* ---- a terminal on the target's side ---- */

enum { TTY_NONE = 0, TTY_TAKEN = 1, TTY_NO_SESSION = 2, TTY_NOT_OPENED = 3, TTY_UNCLEAR = 4 };

/* In a child in a session of its own (no controlling terminal), opens the pty slave at
 * path with cli_resolve (through_resolver) or plain openat, then says whether the slave
 * became its controlling terminal: TTY_TAKEN when /dev/tty opens, TTY_NONE when it fails
 * with ENXIO. */
static int tty_after_open(const char *path, bool through_resolver, bool fallback) {
    pid_t pid = fork();
    if (pid == 0) {
        if (setsid() < 0) _exit(TTY_NO_SESSION);
        cli_resolve_force_fallback(fallback);
        int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        int fd = through_resolver ? cli_resolve(root, path, O_RDWR | O_NONBLOCK, 0)
                                  : openat(root, path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) _exit(TTY_NOT_OPENED);
        int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
        _exit(tty >= 0 ? TTY_TAKEN : errno == ENXIO ? TTY_NONE : TTY_UNCLEAR);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static void test_resolver_no_ctty(void) {
    if (getenv("HEAPSAMPLER_TEST_EMULATOR")) { /* qemu-user's ttys are the host's */
        fprintf(stderr, "\n  under an emulator: skipped ");
        return;
    }
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    const char *slave = master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0 ? ptsname(master) : NULL;
    if (!slave) {
        fprintf(stderr, "\n  no pseudo-terminals here (%s): skipped ", strerror(errno));
        if (master >= 0) close(master);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "%s", slave);
    /* the control: opened without O_NOCTTY, the slave does become the session's terminal */
    int plain = tty_after_open(path, false, false);
    if (plain != TTY_TAKEN) {
        fprintf(stderr, "\n  a pty slave opened without O_NOCTTY is no controlling terminal here (%d): skipped ",
                plain);
        close(master);
        return;
    }
    CU_ASSERT_EQUAL(tty_after_open(path, true, false), TTY_NONE); /* openat2 where the kernel has it */
    CU_ASSERT_EQUAL(tty_after_open(path, true, true), TTY_NONE);  /* the walk */
    close(master);
}

/* ---- checked files ---- */

static int open_checked(int root, const char *rel, uid_t owner, unsigned long long max, cli_err *e) {
    cli_file_rules rules = {true, owner, max};
    struct stat st;
    int fd = cli_open_checked(root, rel, &rules, "the file", CLI_EXIT_AGENT, &st, e);
    if (fd >= 0) close(fd);
    return fd >= 0 ? 0 : -fd;
}

static void test_checked_files(void) {
    char path[256];
    make_file("reply", "heapsampler-reply 1 version=x rc=0\n");
    snprintf(path, sizeof path, "%s/fifo", tree);
    CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/sparse", tree);
    int fd = open(path, O_WRONLY | O_CREAT, 0600);
    CU_ASSERT(fd >= 0 && ftruncate(fd, 1ll << 40) == 0); /* 1 TiB, no block written */
    close(fd);
    char target[256];
    snprintf(target, sizeof target, "%s/reply", tree);
    snprintf(path, sizeof path, "%s/hard", tree);
    CU_ASSERT_EQUAL(link(target, path), 0);
    make_link(target, "soft");
    int root = open(tree, O_PATH | O_DIRECTORY);
    cli_err e = {0, ""};
    long start = cli_now_ms();
    CU_ASSERT_EQUAL(open_checked(root, "fifo", geteuid(), 1 << 20, &e), CLI_EXIT_AGENT);
    CU_ASSERT_STRING_EQUAL(e.msg, "the file is a FIFO, not a regular file: refusing it");
    CU_ASSERT(cli_now_ms() - start < 1000); /* the open did not wait for a writer */
    CU_ASSERT_EQUAL(open_checked(root, "sparse", geteuid(), 1 << 30, &e), CLI_EXIT_AGENT);
    CU_ASSERT_STRING_EQUAL(e.msg, "the file is 1 TiB, over the 1 GiB limit: refusing it");
    CU_ASSERT_EQUAL(open_checked(root, "hard", geteuid(), 1 << 20, &e), CLI_EXIT_AGENT);
    CU_ASSERT_STRING_EQUAL(e.msg, "the file is 2 links (a hard link to another file): refusing it");
    CU_ASSERT_EQUAL(open_checked(root, "soft", geteuid(), 1 << 20, &e), CLI_EXIT_AGENT);
    CU_ASSERT_STRING_EQUAL(e.msg, "the file is a symbolic link (or lies behind one): refusing it");
    unlink(path); /* the hard link: one link again */
    CU_ASSERT_EQUAL(open_checked(root, "reply", geteuid() + 1, 1 << 20, &e), CLI_EXIT_AGENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "not by the JVM's user"));
    CU_ASSERT_EQUAL(open_checked(root, "reply", geteuid(), 10, &e), CLI_EXIT_AGENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "over the 10 B limit"));
    CU_ASSERT_EQUAL(open_checked(root, "reply", geteuid(), 1 << 20, &e), 0);
    cli_file_rules rules = {true, geteuid(), 1 << 20};
    char *text = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(cli_read_checked(root, "reply", &rules, "r", 9, cli_now_ms() + 1000, &text, &len, &e), 0);
    CU_ASSERT_EQUAL(len, 35);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "rc=0"));
    free(text);
    CU_ASSERT_EQUAL(cli_read_checked(root, "reply", &rules, "r", 9, cli_now_ms() - 1, &text, &len, &e), CLI_EXIT_TIMEOUT);
    close(root);
}

static void test_file_refusal(void) {
    struct stat st;
    memset(&st, 0, sizeof st);
    cli_file_rules rules = {true, 1000, 64ull << 20};
    char why[128];
    st.st_mode = S_IFREG | 0600;
    st.st_uid = 1000;
    st.st_nlink = 1;
    st.st_size = 64ll << 20;
    CU_ASSERT_PTR_NULL(cli_file_refusal(&st, &rules, why, sizeof why)); /* exactly the cap */
    st.st_size++;
    CU_ASSERT_STRING_EQUAL(cli_file_refusal(&st, &rules, why, sizeof why), "64.0 MiB, over the 64 MiB limit");
    st.st_size = 10;
    st.st_uid = 0;
    CU_ASSERT_STRING_EQUAL(cli_file_refusal(&st, &rules, why, sizeof why),
                           "owned by uid 0, not by the JVM's user (uid 1000)");
    rules.check_owner = false; /* a JDK's release file: root's, maybe hard-linked */
    st.st_nlink = 3;
    CU_ASSERT_PTR_NULL(cli_file_refusal(&st, &rules, why, sizeof why));
    rules.check_owner = true;
    st.st_uid = 1000;
    CU_ASSERT_STRING_EQUAL(cli_file_refusal(&st, &rules, why, sizeof why), "3 links (a hard link to another file)");
    rules.check_owner = false;
    st.st_mode = S_IFCHR | 0666;
    CU_ASSERT_STRING_EQUAL(cli_file_refusal(&st, &rules, why, sizeof why), "a character device, not a regular file");
    char size[32];
    cli_format_bytes(512, size, sizeof size);
    CU_ASSERT_STRING_EQUAL(size, "512 B");
    cli_format_bytes(1536, size, sizeof size);
    CU_ASSERT_STRING_EQUAL(size, "1.5 KiB");
    cli_format_bytes(1ull << 40, size, sizeof size);
    CU_ASSERT_STRING_EQUAL(size, "1 TiB");
}

/* ---- /proc texts ---- */

static void test_proc_texts(void) {
    char state = 0;
    unsigned long long start = 0;
    const char *stat = "4242 (java) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 2 0 0 20 0 30 0 987654 1000 10\n";
    CU_ASSERT_EQUAL(cli_stat_parse(stat, &state, &start), 0);
    CU_ASSERT_EQUAL(state, 'S');
    CU_ASSERT_EQUAL(start, 987654);
    /* a command name made to look like fields: counted from its last ')' */
    const char *hostile = "77 (x) T 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19) t 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
                          "18 555 1\n";
    CU_ASSERT_EQUAL(cli_stat_parse(hostile, &state, &start), 0);
    CU_ASSERT_EQUAL(state, 't');
    CU_ASSERT_EQUAL(start, 555);
    CU_ASSERT_EQUAL(cli_stat_parse("1 (cut) S 1 2\n", &state, &start), -1);
    CU_ASSERT_EQUAL(cli_stat_parse("no parenthesis", &state, &start), -1);

    gid_t groups[4];
    CU_ASSERT_EQUAL(cli_status_groups("Name:\tjava\nGroups:\t4 24 1001 \nNSpid:\t1\n", groups, 4), 3);
    CU_ASSERT_EQUAL(groups[2], 1001);
    CU_ASSERT_EQUAL(cli_status_groups("Groups:\t\n", groups, 4), 0);
    CU_ASSERT_EQUAL(cli_status_groups("Groups:\t1 2 3 4 5\n", groups, 4), -1);
    CU_ASSERT_EQUAL(cli_status_groups("Name:\tx\n", groups, 4), -1);

    unsigned long inside = 0;
    const char *map = "         0     100000      65536\n     65536       1001          1\n";
    CU_ASSERT_EQUAL(cli_id_inside(map, 100000, &inside), 0);
    CU_ASSERT_EQUAL(inside, 0);
    CU_ASSERT_EQUAL(cli_id_inside(map, 165535, &inside), 0);
    CU_ASSERT_EQUAL(inside, 65535);
    CU_ASSERT_EQUAL(cli_id_inside(map, 1001, &inside), 0);
    CU_ASSERT_EQUAL(inside, 65536);
    CU_ASSERT_EQUAL(cli_id_inside(map, 165536, &inside), -1);
    CU_ASSERT_EQUAL(cli_id_inside(map, 0, &inside), -1); /* host root: not in the container */

    const char *none = "CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n"
                       "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n";
    CU_ASSERT_TRUE(cli_status_no_caps(none));
    CU_ASSERT_EQUAL(cli_status_caps(none, "CapBnd:"), 0x1ffffffffffll);
    CU_ASSERT_FALSE(cli_status_no_caps("CapInh:\t0\nCapPrm:\t0\nCapEff:\t0000000000200000\nCapAmb:\t0\n"));
    CU_ASSERT_FALSE(cli_status_no_caps("CapInh:\t0\nCapPrm:\t20\nCapEff:\t0\n"));
    CU_ASSERT_TRUE(cli_status_no_caps("CapInh:\t0\nCapPrm:\t0\nCapEff:\t0\n")); /* no CapAmb before 4.3 */
    CU_ASSERT_FALSE(cli_status_no_caps("CapInh:\t0\nCapPrm:\t0\n"));
}

/* ---- perfdata ---- */

static void put32(unsigned char *p, unsigned v, bool little) {
    for (int i = 0; i < 4; i++) p[little ? i : 3 - i] = (unsigned char)(v >> (8 * i));
}

/* A perfdata image: a long counter, then sun.rt.jvmCapabilities = caps. */
static size_t perfdata(unsigned char *buf, bool little, const char *caps) {
    memset(buf, 0, 512);
    const unsigned char magic[4] = {0xCA, 0xFE, 0xC0, 0xC0};
    memcpy(buf, magic, 4);
    buf[4] = little;
    buf[5] = 2;
    buf[7] = 1;
    put32(buf + 24, 32, little);
    put32(buf + 28, 2, little);
    unsigned char *e = buf + 32; /* sun.rt.x, a long */
    put32(e, 48, little);
    put32(e + 4, 20, little);
    e[12] = 'J';
    put32(e + 16, 40, little);
    memcpy(e + 20, "sun.rt.x", 9);
    e = buf + 80;
    put32(e, 112, little);
    put32(e + 4, 20, little);
    put32(e + 8, 64, little);
    e[12] = 'B';
    put32(e + 16, 48, little);
    memcpy(e + 20, "sun.rt.jvmCapabilities", 23);
    memcpy(e + 48, caps, strlen(caps));
    return 192;
}

static void test_perfdata(void) {
    unsigned char buf[512];
    size_t len = perfdata(buf, true, "1100");
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), 1);
    len = perfdata(buf, false, "0100");
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), 0);
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len - 40), -1); /* cut inside the entry */
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, 20), -1);
    len = perfdata(buf, true, "1");
    buf[7] = 0; /* not yet accessible */
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), -1);
    len = perfdata(buf, true, "1");
    put32(buf + 32, 0, true); /* an entry of length 0 would loop */
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), -1);
    len = perfdata(buf, true, "1");
    put32(buf + 80 + 16, 4000, true); /* data past the entry */
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), -1);
    len = perfdata(buf, true, "1");
    buf[0] = 0; /* not perfdata */
    CU_ASSERT_EQUAL(cli_perfdata_attach(buf, len), -1);
}

/* ---- the parent's record limits ---- */

static void test_record_limits(void) {
    cli_side_totals tot;
    memset(&tot, 0, sizeof tot);
    char why[96];
    cli_record_head h = {CLI_RECORD_TEXT, 0, CLI_SIDE_RECORD_MAX};
    CU_ASSERT_PTR_NULL(cli_side_record_refusal(&h, &tot, why, sizeof why));
    h.len++;
    CU_ASSERT_PTR_NOT_NULL(cli_side_record_refusal(&h, &tot, why, sizeof why));
    h.len = 100;
    tot.answer = CLI_MAX_ANSWER - 99;
    CU_ASSERT_STRING_EQUAL(cli_side_record_refusal(&h, &tot, why, sizeof why), "an answer over 64 MiB");
    cli_record_head data = {CLI_RECORD_DATA, 1, 100};
    tot.streams[1] = CLI_MAX_OUTPUT - 100;
    CU_ASSERT_PTR_NULL(cli_side_record_refusal(&data, &tot, why, sizeof why));
    tot.streams[1]++;
    CU_ASSERT_STRING_EQUAL(cli_side_record_refusal(&data, &tot, why, sizeof why), "an output over 1024 MiB");
    data.stream = CLI_SIDE_STREAMS;
    CU_ASSERT_PTR_NOT_NULL(cli_side_record_refusal(&data, &tot, why, sizeof why));
    cli_record_head info = {CLI_RECORD_INFO, 0, 10};
    tot.infos = CLI_SIDE_INFOS;
    CU_ASSERT_PTR_NOT_NULL(cli_side_record_refusal(&info, &tot, why, sizeof why));
    cli_record_head end = {CLI_RECORD_END, 0, 2};
    CU_ASSERT_PTR_NOT_NULL(cli_side_record_refusal(&end, &tot, why, sizeof why));
    end.len = 4;
    CU_ASSERT_PTR_NULL(cli_side_record_refusal(&end, &tot, why, sizeof why));
    cli_record_head odd = {99, 0, 0};
    CU_ASSERT_STRING_EQUAL(cli_side_record_refusal(&odd, &tot, why, sizeof why), "a record of unknown kind 99");
}

static void test_faults(void) {
    unsetenv("HEAPSAMPLER_TEST_FAULTS");
    CU_ASSERT_FALSE(cli_fault_set("cli_no_openat2"));
    setenv("HEAPSAMPLER_TEST_FAULTS", "callback_delay_ms=3,cli_no_openat2,cli_stop_at=read_reply", 1);
    CU_ASSERT_TRUE(cli_fault_set("cli_no_openat2"));
    CU_ASSERT_TRUE(cli_fault_set("cli_stop_at=read_reply"));
    CU_ASSERT_FALSE(cli_fault_set("cli_stop_at=read"));
    CU_ASSERT_FALSE(cli_fault_set("cli_no_openat"));
    cli_fault_stop("attach"); /* another step: no stop */
    unsetenv("HEAPSAMPLER_TEST_FAULTS");
}

static CU_TestInfo pure_tests[] = {
    {"escape: control sequences, C1, bidi, bad UTF-8 shown as \\xNN", test_escape},
    {"paths: components, . and .. refused", test_path_components},
    {"file checks: type, owner, links, size", test_file_refusal},
    {"/proc texts: stat with a hostile name, groups, id maps, capabilities", test_proc_texts},
    {"perfdata: the attach flag, hostile offsets", test_perfdata},
    {"records: the parent's limits", test_record_limits},
    {"test faults: items", test_faults},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo file_tests[] = {
    {"resolver: links and .. refused, openat2 and the fallback walk", test_resolver},
    {"resolver: a pty slave opened in a session without a terminal does not become its own", test_resolver_no_ctty},
    {"checked files: FIFO, 1 TiB sparse, hard link, symlink, owner, cap", test_checked_files},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    HS_ADD_SUITE("cli boundary (pure)", pure_tests);
    CU_pSuite suite = CU_add_suite("cli boundary (files)", tree_setup, tree_teardown);
    for (const CU_TestInfo *t = file_tests; suite && t->pName; t++) CU_add_test(suite, t->pName, t->pTestFunc);
}
