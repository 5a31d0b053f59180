/* agent_call.h: one question to the heapsampler agent inside a JVM, and its answer.
 *
 * The command names a reply file it created in the target's /tmp (reply=PATH), asks the
 * JVM to load the agent library with the command as options (the JVM hands them to the
 * agent already running, or loads it), reads the answer the agent wrote, and removes the
 * file. The answer's header carries the agent's version, checked against ours. */
#ifndef HS_CLI_AGENT_CALL_H
#define HS_CLI_AGENT_CALL_H

#include "cli_error.h"
#include "target.h"

/* Sends `command` (e.g. "status", "top,n=20") to the agent, `library` being the path the
 * target sees. Call between cli_target_enter/leave. On success (0), *answer is the body
 * (malloc'd). Exit codes: 5, 6 (attach), 8 (version), 9 (the agent's error lines in e). */
int cli_agent_call(const cli_target *t, const char *library, const char *command, long deadline,
                   char **answer, cli_err *e);

#endif
