/* file_output.c: atomic, symlink-safe replacement of output files (see file_output.h).
 *
 * Everything happens relative to the target's directory, opened with O_DIRECTORY: once at
 * startup by hs_check_output_dir (kept open for the run, so a directory swapped for a
 * symlink mid-run is not followed), or per write for a path never checked. The data goes
 * to "<name>.tmp.<pid>.<counter>" in that directory (rename is only atomic within one file
 * system), created with openat(O_CREAT|O_EXCL|O_NOFOLLOW) so that nothing planted at that
 * name (a symlink to a victim file, say) is ever opened. A name that is taken is skipped
 * for the next counter value, a few times. The file is fchmod'ed to 0644 whatever the
 * umask, written fully, fsync'ed and closed (close can report a deferred write error, e.g.
 * on NFS). Only regular files are ever replaced: if the target is now a device, FIFO,
 * socket or directory (or a symlink to one), the write is refused; otherwise the file is
 * renamed over it (which replaces a symlink to a regular file instead of following it),
 * and the directory is fsync'ed so that the rename itself survives a crash. Any failure
 * unlinks the temporary file: the previous profile stays as it was, and the error (ENOSPC
 * included) is reported with its step. */
#include "output/file_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_MODE 0644
#define TEMP_NAME_ATTEMPTS 16
/* ".tmp.<pid>.<counter>": pid and counter at most 10 digits each. */
#define TEMP_SUFFIX_MAX (sizeof ".tmp.." - 1 + 10 + 10)
/* Directories pinned by hs_check_output_dir at startup (one per checked target). */
#define PINNED_MAX 8

static atomic_uint temp_counter;

/* Test seams: not in file_output.h because only the unit tests use them. */
int hs_write_all(int fd, const void *data, size_t len);
unsigned hs_file_output_next_temp_counter(void);

unsigned hs_file_output_next_temp_counter(void) { return atomic_load(&temp_counter); }

/* Writes all of data, retrying on EINTR and after short writes. 0, or -1 with errno
 * (ENOSPC when the disk is full: a short write is followed by a failing one). */
int hs_write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) { /* not expected for a regular file; do not spin */
            errno = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void format_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void format_error(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* The directory part of path with dirname(3) semantics, into a malloc'd string:
 * "a/b" -> "a", "b" -> ".", "/b" -> "/", "a//b/" -> "a", "" -> ".". NULL on ENOMEM. */
static char *directory_of(const char *path) {
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--; /* "a/b/" names b */
    while (len > 0 && path[len - 1] != '/') len--; /* drop the last component */
    if (len == 0) return strdup(".");
    while (len > 1 && path[len - 1] == '/') len--; /* "a//b" -> "a" */
    return strndup(path, len);
}

/* The final component of path as written: "" for a path ending in '/' (or empty). */
static const char *name_of(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Why path's final name cannot be a file we write, or NULL when it can. */
static const char *bad_name(const char *name) {
    if (name[0] == '\0') return "no file name (the path ends in '/' or is empty)";
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return "'.' and '..' are directories";
    if (strlen(name) + TEMP_SUFFIX_MAX > NAME_MAX)
        return "the file name is too long to leave room for the temporary file's suffix "
               "(at most 229 bytes)";
    return NULL;
}

/* What a non-regular file is, for messages. */
static const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/* NULL when name in dirfd is absent or a regular file (or a symlink, replaced rather than
 * followed, to one); otherwise what it is. */
static const char *not_regular(int dirfd, const char *name) {
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(st.st_mode)) return NULL;
    if (S_ISLNK(st.st_mode)) {
        if (fstatat(dirfd, name, &st, 0) != 0 || S_ISREG(st.st_mode)) return NULL;
        return S_ISDIR(st.st_mode) ? "a symlink to a directory" : "a symlink to a device, FIFO or socket";
    }
    return kind_of(st.st_mode);
}

/* ---- directories pinned at startup ---------------------------------------------------- */

/* Written only at startup (hs_check_output_dir, before any thread writes a profile). */
static struct {
    char *dir;
    int fd;
} pinned[PINNED_MAX];

static int pinned_fd(const char *dir) {
    for (int i = 0; i < PINNED_MAX && pinned[i].dir; i++)
        if (strcmp(pinned[i].dir, dir) == 0) return pinned[i].fd;
    return -1;
}

static void pin(char *dir, int fd) {
    for (int i = 0; i < PINNED_MAX; i++) {
        if (!pinned[i].dir) {
            pinned[i].dir = dir;
            pinned[i].fd = fd;
            return;
        }
    }
    free(dir); /* full: later writes open the directory themselves */
    close(fd);
}

/* The directory of path opened for *at calls: the pinned one (*owned = 0), or a fresh one
 * (*owned = 1, the caller closes it). -1 with errno. */
static int open_directory(const char *path, int *owned) {
    char *dir = directory_of(path);
    if (!dir) {
        errno = ENOMEM;
        return -1;
    }
    int fd = pinned_fd(dir);
    *owned = fd < 0;
    if (fd < 0) fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int saved = errno;
    free(dir);
    errno = saved;
    return fd;
}

/* Creates a fresh temporary file beside name in dirfd; its name goes to *tmp_name
 * (malloc'd). Returns the fd, or -1 with errno. */
static int create_temp_file(int dirfd, const char *name, char **tmp_name) {
    *tmp_name = NULL;
    for (int attempt = 0; attempt < TEMP_NAME_ATTEMPTS; attempt++) {
        unsigned counter = atomic_fetch_add(&temp_counter, 1);
        char *tmp;
        if (asprintf(&tmp, "%s.tmp.%ld.%u", name, (long)getpid(), counter) < 0) {
            errno = ENOMEM;
            return -1;
        }
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        OUTPUT_MODE);
        if (fd >= 0) {
            *tmp_name = tmp;
            return fd;
        }
        int saved = errno;
        free(tmp);
        errno = saved;
        if (errno != EEXIST) return -1; /* EEXIST: someone else's file; try the next name */
    }
    return -1; /* errno is EEXIST */
}

/* Writes, syncs and closes fd, then renames tmp over name unless name is no longer a
 * regular file. Returns NULL, or the failed step (errno set, *what for a refusal). */
static const char *finish_file(int dirfd, int fd, const char *tmp, const char *name,
                               const void *data, size_t len, const char **what) {
    /* The umask would otherwise decide the mode; a profile is meant to be shared. */
    if (fchmod(fd, OUTPUT_MODE) != 0) return "chmod";
    if (hs_write_all(fd, data, len) != 0) return "write";
    if (fsync(fd) != 0) return "fsync";
    if ((*what = not_regular(dirfd, name)) != NULL) {
        errno = EEXIST;
        return "refusing to replace it";
    }
    if (renameat(dirfd, tmp, dirfd, name) != 0) return "rename";
    (void)fsync(dirfd); /* best effort: the data itself is already safe */
    return NULL;
}

int hs_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen) {
    const char *name = name_of(path), *why = bad_name(name);
    if (why) {
        format_error(err, errlen, "cannot write '%s': %s", path, why);
        errno = EINVAL;
        return -1;
    }
    int owned = 0;
    int dirfd = open_directory(path, &owned);
    char *tmp = NULL;
    int fd = dirfd < 0 ? -1 : create_temp_file(dirfd, name, &tmp);
    if (fd < 0) {
        int saved = errno;
        format_error(err, errlen, "cannot write '%s': create temporary file: %s", path,
                     strerror(saved));
        if (owned && dirfd >= 0) close(dirfd);
        errno = saved;
        return -1;
    }
    const char *what = NULL;
    const char *step = finish_file(dirfd, fd, tmp, name, data, len, &what);
    int saved = errno;
    if (close(fd) != 0 && !step) { /* a deferred write error (NFS): the rename is done */
        step = "close";
        saved = errno;
    }
    if (step) {
        unlinkat(dirfd, tmp, 0);
        if (what) format_error(err, errlen, "cannot write '%s': it is %s, not a regular file; %s",
                               path, what, step);
        else format_error(err, errlen, "cannot write '%s': %s: %s", path, step, strerror(saved));
    }
    free(tmp);
    if (owned) close(dirfd);
    errno = saved;
    return step ? -1 : 0;
}

int hs_check_output_dir(const char *path, char *err, size_t errlen) {
    char *dir = directory_of(path);
    if (!dir) {
        format_error(err, errlen, "cannot check the directory of '%s': %s", path, strerror(ENOMEM));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int error = fd < 0 ? errno : 0;
    if (!error && faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) != 0) error = errno; /* EROFS */
    if (error) {
        format_error(err, errlen, "cannot write to directory '%s' (for '%s'): %s", dir, path,
                     strerror(error));
    } else {
        const char *name = name_of(path), *why = bad_name(name), *what = NULL;
        if (!why && (what = not_regular(fd, name)) != NULL) error = EEXIST;
        if (why) error = EINVAL;
        if (why) format_error(err, errlen, "cannot write '%s': %s", path, why);
        else if (what) format_error(err, errlen, "'%s' is %s, not a regular file: only regular "
                                    "files are replaced", path, what);
    }
    if (error) {
        if (fd >= 0) close(fd);
        free(dir);
        errno = error;
        return -1;
    }
    if (pinned_fd(dir) < 0) pin(dir, fd); /* the writes at the end go through it */
    else {
        close(fd);
        free(dir);
    }
    return 0;
}
