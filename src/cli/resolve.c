/* resolve.c: confined path resolution and checked reads on the target's side (see
 * resolve.h). */
#include "resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"

static bool force_fallback;
static bool no_openat2;    /* the kernel said ENOSYS once */
static bool used_openat2;

void cli_resolve_force_fallback(bool on) { force_fallback = on; }

bool cli_resolve_used_openat2(void) { return used_openat2; }

int cli_path_next(const char **p, char *out, size_t len) {
    const char *s = *p;
    while (*s == '/') s++;
    if (!*s) {
        *p = s;
        return 0;
    }
    size_t n = strcspn(s, "/");
    if (n >= len || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) return -1;
    memcpy(out, s, n);
    out[n] = '\0';
    *p = s + n;
    return 1;
}

bool cli_path_acceptable(const char *path) {
    char component[256];
    int got = 0, r;
    while ((r = cli_path_next(&path, component, sizeof component)) == 1) got++;
    return r == 0 && got > 0;
}

/* The flags every open on the target's side gets: O_CLOEXEC, and O_NOCTTY (a terminal the
 * target planted, opened by a process without one, would become its controlling terminal:
 * its hangups and job control signals ours). O_PATH opens nothing, and openat2 refuses
 * any flag beside it but O_DIRECTORY, O_NOFOLLOW and O_CLOEXEC (EINVAL). */
static int confined_flags(int flags) {
    return flags & O_PATH ? flags | O_CLOEXEC : flags | O_CLOEXEC | O_NOCTTY;
}

#ifdef SYS_openat2
/* RESOLVE_NO_SYMLINKS also refuses a trailing link (ELOOP): no O_NOFOLLOW, which would
 * make O_PATH open the link itself. */
static int resolve_openat2(int dirfd, const char *path, int flags, mode_t mode) {
    struct open_how how = {
        .flags = (unsigned long long)confined_flags(flags),
        .mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
        .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    int fd;
    do {
        fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    } while (fd < 0 && errno == EINTR);
    return fd;
}
#endif

/* One step of the walk: opens `name` in dirfd, refusing a symbolic link (ELOOP). */
static int open_component(int dirfd, const char *name, int flags, mode_t mode) {
    int fd;
    do {
        fd = openat(dirfd, name, confined_flags(flags) | O_NOFOLLOW, mode);
    } while (fd < 0 && errno == EINTR);
    struct stat st;
    if (fd < 0) {
        int saved = errno;
        if ((saved == ENOTDIR || saved == ELOOP) && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode))
            saved = ELOOP;
        errno = saved;
        return -1;
    }
    /* O_PATH | O_NOFOLLOW opens a symbolic link itself instead of failing */
    if ((flags & O_PATH) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
        close(fd);
        errno = ELOOP;
        return -1;
    }
    return fd;
}

static int resolve_walk(int dirfd, const char *path, int flags, mode_t mode) {
    char name[256], next_name[256];
    const char *p = path;
    if (cli_path_next(&p, name, sizeof name) != 1) {
        errno = EINVAL;
        return -1;
    }
    int cur = dirfd;
    for (;;) {
        const char *after = p;
        int more = cli_path_next(&after, next_name, sizeof next_name);
        if (more < 0) {
            errno = EINVAL;
            break;
        }
        int fd = more ? open_component(cur, name, O_PATH | O_DIRECTORY, 0) : open_component(cur, name, flags, mode);
        int saved = errno;
        if (cur != dirfd) close(cur);
        errno = saved;
        if (fd < 0 || !more) return fd;
        cur = fd;
        p = after;
        memcpy(name, next_name, sizeof name);
    }
    if (cur != dirfd) close(cur);
    return -1;
}

int cli_resolve(int dirfd, const char *path, int flags, mode_t mode) {
    if (!cli_path_acceptable(path)) {
        errno = EINVAL;
        return -1;
    }
#ifdef SYS_openat2
    if (!force_fallback && !no_openat2) {
        int fd = resolve_openat2(dirfd, path, flags, mode);
        if (fd >= 0 || errno != ENOSYS) {
            used_openat2 = true;
            return fd;
        }
        no_openat2 = true;
    }
#endif
    used_openat2 = false;
    return resolve_walk(dirfd, path, flags, mode);
}

void cli_format_bytes(unsigned long long bytes, char *out, size_t len) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    size_t u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024;
        u++;
    }
    if (u == 0) snprintf(out, len, "%llu B", bytes);
    else if (v == (double)(unsigned long long)v) snprintf(out, len, "%.0f %s", v, units[u]);
    else snprintf(out, len, "%.1f %s", v, units[u]);
}

static const char *type_name(mode_t mode) {
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device"
           : S_ISLNK(mode) ? "a symbolic link" : "not a file";
}

const char *cli_file_refusal(const struct stat *st, const cli_file_rules *rules, char *why, size_t len) {
    if (!S_ISREG(st->st_mode)) {
        snprintf(why, len, "%s, not a regular file", type_name(st->st_mode));
    } else if (rules->check_owner && st->st_uid != rules->owner) {
        snprintf(why, len, "owned by uid %u, not by the JVM's user (uid %u)", (unsigned)st->st_uid,
                 (unsigned)rules->owner);
    } else if (rules->check_owner && st->st_nlink != 1) {
        snprintf(why, len, "%lu links (a hard link to another file)", (unsigned long)st->st_nlink);
    } else if ((unsigned long long)st->st_size > rules->max_size) {
        char size[32], max[32];
        cli_format_bytes((unsigned long long)st->st_size, size, sizeof size);
        cli_format_bytes(rules->max_size, max, sizeof max);
        snprintf(why, len, "%s, over the %s limit", size, max);
    } else {
        return NULL;
    }
    return why;
}

int cli_open_checked(int dirfd, const char *path, const cli_file_rules *rules, const char *label, int code,
                     struct stat *st, cli_err *e) {
    int fd = cli_resolve(dirfd, path, O_RDONLY | O_NONBLOCK, 0);
    if (fd < 0) {
        if (errno == ELOOP) return -cli_fail(e, code, "%s is a symbolic link (or lies behind one): refusing it", label);
        return -cli_fail(e, code, "cannot open %s: %s", label, strerror(errno));
    }
    char why[128];
    if (fstat(fd, st) != 0) {
        int saved = errno;
        close(fd);
        return -cli_fail(e, code, "cannot open %s: %s", label, strerror(saved));
    }
    if (cli_file_refusal(st, rules, why, sizeof why)) {
        close(fd);
        return -cli_fail(e, code, "%s is %s: refusing it", label, why);
    }
    return fd;
}

ssize_t cli_read_bounded(int fd, char *buf, size_t max, long deadline) {
    size_t used = 0;
    while (used < max) {
        long left = deadline - cli_now_ms();
        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        ssize_t n = read(fd, buf + used, max - used);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) { /* a regular file never says so; anything else waits */
            struct pollfd p = {fd, POLLIN, 0};
            poll(&p, 1, left > 100 ? 100 : (int)left);
            continue;
        }
        if (n < 0) return -1;
        if (n == 0) break;
        used += (size_t)n;
    }
    return (ssize_t)used;
}

int cli_read_checked(int dirfd, const char *path, const cli_file_rules *rules, const char *label, int code,
                     long deadline, char **text, size_t *len, cli_err *e) {
    *text = NULL;
    struct stat st;
    int fd = cli_open_checked(dirfd, path, rules, label, code, &st, e);
    if (fd < 0) return -fd;
    size_t size = (size_t)st.st_size; /* checked against the cap: it may still shrink */
    char *buf = malloc(size + 1);
    ssize_t n = buf ? cli_read_bounded(fd, buf, size, deadline) : -1;
    int saved = errno;
    close(fd);
    if (n < 0) {
        free(buf);
        if (saved == ETIMEDOUT) return cli_fail(e, CLI_EXIT_TIMEOUT, "reading %s took past the timeout", label);
        return cli_fail(e, code, "cannot read %s: %s", label, strerror(saved));
    }
    buf[n] = '\0';
    *text = buf;
    if (len) *len = (size_t)n;
    return 0;
}
