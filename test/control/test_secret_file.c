/* test_secret_file.c: reading a secret's file (src/control/secret_file.c): private files
 * read, files others may read or write refused with the fix, FIFOs and directories
 * refused without blocking, missing and too long files, nothing quoted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/secret_file.h"
#include "unit.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/hs_test_secret.XXXXXX");
    if (!mkdtemp(dir)) abort();
}

/* dir/name holding text with the given mode; its path in path. */
static void secret(const char *name, const char *text, mode_t mode, char *path, size_t len) {
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static void test_private_file_read(void) {
    make_dir();
    char path[128], buf[64], why[256];
    size_t n = 99;
    secret("token", "s3cret-token\n", 0600, path, sizeof path);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), 0);
    CU_ASSERT_EQUAL(n, 13);
    CU_ASSERT_STRING_EQUAL(buf, "s3cret-token\n");
    secret("owner-only", "x", 0400, path, sizeof path);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), 0);
    secret("empty", "", 0600, path, sizeof path);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), 0);
    CU_ASSERT_EQUAL(n, 0);
}

static void test_shared_file_refused(void) {
    char path[128], buf[64], why[256], want[200];
    size_t n;
    const mode_t modes[] = {0644, 0640, 0604, 0620, 0602, 0666};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        secret("shared", "s3cret-token", modes[i], path, sizeof path);
        CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), -1);
        snprintf(want, sizeof want, "(mode %04o): make it private with chmod 600 %s",
                 (unsigned)modes[i], path);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, want));
        CU_ASSERT_PTR_NULL(strstr(why, "s3cret"));
        CU_ASSERT_PTR_NULL(strstr(buf, "s3cret")); /* nothing left in the buffer */
    }
    secret("exec", "t", 0711, path, sizeof path); /* execute bits grant nothing to read */
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), 0);
}

/* Another user's private file: that user could change the secret (root runs the JVM). */
static void test_other_owner_refused(void) {
    if (geteuid() != 0) return; /* only root can give a file away */
    char path[128], buf[64], why[256];
    size_t n;
    secret("theirs", "s3cret-token", 0600, path, sizeof path);
    CU_ASSERT_EQUAL_FATAL(chown(path, 12345, (gid_t)-1), 0);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "belongs to uid 12345"));
    CU_ASSERT_PTR_NULL(strstr(why, "s3cret"));
}

static void test_not_a_file(void) {
    char path[128], buf[64], why[256];
    size_t n;
    snprintf(path, sizeof path, "%s/fifo", dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0); /* opened without blocking */
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), -1);
    CU_ASSERT_STRING_EQUAL(why, "cannot read it: not a regular file");
    CU_ASSERT_EQUAL(hs_read_secret_file(dir, buf, sizeof buf, &n, why, sizeof why), -1);
    CU_ASSERT_STRING_EQUAL(why, "cannot read it: not a regular file");
    snprintf(path, sizeof path, "%s/missing", dir);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), -1);
    CU_ASSERT_STRING_EQUAL(why, "cannot read it: No such file or directory");
}

static void test_too_long(void) {
    char path[128], buf[8], why[256];
    size_t n;
    secret("long", "12345678", 0600, path, sizeof path);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), -1);
    CU_ASSERT_STRING_EQUAL(why, "the file is longer than 7 bytes");
    secret("fits", "1234567", 0600, path, sizeof path);
    CU_ASSERT_EQUAL(hs_read_secret_file(path, buf, sizeof buf, &n, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(buf, "1234567");
    char cleanup[160];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", dir);
    (void)!system(cleanup);
}

void register_tests(void) {
    static CU_TestInfo tests[] = {
        {"a private file is read", test_private_file_read},
        {"a file others may read or write is refused", test_shared_file_refused},
        {"another user's file is refused", test_other_owner_refused},
        {"FIFOs, directories, missing files", test_not_a_file},
        {"too long", test_too_long},
        CU_TEST_INFO_NULL,
    };
    HS_ADD_SUITE("secret_file", tests);
}
