/* test_cli_files.c: the files the heapsampler command writes: the operator's -o FILE
 * (out_file.c: atomic, no clobber without --force, a symlink replaced and never followed,
 * a missing directory refused), and the privilege boundary (target_side.c) with this
 * process as the target: what the child may hold and send, how the parent takes it, the
 * files the child makes in the target's /tmp. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect.h"
#include "out_file.h"
#include "privilege.h"
#include "target.h"
#include "target_side.h"
#include "temp_files.h"
#include "unit.h"

static char dir[] = "/tmp/hs-cli-files-XXXXXX";

static int setup(void) { return mkdtemp(dir) ? 0 : -1; }

static int teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text into FILE through the command's out file (what the parent does with the
 * bytes the child sends). Returns the exit code. */
static int write_out(const char *file, bool force, const char *text) {
    cli_out o;
    cli_err e = {0, ""};
    int rc = cli_out_open(&o, file, force, &e);
    if (rc == 0) rc = cli_out_write(&o, text, strlen(text), &e);
    if (rc == 0) rc = cli_out_commit(&o, &e);
    cli_out_abort(&o);
    return rc;
}

static void expect_content(const char *path, const char *text) {
    size_t len = 0;
    char *got = cli_read_file(path, 1 << 20, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, text);
    free(got);
}

/* Entries in dir other than the given names (temp files left behind). */
static int stray_files(const char *keep1, const char *keep2) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -v -x -e '%s' -e '%s' | grep -q .", dir, keep1, keep2);
    return system(cmd) == 0;
}

static void test_out_copy(void) {
    char file[128];
    snprintf(file, sizeof file, "%s/heap.html", dir);
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), 0);
    CU_ASSERT_EQUAL(write_out(file, false, "first"), 0);
    expect_content(file, "first");
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), CLI_EXIT_EXISTS);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "use --force"));
    CU_ASSERT_EQUAL(write_out(file, false, "second"), CLI_EXIT_EXISTS); /* raced in: still refused */
    expect_content(file, "first");
    CU_ASSERT_EQUAL(cli_out_check(file, true, &e), 0);
    CU_ASSERT_EQUAL(write_out(file, true, "third"), 0);
    expect_content(file, "third");
    CU_ASSERT_FALSE(stray_files("heap.html", "heap.html"));
}

/* The system call itself, not the link() fallback: /tmp's filesystem (ext4, tmpfs, overlayfs)
 * has RENAME_NOREPLACE, under glibc and musl, on x86-64 and under qemu-aarch64. */
static void test_rename_noreplace(void) {
    char from[128], to[128], fresh[128];
    snprintf(from, sizeof from, "%s/from", dir);
    snprintf(to, sizeof to, "%s/to", dir);
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    FILE *f = fopen(from, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("new", f);
    fclose(f);
    f = fopen(to, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("old", f);
    fclose(f);
    errno = 0;
    CU_ASSERT_EQUAL(cli_rename_noreplace(from, to), -1);
    CU_ASSERT_EQUAL(errno, EEXIST); /* not EINVAL or ENOSYS: the kernel was asked */
    expect_content(to, "old");
    expect_content(from, "new");
    CU_ASSERT_EQUAL(cli_rename_noreplace(from, fresh), 0);
    expect_content(fresh, "new");
    CU_ASSERT_EQUAL(access(from, F_OK), -1);
    unlink(to);
    unlink(fresh);
}

static void test_out_symlink_replaced(void) {
    char file[128], victim[128];
    snprintf(file, sizeof file, "%s/link.pb.gz", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    int v = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CU_ASSERT_EQUAL(write(v, "keep", 4), 4);
    close(v);
    CU_ASSERT_EQUAL_FATAL(symlink(victim, file), 0);
    CU_ASSERT_EQUAL(write_out(file, false, "profile"), CLI_EXIT_EXISTS);
    CU_ASSERT_EQUAL(write_out(file, true, "profile"), 0);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(file, &st), 0);
    CU_ASSERT_TRUE(S_ISREG(st.st_mode)); /* the link itself was replaced */
    expect_content(victim, "keep");     /* and never followed */
    unlink(file);
    unlink(victim);
}

static void test_out_bad_directory(void) {
    char file[160];
    snprintf(file, sizeof file, "%s/missing/heap.txt", dir);
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), CLI_EXIT_WRITE);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cannot write into"));
    CU_ASSERT_EQUAL(write_out(file, false, "x"), CLI_EXIT_WRITE);
    snprintf(file, sizeof file, "%s", dir);
    CU_ASSERT_EQUAL(cli_out_check(file, true, &e), CLI_EXIT_WRITE); /* a directory */
}

/* ---- the privilege boundary, with this process as the target ---- */

static int send_facts(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    (void)e;
    char *status = cli_read_file("/proc/self/status", 1 << 16, NULL);
    char ids[64];
    uid_t r, u, sv;
    getresuid(&r, &u, &sv);
    snprintf(ids, sizeof ids, "%u/%u/%u", (unsigned)r, (unsigned)u, (unsigned)sv);
    cli_side_send_info(s, "caps", status && cli_status_no_caps(status) ? "none" : "some");
    cli_side_send_info(s, "ids", ids);
    cli_side_send_info(s, "dumpable", prctl(PR_GET_DUMPABLE) ? "yes" : "no");
    free(status);
    int fd = -1;
    for (int i = 3; i < 64; i++) /* the only descriptors: the channel and the side's */
        if (fcntl(i, F_GETFD) >= 0 && i != s->channel && i != s->rootfd && i != s->cwdfd &&
            i != s->t->pidfd && i != s->t->procfd)
            fd = i;
    cli_side_send_info(s, "stray_fd", fd >= 0 ? "yes" : "no");
    cli_side_send_text(s, "hello ", 6);
    cli_side_send_text(s, "world", 5);
    cli_side_send_data(s, 0, "DATA", 4);
    return 0;
}

static void test_side_run(void) {
    cli_target self;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL_FATAL(cli_target_open(getpid(), &self, &e), 0);
    char file[128];
    snprintf(file, sizeof file, "%s/side.txt", dir);
    cli_out out;
    CU_ASSERT_EQUAL_FATAL(cli_out_open(&out, file, false, &e), 0);
    cli_side_result r;
    memset(&r, 0, sizeof r);
    r.streams[0] = &out;
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, send_facts, NULL, cli_now_ms() + 5000, &r, &e), 0);
    CU_ASSERT_EQUAL(cli_out_commit(&out, &e), 0);
    CU_ASSERT_STRING_EQUAL(r.answer, "hello world");
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "caps"), "none");
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "dumpable"), "no");
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "stray_fd"), "no");
    char ids[64];
    snprintf(ids, sizeof ids, "%u/%u/%u", (unsigned)geteuid(), (unsigned)geteuid(), (unsigned)geteuid());
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "ids"), ids);
    CU_ASSERT_PTR_NULL(cli_side_info(&r, "missing"));
    expect_content(file, "DATA");
    unlink(file);
    cli_side_result_free(&r);
    cli_target_close(&self);
}

/* A child that breaks the protocol: a record longer than any the parent takes. */
static int send_oversized(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    (void)e;
    cli_record_head h = {CLI_RECORD_TEXT, 0, CLI_SIDE_RECORD_MAX + 1};
    if (write(s->channel, &h, sizeof h) != (ssize_t)sizeof h) return 1;
    pause(); /* the parent must not wait for the rest */
    return 0;
}

static int sleep_forever(cli_side *s, void *arg, cli_err *e) {
    (void)s;
    (void)arg;
    (void)e;
    sleep(60); /* the parent kills it at the deadline */
    return 0;
}

static int fail_in_child(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    return cli_fail(e, CLI_EXIT_AGENT, "refused in the child of %d", s->t->pid);
}

static int die_in_child(cli_side *s, void *arg, cli_err *e) {
    (void)s;
    (void)arg;
    (void)e;
    raise(SIGKILL);
    return 0;
}

static void test_side_failures(void) {
    cli_target self;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL_FATAL(cli_target_open(getpid(), &self, &e), 0);
    cli_side_result r;
    memset(&r, 0, sizeof r);
    long start = cli_now_ms();
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, send_oversized, NULL, start + 5000, &r, &e), CLI_EXIT_AGENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "sent a record of 65537 bytes"));
    CU_ASSERT(cli_now_ms() - start < 2000);
    start = cli_now_ms();
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, sleep_forever, NULL, start + 300, &r, &e), CLI_EXIT_TIMEOUT);
    long took = cli_now_ms() - start;
    CU_ASSERT(took >= 300 && took < 300 + CLI_SIDE_GRACE_MS + 1000);
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, fail_in_child, NULL, cli_now_ms() + 5000, &r, &e), CLI_EXIT_AGENT);
    char want[64];
    snprintf(want, sizeof want, "refused in the child of %d", getpid());
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, die_in_child, NULL, cli_now_ms() + 5000, &r, &e), CLI_EXIT_ATTACH);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "killed by signal 9"));
    CU_ASSERT_PTR_NULL(r.answer);
    cli_target_close(&self);
}

/* The child's files in the target's /tmp: made through the side's /tmp descriptor, removed
 * when the child ends even when it does not remove them itself. */
static int make_target_file(cli_side *s, void *arg, cli_err *e) {
    const char *name = arg;
    int rc = cli_side_tmp(s, e);
    if (rc) return rc;
    if (cli_temp_create_at(s->tmpfd, name) < 0) return cli_fail(e, CLI_EXIT_ATTACH, "create: %s", strerror(errno));
    struct stat st;
    char mode[16];
    snprintf(mode, sizeof mode, "%o", fstatat(s->tmpfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st.st_mode & 0777 : 0);
    cli_side_send_info(s, "mode", mode);
    return 0;
}

static void test_side_target_files(void) {
    cli_target self;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL_FATAL(cli_target_open(getpid(), &self, &e), 0);
    char name[64], path[96];
    snprintf(name, sizeof name, ".heapsampler-test-%d", getpid());
    snprintf(path, sizeof path, "/tmp/%s", name);
    cli_side_result r;
    memset(&r, 0, sizeof r);
    CU_ASSERT_EQUAL(cli_side_run(&self, -1, make_target_file, name, cli_now_ms() + 5000, &r, &e), 0);
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "mode"), "600");
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* removed with the child */
    cli_target_close(&self);
}

static void test_no_process(void) {
    cli_target t;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_target_inspect(0x7ffffff0, &t, true, cli_now_ms() + 5000, &e), CLI_EXIT_NO_PROCESS);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no process"));
}

static CU_TestInfo tests[] = {
    {"out file: atomic, no clobber, --force", test_out_copy},
    {"out file: rename without replacing (renameat2's system call)", test_rename_noreplace},
    {"out file: a symlink is replaced, not followed", test_out_symlink_replaced},
    {"out file: missing directory", test_out_bad_directory},
    {"boundary: a child without capabilities or stray fds, records received", test_side_run},
    {"boundary: protocol break, timeout, child's failure line, killed child", test_side_failures},
    {"boundary: the child's files in the target's /tmp, removed with it", test_side_target_files},
    {"no such process", test_no_process},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("cli files", setup, teardown);
    for (const CU_TestInfo *t = tests; suite && t->pName; t++) CU_add_test(suite, t->pName, t->pTestFunc);
}
