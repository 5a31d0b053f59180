/* test_cli_files.c: the files the heapsampler command writes: the operator's -o FILE
 * (out_file.c: atomic, no clobber without --force, a symlink replaced and never followed,
 * a missing directory refused), and the privilege boundary (target_side.c) with this
 * process as the target: what the child may hold and send (no descriptor, cwd, session
 * or terminal of the operator's), how the parent takes it, the files the child makes in
 * the target's /tmp and removes when the parent gives up, whatever the parent's signal
 * mode; a uid-0 target's process without capabilities cannot trace the child while it
 * drops, and a tracer that got in anyway is refused. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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
    char cwd[PATH_MAX];
    ssize_t n = readlink("/proc/self/cwd", cwd, sizeof cwd - 1);
    cwd[n > 0 ? n : 0] = '\0';
    cli_side_send_info(s, "cwd", cwd);
    struct stat null, st;
    bool quiet = stat("/dev/null", &null) == 0;
    for (int i = STDIN_FILENO; i <= STDERR_FILENO; i++)
        quiet = quiet && fstat(i, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == null.st_rdev;
    cli_side_send_info(s, "stdio", quiet ? "null" : "the operator's");
    cli_side_send_info(s, "session", getsid(0) == getpid() ? "own" : "the operator's");
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
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "cwd"), "/");
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "stdio"), "null");
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "session"), "own");
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

/* Runs fn against this process in ms, its argument the name of a file to make in the
 * target's /tmp (its path in path); the exit code, the records in r. */
static int run_with_target_file(cli_side_fn fn, const char *tag, long ms, cli_side_result *r, char *path, size_t len) {
    cli_target self;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL_FATAL(cli_target_open(getpid(), &self, &e), 0);
    static char name[64];
    snprintf(name, sizeof name, ".heapsampler-test%s-%d", tag, getpid());
    snprintf(path, len, "/tmp/%s", name);
    memset(r, 0, sizeof *r);
    int rc = cli_side_run(&self, -1, fn, name, cli_now_ms() + ms, r, &e);
    cli_target_close(&self);
    return rc;
}

static void test_side_target_files(void) {
    char path[96];
    cli_side_result r;
    CU_ASSERT_EQUAL(run_with_target_file(make_target_file, "", 5000, &r, path, sizeof path), 0);
    CU_ASSERT_STRING_EQUAL(cli_side_info(&r, "mode"), "600");
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* removed with the child */
    cli_side_result_free(&r);
}

/* The child's file in the target's /tmp, then a wait the parent gives up on (a child busy
 * in a loop that retries after a signal, as its reads do). */
static int make_file_then_wait(cli_side *s, void *arg, cli_err *e) {
    int rc = cli_side_tmp(s, e);
    if (rc) return rc;
    if (cli_temp_create_at(s->tmpfd, arg) < 0) return cli_fail(e, CLI_EXIT_ATTACH, "create: %s", strerror(errno));
    for (;;) pause();
}

/* profile's signal mode in the parent (a signal only recorded) is not the child's: the
 * parent's SIGTERM at its timeout ends the child, which removes its file first. */
static void test_side_own_signals(void) {
    char path[96];
    cli_side_result r;
    cli_temp_install_signals(-1);
    CU_ASSERT_EQUAL(run_with_target_file(make_file_then_wait, "-signals", 200, &r, path, sizeof path), CLI_EXIT_TIMEOUT);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* removed by the child's own handler, not left at SIGKILL */
    unlink(path);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    cli_side_result_free(&r);
}

/* ---- the child while it drops, stopped there (cli_stop_at=drop) ---- */

static int nothing(cli_side *s, void *arg, cli_err *e) {
    (void)s;
    (void)arg;
    (void)e;
    return 0;
}

typedef struct {
    pid_t op;   /* the operator: its cli_side_run against this test process */
    int result; /* its pipe: exit code and line */
} dropping;

/* Starts an operator whose child stops itself at the drop; returns the child's pid (or -1). */
static pid_t start_dropping(dropping *d) {
    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    pid_t target = getpid();
    d->op = fork();
    if (d->op == 0) {
        close(pipefd[0]);
        alarm(20);
        setenv("HEAPSAMPLER_TEST_FAULTS", "cli_stop_at=drop", 1);
        cli_target t;
        cli_err e = {0, ""};
        cli_side_result r;
        memset(&r, 0, sizeof r);
        int rc = cli_target_open(target, &t, &e);
        if (rc == 0) rc = cli_side_run(&t, -1, nothing, NULL, cli_now_ms() + 10000, &r, &e);
        dprintf(pipefd[1], "%d %s", rc, e.msg);
        _exit(0);
    }
    close(pipefd[1]);
    d->result = pipefd[0];
    for (int i = 0; i < 500; i++) { /* its child, stopped */
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)d->op, (int)d->op);
        char *children = cli_read_file(path, 256, NULL);
        pid_t child = children ? (pid_t)atoi(children) : 0;
        free(children);
        snprintf(path, sizeof path, "/proc/%d/stat", (int)child);
        char *stat = child > 0 ? cli_read_file(path, 4096, NULL) : NULL;
        const char *p = stat ? strrchr(stat, ')') : NULL;
        bool stopped = p && p[1] && p[2] == 'T';
        free(stat);
        if (stopped) return child;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return -1;
}

/* The operator's exit code, its line in msg. */
static int finish_dropping(dropping *d, char *msg, size_t len) {
    struct pollfd p = {d->result, POLLIN, 0};
    char buf[1024] = "";
    ssize_t n = poll(&p, 1, 20000) == 1 ? read(d->result, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    close(d->result);
    kill(d->op, SIGKILL);
    waitpid(d->op, NULL, 0);
    char *space = strchr(buf, ' ');
    snprintf(msg, len, "%s", space ? space + 1 : "");
    return n > 0 ? atoi(buf) : -1;
}

/* qemu-user (the arm64 tests) has no ptrace: the tracing tests are skipped there, saying so.
 * Seizing pid 0 fails with ESRCH wherever ptrace exists. */
static bool no_ptrace_here(void) {
    if (ptrace(PTRACE_SEIZE, 0, 0, 0) == 0 || errno != ENOSYS) return false;
    fprintf(stderr, "\n  no ptrace here (qemu-user?): skipped ");
    return true;
}

/* A process of the target's uid 0 without capabilities (a container's root) tries to trace
 * the child; exits with the errno of PTRACE_SEIZE (0: it could). */
static int try_to_trace(pid_t child) {
    pid_t attacker = fork();
    if (attacker == 0) {
        struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
        memset(none, 0, sizeof none);
        if (syscall(SYS_capset, &head, none) != 0) _exit(100);
        _exit(ptrace(PTRACE_SEIZE, child, 0, 0) == 0 ? 0 : errno); /* its exit detaches it */
    }
    int status = 0;
    waitpid(attacker, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

/* As root, an operator whose child stopped at the drop: its pid (0: not root, skipped). */
static pid_t stopped_at_drop(dropping *d) {
    if (geteuid() != 0) {
        fprintf(stderr, "\n  not root: skipped ");
        return 0;
    }
    pid_t child = start_dropping(d);
    CU_ASSERT_FATAL(child > 0);
    return child;
}

/* The window: a uid-0 target's child has no capability left and its ids are the target's;
 * were it dumpable then, any uid-0 process could trace it and take its descriptors. */
static void test_drop_not_traceable(void) {
    if (no_ptrace_here()) return;
    dropping d;
    pid_t child = stopped_at_drop(&d);
    if (!child) return;
    int traced = try_to_trace(child);
    CU_ASSERT_EQUAL(traced, EPERM);
    kill(child, SIGCONT);
    char msg[1024];
    int rc = finish_dropping(&d, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, traced == 0 ? CLI_EXIT_PERMISSION : 0);
    if (traced != EPERM) fprintf(stderr, "\n  PTRACE_SEIZE of the dropping child: %s ", traced ? strerror(traced) : "it worked");
}

/* A tracer that got in anyway (here root, which may): the child refuses to go on. */
static void test_drop_refuses_tracer(void) {
    if (no_ptrace_here()) return;
    dropping d;
    pid_t child = stopped_at_drop(&d);
    if (!child) return;
    int seized[2];
    CU_ASSERT_FATAL(pipe(seized) == 0);
    pid_t tracer = fork();
    if (tracer == 0) {
        alarm(20);
        if (ptrace(PTRACE_SEIZE, child, 0, 0) != 0 || write(seized[1], "s", 1) != 1) _exit(1);
        for (;;) { /* lets it run, passing its signals, until it ends */
            int st;
            if (waitpid(child, &st, __WALL) != child || WIFEXITED(st) || WIFSIGNALED(st)) _exit(0);
            int sig = (st >> 16) == PTRACE_EVENT_STOP || WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
            ptrace(PTRACE_CONT, child, 0, sig);
        }
    }
    close(seized[1]);
    char c;
    CU_ASSERT_EQUAL(read(seized[0], &c, 1), 1);
    close(seized[0]);
    kill(child, SIGCONT);
    char msg[1024];
    int rc = finish_dropping(&d, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, CLI_EXIT_PERMISSION);
    char want[96];
    snprintf(want, sizeof want, "process %d traced the command's worker", (int)tracer);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
    if (!strstr(msg, want)) fprintf(stderr, "\n  exit %d: %s ", rc, msg);
    kill(tracer, SIGKILL);
    waitpid(tracer, NULL, 0);
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
    {"boundary: a child without capabilities, stray fds, the operator's cwd, stdio or session", test_side_run},
    {"boundary: protocol break, timeout, child's failure line, killed child", test_side_failures},
    {"boundary: the child's files in the target's /tmp, removed with it", test_side_target_files},
    {"boundary: the child's own signals: removes its files when the parent gives up", test_side_own_signals},
    {"boundary: not traceable by the target's uid while it drops", test_drop_not_traceable},
    {"boundary: a tracer that got in while it dropped: refused", test_drop_refuses_tracer},
    {"no such process", test_no_process},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("cli files", setup, teardown);
    for (const CU_TestInfo *t = tests; suite && t->pName; t++) CU_add_test(suite, t->pName, t->pTestFunc);
}
