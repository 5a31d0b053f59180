/* sampling.h: turning allocation sampling on and off in a running agent.
 *
 * The phase (agent.h) says whether callbacks record; the SampledObjectAlloc event says
 * whether the JVM calls them at all. Sampling begins at VMInit (or at the first attach),
 * pauses and resumes with the `stop` and `start` commands, and ends at VMDeath. Every
 * switch off waits, bounded, until no callback is inside the tables: what is in the
 * tables after it returns was sampled while sampling was on. Callers hold the agent's
 * lifecycle_lock. */
#ifndef HS_SAMPLING_H
#define HS_SAMPLING_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

#include "control/agent.h"

/* How long a switch off waits for callbacks still inside the agent. */
#define HS_DRAIN_TIMEOUT_MS 2000

/* VMInit or first attach: live tracking (if live=true), then the event. 0 or -1. */
int hs_sampling_begin(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni);

/* `stop`: sampling off, callbacks drained, tracked weak refs released. 0, or -1 with the
 * reason in why (not running). */
int hs_sampling_pause(hs_agent *agent, jvmtiEnv *jvmti, JNIEnv *jni, char *why, size_t whylen);

/* `start`: sampling on again, at `interval` bytes (the JVM's interval is changed first
 * when it differs). 0, or -1 with the reason in why (not stopped, JVMTI refused). */
int hs_sampling_resume(hs_agent *agent, jvmtiEnv *jvmti, int64_t interval, char *why,
                       size_t whylen);

/* VMDeath: sampling off for good. Returns true when every callback left in time (the
 * tables may then be freed), false when one is still inside. */
bool hs_sampling_end(hs_agent *agent, jvmtiEnv *jvmti);

/* "running", "stopped" (by the command), "ended", "not started". */
const char *hs_sampling_state_name(const hs_agent *agent);

#endif
