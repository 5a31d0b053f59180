/* target.c: a target process through a pidfd and its /proc directory (see target.h). */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ns_path.h"

long cli_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

char *cli_read_fd(int fd, size_t max, size_t *len) {
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (used + 1 >= cap) {
            if (cap >= max) break;
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            free(buf);
            buf = NULL;
            errno = saved;
            break;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    if (!buf) return NULL;
    buf[used] = '\0';
    if (len) *len = used;
    return buf;
}

char *cli_read_file(const char *path, size_t max, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    return fd < 0 ? NULL : cli_read_fd(fd, max, len);
}

char *cli_read_proc(const cli_target *t, const char *name, size_t max, size_t *len) {
    int fd = openat(t->procfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    return fd < 0 ? NULL : cli_read_fd(fd, max, len);
}

static void user_name(uid_t uid, char *out, size_t len) {
    struct passwd *pw = getpwuid(uid);
    if (pw) snprintf(out, len, "%s (uid %u)", pw->pw_name, (unsigned)uid);
    else snprintf(out, len, "uid %u", (unsigned)uid);
}

static int check_permission(const cli_target *t, cli_err *e) {
    if (geteuid() == 0) return 0;
    char them[96], me[96];
    user_name(t->euid, them, sizeof them);
    user_name(geteuid(), me, sizeof me);
    if (t->euid != geteuid())
        return cli_fail(e, CLI_EXIT_PERMISSION,
                        "process %d runs as %s and you are %s: the JVM accepts attach only from its "
                        "own user or root (run as that user, or with sudo)",
                        t->pid, them, me);
    if (t->egid != getegid())
        return cli_fail(e, CLI_EXIT_PERMISSION,
                        "process %d runs with group id %u and you have %u: the JVM accepts attach "
                        "only from its own uid and gid, or root",
                        t->pid, (unsigned)t->egid, (unsigned)getegid());
    return 0;
}

static int pidfd_signal(int pidfd, int sig) {
#ifdef SYS_pidfd_send_signal
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
#else
    (void)pidfd;
    (void)sig;
    errno = ENOSYS;
    return -1;
#endif
}

/* The pidfd first, then /proc/PID, then the pidfd asked whether its process still lives:
 * if it does, /proc/PID was opened while the pid was still its own, so both name the same
 * process (a pid freed and reused in between would have killed the pidfd's process). */
static int open_process(int pid, cli_target *t, cli_err *e) {
#ifdef SYS_pidfd_open
    t->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
#endif
    if (t->pidfd < 0 && errno != ENOSYS) {
        if (errno == ESRCH) return cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", pid);
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot open process %d: %s", pid, strerror(errno));
    }
    char path[32];
    snprintf(path, sizeof path, "/proc/%d", pid);
    t->procfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (t->procfd < 0) return cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", pid);
    if (t->pidfd >= 0 && pidfd_signal(t->pidfd, 0) != 0 && errno == ESRCH)
        return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d has exited", pid);
    return 0;
}

/* The facts of /proc/PID/status and stat. */
static int read_status(cli_target *t, cli_err *e) {
    char *status = cli_read_proc(t, "status", 1 << 16, NULL);
    char *stat = cli_read_proc(t, "stat", 1 << 12, NULL);
    int rc = 0;
    char state = '?';
    if (!status || !stat) {
        rc = errno == ENOENT || errno == ESRCH
                 ? cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", t->pid)
                 : cli_fail(e, CLI_EXIT_PERMISSION, "cannot read /proc/%d/status: %s", t->pid, strerror(errno));
    } else if (cli_status_exited(status)) {
        rc = cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d has exited", t->pid);
    } else if (cli_status_ids(status, &t->euid, &t->egid) != 0 || cli_stat_parse(stat, &state, &t->start_time) != 0) {
        rc = cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d is gone (no ids in /proc/%d/status)", t->pid, t->pid);
    } else {
        t->nspid = cli_status_nspid(status, t->pid);
        t->catches_sigquit = cli_status_catches_sigquit(status);
        t->stopped = state == 'T' || state == 't';
        t->has_memory = cli_status_has_memory(status);
    }
    free(status);
    free(stat);
    return rc;
}

int cli_target_open(int pid, cli_target *t, cli_err *e) {
    memset(t, 0, sizeof *t);
    t->pid = pid;
    t->pidfd = t->procfd = -1;
    int rc = open_process(pid, t, e);
    if (rc == 0) rc = read_status(t, e);
    if (rc == 0) rc = check_permission(t, e);
    if (rc) cli_target_close(t);
    return rc;
}

void cli_target_close(cli_target *t) {
    if (t->pidfd >= 0) close(t->pidfd);
    if (t->procfd >= 0) close(t->procfd);
    t->pidfd = t->procfd = -1;
}

/* Applies test to the text of /proc/PID/status; `missing` when it cannot be read. */
static bool status_is(const cli_target *t, bool (*test)(const char *), bool missing) {
    char *status = cli_read_proc(t, "status", 1 << 16, NULL);
    bool answer = status ? test(status) : missing;
    free(status);
    return answer;
}

bool cli_target_stopped(const cli_target *t) { return status_is(t, cli_status_stopped, false); }

/* A pidfd turns readable when its process exits. */
static bool pidfd_exited(int pidfd) {
    struct pollfd pfd = {pidfd, POLLIN, 0};
    return pidfd >= 0 && poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP)) != 0;
}

bool cli_target_exited(const cli_target *t) {
    return pidfd_exited(t->pidfd) || status_is(t, cli_status_exited, true);
}

int cli_target_check_exited(const cli_target *t, cli_err *e) {
    if (!cli_target_exited(t)) return 0;
    return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d has exited", t->pid);
}

int cli_target_signal(const cli_target *t, int sig) {
    if (t->pidfd >= 0) return pidfd_signal(t->pidfd, sig);
    char *stat = cli_read_proc(t, "stat", 1 << 12, NULL); /* fails once the process is gone */
    char state;
    unsigned long long start;
    bool same = stat && cli_stat_parse(stat, &state, &start) == 0 && start == t->start_time;
    free(stat);
    if (!same) {
        errno = ESRCH;
        return -1;
    }
    return kill(t->pid, sig);
}
