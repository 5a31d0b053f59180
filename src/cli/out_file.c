/* out_file.c: writing the operator's output file atomically (see out_file.h). */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "temp_files.h"

/* The kernel's flag (include/uapi/linux/fs.h), the same on every architecture; musl before
 * 1.2.5 (Debian 12 has 1.2.3) defines neither it nor renameat2(). */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

int cli_rename_noreplace(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}

static void dir_of(const char *file, char *out, size_t len) {
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", file);
    snprintf(out, len, "%s", dirname(copy));
}

int cli_out_check(const char *file, bool force, cli_err *e) {
    struct stat st;
    if (lstat(file, &st) == 0) {
        if (!force) return cli_fail(e, CLI_EXIT_EXISTS, "%s exists; use --force to replace it", file);
        if (S_ISDIR(st.st_mode)) return cli_fail(e, CLI_EXIT_WRITE, "%s is a directory", file);
    }
    char dir[PATH_MAX];
    dir_of(file, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cli_fail(e, CLI_EXIT_WRITE, "cannot write into %s: %s", dir, strerror(errno));
    return 0;
}

static int write_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Copies src into dst; returns 0, or -1 with errno and *reading telling which side failed. */
static int copy_fd(int src, int dst, bool *reading) {
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(src, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        *reading = true;
        if (n < 0) return -1;
        if (n == 0) return 0;
        *reading = false;
        if (write_all(dst, buf, (size_t)n) != 0) return -1;
    }
}

/* Moves tmp onto file: without force, atomically refusing an existing file. */
static int publish(const char *tmp, const char *file, bool force) {
    if (force) return rename(tmp, file);
    if (cli_rename_noreplace(tmp, file) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    if (link(tmp, file) != 0) return -1; /* a filesystem without RENAME_NOREPLACE */
    unlink(tmp);
    return 0;
}

int cli_out_copy(int src_fd, const char *file, bool force, cli_err *e) {
    char dir[PATH_MAX], tmp[PATH_MAX], base[PATH_MAX];
    dir_of(file, dir, sizeof dir);
    snprintf(base, sizeof base, "%s", file);
    int n = snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, basename(base));
    if (n < 0 || (size_t)n >= sizeof tmp) return cli_fail(e, CLI_EXIT_WRITE, "path too long: %s", file);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) return cli_fail(e, CLI_EXIT_WRITE, "cannot create a file in %s: %s", dir, strerror(errno));
    int slot = cli_temp_add(tmp);
    mode_t mask = umask(0);
    umask(mask);
    bool reading = false;
    int rc = 0;
    if (fchmod(fd, 0666 & ~mask) != 0 || copy_fd(src_fd, fd, &reading) != 0 || (reading = false, fsync(fd)) != 0)
        rc = cli_fail(e, CLI_EXIT_WRITE, "%s %s failed: %s", reading ? "reading the profile for" : "writing",
                      file, strerror(errno));
    if (close(fd) != 0 && rc == 0)
        rc = cli_fail(e, CLI_EXIT_WRITE, "writing %s failed: %s", file, strerror(errno));
    if (rc == 0 && publish(tmp, file, force) != 0)
        rc = errno == EEXIST ? cli_fail(e, CLI_EXIT_EXISTS, "%s exists; use --force to replace it", file)
                             : cli_fail(e, CLI_EXIT_WRITE, "cannot create %s: %s", file, strerror(errno));
    cli_temp_remove(slot); /* after a rename the name is gone; unlink then does nothing */
    return rc;
}
