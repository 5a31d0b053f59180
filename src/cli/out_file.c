/* out_file.c: writing the operator's output file atomically (see out_file.h). */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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

int cli_out_open(cli_out *o, const char *file, bool force, cli_err *e) {
    memset(o, 0, sizeof *o);
    o->file = file;
    o->force = force;
    o->fd = o->slot = -1;
    char dir[PATH_MAX], base[PATH_MAX];
    dir_of(file, dir, sizeof dir);
    snprintf(base, sizeof base, "%s", file);
    int n = snprintf(o->tmp, sizeof o->tmp, "%s/.%s.XXXXXX", dir, basename(base));
    if (n < 0 || (size_t)n >= sizeof o->tmp) return cli_fail(e, CLI_EXIT_WRITE, "path too long: %s", file);
    o->fd = mkostemp(o->tmp, O_CLOEXEC);
    if (o->fd < 0) return cli_fail(e, CLI_EXIT_WRITE, "cannot create a file in %s: %s", dir, strerror(errno));
    o->slot = cli_temp_add(o->tmp);
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(o->fd, 0666 & ~mask) != 0) {
        int saved = errno;
        cli_out_abort(o);
        return cli_fail(e, CLI_EXIT_WRITE, "writing %s failed: %s", file, strerror(saved));
    }
    return 0;
}

int cli_out_write(cli_out *o, const void *buf, size_t len, cli_err *e) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(o->fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return cli_fail(e, CLI_EXIT_WRITE, "writing %s failed: %s", o->file, strerror(errno));
        p += n;
        len -= (size_t)n;
        o->written += (unsigned long long)n;
    }
    return 0;
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

int cli_out_commit(cli_out *o, cli_err *e) {
    int rc = 0;
    if (fsync(o->fd) != 0) rc = cli_fail(e, CLI_EXIT_WRITE, "writing %s failed: %s", o->file, strerror(errno));
    if (close(o->fd) != 0 && rc == 0) rc = cli_fail(e, CLI_EXIT_WRITE, "writing %s failed: %s", o->file, strerror(errno));
    o->fd = -1;
    if (rc == 0 && publish(o->tmp, o->file, o->force) != 0)
        rc = errno == EEXIST ? cli_fail(e, CLI_EXIT_EXISTS, "%s exists; use --force to replace it", o->file)
                             : cli_fail(e, CLI_EXIT_WRITE, "cannot create %s: %s", o->file, strerror(errno));
    cli_out_abort(o); /* after a rename the name is gone; unlink then does nothing */
    return rc;
}

void cli_out_abort(cli_out *o) {
    if (!o->file) return; /* never opened */
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    cli_temp_remove(o->slot);
    o->slot = -1;
}
