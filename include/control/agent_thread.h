/* agent_thread.h: a JVMTI agent thread (a daemon Java thread running C) that sleeps on its
 * own raw monitor and stops on request, with a bounded wait, so the JVM's exit never hangs
 * on it.
 *
 *   hs_agent_thread t;               // zeroed, then hs_agent_thread_init
 *   hs_agent_thread_start(&t, jvmti, jni, "heapsampler dumper", main_fn, arg);
 *   // in main_fn:  while (hs_agent_thread_sleep(&t, jvmti, ms)) work();
 *   //              hs_agent_thread_exiting(&t, jvmti);
 *   hs_agent_thread_stop(&t, jvmti, 5000);
 *
 * JNI is never called while the monitor is held: a GC that such a call triggers could
 * otherwise wait in a GC callback for it. */
#ifndef HS_AGENT_THREAD_H
#define HS_AGENT_THREAD_H

#include <jvmti.h>
#include <stdbool.h>

typedef struct {
    jrawMonitorID wake; /* guards stop and running */
    int stop;
    int running;
} hs_agent_thread;

/* Creates the monitor (any phase, also Agent_OnLoad). 0 or -1 (logged). */
int hs_agent_thread_init(hs_agent_thread *t, jvmtiEnv *jvmti, const char *monitor_name);

/* Starts fn(jvmti, jni, arg) on a new daemon Java thread named name (live phase, JNI).
 * 0, or -1 with one "heapsampler:" line. */
int hs_agent_thread_start(hs_agent_thread *t, jvmtiEnv *jvmti, JNIEnv *jni, const char *name,
                          jvmtiStartFunction fn, void *arg);

/* On the thread: sleeps up to ms (0: no sleep). Returns false once a stop was asked. */
bool hs_agent_thread_sleep(hs_agent_thread *t, jvmtiEnv *jvmti, jlong ms);

/* On the thread, as its last call: marks it finished and wakes a waiting stop. */
void hs_agent_thread_exiting(hs_agent_thread *t, jvmtiEnv *jvmti);

/* Asks the thread to stop and waits up to max_wait_ms. Returns false if it still runs. */
bool hs_agent_thread_stop(hs_agent_thread *t, jvmtiEnv *jvmti, int max_wait_ms);

#endif
