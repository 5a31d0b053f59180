/* target_side.c: the child that works as the target's user, and the parent that only
 * receives from it (see target_side.h). */
#include "target_side.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_faults.h"
#include "privilege.h"
#include "resolve.h"
#include "temp_files.h"

/* ---- records (pure) ---- */

const char *cli_side_record_refusal(const cli_record_head *h, const cli_side_totals *totals, char *why,
                                    size_t len) {
    if (h->len > CLI_SIDE_RECORD_MAX)
        snprintf(why, len, "a record of %u bytes (at most %u)", (unsigned)h->len, CLI_SIDE_RECORD_MAX);
    else if (h->kind < CLI_RECORD_TEXT || h->kind > CLI_RECORD_END)
        snprintf(why, len, "a record of unknown kind %u", (unsigned)h->kind);
    else if (h->kind == CLI_RECORD_TEXT && totals->answer + h->len > CLI_MAX_ANSWER)
        snprintf(why, len, "an answer over %llu MiB", CLI_MAX_ANSWER >> 20);
    else if (h->kind == CLI_RECORD_DATA && h->stream >= CLI_SIDE_STREAMS)
        snprintf(why, len, "output stream %u (there are %d)", (unsigned)h->stream, CLI_SIDE_STREAMS);
    else if (h->kind == CLI_RECORD_DATA && totals->streams[h->stream] + h->len > CLI_MAX_OUTPUT)
        snprintf(why, len, "an output over %llu MiB", CLI_MAX_OUTPUT >> 20);
    else if (h->kind == CLI_RECORD_INFO && (totals->infos >= CLI_SIDE_INFOS || h->len >= CLI_SIDE_INFO_MAX))
        snprintf(why, len, "too many or too long facts");
    else if (h->kind == CLI_RECORD_END && (h->len < 4 || h->len > 4 + sizeof ((cli_err *)0)->msg))
        snprintf(why, len, "an end record of %u bytes", (unsigned)h->len);
    else
        return NULL;
    return why;
}

/* ---- the child's side ---- */

static int write_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int send_record(cli_side *s, uint32_t kind, uint32_t stream, const void *a, size_t alen, const void *b,
                       size_t blen) {
    cli_record_head h = {kind, stream, (uint32_t)(alen + blen)};
    if (write_all(s->channel, &h, sizeof h) != 0 || (alen && write_all(s->channel, a, alen) != 0) ||
        (blen && write_all(s->channel, b, blen) != 0))
        return -1;
    return 0;
}

/* Long text or data in records of at most CLI_SIDE_RECORD_MAX bytes. */
static int send_chunks(cli_side *s, uint32_t kind, uint32_t stream, const char *buf, size_t len) {
    do {
        size_t n = len < CLI_SIDE_RECORD_MAX ? len : CLI_SIDE_RECORD_MAX;
        if (send_record(s, kind, stream, buf, n, NULL, 0) != 0) return -1;
        buf += n;
        len -= n;
    } while (len > 0);
    return 0;
}

int cli_side_send_text(cli_side *s, const char *text, size_t len) {
    return send_chunks(s, CLI_RECORD_TEXT, 0, text, len);
}

int cli_side_send_data(cli_side *s, int stream, const char *buf, size_t len) {
    return len ? send_chunks(s, CLI_RECORD_DATA, (uint32_t)stream, buf, len) : 0;
}

int cli_side_send_info(cli_side *s, const char *key, const char *value) {
    char info[CLI_SIDE_INFO_MAX];
    int n = snprintf(info, sizeof info, "%s=%s", key, value);
    if (n < 0 || (size_t)n >= sizeof info) return -1;
    return send_record(s, CLI_RECORD_INFO, 0, info, (size_t)n, NULL, 0);
}

static void send_end(cli_side *s, int rc, const cli_err *e) {
    int32_t code = rc;
    const char *msg = rc ? e->msg : "";
    send_record(s, CLI_RECORD_END, 0, &code, sizeof code, msg, strlen(msg));
}

int cli_side_tmp(cli_side *s, cli_err *e) {
    if (s->tmpfd >= 0) return 0;
    s->tmpfd = cli_resolve(s->rootfd, "/tmp", O_PATH | O_DIRECTORY, 0);
    if (s->tmpfd >= 0) return 0;
    if (errno == ELOOP)
        return cli_fail(e, CLI_EXIT_ATTACH, "the /tmp of process %d is a symbolic link: refusing it", s->t->pid);
    return cli_fail(e, errno == ENOENT && cli_target_exited(s->t) ? CLI_EXIT_NO_PROCESS : CLI_EXIT_ATTACH,
                    "cannot open the /tmp of process %d: %s", s->t->pid, strerror(errno));
}

int cli_side_tmp_unchanged(cli_side *s, cli_err *e) {
    struct stat held, now;
    int fd = cli_resolve(s->rootfd, "/tmp", O_PATH | O_DIRECTORY, 0);
    bool same = fd >= 0 && fstat(fd, &now) == 0 && fstat(s->tmpfd, &held) == 0 && now.st_dev == held.st_dev &&
                now.st_ino == held.st_ino;
    if (fd >= 0) close(fd);
    if (same) return 0;
    return cli_fail(e, CLI_EXIT_ATTACH,
                    "the /tmp of process %d was moved or replaced while heapsampler worked in it: refusing it",
                    s->t->pid);
}

int cli_side_check_alive(cli_side *s, cli_err *e) {
    if (cli_target_exited(s->t)) return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", s->t->pid);
    if (cli_target_stopped(s->t))
        return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d is stopped (SIGSTOP or a debugger): it cannot answer until "
                                             "resumed (kill -CONT %d)", s->t->pid, s->t->pid);
    return 0;
}

static int compare_ints(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Closes every descriptor but the n in keep (the child holds nothing else of the parent's). */
static void keep_only(int *keep, int n) {
    qsort(keep, (size_t)n, sizeof *keep, compare_ints);
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 1 << 20) max = 1 << 20;
    int from = 0;
    for (int i = 0; i <= n; i++) {
        int to = i < n ? keep[i] - 1 : (int)max;
        if (to >= from) {
#ifdef SYS_close_range
            if (syscall(SYS_close_range, (unsigned)from, (unsigned)to, 0) != 0)
#endif
                for (int fd = from; fd <= to && fd < 65536; fd++) close(fd);
        }
        if (i < n && keep[i] + 1 > from) from = keep[i] + 1;
    }
}

/* Out of the operator's session (its terminal is no longer the child's controlling
 * terminal: no TIOCSTI into it, no Ctrl-C from it), the standard streams on /dev/null (the
 * child reports through its channel only), working in "/" (not in the operator's cwd). */
static int detach(void) {
    setsid(); /* fails only for a process group leader, which a forked child is not */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) return -1;
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
        if (dup2(null, fd) != fd) return -1;
    if (null > STDERR_FILENO) close(null);
    return chdir("/");
}

/* A reader's /proc/PID files, opened as the operator before the drop. */
static void open_proc_files(cli_side *s, const char *const *names) {
    for (int i = 0; i < CLI_SIDE_PROC_FILES; i++) {
        s->procfds[i] = -1;
        s->procerrs[i] = ENOENT;
        if (!names || !names[i]) continue;
        s->procfds[i] = openat(s->t->procfd, names[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
        if (s->procfds[i] < 0) s->procerrs[i] = errno;
    }
}

/* The child: its own signals, nothing of the parent's but what it needs, then the target's
 * identity, then fn. Signals arrive blocked (the parent blocked them around fork): the
 * parent's handlers, whose cleanup is the parent's, never run here. */
static void run_child(cli_side *s, const cli_identity *id, const char *const *proc_files, const sigset_t *mask,
                      pid_t parent, cli_side_fn fn, void *arg) {
    cli_temp_forget_all();
    cli_temp_install_signals(130); /* SIGTERM, SIGHUP: remove this child's files, end */
    sigprocmask(SIG_SETMASK, mask, NULL);
    cli_err e = {0, ""};
    int rc = detach() == 0 ? 0 : cli_fail(&e, CLI_EXIT_ATTACH, "the command's worker cannot detach: %s", strerror(errno));
    int keep[] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, s->channel, s->rootfd, s->cwdfd,
                  s->t->pidfd, s->t->procfd, id->userns_fd, s->libfd};
    int n = 0;
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        if (keep[i] >= 0) keep[n++] = keep[i];
    keep_only(keep, n);
    open_proc_files(s, proc_files);
    if (rc == 0) rc = cli_become(id, &e);
    if (rc == 0) {
        /* dies with the parent (the setting does not survive the change of ids: set after) */
        prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
        if (getppid() != parent) _exit(1);
        cli_resolve_force_fallback(cli_fault_set("cli_no_openat2"));
        rc = fn(s, arg, &e);
    }
    cli_temp_remove_all(); /* before the end record: the parent may kill us once it has it */
    send_end(s, rc, &e);
    _exit(0);
}

/* ---- the parent's side ---- */

void cli_side_result_free(cli_side_result *r) {
    free(r->answer);
    r->answer = NULL;
    r->answer_len = 0;
}

const char *cli_side_info(const cli_side_result *r, const char *key) {
    size_t n = strlen(key);
    for (int i = r->ninfos - 1; i >= 0; i--)
        if (strncmp(r->infos[i], key, n) == 0 && r->infos[i][n] == '=') return r->infos[i] + n + 1;
    return NULL;
}

/* Reads exactly len bytes before deadline. Returns 0, 1 at EOF before any byte, -1 on
 * error or short read, -2 at the deadline. */
static int read_exact(int fd, void *buf, size_t len, long deadline) {
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        long left = deadline - cli_now_ms();
        if (left <= 0) return -2;
        struct pollfd pfd = {fd, POLLIN, 0};
        int ready = poll(&pfd, 1, left > 1000 ? 1000 : (int)left);
        if (ready < 0 && errno != EINTR) return -1;
        if (ready <= 0) continue;
        ssize_t n = read(fd, p + got, len - got);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) return -1;
        if (n == 0) return got == 0 ? 1 : -1;
        got += (size_t)n;
    }
    return 0;
}

/* Takes one record's payload into r. Returns 0, 1 after the end record, or an exit code. */
static int take_record(const cli_record_head *h, const char *payload, cli_side_result *r, cli_side_totals *tot,
                       int *child_rc, cli_err *e) {
    switch (h->kind) {
    case CLI_RECORD_TEXT: {
        char *bigger = realloc(r->answer, r->answer_len + h->len + 1);
        if (!bigger) return cli_fail(e, CLI_EXIT_AGENT, "out of memory");
        memcpy(bigger + r->answer_len, payload, h->len);
        r->answer = bigger;
        r->answer_len += h->len;
        r->answer[r->answer_len] = '\0';
        tot->answer += h->len;
        return 0;
    }
    case CLI_RECORD_DATA:
        tot->streams[h->stream] += h->len;
        if (!r->streams[h->stream]) return cli_fail(e, CLI_EXIT_AGENT, "output stream %u was not asked for", h->stream);
        return cli_out_write(r->streams[h->stream], payload, h->len, e);
    case CLI_RECORD_INFO:
        memcpy(r->infos[r->ninfos], payload, h->len);
        r->infos[r->ninfos++][h->len] = '\0';
        tot->infos++;
        return 0;
    default: { /* CLI_RECORD_END */
        int32_t code;
        memcpy(&code, payload, sizeof code);
        *child_rc = code;
        if (code) {
            e->code = code;
            snprintf(e->msg, sizeof e->msg, "%.*s", (int)(h->len - sizeof code), payload + sizeof code);
        }
        return 1;
    }
    }
}

/* Receives until the end record, EOF, a refused record or the deadline. */
static int receive(int fd, const cli_target *t, long deadline, cli_side_result *r, cli_err *e) {
    static char payload[CLI_SIDE_RECORD_MAX + 1];
    cli_side_totals tot;
    memset(&tot, 0, sizeof tot);
    for (;;) {
        cli_record_head h;
        int got = read_exact(fd, &h, sizeof h, deadline);
        char why[96];
        if (got == 0 && cli_side_record_refusal(&h, &tot, why, sizeof why))
            return cli_fail(e, CLI_EXIT_AGENT, "the command's worker for process %d sent %s: stopped it", t->pid, why);
        if (got == 0) got = read_exact(fd, payload, h.len, deadline);
        if (got == -2)
            return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not answer within the timeout", t->pid);
        if (got != 0) return -1; /* the child ended without its end record: the caller says why */
        int child_rc = 0;
        int rc = take_record(&h, payload, r, &tot, &child_rc, e);
        if (rc == 1) return child_rc;
        if (rc) return rc;
    }
}

/* Ends the child: asked first when it is still working (its handler removes its files),
 * given wait_ms, then killed, and given a second more. A child still there then (the kill
 * does not end a process asleep in the kernel, e.g. on a FUSE file of the target's that
 * never answers) is left to end by itself: false. */
static bool reap(pid_t child, bool ask, long wait_ms, int *status) {
    *status = 0;
    if (ask) {
        kill(child, SIGTERM);
        kill(child, SIGCONT); /* a child stopped by the target's user (or a test) */
    }
    long killed_at = -1;
    for (long start = cli_now_ms();;) {
        pid_t done = waitpid(child, status, WNOHANG);
        if (done == child || (done < 0 && errno != EINTR)) return true;
        long now = cli_now_ms();
        if (killed_at < 0 && now - start >= wait_ms) {
            kill(child, SIGKILL);
            killed_at = now;
        }
        if (killed_at >= 0 && now - killed_at >= 1000) return false;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* The descriptors of the target's root and cwd, through its /proc/PID. */
static int open_roots(const cli_target *t, int *rootfd, int *cwdfd, cli_err *e) {
    *rootfd = openat(t->procfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
    *cwdfd = openat(t->procfd, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (*rootfd >= 0) return 0;
    int saved = errno;
    if (*cwdfd >= 0) close(*cwdfd);
    *cwdfd = -1;
    errno = saved;
    if (errno == ENOENT || errno == ESRCH) return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", t->pid);
    return cli_fail(e, CLI_EXIT_PERMISSION, "cannot open the root directory of process %d: %s", t->pid,
                    strerror(errno));
}

/* What a run holds and how long the parent waits. */
typedef struct {
    int libfd;
    const char *const *proc_files; /* a reader's */
    bool roots;                    /* the target's root and cwd opened for the child */
    long grace_ms;                 /* past the deadline, for the child's own timeout line */
    long ask_ms;                   /* SIGTERM before SIGKILL, for the child's cleanup */
} side_request;

/* Forks the child with every signal blocked (see run_child). */
static pid_t fork_child(cli_side *s, const cli_identity *id, const side_request *q, int pipefd[2], cli_side_fn fn,
                        void *arg) {
    pid_t parent = getpid();
    sigset_t all, old;
    sigfillset(&all);
    fflush(stdout);
    fflush(stderr);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t child = fork();
    if (child == 0) {
        close(pipefd[0]);
        s->channel = pipefd[1];
        run_child(s, id, q->proc_files, &old, parent, fn, arg);
    }
    int saved = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return child;
}

static int run_side(const cli_target *t, const side_request *q, cli_side_fn fn, void *arg, long deadline,
                    cli_side_result *r, cli_err *e) {
    cli_identity id;
    int rc = cli_identity_read(t, &id, e);
    if (rc) return rc;
    cli_side s = {.t = t, .rootfd = -1, .cwdfd = -1, .tmpfd = -1, .libfd = q->libfd, .deadline = deadline};
    int pipefd[2] = {-1, -1};
    if (q->roots) rc = open_roots(t, &s.rootfd, &s.cwdfd, e);
    if (rc == 0 && pipe2(pipefd, O_CLOEXEC) != 0) rc = cli_fail(e, CLI_EXIT_ATTACH, "pipe: %s", strerror(errno));
    pid_t child = -1;
    if (rc == 0) {
        child = fork_child(&s, &id, q, pipefd, fn, arg);
        if (child < 0) rc = cli_fail(e, CLI_EXIT_ATTACH, "fork: %s", strerror(errno));
    }
    if (pipefd[1] >= 0) close(pipefd[1]);
    if (s.rootfd >= 0) close(s.rootfd);
    if (s.cwdfd >= 0) close(s.cwdfd);
    cli_identity_close(&id);
    if (rc == 0) {
        rc = receive(pipefd[0], t, deadline + q->grace_ms, r, e);
        int status;
        bool reaped = rc != 0 ? reap(child, q->ask_ms > 0, q->ask_ms, &status) : reap(child, false, 300, &status);
        if (rc < 0)
            rc = reaped && WIFSIGNALED(status)
                     ? cli_fail(e, CLI_EXIT_ATTACH, "the command's worker for process %d was killed by signal %d",
                                t->pid, WTERMSIG(status))
                     : cli_fail(e, CLI_EXIT_ATTACH, "the command's worker for process %d ended without an answer",
                                t->pid);
    }
    if (pipefd[0] >= 0) close(pipefd[0]);
    return rc;
}

int cli_side_run(const cli_target *t, int libfd, cli_side_fn fn, void *arg, long deadline, cli_side_result *r,
                 cli_err *e) {
    side_request q = {.libfd = libfd, .roots = true, .grace_ms = CLI_SIDE_GRACE_MS, .ask_ms = 300};
    return run_side(t, &q, fn, arg, deadline, r, e);
}

int cli_side_run_reader(const cli_target *t, const char *const *proc_files, cli_side_fn fn, void *arg, long deadline,
                        cli_side_result *r, cli_err *e) {
    side_request q = {.libfd = -1, .proc_files = proc_files, .grace_ms = 0, .ask_ms = 0};
    return run_side(t, &q, fn, arg, deadline, r, e);
}
