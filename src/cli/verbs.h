/* verbs.h: what each verb of the heapsampler command does, over target.h, agent_call.h,
 * lib_path.h and out_file.h. Each returns 0 or an exit code with its line in e. */
#ifndef HS_CLI_VERBS_H
#define HS_CLI_VERBS_H

#include "args.h"
#include "cli_error.h"

int cli_verb_load(const cli_args *a, cli_err *e);
/* status, start, stop: the agent's answer printed as it is. */
int cli_verb_simple(const cli_args *a, cli_err *e);
int cli_verb_dump(const cli_args *a, cli_err *e);
int cli_verb_top(const cli_args *a, cli_err *e);
int cli_verb_paths(const cli_args *a, cli_err *e);
int cli_verb_list(const cli_args *a, cli_err *e);
/* profile: load or start the agent if needed, collect for a->duration_ms, dump to -o, put
 * the JVM back as it was (sampling stopped if this command loaded or started it). */
int cli_verb_profile(const cli_args *a, cli_err *e);

#endif
