/* verbs.c: load, status, start, stop, dump, top, paths and profile (see verbs.h).
 *
 * Each verb inspects its target once and keeps it (its pidfd and /proc/PID descriptor)
 * to the end: the steps of profile and the rounds of top --every address that process
 * and no other; when it exits, the next step says so (exit 2), never reaching a process
 * that was given its pid since. */
#include "verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent_call.h"
#include "inspect.h"
#include "lib_path.h"
#include "out_file.h"
#include "safe_text.h"
#include "target.h"
#include "temp_files.h"

/* The deadline of one step of a verb. */
static long step_deadline(const cli_args *a) { return cli_now_ms() + a->timeout_ms; }

/* Whether the agent is (or, for load, is not) loaded. */
static int check_loaded(const cli_target *t, bool want_loaded, cli_err *e) {
    if (want_loaded && !t->agent[0])
        return cli_fail(e, CLI_EXIT_NOT_LOADED, "heapsampler is not loaded in %d; load it with: heapsampler load %d",
                        t->pid, t->pid);
    if (!want_loaded && t->agent[0])
        return cli_fail(e, CLI_EXIT_LOADED, "heapsampler is already loaded in %d (%s); use heapsampler start %d",
                        t->pid, t->agent, t->pid);
    return 0;
}

/* Inspects the target, for the whole verb, and checks that the agent is (or is not) loaded. */
static int prepare(const cli_args *a, cli_target *t, bool want_loaded, cli_err *e) {
    int rc = cli_target_inspect(a->pid, t, true, step_deadline(a), e);
    if (rc) return rc;
    rc = check_loaded(t, want_loaded, e);
    if (rc) cli_target_close(t);
    return rc;
}

/* One command to the loaded agent of t, its answer in *answer. */
static int ask(const cli_args *a, const cli_target *t, const char *command, char **answer, cli_err *e) {
    int rc = cli_target_check_exited(t, e);
    if (rc == 0) rc = cli_agent_call(t, t->agent, command, step_deadline(a), answer, e);
    return rc;
}

/* prepare, one command, done. */
static int ask_once(const cli_args *a, const char *command, char **answer, cli_err *e) {
    cli_target t;
    int rc = prepare(a, &t, true, e);
    if (rc) return rc;
    rc = ask(a, &t, command, answer, e);
    cli_target_close(&t);
    return rc;
}

/* The agent's answer (the target's bytes: escaped). */
static void print_answer(const char *answer) {
    cli_print_escaped(stdout, answer);
    size_t n = strlen(answer);
    if (n > 0 && answer[n - 1] != '\n') fputc('\n', stdout);
    fflush(stdout);
}

int cli_verb_simple(const cli_args *a, cli_err *e) {
    const char *word = a->verb == CLI_VERB_STATUS ? "status" : a->verb == CLI_VERB_STOP ? "stop" : "start";
    char command[1100];
    snprintf(command, sizeof command, "%s%s%s%s", word, a->options[0] ? "," : "", a->options,
             a->json ? ",json=true" : "");
    char *answer;
    int rc = ask_once(a, command, &answer, e);
    if (rc) return rc;
    print_answer(answer);
    free(answer);
    return 0;
}

/* Loads the agent into t with a->options; its answer in *answer, and the library's copy in
 * the target (if one was made) in copied_to ("" when none). Then t->agent names the path
 * the JVM was given. */
static int load_agent(const cli_args *a, cli_target *t, char **answer, char *copied_to, size_t len, cli_err *e) {
    char lib[PATH_MAX], inner[PATH_MAX];
    copied_to[0] = '\0';
    bool copied = false;
    int rc = cli_lib_find(a->lib, lib, sizeof lib, e);
    if (rc == 0)
        rc = cli_agent_load(t, lib, a->options, step_deadline(a), answer, inner, sizeof inner, &copied, e);
    if (rc) return rc;
    if (copied) snprintf(copied_to, len, "%s", inner);
    snprintf(t->agent, sizeof t->agent, "%s", inner);
    return 0;
}

static void print_copied(const char *copied_to) {
    if (copied_to[0])
        printf("library copied for the JVM to %s (it stays there: a loaded library cannot be "
               "removed)\n", copied_to);
}

int cli_verb_load(const cli_args *a, cli_err *e) {
    char *answer = NULL, copied_to[PATH_MAX];
    cli_target t;
    int rc = prepare(a, &t, false, e);
    if (rc) return rc;
    rc = load_agent(a, &t, &answer, copied_to, sizeof copied_to, e);
    cli_target_close(&t);
    if (rc) return rc;
    print_answer(answer);
    free(answer);
    print_copied(copied_to);
    return 0;
}

static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Runs `command` with out= (and paths_out= when paths_file) files made in the target; the
 * command writes them to the operator's files. */
static int ask_with_outputs(const cli_args *a, const cli_target *t, const char *command, const char *paths_file,
                            char **answer, cli_err *e) {
    int rc = cli_target_check_exited(t, e);
    if (rc == 0) rc = cli_out_check(a->out_file, a->force, e);
    if (rc == 0 && paths_file) rc = cli_out_check(paths_file, a->force, e);
    const cli_call_output outs[] = {{"out", a->out_file, a->force}, {"paths_out", paths_file, a->force}};
    if (rc == 0) rc = cli_agent_call_outputs(t, command, outs, paths_file ? 2 : 1, step_deadline(a), answer, e);
    return rc;
}

/* prepare, one command with outputs, done. */
static int ask_once_with_outputs(const cli_args *a, const char *command, const char *paths_file, char **answer,
                                 cli_err *e) {
    cli_target t;
    int rc = prepare(a, &t, true, e);
    if (rc) return rc;
    rc = ask_with_outputs(a, &t, command, paths_file, answer, e);
    cli_target_close(&t);
    return rc;
}

int cli_verb_dump(const cli_args *a, cli_err *e) {
    char command[128], paths_file[PATH_MAX];
    snprintf(command, sizeof command, "dump,format=%s%s", a->format, a->gc ? ",gc=1" : "");
    if (a->paths) {
        size_t n = strlen(command);
        snprintf(command + n, sizeof command - n, ",paths=%d", a->paths);
        if (cli_paths_file_name(a->out_file, paths_file, sizeof paths_file) != 0)
            return cli_fail(e, CLI_EXIT_USAGE, "path too long: %s", a->out_file);
    }
    char *answer = NULL;
    int rc = ask_once_with_outputs(a, command, a->paths ? paths_file : NULL, &answer, e);
    if (rc) return rc;
    free(answer);
    printf("wrote %s (%s, %lld bytes)\n", a->out_file, a->format, file_size(a->out_file));
    if (a->paths) printf("wrote %s (retention paths, pprof, %lld bytes)\n", paths_file, file_size(paths_file));
    return 0;
}

int cli_verb_paths(const cli_args *a, cli_err *e) {
    char command[64];
    snprintf(command, sizeof command, "paths,n=%d", a->n);
    char *answer = NULL;
    int rc = a->out_file ? ask_once_with_outputs(a, command, NULL, &answer, e) : ask_once(a, command, &answer, e);
    if (rc) return rc;
    print_answer(answer);
    free(answer);
    if (a->out_file) printf("wrote %s (retention paths, pprof, %lld bytes)\n", a->out_file, file_size(a->out_file));
    return 0;
}

/* The report's width (the agent's width=): the terminal's; COLUMNS when stdout is not a
 * terminal (or the terminal does not say); else 0, no limit: a file or a pipe gets every
 * name whole. */
static int report_width(void) {
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return cli_clamp_width(ws.ws_col);
    return cli_columns_width(getenv("COLUMNS"));
}

static int top_once(const cli_args *a, const cli_target *t, char **answer, cli_err *e) {
    char command[160];
    snprintf(command, sizeof command, "top,n=%d%s%s,width=%d%s%s%s", a->n, a->by ? ",by=" : "",
             a->by ? a->by : "", report_width(), a->stack ? ",stack=true" : "",
             a->gc ? ",gc=1" : "", a->json ? ",json=true" : "");
    return ask(a, t, command, answer, e);
}

static void sleep_until(long when) {
    while (!cli_temp_interrupted()) {
        long left = when - cli_now_ms();
        if (left <= 0) return;
        struct timespec ts = {0, (left > 100 ? 100 : left) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* top --every: one report per period on the same process, until Ctrl-C or its exit. */
static int top_every(const cli_args *a, const cli_target *t, cli_err *e) {
    bool tty = isatty(STDOUT_FILENO);
    cli_temp_install_signals(0); /* Ctrl-C is how `top --every` ends: exit 0, files removed */
    for (int round = 0;; round++) {
        long next = cli_now_ms() + a->every_ms;
        char *answer = NULL;
        int rc = top_once(a, t, &answer, e);
        if (rc) return rc;
        time_t now = time(NULL);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", localtime(&now));
        if (tty) fputs("\033[H\033[2J", stdout);
        else if (round > 0) fputc('\n', stdout);
        printf("heapsampler top %d  %s  (every %.1f s; Ctrl-C to quit)\n", a->pid, stamp, a->every_ms / 1000.0);
        print_answer(answer);
        free(answer);
        sleep_until(next);
    }
}

int cli_verb_top(const cli_args *a, cli_err *e) {
    cli_target t;
    int rc = prepare(a, &t, true, e);
    if (rc) return rc;
    if (a->every_ms > 0) {
        rc = top_every(a, &t, e);
    } else {
        char *answer = NULL;
        rc = top_once(a, &t, &answer, e);
        if (rc == 0) print_answer(answer);
        free(answer);
    }
    cli_target_close(&t);
    return rc;
}

/* --- profile --------------------------------------------------------------------------- */

/* The value after "KEY: " on a line of an answer, as a number; -1 when absent. */
static long answer_number(const char *answer, const char *key) {
    size_t n = strlen(key);
    for (const char *p = answer; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, n) == 0 && p[n] == ':') return strtol(p + n + 1, NULL, 10);
    return -1;
}

static bool answer_says(const char *answer, const char *line_start) {
    size_t n = strlen(line_start);
    for (const char *p = answer; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, line_start, n) == 0) return true;
    return false;
}

/* How the JVM was before `profile`, so that it is put back. */
typedef enum { WAS_NOT_LOADED, WAS_STOPPED, WAS_RUNNING } before_profile;

/* Makes the agent in t sample: loads it, starts it, or marks the window's start (*mark). */
static int begin_profile(const cli_args *a, cli_target *t, before_profile *before, unsigned *mark, cli_err *e) {
    char *answer = NULL, copied_to[PATH_MAX];
    if (!t->agent[0]) {
        *before = WAS_NOT_LOADED;
        int rc = load_agent(a, t, &answer, copied_to, sizeof copied_to, e);
        if (rc == 0) print_copied(copied_to);
        free(answer);
        char given[PATH_MAX];
        snprintf(given, sizeof given, "%s", t->agent);
        cli_err ignored; /* the path as the JVM mapped it, for the next steps (else the one given) */
        if (rc == 0 && (cli_target_read_memory(t, step_deadline(a), &ignored) != 0 || !t->agent[0]))
            snprintf(t->agent, sizeof t->agent, "%s", given);
        return rc;
    }
    if (a->options[0])
        return cli_fail(e, CLI_EXIT_USAGE, "heapsampler is already loaded in %d: the options are for "
                        "loading it (change interval=, rate= with heapsampler start %d)", a->pid, a->pid);
    int rc = ask(a, t, "status", &answer, e);
    if (rc) return rc;
    bool stopped = answer_says(answer, "state: stopped");
    free(answer);
    *before = stopped ? WAS_STOPPED : WAS_RUNNING;
    rc = ask(a, t, stopped ? "start" : "mark", &answer, e);
    if (rc == 0 && !stopped) {
        long id = answer_number(answer, "mark");
        if (id <= 0) rc = cli_fail(e, CLI_EXIT_AGENT, "the agent in %d did not answer a mark", a->pid);
        else *mark = (unsigned)id;
    }
    free(answer);
    return rc;
}

static void wait_for(long duration_ms) {
    long until = cli_now_ms() + duration_ms;
    while (!cli_temp_interrupted() && cli_now_ms() < until) {
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Makes t sample, waits a->duration_ms (or until Ctrl-C), writes the file, puts the JVM
 * back: *stop_rc and stop_err tell whether sampling could be stopped again. */
static int run_profile(const cli_args *a, cli_target *t, double *seconds, before_profile *before, cli_err *stop_err,
                       int *stop_rc, cli_err *e) {
    unsigned mark = 0;
    int rc = begin_profile(a, t, before, &mark, e);
    if (rc) return rc;
    cli_temp_install_signals(-1); /* Ctrl-C ends the wait early: the profile is still written */
    long began = cli_now_ms();
    wait_for(a->duration_ms);
    *seconds = (double)(cli_now_ms() - began) / 1000;
    char command[128];
    snprintf(command, sizeof command, "dump,format=%s", a->format);
    if (mark) snprintf(command + strlen(command), sizeof command - strlen(command), ",since=%u", mark);
    char *answer = NULL;
    rc = ask_with_outputs(a, t, command, NULL, &answer, e);
    free(answer);
    answer = NULL;
    *stop_rc = *before == WAS_RUNNING ? 0 : ask(a, t, "stop", &answer, stop_err);
    free(answer);
    return rc;
}

int cli_verb_profile(const cli_args *a, cli_err *e) {
    int rc = cli_out_check(a->out_file, a->force, e); /* before touching the JVM */
    if (rc) return rc;
    cli_target t;
    rc = cli_target_inspect(a->pid, &t, true, step_deadline(a), e);
    if (rc) return rc;
    before_profile before = WAS_RUNNING;
    double seconds = 0;
    cli_err stop_err = {0, ""};
    int stop_rc = 0;
    rc = run_profile(a, &t, &seconds, &before, &stop_err, &stop_rc, e);
    cli_target_close(&t);
    if (rc) return rc;
    printf("profiled %d for %.1f s%s: wrote %s (%s, %lld bytes)\n", a->pid, seconds,
           cli_temp_interrupted() ? " (interrupted)" : "", a->out_file, a->format, file_size(a->out_file));
    if (stop_rc) {
        fputs("could not stop sampling again: ", stdout); /* the agent's words: the target's bytes */
        cli_print_escaped(stdout, stop_err.msg);
        putchar('\n');
        return stop_rc;
    }
    if (before == WAS_NOT_LOADED)
        printf("the agent was loaded for this profile: sampling is stopped again (the library stays "
               "loaded; heapsampler start %d resumes it)\n", a->pid);
    else if (before == WAS_STOPPED)
        printf("sampling was stopped before: stopped again\n");
    else
        printf("sampling was running before: left running; the file holds what was allocated during "
               "these %.1f s (in use: as of the last GC)\n", seconds);
    return 0;
}
