/* file_output.c: atomic, symlink-safe replacement of output files (see file_output.h).
 *
 * The data goes to "<target>.tmp.<pid>.<counter>" in the target's directory (rename is
 * only atomic within one file system), created with O_CREAT|O_EXCL|O_NOFOLLOW so that
 * nothing planted at that name (a symlink to a victim file, say) is ever opened. A
 * name that is taken is skipped for the next counter value, a few times. The file is
 * fchmod'ed to 0644 whatever the umask, written fully, fsync'ed and closed (close can
 * report a deferred write error, e.g. on NFS), renamed over the target (which replaces
 * a symlink there instead of following it), and the directory is fsync'ed so that the
 * rename itself survives a crash. Any failure unlinks the temporary file: the previous
 * profile stays as it was, and the error (ENOSPC included) is reported with its step. */
#include "file_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_MODE 0644
#define TEMP_NAME_ATTEMPTS 16

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

/* fsync's the directory so that a completed rename survives a crash. Best effort:
 * some file systems refuse fsync on a directory, and the data itself is already safe. */
static void sync_directory(const char *path) {
    char *dir = directory_of(path);
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

/* Creates a fresh temporary file next to path; its name goes to *tmp_path (malloc'd).
 * Returns the fd, or -1 with errno. */
static int create_temp_file(const char *path, char **tmp_path) {
    *tmp_path = NULL;
    for (int attempt = 0; attempt < TEMP_NAME_ATTEMPTS; attempt++) {
        unsigned counter = atomic_fetch_add(&temp_counter, 1);
        char *name;
        if (asprintf(&name, "%s.tmp.%ld.%u", path, (long)getpid(), counter) < 0) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OUTPUT_MODE);
        if (fd >= 0) {
            *tmp_path = name;
            return fd;
        }
        int saved = errno;
        free(name);
        errno = saved;
        if (errno != EEXIST) return -1; /* EEXIST: someone else's file; try the next name */
    }
    return -1; /* errno is EEXIST */
}

int hs_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen) {
    char *tmp_path;
    int fd = create_temp_file(path, &tmp_path);
    if (fd < 0) {
        format_error(err, errlen, "cannot write '%s': create temporary file: %s", path,
                     strerror(errno));
        return -1;
    }
    const char *step;
    /* The umask would otherwise decide the mode; a profile is meant to be shared. */
    if (fchmod(fd, OUTPUT_MODE) != 0) {
        step = "chmod";
    } else if (hs_write_all(fd, data, len) != 0) {
        step = "write";
    } else if (fsync(fd) != 0) {
        step = "fsync";
    } else {
        int rc = close(fd);
        fd = -1;
        if (rc != 0) {
            step = "close";
        } else if (rename(tmp_path, path) != 0) {
            step = "rename";
        } else {
            free(tmp_path);
            sync_directory(path);
            return 0;
        }
    }
    int saved = errno;
    if (fd >= 0) close(fd);
    unlink(tmp_path);
    format_error(err, errlen, "cannot write '%s': %s: %s", path, step, strerror(saved));
    free(tmp_path);
    errno = saved;
    return -1;
}

int hs_check_output_dir(const char *path, char *err, size_t errlen) {
    char *dir = directory_of(path);
    if (!dir) {
        format_error(err, errlen, "cannot check the directory of '%s': %s", path, strerror(ENOMEM));
        return -1;
    }
    struct stat st;
    int error = 0;
    if (stat(dir, &st) != 0) error = errno;
    else if (!S_ISDIR(st.st_mode)) error = ENOTDIR;
    else if (access(dir, W_OK | X_OK) != 0) error = errno; /* EACCES, EROFS */
    if (error) {
        format_error(err, errlen, "cannot write to directory '%s' (for '%s'): %s", dir, path,
                     strerror(error));
    }
    free(dir);
    if (error) errno = error;
    return error ? -1 : 0;
}
