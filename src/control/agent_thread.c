/* agent_thread.c: an agent thread that sleeps and stops on request (see agent_thread.h). */
#include "control/agent_thread.h"

#include "base/log.h"

int hs_agent_thread_init(hs_agent_thread *t, jvmtiEnv *jvmti, const char *monitor_name) {
    t->stop = 0;
    t->running = 0;
    jvmtiError err = (*jvmti)->CreateRawMonitor(jvmti, monitor_name, &t->wake);
    if (err == JVMTI_ERROR_NONE) return 0;
    hs_error("CreateRawMonitor '%s' failed (JVMTI error %d)", monitor_name, err);
    t->wake = NULL;
    return -1;
}

int hs_agent_thread_start(hs_agent_thread *t, jvmtiEnv *jvmti, JNIEnv *jni, const char *name,
                          jvmtiStartFunction fn, void *arg) {
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID init = thread_class ? (*jni)->GetMethodID(jni, thread_class, "<init>",
                                                       "(Ljava/lang/String;)V") : NULL;
    jstring jname = init ? (*jni)->NewStringUTF(jni, name) : NULL;
    jobject thread = jname ? (*jni)->NewObject(jni, thread_class, init, jname) : NULL;
    if (!thread || !t->wake) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        hs_error("cannot create the thread '%s'", name);
        return -1;
    }
    t->stop = 0;
    t->running = 1;
    jvmtiError err = (*jvmti)->RunAgentThread(jvmti, thread, fn, arg, JVMTI_THREAD_NORM_PRIORITY);
    (*jni)->DeleteLocalRef(jni, jname);
    (*jni)->DeleteLocalRef(jni, thread);
    (*jni)->DeleteLocalRef(jni, thread_class);
    if (err == JVMTI_ERROR_NONE) return 0;
    t->running = 0;
    hs_error("RunAgentThread '%s' failed (JVMTI error %d)", name, err);
    return -1;
}

bool hs_agent_thread_sleep(hs_agent_thread *t, jvmtiEnv *jvmti, jlong ms) {
    if ((*jvmti)->RawMonitorEnter(jvmti, t->wake) != JVMTI_ERROR_NONE) return false;
    if (!t->stop && ms > 0 && (*jvmti)->RawMonitorWait(jvmti, t->wake, ms) != JVMTI_ERROR_NONE)
        t->stop = 1; /* interrupted or broken: stop rather than spin */
    bool go_on = !t->stop;
    (*jvmti)->RawMonitorExit(jvmti, t->wake);
    return go_on;
}

void hs_agent_thread_exiting(hs_agent_thread *t, jvmtiEnv *jvmti) {
    if ((*jvmti)->RawMonitorEnter(jvmti, t->wake) != JVMTI_ERROR_NONE) {
        t->running = 0;
        return;
    }
    t->running = 0;
    (*jvmti)->RawMonitorNotifyAll(jvmti, t->wake);
    (*jvmti)->RawMonitorExit(jvmti, t->wake);
}

bool hs_agent_thread_stop(hs_agent_thread *t, jvmtiEnv *jvmti, int max_wait_ms) {
    if (!t->wake || (*jvmti)->RawMonitorEnter(jvmti, t->wake) != JVMTI_ERROR_NONE)
        return !t->running;
    t->stop = 1;
    (*jvmti)->RawMonitorNotifyAll(jvmti, t->wake);
    for (int waited = 0; t->running && waited < max_wait_ms; waited += 100)
        if ((*jvmti)->RawMonitorWait(jvmti, t->wake, 100) != JVMTI_ERROR_NONE) break;
    bool stopped = !t->running;
    (*jvmti)->RawMonitorExit(jvmti, t->wake);
    return stopped;
}
