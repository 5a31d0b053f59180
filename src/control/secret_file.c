/* secret_file.c: reading a secret's file safely (see secret_file.h). */
#include "control/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Group or other permission to read or write: the secret is not the owner's alone. */
#define SHARED_BITS (S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)

/* 0 when st (the opened file) may hold a secret of at most cap - 1 bytes, else -1 with why. */
static int refuse_kind(const struct stat *st, const char *path, size_t cap, char *why,
                       size_t whylen) {
    if (!S_ISREG(st->st_mode)) {
        snprintf(why, whylen, "cannot read it: not a regular file");
        return -1;
    }
    if (st->st_mode & SHARED_BITS) {
        snprintf(why, whylen, "it is readable or writable by its group or others (mode %04o): "
                 "make it private with chmod 600 %s", (unsigned)(st->st_mode & 07777), path);
        return -1;
    }
    if (st->st_uid != geteuid() && st->st_uid != 0) { /* its owner could change the secret */
        snprintf(why, whylen, "it belongs to uid %u, neither this process's user (uid %u) nor "
                 "root: chown it", (unsigned)st->st_uid, (unsigned)geteuid());
        return -1;
    }
        if ((size_t)st->st_size > cap - 1) {
        snprintf(why, whylen, "the file is longer than %zu bytes", cap - 1);
        return -1;
    }
    return 0;
}

/* Up to len bytes (a short read does not end a regular file; a signal may cut one). */
static ssize_t read_all(int fd, char *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

int hs_read_secret_file(const char *path, char *buf, size_t cap, size_t *len, char *why,
                        size_t whylen) {
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, whylen, "cannot read it: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0) {
        snprintf(why, whylen, "cannot read it: %s", strerror(errno));
        rc = -1;
    } else {
        rc = refuse_kind(&st, path, cap, why, whylen);
    }
    ssize_t n = 0;
    if (rc == 0) {
        n = read_all(fd, buf, cap - 1);
        if (n < 0) {
            snprintf(why, whylen, "cannot read it: %s", strerror(errno));
            rc = -1;
        } else if ((size_t)n == cap - 1 && read(fd, buf + n, 1) > 0) { /* it grew meanwhile */
            snprintf(why, whylen, "the file is longer than %zu bytes", cap - 1);
            rc = -1;
        }
    }
    close(fd);
    if (rc != 0) {
        explicit_bzero(buf, cap);
        return -1;
    }
    buf[n] = '\0';
    *len = (size_t)n;
    return 0;
}
