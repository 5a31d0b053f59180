/* agent_call.c: asking the agent and reading its reply file (see agent_call.h). */
#include "agent_call.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "attach_proto.h"
#include "temp_files.h"

#define MAX_REPLY (64u << 20)

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
static int judge_reply(const cli_target *t, const char *command, const char *text, int agent_rc,
                       char **answer, cli_err *e) {
    cli_reply reply;
    if (cli_reply_parse(text, strlen(text), &reply) != 0) {
        if (agent_rc != 0)
            return cli_fail(e, CLI_EXIT_AGENT,
                            "the agent in process %d refused '%.40s' (return code %d) without an answer: "
                            "an agent older than this command (see the JVM's stderr)?",
                            t->pid, command, agent_rc);
        return cli_fail(e, CLI_EXIT_AGENT, "the agent in process %d wrote no answer to '%.40s'", t->pid,
                        command);
    }
    if (strcmp(reply.version, HEAPSAMPLER_VERSION) != 0)
        return cli_fail(e, CLI_EXIT_VERSION,
                        "version mismatch: the agent in process %d is heapsampler %s, this command is %s",
                        t->pid, reply.version, HEAPSAMPLER_VERSION);
    if (reply.rc != 0) {
        size_t n = strlen(reply.body);
        while (n > 0 && reply.body[n - 1] == '\n') n--;
        return cli_fail(e, CLI_EXIT_AGENT, "%.*s", (int)n, n ? reply.body : "the agent reported an error");
    }
    *answer = strdup(reply.body);
    if (!*answer) return cli_fail(e, CLI_EXIT_AGENT, "out of memory");
    return 0;
}

int cli_agent_call(const cli_target *t, const char *library, const char *command, long deadline,
                   char **answer, cli_err *e) {
    *answer = NULL;
    cli_target_file reply_file;
    int rc = cli_target_file_create(t, "reply", &reply_file, e);
    if (rc) return rc;
    char options[2048];
    int n = snprintf(options, sizeof options, "%s%sreply=%s", command, *command ? "," : "", reply_file.inner);
    cli_attach_response resp;
    char *raw = NULL;
    if (n < 0 || (size_t)n >= sizeof options)
        rc = cli_fail(e, CLI_EXIT_USAGE, "the agent options are too long");
    else
        rc = cli_attach_load(t, library, options, deadline, &resp, &raw, e);
    /* The load op failed (old JDKs: a non-zero first line; JDK 21+: 0 and the JVM's reason
     * where the agent's return code would be). */
    if (rc == 0 && (resp.op_rc != 0 || !resp.has_agent_rc)) {
        char why[512];
        one_line(resp.text, why, sizeof why);
        rc = cli_fail(e, CLI_EXIT_ATTACH, "process %d could not load %s (attach result %d)%s%s", t->pid, library,
                      resp.op_rc, *why ? ": " : "", why);
    }
    if (rc == 0) {
        char *text = cli_read_file(reply_file.host, MAX_REPLY, NULL);
        if (!text)
            rc = cli_fail(e, CLI_EXIT_AGENT, "cannot read the agent's answer %s: %s", reply_file.host,
                          strerror(errno));
        else
            rc = judge_reply(t, command, text, resp.has_agent_rc ? resp.agent_rc : 0, answer, e);
        free(text);
    }
    free(raw);
    cli_target_file_discard(&reply_file);
    return rc;
}
