/* lib_path.c: finding the agent library and making it visible in the target (see lib_path.h). */
#include "lib_path.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_faults.h"
#include "ns_path.h"
#include "resolve.h"
#include "temp_files.h"

#define LIB_NAME "libheapsampler.so"
#define MAX_LIB (256ull << 20)

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

static bool same_inode(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether the target's user may read the file open (O_PATH) as fd: opened again for
 * reading, with this process's (the target's) credentials. */
static bool readable(int fd) {
    char self[32];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    int r = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (r < 0) return false;
    close(r);
    return true;
}

/* Whether the target sees the operator's library at the same path, and may read it. */
static bool target_sees(cli_side *s, const char *lib, const struct stat *ours) {
    int fd = cli_resolve(s->rootfd, lib, O_PATH, 0);
    struct stat st;
    bool sees = fd >= 0 && fstat(fd, &st) == 0 && same_inode(&st, ours) && readable(fd);
    if (fd >= 0) close(fd);
    return sees;
}

/* Opens (creating it) the copy's directory in the target's /tmp: the target user's own. */
static int open_copy_dir(cli_side *s, const char *name, cli_err *e) {
    if (mkdirat(s->tmpfd, name, 0755) != 0 && errno != EEXIST)
        return -cli_fail(e, CLI_EXIT_ATTACH, "cannot create /tmp/%s in process %d: %s", name, s->t->pid, strerror(errno));
    int dir = cli_resolve(s->tmpfd, name, O_PATH | O_DIRECTORY, 0);
    if (dir < 0 && (errno == ELOOP || errno == ENOTDIR))
        return -cli_fail(e, CLI_EXIT_ATTACH, "/tmp/%s of process %d is not a directory (a symbolic link?): refusing it",
                         name, s->t->pid);
    if (dir < 0)
        return -cli_fail(e, CLI_EXIT_ATTACH, "cannot open /tmp/%s in process %d: %s", name, s->t->pid, strerror(errno));
    struct stat st;
    if (fstat(dir, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
        close(dir);
        return -cli_fail(e, CLI_EXIT_ATTACH,
                         "/tmp/%s of process %d is not a directory of the JVM's user alone: refusing it", name,
                         s->t->pid);
    }
    return dir;
}

/* Whether `name` in dir already holds exactly the library's bytes (a copy made before):
 * a file of the JVM's user of the same size, read and compared. */
static bool copy_current(cli_side *s, int dir, const char *name, const struct stat *ours) {
    cli_file_rules rules = {true, geteuid(), MAX_LIB};
    cli_err ignored;
    struct stat st;
    int fd = cli_open_checked(dir, name, &rules, "copy", CLI_EXIT_ATTACH, &st, &ignored);
    if (fd < 0) return false;
    size_t len = (size_t)ours->st_size;
    char *have = st.st_size == ours->st_size ? malloc(len + 1) : NULL, *want = have ? malloc(len + 1) : NULL;
    bool same = want && cli_read_bounded(fd, have, len, s->deadline) == (ssize_t)len &&
                pread(s->libfd, want, len, 0) == (ssize_t)len && memcmp(have, want, len) == 0;
    free(have);
    free(want);
    close(fd);
    return same;
}

/* Copies the operator's library (s->libfd) into tmp_name in dir. */
static int write_copy(cli_side *s, int dir, const char *tmp_name, const struct stat *ours, cli_err *e) {
    int fd = openat(dir, tmp_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0700);
    if (fd < 0) return cli_fail(e, CLI_EXIT_ATTACH, "cannot copy the library into process %d: %s", s->t->pid, strerror(errno));
    static char buf[1 << 16];
    int rc = 0;
    for (off_t at = 0; rc == 0 && at < ours->st_size;) {
        ssize_t n = pread(s->libfd, buf, sizeof buf, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || write(fd, buf, (size_t)n) != n)
            rc = cli_fail(e, CLI_EXIT_ATTACH, "copying the library into process %d: %s", s->t->pid,
                          n == 0 ? "the library shrank" : strerror(errno));
        else
            at += n;
    }
    if (rc == 0 && (fchmod(fd, 0755) != 0 || fsync(fd) != 0))
        rc = cli_fail(e, CLI_EXIT_ATTACH, "copying the library into process %d: %s", s->t->pid, strerror(errno));
    close(fd);
    return rc;
}

/* Whether the path the JVM will open (inner, from its root) leads to `name` in dir. */
static int check_path_leads_to(cli_side *s, const char *inner, int dir, const char *name, cli_err *e) {
    struct stat held, seen;
    int fd = cli_resolve(s->rootfd, inner, O_PATH, 0);
    bool same = fd >= 0 && fstat(fd, &seen) == 0 && fstatat(dir, name, &held, AT_SYMLINK_NOFOLLOW) == 0 &&
                same_inode(&seen, &held);
    if (fd >= 0) close(fd);
    if (same) return 0;
    return cli_fail(e, CLI_EXIT_ATTACH,
                    "%s in process %d does not lead to the copy just made (its directory was moved or replaced): "
                    "refusing to load it",
                    inner, s->t->pid);
}

static int copy_into(cli_side *s, int dir, const struct stat *ours, cli_err *e) {
    if (copy_current(s, dir, LIB_NAME, ours)) return 0;
    unsigned char rnd[6];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return cli_fail(e, CLI_EXIT_ATTACH, "no random bytes for a file name: %s", strerror(errno));
    char tmp[40];
    snprintf(tmp, sizeof tmp, ".libheapsampler.%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
    int slot = cli_temp_add_at(fcntl(dir, F_DUPFD_CLOEXEC, 0), tmp);
    int rc = write_copy(s, dir, tmp, ours, e);
    if (rc == 0 && renameat(dir, tmp, dir, LIB_NAME) != 0)
        rc = cli_fail(e, CLI_EXIT_ATTACH, "cannot create the library copy in process %d: %s", s->t->pid, strerror(errno));
    cli_temp_remove(slot);
    return rc;
}

int cli_lib_in_target(cli_side *s, const char *lib, char *out, size_t len, bool *copied, cli_err *e) {
    *copied = false;
    struct stat ours;
    if (fstat(s->libfd, &ours) != 0 || !S_ISREG(ours.st_mode) || (unsigned long long)ours.st_size > MAX_LIB)
        return cli_fail(e, CLI_EXIT_ATTACH, "%s is not a library this command can copy", lib);
    if (target_sees(s, lib, &ours)) {
        snprintf(out, len, "%s", lib);
        return 0;
    }
    char inner_dir[PATH_MAX]; /* /tmp/heapsampler-VERSION: opened below the /tmp held */
    if (cli_copied_lib_dir(inner_dir, sizeof inner_dir, HEAPSAMPLER_VERSION) != 0 ||
        cli_copied_lib_path(out, len, HEAPSAMPLER_VERSION) != 0)
        return cli_fail(e, CLI_EXIT_ATTACH, "path too long for process %d", s->t->pid);
    int rc = cli_side_tmp(s, e);
    int dir = rc ? -1 : open_copy_dir(s, inner_dir + strlen("/tmp/"), e);
    if (dir < 0) return rc ? rc : -dir;
    cli_fault_stop("copy_library");
    rc = copy_into(s, dir, &ours, e);
    if (rc == 0) rc = check_path_leads_to(s, out, dir, LIB_NAME, e);
    close(dir);
    if (rc == 0) *copied = true;
    return rc;
}
