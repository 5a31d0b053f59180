/* temp_files.c: files created for a moment, removed always (see temp_files.h). */
#include "temp_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

static void release(int slot) {
    if (temp_dirs[slot] != AT_FDCWD) close(temp_dirs[slot]);
    temp_used[slot] = 0;
}

void cli_temp_remove(int slot) {
    if (slot < 0 || slot >= MAX_TEMPS || !temp_used[slot]) return;
    unlinkat(temp_dirs[slot], temp_paths[slot], 0);
    release(slot);
}

void cli_temp_remove_all(void) {
    for (int i = 0; i < MAX_TEMPS; i++) cli_temp_remove(i);
}

void cli_temp_forget_all(void) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_used[i]) release(i);
}

static void unlink_all(void) {
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp_used[i]) unlinkat(temp_dirs[i], temp_paths[i], 0); /* async-signal-safe */
}

int cli_temp_create_at(int dirfd, const char *name) {
    int dir = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (dir < 0) return -1;
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd < 0) {
        int saved = errno;
        close(dir);
        errno = saved;
        return -1;
    }
    close(fd);
    int slot = cli_temp_add_at(dir, name);
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
    unlink_all();
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
