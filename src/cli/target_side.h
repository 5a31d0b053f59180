/* target_side.h: the command's one privilege boundary.
 *
 * Everything that touches the target's side (its /tmp and cwd, the attach trigger and
 * socket, the agent's reply and output files, its JDK's release file and perfdata, the
 * library copy) runs in a child forked for the purpose, which has fully become the
 * target's user (privilege.h) before it touches any of it. It starts from descriptors the
 * parent opened through the target's own /proc/PID (its root and cwd: kernel links, not
 * paths the target chose), resolves every path below them (resolve.h), and keeps no other
 * descriptor of the parent's: no operator file is within its reach. It leaves the
 * operator's session (setsid: the operator's terminal is not its controlling terminal),
 * its standard streams are /dev/null, its working directory "/", and its signals its own
 * (SIGTERM removes its files and ends it; the parent's modes, such as profile's "Ctrl-C
 * ends the wait", are not inherited). It is not dumpable from before its ids change.
 *
 * A reader (cli_side_run_reader) also holds /proc/PID files that read the target's memory
 * (maps, environ, cmdline): it opens them before it drops, as the operator (the kernel
 * checks the right to read a non-dumpable target's memory at open), and reads them after,
 * as the target's user. Such a read can block as long as the target likes (it takes the
 * target's mmap lock and faults its pages): only this child ever waits for one.
 *
 * The child reports over a pipe in records: the answer's text, the bytes of up to
 * CLI_SIDE_STREAMS output streams, a few key=value facts, and its end (an exit code and
 * one line). The parent, the operator (root), only receives: each record is bounded,
 * each total capped, all of it read under the command's deadline plus a short grace for
 * the child's own timeout line, after which the child is killed; a child that the kill
 * cannot end at once (asleep in the kernel, e.g. on a FUSE file of the target's that never
 * answers) is left to end by itself: the parent never waits for it. The parent writes the
 * operator's files itself (out_file.h). */
#ifndef HS_CLI_TARGET_SIDE_H
#define HS_CLI_TARGET_SIDE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_error.h"
#include "out_file.h"
#include "target.h"

#define CLI_SIDE_STREAMS 2
#define CLI_SIDE_INFOS 8
#define CLI_SIDE_INFO_MAX (PATH_MAX + 64)
#define CLI_SIDE_RECORD_MAX (64u << 10)
#define CLI_MAX_ANSWER (64ull << 20)  /* the agent's answer (a reply file) */
#define CLI_MAX_OUTPUT (1ull << 30)   /* one output file of a dump (pprof, html...) */
#define CLI_SIDE_GRACE_MS 1500L       /* the parent waits this long past the deadline */
#define CLI_SIDE_PROC_FILES 3         /* /proc/PID files a reader holds */

/* What the child works with. */
typedef struct {
    const cli_target *t;
    int rootfd;    /* the target's root directory (O_PATH) */
    int cwdfd;     /* its working directory (O_PATH), or -1 */
    int tmpfd;     /* its /tmp, once cli_side_tmp opened it, else -1 */
    int libfd;     /* a file of the operator's the child may read (load: the library), or -1 */
    long deadline; /* a cli_now_ms() time */
    int channel;
    int procfds[CLI_SIDE_PROC_FILES];  /* a reader's /proc/PID files, opened before the drop, or -1 */
    int procerrs[CLI_SIDE_PROC_FILES]; /* errno of those that did not open */
} cli_side;

typedef int (*cli_side_fn)(cli_side *s, void *arg, cli_err *e);

/* What the parent received. Set streams[i] (opened cli_out) before the run for the child's
 * output stream i; an unset stream refuses its records. */
typedef struct {
    char *answer; /* the text records, malloc'd, NUL-terminated; NULL when none */
    size_t answer_len;
    cli_out *streams[CLI_SIDE_STREAMS];
    char infos[CLI_SIDE_INFOS][CLI_SIDE_INFO_MAX]; /* "key=value" */
    int ninfos;
} cli_side_result;

/* Runs fn(side, arg) in a child that became the target's user. libfd (or -1) stays open in
 * the child. Returns fn's result: 0, or an exit code with its line in e (the child's, or the
 * parent's when the child broke the rules, died or ran out of time). */
int cli_side_run(const cli_target *t, int libfd, cli_side_fn fn, void *arg, long deadline, cli_side_result *r,
                 cli_err *e);
/* The same for a reader: s->procfds[i] holds /proc/PID/proc_files[i] (at most
 * CLI_SIDE_PROC_FILES names, NULL-terminated), no root or cwd is opened, and the parent
 * gives no grace past the deadline (a read stuck in the kernel cannot time itself). */
int cli_side_run_reader(const cli_target *t, const char *const *proc_files, cli_side_fn fn, void *arg, long deadline,
                        cli_side_result *r, cli_err *e);
void cli_side_result_free(cli_side_result *r);
/* The value of the last info record with that key, or NULL. */
const char *cli_side_info(const cli_side_result *r, const char *key);

/* --- in the child --- */
/* Opens the target's /tmp (s->tmpfd) in its root, refusing a symbolic link. Returns 0 or 5. */
int cli_side_tmp(cli_side *s, cli_err *e);
/* Whether /tmp, looked up again in the target's root, is still the directory s->tmpfd
 * holds (it was not moved or replaced). Returns 0, or 5 with the line in e. */
int cli_side_tmp_unchanged(cli_side *s, cli_err *e);
/* Sends a record. Returns 0, or -1 (the parent is gone). */
int cli_side_send_text(cli_side *s, const char *text, size_t len);
int cli_side_send_data(cli_side *s, int stream, const char *buf, size_t len);
int cli_side_send_info(cli_side *s, const char *key, const char *value);
/* Fails with the stopped or exited line when the target is so now. */
int cli_side_check_alive(cli_side *s, cli_err *e);

/* --- the records (pure) --- */
enum { CLI_RECORD_TEXT = 1, CLI_RECORD_DATA, CLI_RECORD_INFO, CLI_RECORD_END };
typedef struct {
    uint32_t kind;
    uint32_t stream;
    uint32_t len;
} cli_record_head;
typedef struct {
    unsigned long long answer;
    unsigned long long streams[CLI_SIDE_STREAMS];
    int infos;
} cli_side_totals;
/* Why the parent refuses this record after those totals (NULL: it takes it), in why. */
const char *cli_side_record_refusal(const cli_record_head *h, const cli_side_totals *totals, char *why,
                                    size_t len);

#endif
