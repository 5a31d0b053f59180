/* target_side.h: the command's one privilege boundary.
 *
 * Everything that touches the target's side (its /tmp and cwd, the attach trigger and
 * socket, the agent's reply and output files, its JDK's release file and perfdata, the
 * library copy) runs in a child forked for the purpose, which has fully become the
 * target's user (privilege.h) before it touches any of it. It starts from descriptors the
 * parent opened through the target's own /proc/PID (its root and cwd: kernel links, not
 * paths the target chose), resolves every path below them (resolve.h), and keeps no other
 * descriptor of the parent's: no operator file is within its reach.
 *
 * The child reports over a pipe in records: the answer's text, the bytes of up to
 * CLI_SIDE_STREAMS output streams, a few key=value facts, and its end (an exit code and
 * one line). The parent, the operator (root), only receives: each record is bounded,
 * each total capped, all of it read under the command's deadline plus a short grace for
 * the child's own timeout line, after which the child is killed. The parent writes the
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

/* What the child works with. */
typedef struct {
    const cli_target *t;
    int rootfd;    /* the target's root directory (O_PATH) */
    int cwdfd;     /* its working directory (O_PATH), or -1 */
    int tmpfd;     /* its /tmp, once cli_side_tmp opened it, else -1 */
    int libfd;     /* a file of the operator's the child may read (load: the library), or -1 */
    long deadline; /* a cli_now_ms() time */
    int channel;
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
void cli_side_result_free(cli_side_result *r);
/* The value of an info record, or NULL. */
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
