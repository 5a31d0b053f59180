/* thread_labels.h: the "thread" label of a sample (threads=true): the JVM's side of
 * thread_ids.h, through JNI (java.lang.Thread's `tid` and `name` fields) and JVMTI
 * (GetThreadInfo, where the name field cannot be read). */
#ifndef HS_THREAD_LABELS_H
#define HS_THREAD_LABELS_H

#include <jvmti.h>
#include <stdint.h>

#include "sampling/thread_ids.h"

/* Pseudo-names of threads without a name: virtual threads are unnamed unless the program
 * names them; a platform thread named "" is rare. */
#define HS_THREAD_NAME_UNNAMED "[unnamed thread]"
#define HS_THREAD_NAME_UNNAMED_VIRTUAL "[unnamed virtual thread]"

/* Looks up java.lang.Thread's `tid` and `name` fields once, before sampling is turned on
 * (live phase; again at a later start: same answer). A JVM without them (none of JDK 11-25)
 * is said once: names are then read through GetThreadInfo, at every sample without `tid`. */
void hs_thread_labels_prepare(JNIEnv *jni);

/* Hot path: the name id (thread_names.h) of the thread the allocation callback runs for:
 * `thread`, the callback's jthread (a virtual thread, not its carrier). */
uint32_t hs_thread_label(hs_thread_ids *ids, jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);

#endif
