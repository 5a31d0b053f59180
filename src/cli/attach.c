/* attach.c: the attach handshake and the load operation (see attach.h). */
#include "attach.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ns_path.h"
#include "temp_files.h"

#define MAX_RESPONSE (1u << 20)

static long remaining(long deadline) {
    long r = deadline - cli_now_ms();
    return r > 0 ? r : 0;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* 1: the socket exists and belongs to the target's user; 0: absent; an exit code else. */
static int socket_ready(const cli_target *t, const char *sock, cli_err *e) {
    struct stat st;
    if (lstat(sock, &st) != 0) {
        if (errno == ENOENT) return 0;
        if (cli_target_exited(t->pid))
            return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", t->pid);
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot see %s: %s", sock, strerror(errno));
    }
    if (!S_ISSOCK(st.st_mode) || st.st_uid != t->euid)
        return cli_fail(e, CLI_EXIT_ATTACH,
                        "%s is not a socket of the JVM's user (uid %u, owner %u): refusing to use it",
                        sock, (unsigned)t->euid, (unsigned)st.st_uid);
    return 1;
}

/* Creates the trigger file in the target's cwd, else its /tmp. Returns its slot, -2 when
 * another client's trigger is there already, -1 when neither place takes one. */
static int create_trigger(const cli_target *t) {
    char name[32], dir[64];
    snprintf(name, sizeof name, ".attach_pid%d", t->nspid);
    snprintf(dir, sizeof dir, "/proc/%d/cwd", t->pid);
    for (int place = 0; place < 2; place++) {
        int slot = cli_temp_create_in(dir, name);
        if (slot >= 0) return slot;
        if (errno == EEXIST) return -2;
        snprintf(dir, sizeof dir, "/proc/%d/root/tmp", t->pid);
    }
    return -1;
}

/* Starts the target's attach listener and waits for its socket. Returns 0 or an exit code. */
static int start_listener(const cli_target *t, const char *sock, long deadline, cli_err *e) {
    if (!t->catches_sigquit)
        return cli_fail(e, CLI_EXIT_ATTACH,
                        "process %d does not handle SIGQUIT (started with -Xrs, or still starting): "
                        "attaching would kill it",
                        t->pid);
    if (cli_target_attach_disabled(t->pid))
        return cli_fail(e, CLI_EXIT_ATTACH, "process %d runs with -XX:+DisableAttachMechanism: it refuses "
                                            "every attach", t->pid);
    if (cli_target_stopped(t->pid))
        return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d is stopped (SIGSTOP or a debugger): it cannot answer "
                                             "until resumed", t->pid);
    int slot = create_trigger(t);
    if (slot == -1)
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot create the attach trigger in the cwd or /tmp of process "
                                            "%d: %s", t->pid, strerror(errno));
    if (slot >= 0 && kill(t->pid, SIGQUIT) != 0) {
        cli_temp_remove(slot);
        return cli_fail(e, errno == ESRCH ? CLI_EXIT_NO_PROCESS : CLI_EXIT_ATTACH,
                        "cannot signal process %d: %s", t->pid, strerror(errno));
    }
    int rc = 0;
    for (long wait = 10;; wait = wait < 200 ? wait * 2 : 200) {
        rc = socket_ready(t, sock, e);
        if (rc != 0) break;
        if (cli_target_exited(t->pid)) {
            rc = cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", t->pid);
            break;
        }
        if (remaining(deadline) == 0) {
            rc = cli_fail(e, CLI_EXIT_TIMEOUT,
                          "no attach socket from process %d within the timeout after SIGQUIT%s (the "
                          "JVM may be too busy: try a longer --timeout)",
                          t->pid, slot == -2 ? " (another attach's trigger file is present)" : "");
            break;
        }
        sleep_ms(wait < remaining(deadline) ? wait : remaining(deadline));
    }
    if (slot >= 0) cli_temp_remove(slot);
    return rc == 1 ? 0 : rc;
}

/* Waits for fd to be ready for events until deadline. Returns 1, 0 on timeout, -1 on error. */
static int wait_fd(int fd, short events, long deadline) {
    for (;;) {
        struct pollfd p = {fd, events, 0};
        int n = poll(&p, 1, (int)remaining(deadline));
        if (n < 0 && errno == EINTR) continue;
        return n;
    }
}

static int connect_socket(const cli_target *t, const char *sock, long deadline, cli_err *e) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock) >= sizeof addr.sun_path)
        return -cli_fail(e, CLI_EXIT_ATTACH, "socket path too long: %s", sock);
    strcpy(addr.sun_path, sock);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -cli_fail(e, CLI_EXIT_ATTACH, "socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 && errno != EINPROGRESS && errno != EAGAIN) {
        int err = errno;
        close(fd);
        return -cli_fail(e, CLI_EXIT_ATTACH, "cannot connect to the attach socket of process %d: %s",
                         t->pid, strerror(err));
    }
    if (wait_fd(fd, POLLOUT, deadline) <= 0) {
        close(fd);
        return -cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not accept the attach connection in time",
                         t->pid);
    }
    return fd;
}

static int send_all(int fd, const char *buf, size_t len, long deadline, const cli_target *t, cli_err *e) {
    while (len > 0) {
        if (wait_fd(fd, POLLOUT, deadline) <= 0)
            return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not take the attach request in time", t->pid);
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) return cli_fail(e, CLI_EXIT_ATTACH, "sending to process %d: %s", t->pid, strerror(errno));
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads until the JVM closes the connection. */
static int read_all(int fd, char **out, long deadline, const cli_target *t, cli_err *e) {
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap);
    if (!buf) return cli_fail(e, CLI_EXIT_ATTACH, "out of memory");
    for (;;) {
        int ready = wait_fd(fd, POLLIN, deadline);
        if (ready <= 0) {
            free(buf);
            return cli_fail(e, CLI_EXIT_TIMEOUT,
                            "process %d did not answer within the timeout (a JVM busy in a safepoint "
                            "or GC can take long: try a longer --timeout)", t->pid);
        }
        if (used + 1 >= cap) {
            if (cap >= MAX_RESPONSE) break;
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) break;
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = recv(fd, buf + used, cap - used - 1, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;
        used += (size_t)n;
    }
    buf[used] = '\0';
    *out = buf;
    return 0;
}

int cli_attach_load(const cli_target *t, const char *library, const char *options, long deadline,
                    cli_attach_response *resp, char **raw, cli_err *e) {
    *raw = NULL;
    char request[3 * CLI_ATTACH_ARG_MAX + 32];
    size_t request_len = cli_attach_load_request(request, sizeof request, library, options);
    if (request_len == 0)
        return cli_fail(e, CLI_EXIT_USAGE, "the library path or the options exceed %d characters",
                        CLI_ATTACH_ARG_MAX - 1);
    char sock[PATH_MAX];
    snprintf(sock, sizeof sock, "/proc/%d/root/tmp/.java_pid%d", t->pid, t->nspid);
    int rc = socket_ready(t, sock, e);
    if (rc == 0) rc = start_listener(t, sock, deadline, e);
    else rc = rc == 1 ? 0 : rc;
    if (rc) return rc;
    int fd = connect_socket(t, sock, deadline, e);
    if (fd < 0) return -fd;
    rc = send_all(fd, request, request_len, deadline, t, e);
    if (rc == 0) rc = read_all(fd, raw, deadline, t, e);
    close(fd);
    if (rc) return rc;
    if (cli_attach_parse_response(*raw, strlen(*raw), resp) != 0) {
        if (!**raw && cli_target_exited(t->pid))
            rc = cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited before it answered", t->pid);
        else if (!**raw)
            rc = cli_fail(e, CLI_EXIT_ATTACH, "process %d closed the attach connection without an answer", t->pid);
        else
            rc = cli_fail(e, CLI_EXIT_ATTACH, "process %d answered the attach request with '%.80s'", t->pid, *raw);
        free(*raw);
        *raw = NULL;
    }
    return rc;
}
