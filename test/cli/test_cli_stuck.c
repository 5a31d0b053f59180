/* test_cli_stuck.c: the command against targets whose memory does not answer, or that
 * the target's user may not read (root only; skipped, saying why, elsewhere).
 *
 * The stuck target maps a file named libjvm.so from a FUSE file system of its own (in a
 * mount namespace of its own) whose server never answers a read, becomes an unprivileged
 * user, and has one thread read that page through /proc/self/mem (the kernel holds the
 * target's mmap lock while it waits for the page) while the main thread asks for the
 * lock to write (mmap): from then on every reader of the target's environ or cmdline
 * waits, as long as the server likes (ps, pgrep -a, and before, heapsampler list and
 * status as root). A read of the FUSE file itself, once the server has taken it, leaves
 * the reader asleep in the kernel where SIGKILL does not reach it.
 *
 * Everything that could hang runs in a forked "operator" with a watchdog: if it does not
 * end in time, the test fails and kills the FUSE server, which wakes everything up. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/fuse.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inspect.h"
#include "resolve.h"
#include "target.h"
#include "target_side.h"
#include "unit.h"

#define NOBODY 65534
#define FILE_SIZE (1 << 20)

static void note(const char *why) { fprintf(stderr, "\n  %s ", why); }

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- the FUSE server: one file, libjvm.so, whose reads are never answered ---- */

static void fuse_reply(int fd, uint64_t unique, int error, const void *body, size_t len) {
    char buf[256];
    struct fuse_out_header h = {(uint32_t)(sizeof h + len), error, unique};
    memcpy(buf, &h, sizeof h);
    if (len) memcpy(buf + sizeof h, body, len);
    if (write(fd, buf, sizeof h + len) < 0) _exit(1);
}

static void fuse_attr_of(struct fuse_attr *a, uint64_t node) {
    memset(a, 0, sizeof *a);
    a->ino = node;
    a->mode = node == 1 ? S_IFDIR | 0755 : S_IFREG | 0444;
    a->nlink = node == 1 ? 2 : 1;
    a->size = node == 1 ? 0 : FILE_SIZE;
    a->blksize = 4096;
}

/* Answers what mounting, looking up and opening need; tells `reads` of each read, never
 * answers one. */
static void fuse_serve(int fd, int reads) {
    static char buf[1 << 17];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == ENOENT)) continue;
        if (n < (ssize_t)sizeof(struct fuse_in_header)) _exit(0);
        const struct fuse_in_header *in = (const void *)buf;
        const char *arg = buf + sizeof *in;
        if (in->opcode == FUSE_INIT) {
            const struct fuse_init_in *ii = (const void *)arg;
            struct fuse_init_out o;
            memset(&o, 0, sizeof o);
            o.major = FUSE_KERNEL_VERSION;
            o.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ? ii->minor : FUSE_KERNEL_MINOR_VERSION;
            o.max_readahead = ii->max_readahead;
            o.max_write = 4096;
            fuse_reply(fd, in->unique, 0, &o, sizeof o);
        } else if (in->opcode == FUSE_LOOKUP) {
            struct fuse_entry_out o;
            memset(&o, 0, sizeof o);
            o.nodeid = 2;
            o.entry_valid = o.attr_valid = 3600;
            fuse_attr_of(&o.attr, 2);
            bool known = in->nodeid == 1 && strcmp(arg, "libjvm.so") == 0;
            fuse_reply(fd, in->unique, known ? 0 : -ENOENT, &o, known ? sizeof o : 0);
        } else if (in->opcode == FUSE_GETATTR) {
            struct fuse_attr_out o;
            memset(&o, 0, sizeof o);
            o.attr_valid = 3600;
            fuse_attr_of(&o.attr, in->nodeid);
            fuse_reply(fd, in->unique, 0, &o, sizeof o);
        } else if (in->opcode == FUSE_OPEN) {
            struct fuse_open_out o;
            memset(&o, 0, sizeof o);
            fuse_reply(fd, in->unique, 0, &o, sizeof o);
        } else if (in->opcode == FUSE_READ) {
            if (write(reads, "r", 1) < 0) _exit(1); /* and no answer, ever */
        } else if (in->opcode == FUSE_FLUSH || in->opcode == FUSE_RELEASE) {
            fuse_reply(fd, in->unique, 0, NULL, 0);
        } else if (in->opcode != FUSE_FORGET && in->opcode != FUSE_BATCH_FORGET && in->opcode != FUSE_INTERRUPT) {
            fuse_reply(fd, in->unique, -ENOSYS, NULL, 0);
        }
    }
}

/* ---- the hostile target ---- */

typedef struct {
    pid_t pid;      /* the target (0: none could be made here) */
    pid_t server;   /* its FUSE server */
    char dir[64];   /* the mount point, in the target's mount namespace */
} stuck_target;

static stuck_target stuck;

static void *read_own_page(void *page) {
    int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    char c;
    if (fd >= 0 && pread(fd, &c, 1, (off_t)(unsigned long)page) < 0) close(fd);
    return NULL;
}

/* Waits for a byte of `from`, for at most ms: whether it came. */
static bool await_byte(int from, long ms) {
    struct pollfd p = {from, POLLIN, 0};
    char c;
    return poll(&p, 1, (int)ms) == 1 && read(from, &c, 1) == 1;
}

/* In the target's process: its mount, its server, its page, its user, its stuck lock.
 * Tells `ready` (one byte) once its main thread waits to write-lock its memory. */
static void become_stuck(int ready) {
    int reads[2];
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 || pipe(reads) != 0) _exit(10);
    if (!mkdtemp(stuck.dir) || chmod(stuck.dir, 0755) != 0) _exit(11);
    int fuse = open("/dev/fuse", O_RDWR | O_CLOEXEC);
    char opts[128];
    snprintf(opts, sizeof opts, "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fuse);
    if (fuse < 0 || mount("hs-stuck", stuck.dir, "fuse.hs-stuck", MS_NOSUID | MS_NODEV, opts) != 0) _exit(12);
    pid_t server = fork();
    if (server == 0) fuse_serve(fuse, reads[1]);
    close(fuse);
    char path[96];
    snprintf(path, sizeof path, "%s/libjvm.so", stuck.dir);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    void *page = f < 0 ? MAP_FAILED : mmap(NULL, FILE_SIZE, PROT_READ, MAP_PRIVATE, f, 0);
    if (page == MAP_FAILED) _exit(13);
    close(f);
    if (setgroups(0, NULL) != 0 || setresgid(NOBODY, NOBODY, NOBODY) != 0 || setresuid(NOBODY, NOBODY, NOBODY) != 0)
        _exit(14);
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0); /* as any process of that user */
    stuck.server = server;
    if (write(ready, &stuck, sizeof stuck) != (ssize_t)sizeof stuck) _exit(15);
    pthread_t holder;
    if (pthread_create(&holder, NULL, read_own_page, page) != 0 || !await_byte(reads[0], 10000)) _exit(16);
    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* waits behind the holder */
    _exit(0);
}

/* The state letter of /proc/PID/stat, '?' when unreadable (stat reads no memory). */
static char state_of(pid_t pid) {
    char path[32];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    char *stat = cli_read_file(path, 4096, NULL);
    const char *p = stat ? strrchr(stat, ')') : NULL;
    char state = p && p[1] && p[2] ? p[2] : '?';
    free(stat);
    return state;
}

/* Under an emulator (the arm64 tests run under qemu-user, CMakeLists.txt says so): the
 * emulated target's /proc, prctl(PR_SET_MM) and FUSE reads are the emulator's, not what a
 * real target does. */
static bool emulated(void) { return getenv("HEAPSAMPLER_TEST_EMULATOR") != NULL; }

/* Why this environment cannot make the targets (NULL: it can). */
static const char *why_skipped(void) {
    if (geteuid() != 0) return "not root: skipped";
    if (emulated()) return "under an emulator (qemu-user): skipped";
    return NULL;
}

static int stuck_setup(void) {
    snprintf(stuck.dir, sizeof stuck.dir, "/tmp/hs-stuck-XXXXXX");
    if (why_skipped() || access("/dev/fuse", R_OK | W_OK) != 0) return 0; /* each test says it is skipped */
    int ready[2];
    if (pipe(ready) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        become_stuck(ready[1]);
    }
    close(ready[1]);
    stuck_target told_us;
    bool told = read(ready[0], &told_us, sizeof told_us) == (ssize_t)sizeof told_us;
    close(ready[0]);
    pid_t server = told ? told_us.server : 0;
    /* the main thread asleep on the lock: 'D' */
    for (int i = 0; told && i < 500 && state_of(pid) != 'D'; i++) sleep_ms(10);
    if (!told || state_of(pid) != 'D') {
        kill(pid, SIGKILL);
        if (server > 0) kill(server, SIGKILL);
        waitpid(pid, NULL, 0);
        return 0;
    }
    stuck = told_us;
    stuck.pid = pid;
    return 0;
}

static int stuck_teardown(void) {
    if (stuck.server > 0) kill(stuck.server, SIGKILL); /* the server gone, every waiter wakes */
    if (stuck.pid > 0) {
        kill(stuck.pid, SIGKILL);
        waitpid(stuck.pid, NULL, 0);
    }
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    stuck.pid = stuck.server = 0;
    return 0;
}

static bool have_stuck_target(void) {
    if (stuck.pid > 0) return true;
    note(why_skipped() ? why_skipped() : "no FUSE here (/dev/fuse, mount): skipped");
    return false;
}

/* ---- an operator with a watchdog ---- */

typedef struct {
    int rc;
    char msg[sizeof ((cli_err *)0)->msg];
    long took_ms;
} outcome;

typedef int (*operator_fn)(cli_err *e);

/* Runs fn in a forked operator; false when it did not end within limit_ms (then the
 * FUSE server is killed, which ends it, and the test fails). */
static bool run_operator(operator_fn fn, long limit_ms, outcome *out) {
    int pipefd[2];
    CU_ASSERT_FATAL(pipe(pipefd) == 0);
    long start = cli_now_ms();
    pid_t op = fork();
    if (op == 0) {
        close(pipefd[0]);
        cli_err e = {0, ""};
        outcome o = {fn(&e), "", 0};
        snprintf(o.msg, sizeof o.msg, "%s", e.msg);
        o.took_ms = cli_now_ms() - start;
        _exit(write(pipefd[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 1);
    }
    close(pipefd[1]);
    struct pollfd p = {pipefd[0], POLLIN, 0};
    bool ended = poll(&p, 1, (int)limit_ms) == 1 && read(pipefd[0], out, sizeof *out) == (ssize_t)sizeof *out;
    if (!ended) {
        fprintf(stderr, "\n  the operator did not end within %ld ms: the FUSE server is killed to end it ", limit_ms);
        kill(stuck.server, SIGKILL);
        stuck.server = 0;
    }
    kill(op, SIGKILL);
    waitpid(op, NULL, 0);
    close(pipefd[0]);
    return ended;
}

/* ---- the command's reads of a stuck target ---- */

static int inspect_stuck(cli_err *e) {
    cli_target t;
    int rc = cli_target_inspect(stuck.pid, &t, true, cli_now_ms() + 1000, e);
    if (rc == 0) cli_target_close(&t);
    return rc;
}

/* Runs fn as the operator against the stuck target, expecting exit 6; false: skipped. */
static bool times_out(operator_fn fn, outcome *o) {
    if (!have_stuck_target()) return false;
    CU_ASSERT_TRUE_FATAL(run_operator(fn, 8000, o));
    CU_ASSERT_EQUAL(o->rc, CLI_EXIT_TIMEOUT);
    if (o->rc != CLI_EXIT_TIMEOUT) fprintf(stderr, "\n  got %d: %s ", o->rc, o->msg);
    return true;
}

/* Its memory read by the reader child, killed at the deadline: exit 6 in about 1 s, the
 * file named. */
static void test_inspect_stuck(void) {
    outcome o;
    if (!times_out(inspect_stuck, &o)) return;
    char want[64];
    snprintf(want, sizeof want, "reading /proc/%d/environ did not end", (int)stuck.pid);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.msg, want));
    CU_ASSERT(o.took_ms >= 900 && o.took_ms < 1000 + 1500);
}

/* Reads the FUSE file itself on the target's side: the server takes the read and never
 * answers, and the killed child sleeps on in the kernel. */
static int read_fuse_file(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    char path[96];
    snprintf(path, sizeof path, "%s/libjvm.so", stuck.dir);
    int fd = cli_resolve(s->rootfd, path, O_RDONLY, 0);
    if (fd < 0) return cli_fail(e, CLI_EXIT_ATTACH, "cannot open %s: %s", path, strerror(errno));
    char c;
    if (pread(fd, &c, 1, FILE_SIZE - 4096) < 0) return cli_fail(e, CLI_EXIT_ATTACH, "read: %s", strerror(errno));
    return cli_fail(e, CLI_EXIT_ATTACH, "the read was answered");
}

static int side_unkillable(cli_err *e) {
    cli_target t;
    int rc = cli_target_open(stuck.pid, &t, e);
    if (rc) return rc;
    cli_side_result r;
    memset(&r, 0, sizeof r);
    rc = cli_side_run(&t, -1, read_fuse_file, NULL, cli_now_ms() + 500, &r, e);
    cli_side_result_free(&r);
    cli_target_close(&t);
    return rc;
}

/* A child the kill cannot end is left: the parent returns at its deadline, grace, the
 * 300 ms it asks and the second it gives the kill. (This one is the last to use the
 * stuck target: its sleeping child wakes only when the server goes.) */
static void test_unkillable_child(void) {
    outcome o;
    if (times_out(side_unkillable, &o)) CU_ASSERT(o.took_ms < 500 + CLI_SIDE_GRACE_MS + 300 + 1000 + 500);
}

/* Runs the built command with args (at most limit_ms, then killed); its exit code (-1:
 * killed), stdout and stderr. */
static int run_command(const char *const *args, long limit_ms, char *out, size_t out_len, long *took) {
    int pipefd[2];
    if (pipe(pipefd) != 0) return -2;
    long start = cli_now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        execv(HS_CLI_PATH, (char *const *)args);
        _exit(127);
    }
    close(pipefd[1]);
    size_t used = 0;
    for (;;) {
        long left = limit_ms - (cli_now_ms() - start);
        struct pollfd p = {pipefd[0], POLLIN, 0};
        if (left <= 0 || poll(&p, 1, (int)left) != 1) break;
        ssize_t n = read(pipefd[0], out + used, out_len - 1 - used);
        if (n <= 0) break;
        used += (size_t)n;
        if (used == out_len - 1) break;
    }
    out[used] = '\0';
    close(pipefd[0]);
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 100 && !ended; i++) {
        ended = waitpid(pid, &status, WNOHANG) == pid;
        if (!ended) sleep_ms(10);
    }
    *took = cli_now_ms() - start;
    if (ended) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    kill(stuck.server, SIGKILL); /* it hangs: end it, and fail */
    stuck.server = 0;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

/* `heapsampler status PID --timeout 2s`: exit 6 at the timeout, one line naming the file. */
static void test_status_command(void) {
    if (!have_stuck_target()) return;
    char pid[16], out[4096];
    snprintf(pid, sizeof pid, "%d", (int)stuck.pid);
    const char *args[] = {"heapsampler", "status", pid, "--timeout", "2s", NULL};
    long took;
    int rc = run_command(args, 8000, out, sizeof out, &took);
    CU_ASSERT_EQUAL(rc, CLI_EXIT_TIMEOUT);
    CU_ASSERT(took < 2000 + 1500);
    char want[96];
    snprintf(want, sizeof want, "heapsampler: reading /proc/%s/environ did not end within 2.0 s", pid);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
    CU_ASSERT_PTR_NULL(strchr(strchr(out, '\n') ? strchr(out, '\n') + 1 : "", '\n')); /* one line */
    if (rc != CLI_EXIT_TIMEOUT || !strstr(out, want)) fprintf(stderr, "\n  exit %d after %ld ms:\n%s", rc, took, out);
}

/* `heapsampler list`: within its timeout, the stuck process one row marked unreadable. */
static void test_list_command(void) {
    if (!have_stuck_target()) return;
    static char out[1 << 16];
    const char *args[] = {"heapsampler", "list", "--timeout", "20s", NULL};
    long took;
    int rc = run_command(args, 30000, out, sizeof out, &took);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(took < 20000 + 1500);
    char want[128];
    snprintf(want, sizeof want, "\n%d ", (int)stuck.pid);
    const char *row = strstr(out, want);
    CU_ASSERT_PTR_NOT_NULL(row);
    if (row) {
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
        snprintf(want, sizeof want, "unreadable: reading /proc/%d/environ did not end within 1.0 s", (int)stuck.pid);
        CU_ASSERT_PTR_NOT_NULL(strstr(line, want));
    }
    if (rc != 0 || !row) fprintf(stderr, "\n  exit %d after %ld ms:\n%s", rc, took, out);
}

/* ---- a target its own user may not read (not dumpable) ---- */

static unsigned long long stat_field(const char *stat, int n) { /* 1-based, after the name */
    const char *p = strrchr(stat, ')') + 2;
    for (int i = 3; i < n && p; i++) {
        p = strchr(p, ' ');
        if (p) p++;
    }
    return p ? strtoull(p, NULL, 10) : 0;
}

/* Points the process's command line and environment at these NUL-separated texts (in
 * memory of its own that it never frees). */
static int set_args(const char *args, size_t args_len, const char *env, size_t env_len) {
    char *stat = cli_read_file("/proc/self/stat", 4096, NULL);
    char *mem = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!stat || mem == MAP_FAILED) return -1;
    memcpy(mem, args, args_len);
    memcpy(mem + 4096, env, env_len);
    struct prctl_mm_map m;
    memset(&m, 0, sizeof m);
    m.start_code = stat_field(stat, 26);
    m.end_code = stat_field(stat, 27);
    m.start_stack = stat_field(stat, 28);
    m.start_data = stat_field(stat, 45);
    m.end_data = stat_field(stat, 46);
    m.start_brk = stat_field(stat, 47);
    m.brk = (unsigned long)sbrk(0);
    m.arg_start = (unsigned long)mem;
    m.arg_end = (unsigned long)mem + args_len;
    m.env_start = (unsigned long)mem + 4096;
    m.env_end = (unsigned long)mem + 4096 + env_len;
    m.exe_fd = (unsigned)-1;
    free(stat);
    return prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long)&m, sizeof m, 0);
}

/* A "JVM" (a mapped file named libjvm.so) of nobody's, not dumpable (as after a setuid
 * launcher: its /proc/PID/environ and maps are root's), whose environment disables attach. */
static void test_undumpable_target(void) {
    if (why_skipped()) {
        note(why_skipped());
        return;
    }
    char dir[] = "/tmp/hs-undumpable-XXXXXX", lib[64];
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    snprintf(lib, sizeof lib, "%s/libjvm.so", dir);
    int f = open(lib, O_RDWR | O_CREAT | O_EXCL, 0644);
    CU_ASSERT_FATAL(f >= 0 && ftruncate(f, 4096) == 0);
    int ready[2];
    CU_ASSERT_FATAL(pipe(ready) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        static const char args[] = "java\0-cp\0app.jar\0com.example.Main";
        static const char env[] = "PATH=/bin\0JAVA_TOOL_OPTIONS=-XX:+DisableAttachMechanism";
        void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, f, 0);
        if (m == MAP_FAILED || set_args(args, sizeof args, env, sizeof env) != 0) _exit(1);
        if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY)) _exit(2);
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) _exit(3); /* whatever fs.suid_dumpable says */
        if (write(ready[1], "r", 1) != 1) _exit(4);
        pause();
        _exit(0);
    }
    close(f);
    close(ready[1]);
    CU_ASSERT_TRUE(await_byte(ready[0], 5000));
    close(ready[0]);
    struct stat st;
    char environ_path[64];
    snprintf(environ_path, sizeof environ_path, "/proc/%d/environ", (int)pid);
    CU_ASSERT(stat(environ_path, &st) == 0 && st.st_uid == 0); /* not nobody's to read */
    cli_target t;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_target_inspect(pid, &t, false, cli_now_ms() + 5000, &e), 0);
    CU_ASSERT_TRUE(t.attach_disabled);
    CU_ASSERT_STRING_EQUAL(t.libjvm, lib);
    CU_ASSERT_STRING_EQUAL(t.main, "com.example.Main");
    if (!t.attach_disabled || strcmp(t.libjvm, lib) != 0) fprintf(stderr, "\n  %s; libjvm '%s' ", e.msg, t.libjvm);
    cli_target_close(&t);
    CU_ASSERT_EQUAL(cli_target_inspect(pid, &t, true, cli_now_ms() + 5000, &e), CLI_EXIT_ATTACH);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "DisableAttachMechanism"));
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    unlink(lib);
    rmdir(dir);
}

static CU_TestInfo stuck_tests[] = {
    {"inspect: a target whose environ never answers, exit 6 at the deadline", test_inspect_stuck},
    {"status as root: exit 6 within --timeout, one line", test_status_command},
    {"list as root: done within --timeout, the row unreadable", test_list_command},
    {"boundary: a child asleep in the kernel is left, not waited for", test_unkillable_child},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo undumpable_tests[] = {
    {"inspect: a non-dumpable target's environ and maps, read as root, parsed as its user", test_undumpable_target},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("cli: a target whose memory does not answer", stuck_setup, stuck_teardown);
    for (const CU_TestInfo *t = stuck_tests; suite && t->pName; t++) CU_add_test(suite, t->pName, t->pTestFunc);
    HS_ADD_SUITE("cli: a target its user may not read", undumpable_tests);
}
