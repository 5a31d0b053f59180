/* agent_call.h: one question to the heapsampler agent inside a JVM, and its answer.
 *
 * On the target's side (target_side.h), as the target's user: the command makes a reply
 * file in the target's /tmp (reply=PATH), and for a dump the files the agent writes its
 * outputs into (out=, paths_out=), asks the JVM to load the agent library with the command
 * as options (the JVM hands them to the agent already running, or loads it), reads the
 * answer the agent wrote and the outputs (each checked: a regular file of the target's
 * user, one link, under a size cap, read under the deadline), and removes the files. The
 * answer's header carries the agent's version, checked against ours. On the operator's
 * side, the outputs are written into the operator's files. */
#ifndef HS_CLI_AGENT_CALL_H
#define HS_CLI_AGENT_CALL_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_error.h"
#include "target.h"
#include "target_side.h"

/* A file the agent writes for the operator. */
typedef struct {
    const char *key;  /* the agent option naming it: "out", "paths_out" */
    const char *file; /* the operator's file */
    bool force;       /* replace an existing one */
} cli_call_output;

/* Sends `command` (e.g. "status", "top,n=20") to the agent, `library` being the path the
 * target sees. On success (0), *answer is the body (malloc'd). Exit codes: 2, 5, 6
 * (attach), 8 (version), 9 (the agent's error lines in e). */
int cli_agent_call(const cli_target *t, const char *library, const char *command, long deadline, char **answer,
                   cli_err *e);

/* The same with up to CLI_SIDE_STREAMS outputs (the mapped agent's library), written to
 * the operator's files when everything succeeded (exit 10, 11 for those). */
int cli_agent_call_outputs(const cli_target *t, const char *command, const cli_call_output *outs, int n,
                           long deadline, char **answer, cli_err *e);

/* Loads the agent: `library` (the operator's file) as the target sees it, or copied into
 * the target first (lib_path.h); *inner is the path the target was given, *copied says
 * whether it is a copy. */
int cli_agent_load(const cli_target *t, const char *library, const char *options, long deadline, char **answer,
                   char *inner, size_t inner_len, bool *copied, cli_err *e);

/* In the child (list asks a status on the side): sends command to the agent at
 * `library`, *answer malloc'd. */
int cli_agent_ask_in_target(cli_side *s, const char *library, const char *command, char **answer, cli_err *e);

#endif
