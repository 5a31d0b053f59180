/* out_file.h: the operator's -o FILE, written by the command itself (never by the JVM),
 * with the operator's ownership, atomically: a temp file in FILE's directory, then a
 * rename that refuses an existing FILE unless --force; a symlink at FILE is replaced,
 * never followed; a failed write leaves FILE as it was. */
#ifndef HS_CLI_OUT_FILE_H
#define HS_CLI_OUT_FILE_H

#include <stdbool.h>

#include "cli_error.h"

/* The early check, before asking the agent: exit 10 when FILE exists and !force, 11 when
 * its directory is missing or not writable. */
int cli_out_check(const char *file, bool force, cli_err *e);

/* Copies everything readable from src_fd into FILE. Returns 0, 10 or 11. */
int cli_out_copy(int src_fd, const char *file, bool force, cli_err *e);

/* rename(from, to) unless `to` exists (then -1 with EEXIST), atomically: renameat2's
 * RENAME_NOREPLACE through the system call, as glibc and musl alike can make it. -1 with
 * EINVAL or ENOSYS where the filesystem or the kernel cannot. */
int cli_rename_noreplace(const char *from, const char *to);

#endif
