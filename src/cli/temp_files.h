/* temp_files.h: every file the command creates for a moment (the attach trigger, reply
 * and output files in the target's /tmp, the temp beside -o FILE) is registered here, so
 * that an interrupted command (Ctrl-C, SIGTERM) still leaves none behind.
 *
 * Also: creating a file for the target, exclusively, mode 0600, never through a symlink,
 * with a random name the target's user cannot guess ahead. */
#ifndef HS_CLI_TEMP_FILES_H
#define HS_CLI_TEMP_FILES_H

#include <limits.h>
#include <stdbool.h>

#include "cli_error.h"
#include "target.h"

/* Registers a path to unlink on cli_temp_remove or at a signal. Returns a slot or -1. */
int cli_temp_add(const char *path);
/* Registers `name` inside the directory open as dirfd, and takes dirfd over (closed with
 * the slot). A directory reached through /proc/PID/ stays reachable this way after the
 * process is gone, so its files are still removed. Returns a slot or -1. */
int cli_temp_add_at(int dirfd, const char *name);
/* Unlinks the registered path and frees its slot. */
void cli_temp_remove(int slot);

/* Opens a directory (e.g. /proc/PID/root/tmp) and creates `name` in it exclusively, mode
 * 0600, not through a symlink, registered. Returns the slot, or -1 with errno. */
int cli_temp_create_in(const char *dir, const char *name);

/* Installs SIGINT/SIGTERM/SIGHUP handlers that unlink every registered path and exit with
 * `exit_code` (0 for `top --every`, whose normal end is Ctrl-C; 130 otherwise). */
void cli_temp_install_signals(int exit_code);
/* Whether a signal arrived since the handlers were installed (only with exit_code -1:
 * the handler then just records it, for loops that end cleanly themselves). */
bool cli_temp_interrupted(void);

/* A file made for the target in its /tmp: `inner` as the target names it, `host` the same
 * file from here (/proc/PID/root/tmp/...). */
typedef struct {
    char inner[PATH_MAX];
    char host[PATH_MAX];
    int slot;
} cli_target_file;


/* Creates an empty file /tmp/.heapsampler-<nspid>-<random>.<kind> in the target with the
 * current credentials (cli_target_enter first when root). Returns 0, or an exit code. */
int cli_target_file_create(const cli_target *t, const char *kind, cli_target_file *f, cli_err *e);
/* Unlinks it (always call, on success and failure). */
void cli_target_file_discard(cli_target_file *f);

#endif
