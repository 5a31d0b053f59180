/* inspect.c: a target's memory read by a reader child, and the verdict on it (see
 * inspect.h). */
#include "inspect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "ns_path.h"
#include "target_side.h"

#define MAPS_MAX (64u << 20)
#define ARGS_MAX (1u << 20) /* the environment, the command line */

enum { FILE_MAPS, FILE_ENVIRON, FILE_CMDLINE };
static const char *const memory_files[] = {"maps", "environ", "cmdline", NULL};

/* ---- in the reader child ---- */

/* One of the files opened before the drop, read to its end (at most max bytes), after
 * telling the parent which: if the read never ends, the parent names it. */
static char *read_held(cli_side *s, int which, size_t max, size_t *len) {
    cli_side_send_info(s, "reading", memory_files[which]);
    int fd = s->procfds[which];
    s->procfds[which] = -1;
    errno = s->procerrs[which];
    return fd < 0 ? NULL : cli_read_fd(fd, max, len);
}

/* Updates *disabled from the space-separated options of the environment variable `key`. */
static void scan_variable(const char *env, size_t len, const char *key, bool *disabled) {
    size_t n = strlen(key);
    for (size_t off = 0; env && off < len; off += strlen(env + off) + 1)
        if (strncmp(env + off, key, n) == 0) {
            bool seen;
            const char *v = env + off + n;
            bool d = cli_args_disable_attach(v, strlen(v), ' ', &seen);
            if (seen) *disabled = d;
        }
}

/* The launcher reads JDK_JAVA_OPTIONS and the JVM JAVA_TOOL_OPTIONS before the command
 * line, and _JAVA_OPTIONS after it: the last -XX:[+-]DisableAttachMechanism wins. (Flags
 * from -XX:Flags= or -XX:VMOptionsFile= show in the JVM's perfdata instead: attach.c
 * reads it.) */
static bool options_disable_attach(const char *env, size_t env_len, const char *cmd, size_t cmd_len) {
    bool disabled = false, seen;
    scan_variable(env, env_len, "JAVA_TOOL_OPTIONS=", &disabled);
    scan_variable(env, env_len, "JDK_JAVA_OPTIONS=", &disabled);
    if (cmd) {
        bool d = cli_args_disable_attach(cmd, cmd_len, '\0', &seen);
        if (seen) disabled = d;
    }
    scan_variable(env, env_len, "_JAVA_OPTIONS=", &disabled);
    return disabled;
}

static int read_memory(cli_side *s, void *arg, cli_err *e) {
    (void)arg;
    int pid = s->t->pid;
    char *maps = read_held(s, FILE_MAPS, MAPS_MAX, NULL);
    if (!maps) {
        if (errno == ENOENT || errno == ESRCH) return cli_fail(e, CLI_EXIT_NO_PROCESS, "no process %d", pid);
        return cli_fail(e, CLI_EXIT_PERMISSION, "cannot read /proc/%d/maps: %s", pid, strerror(errno));
    }
    char libjvm[PATH_MAX] = "", agent[PATH_MAX] = "", main_class[sizeof s->t->main] = "?";
    cli_maps_find(maps, "libjvm.so", libjvm, sizeof libjvm);
    cli_maps_find(maps, "libheapsampler.so", agent, sizeof agent);
    free(maps);
    bool disabled = false;
    if (libjvm[0]) {
        size_t env_len = 0, cmd_len = 0;
        char *env = read_held(s, FILE_ENVIRON, ARGS_MAX, &env_len);
        char *cmd = read_held(s, FILE_CMDLINE, ARGS_MAX, &cmd_len);
        disabled = options_disable_attach(env, env_len, cmd, cmd_len);
        if (cmd) cli_main_class(cmd, cmd_len, main_class, sizeof main_class);
        free(env);
        free(cmd);
    }
    if (cli_side_send_info(s, "libjvm", libjvm) != 0 || cli_side_send_info(s, "agent", agent) != 0 ||
        cli_side_send_info(s, "disabled", disabled ? "1" : "0") != 0 || cli_side_send_info(s, "main", main_class) != 0)
        return cli_fail(e, CLI_EXIT_ATTACH, "the command is gone");
    return 0;
}

/* ---- in the parent ---- */

static int take_fact(const cli_side_result *r, const char *key, char *out, size_t len) {
    const char *v = cli_side_info(r, key);
    if (!v) return -1;
    snprintf(out, len, "%s", v);
    return 0;
}

int cli_target_read_memory(cli_target *t, long deadline, cli_err *e) {
    cli_side_result r;
    memset(&r, 0, sizeof r);
    long began = cli_now_ms();
    int rc = cli_side_run_reader(t, memory_files, read_memory, NULL, deadline, &r, e);
    if (rc == CLI_EXIT_TIMEOUT) {
        const char *file = cli_side_info(&r, "reading"); /* NULL: stuck before the first read */
        rc = cli_fail(e, CLI_EXIT_TIMEOUT,
                      "reading /proc/%d/%s did not end within %.1f s: the process holds its memory locked "
                      "(a thread stuck on a FUSE file?)",
                      t->pid, file ? file : "maps", (double)(deadline - began) / 1000);
    }
    char disabled[4];
    if (rc == 0 && (take_fact(&r, "libjvm", t->libjvm, sizeof t->libjvm) != 0 ||
                    take_fact(&r, "agent", t->agent, sizeof t->agent) != 0 ||
                    take_fact(&r, "disabled", disabled, sizeof disabled) != 0 ||
                    take_fact(&r, "main", t->main, sizeof t->main) != 0))
        rc = cli_fail(e, CLI_EXIT_ATTACH, "the command's worker for process %d sent no facts", t->pid);
    if (rc == 0) t->attach_disabled = strcmp(disabled, "1") == 0;
    cli_side_result_free(&r);
    return rc;
}

/* What stops every verb at once: the JVM cannot answer, or refuses attach. */
static int check_reachable(const cli_target *t, cli_err *e) {
    if (t->attach_disabled)
        return cli_fail(e, CLI_EXIT_ATTACH, "process %d runs with -XX:+DisableAttachMechanism: it refuses every attach%s",
                        t->pid, t->agent[0] ? " (heapsampler is loaded, but cannot be asked)"
                                            : " (start it with -agentpath instead)");
    if (t->stopped)
        return cli_fail(e, CLI_EXIT_TIMEOUT, "process %d is stopped (SIGSTOP or a debugger): it cannot answer until "
                                             "resumed (kill -CONT %d)", t->pid, t->pid);
    return 0;
}

int cli_target_inspect(int pid, cli_target *t, bool need_jvm, long deadline, cli_err *e) {
    int rc = cli_target_open(pid, t, e);
    if (rc) return rc;
    rc = cli_target_read_memory(t, deadline, e);
    if (rc == 0 && need_jvm && !t->libjvm[0])
        rc = cli_fail(e, CLI_EXIT_NOT_JVM, "process %d is not a JVM (no libjvm.so mapped)", pid);
    if (rc == 0 && need_jvm) rc = check_reachable(t, e);
    if (rc) cli_target_close(t);
    return rc;
}
