/* reply.c: answering into files the operator's command created (see reply.h). */
#include "output/reply.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(int fd, const char *what, const char *path, const char *why, char *err,
                  size_t errlen) {
    if (fd >= 0) close(fd);
    snprintf(err, errlen, "%s file '%.512s': %s", what, path, why);
    return -1;
}

int hs_reply_open(const char *what, const char *path, char *err, size_t errlen) {
    if (!path || path[0] != '/') return refuse(-1, what, path ? path : "", "not an absolute path", err, errlen);
    int fd;
    do {
        fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        char why[160];
        snprintf(why, sizeof why, "%s%s", strerror(errno),
                 errno == ELOOP ? " (a symbolic link: refused)"
                 : errno == ENOENT ? " (it must exist: the command creates it)" : "");
        return refuse(-1, what, path, why, err, errlen);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) return refuse(fd, what, path, strerror(errno), err, errlen);
    if (!S_ISREG(st.st_mode)) return refuse(fd, what, path, "not a regular file", err, errlen);
    if (st.st_uid != geteuid()) {
        char why[96];
        snprintf(why, sizeof why, "owned by uid %u, not by this JVM's uid %u", (unsigned)st.st_uid,
                 (unsigned)geteuid());
        return refuse(fd, what, path, why, err, errlen);
    }
    if (st.st_nlink != 1) return refuse(fd, what, path, "has more than one link", err, errlen);
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

int hs_reply_fill(int fd, const void *data, size_t len, char *err, size_t errlen) {
    const char *p = data;
    int rc = ftruncate(fd, 0) == 0 ? 0 : -1;
    off_t at = 0;
    while (rc == 0 && len > 0) {
        ssize_t w = pwrite(fd, p, len, at);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            rc = -1;
            break;
        }
        p += w;
        at += w;
        len -= (size_t)w;
    }
    if (rc != 0) snprintf(err, errlen, "writing the answer: %s", strerror(errno));
    if (close(fd) != 0 && rc == 0) {
        snprintf(err, errlen, "writing the answer: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}

void hs_reply_header(hs_text *t, int rc) {
    hs_text_printf(t, "%s %d version=%s rc=%d\n", HS_REPLY_MAGIC, HS_REPLY_PROTOCOL,
                   HEAPSAMPLER_VERSION, rc ? 1 : 0);
}

int hs_reply_answer(int fd, int rc, const char *body, char *err, size_t errlen) {
    hs_text t = {0};
    hs_reply_header(&t, rc);
    hs_text_puts(&t, body);
    if (t.len && t.data[t.len - 1] != '\n') hs_text_puts(&t, "\n");
    if (t.failed) {
        close(fd);
        hs_text_free(&t);
        snprintf(err, errlen, "out of memory building the answer");
        return -1;
    }
    int result = hs_reply_fill(fd, t.data, t.len, err, errlen);
    hs_text_free(&t);
    return result;
}

int hs_reply_send(const char *path, int rc, const char *body, char *err, size_t errlen) {
    int fd = hs_reply_open("reply", path, err, errlen);
    return fd < 0 ? -1 : hs_reply_answer(fd, rc, body, err, errlen);
}
