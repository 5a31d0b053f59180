/* target.c: inspecting a target process and borrowing its credentials (see target.h). */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ns_path.h"

long cli_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

char *cli_read_file(const char *path, size_t max, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
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

int cli_target_inspect(int pid, cli_target *t, bool need_jvm, cli_err *e) {
    memset(t, 0, sizeof *t);
    t->pid = pid;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    char *status = cli_read_file(path, 1 << 16, NULL);
    if (!status) {
        if (errno == ENOENT || errno == ESRCH)
            return cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", pid);
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot read %s: %s", path, strerror(errno));
    }
    int ids = cli_status_ids(status, &t->euid, &t->egid);
    t->nspid = cli_status_nspid(status, pid);
    t->catches_sigquit = cli_status_catches_sigquit(status);
    bool exited = cli_status_exited(status);
    free(status);
    if (exited) return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d has exited", pid);
    if (ids != 0) return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d is gone (no ids in %s)", pid, path);
    int rc = check_permission(t, e);
    if (rc) return rc;
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    char *maps = cli_read_file(path, 64u << 20, NULL);
    if (!maps) {
        if (errno == ENOENT || errno == ESRCH) return cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", pid);
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot read %s: %s", path, strerror(errno));
    }
    bool jvm = cli_maps_find(maps, "libjvm.so", t->libjvm, sizeof t->libjvm);
    cli_maps_find(maps, "libheapsampler.so", t->agent, sizeof t->agent);
    free(maps);
    if (!jvm && need_jvm)
        return cli_fail(e, CLI_EXIT_NOT_JVM, "process %d is not a JVM (no libjvm.so mapped)", pid);
    return 0;
}

/* Applies test to the text of /proc/PID/status; `missing` when it cannot be read. */
static bool status_is(int pid, bool (*test)(const char *), bool missing) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    char *status = cli_read_file(path, 1 << 16, NULL);
    bool answer = status ? test(status) : missing;
    free(status);
    return answer;
}

bool cli_target_stopped(int pid) { return status_is(pid, cli_status_stopped, false); }

bool cli_target_exited(int pid) { return status_is(pid, cli_status_exited, true); }

/* Whether NUL- or space-separated args disable attach; updates *disabled if the option is seen. */
static void scan_options(const char *text, size_t len, char sep, bool *disabled) {
    bool seen;
    bool d = cli_args_disable_attach(text, len, sep, &seen);
    if (seen) *disabled = d;
}

bool cli_target_attach_disabled(int pid) {
    bool disabled = false;
    char path[64];
    size_t len;
    /* The launcher reads JDK_JAVA_OPTIONS and the JVM JAVA_TOOL_OPTIONS before the command
     * line, and _JAVA_OPTIONS after it. */
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    char *env = cli_read_file(path, 1 << 20, &len);
    static const char *const before[] = {"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS="};
    for (size_t i = 0; env && i < sizeof before / sizeof before[0]; i++)
        for (size_t off = 0; off < len; off += strlen(env + off) + 1)
            if (strncmp(env + off, before[i], strlen(before[i])) == 0) {
                const char *v = env + off + strlen(before[i]);
                scan_options(v, strlen(v), ' ', &disabled);
            }
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    char *cmd = cli_read_file(path, 1 << 20, &len);
    if (cmd) scan_options(cmd, len, '\0', &disabled);
    free(cmd);
    for (size_t off = 0; env && off < len; off += strlen(env + off) + 1)
        if (strncmp(env + off, "_JAVA_OPTIONS=", 14) == 0) {
            const char *v = env + off + 14;
            scan_options(v, strlen(v), ' ', &disabled);
        }
    free(env);
    return disabled;
}

static uid_t saved_euid = (uid_t)-1;
static gid_t saved_egid;

int cli_target_enter(const cli_target *t) {
    if (geteuid() != 0 || (t->euid == 0 && t->egid == getegid())) return 0;
    saved_euid = geteuid();
    saved_egid = getegid();
    if (setegid(t->egid) != 0) return -1;
    if (seteuid(t->euid) != 0) {
        int saved = errno;
        if (setegid(saved_egid) != 0) { /* nothing more to undo */ }
        errno = saved;
        return -1;
    }
    return 0;
}

void cli_target_leave(void) {
    if (saved_euid == (uid_t)-1) return;
    if (seteuid(saved_euid) != 0 || setegid(saved_egid) != 0) {
        /* Cannot happen for root giving back root; going on with the target's ids would
         * write the operator's file as the wrong user, so stop here. */
        fprintf(stderr, "heapsampler: cannot restore the operator's credentials: %s\n", strerror(errno));
        _exit(CLI_EXIT_PERMISSION);
    }
    saved_euid = (uid_t)-1;
}
