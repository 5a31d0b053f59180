/* agent_call.c: asking the agent, reading its reply and outputs on the target's side, and
 * writing the outputs on the operator's (see agent_call.h). */
#include "agent_call.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attach.h"
#include "attach_proto.h"
#include "cli_faults.h"
#include "lib_path.h"
#include "resolve.h"
#include "temp_files.h"

/* A file made for the agent in the target's /tmp: `inner` as the target names it, `name`
 * in the /tmp directory the child holds. */
typedef struct {
    char inner[112];
    char name[96];
    int slot;
} target_file;

/* Creates an empty /tmp/.heapsampler-<nspid>-<random>.<kind>: exclusive, 0600, the target
 * user's, a name the target's user cannot guess ahead. Returns 0, or an exit code. */
static int target_file_create(cli_side *s, const char *kind, target_file *f, cli_err *e) {
    f->slot = -1;
    for (int attempt = 0; attempt < 8; attempt++) {
        unsigned char rnd[8];
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
            return cli_fail(e, CLI_EXIT_ATTACH, "no random bytes for a file name: %s", strerror(errno));
        snprintf(f->name, sizeof f->name, ".heapsampler-%d-%02x%02x%02x%02x%02x%02x%02x%02x.%s", s->t->nspid, rnd[0],
                 rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7], kind);
        snprintf(f->inner, sizeof f->inner, "/tmp/%s", f->name);
        f->slot = cli_temp_create_at(s->tmpfd, f->name);
        if (f->slot >= 0) return 0;
        if (errno != EEXIST)
            return cli_fail(e, errno == ENOENT || errno == ESRCH ? CLI_EXIT_NO_PROCESS : CLI_EXIT_ATTACH,
                            "cannot create %s in the /tmp of process %d: %s", f->inner, s->t->pid, strerror(errno));
    }
    return cli_fail(e, CLI_EXIT_ATTACH, "cannot find a free file name in the /tmp of process %d", s->t->pid);
}

static void target_file_discard(target_file *f) {
    cli_temp_remove(f->slot);
    f->slot = -1;
}

/* The JVM's text on one line (its lines joined with ": "), for one-line failures. */
static void one_line(const char *text, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = text; *p && used + 1 < len;) {
        size_t n = strcspn(p, "\n");
        size_t shown = n > 0 && p[n - 1] == '.' ? n - 1 : n; /* "X was not loaded." + ": why" */
        if (shown) {
            int w = snprintf(out + used, len - used, "%s%.*s", used ? ": " : "", (int)shown, p);
            if (w < 0) break;
            used += (size_t)w < len - used ? (size_t)w : len - used - 1;
        }
        p += n + (p[n] == '\n');
    }
}

/* Judges the reply file's text after the JVM ran the load op. */
static int judge_reply(const cli_target *t, const char *command, const char *text, int agent_rc, char **answer,
                       cli_err *e) {
    cli_reply reply;
    if (cli_reply_parse(text, strlen(text), &reply) != 0) {
        if (agent_rc != 0)
            return cli_fail(e, CLI_EXIT_AGENT,
                            "the agent in process %d refused '%.40s' (return code %d) without an answer: "
                            "an agent older than this command (see the JVM's stderr)?",
                            t->pid, command, agent_rc);
        return cli_fail(e, CLI_EXIT_AGENT, "the agent in process %d wrote no answer to '%.40s'", t->pid, command);
    }
    if (strcmp(reply.version, HEAPSAMPLER_VERSION) != 0)
        return cli_fail(e, CLI_EXIT_VERSION,
                        "version mismatch: the agent in process %d is heapsampler %s, this command is %s", t->pid,
                        reply.version, HEAPSAMPLER_VERSION);
    if (reply.rc != 0) {
        size_t n = strlen(reply.body);
        while (n > 0 && reply.body[n - 1] == '\n') n--;
        return cli_fail(e, CLI_EXIT_AGENT, "%.*s", (int)n, n ? reply.body : "the agent reported an error");
    }
    *answer = strdup(reply.body);
    if (!*answer) return cli_fail(e, CLI_EXIT_AGENT, "out of memory");
    return 0;
}

/* Drops the answer's lines that name `inner` (a file in the target the operator never sees:
 * the command prints where the copy went instead). */
static void drop_lines_naming(char *answer, const char *inner) {
    char *w = answer;
    for (const char *r = answer; *r;) {
        size_t n = strcspn(r, "\n") + (r[strcspn(r, "\n")] == '\n');
        bool names = false;
        for (const char *p = strstr(r, inner); p && !names; p = strstr(p + 1, inner)) names = p < r + n;
        if (!names) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = '\0';
}

/* The load op's own failure (old JDKs: a non-zero first line; JDK 21+: 0 and the JVM's
 * reason where the agent's return code would be). */
static int judge_load_op(const cli_target *t, const char *library, const cli_attach_response *resp, cli_err *e) {
    if (resp->op_rc == 0 && resp->has_agent_rc) return 0;
    char why[512];
    one_line(resp->text, why, sizeof why);
    return cli_fail(e, CLI_EXIT_ATTACH, "process %d could not load %s (attach result %d)%s%s", t->pid, library,
                    resp->op_rc, *why ? ": " : "", why);
}

/* Sends the checked bytes of the agent's output file f as stream i. */
static int send_output(cli_side *s, const target_file *f, int stream, cli_err *e) {
    char label[512];
    snprintf(label, sizeof label, "the agent's output %s of process %d", f->inner, s->t->pid);
    cli_file_rules rules = {true, geteuid(), CLI_MAX_OUTPUT};
    struct stat st;
    int fd = cli_open_checked(s->tmpfd, f->name, &rules, label, CLI_EXIT_AGENT, &st, e);
    if (fd < 0) return -fd;
    static char buf[CLI_SIDE_RECORD_MAX];
    int rc = 0;
    for (unsigned long long left = (unsigned long long)st.st_size; rc == 0 && left > 0;) {
        ssize_t n = cli_read_bounded(fd, buf, left < sizeof buf ? (size_t)left : sizeof buf, s->deadline);
        if (n < 0 && errno == ETIMEDOUT) rc = cli_fail(e, CLI_EXIT_TIMEOUT, "reading %s took past the timeout", label);
        else if (n < 0) rc = cli_fail(e, CLI_EXIT_AGENT, "cannot read %s: %s", label, strerror(errno));
        else if (n == 0) break; /* it shrank */
        else if (cli_side_send_data(s, stream, buf, (size_t)n) != 0) rc = cli_fail(e, CLI_EXIT_AGENT, "the command is gone");
        else left -= (unsigned long long)n;
    }
    close(fd);
    return rc;
}

/* What one call asks. */
typedef struct {
    const char *library;      /* as the target sees it; NULL: host_library, made visible first */
    const char *host_library; /* load: the operator's library */
    const char *command;
    const cli_call_output *outs;
    int nouts;
} call_request;

/* The options the agent gets: the command, its output files, the reply file. */
static int build_options(const call_request *c, const target_file *outs, const target_file *reply, char *options,
                         size_t len, cli_err *e) {
    int used = snprintf(options, len, "%s", c->command);
    for (int i = 0; i < c->nouts && used >= 0 && (size_t)used < len; i++)
        used += snprintf(options + used, len - (size_t)used, "%s%s=%s", used ? "," : "", c->outs[i].key, outs[i].inner);
    if (used >= 0 && (size_t)used < len)
        used += snprintf(options + used, len - (size_t)used, "%sreply=%s", used ? "," : "", reply->inner);
    if (used < 0 || (size_t)used >= len) return cli_fail(e, CLI_EXIT_USAGE, "the agent options are too long");
    return 0;
}

/* Asks with the files made; reads the answer into *answer and sends the outputs. */
static int ask_with_files(cli_side *s, const call_request *c, const char *library, target_file *reply,
                          target_file *outs, char **answer, cli_err *e) {
    char options[2048];
    int rc = build_options(c, outs, reply, options, sizeof options, e);
    cli_fault_stop("attach");
    if (rc == 0) rc = cli_side_tmp_unchanged(s, e);
    cli_attach_response resp;
    char *raw = NULL, *text = NULL;
    if (rc == 0) rc = cli_attach_load(s, library, options, &resp, &raw, e);
    if (rc == 0) rc = judge_load_op(s->t, library, &resp, e);
    cli_fault_stop("read_reply");
    char label[512];
    snprintf(label, sizeof label, "the agent's answer %s of process %d", reply->inner, s->t->pid);
    cli_file_rules rules = {true, geteuid(), CLI_MAX_ANSWER};
    if (rc == 0) rc = cli_read_checked(s->tmpfd, reply->name, &rules, label, CLI_EXIT_AGENT, s->deadline, &text, NULL, e);
    if (rc == 0) rc = judge_reply(s->t, c->command, text, resp.has_agent_rc ? resp.agent_rc : 0, answer, e);
    free(text);
    free(raw);
    if (c->nouts) cli_fault_stop("read_outputs");
    for (int i = 0; rc == 0 && i < c->nouts; i++) {
        drop_lines_naming(*answer, outs[i].inner);
        rc = send_output(s, &outs[i], i, e);
    }
    return rc;
}

static int ask_in_target(cli_side *s, const call_request *c, const char *library, char **answer, cli_err *e) {
    *answer = NULL;
    target_file reply = {.slot = -1}, outs[CLI_SIDE_STREAMS];
    for (int i = 0; i < CLI_SIDE_STREAMS; i++) outs[i].slot = -1;
    int rc = cli_side_tmp(s, e);
    cli_fault_stop("files");
    if (rc == 0) rc = target_file_create(s, "reply", &reply, e);
    for (int i = 0; rc == 0 && i < c->nouts; i++) rc = target_file_create(s, c->outs[i].key, &outs[i], e);
    if (rc == 0) rc = ask_with_files(s, c, library, &reply, outs, answer, e);
    target_file_discard(&reply);
    for (int i = 0; i < c->nouts; i++) target_file_discard(&outs[i]);
    if (rc) {
        free(*answer);
        *answer = NULL;
    }
    return rc;
}

int cli_agent_ask_in_target(cli_side *s, const char *library, const char *command, char **answer, cli_err *e) {
    call_request c = {.library = library, .command = command};
    return ask_in_target(s, &c, library, answer, e);
}

/* The child's work: the library made visible (load), then the question. */
static int call_in_target(cli_side *s, void *arg, cli_err *e) {
    const call_request *c = arg;
    char library[PATH_MAX];
    int rc = cli_side_check_alive(s, e);
    if (rc == 0 && c->host_library) {
        bool copied = false;
        rc = cli_lib_in_target(s, c->host_library, library, sizeof library, &copied, e);
        if (rc == 0 && (cli_side_send_info(s, "library", library) != 0 || cli_side_send_info(s, "copied", copied ? "1" : "0") != 0))
            rc = cli_fail(e, CLI_EXIT_ATTACH, "the command is gone");
    } else {
        snprintf(library, sizeof library, "%s", c->library);
    }
    char *answer = NULL;
    if (rc == 0) rc = ask_in_target(s, c, library, &answer, e);
    if (rc == 0 && cli_side_send_text(s, answer, strlen(answer)) != 0) rc = cli_fail(e, CLI_EXIT_AGENT, "the command is gone");
    free(answer);
    return rc;
}

/* Runs the call in the child; the operator's outputs are opened first and published
 * after a success, removed after a failure. */
static int run_call(const cli_target *t, int libfd, const call_request *c, long deadline, char **answer,
                    cli_side_result *r, cli_err *e) {
    cli_out outs[CLI_SIDE_STREAMS];
    memset(outs, 0, sizeof outs);
    memset(r, 0, sizeof *r);
    int rc = 0;
    for (int i = 0; rc == 0 && i < c->nouts; i++) {
        rc = cli_out_open(&outs[i], c->outs[i].file, c->outs[i].force, e);
        r->streams[i] = &outs[i];
    }
    if (rc == 0) rc = cli_side_run(t, libfd, call_in_target, (void *)c, deadline, r, e);
    for (int i = 0; rc == 0 && i < c->nouts; i++) rc = cli_out_commit(&outs[i], e);
    for (int i = 0; i < c->nouts; i++) cli_out_abort(&outs[i]);
    if (rc == 0 && !r->answer) rc = cli_fail(e, CLI_EXIT_AGENT, "the agent in process %d gave no answer", t->pid);
    if (rc) {
        cli_side_result_free(r);
        return rc;
    }
    *answer = r->answer;
    r->answer = NULL;
    return 0;
}

int cli_agent_call(const cli_target *t, const char *library, const char *command, long deadline, char **answer,
                   cli_err *e) {
    call_request c = {.library = library, .command = command};
    cli_side_result r;
    return run_call(t, -1, &c, deadline, answer, &r, e);
}

int cli_agent_call_outputs(const cli_target *t, const char *command, const cli_call_output *outs, int n,
                           long deadline, char **answer, cli_err *e) {
    if (n > CLI_SIDE_STREAMS) return cli_fail(e, CLI_EXIT_USAGE, "at most %d output files", CLI_SIDE_STREAMS);
    call_request c = {.library = t->agent, .command = command, .outs = outs, .nouts = n};
    cli_side_result r;
    return run_call(t, -1, &c, deadline, answer, &r, e);
}

int cli_agent_load(const cli_target *t, const char *library, const char *options, long deadline, char **answer,
                   char *inner, size_t inner_len, bool *copied, cli_err *e) {
    int libfd = open(library, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (libfd < 0) return cli_fail(e, CLI_EXIT_ATTACH, "cannot read %s: %s", library, strerror(errno));
    call_request c = {.host_library = library, .command = options};
    cli_side_result r;
    int rc = run_call(t, libfd, &c, deadline, answer, &r, e);
    close(libfd);
    if (rc) return rc;
    const char *given = cli_side_info(&r, "library"), *copy = cli_side_info(&r, "copied");
    snprintf(inner, inner_len, "%s", given ? given : library);
    *copied = copy && strcmp(copy, "1") == 0;
    return 0;
}
