/* control.h: running the commands of command.h on the live agent.
 *
 * jcmd's JVMTI.agent_load of a library already loaded calls its Agent_OnAttach again;
 * agent.c hands the options string here. Commands run one at a time on the attach
 * thread, serialized with VMDeath by the agent's lifecycle_lock. A command's answer
 * (the status lines, the report, the path a dump went to) goes to the JVM's stdout, each
 * line prefixed "heapsampler: ", or to file= where the command takes one; errors are one
 * "heapsampler:" line on stderr. With reply=PATH (reply.h) the answer, or the command's
 * own errors, go into that file instead, after its header line, and nothing goes to the
 * JVM's stdout or stderr (but a reply file that cannot be opened: one stderr line). No
 * command ever ends the JVM. */
#ifndef HS_CONTROL_H
#define HS_CONTROL_H

#include <jni.h>

#include "control/agent.h"

/* Runs one command. JNI_OK, or JNI_ERR (bad command, or it failed) for jcmd to show. */
jint hs_control_run(hs_agent *agent, JNIEnv *jni, const char *text);

/* The status lines ("key: value\n" each) into buf; returns the length needed. */
size_t hs_control_status(hs_agent *agent, char *buf, size_t len);

#endif
