/* target.h: one process the command talks to, as /proc shows it without touching its
 * memory, and the operator's right to talk to it.
 *
 * Opening a target answers the first questions of every verb: does the process exist
 * (exit 2), may this operator attach to it (4), is it stopped. It opens a pidfd first,
 * then /proc/PID, and checks that the pidfd still names a live process: from then on
 * every /proc read goes through that directory and every signal through the pidfd, so a
 * pid that exits and is reused by another process is never read or signalled, and a verb
 * keeps one target from its first step to its last. The parent reads only what the
 * kernel answers without the target's memory (status, stat, id maps): reading maps,
 * environ or cmdline takes the target's mmap lock and faults its pages, which a hostile
 * target can make block forever, so those are read across the privilege boundary, under
 * a deadline (inspect.h). */
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
    uid_t euid;            /* as the host sees them */
    gid_t egid;
    char libjvm[PATH_MAX]; /* as the target sees it */
    char agent[PATH_MAX];  /* the mapped libheapsampler.so as the target sees it; "" if none */
    char main[160];        /* what its command line runs (list), "?" when it cannot tell */
    bool has_memory;       /* an address space: not a kernel thread */
    bool catches_sigquit;
    bool stopped;          /* SIGSTOP or a debugger, when inspected */
    bool attach_disabled;  /* -XX:+DisableAttachMechanism on its command line or option variables */
    unsigned long long start_time; /* /proc/PID/stat field 22 */
    int pidfd;             /* -1 where the kernel has no pidfd_open (before 5.3) */
    int procfd;            /* /proc/PID */
} cli_target;

/* Reads a whole (small) file into a malloc'd NUL-terminated buffer, at most max bytes.
 * For the operator's own files and procfs only. Returns NULL with errno set on failure. */
char *cli_read_file(const char *path, size_t max, size_t *len);
/* The same for /proc/PID/name of the target, through its /proc/PID descriptor: only files
 * the kernel answers without the target's memory (status, stat, uid_map...). */
char *cli_read_proc(const cli_target *t, const char *name, size_t max, size_t *len);
/* The same from an open descriptor, which it closes. */
char *cli_read_fd(int fd, size_t max, size_t *len);

/* Opens pid's pidfd and /proc/PID and fills the facts of its status and stat (not those
 * of its memory: libjvm, agent, main stay ""; inspect.h reads them). Returns 0, or an
 * exit code with the line in e: 2, 4. After a success, cli_target_close releases what it
 * opened (after a failure nothing is left open; closing again is harmless). */
int cli_target_open(int pid, cli_target *t, cli_err *e);
void cli_target_close(cli_target *t);

/* Whether the process is stopped now (SIGSTOP, a debugger). */
bool cli_target_stopped(const cli_target *t);
/* Whether the process has exited (its pidfd says so, or it is gone or a zombie). */
bool cli_target_exited(const cli_target *t);
/* Fails with "process N has exited" (2) when it has: a verb's steps after the first. */
int cli_target_check_exited(const cli_target *t, cli_err *e);

/* Sends sig to the target through its pidfd (or, without one, after checking through
 * /proc/PID that its start time is still the one inspected). Returns 0, or -1 with errno
 * (ESRCH: it exited). */
int cli_target_signal(const cli_target *t, int sig);

/* Milliseconds on the monotonic clock. */
long cli_now_ms(void);

#endif
