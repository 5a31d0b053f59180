/* test_cli_files.c: the files the heapsampler command writes: the operator's -o FILE
 * (out_file.c: atomic, no clobber without --force, a symlink replaced and never followed,
 * a missing directory refused) and the files it makes in a target's /tmp (temp_files.c,
 * with this process as the target). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_file.h"
#include "target.h"
#include "temp_files.h"
#include "unit.h"

static char dir[] = "/tmp/hs-cli-files-XXXXXX";

static int setup(void) { return mkdtemp(dir) ? 0 : -1; }

static int teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* An fd reading `text` (a pipe: what the command copies from the target). */
static int source(const char *text) {
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    CU_ASSERT_EQUAL(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
    close(fds[1]);
    return fds[0];
}

static void expect_content(const char *path, const char *text) {
    size_t len = 0;
    char *got = cli_read_file(path, 1 << 20, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, text);
    free(got);
}

/* Entries in dir other than the given names (temp files left behind). */
static int stray_files(const char *keep1, const char *keep2) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -v -x -e '%s' -e '%s' | grep -q .", dir, keep1, keep2);
    return system(cmd) == 0;
}

static void test_out_copy(void) {
    char file[128];
    snprintf(file, sizeof file, "%s/heap.html", dir);
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), 0);
    int fd = source("first");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, false, &e), 0);
    close(fd);
    expect_content(file, "first");
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), CLI_EXIT_EXISTS);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "use --force"));
    fd = source("second");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, false, &e), CLI_EXIT_EXISTS); /* raced in: still refused */
    close(fd);
    expect_content(file, "first");
    CU_ASSERT_EQUAL(cli_out_check(file, true, &e), 0);
    fd = source("third");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, true, &e), 0);
    close(fd);
    expect_content(file, "third");
    CU_ASSERT_FALSE(stray_files("heap.html", "heap.html"));
}

static void test_out_symlink_replaced(void) {
    char file[128], victim[128];
    snprintf(file, sizeof file, "%s/link.pb.gz", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    int v = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CU_ASSERT_EQUAL(write(v, "keep", 4), 4);
    close(v);
    CU_ASSERT_EQUAL_FATAL(symlink(victim, file), 0);
    cli_err e = {0, ""};
    int fd = source("profile");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, false, &e), CLI_EXIT_EXISTS);
    close(fd);
    fd = source("profile");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, true, &e), 0);
    close(fd);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(file, &st), 0);
    CU_ASSERT_TRUE(S_ISREG(st.st_mode)); /* the link itself was replaced */
    expect_content(victim, "keep");     /* and never followed */
    unlink(file);
    unlink(victim);
}

static void test_out_bad_directory(void) {
    char file[160];
    snprintf(file, sizeof file, "%s/missing/heap.txt", dir);
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_out_check(file, false, &e), CLI_EXIT_WRITE);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cannot write into"));
    int fd = source("x");
    CU_ASSERT_EQUAL(cli_out_copy(fd, file, false, &e), CLI_EXIT_WRITE);
    close(fd);
    snprintf(file, sizeof file, "%s", dir);
    CU_ASSERT_EQUAL(cli_out_check(file, true, &e), CLI_EXIT_WRITE); /* a directory */
}

static void test_target_file(void) {
    cli_target self;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL_FATAL(cli_target_inspect(getpid(), &self, false, &e), 0);
    CU_ASSERT_EQUAL(self.euid, geteuid());
    CU_ASSERT_STRING_EQUAL(self.libjvm, ""); /* not a JVM, and not asked to be */
    CU_ASSERT_EQUAL(cli_target_inspect(getpid(), &self, true, &e), CLI_EXIT_NOT_JVM);
    cli_target_file a, b;
    CU_ASSERT_EQUAL_FATAL(cli_target_file_create(&self, "reply", &a, &e), 0);
    CU_ASSERT_EQUAL_FATAL(cli_target_file_create(&self, "reply", &b, &e), 0);
    CU_ASSERT_STRING_NOT_EQUAL(a.inner, b.inner); /* two commands at once: two files */
    CU_ASSERT_EQUAL(strncmp(a.inner, "/tmp/.heapsampler-", 18), 0);
    char expected_host[PATH_MAX + 32];
    snprintf(expected_host, sizeof expected_host, "/proc/%d/root%s", getpid(), a.inner);
    CU_ASSERT_STRING_EQUAL(a.host, expected_host);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(a.inner, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
    CU_ASSERT_EQUAL(st.st_uid, geteuid());
    cli_target_file_discard(&a);
    cli_target_file_discard(&b);
    CU_ASSERT_NOT_EQUAL(access(a.inner, F_OK), 0);
    CU_ASSERT_NOT_EQUAL(access(b.inner, F_OK), 0);
    cli_target_file_discard(&a); /* twice: harmless */
}

static void test_no_process(void) {
    cli_target t;
    cli_err e = {0, ""};
    CU_ASSERT_EQUAL(cli_target_inspect(0x7ffffff0, &t, true, &e), CLI_EXIT_NO_PROCESS);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no process"));
}

static CU_TestInfo tests[] = {
    {"out file: atomic, no clobber, --force", test_out_copy},
    {"out file: a symlink is replaced, not followed", test_out_symlink_replaced},
    {"out file: missing directory", test_out_bad_directory},
    {"target files: exclusive, 0600, unique, removed", test_target_file},
    {"no such process", test_no_process},
    CU_TEST_INFO_NULL,
};

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("cli files", setup, teardown);
    for (const CU_TestInfo *t = tests; suite && t->pName; t++) CU_add_test(suite, t->pName, t->pTestFunc);
}
