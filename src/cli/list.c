/* list.c: `heapsampler list`, the JVMs on this host that the operator may attach to. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_call.h"
#include "attach_proto.h"
#include "cmdline.h"
#include "ns_path.h"
#include "target.h"
#include "verbs.h"

#define LIST_STATUS_TIMEOUT_MS 2000L

typedef struct {
    int pid;
    char main[160];
    char jdk[48];
    char agent[96];
} list_row;

static void jdk_version(const cli_target *t, char *out, size_t len) {
    snprintf(out, len, "?");
    char home[PATH_MAX], release[PATH_MAX + 16], host[PATH_MAX + 64];
    if (cli_java_home(t->libjvm, home, sizeof home) != 0) return;
    snprintf(release, sizeof release, "%s/release", home);
    if (cli_host_path(host, sizeof host, t->pid, release) != 0) return;
    char *text = cli_read_file(host, 1 << 16, NULL);
    if (text) cli_release_version(text, out, len);
    free(text);
}

/* The agent's state: the "state:" line of a quick status. */
static void agent_state(const cli_target *t, char *out, size_t len) {
    if (!t->agent[0]) {
        snprintf(out, len, "-");
        return;
    }
    /* Only a JVM whose attach listener runs is asked: starting one (SIGQUIT) in every JVM of
     * the host just to list them would be intrusive. */
    char sock[PATH_MAX];
    snprintf(sock, sizeof sock, "/proc/%d/root/tmp/.java_pid%d", t->pid, t->nspid);
    if (access(sock, F_OK) != 0) {
        snprintf(out, len, "loaded (not asked yet: heapsampler status %d)", t->pid);
        return;
    }
    if (cli_target_enter(t) != 0) {
        snprintf(out, len, "loaded (cannot ask)");
        return;
    }
    cli_err e = {0, ""};
    char *answer = NULL;
    int rc = cli_agent_call(t, t->agent, "status", cli_now_ms() + LIST_STATUS_TIMEOUT_MS, &answer, &e);
    cli_target_leave();
    char state[64];
    if (rc == 0 && cli_text_field(answer, "state", state, sizeof state)) snprintf(out, len, "loaded, %s", state);
    else if (rc == CLI_EXIT_TIMEOUT) snprintf(out, len, "loaded (no answer)");
    else if (rc == CLI_EXIT_VERSION) snprintf(out, len, "loaded (other version)");
    else if (rc == CLI_EXIT_AGENT) snprintf(out, len, "loaded (no answer: an older agent?)");
    else snprintf(out, len, "loaded (status failed: exit %d)", rc);
    free(answer);
}

static int collect(list_row **rows, size_t *count) {
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    size_t cap = 0;
    struct dirent *d;
    while ((d = readdir(proc))) {
        if (!isdigit((unsigned char)d->d_name[0])) continue;
        int pid = atoi(d->d_name);
        if (pid == getpid()) continue;
        cli_target t;
        cli_err e;
        if (cli_target_inspect(pid, &t, true, &e) != 0) continue; /* not a JVM, not ours, gone */
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            list_row *bigger = realloc(*rows, cap * sizeof **rows);
            if (!bigger) break;
            *rows = bigger;
        }
        list_row *r = &(*rows)[(*count)++];
        r->pid = pid;
        char path[64];
        size_t len = 0;
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        char *cmd = cli_read_file(path, 1 << 20, &len);
        if (cmd) cli_main_class(cmd, len, r->main, sizeof r->main);
        else snprintf(r->main, sizeof r->main, "?");
        free(cmd);
        jdk_version(&t, r->jdk, sizeof r->jdk);
        agent_state(&t, r->agent, sizeof r->agent);
    }
    closedir(proc);
    return 0;
}

static int by_pid(const void *a, const void *b) {
    return ((const list_row *)a)->pid - ((const list_row *)b)->pid;
}

int cli_verb_list(const cli_args *a, cli_err *e) {
    (void)a;
    list_row *rows = NULL;
    size_t count = 0;
    if (collect(&rows, &count) != 0) return cli_fail(e, CLI_EXIT_NO_PROCESS, "cannot read /proc");
    qsort(rows, count, sizeof *rows, by_pid);
    int w_pid = 3, w_main = 4, w_jdk = 3;
    for (size_t i = 0; i < count; i++) {
        int n = snprintf(NULL, 0, "%d", rows[i].pid);
        if (n > w_pid) w_pid = n;
        if ((int)strlen(rows[i].main) > w_main) w_main = (int)strlen(rows[i].main);
        if ((int)strlen(rows[i].jdk) > w_jdk) w_jdk = (int)strlen(rows[i].jdk);
    }
    printf("%-*s  %-*s  %-*s  %s\n", w_pid, "PID", w_main, "MAIN", w_jdk, "JDK", "HEAPSAMPLER");
    for (size_t i = 0; i < count; i++)
        printf("%-*d  %-*s  %-*s  %s\n", w_pid, rows[i].pid, w_main, rows[i].main, w_jdk, rows[i].jdk,
               rows[i].agent);
    if (count == 0)
        printf("(no JVM %s)\n", geteuid() == 0 ? "on this host" : "of yours on this host; root sees every user's");
    free(rows);
    return 0;
}
