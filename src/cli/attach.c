/* attach.c: the attach handshake and the load operation, on the target's side (see
 * attach.h). */
#include "attach.h"

#include <dirent.h>
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

#include "cli_faults.h"
#include "perfdata.h"
#include "resolve.h"
#include "temp_files.h"

#define MAX_RESPONSE (1u << 20)
#define ALIVE_CHECK_MS 100

static long remaining(long deadline) {
    long r = deadline - cli_now_ms();
    return r > 0 ? r : 0;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Opens the socket file itself (O_PATH): 1 with *fd, 0 when absent, an exit code else. */
static int open_socket_file(cli_side *s, int *fd, cli_err *e) {
    char name[32];
    snprintf(name, sizeof name, ".java_pid%d", s->t->nspid);
    *fd = cli_resolve(s->tmpfd, name, O_PATH, 0);
    if (*fd < 0) {
        if (errno == ENOENT) return 0;
        if (errno == ELOOP)
            return cli_fail(e, CLI_EXIT_ATTACH, "/tmp/%s of process %d is a symbolic link: refusing it", name,
                            s->t->pid);
        if (cli_target_exited(s->t)) return cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", s->t->pid);
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot see /tmp/%s of process %d: %s", name, s->t->pid,
                        strerror(errno));
    }
    struct stat st = {0};
    if (fstat(*fd, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
        close(*fd);
        *fd = -1;
        return cli_fail(e, CLI_EXIT_ATTACH,
                        "/tmp/%s of process %d is not a socket of the JVM's user (uid %u, owner %u): refusing it",
                        name, s->t->pid, (unsigned)geteuid(), (unsigned)st.st_uid);
    }
    return 1;
}

bool cli_attach_socket_present(cli_side *s) {
    cli_err ignored;
    int fd = -1;
    bool present = cli_side_tmp(s, &ignored) == 0 && open_socket_file(s, &fd, &ignored) == 1;
    if (fd >= 0) close(fd);
    return present;
}

int cli_attach_supported(cli_side *s) {
    cli_err ignored;
    if (cli_side_tmp(s, &ignored) != 0) return -1;
    int dirfd = openat(s->tmpfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
    DIR *dir = dirfd >= 0 ? fdopendir(dirfd) : NULL;
    if (!dir) {
        if (dirfd >= 0) close(dirfd);
        return -1;
    }
    cli_file_rules rules = {true, geteuid(), CLI_PERFDATA_MAX};
    int verdict = -1;
    for (struct dirent *d; verdict < 0 && remaining(s->deadline) > 0 && (d = readdir(dir));) {
        if (strncmp(d->d_name, "hsperfdata_", 11) != 0) continue;
        char path[300];
        snprintf(path, sizeof path, "%.255s/%d", d->d_name, s->t->nspid);
        char *bytes = NULL;
        size_t len = 0;
        if (cli_read_checked(s->tmpfd, path, &rules, "perfdata", CLI_EXIT_ATTACH, s->deadline, &bytes, &len,
                             &ignored) == 0)
            verdict = cli_perfdata_attach((const unsigned char *)bytes, len);
        free(bytes);
    }
    closedir(dir);
    return verdict;
}

/* Creates the trigger file in the target's cwd, else its /tmp. Returns its slot, -2 when
 * another client's trigger is there already, -1 when neither place takes one. */
static int create_trigger(cli_side *s) {
    char name[32];
    snprintf(name, sizeof name, ".attach_pid%d", s->t->nspid);
    const int dirs[] = {s->cwdfd, s->tmpfd};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (dirs[i] < 0) continue;
        int slot = cli_temp_create_at(dirs[i], name);
        if (slot >= 0) return slot;
        if (errno == EEXIST) return -2;
    }
    return -1;
}

/* Why SIGQUIT must not be sent, or 0. */
static int refuse_signal(cli_side *s, cli_err *e) {
    const cli_target *t = s->t;
    if (!t->catches_sigquit)
        return cli_fail(e, CLI_EXIT_ATTACH,
                        "process %d does not handle SIGQUIT (started with -Xrs, or still starting): "
                        "attaching would kill it",
                        t->pid);
    if (t->attach_disabled || cli_attach_supported(s) == 0)
        return cli_fail(e, CLI_EXIT_ATTACH, "process %d runs with -XX:+DisableAttachMechanism: it refuses "
                                            "every attach", t->pid);
    return cli_side_check_alive(s, e);
}

/* Starts the target's attach listener and waits for its socket (*sockfile). Returns 0 or
 * an exit code. */
static int start_listener(cli_side *s, int *sockfile, cli_err *e) {
    int rc = refuse_signal(s, e);
    if (rc) return rc;
    int slot = create_trigger(s);
    if (slot == -1)
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot create the attach trigger in the cwd or /tmp of process "
                                            "%d: %s", s->t->pid, strerror(errno));
    cli_fault_stop("signal");
    if (slot >= 0 && cli_target_signal(s->t, SIGQUIT) != 0) {
        int err = errno;
        cli_temp_remove(slot);
        return err == ESRCH ? cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited", s->t->pid)
                            : cli_fail(e, CLI_EXIT_ATTACH, "cannot signal process %d: %s", s->t->pid, strerror(err));
    }
    for (long wait = 10;; wait = wait < 200 ? wait * 2 : 200) {
        rc = open_socket_file(s, sockfile, e);
        if (rc != 0) break;
        rc = cli_side_check_alive(s, e);
        if (rc) break;
        if (remaining(s->deadline) == 0) {
            rc = cli_fail(e, CLI_EXIT_TIMEOUT,
                          "no attach socket from process %d within the timeout after SIGQUIT%s (the "
                          "JVM may be too busy: try a longer --timeout)",
                          s->t->pid, slot == -2 ? " (another attach's trigger file is present)" : "");
            break;
        }
        sleep_ms(wait < remaining(s->deadline) ? wait : remaining(s->deadline));
    }
    if (slot >= 0) cli_temp_remove(slot);
    return rc == 1 ? 0 : rc;
}

/* Waits for fd to be ready until the deadline, checking every 100 ms that the target is
 * neither stopped nor gone. Returns 1, 0 on timeout, or -(exit code) with the line in e. */
static int wait_fd(cli_side *s, int fd, short events, cli_err *e) {
    for (;;) {
        long left = remaining(s->deadline);
        if (left == 0) return 0;
        struct pollfd p = {fd, events, 0};
        int n = poll(&p, 1, left < ALIVE_CHECK_MS ? (int)left : ALIVE_CHECK_MS);
        if (n > 0) return 1;
        if (n < 0 && errno != EINTR) return 1; /* the next call says why */
        int rc = cli_side_check_alive(s, e);
        if (rc) return -rc;
    }
}

/* The peer of fd must be the target process, as its user. */
static int check_peer(cli_side *s, int fd, cli_err *e) {
    struct ucred peer;
    socklen_t len = sizeof peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0)
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot tell who serves the attach socket of process %d: %s", s->t->pid,
                        strerror(errno));
    if (peer.pid != s->t->pid || peer.uid != geteuid())
        return cli_fail(e, CLI_EXIT_ATTACH,
                        "the attach socket /tmp/.java_pid%d of process %d is served by process %d (uid %u), not by "
                        "the JVM: refusing it",
                        s->t->nspid, s->t->pid, (int)peer.pid, (unsigned)peer.uid);
    return 0;
}

/* Connects to the socket file's own inode and checks its peer. Returns the fd, or -(exit code). */
static int connect_socket(cli_side *s, int sockfile, cli_err *e) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "/proc/self/fd/%d", sockfile);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -cli_fail(e, CLI_EXIT_ATTACH, "socket: %s", strerror(errno));
    int rc = 0;
    while (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        if (errno == EINPROGRESS) break;
        if (errno == EAGAIN && remaining(s->deadline) > 0) { /* the listener's backlog is full */
            sleep_ms(20);
            continue;
        }
        rc = errno == EAGAIN ? cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not accept the attach connection in "
                                                            "time", s->t->pid)
                             : cli_fail(e, CLI_EXIT_ATTACH, "cannot connect to the attach socket of process %d: %s",
                                        s->t->pid, strerror(errno));
        break;
    }
    if (rc == 0) {
        int ready = wait_fd(s, fd, POLLOUT, e);
        if (ready == 0)
            rc = cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not accept the attach connection in time", s->t->pid);
        else if (ready < 0)
            rc = -ready;
    }
    if (rc == 0) rc = check_peer(s, fd, e);
    if (rc) {
        close(fd);
        return -rc;
    }
    return fd;
}

static int send_all(cli_side *s, int fd, const char *buf, size_t len, cli_err *e) {
    while (len > 0) {
        int ready = wait_fd(s, fd, POLLOUT, e);
        if (ready < 0) return -ready;
        if (ready == 0)
            return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d did not take the attach request in time", s->t->pid);
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) return cli_fail(e, CLI_EXIT_ATTACH, "sending to process %d: %s", s->t->pid, strerror(errno));
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads until the JVM closes the connection (at most MAX_RESPONSE bytes). */
static int read_all(cli_side *s, int fd, char **out, cli_err *e) {
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap);
    if (!buf) return cli_fail(e, CLI_EXIT_ATTACH, "out of memory");
    for (;;) {
        int ready = wait_fd(s, fd, POLLIN, e);
        if (ready <= 0) {
            free(buf);
            if (ready < 0) return -ready;
            return cli_fail(e, CLI_EXIT_TIMEOUT,
                            "process %d did not answer within the timeout (a JVM busy in a safepoint "
                            "or GC can take long: try a longer --timeout)", s->t->pid);
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

/* The socket file, there already or made by the listener SIGQUIT starts. */
static int find_socket(cli_side *s, int *sockfile, cli_err *e) {
    int rc = cli_side_tmp(s, e);
    if (rc == 0) rc = open_socket_file(s, sockfile, e);
    if (rc == 0) return start_listener(s, sockfile, e);
    return rc == 1 ? 0 : rc;
}

int cli_attach_load(cli_side *s, const char *library, const char *options, cli_attach_response *resp, char **raw,
                    cli_err *e) {
    *raw = NULL;
    char request[3 * CLI_ATTACH_ARG_MAX + 32];
    size_t request_len = cli_attach_load_request(request, sizeof request, library, options);
    if (request_len == 0)
        return cli_fail(e, CLI_EXIT_USAGE, "the library path or the options exceed %d characters",
                        CLI_ATTACH_ARG_MAX - 1);
    int sockfile = -1;
    int rc = find_socket(s, &sockfile, e);
    if (rc) return rc;
    int fd = connect_socket(s, sockfile, e);
    close(sockfile);
    if (fd < 0) return -fd;
    rc = send_all(s, fd, request, request_len, e);
    if (rc == 0) rc = read_all(s, fd, raw, e);
    close(fd);
    if (rc) return rc;
    if (cli_attach_parse_response(*raw, strlen(*raw), resp) != 0) {
        if (!**raw && cli_target_exited(s->t))
            rc = cli_fail(e, CLI_EXIT_NO_PROCESS, "process %d exited before it answered", s->t->pid);
        else if (!**raw)
            rc = cli_fail(e, CLI_EXIT_ATTACH, "process %d closed the attach connection without an answer", s->t->pid);
        else
            rc = cli_fail(e, CLI_EXIT_ATTACH, "process %d answered the attach request with '%.80s'", s->t->pid, *raw);
        free(*raw);
        *raw = NULL;
    }
    return rc;
}
