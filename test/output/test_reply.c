/* test_reply.c: the answer files of the operator's command (reply.c): what is refused
 * (missing, symlink, FIFO, directory, more than one link, another owner), the header, and
 * that the whole content is replaced. Also the growable text (text.c) and a thread's log
 * capture (log.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "output/reply.h"
#include "base/text.h"
#include "unit.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/hs-test-reply-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

static void path_in(char *out, size_t len, const char *name) {
    snprintf(out, len, "%s/%s", dir, name);
}

static void create(const char *path, const char *content) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, content, strlen(content)), (ssize_t)strlen(content));
    close(fd);
}

static char *slurp(const char *path) {
    static char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void remove_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* hs_reply_open refuses path with a message containing why. */
static void expect_refused(const char *path, const char *why) {
    char err[512] = "";
    int fd = hs_reply_open("reply", path, err, sizeof err);
    if (fd >= 0) close(fd);
    CU_ASSERT_EQUAL(fd, -1);
    if (!strstr(err, why)) fprintf(stderr, "\n  '%s': '%s' lacks '%s'\n", path, err, why);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "reply file '"));
}

static void test_answer_replaces_content(void) {
    make_dir();
    char path[128], err[512];
    path_in(path, sizeof path, "r");
    create(path, "an older, longer content that must go away entirely\n");
    CU_ASSERT_EQUAL(hs_reply_send(path, 0, "state: running\nversion: x", err, sizeof err), 0);
    char expected[256];
    snprintf(expected, sizeof expected,
             "heapsampler-reply 1 version=%s rc=0\nstate: running\nversion: x\n", HEAPSAMPLER_VERSION);
    CU_ASSERT_STRING_EQUAL(slurp(path), expected);
    CU_ASSERT_EQUAL(hs_reply_send(path, 1, "bad command 'x'\n", err, sizeof err), 0);
    snprintf(expected, sizeof expected, "heapsampler-reply 1 version=%s rc=1\nbad command 'x'\n",
             HEAPSAMPLER_VERSION);
    CU_ASSERT_STRING_EQUAL(slurp(path), expected);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0600); /* the agent never changes the mode */
    remove_dir();
}

static void test_refusals(void) {
    make_dir();
    char path[128], target[128];
    path_in(path, sizeof path, "missing");
    expect_refused(path, "it must exist");
    expect_refused("relative/reply", "not an absolute path");

    path_in(target, sizeof target, "target");
    create(target, "keep me\n");
    path_in(path, sizeof path, "link");
    CU_ASSERT_EQUAL(symlink(target, path), 0);
    expect_refused(path, "symbolic link");
    CU_ASSERT_STRING_EQUAL(slurp(target), "keep me\n"); /* not followed, not truncated */

    path_in(path, sizeof path, "fifo");
    CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
    expect_refused(path, strerror(ENXIO)); /* no reader: refused at once (O_NONBLOCK), no hang */

    path_in(path, sizeof path, "subdir");
    CU_ASSERT_EQUAL(mkdir(path, 0700), 0);
    expect_refused(path, "reply file"); /* EISDIR: a directory is never opened for writing */

    path_in(path, sizeof path, "hardlink");
    CU_ASSERT_EQUAL(link(target, path), 0);
    expect_refused(path, "more than one link");
    CU_ASSERT_STRING_EQUAL(slurp(target), "keep me\n");
    remove_dir();
}

static void test_fifo_with_reader_is_not_a_regular_file(void) {
    make_dir();
    char path[128];
    path_in(path, sizeof path, "fifo");
    CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    CU_ASSERT_FATAL(reader >= 0);
    expect_refused(path, "not a regular file");
    close(reader);
    remove_dir();
}

static void test_other_owner(void) {
    if (geteuid() != 0) return; /* only root can make a file someone else's */
    make_dir();
    char path[128];
    path_in(path, sizeof path, "theirs");
    create(path, "");
    CU_ASSERT_EQUAL(chown(path, 12345, 12345), 0);
    expect_refused(path, "owned by uid 12345, not by this JVM's uid 0");
    remove_dir();
}

static void test_text(void) {
    hs_text t = {0};
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), "");
    hs_text_puts(&t, "ab");
    hs_text_printf(&t, "%d-%s", 42, "x");
    hs_text_repeat(&t, '.', 3);
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), "ab42-x...");
    for (int i = 0; i < 1000; i++) hs_text_puts(&t, "0123456789");
    CU_ASSERT_EQUAL(t.len, 9 + 10000);
    CU_ASSERT_FALSE(t.failed);
    hs_text_free(&t);
    CU_ASSERT_PTR_NULL(t.data);
}

static void test_log_capture(void) {
    hs_text t = {0};
    hs_log_capture(&t);
    hs_error("bad command '%s'", "x");
    hs_warn("careful");
    hs_log_capture(NULL);
    CU_ASSERT_STRING_EQUAL(hs_text_str(&t), "bad command 'x'\ncareful\n");
    hs_text_free(&t);
}

void register_tests(void) {
    CU_pSuite suite = CU_add_suite("reply", NULL, NULL);
    CU_add_test(suite, "the answer replaces the file's content, after its header", test_answer_replaces_content);
    CU_add_test(suite, "missing, relative, symlink, FIFO, directory, hard link: refused", test_refusals);
    CU_add_test(suite, "a FIFO with a reader: not a regular file", test_fifo_with_reader_is_not_a_regular_file);
    CU_add_test(suite, "a file of another owner: refused", test_other_owner);
    CU_add_test(suite, "growable text", test_text);
    CU_add_test(suite, "a thread's errors captured into its answer", test_log_capture);
}
