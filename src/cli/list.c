/* list.c: `heapsampler list`, the JVMs on this host that the operator may attach to.
 *
 * /proc status is read as the operator; what each process's memory says (is it a JVM,
 * what it runs: inspect.h) is read by a reader child, one per process, each bounded to
 * LIST_READ_TIMEOUT_MS (a process whose memory does not answer is one "unreadable" row);
 * what lies in each JVM's tree (its JDK's release file, its perfdata, its attach socket,
 * the agent's status answer) is read on the target's side, as its user, one short-lived
 * child per JVM (target_side.h), bounded in time. The whole list ends by --timeout: the
 * processes not reached by then are counted, exit 6. A stopped JVM is not asked; one
 * that refuses attach is marked. Everything shown is escaped. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_call.h"
#include "attach.h"
#include "attach_proto.h"
#include "inspect.h"
#include "ns_path.h"
#include "resolve.h"
#include "safe_text.h"
#include "target.h"
#include "target_side.h"
#include "verbs.h"

#define LIST_PROBE_TIMEOUT_MS 2000L
#define LIST_READ_TIMEOUT_MS 1000L /* maps, environ and cmdline of one process: milliseconds normally */

typedef struct {
    int pid;
    char main[160];
    char jdk[48];
    char agent[sizeof ((cli_err *)0)->msg];
} list_row;

/* JAVA_VERSION of the JDK's release file, read as the target's user (no FIFO, no device,
 * no link: a file of any owner, at most 64 KiB). */
static void send_jdk_version(cli_side *s) {
    char home[PATH_MAX], release[PATH_MAX + 16], version[48] = "?";
    if (cli_java_home(s->t->libjvm, home, sizeof home) == 0) {
        snprintf(release, sizeof release, "%s/release", home);
        cli_file_rules rules = {false, 0, 1 << 16};
        cli_err ignored;
        char *text = NULL;
        if (cli_read_checked(s->rootfd, release, &rules, "release", CLI_EXIT_ATTACH, s->deadline, &text, NULL,
                             &ignored) == 0 &&
            !cli_release_version(text, version, sizeof version))
            snprintf(version, sizeof version, "?");
        free(text);
    }
    cli_side_send_info(s, "jdk", version);
}

/* The agent's state: the "state:" line of a quick status. */
static void send_agent_state(cli_side *s) {
    const cli_target *t = s->t;
    char out[96];
    /* Only a JVM whose attach listener runs is asked: starting one (SIGQUIT) in every JVM of
     * the host just to list them would be intrusive. */
    if (!cli_attach_socket_present(s)) {
        snprintf(out, sizeof out, "loaded (not asked yet: heapsampler status %d)", t->pid);
    } else {
        cli_err e = {0, ""};
        char *answer = NULL, state[64];
        int rc = cli_agent_ask_in_target(s, t->agent, "status", &answer, &e);
        if (rc == 0 && cli_text_field(answer, "state", state, sizeof state)) snprintf(out, sizeof out, "loaded, %s", state);
        else if (rc == CLI_EXIT_TIMEOUT) snprintf(out, sizeof out, "loaded (no answer)");
        else if (rc == CLI_EXIT_VERSION) snprintf(out, sizeof out, "loaded (other version)");
        else if (rc == CLI_EXIT_AGENT) snprintf(out, sizeof out, "loaded (no answer: an older agent?)");
        else snprintf(out, sizeof out, "loaded (status failed: exit %d)", rc);
        free(answer);
    }
    cli_side_send_info(s, "agent", out);
}

static int probe(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    (void)e;
    send_jdk_version(s);
    int attach = s->t->attach_disabled ? 0 : cli_attach_supported(s);
    cli_side_send_info(s, "attach", attach == 0 ? "0" : "1");
    if (s->t->agent[0] && attach != 0 && !s->t->stopped) send_agent_state(s);
    return 0;
}

/* The HEAPSAMPLER column: the agent's state, and why the JVM cannot be asked. */
static void agent_column(const cli_target *t, const cli_side_result *r, char *out, size_t len) {
    const char *state = cli_side_info(r, "agent"), *attach = cli_side_info(r, "attach");
    bool disabled = t->attach_disabled || (attach && strcmp(attach, "0") == 0);
    const char *loaded = t->agent[0] ? "loaded" : "-";
    if (t->stopped) snprintf(out, len, "%s (stopped: cannot answer until resumed)", loaded);
    else if (disabled) snprintf(out, len, "%s (attach disabled: -XX:+DisableAttachMechanism)", loaded);
    else snprintf(out, len, "%s", state ? state : loaded);
}

static long earliest(long a, long b) { return a < b ? a : b; }

static void fill_row(cli_target *t, long deadline, list_row *row) {
    row->pid = t->pid;
    snprintf(row->main, sizeof row->main, "%s", t->main);
    cli_side_result r;
    memset(&r, 0, sizeof r);
    cli_err e = {0, ""};
    long probe_deadline = earliest(cli_now_ms() + LIST_PROBE_TIMEOUT_MS, deadline);
    if (cli_now_ms() < probe_deadline) cli_side_run(t, -1, probe, NULL, probe_deadline, &r, &e);
    const char *jdk = cli_side_info(&r, "jdk");
    snprintf(row->jdk, sizeof row->jdk, "%s", jdk ? jdk : "?");
    agent_column(t, &r, row->agent, sizeof row->agent);
    cli_side_result_free(&r);
}

/* A process whose memory did not answer: one row saying so. */
static void unreadable_row(int pid, const cli_err *e, list_row *row) {
    row->pid = pid;
    snprintf(row->main, sizeof row->main, "?");
    snprintf(row->jdk, sizeof row->jdk, "?");
    snprintf(row->agent, sizeof row->agent, "unreadable: %s", e->msg);
}

/* A row for pid (0), or none: not a JVM, not ours, gone (1). */
static int examine(int pid, long deadline, list_row *row) {
    cli_target t;
    cli_err e = {0, ""};
    if (cli_target_open(pid, &t, &e) != 0) return 1;
    int rc = t.has_memory ? cli_target_read_memory(&t, earliest(cli_now_ms() + LIST_READ_TIMEOUT_MS, deadline), &e) : 1;
    bool shown = rc == CLI_EXIT_TIMEOUT || (rc == 0 && t.libjvm[0]);
    if (rc == CLI_EXIT_TIMEOUT) unreadable_row(pid, &e, row);
    else if (shown) fill_row(&t, deadline, row);
    cli_target_close(&t);
    return shown ? 0 : 1;
}

/* The rows, until deadline; *late counts the processes not examined by then. */
static int collect(list_row **rows, size_t *count, long deadline, int *late) {
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    size_t cap = 0;
    struct dirent *d;
    while ((d = readdir(proc))) {
        if (!isdigit((unsigned char)d->d_name[0])) continue;
        int pid = atoi(d->d_name);
        if (pid == getpid()) continue;
        if (cli_now_ms() >= deadline) {
            (*late)++;
            continue;
        }
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            list_row *bigger = realloc(*rows, cap * sizeof **rows);
            if (!bigger) break;
            *rows = bigger;
        }
        if (examine(pid, deadline, &(*rows)[*count]) == 0) (*count)++;
    }
    closedir(proc);
    return 0;
}

static int by_pid(const void *a, const void *b) {
    return ((const list_row *)a)->pid - ((const list_row *)b)->pid;
}

/* Escapes a target-given text in place (cut to its field: the widths are those shown). */
static void escape_field(char *field, size_t size) {
    char buf[sizeof ((list_row *)0)->agent];
    cli_escape(field, strlen(field), false, buf, size < sizeof buf ? size : sizeof buf);
    memcpy(field, buf, strlen(buf) + 1);
}

static void escape_row(list_row *r) {
    escape_field(r->main, sizeof r->main);
    escape_field(r->jdk, sizeof r->jdk);
    escape_field(r->agent, sizeof r->agent);
}

int cli_verb_list(const cli_args *a, cli_err *e) {
    list_row *rows = NULL;
    size_t count = 0;
    int late = 0;
    if (collect(&rows, &count, cli_now_ms() + a->timeout_ms, &late) != 0)
        return cli_fail(e, CLI_EXIT_NO_PROCESS, "cannot read /proc");
    qsort(rows, count, sizeof *rows, by_pid);
    int w_pid = 3, w_main = 4, w_jdk = 3;
    for (size_t i = 0; i < count; i++) {
        escape_row(&rows[i]);
        int n = snprintf(NULL, 0, "%d", rows[i].pid);
        if (n > w_pid) w_pid = n;
        if ((int)strlen(rows[i].main) > w_main) w_main = (int)strlen(rows[i].main);
        if ((int)strlen(rows[i].jdk) > w_jdk) w_jdk = (int)strlen(rows[i].jdk);
    }
    printf("%-*s  %-*s  %-*s  %s\n", w_pid, "PID", w_main, "MAIN", w_jdk, "JDK", "HEAPSAMPLER");
    for (size_t i = 0; i < count; i++)
        printf("%-*d  %-*s  %-*s  %s\n", w_pid, rows[i].pid, w_main, rows[i].main, w_jdk, rows[i].jdk,
               rows[i].agent);
    if (count == 0 && !late)
        printf("(no JVM %s)\n", geteuid() == 0 ? "on this host" : "of yours on this host; root sees every user's");
    free(rows);
    if (late)
        return cli_fail(e, CLI_EXIT_TIMEOUT, "%d processes not examined: --timeout elapsed (%.1f s)", late,
                        (double)a->timeout_ms / 1000);
    return 0;
}
