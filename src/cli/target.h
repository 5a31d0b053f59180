/* target.h: one JVM the command talks to, as /proc shows it, and the operator's right to
 * talk to it.
 *
 * Inspection answers, in this order, the first questions of every verb: does the process
 * exist (exit 2), may this operator attach to it (4), is it a JVM (3), is heapsampler
 * already mapped into it (and under which path, as the target sees it). While talking to
 * the target, a root operator takes the target's effective uid and gid (cli_target_enter)
 * so that every file made for the target belongs to the target's user. */
#ifndef HS_CLI_TARGET_H
#define HS_CLI_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cli_error.h"

typedef struct {
    int pid;               /* on the host */
    int nspid;             /* in its own pid namespace */
    uid_t euid;
    gid_t egid;
    char libjvm[PATH_MAX]; /* as the target sees it */
    char agent[PATH_MAX];  /* the mapped libheapsampler.so as the target sees it; "" if none */
    bool catches_sigquit;
} cli_target;

/* Reads a whole (small) file into a malloc'd NUL-terminated buffer, at most max bytes.
 * Returns NULL with errno set on failure. */
char *cli_read_file(const char *path, size_t max, size_t *len);

/* Fills t for pid. Returns 0, or an exit code (2, 3, 4) with the line in e. When
 * need_jvm is false, a process that is not a JVM is not an error (t->libjvm stays ""). */
int cli_target_inspect(int pid, cli_target *t, bool need_jvm, cli_err *e);

/* Whether the process is stopped now (SIGSTOP, a debugger). */
bool cli_target_stopped(int pid);
/* Whether the process has exited (gone, or a zombie). */
bool cli_target_exited(int pid);

/* Whether the JVM's command line or its option variables disable attach. */
bool cli_target_attach_disabled(int pid);

/* Takes the target's effective uid/gid when the operator is root and they differ;
 * cli_target_leave gives them back. Returns 0, or -1 with errno. */
int cli_target_enter(const cli_target *t);
void cli_target_leave(void);

/* Milliseconds on the monotonic clock. */
long cli_now_ms(void);

#endif
