/* test_file_output.c: atomic, symlink-safe output files (src/output/file_output.c).
 *
 * Every test works in its own mkdtemp directory under /tmp. Disk-full and read-only
 * conditions need a small tmpfs, which only root may mount: those parts are skipped
 * with a note when mount(2) is refused; the ENOSPC branch of the write loop is always
 * tested through /dev/full. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "output/file_output.h"
#include "unit.h"

/* Test seams of src/output/file_output.c (not in file_output.h: only tests use them). */
int hs_write_all(int fd, const void *data, size_t len);
unsigned hs_file_output_next_temp_counter(void);

#define ERR_SIZE 512

/* ---- helpers ------------------------------------------------------------------------ */

static int make_test_dir(char *dir, size_t size) {
    snprintf(dir, size, "/tmp/hs_test_file_output.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static int write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    size_t len = strlen(text);
    int ok = fwrite(text, 1, len, f) == len;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* The whole file in a malloc'd NUL-terminated buffer (NULL on error). */
static char *read_all(const char *path, size_t *len_out) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - len < 2) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0) break;
        len += n;
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    if (len_out) *len_out = len;
    return buf;
}

static int file_is(const char *path, const char *expected) {
    char *text = read_all(path, NULL);
    int same = text && strcmp(text, expected) == 0;
    free(text);
    return same;
}

/* Number of entries in dir whose name contains needle ("" counts everything). */
static int count_entries(const char *dir, const char *needle) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (strstr(e->d_name, needle)) n++;
    }
    closedir(d);
    return n;
}

static int is_symlink(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* Mounts a small tmpfs at dir (root only). 0, or -1 when this machine refuses. */
static int mount_small_tmpfs(const char *dir, unsigned long flags, const char *size) {
    char options[32];
    snprintf(options, sizeof options, "size=%s,mode=0755", size);
    return mount("tmpfs", dir, "tmpfs", flags, options);
}

static void note(const char *text) { printf("\n    NOTE: %s ", text); }

/* hs_write_file_atomic refuses path with a message that names it and says why. */
static void expect_write_refused(const char *path, const void *data, size_t len, const char *why) {
    char err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, data, len, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, path));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
}

/* hs_check_output_dir refuses path, setting errno to expected_errno, with a message that
 * names culprit (the directory at fault) and says why. */
static void expect_dir_refused(const char *path, int expected_errno, const char *culprit,
                               const char *why) {
    char err[ERR_SIZE] = "";
    int rc = hs_check_output_dir(path, err, sizeof err);
    int error = errno;
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_EQUAL(error, expected_errno);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, culprit));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
}

/* ---- tests -------------------------------------------------------------------------- */

static void test_writes_exact_bytes_with_mode_0644(void) {
    char dir[64], path[128], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    size_t len = 300000; /* binary, with NULs, larger than one write on some systems */
    unsigned char *data = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    for (size_t i = 0; i < len; i++) data[i] = (unsigned char)(i * 31 + (i >> 8));

    mode_t saved_umask = umask(077); /* would make a plain open() create 0600 */
    int rc = hs_write_file_atomic(path, data, len, err, sizeof err);
    umask(saved_umask);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(err, ""); /* untouched on success */

    size_t got_len = 0;
    char *got = read_all(path, &got_len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(got_len, len);
    CU_ASSERT(got_len == len && memcmp(got, data, len) == 0);
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT(S_ISREG(st.st_mode));
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0644);
    CU_ASSERT_EQUAL(count_entries(dir, ""), 1); /* no temporary file left behind */
    free(got);

    /* An empty file is a valid output too. */
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "", 0, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 0);
    free(data);
    remove_tree(dir);
}

static void test_replaces_previous_file(void) {
    char dir[64], path[128], err[ERR_SIZE];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.collapsed", dir);
    CU_ASSERT_EQUAL(write_text(path, "an older and longer profile\n"), 0);
    CU_ASSERT_EQUAL(chmod(path, 0600), 0);
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "new\n", 4, err, sizeof err), 0);
    CU_ASSERT(file_is(path, "new\n"));
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0644);
    CU_ASSERT_EQUAL(count_entries(dir, ""), 1);
    remove_tree(dir);
}

/* A symlink planted at the target is replaced by the new file; what it points to is
 * never written. */
static void test_symlink_at_target_is_replaced(void) {
    char dir[64], path[128], victim[128], err[ERR_SIZE];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    CU_ASSERT_EQUAL_FATAL(write_text(victim, "VICTIM"), 0);
    CU_ASSERT_EQUAL_FATAL(symlink(victim, path), 0);

    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "DATA", 4, err, sizeof err), 0);
    CU_ASSERT_FALSE(is_symlink(path));
    CU_ASSERT(file_is(path, "DATA"));
    CU_ASSERT(file_is(victim, "VICTIM"));
    remove_tree(dir);
}

/* Someone who can predict the temporary name plants a symlink there: O_EXCL|O_NOFOLLOW
 * refuses it, the writer moves on to the next name, and the planted link is left alone. */
static void test_planted_temp_symlink_is_not_followed(void) {
    char dir[64], path[128], victim[128], planted[192], err[ERR_SIZE];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    CU_ASSERT_EQUAL_FATAL(write_text(victim, "VICTIM"), 0);
    snprintf(planted, sizeof planted, "%s.tmp.%ld.%u", path, (long)getpid(), hs_file_output_next_temp_counter());
    CU_ASSERT_EQUAL_FATAL(symlink(victim, planted), 0);

    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "DATA", 4, err, sizeof err), 0);
    CU_ASSERT(file_is(path, "DATA"));
    CU_ASSERT(file_is(victim, "VICTIM"));
    CU_ASSERT(is_symlink(planted));
    CU_ASSERT_EQUAL(count_entries(dir, ".tmp."), 1); /* only the planted link */
    remove_tree(dir);
}

/* When every name the writer would try is taken, the write fails cleanly: nothing is
 * followed, and the previous profile is intact. */
static void test_all_temp_names_taken_fails_cleanly(void) {
    enum { PLANTED = 64 }; /* more than the writer's attempts */
    char dir[64], path[128], victim[128], planted[192];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    CU_ASSERT_EQUAL_FATAL(write_text(victim, "VICTIM"), 0);
    CU_ASSERT_EQUAL_FATAL(write_text(path, "OLD"), 0);
    unsigned next = hs_file_output_next_temp_counter();
    for (unsigned i = 0; i < PLANTED; i++) {
        snprintf(planted, sizeof planted, "%s.tmp.%ld.%u", path, (long)getpid(), next + i);
        CU_ASSERT_EQUAL_FATAL(symlink(victim, planted), 0);
    }

    expect_write_refused(path, "DATA", 4, "File exists");
    CU_ASSERT(file_is(path, "OLD"));
    CU_ASSERT(file_is(victim, "VICTIM"));
    CU_ASSERT_EQUAL(count_entries(dir, ".tmp."), PLANTED);
    remove_tree(dir);
}

static void test_missing_directory(void) {
    char dir[64], missing[128], path[160], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(missing, sizeof missing, "%s/nope", dir);
    snprintf(path, sizeof path, "%s/heap.pb.gz", missing);

    expect_write_refused(path, "x", 1, "No such file or directory");
    char quoted[160];
    snprintf(quoted, sizeof quoted, "'%s'", missing); /* names the directory itself */
    expect_dir_refused(path, ENOENT, quoted, "No such file or directory");

    /* dirname semantics: doubled and trailing slashes still name the same directory */
    snprintf(path, sizeof path, "%s//heap.pb.gz", missing);
    CU_ASSERT_EQUAL(hs_check_output_dir(path, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, quoted));
    snprintf(path, sizeof path, "%s/sub/", missing);
    CU_ASSERT_EQUAL(hs_check_output_dir(path, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, quoted));
    remove_tree(dir);
}

/* A regular file where a directory is expected fails for root too (ENOTDIR). */
static void test_file_where_directory_expected(void) {
    char dir[64], file[128], path[160];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(file, sizeof file, "%s/plain-file", dir);
    snprintf(path, sizeof path, "%s/heap.pb.gz", file);
    CU_ASSERT_EQUAL_FATAL(write_text(file, "I am not a directory"), 0);

    expect_dir_refused(path, ENOTDIR, file, "Not a directory");
    expect_write_refused(path, "x", 1, "Not a directory");
    CU_ASSERT(file_is(file, "I am not a directory"));
    remove_tree(dir);
}

static void test_unwritable_directory(void) {
    char dir[64], sub[128], path[160], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(sub, sizeof sub, "%s/locked", dir);
    snprintf(path, sizeof path, "%s/heap.pb.gz", sub);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0555), 0);
    CU_ASSERT_EQUAL_FATAL(chmod(sub, 0555), 0);

    if (geteuid() != 0) {
        CU_ASSERT_EQUAL(hs_check_output_dir(path, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, sub));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "Permission denied"));
        CU_ASSERT_EQUAL(hs_write_file_atomic(path, "x", 1, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "Permission denied"));
    } else {
        note("running as root: mode 0555 does not stop root, checking a read-only mount instead");
    }

    /* A read-only file system stops root as well. */
    if (mount_small_tmpfs(sub, MS_RDONLY, "16k") != 0) {
        note("cannot mount a read-only tmpfs here: read-only case skipped");
    } else {
        expect_dir_refused(path, EROFS, sub, "Read-only file system");
        expect_write_refused(path, "x", 1, "Read-only file system");
        CU_ASSERT_EQUAL(umount2(sub, MNT_DETACH), 0);
    }
    chmod(sub, 0755);
    remove_tree(dir);
}

static void test_check_output_dir_accepts_writable(void) {
    char dir[64], path[128], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    CU_ASSERT_EQUAL(hs_check_output_dir(path, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(count_entries(dir, ""), 0); /* checking creates nothing */

    /* A bare file name lives in the current directory. */
    char cwd[4096];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
    CU_ASSERT_EQUAL(hs_check_output_dir("heap.pb.gz", err, sizeof err), 0);
    CU_ASSERT_EQUAL(hs_check_output_dir("", err, sizeof err), -1); /* no file name */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no file name"));
    CU_ASSERT_EQUAL(hs_write_file_atomic("heap.pb.gz", "rel", 3, err, sizeof err), 0);
    CU_ASSERT_EQUAL(chdir(cwd), 0);
    CU_ASSERT(file_is(path, "rel"));
    remove_tree(dir);
}

/* The write loop reports ENOSPC; /dev/full fails every write with it. */
static void test_write_all_reports_enospc(void) {
    int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        note("/dev/full is not available: skipped");
        CU_PASS("no /dev/full");
        return;
    }
    char data[8192] = {0};
    errno = 0;
    CU_ASSERT_EQUAL(hs_write_all(fd, data, sizeof data), -1);
    CU_ASSERT_EQUAL(errno, ENOSPC);
    close(fd);

    /* and writes everything through a pipe, reading it back */
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    CU_ASSERT_EQUAL(hs_write_all(fds[1], "pipe data", 9), 0);
    char back[16] = {0};
    CU_ASSERT_EQUAL(read(fds[0], back, sizeof back - 1), 9);
    CU_ASSERT_STRING_EQUAL(back, "pipe data");
    close(fds[0]);
    close(fds[1]);
}

/* A full disk: the error is reported with its errno text, the temporary file is
 * removed, and the previous profile is untouched. */
static void test_disk_full_keeps_previous_file(void) {
    char dir[64], mnt[128], path[160], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(mnt, sizeof mnt, "%s/small", dir);
    snprintf(path, sizeof path, "%s/heap.pb.gz", mnt);
    CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0755), 0);
    if (mount_small_tmpfs(mnt, 0, "64k") != 0) {
        note("cannot mount a 64 KiB tmpfs here (needs root): disk-full case skipped");
        CU_PASS("mount refused");
        remove_tree(dir);
        return;
    }
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "OLD", 3, err, sizeof err), 0);
    size_t big = 256 * 1024;
    char *data = calloc(1, big);
    CU_ASSERT_PTR_NOT_NULL(data);
    if (data) {
        expect_write_refused(path, data, big, "No space left on device");
        CU_ASSERT(file_is(path, "OLD"));
        CU_ASSERT_EQUAL(count_entries(mnt, ""), 1); /* the temporary file is gone */
        free(data);
    }
    CU_ASSERT_EQUAL(umount2(mnt, MNT_DETACH), 0);
    remove_tree(dir);
}

/* A directory at the target is refused (at startup and at write time), and the write
 * leaves no temporary file behind. */
static void test_directory_target_refused(void) {
    char dir[64], path[128], inner[160];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/heap.pb.gz", dir);
    snprintf(inner, sizeof inner, "%s/keep", path);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(write_text(inner, "kept"), 0);

    expect_write_refused(path, "DATA", 4, "is a directory, not a regular file");
    expect_dir_refused(path, EEXIST, path, "is a directory, not a regular file");
    CU_ASSERT_EQUAL(count_entries(dir, ".tmp."), 0);
    CU_ASSERT(file_is(inner, "kept"));
    remove_tree(dir);
}

/* Device nodes and FIFOs are never replaced: /dev/null itself, a character device made
 * with mknod (root only), a FIFO, and a symlink to a device. */
static void test_special_files_refused(void) {
    char dir[64], path[160];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    expect_dir_refused("/dev/null", EEXIST, "/dev/null", "is a character device");
    expect_write_refused("/dev/null", "x", 1, "is a character device");
    struct stat st;
    CU_ASSERT(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)); /* still the device */

    snprintf(path, sizeof path, "%s/null-copy", dir);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        expect_dir_refused(path, EEXIST, path, "is a character device");
        expect_write_refused(path, "x", 1, "is a character device");
        CU_ASSERT(lstat(path, &st) == 0 && S_ISCHR(st.st_mode));
    } else {
        note("mknod refused (not root?): the /dev/null case stands for devices");
    }

    snprintf(path, sizeof path, "%s/fifo", dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0644), 0);
    expect_dir_refused(path, EEXIST, path, "is a FIFO");
    expect_write_refused(path, "x", 1, "is a FIFO");
    CU_ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));

    snprintf(path, sizeof path, "%s/to-null", dir);
    CU_ASSERT_EQUAL_FATAL(symlink("/dev/null", path), 0);
    expect_dir_refused(path, EEXIST, path, "a symlink to a device, FIFO or socket");
    expect_write_refused(path, "x", 1, "a symlink to a device, FIFO or socket");
    CU_ASSERT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_EQUAL(count_entries(dir, ".tmp."), 0);
    remove_tree(dir);
}

/* Paths that name no file: "/", ".", "..", a trailing slash. */
static void test_paths_without_a_file_name(void) {
    const char *paths[] = {"/", ".", "..", "/tmp/", "/tmp/.", "/tmp/.."};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char err[ERR_SIZE] = "";
        CU_ASSERT_EQUAL(hs_check_output_dir(paths[i], err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, paths[i]));
        CU_ASSERT_EQUAL(hs_write_file_atomic(paths[i], "x", 1, err, sizeof err), -1);
    }
}

/* A final name of 229 bytes leaves room for the temporary suffix; 230 to 255 do not. */
static void test_long_names(void) {
    char dir[64], path[400], name[256];
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    memset(name, 'n', sizeof name);
    name[229] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL(hs_check_output_dir(path, err, sizeof err), 0);
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "ok", 2, err, sizeof err), 0);
    CU_ASSERT(file_is(path, "ok"));
    for (size_t len = 230; len <= 255; len += 5) {
        memset(name, 'n', sizeof name);
        name[len] = '\0';
        snprintf(path, sizeof path, "%s/%s", dir, name);
        expect_dir_refused(path, EINVAL, path, "too long to leave room for the temporary file");
        expect_write_refused(path, "x", 1, "too long to leave room for the temporary file");
    }
    remove_tree(dir);
}

/* The directory is pinned when checked: swapping it for a symlink to another directory
 * mid-run does not redirect the write. A symlinked parent given at startup is fine (it is
 * resolved once, then). */
static void test_symlinked_parent(void) {
    char dir[64], real[128], link[128], moved[128], victim[128], path[192], err[ERR_SIZE] = "";
    CU_ASSERT_EQUAL_FATAL(make_test_dir(dir, sizeof dir), 0);
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(link, sizeof link, "%s/out", dir);
    snprintf(moved, sizeof moved, "%s/moved", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(real, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(mkdir(victim, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("real", link), 0); /* out -> real, given at startup */
    snprintf(path, sizeof path, "%s/heap.pb.gz", link);
    CU_ASSERT_EQUAL_FATAL(hs_check_output_dir(path, err, sizeof err), 0);
    /* mid-run: out now points at victim, and real was moved away */
    CU_ASSERT_EQUAL_FATAL(rename(real, moved), 0);
    CU_ASSERT_EQUAL_FATAL(unlink(link), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("victim", link), 0);
    CU_ASSERT_EQUAL(hs_write_file_atomic(path, "DATA", 4, err, sizeof err), 0);
    char expected[192];
    snprintf(expected, sizeof expected, "%s/heap.pb.gz", moved);
    CU_ASSERT(file_is(expected, "DATA")); /* the directory opened at startup */
    CU_ASSERT_EQUAL(count_entries(victim, ""), 0);
    remove_tree(dir);
}

static void test_tiny_error_buffer_is_safe(void) {
    char err[8];
    memset(err, 'Z', sizeof err);
    CU_ASSERT_EQUAL(hs_write_file_atomic("/nonexistent-dir-hs/x", "x", 1, err, sizeof err), -1);
    CU_ASSERT_EQUAL(err[sizeof err - 1], '\0'); /* truncated, terminated */
    CU_ASSERT_EQUAL(hs_write_file_atomic("/nonexistent-dir-hs/x", "x", 1, NULL, 0), -1);
    CU_ASSERT_EQUAL(hs_check_output_dir("/nonexistent-dir-hs/x", NULL, 0), -1);
}

static CU_TestInfo file_output_tests[] = {
    {"writes exact bytes with mode 0644", test_writes_exact_bytes_with_mode_0644},
    {"replaces the previous file", test_replaces_previous_file},
    {"symlink at the target is replaced", test_symlink_at_target_is_replaced},
    {"planted temp symlink is not followed", test_planted_temp_symlink_is_not_followed},
    {"all temp names taken fails cleanly", test_all_temp_names_taken_fails_cleanly},
    {"missing directory", test_missing_directory},
    {"file where a directory is expected", test_file_where_directory_expected},
    {"unwritable directory", test_unwritable_directory},
    {"check accepts a writable directory", test_check_output_dir_accepts_writable},
    {"write loop reports ENOSPC", test_write_all_reports_enospc},
    {"disk full keeps the previous file", test_disk_full_keeps_previous_file},
    {"directory target refused", test_directory_target_refused},
    {"devices and FIFOs refused", test_special_files_refused},
    {"paths without a file name", test_paths_without_a_file_name},
    {"long names", test_long_names},
    {"symlinked parent", test_symlinked_parent},
    {"tiny error buffer is safe", test_tiny_error_buffer_is_safe},
    CU_TEST_INFO_NULL,
};

void register_tests(void) { HS_ADD_SUITE("file_output", file_output_tests); }
