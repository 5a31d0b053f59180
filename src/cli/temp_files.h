/* temp_files.h: every file the command creates for a moment (the attach trigger, reply
 * and output files in the target's /tmp, the temp beside -o FILE) is registered here, so
 * that an interrupted command (Ctrl-C, SIGTERM) still leaves none behind.
 *
 * Each process keeps its own list: the parent its temp files beside the operator's
 * files, the child on the target's side (target_side.h) the files it made there, by
 * directory descriptor and name (a directory reached through the target's root stays
 * reachable that way, and is never looked up again by path). */
#ifndef HS_CLI_TEMP_FILES_H
#define HS_CLI_TEMP_FILES_H

#include <stdbool.h>

/* Registers a path to unlink on cli_temp_remove or at a signal. Returns a slot or -1. */
int cli_temp_add(const char *path);
/* Registers `name` inside the directory open as dirfd, and takes dirfd over (closed with
 * the slot). Returns a slot or -1. */
int cli_temp_add_at(int dirfd, const char *name);
/* Unlinks the registered file and frees its slot (a slot < 0 is ignored). */
void cli_temp_remove(int slot);
/* Unlinks every registered file. */
void cli_temp_remove_all(void);
/* Forgets every registration without unlinking (a forked child: they are the parent's). */
void cli_temp_forget_all(void);

/* Creates `name` in the directory open as dirfd, exclusively, mode 0600, not through a
 * symlink, registered (with a duplicate of dirfd). Returns the slot, or -1 with errno. */
int cli_temp_create_at(int dirfd, const char *name);

/* Installs SIGINT/SIGTERM/SIGHUP handlers that unlink every registered path and exit with
 * `exit_code` (0 for `top --every`, whose normal end is Ctrl-C; 130 otherwise). */
void cli_temp_install_signals(int exit_code);
/* Whether a signal arrived since the handlers were installed (only with exit_code -1:
 * the handler then just records it, for loops that end cleanly themselves). */
bool cli_temp_interrupted(void);

#endif
