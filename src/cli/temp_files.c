/* temp_files.c: files created for a moment, removed always (see temp_files.h). */
#include "temp_files.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "ns_path.h"

#define MAX_TEMPS 8

static char temp_paths[MAX_TEMPS][PATH_MAX];
static int temp_dirs[MAX_TEMPS];
static volatile sig_atomic_t temp_used[MAX_TEMPS];
static volatile sig_atomic_t signal_exit_code = 130;
static volatile sig_atomic_t interrupted;

int cli_temp_add_at(int dirfd, const char *name) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temp_used[i]) {
            snprintf(temp_paths[i], sizeof temp_paths[i], "%s", name);
            temp_dirs[i] = dirfd;
            temp_used[i] = 1;
            return i;
        }
    if (dirfd != AT_FDCWD) close(dirfd);
    return -1;
}

int cli_temp_add(const char *path) { return cli_temp_add_at(AT_FDCWD, path); }

void cli_temp_remove(int slot) {
    if (slot < 0 || slot >= MAX_TEMPS || !temp_used[slot]) return;
    unlinkat(temp_dirs[slot], temp_paths[slot], 0);
    if (temp_dirs[slot] != AT_FDCWD) close(temp_dirs[slot]);
    temp_used[slot] = 0;
}

static void remove_all(void) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_used[i]) unlinkat(temp_dirs[i], temp_paths[i], 0); /* async-signal-safe */
}

int cli_temp_create_in(const char *dir, const char *name) {
    int dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) return -1;
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        int saved = errno;
        close(dirfd);
        errno = saved;
        return -1;
    }
    close(fd);
    int slot = cli_temp_add_at(dirfd, name);
    if (slot < 0) {
        unlinkat(dirfd, name, 0);
        errno = EMFILE;
    }
    return slot;
}

static void on_signal(int sig) {
    (void)sig;
    if (signal_exit_code < 0) {
        interrupted = 1;
        return;
    }
    remove_all();
    _exit(signal_exit_code);
}

void cli_temp_install_signals(int exit_code) {
    signal_exit_code = exit_code;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

bool cli_temp_interrupted(void) { return interrupted != 0; }

int cli_target_file_create(const cli_target *t, const char *kind, cli_target_file *f, cli_err *e) {
    f->slot = -1;
    for (int attempt = 0; attempt < 8; attempt++) {
        unsigned char rnd[8];
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
            return cli_fail(e, CLI_EXIT_ATTACH, "no random bytes for a file name: %s", strerror(errno));
        char name[PATH_MAX];
        snprintf(name, sizeof name, "/tmp/.heapsampler-%d-%02x%02x%02x%02x%02x%02x%02x%02x.%s", t->nspid,
                 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7], kind);
        if (cli_host_path(f->host, sizeof f->host, t->pid, name) != 0)
            return cli_fail(e, CLI_EXIT_ATTACH, "path too long for process %d", t->pid);
        snprintf(f->inner, sizeof f->inner, "%s", name);
        char dir[64];
        snprintf(dir, sizeof dir, "/proc/%d/root/tmp", t->pid);
        f->slot = cli_temp_create_in(dir, name + strlen("/tmp/"));
        if (f->slot < 0 && errno == EEXIST) continue;
        if (f->slot < 0)
            return cli_fail(e, errno == ENOENT || errno == ESRCH ? CLI_EXIT_NO_PROCESS : CLI_EXIT_ATTACH,
                            "cannot create %s in the /tmp of process %d: %s", name, t->pid,
                            strerror(errno));
        return 0;
    }
    return cli_fail(e, CLI_EXIT_ATTACH, "cannot find a free file name in the /tmp of process %d", t->pid);
}

void cli_target_file_discard(cli_target_file *f) {
    if (f->slot >= 0) cli_temp_remove(f->slot);
    f->slot = -1;
}
