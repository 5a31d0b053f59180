/* out_file.h: the operator's -o FILE, written by the command itself (never by the JVM,
 * never by the child that works on the target's side: it only sends the bytes), with the
 * operator's ownership, atomically: a temp file in FILE's directory, filled as the bytes
 * arrive, then a rename that refuses an existing FILE unless --force; a symlink at FILE
 * is replaced, never followed; a failed or refused copy leaves FILE as it was and no
 * temp file behind. */
#ifndef HS_CLI_OUT_FILE_H
#define HS_CLI_OUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli_error.h"

/* The early check, before asking the agent: exit 10 when FILE exists and !force, 11 when
 * its directory is missing or not writable. */
int cli_out_check(const char *file, bool force, cli_err *e);

/* One output being written. */
typedef struct {
    const char *file;
    bool force;
    char tmp[PATH_MAX];
    int fd;                     /* -1: not open */
    int slot;                   /* temp_files registration */
    unsigned long long written;
} cli_out;

/* Creates the temp file beside FILE. Returns 0 or 11. */
int cli_out_open(cli_out *o, const char *file, bool force, cli_err *e);
/* Appends bytes. Returns 0 or 11. */
int cli_out_write(cli_out *o, const void *buf, size_t len, cli_err *e);
/* Syncs and moves the temp file onto FILE. Returns 0, 10 or 11; the temp file is gone. */
int cli_out_commit(cli_out *o, cli_err *e);
/* Removes the temp file (after a failure; harmless after a commit or on a closed one). */
void cli_out_abort(cli_out *o);

/* rename(from, to) unless `to` exists (then -1 with EEXIST), atomically: renameat2's
 * RENAME_NOREPLACE through the system call, as glibc and musl alike can make it. -1 with
 * EINVAL or ENOSYS where the filesystem or the kernel cannot. */
int cli_rename_noreplace(const char *from, const char *to);

#endif
