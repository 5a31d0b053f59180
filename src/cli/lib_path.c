/* lib_path.c: finding the agent library and making it visible in the target (see lib_path.h). */
#include "lib_path.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ns_path.h"
#include "temp_files.h"

#define LIB_NAME "libheapsampler.so"
#define MAX_LIB (256u << 20)

int cli_lib_find(const char *override, char *out, size_t len, cli_err *e) {
    if (override) {
        if (!realpath(override, out) || access(out, R_OK) != 0)
            return cli_fail(e, CLI_EXIT_ATTACH, "--lib %s: %s", override, strerror(errno));
        return 0;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0) return cli_fail(e, CLI_EXIT_ATTACH, "cannot find this command's path: %s", strerror(errno));
    self[n] = '\0';
    const char *dir = dirname(self);
    const char *const candidates[] = {"%s/" LIB_NAME, "%s/../lib/heapsampler/" LIB_NAME};
    char tried[2 * PATH_MAX] = "";
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, candidates[i], dir);
        if (realpath(path, out) && access(out, R_OK) == 0 && strlen(out) < len) return 0;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", path);
    }
    return cli_fail(e, CLI_EXIT_ATTACH, "cannot find %s (tried %s); name it with --lib PATH", LIB_NAME, tried);
}

/* Whether two paths name the same file. */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether the file at path holds exactly bytes[0..len). */
static bool same_bytes(const char *path, const char *bytes, size_t len) {
    size_t have;
    char *text = cli_read_file(path, MAX_LIB, &have);
    bool same = text && have == len && memcmp(text, bytes, len) == 0;
    free(text);
    return same;
}

/* Makes the directory for the copy (host path), refusing anything but the target user's own. */
static int make_copy_dir(const cli_target *t, const char *dir, cli_err *e) {
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return cli_fail(e, CLI_EXIT_ATTACH, "cannot create %s: %s", dir, strerror(errno));
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != t->euid)
        return cli_fail(e, CLI_EXIT_ATTACH, "%s is not a directory of the JVM's user: refusing to use it", dir);
    return 0;
}

static int write_copy(const char *dir, const char *dest, const char *bytes, size_t len, cli_err *e) {
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s/.libheapsampler.XXXXXX", dir);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) return cli_fail(e, CLI_EXIT_ATTACH, "cannot copy the library into %s: %s", dir, strerror(errno));
    int slot = cli_temp_add(tmp);
    int rc = 0;
    for (size_t off = 0; off < len && rc == 0;) {
        ssize_t n = write(fd, bytes + off, len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) rc = cli_fail(e, CLI_EXIT_ATTACH, "copying the library into %s: %s", dir, strerror(errno));
        else off += (size_t)n;
    }
    if (rc == 0 && (fchmod(fd, 0755) != 0 || fsync(fd) != 0))
        rc = cli_fail(e, CLI_EXIT_ATTACH, "copying the library into %s: %s", dir, strerror(errno));
    close(fd);
    if (rc == 0 && rename(tmp, dest) != 0)
        rc = cli_fail(e, CLI_EXIT_ATTACH, "cannot create %s: %s", dest, strerror(errno));
    cli_temp_remove(slot);
    return rc;
}

int cli_lib_in_target(const cli_target *t, const char *lib, char *out, size_t len, int *copied, cli_err *e) {
    *copied = 0;
    char host[PATH_MAX];
    /* Ours is used when the target sees the same file and its user may read it. */
    if (cli_host_path(host, sizeof host, t->pid, lib) == 0 && same_file(lib, host) && access(host, R_OK) == 0) {
        snprintf(out, len, "%s", lib);
        return 0;
    }
    size_t size;
    cli_target_leave(); /* our library is read as the operator, copied as the target's user */
    char *bytes = cli_read_file(lib, MAX_LIB, &size);
    int read_errno = errno;
    if (cli_target_enter(t) != 0) {
        free(bytes);
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot take the JVM's user id again: %s", strerror(errno));
    }
    errno = read_errno;
    if (!bytes) return cli_fail(e, CLI_EXIT_ATTACH, "cannot read %s: %s", lib, strerror(errno));
    char inner_dir[PATH_MAX], host_dir[PATH_MAX], host_lib[PATH_MAX];
    int rc = 0;
    if (cli_copied_lib_dir(inner_dir, sizeof inner_dir, HEAPSAMPLER_VERSION) != 0 ||
        cli_copied_lib_path(out, len, HEAPSAMPLER_VERSION) != 0 ||
        cli_host_path(host_dir, sizeof host_dir, t->pid, inner_dir) != 0 ||
        cli_host_path(host_lib, sizeof host_lib, t->pid, out) != 0)
        rc = cli_fail(e, CLI_EXIT_ATTACH, "path too long for process %d", t->pid);
    if (rc == 0) rc = make_copy_dir(t, host_dir, e);
    if (rc == 0 && !same_bytes(host_lib, bytes, size)) rc = write_copy(host_dir, host_lib, bytes, size, e);
    free(bytes);
    if (rc == 0) *copied = 1;
    return rc;
}
